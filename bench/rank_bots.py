"""Rank the bot library by a round robin (each table on a kingdom holding its bots' cards).

    python bench/rank_bots.py --games 2000 --seed 1

Prints the Elo order; ``dominion_env.agents.library.STRENGTH_ORDER`` holds the order measured
this way (regenerate it when bots change). ``dominion evaluate AGENT --opponent strongest``
plays, in each game's kingdom, the first bot of that order whose cards are all in it.
"""

import argparse

import numpy as np

from dominion_env.agents import BOTS
from dominion_env.analysis.tournament import run_tournament


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--quick",
        action="store_true",
        help="a small, fast run: checks the script works (figures not to cite)",
    )
    args = ap.parse_args()
    if args.quick:
        args.games = 20
    r = run_tournament(list(BOTS), games=args.games, seed=args.seed, progress=True)
    order = np.argsort(-r.elo)
    for i in order:
        print(f"{r.names[i]:<22} Elo {r.elo[i]:7.0f} ± {r.elo_pm[i]:.0f}")
    print("STRENGTH_ORDER = (" + ", ".join(repr(r.names[i]) for i in order) + ")")


if __name__ == "__main__":
    main()
