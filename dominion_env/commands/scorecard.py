"""``dominion scorecard``: any player measured by one fixed, versioned protocol (seeds,
kingdoms, opponents and games fixed; the work: ``train.scorecard``). The player is named as
in every command (``players.resolve_player``)."""

from __future__ import annotations

import json
import sys

from tqdm import tqdm

from ..analysis.executor import add_ray_option, executor_for
from ..train.scorecard import SECTIONS, format_scorecard, resolve, scorecard, table_sizes
from .options import add_json, add_quiet


def add_parser(sub) -> None:
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
        help="a shipped agent, an agent file, a library bot, FILE.toml[:BOT], search[:N] or "
        "search:AGENT:N",
    )
    p.add_argument(
        "--quick", action="store_true", help="the same protocol with fewer games (wider CIs)"
    )
    add_json(p, "print the scorecard as one JSON object")
    add_quiet(p)
    add_ray_option(p)
    p.set_defaults(run=run, check=check, parser=p)


def check(args) -> None:
    try:
        args.player_resolved = resolve(args.player)
    except (ValueError, OSError) as e:
        args.parser.error(f"argument player: {e}")


def run(args) -> int:
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
