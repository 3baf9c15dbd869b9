"""The agent's network and its batched, masked action choice; saving and loading agents.

    net = PolicyNet(obs_size(2), hidden=(256, 256))
    actions = net.act(obs, mask)                 # (N,) sampled among legal actions only
    save_agent(net, meta, "agent.pt"); agent = load_agent("agent.pt")   # or a shipped name

An ``Agent`` is what plays: a network plus what it was trained for (players, whether its
observations are scaled). It answers a batch of decisions at once (``agent.act(obs, mask)``),
so one forward pass serves every row of a VecGame that it owns.

Shipped agents live beside this module in ``agents/NAME.pt`` and are listed by
``shipped_agents()``.

An agent file (format 2, ``tensorfile``) is the network's state dict as named float32 tensors
plus one JSON document, ``{"info": AgentInfo as JSON}``, in the safetensors layout: loading it
parses JSON and copies bytes, so it runs no code and can be taken from strangers. Everything
is checked before a network is built (info's fields and types, each tensor's name, dtype and
shape against what info implies, finite weights); a fault is an ``AgentFileError`` (a
ValueError) naming the file. Format 1 (``torch.save``, a pickle) is refused with how to
convert it (``legacy.convert``, for files one trusts). The name ``.pt`` is kept so that
commands and scripts naming ``agent.pt`` go on working.
"""

from __future__ import annotations

import dataclasses
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch
from torch import nn

from ..cards import MAX_PLAYERS, MIN_PLAYERS
from ..checks import is_int
from ..engine.layout import NUM_ACTIONS
from ..engine.observation import obs_size
from . import tensorfile
from .tensorfile import AgentFileError

SHIPPED = Path(__file__).resolve().parent / "agents"


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
        return self.heads(self.trunk(obs), mask)

    def heads(self, h: torch.Tensor, mask: torch.Tensor):
        """The policy and value heads on the trunk's output ``h`` (``train.sparse`` computes
        the trunk from sparse rows)."""
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
        """(actions, log-probabilities, values) for a batch, numpy in and out, the work on
        the net's device. Read-only arrays (VecGame's and Game's views) are copied first:
        torch warns about them."""
        obs = np.require(obs, requirements="W")  # no copy unless read-only
        mask = np.require(mask, requirements="W")
        device = self.pi.weight.device
        logits, value = self(torch.from_numpy(obs).to(device), torch.from_numpy(mask).to(device))
        a, logp = sample(logits, greedy, generator)
        return a.cpu().numpy(), logp.cpu().numpy(), value.cpu().numpy()


def sample(logits: torch.Tensor, greedy: bool = False, generator=None):
    """(actions, their log-probabilities) from masked logits: the most likely action, or one
    drawn from the softmax (with ``generator``, on the logits' device) by its cumulative sum:
    one uniform u in (0, total] per row picks the first action whose sum reaches u, which has
    probability > 0 (a masked action adds 0 to the sum, so never takes a step). torch's
    multinomial drew an exponential per action, 3 ms of a 512-row rollout step (measured)."""
    if greedy:
        a = logits.argmax(-1)
    else:
        c = torch.softmax(logits, -1).cumsum(-1)
        u = torch.rand(len(c), 1, generator=generator, device=c.device)
        a = (c < (1.0 - u) * c[:, -1:]).sum(-1)
    return a, torch.log_softmax(logits, -1).gather(-1, a[:, None]).squeeze(-1)


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
    """Write ``net`` and ``info`` to ``path`` (``tensorfile``'s layout, format 2)."""
    return write_agent(net.state_dict(), info, path)


def write_agent(state_dict: dict, info: AgentInfo, path) -> Path:
    return tensorfile.write(path, "agent", state_dict, {"info": asdict(info)})


def shipped_agents() -> dict[str, Path]:
    """Shipped agent name -> file."""
    return {p.stem: p for p in sorted(SHIPPED.glob("*.pt"))}


def load_agent(name_or_path, greedy: bool = True) -> Agent:
    """An Agent from a shipped agent's name (``shipped_agents()``) or a saved file. Loading
    runs no code from the file; a file that is not a whole, valid agent is an
    ``AgentFileError`` (a ValueError) naming the file and the fault."""
    shipped = shipped_agents()
    path = shipped.get(str(name_or_path), Path(name_or_path))
    if not path.is_file():
        raise ValueError(
            f"no agent {name_or_path!r}: not a file, and not a shipped agent "
            f"({', '.join(shipped) or 'none'})"
        )
    info, state_dict = check_agent(*tensorfile.read(path, "agent"), path)
    net = PolicyNet(obs_size(info.players), info.hidden)
    net.load_state_dict(widen_inputs(state_dict, obs_size(info.players), path))
    return Agent(net, info, greedy)


def check_agent(tensors: dict, doc: dict, path) -> tuple[AgentInfo, dict]:
    """(info, state dict) of an agent file's content, every key, type and shape checked;
    AgentFileError naming ``path`` otherwise."""
    fields = [f.name for f in dataclasses.fields(AgentInfo)]
    info = doc.get("info") if set(doc) == {"info"} else None
    if not isinstance(info, dict) or sorted(info) != sorted(fields):
        raise AgentFileError(path, f"its metadata must be {{'info': {{{', '.join(fields)}}}}}")
    name, players, hidden = info["name"], info["players"], info["hidden"]
    if not isinstance(name, str) or not name:
        raise AgentFileError(path, f"info.name must be a non-empty string, got {name!r}")
    if not is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise AgentFileError(
            path, f"info.players must be an int {MIN_PLAYERS}..{MAX_PLAYERS}, got {players!r}"
        )
    if not isinstance(hidden, list) or not all(is_int(h) and h >= 1 for h in hidden):
        raise AgentFileError(path, f"info.hidden must be a list of ints >= 1, got {hidden!r}")
    if not isinstance(info["scale_observations"], bool):
        raise AgentFileError(path, "info.scale_observations must be true or false")
    if not isinstance(info["trained"], dict):
        raise AgentFileError(path, "info.trained must be a JSON object")
    # the shapes this info implies; the first layer may be narrower (an older, shorter
    # observation: ``widen_inputs``)
    first = tensors.get("trunk.0.weight" if hidden else "pi.weight")
    ok = isinstance(first, torch.Tensor) and first.ndim == 2
    saved = first.shape[1] if ok else obs_size(players)
    check_state(tensors, net_shapes(saved, hidden), path)
    if not hidden and saved != obs_size(players):
        raise AgentFileError(
            path, f"has no hidden layer and observations of size {saved}, not {obs_size(players)}"
        )
    if saved > obs_size(players):
        raise AgentFileError(
            path,
            f"was saved for observations of size {saved}, larger than this version's "
            f"{obs_size(players)}: it comes from a newer dominion_env",
        )
    return AgentInfo(**{**info, "hidden": tuple(hidden)}), tensors


def net_shapes(obs_dim: int, hidden) -> dict:
    """PolicyNet(obs_dim, hidden)'s state dict: name -> shape (computed, nothing allocated)."""
    shapes, width = {}, obs_dim
    for i, h in enumerate(hidden):
        shapes[f"trunk.{2 * i}.weight"], shapes[f"trunk.{2 * i}.bias"] = (h, width), (h,)
        width = h
    shapes.update({"pi.weight": (NUM_ACTIONS, width), "pi.bias": (NUM_ACTIONS,)})
    shapes.update({"v.weight": (1, width), "v.bias": (1,)})
    return shapes


def check_state(tensors: dict, expected: dict, path, what: str = "tensors") -> None:
    """``tensors`` has exactly ``expected``'s names (name -> shape), float32; else
    AgentFileError."""
    missing = sorted(set(expected) - set(tensors))
    extra = sorted(set(tensors) - set(expected))
    if missing or extra:
        raise AgentFileError(
            path,
            f"its {what} do not fit its settings: missing {missing or 'none'}, "
            f"unexpected {extra or 'none'}",
        )
    for k, shape in expected.items():
        t = tensors[k]
        if not isinstance(t, torch.Tensor):
            raise AgentFileError(path, f"{k!r} is a {type(t).__name__}, not a tensor")
        if tuple(t.shape) != shape or t.dtype != torch.float32:
            raise AgentFileError(
                path,
                f"tensor {k!r} is {t.dtype} of shape {list(t.shape)}, expected float32 of "
                f"shape {list(shape)}",
            )


def widen_inputs(state_dict: dict, obs_dim: int, path) -> dict:
    """The weights of a network saved for a shorter observation, read by this one: the
    observation layout only grows at its end (``engine.observation``), so the appended
    entries get zero weights and the network computes what it computed when it was saved."""
    if "trunk.0.weight" not in state_dict:  # no hidden layer: the policy head reads the input
        return state_dict
    first = state_dict["trunk.0.weight"]
    saved = first.shape[1]
    if saved > obs_dim:
        raise AgentFileError(
            path,
            f"was saved for observations of size {saved}, larger than this version's "
            f"{obs_dim}: it comes from a newer dominion_env",
        )
    if saved == obs_dim:
        return state_dict
    wide = torch.zeros((first.shape[0], obs_dim), dtype=first.dtype)
    wide[:, :saved] = first
    return {**state_dict, "trunk.0.weight": wide}
