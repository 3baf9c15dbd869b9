"""Renamed ``dominion_env.train.opponents`` (the learner's opponents: where its games come from);
this name is kept for one release."""

import warnings

from .opponents import *  # noqa: F403

warnings.warn(
    "dominion_env.train.seats is now dominion_env.train.opponents",
    DeprecationWarning,
    stacklevel=2,
)
