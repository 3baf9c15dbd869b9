"""OpenSpiel's ISMCTS (``ismcts:N``) beside the search (``search:N``): win rates against Big
Money, Big Money Ultimate and the strongest library bot for each kingdom, and each player's
thinking time per decision, measured in the same run.

    python bench/bench_ismcts.py                                 # the docs' figures
    python bench/bench_ismcts.py --players ismcts:30 search:200 --games 20
    python bench/bench_ismcts.py --json out.json

Every match-up is ``dominion evaluate PLAYER --opponent OPP --games G --seed S``'s games (2
players, random kingdoms, the player in a random seat; ``strongest``: 10 games per kingdom), so
each player meets the same deals. Thinking time is the wall time spent in the player's
``act_games`` divided by the decisions it answered (the search answers every waiting game's
decision in one batched call, ISMCTS one game at a time); the table's last column is wins per
second of thinking, win rate / thinking time per decision x decisions per game being the
same for both players only approximately: read it beside the others.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from dominion_env.train.evaluate import STRONGEST, evaluate
from dominion_env.train.scorecard import resolve

OPPONENTS = ("Big Money", "Big Money Ultimate", STRONGEST)


class Timed:
    """A player whose ``act_games`` calls are timed and counted (into ``clock``, shared by the
    copies ``with_seed`` makes for each chunk of games)."""

    def __init__(self, player, clock: dict):
        self.player, self.clock = player, clock

    def __getattr__(self, name):
        return getattr(self.player, name)

    def with_seed(self, seed: int) -> Timed:
        return Timed(self.player.with_seed(seed), self.clock)

    def act_games(self, vec, rows):
        t0 = time.perf_counter()
        out = self.player.act_games(vec, rows)
        self.clock["seconds"] += time.perf_counter() - t0
        self.clock["decisions"] += len(out)
        return out


def measure(name: str, opponent: str, games: int, seed: int) -> dict:
    evaluate(resolve(name), [opponent], games=1, seed=seed + 10**6)  # compiled, warm
    clock = {"seconds": 0.0, "decisions": 0}
    player = Timed(resolve(name), clock)
    t0 = time.perf_counter()
    (row,) = evaluate(player, [opponent], games=games, seed=seed, batch=games)
    lo, hi = row["win_ci_low"], row["win_ci_high"]
    per = clock["seconds"] / max(clock["decisions"], 1)
    return {
        "player": name,
        "opponent": opponent,
        "games": row["games"],
        "wins": row["wins"],
        "ties": row["ties"],
        "win_rate": row["win_rate"],
        "ci": [lo, hi],
        "decisions": clock["decisions"],
        "seconds_per_decision": per,
        "wall_seconds": time.perf_counter() - t0,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--players", nargs="+", default=["ismcts:30", "ismcts:100", "search:200", "search:800"]
    )
    ap.add_argument("--opponents", nargs="+", default=list(OPPONENTS))
    ap.add_argument("--games", type=int, default=50, help="games per match-up")
    ap.add_argument("--seed", type=int, default=7_000_000)
    ap.add_argument("--json", default="", help="write the rows here too")
    ap.add_argument("--quick", action="store_true", help="ismcts:4 and search:20, 2 games each")
    args = ap.parse_args(argv)
    if args.quick:
        args.players, args.games = ["ismcts:4", "search:20"], 2
    if args.games < 1:
        ap.error(f"argument --games: must be a positive int, got {args.games}")
    for name in args.players:
        try:
            resolve(name)
        except (ValueError, OSError) as e:
            ap.error(f"argument --players: {e}")
    print(
        f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; {args.games} games "
        f"per match-up, seed {args.seed}",
        flush=True,
    )
    print(f"{'player':<14}{'against':<22}{'win rate [95% CI]':>24}{'ms/decision':>13}")
    rows = []
    for opponent in args.opponents:
        for name in args.players:
            r = measure(name, opponent, args.games, args.seed)
            rows.append(r)
            lo, hi = r["ci"]
            print(
                f"{name:<14}{opponent:<22}{r['win_rate']:>8.1%} [{lo:5.1%}, {hi:5.1%}]"
                f"{1000 * r['seconds_per_decision']:>13.1f}",
                flush=True,
            )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
