"""mctx's ``qtransform_completed_by_mix_value``: action values a Gumbel search can add to logits.

    completed = complete(sums, visits, masks, logits, root_value)
    s = sigma(completed, visits, masks, c_visit, c_scale)
    policy = softmax(np.where(masks, logits + s, -np.inf))     # the improved policy

complete   q(a) = the mean of a's simulations; an action never simulated gets the mixed value
           (root value + the visited actions' prior-weighted mean q x their visits) /
           (visits + 1): the root's estimate, pulled toward what the simulations said
sigma      the completed q rescaled to [0, 1] over the legal actions (min to max), times
           (``c_visit`` + the largest visit count) x ``c_scale``

Why it needs correct values: the rescale makes the best q 1 and the worst 0 whatever their
gap, and the factor grows with the visits, so a few noisy simulations become a confident
target; the guided search (``GuidedSearch``) uses it where its values come from a network's
leaves, and a learner imitates ``policy``.
"""

from __future__ import annotations

import numpy as np


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax; -inf entries (illegal actions) get 0."""
    top = np.max(logits, axis=1, keepdims=True)
    e = np.exp(logits - np.where(np.isfinite(top), top, 0.0))
    return e / e.sum(axis=1, keepdims=True)


def complete(sums, visits, masks, logits, root_value) -> np.ndarray:
    """(R, A) completed q: the mean of each simulated action's values, the mixed value for the
    rest (module docstring); 0 on illegal actions."""
    q = sums / np.maximum(visits, 1)
    seen = visits > 0
    prior = np.maximum(softmax(logits), np.finfo(np.float64).tiny)
    weight = np.where(seen, prior, 0.0)
    mass = weight.sum(axis=1)
    weighted = (weight * q).sum(axis=1) / np.where(mass > 0, mass, 1.0)
    total = visits.sum(axis=1)
    mixed = (root_value + total * weighted) / (total + 1)
    return np.where(masks, np.where(seen, q, mixed[:, None]), 0.0)


def sigma(completed, visits, masks, c_visit: float, c_scale: float) -> np.ndarray:
    """(R, A) sigma(q): completed q rescaled to [0, 1] over the legal actions, times
    (c_visit + the most visits) x c_scale; 0 on illegal actions."""
    lo = np.where(masks, completed, np.inf).min(axis=1, keepdims=True)
    hi = np.where(masks, completed, -np.inf).max(axis=1, keepdims=True)
    scaled = (completed - lo) / np.maximum(hi - lo, 1e-8)
    out = (c_visit + visits.max(axis=1, keepdims=True)) * c_scale * scaled
    return np.where(masks, out, 0.0)


__all__ = ["complete", "sigma", "softmax"]
