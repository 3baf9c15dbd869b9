"""``dominion selfplay``: Expert Iteration on the guided search: generations of searched games
(self-play and a league), the network learning the search's improved policy and the games'
results, saved in --out as it goes (the work: ``train.selfplay.selfplay``). --resume and the
run's folder work as ``train``'s (``runs``)."""

from __future__ import annotations

import sys
from dataclasses import asdict
from pathlib import Path

from tqdm import tqdm

from ..arguments import int_in, number_in
from ..train import selfplay as sp
from ..train.device import check_device, describe
from ..train.settings import MAX_MINUTES, MIN_MINUTES
from .options import add_quiet, add_run_folder, add_seed
from .runs import (
    check_new_folder,
    check_place,
    saved_settings,
    stopped_status,
    terminate_as_interrupt,
)

# option -> its help; bounds from ``selfplay``'s INT_BOUNDS and NUMBER_BOUNDS
SETTING_OPTIONS = {
    "players": "players per game",
    "games": "games per generation",
    "batch": "games played at once",
    "budget": "the guided search's simulations per decision",
    "depth": "network decisions per simulation",
    "sample_moves": "each seat's first decisions of a game drawn from the improved policy",
    "league": "the share of games against the league (past networks, library bots, optimized)",
    "max_past": "past generations' networks kept for the league",
    "window": "generations of decisions learned from",
    "epochs": "passes over the window per generation",
    "minibatch": "decisions per gradient step",
    "lr": "Adam's learning rate",
    "eval_games": "deals (each played twice, seats turned) of the new network against the "
    "previous one, per generation (0: none)",
}
BAR = "{desc} {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}{postfix}]"


def _bound(x) -> str:
    """A bound as --help shows it: whole numbers with thousands separators (1,048,576, not
    1.04858e+06), others as they read."""
    return f"{x:,}" if isinstance(x, int) else f"{x:g}"


def add_parser(sub) -> None:
    d = sp.SelfPlayConfig()
    p = sub.add_parser(
        "selfplay",
        help="self-play that learns from the guided search (Expert Iteration)",
        description="Generations of games where the guided search with the current network "
        "decides for the learner (self-play, and a league: past networks, library bots on their "
        "own kingdoms, the optimizer's bots); the network then learns the search's improved "
        "policy and the games' results (train/selfplay.py). Writes agent.safetensors, "
        "checkpoint.safetensors and progress.csv to --out after every generation, and within a "
        "generation every two minutes (after a batch); Ctrl-C or SIGTERM loses only what was "
        "played since, and --resume goes on from there. Measured so far, its generations do not "
        "beat their predecessors on a 2-core box: a run gives no stronger agent than its init "
        "yet (docs/results/training.md).",
    )
    p.add_argument(
        "--generations",
        type=int_in(1, 10**6),
        default=None,
        help=f"generations in all (default {sp.DEFAULT_GENERATIONS}, or no limit with --minutes)",
    )
    p.add_argument(
        "--minutes",
        type=number_in(MIN_MINUTES, MAX_MINUTES, " minutes"),
        default=None,
        help="time in all; a generation that starts is played to its end (default: none)",
    )
    bounds = {n: (lo, hi, int_in) for n, lo, hi in sp.INT_BOUNDS}
    bounds.update({n: (lo, hi, number_in) for n, lo, hi in sp.NUMBER_BOUNDS})
    for field, what in SETTING_OPTIONS.items():
        lo, hi, kind = bounds[field]
        p.add_argument(
            "--" + field.replace("_", "-"),
            type=kind(lo, hi),
            default=None,
            help=f"{what}, {_bound(lo)} to {_bound(hi)} (default {_bound(getattr(d, field))})",
        )
    p.add_argument(
        "--init",
        default=None,
        metavar="AGENT",
        help=f"the agent the run starts from: a shipped agent's name or an agent file "
        f"(default {d.init})",
    )
    add_seed(p, None, f"0 to 2**63-1 (default {d.seed})")
    add_run_folder(
        p,
        d.out,
        resume_help="continue from --out/checkpoint.safetensors",
        device_help="where the network acts and learns: auto (the default: cuda where present, "
        "else cpu), cpu, cuda or cuda:N (a resumed run may change it)",
    )
    add_quiet(p, help=None)
    p.set_defaults(run=run, check=check, parser=p)


def check(args) -> None:
    given = {f: getattr(args, f) for f in (*SETTING_OPTIONS, "init", "seed", "name")}
    given = {f: v for f, v in given.items() if v not in (None, "")}
    args.checkpoint = args.init_agent = None

    def saved_config(out):  # the checkpoint is read once: here, and handed to the run
        args.checkpoint = sp.saved_checkpoint(out)
        return asdict(args.checkpoint["config"])

    if args.resume:
        cfg = sp.SelfPlayConfig(**saved_settings(args, saved_config, given))
    else:
        check_new_folder(args)
        cfg = sp.SelfPlayConfig(**{"name": Path(args.out).name or "selfplay", **given})
    cfg.out = args.out
    for field in ("generations", "minutes", "device"):  # totals and place: a resume may change
        if getattr(args, field) is not None:
            setattr(cfg, field, getattr(args, field))
    check_place(args, cfg.device, check_device)
    try:
        sp.check_config(cfg)
    except (ValueError, TypeError) as e:
        args.parser.error(str(e))
    if not args.resume:
        try:
            args.init_agent = sp.check_init(cfg)  # loaded once: the run starts from it
        except (ValueError, OSError) as e:
            args.parser.error(f"argument --init: {e}")
    args.cfg = cfg


def run(args) -> int:
    cfg = args.cfg
    if not args.quiet:
        print(f"dominion selfplay: device {describe(cfg.device)}", file=sys.stderr)
    stopped = []
    with tqdm(total=1000, desc="games", disable=args.quiet, bar_format=BAR) as bar:

        def progress(loop):
            bar.set_description(
                f"generation {loop.generation + 1} {loop.phase} {loop.phase_done:.0%}",
                refresh=False,
            )
            bar.update(int(1000 * loop.done()) - bar.n)
            if loop.history:  # the last generation's figures
                row = loop.history[-1]
                figures = {k[9:-1]: v for k, v in row.items() if k.startswith("win_rate[")}
                bar.set_postfix({"gen": row["generation"], **figures}, refresh=False)
            bar.refresh()

        try:
            with terminate_as_interrupt(stopped):
                loop = sp.selfplay(
                    cfg, progress, args.resume, init=args.init_agent, checkpoint=args.checkpoint
                )
        except sp.Interrupted as e:
            bar.close()
            how = "terminated (SIGTERM)" if stopped else "interrupted"
            print(
                f"dominion selfplay: {how}; {sp.saved_text(e.loop)} saved in {cfg.out} "
                "(continue with --resume; what was played since is lost)",
                file=sys.stderr,
            )
            return stopped_status(stopped)
        except (ValueError, TypeError, NotImplementedError) as e:
            raise SystemExit(str(e)) from None
    print(
        f"\n{loop.generation} generations ({loop.decisions:,} searched decisions) in "
        f"{loop.seconds / 60:.1f} min; wrote {sp.AGENT_FILE}, {sp.CHECKPOINT_FILE} and "
        f"progress.csv in {cfg.out}"
    )
    for row in loop.history[-5:]:
        print("  " + ", ".join(f"{k} {v}" for k, v in row.items()))
    return 0
