"""Per-game RNG and the moves between zones (draw, shuffle, gain, trash, discard, ...).

Every random draw comes from the game's own splitmix64 stream ``State.rng[g]``, so a game is
reproducible from its seed whatever the batch size or the thread schedule.

Shuffling happens in exactly one place, ``take_top``: only when a card is needed from an empty
draw pile, and only the discard pile is shuffled (set-aside and revealed cards stay out).
"""

import numpy as np

from ..cards import COST, DUCHY, VP, VP_DUKE, VP_GARDENS, VP_RULE
from ..cards import end_piles as _end_piles
from .jit import njit
from .layout import (
    ASIDE,
    COST_REDUCTION,
    DECK_LEN,
    DISCARD,
    EV_DISCARD,
    EV_DRAW,
    EV_GAIN,
    EV_REVEAL,
    EV_SHUFFLE,
    EV_TOPDECK,
    EV_TRASH,
    HAND,
    IN_PLAY,
    IN_SUPPLY,
    KNOWN_TOP,
    LOG_LEN,
    PLAYERS,
    SUPPLY,
    TRASH,
    UNIVERSE_LEN,
)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S33 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(33)


# The streams of one run: each (seed, index) owns one stream per purpose, so the random policy,
# the bots and the opponents never replay the game's own draws.
STREAM_GAME, STREAM_POLICY, STREAM_OPPONENTS, STREAM_BOTS = 0, 1, 2, 3


@njit(inline="always")
def mix64(z):
    """splitmix64's finaliser: a bijection on 64 bits whose outputs look unrelated for inputs
    that differ in one bit."""
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit
def next_u64(rng, g):
    """splitmix64: advance game g's stream and return 64 random bits."""
    z = rng[g] + _GOLDEN
    rng[g] = z
    return mix64(z)


@njit
def below(rng, g, n):
    """A random int in [0, n) (n >= 1); bias < n / 2**31, far below anything measurable."""
    return np.int64((next_u64(rng, g) >> _S33) % np.uint64(n))


@njit
def seed_game(rng, g, seed, index, stream):
    """Seed row g with the ``stream`` stream of game number ``index`` of a run seeded ``seed``,
    independent of where the game sits in a batch.

    A splitmix64 stream advances its state by a constant, so two streams whose starting states
    are close replay each other's draws shifted (the engine's first scheme, seed*C1 + index*C2,
    made game i+k's stream game i's shifted by k draws). Here the starting state is the
    index-th output of a splitmix64 generator keyed by (seed, stream): starts are spread over
    all 2**64 states as a random choice would, so streams of up to 2**32 draws overlap with
    odds below N**2 * 2**-32 for N games."""
    key = mix64(mix64(np.uint64(seed)) ^ (np.uint64(stream) + _MIX1))
    rng[g] = mix64(key + (np.uint64(index) + np.uint64(1)) * _GOLDEN)


@njit
def log_event(r, cfg, event, player, card, amount):
    if cfg.log:
        i = r.game[LOG_LEN]
        if i < cfg.log_buf.shape[0]:
            cfg.log_buf[i, 0] = event
            cfg.log_buf[i, 1] = player
            cfg.log_buf[i, 2] = card
            cfg.log_buf[i, 3] = amount
        r.game[LOG_LEN] = i + 1


@njit
def shuffle_discard_into_deck(r, cfg, p):
    """Shuffle p's discard pile and make it the draw pile (called only when that is empty);
    returns the cards shuffled. An empty discard pile is no shuffle: nothing happens."""
    n = 0
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        k = r.zone[p, DISCARD, c]
        if n + k > r.deck.shape[1]:
            raise RuntimeError("draw pile overflow")  # see put_on_deck
        for _ in range(k):
            r.deck[p, n] = c
            n += 1
        r.deck_count[p, c] = k
        r.zone[p, DISCARD, c] = 0
    if n == 0:
        return 0  # (the counts set above were all 0 already: the pile was empty)
    for i in range(n - 1, 0, -1):  # Fisher-Yates
        j = below(r.rng, 0, i + 1)
        t = r.deck[p, i]
        r.deck[p, i] = r.deck[p, j]
        r.deck[p, j] = t
    r.player[p, DECK_LEN] = n
    r.player[p, KNOWN_TOP] = 0
    log_event(r, cfg, EV_SHUFFLE, p, -1, n)
    return n


@njit
def take_top(r, cfg, p):
    """Remove and return the top card of p's deck, shuffling first if it is empty; -1 if none."""
    if r.player[p, DECK_LEN] == 0 and shuffle_discard_into_deck(r, cfg, p) == 0:
        return -1  # nothing to shuffle: no shuffle happens (nor is logged)
    n = r.player[p, DECK_LEN] - 1
    r.player[p, DECK_LEN] = n
    if r.player[p, KNOWN_TOP] > 0:
        r.player[p, KNOWN_TOP] -= 1
    c = np.int64(r.deck[p, n])
    r.deck_count[p, c] -= 1
    return c


@njit
def put_on_deck(r, p, c):
    """Card c onto p's draw pile; p knows it is there (every card put onto a deck by these
    cards is one its owner chose, gained or saw revealed)."""
    n = r.player[p, DECK_LEN]
    # a pile past its row would overwrite the next player's (or the next game's record): a
    # game never holds more cards than a row (Game.set_scenario refuses such positions and
    # no move creates a card), so this never fires; it is a bound, not a rule
    if n >= r.deck.shape[1]:
        raise RuntimeError("draw pile overflow")
    r.deck[p, n] = c
    r.deck_count[p, c] += 1
    r.player[p, DECK_LEN] = n + 1
    r.player[p, KNOWN_TOP] += 1


@njit
def stack_deck(r, p, cards, n):
    """Make cards[:n] (top card first) p's draw pile, which is empty now, face down: p knows
    none of them (a scenario's deck, as if just shuffled)."""
    for i in range(n - 1, -1, -1):
        put_on_deck(r, p, cards[i])
    r.player[p, KNOWN_TOP] = 0


@njit
def draw(r, cfg, p, n):
    """p draws up to n cards; returns how many were drawn."""
    drawn = 0
    for _ in range(n):
        c = take_top(r, cfg, p)
        if c < 0:
            break
        r.zone[p, HAND, c] += 1
        drawn += 1
        log_event(r, cfg, EV_DRAW, p, c, 1)
    return drawn


@njit
def gain(r, cfg, p, c, zone):
    """p gains card c from the Supply into its ``zone`` (HAND, DISCARD ...); False if empty."""
    if r.pile[SUPPLY, c] <= 0:
        return False
    r.pile[SUPPLY, c] -= 1
    r.zone[p, zone, c] += 1
    log_event(r, cfg, EV_GAIN, p, c, 1)
    return True


@njit
def current_cost(r, T, c):
    """Cost of card c now: printed cost less this turn's reduction, never below $0."""
    v = T[c, COST] - r.game[COST_REDUCTION]
    return v if v > 0 else 0


@njit
def count_owned(r, p, out):
    """Write p's owned cards per card id into out (C,): every zone plus the draw pile."""
    out[:] = 0
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        out[c] = (
            r.zone[p, HAND, c]
            + r.zone[p, DISCARD, c]
            + r.zone[p, IN_PLAY, c]
            + r.zone[p, ASIDE, c]
            + r.deck_count[p, c]
        )


@njit
def victory_points(r, T, p, owned):
    """p's score from every card p owns (Gardens and Duke by ``VP_RULE``); owned: (C,) scratch."""
    count_owned(r, p, owned)
    cards = 0
    fixed = 0
    gardens = 0
    dukes = 0
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        k = owned[c]
        cards += k
        fixed += T[c, VP] * k
        if T[c, VP_RULE] == VP_GARDENS:
            gardens += k
        elif T[c, VP_RULE] == VP_DUKE:
            dukes += k
    return fixed + gardens * (cards // 10) + dukes * owned[DUCHY]


@njit
def move(r, cfg, p, c, src, dst, event):
    """Move one card c of player p from zone src to zone dst (HAND, DISCARD, IN_PLAY, ASIDE)."""
    r.zone[p, src, c] -= 1
    r.zone[p, dst, c] += 1
    log_event(r, cfg, event, p, c, 1)


@njit
def trash_card(r, cfg, p, c, src):
    """Player p trashes card c from zone src."""
    r.zone[p, src, c] -= 1
    r.pile[TRASH, c] += 1
    log_event(r, cfg, EV_TRASH, p, c, 1)


@njit
def topdeck_card(r, cfg, p, c, src):
    """Player p puts card c from zone src onto its draw pile."""
    r.zone[p, src, c] -= 1
    put_on_deck(r, p, c)
    log_event(r, cfg, EV_TOPDECK, p, c, 1)


@njit
def zone_size(r, p, z):
    n = 0
    for u in range(r.game[UNIVERSE_LEN]):
        n += r.zone[p, z, r.universe[u]]
    return n


@njit
def discard_zone(r, cfg, p, z):
    """Discard every card of p's zone z (revealed or set-aside cards, afterwards)."""
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        k = r.zone[p, z, c]
        if k > 0:
            r.zone[p, DISCARD, c] += k
            r.zone[p, z, c] = 0
            log_event(r, cfg, EV_DISCARD, p, c, k)


@njit
def reveal_top(r, cfg, p):
    """Take p's top card (shuffling if needed) into p's ASIDE zone; return it or -1."""
    c = take_top(r, cfg, p)
    if c >= 0:
        r.zone[p, ASIDE, c] += 1
        log_event(r, cfg, EV_REVEAL, p, c, 1)
    return c


@njit
def gain_to_deck(r, cfg, p, c):
    """p gains card c onto its draw pile; False if the pile is empty."""
    if r.pile[SUPPLY, c] <= 0:
        return False
    r.pile[SUPPLY, c] -= 1
    put_on_deck(r, p, c)
    log_event(r, cfg, EV_GAIN, p, c, 1)
    return True


# The rulebook's end rule, compiled from the one Python definition in ``cards``.
end_piles = njit(_end_piles)


@njit
def empty_piles(r):
    """Supply piles of this game that are empty now."""
    n = 0
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        if r.pile[IN_SUPPLY, c] and r.pile[SUPPLY, c] == 0:
            n += 1
    return n


@njit
def piles_end_game(r):
    """True when enough Supply piles are empty to end the game (the Province rule aside)."""
    return empty_piles(r) >= end_piles(r.game[PLAYERS])
