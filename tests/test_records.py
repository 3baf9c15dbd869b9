"""Game records: made by Game, the arena, the envs and the command line; replayed bit for bit;
refused with a clear error when they do not fit (dominion_env/records.py)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest

from dominion_env import Game, records
from dominion_env.agents import compile_bots
from dominion_env.analysis import replay
from dominion_env.analysis.arena import play_games, record_games
from dominion_env.cli import main
from dominion_env.vector import VERSION

ATTACKS = ["Militia", "Double Witch", "Moat"]


@pytest.fixture(scope="module")
def arena_records():
    table = compile_bots(ATTACKS)
    res = play_games(table, 40, 3, "random", seed=11, turn_limit=60)
    recs = record_games(table, ATTACKS, res, [0, 7, 39], 3, "random", seed=11, turn_limit=60)
    return res, recs


def _random_game(seed=5, **kw) -> Game:
    g = Game("random", 2, seed, **kw)
    rng = np.random.default_rng(seed)
    while not g.done:
        g.step(int(rng.choice(np.flatnonzero(g.action_mask))))
    return g


def test_arena_games_replay_to_the_batch_result(arena_records):
    res, recs = arena_records
    for i, rec in zip([0, 7, 39], recs, strict=True):
        assert rec["game_index"] == i and rec["seed"] == 11 and rec["meta"]["game"] == i
        assert [e["name"] for e in rec["players"]] == [ATTACKS[b] for b in res.seat_bot[i]]
        g = Game.from_record(rec)
        assert g.rewards.tolist() == res.reward[i].tolist()
        assert g.turn["turn_number"] == res.turns[i]
        assert g.result() == rec["result"]
        assert {d["player"] for d in rec["decisions"]} == {0, 1, 2}


def test_replay_is_bit_for_bit():
    g = _random_game(seed=3)
    rec = g.record(["human", "random"])
    r = Game.from_record(rec)
    assert r.log() == g.log()
    for name in ("zone", "deck", "pile", "game", "player"):
        np.testing.assert_array_equal(r.state[name], g.state[name])
    # the decisions replay one by one, the game at each decision before it is taken
    steps = [(i, gm.current_player) for i, gm in Game.replay(rec)]
    assert [p for _, p in steps[:-1]] == [d["player"] for d in rec["decisions"]]
    assert steps[-1] == (len(rec["decisions"]), -1)


def test_learner_mode_records_the_bots_decisions_too():
    g = Game("First Game", 2, 9, opponents=compile_bots("Big Money"), learner_seat=1)
    rng = np.random.default_rng(0)
    while not g.done:
        g.step(int(rng.choice(np.flatnonzero(g.action_mask))))
    rec = g.record([{"kind": "bot", "name": "Big Money"}, {"kind": "policy", "name": "me"}])
    assert {d["player"] for d in rec["decisions"]} == {0, 1}
    r = Game.from_record(rec)  # a plain Game: the record's decisions answer every seat
    assert r.log() == g.log() and r.result() == g.result()


def test_save_load_round_trip(tmp_path):
    g = _random_game(seed=4, first_player=1, turn_limit=30)
    rec = g.record(meta={"note": "x"})
    path = records.save(rec, tmp_path / "a" / "g.json")
    text = path.read_text()
    assert text.count('{"player": ') == len(rec["decisions"])  # one decision per line
    back = records.load(path)
    assert back == json.loads(json.dumps(rec))
    assert back["settings"]["first_player"] == 1 and back["settings"]["turn_limit"] == 30
    assert back["engine_version"] == VERSION and back["format_version"] == records.FORMAT_VERSION
    assert Game.from_record(back).result() == rec["result"]


def _mutated(rec, fn):
    r = copy.deepcopy(rec)
    fn(r)
    return r


@pytest.mark.parametrize(
    "change, error, words",
    [
        (lambda r: r.update(engine_version=3), records.RecordError, "engine version 3"),
        (lambda r: r.update(format_version=3), records.RecordError, "format_version 3"),
        (lambda r: r.pop("scenario"), records.RecordError, "missing field(s) ['scenario']"),
        (lambda r: r.update(scenario={"rng": 1}), records.RecordError, "'scenario' must be"),
        (lambda r: r.pop("seed"), records.RecordError, "missing field(s) ['seed']"),
        (lambda r: r.update(format="x"), records.RecordError, "'format' must be"),
        (lambda r: r["decisions"][2].update(action="Gold"), records.ReplayMismatch, "names"),
        (
            lambda r: r["decisions"][2].update(player=1 - r["decisions"][2]["player"]),
            records.ReplayMismatch,
            "decides in the replay",
        ),
        (
            lambda r: r["decisions"][2].update(index=63, action="Nobles"),
            records.ReplayMismatch,
            "is not legal",
        ),
        (lambda r: r["result"].update(turns=999), records.ReplayMismatch, "result differs"),
        (lambda r: r.update(seed=r["seed"] + 1), records.ReplayMismatch, ""),
        (lambda r: r["decisions"].append(r["decisions"][-1]), records.ReplayMismatch, "over"),
        (lambda r: r["decisions"][0].update(index=71), records.RecordError, "decisions[0]"),
    ],
)
def test_bad_records_are_refused_clearly(change, error, words):
    rec = _random_game(seed=8).record()
    bad = _mutated(rec, change)
    with pytest.raises(error, match=None) as e:
        Game.from_record(bad)
    assert words in str(e.value)


def test_other_engine_version_replays_when_asked():
    # an engine before v8 shuffled every seat from one stream: the replay tries it that way
    rec = _mutated(
        records.load(OLD_RECORDS / "v7_random_2p.json"), lambda r: r.update(engine_version=3)
    )
    assert Game.from_record(rec, check_version=False).done


def test_a_version_with_the_same_games_replays():
    # v6 changed only what observations show of multi-card discards, v7 only what the record
    # keeps beside the game: v5's and v6's records replay
    assert records.SAME_GAMES == (5, 6, 7, 8)
    for version in (5, 6):
        rec = _mutated(
            records.load(OLD_RECORDS / "v7_random_2p.json"),
            lambda r, v=version: r.update(engine_version=v),
        )
        assert Game.from_record(rec).done


# games played by engine v7 (random play): its seats shuffled from the game's one stream
OLD_RECORDS = Path(__file__).parent / "records_v7"


@pytest.mark.parametrize("name", ["v7_random_2p", "v7_chapel_3p", "v7_scenario_2p"])
def test_records_of_the_one_stream_engines_replay_exactly(name):
    rec = records.load(OLD_RECORDS / f"{name}.json")
    assert rec["engine_version"] == 7
    g = Game.from_record(rec)  # checks every decision and the result
    assert g.result() == rec["result"] and g._vec.config.shared_stream == 1
    # played on and recorded, it is still a game of theirs, and says so
    assert g.record()["engine_version"] == records.SHARED_STREAM_VERSION == 7
    # with this engine's seat streams the same actions leave the game
    with pytest.raises(records.ReplayMismatch):
        Game.from_record(_mutated(rec, lambda r: r.update(engine_version=VERSION)))


def _play_randomly(g: Game, seed: int, steps: int | None = None) -> Game:
    rng = np.random.default_rng(seed)
    n = 0
    while not g.done and (steps is None or n < steps):
        g.step(int(rng.choice(np.flatnonzero(g.action_mask))))
        n += 1
    return g


SCENARIO = dict(
    hands={0: ["Village", "Militia", "Copper"], 1: ["Moat", "Estate", "Copper", "Copper"]},
    decks={0: ["Gold", "Smithy"], 1: ["Silver"]},
    discards={0: {"Copper": 5, "Estate": 2}, 1: {"Copper": 6, "Estate": 3}},
    supply={"Province": 3, "Witch": 4},  # Witch is not in First Game: it gets a pile
    trash={"Curse": 2},
    turns_taken=[4, 4],
    coins=1,
)


def test_scenario_games_record_their_position_and_replay_bit_for_bit(tmp_path):
    g = _play_randomly(Game("First Game", 2, 6).set_scenario(**SCENARIO), 1, steps=3)
    rec = g.record(["human", "random"])
    sc = rec["scenario"]
    assert rec["format_version"] == records.FORMAT_VERSION == 2
    assert rec["kingdom"] == Game("First Game", 2, 6).kingdom  # the dealt kingdom, 10 cards
    assert set(sc) == {"position", "rng"} and set(sc["position"]) == set(records.SCENARIO_ARGS)
    pos = sc["position"]
    assert pos["hands"] == [
        {"Copper": 1, "Village": 1, "Militia": 1},
        {"Copper": 2, "Estate": 1, "Moat": 1},
    ]
    assert pos["decks"] == [["Gold", "Smithy"], ["Silver"]]
    assert pos["supply"]["Witch"] == 4 and pos["supply"]["Province"] == 3
    assert pos["supply"]["Copper"] == 46 and len(pos["supply"]) == 18
    assert pos["trash"] == {"Curse": 2} and pos["turns_taken"] == [4, 4]
    assert (pos["phase"], pos["actions"], pos["buys"], pos["coins"]) == ("action", 1, 1, 1)
    assert rec["result"]["status"] == "running" and len(rec["decisions"]) == 3
    assert Game.from_record(rec).decisions() == g.decisions()
    _play_randomly(g, 2)  # on to the end: shuffles from the recorded RNG state
    rec = g.record(["human", "random"])
    back = records.load(records.save(rec, tmp_path / "scenario.json"))
    r = Game.from_record(back)
    assert r.log() == g.log() and r.result() == g.result() and g.done
    for name in ("zone", "deck", "pile", "game", "player", "rng"):
        np.testing.assert_array_equal(r.state[name], g.state[name])


def test_a_scenario_set_twice_and_after_play_replays():
    g = _play_randomly(Game("random", 2, 9), 7, steps=30)
    g.set_scenario(hands={0: ["Copper"] * 5, 1: ["Estate"]}, decks={1: ["Gold"] * 3})
    _play_randomly(g, 8, steps=5)
    g.set_scenario(
        hands={1: ["Silver"] * 3}, discards={0: ["Copper"] * 7}, turn_player=1, turns_taken=[2, 1]
    )
    _play_randomly(g, 9)
    rec = g.record()
    assert rec["kingdom"] == Game("random", 2, 9).kingdom
    r = Game.from_record(rec)
    assert r.log() == g.log() and r.result() == g.result()
    np.testing.assert_array_equal(r.state["zone"], g.state["zone"])


def test_format_1_records_still_replay():
    rec = _random_game(seed=8).record()
    v1 = _mutated(rec, lambda r: (r.pop("scenario"), r.update(format_version=1)))
    assert Game.from_record(v1).result() == rec["result"]
    both = _mutated(v1, lambda r: r.update(scenario=None))
    with pytest.raises(records.RecordError, match="this record says format_version 1"):
        records.check(both)


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda s: s.update(rng=-1), "scenario 'rng' must be an int 0..2**64-1"),
        (lambda s: s.update(rng=1 << 64), "scenario 'rng' must be an int 0..2**64-1"),
        (lambda s: s["position"].update(colour=1), "must be a dict of set_scenario's arguments"),
        (lambda s: s["position"].update(hands=[{"Copper": 1.5}]), "does not make a position"),
        (lambda s: s["position"].update(phase="night"), "phase must be one of"),
        (lambda s: s["position"]["decks"][0].append("Platinum"), "Platinum"),
        (lambda s: s["position"].update(coins=float("nan")), "finite numbers only"),
    ],
)
def test_bad_scenarios_are_refused_clearly(change, words):
    g = Game("First Game", 2, 0).set_scenario(hands={0: ["Village", "Copper"]})
    rec = _mutated(g.record(), lambda r: change(r["scenario"]))
    with pytest.raises(records.RecordError) as e:
        Game.from_record(rec)
    assert words in str(e.value)


def test_players_argument_checked():
    g = Game("First Game", 2, 0)
    with pytest.raises(ValueError, match="one entry per seat"):
        g.record(["human"])
    with pytest.raises(ValueError, match="players\\[1\\]"):
        g.record(["human", {"kind": "alien"}])


def test_views_hold_only_what_each_player_may_know(arena_records):
    _, recs = arena_records
    rec = recs[1]
    fs = replay.frames(rec)
    assert len(fs) == len(rec["decisions"]) + 1 and fs[-1]["result"] == rec["result"]
    for i, f in enumerate(fs):
        for p in range(3):
            v = f["views"][str(p)]
            assert set(v["hands"]) == set(v["decks"]) == set(v["discards"]) == {str(p)}
            mine = f["decision"] is not None and f["decision"]["player"] == p
            assert (v["legal"] is not None) == mine
            if mine:
                assert v["chosen"] == rec["decisions"][i]["action"]
            for line in v["log"]:
                for q in range(3):
                    if q != p and line.startswith(f"P{q} draws"):
                        assert line.endswith(("card", "cards")), line
        full = f["views"]["all"]
        assert set(full["hands"]) == {"0", "1", "2"}


def test_cli_save_games_and_replay(tmp_path, capsys):
    out = tmp_path / "games"
    args = ["simulate", "Militia", "Big Money", "--games", "50", "--quiet", "--seed", "2"]
    assert main([*args, "--kingdom", "random", "--save-games", "2", str(out)]) == 0
    files = sorted(out.glob("*.json"))
    assert [f.name for f in files] == ["game00000.json", "game00001.json"]
    capsys.readouterr()
    assert main(["replay", str(files[1]), "--viewer", "1"]) == 0
    text = capsys.readouterr().out
    assert "View: P1" in text and "Result: terminated" in text
    page = tmp_path / "g.html"
    assert main(["replay", str(files[1]), "--html", str(page)]) == 0
    body = page.read_text()
    assert "<script" in body and "http://" not in body and "https://" not in body
    with pytest.raises(SystemExit):
        main([*args, "--save-games", "0", str(out)])
    assert "N must be a whole number 1 to 10,000,000, got '0'" in capsys.readouterr().err
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    with pytest.raises(SystemExit):
        main(["replay", str(bad)])
    assert "not JSON" in capsys.readouterr().err


def test_cli_tournament_save_games(tmp_path):
    out = tmp_path / "t"
    assert (
        main(
            [
                "tournament",
                "Big Money",
                "Smithy",
                "Militia",
                "--games",
                "20",
                "--quiet",
                "--out",
                "",
                "--save-games",
                "1",
                str(out),
            ]
        )
        == 0
    )
    files = sorted(out.glob("*.json"))
    assert len(files) == 3  # one game of each of the 3 tables
    for f in files:
        rec = records.load(f)
        assert rec["meta"]["command"] == "tournament"
        Game.from_record(rec)


def test_gym_env_records_episodes(tmp_path):
    gymnasium = pytest.importorskip("gymnasium", reason="the train extra")
    env = gymnasium.make("Dominion-v2", opponents="Big Money", record_dir=tmp_path)
    env.reset(seed=1)
    done = False
    rng = np.random.default_rng(1)
    while not done:
        mask = env.unwrapped.action_masks()
        _, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        done = term or trunc
    path = env.unwrapped.recorder.last_path
    rec = records.load(path)
    seat = info["learner_seat"]
    assert rec["players"][seat]["name"] == "learner"
    assert rec["players"][1 - seat] == {"seat": 1 - seat, "kind": "bot", "name": "Big Money"}
    assert Game.from_record(rec).rewards[seat] == reward


def test_pettingzoo_env_records_games(tmp_path):
    from dominion_env.envs import pettingzoo_env

    env = pettingzoo_env.env(players=3, record_dir=tmp_path)
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    rec = records.load(env.unwrapped.recorder.last_path)
    assert Game.from_record(rec).result() == rec["result"]
    assert rec["result"]["status"] in ("terminated", "truncated")


# -- files and meta that are not records ---------------------------------------------------


def test_load_names_the_file_it_refuses(tmp_path):
    rec = _random_game(seed=3).record()
    good = records.save(rec, tmp_path / "good.json")
    cases = {
        "binary.json": (b"\x89PNG\r\n\x1a\n\xff\xfe" * 10, "not UTF-8 text"),
        "half.json": (good.read_bytes()[: len(good.read_bytes()) // 2], "is not JSON"),
        "list.json": (b"[1, 2]", "a record is a JSON object"),
        "deep.json": (b"[" * 100000 + b"]" * 100000, "nested too deep"),
    }
    for name, (raw, words) in cases.items():
        p = tmp_path / name
        p.write_bytes(raw)
        with pytest.raises(records.RecordError) as e:
            records.load(p)
        assert repr(str(p)) in str(e.value) and words in str(e.value), str(e.value)[:200]


@pytest.mark.parametrize(
    "meta, words",
    [
        ({"x": object()}, "meta['x'] is <object"),
        ({"x": float("nan")}, "finite numbers only"),
        ({1: "a"}, "the key 1"),
        ({"x": [1, {"y": {2, 3}}]}, "meta['x'][1]['y']"),
        ("not a dict", "'meta' must be a JSON object"),
    ],
)
def test_record_meta_must_be_json(meta, words):
    g = _random_game(seed=3)
    with pytest.raises(records.RecordError) as e:
        g.record(meta=meta)
    assert words in str(e.value)
    assert g.record(meta={"ok": [1, 2.5, None, True, {"a": "b"}]})["meta"]["ok"][1] == 2.5


def test_result_rewards_and_scores_are_checked():
    rec = _random_game(seed=3).record()
    for change in (
        lambda r: r["result"].update(rewards=["x"] * len(r["players"])),
        lambda r: r["result"].update(rewards=[7] * len(r["players"])),
        lambda r: r["result"].update(scores=[1.5] * len(r["players"])),
    ):
        with pytest.raises(records.RecordError, match="rewards must be -1, 0 or 1"):
            records.check(_mutated(rec, change))


def test_a_scenario_game_snapshot_keeps_its_record(tmp_path):
    g = _play_randomly(Game("First Game", 2, 6).set_scenario(**SCENARIO), 3, steps=4)
    record = g.record()
    other = Game("First Game", 2, 6).load(g.save(tmp_path / "s.npz"))
    assert other.record() == record
    # a snapshot from before records held scenarios: a flag, no position to record
    from dominion_env.snapshot import Snapshot

    snap = g.snapshot()
    old = Snapshot(snap.arrays, snap.settings, snap.ready, {**snap.extra, "_scenario": True})
    with pytest.raises(RuntimeError, match="position is unknown"):
        Game("First Game", 2, 6).restore(old).record()
    snap = Game("First Game", 2, 6).snapshot()
    dealt = Snapshot(snap.arrays, snap.settings, snap.ready, {**snap.extra, "_scenario": False})
    restored = Game("First Game", 2, 6).restore(dealt)
    assert restored._scenario == {} and restored.record()["scenario"] is None


def test_a_learner_mode_scenario_game_replays_with_the_bots_answers():
    g = Game("First Game", 2, 4, opponents=compile_bots("Big Money"), learner_seat=0)
    _play_randomly(g.set_scenario(**SCENARIO), 5)
    rec = g.record([{"kind": "policy", "name": "me"}, "Big Money"])
    assert {d["player"] for d in rec["decisions"]} == {0, 1}
    r = Game.from_record(rec)  # a plain Game: the record's decisions answer every seat
    assert r.log() == g.log() and r.result() == g.result()
