"""Public information is public, hidden stays hidden: the observation's public pieces and the
per-viewer log, card by card.

The rules: "reveal" shows a card to every player, "look at" to its owner alone; a card
discarded alone lands face up, a hand discarded at once shows only its top card; gains, plays
and trashes are public. Each scenario below checks, for every viewer, the exact public
entries of the observation (``public_hand``, ``public_top``, per seat, rotated) and the exact
log lines that viewer gets (``Game.log(viewer)``), beside the perfect-information log
(``Game.log()``). The last tests check that two games differing only in what a player cannot
see give that player the same log and the same observations.
"""

from __future__ import annotations

import numpy as np
import pytest

from dominion_env import Game
from dominion_env.cards import NAMES, card_id
from dominion_env.engine.config import make_config
from dominion_env.engine.layout import (
    DISCARD,
    EV_DISCARD,
    EV_DRAW,
    HAND,
    SEEN_ALL,
    SEEN_TOP,
)
from dominion_env.engine.observation import split
from dominion_env.envs.render import render_game
from dominion_env.names import log_lines

REVEALERS = [
    "Shanty Town",
    "Bureaucrat",
    "Moat",
    "Scout",
    "Wishing Well",
    "Adventurer",
    "Spy",
    "Courtyard",
    "Library",
    "Masquerade",
]
FILLER = (
    "Village",
    "Smithy",
    "Festival",
    "Laboratory",
    "Market",
    "Cellar",
    "Chapel",
    "Workshop",
    "Remodel",
    "Moneylender",
)


def kingdom(*cards):
    return list(cards) + [c for c in FILLER if c not in cards][: 10 - len(cards)]


def game(cards, players=2, public_discards=False, **scenario):
    g = Game(
        kingdom(*cards),
        players=players,
        seed=3,
        auto_resolve=False,
        autoplay_treasures=False,
        public_discards=public_discards,
    )
    g.set_scenario(**scenario)
    return g


def public(g, viewer, piece, seat):
    """The ``piece`` row of player ``seat`` in ``viewer``'s observation, by card name."""
    row = split(g.observation(viewer), g.players)[piece][(seat - viewer) % g.players]
    return {NAMES[c]: int(row[c]) for c in np.flatnonzero(row)}


def known_top(g, viewer):
    """The viewer's own known top cards, by name."""
    row = split(g.observation(viewer), g.players)["known_top"]
    return {NAMES[c]: int(row[c]) for c in np.flatnonzero(row)}


def everyone(g, piece, seat):
    """The row must read the same for every viewer (it is public): that row."""
    rows = [public(g, v, piece, seat) for v in range(g.players)]
    assert all(r == rows[0] for r in rows), rows
    return rows[0]


def since(lines, marker, n=None):
    """The lines after the last one equal to ``marker`` (the first n of them)."""
    i = len(lines) - 1 - lines[::-1].index(marker)
    return lines[i + 1 :][:n]


def reveals(p, cards):
    """The log lines of player p revealing ``cards`` (a hand: in card id order)."""
    counts = {c: cards.count(c) for c in cards}
    out = []
    for c in sorted(counts, key=card_id):
        k = counts[c]
        out.append(f"P{p} reveals {c}" if k == 1 else f"P{p} reveals {k} x {c}")
    return out


def pass_reactions(g):
    while g.decision["kind"] == "react":
        g.step("PASS")


# -- hands revealed --------------------------------------------------------------------------


def test_bureaucrat_victim_with_no_victory_card_reveals_its_hand():
    hand1 = ["Copper", "Silver", "Moat", "Gold", "Copper"]
    g = game(
        ["Bureaucrat", "Moat"],
        hands={0: ["Bureaucrat", "Copper"], 1: hand1},
        decks={0: ["Estate"] * 3, 1: ["Estate"] * 3},
    )
    g.step("Bureaucrat")
    pass_reactions(g)
    assert everyone(g, "public_hand", 1) == {"Copper": 2, "Silver": 1, "Gold": 1, "Moat": 1}
    assert everyone(g, "public_top", 0) == {"Silver": 1}  # the attacker's gain, in view
    expected = ["P0 gains Silver", *reveals(1, hand1)]
    for v in (None, 0, 1):
        assert since(g.log(v), "P0 plays Bureaucrat", len(expected)) == expected


def test_bureaucrat_victims_victory_card_is_known_on_top_then_drawn_in_view():
    g = game(
        ["Bureaucrat", "Council Room"],
        hands={0: ["Bureaucrat", "Council Room"], 1: ["Estate", "Copper", "Copper"]},
        decks={0: ["Copper"] * 5, 1: ["Silver", "Gold"]},
        actions=2,
    )
    g.step("Bureaucrat")
    g.step("Estate")  # the victim's only choice (auto_resolve is off)
    assert everyone(g, "public_top", 1) == {"Estate": 1}
    assert everyone(g, "public_hand", 1) == {}
    for v in (None, 0, 1):
        assert g.log(v)[-1] == "P1 puts onto the deck Estate"
    g.step("Council Room")  # P1 draws the known Estate: every player sees which card
    assert everyone(g, "public_top", 1) == {}
    assert everyone(g, "public_hand", 1) == {"Estate": 1}
    # P0 draws the known Silver its Bureaucrat put on top, then cards only it sees
    assert since(g.log(0), "P0 plays Council Room", 3) == [
        "P0 draws Silver",
        "P0 draws 3 x Copper",
        "P1 draws Estate",
    ]
    assert since(g.log(1), "P0 plays Council Room", 3) == [
        "P0 draws Silver",
        "P0 draws 3 cards",
        "P1 draws Estate",
    ]


def test_shanty_town_reveals_the_hand_but_not_the_cards_it_draws():
    g = game(
        ["Shanty Town"],
        hands={0: ["Shanty Town", "Estate", "Copper"]},
        decks={0: ["Village", "Silver", "Gold"]},
    )
    g.step("Shanty Town")
    assert everyone(g, "public_hand", 0) == {"Estate": 1, "Copper": 1}
    shown = reveals(0, ["Estate", "Copper"])
    assert since(g.log(), "P0 plays Shanty Town") == [*shown, "P0 draws Village", "P0 draws Silver"]
    assert since(g.log(0), "P0 plays Shanty Town") == [
        *shown,
        "P0 draws Village",
        "P0 draws Silver",
    ]
    assert since(g.log(1), "P0 plays Shanty Town") == [*shown, "P0 draws 2 cards"]


def test_reactions_shown_stay_known_in_hand():
    g = game(
        ["Militia", "Moat"],
        hands={0: ["Militia"], 1: ["Moat", "Copper", "Copper", "Estate", "Silver"]},
        decks={0: ["Copper"] * 3},
    )
    g.step("Militia")
    g.step("Moat")
    assert everyone(g, "public_hand", 1) == {"Moat": 1}
    for v in (None, 0, 1):
        assert "P1 reveals in reaction Moat" in g.log(v)


def test_a_card_leaving_a_hand_unseen_clouds_what_was_known():
    """Shanty Town shows the hand; then Courtyard puts a card back unseen: it may have been
    any known card, so each known kind loses one (a lower bound, never a guess)."""
    g = game(
        ["Shanty Town", "Courtyard"],
        hands={0: ["Shanty Town", "Courtyard", "Copper", "Copper", "Estate"]},
        decks={0: ["Gold", "Gold", "Gold"]},
    )
    g.step("Shanty Town")  # an Action in hand: no draw
    assert everyone(g, "public_hand", 0) == {"Courtyard": 1, "Copper": 2, "Estate": 1}
    g.step("Courtyard")  # played: one Courtyard off; draws the three Golds unseen
    assert everyone(g, "public_hand", 0) == {"Copper": 2, "Estate": 1}
    g.step("Copper")  # put back unseen
    assert everyone(g, "public_hand", 0) == {"Copper": 1}
    assert since(g.log(1), "P0 plays Courtyard", 2) == [
        "P0 draws 3 cards",
        "P0 puts a card onto the deck",
    ]
    assert since(g.log(), "P0 plays Courtyard", 2) == [
        "P0 draws 3 x Gold",
        "P0 puts onto the deck Copper",
    ]
    assert known_top(g, 0) == {"Copper": 1}  # its owner knows
    assert everyone(g, "public_top", 0) == {}


# -- cards known on top of a deck ------------------------------------------------------------


@pytest.mark.parametrize("named, hit", [("Gold", False), ("Estate", True)])
def test_wishing_well_reveals_the_top_card_to_everyone(named, hit):
    g = game(
        ["Wishing Well"], hands={0: ["Wishing Well"]}, decks={0: ["Copper", "Estate", "Silver"]}
    )
    g.step("Wishing Well")  # draws the Copper
    g.step(named)
    assert everyone(g, "public_top", 0) == ({} if hit else {"Estate": 1})
    assert everyone(g, "public_hand", 0) == ({"Estate": 1} if hit else {})
    assert since(g.log(1), "P0 plays Wishing Well", 2) == ["P0 draws a card", "P0 reveals Estate"]
    assert since(g.log(), "P0 plays Wishing Well", 2) == ["P0 draws Copper", "P0 reveals Estate"]


def test_spy_put_backs_are_known_on_both_decks():
    g = game(
        ["Spy"],
        hands={0: ["Spy"], 1: ["Copper"] * 5},
        decks={0: ["Copper", "Silver", "Estate"], 1: ["Gold", "Estate"]},
    )
    g.step("Spy")
    pass_reactions(g)
    g.step("option 1")  # put back P0's Silver
    g.step("option 1")  # put back P1's Gold
    assert everyone(g, "public_top", 0) == {"Silver": 1}
    assert everyone(g, "public_top", 1) == {"Gold": 1}
    expected = [
        "P0 draws a card",
        "P0 reveals Silver",
        "P0 puts onto the deck Silver",
        "P1 reveals Gold",
        "P1 puts onto the deck Gold",
    ]
    assert since(g.log(1), "P0 plays Spy", len(expected)) == expected
    assert since(g.log(), "P0 plays Spy", len(expected))[1:] == expected[1:]


def test_scout_put_back_order_is_its_owners():
    """Scout: "You do not have to reveal the order that you put cards back in". The others saw
    the cards revealed, not the order they go back in, so no top card is public."""
    g = game(
        ["Scout"], hands={0: ["Scout"]}, decks={0: ["Estate", "Copper", "Silver", "Duchy", "Gold"]}
    )
    g.step("Scout")
    g.step("Silver")  # Silver back first, then the Copper on top of it
    assert everyone(g, "public_hand", 0) == {"Estate": 1, "Duchy": 1}
    assert everyone(g, "public_top", 0) == {}
    assert known_top(g, 0) == {"Copper": 1, "Silver": 1}
    shown = ["P0 reveals Estate", "P0 reveals Copper", "P0 reveals Silver", "P0 reveals Duchy"]
    full = [*shown, "P0 puts onto the deck Silver", "P0 puts onto the deck Copper"]
    for v in (None, 0):
        assert since(g.log(v), "P0 plays Scout", len(full)) == full
    assert since(g.log(1), "P0 plays Scout", 5) == [*shown, "P0 puts 2 cards onto the deck"]


def test_scout_put_back_of_one_kind_is_public():
    g = game(
        ["Scout"],
        hands={0: ["Scout"]},
        decks={0: ["Copper", "Estate", "Copper", "Province", "Gold"]},
    )
    g.step("Scout")  # no order to choose: both Coppers go back in view
    assert everyone(g, "public_hand", 0) == {"Estate": 1, "Province": 1}
    assert everyone(g, "public_top", 0) == {"Copper": 2}
    for v in (None, 0, 1):
        assert g.log(v)[-2:] == ["P0 puts onto the deck 2 x Copper", "P0 starts the buy phase"]


def test_a_card_put_on_top_unseen_hides_the_known_ones_below():
    g = game(
        ["Bureaucrat", "Courtyard"],
        hands={0: ["Bureaucrat", "Courtyard", "Estate"]},
        decks={0: ["Copper"] * 4},
        actions=2,
    )
    g.step("Bureaucrat")
    assert everyone(g, "public_top", 0) == {"Silver": 1}
    g.step("Courtyard")  # draws the Silver (in view) and two Coppers
    assert everyone(g, "public_hand", 0) == {"Silver": 1}
    assert g.log(1)[-2:] == ["P0 draws Silver", "P0 draws 2 cards"]
    g.step("Silver")  # back on top, unseen: nobody else knows it is the Silver
    assert everyone(g, "public_top", 0) == {}
    assert everyone(g, "public_hand", 0) == {}
    assert known_top(g, 0) == {"Silver": 1}


# -- cards looked at, revealed from decks, set aside -------------------------------------------


def test_sentry_looks_are_private_its_trash_and_discard_public():
    g = game(["Sentry"], hands={0: ["Sentry"]}, decks={0: ["Copper", "Estate", "Curse", "Gold"]})
    g.step("Sentry")
    g.step("option 0")  # trash the Estate
    g.step("option 1")  # discard the Curse
    assert since(g.log(1), "P0 plays Sentry", 4) == [
        "P0 draws a card",
        "P0 looks at 2 cards",
        "P0 trashes Estate",
        "P0 discards Curse",
    ]
    assert since(g.log(), "P0 plays Sentry", 5) == [
        "P0 draws Copper",
        "P0 looks at Estate",
        "P0 looks at Curse",
        "P0 trashes Estate",
        "P0 discards Curse",
    ]


def test_adventurer_library_and_bandit_reveals_are_public():
    g = game(
        ["Adventurer", "Library", "Bandit", "Village"],
        hands={0: ["Adventurer", "Library", "Bandit", "Village", "Village"], 1: ["Copper"] * 5},
        decks={
            0: ["Curse", "Estate", "Copper", "Village", "Silver", "Duchy", "Smithy"]
            + ["Copper"] * 6,
            1: ["Silver", "Estate"],
        },
        actions=1,
    )
    g.step("Village")
    g.step("Adventurer")
    assert everyone(g, "public_hand", 0) == {"Copper": 1, "Silver": 1}
    expected = [
        "P0 reveals Estate",
        "P0 reveals Copper",
        "P0 reveals Village",
        "P0 reveals Silver",
        "P0 discards Estate",
        "P0 discards Village",
    ]
    for v in (None, 0, 1):
        assert since(g.log(v), "P0 plays Adventurer", len(expected)) == expected
    g.step("Village")
    g.step("Library")  # draws the Smithy: set it aside, in view, then discarded in view
    g.step("option 0")
    assert since(g.log(1), "P0 plays Library", 4) == [
        "P0 draws a card",
        "P0 sets aside Smithy",
        "P0 draws 2 cards",
        "P0 discards Smithy",
    ]
    g.step("Bandit")
    pass_reactions(g)
    g.step("Silver")  # the victim trashes its revealed Silver
    assert since(g.log(0), "P0 plays Bandit", 5) == [
        "P0 gains Gold",
        "P1 reveals Silver",
        "P1 reveals Estate",
        "P1 trashes Silver",
        "P1 discards Estate",
    ]


def test_cleanup_shows_others_how_many_cards_not_which():
    g = game(
        ["Village"],
        hands={0: ["Copper", "Estate", "Estate"]},
        decks={0: ["Gold"] * 5},
        phase="buy",
    )
    g.step("Copper")
    g.step("PASS")  # no more Treasures
    g.step("PASS")  # no buy: clean-up discards the Copper in play and the hand at once
    after = ["P0 draws 5 cards", "--- turn 2: P1 ---"]
    assert since(g.log(1), "P0 plays Copper", 3) == ["P0 discards 3 cards", *after]
    assert since(g.log(), "P0 plays Copper", 3) == [
        "P0 discards Copper",
        "P0 discards 2 x Estate",
        "P0 draws 5 x Gold",
    ]
    assert everyone(g, "public_hand", 0) == {}


def test_masquerade_passes_are_seen_by_passer_and_receiver_only():
    g = game(
        ["Masquerade"],
        players=3,
        hands={0: ["Masquerade", "Gold"], 1: ["Silver"], 2: ["Estate"]},
        decks={0: ["Copper", "Copper"]},
    )
    g.step("Masquerade")
    for card in ("Gold", "Silver", "Estate"):
        g.step(card)
    full = ["P0 passes Gold", "P1 passes Silver", "P2 passes Estate"]
    assert since(g.log(), "P0 draws 2 x Copper") == full
    assert since(g.log(0), "P0 draws 2 x Copper") == [full[0], "P1 passes a card", full[2]]
    assert since(g.log(1), "P0 draws 2 cards") == [full[0], full[1], "P2 passes a card"]
    assert since(g.log(2), "P0 draws 2 cards") == ["P0 passes a card", full[1], full[2]]
    assert all(everyone(g, "public_hand", p) == {} for p in range(3))


def test_masquerade_between_two_players_is_seen_by_both():
    g = game(
        ["Masquerade"],
        hands={0: ["Masquerade", "Gold"], 1: ["Silver"]},
        decks={0: ["Copper", "Copper"]},
    )
    g.step("Masquerade")
    g.step("Gold")
    g.step("Silver")
    assert everyone(g, "public_hand", 1) == {"Gold": 1}
    assert everyone(g, "public_hand", 0) == {"Silver": 1}
    assert g.log(1)[-2:] == g.log()[-2:] == ["P0 passes Gold", "P1 passes Silver"]


# -- discards of several cards: the count and the top card ---------------------------------


def cellar_game(discards, public=False):
    """P0 reveals its hand (Shanty Town), then Cellars ``discards`` away, and draws as many."""
    g = game(
        ["Shanty Town", "Cellar"],
        hands={0: ["Shanty Town", "Cellar", "Estate", "Duchy", "Copper", "Copper"]},
        decks={0: ["Gold"] * 5},
        public_discards=public,
    )
    g.step("Shanty Town")  # an Action in hand: shows the hand, draws nothing
    g.step("Cellar")
    for card in discards:
        g.step(card)
    g.step("PASS")
    return g


def test_cellar_shows_the_others_how_many_and_the_top_card():
    g = cellar_game(["Estate", "Duchy", "Copper"])
    mine = ["P0 discards Estate", "P0 discards Duchy", "P0 discards Copper", "P0 draws 3 x Gold"]
    for v in (None, 0):
        assert since(g.log(v), "P0 plays Cellar", 4) == mine
    assert since(g.log(1), "P0 plays Cellar") == [
        "P0 discards 2 cards",
        "P0 discards Copper",
        "P0 draws 3 cards",
        "P0 starts the buy phase",
    ]
    # known before: Cellar, Estate, Duchy, 2 Coppers; Cellar played, then three cards left
    # unseen but for the top one: each could have been any known card, so nothing is left known
    assert everyone(g, "public_hand", 0) == {}
    events = g.log_events()
    discards = events[events[:, 0] == EV_DISCARD]
    assert discards[:, 4].tolist() == [1, 1, SEEN_TOP]


def test_public_discards_setting_shows_every_discarded_card():
    g = cellar_game(["Estate", "Duchy", "Copper"], public=True)
    shown = ["P0 discards Estate", "P0 discards Duchy", "P0 discards Copper"]
    for v in (None, 0, 1):
        assert since(g.log(v), "P0 plays Cellar", 3) == shown
    assert since(g.log(1), "P0 plays Cellar")[3] == "P0 draws 3 cards"
    assert everyone(g, "public_hand", 0) == {"Copper": 1}  # the rest of the hand shown


def test_militia_victims_show_how_many_and_the_top_card():
    g = game(
        ["Militia"],
        players=3,
        hands={
            0: ["Militia"],
            1: ["Copper", "Copper", "Estate", "Silver", "Gold"],
            2: ["Duchy", "Duchy", "Copper", "Silver", "Gold"],
        },
        decks={0: ["Copper"] * 3},
    )
    g.step("Militia")
    pass_reactions(g)
    for card in ("Estate", "Copper", "Duchy", "Duchy"):
        g.step(card)
    p1_all = ["P1 discards Estate", "P1 discards Copper"]
    p1_top = ["P1 discards a card", "P1 discards Copper"]
    assert since(g.log(), "P0 plays Militia", 3) == [*p1_all, "P2 discards 2 x Duchy"]
    assert since(g.log(0), "P0 plays Militia", 4) == [
        *p1_top,
        "P2 discards a card",
        "P2 discards Duchy",
    ]
    assert since(g.log(1), "P0 plays Militia", 4) == [
        *p1_all,
        "P2 discards a card",
        "P2 discards Duchy",
    ]
    assert since(g.log(2), "P0 plays Militia", 3) == [*p1_top, "P2 discards 2 x Duchy"]
    assert all(everyone(g, "public_hand", p) == {} for p in range(3))


def test_militia_victims_known_cards_are_forgotten_when_discarded_unseen():
    """A Moat shown against a first Militia is known in hand; the victim then discards two
    cards to a second Militia, one of which may be the Moat."""
    g = game(
        ["Militia", "Moat", "Throne Room"],
        hands={0: ["Throne Room", "Militia"], 1: ["Moat", "Copper", "Estate", "Silver", "Gold"]},
        decks={0: ["Copper"] * 3},
    )
    g.step("Throne Room")
    g.step("Militia")
    g.step("Moat")  # unaffected by the first play: the Moat is known in hand
    assert everyone(g, "public_hand", 1) == {"Moat": 1}
    g.step("PASS")  # no Moat against the second play: discard down to 3
    g.step("Estate")
    g.step("Copper")
    assert everyone(g, "public_hand", 1) == {}
    assert g.log(0)[-3:-1] == ["P1 discards a card", "P1 discards Copper"]


def test_torturer_discard_2_shows_how_many_and_the_top_card():
    g = game(
        ["Torturer"],
        hands={0: ["Torturer"], 1: ["Estate", "Copper", "Silver", "Gold", "Duchy"]},
        decks={0: ["Copper"] * 3},
    )
    g.step("Torturer")
    pass_reactions(g)
    g.step("option 0")  # discard 2
    g.step("Duchy")
    g.step("Estate")
    assert since(g.log(0), "P0 plays Torturer")[1:] == [
        "P1 discards a card",
        "P1 discards Estate",
        "P0 starts the buy phase",
    ]
    for v in (None, 1):
        assert since(g.log(v), "P0 plays Torturer")[1:3] == [
            "P1 discards Duchy",
            "P1 discards Estate",
        ]


def test_sentry_discarding_both_cards_shows_the_top_one():
    g = game(["Sentry"], hands={0: ["Sentry"]}, decks={0: ["Copper", "Estate", "Curse", "Gold"]})
    g.step("Sentry")
    g.step("option 1")  # discard the Estate
    g.step("option 1")  # discard the Curse, on top of it
    assert since(g.log(1), "P0 plays Sentry") == [
        "P0 draws a card",
        "P0 looks at 2 cards",
        "P0 discards a card",
        "P0 discards Curse",
        "P0 starts the buy phase",
    ]
    assert since(g.log(0), "P0 plays Sentry")[3:5] == ["P0 discards Estate", "P0 discards Curse"]


@pytest.mark.parametrize("value", [1, "yes", None])
def test_public_discards_setting_must_be_true_or_false(value):
    with pytest.raises(TypeError, match=r"public_discards must be True or False, got"):
        make_config(2, public_discards=value)
    with pytest.raises(TypeError, match=r"public_discards must be True or False, got"):
        Game(public_discards=value)
    assert Game().settings() == Game(public_discards=True).settings()  # games are the same
    assert make_config(2).public_discards == 0  # the rules by default
    assert make_config(2, public_discards=True).public_discards == 1


def _cellar_views(discards, public=False):
    """P1's log and observations from P0's Cellar until P1's first decision of its turn."""
    g = cellar_game(discards, public)
    views = [g.observation(1)]
    while g.current_player != 1:
        g.step("PASS")
        views.append(g.observation(1))
    return g, views


@pytest.mark.parametrize("public", [False, True])
def test_which_cards_a_cellar_discards_under_its_top_card_stays_hidden(public):
    """Same count, same top card, different cards under it: the opponent's view is the same,
    unless every discarded card is shown (the setting)."""
    a, views_a = _cellar_views(["Estate", "Copper"], public)
    b, views_b = _cellar_views(["Duchy", "Copper"], public)
    assert a.log() != b.log()
    assert len(views_a) == len(views_b) >= 3
    same_views = all(np.array_equal(x, y) for x, y in zip(views_a, views_b, strict=True))
    assert (a.log(1) == b.log(1)) == (not public)
    assert same_views == (not public)


# -- hidden stays hidden ---------------------------------------------------------------------


def _play_out(hand1, deck1):
    """P0 plays a Smithy turn and buys nothing; P1 (a hidden hand, a hidden deck order) passes
    its turn; then back to P0. Returns P0's log and its observation at each decision."""
    g = game(
        ["Smithy", "Militia"],
        hands={0: ["Smithy", "Copper", "Copper"], 1: hand1},
        decks={0: ["Copper"] * 8, 1: deck1},
    )
    views = []
    while g.turn["turn_number"] < 3:
        if g.current_player == 0:
            views.append(g.observation(0))
        g.step("Smithy" if "Smithy" in g.legal_actions() else "PASS")
    return g, views


def test_what_a_player_cannot_see_changes_neither_its_log_nor_its_observations():
    a, views_a = _play_out(
        ["Estate", "Curse", "Copper"], ["Estate", "Duchy", "Copper", "Curse", "Estate", "Gold"]
    )
    b, views_b = _play_out(
        ["Curse", "Estate", "Copper"], ["Gold", "Curse", "Estate", "Copper", "Duchy", "Estate"]
    )
    assert a.log(0) == b.log(0)
    assert a.log() != b.log()  # the perfect-information logs do differ
    assert len(views_a) == len(views_b) >= 2
    for x, y in zip(views_a, views_b, strict=True):
        np.testing.assert_array_equal(x, y)


def test_every_line_a_viewer_gets_is_public_or_its_own():
    """In a random game, the viewer's log names a card only where the event's ``seen`` set
    holds the viewer; the full log names them all."""
    g = Game(REVEALERS, players=3, seed=8)
    rng = np.random.default_rng(8)
    for _ in range(400):
        if g.done:
            break
        g.step(int(rng.choice(np.flatnonzero(g.action_mask))))
    events = g.log_events()
    assert events.shape[1] == 5 and len(events) > 100
    draws = events[events[:, 0] == EV_DRAW]
    assert (draws[:, 4] != SEEN_ALL).any()
    for v in range(3):
        own_or_public = [r for r in events if r[2] < 0 or (int(r[4]) >> v) & 1]
        hidden = len(events) - len(own_or_public)
        assert hidden > 0
        assert log_lines(events, v) == g.log(v)
    # a hidden draw of P1 reads as a count for P0, by name for P1 and in the full log
    hidden_draw = np.array([[EV_DRAW, 1, card_id("Gold"), 1, 1 << 1]])
    assert log_lines(hidden_draw, 0) == ["P1 draws a card"]
    assert log_lines(hidden_draw, 1) == ["P1 draws Gold"]
    assert log_lines(hidden_draw) == ["P1 draws Gold"]


def test_public_hand_never_exceeds_the_hand_in_random_games():
    g = Game(REVEALERS, players=4, seed=2)
    rng = np.random.default_rng(2)
    seen_some = 0
    for _ in range(1500):
        if g.done:
            break
        s = g.state
        assert (s["pub_hand"][0] <= s["zone"][0, :, HAND]).all()
        assert (s["pub_hand"][0] >= 0).all()
        seen_some += int(s["pub_hand"][0].sum() > 0)
        g.step(int(rng.choice(np.flatnonzero(g.action_mask))))
    assert seen_some > 0


DISCARDERS = [  # cards that put cards into a discard pile, or take them out, in or out of view
    "Harbinger", "Vassal", "Chancellor", "Spy", "Thief",
    "Library", "Bandit", "Militia", "Cellar", "Minion",
]  # fmt: skip


@pytest.mark.parametrize("public_discards", [False, True])
def test_public_discard_never_exceeds_the_discard_pile_in_random_games(public_discards):
    """pub_discard is a lower bound of the discard pile whatever moves in and out of it."""
    g = Game(DISCARDERS, players=3, seed=5, public_discards=public_discards)
    rng = np.random.default_rng(5)
    seen_some = 0
    for _ in range(1500):
        if g.done:
            break
        s = g.state
        known, pile = s["pub_discard"][0].astype(int), s["zone"][0, :, DISCARD].astype(int)
        assert (0 <= known).all() and (known <= pile).all()
        seen_some += int(known.sum() > 0)
        g.step(int(rng.choice(np.flatnonzero(g.action_mask))))
    assert seen_some > 100


@pytest.mark.parametrize("viewer", [-1, 6, 1.0, True, "0"])
def test_log_viewer_must_be_a_player(viewer):
    g = Game("First Game", players=2)
    with pytest.raises(ValueError, match="player"):
        g.log(viewer)


def test_log_lines_checks_its_arguments():
    with pytest.raises(ValueError, match="viewer"):
        log_lines(np.zeros((0, 5), np.int32), viewer=-1)
    with pytest.raises(ValueError, match=r"\(n, 5\)"):
        log_lines(np.zeros((3, 4), np.int32))


def test_the_text_render_shows_the_viewers_log():
    g = game(["Village"], hands={0: ["Copper", "Estate"]}, decks={0: ["Gold"] * 5}, phase="buying")
    g.step("PASS")  # no buy: clean-up draws 5 Golds
    assert "P0 draws 5 cards" in render_game(g, viewer=1)
    assert "P0 draws 5 x Gold" in render_game(g, viewer=0)
