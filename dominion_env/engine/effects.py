"""Card effects: the special part of each card, dispatched on its effect id.

The vanilla part (+Cards, +Actions, +Buys, +$) was already applied by ``frames.play_card``;
a card's frame runs here only when its ``effect`` is not ``EFFECT_NONE``. Each effect is a
small state machine over ``fr_step`` that may ``ask`` and return, and pops its frame when done.

Effects land issue by issue (``cards.IMPLEMENTED_EFFECTS``); kingdoms and scenarios refuse a
card whose effect is not here, so the kernel never meets one.
"""

from .jit import njit


@njit
def effect_step(r, T, cfg, scratch):
    """Run one step of the top frame's card effect."""
    raise RuntimeError("card effect not implemented")
