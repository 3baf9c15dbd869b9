"""Property-based fuzzing of what is read from files and snapshots: record JSON,
snapshot arrays and snapshot ``.npz`` files with bytes flipped, cut short or values replaced.
Each is either accepted and valid (a restored VecGame passes the audit's checks and plays a
legal step after which it still does; a record replays or is refused by the replay) or refused
with the documented error (``ValueError``: ``records.RecordError`` and ``ReplayMismatch`` are
ValueErrors; ``FileNotFoundError`` is not drawn here), and a refusal changes nothing.

Agent and checkpoint files (with the train extra) whose content lies: an agent's info against
its first layer's width, Adam's settings and per-parameter state (a learning rate of 1e30, a
NaN step, betas of 2, a number where a tensor belongs, wrong shapes), names with control
characters, a checkpoint naming another run folder. Each is refused with an
``AgentFileError`` naming the file, or loads as what it claims (an agent plays its own player
count only; a checkpoint's Adam steps to finite weights; its run's folder is the file's).

Hypothesis runs under the "dominion" profile of ``test_fuzz_faces.py`` (derandomized, few
examples); ``HYPOTHESIS_PROFILE=deep`` runs many more.
"""

import json
import os
import warnings

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


# -- agent and checkpoint files: what they claim against what they hold -----------------------
# (the train extra: skipped without torch; ``test_agent_files.py`` fuzzes their bytes)


def _torch():
    return pytest.importorskip("torch", reason="the train extra (torch) is not installed")


def _widths(players: int) -> list[int]:
    from dominion_env.engine.observation import obs_size
    from dominion_env.train.policy import OLDER_OBS_SIZES

    return [obs_size(players), *OLDER_OBS_SIZES[players]]


@given(
    label=st.integers(2, 6),
    built=st.integers(2, 6),
    width=st.one_of(st.sampled_from(["now", "older"]), st.integers(0, 2000)),
)
def test_agents_whose_metadata_lies_about_their_tensors(tmp_path_factory, label, built, width):
    """An MLP agent's first layer is as wide as an observation some release wrote for the
    players its info names, or it is refused: weights for other players, 0 inputs or any
    other width never load (no zero-padding but the documented older-observation case)."""
    torch = _torch()
    from dominion_env.checks import check_agent_players
    from dominion_env.engine.observation import obs_size
    from dominion_env.train import AgentFileError
    from dominion_env.train.policy import AgentInfo, PolicyNet, load_agent, save_agent

    if isinstance(width, str):
        width = _widths(built)[0 if width == "now" else 1]
    torch.manual_seed(0)
    with warnings.catch_warnings():  # torch: "Initializing zero-element tensors"
        warnings.simplefilter("ignore", UserWarning)
        net = PolicyNet(width, (4,))
    path = save_agent(net, AgentInfo("x", label, (4,)), tmp_path_factory.mktemp("a") / "x.pt")
    try:
        agent = load_agent(path)
    except AgentFileError as e:
        assert str(e).startswith(f"{path}: ") and f"reads {width} inputs" in str(e)
        assert width not in _widths(label)
        return
    assert width in _widths(label)
    mask = np.ones((3, NUM_ACTIONS), np.bool_)
    assert agent.act(np.zeros((3, obs_size(label)), np.float32), mask).shape == (3,)
    for players in range(2, 7):
        if players != label:
            with pytest.raises(ValueError, match=f"plays {label}-player games;"):
                check_agent_players(agent, players)


def _checkpoint_file(folder):
    """A small real checkpoint (Adam's state after one step) in ``folder``."""
    torch = _torch()
    from dataclasses import asdict

    from dominion_env.engine.observation import obs_size
    from dominion_env.train.policy import PolicyNet
    from dominion_env.train.ppo import TrainConfig, write_checkpoint

    cfg = TrainConfig(hidden=(4,), num_envs=8, opponents={"Big Money": 1})
    torch.manual_seed(0)
    net = PolicyNet(obs_size(2), (4,))
    opt = torch.optim.Adam(net.parameters(), lr=cfg.lr, eps=1e-5)
    net(torch.rand(2, obs_size(2)), torch.ones(2, NUM_ACTIONS, dtype=torch.bool))[0].sum()
    sum(p.sum() for p in net.parameters()).backward()
    opt.step()
    return write_checkpoint(
        folder / "checkpoint.safetensors",
        config=asdict(cfg),
        net=net.state_dict(),
        opt=opt.state_dict(),
        steps=8,
        seconds=1.0,
        history=[],
        snapshots=[],
    )


numbers = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, -1, 2, 1e30, -1e-30, 0.5, 0.9, 0.999, 1.0, 3e-4, 1e-5, True]),
)
tensorish = st.one_of(
    numbers,
    st.tuples(st.integers(0, 9), st.integers(0, 9)),  # a tensor of this shape
    st.sampled_from(["scalar", "negative", "nan"]),
)


def _tensor(torch, value, like):
    if isinstance(value, tuple):
        return torch.zeros(value)
    if value == "scalar":
        return torch.tensor(3.0)
    if value == "negative":
        return -torch.ones_like(like)
    if value == "nan":
        return torch.full_like(like, float("nan"))
    return value  # a number where a tensor may belong


@given(
    field=st.sampled_from(["lr", "betas", "eps", "weight_decay", "amsgrad", "params"]),
    value=st.one_of(numbers, st.lists(numbers, max_size=3), st.none()),
)
def test_checkpoints_with_an_optimizer_setting_changed(tmp_path_factory, field, value):
    """Adam's settings in a checkpoint: refused naming the file, or what the trainer built."""
    _torch()
    from dominion_env.train import AgentFileError
    from dominion_env.train.ppo import read_checkpoint

    path = _checkpoint_file(tmp_path_factory.mktemp("ck"))
    _edit_checkpoint(
        path, lambda doc, tensors: doc["optimizer"]["param_groups"][0].update({field: value})
    )
    _resumed_or_refused(path, AgentFileError, read_checkpoint)


@given(
    index=st.sampled_from(["0", "1", "3", "4", "5", "01", "x"]),
    key=st.sampled_from(["exp_avg", "exp_avg_sq", "step"]),
    value=tensorish,
    as_json=st.booleans(),
)
def test_checkpoints_with_optimizer_state_changed(tmp_path_factory, index, key, value, as_json):
    """Adam's per-parameter state (a NaN step, a number where a tensor belongs, negative
    exp_avg_sq, wrong shapes, a parameter that is not there): refused naming the file, or a
    state Adam steps from with finite results."""
    torch = _torch()
    from dominion_env.train import AgentFileError
    from dominion_env.train.ppo import read_checkpoint

    path = _checkpoint_file(tmp_path_factory.mktemp("ck"))

    def edit(doc, tensors):
        name = f"opt.{index}.{key}"
        like = tensors.get(f"opt.{index}.exp_avg", torch.zeros(1))
        v = _tensor(torch, value, like)
        tensors.pop(name, None)
        if isinstance(v, torch.Tensor) and not as_json:
            tensors[name] = v
        elif not isinstance(v, torch.Tensor):
            doc["optimizer"]["state"].setdefault(index, {})[key] = v

    _edit_checkpoint(path, edit)
    _resumed_or_refused(path, AgentFileError, read_checkpoint)


def _edit_checkpoint(path, edit) -> None:
    from dominion_env.train import tensorfile

    tensors, doc = tensorfile.read(path, "checkpoint")
    edit(doc, tensors)
    try:
        tensorfile.write(path, "checkpoint", tensors, doc)
    except (TypeError, ValueError):  # JSON cannot hold it: write the bare layout
        path.unlink()


def _resumed_or_refused(path, error, read_checkpoint) -> None:
    torch = _torch()
    from dominion_env.engine.observation import obs_size
    from dominion_env.train.policy import PolicyNet

    try:
        data = read_checkpoint(path)
    except error as e:
        assert str(e).startswith(f"{path}: ")
        return
    net = PolicyNet(obs_size(2), (4,))
    net.load_state_dict(data["net"])
    opt = torch.optim.Adam(net.parameters(), lr=data["config"].lr, eps=1e-5)
    opt.load_state_dict(data["opt"])
    g = opt.param_groups[0]
    assert 0 <= g["betas"][0] < 1 and 0 <= g["betas"][1] < 1 and g["eps"] > 0
    net(torch.rand(2, obs_size(2)), torch.ones(2, NUM_ACTIONS, dtype=torch.bool))[
        1
    ].sum().backward()
    opt.step()
    assert all(torch.isfinite(p).all() for p in net.parameters())


@given(
    out=st.one_of(st.text(max_size=30), st.sampled_from(["/", "..", "/etc", "~/x"]), json_values)
)
def test_a_checkpoint_naming_another_out_folder_is_read_into_its_own(tmp_path_factory, out):
    """Whatever folder an (older) checkpoint's config names, the run's folder is the one the
    file is read from."""
    _torch()
    from dominion_env.train.ppo import read_checkpoint, saved_config

    folder = tmp_path_factory.mktemp("run")
    path = _checkpoint_file(folder)
    _edit_checkpoint(path, lambda doc, tensors: doc["config"].update(out=out))
    assert read_checkpoint(path)["config"].out == str(folder)
    assert saved_config(folder)["out"] == str(folder)


@given(name=st.text(max_size=12))
def test_names_with_control_characters(tmp_path_factory, name):
    """An agent's name of control characters, escapes or line breaks is refused when saved and
    when loaded (naming the file); any name prints as one line of printable characters."""
    _torch()
    from dominion_env.names import check_name, printable
    from dominion_env.train import AgentFileError, tensorfile
    from dominion_env.train.policy import AgentInfo, PolicyNet, load_agent, save_agent

    shown = printable(name)
    assert all(c.isprintable() or c == " " for c in shown) and "\n" not in shown
    assert printable(shown) == shown
    ok = bool(name) and all(c.isprintable() or c == " " for c in name)
    assert shown == name if ok else True
    folder = tmp_path_factory.mktemp("n")
    net = PolicyNet(_widths(2)[0], (4,))
    if ok:
        check_name("name", name)
        assert load_agent(save_agent(net, AgentInfo(name, 2, (4,)), folder / "a.pt")).name == name
        return
    with pytest.raises((ValueError, TypeError), match="printable characters|must be a string"):
        save_agent(net, AgentInfo(name, 2, (4,)), folder / "a.pt")
    good = save_agent(net, AgentInfo("x", 2, (4,)), folder / "a.pt")
    tensors, doc = tensorfile.read(good, "agent")
    doc["info"]["name"] = name
    tensorfile.write(good, "agent", tensors, doc)
    with pytest.raises(AgentFileError, match="info.name must be a non-empty string of printable"):
        load_agent(good)
