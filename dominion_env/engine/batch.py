"""Batch kernels: reset and step (one kernel), random actions, bot actions, whole bot games.

Each runs over the games with ``prange``; a game only ever touches its own record, its own RNG
stream and its own scratch row, so results do not depend on the batch size or thread count.
Learner mode (``Opponents.enabled``): one seat per game is the learner's and compiled bots play
every other seat inside the same kernel call, so reset and step return only at the learner's
decisions (or at a game's end). The learner's seat is fixed or drawn per game from the
opponents' own stream, which also feeds the bots' random choices and, with an opponent pool
(``Opponents.pool_cum``), the draw of each new game's bot per non-learner seat.
"""

from typing import NamedTuple

import numpy as np

from ..cards import KINGDOM_SIZE
from .bots import BotTable, bot_action, random_action
from .jit import kernel, njit, prange, prefetch_bytes
from .layout import DEC_PLAYER, PLAYERS, RUNNING, STATUS, TERMINATED, TRUNCATED, TURN_NUMBER
from .machine import advance, resolve, setup_game, setup_scenario
from .observation import write_observation
from .zones import (
    STREAM_BOTS,
    STREAM_GAME,
    STREAM_OPPONENTS,
    STREAM_POLICY,
    below,
    next_u64,
    seed_game,
    seed_seats,
    victory_points,
)

PREFETCH_AHEAD = 3  # the step starts loading what the game this many rows ahead needs
POOL_BITS = 53  # an opponent pool's draw: a 53-bit integer against cumulative thresholds
_POOL_SHIFT = np.uint64(64 - POOL_BITS)


class Setup(NamedTuple):
    """How a new game is set up: each row's kingdom (a mixed batch gives every row its own)."""

    kingdoms: np.ndarray  # (Q, 10) int64, the fixed kingdoms' card ids (Q >= 1)
    row_kingdom: np.ndarray  # (R,) int64, row g's kingdom: kingdoms[row_kingdom[g]], or -1: each
    #                          game draws its own from pool with its own RNG; R == 1: every row
    pool: np.ndarray  # (M,) int64, card ids a random kingdom is drawn from, M >= 10
    pile_sizes: np.ndarray  # (C,) int64, Supply pile size per card for this player count


@njit(inline="always")
def row_of(table, g):
    """Row g's entry of a per-row table, or its one entry shared by every row."""
    return table[g] if table.shape[0] > 1 else table[0]


class Scenario(NamedTuple):
    """A position to start a game in (``scenario_game``); ``Game.set_scenario`` builds and
    checks it. Per-player rows for the game's players only."""

    zone: np.ndarray  # (P, NUM_ZONES, C) int64 card counts of HAND / DISCARD / IN_PLAY / ASIDE
    deck: np.ndarray  # (P, K) int64 card ids of the draw piles, top card first
    deck_len: np.ndarray  # (P,) int64 cards in each draw pile
    supply: np.ndarray  # (C,) int64 new Supply pile size per card, -1: the pile as it is
    trash: np.ndarray  # (C,) int64 card counts
    turns_taken: np.ndarray  # (P,) int64 turns each player has completed
    turn_player: int  # whose turn it is
    phase: int  # PHASE_ACTION or PHASE_BUY
    step: int  # the turn frame's step to start at (T_ACTION, T_BUY_START, T_BUY)
    actions: int  # Actions, Buys and $ left this turn
    buys: int
    coins: int


class Buffers(NamedTuple):
    """What the step kernel writes (and the per-game scratch it works in)."""

    obs: np.ndarray  # (N, O) float32, observation of the player who decides now
    mask: np.ndarray  # (N, A) bool, legal actions of that player
    reward: np.ndarray  # (N, P) float32, per player, nonzero only on the step a game ends
    terminated: np.ndarray  # (N,) bool, the game ended on this step (by the rules)
    truncated: np.ndarray  # (N,) bool, the game hit the turn limit on this step
    scratch: np.ndarray  # (N, C) int64, per-game work space
    offsets: np.ndarray  # (pieces+1,) int64, observation layout offsets
    final_obs: np.ndarray  # (N, O) float32, a game's last observation on the step it ends
    learner: np.ndarray  # (N,) int64, the learner's seat (learner mode; else -1)
    learner_reward: np.ndarray  # (N,) float32, the learner's reward on the step a game ends
    step_reads: np.ndarray  # (K, 2) int64, byte ranges of a record a step reads (prefetched)
    obs_scale: np.ndarray  # (O,) float32 divisors of a scaled observation; (0,): raw counts


class Opponents(NamedTuple):
    """Compiled bots playing every seat but the learner's (learner mode), or nothing."""

    enabled: int  # 1: learner mode
    fixed_seat: int  # the learner's seat, or -1 for a random seat per game
    seat_bot: np.ndarray  # (R, P-1) int64: bot id of the k-th non-learner seat (seat order)
    #                       of row g (row_of: R == 1, every row)
    bot_kind: np.ndarray  # BotTable.kind (a nested named tuple does not pass through prange)
    bot_rules: np.ndarray  # BotTable.rules
    rng: np.ndarray  # (N,) uint64, the bots' and the seat draw's stream per game
    pool_cum: np.ndarray  # (K,) int64 cumulative draw thresholds of a pool (2**POOL_BITS in
    #                       all), or (0,): no pool, the seats play seat_bot
    seat_bots: np.ndarray  # (N, P) int64, bot id per seat of the game now in each row (-1:
    #                        the learner's seat, or not learner mode)
    finished_bots: np.ndarray  # (N, P) int64, seat_bots of the game that ended last in the
    #                            row (written on the step it ends, never cleared)


@njit(inline="always")
def new_game(r, T, cfg, setup, g, mask_row, scratch_row):
    """Set up the game in record r (row g) from its current RNG state and run it to the first
    decision."""
    seed_seats(r)
    q = row_of(setup.row_kingdom, g)
    if q < 0:
        m = setup.pool.shape[0]
        for i in range(m):
            scratch_row[i] = setup.pool[i]
        for i in range(KINGDOM_SIZE):  # partial Fisher-Yates: the first KINGDOM_SIZE are the draw
            j = i + below(r.rng, 0, m - i)
            t = scratch_row[i]
            scratch_row[i] = scratch_row[j]
            scratch_row[j] = t
        setup_game(r, T, cfg, scratch_row[:KINGDOM_SIZE], setup.pile_sizes)
    else:
        setup_game(r, T, cfg, setup.kingdoms[q], setup.pile_sizes)
    advance(r, T, cfg, mask_row, scratch_row)


@njit
def _observe(r, T, viewer, buf, out):
    write_observation(r, T, viewer, buf.offsets, out)
    scale = buf.obs_scale
    for i in range(scale.shape[0]):  # empty unless observations are scaled
        out[i] = out[i] / scale[i]


@njit
def _write_obs(r, T, buf, g):
    viewer = r.game[DEC_PLAYER]
    if viewer < 0:
        viewer = 0
    _observe(r, T, viewer, buf, buf.obs[g])


# Each prange body below is one call to a helper: Numba's parfor lowering was seen to drop
# conditional writes made directly in the loop body (the terminated flags never arrived).


@njit(inline="always")
def _play_opponents(r, T, cfg, buf, opp, g):
    """Learner mode: the bots answer every decision until the learner's or the game's end."""
    if not opp.enabled:
        return
    learner = buf.learner[g]
    bots = BotTable(opp.bot_kind, opp.bot_rules)
    while r.game[STATUS] == RUNNING and r.game[DEC_PLAYER] != learner:
        b = opp.seat_bots[g, r.game[DEC_PLAYER]]
        a = bot_action(r, T, bots, b, buf.mask[g], opp.rng, g, buf.scratch[g])
        resolve(r, T, cfg, a, buf.mask[g], buf.scratch[g])


@njit
def _pool_draw(cum, rng, g):
    """A bot id drawn from a pool: k with probability (cum[k] - cum[k-1]) / 2**POOL_BITS."""
    x = np.int64(next_u64(rng, g) >> _POOL_SHIFT)
    for k in range(cum.shape[0]):
        if x < cum[k]:
            return k
    return cum.shape[0] - 1  # not reached: cum[-1] == 2**POOL_BITS


@njit(inline="always")
def _seat_opponents(opp, g, learner):
    """The bot of every non-learner seat of a new game in row g: the row's seat_bot in seat
    order, or
    (a pool) one draw per seat in seat order from the opponents' stream."""
    pool = opp.pool_cum.shape[0] > 0
    for p in range(opp.seat_bots.shape[1]):
        if p == learner:
            opp.seat_bots[g, p] = -1
        elif pool:
            opp.seat_bots[g, p] = _pool_draw(opp.pool_cum, opp.rng, g)
        else:
            opp.seat_bots[g, p] = row_of(opp.seat_bot, g)[p if p < learner else p - 1]


@njit(inline="always")
def _start_game(r, g, T, cfg, setup, buf, opp):
    """A new game in record r (from its RNG state), run to the learner's first decision.

    A game that ends before the learner ever decides (only possible with a tiny turn limit)
    is dealt again: a result no learner action had a part in is not a learning signal."""
    for _ in range(1000):
        new_game(r, T, cfg, setup, g, buf.mask[g], buf.scratch[g])
        if not opp.enabled:
            return
        if opp.fixed_seat >= 0:
            buf.learner[g] = opp.fixed_seat
        else:
            buf.learner[g] = below(opp.rng, g, r.game[PLAYERS])
        _seat_opponents(opp, g, buf.learner[g])
        _play_opponents(r, T, cfg, buf, opp, g)
        if r.game[STATUS] == RUNNING:
            return


@njit(inline="always")
def _reset_game(s, g, T, cfg, setup, buf, seed, index, write_obs, opp):
    r = s[g]
    seed_game(r.rng, 0, seed, index, STREAM_GAME)
    buf.learner[g] = -1
    if opp.enabled:
        seed_game(opp.rng, g, seed, index, STREAM_OPPONENTS)
    _start_game(r, g, T, cfg, setup, buf, opp)
    for p in range(buf.reward.shape[1]):
        buf.reward[g, p] = 0.0
    buf.terminated[g] = False
    buf.truncated[g] = False
    buf.learner_reward[g] = 0.0
    if write_obs:
        _write_obs(r, T, buf, g)


@njit
def _prefetch_game(s, g, buf):
    """Start loading what the step of game g reads and writes: the hot part of its record,
    its observation and mask rows (a hint: no effect on results)."""
    if g < s.shape[0]:
        ranges = buf.step_reads
        for k in range(ranges.shape[0]):
            prefetch_bytes(s, g, ranges[k, 0], ranges[k, 1])
        prefetch_bytes(buf.obs, g, 0, buf.obs.shape[1] * buf.obs.itemsize)
        prefetch_bytes(buf.mask, g, 0, buf.mask.shape[1])


@njit(inline="always")
def _step_game(s, g, T, cfg, setup, buf, action, autoreset, write_obs, opp):
    _prefetch_game(s, g + PREFETCH_AHEAD, buf)
    r = s[g]
    for p in range(buf.reward.shape[1]):
        buf.reward[g, p] = 0.0
    buf.terminated[g] = False
    buf.truncated[g] = False
    buf.learner_reward[g] = 0.0
    if r.game[STATUS] != RUNNING or action < 0:  # over (no autoreset), or skipped this step
        return
    actor = r.game[DEC_PLAYER]
    resolve(r, T, cfg, action, buf.mask[g], buf.scratch[g])
    _play_opponents(r, T, cfg, buf, opp, g)
    status = r.game[STATUS]
    if status != RUNNING:
        for p in range(buf.reward.shape[1]):
            buf.reward[g, p] = r.reward[p]
        buf.terminated[g] = status == TERMINATED
        buf.truncated[g] = status == TRUNCATED
        viewer = actor
        if opp.enabled:
            viewer = buf.learner[g]
            buf.learner_reward[g] = r.reward[viewer]
            for p in range(opp.seat_bots.shape[1]):
                opp.finished_bots[g, p] = opp.seat_bots[g, p]
        if write_obs:
            _observe(r, T, viewer, buf, buf.final_obs[g])
        if autoreset:
            _start_game(r, g, T, cfg, setup, buf, opp)
    if write_obs:
        _write_obs(r, T, buf, g)


@njit
def _reset_or_step(
    s,
    g,
    T,
    cfg,
    setup,
    buf,
    actions,
    autoreset,
    write_obs,
    opp,
    policy_rng,
    expert_rng,
    seeds,
    indices,
):
    seed = seeds[g]
    if seed >= 0:
        index = indices[g]
        _reset_game(s, g, T, cfg, setup, buf, seed, index, write_obs, opp)
        seed_game(policy_rng, g, seed, index, STREAM_POLICY)
        seed_game(expert_rng, g, seed, index, STREAM_BOTS)
    else:
        _step_game(s, g, T, cfg, setup, buf, actions[g], autoreset, write_obs, opp)


@kernel
def batch_kernel(
    s,
    T,
    cfg,
    setup,
    buf,
    actions,
    autoreset,
    write_obs,
    opp,
    policy_rng,
    expert_rng,
    seeds,
    indices,
):
    """VecGame's reset and step, per row: ``seeds[g] >= 0`` deals row g anew as game number
    indices[g] of the run seeded ``seeds[g]`` (the random policy's stream policy_rng[g]
    that game's STREAM_POLICY stream and the expert bots' stream expert_rng[g] as
    play_bots_kernel seeds its bots' for that game number); ``seeds[g] = -1`` answers
    actions[g] in row g (-1: skip). One kernel for both: each kernel compiles the whole
    engine into its own machine code (~8 s cold)."""
    for g in prange(s.shape[0]):
        _reset_or_step(
            s,
            g,
            T,
            cfg,
            setup,
            buf,
            actions,
            autoreset,
            write_obs,
            opp,
            policy_rng,
            expert_rng,
            seeds,
            indices,
        )


@njit
def first_bad_action(s, mask, actions):
    """(g, why) for the first game g whose action is bad, why 1: out of range (-1 skips),
    why 2: not legal there; (-1, 0) if every action is good. Finished games are not checked
    (they ignore their action)."""
    for g in range(actions.shape[0]):
        if s[g].game[STATUS] != RUNNING:
            continue
        a = actions[g]
        if a < -1 or a >= mask.shape[1]:
            return g, 1
        if a >= 0 and not mask[g, a]:
            return g, 2
    return -1, 0


@njit
def _random_row(mask, rng, out, g):
    out[g] = random_action(mask[g], rng, g)


@kernel
def random_actions_kernel(mask, rng, out):
    for g in prange(mask.shape[0]):
        _random_row(mask, rng, out, g)


@njit
def _bot_row(s, g, T, bots, ids, mask, rng, scratch, out):
    if s[g].game[STATUS] != RUNNING:
        out[g] = -1
    else:
        out[g] = bot_action(s[g], T, bots, ids[g], mask[g], rng, g, scratch[g])


@kernel
def bot_actions_kernel(s, T, bots, ids, mask, rng, scratch, out):
    """out[g]: the action bot ids[g] of ``bots`` takes at game g's pending decision, whoever
    decides (-1: the game is over). Reads the games, changes nothing in them; random bots draw
    from rng[g], and the bots' card counts use scratch[g]."""
    for g in prange(s.shape[0]):
        _bot_row(s, g, T, bots, ids, mask, rng, scratch, out)


@njit
def _play_bot_game(
    s, g, T, cfg, setup, mask, scratch, seeds, indices, seat_bot, bots, bot_rng, turns
):
    r = s[g]
    seed_game(r.rng, 0, seeds[g], indices[g], STREAM_GAME)
    seed_game(bot_rng, g, seeds[g], indices[g], STREAM_BOTS)
    new_game(r, T, cfg, setup, g, mask[g], scratch[g])
    while r.game[STATUS] == RUNNING:
        b = seat_bot[g, r.game[DEC_PLAYER]]
        a = bot_action(r, T, bots, b, mask[g], bot_rng, g, scratch[g])
        resolve(r, T, cfg, a, mask[g], scratch[g])
    turns[g] = r.game[TURN_NUMBER]


@kernel
def play_bots_kernel(
    s, T, cfg, setup, mask, scratch, seeds, indices, seat_bot, bots, bot_rng, turns
):
    """Play one whole game per record with bots: seat_bot[g, p] is the bot id of player p.

    Record g plays game number indices[g] of the run seeded seeds[g] (the same game a VecGame
    reset with that seed and game number plays) on its row of ``setup`` (``row_of``); its bots
    draw from their own stream bot_rng[g]. Results stay in the records (reward, STATUS);
    turns[g] = turns started.
    """
    for g in prange(s.shape[0]):
        _play_bot_game(
            s, g, T, cfg, setup, mask, scratch, seeds, indices, seat_bot, bots, bot_rng, turns
        )


# -- one game of a batch, for the Python side (Game, tests): g is the record's index ----------


@njit
def scenario_game(s, g, T, cfg, buf, opp, sc):
    """Game.set_scenario: put game g in the position ``sc`` (``machine.setup_scenario``), run it
    to its first decision (learner mode: the bots answer every decision up to the learner's)
    and write its observation."""
    r = s[g]
    setup_scenario(r, cfg, sc)
    advance(r, T, cfg, buf.mask[g], buf.scratch[g])
    _play_opponents(r, T, cfg, buf, opp, g)
    _write_obs(r, T, buf, g)


@njit
def bot_action_game(s, g, T, bots, b, mask_row, bot_rng, scratch_row):
    return bot_action(s[g], T, bots, b, mask_row, bot_rng, g, scratch_row)


@njit
def observe_game(s, g, T, viewer, buf, out):
    """Game g from ``viewer``'s view into out, as the step writes it (scaled or raw)."""
    _observe(s[g], T, viewer, buf, out)


@njit
def score_game(s, g, T, p, scratch_row):
    return victory_points(s[g], T, p, scratch_row)


@njit
def _score_row(s, g, T, scratch, out):
    for p in range(s[g].game[PLAYERS]):
        out[g, p] = victory_points(s[g], T, p, scratch[g])


@kernel
def scores_kernel(s, T, scratch, out):
    """out[g, p] = player p's score now in game g (the finished game's on its last step
    without autoreset; with autoreset, the new game's)."""
    for g in prange(s.shape[0]):
        _score_row(s, g, T, scratch, out)
