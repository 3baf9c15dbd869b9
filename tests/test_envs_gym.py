"""Gymnasium adapters: the single-agent env and the VectorEnv, registration, render."""

import subprocess
import sys

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode, VectorEnv

import dominion_env.envs  # noqa: F401 (registers Dominion-v2)
from dominion_env import CARD_NAMES, NUM_CARDS, VecGame
from dominion_env.agents import Bot, compile_bots
from dominion_env.engine.layout import (
    DEC_KIND,
    DEC_SOURCE,
    DECISION_NAMES,
    HAND,
    NUM_ACTIONS,
    TURNS_TAKEN,
)
from dominion_env.engine.observation import obs_size, split
from dominion_env.envs.gym_env import DominionEnv
from dominion_env.names import action_index

MILITIA_BOT = Bot(
    "Militia Money",
    [("Province", "money > 15"), "Gold", ("Militia", "count Militia < 2"), "Silver"],
)


def first_legal(obs, mask):
    return int(np.flatnonzero(mask)[0])


def militia_policy(obs, mask):
    """A Python opponent: plays Militia whenever it can, buys money, else passes."""
    for name in ("Militia", "Province", "Gold", "Militia", "Silver"):
        if mask[action_index(name)]:
            return action_index(name)
    return NUM_ACTIONS - 1 if mask[NUM_ACTIONS - 1] else int(np.flatnonzero(mask)[0])


def expected_rewards(game) -> np.ndarray:
    """Rewards from the final scores and turns taken, by the rules (not the engine's array)."""
    scores = np.array(game.scores())
    turns = game.state["player"][0, : game.players, TURNS_TAKEN]
    best = scores == scores.max()
    winners = best & (turns == turns[best].min())
    out = np.full(game.players, -1.0)
    out[winners] = 1.0 if winners.sum() == 1 else 0.0
    return out


def play_random(env, rng, seed=None):
    obs, info = env.reset(seed=seed)
    steps = 0
    while True:
        mask = env.unwrapped.action_masks()
        assert mask.any() and np.array_equal(mask, info["action_mask"])
        assert env.unwrapped.game.current_player == info["learner_seat"]
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        if terminated or truncated:
            return reward, terminated, truncated, info, steps


# -- conformance -------------------------------------------------------------------------

NO_SPEC = pytest.mark.filterwarnings("ignore:.*alternative render modes")


@NO_SPEC
def test_check_env_bots():
    check_env(DominionEnv(players=2, opponents="Big Money"), skip_render_check=False)


@NO_SPEC
def test_check_env_policy_opponents_three_players():
    check_env(DominionEnv(players=3, opponents=["Big Money", first_legal]))


def test_check_env_through_make():
    env = gymnasium.make("Dominion-v2", players=2, opponents="Smithy", render_mode="ansi")
    check_env(env.unwrapped)
    assert env.spec.id == "Dominion-v2"


def test_sb3_check_env():
    pytest.importorskip("stable_baselines3")
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    sb3_check_env(DominionEnv(players=2, opponents="Big Money"))
    sb3_check_env(DominionEnv(players=3, opponents=["Random", militia_policy]))


def test_spaces_and_registration():
    env = gymnasium.make("Dominion-v2", players=4)
    assert env.observation_space.shape == (obs_size(4),)
    assert env.observation_space.dtype == np.float32
    assert env.action_space.n == NUM_ACTIONS
    spec = gymnasium.spec("Dominion-v2")
    assert spec.entry_point == "dominion_env.envs.gym_env:DominionEnv"
    assert spec.vector_entry_point == "dominion_env.envs.vector_env:DominionVectorEnv"


def test_import_is_cheap_and_needs_no_extras():
    code = (
        "import sys, dominion_env.envs, gymnasium; gymnasium.spec('Dominion-v2'); "
        "bad = [m for m in ('pettingzoo', 'stable_baselines3', 'sb3_contrib', 'torch', "
        "'dominion_env.envs.gym_env') if m in sys.modules]; assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# -- rewards belong to the learner's seat ----------------------------------------------


@pytest.mark.parametrize(
    "players,opponents",
    [
        (2, "Big Money"),
        (3, "Big Money"),
        (3, ["Smithy", "Random"]),
        (2, first_legal),
        (3, ["Big Money", militia_policy]),
    ],
)
def test_reward_is_the_learners_own_for_every_seat(players, opponents):
    rng = np.random.default_rng(players)
    differs = 0
    for seat in range(players):
        env = DominionEnv(
            players=players, kingdom="First Game", opponents=opponents, learner_seat=seat
        )
        for k in range(3):
            reward, terminated, truncated, info, _ = play_random(env, rng, seed=100 * seat + k)
            game = env.game
            assert info["learner_seat"] == seat
            assert reward == info["rewards"][seat] == game.rewards[seat]
            if terminated:
                assert reward == expected_rewards(game)[seat]
                differs += any(info["rewards"][p] != reward for p in range(players) if p != seat)
            else:
                assert truncated and reward == 0
    assert differs > 0  # the check could tell the learner's reward from an opponent's


def test_random_seat_varies_and_rewards_follow_it():
    rng = np.random.default_rng(1)
    env = DominionEnv(players=3, kingdom="First Game", opponents="Big Money")
    seats = set()
    env.reset(seed=5)
    for _ in range(12):
        reward, terminated, _, info, _ = play_random(env, rng)
        seats.add(info["learner_seat"])
        assert reward == env.game.rewards[info["learner_seat"]]
    assert seats == {0, 1, 2}


# -- masks are for the player who decides -----------------------------------------------


@pytest.mark.parametrize("opponents", [MILITIA_BOT, militia_policy])
def test_militia_makes_the_learner_decide_mid_turn(opponents):
    rng = np.random.default_rng(0)
    env = DominionEnv(players=2, kingdom="First Game", opponents=opponents, learner_seat=1)
    found = 0
    obs, info = env.reset(seed=0)
    for _ in range(3000):
        game = env.game
        d = game.decision
        if d["kind"] == "discard" and d["source"] == "Militia":
            found += 1
            assert d["player"] == 1 and game.turn_player == 0
            mask = env.action_masks()
            hand = game.zones(1)["hand"]
            assert set(game.legal_actions()) == set(hand)
            assert all(mask[action_index(c)] for c in hand) and not mask[NUM_ACTIONS - 1]
            view = split(obs, 2)
            assert DECISION_NAMES[int(view["decision"].argmax())] == "discard"
            assert view["dec_source"][action_index("Militia")] == 1
            assert view["turn_seat"][1] == 1  # the learner (seat 0 in its view) is not the turn
            assert np.array_equal(view["hand"], [hand.get(n, 0) for n in CARD_NAMES])
            if found >= 3:
                return
        a = int(rng.choice(np.flatnonzero(env.action_masks())))
        obs, _, terminated, truncated, info = env.step(a)
        if terminated or truncated:
            obs, info = env.reset()
    pytest.fail(f"the learner was asked Militia discards {found} times")


# -- behaviour ----------------------------------------------------------------------------


def test_seeded_reset_replays_the_same_game():
    def run(seed):
        env = DominionEnv(players=3, opponents=["Smithy", "Random"])
        rng = np.random.default_rng(9)
        out = [env.reset(seed=seed)[0]]
        for _ in range(60):
            o, r, te, tr, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            out.append(o)
            if te or tr:
                out.append(env.reset()[0])
        return np.array(out)

    assert np.array_equal(run(3), run(3))
    assert not np.array_equal(run(3), run(4))


def test_illegal_action_loses_or_raises():
    env = DominionEnv(players=2)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    with pytest.raises(RuntimeError):
        env.step(0)
    env = DominionEnv(players=2, illegal_action="raise")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="illegal action"):
        env.step(illegal)


def test_bad_arguments():
    with pytest.raises(ValueError):
        DominionEnv(players=2, opponents=["Big Money", "Smithy"])
    with pytest.raises(ValueError):
        DominionEnv(players=2, learner_seat=2)
    with pytest.raises(ValueError):
        DominionEnv(players=2, opponents="No Such Bot")
    with pytest.raises(TypeError):
        DominionEnv(players=2, opponents=42)


def test_render_ansi():
    env = gymnasium.make(
        "Dominion-v2",
        players=2,
        kingdom="First Game",
        opponents="Smithy",
        render_mode="ansi",
        learner_seat=0,
    )
    env.reset(seed=1)
    env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    text = env.render()
    assert isinstance(text, str)
    for piece in (
        "Dominion, 2 players",
        "phase",
        "Buys",
        "$",
        "Supply:",
        "Copper",
        "Province",
        "learner",
        "P0's hand:",
        "Decision:",
        "Legal:",
        "Last events:",
        "deck",
        "discard",
        "in play",
    ):
        assert piece in text, piece


# -- Gymnasium VectorEnv --------------------------------------------------------------------


def make_vec(n=16, **kw):
    return gymnasium.make_vec(
        "Dominion-v2", num_envs=n, vectorization_mode="vector_entry_point", **kw
    )


def test_make_vec_is_one_vecgame_next_step():
    envs = make_vec(8, players=3, opponents="Big Money")
    assert isinstance(envs.unwrapped, VectorEnv)
    assert envs.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP  # gymnasium's default
    assert envs.single_observation_space.shape == (obs_size(3),)
    assert envs.observation_space.shape == (8, obs_size(3))
    assert envs.single_action_space.n == NUM_ACTIONS
    obs, infos = envs.reset(seed=7)
    ref = VecGame(8, 3, opponents=compile_bots("Big Money"))
    ref.reset(7)
    assert np.array_equal(obs, ref.observation)
    assert infos["action_mask"].dtype == np.int8
    assert np.array_equal(infos["action_mask"], ref.action_mask.astype(np.int8))
    assert np.array_equal(envs.unwrapped.action_masks(), ref.action_mask)
    assert envs.unwrapped.action_masks().dtype == np.bool_
    assert np.array_equal(infos["learner_seat"], ref.learner_seat)
    assert obs in envs.observation_space


@pytest.mark.parametrize("players,seat", [(2, 0), (2, 1), (3, 0), (3, 1), (3, 2), (3, None)])
def test_vector_rewards_are_the_learners_own(players, seat):
    envs = make_vec(
        32,
        players=players,
        kingdom="First Game",
        opponents="Big Money",
        learner_seat=seat,
        autoreset_mode=AutoresetMode.SAME_STEP,
    )
    rng = np.random.default_rng(0)
    obs, infos = envs.reset(seed=1)
    seats_before = infos["learner_seat"]
    if seat is not None:
        assert (seats_before == seat).all()
    finished = differs = 0
    while finished < 40:
        masks = envs.unwrapped.action_masks()
        actions = np.argmax(masks * rng.random(masks.shape), axis=1)
        obs, rewards, term, trunc, infos = envs.step(actions)
        done = term | trunc
        for g in np.flatnonzero(done):
            finished += 1
            s = infos["final_info"]["learner_seat"][g]
            assert s == seats_before[g]
            all_r = infos["final_info"]["rewards"][g]
            assert rewards[g] == all_r[s]
            differs += any(all_r[p] != rewards[g] for p in range(players) if p != s)
            final = split(infos["final_obs"][g], players)
            assert final["phase"][3] == 1  # over
            vp = final["vp"]  # the learner is seat 0 of its own view
            if term[g] and rewards[g] == 1:
                assert vp[0] >= vp[1:].max()
            if term[g] and rewards[g] == -1:
                assert vp[0] <= vp[1:].max()
        assert not np.any(rewards[~done])
        assert infos["_final_obs"].sum() == done.sum() if done.any() else "final_obs" not in infos
        seats_before = infos["learner_seat"]
    assert differs > 0


def test_vector_masks_are_the_learners():
    envs = make_vec(64, players=2, kingdom="First Game", opponents=MILITIA_BOT)
    rng = np.random.default_rng(3)
    envs.reset(seed=0)
    vec = envs.unwrapped.vec
    seen = 0
    for _ in range(300):
        assert (vec.current_player == vec.learner_seat).all()
        gm = vec.state["game"]
        masks = envs.unwrapped.action_masks()
        militia = np.flatnonzero(
            (gm[:, DEC_KIND] == DECISION_NAMES.index("discard"))
            & (gm[:, DEC_SOURCE] == action_index("Militia"))
        )
        for g in militia:
            hand = vec.state["zone"][g, vec.learner_seat[g], HAND]
            assert np.array_equal(masks[g, :NUM_CARDS], hand > 0)
            assert not masks[g, NUM_CARDS:].any()
            seen += 1
        envs.step(np.argmax(masks * rng.random(masks.shape), axis=1))
    assert seen > 0


def test_vector_rejects_policies_and_illegal_actions():
    with pytest.raises(TypeError, match="compiled bots"):
        make_vec(4, opponents=first_legal)
    envs = make_vec(4)
    envs.reset(seed=0)
    illegal = np.argmin(envs.unwrapped.action_masks(), axis=1)
    with pytest.raises(ValueError, match="illegal action"):
        envs.step(illegal)


def test_vector_reset_without_seed_draws_from_its_generator():
    a, b = make_vec(4), make_vec(4)
    a.reset(seed=11)
    b.reset(seed=11)
    assert np.array_equal(a.reset()[0], b.reset()[0])


@pytest.mark.parametrize("players", [2, 5])
def test_observations_stay_inside_the_declared_box(players):
    space = DominionEnv(players=players).observation_space
    vec = VecGame(256, players)
    vec.reset(players)
    low, high = vec.observation.min(0), vec.observation.max(0)
    for _ in range(600):
        vec.step(vec.random_actions())
        low = np.minimum(low, vec.observation.min(0))
        high = np.maximum(high, vec.observation.max(0))
    assert (low >= space.low).all() and (high <= space.high).all()
