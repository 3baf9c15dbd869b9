"""``dominion train``: train an agent (imitation warm start, then PPO against a weighted pool
of opponents), save it in --out and evaluate it (the work: ``train.ppo.train``). Every option
is checked before any work starts; the run's settings are read by ``train_settings``.

``--resume`` continues the run saved in ``--out`` (``runs``); ``--steps`` and ``--minutes`` are
new totals. ``--init AGENT`` starts a new run from a saved agent instead of imitation. Ctrl-C
during PPO saves the run so far (``ppo.Interrupted``) and exits with status 130; SIGTERM does
the same and exits with 143.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import replace
from pathlib import Path

from tqdm import tqdm

from ..analysis.arena import MAX_GAMES
from ..arguments import int_in, number_in
from ..names import printable
from ..search.search import MAX_BUDGET
from ..train.checkpoint import saved_config
from ..train.device import CUDA_SIZES, check_device, describe, sizes_for
from ..train.evaluate import evaluate as evaluate_agent
from ..train.evaluate import format_table
from ..train.policy import AGENT_SUFFIX, NETWORKS, load_agent
from ..train.ppo import Interrupted, train
from ..train.settings import (
    DEFAULT_STEPS,
    INT_BOUNDS,
    MAX_BC_SEARCH_STEPS,
    MAX_BC_STEPS,
    MAX_MINUTES,
    MAX_NUM_ENVS,
    MAX_STEPS,
    MAX_TEACHER_COEF,
    MAX_TEACHER_POSITIONS,
    MAX_VP_SHAPING,
    MAX_WEIGHT,
    MIN_MINUTES,
    MIN_WEIGHT,
    NUMBER_BOUNDS,
    PHASES,
    STRONGEST,
    TrainConfig,
    check_config,
    check_hidden,
    check_init,
)
from .options import add_players, add_quiet, add_run_folder, add_seed
from .runs import (
    check_new_folder,
    check_place,
    saved_settings,
    stopped_status,
    terminate_as_interrupt,
)
from .train_settings import given_settings, option_of, same

DEFAULT_EVAL = ("Big Money", "Big Money Ultimate", "strongest")
# a strategy file as an opponent, in the words of every command that takes one (agents.file_bot)
FILE_FORMS = (
    "FILE.toml:BOT (that bot of a strategy file) or FILE.toml (a .toml of bots, or "
    "'optimized': per kingdom, its first bot that fits)"
)


def widths(text: str) -> tuple:
    """An argparse type: '128,128' -> (128, 128), checked by ``settings.check_hidden``."""
    try:
        return check_hidden(tuple(int(h, 10) for h in text.split(",")))
    except (ValueError, TypeError) as e:
        raise argparse.ArgumentTypeError(
            f"{text!r}: comma-separated layer widths, whole numbers ({e})"
        ) from None


def _short(name: str) -> str:
    """'Big Money Ultimate' -> 'BMU' for the progress bar; one-word names as they are."""
    return "".join(w[0] for w in name.split()) if " " in name else name[:12]


def add_parser(sub) -> None:
    d = TrainConfig()
    p = sub.add_parser(
        "train",
        help="train an agent (PPO, imitation warm start, opponent pool)",
        description="Train an agent with the defaults that learn (settings.TrainConfig): gamma 1, "
        "potential-based VP shaping, scaled observations, imitation of a library "
        "bot, then PPO against a weighted pool of bots, saved agents and past "
        "snapshots of itself. Writes agent.safetensors, checkpoint.safetensors, progress.csv and "
        "curve.png to --out, then evaluates the agent. Ctrl-C saves the run so far.",
    )
    # the run's settings default to None so that --resume knows which were given explicitly
    _add_length(p)
    _add_table(p, d)
    _add_network(p, d)
    _add_imitation(p, d)
    _add_teacher(p, d)
    add_run_folder(
        p,
        d.out,
        resume_help="continue from --out/checkpoint.safetensors (or an older run's checkpoint.pt)",
        device_help="where the network acts and learns: auto (the default: cuda where present, "
        "else cpu), cpu, cuda or cuda:N; the games run on the CPU (a resumed run may change "
        "it). On a GPU a new run takes "
        + ", ".join(f"--{k.replace('_', '-')} {v}" for k, v in CUDA_SIZES.items())
        + " unless given",
    )
    p.add_argument(
        "--eval-games",
        type=int_in(0, MAX_GAMES),
        default=1000,
        help="games against each of Big Money, Big Money Ultimate and (random kingdoms) the "
        "strongest bot afterwards (0: skip)",
    )
    add_quiet(p, help=None)
    p.set_defaults(run=run, check=check, parser=p)


def _add_length(p) -> None:
    p.add_argument(
        "--minutes",
        type=number_in(MIN_MINUTES, MAX_MINUTES, " minutes"),
        default=None,
        help=f"training time budget, {MIN_MINUTES:g} to {MAX_MINUTES:,.0f} "
        "(default: none, train for --steps)",
    )
    p.add_argument(
        "--steps",
        type=int_in(1, MAX_STEPS),
        default=None,
        help=f"learner steps (default {DEFAULT_STEPS:,}, or no limit with --minutes)",
    )


def _add_table(p, d: TrainConfig) -> None:
    """Who the learner plays, how many at a table, on which cards, from which seed."""
    p.add_argument(
        "--opponent",
        action="append",
        metavar="NAME[:WEIGHT]",
        help="a library bot, 'self' (past snapshots), 'strongest' (per kingdom), 'all bots' "
        f"(every library bot on its own kingdom), an agent file, {FILE_FORMS}, with an optional "
        f"weight {MIN_WEIGHT:g} to {MAX_WEIGHT:g} after a last ':' (FILE.toml:2, "
        "FILE.toml:BOT:2); repeat (default: "
        + ", ".join(f"{k}:{v:g}" for k, v in d.opponents.items())
        + ")",
    )
    add_players(p, None, f"2 to 6 (default {d.players})")
    p.add_argument(
        "--kingdom",
        default=None,
        help="'random' (per game, the default), a recommended set, or 10 comma-separated cards",
    )
    add_seed(p, None, f"0 to 2**63-1 (default {d.seed})")
    p.add_argument(
        "--num-envs",
        type=int_in(1, MAX_NUM_ENVS),
        default=None,
        help=f"games played at once (default {d.num_envs})",
    )


def _add_network(p, d: TrainConfig) -> None:
    """The network, the reward's shaping and PPO's own knobs (bounded as ``check_config``
    bounds them)."""
    p.add_argument(
        "--hidden",
        type=widths,
        default=None,
        help=f"hidden layer widths (default {','.join(map(str, d.hidden))})",
    )
    p.add_argument(
        "--network",
        choices=NETWORKS,
        default=None,
        help=f"mlp: over the flat observation; cards: over the game's cards as a set "
        f"(default {d.network})",
    )
    p.add_argument(
        "--vp-shaping",
        type=number_in(0.0, MAX_VP_SHAPING),
        default=None,
        help=f"potential-based shaping per VP, 0 to {MAX_VP_SHAPING:g} (default {d.vp_shaping})",
    )
    bounds = {n: (lo, hi) for n, lo, hi in (*INT_BOUNDS, *NUMBER_BOUNDS)}
    for field, kind, what in (
        ("epochs", int_in, "passes over each rollout"),
        ("minibatch", int_in, "rows per gradient step"),
        ("lr", number_in, "Adam's learning rate"),
        ("ent_coef", number_in, "the entropy bonus's weight"),
    ):
        lo, hi = bounds[field]
        p.add_argument(
            "--" + field.replace("_", "-"),
            type=kind(lo, hi),
            default=None,
            help=f"PPO: {what}, {lo:,} to {hi:,} (default {getattr(d, field):,})"
            if kind is int_in
            else f"PPO: {what}, {lo:g} to {hi:g} (default {getattr(d, field):g})",
        )


def _add_imitation(p, d: TrainConfig) -> None:
    """The warm start: imitation of an expert, or a saved agent's weights (--init)."""
    p.add_argument(
        "--bc-steps",
        type=int_in(0, MAX_BC_STEPS, " (imitation keeps every decision in memory)"),
        default=None,
        help=f"imitation warm start: expert decisions (0: none; default {d.bc_steps:,})",
    )
    p.add_argument(
        "--expert",
        default=None,
        help="the bot imitated first, 'strongest' (per kingdom), or 'search:N': the strongest "
        "bot, then the search at N simulations per decision for --bc-search-steps decisions "
        f"(default {d.bc_expert})",
    )
    p.add_argument(
        "--bc-search-steps",
        type=int_in(0, MAX_BC_SEARCH_STEPS),
        default=None,
        help=f"with --expert search:N: the search's decisions imitated (default "
        f"{d.bc_search_steps:,}; ~100 bot decisions' time each)",
    )
    p.add_argument(
        "--init",
        default=None,
        metavar="AGENT",
        help="start from a saved agent's weights (a shipped agent's name or an agent file) "
        "instead of imitation: its players, network and layers are the run's",
    )


def _add_teacher(p, d: TrainConfig) -> None:
    """Expert iteration: the search as a teacher during PPO."""
    p.add_argument(
        "--teacher-coef",
        type=number_in(0.0, MAX_TEACHER_COEF),
        default=None,
        help="expert iteration: the weight of a cross-entropy term pulling the policy toward "
        f"the search's choices at some of each rollout's positions (0: off; default "
        f"{d.teacher_coef:g})",
    )
    p.add_argument(
        "--teacher-budget",
        type=int_in(1, MAX_BUDGET - 1),
        default=None,
        help=f"expert iteration: the search's simulations per position (default "
        f"{d.teacher_budget})",
    )
    p.add_argument(
        "--teacher-positions",
        type=int_in(1, MAX_TEACHER_POSITIONS),
        default=None,
        help=f"expert iteration: positions searched per rollout (default {d.teacher_positions})",
    )


def check(args) -> None:
    d = TrainConfig()
    given = given_settings(args, d)
    if args.resume:
        saved = saved_settings(args, saved_config, given, same, option_of)
        cfg = TrainConfig(**{**saved, "hidden": tuple(saved["hidden"])})
        if args.steps is not None:
            cfg.steps = args.steps
        if args.minutes is not None:
            cfg.minutes = args.minutes
    else:
        check_new_folder(args)
        cfg = replace(d, steps=args.steps, minutes=args.minutes, out=args.out, **given)
        if "name" not in given:
            cfg.name = Path(args.out).name
    if args.device is not None:  # not a setting of the run: a resumed run may move
        cfg.device = args.device
    check_place(args, cfg.device, check_device)
    args.chosen = {} if args.resume else sizes_for(cfg.device, given)
    cfg = replace(cfg, **args.chosen)  # a GPU's sizes, where not given
    try:
        check_config(cfg)
    except (ValueError, TypeError) as e:  # e.g. more opponents than --num-envs rows
        args.parser.error(str(e))
    if cfg.init is not None and not args.resume:
        try:
            check_init(cfg)
        except ValueError as e:
            args.parser.error(f"argument --init: {e}")
    args.cfg = cfg


def run(args) -> int:
    cfg = args.cfg
    if not args.quiet:  # what "auto" became, and the sizes it chose (the rest: the config)
        chosen = ", ".join(f"{k} {v}" for k, v in getattr(args, "chosen", {}).items())
        print(
            f"dominion train: device {describe(cfg.device)}"
            + (f"; for this GPU: {chosen}" if chosen else ""),
            file=sys.stderr,
        )
    stopped = []
    try:
        with _progress_bar(cfg, args.quiet) as progress, terminate_as_interrupt(stopped):
            trainer = train(cfg, progress=progress, resume=args.resume)
    except Interrupted as e:
        saved = (
            f"saved the run in {cfg.out} (continue it with --resume)"
            if e.paths
            else "nothing saved (it stopped during imitation)"
        )
        how = "terminated (SIGTERM)" if stopped else "interrupted"
        print(
            f"dominion train: {how} after {e.trainer.steps} learner steps; {saved}",
            file=sys.stderr,
        )
        return stopped_status(stopped)
    except (ValueError, TypeError, NotImplementedError) as e:
        raise SystemExit(str(e)) from None
    print(
        f"\ntrained {trainer.steps} learner steps in {trainer.seconds / 60:.1f} min; "
        f"wrote agent{AGENT_SUFFIX}, checkpoint{AGENT_SUFFIX}, progress.csv and curve.png in "
        f"{cfg.out}"
    )
    if args.eval_games:
        _evaluate(cfg, trainer, args.eval_games)
    return 0


class _progress_bar:
    """The run's bar as a context: ``progress(steps_done, trainer)`` moves it. A timed run's
    bar is its training seconds (imitation's included), so it moves through every phase; a
    run by steps moves in PPO, the phase's label before."""

    def __init__(self, cfg, quiet: bool):
        self.timed = cfg.minutes is not None
        self.total = int(cfg.minutes * 60) if self.timed else (cfg.steps or DEFAULT_STEPS)
        timed = "{l_bar}{bar}| {n_fmt}/{total_fmt} s [{elapsed}<{remaining}{postfix}]"
        self.bar = tqdm(
            total=self.total,
            unit="s" if self.timed else "step",
            desc=PHASES[0],
            disable=quiet,
            unit_scale=not self.timed,
            bar_format=timed if self.timed else None,
        )

    def __enter__(self):
        return self.progress

    def __exit__(self, *exc):
        self.bar.close()
        return False

    def progress(self, steps_done, trainer) -> None:
        bar = self.bar
        phase = trainer.phase
        if phase != PHASES[-1]:
            phase += f" {trainer.phase_done:.0%}"
        bar.set_description(phase, refresh=False)
        bar.update(min(self.total, int(trainer.seconds)) - bar.n if self.timed else steps_done)
        row = next((h for h in reversed(trainer.history) if "steps" in h), None)
        if row:  # the true win rates of the latest training games
            bar.set_postfix(
                {_short(k[9:-1]): v for k, v in row.items() if k.startswith("win_rate[")},
                refresh=False,
            )
        bar.refresh()


def _evaluate(cfg, trainer, games: int) -> None:
    """The trained agent against the default opponents, printed."""
    kingdom = trainer.cfg.kingdom
    # "strongest" draws its own random kingdoms: it has no game on a fixed one
    opponents = [o for o in DEFAULT_EVAL if o != STRONGEST or kingdom == "random"]
    rows = evaluate_agent(
        load_agent(Path(cfg.out) / f"agent{AGENT_SUFFIX}"),
        opponents,
        games=games,
        players=trainer.cfg.players,
        kingdom=kingdom,
    )
    print(
        f"\n{printable(trainer.cfg.name)} on {games} unseen games per opponent "
        f"(greedy play, {kingdom if isinstance(kingdom, str) else 'fixed'} kingdoms):"
    )
    print(format_table(rows))
