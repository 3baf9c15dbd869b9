"""The search player and its determinizer: deals keep what the seat knows and are legal
states; decisions depend on nothing hidden from the seat (fairness); only legal actions are
played; search sits at a table wherever a bot does. Strength and speed: bench/bench_search.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from dominion_env import Game, VecGame, cli
from dominion_env.agents import BOTS
from dominion_env.analysis.mixed import play_mixed
from dominion_env.cards import ID, NAMES, NUM_CARDS
from dominion_env.engine.audit import CHECK_NAMES, check_game
from dominion_env.engine.layout import DECK_LEN, DISCARD, HAND, PUBLIC_TOP
from dominion_env.search import DEFAULT_BUDGET, Search, determinized, parse_search_name

MASQUERADE_KINGDOM = "Victory Dance"  # Masquerade among its cards


def _midgame(kingdom="random", players=2, seed=0, steps=80):
    """A Game ``steps`` random decisions in (fewer if it ends first: then one step less)."""
    g = Game(kingdom, players=players, seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        a = int(rng.choice(np.flatnonzero(g.action_mask)))
        if g.clone().step(a).done:
            break
        g.step(a)
    assert not g.done
    return g


def _with_state(g: Game, record) -> Game:
    """A clone of g holding ``record`` instead of its own."""
    h = g.clone()
    h.state[0] = record
    return h


def _failures(g: Game) -> set[str]:
    work = np.zeros(3 * NUM_CARDS, np.int64)
    bad = int(check_game(g.state, 0, g._vec.setup, g.action_mask.copy(), work))
    return {name for k, name in enumerate(CHECK_NAMES) if (bad >> k) & 1}


POSITIONS = [
    ("random", 2, 1),
    ("random", 2, 2),
    ("First Game", 2, 3),
    ("random", 3, 4),
    # passes between two other seats, unseen by the deciding one, at 3 and 4 players
    *((MASQUERADE_KINGDOM, players, seed) for players in (3, 4) for seed in range(5, 13)),
]


@pytest.mark.parametrize("kingdom,players,seed", POSITIONS)
def test_a_deal_keeps_the_seats_view_and_is_a_legal_state(kingdom, players, seed):
    g = _midgame(kingdom, players, seed)
    changed = False
    for v in range(players):
        for deal_seed in range(3):
            d = determinized(g.state, v, seed=deal_seed)
            h = _with_state(g, d[0])
            assert _failures(h) == set()
            np.testing.assert_array_equal(h.observation(v), g.observation(v))
            for q in range(players):  # the sizes every player sees, seat by seat
                for z in (HAND, DISCARD):
                    assert d["zone"][0, q, z].sum() == g.state["zone"][0, q, z].sum()
                assert d["player"][0, q, DECK_LEN] == g.state["player"][0, q, DECK_LEN]
            changed |= not np.array_equal(d["zone"], g.state["zone"]) or not np.array_equal(
                d["deck"], g.state["deck"]
            )
    assert changed  # the hidden cards are dealt anew, not left as they were


def test_the_public_top_of_a_pile_stays_on_top():
    g = _midgame("First Game", 2, 7)
    s = g.state
    s["player"][0, 1, PUBLIC_TOP] = 2  # pretend the top two cards of seat 1 were revealed
    top = s["deck"][0, 1, s["player"][0, 1, DECK_LEN] - 2 : s["player"][0, 1, DECK_LEN]].copy()
    s["player"][0, 1, 2] = max(s["player"][0, 1, 2], 2)  # KNOWN_TOP >= PUBLIC_TOP
    for k in range(4):
        d = determinized(s, 0, seed=k)
        n = d["player"][0, 1, DECK_LEN]
        np.testing.assert_array_equal(d["deck"][0, 1, n - 2 : n], top)


def test_a_pass_no_one_saw_moves_cards_only_the_way_they_went():
    """3 players: seat 2's Coppers all came from seat 1 in passes seat 0 did not see, and one
    of them is in play: seat 0 counts them as seat 1's, so a deal gives seat 1 no more Coppers
    than seat 0 counts, passes the one in play (and any others) along to seat 2, and records
    as many passes as the game had: seat 0's view of the deal is its view of the game."""
    g = _midgame("First Game", 3, 8)
    s = g.state
    copper = 0
    owned = s["zone"][0, 2, :, copper].sum() + s["deck_count"][0, 2, copper]
    s["masq_in"][0, 2, copper] = owned
    s["masq_out"][0, 1, copper] = owned
    s["zone"][0, 2, 2, copper] += 1  # one of them in play (taken from the hand or discard)
    src = HAND if s["zone"][0, 2, HAND, copper] > 0 else DISCARD
    assert s["zone"][0, 2, src, copper] > 0  # the position has one to put in play
    s["zone"][0, 2, src, copper] -= 1
    s["pub_hand"][0, 2] = np.minimum(s["pub_hand"][0, 2], s["zone"][0, 2, HAND])
    s["pub_discard"][0, 2] = np.minimum(s["pub_discard"][0, 2], s["zone"][0, 2, DISCARD])
    seen = g.observation(0)
    counted = s["zone"][0, 1, :, copper].sum() + s["deck_count"][0, 1, copper] + owned
    for k in range(3):
        d = determinized(s, 0, seed=k)
        h = _with_state(g, d[0])
        assert _failures(h) == set()
        np.testing.assert_array_equal(h.observation(0), seen)
        for q in range(3):
            for z in (HAND, DISCARD):
                assert d["zone"][0, q, z].sum() == s["zone"][0, q, z].sum()
        assert d["zone"][0, 1, :, copper].sum() + d["deck_count"][0, 1, copper] <= counted
        passed = d["masq_out"][0, 1]
        np.testing.assert_array_equal(d["masq_in"][0, 2], passed)
        assert passed.min() >= 0 and passed.sum() == owned and passed[copper] >= 1


def _counts(row) -> dict[str, int]:
    return {NAMES[c]: int(row[c]) for c in np.flatnonzero(row)}


def _smithy_turn() -> Game:
    """Seat 1 played Smithy and three treasures, bought a Gold and cleaned up (two Estates of
    its hand discarded unseen); seat 0 is to buy. Seat 1's draw pile is empty."""
    g = Game("First Game", players=2, seed=3)
    g.set_scenario(
        hands={0: ["Copper"] * 3 + ["Estate"] * 2, 1: ["Smithy", "Copper", "Copper", "Silver"]},
        decks={
            0: ["Copper"] * 5,
            1: ["Copper", "Estate", "Gold", "Copper", "Copper", "Estate", "Silver", "Copper"],
        },
        turn_player=1,
    )
    g.step("Smithy").step("Gold")
    assert g.current_player == 0 and g.state["player"][0, 1, DECK_LEN] == 0
    return g


def test_cards_seen_going_to_a_discard_pile_stay_there_until_it_is_shuffled():
    g = _smithy_turn()
    known = {"Copper": 3, "Silver": 1, "Gold": 2, "Smithy": 1}  # played, bought
    assert _counts(g.state["pub_discard"][0, 1]) == known
    assert _counts(g.state["zone"][0, 1, DISCARD]) == {**known, "Estate": 1}
    for k in range(20):
        d = determinized(g.state, 0, seed=k)
        discard, hand = _counts(d["zone"][0, 1, DISCARD]), _counts(d["zone"][0, 1, HAND])
        # the two Golds and the Smithy are nowhere else: every deal leaves them in the pile
        assert discard["Gold"] == 2 and discard["Smithy"] == 1
        assert "Gold" not in hand and "Smithy" not in hand
        assert all(discard.get(c, 0) >= n for c, n in known.items())
        assert sum(discard.values()) == 8 and sum(hand.values()) == 5
        assert (d["pub_discard"] == g.state["pub_discard"]).all()
    # seat 0 passes; seat 1 passes too and draws its next hand from the shuffled discard pile
    g.step("PASS").step("PASS")
    assert g.current_player == 0 and not g.state["pub_discard"][0, 1].any()
    golds = [determinized(g.state, 0, seed=k)["zone"][0, 1, HAND, ID["Gold"]] for k in range(20)]
    assert 0 < sum(golds) and min(golds) == 0  # the shuffle hid where the Golds went


@pytest.mark.parametrize("public_discards", [True, False])
def test_a_militia_victims_discards_stay_in_its_discard_pile_when_shown(public_discards):
    """With ``public_discards`` every picked card is shown: the victim's Gold and Estate stay
    in its discard pile in every deal. Under the rules (the default) the others see how many
    cards it discarded and the top one, and the deal keeps none (which pick ends on top is
    not kept): the Gold goes back into the hand in some deals."""
    g = Game("First Game", players=2, seed=4, public_discards=public_discards)
    g.set_scenario(
        hands={
            0: ["Militia"] + ["Copper"] * 4,
            1: ["Gold", "Estate", "Copper", "Copper", "Silver"],
        },
        decks={0: ["Copper"] * 5, 1: ["Copper"] * 5},
    )
    g.step("Militia").step("Gold").step("Estate")
    assert g.current_player == 0
    shown = {"Gold": 1, "Estate": 1} if public_discards else {}
    assert _counts(g.state["pub_discard"][0, 1]) == shown
    gold_in_hand = 0
    for k in range(20):
        d = determinized(g.state, 0, seed=k)
        assert d["zone"][0, 1, DISCARD].sum() == 2 and d["zone"][0, 1, HAND].sum() == 3
        gold_in_hand += int(d["zone"][0, 1, HAND, ID["Gold"]])
        if public_discards:
            assert _counts(d["zone"][0, 1, DISCARD]) == shown
    assert (gold_in_hand > 0) != public_discards


def _twins():
    """Two games alike in all that seat 0 may know, unlike in what it may not: seat 1's hand,
    discard and deck, seat 0's deck order."""
    games = []
    for hand1, deck1, disc1, deck0 in (
        (
            ["Copper", "Copper", "Estate", "Silver", "Smithy"],
            ["Gold", "Copper", "Estate", "Copper"],
            ["Copper", "Copper", "Estate"],
            ["Copper", "Silver", "Estate", "Copper"],
        ),
        (
            ["Estate", "Copper", "Copper", "Copper", "Gold"],
            ["Copper", "Smithy", "Silver", "Estate"],
            ["Estate", "Copper", "Copper"],
            ["Estate", "Copper", "Copper", "Silver"],
        ),
    ):
        g = Game("First Game", players=2, seed=11)
        g.set_scenario(
            hands={0: ["Smithy", "Copper", "Copper", "Silver", "Estate"], 1: hand1},
            decks={0: deck0, 1: deck1},
            discards={0: ["Copper", "Copper", "Estate", "Copper"], 1: disc1},
        )
        games.append(g)
    return games


def test_twins_differ_only_in_what_seat_0_cannot_see():
    a, b = _twins()
    np.testing.assert_array_equal(a.observation(0), b.observation(0))
    assert not np.array_equal(a.state["zone"], b.state["zone"])
    assert not np.array_equal(a.state["deck"], b.state["deck"])


def test_deals_of_the_twins_are_the_same_record():
    a, b = _twins()
    b.state["rng"][0, 1:] ^= np.uint64(0x5EED)  # other future shuffles: a deal replaces them
    for k in range(3):
        da, db = determinized(a.state, 0, seed=k), determinized(b.state, 0, seed=k)
        assert da.tobytes() == db.tobytes()


def test_fairness_search_decides_the_same_for_games_that_differ_only_in_hidden_cards():
    a, b = _twins()
    ra, rb = Search(60, seed=5).analyze(a), Search(60, seed=5).analyze(b)
    assert ra == rb
    assert sorted(v.action for v in ra) == ["PASS", "Smithy"]
    assert sum(v.visits for v in ra) >= 60 and sum(v.default for v in ra) == 1
    # and along a whole game: the twin of each position is a deal of it (it differs from the
    # game in hidden cards only), and search answers both alike
    g = _midgame("First Game", 2, 12, steps=20)
    sa, sb = Search(40, seed=3), Search(40, seed=3)
    for k in range(12):
        if g.done:
            break
        v = g.current_player
        twin = _with_state(g, determinized(g.state, v, seed=100 + k)[0])
        assert not np.array_equal(twin.state["deck"], g.state["deck"]) or k > 0
        x, y = sa.act_games(g._vec, [0]), sb.act_games(twin._vec, [0])
        assert x.tolist() == y.tolist()
        g.step(int(x[0]))


def test_fairness_holds_where_a_known_discard_shapes_the_deals():
    """After seat 1's Smithy turn its Golds are known to be in its discard pile: a twin that
    differs in seat 1's hidden cards gets the same answer, and one that forgot what everyone
    saw (no known discards) gets another: the known discard is read, the hidden cards not."""
    g = _smithy_turn()
    twin = _with_state(g, determinized(g.state, 0, seed=9)[0])
    assert not np.array_equal(twin.state["zone"], g.state["zone"])
    forgot = g.clone()
    forgot.state["pub_discard"] = 0
    ra, rb, rc = (Search(60, seed=5).analyze(x) for x in (g, twin, forgot))
    assert ra == rb
    assert ra != rc


def test_fairness_the_guided_search_decides_the_same_for_games_that_differ_in_hidden_cards():
    pytest.importorskip("torch", reason="a trained agent guides it (the train extra)")
    from dominion_env.train.search_network import guided_search

    a, b = _twins()
    ra = guided_search("ppo-pool", 24, seed=5).analyze(a)
    rb = guided_search("ppo-pool", 24, seed=5).analyze(b)
    assert ra == rb
    assert sorted(v.action for v in ra) == ["PASS", "Smithy"]
    assert sum(v.visits for v in ra) == 24
    # the network reads the twins' observations: the twin's simulations, dealt from what the
    # seat knows, are the game's; so along a whole game
    g = _midgame("First Game", 2, 12, steps=20)
    sa, sb = guided_search("ppo-pool", 16, seed=3), guided_search("ppo-pool", 16, seed=3)
    for k in range(12):
        if g.done:
            break
        v = g.current_player
        twin = _with_state(g, determinized(g.state, v, seed=100 + k)[0])
        x, px = sa.policy_games(g._vec, [0])
        y, py = sb.policy_games(twin._vec, [0])
        assert x.tolist() == y.tolist()
        np.testing.assert_array_equal(px, py)
        g.step(int(x[0]))


def test_a_close_call_races_the_default_and_its_rival_on_more_deals():
    """After the halving, Copper leads the default (Estate) by less than a standard error:
    the two race on 10 more deals a round (a quarter of the budget) until one is clearly
    ahead or ``extend`` budgets are spent (here one round settles it); the arms already cut
    get nothing more."""
    g = _midgame("First Game", 2, 5, steps=24)

    def visits(**kwargs):
        return {v.action: (v.visits, v.default) for v in Search(40, seed=1, **kwargs).analyze(g)}

    cut = {"PASS": (5, False), "Workshop": (5, False)}
    assert visits(extend=0) == {"Estate": (15, True), "Copper": (15, False), **cut}
    raced = {"Estate": (25, True), "Copper": (25, False), **cut}
    assert visits() == raced
    assert visits(extend=1) == visits()
    # half a budget of extra simulations holds one round of the pair (2 x 10 = 20)
    assert visits(extend=0.5) == raced


@pytest.mark.parametrize("budget", [1, 2, 5, 17, 200])
@pytest.mark.parametrize("extend", [0.0, 3.0])
def test_a_decision_spends_at_most_its_budget(budget, extend):
    """An 18-way buy (every pile of First Game, and PASS) at budgets below, at and above the
    37 simulations one each a round would take: the simulations counted are within the budget
    (plus ``extend`` budgets for a close call); with fewer than 37, the arms are a sample
    that always holds the rollout bot's own choice."""
    g = Game("First Game", players=2, seed=6)
    g.set_scenario(
        hands={0: ["Copper"] * 5, 1: ["Copper"] * 5}, phase="buying", coins=11, turn_player=0
    )
    assert len(g.legal_actions()) == 18
    for seed in range(3):
        search = Search(budget, seed=seed, extend=extend)
        values = search.analyze(g)
        assert search.simulations <= budget + int(extend * budget)
        assert sum(v.visits for v in values) == search.simulations
        tried = [v for v in values if v.visits]
        assert any(v.default for v in tried) or budget == 1
        if budget == 200:
            assert len(tried) == 18  # enough for every arm
        elif budget > 1:
            assert len(tried) == {2: 2, 5: 3, 17: 8}[budget]


@pytest.mark.parametrize("players,kingdom", [(2, "random"), (3, MASQUERADE_KINGDOM)])
def test_search_plays_legal_actions_only(players, kingdom):
    vec = VecGame(12, players, kingdom, autoreset=True)
    vec.reset(seed=21)
    rng = np.random.default_rng(0)
    for _ in range(10):  # spread the games over their phases
        vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_mask]))
    search = Search(12, seed=1)
    decisions = 0
    for _ in range(25):
        rows = np.arange(vec.num_games)
        actions = search.act_games(vec, rows)
        assert vec.action_mask[rows, actions].all()
        decisions += len(rows)
        vec.step(actions)
    assert decisions == 300


def test_search_sits_at_a_table_like_a_bot():
    res = play_mixed([Search(8, seed=2), BOTS["Big Money"]], 2, 2, "First Game", seed=4)
    assert res.reward.shape == (2, 2)
    assert (res.status >= 1).all()  # every game finished (terminated or truncated)


def test_dominion_simulate_and_bots_know_search(capsys):
    assert cli.main(["simulate", "search:6", "Big Money", "--games", "2", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "search:6" in out
    assert cli.main(["bots"]) == 0
    assert "search[:N]" in capsys.readouterr().out
    assert cli.resolve_player("Search:12").budget == 12
    assert cli.resolve_player("search").budget == DEFAULT_BUDGET == 800


@pytest.mark.parametrize(
    "kwargs,kind,words",
    [
        ({"budget": 0}, ValueError, "budget must be an int 1..1048575"),
        ({"budget": 2.5}, TypeError, "budget must be an int"),
        ({"rollout": "Nobody"}, ValueError, "Nobody"),
        ({"rollout": 3}, TypeError, "rollout must be 'auto'"),
        ({"seed": -1}, ValueError, "seed must be an int"),
        ({"confidence": -1.0}, ValueError, "confidence"),
        ({"extend": -0.5}, ValueError, "extend must be a finite number 0..64, got -0.5"),
        ({"extend": "3"}, TypeError, "extend must be a number"),
    ],
)
def test_bad_arguments_are_named(kwargs, kind, words):
    with pytest.raises(kind, match=words):
        Search(**kwargs)


def test_bad_names_and_calls_are_refused():
    assert parse_search_name("Big Money") is None
    for name in ("search:0", "search:abc", "search:", "search:-3"):
        with pytest.raises(ValueError, match="search's budget must be"):
            parse_search_name(name)
    with pytest.raises(TypeError, match="decides from the game"):
        Search().act(np.zeros((1, 3)), np.ones((1, 3), bool))
    g = Game("First Game", seed=1)
    with pytest.raises(ValueError, match="seat must be an int 0..1"):
        determinized(g.state, 2)
    while not g.done:
        g.step(int(np.flatnonzero(g.action_mask)[-1]))
    with pytest.raises(ValueError, match="the game is over"):
        Search().analyze(g)


def test_search_is_a_gymnasium_opponent():
    import gymnasium

    import dominion_env  # noqa: F401  (registers Dominion-v2)

    env = gymnasium.make("Dominion-v2", players=2, opponents="search:6", kingdom="First Game")
    obs, info = env.reset(seed=3)
    for _ in range(400):
        mask = env.unwrapped.action_masks()
        obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(mask)[0]))
        if terminated or truncated:
            break
    assert terminated or truncated


def test_dominion_evaluate_plays_search(capsys):
    pytest.importorskip("torch", reason="dominion evaluate is a command of the train extra")
    args = ["evaluate", "search:6", "--opponent", "Big Money", "--games", "2"]
    assert cli.main([*args, "--kingdom", "First Game", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"agent": "search:6"' in out and '"games": 2' in out


def test_a_search_pickles_without_its_work_space_and_answers_alike():
    import pickle

    g = _midgame("First Game", 2, 13, steps=30)
    s = Search(16, seed=4)
    s.analyze(g.clone())  # a decision searched: the work space is built
    t = pickle.loads(pickle.dumps(s))
    assert t._rows is None and t.decisions == s.decisions == 1
    assert s.act_games(g._vec, [0]).tolist() == t.act_games(g._vec, [0]).tolist()
    fresh = s.with_seed(4)
    assert (fresh.decisions, fresh.budget, fresh.seed) == (0, 16, 4)


def test_a_person_plays_against_search():
    from dominion_env.play import play

    lines = []
    g = play(
        [Search(6, seed=1)],
        "First Game",
        seed=2,
        record=None,
        read=lambda prompt: "0",  # the person always passes
        write=lines.append,
        turn_limit=4,
    )
    assert g.done and "search:6" in lines[0]


def test_fairness_the_network_search_decides_the_same_for_games_that_differ_in_hidden_cards():
    pytest.importorskip("torch", reason="a trained agent is its base player (the train extra)")
    from dominion_env.search.network_search import NO_ENDGAME, NetworkSearch
    from dominion_env.train.search_network import load_network

    net = load_network("ppo-pool", "cpu")
    every = dict(endgame=NO_ENDGAME)
    a, b = _twins()
    ra = NetworkSearch(net, 12, seed=5, confidence=0, **every).analyze(a)
    rb = NetworkSearch(net, 12, seed=5, confidence=0, **every).analyze(b)
    assert ra == rb and sorted(v.action for v in ra) == ["PASS", "Smithy"]
    assert sum(v.visits for v in ra) >= 12
    # the network plays every seat of every playout: a twin's playouts are the game's
    g = _midgame("First Game", 2, 12, steps=20)
    sa = NetworkSearch(net, 8, seed=3, **every)
    sb = NetworkSearch(net, 8, seed=3, rollout="auto", **every)
    sc = NetworkSearch(net, 8, seed=3, **every)
    for k in range(8):
        if g.done:
            break
        twin = _with_state(g, determinized(g.state, g.current_player, seed=100 + k)[0])
        x, y = sa.act_games(g._vec, [0]), sc.act_games(twin._vec, [0])
        assert x.tolist() == y.tolist()
        sb.act_games(g._vec, [0])  # library bots' playouts answer too
        g.step(int(x[0]))


def test_the_network_search_keeps_the_networks_action_unless_sure_and_outside_the_endgame():
    pytest.importorskip("torch", reason="a trained agent is its base player (the train extra)")
    from dominion_env.search.network_search import NetworkSearch
    from dominion_env.train.search_network import load_network

    net = load_network("ppo-pool", "cpu")
    vec = VecGame(16, 2, "random", autoreset=True)
    vec.reset(seed=4)
    rows = np.arange(16)
    greedy = NetworkSearch(net, 4).network_actions(vec.state, vec.action_mask)
    assert vec.action_mask[rows, greedy].all()
    # never sure (confidence 100): the network's own actions
    sure = NetworkSearch(net, 16, seed=1, confidence=100.0, endgame=-1)
    assert sure.act_games(vec, rows).tolist() == greedy.tolist() and sure.simulations > 0
    # at the start no game is near its end: nothing is simulated, the network plays
    late = NetworkSearch(net, 16, seed=1, confidence=0.0, endgame=2)
    actions, _, _, visits, default = late.search(vec.state, vec.action_mask, vec.config)
    assert late.simulations == 0 and visits.sum() == 0
    assert actions.tolist() == greedy.tolist() == default.tolist()
    with pytest.raises(ValueError, match="endgame must be an int -1..12"):
        NetworkSearch(net, endgame=13)
    with pytest.raises(TypeError, match="network must have"):
        NetworkSearch(object())
    assert late.name == "rollout:ppo-pool:16" and late.with_seed(2).endgame == 2


def test_rollout_names_resolve_to_the_network_search_at_its_defaults():
    from dominion_env.search import ROLLOUT_FORM, NetworkSearch

    class Net:
        name, players, scale_observations, vp_shaping = "tiny", 2, True, 0.0

        def evaluate(self, obs, mask):
            return np.where(mask, 0.0, -np.inf), np.zeros(len(obs))

    s = parse_search_name("rollout:tiny", seed=4, load_network=lambda a: Net())
    assert isinstance(s, NetworkSearch) and s.name == "rollout:tiny:200" and s.seed == 4
    assert (s.endgame, s.confidence) == (4, 2.0)
    assert parse_search_name("rollout:tiny:9", load_network=lambda a: Net()).budget == 9
    for name in ("rollout:tiny:0", "rollout:tiny:x", "rollout::9", "rollout:"):
        with pytest.raises(ValueError, match=r"rollout:AGENT\[:N\]"):
            parse_search_name(name, load_network=lambda a: Net())
    with pytest.raises(ValueError, match="needs the train extra"):
        parse_search_name("rollout:tiny")
    assert ROLLOUT_FORM == "rollout:AGENT[:N]"
