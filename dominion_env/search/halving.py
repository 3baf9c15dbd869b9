"""Sequential halving at a search's root: which arms are alive each round and how many
simulations each gets (Karnin et al. 2013), in the two schedules the searches use.

    rank(score)                       each entry's place in its row, largest first
    keep_best(alive, score, keep)     the ``keep[r]`` best alive arms of each row

The flat search's schedule (``Search``): m arms, ``ceil(log2 m)`` rounds; round j has
``arms(m)[j]`` arms alive, each round keeps the better half rounded up; a round takes an equal
share of the budget left for the rounds left, never so much that a later round cannot give
each of its arms one simulation::

    ARMS[m, j]          arms alive in round j of a halving over m arms (0 past its rounds)
    ROUNDS[m]           its rounds
    LATER_COST[m, j]    the simulations the rounds after j cost at one per arm
    most_arms(budget)   the most arms a halving can search within ``budget``
    flat_share(budget, spent, m, j)   simulations per arm in round j

mctx's schedule (``GuidedSearch``, Danihelka et al. 2022): each round gives each of the k arms
alive ``max(1, floor(N / (ceil(log2 m) k)))`` simulations, then keeps the best
``max(2, floor(k / 2))``, until the budget N is spent; the round the budget cuts gives its
rest to the best-ranked arms::

    mctx_share(budget, spent, k, m)   (simulations per arm, spare simulations for the best)
"""

from __future__ import annotations

import numpy as np

from ..engine.layout import NUM_ACTIONS


def arms(m: int) -> list[int]:
    """The arms alive in each round of sequential halving over m arms: ceil(log2 m) rounds,
    each keeping the better half (rounded up) of the last."""
    out = []
    while m > 1:
        out.append(m)
        m = (m + 1) // 2
    return out


MAX_ROUNDS = len(arms(NUM_ACTIONS)) + 1
ROUNDS = np.array([len(arms(m)) for m in range(NUM_ACTIONS + 1)], np.int64)
ARMS = np.zeros((NUM_ACTIONS + 1, MAX_ROUNDS), np.int64)
LATER_COST = np.zeros((NUM_ACTIONS + 1, MAX_ROUNDS), np.int64)
for _m in range(NUM_ACTIONS + 1):
    _h = arms(_m)
    ARMS[_m, : len(_h)] = _h
    LATER_COST[_m, : len(_h)] = [sum(_h[j + 1 :]) for j in range(len(_h))]


def most_arms(budget: int) -> int:
    """The most arms a halving can search within ``budget`` simulations: one simulation per
    arm alive in every round (18 arms cost 18 + 9 + 5 + 3 + 2 = 37)."""
    return int(np.flatnonzero(ARMS.sum(axis=1) <= budget).max())


def flat_share(budget: int, spent: np.ndarray, m: np.ndarray, j: int) -> np.ndarray:
    """(R,) simulations per alive arm in round j of the flat schedule, for roots with m arms
    that spent ``spent`` so far (0 for roots whose halving has ended)."""
    rounds = ROUNDS[m]
    k = ARMS[m, j]
    left = budget - spent
    share = (left // np.maximum(rounds - j, 1)) // np.maximum(k, 1)
    most = (left - LATER_COST[m, j]) // np.maximum(k, 1)
    return np.where(rounds > j, np.minimum(np.maximum(share, 1), most), 0)


def mctx_share(budget: int, spent: np.ndarray, k: np.ndarray, m: np.ndarray):
    """(per arm (R,), spare (R,)) for a round of mctx's schedule: k arms alive of m searched,
    ``spent`` simulations so far; the spare go one each to the best-ranked arms."""
    left = budget - spent
    log2m = np.ceil(np.log2(np.maximum(m, 2))).astype(np.int64)
    per_arm = np.maximum(1, budget // (log2m * np.maximum(k, 1)))
    n = np.minimum(per_arm, left // np.maximum(k, 1))  # whole shares of what is left
    spare = np.where(per_arm * k > left, left - n * k, 0)  # the cut round's rest
    return n, spare


def rank(score: np.ndarray) -> np.ndarray:
    """(R, A) each entry's place in its row, largest first (ties by index)."""
    order = np.argsort(-score, axis=1, kind="stable")
    out = np.empty_like(order)
    np.put_along_axis(out, order, np.arange(score.shape[1])[None, :], axis=1)
    return out


def keep_best(alive: np.ndarray, score: np.ndarray, keep: np.ndarray) -> np.ndarray:
    """(R, A) the ``keep[r]`` alive arms of row r with the largest scores (ties by index)."""
    return alive & (rank(np.where(alive, score, -np.inf)) < keep[:, None])


__all__ = [
    "ARMS",
    "LATER_COST",
    "MAX_ROUNDS",
    "ROUNDS",
    "arms",
    "flat_share",
    "keep_best",
    "mctx_share",
    "most_arms",
    "rank",
]
