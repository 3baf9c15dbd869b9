"""The options several commands share, declared once, and the checks that go with them.

Each ``add_*`` function adds one option (or a family of options) to a command's parser with
the same name, type and bounds everywhere; the help text says what it means for that command
where that differs. Checks end the command through ``args.parser.error`` (exit status 2, one
line naming the argument, the value and what is allowed), before any game is played.
"""

from __future__ import annotations

from pathlib import Path

from ..analysis.arena import MAX_GAMES
from ..analysis.executor import executor_for
from ..arguments import GAMES_ARG, PLAYERS_ARG, SEED_ARG, TURN_LIMIT_ARG, writable_dir
from ..checks import check_agent_players
from ..players import resolve_player


def add_games(p, default, help: str) -> None:
    p.add_argument("--games", type=GAMES_ARG, default=default, help=help)


def add_players(p, default=2, help: str = "players per game, 2 to 6") -> None:
    p.add_argument("--players", type=PLAYERS_ARG, default=default, help=help)


def add_seed(p, default=0, help: str = "0 to 2**63-1") -> None:
    p.add_argument("--seed", type=SEED_ARG, default=default, help=help)


def add_turn_limit(p, default=100, help: str = "turns per player") -> None:
    p.add_argument("--turn-limit", type=TURN_LIMIT_ARG, default=default, help=help)


def add_quiet(p, help: str | None = "no progress bar") -> None:
    p.add_argument("--quiet", action="store_true", help=help)


def add_json(p, help: str) -> None:
    p.add_argument("--json", action="store_true", help=help)


def add_device(p, default, help: str) -> None:
    p.add_argument("--device", default=default, help=help)


def add_run_folder(p, out: str, resume_help: str, device_help: str) -> None:
    """A training run's folder and how it starts: --out, --name, --resume, --overwrite and
    --device (``train``, ``selfplay``; checked by ``runs.check_new_run``)."""
    p.add_argument("--out", default=out, help=f"the run's folder (default {out})")
    p.add_argument("--name", default=None, help="the agent's name (default: --out's folder)")
    p.add_argument("--resume", action="store_true", help=resume_help)
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="start a new run in an --out that already holds one (its files are replaced)",
    )
    add_device(p, None, device_help)


def add_match_options(p, games: int, games_help: str, bots_kingdom: str) -> None:
    """The options every command that plays bot games takes (simulate, tournament)."""
    add_games(p, games, games_help)
    add_players(p)
    p.add_argument(
        "--kingdom",
        default="bots",
        help=f"'bots' (default: {bots_kingdom}), 'random', a recommended set name, or 10 "
        "comma-separated card names",
    )
    add_seed(p)
    add_turn_limit(p)


def check_out_file(args, suffixes: tuple[str, ...], what: str) -> None:
    """--out, where given, names a file ending in one of ``suffixes`` in a folder that takes
    it (``what``: what the suffix means, said when it is wrong)."""
    if args.out is None:
        return
    path = Path(args.out)
    if path.suffix.lower() not in suffixes:
        args.parser.error(
            f"argument --out: {args.out!r} must end in {' or '.join(suffixes)} {what}"
        )
    why = "it is a folder" if path.is_dir() else writable_dir(path.parent)
    if why:
        args.parser.error(f"argument --out: cannot write {args.out!r}: {why}")


def executor(args):
    """Where the pieces of work run: here, or Ray tasks (``--ray [ADDRESS]``)."""
    try:
        return executor_for(args.ray)
    except ImportError as e:
        raise SystemExit(str(e)) from None


# ---------------------------------------------------------------------------------------------
# game records: --save-games
# ---------------------------------------------------------------------------------------------


def add_save_games(p, what: str) -> None:
    p.add_argument(
        "--save-games",
        nargs=2,
        metavar=("N", "DIR"),
        help=f"save {what} as game records (JSON, one file each) in DIR: re-played through "
        "Game after the batch run with the same seeds and bots and checked against it; view "
        "them with: dominion replay FILE",
    )


def check_save_games(args) -> None:
    """--save-games N DIR: N a whole number 1..MAX_GAMES, DIR a folder that takes files;
    ``args.save_games`` becomes (N, DIR)."""
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
    why = writable_dir(Path(folder))
    if why:
        args.parser.error(f"argument --save-games: {folder!r} cannot take the records: {why}")
    args.save_games = (n, folder)


def wrote_records(n: int, folder) -> None:
    print(f"wrote {n} game records to {folder}; view one with: dominion replay FILE [--html OUT]")


# ---------------------------------------------------------------------------------------------
# the players a command seats
# ---------------------------------------------------------------------------------------------


def resolve_players(args, names, file_bots=(), kingdom=None) -> list:
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
            p = resolve_player(name, file_bots=file_bots, kingdom=kingdom)
        except (ValueError, OSError) as e:
            args.parser.error(str(e))
        try:  # an agent, or a search it guides, plays its own table size only
            check_agent_players(p, args.players, "this run")
        except ValueError as e:
            args.parser.error(str(e))
        out.append(p)
    return out
