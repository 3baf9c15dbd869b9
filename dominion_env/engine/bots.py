"""Scripted bots as compiled code: a bot answers any decision the engine can ask.

A bot is a row of ``BotTable``: a kind (``BOT_PRIORITY`` or ``BOT_RANDOM``) and, for priority
bots, a gain priority list of up to ``MAX_RULES`` rules. A rule is::

    [card, q1, arg1, op1, value1, q2, arg2, op2, value2, ...]   (MAX_CONDS conditions)

"gain ``card`` if every condition ``quantity(arg) op value`` holds"; card -1 ends the list and
quantity ``Q_NONE`` ends a rule's conditions. ``agents.strategy`` compiles readable bots to
these arrays.

Buy and gain decisions walk the priority list and take the first legal card whose conditions
hold; otherwise PASS if allowed (a forced gain takes the most expensive legal card).

Every other decision gets a documented default, after the public simulators' habits. A card's
own default play for each decision it asks sits next to its effect in its set's module (the
``decisions`` of its ``CardCode`` row; each module's docstring lists them); ``card_default``
dispatches to them, generated from those rows. What is left is generic, by decision kind
(``GENERIC_KINDS``), ranking cards by the values of ``bot_values`` (hand worth, keep value,
trash-worthy):

* play an Action / Throne Room target: most +Actions first (villages before cantrips before
  terminals), then the highest cost; never ends the Action phase while an Action is playable
* play a Treasure: the lowest hand worth first (all of them: PASS only once none is left)
* discard: Curses, Victory-only cards, then a terminal Action the hand cannot play (two or more
  terminals, no village), then the cheapest card; optional discards (Cellar, Secret Chamber,
  Baron's Estate) give up only Curses and Victory-only cards
* pass a card (Masquerade): the lowest keep value
* trash: mandatory -> lowest keep value; optional (Chapel, Moneylender, Masquerade) -> a
  trash-worthy card, else stop
* topdeck: the lowest hand worth first (Bureaucrat victims, Sentry and Scout orders), so the
  best card ends on top
* reveal a Reaction: always
* name a card (Wishing Well): the commonest card in its draw pile
* options (``DEC_CHOOSE``): no generic rule; every card that asks one declares its default
"""

from typing import NamedTuple

import numpy as np

from ..cards import (
    ACTION,
    COPPER,
    COST,
    CURSE_ID,
    ESTATE,
    ID,
    NUM_CARDS,
    PLUS_ACTIONS,
    TREASURE,
    TYPES,
    VICTORY,
)
from .bot_values import (
    first_legal,
    first_option,
    gains_to_end,
    hand_worth,
    lowest_keep,
    lowest_worth,
    trash_worthy,
    treasure_money,
)
from .card_code import GENERIC
from .effects import CARDS
from .jit import njit, switch
from .layout import (
    COINS,
    DEC_BUY,
    DEC_DISCARD,
    DEC_GAIN,
    DEC_KIND,
    DEC_NAME,
    DEC_ORDER,
    DEC_PASS_CARD,
    DEC_PLAY_ACTION,
    DEC_PLAY_TREASURE,
    DEC_PLAY_TWICE,
    DEC_PLAYER,
    DEC_REACT,
    DEC_SOURCE,
    DEC_TOPDECK,
    DEC_TRASH,
    HAND,
    NUM_ACTIONS,
    PASS,
    PLAYERS,
    SUPPLY,
    TURNS_TAKEN,
    UNIVERSE_LEN,
)
from .zones import count_owned, empty_piles, next_u64, victory_points

BOT_PRIORITY, BOT_RANDOM = 0, 1

# the decision kinds bot_action answers by a rule of its own, whichever card asks; a card that
# asks any other kind declares its default next to its effect (tests/test_card_places.py)
GENERIC_KINDS = (
    DEC_PLAY_ACTION,
    DEC_PLAY_TREASURE,
    DEC_BUY,
    DEC_GAIN,
    DEC_TRASH,
    DEC_DISCARD,
    DEC_TOPDECK,
    DEC_REACT,
    DEC_PLAY_TWICE,
    DEC_NAME,
    DEC_PASS_CARD,
    DEC_ORDER,
)
NO_DEFAULT = -1  # card_default: the card has no default of its own for this decision
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
QUANTITY_NAMES = (
    "none",
    "money",
    "count",
    "pile",
    "coins",
    "turn",
    "cards",
    "empty_piles",
    "gains_to_end",
    "vp",
    "vp_lead",
    "action_cards",
    "treasure_cards",
    "victory_cards",
    "hand",
)

OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE = range(6)
OP_SYMBOLS = ("<", "<=", ">", ">=", "==", "!=")


class BotTable(NamedTuple):
    kind: np.ndarray  # (B,) int64, BOT_PRIORITY / BOT_RANDOM
    rules: np.ndarray  # (B, MAX_RULES, RULE_WIDTH) int64, see module docstring


@njit
def _quantity(r, T, p, q, arg, owned):
    if q == Q_MONEY:
        return treasure_money(r, T, owned)
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
def _needs_counts(q):
    """Whether quantity q reads the bot's card counts (``owned``) as _quantity computes it."""
    return (
        q == Q_MONEY
        or q == Q_COUNT
        or q == Q_CARDS
        or q == Q_ACTION_CARDS
        or q == Q_TREASURE_CARDS
        or q == Q_VICTORY_CARDS
    )


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


@njit(inline="always")
def _no_default(src, kind, r, T, p, mask_row, owned):
    return NO_DEFAULT


# card_default(src, kind, r, T, p, mask_row, owned): the default play of card ``src`` for its
# decision ``kind``, or NO_DEFAULT; one case per (card, kind) a CardCode row gives a default.
# The defaults are inlined into it, and it is compiled on its own: inlined into bot_action too,
# it made the cold compile ~8 s longer (measured)
card_default = switch(
    "card_default",
    ("src", "kind"),
    ("r", "T", "p", "mask_row", "owned"),
    [
        ((ID[code.name], kind), default)
        for code in CARDS
        for kind, default in code.decisions.items()
        if default is not GENERIC
    ],
    _no_default,
    inline="never",
)


@njit
def bot_action(r, T, bots, b, mask_row, bot_rng, g, owned):
    """The action bot ``b`` takes at game g's pending decision (mask in ``mask_row``)."""
    if bots.kind[b] == BOT_RANDOM:
        return random_action(mask_row, bot_rng, g)
    kind = r.game[DEC_KIND]
    p = r.game[DEC_PLAYER]
    own = card_default(r.game[DEC_SOURCE], kind, r, T, p, mask_row, owned)
    if own != NO_DEFAULT:
        return own
    can_pass = mask_row[PASS]
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
        return first_legal(mask_row)
    if kind == DEC_PLAY_ACTION or kind == DEC_PLAY_TWICE:
        best = -1
        for c in range(NUM_CARDS):
            if mask_row[c]:
                if (
                    best < 0
                    or T[c, PLUS_ACTIONS] > T[best, PLUS_ACTIONS]
                    or (T[c, PLUS_ACTIONS] == T[best, PLUS_ACTIONS] and T[c, COST] > T[best, COST])
                ):
                    best = c
        if best >= 0:
            return best
        return first_legal(mask_row)
    if kind == DEC_REACT:
        return first_legal(mask_row)
    if kind == DEC_NAME:
        best = -1
        bestn = -1
        for c in range(NUM_CARDS):
            if mask_row[c] and r.deck_count[p, c] > bestn:
                best = c
                bestn = r.deck_count[p, c]
        return best if best >= 0 else first_legal(mask_row)
    if kind == DEC_TRASH:
        return _trash_choice(r, T, p, mask_row, owned)
    if kind == DEC_DISCARD:
        return _discard_choice(r, T, p, mask_row)
    if kind == DEC_PASS_CARD:
        best = lowest_keep(T, mask_row)
        return best if best >= 0 else first_legal(mask_row)
    # topdeck / order / treasure (and options no card default took): the card worth least in a
    # hand first (so the best ends on top), else the first option
    best = lowest_worth(T, mask_row)
    if best >= 0:
        return best
    return first_option(mask_row)


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
        w = hand_worth(T, c)
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
        return first_legal(mask_row)
    if mask_row[PASS] and best_v >= 200:
        return PASS
    return best


@njit
def _trash_choice(r, T, p, mask_row, owned):
    """Mandatory: the lowest keep value. Optional (Chapel, Moneylender, Masquerade): junk
    first, then Estates, Coppers, while trash-worthy; else stop."""
    best = lowest_keep(T, mask_row)
    if not mask_row[PASS]:
        return best if best >= 0 else first_legal(mask_row)
    for c in (CURSE_ID, ESTATE, COPPER):
        if mask_row[c] and trash_worthy(r, T, p, c, owned):
            return c
    return PASS
