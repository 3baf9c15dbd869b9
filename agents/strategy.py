"""The strategy language: a bot is a priority list of gain rules, and play rules, with
conditions.

    Bot("Big Money Ultimate", [
        ("Province", "money > 18"),
        ("Duchy", "pile('Province') <= 4"),
        ("Estate", "pile('Province') <= 2"),
        "Gold",
        ("Duchy", "pile('Province') <= 6"),
        "Silver",
    ])

A rule is a target, or (target, condition, condition, ...), or a ``Rule`` (its data form). On a
decision the bot takes the first rule's target that is legal and whose conditions all hold
(affordability is the mask's business: a rule for Province simply never fires below $8). A
condition is an expression of the language (``agents.language``: comparisons of quantities,
arithmetic, ``and``, ``or``, ``not``; its docstring holds the table of quantities), e.g.
``count("Smithy") < treasure_cards / 11`` or ``0 < gains_to_end <= 5``; the older
``quantity [card] op number`` (``pile Province <= 4``) still reads.

Which decisions each list answers (a ``Bot`` field, a TOML key):

    rules    buys and gains                      target: a card
    play     which Action to play                target: a card, or PASS (play no more);
                                                 Throne Room's target keeps its default
    trash    what to trash                       target: a card, or PASS (stop, where optional)
    discard  what to discard                     target: a card, or PASS (stop, where optional)
    choose   the option of a card's choice       target: "Card option k" (options as the card's
                                                 module lists them, e.g. "Minion option 0" +$2)

Gain rules come after a card's own default for its gains (Swindler's pick); play rules come
before every default. Where no rule fires, or a bot has none for a decision, the engine's
documented defaults decide (``dominion_env.engine.bots``): a bot without play rules plays as
bots always did. ``compile_bots`` turns bots into one ``BotTable``.

A ``Bot`` is checked when it is made: a non-empty name, rules that are targets, (target,
condition, ...) tuples of strings or ``Rule`` objects, ``random`` True or False (a random bot has
no rules), ``source`` a string; anything else raises ValueError (TypeError for a wrong type)
naming the bot, the rule and what is allowed; a condition's error also gives the column and
the token (``language.LanguageError``). ``bot.parsed`` holds every list as ``Rule`` objects;
``bot.to_toml()`` writes the bot back. An optimizer works on that data form: it changes a
rule's constants (``language.with_numbers``) or tree and makes a new bot from ``Rule`` objects
(``Bot(name, [Rule("Smithy", tree), "Silver"], play=[...])``), never editing text.

Bots can also be written in TOML (``load_bots(path)``; keys ``name``, ``rules``, ``play``,
``trash``, ``discard``, ``choose``, ``random`` (true/false), ``source``; names are unique in a
file, ignoring case)::

    [[bot]]
    name = "Smithy BM"
    source = "my own"
    rules = [
        ["Province", "money > 15"],
        "Gold",
        ["Smithy", "count('Smithy') < 1 or count('Smithy') < treasure_cards / 11"],
        "Silver",
    ]
    choose = [["Minion option 0", "coins + 2 >= 6 or hand('Minion') > 0"]]
"""

from __future__ import annotations

import json
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
    R_LEN,
    R_PROG,
    R_SECTION,
    R_SOURCE,
    R_TARGET,
    RULE_WIDTH,
    BotTable,
)
from ..engine.effects import CARDS
from ..engine.layout import DEC_CHOOSE, NUM_OPTIONS, OPTION0, PASS
from .language import Expr, Logic, cards_named, compile_condition, parse, to_text

# cards that ask a DEC_CHOOSE decision: the sources a choose rule may name
_CHOOSERS = {code.name for code in CARDS if DEC_CHOOSE in code.decisions}
_OPTION = re.compile(r"^\s*(.+?)\s+option\s+([0-9]+)\s*$")
# Bot fields, in SECTION_NAMES order
RULE_SECTIONS = ("rules", "play", "trash", "discard", "choose")


@dataclass(frozen=True)
class Rule:
    """One rule in data form: take ``target`` when ``when`` holds (None: always).

    ``target`` is a card name or "PASS" (decline, where the decision allows it); in a choose
    rule it is "option k" and ``source`` names the card whose choice it answers. ``when`` is a
    ``language`` tree: an optimizer changes it with ``language.with_numbers`` or builds a new
    one, and ``text()`` writes the rule back as the language reads it."""

    target: str
    when: Expr | None = None
    source: str | None = None

    def target_text(self) -> str:
        return self.target if self.source is None else f"{self.source} {self.target}"

    def text(self):
        """The rule as a bot file writes it: the target, or [target, condition]."""
        if self.when is None:
            return self.target_text()
        return [self.target_text(), to_text(self.when)]

    def target_action(self) -> int:
        if self.target.upper() == "PASS":
            return PASS
        if self.source is not None:
            return OPTION0 + int(self.target.split()[1])
        return card_id(self.target)


def _read_rule(rule, section: str) -> Rule:
    """A rule as written (a target, (target, condition, ...), or a Rule) in data form."""
    if isinstance(rule, Rule):
        target, conds, source = rule.target, (), rule.source
        when = rule.when
    else:
        first, *conds = (rule,) if isinstance(rule, str) else tuple(rule)
        if len(conds) > MAX_CONDS:
            raise ValueError(f"at most {MAX_CONDS} conditions per rule (join more with 'and')")
        trees = [parse(c) for c in conds]
        when = trees[0] if len(trees) == 1 else (Logic("and", tuple(trees)) if trees else None)
        target, source = first, None
        if section == "choose":
            m = _OPTION.match(first)
            if not m:
                raise ValueError(
                    f"a choose rule's target is 'Card option k' (e.g. 'Minion option 0'), "
                    f"got {first!r}"
                )
            source, target = m.group(1), f"option {m.group(2)}"
    if section == "choose":
        if source is None or source not in _CHOOSERS:
            raise ValueError(
                f"{source!r} asks no option: a choose rule names one of "
                f"{', '.join(sorted(_CHOOSERS))}"
            )
        k = int(target.split()[1]) if re.fullmatch(r"option [0-9]+", target) else -1
        if not 0 <= k < NUM_OPTIONS:
            raise ValueError(
                f"option {target!r}: options are 'option 0' .. 'option {NUM_OPTIONS - 1}'"
            )
    else:
        if source is not None:
            raise ValueError(f"only choose rules name a source card, got {source!r}")
        if target.upper() != "PASS":
            card_id(target)
    compile_condition(when)  # too deep or too long raises now
    return Rule(target, when, source)


def _check_rule(rule, i: int, bot: str, section: str) -> None:
    """A rule is a target, a non-empty tuple/list of strings (target, conditions...), a Rule."""
    if isinstance(rule, Rule):
        return
    parts = (rule,) if isinstance(rule, str) else rule
    where = (
        f"bot {bot!r}, {section} rule {i + 1}"
        if section != "rules"
        else f"bot {bot!r}, rule {i + 1}"
    )
    if not isinstance(parts, (tuple, list)) or not parts:
        raise TypeError(f"{where}: expected a card name or (card, condition, ...), got {rule!r}")
    for x in parts:
        if not isinstance(x, str):
            raise TypeError(f"{where}: card and conditions are strings, got {x!r} in {rule!r}")


@dataclass(frozen=True)
class Bot:
    """A named bot: a gain priority list and play rules, or ``random=True`` for random play."""

    name: str
    rules: list = field(default_factory=list)
    random: bool = False
    source: str = ""  # whose definition it follows
    play: list = field(default_factory=list)  # which Action to play
    trash: list = field(default_factory=list)  # what to trash
    discard: list = field(default_factory=list)  # what to discard
    choose: list = field(default_factory=list)  # which option a card's choice takes
    parsed: dict = field(init=False, repr=False, compare=False)  # field -> list of Rule

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"a bot's name is a non-empty string, got {self.name!r}")
        if not isinstance(self.random, (bool, np.bool_)):
            raise TypeError(f"bot {self.name!r}: random must be True or False, got {self.random!r}")
        if not isinstance(self.source, str):
            raise TypeError(f"bot {self.name!r}: source must be a string, got {self.source!r}")
        for key in RULE_SECTIONS:
            if not isinstance(getattr(self, key), (list, tuple)):
                raise TypeError(
                    f"bot {self.name!r}: {key} must be a list of rules, got {getattr(self, key)!r}"
                )
        plays = any(getattr(self, k) for k in RULE_SECTIONS[1:])
        if self.random and (self.rules or plays):
            raise ValueError(f"bot {self.name!r}: a random bot takes no rules (random=True)")
        if not self.random and not self.rules:
            raise ValueError(f"bot {self.name!r}: no rules (give rules, or random=True)")
        parsed = {}
        for key in RULE_SECTIONS:
            out = []
            for i, rule in enumerate(getattr(self, key)):
                _check_rule(rule, i, self.name, key)
                where = f"rule {i + 1}" if key == "rules" else f"{key} rule {i + 1}"
                try:
                    out.append(_read_rule(rule, "gain" if key == "rules" else key))
                except (ValueError, TypeError) as e:
                    kind = TypeError if isinstance(e, TypeError) else ValueError
                    raise kind(f"bot {self.name!r}, {where}: {e}") from None
            parsed[key] = out
        total = sum(len(v) for v in parsed.values())
        if total > MAX_RULES - 1:
            raise ValueError(
                f"bot {self.name!r}: at most {MAX_RULES - 1} rules in all, got {total}"
            )
        object.__setattr__(self, "parsed", parsed)

    def compiled_rules(self) -> np.ndarray:
        """The bot's rows of ``BotTable.rules`` (layout in ``engine.bots``)."""
        out = np.zeros((MAX_RULES, RULE_WIDTH), np.int64)
        out[1:, R_TARGET] = -1
        row = 1
        for sec, key in enumerate(RULE_SECTIONS):
            out[0, 2 * sec] = row
            for rule in self.parsed[key]:
                prog = compile_condition(rule.when)
                out[row, R_TARGET] = rule.target_action()
                out[row, R_SECTION] = sec
                out[row, R_SOURCE] = card_id(rule.source) if rule.source else -1
                out[row, R_LEN] = len(prog)
                out[row, R_PROG : R_PROG + len(prog)] = prog
                row += 1
            out[0, 2 * sec + 1] = row
        return out

    def kingdom_cards(self) -> list[str]:
        """The kingdom cards this bot's rules name (targets, sources, conditions), in order."""
        out: list[str] = []
        for key in RULE_SECTIONS:
            for rule in self.parsed[key]:
                names = [] if rule.target.upper() == "PASS" or rule.source else [rule.target]
                names += [rule.source] if rule.source else []
                for n in names + cards_named(rule.when):
                    n = NAMES[card_id(n)]
                    if n not in BASIC and n not in out:
                        out.append(n)
        return out

    def describe(self) -> str:
        """The rules in one line per list, for people: 'Province if money > 18 > Gold ...'."""
        if self.random:
            return "uniform random"
        parts = []
        for key in RULE_SECTIONS:
            rules = [
                r.target_text() + (f" if {to_text(r.when)}" if r.when else "")
                for r in self.parsed[key]
            ]
            if rules:
                parts.append(("" if key == "rules" else f"{key}: ") + " > ".join(rules))
        return "\n".join(parts)

    def to_toml(self) -> str:
        """The bot as a ``[[bot]]`` table ``load_bots`` reads back to an equal bot."""
        lines = ["[[bot]]", f"name = {json.dumps(self.name)}"]
        if self.source:
            lines.append(f"source = {json.dumps(self.source)}")
        if self.random:
            lines.append("random = true")
        for key in RULE_SECTIONS:
            if self.parsed[key]:
                lines.append(f"{key} = [")
                lines += [f"    {json.dumps(r.text())}," for r in self.parsed[key]]
                lines.append("]")
        return "\n".join(lines) + "\n"


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
    "play": (list, "an array of rules"),
    "trash": (list, "an array of rules"),
    "discard": (list, "an array of rules"),
    "choose": (list, "an array of rules"),
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
    sections = {}
    for key in RULE_SECTIONS:
        rules = []
        for i, rule in enumerate(d.get(key, [])):
            if isinstance(rule, str):
                rules.append(rule)
            elif isinstance(rule, list) and rule and all(isinstance(x, str) for x in rule):
                rules.append(tuple(rule))
            else:
                name = "rule" if key == "rules" else f"{key} rule"
                raise ValueError(
                    f"{where}, bot {d['name']!r}, {name} {i + 1}: expected a card name or "
                    f"[card, condition, ...], got {rule!r}"
                )
        sections[key] = rules
    try:
        return Bot(d["name"], random=d.get("random", False), source=d.get("source", ""), **sections)
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
