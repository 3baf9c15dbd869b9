"""A run's files: the checkpoint (``checkpoint.safetensors``, what resumes it; an older run's
``checkpoint.pt`` reads the same, ``policy.run_file``) and the progress log
(``progress.csv`` with ``progress.json``, and ``curve.png``).

    write_checkpoint(out / "checkpoint.safetensors", config, net, opt, steps, seconds, history,
                     snapshots)
    data = read_checkpoint(out / "checkpoint.safetensors")  # all checked; AgentFileError if not
    saved_config(out)                              # the saved run's settings, as a dict

A checkpoint holds the config, the net, Adam's state, the past snapshots and the history, as
tensors plus JSON in ``tensorfile``'s layout (loading runs no code). Each part, Adam's state
included, is checked against the config and its ranges before anything is built
(``read_checkpoint``). The file does not hold the run's folder: a run is resumed from, and
saves into, the ``out`` it is given, never a folder a file names.

``write_progress`` writes the history's progress rows as CSV (the other rows, imitation's, as
JSON beside it); ``plot_progress`` draws the win rates against steps and minutes.
"""

from __future__ import annotations

import csv
import dataclasses
import json
import math
from dataclasses import asdict
from pathlib import Path

import torch

from ..cards import MAX_PLAYERS, MIN_PLAYERS
from ..checks import MISSING, file_fault, is_int
from ..engine.observation import obs_size
from ..extras import require
from . import tensorfile
from .policy import check_state, net_shapes, run_file
from .settings import ADDED_SETTINGS, TrainConfig, check_config
from .tensorfile import AgentFileError

# -- checkpoint files (tensorfile's layout: tensors + JSON, loading runs no code) ----------
#   tensors  net.NAME · snapshots.J.NAME · opt.I.KEY (Adam's per-parameter state)
#   JSON     config, steps, seconds, history, optimizer (param_groups and any non-tensor
#            per-parameter state), snapshots (their count)

CHECKPOINT_KEYS = ("config", "steps", "seconds", "history", "optimizer", "snapshots")
ADAM_STATE = ("exp_avg", "exp_avg_sq", "step")


def optimizer_parts(opt: dict) -> tuple[dict, dict]:
    """Adam's state dict as a file holds it: (tensors named ``opt.{param}.{key}``, the JSON
    part: param_groups and any non-tensor state such as an older torch's int step); the
    inverse of ``optimizer_state``."""
    tensors, numbers = {}, {}
    for i, state in opt["state"].items():
        for k, v in state.items():
            if isinstance(v, torch.Tensor):
                tensors[f"opt.{i}.{k}"] = v
            else:
                numbers.setdefault(str(i), {})[k] = v
    return tensors, {"param_groups": opt["param_groups"], "state": numbers}


def write_checkpoint(path, config, net, opt, steps, seconds, history, snapshots) -> Path:
    """Write a training run's state (the arguments are Trainer.save's) to ``path``. The
    config's ``out`` is left out: the run's folder is where the file is read from."""
    config = {k: v for k, v in config.items() if k != "out"}
    tensors = {f"net.{k}": v for k, v in net.items()}
    for j, sd in enumerate(snapshots):
        tensors.update({f"snapshots.{j}.{k}": v for k, v in sd.items()})
    opt_tensors, opt_doc = optimizer_parts(opt)
    tensors.update(opt_tensors)
    doc = {
        "config": config,
        "steps": steps,
        "seconds": seconds,
        "history": history,
        "optimizer": opt_doc,
        "snapshots": len(snapshots),
    }
    return tensorfile.write(path, "checkpoint", tensors, doc)


def open_checkpoint(path: Path, kind: str, keys) -> tuple:
    """(tensors, metadata, fail) of the checkpoint file ``path`` of ``kind`` (``tensorfile``:
    reading runs no code) whose metadata has exactly ``keys``; ``fail(why)`` makes the
    ``AgentFileError`` naming the file that the reader raises for what it checks next."""
    why = file_fault(path)
    if why is not None:
        raise AgentFileError(path, f"{why} (nothing to resume)" if why == MISSING else why)
    tensors, doc = tensorfile.read(path, kind)

    def fail(why):
        return AgentFileError(path, why)

    if sorted(doc) != sorted(keys):
        raise fail(f"its metadata must have exactly the keys {list(keys)}")
    return tensors, doc, fail


def read_checkpoint(path) -> dict:
    """A checkpoint's content, every part checked against its config (keys, types, shapes,
    ranges); ``AgentFileError`` (a ValueError) naming the file and the fault otherwise:
    {config: TrainConfig, net, opt: state dicts, steps, seconds, history, snapshots: [sd]}.
    The config's ``out`` is the folder ``path`` is in, whatever an older file says."""
    path = Path(path)
    tensors, doc, fail = open_checkpoint(path, "checkpoint", CHECKPOINT_KEYS)
    raw = doc["config"]
    fields = [f.name for f in dataclasses.fields(TrainConfig) if f.name != "out"]
    if isinstance(raw, dict):  # a run from before these settings: an MLP on the CPU
        # the folder a run was saved in is never the file's to say: older files named it
        raw = {k: v for k, v in {**ADDED_SETTINGS, **raw}.items() if k != "out"}
    if not isinstance(raw, dict) or sorted(raw) != sorted(fields):
        raise fail(f"config must have exactly TrainConfig's fields {fields}")
    players, hidden = raw["players"], raw["hidden"]
    if not is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise fail(f"config.players must be an int {MIN_PLAYERS}..{MAX_PLAYERS}, got {players!r}")
    if not isinstance(hidden, list) or not all(is_int(h) and h >= 1 for h in hidden):
        raise fail(f"config.hidden must be a list of ints >= 1, got {hidden!r}")
    try:
        cfg = check_config(TrainConfig(**{**raw, "hidden": tuple(hidden), "out": str(path.parent)}))
    except (ValueError, TypeError) as e:
        raise fail(f"config: {e}") from None
    steps, seconds, history, count = (doc[k] for k in ("steps", "seconds", "history", "snapshots"))
    if not is_int(steps) or steps < 0:
        raise fail(f"steps must be an int >= 0, got {steps!r}")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise fail(f"seconds must be a number, got {seconds!r}")
    if not math.isfinite(seconds) or seconds < 0:
        raise fail(f"seconds must be a finite number >= 0, got {seconds!r}")
    check_history(history, fail)
    if not is_int(count) or count < 0:
        raise fail(f"snapshots must be an int >= 0, got {count!r}")
    shapes = net_shapes(obs_size(players), hidden, cfg.network, players, cfg.embed)
    parts = {"net": {}, "snapshots": {}, "opt": {}}
    for name, t in tensors.items():
        part, _, rest = name.partition(".")
        if part not in parts or not rest:
            raise fail(f"tensor {name!r} is not one of net.*, snapshots.*, opt.*")
        parts[part][rest] = t
    check_state(parts["net"], shapes, path, "net tensors")
    if len(parts["snapshots"]) != count * len(shapes):
        raise fail(
            f"it declares {count} snapshots of {len(shapes)} tensors each and holds "
            f"{len(parts['snapshots'])} snapshot tensors"
        )
    snapshots = []
    for j in range(count):
        sd = {k: v for k, v in parts["snapshots"].items() if k.startswith(f"{j}.")}
        snapshots.append({k[len(f"{j}.") :]: v for k, v in sd.items()})
        check_state(snapshots[-1], shapes, path, f"snapshot {j}'s tensors")
    return {
        "config": cfg,
        "net": parts["net"],
        "opt": optimizer_state(parts["opt"], doc["optimizer"], shapes, cfg.lr, path),
        "steps": steps,
        "seconds": float(seconds),
        "history": history,
        "snapshots": snapshots,
    }


def check_history(history, fail) -> None:
    """The rows ``_log`` and ``imitate`` write: JSON objects of names -> numbers or strings;
    a progress row (with "steps") has int steps and number minutes and win rates, as the
    progress files and the plot read them."""
    if not isinstance(history, list):
        raise fail("history must be a list of JSON objects")
    for i, row in enumerate(history):
        ok = isinstance(row, dict) and all(
            isinstance(v, str) or _real(v) or v is None for v in row.values()
        )
        if ok and "steps" in row:
            numbers = [row.get("minutes")] + [v for k, v in row.items() if k.startswith("win_")]
            ok = is_int(row["steps"]) and all(_real(v) for v in numbers)
        if not ok:
            raise fail(f"history[{i}] is {row!r}, not a row of the progress log")


def optimizer_state(tensors: dict, doc, shapes: dict, lr: float, path) -> dict:
    """Adam's state dict from a checkpoint's pieces, every field checked against a fresh
    Adam's (the trainer's: ``lr``, eps 1e-5) and its range before anything is built: the
    learning rate is the config's, betas in [0, 1), eps > 0, weight_decay >= 0, finite; the
    flags are the trainer's; params name the net's parameters in order; each parameter's state
    is exp_avg and exp_avg_sq float32 tensors of its shape (finite, ``tensorfile``; exp_avg_sq
    >= 0) and a step that is a whole number >= 0 (a scalar tensor, or a number in the JSON)."""

    def fail(why):
        return AgentFileError(path, why)

    params = [torch.zeros(s) for s in shapes.values()]  # the net's parameters, in order
    fresh = torch.optim.Adam(params, lr=lr, eps=1e-5).state_dict()["param_groups"]
    if not isinstance(doc, dict) or sorted(doc) != ["param_groups", "state"]:
        raise fail("optimizer must be {param_groups, state}")
    groups, numbers = doc["param_groups"], doc["state"]
    if not isinstance(groups, list) or len(groups) != 1 or not isinstance(groups[0], dict):
        raise fail("optimizer.param_groups must be a list of one JSON object")
    group = dict(groups[0])
    if sorted(group) != sorted(fresh[0]):
        raise fail(f"optimizer.param_groups[0] must have the keys {sorted(fresh[0])}")
    for k, want in fresh[0].items():
        v = group[k]
        where = f"optimizer.param_groups[0].{k}"
        if k == "betas":
            ok = isinstance(v, list) and len(v) == 2 and all(_real(b) for b in v)
            if not ok or not all(0 <= b < 1 for b in v):
                raise fail(f"{where} is {v!r}, expected two numbers in [0, 1)")
            group[k] = tuple(v)  # JSON keeps tuples as lists
        elif k in ("lr", "eps", "weight_decay"):
            if not _real(v) or not math.isfinite(v):
                raise fail(f"{where} is {v!r}, expected a finite number")
            if k == "lr" and v != lr:
                raise fail(f"{where} is {v!r}; the run's config has lr={lr!r}")
            if (k == "eps" and not v > 0) or (k == "weight_decay" and not v >= 0):
                raise fail(f"{where} is {v!r}, expected a number {'> 0' if k == 'eps' else '>= 0'}")
        elif type(v) is not type(want) or v != want:  # params, and flags Adam is built with
            raise fail(f"{where} is {v!r}, expected {want!r}")
    if not isinstance(numbers, dict):
        raise fail("optimizer.state must be a JSON object")
    state = {}
    for name, t in tensors.items():
        i, _, key = name.partition(".")
        state.setdefault(i, {})[key] = t
    for i, extra in numbers.items():
        if not isinstance(extra, dict) or any(k in state.get(i, {}) for k in extra):
            raise fail(f"optimizer.state[{i!r}] must map names to numbers, none a tensor's")
        state.setdefault(i, {}).update(extra)
    out = {}
    shape_of = list(shapes.values())
    for i, entry in state.items():
        ok = i.isascii() and i.isdecimal() and str(int(i)) == i and int(i) < len(shape_of)
        if not ok or sorted(entry) != sorted(ADAM_STATE):
            raise fail(f"optimizer state {i!r} must be {list(ADAM_STATE)} of a parameter")
        shape = shape_of[int(i)]
        for key in ("exp_avg", "exp_avg_sq"):
            if not isinstance(entry[key], torch.Tensor):
                raise fail(
                    f"optimizer state {i!r}: {key} is {entry[key]!r}, not a tensor of shape "
                    f"{list(shape)}"
                )
        check_state(
            {k: entry[k] for k in ("exp_avg", "exp_avg_sq")},
            {"exp_avg": shape, "exp_avg_sq": shape},
            path,
            f"optimizer state {i!r}'s tensors",
        )
        if (entry["exp_avg_sq"] < 0).any():
            raise fail(f"optimizer state {i!r}: exp_avg_sq holds negative values")
        step = entry["step"]
        if isinstance(step, torch.Tensor):
            check_state({"step": step}, {"step": ()}, path, f"optimizer state {i!r}'s step")
            step = step.item()
        if not _real(step) or not math.isfinite(step) or step < 0 or step != int(step):
            raise fail(f"optimizer state {i!r}: step is {step!r}, not a whole number >= 0")
        out[int(i)] = entry
    return {"state": out, "param_groups": [group]}


def _real(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def write_csv(rows: list[dict], path) -> Path:
    """``rows`` as CSV, one line each; the columns are every key any row has, in the order
    first seen."""
    keys = []
    for h in rows:
        keys += [k for k in h if k not in keys]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, keys)
        w.writeheader()
        w.writerows(rows)
    return Path(path)


def write_progress(history: list[dict], path) -> Path:
    write_csv([h for h in history if "steps" in h], path)
    meta = [h for h in history if "steps" not in h]
    Path(path).with_suffix(".json").write_text(json.dumps(meta, indent=1))
    return Path(path)


def plot_progress(history: list[dict], path) -> Path:
    """Win rate against each opponent over learner steps (left) and minutes (right)."""
    Figure = require("matplotlib.figure", "the progress plot").Figure
    rows = [h for h in history if "steps" in h]
    fig = Figure(figsize=(11, 4))
    axes = fig.subplots(1, 2, sharey=True)
    labels = sorted({k[9:-1] for h in rows for k in h if k.startswith("win_rate[")})
    for label in labels:
        key = f"win_rate[{label}]"
        pts = [
            (h["steps"], h["minutes"], h[key]) for h in rows if key in h and not math.isnan(h[key])
        ]
        if pts:
            s, m, w = zip(*pts, strict=True)
            axes[0].plot(s, w, marker=".", label=label)
            axes[1].plot(m, w, marker=".", label=label)
    axes[0].set_xlabel("learner steps")
    axes[1].set_xlabel("minutes")
    axes[0].set_ylabel("win rate in training games")
    for ax in axes:
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    if axes[0].lines:  # no finished game yet: no curve, and no legend to warn about
        axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    return Path(path)


def saved_config(out) -> dict:
    """The settings of the run saved in ``out`` (its checkpoint's ``TrainConfig`` as a dict),
    read without running code (``read_checkpoint``); a ValueError naming the file if there is
    none or it is not a checkpoint. The CLI compares them with what ``--resume`` is given."""
    path = run_file(out, "checkpoint")
    why = file_fault(path)
    if why is not None and why.startswith(MISSING):
        raise ValueError(f"no run to resume in {out}: {path} does not exist")
    if why is not None:
        raise AgentFileError(path, f"{why}: no run to resume in {out}")
    return asdict(read_checkpoint(path)["config"])
