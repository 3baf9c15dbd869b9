"""One rollout's storage and its advantages (GAE).

    buf = Rollout(t, n, obs_dim, num_actions, sparse_rows)   # (T, N) arrays, filled in place
    buf.put(t, obs, mask); buf.action[t] = ...; buf.reward[t] = ...; buf.done[t] = ...
    adv, returns = buf.advantages(last_value, gamma, lam)

The trainer's PPO rollouts and imitation's expert data are both kept here. Observations are
kept as sparse rows (``sparse.SparseRows``) for a network that reads them (the CPU path), else
dense.
"""

from __future__ import annotations

import numpy as np

from . import sparse


class Rollout:
    """Rollout storage: (T, N) arrays of one rollout, numpy, filled in place. Observations
    are kept as sparse rows (``sparse.SparseRows``) for a net that reads them, else dense."""

    def __init__(self, t: int, n: int, obs_dim: int, num_actions: int, sparse_rows: bool):
        self.rows = sparse.SparseRows((t, n)) if sparse_rows else None
        self.obs = None if sparse_rows else np.zeros((t, n, obs_dim), np.float32)
        self.mask = np.zeros((t, n, num_actions), np.bool_)
        self.action = np.zeros((t, n), np.int64)
        self.logp = np.zeros((t, n), np.float32)
        self.value = np.zeros((t, n), np.float32)
        self.reward = np.zeros((t, n), np.float32)
        self.done = np.zeros((t, n), np.float32)

    def put(self, t: int, obs: np.ndarray, mask: np.ndarray) -> None:
        if self.rows is not None:
            self.rows.write(obs, t)
        else:
            self.obs[t] = obs
        self.mask[t] = mask

    def advantages(self, last_value: np.ndarray, gamma: float, lam: float):
        t_len = self.reward.shape[0]
        adv = np.zeros_like(self.reward)
        gae = np.zeros_like(last_value)
        for t in reversed(range(t_len)):
            next_value = last_value if t == t_len - 1 else self.value[t + 1]
            live = 1.0 - self.done[t]
            delta = self.reward[t] + gamma * next_value * live - self.value[t]
            gae = delta + gamma * lam * live * gae
            adv[t] = gae
        return adv, adv + self.value
