"""Training speed: the whole loop's learner steps/s beside its parts, measured in one run.

    python bench/bench_training.py                 # defaults: 512 games, 128x128 network
    python bench/bench_training.py --sb3           # also sb3-contrib's MaskablePPO loop
    python bench/bench_training.py --network cards # the card-set network (policy.CardSetNet)

Figures (learner steps per second; a learner step is one decision of the learner):

    env only        VecGame in learner mode (bots inside the step), scaled observations, random
                    legal actions: the engine's share
    inference       the policy's batched masked sampling on those observations: torch's share
    rollout         env + inference, as the trainer collects a rollout
    whole loop      ppo.Trainer.learn: rollout + PPO update (3 epochs), the figure that counts
    MaskablePPO     sb3-contrib's loop on DominionVecEnv, same network sizes (with --sb3)

Torch runs one thread (the trainer's default) and Numba all cores. The time to reach a win
rate is measured by ``bench/train_seeds.py`` (it reads each run's progress.csv).
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402
import torch  # noqa: E402

from dominion_env import VecGame  # noqa: E402
from dominion_env.agents import compile_bots  # noqa: E402
from dominion_env.train.policy import NETWORKS, make_net  # noqa: E402
from dominion_env.train.ppo import TrainConfig, Trainer  # noqa: E402


def rate(fn, steps_per_call: int, seconds: float) -> float:
    fn()
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        fn()
        n += 1
    return n * steps_per_call / (time.perf_counter() - t0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--num-envs", type=int, default=512)
    ap.add_argument("--hidden", default="128,128")
    ap.add_argument("--network", choices=NETWORKS, default="mlp")
    ap.add_argument("--seconds", type=float, default=5.0, help="per figure")
    ap.add_argument("--sb3", action="store_true", help="also time MaskablePPO's loop")
    args = ap.parse_args(argv)
    torch.set_num_threads(1)
    hidden = tuple(int(h) for h in args.hidden.split(","))
    n = args.num_envs
    vec = VecGame(
        n, 2, opponents=compile_bots("Big Money Ultimate"), scale_observations=True, vp_shaping=0.02
    )
    vec.reset(0)
    net = make_net(2, args.network, hidden)
    env = rate(lambda: vec.step(vec.random_actions()), n, args.seconds)
    obs, mask = vec.observation.copy(), vec.action_mask.copy()
    infer = rate(lambda: net.act(obs, mask), n, args.seconds)

    def rollout_step():
        a, _, _ = net.act(vec.observation, vec.action_mask)
        vec.step(a)

    roll = rate(rollout_step, n, args.seconds)
    cfg = TrainConfig(
        num_envs=n,
        hidden=hidden,
        network=args.network,
        bc_steps=0,
        opponents={"Big Money Ultimate": 1},
        out="/tmp/bench_training",
    )
    trainer = Trainer(cfg)
    per_update = cfg.rollout * n

    def one_update():
        trainer.cfg.steps = trainer.steps + per_update  # one rollout and one update
        trainer.learn()

    whole = rate(one_update, per_update, max(args.seconds * 3, 10))
    print(f"{os.cpu_count()} cores, {n} games, network {args.network} {hidden}, torch 1 thread")
    print(f"{'figure':<16}{'learner steps/s':>18}")
    for name, v in (
        ("env only", env),
        ("inference", infer),
        ("rollout", roll),
        ("whole loop", whole),
    ):
        print(f"{name:<16}{v:>18,.0f}")
    if args.sb3:
        from sb3_contrib import MaskablePPO
        from stable_baselines3.common.vec_env import VecMonitor

        from dominion_env.envs.sb3_vec_env import DominionVecEnv

        venv = VecMonitor(DominionVecEnv(n, opponents="Big Money Ultimate", seed=0))
        model = MaskablePPO(
            "MlpPolicy",
            venv,
            n_steps=32,
            batch_size=4096,
            n_epochs=3,
            policy_kwargs={"net_arch": list(hidden)},
            verbose=0,
        )
        model.learn(per_update)
        t0 = time.perf_counter()
        model.learn(4 * per_update, reset_num_timesteps=False)
        sb3 = 4 * per_update / (time.perf_counter() - t0)
        print(f"{'MaskablePPO':<16}{sb3:>18,.0f}   (whole loop, same sizes; baseline)")
    print(
        f"\nwhole loop / env only = {whole / env:.3f}; the update is "
        f"{100 * (1 - whole / roll):.0f}% of the loop's time"
    )
    return np.array([env, infer, roll, whole])


if __name__ == "__main__":
    main()
