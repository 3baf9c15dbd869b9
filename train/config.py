"""Renamed ``dominion_env.train.settings`` (the trainer's settings: ``TrainConfig``, their
bounds and ``check_config``); this name is kept for one release."""

import warnings

from .settings import *  # noqa: F403

warnings.warn(
    "dominion_env.train.config is now dominion_env.train.settings",
    DeprecationWarning,
    stacklevel=2,
)
