"""``bench/agent_targets.py``: the scorecard's sections print a figure, an interval, the target
and a verdict that agrees with them; bad arguments end it with status 2. The figures for the
shipped agent are measured by the script and reported on the docs site, never asserted here."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="the train extra (torch) is not installed")

from dominion_env.agents import BOTS  # noqa: E402  (after the skip: the script loads agents)

PATH = Path(__file__).resolve().parents[1] / "bench" / "agent_targets.py"
spec = importlib.util.spec_from_file_location("bench_agent_targets", PATH)
targets = importlib.util.module_from_spec(spec)
spec.loader.exec_module(targets)

RATE = r"(\d+\.\d)% \[ ?(\d+\.\d)%, ?(\d+\.\d)%\]"  # a figure and its 95% interval


def test_engine_bots_name_a_village_and_draw():
    names = [b.name for b in targets.engine_bots()]
    assert names == ["Nobles", "Costume Party"]  # the library's bots are money-first
    assert "Festival" in targets.VILLAGES and "Festival" not in targets.DRAW
    assert {"Smithy", "Library", "Moat"} <= targets.DRAW
    assert {"Village", "Mining Village", "Shanty Town", "Nobles"} <= targets.VILLAGES


def test_bots_and_engines_print_figures_intervals_and_verdicts(capsys):
    assert targets.main(["ppo-pool", "--games", "20", "--sections", "bots", "engines"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "ppo-pool: the 2-player targets, seed 1000000000"
    assert "== 1. against Big Money" in out and "== 5. engine bots" in out
    assert "== 2." not in out and "== 4." not in out  # only the sections asked for
    rows = [ln for ln in lines if re.match(r"(Big Money|strongest)", ln)]
    assert [r.split("  ")[0].strip() for r in rows] == [
        "Big Money",
        "Big Money Ultimate",
        "strongest",
    ]
    for row, target in zip(rows, ("97%", "90%", "75%"), strict=True):
        rate, lo, hi = (float(x) for x in re.search(RATE, row).groups())
        assert lo <= rate <= hi
        assert f"{target}  " in row and row.endswith("met")
        assert row.endswith("not met") == (rate < float(target[:-1]))
    assert sum(ln.startswith("buys per game vs ") for ln in lines) == 3
    assert "library bots with a village and draw: Nobles, Costume Party" in out
    summary = lines[lines.index("== summary") + 1 :]
    assert [s.split("  ")[0] for s in summary] == [
        "97% against Big Money",
        "90% against Big Money Ultimate",
        "75% against the strongest bot per kingdom",
        "engine bots beating BMU: reported",
    ]


def test_h2h_and_the_tournament_read_one_round_robin(monkeypatch, capsys):
    few = {n: BOTS[n] for n in ("Big Money", "Smithy", "Double Witch")}
    monkeypatch.setattr(targets, "BOTS", few)  # a 4-player field keeps the test short
    argv = ["ppo-pool", "--games", "10", "--sections", "h2h", "tournament", "--seed", "5"]
    assert targets.main(argv) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    table = [ln for ln in lines if ln.split("  ")[0].strip() in few]
    assert len(table) == 3  # one row per bot, sorted by win rate
    rates = [float(re.search(RATE, ln).group(1)) for ln in table]
    assert rates == sorted(rates, reverse=True)
    at = sum(r >= 60 for r in rates)
    assert f"at 60% or more: {at} of 3 bots" in out
    assert "4 players, 60 games" in out  # 6 tables of 10 games: one tournament for both
    rank = int(re.search(r"ppo-pool: rank (\d) of 4 by score", out).group(1))
    assert 1 <= rank <= 4
    assert ("first by score: met" in out) == (rank == 1)


def test_the_optimizer_section_pools_its_kingdoms(capsys):
    argv = ["ppo-pool", "--games", "12", "--sections", "optimizer"]
    assert targets.main([*argv, "--kingdoms", "2", "--generations", "1"]) == 0
    out = capsys.readouterr().out
    assert "(optimize: 1 generations each; 12 games in all)" in out
    rows = [ln for ln in out.splitlines() if re.match(r"100300000[01] ", ln)]
    assert len(rows) == 2 and all(ln.split()[2] == "1" for ln in rows)  # one generation each
    wins = [round(float(re.search(RATE, ln).group(1)) * 6 / 100) for ln in rows]  # 6 games each
    pooled = float(re.search(r"pooled: " + RATE, out).group(1))
    assert pooled == round(100 * sum(wins) / 12, 1)
    assert ("target 50%: met" in out) == (pooled >= 50)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["ppo-3p"], "the targets are a 2-player agent's; 'ppo-3p' plays 3-player games"),
        (["ppo-pool", "--sections", "all"], "invalid choice: 'all'"),
        (["ppo-pool", "--games", "5"], "at least one game per kingdom (--kingdoms 10), got 5"),
        (["ppo-pool", "--minutes", "0"], "0 is out of range"),
        (["ppo-pool", "--generations", "0"], "0 is out of range"),
        (["no-such-agent"], "argument agent:"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        targets.main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
