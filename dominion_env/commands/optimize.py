"""``dominion optimize``: evolve a strong bot for one kingdom in the strategy language, print
it and its record against the kingdom's library bots on fresh games, optionally write it as
TOML (``analysis.optimize``)."""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from tqdm import tqdm

from ..analysis.executor import add_ray_option
from ..analysis.optimize import MAX_GAMES_PER_PAIRING, MAX_GENERATIONS, TIME_SHARE, describe
from ..analysis.optimize import optimize as run_optimize
from ..arguments import int_in
from ..checks import check_agent_players
from ..engine.config import make_setup
from ..engine.kingdoms import kingdom_arg
from ..players import resolve_player
from .options import add_players, add_quiet, add_seed, check_out_file, executor

MAX_OPTIMIZE_MINUTES = 7 * 24 * 60  # a week


def minutes(text: str) -> float:
    """An argparse type: minutes of wall time, a number > 0 and at most a week."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= MAX_OPTIMIZE_MINUTES:  # NaN fails too
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a number of minutes; allowed: more than 0, at most "
            f"{MAX_OPTIMIZE_MINUTES:,}"
        )
    return value


def add_parser(sub) -> None:
    opt = sub.add_parser(
        "optimize",
        help="search for a strong bot for a kingdom (evolution of bots in the strategy language)",
        description="Evolve bots for a kingdom: a population of bots in the strategy language, "
        "mutated and scored in compiled games against the best bots of earlier generations and "
        "the kingdom's strongest library bots. Prints the best bot in words and its record "
        "against the kingdom's library bots on games the search never saw. The same seed and "
        "number of generations give the same bot. Details: the docstring of "
        "dominion_env/analysis/optimize.py.",
    )
    opt.add_argument(
        "--kingdom",
        help="'random' (drawn from --seed), a recommended set name, or 10 comma-separated card "
        "names (default random)",
    )
    opt.add_argument(  # the form before --kingdom, kept so that old scripts run
        "kingdom_positional",
        nargs="?",
        metavar="KINGDOM",
        help="the same as --kingdom (older form)",
    )
    add_players(opt)
    opt.add_argument(
        "--minutes",
        type=minutes,
        help="wall time for the whole search (default 2 when --generations is not given)",
    )
    opt.add_argument(
        "--generations",
        type=int_in(1, MAX_GENERATIONS),
        help="stop after this many generations (with --minutes: whichever comes first)",
    )
    add_seed(opt)
    opt.add_argument(
        "--judge-games",
        type=int_in(1, MAX_GAMES_PER_PAIRING),
        default=1000,
        help="games of the best bot against each library bot, on fresh seeds (default 1000)",
    )
    opt.add_argument(
        "--out",
        metavar="FILE.toml",
        help="write the best bot as TOML (read by tournament --bots-file)",
    )
    opt.add_argument(
        "--against",
        metavar="AGENT",
        help="also judge every bot against this trained agent (a shipped agent's name or an "
        "agent file; the train extra), at half of its score: a specialist made to beat that "
        "agent on this kingdom; the record gets a row for it",
    )
    add_quiet(opt)
    add_ray_option(opt)
    opt.set_defaults(run=run, check=check, parser=opt)


def check(args) -> None:
    if args.kingdom is not None and args.kingdom_positional is not None:
        args.parser.error(
            f"argument --kingdom: given twice ({args.kingdom!r} and {args.kingdom_positional!r} "
            "before the options); give --kingdom only"
        )
    if args.kingdom is None:
        args.kingdom = "random" if args.kingdom_positional is None else args.kingdom_positional
    try:
        kingdom = kingdom_arg(args.kingdom)
        if kingdom != "random":
            make_setup(args.players, kingdom)
    except (ValueError, TypeError, NotImplementedError) as e:
        args.parser.error(f"argument --kingdom: {e}")
    args.kingdom_value = kingdom
    if args.minutes is None and args.generations is None:
        args.minutes = 2.0
    check_out_file(args, (".toml",), "(a bot file)")
    args.against_agents = [] if args.against is None else [_agent(args)]


def _agent(args):
    """The trained agent of ``--against``, loaded and checked before any game."""
    try:
        agent = resolve_player(args.against)
        if getattr(agent, "info", None) is None or not callable(getattr(agent, "act", None)):
            raise ValueError(
                f"{args.against!r} is not a trained agent (a shipped agent's name or an agent "
                "file); a library bot is in the pool already"
            )
        check_agent_players(agent, args.players, "this search")
    except (ValueError, OSError) as e:
        args.parser.error(f"argument --against: {e}")
    return agent


def run(args) -> int:
    work = executor(args)
    by_time = args.generations is None
    total = round(args.minutes * 60 * TIME_SHARE) if by_time else args.generations
    with tqdm(
        total=total, unit="s" if by_time else "gen", desc="optimizing", disable=args.quiet
    ) as bar:

        def progress(row):
            bar.set_postfix(gen=row["generation"], best=f"{row['best_score']:.3f}")
            bar.update(min(round(row["elapsed"]), total) - bar.n if by_time else 1)

        res = run_optimize(
            args.kingdom_value,
            args.players,
            args.minutes,
            args.seed,
            generations=args.generations,
            judge_games=args.judge_games,
            against=args.against_agents,
            map=work,
            progress=progress,
        )
    _print_result(res)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(res.to_toml())
        print(f"wrote {args.out} (dominion tournament --bots-file reads it)")
    return 0


def _print_result(res) -> None:
    print(
        f"\nkingdom {', '.join(res.kingdom)}; {res.players} players; seed {res.seed}\n"
        f"{res.generations} generations, {res.games:,} games in {res.seconds:.1f} s\n\n"
        f"{res.best.name}:\n{describe(res.best)}\n"
    )
    head = f"{'against':<24}{'wins':>24}{'ties':>8}{'losses':>8}{'games':>8}"
    print(head)
    print("-" * len(head))
    for r in res.record:
        lo, hi = r["win_ci"]
        mark = " (strongest)" if r["bot"] == res.strongest else ""
        win = f"{r['win_rate']:7.2%} [{lo:6.2%},{hi:6.2%}]"
        print(
            f"{r['bot'] + mark:<24}{win:>24}{r['ties'] / r['games']:>8.2%}"
            f"{r['losses'] / r['games']:>8.2%}{r['games']:>8}"
        )
    print("fresh games (seeds the search never used); [lo, hi] = 95% Wilson interval")
