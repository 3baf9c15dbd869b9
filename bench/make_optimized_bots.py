"""Makes ``agents/optimized.toml``: the optimizer's per-kingdom bots that the training pool
plays as the opponent ``"optimized"``.

    nice -n 10 python bench/make_optimized_bots.py --generations 60    # what shipped (18-145 s
                                                                       # a kingdom, box shared)
    python bench/make_optimized_bots.py --minutes 1 --out /tmp/x.toml  # a time budget instead

For each kingdom (the seven recommended sets, then ``--random`` kingdoms
``random_kingdom(kingdom_seed + k)``), ``optimize`` searches on ``--seed`` for ``--minutes``
(or ``--generations``), then the found bot plays the kingdom's strongest library bot
(``strongest_bot_for``) ``--judge-games`` games on ``--judge-seed``, a seed the search never
drew from. A bot is kept only where its score (wins + ties / 2) is above 50% by more than
1.96 standard errors: it beats that kingdom's strongest library bot. The figure is written in
a comment above the bot, with the generations the search ran: ``optimize(kingdom, 2, None,
seed, generations=N)`` gives that very bot again on any machine (with ``--generations`` the
script runs exactly that).

The file's order is the pool's preference (``train.seats.KingdomExperts``: a game's other
seats play the first bot of the file whose cards are all in its kingdom): bots that name more
kingdom cards come first (each was tuned on a kingdom holding all of them, so it fits a
kingdom that holds them more closely than a bot naming fewer), then by judged score.
"""

import argparse
import math
import os
import tempfile
import time
from pathlib import Path

from dominion_env.agents import load_bots, strongest_bot_for
from dominion_env.analysis.optimize import judge, optimize
from dominion_env.engine.kingdoms import RECOMMENDED, random_kingdom

OUT = Path(__file__).resolve().parent.parent / "agents" / "optimized.toml"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--random", type=int, default=13, help="random kingdoms after the 7 sets")
    ap.add_argument("--kingdom-seed", type=int, default=3100)
    ap.add_argument("--minutes", type=float, default=0.6)
    ap.add_argument("--generations", type=int, help="a budget in generations, not minutes")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--judge-seed", type=int, default=987_654_321)
    ap.add_argument("--judge-games", type=int, default=2000)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument(
        "--quick",
        action="store_true",
        help="a small, fast run: checks the script works (figures not to cite)",
    )
    args = ap.parse_args()
    if args.quick:
        args.random, args.generations, args.judge_games = 0, 1, 100
        if args.out == OUT:  # never the shipped file
            args.out = Path(tempfile.mkdtemp()) / "optimized.toml"
    kingdoms = [(name, RECOMMENDED[name]) for name in RECOMMENDED]
    kingdoms += [
        (f"random {s}", random_kingdom(s))
        for s in range(args.kingdom_seed, args.kingdom_seed + args.random)
    ]
    minutes = None if args.generations else args.minutes
    print(f"{os.cpu_count()} cores; {args.generations or args.minutes} "
          f"{'generations' if args.generations else 'min'} per kingdom", flush=True)  # fmt: skip
    kept = []
    for label, kingdom in kingdoms:
        start = time.perf_counter()
        res = optimize(
            kingdom, 2, minutes, args.seed, generations=args.generations, judge_games=200,
            name=f"Optimized {label}",
        )  # fmt: skip
        strongest = strongest_bot_for(kingdom)
        (row,) = judge(res.best, [strongest], kingdom, 2, args.judge_games, args.judge_seed)
        n = row["games"]
        score = (row["wins"] + row["ties"] / 2) / n
        se = math.sqrt(score * (1 - score) / n)
        keep = score - 1.96 * se > 0.5
        print(
            f"{label:<14} vs {strongest.name:<20} score {score:6.1%} +- {1.96 * se:.1%} "
            f"(wins {row['win_rate']:.1%}, ties {row['ties']}) {res.generations} gens "
            f"{time.perf_counter() - start:4.0f}s {'kept' if keep else 'dropped'}",
            flush=True,
        )
        if keep:
            note = (
                f"# {label}: {', '.join(kingdom)}\n"
                f"# against {strongest.name} (its strongest library bot): {score:.1%} "
                f"(wins + ties/2; wins {row['win_rate']:.1%}) over {n} games, judge seed "
                f"{args.judge_seed}; search seed {args.seed}, {res.generations} generations\n"
            )
            kept.append((len(res.best.kingdom_cards()), score, note + res.best.to_toml()))
    kept.sort(key=lambda k: (-k[0], -k[1]))
    head = (
        "# The optimizer's per-kingdom bots, each beating its kingdom's strongest library bot:\n"
        '# the training pool\'s opponent "optimized" (train.seats.KingdomExperts plays, on each\n'
        "# game's kingdom, the first bot here whose cards are all in it; else the strongest\n"
        "# library bot). Made by bench/make_optimized_bots.py "
        f"({args.generations or args.minutes} {'generations' if args.generations else 'min'}"
        " per kingdom); the order is the preference.\n\n"
    )
    args.out.write_text(head + "\n".join(k[2] for k in kept))
    load_bots(args.out)  # the file reads back
    print(f"{len(kept)} of {len(kingdoms)} bots kept -> {args.out}")


if __name__ == "__main__":
    main()
