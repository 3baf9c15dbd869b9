"""The ``dominion`` command's subcommands, one module each (``dominion_env.cli`` parses and
runs them):

    simulate     bots against each other                     simulate.py
    tournament   a round robin between bots                  tournament.py
    replay       a game record, shown or as an HTML page     replay.py
    play         a game in the terminal                      play.py
    serve        play and watch in the browser (web extra)   serve.py
    optimize     evolve a bot for a kingdom                  optimize.py
    train        train an agent (train extra)                train.py, train_settings.py
    evaluate     an agent against library bots               evaluate.py
    scorecard    any player by one fixed protocol            scorecard.py
    selfplay     Expert Iteration on the guided search       selfplay.py
    bots, cards, kingdoms   listings                         listings.py

Each module has ``add_parser(sub)`` (the command's options and help), ``check(args)`` (every
argument checked before any work starts) and ``run(args) -> exit status``. Options several
commands take are declared once in ``options.py``; ``runs.py`` holds what ``train`` and
``selfplay`` share. The training commands need torch (the ``train`` extra): their modules are
imported only by ``add_training_commands`` when torch is there, so every other command runs
without it.
"""

from __future__ import annotations

import importlib.util
import sys

from ..extras import install_hint
from . import listings, optimize, play, replay, serve, simulate, tournament

# the commands that need torch, by module (imported only where torch is installed)
TRAINING = ("train", "evaluate", "scorecard", "selfplay")


def add_commands(sub) -> None:
    """Every command's parser, in the order ``dominion --help`` lists them."""
    for module in (simulate, tournament, replay, play, serve, optimize):
        module.add_parser(sub)
    add_training_commands(sub)
    listings.add_parsers(sub)


def add_training_commands(sub) -> None:
    """``train``, ``evaluate``, ``scorecard`` and ``selfplay``; without torch, each says
    which extra to install."""
    if importlib.util.find_spec("torch") is None:
        needs_torch = f"needs the train extra: {install_hint('torch')}"
        for name in TRAINING:
            sub.add_parser(name, help=needs_torch).set_defaults(
                run=lambda args: sys.exit(f"dominion {args.command} {needs_torch}")
            )
        return
    from . import evaluate, scorecard, selfplay, train  # the train extra (test_architecture)

    for module in (train, evaluate, scorecard, selfplay):
        module.add_parser(sub)
