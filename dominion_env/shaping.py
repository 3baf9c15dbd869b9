"""Potential-based reward shaping on the VP difference, which leaves every return unchanged.

A learner that only sees +1/0/-1 at the end of a ~25-turn game gets no credit for the buys
that won it. Shaping adds, at each of a seat's decisions, the change of a potential

    phi(seat) = coef * (its VP - the best other player's VP)

since its previous decision (Ng, Harada & Russell 1999: F = gamma * phi(s') - phi(s), here with
gamma = 1). Two conventions make the return of every episode exactly the game result:

* the potential is taken as 0 before a seat's first decision of a game (the first shaped reward
  is phi(first state) - 0; this adds a constant that depends only on the deal, so it changes no
  optimal policy), and
* the potential is 0 when the game is over, whether terminated or truncated, so the last
  shaped reward is ``result - phi(last decision)``.

The shaped rewards of a game therefore telescope to its result: +1, 0 or -1 when it
terminated, and 0 when the turn limit truncated it (a truncated game is scored as no result,
never bootstrapped past the limit). A VP-margin bonus at the end would not be shaping: it
changes what is optimal ("lose by less").
"""

from __future__ import annotations

import numpy as np


def vp_margin(scores: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """(N,) float64 VP margins: scores[g, seat[g]] less the best of the other seats' scores[g]
    (``scores`` (N, P) VP per seat; ``seat`` (N,) one seat per row). The one definition of a
    seat's VP margin: the shaping potential, the evaluation's mean margin and the search's
    leaf values all read it."""
    scores = np.asarray(scores, np.float64)
    rows = np.arange(scores.shape[0])
    own = scores[rows, seat]
    others = scores.copy()
    others[rows, seat] = -np.inf
    return own - others.max(axis=1)


def vp_potential(scores: np.ndarray, seat: np.ndarray, coef: float) -> np.ndarray:
    """(N,) coef * the VP margin of ``seat`` (``vp_margin``)."""
    return coef * vp_margin(scores, seat)


class VPShaping:
    """Per-row shaped rewards for one seat per row (a learner, or one seat of self-play)."""

    def __init__(self, num_rows: int, coef: float):
        if not isinstance(coef, (int, float)) or isinstance(coef, bool) or not coef >= 0:
            raise ValueError(f"coef must be a number >= 0, got {coef!r}")
        self.coef = float(coef)
        self.previous = np.zeros(num_rows, np.float64)  # phi at the row's last decision

    def reset(self, rows=None) -> None:
        """A new game in ``rows`` (all rows by default): its potential starts at 0."""
        if rows is None:
            self.previous[:] = 0.0
        else:
            self.previous[rows] = 0.0

    def step(
        self, result: np.ndarray, done: np.ndarray, potential: np.ndarray, rows=None
    ) -> np.ndarray:
        """Shaped rewards of ``rows`` (default: all) that just reached a decision or an end.

        ``result``: the game result for rows whose game ended (0 elsewhere); ``done``: the game
        ended (terminated or truncated); ``potential``: phi now, for rows still playing."""
        rows = slice(None) if rows is None else rows
        done = np.asarray(done, bool)
        now = np.where(done, 0.0, potential)
        shaped = np.asarray(result, np.float64) + now - self.previous[rows]
        # a finished row's next decision belongs to a new game, whose potential starts at 0
        self.previous[rows] = np.where(done, 0.0, now)
        return shaped.astype(np.float32)
