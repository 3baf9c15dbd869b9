"""Determinize: deal the cards hidden from one seat anew, consistently with what it knows.

A search player decides from one game record, but may use only what its seat ``v`` could know
under the rules (the observation's facts, ``observation.py``). ``determinize(r, cfg, v, seed,
index, work)``
overwrites every fact hidden from v in record r with a random one, and replaces r's streams
with the search's own: the game's stream with (seed, index, STREAM_DEAL) and every seat's
stream started from it (``zones.seed_seats``), as a deal starts them. The record's streams
hold the future shuffles, which v cannot know either; afterwards the record depends only on
what v knows, the seed and the index. Each seat's hidden cards are dealt from that seat's
stream (v's own draw pile from v's, seat q's from q's; the cards of the passes v did not see,
below, from the game's), or all from the game's under ``Config.shared_stream``.

What v knows and keeps (read through the public record ``zones`` keeps):

* its own hand, discard, set-aside cards and the composition of its draw pile; the cards on
  top of its pile that it knows (``KNOWN_TOP``);
* for every other seat q: the cards it owns (gains and trashes are public; Masquerade passes v
  took no part in are not, exactly as the observation's ``owned`` counts them), its cards in
  play, its set-aside cards (revealed ones: Library, Thief, Bandit ...), the cards every
  player knows in its hand (``pub_hand``), on top of its pile (``PUBLIC_TOP``) and in its
  discard pile (``pub_discard``: the cards everyone saw go there since the pile's last
  shuffle: gains, the cards in play at clean-up, revealed cards discarded; ``zones`` lists
  which discards are public), and the size of its hand, draw pile and discard pile.

What is dealt anew:

* v's draw pile below its known top: the same cards (its composition is known), in a new
  order;
* for each other seat q, its hidden cards (owned, less those in play, set aside, publicly in
  hand, publicly on top or publicly in the discard pile) among its hidden places (the hand
  beyond ``pub_hand``, the draw pile below ``PUBLIC_TOP``, the discard pile beyond
  ``pub_discard``), each place keeping its size. A card q bought or played stays in q's
  discard pile until q shuffles it, so no deal puts it in q's hand.
* While a Masquerade is resolving, the picks waiting face down in the other seats' ASIDE
  zones are hidden too and dealt with the rest (the ASIDE size kept).
* With 3+ players a Masquerade pass between two others is unseen by v, which counts the
  passed card with its passer (the observation's ``owned``). The seats on v's left form a
  chain (v passes to the first, the last passes to v, every other pass goes unseen from one
  seat of the chain to the next), so a seat's hidden cards are v's count of them plus what
  came to it unseen less what it passed on unseen. The deal walks the chain: each seat keeps
  a random part of what it might hold (v's count plus what came to it), as many cards as its
  hidden places take, and the rest passes on; what the seats further on must have received
  (v counts fewer of a card for them than they placed or trashed in public) always passes
  on. So no dealt pass is negative (no seat holds more of a card than v counts for it plus
  what could have reached it), the number of passes is the game's (public: hand sizes tell
  who passed), and the deal records its passes in ``masq_in`` / ``masq_out``: v counts every
  seat's cards of the dealt record exactly as in the game, and v's observation of the dealt
  record is its observation of the game. With no unseen pass each seat keeps exactly v's
  count and nothing is drawn for the passes.

Each seat's hidden cards are built from counts in card-id order, never from the record's own
hidden arrangement, so two records that differ only in hidden cards give the same result for
the same stream: the search's fairness test (``tests/test_search.py``) holds by construction. Card
counts per place and in all are kept, so the result is a legal state (``audit.check_game``).
"""

from __future__ import annotations

import numpy as np

from ..cards import ID, MAX_PLAYERS
from .jit import kernel, njit, prange
from .layout import (
    ASIDE,
    DECK_LEN,
    DISCARD,
    FR_CARD,
    HAND,
    IN_PLAY,
    KNOWN_TOP,
    PLAYERS,
    PUBLIC_TOP,
    SP,
    UNIVERSE_LEN,
)
from .zones import below, seat_stream, seed_game, seed_seats

MASQUERADE = ID["Masquerade"]
# the search's own streams, beside zones.STREAM_* (0..3), so a deal never replays a game's draws
STREAM_DEAL, STREAM_ROLLOUT = 16, 17


def new_work(capacity: int, num_cards: int) -> np.ndarray:
    """Scratch for ``determinize`` of one record: (capacity + (2 + MAX_PLAYERS) * num_cards,)
    int64, capacity = the record's deck row length (every card of the game fits); a row of
    num_cards per seat holds its hidden cards' counts."""
    return np.zeros(capacity + (2 + MAX_PLAYERS) * num_cards, np.int64)


@njit
def _masquerade_pending(r):
    for f in range(r.game[SP]):
        if r.frame[f, FR_CARD] == MASQUERADE:
            return True
    return False


@njit
def _known_owned(r, v, q, c):
    """Copies of card c that v counts as q's (the observation's ``owned``)."""
    P = r.game[PLAYERS]
    k = (
        r.zone[q, HAND, c]
        + r.zone[q, DISCARD, c]
        + r.zone[q, IN_PLAY, c]
        + r.zone[q, ASIDE, c]
        + r.deck_count[q, c]
    )
    if q != v and P > 2:
        if v != (q + P - 1) % P:  # a pass into q from its right, which v did not make
            k -= r.masq_in[q, c]
        if v != (q + 1) % P:  # a pass out of q to its left, which v did not receive
            k += r.masq_out[q, c]
    return k


@njit
def _placed(r, q, c, aside_hidden):
    """Copies of card c of q's that every player sees placed: in play, set aside (unless the
    pick of a Masquerade), in hand, on top of the draw pile or in the discard pile in public."""
    k = r.zone[q, IN_PLAY, c] + r.pub_hand[q, c] + r.pub_discard[q, c]
    if not aside_hidden:
        k += r.zone[q, ASIDE, c]
    top = r.player[q, DECK_LEN] - 1
    for i in range(r.player[q, PUBLIC_TOP]):
        if r.deck[q, top - i] == c:
            k += 1
    return k


@njit
def _shuffle(r, k, cards, n):
    for i in range(n - 1, 0, -1):  # Fisher-Yates, from the record's stream k
        j = below(r.rng, k, i + 1)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t


@njit
def _deal_own_deck(r, cfg, v, cards, known):
    """v's draw pile below its known top: the same cards, from counts, in a new order."""
    n_univ = r.game[UNIVERSE_LEN]
    length = r.player[v, DECK_LEN]
    top_known = min(r.player[v, KNOWN_TOP], length)
    free = length - top_known
    for u in range(n_univ):
        known[r.universe[u]] = 0
    for i in range(top_known):
        known[r.deck[v, length - 1 - i]] += 1
    n = 0
    for u in range(n_univ):
        c = r.universe[u]
        for _ in range(r.deck_count[v, c] - known[c]):
            cards[n] = c
            n += 1
    if n != free:
        raise RuntimeError("determinize: the draw pile disagrees with its composition")
    _shuffle(r, seat_stream(cfg, v), cards, n)
    for i in range(n):
        r.deck[v, i] = cards[i]


@njit
def _clear_hidden(r, q, aside_hidden, placed):
    """Empty q's hidden places (the public part of hand, top and discard stays); returns the
    sizes of the hand beyond pub_hand, the pile below PUBLIC_TOP, the discard beyond
    pub_discard and the hidden aside.
    placed: (C,) scratch for the public top's composition."""
    n_univ = r.game[UNIVERSE_LEN]
    hand = 0
    discard = 0
    aside = 0
    length = r.player[q, DECK_LEN]
    pub_top = r.player[q, PUBLIC_TOP]
    for u in range(n_univ):
        c = r.universe[u]
        hand += r.zone[q, HAND, c] - r.pub_hand[q, c]
        r.zone[q, HAND, c] = r.pub_hand[q, c]
        discard += r.zone[q, DISCARD, c] - r.pub_discard[q, c]
        r.zone[q, DISCARD, c] = r.pub_discard[q, c]
        if aside_hidden:
            aside += r.zone[q, ASIDE, c]
            r.zone[q, ASIDE, c] = 0
        placed[c] = 0
    for i in range(pub_top):
        placed[r.deck[q, length - 1 - i]] += 1
    for u in range(n_univ):
        c = r.universe[u]
        r.deck_count[q, c] = placed[c]
    # the public top moves down to sit on the dealt cards: it is at the pile's top already
    return hand, length - pub_top, discard, aside


@njit
def _deal(r, q, cards, start, hand, deck, discard, aside):
    """Deal cards[start:] into q's hidden places (sizes given); returns the next index."""
    i = start
    for k in range(deck):  # the bottom of the pile, under the public top
        c = cards[i]
        r.deck[q, k] = c
        r.deck_count[q, c] += 1
        i += 1
    for _ in range(hand):
        r.zone[q, HAND, cards[i]] += 1
        i += 1
    for _ in range(discard):
        r.zone[q, DISCARD, cards[i]] += 1
        i += 1
    for _ in range(aside):
        r.zone[q, ASIDE, cards[i]] += 1
        i += 1
    return i


@njit
def _hidden_of(r, v, q, c, aside_hidden):
    """Copies of card c of q's hidden from v as v counts them: v's count less what is placed
    (negative when a card q received in a pass v did not see is placed or was trashed)."""
    return _known_owned(r, v, q, c) - _placed(r, q, c, aside_hidden)


@njit
def _places(r, q, aside_hidden):
    """The number of q's hidden places: its hand beyond pub_hand, its pile below PUBLIC_TOP,
    its discard pile beyond pub_discard and, while a Masquerade resolves, its ASIDE zone."""
    n = r.player[q, DECK_LEN] - r.player[q, PUBLIC_TOP]
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        n += r.zone[q, HAND, c] - r.pub_hand[q, c] + r.zone[q, DISCARD, c] - r.pub_discard[q, c]
        if aside_hidden:
            n += r.zone[q, ASIDE, c]
    return n


@njit
def _still_to_pass(r, v, i, c, aside_hidden):
    """Copies of card c that must pass unseen from the i-th seat on v's left to the next: the
    seats after it hold fewer hidden copies by v's count than none (cards they received
    unseen, then placed or trashed), which only passes along the chain can have brought."""
    P = r.game[PLAYERS]
    need = 0
    for j in range(P - 1, i, -1):
        need = max(0, need - _hidden_of(r, v, (v + j) % P, c, aside_hidden))
    return need


@njit
def _split_hidden(r, v, cards, carry, hidden, aside_hidden):
    """Fill hidden[q] (C-sized rows) with the counts of every other seat q's hidden cards,
    choosing the cards of the passes v did not see; write those passes' counts into r.

    The seats on v's left, in order, form a chain: v passes to the first and the last passes
    to v (v sees both), each other pass goes unseen from one seat of the chain to the next.
    v counts a passed card with its passer (``_known_owned``), so the i-th seat's true hidden
    cards are v's count plus what came to it unseen (carry) less what it passed on unseen:
    its hidden places keep a random part of (carry + its count), the rest passes on; what
    must pass on (``_still_to_pass``) always does. The dealt passes replace the game's in
    masq_in / masq_out, so v counts every seat's cards of the dealt record as it counts them
    in the game. With no unseen pass each seat keeps exactly its count and nothing is drawn."""
    P = r.game[PLAYERS]
    n_univ = r.game[UNIVERSE_LEN]
    C = carry.shape[0]
    for u in range(n_univ):
        carry[r.universe[u]] = 0
    for i in range(1, P):
        q = (v + i) % P
        row = hidden[q * C : (q + 1) * C]
        n = 0
        for u in range(n_univ):
            c = r.universe[u]
            need = _still_to_pass(r, v, i, c, aside_hidden)
            k = carry[c] + _hidden_of(r, v, q, c, aside_hidden) - need
            if k < 0:
                raise RuntimeError("determinize: a seat's cards disagree with the passes")
            if i > 1:  # the pass into q from the seat before it, unseen: now the dealt one
                r.masq_in[q, c] = carry[c]
            carry[c] = need
            row[c] = k
            n += k
        passed = n - _places(r, q, aside_hidden)
        if passed < 0 or (i == P - 1 and passed != 0):
            raise RuntimeError("determinize: hidden cards and hidden places disagree")
        if passed > 0:  # a random part of the cards it might hold passes on, from the game's
            n = 0
            for u in range(n_univ):
                c = r.universe[u]
                for _ in range(row[c]):
                    cards[n] = c
                    n += 1
            _shuffle(r, 0, cards, n)
            for j in range(passed):
                row[cards[j]] -= 1
                carry[cards[j]] += 1
        if i < P - 1:
            for u in range(n_univ):
                c = r.universe[u]
                r.masq_out[q, c] = carry[c]


@njit
def _deal_hidden(r, cfg, q, cards, pool, placed, aside_hidden):
    """Deal q's hidden cards (counts in pool) anew among its hidden places, from q's stream."""
    n = 0
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        for _ in range(pool[c]):
            cards[n] = c
            n += 1
    _shuffle(r, seat_stream(cfg, q), cards, n)
    hand, deck, discard, aside = _clear_hidden(r, q, aside_hidden, placed)
    if _deal(r, q, cards, 0, hand, deck, discard, aside) != n:
        raise RuntimeError("determinize: hidden cards and hidden places disagree")


@njit
def determinize(r, cfg, v, seed, index, work):
    """Replace record r's streams with those of (seed, index, STREAM_DEAL) and deal anew from
    them every card hidden from seat v (module docstring). work: ``new_work`` scratch."""
    seed_game(r.rng, 0, seed, index, STREAM_DEAL)
    seed_seats(r)
    L = r.deck.shape[1]
    P_rows, C = r.deck_count.shape
    cards = work[:L]
    placed = work[L : L + C]
    carry = work[L + C : L + 2 * C]
    hidden = work[L + 2 * C : L + (2 + P_rows) * C]
    _deal_own_deck(r, cfg, v, cards, placed)
    aside_hidden = _masquerade_pending(r)
    _split_hidden(r, v, cards, carry, hidden, aside_hidden)
    for q in range(r.game[PLAYERS]):
        if q != v:
            _deal_hidden(r, cfg, q, cards, hidden[q * C : (q + 1) * C], placed, aside_hidden)


@njit
def _determinize_row(s, cfg, g, seats, seed, index, work):
    determinize(s[g], cfg, seats[g], seed, index[g], work[g])


@kernel
def determinize_kernel(s, cfg, seats, seed, index, work):
    """Record g dealt anew for seat seats[g] from the streams of (seed, index[g], STREAM_DEAL),
    which replace its own. cfg: the games' Config (its ``shared_stream``); work: (N, W)
    ``new_work`` rows."""
    for g in prange(s.shape[0]):
        _determinize_row(s, cfg, g, seats, seed, index, work)
