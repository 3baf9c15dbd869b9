"""``bench/gpu_check.py``: without CUDA it stops before any work with status 2 and says why;
``--cpu`` runs the same code path (every set-up, the main job, its evaluation) at small sizes.
Its figures come from a GPU machine and go to the docs, never asserted here."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

torch = pytest.importorskip("torch", reason="the train extra (torch) is not installed")

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))  # as `python bench/gpu_check.py` runs it: beside bench_training
spec = importlib.util.spec_from_file_location("bench_gpu_check", BENCH / "gpu_check.py")
gpu_check = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gpu_check)


@pytest.mark.skipif(torch.cuda.is_available(), reason="this machine has CUDA: nothing to refuse")
def test_a_missing_gpu_is_refused_before_any_work(capsys):
    assert gpu_check.main([]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("gpu_check: no CUDA device here (torch ")
    assert "--cpu runs the same code path on the CPU at small sizes" in captured.err


def test_the_cpu_path_measures_every_setup_and_the_main_job(tmp_path, capsys):
    out = tmp_path / "figures.json"
    argv = ["--cpu", "--seconds", "0.05", "--minutes", "0.05", "--eval-games", "4"]
    assert gpu_check.main([*argv, "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    figures = json.loads(out.read_text())
    assert list(figures["loop"]) == [label for label, *_ in gpu_check.SETUPS]
    for label, rates in figures["loop"].items():
        assert set(rates) == {"rollout", "update", "whole loop"}
        assert all(v > 0 for v in rates.values()), label
        assert printed.count(label) >= 1
    job = figures["main job"]
    assert job["num_envs"] == gpu_check.SMALL_GAMES and job["steps"] > 0
    assert set(job["win rates"]) == {"Big Money", "Big Money Ultimate", "strongest"}
    assert all(0 <= w <= 1 for w in job["win rates"].values())
    assert "whole loop against the CPU baseline:" in printed
