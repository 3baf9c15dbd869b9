"""Scenario tests for the Base-set card effects (2nd edition and the six 1st-edition cards).

Each test puts a game in an exact position with ``Game.set_scenario``, answers the decisions the
card asks (checking who decides, the decision kind and the legal actions against the contract in
``dominion_env/engine/base_cards.py``), then checks every zone of every player, the trash, the
Supply and the turn's Actions/Buys/$.

Games stop at every decision (``auto_resolve=False``) and Treasures are played by hand
(``autoplay_treasures=False``), so a forced decision shows up as a step and $ only changes when a
test plays a Treasure. Rules: /work/shared/rules/000_*.txt (base rulebook) wins over CARDS.md.

This file stays whole (over 800 lines): one scenario test per card, in the order of the
set's module it checks.
"""

from collections import Counter

import pytest
import scenario
from scenario import BASE, YES_NO, S, card_rows, covers, kingdom_for, legal_set, play, upto

from dominion_env import Game

# ---------------------------------------------------------------------------------------------
# helpers (the shared ones: tests/scenario.py)
# ---------------------------------------------------------------------------------------------

# kingdom padding, in this order, for cards a scenario does not need: these scenarios were
# written with Moat in it (scenario.FILLER has no Reaction)
FILLER = (
    "Village",
    "Smithy",
    "Festival",
    "Laboratory",
    "Market",
    "Woodcutter",
    "Cellar",
    "Moat",
    "Chapel",
    "Workshop",
    "Council Room",
)


class Scenario(scenario.Scenario):
    filler = FILLER


OPTS3 = ["option 0", "option 1", "option 2"]


# ---------------------------------------------------------------------------------------------
# One scenario per card
# ---------------------------------------------------------------------------------------------

# id, setup, steps, expected zones per player (zones left out: as set up), trash,
# Supply changes, (Actions, Buys, $) afterwards, next decision of player 0
CARD_ROWS = [
    (
        "Cellar",
        dict(
            hands={0: ["Cellar", "Estate", "Estate", "Copper"]},
            decks={0: ["Silver", "Gold", "Province"]},
        ),
        [
            play("Cellar"),
            S(0, "discard", "Estate", legal=["Copper", "Estate", "PASS"]),
            S(0, "discard", "Estate"),
            S(0, "discard", "PASS", legal=["Copper", "PASS"]),
        ],
        {
            0: dict(
                hand=["Copper", "Silver", "Gold"],
                deck=["Province"],
                discard=["Estate", "Estate"],
                in_play=["Cellar"],
            )
        },
        {},
        {},
        (1, 1, 0),
        "play_treasure",
    ),
    (
        "Chapel",
        dict(hands={0: ["Chapel", "Copper", "Copper", "Estate", "Silver"]}, decks={0: ["Gold"]}),
        [
            play("Chapel"),
            S(0, "trash", "Estate", legal=["Copper", "Silver", "Estate", "PASS"], count=4),
            S(0, "trash", "Copper", count=3),
            S(0, "trash", "PASS", count=2),
        ],
        {0: dict(hand=["Copper", "Silver"], in_play=["Chapel"])},
        {"Estate": 1, "Copper": 1},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Moat",
        dict(hands={0: ["Moat", "Copper"]}, decks={0: ["Estate", "Silver", "Gold"]}),
        [play("Moat")],
        {0: dict(hand=["Copper", "Estate", "Silver"], deck=["Gold"], in_play=["Moat"])},
        {},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Harbinger",
        dict(
            hands={0: ["Harbinger"]},
            decks={0: ["Copper", "Estate"]},
            discards={0: ["Gold", "Curse"]},
        ),
        [
            play("Harbinger"),
            S(0, "topdeck", "Gold", legal=["Gold", "Curse", "PASS"], can_pass=True),
        ],
        {
            0: dict(
                hand=["Copper"], deck=["Gold", "Estate"], discard=["Curse"], in_play=["Harbinger"]
            )
        },
        {},
        {},
        (1, 1, 0),
        "play_treasure",
    ),
    (
        "Merchant",
        dict(hands={0: ["Merchant", "Silver"]}, decks={0: ["Copper", "Estate"]}),
        [
            play("Merchant"),
            S(0, "play_treasure", "Silver", coins=3),
            S(0, "play_treasure", "Copper", coins=4),
        ],
        {0: dict(hand=[], deck=["Estate"], in_play=["Merchant", "Silver", "Copper"])},
        {},
        {},
        (1, 1, 4),
        "buy",
    ),
    (
        "Vassal non-Action",
        dict(hands={0: ["Vassal"]}, decks={0: ["Estate", "Copper"]}),
        [play("Vassal")],
        {0: dict(hand=[], deck=["Copper"], discard=["Estate"], in_play=["Vassal"])},
        {},
        {},
        (0, 1, 2),
        "buy",
    ),
    (
        "Village",
        dict(hands={0: ["Village"]}, decks={0: ["Copper", "Estate"]}),
        [play("Village")],
        {0: dict(hand=["Copper"], deck=["Estate"], in_play=["Village"])},
        {},
        {},
        (2, 1, 0),
        "play_treasure",
    ),
    (
        "Workshop",
        dict(hands={0: ["Workshop", "Copper"]}, decks={0: ["Estate"]}),
        [play("Workshop"), S(0, "gain", "Smithy", legal=upto(4), can_pass=False)],
        {0: dict(hand=["Copper"], discard=["Smithy"], in_play=["Workshop"])},
        {},
        {"Smithy": -1},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Bureaucrat",
        dict(
            hands={0: ["Bureaucrat"], 1: ["Estate", "Copper", "Copper", "Copper", "Copper"]},
            decks={0: ["Copper"], 1: ["Gold"]},
        ),
        [play("Bureaucrat"), S(1, "topdeck", "Estate", legal=["Estate"], source="Bureaucrat")],
        {
            0: dict(hand=[], deck=["Silver", "Copper"], in_play=["Bureaucrat"]),
            1: dict(hand=["Copper"] * 4, deck=["Estate", "Gold"]),
        },
        {},
        {"Silver": -1},
        (0, 1, 0),
        "buy",
    ),
    (
        "Militia",
        dict(hands={0: ["Militia"], 1: ["Copper", "Copper", "Estate", "Estate", "Silver"]}),
        [
            play("Militia"),
            S(
                1,
                "discard",
                "Estate",
                legal=["Copper", "Silver", "Estate"],
                count=2,
                source="Militia",
            ),
            S(1, "discard", "Estate", count=1),
        ],
        {
            0: dict(hand=[], in_play=["Militia"]),
            1: dict(hand=["Copper", "Copper", "Silver"], discard=["Estate", "Estate"]),
        },
        {},
        {},
        (0, 1, 2),
        "buy",
    ),
    (
        "Moneylender",
        dict(hands={0: ["Moneylender", "Copper", "Copper", "Estate"]}),
        [play("Moneylender"), S(0, "trash", "Copper", legal=["Copper", "PASS"])],
        {0: dict(hand=["Copper", "Estate"], in_play=["Moneylender"])},
        {"Copper": 1},
        {},
        (0, 1, 3),
        "play_treasure",
    ),
    (
        "Poacher one empty pile",
        dict(
            hands={0: ["Poacher", "Estate", "Copper"]}, decks={0: ["Silver"]}, supply={"Curse": 0}
        ),
        [play("Poacher"), S(0, "discard", "Estate", legal=["Copper", "Silver", "Estate"], count=1)],
        {0: dict(hand=["Copper", "Silver"], deck=[], discard=["Estate"], in_play=["Poacher"])},
        {},
        {},
        (1, 1, 1),
        "play_treasure",
    ),
    (
        "Poacher no empty pile",
        dict(hands={0: ["Poacher", "Estate"]}, decks={0: ["Silver"]}),
        [play("Poacher")],
        {0: dict(hand=["Estate", "Silver"], deck=[], in_play=["Poacher"])},
        {},
        {},
        (1, 1, 1),
        "play_treasure",
    ),
    (
        "Remodel",
        dict(hands={0: ["Remodel", "Estate", "Copper"]}),
        [
            play("Remodel"),
            S(0, "trash", "Estate", legal=["Copper", "Estate"]),
            S(0, "gain", "Smithy", legal=upto(4)),
        ],
        {0: dict(hand=["Copper"], discard=["Smithy"], in_play=["Remodel"])},
        {"Estate": 1},
        {"Smithy": -1},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Smithy",
        dict(hands={0: ["Smithy"]}, decks={0: ["Copper", "Estate", "Silver", "Gold"]}),
        [play("Smithy")],
        {0: dict(hand=["Copper", "Estate", "Silver"], deck=["Gold"], in_play=["Smithy"])},
        {},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Throne Room",
        dict(
            hands={0: ["Throne Room", "Smithy", "Estate"]},
            decks={0: ["Copper", "Estate", "Silver", "Gold", "Duchy", "Province", "Curse"]},
        ),
        [play("Throne Room"), S(0, "play_twice", "Smithy", legal=["Smithy", "PASS"])],
        {
            0: dict(
                hand=["Estate", "Copper", "Estate", "Silver", "Gold", "Duchy", "Province"],
                deck=["Curse"],
                in_play=["Throne Room", "Smithy"],
            )
        },
        {},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Bandit",
        dict(hands={0: ["Bandit"]}, decks={1: ["Silver", "Copper", "Estate"]}),
        [play("Bandit"), S(1, "trash", "Silver", legal=["Silver"], source="Bandit")],
        {
            0: dict(hand=[], discard=["Gold"], in_play=["Bandit"]),
            1: dict(deck=["Estate"], discard=["Copper"]),
        },
        {"Silver": 1},
        {"Gold": -1},
        (0, 1, 0),
        "buy",
    ),
    (
        "Council Room",
        dict(
            hands={0: ["Council Room"], 1: ["Estate"]},
            decks={0: ["Copper", "Copper", "Estate", "Estate", "Silver"], 1: ["Gold", "Copper"]},
        ),
        [play("Council Room")],
        {
            0: dict(
                hand=["Copper", "Copper", "Estate", "Estate"],
                deck=["Silver"],
                in_play=["Council Room"],
            ),
            1: dict(hand=["Estate", "Gold"], deck=["Copper"]),
        },
        {},
        {},
        (0, 2, 0),
        "play_treasure",
    ),
    (
        "Festival",
        dict(hands={0: ["Festival", "Estate"]}, decks={0: ["Gold"]}),
        [play("Festival")],
        {0: dict(hand=["Estate"], in_play=["Festival"])},
        {},
        {},
        (2, 2, 2),
        "buy",
    ),
    (
        "Laboratory",
        dict(hands={0: ["Laboratory"]}, decks={0: ["Copper", "Estate", "Silver"]}),
        [play("Laboratory")],
        {0: dict(hand=["Copper", "Estate"], deck=["Silver"], in_play=["Laboratory"])},
        {},
        {},
        (1, 1, 0),
        "play_treasure",
    ),
    (
        "Library",
        dict(
            hands={0: ["Library", "Copper", "Copper", "Estate"]},
            decks={0: ["Village", "Silver", "Smithy", "Gold", "Estate", "Province"]},
        ),
        [
            play("Library"),
            S(0, "choose", "option 0", card="Village", legal=YES_NO),
            S(0, "choose", "PASS", card="Smithy", legal=YES_NO),
        ],
        {
            0: dict(
                hand=["Copper", "Copper", "Estate", "Silver", "Smithy", "Gold", "Estate"],
                deck=["Province"],
                discard=["Village"],
                in_play=["Library"],
            )
        },
        {},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Library with 7 cards draws nothing",
        dict(hands={0: ["Library"] + ["Copper"] * 7}, decks={0: ["Gold"]}),
        [play("Library")],
        {0: dict(hand=["Copper"] * 7, deck=["Gold"], in_play=["Library"])},
        {},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Market",
        dict(hands={0: ["Market"]}, decks={0: ["Copper", "Estate"]}),
        [play("Market")],
        {0: dict(hand=["Copper"], deck=["Estate"], in_play=["Market"])},
        {},
        {},
        (1, 2, 1),
        "play_treasure",
    ),
    (
        "Mine",
        dict(hands={0: ["Mine", "Copper", "Silver", "Estate"]}),
        [
            play("Mine"),
            S(0, "trash", "Silver", legal=["Copper", "Silver", "PASS"]),
            S(0, "gain", "Gold", legal=upto(6, treasure=True)),
        ],
        {0: dict(hand=["Copper", "Gold", "Estate"], in_play=["Mine"])},
        {"Silver": 1},
        {"Gold": -1},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Sentry trash and discard",
        dict(hands={0: ["Sentry"]}, decks={0: ["Copper", "Curse", "Estate", "Gold"]}),
        [
            play("Sentry"),
            S(0, "choose", "option 0", card="Curse", legal=OPTS3),
            S(0, "choose", "option 1", card="Estate", legal=OPTS3),
        ],
        {0: dict(hand=["Copper"], deck=["Gold"], discard=["Estate"], in_play=["Sentry"])},
        {"Curse": 1},
        {},
        (1, 1, 0),
        "play_treasure",
    ),
    (
        "Sentry keep both and reorder",
        dict(hands={0: ["Sentry"]}, decks={0: ["Copper", "Silver", "Gold", "Estate"]}),
        [
            play("Sentry"),
            S(0, "choose", "option 2", card="Silver"),
            S(0, "choose", "option 2", card="Gold"),
            # the card chosen is put back first, so it ends up under the other one
            S(0, "topdeck", "Silver", legal=["Silver", "Gold"]),
        ],
        {0: dict(hand=["Copper"], deck=["Gold", "Silver", "Estate"], in_play=["Sentry"])},
        {},
        {},
        (1, 1, 0),
        "play_treasure",
    ),
    (
        "Sentry keep one",
        dict(hands={0: ["Sentry"]}, decks={0: ["Copper", "Silver", "Gold", "Estate"]}),
        [
            play("Sentry"),
            S(0, "choose", "option 1", card="Silver"),
            S(0, "choose", "option 2", card="Gold"),
        ],
        {0: dict(hand=["Copper"], deck=["Gold", "Estate"], discard=["Silver"], in_play=["Sentry"])},
        {},
        {},
        (1, 1, 0),
        "play_treasure",
    ),
    (
        "Sentry keep two of a kind: no order to choose",
        dict(hands={0: ["Sentry"]}, decks={0: ["Copper", "Gold", "Gold", "Estate"]}),
        [
            play("Sentry"),
            S(0, "choose", "option 2", card="Gold"),
            S(0, "choose", "option 2", card="Gold"),
        ],
        {0: dict(hand=["Copper"], deck=["Gold", "Gold", "Estate"], in_play=["Sentry"])},
        {},
        {},
        (1, 1, 0),
        "play_treasure",
    ),
    (
        "Witch",
        dict(hands={0: ["Witch"]}, decks={0: ["Copper", "Estate", "Silver"]}),
        [play("Witch")],
        {
            0: dict(hand=["Copper", "Estate"], deck=["Silver"], in_play=["Witch"]),
            1: dict(discard=["Curse"]),
        },
        {},
        {"Curse": -1},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Artisan",
        dict(hands={0: ["Artisan", "Estate"]}, decks={0: ["Copper"]}),
        [
            play("Artisan"),
            S(0, "gain", "Market", legal=upto(5)),
            S(0, "topdeck", "Estate", legal=["Estate", "Market"]),
        ],
        {0: dict(hand=["Market"], deck=["Estate", "Copper"], in_play=["Artisan"])},
        {},
        {"Market": -1},
        (0, 1, 0),
        "buy",
    ),
    (
        "Chancellor declined",
        dict(hands={0: ["Chancellor"]}, decks={0: ["Copper", "Estate"]}, discards={0: ["Gold"]}),
        [play("Chancellor"), S(0, "choose", "PASS", legal=YES_NO)],
        {0: dict(hand=[], in_play=["Chancellor"])},
        {},
        {},
        (0, 1, 2),
        "buy",
    ),
    (
        "Woodcutter",
        dict(hands={0: ["Woodcutter", "Estate"]}),
        [play("Woodcutter")],
        {0: dict(hand=["Estate"], in_play=["Woodcutter"])},
        {},
        {},
        (0, 2, 2),
        "buy",
    ),
    (
        "Feast",
        dict(hands={0: ["Feast"]}),
        [play("Feast"), S(0, "gain", "Duchy", legal=upto(5))],
        {0: dict(hand=[], discard=["Duchy"], in_play=[])},
        {"Feast": 1},
        {"Duchy": -1},
        (0, 1, 0),
        "buy",
    ),
    (
        "Spy",
        dict(hands={0: ["Spy"]}, decks={0: ["Copper", "Estate"], 1: ["Gold", "Silver"]}),
        [
            play("Spy"),
            S(0, "choose", "option 0", card="Estate", target=0, legal=["option 0", "option 1"]),
            S(0, "choose", "option 1", card="Gold", target=1, legal=["option 0", "option 1"]),
        ],
        {
            0: dict(hand=["Copper"], deck=[], discard=["Estate"], in_play=["Spy"]),
            1: dict(deck=["Gold", "Silver"]),
        },
        {},
        {},
        (1, 1, 0),
        "play_treasure",
    ),
    (
        "Thief",
        dict(hands={0: ["Thief"]}, decks={1: ["Gold", "Copper", "Estate"]}),
        [
            play("Thief"),
            S(0, "trash", "Gold", legal=["Copper", "Gold"], target=1),
            S(0, "choose", "option 0", card="Gold", legal=YES_NO),
        ],
        {
            0: dict(hand=[], discard=["Gold"], in_play=["Thief"]),
            1: dict(deck=["Estate"], discard=["Copper"]),
        },
        {},
        {},
        (0, 1, 0),
        "buy",
    ),
    (
        "Adventurer",
        dict(
            hands={0: ["Adventurer"]}, decks={0: ["Estate", "Copper", "Smithy", "Silver", "Gold"]}
        ),
        [play("Adventurer")],
        {
            0: dict(
                hand=["Copper", "Silver"],
                deck=["Gold"],
                discard=["Estate", "Smithy"],
                in_play=["Adventurer"],
            )
        },
        {},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
]


@pytest.mark.parametrize("setup,steps,expect,trash,gained,turn,nxt", card_rows(CARD_ROWS))
def test_card(setup, steps, expect, trash, gained, turn, nxt):
    sc = Scenario(steps=steps, **setup)
    sc.run(steps).check(expect, trash=trash, gained=gained, turn=turn, next=nxt)


def test_every_base_card_has_a_row():
    covered = {s["action"] for r in CARD_ROWS for s in r[2] if s["kind"] == "play_action"}
    assert covered == set(BASE) - {"Gardens"}  # Gardens: test_gardens_* below


# ---------------------------------------------------------------------------------------------
# Gardens
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "coppers,points",
    [
        (2, 2),  # 9 cards: Gardens worth 0 -> 3 Estates - 1 Curse
        (3, 4),  # 10 cards: each Gardens worth 1
        (32, 8),  # 39 cards: each worth 3 (rounded down)
        (33, 10),  # 40 cards: each worth 4
    ],
)
@covers("Gardens", "Estate", "Curse")
def test_gardens_scoring_counts_every_zone(coppers, points):
    sc = Scenario(
        hands={0: ["Estate", "Estate", "Estate"], 1: ["Gardens"]},
        decks={0: ["Gardens", "Gardens"]},
        in_play={0: ["Village"]},
        aside={0: ["Curse"]},
        discards={0: {"Copper": coppers}},
        phase="buying",
        coins=0,
    )
    assert sc.g.scores() == [points, 0]


@pytest.mark.parametrize("coppers,rewards", [(28, [-1, 1]), (29, [1, -1])])
@covers("Gardens")
def test_gardens_decides_the_game_at_the_end(coppers, rewards):
    """1 Gardens + 28 Coppers = 29 cards: 2 VP, a tie with P1's 2 Estates that P1 wins on
    turns; 30 cards: 3 VP, P0 wins."""
    sc = Scenario(
        discards={0: {"Copper": coppers, "Gardens": 1}, 1: ["Estate", "Estate"]},
        supply={"Province": 0},
        phase="buying",
        coins=0,
    )
    sc.g.step("PASS")
    assert sc.g.terminated
    assert list(sc.g.rewards) == rewards


# ---------------------------------------------------------------------------------------------
# Moat and Militia
# ---------------------------------------------------------------------------------------------


def test_moat_declined_with_library_in_hand_then_discards_to_militia():
    sc = Scenario(hands={0: ["Militia"], 1: ["Moat", "Library", "Copper", "Estate", "Silver"]})
    sc.run(
        [
            play("Militia"),
            S(1, "react", "PASS", legal=["Moat", "PASS"], source="Militia"),
            S(
                1,
                "discard",
                "Library",
                legal=["Moat", "Library", "Copper", "Estate", "Silver"],
                count=2,
            ),
            S(1, "discard", "Estate", legal=["Moat", "Copper", "Estate", "Silver"], count=1),
        ]
    )
    sc.check(
        {
            0: dict(hand=[], in_play=["Militia"]),
            1: dict(hand=["Moat", "Copper", "Silver"], discard=["Library", "Estate"]),
        },
        turn=(0, 1, 2),
        next="buy",
    )
    assert not any("reaction" in line for line in sc.g.log())


def test_moat_revealed_against_militia_keeps_the_hand():
    sc = Scenario(hands={0: ["Militia"], 1: ["Moat", "Copper", "Copper", "Estate", "Silver"]})
    sc.run([play("Militia"), S(1, "react", "Moat", legal=["Moat", "PASS"])])
    sc.check({0: dict(hand=[], in_play=["Militia"])}, turn=(0, 1, 2), next="buy")
    assert "P1 reveals in reaction Moat" in sc.g.log()


def test_militia_five_players_in_turn_order():
    """P3 attacks: victims in turn order P4, P0, P1, P2. P4 reveals Moat, P0 has 4 cards
    (discards 1), P1 has 3 (untouched), P2 has 6 (discards 3)."""
    sc = Scenario(
        players=5,
        turn_player=3,
        hands={
            3: ["Militia"],
            4: ["Moat", "Gold", "Gold", "Copper", "Estate"],
            0: ["Copper", "Copper", "Estate", "Silver"],
            1: ["Estate", "Estate", "Gold"],
            2: ["Copper", "Copper", "Copper", "Estate", "Estate", "Duchy"],
        },
    )
    sc.run(
        [
            play("Militia", player=3),
            S(4, "react", "Moat", legal=["Moat", "PASS"]),
            S(0, "discard", "Estate", count=1, legal=["Copper", "Silver", "Estate"]),
            S(2, "discard", "Duchy", count=3, legal=["Copper", "Estate", "Duchy"]),
            S(2, "discard", "Estate", count=2),
            S(2, "discard", "Estate", count=1),
        ]
    )
    sc.check(
        {
            3: dict(hand=[], in_play=["Militia"]),
            0: dict(hand=["Copper", "Copper", "Silver"], discard=["Estate"]),
            2: dict(hand=["Copper"] * 3, discard=["Duchy", "Estate", "Estate"]),
        },
        turn=(0, 1, 2),
        next="buy",
        player=3,
    )


# ---------------------------------------------------------------------------------------------
# Library, Sentry, Harbinger, Mine, Cellar, Adventurer: around the edges of the deck
# ---------------------------------------------------------------------------------------------


def test_library_set_aside_card_is_not_shuffled_in():
    """Village set aside, then the deck runs out: only Gold and Estate are shuffled, and once
    they are drawn there is nothing left (the hand stays at 6); Village is discarded at the
    end."""
    sc = Scenario(
        hands={0: ["Library", "Copper", "Copper", "Copper"]},
        decks={0: ["Village", "Silver"]},
        discards={0: ["Gold", "Estate"]},
    )
    sc.run([play("Library"), S(0, "choose", "option 0", card="Village", legal=YES_NO)])
    sc.check(
        {
            0: dict(
                hand=["Copper"] * 3 + ["Silver", "Gold", "Estate"],
                deck=[],
                discard=["Village"],
                in_play=["Library"],
            )
        },
        turn=(0, 1, 0),
        next="play_treasure",
    )
    assert sc.shuffles() == ["P0 shuffles 2 cards"]


def test_library_set_aside_card_stays_out_of_a_big_reshuffle():
    sc = Scenario(
        hands={0: ["Library", "Copper", "Copper", "Copper"]},
        decks={0: ["Festival"]},
        discards={0: ["Gold", "Gold", "Estate", "Estate", "Duchy", "Silver"]},
    )
    sc.run([play("Library"), S(0, "choose", "option 0", card="Festival")])
    z = sc.g.zones(0)
    drawn = Counter(z["hand"]) - Counter({"Copper": 3})
    assert sum(z["hand"].values()) == 7 and sum(drawn.values()) == 4
    assert drawn + Counter(z["deck"]) == Counter(
        ["Gold", "Gold", "Estate", "Estate", "Duchy", "Silver"]
    )
    assert z["discard"] == {"Festival": 1} and z["aside"] == {}
    assert sc.shuffles() == ["P0 shuffles 6 cards"]


def test_sentry_across_a_reshuffle():
    """+1 Card takes Silver; one card (Copper) is left, so the second look shuffles the discard
    pile (three Curses) first."""
    sc = Scenario(
        hands={0: ["Sentry"]},
        decks={0: ["Silver", "Copper"]},
        discards={0: ["Curse", "Curse", "Curse"]},
    )
    sc.run(
        [
            play("Sentry"),
            S(0, "choose", "option 0", card="Copper", legal=OPTS3),
            S(0, "choose", "option 1", card="Curse", legal=OPTS3),
        ]
    )
    sc.check(
        {0: dict(hand=["Silver"], deck=["Curse", "Curse"], discard=["Curse"], in_play=["Sentry"])},
        trash={"Copper": 1},
        turn=(1, 1, 0),
        next="play_treasure",
    )
    assert sc.shuffles() == ["P0 shuffles 3 cards"]


def test_sentry_with_one_card_left_in_all():
    sc = Scenario(hands={0: ["Sentry"]}, decks={0: ["Silver", "Estate"]})
    sc.run([play("Sentry"), S(0, "choose", "option 2", card="Estate")])
    sc.check(
        {0: dict(hand=["Silver"], deck=["Estate"], in_play=["Sentry"])},
        turn=(1, 1, 0),
        next="play_treasure",
    )


@pytest.mark.parametrize("auto_resolve", [False, True])
def test_harbinger_on_an_empty_discard_pile_asks_nothing(auto_resolve):
    """Nothing to look through: no decision at all, not even a PASS-only one (as Moneylender
    without Copper and Chancellor with an empty deck ask nothing)."""
    sc = Scenario(
        auto_resolve=auto_resolve, hands={0: ["Harbinger"]}, decks={0: ["Copper", "Estate"]}
    )
    sc.run([play("Harbinger")])
    sc.check(
        {0: dict(hand=["Copper"], deck=["Estate"], in_play=["Harbinger"])},
        turn=(1, 1, 0),
        next="play_treasure",
    )


def test_harbinger_may_pass():
    sc = Scenario(hands={0: ["Harbinger"]}, decks={0: ["Copper"]}, discards={0: ["Gold"]})
    sc.run([play("Harbinger"), S(0, "topdeck", "PASS", legal=["Gold", "PASS"])])
    sc.check(
        {0: dict(hand=["Copper"], deck=[], in_play=["Harbinger"])},
        turn=(1, 1, 0),
        next="play_treasure",
    )


def test_mine_with_no_treasure_in_hand_does_nothing():
    sc = Scenario(auto_resolve=True, hands={0: ["Mine", "Estate", "Duchy"]}, decks={0: ["Gold"]})
    sc.run([play("Mine")])
    sc.check({0: dict(hand=["Estate", "Duchy"], in_play=["Mine"])}, turn=(0, 1, 0), next="buy")


def test_mine_may_decline_and_gain_is_to_hand_up_to_3_more():
    sc = Scenario(hands={0: ["Mine", "Copper"]})
    sc.run(
        [
            play("Mine"),
            S(0, "trash", "Copper", legal=["Copper", "PASS"]),
            S(0, "gain", "Silver", legal=["Copper", "Silver"]),
        ]
    )
    sc.check(
        {0: dict(hand=["Silver"], in_play=["Mine"])},
        trash={"Copper": 1},
        gained={"Silver": -1},
        turn=(0, 1, 0),
        next="play_treasure",
    )
    sc.g.step("Silver")
    assert sc.g.turn["coins"] == 2


def test_cellar_discards_whole_hand_and_draws_them_back_through_a_reshuffle():
    sc = Scenario(
        auto_resolve=True, hands={0: ["Cellar", "Estate", "Estate", "Estate"]}, decks={0: ["Gold"]}
    )
    sc.run(
        [
            play("Cellar"),
            S(0, "discard", "Estate"),
            S(0, "discard", "Estate"),
            S(0, "discard", "Estate", legal=["Estate", "PASS"]),
        ]
    )  # then only PASS is left
    sc.check(
        {
            0: dict(
                hand=["Gold", "Estate", "Estate"], deck=["Estate"], discard=[], in_play=["Cellar"]
            )
        },
        turn=(1, 1, 0),
        next="play_treasure",
    )
    assert sc.shuffles() == ["P0 shuffles 3 cards"]


def test_adventurer_runs_out_of_cards():
    """Deck and discard hold a single Treasure: Adventurer takes it, discards the rest; the
    revealed Estate and Smithy are not shuffled in."""
    sc = Scenario(
        hands={0: ["Adventurer"]},
        decks={0: ["Estate", "Smithy"]},
        discards={0: ["Silver", "Curse"]},
    )
    sc.run([play("Adventurer")])
    sc.check(
        {
            0: dict(
                hand=["Silver"],
                deck=[],
                discard=["Estate", "Smithy", "Curse"],
                in_play=["Adventurer"],
            )
        },
        turn=(0, 1, 0),
        next="play_treasure",
    )
    assert sc.shuffles() == ["P0 shuffles 2 cards"]


# ---------------------------------------------------------------------------------------------
# Bandit, Bureaucrat, Witch, Council Room, Spy, Thief
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "revealed,steps,trashed,discarded",
    [
        # Gold and Silver: the victim chooses which to trash, the other is discarded
        (
            ["Gold", "Silver"],
            [S(1, "trash", "Silver", legal=["Silver", "Gold"])],
            {"Silver": 1},
            ["Gold"],
        ),
        (
            ["Gold", "Silver"],
            [S(1, "trash", "Gold", legal=["Silver", "Gold"])],
            {"Gold": 1},
            ["Silver"],
        ),
        # Copper and Estate: nothing to trash, no decision, both discarded
        (["Copper", "Estate"], [], {}, ["Copper", "Estate"]),
        (["Copper", "Copper"], [], {}, ["Copper", "Copper"]),
    ],
)
def test_bandit_victim(revealed, steps, trashed, discarded):
    sc = Scenario(hands={0: ["Bandit"]}, decks={1: revealed + ["Province"]})
    sc.run([play("Bandit")] + steps)
    sc.check(
        {
            0: dict(hand=[], discard=["Gold"], in_play=["Bandit"]),
            1: dict(deck=["Province"], discard=discarded),
        },
        trash=trashed,
        gained={"Gold": -1},
        turn=(0, 1, 0),
        next="buy",
    )


def test_bureaucrat_onto_an_empty_deck_and_victim_choices():
    """P0's deck is empty: the Silver becomes its only card (the discard pile is not touched).
    P1 holds Estate and Duchy and chooses; P2 has no Victory card: no decision."""
    sc = Scenario(
        players=3,
        hands={0: ["Bureaucrat"], 1: ["Estate", "Duchy", "Copper"], 2: ["Copper", "Silver"]},
        discards={0: ["Copper"]},
        decks={2: ["Gold"]},
    )
    sc.run([play("Bureaucrat"), S(1, "topdeck", "Duchy", legal=["Estate", "Duchy"])])
    sc.check(
        {
            0: dict(hand=[], deck=["Silver"], in_play=["Bureaucrat"]),
            1: dict(hand=["Estate", "Copper"], deck=["Duchy"]),
        },
        gained={"Silver": -1},
        turn=(0, 1, 0),
        next="buy",
    )
    assert sc.shuffles() == []


def test_witch_last_curse_goes_to_the_left_neighbour():
    """3 players, P2 plays Witch with one Curse left: P0 (its left) gets it, P1 none."""
    sc = Scenario(
        players=3,
        turn_player=2,
        hands={2: ["Witch"]},
        decks={2: ["Copper", "Estate"]},
        supply={"Curse": 1},
    )
    sc.run([play("Witch", player=2)])
    sc.check(
        {
            2: dict(hand=["Copper", "Estate"], deck=[], in_play=["Witch"]),
            0: dict(discard=["Curse"]),
        },
        gained={"Curse": -1},
        turn=(0, 1, 0),
        next="play_treasure",
        player=2,
    )


def test_witch_with_no_curses_left_still_draws():
    sc = Scenario(hands={0: ["Witch"]}, decks={0: ["Copper", "Estate"]}, supply={"Curse": 0})
    sc.run([play("Witch")])
    sc.check(
        {0: dict(hand=["Copper", "Estate"], deck=[], in_play=["Witch"])},
        turn=(0, 1, 0),
        next="play_treasure",
    )


def test_witch_moat_protects_only_its_owner():
    sc = Scenario(players=3, hands={0: ["Witch"], 1: ["Moat"]}, decks={0: ["Copper"]})
    sc.run([play("Witch"), S(1, "react", "Moat", legal=["Moat", "PASS"])])
    sc.check(
        {0: dict(hand=["Copper"], deck=[], in_play=["Witch"]), 2: dict(discard=["Curse"])},
        gained={"Curse": -1},
        turn=(0, 1, 0),
        next="play_treasure",
    )


def test_council_room_makes_the_others_draw():
    """3 players: P1 draws its top card; P2 has an empty deck and shuffles its discard."""
    sc = Scenario(
        players=3,
        hands={0: ["Council Room"], 1: ["Estate"]},
        decks={0: ["Copper", "Copper", "Estate", "Estate", "Silver"], 1: ["Gold", "Copper"]},
        discards={2: ["Silver", "Silver"]},
    )
    sc.run([play("Council Room")])
    sc.check(
        {
            0: dict(
                hand=["Copper", "Copper", "Estate", "Estate"],
                deck=["Silver"],
                in_play=["Council Room"],
            ),
            1: dict(hand=["Estate", "Gold"], deck=["Copper"]),
            2: dict(hand=["Silver"], deck=["Silver"], discard=[]),
        },
        turn=(0, 2, 0),
        next="play_treasure",
    )
    assert sc.shuffles() == ["P2 shuffles 2 cards"]


def test_spy_decides_for_each_player_including_yourself():
    """3 players; P2 reveals Moat (Moat protects only others): P0 decides for P0 (puts
    Estate back) and for P1 (discards Silver); P2 is skipped."""
    sc = Scenario(
        players=3,
        hands={0: ["Spy"], 2: ["Moat"]},
        decks={0: ["Copper", "Estate", "Gold"], 1: ["Silver", "Duchy"], 2: ["Gold"]},
    )
    sc.run(
        [
            play("Spy"),
            S(2, "react", "Moat", legal=["Moat", "PASS"], source="Spy"),
            S(0, "choose", "option 1", card="Estate", target=0, legal=["option 0", "option 1"]),
            S(0, "choose", "option 0", card="Silver", target=1, legal=["option 0", "option 1"]),
        ]
    )
    sc.check(
        {
            0: dict(hand=["Copper"], deck=["Estate", "Gold"], in_play=["Spy"]),
            1: dict(deck=["Duchy"], discard=["Silver"]),
        },
        turn=(1, 1, 0),
        next="play_treasure",
    )


def test_spy_with_your_own_moat_does_not_protect_you():
    sc = Scenario(
        hands={0: ["Spy", "Moat"]}, decks={0: ["Copper", "Estate"], 1: ["Gold"]}, actions=1
    )
    sc.run(
        [
            play("Spy"),
            S(0, "choose", "option 0", card="Estate", target=0),
            S(0, "choose", "option 1", card="Gold", target=1),
            S(0, "play_action", "PASS"),
        ]
    )
    sc.check(
        {0: dict(hand=["Copper", "Moat"], deck=[], discard=["Estate"], in_play=["Spy"])},
        turn=(1, 1, 0),
        next="play_treasure",
    )


@pytest.mark.parametrize("take", [True, False])
def test_thief_trashes_a_gold_and_you_may_gain_it(take):
    """P1 reveals Gold and Silver; you pick Gold. P2 reveals Estate and Copper: Copper is the
    only Treasure, so it is trashed (you pick it, forced); you leave it."""
    sc = Scenario(
        players=3,
        hands={0: ["Thief"]},
        decks={1: ["Gold", "Silver", "Estate"], 2: ["Estate", "Copper"]},
    )
    sc.run(
        [
            play("Thief"),
            S(0, "trash", "Gold", legal=["Silver", "Gold"], target=1),
            S(0, "choose", "option 0" if take else "PASS", card="Gold", legal=YES_NO),
            S(0, "trash", "Copper", legal=["Copper"], target=2),
            S(0, "choose", "PASS", card="Copper", legal=YES_NO),
        ]
    )
    trash = {"Copper": 1} if take else {"Copper": 1, "Gold": 1}
    sc.check(
        {
            0: dict(hand=[], discard=["Gold"] if take else [], in_play=["Thief"]),
            1: dict(deck=["Estate"], discard=["Silver"]),
            2: dict(deck=[], discard=["Estate"]),
        },
        trash=trash,
        turn=(0, 1, 0),
        next="buy",
    )


def test_thief_no_treasure_revealed():
    sc = Scenario(hands={0: ["Thief"]}, decks={1: ["Estate", "Duchy", "Gold"]})
    sc.run([play("Thief")])
    sc.check(
        {0: dict(hand=[], in_play=["Thief"]), 1: dict(deck=["Gold"], discard=["Estate", "Duchy"])},
        turn=(0, 1, 0),
        next="buy",
    )


# ---------------------------------------------------------------------------------------------
# Artisan, Merchant, Vassal, Poacher, Chapel, Moneylender, Remodel, Chancellor
# ---------------------------------------------------------------------------------------------


def test_artisan_puts_back_the_card_it_gained():
    sc = Scenario(hands={0: ["Artisan", "Copper"]}, decks={0: ["Estate"]})
    sc.run(
        [
            play("Artisan"),
            S(0, "gain", "Duchy", legal=upto(5)),
            S(0, "topdeck", "Duchy", legal=["Copper", "Duchy"]),
        ]
    )
    sc.check(
        {0: dict(hand=["Copper"], deck=["Duchy", "Estate"], in_play=["Artisan"])},
        gained={"Duchy": -1},
        turn=(0, 1, 0),
        next="play_treasure",
    )


def test_two_merchants_two_silvers():
    """Each Merchant adds $1 to the first Silver only: Copper 1, Silver 2+2, Silver 2."""
    sc = Scenario(
        hands={0: ["Merchant", "Merchant", "Silver", "Silver"]}, decks={0: ["Copper", "Estate"]}
    )
    sc.run(
        [
            play("Merchant"),
            play("Merchant"),
            S(0, "play_treasure", "Copper", coins=1),
            S(0, "play_treasure", "Silver", coins=5),
            S(0, "play_treasure", "Silver", coins=7),
        ]
    )
    sc.check(
        {
            0: dict(
                hand=["Estate"],
                deck=[],
                in_play=["Merchant", "Merchant", "Silver", "Silver", "Copper"],
            )
        },
        turn=(1, 1, 7),
        next="buy",
    )


def test_merchant_bonus_with_autoplayed_treasures():
    g = Game(kingdom_for({"Merchant"}, FILLER), seed=0, autoplay_treasures=True, auto_resolve=False)
    g.set_scenario(hands={0: ["Merchant", "Silver", "Silver", "Copper"]}, decks={0: ["Estate"]})
    g.step("Merchant")
    assert g.decision["kind"] == "buy"
    assert g.turn["coins"] == 6


def test_vassal_declines_an_action():
    """The discarded Smithy stays in the discard pile; Vassal used the only Action."""
    sc = Scenario(hands={0: ["Vassal"]}, decks={0: ["Smithy", "Copper"]})
    sc.run([play("Vassal"), S(0, "choose", "PASS", card="Smithy", legal=YES_NO)])
    sc.check(
        {0: dict(hand=[], deck=["Copper"], discard=["Smithy"], in_play=["Vassal"])},
        turn=(0, 1, 2),
        next="buy",
    )


def test_vassal_plays_an_action_without_spending_an_action():
    """Village is played from the discard pile: +1 Card, +2 Actions on top of Vassal's 0."""
    sc = Scenario(hands={0: ["Vassal"]}, decks={0: ["Village", "Copper", "Estate"]})
    sc.run([play("Vassal"), S(0, "choose", "option 0", card="Village", legal=YES_NO)])
    sc.check(
        {0: dict(hand=["Copper"], deck=["Estate"], discard=[], in_play=["Vassal", "Village"])},
        turn=(2, 1, 2),
        next="play_treasure",
    )


def test_vassal_on_empty_deck_and_discard():
    sc = Scenario(hands={0: ["Vassal"]})
    sc.run([play("Vassal")])
    sc.check({0: dict(hand=[], in_play=["Vassal"])}, turn=(0, 1, 2), next="buy")


def test_poacher_more_empty_piles_than_cards_in_hand():
    """3 empty piles, 2 cards in hand after the draw: both discarded, then it stops."""
    sc = Scenario(
        hands={0: ["Poacher", "Estate"]},
        decks={0: ["Copper"]},
        supply={"Curse": 0, "Estate": 0, "Silver": 0},
    )
    sc.run(
        [
            play("Poacher"),
            S(0, "discard", "Estate", count=2, legal=["Copper", "Estate"]),
            S(0, "discard", "Copper", count=1, legal=["Copper"]),
        ]
    )
    sc.check(
        {0: dict(hand=[], deck=[], discard=["Estate", "Copper"], in_play=["Poacher"])},
        turn=(1, 1, 1),
        next="buy",
    )


def test_chapel_trashes_four_and_stops():
    sc = Scenario(hands={0: ["Chapel", "Copper", "Copper", "Copper", "Copper", "Estate"]})
    sc.run(
        [
            play("Chapel"),
            S(0, "trash", "Copper", count=4, legal=["Copper", "Estate", "PASS"]),
            S(0, "trash", "Copper", count=3),
            S(0, "trash", "Copper", count=2),
            S(0, "trash", "Copper", count=1),
        ]
    )
    sc.check(
        {0: dict(hand=["Estate"], in_play=["Chapel"])},
        trash={"Copper": 4},
        turn=(0, 1, 0),
        next="buy",
    )


def test_chapel_stops_early():
    sc = Scenario(hands={0: ["Chapel", "Chapel", "Estate", "Copper"]}, actions=2)
    sc.run(
        [
            play("Chapel"),
            S(0, "trash", "Estate", legal=["Copper", "Estate", "Chapel", "PASS"]),
            S(0, "trash", "PASS", legal=["Copper", "Chapel", "PASS"]),
        ]
    )
    sc.check(
        {0: dict(hand=["Chapel", "Copper"], in_play=["Chapel"])},
        trash={"Estate": 1},
        turn=(1, 1, 0),
        next="play_action",
    )


def test_moneylender_without_copper():
    sc = Scenario(hands={0: ["Moneylender", "Silver", "Estate"]})
    sc.run([play("Moneylender")])
    sc.check(
        {0: dict(hand=["Silver", "Estate"], in_play=["Moneylender"])},
        turn=(0, 1, 0),
        next="play_treasure",
    )


def test_moneylender_declined():
    sc = Scenario(hands={0: ["Moneylender", "Copper"]})
    sc.run([play("Moneylender"), S(0, "trash", "PASS", legal=["Copper", "PASS"])])
    sc.check(
        {0: dict(hand=["Copper"], in_play=["Moneylender"])}, turn=(0, 1, 0), next="play_treasure"
    )


def test_remodel_gold_into_province_costing_exactly_2_more():
    sc = Scenario(hands={0: ["Remodel", "Gold", "Estate"]})
    sc.run(
        [
            play("Remodel"),
            S(0, "trash", "Gold", legal=["Gold", "Estate"]),
            S(0, "gain", "Province", legal=upto(8)),
        ]
    )
    sc.check(
        {0: dict(hand=["Estate"], discard=["Province"], in_play=["Remodel"])},
        trash={"Gold": 1},
        gained={"Province": -1},
        turn=(0, 1, 0),
        next="buy",
    )


def test_remodel_offers_nothing_above_2_more():
    sc = Scenario(hands={0: ["Remodel", "Silver"]})
    sc.run([play("Remodel"), S(0, "trash", "Silver")])
    legal = set(sc.g.legal_actions())
    assert "Duchy" in legal and "Market" in legal  # $5 = $3 + $2
    assert "Gold" not in legal and "PASS" not in legal
    assert legal == set(legal_set(sc.g, upto(5)))


def test_remodel_with_an_empty_hand():
    sc = Scenario(hands={0: ["Remodel"]}, decks={0: ["Gold"]})
    sc.run([play("Remodel")])
    sc.check({0: dict(hand=[], in_play=["Remodel"])}, turn=(0, 1, 0), next="buy")


def test_chancellor_puts_the_deck_into_the_discard_pile():
    sc = Scenario(
        hands={0: ["Chancellor"]}, decks={0: ["Copper", "Estate", "Silver"]}, discards={0: ["Gold"]}
    )
    sc.run([play("Chancellor"), S(0, "choose", "option 0", legal=YES_NO)])
    sc.check(
        {
            0: dict(
                hand=[],
                deck=[],
                discard=["Copper", "Estate", "Silver", "Gold"],
                in_play=["Chancellor"],
            )
        },
        turn=(0, 1, 2),
        next="buy",
    )
    assert sc.shuffles() == []


def test_chancellor_with_an_empty_deck_asks_nothing():
    sc = Scenario(hands={0: ["Chancellor"]}, discards={0: ["Gold"]})
    sc.run([play("Chancellor")])
    sc.check({0: dict(hand=[], in_play=["Chancellor"])}, turn=(0, 1, 2), next="buy")


# ---------------------------------------------------------------------------------------------
# Throne Room
# ---------------------------------------------------------------------------------------------


def test_throne_room_on_throne_room():
    """TR plays TR twice: the first time it plays Village twice, the second Smithy twice."""
    sc = Scenario(
        hands={0: ["Throne Room", "Throne Room", "Village", "Smithy"]},
        decks={
            0: [
                "Copper",
                "Estate",
                "Silver",
                "Gold",
                "Duchy",
                "Province",
                "Curse",
                "Gardens",
                "Copper",
            ]
        },
    )
    sc.run(
        [
            play("Throne Room"),
            S(0, "play_twice", "Throne Room", legal=["Throne Room", "Village", "Smithy", "PASS"]),
            S(0, "play_twice", "Village", legal=["Village", "Smithy", "PASS"]),
        ]
    )
    z = sc.g.zones(0)
    assert z["hand"] == {"Smithy": 1, "Copper": 1, "Estate": 1}
    assert z["in_play"] == {"Throne Room": 2, "Village": 1}
    assert sc.g.turn["actions"] == 4
    sc.run([S(0, "play_twice", "Smithy", legal=["Smithy", "PASS"])])
    sc.check(
        {
            0: dict(
                hand=[
                    "Copper",
                    "Estate",
                    "Silver",
                    "Gold",
                    "Duchy",
                    "Province",
                    "Curse",
                    "Gardens",
                ],
                deck=["Copper"],
                in_play=["Throne Room", "Throne Room", "Village", "Smithy"],
            )
        },
        turn=(4, 1, 0),
        next="play_treasure",
    )


def test_throne_room_on_throne_room_with_one_action_left():
    """The second play of the inner Throne Room finds no Action: it may only pass."""
    sc = Scenario(
        auto_resolve=True,
        hands={0: ["Throne Room", "Throne Room", "Village"]},
        decks={0: ["Copper", "Estate", "Silver"]},
    )
    sc.run(
        [
            play("Throne Room"),
            S(0, "play_twice", "Throne Room"),
            S(0, "play_twice", "Village", legal=["Village", "PASS"]),
        ]
    )
    sc.check(
        {
            0: dict(
                hand=["Copper", "Estate"],
                deck=["Silver"],
                in_play=["Throne Room", "Throne Room", "Village"],
            )
        },
        turn=(4, 1, 0),
        next="play_treasure",
    )


def test_throne_room_on_feast_trashes_once_gains_twice():
    sc = Scenario(hands={0: ["Throne Room", "Feast"]})
    sc.run(
        [
            play("Throne Room"),
            S(0, "play_twice", "Feast", legal=["Feast", "PASS"]),
            S(0, "gain", "Duchy", legal=upto(5)),
            S(0, "gain", "Market", legal=upto(5)),
        ]
    )
    sc.check(
        {0: dict(hand=[], discard=["Duchy", "Market"], in_play=["Throne Room"])},
        trash={"Feast": 1},
        gained={"Duchy": -1, "Market": -1},
        turn=(0, 1, 0),
        next="buy",
    )


def test_throne_room_on_militia_two_attacks_two_reaction_windows():
    """P1 reveals Moat to the first Militia (unaffected), declines for the second (discards
    3 of 6)."""
    sc = Scenario(
        hands={
            0: ["Throne Room", "Militia"],
            1: ["Moat", "Copper", "Copper", "Estate", "Estate", "Silver"],
        }
    )
    # the reaction window opens before each Militia does anything, its +$2 included
    sc.run(
        [
            play("Throne Room"),
            S(0, "play_twice", "Militia", coins=0),
            S(1, "react", "Moat", legal=["Moat", "PASS"], source="Militia", coins=2),
            S(1, "react", "PASS", legal=["Moat", "PASS"], source="Militia", coins=4),
            S(1, "discard", "Estate", count=3),
            S(1, "discard", "Estate", count=2),
            S(1, "discard", "Copper", count=1),
        ]
    )
    sc.check(
        {
            0: dict(hand=[], in_play=["Throne Room", "Militia"]),
            1: dict(hand=["Moat", "Copper", "Silver"], discard=["Estate", "Estate", "Copper"]),
        },
        turn=(0, 1, 4),
        next="buy",
    )
    assert sc.g.log().count("P1 reveals in reaction Moat") == 1


def test_throne_room_on_militia_both_hit():
    sc = Scenario(
        hands={0: ["Throne Room", "Militia"], 1: ["Copper", "Copper", "Estate", "Estate", "Silver"]}
    )
    sc.run(
        [
            play("Throne Room"),
            S(0, "play_twice", "Militia"),
            S(1, "discard", "Estate", count=2),
            S(1, "discard", "Estate", count=1),
        ]
    )
    sc.check(
        {
            0: dict(hand=[], in_play=["Throne Room", "Militia"]),
            1: dict(hand=["Copper", "Copper", "Silver"], discard=["Estate", "Estate"]),
        },
        turn=(0, 1, 4),
        next="buy",
    )


def test_throne_room_with_vassal():
    """Each Vassal play discards an Action and plays it: Village, then Smithy."""
    sc = Scenario(
        hands={0: ["Throne Room", "Vassal"]},
        decks={0: ["Village", "Copper", "Smithy", "Estate", "Silver", "Gold"]},
    )
    sc.run(
        [
            play("Throne Room"),
            S(0, "play_twice", "Vassal", coins=2),
            S(0, "choose", "option 0", card="Village", legal=YES_NO, coins=4),
            S(0, "choose", "option 0", card="Smithy", legal=YES_NO, coins=4),
        ]
    )
    sc.check(
        {
            0: dict(
                hand=["Copper", "Estate", "Silver", "Gold"],
                deck=[],
                discard=[],
                in_play=["Throne Room", "Vassal", "Village", "Smithy"],
            )
        },
        turn=(2, 1, 4),
        next="play_treasure",
    )


def test_throne_room_on_village_gives_2_cards_and_4_actions():
    sc = Scenario(hands={0: ["Throne Room", "Village"]}, decks={0: ["Copper", "Estate", "Silver"]})
    sc.run([play("Throne Room"), S(0, "play_twice", "Village")])
    sc.check(
        {0: dict(hand=["Copper", "Estate"], deck=["Silver"], in_play=["Throne Room", "Village"])},
        turn=(4, 1, 0),
        next="play_treasure",
    )


def test_throne_room_declined_keeps_the_action_in_hand():
    sc = Scenario(hands={0: ["Throne Room", "Smithy"]}, decks={0: ["Copper"]})
    sc.run([play("Throne Room"), S(0, "play_twice", "PASS", legal=["Smithy", "PASS"])])
    sc.check({0: dict(hand=["Smithy"], in_play=["Throne Room"])}, turn=(0, 1, 0), next="buy")


def test_throne_room_on_merchant_doubles_the_first_silver_bonus():
    sc = Scenario(
        hands={0: ["Throne Room", "Merchant", "Silver"]}, decks={0: ["Silver", "Copper", "Estate"]}
    )
    sc.run(
        [
            play("Throne Room"),
            S(0, "play_twice", "Merchant"),
            S(0, "play_treasure", "Silver", coins=4),
            S(0, "play_treasure", "Silver", coins=6),
            S(0, "play_treasure", "Copper", coins=7),
        ]
    )
    sc.check(
        {
            0: dict(
                hand=[],
                deck=["Estate"],
                in_play=["Throne Room", "Merchant", "Silver", "Silver", "Copper"],
            )
        },
        turn=(2, 1, 7),
        next="buy",
    )


def test_throne_room_on_throne_room_on_two_feasts():
    """Each Feast is trashed once and gains twice: 2 Feasts trashed, 4 cards gained."""
    sc = Scenario(hands={0: ["Throne Room", "Throne Room", "Feast", "Feast"]})
    sc.run(
        [
            play("Throne Room"),
            S(0, "play_twice", "Throne Room"),
            S(0, "play_twice", "Feast"),
            S(0, "gain", "Duchy"),
            S(0, "gain", "Silver"),
            S(0, "play_twice", "Feast", legal=["Feast", "PASS"]),
            S(0, "gain", "Market"),
            S(0, "gain", "Estate"),
        ]
    )
    sc.check(
        {
            0: dict(
                hand=[],
                discard=["Duchy", "Silver", "Market", "Estate"],
                in_play=["Throne Room", "Throne Room"],
            )
        },
        trash={"Feast": 2},
        gained={"Duchy": -1, "Silver": -1, "Market": -1, "Estate": -1},
        turn=(0, 1, 0),
        next="buy",
    )


def test_throne_room_on_feast_leaves_another_feast_in_play_alone():
    """A Feast already in play is not the card being played: only one Feast is trashed."""
    sc = Scenario(hands={0: ["Throne Room", "Feast"]}, in_play={0: ["Feast"]})
    sc.run(
        [
            play("Throne Room"),
            S(0, "play_twice", "Feast"),
            S(0, "gain", "Duchy"),
            S(0, "gain", "Duchy"),
        ]
    )
    sc.check(
        {0: dict(hand=[], discard=["Duchy", "Duchy"], in_play=["Throne Room", "Feast"])},
        trash={"Feast": 1},
        gained={"Duchy": -2},
        turn=(0, 1, 0),
        next="buy",
    )


def test_vassal_plays_a_feast_from_the_discard_pile():
    sc = Scenario(hands={0: ["Vassal"]}, decks={0: ["Feast", "Copper"]})
    sc.run(
        [
            play("Vassal"),
            S(0, "choose", "option 0", card="Feast"),
            S(0, "gain", "Duchy", legal=upto(5)),
        ]
    )
    sc.check(
        {0: dict(hand=[], deck=["Copper"], discard=["Duchy"], in_play=["Vassal"])},
        trash={"Feast": 1},
        gained={"Duchy": -1},
        turn=(0, 1, 2),
        next="buy",
    )


def test_vassal_plays_a_throne_room_from_the_discard_pile():
    sc = Scenario(
        hands={0: ["Vassal", "Smithy"]},
        decks={
            0: ["Throne Room", "Copper", "Estate", "Silver", "Gold", "Duchy", "Province", "Curse"]
        },
    )
    sc.run(
        [
            play("Vassal"),
            S(0, "choose", "option 0", card="Throne Room"),
            S(0, "play_twice", "Smithy", legal=["Smithy", "PASS"]),
        ]
    )
    sc.check(
        {
            0: dict(
                hand=["Copper", "Estate", "Silver", "Gold", "Duchy", "Province"],
                deck=["Curse"],
                discard=[],
                in_play=["Vassal", "Throne Room", "Smithy"],
            )
        },
        turn=(0, 1, 2),
        next="play_treasure",
    )


def test_bureaucrat_with_no_silver_left_still_attacks():
    sc = Scenario(
        hands={0: ["Bureaucrat"], 1: ["Gardens", "Copper"]},
        decks={0: ["Gold"]},
        supply={"Silver": 0},
    )
    sc.run([play("Bureaucrat"), S(1, "topdeck", "Gardens", legal=["Gardens"])])
    sc.check(
        {0: dict(hand=[], in_play=["Bureaucrat"]), 1: dict(hand=["Copper"], deck=["Gardens"])},
        turn=(0, 1, 0),
        next="buy",
    )


def test_bandit_moat_and_no_gold_left():
    """3 players, no Gold left: no gain; P1 reveals Moat (reveals nothing); P2 is hit."""
    sc = Scenario(
        players=3,
        hands={0: ["Bandit"], 1: ["Moat"]},
        decks={1: ["Gold", "Silver"], 2: ["Silver", "Estate", "Gold"]},
        supply={"Gold": 0},
    )
    sc.run(
        [
            play("Bandit"),
            S(1, "react", "Moat", legal=["Moat", "PASS"], source="Bandit"),
            S(2, "trash", "Silver", legal=["Silver"]),
        ]
    )
    sc.check(
        {0: dict(hand=[], in_play=["Bandit"]), 2: dict(deck=["Gold"], discard=["Estate"])},
        trash={"Silver": 1},
        turn=(0, 1, 0),
        next="buy",
    )
