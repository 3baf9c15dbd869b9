"""PPO on VecGame with torch: the default trainer (``dominion train``).

    from dominion_env.train import TrainConfig, train
    result = train(TrainConfig(steps=2_000_000, opponents={"Big Money Ultimate": 1}))

The recipe, and why each piece is there (each was measured: docs/results/training.md):

* **gamma = 1** (no discount per decision): with a per-decision discount a losing learner's best
  move is to delay its -1 by inventing decisions (Cellar loops, PASS), and games balloon to
  200-300 decisions.
* **potential-based VP shaping** (``dominion_env.shaping``): early credit for buys that score,
  with every game's return still exactly its result; ``vp_shaping=0`` turns it off.
* **scaled observations** (``VecGame(scale_observations=True)``): raw counts stall the network.
* **imitation warm start** (``bc_steps``): the policy first copies a library bot's choices
  (the batched expert API, ``VecGame.bot_actions``) on games that bot plays, and its value head
  learns those games' returns; PPO then starts from a player that already wins some games.
* **or a saved agent as the start** (``init``): the run starts from an agent's weights (a
  shipped agent's name or an agent file, of the run's players, network and sizes) instead of
  imitation (``bc_steps`` must then be 0): to train a shipped agent further, or on one
  kingdom. Adam's state and the snapshots start fresh.
* **the network** (``network``): "mlp" (``policy.PolicyNet``, the default) or "cards"
  (``policy.CardSetNet``: the game's cards as a set, each embedded by id); see
  docs/results/training.md for how they compare on the same time budget.
* **the search player as a teacher** (``dominion_env.search``; off by default;
  docs/results/training.md has what it measured): ``bc_expert="search:N"`` imitates the
  strongest bot for ``bc_steps`` decisions (the search's own rollout policy), then the search
  at budget N in the learner's seat for ``bc_search_steps`` decisions (phases "search data", "search
  epochs"; its chosen actions are the targets); ``teacher_coef`` > 0 is expert iteration:
  before each update, ``teacher_positions`` of the rollout's own positions (drawn before it,
  their games copied from ``VecGame.state`` as the rollout reaches them; only those with a
  choice) are searched at ``teacher_budget`` and every minibatch's loss adds ``teacher_coef``
  x the cross-entropy of the policy there against the search's choices (``Teacher``). The
  positions and the search's streams are keyed by (seed, steps so far), not by a generator's
  state, so a run resumed from a checkpoint goes the same way each time.
* **an opponent pool** (``opponents``): library bots by weight, plus ``"self"``, frozen
  snapshots of the learner taken every ``snapshot_every`` steps (self-play against its past),
  plus ``"strongest"`` (the strongest library bot for each game's kingdom), plus ``"all
  bots"`` (every library bot but Random, each on its own kingdom: ``dominion tournament``'s
  tables, ``seats.LibrarySeats``; random kingdoms only), plus saved agents
  by path, plus strategy files (a ``.toml`` path of ``[[bot]]`` tables, or ``"optimized"``,
  the optimizer's per-kingdom bots shipped in ``agents/optimized.toml``): on each game's
  kingdom the other seats play the file's first bot whose cards are all in it, else the
  strongest library bot (``seats.KingdomExperts``). A file is read (no code runs) and every
  bot checked by ``check_config``. Rows of the batch are split between them by weight.

One learner step is one decision of the learner. A rollout is ``rollout`` steps of every row;
advantages by GAE(lambda) with gamma 1; ``epochs`` passes of clipped PPO over minibatches
(``collect``, ``advantages``, ``update``). The rollout runs torch on ``torch_threads`` (1) beside
Numba's env: on 2 cores their thread pools otherwise fight. The update and the imitation epochs
never run beside the env, so torch takes as many threads as Numba's pool there
(``update_threads``; one where a pool started before ``OMP_WAIT_POLICY=PASSIVE`` was set, see
``dominion_env.train``). On the CPU the network's first layer reads only the observation's
non-zero entries (``sparse``: ~7% of them; the same function, ~15x less work); on a GPU
(``device`` "auto", the default, where CUDA is present; or "cuda") the network acts and learns
there, dense, while the games stay on the CPU (``device.py``).

``progress(steps, trainer)`` (``Trainer(progress=...)``) is called as the run moves through
``PHASES`` (those it has: the search's two only with ``bc_expert="search:N"``):
``trainer.phase`` names the phase, ``trainer.phase_done`` says how much of it is done (0..1),
``steps`` the learner steps since the last call and ``trainer.seconds`` the training time so
far (imitation's included): ``dominion train``'s bar shows all three.

Logged while training (``progress.csv`` in ``out``): steps, minutes, the true win rate of the
learner's finished training games against each opponent (stochastic policy; not the shaped
return), mean game length in learner decisions, losses and entropy (with expert iteration also
``teacher_loss``; ``teacher_agreement``, the policy's argmax against the search's choices;
``teacher_departures``, how often the search left its rollout bot's own choice; and
``teacher_seconds``, the last rollout's search time); ``curve.png`` plots the win rates against
steps and minutes. The run saves all of it every ``SAVE_EVERY_SECONDS`` (10 minutes) of PPO
and at the end. ``out/agent.pt`` is the final agent, ``out/checkpoint.pt`` resumes training
(``resume=True``): the config, the net, Adam's state, the past snapshots and the history, as
tensors plus JSON in ``tensorfile``'s layout (loading runs no code; each part, Adam's state
included, is checked against the config and its ranges before anything is built,
``read_checkpoint``; ``saved_config(out)`` reads a saved run's settings). Neither file holds
the run's folder: a run is resumed from, and saves into, the ``out`` it is given, never a
folder a file names.

Every setting is checked by ``check_config`` before anything is built (the bounds ``MAX_*``
below; TypeError/ValueError naming the setting and value). Ctrl-C during PPO saves the run so
far and raises ``Interrupted`` (a KeyboardInterrupt); during imitation nothing is saved.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import json
import math
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numba
import numpy as np
import torch

from ..agents import compile_bots, get_bot, is_bot_file, load_bot_file
from ..cards import MAX_PLAYERS, MIN_PLAYERS
from ..checks import check_choice, check_int, check_number, check_seed, is_int
from ..engine.observation import obs_size
from ..extras import require
from ..names import check_name
from ..search import parse_search_name
from ..search.search import MAX_BUDGET, Search
from . import PASSIVE_POOLS, sparse, tensorfile
from .device import AUTO, check_device, check_device_name
from .policy import (
    DEFAULT_EMBED,
    INFO_ADDED,
    MAX_EMBED,
    NETWORKS,
    AgentInfo,
    check_state,
    load_agent,
    make_net,
    net_shapes,
    sample,
    save_agent,
    shipped_agents,
)
from .seats import LIBRARY_BOTS, BotSeats, KingdomExperts, LibrarySeats, PolicySeats, StrongestSeats
from .tensorfile import AgentFileError

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
MAX_VP_SHAPING = 1.0  # per VP of margin; 1 already outweighs the +-1 result of a game
MAX_BC_SEARCH_STEPS = 1_000_000  # search-labelled decisions: ~14 ms each at budget 200 on a
# loaded 2-core box, so a million is already days
MAX_TEACHER_POSITIONS = 65_536  # positions searched per rollout (at most rollout x num_envs)
MAX_TEACHER_COEF = 100.0
# a run saves itself (agent, checkpoint, progress.csv, curve) this often while PPO runs, so a
# crash or a killed job loses at most this much training and a long run's curve can be read
# while it goes; the saves only read the run's state, so they change nothing in it
SAVE_EVERY_SECONDS = 600.0
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
    # paths, strategy files (.toml paths, "optimized")
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


class Rollout:
    """Rollout storage: (T, N) arrays of one rollout, numpy, filled in place. Observations
    are kept as sparse rows (``sparse.SparseRows``) for a net that reads them, else dense."""

    def __init__(self, t: int, n: int, obs_dim: int, num_actions: int, sparse_rows: bool):
        self.rows = sparse.SparseRows((t, n)) if sparse_rows else None
        self.obs = None if sparse_rows else np.zeros((t, n, obs_dim), np.float32)
        self.mask = np.zeros((t, n, num_actions), np.bool_)
        self.action = np.zeros((t, n), np.int64)
        self.logp = np.zeros((t, n), np.float32)
        self.value = np.zeros((t, n), np.float32)
        self.reward = np.zeros((t, n), np.float32)
        self.done = np.zeros((t, n), np.float32)

    def put(self, t: int, obs: np.ndarray, mask: np.ndarray) -> None:
        if self.rows is not None:
            self.rows.write(obs, t)
        else:
            self.obs[t] = obs
        self.mask[t] = mask

    def advantages(self, last_value: np.ndarray, gamma: float, lam: float):
        t_len = self.reward.shape[0]
        adv = np.zeros_like(self.reward)
        gae = np.zeros_like(last_value)
        for t in reversed(range(t_len)):
            next_value = last_value if t == t_len - 1 else self.value[t + 1]
            live = 1.0 - self.done[t]
            delta = self.reward[t] + gamma * next_value * live - self.value[t]
            gae = delta + gamma * lam * live * gae
            adv[t] = gae
        return adv, adv + self.value


def opponent_kind(name: str) -> str:
    """What an opponent's name names: "self", "strongest", "all bots", "file" (a strategy
    file), "agent" (an agent file or a shipped agent's name) or "bot" (a library bot)."""
    if name in (SELF, STRONGEST, ALL_BOTS):
        return name
    if is_bot_file(name):
        return "file"
    if name.endswith(".pt") or name in shipped_agents():
        return "agent"
    return "bot"


def _is_bot(name: str) -> bool:
    return opponent_kind(name) == "bot"


def _check_opponents(cfg) -> None:
    """Every opponent names something that plays this run's games: a known bot, an agent
    for its players, "all bots" only on random kingdoms; a ValueError naming it otherwise."""
    for name in cfg.opponents:
        kind = opponent_kind(name)
        if kind == "bot":
            try:
                get_bot(name)
            except ValueError as e:
                raise ValueError(f"opponents: {e}") from None
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


def _bot_files(opponents: dict) -> dict:
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


def _split_rows(num_envs: int, weights: dict) -> dict:
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


def _pooled(opponents: dict) -> tuple[dict, dict]:
    """(library bots -> weight, the row groups -> weight): the library bots share one
    VecGame (its compiled step draws each game's bots), so they are one group, "bots"."""
    bots = {k: w for k, w in opponents.items() if w > 0 and _is_bot(k)}
    others = {k: w for k, w in opponents.items() if w > 0 and not _is_bot(k)}
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
    rows = _split_rows(cfg.num_envs, _pooled(cfg.opponents)[1])
    if rows.get(ALL_BOTS, len(LIBRARY_BOTS)) < len(LIBRARY_BOTS):
        raise ValueError(
            f"opponents: {ALL_BOTS!r} needs a row for each of its {len(LIBRARY_BOTS)} bots; "
            f"num_envs={cfg.num_envs} at these weights gives it {rows[ALL_BOTS]} (raise num_envs "
            "or its weight)"
        )
    _check_opponents(cfg)
    _bot_files(cfg.opponents)
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


class Trainer:
    """PPO against a pool of opponents (see the module docstring)."""

    def __init__(self, cfg: TrainConfig, progress=None):
        self.cfg = check_config(cfg)
        self.device = check_device(cfg.device)
        self.phase, self.phase_done = PHASES[0], 0.0  # building games, compiling kernels
        torch.set_num_threads(cfg.torch_threads)
        # the env (Numba's pool) and the update never run at once: the update takes as many
        # threads as the env does, where both pools sleep when idle (``PASSIVE_POOLS``)
        self.update_threads = (
            max(cfg.torch_threads, numba.config.NUMBA_NUM_THREADS)
            if PASSIVE_POOLS
            else cfg.torch_threads
        )
        torch.manual_seed(cfg.seed)
        self.rng = np.random.default_rng(cfg.seed)
        self.obs_dim = obs_size(cfg.players)
        self.net = self._new_net()
        self.sparse = sparse.supports(self.net)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=cfg.lr, eps=1e-5)
        self.snapshots: list[torch.nn.Module] = []
        self.groups = []
        kw = dict(vp_shaping=cfg.vp_shaping, turn_limit=cfg.turn_limit)
        bots, pooled = _pooled(cfg.opponents)
        files = _bot_files(cfg.opponents)
        for name, rows in _split_rows(cfg.num_envs, pooled).items():
            if name == "bots" and bots:
                for b in bots:
                    get_bot(b)
                group = BotSeats(
                    rows, cfg.players, cfg.kingdom, list(bots), list(bots.values()), **kw
                )
            elif name == STRONGEST:
                group = StrongestSeats(rows, cfg.players, cfg.kingdom, STRONGEST, **kw)
            elif name in files:
                group = StrongestSeats(rows, cfg.players, cfg.kingdom, name, bots=files[name], **kw)
            elif name == ALL_BOTS:
                group = LibrarySeats(rows, cfg.players, LIBRARY_BOTS, **kw)
            elif name == SELF:
                group = PolicySeats(
                    rows, cfg.players, cfg.kingdom, self._snapshot_policy, SELF, **kw
                )
            else:
                group = PolicySeats(
                    rows, cfg.players, cfg.kingdom, load_agent(name).act, name, **kw
                )
            self.groups.append(group)
        self.steps = 0
        self.seconds = 0.0
        self.history: list[dict] = []
        self.progress = progress
        # finished training games' results per opponent, logged and cleared at each log row
        self._games: dict[str, list] = {k: [] for k, w in cfg.opponents.items() if w > 0}
        self._lengths: list[int] = []
        self._episode_len = np.zeros(cfg.num_envs, np.int64)
        # the games are built; their first step compiles the engine's kernels (or loads them)
        self._report(PHASES[0], 0.0)

    def _report(self, phase: str, done: float, steps: int = 0) -> None:
        """Tell ``progress`` where the run is: ``phase`` (one of ``PHASES``), ``done`` of it
        (0..1; PPO's is steps over the run's steps, or seconds over its minutes) and the
        learner steps taken since the last report."""
        self.phase, self.phase_done = phase, done
        if self.progress is not None:
            self.progress(steps, self)

    # -- policies ------------------------------------------------------------------------

    def _snapshot_policy(self, obs, mask):
        """A random past snapshot per call (the current net before the first snapshot)."""
        net = self.snapshots[self.rng.integers(len(self.snapshots))] if self.snapshots else self.net
        if not self.sparse:
            return net.act(obs, mask)[0]
        rows = sparse.SparseRows((len(obs),))
        rows.write(obs)
        idx, val = rows.rows()
        with torch.no_grad():  # on the nets' device, as the learner's own rows (``_forward``)
            logits, _ = sparse.forward(
                net, idx.to(self.device), val.to(self.device), self._tensor(np.array(mask))
            )
            return sample(logits)[0].cpu().numpy()

    def _new_net(self):
        cfg = self.cfg
        return make_net(cfg.players, cfg.network, cfg.hidden, cfg.embed).to(self.device)

    def take_snapshot(self):
        snap = self._new_net()
        snap.load_state_dict(self.net.state_dict())
        self.snapshots.append(snap.eval())
        del self.snapshots[: -self.cfg.max_snapshots]

    # -- the loop --------------------------------------------------------------------------

    def _reset(self, seed):
        obs, mask = [], []
        for k, g in enumerate(self.groups):
            o, m = g.reset(seed * 1000 + k)
            obs.append(o)
            mask.append(m)
        return np.concatenate(obs), np.concatenate(mask)

    def _step(self, actions):
        obs, mask, reward, done = [], [], [], []
        start = 0
        for g in self.groups:
            o, m, r, d, fin = g.step(actions[start : start + g.num_games])
            obs.append(o)
            mask.append(m)
            reward.append(r)
            done.append(d)
            for label, result in zip(fin.opponent, fin.result.tolist(), strict=True):
                self._games.setdefault(label, []).append(result)
            start += g.num_games
        return (
            np.concatenate(obs),
            np.concatenate(mask),
            np.concatenate(reward),
            np.concatenate(done),
        )

    def warm_start(self, init=None):
        """The start of a new run: the weights of ``init`` where it names an agent (``init``:
        that agent as ``check_init`` returned it, else it is loaded and checked here), else
        imitation (``imitate``)."""
        if self.cfg.init is None:
            self.imitate()
            return
        agent = init if init is not None else check_init(self.cfg)
        self.net.load_state_dict(agent.net.state_dict())

    def imitate(self):
        """Warm start: behaviour cloning of ``bc_expert`` (a library bot, or "strongest": the
        strongest bot for each game's kingdom) on ``bc_steps`` of its decisions in the learner's
        seat, against the pool's bots (or itself); the policy head learns its actions, the value
        head those games' shaped returns (the unfinished tail of the rollout is dropped).

        With ``bc_expert="search:N"`` the bot imitated is "strongest" (the search's own
        rollout policy), then the search at budget N plays the learner's seat for
        ``bc_search_steps`` decisions and the policy learns its choices (every decision; the
        value head only those whose game's result is in the data)."""
        cfg = self.cfg
        search = parse_search_name(cfg.bc_expert, seed=cfg.seed)
        if cfg.bc_steps > 0:
            expert = STRONGEST if search is not None else cfg.bc_expert
            self._imitate(expert, cfg.bc_steps, PHASES[1:3], 7919)
        if search is not None and cfg.bc_search_steps > 0:
            self._imitate(search, cfg.bc_search_steps, PHASES[3:5], 104729)

    def _imitate(self, expert, decisions: int, phases, salt: int):
        """Collect ``decisions`` of ``expert`` (a bot's name, "strongest" or a Search) in the
        learner's seat and learn them (``bc_epochs``), reporting ``phases`` (data, epochs)."""
        cfg = self.cfg
        t0, before = time.perf_counter(), self.seconds
        searched = isinstance(expert, Search)
        n = min(cfg.num_envs, decisions)
        t_len = max(1, decisions // n)
        every = max(1, t_len // 100)  # progress reports
        pool = {k: w for k, w in cfg.opponents.items() if w > 0 and _is_bot(k)}
        experts = table = None
        if expert == STRONGEST or searched:  # against the training pool's bots
            experts = KingdomExperts(cfg.players) if not searched else None
            pool = pool or {"Big Money Ultimate": 1}
        else:
            table = compile_bots(expert)
            pool = {expert: 1.0}
        seats = BotSeats(
            n,
            cfg.players,
            cfg.kingdom,
            list(pool),
            list(pool.values()),
            vp_shaping=cfg.vp_shaping,
            turn_limit=cfg.turn_limit,
        )
        obs, mask = seats.reset(cfg.seed + salt)
        buf = Rollout(t_len, n, self.obs_dim, mask.shape[1], self.sparse)
        action = np.zeros(n, np.int64)
        rows = np.arange(n)
        for t in range(t_len):
            if t == 1 and self.phase == PHASES[0]:  # the first step compiled (or loaded) kernels
                self._report(PHASES[0], 1.0)
            # a search step takes seconds: each is reported, from the first once compiled
            ready = t >= 1 or (searched and self.phase != PHASES[0])
            if ready and (searched or (t - 1) % every == 0):
                self.seconds = before + time.perf_counter() - t0  # imitation is training time
                self._report(phases[0], t / t_len)
            buf.put(t, obs, mask)
            if searched:
                action[:] = expert.act_games(seats.vec, rows)
            elif experts is not None:
                action[:] = experts.actions(seats.vec)
            else:
                action[:] = seats.vec.bot_actions(table, 0)
            buf.action[t] = action
            obs, mask, reward, done, _ = seats.step(action)
            buf.reward[t] = reward
            buf.done[t] = done
        _, returns = buf.advantages(np.zeros(n, np.float32), 1.0, 1.0)
        # the last rows' games are unfinished: their returns lack the result; drop the tail
        keep = t_len - min(t_len // 2, 64)
        # a bot's decisions are cheap: its tail is dropped whole; the search's are not: the
        # policy learns them all, the value head only the kept steps
        forward = self._inputs(buf, t_len if searched else keep)
        a = self._tensor(buf.action[: t_len if searched else keep].reshape(-1))
        ret = self._tensor(returns[:keep].reshape(-1))
        valued = keep * n  # rows are numbered step-major: the first ``valued`` have returns
        with self._update_threads():
            batches = -(-len(a) // cfg.minibatch)
            for epoch in range(cfg.bc_epochs):
                perm = torch.randperm(len(a)).to(self.device)
                for b, i in enumerate(range(0, len(a), cfg.minibatch)):
                    if b % max(1, batches // 20) == 0:
                        self.seconds = before + time.perf_counter() - t0
                        self._report(phases[1], (epoch + b / batches) / cfg.bc_epochs)
                    idx = perm[i : i + cfg.minibatch]
                    logits, value = forward(idx)
                    if valued < len(a):
                        v = idx < valued
                        value_loss = ((value[v] - ret[idx[v]]) ** 2).sum() / v.sum().clamp(min=1)
                    else:
                        value_loss = ((value - ret[idx]) ** 2).mean()
                    loss = (
                        torch.nn.functional.cross_entropy(logits, a[idx]) + cfg.vf_coef * value_loss
                    )
                    self.opt.zero_grad()
                    loss.backward()
                    torch.nn.utils.clip_grad_norm_(self.net.parameters(), cfg.max_grad_norm)
                    self.opt.step()
            with torch.no_grad():
                agree = 0
                for i in range(0, len(a), 65536):  # the hidden layer of every row at once: GBs
                    logits, _ = forward(torch.arange(i, min(len(a), i + 65536)))
                    agree += int((logits.argmax(-1) == a[i : i + 65536]).sum())
                agree /= len(a)
        self.seconds = before + time.perf_counter() - t0
        self.history.append(
            {
                "phase": "imitation",
                "expert": expert.name if searched else expert,
                "decisions": int(len(a)),
                "agreement": round(agree, 4),
                "seconds": round(self.seconds, 1),
            }
        )

    def learn(self):
        """Run PPO until the step or time limit (continues a resumed run)."""
        cfg = self.cfg
        n = cfg.num_envs
        obs, mask = self._reset(cfg.seed + len(self.history))
        buf = Rollout(cfg.rollout, n, self.obs_dim, mask.shape[1], self.sparse)
        next_log = (self.steps // cfg.log_every + 1) * cfg.log_every
        next_snap = (self.steps // cfg.snapshot_every + 1) * cfg.snapshot_every
        if not self.snapshots:
            self.take_snapshot()
        t0 = time.perf_counter() - self.seconds
        next_save = self.seconds + SAVE_EVERY_SECONDS
        while not self._finished():
            teacher = self._teacher() if cfg.teacher_coef > 0 else None
            obs, mask = self.collect(buf, obs, mask, teacher)
            if teacher is not None:
                teacher.search(self.groups)
            adv, ret = self.advantages(buf, obs, mask)
            stats = self.update(buf, adv, ret, teacher)
            self.steps += cfg.rollout * n
            self.seconds = time.perf_counter() - t0
            self._report(PHASES[-1], self._done(), cfg.rollout * n)
            if self.steps >= next_snap:
                self.take_snapshot()
                next_snap += cfg.snapshot_every
            if self.steps >= next_log or self._finished():
                self._log(stats)
                next_log += cfg.log_every
            if self.seconds >= next_save and not self._finished():
                self.save()
                next_save = self.seconds + SAVE_EVERY_SECONDS
        return self

    def _teacher(self) -> Teacher:
        """This rollout's positions for the search to label (expert iteration), drawn from
        streams keyed by (seed, steps so far): a resumed run draws and searches the same."""
        cfg = self.cfg
        key = [cfg.seed, self.steps]
        return Teacher(
            Search(cfg.teacher_budget, seed=int(np.random.SeedSequence(key).generate_state(1)[0])),
            np.random.default_rng(key).choice(
                cfg.rollout * cfg.num_envs, cfg.teacher_positions, replace=False
            ),
            cfg.num_envs,
        )

    def collect(self, buf: Rollout, obs, mask, teacher: Teacher | None = None):
        """Fill ``buf`` with one rollout from the rows' decisions ``obs``/``mask``; returns the
        decisions that follow it. ``teacher``: copies its positions' games as they come."""
        self.net.eval()
        for t in range(buf.reward.shape[0]):
            # the net reads the rollout's own (writable) copy: seats may hand back VecGame's
            # read-only views, which torch.from_numpy warns about
            buf.put(t, obs, mask)
            if teacher is not None:
                teacher.copy(t, self.groups, mask)
            a, logp, v = self._act(buf, t)
            buf.action[t] = a
            buf.logp[t] = logp
            buf.value[t] = v
            obs, mask, reward, done = self._step(a)
            buf.reward[t] = reward
            buf.done[t] = done
            self._episode_len += 1
            ended = np.flatnonzero(done)
            self._lengths.extend(self._episode_len[ended].tolist())
            self._episode_len[ended] = 0
        return obs, mask

    def advantages(self, buf: Rollout, obs, mask):
        """(advantages, returns) of ``buf``, bootstrapped from the values at ``obs``."""
        last = Rollout(1, len(obs), self.obs_dim, mask.shape[1], self.sparse)
        last.put(0, obs, mask)
        last_v = self._forward(last, 0)[1].cpu().numpy()
        return buf.advantages(last_v, self.cfg.gamma, self.cfg.lam)

    def _finished(self) -> bool:
        return self._done() >= 1.0

    def _done(self) -> float:
        """How much of the run is done: the larger of steps and minutes over their limits."""
        cfg = self.cfg
        steps = DEFAULT_STEPS if cfg.steps is None and cfg.minutes is None else cfg.steps
        return max(
            self.steps / steps if steps is not None else 0.0,
            self.seconds / (60 * cfg.minutes) if cfg.minutes is not None else 0.0,
        )

    # -- the network's inputs: sparse rows on the CPU, dense tensors on the device ------------

    def _tensor(self, a: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(a).to(self.device)

    def _inputs(self, buf: Rollout, keep: int | None = None):
        """``forward(rows) -> (logits, values)`` over the first ``keep`` steps of ``buf``
        (all of them by default), rows numbered step-major."""
        m = self._tensor(buf.mask[:keep].reshape(-1, buf.mask.shape[2]))
        if buf.rows is not None:
            idx, val = buf.rows.rows()
            idx, val = idx[:keep].flatten(0, 1), val[:keep].flatten(0, 1)
            return lambda rows: sparse.forward(self.net, idx[rows], val[rows], m[rows])
        o = self._tensor(buf.obs[:keep].reshape(-1, self.obs_dim))
        return lambda rows: self.net(o[rows], m[rows])

    @torch.no_grad()
    def _forward(self, buf: Rollout, t: int):
        """The net's (logits, values) at step ``t`` of ``buf``."""
        m = self._tensor(buf.mask[t])
        if buf.rows is not None:
            return sparse.forward(self.net, *buf.rows.rows(t), m)
        return self.net(self._tensor(buf.obs[t]), m)

    def _act(self, buf: Rollout, t: int):
        """(actions, log-probabilities, values) of the net, sampled, at step ``t`` of ``buf``."""
        logits, value = self._forward(buf, t)
        with torch.no_grad():
            a, logp = sample(logits)
        return a.cpu().numpy(), logp.cpu().numpy(), value.cpu().numpy()

    @contextlib.contextmanager
    def _update_threads(self):
        """torch on ``update_threads`` inside, back on ``torch_threads`` after (a call costs
        under a microsecond, measured)."""
        torch.set_num_threads(self.update_threads)
        try:
            yield
        finally:
            torch.set_num_threads(self.cfg.torch_threads)

    def update(self, buf: Rollout, adv, ret, teacher: Teacher | None = None) -> dict:
        """``epochs`` passes of clipped PPO over ``buf``: mean losses and entropy. With a
        searched ``teacher``, every minibatch's loss adds ``teacher_coef`` x the cross-entropy
        of the policy at the teacher's positions against the search's choices."""
        with self._update_threads():
            return self._update_epochs(buf, adv, ret, teacher)

    def _update_epochs(self, buf: Rollout, adv, ret, teacher: Teacher | None = None) -> dict:
        cfg = self.cfg
        self.net.train()
        forward = self._inputs(buf)
        m = self._tensor(buf.mask.reshape(-1, buf.mask.shape[2]))
        a = self._tensor(buf.action.reshape(-1))
        old_logp = self._tensor(buf.logp.reshape(-1))
        adv_t = self._tensor(adv.reshape(-1))
        ret_t = self._tensor(ret.reshape(-1))
        total = len(a)
        stats = {"policy_loss": 0.0, "value_loss": 0.0, "entropy": 0.0, "n": 0}
        taught = teacher is not None and len(teacher.rows) > 0
        if taught:
            t_rows = self._tensor(teacher.rows)
            t_action = self._tensor(teacher.action)
            stats.update(teacher_loss=0.0, teacher_agreement=0.0)
        for _ in range(cfg.epochs):
            perm = torch.randperm(total).to(self.device)
            for i in range(0, total, cfg.minibatch):
                idx = perm[i : i + cfg.minibatch]
                logits, value = forward(idx)
                logp_all = torch.log_softmax(logits, -1)
                logp = logp_all.gather(-1, a[idx, None]).squeeze(-1)
                p = logp_all.exp()
                entropy = -(p * logp_all.masked_fill(~m[idx], 0.0)).sum(-1).mean()
                ad = adv_t[idx]
                ad = (ad - ad.mean()) / (ad.std() + 1e-8)
                ratio = (logp - old_logp[idx]).exp()
                pg = -torch.min(ratio * ad, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * ad).mean()
                vl = ((value - ret_t[idx]) ** 2).mean()
                loss = pg + cfg.vf_coef * vl - cfg.ent_coef * entropy
                if taught:
                    t_logits, _ = forward(t_rows)
                    tl = torch.nn.functional.cross_entropy(t_logits, t_action)
                    loss = loss + cfg.teacher_coef * tl
                    stats["teacher_loss"] += tl.item()
                    agree = (t_logits.argmax(-1) == t_action).float().mean()
                    stats["teacher_agreement"] += agree.item()
                self.opt.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), cfg.max_grad_norm)
                self.opt.step()
                stats["policy_loss"] += pg.item()
                stats["value_loss"] += vl.item()
                stats["entropy"] += entropy.item()
                stats["n"] += 1
        k = max(1, stats.pop("n"))
        stats = {key: v / k for key, v in stats.items()}
        if taught:  # how often the search left its rollout bot's own choice
            stats["teacher_departures"] = teacher.departures / len(teacher.rows)
            stats["teacher_seconds"] = teacher.seconds
        return stats

    def _log(self, stats: dict):
        row = {"steps": self.steps, "minutes": round(self.seconds / 60, 3)}
        for label, results in self._games.items():
            r = np.array(results)
            row[f"win_rate[{label}]"] = round(float((r == 1).mean()), 4) if len(r) else math.nan
            row[f"games[{label}]"] = len(r)
            results.clear()
        row["mean_length"] = round(float(np.mean(self._lengths)), 1) if self._lengths else math.nan
        self._lengths.clear()
        row.update({k: round(v, 5) for k, v in stats.items()})
        self.history.append(row)

    # -- files -----------------------------------------------------------------------------

    def info(self) -> AgentInfo:
        # the settings it was trained with; not the folder (a path on the trainer's machine)
        cfg = {k: v for k, v in asdict(self.cfg).items() if k != "out"}
        return AgentInfo(
            name=self.cfg.name,
            players=self.cfg.players,
            hidden=tuple(self.cfg.hidden),
            scale_observations=True,
            network=self.cfg.network,
            embed=self.cfg.embed,
            trained={"config": cfg, "steps": self.steps, "minutes": round(self.seconds / 60, 2)},
        )

    def save(self, out=None) -> dict:
        out = Path(out or self.cfg.out)
        out.mkdir(parents=True, exist_ok=True)
        paths = {"agent": save_agent(self.net, self.info(), out / "agent.pt")}
        paths["checkpoint"] = write_checkpoint(
            out / "checkpoint.pt",
            config=asdict(self.cfg),
            net=self.net.state_dict(),
            opt=self.opt.state_dict(),
            steps=self.steps,
            seconds=self.seconds,
            history=self.history,
            snapshots=[s.state_dict() for s in self.snapshots],
        )
        paths["csv"] = write_progress(self.history, out / "progress.csv")
        paths["png"] = plot_progress(self.history, out / "curve.png")
        return paths

    @classmethod
    def resume(
        cls,
        out,
        steps: int | None = None,
        progress=None,
        minutes: float | None = None,
        device: str | None = None,
    ) -> "Trainer":
        """Continue a saved run; ``steps`` and ``minutes`` are new totals (the run's own
        settings otherwise): a 45-minute run resumed with minutes=60 trains 15 more; ``device``
        moves it (a run is the same run on any device). The
        checkpoint is checked whole before anything is built (``read_checkpoint``); the run
        saves into ``out`` (a moved folder, or a file from elsewhere, never writes back to the
        folder named in its config)."""
        data = read_checkpoint(Path(out) / "checkpoint.pt")
        cfg = data["config"]  # its out is ``out``: saves go where it was read
        if steps is not None:
            cfg.steps = steps
        if minutes is not None:
            cfg.minutes = minutes
        if device is not None:
            cfg.device = device
        t = cls(cfg, progress)
        t.net.load_state_dict(data["net"])
        t.opt.load_state_dict(data["opt"])
        t.steps, t.seconds, t.history = data["steps"], data["seconds"], data["history"]
        for sd in data["snapshots"]:
            snap = t._new_net()
            snap.load_state_dict(sd)
            t.snapshots.append(snap.eval())
        return t


class Teacher:
    """One rollout's positions for expert iteration: ``flat`` (step-major indices into the
    rollout's T x N rows, drawn before it) whose games are copied as the rollout reaches them
    (``copy``), then searched (``search``): ``rows`` are the positions kept (those with more
    than one legal action: nothing to teach elsewhere) and ``action`` the search's choices."""

    def __init__(self, searcher: Search, flat: np.ndarray, num_envs: int):
        self.searcher = searcher
        flat = np.sort(flat)
        self.num_envs = num_envs
        self._at = {
            int(t): flat[flat // num_envs == t] % num_envs for t in np.unique(flat // num_envs)
        }
        self._copies: list[tuple] = []  # (group index, flat rows, states, masks)
        self.rows = np.zeros(0, np.int64)
        self.action = np.zeros(0, np.int64)
        self.departures = 0  # positions where the search left its rollout bot's own choice
        self.seconds = 0.0  # the search's time

    def copy(self, t: int, groups, mask: np.ndarray) -> None:
        """Copy the games of this step's positions (``mask``: every row's legal actions)."""
        rows = self._at.get(t)
        if rows is None:
            return
        rows = rows[mask[rows].sum(axis=1) > 1]
        start = 0
        for k, g in enumerate(groups):
            mine = rows[(rows >= start) & (rows < start + g.num_games)]
            if len(mine):
                local = mine - start
                self._copies.append(
                    (k, t * self.num_envs + mine, g.vec.state[local].copy(), mask[mine].copy())
                )
            start += g.num_games

    def search(self, groups) -> None:
        """Search the copied positions, each group's with its games' config."""
        t0 = time.perf_counter()
        rows, action = [], []
        for k in range(len(groups)):
            part = [c for c in self._copies if c[0] == k]
            if not part:
                continue
            states = np.concatenate([c[2] for c in part])
            masks = np.concatenate([c[3] for c in part])
            chosen, *_, default = self.searcher.search(states, masks, groups[k].vec.config)
            rows += [c[1] for c in part]
            action.append(chosen)
            self.departures += int((chosen != default).sum())
        if rows:
            self.rows = np.concatenate(rows)
            self.action = np.concatenate(action)
        self._copies.clear()
        self.seconds = time.perf_counter() - t0


# -- checkpoint files (tensorfile's layout: tensors + JSON, loading runs no code) ----------
#   tensors  net.NAME · snapshots.J.NAME · opt.I.KEY (Adam's per-parameter state)
#   JSON     config, steps, seconds, history, optimizer (param_groups and any non-tensor
#            per-parameter state), snapshots (their count)

CHECKPOINT_KEYS = ("config", "steps", "seconds", "history", "optimizer", "snapshots")
ADAM_STATE = ("exp_avg", "exp_avg_sq", "step")


def write_checkpoint(path, config, net, opt, steps, seconds, history, snapshots) -> Path:
    """Write a training run's state (the arguments are Trainer.save's) to ``path``. The
    config's ``out`` is left out: the run's folder is where the file is read from."""
    config = {k: v for k, v in config.items() if k != "out"}
    tensors = {f"net.{k}": v for k, v in net.items()}
    for j, sd in enumerate(snapshots):
        tensors.update({f"snapshots.{j}.{k}": v for k, v in sd.items()})
    numbers = {}
    for i, state in opt["state"].items():
        for k, v in state.items():
            if isinstance(v, torch.Tensor):
                tensors[f"opt.{i}.{k}"] = v
            else:
                numbers.setdefault(str(i), {})[k] = v
    doc = {
        "config": config,
        "steps": steps,
        "seconds": seconds,
        "history": history,
        "optimizer": {"param_groups": opt["param_groups"], "state": numbers},
        "snapshots": len(snapshots),
    }
    return tensorfile.write(path, "checkpoint", tensors, doc)


def read_checkpoint(path) -> dict:
    """A checkpoint's content, every part checked against its config (keys, types, shapes,
    ranges); ``AgentFileError`` (a ValueError) naming the file and the fault otherwise:
    {config: TrainConfig, net, opt: state dicts, steps, seconds, history, snapshots: [sd]}.
    The config's ``out`` is the folder ``path`` is in, whatever an older file says."""
    path = Path(path)
    if not path.is_file():
        raise AgentFileError(path, "no such file (nothing to resume)")
    tensors, doc = tensorfile.read(path, "checkpoint")

    def fail(why):
        return AgentFileError(path, why)

    if sorted(doc) != sorted(CHECKPOINT_KEYS):
        raise fail(f"its metadata must have exactly the keys {list(CHECKPOINT_KEYS)}")
    raw = doc["config"]
    fields = [f.name for f in dataclasses.fields(TrainConfig) if f.name != "out"]
    if isinstance(raw, dict):  # a run from before these settings: an MLP on the CPU
        # the folder a run was saved in is never the file's to say: older files named it
        raw = {k: v for k, v in {**ADDED_SETTINGS, **raw}.items() if k != "out"}
    if not isinstance(raw, dict) or sorted(raw) != sorted(fields):
        raise fail(f"config must have exactly TrainConfig's fields {fields}")
    players, hidden = raw["players"], raw["hidden"]
    if not is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise fail(f"config.players must be an int {MIN_PLAYERS}..{MAX_PLAYERS}, got {players!r}")
    if not isinstance(hidden, list) or not all(is_int(h) and h >= 1 for h in hidden):
        raise fail(f"config.hidden must be a list of ints >= 1, got {hidden!r}")
    try:
        cfg = check_config(TrainConfig(**{**raw, "hidden": tuple(hidden), "out": str(path.parent)}))
    except (ValueError, TypeError) as e:
        raise fail(f"config: {e}") from None
    steps, seconds, history, count = (doc[k] for k in ("steps", "seconds", "history", "snapshots"))
    if not is_int(steps) or steps < 0:
        raise fail(f"steps must be an int >= 0, got {steps!r}")
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise fail(f"seconds must be a number, got {seconds!r}")
    if not math.isfinite(seconds) or seconds < 0:
        raise fail(f"seconds must be a finite number >= 0, got {seconds!r}")
    _check_history(history, fail)
    if not is_int(count) or count < 0:
        raise fail(f"snapshots must be an int >= 0, got {count!r}")
    shapes = net_shapes(obs_size(players), hidden, cfg.network, players, cfg.embed)
    parts = {"net": {}, "snapshots": {}, "opt": {}}
    for name, t in tensors.items():
        part, _, rest = name.partition(".")
        if part not in parts or not rest:
            raise fail(f"tensor {name!r} is not one of net.*, snapshots.*, opt.*")
        parts[part][rest] = t
    check_state(parts["net"], shapes, path, "net tensors")
    if len(parts["snapshots"]) != count * len(shapes):
        raise fail(
            f"it declares {count} snapshots of {len(shapes)} tensors each and holds "
            f"{len(parts['snapshots'])} snapshot tensors"
        )
    snapshots = []
    for j in range(count):
        sd = {k: v for k, v in parts["snapshots"].items() if k.startswith(f"{j}.")}
        snapshots.append({k[len(f"{j}.") :]: v for k, v in sd.items()})
        check_state(snapshots[-1], shapes, path, f"snapshot {j}'s tensors")
    return {
        "config": cfg,
        "net": parts["net"],
        "opt": _optimizer_state(parts["opt"], doc["optimizer"], shapes, cfg.lr, path),
        "steps": steps,
        "seconds": float(seconds),
        "history": history,
        "snapshots": snapshots,
    }


def _check_history(history, fail) -> None:
    """The rows ``_log`` and ``imitate`` write: JSON objects of names -> numbers or strings;
    a progress row (with "steps") has int steps and number minutes and win rates, as the
    progress files and the plot read them."""
    if not isinstance(history, list):
        raise fail("history must be a list of JSON objects")
    for i, row in enumerate(history):
        ok = isinstance(row, dict) and all(
            isinstance(v, str) or _real(v) or v is None for v in row.values()
        )
        if ok and "steps" in row:
            numbers = [row.get("minutes")] + [v for k, v in row.items() if k.startswith("win_")]
            ok = is_int(row["steps"]) and all(_real(v) for v in numbers)
        if not ok:
            raise fail(f"history[{i}] is {row!r}, not a row of the progress log")


def _optimizer_state(tensors: dict, doc, shapes: dict, lr: float, path) -> dict:
    """Adam's state dict from a checkpoint's pieces, every field checked against a fresh
    Adam's (the trainer's: ``lr``, eps 1e-5) and its range before anything is built: the
    learning rate is the config's, betas in [0, 1), eps > 0, weight_decay >= 0, finite; the
    flags are the trainer's; params name the net's parameters in order; each parameter's state
    is exp_avg and exp_avg_sq float32 tensors of its shape (finite, ``tensorfile``; exp_avg_sq
    >= 0) and a step that is a whole number >= 0 (a scalar tensor, or a number in the JSON)."""

    def fail(why):
        return AgentFileError(path, why)

    params = [torch.zeros(s) for s in shapes.values()]  # the net's parameters, in order
    fresh = torch.optim.Adam(params, lr=lr, eps=1e-5).state_dict()["param_groups"]
    if not isinstance(doc, dict) or sorted(doc) != ["param_groups", "state"]:
        raise fail("optimizer must be {param_groups, state}")
    groups, numbers = doc["param_groups"], doc["state"]
    if not isinstance(groups, list) or len(groups) != 1 or not isinstance(groups[0], dict):
        raise fail("optimizer.param_groups must be a list of one JSON object")
    group = dict(groups[0])
    if sorted(group) != sorted(fresh[0]):
        raise fail(f"optimizer.param_groups[0] must have the keys {sorted(fresh[0])}")
    for k, want in fresh[0].items():
        v = group[k]
        where = f"optimizer.param_groups[0].{k}"
        if k == "betas":
            ok = isinstance(v, list) and len(v) == 2 and all(_real(b) for b in v)
            if not ok or not all(0 <= b < 1 for b in v):
                raise fail(f"{where} is {v!r}, expected two numbers in [0, 1)")
            group[k] = tuple(v)  # JSON keeps tuples as lists
        elif k in ("lr", "eps", "weight_decay"):
            if not _real(v) or not math.isfinite(v):
                raise fail(f"{where} is {v!r}, expected a finite number")
            if k == "lr" and v != lr:
                raise fail(f"{where} is {v!r}; the run's config has lr={lr!r}")
            if (k == "eps" and not v > 0) or (k == "weight_decay" and not v >= 0):
                raise fail(f"{where} is {v!r}, expected a number {'> 0' if k == 'eps' else '>= 0'}")
        elif type(v) is not type(want) or v != want:  # params, and flags Adam is built with
            raise fail(f"{where} is {v!r}, expected {want!r}")
    if not isinstance(numbers, dict):
        raise fail("optimizer.state must be a JSON object")
    state = {}
    for name, t in tensors.items():
        i, _, key = name.partition(".")
        state.setdefault(i, {})[key] = t
    for i, extra in numbers.items():
        if not isinstance(extra, dict) or any(k in state.get(i, {}) for k in extra):
            raise fail(f"optimizer.state[{i!r}] must map names to numbers, none a tensor's")
        state.setdefault(i, {}).update(extra)
    out = {}
    shape_of = list(shapes.values())
    for i, entry in state.items():
        ok = i.isascii() and i.isdecimal() and str(int(i)) == i and int(i) < len(shape_of)
        if not ok or sorted(entry) != sorted(ADAM_STATE):
            raise fail(f"optimizer state {i!r} must be {list(ADAM_STATE)} of a parameter")
        shape = shape_of[int(i)]
        for key in ("exp_avg", "exp_avg_sq"):
            if not isinstance(entry[key], torch.Tensor):
                raise fail(
                    f"optimizer state {i!r}: {key} is {entry[key]!r}, not a tensor of shape "
                    f"{list(shape)}"
                )
        check_state(
            {k: entry[k] for k in ("exp_avg", "exp_avg_sq")},
            {"exp_avg": shape, "exp_avg_sq": shape},
            path,
            f"optimizer state {i!r}'s tensors",
        )
        if (entry["exp_avg_sq"] < 0).any():
            raise fail(f"optimizer state {i!r}: exp_avg_sq holds negative values")
        step = entry["step"]
        if isinstance(step, torch.Tensor):
            check_state({"step": step}, {"step": ()}, path, f"optimizer state {i!r}'s step")
            step = step.item()
        if not _real(step) or not math.isfinite(step) or step < 0 or step != int(step):
            raise fail(f"optimizer state {i!r}: step is {step!r}, not a whole number >= 0")
        out[int(i)] = entry
    return {"state": out, "param_groups": [group]}


def _real(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def write_progress(history: list[dict], path) -> Path:
    rows = [h for h in history if "steps" in h]
    keys = []
    for h in rows:
        keys += [k for k in h if k not in keys]
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, keys)
        w.writeheader()
        w.writerows(rows)
    meta = [h for h in history if "steps" not in h]
    Path(path).with_suffix(".json").write_text(json.dumps(meta, indent=1))
    return Path(path)


def plot_progress(history: list[dict], path) -> Path:
    """Win rate against each opponent over learner steps (left) and minutes (right)."""
    Figure = require("matplotlib.figure", "the progress plot").Figure
    rows = [h for h in history if "steps" in h]
    fig = Figure(figsize=(11, 4))
    axes = fig.subplots(1, 2, sharey=True)
    labels = sorted({k[9:-1] for h in rows for k in h if k.startswith("win_rate[")})
    for label in labels:
        key = f"win_rate[{label}]"
        pts = [
            (h["steps"], h["minutes"], h[key]) for h in rows if key in h and not math.isnan(h[key])
        ]
        if pts:
            s, m, w = zip(*pts, strict=True)
            axes[0].plot(s, w, marker=".", label=label)
            axes[1].plot(m, w, marker=".", label=label)
    axes[0].set_xlabel("learner steps")
    axes[1].set_xlabel("minutes")
    axes[0].set_ylabel("win rate in training games")
    for ax in axes:
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    if axes[0].lines:  # no finished game yet: no curve, and no legend to warn about
        axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    return Path(path)


def saved_config(out) -> dict:
    """The settings of the run saved in ``out`` (its checkpoint's ``TrainConfig`` as a dict),
    read without running code (``read_checkpoint``); a ValueError naming the file if there is
    none or it is not a checkpoint. The CLI compares them with what ``--resume`` is given."""
    path = Path(out) / "checkpoint.pt"
    if not path.is_file():
        raise ValueError(f"no run to resume in {out}: {path} does not exist")
    return asdict(read_checkpoint(path)["config"])


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during ``train``: ``trainer`` is the run so far, ``paths`` what was saved
    (empty if it stopped during imitation, which a resume would not redo)."""

    def __init__(self, trainer: Trainer, paths: dict):
        super().__init__(f"interrupted after {trainer.steps} learner steps")
        self.trainer = trainer
        self.paths = paths


def train(cfg: TrainConfig, progress=None, resume: bool = False) -> Trainer:
    """Train (or resume, from ``cfg.out``) and save; returns the Trainer. Ctrl-C during PPO
    saves the run so far (the weights as they are: the steps of the last whole rollout, plus
    at most one minibatch update under way) and raises ``Interrupted``."""
    if resume and (Path(cfg.out) / "checkpoint.pt").is_file():
        t = Trainer.resume(cfg.out, cfg.steps, progress, cfg.minutes, cfg.device)
    else:
        # the agent to start from, checked before the games are built and the kernels compile
        init = check_init(cfg) if cfg.init is not None else None
        t = Trainer(cfg, progress)
        try:
            t.warm_start(init)
        except KeyboardInterrupt:
            raise Interrupted(t, {}) from None
    try:
        t.learn()
    except KeyboardInterrupt:
        raise Interrupted(t, t.save()) from None
    t.save()
    return t
