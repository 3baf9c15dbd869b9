"""The strategy language: a bot is a priority list of gain rules with conditions.

    Bot("Big Money Ultimate", [
        ("Province", "money > 18"),
        ("Duchy", "pile Province <= 4"),
        ("Estate", "pile Province <= 2"),
        "Gold",
        ("Duchy", "pile Province <= 6"),
        "Silver",
    ])

A rule is a card name, or (card name, condition, condition, ...). On a buy or gain the bot takes
the first legal card whose conditions all hold (affordability is the mask's business: a rule
for Province simply never fires below $8). A condition is ``quantity [card] op number``:

    money            total $ of all its Treasures        count CARD   copies it owns
    pile CARD        cards left in that Supply pile      coins        $ available now
    turn             its turn number (1 = first)         cards        cards it owns
    empty_piles      empty Supply piles

with op one of < <= > >= == !=. Every other decision uses the engine's documented defaults
(``dominion_env.engine.bots``). ``compile_bots`` turns bots into one ``BotTable``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from dominion_env.cards import card_id
from dominion_env.engine.bots import (
    BOT_PRIORITY,
    BOT_RANDOM,
    MAX_CONDS,
    MAX_RULES,
    OP_SYMBOLS,
    QUANTITY_NAMES,
    RULE_WIDTH,
    BotTable,
)

_NEEDS_CARD = {"count", "pile"}
_COND = re.compile(r"^\s*([a-z_]+)\s*(.*?)\s*(<=|>=|==|!=|<|>)\s*(-?\d+)\s*$")


def parse_condition(text: str) -> tuple[int, int, int, int]:
    """'pile Province <= 4' -> (quantity, card arg, op, value)."""
    m = _COND.match(text)
    if not m:
        raise ValueError(f"cannot read condition {text!r}: expected 'quantity [card] op number', "
                         "e.g. 'money > 18' or 'pile Province <= 4'")
    q, card, op, value = m.groups()
    if q not in QUANTITY_NAMES or q == "none":
        raise ValueError(f"unknown quantity {q!r} in {text!r}; known: "
                         f"{', '.join(QUANTITY_NAMES[1:])}")
    if (q in _NEEDS_CARD) != bool(card):
        need = "needs a card name" if q in _NEEDS_CARD else "takes no card name"
        raise ValueError(f"quantity {q!r} {need}: {text!r}")
    arg = card_id(card) if card else 0
    return QUANTITY_NAMES.index(q), arg, OP_SYMBOLS.index(op), int(value)


@dataclass(frozen=True)
class Bot:
    """A named bot: a gain priority list, or ``random=True`` for uniform random play."""

    name: str
    rules: list = field(default_factory=list)
    random: bool = False
    source: str = ""  # whose definition it follows

    def compiled_rules(self) -> np.ndarray:
        out = np.zeros((MAX_RULES, RULE_WIDTH), np.int64)
        out[:, 0] = -1
        if len(self.rules) > MAX_RULES:
            raise ValueError(f"bot {self.name!r}: at most {MAX_RULES} rules")
        for i, rule in enumerate(self.rules):
            card, *conds = (rule,) if isinstance(rule, str) else tuple(rule)
            if len(conds) > MAX_CONDS:
                raise ValueError(f"bot {self.name!r}: at most {MAX_CONDS} conditions per rule")
            out[i, 0] = card_id(card)
            for k, text in enumerate(conds):
                out[i, 1 + 4 * k: 5 + 4 * k] = parse_condition(text)
        return out


def compile_bots(bots) -> BotTable:
    """One BotTable for a list of bots (bot id = position in the list)."""
    bots = list(bots)
    if not bots:
        raise ValueError("no bots given")
    kind = np.array([BOT_RANDOM if b.random else BOT_PRIORITY for b in bots], np.int64)
    rules = np.stack([b.compiled_rules() for b in bots])
    return BotTable(kind, rules)
