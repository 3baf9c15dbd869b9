"""The compiled half of search: determinize, apply a root action, roll out to the end.

``rollout_kernel`` runs one simulation per row, all rows in one call (prange), each from one
of several root positions (one per decision being searched):

    copy root ``row_root[g]`` into row g
    determinize for the seat deciding at the root (``engine.determinize``), which replaces the
        row's streams with those of (seed, row_index[g], STREAM_DEAL): the game's, and each
        seat's started from it (never the game's own: they hold the future shuffles, which
        the searching seat cannot know)
    resolve the root decision with ``row_action[g]``
    roll out: compiled bot ``row_bot[g]`` answers every decision of every seat to the end,
        drawing from the row's bot stream (seed, row_index[g], STREAM_ROLLOUT)
    value[g] = the root seat's result (+1 / 0 / -1; 0 when truncated),
    margin[g] = its VP less the best other seat's VP at the end

Rows that share ``row_index`` share their determinization and their bots' draws whatever
their root action (common random numbers: the arms of one decision are compared on the same
deals), and each seat shuffles from its own stream, so an arm that changes one seat's deck
(a card drawn or trashed) leaves every other seat's shuffles as the other arms have them.
Each row depends only on its root, its action, its index and the seed.

``default_kernel`` asks the rollout bot what it would do at each root, on the root dealt as
its simulation 0 is (a bot may read what the seat does not know, such as an opponent's hand:
it reads the deal, never the game): the search's default, which another action must beat by
a margin to be chosen.

Both kernels take the same arguments: the rows' records, the roots' bytes, the rows bundled in
a ``Rows`` (what each row plays, what it found, its work space), the seed, the card table, the
games' Config and the bot tables (flat: a nested named tuple does not pass through prange).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..engine.bots import BotTable, bot_action
from ..engine.determinize import STREAM_ROLLOUT, determinize
from ..engine.jit import kernel, njit, prange
from ..engine.layout import DEC_PLAYER, PLAYERS, RUNNING, STATUS
from ..engine.machine import resolve
from ..engine.zones import seed_game, victory_points


class Rows(NamedTuple):
    """The rows of one kernel call, one simulation (or one default) each, M of them."""

    root: np.ndarray  # (M,) int64, the root (a decision being searched) the row starts from
    action: np.ndarray  # (M,) int64, the root action it plays (default_kernel: out, the bot's)
    index: np.ndarray  # (M,) int64, its stream number: rows with the same one share the deal
    bot: np.ndarray  # (M,) int64, the rollout bot playing every seat
    value: np.ndarray  # (M,) float32 out, the root seat's result (+1 / 0 / -1)
    margin: np.ndarray  # (M,) int64 out, its final VP less the best other seat's
    record_bytes: np.ndarray  # (M, itemsize) uint8, the rows' records as bytes (a row's copy)
    mask: np.ndarray  # (M, A) bool, work (default_kernel: in, the roots' masks)
    scratch: np.ndarray  # (M, C) int64, work
    work: np.ndarray  # (M, W) int64, work (``determinize.new_work``)
    bot_rng: np.ndarray  # (M,) uint64, the bots' stream per row


@njit
def deal_row(records, roots_bytes, rows, g, seed, cfg):
    """Row g's record: its root, dealt anew for the root's decider from the row's stream;
    the bots' stream seeded beside it. Returns the decider's seat."""
    src = rows.root[g]
    for k in range(rows.record_bytes.shape[1]):  # (a slice assignment would allocate: no NRT)
        rows.record_bytes[g, k] = roots_bytes[src, k]
    r = records[g]
    seat = r.game[DEC_PLAYER]
    determinize(r, cfg, seat, seed, rows.index[g], rows.work[g])
    seed_game(rows.bot_rng, g, seed, rows.index[g], STREAM_ROLLOUT)
    return seat


@njit
def _rollout_row(records, roots_bytes, rows, g, seed, T, cfg, bot_kind, bot_rules):
    seat = deal_row(records, roots_bytes, rows, g, seed, cfg)
    r = records[g]
    resolve(r, T, cfg, rows.action[g], rows.mask[g], rows.scratch[g])
    bots = BotTable(bot_kind, bot_rules)
    b = rows.bot[g]
    while r.game[STATUS] == RUNNING:
        a = bot_action(r, T, bots, b, rows.mask[g], rows.bot_rng, g, rows.scratch[g])
        resolve(r, T, cfg, a, rows.mask[g], rows.scratch[g])
    rows.value[g] = r.reward[seat]
    mine = victory_points(r, T, seat, rows.scratch[g])
    best = -(1 << 30)
    for p in range(r.game[PLAYERS]):
        if p != seat:
            vp = victory_points(r, T, p, rows.scratch[g])
            if vp > best:
                best = vp
    rows.margin[g] = mine - best


@kernel
def rollout_kernel(records, roots_bytes, rows, seed, T, cfg, bot_kind, bot_rules):
    """One simulation per row (module docstring). records: (M,) records to play in,
    roots_bytes: (R, itemsize) uint8, the roots' records; rows: ``Rows``; cfg: the games'
    Config with logging off."""
    for g in prange(records.shape[0]):
        _rollout_row(records, roots_bytes, rows, g, seed, T, cfg, bot_kind, bot_rules)


def as_bytes(records: np.ndarray) -> np.ndarray:
    """(N, itemsize) uint8 view of an array of game records (a copy of a row is a byte copy)."""
    base = np.asarray(records)
    return base.view(np.uint8).reshape(base.shape[0], base.dtype.itemsize)


@njit
def _default_row(records, roots_bytes, rows, g, seed, T, cfg, bot_kind, bot_rules):
    deal_row(records, roots_bytes, rows, g, seed, cfg)
    bots = BotTable(bot_kind, bot_rules)
    rows.action[g] = bot_action(
        records[g], T, bots, rows.bot[g], rows.mask[g], rows.bot_rng, g, rows.scratch[g]
    )


@kernel
def default_kernel(records, roots_bytes, rows, seed, T, cfg, bot_kind, bot_rules):
    """rows.action[g]: the action rollout bot rows.bot[g] takes at root rows.root[g], dealt as
    simulation rows.index[g] is; rows.mask holds the roots' masks (a deal keeps the decider's
    own cards, so its mask). Arguments as ``rollout_kernel``'s."""
    for g in prange(records.shape[0]):
        _default_row(records, roots_bytes, rows, g, seed, T, cfg, bot_kind, bot_rules)
