"""What the bot language costs: whole bot games per second for bots whose rules use more of it,
each beside Big Money (no conditions at all) measured in the same run.

    python bench/bench_language.py [--games 20000]

Rows: Big Money mirror; Big Money Ultimate mirror (the older one-comparison conditions); the
DominionSim Smithy (a comparison of two quantities with arithmetic) against BMU; a Minion/Chapel
bot with play rules of every kind (play, trash, discard, choose) against BMU. Every figure is
the best of REPEATS windows, with the median (the machine is shared: other tenants only ever
slow a window down).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np

from dominion_env.agents import BOTS, Bot, compile_bots, kingdom_for
from dominion_env.analysis.arena import play_games

REPEATS = 5

SMITHY = Bot(
    "DominionSim Smithy",
    [
        ("Province", "money > 15"),
        ("Duchy", "pile('Province') <= 4"),
        ("Estate", "pile('Province') <= 2"),
        "Gold",
        ("Duchy", "pile('Province') <= 6"),
        ("Smithy", "count('Smithy') < count('Treasure') / 11"),
        "Silver",
    ],
)
MINION = Bot(
    "Minion/Chapel rules",
    [
        ("Province", "money > 15"),
        ("Minion", "count('Minion') < 1 + count('Treasure') / 4"),
        ("Chapel", "count('Chapel') == 0 and turn <= 2"),
        "Gold",
        "Silver",
    ],
    play=["Minion", ("Chapel", "hand('Estate') + hand('Copper') >= 2")],
    trash=["Curse", "Estate", ("Copper", "money > 6"), "PASS"],
    discard=["Curse", "Estate", "Chapel"],
    choose=[("Minion option 0", "hand('Minion') > 0 or coins + 2 >= 8 or hand() >= 5")],
)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20000, help="games per window")
    ap.add_argument(
        "--quick",
        action="store_true",
        help="a small, fast run: checks the script works (figures not to cite)",
    )
    args = ap.parse_args()
    n = 500 if args.quick else args.games
    print(f"whole bot games, 2 players, {os.cpu_count()} cores (best and median of {REPEATS})")
    bmu = BOTS["Big Money Ultimate"]
    for bots in (
        [BOTS["Big Money"], BOTS["Big Money"]],
        [bmu, bmu],
        [SMITHY, bmu],
        [MINION, bmu],
    ):
        table = compile_bots(bots)
        kingdom = kingdom_for(bots)
        play_games(table, 64, 2, kingdom=kingdom, seed=0)  # compile outside the timing
        rates = []
        for k in range(REPEATS):
            start = time.perf_counter()
            play_games(table, n, 2, kingdom=kingdom, seed=1 + k)
            rates.append(n / (time.perf_counter() - start))
        names = " vs ".join(b.name for b in bots)
        print(f"  {names:<44} {max(rates):>10,.0f} games/s (median {np.median(rates):,.0f})")


if __name__ == "__main__":
    main()
