"""Setup: Supply pile sizes for 2-6 players, starting decks, kingdoms (recommended and random)."""

from collections import Counter

import pytest

from dominion_env import RECOMMENDED, Game, random_kingdom
from dominion_env.cards import types_of
from dominion_env.engine import effects
from dominion_env.engine.kingdoms import is_implemented, playable_kingdom_cards, resolve_kingdom

# the 10 cards without special effects, in card-id order (Supply pile sizes are checked on them)
VANILLA = (
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
)
BASICS = ("Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse")

# players: Copper, Silver, Gold, Estate/Duchy/Victory kingdom, Province, Curse (../shared/CARDS.md)
PILES = {
    2: (46, 40, 30, 8, 8, 10),
    3: (39, 40, 30, 12, 12, 20),
    4: (32, 40, 30, 12, 12, 30),
    5: (85, 80, 60, 12, 15, 40),
    6: (78, 80, 60, 12, 18, 50),
}


@pytest.mark.parametrize("players", sorted(PILES))
def test_supply_pile_sizes(players):
    copper, silver, gold, victory, province, curse = PILES[players]
    expected = {
        "Copper": copper,
        "Silver": silver,
        "Gold": gold,
        "Estate": victory,
        "Duchy": victory,
        "Province": province,
        "Curse": curse,
        # Action kingdom piles: 10; Victory kingdom piles: like Estate/Duchy
        "Village": 10,
        "Smithy": 10,
        "Festival": 10,
        "Laboratory": 10,
        "Market": 10,
        "Woodcutter": 10,
        "Gardens": victory,
        "Great Hall": victory,
        "Duke": victory,
        "Harem": victory,
    }
    for seed in (0, 5):
        g = Game(list(VANILLA), players=players, seed=seed)
        assert g.supply == expected
        assert g.trash == {}


@pytest.mark.parametrize("players", [2, 3, 5])
def test_random_kingdom_pile_sizes(players):
    victory = 8 if players == 2 else 12
    for seed in range(4):
        g = Game("random", players=players, seed=seed)
        kingdom = [c for c in g.supply if c not in BASICS]
        assert len(kingdom) == 10
        for c in kingdom:
            assert g.supply[c] == (victory if "Victory" in types_of(c) else 10), c


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_starting_decks(players):
    for seed in (0, 1, 2):
        g = Game("random", players=players, seed=seed, autoplay_treasures=False, auto_resolve=False)
        first = g.turn["player"]
        for p in range(players):
            z = g.zones(p)
            assert sum(z["hand"].values()) == 5
            assert len(z["deck"]) == 5
            assert Counter(z["hand"]) + Counter(z["deck"]) == Counter(Copper=7, Estate=3)
            assert z["discard"] == {} and z["in_play"] == {} and z["aside"] == {}
        # no starting hand has an Action: the first player is asked to play a Treasure
        assert g.decision["kind"] == "play_treasure" and g.current_player == first
        assert g.turn == {
            "turn_number": 1,
            "player": first,
            "phase": "buy",
            "actions": 1,
            "buys": 1,
            "coins": 0,
        }
        assert g.scores() == [3] * players
        assert not g.done and list(g.rewards) == [0.0] * players


def test_first_player_option_and_random_first_player():
    for fp in (0, 1, 2):
        assert Game("random", players=3, seed=4, first_player=fp).turn["player"] == fp
    firsts = {Game("random", players=3, seed=s).turn["player"] for s in range(30)}
    assert firsts == {0, 1, 2}


def test_recommended_kingdom_names():
    assert set(RECOMMENDED) == {
        "First Game",
        "Victory Dance",
        "Secret Schemes",
        "Best Wishes",
        "Deconstruction",
        "Hand Madness",
        "Underlings",
    }
    for name, set_cards in RECOMMENDED.items():
        assert len(set_cards) == 10 and len(set(set_cards)) == 10, name
        for c in set_cards:
            assert c not in BASICS


@pytest.fixture
def only_vanilla(monkeypatch):
    """The engine as it was before any special card effect landed: only vanilla cards play."""
    monkeypatch.setattr(effects, "IMPLEMENTED_EFFECTS", frozenset({"none"}))
    assert not is_implemented("Cellar") and is_implemented("Smithy")


@pytest.mark.parametrize("name", sorted(RECOMMENDED))
def test_recommended_kingdoms_resolve_by_name(name):
    """With the card effects the engine has today, a recommended set that is fully implemented
    sets up by name; one that is not raises NotImplementedError naming the missing cards."""
    set_cards = RECOMMENDED[name]
    missing = [c for c in set_cards if not is_implemented(c)]
    if missing:
        check_missing(name, missing)
    else:
        assert resolve_kingdom(name) == set_cards
        for players in (2, 6):
            g = Game(name, players=players, seed=1)
            assert set(g.supply) == set(BASICS) | set(set_cards)


@pytest.mark.parametrize("name", sorted(RECOMMENDED))
def test_recommended_kingdoms_name_missing_cards(name, only_vanilla):
    missing = [c for c in RECOMMENDED[name] if c not in VANILLA]
    assert missing  # every recommended set has a card with a special effect
    check_missing(name, missing)


def check_missing(name, missing):
    for make in (
        lambda: resolve_kingdom(name),
        lambda: Game(name),
        lambda: Game(list(RECOMMENDED[name])),
    ):
        with pytest.raises(NotImplementedError) as err:
            make()
        msg = str(err.value)
        # "card effects not implemented yet: A, B, C. Playable kingdom cards: ..."
        head, listed = msg.split(".")[0].split(": ", 1)
        assert "not implemented" in head
        assert listed.split(", ") == missing, msg


def test_only_vanilla_random_kingdom_is_the_vanilla_cards(only_vanilla):
    assert playable_kingdom_cards() == VANILLA
    for seed in range(3):
        assert random_kingdom(seed) == VANILLA
        assert set(Game("random", seed=seed).supply) == set(BASICS) | set(VANILLA)


def test_unknown_kingdom_name():
    with pytest.raises(ValueError, match="unknown kingdom 'Big Money'"):
        Game("Big Money")


def test_random_kingdom_reproducible_and_playable():
    playable = set(playable_kingdom_cards())
    assert set(VANILLA) <= playable
    kingdoms = set()
    for seed in range(12):
        k = random_kingdom(seed)
        assert k == random_kingdom(seed)
        assert len(k) == 10 and len(set(k)) == 10 and set(k) <= playable
        kingdoms.add(k)
        g = Game("random", seed=seed)
        kg = {c for c in g.supply if c not in BASICS}
        assert len(kg) == 10 and kg <= playable
        assert kg == {c for c in Game("random", seed=seed).supply if c not in BASICS}
    if len(playable) > 10:  # seeds give different kingdoms
        assert len(kingdoms) > 1
        assert len({frozenset(Game("random", seed=s).supply) for s in range(12)}) > 1
    # a pool of exactly 10 cards is always that kingdom
    assert random_kingdom(3, pool=list(VANILLA)) == VANILLA


@pytest.mark.parametrize("players", [2, 4])
def test_random_game_reproducible_from_seed(players):
    def snapshot(g):
        return ([g.zones(p) for p in range(players)], g.supply, g.turn, g.legal_actions())

    a = snapshot(Game("random", players=players, seed=42))
    b = snapshot(Game("random", players=players, seed=42))
    assert a == b
    others = [snapshot(Game("random", players=players, seed=s)) for s in range(43, 53)]
    assert any(o[0] != a[0] for o in others)  # other seeds deal other hands
    # reset(seed) replays the same start
    g = Game("random", players=players, seed=7)
    g.step("PASS")
    g.reset(42)
    assert snapshot(g) == a


def test_same_seed_same_game_played_out():
    def play(seed):
        g = Game("random", seed=seed, turn_limit=6)
        while not g.done:
            legal = g.legal_actions()
            # a fixed policy: buy the most expensive card offered, else pass
            buys = [a for a in legal if a != "PASS"]
            g.step(buys[-1] if g.decision["kind"] == "buy" and buys else legal[0])
        return g.log(), g.scores(), list(g.rewards)

    assert play(3) == play(3)
