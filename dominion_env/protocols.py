"""What a player is, as typing Protocols: the contract every face seats players by.

    ObservationPlayer   answers from observations: ``act(observations, masks) -> actions``
                        (one row per game) with ``name`` and ``scale_observations`` (whether it
                        wants the observation divided by ``obs_scale``); a trained agent
                        (``dominion_env.train.Agent``)
    GamePlayer          decides from the game itself: ``act_games(vec, rows) -> actions`` for
                        the rows ``rows`` of a ``VecGame`` (the search, ``dominion_env.search``)

A library bot is an ``agents.Bot``: compiled into a ``BotTable``, it plays inside the kernels.
``isinstance(x, GamePlayer)`` is how a face tells a search from an agent (a search also has the
observation face, so the game face is asked first).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class ObservationPlayer(Protocol):
    """A player that answers observations (a trained agent)."""

    name: str
    scale_observations: bool

    def act(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray: ...


@runtime_checkable
class GamePlayer(Protocol):
    """A player that decides from the game itself (the search)."""

    def act_games(self, vec, rows) -> np.ndarray: ...


def decides_from_game(player) -> bool:
    """Whether ``player`` decides from the game (``GamePlayer``) rather than an observation."""
    return isinstance(player, GamePlayer)
