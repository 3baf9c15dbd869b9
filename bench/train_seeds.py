"""Robustness of training: ``dominion train``'s defaults on several seeds, each on its own cores.

    python bench/train_seeds.py --seeds 0 1 2 3 4 --minutes 60 --cores-per-run 2
    python bench/train_seeds.py --seeds 0 --minutes 5 --set bc_steps=0   # one change, measured

Each seed trains in its own process pinned to ``--cores-per-run`` cores (Numba threads and
torch's one thread inside them), as on the project's 2-core box, so runs in parallel on a
bigger machine measure what one run on 2 cores does. Afterwards every agent plays
``--eval-games`` games against each opponent on seeds training never used, and the script
prints per seed: learner steps, minutes, steps/s, win rate against each opponent with its 95%
interval, and the first minute at which the training-game win rate against Big Money Ultimate
reached 80% (from progress.csv). Everything lands in ``--out``/seed_N/.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

CHILD = """
import json, sys, time
from dominion_env.train.ppo import TrainConfig, train
from dominion_env.train.evaluate import evaluate
from dominion_env.train.policy import load_agent
cfg = TrainConfig(**json.loads(sys.argv[1]))
t0 = time.time()
t = train(cfg)
rows = evaluate(load_agent(cfg.out + "/agent.safetensors"), json.loads(sys.argv[2]),
                games=int(sys.argv[3]), players=cfg.players, kingdom=cfg.kingdom)
json.dump({"steps": t.steps, "seconds": t.seconds, "eval": rows,
           "history": [h for h in t.history if "steps" not in h]},
          open(cfg.out + "/result.json", "w"))
"""


def first_minute(progress_csv: Path, label: str, level: float):
    key = f"win_rate[{label}]"
    with open(progress_csv) as f:
        for row in csv.DictReader(f):
            if row.get(key) not in (None, "", "nan") and float(row[key]) >= level:
                return float(row["minutes"])
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[0, 1, 2, 3, 4])
    ap.add_argument("--minutes", type=float, default=60)
    ap.add_argument("--cores-per-run", type=int, default=2)
    ap.add_argument("--eval-games", type=int, default=4000)
    ap.add_argument("--opponents", nargs="+", default=["Big Money", "Big Money Ultimate"])
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=JSON",
        help="override a TrainConfig field, e.g. --set vp_shaping=0.05",
    )
    ap.add_argument(
        "--first-core",
        type=int,
        default=0,
        help="pin runs from this core on (to run several sweeps side by side)",
    )
    ap.add_argument("--out", default="runs/seeds")
    args = ap.parse_args(argv)
    cores = os.cpu_count() or 2
    procs = []
    for k, seed in enumerate(args.seeds):
        out = Path(args.out) / f"seed_{seed}"
        out.mkdir(parents=True, exist_ok=True)
        cfg = {
            "seed": seed,
            "minutes": args.minutes,
            "out": str(out),
            "name": f"seed_{seed}",
        }
        for item in args.set:
            key, _, value = item.partition("=")
            cfg[key] = json.loads(value)
        first = (args.first_core + k * args.cores_per_run) % cores
        cpus = ",".join(str(first + i) for i in range(args.cores_per_run))
        env = {
            **os.environ,
            "NUMBA_NUM_THREADS": str(args.cores_per_run),
            "OMP_WAIT_POLICY": "PASSIVE",
            "PYTHONUNBUFFERED": "1",
        }
        cmd = [
            "taskset",
            "-c",
            cpus,
            sys.executable,
            "-c",
            CHILD,
            json.dumps(cfg),
            json.dumps(args.opponents),
            str(args.eval_games),
        ]
        log = open(out / "log.txt", "w")
        procs.append((seed, out, subprocess.Popen(cmd, env=env, stdout=log, stderr=log)))
    t0 = time.time()
    for _, _, p in procs:
        p.wait()
    print(
        f"{len(procs)} runs, {args.cores_per_run} cores each, {args.minutes} min budget, "
        f"overrides {args.set or 'none'}; wall {time.time() - t0:.0f} s"
    )
    head = (
        f"{'seed':>4}{'steps':>11}{'min':>6}{'steps/s':>9}"
        + "".join(f"{o[:18]:>26}" for o in args.opponents)
        + f"{'80% vs BMU at min':>19}"
    )
    print(head)
    for seed, out, p in procs:
        res_path = out / "result.json"
        if p.returncode or not res_path.exists():
            print(f"{seed:>4}  failed (rc {p.returncode}); see {out / 'log.txt'}")
            continue
        res = json.loads(res_path.read_text())
        cells = "".join(
            f"{r['win_rate']:>9.1%} [{r['win_ci_low']:.1%},{r['win_ci_high']:.1%}]"
            for r in res["eval"]
        )
        reach = first_minute(out / "progress.csv", "Big Money Ultimate", 0.8)
        print(
            f"{seed:>4}{res['steps']:>11}{res['seconds'] / 60:>6.1f}"
            f"{res['steps'] / max(res['seconds'], 1e-9):>9.0f}{cells}"
            f"{reach if reach is not None else '-':>19}"
        )


if __name__ == "__main__":
    main()
