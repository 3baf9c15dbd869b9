"""What the adapters share: spaces, the opponents argument, policies, the illegal-action rule.

Nothing here imports pettingzoo or stable_baselines3.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from gymnasium import spaces

from .. import records
from ..agents import Bot, compile_bots, get_bot
from ..cards import check_players
from ..engine.bots import BotTable
from ..engine.layout import NUM_ACTIONS
from ..engine.observation import obs_bounds, obs_scale, obs_size
from ..search import parse_search_name

ILLEGAL_ACTION_RULES = ("lose", "raise")


def observation_space(players: int, turn_limit: int = 100, scaled: bool = False) -> spaces.Box:
    """Box float32 (obs_size,), with the engine's true bounds per entry (``obs_bounds``)."""
    low, high = obs_bounds(check_players(players), turn_limit, scaled)
    return spaces.Box(low, high, shape=(obs_size(players),), dtype=np.float32)


def action_space() -> spaces.Discrete:
    return spaces.Discrete(NUM_ACTIONS)


def action_mask_space() -> spaces.Box:
    return spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8)


def masked_observation_space(observation: spaces.Box) -> spaces.Dict:
    """``mask_in_observation=True``: the observation with the legal actions beside it, as
    PettingZoo's classic games give it (RLlib's action-masking models and TorchRL's GymEnv
    read this): {"observation": the Box, "action_mask": MultiBinary(71), int8}."""
    return spaces.Dict({"observation": observation, "action_mask": spaces.MultiBinary(NUM_ACTIONS)})


def check_flag(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_illegal_action(rule: str) -> str:
    if rule not in ILLEGAL_ACTION_RULES:
        raise ValueError(f"illegal_action must be one of {ILLEGAL_ACTION_RULES}, got {rule!r}")
    return rule


# -- opponents -----------------------------------------------------------------------------


class ModelPolicy:
    """A trained model with ``predict(obs, action_masks=..., deterministic=...)`` (sb3-contrib's
    MaskablePPO) as a policy ``policy(observation, action_mask) -> action``."""

    def __init__(self, model, deterministic: bool = True):
        self.model = model
        self.deterministic = deterministic

    def __call__(self, observation, action_mask) -> int:
        action, _ = self.model.predict(
            observation, action_masks=action_mask, deterministic=self.deterministic
        )
        return int(np.asarray(action).reshape(-1)[0])


class AgentPolicy:
    """A batched policy (``act(observations, masks)`` and ``scale_observations``, such as a
    trained ``dominion_env.train`` Agent) as a policy for one decision; it is given its
    observation scaled or raw as it was trained, whatever the env's own setting."""

    def __init__(self, agent, env_scaled: bool, players: int):
        self.agent = agent
        self.scale = obs_scale(players)
        self.convert = bool(agent.scale_observations) != bool(env_scaled)
        self.to_scaled = bool(agent.scale_observations)

    def __call__(self, observation, action_mask) -> int:
        obs = np.asarray(observation, np.float32)
        if self.convert:
            obs = obs / self.scale if self.to_scaled else obs * self.scale
        return int(self.agent.act(obs[None], np.asarray(action_mask, bool)[None])[0])


def _is_bot_like(x) -> bool:
    if isinstance(x, str):
        return parse_search_name(x) is None  # "search:N" is no compiled bot
    return isinstance(x, Bot)


def _is_table(x) -> bool:
    return isinstance(x, BotTable)


def _as_policy(x, scaled: bool, players: int):
    if hasattr(x, "act_games"):  # search decides from the game (dominion_env.search)
        return x
    if hasattr(x, "act") and hasattr(x, "scale_observations"):
        return AgentPolicy(x, scaled, players)
    if callable(x):
        return x
    if hasattr(x, "predict"):
        return ModelPolicy(x)
    raise TypeError(
        f"an opponent is a bot name, an agents.Bot, a BotTable, a callable "
        f"policy(observation, action_mask) -> action, or a model with predict(); "
        f"got {x!r}"
    )


def opponent_list(opponents, players: int, scaled: bool = False) -> list:
    """The opponents argument as a list of players-1 entries, one per non-learner seat in
    increasing seat order; each entry is an ``agents.Bot`` or a policy callable.

    ``opponents``: one entry (plays every other seat) or a list of 1 or players-1 entries; an
    entry is a bot name, an ``agents.Bot``, a callable ``policy(observation, action_mask)``
    returning an action index, a model with ``predict`` (``ModelPolicy``) or a trained agent
    (``AgentPolicy``); ``scaled``: whether the env's observations are scaled. A ``BotTable`` of
    1 or players-1 rows stands for its bots."""
    if opponents is None:
        raise ValueError("opponents is None: give a bot name, a Bot, a policy or a list of them")
    if _is_table(opponents):
        entries = [("table", opponents, b) for b in range(opponents.kind.shape[0])]
    elif isinstance(opponents, (list, tuple)):
        entries = list(opponents)
    else:
        entries = [opponents]
    if len(entries) not in (1, players - 1):
        raise ValueError(
            f"give 1 opponent (it plays every other seat) or {players - 1} "
            f"(one per other seat) for {players} players, got {len(entries)}"
        )
    out = []
    for e in entries:
        if isinstance(e, str):
            searcher = parse_search_name(e)  # "search" or "search:N"
            out.append(get_bot(e) if searcher is None else searcher)
        elif isinstance(e, Bot) or (isinstance(e, tuple) and e and e[0] == "table"):
            out.append(e)
        else:
            out.append(_as_policy(e, scaled, players))
    if len(out) == 1:
        out = out * (players - 1)
    return out


def opponents_table(opponents) -> BotTable:
    """The compiled table VecGame plays for an all-bots opponents argument (see ``all_bots``):
    a BotTable as it is, else one row per entry (a bot name, a Bot, or a BotTable's rows)."""
    if _is_table(opponents):
        return opponents
    items = opponents if isinstance(opponents, (list, tuple)) else [opponents]
    tables = [x if _is_table(x) else compile_bots(x) for x in items]
    return BotTable(
        np.concatenate([t.kind for t in tables]), np.concatenate([t.rules for t in tables])
    )


def all_bots(opponents) -> bool:
    """True when the opponents argument names compiled bots only (no Python policies)."""
    if opponents is None:
        return False
    if _is_table(opponents):
        return True
    items = opponents if isinstance(opponents, (list, tuple)) else [opponents]
    return all(_is_bot_like(x) or _is_table(x) for x in items)


# -- episode records -----------------------------------------------------------------------


class EpisodeRecorder:
    """Writes each finished episode's game as a record (``dominion_env.records``) into
    ``record_dir``: ``<env>-<episode number>-seed<game seed>.json``. What the envs'
    ``record_dir`` option makes; replay a file with ``Game.from_record`` or
    ``dominion replay``."""

    def __init__(self, record_dir, env_name: str):
        if not isinstance(record_dir, (str, Path)) or not str(record_dir):
            raise TypeError(f"record_dir must be None or a folder path, got {record_dir!r}")
        self.dir = Path(record_dir)
        self.env_name = env_name
        self.episodes = 0
        self.last_path: Path | None = None

    def save(self, game, players: list, meta: dict | None = None) -> Path:
        rec = game.record(
            players, meta={"env": self.env_name, "episode": self.episodes, **(meta or {})}
        )
        name = f"{self.env_name}-{self.episodes:06d}-seed{game.seed}.json"
        self.last_path = records.save(rec, self.dir / name)
        self.episodes += 1
        return self.last_path


def seat_entry(player) -> dict:
    """A record's ``players`` entry for an opponent of ``opponent_list``."""
    if isinstance(player, Bot):
        return {"kind": "bot", "name": player.name}
    if isinstance(player, tuple):  # a row of a BotTable: the table knows no names
        return {"kind": "bot", "name": f"BotTable row {player[2]}"}
    if isinstance(player, AgentPolicy):
        return {"kind": "agent", "name": str(getattr(player.agent, "name", "agent"))}
    return {"kind": "policy", "name": str(getattr(player, "name", type(player).__name__))}
