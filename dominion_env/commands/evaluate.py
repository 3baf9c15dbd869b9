"""``dominion evaluate``: a trained agent (or a search) against library bots on seeds
training never used: wins, ties and losses with 95% intervals (the work:
``train.evaluate.evaluate``)."""

from __future__ import annotations

import json

from ..agents import BOT_FILES, BOTS, file_bot, get_bot, is_bot_file, load_bot_file, unknown_name
from ..agents.library import split_file_bot
from ..analysis.arena import MAX_GAMES
from ..analysis.executor import add_ray_option, executor_for
from ..arguments import check_kingdom_option
from ..engine.kingdoms import kingdom_arg
from ..names import printable
from ..players import NAME_FORMS
from ..train.device import check_device
from ..train.evaluate import EVAL_SEED, evaluate, format_table
from ..train.policy import load_agent
from ..train.settings import STRONGEST
from .options import add_device, add_games, add_json, add_players, add_seed
from .train import DEFAULT_EVAL, FILE_FORMS


def add_parser(sub) -> None:
    p = sub.add_parser(
        "evaluate",
        help="an agent against library bots: W/T/L with 95%% CIs",
        description="Play an agent (an agent file, .safetensors or an older release's .pt, or a "
        "shipped agent's name) against bots on seeds training never used.",
    )
    p.add_argument(
        "agent",
        help="an agent file, a shipped agent, search[:N], search:AGENT[:N], rollout:AGENT[:N] "
        "or ismcts[:N] (see: dominion bots)",
    )
    p.add_argument(
        "--opponent",
        action="append",
        metavar="BOT",
        help=f"a library bot, 'strongest' (per random kingdom), {FILE_FORMS}; repeat "
        "(default: " + ", ".join(DEFAULT_EVAL) + ")",
    )
    add_games(p, 4000, f"per opponent, 1 to {MAX_GAMES:,}")
    p.add_argument("--kingdom", default="random")
    add_players(p, None, "2 to 6 (default: the agent's own)")
    add_seed(p, EVAL_SEED)
    add_json(p, "one JSON object per opponent per line")
    add_device(
        p,
        "auto",
        "where the agent's network runs: auto (the default: cuda where present, else "
        "cpu), cpu, cuda or cuda:N",
    )
    add_ray_option(p)
    p.set_defaults(run=run, check=check, parser=p)


def check(args) -> None:
    _check_agent(args)
    if args.kingdom == "bots":  # simulate's word: an agent names no cards
        args.parser.error("argument --kingdom: 'random', a recommended set or 10 cards, got 'bots'")
    check_kingdom_option(args)
    args.kingdom_value = kingdom_arg(args.kingdom)
    args.opponents = [_opponent(args, name) for name in args.opponent or DEFAULT_EVAL]


def _check_agent(args) -> None:
    """The agent (or search) resolved onto --device, and --players checked against it."""
    try:  # a player of a name form (the searches, ISMCTS) or a trained agent
        forms = (form.parse(args.agent, args.seed) for form in NAME_FORMS)
        search = next((p for p in forms if p is not None), None)
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


def _opponent(args, name: str):
    """One --opponent: a library bot's name, 'strongest', a strategy file (random kingdoms)
    or one bot of a file (a Bot)."""
    ref = split_file_bot(name)
    if ref is not None and (args.kingdom != "random" or ref[1] is not None):
        # one bot of the file: FILE.toml:BOT, or the file's bot for a fixed kingdom
        try:
            return file_bot(name, args.kingdom_value)
        except ValueError as e:
            args.parser.error(f"argument --opponent: {e}")
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
        return STRONGEST if name.casefold() == STRONGEST else name
    try:
        return get_bot(name).name
    except ValueError:
        known = [*BOTS, STRONGEST, *BOT_FILES]
        args.parser.error(f"argument --opponent: {unknown_name('opponent', name, known)}")


def run(args) -> int:
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
