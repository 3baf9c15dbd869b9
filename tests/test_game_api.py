"""The researcher's Game (dominion_env/game.py): each decision by names with its legal actions
and labels, the Throne Room play that asks it and whether auto_resolve would take it; one
seat's observation by piece name in the players' own seat numbers; what every player knows of
a seat; turns taken per player. Exact values on set_scenario positions."""

from __future__ import annotations

import numpy as np
import pytest

from dominion_env import Game
from dominion_env.cards import MAX_PLAYERS, NAMES, card_id
from dominion_env.engine.layout import COST_ANY_HI, EV_DECIDE, OPTION0, PASS
from dominion_env.engine.observation import PER_SEAT_PIECES, obs_layout
from dominion_env.game import SEAT_PIECES, Decision

KINGDOM = [
    "Throne Room",
    "Militia",
    "Chapel",
    "Moat",
    "Cellar",
    "Pawn",
    "Bureaucrat",
    "Village",
    "Smithy",
    "Market",
]


def _game(auto_resolve=False, players=2) -> Game:
    return Game(KINGDOM, players, 3, auto_resolve=auto_resolve)


def _legal(*names_labels):
    """(index, name, label) rows from (name, label) pairs, in index order."""
    rows = []
    for name, label in names_labels:
        if name == "PASS":
            rows.append((PASS, "PASS", label))
        elif name.startswith("option "):
            rows.append((OPTION0 + int(name[7:]), name, label))
        else:
            rows.append((card_id(name), name, label))
    return tuple(sorted(rows))


def test_decision_of_the_turn_by_names_with_labels():
    g = _game()
    g.set_scenario(hands={0: ["Throne Room", "Chapel", "Copper", "Copper", "Estate"]})
    assert g.decision == Decision(
        kind="play_action",
        player=0,
        source=None,
        card=None,
        target=-1,
        cost_range=(0, COST_ANY_HI),
        count=0,
        can_pass=True,
        played_by=None,
        play=None,
        legal=_legal(
            ("Chapel", "play Chapel"),
            ("Throne Room", "play Throne Room"),
            ("PASS", "end the Action phase"),
        ),
        auto_resolvable=False,
    )
    assert g.decision.text == "play action"
    # still read as the dict it was
    d = g.decision
    assert (d["kind"], d["source"], d["cost_range"]) == ("play_action", None, (0, COST_ANY_HI))
    assert d.as_dict()["legal"] == d.legal and list(d.keys())[:2] == ["kind", "player"]
    with pytest.raises(KeyError, match="'color'"):
        d["color"]
    with pytest.raises(AttributeError):
        d.kind = "buy"  # frozen


def test_throne_room_on_chapel_first_and_second_play():
    g = _game()
    g.set_scenario(hands={0: ["Throne Room", "Chapel", "Copper", "Copper", "Estate", "Curse"]})
    g.step("Throne Room")
    d = g.decision
    assert (d.kind, d.source, d.played_by, d.play) == ("play_twice", "Throne Room", None, None)
    assert d.legal == _legal(("Chapel", "play Chapel twice"), ("PASS", "play nothing"))
    g.step("Chapel")
    seen = []
    for answer in ["Curse", "Estate", "PASS", "Copper", "PASS"]:
        d = g.decision
        seen.append((d.kind, d.source, d.played_by, d.play, d.count, [n for _, n, _ in d.legal]))
        g.step(answer)
    assert seen == [
        ("trash", "Chapel", "Throne Room", 1, 4, ["Copper", "Estate", "Curse", "PASS"]),
        ("trash", "Chapel", "Throne Room", 1, 3, ["Copper", "Estate", "PASS"]),
        ("trash", "Chapel", "Throne Room", 1, 2, ["Copper", "PASS"]),
        ("trash", "Chapel", "Throne Room", 2, 4, ["Copper", "PASS"]),
        ("trash", "Chapel", "Throne Room", 2, 3, ["Copper", "PASS"]),
    ]
    assert g.trash == {"Copper": 1, "Estate": 1, "Curse": 1}
    assert (g.decision.kind, g.decision.play) == ("buy", None)


def test_throne_room_on_militia_asks_the_moat_once_per_play():
    g = _game()
    g.set_scenario(
        hands={
            0: ["Throne Room", "Militia", "Copper"],
            1: ["Moat", "Copper", "Copper", "Estate", "Estate"],
        }
    )
    g.step("Throne Room")
    g.step("Militia")
    first = g.decision
    assert (first.kind, first.player, first.source, first.play) == ("react", 1, "Militia", 1)
    assert first.legal == _legal(("Moat", "reveal Moat"), ("PASS", "reveal nothing"))
    assert first.text == "react, for Militia, 1st play of Throne Room"
    g.step("PASS")
    d = g.decision  # no Moat shown: the victim discards down to 3 in the 1st play
    assert (d.kind, d.player, d.source, d.count, d.play) == ("discard", 1, "Militia", 2, 1)
    g.step("Estate")
    g.step("Estate")
    second = g.decision
    assert (second.kind, second.player, second.source, second.play) == ("react", 1, "Militia", 2)
    assert second.text == "react, for Militia, 2nd play of Throne Room"
    g.step("Moat")
    assert (g.decision.kind, g.decision.player, g.turn["coins"]) == ("buy", 0, 5)


def test_throne_room_on_throne_room_names_the_first_play():
    g = _game()
    g.set_scenario(hands={0: ["Throne Room", "Throne Room", "Village", "Smithy"]})
    g.step("Throne Room")
    g.step("Throne Room")
    d = g.decision  # the second Throne Room, in the first play the first one gives it
    assert (d.kind, d.source, d.played_by, d.play) == (
        "play_twice",
        "Throne Room",
        "Throne Room",
        1,
    )
    assert [n for _, n, _ in d.legal] == ["Village", "Smithy", "PASS"]


def test_option_labels_come_from_the_card():
    g = _game()
    g.set_scenario(hands={0: ["Pawn"]}, decks={0: ["Copper"] * 3})
    g.step("Pawn")
    d = g.decision
    assert (d.kind, d.source, d.can_pass) == ("choose", "Pawn", False)
    assert d.legal == _legal(
        ("option 0", "+1 Card +1 Action"),
        ("option 1", "+1 Card +1 Buy"),
        ("option 2", "+1 Card +$1"),
        ("option 3", "+1 Action +1 Buy"),
        ("option 4", "+1 Action +$1"),
        ("option 5", "+1 Buy +$1"),
    )


def _decided(g: Game) -> int:
    return int((g.log_events()[:, 0] == EV_DECIDE).sum())


def test_one_legal_action_stops_without_auto_resolve_and_says_so():
    position = dict(
        hands={0: ["Militia"], 1: ["Copper", "Copper", "Copper", "Copper"]},
        decks={0: ["Silver", "Silver"]},
    )
    g = _game(auto_resolve=False)
    g.set_scenario(**position)
    g.step("Militia")
    d = g.decision  # the victim's only card kind: one legal action, yet a decision
    assert (d.kind, d.player, d.count, d.auto_resolvable) == ("discard", 1, 1, True)
    assert d.legal == ((card_id("Copper"), "Copper", "discard Copper"),)
    auto = _game(auto_resolve=True)
    auto.set_scenario(**position)
    auto.step("Militia")
    assert (auto.decision.kind, auto.decision.player, auto.decision.auto_resolvable) == (
        "buy",
        0,
        False,
    )
    assert auto.zones(1)["hand"] == {"Copper": 3} and _decided(auto) == 1


def test_a_decision_with_nothing_to_choose_never_stops():
    # Cellar with an empty hand after it: its discard decision would offer PASS alone. It is
    # taken at once even with auto_resolve=False (nothing to choose: machine.advance), and the
    # Action phase with no Action card in hand asks nothing either.
    g = _game(auto_resolve=False)
    g.set_scenario(hands={0: ["Cellar"]}, decks={0: ["Copper"]})
    g.step("Cellar")
    assert (g.decision.kind, g.decision.source) == ("buy", None)
    assert _decided(g) == 1  # the Cellar play only
    assert g.zones(0)["hand"] == {} and g.zones(0)["in_play"] == {"Cellar": 1}


@pytest.mark.parametrize(
    "deck, asked",
    [
        (["Silver", "Copper", "Copper"], []),  # two Coppers kept: their order is no choice
        (["Silver", "Copper", "Estate"], [("topdeck", "Sentry", ("Copper", "Estate"))]),
    ],
)
def test_sentry_asks_the_order_only_of_different_cards(deck, asked):
    g = Game(["Sentry", *KINGDOM[1:]], 2, 3, auto_resolve=False)
    g.set_scenario(hands={0: ["Sentry"]}, decks={0: deck})
    g.step("Sentry")
    for _ in range(2):
        assert (g.decision.kind, g.decision.source) == ("choose", "Sentry")
        g.step("option 2")  # keep it
    got = []
    while g.decision.kind != "buy":
        d = g.decision
        got.append((d.kind, d.source, tuple(n for _, n, _ in d.legal)))
        g.step(d.legal[0][0])
    assert got == asked
    assert sorted(g.zones(0)["deck"]) == sorted(deck[1:])


def test_turns_taken_per_player():
    g = _game()
    g.set_scenario(hands={0: ["Copper"]}, turns_taken=[3, 2], turn_player=0)
    assert g.turns_taken == [3, 2] and g.turn["turn_number"] == 6
    while g.current_player == 0:
        g.step("PASS")
    assert g.turns_taken == [4, 2] and g.turn["player"] == 1


def test_public_pieces_of_a_seat():
    g = _game()
    g.set_scenario(
        hands={0: ["Bureaucrat", "Copper"], 1: ["Estate", "Duchy", "Copper"]},
        decks={0: ["Gold"], 1: ["Silver", "Silver"]},
        discards={1: ["Curse"]},
        turns_taken=[1, 1],
    )
    g.step("Bureaucrat")
    g.step("Duchy")  # the victim puts a Victory card onto its deck, in view
    assert g.decision.kind == "buy"  # the Buy phase played the Copper
    assert g.public(0) == {
        "hand_size": 0,
        "draw_size": 2,
        "discard_size": 0,
        "in_play": {"Copper": 1, "Bureaucrat": 1},
        "turns_taken": 1,
        "public_hand": {},
        "public_top": ["Silver"],  # the gained Silver, on the Gold nobody saw
        "owned": {"Copper": 1, "Silver": 1, "Gold": 1, "Bureaucrat": 1},
    }
    assert g.public(1) == {
        "hand_size": 2,
        "draw_size": 3,
        "discard_size": 1,
        "in_play": {},
        "turns_taken": 1,
        "public_hand": {},
        "public_top": ["Duchy"],
        "owned": {"Copper": 1, "Silver": 2, "Estate": 1, "Duchy": 1, "Curse": 1},
    }
    # the same facts as the other player's observation shows (2 players: no hidden passes)
    for seat, viewer in ((0, 1), (1, 0)):
        pieces = g.observation_pieces(viewer)
        pub = g.public(seat)
        assert _named(pieces["owned"][seat]) == pub["owned"]
        assert _named(pieces["public_top"][seat]) == _named_list(pub["public_top"])
        assert pieces["hand_size"][seat] == pub["hand_size"]
        assert pieces["turns_taken"][seat] == pub["turns_taken"]
    with pytest.raises(ValueError, match="player must be 0..1, got 2"):
        g.public(2)


def test_public_owned_cards_leave_out_masquerade_passes_with_three_players():
    g = Game(["Masquerade", *KINGDOM[1:]], 3, 3, auto_resolve=False)
    g.set_scenario(
        hands={0: ["Masquerade", "Estate"], 1: ["Copper"], 2: ["Silver"]},
        decks={0: ["Gold", "Gold"]},
    )
    g.step("Masquerade")
    passes = []
    for card in ("Estate", "Copper", "Silver"):
        d = g.decision
        passes.append((d.kind, d.player, [label for _, _, label in d.legal]))
        g.step(card)
    assert passes == [
        ("pass_card", 0, ["pass Gold to the left", "pass Estate to the left"]),
        ("pass_card", 1, ["pass Copper to the left"]),
        ("pass_card", 2, ["pass Silver to the left"]),
    ]
    assert g.zones(1)["hand"] == {"Estate": 1}
    # every player saw P1 own a Copper; only P0 knows of the Estate, only P2 of the pass
    assert g.public(1)["owned"] == {"Copper": 1}
    assert _named(g.observation_pieces(0)["owned"][1]) == {"Copper": 1, "Estate": 1}
    assert _named(g.observation_pieces(2)["owned"][1]) == {}
    assert _named(g.observation_pieces(1)["owned"][1]) == {"Estate": 1}


def _named(row) -> dict:
    return {NAMES[c]: int(row[c]) for c in np.flatnonzero(row)}


def _named_list(names) -> dict:
    out: dict = {}
    for n in names:
        out[n] = out.get(n, 0) + 1
    return out


def test_observation_pieces_use_the_players_own_seats():
    g = Game(KINGDOM, 3, 4)
    g.set_scenario(
        hands={0: ["Copper"], 1: ["Copper"] * 2, 2: ["Village", "Copper", "Copper", "Copper"]},
        decks={0: ["Estate"], 2: ["Estate"] * 2},
        turn_player=2,
        turns_taken=[1, 1, 0],
    )
    for seat in range(3):
        p = g.observation_pieces(seat)
        assert p["hand_size"].tolist() == [1, 2, 4]
        assert p["draw_size"].tolist() == [1, 0, 2]
        assert p["turns_taken"].tolist() == [1, 1, 0]
        assert p["turn_seat"].tolist() == [0, 0, 1]
        assert p["owned"][2, card_id("Copper")] == 3 and p["owned"][1, card_id("Estate")] == 0
        # the viewer's own pieces are its own, the rotated vector's seat 0
        rotated = g.observation_dict(seat)
        assert p["hand"].tolist() == rotated["hand"].tolist()
        assert p["hand_size"][seat] == rotated["hand_size"][0]
        p["hand"][:] = -1  # a copy: the game's vector does not change
        assert g.observation_dict(seat)["hand"].tolist() == rotated["hand"].tolist()
    with pytest.raises(ValueError, match="player must be 0..2, got -1"):
        g.observation_pieces(-1)


def test_seat_pieces_are_the_layouts_per_seat_pieces():
    # with 6 players only the per-seat pieces are 6 (or 6 cards' rows) long
    P = MAX_PLAYERS
    per_seat = [n for n, size in obs_layout(P) if size == P]
    assert tuple(per_seat) == SEAT_PIECES
    assert PER_SEAT_PIECES == ("owned", "public_hand", "public_top")
