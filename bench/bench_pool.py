"""Training against every library bot at once, beside one bot: what a mixed batch buys.

    python bench/bench_pool.py                  # 512 games, 3 windows of 8 s per figure
    python bench/bench_pool.py --windows 5 --seconds 10

The pool ``"all bots"`` plays each library bot but Random on its own kingdom. It used to step
one learner-mode VecGame per bot (35 batches of ~15 rows one after another); now it is one
mixed batch whose rows carry their own kingdom and bot (``VecGame(row_kingdoms=...,
row_opponents=...)``). Printed, in learner steps per second, the best of ``--windows`` windows
(a shared box's other work only ever slows a window down):

    env only     the games alone, random legal actions (``seats.step``), per opponent set-up
    whole loop   ``ppo.Trainer.learn``: one rollout and one PPO update at a time

for three set-ups in the same run: one bot (Big Money Ultimate), the pool as one mixed batch,
and the pool as one batch per bot (rebuilt here as it was: the baseline). The ratio to one
bot is the figure that counts: a learner facing 35 bots should train about as fast as one
facing one.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np  # noqa: E402
import torch  # noqa: E402

from dominion_env.agents import BOTS, kingdom_for  # noqa: E402
from dominion_env.train.ppo import TrainConfig, Trainer  # noqa: E402
from dominion_env.train.seats import LIBRARY_BOTS, BotSeats, Finished  # noqa: E402


class PerBotSeats:
    """The pool as it was: one learner-mode BotSeats per bot, the rows split evenly."""

    label = "all bots"

    def __init__(self, num_games, players, bots, *, vp_shaping, turn_limit=100):
        sizes = [len(r) for r in np.array_split(np.arange(num_games), len(bots))]
        self.parts = [
            BotSeats(n, players, kingdom_for([BOTS[b]]), [b], None, vp_shaping=vp_shaping,
                     turn_limit=turn_limit)
            for b, n in zip(bots, sizes, strict=True)
        ]  # fmt: skip
        self.num_games = num_games

    def reset(self, seed):
        outs = [p.reset(seed * 1000 + k) for k, p in enumerate(self.parts)]
        return np.concatenate([o for o, _ in outs]), np.concatenate([m for _, m in outs])

    def step(self, actions):
        parts, start = [], 0
        for p in self.parts:
            parts.append(p.step(actions[start : start + p.num_games]))
            start += p.num_games
        obs, mask, reward, done = (np.concatenate([q[i] for q in parts]) for i in range(4))
        result = np.concatenate([q[4].result for q in parts])
        return obs, mask, reward, done, Finished(result, [self.label] * len(result))


def best_rate(fn, steps_per_call, seconds, windows, at_least=1):
    """Learner steps per second: the best of ``windows`` windows of ``seconds``."""
    fn()
    best = 0.0
    for _ in range(windows):
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds or n < at_least:
            fn()
            n += 1
        best = max(best, n * steps_per_call / (time.perf_counter() - t0))
    return best


def trainer_for(opponents, n, per_bot=False):
    cfg = TrainConfig(num_envs=n, bc_steps=0, opponents=opponents, out="/tmp/bench_pool")
    trainer = Trainer(cfg)
    if per_bot:
        kw = dict(vp_shaping=cfg.vp_shaping, turn_limit=cfg.turn_limit)
        trainer.groups = [PerBotSeats(n, cfg.players, LIBRARY_BOTS, **kw)]
    return trainer


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--num-envs", type=int, default=TrainConfig().num_envs)
    ap.add_argument("--seconds", type=float, default=8.0, help="per window")
    ap.add_argument("--windows", type=int, default=3)
    ap.add_argument(
        "--quick",
        action="store_true",
        help="a small, fast run: checks the script works (figures not to cite)",
    )
    args = ap.parse_args(argv)
    if args.quick:
        args.num_envs, args.seconds, args.windows = 64, 0.5, 1
    n = args.num_envs
    setups = {
        "one bot (Big Money Ultimate)": ({"Big Money Ultimate": 1}, False),
        "all bots, one mixed batch": ({"all bots": 1}, False),
        "all bots, a batch per bot (before)": ({"all bots": 1}, True),
    }
    print(f"{n} games, best of {args.windows} windows of {args.seconds:g} s; learner steps/s")
    print(f"{'set-up':<38}{'env only':>11}{'whole loop':>12}{'loop / one bot':>16}")
    base = None
    for label, (opponents, per_bot) in setups.items():
        trainer = trainer_for(opponents, n, per_bot)
        torch.set_num_threads(trainer.cfg.torch_threads)
        seats = trainer.groups[0]
        obs, mask = seats.reset(0)
        rng = np.random.default_rng(0)
        state = {"mask": mask}

        def env_step(seats=seats, state=state, rng=rng):
            m = state["mask"]
            u = rng.random(m.shape) * m  # a random legal action per row
            state["mask"] = seats.step(u.argmax(axis=1))[1]

        env = best_rate(env_step, n, args.seconds, args.windows)
        per_update = trainer.cfg.rollout * n

        def one_update(trainer=trainer, per_update=per_update):
            trainer.cfg.steps = trainer.steps + per_update
            trainer.learn()

        whole = best_rate(one_update, per_update, args.seconds, args.windows, at_least=2)
        base = base or whole
        print(f"{label:<38}{env:>11,.0f}{whole:>12,.0f}{whole / base:>15.2f}x")


if __name__ == "__main__":
    main()
