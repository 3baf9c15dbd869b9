"""``dominion train``, ``evaluate``, ``scorecard`` and ``selfplay``: argument parsing, checking
and printing.

The CLI imports this module only when one of these commands runs (it needs torch, the
``train`` extra), which is why the four torch commands stay in one module of about 900 lines:
one lazy import point keeps every other command free of torch. The work is done by
``ppo.train``, ``evaluate.evaluate``, ``scorecard.scorecard`` and ``selfplay.selfplay``. Every
argument is checked before any work starts (``_check_train``, ``_check_evaluate``, run by
``cli.parse_args``): a bad one exits with status 2 and one line naming the argument, the value
and what is allowed. The bounds are ``config``'s (``check_config``), the CLI's game cap
(``arena.MAX_GAMES``) and seed range.

``train --resume`` continues the run saved in ``--out`` with that run's settings: a setting
given explicitly that differs from the saved one is refused (the message names both values);
``--steps`` and ``--minutes`` are new totals. ``train --init AGENT`` starts a new run from
a saved agent instead of imitation. Ctrl-C during PPO saves the run so far
(``ppo.Interrupted``) and exits with status 130; SIGTERM does the same and exits with 143.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import signal
import sys
from dataclasses import replace
from pathlib import Path

from tqdm import tqdm

from ..agents import (
    BOT_FILES,
    BOTS,
    file_bot,
    get_bot,
    is_bot_file,
    load_bot_file,
    unknown_name,
)
from ..agents.library import split_file_bot
from ..analysis.arena import MAX_GAMES
from ..analysis.executor import add_ray_option, executor_for
from ..arguments import GAMES, PLAYERS, SEED, check_kingdom, int_in, number_in, writable_dir
from ..engine.kingdoms import kingdom_arg
from ..envs.ismcts import parse_ismcts_name
from ..names import printable
from ..search import parse_search_name
from ..search.search import MAX_BUDGET
from . import selfplay as sp
from .checkpoint import saved_config
from .config import (
    ALL_BOTS,
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
    SELF,
    STRONGEST,
    TrainConfig,
    check_config,
    check_hidden,
    check_init,
)
from .device import CUDA_SIZES, check_device, describe, sizes_for
from .evaluate import EVAL_SEED, evaluate, format_table
from .evaluator import load_network
from .policy import (
    AGENT_SUFFIX,
    AGENT_SUFFIXES,
    NETWORKS,
    is_agent_file,
    load_agent,
    shipped_agents,
)
from .ppo import Interrupted, train
from .scorecard import SECTIONS, format_scorecard, resolve, scorecard, table_sizes

DEFAULT_EVAL = ("Big Money", "Big Money Ultimate", "strongest")
# a strategy file as an opponent, in the words of every command that takes one (agents.file_bot)
FILE_FORMS = (
    "FILE.toml:BOT (that bot of a strategy file) or FILE.toml (a .toml of bots, or "
    "'optimized': per kingdom, its first bot that fits)"
)

# what a finished or interrupted run leaves in --out (``Trainer.save``)
RUN_FILES = tuple(
    f"{stem}{suffix}" for stem in ("agent", "checkpoint") for suffix in AGENT_SUFFIXES
)


def _hidden(text: str) -> tuple:
    """An argparse type: '128,128' -> (128, 128), checked by ``config.check_hidden``."""
    try:
        return check_hidden(tuple(int(h, 10) for h in text.split(",")))
    except (ValueError, TypeError) as e:
        raise argparse.ArgumentTypeError(
            f"{text!r}: comma-separated layer widths, whole numbers ({e})"
        ) from None


_hidden.__name__ = "widths"


def _short(name: str) -> str:
    """'Big Money Ultimate' -> 'BMU' for the progress bar; one-word names as they are."""
    return "".join(w[0] for w in name.split()) if " " in name else name[:12]


def add_train_parser(sub) -> None:
    d = TrainConfig()
    p = sub.add_parser(
        "train",
        help="train an agent (PPO, imitation warm start, opponent pool)",
        description="Train an agent with the defaults that learn (config.TrainConfig): gamma 1, "
        "potential-based VP shaping, scaled observations, imitation of a library "
        "bot, then PPO against a weighted pool of bots, saved agents and past "
        "snapshots of itself. Writes agent.safetensors, checkpoint.safetensors, progress.csv and "
        "curve.png to --out, then evaluates the agent. Ctrl-C saves the run so far.",
    )
    # the run's settings default to None so that --resume knows which were given explicitly
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
    p.add_argument("--players", type=PLAYERS, default=None, help=f"2 to 6 (default {d.players})")
    p.add_argument(
        "--kingdom",
        default=None,
        help="'random' (per game, the default), a recommended set, or 10 comma-separated cards",
    )
    p.add_argument("--seed", type=SEED, default=None, help=f"0 to 2**63-1 (default {d.seed})")
    p.add_argument(
        "--num-envs",
        type=int_in(1, MAX_NUM_ENVS),
        default=None,
        help=f"games played at once (default {d.num_envs})",
    )
    p.add_argument(
        "--hidden",
        type=_hidden,
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
    # PPO's own knobs, bounded as ``check_config`` bounds them
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
    p.add_argument("--out", default=d.out, help=f"the run's folder (default {d.out})")
    p.add_argument("--name", default=None, help="the agent's name (default: --out's folder)")
    p.add_argument(
        "--resume",
        action="store_true",
        help="continue from --out/checkpoint.safetensors (or an older run's checkpoint.pt)",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="start a new run in an --out that already holds one (its files are replaced)",
    )
    p.add_argument(
        "--device",
        default=None,
        help="where the network acts and learns: auto (the default: cuda where present, else "
        "cpu), cpu, cuda or cuda:N; the games run on the CPU (a resumed run may change it). "
        "On a GPU a new run takes "
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
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(run=run_train, check=_check_train, parser=p)


def _weight(text: str) -> float | None:
    """``text`` as a number, None when it reads as none."""
    try:
        return float(text)
    except ValueError:
        return None


def _opponent(args, spec: str, players: int) -> tuple[str, float]:
    """'Big Money Ultimate:2' -> ('Big Money Ultimate', 2.0), the name checked. What follows
    the last ':' is the weight where it reads as a number; otherwise it belongs to the name:
    ``FILE.toml:BOT`` (a bot of the file, as in every command: ``agents.file_bot``) or an agent
    file whose name holds ':' (a Windows drive). ``FILE.toml:2`` is the file with weight 2;
    a file's bot with a weight is ``FILE.toml:BOT:2``."""
    name, sep, weight = spec.rpartition(":")
    w = _weight(weight) if sep else None
    if w is None:
        if sep and not (is_agent_file(spec) or split_file_bot(spec) is not None):
            args.parser.error(
                f"argument --opponent: {spec!r}: the weight after ':' must be a number "
                f"{MIN_WEIGHT:g} to {MAX_WEIGHT:g}"
            )
        name, weight, w = spec, "1", 1.0
    if not MIN_WEIGHT <= w <= MAX_WEIGHT:  # refuses nan, inf, 0 and negative weights
        args.parser.error(
            f"argument --opponent: {spec!r}: the weight must be a finite number "
            f"{MIN_WEIGHT:g} to {MAX_WEIGHT:g}, got {weight}"
        )
    if name.casefold() in (SELF, STRONGEST, ALL_BOTS):
        return name.casefold(), w
    ref = split_file_bot(name)
    if ref is not None and ref[1] is not None:  # one bot of the file, by its own name
        try:
            bot = file_bot(name)
        except ValueError as e:
            args.parser.error(f"argument --opponent: {e}")
        return f"{ref[0]}:{bot.name}", w
    if ref is not None:  # its bots are read and checked with the config (_check_train)
        return name, w
    if is_agent_file(name) or name in shipped_agents():
        try:
            agent = load_agent(name)
        except (ValueError, OSError) as e:
            args.parser.error(f"argument --opponent: {e}")
        if agent.info.players != players:
            args.parser.error(
                f"argument --opponent: agent {name!r} plays {agent.info.players}-player games; "
                f"this run has {players} players"
            )
        return name, w
    if name.casefold() not in {b.casefold() for b in BOTS}:
        known = [*BOTS, SELF, STRONGEST, ALL_BOTS, *shipped_agents(), *BOT_FILES]
        args.parser.error(f"argument --opponent: {unknown_name('opponent', name, known)}")
    return get_bot(name).name, w


def _train_settings(args, d: TrainConfig) -> dict:
    """The run's settings given on the command line (explicitly), checked: field -> value."""
    given = {}
    players = args.players if args.players is not None else d.players
    for option, field in (
        ("players", "players"),
        ("seed", "seed"),
        ("num_envs", "num_envs"),
        ("hidden", "hidden"),
        ("network", "network"),
        ("vp_shaping", "vp_shaping"),
        ("epochs", "epochs"),
        ("minibatch", "minibatch"),
        ("lr", "lr"),
        ("ent_coef", "ent_coef"),
        ("bc_steps", "bc_steps"),
        ("bc_search_steps", "bc_search_steps"),
        ("teacher_coef", "teacher_coef"),
        ("teacher_budget", "teacher_budget"),
        ("teacher_positions", "teacher_positions"),
        ("init", "init"),
        ("name", "name"),
    ):
        if getattr(args, option) not in (None, ""):  # --name '': the default name
            given[field] = getattr(args, option)
    if args.kingdom is not None:
        args.players = players
        check_kingdom(args)
        given["kingdom"] = kingdom_arg(args.kingdom)
    if args.expert is not None:
        if args.expert.casefold() == STRONGEST:
            given["bc_expert"] = STRONGEST
        elif _search_expert(args):
            given["bc_expert"] = _search_expert(args).name
        else:
            try:
                given["bc_expert"] = get_bot(args.expert).name
            except ValueError as e:
                args.parser.error(f"argument --expert: {e}")
    if args.opponent:
        opponents = {}
        for spec in args.opponent:
            name, w = _opponent(args, spec, players)
            if name in opponents:
                args.parser.error(
                    f"argument --opponent: {name!r} is named twice; name each opponent once "
                    "with its weight"
                )
            opponents[name] = w
        given["opponents"] = opponents
    if args.init is not None:
        given.update(_init_settings(args, given, players))
    return given


def _init_settings(args, given: dict, players: int) -> dict:
    """With --init: the agent's network and layers (where not given) and no imitation; an
    imitation option beside it, or an agent that does not fit, exits with status 2."""
    for option, field in (("--bc-steps", "bc_steps"), ("--expert", "bc_expert")):
        if given.get(field):
            args.parser.error(
                f"argument {option}: --init {args.init!r} starts the run from that agent "
                "instead of imitation; drop one of them"
            )
    try:
        agent = load_agent(args.init)
    except (ValueError, OSError) as e:
        args.parser.error(f"argument --init: {e}")
    info = agent.info
    settings = {"network": info.network, "hidden": tuple(info.hidden), "embed": info.embed}
    settings = {k: v for k, v in settings.items() if k not in given}
    if info.players != players:
        args.parser.error(
            f"argument --init: agent {args.init!r} plays {info.players}-player games; "
            f"this run has {players} players"
        )
    return {**settings, "bc_steps": 0}


def _search_expert(args):
    """--expert as a Search ('search' or 'search:N'), None for any other name; a bad budget
    exits with status 2."""
    try:
        return parse_search_name(args.expert)
    except ValueError as e:
        args.parser.error(f"argument --expert: {e}")


def _same(field: str, saved, given) -> bool:
    if field == "hidden":
        return tuple(saved) == tuple(given)
    if field == "kingdom" and isinstance(saved, (list, tuple)):
        return isinstance(given, list) and list(saved) == given
    return saved == given


def _check_train(args) -> None:
    d = TrainConfig()
    given = _train_settings(args, d)
    out = Path(args.out)
    if args.resume:
        try:
            saved = saved_config(out)
        except ValueError as e:
            args.parser.error(f"argument --resume: {e}")
        for field, value in given.items():
            if not _same(field, saved[field], value):
                option = "--" + {"bc_expert": "expert", "opponents": "opponent"}.get(
                    field, field
                ).replace("_", "-")
                args.parser.error(
                    f"argument {option}: the run in {args.out} was trained with "
                    f"{field}={saved[field]!r}, given {value!r}; --resume continues a run "
                    "with its own settings (drop the option, or train a new run in another --out)"
                )
        cfg = TrainConfig(**{**saved, "hidden": tuple(saved["hidden"])})
        if args.steps is not None:
            cfg.steps = args.steps
        if args.minutes is not None:
            cfg.minutes = args.minutes
    else:
        if out.is_file():
            args.parser.error(f"argument --out: {args.out!r} is a file, not a folder")
        held = [f for f in RUN_FILES if (out / f).exists()]
        if held and not args.overwrite:  # a finished run is hours of work: never lose it silently
            args.parser.error(
                f"argument --out: {args.out!r} already holds a run ({', '.join(held)}); "
                "continue it with --resume, train in another --out, or pass --overwrite"
            )
        cfg = replace(d, steps=args.steps, minutes=args.minutes, out=args.out, **given)
        if "name" not in given:
            cfg.name = out.name
    if args.device is not None:  # not a setting of the run: a resumed run may move
        cfg.device = args.device
    try:
        check_device(cfg.device)
    except ValueError as e:
        args.parser.error(f"argument --device: {e}")
    args.chosen = {} if args.resume else sizes_for(cfg.device, given)
    cfg = replace(cfg, **args.chosen)  # a GPU's sizes, where not given
    why = writable_dir(out)
    if why:
        args.parser.error(f"argument --out: {args.out!r} cannot take the run: {why}")
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


@contextlib.contextmanager
def _terminate_as_interrupt(stopped: list):
    """SIGTERM (a job scheduler's or ``kill``'s stop) saves the run as Ctrl-C does: the
    handler raises KeyboardInterrupt and notes it in ``stopped``; the old handler comes back
    after. A shell starts background jobs with SIGINT ignored, so SIGTERM is how they stop."""

    def handler(signum, frame):
        stopped.append(signum)
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGTERM, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def run_train(args) -> int:
    cfg = args.cfg
    timed_run = cfg.minutes is not None
    total = int(cfg.minutes * 60) if timed_run else (cfg.steps or DEFAULT_STEPS)
    unit = "s" if timed_run else "step"
    if not args.quiet:  # what "auto" became, and the sizes it chose (the rest: the config)
        chosen = ", ".join(f"{k} {v}" for k, v in getattr(args, "chosen", {}).items())
        print(
            f"dominion train: device {describe(cfg.device)}"
            + (f"; for this GPU: {chosen}" if chosen else ""),
            file=sys.stderr,
        )
    timed = "{l_bar}{bar}| {n_fmt}/{total_fmt} s [{elapsed}<{remaining}{postfix}]"
    with tqdm(
        total=total,
        unit=unit,
        desc=PHASES[0],
        disable=args.quiet,
        unit_scale=not timed_run,
        bar_format=timed if timed_run else None,
    ) as bar:

        def progress(steps_done, trainer):
            # a timed run's bar is its training seconds (imitation's included), so it moves
            # through every phase; a run by steps moves in PPO, the phase's label before
            phase = trainer.phase
            if phase != PHASES[-1]:
                phase += f" {trainer.phase_done:.0%}"
            bar.set_description(phase, refresh=False)
            bar.update(min(total, int(trainer.seconds)) - bar.n if timed_run else steps_done)
            row = next((h for h in reversed(trainer.history) if "steps" in h), None)
            if row:  # the true win rates of the latest training games
                bar.set_postfix(
                    {_short(k[9:-1]): v for k, v in row.items() if k.startswith("win_rate[")},
                    refresh=False,
                )
            bar.refresh()

        stopped = []
        try:
            with _terminate_as_interrupt(stopped):
                trainer = train(cfg, progress=progress, resume=args.resume)
        except Interrupted as e:
            saved = (
                f"saved the run in {cfg.out} (continue it with --resume)"
                if e.paths
                else "nothing saved (it stopped during imitation)"
            )
            bar.close()
            how = "terminated (SIGTERM)" if stopped else "interrupted"
            print(
                f"dominion train: {how} after {e.trainer.steps} learner steps; {saved}",
                file=sys.stderr,
            )
            return 128 + (signal.SIGTERM if stopped else signal.SIGINT)
        except (ValueError, TypeError, NotImplementedError) as e:
            raise SystemExit(str(e)) from None
    print(
        f"\ntrained {trainer.steps} learner steps in {trainer.seconds / 60:.1f} min; "
        f"wrote agent{AGENT_SUFFIX}, checkpoint{AGENT_SUFFIX}, progress.csv and curve.png in "
        f"{cfg.out}"
    )
    if args.eval_games:
        kingdom = trainer.cfg.kingdom
        # "strongest" draws its own random kingdoms: it has no game on a fixed one
        opponents = [o for o in DEFAULT_EVAL if o != STRONGEST or kingdom == "random"]
        rows = evaluate(
            load_agent(Path(cfg.out) / f"agent{AGENT_SUFFIX}"),
            opponents,
            games=args.eval_games,
            players=trainer.cfg.players,
            kingdom=kingdom,
        )
        print(
            f"\n{printable(trainer.cfg.name)} on {args.eval_games} unseen games per opponent "
            f"(greedy play, {kingdom if isinstance(kingdom, str) else 'fixed'} kingdoms):"
        )
        print(format_table(rows))
    return 0


def add_evaluate_parser(sub) -> None:
    p = sub.add_parser(
        "evaluate",
        help="an agent against library bots: W/T/L with 95%% CIs",
        description="Play an agent (an agent file, .safetensors or an older release's .pt, or a "
        "shipped agent's name) against bots on seeds training never used.",
    )
    p.add_argument(
        "agent",
        help="an agent file, a shipped agent, search[:N], search:AGENT:N or ismcts[:N] (see: "
        "dominion bots)",
    )
    p.add_argument(
        "--opponent",
        action="append",
        metavar="BOT",
        help=f"a library bot, 'strongest' (per random kingdom), {FILE_FORMS}; repeat "
        "(default: " + ", ".join(DEFAULT_EVAL) + ")",
    )
    p.add_argument("--games", type=GAMES, default=4000, help=f"per opponent, 1 to {MAX_GAMES:,}")
    p.add_argument("--kingdom", default="random")
    p.add_argument(
        "--players", type=PLAYERS, default=None, help="2 to 6 (default: the agent's own)"
    )
    p.add_argument("--seed", type=SEED, default=EVAL_SEED, help="0 to 2**63-1")
    p.add_argument("--json", action="store_true", help="one JSON object per opponent per line")
    p.add_argument(
        "--device",
        default="auto",
        help="where the agent's network runs: auto (the default: cuda where present, else "
        "cpu), cpu, cuda or cuda:N",
    )
    add_ray_option(p)
    p.set_defaults(run=run_evaluate, check=_check_evaluate, parser=p)


def _check_evaluate(args) -> None:
    try:  # search (any player count), guided search or a trained agent (their agent's)
        search = parse_search_name(args.agent, seed=args.seed, load_network=load_network)
        search = search or parse_ismcts_name(args.agent, seed=args.seed)  # OpenSpiel's ISMCTS
        args.agent_resolved = agent = search or load_agent(args.agent)
    except (ValueError, OSError) as e:
        args.parser.error(f"argument agent: {e}")
    trained = getattr(search, "players", None)
    try:
        device = check_device(args.device)
    except ValueError as e:
        args.parser.error(f"argument --device: {e}")
    if search is None:
        agent.to(device)
    elif trained is not None:  # the guided search's network
        search.network.agent.to(device)
    if trained is not None and args.players not in (None, trained):
        args.parser.error(
            f"argument --players: {args.agent!r} plays {trained}-player games, got {args.players}"
        )
    if search is not None:
        args.players = (trained or 2) if args.players is None else args.players
    elif args.players is None:
        args.players = agent.info.players
    elif args.players != agent.info.players:
        args.parser.error(
            f"argument --players: agent {agent.name!r} plays {agent.info.players}-player "
            f"games, got {args.players}"
        )
    if args.kingdom == "bots":  # simulate's word: an agent names no cards
        args.parser.error("argument --kingdom: 'random', a recommended set or 10 cards, got 'bots'")
    check_kingdom(args)
    args.kingdom_value = kingdom_arg(args.kingdom)
    names = []
    for name in args.opponent or DEFAULT_EVAL:
        if split_file_bot(name) is not None and (
            args.kingdom != "random" or split_file_bot(name)[1] is not None
        ):  # one bot of the file: FILE.toml:BOT, or the file's bot for a fixed kingdom
            try:
                names.append(file_bot(name, args.kingdom_value))
            except ValueError as e:
                args.parser.error(f"argument --opponent: {e}")
            continue
        if name.casefold() == STRONGEST or is_bot_file(name):
            if args.kingdom != "random":
                args.parser.error(
                    f"argument --opponent: {name!r} plays random kingdoms; --kingdom "
                    f"must be 'random' with it, got {args.kingdom!r}"
                )
            if is_bot_file(name):
                try:
                    load_bot_file(name)
                except ValueError as e:
                    args.parser.error(f"argument --opponent: {name!r}: {e}")
            names.append(STRONGEST if name.casefold() == STRONGEST else name)
            continue
        try:
            names.append(get_bot(name).name)
        except ValueError:
            known = [*BOTS, STRONGEST, *BOT_FILES]
            args.parser.error(f"argument --opponent: {unknown_name('opponent', name, known)}")
    args.opponents = names


def run_evaluate(args) -> int:
    agent = args.agent_resolved
    try:
        rows = evaluate(
            agent,
            args.opponents,
            games=args.games,
            players=args.players,
            kingdom=args.kingdom_value,
            seed=args.seed,
            map=executor_for(args.ray),
        )
    except (ValueError, TypeError, NotImplementedError, ImportError) as e:
        raise SystemExit(str(e)) from None
    if args.json:
        for r in rows:
            print(json.dumps(r))
    else:
        print(
            f"{printable(agent.name)}: {args.games} games per opponent, {args.players} players, "
            f"kingdom {args.kingdom}, seed {args.seed}"
        )
        print(format_table(rows))
    return 0


def add_scorecard_parser(sub) -> None:
    p = sub.add_parser(
        "scorecard",
        help="any player measured by one fixed, versioned protocol (for papers)",
        description="Measure a player by the scorecard's protocol (dominion_env.train.scorecard:"
        " fixed seeds, kingdoms, opponents and games): against Big Money, Big Money Ultimate "
        "and the strongest bot per random kingdom; head to head against every library bot on "
        "its own kingdom; the all-bots tournament's rank and score; with 3 to 6 players, wins "
        "against Big Money Ultimate in every other seat. The protocol's version is printed.",
    )
    p.add_argument(
        "player",
        help="a shipped agent, an agent file, a library bot, FILE.toml[:BOT] or search[:N]",
    )
    p.add_argument(
        "--quick", action="store_true", help="the same protocol with fewer games (wider CIs)"
    )
    p.add_argument("--json", action="store_true", help="print the scorecard as one JSON object")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_ray_option(p)
    p.set_defaults(run=run_scorecard, check=_check_scorecard, parser=p)


def _check_scorecard(args) -> None:
    try:
        args.player_resolved = resolve(args.player)
    except (ValueError, OSError) as e:
        args.parser.error(f"argument player: {e}")


def run_scorecard(args) -> int:
    player = args.player_resolved
    steps = (3 if 2 in table_sizes(player) else 0) + sum(p > 2 for p in table_sizes(player))
    with tqdm(total=steps, disable=args.quiet, unit="part", file=sys.stderr) as bar:
        started = []

        def progress(label):  # a piece of work begins: the one before it is done
            if started:
                bar.update(1)
            started.append(label)
            bar.set_description(label[:60])

        try:
            card = scorecard(
                player, args.quick, SECTIONS, map=executor_for(args.ray), progress=progress
            )
        except (ValueError, TypeError, ImportError) as e:
            raise SystemExit(str(e)) from None
        bar.update(bar.total - bar.n)
    print(json.dumps(card) if args.json else format_scorecard(card))
    return 0


# -- dominion selfplay ----------------------------------------------------------------------------

# option -> (what it sets, its help); bounds from ``selfplay``'s INT_BOUNDS and NUMBER_BOUNDS
SELFPLAY_OPTIONS = {
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


def add_selfplay_parser(sub) -> None:
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
        "played since, and --resume goes on from there.",
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
    for field, what in SELFPLAY_OPTIONS.items():
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
    p.add_argument("--seed", type=SEED, default=None, help=f"0 to 2**63-1 (default {d.seed})")
    p.add_argument("--out", default=d.out, help=f"the run's folder (default {d.out})")
    p.add_argument("--name", default=None, help="the agent's name (default: --out's folder)")
    p.add_argument(
        "--resume", action="store_true", help="continue from --out/checkpoint.safetensors"
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="start a new run in an --out that already holds one (its files are replaced)",
    )
    p.add_argument(
        "--device",
        default=None,
        help="where the network acts and learns: auto (the default: cuda where present, else "
        "cpu), cpu, cuda or cuda:N (a resumed run may change it)",
    )
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(run=run_selfplay, check=_check_selfplay, parser=p)


def _bound(x) -> str:
    """A bound as --help shows it: whole numbers with thousands separators (1,048,576, not
    1.04858e+06), others as they read."""
    return f"{x:,}" if isinstance(x, int) else f"{x:g}"


def _check_selfplay(args) -> None:
    given = {f: getattr(args, f) for f in (*SELFPLAY_OPTIONS, "init", "seed", "name")}
    given = {f: v for f, v in given.items() if v not in (None, "")}
    out = Path(args.out)
    if args.resume:
        try:
            saved = sp.saved_config(out)
        except ValueError as e:
            args.parser.error(f"argument --resume: {e}")
        for field, value in given.items():
            if saved[field] != value:
                args.parser.error(
                    f"argument --{field.replace('_', '-')}: the run in {args.out} has "
                    f"{field}={saved[field]!r}, given {value!r}; --resume continues a run with "
                    "its own settings (drop the option, or start a new run in another --out)"
                )
        cfg = sp.SelfPlayConfig(**saved)
    else:
        if out.is_file():
            args.parser.error(f"argument --out: {args.out!r} is a file, not a folder")
        held = [f for f in RUN_FILES if (out / f).exists()]
        if held and not args.overwrite:
            args.parser.error(
                f"argument --out: {args.out!r} already holds a run ({', '.join(held)}); "
                "continue it with --resume, use another --out, or pass --overwrite"
            )
        cfg = sp.SelfPlayConfig(**{"name": out.name or "selfplay", **given})
    cfg.out = args.out
    for field in ("generations", "minutes", "device"):  # totals and place: a resume may change
        if getattr(args, field) is not None:
            setattr(cfg, field, getattr(args, field))
    try:
        check_device(cfg.device)
    except ValueError as e:
        args.parser.error(f"argument --device: {e}")
    why = writable_dir(out)
    if why:
        args.parser.error(f"argument --out: {args.out!r} cannot take the run: {why}")
    try:
        sp.check_config(cfg)
    except (ValueError, TypeError) as e:
        args.parser.error(str(e))
    if not args.resume:
        try:
            sp.check_init(cfg)
        except (ValueError, OSError) as e:
            args.parser.error(f"argument --init: {e}")
    args.cfg = cfg


def run_selfplay(args) -> int:
    cfg = args.cfg
    if not args.quiet:
        print(f"dominion selfplay: device {describe(cfg.device)}", file=sys.stderr)
    with tqdm(total=1000, desc="games", disable=args.quiet, bar_format=SELFPLAY_BAR) as bar:

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

        stopped = []
        try:
            with _terminate_as_interrupt(stopped):
                loop = sp.selfplay(cfg, progress=progress, resume=args.resume)
        except sp.Interrupted as e:
            bar.close()
            how = "terminated (SIGTERM)" if stopped else "interrupted"
            print(
                f"dominion selfplay: {how}; {sp.saved_text(e.loop)} saved in {cfg.out} "
                "(continue with --resume; what was played since is lost)",
                file=sys.stderr,
            )
            return 128 + (signal.SIGTERM if stopped else signal.SIGINT)
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


SELFPLAY_BAR = "{desc} {percentage:3.0f}%|{bar}| [{elapsed}<{remaining}{postfix}]"
