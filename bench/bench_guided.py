"""The guided search's speed and strength, beside its network playing alone, in the same run.

    python bench/bench_guided.py [--agent ppo-pool] [--budget 32] [--depth 4,1] [--games 100]
        [--per-kingdom 10] [--latency-games 3] [--seed 515151] [--quick]

1. Decision time: the guided search (``search:AGENT:N``) decides alone (one decision per
   call, as in ``dominion play``), seat 0 against Big Money Ultimate on random kingdoms:
   median and 90th percentile milliseconds, decisions with one legal action excluded
   (``bench_search.bench_latency``), for each depth.
2. Strength, 2 players, random kingdoms, seats rotated, every waiting decision of every game
   searched together (``play_mixed``): win rates with 95% Wilson intervals of
     - the guided search at each depth, and the network alone (greedy, as ``--agent`` plays
       everywhere), against the strongest library bot whose cards are in each kingdom
       (``--per-kingdom`` games on each random kingdom, the same kingdoms and seeds for all),
     - the guided search against the network alone (random kingdoms).

Seeds: every game derives from ``--seed``; figures to report come from a seed not used in
development (development used seeds below 1000).
"""

from __future__ import annotations

import argparse
import time

from bench_search import bench_latency

from dominion_env.agents import strongest_bot_for
from dominion_env.analysis.arena import wilson
from dominion_env.analysis.mixed import play_mixed
from dominion_env.engine.kingdoms import random_kingdom
from dominion_env.search import DEFAULT_GUIDED_BUDGET
from dominion_env.search.guided import DEFAULT_DEPTH
from dominion_env.train import load_agent
from dominion_env.train.search_network import guided_search


def _match(player, opponent, games: int, kingdom, seed: int):
    res = play_mixed([player, opponent], games, 2, kingdom, seed=seed)
    mine = res.reward[res.seat_bot == 0]
    return int((mine == 1).sum()), int((mine == 0).sum()), len(mine)


def _row(label: str, wins: int, ties: int, n: int, elapsed: float) -> None:
    lo, hi = wilson(wins, n)
    print(
        f"  {label:<52} {wins / n:7.1%} [{lo:6.1%},{hi:6.1%}]  ties {ties / n:5.1%}  "
        f"({n} games, {elapsed:.0f} s)"
    )


def vs_strongest(player, games: int, per_kingdom: int, seed: int):
    """(wins, ties, games, the strongest bots faced) over games // per_kingdom kingdoms."""
    W = T = N = 0
    faced: dict[str, int] = {}
    for k in range(max(1, games // per_kingdom)):
        cards = list(random_kingdom(seed + 1000 + k))
        bot = strongest_bot_for(cards)
        faced[bot.name] = faced.get(bot.name, 0) + 1
        w, t, n = _match(player, bot, per_kingdom, cards, seed + 1000 + k)
        W, T, N = W + w, T + t, N + n
    return W, T, N, faced


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--agent", default="ppo-pool", help="a shipped agent or an agent file")
    ap.add_argument("--budget", type=int, default=DEFAULT_GUIDED_BUDGET, help="simulations")
    ap.add_argument("--depth", default=f"{DEFAULT_DEPTH}", help="depths to run, e.g. 4,1")
    ap.add_argument("--games", type=int, default=100, help="games per match-up")
    ap.add_argument("--per-kingdom", type=int, default=10, help="games per random kingdom")
    ap.add_argument("--latency-games", type=int, default=3, help="0: none")
    ap.add_argument("--seed", type=int, default=515151)
    ap.add_argument("--quick", action="store_true", help="a few games, to see it run")
    args = ap.parse_args()
    if args.quick:
        args.games, args.per_kingdom, args.latency_games = 4, 2, 1
    depths = [int(d) for d in args.depth.split(",")]
    agent = load_agent(args.agent)

    def make(depth):
        return lambda seed: guided_search(args.agent, args.budget, seed, depth=depth)

    for depth in depths:
        print(f"search:{args.agent}:{args.budget}, depth {depth}")
        if args.latency_games:
            bench_latency(make(depth), args.latency_games, args.seed)
    print("\n2 players, random kingdoms (win rate [95% interval]):")
    start = time.perf_counter()
    w, t, n, faced = vs_strongest(agent, args.games, args.per_kingdom, args.seed)
    _row(
        f"{args.agent} alone vs the strongest bot per kingdom", w, t, n, time.perf_counter() - start
    )
    for depth in depths:
        start = time.perf_counter()
        search = make(depth)(args.seed)
        w, t, n, _ = vs_strongest(search, args.games, args.per_kingdom, args.seed)
        label = f"{search.name} depth {depth} vs the strongest bot per kingdom"
        _row(label, w, t, n, time.perf_counter() - start)
        start = time.perf_counter()
        search = make(depth)(args.seed + 7)
        w, t, n = _match(search, agent, args.games, "random", args.seed + 7)
        _row(
            f"{search.name} depth {depth} vs {args.agent} alone",
            w,
            t,
            n,
            time.perf_counter() - start,
        )
    print(f"    (kingdoms' strongest bots: {', '.join(f'{b} x{c}' for b, c in faced.items())})")
    print(f"    ({args.agent} alone against itself: 50% by symmetry)")


if __name__ == "__main__":
    main()
