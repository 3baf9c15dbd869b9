"""Names for actions and decisions, for people: logs, errors, notebooks."""

from __future__ import annotations

import numpy as np

from .cards import NAMES, NUM_CARDS, card_id
from .engine.layout import NUM_ACTIONS, OPTION0, PASS


class IllegalActionError(ValueError):
    """An action out of range or not allowed by the mask. Raised by ``VecGame.step``, the one
    check every face goes through (Game, the Gymnasium and PettingZoo envs), before any game
    moves: no game of the batch is half stepped. ``game`` and ``action`` name the first one
    (game -1: an index out of range, refused before it reaches any game)."""

    def __init__(self, message: str, game: int, action: int):
        super().__init__(message)
        self.game = game
        self.action = action


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
    if name.startswith("option "):
        k = int(name.split()[1])
        if not 0 <= k < PASS - OPTION0:
            raise ValueError(f"no {name!r}: options are 0..{PASS - OPTION0 - 1}")
        return OPTION0 + k
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
}


def describe_action(a: int, decision_kind: str, source: str | None) -> str:
    """``action_name`` for people: what an option or PASS does in the pending decision."""
    name = action_name(a)
    if OPTION0 <= a < PASS:
        labels = OPTION_TEXT.get(source or "", ())
        k = a - OPTION0
        return f"{name}: {labels[k]}" if k < len(labels) else name
    if a == PASS:
        return f"PASS ({PASS_TEXT.get(decision_kind, 'done')})"
    return name
