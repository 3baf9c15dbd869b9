"""Save, restore and clone (``dominion_env.snapshot``): a restored or cloned game plays on
exactly as the original would, bit for bit, and a refused snapshot changes nothing.

Recordings hold everything a VecGame shows after each step (observation, mask, rewards, flags,
final observation, learner and opponent seats, scores, shaped rewards) and the actions of its
random policy and of an expert random bot, whose streams must be restored too: the replay
draws its actions afresh from them.
"""

import copy
import json
import os
import pickle
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from dominion_env import Game, VecGame
from dominion_env.agents import compile_bots
from dominion_env.engine.layout import DEC_PLAYER, FRAME_DEPTH, SP
from dominion_env.snapshot import FIXED, LOG, STATE, VIEWS, WORK, Snapshot, _view_paths
from dominion_env.snapshot import load as load_snapshot

STEPS = 1200
EXPERT = compile_bots(["Random"])  # draws from the expert stream at every call
POOL = compile_bots(["Big Money", "Random", "Smithy"])
SHOWN = (
    "observation",
    "action_mask",
    "current_player",
    "rewards",
    "terminated",
    "truncated",
    "final_observation",
    "learner_seat",
    "learner_rewards",
    "opponent_bots",
    "finished_opponent_bots",
    "scores",
    "decision_kind",
    "running",
)

CONFIGS = {
    "plain, truncated at turn 12": dict(num_games=6, players=2, turn_limit=12),
    "pool+shaping": dict(
        num_games=8,
        players=3,
        opponents=POOL,
        opponent_weights=[1.0, 2.0, 1.0],
        vp_shaping=0.05,
    ),
    "fixed seat, scaled, no autoreset": dict(
        num_games=5,
        players=4,
        kingdom="First Game",
        opponents=compile_bots(["Random"]),
        learner_seat=2,
        scale_observations=True,
        autoreset=False,
        turn_limit=40,
    ),
}


def shown(vec: VecGame) -> bytes:
    """Everything the VecGame shows now, as bytes."""
    arrays = [np.asarray(getattr(vec, f)) for f in SHOWN]
    if vec.shaping is not None:
        arrays.append(vec.shaped_rewards)
    return b"".join(a.tobytes() for a in arrays)


def play(vec: VecGame, steps: int) -> list[bytes]:
    """``steps`` steps of the VecGame's random policy: the actions and what it shows after
    each, as bytes."""
    rec = []
    for _ in range(steps):
        actions = vec.random_actions()
        expert = vec.bot_actions(EXPERT, 0)
        vec.step(actions)
        rec.append(actions.tobytes() + expert.tobytes() + shown(vec))
    return rec


def play_until_a_game_ends(vec: VecGame) -> None:
    """Play on to a step on which a game ends, so that its outputs (rewards, final observation,
    finished bots) are all set when a snapshot is taken."""
    for _ in range(3000):
        play(vec, 1)
        if (vec.terminated | vec.truncated).any():
            return
    raise AssertionError("no game ended in 3000 steps")


def first_difference(a: list[bytes], b: list[bytes]) -> int | None:
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y), None)


def same_arrays(s: Snapshot, t: Snapshot) -> bool:
    return s.arrays.keys() == t.arrays.keys() and all(
        s.arrays[k].tobytes() == t.arrays[k].tobytes() for k in s.arrays
    )


@pytest.mark.parametrize("name", CONFIGS)
def test_restore_replays_bit_for_bit(name):
    vec = VecGame(**CONFIGS[name])
    vec.reset(seed=11)
    play_until_a_game_ends(vec)
    snap, now = vec.snapshot(), shown(vec)
    first = play(vec, STEPS)
    vec.restore(snap)
    assert shown(vec) == now
    assert first_difference(play(vec, STEPS), first) is None
    # a fresh VecGame made alike plays the same from the snapshot: nothing lives outside it
    other = VecGame(**CONFIGS[name])
    other.restore(snap)
    assert shown(other) == now
    assert first_difference(play(other, STEPS), first) is None


def test_the_record_alone_is_not_enough():
    """Why the snapshot holds more than the records: restoring them alone (the learner's
    seats, the opponents' stream and bots, the policy stream left as they were) diverges."""
    vec = VecGame(**CONFIGS["pool+shaping"])
    vec.reset(seed=11)
    state = vec.state.copy()
    first = play(vec, STEPS)
    vec.state[:] = state
    at = first_difference(play(vec, STEPS), first)
    assert at is not None and at < 500


def test_game_restore_replays_moves_and_log():
    g = Game("random", players=3, seed=4, opponents=POOL, opponent_weights=[1, 1, 1])
    rng = np.random.default_rng(0)
    for _ in range(30):
        g.step(int(rng.choice(np.flatnonzero(g.action_mask))))
    snap, log = g.snapshot(), g.log()

    def finish(game):
        moves, seen = [], []
        while not game.done:
            a = int(rng.choice(np.flatnonzero(game.action_mask)))
            moves.append(a)
            game.step(a)
            seen.append(game.observation(0).tobytes() + game.action_mask.tobytes())
        return moves, seen, game.log(), game.rewards.tolist()

    moves, seen, full_log, rewards = finish(g)
    assert len(full_log) > len(log)
    g.restore(snap)
    assert g.log() == log
    for i, a in enumerate(moves):
        g.step(a)
        assert g.observation(0).tobytes() + g.action_mask.tobytes() == seen[i], i
    assert g.done and g.log() == full_log and g.rewards.tolist() == rewards


def test_clone_plays_on_as_the_original_and_apart_from_it():
    g = Game("random", players=2, seed=9, opponents=POOL, opponent_weights=[1, 1, 1])
    rng = np.random.default_rng(1)
    for _ in range(20):
        g.step(int(rng.choice(np.flatnonzero(g.action_mask))))
    before = g.snapshot()
    c = g.clone()
    assert same_arrays(c.snapshot(), before) and c.log() == g.log()
    moves = []
    while not c.done:  # the clone plays to the end; the original must not move
        moves.append(int(rng.choice(np.flatnonzero(c.action_mask))))
        c.step(moves[-1])
    assert same_arrays(g.snapshot(), before)
    for a in moves:  # the original, given the clone's moves, plays the clone's game
        g.step(a)
    assert same_arrays(g.snapshot(), c.snapshot()) and g.log() == c.log()
    # deepcopy is a clone
    d = copy.deepcopy(g)
    d.reset(3)
    assert same_arrays(g.snapshot(), c.snapshot())


def test_vecgame_clone_is_independent():
    vec = VecGame(**CONFIGS["pool+shaping"])
    vec.reset(seed=2)
    play_until_a_game_ends(vec)
    before = vec.snapshot()
    twin = vec.clone()
    assert shown(twin) == shown(vec)
    first = play(twin, 300)
    assert same_arrays(vec.snapshot(), before)
    assert first_difference(play(vec, 300), first) is None


def mismatched():
    """(settings of a VecGame, settings of the one a snapshot comes from, what differs)."""
    base = dict(num_games=4, players=2, kingdom="First Game")
    bm = dict(base, opponents=compile_bots(["Big Money"]))
    return [
        (base, dict(base, num_games=5), "num_games"),
        (base, dict(base, players=3), "players"),
        (base, dict(base, kingdom="random"), "kingdom"),
        (base, dict(base, kingdom="Victory Dance"), "kingdom"),
        (base, dict(base, turn_limit=60), "turn_limit"),
        (base, dict(base, first_player=1), "first_player"),
        (base, dict(base, autoreset=False), "autoreset"),
        (base, dict(base, scale_observations=True), "scale_observations"),
        (base, bm, "opponents"),
        (bm, dict(bm, learner_seat=1), "learner_seat"),
        (bm, dict(base, opponents=compile_bots(["Smithy"])), "opponents"),
        (bm, dict(base, opponents=POOL, opponent_weights=[1, 1, 1]), "opponents"),
        (bm, dict(bm, vp_shaping=0.1), "vp_shaping"),
    ]


@pytest.mark.parametrize("mine,theirs,setting", mismatched())
def test_restore_refuses_a_snapshot_of_another_setup_and_changes_nothing(mine, theirs, setting):
    vec = VecGame(**mine)
    vec.reset(seed=1)
    play(vec, 10)
    source = VecGame(**theirs)
    source.reset(seed=1)
    before = vec.snapshot()
    with pytest.raises(ValueError, match=setting):
        vec.restore(source.snapshot())
    assert same_arrays(vec.snapshot(), before)


def test_restore_refuses_what_is_not_a_fitting_snapshot():
    vec = VecGame(3, players=2)
    vec.reset(seed=0)
    before = vec.snapshot()
    with pytest.raises(TypeError, match="snapshot must be a Snapshot"):
        vec.restore(vec.state)
    arrays = dict(before.arrays)
    arrays["buffers.obs"] = np.zeros((3, 1), np.float32)
    with pytest.raises(ValueError, match="buffers.obs"):
        vec.restore(Snapshot(arrays, before.settings, True))
    del arrays["buffers.obs"]
    with pytest.raises(ValueError, match="holds arrays"):
        vec.restore(Snapshot(arrays, before.settings, True))
    play(vec, 5)
    after = vec.snapshot()
    with pytest.raises(ValueError, match="players"):
        Game(players=3).restore(Game(players=2).snapshot())
    assert same_arrays(vec.snapshot(), after)


def test_snapshot_is_read_only_and_pickles_small():
    g = Game(seed=5)
    rng = np.random.default_rng(2)
    for _ in range(60):
        g.step(int(rng.choice(np.flatnonzero(g.action_mask))))
    snap = g.snapshot()
    with pytest.raises(ValueError):
        snap.arrays["state"][:] = 0
    with pytest.raises(AttributeError):
        snap.ready = False
    with pytest.raises(TypeError):
        snap.arrays["x"] = np.zeros(1)
    blob = pickle.dumps(snap)
    assert len(blob) < 8_000, len(blob)  # the record alone is ~8 KB raw, mostly zeros
    back = pickle.loads(blob)
    assert same_arrays(back, snap) and dict(back.settings) == dict(snap.settings)
    # a pickled Game carries its log's written rows, not the 1 MB of room for more
    again = pickle.loads(pickle.dumps(g))
    assert len(pickle.dumps(g)) < 64_000
    assert again.log() == g.log() and same_arrays(again.snapshot(), snap)
    a = int(np.flatnonzero(g.action_mask)[0])
    assert same_arrays(again.step(a).snapshot(), g.step(a).snapshot())
    assert again.log() == g.log()


def arrays_held(vec: VecGame) -> set[str]:
    """The attribute path of every array a VecGame holds (and the NamedTuples and objects it
    holds hold, dicts too); the snapshot module's caches and the views of VIEWS (checked
    apart) left out."""
    out = set()
    for name, value in vars(vec).items():
        if name.startswith("_snapshot") or name == VIEWS:
            continue
        if isinstance(value, np.ndarray):
            out.add(name)
        items = value._asdict().items() if hasattr(value, "_fields") else None
        if isinstance(value, dict):
            items = value.items()
        if items is None and hasattr(value, "__dict__") and not isinstance(value, type):
            items = vars(value).items()
        for field, v in items or ():
            if isinstance(v, np.ndarray):
                out.add(f"{name}.{field}")
    return out


def test_every_array_of_a_vecgame_is_saved_shared_or_work_space():
    """A VecGame that gains an array must say what it is (``snapshot.STATE`` / ``WORK`` /
    ``FIXED``): else a snapshot would miss it or clones would share it."""
    vec = VecGame(**CONFIGS["pool+shaping"])
    vec.reset(seed=0)
    vec.clone()  # fills the snapshot module's caches, which the walk must skip
    vec.snapshot()
    listed = set(STATE) | set(WORK) | set(FIXED) | {LOG}
    assert arrays_held(vec) == listed
    assert set(_view_paths(vec).values()) <= listed  # raises on a view of an unlisted array
    assert not (set(STATE) & set(WORK) or set(STATE) & set(FIXED) or set(WORK) & set(FIXED))
    # and a clone shares exactly the fixed ones
    twin = vec.clone()
    for path in sorted(listed):
        assert (_at(vec, path) is _at(twin, path)) == (path in FIXED), path


def _at(obj, path):
    for name in path.split("."):
        obj = getattr(obj, name)
    return obj


def test_clone_and_restore_work_without_the_jit():
    """Under NUMBA_DISABLE_JIT the records are a recarray (``layout.new_state``), which the
    kernels read by attribute: a clone's and a restored game's must stay one."""
    code = textwrap.dedent(
        """
        import numpy as np
        from dominion_env import Game
        g = Game("First Game", seed=1, turn_limit=6)
        rng = np.random.default_rng(0)
        for _ in range(5):
            g.step(int(rng.choice(np.flatnonzero(g.action_mask))))
        snap, c = g.snapshot(), g.clone()
        assert type(c.state) is np.recarray, type(c.state)
        moves = []
        while not c.done:
            moves.append(int(rng.choice(np.flatnonzero(c.action_mask))))
            c.step(moves[-1])
        for restored in (False, True):
            if restored:
                g.restore(snap)
            for a in moves:
                g.step(a)
            assert g.log() == c.log()
            assert g.snapshot().arrays["state"].tobytes() == c.snapshot().arrays["state"].tobytes()
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=dict(os.environ, NUMBA_DISABLE_JIT="1"),
        capture_output=True,
        text=True,
        timeout=300,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert done.returncode == 0, done.stderr[-2000:]


def test_game_restore_puts_back_the_games_own_attributes():
    """A Game's seed, game number and scenario flag belong to the game: a record taken after
    a restore is the restored game's, and a scenario set after the snapshot is undone."""
    g = Game("First Game", seed=7, game_index=3)
    g.step(int(np.flatnonzero(g.action_mask)[0]))
    snap = g.snapshot()
    record = g.record()
    g.reset(seed=8)
    g.set_scenario(hands={0: ["Village"]})
    g.restore(snap)
    assert (g.seed, g.game_index, g._scenario) == (7, 3, {})
    assert g.record() == record
    vec_snap = g._vec.snapshot()
    with pytest.raises(ValueError, match="a VecGame's"):
        g.restore(vec_snap)


def test_views_handed_out_are_of_the_clones_and_unpickled_arrays():
    """The read-only arrays a VecGame returns are views of its own buffers: a clone's and an
    unpickled VecGame's must show their own games, not the original's."""
    vec = VecGame(**CONFIGS["pool+shaping"])
    vec.reset(seed=3)
    for other in (vec.clone(), pickle.loads(pickle.dumps(vec))):
        assert shown(other) == shown(vec)
        play(other, 3)
        assert np.shares_memory(other.observation, other.buffers.obs)
        assert not np.shares_memory(other.observation, vec.buffers.obs)
        assert not other.observation.flags.writeable
        assert shown(other) != shown(vec)


# -- restore checks the games it is given ------------------------------------------------


def edited(snap: Snapshot, edit) -> Snapshot:
    """``snap`` with ``edit(arrays)`` applied to writable copies of its arrays."""
    arrays = {k: np.array(v) for k, v in snap.arrays.items()}
    edit(arrays)
    return Snapshot(arrays, snap.settings, snap.ready, snap.extra)


def _hand(a):
    a["state"]["zone"][1, 0, 0, 0] = -5  # game 1, seat 0: a hand of -5 Coppers


def _decider(a):
    a["state"]["game"][0, DEC_PLAYER] = 9


def _every_byte(a):
    a["state"].view(np.uint8)[:] = 0xFF


def _frames(a):
    a["state"]["frame"][2, 0, 0] = 3  # the bottom frame is not the turn's


def _stack_pointer(a):
    a["state"]["game"][:, SP] = FRAME_DEPTH + 1


def _mask(a):
    a["buffers.mask"][0] = ~a["buffers.mask"][0]  # what the position does not allow


def _card_from_nowhere(a):
    a["state"]["zone"][0, 1, 1, 6] += 1  # a Province appears in a discard pile


def _nan(a):
    a["buffers.obs"][1, 3] = np.nan


def _learner(a):
    a["buffers.learner"][0] = 5


def _bot(a):
    a["opponents.seat_bots"][0, 1] = 7


@pytest.mark.parametrize(
    "edit, says",
    [
        (_hand, "negative"),
        (_decider, "decider"),
        (_every_byte, "conservation, empty_mask, decider, negative, frames"),
        (_frames, "frames"),
        (_stack_pointer, "frames"),
        (_mask, "empty_mask"),
        (_card_from_nowhere, "conservation"),
        (_nan, "buffers.obs"),
        (_learner, "learner seat"),
        (_bot, "seat_bots"),
    ],
)
def test_restore_refuses_a_hand_edited_snapshot_and_changes_nothing(edit, says):
    vec = VecGame(4, players=2, opponents=POOL, opponent_weights=[1, 1, 1])
    vec.reset(seed=3)
    play(vec, 40)
    snap = vec.snapshot()
    play(vec, 7)
    before = vec.snapshot()
    with pytest.raises(ValueError, match="nothing was restored") as e:
        vec.restore(edited(snap, edit))
    assert says in str(e.value)
    assert same_arrays(vec.snapshot(), before)
    vec.restore(edited(snap, lambda a: None))  # the same arrays unedited: accepted
    assert same_arrays(vec.snapshot(), snap)


def test_restore_accepts_a_scenario_and_refuses_its_broken_draw_pile():
    """A scenario's card totals are its own (not the setup's): only the rest is checked."""
    g = Game("First Game", seed=1)
    g.set_scenario(hands={0: ["Village"] * 5}, decks={0: ["Gold", "Gold"]})
    snap = g.snapshot()
    g.step(int(np.flatnonzero(g.action_mask)[0]))
    g.restore(snap)
    assert g.zones(0)["hand"] == {"Village": 5}

    def pile(a):
        a["state"]["deck"][0, 0, 0] = 200  # no such card

    with pytest.raises(ValueError, match="conservation"):
        g.restore(edited(snap, pile))


def test_a_not_ready_snapshot_is_not_checked_and_still_needs_a_reset():
    vec = VecGame(3)
    snap = vec.snapshot()
    vec.reset(seed=0)
    vec.restore(edited(snap, _every_byte))
    with pytest.raises(RuntimeError, match="reset"):
        vec.step(np.zeros(3, np.int64))


# -- snapshot files that run no code ----------------------------------------------------------


def test_snapshot_files_round_trip_without_pickle(tmp_path):
    vec = VecGame(**CONFIGS["pool+shaping"])
    vec.reset(seed=11)
    play_until_a_game_ends(vec)
    snap, now = vec.snapshot(), shown(vec)
    path = vec.save(tmp_path / "s.npz")
    first = play(vec, 200)
    vec.load(path)
    assert shown(vec) == now
    assert first_difference(play(vec, 200), first) is None
    assert same_arrays(load_snapshot(path), snap)
    with np.load(path, allow_pickle=False) as f:  # every member loads without pickle
        assert {f[k].dtype.kind for k in f.files} <= set("biufU")

    g = Game("random", players=3, seed=4)
    g.step(int(np.flatnonzero(g.action_mask)[0]))
    saved = g.save(str(tmp_path / "g.npz"))
    record = g.record()
    g.reset(seed=9)
    assert g.load(saved).record() == record


def _file_cases(tmp_path, path):
    data = path.read_bytes()
    cases = {
        "garbage": b"\x00\xffnot a snapshot" * 50,
        "half": data[: len(data) // 2],
        "empty": b"",
    }
    for name, raw in cases.items():
        p = tmp_path / f"{name}.npz"
        p.write_bytes(raw)
        yield name, p


def test_bad_snapshot_files_are_refused_naming_the_file(tmp_path):
    g = Game(seed=2)
    path = g.save(tmp_path / "g.npz")
    g.step(int(np.flatnonzero(g.action_mask)[0]))
    before = g.snapshot()
    for _, p in _file_cases(tmp_path, path):
        with pytest.raises(ValueError, match=re.escape(repr(str(p)))):
            g.load(p)
    with pytest.raises(FileNotFoundError, match="nowhere.npz"):
        g.load(tmp_path / "nowhere.npz")
    with pytest.raises(TypeError, match="path must be"):
        g.load(3)
    # another format version, and a pickled array (np.save with allow_pickle) inside
    snap = load_snapshot(path)
    with np.load(path, allow_pickle=False) as f:
        members = {k: f[k] for k in f.files}
    meta = json.loads(str(members["meta"][()]))
    for change, says in [
        ({"format_version": 99}, "format version 99"),
        ({"format": "something"}, "not a dominion-snapshot"),
        ({"ready": "yes"}, "'ready'"),
    ]:
        p = tmp_path / "v.npz"
        np.savez(p, **{**members, "meta": np.array(json.dumps({**meta, **change}))})
        with pytest.raises(ValueError, match=says):
            g.load(p)
    p = tmp_path / "o.npz"
    np.savez(p, **{**members, "a:log": np.array([print], dtype=object)})
    with pytest.raises(ValueError, match="Python objects"):
        g.load(p)
    settings = {**meta["settings"], "turn_limit": 7}
    np.savez(p, **{**members, "meta": np.array(json.dumps({**meta, "settings": settings}))})
    with pytest.raises(ValueError, match="turn_limit"):
        g.load(p)
    assert same_arrays(g.snapshot(), before)
    assert same_arrays(snap, Game(seed=2).snapshot())
