"""The training loop's fast paths and faces: sparse first-layer inputs (same function, same
gradients as the dense layer), the device setting (CPU is the tested path; CUDA refused
clearly where there is none), the update's threads, and the phases the progress bar shows.

Speed is measured by ``bench/bench_training.py`` and reported, never asserted here.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")

from dominion_env import VecGame  # noqa: E402
from dominion_env.agents import compile_bots  # noqa: E402
from dominion_env.cli import main as cli  # noqa: E402
from dominion_env.engine.observation import obs_size  # noqa: E402
from dominion_env.train import device, ppo, sparse  # noqa: E402
from dominion_env.train.policy import PolicyNet, sample  # noqa: E402
from dominion_env.train.ppo import PHASES, TrainConfig, Trainer, train  # noqa: E402

NO_CUDA = not torch.cuda.is_available()


def observations(n=96, steps=40, players=2):
    vec = VecGame(n, players, opponents=compile_bots("Big Money"), scale_observations=True)
    vec.reset(3)
    for _ in range(steps):
        vec.step(vec.random_actions())
    return vec.observation.copy(), vec.action_mask.copy()


def tiny_config(tmp_path, **kw) -> TrainConfig:
    return TrainConfig(
        **{
            "steps": 1024,
            "num_envs": 32,
            "rollout": 16,
            "epochs": 1,
            "minibatch": 256,
            "hidden": (16,),
            "bc_steps": 256,
            "bc_epochs": 2,
            "bc_expert": "Big Money",
            "opponents": {"Big Money": 1},
            "log_every": 512,
            "out": str(tmp_path / "run"),
            **kw,
        }
    )


def test_sparse_rows_hold_exactly_the_non_zero_entries():
    obs, _ = observations()
    rows = sparse.SparseRows((2, len(obs)), width=4)  # too narrow: widened on the way
    rows.write(obs, 1)
    rows.write(obs[::-1].copy(), 0)
    for at, want in ((1, obs), (0, obs[::-1])):
        idx, val = (t.numpy() for t in rows.rows(at))
        dense = np.zeros_like(obs)
        np.add.at(dense, (np.arange(len(obs))[:, None], idx), val)
        np.testing.assert_array_equal(dense, want)
        nonzero = (want != 0).sum(1)
        assert idx.shape[1] == rows.width == nonzero.max()
        # each row's entries in column order, then padding (index 0, value 0)
        for i in (0, len(obs) - 1):
            k = nonzero[i]
            np.testing.assert_array_equal(idx[i, :k], np.flatnonzero(want[i]))
            assert not idx[i, k:].any() and not val[i, k:].any()


def test_sparse_forward_and_gradients_are_the_dense_layers():
    obs, mask = observations()
    torch.manual_seed(1)
    net = PolicyNet(obs_size(2), (32, 16))
    rows = sparse.SparseRows((len(obs),))
    rows.write(obs)
    m = torch.from_numpy(mask)
    results = []
    for forward in (
        lambda: net(torch.from_numpy(obs), m),
        lambda: sparse.forward(net, *rows.rows(), m),
    ):
        net.zero_grad()
        logits, value = forward()
        logp = torch.log_softmax(logits, -1).masked_fill(~m, 0.0)
        (logp.sum() + (value**2).sum()).backward()
        results.append((logits, value, [p.grad.clone() for p in net.parameters()]))
    (l1, v1, g1), (l2, v2, g2) = results
    assert torch.equal(torch.isinf(l1), torch.isinf(l2)) and torch.isinf(l1).any()
    torch.testing.assert_close(l1[m], l2[m], rtol=0, atol=1e-5)
    torch.testing.assert_close(v1, v2, rtol=0, atol=1e-5)
    assert len(g1) == 8
    for a, b in zip(g1, g2, strict=True):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-3)
    assert g1[0].abs().sum() > 0  # the first layer's weights do get a gradient


@pytest.mark.skipif(not NO_CUDA, reason="this machine has CUDA: auto resolves to it")
def test_auto_is_the_default_and_takes_the_cpu_and_sparse_path_without_cuda(tmp_path):
    t = Trainer(tiny_config(tmp_path))
    assert TrainConfig().device == "auto" and device.resolve_device("auto") == "cpu"
    assert t.device == torch.device("cpu") and t.sparse
    assert t.update_threads >= t.cfg.torch_threads == 1
    assert torch.get_num_threads() == 1  # the rollout's threads
    before = [p.detach().clone() for p in t.net.parameters()]
    t.learn()
    assert torch.get_num_threads() == 1  # back after the update
    assert all(not torch.equal(a, p) for a, p in zip(before, t.net.parameters(), strict=True))
    row = [h for h in t.history if "steps" in h][-1]
    assert np.isfinite(row["policy_loss"]) and np.isfinite(row["value_loss"])
    assert 0 < row["entropy"] <= np.log(71)


def test_bad_device_settings_are_refused_before_any_work(tmp_path):
    allowed = r"device must be 'auto', 'cpu', 'cuda' or 'cuda:N'"
    with pytest.raises(ValueError, match=allowed + r", got 'gpu'"):
        Trainer(tiny_config(tmp_path, device="gpu"))
    with pytest.raises(ValueError, match=r"device must be .* got 0"):
        Trainer(tiny_config(tmp_path, device=0))
    assert not (tmp_path / "run").exists()


@pytest.mark.skipif(not NO_CUDA, reason="this machine has CUDA: the refusal cannot happen")
def test_cuda_where_there_is_none_is_a_clear_error(tmp_path, capsys):
    with pytest.raises(ValueError, match=r"device 'cuda': CUDA is not available here"):
        Trainer(tiny_config(tmp_path, device="cuda"))
    with pytest.raises(SystemExit) as e:
        cli(["train", "--device", "cuda:1", "--out", str(tmp_path / "run"), "--steps", "10"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "Traceback" not in err
    assert err.splitlines()[-1].startswith(
        "dominion train: error: argument --device: device 'cuda:1': CUDA is not available here"
    )
    assert not (tmp_path / "run").exists()


def read_without(tmp_path, *settings) -> TrainConfig:
    """The config read back from a checkpoint written without ``settings`` (an older run's)."""
    t = Trainer(tiny_config(tmp_path, bc_steps=0))
    config = dataclasses.asdict(t.cfg)
    for k in settings:
        del config[k]
    ppo.write_checkpoint(
        tmp_path / "checkpoint.safetensors",
        config=config,
        net=t.net.state_dict(),
        opt=t.opt.state_dict(),
        steps=0,
        seconds=0.0,
        history=[],
        snapshots=[],
    )
    return ppo.read_checkpoint(tmp_path / "checkpoint.safetensors")["config"]


def test_a_checkpoint_from_before_the_device_setting_reads_as_cpu(tmp_path):
    assert read_without(tmp_path, "device").device == "cpu"


def test_progress_reports_every_phase_in_order(tmp_path):
    seen = []
    train(tiny_config(tmp_path), progress=lambda steps, t: seen.append((t.phase, t.phase_done)))
    phases = [p for p, _ in seen]
    ran = [p for p in PHASES if not p.startswith("search")]  # a bot expert: no search phase
    assert [p for k, p in enumerate(phases) if k == 0 or phases[k - 1] != p] == ran
    for phase in ran:
        done = [d for p, d in seen if p == phase]
        assert done == sorted(done) and 0 <= done[0] and done[-1] <= 1
    assert seen[:2] == [("compile", 0.0), ("compile", 1.0)] and seen[-1] == ("PPO", 1.0)
    data = [d for p, d in seen if p == "imitation data"]
    assert data == [t / 8 for t in range(1, 8)]  # 256 decisions: 8 steps of 32 games


def test_a_long_run_saves_itself_as_it_goes_and_the_saves_change_nothing(tmp_path, monkeypatch):
    plain = train(tiny_config(tmp_path / "plain", bc_steps=0, steps=2048))
    monkeypatch.setattr(ppo, "SAVE_EVERY_SECONDS", 0.0)  # a save after every rollout but the last
    saved = []

    def progress(steps, t):
        path = tmp_path / "saving" / "run" / "checkpoint.safetensors"
        if t.phase == "PPO" and path.is_file():
            saved.append(ppo.read_checkpoint(path)["steps"])

    saving = train(tiny_config(tmp_path / "saving", bc_steps=0, steps=2048), progress=progress)
    assert sorted(set(saved)) == [512, 1024, 1536]  # read at the next rollout's report
    for p, q in zip(plain.net.parameters(), saving.net.parameters(), strict=True):
        assert torch.equal(p, q)
    assert (
        ppo.read_checkpoint(tmp_path / "saving" / "run" / "checkpoint.safetensors")["steps"] == 2048
    )


def test_the_bar_names_each_phase(tmp_path, capsys):
    out = tmp_path / "run"
    argv = "--steps 1024 --num-envs 32 --hidden 16 --bc-steps 256 --eval-games 0 --expert"
    cli(["train", *argv.split(), "Big Money", "--opponent", "Big Money", "--out", str(out)])
    err = capsys.readouterr().err
    at = [err.find(label) for label in ("compile", "imitation data", "imitation epochs", "PPO")]
    assert -1 not in at and at == sorted(at), err


def test_sampling_follows_the_softmax_and_never_picks_a_masked_action():
    torch.manual_seed(5)
    logits = torch.randn(4, 71) * 2
    mask = torch.rand(4, 71) < 0.2
    mask[:, 70] = True  # the last action legal: its cumulative sum ends the row
    mask[3] = False
    mask[3, 0] = True  # one legal action, the first
    logits = logits.masked_fill(~mask, float("-inf"))
    rows = logits.repeat(25_000, 1)
    a, logp = sample(rows, generator=torch.Generator().manual_seed(1))
    a = a.view(25_000, 4)
    assert mask.gather(1, a.t()).all()
    probs = torch.softmax(logits, -1)
    for r in range(4):
        freq = torch.bincount(a[:, r], minlength=71) / 25_000
        assert (freq - probs[r]).abs().max() < 0.015
    torch.testing.assert_close(
        logp.view(25_000, 4)[0], torch.log(probs.gather(1, a[0, :, None]))[:, 0]
    )
    assert torch.equal(sample(logits, greedy=True)[0], logits.argmax(-1))


def test_a_network_whose_forward_differs_takes_the_dense_path():
    class Doubled(PolicyNet):  # what a network with more before its trunk would compute
        def forward(self, obs, mask):
            return super().forward(2 * obs, mask)

    assert sparse.supports(PolicyNet(obs_size(2), (16,)))
    assert not sparse.supports(Doubled(obs_size(2), (16,)))
    assert not sparse.supports(torch.nn.Linear(4, 4))


def test_an_update_on_sparse_rows_is_the_dense_update(tmp_path):
    # the dense path is also what a GPU runs: both must learn the same from one rollout
    t = Trainer(tiny_config(tmp_path, bc_steps=0, epochs=2, minibatch=128))
    t.sparse = False
    obs, mask = t._reset(0)
    dense = ppo.Rollout(16, 32, t.obs_dim, mask.shape[1], False)
    obs, mask = t.collect(dense, obs, mask)
    adv, ret = t.advantages(dense, obs, mask)
    rows = ppo.Rollout(16, 32, t.obs_dim, mask.shape[1], True)
    for k in range(16):
        rows.put(k, dense.obs[k], dense.mask[k])
    for name in ("action", "logp", "value", "reward", "done"):
        getattr(rows, name)[:] = getattr(dense, name)
    start = {k: v.clone() for k, v in t.net.state_dict().items()}
    learned, stats = [], []
    for buf, use_sparse in ((dense, False), (rows, True)):
        t.net.load_state_dict(start)
        t.opt = torch.optim.Adam(t.net.parameters(), lr=t.cfg.lr, eps=1e-5)
        t.sparse = use_sparse
        torch.manual_seed(9)  # the same minibatches
        stats.append(t.update(buf, adv, ret))
        learned.append([p.detach().clone() for p in t.net.parameters()])
    assert stats[0].keys() == stats[1].keys() == {"policy_loss", "value_loss", "entropy"}
    for k in stats[0]:
        assert stats[0][k] == pytest.approx(stats[1][k], rel=1e-4, abs=1e-6)
    for a, b, before in zip(*learned, start.values(), strict=True):
        assert not torch.equal(a, before)
        torch.testing.assert_close(a, b, rtol=0, atol=1e-5)


@pytest.mark.parametrize(
    "first, passive",
    [
        ("", True),
        ("import torch", False),  # torch's OpenMP runtime read its settings before PASSIVE
        ("import os; os.environ['OMP_WAIT_POLICY'] = 'passive'; import torch", True),
        ("import os; os.environ['OMP_WAIT_POLICY'] = 'ACTIVE'", False),
        ("from dominion_env import VecGame; VecGame(64, 2).reset(0).action_mask", False),
    ],
)
def test_the_update_takes_more_threads_only_where_both_pools_sleep(first, passive):
    import os
    import subprocess
    import sys

    code = f"{first}\nfrom dominion_env.train import ppo, PASSIVE_POOLS\nprint(PASSIVE_POOLS)"
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == [str(passive)]


def pretend_cuda(monkeypatch):
    """This machine as one with a GPU, for the choices made before any work (nothing runs)."""
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 1)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda i=0: "Pretend GPU")


def test_auto_resolves_to_what_the_machine_has(monkeypatch):
    assert device.resolve_device("cpu") == "cpu" and device.resolve_device("cuda:1") == "cuda:1"
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert device.resolve_device("auto") == "cpu" and device.sizes_for("auto", ()) == {}
    assert device.describe("auto") == "cpu"
    pretend_cuda(monkeypatch)
    assert device.resolve_device("auto") == "cuda"
    assert device.check_device("auto") == torch.device("cuda")
    assert device.describe("auto") == "cuda (Pretend GPU)"
    assert device.sizes_for("auto", ()) == device.CUDA_SIZES
    assert device.sizes_for("cuda", {"num_envs": 64}) == {
        "minibatch": device.CUDA_SIZES["minibatch"]
    }
    assert device.sizes_for("cpu", ()) == {}
    with pytest.raises(ValueError, match=r"this machine has 1 CUDA device\(s\), 0 to 0"):
        device.check_device("cuda:1")


def test_the_cli_takes_a_gpus_sizes_unless_given_and_says_what_it_chose(
    tmp_path, monkeypatch, capsys
):
    from dominion_env.cli import parse_args

    pretend_cuda(monkeypatch)

    def checked(*argv):
        return parse_args(["train", "--out", str(tmp_path / "run"), *argv])

    args = checked("--steps", "64")
    assert (args.cfg.num_envs, args.cfg.minibatch) == (4096, 2048)
    assert args.cfg.device == "auto" and args.chosen == device.CUDA_SIZES
    args = checked("--steps", "64", "--num-envs", "64", "--minibatch", "128")
    assert (args.cfg.num_envs, args.cfg.minibatch) == (64, 128) and args.chosen == {}
    args = checked("--steps", "64", "--device", "cpu")
    assert (args.cfg.num_envs, args.cfg.minibatch) == (512, 2048) and args.chosen == {}


def test_evaluate_takes_a_device_and_refuses_a_bad_one(capsys):
    with pytest.raises(SystemExit) as e:
        cli(["evaluate", "ppo-pool", "--device", "gpu", "--games", "1"])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "Traceback" not in err
    assert err.splitlines()[-1] == (
        "dominion evaluate: error: argument --device: device must be 'auto', 'cpu', 'cuda' or "
        "'cuda:N', got 'gpu'"
    )


def digests(net, opt) -> tuple[str, str]:
    """SHA-256 of the weights and of Adam's state, each tensor's name and bytes in order."""
    import hashlib

    weights, adam = hashlib.sha256(), hashlib.sha256()
    for name, v in net.state_dict().items():
        weights.update(name.encode() + v.detach().cpu().contiguous().numpy().tobytes())
    for i, state in sorted(opt.state_dict()["state"].items()):
        for key, v in sorted(state.items()):
            adam.update(f"{i}.{key}".encode() + v.detach().cpu().contiguous().numpy().tobytes())
    return weights.hexdigest(), adam.hexdigest()


def run_digests(tmp_path) -> tuple[tuple[str, str], tuple[str, str]]:
    """Imitation then PPO, a few thousand steps, seed 3, torch on one thread throughout (the
    update's thread count changes how sums round): the digests before and after training."""
    cfg = tiny_config(tmp_path, steps=2048, bc_steps=1024, seed=3, device="cpu")
    t = Trainer(cfg)
    t.update_threads = 1
    before = digests(t.net, t.opt)
    t.warm_start()
    t.learn()
    return before, digests(t.net, t.opt)


def test_a_seed_trains_the_same_weights_bit_for_bit(tmp_path):
    # two runs of one seed on this machine: the same weights and Adam state, bit for bit (a
    # digest recorded on another machine would not do: CPUs' float kernels round differently)
    before, after = run_digests(tmp_path / "a")
    assert after != before  # the run trained: the digests see the weights and Adam move
    assert run_digests(tmp_path / "b") == (before, after)
