"""What a card's code declares, in one row per card at the end of its set's module.

A kingdom card lives in three places: its row in the card table (``cards.py``), its code in its
set's module (``base_cards.py``, ``intrigue_cards.py``: the effect's step function, the
decisions it asks with the scripted bots' default play for each, its Reaction if it is one,
listed in the module's ``CARDS``), and its tests. Everything else is derived from these rows:
the effect dispatch and the Reaction dispatch (``effects.py``), the bots' card defaults
(``bots.py``), which cards a kingdom may hold (``kingdoms.is_implemented``); and
``tests/test_card_places.py`` fails when a row is missing or incomplete.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

GENERIC = None  # a decision the bots answer by their generic rule for its kind (``bots.py``)


class CardCode(NamedTuple):
    """The code of one card with an effect beyond the vanilla columns of its table row.

    name       the card (its effect id is ``cards.EFFECT[name]``)
    step       ``step(r, T, cfg, f)``: one step of the card's frame ``f`` (module docstring)
    decisions  every decision kind (``layout.DEC_*``) the card's code asks, mapped to the
               scripted bots' default play for it: ``default(r, T, p, mask_row, owned)``
               returning an action, next to the step function, or ``GENERIC``
    reaction   ``reaction(r, T, cfg, d)``: what revealing it to an Attack does for player d
               (a Reaction card only)
    """

    name: str
    step: Callable
    decisions: dict[int, Callable | None]
    reaction: Callable | None = None
