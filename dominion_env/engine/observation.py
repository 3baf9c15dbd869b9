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
    public_hand   P*C  per seat, the cards every player knows to be in its hand (revealed:
                       Bureaucrat with no Victory card, Shanty Town, a Moat or Secret Chamber
                       shown; gained to hand; drawn from a known top; Adventurer's and Scout's
                       revealed cards taken): a lower bound of that hand, kept as cards leave
                       it (a card leaving unseen may be any known one: each kind loses one;
                       so does each card of a discard of several, Cellar, Militia ..., whose
                       cards but the top one the others do not see)
    public_top    P*C  per seat, the cards on top of its draw pile that every player knows
                       (Bureaucrat's Silver and its victim's Victory card, a Spy's put-back, a
                       Scout's put-back of one kind (of two kinds or more, its order is its
                       owner's: none shown), a Wishing Well miss), counts; gone once drawn or
                       shuffled, or hidden under a card put there unseen

Everything here is what the viewer may know under the rules: no opponent's hand contents, no
deck order, but what was revealed to every player. The public pieces come from the record's
public knowledge (``zones``: every move says who sees the card, and the same ``seen`` writes
the log), so the observation and the per-viewer log (``names.log_lines``) agree.

The public pieces come last: the layout only grows at its end, so an agent trained on an
older, shorter observation reads the new one with zero weights for the appended entries
(``train.policy.load_agent``) and plays as it did.

Values are raw counts by default. ``obs_scale(players)`` gives a fixed divisor per entry, from
the piece table ``SCALES`` (the Supply by each pile's starting size, counts and counters by
small constants), so that a scaled observation (``VecGame(scale_observations=True)``) is O(1)
in play: networks learn from it, where raw counts (a Supply of 46 Coppers beside one-hot flags)
stall them. Scaling divides in the kernel that writes the observation; it changes no game.
``obs_bounds(players, turn_limit, scaled)`` gives true (low, high) bounds per entry: a count of
one card is at most ``MAX_COPIES`` (the state's limit, also for ``set_scenario`` positions),
sizes at most every copy of every card; counters have no small bound under the rules
(Coppersmith under Throne Rooms makes $ grow with the square of the plays): their bound is
that square, true but loose.

The card-set view (``card_set(obs, players)``, layout ``card_set_layout(players)``) says the
same facts card by card, for networks that embed each card by id and pool over the cards of
the game: it is a gather from the flat vector (nothing new is computed), so both always agree::

    card_ids   (N, K) int64    the game's cards, sorted by id; -1 pads a row with fewer
    cards      (N, K, F) f32   per card: its entry of every C-sized piece (hand, draw_pile,
                               known_top, discard, aside, in_play, owned per rotated seat,
                               supply, in_supply, trash, dec_source, dec_card, public_hand and
                               public_top per rotated seat); 0 in a padding slot
    globals    (N, G) f32      every other entry (turn_seat .. dec_params), in vector order

A game's cards are those with a Supply pile (``in_supply``) plus any other card with a nonzero
entry (a card a scenario hands out without a pile): in a dealt game that is exactly its 17
piles (10 kingdom + 7 basic cards; every card comes from a pile), ``CARD_SET_SIZE``. A
scenario may give fewer cards (padded with id -1) or more (``set_scenario(supply=...)`` adds
piles): more than ``k`` is a ValueError that names the row and says which ``k`` would hold it.
"""

from __future__ import annotations

import numpy as np

from ..cards import (
    DUCHY,
    KINGDOM_SIZE,
    NAMES,
    NUM_BASIC,
    NUM_CARDS,
    TABLE,
    VP,
    VP_DUKE,
    VP_GARDENS,
    VP_RULE,
    check_players,
    pile_size,
)
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
    MAX_COPIES,
    NUM_DECISIONS,
    NUM_PHASES,
    PHASE,
    PLAYERS,
    PUBLIC_TOP,
    SUPPLY,
    TRASH,
    TURN_NUMBER,
    TURN_PLAYER,
    TURNS_TAKEN,
    UNIVERSE_LEN,
    C,
)

COST_CAP_SHOWN = 20


def _pieces(players: int):
    P = players
    return [
        ("hand", C),
        ("draw_pile", C),
        ("known_top", C),
        ("discard", C),
        ("aside", C),
        ("in_play", C),
        ("owned", P * C),
        ("supply", C),
        ("in_supply", C),
        ("trash", C),
        ("turn_seat", P),
        ("phase", NUM_PHASES),
        ("counters", 5),
        ("turn_number", 1),
        ("hand_size", P),
        ("draw_size", P),
        ("discard_size", P),
        ("vp", P),
        ("turns_taken", P),
        ("decision", NUM_DECISIONS),
        ("dec_source", C),
        ("dec_card", C),
        ("dec_target", P),
        ("dec_params", 3),
        ("public_hand", P * C),
        ("public_top", P * C),
    ]


PIECE_NAMES = tuple(name for name, _ in _pieces(2))

# Divisor per piece for scaled observations: a number, a tuple (one per entry of the piece), or
# "pile" (the card's Supply pile size at setup, for this player count).
SCALES = {
    "hand": 5,
    "draw_pile": 10,
    "known_top": 2,
    "discard": 10,
    "aside": 5,
    "in_play": 5,
    "owned": 10,
    "supply": "pile",
    "in_supply": 1,
    "trash": 10,
    "turn_seat": 1,
    "phase": 1,
    "counters": (5, 5, 10, 5, 5),
    "turn_number": 50,
    "hand_size": 10,
    "draw_size": 20,
    "discard_size": 20,
    "vp": 20,
    "turns_taken": 25,
    "decision": 1,
    "dec_source": 1,
    "dec_card": 1,
    "dec_target": 1,
    "dec_params": (10, 10, 5),
    "public_hand": 5,
    "public_top": 2,
}
FLAG_PIECES = (
    "in_supply",
    "turn_seat",
    "phase",
    "decision",
    "dec_source",
    "dec_card",
    "dec_target",
)
SIGNED_PIECES = ("owned", "vp")  # a Masquerade pass trashed in public; Curses


def obs_scale(players: int) -> np.ndarray:
    """(O,) float32: the divisor of each entry of a scaled observation (see ``SCALES``)."""
    pile = np.array([max(1, pile_size(n, players)) for n in NAMES], np.float32)
    out = []
    for name, size in _pieces(players):
        s = SCALES[name]
        if isinstance(s, str):
            out.append(pile)
        else:
            out.append(np.broadcast_to(np.asarray(s, np.float32), (size,)))
    return np.concatenate(out).astype(np.float32)


def obs_bounds(players: int, turn_limit: int = 100, scaled: bool = False):
    """(low, high) (O,) float32: bounds every observation entry keeps, in any game."""
    cards = NUM_CARDS * MAX_COPIES  # every copy of every card
    plays = 2 * cards  # each card enters play once a turn; Throne Room plays it twice
    # most VP per copy: Gardens counts every card, Duke every Duchy
    rule = TABLE[:, VP_RULE]
    vp_per_copy = np.where(
        rule == VP_GARDENS,
        cards // 10,
        np.where(rule == VP_DUKE, MAX_COPIES, np.maximum(TABLE[:, VP], 0)),
    )
    hi_of = {
        "counters": (1 + 2 * plays, 1 + plays, plays * plays, plays, plays),
        "turn_number": turn_limit * players + 1,
        "turns_taken": turn_limit,
        "hand_size": cards,
        "draw_size": cards,
        "discard_size": cards,
        "vp": MAX_COPIES * int(vp_per_copy.sum()),
        "dec_params": (COST_CAP_SHOWN, COST_CAP_SHOWN, cards),
    }
    low, high = [], []
    for name, size in _pieces(players):
        hi = 1 if name in FLAG_PIECES else hi_of.get(name, MAX_COPIES)
        high.append(np.broadcast_to(np.asarray(hi, np.float64), (size,)))
        lo = -MAX_COPIES if name in SIGNED_PIECES else 0
        low.append(np.full(size, lo, np.float64))
    low, high = np.concatenate(low), np.concatenate(high)
    if scaled:
        scale = obs_scale(players).astype(np.float64)
        low, high = low / scale, high / scale
    return low.astype(np.float32), high.astype(np.float32)


(
    O_HAND,
    O_DRAW,
    O_KNOWN_TOP,
    O_DISCARD,
    O_ASIDE,
    O_IN_PLAY,
    O_OWNED,
    O_SUPPLY,
    O_IN_SUPPLY,
    O_TRASH,
    O_TURN_SEAT,
    O_PHASE,
    O_COUNTERS,
    O_TURN_NUMBER,
    O_HAND_SIZE,
    O_DRAW_SIZE,
    O_DISCARD_SIZE,
    O_VP,
    O_TURNS_TAKEN,
    O_DECISION,
    O_DEC_SOURCE,
    O_DEC_CARD,
    O_DEC_TARGET,
    O_DEC_PARAMS,
    O_PUBLIC_HAND,
    O_PUBLIC_TOP,
) = range(len(PIECE_NAMES))
PER_SEAT_PIECES = ("owned", "public_hand", "public_top")  # P*C: one row of C per seat


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
    for i, (name, _size) in enumerate(_pieces(players)):
        piece = vector[..., off[i] : off[i + 1]]
        if name in PER_SEAT_PIECES:
            piece = piece.reshape(piece.shape[:-1] + (players, C))
        out[name] = piece
    return out


# -- the card-set view ----------------------------------------------------------------------

CARD_SET_SIZE = KINGDOM_SIZE + NUM_BASIC  # cards in a dealt game: 10 kingdom + 7 basic piles
NO_CARD = -1  # card_ids of a padding slot


def card_set_layout(players: int) -> dict:
    """The card-set view's declared layout for ``players``:

    ``{"card_features": [(name, piece, seat), ...], "globals": [(name, piece, i), ...],
    "feature_offsets": (F,) int64, "global_index": (G,) int64}``: a per-card feature is piece
    ``piece``'s entry for the card (row ``seat`` of a per-seat piece, else seat None), found
    in the flat vector at ``feature_offsets[f] + card id``; a global is entry ``i`` of piece
    ``piece``, at ``global_index[g]``. Names are "hand", "owned[1]", "counters[2]" ..."""
    P = check_players(players)
    off = obs_offsets(P)
    features, feature_offsets, globals_, global_index = [], [], [], []
    for i, (name, size) in enumerate(_pieces(P)):
        if name in PER_SEAT_PIECES:
            for seat in range(P):
                features.append((f"{name}[{seat}]", name, seat))
                feature_offsets.append(off[i] + seat * C)
        elif size == C:
            features.append((name, name, None))
            feature_offsets.append(off[i])
        else:
            for j in range(size):
                globals_.append((f"{name}[{j}]", name, j))
                global_index.append(off[i] + j)
    return {
        "card_features": features,
        "globals": globals_,
        "feature_offsets": np.array(feature_offsets, np.int64),
        "global_index": np.array(global_index, np.int64),
    }


def card_set_sizes(players: int) -> tuple[int, int]:
    """(F, G): per-card features and globals of the card-set view."""
    lay = card_set_layout(players)
    return len(lay["card_features"]), len(lay["globals"])


def card_set(obs: np.ndarray, players: int, k: int = CARD_SET_SIZE) -> dict[str, np.ndarray]:
    """The card-set view of flat observations ``obs`` ((O,) or (N, O), raw or scaled: the
    values are copied as they are): {"card_ids": (N, k) int64, "cards": (N, k, F) float32,
    "globals": (N, G) float32} (no N axis for one observation); see the module docstring."""
    P = check_players(players)
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= C:
        raise ValueError(f"k (card slots) must be an int 1..{C}, got {k!r}")
    a = np.asarray(obs)
    if a.ndim not in (1, 2) or a.shape[-1] != obs_size(P) or a.dtype.kind != "f":
        raise ValueError(
            f"obs must be float observations of shape ({obs_size(P)},) or (N, {obs_size(P)}) "
            f"for {P} players, got {a.dtype} of shape {a.shape}"
        )
    one = a.ndim == 1
    a = a.reshape(-1, a.shape[-1])
    lay = card_set_layout(P)
    every = a[:, lay["feature_offsets"][None, :] + np.arange(C)[:, None]]  # (N, C, F)
    present = (every != 0).any(-1)  # in_supply is one of the features
    count = present.sum(-1)
    if (count > k).any():
        row = int(np.argmax(count > k))
        raise ValueError(
            f"observation row {row} holds {int(count[row])} cards (piles plus cards without "
            f"one), more than k={k} card slots: pass k={int(count.max())} or more"
        )
    # present cards first, by id (a stable sort keeps id order), then padding
    order = np.argsort(~present, axis=1, kind="stable")[:, :k]
    keep = np.take_along_axis(present, order, 1)
    ids = np.where(keep, order, NO_CARD).astype(np.int64)
    cards = np.take_along_axis(every, order[:, :, None], 1) * keep[:, :, None]
    out = {
        "card_ids": ids,
        "cards": cards.astype(np.float32, copy=False),
        "globals": a[:, lay["global_index"]].astype(np.float32, copy=False),
    }
    return {name: v[0] for name, v in out.items()} if one else out


def card_set_bounds(players: int, turn_limit: int = 100, scaled: bool = False):
    """{"cards": (low, high) (F,), "globals": (low, high) (G,)}: the flat bounds
    (``obs_bounds``) of the entries each feature comes from, over every card."""
    low, high = obs_bounds(players, turn_limit, scaled)
    lay = card_set_layout(players)
    every = lay["feature_offsets"][None, :] + np.arange(C)[:, None]  # (C, F)
    g = lay["global_index"]
    return {
        "cards": (np.minimum(low[every].min(0), 0), np.maximum(high[every].max(0), 0)),
        "globals": (low[g], high[g]),
    }


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
    o_pub_hand, o_pub_top = off[O_PUBLIC_HAND], off[O_PUBLIC_TOP]
    target = r.game[DEC_TARGET]
    for seat in range(P):
        p = (v + seat) % P
        o = o_owned + seat * C
        top = r.player[p, DECK_LEN] - 1
        for i in range(r.player[p, PUBLIC_TOP]):
            out[o_pub_top + seat * C + r.deck[p, top - i]] += 1.0
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
            out[o_pub_hand + seat * C + c] = r.pub_hand[p, c]
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
