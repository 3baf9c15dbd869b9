"""The self-play loop's generations measured: each against the one before, Big Money Ultimate
and the strongest library bot, on games no generation trained on.

    python bench/bench_selfplay.py [--generations 3] [--games 64] [--budget 32] [--depth 4]
        [--league 0.25] [--eval 200] [--init ppo-pool] [--seed 0] [--out runs/bench-selfplay]
        [--device cpu] [--read] [--plot FILE.png]

Runs a loop (``train/selfplay.py``; the settings above, the rest its defaults) one generation
at a time, keeping each generation's network as ``out/genK.safetensors`` (generation 0 is
the init agent), or reads the genK.safetensors files an earlier run of this script left in ``--out``
(``--read``). Then, per generation K >= 1, the network playing greedily (as an agent file
plays everywhere):

  vs previous  K against K-1 on ``--eval`` deals played twice with the seats turned (the same
               seeds: ``play_mixed`` with the seats swapped), win rate with its 95% interval;
  vs BMU       ``evaluate`` against Big Money Ultimate, ``--eval`` games;
  vs strongest ``evaluate`` against the strongest library bot of each random kingdom.

The evaluation seeds (``evaluate.EVAL_SEED`` and up) are far from the loop's.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

from dominion_env.analysis.arena import wilson
from dominion_env.analysis.mixed import play_mixed
from dominion_env.train.evaluate import EVAL_SEED, evaluate
from dominion_env.train.policy import AGENT_SUFFIX, load_agent, save_agent
from dominion_env.train.selfplay import SelfPlay, SelfPlayConfig, check_init


def paired(new, old, deals: int, seed: int) -> tuple[int, int]:
    """(new's wins, games) over ``deals`` 2-player deals each played with both seatings."""
    wins = 0
    for turn in (0, 1):
        seat = (np.arange(deals) + turn) % 2
        seats = np.stack([seat, 1 - seat], axis=1)  # seat s holds player 0 (new) where s == 0
        res = play_mixed([new, old], deals, 2, seed=seed, seat_player=seats)
        wins += int((res.reward[np.arange(deals), seat] == 1).sum())
    return wins, 2 * deals


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--generations", type=int, default=3)
    ap.add_argument("--games", type=int, default=64, help="games per generation")
    ap.add_argument("--batch", type=int, default=32, help="games played at once")
    ap.add_argument("--budget", type=int, default=32, help="the search's simulations")
    ap.add_argument("--depth", type=int, default=4, help="network decisions per simulation")
    ap.add_argument("--league", type=float, default=0.25)
    ap.add_argument("--eval", type=int, default=200, help="games (deals for vs previous)")
    ap.add_argument("--init", default="ppo-pool")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="runs/bench-selfplay")
    ap.add_argument("--device", default="cpu")
    ap.add_argument(
        "--read", action="store_true", help="measure the genK.safetensors files in --out"
    )
    ap.add_argument("--plot", default=None, help="also draw the figures as a curve (a PNG)")
    ap.add_argument(
        "--quick", action="store_true", help="1 generation of 8 games, budget 4, 8 deals measured"
    )
    a = ap.parse_args()
    if a.quick:
        a.generations, a.games, a.batch, a.budget, a.depth, a.eval = 1, 8, 8, 4, 1, 8
        a.league = 0.5
    out = Path(a.out)
    if not a.read:
        cfg = SelfPlayConfig(
            generations=a.generations,
            games=a.games,
            batch=a.batch,
            budget=a.budget,
            depth=a.depth,
            league=a.league,
            eval_games=0,  # measured below, larger
            init=a.init,
            seed=a.seed,
            out=str(out),
            device=a.device,
        )
        loop = SelfPlay(cfg, check_init(cfg))
        save_agent(loop.net, loop._info("gen0"), out / f"gen0{AGENT_SUFFIX}")
        t0 = time.perf_counter()
        while not loop.finished():
            row = loop.step(lambda: time.perf_counter() - t0)
            loop.save()
            gen = f"gen{loop.generation}"
            save_agent(loop.net, loop._info(gen), out / f"{gen}{AGENT_SUFFIX}")
            print(f"generation {loop.generation}: " + ", ".join(f"{k} {v}" for k, v in row.items()))
    gens = sorted(int(p.stem[3:]) for p in out.glob(f"gen*{AGENT_SUFFIX}") if p.stem[3:].isdigit())
    agents = {k: load_agent(out / f"gen{k}{AGENT_SUFFIX}") for k in gens}
    print(f"\n{'gen':>3}  {'vs previous':>22}  {'vs BMU':>22}  {'vs strongest':>22}")

    def cell(w, n):
        lo, hi = wilson(w, n)
        return f"{w / n:6.1%} [{lo:.0%}-{hi:.0%}] n={n}"

    curves = {"vs previous": [], "vs BMU": [], "vs strongest": []}
    for k in gens:
        rows = evaluate(
            agents[k], ["Big Money Ultimate", "strongest"], games=a.eval, seed=EVAL_SEED
        )
        bmu, strong = (cell(r["wins"], r["games"]) for r in rows)
        curves["vs BMU"].append((k, rows[0]["wins"], rows[0]["games"]))
        curves["vs strongest"].append((k, rows[1]["wins"], rows[1]["games"]))
        prev = "-"
        if k:
            w, n = paired(agents[k], agents[k - 1], a.eval // 2, EVAL_SEED)
            prev = cell(w, n)
            curves["vs previous"].append((k, w, n))
        print(f"{k:>3}  {prev:>22}  {bmu:>22}  {strong:>22}", flush=True)
    if a.plot:
        plot(curves, a.plot, f"{a.games} games a generation, budget {a.budget}, depth {a.depth}")


def plot(curves: dict, path: str, title: str) -> None:
    """Each figure per generation with its 95% interval, and the 55% target of a generation
    against the one before."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 3.6))
    for label, points in curves.items():
        if not points:
            continue
        k = [p[0] for p in points]
        rate = np.array([p[1] / p[2] for p in points])
        lo, hi = np.array([wilson(p[1], p[2]) for p in points]).T
        ax.errorbar(k, rate, yerr=[rate - lo, hi - rate], marker="o", capsize=3, label=label)
    ax.axhline(0.55, color="grey", ls="--", lw=1, label="target vs previous (55%)")
    ax.set(xlabel="generation", ylabel="win rate", title=title)
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.legend(fontsize=8, loc="lower left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
