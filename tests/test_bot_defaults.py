"""The scripted bots' default play for every decision that is not a buy or a gain.

Each test puts a game in an exact position, plays the steps that lead to the decision, and
asserts the action a priority bot (Big Money, whose rules only cover buys) takes there. The
generic defaults are documented in ``dominion_env.engine.bots``, a card's own next to its effect
in ``dominion_env.engine.base_cards`` / ``intrigue_cards``.
"""

import pytest

from dominion_env import Game
from dominion_env.agents import bot_action
from dominion_env.cards import BASIC, KINGDOM

FILLER = [
    "Village",
    "Woodcutter",
    "Great Hall",
    "Workshop",
    "Market",
    "Festival",
    "Laboratory",
    "Smithy",
    "Harem",
    "Council Room",
]


def position(steps=(), players=2, **setup):
    """A game in the given position after ``steps`` (action names, whoever decides)."""
    names = set()
    for key in ("hands", "decks", "discards", "in_play"):
        for cards in (setup.get(key) or {}).values():
            names.update(cards)
    names.update(steps)
    need = sorted(n for n in names if n in KINGDOM and n not in BASIC)
    kingdom = need + [n for n in FILLER if n not in need][: 10 - len(need)]
    g = Game(kingdom, players=players, seed=0)
    g.set_scenario(**setup)
    for a in steps:
        g.step(a)
    return g


def bot(g, name="Big Money"):
    return bot_action(name, g)


# -- Action phase ---------------------------------------------------------------------------


def test_plays_villages_before_cantrips_before_terminals():
    g = position(hands={0: ["Smithy", "Laboratory", "Village", "Copper", "Copper"]})
    assert bot(g) == "Village"
    g.step("Village")
    assert bot(g) == "Laboratory"


def test_throne_room_targets_the_village_first():
    g = position(hands={0: ["Throne Room", "Smithy", "Village", "Copper"]}, steps=["Throne Room"])
    assert g.decision["kind"] == "play_twice"
    assert bot(g) == "Village"


# -- trashing ---------------------------------------------------------------------------------


def test_chapel_trashes_curse_then_estate_then_copper():
    g = position(
        hands={0: ["Chapel", "Copper", "Estate", "Curse", "Silver"]},
        decks={0: ["Copper"] * 6},
        steps=["Chapel"],
    )
    assert bot(g) == "Curse"
    g.step("Curse")
    assert bot(g) == "Estate"
    g.step("Estate")
    assert bot(g) == "Copper"  # Treasures total $9 > $4
    g.step("Copper")
    assert bot(g) == "PASS"  # only Silver is left in hand


def test_chapel_keeps_coppers_once_money_is_down_to_four():
    g = position(hands={0: ["Chapel", "Copper", "Copper", "Copper", "Copper"]}, steps=["Chapel"])
    assert bot(g) == "PASS"  # the bot owns exactly $4 of Treasures


def test_chapel_keeps_estates_near_the_end():
    g = position(
        hands={0: ["Chapel", "Estate", "Estate"]}, supply={"Province": 2}, steps=["Chapel"]
    )
    assert bot(g) == "PASS"


def test_moneylender_trashes_a_copper():
    g = position(
        hands={0: ["Moneylender", "Copper", "Copper", "Estate", "Estate"]},
        decks={0: ["Copper"] * 5},
        steps=["Moneylender"],
    )
    assert bot(g) == "Copper"


def test_mine_improves_silver_before_copper_and_never_gold():
    g = position(hands={0: ["Mine", "Copper", "Silver", "Gold"]}, steps=["Mine"])
    assert bot(g) == "Silver"
    g2 = position(hands={0: ["Mine", "Gold"]}, steps=["Mine"])
    assert bot(g2) == "PASS"


def test_thief_trashes_the_victims_best_treasure_and_takes_it():
    g = position(hands={0: ["Thief"]}, decks={1: ["Silver", "Gold"]}, steps=["Thief"])
    assert g.decision["kind"] == "trash" and g.current_player == 0
    assert bot(g) == "Gold"
    g.step("Gold")
    assert g.decision["kind"] == "choose"
    assert bot(g) == "option 0"


def test_thief_leaves_a_copper():
    g = position(hands={0: ["Thief"]}, decks={1: ["Copper", "Estate"]}, steps=["Thief"])
    assert g.decision["kind"] == "choose"
    assert bot(g) == "PASS"


# -- options ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "top, answer",
    [("Curse", "option 0"), ("Estate", "option 0"), ("Duchy", "option 1"), ("Gold", "option 2")],
)
def test_sentry_trashes_junk_discards_green_keeps_the_rest(top, answer):
    g = position(hands={0: ["Sentry"]}, decks={0: ["Silver", top, "Gold"]}, steps=["Sentry"])
    assert g.decision["kind"] == "choose" and g.decision["card"] == top
    assert bot(g) == answer


def test_library_sets_aside_an_action_only_without_actions_left():
    g = position(
        hands={0: ["Library", "Copper"]}, decks={0: ["Smithy", "Copper"] * 4}, steps=["Library"]
    )
    assert g.decision["card"] == "Smithy"
    assert bot(g) == "option 0"
    g2 = position(
        hands={0: ["Library", "Copper"]},
        decks={0: ["Smithy", "Copper"] * 4},
        actions=2,
        steps=["Library"],
    )
    assert bot(g2) == "PASS"


def test_spy_discards_a_victims_gold_and_its_own_estate():
    g = position(hands={0: ["Spy"]}, decks={0: ["Copper", "Estate"], 1: ["Gold"]}, steps=["Spy"])
    assert g.decision["target"] == 0 and g.decision["card"] == "Estate"
    assert bot(g) == "option 0"
    g.step("option 0")
    assert g.decision["target"] == 1 and g.decision["card"] == "Gold"
    assert bot(g) == "option 0"


def test_spy_keeps_its_own_gold_and_a_victims_curse():
    g = position(hands={0: ["Spy"]}, decks={0: ["Copper", "Gold"], 1: ["Curse"]}, steps=["Spy"])
    assert bot(g) == "option 1"
    g.step("option 1")
    assert bot(g) == "option 1"


def test_steward_trashes_two_junk_cards():
    g = position(hands={0: ["Steward", "Estate", "Curse", "Silver"]}, steps=["Steward"])
    assert bot(g) == "option 2"


def test_steward_takes_two_dollars_when_it_reaches_gold():
    g = position(hands={0: ["Steward", "Silver", "Silver", "Estate"]}, steps=["Steward"])
    assert bot(g) == "option 1"  # $4 + $2 = $6


def test_steward_draws_otherwise():
    g = position(hands={0: ["Steward", "Silver", "Estate", "Copper"]}, steps=["Steward"])
    assert bot(g) == "option 0"  # $3 + $2 = $5 reaches neither $6 nor $8


def test_nobles_takes_actions_with_an_action_stranded_in_hand():
    g = position(hands={0: ["Nobles", "Smithy", "Copper"]}, steps=["Nobles"])
    assert bot(g) == "option 1"
    g2 = position(hands={0: ["Nobles", "Copper", "Copper"]}, steps=["Nobles"])
    assert bot(g2) == "option 0"


def test_minion_takes_money_when_it_reaches_gold_else_attacks():
    g = position(hands={0: ["Minion", "Gold", "Copper"]}, steps=["Minion"])
    assert bot(g) == "option 0"  # $4 + $2 = $6
    g2 = position(hands={0: ["Minion", "Copper", "Estate"]}, steps=["Minion"])
    assert bot(g2) == "option 1"


def test_torturer_victim_discards_unless_curses_are_gone():
    g = position(hands={0: ["Torturer"], 1: ["Copper", "Estate", "Silver"]}, steps=["Torturer"])
    assert g.current_player == 1 and g.decision["kind"] == "choose"
    assert bot(g) == "option 0"
    g.step("option 0")
    assert bot(g) == "Estate"  # then the lowest keep value
    g2 = position(
        hands={0: ["Torturer"], 1: ["Copper", "Estate", "Silver"]},
        supply={"Curse": 0},
        steps=["Torturer"],
    )
    assert bot(g2) == "option 1"


def test_mining_village_is_trashed_only_to_reach_a_price():
    g = position(
        hands={0: ["Mining Village", "Gold", "Silver", "Silver"]}, steps=["Mining Village"]
    )
    assert bot(g) == "option 0"  # $7 + $2 reaches $8 (nothing is drawn: empty deck)
    g2 = position(hands={0: ["Mining Village", "Gold"]}, steps=["Mining Village"])
    assert bot(g2) == "PASS"  # $3 + $2 = $5


def test_pawn_takes_card_and_dollar():
    g = position(hands={0: ["Pawn", "Copper"]}, steps=["Pawn"])
    assert bot(g) == "option 2"


# -- topdecking and discarding ----------------------------------------------------------------


def test_militia_victim_discards_its_worst_cards():
    g = position(
        hands={0: ["Militia"], 1: ["Gold", "Estate", "Copper", "Silver", "Curse"]},
        steps=["Militia"],
    )
    assert g.current_player == 1
    assert bot(g) == "Curse"
    g.step("Curse")
    assert bot(g) == "Estate"


def test_courtyard_topdecks_a_stranded_action():
    g = position(
        hands={0: ["Courtyard", "Smithy", "Copper"]}, decks={0: ["Copper"] * 3}, steps=["Courtyard"]
    )
    assert g.decision["kind"] == "topdeck"
    assert bot(g) == "Smithy"


def test_harbinger_topdecks_the_best_card_but_not_junk():
    g = position(
        hands={0: ["Harbinger"]},
        decks={0: ["Copper"]},
        discards={0: ["Estate", "Gold", "Silver"]},
        steps=["Harbinger"],
    )
    assert bot(g) == "Gold"
    g2 = position(
        hands={0: ["Harbinger"]},
        decks={0: ["Copper"]},
        discards={0: ["Estate", "Curse"]},
        steps=["Harbinger"],
    )
    assert bot(g2) == "PASS"


def test_cellar_discards_only_junk():
    g = position(
        hands={0: ["Cellar", "Estate", "Copper", "Silver"]},
        decks={0: ["Gold"] * 3},
        steps=["Cellar"],
    )
    assert bot(g) == "Estate"
    g.step("Estate")
    assert bot(g) == "PASS"


def test_masquerade_passes_the_worst_card():
    g = position(
        hands={0: ["Masquerade", "Gold", "Estate"], 1: ["Silver", "Curse"]},
        decks={0: ["Copper", "Copper"]},
        steps=["Masquerade"],
    )
    assert g.decision["kind"] == "pass_card" and g.current_player == 0
    assert bot(g) == "Estate"
    g.step("Estate")
    assert g.current_player == 1
    assert bot(g) == "Curse"


def test_moat_is_revealed():
    g = position(
        hands={0: ["Militia"], 1: ["Moat", "Copper", "Copper", "Copper", "Copper"]},
        steps=["Militia"],
    )
    assert g.decision["kind"] == "react"
    assert bot(g) == "Moat"


def test_masquerade_never_passes_a_province_while_a_copper_can_go():
    g = position(
        hands={0: ["Masquerade", "Province", "Copper"], 1: ["Province", "Estate"]},
        decks={0: ["Duchy", "Silver"]},
        steps=["Masquerade"],
    )
    assert bot(g) == "Copper"
    g.step("Copper")
    assert bot(g) == "Estate"


@pytest.mark.parametrize("card", ["Trading Post", "Upgrade", "Remodel"])
def test_mandatory_trashes_keep_provinces(card):
    g = position(hands={0: [card, "Province", "Copper", "Silver", "Duchy"]}, steps=[card])
    assert g.decision["kind"] == "trash"
    assert bot(g) == "Copper"


def test_militia_victim_discards_a_dead_terminal_before_treasure():
    g = position(
        hands={0: ["Militia"], 1: ["Witch", "Smithy", "Silver", "Copper", "Gold"]},
        steps=["Militia"],
    )
    assert bot(g) == "Smithy"  # two terminals and no village: the cheaper one is dead
    g.step("Smithy")
    assert bot(g) == "Copper"  # one terminal left: it can be played


def test_militia_victim_with_a_village_keeps_its_terminals():
    g = position(
        hands={0: ["Militia"], 1: ["Village", "Smithy", "Militia", "Copper", "Silver"]},
        steps=["Militia"],
    )
    assert bot(g) == "Copper"
