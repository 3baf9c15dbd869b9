"""The self-play loop on the guided search (``dominion selfplay``): a generation's data has the
right shapes and its targets are distributions over the legal actions, the loss falls on a
fixed batch, a run stopped and resumed ends bit for bit where a run straight through does, the
league's opponents are played, and bad settings are refused before any work. Strength per
generation: bench/bench_selfplay.py."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import torch

from dominion_env import VecGame, cli
from dominion_env.agents import BOTS, compile_bots, kingdom_for
from dominion_env.engine.layout import NUM_ACTIONS
from dominion_env.engine.observation import obs_size
from dominion_env.train import selfplay as selfplay_module
from dominion_env.train import tensorfile
from dominion_env.train.opponents import LIBRARY_BOTS
from dominion_env.train.policy import AgentInfo, load_agent, make_net, save_agent
from dominion_env.train.replay_buffer import Decisions
from dominion_env.train.selfplay import (
    LEAGUE,
    SelfPlay,
    SelfPlayConfig,
    read_checkpoint,
    selfplay,
)
from dominion_env.train.tensorfile import AgentFileError


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A small agent file, trained (as it says) with shaped returns."""
    torch.manual_seed(0)
    path = tmp_path_factory.mktemp("init") / "tiny.pt"
    info = AgentInfo("tiny", 2, (16,), True, {"config": {"vp_shaping": 0.02}})
    return str(save_agent(make_net(2, "mlp", (16,)), info, path))


def _cfg(tiny, tmp_path, **kw):
    base = dict(games=4, batch=2, budget=4, depth=1, sample_moves=2, league=0.0, eval_games=2)
    return SelfPlayConfig(init=tiny, out=str(tmp_path / "run"), device="cpu", **{**base, **kw})


def _loop(tiny, tmp_path, **kw):
    cfg = _cfg(tiny, tmp_path, **kw)
    return SelfPlay(cfg, load_agent(cfg.init))


def test_a_generation_records_every_searched_decision(tiny, tmp_path):
    loop = _loop(tiny, tmp_path)
    data, league = loop.play(1, lambda: 0.0)
    n = len(data)
    assert n > 40 and data.idx.shape[0] == data.val.shape[0] == n
    assert data.mask.shape == data.policy.shape == (n, NUM_ACTIONS)
    assert data.policy.dtype == np.float32 and data.z.shape == data.seat.shape == (n,)
    assert np.allclose(data.policy.sum(axis=1), 1.0, atol=1e-5)
    assert (data.policy[~data.mask] == 0).all() and (data.policy >= 0).all()
    assert set(np.unique(data.seat)) == {0, 1}  # self-play: the search plays both seats
    assert set(np.unique(data.z)) <= {-1.0, 0.0, 1.0}
    # each decision's VP margin is its seat's VP less the other's, whole, and moves in games;
    # the value learns the shaped return-to-go from it, as the init's head was trained
    assert (data.margin == np.round(data.margin)).all() and data.margin.std() > 0
    target = loop.value_target(data)
    np.testing.assert_allclose(target, data.z - 0.02 * data.margin, rtol=0, atol=1e-6)
    assert all(not r for r in league.values())  # league 0: no league game
    # the observations come back exactly from their sparse rows
    dense = data.dense(torch.arange(n), obs_size(2), "cpu").numpy()
    again = Decisions.of(dense, data.mask, data.policy, data.seat, np.zeros(n), data.margin)
    assert (again.dense(torch.arange(n), obs_size(2), "cpu").numpy() == dense).all()
    assert np.count_nonzero(dense) == np.count_nonzero(data.val)


def test_the_loss_falls_on_a_fixed_batch(tiny, tmp_path):
    loop = _loop(tiny, tmp_path, epochs=20, minibatch=64, lr=1e-3)
    data, _ = loop.play(1, lambda: 0.0)
    rows = torch.arange(len(data))
    args = (torch.from_numpy(data.mask), torch.from_numpy(data.policy), torch.from_numpy(data.z))
    with torch.no_grad():
        before = loop.losses(data, rows, *args)
    loop._learn(data, 7)
    with torch.no_grad():
        after = loop.losses(data, rows, *args)
    assert after[0] < 0.9 * before[0] and after[1] < 0.9 * before[1]


def test_a_resumed_run_ends_where_a_straight_run_does(tiny, tmp_path):
    straight = selfplay(_cfg(tiny, tmp_path / "a", generations=2, league=0.75, window=2))
    first = selfplay(_cfg(tiny, tmp_path / "b", generations=1, league=0.75, window=2))
    assert first.generation == 1
    resumed = selfplay(_cfg(tiny, tmp_path / "b", generations=2, league=0.75), resume=True)
    assert resumed.generation == 2
    for a, b in zip(
        straight.net.state_dict().values(), resumed.net.state_dict().values(), strict=True
    ):
        assert torch.equal(a, b)
    for a, b in zip(straight.window.generations, resumed.window.generations, strict=True):
        for f in ("idx", "val", "mask", "policy", "seat", "z"):
            assert np.array_equal(getattr(a, f), getattr(b, f))

    def figures(loop):
        return [{k: v for k, v in h.items() if k != "minutes"} for h in loop.history]

    assert figures(straight) == figures(resumed)
    saved = read_checkpoint(tmp_path / "b" / "run" / "checkpoint.safetensors")
    assert saved["generation"] == 2 and len(saved["past"]) == 3
    agent = load_agent(tmp_path / "b" / "run" / "agent.safetensors")
    # its value keeps the init's meaning (a shaped return): the search reads it with the same c
    assert agent.info.trained["config"]["vp_shaping"] == 0.02


def test_a_run_stopped_mid_generation_resumes_at_its_next_batch(tiny, tmp_path, monkeypatch):
    """A generation under way is saved after its batches (``SAVE_SECONDS`` apart; 0 here): a
    stop during its third batch loses only that batch, and the resumed run ends where a run
    straight through does, bit for bit."""
    kw = dict(games=6, batch=2, generations=1, league=0.5, window=2)
    straight = selfplay(_cfg(tiny, tmp_path / "a", **kw))
    monkeypatch.setattr(selfplay_module, "SAVE_SECONDS", 0.0)
    played = []
    real = SelfPlay.play_batch

    def stop_in_third_batch(self, search, kinds, g, b):
        played.append(b)
        if b == 2 and len(played) == 3:
            raise KeyboardInterrupt
        return real(self, search, kinds, g, b)

    monkeypatch.setattr(SelfPlay, "play_batch", stop_in_third_batch)
    with pytest.raises(KeyboardInterrupt):
        selfplay(_cfg(tiny, tmp_path / "b", **kw))
    path = tmp_path / "b" / "run" / "checkpoint.safetensors"
    saved = read_checkpoint(path)
    assert saved["generation"] == 0 and saved["partial"]["batches"] == 2
    resumed = selfplay(_cfg(tiny, tmp_path / "b", **kw), resume=True)
    assert played == [0, 1, 2, 2]  # the resumed run played only the lost batch
    assert resumed.generation == 1 and resumed.partial is None
    nets = (straight.net.state_dict().values(), resumed.net.state_dict().values())
    for a, b in zip(*nets, strict=True):
        assert torch.equal(a, b)
    for f in ("idx", "val", "policy", "seat", "z", "margin"):
        a, b = (getattr(x.window.generations[0], f) for x in (straight, resumed))
        assert np.array_equal(a, b), f
    assert read_checkpoint(path)["partial"] is None


def test_a_bad_partial_generation_is_refused(tiny, tmp_path, monkeypatch):
    """The generation under way in a checkpoint is checked like the rest: its place in the run,
    its batch count, its league results and its decisions' tensors."""
    monkeypatch.setattr(selfplay_module, "SAVE_SECONDS", 0.0)
    real = SelfPlay.play_batch

    def stop_in_second_batch(self, search, kinds, g, b):
        if b == 1:
            raise KeyboardInterrupt
        return real(self, search, kinds, g, b)

    monkeypatch.setattr(SelfPlay, "play_batch", stop_in_second_batch)
    with pytest.raises(KeyboardInterrupt):
        selfplay(_cfg(tiny, tmp_path, games=6, batch=2, generations=1, league=0.5))
    path = tmp_path / "run" / "checkpoint.safetensors"
    tensors, doc = tensorfile.read(path, "selfplay")
    assert doc["partial"]["batches"] == 1
    bad = tmp_path / "bad.safetensors"
    for change, says in [
        ({"generation": 3}, "partial must be None or the next generation"),
        ({"batches": 3}, "partial must be None or the next generation"),  # all 3: not partial
        ({"league": {"past": [2.0], "bots": [], "optimized": []}}, "partial must be None"),
        ({"decisions": 10**6}, "idx"),
    ]:
        tensorfile.write(bad, "selfplay", tensors, {**doc, "partial": {**doc["partial"], **change}})
        with pytest.raises(AgentFileError, match=says):
            read_checkpoint(bad)
    tensorfile.write(bad, "selfplay", tensors, {**doc, "partial": None})  # tensors left over
    with pytest.raises(AgentFileError, match="partial.* tensors but no partial generation"):
        read_checkpoint(bad)


@pytest.mark.parametrize("players", [3, 4])
def test_a_generation_at_more_players(tmp_path, players):
    """3-6 players: every seat of a self-play row is searched, a league row's learner holds one
    seat, and the measure against the previous network plays the same table size."""
    torch.manual_seed(1)
    info = AgentInfo("tiny", players, (16,), True, {"config": {"vp_shaping": 0.02}})
    init = str(save_agent(make_net(players, "mlp", (16,)), info, tmp_path / "init.pt"))
    loop = selfplay(
        _cfg(init, tmp_path, players=players, games=6, batch=6, league=0.5, generations=1)
    )
    data = loop.window.generations[0]
    assert set(data.seat) == set(range(players))
    row = loop.history[0]
    assert 0 <= row["win_rate[previous]"] <= 1 and "win_rate[bots]" in row
    assert load_agent(tmp_path / "run" / "agent.safetensors").info.players == players


def test_the_league_opponents_are_played(tiny, tmp_path):
    """A generation's games are batches of ``batch`` rows, self-play and the league side by side
    in one VecGame; each league row's learner seat alone is recorded."""
    loop = _loop(tiny, tmp_path, games=6, batch=4, league=0.5)
    assert loop.plan(1) == [["self", "self", "self", "past"], ["bots", "optimized"]]
    kinds = ["self", *LEAGUE, "bots", "past"]
    data, results = loop.play_batch(loop.search(0), kinds, 1, 1)
    assert {k: len(r) for k, r in results.items()} == {"past": 2, "bots": 2, "optimized": 1}
    assert all(set(r) <= {-1.0, 0.0, 1.0} for r in results.values())
    learner = (np.arange(6) + 1) % 2  # a league row's learner seat turns with the row
    league = data.game > 0
    assert (data.seat[league] == learner[data.game[league]]).all()
    assert set(data.seat[~league]) == {0, 1} and set(data.game) == set(range(6))
    row = loop.step()
    assert {f"win_rate[{k}]" for k in (*LEAGUE, "previous")} <= set(row)


def test_each_league_row_its_own_opponent(tiny, tmp_path):
    """A "bots" row plays its own library bot on its own kingdom, one compiled call for every
    bot row; a "past" row its own past network."""
    loop = _loop(tiny, tmp_path)
    loop.past.append(loop._copy(make_net(2, "mlp", (16,))))  # a second past network
    kinds = ["bots"] * 6 + ["past"] * 6
    league = loop.league_rows(kinds, 11)
    drawn = [LIBRARY_BOTS[b] for b in league.bots[:6]]
    assert len(set(drawn)) > 1 and len(set(league.past[6:])) > 1
    kingdoms = league.kingdoms()
    assert kingdoms[:6] == [tuple(kingdom_for([BOTS[b]])) for b in drawn]
    assert kingdoms[6:] == ["random"] * 6
    vec = VecGame(12, 2, row_kingdoms=kingdoms, scale_observations=True, autoreset=False)
    vec.reset(3)
    for _ in range(30):  # into the games, where the bots' choices differ
        vec.step(vec.random_actions())
    rows = np.flatnonzero(vec.running)
    got = league.answer(vec, rows)
    for i, g in enumerate(rows):
        if g < 6:
            assert got[i] == vec.bot_actions(compile_bots(drawn[g]), 0)[g]
        else:
            agent = loop.agent(loop.past[league.past[g]])
            assert got[i] == agent.act(vec.observation[[g]], vec.action_mask[[g]])[0]


def test_a_checkpoint_is_checked_before_use(tiny, tmp_path):
    selfplay(_cfg(tiny, tmp_path, generations=1))
    with pytest.raises(AgentFileError, match="not a selfplay file"):
        read_checkpoint(tmp_path / "run" / "agent.safetensors")
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "checkpoint.safetensors").write_bytes(b"\x80\x04junk")
    with pytest.raises(AgentFileError, match="pickle"):
        read_checkpoint(tmp_path / "x" / "checkpoint.safetensors")


@pytest.mark.parametrize(
    "argv, says",
    [
        (["--league", "1.5"], "--league"),
        (["--games", "0"], "--games"),
        (["--budget", "x"], "--budget"),
        (["--init", "nosuch"], "--init"),
        (["--games", "4", "--league", "0.5"], "league=0.5 of games=4"),
        (["--device", "tpu"], "--device"),
        (["--resume"], "--resume"),
    ],
)
def test_bad_settings_exit_2_with_one_line(tmp_path, capsys, argv, says):
    with pytest.raises(SystemExit) as e:
        cli.main(["selfplay", "--out", str(tmp_path / "run"), *argv])
    assert e.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert says in err[-1] and err[-1].startswith("dominion selfplay: error:")
    assert not (tmp_path / "run").exists()


def test_check_config_names_the_setting(tiny, tmp_path):
    cfg = _cfg(tiny, tmp_path)
    for field, bad in (("window", 0), ("lr", float("nan")), ("sample_moves", -1)):
        with pytest.raises((ValueError, TypeError), match=field):
            selfplay(dataclasses.replace(cfg, **{field: bad}))


def test_the_command_loads_the_init_once_and_reads_a_checkpoint_once(tiny, tmp_path, monkeypatch):
    from dominion_env.train import selfplay_checkpoint, selfplay_settings

    loads, reads = [], []
    load, read = selfplay_settings.load_agent, selfplay_checkpoint.read_checkpoint
    monkeypatch.setattr(selfplay_settings, "load_agent", lambda *a: loads.append(a) or load(*a))
    for module in (selfplay_module, selfplay_checkpoint):  # every place that reads one
        monkeypatch.setattr(module, "read_checkpoint", lambda p: reads.append(p) or read(p))
    out = str(tmp_path / "run")
    argv = ["selfplay", "--out", out, "--init", tiny, "--games", "2", "--batch", "2"]
    argv += ["--budget", "2", "--depth", "1", "--league", "0", "--eval-games", "2", "--quiet"]
    assert cli.main([*argv, "--generations", "1", "--device", "cpu"]) == 0
    assert len(loads) == 1 and reads == []
    assert cli.main(["selfplay", "--out", out, "--resume", "--generations", "2", "--quiet"]) == 0
    assert len(loads) == 1 and len(reads) == 1
    assert read(tmp_path / "run" / "checkpoint.safetensors")["generation"] == 2


def test_a_checkpoint_that_is_not_a_regular_file_is_named(tiny, tmp_path, capsys):
    out = tmp_path / "run"
    (out / "checkpoint.safetensors").mkdir(parents=True)
    with pytest.raises(AgentFileError, match="is a directory"):
        selfplay(_cfg(tiny, tmp_path), resume=True)  # not a fresh run in its place
    with pytest.raises(SystemExit) as e:
        cli.main(["selfplay", "--out", str(out), "--resume"])
    assert e.value.code == 2 and "is a directory" in capsys.readouterr().err
