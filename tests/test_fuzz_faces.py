"""Property-based fuzzing of the public faces: whatever a caller passes, a face either
behaves validly or raises a clear error of a documented type (TypeError, ValueError;
``IllegalActionError`` is a ValueError) from the face itself, never from deep inside numpy or a
kernel; after an error the object is unchanged (its full state arrays compared) and a legal
step still works.

Hypothesis runs under the "dominion" profile below: derandomized (the same examples on every
run, so CI is reproducible) and few examples per test (the whole file in well under 30 s).
``HYPOTHESIS_PROFILE=deep`` runs many more, with random draws.
"""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from dominion_env import NUM_ACTIONS, Game, VecGame
from dominion_env.envs import pettingzoo_env
from dominion_env.envs.common import OPTIONS
from dominion_env.envs.gym_env import DominionEnv
from dominion_env.envs.sb3_vec_env import DominionVecEnv
from dominion_env.envs.vector_env import DominionVectorEnv

settings.register_profile(
    "dominion",
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.register_profile("deep", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dominion"))

KINGDOM = [
    "Village",
    "Smithy",
    "Militia",
    "Market",
    "Festival",
    "Throne Room",
    "Cellar",
    "Moat",
    "Gardens",
    "Witch",
]
N = 3

# -- what callers might pass ------------------------------------------------------------------

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, NUM_ACTIONS + 2),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.sampled_from(["PASS", "option 0", "option 7", "option x", "70", "Village", "Copper"]),
    st.sampled_from([np.uint64(2**64 - 1), np.int8(3), np.float32(1.0), np.bool_(True)]),
)
dtypes = st.sampled_from(
    [np.int64, np.int32, np.uint8, np.uint64, np.float64, np.bool_, np.int8, np.float32]
)
arrays = hnp.arrays(dtypes, st.sampled_from([(), (N,), (N, 1), (1, N), (N + 1,), (0,)]))
anything = st.one_of(scalars, arrays, st.lists(scalars, max_size=4), st.tuples(scalars))
seeds = st.one_of(scalars, st.integers(2**63 - 2, 2**63 + 2))


# -- the properties ---------------------------------------------------------------------------


def raised_by_us(e: BaseException) -> None:
    """The error comes from this package's code (its own check), not from numpy or Numba."""
    tb = e.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    where = tb.tb_frame.f_code.co_filename
    assert "dominion_env" in where or "/train/" in where or "/agents/" in where, (
        f"{type(e).__name__} raised deep in {where}: {e}"
    )
    assert str(e), "an error without a message"


def same(a, b) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b, strict=True):
        if isinstance(x, np.ndarray):
            assert np.array_equal(x, y), "state changed by a call that raised"
        else:
            assert x == y, "state changed by a call that raised"


def attempt(call, snapshot, then) -> bool:
    """Call; on an error, check its type and origin, that ``snapshot()`` is unchanged, and that
    ``then()`` (a legal step) works. True when the call succeeded."""
    before = snapshot()
    try:
        call()
    except (TypeError, ValueError) as e:
        raised_by_us(e)
        same(before, snapshot())
        then()
        return False
    return True


def vec_state(vec: VecGame) -> list:
    b = vec.buffers
    return [vec.state.copy(), *(np.array(getattr(b, f)) for f in b._fields)]


def legal(mask_row) -> int:
    return int(np.flatnonzero(mask_row)[0])


def playable(vec: VecGame) -> bool:
    """Every running game has a decider and at least one legal action: the object is still
    usable, whatever the call before did or refused."""
    run = vec.running
    who = vec.current_player[run]
    return bool(vec.action_mask[run].any(axis=1).all() and ((who >= 0) & (who < vec.players)).all())


# -- Game -------------------------------------------------------------------------------------


def new_game(**kw):
    return Game(KINGDOM, seed=5, auto_resolve=False, autoplay_treasures=False, **kw)


GAME = new_game()


def fresh_game():
    GAME.reset(5)
    GAME.step(legal(GAME.action_mask))
    return GAME


@given(action=anything)
def test_game_step(action):
    g = fresh_game()
    if attempt(
        lambda: g.step(action), lambda: vec_state(g._vec), lambda: g.step(legal(g.action_mask))
    ):
        assert not g.done or g.current_player == -1


cards = st.sampled_from(["Copper", "Village", "Witch", "Province", "Curse", "Nope", 3, None])
counts = st.one_of(st.integers(-2, 130), st.booleans(), st.floats(), st.none())
zone = st.one_of(
    st.lists(cards, max_size=6),
    st.dictionaries(cards, counts, max_size=3),
    scalars,
)
per_player = st.one_of(
    st.none(), st.dictionaries(st.one_of(st.integers(-1, 3), scalars), zone, max_size=2), scalars
)


@given(
    hands=per_player,
    decks=per_player,
    discards=per_player,
    supply=st.one_of(st.none(), st.dictionaries(cards, counts, max_size=3)),
    turn_player=st.one_of(st.integers(-1, 2), scalars),
    phase=st.one_of(st.sampled_from(["action", "buy", "buying", "cleanup"]), scalars),
    coins=st.one_of(st.integers(0, 10), scalars),
    turns_taken=st.one_of(st.none(), st.lists(st.integers(-2, 200), max_size=3), scalars),
)
def test_game_set_scenario(**kw):
    g = fresh_game()
    if attempt(
        lambda: g.set_scenario(**kw),
        lambda: vec_state(g._vec),
        lambda: g.step(legal(g.action_mask)),
    ):
        if not g.done:  # a position it took plays on
            g.step(legal(g.action_mask))
    assert playable(g._vec)


@given(
    players=st.one_of(st.integers(1, 7), scalars),
    kingdom=st.one_of(st.just(KINGDOM), st.just("random"), st.just("First Game"), scalars),
    pool=st.one_of(st.none(), st.just(KINGDOM + ["Chapel"]), scalars),
    first_player=st.one_of(st.none(), st.integers(-1, 3), scalars),
    turn_limit=st.one_of(st.integers(0, 3), scalars),
    seed=seeds,
)
def test_game_and_vecgame_constructors(players, kingdom, pool, first_player, turn_limit, seed):
    kw = dict(kingdom=kingdom, pool=pool, first_player=first_player, turn_limit=turn_limit)
    for make in (lambda: Game(players=players, seed=seed, **kw), lambda: VecGame(2, players, **kw)):
        try:
            made = make()
        except (TypeError, ValueError) as e:
            raised_by_us(e)
            continue
        if isinstance(made, VecGame):
            made.reset(0)
            made.step(made.random_actions())
            assert playable(made)
        else:
            made.step(legal(made.action_mask))
            assert playable(made._vec)


# -- VecGame ----------------------------------------------------------------------------------

VEC = VecGame(N, kingdom=KINGDOM)


@given(actions=anything, seed=seeds)
def test_vecgame_step_and_reset(actions, seed):
    VEC.reset(0)
    VEC.step(VEC.random_actions())
    attempt(
        lambda: VEC.step(actions), lambda: vec_state(VEC), lambda: VEC.step(VEC.random_actions())
    )
    attempt(lambda: VEC.reset(seed), lambda: vec_state(VEC), lambda: VEC.step(VEC.random_actions()))
    assert playable(VEC)


# -- the envs ---------------------------------------------------------------------------------

GYM = DominionEnv(players=2, kingdom=KINGDOM, illegal_action="raise")


def gym_state(env):
    return [*vec_state(env.game._vec), env._over, env.learner_seat]


@given(action=anything, seed=seeds)
def test_gym_env(action, seed):
    GYM.reset(seed=0)
    step = lambda: GYM.step(legal(GYM.action_masks()))  # noqa: E731
    attempt(lambda: GYM.step(action), lambda: gym_state(GYM), step)
    attempt(lambda: GYM.reset(seed=seed), lambda: gym_state(GYM), step)
    assert playable(GYM.game._vec)


VENV = DominionVectorEnv(N, kingdom=KINGDOM)
SB3 = DominionVecEnv(N, kingdom=KINGDOM)


def legal_rows(masks):
    return np.array([legal(m) for m in masks])


@given(actions=anything, seed=seeds)
def test_gymnasium_vector_env(actions, seed):
    VENV.reset(seed=0)
    step = lambda: VENV.step(legal_rows(VENV.action_masks()))  # noqa: E731
    attempt(lambda: VENV.step(actions), lambda: vec_state(VENV.vec), step)
    attempt(lambda: VENV.reset(seed=seed), lambda: vec_state(VENV.vec), step)
    assert playable(VENV.vec)


@given(actions=anything, seed=seeds)
def test_sb3_vec_env(actions, seed):
    SB3.seed(0)
    SB3.reset()
    step = lambda: SB3.step(legal_rows(SB3.action_masks()))  # noqa: E731
    attempt(lambda: SB3.step(actions), lambda: vec_state(SB3.vec), step)
    attempt(lambda: SB3.seed(seed), lambda: vec_state(SB3.vec), step)
    assert playable(SB3.vec)


AEC = pettingzoo_env.raw_env(players=3, kingdom=KINGDOM)


def aec_state(env):
    return [*vec_state(env.game._vec), env.agent_selection, dict(env.rewards), list(env.agents)]


@given(action=anything, seed=seeds, coins=st.one_of(st.integers(0, 3), scalars))
def test_pettingzoo(action, seed, coins):
    AEC.reset(seed=0)

    def step():
        agent = AEC.agent_selection
        AEC.step(legal(AEC.observe(agent)["action_mask"]))

    attempt(lambda: AEC.step(action), lambda: aec_state(AEC), step)
    attempt(lambda: AEC.reset(seed=seed), lambda: aec_state(AEC), step)
    attempt(lambda: AEC.set_scenario(coins=coins, phase="buying"), lambda: aec_state(AEC), step)
    assert playable(AEC.game._vec)


# -- seeds of any size, record folders that cannot be written, every face's options -----------


@given(seed=st.integers(0, 2**4096))
def test_single_game_faces_take_a_seed_of_any_size(seed):
    """A reset seed seeds the env's generator (numpy's SeedSequence takes all its bits): any
    int >= 0 gives one game, the same every time."""
    first = GYM.reset(seed=seed)[0]
    np.testing.assert_array_equal(GYM.reset(seed=seed)[0], first)
    AEC.reset(seed=seed)
    game = AEC.game_seed
    AEC.reset(seed=seed)
    assert AEC.game_seed == game < 2**62


def test_negative_and_non_int_reset_seeds_are_refused():
    for reset in (GYM.reset, AEC.reset):
        with pytest.raises(ValueError, match=r"seed must be None or an int >= 0 .* got -1"):
            reset(seed=-1)
        with pytest.raises(TypeError, match="seed must be None or an int >= 0"):
            reset(seed=1.0)


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs Linux's /proc")
@pytest.mark.parametrize("folder", ["/proc/dominion-records", "/proc/self", "/proc/self/x/y"])
def test_a_record_dir_that_cannot_be_written_is_refused_when_the_env_is_made(folder):
    # /proc refuses new files and folders even to root, whom permission bits do not stop
    for make in (DominionEnv, pettingzoo_env.raw_env):
        with pytest.raises(ValueError, match=f"record_dir '{folder}' cannot be written"):
            make(record_dir=folder)


def test_a_writable_record_dir_is_checked_without_a_trace(tmp_path):
    DominionEnv(record_dir=tmp_path / "a" / "b")
    assert list(tmp_path.iterdir()) == []  # made, probed and removed: written at episode end
    (tmp_path / "file").write_text("")
    with pytest.raises(ValueError, match="record_dir must be a folder"):
        pettingzoo_env.raw_env(record_dir=tmp_path / "file")
    with pytest.raises(ValueError, match="cannot be written: Not a directory"):
        DominionEnv(record_dir=tmp_path / "file" / "x")


FACES = {
    "gym": DominionEnv,
    "vector": DominionVectorEnv,
    "sb3": DominionVecEnv,
    "pettingzoo": pettingzoo_env.raw_env,
}


@given(
    face=st.sampled_from(sorted(FACES)),
    option=st.sampled_from([o.name for o in OPTIONS]),
    value=st.one_of(scalars, st.lists(scalars, max_size=3), st.integers(0, 2**200)),
)
def test_every_face_checks_every_option(face, option, value):
    """Any value of any option, on any face: an env, or a TypeError / ValueError from the
    face's own check (an option the face does not take is refused with the reason)."""
    try:
        FACES[face](**{option: value})
    except (TypeError, ValueError) as e:
        raised_by_us(e)


# -- the OpenSpiel game (the openspiel extra) ------------------------------------------------


@given(
    players=st.one_of(scalars, st.integers(2, 6)),
    kingdom=st.one_of(scalars, st.sampled_from(["random", "First Game", ",".join(KINGDOM)])),
    turn_limit=st.one_of(scalars, st.integers(1, 50)),
    seed=seeds,
)
def test_openspiel_game_parameters(players, kingdom, turn_limit, seed):
    og = pytest.importorskip("dominion_env.envs.openspiel_game", reason="the openspiel extra")
    params = {"players": players, "kingdom": kingdom, "turn_limit": turn_limit, "seed": seed}
    try:
        game = og.DominionGame(params)
    except (TypeError, ValueError) as e:
        raised_by_us(e)
        return
    assert game.num_players() == players and not game.new_initial_state().is_terminal()


@given(action=st.one_of(st.integers(-3, NUM_ACTIONS + 2), st.integers(-(2**31), 2**31 - 1)))
def test_openspiel_apply_action(action):
    og = pytest.importorskip("dominion_env.envs.openspiel_game", reason="the openspiel extra")
    state = og.DominionGame({"kingdom": ",".join(KINGDOM), "seed": 5}).new_initial_state()
    if action == -1:  # OpenSpiel's kInvalidAction: OpenSpiel refuses it before the game sees it
        with pytest.raises(og.pyspiel.SpielError, match="kInvalidAction"):
            state.apply_action(action)
        assert state.history() == []
        return
    attempt(
        lambda: state.apply_action(action),
        lambda: [state._vec.state.copy(), list(state.history())],
        lambda: state.apply_action(state.legal_actions()[0]),
    )
