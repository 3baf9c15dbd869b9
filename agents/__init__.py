"""Scripted bots: readable priority lists compiled to the arrays the engine's bot kernel reads.

    from dominion_env.agents import BOTS, Bot, compile_bots
    BOTS["Big Money Ultimate"]
    VecGame(1024, opponents=compile_bots("Big Money"))   # the engine plays compiled tables

This folder is installed as ``dominion_env.agents`` (pyproject's package-dir): it sits above the
faces (Game, VecGame take compiled tables and never import it) and below analysis, envs and
training.
"""

from .language import LanguageError
from .library import (
    BOT_FILES,
    BOTS,
    STRENGTH_ORDER,
    as_bot,
    bot_action,
    compile_bots,
    file_bot,
    get_bot,
    is_bot_file,
    load_bot_file,
    strongest_bot_for,
    unknown_name,
)
from .strategy import Bot, Rule, bots_from_toml, compile_table, kingdom_for, load_bots

__all__ = [
    "BOT_FILES",
    "BOTS",
    "STRENGTH_ORDER",
    "Bot",
    "LanguageError",
    "Rule",
    "as_bot",
    "strongest_bot_for",
    "bot_action",
    "bots_from_toml",
    "compile_bots",
    "compile_table",
    "file_bot",
    "get_bot",
    "is_bot_file",
    "load_bot_file",
    "kingdom_for",
    "load_bots",
    "unknown_name",
]
