"""Determinism: the same seed and the same actions give the same game, bit for bit.

Game g of a batch reset with seed s is game number g of the run seeded s whatever the batch
size, the thread count or the chunking (every game draws from its own RNG stream and touches
only its own record). Trajectories here are recorded over 300 steps of random actions from
``VecGame.random_actions`` (a per-game policy stream seeded by ``reset``), so the actions of game
g do not depend on the batch either; with autoreset on, each row plays several games in a row.
"""

import numba
import numpy as np
import pytest

from dominion_env import Game, VecGame
from dominion_env.agents import BOTS, compile_bots
from dominion_env.analysis.arena import play_games

STEPS = 300
KEEP = 64  # rows of each trajectory that are recorded and compared
FIELDS = ("observation", "action_mask", "current_player", "rewards", "terminated", "truncated")


@pytest.fixture
def threads():
    """Set Numba's thread count inside a test and restore it afterwards."""
    before = numba.get_num_threads()
    yield numba.set_num_threads
    numba.set_num_threads(before)


def trajectory(num_games, seed, players=3, steps=STEPS, keep=KEEP, **options):
    """Play ``steps`` steps of random actions; return the first ``keep`` rows of every Step
    field and of the actions at every step (step 0 = reset), and the final state records."""
    vec = VecGame(num_games, players, **options)
    k = min(keep, num_games)
    rec = {f: [] for f in FIELDS + ("actions",)}

    def put(out, actions):
        for f in FIELDS:
            rec[f].append(np.array(getattr(out, f)[:k], copy=True))
        rec["actions"].append(actions[:k].copy())

    put(vec.reset(seed), np.full(num_games, -1, np.int64))
    for _ in range(steps):
        actions = vec.random_actions()
        put(vec.step(actions), actions)
    return {f: np.stack(v) for f, v in rec.items()}, vec.state.copy()


def assert_same(a, b, rows=None):
    """Trajectories a and b identical bit for bit on their first ``rows`` rows."""
    for f in a:
        x, y = a[f], b[f]
        if rows is not None:
            x, y = x[:, :rows], y[:, :rows]
        assert x.shape == y.shape, f
        assert x.dtype == y.dtype, f
        assert x.tobytes() == y.tobytes(), (
            f"{f} differs (first step: "
            f"{int(np.flatnonzero((x != y).reshape(len(x), -1).any(axis=1))[0])})"
        )


# -- (a) batch size -------------------------------------------------------------------------


def test_game_g_is_the_same_in_every_batch_size():
    t64, s64 = trajectory(64, seed=123)
    t1, s1 = trajectory(1, seed=123)
    t1000, s1000 = trajectory(1000, seed=123)
    assert_same(t1, t64, rows=1)
    assert_same(t1000, t64)
    # the whole game records agree too, not only what the API shows
    assert s1[:1].tobytes() == s64[:1].tobytes()
    assert s1000[:64].tobytes() == s64.tobytes()


def test_trajectories_are_not_trivial():
    """The trajectories compared above hold real play: several decision makers, new games
    after autoreset, and more than one legal action at many steps."""
    t, _ = trajectory(64, seed=123)
    assert len(np.unique(t["current_player"])) == 3
    assert (t["action_mask"].sum(axis=2) > 1).mean() > 0.5
    turn = t["observation"][:, :, _turn_number_index(3)]
    assert (np.diff(turn, axis=0) < 0).any(), "no game ended and restarted within the steps"


def test_vecgame_reports_the_game_ends_in_a_trajectory():
    """Every game end seen in a trajectory (autoreset: the turn number drops back to 1) is
    reported on that step by terminated or truncated, with the final rewards; every other
    step reports zero rewards. (The rewards compared in the determinism tests are real.)

    Failed at commit 615a02d: VecGame.step never set rewards / terminated / truncated, as
    step_kernel wrote them through the Buffers named tuple directly in the prange body, where
    Numba drops such writes (numba issues #5872, #7135, #10338)."""
    t, _ = trajectory(64, seed=123)
    turn = t["observation"][:, :, _turn_number_index(3)]
    restarted = np.zeros_like(t["terminated"])
    restarted[1:] = np.diff(turn, axis=0) < 0
    reported = t["terminated"] | t["truncated"]
    assert restarted.sum() > 0
    assert reported.sum() == restarted.sum(), (
        f"{int(restarted.sum())} game ends, {int(reported.sum())} reported"
    )
    for r in t["rewards"][t["terminated"]]:  # one winner, or a win shared by 2+ players
        assert (
            (r == 1).sum() == 1
            and (r == -1).sum() == len(r) - 1
            or (r == 0).sum() >= 2
            and (r == -1).sum() == len(r) - (r == 0).sum()
        ), r
    assert (t["rewards"][~t["terminated"]] == 0).all()


def _turn_number_index(players):
    from dominion_env.engine.observation import O_TURN_NUMBER, obs_offsets

    return int(obs_offsets(players)[O_TURN_NUMBER])


# -- (b) thread count -----------------------------------------------------------------------


def test_same_games_with_one_or_two_threads(threads):
    threads(1)
    t_one, s_one = trajectory(1000, seed=7, players=2)
    threads(2)
    t_two, s_two = trajectory(1000, seed=7, players=2)
    assert numba.get_num_threads() == 2
    assert_same(t_one, t_two)
    assert s_one.tobytes() == s_two.tobytes()  # every record of the batch


def test_same_games_without_autoplay_or_auto_resolve(threads):
    """The same with every decision stopping (other code paths in the turn)."""
    options = dict(autoplay_treasures=False, auto_resolve=False, turn_limit=30)
    threads(1)
    t_one, s_one = trajectory(200, seed=8, players=4, **options)
    threads(2)
    t_two, s_two = trajectory(200, seed=8, players=4, **options)
    t_small, s_small = trajectory(16, seed=8, players=4, **options)
    assert_same(t_one, t_two)
    assert s_one.tobytes() == s_two.tobytes()
    assert_same(t_small, t_one, rows=16)
    assert s_small.tobytes() == s_one[:16].tobytes()


def test_game_is_row_zero_of_a_vecgame():
    """Game (a batch of one, logging on, no autoreset) plays game 0 of its seed."""
    vec = VecGame(8, 2, autoreset=False)
    vec.reset(42)
    g = Game("random", players=2, seed=42)
    rng = np.random.default_rng(0)
    for _ in range(400):
        if g.done:
            break
        assert vec.observation[0].tobytes() == g.observation().tobytes()
        assert vec.action_mask[0].tobytes() == g.action_mask.tobytes()
        assert int(vec.current_player[0]) == g.current_player
        a = int(rng.choice(np.flatnonzero(g.action_mask)))
        actions = vec.random_actions()
        actions[0] = a
        g.step(a)
        vec.step(np.where(vec.running, actions, 0))
    assert g.done and not vec.running[0]
    assert vec.state["reward"][0, :2].tobytes() == g.rewards.tobytes()


# -- (c) arena: chunk size and thread count -------------------------------------------------

ARENA_CASES = [
    (2, ["Big Money Ultimate", "Smithy"], 5000),
    (4, ["Random", "Big Money", "Smithy", "Big Money Ultimate"], 3000),
]


@pytest.mark.parametrize("players,bots,n", ARENA_CASES)
def test_arena_results_do_not_depend_on_chunks_or_threads(threads, players, bots, n):
    table = compile_bots([BOTS[b] for b in bots])
    results = {}
    for nthreads in (1, 2):
        threads(nthreads)
        for chunk in (1000, 4096):
            results[nthreads, chunk] = play_games(table, n, players, seed=99, chunk=chunk)
    ref = results[2, 4096]
    assert (ref.turns > 0).all()
    for key, r in results.items():
        for field in ("seat_bot", "reward", "turns", "status"):
            a, b = getattr(r, field), getattr(ref, field)
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), (key, field)


# -- (d) different seeds, different games ---------------------------------------------------


def test_different_seeds_give_different_games():
    t0, _ = trajectory(64, seed=0)
    t1, _ = trajectory(64, seed=1)
    obs0, obs1 = t0["observation"], t1["observation"]
    # every row differs somewhere, and most rows already differ in their first observation
    assert (obs0 != obs1).any(axis=(0, 2)).all()
    assert (obs0[0] != obs1[0]).any(axis=1).mean() > 0.9


def test_games_of_one_batch_differ_from_each_other():
    t, _ = trajectory(64, seed=5)
    rows = t["observation"].transpose(1, 0, 2).reshape(64, -1)
    assert len({r.tobytes() for r in rows}) == 64


def test_arena_seeds_give_different_games():
    table = compile_bots([BOTS["Big Money Ultimate"], BOTS["Smithy"]])
    a = play_games(table, 500, 2, seed=1)
    b = play_games(table, 500, 2, seed=2)
    c = play_games(table, 500, 2, seed=1)
    assert a.turns.tobytes() == c.turns.tobytes() and a.reward.tobytes() == c.reward.tobytes()
    assert (a.turns != b.turns).mean() > 0.3 or (a.reward != b.reward).any(axis=1).mean() > 0.3
