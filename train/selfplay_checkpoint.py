"""Self-play's checkpoint, read back: every part of ``checkpoint.safetensors`` checked before a
run resumes from it (``read_checkpoint``), and what ``dominion selfplay --resume`` reads of it
(``saved_checkpoint``, ``saved_config``). ``SelfPlay.save`` writes it; the trainer's checkpoint
and the pieces both share (the optimizer's state, the history, the CSV) are in ``checkpoint``."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import asdict
from pathlib import Path

from ..checks import MISSING, file_fault, is_int
from ..engine.observation import obs_size
from .checkpoint import check_history, open_checkpoint, optimizer_state, write_csv
from .policy import MAX_EMBED, NETWORKS, check_state, net_shapes
from .replay_buffer import Decisions
from .selfplay_settings import CHECKPOINT_FILE, LEAGUE, SelfPlayConfig, check_config
from .settings import MAX_VP_SHAPING
from .tensorfile import AgentFileError

KEYS = ("config", "layout", "generation", "seconds", "decisions", "history", "optimizer")
KEYS += ("past", "data", "partial")
OLDER_KEYS = tuple(k for k in KEYS if k != "partial")  # 0.9.0's files: no partial generation


def read_checkpoint(path) -> dict:
    """A self-play checkpoint's content, every part checked (keys, types, shapes, the data's
    values); an ``AgentFileError`` (a ValueError) naming the file and the fault otherwise."""
    path = Path(path)
    try:
        tensors, doc, fail = open_checkpoint(path, "selfplay", KEYS)
    except AgentFileError as e:  # a file from before partial generations were kept
        try:
            tensors, doc, fail = open_checkpoint(path, "selfplay", OLDER_KEYS)
        except AgentFileError:
            raise e from None
        doc["partial"] = None
    raw, lay = doc["config"], doc["layout"]
    fields = [f.name for f in dataclasses.fields(SelfPlayConfig)]
    if not isinstance(raw, dict) or sorted(raw) != sorted(fields):
        raise fail(f"config must have exactly SelfPlayConfig's fields {fields}")
    try:
        cfg = check_config(SelfPlayConfig(**raw))
    except (ValueError, TypeError) as e:
        raise fail(f"config: {e}") from None
    hidden = lay.get("hidden") if isinstance(lay, dict) else None
    ok = isinstance(lay, dict) and sorted(lay) == ["embed", "hidden", "network", "vp_shaping"]
    ok = ok and isinstance(hidden, list) and 1 <= len(hidden) <= 8
    ok = ok and all(is_int(h) and 1 <= h <= 4096 for h in hidden)
    ok = (
        ok
        and lay["network"] in NETWORKS
        and is_int(lay["embed"])
        and 1 <= lay["embed"] <= MAX_EMBED
        and isinstance(lay["vp_shaping"], float)
        and 0.0 <= lay["vp_shaping"] <= MAX_VP_SHAPING
    )
    if not ok:
        raise fail(
            f"layout must be {{hidden: [widths], network: {list(NETWORKS)}, embed, vp_shaping: "
            f"0..{MAX_VP_SHAPING}}}"
        )
    for k in ("generation", "decisions", "past"):
        if not is_int(doc[k]) or doc[k] < 0:
            raise fail(f"{k} must be an int >= 0, got {doc[k]!r}")
    s = doc["seconds"]
    if isinstance(s, bool) or not isinstance(s, (int, float)) or not math.isfinite(s) or s < 0:
        raise fail(f"seconds must be a finite number >= 0, got {s!r}")
    check_history(doc["history"], fail)
    if not 1 <= doc["past"] <= cfg.max_past:
        raise fail(f"past must be 1..max_past={cfg.max_past}, got {doc['past']}")
    data = doc["data"]
    good = isinstance(data, list) and len(data) <= cfg.window
    good = good and all(
        isinstance(d, dict)
        and sorted(d) == ["decisions", "width"]
        and is_int(d["decisions"])
        and d["decisions"] >= 0
        and is_int(d["width"])
        and 1 <= d["width"] <= obs_size(cfg.players)
        for d in data
    )
    if not good:
        raise fail(f"data must be at most window={cfg.window} of {{decisions, width}}")
    shapes = net_shapes(obs_size(cfg.players), hidden, lay["network"], cfg.players, lay["embed"])
    parts = {"net": {}, "past": {}, "opt": {}, "data": {}, "partial": {}}
    for name, t in tensors.items():
        part, _, rest = name.partition(".")
        if part not in parts or not rest:
            raise fail(f"tensor {name!r} is not one of net.*, past.*, opt.*, data.*, partial.*")
        parts[part][rest] = t
    check_state(parts["net"], shapes, path, "net tensors")
    past = [_numbered(parts["past"], j) for j in range(doc["past"])]
    if sum(len(p) for p in past) != len(parts["past"]):
        raise fail(f"it declares {doc['past']} past networks and holds other past tensors")
    for j, sd in enumerate(past):
        check_state(sd, shapes, path, f"past network {j}'s tensors")
    window = [_numbered(parts["data"], j) for j in range(len(data))]
    if sum(len(w) for w in window) != len(parts["data"]):
        raise fail(f"it declares {len(data)} generations of data and holds other data tensors")
    decisions = [
        Decisions.from_tensors(
            w, d["decisions"], d["width"], obs_size(cfg.players), cfg.players, fail
        )
        for w, d in zip(window, data, strict=True)
    ]
    partial = _partial(doc["partial"], parts["partial"], cfg, doc["generation"], fail)
    return {
        "partial": partial,
        "config": cfg,
        "layout": {**lay, "hidden": tuple(hidden)},
        "net": parts["net"],
        "opt": optimizer_state(parts["opt"], doc["optimizer"], shapes, cfg.lr, path),
        "past": past,
        "data": decisions,
        "generation": doc["generation"],
        "seconds": float(s),
        "decisions": doc["decisions"],
        "history": doc["history"],
    }


def _partial(meta, tensors: dict, cfg: SelfPlayConfig, generation: int, fail) -> dict | None:
    """The generation under way in a checkpoint (``SelfPlay.partial``), checked: the next
    generation's first batches, their decisions and the league's results in them."""
    if meta is None:
        if tensors:
            raise fail("it holds partial.* tensors but no partial generation")
        return None
    batches = math.ceil(cfg.games / cfg.batch)
    keys = ["batches", "decisions", "generation", "league", "width"]
    ok = isinstance(meta, dict) and sorted(meta) == keys
    ok = ok and meta["generation"] == generation + 1 and is_int(meta["batches"])
    ok = ok and 1 <= meta["batches"] < batches
    ok = ok and is_int(meta["decisions"]) and meta["decisions"] >= 0
    ok = ok and is_int(meta["width"]) and 1 <= meta["width"] <= obs_size(cfg.players)
    league = meta.get("league") if isinstance(meta, dict) else None
    ok = ok and isinstance(league, dict) and sorted(league) == sorted(LEAGUE)
    ok = ok and all(
        isinstance(v, list) and len(v) <= cfg.games and all(x in (-1.0, 0.0, 1.0) for x in v)
        for v in league.values()
    )
    if not ok:
        raise fail(
            f"partial must be None or the next generation ({generation + 1})'s first 1.."
            f"{batches - 1} batches: {{generation, batches, decisions, width, league: "
            f"{{{', '.join(LEAGUE)}: [results -1/0/1]}}}}"
        )
    data = Decisions.from_tensors(
        tensors, meta["decisions"], meta["width"], obs_size(cfg.players), cfg.players, fail
    )
    return {
        "generation": meta["generation"],
        "batches": meta["batches"],
        "data": data,
        "league": {k: list(v) for k, v in league.items()},
    }


def write_progress(history: list[dict], path) -> Path:
    """The history as CSV, a row per generation (columns: every key any row has)."""
    return write_csv(history, path)


def _numbered(tensors: dict, j: int) -> dict:
    return {k[len(f"{j}.") :]: v for k, v in tensors.items() if k.startswith(f"{j}.")}


def saved_checkpoint(out) -> dict:
    """The self-play checkpoint saved in ``out``, read and checked (``read_checkpoint``); a
    ValueError naming the file otherwise."""
    path = Path(out) / CHECKPOINT_FILE
    if is_missing(path):
        raise ValueError(f"no run to resume in {out}: {path} does not exist")
    return read_checkpoint(path)  # a path that is not a regular file is named for what it is


def is_missing(path) -> bool:
    """Whether nothing is at ``path`` (a directory, a pipe or a link loop is something: reading
    it names what it is)."""
    why = file_fault(path)
    return why is not None and why.startswith(MISSING)


def saved_config(out) -> dict:
    """The settings of the self-play run saved in ``out`` (``saved_checkpoint``)."""
    return asdict(saved_checkpoint(out)["config"])
