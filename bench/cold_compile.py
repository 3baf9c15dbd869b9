"""Cold compile: seconds to the first game on an empty kernel cache, and where they go.

    python bench/cold_compile.py [--profile] [--repeats N]

Each figure is a fresh Python process with its own empty ``NUMBA_CACHE_DIR`` (what a user's
first run meets), timed from the process start to its exit:

- ``dominion simulate "Big Money" "Big Money" --games 1 --quiet``: import, the bot tables, one
  whole bot game in compiled code (``play_bots_kernel``);
- VecGame: ``import dominion_env; VecGame(4, 2).reset(); .step(random_actions())`` (the batch
  kernel, random actions);

and, as the baseline in the same run, the same two commands again on the now warm cache.
``--profile`` also prints, for the VecGame run, every function Numba compiled with its
exclusive compile time (time spent compiling functions it called is charged to them) and how
many type signatures it was compiled for, from Numba's ``numba:compile`` events.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

SIMULATE = [
    sys.executable,
    "-m",
    "dominion_env.cli",
    "simulate",
    "Big Money",
    "Big Money",
    "--games",
    "1",
    "--quiet",
]
VECGAME = [
    sys.executable,
    "-c",
    "from dominion_env import VecGame; v = VecGame(4, 2); v.reset(seed=0); "
    "v.step(v.random_actions())",
]

PROFILE = r"""
import collections, sys, time
from numba.core import event

stack, spent, sigs = [], collections.Counter(), collections.Counter()

class Listener(event.Listener):
    def on_start(self, ev):
        stack.append([ev.data["dispatcher"].py_func.__qualname__, time.perf_counter(), 0.0])

    def on_end(self, ev):
        name, t0, inner = stack.pop()
        total = time.perf_counter() - t0
        spent[name] += total - inner
        sigs[name] += 1
        if stack:
            stack[-1][2] += total

event.register("numba:compile", Listener())
t = time.perf_counter()
from dominion_env import VecGame
v = VecGame(4, 2)
v.reset(seed=0)
v.step(v.random_actions())
total = time.perf_counter() - t
print(f"{'function (exclusive compile time)':<44}{'s':>7}{'signatures':>12}")
for name, s in spent.most_common():
    print(f"{name:<44}{s:>7.2f}{sigs[name]:>12}")
print(f"{'all compiles':<44}{sum(spent.values()):>7.2f}{sum(sigs.values()):>12}")
print(f"{'whole run (import, reset, step)':<44}{total:>7.2f}")
"""


def timed(cmd, cache):
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    start = time.perf_counter()
    subprocess.run(cmd, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--profile", action="store_true", help="per-function compile times")
    ap.add_argument("--repeats", type=int, default=1, help="cold runs per command (best shown)")
    args = ap.parse_args()
    print(f"cores: {os.cpu_count()}; python {sys.version.split()[0]}")
    for label, cmd in (("dominion simulate, 1 game", SIMULATE), ("VecGame reset + step", VECGAME)):
        cold, warm = [], []
        for _ in range(args.repeats):
            with tempfile.TemporaryDirectory() as cache:
                cold.append(timed(cmd, cache))
                warm.append(timed(cmd, cache))
        print(f"{label:<28} cold {min(cold):6.1f} s   warm (same cache after) {min(warm):5.1f} s")
    if args.profile:
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            subprocess.run([sys.executable, "-c", PROFILE], env=env, check=True)


if __name__ == "__main__":
    main()
