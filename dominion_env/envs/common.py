"""What the adapters share: their options (``OPTIONS``, one table for every face), spaces, the
opponents argument, policies, the illegal-action rule.

Nothing here imports pettingzoo or stable_baselines3.
"""

from __future__ import annotations

import functools
import inspect
import tempfile
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from .. import records
from ..agents import Bot, compile_bots, get_bot
from ..cards import NUM_CARDS, check_players
from ..checks import check_agent_players, check_choice, check_generator_seed
from ..engine.bots import BotTable
from ..engine.layout import NUM_ACTIONS
from ..engine.observation import (
    CARD_SET_SIZE,
    NO_CARD,
    card_set_bounds,
    card_set_sizes,
    obs_bounds,
    obs_scale,
    obs_size,
)
from ..players import agent_network
from ..protocols import ObservationPlayer, decides_from_game
from ..search import parse_search_name
from ..vector import pool_thresholds

ILLEGAL_ACTION_RULES = ("lose", "raise")

# -- the options every face takes ----------------------------------------------------------

GYM, VECTOR, SB3, PZ = "gym", "vector", "sb3", "pettingzoo"
FACE_NAMES = {
    GYM: "DominionEnv (Gymnasium, Dominion-v2)",
    VECTOR: "DominionVectorEnv (Gymnasium make_vec)",
    SB3: "DominionVecEnv (SB3)",
    PZ: "the PettingZoo env (dominion_v1)",
}
ALL = (GYM, VECTOR, SB3, PZ)
LEARNER = (GYM, VECTOR, SB3)  # one learner against opponents


@dataclass(frozen=True)
class Option:
    """One constructor option: its default, the faces that take it (``FACE_NAMES``), whether
    it may be given by position, a check run before any work (``check(value, name)``), and
    why a face leaves it out."""

    name: str
    default: object
    faces: tuple
    positional: bool = False
    check: object = None
    missing: str = ""


def _check_flag(value, name):
    return check_flag(value, name)


def _check_seed(value, name):  # it seeds the env's generator on every face
    return check_generator_seed(value, name, allow_none=True)


OBSERVATIONS = ("flat", "cards")


def _check_observation(value, name):
    return check_choice(name, value, OBSERVATIONS)


_COMPILED = "N games in one compiled call keep no per-decision log: record with DominionEnv"
_EVERY_SEAT = "every seat is an agent"

# The one list of what the envs take, in signature order. A face takes the rows naming it;
# ``takes_options`` builds its constructor's signature from them and checks the values, so the
# faces cannot drift apart. Game options (turn_limit .. public_discards) go to Game / VecGame
# as they are (``game_options``), which check their ranges.
OPTIONS = (
    Option("num_envs", 1, (VECTOR, SB3), positional=True),
    Option("players", 2, ALL, positional=True),
    Option("kingdom", "random", ALL, positional=True),
    Option("opponents", "Big Money", LEARNER, positional=True, missing=_EVERY_SEAT),
    Option("learner_seat", None, LEARNER, positional=True, missing=_EVERY_SEAT),
    Option("turn_limit", 100, ALL),
    Option("first_player", None, ALL),
    Option("autoplay_treasures", True, ALL, check=_check_flag),
    Option("auto_resolve", True, ALL, check=_check_flag),
    Option("pool", None, ALL),
    Option("public_discards", False, ALL, check=_check_flag),
    Option("scale_observations", False, ALL, check=_check_flag),
    Option("seed", None, ALL, check=_check_seed),
    Option("opponent_weights", None, LEARNER, missing=_EVERY_SEAT),
    Option(
        "vp_shaping",
        0.0,
        LEARNER,
        missing="its rewards are each game's results (shape them in the trainer)",
    ),
    Option("record_dir", None, (GYM, PZ), missing=_COMPILED),
    Option(
        "render_mode",
        None,
        (GYM, PZ),
        missing="N games are not rendered: render one with DominionEnv(render_mode='ansi'); "
        "SB3 renders through get_images",
    ),
    Option("log_lines", 8, (GYM, PZ), missing="it does not render"),
    Option("illegal_action", "lose", (GYM,), missing="it raises on an illegal action (mask it)"),
    Option(
        "mask_in_observation",
        False,
        (GYM, VECTOR),
        check=_check_flag,
        missing="its observation is always the dict with the mask (PettingZoo) / "
        "sb3-contrib reads action_masks() (SB3)",
    ),
    Option(
        "observation",
        "flat",
        (GYM,),
        check=_check_observation,
        missing="its observations are flat: engine.observation.card_set(obs, players) gives "
        "the card-set view of a batch",
    ),
    Option(
        "autoreset_mode",
        AutoresetMode.NEXT_STEP,
        (VECTOR,),
        missing="it is not a Gymnasium vector env",
    ),
)
OPTION = {o.name: o for o in OPTIONS}
GAME_OPTIONS = (
    "turn_limit",
    "first_player",
    "autoplay_treasures",
    "auto_resolve",
    "pool",
    "scale_observations",
    "public_discards",
)


def options_of(face: str) -> list[Option]:
    """The options ``face`` takes, in signature order."""
    return [o for o in OPTIONS if face in o.faces]


def game_options(opts) -> dict:
    """The options that go to ``Game`` / ``VecGame`` as they are."""
    return {k: getattr(opts, k) for k in GAME_OPTIONS}


def takes_options(face: str, extra=None):
    """Decorate an env's ``__init__(self, opts, **extra)``: its signature becomes the options
    of ``face`` (``OPTIONS``, defaults included, so ``inspect.signature`` and ``help`` show
    them); a call is bound to it, unknown names are refused with what the face takes (and why
    another face's option is not here), and the values are checked before ``__init__`` runs;
    ``opts`` holds them by name. ``extra``: names gymnasium's ``make_vec`` may pass that the
    face accepts and hands over in ``**extra``."""
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for o in options_of(face):
        kind = inspect.Parameter.POSITIONAL_OR_KEYWORD if o.positional else _KW
        params.append(inspect.Parameter(o.name, kind, default=o.default))
    if extra:
        params.append(inspect.Parameter("extra", inspect.Parameter.VAR_KEYWORD))
    sig = inspect.Signature(params)
    known = {o.name for o in options_of(face)} | set(extra or ())

    def deco(init):
        @functools.wraps(init)
        def wrapper(self, *args, **kwargs):
            unknown = sorted(set(kwargs) - known)
            if unknown:
                raise TypeError(_unknown_message(face, unknown))
            try:
                bound = sig.bind(self, *args, **kwargs)
            except TypeError as e:
                raise TypeError(f"{FACE_NAMES[face]}: {e}") from None
            bound.apply_defaults()
            values = dict(bound.arguments)
            values.pop("self")
            more = values.pop("extra", {})
            for o in options_of(face):
                if o.check is not None:
                    values[o.name] = o.check(values[o.name], o.name)
            return init(self, SimpleNamespace(**values), **more)

        wrapper.__signature__ = sig
        return wrapper

    return deco


_KW = inspect.Parameter.KEYWORD_ONLY


def _unknown_message(face: str, names: list) -> str:
    parts = []
    for n in names:
        o = OPTION.get(n)
        if o is None:  # Python's own words: TorchRL's GymEnv probes for them (frameskip)
            parts.append(f"got an unexpected keyword argument {n!r}")
        else:
            where = ", ".join(FACE_NAMES[f] for f in o.faces)
            parts.append(
                f"got an unexpected keyword argument {n!r} ({o.missing}; taken by {where})"
            )
    takes = ", ".join(o.name for o in options_of(face))
    return f"{FACE_NAMES[face]}: {'; '.join(parts)}. Its options: {takes}"


def observation_space(players: int, turn_limit: int = 100, scaled: bool = False) -> spaces.Box:
    """Box float32 (obs_size,), with the engine's true bounds per entry (``obs_bounds``)."""
    low, high = obs_bounds(check_players(players), turn_limit, scaled)
    return spaces.Box(low, high, shape=(obs_size(players),), dtype=np.float32)


def card_set_space(players: int, turn_limit: int = 100, scaled: bool = False) -> spaces.Dict:
    """``observation="cards"``: the card-set view (``engine.observation.card_set``) as
    {"card_ids": Box int64 (K,) -1..C-1, "cards": Box float32 (K, F), "globals": Box float32
    (G,)}, each feature within the true bounds of the flat entries it comes from."""
    P = check_players(players)
    f_dim, g_dim = card_set_sizes(P)
    b = card_set_bounds(P, turn_limit, scaled)
    k = CARD_SET_SIZE
    lo, hi = b["cards"]
    return spaces.Dict(
        {
            "card_ids": spaces.Box(NO_CARD, NUM_CARDS - 1, shape=(k,), dtype=np.int64),
            "cards": spaces.Box(
                np.broadcast_to(lo, (k, f_dim)),
                np.broadcast_to(hi, (k, f_dim)),
                shape=(k, f_dim),
                dtype=np.float32,
            ),
            "globals": spaces.Box(*b["globals"], shape=(g_dim,), dtype=np.float32),
        }
    )


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
    if isinstance(x, str):  # "search", "search:N", "search:AGENT:N" are no compiled bots
        key = x.casefold()
        return key != "search" and not key.startswith("search:")
    return isinstance(x, Bot)


def _is_table(x) -> bool:
    return isinstance(x, BotTable)


def _as_policy(x, scaled: bool, players: int):
    if decides_from_game(x):  # the search (dominion_env.search)
        return x
    if isinstance(x, ObservationPlayer):
        check_agent_players(x, players, "the env")
        return AgentPolicy(x, scaled, players)
    if callable(x):
        _check_signature(x)
        return x
    if hasattr(x, "predict"):
        return ModelPolicy(x)
    raise TypeError(
        f"an opponent is a bot name, an agents.Bot, a BotTable, a callable "
        f"policy(observation, action_mask) -> action, or a model with predict(); "
        f"got {x!r}"
    )


def _check_signature(policy) -> None:
    """Refuse a callable that cannot be called as ``policy(observation, action_mask)`` (it
    would fail only at the first opponent turn, mid-episode); one whose signature Python
    cannot read (some builtins) is taken as it is and checked at its first call."""
    try:
        sig = inspect.signature(policy)
    except (TypeError, ValueError):
        return
    try:
        sig.bind(None, None)
    except TypeError:
        raise TypeError(
            f"an opponent policy is called as policy(observation, action_mask) -> action; "
            f"{policy!r} takes {sig}"
        ) from None


def _items(opponents) -> list:
    """The entries of an opponents argument (one entry, a list, or a BotTable's rows)."""
    items = list(opponents) if isinstance(opponents, (list, tuple)) else [opponents]
    if not items:
        raise ValueError(
            "opponents is empty: give a bot name, a Bot, a BotTable, a policy, or a list of "
            "them (1, or one per other seat)"
        )
    return items


def check_learner_opponents(opponents, players: int, weights=None) -> None:
    """The one check of the opponents argument with ``opponent_weights``, for every learner
    face: without weights, 1 entry (it plays every other seat) or players-1 (one per other
    seat); with weights, compiled bots (``all_bots``) of any number, one weight per bot
    (``vector.pool_thresholds``: the pool each game draws every other seat from)."""
    if opponents is None:
        raise ValueError("opponents is None: give a bot name, a Bot, a policy or a list of them")
    if weights is not None:
        if not all_bots(opponents):
            raise ValueError(
                "opponent_weights draws from compiled bots (bot names, Bots or a BotTable): "
                f"the engine draws and plays them; got opponents={opponents!r}"
            )
        pool_thresholds(weights, opponents_table(opponents).kind.shape[0])
        return
    n = opponents.kind.shape[0] if _is_table(opponents) else len(_items(opponents))
    if n not in (1, players - 1):
        raise ValueError(
            f"give 1 opponent (it plays every other seat) or {players - 1} "
            f"(one per other seat) for {players} players, got {n} (or give opponent_weights "
            "to draw from them as a pool)"
        )


def opponent_list(opponents, players: int, scaled: bool = False, weights=None) -> list:
    """The opponents argument as a list of players-1 entries, one per non-learner seat in
    increasing seat order; each entry is an ``agents.Bot`` or a policy callable. With
    ``weights`` (``opponent_weights``), the pool's bots instead, in table order, which each
    game draws from.

    ``opponents``: one entry (plays every other seat) or a list of 1 or players-1 entries; an
    entry is a bot name, an ``agents.Bot``, a callable ``policy(observation, action_mask)``
    returning an action index, a model with ``predict`` (``ModelPolicy``) or a trained agent
    (``AgentPolicy``); ``scaled``: whether the env's observations are scaled. A ``BotTable`` of
    1 or players-1 rows stands for its bots (checked by ``check_learner_opponents``)."""
    check_learner_opponents(opponents, players, weights)
    if _is_table(opponents):
        entries = [("table", opponents, b) for b in range(opponents.kind.shape[0])]
    else:
        entries = _items(opponents)
    if weights is not None:  # compiled bots only (checked)
        return table_rows(opponents)
    out = []
    for e in entries:
        if isinstance(e, str):
            # "search", "search:N" or "search:AGENT:N"
            searcher = parse_search_name(e, load_network=agent_network)
            trained = getattr(searcher, "players", players)
            if trained != players:
                raise ValueError(
                    f"opponent {e!r} plays {trained}-player games; this env has {players} players"
                )
            out.append(get_bot(e) if searcher is None else searcher)
        elif isinstance(e, Bot) or (isinstance(e, tuple) and e and e[0] == "table"):
            out.append(e)
        else:
            out.append(_as_policy(e, scaled, players))
    if len(out) == 1:
        out = out * (players - 1)
    return out


def table_rows(opponents) -> list:
    """The bots of ``opponents_table(opponents)``, a Bot or ("table", table, row) per row, in
    its order (a seat's bot id indexes it)."""
    if _is_table(opponents):
        return [("table", opponents, b) for b in range(opponents.kind.shape[0])]
    rows = []
    for e in _items(opponents):
        if _is_table(e):
            rows += [("table", e, b) for b in range(e.kind.shape[0])]
        else:
            rows.append(e if isinstance(e, Bot) else get_bot(e))
    return rows


def opponents_table(opponents) -> BotTable:
    """The compiled table VecGame plays for an all-bots opponents argument (see ``all_bots``):
    a BotTable as it is, else one row per entry (a bot name, a Bot, or a BotTable's rows)."""
    if _is_table(opponents):
        return opponents
    tables = [x if _is_table(x) else compile_bots(x) for x in _items(opponents)]
    return BotTable(
        np.concatenate([t.kind for t in tables]), np.concatenate([t.rules for t in tables])
    )


def all_bots(opponents) -> bool:
    """True when the opponents argument names compiled bots only (no Python policies)."""
    if opponents is None:
        return False
    if _is_table(opponents):
        return True
    return all(_is_bot_like(x) or _is_table(x) for x in _items(opponents))


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
        check_writable_dir(self.dir, "record_dir")
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


def check_writable_dir(path: Path, name: str) -> None:
    """Refuse (ValueError) a folder that cannot be written: a file, a path under a file, or a
    place where this process cannot make it or write in it. The folders that are missing are
    made and a probe file written there, then both are removed: checked when an env is made,
    not when its first episode ends, and nothing is left behind."""
    if path.exists() and not path.is_dir():
        raise ValueError(f"{name} must be a folder, got {str(path)!r}: it is a file")
    made = []
    try:
        for folder in [*reversed(path.parents), path]:
            if not folder.exists():
                folder.mkdir()
                made.append(folder)
        with tempfile.TemporaryFile(dir=path):
            pass
    except OSError as e:
        why = e.strerror or str(e)
        raise ValueError(f"{name} {str(path)!r} cannot be written: {why}") from None
    finally:
        for folder in reversed(made):
            folder.rmdir()


def seat_entry(player) -> dict:
    """A record's ``players`` entry for an opponent of ``opponent_list``."""
    if isinstance(player, Bot):
        return {"kind": "bot", "name": player.name}
    if isinstance(player, tuple):  # a row of a BotTable: the table knows no names
        return {"kind": "bot", "name": f"BotTable row {player[2]}"}
    if isinstance(player, AgentPolicy):
        return {"kind": "agent", "name": str(getattr(player.agent, "name", "agent"))}
    return {"kind": "policy", "name": str(getattr(player, "name", type(player).__name__))}
