"""Scale-out on Ray: the same tournament and the same games as the local run, on a local cluster.

The test starts a two-CPU Ray cluster on this machine (``ray.init``) and stops it after. The
workers share this process's kernel cache (``executor.ray_cache_dir``), warmed by the local
runs first, so they load the kernels instead of compiling them.
"""

import numpy as np
import pytest

from dominion_env.agents import compile_bots, get_bot
from dominion_env.analysis.arena import play_games
from dominion_env.analysis.executor import RayMap, local_map
from dominion_env.analysis.tournament import run_tournament
from dominion_env.cli import main

ray = pytest.importorskip("ray", reason="Ray is the optional 'ray' extra: pip install -e '.[ray]'")

BOTS = ["Big Money", "Big Money Ultimate", "Smithy", "Random"]


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield RayMap()  # joins the cluster started above
    finally:
        ray.shutdown()


def test_tournament_on_ray_equals_local(cluster):
    for players, bots in ((2, BOTS), (3, BOTS + ["Double Witch"])):
        here = run_tournament(bots, games=60, players=players, seed=3, map=local_map)
        there = run_tournament(bots, games=60, players=players, seed=3, map=cluster)
        for field in ("games", "wins", "ties", "truncated", "seats", "won", "elo"):
            assert np.array_equal(getattr(here, field), getattr(there, field)), field
        assert [(t.truncated, t.mean_turns) for t in here.tables] == [
            (t.truncated, t.mean_turns) for t in there.tables
        ]
        assert here.wins.sum() > 0


def test_chunks_of_games_on_ray_equal_the_local_run(cluster):
    table = compile_bots([get_bot("Big Money"), get_bot("Smithy")])
    here = play_games(table, 700, 2, "random", seed=4)
    done = []
    there = play_games(
        table, 700, 2, "random", seed=4, chunk=150, map=cluster, progress=done.append
    )
    assert done == [150, 150, 150, 150, 100]  # five pieces, in order
    for field in ("seat_bot", "reward", "turns", "status"):
        a, b = getattr(here, field), getattr(there, field)
        assert a.dtype == b.dtype and np.array_equal(a, b), field


def test_cli_ray_option(cluster, capsys, tmp_path):
    argv = ["tournament", "Big Money", "Smithy", "--games", "40", "--quiet", "--out", ""]
    assert main(argv) == 0
    here = capsys.readouterr().out
    assert main([*argv, "--ray"]) == 0  # joins the running cluster
    there = capsys.readouterr().out
    assert here.split("\n")[:-2] == there.split("\n")[:-2]  # all but the elapsed time


def test_evaluation_on_ray_equals_local(cluster):
    pytest.importorskip("torch", reason="a trained agent needs the train extra")
    from dominion_env.train import evaluate, load_agent  # optional extra (torch)

    agent = load_agent("ppo-pool")
    args = (["Big Money", "strongest"], 40)
    here = evaluate(agent, *args, batch=15, map=local_map)
    there = evaluate(agent, *args, batch=15, map=cluster)
    assert here == there
    assert sum(r["wins"] for r in here) > 0


def test_cli_evaluate_ray_option(cluster, capsys):
    pytest.importorskip("torch", reason="a trained agent needs the train extra")
    argv = ["evaluate", "ppo-pool", "--opponent", "Big Money", "--games", "40", "--json"]
    assert main(argv) == 0
    here = capsys.readouterr().out
    assert main([*argv, "--ray"]) == 0  # joins the running cluster
    there = capsys.readouterr().out
    assert here == there and '"wins"' in here
