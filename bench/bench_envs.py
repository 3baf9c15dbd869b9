"""Env adapter speed: our batched VecEnvs beside N Python envs, measured in the same run.

    python bench/bench_envs.py [--quick] [--opponent "Big Money"] [--players 2] [--threads T]

Learner steps per second (one learner decision in one game = one step; the opponents' moves
happen inside it), a learner picking uniformly random legal actions from the masks, with the
masks fetched the way sb3-contrib's MaskablePPO fetches them (``get_action_masks``):

1. SB3: ``DominionVecEnv(N)`` (one VecGame, bots inside the compiled step) beside
   ``DummyVecEnv([DominionEnv] * N)`` (N single Gym envs, each one game; its bots also play
   inside the engine, one compiled call per env and step).
2. Gymnasium: ``make_vec(..., vectorization_mode="vector_entry_point")`` beside
   ``vectorization_mode="sync"`` (SyncVectorEnv of N single envs).

Ours is timed on one Numba thread and on T threads (default: all); the single envs always
step their one game on one thread (VecGame runs batches below ``PARALLEL_MIN_GAMES``
serially). The ratio is ours on one thread over the N-env baseline: the same cores. On a
machine shared with other work, Numba's thread pool can stall for milliseconds per call on
small batches: compare the two columns.
No policy network runs: this is the environment's share of a training step.
"""

from __future__ import annotations

import argparse
import time

import numpy as np


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of a (N, A) bool mask."""
    return np.argmax(masks * rng.random(masks.shape), axis=1)


def steps_per_second(reset, step, masks, n, min_time) -> float:
    rng = np.random.default_rng(0)
    reset()
    for _ in range(3):  # warm up
        step(random_legal(masks(), rng))
    k, start = 0, time.perf_counter()
    while True:
        step(random_legal(masks(), rng))
        k += 1
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return k * n / elapsed


def _threads(n_threads, fn, *args):
    import numba

    prev = numba.get_num_threads()
    numba.set_num_threads(n_threads)
    try:
        return fn(*args)
    finally:
        numba.set_num_threads(prev)


def _sb3_ours(n, min_time, kw):
    from sb3_contrib.common.maskable.utils import get_action_masks

    from dominion_env.envs.sb3_vec_env import DominionVecEnv

    ours = DominionVecEnv(n, seed=0, **kw)
    return steps_per_second(ours.reset, ours.step, lambda: get_action_masks(ours), n, min_time)


def _sb3_dummy(n, min_time, kw):
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.vec_env import DummyVecEnv

    from dominion_env.envs.gym_env import DominionEnv

    dummy = DummyVecEnv([lambda: DominionEnv(**kw, illegal_action="raise")] * n)
    dummy.seed(0)
    return steps_per_second(dummy.reset, dummy.step, lambda: get_action_masks(dummy), n, min_time)


def _gym_ours(n, min_time, kw):
    import gymnasium

    import dominion_env.envs  # noqa: F401 (registers Dominion-v2)

    ours = gymnasium.make_vec(
        "Dominion-v2", num_envs=n, vectorization_mode="vector_entry_point", **kw
    )
    return steps_per_second(
        lambda: ours.reset(seed=0), ours.step, ours.unwrapped.action_masks, n, min_time
    )


def _gym_sync(n, min_time, kw):
    import gymnasium

    import dominion_env.envs  # noqa: F401 (registers Dominion-v2)

    sync = gymnasium.make_vec(
        "Dominion-v2", num_envs=n, vectorization_mode="sync", illegal_action="raise", **kw
    )
    last = {}

    def sync_reset():
        last["info"] = sync.reset(seed=0)[1]

    def sync_step(a):
        last["info"] = sync.step(a)[4]

    return steps_per_second(sync_reset, sync_step, lambda: last["info"]["action_mask"], n, min_time)


def bench(title, baseline_name, ours_fn, base_fn, batches, min_time, kw, threads):
    print(f"\n{title}, learner steps/s ({kw})")
    print(
        f"{'N':>6} {'ours, 1 thread':>15} {f'ours, {threads} threads':>17} "
        f"{baseline_name:>20} {'ratio':>7}"
    )
    for n in batches:
        one = _threads(1, ours_fn, n, min_time, kw)
        many = _threads(threads, ours_fn, n, min_time, kw) if threads > 1 else one
        base = base_fn(n, min_time, kw)
        print(f"{n:>6} {one:>15,.0f} {many:>17,.0f} {base:>20,.0f} {one / base:>6.1f}x")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="one batch size, short timings")
    ap.add_argument("--opponent", default="Big Money")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--kingdom", default="random")
    ap.add_argument(
        "--threads",
        type=int,
        default=None,
        help="the second thread count ours is timed with (default: all cores)",
    )
    args = ap.parse_args(argv)
    batches = [64] if args.quick else [16, 64, 256]
    min_time = 0.5 if args.quick else 2.0
    kw = {"players": args.players, "opponents": args.opponent, "kingdom": args.kingdom}
    import numba

    threads = args.threads or numba.config.NUMBA_NUM_THREADS
    print(
        f"Numba threads: 1 and {threads} (of {numba.config.NUMBA_NUM_THREADS}), threading "
        f"layer {numba.config.THREADING_LAYER!r}"
    )
    bench("SB3 VecEnv", "DummyVecEnv of N", _sb3_ours, _sb3_dummy, batches, min_time, kw, threads)
    bench(
        "Gymnasium VectorEnv",
        "SyncVectorEnv of N",
        _gym_ours,
        _gym_sync,
        batches,
        min_time,
        kw,
        threads,
    )


if __name__ == "__main__":
    main()
