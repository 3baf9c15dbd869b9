"""``dominion train``'s settings as its options give them: each read, checked and turned into
the ``TrainConfig`` field it sets (``given``), with the opponents' ``NAME[:WEIGHT]`` form and
``--init``'s agent (its network and layers become the run's)."""

from __future__ import annotations

from ..agents import BOT_FILES, BOTS, file_bot, get_bot, unknown_name
from ..agents.library import split_file_bot
from ..arguments import check_kingdom_option
from ..engine.kingdoms import kingdom_arg
from ..search import parse_search_name
from ..train.policy import is_agent_file, load_agent, shipped_agents
from ..train.settings import ALL_BOTS, MAX_WEIGHT, MIN_WEIGHT, SELF, STRONGEST, TrainConfig

# options whose value is the field of the same name, given where not None or ''
SAME_NAMED = (
    "players",
    "seed",
    "num_envs",
    "hidden",
    "network",
    "vp_shaping",
    "epochs",
    "minibatch",
    "lr",
    "ent_coef",
    "bc_steps",
    "bc_search_steps",
    "teacher_coef",
    "teacher_budget",
    "teacher_positions",
    "init",
    "name",
)


def given_settings(args, d: TrainConfig) -> dict:
    """The run's settings given on the command line (explicitly), checked: field -> value."""
    given = {f: getattr(args, f) for f in SAME_NAMED if getattr(args, f) not in (None, "")}
    players = args.players if args.players is not None else d.players
    if args.kingdom is not None:
        args.players = players
        check_kingdom_option(args)
        given["kingdom"] = kingdom_arg(args.kingdom)
    if args.expert is not None:
        given["bc_expert"] = _expert(args)
    if args.opponent:
        given["opponents"] = _opponents(args, players)
    if args.init is not None:
        given.update(_init_settings(args, given, players))
    return given


def _expert(args) -> str:
    """--expert's name: 'strongest', a search's or a library bot's."""
    if args.expert.casefold() == STRONGEST:
        return STRONGEST
    try:
        search = parse_search_name(args.expert)
    except ValueError as e:  # a bad budget
        args.parser.error(f"argument --expert: {e}")
    if search is not None:
        return search.name
    try:
        return get_bot(args.expert).name
    except ValueError as e:
        args.parser.error(f"argument --expert: {e}")


def _opponents(args, players: int) -> dict:
    opponents = {}
    for spec in args.opponent:
        name, w = opponent(args, spec, players)
        if name in opponents:
            args.parser.error(
                f"argument --opponent: {name!r} is named twice; name each opponent once "
                "with its weight"
            )
        opponents[name] = w
    return opponents


def _weight(text: str) -> float | None:
    """``text`` as a number, None when it reads as none."""
    try:
        return float(text)
    except ValueError:
        return None


def _split_weight(args, spec: str) -> tuple[str, float]:
    """'NAME:2' -> ('NAME', 2.0); 'NAME' -> ('NAME', 1.0); a weight out of bounds ends the
    command."""
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
    return name, w


def opponent(args, spec: str, players: int) -> tuple[str, float]:
    """'Big Money Ultimate:2' -> ('Big Money Ultimate', 2.0), the name checked. What follows
    the last ':' is the weight where it reads as a number; otherwise it belongs to the name:
    ``FILE.toml:BOT`` (a bot of the file, as in every command: ``agents.file_bot``) or an agent
    file whose name holds ':' (a Windows drive). ``FILE.toml:2`` is the file with weight 2;
    a file's bot with a weight is ``FILE.toml:BOT:2``."""
    name, w = _split_weight(args, spec)
    if name.casefold() in (SELF, STRONGEST, ALL_BOTS):
        return name.casefold(), w
    ref = split_file_bot(name)
    if ref is not None and ref[1] is not None:  # one bot of the file, by its own name
        try:
            bot = file_bot(name)
        except ValueError as e:
            args.parser.error(f"argument --opponent: {e}")
        return f"{ref[0]}:{bot.name}", w
    if ref is not None:  # its bots are read and checked with the config (check_config)
        return name, w
    if is_agent_file(name) or name in shipped_agents():
        _check_agent(args, "--opponent", name, players)
        return name, w
    if name.casefold() not in {b.casefold() for b in BOTS}:
        known = [*BOTS, SELF, STRONGEST, ALL_BOTS, *shipped_agents(), *BOT_FILES]
        args.parser.error(f"argument --opponent: {unknown_name('opponent', name, known)}")
    return get_bot(name).name, w


def _check_agent(args, option: str, name: str, players: int):
    """The agent ``name`` loaded, or an error: unreadable, or trained for other tables."""
    try:
        agent = load_agent(name)
    except (ValueError, OSError) as e:
        args.parser.error(f"argument {option}: {e}")
    if agent.info.players != players:
        args.parser.error(
            f"argument {option}: agent {name!r} plays {agent.info.players}-player games; "
            f"this run has {players} players"
        )
    return agent


def _init_settings(args, given: dict, players: int) -> dict:
    """With --init: the agent's network and layers (where not given) and no imitation; an
    imitation option beside it, or an agent that does not fit, exits with status 2."""
    for option, field in (("--bc-steps", "bc_steps"), ("--expert", "bc_expert")):
        if given.get(field):
            args.parser.error(
                f"argument {option}: --init {args.init!r} starts the run from that agent "
                "instead of imitation; drop one of them"
            )
    info = _check_agent(args, "--init", args.init, players).info
    settings = {"network": info.network, "hidden": tuple(info.hidden), "embed": info.embed}
    settings = {k: v for k, v in settings.items() if k not in given}
    return {**settings, "bc_steps": 0}


def same(field: str, saved, given) -> bool:
    """Whether a saved setting is the one given (a list read back from JSON is the tuple or
    list given)."""
    if field == "hidden":
        return tuple(saved) == tuple(given)
    if field == "kingdom" and isinstance(saved, (list, tuple)):
        return isinstance(given, list) and list(saved) == given
    return saved == given


def option_of(field: str) -> str:
    """The option that sets ``field``."""
    return {"bc_expert": "expert", "opponents": "opponent"}.get(field, field)
