"""The OpenSpiel game ``python_dominion`` and OpenSpiel's ISMCTS as a player: OpenSpiel's own
random-simulation test at 2 to 6 players, parameters checked before a game is built, the
information state is the engine's observation of the seat (the Gymnasium env's, game for game)
and reveals no hidden card, clones and resamples, and ISMCTS decides from what its seat knows.
"""

from __future__ import annotations

import pickle

import gymnasium
import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra")

from dominion_env import Game, VecGame, cli  # noqa: E402 (after the extra's skip)
from dominion_env.envs import openspiel_game as og  # noqa: E402
from dominion_env.envs.ismcts import parse_ismcts_name  # noqa: E402
from dominion_env.names import IllegalActionError, action_name  # noqa: E402
from dominion_env.search import determinized  # noqa: E402


def _load(**params):
    return pyspiel.load_game(og.SHORT_NAME, params)


def _play_random(state, steps, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_openspiels_random_simulation_test_passes(players):
    game = _load(players=players, turn_limit=4, seed=players)
    assert game.num_players() == players
    # OpenSpiel's checker raises (a SpielError) on any state, action or return that breaks
    # its contract: the test fails through it
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_the_game_type_says_what_dominion_is():
    two, three = _load(), _load(players=3)
    t = two.get_type()
    assert t.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert t.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM and two.utility_sum() == 0.0
    assert three.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert two.num_distinct_actions() == og.NUM_ACTIONS and three.num_players() == 3
    assert (two.min_utility(), two.max_utility()) == (-1.0, 1.0)


@pytest.mark.parametrize("players", [2, 3])
def test_returns_are_the_engines_rewards_and_their_sum_is_as_the_type_says(players):
    game = _load(players=players, kingdom="First Game", turn_limit=30)
    sums = set()
    for k in range(4):
        s = _play_random(game.new_initial_state(), 10_000, seed=k)
        assert s.is_terminal() and s.current_player() == pyspiel.PlayerId.TERMINAL
        r = s.returns()
        assert r == [float(x) for x in s._vec.state["reward"][0, :players]]
        assert set(r) <= {-1.0, 0.0, 1.0}
        sums.add(sum(r))
    assert sums <= ({0.0} if players == 2 else {0.0, -1.0, 2.0 - players})


def test_every_decision_is_an_action_named_by_its_card():
    s = _load(kingdom="First Game", seed=3).new_initial_state()
    seen = set()
    for k in range(60):
        legal = s.legal_actions()
        assert legal == np.flatnonzero(s._vec.action_mask[0]).tolist()
        for a in legal:
            assert s.action_to_string(s.current_player(), a) == action_name(a)
        seen.update(s.action_to_string(a) for a in legal)
        s.apply_action(legal[k % len(legal)])
    assert {"Copper", "Silver", "PASS"} <= seen


def test_new_states_deal_the_games_numbered_from_zero_of_the_seed():
    game = _load(kingdom="First Game", seed=11)
    for k in range(3):
        s = game.new_initial_state()
        g = Game("First Game", 2, 11, game_index=k)
        for field in ("zone", "deck", "pile", "rng", "player"):  # (a Game also logs)
            np.testing.assert_array_equal(s._vec.state[field], g.state[field])
        assert s.legal_actions() == np.flatnonzero(g.action_mask).tolist()


@pytest.mark.parametrize(
    "params,words",
    [
        ({"players": 7}, "players must be an int 2..6"),
        ({"players": 1}, "players must be an int 2..6"),
        ({"kingdom": "Nowhere"}, "unknown kingdom 'Nowhere'"),
        ({"kingdom": "Village,Smithy"}, "a kingdom has 10 cards"),
        ({"turn_limit": 0}, "turn_limit must be an int 1..100000"),
        ({"seed": -1}, "seed must be an int 0..2147483647"),
        ({"seed": 2**31}, "seed must be an int 0..2147483647"),
    ],
)
def test_a_bad_parameter_is_refused_naming_it_before_any_game(params, words):
    with pytest.raises(ValueError, match=words):
        og.DominionGame(params)
    if params.get("seed") != 2**31:  # (pybind refuses an int past 32 bits, in its words)
        with pytest.raises((ValueError, pyspiel.SpielError), match=words):
            _load(**params)


def test_an_unknown_parameter_or_a_wrong_type_is_refused():
    with pytest.raises(ValueError, match="no parameter 'colour'; its parameters: players"):
        og.DominionGame({"colour": 1})
    with pytest.raises(pyspiel.SpielError, match="players"):
        _load(players="3")


def test_an_illegal_action_is_refused_naming_it_and_nothing_moves():
    s = _load(kingdom="First Game").new_initial_state()
    before = s._vec.state.tobytes()
    illegal = next(a for a in range(og.NUM_ACTIONS) if a not in s.legal_actions())
    with pytest.raises(IllegalActionError, match=rf"{action_name(illegal)}\) is not legal"):
        s.apply_action(illegal)
    with pytest.raises(IllegalActionError, match="out of range 0..70"):
        s.apply_action(10**6)
    assert s._vec.state.tobytes() == before and s.history() == []
    over = _play_random(_load(turn_limit=2).new_initial_state(), 10_000)
    with pytest.raises(IllegalActionError, match="legal: \\[\\]"):
        over.apply_action(0)


def test_the_information_state_is_the_gymnasium_envs_observation_game_for_game():
    env = gymnasium.make(
        "Dominion-v2", kingdom="First Game", opponents="Big Money", learner_seat=1
    ).unwrapped
    checked = 0
    for episode in range(2):
        obs, info = env.reset(seed=episode)
        s = _load(kingdom="First Game").new_initial_state()
        s._vec.reset(env.game.seed)  # the env's deal (its seeds pass OpenSpiel's int range)
        rng = np.random.default_rng(episode)
        done = False
        while not done:
            for _, a in env.game.decisions()[len(s.history()) :]:
                s.apply_action(a)
            assert s.current_player() == 1
            np.testing.assert_array_equal(np.asarray(s.information_state_tensor(1)), obs)
            np.testing.assert_array_equal(np.asarray(s.observation_tensor(1)), obs)
            assert s.legal_actions() == np.flatnonzero(info["action_mask"]).tolist()
            checked += 1
            a = int(rng.choice(np.flatnonzero(info["action_mask"])))
            obs, _, terminated, truncated, info = env.step(a)
            done = terminated or truncated
    assert checked > 20


def _midgame(players, seed, steps=70):
    s = _load(players=players, kingdom="Victory Dance", seed=seed).new_initial_state()
    return _play_random(s, steps, seed)


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 2), (4, 3)])
def test_an_information_state_never_reveals_a_hidden_card(players, seed):
    """Twins that differ only in what seat v cannot see (a deal of the game for v) give v the
    same information state, tensor and string; another seat sees the difference."""
    s = _midgame(players, seed)
    assert not s.is_terminal()
    noticed = False
    for v in range(players):
        twin = s.clone()
        twin._vec.state[0] = determinized(s._vec.state, v, seed=7)[0]
        assert twin._vec.state.tobytes() != s._vec.state.tobytes()
        assert twin.information_state_string(v) == s.information_state_string(v)
        assert twin.information_state_tensor(v) == s.information_state_tensor(v)
        assert twin.observation_string(v) == s.observation_string(v)
        others = [q for q in range(players) if q != v]
        noticed |= any(twin.observation_tensor(q) != s.observation_tensor(q) for q in others)
    assert noticed  # the twins do differ in what some seat sees


def test_clone_is_independent_and_resample_keeps_what_the_seat_knows():
    s = _midgame(3, 4)
    c = s.clone()
    assert c.history() == s.history() and str(c) == str(s)
    c.apply_action(c.legal_actions()[0])
    assert len(c.history()) == len(s.history()) + 1
    p = s.current_player()
    draws = np.random.default_rng(0).uniform
    worlds = [s.resample_from_infostate(p, draws) for _ in range(4)]
    assert len({w._vec.state.tobytes() for w in worlds}) == 4  # the hidden cards are dealt anew
    for w in worlds:
        assert w.information_state_string(p) == s.information_state_string(p)
        assert w.legal_actions() == s.legal_actions()
        assert w.history() == s.history()
        _play_random(w, 30)  # a legal game that plays on
    # the same draws give the same world (nothing of the game's own hidden cards is read)
    a = s.resample_from_infostate(p, np.random.default_rng(5).uniform)
    twin = s.clone()
    twin._vec.state[0] = determinized(s._vec.state, p, seed=1)[0]
    b = twin.resample_from_infostate(p, np.random.default_rng(5).uniform)
    assert a._vec.state.tobytes() == b._vec.state.tobytes()


def test_ismcts_decides_the_same_for_games_that_differ_only_in_hidden_cards():
    s = _midgame(2, 5, steps=40)
    x, y = og.ISMCTSPlayer(24, seed=3), og.ISMCTSPlayer(24, seed=3)
    for k in range(6):
        if s.is_terminal():
            break
        v = s.current_player()
        twin = s.clone()
        twin._vec.state[0] = determinized(s._vec.state, v, seed=100 + k)[0]
        a, b = x.step(s), y.step(twin)
        assert a == b and a in s.legal_actions()
        s.apply_action(a)


def test_ismcts_sits_at_a_table_by_name():
    player = parse_ismcts_name("ismcts:8", seed=1)
    assert isinstance(player, og.ISMCTSPlayer) and player.name == "ismcts:8"
    assert parse_ismcts_name("ISMCTS").simulations == og.DEFAULT_SIMULATIONS
    assert parse_ismcts_name("search:8") is None and parse_ismcts_name("Big Money") is None
    for bad in ("ismcts:", "ismcts:0", "ismcts:x", "ismcts:1048576", "ismcts:8:8"):
        with pytest.raises(ValueError, match=f"player '{bad}': ismcts's budget"):
            parse_ismcts_name(bad)
    assert cli.resolve_player("ismcts:8").name == "ismcts:8"
    vec = VecGame(2, 2, "First Game", autoreset=False, first_player=0)  # as simulate deals
    vec.reset(0)
    actions = player.act_games(vec, [0, 1])
    assert all(vec.action_mask[g, a] for g, a in enumerate(actions))
    with pytest.raises(ValueError, match="auto_resolve=1"):
        player.act_games(VecGame(1, 2, auto_resolve=False), [0])
    fresh = player.with_seed(2)
    copy = pickle.loads(pickle.dumps(fresh))  # a Ray task's copy decides as the player does
    assert copy.act_games(vec, [0, 1]).tolist() == fresh.act_games(vec, [0, 1]).tolist()
    used = pickle.loads(pickle.dumps(player))  # its games (OpenSpiel objects) are rebuilt
    assert all(vec.action_mask[g, a] for g, a in enumerate(used.act_games(vec, [0, 1])))
    with pytest.raises(TypeError, match="decides from the game"):
        player.act(np.zeros((1, 3)), np.ones((1, 3), bool))


@pytest.mark.parametrize(
    "argv",
    [["evaluate", "ismcts:zz"], ["scorecard", "ismcts:0"], ["simulate", "ismcts:", "Big Money"]],
)
def test_every_command_refuses_a_bad_ismcts_name_naming_it(argv, capsys):
    pytest.importorskip("torch", reason="evaluate and scorecard are the train extra's")
    with pytest.raises(SystemExit) as e:
        cli.main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2 and "Traceback" not in err
    assert f"player '{argv[1]}': ismcts's budget must be simulations per decision" in err
