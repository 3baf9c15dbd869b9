"""``dominion play``: one game in the terminal against bots or trained agents, its record
saved at the end or when the player leaves; ``--resume`` goes on with such a game (the game
itself: ``dominion_env.play``)."""

from __future__ import annotations

import os
from pathlib import Path

from .. import play, records
from ..arguments import check_kingdom_option, writable_dir
from ..cards import MAX_PLAYERS
from ..checks import is_agent_file
from ..engine.kingdoms import kingdom_arg
from ..players import resolve_player
from .options import add_seed, add_turn_limit

DEFAULTS = {"opponent": None, "kingdom": "random", "seed": 0, "turn_limit": 100}


def add_parser(sub) -> None:
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
    add_seed(p, None, "the game's seed (default 0)")
    add_turn_limit(p, None, "turns per player (default 100)")
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
    p.set_defaults(run=run, check=check, parser=p)


def check(args) -> None:
    fixed = [f"--{k.replace('_', '-')}" for k in DEFAULTS if getattr(args, k) is not None]
    if args.resume is not None and fixed:
        args.parser.error(
            f"argument --resume: {', '.join(fixed)} cannot be given with --resume: the record "
            "fixes the opponents, kingdom, seed and turn limit"
        )
    if args.resume is not None and "\0" in args.resume:
        args.parser.error(f"argument --resume: no file {args.resume!r}: it holds a NUL character")
    for k, v in DEFAULTS.items():
        if getattr(args, k) is None:
            setattr(args, k, v)
    if args.record is None:
        args.record = args.resume or play.DEFAULT_RECORD
    if args.record:
        why = unwritable_record(args.record)
        if why:
            args.parser.error(f"argument --record: cannot write {args.record!r}: {why}")
    if args.resume is not None:
        _check_resume(args)  # last: it replays the game
    else:
        _check_opponents(args)


def _check_opponents(args) -> None:
    names = args.opponent or ["Big Money"]
    if len(names) > MAX_PLAYERS - 1:
        args.parser.error(
            f"argument --opponent: {len(names)} opponents; allowed: 1 to {MAX_PLAYERS - 1} "
            f"(one seat each beside yours)"
        )
    args.players = len(names) + 1
    check_kingdom_option(args)
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


def unwritable_record(record: str) -> str | None:
    """Why the record file ``record`` cannot be written, or None."""
    if "\0" in record:
        return "it holds a NUL character"
    path = Path(record)
    try:
        if path.is_dir():
            return "it is a folder"
        if path.exists() and not os.access(path, os.W_OK):
            return "the file is read-only"
        return writable_dir(path.parent)
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


def run(args) -> int:
    return play.run(args.opponents, args)
