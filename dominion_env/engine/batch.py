"""Batch kernels: reset, step, random actions and whole bot-vs-bot games over N games.

Each runs over the games with ``prange``; a game only ever touches its own record, its own RNG
stream and its own scratch row, so results do not depend on the batch size or thread count.
"""

from typing import NamedTuple

import numpy as np

from .bots import bot_action, random_action
from .jit import kernel, njit, prange
from .layout import DEC_PLAYER, RUNNING, STATUS, TERMINATED, TRUNCATED, TURN_NUMBER
from .machine import advance, resolve, set_universe, setup_game
from .observation import write_observation
from .zones import below, seed_game, victory_points

KINGDOM_CARDS = 10


class Setup(NamedTuple):
    """How a new game is set up."""

    kingdom: np.ndarray  # (10,) int64, the kingdom's card ids (when random_kingdom is 0)
    pool: np.ndarray  # (M,) int64, card ids a random kingdom is drawn from, M >= 10
    random_kingdom: int  # 1: each game draws its own kingdom from pool with its own RNG
    pile_sizes: np.ndarray  # (C,) int64, Supply pile size per card for this player count


class Buffers(NamedTuple):
    """What the step kernel writes (and the per-game scratch it works in)."""

    obs: np.ndarray  # (N, O) float32, observation of the player who decides now
    mask: np.ndarray  # (N, A) bool, legal actions of that player
    reward: np.ndarray  # (N, P) float32, per player, nonzero only on the step a game ends
    terminated: np.ndarray  # (N,) bool, the game ended on this step (by the rules)
    truncated: np.ndarray  # (N,) bool, the game hit the turn limit on this step
    scratch: np.ndarray  # (N, C) int64, per-game work space
    offsets: np.ndarray  # (pieces+1,) int64, observation layout offsets


@njit
def new_game(r, T, cfg, setup, mask_row, scratch_row):
    """Set up the game in record r from its current RNG state and run it to the first decision."""
    if setup.random_kingdom:
        m = setup.pool.shape[0]
        for i in range(m):
            scratch_row[i] = setup.pool[i]
        for i in range(KINGDOM_CARDS):  # partial Fisher-Yates: the first 10 are the draw
            j = i + below(r.rng, 0, m - i)
            t = scratch_row[i]
            scratch_row[i] = scratch_row[j]
            scratch_row[j] = t
        setup_game(r, T, cfg, scratch_row[:KINGDOM_CARDS], setup.pile_sizes)
    else:
        setup_game(r, T, cfg, setup.kingdom, setup.pile_sizes)
    advance(r, T, cfg, mask_row, scratch_row)


@njit
def _write_obs(r, T, buf, g):
    viewer = r.game[DEC_PLAYER]
    if viewer < 0:
        viewer = 0
    write_observation(r, T, viewer, buf.offsets, buf.obs[g], buf.scratch[g])


# Each prange body below is one call to a helper: Numba's parfor lowering was seen to drop
# conditional writes made directly in the loop body (the terminated flags never arrived).

@njit
def _reset_game(s, g, T, cfg, setup, buf, seed, write_obs):
    r = s[g]
    seed_game(r.rng, 0, seed, g)
    new_game(r, T, cfg, setup, buf.mask[g], buf.scratch[g])
    for p in range(buf.reward.shape[1]):
        buf.reward[g, p] = 0.0
    buf.terminated[g] = False
    buf.truncated[g] = False
    if write_obs:
        _write_obs(r, T, buf, g)


@kernel
def reset_kernel(s, T, cfg, setup, buf, seed, write_obs):
    for g in prange(s.shape[0]):
        _reset_game(s, g, T, cfg, setup, buf, seed, write_obs)


@njit
def _step_game(s, g, T, cfg, setup, buf, action, autoreset, write_obs):
    r = s[g]
    for p in range(buf.reward.shape[1]):
        buf.reward[g, p] = 0.0
    buf.terminated[g] = False
    buf.truncated[g] = False
    if r.game[STATUS] != RUNNING:
        return
    resolve(r, T, cfg, action, buf.mask[g], buf.scratch[g])
    status = r.game[STATUS]
    if status != RUNNING:
        for p in range(buf.reward.shape[1]):
            buf.reward[g, p] = r.reward[p]
        buf.terminated[g] = status == TERMINATED
        buf.truncated[g] = status == TRUNCATED
        if autoreset:
            new_game(r, T, cfg, setup, buf.mask[g], buf.scratch[g])
    if write_obs:
        _write_obs(r, T, buf, g)


@kernel
def step_kernel(s, T, cfg, setup, buf, actions, autoreset, write_obs):
    for g in prange(s.shape[0]):
        _step_game(s, g, T, cfg, setup, buf, actions[g], autoreset, write_obs)


@njit
def _seed_row(rng, g, seed):
    seed_game(rng, g, seed, g)


@kernel
def seed_kernel(rng, seed):
    for g in prange(rng.shape[0]):
        _seed_row(rng, g, seed)


@njit
def _random_row(mask, rng, out, g):
    out[g] = random_action(mask[g], rng, g)


@kernel
def random_actions_kernel(mask, rng, out):
    for g in prange(mask.shape[0]):
        _random_row(mask, rng, out, g)


@njit
def _play_bot_game(s, g, T, cfg, setup, mask, scratch, seed, first_index, seat_bot, bots,
                   bot_rng, turns):
    r = s[g]
    seed_game(r.rng, 0, seed, first_index + g)
    seed_game(bot_rng, g, seed + 1, first_index + g)
    new_game(r, T, cfg, setup, mask[g], scratch[g])
    while r.game[STATUS] == RUNNING:
        b = seat_bot[g, r.game[DEC_PLAYER]]
        a = bot_action(r, T, bots, b, mask[g], bot_rng, g, scratch[g])
        resolve(r, T, cfg, a, mask[g], scratch[g])
    turns[g] = r.game[TURN_NUMBER]


@kernel
def play_bots_kernel(s, T, cfg, setup, mask, scratch, seed, first_index, seat_bot, bots,
                     bot_rng, turns):
    """Play one whole game per record with bots: seat_bot[g, p] is the bot id of player p.

    Record g plays game number first_index + g of the run seeded ``seed`` (the same game a
    VecGame reset with that seed plays in that row); its bots draw from their own stream
    bot_rng[g]. Results stay in the records (reward, STATUS); turns[g] = turns started.
    """
    for g in prange(s.shape[0]):
        _play_bot_game(s, g, T, cfg, setup, mask, scratch, seed, first_index, seat_bot, bots,
                       bot_rng, turns)


# -- one game of a batch, for the Python side (Game, tests): g is the record's index ----------

@njit
def advance_game(s, g, T, cfg, mask_row, scratch_row):
    set_universe(s[g])
    advance(s[g], T, cfg, mask_row, scratch_row)


@njit
def bot_action_game(s, g, T, bots, b, mask_row, bot_rng, scratch_row):
    return bot_action(s[g], T, bots, b, mask_row, bot_rng, g, scratch_row)


@njit
def observe_game(s, g, T, viewer, offsets, out, scratch_row):
    write_observation(s[g], T, viewer, offsets, out, scratch_row)


@njit
def score_game(s, g, T, p, scratch_row):
    return victory_points(s[g], T, p, scratch_row)
