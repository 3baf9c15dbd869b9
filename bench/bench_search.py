"""The search player's speed and strength, beside the engine's speed from the same run.

    python bench/bench_search.py [--budget 200] [--games 200] [--seed 424242] [--quick]
        [--confidence 1.0] [--extend 3.0] [--margin-weight 0.01] [--against strongest,dw]
        [--decisions 800:1:3,...] [--discards]

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

4. ``--decisions 800:1:3,1600:1:3`` (budget:confidence:extend, instead of 1-3): decision
   quality, far less noisy than win rates for comparing settings. Positions are the decisions
   (more than one legal action) of search:200 against the strongest library bot on random
   kingdoms; every setting decides all of them (``--decision-seeds`` searches each); an oracle
   (``--oracle-sims`` simulations per arm, its own streams) values every action any setting
   chose and the rollout bot's own; a setting's figure is the mean oracle value of its choices
   less the rollout bot's (value: result + margin_weight x VP margin, as the search's), with
   the spread over its seeds, how often it leaves the bot's action and simulations/decision.

5. ``--discards`` (instead of 1-4): what the known discards are worth. The search as it is
   beside one that forgets which cards every player saw go into a discard pile (its records'
   ``pub_discard`` zeroed before each decision: the determinizer then deals those cards
   among the hidden places, as it did before it kept them), same settings and seeds: each
   against the strongest library bot per random kingdom on the same deals (``--per-kingdom``
   games a kingdom, seats rotated), then head to head on random kingdoms. Measured on 2
   shared cores (``--discards --budget 50 --games 240 --seed 7331``): vs the strongest bot
   39.2% known, 42.1% forgetful, head to head 47.1% [40.9%, 53.4%]; ``--budget 200 --games
   120 --seed 9001``: 50.0% and 52.5%, head to head 48.3% [39.6%, 57.2%]: no difference
   this size can see.

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
from dominion_env.search.search import (
    DEFAULT_CONFIDENCE,
    DEFAULT_EXTEND,
    DEFAULT_MARGIN_WEIGHT,
    Tally,
)


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


OPPONENTS = ("bm", "strongest", "agent", "dw")


def bench_strength(make, games, per_kingdom, seed, agent=None, against=OPPONENTS) -> None:
    print(f"\n{make(seed)!r} in batches, 2 players (win rate [95% interval])")
    if "bm" in against:
        search = make(seed)
        start = time.perf_counter()
        w, t, n = _match(search, get_bot("Big Money"), games, "random", seed)
        _row("vs Big Money, random kingdoms", w, t, n, time.perf_counter() - start, search)
    if "strongest" in against:
        _strongest(make, games, per_kingdom, seed)
    if agent is not None and "agent" in against:
        search = make(seed + 3)
        start = time.perf_counter()
        w, t, n = _match(search, agent, games, "random", seed + 3)
        _row(f"vs the shipped agent {agent.name}", w, t, n, time.perf_counter() - start, search)
    if "dw" in against:
        search = make(seed + 2)
        dw = get_bot("Double Witch")
        start = time.perf_counter()
        w, t, n = _match(search, dw, games, kingdom_for([dw]), seed + 2)
        _row("vs Double Witch on its kingdom", w, t, n, time.perf_counter() - start, search)


def _strongest(make, games: int, per_kingdom: int, seed: int) -> None:
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


def _positions(n: int, seed: int):
    """About n decisions (records, masks, Config) of search:200 against the strongest bot."""
    states, masks, cfgs = [], [], []

    class Recorder(Search):
        def search(self, st, mk, cfg):
            keep = mk.sum(axis=1) > 1
            states.append(np.array(st[keep]))
            masks.append(np.array(mk[keep]))
            cfgs.append(cfg)
            return super().search(st, mk, cfg)

    k = 0
    while sum(len(m) for m in masks) < 3 * n:  # then a random n of them: spread over games
        cards = list(random_kingdom(seed + k))
        play_mixed([Recorder(200, seed=seed), strongest_bot_for(cards)], 4, 2, cards, seed=seed + k)
        k += 1
    S, M = np.concatenate(states), np.concatenate(masks)
    take = np.random.default_rng(seed).choice(len(S), n, replace=False)
    return S[take], M[take], cfgs[0], k


def bench_decisions(settings: str, n: int, seeds: int, oracle_sims: int, seed: int) -> None:
    S, M, cfg, kingdoms = _positions(n, seed)
    R, rows = len(S), np.arange(len(S))
    print(f"\ndecision quality: {R} decisions from {kingdoms} kingdoms (search:200 vs strongest)")
    chosen, chose = {}, np.zeros(M.shape, bool)
    for spec in settings.split(","):
        budget, confidence, extend = spec.split(":")
        picks, start, sims = [], time.perf_counter(), 0
        for k in range(seeds):
            s = Search(
                int(budget), seed=seed + 1 + k, confidence=float(confidence), extend=float(extend)
            )
            picks.append(s.search(S, M, cfg)[0])
            chose[rows, picks[-1]] = True
            sims += s.simulations
        chosen[spec] = (np.array(picks), sims / (R * seeds), time.perf_counter() - start)
    oracle = Search(1, seed=seed + 999)  # its own streams: no setting saw its deals
    roots = np.ascontiguousarray(S)
    bot = oracle._rollout_bots(S)
    default = oracle._defaults(roots, M, bot, 0, cfg)
    chose[rows, default] = True
    stats, done, step = Tally.zeros(R), np.zeros(R, np.int64), 500
    for _ in range(max(1, oracle_sims // step)):
        oracle._round(roots, chose, np.full(R, step), 0, done, default, bot, cfg, stats)
    value = stats.value(oracle) / np.maximum(stats.visits, 1)
    print(
        f"  oracle: {int(done[0])} simulations per action, {chose.sum() / R:.2f} actions/decision"
    )
    for spec, (picks, sims, elapsed) in chosen.items():
        gain = value[rows[None, :], picks] - value[rows, default][None, :]
        print(
            f"  {spec:>12}: {gain.mean():+.5f} over the bot's action per decision (seeds' sd "
            f"{gain.mean(axis=1).std():.5f}), leaves it {(picks != default).mean():5.1%}, "
            f"{sims:,.0f} simulations/decision, {elapsed:.0f} s"
        )


class Forgetful(Search):
    """The search without the known discards: its deals put the cards every player saw go into
    an opponent's discard pile among the hidden places as well."""

    def search(self, states, masks, cfg):
        states = np.array(states, copy=True)
        states["pub_discard"] = 0
        return super().search(states, masks, cfg)

    def with_seed(self, seed: int) -> Forgetful:
        return Forgetful(
            self.budget, self.rollout, seed, self.margin_weight, self.confidence, self.extend
        )


def bench_discards(make, games: int, per_kingdom: int, seed: int) -> None:
    searches = {"known discards": make(Search, seed), "forgetful": make(Forgetful, seed)}
    print(f"\nknown discards against forgetful ones, {searches['known discards']!r}, 2 players")
    print("  vs the strongest library bot per random kingdom, the same deals for both:")
    results = {}
    for label, search in searches.items():
        start = time.perf_counter()
        W = T = N = 0
        for k in range(max(1, games // per_kingdom)):
            cards = list(random_kingdom(seed + 1000 + k))
            w, t, n = _match(search, strongest_bot_for(cards), per_kingdom, cards, seed + 1000 + k)
            W, T, N = W + w, T + t, N + n
        results[label] = (W, T, N)
        _row(label, W, T, N, time.perf_counter() - start, search)
    search = make(Search, seed + 1)
    start = time.perf_counter()
    w, t, n = _match(search, make(Forgetful, seed + 2), games, "random", seed + 1)
    print("  head to head, random kingdoms, seats rotated:")
    _row("known discards vs forgetful", w, t, n, time.perf_counter() - start, search)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=int, default=DEFAULT_BUDGET, help="simulations/decision")
    ap.add_argument("--games", type=int, default=200, help="games per match-up")
    ap.add_argument("--per-kingdom", type=int, default=10, help="games per random kingdom")
    ap.add_argument("--latency-games", type=int, default=4, help="0: none")
    ap.add_argument("--confidence", type=float, default=DEFAULT_CONFIDENCE)
    ap.add_argument("--extend", type=float, default=DEFAULT_EXTEND, help="close calls' budgets")
    ap.add_argument("--margin-weight", type=float, default=DEFAULT_MARGIN_WEIGHT)
    ap.add_argument("--seed", type=int, default=424242)
    ap.add_argument("--agent", default="ppo-pool", help="a shipped agent ('' for none)")
    ap.add_argument("--quick", action="store_true", help="a few games, to see it run")
    ap.add_argument(
        "--against", default=",".join(OPPONENTS), help=f"match-ups, some of {','.join(OPPONENTS)}"
    )
    ap.add_argument("--decisions", default="", help="budget:confidence:extend,... (4. above)")
    ap.add_argument("--positions", type=int, default=300, help="decisions for --decisions")
    ap.add_argument("--decision-seeds", type=int, default=3)
    ap.add_argument("--oracle-sims", type=int, default=4000)
    ap.add_argument("--discards", action="store_true", help="known discards or not (5. above)")
    args = ap.parse_args()
    against = args.against.split(",")
    if not set(against) <= set(OPPONENTS):
        ap.error(f"--against takes some of {','.join(OPPONENTS)}, got {args.against!r}")
    if args.decisions:
        bench_decisions(
            args.decisions, args.positions, args.decision_seeds, args.oracle_sims, args.seed
        )
        return
    if args.quick:
        args.games, args.per_kingdom, args.latency_games = 20, 10, 1

    def make(seed: int, kind=Search) -> Search:
        return kind(
            args.budget,
            seed=seed,
            margin_weight=args.margin_weight,
            confidence=args.confidence,
            extend=args.extend,
        )

    print(
        f"cores: {os.cpu_count()}, numba threads: {numba.get_num_threads()}, "
        f"numba {numba.__version__}, numpy {np.__version__}"
    )
    if args.discards:
        bench_discards(lambda kind, seed: make(seed, kind), args.games, args.per_kingdom, args.seed)
        return
    bench_engine(20_000 if args.quick else 200_000)

    if args.latency_games > 0:  # 0: win rates only
        bench_latency(make, args.latency_games, args.seed)
    agent = None
    if "agent" in against and args.agent and importlib.util.find_spec("torch") is not None:
        from dominion_env.train import load_agent  # the train extra (torch)

        agent = load_agent(args.agent)
    bench_strength(make, args.games, args.per_kingdom, args.seed, agent, against)


if __name__ == "__main__":
    main()
