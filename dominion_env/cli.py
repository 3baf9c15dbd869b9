"""The dominion command line.

    dominion simulate "Big Money Ultimate" "Big Money" --games 100000
    dominion simulate Smithy --players 4           # one bot: a mirror, Smithy in every seat
    dominion simulate Smithy "Big Money" --out results.json   # or .csv
    dominion tournament "Big Money" "Big Money Ultimate" Smithy --games 10000
    dominion simulate Smithy "Big Money" --save-games 5 games   # records of the first 5 games
    dominion replay games/game00000.json --html game.html
    dominion play --opponent "Big Money Ultimate" --kingdom "First Game"
    dominion serve                                  # play and watch in the browser
    dominion optimize --kingdom "First Game" --minutes 2 --out best.toml  # a bot for a kingdom
    dominion bots | dominion cards | dominion kingdoms

Arguments are checked before any game is played (``parse_args``): a bad one ends the command
with exit status 2 and a message naming the argument, the value and what is allowed. Bot names
are matched ignoring case, and an unknown one gets "did you mean" suggestions. The help texts
are plain text (no markup): ``tests/test_cli.py`` checks every command's ``--help``.

Ctrl-C ends any command with one line and exit status 130 (``train`` saves the run first); a
reader that closes stdout early (``dominion bots | head``) ends it quietly.

Layout: ``build_parser`` declares the commands (one ``_add_<command>`` function each),
``parse_args`` parses and checks, ``main`` runs the chosen command's ``_<command>`` function.

This file stays whole (over 800 lines): each command is one ``_add_<command>`` and one
``_<command>`` function over the same argument checks (``train`` and ``evaluate`` live in
``train/commands.py``: they need torch).
"""

from __future__ import annotations

import argparse
import csv
import importlib.util
import json
import math
import os
import socket
import sys
import time
from pathlib import Path

from tqdm import tqdm

from . import play, records
from .agents import BOTS, compile_bots, file_bot, get_bot, kingdom_for, load_bots, unknown_name
from .analysis import replay
from .analysis.arena import MAX_GAMES, play_games, record_games, summarize
from .analysis.executor import add_ray_option, executor_for
from .analysis.mixed import is_policy, play_mixed
from .analysis.optimize import MAX_GAMES_PER_PAIRING, MAX_GENERATIONS, TIME_SHARE, describe
from .analysis.optimize import optimize as run_optimize
from .analysis.planning import DEFAULT_MAX_TABLES
from .analysis.report import ci_fields
from .analysis.tournament import run_tournament
from .arguments import GAMES, PLAYERS, SEED, TURN_LIMIT
from .arguments import check_kingdom as _check_kingdom
from .arguments import int_in as _int_in
from .arguments import writable_dir as _writable_dir
from .cards import COST, MAX_PLAYERS, NAMES, SETS, TABLE, types_of
from .checks import AGENT_SUFFIXES, check_agent_players, is_agent_file
from .engine.config import make_setup
from .engine.kingdoms import RECOMMENDED, is_implemented, kingdom_arg
from .envs.ismcts import ISMCTS_FORM, parse_ismcts_name
from .extras import install_hint
from .names import printable
from .search import (
    DEFAULT_BUDGET,
    DEFAULT_EXTEND,
    DEFAULT_GUIDED_BUDGET,
    GUIDED_FORM,
    parse_search_name,
)

MAX_TABLES = 1_000_000  # far more tables than any tournament of distinct bots needs
SIMULATE_FORMATS = (".csv", ".json")

# ---------------------------------------------------------------------------------------------
# argument types: each names the value and what is allowed (argparse adds the argument's name)
# ---------------------------------------------------------------------------------------------


TABLES = _int_in(1, MAX_TABLES)

# ---------------------------------------------------------------------------------------------
# bot names
# ---------------------------------------------------------------------------------------------


def _agents():
    """(shipped agent names, load_agent), or ((), None) without the train extra."""
    if importlib.util.find_spec("torch") is None:
        return (), None
    from .train.policy import load_agent, shipped_agents  # optional extra (torch)

    return tuple(shipped_agents()), load_agent


def _load_network(agent: str):
    """The network of agent ``agent`` guiding a search (``search:AGENT:N``)."""
    if importlib.util.find_spec("torch") is None:
        raise ValueError(f"agent {agent!r}: trained agents need {install_hint('torch')}")
    from .train.evaluator import load_network  # optional extra (torch)

    return load_network(agent)


def resolve_player(name: str, file_bots=(), kingdom=None):
    """A bot of ``file_bots`` (first) or of the library, a strategy file's bot
    (``FILE.toml:BOT``, or ``FILE.toml`` on ``kingdom``'s cards: ``agents.file_bot``), a search
    (``search``, ``search:N``, ``search:AGENT:N``), else a trained agent (a shipped agent's name
    or an agent file); names are matched ignoring case. ValueError naming the closest known
    names otherwise."""
    key = name.casefold()
    for b in file_bots:
        if b.name.casefold() == key:
            return b
    from_file = file_bot(name, kingdom)
    if from_file is not None:
        return from_file
    if key in {n.casefold() for n in BOTS}:
        return get_bot(name)
    # "search", "search:N" or "search:AGENT:N" (dominion_env.search)
    searcher = parse_search_name(name, load_network=_load_network)
    if searcher is not None:
        return searcher
    ismcts = parse_ismcts_name(name)  # "ismcts" or "ismcts:N": OpenSpiel's ISMCTS
    if ismcts is not None:
        return ismcts
    agents, load_agent = _agents()
    if is_agent_file(name):
        if load_agent is None:
            raise ValueError(f"agent file {name!r}: trained agents need {install_hint('torch')}")
        return load_agent(name)
    for a in agents:
        if a.casefold() == key:
            return load_agent(a)
    known = [b.name for b in file_bots] + list(BOTS) + list(agents)
    known += ["search", GUIDED_FORM, ISMCTS_FORM, "FILE.toml:BOT"]
    raise ValueError(unknown_name("bot", name, known))


def _players(args, names, file_bots=(), kingdom=None):
    """Resolve ``names`` (each at most once, ignoring case) or end with an argparse error;
    ``kingdom``: the table's cards where fixed (a strategy file plays its bot for them)."""
    seen = {}
    out = []
    for name in names:
        if name.casefold() in seen:
            args.parser.error(
                f"bot {name!r} is named twice (as {seen[name.casefold()]!r}); name each bot "
                "once (simulate with one bot plays a mirror)"
            )
        seen[name.casefold()] = name
        try:
            p = resolve_player(name, file_bots, kingdom)
        except (ValueError, OSError) as e:
            args.parser.error(str(e))
        try:  # an agent, or a search it guides, plays its own table size only
            check_agent_players(p, args.players, "this run")
        except ValueError as e:
            args.parser.error(str(e))
        out.append(p)
    return out


# ---------------------------------------------------------------------------------------------
# output paths, checked before any game is played
# ---------------------------------------------------------------------------------------------


def _check_tournament_out(args) -> None:
    if not args.out:
        return
    why = _writable_dir(Path(args.out))
    if why:
        args.parser.error(f"argument --out: {args.out!r} cannot take the results: {why}")


def _check_simulate_out(args) -> None:
    if args.out is None:
        return
    path = Path(args.out)
    if path.suffix.lower() not in SIMULATE_FORMATS:
        args.parser.error(
            f"argument --out: {args.out!r} must end in {' or '.join(SIMULATE_FORMATS)} "
            "(the format follows the extension)"
        )
    why = "it is a folder" if path.is_dir() else _writable_dir(path.parent)
    if why:
        args.parser.error(f"argument --out: cannot write {args.out!r}: {why}")


# ---------------------------------------------------------------------------------------------
# simulate
# ---------------------------------------------------------------------------------------------


def seating(names: list[str], players: int) -> str:
    """How ``arena.seat_rotation`` seats ``names`` at a ``players`` table, in words."""
    if len(names) == 1:
        return f"mirror: {names[0]} in all {players} seats"
    per_game = [names[s % len(names)] for s in range(players)]
    return f"seats {', '.join(per_game)}, rotated one seat per game"


def _add_match_options(p, games: int, games_help: str, bots_kingdom: str) -> None:
    """The options every command that plays bot games takes (simulate, tournament)."""
    p.add_argument("--games", type=GAMES, default=games, help=games_help)
    p.add_argument("--players", type=PLAYERS, default=2, help="players per game, 2 to 6")
    p.add_argument(
        "--kingdom",
        default="bots",
        help=f"'bots' (default: {bots_kingdom}), 'random', a recommended set name, or 10 "
        "comma-separated card names",
    )
    p.add_argument("--seed", type=SEED, default=0, help="0 to 2**63-1")
    p.add_argument("--turn-limit", type=TURN_LIMIT, default=100, help="turns per player")


def _add_simulate(sub) -> None:
    sim = sub.add_parser(
        "simulate",
        help="play bots against each other in compiled code",
        description="Play bots (or trained agents) against each other. The bots fill the seats "
        "in the order given, repeated when there are fewer bots than players, rotated one seat "
        "per game so every bot sits in every seat equally often. One bot plays a mirror: "
        "every seat is that bot (the output says so). Seat 0 starts.",
    )
    sim.add_argument(
        "bots",
        nargs="+",
        help="bot names (ignoring case; see: dominion bots) or trained agents: a shipped "
        "agent's name or an agent file (.safetensors)",
    )
    _add_match_options(
        sim,
        games=100_000,
        games_help=f"1 to {MAX_GAMES:,}",
        bots_kingdom="a kingdom holding every card the bots name",
    )
    sim.add_argument(
        "--out",
        metavar="FILE",
        help="also write the results to FILE: CSV (FILE.csv, one row per bot) or JSON "
        "(FILE.json, the run's settings and one object per bot)",
    )
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_save_games(sim, "the first N games of the run")
    add_ray_option(sim)
    sim.set_defaults(run=_simulate, check=_check_simulate, parser=sim)


def _check_simulate(args) -> None:
    if len(args.bots) > args.players:
        args.parser.error(
            f"{len(args.bots)} bots do not fit at a {args.players}-player table "
            "(--players is 2 to 6)"
        )
    _check_kingdom(args)
    fixed = None if args.kingdom == "bots" else kingdom_arg(args.kingdom)
    players = _players(args, args.bots, kingdom=fixed)
    args.players_resolved = players
    bots = [p for p in players if not is_policy(p)]
    try:
        args.kingdom_value = (
            kingdom_for(bots) if args.kingdom == "bots" else kingdom_arg(args.kingdom)
        )
    except ValueError as e:  # the bots name more than 10 kingdom cards between them
        args.parser.error(str(e))
    _check_simulate_out(args)
    _check_save_games(args)
    if args.save_games and len(bots) != len(players):
        args.parser.error(
            "argument --save-games: records are kept of bot games only: a table with a trained "
            "agent is played in batches that a record does not re-play decision by decision"
        )


def _simulate(args) -> int:
    players = args.players_resolved
    names = [p.name if not is_policy(p) else n for p, n in zip(players, args.bots, strict=True)]
    bots = [p for p in players if not is_policy(p)]
    table = compile_bots(bots) if len(bots) == len(players) else None
    kingdom = args.kingdom_value
    if args.ray is not None and table is None:
        raise SystemExit("--ray plays bot-only matches; a trained agent's games play here")
    executor = _executor(args)
    start = time.perf_counter()
    with tqdm(total=args.games, unit="game", desc="simulating", disable=args.quiet) as bar:
        run = dict(seed=args.seed, turn_limit=args.turn_limit, progress=bar.update)
        try:
            if table is not None:
                res = play_games(table, args.games, args.players, kingdom, **run, map=executor)
            else:  # a trained agent at the table: policies answer their seats in batches
                res = play_mixed(players, args.games, args.players, kingdom, **run)
        except (ValueError, NotImplementedError) as e:  # e.g. an agent trained for 2 players
            args.parser.error(str(e))
    elapsed = time.perf_counter() - start
    if args.save_games:
        n, folder = args.save_games
        recs = record_games(
            table,
            names,
            res,
            range(min(n, args.games)),
            args.players,
            kingdom,
            seed=args.seed,
            turn_limit=args.turn_limit,
            meta={"command": "simulate", "games": args.games},
        )
        for rec in recs:
            records.save(rec, Path(folder) / f"game{rec['meta']['game']:05d}.json")
        _wrote_records(len(recs), folder)
    rows = summarize(res, names)
    shown = ", ".join(kingdom) if isinstance(kingdom, list) else repr(kingdom)
    print(
        f"\n{args.games} games, {args.players} players, kingdom {shown}, seed {args.seed}\n"
        f"{printable(seating(names, args.players))}; seat 0 starts"
    )
    head = f"{'bot':<24}{'wins':>24}{'ties':>24}{'losses':>24}{'trunc.':>8}"
    print(head)
    print("-" * len(head))
    for r in rows:

        def cell(k, ci, r=r):
            return f"{r[k] / r['games']:7.2%} [{ci[0]:6.2%},{ci[1]:6.2%}]"

        print(
            f"{printable(r['bot']):<24}{cell('wins', r['win_ci']):>24}"
            f"{cell('ties', r['tie_ci']):>24}{cell('losses', r['loss_ci']):>24}{r['truncated']:>8}"
        )
    per_player = res.turns / args.players
    print(
        f"\nmean game length: {per_player.mean():.2f} turns per player "
        f"(sd {per_player.std():.2f}); [lo, hi] = 95% Wilson intervals"
    )
    print(f"{args.games / elapsed:,.0f} games/s including compilation ({elapsed:.1f} s)")
    if args.out:
        run = {
            "games": args.games,
            "players": args.players,
            "kingdom": kingdom,
            "seed": args.seed,
            "turn_limit": args.turn_limit,
            "seating": seating(names, args.players),
            "mean_turns_per_player": float(per_player.mean()),
        }
        write_results(args.out, run, rows)
        print(f"wrote {args.out}")
    return 0


def write_results(path, run: dict, rows: list[dict]) -> None:
    """``simulate``'s results: JSON ({run settings, "bots": rows}) or CSV (one row per bot,
    the settings repeated on each), by the file's extension."""
    flat = []
    for r in rows:
        row = {k: v for k, v in r.items() if not k.endswith("_ci")}
        for k in ("win", "tie", "loss"):
            row.update(ci_fields(k, r[f"{k}_ci"]))
        flat.append(row)
    path = Path(path)
    if path.suffix.lower() == ".json":
        path.write_text(json.dumps({**run, "bots": flat}, indent=1) + "\n")
        return
    kingdom = run["kingdom"]
    settings = {**run, "kingdom": ", ".join(kingdom) if isinstance(kingdom, list) else kingdom}
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=[*flat[0], *settings])
        w.writeheader()
        w.writerows({**row, **settings} for row in flat)


# ---------------------------------------------------------------------------------------------
# tournament
# ---------------------------------------------------------------------------------------------


def _add_tournament(sub) -> None:
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
    _add_match_options(
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
    tour.add_argument("--quiet", action="store_true", help="no progress bar")
    _add_save_games(tour, "the first N games of every table")
    add_ray_option(tour)
    tour.set_defaults(run=_tournament, check=_check_tournament, parser=tour)


def _check_tournament(args) -> None:
    file_bots = []
    if args.bots_file:
        try:
            file_bots = load_bots(args.bots_file)
        except OSError as e:
            args.parser.error(f"argument --bots-file: cannot read {args.bots_file!r}: {e}")
        except ValueError as e:
            args.parser.error(f"argument --bots-file: {e}")
    bots = _players(args, args.bots, file_bots)
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
    _check_kingdom(args)
    _check_tournament_out(args)
    _check_save_games(args)


def _tournament(args) -> int:
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
            map=_executor(args),
        )
    except (ValueError, TypeError) as e:  # e.g. fewer bots than seats, no playable table
        args.parser.error(str(e))
    print(res.report())
    if args.save_games:
        folder = args.save_games[1]
        for rec in res.records:
            name = f"table{rec['meta']['table']:04d}_game{rec['meta']['game']:05d}.json"
            records.save(rec, Path(folder) / name)
        _wrote_records(len(res.records), folder)
    if args.out:
        paths = res.save(args.out)
        print(f"wrote {', '.join(str(p) for p in paths.values())}")
    return 0


# ---------------------------------------------------------------------------------------------
# where the work runs (--ray), listings, training commands
# ---------------------------------------------------------------------------------------------


def _executor(args):
    """Where the pieces of work run: here, or Ray tasks (``--ray [ADDRESS]``)."""
    try:
        return executor_for(args.ray)
    except ImportError as e:
        raise SystemExit(str(e)) from None


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
    print(
        f"{'search[:N]':<22} search player: at most N simulations per decision (default "
        f"{DEFAULT_BUDGET}; up to {DEFAULT_EXTEND:g} x N more on close calls), library bots "
        f"as rollouts\n"
        f"{'':<22} (dominion_env.search; "
        "plays anywhere a bot goes: simulate, tournament, evaluate, play, the Gymnasium env)"
    )
    print(
        f"{GUIDED_FORM:<22} search guided by trained agent AGENT (its policy as the prior, "
        f"its value at the\n{'':<22} leaves; at most N simulations per decision, e.g. "
        f"search:ppo-pool:{DEFAULT_GUIDED_BUDGET};\n{'':<22} the train extra; plays where "
        "search does)"
    )
    agents, load_agent = _agents()
    for name in agents:
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


def _add_listings(sub) -> None:
    for name, fn, text in (
        ("bots", _bots, "list the named bots and the shipped trained agents"),
        ("cards", _cards, "list the card table"),
        ("kingdoms", _kingdoms, "list the recommended kingdoms"),
    ):
        sub.add_parser(name, help=text, description=text).set_defaults(run=fn)


def _add_training_commands(sub) -> None:
    """``train``, ``evaluate``, ``scorecard`` and ``selfplay`` need torch (the ``train``
    extra): their module is imported only when one of them is asked for, so the other commands
    run without torch."""
    if importlib.util.find_spec("torch") is None:
        needs_torch = f"needs the train extra: {install_hint('torch')}"
        for name in ("train", "evaluate", "scorecard", "selfplay"):
            sub.add_parser(name, help=needs_torch).set_defaults(
                run=lambda args: sys.exit(f"dominion {args.command} {needs_torch}")
            )
        return
    from .train import commands  # optional extra: see the docstring (test_architecture)

    commands.add_train_parser(sub)
    commands.add_evaluate_parser(sub)
    commands.add_scorecard_parser(sub)
    commands.add_selfplay_parser(sub)


# ---------------------------------------------------------------------------------------------
# game records: --save-games and replay
# ---------------------------------------------------------------------------------------------


def _add_save_games(p, what: str) -> None:
    p.add_argument(
        "--save-games",
        nargs=2,
        metavar=("N", "DIR"),
        help=f"save {what} as game records (JSON, one file each) in DIR: re-played through "
        "Game after the batch run with the same seeds and bots and checked against it; view "
        "them with: dominion replay FILE",
    )


def _check_save_games(args) -> None:
    if args.save_games is None:
        return
    n, folder = args.save_games
    try:
        n = int(n, 10)
    except ValueError:
        n = 0
    if not 1 <= n <= MAX_GAMES:
        args.parser.error(
            f"argument --save-games: N must be a whole number 1 to {MAX_GAMES:,}, "
            f"got {args.save_games[0]!r}"
        )
    why = _writable_dir(Path(folder))
    if why:
        args.parser.error(f"argument --save-games: {folder!r} cannot take the records: {why}")
    args.save_games = (n, folder)


def _wrote_records(n: int, folder) -> None:
    print(f"wrote {n} game records to {folder}; view one with: dominion replay FILE [--html OUT]")


def _add_replay(sub) -> None:
    rep = sub.add_parser(
        "replay",
        help="show a game record: in the terminal, or as an HTML page (--html)",
        description="Replay a game record (dominion_env/records.py), checking every decision: "
        "print it, or write one self-contained HTML page to step through it "
        "(dominion_env/analysis/replay.py).",
    )
    rep.add_argument("record", help="a game record (.json)")
    rep.add_argument("--html", metavar="OUT.html", help="write the viewer page here")
    rep.add_argument(
        "--viewer",
        type=_int_in(0, MAX_PLAYERS - 1),
        default=None,
        help="terminal: show only what this seat may know (default: everything)",
    )
    rep.add_argument(
        "--any-version",
        action="store_true",
        help="replay a record from another engine version anyway",
    )
    rep.set_defaults(run=_replay, parser=rep)


def _replay(args) -> int:
    check = not args.any_version
    try:
        rec = records.load(args.record, check_version=check)
        if args.html:
            print(f"wrote {replay.write_html(rec, args.html, check_version=check)}")
        else:
            print(replay.text(rec, args.viewer, check_version=check), end="")
    except (records.RecordError, ValueError, OSError) as e:
        args.parser.error(str(e))
    return 0


# ---------------------------------------------------------------------------------------------
# play (the game itself: dominion_env/play.py)
# ---------------------------------------------------------------------------------------------


def _add_play(sub) -> None:
    p = sub.add_parser(
        "play",
        help="play a game in the terminal against bots or trained agents",
        description="Play one game of Dominion in the terminal, in seat P0, against one bot or "
        "trained agent per --opponent (2 to 6 players). You see only what the rules let you "
        "know; answer each decision with a number or a name, 'help CARD' for a card's text. "
        "The game's record is saved at the end, and also when you leave early (quit, Ctrl-C, "
        "end of input); --resume RECORD goes on with such a game (see dominion_env/play.py).",
    )
    p.add_argument(
        "--opponent",
        action="append",
        metavar="BOT_OR_AGENT",
        help="a bot name, a shipped agent's name or an agent file (.safetensors); once per seat, "
        f"1 to {MAX_PLAYERS - 1} (default: one Big Money)",
    )
    p.add_argument(
        "--kingdom",
        help="'random' (default), a recommended set name, or 10 comma-separated card names",
    )
    p.add_argument("--seed", type=SEED, help="the game's seed (default 0)")
    p.add_argument("--turn-limit", type=TURN_LIMIT, help="turns per player (default 100)")
    p.add_argument(
        "--record",
        help=f"where to write the game's record (default {play.DEFAULT_RECORD}, or the "
        "--resume file; '' for none)",
    )
    p.add_argument(
        "--resume",
        metavar="RECORD",
        help="go on with the unfinished game of this record (opponents, kingdom, seed and turn "
        "limit are the record's)",
    )
    p.set_defaults(run=_play, check=_check_play, parser=p)


PLAY_DEFAULTS = {"opponent": None, "kingdom": "random", "seed": 0, "turn_limit": 100}


def _check_play(args) -> None:
    fixed = [f"--{k.replace('_', '-')}" for k in PLAY_DEFAULTS if getattr(args, k) is not None]
    if args.resume is not None and fixed:
        args.parser.error(
            f"argument --resume: {', '.join(fixed)} cannot be given with --resume: the record "
            "fixes the opponents, kingdom, seed and turn limit"
        )
    if args.resume is not None and "\0" in args.resume:
        args.parser.error(f"argument --resume: no file {args.resume!r}: it holds a NUL character")
    for k, v in PLAY_DEFAULTS.items():
        if getattr(args, k) is None:
            setattr(args, k, v)
    if args.record is None:
        args.record = args.resume or play.DEFAULT_RECORD
    if args.record:
        why = _unwritable_record(args.record)
        if why:
            args.parser.error(f"argument --record: cannot write {args.record!r}: {why}")
    if args.resume is not None:
        _check_resume(args)  # last: it replays the game
        return
    names = args.opponent or ["Big Money"]
    if len(names) > MAX_PLAYERS - 1:
        args.parser.error(
            f"argument --opponent: {len(names)} opponents; allowed: 1 to {MAX_PLAYERS - 1} "
            f"(one seat each beside yours)"
        )
    args.players = len(names) + 1
    _check_kingdom(args)
    args.opponents = []
    for name in names:  # the same bot may take several seats
        try:
            args.opponents.append(resolve_player(name, kingdom=kingdom_arg(args.kingdom)))
        except (ValueError, OSError) as e:
            args.parser.error(f"argument --opponent: {e}")
    try:
        play.check_opponents(args.opponents)
    except (ValueError, TypeError) as e:
        args.parser.error(f"argument --opponent: {e}")
    args.files = [n if is_agent_file(n) else None for n in names]  # kept in the record


def _unwritable_record(record: str) -> str | None:
    """Why the record file ``record`` cannot be written, or None."""
    if "\0" in record:
        return "it holds a NUL character"
    path = Path(record)
    try:
        if path.is_dir():
            return "it is a folder"
        if path.exists() and not os.access(path, os.W_OK):
            return "the file is read-only"
        return _writable_dir(path.parent)
    except OSError as e:  # a name too long, a folder that cannot be read ...
        return e.strerror or str(e)


def _check_resume(args) -> None:
    """The --resume record read, its opponents resolved and its game replayed to the last
    decision (``args.resume_table``), or an argparse error."""
    try:
        rec = records.load(args.resume)
        names = play.resume_names(rec)
    except (records.RecordError, ValueError) as e:
        args.parser.error(f"argument --resume: {args.resume!r}: {e}")
    args.opponents = []
    for name in names:
        try:
            args.opponents.append(resolve_player(name))
        except (ValueError, OSError) as e:
            args.parser.error(f"argument --resume: {args.resume!r}: an opponent of the record: {e}")
    try:
        args.resume_table = play.resume(rec, args.opponents)
    except (ValueError, TypeError) as e:  # RecordError and ReplayMismatch are ValueErrors
        args.parser.error(f"argument --resume: {args.resume!r} does not replay: {e}")
    except KeyboardInterrupt:
        print("\ninterrupted while replaying the record; nothing changed")
        raise SystemExit(130) from None


def _play(args) -> int:
    return play.run(args.opponents, args)


# ---------------------------------------------------------------------------------------------
# serve (play and watch in the browser: dominion_env/web)
# ---------------------------------------------------------------------------------------------

DEFAULT_RECORDS = "dominion_games"


def _add_serve(sub) -> None:
    p = sub.add_parser(
        "serve",
        help="play and watch games in the browser (the web extra)",
        description="Serve a page to play bots and trained agents, watch them play each other "
        "and open the records of past games in the replay viewer (see dominion_env/web). "
        "It listens on 127.0.0.1 (this machine only) unless --host says otherwise; an "
        "address other machines can reach needs --public.",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1); a loopback one (127.0.0.0/8, ::1, "
        "localhost) answers only pages that name this machine",
    )
    p.add_argument(
        "--public",
        action="store_true",
        help="allow a --host other machines can reach (0.0.0.0, a LAN address): anyone who "
        "reaches it can start and play games and open the records",
    )
    p.add_argument("--port", type=_int_in(1, 65535), default=8000, help="port (default 8000)")
    p.add_argument(
        "--records",
        metavar="DIR",
        default=DEFAULT_RECORDS,
        help=f"folder for every finished or abandoned game's record (default {DEFAULT_RECORDS})",
    )
    p.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="FILE.safetensors",
        help="a saved agent to offer beside the bots and shipped agents (repeatable)",
    )
    p.set_defaults(run=_serve, check=_check_serve, parser=p)


def _check_serve(args) -> None:
    for module in ("starlette", "uvicorn"):
        if importlib.util.find_spec(module) is None:
            args.parser.error(f"dominion serve needs {module}: {install_hint(module)}")
    try:
        infos = socket.getaddrinfo(args.host, args.port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        args.parser.error(f"argument --host: {args.host!r} is not an address here: {e}")
    from .web.app import loopback  # starlette is there (checked above)

    if not args.public and not loopback(args.host):
        args.parser.error(
            f"argument --host: {args.host!r} is not a loopback address (127.0.0.0/8, ::1, "
            "localhost): other machines could reach the server; add --public to serve them"
        )
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:  # in use or not ours: say so now
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(address)
        except OSError as e:
            args.parser.error(f"cannot listen on {args.host} port {args.port}: {e.strerror or e}")
    why = _writable_dir(Path(args.records))
    if why:
        args.parser.error(f"argument --records: {args.records!r} cannot take the records: {why}")
    args.saved = {}  # loaded now: a bad file ends the command before the server starts
    for path in args.agent:
        if not is_agent_file(path):
            args.parser.error(
                f"argument --agent: {path!r} is not an agent file's name (it ends with "
                f"{' or '.join(AGENT_SUFFIXES)})"
            )
        try:
            args.saved[path] = resolve_player(path)
        except (ValueError, OSError) as e:
            args.parser.error(f"argument --agent: {e}")


def _serve(args) -> int:
    from .web import serve  # optional extra: see _check_serve (test_architecture)

    agents, _ = _agents()
    # the search player at its default budget and at a quicker one (dominion_env.search),
    # and guided by the 2-player agent at its default budget
    guided = [f"search:ppo-pool:{DEFAULT_GUIDED_BUDGET}"] if "ppo-pool" in agents else []
    known = list(BOTS) + list(agents) + ["search", "search:200", *guided] + list(args.saved)

    def resolve(name: str):
        return args.saved[name] if name in args.saved else resolve_player(name)

    try:
        serve(resolve, known, args.records, args.host, args.port, public=args.public)
    except KeyboardInterrupt:
        pass
    return 0


# ---------------------------------------------------------------------------------------------
# optimize
# ---------------------------------------------------------------------------------------------

MAX_MINUTES = 7 * 24 * 60  # a week


def _minutes(text: str) -> float:
    """An argparse type: minutes of wall time, a number > 0 and at most a week."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= MAX_MINUTES:  # NaN fails too
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of minutes; allowed: more than 0, at most {MAX_MINUTES:,}"
        )
    return value


def _add_optimize(sub) -> None:
    opt = sub.add_parser(
        "optimize",
        help="search for a strong bot for a kingdom (evolution of bots in the strategy language)",
        description="Evolve bots for a kingdom: a population of bots in the strategy language, "
        "mutated and scored in compiled games against the best bots of earlier generations and "
        "the kingdom's strongest library bots. Prints the best bot in words and its record "
        "against the kingdom's library bots on games the search never saw. The same seed and "
        "number of generations give the same bot. Details: the docstring of "
        "dominion_env/analysis/optimize.py.",
    )
    opt.add_argument(
        "--kingdom",
        help="'random' (drawn from --seed), a recommended set name, or 10 comma-separated card "
        "names (default random)",
    )
    opt.add_argument(  # the form before --kingdom, kept so that old scripts run
        "kingdom_positional",
        nargs="?",
        metavar="KINGDOM",
        help="the same as --kingdom (older form)",
    )
    opt.add_argument("--players", type=PLAYERS, default=2, help="players per game, 2 to 6")
    opt.add_argument(
        "--minutes",
        type=_minutes,
        help="wall time for the whole search (default 2 when --generations is not given)",
    )
    opt.add_argument(
        "--generations",
        type=_int_in(1, MAX_GENERATIONS),
        help="stop after this many generations (with --minutes: whichever comes first)",
    )
    opt.add_argument("--seed", type=SEED, default=0, help="0 to 2**63-1")
    opt.add_argument(
        "--judge-games",
        type=_int_in(1, MAX_GAMES_PER_PAIRING),
        default=1000,
        help="games of the best bot against each library bot, on fresh seeds (default 1000)",
    )
    opt.add_argument(
        "--out",
        metavar="FILE.toml",
        help="write the best bot as TOML (read by tournament --bots-file)",
    )
    opt.add_argument("--quiet", action="store_true", help="no progress bar")
    add_ray_option(opt)
    opt.set_defaults(run=_optimize, check=_check_optimize, parser=opt)


def _check_optimize(args) -> None:
    if args.kingdom is not None and args.kingdom_positional is not None:
        args.parser.error(
            f"argument --kingdom: given twice ({args.kingdom!r} and {args.kingdom_positional!r} "
            "before the options); give --kingdom only"
        )
    if args.kingdom is None:
        args.kingdom = "random" if args.kingdom_positional is None else args.kingdom_positional
    try:
        kingdom = kingdom_arg(args.kingdom)
        if kingdom != "random":
            make_setup(args.players, kingdom)
    except (ValueError, TypeError, NotImplementedError) as e:
        args.parser.error(f"argument --kingdom: {e}")
    args.kingdom_value = kingdom
    if args.minutes is None and args.generations is None:
        args.minutes = 2.0
    if args.out is not None:
        path = Path(args.out)
        if path.suffix.lower() != ".toml":
            args.parser.error(f"argument --out: {args.out!r} must end in .toml (a bot file)")
        why = "it is a folder" if path.is_dir() else _writable_dir(path.parent)
        if why:
            args.parser.error(f"argument --out: cannot write {args.out!r}: {why}")


def _optimize(args) -> int:
    executor = _executor(args)
    by_time = args.generations is None
    total = round(args.minutes * 60 * TIME_SHARE) if by_time else args.generations
    with tqdm(
        total=total, unit="s" if by_time else "gen", desc="optimizing", disable=args.quiet
    ) as bar:

        def progress(row):
            bar.set_postfix(gen=row["generation"], best=f"{row['best_score']:.3f}")
            bar.update(min(round(row["elapsed"]), total) - bar.n if by_time else 1)

        res = run_optimize(
            args.kingdom_value,
            args.players,
            args.minutes,
            args.seed,
            generations=args.generations,
            judge_games=args.judge_games,
            map=executor,
            progress=progress,
        )
    print(
        f"\nkingdom {', '.join(res.kingdom)}; {res.players} players; seed {res.seed}\n"
        f"{res.generations} generations, {res.games:,} games in {res.seconds:.1f} s\n\n"
        f"{res.best.name}:\n{describe(res.best)}\n"
    )
    head = f"{'against':<24}{'wins':>24}{'ties':>8}{'losses':>8}{'games':>8}"
    print(head)
    print("-" * len(head))
    for r in res.record:
        lo, hi = r["win_ci"]
        mark = " (strongest)" if r["bot"] == res.strongest else ""
        win = f"{r['win_rate']:7.2%} [{lo:6.2%},{hi:6.2%}]"
        print(
            f"{r['bot'] + mark:<24}{win:>24}{r['ties'] / r['games']:>8.2%}"
            f"{r['losses'] / r['games']:>8.2%}{r['games']:>8}"
        )
    print("fresh games (seeds the search never used); [lo, hi] = 95% Wilson interval")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(res.to_toml())
        print(f"wrote {args.out} (dominion tournament --bots-file reads it)")
    return 0


# ---------------------------------------------------------------------------------------------
# entry points
# ---------------------------------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="dominion", description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    _add_simulate(sub)
    _add_tournament(sub)
    _add_replay(sub)
    _add_play(sub)
    _add_serve(sub)
    _add_optimize(sub)
    _add_training_commands(sub)
    _add_listings(sub)
    return p


def parse_args(argv=None) -> argparse.Namespace:
    """Parse and check ``argv`` (bot names resolved, output paths tested) without playing a
    game; a bad argument exits with status 2 and a message (argparse's ``error``)."""
    args = build_parser().parse_args(argv)
    if getattr(args, "ray", None) is not None and importlib.util.find_spec("ray") is None:
        # before any work, with the usage error's status 2 (a missing extra is bad input to
        # this machine's install, not a failure halfway through a run)
        args.parser.error(f"argument --ray: Ray is not installed: {install_hint('ray')}")
    check = getattr(args, "check", None)
    if check is not None:
        check(args)
    return args


def main(argv=None) -> int:
    """Run the command; Ctrl-C ends it with one line and status 130 (the shell's 128 + SIGINT),
    a reader that closes our stdout early (``dominion bots | head``) silently with status 1."""
    try:
        args = parse_args(argv)
        code = args.run(args)
        sys.stdout.flush()  # a closed pipe shows here, not at exit
        return code
    except KeyboardInterrupt as e:
        print(f"dominion: {str(e) or 'interrupted'}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # Python's docs, "Note on SIGPIPE": point stdout at devnull so that the flush at exit
        # does not raise again
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):  # a stdout with no file (tests)
            pass
        return 1


if __name__ == "__main__":
    sys.exit(main())
