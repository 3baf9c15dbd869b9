"""How much of the paired noise the per-seat shuffle streams take out (engine v8), measured
beside the one shared stream of v5-v7 (``make_config(shared_stream=True)``) in one run.

    python bench/bench_streams.py                    # ~20 s on 2 cores (warm compile cache)
    python bench/bench_streams.py --decisions 60 --deals 128 --games 20000

Both figures are var(paired difference) / var(unpaired difference): 1.0 means pairing on the
same random numbers helps nothing, 0 means the comparison is free of luck.

(a) the search: decisions taken from real games (two bots playing a kingdom, every decision
    with two or more legal actions, a few per game); at each, two different root actions (the
    rollout bot's own choice and another legal one) are rolled out on the same deals (the
    search's own kernel, ``Search._simulate``: rows sharing an index share their deal and
    their bots' draws). Paired: var(v1 - v2) over the same deals; unpaired: var(v1) + var(v2).
    The ratio is pooled over the decisions (sums of variances).
(b) the optimizer's judging: two different bots each play the same opponent on the same game
    seeds (``analysis.arena.play_chunk`` as ``optimize.score`` plays them, seats alternating,
    the first player fixed); a game scores 1 won, 1/2 shared, 0 else. Paired: var(r1 - r2);
    unpaired: var(r1) + var(r2).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from dominion_env import Game
from dominion_env.agents import compile_bots
from dominion_env.analysis.arena import chunk_piece, play_chunk
from dominion_env.engine.config import make_config, make_setup
from dominion_env.engine.layout import TERMINATED
from dominion_env.search import Search

KINGDOM = "First Game"


def _game(seed: int, index: int, shared: bool) -> Game:
    g = Game(KINGDOM, 2, seed, game_index=index)
    if shared:  # as Game.replay deals a v5-v7 record
        g._vec.config = g._vec.config._replace(shared_stream=1)
        g.reset(seed, index)
    return g


def _roots(n: int, seed: int, shared: bool):
    """n decisions from bot games (Big Money vs Smithy), a few per game, each with
    two or more legal actions: (records, masks, cfg)."""
    table = compile_bots(["Big Money", "Smithy"])
    rng = np.random.default_rng(seed)
    states, masks, cfg = [], [], None
    index = 0
    while len(states) < n:
        g = _game(seed, index, shared)
        cfg = g._vec.config
        bot_rng = np.zeros(1, np.uint64) + np.uint64(index + 1)
        take = set(rng.choice(200, 6, replace=False).tolist())
        k = 0
        while not g.done and len(states) < n:
            if g.action_mask.sum() >= 2:
                if k in take:
                    states.append(g.state.copy())
                    masks.append(g.action_mask.copy())
                k += 1
            g.step(g.bot_action_id(table, g.current_player, bot_rng))
        index += 1
    return np.concatenate(states), np.array(masks), cfg


def search_ratio(decisions: int, deals: int, seed: int, shared: bool) -> tuple[float, int]:
    roots, masks, cfg = _roots(decisions, seed, shared)
    cfg = cfg._replace(log=0, log_buf=make_config(2).log_buf)
    s = Search(deals, rollout="Big Money", seed=seed)
    bots = s._rollout_bots(roots)
    R = roots.shape[0]
    default = s._defaults(roots, masks, bots, 0, cfg)
    rng = np.random.default_rng(seed + 1)
    other = np.array(
        [
            rng.choice(np.flatnonzero(masks[r] & (np.arange(masks.shape[1]) != default[r])))
            for r in range(R)
        ]
    )
    row_root = np.repeat(np.arange(R), deals)
    row_index = np.arange(R * deals, dtype=np.int64)  # deal j of decision r: its own number
    v1, _ = s._simulate(roots, row_root, default[row_root], row_index, bots[row_root], cfg)
    v2, _ = s._simulate(roots, row_root, other[row_root], row_index, bots[row_root], cfg)
    v1, v2 = v1.reshape(R, deals).astype(float), v2.reshape(R, deals).astype(float)
    paired = (v1 - v2).var(axis=1, ddof=1).sum()
    unpaired = (v1.var(axis=1, ddof=1) + v2.var(axis=1, ddof=1)).sum()
    return float(paired / unpaired), R


def judge_ratio(games: int, seed: int, shared: bool) -> float:
    table = compile_bots(["Smithy", "Council Room", "Big Money"])
    cfg = make_config(2, first_player=0, shared_stream=shared)
    setup = make_setup(2, KINGDOM)
    k = np.arange(games)
    results = []
    for b in (0, 1):
        seat_bot = np.full((games, 2), 2, np.int64)
        seat_bot[k, k % 2] = b
        seeds, numbers = np.full(games, seed, np.int64), np.arange(games, dtype=np.int64)
        piece = chunk_piece(setup, seeds, numbers, seat_bot, 0, games)
        reward, _, status = play_chunk(piece, bot_table=table, cfg=cfg, setup=setup)
        mine = reward[k, k % 2]
        results.append((mine == 1) + 0.5 * ((mine == 0) & (status == TERMINATED)))
    r1, r2 = results
    return float((r1 - r2).var(ddof=1) / (r1.var(ddof=1) + r2.var(ddof=1)))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=200, help="searched decisions (a)")
    ap.add_argument("--deals", type=int, default=128, help="deals per decision and action (a)")
    ap.add_argument("--games", type=int, default=50000, help="games per bot (b)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--quick",
        action="store_true",
        help="a small, fast run: checks the script works (figures not to cite)",
    )
    args = ap.parse_args(argv)
    if args.quick:
        args.decisions, args.deals, args.games = 4, 8, 500
    print(f"kingdom {KINGDOM}, 2 players, seed {args.seed}")
    print("var(paired diff) / var(unpaired diff); 1.0: pairing helps nothing, 0: noise-free")
    for name, shared in (("one shared stream (v5-v7)", True), ("per-seat streams (v8)", False)):
        t = time.perf_counter()
        a, R = search_ratio(args.decisions, args.deals, args.seed, shared)
        b = judge_ratio(args.games, args.seed, shared)
        print(
            f"{name:27s} (a) search, {R} decisions x {args.deals} deals: {a:.3f}   "
            f"(b) judging, {args.games} games: {b:.3f}   ({time.perf_counter() - t:.0f} s)"
        )


if __name__ == "__main__":
    main()
