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
