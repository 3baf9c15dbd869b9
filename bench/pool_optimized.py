"""What the optimizer's bots add to the training pool: agents trained with
and without ``optimized`` in the pool, played greedy on seeds training never used.

    python bench/pool_optimized.py runs/base/agent.safetensors runs/opt/agent.safetensors \
        --games 4000

Per agent: ``evaluate`` against Big Money Ultimate, ``strongest`` and ``optimized`` (``games``
each; ``strongest`` and ``optimized`` play the very same random kingdoms and seeds, so they
differ only on the kingdoms where the file has a bot), then those kingdoms alone: the first
``--kingdoms`` random kingdoms (``random_kingdom(seed + k)``) where a bot of the file fits,
``GAMES_PER_KINGDOM`` games each against the file's bot and against the strongest library bot
on the same seeds. ``--bots``: on those kingdoms, no agent: the file's bot against the library's
(``optimize.judge``, 40 games each, a tie counted half). The training runs themselves:

    dominion train --steps 1200000 --bc-steps 500000 --seed 0 --out runs/base
    dominion train --steps 1200000 --bc-steps 500000 --seed 0 --out runs/opt \\
        --opponent "Big Money Ultimate:2" --opponent "Big Money:1" --opponent strongest:1 \\
        --opponent self:1 --opponent optimized:1

(and the same pair with the defaults' 3M steps and 1.5M imitation: without --steps, --bc-steps).
"""

import argparse

import numpy as np

from dominion_env.agents import load_bot_file, strongest_bot_for
from dominion_env.analysis.arena import wilson
from dominion_env.analysis.optimize import judge
from dominion_env.engine.kingdoms import random_kingdom
from dominion_env.train import load_agent
from dominion_env.train.evaluate import (
    EVAL_SEED,
    GAMES_PER_KINGDOM,
    _play_piece,
    evaluate,
    kingdom_pieces,
)


def covered(agent, bots, kingdoms, seed):
    """Wins against the file's bot and against the strongest library bot, on the same
    kingdoms and seeds: the first ``kingdoms`` where a file bot fits, each side one run of
    mixed batches (``evaluate.kingdom_pieces``)."""
    found, mine, lib = [], [], []
    k = 0
    while len(found) < kingdoms:
        cards = random_kingdom(seed + k)
        if strongest_bot_for(cards, bots) is not strongest_bot_for(cards):
            found.append(k)
            mine.append(strongest_bot_for(cards, bots))
            lib.append(strongest_bot_for(cards))
        k += 1
    cards = [random_kingdom(seed + i) for i in found]
    seeds = seed + np.array(found)
    games = GAMES_PER_KINGDOM * kingdoms
    out = {}
    for key, side in (("file", mine), ("library", lib)):
        pieces = kingdom_pieces(cards, side, seeds, games, 1000, seed)
        out[key] = np.concatenate(
            [_play_piece(p, agent=agent, players=2, turn_limit=100)[0] for p in pieces]
        )
    return out, k


def bots_only(bots, kingdoms, seed):
    """The file's bot against the strongest library bot where a file bot fits: its score."""
    score = games = k = found = 0
    while found < kingdoms:
        cards = list(random_kingdom(seed + k))
        mine, lib = strongest_bot_for(cards, bots), strongest_bot_for(cards)
        if mine is not lib:
            (row,) = judge(mine, [lib], cards, 2, 40, k)
            score += row["wins"] + row["ties"] / 2
            games += row["games"]
            found += 1
        k += 1
    return score / games, games


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("agents", nargs="*")
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--kingdoms", type=int, default=200, help="kingdoms where a file bot fits")
    ap.add_argument("--seed", type=int, default=EVAL_SEED)
    ap.add_argument("--bots", action="store_true", help="also the file's bots vs the library's")
    args = ap.parse_args()
    bots = load_bot_file("optimized")
    if args.bots:
        score, games = bots_only(bots, args.kingdoms, args.seed)
        print(f"the file's bot vs the library's where one fits: {score:.1%} of {games} games")
    for path in args.agents:
        agent = load_agent(path)
        rows = evaluate(agent, ["Big Money Ultimate", "strongest", "optimized"], args.games,
                        seed=args.seed)  # fmt: skip
        print(path)
        for r in rows:
            print(f"  {r['opponent']:<20} {r['win_rate']:6.1%} [{r['win_ci_low']:.1%}, "
                  f"{r['win_ci_high']:.1%}] ties {r['ties']}, {r['games']} games")  # fmt: skip
        res, drawn = covered(agent, bots, args.kingdoms, args.seed)
        for key, result in res.items():
            wins = int((result == 1).sum())
            lo, hi = wilson(wins, len(result))
            print(f"  {args.kingdoms} of {drawn} kingdoms where a file bot fits, vs the "
                  f"{key}'s bot: {wins / len(result):.1%} [{lo:.1%}, {hi:.1%}], "
                  f"{len(result)} games")  # fmt: skip


if __name__ == "__main__":
    main()
