"""``bench/leaderboard.py``: its default field holds every kind of player (agents, bots, the
search, the guided search, OpenSpiel's ISMCTS), each optimizer's bot is played on the kingdom
it was made for, a row says its player's decision time, and a partial board says what it left
out. The figures themselves are the docs' (never asserted here)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="the leaderboard scores the shipped agents (train extra)")

from dominion_env.agents import get_bot, load_bot_file  # noqa: E402
from dominion_env.train.scorecard import scorecard  # noqa: E402

PATH = Path(__file__).resolve().parents[1] / "bench" / "leaderboard.py"
spec = importlib.util.spec_from_file_location("bench_leaderboard", PATH)
lb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lb)


def test_the_default_field_holds_every_kind_of_player():
    assert set(lb.SEARCHES) == {"search", "search:ppo-pool:256", "rollout:ppo-pool", "ismcts"}
    kinds = set()
    for name in lb.SEARCHES:
        if name == "ismcts" and importlib.util.find_spec("pyspiel") is None:
            continue
        kinds.add(type(lb.resolve(name)).__name__)
    assert {"Search", "GuidedSearch", "NetworkSearch"} <= kinds


def test_each_optimized_bot_plays_the_kingdom_it_was_made_for():
    bots = load_bot_file("optimized")
    for bot in bots:
        kingdom = lb.made_for(bot)
        assert len(kingdom) == 10 and set(bot.kingdom_cards()) <= set(kingdom), bot.name
    (row,) = lb.optimized_rows(4, bots=bots[:1])
    assert row["player"] == bots[0].name and row["kingdom"] == lb.made_for(bots[0])
    assert set(row["against"]) == {row["strongest"], "Big Money Ultimate"}
    assert all(r["games"] == 4 for r in row["against"].values())


def test_a_row_says_its_decision_time_and_a_partial_board_says_so(tmp_path):
    bot = get_bot("Big Money")
    t = lb.decision_time(bot, 2)
    assert t["games"] == 2 and t["decisions"] > 20 and 0 < t["ms"] < 1000
    card = scorecard(bot, quick=True, sections=("money",))
    card["decision_time"] = t
    text = lb.page([card], True, [], ("money",))
    assert "(quick)" in text.splitlines()[0] and "Sections played: money" in text
    row = next(line for line in text.splitlines() if line.startswith("| Big Money |"))
    assert row.split("|")[2].strip() == lb.ms(card) != "-"
    # a page joining runs names each run's command, and the default field's players in none
    path = tmp_path / "run.json"
    path.write_text(json.dumps({"cards": [card], "optimized": []}))
    merged = lb.merge(
        [(str(path), "python bench/leaderboard.py --x", "bots")], True, tmp_path / "p.md"
    )
    assert "Made by `python bench/leaderboard.py --x` (bots);" in merged
    left = next(line for line in merged.splitlines() if line.startswith("Not in this run"))
    assert all(n in left for n in ("ppo-pool", "Double Witch", "search:ppo-pool:256", "ismcts"))
    assert "Big Money," not in left and not left.endswith("Big Money")
    assert (tmp_path / "p.json").is_file() and "| Big Money |" in (tmp_path / "p.md").read_text()
