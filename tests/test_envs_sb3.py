"""SB3 VecEnv on VecGame: conventions, masks in one batched call, rewards, MaskablePPO smoke."""

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO  # noqa: E402
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported  # noqa: E402
from stable_baselines3.common.vec_env import VecEnv, VecMonitor  # noqa: E402

from dominion_env import VecGame  # noqa: E402
from dominion_env.agents import compile_bots  # noqa: E402
from dominion_env.engine.observation import obs_size, split  # noqa: E402
from dominion_env.envs.sb3_vec_env import DominionVecEnv  # noqa: E402


def random_actions(masks, rng):
    return np.argmax(masks * rng.random(masks.shape), axis=1)


def test_is_a_vecenv_of_one_vecgame():
    env = DominionVecEnv(16, players=3, opponents="Big Money", seed=0)
    assert isinstance(env, VecEnv) and env.num_envs == 16
    assert isinstance(env.vec, VecGame) and env.vec.num_games == 16
    assert env.observation_space.shape == (obs_size(3),)
    env.seed(5)
    obs = env.reset()
    ref = VecGame(16, 3, opponents=compile_bots("Big Money"))
    ref.reset(5)
    assert np.array_equal(obs, ref.observation)
    assert obs.dtype == np.float32 and obs.shape == (16, obs_size(3))
    assert [i["learner_seat"] for i in env.reset_infos] == list(env.vec.learner_seat)


def test_masks_one_batched_call_also_through_wrappers():
    env = DominionVecEnv(8, seed=0)
    wrapped = VecMonitor(env)
    wrapped.reset()
    assert is_masking_supported(wrapped)
    masks = get_action_masks(wrapped)
    assert masks.shape == (8, env.action_space.n) and masks.dtype == np.bool_
    assert np.array_equal(masks, env.vec.action_mask)
    assert np.array_equal(env.env_method("action_masks", indices=[2, 5]), masks[[2, 5]])
    calls = []
    original = env.vec.__class__.action_mask
    try:  # the batch mask is read once per get_action_masks, not once per env
        env.vec.__class__.action_mask = property(lambda self: calls.append(1) or self.buffers.mask)
        get_action_masks(wrapped)
    finally:
        env.vec.__class__.action_mask = original
    assert len(calls) == 1


@pytest.mark.parametrize("players,seat", [(2, 0), (2, 1), (3, 0), (3, 1), (3, 2), (2, None)])
def test_rewards_terminal_observation_and_seats(players, seat):
    env = DominionVecEnv(
        32, players=players, kingdom="First Game", opponents="Big Money", learner_seat=seat, seed=1
    )
    rng = np.random.default_rng(players)
    env.reset()
    seats = env.vec.learner_seat.copy()
    finished = differs = 0
    while finished < 40:
        obs, rewards, dones, infos = env.step(random_actions(env.action_masks(), rng))
        assert rewards.dtype == np.float32 and dones.dtype == np.bool_
        for g in range(env.num_envs):
            if not dones[g]:
                assert rewards[g] == 0 and "terminal_observation" not in infos[g]
                continue
            finished += 1
            info = infos[g]
            s = info["learner_seat"]
            assert s == seats[g] and (seat is None or s == seat)
            assert rewards[g] == info["rewards"][s]
            differs += any(info["rewards"][p] != rewards[g] for p in range(players) if p != s)
            term = info["terminal_observation"]
            assert term.shape == (obs_size(players),) and not np.shares_memory(term, obs)
            view = split(term, players)
            assert view["phase"][3] == 1
            if rewards[g] == 1:
                assert view["vp"][0] >= view["vp"][1:].max()
            assert info["TimeLimit.truncated"] is False
        seats = env.vec.learner_seat.copy()
    assert differs > 0


def test_vp_shaping_keeps_every_games_return():
    """With vp_shaping the rewards are potential-based: the same games as without shaping, and
    each game's rewards sum to exactly its result; observations scaled within their bounds."""
    plain = DominionVecEnv(16, players=3, kingdom="First Game", seed=4)
    shaped = DominionVecEnv(
        16, players=3, kingdom="First Game", seed=4, vp_shaping=0.05, scale_observations=True
    )
    rng = np.random.default_rng(0)
    plain.reset(), shaped.reset()
    total = np.zeros(16)
    checked = 0
    space = shaped.observation_space
    while checked < 20:
        a = random_actions(plain.action_masks(), rng)
        _, r0, d0, _ = plain.step(a)
        obs, r1, d1, _ = shaped.step(a)
        assert np.array_equal(d0, d1)
        assert space.contains(obs[0])
        total += r1
        for g in np.flatnonzero(d0):
            assert total[g] == pytest.approx(r0[g], abs=1e-5)
            total[g] = 0.0
            checked += 1
    with pytest.raises(ValueError, match=r"vp_shaping must be a finite number 0\.\.1, got -1\.0"):
        DominionVecEnv(2, vp_shaping=-1.0)


def test_turn_limit_is_a_time_limit_truncation():
    env = DominionVecEnv(16, turn_limit=3, opponents="Big Money", seed=0)
    rng = np.random.default_rng(0)
    env.reset()
    for _ in range(50):
        obs, rewards, dones, infos = env.step(random_actions(env.action_masks(), rng))
        if dones.any():
            g = int(np.flatnonzero(dones)[0])
            assert infos[g]["TimeLimit.truncated"] is True and rewards[g] == 0
            assert "terminal_observation" in infos[g]
            return
    pytest.fail("no game reached the turn limit")


def test_seeded_runs_repeat():
    def run():
        env = DominionVecEnv(8, players=3, opponents=["Smithy", "Random"], seed=0)
        env.seed(3)
        rng = np.random.default_rng(0)
        out = [env.reset()]
        for _ in range(30):
            out.append(env.step(random_actions(env.action_masks(), rng))[0])
        return np.array(out)

    assert np.array_equal(run(), run())


def test_maskable_ppo_trains_and_plays_legal_moves():
    import torch

    torch.set_num_threads(1)
    env = VecMonitor(DominionVecEnv(32, kingdom="First Game", opponents="Big Money", seed=0))
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=64,
        batch_size=512,
        n_epochs=2,
        policy_kwargs={"net_arch": [32]},
        seed=0,
        verbose=0,
    )
    model.learn(total_timesteps=4096)
    assert model.num_timesteps >= 4096
    assert len(model.ep_info_buffer) > 0  # whole games were played and counted
    obs = env.reset()
    masks = get_action_masks(env)
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert masks[np.arange(len(actions)), actions].all()


def test_evaluate_counts_every_game():
    from dominion_env.train.maskable_ppo import evaluate

    class FirstLegal:
        def predict(self, obs, action_masks, deterministic=True):
            return np.argmax(action_masks, axis=1), None

    r = evaluate(FirstLegal(), "Big Money", games=50, kingdom="First Game", batch=32)
    assert r["wins"] + r["ties"] + r["losses"] + r["truncated"] == 50
    assert 0 <= r["win_ci"][0] <= r["win_rate"] <= r["win_ci"][1] <= 1


def test_training_entry_point_trains_saves_and_evaluates(tmp_path, capsys):
    from dominion_env.train.maskable_ppo import main

    out = tmp_path / "model.zip"
    common = ["--num-envs", "16", "--kingdom", "First Game", "--eval-games", "20"]
    r = main(
        [
            "--steps",
            "512",
            "--n-steps",
            "32",
            "--batch-size",
            "256",
            "--net",
            "16",
            "--out",
            str(out),
            "--verbose",
            "0",
            *common,
        ]
    )
    assert out.exists() and r["games"] == 20
    r2 = main(["--eval-only", "--load", str(out), *common])
    assert r2 == r  # the same games, the same deterministic policy
    text = capsys.readouterr().out
    assert "win rate" in text and "95% CI" in text
