"""The search as a teacher during PPO (expert iteration, ``teacher_coef`` > 0).

    teacher = draw_teacher(cfg, steps)       # before a rollout: which positions to search
    teacher.copy(t, groups, mask)            # as the rollout reaches each step
    teacher.search(groups)                   # after it: ``rows`` and the search's ``action``

Before each update, ``teacher_positions`` of the rollout's own positions (drawn before it,
their games copied from ``VecGame.state`` as the rollout reaches them; only those with a
choice) are searched at ``teacher_budget``; the trainer's loss then adds ``teacher_coef`` x
the cross-entropy of the policy there against the search's choices. The positions and the
search's streams are keyed by (seed, steps so far), not by a generator's state, so a run
resumed from a checkpoint goes the same way each time.
"""

from __future__ import annotations

import time

import numpy as np

from ..search.search import Search


def draw_teacher(cfg, steps: int) -> Teacher:
    """This rollout's positions for the search to label (expert iteration), drawn from
    streams keyed by (seed, steps so far): a resumed run draws and searches the same.
    ``cfg``: the run's ``TrainConfig``; ``steps``: the learner steps before this rollout."""
    key = [cfg.seed, steps]
    return Teacher(
        Search(cfg.teacher_budget, seed=int(np.random.SeedSequence(key).generate_state(1)[0])),
        np.random.default_rng(key).choice(
            cfg.rollout * cfg.num_envs, cfg.teacher_positions, replace=False
        ),
        cfg.num_envs,
    )


class Teacher:
    """One rollout's positions for expert iteration: ``flat`` (step-major indices into the
    rollout's T x N rows, drawn before it) whose games are copied as the rollout reaches them
    (``copy``), then searched (``search``): ``rows`` are the positions kept (those with more
    than one legal action: nothing to teach elsewhere) and ``action`` the search's choices."""

    def __init__(self, searcher: Search, flat: np.ndarray, num_envs: int):
        self.searcher = searcher
        flat = np.sort(flat)
        self.num_envs = num_envs
        self._at = {
            int(t): flat[flat // num_envs == t] % num_envs for t in np.unique(flat // num_envs)
        }
        self._copies: list[tuple] = []  # (group index, flat rows, states, masks)
        self.rows = np.zeros(0, np.int64)
        self.action = np.zeros(0, np.int64)
        self.departures = 0  # positions where the search left its rollout bot's own choice
        self.seconds = 0.0  # the search's time

    def copy(self, t: int, groups, mask: np.ndarray) -> None:
        """Copy the games of this step's positions (``mask``: every row's legal actions)."""
        rows = self._at.get(t)
        if rows is None:
            return
        rows = rows[mask[rows].sum(axis=1) > 1]
        start = 0
        for k, g in enumerate(groups):
            mine = rows[(rows >= start) & (rows < start + g.num_games)]
            if len(mine):
                local = mine - start
                self._copies.append(
                    (k, t * self.num_envs + mine, g.vec.state[local].copy(), mask[mine].copy())
                )
            start += g.num_games

    def search(self, groups) -> None:
        """Search the copied positions, each group's with its games' config."""
        t0 = time.perf_counter()
        rows, action = [], []
        for k in range(len(groups)):
            part = [c for c in self._copies if c[0] == k]
            if not part:
                continue
            states = np.concatenate([c[2] for c in part])
            masks = np.concatenate([c[3] for c in part])
            chosen, *_, default = self.searcher.search(states, masks, groups[k].vec.config)
            rows += [c[1] for c in part]
            action.append(chosen)
            self.departures += int((chosen != default).sum())
        if rows:
            self.rows = np.concatenate(rows)
            self.action = np.concatenate(action)
        self._copies.clear()
        self.seconds = time.perf_counter() - t0
