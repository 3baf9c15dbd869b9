"""State layout and the engine's encodings, each defined once.

A batch of N games with P players is one numpy array of records (``state_dtype``), one record
per game: copying a game (search, save/load) is copying its record. Card zones other than the
draw pile are counts per card id; the draw pile is ordered::

    record.deck[p, 0 .. DECK_LEN-1]     card ids, bottom ... top (top = DECK_LEN-1)
    record.deck_count[p, c]             copies of card c in that pile (its composition)

Action space (one space for every decision, ``NUM_ACTIONS = NUM_CARDS + NUM_OPTIONS + 1``)::

    0 .............. NUM_CARDS-1 | NUM_CARDS ... NUM_CARDS+NUM_OPTIONS-1 | NUM_ACTIONS-1
    "this card" (play/buy/gain/   | "option k" (modes, yes, ...)          | PASS / DONE / NO /
     trash/discard/topdeck/...)   |                                       | end this phase

The pending decision (DEC_* fields) says what the index means now. Its mask is a pure
function of the decision record and the zones (see ``mask.py``): cards of DEC_ZONE whose
types include DEC_TYPES, whose current cost lies in [DEC_COST_LO, DEC_COST_HI] and that are not
in the card bit set DEC_EXCLUDE; the options in the bit set DEC_OPTIONS; PASS when DEC_CAN_PASS.
A player zone (hand, discard, ...) is DEC_TARGET's when set (Thief: the attacker picks among
the victim's revealed cards), else DEC_PLAYER's. A decision with nothing to choose (an empty
mask, or PASS alone) resolves as PASS at once, auto_resolve or not: "do as much as you can".
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba.core import config as numba_config

from ..cards import MAX_PLAYERS, NAMES, NUM_BASIC, NUM_CARDS, REACTION, TABLE, TYPES, pile_size

C = NUM_CARDS
NUM_OPTIONS = 6
PASS = C + NUM_OPTIONS
NUM_ACTIONS = C + NUM_OPTIONS + 1
OPTION0 = C  # action index of option 0

FRAME_DEPTH = 32
# The deepest the stack gets: the turn's frame, one per Throne Room in a chain (a copy holds at
# most one frame at a time: its frame runs while it is in play), and 3 for the card at the
# chain's end (an Attack's frame, its reaction window, a Secret Chamber revealed to it). A game
# with more Throne Rooms than this could overflow the stack: ``Game.set_scenario`` refuses one
# (a dealt game has 10); tests/test_bad_input.py plays the deepest chain it allows.
MAX_THRONE_ROOMS = FRAME_DEPTH - 1 - 3
FRAME_REGS = 4  # integer registers per frame
LOG_CAP = 1 << 16  # events kept when logging is on (Game: a batch of one game)

COST_ANY_HI = 1 << 20  # cost cap meaning "no cap"
MAX_COPIES = 127  # copies of one card a game may hold: card counts are int8 (see state_dtype)

# status
RUNNING, TERMINATED, TRUNCATED = 0, 1, 2

# phase
PHASE_ACTION, PHASE_BUY, PHASE_CLEANUP, PHASE_OVER = 0, 1, 2, 3
PHASE_NAMES = ("action", "buy", "cleanup", "over")
NUM_PHASES = 4

# decision kinds: the verb of the pending decision; the source card says whose effect asks
DEC_NONE = 0
DEC_PLAY_ACTION = 1  # Action phase: play an Action from hand; PASS ends the phase
DEC_PLAY_TREASURE = 2  # Buy phase with manual treasures: play a Treasure; PASS starts buying
DEC_BUY = 3  # buy a card from the Supply; PASS ends the turn
DEC_GAIN = 4  # gain a card (zone says from where)
DEC_TRASH = 5
DEC_DISCARD = 6
DEC_TOPDECK = 7  # put a card onto the deck
DEC_REACT = 8  # reveal a Reaction to an Attack; PASS reveals nothing (more)
DEC_PLAY_TWICE = 9  # Throne Room's target
DEC_CHOOSE = 10  # pick one of the options (about dec_card / dec_target when set)
DEC_NAME = 11  # name a card
DEC_PASS_CARD = 12  # pass a card to the left (Masquerade)
DEC_ORDER = 13  # choose the next card to put back on the deck
DECISION_NAMES = (
    "none",
    "play_action",
    "play_treasure",
    "buy",
    "gain",
    "trash",
    "discard",
    "topdeck",
    "react",
    "play_twice",
    "choose",
    "name",
    "pass_card",
    "order",
)
NUM_DECISIONS = len(DECISION_NAMES)

# where the cards of a card decision come from
# ZONE_HAND .. ZONE_ASIDE are the player's own zones, in State.zone order (index = zone - 1)
ZONE_NONE, ZONE_HAND, ZONE_DISCARD, ZONE_IN_PLAY, ZONE_ASIDE, ZONE_SUPPLY, ZONE_TRASH, ZONE_ANY = (
    range(8)
)

# frames: the bottom frame of every game is the turn; card frames hold a card id
TURN_FRAME = -1
REACTION_FRAME = -2  # the reaction window of an Attack (its player is the attacker)
ATTACK_PENDING = -1  # step of an Attack's frame until its reaction window has closed
# turn frame steps
(
    T_START,
    T_ACTION,
    T_ACTION_ANSWER,
    T_BUY_START,
    T_TREASURE,
    T_TREASURE_ANSWER,
    T_BUY,
    T_BUY_ANSWER,
    T_CLEANUP,
) = range(9)

# log events: (event, player, card, amount, seen); ``seen`` is the bit set of the players who
# see the card (bit p: player p; SEEN_ALL: every player, the rules' "reveal"). The others see
# the event without the card: "P1 draws 5 cards" (``names.log_lines`` writes either view)
SEEN_ALL = -1
# the top card of a discard of several cards (``zones.discard_pick``): every player's bit (as
# SEEN_ALL) plus a flag that tells the next pick of the same discard to cover it
SEEN_TOP = (1 << 16) | ((1 << MAX_PLAYERS) - 1)
(
    EV_TURN,
    EV_DRAW,
    EV_SHUFFLE,
    EV_PLAY,
    EV_BUY,
    EV_GAIN,
    EV_TRASH,
    EV_DISCARD,
    EV_TOPDECK,
    EV_REVEAL,
    EV_REACT,
    EV_PHASE,
    EV_END,
    EV_SET_ASIDE,
    EV_LOOK,  # the player looks at a card (Sentry): it alone sees it
    EV_PASS,  # Masquerade: the player passes the card to its left (seen by both)
    EV_DECIDE,  # a decision answered: (EV_DECIDE, decider, action index, 0), see machine.resolve
) = range(17)
EVENT_NAMES = (
    "turn",
    "draw",
    "shuffle",
    "play",
    "buy",
    "gain",
    "trash",
    "discard",
    "topdeck",
    "reveal",
    "react",
    "phase",
    "end",
    "set_aside",
    "look",
    "pass",
    "decide",
)


class Config(NamedTuple):
    """Per-batch settings the kernels read (plain ints, so one compiled version serves all)."""

    players: int  # 2..6
    autoplay_treasures: int  # 1: the Buy phase plays every Treasure in hand before buying
    auto_resolve: int  # 1: a decision with exactly one legal action is taken without stopping
    turn_limit: int  # the game is truncated before any player would start turn turn_limit+1
    log: int  # 1: record events in log_buf (Game, a batch of one); 0: no logging (batches)
    first_player: int  # -1: random per game; else that seat starts
    log_buf: np.ndarray  # (L, 5) int32 events (EV_*, player, card, amount, seen), see new_log
    # 1: every card of a discard of several cards is shown to every player (as some online
    # play does); 0 (the rules): the others see how many and the top card (``zones``)
    public_discards: int = 0
    # 1: every seat shuffles from the game's stream, as engines v5-v7 did (replaying their
    # records only, ``Game.replay``); 0: each seat from its own (``zones.seat_stream``)
    shared_stream: int = 0


# Card bit sets (DEC_EXCLUDE) hold a bit for every card id, whatever NUM_CARDS is: CARD_WORDS
# int64 words, card c at bit c % 64 of word c // 64 (``frames.exclude_card``, ``card_in_set``)
CARD_WORDS = (C + 63) // 64

# The Reactions, in card-id order: Reaction k's reveals to the Attack being resolved are counted
# in REACTED (``attacks.py``), REVEAL_BITS bits per (player, Reaction), 64 // REVEAL_BITS counts
# to a word, so the words hold every pair whatever the number of Reactions
REACTION_CARDS: tuple[int, ...] = tuple(c for c in range(C) if TABLE[c, TYPES] & REACTION)
NUM_REACTIONS = len(REACTION_CARDS)
REVEAL_BITS = 4
REACTED_WORDS = (REVEAL_BITS * MAX_PLAYERS * NUM_REACTIONS + 63) // 64

# Per-game scalars: columns of State.game (N, NUM_GAME_FIELDS) int64
(
    STATUS,  # RUNNING / TERMINATED / TRUNCATED
    TURN_PLAYER,  # whose turn it is
    TURN_NUMBER,  # turns started in this game (1 = first turn)
    PHASE,  # PHASE_*
    ACTIONS,  # Actions left this turn
    BUYS,  # Buys left this turn
    COINS,  # $ left this turn
    COST_REDUCTION,  # $ off every cost this turn (Bridge), >= 0
    ACTIONS_PLAYED,  # Action plays this turn (Conspirator)
    DEC_KIND,  # DEC_*; DEC_NONE while running or when over
    DEC_PLAYER,  # who decides now; -1 when the game is over
    DEC_SOURCE,  # card whose effect asks; -1 for the turn itself
    DEC_CARD,  # card the decision is about, -1 none
    DEC_TARGET,  # player the decision is about, -1 none
    DEC_ZONE,  # ZONE_* the chosen card comes from
    DEC_TYPES,  # the card must have all these type bits (0 = any)
    DEC_COST_LO,  # current cost >= this
    DEC_COST_HI,  # current cost <= this
    DEC_COUNT,  # picks still wanted (informative), 0 if n/a
    DEC_OPTIONS,  # bit k set: option k is legal
    DEC_CAN_PASS,  # 1: PASS is legal
    ANSWER,  # the action that resolved the last decision
    SP,  # frames on the stack
    LOG_LEN,  # events written (may exceed the log's rows: the log keeps the first ones)
    UNIVERSE_LEN,  # cards listed in State.universe
    DEC_EXCLUDE,  # CARD_WORDS words: the cards that are not legal choices (a bit set)
) = range(26)
UNAFFECTED = DEC_EXCLUDE + CARD_WORDS  # bit p set: player p revealed Moat against the Attack
REACTED = UNAFFECTED + 1  # REACTED_WORDS words: reveals per (player, Reaction), see above
(
    MERCHANTS,  # Merchants played this turn (each: +$1 on the first Silver played)
    SILVER_PLAYED,  # 1 once a Silver was played this turn
    COPPER_BONUS,  # extra $ per Copper played this turn (Coppersmith)
    PLAYERS,  # players in this game (the record has room for MAX_PLAYERS)
) = range(REACTED + REACTED_WORDS, REACTED + REACTED_WORDS + 4)
NUM_GAME_FIELDS = PLAYERS + 1

# Per-player scalars: columns of State.player (N, P, NUM_PLAYER_FIELDS) int64
# completed turns (tie-break); cards in the draw pile; how many of its top cards the owner
# knows (it put them there, or they were revealed and put back), never more than DECK_LEN;
# how many of its top cards every player knows (put there in view: a revealed card, a gain),
# never more than KNOWN_TOP (a card put there unseen on top of them resets it to 0)
TURNS_TAKEN, DECK_LEN, KNOWN_TOP, PUBLIC_TOP = range(4)
NUM_PLAYER_FIELDS = 4

# Per-player card zones: State.zone (N, P, NUM_ZONES, C) int8 counts
HAND, DISCARD, IN_PLAY, ASIDE = range(4)  # ASIDE: set aside / revealed / looked at
NUM_ZONES = 4

# Shared card piles: State.pile (N, NUM_PILES, C) int8
SUPPLY, IN_SUPPLY, TRASH = range(3)  # cards left; 1 if the card has a pile this game; trash
NUM_PILES = 3

# Frame stack: State.frame (N, FRAME_DEPTH, NUM_FRAME_FIELDS) int64
FR_CARD, FR_STEP, FR_PLAYER, FR_REG = range(4)  # registers are FR_REG .. FR_REG+FRAME_REGS-1
R0, R1, R2, R3 = FR_REG, FR_REG + 1, FR_REG + 2, FR_REG + 3
NUM_FRAME_FIELDS = FR_REG + FRAME_REGS


def state_dtype() -> np.dtype:
    """The record of one game. A batch is a numpy array of these records, shape (N,).

    Kernels take one game's record ``r = state[g]``, which Numba passes as a single pointer:
    a call costs the same whatever the state holds (a tuple of arrays is passed field by field
    and cost ~50 ns a call, measured). Copying a game is copying its record; saving a batch is
    saving one array. Per-player fields have room for MAX_PLAYERS whatever the game's PLAYERS:
    one record type for every player count means one compilation (each record shape is a new
    Numba type and costs a full compile of the engine). Card counts of zones and piles are
    int8: no game holds more than MAX_COPIES = 127 copies of a card (the rules' most is 120
    Coppers with 6 players; ``Game.set_scenario`` refuses more), and arithmetic on them is
    int64. A small record keeps big batches in cache: int8 counts measured about 15% more
    decisions/s at batch 4096 than int16/int32 ones. Card ids (universe, draw piles) are
    uint8: an index read from them is known non-negative, so Numba emits no negative-index
    wraparound wherever it is used (signed ids cost ~15% of a Big Money game). K = deck
    capacity.
    """
    P = MAX_PLAYERS
    # hot fields first, the draw piles (big, read only at their tops) last: what a step
    # reads is then a few contiguous byte ranges (see step_reads)
    return np.dtype(
        [
            # splitmix64 states: rng[0] the game's stream (the kingdom draw, the first player),
            # rng[1 + p] seat p's (its shuffles; ``zones.seed_seats``, ``zones.seat_stream``)
            ("rng", np.uint64, (1 + P,)),
            ("game", np.int64, (NUM_GAME_FIELDS,)),  # per-game scalars, STATUS .. PLAYERS
            ("player", np.int64, (P, NUM_PLAYER_FIELDS)),  # TURNS_TAKEN .. PUBLIC_TOP
            ("zone", np.int8, (P, NUM_ZONES, C)),  # HAND / DISCARD / IN_PLAY / ASIDE counts
            # the draw pile's composition, kept with it by every move onto or off it: owned cards,
            # the observation's draw_pile and the bots' counts read this row instead of the pile
            ("deck_count", np.int8, (P, C)),
            # cards every player knows to be in p's hand (revealed, gained or drawn in view):
            # a lower bound of the hand, kept by every move out of it (``zones.leave_hand``)
            ("pub_hand", np.int8, (P, C)),
            # cards every player saw go into p's discard pile and not leave it since (gained,
            # played, revealed): a lower bound of the pile, emptied by its shuffle
            # (``zones.enter_discard``)
            ("pub_discard", np.int8, (P, C)),
            ("pile", np.int8, (NUM_PILES, C)),  # SUPPLY / IN_SUPPLY / TRASH per card id
            # ids of the cards that exist in this game (Supply cards plus any a scenario placed),
            # ascending; hot loops run over these ~17 ids instead of all C, in the same order, so
            # every result equals that of a loop over every card
            ("universe", np.uint8, (C,)),
            ("frame", np.int32, (FRAME_DEPTH, NUM_FRAME_FIELDS)),  # the frame stack
            ("reward", np.float32, (P,)),  # +1 sole winner, 0 shared win, -1 else; set at the end
            # cards passed face down by Masquerade, per player and card, over the whole game:
            # what a player neither passing nor receiving cannot know (observation honesty);
            # cumulative, so not bounded by the copies in the game: int16
            ("masq_in", np.int16, (P, C)),
            ("masq_out", np.int16, (P, C)),
            ("deck", np.uint8, (P, deck_capacity(P))),  # draw pile card ids, top at DECK_LEN-1
        ]
    )


# fields whose first axis is the seat (room for MAX_PLAYERS; a game uses the first PLAYERS rows)
PER_PLAYER_FIELDS = (
    "player",
    "zone",
    "deck",
    "deck_count",
    "pub_hand",
    "pub_discard",
    "masq_in",
    "masq_out",
    "reward",
)
STEP_FRAMES = 4  # bottom frames a step is taken to read (the turn and a card or two above it)


def step_reads(players: int) -> np.ndarray:
    """(K, 2) int64 byte ranges [start, stop) of a record that a step of a game with ``players``
    players reads: every per-game field, the players' rows of the per-player fields, the bottom
    STEP_FRAMES frames. Not the draw piles (a step reads a few cards at their tops, wherever
    those are) and not the Masquerade counts in 2-player games (the observation reads those
    only with 3+ players). The step kernel prefetches these a few games ahead
    (``jit.prefetch_bytes``): they are a hint and change no result."""
    dt = state_dtype()
    ranges = []
    for name in dt.names:
        field, offset = dt.fields[name][:2]
        size = field.itemsize
        if name == "deck" or (name in ("masq_in", "masq_out") and players == 2):
            continue
        if name in PER_PLAYER_FIELDS:
            size = size // MAX_PLAYERS * players
        if name == "frame":
            size = size // FRAME_DEPTH * STEP_FRAMES
        if ranges and ranges[-1][1] == offset:
            ranges[-1][1] = offset + size
        else:
            ranges.append([offset, offset + size])
    return np.array(ranges, np.int64)


def deck_capacity(players: int) -> int:
    """Upper bound on the cards one player can own: every card of the game."""
    basics = sum(pile_size(n, players) for n in NAMES[:NUM_BASIC]) + 10 * players
    return int(basics + 10 * 12)


def new_state(n: int) -> np.ndarray:
    """Zeroed records for ``n`` games (call a reset kernel next).

    Under NUMBA_DISABLE_JIT the kernels run as Python and read fields as attributes
    (``r.game``), which numpy gives records of a recarray; compiled code takes the plain array.
    """
    state = np.zeros(n, state_dtype())
    return state.view(np.recarray) if numba_config.DISABLE_JIT else state


def new_log(log: bool) -> np.ndarray:
    """The event log buffer of a Config: LOG_CAP rows when logging, a dummy row otherwise."""
    return np.zeros((LOG_CAP if log else 1, 5), np.int32)
