"""The decision machine's primitives: the per-game frame stack and the pending-decision record.

A card effect that needs a choice sets its frame's next step, calls ``ask`` (which fills the
DEC_* record) and returns. The driver (``machine.advance``) then stops; when the action comes,
``machine.resolve`` stores it in ANSWER and resumes the top frame at that step, which reads it.
No recursion, no callbacks: Throne Room on Throne Room is just more frames.
"""

from ..cards import (
    COIN_VALUE,
    EFFECT_ID,
    EFFECT_NONE,
    PLUS_ACTIONS,
    PLUS_BUYS,
    PLUS_CARDS,
    PLUS_COINS,
    TYPES,
)
from .jit import njit
from .layout import (
    ACTIONS,
    ACTIONS_PLAYED,
    BUYS,
    COINS,
    COST_ANY_HI,
    DEC_CAN_PASS,
    DEC_CARD,
    DEC_COST_HI,
    DEC_COST_LO,
    DEC_COUNT,
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
    SP,
    UNIVERSE_LEN,
    ZONE_NONE,
)
from .zones import draw, log_event


@njit
def push_frame(s, g, card, player):
    """Start a frame for ``card``'s effect acting for ``player``, at step 0, registers 0."""
    f = s.game[g, SP]
    if f >= s.frame.shape[1]:
        raise RuntimeError("frame stack overflow")
    s.frame[g, f, FR_CARD] = card
    s.frame[g, f, FR_STEP] = 0
    s.frame[g, f, FR_PLAYER] = player
    for r in range(FR_REG, s.frame.shape[2]):
        s.frame[g, f, r] = 0
    s.game[g, SP] = f + 1


@njit
def pop_frame(s, g):
    s.game[g, SP] -= 1


@njit
def ask(s, g, kind, player, source, zone, types, cost_lo, cost_hi, options, can_pass):
    """Make a decision pending: the driver stops and returns control with its mask."""
    s.game[g, DEC_KIND] = kind
    s.game[g, DEC_PLAYER] = player
    s.game[g, DEC_SOURCE] = source
    s.game[g, DEC_ZONE] = zone
    s.game[g, DEC_TYPES] = types
    s.game[g, DEC_COST_LO] = cost_lo
    s.game[g, DEC_COST_HI] = cost_hi
    s.game[g, DEC_OPTIONS] = options
    s.game[g, DEC_CAN_PASS] = can_pass
    s.game[g, DEC_CARD] = -1
    s.game[g, DEC_TARGET] = -1
    s.game[g, DEC_COUNT] = 0


@njit
def ask_options(s, g, kind, player, source, options, can_pass):
    """A decision among options only (modes, yes/no)."""
    ask(s, g, kind, player, source, ZONE_NONE, 0, 0, COST_ANY_HI, options, can_pass)


@njit
def play_card(s, T, cfg, g, p, c):
    """Play Action c for p (already in play): count the play, apply its vanilla bonuses, and
    push a frame for its special effect if it has one. Throne Room calls this twice."""
    s.game[g, ACTIONS_PLAYED] += 1
    log_event(s, cfg, g, EV_PLAY, p, c, 1)
    if T[c, PLUS_CARDS] > 0:
        draw(s, cfg, g, p, T[c, PLUS_CARDS])
    s.game[g, ACTIONS] += T[c, PLUS_ACTIONS]
    s.game[g, BUYS] += T[c, PLUS_BUYS]
    s.game[g, COINS] += T[c, PLUS_COINS]
    if T[c, EFFECT_ID] != EFFECT_NONE:
        push_frame(s, g, c, p)


@njit
def play_action_from_hand(s, T, cfg, g, p, c):
    s.zone[g, p, HAND, c] -= 1
    s.zone[g, p, IN_PLAY, c] += 1
    play_card(s, T, cfg, g, p, c)


@njit
def play_treasure(s, T, cfg, g, p, c):
    """Move Treasure c from p's hand into play and add its $."""
    s.zone[g, p, HAND, c] -= 1
    s.zone[g, p, IN_PLAY, c] += 1
    s.game[g, COINS] += T[c, COIN_VALUE]
    log_event(s, cfg, g, EV_PLAY, p, c, 1)


@njit
def has_type_in_hand(s, T, g, p, types):
    for u in range(s.game[g, UNIVERSE_LEN]):
        c = s.universe[g, u]
        if s.zone[g, p, HAND, c] > 0 and (T[c, TYPES] & types) == types:
            return True
    return False
