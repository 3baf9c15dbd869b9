"""A slow, obvious reference implementation of Dominion, for differential testing.

Written from the rulebooks (``/work/shared/rules``, ``/work/shared/CARDS.md``), not from the
engine: zones are Python ``Counter``s (the draw pile is a list, bottom ... top), every card effect
is one Python generator that ``yield``s each decision it needs and receives the chosen action via
``send``, and the whole game (every turn) is a generator too. Nothing here is tuned for speed.

What it shares with the engine is only what must be shared to compare the two step by step:

* the card data (``dominion_env.cards``: ids, cost, types, $ value, VP, pile sizes);
* the action encoding (``dominion_env.engine.layout``: card id / option k / PASS) and the
  decision kinds (DEC_*), with the decisions each card asks as documented in the contract
  docstring of ``dominion_env/engine/base_cards.py`` (Base) and
  ``dominion_env/engine/intrigue_cards.py`` (Intrigue);
* the random streams: splitmix64 seeded per (seed, game index), each seat's shuffle stream
  started from its state (``zones.seed_seats``), a random kingdom drawn by a partial
  Fisher-Yates from the pool in ascending card-id order, the starting 7 Coppers and 3 Estates
  shuffled from the seat's stream (discard pile laid out in ascending card-id order, then
  Fisher-Yates from the last index down) when each player draws the opening hand, then the
  first player drawn from the game's;
* the interface conventions: a decision with nothing to choose (no legal action, or PASS
  alone) is answered PASS without asking, whatever ``auto_resolve`` says ("do as much as you
  can"); with ``auto_resolve`` a decision with exactly one legal action is taken without
  asking; the Action phase asks only when the player holds an Action card and has an Action
  left; manual Treasures are asked for only while a Treasure is in hand; the game is truncated
  (not won) before a player would start turn ``turn_limit + 1``.

Where the rules say more than the encoding, the rules win here, e.g. a Reaction to an Attack is
revealed "before the Attack does anything" (Moat), so the reaction window opens before the Attack
card's own instructions, +Cards and +$ included.

Usage::

    g = ReferenceGame(players=2, pool=[...ids...], seed=0, index=3)
    while g.decision is not None:
        g.step(some action in g.decision.legal)
    g.rewards

This file stays whole (over 800 lines): a whole game is one generator and each card effect
one of its sub-generators, read against the rulebooks in one place.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from dominion_env.cards import (
    ACTION,
    COIN_VALUE,
    COST,
    ID,
    NAMES,
    NUM_CARDS,
    REACTION,
    TABLE,
    TREASURE,
    TYPES,
    VICTORY,
    VP,
    pile_size,
)
from dominion_env.engine.layout import (
    DEC_BUY,
    DEC_CHOOSE,
    DEC_DISCARD,
    DEC_GAIN,
    DEC_NAME,
    DEC_PASS_CARD,
    DEC_PLAY_ACTION,
    DEC_PLAY_TREASURE,
    DEC_PLAY_TWICE,
    DEC_REACT,
    DEC_TOPDECK,
    DEC_TRASH,
    DECISION_NAMES,
    OPTION0,
    PASS,
    PHASE_ACTION,
    PHASE_BUY,
    PHASE_CLEANUP,
    PHASE_OVER,
    RUNNING,
    TERMINATED,
    TRUNCATED,
)

# ---------------------------------------------------------------------------------------------
# Card data
# ---------------------------------------------------------------------------------------------

COPPER, SILVER, GOLD, ESTATE, DUCHY, PROVINCE, CURSE = (
    ID[n] for n in ("Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse")
)
BASIC_CARDS = (COPPER, SILVER, GOLD, ESTATE, DUCHY, PROVINCE, CURSE)
MOAT = ID["Moat"]
SECRET_CHAMBER = ID["Secret Chamber"]
GARDENS = ID["Gardens"]
DUKE = ID["Duke"]

OPTION1 = OPTION0 + 1
OPTION2 = OPTION0 + 2


def cost_of(c):
    """Printed cost of a card (Bridge lowers the current cost: ReferenceGame.cost)."""
    return int(TABLE[c, COST])


def is_a(c, card_type):
    return bool(TABLE[c, TYPES] & card_type)


def card_name(c):
    if c == PASS:
        return "PASS"
    if c >= OPTION0:
        return f"option {c - OPTION0}"
    return NAMES[c] if 0 <= c < len(NAMES) else str(c)


# ---------------------------------------------------------------------------------------------
# Random numbers: splitmix64, exactly as the engine's per-game stream
# ---------------------------------------------------------------------------------------------

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
MIX1 = 0xBF58476D1CE4E5B9
MIX2 = 0x94D049BB133111EB
SEATS_KEY = 0xD1B54A32D192ED03


def _mix64(z):
    z = ((z ^ (z >> 30)) * MIX1) & MASK64
    z = ((z ^ (z >> 27)) * MIX2) & MASK64
    return z ^ (z >> 31)


class SplitMix64:
    def __init__(self, state):
        self.state = state & MASK64

    @classmethod
    def for_game(cls, seed, index, stream=0):
        """The ``stream`` stream (0: the game's own) of game number ``index`` of a run seeded
        ``seed``: the index-th output of a splitmix64 keyed by (seed, stream)."""
        key = _mix64(_mix64(seed & MASK64) ^ ((stream + MIX1) & MASK64))
        return cls(_mix64((key + (index + 1) * GOLDEN) & MASK64))

    def next_u64(self):
        self.state = (self.state + GOLDEN) & MASK64
        return _mix64(self.state)

    def below(self, n):
        """A random int in [0, n): the top 31 bits modulo n."""
        return (self.next_u64() >> 33) % n

    def seats(self, players):
        """Each seat's shuffle stream, started from this (the game's) stream's state, which
        stays as it is: the engine's ``zones.seed_seats``."""
        key = _mix64(self.state ^ SEATS_KEY)
        return [SplitMix64(_mix64((key + (p + 1) * GOLDEN) & MASK64)) for p in range(players)]


# ---------------------------------------------------------------------------------------------
# Decisions
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    kind: int  # DEC_* (what the action index means)
    player: int  # who decides
    legal: frozenset  # legal action indices
    source: int = -1  # card whose effect asks; -1 for the turn itself
    card: int = -1  # card the decision is about (Vassal, Library, Sentry, Spy, Thief)
    target: int = -1  # player the decision is about (Spy, Thief)
    count: int = 0  # picks still wanted (Chapel, Militia, Poacher), else 0

    def __str__(self):
        legal = ", ".join(card_name(a) for a in sorted(self.legal))
        about = ""
        if self.card >= 0:
            about += f" about {card_name(self.card)}"
        if self.target >= 0:
            about += f" of P{self.target}"
        src = card_name(self.source) if self.source >= 0 else "turn"
        return (
            f"P{self.player} {DECISION_NAMES[self.kind]} ({src}{about}, count {self.count})"
            f": [{legal}]"
        )


class IllegalAction(ValueError):
    pass


class PlayedCard:
    """One physical card being played: Throne Room plays the same one twice, so Feast can tell
    whether it has already trashed itself."""

    def __init__(self, card):
        self.card = card
        self.trashed = False


# ---------------------------------------------------------------------------------------------
# Players
# ---------------------------------------------------------------------------------------------


class Player:
    def __init__(self):
        self.hand = Counter()
        self.deck = []  # the draw pile: deck[0] is the bottom card, deck[-1] the top card
        self.discard = Counter()
        self.in_play = Counter()
        self.aside = Counter()  # set aside, revealed or looked at
        self.turns_taken = 0

    def owned(self):
        everything = Counter()
        for zone in (self.hand, self.discard, self.in_play, self.aside):
            everything.update(zone)
        everything.update(self.deck)
        return +everything

    @staticmethod
    def size(zone):
        return sum(zone.values())


def move(src, dst, c):
    if src[c] <= 0:
        raise AssertionError(f"no {card_name(c)} to move")
    src[c] -= 1
    dst[c] += 1


# ---------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------

KINGDOM_SIZE = 10
HAND_SIZE = 5


class ReferenceGame:
    def __init__(
        self,
        players,
        kingdom=None,
        pool=None,
        *,
        seed=0,
        index=0,
        rng=None,
        auto_resolve=True,
        autoplay_treasures=True,
        turn_limit=100,
        first_player=None,
    ):
        self.P = players
        self.rng = rng if rng is not None else SplitMix64.for_game(seed, index)
        self.seat_rng = self.rng.seats(players)  # before the kingdom draw, as the engine
        self.auto_resolve = auto_resolve
        self.autoplay_treasures = autoplay_treasures
        self.turn_limit = turn_limit
        self.empty_piles_to_end = 4 if players >= 5 else 3

        # the kingdom: given, or drawn from the pool (10 draws without replacement)
        if kingdom is None:
            cards = sorted(pool)
            for i in range(KINGDOM_SIZE):
                j = i + self.rng.below(len(cards) - i)
                cards[i], cards[j] = cards[j], cards[i]
            kingdom = cards[:KINGDOM_SIZE]
        self.kingdom = sorted(kingdom)

        # the Supply: the 7 basic piles and the 10 kingdom piles (starting decks are extra)
        self.supply = Counter()
        self.supply_piles = list(BASIC_CARDS) + self.kingdom
        for c in self.supply_piles:
            self.supply[c] = pile_size(NAMES[c], players)
        self.trash = Counter()

        # each player: 7 Coppers and 3 Estates, shuffled; draw 5
        self.players = [Player() for _ in range(players)]
        for p, me in enumerate(self.players):
            me.discard[COPPER] = 7
            me.discard[ESTATE] = 3
            self.draw(p, HAND_SIZE)

        # a random first player
        self.turn_player = first_player if first_player is not None else self.rng.below(players)
        self.turn_number = 1
        self.status = RUNNING
        self.phase = PHASE_ACTION
        self.actions = self.buys = self.coins = 0
        self.rewards = [0.0] * players
        self.scores = None
        self.decisions_asked = 0
        self.plays = Counter()  # (card, how: "hand", "Throne Room" or "Vassal") -> plays

        self._game = self.play_game()
        self.decision = None
        self._run(None)

    # -- driving ---------------------------------------------------------------------------

    def _run(self, action):
        try:
            if action is None:
                self.decision = next(self._game)
            else:
                self.decision = self._game.send(action)
        except StopIteration:
            self.decision = None

    def step(self, action):
        """Answer the pending decision; runs to the next one (``decision`` None: game over)."""
        if self.decision is None:
            raise RuntimeError("the game is over")
        action = int(action)
        if action not in self.decision.legal:
            raise IllegalAction(f"{card_name(action)} is not legal in {self.decision}")
        self._run(action)

    def ask(self, decision):
        """Ask a decision (``yield from``): returns the action taken."""
        if decision.legal <= {PASS}:  # nothing to choose: do as much as you can
            return PASS
        if len(decision.legal) == 1 and self.auto_resolve:
            return next(iter(decision.legal))
        self.decisions_asked += 1
        answer = yield decision
        return answer

    # -- zones -----------------------------------------------------------------------------

    def shuffle_discard_into_deck(self, p):
        """Only called when the draw pile is empty: the discard pile becomes the draw pile."""
        me = self.players[p]
        assert not me.deck
        cards = []
        for c in sorted(me.discard):
            cards += [c] * me.discard[c]
        me.discard.clear()
        for i in range(len(cards) - 1, 0, -1):  # Fisher-Yates, from p's own stream
            j = self.seat_rng[p].below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        me.deck = cards

    def take_top(self, p):
        """Take the top card of p's deck (shuffling the discard pile in if the deck is empty);
        None when there is no card at all."""
        me = self.players[p]
        if not me.deck:
            self.shuffle_discard_into_deck(p)
        if not me.deck:
            return None
        return me.deck.pop()

    def draw(self, p, n):
        for _ in range(n):
            c = self.take_top(p)
            if c is None:
                return
            self.players[p].hand[c] += 1

    def reveal_top(self, p):
        """Reveal / look at the top card: it waits in the aside zone until told where to go."""
        c = self.take_top(p)
        if c is not None:
            self.players[p].aside[c] += 1
        return c

    def cost(self, c):
        """Current cost: Bridge lowers every card's cost this turn, never below $0."""
        return max(0, cost_of(c) - self.cost_reduction)

    def gain(self, p, c, to="discard"):
        if self.supply[c] <= 0:
            return False
        self.supply[c] -= 1
        me = self.players[p]
        if to == "deck":
            me.deck.append(c)
        else:
            getattr(me, to)[c] += 1
        return True

    def trash_from(self, zone, c):
        zone[c] -= 1
        assert zone[c] >= 0
        self.trash[c] += 1

    def topdeck_from(self, p, zone, c):
        zone[c] -= 1
        assert zone[c] >= 0
        self.players[p].deck.append(c)

    def discard_all(self, p, zone):
        me = self.players[p]
        me.discard.update(+zone)
        zone.clear()

    # -- legal choices ---------------------------------------------------------------------

    @staticmethod
    def cards_in(zone, ok=lambda c: True):
        return {c for c, k in zone.items() if k > 0 and ok(c)}

    def supply_cards(self, ok=lambda c: True):
        return {c for c in self.supply_piles if self.supply[c] > 0 and ok(c)}

    def gain_from_supply(self, p, source, max_cost, to="discard", card_type=None):
        """A mandatory gain of a card costing up to ``max_cost`` (of ``card_type``)."""
        legal = self.supply_cards(
            lambda c: self.cost(c) <= max_cost and (card_type is None or is_a(c, card_type))
        )
        c = yield from self.ask(Decision(DEC_GAIN, p, frozenset(legal), source))
        if c != PASS:
            self.gain(p, c, to)

    def others(self, p):
        """Every other player, in turn order from p's left."""
        return [(p + k) % self.P for k in range(1, self.P)]

    def empty_supply_piles(self):
        return sum(1 for c in self.supply_piles if self.supply[c] == 0)

    # -- the game --------------------------------------------------------------------------

    def play_game(self):
        while True:
            p = self.turn_player
            yield from self.take_turn(p)
            # game end: checked at the end of every turn
            if self.supply[PROVINCE] == 0 or self.empty_supply_piles() >= self.empty_piles_to_end:
                self.finish(TERMINATED)
                return
            nxt = (p + 1) % self.P
            if self.players[nxt].turns_taken >= self.turn_limit:
                self.finish(TRUNCATED)
                return
            self.turn_player = nxt
            self.turn_number += 1

    def take_turn(self, p):
        me = self.players[p]
        self.actions, self.buys, self.coins = 1, 1, 0
        self.merchants_played = 0  # +$1 each on the first Silver played this turn
        self.silver_played = False
        self.cost_reduction = 0  # Bridge: -$1 per play this turn, cumulative
        self.copper_bonus = 0  # Coppersmith: +$1 per Copper per play this turn
        self.actions_played = 0  # Conspirator counts every play (Throne Room's included)

        # Action phase
        self.phase = PHASE_ACTION
        while self.actions > 0 and self.cards_in(me.hand, lambda c: is_a(c, ACTION)):
            legal = self.cards_in(me.hand, lambda c: is_a(c, ACTION)) | {PASS}
            c = yield from self.ask(Decision(DEC_PLAY_ACTION, p, frozenset(legal)))
            if c == PASS:
                break
            self.actions -= 1
            move(me.hand, me.in_play, c)
            yield from self.play(p, c, PlayedCard(c))

        # Buy phase: Treasures first, then buys
        self.phase = PHASE_BUY
        if self.autoplay_treasures:
            for c in sorted(me.hand):
                if is_a(c, TREASURE):
                    while me.hand[c] > 0:
                        self.play_treasure(p, c)
        else:
            while self.cards_in(me.hand, lambda c: is_a(c, TREASURE)):
                legal = self.cards_in(me.hand, lambda c: is_a(c, TREASURE)) | {PASS}
                c = yield from self.ask(Decision(DEC_PLAY_TREASURE, p, frozenset(legal)))
                if c == PASS:
                    break
                self.play_treasure(p, c)
        while self.buys > 0:
            legal = self.supply_cards(lambda c: self.cost(c) <= self.coins) | {PASS}
            c = yield from self.ask(Decision(DEC_BUY, p, frozenset(legal)))
            if c == PASS:
                break
            self.buys -= 1
            self.coins -= self.cost(c)
            self.gain(p, c)

        # Clean-up phase
        self.phase = PHASE_CLEANUP
        self.discard_all(p, me.hand)
        self.discard_all(p, me.in_play)
        self.draw(p, HAND_SIZE)
        me.turns_taken += 1

    def play_treasure(self, p, c):
        me = self.players[p]
        move(me.hand, me.in_play, c)
        self.coins += int(TABLE[c, COIN_VALUE])
        if c == COPPER:
            self.coins += self.copper_bonus
        if c == SILVER and not self.silver_played:
            self.silver_played = True
            self.coins += self.merchants_played

    def play(self, p, c, this, how="hand"):
        """Play Action card c (already moved into play) and follow its instructions."""
        self.plays[(c, how)] += 1
        self.actions_played += 1
        effect = getattr(self, "card_" + NAMES[c].lower().replace(" ", "_"))
        yield from effect(p, this)

    def finish(self, status):
        self.status = status
        self.phase = PHASE_OVER
        self.rewards = [0.0] * self.P
        if status != TERMINATED:
            return
        self.scores = [self.victory_points(p) for p in range(self.P)]
        best = max(self.scores)
        tied = [p for p in range(self.P) if self.scores[p] == best]
        fewest = min(self.players[p].turns_taken for p in tied)
        winners = [p for p in tied if self.players[p].turns_taken == fewest]
        for p in range(self.P):
            if p in winners:
                self.rewards[p] = 1.0 if len(winners) == 1 else 0.0
            else:
                self.rewards[p] = -1.0

    def victory_points(self, p):
        owned = self.players[p].owned()
        total = sum(owned.values())
        vp = 0
        for c, k in owned.items():
            if c == GARDENS:
                vp += k * (total // 10)
            elif c == DUKE:
                vp += k * owned[DUCHY]
            else:
                vp += k * int(TABLE[c, VP])  # Estate 1, Duchy 3, Province 6, Curse -1,
                # Great Hall 1, Harem 2, everything else 0
        return vp

    # -- Attacks ---------------------------------------------------------------------------

    def attack(self, p, card):
        """The Attack card ``card`` is played: each other player, in turn order, may reveal
        Reactions from hand (each copy at most once per Attack), before the Attack does anything.
        Returns the players the Attack affects (those who did not reveal Moat), in turn order."""
        unaffected = set()
        for d in self.others(p):
            hand = self.players[d].hand
            revealed = Counter()  # each copy in hand may be revealed once
            while True:
                can_reveal = {
                    c
                    for c in self.cards_in(hand, lambda c: is_a(c, REACTION))
                    if revealed[c] < hand[c]
                }
                if not can_reveal:
                    break
                a = yield from self.ask(
                    Decision(DEC_REACT, d, frozenset(can_reveal | {PASS}), card)
                )
                if a == PASS:
                    break
                revealed[a] += 1
                if a == SECRET_CHAMBER:  # +2 Cards, then 2 cards from hand onto the deck
                    yield from self.secret_chamber_reaction(d)
                if a == MOAT:  # Moat stays in hand; its owner is unaffected
                    unaffected.add(d)
        return [v for v in self.others(p) if v not in unaffected]

    # -- the cards -------------------------------------------------------------------------
    # Each generator follows the card's text top to bottom. ``this`` is the physical card.

    # vanilla cards

    def card_village(self, p, this):
        self.draw(p, 1)
        self.actions += 2
        yield from ()

    def card_smithy(self, p, this):
        self.draw(p, 3)
        yield from ()

    def card_festival(self, p, this):
        self.actions += 2
        self.buys += 1
        self.coins += 2
        yield from ()

    def card_laboratory(self, p, this):
        self.draw(p, 2)
        self.actions += 1
        yield from ()

    def card_market(self, p, this):
        self.draw(p, 1)
        self.actions += 1
        self.buys += 1
        self.coins += 1
        yield from ()

    def card_woodcutter(self, p, this):
        self.buys += 1
        self.coins += 2
        yield from ()

    def card_great_hall(self, p, this):
        self.draw(p, 1)
        self.actions += 1
        yield from ()

    def card_moat(self, p, this):
        self.draw(p, 2)
        yield from ()

    # Base, 2nd edition

    def card_cellar(self, p, this):
        """+1 Action. Discard any number of cards, then draw that many."""
        me = self.players[p]
        self.actions += 1
        discarded = 0
        while True:
            legal = self.cards_in(me.hand) | {PASS}
            c = yield from self.ask(Decision(DEC_DISCARD, p, frozenset(legal), ID["Cellar"]))
            if c == PASS:
                break
            move(me.hand, me.discard, c)
            discarded += 1
        self.draw(p, discarded)

    def card_chapel(self, p, this):
        """Trash up to 4 cards from your hand."""
        me = self.players[p]
        trashed = 0
        while trashed < 4:
            legal = self.cards_in(me.hand) | {PASS}
            c = yield from self.ask(
                Decision(DEC_TRASH, p, frozenset(legal), ID["Chapel"], count=4 - trashed)
            )
            if c == PASS:
                break
            self.trash_from(me.hand, c)
            trashed += 1

    def card_harbinger(self, p, this):
        """+1 Card, +1 Action. Look through your discard pile; you may put a card from it onto
        your deck."""
        me = self.players[p]
        self.draw(p, 1)
        self.actions += 1
        legal = self.cards_in(me.discard) | {PASS}
        c = yield from self.ask(Decision(DEC_TOPDECK, p, frozenset(legal), ID["Harbinger"]))
        if c != PASS:
            self.topdeck_from(p, me.discard, c)

    def card_merchant(self, p, this):
        """+1 Card, +1 Action. The first time you play a Silver this turn, +$1."""
        self.draw(p, 1)
        self.actions += 1
        self.merchants_played += 1
        yield from ()

    def card_vassal(self, p, this):
        """+$2. Discard the top card of your deck. If it's an Action card, you may play it."""
        me = self.players[p]
        self.coins += 2
        c = self.take_top(p)
        if c is None:
            return
        me.discard[c] += 1
        if not is_a(c, ACTION):
            return
        a = yield from self.ask(
            Decision(DEC_CHOOSE, p, frozenset({OPTION0, PASS}), ID["Vassal"], card=c)
        )
        if a == OPTION0:
            move(me.discard, me.in_play, c)
            yield from self.play(p, c, PlayedCard(c), "Vassal")

    def card_workshop(self, p, this):
        """Gain a card costing up to $4."""
        yield from self.gain_from_supply(p, ID["Workshop"], 4)

    def card_bureaucrat(self, p, this):
        """Gain a Silver onto your deck. Each other player reveals a Victory card from their hand
        and puts it onto their deck (or reveals a hand with no Victory cards)."""
        victims = yield from self.attack(p, ID["Bureaucrat"])
        self.gain(p, SILVER, to="deck")
        for v in victims:
            hand = self.players[v].hand
            victory = self.cards_in(hand, lambda c: is_a(c, VICTORY))
            if not victory:
                continue  # reveals a hand with no Victory cards
            c = yield from self.ask(Decision(DEC_TOPDECK, v, frozenset(victory), ID["Bureaucrat"]))
            if c != PASS:
                self.topdeck_from(v, hand, c)

    def card_militia(self, p, this):
        """+$2. Each other player discards down to 3 cards in hand."""
        victims = yield from self.attack(p, ID["Militia"])
        self.coins += 2
        for v in victims:
            hand = self.players[v].hand
            while Player.size(hand) > 3:
                c = yield from self.ask(
                    Decision(
                        DEC_DISCARD,
                        v,
                        frozenset(self.cards_in(hand)),
                        ID["Militia"],
                        count=Player.size(hand) - 3,
                    )
                )
                move(hand, self.players[v].discard, c)

    def card_moneylender(self, p, this):
        """You may trash a Copper from your hand for +$3."""
        me = self.players[p]
        legal = self.cards_in(me.hand, lambda c: c == COPPER) | {PASS}
        c = yield from self.ask(Decision(DEC_TRASH, p, frozenset(legal), ID["Moneylender"]))
        if c == COPPER:
            self.trash_from(me.hand, COPPER)
            self.coins += 3

    def card_poacher(self, p, this):
        """+1 Card, +1 Action, +$1. Discard a card per empty Supply pile."""
        me = self.players[p]
        self.draw(p, 1)
        self.actions += 1
        self.coins += 1
        to_discard = self.empty_supply_piles()
        while to_discard > 0 and Player.size(me.hand) > 0:
            c = yield from self.ask(
                Decision(
                    DEC_DISCARD,
                    p,
                    frozenset(self.cards_in(me.hand)),
                    ID["Poacher"],
                    count=min(to_discard, Player.size(me.hand)),
                )
            )
            move(me.hand, me.discard, c)
            to_discard -= 1

    def card_remodel(self, p, this):
        """Trash a card from your hand. Gain a card costing up to $2 more than it."""
        me = self.players[p]
        c = yield from self.ask(
            Decision(DEC_TRASH, p, frozenset(self.cards_in(me.hand)), ID["Remodel"])
        )
        if c == PASS:  # no card to trash: no gain
            return
        self.trash_from(me.hand, c)
        yield from self.gain_from_supply(p, ID["Remodel"], self.cost(c) + 2)

    def card_throne_room(self, p, this):
        """You may play an Action card from your hand twice."""
        me = self.players[p]
        legal = self.cards_in(me.hand, lambda c: is_a(c, ACTION)) | {PASS}
        c = yield from self.ask(Decision(DEC_PLAY_TWICE, p, frozenset(legal), ID["Throne Room"]))
        if c == PASS:
            return
        move(me.hand, me.in_play, c)
        target = PlayedCard(c)
        yield from self.play(p, c, target, "Throne Room")
        yield from self.play(p, c, target, "Throne Room")

    def card_bandit(self, p, this):
        """Gain a Gold. Each other player reveals the top 2 cards of their deck, trashes a
        revealed Treasure other than Copper, and discards the rest."""
        victims = yield from self.attack(p, ID["Bandit"])
        self.gain(p, GOLD)
        for v in victims:
            aside = self.players[v].aside
            self.reveal_top(v)
            self.reveal_top(v)
            targets = self.cards_in(aside, lambda c: is_a(c, TREASURE) and c != COPPER)
            if targets:
                c = yield from self.ask(Decision(DEC_TRASH, v, frozenset(targets), ID["Bandit"]))
                self.trash_from(aside, c)
            self.discard_all(v, aside)

    def card_council_room(self, p, this):
        """+4 Cards, +1 Buy. Each other player draws a card."""
        self.draw(p, 4)
        self.buys += 1
        for o in self.others(p):
            self.draw(o, 1)
        yield from ()

    def card_library(self, p, this):
        """Draw until you have 7 cards in hand, skipping any Action cards you choose to; set
        those aside, discarding them afterwards."""
        me = self.players[p]
        while Player.size(me.hand) < 7:
            c = self.take_top(p)
            if c is None:
                break
            me.hand[c] += 1
            if is_a(c, ACTION):
                a = yield from self.ask(
                    Decision(DEC_CHOOSE, p, frozenset({OPTION0, PASS}), ID["Library"], card=c)
                )
                if a == OPTION0:
                    move(me.hand, me.aside, c)
        self.discard_all(p, me.aside)

    def card_mine(self, p, this):
        """You may trash a Treasure from your hand. Gain a Treasure to your hand costing up to
        $3 more than it."""
        me = self.players[p]
        legal = self.cards_in(me.hand, lambda c: is_a(c, TREASURE)) | {PASS}
        c = yield from self.ask(Decision(DEC_TRASH, p, frozenset(legal), ID["Mine"]))
        if c == PASS:
            return
        self.trash_from(me.hand, c)
        yield from self.gain_from_supply(
            p, ID["Mine"], self.cost(c) + 3, to="hand", card_type=TREASURE
        )

    def card_sentry(self, p, this):
        """+1 Card, +1 Action. Look at the top 2 cards of your deck. Trash and/or discard any
        number of them. Put the rest back on top in any order."""
        me = self.players[p]
        self.draw(p, 1)
        self.actions += 1
        looked = []
        for _ in range(2):
            c = self.reveal_top(p)
            if c is None:
                break
            looked.append(c)
        kept = []
        for c in looked:
            a = yield from self.ask(
                Decision(
                    DEC_CHOOSE, p, frozenset({OPTION0, OPTION1, OPTION2}), ID["Sentry"], card=c
                )
            )
            if a == OPTION0:
                self.trash_from(me.aside, c)
            elif a == OPTION1:
                move(me.aside, me.discard, c)
            else:
                kept.append(c)
        if len(kept) == 2 and kept[0] != kept[1]:
            first = yield from self.ask(Decision(DEC_TOPDECK, p, frozenset(kept), ID["Sentry"]))
            kept.remove(first)
            kept.insert(0, first)
        for c in kept:  # the first one put back ends up under the second
            self.topdeck_from(p, me.aside, c)

    def card_witch(self, p, this):
        """+2 Cards. Each other player gains a Curse."""
        victims = yield from self.attack(p, ID["Witch"])
        self.draw(p, 2)
        for v in victims:
            self.gain(v, CURSE)

    def card_artisan(self, p, this):
        """Gain a card to your hand costing up to $5. Put a card from your hand onto your
        deck."""
        me = self.players[p]
        yield from self.gain_from_supply(p, ID["Artisan"], 5, to="hand")
        c = yield from self.ask(
            Decision(DEC_TOPDECK, p, frozenset(self.cards_in(me.hand)), ID["Artisan"])
        )
        if c != PASS:
            self.topdeck_from(p, me.hand, c)

    # Base, 1st-edition cards

    def card_chancellor(self, p, this):
        """+$2. You may immediately put your deck into your discard pile."""
        me = self.players[p]
        self.coins += 2
        if not me.deck:  # nothing to put into the discard pile: no question
            return
        a = yield from self.ask(
            Decision(DEC_CHOOSE, p, frozenset({OPTION0, PASS}), ID["Chancellor"])
        )
        if a == OPTION0:
            me.discard.update(me.deck)
            me.deck = []

    def card_feast(self, p, this):
        """Trash this card. Gain a card costing up to $5."""
        me = self.players[p]
        if not this.trashed:  # a Throne Roomed Feast is trashed by its first play only
            this.trashed = True
            self.trash_from(me.in_play, this.card)
        yield from self.gain_from_supply(p, ID["Feast"], 5)

    def card_spy(self, p, this):
        """+1 Card, +1 Action. Each player (including you) reveals the top card of his deck and
        either discards it or puts it back, your choice."""
        victims = yield from self.attack(p, ID["Spy"])
        self.draw(p, 1)
        self.actions += 1
        for o in [p] + victims:
            c = self.reveal_top(o)
            if c is None:
                continue
            a = yield from self.ask(
                Decision(DEC_CHOOSE, p, frozenset({OPTION0, OPTION1}), ID["Spy"], card=c, target=o)
            )
            if a == OPTION0:
                move(self.players[o].aside, self.players[o].discard, c)
            else:
                self.topdeck_from(o, self.players[o].aside, c)

    def card_thief(self, p, this):
        """Each other player reveals the top 2 cards of his deck. If they revealed any Treasure
        cards, they trash one of them that you choose. You may gain any or all of these trashed
        cards. They discard the other revealed cards."""
        victims = yield from self.attack(p, ID["Thief"])
        for v in victims:
            aside = self.players[v].aside
            self.reveal_top(v)
            self.reveal_top(v)
            treasures = self.cards_in(aside, lambda c: is_a(c, TREASURE))
            if not treasures:
                self.discard_all(v, aside)
                continue
            c = yield from self.ask(
                Decision(DEC_TRASH, p, frozenset(treasures), ID["Thief"], target=v)
            )
            self.trash_from(aside, c)
            self.discard_all(v, aside)
            a = yield from self.ask(
                Decision(DEC_CHOOSE, p, frozenset({OPTION0, PASS}), ID["Thief"], card=c)
            )
            if a == OPTION0:  # gain it from the trash
                self.trash[c] -= 1
                self.players[p].discard[c] += 1

    def card_adventurer(self, p, this):
        """Reveal cards from your deck until you reveal 2 Treasure cards. Put those Treasure
        cards into your hand and discard the other revealed cards."""
        me = self.players[p]
        treasures = []
        while len(treasures) < 2:
            c = self.reveal_top(p)
            if c is None:
                break
            if is_a(c, TREASURE):
                treasures.append(c)
        for c in treasures:
            move(me.aside, me.hand, c)
        self.discard_all(p, me.aside)
        yield from ()

    # Intrigue (1st edition); Great Hall is with the vanilla cards, Harem and Duke need no code

    def secret_chamber_reaction(self, d):
        """Secret Chamber revealed to an Attack: +2 Cards, then put 2 cards from your hand on
        top of your deck (one at a time, as many as the hand allows)."""
        hand = self.players[d].hand
        self.draw(d, 2)
        for left in (2, 1):
            if not Player.size(hand):
                break
            c = yield from self.ask(
                Decision(DEC_TOPDECK, d, frozenset(self.cards_in(hand)), SECRET_CHAMBER, count=left)
            )
            self.topdeck_from(d, hand, c)

    def card_courtyard(self, p, this):
        """+3 Cards. Put a card from your hand on top of your deck."""
        me = self.players[p]
        self.draw(p, 3)
        c = yield from self.ask(
            Decision(DEC_TOPDECK, p, frozenset(self.cards_in(me.hand)), ID["Courtyard"])
        )
        if c != PASS:
            self.topdeck_from(p, me.hand, c)

    # Pawn's six pairs of two different choices, option k
    PAWN_PAIRS = (
        ("card", "action"),
        ("card", "buy"),
        ("card", "coin"),
        ("action", "buy"),
        ("action", "coin"),
        ("buy", "coin"),
    )

    def card_pawn(self, p, this):
        """Choose two: +1 Card; +1 Action; +1 Buy; +$1 (the choices must be different)."""
        a = yield from self.ask(
            Decision(DEC_CHOOSE, p, frozenset(OPTION0 + k for k in range(6)), ID["Pawn"])
        )
        pair = self.PAWN_PAIRS[a - OPTION0]
        if "card" in pair:
            self.draw(p, 1)
        if "action" in pair:
            self.actions += 1
        if "buy" in pair:
            self.buys += 1
        if "coin" in pair:
            self.coins += 1

    def card_secret_chamber(self, p, this):
        """Discard any number of cards. +$1 per card discarded."""
        me = self.players[p]
        while True:
            c = yield from self.ask(
                Decision(DEC_DISCARD, p, frozenset(self.cards_in(me.hand) | {PASS}), SECRET_CHAMBER)
            )
            if c == PASS:
                break
            move(me.hand, me.discard, c)
            self.coins += 1

    def card_masquerade(self, p, this):
        """+2 Cards. Each player passes a card from his hand to the left at once. Then you may
        trash a card from your hand."""
        self.draw(p, 2)
        for o in [p] + self.others(p):  # picks are made face down, then all move together
            hand = self.players[o].hand
            if not Player.size(hand):
                continue
            c = yield from self.ask(
                Decision(DEC_PASS_CARD, o, frozenset(self.cards_in(hand)), ID["Masquerade"])
            )
            move(hand, self.players[o].aside, c)
        for o in range(self.P):
            left = self.players[(o + 1) % self.P]
            aside = self.players[o].aside
            left.hand.update(+aside)
            aside.clear()
        me = self.players[p]
        c = yield from self.ask(
            Decision(DEC_TRASH, p, frozenset(self.cards_in(me.hand) | {PASS}), ID["Masquerade"])
        )
        if c != PASS:
            self.trash_from(me.hand, c)

    def card_shanty_town(self, p, this):
        """+2 Actions. Reveal your hand. If you have no Action cards in hand, +2 Cards."""
        self.actions += 2
        if not self.cards_in(self.players[p].hand, lambda c: is_a(c, ACTION)):
            self.draw(p, 2)
        yield from ()

    def card_steward(self, p, this):
        """Choose one: +2 Cards; or +$2; or trash 2 cards from your hand."""
        me = self.players[p]
        a = yield from self.ask(
            Decision(DEC_CHOOSE, p, frozenset({OPTION0, OPTION1, OPTION2}), ID["Steward"])
        )
        if a == OPTION0:
            self.draw(p, 2)
        elif a == OPTION1:
            self.coins += 2
        else:
            for left in (2, 1):
                if not Player.size(me.hand):
                    break
                c = yield from self.ask(
                    Decision(
                        DEC_TRASH, p, frozenset(self.cards_in(me.hand)), ID["Steward"], count=left
                    )
                )
                self.trash_from(me.hand, c)

    def card_swindler(self, p, this):
        """+$2. Each other player trashes the top card of his deck and gains a card with the same
        cost that you choose."""
        victims = yield from self.attack(p, ID["Swindler"])
        self.coins += 2
        for v in victims:
            c = self.take_top(v)
            if c is None:
                continue
            self.trash[c] += 1
            cost = self.cost(c)
            legal = self.supply_cards(lambda x, cost=cost: self.cost(x) == cost)
            g = yield from self.ask(
                Decision(DEC_GAIN, p, frozenset(legal), ID["Swindler"], card=c, target=v)
            )
            if g != PASS:
                self.gain(v, g)

    def card_wishing_well(self, p, this):
        """+1 Card, +1 Action. Name a card, then reveal the top card of your deck. If it is the
        named card, put it in your hand (otherwise it goes back)."""
        me = self.players[p]
        self.draw(p, 1)
        self.actions += 1
        named = yield from self.ask(
            Decision(DEC_NAME, p, frozenset(range(NUM_CARDS)), ID["Wishing Well"])
        )
        c = self.take_top(p)
        if c is None:
            return
        if c == named:
            me.hand[c] += 1
        else:
            me.deck.append(c)

    def card_baron(self, p, this):
        """+1 Buy. You may discard an Estate. If you do, +$4; otherwise gain an Estate."""
        me = self.players[p]
        self.buys += 1
        a = PASS
        if me.hand[ESTATE] > 0:
            a = yield from self.ask(
                Decision(DEC_DISCARD, p, frozenset({ESTATE, PASS}), ID["Baron"])
            )
        if a == ESTATE:
            move(me.hand, me.discard, ESTATE)
            self.coins += 4
        else:
            self.gain(p, ESTATE)

    def card_bridge(self, p, this):
        """+1 Buy, +$1. All cards cost $1 less this turn, but not less than $0."""
        self.buys += 1
        self.coins += 1
        self.cost_reduction += 1
        yield from ()

    def card_conspirator(self, p, this):
        """+$2. If you've played 3 or more Actions this turn (counting this), +1 Card +1 Action."""
        self.coins += 2
        if self.actions_played >= 3:
            self.draw(p, 1)
            self.actions += 1
        yield from ()

    def card_coppersmith(self, p, this):
        """Copper produces an extra $1 this turn."""
        self.copper_bonus += 1
        yield from ()

    def card_ironworks(self, p, this):
        """Gain a card costing up to $4. If it is an Action card, +1 Action; Treasure, +$1;
        Victory, +1 Card."""
        legal = self.supply_cards(lambda c: self.cost(c) <= 4)
        c = yield from self.ask(Decision(DEC_GAIN, p, frozenset(legal), ID["Ironworks"]))
        if c == PASS or not self.gain(p, c):
            return
        if is_a(c, ACTION):
            self.actions += 1
        if is_a(c, TREASURE):
            self.coins += 1
        if is_a(c, VICTORY):
            self.draw(p, 1)

    def card_mining_village(self, p, this):
        """+1 Card, +2 Actions. You may trash this card immediately. If you do, +$2."""
        self.draw(p, 1)
        self.actions += 2
        if this.trashed:  # under Throne Room, trashed by the first play: nothing to trash
            return
        a = yield from self.ask(
            Decision(DEC_CHOOSE, p, frozenset({OPTION0, PASS}), ID["Mining Village"])
        )
        if a == OPTION0:
            this.trashed = True
            self.trash_from(self.players[p].in_play, this.card)
            self.coins += 2

    def card_scout(self, p, this):
        """+1 Action. Reveal the top 4 cards of your deck. Put the revealed Victory cards into
        your hand. Put the other cards on top of your deck in any order."""
        me = self.players[p]
        self.actions += 1
        for _ in range(4):
            c = self.reveal_top(p)
            if c is None:
                break
            if is_a(c, VICTORY):
                move(me.aside, me.hand, c)
        while len(self.cards_in(me.aside)) >= 2:  # an order only matters between different
            c = yield from self.ask(
                Decision(DEC_TOPDECK, p, frozenset(self.cards_in(me.aside)), ID["Scout"])
            )
            self.topdeck_from(p, me.aside, c)
        for c in list(self.cards_in(me.aside)):
            while me.aside[c] > 0:
                self.topdeck_from(p, me.aside, c)

    def card_minion(self, p, this):
        """+1 Action. Choose one: +$2; or discard your hand, +4 Cards, and each other player
        with at least 5 cards in hand discards his hand and draws 4 cards."""
        victims = yield from self.attack(p, ID["Minion"])
        self.actions += 1
        a = yield from self.ask(
            Decision(DEC_CHOOSE, p, frozenset({OPTION0, OPTION1}), ID["Minion"])
        )
        if a == OPTION0:
            self.coins += 2
            return
        self.discard_all(p, self.players[p].hand)
        self.draw(p, 4)
        for v in victims:
            if Player.size(self.players[v].hand) >= 5:
                self.discard_all(v, self.players[v].hand)
                self.draw(v, 4)

    def card_saboteur(self, p, this):
        """Each other player reveals cards from the top of his deck until revealing one costing
        $3 or more. He trashes that card and may gain a card costing at most $2 less than it. He
        discards the other revealed cards."""
        victims = yield from self.attack(p, ID["Saboteur"])
        for v in victims:
            aside = self.players[v].aside
            while True:
                c = self.reveal_top(v)
                if c is None or self.cost(c) >= 3:
                    break
            if c is not None:
                cost = self.cost(c)
                self.trash_from(aside, c)
                legal = self.supply_cards(lambda x, cost=cost: self.cost(x) <= cost - 2) | {PASS}
                g = yield from self.ask(Decision(DEC_GAIN, v, frozenset(legal), ID["Saboteur"]))
                if g != PASS:
                    self.gain(v, g)
            self.discard_all(v, aside)

    def card_torturer(self, p, this):
        """+3 Cards. Each other player chooses one: he discards 2 cards; or he gains a Curse
        card, putting it in his hand."""
        victims = yield from self.attack(p, ID["Torturer"])
        self.draw(p, 3)
        for v in victims:
            hand = self.players[v].hand
            a = yield from self.ask(
                Decision(DEC_CHOOSE, v, frozenset({OPTION0, OPTION1}), ID["Torturer"])
            )
            if a == OPTION1:
                self.gain(v, CURSE, to="hand")
                continue
            for left in (2, 1):
                if not Player.size(hand):
                    break
                c = yield from self.ask(
                    Decision(
                        DEC_DISCARD, v, frozenset(self.cards_in(hand)), ID["Torturer"], count=left
                    )
                )
                move(hand, self.players[v].discard, c)

    def card_trading_post(self, p, this):
        """Trash 2 cards from your hand. If you do, gain a Silver card; put it into your hand."""
        me = self.players[p]
        trashed = 0
        while trashed < 2 and Player.size(me.hand):
            c = yield from self.ask(
                Decision(
                    DEC_TRASH,
                    p,
                    frozenset(self.cards_in(me.hand)),
                    ID["Trading Post"],
                    count=2 - trashed,
                )
            )
            self.trash_from(me.hand, c)
            trashed += 1
        if trashed == 2:
            self.gain(p, SILVER, to="hand")

    def card_tribute(self, p, this):
        """The player to your left reveals then discards the top 2 cards of his deck. For each
        differently named card revealed: Action +2 Actions; Treasure +$2; Victory +2 Cards."""
        left = (p + 1) % self.P
        revealed = []
        for _ in range(2):
            c = self.reveal_top(left)
            if c is None:
                break
            revealed.append(c)
        self.discard_all(left, self.players[left].aside)
        for c in dict.fromkeys(revealed):  # differently named cards, in the order revealed
            if is_a(c, ACTION):
                self.actions += 2
            if is_a(c, TREASURE):
                self.coins += 2
            if is_a(c, VICTORY):
                self.draw(p, 2)
        yield from ()

    def card_upgrade(self, p, this):
        """+1 Card, +1 Action. Trash a card from your hand. Gain a card costing exactly $1 more
        than it."""
        me = self.players[p]
        self.draw(p, 1)
        self.actions += 1
        c = yield from self.ask(
            Decision(DEC_TRASH, p, frozenset(self.cards_in(me.hand)), ID["Upgrade"])
        )
        if c == PASS:
            return
        self.trash_from(me.hand, c)
        cost = self.cost(c) + 1
        legal = self.supply_cards(lambda x: self.cost(x) == cost)
        g = yield from self.ask(Decision(DEC_GAIN, p, frozenset(legal), ID["Upgrade"]))
        if g != PASS:
            self.gain(p, g)

    def card_nobles(self, p, this):
        """Choose one: +3 Cards; or +2 Actions."""
        a = yield from self.ask(
            Decision(DEC_CHOOSE, p, frozenset({OPTION0, OPTION1}), ID["Nobles"])
        )
        if a == OPTION0:
            self.draw(p, 3)
        else:
            self.actions += 2
