"""What cards are worth to the scripted bots: the values both the generic rules (``bots.py``)
and the cards' own default plays (``base_cards.py``, ``intrigue_cards.py``) rank cards by.

``hand worth``  a card in a hand: Curse -2, Victory-only cards -1, any other its cost
``keep value``  owning a card: Curse -2, Estate-like cards -1, any other its cost, so Duchies
                and Provinces are never trashed or passed while anything else can go
``trash-worthy`` (Dominiate's convention) a Curse, an Estate while more than 2 gains end the
                game, or a Copper while the bot's Treasures total more than $4
"""

from ..cards import (
    ACTION,
    COIN_VALUE,
    COPPER,
    COST,
    CURSE,
    CURSE_ID,
    ESTATE,
    NUM_CARDS,
    PROVINCE,
    TREASURE,
    TYPES,
    VICTORY,
    VP,
    VP_FIXED,
    VP_RULE,
)
from .jit import njit
from .layout import (
    COINS,
    HAND,
    IN_SUPPLY,
    NUM_ACTIONS,
    OPTION0,
    PASS,
    PLAYERS,
    SUPPLY,
    UNIVERSE_LEN,
)
from .zones import count_owned, end_piles


@njit
def gains_to_end(r):
    """The fewest gains that would end the game now: the Provinces left, or the sum of the
    smallest Supply piles that would make the ending number of empty piles (3; 4 with 5-6
    players), whichever is less. Empty piles count as 0."""
    k = end_piles(r.game[PLAYERS])
    big = 1 << 30
    m0 = big
    m1 = big
    m2 = big
    m3 = big
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        if not r.pile[IN_SUPPLY, c]:
            continue
        x = r.pile[SUPPLY, c]
        if x < m3:  # insert into the sorted four smallest
            m3 = x
            if m3 < m2:
                m2, m3 = m3, m2
            if m2 < m1:
                m1, m2 = m2, m1
            if m1 < m0:
                m0, m1 = m1, m0
    piles = m0 + m1 + m2 + (m3 if k == 4 else 0)
    return min(piles, r.pile[SUPPLY, PROVINCE])


@njit(inline="always")
def treasure_money(r, T, owned):
    """Total $ of the Treasures counted in ``owned`` (coins x count over every card)."""
    m = 0
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        m += T[c, COIN_VALUE] * owned[c]
    return m


@njit
def hand_worth(T, c):
    """What a card is worth in a hand: Curses and Victory-only cards are dead (-2, -1)."""
    t = T[c, TYPES]
    if t & CURSE:
        return -2
    if (t & VICTORY) and not (t & (ACTION | TREASURE)):
        return -1
    return T[c, COST]


@njit
def keep_value(T, c):
    """What owning a card is worth (trash, pass): Curse -2, Estate-like cards (Victory-only,
    1 VP or less, fixed) -1, anything else its cost, so Duchies and Provinces are kept."""
    t = T[c, TYPES]
    if t & CURSE:
        return -2
    if (
        (t & VICTORY)
        and not (t & (ACTION | TREASURE))
        and T[c, VP] <= 1
        and T[c, VP_RULE] == VP_FIXED
    ):
        return -1
    return T[c, COST]


@njit
def trash_worthy(r, T, p, c, owned):
    """Cards a bot gets rid of when it may (Dominiate's convention): Curses; Estates while
    more than 2 gains end the game; Coppers while its Treasures total more than $4."""
    if c == CURSE_ID:
        return True
    if c == ESTATE:
        return gains_to_end(r) > 2
    if c == COPPER:
        count_owned(r, p, owned)
        return treasure_money(r, T, owned) > 4
    return False


@njit
def money_in_hand(r, T, p):
    """$ this turn if p played every Treasure in hand now (on top of the $ already made)."""
    m = r.game[COINS]
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        if T[c, TYPES] & TREASURE:
            m += T[c, COIN_VALUE] * r.zone[p, HAND, c]
    return m


@njit
def threshold_hit(m, bonus):
    """Whether +$bonus on top of $m reaches $6 (Gold) or $8 (Province) when $m does not."""
    return (m < 6 and m + bonus >= 6) or (m < 8 and m + bonus >= 8)


@njit
def _lowest(T, mask_row, by_keep):
    """The legal card with the lowest keep value (by_keep) or hand worth; -1 if none."""
    best = -1
    best_v = 0
    for c in range(NUM_CARDS):
        if mask_row[c]:
            v = keep_value(T, c) if by_keep else hand_worth(T, c)
            if best < 0 or v < best_v:
                best = c
                best_v = v
    return best


@njit
def lowest_worth(T, mask_row):
    return _lowest(T, mask_row, False)


@njit
def lowest_keep(T, mask_row):
    return _lowest(T, mask_row, True)


@njit
def first_legal(mask_row):
    for a in range(NUM_ACTIONS):
        if mask_row[a]:
            return a
    return PASS


@njit(inline="always")
def first_option(mask_row):
    """The first legal option (then PASS), else the first legal action."""
    for k in range(OPTION0, NUM_ACTIONS):
        if mask_row[k]:
            return k
    return first_legal(mask_row)
