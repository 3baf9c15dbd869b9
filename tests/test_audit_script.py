"""``bench/audit.py``: its settings grid covers every card and every engine setting, a run
prints games, decisions, violations and the rate, and a violation fails it."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from dominion_env.cards import NAMES
from dominion_env.engine.audit import CHECK_NAMES

PATH = Path(__file__).resolve().parents[1] / "bench" / "audit.py"
spec = importlib.util.spec_from_file_location("bench_audit", PATH)
bench_audit = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_audit)


def test_the_grid_covers_every_card_and_setting():
    settings = bench_audit.plan()
    assert bench_audit.cards_covered(settings) == set(NAMES)  # all 64
    # the fixed kingdoms alone hold every kingdom card
    cover = [s for s in settings if isinstance(s["kingdom"], list)]
    assert bench_audit.cards_covered(cover) == set(NAMES)
    for key, values in [
        ("players", {2, 3, 4, 5, 6}),
        ("autoplay_treasures", {True, False}),
        ("auto_resolve", {True, False}),
        ("first_player", {None, 0}),
        ("turn_limit", {60, 8}),
    ]:
        assert {s[key] for s in settings} == values, key
    assert {s["kingdom"] for s in settings if isinstance(s["kingdom"], str)} >= {"random"}


def test_a_run_prints_the_figures(capsys):
    assert bench_audit.main(["--games", "150", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "150 games over 150 of 1120 settings" in out
    assert "violations: 0 states" in out and "games/s" in out and "10M games" in out
    for name in CHECK_NAMES:
        assert name in out


def test_a_violation_fails_the_run(monkeypatch, capsys):
    real = bench_audit.audit

    def broken(n, **kw):
        r = real(n, **kw)
        r["violating_states"] = {**r["violating_states"], "conservation": 1}
        r["violating_games"] = {**r["violating_games"], "conservation": 1}
        r["ok"], r["bad_games"] = False, [0]
        return r

    monkeypatch.setattr(bench_audit, "audit", broken)
    assert bench_audit.main(["--games", "3"]) == 1
    out = capsys.readouterr().out
    assert "FAILED" in out and "conservation" in out
