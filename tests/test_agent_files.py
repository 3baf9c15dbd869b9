"""Agent and checkpoint files (``train.tensorfile``): loading runs no code, and every file that
is not a whole, valid agent or checkpoint is an ``AgentFileError`` naming the file and the
fault, from ``load_agent``, ``Trainer.resume`` and the CLI (one line, no traceback).

The agents shipped before format 2 (ppo-pool, ppo-3p, ppo-4p) were converted from format 1 once
(``tests/golden/convert_shipped_agents.py``); they must hold the same weights and choose the
same actions as before. Later ones (ppo-5p, ppo-6p) were saved in format 2.

The fuzz tests (hypothesis, 100 examples each, derandomized; 1,500 each passed once) write
random bytes, truncations of real files and random JSON in every part of a real file: each
is loaded or refused with ``AgentFileError``, never another exception.

One file of about 870 lines: every face that reads an agent or checkpoint is checked against
the same crafted files (built once per module), which a split would build again per file.
"""

from __future__ import annotations

import builtins
import functools
import importlib.util
import json
import pickle
import struct
import tempfile
import warnings
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from dominion_env import cli as dominion_cli  # noqa: E402
from dominion_env.cli import main as cli  # noqa: E402
from dominion_env.engine.observation import obs_size  # noqa: E402
from dominion_env.train import AgentFileError, Trainer, convert, legacy, tensorfile  # noqa: E402
from dominion_env.train.policy import (  # noqa: E402
    AgentInfo,
    PolicyNet,
    is_agent_file,
    load_agent,
    save_agent,
    shipped_agents,
)
from dominion_env.train.ppo import TrainConfig, read_checkpoint, write_checkpoint  # noqa: E402

GOLDEN = Path(__file__).resolve().parent / "golden"


def _golden_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("convert", GOLDEN / "convert_shipped_agents.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def tiny(players=2, hidden=(8,)):
    torch.manual_seed(0)
    net = PolicyNet(obs_size(players), hidden)
    return net, AgentInfo(name="tiny", players=players, hidden=hidden)


def checkpoint_parts(hidden=(8,), snapshots=2):
    """Trainer.save's arguments for a small run, with Adam's state after one step."""
    cfg = TrainConfig(hidden=hidden, num_envs=8, opponents={"Big Money": 1})
    net = PolicyNet(obs_size(cfg.players), hidden)
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, eps=1e-5)
    obs = torch.rand(4, obs_size(cfg.players))
    net(obs, torch.ones(4, 71, dtype=torch.bool))[1].sum().backward()
    opt.step()
    snaps = [PolicyNet(obs_size(cfg.players), hidden).state_dict() for _ in range(snapshots)]
    history = [
        {"phase": "imitation", "agreement": 0.5},
        {"steps": 64, "minutes": 0.1, "win_rate[x]": np.nan},
    ]
    return dict(
        config=asdict(cfg),
        net=net.state_dict(),
        opt=opt.state_dict(),
        steps=64,
        seconds=1.5,
        history=history,
        snapshots=snaps,
    )


def raw_file(path, header: dict, data: bytes = b"") -> Path:
    """A file in the layout with any header (no checks: for making bad files)."""
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + data)
    return path


def parse(path):
    """(header, data) of a file in the layout."""
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    return json.loads(raw[8 : 8 + n]), raw[8 + n :]


# -- files that would run code ----------------------------------------------------------------


class Payload:
    """Unpickling this runs ``exec``: it writes the marker file."""

    def __init__(self, marker):
        self.marker = str(marker)

    def __reduce__(self):
        return builtins.exec, (f"open({self.marker!r}, 'w').write('ran')",)


@pytest.mark.parametrize("how", ["torch zip", "torch legacy", "plain pickle"])
def test_a_file_that_would_run_code_is_refused_and_the_code_does_not_run(tmp_path, how):
    marker = tmp_path / "marker"
    evil = {"format": 1, "info": {}, "state_dict": Payload(marker)}
    path = tmp_path / "agent.safetensors"
    if how == "plain pickle":
        path.write_bytes(pickle.dumps(evil))
    else:
        torch.save(evil, path, _use_new_zipfile_serialization=how == "torch zip")
    run = tmp_path / "run"
    run.mkdir()
    (run / "checkpoint.safetensors").write_bytes(path.read_bytes())
    with pytest.raises(AgentFileError, match="can run any code, so it is refused") as e:
        load_agent(path)
    assert str(path) in str(e.value) and "convert" in str(e.value)
    with pytest.raises(AgentFileError, match="can run any code, so it is refused"):
        Trainer.resume(run)
    # convert unpickles, but with torch's restricted loader, which refuses the payload too
    with pytest.raises(AgentFileError, match="is not a format-1 torch file"):
        convert(path)
    assert not marker.exists()
    # the payload is real: a plain unpickling runs it
    pickle.loads(pickle.dumps(Payload(marker)))
    assert marker.read_text() == "ran"


# -- round trips and conversion -----------------------------------------------------------------


def test_agent_round_trip(tmp_path):
    net, info = tiny(players=3, hidden=(8, 4))
    info.trained = {"steps": np.int64(10), "config": {"hidden": [8, 4], "lr": np.float32(0.5)}}
    save_agent(net, info, tmp_path / "a.pt")
    agent = load_agent(tmp_path / "a.pt")
    assert asdict(agent.info) == asdict(info)
    for k, v in net.state_dict().items():
        assert torch.equal(agent.net.state_dict()[k], v)
    header, _ = parse(tmp_path / "a.pt")
    assert header["__metadata__"]["dominion_env"] == "agent"
    assert header["__metadata__"]["format_version"] == "2"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.pt"]  # no temporary left


def test_checkpoint_round_trip(tmp_path):
    parts = checkpoint_parts()
    write_checkpoint(tmp_path / "checkpoint.safetensors", **parts)
    back = read_checkpoint(tmp_path / "checkpoint.safetensors")
    # the run's folder is the one the file is in, not the one its config was saved with
    assert asdict(back["config"]) == {**parts["config"], "hidden": (8,), "out": str(tmp_path)}
    assert (back["steps"], back["seconds"]) == (64, 1.5)
    assert back["history"][0] == parts["history"][0] and np.isnan(back["history"][1]["win_rate[x]"])
    saved, loaded = [parts["net"], *parts["snapshots"]], [back["net"], *back["snapshots"]]
    for want, got in zip(saved, loaded, strict=True):
        assert want.keys() == got.keys() and all(torch.equal(want[k], got[k]) for k in want)
    assert back["opt"]["param_groups"] == parts["opt"]["param_groups"]
    for i, state in parts["opt"]["state"].items():
        assert state.keys() == back["opt"]["state"][i].keys()
        assert all(torch.equal(state[k], back["opt"]["state"][i][k]) for k in state)
    # and it loads into the trainer's optimizer
    net = PolicyNet(obs_size(2), (8,))
    torch.optim.Adam(net.parameters(), lr=3e-4, eps=1e-5).load_state_dict(back["opt"])


def test_shipped_agents_play_as_in_format_1():
    golden = json.loads((GOLDEN / "shipped_agents.json").read_text())
    conv = _golden_module()
    # the agents shipped before format 2 and shipped still; later ones (ppo-5p, ppo-6p, and
    # ppo-pool since 0.8.0, trained further from the converted one) were saved in it
    assert sorted(golden) == ["ppo-3p", "ppo-4p"]
    assert set(golden) <= set(shipped_agents())
    for name, want in golden.items():
        agent = load_agent(name)
        saved, _ = tensorfile.read(shipped_agents()[name], "agent")
        assert conv.weights_digest(saved) == want["weights_sha256"]
        obs, mask = conv.probe_batch(want["players"])
        got, recorded = agent.act(obs, mask), np.array(want["greedy_actions"])
        # recorded on one CPU: another's float kernels round the last bits otherwise, which may
        # turn a near tie the other way, and only that is let through
        rows = np.flatnonzero(got != recorded)
        assert len(rows) <= 2, rows
        if len(rows):
            logits = agent.net(torch.from_numpy(obs), torch.from_numpy(mask))[0].detach().numpy()
            best, old = logits[rows, got[rows]], logits[rows, recorded[rows]]
            assert np.all(best - old <= 1e-4 * np.maximum(1.0, np.abs(best))), (rows, best, old)


def test_convert_a_format_1_agent_and_checkpoint(tmp_path):
    net, info = tiny()
    old = tmp_path / "old.pt"
    torch.save({"format": 1, "info": asdict(info), "state_dict": net.state_dict()}, old)
    with pytest.raises(AgentFileError, match="convert it once"):
        load_agent(old)
    assert convert(old, tmp_path / "new.pt") == tmp_path / "new.pt"
    assert convert(old) == old  # in place
    for path in (old, tmp_path / "new.pt"):
        agent = load_agent(path)
        assert all(torch.equal(agent.net.state_dict()[k], v) for k, v in net.state_dict().items())
    parts = checkpoint_parts()
    torch.save({**parts, "config": {**parts["config"], "hidden": (8,)}}, tmp_path / "ck.pt")
    convert(tmp_path / "ck.pt")
    assert read_checkpoint(tmp_path / "ck.pt")["steps"] == 64
    with pytest.raises(AgentFileError, match="neither a format-1 agent nor a checkpoint"):
        torch.save({"x": 1}, tmp_path / "other.pt")
        convert(tmp_path / "other.pt")
    assert legacy._main([]) == 2


# -- every kind of bad file -------------------------------------------------------------------


def _agent_file(tmp_path) -> Path:
    net, info = tiny()
    return save_agent(net, info, tmp_path / "agent.safetensors")


def _edit(path, edit_header=None, edit_doc=None, data=None):
    header, raw = parse(path)
    if edit_doc is not None:
        doc = json.loads(header["__metadata__"]["json"])
        edit_doc(doc)
        header["__metadata__"]["json"] = json.dumps(doc)
    if edit_header is not None:
        edit_header(header)
    return raw_file(path, header, raw if data is None else data(raw))


def _nan_weights(tmp_path):
    net, info = tiny()
    with torch.no_grad():
        net.pi.weight[3, 2] = float("nan")
    return save_agent(net, info, tmp_path / "agent.safetensors")


def _wrong_shape(tmp_path):
    net, info = tiny(hidden=(8,))
    return save_agent(
        net, AgentInfo(name="x", players=2, hidden=(9,)), tmp_path / "agent.safetensors"
    )


def _missing_tensor(tmp_path):
    net, info = tiny()
    sd = {k: v for k, v in net.state_dict().items() if k != "v.bias"}
    return tensorfile.write(tmp_path / "agent.safetensors", "agent", sd, {"info": asdict(info)})


def _set_info(key, value):
    return lambda tmp: _edit(_agent_file(tmp), edit_doc=lambda d: d["info"].__setitem__(key, value))


def _f64(tmp_path):
    net, info = tiny()
    sd = {k: v.double() for k, v in net.state_dict().items()}
    return tensorfile.write(tmp_path / "agent.safetensors", "agent", sd, {"info": asdict(info)})


def _wide(width, players, hidden=(8,)):
    """An MLP agent whose first layer reads ``width`` inputs, labelled ``players``."""

    def make(tmp_path):
        torch.manual_seed(0)
        with warnings.catch_warnings():  # torch: "Initializing zero-element tensors"
            warnings.simplefilter("ignore", UserWarning)
            net = PolicyNet(width, hidden)
        return save_agent(net, AgentInfo("x", players, hidden), tmp_path / "agent.safetensors")

    return make


BAD_AGENTS = {
    "garbage": (lambda t: _write(t, bytes(range(256)) * 4), "header"),
    "empty": (lambda t: _write(t, b""), "0 bytes long"),
    "half": (lambda t: _write(t, _agent_file(t).read_bytes()[:3000]), "truncated"),
    "half data": (
        lambda t: _write(t, _agent_file(t).read_bytes()[:-100]),
        "the file holds",
    ),
    "json renamed": (lambda t: _write(t, b'{"info": {"name": "x"}}'), "header"),
    "version 3": (
        lambda t: _edit(
            _agent_file(t), lambda h: h["__metadata__"].__setitem__("format_version", "3")
        ),
        "format version '3'; this dominion_env reads version 2",
    ),
    "a checkpoint": (
        lambda t: write_checkpoint(t / "agent.safetensors", **checkpoint_parts()),
        "is a dominion_env 'checkpoint' file, not a agent file",
    ),
    "no metadata": (
        lambda t: _edit(_agent_file(t), lambda h: h.pop("__metadata__")),
        "no dominion_env metadata",
    ),
    "info missing": (
        lambda t: _edit(_agent_file(t), edit_doc=lambda d: d.pop("info")),
        "its metadata must be",
    ),
    "info key missing": (
        lambda t: _edit(_agent_file(t), edit_doc=lambda d: d["info"].pop("players")),
        "its metadata must be",
    ),
    "players 9": (_set_info("players", 9), "info.players must be an int 2..6, got 9"),
    "hidden text": (_set_info("hidden", "a,b"), "info.hidden must be a list of ints"),
    "name with an escape": (
        _set_info("name", "x\x1b[2J\nok"),
        "info.name must be a non-empty string of printable characters (no control characters",
    ),
    "2-player weights labelled 3": (
        _wide(obs_size(2), 3),
        "its first layer reads 1129 inputs, which no release wrote for info.players=3 "
        "(observations of size 1328 or 944)",
    ),
    "0.4.0's 2-player width labelled 3": (_wide(873, 3), "reads 873 inputs"),
    "first layer 0 wide": (_wide(0, 2), "reads 0 inputs, which no release wrote"),
    "first layer one short": (_wide(obs_size(2) - 1, 2), "reads 1128 inputs"),
    "first layer wider": (_wide(obs_size(2) + 1, 2), "(from a newer dominion_env?)"),
    "missing tensor": (_missing_tensor, "missing ['v.bias']"),
    "wrong shapes": (_wrong_shape, "expected float32 of shape [9, "),
    "float64": (_f64, "tensor 'trunk.0.weight' is torch.float64"),
    "nan weights": (_nan_weights, "tensor 'pi.weight' holds NaN or infinite values"),
    "bad dtype": (
        lambda t: _edit(_agent_file(t), lambda h: h["v.bias"].__setitem__("dtype", "F16")),
        "dtype 'F16' is not one of",
    ),
    "overlapping": (
        lambda t: _edit(_agent_file(t), lambda h: h["v.bias"].__setitem__("data_offsets", [0, 4])),
        "starts at byte",
    ),
}


def _write(tmp_path, data: bytes) -> Path:
    (tmp_path / "agent.safetensors").write_bytes(data)
    return tmp_path / "agent.safetensors"


@pytest.mark.parametrize("case", BAD_AGENTS)
def test_bad_agent_files_are_refused_naming_file_and_fault(tmp_path, case):
    make, message = BAD_AGENTS[case]
    path = make(tmp_path)
    with pytest.raises(AgentFileError) as e:
        load_agent(path)
    assert str(e.value).startswith(f"{path}: ") and message in str(e.value)
    assert isinstance(e.value, ValueError)


def _ck(tmp_path, edit_doc=None, edit_header=None, **changes):
    run = tmp_path / "run"
    path = write_checkpoint(run / "checkpoint.safetensors", **{**checkpoint_parts(), **changes})
    if edit_doc or edit_header:
        _edit(path, edit_header, edit_doc)
    return run


def _ck_adam_missing(tmp_path):
    parts = checkpoint_parts()
    del parts["opt"]["state"][0]["exp_avg"]
    return _ck(tmp_path, **parts)


def _ck_adam_shape(tmp_path):
    parts = checkpoint_parts()
    parts["opt"]["state"][1]["exp_avg"] = torch.zeros(3)
    return _ck(tmp_path, **parts)


def _ck_opt(edit):
    """A checkpoint whose optimizer part (param_groups[0] and state, as the file's JSON and
    tensors hold them) ``edit(group, numbers, tensors)`` changed."""

    def make(tmp_path):
        parts = checkpoint_parts()
        run = _ck(tmp_path, **parts)
        path = run / "checkpoint.safetensors"
        tensors, doc = tensorfile.read(path, "checkpoint")
        edit(doc["optimizer"]["param_groups"][0], doc["optimizer"]["state"], tensors)
        tensorfile.write(path, "checkpoint", tensors, doc)
        return run

    return make


def _set(holder, key, value):
    holder[key] = value


BAD_OPTIMIZERS = {
    "lr 1e30": (lambda g, n, t: _set(g, "lr", 1e30), "lr is 1e+30; the run's config has lr="),
    "lr another": (lambda g, n, t: _set(g, "lr", 0.5), "lr is 0.5; the run's config has lr="),
    "lr nan": (lambda g, n, t: _set(g, "lr", float("nan")), "lr is nan, expected a finite"),
    "betas 2": (lambda g, n, t: _set(g, "betas", [2, 0.999]), "betas is [2, 0.999], expected two"),
    "betas 1": (lambda g, n, t: _set(g, "betas", [0.9, 1.0]), "expected two numbers in [0, 1)"),
    "betas three": (lambda g, n, t: _set(g, "betas", [0.9, 0.9, 0.9]), "expected two numbers"),
    "eps 0": (lambda g, n, t: _set(g, "eps", 0), "eps is 0, expected a number > 0"),
    "eps text": (lambda g, n, t: _set(g, "eps", "x"), "eps is 'x', expected a finite number"),
    "weight decay -1": (lambda g, n, t: _set(g, "weight_decay", -1), "expected a number >= 0"),
    "amsgrad": (lambda g, n, t: _set(g, "amsgrad", True), "amsgrad is True, expected False"),
    "amsgrad 0": (lambda g, n, t: _set(g, "amsgrad", 0), "amsgrad is 0, expected False"),
    "params shifted": (lambda g, n, t: _set(g, "params", [1, 2, 3, 4, 5, 6]), "params is [1,"),
    "step nan": (
        lambda g, n, t: t.__setitem__("opt.0.step", torch.tensor(float("nan"))),
        "holds NaN or infinite values",
    ),
    "step nan as a number": (
        lambda g, n, t: (t.pop("opt.0.step"), n.__setitem__("0", {"step": float("nan")})),
        "optimizer state '0': step is nan, not a whole number >= 0",
    ),
    "step negative": (
        lambda g, n, t: t.__setitem__("opt.1.step", torch.tensor(-1.0)),
        "optimizer state '1': step is -1.0, not a whole number >= 0",
    ),
    "step a fraction": (
        lambda g, n, t: t.__setitem__("opt.1.step", torch.tensor(0.5)),
        "step is 0.5, not a whole number",
    ),
    "step a vector": (
        lambda g, n, t: t.__setitem__("opt.1.step", torch.ones(2)),
        "tensor 'step' is torch.float32 of shape [2], expected float32 of shape []",
    ),
    "a number where a tensor belongs": (
        lambda g, n, t: (t.pop("opt.0.exp_avg"), n.__setitem__("0", {"exp_avg": 1.0})),
        "optimizer state '0': exp_avg is 1.0, not a tensor of shape [8, 1129]",
    ),
    "a number and a tensor": (
        lambda g, n, t: n.__setitem__("0", {"step": 1}),
        "optimizer.state['0'] must map names to numbers, none a tensor's",
    ),
    "exp_avg_sq negative": (
        lambda g, n, t: t.__setitem__("opt.4.exp_avg_sq", -torch.ones(1, 8)),
        "optimizer state '4': exp_avg_sq holds negative values",
    ),
    "exp_avg_sq wrong shape": (
        lambda g, n, t: t.__setitem__("opt.4.exp_avg_sq", torch.ones(8, 1)),
        "tensor 'exp_avg_sq' is torch.float32 of shape [8, 1], expected float32 of shape [1, 8]",
    ),
    "state of a parameter that is not there": (
        lambda g, n, t: n.__setitem__("6", {"step": 1}),
        "optimizer state '6' must be",
    ),
    "state index 01": (lambda g, n, t: n.__setitem__("01", {"step": 1}), "state '01' must be"),
}


BAD_CHECKPOINTS = {
    "garbage": (lambda t: _ckbytes(t, b"\x00" * 7), "7 bytes long"),
    "half": (
        lambda t: _ckbytes(t, (_ck(t) / "checkpoint.safetensors").read_bytes()[:5000]),
        "truncated",
    ),
    "an agent": (
        lambda t: _ckbytes(t, _agent_file(t).read_bytes()),
        "is a dominion_env 'agent' file, not a checkpoint file",
    ),
    "missing file": (lambda t: t, "no such file (nothing to resume)"),
    "config key missing": (
        lambda t: _ck(t, edit_doc=lambda d: d["config"].pop("lr")),
        "config must have exactly TrainConfig's fields",
    ),
    "bad config value": (
        lambda t: _ck(t, edit_doc=lambda d: d["config"].__setitem__("num_envs", 0)),
        "config: num_envs must be an int 1..65536, got 0",
    ),
    "steps negative": (
        lambda t: _ck(t, edit_doc=lambda d: d.__setitem__("steps", -1)),
        "steps must be an int >= 0, got -1",
    ),
    "too many snapshots": (
        lambda t: _ck(t, edit_doc=lambda d: d.__setitem__("snapshots", 10**15)),
        "it declares 1000000000000000 snapshots of 6 tensors each and holds 12",
    ),
    "history row": (
        lambda t: _ck(t, edit_doc=lambda d: d["history"].append({"steps": 1, "minutes": "x"})),
        "history[2] is {'steps': 1, 'minutes': 'x'}, not a row of the progress log",
    ),
    "hidden mismatch": (
        lambda t: _ck(t, edit_doc=lambda d: d["config"].__setitem__("hidden", [16])),
        "expected float32 of shape [16, ",
    ),
    "lr text": (
        lambda t: _ck(
            t, edit_doc=lambda d: d["optimizer"]["param_groups"][0].__setitem__("lr", "x")
        ),
        "optimizer.param_groups[0].lr is 'x'",
    ),
    "adam state missing": (_ck_adam_missing, "optimizer state '0' must be"),
    "adam state shape": (_ck_adam_shape, "tensor 'exp_avg' is torch.float32 of shape [3]"),
    "name with a line break": (
        lambda t: _ck(t, edit_doc=lambda d: d["config"].__setitem__("name", "a\nb")),
        "config: name must be a non-empty string of printable characters",
    ),
    **{f"optimizer {k}": (_ck_opt(edit), why) for k, (edit, why) in BAD_OPTIMIZERS.items()},
}


def _ckbytes(tmp_path, data: bytes) -> Path:
    (tmp_path / "run").mkdir(exist_ok=True)
    (tmp_path / "run" / "checkpoint.safetensors").write_bytes(data)
    return tmp_path / "run"


@pytest.mark.parametrize("case", BAD_CHECKPOINTS)
def test_bad_checkpoints_are_refused_by_resume(tmp_path, case):
    make, message = BAD_CHECKPOINTS[case]
    run = make(tmp_path)
    with pytest.raises(AgentFileError) as e:
        Trainer.resume(run)
    assert str(e.value).startswith(f"{run / 'checkpoint.safetensors'}: ") and message in str(
        e.value
    )


def _cli_error(argv, capsys) -> str:
    """What the CLI said when it refused ``argv`` (a SystemExit's message, or stderr after
    argparse's exit status 2); a traceback would fail the caller's checks."""
    with pytest.raises(SystemExit) as e:
        cli(argv)
    code = e.value.code
    err = capsys.readouterr().err
    assert isinstance(code, str) or (code == 2 and err), (code, err)
    return code if isinstance(code, str) else err


def test_the_cli_reports_a_bad_agent_or_checkpoint_in_one_line(tmp_path, capsys):
    path = _write(tmp_path, b"not an agent at all")
    with pytest.raises(SystemExit) as e:
        cli(["simulate", str(path), "Big Money", "--games", "10"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert f"{path}: is not a dominion_env agent file" in err and "Traceback" not in err
    for argv in (["evaluate", str(path), "--games", "10"], ["play", "--opponent", str(path)]):
        said = _cli_error(argv, capsys)
        assert f"{path}: is not a dominion_env agent file" in said and "Traceback" not in said
    run = _ckbytes(tmp_path, b"PK\x03\x04 not really a zip")
    said = _cli_error(["train", "--resume", "--out", str(run), "--quiet"], capsys)
    last = said.strip().splitlines()[-1]  # argparse's usage, then one error line
    assert last.startswith("dominion train: error: argument --resume: ")
    assert (
        f"{run / 'checkpoint.safetensors'}: is a torch/pickle file" in last
        and "Traceback" not in said
    )


def test_trainer_save_and_resume_restore_everything(tmp_path):
    cfg = TrainConfig(
        hidden=(8,), num_envs=8, opponents={"Big Money": 1}, out=str(tmp_path), bc_steps=0
    )
    t = Trainer(cfg)
    obs = torch.rand(4, obs_size(2))
    t.net(obs, torch.ones(4, 71, dtype=torch.bool))[1].sum().backward()
    t.opt.step()
    t.take_snapshot()
    t.steps, t.seconds = 128, 2.25
    t.history = [
        {"phase": "imitation", "agreement": 0.25},
        {"steps": 128, "minutes": 0.04, "win_rate[Big Money]": 0.5, "games[Big Money]": 2},
    ]
    t.save()
    back = Trainer.resume(tmp_path, steps=256)
    assert (back.steps, back.seconds, back.history, back.cfg.steps) == (128, 2.25, t.history, 256)
    assert asdict(back.cfg) == {**asdict(cfg), "steps": 256}
    for a, b in zip([t.net, *t.snapshots], [back.net, *back.snapshots], strict=True):
        assert all(torch.equal(v, b.state_dict()[k]) for k, v in a.state_dict().items())
    moved = tmp_path / "moved"
    moved.mkdir()
    (moved / "checkpoint.safetensors").write_bytes(
        (tmp_path / "checkpoint.safetensors").read_bytes()
    )
    assert Trainer.resume(moved).cfg.out == str(moved)  # not the folder its config names
    want, got = t.opt.state_dict(), back.opt.state_dict()
    assert want["param_groups"] == got["param_groups"]
    for i, state in want["state"].items():
        assert all(torch.equal(v, got["state"][i][k]) for k, v in state.items())


def test_a_checkpoint_never_chooses_where_a_resumed_run_writes(tmp_path, capsys):
    """Files hold no folder; an older one that names one (its config's ``out``) is resumed
    into the folder the user gave, by ``Trainer.resume``, ``train`` and the CLI."""
    elsewhere, run = tmp_path / "elsewhere", tmp_path / "run"
    path = write_checkpoint(run / "checkpoint.safetensors", **checkpoint_parts())
    assert "out" not in json.loads(parse(path)[0]["__metadata__"]["json"])["config"]
    _edit(path, edit_doc=lambda d: d["config"].__setitem__("out", str(elsewhere)))
    assert read_checkpoint(path)["config"].out == str(run)
    assert Trainer.resume(run).cfg.out == str(run)
    cli(["train", "--resume", "--out", str(run), "--steps", "64", "--eval-games", "0", "--quiet"])
    assert f"in {run}" in capsys.readouterr().out
    assert not elsewhere.exists()
    assert {"agent.safetensors", "progress.csv"} <= {p.name for p in run.iterdir()}
    trained = load_agent(run / "agent.safetensors").info.trained["config"]
    assert "out" not in trained  # an agent holds no folder either


def test_an_agent_plays_only_its_own_player_count_on_every_face(capsys):
    """Refused before any game is built (a ValueError naming the agent and both counts), on
    every face that seats an agent; ``dominion evaluate`` takes the agent's own count."""
    import gymnasium as gym

    from dominion_env.agents import get_bot
    from dominion_env.analysis.mixed import play_mixed
    from dominion_env.seats import check_opponents
    from dominion_env.train import evaluate

    agent = load_agent("ppo-3p")
    plays = "agent 'ppo-3p' plays 3-player games"
    with pytest.raises(ValueError, match=f"{plays}; these games have 2 players"):
        play_mixed([agent, get_bot("Big Money")], 4, 2)  # simulate and tournament
    with pytest.raises(ValueError, match=f"{plays}; the env has 2 players"):
        gym.make("Dominion-v2", opponents=agent)
    with pytest.raises(ValueError, match=f"{plays}; this table has 2 players"):
        check_opponents([agent])  # play and serve
    with pytest.raises(ValueError, match=f"{plays}; these games have 4 players"):
        evaluate(agent, ["Big Money"], games=2, players=4)
    cli(["evaluate", "ppo-3p", "--games", "3", "--opponent", "Big Money"])
    assert "3 players" in capsys.readouterr().out
    said = _cli_error(["evaluate", "ppo-3p", "--games", "3", "--players", "2"], capsys)
    assert "argument --players: agent 'ppo-3p' plays 3-player games, got 2" in said


EVIL = "Evil\x1b[2J\nforged line\u202e"


def test_names_read_from_files_print_escaped(tmp_path, capsys):
    """A name from a file (a strategy file's bot, a record's player) prints with its control
    characters, escape sequences and line breaks as visible escapes, one line."""
    from dominion_env import Game
    from dominion_env.analysis import replay
    from dominion_env.train.evaluate import format_table

    def clean(text):
        assert "\x1b" not in text and "\u202e" not in text
        assert "forged line" not in text.split("\n")[0] or "\\n" in text
        assert not any(line.startswith("forged line") for line in text.split("\n"))
        assert "Evil\\x1b[2J\\nforged line\\u202e" in text

    row = {
        "opponent": EVIL,
        "games": 1,
        "win_rate": 1.0,
        "win_ci_low": 0.0,
        "win_ci_high": 1.0,
        "ties": 0,
        "losses": 0,
        "truncated": 0,
        "mean_vp_margin": 1.0,
        "mean_turns": 10.0,
        "buys_per_game": {"Copper": 1.0},
    }
    clean(format_table([row]))  # evaluate's table
    g = Game("First Game", players=2, seed=1, turn_limit=2)
    while not g.done:
        g.step(int(np.flatnonzero(g.action_mask)[0]))
    clean(replay.text(g.record(players=["human", {"kind": "bot", "name": EVIL}])))
    bots = tmp_path / "evil.toml"
    bots.write_text(
        '[[bot]]\nname = "Evil\\u001b[2J\\nforged line\\u202e"\n'
        'rules = ["Province", "Gold", "Silver"]\n'
    )
    cli(
        [
            "tournament",
            "Big Money",
            "--bots-file",
            str(bots),
            "--games",
            "2",
            "--quiet",
            "--out",
            "",
        ]
    )
    clean(capsys.readouterr().out)


# -- fuzz: whatever the bytes, the documented error ----------------------------------------------

FUZZ = settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
JSONISH = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@functools.cache
def real_files() -> dict:
    """A small real agent and checkpoint, as bytes (made once, outside the fuzzed tests so
    that hypothesis does not print them)."""
    folder = Path(tempfile.mkdtemp())
    net, info = tiny()
    agent = save_agent(net, info, folder / "agent.safetensors").read_bytes()
    ck = write_checkpoint(
        folder / "checkpoint.safetensors", **checkpoint_parts(snapshots=1)
    ).read_bytes()
    return {"agent": agent, "checkpoint": ck}


def _refused_or_loaded(path, kind):
    try:
        if kind == "agent":
            load_agent(path)
        else:
            read_checkpoint(path)
    except AgentFileError as e:
        assert str(e).startswith(f"{path}: ")
        return False
    return True


@FUZZ
@given(kind=st.sampled_from(["agent", "checkpoint"]), data=st.binary(max_size=200))
def test_fuzz_random_bytes(tmp_path, kind, data):
    path = tmp_path / f"{kind}.pt"
    path.write_bytes(data)
    assert not _refused_or_loaded(path, kind)


@FUZZ
@given(kind=st.sampled_from(["agent", "checkpoint"]), cut=st.floats(0, 1, exclude_max=True))
def test_fuzz_truncations(tmp_path, kind, cut):
    path = tmp_path / f"{kind}.pt"
    path.write_bytes(real_files()[kind][: int(cut * len(real_files()[kind]))])
    assert not _refused_or_loaded(path, kind)


@FUZZ
@given(
    kind=st.sampled_from(["agent", "checkpoint"]),
    where=st.sampled_from(["file", "header", "metadata", "document", "part", "field", "entry"]),
    pick=st.integers(0, 100),
    value=JSONISH,
)
def test_fuzz_random_json(tmp_path, kind, where, pick, value):
    path = tmp_path / f"{kind}.pt"
    path.write_bytes(real_files()[kind])
    header, data = parse(path)
    doc = json.loads(header["__metadata__"]["json"])
    key = sorted(doc)[pick % len(doc)]  # info (agent); config, history, optimizer ... (checkpoint)
    if where == "file":  # a JSON file renamed
        path.write_text(json.dumps(value))
    elif where == "header":
        raw_file(path, value, data)
    elif where == "metadata":
        raw_file(path, {**header, "__metadata__": value}, data)
    elif where == "entry":
        names = sorted(k for k in header if k != "__metadata__")
        header[names[pick % len(names)]] = value
        raw_file(path, header, data)
    else:
        if where == "document":
            doc = value
        elif where == "part":
            doc[key] = value
        elif isinstance(doc[key], dict) and doc[key]:  # a field of info, config, optimizer
            doc[key][sorted(doc[key])[pick % len(doc[key])]] = value
        header["__metadata__"]["json"] = json.dumps(doc)
        raw_file(path, header, data)
    loaded = _refused_or_loaded(path, kind)  # a field or part may be set to a valid value
    assert not loaded or where in ("part", "field", "entry")


# -- file names: written as .safetensors, the older .pt read everywhere -----------------------


def _tiny_run(folder) -> Trainer:
    cfg = TrainConfig(
        hidden=(8,), num_envs=8, opponents={"Big Money": 1}, out=str(folder), name="mine"
    )
    t = Trainer(TrainConfig(**{**asdict(cfg), "bc_steps": 0}))
    t.save()
    return t


def test_a_run_writes_safetensors_files_and_an_older_runs_pt_files_resume(tmp_path, capsys):
    run = tmp_path / "run"
    _tiny_run(run)
    assert {"agent.safetensors", "checkpoint.safetensors"} <= {p.name for p in run.iterdir()}
    assert not list(run.glob("*.pt"))
    for stem in ("agent", "checkpoint"):  # the folder as an older release left it
        (run / f"{stem}.safetensors").rename(run / f"{stem}.pt")
    capsys.readouterr()
    args = dominion_cli.parse_args(["train", "--resume", "--out", str(run)])  # checks the run
    back = Trainer.resume(run, steps=256)
    assert args.resume and back.cfg.steps == 256 and back.cfg.out == str(run)
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"note: reading {run / 'checkpoint.pt'} (an older run's name for checkpoint.safetensors)"
    ]  # once, though the run was read twice
    back.save()  # saved under the new names, read from then on
    assert (run / "checkpoint.safetensors").is_file() and (run / "agent.safetensors").is_file()
    assert read_checkpoint(run / "checkpoint.safetensors")["steps"] == 0
    assert load_agent(run / "agent.pt").info.hidden == (8,)  # an older agent file loads


def test_is_agent_file_says_the_names_every_face_takes():
    assert is_agent_file("runs/a/agent.safetensors") and is_agent_file(Path("old.pt"))
    assert not is_agent_file("Big Money") and not is_agent_file("bots.toml")
    assert not is_agent_file("agent.safetensors.json") and not is_agent_file(None)


@pytest.fixture(scope="module")
def saved_agent(tmp_path_factory) -> Path:
    """A 2-player agent file named .safetensors (hidden (8,), scaled observations)."""
    folder = tmp_path_factory.mktemp("saved")
    _tiny_run(folder / "run")
    path = folder / "mine.safetensors"
    path.write_bytes((folder / "run" / "agent.safetensors").read_bytes())
    return path


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_safetensors_agent_loads_in_every_face_that_takes_an_agent_file(
    tmp_path, saved_agent, capsys
):
    f = str(saved_agent)
    cli(["simulate", f, "Big Money", "--games", "2"])
    assert "mine" in capsys.readouterr().out
    cli(["tournament", f, "Big Money", "--games", "2", "--quiet", "--out", ""])
    assert "mine" in capsys.readouterr().out
    parse = dominion_cli.parse_args
    assert parse(["evaluate", f, "--games", "2"]).agent_resolved.name == "mine"
    args = parse(["play", "--opponent", f, "--record", str(tmp_path / "g.json")])
    assert args.opponents[0].name == "mine" and args.files == [f]  # kept for --resume
    out = str(tmp_path / "run")
    assert parse(["train", "--init", f, "--hidden", "8", "--bc-steps", "0", "--out", out])
    args = parse(["train", "--opponent", f, "--hidden", "8", "--out", out])
    assert args.cfg.opponents == {f: 1.0}
    assert parse(["scorecard", f, "--quick"])
    if importlib.util.find_spec("starlette") and importlib.util.find_spec("uvicorn"):
        argv = ["serve", "--agent", f, "--port", str(_free_port()), "--records", out]
        assert parse(argv).saved[f].name == "mine"
    err = _cli_error(["serve", "--agent", "mine.onnx", "--records", out], capsys)
    assert "'mine.onnx' is not an agent file's name (it ends with .safetensors or .pt)" in err


def test_the_safetensors_library_opens_an_agent_file(saved_agent):
    safetensors = pytest.importorskip(
        "safetensors", reason="the safetensors library (the dev extra installs it)"
    )
    from safetensors.numpy import load_file

    weights = load_file(saved_agent)
    ours = load_agent(saved_agent).net.state_dict()
    assert set(weights) == set(ours)
    for k, w in weights.items():
        np.testing.assert_array_equal(w, ours[k].numpy())
    with safetensors.safe_open(saved_agent, "np") as opened:
        meta = opened.metadata()
    assert meta["dominion_env"] == "agent"
    assert json.loads(meta["json"])["info"]["hidden"] == [8]
