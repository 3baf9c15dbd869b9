"""Each library bot against Big Money and Big Money Ultimate: the figures in the library's table.

    python bench/bots_vs_bm.py [--games 20000] [--seed 1] [--bots "Smithy,Minion/Chapel"]

2 players, the kingdom holding both bots' cards (``kingdom_for``), seats alternating game by
game (``arena.seat_rotation``), whole games in compiled code (``arena.play_games``). Per bot and
opponent: wins / ties / losses as % of all games, each with its 95% Wilson interval, and the
games cut by the turn limit. ``--markdown`` prints the same rows as a Markdown table.
"""

from __future__ import annotations

import argparse
import time

from dominion_env.agents import BOTS, compile_bots, get_bot, kingdom_for
from dominion_env.analysis.arena import play_games, summarize

OPPONENTS = ("Big Money", "Big Money Ultimate")


def versus(bot, opponent, games: int, seed: int) -> dict:
    """``summarize``'s row for ``bot`` in ``games`` 2-player games against ``opponent``."""
    pair = [bot, opponent]
    res = play_games(compile_bots(pair), games, 2, kingdom=kingdom_for(pair), seed=seed)
    return summarize(res, [bot.name, opponent.name])[0]


def cell(row: dict) -> str:
    """'W 93.1 ±0.4 / T 1.2 / L 5.7' style: the win rate with its CI half-width."""
    n = row["games"]
    lo, hi = row["win_ci"]
    return (
        f"{100 * row['wins'] / n:5.1f} ±{50 * (hi - lo):3.1f} / {100 * row['ties'] / n:4.1f}"
        f" / {100 * row['losses'] / n:5.1f}"
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000, help="games per pairing")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bots", default="", help="comma-separated library names (default: all)")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument(
        "--quick",
        action="store_true",
        help="a small, fast run: checks the script works (figures not to cite)",
    )
    args = ap.parse_args()
    if args.quick:
        args.games, args.bots = 200, args.bots or "Smithy"
    names = [n.strip() for n in args.bots.split(",") if n.strip()] or list(BOTS)
    bots = [get_bot(n) for n in names]
    opps = [get_bot(n) for n in OPPONENTS]
    start = time.perf_counter()
    head = f"{'bot':<20} " + " | ".join(f"{'vs ' + o.name + ' W ±CI / T / L %':<34}" for o in opps)
    if args.markdown:
        print("| bot | " + " | ".join(f"vs {o.name}: W% ±CI / T% / L%" for o in opps) + " |")
        print("|---|" + "---|" * len(opps))
    else:
        print(f"{args.games} games per pairing, 2 players, seats alternating, seed {args.seed}")
        print(head)
    for bot in bots:
        rows = [versus(bot, o, args.games, args.seed) for o in opps]
        cut = sum(r["truncated"] for r in rows)
        if args.markdown:
            print(f"| {bot.name} | " + " | ".join(cell(r) for r in rows) + " |")
        else:
            tail = f"  ({cut} cut by the turn limit)" if cut else ""
            print(f"{bot.name:<20} " + " | ".join(f"{cell(r):<34}" for r in rows) + tail)
    print(f"# {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
