"""Compile the engine's kernels into Numba's on-disk cache before the test workers start
(``conftest.py`` runs it), so that pytest-xdist's workers load them instead of each compiling
the same ones. ``python tests/warm_kernels.py PART`` warms one of ``PARTS`` (the controller
runs them side by side); each part calls the kernels the way the tests do, in batches above
and below ``vector.PARALLEL_MIN_GAMES`` (the parallel kernels and their serial twins)."""

from __future__ import annotations

import sys


def batches() -> None:
    """VecGame: plain, learner mode with bots and a pool, expert actions, scores."""
    from dominion_env import VecGame
    from dominion_env.agents import BOTS, compile_bots

    table = compile_bots([BOTS["Big Money"], BOTS["Smithy"]])
    for n in (4, 64):
        vec = VecGame(n, players=2)
        vec.reset(seed=0)
        for _ in range(3):
            vec.step(vec.random_actions())
        vec.bot_actions(table, 0)
        vec.scores  # noqa: B018 (a property: its kernel)
        learner = VecGame(n, players=3, opponents=table, opponent_weights=[1, 1])
        learner.reset(seed=0)
        learner.step(learner.random_actions())


class _Net:
    """A network as the guided search calls one: uniform logits, a constant value."""

    name, players, scale_observations, vp_shaping = "warm", 2, True, 0.0

    def evaluate(self, obs, mask):
        import numpy as np

        return np.where(mask, 0.0, -np.inf).astype(np.float32), np.zeros(len(obs), np.float32)


def games() -> None:
    """Game (logs, snapshots and their checks), the search and the guided search."""
    from dominion_env import Game, VecGame
    from dominion_env.search import GuidedSearch, Search

    g = Game(kingdom="First Game", players=2, seed=7)
    g.restore(g.snapshot())
    Search(budget=8, seed=0).analyze(g)
    g.step(g.legal_actions()[0])
    g.log(viewer=1)
    vec = VecGame(4, 2, "random", autoreset=True)
    vec.reset(seed=0)
    GuidedSearch(_Net(), 4, seed=1, depth=2).search(vec.state, vec.action_mask, vec.config)


def whole_games() -> None:
    """Bot games played whole in compiled code (the arena), and the audit's random games."""
    from dominion_env.agents import BOTS, compile_bots
    from dominion_env.analysis.arena import play_games
    from dominion_env.engine.audit import audit

    table = compile_bots([BOTS["Big Money"], BOTS["Smithy"]])
    for n in (4, 64):
        play_games(table, n, 2, seed=0)
        audit(n, players=2, seed=0)


PARTS = (batches, games, whole_games)

if __name__ == "__main__":
    PARTS[int(sys.argv[1])]()
