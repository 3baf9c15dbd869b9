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

Layout: each command is a module of ``dominion_env.commands`` (its parser, its checks, its
run); this module builds the parser from them (``build_parser``), parses and checks
(``parse_args``) and runs the chosen command (``main``). Player names resolve through
``dominion_env.players.resolve_player``, re-exported here.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys

from .commands import add_commands
from .extras import install_hint
from .players import resolve_player

__all__ = ["build_parser", "main", "parse_args", "resolve_player"]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="dominion", description=__doc__.split("\n")[0])
    add_commands(p.add_subparsers(dest="command", required=True))
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
