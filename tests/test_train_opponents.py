"""The training pool's opponents by kind (``ppo.opponent_kind``): every name is checked by
``check_config`` before any work (a shipped agent's name is an agent, not an unknown bot), and
``"all bots"`` (``seats.LibrarySeats``) deals every library bot but Random its own kingdom.
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")

from test_training_loop import tiny_config  # noqa: E402  (the tiny run's settings)

from dominion_env.agents import BOTS, kingdom_for  # noqa: E402
from dominion_env.cards import NAMES, NUM_CARDS  # noqa: E402
from dominion_env.cli import main as cli  # noqa: E402
from dominion_env.engine.observation import O_IN_SUPPLY, obs_offsets  # noqa: E402
from dominion_env.train import ppo  # noqa: E402
from dominion_env.train.opponents import LIBRARY_BOTS, BotSeats, LibrarySeats  # noqa: E402
from dominion_env.train.ppo import Trainer, train  # noqa: E402

BASIC = {"Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse"}


def supply(obs: np.ndarray, players: int = 2) -> list[set]:
    start = int(obs_offsets(players)[O_IN_SUPPLY])
    flags = obs[:, start : start + NUM_CARDS] > 0.5
    return [{NAMES[c] for c in np.flatnonzero(row)} for row in flags]


@pytest.mark.parametrize(
    "name, kind",
    [
        ("self", "self"),
        ("strongest", "strongest"),
        ("all bots", "all bots"),
        ("Library", "bot"),
        ("optimized", "file"),
        ("bots.toml", "file"),
        ("bots.toml:Smithy", "bot"),  # one bot of the file, in the pool of bots
        ("optimized:First Game", "bot"),
        ("runs/a/agent.safetensors", "agent"),
        ("ppo-3p", "agent"),
        ("Big Money", "bot"),
        ("Nobody", "bot"),
    ],
)
def test_each_name_is_one_kind(name, kind):
    assert ppo.opponent_kind(name) == kind


def test_the_library_is_every_bot_but_random_each_on_its_own_kingdom():
    assert LIBRARY_BOTS == tuple(b for b in BOTS if b != "Random") and len(LIBRARY_BOTS) == 35
    seats = LibrarySeats(2 * len(LIBRARY_BOTS) + 3, 2, LIBRARY_BOTS, vp_shaping=0.02)
    assert np.bincount(seats.part).tolist()[:4] == [3, 3, 3, 2]  # split evenly, in order
    assert (np.diff(seats.part) >= 0).all()
    obs, mask = seats.reset(7)
    assert obs.shape[0] == mask.shape[0] == seats.num_games
    kingdoms = supply(obs)
    bots = seats.vec.opponent_bots
    for g, k in enumerate(seats.part):
        assert kingdoms[g] - BASIC == set(kingdom_for([BOTS[LIBRARY_BOTS[k]]])), g
        assert set(bots[g].tolist()) == {-1, int(k)}


def test_the_library_batch_deals_each_bot_the_games_its_own_batch_did():
    """One mixed batch for every bot plays, row for row, the games of one learner-mode batch
    per bot with that bot in every other seat (seeded seed * 1000 + the bot's place)."""
    bots = LIBRARY_BOTS[:4]
    seats = LibrarySeats(10, 2, bots, vp_shaping=0.02)
    obs, mask = seats.reset(5)
    alone = []
    for k, bot in enumerate(bots):
        part = BotSeats(
            int((seats.part == k).sum()), 2, kingdom_for([BOTS[bot]]), [bot], None,
            vp_shaping=0.02,
        )  # fmt: skip
        alone.append((part, part.reset(5 * 1000 + k)))
    rng = np.random.default_rng(1)
    for _ in range(60):
        want_obs = np.concatenate([o for _, (o, _) in alone])
        np.testing.assert_array_equal(obs, want_obs)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        obs, mask, reward, done, _ = seats.step(actions)
        start, stepped = 0, []
        for part, _ in alone:
            n = part.num_games
            o, m, r, d, _ = part.step(actions[start : start + n])
            stepped.append((part, (o, m)))
            np.testing.assert_array_equal(reward[start : start + n], r)
            start += n
        alone = stepped


def test_library_games_end_labelled_library_with_the_learners_results():
    seats = LibrarySeats(len(LIBRARY_BOTS), 2, LIBRARY_BOTS, vp_shaping=0.0)
    obs, mask = seats.reset(3)
    results, rng = [], np.random.default_rng(0)
    for _ in range(3000):
        legal = [np.flatnonzero(m) for m in mask]
        obs, mask, reward, done, fin = seats.step(np.array([rng.choice(a) for a in legal]))
        assert set(fin.opponent) <= {"all bots"} and len(fin.result) == done.sum()
        assert np.array_equal(reward[done], fin.result)  # unshaped: the result on the last step
        results += fin.result.tolist()
        if len(results) >= 20:
            break
    assert len(results) >= 20 and set(results) <= {-1.0, 0.0, 1.0}
    assert results.count(-1.0) > results.count(1.0)  # random play loses to the bots


def test_a_run_against_the_library_logs_its_win_rate(tmp_path):
    cfg = tiny_config(tmp_path, opponents={"all bots": 1}, num_envs=40, steps=2048, bc_steps=0)
    t = train(cfg)
    assert len(t.groups) == 1 and isinstance(t.groups[0], LibrarySeats)
    assert "win_rate[all bots]" in t.history[-1]


def test_a_shipped_agent_opponent_by_name_is_an_agent(tmp_path):
    cfg = tiny_config(tmp_path, players=3, opponents={"ppo-3p": 1}, steps=512, bc_steps=0)
    assert train(cfg).steps == 512


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"opponents": {"Nobody": 1}}, r"opponents: unknown bot 'Nobody'"),
        ({"opponents": {"ppo-3p": 1}}, r"opponents: agent 'ppo-3p' plays 3-player games; .*=2"),
        ({"opponents": {"missing.pt": 1}}, r"no agent 'missing\.pt'"),
        (
            {"opponents": {"all bots": 1}, "kingdom": "First Game", "num_envs": 64},
            r"'all bots' plays each library bot on its own kingdom; this run's kingdom is 'First",
        ),
        (
            {"opponents": {"all bots": 1, "Big Money": 1}, "num_envs": 64},
            r"'all bots' needs a row for each of its 35 bots; num_envs=64 .* gives it 32",
        ),
    ],
)
def test_opponents_that_cannot_play_the_run_are_refused_before_any_work(
    tmp_path, settings, message
):
    with pytest.raises(ValueError, match=message):
        Trainer(tiny_config(tmp_path, **settings))
    assert not (tmp_path / "run").exists()


def test_the_cli_takes_all_bots(tmp_path, capsys):
    out = tmp_path / "run"
    argv = ["train", "--opponent", "All Bots", "--steps", "64", "--num-envs", "40"]
    assert (
        cli([*argv, "--bc-steps", "0", "--hidden", "8", "--eval-games", "0", "--out", str(out)])
        == 0
    )
    assert ppo.read_checkpoint(out / "checkpoint.safetensors")["config"].opponents == {
        "all bots": 1.0
    }
