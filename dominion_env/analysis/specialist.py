"""The kingdom expert: a trained agent, replaced on each kingdom by a bot made to beat it there.

    expert = KingdomExpert(load_agent("ppo-pool"), minutes=2, seed=0)   # "expert:ppo-pool"
    expert.make(kingdom)            # the optimizer's specialist for a kingdom, judged
    play_mixed([expert, agent], ...)  # it sits at a table like any search player

A generalist network plays every kingdom one way; the optimizer (``optimize``) finds in two
minutes a priority-list bot for one kingdom, and on many kingdoms that bot beats the network
head to head. The expert keeps what measures best, kingdom by kingdom, with the agent as
its default:

make      the first time the expert meets a kingdom, ``optimize`` searches for ``minutes``
          with the agent in the pool it is judged against (half of every score is the
          result against the agent, ``optimize.AGENT_WEIGHT``), then judges the bot it found
          against the agent on ``judge_games`` games of seeds the search never used
choose    the specialist plays that kingdom only where that judgement says it beats the
          agent by more than ``confidence`` standard errors (wins + ties / 2, against 1/2);
          everywhere else the agent itself plays: the expert is never measured worse than its
          base player, as the flat search keeps its rollout bot's action unless paired
          simulations say another is better (``dominion_env.search``)
play      a specialist's decisions are its compiled rules (``VecGame.bot_actions``: no
          network, microseconds), the agent's one batched forward over its rows

What it knows: the kingdom (public) and the agent it is judged against, which is the
opponent it was made to beat; against other players the specialist is a bot tuned for this
kingdom's library bots and that agent (the record says how it fares against each).

Seeds: kingdom k's search is seeded (seed, the kingdom's cards), so the same expert makes the
same specialist for a kingdom, whatever the order it meets kingdoms in.
"""

from __future__ import annotations

import math
import zlib
from dataclasses import dataclass

import numpy as np

from ..agents import Bot, compile_bots
from ..cards import BASIC, NAMES
from ..checks import check_number, check_seed
from ..engine.kingdoms import supply_kingdoms
from ..engine.observation import obs_scale
from .optimize import check_settings, optimize

DEFAULT_MINUTES = 2.0  # a specialist's making, per kingdom
SPECIALIST_CONFIDENCE = 1.0  # standard errors a specialist must beat the agent by
DEFAULT_JUDGE_GAMES = 1000
_SEARCH_SETTINGS = frozenset({"generations", "population", "games", "leaders", "library"})


@dataclass(frozen=True)
class Specialist:
    """What the expert decided for one kingdom."""

    kingdom: tuple  # the 10 kingdom cards
    bot: Bot  # the optimizer's bot for it
    score: float  # its wins + ties / 2 against the agent, per game, on the judge's games
    games: int  # the judge's games against the agent
    plays: bool  # whether it plays this kingdom (else the agent does)
    record: list  # the optimizer's record: a row per library bot and the agent
    seconds: float  # the making's wall time


class KingdomExpert:
    """The agent ``agent``, replaced on each kingdom by the optimizer's bot where that bot
    beats it (module docstring). ``minutes``: each specialist's search; ``confidence``: the
    standard errors it must win by; ``judge_games``: its judged games against the agent;
    ``search``: ``optimize``'s other settings (``generations``, ``population``, ``games``)."""

    scale_observations = False  # it reads the game itself (act_games)

    def __init__(
        self,
        agent,
        minutes: float = DEFAULT_MINUTES,
        seed: int = 0,
        confidence: float = SPECIALIST_CONFIDENCE,
        judge_games: int = DEFAULT_JUDGE_GAMES,
        progress=None,
        **search,
    ):
        if not callable(getattr(agent, "act", None)) or getattr(agent, "info", None) is None:
            raise TypeError(f"agent must be a trained agent (policy.load_agent), got {agent!r}")
        self.agent = agent
        self.info = agent.info  # it plays the agent's table size only (checks.check_agent_players)
        self.players = agent.info.players
        unknown = sorted(set(search) - _SEARCH_SETTINGS)
        if unknown:
            raise TypeError(
                f"unknown setting(s) {', '.join(unknown)}: a specialist's search takes "
                f"{', '.join(sorted(_SEARCH_SETTINGS))} beside minutes"
            )
        # optimize's own checks, now rather than at the first kingdom met
        check_settings("First Game", self.players, minutes, seed, search.get("generations"),
               search.get("population", 2), search.get("games"), judge_games)  # fmt: skip
        self.minutes = minutes
        self.search = search
        self.seed = check_seed(seed)
        self.confidence = check_number("confidence", confidence, -100.0, 100.0)
        self.judge_games = judge_games
        self.progress = progress
        self.specialists: dict[tuple, Specialist] = {}
        self._table = None  # the playing specialists, compiled (rebuilt when one is added)
        self._ids: dict[tuple, int] = {}

    @property
    def name(self) -> str:
        return f"expert:{self.agent.name}"

    def with_seed(self, seed: int) -> KingdomExpert:
        return KingdomExpert(
            self.agent, self.minutes, seed, self.confidence, self.judge_games, **self.search
        )

    def kingdom_cards(self) -> list[str]:
        return []  # it plays any kingdom

    def act(self, observations, masks):
        raise TypeError(
            f"{self.name} decides from the game (its kingdom), not from an observation: seat it "
            "where games are played in batches (simulate, tournament, evaluate) or call "
            "act_games(vec, rows)"
        )

    # -- making ----------------------------------------------------------------------------

    def make(self, kingdom) -> Specialist:
        """The specialist for ``kingdom`` (10 card names), made on first use and kept."""
        key = tuple(sorted(kingdom))
        if key in self.specialists:
            return self.specialists[key]
        seed = zlib.crc32(",".join(key).encode()) ^ self.seed  # the kingdom's own search
        res = optimize(
            list(key), self.players, self.minutes, seed, against=[self.agent],
            judge_games=self.judge_games, name=f"Specialist {self.agent.name}", **self.search,
        )  # fmt: skip
        row = next(r for r in res.record if r["bot"] == self.agent.name)
        games = int(row["games"])
        score = (row["wins"] + row["ties"] / 2) / games
        se = math.sqrt(max(score * (1 - score), 1e-12) / games)
        plays = score - self.confidence * se > 0.5
        spec = Specialist(key, res.best, score, games, bool(plays), res.record, res.seconds)
        self.specialists[key] = spec
        if plays:
            self._ids[key] = len(self._ids)
            self._table = compile_bots([self.specialists[k].bot for k in self._ids])
        if self.progress is not None:
            self.progress(spec)
        return spec

    # -- as a player -------------------------------------------------------------------------

    def act_games(self, vec, rows) -> np.ndarray:
        """The actions for rows ``rows`` of VecGame ``vec`` (each waiting for a decision of
        the seat this expert plays): a specialist's where one plays the row's kingdom, else
        the agent's."""
        rows = np.asarray(rows, np.int64)
        keys, inverse = supply_kingdoms(vec.state[rows])
        bot = np.full(keys.shape[0], -1, np.int64)
        for u, flags in enumerate(keys):  # one per distinct kingdom, not per game
            cards = tuple(sorted(NAMES[c] for c in np.flatnonzero(flags)))
            kingdom = tuple(c for c in cards if c not in BASIC)
            spec = self.make(kingdom)
            bot[u] = self._ids[spec.kingdom] if spec.plays else -1
        bot = bot[inverse]
        out = np.empty(rows.shape[0], np.int64)
        by_bot = bot >= 0
        if by_bot.any():
            ids = np.zeros(vec.num_games, np.int64)
            ids[rows[by_bot]] = bot[by_bot]
            out[by_bot] = vec.bot_actions(self._table, ids)[rows[by_bot]]
        if (~by_bot).any():
            mine = rows[~by_bot]
            obs = vec.observation[mine]
            if self.agent.scale_observations and not vec.scale_observations:
                obs = obs / obs_scale(self.players)
            out[~by_bot] = self.agent.act(obs, vec.action_mask[mine].copy())
        return out


__all__ = ["DEFAULT_MINUTES", "KingdomExpert", "Specialist"]
