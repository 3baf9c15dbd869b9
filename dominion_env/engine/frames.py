"""The decision machine's primitives: the per-game frame stack and the pending-decision record.

A card effect that needs a choice sets its frame's next step, calls ``ask`` (which fills the
DEC_* record) and returns. The driver (``machine.advance``) then stops; when the action comes,
``machine.resolve`` stores it in ANSWER and resumes the top frame at that step, which reads it.
No recursion, no callbacks: Throne Room on Throne Room is just more frames.
"""

import numpy as np

from ..cards import (
    ATTACK,
    COIN_VALUE,
    COPPER,
    EFFECT_ID,
    EFFECT_NONE,
    PLUS_ACTIONS,
    PLUS_BUYS,
    PLUS_CARDS,
    PLUS_COINS,
    SILVER,
    TYPES,
)
from .jit import njit
from .layout import (
    ACTIONS,
    ACTIONS_PLAYED,
    ATTACK_PENDING,
    BUYS,
    CARD_WORDS,
    COINS,
    COPPER_BONUS,
    COST_ANY_HI,
    DEC_CAN_PASS,
    DEC_CARD,
    DEC_COST_HI,
    DEC_COST_LO,
    DEC_COUNT,
    DEC_EXCLUDE,
    DEC_KIND,
    DEC_OPTIONS,
    DEC_PLAYER,
    DEC_SOURCE,
    DEC_TARGET,
    DEC_TYPES,
    DEC_ZONE,
    EV_PLAY,
    FR_CARD,
    FR_PLAYER,
    FR_REG,
    FR_STEP,
    HAND,
    IN_PLAY,
    MERCHANTS,
    REACTED,
    REACTED_WORDS,
    REACTION_FRAME,
    SEEN_ALL,
    SILVER_PLAYED,
    SP,
    UNAFFECTED,
    UNIVERSE_LEN,
    ZONE_NONE,
)
from .zones import draw, leave_hand, log_event


@njit
def push_frame(r, card, player):
    """Start a frame for ``card``'s effect acting for ``player``, at step 0, registers 0."""
    f = r.game[SP]
    if f >= r.frame.shape[0]:
        raise RuntimeError("frame stack overflow")
    r.frame[f, FR_CARD] = card
    r.frame[f, FR_STEP] = 0
    r.frame[f, FR_PLAYER] = player
    for i in range(FR_REG, r.frame.shape[1]):
        r.frame[f, i] = 0
    r.game[SP] = f + 1


@njit
def pop_frame(r):
    r.game[SP] -= 1


@njit
def ask(r, kind, player, source, zone, types, cost_lo, cost_hi, options, can_pass):
    """Make a decision pending: the driver stops and returns control with its mask."""
    r.game[DEC_KIND] = kind
    r.game[DEC_PLAYER] = player
    r.game[DEC_SOURCE] = source
    r.game[DEC_ZONE] = zone
    r.game[DEC_TYPES] = types
    r.game[DEC_COST_LO] = cost_lo
    r.game[DEC_COST_HI] = cost_hi
    r.game[DEC_OPTIONS] = options
    r.game[DEC_CAN_PASS] = can_pass
    r.game[DEC_CARD] = -1
    r.game[DEC_TARGET] = -1
    r.game[DEC_COUNT] = 0
    for w in range(CARD_WORDS):
        r.game[DEC_EXCLUDE + w] = 0


@njit(inline="always")
def card_in_set(row, field, c):
    """1 if card c is in the card bit set held in row[field .. field + CARD_WORDS - 1], else 0
    (branch-free)."""
    return (row[field + (c >> 6)] >> (c & 63)) & 1


@njit(inline="always")
def exclude_card(r, c):
    """Take card c out of the pending decision's choices (DEC_EXCLUDE)."""
    r.game[DEC_EXCLUDE + (c >> 6)] |= np.int64(1) << (c & 63)


@njit(inline="always")
def exclude_all_but(r, c):
    """Leave card c as the only card the pending decision may choose (its other filters
    still apply)."""
    for w in range(CARD_WORDS):
        r.game[DEC_EXCLUDE + w] = -1
    r.game[DEC_EXCLUDE + (c >> 6)] &= ~(np.int64(1) << (c & 63))


@njit
def ask_card(r, f, next_step, kind, player, source, zone, types, lo, hi, can_pass):
    """A card decision asked by frame f, which resumes at ``next_step`` with the answer."""
    r.frame[f, FR_STEP] = next_step
    ask(r, kind, player, source, zone, types, lo, hi, 0, can_pass)


@njit
def ask_options(r, kind, player, source, options, can_pass):
    """A decision among options only (modes, yes/no)."""
    ask(r, kind, player, source, ZONE_NONE, 0, 0, COST_ANY_HI, options, can_pass)


@njit
def play_card(r, T, cfg, p, c):
    """Play Action c for p (already in play): count the play, apply its vanilla bonuses, and
    push a frame for its special effect if it has one. Throne Room calls this twice. An Attack
    first opens the reaction window; its bonuses wait until the window closes."""
    r.game[ACTIONS_PLAYED] += 1
    log_event(r, cfg, EV_PLAY, p, c, 1, SEEN_ALL)
    if T[c, TYPES] & ATTACK:
        # the reaction window comes before the Attack does anything (its bonuses included):
        # the card's frame waits at ATTACK_PENDING under the window's frame
        push_frame(r, c, p)
        r.frame[r.game[SP] - 1, FR_STEP] = ATTACK_PENDING
        r.game[UNAFFECTED] = 0
        for w in range(REACTED_WORDS):
            r.game[REACTED + w] = 0
        push_frame(r, REACTION_FRAME, p)
        r.frame[r.game[SP] - 1, FR_REG] = 1  # the window starts at the attacker's left
        return
    apply_vanilla(r, T, cfg, p, c)
    if T[c, EFFECT_ID] != EFFECT_NONE:
        push_frame(r, c, p)


@njit
def apply_vanilla(r, T, cfg, p, c):
    """+Cards, +Actions, +Buys, +$ of card c for p."""
    if T[c, PLUS_CARDS] > 0:
        draw(r, cfg, p, T[c, PLUS_CARDS])
    r.game[ACTIONS] += T[c, PLUS_ACTIONS]
    r.game[BUYS] += T[c, PLUS_BUYS]
    r.game[COINS] += T[c, PLUS_COINS]


@njit
def play_action_from_hand(r, T, cfg, p, c):
    leave_hand(r, p, c, SEEN_ALL)
    r.zone[p, IN_PLAY, c] += 1
    play_card(r, T, cfg, p, c)


@njit
def play_treasure(r, T, cfg, p, c):
    """Move Treasure c from p's hand into play and add its $ (with Merchant and Coppersmith)."""
    leave_hand(r, p, c, SEEN_ALL)
    r.zone[p, IN_PLAY, c] += 1
    r.game[COINS] += T[c, COIN_VALUE]
    if c == COPPER:
        r.game[COINS] += r.game[COPPER_BONUS]
    elif c == SILVER and not r.game[SILVER_PLAYED]:
        r.game[SILVER_PLAYED] = 1
        r.game[COINS] += r.game[MERCHANTS]
    log_event(r, cfg, EV_PLAY, p, c, 1, SEEN_ALL)


@njit
def has_type_in(r, T, p, z, types):
    """True when player p's zone z holds a card with every type bit in ``types``."""
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        if r.zone[p, z, c] > 0 and (T[c, TYPES] & types) == types:
            return True
    return False


@njit(inline="always")
def has_type_in_hand(r, T, p, types):
    return has_type_in(r, T, p, HAND, types)
