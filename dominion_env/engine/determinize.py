"""Determinize: deal the cards hidden from one seat anew, consistently with what it knows.

A search player decides from one game record, but may use only what its seat ``v`` could know
under the rules (the observation's facts, ``observation.py``). ``determinize(r, cfg, v, seed,
index, work)``
overwrites every fact hidden from v in record r with a random one, and replaces r's streams
with the search's own: the game's stream with (seed, index, STREAM_DEAL) and every seat's
stream started from it (``zones.seed_seats``), as a deal starts them. The record's streams
hold the future shuffles, which v cannot know either; afterwards the record depends only on
what v knows, the seed and the index. Each seat's hidden cards are dealt from that seat's
stream (v's own draw pile from v's, seat q's from q's; cards pooled among several seats, below,
from the game's), or all from the game's under ``Config.shared_stream``.

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
* With 3+ players a Masquerade pass between two others leaves v unsure which of them owns a
  card: when v's count of some card for some seat would go below what is placed (a passed card
  later trashed in public), or v's counts for a seat do not fill its places (a seat with an
  empty hand receives a card and passes none), the hidden cards of every other seat are
  pooled and dealt among all their hidden places together (the total over the others is
  always known exactly).
  Either way the passes v did not see are then forgotten in the dealt record (its truth is
  v's count), so v's observation of the dealt record is its observation of the game, but for
  the pooled case, where only the sizes of each seat's places are kept.

The hidden pool is built from counts in card-id order, never from the record's own hidden
arrangement, so two records that differ only in hidden cards give the same result for the same
stream: the search's fairness test (``tests/test_search.py``) holds by construction. Card
counts per place and in all are kept, so the result is a legal state (``audit.check_game``).
"""

from __future__ import annotations

import numpy as np

from ..cards import ID
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
    """Scratch for ``determinize`` of one record: (capacity + 2 * num_cards,) int64, capacity
    = the record's deck row length (every card of the game fits)."""
    return np.zeros(capacity + 2 * num_cards, np.int64)


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
def _pool_of(r, v, q, aside_hidden, pool):
    """Add q's hidden cards (as v counts them) to pool; False if v's counts cannot be q's
    alone: some count goes negative, or they do not fill q's hidden places (a player with an
    empty hand passes nothing to Masquerade but still receives)."""
    ok = True
    total = 0
    places = r.player[q, DECK_LEN] - r.player[q, PUBLIC_TOP]
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        k = _known_owned(r, v, q, c) - _placed(r, q, c, aside_hidden)
        pool[c] += k
        total += k
        if k < 0:
            ok = False
        places += r.zone[q, HAND, c] - r.pub_hand[q, c]
        places += r.zone[q, DISCARD, c] - r.pub_discard[q, c]
        if aside_hidden:
            places += r.zone[q, ASIDE, c]
    return ok and total == places


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
def _deal_others(r, cfg, v, cards, pool, placed, group):
    """Deal the hidden cards of every seat but v: one group per seat, or one for all of them
    when v cannot tell which of them owns some card (``group`` < 0 means all)."""
    P = r.game[PLAYERS]
    n_univ = r.game[UNIVERSE_LEN]
    aside_hidden = _masquerade_pending(r)
    n = 0
    for u in range(n_univ):
        c = r.universe[u]
        k = pool[c]
        for _ in range(k):
            cards[n] = c
            n += 1
    _shuffle(r, 0 if group < 0 else seat_stream(cfg, group), cards, n)
    i = 0
    for q in range(P):
        if q == v or (group >= 0 and q != group):
            continue
        hand, deck, discard, aside = _clear_hidden(r, q, aside_hidden, placed)
        i = _deal(r, q, cards, i, hand, deck, discard, aside)
    if i != n:
        raise RuntimeError("determinize: hidden cards and hidden places disagree")


@njit
def _forget_passes(r, v, q):
    """Once q's hidden cards are counted, the dealt record's truth is v's count of q's cards,
    so the Masquerade passes into or out of q that v did not see are forgotten (their counts
    are what the observation subtracts and adds back; nothing else reads them): v's view of
    the dealt record is its view of the game."""
    P = r.game[PLAYERS]
    if P <= 2 or q == v:
        return
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        if v != (q + P - 1) % P:
            r.masq_in[q, c] = 0
        if v != (q + 1) % P:
            r.masq_out[q, c] = 0


@njit
def determinize(r, cfg, v, seed, index, work):
    """Replace record r's streams with those of (seed, index, STREAM_DEAL) and deal anew from
    them every card hidden from seat v (module docstring). work: ``new_work`` scratch."""
    seed_game(r.rng, 0, seed, index, STREAM_DEAL)
    seed_seats(r)
    C = (work.shape[0] - r.deck.shape[1]) // 2
    cards = work[: r.deck.shape[1]]
    pool = work[r.deck.shape[1] : r.deck.shape[1] + C]
    placed = work[r.deck.shape[1] + C :]
    P = r.game[PLAYERS]
    n_univ = r.game[UNIVERSE_LEN]
    _deal_own_deck(r, cfg, v, cards, placed)
    aside_hidden = _masquerade_pending(r)
    separate = True
    for q in range(P):
        if q == v:
            continue
        for u in range(n_univ):
            pool[r.universe[u]] = 0
        if not _pool_of(r, v, q, aside_hidden, pool):
            separate = False
            break
    if separate:
        for q in range(P):
            if q == v:
                continue
            for u in range(n_univ):
                pool[r.universe[u]] = 0
            _pool_of(r, v, q, aside_hidden, pool)
            _forget_passes(r, v, q)
            _deal_others(r, cfg, v, cards, pool, placed, q)
    else:
        for u in range(n_univ):
            pool[r.universe[u]] = 0
        for q in range(P):
            if q != v:
                _pool_of(r, v, q, aside_hidden, pool)
        for q in range(P):
            _forget_passes(r, v, q)
        _deal_others(r, cfg, v, cards, pool, placed, -1)


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
