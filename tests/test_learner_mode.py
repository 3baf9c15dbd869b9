"""VecGame's learner mode: compiled bots play every seat but the learner's inside the step."""

import numpy as np
import pytest

from dominion_env import Game, VecGame
from dominion_env.agents import bot_action, compile_bots
from dominion_env.cards import TABLE
from dominion_env.engine.batch import observe_game


def first_legal(mask):
    return mask.argmax(axis=1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_learner_decides_every_returned_decision(players):
    v = VecGame(64, players=players, kingdom="random", opponents=compile_bots(["Big Money"]))
    out = v.reset(seed=3)
    seen = np.zeros(players, bool)
    for _ in range(300):
        assert (out.current_player == v.learner_seat).all()
        seen[v.learner_seat] = True
        seats = v.learner_seat.copy()
        out = v.step(v.random_actions())
        done = out.terminated | out.truncated
        # the learner's reward is its own seat's, in the game that ended (before autoreset)
        rows = np.flatnonzero(done)
        assert (v.learner_rewards[rows] == out.rewards[rows, seats[rows]]).all()
        assert (v.learner_rewards[~done] == 0).all()
    assert seen.all(), "a random learner seat should visit every seat"


def test_a_fixed_seat():
    v = VecGame(16, players=3, opponents=compile_bots(["Big Money", "Smithy"]), learner_seat=2)
    out = v.reset(seed=0)
    assert (v.learner_seat == 2).all() and (out.current_player == 2).all()


def test_learner_mode_plays_the_same_game_as_bots_stepped_by_hand():
    """Row 0 of a learner-mode batch is the game a plain Game with the same seed plays when
    Big Money answers every other seat's decisions, down to the learner's observations."""
    seed = 11
    v = VecGame(4, players=3, kingdom="First Game", opponents=compile_bots(["Big Money"]))
    out = v.reset(seed=seed)
    seat = int(v.learner_seat[0])
    g = Game("First Game", players=3, seed=seed)
    learner_obs = []
    while not g.done:
        if g.current_player == seat:
            learner_obs.append(g.observation(seat).copy())
            g.step(int(np.argmax(g.action_mask)))
        else:
            g.step(bot_action("Big Money", g))
    rewards = None
    for k, expected in enumerate(learner_obs):
        np.testing.assert_array_equal(out.observation[0], expected, err_msg=f"decision {k}")
        out = v.step(first_legal(out.action_mask))
        if out.terminated[0] or out.truncated[0]:
            rewards = out.rewards[0].copy()
            assert k == len(learner_obs) - 1
    np.testing.assert_array_equal(rewards, g.rewards)
    assert v.learner_rewards[0] == g.rewards[seat]
    np.testing.assert_array_equal(v.final_observation[0], g.observation(seat))


def test_same_seed_same_games():
    def run():
        v = VecGame(32, players=2, opponents=compile_bots(["Random"]))
        v.reset(seed=5)
        trace = []
        for _ in range(100):
            out = v.step(v.random_actions())
            trace.append((out.observation.copy(), v.learner_seat.copy(), v.learner_rewards.copy()))
        return trace

    for a, b in zip(run(), run(), strict=True):
        for x, y in zip(a, b, strict=True):
            np.testing.assert_array_equal(x, y)


def test_final_observation_in_plain_mode_is_the_last_actor_view():
    v = VecGame(1, players=2, kingdom="First Game", autoreset=False)
    out = v.reset(seed=2)
    while True:
        actor = int(out.current_player[0])
        out = v.step(v.random_actions())
        if out.terminated[0] or out.truncated[0]:
            break
    expected = np.zeros_like(v.final_observation[0])
    observe_game(v.state, 0, TABLE, actor, v.buffers, expected)
    assert expected.any()
    np.testing.assert_array_equal(v.final_observation[0], expected)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(learner_seat=0), "learner_seat needs opponents"),
        (dict(opponents=compile_bots(["Big Money"]), learner_seat=2), "learner_seat must be"),
        (dict(opponents=compile_bots(["Big Money"]), learner_seat=True), "learner_seat must be"),
        (dict(opponents=compile_bots(["Big Money", "Smithy", "Random"])), "give 1 bot or 1"),
    ],
)
def test_bad_learner_settings(kwargs, message):
    with pytest.raises(ValueError, match=message):
        VecGame(2, players=2, **kwargs)


@pytest.mark.parametrize("opponents", ["Big Money", ["Big Money"], 42])
def test_opponents_must_be_compiled(opponents):
    # the face takes compiled tables only; naming bots is the bot library's job
    with pytest.raises(TypeError, match="opponents must be None or a compiled BotTable"):
        VecGame(2, players=2, opponents=opponents)


def test_unknown_bot_name():
    with pytest.raises(ValueError, match="unknown bot 'No Such Bot'"):
        compile_bots(["No Such Bot"])


def test_minus_one_skips_a_game():
    v = VecGame(4, players=2, kingdom="First Game")
    out = v.reset(seed=1)
    before = v.state.copy()
    obs = out.observation.copy()
    a = v.random_actions()
    a[1] = -1
    out = v.step(a)
    assert v.state[1].tobytes() == before[1].tobytes()
    np.testing.assert_array_equal(out.observation[1], obs[1])
    assert v.state[0].tobytes() != before[0].tobytes()
    with pytest.raises(ValueError, match="out of range"):
        v.step(np.full(4, -2))


def test_game_in_learner_mode_after_set_scenario():
    """set_scenario hands the decision to the learner: Big Money (seat 0) plays out its turn
    (buying Gold with $6) before the learner in seat 1 decides."""
    g = Game("First Game", players=2, opponents=compile_bots(["Big Money"]), learner_seat=1)
    assert g.learner_seat == 1 and g.current_player == 1
    g.set_scenario(
        hands={0: ["Silver", "Silver", "Copper", "Copper"], 1: ["Village"]},
        turn_player=0,
        phase="buy",
    )
    assert g.current_player == 1 and g.turn_player == 1
    # clean-up reshuffled all five cards into the new hand
    assert g.zones(0)["hand"] == {"Copper": 2, "Silver": 2, "Gold": 1}
    assert g.legal_actions() == ["Village", "PASS"]
