"""Renamed ``dominion_env.train.experience`` (one rollout's storage and its advantages); this name
is kept for one release."""

import warnings

from .experience import *  # noqa: F403

warnings.warn(
    "dominion_env.train.rollout is now dominion_env.train.experience",
    DeprecationWarning,
    stacklevel=2,
)
