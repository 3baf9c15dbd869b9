"""Scripted bots as compiled code: a bot answers any decision the engine can ask.

A bot is a row of ``BotTable``: a kind (``BOT_PRIORITY`` or ``BOT_RANDOM``) and, for priority
bots, a gain priority list of up to ``MAX_RULES`` rules. A rule is::

    [card, q1, arg1, op1, value1, q2, arg2, op2, value2, ...]   (MAX_CONDS conditions)

"gain ``card`` if every condition ``quantity(arg) op value`` holds"; card -1 ends the list and
quantity ``Q_NONE`` ends a rule's conditions. ``agents.strategy`` compiles readable bots to
these arrays.

Buy and gain decisions walk the priority list and take the first legal card whose conditions
hold; otherwise PASS if allowed (a forced gain takes the most expensive legal card).

Every other decision gets a documented default, after the public simulators' habits. Two
values rank cards: ``hand worth`` (a card in a hand: Curse -2, Victory-only cards -1, any other
its cost) and ``keep value`` (owning a card: Curse -2, Estate-like cards -1, any other its cost,
so Duchies and Provinces are never trashed or passed while anything else can go); a card is
"trash-worthy" (Dominiate's convention) if it is a Curse, an Estate while more than 2 gains end
the game, or a Copper while the bot's Treasures total more than $4.

* play an Action / Throne Room target: most +Actions first (villages before cantrips before
  terminals), then the highest cost; never ends the Action phase while an Action is playable
* play a Treasure: play them all (the lowest card id first)
* gain a card for another player (Swindler): the lowest hand worth
* discard: Curses, Victory-only cards, then a terminal Action the hand cannot play (two or more
  terminals, no village), then the cheapest card; optional discards (Cellar, Secret Chamber,
  Baron's Estate) give up only Curses and Victory-only cards
* pass a card (Masquerade): the lowest keep value
* trash: mandatory -> lowest keep value; optional (Chapel, Moneylender, Masquerade) -> a
  trash-worthy card, else stop; Mine -> the best Treasure below Gold; Thief -> the victim's
  best Treasure
* topdeck: Harbinger and Secret Chamber -> the best card (Harbinger skips junk); Courtyard and
  Artisan -> an Action it cannot play this turn, else the lowest hand worth; otherwise (Bureaucrat
  victims, Sentry and Scout orders) the lowest hand worth first, so the best card ends on top
* reveal a Reaction: always
* options: Library sets an Action aside only with no Action left; Sentry trashes trash-worthy
  cards, discards other Victory cards, keeps the rest; Spy discards a victim's good card and
  its own junk; Thief gains anything better than Copper; Pawn +Card +$1 (+Card +Action with an
  Action and none left); Steward trashes 2 trash-worthy cards, else +$2 when that reaches $6 or
  $8, else +2 Cards; Nobles +2 Actions with an Action in hand and none left, else +3 Cards;
  Minion +$2 when another Minion can follow or the $2 lifts the buy to $6 or $8, else the
  attack; Torturer victims discard 2 unless the Curses are gone; Mining Village is trashed when
  its $2 reaches $6 or $8; Vassal plays, Chancellor discards the deck
* name a card (Wishing Well): the commonest card in its draw pile
"""

from typing import NamedTuple

import numpy as np

from ..cards import (
    ACTION,
    COIN_VALUE,
    COPPER,
    COST,
    CURSE,
    CURSE_ID,
    ESTATE,
    GOLD,
    ID,
    NUM_CARDS,
    PLUS_ACTIONS,
    PROVINCE,
    SILVER,
    TREASURE,
    TYPES,
    VICTORY,
    VP,
    VP_FIXED,
    VP_RULE,
)
from .frames import has_type_in_hand
from .jit import njit
from .layout import (
    ACTIONS,
    COINS,
    DEC_BUY,
    DEC_CARD,
    DEC_CHOOSE,
    DEC_DISCARD,
    DEC_GAIN,
    DEC_KIND,
    DEC_NAME,
    DEC_PASS_CARD,
    DEC_PLAY_ACTION,
    DEC_PLAY_TWICE,
    DEC_PLAYER,
    DEC_REACT,
    DEC_SOURCE,
    DEC_TARGET,
    DEC_TOPDECK,
    DEC_TRASH,
    HAND,
    IN_SUPPLY,
    NUM_ACTIONS,
    OPTION0,
    PASS,
    PLAYERS,
    SUPPLY,
    TURNS_TAKEN,
    UNIVERSE_LEN,
)
from .zones import count_owned, empty_piles, end_piles, next_u64, victory_points

BOT_PRIORITY, BOT_RANDOM = 0, 1

(LIBRARY, SENTRY, SPY, THIEF, PAWN, STEWARD, NOBLES, MINION, TORTURER, MINING_VILLAGE, MINE,
 HARBINGER, SECRET_CHAMBER, COURTYARD, ARTISAN) = (
    ID[n] for n in ("Library", "Sentry", "Spy", "Thief", "Pawn", "Steward", "Nobles", "Minion",
                    "Torturer", "Mining Village", "Mine", "Harbinger", "Secret Chamber",
                    "Courtyard", "Artisan"))
MAX_RULES = 32
MAX_CONDS = 3
RULE_WIDTH = 1 + 4 * MAX_CONDS

# quantities a condition can test (arg: a card id where the quantity needs one)
Q_NONE = 0
Q_MONEY = 1  # total $ of all the bot's Treasures (coins x count over every owned card)
Q_COUNT = 2  # how many of card ``arg`` the bot owns
Q_PILE = 3  # cards left in the Supply pile of card ``arg``
Q_COINS = 4  # $ available now
Q_TURN = 5  # the bot's current turn number (1 = its first turn)
Q_CARDS = 6  # total cards the bot owns
Q_EMPTY_PILES = 7  # empty Supply piles
Q_GAINS_TO_END = 8  # fewest gains that end the game: Provinces left, or the smallest piles
Q_VP = 9  # the bot's own score now
Q_VP_LEAD = 10  # own score minus the best other player's score
Q_ACTION_CARDS = 11  # Action cards the bot owns
Q_TREASURE_CARDS = 12  # Treasure cards the bot owns
Q_VICTORY_CARDS = 13  # Victory cards the bot owns
Q_HAND = 14  # copies of card ``arg`` in the bot's hand now
QUANTITY_NAMES = ("none", "money", "count", "pile", "coins", "turn", "cards", "empty_piles",
                  "gains_to_end", "vp", "vp_lead", "action_cards", "treasure_cards",
                  "victory_cards", "hand")

OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE = range(6)
OP_SYMBOLS = ("<", "<=", ">", ">=", "==", "!=")


class BotTable(NamedTuple):
    kind: np.ndarray  # (B,) int64, BOT_PRIORITY / BOT_RANDOM
    rules: np.ndarray  # (B, MAX_RULES, RULE_WIDTH) int64, see module docstring


@njit
def _quantity(r, T, p, q, arg, owned):
    if q == Q_MONEY:
        m = 0
        for u in range(r.game[UNIVERSE_LEN]):
            c = r.universe[u]
            m += T[c, COIN_VALUE] * owned[c]
        return m
    if q == Q_COUNT:
        return owned[arg]
    if q == Q_PILE:
        return r.pile[SUPPLY, arg]
    if q == Q_COINS:
        return r.game[COINS]
    if q == Q_TURN:
        return r.player[p, TURNS_TAKEN] + 1
    if q == Q_CARDS:
        return owned.sum()
    if q == Q_EMPTY_PILES:
        return empty_piles(r)
    if q == Q_GAINS_TO_END:
        return gains_to_end(r)
    if q == Q_VP or q == Q_VP_LEAD:
        # victory_points reuses ``owned`` as scratch: recount the bot's cards afterwards
        own = victory_points(r, T, p, owned)
        x = own
        if q == Q_VP_LEAD:
            best = -(1 << 30)
            for o in range(r.game[PLAYERS]):
                if o != p:
                    best = max(best, victory_points(r, T, o, owned))
            x = own - best
        count_owned(r, p, owned)
        return x
    if q == Q_ACTION_CARDS or q == Q_TREASURE_CARDS or q == Q_VICTORY_CARDS:
        bit = ACTION if q == Q_ACTION_CARDS else (TREASURE if q == Q_TREASURE_CARDS else VICTORY)
        n = 0
        for u in range(r.game[UNIVERSE_LEN]):
            c = r.universe[u]
            if T[c, TYPES] & bit:
                n += owned[c]
        return n
    if q == Q_HAND:
        return r.zone[p, HAND, arg]
    return 0


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


@njit
def _needs_counts(q):
    """Whether quantity q reads the bot's card counts (``owned``) as _quantity computes it."""
    return (q == Q_MONEY or q == Q_COUNT or q == Q_CARDS or q == Q_ACTION_CARDS
            or q == Q_TREASURE_CARDS or q == Q_VICTORY_CARDS)


@njit
def _holds(x, op, v):
    if op == OP_LT:
        return x < v
    if op == OP_LE:
        return x <= v
    if op == OP_GT:
        return x > v
    if op == OP_GE:
        return x >= v
    if op == OP_EQ:
        return x == v
    return x != v


@njit
def _hand_worth(T, c):
    """What a card is worth in a hand: Curses and Victory-only cards are dead (-2, -1)."""
    t = T[c, TYPES]
    if t & CURSE:
        return -2
    if (t & VICTORY) and not (t & (ACTION | TREASURE)):
        return -1
    return T[c, COST]


@njit
def _keep_value(T, c):
    """What owning a card is worth (trash, pass): Curse -2, Estate-like cards (Victory-only,
    1 VP or less, fixed) -1, anything else its cost, so Duchies and Provinces are kept."""
    t = T[c, TYPES]
    if t & CURSE:
        return -2
    if (t & VICTORY) and not (t & (ACTION | TREASURE)) and T[c, VP] <= 1 \
            and T[c, VP_RULE] == VP_FIXED:
        return -1
    return T[c, COST]


@njit
def random_action(mask_row, rng, g):
    """Uniform over the legal actions of one game, from the policy's own stream ``rng[g]``."""
    n = 0
    for a in range(NUM_ACTIONS):
        if mask_row[a]:
            n += 1
    if n == 0:  # a finished game (no autoreset): nothing to choose
        return PASS
    k = np.int64((next_u64(rng, g) >> np.uint64(33)) % np.uint64(n))
    for a in range(NUM_ACTIONS):
        if mask_row[a]:
            if k == 0:
                return a
            k -= 1
    return PASS


@njit
def bot_action(r, T, bots, b, mask_row, bot_rng, g, owned):
    """The action bot ``b`` takes at game g's pending decision (mask in ``mask_row``)."""
    if bots.kind[b] == BOT_RANDOM:
        return random_action(mask_row, bot_rng, g)
    kind = r.game[DEC_KIND]
    p = r.game[DEC_PLAYER]
    can_pass = mask_row[PASS]
    if kind == DEC_GAIN and r.game[DEC_TARGET] >= 0:
        # a gain the bot picks for another player (Swindler): the card worth least in a hand
        return _lowest_worth(T, mask_row)
    if kind == DEC_BUY or kind == DEC_GAIN:
        counted = False  # the bot's card counts, made on the first condition that needs them
        for k_rule in range(bots.rules.shape[1]):
            card = bots.rules[b, k_rule, 0]
            if card < 0:
                break
            if not mask_row[card]:
                continue
            ok = True
            for k in range(MAX_CONDS):
                q = bots.rules[b, k_rule, 1 + 4 * k]
                if q == Q_NONE:
                    break
                if not counted and _needs_counts(q):
                    count_owned(r, p, owned)
                    counted = True
                x = _quantity(r, T, p, q, bots.rules[b, k_rule, 2 + 4 * k], owned)
                op = bots.rules[b, k_rule, 3 + 4 * k]
                if not _holds(x, op, bots.rules[b, k_rule, 4 + 4 * k]):
                    ok = False
                    break
            if ok:
                return card
        if can_pass:
            return PASS
        best = -1
        for c in range(NUM_CARDS):
            if mask_row[c] and (best < 0 or T[c, COST] > T[best, COST]):
                best = c
        if best >= 0:
            return best
        return _first_legal(mask_row)
    if kind == DEC_PLAY_ACTION or kind == DEC_PLAY_TWICE:
        best = -1
        for c in range(NUM_CARDS):
            if mask_row[c]:
                if best < 0 or T[c, PLUS_ACTIONS] > T[best, PLUS_ACTIONS] or (
                        T[c, PLUS_ACTIONS] == T[best, PLUS_ACTIONS] and T[c, COST] > T[best, COST]):
                    best = c
        if best >= 0:
            return best
        return _first_legal(mask_row)
    if kind == DEC_REACT:
        return _first_legal(mask_row)
    if kind == DEC_NAME:
        best = -1
        bestn = -1
        for c in range(NUM_CARDS):
            if mask_row[c] and r.deck_count[p, c] > bestn:
                best = c
                bestn = r.deck_count[p, c]
        return best if best >= 0 else _first_legal(mask_row)
    if kind == DEC_CHOOSE:
        return _choose_option(r, T, p, mask_row, owned)
    if kind == DEC_TRASH:
        return _trash_choice(r, T, p, mask_row, owned)
    if kind == DEC_TOPDECK:
        return _topdeck_choice(r, T, p, mask_row)
    if kind == DEC_DISCARD:
        return _discard_choice(r, T, p, mask_row)
    if kind == DEC_PASS_CARD:
        best = _lowest_keep(T, mask_row)
        return best if best >= 0 else _first_legal(mask_row)
    # order / treasure: the card worth least in a hand first (so the best ends on top)
    best = _lowest_worth(T, mask_row)
    if best >= 0:
        return best
    for k in range(OPTION0, NUM_ACTIONS):
        if mask_row[k]:
            return k
    return _first_legal(mask_row)


@njit
def _discard_choice(r, T, p, mask_row):
    """Dead cards first: Curses, Victory-only cards, then a terminal Action the hand cannot
    play (two or more terminals and no village), then the cheapest. An optional discard
    (Cellar, Secret Chamber, Baron) gives up only Curses and Victory-only cards."""
    terminals = 0
    village = False
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        if T[c, TYPES] & ACTION:
            if T[c, PLUS_ACTIONS] == 0:
                terminals += r.zone[p, HAND, c]
            elif T[c, PLUS_ACTIONS] >= 2 and r.zone[p, HAND, c] > 0:
                village = True
    dead_terminals = terminals >= 2 and not village
    # rank = class * 100 + cost; classes: 0 Curse, 1 Victory-only, 2 dead terminal, 3 other
    best = -1
    best_v = 0
    for c in range(NUM_CARDS):
        if not mask_row[c]:
            continue
        w = _hand_worth(T, c)
        cls = 3
        if w == -2:
            cls = 0
        elif w == -1:
            cls = 1
        elif dead_terminals and (T[c, TYPES] & ACTION) and T[c, PLUS_ACTIONS] == 0:
            cls = 2
        v = cls * 100 + T[c, COST]
        if best < 0 or v < best_v:
            best = c
            best_v = v
    if best < 0:
        return _first_legal(mask_row)
    if mask_row[PASS] and best_v >= 200:
        return PASS
    return best


@njit
def _money_in_hand(r, T, p):
    """$ this turn if p played every Treasure in hand now (on top of the $ already made)."""
    m = r.game[COINS]
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        if T[c, TYPES] & TREASURE:
            m += T[c, COIN_VALUE] * r.zone[p, HAND, c]
    return m


@njit
def _trash_worthy(r, T, p, c, owned):
    """Cards a bot gets rid of when it may (Dominiate's convention): Curses; Estates while
    more than 2 gains end the game; Coppers while its Treasures total more than $4."""
    if c == CURSE_ID:
        return True
    if c == ESTATE:
        return gains_to_end(r) > 2
    if c == COPPER:
        count_owned(r, p, owned)
        return _quantity(r, T, p, Q_MONEY, 0, owned) > 4
    return False


@njit
def _trash_choice(r, T, p, mask_row, owned):
    src = r.game[DEC_SOURCE]
    target = r.game[DEC_TARGET]
    if target >= 0 and target != p:  # Thief: take the victim's best Treasure
        best = -1
        for c in range(NUM_CARDS):
            if mask_row[c] and (best < 0 or _keep_value(T, c) > _keep_value(T, best)):
                best = c
        return best if best >= 0 else _first_legal(mask_row)
    if src == MINE:  # improve the best Treasure that still improves: Silver, then Copper
        best = -1
        for c in range(NUM_CARDS):
            if mask_row[c] and T[c, COST] < T[GOLD, COST] and (
                    best < 0 or T[c, COST] > T[best, COST]):
                best = c
        if best >= 0:
            return best
        return PASS if mask_row[PASS] else _lowest_keep(T, mask_row)
    best = _lowest_keep(T, mask_row)
    if not mask_row[PASS]:
        return best if best >= 0 else _first_legal(mask_row)
    # an optional trash (Chapel, Moneylender, Masquerade): junk first, then Estates, Coppers
    for c in (CURSE_ID, ESTATE, COPPER):
        if mask_row[c] and _trash_worthy(r, T, p, c, owned):
            return c
    return PASS


@njit
def _topdeck_choice(r, T, p, mask_row):
    src = r.game[DEC_SOURCE]
    if src == HARBINGER or src == SECRET_CHAMBER:
        # onto the deck for the next hand (Harbinger, from the discard pile) or away from the
        # attack now resolving (Secret Chamber): the best card; Harbinger skips junk
        best = -1
        for c in range(NUM_CARDS):
            if mask_row[c] and (best < 0 or _hand_worth(T, c) > _hand_worth(T, best)):
                best = c
        if best >= 0 and not (mask_row[PASS] and _hand_worth(T, best) <= 0):
            return best
        return PASS if mask_row[PASS] else _first_legal(mask_row)
    if src == COURTYARD or src == ARTISAN:
        # from hand, for next turn: an Action that cannot be played this turn, else the card
        # that least changes this turn's buy (the lowest keep value)
        if r.game[ACTIONS] == 0:
            best = -1
            for c in range(NUM_CARDS):
                if mask_row[c] and (T[c, TYPES] & ACTION) and (
                        best < 0 or T[c, COST] > T[best, COST]):
                    best = c
            if best >= 0:
                return best
    best = _lowest_worth(T, mask_row)  # Bureaucrat victims, Sentry and Scout orders
    return best if best >= 0 else _first_legal(mask_row)


@njit
def _threshold_hit(m, bonus):
    """Whether +$bonus on top of $m reaches $6 (Gold) or $8 (Province) when $m does not."""
    return (m < 6 and m + bonus >= 6) or (m < 8 and m + bonus >= 8)


@njit
def _choose_option(r, T, p, mask_row, owned):
    """Options by the card asking (its decision contract is in its module's docstring)."""
    src = r.game[DEC_SOURCE]
    card = r.game[DEC_CARD]
    o = OPTION0
    if src == LIBRARY:  # set aside an Action only when no Action can be played
        return o if mask_row[o] and r.game[ACTIONS] == 0 else PASS
    if src == SENTRY:  # trash junk, discard other Victory cards, keep the rest
        if card >= 0 and _trash_worthy(r, T, p, card, owned):
            return o
        if card >= 0 and _hand_worth(T, card) < 0:
            return o + 1
        return o + 2
    if src == SPY:  # discard the owner's good cards when it is a victim, junk when it is us
        target = r.game[DEC_TARGET]
        good = card >= 0 and _hand_worth(T, card) > 0
        return o if (good != (target == p)) else o + 1
    if src == THIEF:  # take anything better than Copper
        return o if card >= 0 and T[card, COST] >= T[SILVER, COST] else PASS
    if src == PAWN:  # +Card +Action with an Action to play next, else +Card +$1
        return o if has_type_in_hand(r, T, p, ACTION) and r.game[ACTIONS] == 0 else o + 2
    if src == STEWARD:  # trash 2 junk, else +$2 when it buys a Gold/Province, else +2 Cards
        junk = 0
        for c in (CURSE_ID, ESTATE, COPPER):
            if r.zone[p, HAND, c] > 0 and _trash_worthy(r, T, p, c, owned):
                junk += r.zone[p, HAND, c]
        if junk >= 2:
            return o + 2
        return o + 1 if _threshold_hit(_money_in_hand(r, T, p), 2) else o
    if src == NOBLES:  # +2 Actions with an Action in hand and none left, else +3 Cards
        return o + 1 if has_type_in_hand(r, T, p, ACTION) and r.game[ACTIONS] == 0 else o
    if src == MINION:  # +$2 when another Minion follows or it lifts the buy to $6 or $8
        if _threshold_hit(_money_in_hand(r, T, p), 2) or (
                r.zone[p, HAND, MINION] > 0 and r.game[ACTIONS] > 0):
            return o
        return o + 1
    if src == TORTURER:  # discard 2 (as many as it can), unless no Curse is left to gain
        return o + 1 if r.pile[SUPPLY, CURSE_ID] == 0 else o
    if src == MINING_VILLAGE:  # trash it when the +$2 buys a Gold or a Province
        return o if _threshold_hit(_money_in_hand(r, T, p), 2) else PASS
    # Vassal (play the Action), Chancellor (discard the deck): yes; anything else: the first
    for k in range(OPTION0, NUM_ACTIONS):
        if mask_row[k]:
            return k
    return _first_legal(mask_row)


@njit
def _lowest(T, mask_row, by_keep):
    """The legal card with the lowest keep value (by_keep) or hand worth; -1 if none."""
    best = -1
    best_v = 0
    for c in range(NUM_CARDS):
        if mask_row[c]:
            v = _keep_value(T, c) if by_keep else _hand_worth(T, c)
            if best < 0 or v < best_v:
                best = c
                best_v = v
    return best


@njit
def _lowest_worth(T, mask_row):
    return _lowest(T, mask_row, False)


@njit
def _lowest_keep(T, mask_row):
    return _lowest(T, mask_row, True)


@njit
def _first_legal(mask_row):
    for a in range(NUM_ACTIONS):
        if mask_row[a]:
            return a
    return PASS
