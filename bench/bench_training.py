"""Training speed: the whole loop's learner steps/s beside its parts, measured in one run.

    python bench/bench_training.py                 # defaults: TrainConfig's (512 games, 128x128)
    python bench/bench_training.py --sb3           # also sb3-contrib's MaskablePPO loop
    python bench/bench_training.py --network NAME  # another network (TrainConfig.network)

Figures (learner steps per second; a learner step is one decision of the learner):

    env only        VecGame in learner mode (bots inside the step), scaled observations, random
                    legal actions: the engine's share
    inference       the policy's batched masked sampling on those observations (``act``, dense)
    update ceiling  (the MLP) the update's work that no input trick removes: forward and
                    backward of the layers above the first on ``minibatch`` rows, ``epochs``
                    times per learner step, on the update's threads: no update runs faster
    rollout         ppo.Trainer.collect: env + inference, as the trainer collects a rollout
    update          ppo.Trainer.update alone on that rollout (``epochs`` passes of PPO)
    whole loop      ppo.Trainer.learn: rollout + PPO update, the figure that counts
    MaskablePPO     sb3-contrib's loop on DominionVecEnv, same network sizes (with --sb3)

rollout, update and whole loop are measured for four set-ups of the same Trainer, the baseline
first, so that what each change buys is read off one run on one (shared, noisy) box:

    dense, 1 thread     the loop before sparse inputs: a dense first layer, torch on one thread
    dense, N threads    the update (and imitation epochs) on the env's N threads
    sparse, 1 thread    the first layer on the observation's non-zero entries (``sparse``)
    sparse, N threads   both: the trainer's default on a CPU

Torch runs ``torch_threads`` (1) in the rollout beside Numba's pool, N in the update. The
time to reach a win rate is measured by ``bench/train_seeds.py`` (it reads each run's
progress.csv).
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numba  # noqa: E402
import numpy as np  # noqa: E402
import torch  # noqa: E402

from dominion_env import VecGame  # noqa: E402
from dominion_env.agents import compile_bots  # noqa: E402
from dominion_env.train.policy import NETWORKS, PolicyNet  # noqa: E402
from dominion_env.train.ppo import Rollout, TrainConfig, Trainer  # noqa: E402


def rate(fn, steps_per_call: int, seconds: float, at_least: int = 1) -> tuple[float, float]:
    """(learner steps per wall second, CPU microseconds per learner step: every thread of the
    process, less swayed than wall time by other work on a shared box)."""
    fn()
    n, t0, c0 = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - t0 < seconds or n < at_least:
        fn()
        n += 1
    steps = n * steps_per_call
    return steps / (time.perf_counter() - t0), 1e6 * (time.process_time() - c0) / steps


def above_first_layer(trainer, cfg, seconds) -> tuple[float, float]:
    """The MLP's layers above the first, forward and backward, as the update runs them."""
    net = trainer.net
    h = torch.randn(cfg.minibatch, net.trunk[0].out_features, requires_grad=True)
    mask = torch.ones(cfg.minibatch, net.pi.out_features, dtype=torch.bool)

    def one_minibatch():
        logits, value = net.heads(net.trunk[1:](h), mask)
        (torch.log_softmax(logits, -1).mean() + value.mean()).backward()

    torch.set_num_threads(trainer.update_threads)
    try:  # a learner step is `epochs` rows of minibatches
        return rate(one_minibatch, cfg.minibatch / cfg.epochs, seconds)
    finally:
        torch.set_num_threads(cfg.torch_threads)


def main(argv=None):
    d = TrainConfig()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--num-envs", type=int, default=d.num_envs)
    ap.add_argument("--hidden", default=",".join(map(str, d.hidden)))
    ap.add_argument("--seconds", type=float, default=5.0, help="per figure")
    ap.add_argument("--sb3", action="store_true", help="also time MaskablePPO's loop")
    ap.add_argument("--network", choices=NETWORKS, default=d.network)
    ap.add_argument(
        "--quick",
        action="store_true",
        help="a small, fast run: checks the script works (figures not to cite)",
    )
    args = ap.parse_args(argv)
    if args.quick:
        args.num_envs, args.seconds = 64, 0.5
    hidden = tuple(int(h) for h in args.hidden.split(","))
    n = args.num_envs
    cfg = TrainConfig(
        num_envs=n,
        hidden=hidden,
        network=args.network,
        bc_steps=0,
        opponents={"Big Money Ultimate": 1},
        out="/tmp/bench_training",
    )
    trainer = Trainer(cfg)
    torch.set_num_threads(cfg.torch_threads)
    vec = VecGame(
        n, 2, opponents=compile_bots("Big Money Ultimate"), scale_observations=True, vp_shaping=0.02
    )
    vec.reset(0)
    env = rate(lambda: vec.step(vec.random_actions()), n, args.seconds)
    obs, mask = vec.observation.copy(), vec.action_mask.copy()
    infer = rate(lambda: trainer.net.act(obs, mask), n, args.seconds)
    figures = {"env only": env, "inference": infer}
    if isinstance(trainer.net, PolicyNet):  # the card-set network has no such split
        figures["update ceiling"] = above_first_layer(trainer, cfg, args.seconds)

    per_update = cfg.rollout * n
    threads = trainer.update_threads
    setups = [
        (f"dense, {cfg.torch_threads} thread", False, cfg.torch_threads),
        (f"dense, {threads} threads", False, threads),
        (f"sparse, {cfg.torch_threads} thread", True, cfg.torch_threads),
        (f"sparse, {threads} threads", True, threads),
    ]
    if not trainer.sparse:  # a network without the sparse path: the thread counts only
        setups = [s for s in setups if not s[1]]
    loops = {}
    for label, use_sparse, update_threads in setups:
        trainer.sparse, trainer.update_threads = use_sparse, update_threads
        state = {"obs": trainer._reset(0)}
        buf = Rollout(cfg.rollout, n, trainer.obs_dim, state["obs"][1].shape[1], use_sparse)

        def collect(buf=buf, state=state):
            state["obs"] = trainer.collect(buf, *state["obs"])

        roll = rate(collect, per_update, args.seconds)
        adv, ret = trainer.advantages(buf, *state["obs"])
        update = rate(lambda b=buf, a=adv, r=ret: trainer.update(b, a, r), per_update, args.seconds)

        def one_update():
            trainer.cfg.steps = trainer.steps + per_update  # one rollout and one update
            trainer.learn()

        whole = rate(one_update, per_update, args.seconds, at_least=3)
        loops[label] = (roll, update, whole)

    print(
        f"{os.cpu_count()} cores, {n} games, network {hidden}"
        + f" ({args.network})"
        + f", torch {cfg.torch_threads} thread in the rollout, Numba {numba.get_num_threads()}"
    )
    print(f"load average {os.getloadavg()[0]:.1f} (other work on the box slows every figure)")
    print(f"{'figure':<16}{'learner steps/s':>18}{'CPU us/step':>14}")
    for name, (v, cpu) in figures.items():
        print(f"{name:<16}{v:>18,.0f}{cpu:>14.1f}")
    head = f"{'rollout':>12}{'update':>12}{'whole loop':>12}"
    print(f"\n{'learner steps/s':<22}{head}")
    for label, ((roll, _), (update, _), (whole, _)) in loops.items():
        print(f"{label:<22}{roll:>12,.0f}{update:>12,.0f}{whole:>12,.0f}")
    print(f"\n{'CPU us/step':<22}{head}   update's share of the CPU")
    for label, ((_, roll), (_, update), (_, whole)) in loops.items():
        share = update / (roll + update)
        print(f"{label:<22}{roll:>12.1f}{update:>12.1f}{whole:>12.1f}   {share:>6.0%}")
    whole = [v[2][0] for v in loops.values()]
    print(
        f"\nwhole loop: {whole[-1]:,.0f} learner steps/s, {whole[-1] / whole[0]:.2f}x the "
        f"baseline's {whole[0]:,.0f}; env only / whole loop = {env[0] / whole[-1]:.1f}"
    )
    if "update ceiling" in figures:  # the rollout as measured, the update at its ceiling
        roll = list(loops.values())[-1][0][0]
        top = 1 / (1 / roll + 1 / figures["update ceiling"][0])
        print(f"the loop's ceiling here (that rollout, the update at its ceiling): {top:,.0f}")
    if args.sb3:
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.vec_env import VecMonitor

        from dominion_env.envs.sb3_vec_env import DominionVecEnv

        venv = VecMonitor(DominionVecEnv(n, opponents="Big Money Ultimate", seed=0))
        model = MaskablePPO(
            "MlpPolicy",
            venv,
            n_steps=32,
            batch_size=cfg.minibatch,
            n_epochs=3,
            policy_kwargs={"net_arch": list(hidden)},
            verbose=0,
        )
        model.learn(per_update)
        t0 = time.perf_counter()
        model.learn(4 * per_update, reset_num_timesteps=False)
        sb3 = 4 * per_update / (time.perf_counter() - t0)
        print(f"{'MaskablePPO':<16}{sb3:>18,.0f}   (whole loop, same sizes; baseline)")
    return np.array([env[0], infer[0], *whole])


if __name__ == "__main__":
    main()
