"""The action mask: a pure function of the pending decision record and the zones."""

from ..cards import NUM_CARDS, TYPES
from .jit import njit
from .layout import (
    DEC_CAN_PASS,
    DEC_COST_HI,
    DEC_COST_LO,
    DEC_KIND,
    DEC_NONE,
    DEC_OPTIONS,
    DEC_PLAYER,
    DEC_TYPES,
    DEC_ZONE,
    NUM_OPTIONS,
    OPTION0,
    PASS,
    SUPPLY,
    TRASH,
    UNIVERSE_LEN,
    ZONE_ANY,
    ZONE_NONE,
    ZONE_SUPPLY,
    ZONE_TRASH,
)
from .zones import current_cost


@njit
def write_mask(s, T, g, out):
    """Write game g's legal actions into out (NUM_ACTIONS,) bool; return (count, last legal).

    Card zones ZONE_HAND .. ZONE_ASIDE are player zones (zone - 1 is the State.zone index)."""
    out[:] = False
    if s.game[g, DEC_KIND] == DEC_NONE:
        return 0, -1
    p = s.game[g, DEC_PLAYER]
    zone = s.game[g, DEC_ZONE]
    need = s.game[g, DEC_TYPES]
    lo = s.game[g, DEC_COST_LO]
    hi = s.game[g, DEC_COST_HI]
    n = 0
    last = -1
    if zone != ZONE_NONE:
        # naming may name any card; every other zone holds only cards of this game
        count = NUM_CARDS if zone == ZONE_ANY else s.game[g, UNIVERSE_LEN]
        for u in range(count):
            c = u if zone == ZONE_ANY else s.universe[g, u]
            if zone == ZONE_SUPPLY:
                have = s.pile[g, SUPPLY, c] > 0
            elif zone == ZONE_TRASH:
                have = s.pile[g, TRASH, c] > 0
            elif zone == ZONE_ANY:  # every card id (naming a card)
                have = True
            else:
                have = s.zone[g, p, zone - 1, c] > 0
            if not have or (T[c, TYPES] & need) != need:
                continue
            cost = current_cost(s, T, g, c)
            if cost < lo or cost > hi:
                continue
            out[c] = True
            n += 1
            last = c
    opts = s.game[g, DEC_OPTIONS]
    for k in range(NUM_OPTIONS):
        if (opts >> k) & 1:
            out[OPTION0 + k] = True
            n += 1
            last = OPTION0 + k
    if s.game[g, DEC_CAN_PASS]:
        out[PASS] = True
        n += 1
        last = PASS
    return n, last
