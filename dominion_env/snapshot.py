"""Save, restore and clone VecGames (and so Games): every array that playing changes, by name.

    snap = vec.snapshot()      # a Snapshot: read-only copies; pickled, ~600 bytes a game
    ...                        # play on
    vec.restore(snap)          # back where it was: the same actions now replay bit for bit
    g2 = g.clone()             # an independent Game sharing only what never changes (search)
    vec.save("s.npz"); vec.load("s.npz")   # a file whose loading runs no code (below)

Files: ``save(snap, path)`` / ``load(path)`` (and ``VecGame.save/load``, ``Game.save/load``)
write and read an ``.npz`` without pickle: the arrays (the records as plain bytes), and as a
JSON string the file format (``FILE_FORMAT``), its version (``FILE_VERSION``), the settings,
whether reset had been called and a Game's own attributes. Loading reads every member's header
first (no Python objects, no size a member's stored bytes cannot hold), then the JSON; a file
that is not one (garbage, truncated, another format or version) is a ValueError naming it.
**Pickled snapshots (and pickled VecGames and Games) run code when unpickled: load them only
from sources you trust. A snapshot file from anyone else goes through ``load``.**

Restoring checks what it writes, whatever the snapshot came from: the settings must be the
VecGame's, the arrays of its shapes and types, and (once reset was called) every game a
position the engine can reach: the audit's checks (``engine.audit.position_failures``: card
counts non-negative and conserved, every draw pile of card ids matching its composition row,
the decider and the decision's fields, the frame stack) on copies, the mask exactly the one
the position gives; the learner's seats, the bots in each seat and the log within range, the
float outputs finite (once per Snapshot: one ``snapshot()`` took, or one already checked, is
not checked again: its arrays are read-only). A refused snapshot (ValueError naming the game
and the check) changes nothing. A Game put in a position by ``set_scenario`` has card totals of
its own: those are not compared with the setup's (the rest is checked).

A VecGame holds two kinds of arrays. Those that playing changes (``STATE``) are what a snapshot
copies and a clone owns: the game records (each game's own RNG stream inside), the step's
outputs (observation, mask, rewards, flags, final observation), the learner's seat and reward
per row, the opponents' stream and the bots seated in each row, the random policy's and the
expert bots' streams, the shaping potentials and shaped rewards, and a Game's event log (its
written rows only: ``config.log_buf`` has room for LOG_CAP events, 1 MB, most of it unused).
Those fixed when the VecGame is made (``FIXED``: the kingdom or pool, pile sizes, the
observation layout, the bot tables) are shared by clones and recorded in a snapshot only as
``settings``, which ``restore`` checks against the VecGame it writes to. Work space written
before it is read, and answers recomputed at every read (``WORK``), are neither saved nor
shared: a clone gets its own. The read-only views a VecGame hands out (``VIEWS``) are views
of those arrays: a clone and an unpickled VecGame make their own. ``tests/test_snapshot.py``
fails when a VecGame gains an array that none of the three lists names, or a view of one.

A Game's snapshot also holds the Game's own attributes (seed, game number, whether a scenario
was set: ``Snapshot.extra``), which its ``restore`` puts back with the VecGame's arrays.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import weakref
import zipfile
import zlib
from pathlib import Path
from types import MappingProxyType

import numpy as np

from .cards import NAMES, NUM_CARDS, TABLE
from .engine.audit import check_positions, failed_checks
from .engine.batch import Buffers, Opponents
from .engine.config import row_kingdom_ids
from .engine.layout import (
    DEC_PLAYER,
    EVENT_NAMES,
    LOG_LEN,
    NUM_ACTIONS,
    RUNNING,
    STATUS,
    Config,
    new_log,
    state_dtype,
)

# Arrays a VecGame holds, as attribute paths from the VecGame (see the module docstring)
STATE = (
    "state",
    "buffers.obs",
    "buffers.mask",
    "buffers.reward",
    "buffers.terminated",
    "buffers.truncated",
    "buffers.final_obs",
    "buffers.learner",
    "buffers.learner_reward",
    "opponents.rng",
    "opponents.seat_bots",
    "opponents.finished_bots",
    "shaping.previous",
    "_shaped",
    "_policy_rng",
    "_expert_rng",
)
WORK = ("buffers.scratch", "_scores")
FIXED = (
    "setup.kingdoms",
    "setup.row_kingdom",
    "setup.pool",
    "setup.pile_sizes",
    "buffers.offsets",
    "buffers.step_reads",
    "buffers.obs_scale",
    "opponents.seat_bot",
    "opponents.bot_kind",
    "opponents.bot_rules",
    "opponents.pool_cum",
    "_no_actions",
    "_step_seeds",
)
LOG = "config.log_buf"  # STATE too, but only its first LOG_LEN rows are the game's
VIEWS = "_view"  # name -> a read-only view of a STATE or WORK array (what callers get)


# the NamedTuples a VecGame keeps arrays in; a clone rebuilds them with its own arrays
_TUPLES = {"buffers": Buffers, "opponents": Opponents}


def _plan():
    """((holder, copied, fresh), ...): STATE and WORK paths grouped by the attribute holding
    them ('' the VecGame, else a NamedTuple (fields by index) or an object), worked out once
    so that a clone does no lookups."""
    groups: dict[str, tuple[list, list]] = {}
    for paths, k in ((STATE, 0), (WORK, 1)):
        for path in paths:
            holder, _, name = path.rpartition(".")
            if path == "state":
                continue
            key = _TUPLES[holder]._fields.index(name) if holder in _TUPLES else name
            groups.setdefault(holder, ([], []))[k].append(key)
    return tuple((h, tuple(c), tuple(f)) for h, (c, f) in groups.items())


_CLONE_PLAN = _plan()  # "state" apart: copied as bytes
_LOG_FIELD = Config._fields.index(LOG.split(".")[1])


def get_array(vec, path: str):
    """The array at ``path`` ('buffers.obs'), or None where its holder is None (no shaping)."""
    obj = vec
    for name in path.split("."):
        obj = getattr(obj, name)
        if obj is None:
            return None
    return obj


class Snapshot:
    """A VecGame's games frozen: read-only copies of every array that playing changes.

    ``arrays``: name -> array (the paths of ``STATE``, and 'log': a Game's written log rows);
    ``settings``: what the VecGame it came from was made with (``VecGame.restore`` refuses a
    snapshot whose settings differ); ``ready``: reset had been called. Pickles compressed."""

    __slots__ = ("arrays", "settings", "ready", "extra", "checked")

    def __init__(self, arrays: dict, settings: dict, ready: bool, extra: dict | None = None):
        # True once its games passed restore's checks, or when take_snapshot copied them from
        # a live VecGame: its arrays are read-only, so a second restore need not check again
        object.__setattr__(self, "checked", False)
        for a in arrays.values():
            if a.flags.writeable:
                a.flags.writeable = False
        object.__setattr__(self, "arrays", MappingProxyType(dict(arrays)))
        object.__setattr__(self, "settings", MappingProxyType(dict(settings)))
        object.__setattr__(self, "ready", bool(ready))
        # a Game's own attributes (Game.snapshot), None for a VecGame's snapshot
        frozen = None if extra is None else MappingProxyType(copy.deepcopy(dict(extra)))
        object.__setattr__(self, "extra", frozen)

    def with_extra(self, extra: dict) -> Snapshot:
        """This snapshot with ``extra`` (copied) as its owner's own attributes (Game)."""
        out = Snapshot(self.arrays, self.settings, self.ready, extra)
        object.__setattr__(out, "checked", self.checked)
        return out

    def __setattr__(self, name, value):
        raise AttributeError("a Snapshot is read-only")

    @property
    def nbytes(self) -> int:
        """Bytes of game state held (in memory; a pickle is compressed)."""
        return sum(a.nbytes for a in self.arrays.values())

    def __repr__(self) -> str:
        s = self.settings
        return (
            f"Snapshot({s['num_games']} game(s), {s['players']} players, "
            f"VecGame v{s['version']}, {self.nbytes} bytes)"
        )

    def __reduce__(self):
        names = tuple(self.arrays)
        layout = tuple((self.arrays[n].dtype, self.arrays[n].shape) for n in names)
        blob = zlib.compress(b"".join(self.arrays[n].tobytes() for n in names), 1)
        extra = None if self.extra is None else dict(self.extra)
        return (_unpack, (names, layout, blob, dict(self.settings), self.ready, extra))


def _unpack(names, layout, blob, settings, ready, extra=None) -> Snapshot:
    raw = zlib.decompress(blob)
    arrays, at = {}, 0
    for name, (dtype, shape) in zip(names, layout, strict=True):
        count = int(np.prod(shape, dtype=np.int64))
        arrays[name] = np.frombuffer(raw, dtype, count, at).reshape(shape).copy()
        at += count * dtype.itemsize
    return Snapshot(arrays, settings, ready, extra)


def _digest(*arrays) -> str:
    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a)
        h.update(str((a.dtype.str, a.shape)).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def _kingdom_setting(setup):
    """How the kingdom was asked for: 'random', the one kingdom's names, or (a mixed batch)
    a digest of every row's kingdom."""
    if len(setup.row_kingdom) > 1:
        return "rows " + _digest(setup.kingdoms, setup.row_kingdom)
    ids = row_kingdom_ids(setup, 0)
    return "random" if ids is None else tuple(NAMES[int(c)] for c in ids)


def settings(vec, version: int) -> dict:
    """What ``vec`` was made with, everything a snapshot's arrays depend on (cached: fixed)."""
    cached = vec.__dict__.get("_snapshot_settings")
    if cached is not None:
        return cached
    cfg, setup, opp = vec.config, vec.setup, vec.opponents
    out = {
        "version": version,
        "record": hashlib.sha256(str(vec.state.dtype.descr).encode()).hexdigest()[:16],
        "num_games": vec.num_games,
        "players": vec.players,
        "kingdom": _kingdom_setting(setup),
        "pool": tuple(NAMES[int(c)] for c in setup.pool),
        "autoplay_treasures": cfg.autoplay_treasures,
        "auto_resolve": cfg.auto_resolve,
        "turn_limit": cfg.turn_limit,
        "first_player": cfg.first_player,
        "public_discards": cfg.public_discards,
        "shared_stream": cfg.shared_stream,
        "log": (cfg.log, cfg.log_buf.shape),
        "autoreset": vec.autoreset,
        "scale_observations": vec.scale_observations,
        "learner_seat": None if not opp.enabled else opp.fixed_seat,
        "opponents": None
        if not opp.enabled
        else _digest(opp.seat_bot, opp.bot_kind, opp.bot_rules, opp.pool_cum),
        "vp_shaping": None if vec.shaping is None else vec.shaping.coef,
    }
    vec.__dict__["_snapshot_settings"] = out
    return out


def _log_rows(vec) -> int:
    """Rows of the event log the game has written (0 unless logging: a Game)."""
    if not vec.config.log:
        return 0
    # a logging VecGame holds one game (VecGame refuses more)
    return min(int(vec.state["game"][0, LOG_LEN]), vec.config.log_buf.shape[0])


def _records(raw: np.ndarray, like: np.ndarray) -> np.ndarray:
    """The bytes ``raw`` seen as records of the type, dtype and shape of ``like`` (a record
    array is copied as bytes: numpy copies records field by field, ten times slower; the
    recarray of NUMBA_DISABLE_JIT stays one)."""
    out = np.ndarray(like.shape, like.dtype, raw)
    return out if type(like) is np.ndarray else out.view(type(like))


def _bytes(vec) -> np.ndarray:
    """The VecGame's records seen as bytes (one void item per game), kept: making the view
    costs more than copying a game's 8 KB."""
    state, raw = vec.__dict__.get("_snapshot_bytes", (None, None))
    if state is not vec.state:
        state = vec.state
        raw = state.view(np.dtype((np.void, state.dtype.itemsize)))
        vec.__dict__["_snapshot_bytes"] = (state, raw)
    return raw


def _live(vec) -> dict:
    """path -> the VecGame's STATE array (its records as bytes), kept: a VecGame makes its
    arrays once (a clone or an unpickled VecGame finds its own)."""
    live = vec.__dict__.get("_snapshot_live")
    if live is None:
        live = {p: get_array(vec, p) for p in STATE}
        live = {p: a for p, a in live.items() if a is not None}
        vec.__dict__["_snapshot_live"] = live
    live["state"] = _bytes(vec)
    return live


def take_snapshot(vec, version: int) -> Snapshot:
    """``VecGame.snapshot``: copies of every STATE array and the log's written rows."""
    arrays = {p: a.copy() for p, a in _live(vec).items()}
    arrays["state"] = _records(arrays["state"], vec.state)
    arrays["log"] = vec.config.log_buf[: _log_rows(vec)].copy()
    snap = Snapshot(arrays, settings(vec, version), vec._ready)
    object.__setattr__(snap, "checked", True)  # a live VecGame's games: reachable ones
    return snap


def _short(v) -> str:
    r = repr(v)
    return r if len(r) <= 60 else r[:57] + "..."


def restore_snapshot(vec, snap, version: int) -> None:
    """``VecGame.restore``: check everything, then write everything (nothing on a refusal)."""
    if not isinstance(snap, Snapshot):
        raise TypeError(f"snapshot must be a Snapshot from VecGame.snapshot(), got {snap!r}")
    mine = settings(vec, version)
    if snap.settings != mine:
        keys = sorted(set(mine) | set(snap.settings))
        diff = [
            f"{k}: snapshot {_short(snap.settings.get(k))}, this VecGame {_short(mine.get(k))}"
            for k in keys
            if snap.settings.get(k) != mine.get(k)
        ]
        raise ValueError(
            "snapshot was taken from a VecGame made differently; it can only be restored "
            "into one made with the same settings: " + "; ".join(diff)
        )
    targets = _live(vec)
    if snap.arrays.keys() != targets.keys() | {"log"}:
        raise ValueError(
            f"snapshot holds arrays {sorted(snap.arrays)}, this VecGame needs "
            f"{sorted(targets.keys() | {'log'})}"
        )
    sources = dict(snap.arrays)
    state = sources["state"]
    if state.dtype != vec.state.dtype or state.shape != vec.state.shape:
        raise ValueError(
            f"snapshot records are {state.shape} of another layout; this VecGame's are "
            f"{vec.state.shape}"
        )
    sources["state"] = (
        state.base if _same_bytes(state.base, state) else state.view(targets["state"].dtype)
    )
    for p, a in targets.items():
        src = sources[p]
        if src.shape != a.shape or src.dtype != a.dtype:
            raise ValueError(
                f"snapshot array {p!r} is {src.dtype} {src.shape}, this VecGame's is "
                f"{a.dtype} {a.shape}"
            )
    log, buf = sources["log"], vec.config.log_buf
    if log.dtype != buf.dtype or log.ndim != 2 or log.shape[1:] != buf.shape[1:]:
        raise ValueError(f"snapshot log is {log.dtype} {log.shape}, the log is {buf.dtype}")
    if log.shape[0] > buf.shape[0]:
        raise ValueError(f"snapshot log has {log.shape[0]} rows, the log holds {buf.shape[0]}")
    if snap.ready and not snap.checked:
        _check_games(vec, snap)
        object.__setattr__(snap, "checked", True)
    for p, a in targets.items():
        a[...] = sources[p]
    buf[: log.shape[0]] = log
    vec._ready = snap.ready


def _check_games(vec, snap) -> None:
    """Refuse (ValueError) a snapshot whose games are not positions the engine can reach:
    every game passes the audit's checks (``engine.audit.position_failures``, on copies),
    its mask is the position's, and the arrays around the records name real seats and bots
    and hold finite numbers. A not-ready snapshot (taken before reset) is not checked:
    nothing reads its games before a reset deals them all anew."""
    a = snap.arrays
    n, P = vec.num_games, vec.players
    records = np.array(a["state"])  # copies: the checks are kernels over writable arrays
    masks = np.array(a["buffers.mask"])
    bits = np.zeros(n, np.int64)
    conserve = not (snap.extra or {}).get("_scenario", False)
    vec.run_kernel(
        check_positions,
        records,
        TABLE,
        vec.setup,
        masks,
        conserve,
        np.zeros((n, 3 * NUM_CARDS), np.int64),
        np.zeros((n, NUM_ACTIONS), np.bool_),
        bits,
    )
    bad = np.flatnonzero(bits)
    if bad.size:
        g = int(bad[0])
        raise ValueError(
            f"snapshot game {g} is not a position a game can reach: it fails the audit's "
            f"{', '.join(failed_checks(bits[g]))} check(s) (engine.audit; {bad.size} of "
            f"{n} game(s) fail); nothing was restored"
        )
    for p in ("buffers.obs", "buffers.reward", "buffers.final_obs", "buffers.learner_reward"):
        if p in a and not np.isfinite(a[p]).all():
            raise ValueError(f"snapshot array {p!r} holds NaN or inf; nothing was restored")
    for p in ("shaping.previous", "_shaped"):
        if p in a and not np.isfinite(a[p]).all():
            raise ValueError(f"snapshot array {p!r} holds NaN or inf; nothing was restored")
    learner = a["buffers.learner"]
    running = records["game"][:, STATUS] == RUNNING
    opp = vec.opponents
    if opp.enabled:
        deciding = records["game"][:, DEC_PLAYER]
        want = deciding if opp.fixed_seat < 0 else np.full(n, opp.fixed_seat)
        off = running & ((learner != deciding) | (learner != want))
        _refuse_rows(off, "learner seat is not the seat deciding (learner mode)")
    elif (learner != -1).any():
        _refuse_rows(learner != -1, "learner seat is set without opponents")
    nb = opp.bot_kind.shape[0] if opp.enabled else 0
    for p in ("opponents.seat_bots", "opponents.finished_bots"):
        bots = a[p]
        _refuse_rows(((bots < -1) | (bots >= nb)).any(axis=1), f"{p} names no bot of {nb}")
    if opp.enabled:
        seats = a["opponents.seat_bots"]
        mine = np.zeros((n, P), np.bool_)
        rows = np.flatnonzero(learner >= 0)
        mine[rows, learner[rows]] = True
        _refuse_rows(running & ((seats == -1) != mine).any(axis=1), "opponent seats")
    log = a["log"]
    wrote = int(records["game"][0, LOG_LEN]) if vec.config.log else 0
    if log.shape[0] != min(wrote, vec.config.log_buf.shape[0]):
        raise ValueError(
            f"snapshot log has {log.shape[0]} rows, its game wrote {wrote}; nothing was restored"
        )
    ev, who = log[:, 0], log[:, 1]
    if ((ev < 0) | (ev >= len(EVENT_NAMES)) | (who < -1) | (who >= P)).any():
        raise ValueError("snapshot log holds events no game writes; nothing was restored")


def _refuse_rows(bad: np.ndarray, what: str) -> None:
    rows = np.flatnonzero(bad)
    if rows.size:
        raise ValueError(
            f"snapshot game {int(rows[0])}: {what} ({rows.size} game(s)); nothing was restored"
        )


def _same_bytes(raw, records) -> bool:
    """``raw`` is the block of bytes ``records`` were made from (``_records``)."""
    return (
        isinstance(raw, np.ndarray)
        and raw.dtype.kind == "V"
        and raw.dtype.fields is None
        and raw.shape == records.shape
        and raw.dtype.itemsize == records.dtype.itemsize
    )


def clone_vec(vec):
    """``VecGame.clone``: a new VecGame owning copies of the STATE arrays, fresh WORK arrays,
    the FIXED ones shared. Lean (a search makes many): each array is one copy, nothing is
    looked up (``_CLONE_PLAN``), the state record is copied as bytes."""
    views = _view_paths(vec) if VIEWS in vec.__dict__ else None
    d = vec.__dict__.copy()
    d.pop("_snapshot_live", None)  # the parent's arrays
    raw = _bytes(vec).copy()
    d["state"] = _records(raw, vec.state)
    d["_snapshot_bytes"] = (d["state"], raw)
    for holder, copied, fresh in _CLONE_PLAN:
        if not holder:
            for k in copied:
                d[k] = d[k].copy()
            for k in fresh:
                d[k] = np.empty_like(d[k])
        elif holder in _TUPLES:
            values = list(d[holder])
            for i in copied:
                values[i] = values[i].copy()
            for i in fresh:
                values[i] = np.empty_like(values[i])
            d[holder] = tuple.__new__(_TUPLES[holder], values)
        elif d[holder] is not None:  # an object (VPShaping): a shallow copy, its own arrays
            obj = object.__new__(type(d[holder]))
            obj.__dict__ = od = d[holder].__dict__.copy()
            for k in copied:
                od[k] = od[k].copy()
            for k in fresh:
                od[k] = np.empty_like(od[k])
            d[holder] = obj
    cfg = d["config"]
    if cfg.log:
        log = np.empty_like(cfg.log_buf)  # only the written rows are ever read
        n = _log_rows(vec)
        log[:n] = cfg.log_buf[:n]
    else:  # never written; its own all the same: no two VecGames share a mutable array
        log = cfg.log_buf.copy()
    values = list(cfg)
    values[_LOG_FIELD] = log
    d["config"] = tuple.__new__(Config, values)
    new = object.__new__(type(vec))
    if views is not None:
        d[VIEWS] = _Views(weakref.ref(new), views)
    new.__dict__ = d
    return new


class _Views(dict):
    """A clone's read-only views, each made when first asked for (a search's clone is asked
    for its mask and observation, not for the other nine): name -> view of the array at
    ``paths[name]`` of the clone (held weakly: no reference cycle, clones die by refcount)."""

    __slots__ = ("owner", "paths")

    def __init__(self, owner, paths: dict):
        super().__init__()
        self.owner = owner
        self.paths = paths

    @property
    def arrays(self) -> dict:
        d = self.owner().__dict__
        return {name: _get_in(d, p) for name, p in self.paths.items()}

    def __missing__(self, name: str) -> np.ndarray:
        view = self[name] = _read_only(_get_in(self.owner().__dict__, self.paths[name]))
        return view


def _read_only(a: np.ndarray) -> np.ndarray:
    v = a.view()
    v.flags.writeable = False
    return v


def _get_in(d: dict, path: str) -> np.ndarray:
    """The array at ``path`` of the VecGame whose attributes are ``d``."""
    holder, _, name = path.partition(".")
    return getattr(d[holder], name) if name else d[holder]


def _view_paths(vec) -> dict:
    """name -> the path of the array each of the VecGame's views shows (kept: the same for
    every VecGame made alike, so its clones share it)."""
    paths = vec.__dict__.get("_snapshot_view_paths")
    if paths is None:
        arrays = {id(get_array(vec, p)): p for p in STATE + WORK + FIXED}
        paths = {}
        views = getattr(vec, VIEWS)
        if isinstance(views, _Views):  # a clone's: the arrays, not all of them viewed yet
            views = {name: a.view() for name, a in views.arrays.items()}
        for name, view in views.items():
            if id(view.base) not in arrays:
                raise RuntimeError(
                    f"VecGame view {name!r} shows an array that dominion_env.snapshot does not "
                    f"list (STATE, WORK or FIXED): list it there"
                )
            paths[name] = arrays[id(view.base)]
        vec.__dict__["_snapshot_view_paths"] = paths
    return paths


def vec_getstate(vec) -> dict:
    """``VecGame.__getstate__``: the attributes, the log cut to its written rows."""
    d = {k: v for k, v in vec.__dict__.items() if not k.startswith("_snapshot")}  # caches
    d["config"] = vec.config._replace(log_buf=vec.config.log_buf[: _log_rows(vec)].copy())
    d["_log_capacity"] = vec.config.log_buf.shape[0]
    if VIEWS in d:  # a pickled view is a copy: the unpickled VecGame makes its views anew
        d[VIEWS] = _view_paths(vec)
    return d


def vec_setstate(vec, d: dict) -> None:
    """``VecGame.__setstate__``: the log given its whole capacity back."""
    d = dict(d)
    capacity = d.pop("_log_capacity", None)
    if capacity is None:  # pickled before snapshot.py: the log has its room
        vec.__dict__.update(d)
        return
    rows = d["config"].log_buf
    buf = new_log(bool(d["config"].log))
    if buf.shape[0] != capacity:
        raise ValueError(
            f"this pickle's log holds {capacity} events, this version's {buf.shape[0]}"
        )
    buf[: rows.shape[0]] = rows
    d["config"] = d["config"]._replace(log_buf=buf)
    if VIEWS in d:
        d[VIEWS] = {name: _read_only(_get_in(d, p)) for name, p in d[VIEWS].items()}
    vec.__dict__.update(d)


# -- snapshot files that run no code -------------------------------------------------------

FILE_FORMAT = "dominion-snapshot"
FILE_VERSION = 1  # of the file layout; the VecGame version is in the settings, checked too
# zlib's deflate packs at most ~1032 bytes into one: an array whose header asks for more than
# this many bytes per stored byte is not real, and is refused before numpy allocates it
_MAX_RATIO = 1100


def save(snap: Snapshot, path) -> Path:
    """Write ``snap`` to ``path`` as an ``.npz`` that loading never unpickles: the arrays
    (the records as bytes), and as JSON the file format and version, the settings, whether
    reset had been called and a Game's own attributes. Written whole or not at all (a
    temporary file renamed). Returns the path."""
    if not isinstance(snap, Snapshot):
        raise TypeError(f"snap must be a Snapshot (VecGame.snapshot()), got {snap!r}")
    path = _check_path(path)
    meta = {
        "format": FILE_FORMAT,
        "format_version": FILE_VERSION,
        "settings": dict(snap.settings),
        "ready": snap.ready,
        "extra": None if snap.extra is None else dict(snap.extra),
        "arrays": list(snap.arrays),
    }
    arrays = {"meta": np.array(json.dumps(meta, allow_nan=False))}
    for name, a in snap.arrays.items():
        if name == "state":  # records as plain bytes: no structured dtype for a file to fake
            a = np.ascontiguousarray(a).view(np.uint8).reshape(a.shape[0], -1)
        arrays["a:" + name] = a
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "wb") as f:
            np.savez_compressed(f, **arrays)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def load(path) -> Snapshot:
    """A Snapshot from a file ``save`` wrote. Runs no code from the file (no pickle); refuses
    with a ValueError naming the file anything else: not an npz, truncated, another format
    or version, arrays of the wrong kind. ``VecGame.restore`` then checks the settings and
    every game (the audit's invariants) before it writes anything."""
    path = _check_path(path)
    if not path.is_file():
        raise FileNotFoundError(f"snapshot file {str(path)!r} does not exist (or is not a file)")
    try:
        meta, arrays = _read(path)
    except _Refused as e:
        raise ValueError(f"snapshot file {str(path)!r}: {e}") from None
    except Exception as e:  # noqa: BLE001  a broken file makes zipfile, zlib and numpy's
        # header parser (ast) raise almost anything: SyntaxError, NotImplementedError (a zip
        # flag), RuntimeError (an "encrypted" member), EOFError, zlib.error ...
        raise ValueError(
            f"snapshot file {str(path)!r} is not a readable snapshot file (written by "
            f"dominion_env.snapshot.save): {type(e).__name__}: {e}"
        ) from None
    return Snapshot(arrays, meta["settings"], meta["ready"], meta["extra"])


class _Refused(Exception):
    pass


_HEADERS = {
    (1, 0): np.lib.format.read_array_header_1_0,
    (2, 0): np.lib.format.read_array_header_2_0,
}


def _check_path(path) -> Path:
    if not isinstance(path, (str, os.PathLike)) or isinstance(path, bytes):
        raise TypeError(f"path must be a str or os.PathLike, got {path!r}")
    return Path(path)


def _read(path: Path):
    """(meta, arrays) of a snapshot file, every member's header checked before it is read."""
    with zipfile.ZipFile(path) as z:
        for info in z.infolist():
            with z.open(info) as f:
                version = np.lib.format.read_magic(f)
                if version not in _HEADERS:
                    raise _Refused(f"member {info.filename!r}: npy format {version}")
                shape, _, dtype = _HEADERS[version](f)
            if dtype.hasobject:
                raise _Refused(f"member {info.filename!r} holds Python objects")
            size = int(np.prod(shape, dtype=object)) * dtype.itemsize
            if size > _MAX_RATIO * max(info.compress_size, 1) + 4096:
                raise _Refused(
                    f"member {info.filename!r} claims {size} bytes from {info.compress_size}"
                )
    with np.load(path, allow_pickle=False) as f:
        if "meta" not in f.files:
            raise _Refused("no 'meta' member: not written by dominion_env.snapshot.save")
        meta = f["meta"]
        if meta.dtype.kind != "U" or meta.shape != ():
            raise _Refused(f"'meta' is {meta.dtype} {meta.shape}, not a JSON string")
        try:
            meta = json.loads(str(meta[()]))
        except json.JSONDecodeError as e:
            raise _Refused(f"'meta' is not JSON ({e})") from None
        _check_meta(meta)
        names = meta["arrays"]
        missing = [n for n in names if "a:" + n not in f.files]
        extra = sorted(set(f.files) - {"meta"} - {"a:" + n for n in names})
        if missing or extra:
            raise _Refused(f"arrays missing {missing}, unexpected {extra}")
        arrays = {n: f["a:" + n] for n in names}
    if "state" not in arrays:
        raise _Refused("no 'state' array")
    raw, record = arrays["state"], state_dtype()
    if raw.dtype != np.uint8 or raw.ndim != 2 or raw.shape[1] != record.itemsize:
        raise _Refused(
            f"'state' is {raw.dtype} {raw.shape}, this version's records are uint8 "
            f"(N, {record.itemsize})"
        )
    arrays["state"] = np.ascontiguousarray(raw).view(record).reshape(raw.shape[0])
    for n, a in arrays.items():
        if a.dtype.kind not in "biuf" and n != "state":
            raise _Refused(f"array {n!r} is {a.dtype}, not numbers")
    return meta, arrays


def _check_meta(meta) -> None:
    if not isinstance(meta, dict) or meta.get("format") != FILE_FORMAT:
        raise _Refused(f"not a {FILE_FORMAT} file (its 'meta' says {_short(meta)})")
    version = meta.get("format_version")
    if version != FILE_VERSION or type(version) is not int:
        raise _Refused(
            f"written in file format version {version!r}, this dominion_env reads version "
            f"{FILE_VERSION}"
        )
    kinds = {"settings": dict, "ready": bool, "extra": (dict, type(None)), "arrays": list}
    for key, kind in kinds.items():
        if not isinstance(meta.get(key), kind):
            raise _Refused(f"'meta' field {key!r} is {_short(meta.get(key))}")
    if not all(isinstance(n, str) for n in meta["arrays"]):
        raise _Refused(f"'meta' arrays are not names: {_short(meta['arrays'])}")
    # JSON has lists where the settings have tuples: back to tuples, so they compare equal
    meta["settings"] = {k: _tuples(v) for k, v in meta["settings"].items()}


def _tuples(v):
    return tuple(_tuples(x) for x in v) if isinstance(v, list) else v
