"""The bot library (``agents.library``): every bot is valid and plays whole games; each bot's
buys in scripted positions are what its rules say; and well-known results are reproduced.

Buy positions are built with ``Game.set_scenario``: the bot's cards are put in its discard pile
(so ``count``/``cards``/``money`` see them), the Supply is overridden where a rule tests a pile or
``gains_to_end``, and the game goes straight to buying with a given $. ``Game.bot_action`` then
says what the bot would buy.

Statistical tests use fixed seeds, so they are deterministic; their thresholds are the lower end
of a 95% Wilson interval and leave a wide margin over the measured rates (see each test).
"""

import sys

import numpy as np
import pytest

from dominion_env import Game
from dominion_env.agents import (
    BOTS,
    bot_action,
    bots_from_toml,
    compile_bots,
    get_bot,
    kingdom_for,
)
from dominion_env.analysis.arena import play_games, summarize, wilson
from dominion_env.cards import BASIC, KINGDOM
from dominion_env.engine.bots import MAX_CONDS, MAX_RULES
from dominion_env.engine.kingdoms import is_implemented
from dominion_env.engine.layout import TRUNCATED
from dominion_env.names import action_name

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser, from PyPI
    import tomli as tomllib

LIBRARY = list(BOTS.values())
SCRIPTED = [b for b in LIBRARY if not b.random]


def ids(bots):
    return [b.name for b in bots]


# ---------------------------------------------------------------------------------------------
# 1. every bot is valid and finishes games
# ---------------------------------------------------------------------------------------------


def test_library_is_large_and_names_are_unique():
    assert len(BOTS) >= 19  # Random, Big Money, BMU, Smithy and 15+ more
    assert len({b.name.lower() for b in LIBRARY}) == len(LIBRARY)
    for b in LIBRARY:
        assert get_bot(b.name) is b
    with pytest.raises(ValueError, match="unknown bot"):
        get_bot("Double Jack")


@pytest.mark.parametrize("bot", LIBRARY, ids=ids(LIBRARY))
def test_bot_is_valid(bot):
    assert bot.source, "every bot says whose definition it follows"
    assert 0 < len(bot.name) <= 20, "names show in tournament tables: keep them short"
    if bot.random:
        return
    assert 0 < len(bot.rules) <= MAX_RULES
    for rule in bot.rules:
        conds = () if isinstance(rule, str) else rule[1:]
        assert len(conds) <= MAX_CONDS
    bot.compiled_rules()  # unknown cards or bad conditions raise
    cards = bot.kingdom_cards()
    if bot.name not in ("Big Money", "Big Money Ultimate"):  # the pure-money benchmarks
        assert cards, "a library bot buys at least one kingdom card"
    for c in cards:
        assert c in KINGDOM and c not in BASIC and is_implemented(c), c
    kingdom = kingdom_for([bot])
    assert len(kingdom) == 10 and set(cards) <= set(kingdom)
    compile_bots([bot])


def match(a, b, n, seed):
    """Summary row of bot a (a Bot or a name) in n 2-player games against bot b on the
    kingdom holding both bots' cards, seats alternating."""
    a, b = (get_bot(x) if isinstance(x, str) else x for x in (a, b))
    res = play_games(compile_bots([a, b]), n, 2, kingdom=kingdom_for([a, b]), seed=seed)
    return summarize(res, [a.name, b.name])[0]


@pytest.mark.parametrize("bot", LIBRARY, ids=ids(LIBRARY))
def test_bot_finishes_games_against_big_money(bot):
    n = 200
    row = match(bot, "Big Money", n, seed=11)
    assert row["games"] == n
    assert row["truncated"] <= 2, row
    assert row["wins"] + row["ties"] + row["losses"] + row["truncated"] == n


MIRROR_GAMES = 400  # per player count: 36 bots x 5 counts x 400 games take a few seconds


@pytest.mark.parametrize("bot", LIBRARY, ids=ids(LIBRARY))
def test_mirror_ends_before_the_turn_limit(bot):
    """A bot against copies of itself ends at least 99% of its games before the turn limit,
    at every player count. (The old Torturer bot bought a Province only with 4+ Torturers,
    which no seat gets once 3-6 players split the pile: 97-100% of those mirrors, and 26% at
    2 players, were truncated. Measured with 4,000 games per count, every bot is at 0% but
    Saboteur, 0.4% at 4 players: its Saboteurs trash Provinces and Golds.)"""
    table = compile_bots([bot])
    kingdom = kingdom_for([bot])
    truncated = {}
    for players in range(2, 7):
        res = play_games(table, MIRROR_GAMES, players, kingdom=kingdom, seed=players)
        truncated[players] = int((res.status == TRUNCATED).sum())
    rates = ", ".join(f"{p} players {k / MIRROR_GAMES:.1%}" for p, k in truncated.items())
    assert max(truncated.values()) <= MIRROR_GAMES // 100, f"{bot.name} mirrors truncated: {rates}"


# ---------------------------------------------------------------------------------------------
# 2. buys in scripted positions
# ---------------------------------------------------------------------------------------------

START = {"Copper": 7, "Estate": 3}  # money 7, 10 cards, 7 Treasures


def owned(extra=None, **over):
    """The starting deck plus ``extra`` (name -> count); keyword overrides replace counts."""
    out = dict(START)
    for k, v in (extra or {}).items():
        out[k] = out.get(k, 0) + v
    out.update(over)
    return {k: v for k, v in out.items() if v}


def buy(bot, coins, extra=None, supply=None, turn=3):
    """What ``bot`` buys with $``coins`` owning START + ``extra``, on its turn ``turn``."""
    g = Game(kingdom_for([bot]), players=2, seed=0)
    g.set_scenario(
        phase="buying",
        coins=coins,
        discards={0: owned(extra)},
        supply=supply,
        turns_taken=[turn - 1, turn - 1],
    )
    assert (g.decision["kind"], g.current_player) == ("buy", 0)
    return bot_action(bot, g)


# bot, $, extra cards owned (on top of 7 Copper 3 Estate), Supply overrides, turn, expected buy
BUYS = [
    ("Big Money", 8, None, None, 3, "Province"),
    ("Big Money", 7, None, None, 3, "Gold"),
    ("Big Money", 3, None, None, 3, "Silver"),
    ("Big Money", 2, None, None, 3, "PASS"),
    ("Big Money Ultimate", 8, None, None, 3, "Gold"),  # money 7: not yet
    ("Big Money Ultimate", 8, {"Gold": 2, "Silver": 3}, None, 3, "Province"),  # money 19
    ("Big Money Ultimate", 5, None, {"Province": 4}, 3, "Duchy"),
    ("Big Money Ultimate", 6, None, {"Province": 4}, 3, "Duchy"),
    ("Big Money Ultimate", 6, None, {"Province": 6}, 3, "Gold"),
    ("Big Money Ultimate", 5, None, {"Province": 6}, 3, "Duchy"),
    ("Big Money Ultimate", 3, None, {"Province": 2}, 3, "Estate"),
    ("Smithy", 4, None, None, 3, "Smithy"),  # 0 Smithies < 7 Treasures / 11
    ("Smithy", 4, {"Smithy": 1}, None, 3, "Silver"),
    ("Smithy", 4, {"Smithy": 1, "Silver": 5}, None, 3, "Smithy"),  # 1 < 12 / 11
    ("Smithy", 4, {"Smithy": 2, "Silver": 5}, None, 3, "Silver"),
    ("Smithy", 8, None, None, 3, "Gold"),  # money 7
    ("Smithy", 8, {"Gold": 2, "Silver": 2}, None, 3, "Province"),  # money 17 > 15
    ("Smithy", 5, None, {"Province": 6}, 3, "Duchy"),
    ("Big Smithy", 4, None, None, 3, "Smithy"),
    ("Big Smithy", 4, {"Smithy": 1}, None, 3, "Silver"),  # 11 cards
    ("Big Smithy", 4, {"Smithy": 1, "Silver": 5}, None, 3, "Smithy"),  # 16 cards
    ("Big Smithy", 4, {"Smithy": 2, "Silver": 5}, None, 3, "Silver"),
    ("Big Smithy", 8, None, None, 3, "Province"),
    ("Big Smithy", 5, None, {"Province": 5}, 3, "Duchy"),
    ("Big Smithy", 0, None, {"Province": 3}, 3, "Copper"),
    ("Double Witch", 5, None, None, 3, "Witch"),
    ("Double Witch", 6, None, None, 3, "Witch"),  # Witch before Gold
    ("Double Witch", 5, {"Witch": 1}, None, 3, "Witch"),
    ("Double Witch", 5, {"Witch": 2}, None, 3, "Silver"),
    ("Double Witch", 6, {"Witch": 2}, None, 3, "Gold"),
    ("Double Witch", 8, {"Witch": 2}, None, 3, "Gold"),  # Province only with a Gold
    ("Double Witch", 8, {"Witch": 2, "Gold": 1}, None, 3, "Province"),
    ("Double Witch", 5, {"Witch": 2}, {"Province": 5}, 3, "Duchy"),
    ("Double Witch", 5, {"Witch": 1}, {"Province": 5}, 3, "Witch"),
    ("Double Witch", 3, {"Witch": 2}, {"Province": 2}, 3, "Estate"),
    ("Single Witch", 5, None, None, 3, "Witch"),
    ("Single Witch", 5, {"Witch": 1}, None, 3, "Silver"),
    ("Single Witch", 8, {"Witch": 1}, None, 3, "Gold"),
    ("Single Witch", 8, {"Witch": 1, "Gold": 1}, None, 3, "Province"),
    ("Chapel/Witch", 2, None, None, 1, "Chapel"),
    ("Chapel/Witch", 3, None, None, 2, "Chapel"),
    ("Chapel/Witch", 4, None, None, 1, "Silver"),  # a Chapel only with $3 or less
    ("Chapel/Witch", 3, None, None, 3, "Silver"),  # ... and only on turns 1-2
    ("Chapel/Witch", 3, {"Chapel": 1}, None, 2, "Silver"),
    ("Chapel/Witch", 5, None, None, 1, "Witch"),
    ("Chapel/Witch", 5, {"Witch": 1}, None, 3, "Silver"),
    ("Chapel/Witch", 8, None, None, 3, "Province"),
    ("Chapel/Witch", 0, None, {"Province": 3}, 3, "Copper"),
    ("Chapel/Witch", 0, None, None, 3, "PASS"),
    ("Moneylender/Witch", 4, None, None, 3, "Moneylender"),
    ("Moneylender/Witch", 4, {"Moneylender": 1}, None, 3, "Silver"),
    ("Moneylender/Witch", 5, None, None, 3, "Witch"),
    ("Moneylender/Witch", 6, {"Witch": 2}, None, 3, "Gold"),
    ("Militia", 4, None, None, 3, "Militia"),
    ("Militia", 4, {"Militia": 2}, None, 3, "Militia"),
    ("Militia", 4, {"Militia": 3}, None, 3, "Silver"),
    ("Militia", 8, None, None, 3, "Gold"),  # Province only with a Gold
    ("Militia", 8, {"Gold": 1}, None, 3, "Province"),
    ("Militia", 5, None, {"Province": 6}, 3, "Duchy"),  # Duchy before Militia
    ("Double Militia", 4, {"Militia": 1}, None, 3, "Militia"),
    ("Double Militia", 4, {"Militia": 2}, None, 3, "Silver"),
    ("Double Militia", 0, None, {"Province": 3}, 3, "Copper"),
    ("Double Militia", 1, None, None, 3, "PASS"),
    ("Torturer", 5, None, None, 3, "Torturer"),
    ("Torturer", 6, None, None, 3, "Gold"),
    ("Torturer", 5, {"Torturer": 1}, None, 3, "Torturer"),
    ("Torturer", 5, {"Torturer": 2}, None, 3, "Silver"),  # two Torturers at most
    ("Torturer", 8, None, None, 3, "Gold"),  # money 7: Province needs money > 15
    ("Torturer", 8, {"Gold": 3}, None, 3, "Province"),  # no Torturer needed for a Province
    ("Torturer", 5, {"Torturer": 2}, {"Province": 4}, 3, "Duchy"),
    ("Torturer", 2, None, {"Province": 2}, 3, "Estate"),
    ("Torturer", 2, None, None, 3, "PASS"),
    ("Minion", 5, None, None, 3, "Minion"),
    ("Minion", 6, None, None, 3, "Gold"),
    ("Minion", 8, None, None, 3, "Gold"),  # money 7, no Minion
    ("Minion", 8, {"Minion": 3}, None, 3, "Province"),
    ("Minion", 8, {"Gold": 2, "Silver": 2}, None, 3, "Province"),  # money 17
    ("Minion", 3, None, None, 3, "Silver"),
    ("Minion", 5, None, {"Province": 6}, 3, "Duchy"),
    ("Minion/Chapel", 5, None, None, 3, "Minion"),
    ("Minion/Chapel", 2, None, None, 1, "Chapel"),
    ("Minion/Chapel", 2, {"Chapel": 1}, None, 2, "PASS"),
    ("Minion/Chapel", 3, None, None, 1, "Silver"),  # a Chapel only on a $2 hand
    ("Minion/Chapel", 8, {"Minion": 3}, None, 3, "Province"),
    ("Bureaucrat", 4, None, None, 3, "Bureaucrat"),
    ("Bureaucrat", 4, {"Bureaucrat": 1}, None, 3, "Silver"),
    ("Bureaucrat", 4, {"Bureaucrat": 1, "Silver": 14}, None, 3, "Bureaucrat"),  # 21 Treasures
    ("Bureaucrat", 8, None, None, 3, "Gold"),
    ("Bureaucrat", 8, {"Gold": 1}, None, 3, "Province"),
    ("Bureaucrat", 5, None, {"Province": 5}, 3, "Duchy"),
    ("Saboteur", 5, None, None, 3, "Saboteur"),
    ("Saboteur", 5, {"Saboteur": 1}, None, 3, "Silver"),
    ("Saboteur", 8, None, None, 3, "Gold"),  # money 7
    ("Saboteur", 8, {"Gold": 2, "Silver": 2}, None, 3, "Province"),
    ("Laboratory", 5, None, None, 3, "Laboratory"),
    ("Laboratory", 6, None, None, 3, "Gold"),
    ("Laboratory", 8, None, None, 3, "Gold"),
    ("Laboratory", 8, {"Gold": 1}, None, 3, "Province"),
    ("Laboratory", 5, None, {"Province": 4}, 3, "Duchy"),
    ("Council Room", 5, None, None, 3, "Council Room"),
    ("Council Room", 5, {"Council Room": 1}, None, 3, "Silver"),  # money 7
    ("Council Room", 5, {"Council Room": 1, "Silver": 4}, None, 3, "Council Room"),  # 15 > 13
    ("Council Room", 5, None, {"Province": 6}, 3, "Duchy"),
    ("Library", 5, None, None, 3, "Library"),
    ("Library", 6, None, None, 3, "Gold"),
    ("Library", 8, None, None, 3, "Province"),
    ("Library", 5, None, {"Province": 5}, 3, "Duchy"),
    ("Courtyard", 2, None, None, 3, "Courtyard"),
    ("Courtyard", 3, None, None, 3, "Silver"),  # a Silver first
    ("Courtyard", 3, {"Silver": 1}, None, 3, "Courtyard"),
    ("Courtyard", 3, {"Silver": 1, "Courtyard": 1}, None, 3, "Silver"),  # 8 Treasures
    ("Courtyard", 3, {"Silver": 2, "Courtyard": 1}, None, 3, "Courtyard"),  # 9 > 8
    ("Courtyard", 2, {"Silver": 1, "Courtyard": 1}, None, 3, "Courtyard"),
    ("Courtyard", 2, {"Silver": 1, "Courtyard": 2}, None, 3, "PASS"),
    ("Courtyard", 5, None, {"Province": 4}, 3, "Duchy"),
    ("Masquerade", 3, None, None, 3, "Masquerade"),
    ("Masquerade", 5, None, None, 3, "Masquerade"),
    ("Masquerade", 3, {"Masquerade": 1}, None, 3, "Silver"),
    ("Masquerade", 8, {"Gold": 1}, None, 3, "Gold"),  # Province needs two Golds
    ("Masquerade", 8, {"Gold": 2}, None, 3, "Province"),
    ("Masquerade", 5, None, {"Province": 5}, 3, "Duchy"),
    ("Single Baron", 4, None, None, 3, "Baron"),
    ("Single Baron", 4, {"Baron": 1}, None, 3, "Silver"),
    ("Single Baron", 2, None, {"Province": 2}, 3, "Estate"),
    ("Single Baron", 0, None, {"Province": 2}, 3, "Copper"),
    ("Baron", 4, None, None, 3, "Baron"),
    ("Baron", 4, {"Baron": 1}, None, 3, "Baron"),
    ("Baron", 4, {"Baron": 2}, None, 3, "Silver"),
    ("Baron", 8, None, None, 3, "Gold"),  # money 7
    ("Baron", 8, {"Gold": 2, "Silver": 2}, None, 3, "Province"),  # money 17
    ("Baron", 5, None, {"Province": 4}, 3, "Duchy"),
    ("Moneylender", 4, None, None, 3, "Moneylender"),
    ("Moneylender", 4, {"Moneylender": 1}, None, 3, "Silver"),
    ("Moneylender", 8, None, None, 3, "Gold"),
    ("Moneylender", 8, {"Gold": 2, "Silver": 2}, None, 3, "Province"),  # money 17
    ("Nobles", 6, None, None, 3, "Nobles"),
    ("Nobles", 6, {"Nobles": 1}, None, 3, "Gold"),
    ("Nobles", 6, {"Nobles": 1}, {"Province": 6}, 3, "Nobles"),
    ("Nobles", 8, None, None, 3, "Province"),
    ("Nobles", 0, None, {"Province": 2}, 3, "Copper"),
    ("Costume Party", 3, None, None, 3, "Masquerade"),
    ("Costume Party", 3, {"Masquerade": 1}, None, 3, "Silver"),
    ("Costume Party", 6, None, None, 3, "Gold"),
    ("Costume Party", 6, {"Gold": 1}, None, 3, "Nobles"),
    ("Costume Party", 8, {"Gold": 1}, None, 3, "Nobles"),  # Province only with Nobles
    ("Costume Party", 8, {"Gold": 1, "Nobles": 1}, None, 3, "Province"),
    ("Adventurer", 6, None, None, 3, "Gold"),  # Adventurer only once a Gold is owned
    ("Adventurer", 6, {"Gold": 1}, None, 3, "Adventurer"),
    ("Adventurer", 6, {"Gold": 1, "Adventurer": 1}, None, 3, "Gold"),
    ("Adventurer", 8, {"Gold": 1}, None, 3, "Province"),
    ("Adventurer", 5, None, {"Province": 5}, 3, "Duchy"),
    ("Chancellor", 3, None, None, 3, "Chancellor"),
    ("Chancellor", 3, {"Chancellor": 1}, None, 3, "Silver"),  # 1 is not < 7 Treasures / 19
    ("Chancellor", 3, {"Chancellor": 1, "Silver": 13}, None, 3, "Chancellor"),  # 1 < 20 / 19
    ("Chancellor", 5, None, {"Province": 4}, 3, "Duchy"),
    ("Chancellor", 8, None, None, 3, "Gold"),
    ("Chancellor", 8, {"Gold": 1}, None, 3, "Province"),
    ("Coppersmith", 4, None, None, 3, "Coppersmith"),
    ("Coppersmith", 4, {"Coppersmith": 1}, None, 3, "Silver"),
    ("Coppersmith", 8, {"Gold": 1}, None, 3, "Province"),
    ("Bridge", 4, None, None, 3, "Bridge"),
    ("Bridge", 4, {"Bridge": 1}, None, 3, "Silver"),  # 7 Treasures
    ("Bridge", 4, {"Bridge": 1, "Silver": 3}, None, 3, "Bridge"),  # 10 Treasures
    ("Bridge", 6, None, None, 3, "Gold"),
    ("Festival", 5, None, None, 3, "Festival"),
    ("Festival", 6, None, None, 3, "Gold"),
    ("Festival", 4, None, None, 3, "Silver"),
    ("Moat", 2, None, None, 3, "Moat"),
    ("Moat", 3, None, None, 3, "Silver"),
    ("Moat", 3, {"Silver": 3}, None, 3, "Moat"),  # 10 Treasures
    ("Moat", 2, {"Moat": 2}, None, 3, "PASS"),
    ("Moat", 8, None, None, 3, "Gold"),  # money 7 is not > 16
    ("Harem", 6, None, None, 3, "Gold"),
    ("Harem", 6, None, {"Province": 6}, 3, "Harem"),
    ("Harem", 6, {"Gold": 3, "Silver": 3}, None, 3, "Harem"),  # money 22
    ("Harem", 8, {"Gold": 4, "Silver": 2}, None, 3, "Province"),  # money 23
    ("Workshop/Gardens", 4, None, None, 3, "Workshop"),
    ("Workshop/Gardens", 4, {"Workshop": 8}, None, 3, "Workshop"),
    ("Workshop/Gardens", 4, {"Workshop": 9}, None, 3, "Gardens"),
    ("Workshop/Gardens", 4, {"Workshop": 2}, {"Workshop": 0}, 3, "Gardens"),
    ("Workshop/Gardens", 8, {"Workshop": 9}, {"Gardens": 0}, 3, "Workshop"),
    ("Workshop/Gardens", 2, None, None, 3, "Estate"),
    ("Workshop/Gardens", 1, None, None, 3, "Copper"),
    ("Bureaucrat/Gardens", 4, None, None, 3, "Bureaucrat"),
    ("Bureaucrat/Gardens", 4, {"Bureaucrat": 5}, None, 3, "Gardens"),
    ("Bureaucrat/Gardens", 8, None, None, 3, "Bureaucrat"),
    ("Bureaucrat/Gardens", 8, None, {"Gardens": 0}, 3, "Province"),
    ("Bureaucrat/Gardens", 5, None, {"Gardens": 0}, 3, "Duchy"),
    ("Bureaucrat/Gardens", 3, None, None, 3, "Silver"),
    ("Duke", 5, None, None, 3, "Silver"),  # money 7
    ("Duke", 5, {"Silver": 4}, None, 3, "Duchy"),  # money 15
    ("Duke", 5, None, {"Duchy": 0}, 3, "Duke"),
    ("Duke", 8, None, {"Duchy": 0}, 3, "Province"),
    ("Duke", 6, None, None, 3, "Gold"),
    ("Duke", 2, None, {"Duke": 3}, 3, "Estate"),
]


@pytest.mark.parametrize(
    "name,coins,extra,supply,turn,expected",
    BUYS,
    ids=[f"{r[0]}-${r[1]}-{i}" for i, r in enumerate(BUYS)],
)
def test_buy(name, coins, extra, supply, turn, expected):
    assert buy(get_bot(name), coins, extra, supply, turn) == expected


def test_every_scripted_bot_has_buy_tests():
    assert {b.name for b in SCRIPTED} <= {row[0] for row in BUYS}


def gain_with(bot, card, extra):
    """What ``bot`` gains when it plays ``card`` (a gainer) owning START + ``extra``."""
    g = Game(kingdom_for([bot]), players=2, seed=0)
    g.set_scenario(hands={0: [card]}, discards={0: owned(extra)}, decks={0: ["Copper"] * 5})
    g.step(card)
    assert (g.decision["kind"], g.decision["source"]) == ("gain", card)
    return bot_action(bot, g)


def test_workshop_gains_follow_the_priority_list():
    bot = get_bot("Workshop/Gardens")
    assert gain_with(bot, "Workshop", {"Workshop": 8}) == "Gardens"  # 9 with the one played
    assert gain_with(bot, "Workshop", {"Workshop": 7}) == "Workshop"


def test_random_bot_answers_a_legal_action():
    g = Game(kingdom_for([get_bot("Smithy")]), players=2, seed=0)
    g.set_scenario(phase="buying", coins=5)
    for seed in range(20):
        assert bot_action("Random", g, seed=seed) in g.legal_actions()


# ---------------------------------------------------------------------------------------------
# 3. well-known results
# ---------------------------------------------------------------------------------------------


def head_to_head(a, b, n, seed):
    """Bot a against bot b, 2 players, their kingdom, seats alternating: (row of a, its
    decisive win rate wins / (wins + losses) with its 95% Wilson interval)."""
    row = match(a, b, n, seed)
    decided = row["wins"] + row["losses"]
    return row, row["wins"] / decided, wilson(row["wins"], decided)


def test_smithy_beats_big_money():
    row, rate, (lo, hi) = head_to_head("Smithy", "Big Money", 10_000, seed=2024)
    # measured: 9,345 wins, 128 ties, 527 losses: 0.947 of decided games, CI [0.942, 0.951]
    # (DominionSim reports about 93.8% for its Smithy bot)
    assert lo > 0.5 and lo > 0.85, (row, rate, lo)


def test_smithy_beats_big_money_ultimate():
    row, rate, (lo, hi) = head_to_head("Smithy", "Big Money Ultimate", 10_000, seed=2024)
    # measured: 7,324 wins, 557 ties, 2,119 losses: 0.776, CI [0.767, 0.784]
    assert lo > 0.6, (row, rate, lo)


def test_double_witch_beats_big_money_ultimate():
    row, rate, (lo, hi) = head_to_head("Double Witch", "Big Money Ultimate", 10_000, seed=2024)
    # measured: 9,408 wins, 71 ties, 521 losses: 0.948, CI [0.943, 0.952]
    assert lo > 0.85, (row, rate, lo)


def test_workshop_gardens_beats_big_money_ultimate():
    row, rate, (lo, hi) = head_to_head("Workshop/Gardens", "Big Money Ultimate", 4_000, seed=2024)
    # measured: 3,863 wins, 0 ties, 137 losses: 0.966, CI [0.960, 0.971]
    assert lo > 0.85, (row, rate, lo)


@pytest.mark.parametrize("bot", SCRIPTED, ids=ids(SCRIPTED))
def test_every_bot_beats_random(bot):
    n = 400
    row = match(bot, "Random", n, seed=7)
    lo, _ = wilson(row["wins"], n)  # sole wins out of all games
    assert lo > 0.95, row


# ---------------------------------------------------------------------------------------------
# 4. the bots rewritten after the peers or with play rules
# ---------------------------------------------------------------------------------------------

# bots whose rules changed when checked against peer simulators (transcriptions, play rules,
# retuned): each compiles, reads back from its TOML, and plays legal actions at every
# decision of whole games
REWRITTEN = [
    "Smithy",
    "Big Smithy",
    "Militia",
    "Minion",
    "Minion/Chapel",
    "Baron",
    "Saboteur",
    "Masquerade",
    "Moneylender",
    "Bureaucrat",
    "Council Room",
    "Courtyard",
    "Chancellor",
    "Coppersmith",
    "Adventurer",
    "Bridge",
    "Single Baron",
    "Duke",
    "Bureaucrat/Gardens",
]


@pytest.mark.parametrize("name", REWRITTEN)
def test_rewritten_bot_reads_back_and_plays_legal_games(name):
    bot = get_bot(name)
    (again,) = bots_from_toml(tomllib.loads(bot.to_toml()))
    assert (again.name, again.source, again.parsed) == (bot.name, bot.source, bot.parsed)
    opponent = get_bot("Big Money Ultimate")
    table = compile_bots([bot, opponent])
    g = Game(kingdom_for([bot, opponent]), players=2, seed=3)
    rng = np.ones(1, np.uint64)
    decisions = 0
    for game in range(2):
        g.reset(3, game)
        while not g.done:
            seat = (g.current_player + game) % 2  # the bot plays seat 0, then seat 1
            action = g.bot_action_id(table, seat, rng)
            assert action_name(action) in g.legal_actions(), (name, g.decision, action)
            g.step(action)
            decisions += 1 if seat == 0 else 0
        assert g.terminated, (name, game)
    assert decisions > 20


def suicide_position(my_extra, opp_extra, turns_taken, provinces=1):
    """Player 0 to buy with $8 owning START + my_extra; player 1 owns START + opp_extra."""
    g = Game(kingdom_for([get_bot("Smithy")]), players=2, seed=0)
    g.set_scenario(
        phase="buying",
        coins=8,
        discards={0: owned(my_extra), 1: owned(opp_extra)},
        supply={"Province": provinces},
        turns_taken=turns_taken,
    )
    assert (g.decision["kind"], g.current_player) == ("buy", 0)
    return g


RICH = {"Gold": 2, "Silver": 2}  # money 17: Smithy's Province rule holds


@pytest.mark.parametrize(
    "opp_extra,turns_taken,provinces,expected",
    [
        ({"Duchy": 3}, [2, 2], 1, "Duchy"),  # 9 VP behind: the last Province still loses
        ({"Duchy": 3}, [2, 2], 2, "Province"),  # not the last one: the game goes on
        ({"Duchy": 1}, [2, 2], 1, "Province"),  # 3 behind: the Province wins
    ],
)
def test_dominionsim_suicide_check(opp_extra, turns_taken, provinces, expected):
    """DominionSim's bots never take the last Province to lose (DomPlayer.suicideIfBuys)."""
    g = suicide_position(RICH, opp_extra, turns_taken, provinces)
    assert bot_action("Smithy", g) == expected
    # Dominiate's bots have no such check
    assert bot_action("Big Smithy", g) == "Province"


def test_suicide_check_reads_the_turn_tie_break():
    """Level after the Province: a tie shared when the turns are equal (the second player),
    lost on the tie-break when the bot has taken one turn more (the first player)."""
    first = suicide_position(RICH, {"Duchy": 2}, [2, 2])  # player 0 on turn 3, player 1 done 2
    assert bot_action("Smithy", first) == "Duchy"
    second = suicide_position(RICH, {"Duchy": 2}, [2, 3])  # player 1 has taken turn 3 too
    assert bot_action("Smithy", second) == "Province"


def minion_hand(hand, extra=None):
    """Player 0 has played a Minion from ``hand`` (plus the Minion) and chooses its option."""
    g = Game(kingdom_for([get_bot("Minion")]), players=2, seed=0)
    g.set_scenario(
        hands={0: ["Minion", *hand]},
        decks={0: ["Copper"] * 5},
        discards={0: owned(extra)},
        phase="action",
    )
    g.step("Minion")
    assert g.legal_actions() == ["option 0", "option 1"]
    return g


@pytest.mark.parametrize(
    "hand,extra,expected",
    [
        (["Minion", "Estate", "Estate", "Estate"], None, "option 0"),  # another Minion follows
        (["Gold", "Gold", "Estate", "Estate"], None, "option 0"),  # $6 + 2 = $8
        (["Silver", "Silver", "Estate", "Estate"], None, "option 0"),  # $6 before a Gold
        (["Silver", "Silver", "Estate", "Estate"], {"Gold": 1}, "option 1"),  # ... not after
        (["Silver", "Copper", "Estate"], None, "option 0"),  # $5 from three cards
        (["Silver", "Copper", "Estate", "Estate"], None, "option 1"),  # four: draw 4
        (["Copper", "Estate", "Estate", "Estate"], None, "option 1"),
    ],
)
def test_minion_choice_rules(hand, extra, expected):
    for name in ("Minion", "Minion/Chapel"):
        assert bot_action(name, minion_hand(hand, extra)) == expected, name


def test_minion_chapel_plays_chapel_only_short_of_five():
    def chapel_game(hand):
        g = Game(kingdom_for([get_bot("Minion/Chapel")]), players=2, seed=0)
        g.set_scenario(hands={0: hand}, decks={0: ["Copper"] * 5}, phase="action")
        return g

    poor = chapel_game(["Chapel", "Copper", "Copper", "Estate", "Estate"])
    assert bot_action("Minion/Chapel", poor) == "Chapel"
    rich = chapel_game(["Chapel", "Silver", "Silver", "Copper", "Estate"])  # $5: buy a Minion
    assert bot_action("Minion/Chapel", rich) == "PASS"  # Chapel waits for a poorer hand
    poor.step("Chapel")
    assert bot_action("Minion/Chapel", poor) == "Estate"  # Estates go while the game is long


def test_single_baron_discards_as_dominiate():
    """Its Baron always takes the Estate; as a Militia victim it keeps an Estate for a Baron
    in hand and gives up Copper, then Silver (Dominiate's discardPriority)."""
    kingdom = kingdom_for([get_bot("Single Baron"), get_bot("Militia")])
    g = Game(kingdom, players=2, seed=0)
    g.set_scenario(
        hands={0: ["Militia"], 1: ["Baron", "Estate", "Copper", "Silver", "Gold"]},
        decks={0: ["Copper"] * 5},
        phase="action",
    )
    g.step("Militia")
    assert g.current_player == 1
    assert bot_action("Single Baron", g) == "Copper"
    g.step("Copper")
    assert bot_action("Single Baron", g) == "Silver"
    assert bot_action("Big Money", g) == "Estate"  # the engine's default
    own = Game(kingdom, players=2, seed=0)
    own.set_scenario(
        hands={0: ["Baron", "Baron", "Estate", "Copper"]}, decks={0: ["Copper"] * 5}, phase="action"
    )
    own.step("Baron")
    assert bot_action("Single Baron", own) == "Estate"
