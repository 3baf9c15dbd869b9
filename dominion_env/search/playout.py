"""The compiled half of the guided search: deal, answer the root, step, observe, score.

A guided simulation is a row of records that Python steps a decision at a time, because a
network (outside the kernels) chooses for every seat; each step is one kernel call over every
row of every waiting decision:

    start_kernel     copy root ``rows.root[g]`` into row g, deal the cards hidden from the
                     root's decider anew from the row's streams (seed, rows.index[g],
                     STREAM_DEAL) as ``rollout_kernel`` does, and answer the root decision
                     with ``rows.action[g]``; rows.mask[g] is then the next decision's mask
    observe_kernel   out[g] = row g seen by ``viewer[g]`` (-1: its decider), scaled by
                     ``scale`` (empty: raw counts), as VecGame writes it
    step_kernel      answer row g's decision with ``actions[g]`` (-1 or a finished row: left
                     as it is); rows.mask[g] is the next mask

    gumbel_kernel    out[r, a]: a Gumbel(0, 1) draw per root r and action a from the stream
                     (seed, decision[r], STREAM_GUMBEL): the root's noise, keyed by the
                     decision's number, never by where it sits in a batch

A row's status, decider and reward are read from its record, its seats' VP by
``engine.batch.scores_kernel``.

Rows that share ``rows.index`` share their deal whatever their root action (common random
numbers), and nothing but the root, the action, the index, the seed and the actions given
reaches a row.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..engine.jit import kernel, njit, prange
from ..engine.layout import DEC_PLAYER, RUNNING, STATUS
from ..engine.machine import resolve
from ..engine.observation import write_observation
from ..engine.zones import next_u64, seed_game
from .rollout import deal_row

STREAM_GUMBEL = 18  # beside determinize's STREAM_DEAL and STREAM_ROLLOUT (16, 17)


class Playout(NamedTuple):
    """The rows of a guided simulation, M of them (the fields ``rollout.deal_row`` reads are
    named as in ``rollout.Rows``)."""

    root: np.ndarray  # (M,) int64, the root (a decision being searched) the row starts from
    action: np.ndarray  # (M,) int64, the root action it plays
    index: np.ndarray  # (M,) int64, its stream number: rows with the same one share the deal
    seat: np.ndarray  # (M,) int64 out, the root's decider (the searching seat)
    record_bytes: np.ndarray  # (M, itemsize) uint8, the rows' records as bytes
    mask: np.ndarray  # (M, A) bool, the legal actions of the row's decider now
    scratch: np.ndarray  # (M, C) int64, work
    work: np.ndarray  # (M, W) int64, work (``determinize.new_work``)
    bot_rng: np.ndarray  # (M,) uint64, seeded by the deal, unused (no bot plays)


@njit
def _start_row(records, roots_bytes, rows, g, seed, T, cfg):
    rows.seat[g] = deal_row(records, roots_bytes, rows, g, seed, cfg)
    resolve(records[g], T, cfg, rows.action[g], rows.mask[g], rows.scratch[g])


@kernel
def start_kernel(records, roots_bytes, rows, seed, T, cfg):
    """Deal row g and answer its root decision (module docstring); ``rows``: a ``Playout``."""
    for g in prange(records.shape[0]):
        _start_row(records, roots_bytes, rows, g, seed, T, cfg)


@njit
def _observe_row(records, T, g, viewer, offsets, scale, out):
    r = records[g]
    v = viewer[g]
    if v < 0:
        v = max(r.game[DEC_PLAYER], 0)
    write_observation(r, T, v, offsets, out[g])
    for i in range(scale.shape[0]):
        out[g, i] = out[g, i] / scale[i]


@kernel
def observe_kernel(records, T, viewer, offsets, scale, out):
    """out[g] (float32): row g as ``viewer[g]`` sees it (-1: who decides there)."""
    for g in prange(records.shape[0]):
        _observe_row(records, T, g, viewer, offsets, scale, out)


@njit
def _step_row(records, actions, rows, g, T, cfg):
    r = records[g]
    if actions[g] >= 0 and r.game[STATUS] == RUNNING:
        resolve(r, T, cfg, actions[g], rows.mask[g], rows.scratch[g])


@kernel
def step_kernel(records, actions, rows, T, cfg):
    """Answer every running row's decision with actions[g] (-1: leave the row as it is)."""
    for g in prange(records.shape[0]):
        _step_row(records, actions, rows, g, T, cfg)


@njit
def _gumbel_row(seed, decision, rng, r, out):
    seed_game(rng, r, seed, decision[r], STREAM_GUMBEL)
    for a in range(out.shape[1]):
        u = ((next_u64(rng, r) >> np.uint64(11)) + 0.5) * 2.0**-53  # in (0, 1)
        out[r, a] = -np.log(-np.log(u))


@kernel
def gumbel_kernel(seed, decision, rng, out):
    """out[r] (float64): Gumbel(0, 1) draws of decision number decision[r] (module
    docstring); rng (R,) uint64 work."""
    for r in prange(out.shape[0]):
        _gumbel_row(seed, decision, rng, r, out)
