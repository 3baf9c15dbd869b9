"""The agent's network and its batched, masked action choice; saving and loading agents.

    net = PolicyNet(obs_size(2), hidden=(256, 256))
    actions = net.act(obs, mask)                 # (N,) sampled among legal actions only
    save_agent(net, meta, "agent.pt"); agent = load_agent("agent.pt")   # or a shipped name

An ``Agent`` is what plays: a network plus what it was trained for (players, whether its
observations are scaled). It answers a batch of decisions at once (``agent.act(obs, mask)``),
so one forward pass serves every row of a VecGame that it owns.

Shipped agents live beside this module in ``agents/NAME.pt`` and are listed by ``AGENTS``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch
from torch import nn

from ..engine.layout import NUM_ACTIONS
from ..engine.observation import obs_size

SHIPPED = Path(__file__).resolve().parent / "agents"
FORMAT = 1  # bump when the saved file's layout changes


class PolicyNet(nn.Module):
    """An MLP trunk with a policy head (one logit per action) and a value head."""

    def __init__(self, obs_dim: int, hidden=(256, 256)):
        super().__init__()
        layers, width = [], obs_dim
        for h in hidden:
            layers += [nn.Linear(width, h), nn.Tanh()]
            width = h
        self.trunk = nn.Sequential(*layers)
        self.pi = nn.Linear(width, NUM_ACTIONS)
        self.v = nn.Linear(width, 1)
        for m in self.trunk:
            if isinstance(m, nn.Linear):
                nn.init.orthogonal_(m.weight, np.sqrt(2))
                nn.init.zeros_(m.bias)
        nn.init.orthogonal_(self.pi.weight, 0.01)
        nn.init.zeros_(self.pi.bias)
        nn.init.orthogonal_(self.v.weight, 1.0)
        nn.init.zeros_(self.v.bias)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor):
        """(masked logits, value): illegal actions get -inf logits (probability 0)."""
        h = self.trunk(obs)
        logits = self.pi(h).masked_fill(~mask, float("-inf"))
        return logits, self.v(h).squeeze(-1)

    @torch.no_grad()
    def act(
        self,
        obs: np.ndarray,
        mask: np.ndarray,
        greedy: bool = False,
        generator: torch.Generator | None = None,
    ):
        """(actions, log-probabilities, values) for a batch, numpy in and out. Read-only
        arrays (VecGame's and Game's views) are copied first: torch warns about them."""
        obs = np.require(obs, requirements="W")  # no copy unless read-only
        mask = np.require(mask, requirements="W")
        logits, value = self(torch.from_numpy(obs), torch.from_numpy(mask))
        if greedy:
            a = logits.argmax(-1)
        else:
            a = torch.multinomial(torch.softmax(logits, -1), 1, generator=generator).squeeze(-1)
        logp = torch.log_softmax(logits, -1).gather(-1, a[:, None]).squeeze(-1)
        return a.numpy(), logp.numpy(), value.numpy()


@dataclass
class AgentInfo:
    """What an agent was trained for, saved with its weights."""

    name: str = "agent"
    players: int = 2
    hidden: tuple = (256, 256)
    scale_observations: bool = True
    trained: dict = field(default_factory=dict)  # the training settings and figures


class Agent:
    """A trained network that plays: ``act(obs, mask)`` for a batch of decisions."""

    def __init__(self, net: PolicyNet, info: AgentInfo, greedy: bool = True):
        self.net = net.eval()
        self.info = info
        self.name = info.name
        self.greedy = greedy
        self.generator = torch.Generator().manual_seed(0)

    def kingdom_cards(self) -> list[str]:
        """An agent plays whatever kingdom it is dealt (a bot names the cards it needs)."""
        return []

    @property
    def scale_observations(self) -> bool:
        return self.info.scale_observations

    def act(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        if obs.shape[-1] != obs_size(self.info.players):
            raise ValueError(
                f"agent {self.name!r} plays {self.info.players}-player games "
                f"(observation size {obs_size(self.info.players)}), got "
                f"observations of size {obs.shape[-1]}"
            )
        return self.net.act(obs, mask, self.greedy, self.generator)[0]

    def seed(self, seed: int) -> None:
        self.generator.manual_seed(int(seed))


def save_agent(net: PolicyNet, info: AgentInfo, path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    torch.save({"format": FORMAT, "info": asdict(info), "state_dict": net.state_dict()}, path)
    return path


def shipped_agents() -> dict[str, Path]:
    """Shipped agent name -> file."""
    return {p.stem: p for p in sorted(SHIPPED.glob("*.pt"))}


def load_agent(name_or_path, greedy: bool = True) -> Agent:
    """An Agent from a shipped agent's name (``shipped_agents()``) or a saved file."""
    shipped = shipped_agents()
    path = shipped.get(str(name_or_path), Path(name_or_path))
    if not path.is_file():
        raise ValueError(
            f"no agent {name_or_path!r}: not a file, and not a shipped agent "
            f"({', '.join(shipped) or 'none'})"
        )
    data = torch.load(path, map_location="cpu", weights_only=False)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path} is not a saved agent (format {FORMAT})")
    info = AgentInfo(**{**data["info"], "hidden": tuple(data["info"]["hidden"])})
    net = PolicyNet(obs_size(info.players), info.hidden)
    net.load_state_dict(widen_inputs(data["state_dict"], obs_size(info.players), path))
    return Agent(net, info, greedy)


def widen_inputs(state_dict: dict, obs_dim: int, path) -> dict:
    """The weights of a network saved for a shorter observation, read by this one: the
    observation layout only grows at its end (``engine.observation``), so the appended
    entries get zero weights and the network computes what it computed when it was saved."""
    first = state_dict["trunk.0.weight"]
    saved = first.shape[1]
    if saved > obs_dim:
        raise ValueError(
            f"{path} was saved for observations of size {saved}, larger than this version's "
            f"{obs_dim}: it comes from a newer dominion_env"
        )
    if saved == obs_dim:
        return state_dict
    wide = torch.zeros((first.shape[0], obs_dim), dtype=first.dtype)
    wide[:, :saved] = first
    return {**state_dict, "trunk.0.weight": wide}
