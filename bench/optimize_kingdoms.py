"""The optimizer's figure: on random kingdoms (2 players), the bot ``dominion optimize``
finds within the time budget against the strongest library bot for that kingdom, judged on
games the search never saw.

    python bench/optimize_kingdoms.py --kingdoms 20 --minutes 2          # the target run
    python bench/optimize_kingdoms.py --kingdoms 6 --minutes 0.33        # a shorter budget
    python bench/optimize_kingdoms.py --recommended --minutes 2          # the seven sets, in words
    python bench/optimize_kingdoms.py --only 2200 2203 --generations 40  # a budget in generations

Kingdom k is ``random_kingdom(kingdom_seed + k)`` (``--only``: these kingdom seeds); the
search runs on ``--seed``, the judging on ``--judge-seed`` (a seed the search never draws from:
its game seeds come from ``SeedSequence([seed, ...])``). ``--generations`` makes the budget a
number of generations (the same bot on any machine; the wall time is printed) instead of
``--minutes``. Prints per kingdom the strongest library bot (``strongest_bot_for``), the found
bot's score against it (wins + ties / 2, the figure the target is judged on: a tie is a shared
result, and a bot that only ties its mirror scores 50%), its wins alone with a 95% Wilson
interval, ties, generations and seconds; then the mean and the lowest of both figures (target:
mean >= 60%, every kingdom >= 50%), and the machine's cores.
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
    ap.add_argument("--only", type=int, nargs="+", help="these kingdom seeds")
    ap.add_argument("--recommended", action="store_true", help="the seven recommended sets")
    ap.add_argument("--minutes", type=float, default=2.0)
    ap.add_argument("--generations", type=int, help="a budget in generations, not minutes")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--judge-seed", type=int, default=987_654_321)
    ap.add_argument("--judge-games", type=int, default=2000)
    ap.add_argument(
        "--quick",
        action="store_true",
        help="a small, fast run: checks the script works (figures not to cite)",
    )
    args = ap.parse_args()
    if args.quick:
        args.kingdoms, args.generations, args.judge_games = 1, 1, 100
    if args.recommended:
        kingdoms = [(name, RECOMMENDED[name]) for name in RECOMMENDED]
    else:
        seeds = args.only or [args.kingdom_seed + k for k in range(args.kingdoms)]
        kingdoms = [(f"random {s}", random_kingdom(s)) for s in seeds]
    minutes = None if args.generations else args.minutes
    budget = f"{args.generations} generations" if args.generations else f"{args.minutes} min"
    print(f"{os.cpu_count()} cores; {budget} per kingdom; 2 players")
    head = (
        f"{'kingdom':<18}{'strongest':<22}{'score':>7}{'wins':>7}{'95% CI':>17}{'ties':>6}"
        f"{'gens':>6}{'games':>10}{'s':>6}"
    )
    print(head)
    print("-" * len(head))
    scores, wins = [], []
    for label, kingdom in kingdoms:
        start = time.perf_counter()
        res = optimize(kingdom, 2, minutes, args.seed, generations=args.generations,
                       judge_games=200)  # fmt: skip
        strongest = strongest_bot_for(kingdom)
        (row,) = judge(res.best, [strongest], kingdom, 2, args.judge_games, args.judge_seed)
        secs = time.perf_counter() - start
        lo, hi = row["win_ci"]
        scores.append((row["wins"] + row["ties"] / 2) / row["games"])
        wins.append(row["win_rate"])
        print(
            f"{label:<18}{strongest.name:<22}{scores[-1]:>7.1%}{row['win_rate']:>7.1%}"
            f"{f'[{lo:.1%}, {hi:.1%}]':>17}{row['ties'] / row['games']:>6.1%}"
            f"{res.generations:>6}{res.games:>10,}{secs:>6.0f}",
            flush=True,
        )
        if args.recommended:
            print("    " + describe(res.best).replace("\n", "\n    "), flush=True)
    for what, x in (("score (wins + ties/2)", np.array(scores)), ("wins", np.array(wins))):
        print(
            f"{what}: mean {x.mean():.1%} over {x.size} kingdoms; lowest {x.min():.1%}; "
            f"{int((x >= 0.5).sum())} of {x.size} at 50% or more"
        )
    print(f"({args.judge_games} games each, judge seed {args.judge_seed})")


if __name__ == "__main__":
    main()
