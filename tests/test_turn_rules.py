"""Scenario tests for the turn: Action phase, Buy phase, treasures, Clean-up, drawing/shuffling.

Every test puts a game in an exact position with ``Game.set_scenario`` and checks every zone,
the Supply, the trash and the turn's Actions/Buys/$ afterwards. Card names only; the kingdom is
the 10 "vanilla" cards (no effect beyond +Cards/+Actions/+Buys/+$ or VP).
"""

from collections import Counter

import pytest
from scenario import covers

from dominion_env import Game

# the kingdom of every test here: the 10 cards without special effects
VANILLA = [
    "Village",
    "Smithy",
    "Laboratory",
    "Market",
    "Festival",
    "Woodcutter",
    "Great Hall",
    "Harem",
    "Gardens",
    "Duke",
]


def game(players=2, *, autoplay=False, auto_resolve=False, **kw):
    """A game that stops at every decision (treasures played by hand unless ``autoplay``)."""
    return Game(
        VANILLA,
        players=players,
        seed=0,
        autoplay_treasures=autoplay,
        auto_resolve=auto_resolve,
        **kw,
    )


def counts(cards):
    """A list of names (or a name->count dict) as the dict ``Game.zones`` returns."""
    if isinstance(cards, dict):
        return {k: v for k, v in cards.items() if v}
    return dict(Counter(cards))


def assert_zones(g, p, *, hand=(), deck=(), discard=(), in_play=(), aside=()):
    z = g.zones(p)
    assert z["hand"] == counts(hand), f"hand of P{p}"
    assert z["deck"] == list(deck), f"deck of P{p} (top first)"
    assert z["discard"] == counts(discard), f"discard of P{p}"
    assert z["in_play"] == counts(in_play), f"in play of P{p}"
    assert z["aside"] == counts(aside), f"aside of P{p}"


def assert_turn(g, *, player=0, phase, actions, buys, coins):
    t = g.turn
    assert (t["player"], t["phase"], t["actions"], t["buys"], t["coins"]) == (
        player,
        phase,
        actions,
        buys,
        coins,
    ), t


def fresh_supply(g):
    """The Supply right after set_scenario without a supply override (setup sizes)."""
    return dict(g.supply)


def shuffles(g):
    return [line for line in g.log() if "shuffles" in line]


# ---------------------------------------------------------------------------------------------
# Action phase
# ---------------------------------------------------------------------------------------------

# name, hand, deck (top first), plays, expected: hand, deck, in_play, actions, buys, coins,
# next decision kind
ACTION_ROWS = [
    (
        "Village",
        ["Village", "Copper", "Estate"],
        ["Silver", "Gold"],
        ["Village"],
        ["Copper", "Estate", "Silver"],
        ["Gold"],
        ["Village"],
        2,
        1,
        0,
        "play_treasure",
    ),
    (
        "Smithy",
        ["Smithy", "Copper"],
        ["Estate", "Gold", "Silver", "Duchy"],
        ["Smithy"],
        ["Copper", "Estate", "Gold", "Silver"],
        ["Duchy"],
        ["Smithy"],
        0,
        1,
        0,
        "play_treasure",
    ),
    (
        "Laboratory",
        ["Laboratory", "Estate"],
        ["Copper", "Copper", "Gold"],
        ["Laboratory"],
        ["Estate", "Copper", "Copper"],
        ["Gold"],
        ["Laboratory"],
        1,
        1,
        0,
        "play_treasure",
    ),
    (
        "Market",
        ["Market", "Estate"],
        ["Gold", "Silver"],
        ["Market"],
        ["Estate", "Gold"],
        ["Silver"],
        ["Market"],
        1,
        2,
        1,
        "play_treasure",
    ),
    (
        "Festival",
        ["Festival", "Estate"],
        ["Gold"],
        ["Festival"],
        ["Estate"],
        ["Gold"],
        ["Festival"],
        2,
        2,
        2,
        "buy",
    ),
    (
        "Woodcutter",
        ["Woodcutter", "Copper"],
        ["Gold"],
        ["Woodcutter"],
        ["Copper"],
        ["Gold"],
        ["Woodcutter"],
        0,
        2,
        2,
        "play_treasure",
    ),
    (
        "Great Hall",
        ["Great Hall", "Estate"],
        ["Duchy", "Gold"],
        ["Great Hall"],
        ["Estate", "Duchy"],
        ["Gold"],
        ["Great Hall"],
        1,
        1,
        0,
        "buy",
    ),
    # a chain: Village (+1 card +2 actions) -> Festival -> Smithy -> Market -> Laboratory
    (
        "chain",
        ["Village", "Festival", "Smithy", "Market", "Laboratory"],
        ["Estate", "Duchy", "Copper", "Silver", "Gold", "Province", "Curse", "Gardens"],
        ["Village", "Festival", "Smithy", "Market", "Laboratory"],
        ["Estate", "Duchy", "Copper", "Silver", "Gold", "Province", "Curse"],
        ["Gardens"],
        ["Village", "Festival", "Smithy", "Market", "Laboratory"],
        2,
        3,
        3,
        "play_treasure",
    ),
    # two Great Halls and a Woodcutter with the actions they give
    (
        "great hall chain",
        ["Great Hall", "Woodcutter"],
        ["Great Hall", "Estate", "Silver"],
        ["Great Hall", "Great Hall", "Woodcutter"],
        ["Estate"],
        ["Silver"],
        ["Great Hall", "Great Hall", "Woodcutter"],
        0,
        2,
        2,
        "buy",
    ),
    # Villages stack actions
    (
        "village village smithy",
        ["Village", "Village", "Smithy"],
        ["Copper", "Copper", "Estate", "Estate", "Silver"],
        ["Village", "Village", "Smithy"],
        ["Copper", "Copper", "Estate", "Estate", "Silver"],
        [],
        ["Village", "Village", "Smithy"],
        2,
        1,
        0,
        "play_treasure",
    ),
]


@pytest.mark.parametrize(
    "hand,deck,plays,exp_hand,exp_deck,exp_in_play,actions,buys,coins,kind",
    [row[1:] for row in ACTION_ROWS],
    ids=[row[0] for row in ACTION_ROWS],
)
@covers("Village", "Smithy", "Laboratory", "Market", "Festival", "Woodcutter", "Great Hall")
def test_action_accounting(
    hand, deck, plays, exp_hand, exp_deck, exp_in_play, actions, buys, coins, kind
):
    g = game()
    g.set_scenario(hands={0: hand}, decks={0: deck}, discards={0: ["Province"]})
    supply = fresh_supply(g)
    assert g.decision["kind"] == "play_action"
    for card in plays:
        assert g.decision["kind"] == "play_action"
        g.step(card)
    assert_zones(g, 0, hand=exp_hand, deck=exp_deck, discard=["Province"], in_play=exp_in_play)
    phase = "action" if kind == "play_action" else "buy"
    assert_turn(g, phase=phase, actions=actions, buys=buys, coins=coins)
    assert g.decision["kind"] == kind and g.current_player == 0
    assert g.supply == supply
    assert g.trash == {}
    assert_zones(g, 1)


def test_action_phase_offers_exactly_the_action_cards_in_hand():
    g = game()
    g.set_scenario(
        hands={0: ["Market", "Village", "Copper", "Great Hall", "Harem", "Gardens", "Estate"]}
    )
    assert g.decision["kind"] == "play_action" and g.decision["player"] == 0
    # Harem (Treasure-Victory) and Gardens/Estate (Victory) are not Actions
    assert g.legal_actions() == ["Village", "Market", "Great Hall", "PASS"]
    with pytest.raises(ValueError, match="illegal"):
        g.step("Smithy")  # not in hand
    with pytest.raises(ValueError, match="illegal"):
        g.step("Copper")  # a Treasure is not played in the Action phase


def test_pass_ends_action_phase_and_keeps_actions_in_hand():
    g = game()
    g.set_scenario(hands={0: ["Village", "Copper"]}, decks={0: ["Gold"]})
    g.step("PASS")
    assert g.decision["kind"] == "play_treasure"
    assert_turn(g, phase="buy", actions=1, buys=1, coins=0)
    assert_zones(g, 0, hand=["Village", "Copper"], deck=["Gold"])


def test_no_action_left_means_no_action_decision():
    """Smithy uses the only Action: the Village still in hand cannot be played."""
    g = game()
    g.set_scenario(hands={0: ["Smithy", "Village"]}, decks={0: ["Copper", "Estate", "Estate"]})
    g.step("Smithy")
    assert g.decision["kind"] == "play_treasure"
    assert g.legal_actions() == ["Copper", "PASS"]
    assert_turn(g, phase="buy", actions=0, buys=1, coins=0)
    assert_zones(g, 0, hand=["Village", "Copper", "Estate", "Estate"], in_play=["Smithy"])
    with pytest.raises(ValueError, match="illegal"):
        g.step("Village")


@pytest.mark.parametrize("autoplay", [False, True])
def test_zero_actions_skips_action_phase(autoplay):
    g = game(autoplay=autoplay)
    g.set_scenario(hands={0: ["Village", "Festival", "Copper"]}, actions=0)
    if autoplay:
        assert g.decision["kind"] == "buy"
        assert_zones(g, 0, hand=["Village", "Festival"], in_play=["Copper"])
        assert_turn(g, phase="buy", actions=0, buys=1, coins=1)
    else:
        assert g.decision["kind"] == "play_treasure"
        assert g.legal_actions() == ["Copper", "PASS"]
        assert_zones(g, 0, hand=["Village", "Festival", "Copper"])
        assert_turn(g, phase="buy", actions=0, buys=1, coins=0)
    with pytest.raises(ValueError, match="illegal"):
        g.step("Village")


def test_playing_last_action_card_with_actions_left_goes_to_buy():
    g = game()
    g.set_scenario(hands={0: ["Festival"]}, actions=3, buys=2, coins=1)
    g.step("Festival")
    assert_turn(g, phase="buy", actions=4, buys=3, coins=3)
    assert g.decision["kind"] == "buy"


def test_no_action_card_in_hand_skips_action_phase():
    g = game()
    g.set_scenario(hands={0: ["Estate", "Silver"]})
    assert g.decision["kind"] == "play_treasure"
    assert_turn(g, phase="buy", actions=1, buys=1, coins=0)


# ---------------------------------------------------------------------------------------------
# Buy phase
# ---------------------------------------------------------------------------------------------

COSTS = {
    "Copper": 0,
    "Curse": 0,
    "Estate": 2,
    "Silver": 3,
    "Village": 3,
    "Woodcutter": 3,
    "Great Hall": 3,
    "Gardens": 4,
    "Smithy": 4,
    "Duchy": 5,
    "Festival": 5,
    "Laboratory": 5,
    "Market": 5,
    "Duke": 5,
    "Gold": 6,
    "Harem": 6,
    "Province": 8,
}
ORDER = [
    "Copper",
    "Silver",
    "Gold",
    "Estate",
    "Duchy",
    "Province",
    "Curse",
    "Village",
    "Gardens",
    "Smithy",
    "Festival",
    "Laboratory",
    "Market",
    "Woodcutter",
    "Great Hall",
    "Duke",
    "Harem",
]  # card-id order, the order of legal_actions()


def affordable(coins, empty=()):
    return [c for c in ORDER if COSTS[c] <= coins and c not in empty] + ["PASS"]


@pytest.mark.parametrize("coins", [0, 1, 2, 3, 4, 5, 6, 7, 8, 11])
def test_buy_offers_every_affordable_supply_card(coins):
    g = game()
    g.set_scenario(phase="buying", coins=coins)
    assert g.decision["kind"] == "buy"
    assert g.decision["cost_range"] == (0, coins)
    assert g.legal_actions() == affordable(coins)


def test_cannot_buy_unaffordable_card():
    g = game()
    g.set_scenario(phase="buying", coins=5)
    supply = fresh_supply(g)
    for card in ("Gold", "Harem", "Province"):
        with pytest.raises(ValueError, match="illegal"):
            g.step(card)
    assert g.supply == supply
    assert_turn(g, phase="buy", actions=1, buys=1, coins=5)
    assert_zones(g, 0)


@pytest.mark.parametrize("empty", ["Smithy", "Province", "Copper", "Curse", "Duke"])
def test_cannot_buy_from_empty_pile(empty):
    g = game()
    g.set_scenario(phase="buying", coins=10, supply={empty: 0})
    assert g.supply[empty] == 0
    assert g.legal_actions() == affordable(10, empty=(empty,))
    with pytest.raises(ValueError, match="illegal"):
        g.step(empty)
    assert g.supply[empty] == 0
    assert_zones(g, 0)


@covers("Silver", "Duchy")
def test_buying_takes_from_supply_into_discard_and_spends_coins_and_buys():
    g = game()
    g.set_scenario(
        phase="buying",
        coins=8,
        buys=2,
        hands={0: ["Estate"]},
        decks={0: ["Copper"] * 6},
        discards={0: ["Curse"]},
    )
    supply = fresh_supply(g)
    g.step("Silver")
    supply["Silver"] -= 1
    assert g.supply == supply and supply["Silver"] == 39
    assert_zones(g, 0, hand=["Estate"], deck=["Copper"] * 6, discard=["Curse", "Silver"])
    assert_turn(g, phase="buy", actions=1, buys=1, coins=5)
    assert g.decision["kind"] == "buy" and g.legal_actions() == affordable(5)
    g.step("Duchy")  # last Buy: the turn ends, Clean-up runs, P1's turn starts
    supply["Duchy"] -= 1
    assert g.supply == supply and supply["Duchy"] == 7
    assert_zones(
        g, 0, hand=["Copper"] * 5, deck=["Copper"], discard=["Curse", "Silver", "Duchy", "Estate"]
    )
    assert g.turn["player"] == 1 and g.current_player == 1
    assert g.trash == {}


@covers("Province", "Copper", "Curse")
def test_buy_exactly_all_coins():
    g = game()
    g.set_scenario(phase="buying", coins=8, buys=2)
    g.step("Province")
    assert g.supply["Province"] == 7
    assert_turn(g, phase="buy", actions=1, buys=1, coins=0)
    assert g.legal_actions() == ["Copper", "Curse", "PASS"]
    assert_zones(g, 0, discard=["Province"])


def test_multiple_buys_from_market_festival_woodcutter():
    g = game(autoplay=True)
    deck = ["Copper", "Estate", "Estate", "Estate", "Estate", "Estate", "Duchy"]
    g.set_scenario(hands={0: ["Festival", "Woodcutter", "Market", "Gold", "Gold"]}, decks={0: deck})
    supply = fresh_supply(g)
    g.step("Festival")
    assert_turn(g, phase="action", actions=2, buys=2, coins=2)
    g.step("Market")
    assert_turn(g, phase="action", actions=2, buys=3, coins=3)
    g.step("Woodcutter")  # Actions 1, Buys 4, $5
    # no Action in hand any more: the Buy phase starts and plays Gold, Gold, Copper (+$7)
    assert g.decision["kind"] == "buy"
    assert_turn(g, phase="buy", actions=1, buys=4, coins=12)
    assert_zones(
        g, 0, deck=deck[1:], in_play=["Festival", "Market", "Woodcutter", "Gold", "Gold", "Copper"]
    )
    for card, coins_left, buys_left in (("Province", 4, 3), ("Silver", 1, 2), ("Copper", 1, 1)):
        g.step(card)
        supply[card] -= 1
        assert_turn(g, phase="buy", actions=1, buys=buys_left, coins=coins_left)
        assert g.supply == supply
    assert_zones(
        g,
        0,
        deck=deck[1:],
        discard=["Province", "Silver", "Copper"],
        in_play=["Festival", "Market", "Woodcutter", "Gold", "Gold", "Copper"],
    )
    g.step("Curse")  # the 4th Buy ends the turn
    supply["Curse"] -= 1
    assert g.supply == supply
    assert_zones(
        g,
        0,
        hand=deck[1:6],
        deck=deck[6:],
        discard=[
            "Province",
            "Silver",
            "Copper",
            "Curse",
            "Festival",
            "Market",
            "Woodcutter",
            "Gold",
            "Gold",
            "Copper",
        ],
    )
    assert g.turn["player"] == 1


def test_pass_in_buy_ends_turn_without_gaining():
    g = game()
    g.set_scenario(phase="buying", coins=8, buys=3, decks={0: ["Estate"] * 5})
    supply = fresh_supply(g)
    g.step("PASS")
    assert g.supply == supply
    assert_zones(g, 0, hand=["Estate"] * 5)
    assert g.turn["player"] == 1


@pytest.mark.parametrize("auto_resolve", [True, False])
def test_buy_with_nothing_to_choose_is_not_asked(auto_resolve):
    """With Copper and Curse gone and $0 the only legal action is PASS: never a decision."""
    g = game(auto_resolve=auto_resolve)
    g.set_scenario(
        phase="buying", coins=0, supply={"Copper": 0, "Curse": 0}, hands={1: ["Village", "Copper"]}
    )
    assert g.turn["player"] == 1
    assert g.current_player == 1 and g.decision["kind"] == "play_action"
    assert g.legal_actions() == ["Village", "PASS"]


# ---------------------------------------------------------------------------------------------
# Treasures
# ---------------------------------------------------------------------------------------------


@covers("Copper", "Silver", "Gold", "Harem")
def test_manual_treasures_one_by_one_including_harem():
    g = game(autoplay=False)
    g.set_scenario(hands={0: ["Copper", "Silver", "Gold", "Harem", "Estate"]}, phase="buy")
    assert g.decision["kind"] == "play_treasure"
    assert g.legal_actions() == ["Copper", "Silver", "Gold", "Harem", "PASS"]
    g.step("Harem")
    assert_turn(g, phase="buy", actions=1, buys=1, coins=2)
    assert_zones(g, 0, hand=["Copper", "Silver", "Gold", "Estate"], in_play=["Harem"])
    g.step("Gold")
    assert_turn(g, phase="buy", actions=1, buys=1, coins=5)
    assert g.legal_actions() == ["Copper", "Silver", "PASS"]
    g.step("PASS")  # stop playing treasures: buy with $5
    assert g.decision["kind"] == "buy"
    assert g.legal_actions() == affordable(5)
    assert_zones(g, 0, hand=["Copper", "Silver", "Estate"], in_play=["Harem", "Gold"])
    # after the first buy no more Treasures can be played: 'Copper' now buys a Copper
    g.set_scenario(hands={0: ["Copper", "Silver"]}, phase="buy", buys=2)
    g.step("PASS")
    g.step("Copper")
    assert g.decision["kind"] == "buy"
    assert_turn(g, phase="buy", actions=1, buys=1, coins=0)
    assert_zones(g, 0, hand=["Copper", "Silver"], discard=["Copper"])


def test_manual_treasures_all_then_buy():
    g = game(autoplay=False)
    g.set_scenario(hands={0: ["Copper", "Copper", "Harem"]}, phase="buy", coins=1)
    for card, coins in (("Copper", 2), ("Copper", 3), ("Harem", 5)):
        g.step(card)
        assert g.turn["coins"] == coins
    # no Treasure left in hand: straight to buying
    assert g.decision["kind"] == "buy" and g.legal_actions() == affordable(5)
    assert_zones(g, 0, in_play=["Copper", "Copper", "Harem"])


def test_autoplay_plays_every_treasure_including_harem():
    g = game(autoplay=True)
    g.set_scenario(hands={0: ["Copper", "Harem", "Silver", "Gold", "Estate", "Village"]}, actions=0)
    assert g.decision["kind"] == "buy"
    assert_turn(g, phase="buy", actions=0, buys=1, coins=8)
    assert_zones(g, 0, hand=["Estate", "Village"], in_play=["Copper", "Harem", "Silver", "Gold"])


def test_harem_is_not_an_action():
    g = game(autoplay=True)
    g.set_scenario(hands={0: ["Harem", "Estate"]})
    assert g.decision["kind"] == "buy"
    assert_turn(g, phase="buy", actions=1, buys=1, coins=2)
    assert_zones(g, 0, hand=["Estate"], in_play=["Harem"])


def test_phase_buying_skips_treasures():
    g = game(autoplay=True)
    g.set_scenario(hands={0: ["Gold"]}, phase="buying", coins=2)
    assert g.decision["kind"] == "buy"
    assert_turn(g, phase="buy", actions=1, buys=1, coins=2)
    assert_zones(g, 0, hand=["Gold"])


# ---------------------------------------------------------------------------------------------
# Clean-up, drawing and shuffling
# ---------------------------------------------------------------------------------------------


def test_cleanup_discards_hand_and_in_play_and_draws_five():
    g = game()
    deck = ["Silver", "Estate", "Gold", "Copper", "Duchy", "Province", "Curse"]
    g.set_scenario(
        hands={0: ["Estate", "Village"]},
        in_play={0: ["Smithy", "Gold"]},
        decks={0: deck},
        discards={0: ["Copper"]},
        phase="buying",
        coins=3,
        actions=0,
        buys=1,
        turns_taken=[3, 2],
    )
    g.step("PASS")
    assert_zones(
        g,
        0,
        hand=deck[:5],
        deck=deck[5:],
        discard=["Copper", "Estate", "Village", "Smithy", "Gold"],
    )
    assert shuffles(g) == []
    # next player's turn starts with fresh Actions, Buys and $
    assert g.turn == {
        "turn_number": 7,
        "player": 1,
        "phase": "buy",
        "actions": 1,
        "buys": 1,
        "coins": 0,
    }
    assert g.current_player == 1


def test_cleanup_passes_turn_around_the_table():
    g = game(players=3)
    g.set_scenario(phase="buying", turn_player=2, decks={2: ["Estate"] * 5}, hands={0: ["Village"]})
    g.step("PASS")
    assert g.turn["player"] == 0 and g.decision["kind"] == "play_action"
    assert_zones(g, 2, hand=["Estate"] * 5)
    assert_zones(g, 0, hand=["Village"])


def test_smithy_draws_two_then_shuffles_for_the_third():
    g = game()
    g.set_scenario(
        hands={0: ["Smithy"]},
        decks={0: ["Gold", "Gold"]},
        discards={0: ["Estate", "Estate", "Estate"]},
    )
    g.step("Smithy")
    # the two Golds drawn before the shuffle are not shuffled back in
    assert_zones(
        g, 0, hand=["Gold", "Gold", "Estate"], deck=["Estate", "Estate"], in_play=["Smithy"]
    )
    log = g.log()
    assert log[:4] == [
        "P0 plays Smithy",
        "P0 draws 2 x Gold",
        "P0 shuffles 3 cards",
        "P0 draws Estate",
    ]


def test_shuffle_is_a_permutation_of_the_discard_only():
    g = game()
    g.set_scenario(
        hands={0: ["Smithy", "Estate"]},
        decks={0: ["Gold"]},
        discards={0: ["Copper", "Silver", "Duchy", "Province"]},
        aside={0: ["Harem"]},
    )
    g.step("Smithy")
    z = g.zones(0)
    assert z["discard"] == {} and z["in_play"] == {"Smithy": 1}
    assert z["aside"] == {"Harem": 1}
    assert len(z["deck"]) == 2
    assert sum(z["hand"].values()) == 4 and z["hand"]["Gold"] == 1
    assert z["hand"]["Estate"] == 1
    assert Counter(z["hand"]) + Counter(z["deck"]) == Counter(
        ["Gold", "Estate", "Copper", "Silver", "Duchy", "Province"]
    )
    assert shuffles(g) == ["P0 shuffles 4 cards"]


def test_no_shuffle_when_deck_has_exactly_enough():
    g = game()
    g.set_scenario(
        hands={0: ["Smithy"]}, decks={0: ["Gold", "Silver", "Copper"]}, discards={0: ["Estate"]}
    )
    g.step("Smithy")
    assert_zones(g, 0, hand=["Gold", "Silver", "Copper"], discard=["Estate"], in_play=["Smithy"])
    assert shuffles(g) == []


def test_empty_deck_not_shuffled_until_a_card_is_needed():
    """Festival draws nothing: the discard pile stays a discard pile."""
    g = game()
    g.set_scenario(hands={0: ["Festival"]}, discards={0: ["Gold", "Silver"]})
    g.step("Festival")
    assert_zones(g, 0, discard=["Gold", "Silver"], in_play=["Festival"])
    assert shuffles(g) == []


def test_cleanup_draw_through_a_reshuffle():
    """Clean-up discards first, so the hand just discarded is shuffled into the new deck."""
    g = game()
    g.set_scenario(
        hands={0: ["Estate", "Estate"]},
        in_play={0: ["Duchy"]},
        decks={0: ["Gold", "Gold"]},
        discards={0: ["Duchy", "Duchy"]},
        phase="buying",
        coins=0,
    )
    g.step("PASS")
    z = g.zones(0)
    assert z["discard"] == {} and z["in_play"] == {} and z["aside"] == {}
    assert z["hand"]["Gold"] == 2 and sum(z["hand"].values()) == 5
    assert len(z["deck"]) == 2
    assert Counter(z["hand"]) + Counter(z["deck"]) == Counter({"Gold": 2, "Estate": 2, "Duchy": 3})
    assert shuffles(g) == ["P0 shuffles 5 cards"]


def test_cleanup_draw_through_reshuffle_exact():
    g = game()
    g.set_scenario(
        hands={0: ["Estate", "Estate"]},
        decks={0: ["Gold", "Gold"]},
        discards={0: ["Estate"] * 3},
        phase="buying",
        coins=0,
    )
    g.step("PASS")
    assert_zones(
        g, 0, hand=["Gold", "Gold", "Estate", "Estate", "Estate"], deck=["Estate", "Estate"]
    )


@pytest.mark.parametrize(
    "deck,discard,exp_hand",
    [
        ([], [], []),
        (["Gold"], [], ["Gold"]),
        ([], ["Silver"], ["Silver"]),
        (["Gold"], ["Silver"], ["Gold", "Silver"]),
    ],
)
def test_drawing_with_too_few_cards_draws_what_there_is(deck, discard, exp_hand):
    g = game()
    g.set_scenario(hands={0: ["Smithy"]}, decks={0: deck}, discards={0: discard})
    g.step("Smithy")
    assert_zones(g, 0, hand=exp_hand, in_play=["Smithy"])
    assert_turn(g, phase="buy", actions=0, buys=1, coins=0)


def test_in_play_and_aside_cards_are_never_shuffled_in():
    g = game()
    g.set_scenario(hands={0: ["Village", "Smithy"]}, aside={0: ["Gold"]}, in_play={0: ["Market"]})
    g.step("Village")
    g.step("Smithy")
    assert_zones(g, 0, in_play=["Market", "Village", "Smithy"], aside=["Gold"])
    assert_turn(g, phase="buy", actions=1, buys=1, coins=0)


def test_cleanup_with_fewer_than_five_cards_owned():
    g = game()
    g.set_scenario(hands={0: ["Copper"]}, in_play={0: ["Village"]}, phase="buying", coins=1)
    g.step("PASS")
    assert_zones(g, 0, hand=["Copper", "Village"])
    assert "P0 shuffles 2 cards" in shuffles(g)


@pytest.mark.parametrize(
    "setup,plays,expected",
    [
        # Smithy with deck and discard both empty: nothing to draw, nothing to shuffle
        (dict(hands={0: ["Smithy"]}), ["Smithy"], []),
        # Clean-up with 2 cards owned: one real shuffle of 2 cards, then nothing left to shuffle
        (
            dict(hands={0: ["Copper"]}, in_play={0: ["Village"]}, phase="buying", coins=1),
            ["PASS"],
            ["P0 shuffles 2 cards"],
        ),
    ],
)
def test_no_shuffle_of_an_empty_discard_pile(setup, plays, expected):
    """An empty discard pile is not shuffled: the log must not show 'shuffles 0 cards'."""
    g = game()
    g.set_scenario(**setup)
    for a in plays:
        g.step(a)
    assert shuffles(g) == expected


def test_log_adds_up_repeated_events():
    """Auto-played Coppers are one line with their count; different cards stay apart."""
    g = Game("First Game", players=2, seed=0)
    g.set_scenario(hands={0: ["Copper", "Copper", "Copper", "Silver", "Estate"]}, phase="buy")
    log = g.log()
    assert "P0 plays 3 x Copper" in log and "P0 plays Silver" in log
    assert not any(line == "P0 plays Copper" for line in log)
