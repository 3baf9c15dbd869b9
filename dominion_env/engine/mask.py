"""The action mask: a pure function of the pending decision record and the zones."""

from ..cards import NUM_CARDS, TYPES
from .frames import card_in_set
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
def _card_ok(r, T, c, need, lo, hi):
    """Card c passes the decision's filters (type bits, not in DEC_EXCLUDE, current cost in
    [lo, hi]); branch-free, as the tests are coin flips across the cards of a game."""
    cost = current_cost(r, T, c)
    return (
        ((T[c, TYPES] & need) == need)
        & (card_in_set(r.game, DEC_EXCLUDE, c) == 0)
        & (cost >= lo)
        & (cost <= hi)
    )


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
        need = r.game[DEC_TYPES]
        lo = r.game[DEC_COST_LO]
        hi = r.game[DEC_COST_HI]
        if zone == ZONE_ANY:  # naming may name any card id
            for c in range(NUM_CARDS):
                ok = _card_ok(r, T, c, need, lo, hi)
                out[c] = ok
                n += ok
                last = c if ok else last
        else:  # every other zone holds only cards of this game: one count row to look at
            if zone == ZONE_SUPPLY:
                row = r.pile[SUPPLY]
            elif zone == ZONE_TRASH:
                row = r.pile[TRASH]
            else:
                row = r.zone[p, zone - 1]
            for u in range(r.game[UNIVERSE_LEN]):
                c = r.universe[u]
                ok = (row[c] > 0) & _card_ok(r, T, c, need, lo, hi)
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
