"""Property-based fuzzing of what is read from files and snapshots: record JSON,
snapshot arrays and snapshot ``.npz`` files with bytes flipped, cut short or values replaced.
Each is either accepted and valid (a restored VecGame passes the audit's checks and plays a
legal step after which it still does; a record replays or is refused by the replay) or refused
with the documented error (``ValueError``: ``records.RecordError`` and ``ReplayMismatch`` are
ValueErrors; ``FileNotFoundError`` is not drawn here), and a refusal changes nothing.

Hypothesis runs under the "dominion" profile of ``test_fuzz_faces.py`` (derandomized, few
examples); ``HYPOTHESIS_PROFILE=deep`` runs many more.
"""

import json
import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dominion_env import Game, VecGame, records
from dominion_env.agents import compile_bots
from dominion_env.cards import NUM_CARDS, TABLE
from dominion_env.engine.audit import check_positions
from dominion_env.engine.layout import NUM_ACTIONS
from dominion_env.snapshot import Snapshot
from dominion_env.snapshot import load as load_snapshot

settings.register_profile(
    "dominion",
    max_examples=25,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
settings.register_profile("deep", max_examples=1000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dominion"))

N = 4
POOL = compile_bots(["Big Money", "Smithy", "Random"])


def _vec() -> VecGame:
    return VecGame(N, players=3, opponents=POOL, opponent_weights=[1.0, 2.0, 1.0])


def _played() -> tuple[VecGame, Snapshot]:
    vec = _vec()
    vec.reset(seed=7)
    for _ in range(60):
        vec.step(vec.random_actions())
    return vec, vec.snapshot()


VEC, SNAP = _played()


def _same(a: Snapshot, b: Snapshot) -> bool:
    return all(a.arrays[k].tobytes() == b.arrays[k].tobytes() for k in a.arrays)


def assert_valid(vec: VecGame) -> None:
    """Every game passes the audit's checks with its mask, a legal step plays, and after it
    the games still pass."""
    for _ in range(2):
        bits = np.zeros(vec.num_games, np.int64)
        check_positions.serial(
            vec.state.copy(),
            TABLE,
            vec.setup,
            np.array(vec.action_mask),
            True,
            np.zeros((vec.num_games, 3 * NUM_CARDS), np.int64),
            np.zeros((vec.num_games, NUM_ACTIONS), np.bool_),
            bits,
        )
        assert not bits.any(), bits
        vec.step(vec.random_actions())


def check_restore_or_refuse(vec: VecGame, snap: Snapshot) -> None:
    before = vec.snapshot()
    try:
        vec.restore(snap)
    except ValueError as e:
        assert "snapshot" in str(e)
        assert _same(vec.snapshot(), before)
        return
    assert_valid(vec)


# -- snapshot arrays --------------------------------------------------------------------------


@given(
    name=st.sampled_from(sorted(SNAP.arrays)),
    where=st.integers(0, 2**40),
    value=st.binary(min_size=1, max_size=8),
)
def test_snapshot_arrays_with_bytes_changed(name, where, value):
    arrays = {k: np.array(v) for k, v in SNAP.arrays.items()}
    raw = arrays[name].view(np.uint8).reshape(-1) if arrays[name].size else None
    if raw is None:
        return
    at = where % raw.size
    value = value[: raw.size - at]
    raw[at : at + len(value)] = np.frombuffer(value, np.uint8)
    vec = _vec()
    vec.reset(seed=1)
    check_restore_or_refuse(vec, Snapshot(arrays, SNAP.settings, SNAP.ready, SNAP.extra))


@given(
    field=st.sampled_from(["game", "player", "zone", "pile", "frame", "deck", "deck_count"]),
    where=st.integers(0, 2**40),
    value=st.one_of(st.integers(-3, 130), st.sampled_from([-128, 127, 255, -1, 2**31 - 1])),
)
def test_snapshot_records_with_a_field_changed(field, where, value):
    arrays = {k: np.array(v) for k, v in SNAP.arrays.items()}
    flat = arrays["state"][field].reshape(-1)
    info = np.iinfo(flat.dtype)
    flat[where % flat.size] = min(max(value, info.min), info.max)
    arrays["state"][field] = flat.reshape(arrays["state"][field].shape)
    vec = _vec()
    vec.reset(seed=1)
    check_restore_or_refuse(vec, Snapshot(arrays, SNAP.settings, SNAP.ready, SNAP.extra))


# -- snapshot files ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def snapshot_file(tmp_path_factory):
    path = tmp_path_factory.mktemp("snap") / "vec.npz"
    VEC.restore(SNAP)
    VEC.save(path)
    return path


@given(
    cut=st.one_of(st.none(), st.integers(0, 2**30)),
    flips=st.lists(st.tuples(st.integers(0, 2**30), st.integers(1, 255)), max_size=4),
)
def test_snapshot_files_cut_or_flipped(snapshot_file, tmp_path_factory, cut, flips):
    data = bytearray(snapshot_file.read_bytes())
    for at, x in flips:
        data[at % len(data)] ^= x
    if cut is not None:
        data = data[: cut % len(data)]
    path = tmp_path_factory.mktemp("bad") / "bad.npz"
    path.write_bytes(bytes(data))
    vec = _vec()
    vec.reset(seed=1)
    before = vec.snapshot()
    try:
        vec.load(path)
    except ValueError as e:
        assert repr(str(path)) in str(e) or "snapshot" in str(e)
        assert _same(vec.snapshot(), before)
        return
    assert_valid(vec)


@given(
    name=st.sampled_from(sorted(SNAP.arrays)),
    seed=st.integers(0, 2**32 - 1),
)
def test_snapshot_files_with_a_member_of_random_values(snapshot_file, tmp_path_factory, name, seed):
    with np.load(snapshot_file, allow_pickle=False) as f:
        members = {k: f[k] for k in f.files}
    a = members["a:" + name]
    rng = np.random.default_rng(seed)
    members["a:" + name] = rng.integers(0, 256, a.nbytes, np.uint8).view(a.dtype).reshape(a.shape)
    path = tmp_path_factory.mktemp("rand") / "rand.npz"
    np.savez(path, **members)
    vec = _vec()
    vec.reset(seed=1)
    before = vec.snapshot()
    try:
        vec.load(path)
    except ValueError as e:
        assert "snapshot" in str(e)
        assert _same(vec.snapshot(), before)
        return
    assert_valid(vec)


def test_a_loaded_snapshot_file_is_the_snapshot(snapshot_file):
    assert _same(load_snapshot(snapshot_file), SNAP)


# -- record files -----------------------------------------------------------------------------


def _record() -> dict:
    g = Game("First Game", players=2, seed=3, turn_limit=12)
    rng = np.random.default_rng(0)
    while not g.done:
        g.step(int(rng.choice(np.flatnonzero(g.action_mask))))
    return g.record(meta={"note": "fuzz"})


RECORD = _record()
TEXT = records.dumps(RECORD).encode()

json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=8),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


def check_replay_or_refuse(load) -> None:
    try:
        rec = load()
    except records.RecordError as e:
        assert "record" in str(e) or "JSON" in str(e)
        return
    try:
        g = Game.from_record(rec, check_version=False)
    except records.RecordError:  # ReplayMismatch too: the replay left the record
        return
    assert g.done or g.action_mask.any()  # accepted: a game that is over or can go on


@given(
    cut=st.one_of(st.none(), st.integers(0, 2**30)),
    flips=st.lists(st.tuples(st.integers(0, 2**30), st.integers(1, 255)), max_size=3),
)
def test_record_files_cut_or_flipped(tmp_path_factory, cut, flips):
    data = bytearray(TEXT)
    for at, x in flips:
        data[at % len(data)] ^= x
    if cut is not None:
        data = data[: cut % len(data)]
    path = tmp_path_factory.mktemp("rec") / "r.json"
    path.write_bytes(bytes(data))
    check_replay_or_refuse(lambda: records.load(path))


def _paths(v, at=()):
    """Every path into a JSON value (keys and indices)."""
    yield at
    if isinstance(v, dict):
        for k, x in v.items():
            yield from _paths(x, at + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v[:3]):
            yield from _paths(x, at + (i,))


PATHS = [p for p in _paths(RECORD) if p]


@given(path=st.sampled_from(PATHS), value=json_values)
def test_records_with_a_value_replaced(path, value):
    rec = json.loads(TEXT)
    holder = rec
    for k in path[:-1]:
        holder = holder[k]
    holder[path[-1]] = value
    check_replay_or_refuse(lambda: records.check(json.loads(json.dumps(rec)), check_version=False))
