"""The ``dominion`` command line.

dominion simulate "Big Money Ultimate" "Big Money" --games 100000
dominion tournament "Big Money" "Big Money Ultimate" Smithy --games 10000
dominion replay games/game00000.json --html game.html
dominion bots | dominion cards | dominion kingdoms
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

from tqdm import tqdm

from . import records
from .agents import BOTS, compile_bots, get_bot, kingdom_for, load_bots
from .analysis import replay
from .analysis.arena import play_games, record_games, summarize
from .analysis.mixed import is_policy, play_mixed
from .analysis.tournament import run_tournament
from .cards import COST, NAMES, SETS, TABLE, types_of
from .engine.kingdoms import RECOMMENDED, is_implemented, kingdom_arg


def _simulate(args) -> int:

    names = args.bots
    if len(names) > args.players:
        raise SystemExit(f"{len(names)} bots do not fit at a {args.players}-player table")
    try:
        players = [resolve_player(n) for n in names]
        bots = [p for p in players if not is_policy(p)]
        table = compile_bots(bots) if len(bots) == len(players) else None
    except ValueError as e:
        raise SystemExit(str(e)) from None
    kingdom = args.kingdom
    if kingdom == "bots":
        try:
            kingdom = kingdom_for(bots)
        except ValueError as e:
            raise SystemExit(str(e)) from None
    else:
        kingdom = kingdom_arg(kingdom)
    start = time.perf_counter()
    with tqdm(total=args.games, unit="game", desc="simulating", disable=args.quiet) as bar:
        try:
            if table is not None:
                res = play_games(
                    table,
                    args.games,
                    args.players,
                    kingdom,
                    seed=args.seed,
                    turn_limit=args.turn_limit,
                    progress=bar.update,
                )
            else:  # a trained agent at the table: policies answer their seats in batches
                res = play_mixed(
                    players,
                    args.games,
                    args.players,
                    kingdom,
                    seed=args.seed,
                    turn_limit=args.turn_limit,
                    progress=bar.update,
                )
        except (ValueError, NotImplementedError) as e:
            raise SystemExit(str(e)) from None
    elapsed = time.perf_counter() - start
    if args.save_games:
        if table is None:
            raise SystemExit(
                "--save-games records bot games only for now: a table with a trained agent "
                "is played in batches that a record cannot re-play yet"
            )
        n = min(args.save_games[0], args.games)
        meta = {"command": "simulate", "games": args.games}
        recs = record_games(
            table,
            names,
            res,
            range(n),
            args.players,
            kingdom,
            seed=args.seed,
            turn_limit=args.turn_limit,
            meta=meta,
        )
        _save_records(recs, args.save_games[1], "game")
    rows = summarize(res, names)
    shown = ", ".join(kingdom) if isinstance(kingdom, list) else repr(kingdom)
    print(
        f"\n{args.games} games, {args.players} players, kingdom {shown}, seed "
        f"{args.seed}; every bot in every seat equally often; seat 0 starts"
    )
    head = f"{'bot':<24}{'wins':>24}{'ties':>24}{'losses':>24}{'trunc.':>8}"
    print(head)
    print("-" * len(head))
    for r in rows:

        def cell(k, ci, r=r):
            return f"{r[k] / r['games']:7.2%} [{ci[0]:6.2%},{ci[1]:6.2%}]"

        print(
            f"{r['bot']:<24}{cell('wins', r['win_ci']):>24}{cell('ties', r['tie_ci']):>24}"
            f"{cell('losses', r['loss_ci']):>24}{r['truncated']:>8}"
        )
    per_player = res.turns / args.players
    print(
        f"\nmean game length: {per_player.mean():.2f} turns per player "
        f"(sd {per_player.std():.2f}); [lo, hi] = 95% Wilson intervals"
    )
    print(f"{args.games / elapsed:,.0f} games/s including compilation ({elapsed:.1f} s)")
    return 0


def _tournament(args) -> int:

    file_bots = []
    if args.bots_file:
        try:
            file_bots = load_bots(args.bots_file)
        except OSError as e:
            raise SystemExit(f"cannot read --bots-file: {e}") from None
        except ValueError as e:
            raise SystemExit(str(e)) from None
    by_name = {b.name: b for b in file_bots}  # a file's bot wins over a library bot's name
    chosen = list(args.bots) + (list(BOTS) if args.all else [])
    bots, seen = [], set()
    for name in chosen:
        if name in seen:
            continue
        try:
            bots.append(by_name[name] if name in by_name else resolve_player(name))
        except ValueError as e:
            raise SystemExit(str(e)) from None
        seen.add(name)
    for b in file_bots:
        if b.name not in seen:
            bots.append(b)
            seen.add(b.name)
    if file_bots and not args.quiet:
        shadow = [b.name for b in file_bots if b.name in BOTS]
        if shadow:
            print(
                f"{args.bots_file} redefines library bot(s): {', '.join(shadow)}", file=sys.stderr
            )
    if not bots:
        raise SystemExit("no bots: name some (see `dominion bots`), or use --all or --bots-file")
    kingdom = None if args.kingdom == "bots" else args.kingdom
    try:
        res = run_tournament(
            bots,
            args.games,
            args.players,
            kingdom,
            args.seed,
            turn_limit=args.turn_limit,
            max_tables=args.max_tables,
            progress=not args.quiet,
            record_games=args.save_games[0] if args.save_games else 0,
        )
    except (ValueError, TypeError, NotImplementedError) as e:
        raise SystemExit(str(e)) from None
    print(res.report())
    if args.save_games:
        by_table: dict[int, int] = {}
        for rec in res.records:
            t = rec["meta"]["table"]
            by_table[t] = by_table.get(t, 0) + 1
            rec_name = f"table{t:04d}_game{rec['meta']['game']:05d}"
            records.save(rec, Path(args.save_games[1]) / f"{rec_name}.json")
        print(
            f"wrote {len(res.records)} game records ({len(by_table)} tables) to "
            f"{args.save_games[1]}; view one with: dominion replay FILE [--html OUT.html]"
        )
    if args.out:
        paths = res.save(args.out)
        print(f"wrote {', '.join(str(p) for p in paths.values())}")
    return 0


def _save_records(recs, folder, stem) -> None:
    for rec in recs:
        records.save(rec, Path(folder) / f"{stem}{rec['meta']['game']:05d}.json")
    print(
        f"wrote {len(recs)} game records to {folder}; view one with: "
        f"dominion replay FILE [--html OUT.html]"
    )


def _replay(args) -> int:
    try:
        rec = records.load(args.record, check_version=not args.any_version)
        if args.html:
            path = replay.write_html(rec, args.html, check_version=not args.any_version)
            print(f"wrote {path}")
        else:
            print(replay.text(rec, args.viewer, check_version=not args.any_version), end="")
    except (records.RecordError, ValueError) as e:
        raise SystemExit(str(e)) from None
    return 0


def _save_games_arg(p, what: str) -> None:
    p.add_argument(
        "--save-games",
        nargs=2,
        metavar=("N", "DIR"),
        help=f"save {what} as game records (JSON, one file each) in DIR: re-played "
        "through Game after the batch run with the same seeds and bots and checked against "
        "it; view them with `dominion replay`",
    )


def _check_save_games(p, args) -> None:
    sg = getattr(args, "save_games", None)
    if sg is None:
        return
    try:
        n = int(sg[0])
    except ValueError:
        n = 0
    if n < 1:
        p.error(f"--save-games N DIR: N must be a positive int, got {sg[0]!r}")
    args.save_games = (n, sg[1])


def _bots(args) -> int:

    for b in BOTS.values():
        rules = (
            "uniform random"
            if b.random
            else " > ".join(
                r if isinstance(r, str) else f"{r[0]} if {' and '.join(r[1:])}" for r in b.rules
            )
        )
        print(f"{b.name:<22} {rules}\n{'':<22} ({b.source})")
    if importlib.util.find_spec("torch") is not None:
        from .train.policy import load_agent, shipped_agents  # optional extra (torch)

        for name in shipped_agents():
            info = load_agent(name).info
            trained = info.trained
            print(
                f"{name:<22} trained agent ({info.players} players; "
                f"{trained.get('steps', 0):,} learner steps, "
                f"{trained.get('minutes', 0):.0f} min): play it with its name anywhere "
                f"a bot goes in simulate, tournament and evaluate"
            )
    return 0


def _cards(args) -> int:

    for i, n in enumerate(NAMES):
        mark = "" if is_implemented(n) else "  (effect not implemented yet)"
        print(f"{i:>3} {n:<16} {SETS[i]:<10} ${TABLE[i, COST]}  {', '.join(types_of(n))}{mark}")
    return 0


def _kingdoms(args) -> int:

    for name, cards in RECOMMENDED.items():
        print(f"{name:<16} {', '.join(cards)}")
    return 0


def resolve_player(name: str):
    """A library bot by name, else a trained agent (a shipped agent's name or a .pt file)."""
    if name in BOTS:
        return get_bot(name)
    if importlib.util.find_spec("torch") is not None:
        from .train.policy import load_agent, shipped_agents  # optional extra (torch)

        if name in shipped_agents() or name.endswith(".pt"):
            return load_agent(name)
    return get_bot(name)  # raises: unknown bot, naming the known ones


def _add_training_commands(sub) -> None:
    """``train`` and ``evaluate`` need torch (the ``train`` extra): their module is imported
    only when one of them is asked for, so the other commands run without torch."""
    needs_torch = "needs the train extra: pip install torch==2.13.0 && pip install -e '.[train]'"
    if importlib.util.find_spec("torch") is None:
        for name in ("train", "evaluate"):
            sub.add_parser(name, help=needs_torch).set_defaults(
                run=lambda args: sys.exit(f"dominion {args.command} {needs_torch}")
            )
        return
    from .train import commands  # optional extra: see the docstring (test_architecture)

    commands.add_train_parser(sub)
    commands.add_evaluate_parser(sub)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="dominion", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    sim = sub.add_parser("simulate", help="play bots against each other in compiled code")
    sim.add_argument(
        "bots",
        nargs="+",
        help="bot names or trained agents: a shipped agent's name or a .pt file "
        "(see `dominion bots`)",
    )
    sim.add_argument("--games", type=int, default=100_000)
    sim.add_argument("--players", type=int, default=2)
    sim.add_argument(
        "--kingdom",
        default="bots",
        help="'bots' (default: a kingdom holding every card the bots name), "
        "'random', a recommended set name, or 10 comma-separated card names",
    )
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--turn-limit", type=int, default=100)
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    _save_games_arg(sim, "the first N games of the run")
    sim.set_defaults(run=_simulate)
    tour = sub.add_parser(
        "tournament",
        help="round robin between bots: win-rate matrix, intervals, ratings",
        description="Round robin between bots (each table in every seat order): win rates with "
        "95% Wilson intervals, Bradley-Terry ratings (Elo scale), a table on "
        "stdout and winrates.csv, ratings.csv, tables.csv, heatmap.png in --out. "
        "Details: the docstring of dominion_env/analysis/tournament.py.",
    )
    tour.add_argument("bots", nargs="*", help="bot names or trained agents (see `dominion bots`)")
    tour.add_argument("--all", action="store_true", help="every bot in the library")
    tour.add_argument(
        "--bots-file",
        metavar="FILE.toml",
        help="add every bot in this TOML file (see dominion_env.agents.strategy)",
    )
    tour.add_argument(
        "--games",
        type=int,
        default=10_000,
        help="games per table, i.e. per pair at 2 players (default 10000)",
    )
    tour.add_argument("--players", type=int, default=2, help="players per table, 2-6")
    tour.add_argument(
        "--kingdom",
        default="bots",
        help="'bots' (default: each table on a kingdom holding every card its "
        "bots name), 'random', a recommended set name, or 10 comma-separated "
        "card names",
    )
    tour.add_argument("--seed", type=int, default=0)
    tour.add_argument("--turn-limit", type=int, default=100)
    tour.add_argument(
        "--max-tables",
        type=int,
        default=2000,
        help="sample this many tables when there are more combinations",
    )
    tour.add_argument(
        "--out",
        default="tournament_out",
        help="folder for the CSV files and heatmap.png ('' to write nothing)",
    )
    tour.add_argument("--quiet", action="store_true", help="no progress bar")
    _save_games_arg(tour, "the first N games of every table")
    tour.set_defaults(run=_tournament)
    rep = sub.add_parser(
        "replay",
        help="show a game record: in the terminal, or as an HTML page (--html)",
        description="Replay a game record (see dominion_env/records.py), checking every "
        "decision: print it, or write one self-contained HTML page to step through it "
        "(dominion_env/analysis/replay.py).",
    )
    rep.add_argument("record", help="a game record (.json)")
    rep.add_argument("--html", metavar="OUT.html", help="write the viewer page here")
    rep.add_argument(
        "--viewer",
        type=int,
        default=None,
        help="terminal: show only what this seat may know (default: everything)",
    )
    rep.add_argument(
        "--any-version",
        action="store_true",
        help="replay a record from another engine version anyway",
    )
    rep.set_defaults(run=_replay)
    _add_training_commands(sub)
    for name, fn, text in (
        ("bots", _bots, "list the named bots"),
        ("cards", _cards, "list the card table"),
        ("kingdoms", _kingdoms, "list the recommended kingdoms"),
    ):
        sub.add_parser(name, help=text).set_defaults(run=fn)
    args = p.parse_args(argv)
    if getattr(args, "games", 1) < 1:
        p.error("--games must be at least 1")
    _check_save_games(p, args)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
