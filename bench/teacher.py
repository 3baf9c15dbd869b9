"""What the search player adds as a teacher: the same learner-step budget,
trained once per variant and seed, one run at a time, then evaluated greedy on unseen seeds.

    python bench/teacher.py --steps 1000000 --seeds 0 --eval-games 1000
    python bench/teacher.py --variants defaults exit --set teacher_coef=0.5   # one change

Variants (``VARIANTS``): ``defaults``; ``search-bc`` (imitation of the strongest bot, then of
the search at budget 200 on ``bc_search_steps`` decisions: ``bc_expert="search:200"``);
``exit`` (expert iteration during PPO: ``teacher_coef`` 0.1, each rollout's 64 positions
searched at budget 200; ``--set teacher_coef=1`` for the weight that hurt); ``both``.
``--set KEY=JSON`` overrides a TrainConfig field in every variant.

The budget is learner steps, not minutes: where the box is shared and loaded, a timed budget
would measure the load. Each run reports its training time all the same (imitation's
included), and the table prints what each variant costs beside the defaults' time of the same
seed. Runs go one after another (``nice``), each with every core; everything lands in
``--out``/VARIANT/seed_N/ (the agent, progress.csv, result.json).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from train_seeds import CHILD  # noqa: E402  (the same child: train, then evaluate)

VARIANTS = {
    "defaults": {},
    "search-bc": {"bc_expert": "search:200"},
    "exit": {"teacher_coef": 0.1, "teacher_budget": 200, "teacher_positions": 64},
    "both": {
        "bc_expert": "search:200",
        "teacher_coef": 0.1,
        "teacher_budget": 200,
        "teacher_positions": 64,
    },
}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variants", nargs="+", default=list(VARIANTS), choices=list(VARIANTS))
    ap.add_argument("--seeds", type=int, nargs="+", default=[0])
    ap.add_argument("--steps", type=int, default=1_000_000, help="PPO learner steps per run")
    ap.add_argument("--eval-games", type=int, default=1000)
    ap.add_argument("--opponents", nargs="+", default=["Big Money Ultimate", "strongest"])
    ap.add_argument("--set", action="append", default=[], metavar="KEY=JSON")
    ap.add_argument("--nice", type=int, default=10)
    ap.add_argument("--out", default="runs/teacher")
    ap.add_argument(
        "--quick",
        action="store_true",
        help="a small, fast run: checks the script works (figures not to cite)",
    )
    args = ap.parse_args(argv)
    if args.quick:
        args.variants, args.seeds, args.steps, args.eval_games = ["defaults"], [0], 2048, 50
        args.out = str(Path(args.out) / "quick")
    results = []
    for variant in args.variants:
        for seed in args.seeds:
            out = Path(args.out) / variant / f"seed_{seed}"
            out.mkdir(parents=True, exist_ok=True)
            cfg = {"seed": seed, "steps": args.steps, "out": str(out), "name": variant}
            cfg.update(VARIANTS[variant])
            for item in args.set:
                key, _, value = item.partition("=")
                cfg[key] = json.loads(value)
            cmd = ["nice", "-n", str(args.nice), sys.executable, "-c", CHILD, json.dumps(cfg)]
            cmd += [json.dumps(args.opponents), str(args.eval_games)]
            env = {**os.environ, "PYTHONUNBUFFERED": "1"}
            t0 = time.time()
            with open(out / "log.txt", "w") as log:
                rc = subprocess.run(cmd, env=env, stdout=log, stderr=log).returncode
            wall = time.time() - t0
            res_path = out / "result.json"
            if rc or not res_path.exists():
                print(f"{variant} seed {seed}: failed (rc {rc}); see {out / 'log.txt'}")
                continue
            res = json.loads(res_path.read_text())
            res.update(variant=variant, seed=seed, wall=wall)
            results.append(res)
            print(_row(res), flush=True)
    print(f"\n{os.cpu_count()} cores (shared: times are the load's too), {args.steps:,} PPO steps")
    print(_head(args.opponents))
    base = {}  # the defaults' training seconds per seed: this call's, else an earlier one's
    for seed in args.seeds:
        earlier = Path(args.out) / "defaults" / f"seed_{seed}" / "result.json"
        if earlier.exists():
            base[seed] = json.loads(earlier.read_text())["seconds"]
    for r in results:
        extra = r["seconds"] / base[r["seed"]] if r["seed"] in base else float("nan")
        print(_row(r) + f"{extra:>8.2f}x")


def _head(opponents) -> str:
    cells = "".join(f"{o[:22]:>28}" for o in opponents)
    return (
        f"{'variant':<10}{'seed':>5}{'steps':>10}{'imit s':>8}{'train min':>10}{cells}{'time':>9}"
    )


def _row(res) -> str:
    imitation = sum(h.get("seconds", 0) for h in res["history"][-1:] if h.get("phase"))
    cells = "".join(
        f"{r['win_rate']:>11.1%} [{r['win_ci_low']:.1%},{r['win_ci_high']:.1%}]"
        for r in res["eval"]
    )
    return (
        f"{res['variant']:<10}{res['seed']:>5}{res['steps']:>10}{imitation:>8.0f}"
        f"{res['seconds'] / 60:>10.1f}{cells}"
    )


if __name__ == "__main__":
    main()
