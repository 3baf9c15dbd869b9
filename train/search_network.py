"""A trained agent as the guided search's prior and evaluator (``dominion_env.search.guided``).

    from dominion_env.train.search_network import guided_search
    search = guided_search("ppo-pool", budget=256, seed=0)  # plays as "search:ppo-pool:256"

``NetEvaluator`` answers the search's batches in numpy: ``evaluate(obs, mask)`` is one forward
of the agent's network (masked logits, value head) on the network's device. ``vp_shaping`` is
the potential coefficient the agent was trained with (its saved training config; an agent
file without one was trained with ``TrainConfig``'s default), which the search needs to turn
the value head's shaped return-to-go into an expected result (the search module's docstring).
The search package imports no torch: names ``search:AGENT:N`` reach this module through the
faces that resolve agent names (``dominion_env.search.parse_search_name``'s ``load_network``).
"""

from __future__ import annotations

import numpy as np
import torch

from ..checks import check_int, is_int
from ..search.guided import DEFAULT_GUIDED_BUDGET, GuidedSearch
from .device import AUTO, check_device
from .policy import Agent, load_agent
from .ppo import MAX_VP_SHAPING, TrainConfig


class NetEvaluator:
    """A trained ``Agent``'s network as the guided search's ``network`` (module docstring);
    ``name`` is what the search's name shows (the shipped name or file it was loaded from);
    ``threads``: torch threads for a forward on the CPU."""

    def __init__(self, agent: Agent, name: str | None = None, threads: int = 1):
        self.agent = agent
        self.threads = check_int("threads", threads, 1, 1024, "torch threads on the CPU")
        self.name = agent.name if name is None else name
        self.players = agent.info.players
        self.scale_observations = agent.info.scale_observations
        config = agent.info.trained.get("config", {})
        c = config.get("vp_shaping", TrainConfig.vp_shaping) if isinstance(config, dict) else None
        number = not isinstance(c, bool) and (is_int(c) or isinstance(c, float))
        if not number or not 0.0 <= c <= MAX_VP_SHAPING:
            raise ValueError(
                f"agent {self.name!r}: its training config's vp_shaping must be a number "
                f"0..{MAX_VP_SHAPING}, got {c!r}"
            )
        self.vp_shaping = float(c)

    @torch.no_grad()
    def evaluate(self, obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(masked logits (N, A) float32, values (N,) float32) of a batch of observations.
        On the CPU the forward runs on ``threads`` torch threads (the setting is put back
        after): a search's batches are small and alternate with Numba's kernels, and two
        torch threads made a decision 20x slower than one on a busy 2-core box (measured)."""
        net = self.agent.net
        device = next(net.parameters()).device
        o = torch.from_numpy(np.require(obs, np.float32, "CW")).to(device)
        m = torch.from_numpy(np.require(mask, np.bool_, "CW")).to(device)
        before = torch.get_num_threads()
        if device.type == "cpu" and before != self.threads:
            torch.set_num_threads(self.threads)
        try:
            logits, value = net(o, m)
        finally:
            if torch.get_num_threads() != before:
                torch.set_num_threads(before)
        return logits.cpu().numpy(), value.cpu().numpy()


def load_network(name: str, device: str = AUTO) -> NetEvaluator:
    """The evaluator of a shipped agent's name or an agent file (``policy.load_agent``: loading
    runs no code; a bad file is a ValueError naming it), its network on ``device`` ("auto":
    CUDA where present, else the CPU; ``device.py``)."""
    return NetEvaluator(load_agent(name).to(check_device(device)), str(name))


def guided_search(
    agent, budget: int = DEFAULT_GUIDED_BUDGET, seed: int = 0, device: str = AUTO, **kwargs
):
    """A ``GuidedSearch`` guided by ``agent`` (a name, a file or an ``Agent``), its network on
    ``device`` (``load_network``)."""
    if isinstance(agent, Agent):
        network = NetEvaluator(agent.to(check_device(device)))
    else:
        network = load_network(agent, device)
    return GuidedSearch(network, budget, seed, **kwargs)


__all__ = ["NetEvaluator", "guided_search", "load_network"]
