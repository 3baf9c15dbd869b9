"""Attacks: the reaction window and the walk over the victims.

When an Attack is played, ``frames.play_card`` pushes the card's frame (waiting at
ATTACK_PENDING) and a reaction-window frame above it, before the Attack does anything. The window asks each other player in turn order (those holding a Reaction they have not
yet revealed to this Attack) whether to reveal one: Moat makes its owner unaffected; each
Reaction card in hand is revealed at most once per Attack (a second copy may be revealed
too; counts cannot tell copies apart, so a Reaction stays revealable while the hand holds more
copies than were revealed) and resolved fully before the next question. When
the window pops, the card frame resumes and walks its victims with ``next_victim`` (players
who revealed Moat are skipped), each victim making its own choices.

When the window closes, the card's vanilla bonuses are applied and its effect starts at step 0.
Register R3 of an attacking card's frame holds the seat offset of the current victim.
"""

from ..cards import ID, REACTION
from .frames import ask, has_type_in_hand, pop_frame, push_frame
from .jit import njit
from .layout import (
    ANSWER,
    COST_ANY_HI,
    DEC_EXCLUDE,
    DEC_REACT,
    DEC_SOURCE,
    EV_REACT,
    FR_CARD,
    FR_PLAYER,
    FR_STEP,
    HAND,
    PASS,
    PLAYERS,
    R0,
    R3,
    REACTED,
    SP,
    UNAFFECTED,
    ZONE_HAND,
)
from .zones import log_event

MOAT = ID["Moat"]
SC_REACTION_STEP = 10  # a Secret Chamber frame at this step runs its Reaction, not a play
SECRET_CHAMBER = ID["Secret Chamber"]
REACTION_CARDS = (MOAT, SECRET_CHAMBER)  # index k of a Reaction in the REACTED counts


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


REVEAL_BITS = 4  # REACTED holds a 4-bit reveal count per (player, Reaction)


@njit
def _reveals(r, d, k):
    """How many times player d revealed Reaction k to this Attack."""
    return (r.game[REACTED] >> (REVEAL_BITS * (2 * d + k))) & 15


@njit
def _revealed_exclusion(r, d):
    """Card bit set of the Reactions player d cannot reveal (again) to this Attack: each copy
    in hand once, so a Reaction is out once its reveals reach the copies in hand."""
    ex = 0
    for k in range(2):
        c = REACTION_CARDS[k]
        if _reveals(r, d, k) >= r.zone[d, HAND, c]:
            ex |= 1 << c
    return ex


@njit
def reaction_step(r, T, cfg, f):
    """One step of the reaction window frame f (its player is the attacker)."""
    P = r.game[PLAYERS]
    attacker = r.frame[f, FR_PLAYER]
    if r.frame[f, FR_STEP] == 1:
        d = (attacker + r.frame[f, R0]) % P
        a = r.game[ANSWER]
        r.frame[f, FR_STEP] = 0
        if a == PASS:
            r.frame[f, R0] += 1
        else:
            k = 0 if a == MOAT else 1
            r.game[REACTED] += 1 << (REVEAL_BITS * (2 * d + k))
            log_event(r, cfg, EV_REACT, d, a, 1)
            if a == MOAT:
                r.game[UNAFFECTED] |= 1 << d
            else:  # Secret Chamber: its Reaction runs as a frame of its own, then back here
                push_frame(r, SECRET_CHAMBER, d)
                r.frame[r.game[SP] - 1, FR_STEP] = SC_REACTION_STEP
            return  # ask the same player again: another Reaction may follow
    while r.frame[f, R0] < P:
        d = (attacker + r.frame[f, R0]) % P
        ex = _revealed_exclusion(r, d)
        if _has_reaction(r, T, d, ex):
            r.frame[f, FR_STEP] = 1
            ask(r, DEC_REACT, d, r.frame[f - 1, FR_CARD], ZONE_HAND, REACTION, 0, COST_ANY_HI,
                0, 1)
            r.game[DEC_EXCLUDE] = ex
            r.game[DEC_SOURCE] = r.frame[f - 1, FR_CARD]
            return
        r.frame[f, R0] += 1
    pop_frame(r)


@njit
def _has_reaction(r, T, d, excluded):
    if not has_type_in_hand(r, T, d, REACTION):
        return False
    for k in range(2):
        c = REACTION_CARDS[k]
        if r.zone[d, HAND, c] > 0 and not (excluded >> c) & 1:
            return True
    return False
