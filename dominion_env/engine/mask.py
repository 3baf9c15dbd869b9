"""The action mask: a pure function of the pending decision record and the zones."""

from ..cards import NUM_CARDS, TYPES
from .jit import njit
from .layout import (
    DEC_CAN_PASS,
    DEC_COST_HI,
    DEC_COST_LO,
    DEC_EXCLUDE,
    DEC_KIND,
    DEC_NONE,
    DEC_OPTIONS,
    DEC_PLAYER,
    DEC_TARGET,
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
def write_mask(r, T, out):
    """Write the legal actions into out (NUM_ACTIONS,) bool; return (count, last legal).

    Card zones ZONE_HAND .. ZONE_ASIDE are player zones (zone - 1 is the record's zone index)
    of DEC_TARGET when set, else of DEC_PLAYER."""
    out[:] = False
    if r.game[DEC_KIND] == DEC_NONE:
        return 0, -1
    p = r.game[DEC_TARGET] if r.game[DEC_TARGET] >= 0 else r.game[DEC_PLAYER]
    excluded = r.game[DEC_EXCLUDE]
    zone = r.game[DEC_ZONE]
    need = r.game[DEC_TYPES]
    lo = r.game[DEC_COST_LO]
    hi = r.game[DEC_COST_HI]
    n = 0
    last = -1
    if zone != ZONE_NONE:
        # naming may name any card; every other zone holds only cards of this game
        count = NUM_CARDS if zone == ZONE_ANY else r.game[UNIVERSE_LEN]
        for u in range(count):
            c = u if zone == ZONE_ANY else r.universe[u]
            if zone == ZONE_SUPPLY:
                have = r.pile[SUPPLY, c] > 0
            elif zone == ZONE_TRASH:
                have = r.pile[TRASH, c] > 0
            elif zone == ZONE_ANY:  # every card id (naming a card)
                have = True
            else:
                have = r.zone[p, zone - 1, c] > 0
            if not have or (T[c, TYPES] & need) != need or (excluded >> c) & 1:
                continue
            cost = current_cost(r, T, c)
            if cost < lo or cost > hi:
                continue
            out[c] = True
            n += 1
            last = c
    opts = r.game[DEC_OPTIONS]
    for k in range(NUM_OPTIONS):
        if (opts >> k) & 1:
            out[OPTION0 + k] = True
            n += 1
            last = OPTION0 + k
    if r.game[DEC_CAN_PASS]:
        out[PASS] = True
        n += 1
        last = PASS
    return n, last
