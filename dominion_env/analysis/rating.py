"""Bradley-Terry ratings on the Elo scale, from a matrix of pairwise wins.

A Bradley-Terry model P(A beats B) = p_A / (p_A + p_B) is fitted to the pairwise outcomes (a tie
is half a win for each side) by the MM (Zermelo) iteration p_i <- W_i / sum_j N_ij / (p_i + p_j)
(Hunter 2004) until no log strength moves by more than 1e-10. Every pair that met also gets
``prior`` (default 1) virtual game, half won by each side, so a bot that never wins or never
loses (Random against anything) still gets a finite rating. Strengths are normalised to
geometric mean 1 and reported as Elo: 1500 + 400 log10(p), so the ratings average 1500 and a
400-point gap means 10:1 odds. The +/- is 1.96 standard errors from the model's Fisher
information (ratings relative to the mean), treating each pairwise outcome as independent. A bot
without games has no rating (NaN). If the games do not connect all bots (in a tournament:
possible only when tables are sampled or skipped), ratings in different groups
(``connected_groups``) are not comparable.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

ELO_BASE = 1500.0
ELO_SCALE = 400.0 / math.log(10.0)  # Elo points per unit of log strength


class Ratings(NamedTuple):
    strength: np.ndarray  # (n,) Bradley-Terry, geometric mean 1; NaN without games
    iterations: int  # MM iterations of the fit
    elo: np.ndarray  # (n,) 1500 + 400 log10(strength)
    elo_pm: np.ndarray  # (n,) 1.96 standard errors, in Elo points


def bradley_terry(wins, prior: float = 1.0, tol: float = 1e-10, max_iter: int = 100_000):
    """Bradley-Terry strengths from ``wins[i, j]`` = how often i beat j (ties as half wins).

    MM (Zermelo) iteration p_i <- W_i / sum_j N_ij / (p_i + p_j) with ``prior`` virtual games,
    half won by each side, added to every pair that met. Returns (strengths, iterations):
    geometric mean 1 over the bots with games; NaN for bots without any."""
    w = np.array(wins, dtype=np.float64)
    if w.ndim != 2 or w.shape[0] != w.shape[1]:
        raise ValueError(f"wins must be a square matrix, got shape {w.shape}")
    if (w < 0).any():
        raise ValueError("wins must be non-negative")
    if not prior > 0:
        raise ValueError(f"prior must be positive (it keeps unbeaten bots finite), got {prior}")
    np.fill_diagonal(w, 0.0)
    n = w + w.T
    met = n > 0
    w = w + 0.5 * prior * met
    n = n + prior * met
    active = met.any(axis=1)
    p = np.where(active, 1.0, np.nan)
    if not active.any():
        return p, 0
    a = np.flatnonzero(active)
    w_i = w[np.ix_(a, a)].sum(axis=1)
    n_a = n[np.ix_(a, a)]
    q = np.ones(a.size)
    iterations, done = 0, False
    while not done and iterations < max_iter:
        new = w_i / (n_a / (q[:, None] + q[None, :])).sum(axis=1)
        new /= math.exp(np.log(new).mean())
        done = np.abs(np.log(new) - np.log(q)).max() < tol
        q = new
        iterations += 1
    p[a] = q
    return p, iterations


def bt_standard_errors(wins, strengths, prior: float = 1.0) -> np.ndarray:
    """Standard errors of the log strengths (relative to their mean) from the Fisher information
    of the Bradley-Terry likelihood, with the same virtual games as ``bradley_terry``."""
    w = np.array(wins, dtype=np.float64)
    np.fill_diagonal(w, 0.0)
    n = w + w.T
    n = n + prior * (n > 0)
    p = np.asarray(strengths, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    a = np.flatnonzero(np.isfinite(p))
    if a.size < 2:
        return out
    pa = p[a]
    pij = pa[:, None] / (pa[:, None] + pa[None, :])
    info = -n[np.ix_(a, a)] * pij * (1.0 - pij)
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(axis=1))
    # the likelihood is flat along "all log strengths up by c": the pseudo-inverse is the
    # covariance of the log strengths under the constraint that they sum to zero
    cov = np.linalg.pinv(info)
    out[a] = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    return out


def elo_ratings(wins, prior: float = 1.0) -> Ratings:
    """Fit ``bradley_terry`` to ``wins`` (ties as half wins) and put it on the Elo scale, with
    95% half-widths from ``bt_standard_errors``."""
    strength, iterations = bradley_terry(wins, prior=prior)
    se = bt_standard_errors(wins, strength, prior=prior)
    with np.errstate(divide="ignore", invalid="ignore"):
        elo = ELO_BASE + ELO_SCALE * np.log(strength)
    return Ratings(strength, iterations, elo, 1.96 * ELO_SCALE * se)


def connected_groups(met: np.ndarray, active: np.ndarray) -> list[list[int]]:
    """Connected groups of bots in the 'have met' graph (bots with games only): ratings are
    comparable only within a group."""
    seen, groups = set(), []
    for s in np.flatnonzero(active):
        if s in seen:
            continue
        stack, group = [int(s)], []
        seen.add(int(s))
        while stack:
            i = stack.pop()
            group.append(i)
            for j in np.flatnonzero(met[i]):
                if int(j) not in seen:
                    seen.add(int(j))
                    stack.append(int(j))
        groups.append(sorted(group))
    return groups
