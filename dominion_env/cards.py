"""The card table: every card the engine knows, as data.

One row per card, in card-id order. The id of a card is its row index and is the index of
"this card" in the action space, so this order is part of the public interface: appending
cards is a minor change, reordering is a breaking one.

Columns
-------
name          printed name, the key used by every name-based API
set           "basic", "base2" (Base 2nd edition), "base1" (the six 1st-edition cards),
              "intrigue1" (Intrigue 1st edition)
cost          printed cost in $ (Bridge lowers the *current* cost, never this column)
types         bit set of ACTION | TREASURE | VICTORY | CURSE | ATTACK | REACTION
coin value    $ produced when played as a Treasure
vp            fixed victory points (Curse -1); Gardens/Duke score through ``vp_rule``
vp_rule       VP_FIXED, VP_GARDENS (1 per 10 owned cards), VP_DUKE (1 per owned Duchy)
+cards/+actions/+buys/+coins
              the "vanilla" bonuses printed first on an Action card, applied by one routine
              when the card is played; only what is left gets code (``effect``)
pile          pile-size rule, see ``pile_size``
effect        id of the card's special effect (``EFFECT_NONE`` if the card is fully vanilla)

The array derived from the table (``TABLE``, columns ``COST`` .. ``EFFECT_ID``) is what the
kernels read.
"""

from __future__ import annotations

import numpy as np

ACTION, TREASURE, VICTORY, CURSE, ATTACK, REACTION = 1, 2, 4, 8, 16, 32
TYPE_NAMES = {
    ACTION: "Action",
    TREASURE: "Treasure",
    VICTORY: "Victory",
    CURSE: "Curse",
    ATTACK: "Attack",
    REACTION: "Reaction",
}

VP_FIXED, VP_GARDENS, VP_DUKE = 0, 1, 2

A, T, V, K, AT, R = ACTION, TREASURE, VICTORY, CURSE, ATTACK, REACTION

# name, set, cost, types, coins, vp, vp_rule, +cards, +actions, +buys, +coins, pile, special
# ``special`` says whether the card has an effect beyond the vanilla columns.
_ROWS = [
    # --- basic cards (7) ---
    ("Copper", "basic", 0, T, 1, 0, VP_FIXED, 0, 0, 0, 0, "copper", False),
    ("Silver", "basic", 3, T, 2, 0, VP_FIXED, 0, 0, 0, 0, "silver", False),
    ("Gold", "basic", 6, T, 3, 0, VP_FIXED, 0, 0, 0, 0, "gold", False),
    ("Estate", "basic", 2, V, 0, 1, VP_FIXED, 0, 0, 0, 0, "victory", False),
    ("Duchy", "basic", 5, V, 0, 3, VP_FIXED, 0, 0, 0, 0, "victory", False),
    ("Province", "basic", 8, V, 0, 6, VP_FIXED, 0, 0, 0, 0, "province", False),
    ("Curse", "basic", 0, K, 0, -1, VP_FIXED, 0, 0, 0, 0, "curse", False),
    # --- Base, 2nd edition (26) ---
    ("Cellar", "base2", 2, A, 0, 0, VP_FIXED, 0, 1, 0, 0, "kingdom", True),
    ("Chapel", "base2", 2, A, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Moat", "base2", 2, A | R, 0, 0, VP_FIXED, 2, 0, 0, 0, "kingdom", True),
    ("Harbinger", "base2", 3, A, 0, 0, VP_FIXED, 1, 1, 0, 0, "kingdom", True),
    ("Merchant", "base2", 3, A, 0, 0, VP_FIXED, 1, 1, 0, 0, "kingdom", True),
    ("Vassal", "base2", 3, A, 0, 0, VP_FIXED, 0, 0, 0, 2, "kingdom", True),
    ("Village", "base2", 3, A, 0, 0, VP_FIXED, 1, 2, 0, 0, "kingdom", False),
    ("Workshop", "base2", 3, A, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Bureaucrat", "base2", 4, A | AT, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Gardens", "base2", 4, V, 0, 0, VP_GARDENS, 0, 0, 0, 0, "victory", False),
    ("Militia", "base2", 4, A | AT, 0, 0, VP_FIXED, 0, 0, 0, 2, "kingdom", True),
    ("Moneylender", "base2", 4, A, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Poacher", "base2", 4, A, 0, 0, VP_FIXED, 1, 1, 0, 1, "kingdom", True),
    ("Remodel", "base2", 4, A, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Smithy", "base2", 4, A, 0, 0, VP_FIXED, 3, 0, 0, 0, "kingdom", False),
    ("Throne Room", "base2", 4, A, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Bandit", "base2", 5, A | AT, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Council Room", "base2", 5, A, 0, 0, VP_FIXED, 4, 0, 1, 0, "kingdom", True),
    ("Festival", "base2", 5, A, 0, 0, VP_FIXED, 0, 2, 1, 2, "kingdom", False),
    ("Laboratory", "base2", 5, A, 0, 0, VP_FIXED, 2, 1, 0, 0, "kingdom", False),
    ("Library", "base2", 5, A, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Market", "base2", 5, A, 0, 0, VP_FIXED, 1, 1, 1, 1, "kingdom", False),
    ("Mine", "base2", 5, A, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Sentry", "base2", 5, A, 0, 0, VP_FIXED, 1, 1, 0, 0, "kingdom", True),
    ("Witch", "base2", 5, A | AT, 0, 0, VP_FIXED, 2, 0, 0, 0, "kingdom", True),
    ("Artisan", "base2", 6, A, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    # --- Base, 1st-edition cards (6) ---
    ("Chancellor", "base1", 3, A, 0, 0, VP_FIXED, 0, 0, 0, 2, "kingdom", True),
    ("Woodcutter", "base1", 3, A, 0, 0, VP_FIXED, 0, 0, 1, 2, "kingdom", False),
    ("Feast", "base1", 4, A, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Spy", "base1", 4, A | AT, 0, 0, VP_FIXED, 1, 1, 0, 0, "kingdom", True),
    ("Thief", "base1", 4, A | AT, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Adventurer", "base1", 6, A, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    # --- Intrigue, 1st edition (25) ---
    ("Courtyard", "intrigue1", 2, A, 0, 0, VP_FIXED, 3, 0, 0, 0, "kingdom", True),
    ("Pawn", "intrigue1", 2, A, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Secret Chamber", "intrigue1", 2, A | R, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Great Hall", "intrigue1", 3, A | V, 0, 1, VP_FIXED, 1, 1, 0, 0, "victory", False),
    ("Masquerade", "intrigue1", 3, A, 0, 0, VP_FIXED, 2, 0, 0, 0, "kingdom", True),
    ("Shanty Town", "intrigue1", 3, A, 0, 0, VP_FIXED, 0, 2, 0, 0, "kingdom", True),
    ("Steward", "intrigue1", 3, A, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Swindler", "intrigue1", 3, A | AT, 0, 0, VP_FIXED, 0, 0, 0, 2, "kingdom", True),
    ("Wishing Well", "intrigue1", 3, A, 0, 0, VP_FIXED, 1, 1, 0, 0, "kingdom", True),
    ("Baron", "intrigue1", 4, A, 0, 0, VP_FIXED, 0, 0, 1, 0, "kingdom", True),
    ("Bridge", "intrigue1", 4, A, 0, 0, VP_FIXED, 0, 0, 1, 1, "kingdom", True),
    ("Conspirator", "intrigue1", 4, A, 0, 0, VP_FIXED, 0, 0, 0, 2, "kingdom", True),
    ("Coppersmith", "intrigue1", 4, A, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Ironworks", "intrigue1", 4, A, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Mining Village", "intrigue1", 4, A, 0, 0, VP_FIXED, 1, 2, 0, 0, "kingdom", True),
    ("Scout", "intrigue1", 4, A, 0, 0, VP_FIXED, 0, 1, 0, 0, "kingdom", True),
    ("Duke", "intrigue1", 5, V, 0, 0, VP_DUKE, 0, 0, 0, 0, "victory", False),
    ("Minion", "intrigue1", 5, A | AT, 0, 0, VP_FIXED, 0, 1, 0, 0, "kingdom", True),
    ("Saboteur", "intrigue1", 5, A | AT, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Torturer", "intrigue1", 5, A | AT, 0, 0, VP_FIXED, 3, 0, 0, 0, "kingdom", True),
    ("Trading Post", "intrigue1", 5, A, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Tribute", "intrigue1", 5, A, 0, 0, VP_FIXED, 0, 0, 0, 0, "kingdom", True),
    ("Upgrade", "intrigue1", 5, A, 0, 0, VP_FIXED, 1, 1, 0, 0, "kingdom", True),
    ("Harem", "intrigue1", 6, T | V, 2, 2, VP_FIXED, 0, 0, 0, 0, "victory", False),
    ("Nobles", "intrigue1", 6, A | V, 0, 2, VP_FIXED, 0, 0, 0, 0, "victory", True),
]
del A, T, V, K, AT, R

NAMES: tuple[str, ...] = tuple(r[0] for r in _ROWS)
NUM_CARDS = len(NAMES)
ID: dict[str, int] = {name: i for i, name in enumerate(NAMES)}
SETS: tuple[str, ...] = tuple(r[1] for r in _ROWS)
BASIC: tuple[str, ...] = tuple(n for n, s in zip(NAMES, SETS, strict=True) if s == "basic")
KINGDOM: tuple[str, ...] = tuple(n for n, s in zip(NAMES, SETS, strict=True) if s != "basic")
PILE_RULE: tuple[str, ...] = tuple(r[11] for r in _ROWS)
NUM_BASIC = len(BASIC)  # the basic cards come first in the table: ids 0 .. NUM_BASIC-1
KINGDOM_SIZE = 10  # kingdom cards in a game's Supply besides the basic cards

# Effect ids: 0 is "nothing beyond the vanilla columns"; every card with a special effect gets
# its own id, named after the card, in table order.
EFFECT_NONE = 0
EFFECT_NAMES: tuple[str, ...] = ("none",) + tuple(r[0] for r in _ROWS if r[12])
EFFECT: dict[str, int] = {name: i for i, name in enumerate(EFFECT_NAMES)}

COPPER, SILVER, GOLD, ESTATE, DUCHY, PROVINCE, CURSE_ID = (ID[n] for n in BASIC)


# Columns of TABLE, the card table as one (C, NUM_COLUMNS) int64 array that every kernel reads
# (one array rather than a tuple of ten keeps compile times down).
(
    COST,
    TYPES,
    COIN_VALUE,
    VP,
    VP_RULE,
    PLUS_CARDS,
    PLUS_ACTIONS,
    PLUS_BUYS,
    PLUS_COINS,
    EFFECT_ID,
) = range(10)
NUM_COLUMNS = 10

TABLE = np.array(
    [
        [
            r[2],
            r[3],
            r[4],
            r[5],
            r[6],
            r[7],
            r[8],
            r[9],
            r[10],
            EFFECT[r[0]] if r[12] else EFFECT_NONE,
        ]
        for r in _ROWS
    ],
    dtype=np.int64,
)
TABLE.setflags(write=False)


def card_id(name: str) -> int:
    """The id of a card by its printed name; a clear error for anything else."""
    try:
        return ID[name]
    except (KeyError, TypeError):
        key = str(name).lower().replace(" ", "")
        close = [n for n in NAMES if key == n.lower().replace(" ", "")]
        hint = f" Did you mean {close[0]!r}?" if close else ""
        raise ValueError(
            f"unknown card name {name!r}.{hint} Known cards: {', '.join(NAMES)}"
        ) from None


def types_of(name: str) -> tuple[str, ...]:
    t = int(TABLE[card_id(name), TYPES])
    return tuple(label for bit, label in TYPE_NAMES.items() if t & bit)


def pile_size(name: str, players: int) -> int:
    """Cards in the Supply pile at setup (starting decks are not taken from it)."""
    check_players(players)
    rule = PILE_RULE[card_id(name)]
    big = players >= 5
    if rule == "copper":
        return (120 if big else 60) - 7 * players
    if rule == "silver":
        return 80 if big else 40
    if rule == "gold":
        return 60 if big else 30
    if rule == "victory":
        return 8 if players == 2 else 12
    if rule == "province":
        return {2: 8, 3: 12, 4: 12, 5: 15, 6: 18}[players]
    if rule == "curse":
        return 10 * (players - 1)
    return 10


MIN_PLAYERS, MAX_PLAYERS = 2, 6


def end_piles(players: int) -> int:
    """Empty Supply piles that end the game: 3, or 4 with 5-6 players (the rulebook's rule)."""
    return 4 if players >= 5 else 3


def check_players(players) -> int:
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)):
        raise TypeError(f"number of players must be an int, got {type(players).__name__}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"number of players must be 2 to 6, got {players}")
    return int(players)


# What each card does, in a line, for people (``dominion play``'s ``help CARD``, notebooks). The
# numbers repeat the table's columns; a test checks that they agree.
TEXT: dict[str, str] = {
    "Copper": "Treasure: $1.",
    "Silver": "Treasure: $2.",
    "Gold": "Treasure: $3.",
    "Estate": "Victory: 1 VP.",
    "Duchy": "Victory: 3 VP.",
    "Province": "Victory: 6 VP.",
    "Curse": "Curse: -1 VP.",
    "Cellar": "+1 Action. Discard any number of cards, then draw that many.",
    "Chapel": "Trash up to 4 cards from your hand.",
    "Moat": "+2 Cards. Reaction: when another player plays an Attack, you may reveal this from "
    "your hand to be unaffected by it.",
    "Harbinger": "+1 Card, +1 Action. Look through your discard pile; you may put a card from it "
    "onto your deck.",
    "Merchant": "+1 Card, +1 Action. The first time you play a Silver this turn, +$1.",
    "Vassal": "+$2. Discard the top card of your deck; if it is an Action card, you may play it.",
    "Village": "+1 Card, +2 Actions.",
    "Workshop": "Gain a card costing up to $4.",
    "Bureaucrat": "Gain a Silver onto your deck. Each other player reveals a Victory card from "
    "their hand and puts it onto their deck (or reveals a hand with none).",
    "Gardens": "Victory: worth 1 VP per 10 cards you have (round down).",
    "Militia": "+$2. Each other player discards down to 3 cards in hand.",
    "Moneylender": "You may trash a Copper from your hand for +$3.",
    "Poacher": "+1 Card, +1 Action, +$1. Discard a card per empty Supply pile.",
    "Remodel": "Trash a card from your hand. Gain a card costing up to $2 more than it.",
    "Smithy": "+3 Cards.",
    "Throne Room": "You may play an Action card from your hand twice.",
    "Bandit": "Gain a Gold. Each other player reveals the top 2 cards of their deck, trashes a "
    "revealed Treasure other than Copper, and discards the rest.",
    "Council Room": "+4 Cards, +1 Buy. Each other player draws a card.",
    "Festival": "+2 Actions, +1 Buy, +$2.",
    "Laboratory": "+2 Cards, +1 Action.",
    "Library": "Draw until you have 7 cards in hand, skipping any Action cards you choose to; set "
    "those aside, discarding them afterwards.",
    "Market": "+1 Card, +1 Action, +1 Buy, +$1.",
    "Mine": "You may trash a Treasure from your hand. Gain a Treasure to your hand costing up to "
    "$3 more than it.",
    "Sentry": "+1 Card, +1 Action. Look at the top 2 cards of your deck. Trash and/or discard any "
    "number of them. Put the rest back on top in any order.",
    "Witch": "+2 Cards. Each other player gains a Curse.",
    "Artisan": "Gain a card to your hand costing up to $5. Put a card from your hand onto your "
    "deck.",
    "Chancellor": "+$2. You may immediately put your deck into your discard pile.",
    "Woodcutter": "+1 Buy, +$2.",
    "Feast": "Trash this card. Gain a card costing up to $5.",
    "Spy": "+1 Card, +1 Action. Each player (including you) reveals the top card of their deck "
    "and either discards it or puts it back, your choice.",
    "Thief": "Each other player reveals the top 2 cards of their deck. If they revealed any "
    "Treasure cards, they trash one that you choose. You may gain any or all of these trashed "
    "cards. They discard the other revealed cards.",
    "Adventurer": "Reveal cards from your deck until you reveal 2 Treasure cards. Put those "
    "Treasure cards into your hand and discard the other revealed cards.",
    "Courtyard": "+3 Cards. Put a card from your hand onto your deck.",
    "Pawn": "Choose two: +1 Card; +1 Action; +1 Buy; +$1. (The choices must be different.)",
    "Secret Chamber": "Discard any number of cards; +$1 per card discarded. Reaction: when "
    "another player plays an Attack, you may reveal this from your hand; if you do, +2 Cards, "
    "then put 2 cards from your hand on top of your deck.",
    "Great Hall": "+1 Card, +1 Action. Victory: 1 VP.",
    "Masquerade": "+2 Cards. Each player passes a card from their hand to the left at once. Then "
    "you may trash a card from your hand.",
    "Shanty Town": "+2 Actions. Reveal your hand. If you have no Action cards in hand, +2 Cards.",
    "Steward": "Choose one: +2 Cards; or +$2; or trash 2 cards from your hand.",
    "Swindler": "+$2. Each other player trashes the top card of their deck and gains a card with "
    "the same cost that you choose.",
    "Wishing Well": "+1 Card, +1 Action. Name a card, then reveal the top card of your deck. If "
    "it is the named card, put it in your hand.",
    "Baron": "+1 Buy. You may discard an Estate for +$4. If you don't, gain an Estate.",
    "Bridge": "+1 Buy, +$1. All cards (including cards in players' hands) cost $1 less this "
    "turn, but not less than $0.",
    "Conspirator": "+$2. If you've played 3 or more Actions this turn (counting this): +1 Card, "
    "+1 Action.",
    "Coppersmith": "Copper produces an extra $1 this turn.",
    "Ironworks": "Gain a card costing up to $4. If it is an Action card, +1 Action; a Treasure "
    "card, +$1; a Victory card, +1 Card.",
    "Mining Village": "+1 Card, +2 Actions. You may trash this card immediately; if you do, +$2.",
    "Scout": "+1 Action. Reveal the top 4 cards of your deck. Put the revealed Victory cards into "
    "your hand. Put the other cards on top of your deck in any order.",
    "Duke": "Victory: worth 1 VP per Duchy you have.",
    "Minion": "+1 Action. Choose one: +$2; or discard your hand, +4 Cards, and each other player "
    "with at least 5 cards in hand discards their hand and draws 4 cards.",
    "Saboteur": "Each other player reveals cards from the top of their deck until revealing one "
    "costing $3 or more. They trash that card and may gain a card costing at most $2 less than "
    "it. They discard the other revealed cards.",
    "Torturer": "+3 Cards. Each other player chooses one: they discard 2 cards; or they gain a "
    "Curse card, putting it in their hand.",
    "Trading Post": "Trash 2 cards from your hand. If you do, gain a Silver card; put it into "
    "your hand.",
    "Tribute": "The player to your left reveals then discards the top 2 cards of their deck. For "
    "each differently named card revealed, if it is an Action card, +2 Actions; a Treasure card, "
    "+$2; a Victory card, +2 Cards.",
    "Upgrade": "+1 Card, +1 Action. Trash a card from your hand. Gain a card costing exactly $1 "
    "more than it.",
    "Harem": "Treasure: $2. Victory: 2 VP.",
    "Nobles": "Choose one: +3 Cards; or +2 Actions. Victory: 2 VP.",
}
