"""Scripted bots: readable priority lists compiled to the arrays the engine's bot kernel reads.

    from agents import BOTS, Bot
    BOTS["Big Money Ultimate"]
"""

from .library import BOTS, get_bot
from .strategy import Bot, compile_bots, kingdom_for, load_bots

__all__ = ["BOTS", "Bot", "compile_bots", "get_bot", "kingdom_for", "load_bots"]
