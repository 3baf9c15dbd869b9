"""Helpers for the scenario tests (tests/test_base_cards.py, test_intrigue_cards.py; the
coverage registry also in test_turn_rules.py).

A ``Scenario`` puts a game in an exact position with ``Game.set_scenario``, answers the
decisions a card asks (steps built with ``S``/``play``, each checking who decides, the decision
kind and the legal actions), then ``check``s every zone of every player, the trash, the Supply
and the turn's Actions/Buys/$ against that position.

Games stop at every decision (``auto_resolve=False``) and Treasures are played by hand
(``autoplay_treasures=False``), so a forced decision shows up as a step and $ only changes when a
test plays a Treasure.

A plain module, not a test file: pytest's default "prepend" import mode puts tests/ on
``sys.path``, so the test files import it as ``from scenario import ...``.

Every card of the table has at least one scenario test (``tests/test_card_places.py``): a
table of scenario rows registers each row under the card its id starts with (``card_rows``),
a test function names its cards with ``@covers(...)``; both fill ``SCENARIOS``.
"""

from collections import Counter, defaultdict

import pytest

from dominion_env import Game
from dominion_env.cards import NAMES, SETS, card_id

BASE = tuple(n for n, s in zip(NAMES, SETS, strict=True) if s in ("base2", "base1"))
INTRIGUE = tuple(n for n, s in zip(NAMES, SETS, strict=True) if s == "intrigue1")
KINGDOM_CARDS = INTRIGUE + BASE
# kingdom padding, in this order, for cards a scenario does not need (no Reaction, no Attack)
FILLER = (
    "Village",
    "Smithy",
    "Festival",
    "Laboratory",
    "Market",
    "Woodcutter",
    "Cellar",
    "Chapel",
    "Workshop",
    "Council Room",
)

# printed costs (the oracle for "costing up to / exactly $N"), independent of the engine
COST = {
    "Copper": 0,
    "Curse": 0,
    "Estate": 2,
    "Silver": 3,
    "Duchy": 5,
    "Gold": 6,
    "Province": 8,
    "Cellar": 2,
    "Chapel": 2,
    "Moat": 2,
    "Harbinger": 3,
    "Merchant": 3,
    "Vassal": 3,
    "Village": 3,
    "Workshop": 3,
    "Chancellor": 3,
    "Woodcutter": 3,
    "Bureaucrat": 4,
    "Gardens": 4,
    "Militia": 4,
    "Moneylender": 4,
    "Poacher": 4,
    "Remodel": 4,
    "Smithy": 4,
    "Throne Room": 4,
    "Feast": 4,
    "Spy": 4,
    "Thief": 4,
    "Bandit": 5,
    "Council Room": 5,
    "Festival": 5,
    "Laboratory": 5,
    "Library": 5,
    "Market": 5,
    "Mine": 5,
    "Sentry": 5,
    "Witch": 5,
    "Artisan": 6,
    "Adventurer": 6,
    "Courtyard": 2,
    "Pawn": 2,
    "Secret Chamber": 2,
    "Great Hall": 3,
    "Masquerade": 3,
    "Shanty Town": 3,
    "Steward": 3,
    "Swindler": 3,
    "Wishing Well": 3,
    "Baron": 4,
    "Bridge": 4,
    "Conspirator": 4,
    "Coppersmith": 4,
    "Ironworks": 4,
    "Mining Village": 4,
    "Scout": 4,
    "Duke": 5,
    "Minion": 5,
    "Saboteur": 5,
    "Torturer": 5,
    "Trading Post": 5,
    "Tribute": 5,
    "Upgrade": 5,
    "Harem": 6,
    "Nobles": 6,
}
TREASURES = {"Copper", "Silver", "Gold", "Harem"}

YES_NO = ["option 0", "PASS"]


# card name -> the scenario tests of that card ("module::test" or a row id)
SCENARIOS: defaultdict[str, set[str]] = defaultdict(set)
# (source card, decision kind) of every decision a Scenario has answered, by names
ASKED: set[tuple[str | None, str]] = set()


def covers(*cards):
    """Mark a test function as a scenario test of ``cards`` (names of the card table)."""
    for name in cards:
        card_id(name)  # a misspelt name fails at import

    def mark(test):
        for name in cards:
            SCENARIOS[name].add(f"{test.__module__}::{test.__name__}")
        return test

    return mark


def card_named_by(row_id):
    """The card a scenario row is about: the longest card name its id starts with."""
    names = [n for n in NAMES if row_id == n or row_id.startswith((n + " ", n + ":", n + ","))]
    assert names, f"scenario row {row_id!r} does not start with a card name"
    return max(names, key=len)


def card_rows(rows):
    """pytest parameters for a table of scenario rows ``(id, *values)``: one case per row,
    with its id, registered as a scenario test of the card the id starts with."""
    params = []
    for row in rows:
        SCENARIOS[card_named_by(row[0])].add(row[0])
        params.append(pytest.param(*row[1:], id=row[0]))
    return params


def counts(cards):
    """A list of names (or a name->count dict) as the dict ``Game.zones`` returns."""
    if isinstance(cards, dict):
        return {k: v for k, v in cards.items() if v}
    return dict(Counter(cards))


def _names(setup, steps=()):
    """Every card name a scenario mentions (its zones, Supply overrides and answers; a card
    named for Wishing Well is not one the game needs)."""
    out = set()
    for key in ("hands", "decks", "discards", "in_play", "aside"):
        for cards in (setup.get(key) or {}).values():
            out.update(cards)
    out.update(setup.get("supply") or {})
    out.update(setup.get("trash") or {})
    out.update(s["action"] for s in steps if s["kind"] != "name")
    return out


def kingdom_for(names, filler=FILLER):
    """The kingdom cards among ``names``, padded to 10 from ``filler`` (in its order)."""
    need = [n for n in KINGDOM_CARDS if n in names]
    assert len(need) <= 10, need
    return need + [n for n in filler if n not in need][: 10 - len(need)]


class Scenario:
    """A game put in an exact position, remembering that position for the checks.

    The kingdom is ``kingdom`` if given, else the cards the scenario mentions padded from
    ``filler`` (a subclass may set its own)."""

    filler = FILLER

    def __init__(self, players=2, steps=(), auto_resolve=False, kingdom=None, **setup):
        self.players = players
        self.setup = setup
        self.g = Game(
            kingdom or kingdom_for(_names(setup, steps), self.filler),
            players=players,
            seed=0,
            autoplay_treasures=False,
            auto_resolve=auto_resolve,
        )
        self.base_supply = dict(self.g.supply)
        self.base_supply.update(setup.get("supply") or {})
        self.g.set_scenario(**setup)

    def initial(self, p, zone):
        key = {
            "hand": "hands",
            "deck": "decks",
            "discard": "discards",
            "in_play": "in_play",
            "aside": "aside",
        }[zone]
        cards = (self.setup.get(key) or {}).get(p, [])
        return list(cards) if zone == "deck" else counts(cards)

    def run(self, steps):
        for i, s in enumerate(steps):
            g = self.g
            d = g.decision
            where = f"step {i} {s}: decision {d}, legal {g.legal_actions()}"
            assert g.current_player == s["player"], where
            assert d["player"] == s["player"], where
            assert d["kind"] == s["kind"], where
            if s.get("legal") is not None:
                assert sorted(g.legal_actions()) == sorted(legal_set(g, s["legal"])), where
            for key in ("card", "target", "count", "source", "can_pass"):
                if s.get(key) is not None:
                    assert d[key] == s[key], f"{key}: {where}"
            ASKED.add((d["source"], d["kind"]))
            g.step(s["action"])
            if s.get("coins") is not None:
                assert g.turn["coins"] == s["coins"], where
        return self

    def check(self, expect=None, *, trash=None, gained=None, turn=None, next=None, player=0):
        """Every zone of every player (a zone not in ``expect`` must be as set up), the trash,
        the Supply (``gained``: pile -> change), the turn's (Actions, Buys, $) and the next
        decision kind, for ``player`` (whose turn it is)."""
        g = self.g
        expect = expect or {}
        for p in range(self.players):
            zs = g.zones(p)
            want = expect.get(p, {})
            for zone in ("hand", "deck", "discard", "in_play", "aside"):
                w = want.get(zone, self.initial(p, zone))
                if zone == "deck":
                    assert zs["deck"] == list(w), f"deck of P{p} (top first): {zs}"
                else:
                    assert zs[zone] == counts(w), f"{zone} of P{p}: {zs}"
        want_trash = counts(trash if trash is not None else (self.setup.get("trash") or {}))
        assert g.trash == want_trash, "trash"
        supply = dict(self.base_supply)
        for name, k in (gained or {}).items():
            supply[name] += k
        assert g.supply == supply, "supply"
        if turn is not None:
            t = g.turn
            assert (t["player"], t["actions"], t["buys"], t["coins"]) == (player, *turn), t
        if next is not None:
            assert g.decision["kind"] == next, (g.decision, g.legal_actions())
            assert g.current_player == player
            assert g.turn["phase"] == ("action" if next == "play_action" else "buy")
        return self

    def shuffles(self):
        """The shuffles logged (an empty discard pile shuffled is test_turn_rules' business)."""
        return [line for line in self.g.log() if "shuffles" in line and " 0 cards" not in line]


def _cost_filter(kind, n, red, treasure, can_pass):
    def spec(g):
        def cost(c):
            return max(0, COST[c] - red)

        ok = (lambda c: cost(c) <= n) if kind == "upto" else (lambda c: cost(c) == n)
        out = [
            c for c, k in g.supply.items() if k > 0 and ok(c) and (not treasure or c in TREASURES)
        ]
        return out + (["PASS"] if can_pass else [])

    return spec


def upto(n, red=0, *, treasure=False, can_pass=False):
    """Every card in the Supply (pile not empty) whose cost, less ``red`` (Bridge) and never
    below $0, is at most $n (Treasures only with ``treasure``; "PASS" too with ``can_pass``)."""
    return _cost_filter("upto", n, red, treasure, can_pass)


def exactly(n, red=0):
    """Every card in the Supply (pile not empty) whose current cost is exactly $n."""
    return _cost_filter("exactly", n, red, False, False)


def legal_set(g, spec):
    """A legal-action spec: a list of names, or a function of the game (``upto``/``exactly``)."""
    return spec(g) if callable(spec) else list(spec)


def S(player, kind, action, **kw):
    """One decision: ``player`` must be deciding a ``kind`` decision; answer ``action``."""
    return dict(player=player, kind=kind, action=action, **kw)


def play(card, player=0, **kw):
    return S(player, "play_action", card, **kw)
