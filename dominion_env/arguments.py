"""The command line's argument types and checks, shared by the commands
(``dominion_env.commands``; the options built on them are declared in ``commands/options.py``).

An argparse type names the value and what is allowed (argparse adds the argument's name); a
check ends the command with argparse's error (exit status 2, one line) before any work starts.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from .analysis.arena import MAX_GAMES, MAX_TURN_LIMIT
from .cards import MAX_PLAYERS, MIN_PLAYERS
from .checks import MAX_SEED
from .engine.config import make_setup
from .engine.kingdoms import kingdom_arg


def int_in(low: int, high: int, why: str = ""):
    """An argparse type: a whole number in low..high."""

    def parse(text: str) -> int:
        try:
            value = int(text, 10)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a whole number; allowed: {low:,} to {high:,}{why}"
            ) from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{value:,} is out of range; allowed: {low:,} to {high:,}{why}"
            )
        return value

    parse.__name__ = "int"  # argparse names the type in some messages
    return parse


def number_in(low: float, high: float, why: str = ""):
    """An argparse type: a finite number in low..high (no nan, no inf)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not a number; allowed: {low:g} to {high:g}{why}"
            ) from None
        if not low <= value <= high:  # false for nan too
            raise argparse.ArgumentTypeError(
                f"{text} is out of range; allowed: a finite number {low:g} to {high:g}{why}"
            )
        return value

    parse.__name__ = "number"
    return parse


GAMES_ARG = int_in(1, MAX_GAMES, " (each game's result is kept in memory: run more seeds for more)")
SEED_ARG = int_in(0, MAX_SEED)
PLAYERS_ARG = int_in(MIN_PLAYERS, MAX_PLAYERS)
TURN_LIMIT_ARG = int_in(1, MAX_TURN_LIMIT, " turns per player")


def writable_dir(folder: Path) -> str | None:
    """Why files cannot be written into ``folder`` (created if missing), or None if they can.
    Nothing is created: the nearest existing folder above it takes a test file."""
    probe = folder
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        return f"{probe} is a file, not a folder"
    try:
        with tempfile.TemporaryFile(dir=probe):
            pass
    except OSError as e:
        return f"cannot write in {probe}: {e.strerror or e}"
    return None


def check_kingdom_option(args) -> None:
    """``args.kingdom`` fits ``args.players`` ('bots': the bots' own), else argparse's error."""
    if args.kingdom == "bots":
        return
    try:
        make_setup(args.players, kingdom_arg(args.kingdom))
    except ValueError as e:
        args.parser.error(f"argument --kingdom: {e}")
