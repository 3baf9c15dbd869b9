"""Attacks: the reaction window and the walk over the victims.

When an Attack is played, ``frames.play_card`` pushes the card's frame (waiting at
ATTACK_PENDING) and a reaction-window frame above it, before the Attack does anything. The
window asks each other player in turn order (those holding a Reaction they have not yet revealed
to this Attack) whether to reveal one. Each Reaction card in hand is revealed at most once per
Attack (a second copy may be revealed too; counts cannot tell copies apart, so a Reaction stays
revealable while the hand holds more copies than were revealed) and resolved fully before the
next question: what a reveal does is the card's own (``CardCode.reaction`` in its set's module,
run by ``effects.effect_step``; Moat makes its owner unaffected). The Reactions are the cards of
the table with the Reaction type (``layout.REACTION_CARDS``). When the window pops, the card
frame resumes and walks its victims with ``next_victim`` (players who revealed Moat are
skipped), each victim making its own choices.

When the window closes, the card's vanilla bonuses are applied and its effect starts at step 0.
Register R3 of an attacking card's frame holds the seat offset of the current victim.
"""

from ..cards import REACTION
from .frames import ask, exclude_card, has_type_in_hand, pop_frame
from .jit import njit
from .layout import (
    ANSWER,
    COST_ANY_HI,
    DEC_REACT,
    DEC_SOURCE,
    EV_REACT,
    FR_CARD,
    FR_PLAYER,
    FR_STEP,
    HAND,
    NUM_REACTIONS,
    PASS,
    PLAYERS,
    R0,
    R3,
    REACTED,
    REACTION_CARDS,
    REVEAL_BITS,
    SEEN_ALL,
    UNAFFECTED,
    ZONE_HAND,
)
from .zones import log_event

REVEAL_MAX = (1 << REVEAL_BITS) - 1
COUNTS_PER_WORD = 64 // REVEAL_BITS


@njit
def next_victim(r, f, attacker):
    """Advance the card frame f to the next affected player in turn order; -1 when done."""
    P = r.game[PLAYERS]
    k = r.frame[f, R3] + 1
    while k < P:
        v = (attacker + k) % P
        if not (r.game[UNAFFECTED] >> v) & 1:
            r.frame[f, R3] = k
            return v
        k += 1
    r.frame[f, R3] = P
    return -1


@njit
def current_victim(r, f, attacker):
    return (attacker + r.frame[f, R3]) % r.game[PLAYERS]


@njit(inline="always")
def _reveal_slot(d, k):
    """(word, shift) of the reveal count of player d and Reaction k in REACTED."""
    i = NUM_REACTIONS * d + k
    return REACTED + i // COUNTS_PER_WORD, REVEAL_BITS * (i % COUNTS_PER_WORD)


@njit
def _reveals(r, d, k):
    """How many times player d revealed Reaction k to this Attack."""
    word, shift = _reveal_slot(d, k)
    return (r.game[word] >> shift) & REVEAL_MAX


@njit(inline="always")
def _revealable(r, d, k):
    """Player d may reveal Reaction k (again) to this Attack: each copy in hand once, so a
    Reaction is out once its reveals reach the copies in hand."""
    return _reveals(r, d, k) < r.zone[d, HAND, REACTION_CARDS[k]]


@njit
def reaction_step(r, T, cfg, f):
    """One step of the reaction window frame f (its player is the attacker).

    Returns (player, card) when that player has just revealed that Reaction card, else
    (-1, -1): the caller (``effects.effect_step``) then runs the card's Reaction (its
    ``CardCode.reaction``), which may push a frame of its own above the window."""
    P = r.game[PLAYERS]
    attacker = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 1:
        d = (attacker + r.frame[f, R0]) % P
        a = r.game[ANSWER]
        r.frame[f, FR_STEP] = 0
        if a == PASS:
            r.frame[f, R0] += 1
        else:
            for k in range(NUM_REACTIONS):
                if REACTION_CARDS[k] == a:
                    word, shift = _reveal_slot(d, k)
                    r.game[word] += 1 << shift
                    # the revealed copies stay in hand, known to all (each copy shows once)
                    if r.pub_hand[d, a] < _reveals(r, d, k):
                        r.pub_hand[d, a] = _reveals(r, d, k)
            log_event(r, cfg, EV_REACT, d, a, 1, SEEN_ALL)
            return d, a  # then ask the same player again: another Reaction may follow
    while r.frame[f, R0] < P:
        d = (attacker + r.frame[f, R0]) % P
        if _has_reaction(r, T, d):
            r.frame[f, FR_STEP] = 1
            ask(r, DEC_REACT, d, r.frame[f - 1, FR_CARD], ZONE_HAND, REACTION, 0, COST_ANY_HI, 0, 1)
            for k in range(NUM_REACTIONS):
                if not _revealable(r, d, k):
                    exclude_card(r, REACTION_CARDS[k])
            r.game[DEC_SOURCE] = r.frame[f - 1, FR_CARD]
            return -1, -1
        r.frame[f, R0] += 1
    pop_frame(r)
    return -1, -1


@njit
def _has_reaction(r, T, d):
    """Player d holds a Reaction it may still reveal to this Attack."""
    if not has_type_in_hand(r, T, d, REACTION):
        return False
    for k in range(NUM_REACTIONS):
        if r.zone[d, HAND, REACTION_CARDS[k]] > 0 and _revealable(r, d, k):
            return True
    return False
