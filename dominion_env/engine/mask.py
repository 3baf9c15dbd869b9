"""The action mask: a pure function of the pending decision record and the zones."""

from ..cards import COST, NUM_CARDS, TYPES
from .jit import njit
from .layout import (
    COST_REDUCTION,
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


@njit
def _card_ok(T, c, need, excluded, lo, hi, reduction):
    """Card c passes the decision's filters: type bits, exclusion, current cost in [lo, hi]."""
    if (T[c, TYPES] & need) != need or (excluded >> c) & 1:
        return False
    cost = T[c, COST] - reduction  # current_cost, inlined: this runs at every decision
    if cost < 0:
        cost = 0
    return lo <= cost <= hi


@njit
def write_mask(r, T, out):
    """Write the legal actions into out (NUM_ACTIONS,) bool; return (count, last legal).

    Card zones ZONE_HAND .. ZONE_ASIDE are player zones (zone - 1 is the record's zone index)
    of DEC_TARGET when set, else of DEC_PLAYER."""
    out[:] = False
    if r.game[DEC_KIND] == DEC_NONE:
        return 0, -1
    zone = r.game[DEC_ZONE]
    n = 0
    last = -1
    if zone != ZONE_NONE:
        p = r.game[DEC_TARGET] if r.game[DEC_TARGET] >= 0 else r.game[DEC_PLAYER]
        excluded = r.game[DEC_EXCLUDE]
        need = r.game[DEC_TYPES]
        lo = r.game[DEC_COST_LO]
        hi = r.game[DEC_COST_HI]
        reduction = r.game[COST_REDUCTION]
        if zone == ZONE_ANY:  # naming may name any card id
            for c in range(NUM_CARDS):
                if _card_ok(T, c, need, excluded, lo, hi, reduction):
                    out[c] = True
                    n += 1
                    last = c
        else:  # every other zone holds only cards of this game: one count row to look at
            if zone == ZONE_SUPPLY:
                row = r.pile[SUPPLY]
            elif zone == ZONE_TRASH:
                row = r.pile[TRASH]
            else:
                row = r.zone[p, zone - 1]
            for u in range(r.game[UNIVERSE_LEN]):  # branch-free: the tests are coin flips
                c = r.universe[u]
                cost = max(T[c, COST] - reduction, 0)
                ok = ((row[c] > 0) & ((T[c, TYPES] & need) == need)
                      & (((excluded >> c) & 1) == 0) & (cost >= lo) & (cost <= hi))
                out[c] = ok
                n += ok
                last = c if ok else last
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
