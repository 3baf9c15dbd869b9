"""The ecosystem's conventions, proven by the ecosystem's own tools: gymnasium's checker and
vector wrappers (mask in the observation, every autoreset mode, reset_mask, per-env seeds),
forked workers, and PettingZoo's state() tests."""

import subprocess
import sys
import textwrap

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers import vector as vw

import dominion_env.envs  # noqa: F401 (registers Dominion-v2)
from dominion_env import VecGame
from dominion_env.agents import compile_bots
from dominion_env.engine.layout import NUM_ACTIONS
from dominion_env.engine.observation import obs_size
from dominion_env.envs.gym_env import DominionEnv
from dominion_env.envs.vector_env import DominionVectorEnv

N = 8


def masked_random(masks, rng):
    """One uniformly random legal action per row of (N, A) masks."""
    u = rng.random(masks.shape) * masks
    return u.argmax(axis=1)


def make_vec(**kw):
    return gymnasium.make_vec(
        "Dominion-v2", num_envs=N, vectorization_mode="vector_entry_point", **kw
    )


# -- single env ----------------------------------------------------------------------------


@pytest.mark.parametrize("opponents", ["Big Money", lambda obs, mask: int(np.argmax(mask))])
def test_check_env_with_mask_in_observation(opponents):
    env = DominionEnv(opponents=opponents, mask_in_observation=True)
    check_env(env, skip_render_check=True)
    space = env.observation_space
    assert isinstance(space, gymnasium.spaces.Dict)
    assert isinstance(space["action_mask"], gymnasium.spaces.MultiBinary)
    assert space["action_mask"].dtype == np.int8
    obs, info = env.reset(seed=3)
    assert space.contains(obs)
    assert (obs["action_mask"] == info["action_mask"]).all()
    # Discrete.sample takes the int8 mask as it is
    assert obs["action_mask"][env.action_space.sample(mask=obs["action_mask"])]


def test_check_env_through_make_with_mask():
    check_env(gymnasium.make("Dominion-v2", mask_in_observation=True).unwrapped)


def test_mask_in_observation_is_the_plain_observation_beside_the_mask():
    plain = DominionEnv(players=3)
    masked = DominionEnv(players=3, mask_in_observation=True)
    o1, _ = plain.reset(seed=11)
    o2, _ = masked.reset(seed=11)
    rng = np.random.default_rng(0)
    while True:
        np.testing.assert_array_equal(o1, o2["observation"])
        mask = plain.action_masks()
        np.testing.assert_array_equal(mask.astype(np.int8), o2["action_mask"])
        a = int(rng.choice(np.flatnonzero(mask)))
        o1, r1, te1, tr1, _ = plain.step(a)
        o2, r2, te2, tr2, _ = masked.step(a)
        assert (r1, te1, tr1) == (r2, te2, tr2)
        if te1 or tr1:
            np.testing.assert_array_equal(o1, o2["observation"])
            break


def test_finished_episode_mask_is_never_empty():
    env = DominionEnv(mask_in_observation=True)
    env.reset(seed=0)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    obs, reward, terminated, _, info = env.step(illegal)  # ends the episode as a loss
    assert terminated and reward == -1.0
    assert env.action_masks().all() and info["action_mask"].all() and obs["action_mask"].all()


# -- vector env: spaces, masks -------------------------------------------------------------


def test_vector_mask_in_observation():
    envs = make_vec(mask_in_observation=True, players=3)
    single = envs.single_observation_space
    assert single["observation"].shape == (obs_size(3),)
    assert single["action_mask"].n == NUM_ACTIONS and single["action_mask"].dtype == np.int8
    obs, infos = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    for _ in range(300):
        assert envs.observation_space.contains(obs)
        np.testing.assert_array_equal(obs["action_mask"], infos["action_mask"].astype(np.int8))
        obs, _, _, _, infos = envs.step(masked_random(infos["action_mask"], rng))
        for g in np.flatnonzero(infos.get("_final_obs", np.zeros(N, bool))):
            assert single.contains(infos["final_obs"][g])
            assert infos["final_obs"][g]["action_mask"].all()


def test_bad_autoreset_mode_and_flag():
    with pytest.raises(ValueError, match="autoreset_mode must be"):
        DominionVectorEnv(2, autoreset_mode="sometimes")
    with pytest.raises(TypeError, match="mask_in_observation must be True or False"):
        DominionVectorEnv(2, mask_in_observation=1)
    assert DominionVectorEnv(2, autoreset_mode="NextStep").metadata["autoreset_mode"] == (
        AutoresetMode.NEXT_STEP
    )
    assert DominionVectorEnv.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP


# -- vector env: autoreset modes -----------------------------------------------------------


def test_next_step_plays_the_same_games_as_same_step():
    """NEXT_STEP shows a finished game's last observation, then (ignoring that row's action)
    the next game's first, with reward 0: the same-step VecGame under it, with that row
    skipped (-1), shows the same things."""
    nxt = make_vec(players=2, autoreset_mode=AutoresetMode.NEXT_STEP)
    assert nxt.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    vec = VecGame(N, 2, opponents=compile_bots("Big Money"))
    o_next, i_next = nxt.reset(seed=4)
    vec.reset(4)
    rng = np.random.default_rng(1)
    shown_final = np.zeros(N, bool)
    ended = 0
    for _ in range(400):
        expected = vec.observation.copy()
        expected[shown_final] = vec.final_observation[shown_final]
        np.testing.assert_array_equal(o_next, expected)
        a = masked_random(i_next["action_mask"], rng)
        o_next, r_next, te_next, tr_next, i_next = nxt.step(a)
        vec.step(np.where(shown_final, -1, a))
        np.testing.assert_array_equal(r_next, vec.learner_rewards)
        np.testing.assert_array_equal(te_next, vec.terminated)
        np.testing.assert_array_equal(tr_next, vec.truncated)
        done = vec.terminated | vec.truncated
        assert not (shown_final & done).any()
        ended += int(done.sum())
        np.testing.assert_array_equal(i_next["rewards"][done], vec.rewards[done])
        assert i_next["action_mask"][done].all()  # a finished row's mask is all True
        np.testing.assert_array_equal(i_next["action_mask"][~done], vec.action_mask[~done])
        shown_final = done
    assert ended >= 2, "no game ended: the test saw no autoreset"


def test_disabled_waits_for_reset_mask():
    envs = make_vec(autoreset_mode=AutoresetMode.DISABLED)
    obs, infos = envs.reset(seed=2)
    rng = np.random.default_rng(2)
    for _ in range(2000):
        obs, _, te, tr, infos = envs.step(masked_random(infos["action_mask"], rng))
        done = te | tr
        if done.any():
            break
    assert done.any()
    assert infos["action_mask"][done].all()
    with pytest.raises(ValueError, match="hold finished games"):
        envs.step(masked_random(infos["action_mask"], rng))
    obs2, infos2 = envs.reset(options={"reset_mask": done})
    np.testing.assert_array_equal(obs2[~done], obs[~done])
    assert not infos2["action_mask"][done].all()
    envs.step(masked_random(infos2["action_mask"], rng))


WRAPPERS = {
    "Normalize": vw.NormalizeObservation,
    "Dtype": lambda e: vw.DtypeObservation(e, np.float64),
    "Transform": lambda e: vw.TransformObservation(e, lambda o: o * 0.5),  # 0 is in every bound
    "Rescale": lambda e: vw.RescaleObservation(e, -1.0, 1.0),
    "Flatten": vw.FlattenObservation,
    "EpisodeStatistics": vw.RecordEpisodeStatistics,
    "Reward": vw.NormalizeReward,
}


@pytest.mark.parametrize(
    "mode, name",
    [(AutoresetMode.NEXT_STEP, name) for name in WRAPPERS]
    # NormalizeObservation takes NEXT_STEP only (gymnasium's rule)
    + [(AutoresetMode.DISABLED, name) for name in WRAPPERS if name != "Normalize"],
)
# gymnasium's own Box building in DtypeObservation and RescaleObservation warns about casts
@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
@pytest.mark.filterwarnings("ignore:.*precision lowered by casting:UserWarning")
def test_gymnasium_vector_wrappers_accept_it(mode, name):
    envs = WRAPPERS[name](make_vec(autoreset_mode=mode))
    obs, infos = envs.reset(seed=0)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(300):
        assert obs.shape == envs.observation_space.shape
        if name != "Normalize":  # gymnasium < 1.3 keeps the unnormalised Box as its space
            assert envs.observation_space.contains(obs.astype(envs.observation_space.dtype))
        obs, _, te, tr, infos = envs.step(masked_random(infos["action_mask"], rng))
        done = te | tr
        ended += int(done.sum())
        if mode == AutoresetMode.DISABLED and done.any():
            obs, infos = envs.reset(options={"reset_mask": done})
    assert np.isfinite(obs).all()


def test_flatten_wraps_the_dict_observation():
    envs = vw.FlattenObservation(make_vec(mask_in_observation=True, autoreset_mode="NextStep"))
    obs, infos = envs.reset(seed=0)
    assert obs.shape == (N, obs_size(2) + NUM_ACTIONS)
    # Dict spaces flatten in sorted key order: action_mask first
    np.testing.assert_array_equal(obs[:, :NUM_ACTIONS], infos["action_mask"])


# -- vector env: reset_mask and seeds ------------------------------------------------------


def test_reset_mask_deals_only_those_rows():
    envs = make_vec(vp_shaping=0.05)
    obs0, _ = envs.reset(seed=9)
    rng = np.random.default_rng(4)
    infos = envs.reset(seed=9)[1]
    for _ in range(30):
        obs, _, _, _, infos = envs.step(masked_random(infos["action_mask"], rng))
    mask = np.zeros(N, bool)
    mask[[1, 5]] = True
    obs2, infos2 = envs.reset(seed=9, options={"reset_mask": mask})
    np.testing.assert_array_equal(obs2[mask], obs0[mask])  # game g of the run seeded 9
    np.testing.assert_array_equal(obs2[~mask], obs[~mask])
    np.testing.assert_array_equal(infos2["action_mask"][~mask], infos["action_mask"][~mask])
    _, rewards, _, _, _ = envs.step(masked_random(infos2["action_mask"], rng))
    assert np.isfinite(rewards).all()


@pytest.mark.parametrize(
    "bad, match",
    [
        ([True] * N, "numpy bool array"),
        (np.ones(N, np.int8), "numpy bool array"),
        (np.ones(N + 1, bool), "numpy bool array"),
        (np.zeros(N, bool), "at least one row"),
    ],
)
def test_reset_mask_is_checked(bad, match):
    envs = make_vec()
    envs.reset(seed=0)
    with pytest.raises(ValueError, match=match):
        envs.reset(options={"reset_mask": bad})


def test_unknown_reset_option_is_refused():
    envs = make_vec()
    with pytest.raises(ValueError, match="unknown reset options"):
        envs.reset(options={"rest_mask": np.ones(N, bool)})


def test_seed_lists():
    a, b = make_vec(), make_vec()
    np.testing.assert_array_equal(a.reset(seed=7)[0], b.reset(seed=[7] * N)[0])
    seeds = [3, None, 7, None, 0, 1, 2, 2**62]
    o1 = a.reset(seed=seeds)[0]
    o2 = b.reset(seed=seeds)[0]
    fixed = np.array([s is not None for s in seeds])
    np.testing.assert_array_equal(o1[fixed], o2[fixed])
    np.testing.assert_array_equal(o1[0], a.reset(seed=3)[0][0])
    np.testing.assert_array_equal(o1[2], a.reset(seed=7)[0][2])
    with pytest.raises(ValueError, match="num_envs = 8 entries"):
        a.reset(seed=[1, 2])
    with pytest.raises(ValueError, match=r"seed\[1\] must be None or a non-negative int"):
        a.reset(seed=[0, -1] + [0] * (N - 2))
    with pytest.raises(ValueError, match=r"seed\[0\] must be None or a non-negative int"):
        a.reset(seed=[1.5] + [0] * (N - 1))


# -- forked workers ------------------------------------------------------------------------


def run_python(code: str, timeout=900):
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_kernels_run_in_a_child_forked_after_the_parent_played_small_batches():
    """Numba's GNU OpenMP pool kills a forked child that runs a kernel once the parent started
    the pool; small batches (a Game, the single-game envs) run each kernel's serial twin and
    never start it (engine/jit.py), so the parent may fork and the child run big batches."""
    out = run_python(
        """
        import multiprocessing as mp
        import numba
        from dominion_env import Game, VecGame

        def child(q):
            v = VecGame(128)  # 128 games: the parallel path, in the child
            v.reset(1)
            v.step(v.random_actions())
            q.put(int(v.observation.sum()))

        g = Game("First Game", seed=1)
        g.step(g.legal_actions()[0])
        v = VecGame(8)
        v.reset(1)
        v.step(v.random_actions())
        try:
            numba.threading_layer()
            print("pool started")
        except ValueError:
            print("no pool")
        ctx = mp.get_context("fork")
        q = ctx.Queue()
        p = ctx.Process(target=child, args=(q,))
        p.start()
        p.join(600)
        print("child", p.exitcode, q.get(timeout=5) > 0)
        """
    )
    assert "no pool" in out.stdout, out.stdout + out.stderr
    assert "child 0 True" in out.stdout, out.stdout + out.stderr
    assert "GNU OpenMP" not in out.stderr


def test_a_fork_safe_layer_lets_a_parent_of_big_batches_fork():
    """After big batches the pool is started: NUMBA_THREADING_LAYER=workqueue (documented in
    engine/jit.py) keeps forking safe."""
    out = run_python(
        """
        import os
        os.environ["NUMBA_THREADING_LAYER"] = "workqueue"
        import multiprocessing as mp
        from dominion_env import VecGame

        def child(q):
            v = VecGame(128)
            v.reset(1)
            v.step(v.random_actions())
            q.put(int(v.observation.sum()))

        v = VecGame(128)
        v.reset(1)
        ctx = mp.get_context("fork")
        q = ctx.Queue()
        p = ctx.Process(target=child, args=(q,))
        p.start()
        p.join(600)
        print("child", p.exitcode, q.get(timeout=5) > 0)
        """
    )
    assert "child 0 True" in out.stdout, out.stdout + out.stderr


def test_make_vec_async_with_the_default_start_method():
    out = run_python(
        """
        import gymnasium, numpy as np
        import dominion_env
        envs = gymnasium.make_vec("Dominion-v2", num_envs=2, vectorization_mode="async",
                                  mask_in_observation=True)
        obs, infos = envs.reset(seed=0)
        for _ in range(20):
            obs, r, te, tr, infos = envs.step(obs["action_mask"].argmax(axis=1))
        envs.close()
        print("async ok", obs["observation"].shape)
        """
    )
    assert "async ok (2," in out.stdout, out.stdout + out.stderr


def test_an_explicit_threading_layer_is_kept():
    out = run_python(
        """
        import os
        os.environ["NUMBA_THREADING_LAYER"] = "workqueue"
        import numba
        import dominion_env
        print(numba.config.THREADING_LAYER)
        """
    )
    assert out.stdout.strip() == "workqueue", out.stderr


# -- PettingZoo state ----------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_state(players):
    from pettingzoo.test import api_test
    from pettingzoo.test.state_test import test_state, test_state_space

    from dominion_env.envs import pettingzoo_env

    env = pettingzoo_env.env(players=players)
    test_state_space(env)
    test_state(env, 200)
    api_test(pettingzoo_env.env(players=players), num_cycles=200)

    raw = pettingzoo_env.raw_env(players=players)
    with pytest.raises(RuntimeError, match="reset"):
        raw.state()
    raw.reset(seed=5)
    size = obs_size(players)
    assert raw.state_space.shape == (players * size,)
    rng = np.random.default_rng(5)
    for _ in range(200):
        state = raw.state()
        assert raw.state_space.contains(state)
        for p, agent in enumerate(raw.possible_agents):
            np.testing.assert_array_equal(
                state[p * size : (p + 1) * size], raw.observe(agent)["observation"]
            )
        if raw.game.done:
            break
        mask = raw.observe(raw.agent_selection)["action_mask"]
        raw.step(int(rng.choice(np.flatnonzero(mask))))
