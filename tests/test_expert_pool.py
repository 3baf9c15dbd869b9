"""Trained agents: VecGame.bot_actions (batched expert actions) and the weighted opponent pool."""

import numpy as np
import pytest

from dominion_env import VecGame
from dominion_env.agents import compile_bots
from dominion_env.analysis.arena import play_games
from dominion_env.cards import TABLE
from dominion_env.engine.batch import bot_action_game
from dominion_env.engine.layout import STATUS, TURN_NUMBER

LIBRARY = ["Big Money Ultimate", "Double Witch", "Random", "Militia", "Masquerade", "Torturer"]


def play_by_bot_actions(table, seat_bot, players, seed):
    """Every seat of every game answered by VecGame.bot_actions, until all games are over."""
    n = seat_bot.shape[0]
    v = VecGame(n, players=players, kingdom="random", first_player=0, autoreset=False)
    out = v.reset(seed=seed)
    rows = np.arange(n)
    for _ in range(100_000):
        running = v.running
        if not running.any():
            break
        ids = seat_bot[rows, np.maximum(out.current_player, 0)]
        actions = v.bot_actions(table, ids)
        assert ((actions >= 0) == running).all()
        out = v.step(actions)
    assert not v.running.any()
    return v


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bot_actions_for_every_seat_play_the_arena_games(players):
    """Stepping a plain VecGame with bot_actions at every decision plays exactly the games
    play_games plays for the same seed and seats, random bots included (same streams)."""
    table = compile_bots(LIBRARY)
    n = 48
    rng = np.random.default_rng(players)
    seat_bot = rng.integers(0, len(LIBRARY), size=(n, players))
    seat_bot[: n // 2, 0] = 0  # Big Money Ultimate in many games
    seed = 7 + players
    v = play_by_bot_actions(table, seat_bot, players, seed)
    expected = play_games(table, n, players=players, kingdom="random", seed=seed, seat_bot=seat_bot)
    np.testing.assert_array_equal(v.state["reward"][:, :players], expected.reward)
    np.testing.assert_array_equal(v.state["game"][:, TURN_NUMBER], expected.turns)
    np.testing.assert_array_equal(v.state["game"][:, STATUS], expected.status)


def per_row(v, table, ids):
    """bot_actions one row at a time through the single-game helper, on a copy of the
    expert stream (what the kernel must match)."""
    rng = v._expert_rng.copy()
    scratch = np.zeros_like(v.buffers.scratch)
    out = np.full(v.num_games, -1, np.int64)
    for g in np.flatnonzero(v.running):
        out[g] = bot_action_game(
            v.state, g, TABLE, table, int(ids[g]), v.action_mask[g], rng, scratch[g]
        )
    return out, rng


@pytest.mark.parametrize("learner", [False, True])
def test_bot_actions_equal_the_compiled_bots_own(learner):
    """Decision by decision, in plain mode (any player decides) and learner mode (the learner
    decides), the batched call gives each bot's own action and advances the same stream."""
    table = compile_bots(LIBRARY)
    kw = dict(opponents=compile_bots("Big Money Ultimate")) if learner else {}
    v = VecGame(32, players=3, kingdom="random", **kw)
    v.reset(seed=4)
    ids = np.arange(32) % len(LIBRARY)
    deciders = set()
    for t in range(150):
        expected, rng = per_row(v, table, ids)
        got = v.bot_actions(table, ids)
        np.testing.assert_array_equal(got, expected, err_msg=f"step {t}")
        np.testing.assert_array_equal(v._expert_rng, rng)
        assert v.action_mask[np.arange(32), got].all()
        deciders.update(v.current_player.tolist())
        # alternate between following the bots and random actions (varied positions)
        v.step(got if t % 2 else v.random_actions())
    if learner:
        assert (v.current_player == v.learner_seat).all()
    else:
        assert deciders == {0, 1, 2}


def test_bot_actions_change_no_game():
    v = VecGame(16, players=2, kingdom="random", opponents=compile_bots("Big Money"))
    v.reset(seed=1)
    for _ in range(5):
        v.step(v.random_actions())
    state = v.state.copy()
    obs, mask = v.observation.copy(), v.action_mask.copy()
    policy = v._policy_rng.copy()
    expert = v._expert_rng.copy()
    v.bot_actions(compile_bots(["Big Money Ultimate", "Chapel/Witch"]), np.arange(16) % 2)
    assert v.state.tobytes() == state.tobytes()
    np.testing.assert_array_equal(v.observation, obs)
    np.testing.assert_array_equal(v.action_mask, mask)
    np.testing.assert_array_equal(v._policy_rng, policy)
    np.testing.assert_array_equal(v._expert_rng, expert)  # priority bots draw nothing
    v.bot_actions(compile_bots("Random"), 0)
    assert (v._expert_rng != expert).all()
    assert v.state.tobytes() == state.tobytes()


def test_bot_actions_of_finished_games_are_minus_one():
    v = VecGame(8, players=2, kingdom="First Game", autoreset=False, turn_limit=3)
    out = v.reset(seed=0)
    table = compile_bots("Big Money")
    while v.running.all():
        out = v.step(v.bot_actions(table, 0))
    a = v.bot_actions(table, 0)
    np.testing.assert_array_equal(a == -1, ~v.running)
    assert (out.current_player[~v.running] == -1).all()


def test_bot_actions_depend_on_the_reset_seed_only():
    table = compile_bots(["Random", "Big Money"])
    a = VecGame(64, players=2)
    b = VecGame(8, players=2)
    a.reset(seed=3)
    b.reset(seed=3)
    for _ in range(50):
        x = a.bot_actions(table, 0)
        y = b.bot_actions(table, 0)
        np.testing.assert_array_equal(x[:8], y)
        a.step(x)
        b.step(y)


# -- the opponent pool --------------------------------------------------------------------

POOL = ["Big Money", "Smithy", "Double Witch", "Militia"]


def test_pool_draws_follow_the_weights():
    weights = np.array([0.5, 0.3, 0.2, 0.0])
    v = VecGame(
        1000,
        players=4,
        kingdom="First Game",
        opponents=compile_bots(POOL),
        opponent_weights=weights,
    )
    v.reset(seed=0)
    bots = v.opponent_bots
    learner = bots == -1
    assert (learner.sum(axis=1) == 1).all()
    assert (bots[np.arange(1000), v.learner_seat] == -1).all()
    drawn = bots[~learner]
    assert drawn.size == 3000
    share = np.bincount(drawn, minlength=4) / drawn.size
    np.testing.assert_allclose(share, weights, atol=0.03)
    assert (drawn != 3).all(), "a zero-weight bot never plays"


def test_autoreset_draws_a_new_pool_and_keeps_the_finished_one():
    weights = [1.0, 0.0, 2.0, 1.0]
    v = VecGame(64, players=2, opponents=compile_bots(POOL), opponent_weights=weights)
    v.reset(seed=2)
    assert (v.finished_opponent_bots == -1).all()
    finished = []
    for _ in range(2000):
        before = v.opponent_bots.copy()
        out = v.step(v.random_actions())
        done = out.terminated | out.truncated
        np.testing.assert_array_equal(v.finished_opponent_bots[done], before[done])
        assert (v.finished_opponent_bots[~done] == -1).all()
        np.testing.assert_array_equal(v.opponent_bots[~done], before[~done])
        finished.append(v.finished_opponent_bots[done])
        if sum(len(f) for f in finished) >= 1000:
            break
    games = np.concatenate(finished)
    assert len(games) >= 1000
    drawn = games[games >= 0]
    assert len(drawn) == len(games)  # 2 players: one bot per game
    share = np.bincount(drawn, minlength=4) / len(drawn)
    np.testing.assert_allclose(share, np.array(weights) / 4, atol=0.05)
    assert (drawn != 1).all()


def test_a_one_bot_pool_plays_that_bot():
    """With a fixed learner seat and priority bots, the pool's draws are the only use of the
    opponents' stream, so a pool weighing only Smithy plays Smithy's games exactly."""
    a = VecGame(
        32, players=3, opponents=compile_bots(POOL), opponent_weights=[0, 1, 0, 0], learner_seat=1
    )
    b = VecGame(32, players=3, opponents=compile_bots("Smithy"), learner_seat=1)
    oa, ob = a.reset(seed=9), b.reset(seed=9)
    for _ in range(300):
        np.testing.assert_array_equal(oa.observation, ob.observation)
        np.testing.assert_array_equal(oa.rewards, ob.rewards)
        assert (a.opponent_bots == [1, -1, 1]).all() and (b.opponent_bots == [0, -1, 0]).all()
        act = a.random_actions()
        np.testing.assert_array_equal(act, b.random_actions())
        oa, ob = a.step(act), b.step(act)


def test_pool_draws_do_not_depend_on_the_batch():
    kw = dict(
        players=3, opponents=compile_bots(POOL + ["Random"]), opponent_weights=[1, 1, 1, 1, 1]
    )
    a = VecGame(96, **kw)  # parallel (>= PARALLEL_MIN_GAMES)
    b = VecGame(12, **kw)  # one thread
    a.reset(seed=5)
    b.reset(seed=5)
    for _ in range(400):
        np.testing.assert_array_equal(a.opponent_bots[:12], b.opponent_bots)
        np.testing.assert_array_equal(a.learner_seat[:12], b.learner_seat)
        np.testing.assert_array_equal(a.observation[:12], b.observation)
        act = a.random_actions()
        np.testing.assert_array_equal(act[:12], b.random_actions())
        a.step(act)
        b.step(act[:12])
        np.testing.assert_array_equal(a.finished_opponent_bots[:12], b.finished_opponent_bots)
    c = VecGame(12, **kw)
    c.reset(seed=6)
    assert (c.opponent_bots != b.opponent_bots).any(), "another seed, other draws"


def test_opponent_bots_without_a_pool():
    v = VecGame(8, players=3, opponents=compile_bots("Big Money"))
    v.reset(seed=0)
    expect = np.zeros((8, 3), np.int64)
    expect[np.arange(8), v.learner_seat] = -1
    np.testing.assert_array_equal(v.opponent_bots, expect)
    v = VecGame(8, players=3, opponents=compile_bots(["Big Money", "Smithy"]))
    v.reset(seed=0)
    for g in range(8):
        row = v.opponent_bots[g].tolist()
        seat = int(v.learner_seat[g])
        assert row.pop(seat) == -1 and row == [0, 1]
    plain = VecGame(4, players=2)
    plain.reset(seed=0)
    assert (plain.opponent_bots == -1).all() and (plain.finished_opponent_bots == -1).all()


# -- bad input ----------------------------------------------------------------------------


def test_bot_actions_bad_input():
    v = VecGame(4, players=2)
    table = compile_bots(["Big Money", "Smithy"])
    with pytest.raises(RuntimeError, match="reset"):
        v.bot_actions(table, 0)
    v.reset(seed=0)
    with pytest.raises(TypeError, match="table must be a compiled BotTable"):
        v.bot_actions("Big Money", 0)
    with pytest.raises(TypeError, match="bots must be a bot id 0..1"):
        v.bot_actions(table, True)
    with pytest.raises(TypeError, match="dtype float64"):
        v.bot_actions(table, np.zeros(4))
    with pytest.raises(ValueError, match=r"shape \(4,\), got shape \(3,\)"):
        v.bot_actions(table, [0, 1, 0])
    with pytest.raises(ValueError, match=r"bots\[2\] = 2 is not a bot of table: ids are 0..1"):
        v.bot_actions(table, [0, 1, 2, 0])
    with pytest.raises(ValueError, match=r"bots\[0\] = -1"):
        v.bot_actions(table, -1)
    with pytest.raises(ValueError, match="kind"):
        v.bot_actions(type(table)(table.kind[:0], table.rules[:0]), 0)


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(opponent_weights=[1.0]), ValueError, "opponent_weights needs opponents"),
        (
            dict(opponents=compile_bots(POOL), opponent_weights=[1, 1]),
            ValueError,
            r"shape \(4,\), one weight per bot of opponents, got shape \(2,\)",
        ),
        (
            dict(opponents=compile_bots(POOL), opponent_weights=[1, -1, 1, 1]),
            ValueError,
            ">= 0 with a positive sum",
        ),
        (
            dict(opponents=compile_bots(POOL), opponent_weights=[0, 0, 0, 0]),
            ValueError,
            "positive sum",
        ),
        (
            dict(opponents=compile_bots(POOL), opponent_weights=[1, np.nan, 1, 1]),
            ValueError,
            "finite",
        ),
        (
            dict(opponents=compile_bots(POOL), opponent_weights=["a", "b", "c", "d"]),
            TypeError,
            "opponent_weights must be numbers",
        ),
        (dict(opponents=compile_bots(POOL)), ValueError, "or give opponent_weights"),
    ],
)
def test_bad_pool_settings(kwargs, error, message):
    with pytest.raises(error, match=message):
        VecGame(2, players=2, **kwargs)
