"""The bot language (``agents.language``): every grammar piece and quantity has the value the
docstring's table says, on scenario positions read by the compiled bots; every error points
at its token; play rules answer the decisions they name and leave the rest to the defaults;
the peers' own Smithy, Witch and Militia bots are written one rule per peer rule."""

import sys

import pytest

from dominion_env import Game
from dominion_env.agents import Bot, bot_action, bots_from_toml, compile_bots
from dominion_env.agents.language import (
    Arith,
    Compare,
    LanguageError,
    Logic,
    Not,
    Num,
    Quantity,
    compile_condition,
    numbers,
    parse,
    to_text,
    with_numbers,
)
from dominion_env.agents.strategy import Rule

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

KINGDOM = [
    "Village",
    "Smithy",
    "Chapel",
    "Moat",
    "Market",
    "Witch",
    "Militia",
    "Minion",
    "Laboratory",
    "Festival",
]


def holds(cond, players=2, coins=5, **scenario):
    """Whether ``cond`` holds for player 0 buying with $coins in the given position: a bot
    with rules [(Market, cond), Silver] buys Market exactly when it does."""
    g = Game(KINGDOM, players=players, seed=0)
    g.set_scenario(phase="buying", coins=coins, **scenario)
    return bot_action(Bot("probe", [("Market", cond), "Silver"]), g) == "Market"


def value_is(expr, value, **scenario):
    """``expr == value`` holds and ``expr == value + 1`` does not (so it is no accident)."""
    return holds(f"{expr} == {value}", **scenario) and not holds(
        f"{expr} == {value + 1}", **scenario
    )


# ---------------------------------------------------------------------------------------------
# grammar pieces, each on a position where its value is known
# ---------------------------------------------------------------------------------------------

HAND = {0: ["Copper", "Copper", "Copper", "Estate", "Smithy"]}  # 3 Treasures, 5 cards


@pytest.mark.parametrize(
    "expr, value",
    [
        ("hand('Copper') + 2", 5),
        ("hand('Copper') - 5", -2),
        ("hand('Copper') * hand('Estate') * 4", 12),
        ("hand('Copper') / 2 * 4", 6),  # true division: 1.5 * 4
        ("hand('Copper') // 2", 1),  # rounds down
        ("-hand('Copper') // 2", -2),
        ("-(hand('Copper'))", -3),
        ("hand('Copper') / 0", 0),  # a division by zero gives 0
        ("hand('Copper') // 0", 0),
        ("2 + 3 * hand('Estate')", 5),  # * before +
        ("(2 + 3) * hand('Estate')", 5),
        ("(2 + 3) * (hand('Estate') + 1)", 10),
        ("10 - 2 - hand('Copper')", 5),  # left to right
        ("10 - (2 - hand('Copper'))", 11),
        ("hand('Copper') * 0.5 * 2", 3),
    ],
)
def test_arithmetic(expr, value):
    assert value_is(expr, value, hands=HAND)


@pytest.mark.parametrize(
    "cond, expected",
    [
        ("hand('Copper') < 3", False),
        ("hand('Copper') <= 3", True),
        ("hand('Copper') > 2.5", True),
        ("hand('Copper') >= 4", False),
        ("hand('Copper') == 3", True),
        ("hand('Copper') != 3", False),
        ("1 < hand('Copper') <= 3", True),  # chained
        ("1 < hand('Copper') < 3", False),
        ("hand('Copper') == 3 and hand('Estate') == 1", True),
        ("hand('Copper') == 3 and hand('Estate') == 2", False),
        ("hand('Copper') == 4 or hand('Estate') == 1", True),
        ("hand('Copper') == 4 or hand('Estate') == 2", False),
        ("not hand('Copper') == 3", False),
        ("not (hand('Copper') == 4 or hand('Estate') == 2)", True),
        ("hand('Copper') == 4 or hand('Estate') == 1 and hand('Gold') == 1", False),  # and first
        ("(hand('Copper') == 4 or hand('Estate') == 1) and hand('Gold') == 0", True),
        ("hand('Smithy') < hand('Copper') / 2", True),  # two quantities: 1 < 1.5
        ("hand('Smithy') < hand('Copper') / 3", False),
    ],
)
def test_comparisons_and_logic(cond, expected):
    assert holds(cond, hands=HAND) is expected


def test_owned_counts_and_types():
    hands = {0: ["Village", "Smithy", "Estate", "Copper"]}
    discards = {0: ["Witch", "Gold"]}
    deck = {0: ["Moat", "Copper"], 1: ["Witch", "Witch"]}
    in_play = {0: ["Festival"]}
    where = dict(hands=hands, discards=discards, decks=deck, in_play=in_play)
    assert value_is("count('Copper')", 2, **where)
    assert value_is("count('Action')", 5, **where)  # Village Smithy Witch Moat Festival
    assert value_is("count('Attack')", 1, **where)
    assert value_is("count('Reaction')", 1, **where)
    assert value_is("count('Treasure')", 3, **where)
    assert value_is("count('Victory')", 1, **where)
    assert value_is("count()", 9, **where)
    assert value_is("cards", 9, **where)
    assert value_is("action_cards", 5, **where)
    assert value_is("hand()", 4, **where)
    assert value_is("hand('Action')", 2, **where)
    assert value_is("deck()", 2, **where)
    assert value_is("deck('Moat')", 1, **where)
    assert value_is("discard('Gold')", 1, **where)
    assert value_is("discard()", 2, **where)
    assert value_is("in_play('Festival')", 1, **where)
    assert value_is("in_play()", 1, **where)
    assert value_is("money", 5, **where)  # Copper x2, Gold


def test_opponents_cards_vp_and_turns():
    discards = {0: ["Duchy"], 1: ["Witch", "Province"], 2: ["Witch", "Witch", "Duchy"]}
    where = dict(discards=discards, turns_taken=[4, 5, 3], players=3)
    assert value_is("opp_count('Witch')", 2, **where)  # the most one opponent owns
    assert value_is("opp_total('Witch')", 3, **where)
    assert value_is("opp_count('Curse')", 0, **where)
    assert value_is("vp", 3, **where)
    assert value_is("opp_vp", 6, **where)
    assert value_is("vp_lead", -3, **where)
    assert value_is("turns_taken", 4, **where)
    assert value_is("turn", 5, **where)
    assert value_is("opp_turns_max", 5, **where)
    assert value_is("opp_turns_min", 3, **where)
    assert value_is("players", 3, **where)


@pytest.mark.parametrize(
    "players, turn_player, turns_taken, seat",
    [
        (2, 0, [0, 0], 1),  # first turn of the game
        (2, 0, [3, 4], 2),  # the other player went first
        (2, 0, [3, 3], 1),
        (3, 0, [2, 3, 3], 3),  # 1 and 2 finished this round before 0
        (3, 0, [2, 2, 3], 2),
        (3, 0, [2, 2, 2], 1),
    ],
)
def test_seat(players, turn_player, turns_taken, seat):
    where = dict(players=players, turn_player=turn_player, turns_taken=turns_taken)
    assert value_is("seat", seat, **where)


def test_turn_counters_and_supply():
    assert value_is("coins", 5)
    assert value_is("buys", 2, buys=2)
    assert value_is("pile('Province') + pile('Duchy')", 9, supply={"Province": 1})
    assert value_is("empty_piles", 2, supply={"Moat": 0, "Chapel": 0})
    assert value_is("gains_to_end", 1, supply={"Moat": 0, "Chapel": 0, "Village": 1})


def test_legacy_form_reads_as_the_same_tree():
    assert parse("pile Province <= 4") == parse('pile("Province") <= 4')
    assert parse("count Great Hall < 2") == Compare("<", Quantity("count", "Great Hall"), Num(2))
    assert parse("vp_lead != -2") == Compare("!=", Quantity("vp_lead"), Num(-2))


# ---------------------------------------------------------------------------------------------
# errors: each names the text, the column and the token, and says what was expected
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, column, token, expected",
    [
        ("money >> 3", 7, ">>", "arithmetic"),
        ("wealth > 3", 1, "wealth", "unknown quantity 'wealth'"),
        ("count > 3", 1, "count", 'takes a card in parentheses: count("Smithy")'),
        ("count Witch > 3 and money > 1", 7, "Witch", "not an expression"),
        ("money Gold > 3", 1, "money", "takes no card name"),
        ("pile Provinse < 3", 6, "Provinse", "unknown card name 'Provinse'"),
        ("count('Gould') < 2", 7, "'Gould'", "unknown card name 'Gould'"),
        ("pile('Action') < 2", 6, "'Action'", "unknown card name 'Action'"),
        ("hand(Gold) > 1", 6, "Gold", "a card or type name in quotes"),
        ("pile() > 1", 1, "pile()", "takes a card in quotes"),
        ("money('Gold') > 1", 1, "money", "takes no argument"),
        ("deck('Gold', 'Copper') > 1", 1, "deck('Gold', 'Copper')", "one card or type"),
        ("money > ", 8, "", "ends too early"),
        ("money > 3 and", 14, "", "ends too early"),
        ("money > 3 3", 11, "3", "not an expression"),
        ("(money > 3", 1, "(", "not an expression ('(' was never closed)"),
        ("money > 18 and 3", 16, "3", "a truth"),
        ("count('Gold')", 1, "count('Gold')", "a truth"),
        ("(money > 3) + 1 > 2", 2, "money > 3", "not a truth"),
        ("money > 1.2345", 9, "1.2345", "at most 3 decimals"),
        ("money > 10000000000", 9, "10000000000", "at most 1,000,000,000"),
        ("money > 'a'", 9, "'a'", "a number or a quantity"),
        ("money > True", 9, "True", "a number or a quantity"),
        ("money is 3", 7, "is", "a comparison"),
        ("money % 3 > 1", 7, "%", "arithmetic"),
        ("(money) ** 2 > 1", 9, "**", "arithmetic"),
        ("coins @ 2 > 1", 7, "@", "arithmetic"),
        ("money > (3 if coins else 2)", 10, "3 if coins else 2", "a number or a quantity"),
        ("  wealth > 3", 3, "wealth", "unknown quantity"),
    ],
)
def test_errors_point_at_the_token(text, column, token, expected):
    with pytest.raises(LanguageError) as info:
        parse(text)
    e = info.value
    assert (e.column, e.token) == (column, token), str(e)
    assert expected in e.expected
    assert str(e).startswith(f"cannot read condition {text!r}: at column {column}, {token!r}")


def test_errors_inside_a_bot_name_the_bot_and_rule():
    with pytest.raises(ValueError, match=r"bot 'x', rule 2: cannot read .* column 1, 'wealth'"):
        Bot("x", ["Silver", ("Gold", "wealth > 3")])
    with pytest.raises(ValueError, match=r"bot 'x', trash rule 1: .*'Gould'"):
        Bot("x", ["Silver"], trash=["Gould"])


def test_too_deep_and_too_long_are_refused():
    deep = "money - (money - (money - (money - (money - (money - money))))) > 1"
    with pytest.raises(ValueError, match="nested too deeply: it needs 7 registers"):
        Bot("x", [("Gold", deep)])
    long = " and ".join(["money > 1"] * 9)
    with pytest.raises(ValueError, match="too long: 35 steps, at most 24"):
        Bot("x", [("Gold", long)])


# whatever its size, a text that cannot compile is a LanguageError at a column and a token
# (never Python's RecursionError, MemoryError or its integer-conversion message)
HUGE = [
    (" + ".join(["money"] * 1000) + " > 1", 2001, "money", "at most 500 tokens"),
    (" + ".join(["money"] * 30) + " > 1", 97, "money", "too long: 25 steps"),
    (" and ".join(["money > 1"] * 1000), 1751, "money", "at most 500 tokens"),
    (" or ".join(["money > 1"] * 100_000), 1626, "money", "at most 500 tokens"),
    ("not " * 1000 + "money > 1", 2001, "not", "at most 500 tokens"),
    ("not " * 100 + "money > 1", 257, "not", "nested too deeply: at most 64"),
    ("-" * 1000 + "money > 1", 501, "-", "at most 500 tokens"),
    ("-" * 100 + "money > 1", 64, "-", "nested too deeply: at most 64"),
    ("-(" * 100 + "money" + ")" * 100 + " > 1", 127, "-", "nested too deeply: at most 64"),
    ("money > " + "9" * 5000, 9, "9" * 5000, "a number of at most 20 characters"),
    ("money > 1." + "5" * 5000, 9, "1." + "5" * 5000, "a number of at most 20 characters"),
    ("pile Province < " + "9" * 5000, 17, "9" * 5000, "a number of at most 20 characters"),
]


@pytest.mark.parametrize("text, column, token, expected", HUGE)
def test_huge_inputs_are_language_errors(text, column, token, expected):
    with pytest.raises(LanguageError) as info:
        parse(text)
    e = info.value
    assert (e.column, e.token) == (column, token)
    assert expected in e.expected
    assert len(str(e)) < 400  # a window of the text, not all of it


def test_long_chains_within_the_bounds_compile():
    assert len(compile_condition(parse(" and ".join(["money > 1"] * 6)))) == 23
    assert len(compile_condition(parse("not " * 21 + "money > 1"))) == 24
    assert len(compile_condition(parse("-" * 21 + "money > 1"))) == 24
    assert parse("-" * 62 + "1 < money") == parse("1 < money")  # folded into the number


# ---------------------------------------------------------------------------------------------
# the data form: trees, text, constants
# ---------------------------------------------------------------------------------------------

TEXTS = [
    "money > 18",
    'count("Smithy") < treasure_cards / 11',
    "0 < gains_to_end and gains_to_end <= 5",
    'not (seat == 2 or vp_lead + 6 <= 0) and pile("Province") > 1',
    "(money - 2) * 3 // 4 >= -1.5",
    'hand() - hand("Victory") > -(coins - 1)',
    "money > 1 or coins > 2 and not buys > 1",
]


@pytest.mark.parametrize("text", TEXTS)
def test_text_round_trip(text):
    tree = parse(text)
    assert to_text(tree) == text
    assert parse(to_text(tree)) == tree


def test_trees_and_constants_for_an_optimizer():
    tree = parse('count("Smithy") < treasure_cards / 11 and 0 < gains_to_end <= 5')
    assert tree == Logic(
        "and",
        (
            Compare(
                "<",
                Quantity("count", "Smithy"),
                Arith("/", Quantity("treasure_cards"), Num(11)),
            ),
            Logic(
                "and",
                (
                    Compare("<", Num(0), Quantity("gains_to_end")),
                    Compare("<=", Quantity("gains_to_end"), Num(5)),
                ),
            ),
        ),
    )
    assert numbers(tree) == [11, 0, 5]
    moved = with_numbers(tree, [9.5, 0, 4])
    assert to_text(moved) == (
        'count("Smithy") < treasure_cards / 9.5 and (0 < gains_to_end and gains_to_end <= 4)'
    )
    assert parse(to_text(moved)) == moved
    with pytest.raises(ValueError, match="at most 3 decimals"):
        with_numbers(tree, [1.0001, 0, 4])
    with pytest.raises(ValueError, match="more values"):
        with_numbers(tree, [1, 2, 3, 4])
    bot = Bot("opt", [Rule("Smithy", moved), "Silver"])
    assert bot.parsed["rules"][0].text() == ["Smithy", to_text(moved)]
    assert (bot.compiled_rules() == Bot("opt", [["Smithy", to_text(moved)], "Silver"])
            .compiled_rules()).all()  # fmt: skip


def test_not_and_negative_compile_to_programs():
    assert compile_condition(None) == []
    # steps are operand << 8 | opcode: money (Q_BASE + 1), push 1.000, >, not
    assert compile_condition(Not(parse("money > 1"))) == [33, 1000 << 8, 9, 15]
    assert compile_condition(parse("vp_lead > -2")) == [42, -2000 << 8, 9]
    with pytest.raises(TypeError, match="a truth"):
        compile_condition(Num(1))


def test_bot_to_toml_round_trip():
    bot = Bot(
        "Everything",
        [("Province", "money > 15"), ("Smithy", "count('Smithy') < treasure_cards / 11")],
        source='a "quoted" source',
        play=[("Smithy", "actions == 1"), "Village"],
        trash=["Curse", ("Copper", "money > 4"), "PASS"],
        discard=["Estate"],
        choose=[("Minion option 0", "coins + 2 >= 6")],
    )
    (back,) = bots_from_toml(tomllib.loads(bot.to_toml()))
    assert back.parsed == bot.parsed and back.name == bot.name and back.source == bot.source
    assert (back.compiled_rules() == bot.compiled_rules()).all()


# ---------------------------------------------------------------------------------------------
# play rules
# ---------------------------------------------------------------------------------------------


def action_game(hand, players=2, **kw):
    g = Game(KINGDOM, players=players, seed=0)
    g.set_scenario(hands={0: hand}, decks={0: ["Copper"] * 5}, phase="action", **kw)
    return g


def test_play_rules_choose_the_action():
    g = action_game(["Village", "Smithy", "Copper"])
    plain = Bot("plain", ["Silver"])
    assert bot_action(plain, g) == "Village"  # default: most +Actions first
    smithy_first = Bot("s", ["Silver"], play=["Smithy"])
    assert bot_action(smithy_first, g) == "Smithy"
    # a rule that does not hold leaves the default to decide
    assert bot_action(Bot("s", ["Silver"], play=[("Smithy", "coins > 3")]), g) == "Village"
    # PASS: play nothing more
    assert bot_action(Bot("s", ["Silver"], play=["PASS"]), g) == "PASS"


def test_trash_rules_and_pass():
    g = action_game(["Chapel", "Copper", "Copper", "Estate", "Silver"])
    g.step("Chapel")
    assert bot_action(Bot("p", ["Silver"]), g) == "Estate"  # default: junk first
    only_copper = Bot("c", ["Silver"], trash=["Copper", "PASS"])
    assert bot_action(only_copper, g) == "Copper"
    g.step("Copper")
    g.step("Copper")
    assert bot_action(only_copper, g) == "PASS"  # no Copper left: stop, Estate stays
    silver = Bot("s", ["Silver"], trash=[("Silver", "hand('Estate') == 1")])
    assert bot_action(silver, g) == "Silver"


def test_discard_rules_for_a_militia_victim():
    g = Game(KINGDOM, players=2, seed=0)
    g.set_scenario(
        hands={0: ["Militia"], 1: ["Gold", "Silver", "Copper", "Copper", "Estate"]},
        decks={0: ["Copper"] * 5},
        phase="action",
    )
    g.step("Militia")
    assert g.current_player == 1
    assert bot_action(Bot("p", ["Silver"]), g) == "Estate"
    keep_copper = Bot("k", ["Silver"], discard=[("Silver", "hand('Gold') > 0"), "Estate"])
    assert bot_action(keep_copper, g) == "Silver"


def minion_choice(hand):
    g = action_game(["Minion", *hand])
    g.step("Minion")
    assert g.legal_actions() == ["option 0", "option 1"]
    return g


def test_choose_rules_take_an_option():
    g = minion_choice(["Copper", "Copper", "Copper"])  # $3 + 2 = $5: default attacks
    assert bot_action(Bot("p", ["Silver"]), g) == "option 1"
    money = Bot("m", ["Silver"], choose=[("Minion option 0", "hand() <= 3")])
    assert bot_action(money, g) == "option 0"
    g = minion_choice(["Copper", "Copper", "Copper", "Estate"])
    assert bot_action(money, g) == "option 1"  # the rule does not hold: the default


def test_choose_rule_errors():
    with pytest.raises(ValueError, match="'Smithy' asks no option"):
        Bot("x", ["Silver"], choose=["Smithy option 0"])
    with pytest.raises(ValueError, match="options are 'option 0' .. 'option 5'"):
        Bot("x", ["Silver"], choose=["Minion option 6"])
    with pytest.raises(ValueError, match="'Card option k'"):
        Bot("x", ["Silver"], choose=["Minion 0"])
    with pytest.raises(ValueError, match="only choose rules"):
        Bot("x", [Rule("option 0", None, "Minion")])


def test_play_rules_only_change_their_decisions():
    """A bot with play rules for a card it never holds plays exactly as one without them."""
    from dominion_env.analysis.arena import play_games

    plain = Bot("plain", ["Province", "Gold", ("Smithy", "count('Smithy') < 1"), "Silver"])
    ruled = Bot(
        "ruled", plain.rules, play=["Festival"], trash=["Curse"], choose=["Minion option 0"]
    )
    a = play_games(compile_bots([plain, "Big Money"]), 200, 2, kingdom=KINGDOM, seed=5)
    b = play_games(compile_bots([ruled, "Big Money"]), 200, 2, kingdom=KINGDOM, seed=5)
    assert (a.reward == b.reward).all() and (a.turns == b.turns).all()


# ---------------------------------------------------------------------------------------------
# the peers' own bots, one rule per peer rule (Colony and Platinum rules dropped: no
# Prosperity; Dominiate's "Province if countInSupply(Colony) <= 6" is then always true)
# ---------------------------------------------------------------------------------------------

PEERS = [
    # rspeer/dominiate strategies/BigSmithy.coffee
    Bot(
        "Dominiate BigSmithy",
        [
            "Province",
            ("Duchy", "0 < gains_to_end <= 5"),
            ("Estate", "0 < gains_to_end <= 2"),
            "Gold",
            ("Smithy", "count('Smithy') < 2 and cards >= 16"),
            ("Smithy", "count('Smithy') < 1"),
            "Silver",
            ("Copper", "gains_to_end <= 3"),
        ],
        source="Dominiate strategies/BigSmithy.coffee",
    ),
    # rspeer/dominiate strategies/DoubleWitch.coffee
    Bot(
        "Dominiate DoubleWitch",
        [
            ("Province", "count('Gold') > 0"),
            ("Witch", "count('Witch') < 2"),
            ("Duchy", "0 < gains_to_end <= 5"),
            ("Estate", "0 < gains_to_end <= 2"),
            "Gold",
            "Silver",
        ],
        source="Dominiate strategies/DoubleWitch.coffee",
    ),
    # rspeer/dominiate strategies/DoubleMilitia.coffee
    Bot(
        "Dominiate DoubleMilitia",
        [
            "Province",
            ("Duchy", "0 < gains_to_end <= 5"),
            ("Militia", "count('Militia') < 2"),
            ("Estate", "0 < gains_to_end <= 2"),
            "Gold",
            "Silver",
            ("Copper", "gains_to_end <= 3"),
        ],
        source="Dominiate strategies/DoubleMilitia.coffee",
    ),
    # Geronimoo/DominionSim DomBots.xml, "Smithy" by HiveMindEmulator
    Bot(
        "DominionSim Smithy",
        [
            ("Province", "money > 15"),
            ("Duchy", "pile('Province') <= 4"),
            ("Estate", "pile('Province') <= 2"),
            "Gold",
            ("Duchy", "pile('Province') <= 6"),
            ("Smithy", "count('Smithy') < count('Treasure') / 11"),
            "Silver",
        ],
        source="DominionSim DomBots.xml 'Smithy' (HiveMindEmulator)",
    ),
    # Geronimoo/DominionSim DomBots.xml, "Witch" by Geronimoo
    Bot(
        "DominionSim Witch",
        [
            ("Province", "count('Gold') > 0"),
            ("Duchy", "pile('Province') <= 5"),
            ("Estate", "pile('Province') <= 2"),
            ("Witch", "count('Witch') == 0"),
            "Gold",
            ("Witch", "count('Witch') < 2"),
            "Silver",
        ],
        source="DominionSim DomBots.xml 'Witch' (Geronimoo)",
    ),
    # Geronimoo/DominionSim DomBots.xml, "Militia" by Geronimoo
    Bot(
        "DominionSim Militia",
        [
            ("Province", "count('Gold') > 0"),
            ("Duchy", "pile('Province') <= 6"),
            ("Estate", "pile('Province') <= 2"),
            "Gold",
            ("Militia", "count('Militia') < 3"),
            "Silver",
        ],
        source="DominionSim DomBots.xml 'Militia' (Geronimoo)",
    ),
]
PEER_RULES = {  # rules in the peer's file, less its Colony and Platinum rules
    "Dominiate BigSmithy": 8,
    "Dominiate DoubleWitch": 6,
    "Dominiate DoubleMilitia": 7,
    "DominionSim Smithy": 7,
    "DominionSim Witch": 7,
    "DominionSim Militia": 6,
}


@pytest.mark.parametrize("bot", PEERS, ids=[b.name for b in PEERS])
def test_peer_bots_parse_and_compile(bot):
    assert len(bot.rules) == PEER_RULES[bot.name]
    table = compile_bots([bot])
    header = table.rules[0, 0]
    assert (header[0], header[1]) == (1, 1 + len(bot.rules))  # every rule a gain rule
    assert header[2] == header[3] == header[1]  # no play rules
    assert len(bot.kingdom_cards()) == 1


def test_peer_smithy_ratio_rule():
    """DominionSim's Smithy: one Smithy per 11 Treasures, a comparison of two quantities."""
    smithy = PEERS[3]
    g = Game(KINGDOM, players=2, seed=0)
    eleven = {0: ["Copper"] * 7 + ["Silver"] * 4 + ["Smithy"]}  # 11 Treasures, 1 Smithy
    g.set_scenario(discards=eleven, phase="buying", coins=4)
    assert bot_action(smithy, g) == "Silver"  # 1 < 11/11 is false
    twelve = {0: ["Copper"] * 7 + ["Silver"] * 5 + ["Smithy"]}
    g.set_scenario(discards=twelve, phase="buying", coins=4)
    assert bot_action(smithy, g) == "Smithy"  # 1 < 12/11


def test_a_bot_with_every_kind_of_rule_plays_whole_games():
    from dominion_env.analysis.arena import play_games
    from dominion_env.engine.layout import TRUNCATED

    gains = [
        ("Province", "money > 15"),
        ("Minion", "count('Minion') < 1 + count('Treasure') / 4"),
        ("Chapel", "count('Chapel') == 0 and turn <= 2"),
        "Gold",
        "Silver",
    ]
    plain = Bot("Minion/Chapel plain", gains)
    ruled = Bot(
        "Minion/Chapel ruled",
        gains,
        play=["Minion", ("Chapel", "hand('Estate') + hand('Copper') >= 2")],
        trash=["Curse", "Estate", ("Copper", "money > 6"), "PASS"],
        discard=["Curse", "Estate", "Chapel"],
        choose=[("Minion option 0", "hand('Minion') > 0 or coins + 2 >= 8 or hand() >= 5")],
    )
    kingdom = KINGDOM
    a = play_games(compile_bots([plain, "Big Money"]), 200, 2, kingdom=kingdom, seed=9)
    b = play_games(compile_bots([ruled, "Big Money"]), 200, 2, kingdom=kingdom, seed=9)
    assert (b.status != TRUNCATED).sum() >= 198  # finished, not truncated
    assert (a.reward != b.reward).any()  # the play rules were asked and changed games


def test_peer_smithy_is_as_strong_as_the_peers_say():
    """DominionSim reports its Smithy bot wins about 93.8% against Big Money; ours, written
    rule for rule, won 93.2% of 4,000 games (seed 2026). 600 games on a fixed seed: the
    threshold is far below the 95% interval's lower end (~0.91)."""
    from dominion_env.agents import BOTS, kingdom_for
    from dominion_env.analysis.arena import play_games, summarize

    smithy, bm = PEERS[3], BOTS["Big Money"]
    res = play_games(compile_bots([smithy, bm]), 600, 2, kingdom=kingdom_for([smithy, bm]), seed=11)
    row = summarize(res, [smithy.name, bm.name])[0]
    assert row["wins"] / row["games"] > 0.85, row


def test_choose_rules_answer_a_victim_too():
    """Torturer's victim chooses: the rule is the victim's bot's, about its own hand."""
    kingdom = ["Torturer" if c == "Minion" else c for c in KINGDOM]
    g = Game(kingdom, players=2, seed=0)
    g.set_scenario(
        hands={0: ["Torturer"], 1: ["Gold", "Gold", "Province", "Province", "Copper"]},
        decks={0: ["Copper"] * 5},
        phase="action",
    )
    g.step("Torturer")
    assert g.current_player == 1 and g.legal_actions() == ["option 0", "option 1"]
    assert bot_action(Bot("p", ["Silver"]), g) == "option 0"  # default: discard 2
    curse = Bot("c", ["Silver"], choose=[("Torturer option 1", "hand('Gold') >= 2")])
    assert bot_action(curse, g) == "option 1"
    assert (
        bot_action(Bot("c", ["Silver"], choose=["Minion option 0"]), g) == "option 0"
    )  # not its card
