"""Bad input gets a clear error that names the problem."""

import numpy as np
import pytest

from dominion_env import NUM_ACTIONS, PASS, Game, VecGame
from dominion_env.engine import effects
from dominion_env.engine.kingdoms import is_implemented

KINGDOM = [
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
# cards with special effects: refused while their effect is not implemented (see only_vanilla)
SPECIAL = ["Witch", "Torturer", "Chapel"]


@pytest.fixture
def only_vanilla(monkeypatch):
    """The engine as it was before any special card effect landed: only vanilla cards play."""
    monkeypatch.setattr(effects, "IMPLEMENTED_EFFECTS", frozenset({"none"}))
    assert not any(is_implemented(c) for c in SPECIAL)


def snapshot(vec):
    return (vec.observation.copy(), vec.action_mask.copy(), vec.current_player.copy())


def assert_same(a, b):
    for x, y in zip(a, b, strict=True):
        assert np.array_equal(x, y)


def game(**kw):
    return Game(KINGDOM, seed=0, auto_resolve=False, autoplay_treasures=False, **kw)


# ---------------------------------------------------------------------------------------------
# Card names
# ---------------------------------------------------------------------------------------------


def test_unknown_card_in_kingdom():
    with pytest.raises(ValueError, match=r"unknown card name 'Villag'"):
        Game(["Villag"] + KINGDOM[1:])
    with pytest.raises(
        ValueError, match=r"unknown card name 'great hall'.*Did you mean 'Great Hall'"
    ):
        Game(KINGDOM[:6] + ["great hall"] + KINGDOM[7:])
    with pytest.raises(ValueError, match=r"unknown card name 'Villag'"):
        VecGame(2, kingdom=["Villag"] + KINGDOM[1:])


@pytest.mark.parametrize("zone", ["hands", "decks", "discards", "in_play", "aside"])
def test_unknown_card_in_scenario(zone):
    g = game()
    with pytest.raises(ValueError, match=r"unknown card name 'Smithee'"):
        g.set_scenario(**{zone: {0: ["Smithy", "Smithee"]}})


def test_unknown_card_in_scenario_supply_and_trash():
    g = game()
    with pytest.raises(ValueError, match=r"unknown card name 'Provence'"):
        g.set_scenario(supply={"Provence": 0})
    with pytest.raises(ValueError, match=r"unknown card name 'Provence'"):
        g.set_scenario(trash={"Provence": 1})


@pytest.mark.parametrize("card", SPECIAL)
def test_unimplemented_card_in_scenario(card, only_vanilla):
    g = game()
    for kw in (
        dict(hands={0: [card]}),
        dict(decks={1: [card]}),
        dict(supply={card: 10}),
        dict(discards={0: {card: 2}}),
    ):
        with pytest.raises(NotImplementedError, match=f"not implemented yet: {card}"):
            g.set_scenario(**kw)


def test_unknown_card_in_step():
    g = game()
    g.set_scenario(phase="buying", coins=3)
    with pytest.raises(ValueError, match=r"unknown card name 'Silvr'"):
        g.step("Silvr")
    with pytest.raises(ValueError, match="option"):
        g.step("option 99")
    with pytest.raises(TypeError, match="action"):
        g.step(2.0)
    with pytest.raises(ValueError, match="out of range"):
        g.step(NUM_ACTIONS)
    with pytest.raises(ValueError, match="out of range"):
        g.step(-1)
    # nothing happened
    assert g.decision["kind"] == "buy" and g.turn["coins"] == 3 and g.zones(0)["discard"] == {}


# ---------------------------------------------------------------------------------------------
# Illegal actions
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("action", ["Gold", "Province", "Smithy", "option 0", 9999 % NUM_ACTIONS])
def test_illegal_action_in_game_step(action):
    g = game()
    g.set_scenario(hands={0: ["Village"]}, coins=0)
    assert g.legal_actions() == ["Village", "PASS"]
    with pytest.raises(ValueError, match="illegal"):
        g.step(action)
    assert g.zones(0)["hand"] == {"Village": 1} and g.decision["kind"] == "play_action"


def test_illegal_action_message_names_legal_actions():
    g = game()
    g.set_scenario(phase="buying", coins=0, supply={"Curse": 0})
    with pytest.raises(ValueError, match=r"illegal action 'Silver'.*legal: \['Copper', 'PASS'\]"):
        g.step("Silver")


def test_illegal_action_in_vecgame_step():
    vec = VecGame(3, players=2)
    out = vec.reset(seed=0)
    legal = [np.flatnonzero(out.action_mask[i]) for i in range(3)]
    illegal = [int(np.flatnonzero(~out.action_mask[i])[0]) for i in range(3)]
    actions = np.array([legal[0][0], illegal[1], legal[2][0]], np.int64)
    before = snapshot(vec)
    with pytest.raises(ValueError, match=r"illegal action .* in game 1"):
        vec.step(actions)
    assert_same(snapshot(vec), before)  # no game was stepped


@pytest.mark.parametrize(
    "actions,error,match",
    [
        (np.zeros(2, np.int64), ValueError, "shape"),
        (np.zeros(4, np.int64), ValueError, "shape"),
        (np.zeros((3, 1), np.int64), ValueError, "shape"),
        (np.array(5), ValueError, "shape"),
        (np.full(3, PASS, np.float32), TypeError, "integer"),
        (np.full(3, PASS, np.float64), TypeError, "integer"),
        (np.full(3, NUM_ACTIONS, np.int64), ValueError, "out of range"),
        (np.full(3, -2, np.int64), ValueError, "out of range"),  # -1 skips a game
        (np.array([PASS, PASS, 10**6]), ValueError, "out of range"),
    ],
)
def test_vecgame_step_rejects_bad_actions(actions, error, match):
    vec = VecGame(3, players=2)
    vec.reset(seed=0)
    before = snapshot(vec)
    with pytest.raises(error, match=match):
        vec.step(actions)
    assert_same(snapshot(vec), before)


def test_vecgame_step_before_reset():
    vec = VecGame(2)
    with pytest.raises(RuntimeError, match="reset"):
        vec.step(np.full(2, PASS, np.int64))


# ---------------------------------------------------------------------------------------------
# Players, phases, options
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 7, 10])
def test_bad_player_count(players):
    with pytest.raises(ValueError, match=f"players must be 2 to 6, got {players}"):
        Game("random", players=players)
    with pytest.raises(ValueError, match="2 to 6"):
        VecGame(4, players=players)


@pytest.mark.parametrize("players", ["2", 2.0, True, None])
def test_player_count_not_an_int(players):
    with pytest.raises(TypeError, match="number of players must be an int"):
        Game("random", players=players)


def test_bad_phase_name():
    g = game()
    for phase in ("Action", "cleanup", "buy phase", ""):
        with pytest.raises(
            ValueError,
            match=r"phase must be one of \['action', 'buy', "
            r"'buying'\], got",
        ):
            g.set_scenario(phase=phase)


@pytest.mark.parametrize(
    "kw,match",
    [
        (dict(actions=-1), r"actions must be an int 0\.\.10000, got -1"),
        (dict(buys=1.5), r"buys must be an int 0\.\.10000, got 1\.5"),
        (dict(coins=-3), r"coins must be an int 0\.\.10000, got -3"),
        (dict(turn_player=2), r"turn_player must be an int 0\.\.1, got 2"),
        (dict(hands={2: ["Copper"]}), "player must be 0..1"),
        (dict(turns_taken=[1, 2, 3]), "turns_taken must be a list of 2 ints"),
        (dict(hands={0: {"Copper": 0}}), "must be a positive int"),
        (dict(hands={0: {"Copper": -2}}), "must be a positive int"),
        (dict(supply={"Copper": -1}), "must be a positive int"),
    ],
)
def test_bad_scenario_values(kw, match):
    g = game()
    with pytest.raises((TypeError, ValueError), match=match):  # TypeError: not an int at all
        g.set_scenario(**kw)


@pytest.mark.parametrize(
    "kw",
    [
        dict(hands={0: {"Copper": 128}}),  # one zone alone over the limit
        dict(hands={0: {"Gold": 60}}, discards={1: {"Gold": 40}}),  # with the 30 in the Supply
        dict(supply={"Curse": 100}, trash={"Curse": 28}),
        dict(decks={0: ["Estate"] * 130}),
    ],
)
def test_scenario_over_the_card_limit_is_refused_and_changes_nothing(kw):
    """Card counts are int8: a scenario holding more than 127 copies of a card is refused
    with the card's name, before anything is written."""
    g = game()
    before = g.state.copy()
    with pytest.raises(
        ValueError,
        match=r"copies of (Copper|Gold|Curse|Estate) in the game; "
        r"a game holds at most 127",
    ):
        g.set_scenario(**kw)
    assert g.state.tobytes() == before.tobytes()


def test_scenario_at_the_card_limit_is_accepted():
    g = game()
    g.set_scenario(hands={0: {"Gold": 97}})  # 97 + the 30 in the Supply = 127
    assert g.zones(0)["hand"] == {"Gold": 97}


def test_deck_must_be_ordered():
    g = game()
    with pytest.raises(TypeError, match="ordered list"):
        g.set_scenario(decks={0: {"Copper": 3}})


@pytest.mark.parametrize(
    "kw,match",
    [
        (dict(turn_limit=0), r"turn_limit must be an int 1\.\.100000"),
        (dict(first_player=2), "first_player must be None or 0..1"),
        (dict(autoplay_treasures=1), "autoplay_treasures must be True or False"),
        (dict(seed=-1), r"seed must be an int 0\.\.2\*\*63-1, got -1"),
    ],
)
def test_bad_game_options(kw, match):
    with pytest.raises(
        ValueError if "seed" in kw or "turn" in match or "first" in match else TypeError,
        match=match,
    ):
        Game("random", **kw)


def test_step_after_game_over():
    g = game()
    g.set_scenario(phase="buying", supply={"Province": 0})
    g.step("PASS")
    assert g.done and g.current_player == -1 and g.legal_actions() == []
    with pytest.raises(RuntimeError, match="game is over"):
        g.step("PASS")
    with pytest.raises(RuntimeError, match="game is over"):
        g.observation()


# ---------------------------------------------------------------------------------------------
# Kingdoms
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kingdom,match",
    [
        (KINGDOM[:9], "a kingdom has 10 cards, got 9"),
        (KINGDOM + ["Cellar"], "a kingdom has 10 cards, got 11"),
        (KINGDOM + ["Witch", "Moat"], "a kingdom has 10 cards, got 12"),
        (KINGDOM[:9] + ["Village"], "kingdom lists a card twice"),
        (KINGDOM[:9] + ["Copper"], "'Copper' is a basic card"),
        (KINGDOM[:9] + ["Province"], "'Province' is a basic card"),
        (KINGDOM[:9] + ["Curse"], "'Curse' is a basic card"),
        ([], "a kingdom has 10 cards, got 0"),
    ],
)
def test_bad_kingdom(kingdom, match):
    with pytest.raises(ValueError, match=match):
        Game(kingdom)
    with pytest.raises(ValueError, match=match):
        VecGame(2, kingdom=kingdom)


@pytest.mark.parametrize("card", SPECIAL)
def test_unimplemented_kingdom_card(card, only_vanilla):
    with pytest.raises(NotImplementedError, match=f"not implemented yet: {card}"):
        Game(KINGDOM[:9] + [card])
    with pytest.raises(NotImplementedError, match=f"not implemented yet: {card}"):
        VecGame(2, kingdom=[card] + KINGDOM[1:])


# ---------------------------------------------------------------------------------------------
# The OpenSpiel game and its ISMCTS player (the openspiel extra)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params,match",
    [
        ({"players": 7}, r"players must be an int 2..6 \(seats at the table\), got 7"),
        ({"players": 1}, r"players must be an int 2..6 \(seats at the table\), got 1"),
        ({"kingdom": ",".join(KINGDOM[:9])}, "a kingdom has 10 cards, got 9"),
        ({"kingdom": "Atlantis"}, "unknown kingdom 'Atlantis'"),
        ({"kingdom": ""}, "kingdom must be 'random', a recommended set's name or 10 card"),
        ({"turn_limit": 0}, r"turn_limit must be an int 1..100000 \(turns per player\), got 0"),
        ({"seed": -5}, "seed must be an int 0..2147483647"),
        ({"speed": 2}, "python_dominion has no parameter 'speed'; its parameters: players"),
    ],
)
def test_openspiel_bad_parameter(params, match):
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra")
    from dominion_env.envs.openspiel_game import DominionGame

    with pytest.raises(ValueError, match=match):
        DominionGame(params)
    if "speed" not in params:  # (OpenSpiel refuses an unknown parameter itself, in its words)
        with pytest.raises(ValueError, match=match):
            pyspiel.load_game("python_dominion", params)


def test_openspiel_illegal_action_names_the_legal_ones():
    pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra")
    import dominion_env.envs.openspiel_game  # noqa: F401 (registers python_dominion)

    state = pyspiel.load_game("python_dominion", {"kingdom": "First Game"}).new_initial_state()
    legal = [state.action_to_string(a) for a in state.legal_actions()]
    with pytest.raises(ValueError, match="'Province'|Province") as e:
        state.apply_action(5)  # Province: never affordable at the first decision
    assert "is not legal for player" in str(e.value) and str(legal) in str(e.value)


@pytest.mark.parametrize(
    "name,match",
    [
        ("ismcts:", "ismcts's budget must be simulations per decision, an int 1..1048575"),
        ("ismcts:0", "got '0'"),
        ("ismcts:-3", "got '-3'"),
        ("ismcts:lots", "got 'lots'"),
        ("ismcts:99999999", "got '99999999'"),
    ],
)
def test_bad_ismcts_name(name, match):
    from dominion_env.envs.ismcts import parse_ismcts_name

    with pytest.raises(ValueError, match=match):
        parse_ismcts_name(name)
