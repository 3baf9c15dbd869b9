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

with op one of < <= > >= == != and number a whole number of at most ``MAX_VALUE`` in size. Every
other decision uses the engine's documented defaults
(``dominion_env.engine.bots``). ``compile_bots`` turns bots into one ``BotTable``.

A ``Bot`` is checked when it is made: a non-empty name, rules that are card names or
(card, condition, ...) tuples of strings, ``random`` True or False (a random bot has no rules),
``source`` a string; anything else raises ValueError (TypeError for a wrong type) naming the
bot, the rule and what is allowed.

Bots can also be written in TOML (``load_bots(path)``; keys ``name``, ``rules``, ``random``
(true/false), ``source``; names are unique in a file, ignoring case)::

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
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, from PyPI (a dependency there)
    import tomli as tomllib

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
_COND = re.compile(r"^\s*([a-z_]+)\s*([A-Za-z][A-Za-z' ]*?)?\s*(<=|>=|==|!=|<|>)\s*(-?[0-9]+)\s*$")
# a condition's number: every quantity the language reads is far below this, and the compiled
# rule keeps it in an int64
MAX_VALUE = 10**9


def parse_condition(text: str) -> tuple[int, int, int, int]:
    """'pile Province <= 4' -> (quantity, card arg, op, value)."""
    if not isinstance(text, str):
        raise TypeError(f"a condition is a string such as 'money > 18', got {text!r}")
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
    if abs(int(value)) > MAX_VALUE:
        raise ValueError(
            f"number {value} in {text!r} is out of range: at most {MAX_VALUE:,} in size"
        )
    return QUANTITY_NAMES.index(q), arg, OP_SYMBOLS.index(op), int(value)


def _check_rule(rule, i: int, bot: str) -> None:
    """A rule is a card name or a non-empty tuple/list of strings (card, conditions...)."""
    parts = (rule,) if isinstance(rule, str) else rule
    if not isinstance(parts, (tuple, list)) or not parts:
        raise TypeError(
            f"bot {bot!r}, rule {i + 1}: expected a card name or (card, condition, ...), "
            f"got {rule!r}"
        )
    for x in parts:
        if not isinstance(x, str):
            raise TypeError(
                f"bot {bot!r}, rule {i + 1}: card and conditions are strings, got {x!r} in {rule!r}"
            )


@dataclass(frozen=True)
class Bot:
    """A named bot: a gain priority list, or ``random=True`` for uniform random play."""

    name: str
    rules: list = field(default_factory=list)
    random: bool = False
    source: str = ""  # whose definition it follows

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"a bot's name is a non-empty string, got {self.name!r}")
        if not isinstance(self.random, (bool, np.bool_)):
            raise TypeError(f"bot {self.name!r}: random must be True or False, got {self.random!r}")
        if not isinstance(self.source, str):
            raise TypeError(f"bot {self.name!r}: source must be a string, got {self.source!r}")
        if not isinstance(self.rules, (list, tuple)):
            raise TypeError(f"bot {self.name!r}: rules must be a list of rules, got {self.rules!r}")
        if self.random and self.rules:
            raise ValueError(f"bot {self.name!r}: a random bot takes no rules (random=True)")
        if not self.random and not self.rules:
            raise ValueError(f"bot {self.name!r}: no rules (give rules, or random=True)")
        for i, rule in enumerate(self.rules):
            _check_rule(rule, i, self.name)
        self.compiled_rules()  # unknown cards and bad conditions raise now, naming the bot

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


# TOML key -> (type, what the error says is allowed)
_TOML_KEYS = {
    "name": (str, "a non-empty string"),
    "rules": (list, "an array of rules"),
    "random": (bool, "true or false"),
    "source": (str, "a string"),
}


def _bot_from_dict(d, where: str) -> Bot:
    if not isinstance(d, dict):
        raise ValueError(f"{where}: expected a [[bot]] table, got {d!r}")
    unknown = set(d) - set(_TOML_KEYS)
    if unknown:
        raise ValueError(
            f"{where}: unknown key(s) {', '.join(sorted(unknown))}; "
            f"expected {', '.join(_TOML_KEYS)}"
        )
    if "name" not in d or not isinstance(d["name"], str) or not d["name"].strip():
        raise ValueError(f"{where}: every bot needs a name (a non-empty string)")
    for key, (kind, allowed) in _TOML_KEYS.items():
        if key in d and not isinstance(d[key], kind):
            raise ValueError(f"{where}, bot {d['name']!r}: {key} must be {allowed}, got {d[key]!r}")
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
    try:
        return Bot(d["name"], rules, random=d.get("random", False), source=d.get("source", ""))
    except (ValueError, TypeError) as e:
        raise ValueError(f"{where}: {e}") from None


def bots_from_toml(data, where: str = "TOML") -> list[Bot]:
    """Bots from a parsed TOML document (a dict with a ``bot`` array of tables); ``where``
    names the source in errors. Names must be unique, ignoring case."""
    bots = data.get("bot") if isinstance(data, dict) else None
    if not isinstance(bots, list) or not bots:
        raise ValueError(f"{where}: expected one or more [[bot]] tables")
    out = [_bot_from_dict(d, where) for d in bots]
    first: dict[str, int] = {}
    for i, b in enumerate(out):
        key = b.name.casefold()
        if key in first:
            raise ValueError(
                f"{where}: bot name {b.name!r} is used twice (bots {first[key] + 1} and "
                f"{i + 1}; names are compared ignoring case): give each bot its own name"
            )
        first[key] = i
    return out


def load_bots(path) -> list[Bot]:
    """Bots from a TOML file: a ``[[bot]]`` table per bot (see the module docstring)."""
    try:
        text = Path(path).read_text()
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: not a text file: {e}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path}: not valid TOML: {e}") from None
    return bots_from_toml(data, str(path))


def compile_table(bots) -> BotTable:
    """One BotTable for a list of ``Bot`` objects (bot id = position in the list)."""
    bots = list(bots)
    if not bots:
        raise ValueError("no bots given")
    kind = np.array([BOT_RANDOM if b.random else BOT_PRIORITY for b in bots], np.int64)
    rules = np.stack([b.compiled_rules() for b in bots])
    return BotTable(kind, rules)
