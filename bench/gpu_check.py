"""The GPU check: the training loop's speed per set-up on a CUDA machine, beside the CPU loop in
the same run, then the five-minute main job's win rates. About 8 minutes on one GPU.

    python bench/gpu_check.py                        # on a machine with CUDA
    python bench/gpu_check.py --json out.json        # also the figures as JSON
    python bench/gpu_check.py --cpu --seconds 1 --minutes 0.2 --eval-games 20   # no GPU: the
                                                     # same code path on the CPU, small (tests)

Set-ups (``ppo.Trainer``, each against Big Money Ultimate, no imitation; learner steps/s):

    cpu, 512 games          the CPU loop (the defaults on a CPU), the baseline of the run
    cuda, 512 games         the network on the GPU, the CPU's sizes
    cuda, 4096 games        the sizes ``--device auto`` takes on a GPU (``train/device.py``)
    cards, cuda, 4096       the card-set network there

Each prints ``rollout`` (games + the forward pass that picks each action), ``update`` (PPO's
epochs on that rollout) and ``whole loop`` (``Trainer.learn``: both, as training runs them),
plus the engine alone at the largest size. Then the main job as ``dominion train --minutes 5``
runs it on this machine (device auto, the sizes it picks), and its agent against Big Money,
Big Money Ultimate and the strongest bot per random kingdom on unseen games.

Without CUDA it stops with status 2 before any work, unless ``--cpu`` asks for the CPU path
(every set-up at 64 games; the main job two rollouts, a budget of steps, not ``--minutes``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import replace

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numba  # noqa: E402
import torch  # noqa: E402
from bench_training import rate  # noqa: E402

from dominion_env import VecGame  # noqa: E402
from dominion_env.agents import compile_bots  # noqa: E402
from dominion_env.commands.train import DEFAULT_EVAL  # noqa: E402
from dominion_env.train.device import describe, sizes_for  # noqa: E402
from dominion_env.train.evaluate import evaluate, format_table  # noqa: E402
from dominion_env.train.policy import load_agent  # noqa: E402
from dominion_env.train.ppo import Rollout, TrainConfig, Trainer, train  # noqa: E402

# (label, device, network, games): the first is the run's baseline
SETUPS = (
    ("cpu, 512 games", "cpu", "mlp", 512),
    ("cuda, 512 games", "cuda", "mlp", 512),
    ("cuda, 4096 games", "cuda", "mlp", 4096),
    ("cards, cuda, 4096", "cuda", "cards", 4096),
)
SMALL_GAMES = 64  # --cpu: every set-up at this size, so the check runs in seconds


def say(text: str = "") -> None:
    print(text, flush=True)


def loop_rates(cfg: TrainConfig, seconds: float) -> dict:
    """(rollout, update, whole loop) learner steps/s of a fresh Trainer for ``cfg``."""
    trainer = Trainer(cfg)
    per_update = cfg.rollout * cfg.num_envs
    state = {"obs": trainer._reset(0)}
    buf = Rollout(
        cfg.rollout, cfg.num_envs, trainer.obs_dim, state["obs"][1].shape[1], trainer.sparse
    )

    def collect():
        state["obs"] = trainer.collect(buf, *state["obs"])

    roll = rate(collect, per_update, seconds)[0]
    adv, ret = trainer.advantages(buf, *state["obs"])
    update = rate(lambda: trainer.update(buf, adv, ret), per_update, seconds)[0]

    def one_update():
        trainer.cfg.steps = trainer.steps + per_update  # one rollout and one update
        trainer.learn()

    whole = rate(one_update, per_update, seconds, at_least=2)[0]
    if trainer.device.type == "cuda":
        torch.cuda.synchronize()
    return {"rollout": roll, "update": update, "whole loop": whole}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cpu", action="store_true", help="no GPU: the same path on the CPU, small")
    ap.add_argument("--seconds", type=float, default=4.0, help="per figure (default 4)")
    ap.add_argument("--minutes", type=float, default=5.0, help="the main job's (default 5)")
    ap.add_argument("--eval-games", type=int, default=1000, help="per opponent (default 1000)")
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    ap.add_argument(
        "--quick",
        action="store_true",
        help="a small, fast run: checks the script works (figures not to cite)",
    )
    args = ap.parse_args(argv)
    if args.quick:
        args.cpu, args.seconds, args.minutes, args.eval_games = True, 0.5, 0.05, 50
    if not args.cpu and not torch.cuda.is_available():
        print(
            f"gpu_check: no CUDA device here (torch {torch.__version__}, built with CUDA: "
            f"{torch.version.cuda is not None}); this check measures the loop on a GPU. "
            "--cpu runs the same code path on the CPU at small sizes",
            file=sys.stderr,
        )
        return 2
    t_start = time.perf_counter()
    gpu = "cpu" if args.cpu else "cuda"
    say(
        f"machine: {describe(gpu)}, {os.cpu_count()} cores, Numba {numba.get_num_threads()} "
        f"threads, torch {torch.__version__}, numba {numba.__version__}"
    )
    result = {"machine": describe(gpu), "cores": os.cpu_count(), "loop": {}}
    out = tempfile.mkdtemp(prefix="gpu_check_")
    base = TrainConfig(
        bc_steps=0, opponents={"Big Money Ultimate": 1}, out=out + "/loop", steps=None
    )

    t0 = time.perf_counter()
    vec = VecGame(8, 2, opponents=compile_bots("Big Money Ultimate"), scale_observations=True)
    vec.reset(0)
    vec.step(vec.random_actions())
    say(f"compile (or load) the engine's kernels: {time.perf_counter() - t0:.0f} s")

    games = SMALL_GAMES if args.cpu else max(n for *_, n in SETUPS)
    vec = VecGame(
        games,
        2,
        opponents=compile_bots("Big Money Ultimate"),
        scale_observations=True,
        vp_shaping=base.vp_shaping,
    )
    vec.reset(0)
    env = rate(lambda: vec.step(vec.random_actions()), games, args.seconds)[0]
    result["env only"] = env
    say(f"env only, {games} games: {env:,.0f} learner steps/s (random legal actions)")

    say(f"\n{'learner steps/s':<22}{'rollout':>12}{'update':>12}{'whole loop':>12}")
    for label, device, network, n in SETUPS:
        device = "cpu" if args.cpu else device
        n = SMALL_GAMES if args.cpu else n
        cfg = replace(base, device=device, network=network, num_envs=n)
        figures = loop_rates(cfg, args.seconds)
        result["loop"][label] = figures
        say(f"{label:<22}" + "".join(f"{v:>12,.0f}" for v in figures.values()))
    whole = [f["whole loop"] for f in result["loop"].values()]
    say(
        "whole loop against the CPU baseline: "
        + ", ".join(f"{w / whole[0]:.2f}x" for w in whole[1:])
    )

    # the main job, as `dominion train --minutes M` runs it here
    sizes = sizes_for("auto", ())
    cfg = TrainConfig(minutes=args.minutes, out=out + "/main", **sizes)
    budget = f"{args.minutes:g} minutes"
    if args.cpu:  # two rollouts, by steps: on a loaded machine a time budget may end first
        steps = 2 * SMALL_GAMES * cfg.rollout
        cfg = replace(
            cfg, device="cpu", num_envs=SMALL_GAMES, bc_steps=2048, minutes=None, steps=steps
        )
        budget = f"{steps:,} learner steps"
    say(
        f"\nthe main job: {budget}, device {describe(cfg.device)}, "
        f"{cfg.num_envs} games, minibatch {cfg.minibatch}"
    )
    t0 = time.perf_counter()
    trainer = train(cfg)
    trained = time.perf_counter() - t0
    say(
        f"{trainer.steps:,} learner steps in {trainer.seconds / 60:.1f} min of training "
        f"({trainer.steps / max(trainer.seconds, 1e-9):,.0f}/s; {trained:.0f} s wall)"
    )
    rows = evaluate(
        load_agent(out + "/main/agent.safetensors").to(cfg.device if args.cpu else "cuda"),
        list(DEFAULT_EVAL),
        games=args.eval_games,
    )
    say(format_table(rows))
    result["main job"] = {
        "minutes": None if args.cpu else args.minutes,
        "steps": trainer.steps,
        "num_envs": cfg.num_envs,
        "minibatch": cfg.minibatch,
        "win rates": {r["opponent"]: r["win_rate"] for r in rows},
    }
    say(f"\nthe whole check: {time.perf_counter() - t_start:.0f} s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
