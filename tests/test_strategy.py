"""The strategy language: conditions, quantities as the compiled bots see them, TOML files."""

import textwrap

import pytest

from dominion_env import Game
from dominion_env.agents import BOTS, Bot, bot_action, compile_bots, kingdom_for, load_bots
from dominion_env.agents.language import Compare, Num, Quantity, parse

KINGDOM = [
    "Village",
    "Smithy",
    "Cellar",
    "Moat",
    "Market",
    "Witch",
    "Militia",
    "Gardens",
    "Laboratory",
    "Festival",
]


def buy_with(rule, coins=5, supply=None, hands=None, discards=None, players=2, **kw):
    """What a bot with rules [rule, 'Silver'] buys with $coins in the given position."""
    g = Game(KINGDOM, players=players, seed=0)
    g.set_scenario(
        hands=hands or {}, discards=discards or {}, supply=supply, phase="buying", coins=coins, **kw
    )
    return bot_action(Bot("probe", [rule, "Silver"]), g)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("money > 18", ("money", None, ">", 18)),
        ("pile Province <= 4", ("pile", "Province", "<=", 4)),
        ("count Witch < 2", ("count", "Witch", "<", 2)),
        ("gains_to_end<=3", ("gains_to_end", None, "<=", 3)),
        ("vp_lead != -2", ("vp_lead", None, "!=", -2)),
        ("hand Gold >= 1", ("hand", "Gold", ">=", 1)),
        ("hand('Gold') >= 1", ("hand", "Gold", ">=", 1)),
    ],
)
def test_parse_condition(text, expected):
    q, arg, op, value = expected
    assert parse(text) == Compare(op, Quantity(q, arg), Num(value))


@pytest.mark.parametrize(
    "text, message",
    [
        ("money >> 3", "cannot read condition 'money >> 3': at column 7, '>>'"),
        ("wealth > 3", "unknown quantity 'wealth'"),
        ("count > 3", "count takes a card in parentheses"),
        ("count Gold > 3 3", "not an expression"),
        ("money Gold > 3", "takes no card name"),
        ("pile Provinse < 3", "Provinse"),
    ],
)
def test_bad_conditions_are_refused_by_name(text, message):
    with pytest.raises(ValueError, match=message):
        Bot("bad", [("Gold", text)]).compiled_rules()


def test_bad_rules_name_the_bot_and_rule():
    with pytest.raises(ValueError, match=r"bot 'x', rule 2: .*Gould"):
        Bot("x", ["Silver", "Gould"]).compiled_rules()
    with pytest.raises(ValueError, match="at most 3 conditions"):
        Bot("x", [("Gold", "money > 1", "money > 2", "money > 3", "money > 4")]).compiled_rules()
    with pytest.raises(ValueError, match="no bots"):
        compile_bots([])


def test_money_counts_every_treasure_owned():
    # 7 Coppers + Gold = $10 in all zones (hand, discard)
    hands = {0: ["Copper"] * 5}
    discards = {0: ["Copper", "Copper", "Gold"]}
    assert buy_with(("Gold", "money >= 10"), 6, hands=hands, discards=discards) == "Gold"
    assert buy_with(("Gold", "money >= 11"), 6, hands=hands, discards=discards) == "Silver"


def test_gains_to_end_is_provinces_or_the_three_smallest_piles():
    assert buy_with(("Duchy", "gains_to_end <= 3"), supply={"Province": 3}) == "Duchy"
    assert buy_with(("Duchy", "gains_to_end <= 3"), supply={"Province": 4}) == "Silver"
    piles = {"Village": 0, "Smithy": 1, "Cellar": 2, "Moat": 1}
    assert buy_with(("Duchy", "gains_to_end <= 2"), supply=piles) == "Duchy"  # 0 + 1 + 1
    assert buy_with(("Duchy", "gains_to_end <= 1"), supply=piles) == "Silver"


def test_gains_to_end_uses_four_piles_with_five_players():
    piles = {"Village": 0, "Smithy": 1, "Cellar": 1, "Moat": 2}
    assert buy_with(("Duchy", "gains_to_end <= 2"), supply=piles, players=4) == "Duchy"
    assert buy_with(("Duchy", "gains_to_end <= 3"), supply=piles, players=5) == "Silver"
    assert buy_with(("Duchy", "gains_to_end <= 4"), supply=piles, players=5) == "Duchy"


def test_vp_and_vp_lead():
    hands = {0: ["Duchy", "Estate"], 1: ["Province"]}  # 4 VP against 6 VP
    assert buy_with(("Duchy", "vp == 4"), hands=hands) == "Duchy"
    assert buy_with(("Duchy", "vp_lead == -2"), hands=hands) == "Duchy"
    assert buy_with(("Duchy", "vp_lead >= 0"), hands=hands) == "Silver"


def test_type_counts_and_hand():
    hands = {0: ["Village", "Smithy", "Estate", "Copper"]}
    assert buy_with(("Market", "action_cards == 2"), hands=hands) == "Market"
    assert buy_with(("Market", "treasure_cards == 1"), hands=hands) == "Market"
    assert buy_with(("Market", "victory_cards == 1"), hands=hands) == "Market"
    assert buy_with(("Market", "hand Smithy == 1"), hands=hands) == "Market"
    assert buy_with(("Market", "hand Village == 0"), hands=hands) == "Silver"


def test_count_turn_cards_coins_empty_piles():
    hands = {0: ["Witch", "Copper"]}
    assert buy_with(("Witch", "count Witch < 2"), hands=hands) == "Witch"
    assert buy_with(("Witch", "count Witch < 1"), hands=hands) == "Silver"
    assert buy_with(("Witch", "turn == 4"), turns_taken=[3, 3]) == "Witch"
    assert buy_with(("Witch", "cards == 2"), hands=hands) == "Witch"
    assert buy_with(("Witch", "coins == 5")) == "Witch"
    assert buy_with(("Witch", "empty_piles == 1"), supply={"Moat": 0}) == "Witch"


def test_kingdom_cards_and_kingdom_for():
    bot = Bot("b", [("Witch", "count Witch < 2", "pile Laboratory > 3"), "Gold", "Militia"])
    assert bot.kingdom_cards() == ["Witch", "Laboratory", "Militia"]
    k = kingdom_for([bot, BOTS["Smithy"]])
    assert len(k) == 10 and len(set(k)) == 10
    assert k[:4] == ["Witch", "Laboratory", "Militia", "Smithy"]
    many = Bot("many", KINGDOM + ["Chapel"])
    with pytest.raises(ValueError, match="need 11 kingdom cards"):
        kingdom_for([many])


def test_load_bots_from_toml(tmp_path):
    path = tmp_path / "bots.toml"
    path.write_text(
        textwrap.dedent("""
        [[bot]]
        name = "Witchy"
        source = "test"
        rules = [
            ["Province", "money > 15"],
            ["Witch", "count Witch < 2"],
            "Gold",
            "Silver",
        ]

        [[bot]]
        name = "Chaos"
        random = true
    """)
    )
    witchy, chaos = load_bots(path)
    assert witchy.name == "Witchy" and witchy.rules[1] == ("Witch", "count Witch < 2")
    assert chaos.random
    assert compile_bots([witchy, chaos]).kind.tolist() == [0, 1]


@pytest.mark.parametrize(
    "text, message",
    [
        ("[[bot]]\nname = 'x'\nrules = [['Gould']]", "unknown card"),
        ("[[bot]]\nrules = ['Gold']", "needs a name"),
        ("[[bot]]\nname = 'x'\nrule = ['Gold']", "unknown key"),
        ("[[bot]]\nname = 'x'\nrules = [3]", "expected a card name"),
        ("name = 'x'", r"expected one or more \[\[bot\]\]"),
        ("[[bot]\n", "not valid TOML"),
    ],
)
def test_bad_toml_is_refused_clearly(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        load_bots(path)
