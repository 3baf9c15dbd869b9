"""PettingZoo's naming convention (``from pettingzoo.classic import chess_v6``) for the AEC env:

    from dominion_env.envs import dominion_v1
    env = dominion_v1.env(players=3)

The same ``env`` and ``raw_env`` as ``pettingzoo_env`` (see its docstring).
"""

from .pettingzoo_env import VERSION, env, raw_env

__all__ = ["env", "raw_env", "VERSION"]
