"""The search guided by a network: its budget is a ceiling, it batches every decision's
simulations into one forward per step, its values are the searching seat's, its improved
policy is a distribution over the legal actions, and it sits wherever a bot does under
``search:AGENT:N``. Fairness (hidden cards change nothing): tests/test_search.py. Strength and
speed: bench/bench_guided.py."""

from __future__ import annotations

import numpy as np
import pytest

from dominion_env import Game, VecGame, cli
from dominion_env.engine.layout import NUM_ACTIONS
from dominion_env.engine.observation import obs_size
from dominion_env.search import DEFAULT_GUIDED_BUDGET, GuidedSearch, parse_search_name


class TinyNet:
    """A numpy network: logits a fixed random linear map of the observation, a constant
    value; it records each batch's size."""

    name = "tiny"
    scale_observations = True
    vp_shaping = 0.01

    def __init__(self, players=2, value=0.3, seed=0):
        self.players = players
        w = np.random.default_rng(seed).normal(0.0, 0.3, (obs_size(players), NUM_ACTIONS))
        self.w = w.astype(np.float32)
        self.value = value
        self.batches = []

    def evaluate(self, obs, mask):
        self.batches.append(len(obs))
        logits = np.where(mask, obs @ self.w, -np.inf)
        return logits, np.full(len(obs), self.value, np.float32)


def _vec(players=2, games=12, seed=21, steps=30):
    vec = VecGame(games, players, "random", autoreset=True)
    vec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):  # spread the games over their phases
        vec.step(np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_mask]))
    return vec


@pytest.mark.parametrize("budget", [1, 2, 3, 5, 16, 40])
def test_the_budget_is_a_ceiling_and_is_spent_where_there_is_a_choice(budget):
    vec = _vec()
    s = GuidedSearch(TinyNet(), budget, seed=1, depth=2)
    rows = np.arange(vec.num_games)
    for _ in range(4):
        before = s.simulations
        d = s.search(vec.state[rows], vec.action_mask[rows], vec.config)
        per = d.visits.sum(axis=1)
        assert s.simulations - before == per.sum()
        assert (per <= budget).all()
        m = np.minimum(np.minimum(vec.action_mask.sum(axis=1), budget), 16)
        # m >= 2 arms spend the budget exactly; one arm (or one legal action) spends nothing
        np.testing.assert_array_equal(per, np.where(m >= 2, budget, 0))
        assert vec.action_mask[rows, d.actions].all()
        vec.step(d.actions)


def test_every_decision_waiting_is_one_batch_per_step():
    """Searched together, 12 decisions take as many forwards as the longest of them alone:
    one per step over every simulation of every decision, no loop per game."""
    vec = _vec()
    states, masks = vec.state.copy(), vec.action_mask.copy()
    alone = []
    for r in range(vec.num_games):
        net = TinyNet()
        GuidedSearch(net, 24, seed=2, depth=3).search(
            states[r : r + 1], masks[r : r + 1], vec.config
        )
        alone.append(len(net.batches))
    net = TinyNet()
    GuidedSearch(net, 24, seed=2, depth=3).search(states, masks, vec.config)
    assert len(net.batches) == max(alone)
    assert max(net.batches) > 24  # several decisions' simulations in one forward


def test_the_same_seed_gives_the_same_decisions():
    vec = _vec(seed=5)
    a, b = GuidedSearch(TinyNet(), 12, seed=3), GuidedSearch(TinyNet(), 12, seed=3)
    for _ in range(3):
        rows = np.arange(vec.num_games)
        x, px = a.policy_games(vec, rows)
        y, py = b.policy_games(vec, rows)
        np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(px, py)
        vec.step(x)


def test_the_improved_policy_is_a_distribution_over_the_legal_actions():
    vec = _vec(players=3, seed=8)
    actions, policy = GuidedSearch(TinyNet(3), 10, seed=4).policy_games(vec, np.arange(12))
    mask = vec.action_mask
    np.testing.assert_allclose(policy.sum(axis=1), 1.0)
    assert (policy[~mask] == 0).all() and (policy[mask] > 0).all()
    assert mask[np.arange(12), actions].all()


def _buy_phase(players: int) -> Game:
    """Seat 0 buying with $2 and one buy, every seat at 3 VP: each answer ends its turn, so
    the next decision is another seat's."""
    g = Game("First Game", players=players, seed=1)
    hand = ["Copper", "Copper", "Copper", "Estate", "Estate"]
    deck = ["Estate", "Copper", "Copper", "Copper", "Copper"]
    every = range(players)
    g.set_scenario(
        hands={p: hand for p in every}, decks={p: deck for p in every}, phase="buying", coins=2
    )
    assert g.current_player == 0 and {"Estate", "PASS"} <= set(g.legal_actions())
    assert g.scores() == [3] * players
    return g


@pytest.mark.parametrize("players", [2, 3])
def test_a_leaf_is_valued_for_the_searching_seat(players):
    """value 0.3 everywhere, vp_shaping 0.01: the expected result is 0.3 + 0.01 x (the VP
    margin) for the seat whose view is read. With 2 players the leaf is the next seat's
    decision, read from its view and negated; with 3 the searching seat's own view is read."""
    g = _buy_phase(players)
    s = GuidedSearch(TinyNet(players), 64, seed=0, depth=0)
    values = {v.action: v for v in s.analyze(g)}
    estate, passed = values["Estate"], values["PASS"]
    assert estate.visits and passed.visits
    # buying an Estate: +1 VP for the seat
    if players == 2:
        assert passed.value == pytest.approx(-(0.3 + 0.01 * 0))
        assert estate.value == pytest.approx(-(0.3 - 0.01))
    else:
        assert passed.value == pytest.approx(0.3)
        assert estate.value == pytest.approx(0.3 + 0.01)


def test_analyze_shows_prior_value_visits_and_policy():
    g = _buy_phase(2)
    s = GuidedSearch(TinyNet(), 8, seed=0)
    out = s.analyze(g)
    assert {v.action for v in out} == set(g.legal_actions())
    assert sum(v.prior for v in out) == pytest.approx(1.0)
    assert sum(v.policy for v in out) == pytest.approx(1.0)
    assert sum(v.visits for v in out) == 8
    assert all(-1.0 <= v.value <= 1.0 for v in out)
    assert out[0].visits == max(v.visits for v in out)  # the chosen one first


def test_bad_arguments_and_games_are_refused():
    with pytest.raises(TypeError, match="network must have"):
        GuidedSearch(object())
    with pytest.raises(ValueError, match="budget must be an int 1..1048575"):
        GuidedSearch(TinyNet(), 0)
    with pytest.raises(ValueError, match="depth must be an int 0..1000"):
        GuidedSearch(TinyNet(), 8, depth=-1)
    with pytest.raises(TypeError, match="decides from the game"):
        GuidedSearch(TinyNet()).act(np.zeros((1, 3)), np.ones((1, 3), bool))
    g = Game("First Game", players=3, seed=1)
    with pytest.raises(ValueError, match="plays 2-player games; got a game of 3 players"):
        GuidedSearch(TinyNet(2), 4).analyze(g)
    with pytest.raises(ValueError, match="needs the train extra"):
        parse_search_name("search:ppo-pool:8")
    for name in ("search:ppo-pool:0", "search:ppo-pool:x", "search::8"):
        with pytest.raises(ValueError, match=r"search:AGENT:N"):
            parse_search_name(name, load_network=lambda a: TinyNet())


# -- as a player, with a shipped agent ----------------------------------------------------------


@pytest.fixture
def torch():
    return pytest.importorskip("torch", reason="trained agents are the train extra")


def test_a_shipped_agent_guides_the_search_under_its_name(torch):
    s = cli.resolve_player("search:ppo-pool:6")
    assert isinstance(s, GuidedSearch) and s.name == "search:ppo-pool:6" and s.players == 2
    assert s.network.vp_shaping == 0.02  # the agent's own training setting
    with pytest.raises(ValueError, match="no agent 'nobody'"):
        cli.resolve_player("search:nobody:6")


def test_dominion_simulate_and_evaluate_play_the_guided_search(torch, capsys):
    args = ["simulate", "search:ppo-pool:4", "Big Money", "--games", "2", "--quiet"]
    assert cli.main([*args, "--kingdom", "First Game"]) == 0
    assert "search:ppo-pool:4" in capsys.readouterr().out
    args = ["evaluate", "search:ppo-pool:4", "--opponent", "Big Money", "--games", "2"]
    assert cli.main([*args, "--kingdom", "First Game", "--json"]) == 0
    out = capsys.readouterr().out
    assert '"agent": "search:ppo-pool:4"' in out and '"games": 2' in out
    assert cli.main(["bots"]) == 0
    assert "search:AGENT:N" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv,words",
    [
        (["simulate", "search:ppo-3p:4", "Big Money"], "plays 3-player games; this run has 2"),
        (["simulate", "search:nobody:4", "Big Money"], "no agent 'nobody'"),
        (["simulate", "search:ppo-pool:0", "Big Money"], "int 1..1048575"),
        (["evaluate", "search:ppo-3p:4", "--players", "2"], "plays 3-player games, got 2"),
    ],
)
def test_bad_guided_names_end_the_command(torch, capsys, argv, words):
    with pytest.raises(SystemExit) as e:
        cli.main(argv)
    assert e.value.code == 2
    assert words in capsys.readouterr().err


def test_the_guided_search_is_a_gymnasium_opponent(torch):
    import gymnasium

    import dominion_env  # noqa: F401  (registers Dominion-v2)

    kw = dict(players=2, kingdom="First Game")
    env = gymnasium.make("Dominion-v2", opponents="search:ppo-pool:4", **kw)
    env.reset(seed=3)
    for _ in range(400):
        mask = env.unwrapped.action_masks()
        _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(mask)[0]))
        if terminated or truncated:
            break
    assert terminated or truncated
    with pytest.raises(ValueError, match="plays 2-player games; this env has 3"):
        gymnasium.make("Dominion-v2", players=3, opponents="search:ppo-pool:4")


def test_the_network_runs_where_device_says_auto_by_default():
    torch = pytest.importorskip("torch", reason="a trained agent guides it (the train extra)")
    from dominion_env.train.search_network import guided_search

    search = guided_search("ppo-pool", 8, seed=0)  # "auto": CUDA where present, else the CPU
    expected = "cuda" if torch.cuda.is_available() else "cpu"
    assert next(search.network.agent.net.parameters()).device.type == expected
    with pytest.raises(ValueError, match=r"device must be 'auto', 'cpu', 'cuda' or 'cuda:N'"):
        guided_search("ppo-pool", 8, device="gpu")


def test_an_agent_alone_takes_the_default_budget():
    g = parse_search_name("search:tiny", seed=3, load_network=lambda a: TinyNet())
    assert isinstance(g, GuidedSearch) and g.budget == DEFAULT_GUIDED_BUDGET and g.seed == 3
    assert parse_search_name("search:tiny:9", load_network=lambda a: TinyNet()).budget == 9
    # a count is still the flat search's budget, and a face without a loader reads words so too
    assert not isinstance(
        parse_search_name("search:12", load_network=lambda a: TinyNet()), GuidedSearch
    )
    with pytest.raises(ValueError, match="search's budget must be"):
        parse_search_name("search:tiny")

    def missing(agent):
        raise ValueError(f"no agent {agent!r}")

    with pytest.raises(ValueError, match=r"no agent 'nobody' \(nor is it search:N"):
        parse_search_name("search:nobody", load_network=missing)
