"""The leaderboard: ``dominion scorecard`` for every shipped agent and the library's strongest
bots, written as the docs' page (docs/results/leaderboard.md) and as JSON beside it.

    python bench/leaderboard.py                     # the full protocol (a long run)
    python bench/leaderboard.py --quick --out /tmp/board.md
    python bench/leaderboard.py --players ppo-pool "Double Witch"

Each player's scorecard is ``dominion scorecard PLAYER [--quick] --json``'s, so a row of the
page is reproduced by that command. The 2-player table is sorted by the all-bots tournament's
score; the 3-6 player table lists what each player plays.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from dominion_env.train.policy import shipped_agents
from dominion_env.train.scorecard import resolve, scorecard

# the library's strongest bots by the all-bots tournament, and the two money baselines
BOTS = ("Workshop/Gardens", "Double Witch", "Single Witch", "Big Money Ultimate", "Big Money")


def cell(rate: dict | None) -> str:
    if rate is None:
        return "-"
    lo, hi = rate["ci"]
    return f"{rate['win_rate']:.1%} [{lo:.1%}, {hi:.1%}]"


def page(cards: list[dict], quick: bool) -> str:
    mode = "quick" if quick else "full"
    protocol = cards[0]["protocol"]
    lines = [
        "# Results: the leaderboard",
        "",
        f"Every shipped agent and the library's strongest bots, measured by `dominion scorecard`"
        f" (protocol {protocol}, {mode}: {cards[0]['games']['money']:,} games against each money"
        f" bot, {cards[0]['games']['h2h']:,} per head-to-head table,"
        f" {cards[0]['games']['multiplayer']:,} per table size). Made by"
        f" `python bench/leaderboard.py{' --quick' if quick else ''}`; each row is"
        f" `dominion scorecard PLAYER{' --quick' if quick else ''}`. Intervals are 95% Wilson.",
        "",
        "## 2 players",
        "",
        "| player | tournament rank (score) | vs Big Money | vs Big Money Ultimate | vs the "
        "strongest bot per kingdom | head to head at 60%+ | lowest head to head |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    two = [c for c in cards if "tournament" in c]
    two.sort(key=lambda c: -c["tournament"]["score"])
    for c in two:
        t, money, h2h = c["tournament"], c["money"], c["h2h"]
        low_name, low = min(h2h.items(), key=lambda kv: kv[1]["win_rate"])
        at60 = sum(r["win_rate"] >= 0.6 for r in h2h.values())
        lines.append(
            f"| {c['player']} | {t['rank_by_score']} of {t['players']} ({t['score']:.1%}) "
            f"| {cell(money['Big Money'])} | {cell(money['Big Money Ultimate'])} "
            f"| {cell(money['strongest'])} | {at60} of {len(h2h)} "
            f"| {low_name} {low['win_rate']:.1%} |"
        )
    lines += [
        "",
        "A player's own mirror is not in its head-to-head count (Big Money's row against Big",
        "Money is the money section's mirror). The tournament ranks each player among the",
        "library's 36 bots and itself. The money columns deal random kingdoms: a bot built for",
        "some cards (Workshop/Gardens) plays its rules without the ones a kingdom lacks, which",
        "is what its low figures there measure; its own kingdom is in the head-to-head columns.",
        "",
        "## 3 to 6 players: wins against Big Money Ultimate in every other seat",
        "",
        "| player | 3 players (fair 33.3%) | 4 (25.0%) | 5 (20.0%) | 6 (16.7%) |",
        "| --- | --- | --- | --- | --- |",
    ]
    for c in cards:
        multi = c.get("multiplayer", {})
        if multi:
            row = " | ".join(cell(multi.get(str(p))) for p in range(3, 7))
            lines.append(f"| {c['player']} | {row} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="the quick protocol")
    ap.add_argument("--players", nargs="+", default=None, help="default: agents and BOTS")
    ap.add_argument("--out", default="docs/results/leaderboard.md")
    args = ap.parse_args(argv)
    names = args.players or [*shipped_agents(), *BOTS]
    players = []
    for name in names:
        try:
            players.append(resolve(name))
        except (ValueError, OSError) as e:
            ap.error(f"argument --players: {e}")
    cards = []
    for p in players:
        t0 = time.perf_counter()
        cards.append(scorecard(p, quick=args.quick))
        print(f"{p.name}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    out = Path(args.out)
    out.write_text(page(cards, args.quick))
    out.with_suffix(".json").write_text(json.dumps(cards, indent=1) + "\n")
    print(f"wrote {out} and {out.with_suffix('.json')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
