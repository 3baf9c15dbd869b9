"""The ecosystem's conventions, proven by the ecosystem's own tools: gymnasium's checker and
vector wrappers (mask in the observation, every autoreset mode, reset_mask, per-env seeds),
forked workers, and PettingZoo's state() tests."""

import json
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
    envs = make_vec(mask_in_observation=True, players=3, autoreset_mode="SameStep")
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
    # gymnasium's default, so its vector observation wrappers take the env as it comes
    assert DominionVectorEnv.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert DominionVectorEnv(2).metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP


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


# -- masks as each library takes them ------------------------------------------------------


def test_info_mask_is_int8_for_gymnasium_sample_and_action_masks_is_bool():
    env = gymnasium.make("Dominion-v2", opponents="Big Money")
    obs, info = env.reset(seed=5)
    rng = np.random.default_rng(5)
    env.action_space.seed(5)
    for _ in range(40):
        mask, bool_mask = info["action_mask"], env.unwrapped.action_masks()
        assert mask.dtype == np.int8 and bool_mask.dtype == np.bool_
        np.testing.assert_array_equal(mask, bool_mask.astype(np.int8))
        a = env.action_space.sample(mask=mask)  # gymnasium refuses a bool mask here
        assert bool_mask[a]
        obs, _, te, tr, info = env.step(int(rng.choice(np.flatnonzero(bool_mask))))
        if te or tr:
            break


def test_vector_info_mask_is_int8_for_gymnasium_sample():
    envs = make_vec()
    _, infos = envs.reset(seed=2)
    assert infos["action_mask"].dtype == np.int8 and infos["action_mask"].shape == (N, NUM_ACTIONS)
    actions = envs.action_space.sample(mask=tuple(infos["action_mask"]))
    assert envs.unwrapped.action_masks()[np.arange(N), actions].all()
    envs.step(actions)


def test_every_face_gives_a_bool_action_masks_equal_to_its_int8_mask():
    from dominion_env.envs.pettingzoo_env import raw_env
    from dominion_env.envs.sb3_vec_env import DominionVecEnv

    single = DominionEnv(seed=1, mask_in_observation=True)
    obs, info = single.reset()
    vector = DominionVectorEnv(N, seed=1)
    _, infos = vector.reset()
    sb3 = DominionVecEnv(N, seed=1)
    sb3.reset()
    aec = raw_env(players=3, seed=1)
    assert aec.action_masks().all()  # before reset: all True, as a finished episode
    aec.reset()
    for face, bool_mask, int8_mask in [
        ("gym", single.action_masks(), obs["action_mask"]),
        ("gym info", single.action_masks(), info["action_mask"]),
        ("vector", vector.action_masks(), infos["action_mask"]),
        ("sb3", sb3.action_masks(), vector.action_masks().astype(np.int8)),
        ("pettingzoo", aec.action_masks(), aec.observe(aec.agent_selection)["action_mask"]),
    ]:
        assert bool_mask.dtype == np.bool_, face
        assert int8_mask.dtype == np.int8, face
        np.testing.assert_array_equal(bool_mask.astype(np.int8), int8_mask, err_msg=face)
        assert bool_mask.any(), face


@pytest.mark.filterwarnings("ignore:overflow encountered in cast:RuntimeWarning")
@pytest.mark.filterwarnings("ignore:.*precision lowered by casting:UserWarning")
def test_gymnasium_vector_wrappers_take_the_default_autoreset():
    for name, wrapper in WRAPPERS.items():
        envs = wrapper(make_vec())  # no autoreset_mode given: NEXT_STEP, gymnasium's default
        obs, infos = envs.reset(seed=0)
        assert obs.shape == (N, obs_size(2)), name
    envs = vw.NormalizeObservation(make_vec())
    obs, infos = envs.reset(seed=0)
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(300):
        obs, _, te, tr, infos = envs.step(masked_random(infos["action_mask"], rng))
        ended += int((te | tr).sum())
    assert np.isfinite(obs).all() and ended > 0


@pytest.mark.filterwarnings("ignore:.*Dominion-v1 is out of date:DeprecationWarning")
def test_dominion_v1_says_to_use_v2():
    with pytest.raises(gymnasium.error.DeprecatedEnv, match="Dominion-v2"):
        gymnasium.make("Dominion-v1")


# -- the same options on every face --------------------------------------------------------


def _faces():
    from dominion_env.envs.pettingzoo_env import raw_env
    from dominion_env.envs.sb3_vec_env import DominionVecEnv

    return {
        "gym": DominionEnv,
        "vector": DominionVectorEnv,
        "sb3": DominionVecEnv,
        "pettingzoo": raw_env,
    }


SHARED = {
    "players",
    "kingdom",
    "turn_limit",
    "first_player",
    "autoplay_treasures",
    "auto_resolve",
    "pool",
    "public_discards",
    "scale_observations",
    "seed",
}
LEARNER_SHARED = SHARED | {"opponents", "opponent_weights", "vp_shaping", "learner_seat"}


def test_every_face_takes_the_same_option_names_with_the_same_defaults():
    import inspect

    from dominion_env.envs.common import OPTION, options_of

    seen = {}
    for face, cls in _faces().items():
        params = inspect.signature(cls).parameters
        names = {n for n, p in params.items() if p.kind != p.VAR_KEYWORD}
        assert names == {o.name for o in options_of(face)}, face
        assert (LEARNER_SHARED if face != "pettingzoo" else SHARED) <= names, face
        for n in names:
            assert params[n].default == OPTION[n].default, (face, n)
            seen.setdefault(n, set()).add(params[n].default)
    assert all(len(d) == 1 for d in seen.values()), seen  # no default drifted between faces


# a value other than the default for every option, valid on every face that takes it
# (several options where one needs another); a new option without one fails the walk below
OPTION_SAMPLES = {
    "num_envs": {"num_envs": 3},
    "players": {"players": 3},
    "kingdom": {"kingdom": "First Game"},
    "opponents": {"opponents": "Smithy"},
    "learner_seat": {"learner_seat": 1},
    "turn_limit": {"turn_limit": 37},
    "first_player": {"first_player": 1},
    "autoplay_treasures": {"autoplay_treasures": False},
    "auto_resolve": {"auto_resolve": False},
    "pool": {
        "pool": ["Village", "Smithy", "Militia", "Market", "Festival", "Throne Room"]
        + ["Cellar", "Moat", "Gardens", "Witch", "Mine"]
    },
    "public_discards": {"public_discards": True},
    "scale_observations": {"scale_observations": True},
    "seed": {"seed": 2**100},
    "opponent_weights": {"opponents": ["Big Money", "Smithy"], "opponent_weights": [2, 1]},
    "vp_shaping": {"vp_shaping": 0.05},
    "record_dir": {"record_dir": "RECORDS"},
    "render_mode": {"render_mode": "ansi"},
    "log_lines": {"log_lines": 3},
    "illegal_action": {"illegal_action": "raise"},
    "mask_in_observation": {"mask_in_observation": True},
    "observation": {"observation": "cards"},
    "autoreset_mode": {"autoreset_mode": "SameStep"},
}


def test_every_face_takes_every_option_it_declares(tmp_path):
    """Walk every face's options: each takes a value other than the default, and the env it
    makes plays (a reset and a legal step), so no face declares an option it refuses."""
    from dominion_env.envs.common import OPTIONS, options_of

    assert set(OPTION_SAMPLES) == {o.name for o in OPTIONS}
    for face, cls in _faces().items():
        for o in options_of(face):
            kw = {
                k: str(tmp_path / face) if v == "RECORDS" else v
                for k, v in OPTION_SAMPLES[o.name].items()
            }
            env = cls(**kw)
            if face in ("sb3", "vector"):
                env.reset()
                env.step(np.array([np.flatnonzero(m)[0] for m in env.action_masks()]))
            else:
                env.reset(seed=1)
                env.step(int(np.flatnonzero(env.action_masks())[0]))


def test_single_env_opponent_pool_draws_like_the_vector_env(tmp_path):
    kw = dict(opponents=["Big Money", "Smithy"], opponent_weights=[2, 1], players=3)
    env = DominionEnv(**kw, record_dir=tmp_path)
    drawn = set()
    for seed in range(8):
        env.reset(seed=seed)
        over = False
        while not over:
            _, _, terminated, truncated, _ = env.step(int(np.flatnonzero(env.action_masks())[-1]))
            over = terminated or truncated
        rec = json.loads(env.recorder.last_path.read_text())
        drawn |= {p["name"] for p in rec["players"]} - {"learner"}
    assert drawn == {"Big Money", "Smithy"}
    with pytest.raises(ValueError, match=r"opponent_weights must have shape \(2,\)"):
        DominionEnv(opponents=["Big Money", "Smithy"], opponent_weights=[1])
    with pytest.raises(ValueError, match="opponent_weights draws from compiled bots"):
        DominionEnv(opponents=lambda obs, mask: 70, opponent_weights=[1])
    with pytest.raises(ValueError, match="or give opponent_weights to draw from them"):
        DominionEnv(opponents=["Big Money", "Smithy"])


def test_an_option_of_another_face_is_refused_with_the_reason():
    from dominion_env.envs.pettingzoo_env import raw_env

    with pytest.raises(
        TypeError, match=r"unexpected keyword argument 'record_dir' \(N games in one"
    ):
        DominionVectorEnv(2, record_dir="x")
    with pytest.raises(
        TypeError, match=r"unexpected keyword argument 'opponents' \(every seat is an agent"
    ):
        raw_env(opponents="Big Money")
    with pytest.raises(
        TypeError, match=r"unexpected keyword argument 'turn_limt'. Its options: players,"
    ):
        DominionEnv(turn_limt=5)
    with pytest.raises(TypeError, match="public_discards must be True or False, got 1"):
        DominionEnv(public_discards=1)
    with pytest.raises(ValueError, match="seed must be"):
        raw_env(seed=-1)


def test_shared_options_reach_the_game_on_every_face():
    from dominion_env.envs.pettingzoo_env import raw_env
    from dominion_env.envs.sb3_vec_env import DominionVecEnv

    kw = dict(turn_limit=37, public_discards=True, scale_observations=True)
    single = DominionEnv(**kw).game._vec
    aec = raw_env(**kw).game._vec
    vector = DominionVectorEnv(2, **kw).vec
    sb3 = DominionVecEnv(2, **kw).vec
    for face, vec in [("gym", single), ("pz", aec), ("vector", vector), ("sb3", sb3)]:
        assert int(vec.config.turn_limit) == 37, face
        assert bool(vec.config.public_discards), face
        assert vec.scale_observations, face


def test_constructor_seed_makes_unseeded_resets_repeat():
    from dominion_env.envs.pettingzoo_env import raw_env

    a, b = DominionEnv(seed=9), DominionEnv(seed=9)
    np.testing.assert_array_equal(a.reset()[0], b.reset()[0])
    np.testing.assert_array_equal(a.reset()[0], b.reset()[0])
    va, vb = DominionVectorEnv(4, seed=9), DominionVectorEnv(4, seed=9)
    np.testing.assert_array_equal(va.reset()[0], vb.reset()[0])
    pa, pb = raw_env(seed=9), raw_env(seed=9)
    pa.reset()
    pb.reset()
    assert pa.game_seed == pb.game_seed


def test_single_env_vp_shaping_sums_to_the_result_and_needs_bots():
    env = DominionEnv(kingdom="First Game", vp_shaping=0.05, opponent_weights=[1.0])
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    total, rewards = 0.0, []
    while True:
        _, r, te, tr, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
        total += r
        rewards.append(r)
        if te or tr:
            break
    result = 0.0 if tr else float(info["rewards"][info["learner_seat"]])
    assert total == pytest.approx(result, abs=1e-5)
    assert any(r != 0 for r in rewards[:-1])  # shaped along the way, not only at the end
    with pytest.raises(ValueError, match="needs compiled bot opponents"):
        DominionEnv(opponents=lambda obs, mask: int(np.argmax(mask)), vp_shaping=0.05)


# -- machine-readable outputs agree --------------------------------------------------------


def test_simulate_tournament_and_evaluate_name_intervals_alike(tmp_path):
    """simulate --out, the tournament's CSVs and evaluate --json all write <q>_ci_low and
    <q>_ci_high (report.ci_fields); no file says _ci_lo / _ci_hi / score_lo any more."""
    import csv
    import json

    from dominion_env import cli
    from dominion_env.analysis.report import CI_SUFFIXES, ci_fields

    assert CI_SUFFIXES == ("_ci_low", "_ci_high")
    assert ci_fields("win", (0.25, 0.5)) == {"win_ci_low": 0.25, "win_ci_high": 0.5}
    base = ["simulate", "Smithy", "Big Money", "--games", "6", "--seed", "1", "--quiet"]
    assert cli.main([*base, "--out", str(tmp_path / "r.json")]) == 0
    bot = json.loads((tmp_path / "r.json").read_text())["bots"][0]
    ci_keys = sorted(k for k in bot if "_ci" in k)
    assert ci_keys == [f"{q}{s}" for q in ("loss", "tie", "win") for s in ("_ci_high", "_ci_low")]
    assert cli.main([*base, "--out", str(tmp_path / "r.csv")]) == 0
    header = next(csv.reader((tmp_path / "r.csv").open()))
    assert [k for k in header if "_ci" in k] == [
        f"{q}{s}" for q in ("win", "tie", "loss") for s in CI_SUFFIXES
    ]
    out = tmp_path / "t"
    argv = ["tournament", "Big Money", "Smithy", "--games", "4", "--out", str(out), "--quiet"]
    assert cli.main(argv) == 0
    for name, q in (("winrates.csv", "win"), ("ratings.csv", "score")):
        header = next(csv.reader((out / name).open()))
        assert [k for k in header if "_ci" in k or k.endswith(("_lo", "_hi"))] == [
            q + s for s in CI_SUFFIXES
        ], name
