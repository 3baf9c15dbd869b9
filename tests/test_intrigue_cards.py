"""Scenario tests for the Intrigue card effects (1st edition, all 25 cards).

Each test puts a game in an exact position with ``Game.set_scenario``, answers the decisions the
card asks (checking who decides, the decision kind and the legal actions against the contract in
``dominion_env/engine/intrigue_cards.py`` and the reaction window in ``engine/attacks.py``), then
checks every zone of every player, the trash, the Supply and the turn's Actions/Buys/$.

Games stop at every decision (``auto_resolve=False``) and Treasures are played by hand
(``autoplay_treasures=False``), so a forced decision shows up as a step and $ only changes when a
test plays a Treasure. Rules: /work/shared/rules/004_*.txt (the Intrigue rulebook, with its notes
on every card) wins over CARDS.md.

This file stays whole (over 800 lines): one scenario test per card, in the order of the
set's module it checks.
"""

import numpy as np
import pytest
from scenario import (
    INTRIGUE,
    YES_NO,
    S,
    Scenario,
    card_rows,
    covers,
    exactly,
    kingdom_for,
    play,
    upto,
)

from dominion_env import Game, VecGame
from dominion_env.cards import ID, NAMES
from dominion_env.engine.kingdoms import RECOMMENDED
from dominion_env.engine.layout import DEC_SOURCE, DECK_LEN, SUPPLY, TRASH

# ---------------------------------------------------------------------------------------------
# helpers (the shared ones, as in tests/test_base_cards.py: tests/scenario.py)
# ---------------------------------------------------------------------------------------------

ALL_NAMES = list(NAMES)  # Wishing Well may name any card, in the game or not

OPTS = [f"option {k}" for k in range(6)]
TWO = ["option 0", "option 1"]


# ---------------------------------------------------------------------------------------------
# One scenario per card (and per mode)
# ---------------------------------------------------------------------------------------------

# Pawn: option -> (hand, deck, (Actions, Buys, $), next); the hand holds a Village so that
# a +1 Action shows as a play_action decision.
PAWN = {
    0: (["Village", "Copper"], ["Silver"], (1, 1, 0), "play_action"),  # card + action
    1: (["Village", "Copper"], ["Silver"], (0, 2, 0), "play_treasure"),  # card + buy
    2: (["Village", "Copper"], ["Silver"], (0, 1, 1), "play_treasure"),  # card + $
    3: (["Village"], ["Copper", "Silver"], (1, 2, 0), "play_action"),  # action + buy
    4: (["Village"], ["Copper", "Silver"], (1, 1, 1), "play_action"),  # action + $
    5: (["Village"], ["Copper", "Silver"], (0, 2, 1), "buy"),  # buy + $
}

# Tribute: what the left player reveals -> (Actions, Buys, $ after, P0 draws 2?)
TRIBUTE = [
    (["Copper", "Estate"], (0, 1, 2), True),  # Treasure $2, Victory +2 Cards
    (["Harem", "Copper"], (0, 1, 4), True),  # Harem: $2 and 2 Cards; Copper: $2
    (["Harem", "Harem"], (0, 1, 2), True),  # the same card twice: one bonus
    (["Silver", "Silver"], (0, 1, 2), False),  # the rulebook's example
    (["Silver", "Gold"], (0, 1, 4), False),  # different Treasures: both count
    (["Curse", "Copper"], (0, 1, 2), False),  # Curse: no bonus
    (["Curse", "Curse"], (0, 1, 0), False),
    (["Great Hall", "Village"], (4, 1, 0), True),  # Action-Victory: +2 Actions +2 Cards
    (["Nobles", "Mining Village"], (4, 1, 0), True),
]

# id, setup, steps, expected zones per player (zones left out: as set up), trash,
# Supply changes, (Actions, Buys, $) afterwards, next decision of player 0
CARD_ROWS = [
    (
        "Courtyard",
        dict(
            hands={0: ["Courtyard", "Estate"]}, decks={0: ["Copper", "Silver", "Gold", "Province"]}
        ),
        [
            play("Courtyard"),
            S(
                0,
                "topdeck",
                "Estate",
                legal=["Estate", "Copper", "Silver", "Gold"],
                source="Courtyard",
                can_pass=False,
            ),
        ],
        {
            0: dict(
                hand=["Copper", "Silver", "Gold"],
                deck=["Estate", "Province"],
                in_play=["Courtyard"],
            )
        },
        {},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Courtyard puts back a card it drew",
        dict(
            hands={0: ["Courtyard", "Estate"]}, decks={0: ["Copper", "Silver", "Gold", "Province"]}
        ),
        [play("Courtyard"), S(0, "topdeck", "Gold")],
        {
            0: dict(
                hand=["Estate", "Copper", "Silver"],
                deck=["Gold", "Province"],
                in_play=["Courtyard"],
            )
        },
        {},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    *[
        (
            f"Pawn option {k}",
            dict(hands={0: ["Pawn", "Village"]}, decks={0: ["Copper", "Silver"]}),
            [
                play("Pawn"),
                S(0, "choose", f"option {k}", legal=OPTS, source="Pawn", can_pass=False),
            ],
            {0: dict(hand=hand, deck=deck, in_play=["Pawn"])},
            {},
            {},
            turn,
            nxt,
        )
        for k, (hand, deck, turn, nxt) in PAWN.items()
    ],
    (
        "Secret Chamber play",
        dict(hands={0: ["Secret Chamber", "Estate", "Estate", "Curse", "Copper"]}),
        [
            play("Secret Chamber"),
            S(
                0,
                "discard",
                "Estate",
                legal=["Estate", "Curse", "Copper", "PASS"],
                source="Secret Chamber",
                coins=1,
            ),
            S(0, "discard", "Curse", coins=2),
            S(0, "discard", "Estate", coins=3),
            S(0, "discard", "PASS", legal=["Copper", "PASS"], coins=3),
        ],
        {
            0: dict(
                hand=["Copper"], discard=["Estate", "Estate", "Curse"], in_play=["Secret Chamber"]
            )
        },
        {},
        {},
        (0, 1, 3),
        "play_treasure",
    ),
    (
        "Secret Chamber play discards nothing",
        dict(hands={0: ["Secret Chamber", "Copper"]}),
        [play("Secret Chamber"), S(0, "discard", "PASS", legal=["Copper", "PASS"])],
        {0: dict(hand=["Copper"], in_play=["Secret Chamber"])},
        {},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Secret Chamber Reaction",
        dict(
            hands={0: ["Militia"], 1: ["Secret Chamber", "Copper", "Copper", "Estate", "Estate"]},
            decks={1: ["Silver", "Gold", "Province"]},
        ),
        [
            play("Militia"),
            S(1, "react", "Secret Chamber", legal=["Secret Chamber", "PASS"], source="Militia"),
            S(
                1,
                "topdeck",
                "Estate",
                count=2,
                source="Secret Chamber",
                can_pass=False,
                legal=["Secret Chamber", "Copper", "Estate", "Silver", "Gold"],
            ),
            S(
                1,
                "topdeck",
                "Secret Chamber",
                count=1,
                source="Secret Chamber",
                legal=["Secret Chamber", "Copper", "Estate", "Silver", "Gold"],
            ),
            # its Reaction done, Secret Chamber is on the deck: the Attack hits the new hand
            S(
                1,
                "discard",
                "Estate",
                count=2,
                source="Militia",
                legal=["Copper", "Estate", "Silver", "Gold"],
            ),
            S(1, "discard", "Copper", count=1),
        ],
        {
            0: dict(hand=[], in_play=["Militia"]),
            1: dict(
                hand=["Copper", "Silver", "Gold"],
                deck=["Secret Chamber", "Estate", "Province"],
                discard=["Estate", "Copper"],
            ),
        },
        {},
        {},
        (0, 1, 2),
        "buy",
    ),
    (
        "Great Hall",
        dict(hands={0: ["Great Hall"]}, decks={0: ["Copper", "Estate"]}),
        [play("Great Hall")],
        {0: dict(hand=["Copper"], deck=["Estate"], in_play=["Great Hall"])},
        {},
        {},
        (1, 1, 0),
        "play_treasure",
    ),
    (
        "Masquerade",
        dict(
            hands={0: ["Masquerade", "Estate"], 1: ["Gold", "Copper"]},
            decks={0: ["Silver", "Copper"]},
        ),
        [
            play("Masquerade"),
            S(
                0,
                "pass_card",
                "Estate",
                legal=["Estate", "Silver", "Copper"],
                source="Masquerade",
                can_pass=False,
            ),
            S(
                1,
                "pass_card",
                "Copper",
                legal=["Gold", "Copper"],
                source="Masquerade",
                can_pass=False,
            ),
            S(0, "trash", "Copper", legal=["Silver", "Copper", "PASS"], source="Masquerade"),
        ],
        {
            0: dict(hand=["Silver", "Copper"], deck=[], in_play=["Masquerade"]),
            1: dict(hand=["Gold", "Estate"]),
        },
        {"Copper": 1},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Masquerade trashes nothing",
        dict(hands={0: ["Masquerade", "Estate"], 1: ["Gold"]}, decks={0: ["Silver", "Copper"]}),
        [
            play("Masquerade"),
            S(0, "pass_card", "Silver"),
            S(1, "pass_card", "Gold", legal=["Gold"]),
            S(0, "trash", "PASS", legal=["Estate", "Copper", "Gold", "PASS"]),
        ],
        {
            0: dict(hand=["Estate", "Copper", "Gold"], deck=[], in_play=["Masquerade"]),
            1: dict(hand=["Silver"]),
        },
        {},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Masquerade is not an Attack: Moat is only passed",
        dict(hands={0: ["Masquerade"], 1: ["Moat"]}, decks={0: ["Silver", "Copper"]}),
        [
            play("Masquerade"),
            S(0, "pass_card", "Copper", legal=["Silver", "Copper"]),
            S(1, "pass_card", "Moat", legal=["Moat"]),
            S(0, "trash", "PASS", legal=["Silver", "Moat", "PASS"]),
        ],
        {
            0: dict(hand=["Silver", "Moat"], deck=[], in_play=["Masquerade"]),
            1: dict(hand=["Copper"]),
        },
        {},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Shanty Town without Actions in hand",
        dict(
            hands={0: ["Shanty Town", "Estate", "Copper"]}, decks={0: ["Village", "Silver", "Gold"]}
        ),
        [play("Shanty Town")],
        # the first card drawn is an Action: the second is drawn all the same
        {
            0: dict(
                hand=["Estate", "Copper", "Village", "Silver"],
                deck=["Gold"],
                in_play=["Shanty Town"],
            )
        },
        {},
        {},
        (2, 1, 0),
        "play_action",
    ),
    (
        "Shanty Town with an Action in hand",
        dict(hands={0: ["Shanty Town", "Village", "Copper"]}, decks={0: ["Silver", "Gold"]}),
        [play("Shanty Town")],
        {0: dict(hand=["Village", "Copper"], in_play=["Shanty Town"])},
        {},
        {},
        (2, 1, 0),
        "play_action",
    ),
    (
        "Shanty Town with an Action-Victory in hand",
        dict(hands={0: ["Shanty Town", "Great Hall", "Copper"]}, decks={0: ["Silver", "Gold"]}),
        [play("Shanty Town")],
        {0: dict(hand=["Great Hall", "Copper"], in_play=["Shanty Town"])},
        {},
        {},
        (2, 1, 0),
        "play_action",
    ),
    (
        "Shanty Town with a Harem (not an Action) in hand",
        dict(hands={0: ["Shanty Town", "Harem"]}, decks={0: ["Silver", "Gold", "Estate"]}),
        [play("Shanty Town")],
        {0: dict(hand=["Harem", "Silver", "Gold"], deck=["Estate"], in_play=["Shanty Town"])},
        {},
        {},
        (2, 1, 0),
        "play_treasure",
    ),
    (
        "Steward +2 Cards",
        dict(
            hands={0: ["Steward", "Estate", "Copper", "Curse"]},
            decks={0: ["Silver", "Gold", "Duchy"]},
        ),
        [play("Steward"), S(0, "choose", "option 0", legal=OPTS[:3], source="Steward")],
        {
            0: dict(
                hand=["Estate", "Copper", "Curse", "Silver", "Gold"],
                deck=["Duchy"],
                in_play=["Steward"],
            )
        },
        {},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Steward +$2",
        dict(
            hands={0: ["Steward", "Estate", "Copper", "Curse"]},
            decks={0: ["Silver", "Gold", "Duchy"]},
        ),
        [play("Steward"), S(0, "choose", "option 1", legal=OPTS[:3])],
        {0: dict(hand=["Estate", "Copper", "Curse"], in_play=["Steward"])},
        {},
        {},
        (0, 1, 2),
        "play_treasure",
    ),
    (
        "Steward trash 2",
        dict(
            hands={0: ["Steward", "Estate", "Copper", "Curse"]},
            decks={0: ["Silver", "Gold", "Duchy"]},
        ),
        [
            play("Steward"),
            S(0, "choose", "option 2", legal=OPTS[:3]),
            S(
                0,
                "trash",
                "Estate",
                count=2,
                legal=["Estate", "Copper", "Curse"],
                can_pass=False,
                source="Steward",
            ),
            S(0, "trash", "Curse", count=1, legal=["Copper", "Curse"], can_pass=False),
        ],
        {0: dict(hand=["Copper"], in_play=["Steward"])},
        {"Estate": 1, "Curse": 1},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Steward trash 2 with one card in hand",
        dict(hands={0: ["Steward", "Estate"]}, decks={0: ["Gold"]}),
        [
            play("Steward"),
            S(0, "choose", "option 2"),
            S(0, "trash", "Estate", count=2, legal=["Estate"], can_pass=False),
        ],
        {0: dict(hand=[], in_play=["Steward"])},
        {"Estate": 1},
        {},
        (0, 1, 0),
        "buy",
    ),
    (
        "Steward trash 2 with an empty hand",
        dict(hands={0: ["Steward"]}, decks={0: ["Gold"]}),
        [play("Steward"), S(0, "choose", "option 2")],
        {0: dict(hand=[], in_play=["Steward"])},
        {},
        {},
        (0, 1, 0),
        "buy",
    ),
    (
        "Swindler",
        dict(hands={0: ["Swindler"]}, decks={1: ["Silver", "Estate"]}),
        [
            play("Swindler"),
            S(
                0,
                "gain",
                "Great Hall",
                legal=exactly(3),
                target=1,
                card="Silver",
                source="Swindler",
                can_pass=False,
            ),
        ],
        {0: dict(hand=[], in_play=["Swindler"]), 1: dict(deck=["Estate"], discard=["Great Hall"])},
        {"Silver": 1},
        {"Great Hall": -1},
        (0, 1, 2),
        "buy",
    ),
    (
        "Swindler a $0 card into a Curse",
        dict(hands={0: ["Swindler"]}, decks={1: ["Copper", "Estate"]}),
        [
            play("Swindler"),
            S(0, "gain", "Curse", legal=["Copper", "Curse"], target=1, card="Copper"),
        ],
        {0: dict(hand=[], in_play=["Swindler"]), 1: dict(deck=["Estate"], discard=["Curse"])},
        {"Copper": 1},
        {"Curse": -1},
        (0, 1, 2),
        "buy",
    ),
    (
        "Swindler no card of that cost",
        dict(hands={0: ["Swindler"]}, decks={1: ["Gold", "Estate"]}, supply={"Gold": 0}),
        [play("Swindler")],
        {0: dict(hand=[], in_play=["Swindler"]), 1: dict(deck=["Estate"])},
        {"Gold": 1},
        {},
        (0, 1, 2),
        "buy",
    ),
    (
        "Swindler victim shuffles first",
        dict(hands={0: ["Swindler"]}, discards={1: ["Estate"]}),
        [play("Swindler"), S(0, "gain", "Estate", legal=exactly(2), target=1, card="Estate")],
        {0: dict(hand=[], in_play=["Swindler"]), 1: dict(deck=[], discard=["Estate"])},
        {"Estate": 1},
        {"Estate": -1},
        (0, 1, 2),
        "buy",
    ),
    (
        "Swindler victim with no cards",
        dict(hands={0: ["Swindler"], 1: ["Copper"]}),
        [play("Swindler")],
        {0: dict(hand=[], in_play=["Swindler"])},
        {},
        {},
        (0, 1, 2),
        "buy",
    ),
    (
        "Wishing Well hit",
        dict(hands={0: ["Wishing Well"]}, decks={0: ["Copper", "Gold", "Estate"]}),
        [
            play("Wishing Well"),
            S(0, "name", "Gold", legal=ALL_NAMES, source="Wishing Well", can_pass=False),
        ],
        {0: dict(hand=["Copper", "Gold"], deck=["Estate"], in_play=["Wishing Well"])},
        {},
        {},
        (1, 1, 0),
        "play_treasure",
    ),
    (
        "Wishing Well miss",
        dict(hands={0: ["Wishing Well"]}, decks={0: ["Copper", "Gold", "Estate"]}),
        [play("Wishing Well"), S(0, "name", "Silver", legal=ALL_NAMES)],
        {0: dict(hand=["Copper"], deck=["Gold", "Estate"], in_play=["Wishing Well"])},
        {},
        {},
        (1, 1, 0),
        "play_treasure",
    ),
    (
        "Wishing Well with one card: drawn, nothing to reveal",
        dict(hands={0: ["Wishing Well"]}, decks={0: ["Copper"]}),
        [play("Wishing Well"), S(0, "name", "Copper", legal=ALL_NAMES)],
        {0: dict(hand=["Copper"], deck=[], in_play=["Wishing Well"])},
        {},
        {},
        (1, 1, 0),
        "play_treasure",
    ),
    (
        "Baron discards an Estate",
        dict(hands={0: ["Baron", "Estate", "Copper"]}),
        [play("Baron"), S(0, "discard", "Estate", legal=["Estate", "PASS"], source="Baron")],
        {0: dict(hand=["Copper"], discard=["Estate"], in_play=["Baron"])},
        {},
        {},
        (0, 2, 4),
        "play_treasure",
    ),
    (
        "Baron keeps the Estate and gains one",
        dict(hands={0: ["Baron", "Estate", "Copper"]}),
        [play("Baron"), S(0, "discard", "PASS", legal=["Estate", "PASS"])],
        {0: dict(hand=["Estate", "Copper"], discard=["Estate"], in_play=["Baron"])},
        {},
        {"Estate": -1},
        (0, 2, 0),
        "play_treasure",
    ),
    (
        "Baron with no Estate in hand",
        dict(hands={0: ["Baron", "Copper", "Duchy"]}),
        [play("Baron")],
        {0: dict(hand=["Copper", "Duchy"], discard=["Estate"], in_play=["Baron"])},
        {},
        {"Estate": -1},
        (0, 2, 0),
        "play_treasure",
    ),
    (
        "Baron with no Estate in hand nor in the Supply",
        dict(hands={0: ["Baron", "Copper"]}, supply={"Estate": 0}),
        [play("Baron")],
        {0: dict(hand=["Copper"], in_play=["Baron"])},
        {},
        {},
        (0, 2, 0),
        "play_treasure",
    ),
    (
        "Bridge",
        dict(hands={0: ["Bridge", "Copper"]}),
        [play("Bridge")],
        {0: dict(hand=["Copper"], in_play=["Bridge"])},
        {},
        {},
        (0, 2, 1),
        "play_treasure",
    ),
    (
        "Conspirator as the only Action",
        dict(hands={0: ["Conspirator"]}, decks={0: ["Copper"]}),
        [play("Conspirator")],
        {0: dict(hand=[], in_play=["Conspirator"])},
        {},
        {},
        (0, 1, 2),
        "buy",
    ),
    (
        "Conspirator as the 2nd Action",
        dict(hands={0: ["Village", "Conspirator"]}, decks={0: ["Copper", "Silver"]}),
        [play("Village"), play("Conspirator")],
        {0: dict(hand=["Copper"], deck=["Silver"], in_play=["Village", "Conspirator"])},
        {},
        {},
        (1, 1, 2),
        "play_treasure",
    ),
    (
        "Conspirator as the 3rd Action",
        dict(
            hands={0: ["Village", "Village", "Conspirator"]},
            decks={0: ["Copper", "Silver", "Gold", "Duchy"]},
        ),
        [play("Village"), play("Village"), play("Conspirator")],
        {
            0: dict(
                hand=["Copper", "Silver", "Gold"],
                deck=["Duchy"],
                in_play=["Village", "Village", "Conspirator"],
            )
        },
        {},
        {},
        (3, 1, 2),
        "play_treasure",
    ),
    (
        "Conspirator played first is not re-evaluated",
        dict(
            hands={0: ["Conspirator", "Village", "Village"]},
            decks={0: ["Copper", "Silver"]},
            actions=3,
        ),
        [play("Conspirator"), play("Village"), play("Village")],
        {
            0: dict(
                hand=["Copper", "Silver"], deck=[], in_play=["Village", "Village", "Conspirator"]
            )
        },
        {},
        {},
        (4, 1, 2),
        "play_treasure",
    ),
    (
        "Conspirator under Throne Room: the 2nd play is the 3rd Action",
        dict(hands={0: ["Throne Room", "Conspirator"]}, decks={0: ["Copper", "Silver"]}),
        [play("Throne Room"), S(0, "play_twice", "Conspirator", legal=["Conspirator", "PASS"])],
        {0: dict(hand=["Copper"], deck=["Silver"], in_play=["Throne Room", "Conspirator"])},
        {},
        {},
        (1, 1, 4),
        "play_treasure",
    ),
    (
        "Conspirator under Throne Room after a Village: both plays count",
        dict(
            hands={0: ["Village", "Throne Room", "Conspirator"]},
            decks={0: ["Copper", "Silver", "Gold", "Duchy"]},
        ),
        [play("Village"), play("Throne Room"), S(0, "play_twice", "Conspirator")],
        {
            0: dict(
                hand=["Copper", "Silver", "Gold"],
                deck=["Duchy"],
                in_play=["Village", "Throne Room", "Conspirator"],
            )
        },
        {},
        {},
        (3, 1, 4),
        "play_treasure",
    ),
    (
        "Coppersmith",
        dict(hands={0: ["Coppersmith", "Copper", "Copper", "Silver"]}),
        [
            play("Coppersmith"),
            S(0, "play_treasure", "Copper", coins=2),
            S(0, "play_treasure", "Copper", coins=4),
            S(0, "play_treasure", "Silver", coins=6),
        ],
        {0: dict(hand=[], in_play=["Coppersmith", "Copper", "Copper", "Silver"])},
        {},
        {},
        (0, 1, 6),
        "buy",
    ),
    (
        "Ironworks an Action",
        dict(hands={0: ["Ironworks"]}, decks={0: ["Copper"]}),
        [
            play("Ironworks"),
            S(0, "gain", "Village", legal=upto(4), source="Ironworks", can_pass=False),
        ],
        {0: dict(hand=[], discard=["Village"], in_play=["Ironworks"])},
        {},
        {"Village": -1},
        (1, 1, 0),
        "buy",
    ),
    (
        "Ironworks a Treasure",
        dict(hands={0: ["Ironworks"]}, decks={0: ["Copper"]}),
        [play("Ironworks"), S(0, "gain", "Silver", legal=upto(4))],
        {0: dict(hand=[], discard=["Silver"], in_play=["Ironworks"])},
        {},
        {"Silver": -1},
        (0, 1, 1),
        "buy",
    ),
    (
        "Ironworks a Victory card",
        dict(hands={0: ["Ironworks"]}, decks={0: ["Copper", "Gold"]}),
        [play("Ironworks"), S(0, "gain", "Estate", legal=upto(4))],
        {0: dict(hand=["Copper"], deck=["Gold"], discard=["Estate"], in_play=["Ironworks"])},
        {},
        {"Estate": -1},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Ironworks a Great Hall: +1 Action and +1 Card",
        dict(hands={0: ["Ironworks"]}, decks={0: ["Copper", "Gold"]}),
        [play("Ironworks"), S(0, "gain", "Great Hall", legal=upto(4))],
        {0: dict(hand=["Copper"], deck=["Gold"], discard=["Great Hall"], in_play=["Ironworks"])},
        {},
        {"Great Hall": -1},
        (1, 1, 0),
        "play_treasure",
    ),
    (
        "Ironworks a Harem after Throne Room on Bridge: +$1 and +1 Card",
        dict(
            hands={0: ["Throne Room", "Bridge", "Ironworks"]},
            decks={0: ["Copper", "Estate"]},
            actions=2,
        ),
        [
            play("Throne Room"),
            S(0, "play_twice", "Bridge", legal=["Bridge", "Ironworks", "PASS"]),
            play("Ironworks"),
            S(0, "gain", "Harem", legal=upto(4, red=2)),
        ],
        {
            0: dict(
                hand=["Copper"],
                deck=["Estate"],
                discard=["Harem"],
                in_play=["Throne Room", "Bridge", "Ironworks"],
            )
        },
        {},
        {"Harem": -1},
        (0, 3, 3),
        "play_treasure",
    ),
    (
        "Mining Village trashed",
        dict(hands={0: ["Mining Village"]}, decks={0: ["Copper", "Estate"]}),
        [play("Mining Village"), S(0, "choose", "option 0", legal=YES_NO, source="Mining Village")],
        {0: dict(hand=["Copper"], deck=["Estate"], in_play=[])},
        {"Mining Village": 1},
        {},
        (2, 1, 2),
        "play_treasure",
    ),
    (
        "Mining Village kept",
        dict(hands={0: ["Mining Village"]}, decks={0: ["Copper", "Estate"]}),
        [play("Mining Village"), S(0, "choose", "PASS", legal=YES_NO)],
        {0: dict(hand=["Copper"], deck=["Estate"], in_play=["Mining Village"])},
        {},
        {},
        (2, 1, 0),
        "play_treasure",
    ),
    (
        "Scout",
        dict(hands={0: ["Scout"]}, decks={0: ["Estate", "Copper", "Great Hall", "Silver", "Gold"]}),
        [
            play("Scout"),
            S(0, "topdeck", "Copper", legal=["Copper", "Silver"], source="Scout", can_pass=False),
        ],
        # Copper is put back first, Silver (the last card, no choice left) on top of it
        {
            0: dict(
                hand=["Estate", "Great Hall"], deck=["Silver", "Copper", "Gold"], in_play=["Scout"]
            )
        },
        {},
        {},
        (1, 1, 0),
        "play_action",
    ),
    (
        "Scout puts back in the chosen order",
        dict(hands={0: ["Scout"]}, decks={0: ["Copper", "Silver", "Gold", "Curse", "Estate"]}),
        [
            play("Scout"),
            S(0, "topdeck", "Gold", legal=["Copper", "Silver", "Gold", "Curse"]),
            S(0, "topdeck", "Copper", legal=["Copper", "Silver", "Curse"]),
            S(0, "topdeck", "Curse", legal=["Silver", "Curse"]),
        ],
        {0: dict(hand=[], deck=["Silver", "Curse", "Copper", "Gold", "Estate"], in_play=["Scout"])},
        {},
        {},
        (1, 1, 0),
        "buy",
    ),
    (
        "Scout leaves Curses (not Victory cards)",
        dict(hands={0: ["Scout"]}, decks={0: ["Curse", "Duchy", "Curse", "Copper", "Gold"]}),
        [
            play("Scout"),
            S(0, "topdeck", "Curse", legal=["Curse", "Copper"]),
            S(0, "topdeck", "Copper", legal=["Curse", "Copper"]),
        ],
        {0: dict(hand=["Duchy"], deck=["Curse", "Copper", "Curse", "Gold"], in_play=["Scout"])},
        {},
        {},
        (1, 1, 0),
        "buy",
    ),
    (
        "Scout takes every Victory card",
        dict(
            hands={0: ["Scout"]},
            decks={0: ["Estate", "Duchy", "Harem", "Nobles", "Great Hall", "Copper"]},
        ),
        [play("Scout")],
        {
            0: dict(
                hand=["Estate", "Duchy", "Harem", "Nobles"],
                deck=["Great Hall", "Copper"],
                in_play=["Scout"],
            )
        },
        {},
        {},
        (1, 1, 0),
        "play_action",
    ),
    (
        "Minion +$2",
        dict(
            hands={0: ["Minion", "Copper"], 1: ["Copper", "Copper", "Estate", "Estate", "Silver"]},
            decks={0: ["Gold"], 1: ["Gold"]},
        ),
        [play("Minion"), S(0, "choose", "option 0", legal=TWO, source="Minion", can_pass=False)],
        {0: dict(hand=["Copper"], in_play=["Minion"])},
        {},
        {},
        (1, 1, 2),
        "play_treasure",
    ),
    (
        "Minion discard and draw 4",
        dict(
            hands={
                0: ["Minion", "Copper", "Estate"],
                1: ["Copper", "Copper", "Estate", "Estate", "Silver"],
            },
            decks={
                0: ["Silver", "Gold", "Silver", "Gold", "Duchy"],
                1: ["Gold", "Gold", "Gold", "Gold", "Province"],
            },
        ),
        [play("Minion"), S(0, "choose", "option 1", legal=TWO)],
        {
            0: dict(
                hand=["Silver", "Gold", "Silver", "Gold"],
                deck=["Duchy"],
                discard=["Copper", "Estate"],
                in_play=["Minion"],
            ),
            1: dict(
                hand=["Gold"] * 4,
                deck=["Province"],
                discard=["Copper", "Copper", "Estate", "Estate", "Silver"],
            ),
        },
        {},
        {},
        (1, 1, 0),
        "play_treasure",
    ),
    (
        "Minion discard mode spares a hand of 4",
        dict(
            hands={0: ["Minion"], 1: ["Copper", "Copper", "Estate", "Estate"]},
            decks={0: ["Silver", "Gold", "Silver", "Gold"], 1: ["Gold"] * 4},
        ),
        [play("Minion"), S(0, "choose", "option 1", legal=TWO)],
        {0: dict(hand=["Silver", "Gold", "Silver", "Gold"], deck=[], in_play=["Minion"])},
        {},
        {},
        (1, 1, 0),
        "play_treasure",
    ),
    (
        "Saboteur",
        dict(hands={0: ["Saboteur"]}, decks={1: ["Copper", "Estate", "Gold", "Silver"]}),
        [
            play("Saboteur"),
            S(1, "gain", "Smithy", legal=upto(4, can_pass=True), source="Saboteur", can_pass=True),
        ],
        {
            0: dict(hand=[], in_play=["Saboteur"]),
            1: dict(deck=["Silver"], discard=["Copper", "Estate", "Smithy"]),
        },
        {"Gold": 1},
        {"Smithy": -1},
        (0, 1, 0),
        "buy",
    ),
    (
        "Saboteur victim gains nothing",
        dict(hands={0: ["Saboteur"]}, decks={1: ["Copper", "Silver", "Gold"]}),
        [play("Saboteur"), S(1, "gain", "PASS", legal=upto(1, can_pass=True))],
        {0: dict(hand=[], in_play=["Saboteur"]), 1: dict(deck=["Gold"], discard=["Copper"])},
        {"Silver": 1},
        {},
        (0, 1, 0),
        "buy",
    ),
    (
        "Saboteur finds nothing costing $3",
        dict(hands={0: ["Saboteur"]}, decks={1: ["Copper", "Estate"]}, discards={1: ["Curse"]}),
        [play("Saboteur")],
        {
            0: dict(hand=[], in_play=["Saboteur"]),
            1: dict(deck=[], discard=["Copper", "Estate", "Curse"]),
        },
        {},
        {},
        (0, 1, 0),
        "buy",
    ),
    (
        "Torturer: the victim discards 2",
        dict(
            hands={0: ["Torturer"], 1: ["Copper", "Estate", "Silver"]},
            decks={0: ["Copper", "Copper", "Estate", "Gold"]},
        ),
        [
            play("Torturer"),
            S(1, "choose", "option 0", legal=TWO, source="Torturer", can_pass=False),
            S(
                1,
                "discard",
                "Estate",
                count=2,
                legal=["Copper", "Estate", "Silver"],
                can_pass=False,
                source="Torturer",
            ),
            S(1, "discard", "Copper", count=1, legal=["Copper", "Silver"]),
        ],
        {
            0: dict(hand=["Copper", "Copper", "Estate"], deck=["Gold"], in_play=["Torturer"]),
            1: dict(hand=["Silver"], discard=["Estate", "Copper"]),
        },
        {},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Torturer: the victim gains a Curse to hand",
        dict(
            hands={0: ["Torturer"], 1: ["Copper", "Estate", "Silver"]},
            decks={0: ["Copper", "Copper", "Estate", "Gold"]},
        ),
        [play("Torturer"), S(1, "choose", "option 1", legal=TWO)],
        {
            0: dict(hand=["Copper", "Copper", "Estate"], deck=["Gold"], in_play=["Torturer"]),
            1: dict(hand=["Copper", "Estate", "Silver", "Curse"]),
        },
        {},
        {"Curse": -1},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Torturer: discard 2 with one card in hand",
        dict(hands={0: ["Torturer"], 1: ["Estate"]}, decks={0: ["Copper", "Copper", "Estate"]}),
        [
            play("Torturer"),
            S(1, "choose", "option 0", legal=TWO),
            S(1, "discard", "Estate", count=2, legal=["Estate"]),
        ],
        {
            0: dict(hand=["Copper", "Copper", "Estate"], deck=[], in_play=["Torturer"]),
            1: dict(hand=[], discard=["Estate"]),
        },
        {},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Torturer: discard 2 with an empty hand",
        dict(hands={0: ["Torturer"]}, decks={0: ["Copper", "Copper", "Estate"]}),
        [play("Torturer"), S(1, "choose", "option 0", legal=TWO)],
        {0: dict(hand=["Copper", "Copper", "Estate"], deck=[], in_play=["Torturer"])},
        {},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Torturer: the Curse chosen when none are left",
        dict(
            hands={0: ["Torturer"], 1: ["Copper"]},
            decks={0: ["Copper", "Copper", "Estate"]},
            supply={"Curse": 0},
        ),
        [play("Torturer"), S(1, "choose", "option 1", legal=TWO)],
        {0: dict(hand=["Copper", "Copper", "Estate"], deck=[], in_play=["Torturer"])},
        {},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Trading Post",
        dict(hands={0: ["Trading Post", "Estate", "Curse", "Copper"]}),
        [
            play("Trading Post"),
            S(
                0,
                "trash",
                "Estate",
                count=2,
                legal=["Estate", "Curse", "Copper"],
                can_pass=False,
                source="Trading Post",
            ),
            S(0, "trash", "Curse", count=1, legal=["Curse", "Copper"], can_pass=False),
        ],
        {0: dict(hand=["Copper", "Silver"], in_play=["Trading Post"])},
        {"Estate": 1, "Curse": 1},
        {"Silver": -1},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Trading Post with one card: trashed, no Silver",
        dict(hands={0: ["Trading Post", "Estate"]}),
        [play("Trading Post"), S(0, "trash", "Estate", count=2, legal=["Estate"])],
        {0: dict(hand=[], in_play=["Trading Post"])},
        {"Estate": 1},
        {},
        (0, 1, 0),
        "buy",
    ),
    (
        "Trading Post with no Silver left",
        dict(hands={0: ["Trading Post", "Estate", "Estate", "Copper"]}, supply={"Silver": 0}),
        [play("Trading Post"), S(0, "trash", "Estate"), S(0, "trash", "Estate")],
        {0: dict(hand=["Copper"], in_play=["Trading Post"])},
        {"Estate": 2},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Trading Post with an empty hand",
        dict(hands={0: ["Trading Post"]}),
        [play("Trading Post")],
        {0: dict(hand=[], in_play=["Trading Post"])},
        {},
        {},
        (0, 1, 0),
        "buy",
    ),
    *[
        (
            f"Tribute reveals {' and '.join(revealed)}",
            dict(
                hands={0: ["Tribute"]},
                decks={0: ["Silver", "Gold", "Duchy"], 1: revealed + ["Province"]},
            ),
            [play("Tribute")],
            {
                0: dict(
                    hand=["Silver", "Gold"] if draws else [],
                    deck=["Duchy"] if draws else ["Silver", "Gold", "Duchy"],
                    in_play=["Tribute"],
                ),
                1: dict(deck=["Province"], discard=revealed),
            },
            {},
            {},
            turn,
            "play_treasure" if draws else "buy",
        )
        for revealed, turn, draws in TRIBUTE
    ],
    (
        "Tribute: the left player has one card, in its discard pile",
        dict(hands={0: ["Tribute"]}, discards={1: ["Gold"]}),
        [play("Tribute")],
        {0: dict(hand=[], in_play=["Tribute"]), 1: dict(deck=[], discard=["Gold"])},
        {},
        {},
        (0, 1, 2),
        "buy",
    ),
    (
        "Tribute: one card in deck, one in the discard pile",
        dict(
            hands={0: ["Tribute"]},
            decks={0: ["Copper", "Gold"], 1: ["Estate"]},
            discards={1: ["Silver"]},
        ),
        [play("Tribute")],
        {
            0: dict(hand=["Copper", "Gold"], deck=[], in_play=["Tribute"]),
            1: dict(deck=[], discard=["Estate", "Silver"]),
        },
        {},
        {},
        (0, 1, 2),
        "play_treasure",
    ),
    (
        "Tribute: the left player has no cards",
        dict(hands={0: ["Tribute"], 1: ["Gold"]}),
        [play("Tribute")],
        {0: dict(hand=[], in_play=["Tribute"])},
        {},
        {},
        (0, 1, 0),
        "buy",
    ),
    (
        "Upgrade",
        dict(hands={0: ["Upgrade", "Estate"]}, decks={0: ["Copper", "Gold"]}),
        [
            play("Upgrade"),
            S(0, "trash", "Estate", legal=["Estate", "Copper"], source="Upgrade", can_pass=False),
            S(0, "gain", "Silver", legal=exactly(3), source="Upgrade", can_pass=False),
        ],
        {0: dict(hand=["Copper"], deck=["Gold"], discard=["Silver"], in_play=["Upgrade"])},
        {"Estate": 1},
        {"Silver": -1},
        (1, 1, 0),
        "play_treasure",
    ),
    (
        "Upgrade with no card at exactly $1 more",
        dict(hands={0: ["Upgrade", "Gold"]}, decks={0: ["Copper", "Estate"]}),
        [play("Upgrade"), S(0, "trash", "Gold", legal=["Gold", "Copper"])],
        {0: dict(hand=["Copper"], deck=["Estate"], in_play=["Upgrade"])},
        {"Gold": 1},
        {},
        (1, 1, 0),
        "play_treasure",
    ),
    (
        "Upgrade a Copper (nothing costs $1)",
        dict(hands={0: ["Upgrade", "Estate"]}, decks={0: ["Copper"]}),
        [play("Upgrade"), S(0, "trash", "Copper", legal=["Estate", "Copper"])],
        {0: dict(hand=["Estate"], deck=[], in_play=["Upgrade"])},
        {"Copper": 1},
        {},
        (1, 1, 0),
        "buy",
    ),
    (
        "Upgrade with nothing in hand",
        dict(hands={0: ["Upgrade"]}),
        [play("Upgrade")],
        {0: dict(hand=[], in_play=["Upgrade"])},
        {},
        {},
        (1, 1, 0),
        "buy",
    ),
    (
        "Harem",
        dict(hands={0: ["Harem", "Copper"]}),
        [
            S(0, "play_treasure", "Harem", legal=["Harem", "Copper", "PASS"], coins=2),
            S(0, "play_treasure", "Copper", coins=3),
        ],
        {0: dict(hand=[], in_play=["Harem", "Copper"])},
        {},
        {},
        (1, 1, 3),
        "buy",
    ),
    (
        "Nobles +3 Cards",
        dict(hands={0: ["Nobles"]}, decks={0: ["Copper", "Estate", "Silver", "Gold"]}),
        [play("Nobles"), S(0, "choose", "option 0", legal=TWO, source="Nobles", can_pass=False)],
        {0: dict(hand=["Copper", "Estate", "Silver"], deck=["Gold"], in_play=["Nobles"])},
        {},
        {},
        (0, 1, 0),
        "play_treasure",
    ),
    (
        "Nobles +2 Actions",
        dict(hands={0: ["Nobles", "Village"]}, decks={0: ["Copper", "Estate", "Silver", "Gold"]}),
        [play("Nobles"), S(0, "choose", "option 1", legal=TWO)],
        {0: dict(hand=["Village"], in_play=["Nobles"])},
        {},
        {},
        (2, 1, 0),
        "play_action",
    ),
]


@pytest.mark.parametrize("setup,steps,expect,trash,gained,turn,nxt", card_rows(CARD_ROWS))
def test_card(setup, steps, expect, trash, gained, turn, nxt):
    sc = Scenario(steps=steps, **setup)
    sc.run(steps).check(expect, trash=trash, gained=gained, turn=turn, next=nxt)


def test_every_intrigue_action_has_a_row():
    played = {
        s["action"] for r in CARD_ROWS for s in r[2] if s["kind"] in ("play_action", "play_twice")
    }
    reacted = {s["action"] for r in CARD_ROWS for s in r[2] if s["kind"] == "react"}
    treasures = {s["action"] for r in CARD_ROWS for s in r[2] if s["kind"] == "play_treasure"}
    # Duke has no play: test_duke_great_hall_harem_nobles_scoring
    assert set(INTRIGUE) - {"Duke"} <= played | treasures
    assert "Secret Chamber" in reacted and "Harem" in treasures


# ---------------------------------------------------------------------------------------------
# Duke, Great Hall, Harem, Nobles: scoring
# ---------------------------------------------------------------------------------------------


@covers("Duke", "Great Hall", "Harem", "Nobles", "Duchy", "Estate", "Curse")
def test_duke_great_hall_harem_nobles_scoring():
    """P0: 2 Dukes x 2 Duchies = 4, Duchies 6, Great Hall 1, Harem 2, Nobles 2, Estate 1 = 16,
    counted in every zone. P1: 3 Dukes, no Duchy = 0, one Curse = -1."""
    sc = Scenario(
        hands={0: ["Duke", "Great Hall"], 1: ["Duke", "Duke", "Duke"]},
        decks={0: ["Duchy", "Harem"]},
        discards={0: ["Duke", "Nobles", "Estate"], 1: ["Curse"]},
        in_play={0: ["Duchy"]},
        phase="buying",
        coins=0,
        supply={"Province": 0},
    )
    assert sc.g.scores() == [16, -1]
    assert sc.g.observation_dict(0)["vp"].tolist() == [16, -1]
    sc.g.step("PASS")
    assert sc.g.terminated
    assert list(sc.g.rewards) == [1, -1]


# ---------------------------------------------------------------------------------------------
# Reactions: Secret Chamber and Moat
# ---------------------------------------------------------------------------------------------


def test_secret_chamber_then_moat_in_one_reaction_window():
    """Secret Chamber resolves fully (+2 Cards, 2 back); then the same window offers the Moat
    (not the Secret Chamber again); Moat makes P1 unaffected by the Militia."""
    sc = Scenario(
        hands={0: ["Militia"], 1: ["Secret Chamber", "Moat", "Copper", "Copper", "Estate"]},
        decks={1: ["Silver", "Gold"]},
    )
    sc.run(
        [
            play("Militia"),
            S(
                1,
                "react",
                "Secret Chamber",
                legal=["Secret Chamber", "Moat", "PASS"],
                source="Militia",
            ),
            S(
                1,
                "topdeck",
                "Estate",
                count=2,
                source="Secret Chamber",
                legal=["Secret Chamber", "Moat", "Copper", "Estate", "Silver", "Gold"],
            ),
            S(
                1,
                "topdeck",
                "Copper",
                count=1,
                legal=["Secret Chamber", "Moat", "Copper", "Silver", "Gold"],
            ),
            S(1, "react", "Moat", legal=["Moat", "PASS"], source="Militia"),
        ]
    )
    sc.check(
        {
            0: dict(hand=[], in_play=["Militia"]),
            1: dict(
                hand=["Secret Chamber", "Moat", "Copper", "Silver", "Gold"],
                deck=["Copper", "Estate"],
            ),
        },
        turn=(0, 1, 2),
        next="buy",
    )
    log = sc.g.log()
    assert log.count("P1 reveals in reaction Secret Chamber") == 1
    assert log.count("P1 reveals in reaction Moat") == 1
    assert (
        log.index("P1 reveals in reaction Secret Chamber")
        < log.index("P1 draws Silver")
        < log.index("P1 reveals in reaction Moat")
    )


def test_moat_drawn_by_secret_chamber_can_then_be_revealed():
    sc = Scenario(
        hands={0: ["Militia"], 1: ["Secret Chamber", "Copper", "Copper", "Copper", "Estate"]},
        decks={1: ["Moat", "Silver", "Gold"]},
    )
    sc.run(
        [
            play("Militia"),
            S(1, "react", "Secret Chamber", legal=["Secret Chamber", "PASS"]),
            S(
                1,
                "topdeck",
                "Secret Chamber",
                count=2,
                legal=["Secret Chamber", "Moat", "Copper", "Estate", "Silver"],
            ),
            S(1, "topdeck", "Estate", count=1, legal=["Moat", "Copper", "Estate", "Silver"]),
            S(1, "react", "Moat", legal=["Moat", "PASS"], source="Militia"),
        ]
    )
    sc.check(
        {
            0: dict(hand=[], in_play=["Militia"]),
            1: dict(
                hand=["Copper", "Copper", "Copper", "Moat", "Silver"],
                deck=["Estate", "Secret Chamber", "Gold"],
            ),
        },
        turn=(0, 1, 2),
        next="buy",
    )


def test_secret_chamber_declined_after_its_reveal_then_attack_hits():
    """After Secret Chamber, PASS ends P1's reactions (the Moat stays unrevealed)."""
    sc = Scenario(
        hands={0: ["Militia"], 1: ["Secret Chamber", "Moat", "Copper", "Estate", "Estate"]},
        decks={1: ["Silver", "Gold"]},
    )
    sc.run(
        [
            play("Militia"),
            S(1, "react", "Secret Chamber"),
            S(1, "topdeck", "Estate"),
            S(1, "topdeck", "Estate"),
            S(1, "react", "PASS", legal=["Moat", "PASS"]),
            S(1, "discard", "Copper", count=2),
            S(1, "discard", "Moat", count=1),
        ]
    )
    sc.check(
        {
            0: dict(hand=[], in_play=["Militia"]),
            1: dict(
                hand=["Secret Chamber", "Silver", "Gold"],
                deck=["Estate", "Estate"],
                discard=["Copper", "Moat"],
            ),
        },
        turn=(0, 1, 2),
        next="buy",
    )
    assert "P1 reveals in reaction Moat" not in sc.g.log()


def test_each_reaction_once_per_attack_again_for_the_next_attack():
    """Throne Room on Militia: two Attacks, two windows; Secret Chamber (still in hand) is
    offered once in each, never twice in one."""
    sc = Scenario(
        hands={
            0: ["Throne Room", "Militia"],
            1: ["Secret Chamber", "Copper", "Copper", "Estate", "Estate"],
        },
        decks={1: ["Silver", "Gold", "Duchy", "Province", "Curse"]},
    )
    # each window opens before its Militia does anything, its +$2 included
    sc.run(
        [
            play("Throne Room"),
            S(0, "play_twice", "Militia", coins=0),
            S(1, "react", "Secret Chamber", legal=["Secret Chamber", "PASS"]),
            S(1, "topdeck", "Estate", count=2),
            S(1, "topdeck", "Estate", count=1, coins=2),
            # no second reveal of the same Reaction: straight on to the Attack
            S(
                1,
                "discard",
                "Copper",
                count=2,
                legal=["Secret Chamber", "Copper", "Silver", "Gold"],
            ),
            S(1, "discard", "Copper", count=1, coins=2),
            S(1, "react", "Secret Chamber", legal=["Secret Chamber", "PASS"], coins=2),
            S(
                1,
                "topdeck",
                "Estate",
                count=2,
                legal=["Secret Chamber", "Silver", "Gold", "Estate"],
            ),
            S(1, "topdeck", "Estate", count=1),
        ]
    )
    sc.check(
        {
            0: dict(hand=[], in_play=["Throne Room", "Militia"]),
            1: dict(
                hand=["Secret Chamber", "Silver", "Gold"],
                deck=["Estate", "Estate", "Duchy", "Province", "Curse"],
                discard=["Copper", "Copper"],
            ),
        },
        turn=(0, 1, 4),
        next="buy",
    )
    assert sc.g.log().count("P1 reveals in reaction Secret Chamber") == 2


def test_secret_chamber_with_a_near_empty_deck():
    """+2 Cards draws the only card left (the discard pile is empty); 2 go back."""
    sc = Scenario(hands={0: ["Militia"], 1: ["Secret Chamber", "Copper"]}, decks={1: ["Gold"]})
    sc.run(
        [
            play("Militia"),
            S(1, "react", "Secret Chamber"),
            S(1, "topdeck", "Copper", count=2, legal=["Secret Chamber", "Copper", "Gold"]),
            S(1, "topdeck", "Secret Chamber", count=1, legal=["Secret Chamber", "Gold"]),
        ]
    )
    sc.check(
        {
            0: dict(hand=[], in_play=["Militia"]),
            1: dict(hand=["Gold"], deck=["Secret Chamber", "Copper"]),
        },
        turn=(0, 1, 2),
        next="buy",
    )


# ---------------------------------------------------------------------------------------------
# Masquerade
# ---------------------------------------------------------------------------------------------


def _zones(g, p):
    return {k: v for k, v in g.zones(p).items() if k != "deck"}


def test_masquerade_three_players_pick_before_any_card_moves():
    """Each player picks in turn order from P0; a pick waits face down (aside); nobody holds
    the card coming to them while they choose; then all move at once; then P0 may trash."""
    sc = Scenario(
        players=3,
        hands={0: ["Masquerade", "Estate"], 1: ["Gold", "Copper"], 2: ["Duchy", "Curse"]},
        decks={0: ["Silver", "Copper"]},
    )
    g = sc.g
    sc.run([play("Masquerade"), S(0, "pass_card", "Estate", legal=["Estate", "Silver", "Copper"])])
    assert _zones(g, 0)["aside"] == {"Estate": 1}
    assert _zones(g, 0)["hand"] == {"Silver": 1, "Copper": 1}
    sc.run([S(1, "pass_card", "Gold", legal=["Gold", "Copper"])])  # no Estate to pass yet
    assert _zones(g, 1) == dict(hand={"Copper": 1}, discard={}, in_play={}, aside={"Gold": 1})
    assert _zones(g, 0)["aside"] == {"Estate": 1}
    sc.run([S(2, "pass_card", "Duchy", legal=["Duchy", "Curse"])])  # no Gold either
    # every card moved at once: P0's trash decision sees the Duchy from P2
    sc.run([S(0, "trash", "Copper", legal=["Silver", "Copper", "Duchy", "PASS"])])
    sc.check(
        {
            0: dict(hand=["Silver", "Duchy"], deck=[], in_play=["Masquerade"]),
            1: dict(hand=["Copper", "Estate"]),
            2: dict(hand=["Curse", "Gold"]),
        },
        trash={"Copper": 1},
        turn=(0, 1, 0),
        next="play_treasure",
    )


def test_masquerade_a_player_with_no_cards_passes_nothing():
    """P1 has no card: it is not asked and passes nothing, but receives P0's card; P2 passes
    to P0; only P0 (who played it) may trash."""
    sc = Scenario(
        players=3,
        hands={0: ["Masquerade"], 2: ["Gold"]},
        decks={0: ["Silver", "Estate"], 1: ["Province"]},
    )
    sc.run(
        [
            play("Masquerade"),
            S(0, "pass_card", "Estate", legal=["Silver", "Estate"]),
            S(2, "pass_card", "Gold", legal=["Gold"]),
            S(0, "trash", "PASS", legal=["Silver", "Gold", "PASS"]),
        ]
    )
    sc.check(
        {
            0: dict(hand=["Silver", "Gold"], deck=[], in_play=["Masquerade"]),
            1: dict(hand=["Estate"]),
            2: dict(hand=[]),
        },
        turn=(0, 1, 0),
        next="play_treasure",
    )


def test_masquerade_with_nothing_to_pass_anywhere_but_the_player():
    """Only P0 holds cards: it passes to P1 and gets nothing back; its trash decision may have
    nothing left but PASS (then it is not asked)."""
    sc = Scenario(players=3, hands={0: ["Masquerade"]}, decks={0: ["Estate"]})
    sc.run([play("Masquerade"), S(0, "pass_card", "Estate", legal=["Estate"])])
    sc.check(
        {0: dict(hand=[], deck=[], in_play=["Masquerade"]), 1: dict(hand=["Estate"])},
        turn=(0, 1, 0),
        next="buy",
    )


def test_masquerade_pass_is_hidden_from_the_third_player():
    """P0 passes a Duchy to P1 (P1 and P2 hold nothing, so it is the only pass). P2 took no
    part: its view of everybody's owned cards (and VP) is unchanged; the two parties see it."""
    sc = Scenario(
        players=3,
        hands={0: ["Masquerade", "Duchy"]},
        decks={0: ["Copper", "Estate"]},
        discards={1: ["Copper", "Estate"], 2: ["Silver"]},
    )
    g = sc.g
    before = {v: g.observation_dict(v) for v in range(3)}
    owned0 = {v: before[v]["owned"].copy() for v in range(3)}
    vp0 = {v: before[v]["vp"].copy() for v in range(3)}
    sc.run([play("Masquerade"), S(0, "pass_card", "Duchy", legal=["Duchy", "Copper", "Estate"])])
    assert g.decision["kind"] == "trash" and g.zones(1)["hand"] == {"Duchy": 1}
    duchy = ID["Duchy"]

    def seat(viewer, p):
        return (p - viewer) % 3

    after = {v: g.observation_dict(v) for v in range(3)}
    # P2, the third player: nothing changed in its view
    np.testing.assert_array_equal(after[2]["owned"], owned0[2])
    np.testing.assert_array_equal(after[2]["vp"], vp0[2])
    # P0 (the passer) and P1 (the receiver) both see the Duchy move
    for v in (0, 1):
        diff = after[v]["owned"] - owned0[v]
        want = np.zeros_like(diff)
        want[seat(v, 0), duchy] = -1
        want[seat(v, 1), duchy] = +1
        np.testing.assert_array_equal(diff, want)
        dvp = after[v]["vp"] - vp0[v]
        assert dvp[seat(v, 0)] == -3 and dvp[seat(v, 1)] == 3 and dvp[seat(v, 2)] == 0
    sc.run([S(0, "trash", "PASS")])
    sc.check(
        {
            0: dict(hand=["Copper", "Estate"], deck=[], in_play=["Masquerade"]),
            1: dict(hand=["Duchy"]),
        },
        turn=(0, 1, 0),
        next="play_treasure",
    )


def test_masquerade_four_players_each_view_knows_only_its_own_passes():
    """P0 -> P1 Gold, P1 -> P2 Duchy, P2 -> P3 Province, P3 -> P0 Curse. Each player sees the
    card it passed and the card it received, nothing of the other two passes."""
    sc = Scenario(
        players=4,
        hands={0: ["Masquerade", "Gold"], 1: ["Duchy"], 2: ["Province"], 3: ["Curse"]},
        decks={0: ["Copper", "Copper"]},
    )
    g = sc.g
    before = {v: g.observation_dict(v)["owned"].copy() for v in range(4)}
    sc.run(
        [
            play("Masquerade"),
            S(0, "pass_card", "Gold"),
            S(1, "pass_card", "Duchy"),
            S(2, "pass_card", "Province"),
            S(3, "pass_card", "Curse"),
            S(0, "trash", "PASS", legal=["Copper", "Curse", "PASS"]),
        ]
    )
    passes = [(0, 1, "Gold"), (1, 2, "Duchy"), (2, 3, "Province"), (3, 0, "Curse")]
    for v in range(4):
        want = np.zeros_like(before[v])
        for giver, taker, card in passes:
            if v in (giver, taker):
                want[(giver - v) % 4, ID[card]] -= 1
                want[(taker - v) % 4, ID[card]] += 1
        np.testing.assert_array_equal(
            g.observation_dict(v)["owned"] - before[v], want, err_msg=f"view of P{v}"
        )
    sc.check(
        {
            0: dict(hand=["Copper", "Copper", "Curse"], deck=[], in_play=["Masquerade"]),
            1: dict(hand=["Gold"]),
            2: dict(hand=["Duchy"]),
            3: dict(hand=["Province"]),
        },
        turn=(0, 1, 0),
        next="play_treasure",
    )


# ---------------------------------------------------------------------------------------------
# Bridge
# ---------------------------------------------------------------------------------------------


def test_bridge_lowers_buy_costs():
    """The rulebook's example: with Bridge and $3, a Silver ($2) and an Estate ($1)."""
    sc = Scenario(hands={0: ["Bridge", "Copper", "Copper"]}, buys=2)
    sc.run(
        [
            play("Bridge", coins=1),
            S(0, "play_treasure", "Copper", coins=2),
            S(0, "play_treasure", "Copper", coins=3),
            S(0, "buy", "Silver", legal=upto(3, red=1, can_pass=True), coins=1),
            S(0, "buy", "Estate", legal=upto(1, red=1, can_pass=True), coins=0),
        ]
    )
    assert set(sc.g.legal_actions()) == {"Copper", "Curse", "PASS"}
    assert set(upto(0, red=1, can_pass=True)(sc.g)) == {"Copper", "Curse", "PASS"}
    sc.check(
        {0: dict(hand=[], discard=["Silver", "Estate"], in_play=["Bridge", "Copper", "Copper"])},
        gained={"Silver": -1, "Estate": -1},
        turn=(0, 1, 0),
        next="buy",
    )


def test_throne_room_on_bridge_is_minus_2_and_never_below_0():
    sc = Scenario(hands={0: ["Throne Room", "Bridge"]})
    sc.run([play("Throne Room"), S(0, "play_twice", "Bridge")])
    sc.check({0: dict(hand=[], in_play=["Throne Room", "Bridge"])}, turn=(0, 3, 2), next="buy")
    assert sc.g.observation_dict(0)["counters"][3] == 2  # the cost reduction
    # $2 buys a $4 card; Copper and Estate cost $0, not less: buying them leaves the $2
    sc.run(
        [
            S(0, "buy", "Estate", legal=upto(2, red=2, can_pass=True), coins=2),
            S(0, "buy", "Copper", coins=2),
        ]
    )
    assert "Smithy" in sc.g.legal_actions() and "Silver" in sc.g.legal_actions()
    assert "Laboratory" not in sc.g.legal_actions()
    sc.run([S(0, "buy", "Smithy", coins=0)])
    assert sc.g.turn["player"] == 1  # three buys used: the turn is over


BRIDGE_ROWS = [
    (
        "Upgrade a Copper into an Estate ($1)",
        dict(hands={0: ["Bridge", "Upgrade", "Copper"]}, decks={0: ["Silver"]}, actions=2),
        [
            play("Bridge"),
            play("Upgrade"),
            S(0, "trash", "Copper", legal=["Copper", "Silver"]),
            S(0, "gain", "Estate", legal=exactly(1, red=1)),
        ],
        {0: dict(hand=["Silver"], deck=[], discard=["Estate"], in_play=["Bridge", "Upgrade"])},
        {"Copper": 1},
        {"Estate": -1},
        (1, 2, 1),
        "play_treasure",
    ),
    (
        "Upgrade an Estate ($1) into a $2 card (printed $3)",
        dict(hands={0: ["Bridge", "Upgrade", "Estate"]}, decks={0: ["Copper"]}, actions=2),
        [
            play("Bridge"),
            play("Upgrade"),
            S(0, "trash", "Estate"),
            S(0, "gain", "Great Hall", legal=exactly(2, red=1)),
        ],
        {0: dict(hand=["Copper"], deck=[], discard=["Great Hall"], in_play=["Bridge", "Upgrade"])},
        {"Estate": 1},
        {"Great Hall": -1},
        (1, 2, 1),
        "play_treasure",
    ),
    (
        "Ironworks a Duchy ($4)",
        dict(hands={0: ["Bridge", "Ironworks"]}, decks={0: ["Copper"]}, actions=2),
        [play("Bridge"), play("Ironworks"), S(0, "gain", "Duchy", legal=upto(4, red=1))],
        {0: dict(hand=["Copper"], deck=[], discard=["Duchy"], in_play=["Bridge", "Ironworks"])},
        {},
        {"Duchy": -1},
        (0, 2, 1),
        "play_treasure",
    ),
    (
        "Workshop a Duchy ($4)",
        dict(hands={0: ["Bridge", "Workshop"]}, actions=2),
        [play("Bridge"), play("Workshop"), S(0, "gain", "Duchy", legal=upto(4, red=1))],
        {0: dict(hand=[], discard=["Duchy"], in_play=["Bridge", "Workshop"])},
        {},
        {"Duchy": -1},
        (0, 2, 1),
        "buy",
    ),
    (
        "Feast a Gold ($5)",
        dict(hands={0: ["Bridge", "Feast"]}, actions=2),
        [play("Bridge"), play("Feast"), S(0, "gain", "Gold", legal=upto(5, red=1))],
        {0: dict(hand=[], discard=["Gold"], in_play=["Bridge"])},
        {"Feast": 1},
        {"Gold": -1},
        (0, 2, 1),
        "buy",
    ),
    (
        "Remodel a Copper into a Silver ($2)",
        dict(hands={0: ["Bridge", "Remodel", "Copper", "Estate"]}, actions=2),
        [
            play("Bridge"),
            play("Remodel"),
            S(0, "trash", "Copper", legal=["Copper", "Estate"]),
            S(0, "gain", "Silver", legal=upto(2, red=1)),
        ],
        {0: dict(hand=["Estate"], discard=["Silver"], in_play=["Bridge", "Remodel"])},
        {"Copper": 1},
        {"Silver": -1},
        (0, 2, 1),
        "buy",
    ),
    (
        "Mine a Silver ($2) into a Gold ($5)",
        dict(hands={0: ["Bridge", "Mine", "Silver"]}, actions=2),
        [
            play("Bridge"),
            play("Mine"),
            S(0, "trash", "Silver", legal=["Silver", "PASS"]),
            S(0, "gain", "Gold", legal=upto(5, red=1, treasure=True)),
        ],
        {0: dict(hand=["Gold"], in_play=["Bridge", "Mine"])},
        {"Silver": 1},
        {"Gold": -1},
        (0, 2, 1),
        "play_treasure",
    ),
    (
        "Mine a Copper ($0): Treasures up to $3",
        dict(hands={0: ["Bridge", "Mine", "Copper"]}, actions=2, supply={"Harem": 8}),
        [
            play("Bridge"),
            play("Mine"),
            S(0, "trash", "Copper"),
            S(0, "gain", "Silver", legal=upto(3, red=1, treasure=True)),
        ],
        {0: dict(hand=["Silver"], in_play=["Bridge", "Mine"])},
        {"Copper": 1},
        {"Silver": -1},
        (0, 2, 1),
        "play_treasure",
    ),
    (
        "Artisan a Gold ($5)",
        dict(hands={0: ["Bridge", "Artisan", "Estate"]}, actions=2),
        [
            play("Bridge"),
            play("Artisan"),
            S(0, "gain", "Gold", legal=upto(5, red=1)),
            S(0, "topdeck", "Estate", legal=["Estate", "Gold"]),
        ],
        {0: dict(hand=["Gold"], deck=["Estate"], in_play=["Bridge", "Artisan"])},
        {},
        {"Gold": -1},
        (0, 2, 1),
        "play_treasure",
    ),
    (
        "Saboteur: a Silver costs $2 and is passed over",
        dict(hands={0: ["Bridge", "Saboteur"]}, decks={1: ["Silver", "Gold", "Copper"]}, actions=2),
        [
            play("Bridge"),
            play("Saboteur"),
            S(1, "gain", "Smithy", legal=upto(3, red=1, can_pass=True)),
        ],
        {
            0: dict(hand=[], in_play=["Bridge", "Saboteur"]),
            1: dict(deck=["Copper"], discard=["Silver", "Smithy"]),
        },
        {"Gold": 1},
        {"Smithy": -1},
        (0, 2, 1),
        "buy",
    ),
    (
        "Swindler: an Estate costs $1",
        dict(hands={0: ["Bridge", "Swindler"]}, decks={1: ["Estate", "Copper"]}, actions=2),
        [
            play("Bridge"),
            play("Swindler"),
            S(0, "gain", "Pawn", legal=exactly(1, red=1), target=1, card="Estate"),
        ],
        {
            0: dict(hand=[], in_play=["Bridge", "Swindler"]),
            1: dict(deck=["Copper"], discard=["Pawn"]),
        },
        {"Estate": 1},
        {"Pawn": -1},
        (0, 2, 3),
        "buy",
    ),
    (
        "Swindler: a Copper still costs $0",
        dict(hands={0: ["Bridge", "Swindler"]}, decks={1: ["Copper"]}, actions=2),
        [
            play("Bridge"),
            play("Swindler"),
            S(0, "gain", "Curse", legal=["Copper", "Curse"], target=1, card="Copper"),
        ],
        {0: dict(hand=[], in_play=["Bridge", "Swindler"]), 1: dict(deck=[], discard=["Curse"])},
        {"Copper": 1},
        {"Curse": -1},
        (0, 2, 3),
        "buy",
    ),
]


@pytest.mark.parametrize("setup,steps,expect,trash,gained,turn,nxt", card_rows(BRIDGE_ROWS))
def test_bridge_cost_checks(setup, steps, expect, trash, gained, turn, nxt):
    sc = Scenario(steps=steps, **setup)
    sc.run(steps).check(expect, trash=trash, gained=gained, turn=turn, next=nxt)


def test_bridge_lasts_only_for_the_turn():
    sc = Scenario(hands={0: ["Bridge"], 1: ["Copper", "Copper", "Copper"]})
    sc.run([play("Bridge"), S(0, "buy", "PASS", legal=upto(1, red=1, can_pass=True))])
    assert sc.g.turn["player"] == 1
    sc.run(
        [
            S(1, "play_treasure", "Copper"),
            S(1, "play_treasure", "Copper"),
            S(1, "play_treasure", "Copper", coins=3),
            S(1, "buy", "Silver", legal=upto(3, can_pass=True)),
        ]
    )


# ---------------------------------------------------------------------------------------------
# Coppersmith, Mining Village
# ---------------------------------------------------------------------------------------------


def test_coppersmith_cumulative_and_only_for_coppers_played_after_it():
    """A Copper already in play stays at $1; Throne Room on Coppersmith: each later Copper
    makes $3; Silver is untouched; next turn Copper is back to $1."""
    sc = Scenario(
        hands={0: ["Throne Room", "Coppersmith", "Copper", "Copper", "Silver"], 1: ["Copper"]},
        in_play={0: ["Copper"]},
        coins=1,
    )
    sc.run(
        [
            play("Throne Room"),
            S(0, "play_twice", "Coppersmith", coins=1),
            S(0, "play_treasure", "Copper", coins=4),
            S(0, "play_treasure", "Silver", coins=6),
            S(0, "play_treasure", "Copper", coins=9),
        ]
    )
    sc.check(
        {
            0: dict(
                hand=[],
                in_play=["Throne Room", "Coppersmith", "Copper", "Copper", "Copper", "Silver"],
            )
        },
        turn=(0, 1, 9),
        next="buy",
    )
    sc.run([S(0, "buy", "PASS"), S(1, "play_treasure", "Copper", coins=1)])


def test_two_coppersmiths():
    sc = Scenario(hands={0: ["Coppersmith", "Coppersmith", "Copper"]}, actions=2)
    sc.run([play("Coppersmith"), play("Coppersmith"), S(0, "play_treasure", "Copper", coins=3)])
    sc.check(
        {0: dict(hand=[], in_play=["Coppersmith", "Coppersmith", "Copper"])},
        turn=(0, 1, 3),
        next="buy",
    )


@pytest.mark.parametrize(
    "first,second", [("option 0", None), ("PASS", "option 0"), ("PASS", "PASS")]
)
def test_mining_village_under_throne_room_is_trashed_at_most_once(first, second):
    """Each play: +1 Card +2 Actions; the trash (and its +$2) is offered only while this copy
    is still in play: never after the first play trashed it."""
    sc = Scenario(
        hands={0: ["Throne Room", "Mining Village"]}, decks={0: ["Copper", "Silver", "Gold"]}
    )
    steps = [
        play("Throne Room"),
        S(0, "play_twice", "Mining Village"),
        S(0, "choose", first, legal=YES_NO, source="Mining Village"),
    ]
    if second:
        steps.append(S(0, "choose", second, legal=YES_NO, source="Mining Village"))
    sc.run(steps)
    trashed = "option 0" in (first, second)
    sc.check(
        {
            0: dict(
                hand=["Copper", "Silver"],
                deck=["Gold"],
                in_play=["Throne Room"] + ([] if trashed else ["Mining Village"]),
            )
        },
        trash={"Mining Village": 1} if trashed else {},
        turn=(4, 1, 2 if trashed else 0),
        next="play_treasure",
    )


def test_mining_village_under_throne_room_with_another_one_in_play():
    """Another Mining Village already in play is not this copy: after this one is trashed the
    second play asks nothing."""
    sc = Scenario(
        hands={0: ["Throne Room", "Mining Village"]},
        in_play={0: ["Mining Village"]},
        decks={0: ["Copper", "Silver", "Gold"]},
        actions=3,
    )
    sc.run(
        [
            play("Throne Room"),
            S(0, "play_twice", "Mining Village"),
            S(0, "choose", "option 0", legal=YES_NO),
        ]
    )
    sc.check(
        {
            0: dict(
                hand=["Copper", "Silver"], deck=["Gold"], in_play=["Throne Room", "Mining Village"]
            )
        },
        trash={"Mining Village": 1},
        turn=(6, 1, 2),
        next="play_treasure",
    )


# ---------------------------------------------------------------------------------------------
# Attacks with several victims: Minion, Torturer, Swindler, Saboteur
# ---------------------------------------------------------------------------------------------


def test_minion_reactions_come_first_then_mode_then_hands_of_5_or_more():
    """4 players. P1 reveals Moat (5 cards, unaffected); P3 (4 cards) may reveal Secret
    Chamber anyway; only then P0 chooses; P2 (5 cards) discards and draws 4, P3 is spared."""
    sc = Scenario(
        players=4,
        hands={
            0: ["Minion", "Copper", "Estate"],
            1: ["Moat", "Copper", "Copper", "Estate", "Estate"],
            2: ["Copper", "Copper", "Copper", "Estate", "Silver"],
            3: ["Secret Chamber", "Gold", "Gold", "Duchy"],
        },
        decks={
            0: ["Silver", "Silver", "Gold", "Gold", "Province"],
            1: ["Gold"] * 4,
            2: ["Duchy", "Duchy", "Gold", "Gold", "Province"],
            3: ["Province", "Curse", "Estate"],
        },
    )
    sc.run(
        [
            play("Minion"),
            S(1, "react", "Moat", legal=["Moat", "PASS"], source="Minion"),
            S(3, "react", "Secret Chamber", legal=["Secret Chamber", "PASS"], source="Minion"),
            S(3, "topdeck", "Duchy", count=2),
            S(3, "topdeck", "Gold", count=1),
        ]
    )
    assert sc.g.zones(0)["hand"] == {"Copper": 1, "Estate": 1}  # nothing happened yet
    sc.run([S(0, "choose", "option 1", legal=TWO, source="Minion")])
    sc.check(
        {
            0: dict(
                hand=["Silver", "Silver", "Gold", "Gold"],
                deck=["Province"],
                discard=["Copper", "Estate"],
                in_play=["Minion"],
            ),
            2: dict(
                hand=["Duchy", "Duchy", "Gold", "Gold"],
                deck=["Province"],
                discard=["Copper", "Copper", "Copper", "Estate", "Silver"],
            ),
            3: dict(
                hand=["Secret Chamber", "Gold", "Province", "Curse"],
                deck=["Gold", "Duchy", "Estate"],
            ),
        },
        turn=(1, 1, 0),
        next="play_treasure",
    )


def test_reaction_window_comes_before_the_attack_does_anything():
    """Torturer: P1 reveals Secret Chamber before P0 draws its 3 cards; Swindler: its +$2 comes
    after the window too."""
    sc = Scenario(
        hands={0: ["Torturer"], 1: ["Secret Chamber", "Copper"]},
        decks={0: ["Copper", "Estate", "Silver", "Gold"], 1: ["Duchy", "Estate"]},
    )
    sc.run([play("Torturer"), S(1, "react", "Secret Chamber", source="Torturer")])
    assert sc.g.zones(0)["hand"] == {} and len(sc.g.zones(0)["deck"]) == 4
    sc.run([S(1, "topdeck", "Duchy", count=2), S(1, "topdeck", "Estate", count=1)])
    assert sc.g.zones(0)["hand"] == {"Copper": 1, "Estate": 1, "Silver": 1}
    sc.run(
        [
            S(1, "choose", "option 0", legal=TWO),
            S(1, "discard", "Copper", count=2, legal=["Secret Chamber", "Copper"]),
            S(1, "discard", "Secret Chamber", count=1),
        ]
    )
    sc.check(
        {
            0: dict(hand=["Copper", "Estate", "Silver"], deck=["Gold"], in_play=["Torturer"]),
            1: dict(hand=[], deck=["Estate", "Duchy"], discard=["Copper", "Secret Chamber"]),
        },
        turn=(0, 1, 0),
        next="play_treasure",
    )

    sc = Scenario(hands={0: ["Swindler"], 1: ["Moat"]}, decks={1: ["Silver"]})
    sc.run([play("Swindler", coins=0), S(1, "react", "Moat", coins=2)])
    sc.check({0: dict(hand=[], in_play=["Swindler"])}, turn=(0, 1, 2), next="buy")


def test_minion_moat_against_the_coin_mode():
    sc = Scenario(hands={0: ["Minion"], 1: ["Moat", "Copper", "Copper", "Estate", "Estate"]})
    sc.run([play("Minion"), S(1, "react", "Moat"), S(0, "choose", "option 0", legal=TWO)])
    sc.check({0: dict(hand=[], in_play=["Minion"])}, turn=(1, 1, 2), next="buy")


def test_torturer_victims_choose_in_turn_order_last_curse():
    """3 players, 1 Curse left: P1 takes it (to hand) before P2 chooses; P2 may still choose
    the Curse and gains nothing."""
    sc = Scenario(
        players=3,
        hands={0: ["Torturer"], 1: ["Copper", "Estate"], 2: ["Silver", "Duchy"]},
        decks={0: ["Copper", "Copper", "Estate", "Gold"]},
        supply={"Curse": 1},
    )
    sc.run([play("Torturer"), S(1, "choose", "option 1", legal=TWO, source="Torturer")])
    assert sc.g.zones(1)["hand"] == {"Copper": 1, "Estate": 1, "Curse": 1}
    assert sc.g.supply["Curse"] == 0
    sc.run([S(2, "choose", "option 1", legal=TWO, source="Torturer")])
    sc.check(
        {
            0: dict(hand=["Copper", "Copper", "Estate"], deck=["Gold"], in_play=["Torturer"]),
            1: dict(hand=["Copper", "Estate", "Curse"]),
        },
        gained={"Curse": -1},
        turn=(0, 1, 0),
        next="play_treasure",
    )


def test_torturer_order_from_the_left_of_the_attacker():
    """P1 plays it in a 3-player game: P2 decides first, then P0; Moat spares its owner."""
    sc = Scenario(
        players=3,
        turn_player=1,
        hands={1: ["Torturer"], 2: ["Copper", "Estate", "Estate"], 0: ["Moat", "Copper"]},
        decks={1: ["Copper", "Copper", "Estate"]},
    )
    sc.run(
        [
            play("Torturer", player=1),
            S(0, "react", "PASS", legal=["Moat", "PASS"]),
            S(2, "choose", "option 0"),
            S(2, "discard", "Estate", count=2),
            S(2, "discard", "Estate", count=1),
            S(0, "choose", "option 1", legal=TWO),
        ]
    )
    sc.check(
        {
            1: dict(hand=["Copper", "Copper", "Estate"], deck=[], in_play=["Torturer"]),
            2: dict(hand=["Copper"], discard=["Estate", "Estate"]),
            0: dict(hand=["Moat", "Copper", "Curse"]),
        },
        gained={"Curse": -1},
        turn=(0, 1, 0),
        next="play_treasure",
        player=1,
    )


def test_swindler_attacker_chooses_for_each_victim():
    """4 players: P1's Silver becomes a Village, P2 reveals Moat (its deck untouched), P3's
    Copper becomes a Curse; P0 decides every gain."""
    sc = Scenario(
        players=4,
        hands={0: ["Swindler"], 2: ["Moat"]},
        decks={1: ["Silver", "Estate"], 2: ["Gold"], 3: ["Copper"]},
    )
    sc.run(
        [
            play("Swindler"),
            S(2, "react", "Moat", legal=["Moat", "PASS"]),
            S(0, "gain", "Village", legal=exactly(3), target=1, card="Silver", source="Swindler"),
            S(0, "gain", "Curse", legal=["Copper", "Curse"], target=3, card="Copper"),
        ]
    )
    sc.check(
        {
            0: dict(hand=[], in_play=["Swindler"]),
            1: dict(deck=["Estate"], discard=["Village"]),
            3: dict(deck=[], discard=["Curse"]),
        },
        trash={"Silver": 1, "Copper": 1},
        gained={"Village": -1, "Curse": -1},
        turn=(0, 1, 2),
        next="buy",
    )


def test_saboteur_reveals_past_the_deck_without_shuffling_in_the_revealed_cards():
    """The deck (Copper, Estate) runs out mid-reveal: only the discard pile (a Silver) is
    shuffled; the Silver is trashed; the victim gains a Copper; the revealed cards are
    discarded."""
    sc = Scenario(
        hands={0: ["Saboteur"]}, decks={1: ["Copper", "Estate"]}, discards={1: ["Silver"]}
    )
    sc.run([play("Saboteur"), S(1, "gain", "Copper", legal=upto(1, can_pass=True))])
    sc.check(
        {
            0: dict(hand=[], in_play=["Saboteur"]),
            1: dict(deck=[], discard=["Copper", "Estate", "Copper"]),
        },
        trash={"Silver": 1},
        gained={"Copper": -1},
        turn=(0, 1, 0),
        next="buy",
    )
    assert sc.shuffles() == ["P1 shuffles 1 cards"]


def test_saboteur_three_players_each_victim_decides():
    sc = Scenario(
        players=3,
        hands={0: ["Saboteur"]},
        decks={1: ["Province", "Copper"], 2: ["Estate", "Duchy", "Gold"]},
    )
    sc.run(
        [
            play("Saboteur"),
            S(1, "gain", "Gold", legal=upto(6, can_pass=True), source="Saboteur"),
            S(2, "gain", "PASS", legal=upto(3, can_pass=True), source="Saboteur"),
        ]
    )
    sc.check(
        {
            0: dict(hand=[], in_play=["Saboteur"]),
            1: dict(deck=["Copper"], discard=["Gold"]),
            2: dict(deck=["Gold"], discard=["Estate"]),
        },
        trash={"Province": 1, "Duchy": 1},
        gained={"Gold": -1},
        turn=(0, 1, 0),
        next="buy",
    )


# ---------------------------------------------------------------------------------------------
# Tribute, Wishing Well, Scout around the deck's edges
# ---------------------------------------------------------------------------------------------


def test_tribute_three_players_the_left_player_reveals():
    sc = Scenario(
        players=3,
        turn_player=2,
        hands={2: ["Tribute"]},
        decks={
            0: ["Silver", "Great Hall", "Estate"],
            1: ["Gold", "Gold"],
            2: ["Copper", "Estate", "Duchy"],
        },
    )
    sc.run([play("Tribute", player=2)])
    sc.check(
        {
            2: dict(hand=["Copper", "Estate"], deck=["Duchy"], in_play=["Tribute"]),
            0: dict(deck=["Estate"], discard=["Silver", "Great Hall"]),
        },
        turn=(2, 1, 2),
        next="play_treasure",
        player=2,
    )


def test_wishing_well_naming_a_card_not_in_the_game():
    kingdom = [
        "Wishing Well",
        "Village",
        "Smithy",
        "Festival",
        "Laboratory",
        "Market",
        "Woodcutter",
        "Cellar",
        "Chapel",
        "Workshop",
    ]
    sc = Scenario(
        kingdom=kingdom, hands={0: ["Wishing Well"]}, decks={0: ["Copper", "Gold", "Estate"]}
    )
    assert "Harem" not in sc.g.supply
    sc.run([play("Wishing Well"), S(0, "name", "Harem", legal=ALL_NAMES)])
    sc.check(
        {0: dict(hand=["Copper"], deck=["Gold", "Estate"], in_play=["Wishing Well"])},
        turn=(1, 1, 0),
        next="play_treasure",
    )


def test_wishing_well_reveal_shuffles_the_discard_pile():
    sc = Scenario(hands={0: ["Wishing Well"]}, decks={0: ["Copper"]}, discards={0: ["Gold"]})
    sc.run([play("Wishing Well"), S(0, "name", "Gold")])
    sc.check(
        {0: dict(hand=["Copper", "Gold"], deck=[], discard=[], in_play=["Wishing Well"])},
        turn=(1, 1, 0),
        next="play_treasure",
    )
    assert sc.shuffles() == ["P0 shuffles 1 cards"]


def test_scout_with_fewer_than_4_cards_does_not_shuffle_in_the_revealed_ones():
    sc = Scenario(hands={0: ["Scout"]}, decks={0: ["Estate", "Copper"]}, discards={0: ["Silver"]})
    sc.run([play("Scout"), S(0, "topdeck", "Silver", legal=["Copper", "Silver"])])
    sc.check(
        {0: dict(hand=["Estate"], deck=["Copper", "Silver"], discard=[], in_play=["Scout"])},
        turn=(1, 1, 0),
        next="buy",
    )
    assert sc.shuffles() == ["P0 shuffles 1 cards"]


# ---------------------------------------------------------------------------------------------
# 5 and 6 players; the recommended Intrigue kingdoms
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players,provinces,curses,coppers,silvers,golds,end_piles",
    [
        (4, 12, 30, 32, 40, 30, 3),
        (5, 15, 40, 85, 80, 60, 4),
        (6, 18, 50, 78, 80, 60, 4),
    ],
)
def test_many_players_pile_sizes_and_empty_piles_to_end(
    players, provinces, curses, coppers, silvers, golds, end_piles
):
    g = Game(
        kingdom_for({"Great Hall", "Duke"}),
        players=players,
        seed=0,
        autoplay_treasures=False,
        auto_resolve=False,
    )
    s = g.supply
    assert (s["Province"], s["Curse"], s["Copper"], s["Silver"], s["Gold"]) == (
        provinces,
        curses,
        coppers,
        silvers,
        golds,
    )
    assert s["Estate"] == s["Duchy"] == s["Great Hall"] == s["Duke"] == 12
    assert s["Village"] == 10
    piles = ["Village", "Smithy", "Festival", "Laboratory"]
    g.set_scenario(supply={n: 0 for n in piles[: end_piles - 1]}, phase="buying")
    g.step("PASS")
    assert not g.done and g.turn["player"] == 1
    g.set_scenario(supply={n: 0 for n in piles[:end_piles]}, phase="buying")
    g.step("PASS")
    assert g.terminated


INTRIGUE_SETS = [
    "Victory Dance",
    "Secret Schemes",
    "Best Wishes",
    "Deconstruction",
    "Hand Madness",
    "Underlings",
]


def _cards_in_game(vec):
    s = vec.state
    return (
        s["zone"].sum(axis=(1, 2, 3))
        + s["player"][:, :, DECK_LEN].sum(axis=1)
        + s["pile"][:, SUPPLY].sum(axis=1)
        + s["pile"][:, TRASH].sum(axis=1)
    )


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("name", INTRIGUE_SETS)
def test_recommended_intrigue_kingdom_plays(name, players):
    """A few hundred random legal steps in 8 games: always a legal action, cards conserved,
    and the kingdom's cards do get played (their effects ask decisions)."""
    assert name in RECOMMENDED
    vec = VecGame(8, players, name, auto_resolve=False)
    vec.reset(seed=players)
    total = _cards_in_game(vec)
    assert set(total) == {total[0]}
    kingdom = {ID[n] for n in RECOMMENDED[name]}
    sources = set()
    for _ in range(400):
        assert vec.action_mask.any(axis=1).all()
        vec.step(vec.random_actions())
        sources.update(int(x) for x in vec.state["game"][:, DEC_SOURCE])
        np.testing.assert_array_equal(_cards_in_game(vec), total)
    assert sources & kingdom


def test_two_secret_chambers_each_revealed_once_to_one_attack():
    """Each Reaction card in hand may be revealed once per Attack: with two Secret Chambers in
    hand, the second copy is offered after the first one resolved, then no more."""
    from dominion_env import Game

    g = Game(
        [
            "Militia",
            "Secret Chamber",
            "Village",
            "Smithy",
            "Market",
            "Festival",
            "Laboratory",
            "Cellar",
            "Chapel",
            "Moat",
        ],
        seed=0,
        auto_resolve=False,
        autoplay_treasures=False,
    )
    g.set_scenario(
        hands={
            0: ["Militia"],
            1: ["Secret Chamber", "Secret Chamber", "Copper", "Estate", "Estate"],
        },
        decks={1: ["Gold", "Silver", "Duchy", "Curse"]},
    )
    g.step("Militia")
    assert g.decision["kind"] == "react" and g.legal_actions() == ["Secret Chamber", "PASS"]
    g.step("Secret Chamber")  # +2 Cards: Gold, Silver
    assert g.zones(1)["hand"] == {
        "Secret Chamber": 2,
        "Copper": 1,
        "Estate": 2,
        "Gold": 1,
        "Silver": 1,
    }
    g.step("Estate")
    g.step("Estate")
    assert g.zones(1)["deck"] == ["Estate", "Estate", "Duchy", "Curse"]
    # the second copy: still two in hand, one revealed
    assert g.decision["kind"] == "react" and g.legal_actions() == ["Secret Chamber", "PASS"]
    g.step("Secret Chamber")  # draws the two Estates back
    g.step("Secret Chamber")  # puts one Secret Chamber back: one copy left, both revealed
    g.step("Estate")
    assert g.zones(1)["deck"] == ["Estate", "Secret Chamber", "Duchy", "Curse"]
    # no Reaction left to reveal: Militia resolves, P1 discards down to 3
    assert g.decision["kind"] == "discard" and g.current_player == 1
    assert g.zones(1)["hand"] == {
        "Secret Chamber": 1,
        "Copper": 1,
        "Estate": 1,
        "Gold": 1,
        "Silver": 1,
    }
    assert g.turn["coins"] == 2
