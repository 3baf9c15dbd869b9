"""Issue 22's optimizer target: on random kingdoms (2 players), the bot ``dominion optimize``
finds within the time budget against the strongest library bot for that kingdom, judged on
games the search never saw.

    python bench/optimize_kingdoms.py --kingdoms 20 --minutes 2          # the target run
    python bench/optimize_kingdoms.py --kingdoms 6 --minutes 0.33        # a shorter budget
    python bench/optimize_kingdoms.py --recommended --minutes 2          # the seven sets, in words

Kingdom k is ``random_kingdom(kingdom_seed + k)``; the search runs on ``--seed``, the judging
on ``--judge-seed`` (a seed the search never draws from: its game seeds come from
``SeedSequence([seed, ...])``). Prints per kingdom the strongest library bot
(``strongest_bot_for``), the found bot's win rate against it with a 95% Wilson interval, ties,
generations and seconds, then the mean and the lowest win rate (target: mean >= 60%, every
kingdom >= 50%), and the machine's cores.
"""

import argparse
import os
import time

import numpy as np

from dominion_env.agents import strongest_bot_for
from dominion_env.analysis.optimize import describe, judge, optimize
from dominion_env.engine.kingdoms import RECOMMENDED, random_kingdom


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kingdoms", type=int, default=20)
    ap.add_argument("--kingdom-seed", type=int, default=2200)
    ap.add_argument("--recommended", action="store_true", help="the seven recommended sets")
    ap.add_argument("--minutes", type=float, default=2.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--judge-seed", type=int, default=987_654_321)
    ap.add_argument("--judge-games", type=int, default=2000)
    args = ap.parse_args()
    if args.recommended:
        kingdoms = [(name, RECOMMENDED[name]) for name in RECOMMENDED]
    else:
        kingdoms = [
            (f"random {args.kingdom_seed + k}", random_kingdom(args.kingdom_seed + k))
            for k in range(args.kingdoms)
        ]
    print(f"{os.cpu_count()} cores; {args.minutes} min per kingdom; 2 players")
    head = f"{'kingdom':<18}{'strongest':<22}{'win':>8}{'95% CI':>18}{'ties':>7}{'gens':>6}{'s':>6}"
    print(head)
    print("-" * len(head))
    rates = []
    for label, kingdom in kingdoms:
        start = time.perf_counter()
        res = optimize(kingdom, 2, args.minutes, args.seed, judge_games=200)
        strongest = strongest_bot_for(kingdom)
        (row,) = judge(res.best, [strongest], kingdom, 2, args.judge_games, args.judge_seed)
        secs = time.perf_counter() - start
        lo, hi = row["win_ci"]
        rates.append(row["win_rate"])
        print(
            f"{label:<18}{strongest.name:<22}{row['win_rate']:>8.1%}"
            f"{f'[{lo:.1%}, {hi:.1%}]':>18}{row['ties'] / row['games']:>7.1%}"
            f"{res.generations:>6}{secs:>6.0f}",
            flush=True,
        )
        if args.recommended:
            print("    " + describe(res.best).replace("\n", "\n    "), flush=True)
    rates = np.array(rates)
    print(
        f"\nmean win rate {rates.mean():.1%} over {rates.size} kingdoms; lowest "
        f"{rates.min():.1%}; {int((rates >= 0.5).sum())} of {rates.size} at 50% or more "
        f"({args.judge_games} games each, judge seed {args.judge_seed})"
    )


if __name__ == "__main__":
    main()
