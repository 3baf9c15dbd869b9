"""``dominion tournament --all``'s time beside a Big Money mirror, measured in one run.

    python bench/bench_tournament.py             # 1,000 games a table (a tenth of the command's)
    python bench/bench_tournament.py --games 200     # a quicker look

Printed, each the best of ``--windows`` runs (a shared box only ever slows a run down):

    Big Money mirror      400,000 games of one table (``arena.play_games``): the engine's pace
                          on its simplest games, the yardstick
    all tables, batched   every table of the library's 36 bots (630 at 2 players) as one mixed
                          batch: ``run_tournament``, as the command plays it
    all tables, one by    the same tables, one ``play_games`` per table, as the tournament
    one (before)          played them before mixed batches

The two tournament runs must agree exactly (the same games, checked here), so the difference is
the batching alone.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from dominion_env.agents import BOTS, compile_bots
from dominion_env.analysis.arena import play_games
from dominion_env.analysis.planning import plan_tournament
from dominion_env.analysis.tournament import resolve_bots, run_tournament


def per_table(bots, games, seed):
    """The tables' games, one play_games per table (the old way); wins per table."""
    bots = resolve_bots(bots)
    table = compile_bots(bots)
    plan = plan_tournament(bots, 2, games, None, seed, 10**9)
    local = plan.cycle[np.arange(plan.games_per_table) % len(plan.cycle)]
    wins = np.zeros((len(bots), len(bots)), np.int64)
    for ids, rec in plan.to_play:
        res = play_games(
            table,
            plan.games_per_table,
            2,
            rec.kingdom,
            seed=rec.seed,
            seat_bot=ids[local],
        )
        by_bot = np.take_along_axis(res.reward, np.argsort(local, axis=1), axis=1)
        wins[np.ix_(ids, ids)] += (by_bot[:, :, None] > by_bot[:, None, :]).sum(axis=0)
    return wins


def best(fn, windows):
    times, out = [], None
    for _ in range(windows):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="games per table")
    ap.add_argument("--windows", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--quick",
        action="store_true",
        help="a small, fast run: checks the script works (figures not to cite)",
    )
    args = ap.parse_args(argv)
    if args.quick:
        args.games, args.windows = 50, 1
    bots = list(BOTS)
    bm = compile_bots("Big Money")
    play_games(bm, 1000, 2, "First Game")  # compile before any clock runs
    mirror, _ = best(lambda: play_games(bm, 400_000, 2, "First Game", seed=1), args.windows)
    batched, res = best(lambda: run_tournament(bots, args.games, seed=args.seed), args.windows)
    before, wins = best(lambda: per_table(bots, args.games, args.seed), args.windows)
    if not np.array_equal(res.wins, wins):
        raise SystemExit("the batched tournament and the table-by-table one disagree")
    tables = len(res.tables)
    print(f"{tables} tables x {res.games_per_table:,} games, best of {args.windows} runs")
    print(f"  Big Money mirror, 400,000 games    {mirror:7.1f} s")
    print(f"  all tables, one mixed batch        {batched:7.1f} s")
    print(f"  all tables, one by one (before)    {before:7.1f} s")
    print(f"  batched / before                   {batched / before:7.2f}x (same results)")


if __name__ == "__main__":
    main()
