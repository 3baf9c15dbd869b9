"""A training run's settings: ``TrainConfig``, their bounds, and ``check_config``.

    cfg = check_config(TrainConfig(steps=2_000_000, opponents={"Big Money Ultimate": 1}))

Every setting is checked by ``check_config`` before anything is built (the bounds ``MAX_*``
below, ``INT_BOUNDS`` and ``NUMBER_BOUNDS``; the CLI's options say the same): a TypeError or
ValueError naming the setting, its value and what is allowed; nothing is coerced or dropped.
The opponent pool's names are read here too (``opponent_kind``): library bots, ``"self"``,
``"strongest"``, ``"all bots"``, strategy files (``FILE.toml``: per kingdom, its first bot that
fits; ``FILE.toml:BOT``: that bot, in the weighted pool with the library bots; read, no code
runs, every bot checked) and saved agents (loaded and checked for the run's players), and the
rows of the batch split between them by weight (``split_rows``). ``check_init`` loads and
checks the agent a run starts from (``init``). ``PHASES`` are the parts a run goes through,
in order.

``ADDED_SETTINGS`` are the settings added after checkpoints were first written, with the values
an older checkpoint reads as (``checkpoint.read_checkpoint``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..agents import Bot, file_bot, get_bot, is_bot_file, load_bot_file
from ..agents.library import split_file_bot
from ..checks import check_choice, check_int, check_number, check_seed
from ..names import check_name
from ..search import parse_search_name
from ..search.search import MAX_BUDGET
from ..vector import MAX_VP_SHAPING  # one bound: VecGame checks the same
from .device import AUTO, check_device_name
from .opponents import LIBRARY_BOTS
from .policy import (
    DEFAULT_EMBED,
    INFO_ADDED,
    MAX_EMBED,
    NETWORKS,
    is_agent_file,
    load_agent,
    shipped_agents,
)

DEFAULT_STEPS = 3_000_000
# a run's phases, in order (``Trainer.phase``): building the games and compiling (or loading)
# the engine's kernels; collecting
# the expert's decisions and learning them; with a search expert (``bc_expert="search:N"``) then
# the search's decisions and learning those; then PPO. A run passes through those it has.
PHASES = (
    "compile",
    "imitation data",
    "imitation epochs",
    "search data",
    "search epochs",
    "PPO",
)
SELF = "self"
STRONGEST = "strongest"  # the strongest library bot for each game's kingdom
ALL_BOTS = "all bots"  # every library bot but Random, each on its own kingdom (LibrarySeats)

# Bounds of the settings (``check_config``; the CLI's options say the same). The caps are far
# past any useful run and keep every count inside what memory and the clocks can hold.
MAX_MINUTES = 43_200.0  # 30 days; a longer run continues with resume
MIN_MINUTES = 0.01  # 0.6 s
MAX_STEPS = 10**12
MAX_BC_STEPS = 10_000_000  # imitation keeps every decision in memory (2 players: ~1 kB each as
# sparse rows on the CPU, ~4.5 kB dense on a GPU)
MAX_NUM_ENVS = 65_536  # a rollout keeps rollout x num_envs observations in memory
MAX_WIDTH = 4096  # hidden layer width
MAX_LAYERS = 8
MIN_WEIGHT, MAX_WEIGHT = 1e-6, 1e6  # opponent weights are relative: > 0, finite, summable
MAX_BC_SEARCH_STEPS = 1_000_000  # search-labelled decisions: ~14 ms each at budget 200 on a
# loaded 2-core box, so a million is already days
MAX_TEACHER_POSITIONS = 65_536  # positions searched per rollout (at most rollout x num_envs)
MAX_TEACHER_COEF = 100.0
INT_BOUNDS = (  # (setting, low, high): ints
    ("steps", 1, MAX_STEPS),
    ("players", 2, 6),
    ("num_envs", 1, MAX_NUM_ENVS),
    ("rollout", 1, 100_000),
    ("epochs", 1, 1000),
    ("minibatch", 1, 10**7),
    ("bc_steps", 0, MAX_BC_STEPS),
    ("bc_epochs", 1, 1000),
    ("snapshot_every", 1, MAX_STEPS),
    ("max_snapshots", 1, 1000),
    ("turn_limit", 1, 100_000),
    ("torch_threads", 1, 1024),
    ("log_every", 1, MAX_STEPS),
    ("bc_search_steps", 0, MAX_BC_SEARCH_STEPS),
    ("teacher_budget", 1, MAX_BUDGET - 1),
    ("teacher_positions", 1, MAX_TEACHER_POSITIONS),
)
NUMBER_BOUNDS = (  # (setting, low, high): finite numbers
    ("lr", 0.0, 1.0),
    ("gamma", 0.0, 1.0),
    ("lam", 0.0, 1.0),
    ("clip", 0.0, 10.0),
    ("ent_coef", 0.0, 100.0),
    ("vf_coef", 0.0, 100.0),
    ("max_grad_norm", 0.0, 1e6),
    ("vp_shaping", 0.0, MAX_VP_SHAPING),
    ("teacher_coef", 0.0, MAX_TEACHER_COEF),
)


@dataclass
class TrainConfig:
    """Every setting of a training run (saved with the agent)."""

    # when to stop (whichever comes first): learner decisions, all rows together, and training
    # minutes (imitation included); with neither given, DEFAULT_STEPS
    steps: int | None = None
    minutes: float | None = None
    players: int = 2
    kingdom: object = "random"  # "random", a recommended set name, or 10 card names
    # opponent -> weight: library bot names, "self" (past snapshots), "strongest", saved agent
    # paths, strategy files (.toml paths, "optimized") and their bots ("FILE.toml:BOT")
    opponents: dict = field(
        default_factory=lambda: {"Big Money Ultimate": 2, "Big Money": 1, STRONGEST: 1, SELF: 1}
    )
    num_envs: int = 512
    rollout: int = 32
    epochs: int = 3
    # 2048: two gradient steps where 4096 took one, for the same work; +2.1 points against
    # BMU in five minutes on each of 5 seeds (docs/results/training.md)
    minibatch: int = 2048
    lr: float = 3e-4
    gamma: float = 1.0
    lam: float = 0.95
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    vp_shaping: float = 0.02
    hidden: tuple = (128, 128)
    network: str = "mlp"  # policy.NETWORKS: "mlp" (PolicyNet) or "cards" (CardSetNet)
    embed: int = DEFAULT_EMBED  # the card embedding's width ("cards")
    bc_steps: int = 1_500_000  # imitation: expert decisions to learn from (0: none)
    # start from this agent's weights (a shipped name or an agent file) instead of imitation
    init: str | None = None
    bc_expert: str = STRONGEST  # a library bot, "strongest" (per kingdom) or "search:N"
    bc_epochs: int = 4
    # with bc_expert "search:N": after imitating the strongest bot for bc_steps decisions (the
    # search's own rollout policy), imitate the search at budget N on this many decisions
    bc_search_steps: int = 16_384
    # expert iteration during PPO: each rollout, teacher_positions of the learner's own
    # positions are searched at teacher_budget simulations and a cross-entropy term of weight
    # teacher_coef pulls the policy toward the search's choices (0: off)
    teacher_coef: float = 0.0
    teacher_budget: int = 200
    teacher_positions: int = 64
    snapshot_every: int = 250_000
    max_snapshots: int = 5
    turn_limit: int = 100
    seed: int = 0
    torch_threads: int = 1
    log_every: int = 100_000  # learner steps between progress rows
    out: str = "runs/agent"
    name: str = "agent"
    # where the network acts and learns ("auto": CUDA if present, "cpu", "cuda", "cuda:N",
    # ``device.py``); the games run on the CPU
    device: str = AUTO


# settings added after checkpoints were first written: an older checkpoint lacks them and
# reads as these values
ADDED_SETTINGS = {
    "device": "cpu",
    **INFO_ADDED,  # an MLP
    "bc_search_steps": TrainConfig.bc_search_steps,
    "teacher_coef": 0.0,  # no expert iteration
    "teacher_budget": TrainConfig.teacher_budget,
    "teacher_positions": TrainConfig.teacher_positions,
    "init": None,  # started from imitation
}


def opponent_kind(name: str) -> str:
    """What an opponent's name names: "self", "strongest", "all bots", "file" (a strategy
    file: per kingdom, its first bot that fits), "agent" (an agent file or a shipped agent's
    name) or "bot" (a bot of the weighted pool: a library bot, or ``FILE.toml:BOT``, one bot
    of a strategy file as ``agents.file_bot`` reads it)."""
    if name in (SELF, STRONGEST, ALL_BOTS):
        return name
    ref = split_file_bot(name)
    if ref is not None:
        return "file" if ref[1] is None else "bot"
    if is_agent_file(name) or name in shipped_agents():
        return "agent"
    return "bot"


def is_bot(name: str) -> bool:
    return opponent_kind(name) == "bot"


def pool_bot(name: str) -> Bot:
    """The ``Bot`` a pool opponent of kind "bot" names: a library bot (``get_bot``) or a
    strategy file's (``FILE.toml:BOT``, ``agents.file_bot``: the file is read, no code runs);
    a ValueError naming the opponent and what is wrong otherwise."""
    if split_file_bot(name) is None:
        try:
            return get_bot(name)
        except ValueError as e:
            raise ValueError(f"opponents: {e}") from None
    try:
        return file_bot(name)
    except (ValueError, TypeError) as e:
        raise ValueError(f"opponent {name!r}: {e}") from None


def _check_opponents(cfg) -> None:
    """Every opponent names something that plays this run's games: a known bot, an agent
    for its players, "all bots" only on random kingdoms; a ValueError naming it otherwise."""
    for name in cfg.opponents:
        kind = opponent_kind(name)
        if kind == "bot":
            pool_bot(name)
        elif kind == "agent":
            players = load_agent(name).info.players  # a ValueError naming a bad file
            if players != cfg.players:
                raise ValueError(
                    f"opponents: agent {name!r} plays {players}-player games; this run has "
                    f"players={cfg.players}"
                )
        elif kind == ALL_BOTS:
            if not (isinstance(cfg.kingdom, str) and cfg.kingdom == "random"):
                raise ValueError(
                    f"opponents: {ALL_BOTS!r} plays each library bot on its own kingdom; "
                    f"this run's kingdom is {cfg.kingdom!r} (name the bots instead)"
                )


def bot_files(opponents: dict) -> dict:
    """Strategy-file opponent -> its bots (``agents.load_bot_file``); a ValueError naming
    the opponent, the file and the fault for a file that is missing, not TOML, holds no bot
    or a bot the strategy language rejects."""
    out = {}
    for name, w in opponents.items():
        if w > 0 and is_bot_file(name):
            try:
                out[name] = load_bot_file(name)
            except (ValueError, TypeError) as e:
                raise ValueError(f"opponent {name!r}: {e}") from None
    return out


def split_rows(num_envs: int, weights: dict) -> dict:
    """Rows per opponent, proportional to weight, every opponent with weight > 0 at least 1."""
    names = [k for k, w in weights.items() if w > 0]
    total = sum(weights[k] for k in names)
    rows = {k: max(1, int(round(num_envs * weights[k] / total))) for k in names}
    rows[names[0]] += num_envs - sum(rows.values())
    if rows[names[0]] < 1:
        raise ValueError(
            f"num_envs={num_envs} is too small to give each of {len(names)} opponent groups "
            f"({', '.join(names)}) its rows at these weights"
        )
    return rows


def pooled(opponents: dict) -> tuple[dict, dict]:
    """(the pool's bots -> weight, the row groups -> weight): the bots (library bots and
    strategy files' ``FILE.toml:BOT``) share one VecGame (its compiled step draws each game's
    bots), so they are one group, "bots"."""
    bots = {k: w for k, w in opponents.items() if w > 0 and is_bot(k)}
    others = {k: w for k, w in opponents.items() if w > 0 and not is_bot(k)}
    return bots, ({"bots": sum(bots.values()), **others} if bots else others)


def check_config(cfg: TrainConfig) -> TrainConfig:
    """``cfg`` if every setting is in range (the bounds above), else a TypeError/ValueError
    naming the setting, its value and what is allowed; nothing is coerced or dropped."""
    if not isinstance(cfg.opponents, dict) or not cfg.opponents:
        raise ValueError(f"opponents must be a dict name -> weight, got {cfg.opponents!r}")
    for k, w in cfg.opponents.items():
        if not isinstance(k, str):
            raise TypeError(f"opponents: a name must be a string, got {k!r}")
        # weight 0 would drop the opponent silently; above MAX_WEIGHT the sum loses the others
        check_number(f"opponent weight for {k!r}", w, MIN_WEIGHT, MAX_WEIGHT)
    for name, lo, hi in INT_BOUNDS:
        v = getattr(cfg, name)
        if v is None and name == "steps":
            continue
        check_int(name, v, lo, hi)
    if cfg.minutes is not None:
        check_number("minutes", cfg.minutes, MIN_MINUTES, MAX_MINUTES)
    for name, lo, hi in NUMBER_BOUNDS:
        check_number(name, getattr(cfg, name), lo, hi)
    if cfg.gamma <= 0:
        raise ValueError(f"gamma must be a finite number in (0, 1], got {cfg.gamma!r}")
    check_expert(cfg.bc_expert)
    check_name("name", cfg.name)  # the agent's name, printed and saved
    if cfg.init is not None:
        if not isinstance(cfg.init, str) or not cfg.init:
            raise TypeError(
                f"init must be None or an agent (a shipped name or a file), got {cfg.init!r}"
            )
        if cfg.bc_steps:
            raise ValueError(
                f"init={cfg.init!r} starts the run from that agent; imitation would overwrite "
                f"it: set bc_steps=0 (got {cfg.bc_steps})"
            )
    if cfg.teacher_coef > 0 and cfg.teacher_positions > cfg.rollout * cfg.num_envs:
        raise ValueError(
            f"teacher_positions={cfg.teacher_positions} is more than a rollout's "
            f"{cfg.rollout * cfg.num_envs} positions (rollout x num_envs)"
        )
    check_hidden(cfg.hidden)
    check_choice("network", cfg.network, NETWORKS)
    check_int("embed", cfg.embed, 1, MAX_EMBED)
    check_seed(cfg.seed)
    check_device_name(cfg.device)
    rows = split_rows(cfg.num_envs, pooled(cfg.opponents)[1])
    if rows.get(ALL_BOTS, len(LIBRARY_BOTS)) < len(LIBRARY_BOTS):
        raise ValueError(
            f"opponents: {ALL_BOTS!r} needs a row for each of its {len(LIBRARY_BOTS)} bots; "
            f"num_envs={cfg.num_envs} at these weights gives it {rows[ALL_BOTS]} (raise num_envs "
            "or its weight)"
        )
    _check_opponents(cfg)
    bot_files(cfg.opponents)
    return cfg


def check_expert(expert) -> str:
    """``bc_expert``: a library bot's name, "strongest" or "search:N" (N simulations per
    decision); a TypeError/ValueError naming it otherwise."""
    if not isinstance(expert, str):
        raise TypeError(
            f"bc_expert must be a library bot's name, {STRONGEST!r} or 'search:N', got {expert!r}"
        )
    if expert != STRONGEST and parse_search_name(expert) is None:
        try:
            get_bot(expert)
        except ValueError as e:
            raise ValueError(f"bc_expert: {e} (or {STRONGEST!r}, or 'search:N')") from None
    return expert


def check_hidden(hidden) -> tuple:
    """The hidden layers' widths: 1..MAX_LAYERS ints, each 1..MAX_WIDTH."""
    if not isinstance(hidden, (tuple, list)) or not 1 <= len(hidden) <= MAX_LAYERS:
        raise ValueError(
            f"hidden must be 1 to {MAX_LAYERS} layer widths (a tuple of ints), got {hidden!r}"
        )
    return tuple(check_int("hidden layer width", h, 1, MAX_WIDTH) for h in hidden)


def check_init(cfg: TrainConfig):
    """The agent ``cfg.init`` names, loaded (no code runs), if it fits the run: the same
    players, network and sizes, scaled observations; a ValueError naming ``init`` otherwise.
    Checked when a run starts, not when it resumes (the weights are in the checkpoint)."""
    agent = load_agent(cfg.init)  # a ValueError naming the file if it is not a valid agent
    info = agent.info
    mine = (
        cfg.players,
        cfg.network,
        tuple(cfg.hidden),
        cfg.embed if cfg.network == "cards" else None,
    )
    theirs = (
        info.players,
        info.network,
        tuple(info.hidden),
        info.embed if info.network == "cards" else None,
    )
    if mine != theirs or not info.scale_observations:
        raise ValueError(
            f"init={cfg.init!r} is an agent for players={info.players}, "
            f"network={info.network!r}, hidden={tuple(info.hidden)}"
            + (f", embed={info.embed}" if info.network == "cards" else "")
            + ("" if info.scale_observations else ", unscaled observations")
            + f"; this run has players={cfg.players}, network={cfg.network!r}, "
            f"hidden={tuple(cfg.hidden)}"
            + (f", embed={cfg.embed}" if cfg.network == "cards" else "")
            + ": give the run the agent's settings"
        )
    return agent
