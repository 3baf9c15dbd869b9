"""Tournament tables as Ray tasks: 1 worker against 2 (and the local run), from the same run.

    python bench/ray_scaling.py [--bots N] [--games G] [--workers 1,2]

A round robin of the first N library bots (N(N-1)/2 tables of G games, each table on a kingdom
holding its bots' cards) played three ways, each timed after a warm-up that loads the kernels:

- here: this process, the tables one after another, each table's games on all of Numba's
  threads (``executor.local_map``);
- on a local Ray cluster of W CPUs for each W in ``--workers``: W tasks at once, a table each,
  one Numba thread per task (``executor.RayMap``).

Every run must give the same win-rate matrix (checked). Needs the ray extra.
"""

from __future__ import annotations

import argparse
import os
import time

import numba
import numpy as np
import ray

from dominion_env.agents import BOTS
from dominion_env.analysis.executor import RayMap, local_map
from dominion_env.analysis.tournament import run_tournament


def timed(bots, games, executor):
    start = time.perf_counter()
    res = run_tournament(bots, games=games, seed=0, map=executor)
    return time.perf_counter() - start, res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bots", type=int, default=8, help="the first N library bots")
    ap.add_argument("--games", type=int, default=4000, help="games per table")
    ap.add_argument("--workers", default="1,2", help="Ray cluster sizes (CPUs) to time")
    ap.add_argument(
        "--quick",
        action="store_true",
        help="a small, fast run: checks the script works (figures not to cite)",
    )
    args = ap.parse_args()
    if args.quick:
        args.bots, args.games, args.workers = 3, 50, "1"
    bots = list(BOTS)[: args.bots]
    tables = args.bots * (args.bots - 1) // 2
    total = tables * args.games
    print(
        f"cores: {os.cpu_count()}, numba threads here: {numba.get_num_threads()}, ray "
        f"{ray.__version__}; {len(bots)} bots, {tables} tables x {args.games} games"
    )
    timed(bots[:2], 8, local_map)  # load (or compile) the kernels outside the timing
    base_time, base = timed(bots, args.games, local_map)
    rows = [("here (local_map)", base_time)]
    for w in (int(x) for x in args.workers.split(",")):
        executor = RayMap(num_cpus=w, include_dashboard=False, log_to_driver=False)
        list(executor(len, [[0]] * (4 * w)))  # start the workers
        timed(bots[: w + 2], 8, executor)  # every worker loads the kernels
        elapsed, res = timed(bots, args.games, executor)
        ray.shutdown()
        assert np.array_equal(res.wins, base.wins) and np.array_equal(res.ties, base.ties)
        rows.append((f"Ray, {w} worker{'s' if w > 1 else ''}", elapsed))
    print(f"{'where':<20}{'seconds':>9}{'games/s':>12}{'vs 1 worker':>13}")
    one = dict(rows).get("Ray, 1 worker")
    for name, t in rows:
        ratio = f"{one / t:12.2f}x" if one else ""
        print(f"{name:<20}{t:>9.1f}{total / t:>12,.0f}{ratio}")
    print("same win-rate matrix in every run: yes")


if __name__ == "__main__":
    main()
