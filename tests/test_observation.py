"""Observation honesty and layout.

A player's observation may show only what that player knows under the rules: its own hand,
the composition (never the order) of its own draw pile, public counts. So two positions that
differ only in hidden information (an opponent's hand contents at the same size, the order of
any draw pile) must give the same observation, while a change the viewer can see (its own
hand) must change it. Seats are rotated: the viewer is seat 0, the player to its left seat 1.
The named view ``split`` covers the whole vector with the declared piece sizes. What the rules
make public (revealed hands, cards known on top of a deck) is checked card by card, with the
per-viewer log, in ``test_public_info.py``.
"""

from collections import Counter

import numpy as np
import pytest

from dominion_env import Game, VecGame
from dominion_env.cards import NAMES, NUM_CARDS
from dominion_env.engine.layout import (
    ASIDE,
    DEC_PLAYER,
    DECK_LEN,
    DISCARD,
    HAND,
    IN_PLAY,
    KNOWN_TOP,
    NUM_ACTIONS,
    TURNS_TAKEN,
)
from dominion_env.engine.observation import (
    PIECE_NAMES,
    obs_layout,
    obs_offsets,
    obs_size,
    split,
)

PLAYERS = 3
SEED = 11


def random_game(players=PLAYERS, seed=SEED, steps=0, kingdom="random", **options):
    """A Game after ``steps`` uniformly random legal actions (numpy RNG seeded by ``seed``)."""
    g = Game(kingdom, players=players, seed=seed, **options)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if g.done:
            break
        g.step(int(rng.choice(np.flatnonzero(g.action_mask))))
    return g


def capture(g):
    """Everything set_scenario needs to rebuild g's position at the start of its turn."""
    P = g.players
    z = [g.zones(p) for p in range(P)]
    return dict(
        hands=[dict(z[p]["hand"]) for p in range(P)],
        decks=[list(z[p]["deck"]) for p in range(P)],
        discards=[dict(z[p]["discard"]) for p in range(P)],
        in_play=[dict(z[p]["in_play"]) for p in range(P)],
        aside=[dict(z[p]["aside"]) for p in range(P)],
        supply=dict(g.supply),
        trash=dict(g.trash),
        turn_player=g.turn_player,
        turns_taken=[int(x) for x in g.state["player"][0, :P, TURNS_TAKEN]],
    )


def build(pos, players=PLAYERS, seed=SEED):
    """A fresh Game (same seed: same kingdom) put in position ``pos``; no auto-resolve, so
    set_scenario stops at the first decision of the turn without drawing anything."""
    g = Game("random", players=players, seed=seed, auto_resolve=False)
    g.set_scenario(phase="action", actions=1, buys=1, coins=0, **pos)
    return g


def at_turn_start(g):
    """g waits for its turn player's first Action play: nothing in play or aside, one Action,
    one Buy, no $ (the position set_scenario(phase="action") rebuilds exactly)."""
    turn = g.turn
    return (
        not g.done
        and g.decision["kind"] == "play_action"
        and g.current_player == g.turn_player
        and turn["actions"] == 1
        and turn["buys"] == 1
        and turn["coins"] == 0
        and not any(g.zones(p)["in_play"] or g.zones(p)["aside"] for p in range(g.players))
    )


def midgame_position(players=PLAYERS, seed=SEED):
    """A position from a real game some turns in, at the start of a turn, where every player
    has at least 3 cards in hand, 3 in the draw pile (of at least two different cards) and a
    discard pile holding a card its hand lacks, so that every swap and reordering below
    exists. Returns (that game, captured position)."""
    g = Game("random", players=players, seed=seed, auto_resolve=False)
    rng = np.random.default_rng(seed)
    for step in range(3000):
        if g.done:
            break
        if step >= 60 and at_turn_start(g):
            pos = capture(g)
            if all(
                sum(h.values()) >= 3
                and len(d) >= 3
                and len(set(d)) >= 2
                and any(x != y for x in h for y in w)
                for h, d, w in zip(pos["hands"], pos["decks"], pos["discards"], strict=True)
            ):
                return g, pos
        g.step(int(rng.choice(np.flatnonzero(g.action_mask))))
    pytest.fail("no suitable mid-game position found")


def swap_hand_card(pos, p, other="decks"):
    """Swap one card of p's hand with a different card of p's draw pile (or discard pile):
    same hand size, same cards owned. Returns a new position (None if no such swap)."""
    new = dict(pos)
    hand = Counter(pos["hands"][p])
    source = pos["decks"][p] if other == "decks" else pos["discards"][p]
    if not any(x != y for x in hand for y in source):
        return None
    if other == "decks":
        deck = list(pos["decks"][p])
        i = next(i for i, y in enumerate(deck) if any(x != y for x in hand))
        y = deck[i]
        x = next(x for x in sorted(hand) if x != y)
        deck[i] = x
        new["decks"] = [list(d) for d in pos["decks"]]
        new["decks"][p] = deck
    else:
        pile = Counter(pos["discards"][p])
        y = next(y for y in sorted(pile) if any(x != y for x in hand))
        x = next(x for x in sorted(hand) if x != y)
        pile[y] -= 1
        pile[x] += 1
        new["discards"] = [dict(d) for d in pos["discards"]]
        new["discards"][p] = {k: v for k, v in pile.items() if v}
    hand[x] -= 1
    hand[y] += 1
    new["hands"] = [dict(h) for h in pos["hands"]]
    new["hands"][p] = {k: v for k, v in hand.items() if v}
    return new


def reorder_deck(pos, p):
    """p's draw pile in another order (same cards)."""
    deck = list(pos["decks"][p])
    order = deck[1:] + deck[:1]  # a rotation: differs because the pile holds two kinds
    assert order != deck
    new = dict(pos)
    new["decks"] = [list(d) for d in pos["decks"]]
    new["decks"][p] = order
    return new


def observations(g):
    return [g.observation(v) for v in range(g.players)]


def assert_same_view(a, b, viewer, ignore=()):
    pa, pb = split(a, PLAYERS), split(b, PLAYERS)
    diff = [
        name
        for name in PIECE_NAMES
        if name not in ignore and not np.array_equal(pa[name], pb[name])
    ]
    assert not diff, f"viewer {viewer} sees a difference in {diff}"
    if not ignore:
        assert a.tobytes() == b.tobytes()


# -- hidden information, through set_scenario -----------------------------------------------


@pytest.fixture(scope="module")
def position():
    return midgame_position()


def test_rebuilt_position_is_the_game_position(position):
    """set_scenario rebuilds the captured position (the basis of the comparisons below)."""
    g, pos = position
    h = build(pos)
    for p in range(PLAYERS):
        assert h.zones(p) == g.zones(p)
    assert h.supply == g.supply and h.trash == g.trash
    assert h.decision == g.decision and h.turn == g.turn
    # A position set up by set_scenario has no history: nobody has seen a card revealed yet
    # nor put one back on a deck, so the pieces of what was seen (everyone's and the viewer's
    # own known top cards) start empty while the played game may know some cards.
    public = ("public_hand", "public_top", "known_top")
    for v in range(PLAYERS):
        assert_same_view(g.observation(v), h.observation(v), v, ignore=public)
        rebuilt = split(h.observation(v), PLAYERS)
        assert not any(rebuilt[name].any() for name in public)


@pytest.mark.parametrize("other", ["decks", "discards"])
def test_opponent_hand_contents_are_hidden(position, other):
    _, pos = position
    base = build(pos)
    decider = base.current_player
    tp = pos["turn_player"]
    tested = 0
    for o in range(PLAYERS):
        if o in (tp, decider):
            continue  # the turn player's hand decides what is asked (public by the rules)
        swapped = swap_hand_card(pos, o, other)
        if swapped is None:
            continue
        tested += 1
        changed = build(swapped)
        assert changed.zones(o)["hand"] != base.zones(o)["hand"]
        assert changed.current_player == decider
        for v in range(PLAYERS):
            if v != o:
                assert_same_view(base.observation(v), changed.observation(v), v)
        # ... while o itself sees its new hand
        assert not np.array_equal(
            split(base.observation(o), PLAYERS)["hand"],
            split(changed.observation(o), PLAYERS)["hand"],
        )
    assert tested > 0


@pytest.mark.parametrize("p", range(PLAYERS))
def test_draw_pile_order_is_hidden_from_everyone(position, p):
    """Reordering anyone's draw pile, the viewer's own included, changes no observation."""
    _, pos = position
    base = build(pos)
    changed = build(reorder_deck(pos, p))
    assert changed.zones(p)["deck"] != base.zones(p)["deck"]
    for v in range(PLAYERS):
        assert_same_view(base.observation(v), changed.observation(v), v)


def test_own_hand_is_seen(position):
    _, pos = position
    base = build(pos)
    for v in range(PLAYERS):
        changed = build(swap_hand_card(pos, v, "decks"))
        a, b = split(base.observation(v), PLAYERS), split(changed.observation(v), PLAYERS)
        assert not np.array_equal(a["hand"], b["hand"])
        assert not np.array_equal(a["draw_pile"], b["draw_pile"])  # the composition changed
        np.testing.assert_array_equal(a["owned"], b["owned"])  # same cards owned


# -- hidden information, on live positions of a real game -----------------------------------


def test_hidden_changes_never_show_in_a_real_game():
    """At every decision of a random game (inside card effects too): permuting any draw pile
    (below the top cards its owner knows) and swapping a non-decider's hand card with its own
    draw or discard pile card leaves every other player's observation as it was."""
    g = random_game(PLAYERS, seed=5, steps=0)
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(600):
        if g.done:
            break
        s = g.state
        saved = s.copy()
        before = observations(g)
        for p in range(PLAYERS):  # every draw pile in a new order, but for its known top
            n = int(s["player"][0, p, DECK_LEN] - s["player"][0, p, KNOWN_TOP])
            s["deck"][0, p, :n] = rng.permutation(s["deck"][0, p, :n])
        for v in range(PLAYERS):
            assert_same_view(before[v], g.observation(v), v)
        permuted = s.copy()
        decider = int(s["game"][0, DEC_PLAYER])
        for o in range(PLAYERS):
            if o == decider:
                continue
            s[:] = permuted  # one player's hand changed at a time
            # a card of the hand nobody else knows (not revealed: ``pub_hand``)
            hand = np.flatnonzero(s["zone"][0, o, HAND] > s["pub_hand"][0, o])
            n = int(s["player"][0, o, DECK_LEN] - s["player"][0, o, KNOWN_TOP])
            if len(hand) == 0 or n == 0:
                continue
            x = int(rng.choice(hand))
            i = int(rng.integers(n))
            y = int(s["deck"][0, o, i])
            if x == y:
                continue
            s["zone"][0, o, HAND, x] -= 1  # x goes into the draw pile in y's place
            s["zone"][0, o, HAND, y] += 1
            s["deck"][0, o, i] = x
            s["deck_count"][0, o, x] += 1  # the pile's composition row goes with it
            s["deck_count"][0, o, y] -= 1
            for v in range(PLAYERS):
                if v != o:
                    assert_same_view(before[v], g.observation(v), v)
            checked += 1
        s[:] = saved  # back to the real game
        assert observations(g)[0].tobytes() == before[0].tobytes()
        g.step(int(rng.choice(np.flatnonzero(g.action_mask))))
    assert checked > 200


# -- seat rotation --------------------------------------------------------------------------


def owned_counts(g, p):
    s = g.state
    out = s["zone"][0, p, [HAND, DISCARD, IN_PLAY, ASIDE]].sum(axis=0).astype(np.int64)
    n = int(s["player"][0, p, DECK_LEN])
    np.add.at(out, s["deck"][0, p, :n].astype(np.int64), 1)
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("kingdom", ["First Game", "Victory Dance", "random"])
def test_seats_are_rotated_to_the_viewer(players, kingdom):
    g = random_game(players, seed=21, steps=120, kingdom=kingdom)
    assert not g.done
    P = players
    s = g.state
    scores = g.scores()
    # A Masquerade pass between two other players is hidden from the viewer, so the owned
    # counts of other seats are the true ones only while no card was passed face down.
    passes = bool(s["masq_in"][0].any() or s["masq_out"][0].any())
    for v in range(P):
        o = split(g.observation(v), P)
        for seat in range(P):
            p = (v + seat) % P
            if seat == 0 or not passes:
                np.testing.assert_array_equal(o["owned"][seat], owned_counts(g, p))
                assert o["vp"][seat] == scores[p]
            assert o["hand_size"][seat] == s["zone"][0, p, HAND].sum()
            assert o["draw_size"][seat] == s["player"][0, p, DECK_LEN]
            assert o["discard_size"][seat] == s["zone"][0, p, DISCARD].sum()
            assert o["turns_taken"][seat] == s["player"][0, p, TURNS_TAKEN]
        # own zones at seat 0: the viewer's hand and draw pile composition
        np.testing.assert_array_equal(o["owned"][0], owned_counts(g, v))
        np.testing.assert_array_equal(o["hand"], s["zone"][0, v, HAND])
        np.testing.assert_array_equal(o["discard"], s["zone"][0, v, DISCARD])
        n = int(s["player"][0, v, DECK_LEN])
        np.testing.assert_array_equal(
            o["draw_pile"], np.bincount(s["deck"][0, v, :n], minlength=NUM_CARDS)
        )
        assert np.flatnonzero(o["turn_seat"]).tolist() == [(g.turn_player - v) % P]


def test_scenario_seats_by_hand_size():
    """Hand sizes 1..P in seat order give the rotated sizes for every viewer."""
    P = 4
    g = Game("random", players=P, seed=0, auto_resolve=False)
    hands = [["Copper"] * (p + 1) for p in range(P)]
    hands[2][0] = "Village"  # the turn player stops in its Action phase, hand untouched
    g.set_scenario(hands=hands, decks=[["Estate"] * (10 + p) for p in range(P)], turn_player=2)
    assert g.decision["kind"] == "play_action" and g.current_player == 2
    for v in range(P):
        o = split(g.observation(v), P)
        assert o["hand_size"].tolist() == [((v + k) % P) + 1 for k in range(P)]
        assert o["draw_size"].tolist() == [10 + (v + k) % P for k in range(P)]
        assert o["owned"][0, NAMES.index("Estate")] == 10 + v
        assert o["owned"][0, NAMES.index("Copper")] == v + 1 - (v == 2)
        assert np.flatnonzero(o["turn_seat"]).tolist() == [(2 - v) % P]


# -- the layout -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_split_covers_the_whole_vector(players):
    size = obs_size(players)
    layout = obs_layout(players)
    assert [name for name, _ in layout] == list(PIECE_NAMES)
    assert sum(n for _, n in layout) == size
    off = obs_offsets(players)
    assert off[0] == 0 and off[-1] == size and (np.diff(off) > 0).all()
    vector = np.arange(size, dtype=np.float32)
    pieces = split(vector, players)
    assert list(pieces) == list(PIECE_NAMES)
    for name, n in layout:
        assert pieces[name].size == n, name
        assert np.shares_memory(pieces[name], vector), name  # a view, not a copy
    assert pieces["owned"].shape == (players, NUM_CARDS)
    flat = np.concatenate([pieces[name].ravel() for name in PIECE_NAMES])
    np.testing.assert_array_equal(flat, vector)  # every index once, in order
    # a batch of observations splits along the last axis
    batch = np.stack([vector, vector + size])
    b = split(batch, players)
    assert b["owned"].shape == (2, players, NUM_CARDS)
    np.testing.assert_array_equal(b["hand"][1], pieces["hand"] + size)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_observation_size_per_player_count(players):
    vec = VecGame(3, players)
    out = vec.reset(0)
    assert out.observation.shape == (3, obs_size(players))
    assert out.observation.dtype == np.float32
    assert out.action_mask.shape == (3, NUM_ACTIONS)
    out = vec.step(vec.random_actions())
    assert out.observation.shape == (3, obs_size(players))


# -- what a player knows about the top of its own deck --------------------------------------


def _known(g, p):
    view = split(g.observation(p), g.players)
    return {NAMES[c]: int(k) for c, k in enumerate(view["known_top"]) if k}


def _kingdom(*cards):
    filler = [
        "Village",
        "Smithy",
        "Market",
        "Festival",
        "Laboratory",
        "Cellar",
        "Moat",
        "Workshop",
        "Woodcutter",
        "Great Hall",
    ]
    return list(cards) + [c for c in filler if c not in cards][: 10 - len(cards)]


def test_a_card_put_on_the_deck_is_known_to_its_owner_until_drawn():
    g = Game(_kingdom("Courtyard"), players=2)
    g.set_scenario(
        hands={0: ["Courtyard", "Gold", "Estate"]},
        decks={0: ["Copper", "Copper", "Copper", "Silver", "Estate"]},
    )
    assert _known(g, 0) == {}  # a scenario's deck is unknown
    g.step("Courtyard")  # draws the three Coppers
    g.step("Gold")  # Gold goes back on top
    assert _known(g, 0) == {"Gold": 1}
    assert _known(g, 1) == {}  # the opponent's view has no such piece of player 0
    view = split(g.observation(0), 2)
    assert view["draw_pile"][NAMES.index("Gold")] == 1  # part of the draw pile as well


def test_known_top_cards_are_used_up_by_draws():
    """Clean-up draws the known Gold (and the unknown cards below it): nothing is known."""
    g = Game(_kingdom("Courtyard"), players=2, autoplay_treasures=True)
    g.set_scenario(
        hands={0: ["Courtyard", "Gold", "Estate"]}, decks={0: ["Copper"] * 3 + ["Silver"] * 6}
    )
    g.step("Courtyard")
    g.step("Gold")
    while g.current_player == 0 and g.turn_player == 0:
        g.step("PASS" if "PASS" in g.legal_actions() else g.legal_actions()[0])
    assert "Gold" in g.zones(0)["hand"]
    assert _known(g, 0) == {}


def test_bureaucrat_silver_and_harbinger_topdecks_are_known():
    g = Game(_kingdom("Bureaucrat", "Harbinger"), players=2)
    g.set_scenario(
        hands={0: ["Harbinger", "Bureaucrat"]},
        decks={0: ["Copper", "Copper"]},
        discards={0: ["Gold"]},
        actions=2,
    )
    g.step("Harbinger")  # draws a Copper
    g.step("Gold")  # Gold from the discard pile onto the deck
    assert _known(g, 0) == {"Gold": 1}
    g.step("Bureaucrat")  # gains a Silver onto the deck, above the Gold
    assert _known(g, 0) == {"Gold": 1, "Silver": 1}
    assert g.state["player"][0, 0, KNOWN_TOP] == 2  # the two top cards; the Copper below


def test_chancellor_and_a_shuffle_forget_the_top():
    g = Game(_kingdom("Chancellor", "Courtyard"), players=2)
    g.set_scenario(
        hands={0: ["Courtyard", "Chancellor", "Gold"]},
        decks={0: ["Copper", "Copper", "Copper", "Silver"]},
        actions=2,
    )
    g.step("Courtyard")
    g.step("Gold")
    assert _known(g, 0) == {"Gold": 1}
    g.step("Chancellor")
    g.step("option 0")  # the deck goes into the discard pile
    assert _known(g, 0) == {}
    assert g.state["player"][0, 0, KNOWN_TOP] == 0
