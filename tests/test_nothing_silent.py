"""Nothing silent: positions the engine cannot hold are refused before anything
changes, an opponent policy that fails cannot hand its decision to the learner, returned
buffers cannot be written, and bad arguments get a clear error at the public face."""

import os

import gymnasium
import numpy as np
import pytest

from dominion_env import NUM_ACTIONS, Game, VecGame
from dominion_env.checks import MAX_SEED
from dominion_env.engine.layout import FRAME_DEPTH, MAX_THRONE_ROOMS, SP, deck_capacity
from dominion_env.envs import pettingzoo_env
from dominion_env.envs.gym_env import DominionEnv
from dominion_env.envs.sb3_vec_env import DominionVecEnv
from dominion_env.envs.vector_env import DominionVectorEnv
from dominion_env.names import IllegalActionError

KINGDOM = [
    "Village",
    "Smithy",
    "Laboratory",
    "Market",
    "Festival",
    "Throne Room",
    "Militia",
    "Secret Chamber",
    "Moat",
    "Gardens",
]


def full_state(g: Game):
    """Everything a Game holds that a failed call must leave as it was."""
    v = g._vec
    return [v.state.copy(), *(np.array(getattr(v.buffers, f)) for f in v.buffers._fields)]


def assert_unchanged(before, g: Game):
    after = full_state(g)
    for x, y in zip(before, after, strict=True):
        assert np.array_equal(x, y)


def game(**kw):
    return Game(KINGDOM, seed=3, auto_resolve=False, autoplay_treasures=False, **kw)


# -- set_scenario: check everything, then write ------------------------------------------------

BAD_SCENARIOS = [
    (dict(turns_taken=[1, 2, 3]), ValueError, "turns_taken"),
    (dict(turns_taken=["a", 1]), ValueError, "turns_taken"),
    (dict(turns_taken=5), ValueError, "turns_taken"),
    (dict(turns_taken=[-5, 0]), ValueError, "turns_taken"),
    (dict(turns_taken=[101, 0]), ValueError, r"turns_taken.*turn_limit"),
    (dict(coins=2**63), ValueError, r"coins must be an int 0\.\.10000, got 9223372036854775808"),
    (dict(actions=2**64), ValueError, "actions must be"),
    (dict(buys=-1), ValueError, "buys must be"),
    (dict(coins=2.0), TypeError, r"coins must be an int.*float"),
    (dict(turn_player=1.5), TypeError, r"turn_player must be an int 0\.\.1, got 1\.5"),
    (dict(turn_player=True), TypeError, "turn_player"),
    (dict(phase=["action"]), ValueError, "phase must be one of"),
    (dict(in_play={0: {"Copper": 1.5}}), ValueError, "count for 'Copper'"),
    (dict(in_play={0: {"Copper": True}}), ValueError, "count for 'Copper'"),
]


@pytest.mark.parametrize("kw, error, match", BAD_SCENARIOS)
def test_bad_scenario_leaves_the_game_as_it_was(kw, error, match):
    g = game()
    g.step(g.legal_actions()[0])  # a game in progress, not a fresh one
    before = full_state(g)
    with pytest.raises(error, match=match):
        g.set_scenario(hands={0: ["Village", "Copper"]}, discards={1: ["Gold"]}, **kw)
    assert_unchanged(before, g)
    g.step(g.legal_actions()[0])  # still usable


@pytest.mark.parametrize("kw, error, match", BAD_SCENARIOS[:8])
def test_bad_scenario_through_pettingzoo(kw, error, match):
    for fresh in (True, False):
        aec = pettingzoo_env.raw_env(players=2, kingdom=KINGDOM)
        if not fresh:
            aec.reset(seed=1)
        before = (full_state(aec.game), aec.agents[:], aec.agent_selection if aec.agents else None)
        with pytest.raises(error, match=match):
            aec.set_scenario(hands={0: ["Village"]}, **kw)
        assert_unchanged(before[0], aec.game)
        assert aec.agents == before[1]
        if not fresh:
            assert aec.agent_selection == before[2]
    aec.set_scenario(hands={0: ["Village"]})
    assert aec.agent_selection == "player_0"


def test_draw_pile_overflow_is_refused():
    # 580 cards for player 0 to shuffle into a 490-card row: it would overwrite player 1's pile
    g = game()
    before = full_state(g)
    big = {"Copper": 80, "Silver": 80, "Gold": 90, "Village": 110, "Laboratory": 110}
    with pytest.raises(ValueError, match=r"holds \d+ cards in all.*at most 490"):
        g.set_scenario(hands={0: ["Smithy"]}, discards={0: {**big, "Market": 110}})
    assert_unchanged(before, g)


def test_the_most_cards_a_position_may_hold_play():
    # every card the record can hold, all of them player 0's: a Smithy shuffles 485 cards
    cap = deck_capacity(6)
    g = game()
    supply = {c: 0 for c in g.supply}
    discard = {"Copper": 120, "Silver": 120, "Gold": 120, "Village": 120 - 5 + cap - 480}
    g.set_scenario(hands={0: ["Smithy"] * 5}, discards={0: discard}, supply=supply)
    assert sum(sum(z.values()) for z in g.zones(0).values() if isinstance(z, dict)) == cap
    g.step("Smithy")
    assert len(g.zones(0)["deck"]) == cap - 5 - 3
    assert g.zones(1)["deck"] == []
    with pytest.raises(ValueError, match=f"holds {cap + 1} cards"):
        g.set_scenario(hands={0: ["Smithy"] * 6}, discards={0: discard}, supply=supply)


def test_the_deepest_throne_room_chain_fits_the_frame_stack():
    """MAX_THRONE_ROOMS Throne Rooms chained onto a Militia, answered with Secret Chamber: the
    stack reaches FRAME_DEPTH exactly (the bound in layout is tight) and the turn plays on."""
    g = game()
    hand = {"Throne Room": MAX_THRONE_ROOMS, "Militia": 1}
    g.set_scenario(
        hands={0: hand, 1: ["Secret Chamber", "Copper", "Copper"]},
        decks={1: ["Estate", "Estate"]},
        supply={"Throne Room": 0},
    )
    deepest = 0
    for _ in range(1000):
        if g.turn["player"] != 0 or g.done:
            break
        legal = g.legal_actions()
        prefer = ["Throne Room", "Militia", "Secret Chamber", "Estate", "Copper", "PASS"]
        g.step(next((a for a in prefer if a in legal), legal[0]))
        deepest = max(deepest, int(g.state["game"][0, SP]))
    assert deepest == FRAME_DEPTH
    assert g.turn["player"] == 1


def test_too_many_throne_rooms_are_refused():
    g = game()
    before = full_state(g)
    with pytest.raises(ValueError, match=f"{MAX_THRONE_ROOMS + 1} Throne Rooms"):
        g.set_scenario(
            hands={0: {"Throne Room": 20}},
            discards={1: {"Throne Room": 9}},
            supply={"Throne Room": 0},
        )
    with pytest.raises(ValueError, match="40 Throne Rooms"):
        g.set_scenario(hands={0: {"Throne Room": 40}}, supply={"Throne Room": 0})
    assert_unchanged(before, g)


# -- returned buffers are read-only ------------------------------------------------------------


def test_returned_buffers_cannot_be_written():
    g = game()
    with pytest.raises(ValueError, match="read-only"):
        g.action_mask[:] = True
    vec = VecGame(4, kingdom=KINGDOM)
    out = vec.reset(seed=0)
    for a in (*out, vec.final_observation, vec.learner_seat, vec.learner_rewards, vec.scores):
        with pytest.raises(ValueError, match="read-only"):
            a[...] = 0
    for name in ("decision_kind", "turn_number", "opponent_bots", "current_player"):
        with pytest.raises(ValueError, match="read-only"):
            getattr(vec, name)[...] = 0
    # what the views show still follows the games
    mask = vec.action_mask
    vec.step(vec.random_actions())
    assert np.array_equal(mask, vec.buffers.mask)


def test_a_province_cannot_be_bought_with_4_through_a_written_mask():
    g = game()
    g.set_scenario(phase="buying", coins=4)
    with pytest.raises(ValueError, match="read-only"):
        g.action_mask[:] = True
    with pytest.raises(IllegalActionError, match="illegal action 'Province'"):
        g.step("Province")


# -- the Gymnasium env's Python-policy opponents -----------------------------------------------


def raising(obs, mask):
    raise KeyError("the policy broke")


def returns_none(obs, mask):
    return None


def returns_illegal(obs, mask):
    return int(np.flatnonzero(~mask)[0])


def returns_float(obs, mask):
    return float(np.flatnonzero(mask)[0])


@pytest.mark.parametrize(
    "policy, error",
    [
        (raising, KeyError),
        (returns_none, TypeError),
        (returns_illegal, IllegalActionError),
        (returns_float, TypeError),
    ],
)
def test_a_failing_opponent_policy_aborts_the_episode(policy, error):
    calls = {"n": 0}

    def flaky(obs, mask):  # plays legally for a while, then fails
        calls["n"] += 1
        if calls["n"] > 5:
            return policy(obs, mask)
        return int(np.flatnonzero(mask)[-1])

    env = DominionEnv(players=2, kingdom=KINGDOM, opponents=flaky, learner_seat=0)
    env.reset(seed=0)
    with pytest.raises(error):
        for _ in range(200):
            env.step(int(np.flatnonzero(env.action_masks())[-1]))
    # the opponent's decision is never played for the learner: the episode is over (its
    # mask all True, as every finished episode's, and the next step refused)
    assert env.action_masks().all()
    with pytest.raises(RuntimeError, match="aborted.*call reset"):
        env.step(0)
    calls["n"] = -(10**9)  # the policy works again: a new episode plays
    obs, info = env.reset(seed=1)
    env.step(int(np.flatnonzero(env.action_masks())[-1]))


def test_a_policy_opponent_that_fails_at_reset():
    env = DominionEnv(players=2, kingdom=KINGDOM, opponents=returns_none, learner_seat=1)
    for _ in range(3):  # the learner in seat 1: the opponent decides first in half the games
        try:
            env.reset(seed=_)
        except TypeError as e:
            assert "opponent" in str(e) and "None" in str(e)
            with pytest.raises(RuntimeError, match="call reset"):
                env.step(0)


# -- seeds ------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed, error", [(-1, ValueError), (2**63, ValueError), (1.0, TypeError)])
def test_seeds_out_of_range_are_refused_everywhere(seed, error):
    with pytest.raises(error, match="seed must be"):
        Game(KINGDOM, seed=seed)
    vec = VecGame(2, kingdom=KINGDOM)
    with pytest.raises(error, match="seed must be"):
        vec.reset(seed)
    if seed != 2**63:  # a generator's seed: any int >= 0 (test_fuzz_faces: huge seeds)
        with pytest.raises(error, match="seed must be"):
            DominionEnv(kingdom=KINGDOM).reset(seed=seed)
    with pytest.raises(error, match="seed must be"):
        DominionVectorEnv(2, kingdom=KINGDOM).reset(seed=seed)
    with pytest.raises(error, match="seed must be"):
        DominionVecEnv(2, kingdom=KINGDOM).seed(seed)
    if seed != 2**63:  # the constructor's seed seeds a generator: any int >= 0
        with pytest.raises(error, match="seed must be"):
            DominionVecEnv(2, kingdom=KINGDOM, seed=seed)
    if seed != 2**63:
        with pytest.raises(error, match="seed must be"):
            pettingzoo_env.raw_env(kingdom=KINGDOM).reset(seed=seed)


def test_the_largest_seed_plays():
    """2**63 - 1 deals its own game on every face (not wrapped onto another seed)."""

    def deal(seed):
        return [Game(KINGDOM, seed=seed).zones(p)["deck"] for p in range(2)]

    assert deal(MAX_SEED) == deal(MAX_SEED) != deal(MAX_SEED - 1)
    g = Game(KINGDOM, seed=MAX_SEED)
    g.step(g.legal_actions()[0])
    assert not g.done
    obs, _ = DominionEnv(kingdom=KINGDOM).reset(seed=MAX_SEED)
    assert obs.shape == DominionEnv(kingdom=KINGDOM).observation_space.shape
    obs, _ = DominionVectorEnv(2, kingdom=KINGDOM).reset(seed=MAX_SEED)
    assert obs.shape[0] == 2


# -- strict actions ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "action, error",
    [
        (2.7, TypeError),
        ("70", ValueError),
        (True, TypeError),
        (None, TypeError),
        (np.float64("nan"), TypeError),
        ("option x", ValueError),
        ("option 9", ValueError),
        (np.array([70]), TypeError),
        (np.uint64(2**64 - 1), IllegalActionError),
        (NUM_ACTIONS, IllegalActionError),
    ],
)
def test_game_step_refuses_what_is_not_an_action(action, error):
    g = game()
    before = full_state(g)
    with pytest.raises(error):
        g.step(action)
    assert_unchanged(before, g)


BAD_BATCHES = [
    (lambda n: np.full(n, 2.7), TypeError, "dtype float64"),
    (lambda n: np.full(n, True), TypeError, "dtype bool"),
    (lambda n: ["70"] * n, TypeError, "dtype <U2"),
    (lambda n: "70", TypeError, "got '70'"),
    (lambda n: None, TypeError, "got None"),
    (lambda n: np.zeros((n, 1), np.int64), ValueError, r"shape \(\d, 1\)"),
    (lambda n: np.full(n, 2**64 - 1, np.uint64), IllegalActionError, "18446744073709551615"),
    (lambda n: [NUM_ACTIONS] * n, IllegalActionError, "out of range"),
]


@pytest.mark.parametrize("make, error, match", BAD_BATCHES)
def test_batched_faces_refuse_bad_action_arrays(make, error, match):
    vec = VecGame(3, kingdom=KINGDOM)
    vec.reset(0)
    state = vec.state.copy()
    with pytest.raises(error, match=match):
        vec.step(make(3))
    assert np.array_equal(state, vec.state)
    venv = DominionVectorEnv(3, kingdom=KINGDOM)
    venv.reset(seed=0)
    state = venv.vec.state.copy()
    with pytest.raises(error, match=match):
        venv.step(make(3))
    assert np.array_equal(state, venv.vec.state)
    sb3 = DominionVecEnv(3, kingdom=KINGDOM)
    sb3.reset()
    state = sb3.vec.state.copy()
    with pytest.raises(error, match=match):
        sb3.step(make(3))
    assert np.array_equal(state, sb3.vec.state)


def test_the_envs_refuse_a_skip():
    venv = DominionVectorEnv(2, kingdom=KINGDOM)
    venv.reset(seed=0)
    with pytest.raises(IllegalActionError, match=r"actions\[0\] = -1"):
        venv.step(np.array([-1, -1]))


@pytest.mark.parametrize("action", [2.7, "70", True, None, np.array([1, 2])])
def test_single_envs_refuse_what_is_not_an_action(action):
    env = DominionEnv(kingdom=KINGDOM, illegal_action="lose")
    env.reset(seed=0)
    state = env.game.state.copy()
    with pytest.raises(TypeError, match="action must be an int"):
        env.step(action)
    assert np.array_equal(state, env.game.state)
    env.step(int(np.flatnonzero(env.action_masks())[0]))  # still playing
    aec = pettingzoo_env.raw_env(kingdom=KINGDOM)
    aec.reset(seed=0)
    state = aec.game.state.copy()
    with pytest.raises(TypeError, match="action must be an int"):
        aec.step(action)
    assert np.array_equal(state, aec.game.state)


# -- constructor arguments --------------------------------------------------------------------


@pytest.mark.parametrize(
    "kw, error, match",
    [
        (dict(kingdom=None), TypeError, "kingdom must be 'random'"),
        (dict(kingdom=5), TypeError, "kingdom must be 'random'"),
        (dict(kingdom="First Game", pool=KINGDOM), ValueError, "pool is the cards"),
        (dict(kingdom="random", pool="Village"), TypeError, "pool must be a list"),
        (dict(first_player=True), ValueError, "first_player"),
        (dict(turn_limit=2.5), TypeError, "turn_limit must be an int"),
        (dict(turn_limit=10**30), ValueError, r"turn_limit must be an int 1\.\.100000"),
        (dict(turn_limit=0), ValueError, r"turn_limit must be an int 1\.\.100000"),
        (dict(vp_shaping=1e300), ValueError, r"vp_shaping must be a finite number 0\.\.1"),
        (dict(vp_shaping=float("nan")), ValueError, "vp_shaping must be a finite"),
        (dict(vp_shaping="0.1"), TypeError, "vp_shaping must be a number"),
    ],
)
def test_bad_constructor_arguments(kw, error, match):
    kw = {"kingdom": KINGDOM, **kw}
    with pytest.raises(error, match=match):
        VecGame(2, **kw)
    if "vp_shaping" not in kw:
        with pytest.raises(error, match=match):
            Game(**kw)
        with pytest.raises(error, match=match):
            DominionEnv(**kw)
        with pytest.raises(error, match=match):
            pettingzoo_env.raw_env(**kw)
    with pytest.raises(error, match=match):
        DominionVectorEnv(2, **kw)
    with pytest.raises(error, match=match):
        DominionVecEnv(2, **kw)


def test_registered_env_refuses_bad_actions_too():
    env = gymnasium.make("Dominion-v2", kingdom=KINGDOM, illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(TypeError, match="action must be an int"):
        env.step(2.7)


# -- VecGame's own arguments and calls -----------------------------------------------------


def test_huge_opponent_weights_are_shares_like_any_other():
    """[1e308, 1e308] once summed to inf and made the thresholds [0, -2**63]: one bot took
    every seat. Normalised first, they are two equal shares, exactly as [1, 1]."""
    from dominion_env.agents import compile_bots
    from dominion_env.engine.batch import POOL_BITS
    from dominion_env.vector import pool_thresholds

    half = 1 << (POOL_BITS - 1)
    assert pool_thresholds([1e308, 1e308], 2).tolist() == [half, 2 * half]
    assert pool_thresholds([1, 1], 2).tolist() == [half, 2 * half]
    assert pool_thresholds([0, 3.0, 1.0], 3)[0] == 0  # a zero weight is never drawn
    table = compile_bots(["Big Money", "Smithy"])
    big = VecGame(256, opponents=table, opponent_weights=[1e308, 1e308])
    small = VecGame(256, opponents=table, opponent_weights=[1, 1])
    big.reset(seed=5)
    small.reset(seed=5)
    assert np.array_equal(big.opponent_bots, small.opponent_bots)
    assert set(np.unique(big.opponent_bots)) == {-1, 0, 1}


@pytest.mark.parametrize(
    "weights, error, match",
    [
        ([1.0, 1e-300], ValueError, r"opponent_weights\[1\] = 1e-300 is too small"),
        ([1.0, float("inf")], ValueError, "must be finite"),
        ([0.0, 0.0], ValueError, "positive sum"),
        ([1.0, -1.0], ValueError, ">= 0"),
        (["a", "b"], TypeError, "must be numbers"),
    ],
)
def test_bad_opponent_weights(weights, error, match):
    from dominion_env.agents import compile_bots

    with pytest.raises(error, match=match):
        VecGame(4, opponents=compile_bots(["Big Money", "Smithy"]), opponent_weights=weights)


@pytest.mark.parametrize(
    "n, error, match",
    [
        (10**13, ValueError, r"num_games must be an int 1\.\.1048576 \(about 28 KB"),
        (0, ValueError, "num_games must be an int 1"),
        (2.0, TypeError, "num_games must be an int"),
        (True, TypeError, "num_games must be an int"),
    ],
)
def test_num_games_is_capped(n, error, match):
    with pytest.raises(error, match=match):
        VecGame(n)


def test_calls_before_reset_say_so():
    vec = VecGame(3)
    for call in (
        vec.random_actions,
        lambda: vec.scores,
        lambda: vec.step([0, 0, 0]),
        lambda: vec.bot_actions(None, 0),
    ):
        with pytest.raises(RuntimeError, match=r"call reset\(\)"):
            call()
    vec.reset(seed=0)
    assert vec.random_actions().shape == (3,)


# -- env constructors ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "make",
    [
        lambda o: DominionVecEnv(2, kingdom=KINGDOM, opponents=o),
        lambda o: DominionVectorEnv(2, kingdom=KINGDOM, opponents=o),
        lambda o: DominionEnv(kingdom=KINGDOM, opponents=o),
    ],
)
def test_empty_opponents_are_refused(make):
    for empty in ([], ()):
        with pytest.raises(ValueError, match="opponents is empty"):
            make(empty)


@pytest.mark.parametrize("policy", [lambda: 0, lambda obs: 0, lambda a, b, c: 0])
def test_an_opponent_policy_that_cannot_take_its_arguments_is_refused_at_construction(policy):
    with pytest.raises(TypeError, match=r"policy\(observation, action_mask\)"):
        DominionEnv(kingdom=KINGDOM, opponents=policy)
    with pytest.raises(TypeError, match=r"policy\(observation, action_mask\)"):
        DominionEnv(players=3, kingdom=KINGDOM, opponents=["Big Money", policy])
    # keyword-only or defaulted extras are fine
    DominionEnv(kingdom=KINGDOM, opponents=lambda obs, mask, *, t=1: 0)


def test_record_dir_that_cannot_be_written_is_refused_at_construction(tmp_path):
    a_file = tmp_path / "file.json"
    a_file.write_text("{}")
    for make in (
        lambda d: DominionEnv(kingdom=KINGDOM, record_dir=d),
        lambda d: pettingzoo_env.raw_env(kingdom=KINGDOM, record_dir=d),
    ):
        with pytest.raises(ValueError, match="record_dir must be a folder.*it is a file"):
            make(a_file)
        with pytest.raises(ValueError, match="record_dir .*below' cannot be written: Not a dir"):
            make(a_file / "below")
        make(tmp_path / "new" / "deeper")  # made when the first record is written


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere: no unwritable folder")
def test_record_dir_without_permission_is_refused(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        with pytest.raises(ValueError, match="cannot be written: no permission"):
            DominionEnv(kingdom=KINGDOM, record_dir=locked / "records")
    finally:
        locked.chmod(0o700)


def test_pettingzoo_step_before_reset_says_so():
    aec = pettingzoo_env.raw_env(kingdom=KINGDOM)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        aec.step(0)
