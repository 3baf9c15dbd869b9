"""Self-play's settings (``SelfPlayConfig``), their bounds and checks, the files a run writes,
and its init agent, loaded and checked (``check_init``): what ``dominion selfplay`` checks
before any work, and what ``selfplay`` and its checkpoint (``selfplay_checkpoint``) read."""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import MAX_PLAYERS, MIN_PLAYERS
from ..checks import check_int, check_number, check_seed
from ..search.guided import DEFAULT_DEPTH, MAX_DEPTH
from ..search.search import MAX_BUDGET
from .device import AUTO, check_device_name
from .policy import AGENT_SUFFIX, Agent, load_agent
from .search_network import NetEvaluator
from .settings import MAX_MINUTES, MIN_MINUTES

# what a run writes in ``out`` besides progress.csv (the safetensors layout: ``tensorfile``)
AGENT_FILE = f"agent{AGENT_SUFFIX}"
CHECKPOINT_FILE = f"checkpoint{AGENT_SUFFIX}"

DEFAULT_GENERATIONS = 10
# a generation under way is saved after a batch once this long has passed since the last save:
# a generation of 512 games at budget 128 takes tens of minutes on 2 cores, a save a second
SAVE_SECONDS = 120.0
LEAGUE = ("past", "bots", "optimized")  # the league's opponents, in equal parts
PREVIOUS = "previous"  # the history's label of the new network against the previous one
INT_BOUNDS = (  # (setting, low, high)
    ("players", MIN_PLAYERS, MAX_PLAYERS),
    ("games", 1, 1_000_000),
    ("batch", 1, 65_536),
    ("budget", 1, MAX_BUDGET - 1),
    ("depth", 0, MAX_DEPTH),
    ("sample_moves", 0, 100_000),
    ("max_past", 1, 100),
    ("window", 1, 100),
    ("epochs", 1, 1000),
    ("minibatch", 1, 10**7),
    ("eval_games", 0, 1_000_000),
    ("turn_limit", 1, 100_000),
    ("torch_threads", 1, 1024),
)
NUMBER_BOUNDS = (  # (setting, low, high)
    ("league", 0.0, 1.0),
    ("lr", 0.0, 1.0),
    ("vf_coef", 0.0, 100.0),
    ("max_grad_norm", 0.0, 1e6),
)


@dataclass
class SelfPlayConfig:
    """Every setting of a self-play run (module docstring), saved with its agent."""

    # when to stop (whichever comes first; totals over resumed parts); neither: 10 generations
    generations: int | None = None
    minutes: float | None = None
    players: int = 2
    games: int = 64  # games per generation
    batch: int = 32  # games played at once (one search call answers a batch's learner rows)
    budget: int = 64  # the guided search's simulations per decision
    depth: int = DEFAULT_DEPTH  # network decisions per simulation
    sample_moves: int = 10  # each seat's first decisions of a game drawn from the policy
    league: float = 0.25  # the share of games against the league (LEAGUE)
    max_past: int = 4  # past generations' networks kept for the league
    window: int = 2  # generations of decisions learned from
    epochs: int = 2
    minibatch: int = 256
    lr: float = 1e-4
    vf_coef: float = 1.0
    max_grad_norm: float = 0.5
    eval_games: int = 32  # deals, each played twice (seats turned): new against previous
    init: str = "ppo-pool"  # the agent the run starts from
    seed: int = 0
    turn_limit: int = 100
    torch_threads: int = 1
    out: str = "runs/selfplay"
    name: str = "selfplay"
    device: str = AUTO


def check_config(cfg: SelfPlayConfig) -> SelfPlayConfig:
    """``cfg`` if every setting is in range, else a TypeError/ValueError naming the setting,
    its value and what is allowed (the init agent is checked by ``check_init``)."""
    if cfg.generations is not None:
        check_int("generations", cfg.generations, 1, 10**6)
    if cfg.minutes is not None:
        check_number("minutes", cfg.minutes, MIN_MINUTES, MAX_MINUTES)
    for name, lo, hi in INT_BOUNDS:
        check_int(name, getattr(cfg, name), lo, hi)
    for name, lo, hi in NUMBER_BOUNDS:
        check_number(name, getattr(cfg, name), lo, hi)
    check_seed(cfg.seed)
    check_device_name(cfg.device)
    for name in ("init", "out", "name"):
        if not isinstance(getattr(cfg, name), str) or not getattr(cfg, name):
            raise TypeError(f"{name} must be a non-empty string, got {getattr(cfg, name)!r}")
    n = league_games(cfg)
    if 0 < n < len(LEAGUE):
        raise ValueError(
            f"league={cfg.league:g} of games={cfg.games} is {n} game(s); the league's "
            f"{len(LEAGUE)} opponents ({', '.join(LEAGUE)}) need at least {len(LEAGUE)} "
            "(raise games or league, or set league 0)"
        )
    return cfg


def league_games(cfg: SelfPlayConfig) -> int:
    return int(round(cfg.games * cfg.league))


def check_init(cfg: SelfPlayConfig) -> Agent:
    """The init agent, loaded (no code runs), if it plays the run's games from scaled
    observations; a ValueError naming ``init`` otherwise."""
    agent = load_agent(cfg.init)
    if agent.info.players != cfg.players:
        raise ValueError(
            f"init={cfg.init!r} plays {agent.info.players}-player games; this run has "
            f"players={cfg.players}"
        )
    if not agent.info.scale_observations:
        raise ValueError(f"init={cfg.init!r} reads unscaled observations; the search's are scaled")
    NetEvaluator(agent, cfg.init)  # a ValueError if its training config's vp_shaping is bad
    return agent
