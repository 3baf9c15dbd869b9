"""The agent's network and its batched, masked action choice; saving and loading agents.

    net = PolicyNet(obs_size(2), hidden=(256, 256))
    actions = net.act(obs, mask)                 # (N,) sampled among legal actions only
    save_agent(net, meta, "agent.safetensors"); agent = load_agent("agent.safetensors")
    agent = load_agent("ppo-pool")               # a shipped agent by name

Two networks, both reading the flat observation (so seats, rollouts and envs serve either):
``PolicyNet`` ("mlp"), an MLP over the whole vector, and ``CardSetNet`` ("cards"), which
gathers the game's cards from it (``engine.observation.card_set``), embeds each by id plus its
counts, pools over them and scores each card action from that card's token, so one network
plays any kingdom. ``make_net(players, network, hidden, embed)`` builds either.

An ``Agent`` is what plays: a network plus what it was trained for (players, whether its
observations are scaled, which network and its sizes). It answers a batch of decisions at
once (``agent.act(obs, mask)``), so one forward pass serves every row of a VecGame that it
owns.

Shipped agents live beside this module in ``agents/NAME.safetensors`` and are listed by
``shipped_agents()``.

An agent file (format 2, ``tensorfile``) is the network's state dict as named float32 tensors
plus one JSON document, ``{"info": AgentInfo as JSON}``, in the safetensors layout: loading it
parses JSON and copies bytes, so it runs no code and can be taken from strangers. Everything
is checked before a network is built (info's fields and types, a name of printable
characters, each tensor's name, dtype and shape against what info implies, finite weights;
an MLP's first layer reads this version's observation for info's players, or the shorter one
an older release wrote for them, ``OLDER_OBS_SIZES``, and no other width); a fault is an
``AgentFileError`` (a ValueError) naming the file. Format 1 (``torch.save``, a pickle) is
refused with how to convert it (``legacy.convert``, for files one trusts). Info's ``network``
and ``embed`` came with the card-set network; a file without them is an MLP, as it was when
saved.

File names: agents are written as ``NAME.safetensors`` (a run's ``agent.safetensors``), the
layout they are in; ``is_agent_file`` says whether a name is an agent file's (it ends with
``.safetensors``, or with ``.pt``, the name older releases gave the same files, which
read everywhere a ``.safetensors`` does). ``run_file(folder, "agent")`` finds a run's file
under either name. Any safetensors reader opens an agent file::

    from safetensors.numpy import load_file        # or safetensors.torch.load_file
    weights = load_file("agent.safetensors")       # name -> array
    from safetensors import safe_open
    with safe_open("agent.safetensors", "np") as f:
        info = json.loads(f.metadata()["json"])["info"]   # players, network, hidden, ...
"""

from __future__ import annotations

import dataclasses
import os
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import torch
from torch import nn

from ..cards import MAX_PLAYERS, MIN_PLAYERS, NUM_CARDS
from ..checks import AGENT_SUFFIXES, MISSING, file_fault, is_int
from ..checks import is_agent_file as is_agent_file  # one test for every face
from ..engine.layout import NUM_ACTIONS
from ..engine.observation import CARD_SET_SIZE, card_set_layout, card_set_sizes, obs_size
from ..names import check_name
from . import tensorfile
from .tensorfile import AgentFileError

SHIPPED = Path(__file__).resolve().parent / "agents"
AGENT_SUFFIX, OLDER_SUFFIX = AGENT_SUFFIXES  # written as; what older releases wrote
_NOTED: set[Path] = set()  # older run files already said on stderr (``run_file``)
NETWORKS = ("mlp", "cards")
DEFAULT_EMBED = 32  # timed: 64 made an update step about twice as slow as 32 did, on CPU
MAX_EMBED = 1024


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


class CardSetNet(nn.Module):
    """A network over the game's cards as a set (``engine.observation.card_set``), for any
    kingdom: each card is a token, its id's embedding plus a projection of its features
    (counts per zone and per rotated seat), through a small per-card MLP; the tokens are
    pooled (mean and max over the cards present) and joined with the globals into a trunk
    with a value head. A card action's logit comes from that card's token (the trunk's query
    dotted with it), so a card is scored by what the net learned of the card, whatever slot
    it has; a card outside the set (Wishing Well names any card) gets the token of its id
    with no features. Option and PASS logits come from the trunk.

    It reads the flat observation (so seats, rollouts and envs are unchanged) and gathers the
    view inside with index tensors built once: the first ``CARD_SET_SIZE`` cards with a pile,
    by id (every dealt game has exactly that many; in a scenario with more, the rest are
    scored as cards outside the set). ``forward_cards`` takes the view itself."""

    def __init__(self, players: int, embed: int = DEFAULT_EMBED, hidden=(128, 128)):
        super().__init__()
        lay = card_set_layout(players)
        f_dim, g_dim = len(lay["card_features"]), len(lay["globals"])
        self.players = players
        self.k = min(CARD_SET_SIZE, NUM_CARDS)
        # every card's features, feature-major: (F * C,) flat indices, one index_select
        every = lay["feature_offsets"][:, None] + np.arange(NUM_CARDS)[None, :]
        self.register_buffer("card_index", torch.from_numpy(every.ravel()), False)
        self.f_dim = f_dim
        self.register_buffer("global_index", torch.from_numpy(lay["global_index"]), False)
        names = [n for n, _, _ in lay["card_features"]]
        self.in_supply_offset = int(lay["feature_offsets"][names.index("in_supply")])
        # ties among the piles broken by id: topk then lists them in id order
        self.register_buffer("by_id", -torch.arange(NUM_CARDS, dtype=torch.float32) / 128, False)
        self.embed = nn.Embedding(NUM_CARDS, embed)
        self.features = nn.Linear(f_dim, embed)
        self.card_mlp = nn.Sequential(nn.ReLU(), nn.Linear(embed, embed), nn.ReLU())
        self.globals = nn.Linear(g_dim, embed)
        layers, width = [], 3 * embed
        for h in hidden:
            layers += [nn.Linear(width, h), nn.Tanh()]
            width = h
        self.trunk = nn.Sequential(*layers)
        self.query = nn.Linear(width, embed)
        self.pi = nn.Linear(width, NUM_ACTIONS - NUM_CARDS)  # options and PASS
        self.v = nn.Linear(width, 1)
        for m in [*self.trunk, self.features, self.card_mlp[1], self.globals]:
            if isinstance(m, nn.Linear):
                nn.init.orthogonal_(m.weight, np.sqrt(2))
                nn.init.zeros_(m.bias)
        nn.init.normal_(self.embed.weight, 0.0, 1.0)
        for m, gain in ((self.pi, 0.01), (self.query, 0.01), (self.v, 1.0)):
            nn.init.orthogonal_(m.weight, gain)
            nn.init.zeros_(m.bias)

    def card_view(self, obs: torch.Tensor):
        """(card_ids (N, K) int64, cards (N, K, F), present (N, K) bool, globals (N, G)) of
        flat observations: the first K cards with a pile, by id."""
        in_supply = obs[:, self.in_supply_offset : self.in_supply_offset + NUM_CARDS]
        present, ids = torch.topk(in_supply + self.by_id, self.k, dim=1)
        # a static index, then a gather along the cards with an expanded (not copied) index:
        # no (N, K, F) index tensor
        every = obs.index_select(1, self.card_index).view(len(obs), self.f_dim, NUM_CARDS)
        cards = every.gather(2, ids[:, None, :].expand(-1, self.f_dim, -1)).transpose(1, 2)
        return ids, cards, present > 0, obs[:, self.global_index]

    def tokens(self, card_ids: torch.Tensor, cards: torch.Tensor) -> torch.Tensor:
        return self.card_mlp(self.embed(card_ids) + self.features(cards))

    def forward(self, obs: torch.Tensor, mask: torch.Tensor):
        """(masked logits, value) of flat observations, as ``PolicyNet``."""
        return self.forward_cards(*self.card_view(obs), mask)

    def forward_cards(self, card_ids, cards, present, globals_, mask):
        """(masked logits, value) of the card-set view; padding slots (present False) are
        left out of the pools and score nothing."""
        tok = self.tokens(card_ids.clamp(min=0), cards)  # (N, K, E)
        w = present.to(tok.dtype)[:, :, None]
        kept = tok * w
        mean = kept.sum(1) / w.sum(1).clamp(min=1.0)
        # tokens are >= 0 (ReLU), so zeroing padding leaves the max of the present ones
        top = kept.amax(1)
        h = self.trunk(torch.cat([mean, top, self.globals(globals_)], -1))
        q = self.query(h)  # (N, E)
        # every card id's own token with no features (cards outside the set) ...
        base = self.card_mlp(self.embed.weight + self.features.bias)  # (C, E)
        card_logits = q @ base.T
        # ... and the set's tokens, scattered to their ids
        # (an add of the difference: padding slots add 0 wherever they point, so no two
        # writes to one id compete)
        slot = torch.where(present, card_ids, torch.zeros_like(card_ids))
        own = torch.bmm(tok, q[:, :, None]).squeeze(-1) - card_logits.gather(1, slot)
        card_logits = card_logits.scatter_add(1, slot, torch.where(present, own, 0.0))
        logits = torch.cat([card_logits, self.pi(h)], -1).masked_fill(~mask, float("-inf"))
        return logits, self.v(h).squeeze(-1)

    act = PolicyNet.act


@dataclass
class AgentInfo:
    """What an agent was trained for, saved with its weights."""

    name: str = "agent"
    players: int = 2
    hidden: tuple = (256, 256)
    scale_observations: bool = True
    trained: dict = field(default_factory=dict)  # the training settings and figures
    network: str = "mlp"  # NETWORKS: PolicyNet ("mlp") or CardSetNet ("cards")
    embed: int = DEFAULT_EMBED  # CardSetNet's card embedding width (kept, unused, for "mlp")


# fields an older file may lack, and what such a file meant by them
INFO_ADDED = {"network": "mlp", "embed": DEFAULT_EMBED}
# the observation widths older releases saved MLP agents for, by players (``widen_inputs``):
# 0.4.0's layout, before public_hand and public_top (0.5.0). The first release with agent
# files; 0.5.0 to this one write ``obs_size(players)``. A layout that grows adds its old width.
OLDER_OBS_SIZES = {2: (873,), 3: (944,), 4: (1015,), 5: (1086,), 6: (1157,)}


def make_net(players: int, network: str = "mlp", hidden=(128, 128), embed: int = DEFAULT_EMBED):
    """A fresh network of the kind ``network`` (``NETWORKS``) for ``players``-player games."""
    if network == "cards":
        return CardSetNet(players, embed, tuple(hidden))
    if network == "mlp":
        return PolicyNet(obs_size(players), tuple(hidden))
    raise ValueError(f"network must be one of {NETWORKS}, got {network!r}")


def info_net(info: "AgentInfo"):
    """A fresh network of the kind and sizes ``info`` says."""
    return make_net(info.players, info.network, info.hidden, info.embed)


class Agent:
    """A trained network that plays: ``act(obs, mask)`` for a batch of decisions."""

    def __init__(self, net: nn.Module, info: AgentInfo, greedy: bool = True):
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

    def to(self, device) -> "Agent":
        """The agent with its network on ``device`` (a torch device or its name): it reads
        observations from the CPU and returns actions there wherever it runs; its sampling
        stream moves too (a generator lives on one device)."""
        device = torch.device(device)
        self.net.to(device)
        self.generator = torch.Generator(device).manual_seed(self.generator.initial_seed())
        return self


def save_agent(net: nn.Module, info: AgentInfo, path) -> Path:
    """Write ``net`` and ``info`` to ``path`` (``tensorfile``'s layout, format 2)."""
    return write_agent(net.state_dict(), info, path)


def write_agent(state_dict: dict, info: AgentInfo, path) -> Path:
    check_name("info.name", info.name)  # a file that loading would refuse is not written
    return tensorfile.write(path, "agent", state_dict, {"info": asdict(info)})


def shipped_agents() -> dict[str, Path]:
    """Shipped agent name -> file."""
    return {p.stem: p for p in sorted(SHIPPED.glob(f"*{AGENT_SUFFIX}"))}


def run_file(folder, stem: str) -> Path:
    """A run's file ``stem`` ("agent" or "checkpoint") in ``folder``: ``STEM.safetensors``,
    else an older run's ``STEM.pt`` where only that is there (said on stderr in one line, once
    per file: a resume reads it twice, checking then loading), else the ``.safetensors`` name
    (a run not saved yet)."""
    path = Path(folder) / f"{stem}{AGENT_SUFFIX}"
    older = path.with_suffix(OLDER_SUFFIX)
    if not os.path.lexists(path) and older.is_file():
        if older.resolve() not in _NOTED:
            _NOTED.add(older.resolve())
            print(f"note: reading {older} (an older run's name for {path.name})", file=sys.stderr)
        return older
    return path


def load_agent(name_or_path, greedy: bool = True) -> Agent:
    """An Agent from a shipped agent's name (``shipped_agents()``) or a saved file. Loading
    runs no code from the file; a file that is not a whole, valid agent is an
    ``AgentFileError`` (a ValueError) naming the file and the fault."""
    shipped = shipped_agents()
    path = shipped.get(str(name_or_path), Path(name_or_path))
    why = file_fault(path)
    if why is not None and not why.startswith(MISSING):
        raise AgentFileError(path, why)
    if why is not None:
        raise ValueError(
            f"no agent {name_or_path!r}: not a file, and not a shipped agent "
            f"({', '.join(shipped) or 'none'})"
        )
    info, state_dict = check_agent(*tensorfile.read(path, "agent"), path)
    net = info_net(info)
    if info.network == "mlp":
        state_dict = widen_inputs(state_dict, obs_size(info.players), path)
    net.load_state_dict(state_dict)
    return Agent(net, info, greedy)


def check_agent(tensors: dict, doc: dict, path) -> tuple[AgentInfo, dict]:
    """(info, state dict) of an agent file's content, every key, type and shape checked;
    AgentFileError naming ``path`` otherwise."""
    fields = [f.name for f in dataclasses.fields(AgentInfo)]
    info = doc.get("info") if set(doc) == {"info"} else None
    if isinstance(info, dict):
        info = {**INFO_ADDED, **info}  # an older file: an MLP
    if not isinstance(info, dict) or sorted(info) != sorted(fields):
        raise AgentFileError(path, f"its metadata must be {{'info': {{{', '.join(fields)}}}}}")
    name, players, hidden = info["name"], info["players"], info["hidden"]
    try:
        check_name("info.name", name)
    except (TypeError, ValueError) as e:
        raise AgentFileError(path, str(e)) from None
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
    network, embed = info["network"], info["embed"]
    if network not in NETWORKS:
        raise AgentFileError(path, f"info.network must be one of {list(NETWORKS)}, got {network!r}")
    if not is_int(embed) or not 1 <= embed <= MAX_EMBED:
        raise AgentFileError(path, f"info.embed must be an int 1..{MAX_EMBED}, got {embed!r}")
    if network == "cards":
        check_state(tensors, net_shapes(obs_size(players), hidden, network, players, embed), path)
        return AgentInfo(**{**info, "hidden": tuple(hidden)}), tensors
    # the shapes this info implies; the first layer may be one an older release wrote for
    # these players (a shorter observation: ``widen_inputs``), no other width
    first = tensors.get("trunk.0.weight" if hidden else "pi.weight")
    ok = isinstance(first, torch.Tensor) and first.ndim == 2
    saved = first.shape[1] if ok else obs_size(players)
    widths = (obs_size(players), *OLDER_OBS_SIZES[players]) if hidden else (obs_size(players),)
    if saved not in widths:
        newer = " (from a newer dominion_env?)" if saved > obs_size(players) else ""
        raise AgentFileError(
            path,
            f"its first layer reads {saved} inputs, which no release wrote for "
            f"info.players={players} (observations of size "
            f"{' or '.join(map(str, widths))}){newer}: its weights do not fit its info",
        )
    check_state(tensors, net_shapes(saved, hidden), path)
    return AgentInfo(**{**info, "hidden": tuple(hidden)}), tensors


def net_shapes(
    obs_dim: int, hidden, network: str = "mlp", players: int = 2, embed: int = DEFAULT_EMBED
) -> dict:
    """The state dict of PolicyNet(obs_dim, hidden) ("mlp") or CardSetNet(players, embed,
    hidden) ("cards"): name -> shape in parameter order (computed, nothing allocated)."""
    if network == "cards":
        f_dim, g_dim = card_set_sizes(players)
        e = embed
        shapes = {
            "embed.weight": (NUM_CARDS, e),
            "features.weight": (e, f_dim),
            "features.bias": (e,),
            "card_mlp.1.weight": (e, e),
            "card_mlp.1.bias": (e,),
            "globals.weight": (e, g_dim),
            "globals.bias": (e,),
        }
        width = 3 * e
        for i, h in enumerate(hidden):
            shapes[f"trunk.{2 * i}.weight"], shapes[f"trunk.{2 * i}.bias"] = (h, width), (h,)
            width = h
        shapes.update({"query.weight": (e, width), "query.bias": (e,)})
        options = NUM_ACTIONS - NUM_CARDS
        shapes.update({"pi.weight": (options, width), "pi.bias": (options,)})
        shapes.update({"v.weight": (1, width), "v.bias": (1,)})
        return shapes
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
    """The weights of a network saved for a shorter observation (one of
    ``OLDER_OBS_SIZES``, checked by ``check_agent``), read by this one: the observation layout
    only grows at its end (``engine.observation``), so the appended entries get zero weights
    and the network computes what it computed when it was saved."""
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
