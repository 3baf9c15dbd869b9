"""The ``dominion`` command line.

    dominion simulate "Big Money Ultimate" "Big Money" --games 100000
    dominion bots | dominion cards | dominion kingdoms
"""

from __future__ import annotations

import argparse
import sys
import time


def _simulate(args) -> int:
    from tqdm import tqdm

    from agents import compile_bots, get_bot

    from .arena import play_games, summarize

    names = args.bots
    if len(names) > args.players:
        raise SystemExit(f"{len(names)} bots do not fit at a {args.players}-player table")
    try:
        table = compile_bots([get_bot(n) for n in names])
    except ValueError as e:
        raise SystemExit(str(e)) from None
    kingdom = args.kingdom
    if kingdom != "random" and "," in kingdom:
        kingdom = [k.strip() for k in kingdom.split(",")]
    start = time.perf_counter()
    with tqdm(total=args.games, unit="game", desc="simulating", disable=args.quiet) as bar:
        try:
            res = play_games(table, args.games, args.players, kingdom, seed=args.seed,
                             turn_limit=args.turn_limit, progress=bar.update)
        except (ValueError, NotImplementedError) as e:
            raise SystemExit(str(e)) from None
    elapsed = time.perf_counter() - start
    rows = summarize(res, names)
    print(f"\n{args.games} games, {args.players} players, kingdom {args.kingdom!r}, seed "
          f"{args.seed}; every bot in every seat equally often; seat 0 starts")
    head = f"{'bot':<24}{'wins':>24}{'ties':>24}{'losses':>24}{'trunc.':>8}"
    print(head)
    print("-" * len(head))
    for r in rows:
        def cell(k, ci):
            return f"{r[k] / r['games']:7.2%} [{ci[0]:6.2%},{ci[1]:6.2%}]"
        print(f"{r['bot']:<24}{cell('wins', r['win_ci']):>24}{cell('ties', r['tie_ci']):>24}"
              f"{cell('losses', r['loss_ci']):>24}{r['truncated']:>8}")
    per_player = res.turns / args.players
    print(f"\nmean game length: {per_player.mean():.2f} turns per player "
          f"(sd {per_player.std():.2f}); [lo, hi] = 95% Wilson intervals")
    print(f"{args.games / elapsed:,.0f} games/s including compilation ({elapsed:.1f} s)")
    return 0


def _bots(args) -> int:
    from agents import BOTS

    for b in BOTS.values():
        rules = "uniform random" if b.random else " > ".join(
            r if isinstance(r, str) else f"{r[0]} if {' and '.join(r[1:])}" for r in b.rules)
        print(f"{b.name:<22} {rules}\n{'':<22} ({b.source})")
    return 0


def _cards(args) -> int:
    from .cards import COST, NAMES, SETS, TABLE, is_implemented, types_of

    for i, n in enumerate(NAMES):
        mark = "" if is_implemented(n) else "  (effect not implemented yet)"
        print(f"{i:>3} {n:<16} {SETS[i]:<10} ${TABLE[i, COST]}  {', '.join(types_of(n))}{mark}")
    return 0


def _kingdoms(args) -> int:
    from .kingdoms import RECOMMENDED

    for name, cards in RECOMMENDED.items():
        print(f"{name:<16} {', '.join(cards)}")
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="dominion", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play bots against each other in compiled code")
    sim.add_argument("bots", nargs="+", help="bot names (see `dominion bots`)")
    sim.add_argument("--games", type=int, default=100_000)
    sim.add_argument("--players", type=int, default=2)
    sim.add_argument("--kingdom", default="random",
                     help="'random', a recommended set name, or 10 comma-separated card names")
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--turn-limit", type=int, default=100)
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(run=_simulate)
    for name, fn, text in (("bots", _bots, "list the named bots"),
                           ("cards", _cards, "list the card table"),
                           ("kingdoms", _kingdoms, "list the recommended kingdoms")):
        sub.add_parser(name, help=text).set_defaults(run=fn)
    args = p.parse_args(argv)
    if getattr(args, "games", 1) < 1:
        p.error("--games must be at least 1")
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
