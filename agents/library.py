"""Named bots. Each says whose definition it follows (``source``).

The main references are the bots shipped with the two public Dominion simulators:

* Dominiate (rspeer/dominiate, ``strategies/*.coffee``): ``gainPriority`` lists;
* Geronimoo's Dominion simulator (``DomBots.xml``): ``<buy>`` rules with conditions, including
  the "optimized single card" Big Money bots by WanderingWinder and HiveMindEmulator.

Translation conventions (the same for every bot below):

* Colony/Platinum rules are dropped (no Prosperity here). Dominiate's
  ``"Province" if state.countInSupply("Colony") <= 6`` is then always true: a plain Province.
* ``my.countInDeck(X)`` / ``countCardsInDeck`` -> ``count X`` (every card owned);
  ``state.gainsToEndGame()`` / ``gainsNeededToEndGame`` -> ``gains_to_end`` (the same
  definition: Provinces left, or the three smallest piles); ``countCardsInSupply`` -> ``pile``;
  ``my.coins`` / ``countAvailableMoney`` -> ``coins``; ``turnsTaken`` (counts the turn in
  progress) -> ``turn``; ``numCardsInDeck`` -> ``cards``; ``countCardTypeInDeck("Treasure")`` ->
  ``treasure_cards``; ``getTotalMoney`` -> ``money``. Our ``money`` counts Treasures only;
  Dominiate's sums the printed $ of every card, Actions included: of the bots below only
  Chancellor (+$2) owns such an Action, and its rule adds the 2 back.
* Older bots write a ratio such as ``count Courtyard < treasure_cards / 8`` as a ladder
  ``count == k and treasure_cards > 8k`` for the realistic k (exact up to the last rung), from
  before the language compared two quantities (``agents.language``); they play as measured.
* Only gains are scripted here. Every other decision (what Chapel trashes, Minion/Torturer/Nobles
  options, Baron's Estate, Militia discards...) is the engine's default play
  (``dominion_env.engine.bots``), not the reference bot's own rules; the language's play rules
  (``Bot(play=, trash=, discard=, choose=)``) can now say them.
"""

from __future__ import annotations

import difflib

import numpy as np

from ..engine.bots import BotTable
from ..game import Game
from ..names import action_name
from .strategy import Bot, compile_table

# Dominiate's endgame ladder, used by most of its bots:
#   "Duchy" if 0 < gainsToEndGame <= 5, "Estate" if 0 < gainsToEndGame <= 2
_DUCHY5 = ("Duchy", "gains_to_end > 0", "gains_to_end <= 5")
_ESTATE2 = ("Estate", "gains_to_end > 0", "gains_to_end <= 2")


def _greening(measure="pile Province", late=6):
    """Big Money Ultimate's greening, shared by most money bots: Duchy when ``measure`` (the
    Provinces left, or the gains that end the game) is at most 4, Estate at most 2, else Gold,
    and Duchy again at most ``late``."""
    return [
        ("Duchy", f"{measure} <= 4"),
        ("Estate", f"{measure} <= 2"),
        "Gold",
        ("Duchy", f"{measure} <= {late}"),
    ]


# Geronimoo/WanderingWinder "optimized single card" ladder (Province needs a Gold first).
_GOLD_PROVINCE = ("Province", "count Gold > 0")

_LIST = [
    Bot("Random", random=True, source="uniform over the legal actions at every decision"),
    Bot(
        "Big Money",
        ["Province", "Gold", "Silver"],
        source="the canonical Big Money: Province at $8+, Gold at $6-7, Silver at $3-5 "
        "(Geronimoo's 'Basic Big Money')",
    ),
    Bot(
        "Big Money Ultimate",
        [
            ("Province", "money > 18"),
            *_greening(),
            "Silver",
        ],
        source="Dominiate's BigMoney Ultimate (BMU), WanderingWinder's optimised Big Money",
    ),
    Bot(
        "Smithy",
        [
            ("Province", "money > 15"),
            *_greening(),
            ("Smithy", "count Smithy < 1"),
            ("Smithy", "count Smithy < 2", "cards >= 16"),
            "Silver",
        ],
        source="Smithy Big Money: BMU plus a Smithy once the deck can carry it (Geronimoo's "
        "HiveMindEmulator 'Smithy' thresholds, Dominiate's BigSmithy Smithy rules)",
    ),
    # --- attacks --------------------------------------------------------------------------
    Bot(
        "Double Witch",
        [
            _GOLD_PROVINCE,
            ("Witch", "count Witch < 2"),
            _DUCHY5,
            _ESTATE2,
            "Gold",
            "Silver",
        ],
        source="Dominiate's DoubleWitch (strategies/DoubleWitch.coffee), Colony rules dropped",
    ),
    Bot(
        "Single Witch",
        [
            _GOLD_PROVINCE,
            ("Witch", "count Witch == 0"),
            _DUCHY5,
            _ESTATE2,
            "Gold",
            "Silver",
        ],
        source="Dominiate's SingleWitch (strategies/SingleWitch.coffee), Colony rules dropped",
    ),
    Bot(
        "Chapel/Witch",
        [
            "Province",
            ("Witch", "count Witch == 0"),
            _DUCHY5,
            _ESTATE2,
            "Gold",
            ("Chapel", "coins <= 3", "count Chapel == 0", "turn <= 2"),
            "Silver",
            ("Copper", "gains_to_end <= 3"),
        ],
        source="Dominiate's ChapelWitch (strategies/ChapelWitch.coffee); what Chapel trashes is "
        "the engine's default, not Dominiate's wantsToTrash",
    ),
    Bot(
        "Moneylender/Witch",
        [
            _GOLD_PROVINCE,
            ("Witch", "count Witch < 2"),
            _DUCHY5,
            _ESTATE2,
            "Gold",
            ("Moneylender", "count Moneylender == 0"),
            "Silver",
        ],
        source="Dominiate's MoneylenderWitch (strategies/MoneylenderWitch.coffee)",
    ),
    Bot(
        "Militia",
        [
            "Province",
            _DUCHY5,
            ("Militia", "count Militia < 1"),
            _ESTATE2,
            "Gold",
            "Silver",
            ("Copper", "gains_to_end <= 3"),
        ],
        source="Dominiate's DoubleMilitia with one Militia instead of two (the "
        "SingleWitch/DoubleWitch pattern); Geronimoo's 'Militia' bot buys up to three",
    ),
    Bot(
        "Double Militia",
        [
            "Province",
            _DUCHY5,
            ("Militia", "count Militia < 2"),
            _ESTATE2,
            "Gold",
            "Silver",
            ("Copper", "gains_to_end <= 3"),
        ],
        source="Dominiate's DoubleMilitia (strategies/DoubleMilitia.coffee)",
    ),
    # Geronimoo's 'Torturer/Village' (a Torturer chain fed by Villages, Province only with 4+
    # Torturers) was the model until its mirrors were measured: once 3-6 players split the
    # pile no seat gets a 4th Torturer, so no one buys a Province and 97-100% of its 3-6
    # player mirrors (26% at 2 players) hit the turn limit. Two Torturers and Big Money is the
    # terminal-draw rule of thumb; it scores 86% against BMU and 58% against Smithy (2,000
    # games each, 2 players), and its mirrors end (test_bots: mirrors end).
    Bot(
        "Torturer",
        [
            ("Province", "money > 15"),
            *_greening(),
            ("Torturer", "count Torturer < 2"),
            "Silver",
        ],
        source="Torturer Big Money: BMU's greening plus two Torturers (the single-card template "
        "of WanderingWinder's optimised bots; Smithy's Province threshold)",
    ),
    Bot(
        "Minion/Chapel",
        [
            ("Province", "count Minion > 5"),
            _GOLD_PROVINCE,
            ("Duchy", "pile Province <= 4"),
            ("Estate", "pile Province <= 1"),
            "Minion",
            ("Chapel", "count Chapel < 1"),
            "Gold",
            ("Silver", "count Minion < 1"),
        ],
        source="Geronimoo's 'Minions/Chapel' (DomBots.xml); Minion's option and Chapel's "
        "trashing are the engine's defaults",
    ),
    Bot(
        "Bureaucrat",
        [
            _GOLD_PROVINCE,
            ("Duchy", "pile Province <= 5"),
            ("Estate", "pile Province <= 2"),
            "Gold",
            ("Duchy", "pile Province <= 6"),
            ("Bureaucrat", "count Bureaucrat == 0"),
            # Bureaucrat if count < treasure / 20
            ("Bureaucrat", "count Bureaucrat == 1", "treasure_cards > 20"),
            "Silver",
        ],
        source="WanderingWinder's optimised 'Bureaucrat' (Geronimoo's DomBots.xml); "
        "'count < treasure/20' as a ladder",
    ),
    Bot(
        "Saboteur",
        [
            "Province",
            ("Duchy", "pile Province <= 5"),
            ("Estate", "pile Province <= 2"),
            "Gold",
            ("Saboteur", "count Saboteur < 2"),
            "Silver",
        ],
        source="Geronimoo's 'Saboteur' (DomBots.xml)",
    ),
    # --- draw and money ---------------------------------------------------------------------
    Bot(
        "Laboratory",
        [
            _GOLD_PROVINCE,
            ("Duchy", "pile Province <= 4"),
            ("Estate", "pile Province <= 2"),
            "Gold",
            "Laboratory",
            "Silver",
        ],
        source="Geronimoo's 'Laboratory' (DomBots.xml)",
    ),
    Bot(
        "Council Room",
        [
            _GOLD_PROVINCE,
            *_greening(),
            ("Council Room", "count Council Room == 0"),
            # Council Room if count < money / 13
            ("Council Room", "count Council Room == 1", "money > 13"),
            ("Council Room", "count Council Room == 2", "money > 26"),
            "Silver",
        ],
        source="WanderingWinder's optimised 'Council Room' (Geronimoo's DomBots.xml); "
        "'count < money/13' as a ladder",
    ),
    Bot(
        "Library",
        [
            "Province",
            _DUCHY5,
            _ESTATE2,
            "Gold",
            "Library",
            "Silver",
        ],
        source="Dominiate's BM Library (strategies/BM_Library.coffee)",
    ),
    Bot(
        "Courtyard",
        [
            _GOLD_PROVINCE,
            *_greening("gains_to_end", late=5),
            ("Silver", "count Silver == 0"),
            ("Courtyard", "count Courtyard == 0"),
            # Courtyard if count < treasure / 8
            ("Courtyard", "count Courtyard == 1", "treasure_cards > 8"),
            ("Courtyard", "count Courtyard == 2", "treasure_cards > 16"),
            ("Courtyard", "count Courtyard == 3", "treasure_cards > 24"),
            "Silver",
            ("Courtyard", "count Courtyard <= 1"),
        ],
        source="Dominiate's OBM Courtyard by HiveMindEmulator (strategies/OBM_Courtyard.coffee); "
        "'count < treasure/8' as a ladder up to 4 Courtyards",
    ),
    Bot(
        "Masquerade",
        [
            "Province",
            "Gold",
            ("Duchy", "gains_to_end <= 5"),
            ("Masquerade", "count Masquerade == 0"),
            "Silver",
        ],
        source="Dominiate's BM Masquerade by ehunt (strategies/BM_Masquerade.coffee)",
    ),
    Bot(
        "Single Baron",
        [
            "Province",
            _DUCHY5,
            _ESTATE2,
            "Gold",
            ("Baron", "count Baron == 0"),
            "Silver",
            ("Copper", "gains_to_end <= 2"),
        ],
        source="Dominiate's SingleBaron (strategies/SingleBaron.coffee) gainPriority; its "
        "discardPriority is the engine's default (an Estate goes to Baron)",
    ),
    Bot(
        "Moneylender",
        [
            ("Province", "money > 18"),
            *_greening(),
            ("Moneylender", "count Moneylender == 0"),
            "Silver",
        ],
        source="BMU plus one Moneylender, the template of WanderingWinder's single-card bots "
        "(Geronimoo's DomBots.xml has no Moneylender-only bot; Dominiate's pairs it with "
        "Witch, see Moneylender/Witch)",
    ),
    Bot(
        "Nobles",
        [
            "Province",
            ("Duchy", "gains_to_end <= 4"),
            ("Estate", "gains_to_end <= 2"),
            ("Nobles", "count Nobles < 1"),
            ("Nobles", "gains_to_end <= 6"),
            "Gold",
            "Silver",
            ("Copper", "gains_to_end <= 2"),
        ],
        source="Dominiate's OBM Nobles (strategies/OBM_Nobles.coffee); Nobles' option is the "
        "engine's default",
    ),
    Bot(
        "Costume Party",
        [
            ("Province", "count Nobles > 0"),
            ("Duchy", "pile Province <= 2"),
            ("Nobles", "count Gold > 0"),
            ("Estate", "pile Province <= 2"),
            "Gold",
            ("Masquerade", "count Masquerade < 1"),
            "Silver",
        ],
        source="Geronimoo's 'Costume Party' (DomBots.xml): Masquerade to a quick Gold, then Nobles",
    ),
    Bot(
        "Adventurer",
        [
            _GOLD_PROVINCE,
            ("Duchy", "pile Province <= 4"),
            ("Estate", "pile Province <= 2"),
            ("Adventurer", "pile Gold > 0", "count Adventurer == 0"),
            "Gold",
            ("Duchy", "pile Province <= 5"),
            "Silver",
        ],
        source="Dominiate's OBM Adventurer by WanderingWinder (strategies/OBM_Adventurer.coffee)",
    ),
    Bot(
        "Chancellor",
        [
            ("Province", "money > 18"),
            ("Province", "money > 16", "count Chancellor >= 1"),  # Dominiate counts its +$2
            *_greening("gains_to_end"),
            ("Chancellor", "count Chancellor < 1"),
            "Silver",
        ],
        source="Dominiate's OBM Chancellor (strategies/OBM_Chancellor.coffee); its money > 18 "
        "counts Chancellor's +$2, hence the second Province rule",
    ),
    Bot(
        "Coppersmith",
        [
            ("Province", "money > 18"),
            *_greening("gains_to_end"),
            ("Coppersmith", "cards == 10", "coins == 5"),
            "Silver",
        ],
        source="Dominiate's OBM Coppersmith by HiveMindEmulator "
        "(strategies/OBM_Coppersmith.coffee): Coppersmith only on a 5/2 opening",
    ),
    Bot(
        "Bridge",
        [
            _GOLD_PROVINCE,
            *_greening("gains_to_end"),
            # Bridge if count <= treasure / 10
            ("Bridge", "count Bridge == 0"),
            ("Bridge", "count Bridge == 1", "treasure_cards >= 10"),
            ("Bridge", "count Bridge == 2", "treasure_cards >= 20"),
            ("Bridge", "count Bridge == 3", "treasure_cards >= 30"),
            "Silver",
        ],
        source="Dominiate's OBM Bridge by WanderingWinder (strategies/OBM_Bridge.coffee), "
        "Bazaar dropped; 'count <= treasure/10' as a ladder",
    ),
    Bot(
        "Festival",
        [
            _GOLD_PROVINCE,
            *_greening(),
            "Festival",
            "Silver",
        ],
        source="WanderingWinder's optimised 'Festival' (Geronimoo's DomBots.xml)",
    ),
    Bot(
        "Moat",
        [
            ("Province", "money > 16"),
            *_greening(),
            ("Moat", "treasure_cards >= 10", "count Moat == 0"),
            "Silver",
            ("Moat", "count Moat < 2"),
        ],
        source="HiveMindEmulator's optimised 'Moat' (Geronimoo's DomBots.xml)",
    ),
    Bot(
        "Harem",
        [
            ("Province", "money > 22"),
            ("Duchy", "pile Province <= 2"),
            ("Harem", "pile Province <= 6"),
            ("Harem", "money >= 22"),
            *_greening(late=5),
            "Silver",
        ],
        source="WanderingWinder's optimised 'Harem' (Geronimoo's DomBots.xml; its thresholds "
        "'getTotalMoney > 11 x 2' read as money > 22)",
    ),
    # --- alternative victory ------------------------------------------------------------------
    Bot(
        "Workshop/Gardens",
        [
            ("Gardens", "count Workshop > 8"),
            ("Gardens", "pile Workshop == 0"),
            "Workshop",
            "Estate",
            "Silver",
            "Copper",
        ],
        source="Geronimoo's 'Workshop/Gardens' (DomBots.xml): nine Workshops, then Gardens; "
        "Workshop's gains follow the same list. Added: Gardens once the Workshop pile is "
        "empty (the original never starts on Gardens when an opponent took 2+ Workshops)",
    ),
    Bot(
        "Bureaucrat/Gardens",
        [
            ("Gardens", "count Bureaucrat > 4"),
            ("Gardens", "pile Bureaucrat == 0"),
            ("Province", "pile Gardens == 0"),
            ("Duchy", "pile Gardens == 0"),
            ("Estate", "pile Gardens == 0"),
            "Bureaucrat",
            "Silver",
            "Copper",
        ],
        source="Geronimoo's 'Bureaucrat/Gardens' (DomBots.xml): five Bureaucrats, then "
        "Gardens, then green once Gardens are gone. Added: Gardens once the Bureaucrat pile "
        "is empty (as in Workshop/Gardens)",
    ),
    Bot(
        "Duke",
        [
            ("Duchy", "money >= 14"),
            ("Province", "pile Duchy == 0", "count Duchy < 7"),
            ("Duke", "pile Duchy == 0"),
            ("Estate", "pile Duke <= 3"),
            "Gold",
            "Silver",
            "Copper",
        ],
        source="WanderingWinder's optimised 'Duke' (Duchy/Duke, no Actions; Geronimoo's "
        "DomBots.xml)",
    ),
]

BOTS: dict[str, Bot] = {b.name: b for b in _LIST}
_BY_KEY = {b.name.casefold(): b for b in _LIST}  # names are matched ignoring case
assert len(_BY_KEY) == len(_LIST), "bot names must be unique, ignoring case"


def unknown_name(kind: str, name, known) -> str:
    """The error text for an unknown ``kind`` (e.g. "bot") ``name``: the closest of ``known``
    as a "did you mean" suggestion (``difflib``, ignoring case), then every known name."""
    keys = {k.casefold(): k for k in known}
    close = difflib.get_close_matches(str(name).casefold(), list(keys), n=3, cutoff=0.6)
    hint = f" Did you mean {' or '.join(repr(keys[c]) for c in close)}?" if close else ""
    return f"unknown {kind} {name!r}.{hint} Known {kind}s: {', '.join(known)}"


def get_bot(name: str) -> Bot:
    """The library bot called ``name``, ignoring case; ValueError with suggestions if none."""
    if not isinstance(name, str):
        raise TypeError(f"a bot name is a string, got {name!r}")
    try:
        return _BY_KEY[name.casefold()]
    except KeyError:
        raise ValueError(unknown_name("bot", name, list(BOTS))) from None


def as_bot(bot) -> Bot:
    """A ``Bot`` from a Bot or a library name."""
    if isinstance(bot, Bot):
        return bot
    if isinstance(bot, str):
        return get_bot(bot)
    raise TypeError(f"a bot is a Bot or a library bot name, got {bot!r}")


def compile_bots(bots) -> BotTable:
    """The compiled table the engine plays (``VecGame(opponents=...)``, arena, tournaments):
    ``bots`` is one bot or a list, each a ``Bot`` or a library name; bot id = list position."""
    if isinstance(bots, (str, Bot)):
        bots = [bots]
    return compile_table([as_bot(b) for b in bots])


def bot_action(bot, game: Game, seed: int = 0) -> str:
    """The action ``bot`` (a Bot or a library name) would take now in ``game``, by name.

    The bot answers for whoever decides now; a random bot draws from a stream seeded ``seed``.
    Nothing is played: pass the answer to ``game.step`` to play it."""
    table = compile_bots(bot)
    rng = np.full(1, np.uint64(seed * 0x9E3779B97F4A7C15 % (1 << 64) | 1), np.uint64)
    return action_name(game.bot_action_id(table, 0, rng))


# The library from strongest to weakest: Elo order of ``bench/rank_bots.py --games 2000 --seed 1``
# (a round robin, each table on a kingdom holding its bots' cards), measured 2026-11-25.
STRENGTH_ORDER = (
    "Workshop/Gardens",
    "Double Witch",
    "Moneylender/Witch",
    "Chapel/Witch",
    "Single Witch",
    "Bureaucrat/Gardens",
    "Torturer",
    "Costume Party",
    "Duke",
    "Smithy",
    "Council Room",
    "Courtyard",
    "Nobles",
    "Double Militia",
    "Library",
    "Militia",
    "Masquerade",
    "Moat",
    "Bureaucrat",
    "Harem",
    "Laboratory",
    "Bridge",
    "Chancellor",
    "Single Baron",
    "Moneylender",
    "Festival",
    "Adventurer",
    "Saboteur",
    "Coppersmith",
    "Big Money Ultimate",
    "Minion/Chapel",
    "Big Money",
    "Random",
)


def strongest_bot_for(kingdom) -> Bot:
    """The strongest library bot (``STRENGTH_ORDER``) whose cards are all in ``kingdom``."""
    have = set(kingdom)
    for name in STRENGTH_ORDER:
        if set(BOTS[name].kingdom_cards()) <= have:
            return BOTS[name]
    raise AssertionError("Big Money needs no kingdom card")
