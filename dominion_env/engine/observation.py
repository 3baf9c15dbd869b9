"""The observation: one float32 vector per decision, from the deciding player's view.

Built from the declared layout ``obs_layout(players)``: a list of named pieces whose order and
sizes give the offsets the writer uses and the named dict view (``split``). Seats are rotated
so the viewer is seat 0, the player to its left seat 1, and so on.

Pieces (C = number of cards, P = players; "seat" pieces are indexed by rotated seat)::

    hand          C    viewer's hand, counts per card id
    draw_pile     C    viewer's draw pile composition (counts, never its order)
    known_top     C    the cards on top of the viewer's draw pile that it knows (it put them
                       there: Courtyard, Artisan, Harbinger, Bureaucrat, Secret Chamber, Sentry,
                       Scout, Spy, Wishing Well), counts; part of draw_pile; gone once drawn
                       or shuffled
    discard       C    viewer's discard pile, counts
    aside         C    viewer's set-aside / revealed / looked-at cards, counts
    in_play       C    the turn player's cards in play (public), counts
    owned         P*C  cards owned per seat as the viewer knows them: gains and trashes are
                       public, a Masquerade pass between two other players is not (the passed
                       card stays counted with its passer; a count may go negative when such a
                       card is later trashed in public, which is what the viewer then learns)
    supply        C    cards left per Supply pile
    in_supply     C    1 if the card has a Supply pile in this game (the kingdom + basics)
    trash         C    trash, counts
    turn_seat     P    one-hot: whose turn it is
    phase         4    one-hot: action, buy, cleanup, over
    counters      5    Actions, Buys, $, cost reduction (Bridge), Actions played this turn
    turn_number   1    turns started in the game
    hand_size     P    per seat
    draw_size     P    per seat
    discard_size  P    per seat
    vp            P    current score per seat from the owned counts above (Gardens/Duke incl.)
    turns_taken   P    completed turns per seat (the tie-break)
    decision      D    one-hot: kind of the pending decision (layout.DECISION_NAMES)
    dec_source    C    one-hot: card whose effect asks (all zero for the turn's own choices)
    dec_card      C    one-hot: card the decision is about (Vassal's, Library's, Sentry's ...);
                       this and dec_params are written only when the viewer is the decider
    dec_target    P    one-hot: seat the decision is about (the victim an attacker chooses for)
    dec_params    3    cost floor, cost cap (capped at 20), picks still wanted

Everything here is what the viewer may know under the rules: no opponent's hand contents, no
deck order. Values are raw counts, not normalised.
"""

from __future__ import annotations

import numpy as np

from ..cards import DUCHY, NUM_CARDS, VP, VP_DUKE, VP_GARDENS, VP_RULE
from .jit import njit
from .layout import (
    ACTIONS,
    ACTIONS_PLAYED,
    ASIDE,
    BUYS,
    COINS,
    COST_REDUCTION,
    DEC_CARD,
    DEC_COST_HI,
    DEC_COST_LO,
    DEC_COUNT,
    DEC_KIND,
    DEC_PLAYER,
    DEC_SOURCE,
    DEC_TARGET,
    DECK_LEN,
    DISCARD,
    HAND,
    IN_PLAY,
    IN_SUPPLY,
    KNOWN_TOP,
    NUM_DECISIONS,
    NUM_PHASES,
    PHASE,
    PLAYERS,
    SUPPLY,
    TRASH,
    TURN_NUMBER,
    TURN_PLAYER,
    TURNS_TAKEN,
    UNIVERSE_LEN,
)

C = NUM_CARDS
COST_CAP_SHOWN = 20


def _pieces(players: int):
    P = players
    return [
        ("hand", C), ("draw_pile", C), ("known_top", C), ("discard", C), ("aside", C), ("in_play", C),
        ("owned", P * C), ("supply", C), ("in_supply", C), ("trash", C),
        ("turn_seat", P), ("phase", NUM_PHASES), ("counters", 5), ("turn_number", 1),
        ("hand_size", P), ("draw_size", P), ("discard_size", P), ("vp", P), ("turns_taken", P),
        ("decision", NUM_DECISIONS), ("dec_source", C), ("dec_card", C), ("dec_target", P),
        ("dec_params", 3),
    ]


PIECE_NAMES = tuple(name for name, _ in _pieces(2))
(O_HAND, O_DRAW, O_KNOWN_TOP, O_DISCARD, O_ASIDE, O_IN_PLAY, O_OWNED, O_SUPPLY, O_IN_SUPPLY,
 O_TRASH, O_TURN_SEAT, O_PHASE, O_COUNTERS, O_TURN_NUMBER, O_HAND_SIZE, O_DRAW_SIZE, O_DISCARD_SIZE,
 O_VP, O_TURNS_TAKEN, O_DECISION, O_DEC_SOURCE, O_DEC_CARD, O_DEC_TARGET,
 O_DEC_PARAMS) = range(len(PIECE_NAMES))


def obs_layout(players: int) -> list[tuple[str, int]]:
    """The declared layout: [(piece name, size), ...] in vector order."""
    return _pieces(players)


def obs_offsets(players: int) -> np.ndarray:
    """Start offset of each piece (index = O_* constant), plus the total size at the end."""
    sizes = [n for _, n in _pieces(players)]
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)


def obs_size(players: int) -> int:
    return int(obs_offsets(players)[-1])


def split(vector: np.ndarray, players: int) -> dict[str, np.ndarray]:
    """Named view of an observation (or a batch of them, last axis): views, not copies."""
    off = obs_offsets(players)
    out = {}
    for i, (name, size) in enumerate(_pieces(players)):
        piece = vector[..., off[i]:off[i + 1]]
        if name == "owned":
            piece = piece.reshape(piece.shape[:-1] + (players, C))
        out[name] = piece
    return out


@njit
def write_observation(r, T, viewer, off, out):
    """Write the game in record r as seen by ``viewer`` into out (obs_size,) float32.

    Reads counts only (the draw piles' composition rows, not the piles, but for the viewer's
    known top cards), so its cost does not grow with the decks."""
    P = r.game[PLAYERS]
    out[:] = 0.0
    v = viewer
    tp = r.game[TURN_PLAYER]
    n = r.game[UNIVERSE_LEN]
    # offsets in locals: stores to ``out`` would otherwise force a reload of ``off`` each time
    o_hand, o_draw, o_discard, o_aside = off[O_HAND], off[O_DRAW], off[O_DISCARD], off[O_ASIDE]
    o_in_play, o_owned, o_supply = off[O_IN_PLAY], off[O_OWNED], off[O_SUPPLY]
    o_in_supply, o_trash = off[O_IN_SUPPLY], off[O_TRASH]
    for u in range(n):  # every other card id is 0 everywhere
        c = r.universe[u]
        out[o_hand + c] = r.zone[v, HAND, c]
        out[o_draw + c] = r.deck_count[v, c]
        out[o_discard + c] = r.zone[v, DISCARD, c]
        out[o_aside + c] = r.zone[v, ASIDE, c]
        out[o_in_play + c] = r.zone[tp, IN_PLAY, c]
        out[o_supply + c] = r.pile[SUPPLY, c]
        out[o_in_supply + c] = r.pile[IN_SUPPLY, c]
        out[o_trash + c] = r.pile[TRASH, c]
    o_known = off[O_KNOWN_TOP]
    top = r.player[v, DECK_LEN] - 1
    for i in range(min(r.player[v, KNOWN_TOP], r.player[v, DECK_LEN])):
        out[o_known + r.deck[v, top - i]] += 1.0
    o_hand_size, o_draw_size = off[O_HAND_SIZE], off[O_DRAW_SIZE]
    o_discard_size, o_vp, o_turns = off[O_DISCARD_SIZE], off[O_VP], off[O_TURNS_TAKEN]
    o_turn_seat, o_target = off[O_TURN_SEAT], off[O_DEC_TARGET]
    target = r.game[DEC_TARGET]
    for seat in range(P):
        p = (v + seat) % P
        o = o_owned + seat * C
        # Masquerade passes the viewer took no part in stay unseen
        hide_in = seat > 0 and P > 2 and v != (p + P - 1) % P
        hide_out = seat > 0 and P > 2 and v != (p + 1) % P
        hand_size = 0
        discard_size = 0
        cards = 0
        fixed = 0
        gardens = 0
        dukes = 0
        duchies = 0
        for u in range(n):
            c = r.universe[u]
            h = r.zone[p, HAND, c]
            d = r.zone[p, DISCARD, c]
            k = h + d + r.zone[p, IN_PLAY, c] + r.zone[p, ASIDE, c] + r.deck_count[p, c]
            if hide_in:
                k -= r.masq_in[p, c]
            if hide_out:
                k += r.masq_out[p, c]
            hand_size += h
            discard_size += d
            out[o + c] = k
            cards += k
            fixed += T[c, VP] * k
            rule = T[c, VP_RULE]
            if rule == VP_GARDENS:
                gardens += k
            elif rule == VP_DUKE:
                dukes += k
            if c == DUCHY:
                duchies = k
        out[o_hand_size + seat] = hand_size
        out[o_draw_size + seat] = r.player[p, DECK_LEN]
        out[o_discard_size + seat] = discard_size
        # the same sum as zones.victory_points, from the counts already at hand
        out[o_vp + seat] = fixed + gardens * (cards // 10) + dukes * duchies
        out[o_turns + seat] = r.player[p, TURNS_TAKEN]
        if p == tp:
            out[o_turn_seat + seat] = 1.0
        if p == target:
            out[o_target + seat] = 1.0
    out[off[O_PHASE] + r.game[PHASE]] = 1.0
    o = off[O_COUNTERS]
    out[o] = r.game[ACTIONS]
    out[o + 1] = r.game[BUYS]
    out[o + 2] = r.game[COINS]
    out[o + 3] = r.game[COST_REDUCTION]
    out[o + 4] = r.game[ACTIONS_PLAYED]
    out[off[O_TURN_NUMBER]] = r.game[TURN_NUMBER]
    out[off[O_DECISION] + r.game[DEC_KIND]] = 1.0
    if r.game[DEC_SOURCE] >= 0:
        out[off[O_DEC_SOURCE] + r.game[DEC_SOURCE]] = 1.0
    if v != r.game[DEC_PLAYER]:
        return  # what another player is asked about (Library's drawn card ...) stays theirs
    if r.game[DEC_CARD] >= 0:
        out[off[O_DEC_CARD] + r.game[DEC_CARD]] = 1.0
    o = off[O_DEC_PARAMS]
    out[o] = r.game[DEC_COST_LO]
    hi = r.game[DEC_COST_HI]
    out[o + 1] = COST_CAP_SHOWN if hi > COST_CAP_SHOWN else hi
    out[o + 2] = r.game[DEC_COUNT]
