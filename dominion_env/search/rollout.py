"""The compiled half of search: determinize, apply a root action, roll out to the end.

``rollout_kernel`` runs one simulation per row, all rows in one call (prange), each from one
of several root positions (one per decision being searched):

    copy root ``row_root[g]`` into row g
    seed the row's game stream from (seed, row_index[g], STREAM_DEAL)   (never the game's own:
        its state holds the future shuffles, which the searching seat cannot know)
    determinize for the seat deciding at the root (``engine.determinize``)
    resolve the root decision with ``row_action[g]``
    roll out: compiled bot ``row_bot[g]`` answers every decision of every seat to the end,
        drawing from the row's bot stream (seed, row_index[g], STREAM_ROLLOUT)
    value[g] = the root seat's result (+1 / 0 / -1; 0 when truncated),
    margin[g] = its VP less the best other seat's VP at the end

Rows that share ``row_index`` share their determinization and their bots' draws whatever
their root action (common random numbers: the arms of one decision are compared on the same
deals). Each row depends only on its root, its action, its index and the seed.

``default_kernel`` asks the rollout bot what it would do at each root, on the root dealt as
its simulation 0 is (a bot may read what the seat does not know, such as an opponent's hand:
it reads the deal, never the game): the search's default, which another action must beat by
a margin to be chosen.
"""

from __future__ import annotations

import numpy as np

from ..engine.bots import BotTable, bot_action
from ..engine.determinize import STREAM_DEAL, STREAM_ROLLOUT, determinize
from ..engine.jit import kernel, njit, prange
from ..engine.layout import DEC_PLAYER, PLAYERS, RUNNING, STATUS
from ..engine.machine import resolve
from ..engine.zones import seed_game, victory_points


@njit
def _rollout_row(
    rows,
    rows_bytes,
    roots_bytes,
    g,
    row_root,
    row_action,
    row_index,
    row_bot,
    seed,
    T,
    cfg,
    bot_kind,
    bot_rules,
    mask,
    scratch,
    work,
    bot_rng,
    value,
    margin,
):
    src = row_root[g]
    for k in range(rows_bytes.shape[1]):  # (a slice assignment would allocate: no NRT here)
        rows_bytes[g, k] = roots_bytes[src, k]
    r = rows[g]
    seat = r.game[DEC_PLAYER]
    seed_game(r.rng, 0, seed, row_index[g], STREAM_DEAL)
    determinize(r, seat, work[g])
    seed_game(bot_rng, g, seed, row_index[g], STREAM_ROLLOUT)
    resolve(r, T, cfg, row_action[g], mask[g], scratch[g])
    bots = BotTable(bot_kind, bot_rules)
    b = row_bot[g]
    while r.game[STATUS] == RUNNING:
        a = bot_action(r, T, bots, b, mask[g], bot_rng, g, scratch[g])
        resolve(r, T, cfg, a, mask[g], scratch[g])
    value[g] = r.reward[seat]
    mine = victory_points(r, T, seat, scratch[g])
    best = -(1 << 30)
    for p in range(r.game[PLAYERS]):
        if p != seat:
            vp = victory_points(r, T, p, scratch[g])
            if vp > best:
                best = vp
    margin[g] = mine - best


@kernel
def rollout_kernel(
    rows,
    rows_bytes,
    roots_bytes,
    row_root,
    row_action,
    row_index,
    row_bot,
    seed,
    T,
    cfg,
    bot_kind,
    bot_rules,
    mask,
    scratch,
    work,
    bot_rng,
    value,
    margin,
):
    """One simulation per row (module docstring). rows: (M,) records to play in, rows_bytes /
    roots_bytes: the rows' and the roots' records as (M, itemsize) / (R, itemsize) uint8 views;
    row_root, row_action, row_index, row_bot: (M,) int64; cfg: the games' Config with logging
    off; mask (M, A) bool, scratch (M, C) int64, work (M, W) int64 (``determinize.new_work``),
    bot_rng (M,) uint64: per-row work space; value (M,) float32, margin (M,) int64: out."""
    for g in prange(rows.shape[0]):
        _rollout_row(
            rows,
            rows_bytes,
            roots_bytes,
            g,
            row_root,
            row_action,
            row_index,
            row_bot,
            seed,
            T,
            cfg,
            bot_kind,
            bot_rules,
            mask,
            scratch,
            work,
            bot_rng,
            value,
            margin,
        )


def as_bytes(records: np.ndarray) -> np.ndarray:
    """(N, itemsize) uint8 view of an array of game records (a copy of a row is a byte copy)."""
    base = np.asarray(records)
    return base.view(np.uint8).reshape(base.shape[0], base.dtype.itemsize)


@njit
def _default_row(
    rows,
    rows_bytes,
    roots_bytes,
    g,
    row_index,
    row_bot,
    seed,
    T,
    bot_kind,
    bot_rules,
    mask,
    scratch,
    work,
    bot_rng,
    out,
):
    for k in range(rows_bytes.shape[1]):
        rows_bytes[g, k] = roots_bytes[g, k]
    r = rows[g]
    seed_game(r.rng, 0, seed, row_index[g], STREAM_DEAL)
    determinize(r, r.game[DEC_PLAYER], work[g])
    seed_game(bot_rng, g, seed, row_index[g], STREAM_ROLLOUT)
    out[g] = bot_action(
        r, T, BotTable(bot_kind, bot_rules), row_bot[g], mask[g], bot_rng, g, scratch[g]
    )


@kernel
def default_kernel(
    rows,
    rows_bytes,
    roots_bytes,
    row_index,
    row_bot,
    seed,
    T,
    bot_kind,
    bot_rules,
    mask,
    scratch,
    work,
    bot_rng,
    out,
):
    """out[g]: the action rollout bot row_bot[g] takes at root g, dealt as simulation
    row_index[g] is; mask: (R, A) the roots' masks (a deal keeps the decider's own cards,
    so its mask). Rows as ``rollout_kernel``'s, one per root."""
    for g in prange(rows.shape[0]):
        _default_row(
            rows,
            rows_bytes,
            roots_bytes,
            g,
            row_index,
            row_bot,
            seed,
            T,
            bot_kind,
            bot_rules,
            mask,
            scratch,
            work,
            bot_rng,
            out,
        )
