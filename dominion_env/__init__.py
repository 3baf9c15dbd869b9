"""dominion_env: a fast, faithful, vectorised Dominion environment for reinforcement learning.

    from dominion_env import Game, VecGame
"""

from .cards import NAMES as CARD_NAMES
from .cards import NUM_CARDS
from .engine.layout import NUM_ACTIONS, NUM_OPTIONS, PASS
from .game import Game
from .kingdoms import RECOMMENDED, random_kingdom
from .vector import VecGame

from . import envs as _envs  # noqa: F401,E402,I001  registers "Dominion-v0" with Gymnasium (cheap)

__all__ = ["Game", "VecGame", "CARD_NAMES", "NUM_CARDS", "NUM_ACTIONS", "NUM_OPTIONS", "PASS",
           "RECOMMENDED", "random_kingdom"]
__version__ = "0.1.0"
