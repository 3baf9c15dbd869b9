"""The search player's speed and strength, beside the engine's speed from the same run.

    python bench/bench_search.py [--budget 200] [--games 200] [--seed 424242] [--quick]
        [--confidence 1.0] [--extend 3.0] [--margin-weight 0.01]

1. Engine baseline: Big Money mirror games/s, whole games in compiled code (as bench_engine).
2. Decision time: search decides alone (one decision per call, as in `dominion play` or a
   Game), seat 0 against Big Money Ultimate on random kingdoms: median and 90th percentile
   milliseconds per decision, decisions with one legal action excluded (they are answered
   without search).
3. Throughput and strength: search at a table in batches (``play_mixed``: every waiting
   decision of every game searched in the same kernel calls), 2 players, random kingdoms unless
   said, seats rotated: decisions/s and simulations (rollouts)/s, and win rates with 95%
   Wilson intervals against
     - Big Money,
     - the strongest library bot whose cards are in each kingdom (``strongest_bot_for``;
       ``--per-kingdom`` games on each random kingdom),
     - Double Witch on its kingdom (its cards, the rest drawn at random),
     - the shipped agent ``--agent`` (ppo-pool; needs the train extra), random kingdoms.

Seeds: every game of the run derives from ``--seed``; pick one never used in development for
figures you report (development used seeds below 1000).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import time

import numba
import numpy as np

from dominion_env import Game
from dominion_env.agents import compile_bots, get_bot, kingdom_for, strongest_bot_for
from dominion_env.analysis.arena import play_games, wilson
from dominion_env.analysis.mixed import play_mixed
from dominion_env.engine.kingdoms import random_kingdom
from dominion_env.search import DEFAULT_BUDGET, Search
from dominion_env.search.search import DEFAULT_CONFIDENCE, DEFAULT_EXTEND, DEFAULT_MARGIN_WEIGHT


def bench_engine(n_games: int) -> float:
    table = compile_bots([get_bot("Big Money")])
    play_games(table, 64, 2, seed=0)  # compile outside the timing
    start = time.perf_counter()
    play_games(table, n_games, 2, seed=1)
    rate = n_games / (time.perf_counter() - start)
    print(f"engine: Big Money mirror, whole games in compiled code: {rate:,.0f} games/s")
    return rate


def bench_latency(make, games: int, seed: int) -> None:
    search = make(seed)
    budget = search.budget
    bmu = compile_bots("Big Money Ultimate")
    rng = np.zeros(1, np.uint64)
    warm = Game("random", players=2, seed=seed)
    search.act_games(warm._vec, [0])  # compile (or load) the kernels outside the timing
    times, cpu_times = [], []
    for k in range(games):
        g = Game("random", players=2, seed=seed, game_index=k)
        while not g.done:
            if g.current_player == 0 and g.action_mask.sum() > 1:
                start, cpu = time.perf_counter(), time.process_time()
                a = int(search.act_games(g._vec, [0])[0])
                times.append(time.perf_counter() - start)
                cpu_times.append(time.process_time() - cpu)
            elif g.current_player == 0:
                a = int(np.flatnonzero(g.action_mask)[0])
            else:
                a = g.bot_action_id(bmu, 0, rng)
            g.step(a)
    ms, cpu = np.array(times) * 1e3, np.array(cpu_times) * 1e3
    print(
        f"decision time, one decision per call, budget {budget}: median {np.median(ms):.1f} ms, "
        f"90th percentile {np.percentile(ms, 90):.1f} ms, mean {ms.mean():.1f} ms; CPU time "
        f"median {np.median(cpu):.1f} ms ({len(ms)} decisions in {games} games; on a shared "
        "machine the wall time waits for other work, the CPU time does not)"
    )


def _row(label: str, wins: int, ties: int, n: int, elapsed: float, search: Search) -> None:
    lo, hi = wilson(wins, n)
    print(
        f"  {label:<44} {wins / n:7.1%} [{lo:6.1%},{hi:6.1%}]  ties {ties / n:5.1%}  "
        f"({n} games, {search.decisions / elapsed:,.0f} decisions/s, "
        f"{search.simulations / elapsed:,.0f} simulations/s)"
    )


def _match(search: Search, opponent, games: int, kingdom, seed: int):
    res = play_mixed([search, opponent], games, 2, kingdom, seed=seed)
    mine = res.reward[res.seat_bot == 0]
    return int((mine == 1).sum()), int((mine == 0).sum()), len(mine)


def bench_strength(make, games: int, per_kingdom: int, seed: int, agent=None) -> None:
    search = make(seed)
    print(f"\n{search!r} in batches, 2 players (win rate [95% interval])")
    start = time.perf_counter()
    w, t, n = _match(search, get_bot("Big Money"), games, "random", seed)
    _row("vs Big Money, random kingdoms", w, t, n, time.perf_counter() - start, search)

    search = make(seed + 1)
    start = time.perf_counter()
    W = T = N = 0
    faced: dict[str, int] = {}
    for k in range(max(1, games // per_kingdom)):
        cards = list(random_kingdom(seed + 1000 + k))
        bot = strongest_bot_for(cards)
        faced[bot.name] = faced.get(bot.name, 0) + 1
        w, t, n = _match(search, bot, per_kingdom, cards, seed + 1000 + k)
        W, T, N = W + w, T + t, N + n
    _row("vs the strongest library bot per kingdom", W, T, N, time.perf_counter() - start, search)
    print(f"    (kingdoms' strongest bots: {', '.join(f'{b} x{c}' for b, c in faced.items())})")

    if agent is not None:
        search = make(seed + 3)
        start = time.perf_counter()
        w, t, n = _match(search, agent, games, "random", seed + 3)
        _row(f"vs the shipped agent {agent.name}", w, t, n, time.perf_counter() - start, search)

    search = make(seed + 2)
    dw = get_bot("Double Witch")
    start = time.perf_counter()
    w, t, n = _match(search, dw, games, kingdom_for([dw]), seed + 2)
    _row("vs Double Witch on its kingdom", w, t, n, time.perf_counter() - start, search)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="simulations/decision")
    ap.add_argument("--games", type=int, default=200, help="games per match-up")
    ap.add_argument("--per-kingdom", type=int, default=10, help="games per random kingdom")
    ap.add_argument("--latency-games", type=int, default=4)
    ap.add_argument("--confidence", type=float, default=DEFAULT_CONFIDENCE)
    ap.add_argument("--extend", type=float, default=DEFAULT_EXTEND, help="close calls' budgets")
    ap.add_argument("--margin-weight", type=float, default=DEFAULT_MARGIN_WEIGHT)
    ap.add_argument("--seed", type=int, default=424242)
    ap.add_argument("--agent", default="ppo-pool", help="a shipped agent ('' for none)")
    ap.add_argument("--quick", action="store_true", help="a few games, to see it run")
    args = ap.parse_args()
    if args.quick:
        args.games, args.per_kingdom, args.latency_games = 20, 10, 1
    print(
        f"cores: {os.cpu_count()}, numba threads: {numba.get_num_threads()}, "
        f"numba {numba.__version__}, numpy {np.__version__}"
    )
    bench_engine(20_000 if args.quick else 200_000)

    def make(seed: int) -> Search:
        return Search(
            args.budget,
            seed=seed,
            margin_weight=args.margin_weight,
            confidence=args.confidence,
            extend=args.extend,
        )

    bench_latency(make, args.latency_games, args.seed)
    agent = None
    if args.agent and importlib.util.find_spec("torch") is not None:
        from dominion_env.train import load_agent  # the train extra (torch)

        agent = load_agent(args.agent)
    bench_strength(make, args.games, args.per_kingdom, args.seed, agent)


if __name__ == "__main__":
    main()
