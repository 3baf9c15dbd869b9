"""Per-game RNG and the moves between zones (draw, shuffle, gain, trash, discard, ...).

Every random draw comes from the game's own splitmix64 streams in its record, so a game is
reproducible from its seed whatever the batch size or the thread schedule: ``rng[0]``, the
game's stream, draws the kingdom and the first player; ``rng[1 + p]``, seat p's stream, draws
seat p's shuffles, so what one seat does (drawing a card more before its reshuffle, trashing a
card) never moves another seat's shuffles, and a search's arms or an optimizer's candidate bots
compared on the same deals meet the same shuffles wherever their own seat did not differ.
``seed_seats`` starts the seat streams, ``seat_stream`` picks the one a shuffle draws from
(the game's, under ``Config.shared_stream``, as engines v5-v7 did: for replaying their records).

Shuffling happens in exactly one place, ``take_top``: only when a card is needed from an empty
draw pile, and only the discard pile is shuffled (set-aside and revealed cards stay out).

Who sees what (the rules: "reveal" shows a card to every player, "look at" to its owner
alone; gains, plays and trashes are public; a discarded card lands face up, but "you do not
have to let players see any but the top card discarded; however the number of cards you
discard is public" (Base and Intrigue rulebooks); Scout: "You do not have to reveal the order
that you put cards back in"). Every move that logs an event passes ``seen``, the bit set of
the players who see the card (``SEEN_ALL``: everyone; ``seen_by(p)``: p alone). The same
``seen`` keeps the public record that observations show to every viewer (below).

Discards, card by card through the rulebooks (Base 2e, the 1e Base cards, Intrigue 1e):

* Picked one at a time, as part of a discard of any number (``discard_pick``): Cellar,
  Militia's victims, Torturer's discard 2, Secret Chamber, Poacher, Sentry's looked-at cards.
  The engine asks one card per decision, so which card ends on top is known only when the
  discard ends: each pick's card leaves the hand unseen (the public record keeps no guess),
  its log row shows the card to every player as the top of the pile (``SEEN_TOP``) and covers
  the previous pick of the same discard, whose row goes back to its owner alone. When the
  discard ends, the others' log reads "P1 discards 2 cards", "P1 discards Copper": the count
  and the top card; the owner's names each card. One mechanism, whatever card asks. (A view
  taken in the middle of such a discard shows its top so far, which a later pick covers.)
* Cards shown already: Baron's Estate (one card, shown to pay $4), Vassal's card (one, off
  the deck), Spy's revealed cards, and the revealed or set-aside cards that Adventurer,
  Bandit, Library, Saboteur, Thief and Tribute discard (``discard_zone`` of ASIDE).
* A whole hand at once, no choice of cards (clean-up, Minion): the others see how many only.
  At clean-up the hand goes with the cards in play, whose owner may lay a played card on top;
  Minion's hand could show one card, but the engine keeps no order in a hand and asks no
  decision that has no effect on play, so none is shown: the others know less than they may,
  never more.
* Chancellor's deck into the discard pile: not a discard; no card is seen, nothing logged.
* ``Config.public_discards`` (``make_config(public_discards=True)``) shows every picked card to
  every player, as some online play does. The default is the rules' (False): an observation
  must hold only what the rules let its viewer know, and an agent trained where every card
  shows learns to rely on what a tabletop opponent may hide.

Scout's put-back: when the revealed cards left are of two kinds or more, their owner chooses
the order, so each card goes back seen by its owner alone (others: "P0 puts 2 cards onto the
deck"); the public record then knows no top card of that deck (``PUBLIC_TOP`` is an ordered
count: a set without its order is not kept, a lower bound like ``pub_hand``). Cards all of
one kind go back in view, as their order tells nothing.

The public record:

* ``pub_hand[p]``: the cards every player knows to be in p's hand. A card entering the hand
  in view (a revealed or gained card, a draw from a publicly known top) adds one; a card
  leaving in view takes one of its kind off (if any was known); a card leaving unseen (put
  onto the deck, passed) may have been any known card, so every known kind loses one; a
  revealed hand is known whole. A lower bound of the hand, never more.
* ``PUBLIC_TOP``: how many top cards of p's draw pile every player knows. A card put there in
  view adds one, a card put there unseen hides those below it (0), a draw or a shuffle uses
  them up like KNOWN_TOP; a card drawn from a known top is drawn in view.
* ``pub_discard[p]``: the cards every player saw go into p's discard pile, still there. A card
  entering it in view adds one (``enter_discard``): a gain, a card shown already (Vassal's,
  Baron's Estate, the revealed or set-aside cards of the list above), every pick with
  ``public_discards``; at clean-up the cards in play and those known in hand (everyone saw
  them played or knows them in the hand, and both go to the discard pile whole). A card
  entering unseen adds nothing: the picks of a discard of several (their top card aside, which
  a later pick may cover: not kept), a hand discarded whole beyond its known cards (clean-up,
  Minion), Chancellor's deck. A card leaving in view takes one of its kind (Vassal's play), a
  card leaving unseen (Harbinger's, looked through) may have been any known card, so every
  known kind loses one; the shuffle of the pile, which everyone sees, empties it. A lower bound
  of the pile, like ``pub_hand``: the determinizer keeps these cards in the pile.
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
    EV_DECIDE,
    EV_DISCARD,
    EV_DRAW,
    EV_GAIN,
    EV_LOOK,
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
    PUBLIC_TOP,
    SEEN_ALL,
    SEEN_TOP,
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
    """splitmix64: advance stream g of ``rng`` and return 64 random bits."""
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


_SEATS_KEY = np.uint64(0xD1B54A32D192ED03)


@njit
def seed_seats(r):
    """Start every seat's stream rng[1 + p] from the game stream's state rng[0], which it leaves
    as it is. Every place that starts a game's streams (a deal from (seed, index), a scenario
    from its recorded state, a search's determinized copy from its own (seed, index)) seeds
    rng[0] and calls this: one mechanism, and the seat streams are fixed by what fixes the game
    stream, before the kingdom is drawn (so they do not depend on the pool). It draws nothing
    from rng[0], so the game stream's draws are those of a shared-stream engine and its
    records replay exactly. The starts are mix64 outputs of distinct inputs, spread over all
    2**64 states as in ``seed_game``: no seat stream replays another's or the game's draws."""
    key = mix64(r.rng[0] ^ _SEATS_KEY)
    for p in range(1, r.rng.shape[0]):
        r.rng[p] = mix64(key + np.uint64(p) * _GOLDEN)


@njit(inline="always")
def seat_stream(cfg, p):
    """The index in ``rng`` of the stream seat p's shuffles draw from: its own, or the game's
    under ``cfg.shared_stream`` (replaying a v5-v7 record)."""
    return 0 if cfg.shared_stream else 1 + p


@njit
def log_event(r, cfg, event, player, card, amount, seen):
    """Record an event; ``seen``: the players who see its card (the rest see the event)."""
    if cfg.log:
        i = r.game[LOG_LEN]
        if i < cfg.log_buf.shape[0]:
            cfg.log_buf[i, 0] = event
            cfg.log_buf[i, 1] = player
            cfg.log_buf[i, 2] = card
            cfg.log_buf[i, 3] = amount
            cfg.log_buf[i, 4] = seen
        r.game[LOG_LEN] = i + 1


@njit(inline="always")
def seen_by(p):
    """The ``seen`` bit set of player p alone."""
    return np.int64(1) << p


@njit(inline="always")
def is_public(r, seen):
    """Every player of the game sees it (two players passing between them see all)."""
    everyone = (np.int64(1) << r.game[PLAYERS]) - 1
    return (seen & everyone) == everyone


@njit
def enter_hand(r, p, c, seen):
    """Card c enters p's hand, seen by ``seen``."""
    r.zone[p, HAND, c] += 1
    if is_public(r, seen):
        r.pub_hand[p, c] += 1


@njit
def _leave_known(r, known, zone, p, c, seen):
    """Card c leaves p's ``zone``, whose publicly known cards are ``known[p]`` (``pub_hand``,
    ``pub_discard``): seen, it takes one known c if there is one; unseen, any known card may be
    the one that left, so one of every known kind is forgotten."""
    r.zone[p, zone, c] -= 1
    if is_public(r, seen):
        if known[p, c] > 0:
            known[p, c] -= 1
        return
    for u in range(r.game[UNIVERSE_LEN]):
        k = r.universe[u]
        if known[p, k] > 0:
            known[p, k] -= 1


@njit
def leave_hand(r, p, c, seen):
    """Card c leaves p's hand (the caller puts it somewhere), seen by ``seen``."""
    _leave_known(r, r.pub_hand, HAND, p, c, seen)


@njit
def reveal_hand(r, cfg, p):
    """p reveals its hand: every player knows it whole."""
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        k = r.zone[p, HAND, c]
        r.pub_hand[p, c] = k
        if k > 0:
            log_event(r, cfg, EV_REVEAL, p, c, k, SEEN_ALL)


@njit
def enter_discard(r, p, c, k, seen):
    """k copies of card c enter p's discard pile, seen by ``seen``."""
    r.zone[p, DISCARD, c] += k
    if is_public(r, seen):
        r.pub_discard[p, c] += k


@njit
def leave_discard(r, p, c, seen):
    """Card c leaves p's discard pile (the caller puts it somewhere), seen by ``seen``."""
    _leave_known(r, r.pub_discard, DISCARD, p, c, seen)


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
        r.pub_discard[p, c] = 0  # in view, shuffled: no card of it is known any more
    if n == 0:
        return 0  # (the counts set above were all 0 already: the pile was empty)
    k = seat_stream(cfg, p)
    for i in range(n - 1, 0, -1):  # Fisher-Yates
        j = below(r.rng, k, i + 1)
        t = r.deck[p, i]
        r.deck[p, i] = r.deck[p, j]
        r.deck[p, j] = t
    r.player[p, DECK_LEN] = n
    r.player[p, KNOWN_TOP] = 0
    r.player[p, PUBLIC_TOP] = 0
    log_event(r, cfg, EV_SHUFFLE, p, -1, n, SEEN_ALL)
    return n


@njit
def take_top(r, cfg, p):
    """Remove and return the top card of p's deck, shuffling first if it is empty; -1 if none.
    Whether every player knows that card: ``top_seen`` before the call."""
    if r.player[p, DECK_LEN] == 0 and shuffle_discard_into_deck(r, cfg, p) == 0:
        return -1  # nothing to shuffle: no shuffle happens (nor is logged)
    n = r.player[p, DECK_LEN] - 1
    r.player[p, DECK_LEN] = n
    if r.player[p, KNOWN_TOP] > 0:
        r.player[p, KNOWN_TOP] -= 1
    if r.player[p, PUBLIC_TOP] > 0:
        r.player[p, PUBLIC_TOP] -= 1
    c = np.int64(r.deck[p, n])
    r.deck_count[p, c] -= 1
    return c


@njit(inline="always")
def top_seen(r, p):
    """The ``seen`` of p's top card: everyone when it is publicly known, else p alone (a
    shuffle before the draw leaves nothing known: PUBLIC_TOP is 0 on an empty pile)."""
    return SEEN_ALL if r.player[p, PUBLIC_TOP] > 0 else seen_by(p)


@njit
def put_on_deck(r, p, c, seen):
    """Card c onto p's draw pile; p knows it is there (every card put onto a deck by these
    cards is one its owner chose, gained or saw revealed), every player when it is public."""
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
    if is_public(r, seen):
        r.player[p, PUBLIC_TOP] += 1
    else:
        r.player[p, PUBLIC_TOP] = 0


@njit
def stack_deck(r, p, cards, n):
    """Make cards[:n] (top card first) p's draw pile, which is empty now, face down: p knows
    none of them (a scenario's deck, as if just shuffled)."""
    for i in range(n - 1, -1, -1):
        put_on_deck(r, p, cards[i], seen_by(p))
    r.player[p, KNOWN_TOP] = 0


@njit
def draw_one(r, cfg, p):
    """p draws a card (p alone sees it, unless it was known on top); returns it or -1."""
    seen = top_seen(r, p)
    c = take_top(r, cfg, p)
    if c >= 0:
        enter_hand(r, p, c, seen)
        log_event(r, cfg, EV_DRAW, p, c, 1, seen)
    return c


@njit
def draw(r, cfg, p, n):
    """p draws up to n cards; returns how many were drawn."""
    drawn = 0
    for _ in range(n):
        if draw_one(r, cfg, p) < 0:
            break
        drawn += 1
    return drawn


@njit
def gain(r, cfg, p, c, zone):
    """p gains card c from the Supply into its ``zone`` (HAND, DISCARD ...); False if empty."""
    if r.pile[SUPPLY, c] <= 0:
        return False
    r.pile[SUPPLY, c] -= 1
    if zone == HAND:
        enter_hand(r, p, c, SEEN_ALL)
    elif zone == DISCARD:
        enter_discard(r, p, c, 1, SEEN_ALL)
    else:
        r.zone[p, zone, c] += 1
    log_event(r, cfg, EV_GAIN, p, c, 1, SEEN_ALL)
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
def take_from(r, p, c, src, seen):
    """Card c leaves p's zone src (the caller puts it somewhere), seen by ``seen``."""
    if src == HAND:
        leave_hand(r, p, c, seen)
    elif src == DISCARD:
        leave_discard(r, p, c, seen)
    else:
        r.zone[p, src, c] -= 1


@njit
def move(r, cfg, p, c, src, dst, event):
    """Move one card c of player p from zone src to zone dst (HAND, DISCARD, IN_PLAY, ASIDE),
    in view (every such move of these cards is: a discard of one card, a set-aside)."""
    take_from(r, p, c, src, SEEN_ALL)
    if dst == HAND:
        enter_hand(r, p, c, SEEN_ALL)
    elif dst == DISCARD:
        enter_discard(r, p, c, 1, SEEN_ALL)
    else:
        r.zone[p, dst, c] += 1
    log_event(r, cfg, event, p, c, 1, SEEN_ALL)


@njit
def discard_pick(r, cfg, p, c, src):
    """p discards card c from zone src as one pick of a discard of several cards (Cellar,
    Militia's victims ...): unseen but for its owner, except the top card (see the module
    docstring); every card seen with ``cfg.public_discards``."""
    if cfg.public_discards:
        move(r, cfg, p, c, src, DISCARD, EV_DISCARD)
        return
    take_from(r, p, c, src, seen_by(p))
    enter_discard(r, p, c, 1, seen_by(p))
    if cfg.log:
        # the previous pick of this discard, if any, is the last row but the answers between
        i = r.game[LOG_LEN] - 1 if r.game[LOG_LEN] <= cfg.log_buf.shape[0] else -1
        while i >= 0 and cfg.log_buf[i, 0] == EV_DECIDE:
            i -= 1
        if (
            i >= 0
            and cfg.log_buf[i, 0] == EV_DISCARD
            and cfg.log_buf[i, 1] == p
            and cfg.log_buf[i, 4] == SEEN_TOP
        ):
            cfg.log_buf[i, 4] = seen_by(p)
    log_event(r, cfg, EV_DISCARD, p, c, 1, SEEN_TOP)


@njit
def trash_card(r, cfg, p, c, src):
    """Player p trashes card c from zone src."""
    take_from(r, p, c, src, SEEN_ALL)
    r.pile[TRASH, c] += 1
    log_event(r, cfg, EV_TRASH, p, c, 1, SEEN_ALL)


@njit
def topdeck_card(r, cfg, p, c, src, seen):
    """Player p puts card c from zone src onto its draw pile, seen by ``seen``."""
    take_from(r, p, c, src, seen)
    put_on_deck(r, p, c, seen)
    log_event(r, cfg, EV_TOPDECK, p, c, 1, seen)


@njit
def zone_size(r, p, z):
    n = 0
    for u in range(r.game[UNIVERSE_LEN]):
        n += r.zone[p, z, r.universe[u]]
    return n


@njit
def discard_zone(r, cfg, p, z):
    """Discard every card of p's zone z: revealed or set-aside cards (seen), or the whole hand
    at once (the others see only how many: the rules show only the top card)."""
    seen = seen_by(p) if z == HAND else SEEN_ALL
    for u in range(r.game[UNIVERSE_LEN]):
        c = r.universe[u]
        k = r.zone[p, z, c]
        if z == HAND:  # its known cards are known in the discard pile
            r.pub_discard[p, c] += r.pub_hand[p, c]
            r.pub_hand[p, c] = 0
        if k > 0:
            enter_discard(r, p, c, k, seen)
            r.zone[p, z, c] = 0
            log_event(r, cfg, EV_DISCARD, p, c, k, seen)


@njit
def _top_to_aside(r, cfg, p, event, seen):
    c = take_top(r, cfg, p)
    if c >= 0:
        r.zone[p, ASIDE, c] += 1
        log_event(r, cfg, event, p, c, 1, seen)
    return c


@njit
def reveal_top(r, cfg, p):
    """Reveal p's top card (shuffling if needed) into p's ASIDE zone; return it or -1."""
    return _top_to_aside(r, cfg, p, EV_REVEAL, SEEN_ALL)


@njit
def look_top(r, cfg, p):
    """p looks at its top card (shuffling if needed), into its ASIDE zone; return it or -1."""
    return _top_to_aside(r, cfg, p, EV_LOOK, top_seen(r, p))


@njit
def gain_to_deck(r, cfg, p, c):
    """p gains card c onto its draw pile; False if the pile is empty."""
    if r.pile[SUPPLY, c] <= 0:
        return False
    r.pile[SUPPLY, c] -= 1
    put_on_deck(r, p, c, SEEN_ALL)
    log_event(r, cfg, EV_GAIN, p, c, 1, SEEN_ALL)
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
