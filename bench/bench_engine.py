"""Engine speed, each figure beside a baseline measured in the same run.

    python bench/bench_engine.py [--quick]

1. Random play through VecGame (observation + mask written every decision, actions checked)
   at batch 1, 64, 1024, 4096, beside a write-only baseline: a prange kernel that only writes an
   observation and a mask of the same sizes per game, called the same way from Python.
2. Big Money mirror games per second, whole games in compiled code, beside Random-vs-Random.
3. Cold compile time (fresh cache dir, in a subprocess) and warm import + first reset time.

Every throughput is measured in REPEATS windows and printed as the best one, with the median in
the bot table: the machine is shared, and other tenants only ever slow a window down.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np

from dominion_env import VecGame
from dominion_env.agents import compile_bots, get_bot
from dominion_env.analysis.arena import play_games
from dominion_env.engine.jit import kernel, prange


@kernel
def write_only_kernel(obs, mask, value):
    """The baseline: write every observation float and mask entry of every game."""
    for g in prange(obs.shape[0]):
        for i in range(obs.shape[1]):
            obs[g, i] = value
        for a in range(mask.shape[1]):
            mask[g, a] = ((a + g) & 1) == 0


REPEATS = 3


def timed(fn, min_time):
    """Calls fn repeatedly for at least min_time seconds, REPEATS times; returns the best
    calls per second."""
    fn()
    best = 0.0
    for _ in range(REPEATS):
        n, start = 0, time.perf_counter()
        while True:
            fn()
            n += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_time:
                break
        best = max(best, n / elapsed)
    return best


def bench_random_play(batches, min_time, kingdom):
    print(
        f"\nrandom play, 2 players, kingdom {kingdom!r}, observation + mask every decision"
        f" (best of {REPEATS})"
    )
    print(f"{'batch':>6} {'decisions/s':>14} {'write-only baseline/s':>22} {'ratio':>7}")
    for n in batches:
        vec = VecGame(n, players=2, kingdom=kingdom)
        vec.reset(seed=1)
        play = timed(lambda vec=vec: vec.step(vec.random_actions()), min_time) * n
        obs, mask = vec.observation.copy(), vec.action_mask.copy()
        base = timed(lambda obs=obs, mask=mask: write_only_kernel(obs, mask, 1.0), min_time) * n
        print(f"{n:>6} {play:>14,.0f} {base:>22,.0f} {play / base:>7.2f}")


def bench_bot_games(n_games):
    print(f"\nwhole bot games in compiled code, 2 players (best and median of {REPEATS} runs)")
    for names in (("Big Money", "Big Money"), ("Random", "Random")):
        table = compile_bots([get_bot(b) for b in names])
        play_games(table, 64, 2, seed=0)  # compile outside the timing
        rates = []
        for k in range(REPEATS):
            start = time.perf_counter()
            res = play_games(table, n_games, 2, seed=1 + k)
            rates.append(n_games / (time.perf_counter() - start))
        print(
            f"  {' vs '.join(names):<24} {max(rates):>10,.0f} games/s "
            f"(median {np.median(rates):,.0f})   "
            f"({res.turns.mean() / 2:.1f} turns per player on average)"
        )


def bench_compile():
    code = (
        "import time; t=time.perf_counter(); import dominion_env; "
        "from dominion_env import VecGame; v=VecGame(4, 2); v.reset(); "
        "v.step(v.random_actions()); "
        "from dominion_env.agents import compile_bots, get_bot; "
        "from dominion_env.analysis.arena import play_games; "
        "play_games(compile_bots([get_bot('Big Money')]), 4, 2); "
        "print(time.perf_counter()-t)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = float(subprocess.check_output([sys.executable, "-c", code], env=env))
        warm = float(subprocess.check_output([sys.executable, "-c", code], env=env))
    print(f"\ncold compile (import, reset, step, bot game; empty cache): {cold:6.1f} s")
    print(f"warm import + reset + step + bot game (cache on disk):     {warm:6.1f} s")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="shorter timings")
    ap.add_argument("--no-compile", action="store_true", help="skip the compile-time runs")
    ap.add_argument(
        "--kingdom",
        default="random",
        help="'random' (each game its own, from all cards), a set name, or 10 "
        "comma-separated names (the foundation's workload: the 10 vanilla cards)",
    )
    args = ap.parse_args()
    print(
        f"cores: {os.cpu_count()}, numba threads: {numba.get_num_threads()}, "
        f"numba {numba.__version__}, numpy {np.__version__}"
    )
    min_time = 0.5 if args.quick else 2.0
    kingdom = args.kingdom if "," not in args.kingdom else args.kingdom.split(",")
    bench_random_play((1, 64, 1024, 4096), min_time, kingdom)
    bench_bot_games(50_000 if args.quick else 200_000)
    if not args.no_compile:
        bench_compile()


if __name__ == "__main__":
    main()
