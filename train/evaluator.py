"""Renamed ``dominion_env.train.search_network`` (a trained agent as the guided search's network);
this name is kept for one release."""

import warnings

from .search_network import *  # noqa: F403

warnings.warn(
    "dominion_env.train.evaluator is now dominion_env.train.search_network",
    DeprecationWarning,
    stacklevel=2,
)
