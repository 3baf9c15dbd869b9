"""The training recipe's pieces, each checked; a smoke run of the trainer (seconds, not strength).

Strength is measured (``dominion evaluate``, ``dominion scorecard``) and reported, never
asserted here.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")

from dominion_env import VecGame  # noqa: E402
from dominion_env.agents import compile_bots, get_bot  # noqa: E402
from dominion_env.analysis.arena import play_games, summarize  # noqa: E402
from dominion_env.analysis.mixed import play_mixed  # noqa: E402
from dominion_env.cli import main as cli  # noqa: E402
from dominion_env.engine.layout import NUM_ACTIONS  # noqa: E402
from dominion_env.engine.observation import (  # noqa: E402
    PIECE_NAMES,
    obs_bounds,
    obs_offsets,
    obs_scale,
    obs_size,
)
from dominion_env.shaping import VPShaping, vp_potential  # noqa: E402
from dominion_env.train.evaluate import evaluate  # noqa: E402
from dominion_env.train.opponents import PolicySeats  # noqa: E402
from dominion_env.train.policy import (  # noqa: E402
    Agent,
    AgentInfo,
    PolicyNet,
    load_agent,
    save_agent,
)
from dominion_env.train.ppo import TrainConfig, Trainer, train  # noqa: E402


@pytest.mark.parametrize("players", [2, 3])
def test_shaped_returns_equal_game_results(players):
    # potential-based shaping: every game's shaped rewards sum to its result, exactly as
    # +1/0/-1 (0 for a truncated game), whatever the policy; the turn limit makes truncations
    vec = VecGame(128, players, opponents=compile_bots("Big Money"), vp_shaping=0.05, turn_limit=12)
    vec.reset(seed=4)
    total = np.zeros(128)
    checked = shaped_nonzero = truncated = 0
    for _ in range(1500):
        out = vec.step(vec.random_actions())
        total += vec.shaped_rewards
        shaped_nonzero += int((vec.shaped_rewards != 0).sum())
        for g in np.flatnonzero(out.terminated | out.truncated):
            expected = 0.0 if out.truncated[g] else vec.learner_rewards[g]
            assert total[g] == pytest.approx(expected, abs=1e-5)
            truncated += int(out.truncated[g])
            total[g] = 0.0
            checked += 1
    assert checked > 200 and truncated > 0 and shaped_nonzero > checked


def test_shaping_refuses_bad_settings():
    with pytest.raises(ValueError, match="vp_shaping .* needs opponents"):
        VecGame(4, vp_shaping=0.1)
    with pytest.raises(ValueError, match="coef must be a number >= 0"):
        VPShaping(4, -1.0)


def test_potential_is_own_score_minus_best_other():
    scores = np.array([[3, 10, 7], [12, 1, 2]])
    np.testing.assert_allclose(vp_potential(scores, np.array([0, 0]), 0.5), [-3.5, 5.0])


@pytest.mark.parametrize("players", [2, 4])
def test_scaled_observations_are_raw_over_scale_and_in_bounds(players):
    raw = VecGame(64, players, opponents=compile_bots("Big Money"))
    scaled = VecGame(64, players, opponents=compile_bots("Big Money"), scale_observations=True)
    a, b = raw.reset(seed=1), scaled.reset(seed=1)
    scale = obs_scale(players)
    lo, hi = obs_bounds(players, scaled=True)
    for _ in range(300):
        np.testing.assert_array_equal(b.observation, a.observation / scale)
        assert (b.observation >= lo).all() and (b.observation <= hi).all()
        act = raw.random_actions()
        a, b = raw.step(act), scaled.step(act)
    # O(1) in play: no entry of a scaled observation runs away
    assert np.abs(b.observation).max() < 20


def test_raw_bounds_hold_and_are_tighter_than_before():
    lo, hi = obs_bounds(2)
    vec = VecGame(256, 2)
    out = vec.reset(seed=2)
    for _ in range(400):
        assert (out.observation >= lo).all() and (out.observation <= hi).all()
        out = vec.step(vec.random_actions())
    assert hi[:64].max() == 127  # a count of one card


def test_scores_are_every_players_vp():
    vec = VecGame(8, 3)
    vec.reset(seed=0)
    np.testing.assert_array_equal(vec.scores, np.full((8, 3), 3))  # three Estates each


class Recorder:
    """A policy that plays the first legal action and records the rows it was asked."""

    def __init__(self):
        self.calls = []
        self.name = "recorder"
        self.scale_observations = True

    def __call__(self, obs, mask):
        self.calls.append(len(obs))
        return mask.argmax(1)

    act = __call__


def test_policy_seats_serve_each_row_by_its_owner():
    opponent = Recorder()
    seats = PolicySeats(32, 3, "First Game", opponent, "rec", vp_shaping=0.02)
    obs, mask = seats.reset(seed=3)
    games = 0
    for _ in range(400):
        # every row waits for the learner, at the learner's seat
        np.testing.assert_array_equal(seats.vec.current_player, seats.seat)
        obs, mask, reward, done, fin = seats.step(mask.argmax(1))
        games += len(fin.result)
        assert set(np.unique(seats.seat)) <= {0, 1, 2}
    assert opponent.calls and games > 0


def tiny_agent(players=2) -> Agent:
    torch.manual_seed(0)
    return Agent(
        PolicyNet(obs_size(players), (16,)), AgentInfo(name="tiny", players=players, hidden=(16,))
    )


def test_an_agent_sits_at_a_table_with_bots():
    res = play_mixed([tiny_agent(), get_bot("Big Money")], 64, 2, "First Game", seed=0)
    rows = summarize(res, ["tiny", "Big Money"])
    assert rows[0]["games"] == rows[1]["games"] == 64
    assert rows[1]["wins"] > 50  # an untrained net against Big Money
    assert set(np.unique(res.status)) <= {1, 2}


def test_mixed_tables_of_bots_only_play_the_arenas_games():
    # the same deals, seating and first player: bots answering through the batched expert
    # API play exactly the games the arena plays them in its compiled loop
    bots = [get_bot("Big Money"), get_bot("Smithy")]
    mixed = play_mixed(bots, 200, 2, "random", seed=7)
    arena = play_games(compile_bots(bots), 200, 2, "random", seed=7)
    np.testing.assert_array_equal(mixed.seat_bot, arena.seat_bot)
    np.testing.assert_array_equal(mixed.reward, arena.reward)
    np.testing.assert_array_equal(mixed.turns, arena.turns)


def test_trainer_smoke_save_load_resume(tmp_path):
    cfg = TrainConfig(
        steps=2048,
        num_envs=64,
        rollout=16,
        epochs=1,
        minibatch=512,
        hidden=(32,),
        bc_steps=512,
        opponents={"Big Money": 1, "self": 1},
        log_every=1024,
        snapshot_every=1024,
        out=str(tmp_path / "run"),
    )
    t = train(cfg)
    assert t.steps >= 2048
    imitation = [h for h in t.history if h.get("phase") == "imitation"]
    assert imitation and 0 <= imitation[0]["agreement"] <= 1
    rows = [h for h in t.history if "steps" in h]
    assert "win_rate[Big Money]" in rows[-1] and "win_rate[self]" in rows[-1]
    for name in ("agent.safetensors", "checkpoint.safetensors", "progress.csv", "curve.png"):
        assert (tmp_path / "run" / name).stat().st_size > 0
    agent = load_agent(tmp_path / "run" / "agent.safetensors")
    assert agent.info.hidden == (32,)
    resumed = Trainer.resume(tmp_path / "run", steps=4096)
    assert resumed.steps == t.steps
    resumed.learn()
    assert resumed.steps >= 4096


def test_evaluate_reports_every_opponent(tmp_path):
    rows = evaluate(tiny_agent(), ["Big Money", "Random"], games=40, kingdom="First Game")
    assert [r["opponent"] for r in rows] == ["Big Money", "Random"]
    for r in rows:
        assert r["wins"] + r["ties"] + r["losses"] + r["truncated"] >= r["games"] - r["ties"]
        assert 0 <= r["win_ci_low"] <= r["win_rate"] <= r["win_ci_high"] <= 1


def test_cli_evaluate_json(tmp_path, capsys):
    from dominion_env.train.policy import save_agent

    a = tiny_agent()
    path = save_agent(a.net, a.info, tmp_path / "tiny.pt")
    cli(
        [
            "evaluate",
            str(path),
            "--opponent",
            "Big Money",
            "--games",
            "20",
            "--kingdom",
            "First Game",
            "--json",
        ]
    )
    line = json.loads(capsys.readouterr().out.strip().splitlines()[0])
    for key in (
        "opponent",
        "games",
        "wins",
        "ties",
        "losses",
        "win_rate",
        "win_ci_low",
        "win_ci_high",
    ):
        assert key in line


def test_bad_training_settings():
    with pytest.raises(ValueError, match="opponent weight"):
        Trainer(TrainConfig(opponents={"Big Money": -1}))
    with pytest.raises(ValueError, match="unknown bot"):
        Trainer(TrainConfig(opponents={"No Such Bot": 1}, num_envs=8))
    with pytest.raises(ValueError, match="no agent"):
        load_agent("no-such-agent")


def test_an_agent_plays_in_simulate_and_tournament(tmp_path, capsys):
    from dominion_env.analysis.tournament import run_tournament
    from dominion_env.train.policy import save_agent

    a = tiny_agent()
    path = save_agent(a.net, a.info, tmp_path / "tiny.pt")
    cli(["simulate", str(path), "Big Money", "--games", "40", "--quiet"])
    out = capsys.readouterr().out
    assert str(path) in out and "Big Money" in out
    res = run_tournament([load_agent(path), "Big Money", "Smithy"], games=20, seed=1)
    assert res.names == ["tiny", "Big Money", "Smithy"]
    assert res.games[0, 1] == res.games[1, 0] > 0  # the agent's tables were played
    assert np.isfinite(res.elo).all()
    # a table of bots only is played as before, unchanged by the agent's presence
    bots_only = run_tournament(["Big Money", "Smithy"], games=20, seed=1)
    np.testing.assert_array_equal(res.wins[1:, 1:], bots_only.wins)
    np.testing.assert_array_equal(res.ties[1:, 1:], bots_only.ties)


# every shipped agent and the table size it was trained for: one for each of 2 to 6 players
SHIPPED_PLAYERS = {"ppo-pool": 2, "ppo-3p": 3, "ppo-4p": 4, "ppo-5p": 5, "ppo-6p": 6}


def test_shipped_agents_are_one_per_table_size():
    from dominion_env.train.policy import shipped_agents

    assert sorted(shipped_agents()) == sorted(SHIPPED_PLAYERS)
    for name, players in SHIPPED_PLAYERS.items():
        assert load_agent(name).info.players == players, name


@pytest.mark.parametrize("name, players", SHIPPED_PLAYERS.items())
def test_shipped_agents_load_and_play(name, players):
    agent = load_agent(name)
    assert agent.name == name
    rows = evaluate(agent, "Big Money", games=50, players=players)
    assert rows[0]["games"] == 50 and rows[0]["players"] == players
    other = 2 if players != 2 else 3
    with pytest.raises(
        ValueError, match=f"agent '{name}' plays {players}-player games; these games have {other}"
    ):
        evaluate(agent, "Big Money", games=2, players=other)


def test_an_agent_saved_for_a_shorter_observation_plays_as_it_did(tmp_path):
    """The layout only grows at its end: an agent saved before the public pieces (the shipped
    ones) loads with zero weights for them and computes exactly what it computed."""
    players = 2
    old = int(obs_offsets(players)[PIECE_NAMES.index("public_hand")])  # the layout before them
    net = PolicyNet(old, (16,))
    save_agent(net, AgentInfo(name="old", players=players, hidden=(16,)), tmp_path / "old.pt")
    agent = load_agent(tmp_path / "old.pt")
    obs = np.random.default_rng(0).random((8, obs_size(players))).astype(np.float32)
    mask = torch.ones((8, NUM_ACTIONS), dtype=torch.bool)
    with torch.no_grad():
        logits, value = net(torch.from_numpy(obs[:, :old]), mask)
        logits2, value2 = agent.net(torch.from_numpy(obs), mask)
    torch.testing.assert_close(logits2, logits)
    torch.testing.assert_close(value2, value)
    big = PolicyNet(obs_size(players) + 1, (16,))
    save_agent(big, AgentInfo(name="new", players=players, hidden=(16,)), tmp_path / "new.pt")
    with pytest.raises(ValueError, match="newer"):
        load_agent(tmp_path / "new.pt")


@pytest.mark.parametrize("scaled", [False, True])
def test_an_agent_is_a_gymnasium_opponent(scaled):
    from dominion_env.envs.gym_env import DominionEnv

    env = DominionEnv(
        players=2, kingdom="First Game", opponents=tiny_agent(), scale_observations=scaled
    )
    obs, info = env.reset(seed=0)
    assert env.observation_space.contains(obs)
    done, steps = False, 0
    while not done:
        obs, reward, terminated, truncated, info = env.step(int(env.action_masks().argmax()))
        done = terminated or truncated
        steps += 1
    assert steps > 5 and reward in (-1.0, 0.0, 1.0)


def test_kingdom_experts_are_the_strongest_bot_of_each_rows_kingdom():
    from dominion_env.agents import STRENGTH_ORDER, strongest_bot_for
    from dominion_env.cards import NAMES
    from dominion_env.engine.observation import split
    from dominion_env.train.opponents import KingdomExperts

    experts = KingdomExperts(2)
    vec = VecGame(64, opponents=compile_bots("Big Money"), scale_observations=True)
    vec.reset(seed=0)
    seen = set()
    for t in range(120):  # games end and new kingdoms come: only those rows are looked up
        ids = experts.ids(vec.observation)
        if t % 20 == 0:
            flags = split(vec.observation, 2)["in_supply"] > 0.5
            for g in range(64):
                cards = [NAMES[c] for c in np.flatnonzero(flags[g])]
                assert STRENGTH_ORDER[ids[g]] == strongest_bot_for(cards).name
            seen |= set(ids.tolist())
        vec.step(vec.random_actions())
    assert len(seen) > 3
