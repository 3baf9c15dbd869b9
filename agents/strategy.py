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
    empty_piles      empty Supply piles                  hand CARD    copies in its hand now
    gains_to_end     fewest gains that end the game (Provinces left, or the smallest piles)
    vp               its score now                       vp_lead      score minus best other's
    action_cards / treasure_cards / victory_cards        cards of that type it owns

with op one of < <= > >= == !=. Every other decision uses the engine's documented defaults
(``dominion_env.engine.bots``). ``compile_bots`` turns bots into one ``BotTable``.

Bots can also be written in TOML (``load_bots(path)``)::

    [[bot]]
    name = "Smithy BM"
    source = "my own"
    rules = [
        ["Province", "money > 15"],
        "Gold",
        ["Smithy", "count Smithy < 1"],
        "Silver",
    ]
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np

from ..cards import BASIC, KINGDOM_SIZE, NAMES, card_id
from ..engine.bots import (
    BOT_PRIORITY,
    BOT_RANDOM,
    MAX_CONDS,
    MAX_RULES,
    OP_SYMBOLS,
    QUANTITY_NAMES,
    RULE_WIDTH,
    BotTable,
)

_NEEDS_CARD = {"count", "pile", "hand"}
_COND = re.compile(r"^\s*([a-z_]+)\s*([A-Za-z][A-Za-z' ]*?)?\s*(<=|>=|==|!=|<|>)\s*(-?\d+)\s*$")


def parse_condition(text: str) -> tuple[int, int, int, int]:
    """'pile Province <= 4' -> (quantity, card arg, op, value)."""
    m = _COND.match(text)
    if not m:
        raise ValueError(
            f"cannot read condition {text!r}: expected 'quantity [card] op number', "
            "e.g. 'money > 18' or 'pile Province <= 4'"
        )
    q, card, op, value = m.groups()
    if q not in QUANTITY_NAMES or q == "none":
        raise ValueError(
            f"unknown quantity {q!r} in {text!r}; known: {', '.join(QUANTITY_NAMES[1:])}"
        )
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
            try:
                out[i, 0] = card_id(card)
                for k, text in enumerate(conds):
                    out[i, 1 + 4 * k : 5 + 4 * k] = parse_condition(text)
            except ValueError as e:
                raise ValueError(f"bot {self.name!r}, rule {i + 1}: {e}") from None
        return out

    def kingdom_cards(self) -> list[str]:
        """The kingdom cards this bot's rules name (gain rules and conditions), in rule order."""
        out: list[str] = []
        for rule in self.rules:
            card, *conds = (rule,) if isinstance(rule, str) else tuple(rule)
            names = [NAMES[card_id(card)]]
            for text in conds:
                q, arg, _, _ = parse_condition(text)
                if QUANTITY_NAMES[q] in _NEEDS_CARD:
                    names.append(NAMES[arg])
            for n in names:
                if n not in BASIC and n not in out:
                    out.append(n)
        return out


# Fills a kingdom up to 10 cards after the bots' own cards: cards no bot buys unless it names
# them, chosen so that none of them is an Attack or changes anyone's game when left untouched.
FILLER = (
    "Village",
    "Woodcutter",
    "Great Hall",
    "Workshop",
    "Market",
    "Festival",
    "Laboratory",
    "Smithy",
    "Moat",
    "Harem",
    "Council Room",
    "Cellar",
    "Chapel",
    "Library",
    "Mine",
)


def kingdom_for(bots, filler=FILLER) -> list[str]:
    """A 10-card kingdom holding every card the bots name, filled up from ``filler``.

    Raises ValueError when the bots together need more than 10 kingdom cards."""
    need: list[str] = []
    for b in bots:
        need += [c for c in b.kingdom_cards() if c not in need]
    if len(need) > KINGDOM_SIZE:
        names = ", ".join(b.name for b in bots)
        raise ValueError(
            f"bots {names} together need {len(need)} kingdom cards "
            f"({', '.join(need)}); a kingdom holds {KINGDOM_SIZE}"
        )
    for c in filler:
        if len(need) == KINGDOM_SIZE:
            break
        if c not in need:
            need.append(c)
    return need


def _bot_from_dict(d: dict, where: str) -> Bot:
    unknown = set(d) - {"name", "rules", "random", "source"}
    if unknown:
        raise ValueError(
            f"{where}: unknown key(s) {', '.join(sorted(unknown))}; "
            "expected name, rules, random, source"
        )
    if "name" not in d or not isinstance(d["name"], str):
        raise ValueError(f"{where}: every bot needs a name (a string)")
    rules = []
    for i, rule in enumerate(d.get("rules", [])):
        if isinstance(rule, str):
            rules.append(rule)
        elif isinstance(rule, list) and rule and all(isinstance(x, str) for x in rule):
            rules.append(tuple(rule))
        else:
            raise ValueError(
                f"{where}, bot {d['name']!r}, rule {i + 1}: expected a card name or "
                f"[card, condition, ...], got {rule!r}"
            )
    bot = Bot(
        d["name"], rules, random=bool(d.get("random", False)), source=str(d.get("source", ""))
    )
    bot.compiled_rules()  # refuse unknown cards and bad conditions now, naming the bot
    return bot


def load_bots(path) -> list[Bot]:
    """Bots from a TOML file: a ``[[bot]]`` table per bot (see the module docstring)."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    from pathlib import Path

    text = Path(path).read_text()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path}: not valid TOML: {e}") from None
    bots = data.get("bot")
    if not isinstance(bots, list) or not bots:
        raise ValueError(f"{path}: expected one or more [[bot]] tables")
    return [_bot_from_dict(d, str(path)) for d in bots]


def compile_table(bots) -> BotTable:
    """One BotTable for a list of ``Bot`` objects (bot id = position in the list)."""
    bots = list(bots)
    if not bots:
        raise ValueError("no bots given")
    kind = np.array([BOT_RANDOM if b.random else BOT_PRIORITY for b in bots], np.int64)
    rules = np.stack([b.compiled_rules() for b in bots])
    return BotTable(kind, rules)
