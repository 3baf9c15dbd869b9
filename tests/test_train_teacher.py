"""The search player as a teacher: imitation of the search
(``bc_expert="search:N"``) and expert iteration during PPO (``teacher_coef``): a smoke run of
each, the checks of their settings, and a resumed run that reproduces.

What each piece adds to an agent's strength is measured by ``bench/teacher.py`` and reported
on the docs site, never asserted here.
"""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")

from test_training_loop import read_without, tiny_config  # noqa: E402  (shared with it)

from dominion_env.cli import main as cli  # noqa: E402
from dominion_env.train import ppo  # noqa: E402
from dominion_env.train.ppo import PHASES, Trainer, train  # noqa: E402
from dominion_env.train.teacher import draw_teacher  # noqa: E402


def test_the_search_is_imitated_after_the_strongest_bot(tmp_path):
    seen = []
    cfg = tiny_config(tmp_path, bc_expert="search:8", bc_search_steps=64)
    t = train(cfg, progress=lambda steps, t: seen.append((t.phase, t.phase_done)))
    phases = [p for p, _ in seen]
    assert [p for k, p in enumerate(phases) if k == 0 or phases[k - 1] != p] == list(PHASES)
    for phase in PHASES:
        done = [d for p, d in seen if p == phase]
        assert done == sorted(done) and 0 <= done[0] and done[-1] <= 1
    # 64 search decisions: 2 steps of 32 games, every one learned
    assert [d for p, d in seen if p == "search data"] == [0.0, 0.5]
    rows = [h for h in t.history if h.get("phase") == "imitation"]
    assert [(r["expert"], r["decisions"]) for r in rows] == [
        ("strongest", 32 * 4),
        ("search:8", 64),
    ]
    assert all(0 <= r["agreement"] <= 1 for r in rows)


def test_a_bot_expert_runs_no_search_phase(tmp_path):
    seen = []
    train(tiny_config(tmp_path), progress=lambda steps, t: seen.append(t.phase))
    assert "search data" not in seen and "search epochs" not in seen
    assert seen[-1] == "PPO"


def test_expert_iteration_searches_the_learners_positions(tmp_path):
    cfg = tiny_config(
        tmp_path,
        bc_steps=0,
        teacher_coef=1.0,
        teacher_budget=8,
        teacher_positions=16,
        opponents={"Big Money": 1, "self": 1},
    )
    t = Trainer(cfg)
    teacher = draw_teacher(t.cfg, t.steps)
    assert len(teacher.searcher.name) and teacher.searcher.budget == 8
    t.learn()
    rows = [h for h in t.history if "steps" in h]
    assert len(rows) == 2
    for r in rows:
        assert np.isfinite(r["teacher_loss"]) and r["teacher_loss"] > 0
        assert 0 <= r["teacher_agreement"] <= 1 and 0 <= r["teacher_departures"] <= 1
        assert r["teacher_seconds"] > 0
    # off (the default): no search, no column, the same run as before the setting existed
    off = Trainer(tiny_config(tmp_path, bc_steps=0, opponents={"Big Money": 1, "self": 1}))
    off.learn()
    assert not any(k.startswith("teacher") for h in off.history for k in h)
    assert not all(
        torch.equal(a, b) for a, b in zip(t.net.parameters(), off.net.parameters(), strict=True)
    )


def test_teacher_positions_are_the_learners_own_decisions_with_a_choice(tmp_path):
    cfg = tiny_config(tmp_path, bc_steps=0, teacher_coef=1.0, teacher_budget=4)
    t = Trainer(cfg)
    teacher = draw_teacher(t.cfg, t.steps)
    obs, mask = t._reset(0)
    buf = ppo.Rollout(cfg.rollout, cfg.num_envs, t.obs_dim, mask.shape[1], t.sparse)
    t.collect(buf, obs, mask, teacher)
    teacher.search(t.groups)
    masks = buf.mask.reshape(-1, buf.mask.shape[2])
    assert 0 < len(teacher.rows) <= cfg.teacher_positions
    assert len(set(teacher.rows.tolist())) == len(teacher.rows)
    assert (masks[teacher.rows].sum(axis=1) > 1).all()
    assert masks[teacher.rows, teacher.action].all()  # the search's choices are legal


def test_a_resumed_run_with_the_teacher_reproduces(tmp_path):
    cfg = tiny_config(tmp_path, bc_steps=0, teacher_coef=0.5, teacher_budget=4, teacher_positions=8)
    train(cfg)
    runs = []
    for _ in range(2):
        r = Trainer.resume(tmp_path / "run", steps=2048)
        assert r.cfg.teacher_coef == 0.5 and r.cfg.teacher_positions == 8
        r.learn()
        runs.append(r)
    a, b = runs
    assert a.steps == b.steps == 2048
    for p, q in zip(a.net.parameters(), b.net.parameters(), strict=True):
        assert torch.equal(p, q)
    timed = ("minutes", "teacher_seconds", "seconds")  # the clock's, not the run's
    strip = [{k: v for k, v in h.items() if k not in timed} for h in a.history]
    assert strip == [{k: v for k, v in h.items() if k not in timed} for h in b.history]
    assert [h["teacher_loss"] for h in a.history if "steps" in h][-1] > 0


def test_a_checkpoint_from_before_the_teacher_settings_reads_without_them(tmp_path):
    added = ("bc_search_steps", "teacher_coef", "teacher_budget", "teacher_positions")
    cfg = read_without(tmp_path, *added)
    assert (cfg.teacher_coef, cfg.teacher_budget, cfg.teacher_positions) == (0.0, 200, 64)
    assert cfg.bc_search_steps == 16_384


@pytest.mark.parametrize(
    "setting, value, error, message",
    [
        ("bc_expert", "search:0", ValueError, r"search's budget must be .* got '0'"),
        ("bc_expert", "search:x", ValueError, r"search's budget must be .* got 'x'"),
        ("bc_expert", "No Such Bot", ValueError, r"bc_expert: .*No Such Bot.*'search:N'"),
        ("bc_expert", 3, TypeError, r"bc_expert must be .* got 3"),
        ("bc_search_steps", -1, ValueError, r"bc_search_steps must be an int 0\.\.1000000, got -1"),
        ("teacher_coef", -0.5, ValueError, r"teacher_coef must be a finite number 0\.\.100"),
        ("teacher_coef", float("nan"), ValueError, r"teacher_coef must be a finite number"),
        ("teacher_coef", True, TypeError, r"teacher_coef must be a number"),
        ("teacher_budget", 0, ValueError, r"teacher_budget must be an int 1\.\.1048575, got 0"),
        ("teacher_positions", 0, ValueError, r"teacher_positions must be an int 1\.\.65536"),
    ],
)
def test_bad_teacher_settings_are_refused_before_any_work(tmp_path, setting, value, error, message):
    with pytest.raises(error, match=message):
        Trainer(tiny_config(tmp_path, **{setting: value}))
    assert not (tmp_path / "run").exists()


def test_more_teacher_positions_than_a_rollout_holds_are_refused(tmp_path):
    cfg = tiny_config(tmp_path, teacher_coef=1.0, teacher_positions=513)
    with pytest.raises(ValueError, match=r"teacher_positions=513 is more than a rollout's 512"):
        Trainer(cfg)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--expert", "search:0"], "argument --expert: player 'search:0': search's budget"),
        (["--teacher-coef", "-1"], "argument --teacher-coef"),
        (["--teacher-budget", "0"], "argument --teacher-budget"),
        (["--teacher-positions", "0"], "argument --teacher-positions"),
        (["--bc-search-steps", "x"], "argument --bc-search-steps"),
        (["--teacher-coef", "1", "--teacher-positions", "40000", "--num-envs", "8"], "40000"),
    ],
)
def test_the_cli_refuses_bad_teacher_options_in_one_line(tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit) as e:
        cli(["train", "--out", str(tmp_path / "run"), "--steps", "10", *argv])
    err = capsys.readouterr().err
    assert e.value.code == 2 and "Traceback" not in err
    assert message in err.splitlines()[-1]
    assert not (tmp_path / "run").exists()


def test_the_cli_takes_the_teacher_options(tmp_path, capsys):
    out = tmp_path / "run"
    argv = (
        "--steps 512 --num-envs 32 --hidden 16 --bc-steps 64 --bc-search-steps 32 --eval-games 0 "
        "--teacher-coef 0.5 --teacher-budget 4 --teacher-positions 8 --expert search:4"
    )
    assert cli(["train", *argv.split(), "--opponent", "Big Money", "--out", str(out)]) == 0
    cfg = ppo.read_checkpoint(out / "checkpoint.safetensors")["config"]
    assert (cfg.bc_expert, cfg.bc_search_steps) == ("search:4", 32)
    assert (cfg.teacher_coef, cfg.teacher_budget, cfg.teacher_positions) == (0.5, 4, 8)
    err = capsys.readouterr().err
    at = [err.find(p) for p in PHASES]
    assert -1 not in at and at == sorted(at), err
