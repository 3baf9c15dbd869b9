"""OpenSpiel's PyTorch policy gradient (advantage actor-critic) on ``python_dominion``, trained
for some minutes against a library bot, then played against it: the figure that stands beside
``dominion train --minutes M`` on the OpenSpiel results page.

    python bench/openspiel_learner.py --minutes 5 --games 200
    dominion train --minutes 5 --kingdom "First Game" --opponent "Big Money" --out runs/pg5
    dominion evaluate runs/pg5/agent.safetensors --opponent "Big Money" \\
        --kingdom "First Game" --games 200

The learner is seat 0 of every game (the first player is random per game); the bot answers
seat 1. Its games and the evaluation's are the recipe's (docs/recipes.md, "OpenSpiel"), with
the minutes and games as arguments; the evaluation's games are games the training never
dealt (the environment's seed moves on).
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.pytorch import policy_gradient

from dominion_env.analysis.arena import wilson
from dominion_env.envs.openspiel_game import LibraryBot


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=5.0)
    ap.add_argument("--games", type=int, default=200, help="evaluation games")
    ap.add_argument("--opponent", default="Big Money")
    ap.add_argument("--kingdom", default="First Game")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--quick", action="store_true", help="a few seconds of training, 10 games")
    args = ap.parse_args(argv)
    if args.quick:
        args.minutes, args.games = 0.05, 10
    game = pyspiel.load_game("python_dominion", {"kingdom": args.kingdom, "seed": args.seed})
    env = rl_environment.Environment(game, seed=args.seed)
    learner, opponent = 0, LibraryBot(args.opponent)
    agent = policy_gradient.PolicyGradient(
        learner,
        env.observation_spec()["info_state"][0],
        env.action_spec()["num_actions"],
        loss_str="a2c",
        hidden_layers_sizes=[256, 256],
        batch_size=16,
        pi_learning_rate=1e-3,
        critic_learning_rate=1e-2,
        optimizer_str="adam",
    )

    def play(train: bool) -> float:
        ts = env.reset()
        steps = 0
        while not ts.last():
            if ts.observations["current_player"] == learner:
                action = agent.step(ts, is_evaluation=not train).action
                steps += 1
            else:
                action = opponent.step(env.get_state)
            ts = env.step([action])
        if train:
            agent.step(ts)
        return ts.rewards[learner], steps

    t0 = time.monotonic()
    end, games, steps = t0 + 60 * args.minutes, 0, 0
    while time.monotonic() < end:
        steps += play(train=True)[1]
        games += 1
    results = [play(train=False)[0] for _ in range(args.games)]
    wins = sum(r > 0 for r in results)
    ties = sum(r == 0 for r in results)
    lo, hi = wilson(wins, args.games)
    print(
        f"policy gradient, {args.minutes:g} min against {args.opponent} on {args.kingdom}: "
        f"{games} games, {steps} learner steps; then {args.games} games: "
        f"{wins / args.games:.1%} [{lo:.1%}, {hi:.1%}] wins, {ties} ties "
        f"(mean return {np.mean(results):+.2f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
