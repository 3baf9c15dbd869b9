"""Cold compile: seconds to the first game on an empty kernel cache, and where they go.

    python bench/cold_compile.py [--ref REF] [--profile] [--repeats N]

Each figure is a fresh Python process with its own empty ``NUMBA_CACHE_DIR`` (what a user's
first run meets), timed from the process start to its exit, in wall seconds and in CPU seconds
(user + system of the process: compiling is single-threaded, and on a shared machine the CPU
time is the figure other tenants do not inflate):

- ``dominion simulate "Big Money" "Big Money" --games 1 --quiet``: import, the bot tables, one
  whole bot game in compiled code (``play_bots_kernel``);
- VecGame: ``import dominion_env; VecGame(4, 2).reset(); .step(random_actions())`` (the batch
  kernel, random actions);

and, as baselines in the same run, the same two commands again on the now warm cache, and
with ``--ref REF`` (e.g. ``--ref main``) the same cold runs of the package as it is at that
git commit ("before"), checked out in a temporary worktree.
``--profile`` also prints, for the VecGame run, every function Numba compiled with its
exclusive compile time (time spent compiling functions it called is charged to them) and how
many type signatures it was compiled for, from Numba's ``numba:compile`` events.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
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


def timed(cmd, cache, path=None):
    """(wall, CPU) seconds of one run of cmd."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    if path is not None:  # python -c / -m put the working directory first on sys.path
        env["PYTHONPATH"] = path
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        cmd,
        env=env,
        cwd=path or ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


@contextlib.contextmanager
def checkout(ref):
    """The package at git commit ``ref``, importable from the folder yielded (agents/ and
    train/ linked in as dominion_env.agents and dominion_env.train, as pyproject installs
    them)."""
    root = ROOT
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        subprocess.run(
            ["git", "-C", str(root), "worktree", "add", "--detach", str(tree), ref],
            check=True,
            capture_output=True,
        )
        try:
            for name in ("agents", "train"):
                (tree / "dominion_env" / name).symlink_to(tree / name)
            yield str(tree)
        finally:
            subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(tree)])


def measure(label, cmd, repeats, path=None, warm=True):
    cold, again = [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory() as cache:
            cold.append(timed(cmd, cache, path))
            if warm:
                again.append(timed(cmd, cache, path))
    wall, cpu = min(cold)
    line = f"{label:<40} cold {wall:6.1f} s wall {cpu:6.1f} s CPU"
    if warm:
        line += f"   warm (same cache after) {min(again)[0]:5.1f} s wall"
    print(line, flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", help="also time the package at this git commit (before)")
    ap.add_argument("--profile", action="store_true", help="per-function compile times")
    ap.add_argument("--repeats", type=int, default=1, help="cold runs per command (best shown)")
    ap.add_argument(
        "--quick",
        action="store_true",
        help="a small, fast run: checks the script works (figures not to cite)",
    )
    args = ap.parse_args()
    if args.quick:
        args.repeats, args.ref = 1, None
    print(f"cores: {os.cpu_count()}; python {sys.version.split()[0]}")
    commands = (("dominion simulate, 1 game", SIMULATE), ("VecGame reset + step", VECGAME))
    if args.quick:
        commands = commands[:1]
    if args.ref:
        with checkout(args.ref) as tree:
            for label, cmd in commands:
                measure(f"{label} (at {args.ref})", cmd, args.repeats, tree, warm=False)
    for label, cmd in commands:
        measure(f"{label} (this tree)", cmd, args.repeats)
    if args.profile:
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            subprocess.run([sys.executable, "-c", PROFILE], env=env, check=True)


if __name__ == "__main__":
    main()
