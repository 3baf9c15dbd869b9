"""``dominion tournament``: a round robin between bots (each table in every seat order): win
rates with 95% Wilson intervals, Bradley-Terry ratings, a table on stdout and CSV files and a
heatmap in ``--out`` (the work: ``analysis.tournament.run_tournament``)."""

from __future__ import annotations

import sys
from pathlib import Path

from .. import records
from ..agents import BOTS, load_bots
from ..analysis.arena import MAX_GAMES
from ..analysis.executor import add_ray_option
from ..analysis.planning import DEFAULT_MAX_TABLES
from ..analysis.tournament import run_tournament
from ..arguments import check_kingdom_option, int_in, writable_dir
from .options import (
    add_match_options,
    add_quiet,
    add_save_games,
    check_save_games,
    executor,
    resolve_players,
    wrote_records,
)

MAX_TABLES = 1_000_000  # far more tables than any tournament of distinct bots needs
TABLES = int_in(1, MAX_TABLES)


def add_parser(sub) -> None:
    tour = sub.add_parser(
        "tournament",
        help="round robin between bots: win-rate matrix, intervals, ratings",
        description="Round robin between bots (each table in every seat order): win rates with "
        "95% Wilson intervals, Bradley-Terry ratings (Elo scale), a table on "
        "stdout and winrates.csv, ratings.csv, tables.csv, heatmap.png in --out. "
        "Details: the docstring of dominion_env/analysis/tournament.py.",
    )
    tour.add_argument(
        "bots", nargs="*", help="bot names (ignoring case) or trained agents (see: dominion bots)"
    )
    tour.add_argument("--all", action="store_true", help="every bot in the library")
    tour.add_argument(
        "--bots-file",
        metavar="FILE.toml",
        help="add every bot in this TOML file (see dominion_env.agents.strategy); a bot named "
        "like a library bot replaces it",
    )
    add_match_options(
        tour,
        games=10_000,
        games_help=f"games per table, i.e. per pair at 2 players (default 10000, at most "
        f"{MAX_GAMES:,})",
        bots_kingdom="each table on a kingdom holding every card its bots name",
    )
    tour.add_argument(
        "--max-tables",
        type=TABLES,
        default=DEFAULT_MAX_TABLES,
        help="sample this many tables when there are more combinations",
    )
    tour.add_argument(
        "--out",
        default="tournament_out",
        help="folder for the CSV files and heatmap.png ('' to write nothing); checked before "
        "any game is played",
    )
    add_quiet(tour)
    add_save_games(tour, "the first N games of every table")
    add_ray_option(tour)
    tour.set_defaults(run=run, check=check, parser=tour)


def _file_bots(args) -> list:
    """The bots of --bots-file (none without it), or an argparse error."""
    if not args.bots_file:
        return []
    try:
        return load_bots(args.bots_file)
    except OSError as e:
        args.parser.error(f"argument --bots-file: cannot read {args.bots_file!r}: {e}")
    except ValueError as e:
        args.parser.error(f"argument --bots-file: {e}")


def check(args) -> None:
    file_bots = _file_bots(args)
    bots = resolve_players(args, args.bots, file_bots)
    have = {b.name.casefold() for b in bots}
    # then the file's other bots, then (--all) the library's bots not already there
    for b in [*file_bots, *(BOTS.values() if args.all else ())]:
        if b.name.casefold() not in have:
            bots.append(b)
            have.add(b.name.casefold())
    if not bots:
        args.parser.error("no bots: name some (see: dominion bots), or use --all or --bots-file")
    shadow = [b.name for b in file_bots if b.name.casefold() in {n.casefold() for n in BOTS}]
    if shadow and not args.quiet:
        print(f"{args.bots_file} redefines library bot(s): {', '.join(shadow)}", file=sys.stderr)
    args.players_resolved = bots
    check_kingdom_option(args)
    if args.out:
        why = writable_dir(Path(args.out))
        if why:
            args.parser.error(f"argument --out: {args.out!r} cannot take the results: {why}")
    check_save_games(args)


def run(args) -> int:
    kingdom = None if args.kingdom == "bots" else args.kingdom
    try:
        res = run_tournament(
            args.players_resolved,
            args.games,
            args.players,
            kingdom,
            args.seed,
            turn_limit=args.turn_limit,
            max_tables=args.max_tables,
            progress=not args.quiet,
            record_games=args.save_games[0] if args.save_games else 0,
            map=executor(args),
        )
    except (ValueError, TypeError) as e:  # e.g. fewer bots than seats, no playable table
        args.parser.error(str(e))
    print(res.report())
    if args.save_games:
        folder = args.save_games[1]
        for rec in res.records:
            name = f"table{rec['meta']['table']:04d}_game{rec['meta']['game']:05d}.json"
            records.save(rec, Path(folder) / name)
        wrote_records(len(res.records), folder)
    if args.out:
        paths = res.save(args.out)
        print(f"wrote {', '.join(str(p) for p in paths.values())}")
    return 0
