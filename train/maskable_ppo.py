"""Train sb3-contrib's MaskablePPO against a bot on the batched env, then measure its win rate.

    python -m dominion_env.train.maskable_ppo --steps 200000 --num-envs 256 --opponent "Big Money"

1. Training: ``DominionVecEnv`` (one VecGame of ``--num-envs`` games; the opponent bots play
   inside the compiled step) wrapped in ``VecMonitor``; the learner takes a random seat per game.
   Every decision of the learner is a step, Militia discards and Moat reveals included.
   The recipe of ``dominion_env.train.ppo`` by default: gamma 1, scaled observations and
   potential-based VP shaping (``--vp-shaping``; ``--raw`` turns both aids off). The faster
   and stronger trainer is ``dominion train`` (our PPO with an imitation warm start); this
   module keeps sb3-contrib's MaskablePPO working on the same env.
2. Saving: the model goes to ``--out`` (a .zip ``MaskablePPO.load`` reads).
3. Evaluation: ``--eval-games`` fresh games (a seed training never used), the policy playing
   deterministically with its masks, the opponent as in training; prints wins / ties / losses /
   truncated with 95% Wilson intervals.

``--eval-only --load model.zip`` skips training; ``--load`` alone continues training it.
Threads: torch runs on one thread by default (``--torch-threads``; with a small MLP more threads
gain little, and torch's and Numba's OpenMP pools fight over shared cores: 1.2k instead of 9k
steps/s on 2 cores), the env on all cores (``--threads``). Needs the ``train`` extra (torch,
stable-baselines3, sb3-contrib).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ..analysis.arena import wilson
from ..engine.kingdoms import kingdom_arg
from ..engine.layout import STATUS, TERMINATED, TRUNCATED
from ..envs.sb3_vec_env import DominionVecEnv
from ..envs.vector_env import make_learner_vecgame
from ..extras import require


def _opponents(names):
    return names[0] if len(names) == 1 else list(names)


def evaluate(
    model,
    opponents="Big Money",
    games: int = 2000,
    players: int = 2,
    kingdom="random",
    seed: int = 10**9,
    deterministic: bool = True,
    batch: int = 1024,
    turn_limit: int = 100,
    obs_transform=None,
) -> dict:
    """Play ``games`` whole games of ``model`` (a MaskablePPO, or any object with
    ``predict(obs, action_masks=..., deterministic=...)``) against ``opponents`` in a random
    seat; returns counts and 95% intervals. Every game that starts is finished and counted.
    ``obs_transform``: what training did to observations (e.g. ``VecNormalize.normalize_obs``)."""
    wins = ties = losses = truncated = 0
    done_games = 0
    chunk = 0
    while done_games < games:
        n = min(batch, games - done_games)
        vec = make_learner_vecgame(
            n, players, kingdom, opponents, None, autoreset=False, turn_limit=turn_limit
        )
        vec.reset(seed + chunk)
        reward = np.zeros(n, np.float32)
        actions = np.zeros(n, np.int64)
        while True:
            live = vec.running
            if not live.any():
                break
            obs = vec.observation[live]
            if obs_transform is not None:
                obs = obs_transform(obs)
            a, _ = model.predict(
                obs, action_masks=vec.action_mask[live], deterministic=deterministic
            )
            actions[:] = 0
            actions[live] = a
            vec.step(actions)
            reward += vec.learner_rewards
        status = vec.state["game"][:, STATUS]
        term = status == TERMINATED
        wins += int(((reward == 1) & term).sum())
        ties += int(((reward == 0) & term).sum())
        losses += int(((reward == -1) & term).sum())
        truncated += int((status == TRUNCATED).sum())
        done_games += n
        chunk += 1
    return {
        "games": games,
        "wins": wins,
        "ties": ties,
        "losses": losses,
        "truncated": truncated,
        "win_rate": wins / games,
        "win_ci": wilson(wins, games),
        "tie_ci": wilson(ties, games),
        "loss_ci": wilson(losses, games),
    }


def format_result(r: dict, opponent_label: str) -> str:
    lo, hi = r["win_ci"]
    return (
        f"MaskablePPO vs {opponent_label}: {r['games']} games, win rate "
        f"{100 * r['win_rate']:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%), "
        f"ties {r['ties']}, losses {r['losses']}, truncated {r['truncated']}"
    )


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=200_000, help="learner steps to train")
    ap.add_argument("--num-envs", type=int, default=256, help="games stepped at once")
    ap.add_argument(
        "--opponent",
        action="append",
        default=None,
        help="bot name (agents.BOTS); repeat for one bot per other seat (default: Big Money)",
    )
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument(
        "--kingdom",
        default="random",
        help="'random' (per game), a recommended set name, or 10 names separated by commas",
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--n-steps", type=int, default=64, help="rollout length per env")
    ap.add_argument("--batch-size", type=int, default=2048)
    ap.add_argument("--n-epochs", type=int, default=4)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument(
        "--gamma",
        type=float,
        default=1.0,
        help="1: undiscounted (a per-decision discount rewards stalling)",
    )
    ap.add_argument("--ent-coef", type=float, default=0.01)
    ap.add_argument("--net", default="128,128", help="hidden layer sizes, comma-separated")
    ap.add_argument("--turn-limit", type=int, default=100)
    ap.add_argument(
        "--vp-shaping",
        type=float,
        default=0.02,
        help="potential-based shaping coefficient (returns stay the game results)",
    )
    ap.add_argument(
        "--raw",
        action="store_true",
        help="raw observations and no shaping (the env's plain defaults)",
    )
    ap.add_argument("--eval-games", type=int, default=2000)
    ap.add_argument("--out", default="models/maskable_ppo_dominion.zip")
    ap.add_argument("--load", default=None, help="start from this saved model")
    ap.add_argument("--eval-only", action="store_true", help="evaluate --load, no training")
    ap.add_argument(
        "--threads", type=int, default=None, help="Numba threads for the env (default: all cores)"
    )
    ap.add_argument(
        "--torch-threads",
        type=int,
        default=1,
        help="torch threads (default 1: a small MLP gains little from more, and "
        "torch's and Numba's thread pools fight over shared cores)",
    )
    ap.add_argument("--verbose", type=int, default=1)
    args = ap.parse_args(argv)
    args.opponent = args.opponent or ["Big Money"]
    args.kingdom = kingdom_arg(args.kingdom)
    return args


def main(argv=None) -> dict:
    args = parse_args(argv)
    from pathlib import Path

    import numba
    import torch

    MaskablePPO = require("sb3_contrib", "MaskablePPO training").MaskablePPO
    VecMonitor = require("stable_baselines3.common.vec_env", "MaskablePPO training").VecMonitor

    if args.threads:
        numba.set_num_threads(args.threads)
    torch.set_num_threads(args.torch_threads)
    opponents = _opponents(args.opponent)
    label = " + ".join(args.opponent)
    if args.eval_only and not args.load:
        raise SystemExit("--eval-only needs --load MODEL.zip")
    if args.eval_only:
        model = MaskablePPO.load(args.load)
    else:
        env = VecMonitor(
            DominionVecEnv(
                args.num_envs,
                args.players,
                args.kingdom,
                opponents,
                turn_limit=args.turn_limit,
                seed=args.seed,
                scale_observations=not args.raw,
                vp_shaping=0.0 if args.raw else args.vp_shaping,
            )
        )
        if args.load:
            model = MaskablePPO.load(args.load, env=env)
        else:
            net = [int(x) for x in args.net.split(",") if x]
            model = MaskablePPO(
                "MlpPolicy",
                env,
                learning_rate=args.lr,
                n_steps=args.n_steps,
                batch_size=args.batch_size,
                n_epochs=args.n_epochs,
                gamma=args.gamma,
                ent_coef=args.ent_coef,
                policy_kwargs={"net_arch": net},
                seed=args.seed,
                verbose=args.verbose,
            )
        start = time.perf_counter()
        model.learn(total_timesteps=args.steps, reset_num_timesteps=not args.load)
        took = time.perf_counter() - start
        print(
            f"trained {model.num_timesteps:,} steps in {took:.0f} s "
            f"({model.num_timesteps / took:,.0f} steps/s)"
        )
        out = Path(args.out)
        out.parent.mkdir(parents=True, exist_ok=True)
        model.save(out)
        print(f"saved {out}")
    result = evaluate(
        model, opponents, args.eval_games, args.players, args.kingdom, turn_limit=args.turn_limit
    )
    print(format_result(result, label))
    return result


if __name__ == "__main__":
    main()
