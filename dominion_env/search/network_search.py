"""The flat search around a trained network: its base player is the network, never worse by design.

    from dominion_env.train.search_network import load_network
    s = NetworkSearch(load_network("ppo-pool"), budget=200, rollout="network", confidence=2)

Rollout policy improvement (Tesauro and Galperin 1996): at each decision, every legal action is
tried on the same deals and played out to the game's end; the network's own greedy action is
the default (``Search``'s rule: it is left only where another action beats it on the same
deals by more than ``confidence`` standard errors of their mean difference), so the search
starts from its base player and moves only where the playouts are sure.

rollout   "network": the network, greedy, plays every seat to the game's end (one batched
          forward a step over every simulation of every waiting decision, ``GuidedSearch``'s
          playout at unbounded depth: with two players it models its opponent as itself);
          "auto" or a bot: compiled library bots play every seat (``Search``'s rollouts, a
          hundred times cheaper, but they play as the bots would, not as the network)
endgame   search only decisions where the game is near its end (``endgame`` Provinces or
          fewer left, or one pile short of the end on piles); elsewhere the network's action
          is played unsearched: there the playouts are short, the actions' results differ
          most, and a search can afford the simulations that tell them apart

Measured against the network alone (``bench/bench_expert.py``; docs/results/search.md): the
figures, not this docstring, say whether it helps.
"""

from __future__ import annotations

import numpy as np

from ..cards import ID, MAX_PLAYERS, end_piles
from ..checks import check_int
from ..engine.layout import IN_SUPPLY, PLAYERS, SUPPLY
from .guided import MAX_DEPTH, GuidedSearch, check_network
from .search import Search

NO_ENDGAME = -1  # search every decision
# per player count: empty Supply piles one short of the piles' end
_ONE_PILE_SHORT = np.array([end_piles(p) - 1 for p in range(MAX_PLAYERS + 1)], np.int64)
# the defaults of ``rollout:AGENT`` (bench/bench_expert.py; docs/results/search.md)
DEFAULT_ROLLOUT_BUDGET = 200
DEFAULT_ENDGAME = 4  # Provinces left
DEFAULT_ROLLOUT_CONFIDENCE = 2.0


class NetworkSearch(Search):
    """``Search`` whose default is ``network``'s greedy action (module docstring); the other
    settings are ``Search``'s, ``rollout`` also "network"; ``endgame``: the most Provinces
    left where decisions are searched (-1: every decision)."""

    def __init__(
        self,
        network,
        budget: int = DEFAULT_ROLLOUT_BUDGET,
        rollout="network",
        seed: int = 0,
        endgame: int = DEFAULT_ENDGAME,
        confidence: float = DEFAULT_ROLLOUT_CONFIDENCE,
        **kw,
    ):
        check_network(network)
        self.network = network
        self.endgame = check_int("endgame", endgame, -1, 12, "Provinces left (-1: always)")
        self._by_network = isinstance(rollout, str) and rollout == "network"
        rollout = "auto" if self._by_network else rollout
        super().__init__(budget, rollout, seed, confidence=confidence, **kw)
        self.players = int(network.players)
        self._playout = GuidedSearch(network, 1, seed, depth=MAX_DEPTH)

    def with_seed(self, seed: int) -> NetworkSearch:
        return NetworkSearch(
            self.network, self.budget, "network" if self._by_network else self.rollout, seed,
            self.endgame, margin_weight=self.margin_weight, confidence=self.confidence,
            extend=self.extend,
        )  # fmt: skip

    @property
    def name(self) -> str:
        return f"rollout:{self.network.name}:{self.budget}"

    def search(self, states, masks, cfg):
        """``Search.search`` on the decisions near the end (``endgame``); the rest get the
        network's action unsearched (no simulations)."""
        if self.endgame == NO_ENDGAME:
            return super().search(states, masks, cfg)
        R = states.shape[0]
        pile = states["pile"].astype(np.int64)
        empty = ((pile[:, SUPPLY, :] == 0) & (pile[:, IN_SUPPLY, :] > 0)).sum(axis=1)
        short = _ONE_PILE_SHORT[states["game"][:, PLAYERS]]
        near = (pile[:, SUPPLY, ID["Province"]] <= self.endgame) | (empty >= short)
        actions = np.zeros(R, np.int64)
        out = [
            actions,
            np.zeros(masks.shape),
            np.zeros(masks.shape),
            np.zeros_like(masks, np.int64),
        ]
        out.append(actions.copy())
        far, idx = np.flatnonzero(~near), np.flatnonzero(near)
        if far.size:  # the network's action, one forward
            actions[far] = out[4][far] = self.network_actions(states[far], masks[far])
        if idx.size:  # only searched decisions are numbered (their streams)
            sub = super().search(np.ascontiguousarray(states[idx]), masks[idx], cfg)
            for part, values in zip(out, sub, strict=True):
                part[idx] = values
        return tuple(out)

    def network_actions(self, states, masks) -> np.ndarray:
        """(R,) the network's greedy action at each record's pending decision, from its
        decider's own observation."""
        viewer = np.full(states.shape[0], -1, np.int64)
        obs = self._playout.observe(np.ascontiguousarray(states), viewer)
        logits, _ = self.network.evaluate(obs, masks)
        return np.argmax(np.where(masks, logits, -np.inf), axis=1).astype(np.int64)

    def _defaults(self, roots, masks, bot, first, cfg) -> np.ndarray:
        return self.network_actions(roots, masks)

    def _simulate(self, roots, row_root, row_action, row_index, row_bot, cfg):
        if not self._by_network:
            return super()._simulate(roots, row_root, row_action, row_index, row_bot, cfg)
        self.simulations += row_root.shape[0]
        value = self._playout.simulate(roots, row_root, row_action, row_index, cfg)
        return value, np.zeros_like(value)  # no margin: the playout's value is the result


__all__ = [
    "DEFAULT_ENDGAME",
    "DEFAULT_ROLLOUT_BUDGET",
    "DEFAULT_ROLLOUT_CONFIDENCE",
    "NO_ENDGAME",
    "NetworkSearch",
]
