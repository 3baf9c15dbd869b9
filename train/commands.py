"""Moved to ``dominion_env.commands`` (one module per command: ``train``, ``evaluate``,
``scorecard``, ``selfplay``); this name is kept for one release."""

import warnings

from ..commands.evaluate import add_parser as add_evaluate_parser
from ..commands.runs import RUN_FILES
from ..commands.scorecard import add_parser as add_scorecard_parser
from ..commands.selfplay import add_parser as add_selfplay_parser
from ..commands.train import DEFAULT_EVAL, FILE_FORMS
from ..commands.train import add_parser as add_train_parser

__all__ = [
    "DEFAULT_EVAL",
    "FILE_FORMS",
    "RUN_FILES",
    "add_evaluate_parser",
    "add_scorecard_parser",
    "add_selfplay_parser",
    "add_train_parser",
]

warnings.warn(
    "dominion_env.train.commands is now dominion_env.commands (one module per command)",
    DeprecationWarning,
    stacklevel=2,
)
