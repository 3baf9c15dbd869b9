"""VecGame: N games of Dominion stepped at once by compiled kernels (the batch API).

    vec = VecGame(4096, players=2, kingdom="random")
    out = vec.reset(seed=0)                    # Step(observation, action_mask, current_player, ...)
    while True:
        out = vec.step(actions)            # one action per game, for out.current_player

Every game stops at every decision the rules give any player; ``current_player[g]`` is who
decides now (a Militia victim mid-turn, a defender with a Moat), not whose turn it is.

Action space: ``NUM_ACTIONS = NUM_CARDS + NUM_OPTIONS + 1`` (see ``engine.layout``):
card ids, then option k, then PASS. Observation: float32 vector of ``obs_size(players)`` from
the deciding player's view, layout in ``engine.observation`` (``split`` gives named pieces).

Rewards: ``rewards[g, p]`` is nonzero only on the step game g ends: +1 for the sole winner,
0 for players sharing a win, -1 for everyone else; the rules' tie-break (fewer turns) applies.
A game stopped by ``turn_limit`` is ``truncated`` with zero rewards, never a win.

Autoreset (default on): on the step a game ends, rewards/terminated/truncated describe it and
the observation, mask and current player already belong to the next game in that row;
``final_observation[g]`` holds the finished game's last observation (the view of the player who
acted last). An action of -1 skips a game for that step (it waits, unchanged). Arrays returned
are read-only views of the VecGame's own buffers, overwritten by the next call: copy what you
keep (a write raises ValueError: a mask written to would let an illegal action through).

Learner mode (``opponents=`` a compiled ``BotTable``, e.g. ``agents.compile_bots('Big
Money')``): one seat per game is the learner's (``learner_seat``: fixed, or drawn per game)
and compiled bots play every other seat inside the step kernel, so reset and step return only
at the learner's decisions; ``learner_rewards[g]`` is its reward in the game that ended on
this step. The table's 1 bot plays every other seat, or its players-1 bots play them in seat
order, or with ``opponent_weights`` (an opponent pool) every new game draws each other seat's
bot in proportion to its weight, from the row's own stream (the same draws for a seed whatever
the batch size or thread count); ``opponent_bots`` / ``finished_opponent_bots`` say who sat
where, for results per opponent. Mixed batches: ``row_kingdoms`` (a kingdom per row),
``row_opponents`` (a row's bots) and ``reset(seeds, first_index=(N,))`` (a row's deal): row g
plays exactly the game a batch of its own plays, so a tournament's tables or a pool of bots
each on its own kingdom step as one batch, with the same games.

Learning aids (off by default; ``dominion_env.train`` turns them on): ``scale_observations``
divides every entry by a fixed scale from the layout (``engine.observation.SCALES``) in the
kernel that writes it (``obs_bounds``: true bounds, raw or scaled); ``vp_shaping=c`` (learner
mode) makes ``shaped_rewards`` the reward plus the change of the potential c x (own VP - best
other VP), 0 at a game's start and end (``dominion_env.shaping``), so each game's shaped
rewards sum to its result. ``scores`` gives every player's VP now.

Illegal actions: ``step`` checks every action in one compiled pass before any game moves and
raises ``names.IllegalActionError`` (a ValueError) naming the game, action, player, decision
and legal actions; Game and the envs go through this one check. Expert actions:
``bot_actions(table, bots)`` gives the action a compiled bot would take at every pending
decision, changing no game; its random bots draw from a per-row stream that reset seeds as the
arena seeds its bots for game g (``analysis.arena.play_games``), so answering every seat of a
plain VecGame (``first_player=0``) with it plays exactly ``play_games``'s games for the seed.

Save and restore (``dominion_env.snapshot``): ``snapshot()`` / ``restore()`` (same actions,
same results bit for bit; a snapshot of other settings or of a game no play reaches is
refused, changing nothing), ``clone()`` (and ``copy.deepcopy``), ``save(path)`` / ``load(path)``
(an .npz whose loading runs no code; a pickle runs code: only from trusted sources).

Limits: at most ``MAX_GAMES`` (2**20) games, ``turn_limit`` 1..100000, ``vp_shaping`` 0..1,
``opponent_weights`` finite and >= 0 (each positive weight at least 2**-53 of the sum to be
drawn at all). ``step``, ``random_actions``, ``bot_actions`` and ``scores`` before ``reset``
raise.

Version 8 (``VERSION``, kept in every game record as ``engine_version``); what changed in
each version: ``docs/changelog.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np

from .cards import NUM_CARDS, TABLE
from .checks import (
    MAX_SEED,
    MAX_TURN_LIMIT,
    check_actions,
    check_int,
    check_number,
    check_per_row,
    check_seed,
    is_per_row,
)
from .engine.batch import (
    POOL_BITS,
    Buffers,
    Opponents,
    batch_kernel,
    bot_actions_kernel,
    first_bad_action,
    random_actions_kernel,
    scores_kernel,
)
from .engine.bots import MAX_RULES, RULE_WIDTH, BotTable
from .engine.config import make_config, make_row_setup, make_setup
from .engine.layout import (
    DEC_KIND,
    DEC_PLAYER,
    DECISION_NAMES,
    NUM_ACTIONS,
    RUNNING,
    STATUS,
    TRUNCATED,
    TURN_NUMBER,
    new_state,
    step_reads,
)
from .engine.observation import obs_offsets, obs_scale, obs_size
from .names import IllegalActionError, action_name, legal_action_names
from .shaping import VPShaping, vp_potential
from .snapshot import (
    Snapshot,
    clone_vec,
    restore_snapshot,
    take_snapshot,
    vec_getstate,
    vec_setstate,
)
from .snapshot import (
    load as load_snapshot,
)
from .snapshot import (
    save as save_snapshot,
)

VERSION = 8
# At most this many games in one VecGame: a game holds about 28 KB (6 players: its 8.4 KB
# record, observation and final observation, mask, seats; 20 KB at 2 players), so the cap is
# about 29 GB, past any machine's batch; numpy's MemoryError on 10**13 games said nothing.
MAX_BATCH_GAMES = 1 << 20
MAX_BATCH_GAMES_WHY = "about 28 KB of memory a game"
# vp_shaping at most this: the potential is c x a VP margin (tens of VP), so c <= 1 keeps every
# shaped reward within a few hundred, finite in float32; 1e300 gave infinite rewards
MAX_VP_SHAPING = 1.0
# Below this many games a call runs each kernel's serial twin on the calling thread: waking
# Numba's thread pool costs more than stepping a handful of games, and a process that never
# starts the pool may fork (engine/jit.py).
PARALLEL_MIN_GAMES = 64


class Step(NamedTuple):
    observation: np.ndarray  # (N, O) float32
    action_mask: np.ndarray  # (N, A) bool
    current_player: np.ndarray  # (N,) int64, who decides now (-1: game over, no autoreset)
    rewards: np.ndarray  # (N, P) float32
    terminated: np.ndarray  # (N,) bool
    truncated: np.ndarray  # (N,) bool


def check_learner_seat(learner_seat, players: int) -> int | None:
    """The learner's seat: None (a random seat per game) or an int seat, checked."""
    if learner_seat is None:
        return None
    if (
        isinstance(learner_seat, bool)
        or not isinstance(learner_seat, (int, np.integer))
        or not 0 <= learner_seat < players
    ):
        raise ValueError(
            f"learner_seat must be None (a random seat per game) or "
            f"0..{players - 1}, got {learner_seat!r}"
        )
    return int(learner_seat)


def check_table(table, name: str = "table") -> BotTable:
    """A compiled ``BotTable`` as the kernels take it (int64, contiguous), checked."""
    if not isinstance(table, BotTable):
        raise TypeError(
            f"{name} must be a compiled BotTable, e.g. "
            f"dominion_env.agents.compile_bots(['Big Money']); got {table!r}"
        )
    kind = np.ascontiguousarray(table.kind, np.int64)
    rules = np.ascontiguousarray(table.rules, np.int64)
    nb = kind.shape[0] if kind.ndim == 1 else 0
    if nb < 1 or rules.shape != (nb, MAX_RULES, RULE_WIDTH):
        raise ValueError(
            f"{name}: a BotTable of B >= 1 bots has kind (B,) and rules "
            f"(B, {MAX_RULES}, {RULE_WIDTH}); got kind {kind.shape}, rules "
            f"{rules.shape}"
        )
    return BotTable(kind, rules)


def pool_thresholds(weights, nb: int) -> np.ndarray:
    """An opponent pool's draw thresholds: (K,) int64 cumulative shares of 2**POOL_BITS, from
    ``weights`` (K,) non-negative with a positive sum (a zero weight is never drawn)."""
    w = np.asarray(weights)
    if w.dtype.kind not in "iuf":
        raise TypeError(f"opponent_weights must be numbers, got dtype {w.dtype} ({weights!r})")
    if w.shape != (nb,):
        raise ValueError(
            f"opponent_weights must have shape ({nb},), one weight per bot of "
            f"opponents, got shape {w.shape}"
        )
    w = w.astype(np.float64)
    if not np.isfinite(w).all() or (w < 0).any() or not (w > 0).any():
        raise ValueError(
            f"opponent_weights must be finite and >= 0 with a positive sum, got {w.tolist()}"
        )
    # weights whose sum overflows (1e308 + 1e308 made the thresholds [0, -2**63]) are divided
    # by the largest first; others are summed as they are, so their thresholds (and the games
    # of a seed) stay the same bit for bit
    with np.errstate(over="ignore"):  # an overflowing sum is what this line looks for
        finite = np.isfinite(w.sum())
    cum = np.cumsum(w if finite else w / w.max())
    cum = np.rint(cum / cum[-1] * float(1 << POOL_BITS)).astype(np.int64)
    tiny = np.flatnonzero((w > 0) & (np.diff(cum, prepend=0) == 0))
    if tiny.size:
        k = int(tiny[0])
        raise ValueError(
            f"opponent_weights[{k}] = {float(w[k])!r} is too small beside the others to be drawn "
            f"(shares are counted in 2**{POOL_BITS}ths): give it 0 or a larger weight"
        )
    return cum


def check_row_opponents(rows, nb: int, players: int, n: int) -> np.ndarray:
    """Each row's bots for its non-learner seats: ``rows`` (N,) one bot id per row (it plays
    every other seat) or (N, players-1) ids in seat order, into a table of ``nb`` bots;
    returned as (N, players-1) int64."""
    a = np.asarray(rows)
    if a.dtype.kind not in "iu" or a.dtype == np.bool_:
        raise TypeError(
            f"row_opponents must be integer bot ids into opponents, got dtype {a.dtype}"
        )
    if a.shape == (n,):
        a = np.repeat(a[:, None], players - 1, axis=1)
    if a.shape != (n, players - 1):
        raise ValueError(
            f"row_opponents must have shape ({n},) (one bot per row) or ({n}, {players - 1}) "
            f"(each other seat's bot in seat order), got {np.shape(rows)}"
        )
    bad = np.flatnonzero(((a < 0) | (a >= nb)).any(axis=1))
    if bad.size:
        g = int(bad[0])
        raise ValueError(
            f"row_opponents[{g}] = {np.asarray(rows)[g].tolist()} is not a bot of opponents "
            f"(ids 0..{nb - 1})"
        )
    return np.ascontiguousarray(a, np.int64)


def make_opponents(
    opponents, learner_seat, players: int, n: int, weights=None, rows=None
) -> Opponents:
    """Learner-mode settings: ``opponents`` is None or a compiled ``BotTable`` of 1 bot (it
    plays every other seat) or players-1 bots (the non-learner seats in seat order); with
    ``weights`` (K,), a pool of any K bots, drawn per seat for each new game; with ``rows``
    (a mixed batch), each row's own bots of any table (``check_row_opponents``)."""
    rng = np.zeros(n, np.uint64)
    seat_bots = np.full((n, players), -1, np.int64)
    finished = np.full((n, players), -1, np.int64)
    no_pool = np.zeros(0, np.int64)
    if opponents is None:
        if learner_seat is not None:
            raise ValueError("learner_seat needs opponents (the bots that play the other seats)")
        if weights is not None:
            raise ValueError("opponent_weights needs opponents (the pool of bots it weighs)")
        if rows is not None:
            raise ValueError("row_opponents needs opponents (the table its bot ids point into)")
        rules = np.full((1, MAX_RULES, RULE_WIDTH), -1, np.int64)
        return Opponents(
            0,
            -1,
            np.zeros((1, 1), np.int64),
            np.zeros(1, np.int64),
            rules,
            rng,
            no_pool,
            seat_bots,
            finished,
        )
    learner_seat = check_learner_seat(learner_seat, players)
    if not isinstance(opponents, BotTable):
        raise TypeError(
            f"opponents must be None or a compiled BotTable, e.g. "
            f"dominion_env.agents.compile_bots(['Big Money']); got {opponents!r}"
        )
    table = check_table(opponents, "opponents")
    nb = table.kind.shape[0]
    pool = no_pool
    if rows is not None:
        if weights is not None:
            raise ValueError(
                "give row_opponents (each row's bots) or opponent_weights (a pool drawn per "
                "game), not both"
            )
        seat_bot = check_row_opponents(rows, nb, players, n)
    elif weights is not None:
        pool = pool_thresholds(weights, nb)
        seat_bot = np.zeros((1, players - 1), np.int64)  # unused: every seat is drawn
    elif nb == 1:
        seat_bot = np.zeros((1, players - 1), np.int64)
    elif nb == players - 1:
        seat_bot = np.arange(players - 1, dtype=np.int64)[None, :]
    else:
        raise ValueError(
            f"opponents: give 1 bot or {players - 1} (one per other seat) for "
            f"{players} players, got {nb} (or give opponent_weights to draw "
            f"from them as a pool, or row_opponents to give each row its own)"
        )
    return Opponents(
        1,
        -1 if learner_seat is None else learner_seat,
        seat_bot,
        table.kind,
        table.rules,
        rng,
        pool,
        seat_bots,
        finished,
    )


class VecGame:
    """N independent games of Dominion, all with the same number of players and rules options;
    each row may have its own kingdom and opponent bots (mixed batches, module docstring)."""

    def __init__(
        self,
        num_games: int,
        players: int = 2,
        kingdom="random",
        *,
        row_kingdoms=None,
        pool=None,
        autoplay_treasures: bool = True,
        auto_resolve: bool = True,
        turn_limit: int = 100,
        first_player: int | None = None,
        autoreset: bool = True,
        log: bool = False,
        opponents=None,
        learner_seat: int | None = None,
        opponent_weights=None,
        row_opponents=None,
        scale_observations: bool = False,
        vp_shaping: float = 0.0,
        public_discards: bool = False,
    ):
        num_games = check_int("num_games", num_games, 1, MAX_BATCH_GAMES, MAX_BATCH_GAMES_WHY)
        turn_limit = check_int("turn_limit", turn_limit, 1, MAX_TURN_LIMIT)
        self.config = make_config(
            players,
            autoplay_treasures=autoplay_treasures,
            auto_resolve=auto_resolve,
            turn_limit=turn_limit,
            first_player=first_player,
            log=log,
            public_discards=public_discards,
        )
        if log and num_games != 1:
            raise ValueError("log=True is for a single game (Game); a batch does not log")
        self.num_games = int(num_games)
        self.players = players = self.config.players
        if not isinstance(autoreset, (bool, np.bool_)):
            raise TypeError(f"autoreset must be True or False, got {autoreset!r}")
        self.autoreset = int(autoreset)
        if not isinstance(scale_observations, (bool, np.bool_)):
            raise TypeError(f"scale_observations must be True or False, got {scale_observations!r}")
        self.scale_observations = bool(scale_observations)
        if row_kingdoms is None:
            self.setup = make_setup(players, kingdom, pool)
        else:
            if not (isinstance(kingdom, str) and kingdom == "random"):  # the default
                raise ValueError(
                    f"give kingdom (every row's) or row_kingdoms (each row's own), not both; "
                    f"got kingdom={kingdom!r}"
                )
            if isinstance(row_kingdoms, (str, bytes)) or len(row_kingdoms) != num_games:
                raise ValueError(
                    f"row_kingdoms must hold one kingdom per row ({num_games}), got "
                    f"{len(row_kingdoms) if hasattr(row_kingdoms, '__len__') else row_kingdoms!r}"
                )
            self.setup = make_row_setup(players, row_kingdoms, pool)
        self.state = new_state(self.num_games)
        n = self.num_games
        self.buffers = Buffers(
            obs=np.zeros((n, obs_size(players)), np.float32),
            mask=np.zeros((n, NUM_ACTIONS), np.bool_),
            reward=np.zeros((n, players), np.float32),
            terminated=np.zeros(n, np.bool_),
            truncated=np.zeros(n, np.bool_),
            scratch=np.zeros((n, NUM_CARDS), np.int64),
            offsets=obs_offsets(players),
            final_obs=np.zeros((n, obs_size(players)), np.float32),
            learner=np.full(n, -1, np.int64),
            learner_reward=np.zeros(n, np.float32),
            step_reads=step_reads(players),
            obs_scale=obs_scale(players) if scale_observations else np.zeros(0, np.float32),
        )
        self.opponents = make_opponents(
            opponents, learner_seat, players, n, opponent_weights, row_opponents
        )
        vp_shaping = check_number("vp_shaping", vp_shaping, 0.0, MAX_VP_SHAPING)
        if vp_shaping and not self.opponents.enabled:
            raise ValueError(
                "vp_shaping shapes the learner's rewards: it needs opponents "
                "(learner mode); for every seat, use dominion_env.shaping.VPShaping"
            )
        self.shaping = VPShaping(n, vp_shaping) if vp_shaping else None
        self._shaped = np.zeros(n, np.float32)
        self._scores = np.zeros((n, players), np.int64)
        self._policy_rng = np.zeros(n, np.uint64)
        self._expert_rng = np.zeros(n, np.uint64)
        self._serial = n < PARALLEL_MIN_GAMES
        self._no_actions = np.full(n, -1, np.int64)
        self._step_seeds = np.full(n, -1, np.int64)  # batch_kernel: -1 steps the row
        self._ready = False
        # what callers get: read-only views (a copy per call would cost every step)
        self._view = {
            name: _read_only(getattr(self.buffers, name))
            for name in ("obs", "mask", "reward", "terminated", "truncated", "final_obs")
            + ("learner", "learner_reward")
        }
        self._view["scores"] = _read_only(self._scores)
        self._view["shaped"] = _read_only(self._shaped)
        self._view["seat_bots"] = _read_only(self.opponents.seat_bots)

    # -- the batch API -------------------------------------------------------------------

    def reset(self, seed=0, first_index=0, *, mask=None) -> Step:
        """Start every game anew; game g is game number ``first_index + g`` of a run seeded
        ``seed`` (the arena's game i of a seed is ``first_index=i`` in a batch of one), or game
        number ``first_index[g]`` where ``first_index`` is (N,) game numbers (a mixed batch).

        ``seed`` may also be (N,) seeds: row g plays game ``first_index + g`` of the run seeded
        ``seed[g]`` (so ``[s] * N`` is ``s``). ``mask``: (N,) bool, deal only these rows anew
        (after a first reset); every other game stays as it is (its observation and mask
        still stand, its rewards and flags read 0)."""
        seeds = self._check_seeds(seed)
        index = self._check_index(first_index)
        if mask is not None:
            if not self._ready:
                raise RuntimeError("call reset() without mask first: every row needs a game")
            seeds = np.where(self._check_reset_mask(mask), seeds, -1)
        self.run_kernel(
            batch_kernel,
            self.state,
            TABLE,
            self.config,
            self.setup,
            self.buffers,
            self._no_actions,
            self.autoreset,
            1,
            self.opponents,
            self._policy_rng,
            self._expert_rng,
            seeds,
            index,
        )
        self._ready = True
        if self.shaping is not None:
            self.shaping.reset(None if mask is None else seeds >= 0)
            self._shaped[:] = 0.0
        return self._result()

    def step(self, actions) -> Step:
        """Answer each game's pending decision; returns the next decisions (see module doc).

        ``actions[g] = -1`` skips game g this step: it stays as it is (its observation and mask
        still stand) and its rewards and flags read 0. A finished game (no autoreset) ignores
        its action."""
        if not self._ready:
            raise RuntimeError("call reset() before step()")
        actions = self._check_actions(actions)
        self.run_kernel(
            batch_kernel,
            self.state,
            TABLE,
            self.config,
            self.setup,
            self.buffers,
            actions,
            self.autoreset,
            1,
            self.opponents,
            self._policy_rng,
            self._expert_rng,
            self._step_seeds,
            self._step_seeds,  # game numbers: read only where a row is dealt (none here)
        )
        if self.shaping is not None:
            stepped = np.flatnonzero(actions >= 0)
            b = self.buffers
            done = b.terminated[stepped] | b.truncated[stepped]
            potential = vp_potential(self.scores[stepped], b.learner[stepped], self.shaping.coef)
            self._shaped[:] = 0.0
            self._shaped[stepped] = self.shaping.step(
                b.learner_reward[stepped], done, potential, stepped
            )
        return self._result()

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action per game, from a policy stream seeded by reset."""
        if not self._ready:
            raise RuntimeError("call reset() before random_actions(): no game is dealt yet")
        out = np.empty(self.num_games, np.int64)
        self.run_kernel(random_actions_kernel, self.buffers.mask, self._policy_rng, out)
        return out

    def bot_actions(self, table, bots) -> np.ndarray:
        """(N,) int64: the action compiled bot ``bots[g]`` of ``table`` takes at game g's
        pending decision, whoever decides (in learner mode, the learner); -1 where the game is
        over (no autoreset). ``bots`` is one bot id for every game or an (N,) int array of ids
        into ``table``. One compiled call; no game changes. Random bots draw from the row's
        expert stream, seeded by reset as the arena seeds game g's bots (module docstring)."""
        if not self._ready:
            raise RuntimeError("call reset() before bot_actions()")
        table = check_table(table)
        ids = self._check_bot_ids(bots, table.kind.shape[0])
        out = np.empty(self.num_games, np.int64)
        self.run_kernel(
            bot_actions_kernel,
            self.state,
            TABLE,
            table,
            ids,
            self.buffers.mask,
            self._expert_rng,
            self.buffers.scratch,
            out,
        )
        return out

    # -- save, restore, clone (dominion_env.snapshot) ------------------------------------

    def snapshot(self) -> Snapshot:
        """Every game as it is now, frozen: a read-only ``Snapshot`` of every array that
        playing changes (records, every RNG stream, learner and opponent seats, the step's
        outputs, shaping, a Game's log), to ``restore`` later. Pickles small."""
        return take_snapshot(self, VERSION)

    def restore(self, snapshot: Snapshot) -> None:
        """Put every game back as it was when ``snapshot`` was taken: the same actions then
        give the same observations, masks, rewards and logs, bit for bit. The snapshot must
        come from a VecGame made with the same settings (batch size, players, kingdom, rules
        options, opponents, shaping, version); otherwise a ValueError names what differs and
        nothing changes. Every game must also be a position the engine can reach (the
        audit's checks: card counts and conservation, the decider, the frame stack, the mask)
        and the seats and streams around it consistent; else a ValueError, nothing changes."""
        restore_snapshot(self, snapshot, VERSION)

    def save(self, path) -> Path:
        """Write ``snapshot()`` to ``path`` as a file whose loading runs no code
        (``dominion_env.snapshot.save``: an .npz without pickle, settings as JSON)."""
        return save_snapshot(self.snapshot(), path)

    def load(self, path) -> None:
        """``restore`` the snapshot file ``path`` (``save``'s) into this VecGame, made with the
        same settings; a bad file or a refused snapshot changes nothing."""
        self.restore(load_snapshot(path))

    def clone(self) -> VecGame:
        """An independent copy: its own copies of everything that playing changes, the fixed
        tables (kingdom, bots, layout) shared. Stepping either leaves the other as it is."""
        return clone_vec(self)

    def __deepcopy__(self, memo) -> VecGame:
        return clone_vec(self)

    def __getstate__(self) -> dict:
        return vec_getstate(self)  # the log's written rows, not its 1 MB of room

    def __setstate__(self, state: dict) -> None:
        vec_setstate(self, state)

    # -- views ---------------------------------------------------------------------------

    @property
    def observation(self) -> np.ndarray:
        return self._view["obs"]

    @property
    def action_mask(self) -> np.ndarray:
        return self._view["mask"]

    @property
    def current_player(self) -> np.ndarray:
        return _read_only(self.state["game"][:, DEC_PLAYER])

    @property
    def rewards(self) -> np.ndarray:
        return self._view["reward"]

    @property
    def terminated(self) -> np.ndarray:
        return self._view["terminated"]

    @property
    def truncated(self) -> np.ndarray:
        return self._view["truncated"]

    @property
    def final_observation(self) -> np.ndarray:
        """(N, O): on the step a game ends, its last observation (see the module docstring)."""
        return self._view["final_obs"]

    @property
    def learner_seat(self) -> np.ndarray:
        """(N,) the learner's seat in the game now in each row (learner mode; else -1)."""
        return self._view["learner"]

    @property
    def learner_rewards(self) -> np.ndarray:
        """(N,) the learner's reward in the game that ended on this step (else 0)."""
        return self._view["learner_reward"]

    @property
    def decision_kind(self) -> np.ndarray:
        """(N,) int64: the kind of each game's pending decision (``layout.DECISION_NAMES``)."""
        return _read_only(self.state["game"][:, DEC_KIND])

    @property
    def turn_number(self) -> np.ndarray:
        """(N,) int64: turns started in each game (all players' together)."""
        return _read_only(self.state["game"][:, TURN_NUMBER])

    @property
    def truncated_games(self) -> np.ndarray:
        """(N,) bool: games stopped by the turn limit (kept until reset without autoreset)."""
        return self.state["game"][:, STATUS] == TRUNCATED

    @property
    def scores(self) -> np.ndarray:
        """(N, P) int64: every player's score (VP) now in the game in each row (with
        autoreset, a game that ended on this step has been replaced: its final scores are
        not kept; ``rewards`` tell its result)."""
        if not self._ready:
            raise RuntimeError("call reset() before scores: no game is dealt yet")
        self.run_kernel(scores_kernel, self.state, TABLE, self.buffers.scratch, self._scores)
        return self._view["scores"]

    @property
    def shaped_rewards(self) -> np.ndarray:
        """(N,) float32, learner mode with ``vp_shaping``: the learner's reward on this step
        with potential-based VP shaping (``dominion_env.shaping``): the shaped rewards of each
        game sum to exactly its result (+1/0/-1; 0 when truncated)."""
        if self.shaping is None:
            raise RuntimeError("shaped_rewards needs VecGame(..., vp_shaping=coef > 0)")
        return self._view["shaped"]

    @property
    def opponent_bots(self) -> np.ndarray:
        """(N, P) bot id (into the opponents table) per seat of the game now in each row; -1
        for the learner's seat, and everywhere outside learner mode."""
        return self._view["seat_bots"]

    @property
    def finished_opponent_bots(self) -> np.ndarray:
        """(N, P) ``opponent_bots`` of the game that ended in each row on this step (-1 in
        rows where no game ended). A new array (the step only writes the rows that end)."""
        b = self.buffers
        ended = (b.terminated | b.truncated)[:, None]
        return np.where(ended, self.opponents.finished_bots, -1)

    @property
    def running(self) -> np.ndarray:
        """(N,) bool: games still waiting for an action (all of them with autoreset)."""
        return self.state["game"][:, STATUS] == RUNNING

    # -- internals -----------------------------------------------------------------------

    def _result(self) -> Step:
        v = self._view
        return Step(
            v["obs"], v["mask"], self.current_player, v["reward"], v["terminated"], v["truncated"]
        )

    def run_kernel(self, kernel, *args):
        """Call a batch kernel: small batches (PARALLEL_MIN_GAMES) through its serial twin on
        the calling thread (``jit.kernel``), others on Numba's thread pool."""
        (kernel.serial if self._serial else kernel)(*args)

    def _check_seeds(self, seed) -> np.ndarray:
        """``seed`` (a seed, or (N,) of them) as (N,) int64 seeds per row."""
        if is_per_row(seed):
            return check_per_row("seed", seed, self.num_games, "of them")
        return np.full(self.num_games, check_seed(seed), np.int64)

    def _check_index(self, first_index) -> np.ndarray:
        """``first_index`` (an int: row g plays game first_index + g; or (N,) game numbers,
        one per row) as (N,) int64 game numbers."""
        n = self.num_games
        if is_per_row(first_index):
            return check_per_row("first_index", first_index, n, "game numbers")
        first = check_int("first_index", first_index, 0, MAX_SEED - n)
        return np.arange(first, first + n, dtype=np.int64)

    def _check_reset_mask(self, mask) -> np.ndarray:
        m = np.asarray(mask)
        if m.shape != (self.num_games,) or m.dtype != np.bool_:
            raise ValueError(
                f"mask must be a ({self.num_games},) bool array (the rows to deal anew), got "
                f"shape {m.shape}, dtype {m.dtype}"
            )
        return m

    def _check_bot_ids(self, bots, nb: int) -> np.ndarray:
        """``bots`` (one id, or (N,) ids) as an (N,) int64 array of ids in 0..nb-1."""
        if isinstance(bots, (bool, np.bool_)):
            raise TypeError(
                f"bots must be a bot id 0..{nb - 1} of table or an "
                f"({self.num_games},) int array of them, got {bots!r}"
            )
        b = np.asarray(bots)
        if b.dtype.kind not in "iu":
            raise TypeError(
                f"bots must be a bot id 0..{nb - 1} of table or an "
                f"({self.num_games},) int array of them, got dtype {b.dtype}"
            )
        if b.ndim == 0:
            b = np.broadcast_to(b, (self.num_games,))
        if b.shape != (self.num_games,):
            raise ValueError(
                f"bots must be one bot id or have shape ({self.num_games},), got shape {b.shape}"
            )
        bad = np.flatnonzero((b < 0) | (b >= nb))
        if bad.size:
            g = int(bad[0])
            raise ValueError(
                f"bots[{g}] = {int(b[g])} is not a bot of table: ids are "
                f"0..{nb - 1} ({bad.size} game(s) with bad ids)"
            )
        return np.ascontiguousarray(b, dtype=np.int64)

    def _check_actions(self, actions) -> np.ndarray:
        a = check_actions(actions, self.num_games)
        g, why = first_bad_action(self.state, self.buffers.mask, a)
        if why == 1:
            raise IllegalActionError(
                f"action {int(a[g])} out of range 0..{NUM_ACTIONS - 1} (or -1 to skip) in game {g}",
                g,
                int(a[g]),
            )
        if why == 2:
            legal = self.buffers.mask[np.arange(self.num_games), np.clip(a, 0, NUM_ACTIONS - 1)]
            bad = self.running & (a >= 0) & ~legal
            game = self.state["game"][g]
            raise IllegalActionError(
                f"illegal action {action_name(int(a[g]))!r} ({int(a[g])}) for player "
                f"{int(game[DEC_PLAYER])} ({DECISION_NAMES[int(game[DEC_KIND])]}) in game {g} "
                f"({int(bad.sum())} game(s) with illegal actions); legal: "
                f"{legal_action_names(self.buffers.mask[g])}",
                g,
                int(a[g]),
            )
        return a


def _read_only(a: np.ndarray) -> np.ndarray:
    """A view of ``a`` that cannot be written through."""
    v = a.view()
    v.flags.writeable = False
    return v
