"""Card effects: the special part of each card, dispatched on its effect id.

The vanilla part (+Cards, +Actions, +Buys, +$) was already applied by ``frames.play_card``;
a card's frame runs here only when its effect is not ``EFFECT_NONE``. Each effect is a small
state machine over its frame's step that may ``ask`` and return, and pops its frame when done
(``base_cards`` and ``intrigue_cards`` document the decisions of every card). The reaction
window of an Attack is a frame of its own (``attacks.reaction_step``); what revealing a
Reaction does is the card's own.

The dispatch is data: every set module declares its cards' code in ``CARDS`` (one
``CardCode`` row per card with an effect), and the if/elif chains below are generated from
those rows (``jit.switch``). An effect id with no row ends in an explicit error, never in
another card's effect; ``tests/test_card_places.py`` checks that every effect id of the card
table has exactly one row, and ``kingdoms.is_implemented`` refuses a card that has none.
"""

from ..cards import EFFECT, EFFECT_ID, EFFECT_NAMES, EFFECT_NONE, ID
from . import base_cards, intrigue_cards
from .attacks import reaction_step
from .frames import apply_vanilla
from .jit import njit, switch
from .layout import ATTACK_PENDING, FR_CARD, FR_PLAYER, FR_STEP, REACTION_FRAME, SP

CARDS = base_cards.CARDS + intrigue_cards.CARDS  # every card's code, in card-id order

# the effects that have code, what a kingdom may hold ("none": the vanilla cards); a card
# whose effect has no CardCode row is refused by name (``kingdoms.is_implemented``)
IMPLEMENTED_EFFECTS: frozenset[str] = frozenset(
    {EFFECT_NAMES[EFFECT_NONE]} | {code.name for code in CARDS}
)


@njit(inline="always")
def _no_effect(e, r, T, cfg, f):
    raise RuntimeError("a card effect id with no step function (no CardCode row)")


@njit(inline="always")
def _no_reaction(c, r, T, cfg, d):
    raise RuntimeError("a Reaction card with no reaction function (no CardCode row)")


# run_effect(e, r, T, cfg, f): one step of effect e, the effect of frame f's card
run_effect = switch(
    "run_effect",
    ("e",),
    ("r", "T", "cfg", "f"),
    [((EFFECT[code.name],), code.step) for code in CARDS],
    _no_effect,
)

# react(c, r, T, cfg, d): what revealing Reaction card c to an Attack does for player d
react = switch(
    "react",
    ("c",),
    ("r", "T", "cfg", "d"),
    [((ID[code.name],), code.reaction) for code in CARDS if code.reaction is not None],
    _no_reaction,
)


@njit
def effect_step(r, T, cfg, scratch):
    """Run one step of the top frame's card effect (or of an Attack's reaction window)."""
    f = r.game[SP] - 1
    c = r.frame[f, FR_CARD]
    if c == REACTION_FRAME:
        d, revealed = reaction_step(r, T, cfg, f)
        if revealed >= 0:
            react(revealed, r, T, cfg, d)
        return
    if r.frame[f, FR_STEP] == ATTACK_PENDING:  # the reaction window has closed
        r.frame[f, FR_STEP] = 0
        apply_vanilla(r, T, cfg, r.frame[f, FR_PLAYER], c)
    run_effect(T[c, EFFECT_ID], r, T, cfg, f)
