"""Scripted bots as compiled code: a bot answers any decision the engine can ask.

A bot is a row of ``BotTable``: a kind (``BOT_PRIORITY`` or ``BOT_RANDOM``) and, for priority
bots, up to ``MAX_RULES - 1`` rules in sections (layout below): gain rules (buys and gains), and
play rules that answer which Action to play, what to trash, what to discard and which option
to take for a card's choice. A rule is "take ``target`` if its condition holds"; the condition
is a small postfix program run by ``rule_holds``, a stack machine over scalar registers (no
Python, no allocation per decision). ``agents.language`` compiles the readable language to it.

A play rule is asked first: the first rule of the decision's section whose target is legal
and whose condition holds decides. When none does, or the bot has no rules of that section,
the defaults below decide, exactly as for a bot without play rules.

Buy and gain decisions (after a card's own default, e.g. Swindler's) walk the gain rules and
take the first legal card whose condition holds; otherwise PASS if allowed (a forced gain
takes the most expensive legal card).

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
    ACTIONS,
    ASIDE,
    BUYS,
    COINS,
    DEC_BUY,
    DEC_CHOOSE,
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
    DISCARD,
    HAND,
    IN_PLAY,
    NUM_ACTIONS,
    PASS,
    PLAYERS,
    SUPPLY,
    TURN_PLAYER,
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

# --- the compiled table ---------------------------------------------------------------------
# rules[b] (MAX_RULES, RULE_WIDTH) int64: row 0 is a header, the rules follow sorted by section
#
#   header   [start_0, end_0, start_1, end_1, ...]     rows [start_s, end_s) hold section s
#   rule     [target, section, source, length, step_0, step_1, ...]
#
# target: a card id, an option (OPTION0 + k) or PASS; source: the card whose decision a
# CHOOSE rule answers (-1: any); the condition is a postfix program of ``length`` steps, each
# one int ``operand << 8 | opcode``, that leaves 1 (take it) or 0 on its stack; an empty
# program always holds. (Sizes keep a bot's rows ~10 KB: tables travel in snapshots.)
MAX_RULES = 48
PROG_LEN = 24
RULE_WIDTH = 4 + PROG_LEN
R_TARGET, R_SECTION, R_SOURCE, R_LEN, R_PROG = range(5)
MAX_STACK = 6  # the interpreter's registers: deeper programs are refused when compiled
MAX_CONDS = 3  # legacy: conditions per rule in the (card, condition, ...) form

# sections: which decisions a rule answers
SEC_GAIN, SEC_PLAY, SEC_TRASH, SEC_DISCARD, SEC_CHOOSE = range(5)
NUM_SECTIONS = 5
SECTION_NAMES = ("gain", "play", "trash", "discard", "choose")

# quantities a program reads (operand: a card selector where the quantity takes one)
Q_NONE = 0
Q_MONEY = 1  # total $ of all the bot's Treasures (coins x count over every owned card)
Q_COUNT = 2  # cards of selector ``arg`` the bot owns
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
Q_HAND = 14  # cards of selector ``arg`` in the bot's hand now
Q_DECK = 15  # ... in its draw pile
Q_DISCARD = 16  # ... in its discard pile
Q_IN_PLAY = 17  # ... in play
Q_OPP_COUNT = 18  # the most cards of selector ``arg`` any one opponent owns
Q_OPP_TOTAL = 19  # cards of selector ``arg`` all opponents own together
Q_SEAT = 20  # the bot's place in turn order (1 = the first player)
Q_PLAYERS = 21  # players in the game
Q_TURNS_TAKEN = 22  # the bot's completed turns
Q_OPP_TURNS_MAX = 23  # the most completed turns of any opponent
Q_OPP_TURNS_MIN = 24  # the fewest completed turns of any opponent
Q_OPP_VP = 25  # the best opponent's score
Q_BUYS = 26  # Buys left this turn
Q_ACTIONS = 27  # Actions left this turn
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
    "deck",
    "discard",
    "in_play",
    "opp_count",
    "opp_total",
    "seat",
    "players",
    "turns_taken",
    "opp_turns_max",
    "opp_turns_min",
    "opp_vp",
    "buys",
    "actions",
)
# a card selector: a card id, SEL_TYPE + a type bit set (every card with one of those types),
# or SEL_ALL
SEL_ALL = -1
SEL_TYPE = 1 << 16

# opcodes (a step's low 8 bits): PUSH pushes operand / SCALE; Q_BASE + q pushes quantity q
# (operand: its selector); the others pop their operands (operand unused) and push the
# result; a truth is 1, false 0
(
    OP_PUSH,
    OP_ADD,
    OP_SUB,
    OP_MUL,
    OP_DIV,
    OP_FLOORDIV,
    OP_NEG,
    OP_LT,
    OP_LE,
    OP_GT,
    OP_GE,
    OP_EQ,
    OP_NE,
    OP_AND,
    OP_OR,
    OP_NOT,
) = range(16)
Q_BASE = 32
SCALE = 1000  # constants are kept in thousandths: at most 3 decimals
OP_SYMBOLS = ("<", "<=", ">", ">=", "==", "!=")  # OP_LT + i


class BotTable(NamedTuple):
    kind: np.ndarray  # (B,) int64, BOT_PRIORITY / BOT_RANDOM
    rules: np.ndarray  # (B, MAX_RULES, RULE_WIDTH) int64, see the layout above


@njit(inline="always")
def _selects(T, c, sel):
    if sel >= SEL_TYPE:
        return (T[c, TYPES] & (sel - SEL_TYPE)) != 0
    return sel == SEL_ALL or c == sel


@njit
def _zone_count(r, T, p, zone, sel):
    """Cards of selector ``sel`` in p's zone (HAND ... ASIDE), or its draw pile (zone -1)."""
    if 0 <= sel < SEL_TYPE:
        return r.deck_count[p, sel] if zone < 0 else r.zone[p, zone, sel]
    n = 0
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        if _selects(T, c, sel):
            n += r.deck_count[p, c] if zone < 0 else r.zone[p, zone, c]
    return n


@njit
def _owned_by(r, T, p, sel):
    """Cards of selector ``sel`` p owns, counted without scratch (for opponents)."""
    n = _zone_count(r, T, p, -1, sel)
    for z in range(ASIDE + 1):
        n += _zone_count(r, T, p, z, sel)
    return n


@njit
def _seat(r, p):
    """p's place in turn order, 1 = first: the players who started as many turns as the one
    taking its turn now are the first ones of the round, up to it."""
    t = r.game[TURN_PLAYER]
    n = r.game[PLAYERS]
    k = r.player[t, TURNS_TAKEN] + 1
    same = 0
    for o in range(n):
        if r.player[o, TURNS_TAKEN] + (1 if o == t else 0) == k:
            same += 1
    first = (t - same + 1 + n) % n
    return (p - first + n) % n + 1


@njit
def _quantity(r, T, p, q, arg, owned):
    if q == Q_MONEY:
        return treasure_money(r, T, owned)
    if q == Q_COUNT:
        if 0 <= arg < SEL_TYPE:
            return owned[arg]
        n = 0
        for u in range(r.game[UNIVERSE_LEN]):
            c = r.universe[u]
            if _selects(T, c, arg):
                n += owned[c]
        return n
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
    if q == Q_VP or q == Q_VP_LEAD or q == Q_OPP_VP:
        # victory_points reuses ``owned`` as scratch: recount the bot's cards afterwards
        own = victory_points(r, T, p, owned)
        best = -(1 << 30)
        for o in range(r.game[PLAYERS]):
            if o != p and q != Q_VP:
                best = max(best, victory_points(r, T, o, owned))
        count_owned(r, p, owned)
        if q == Q_VP:
            return own
        return own - best if q == Q_VP_LEAD else best
    if q == Q_ACTION_CARDS or q == Q_TREASURE_CARDS or q == Q_VICTORY_CARDS:
        bit = ACTION if q == Q_ACTION_CARDS else (TREASURE if q == Q_TREASURE_CARDS else VICTORY)
        n = 0
        for u in range(r.game[UNIVERSE_LEN]):
            c = r.universe[u]
            if T[c, TYPES] & bit:
                n += owned[c]
        return n
    if q == Q_HAND:
        return _zone_count(r, T, p, HAND, arg)
    if q == Q_DECK:
        return _zone_count(r, T, p, -1, arg)
    if q == Q_DISCARD:
        return _zone_count(r, T, p, DISCARD, arg)
    if q == Q_IN_PLAY:
        return _zone_count(r, T, p, IN_PLAY, arg)
    if q == Q_OPP_COUNT or q == Q_OPP_TOTAL:
        best = 0
        total = 0
        for o in range(r.game[PLAYERS]):
            if o != p:
                x = _owned_by(r, T, o, arg)
                best = max(best, x)
                total += x
        return best if q == Q_OPP_COUNT else total
    if q == Q_SEAT:
        return _seat(r, p)
    if q == Q_PLAYERS:
        return r.game[PLAYERS]
    if q == Q_TURNS_TAKEN:
        return r.player[p, TURNS_TAKEN]
    if q == Q_OPP_TURNS_MAX or q == Q_OPP_TURNS_MIN:
        hi = -1
        lo = 1 << 30
        for o in range(r.game[PLAYERS]):
            if o != p:
                hi = max(hi, r.player[o, TURNS_TAKEN])
                lo = min(lo, r.player[o, TURNS_TAKEN])
        return hi if q == Q_OPP_TURNS_MAX else lo
    if q == Q_BUYS:
        return r.game[BUYS]
    if q == Q_ACTIONS:
        return r.game[ACTIONS]
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
def _apply(op, a, b):
    """Binary opcode ``op`` on a (below) and b (top); a division by zero gives 0."""
    if op == OP_ADD:
        return a + b
    if op == OP_SUB:
        return a - b
    if op == OP_MUL:
        return a * b
    if op == OP_DIV or op == OP_FLOORDIV:
        if b == 0.0:
            return 0.0
        return a / b if op == OP_DIV else np.floor(a / b)
    t = False
    if op == OP_LT:
        t = a < b
    elif op == OP_LE:
        t = a <= b
    elif op == OP_GT:
        t = a > b
    elif op == OP_GE:
        t = a >= b
    elif op == OP_EQ:
        t = a == b
    elif op == OP_NE:
        t = a != b
    elif op == OP_AND:
        t = a != 0.0 and b != 0.0
    else:  # OP_OR
        t = a != 0.0 or b != 0.0
    return 1.0 if t else 0.0


@njit
def rule_holds(r, T, prog, n, p, owned, counted):
    """Run the postfix program prog[:n] for player p. Returns (holds, counted): ``owned``
    holds p's card counts once ``counted`` (made on the first quantity that needs them).

    Numba helpers allocate nothing (``jit``), so the stack is MAX_STACK scalar registers
    s0..s5; the compiler refuses programs that need more."""
    s0 = s1 = s2 = s3 = s4 = s5 = 0.0
    sp = 0
    for i in range(n):
        op = prog[i] & 0xFF
        x = prog[i] >> 8
        if op == OP_PUSH or op >= Q_BASE:
            if op == OP_PUSH:
                v = x / SCALE
            else:
                q = op - Q_BASE
                if not counted and _needs_counts(q):
                    count_owned(r, p, owned)
                    counted = True
                v = float(_quantity(r, T, p, q, x, owned))
            if sp == 0:
                s0 = v
            elif sp == 1:
                s1 = v
            elif sp == 2:
                s2 = v
            elif sp == 3:
                s3 = v
            elif sp == 4:
                s4 = v
            else:
                s5 = v
            sp += 1
        elif op == OP_NEG or op == OP_NOT:
            if sp == 1:
                top = s0
            elif sp == 2:
                top = s1
            elif sp == 3:
                top = s2
            elif sp == 4:
                top = s3
            elif sp == 5:
                top = s4
            else:
                top = s5
            v = -top if op == OP_NEG else (1.0 if top == 0.0 else 0.0)
            if sp == 1:
                s0 = v
            elif sp == 2:
                s1 = v
            elif sp == 3:
                s2 = v
            elif sp == 4:
                s3 = v
            elif sp == 5:
                s4 = v
            else:
                s5 = v
        else:
            if sp == 2:
                s0 = _apply(op, s0, s1)
            elif sp == 3:
                s1 = _apply(op, s1, s2)
            elif sp == 4:
                s2 = _apply(op, s2, s3)
            elif sp == 5:
                s3 = _apply(op, s3, s4)
            else:
                s4 = _apply(op, s4, s5)
            sp -= 1
    return (sp == 0 or s0 != 0.0), counted


@njit
def _rule_choice(r, T, rules, b, sec, src, mask_row, p, owned):
    """The target of bot b's first rule of section ``sec`` that is legal now and holds, or -1.
    CHOOSE rules answer only their own card's decision (``src``)."""
    counted = False
    for k in range(rules[b, 0, 2 * sec], rules[b, 0, 2 * sec + 1]):
        a = rules[b, k, R_TARGET]
        if not mask_row[a]:
            continue
        s = rules[b, k, R_SOURCE]
        if s >= 0 and s != src:
            continue
        ok, counted = rule_holds(r, T, rules[b, k, R_PROG:], rules[b, k, R_LEN], p, owned, counted)
        if ok:
            return a
    return -1


@njit(inline="always")
def _section(kind):
    """The rule section that answers decision ``kind`` (-1: none, the defaults decide)."""
    if kind == DEC_BUY or kind == DEC_GAIN:
        return SEC_GAIN
    if kind == DEC_PLAY_ACTION:
        return SEC_PLAY
    if kind == DEC_TRASH:
        return SEC_TRASH
    if kind == DEC_DISCARD:
        return SEC_DISCARD
    if kind == DEC_CHOOSE:
        return SEC_CHOOSE
    return -1


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
    src = r.game[DEC_SOURCE]
    sec = _section(kind)
    # play rules come before the card's own default; gain rules keep their place after it
    if sec > SEC_GAIN and bots.rules[b, 0, 2 * sec] < bots.rules[b, 0, 2 * sec + 1]:
        a = _rule_choice(r, T, bots.rules, b, sec, src, mask_row, p, owned)
        if a >= 0:
            return a
    own = card_default(src, kind, r, T, p, mask_row, owned)
    if own != NO_DEFAULT:
        return own
    can_pass = mask_row[PASS]
    if kind == DEC_BUY or kind == DEC_GAIN:
        a = _rule_choice(r, T, bots.rules, b, SEC_GAIN, src, mask_row, p, owned)
        if a >= 0:
            return a
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
