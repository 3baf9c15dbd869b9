"""PettingZoo AEC env: conformance (api_test, seed_test), mid-turn deciders, rewards, render."""

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from dominion_env.engine.layout import DECISION_NAMES, NUM_ACTIONS  # noqa: E402
from dominion_env.engine.observation import obs_size, split  # noqa: E402
from dominion_env.envs import pettingzoo_env  # noqa: E402
from dominion_env.names import action_index  # noqa: E402

# Warnings api_test gives every dict-observation env (PettingZoo's own classic games included)
# and for the all-zero masks of agents that do not decide now.
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.mark.parametrize("players", [2, 3])
def test_api_test_wrapped(players):
    api_test(pettingzoo_env.env(players=players), num_cycles=300)


def test_pettingzoo_style_module_name():
    from dominion_env.envs import dominion_v1

    env = dominion_v1.env(players=3)
    env.reset(seed=0)
    assert env.metadata["name"] == "dominion_v1" and env.num_agents == 3


def test_api_test_raw_env():
    api_test(pettingzoo_env.raw_env(players=4, kingdom="Underlings"), num_cycles=200)


def _trace(players, seed, steps=300):
    """(agent, observation, reward) at each of the first steps of a seeded game, the actions
    drawn from a generator seeded alike."""
    env = pettingzoo_env.env(players=players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    for agent in env.agent_iter(steps):
        obs, reward, term, trunc, _ = env.last()
        out.append((agent, obs["observation"].copy(), reward))
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return out


@pytest.mark.parametrize("players", [2, 3])
def test_seed_test(players):
    """PettingZoo's own seed_test (it raises on a mismatch), and the same check made here:
    equal seeds give equal games, different seeds different ones."""
    seed_test(lambda: pettingzoo_env.env(players=players), num_cycles=300)
    a, b, c = _trace(players, 7), _trace(players, 7), _trace(players, 8)
    assert len(a) == len(b)
    for (agent_a, obs_a, r_a), (agent_b, obs_b, r_b) in zip(a, b, strict=True):
        assert agent_a == agent_b and r_a == r_b
        np.testing.assert_array_equal(obs_a, obs_b)
    assert any(not np.array_equal(x[1], y[1]) for x, y in zip(a, c, strict=False))


def test_spaces():
    env = pettingzoo_env.env(players=3)
    env.reset(seed=0)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    space = env.observation_space("player_1")
    assert space["observation"].shape == (obs_size(3),)
    assert space["observation"].dtype == np.float32
    assert space["action_mask"].dtype == np.int8 and space["action_mask"].shape == (NUM_ACTIONS,)
    assert env.action_space("player_2").n == NUM_ACTIONS
    obs = env.observe(env.agent_selection)
    assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].any()
    assert space.contains(obs)


def _random_game(env, rng):
    """Plays a whole game with random legal actions; returns the agents seen deciding."""
    seen = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        seen.append(agent)
        mask = obs["action_mask"]
        assert mask.any()
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return seen


def test_rewards_are_each_seats_own():
    rng = np.random.default_rng(0)
    for players in (2, 3):
        raw = pettingzoo_env.raw_env(players=players, kingdom="First Game", turn_limit=40)
        for seed in range(4):
            raw.reset(seed=seed)
            totals = {a: 0.0 for a in raw.possible_agents}
            for agent in raw.agent_iter():
                obs, reward, term, trunc, info = raw.last()
                totals[agent] += reward
                if term or trunc:
                    raw.step(None)
                    continue
                raw.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            game_rewards = raw.game.rewards
            assert raw.game.done
            for p, agent in enumerate(raw.possible_agents):
                assert totals[agent] == pytest.approx(float(game_rewards[p]))
            if raw.game.terminated:
                assert sorted(totals.values())[-1] >= 0  # someone won or shared


def _militia_env(moat=False):
    raw = pettingzoo_env.raw_env(players=2, kingdom="First Game")
    raw.reset(seed=0)
    victim_hand = ["Copper", "Estate", "Silver", "Gold", "Duchy"]
    if moat:
        victim_hand[0] = "Moat"
    raw.set_scenario(
        hands={0: ["Militia", "Copper", "Copper", "Copper", "Copper"], 1: victim_hand},
        decks={0: ["Copper"] * 5, 1: ["Copper"] * 5},
        turn_player=0,
    )
    return raw


def test_militia_victim_is_the_agent_selected_mid_turn():
    raw = _militia_env()
    assert raw.agent_selection == "player_0"
    raw.step(action_index("Militia"))
    assert raw.game.turn_player == 0
    assert raw.agent_selection == "player_1"  # the victim decides inside player 0's turn
    victim = raw.observe("player_1")
    attacker = raw.observe("player_0")
    assert set(raw.game.legal_actions()) == {"Copper", "Estate", "Silver", "Gold", "Duchy"}
    assert victim["action_mask"].sum() == 5
    assert not attacker["action_mask"].any()
    view = split(victim["observation"], 2)
    assert DECISION_NAMES[int(view["decision"].argmax())] == "discard"
    assert view["dec_source"][action_index("Militia")] == 1
    assert view["hand"][action_index("Gold")] == 1  # the victim sees its own hand
    assert view["turn_seat"][1] == 1  # rotated: the turn is the other seat's
    raw.step(action_index("Estate"))
    assert raw.agent_selection == "player_1"  # a second discard, same agent again
    raw.step(action_index("Duchy"))
    assert raw.agent_selection == "player_0"  # back to the attacker's turn
    assert raw.game.zones(1)["hand"] == {"Copper": 1, "Silver": 1, "Gold": 1}


def test_moat_reveal_is_the_defenders_decision():
    raw = _militia_env(moat=True)
    raw.step(action_index("Militia"))
    assert raw.agent_selection == "player_1"
    assert raw.game.decision["kind"] == "react"
    assert set(raw.game.legal_actions()) == {"Moat", "PASS"}
    raw.step(action_index("Moat"))
    # Moat revealed: the attack does not touch player 1
    assert raw.agent_selection == "player_0"
    assert sum(raw.game.zones(1)["hand"].values()) == 5


def test_masquerade_passes_select_every_player():
    raw = pettingzoo_env.raw_env(players=3, kingdom="random")
    raw.reset(seed=0)
    raw.set_scenario(
        hands={
            0: ["Masquerade", "Copper", "Estate"],
            1: ["Silver", "Curse"],
            2: ["Gold", "Estate"],
        },
        decks={0: ["Copper", "Copper"]},
        supply={"Masquerade": 9},
    )
    raw.step(action_index("Masquerade"))
    deciders = []
    while raw.game.decision["kind"] == "pass_card":
        deciders.append(raw.agent_selection)
        assert raw.agent_selection == f"player_{raw.game.current_player}"
        obs = raw.observe(raw.agent_selection)
        raw.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert sorted(set(deciders)) == ["player_0", "player_1", "player_2"]


def test_render_ansi_names_cards():
    raw = pettingzoo_env.raw_env(players=2, kingdom="First Game", render_mode="ansi")
    raw.reset(seed=3)
    text = raw.render()
    assert isinstance(text, str)
    for piece in ("turn 1", "Supply:", "Province 8", "Decision:", "Legal:", "hand:"):
        assert piece in text, piece
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pettingzoo_env.raw_env(players=2, render_mode="human").close()


def test_illegal_action_wrapped_ends_game_raw_raises():
    env = pettingzoo_env.env(players=2)
    env.reset(seed=0)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.rewards[agent] == -1
    raw = pettingzoo_env.raw_env(players=2)
    raw.reset(seed=0)
    illegal = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="illegal action"):
        raw.step(illegal)
