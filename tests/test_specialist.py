"""The kingdom expert (``analysis.specialist``) and what it is built from: ``optimize`` with an
agent in its judging (``against``), and ``play_mixed`` dealing a game number again (the
common random numbers that judging rests on). Strength: bench/bench_expert.py."""

from __future__ import annotations

import numpy as np
import pytest

from dominion_env import VecGame
from dominion_env.agents import Bot, compile_bots, get_bot
from dominion_env.analysis.mixed import play_mixed
from dominion_env.analysis.optimize import optimize
from dominion_env.engine.observation import obs_scale

torch = pytest.importorskip("torch", reason="trained agents are the train extra")
from dominion_env.train.policy import load_agent  # noqa: E402

KINGDOM = "First Game"
SMALL = dict(minutes=None, generations=2, population=4, games=4, judge_games=20)


@pytest.fixture(scope="module")
def agent():
    return load_agent("ppo-pool")


def test_a_repeated_game_number_deals_the_same_game():
    bm, smithy = get_bot("Big Money"), get_bot("Smithy")
    seats = np.array([[0, 1], [0, 1], [0, 1]])
    res = play_mixed([bm, smithy], 3, 2, KINGDOM, seed=5, seat_player=seats,
                     game_numbers=[7, 7, 8])  # fmt: skip
    assert res.reward[0].tolist() == res.reward[1].tolist() and res.turns[0] == res.turns[1]
    # game number 7 of seed 5 is the arena's game 7 of that seed, whatever the batch
    alone = play_mixed([bm, smithy], 1, 2, KINGDOM, seed=5, seat_player=seats[:1],
                       game_numbers=[7])  # fmt: skip
    assert alone.reward[0].tolist() == res.reward[0].tolist() and alone.turns[0] == res.turns[0]


def test_bad_game_numbers_and_seats_are_refused():
    bm = get_bot("Big Money")
    with pytest.raises(ValueError, match="game_numbers"):
        play_mixed([bm, bm], 2, 2, KINGDOM, game_numbers=[0])
    with pytest.raises(TypeError, match="game_numbers"):
        play_mixed([bm, bm], 2, 2, KINGDOM, game_numbers="01")
    with pytest.raises(ValueError, match=r"seat_player must have shape \(2, 2\)"):
        play_mixed([bm, bm], 2, 2, KINGDOM, seat_player=np.zeros((2, 3), np.int64))


def test_an_agent_in_the_judging_adds_its_row_and_repeats_bit_for_bit(agent):
    a = optimize(KINGDOM, seed=4, against=[agent], **SMALL)
    b = optimize(KINGDOM, seed=4, against=[agent], **SMALL)
    assert a.best.to_toml() == b.best.to_toml() and a.record == b.record
    assert a.history == b.history and a.games == b.games
    rows = {r["bot"]: r for r in a.record}
    assert "ppo-pool" in rows and rows["ppo-pool"]["games"] == 20
    plain = optimize(KINGDOM, seed=4, **SMALL)
    assert "ppo-pool" not in {r["bot"] for r in plain.record}
    assert a.games > plain.games  # the agent's games are counted


@pytest.mark.parametrize(
    "against, kind, words",
    [
        ("ppo-pool", TypeError, "against must be a list of trained agents"),
        ([get_bot("Big Money")], TypeError, "a library bot is in the pool already"),
        ([object()], TypeError, "against holds trained agents"),
    ],
)
def test_bad_agents_to_judge_against_are_refused(against, kind, words):
    with pytest.raises(kind, match=words):
        optimize(KINGDOM, against=against, **SMALL)


def test_an_agent_of_another_table_size_is_refused():
    with pytest.raises(ValueError, match="plays 3-player games"):
        optimize(KINGDOM, players=2, against=[load_agent("ppo-3p")], **SMALL)


def _expert(agent, confidence):
    from dominion_env.analysis.specialist import KingdomExpert

    return KingdomExpert(agent, seed=1, confidence=confidence, **SMALL)


@pytest.mark.parametrize("confidence, plays", [(-100.0, True), (100.0, False)])
def test_the_expert_plays_its_specialist_only_where_it_was_judged_to_win(agent, confidence, plays):
    expert = _expert(agent, confidence)
    vec = VecGame(6, 2, KINGDOM, first_player=0)
    vec.reset(3)
    rows = np.arange(6)
    acts = expert.act_games(vec, rows)
    (spec,) = expert.specialists.values()
    assert spec.plays is plays and spec.games == 20 and 0 <= spec.score <= 1
    assert sorted(spec.kingdom) == list(spec.kingdom) and len(spec.kingdom) == 10
    if plays:
        want = vec.bot_actions(compile_bots([spec.bot]), 0)
    else:
        want = agent.act(vec.observation / obs_scale(2), vec.action_mask.copy())
    assert acts.tolist() == want.tolist()
    assert isinstance(spec.bot, Bot) and expert.make(spec.kingdom) is spec  # made once


def test_the_expert_sits_at_a_table_and_refuses_observations(agent):
    expert = _expert(agent, 100.0)
    res = play_mixed([expert, get_bot("Big Money")], 4, 2, KINGDOM, seed=2)
    assert res.reward.shape == (4, 2) and (res.turns > 0).all()
    with pytest.raises(TypeError, match="decides from the game"):
        expert.act(np.zeros((1, 3)), np.ones((1, 3), bool))
    assert expert.name == "expert:ppo-pool" and expert.with_seed(5).seed == 5


@pytest.mark.parametrize(
    "kwargs, kind, words",
    [
        (dict(minutes=0), ValueError, "minutes must be a finite number > 0"),
        (dict(minutes=None), ValueError, "give minutes"),
        (dict(confidence=float("nan")), ValueError, "confidence must be a finite number"),
        (dict(judge_games=0), ValueError, "judge_games must be an int"),
        (dict(speed=3), TypeError, "unknown setting.*speed"),
        (dict(seed=-1), ValueError, "seed"),
    ],
)
def test_bad_expert_settings_are_refused_before_any_game(agent, kwargs, kind, words):
    from dominion_env.analysis.specialist import KingdomExpert

    with pytest.raises(kind, match=words):
        KingdomExpert(agent, **kwargs)
    with pytest.raises(TypeError, match="a trained agent"):
        KingdomExpert(get_bot("Big Money"))
