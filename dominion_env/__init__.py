"""dominion_env: a fast, faithful, vectorised Dominion environment for reinforcement learning.

    from dominion_env import Game, VecGame          # one game by names; N games in a batch
    import gymnasium; gymnasium.make("Dominion-v2", opponents="Big Money")   # registered here
    from dominion_env.envs import pettingzoo_env    # PettingZoo AEC; sb3_vec_env for SB3

Version 0.11.0 (``__version__``); what changed in each version: ``docs/changelog.md``.
"""

from . import envs as _envs  # noqa: F401,E402,I001  registers "Dominion-v2" with Gymnasium (cheap)
from .cards import NAMES as CARD_NAMES
from .cards import NUM_CARDS
from .engine.kingdoms import RECOMMENDED, random_kingdom
from .engine.layout import NUM_ACTIONS, NUM_OPTIONS, PASS
from .game import Game
from .vector import VecGame

__all__ = [
    "Game",
    "VecGame",
    "CARD_NAMES",
    "NUM_CARDS",
    "NUM_ACTIONS",
    "NUM_OPTIONS",
    "PASS",
    "RECOMMENDED",
    "random_kingdom",
]
__version__ = "0.11.0"
