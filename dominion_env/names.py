"""Names for actions, decisions and log events, for people: logs, errors, notebooks.

``log_lines(events, viewer=None)`` turns the engine's event rows (``Game.log_events()``, or
the first ``LOG_LEN`` rows of a ``Config.log_buf``: (n, 5) ints, event, player, card, amount,
seen) into readable lines. ``viewer=None`` is the perfect-information log: every card of every
event ("P1 draws 3 x Copper, Estate"). ``viewer=p`` is what player p may know under the rules:
the cards of events p does not see are left out ("P1 draws 5 cards", "P1 discards 3 cards" at
clean-up, "P1 puts a card onto the deck" for a Courtyard), everything public (plays, buys,
gains, trashes, reveals, a discard of one card) reads as in the full log. A discard of several
cards (Cellar, Militia ...) reads as its count and its top card, the last line: "P1 discards 2
cards", "P1 discards Copper" (``engine/zones.py``, ``SEEN_TOP``).

``action_label(a, kind, source)`` says what an action does in a pending decision: "trash
Copper", "+1 Card +1 Buy" (an option: ``OPTION_TEXT``), "end the turn" (PASS: ``PASS_TEXT``);
``Game.decision`` lists the legal actions with these labels.

``printable(name)`` is a name read from a file (an agent's, a checkpoint's, a strategy file's bot,
a record's player) as the terminal may print it: control characters, escape sequences, line
breaks and other unprintable characters as visible escapes (``\\x1b``, ``\\n``, ``\\u202e``),
so that a file cannot move the cursor, recolour the screen or forge lines of output.
``check_name(what, value)`` refuses such a name where a file's field is one (an agent's name).
"""

from __future__ import annotations

import numpy as np

from .cards import MAX_PLAYERS, NAMES, NUM_CARDS, card_id
from .engine.layout import (
    COST_ANY_HI,
    EV_BUY,
    EV_DECIDE,
    EV_DISCARD,
    EV_DRAW,
    EV_END,
    EV_GAIN,
    EV_LOOK,
    EV_PASS,
    EV_PHASE,
    EV_PLAY,
    EV_REACT,
    EV_REVEAL,
    EV_SET_ASIDE,
    EV_SHUFFLE,
    EV_TOPDECK,
    EV_TRASH,
    EV_TURN,
    NUM_ACTIONS,
    OPTION0,
    PASS,
    PHASE_NAMES,
    TERMINATED,
)


class IllegalActionError(ValueError):
    """An action out of range or not allowed by the mask. Raised by ``VecGame.step``, the one
    check every face goes through (Game, the Gymnasium and PettingZoo envs), before any game
    moves: no game of the batch is half stepped. ``game`` and ``action`` name the first one
    (game -1: an index out of range, refused before it reaches any game)."""

    def __init__(self, message: str, game: int, action: int):
        super().__init__(message)
        self.game = game
        self.action = action


def printable(name) -> str:
    """``name`` with every unprintable character (``str.isprintable``; a space stays) as its
    escape, ``repr`` without the quotes: what the terminal prints of a name read from a file."""
    text = str(name)
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)


def check_name(what: str, value) -> str:
    """``value`` if it is a non-empty string of printable characters (spaces allowed), else a
    TypeError/ValueError naming ``what``, the value (escaped) and what is allowed."""
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string, got {value!r} ({type(value).__name__})")
    if not value or not all(c.isprintable() or c == " " for c in value):
        raise ValueError(
            f"{what} must be a non-empty string of printable characters (no control "
            f"characters or line breaks), got {value!r}"
        )
    return value


def action_name(a: int) -> str:
    """'Village' for a card index, 'option 2' for an option, 'PASS' for the last index."""
    a = int(a)
    if 0 <= a < NUM_CARDS:
        return NAMES[a]
    if OPTION0 <= a < PASS:
        return f"option {a - OPTION0}"
    if a == PASS:
        return "PASS"
    raise IllegalActionError(f"action {a} out of range 0..{NUM_ACTIONS - 1}", -1, a)


def action_index(name) -> int:
    """Inverse of ``action_name`` (also accepts an int index)."""
    if isinstance(name, (int, np.integer)) and not isinstance(name, bool):
        action_name(name)
        return int(name)
    if not isinstance(name, str):
        raise TypeError(f"an action is a card name, 'option k', 'PASS' or an index; got {name!r}")
    if name.upper() in ("PASS", "DONE", "NO"):
        return PASS
    if name.startswith("option"):
        k = name[len("option") :].strip()
        if not (k.isascii() and k.isdigit()) or not 0 <= int(k) < PASS - OPTION0:
            raise ValueError(
                f"no action {name!r}: options are 'option 0' .. 'option {PASS - OPTION0 - 1}'"
            )
        return OPTION0 + int(k)
    return card_id(name)


def legal_action_names(mask_row: np.ndarray) -> list[str]:
    return [action_name(a) for a in np.flatnonzero(mask_row)]


# What "option k" means, by the card whose decision asks it (``engine/base_cards.py`` and
# ``intrigue_cards.py`` list the same in their docstrings; tests/test_play.py checks that every
# card asking a DEC_CHOOSE decision has its row here).
OPTION_TEXT: dict[str, tuple[str, ...]] = {
    "Vassal": ("play it",),
    "Library": ("set it aside",),
    "Sentry": ("trash it", "discard it", "keep it"),
    "Chancellor": ("put your deck into your discard pile",),
    "Spy": ("discard it", "put it back"),
    "Thief": ("gain the trashed card",),
    "Pawn": (
        "+1 Card +1 Action",
        "+1 Card +1 Buy",
        "+1 Card +$1",
        "+1 Action +1 Buy",
        "+1 Action +$1",
        "+1 Buy +$1",
    ),
    "Steward": ("+2 Cards", "+$2", "trash 2 cards from your hand"),
    "Mining Village": ("trash it for +$2",),
    "Minion": ("+$2", "discard your hand, +4 Cards; others with 5+ cards do the same"),
    "Torturer": ("discard 2 cards", "gain a Curse to your hand"),
    "Nobles": ("+3 Cards", "+2 Actions"),
}

# What PASS means, by the pending decision's kind (layout.DECISION_NAMES)
PASS_TEXT: dict[str, str] = {
    "play_action": "end the Action phase",
    "play_treasure": "stop playing Treasures",
    "buy": "end the turn",
    "react": "reveal nothing",
    "choose": "no",
    "play_twice": "play nothing",
    "gain": "gain nothing",
}


# What choosing a card does, by the pending decision's kind ("{}" is the card's name)
CARD_TEXT: dict[str, str] = {
    "play_action": "play {}",
    "play_treasure": "play {}",
    "buy": "buy {}",
    "gain": "gain {}",
    "trash": "trash {}",
    "discard": "discard {}",
    "topdeck": "put {} onto the deck",
    "react": "reveal {}",
    "play_twice": "play {} twice",
    "name": "name {}",
    "pass_card": "pass {} to the left",
    "order": "put {} back next",
}


def action_label(a: int, decision_kind: str, source: str | None) -> str:
    """What action ``a`` does in the pending decision, in words: "trash Copper", "+1 Card
    +1 Buy" (Pawn's option 1, from ``OPTION_TEXT``), "end the turn" (PASS in the Buy phase).
    An option with no text for ``source`` reads as its name ("option 0")."""
    name = action_name(a)
    if OPTION0 <= a < PASS:
        labels = OPTION_TEXT.get(source or "", ())
        k = a - OPTION0
        return labels[k] if k < len(labels) else name
    if a == PASS:
        return PASS_TEXT.get(decision_kind, "done")
    return CARD_TEXT.get(decision_kind, "{}").format(name)


def describe_action(a: int, decision_kind: str, source: str | None) -> str:
    """``action_name`` for people: what an option or PASS does in the pending decision."""
    name = action_name(a)
    if OPTION0 <= a < PASS:
        label = action_label(a, decision_kind, source)
        return name if label == name else f"{name}: {label}"
    if a == PASS:
        return f"PASS ({action_label(a, decision_kind, source)})"
    return name


# events whose amount counts cards, so that repeats add up
_COUNTED = frozenset(
    {
        EV_DRAW,
        EV_PLAY,
        EV_BUY,
        EV_GAIN,
        EV_TRASH,
        EV_DISCARD,
        EV_TOPDECK,
        EV_REVEAL,
        EV_SET_ASIDE,
        EV_LOOK,
        EV_PASS,
    }
)
_VERBS = {
    EV_DRAW: "draws",
    EV_PLAY: "plays",
    EV_BUY: "buys",
    EV_GAIN: "gains",
    EV_TRASH: "trashes",
    EV_DISCARD: "discards",
    EV_TOPDECK: "puts onto the deck",
    EV_REVEAL: "reveals",
    EV_REACT: "reveals in reaction",
    EV_SET_ASIDE: "sets aside",
    EV_LOOK: "looks at",
    EV_PASS: "passes",
}
HIDDEN = -1  # the card of an event the viewer does not see


def log_lines(events, viewer: int | None = None) -> list[str]:
    """Readable lines of log events (n, 5) (event, player, card, amount, seen), as ``viewer``
    may know them; ``viewer=None``: the perfect-information log, every card shown.

    Repeats of one event in a row (a player drawing, playing, discarding ... the same card one
    at a time; for a viewer, any cards it does not see) are one line with their total:
    "P0 plays 4 x Copper", "P1 draws 5 cards"."""
    if viewer is not None and (
        not isinstance(viewer, (int, np.integer))
        or isinstance(viewer, (bool, np.bool_))
        or not 0 <= viewer < MAX_PLAYERS
    ):
        raise ValueError(f"viewer must be None or a player 0..{MAX_PLAYERS - 1}, got {viewer!r}")
    events = np.asarray(events)
    if events.ndim != 2 or events.shape[1] != 5:
        raise ValueError(f"events must be (n, 5) rows, got shape {events.shape}")
    rows: list[list[int]] = []
    for row in events:
        ev, p, card, amount, seen = map(int, row)
        if ev == EV_DECIDE:  # the record of an answer (Game.decisions), not an event to show
            continue
        if viewer is not None and card >= 0 and not (seen >> viewer) & 1:
            card = HIDDEN
        if rows and ev in _COUNTED and rows[-1][:3] == [ev, p, card]:
            rows[-1][3] += amount
        else:
            rows.append([ev, p, card, amount])
    return [event_text(*row) for row in rows]


def event_text(ev: int, p: int, card: int, amount: int) -> str:
    """One event as a line; ``card`` HIDDEN: the cards are not shown, only how many."""
    who = f"P{p}"
    if ev == EV_TURN:
        return f"--- turn {amount}: {who} ---"
    if ev == EV_SHUFFLE:
        return f"{who} shuffles {amount} cards"
    if ev == EV_END:
        return "game over: " + ("terminated" if amount == TERMINATED else "truncated")
    if ev == EV_PHASE:
        return f"{who} starts the {PHASE_NAMES[amount]} phase"
    verb = _VERBS.get(ev, f"event {ev}")
    if card == HIDDEN:
        many = "a card" if amount == 1 else f"{amount} cards"
        if ev == EV_TOPDECK:
            return f"{who} puts {many} onto the deck"
        return f"{who} {verb} {many}"
    name = NAMES[card] if card >= 0 else ""
    many = f"{amount} x {name}" if amount != 1 else name
    return f"{who} {verb} {many}"


def decision_text(decision: dict) -> str:
    """A pending decision (``Game.decision``) in words: "buy, costing $0+" or "discard, for
    Militia, 2 to pick"."""
    d = decision
    parts = [d["kind"].replace("_", " ")]
    if d["source"]:
        parts.append(f"for {d['source']}")
    if d["card"]:
        parts.append(f"about {d['card']}")
    if d["target"] >= 0:
        parts.append(f"about P{d['target']}")
    lo, hi = d["cost_range"]
    if d["kind"] in ("buy", "gain") or lo > 0:
        parts.append(f"costing ${lo}..{hi}" if hi < COST_ANY_HI else f"costing ${lo}+")
    if d["count"]:
        parts.append(f"{d['count']} to pick")
    return ", ".join(parts)
