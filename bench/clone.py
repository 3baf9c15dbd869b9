"""Save, restore and clone speed and size, beside the generic copies they replace, same run.

    python bench/clone.py [--quick]

1. A Game mid-game (plain, and in learner mode against a pool of bots with shaping):
   ``Game.clone`` per second beside ``copy.deepcopy`` of the same attributes (what deepcopy of a
   Game did before clone: every array, the log's 1 MB of room included); ``snapshot`` and
   ``restore`` per second; a snapshot's bytes in memory and pickled, beside a pickle of the
   same attributes.
2. A batch of 1024 games: snapshot and restore per second, bytes per game.
3. A machine reference: copies per second of a 3-float numpy array (the floor of a clone's cost
   is one such copy per array it owns; the box is shared, so compare figures of one run).

Every rate is the best of REPEATS windows: other tenants only ever slow a window down.
"""

from __future__ import annotations

import argparse
import copy
import os
import pickle
import time

import numpy as np

from dominion_env import Game, VecGame
from dominion_env.agents import compile_bots

REPEATS = 3


def rate(fn, seconds: float) -> float:
    """Calls of fn per second, best of REPEATS windows of about ``seconds``."""
    best = 0.0
    for _ in range(REPEATS):
        n, t0 = 0, time.perf_counter()
        while True:
            for _ in range(20):
                fn()
            n += 20
            dt = time.perf_counter() - t0
            if dt >= seconds:
                break
        best = max(best, n / dt)
    return best


def mid_game(steps: int = 120, **options) -> Game:
    g = Game("random", players=2, seed=3, **options)
    rng = np.random.default_rng(0)
    for _ in range(steps):
        if g.done:
            break
        g.step(int(rng.choice(np.flatnonzero(g.action_mask))))
    return g


def game_rows(name: str, g: Game, seconds: float) -> None:
    attrs = vars(g._vec)  # noqa: SLF001 (the baseline copies what deepcopy used to copy)
    snap = g.snapshot()
    clone = rate(g.clone, seconds)
    deep = rate(lambda: copy.deepcopy(attrs), seconds)
    print(f"\n{name}: {len(g.log())} log lines, turn {g.turn['turn_number']}")
    print(f"  Game.clone            {clone:>10,.0f} /s")
    print(f"  deepcopy (baseline)   {deep:>10,.0f} /s   clone is {clone / deep:.1f}x")
    print(f"  Game.snapshot         {rate(g.snapshot, seconds):>10,.0f} /s")
    print(f"  Game.restore          {rate(lambda: g.restore(snap), seconds):>10,.0f} /s")
    log_bytes = snap.arrays["log"].nbytes
    print(f"  snapshot bytes        {snap.nbytes:>10,d}   in memory (log {log_bytes:,d})")
    print(f"  snapshot pickled      {len(pickle.dumps(snap)):>10,d}")
    print(f"  Game pickled          {len(pickle.dumps(g)):>10,d}")
    print(f"  pickle (baseline)     {len(pickle.dumps(attrs)):>10,d}   the same attributes")
    dumps = rate(lambda: pickle.dumps(g), seconds / 2)
    base_dumps = rate(lambda: pickle.dumps(attrs), seconds / 2)
    print(f"  pickle.dumps(Game)    {dumps:>10,.0f} /s   baseline {base_dumps:,.0f} /s")


def batch_rows(seconds: float) -> None:
    n = 1024
    pool = compile_bots(["Big Money", "Smithy", "Random"])
    vec = VecGame(n, players=2, opponents=pool, opponent_weights=[1, 1, 1], vp_shaping=0.05)
    vec.reset(seed=0)
    for _ in range(50):
        vec.step(vec.random_actions())
    snap = vec.snapshot()
    print(f"\nVecGame({n}), learner mode, pool, shaping")
    print(f"  snapshot              {rate(vec.snapshot, seconds):>10,.0f} /s")
    print(f"  restore               {rate(lambda: vec.restore(snap), seconds):>10,.0f} /s")
    print(f"  clone                 {rate(vec.clone, seconds):>10,.0f} /s")
    print(
        f"  bytes per game        {snap.nbytes / n:>10,.0f}   pickled "
        f"{len(pickle.dumps(snap)) / n:,.0f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="short windows (a smoke run)")
    seconds = 0.2 if ap.parse_args().quick else 1.0
    print(f"{os.cpu_count()} cores; best of {REPEATS} windows of {seconds:g} s")
    pool = compile_bots(["Big Money", "Smithy", "Random"])
    game_rows("Game, 2 players", mid_game(), seconds)
    game_rows(
        "Game, learner mode (pool of 3 bots, shaping)",
        mid_game(opponents=pool, opponent_weights=[1, 1, 1], vp_shaping=0.05),
        seconds,
    )
    batch_rows(seconds)
    x = np.zeros(3)
    print(f"\nreference: numpy copy of a 3-float array {rate(x.copy, seconds):,.0f} /s")


if __name__ == "__main__":
    main()
