"""Where a learner's games come from: rows of a VecGame whose other seats someone else plays.

Both kinds below look the same to a trainer: every row waits at one of the learner's
decisions, ``step(actions)`` answers all of them and returns the learner's next decisions,
its (shaped) rewards, which rows' games ended and how.

``BotSeats``     learner mode: compiled bots (library bots, a strategy file's bots) play every
                 other seat inside the step kernel.
``PolicySeats``  every seat external (self-play, past snapshots, saved agents): the rows'
                 other seats are answered in batches by whichever policy owns them, between
                 the learner's decisions, until every row waits for the learner again. One
                 VecGame, one forward pass per policy per round, no per-game Python env.
``LibrarySeats``  every library bot but Random, each on its own kingdom
                 (``agents.kingdom_for``: the table ``dominion tournament`` deals it), one
                 mixed batch (each row its bot and its kingdom), the rows split evenly
                 among the bots: the pool's ``"all bots"``.
``StrongestSeats`` PolicySeats whose other seats play each game's kingdom's expert
                 (``KingdomExperts``): the strongest library bot whose cards are in it, or a
                 strategy file's first bot that fits (the pool's ``"optimized"``, a .toml).

Rewards: the game result (+1/0/-1, 0 when truncated) on the learner's last decision of a game,
plus potential-based VP shaping (``dominion_env.shaping``), so each game's rewards still sum to
its result.
"""

from __future__ import annotations

import numpy as np

from ..agents import (
    BOTS,
    STRENGTH_ORDER,
    compile_bots,
    compile_table,
    kingdom_for,
    strongest_bot_for,
)
from ..cards import NAMES, NUM_CARDS
from ..engine.observation import O_IN_SUPPLY, obs_offsets
from ..shaping import VPShaping, vp_potential
from ..vector import VecGame


class Finished:
    """Games that ended on a step: the learner's result and who it played, per game."""

    def __init__(self, result: np.ndarray, opponent: list[str]):
        self.result = result
        self.opponent = opponent


class BotSeats:
    """Learner mode with a weighted pool: each new game draws every other seat's bot from
    ``bots`` (library names or ``Bot`` objects, e.g. a strategy file's) by ``weights``, inside
    the compiled step. A mixed batch (``row_kingdoms``, ``row_opponents``) gives each row its
    own kingdom and its own bot instead (``weights`` None). Finished games are labelled with
    their bot's entry in ``labels`` (default: the bots' names)."""

    def __init__(
        self,
        num_games: int,
        players: int,
        kingdom,
        bots: list[str],
        weights,
        *,
        vp_shaping: float,
        turn_limit: int = 100,
        row_kingdoms=None,
        row_opponents=None,
        labels=None,
    ):
        self.labels = [b if isinstance(b, str) else b.name for b in bots]
        if labels is not None:
            if len(labels) != len(self.labels):
                raise ValueError(f"{len(labels)} labels for {len(self.labels)} bots")
            self.labels = list(labels)
        self.vec = VecGame(
            num_games,
            players,
            kingdom,
            row_kingdoms=row_kingdoms,
            opponents=compile_bots(bots),
            opponent_weights=None if weights is None else np.asarray(weights, np.float64),
            row_opponents=row_opponents,
            scale_observations=True,
            vp_shaping=vp_shaping or 0.0,
            turn_limit=turn_limit,
        )
        self.num_games = num_games

    def reset(self, seed: int):
        out = self.vec.reset(seed)
        return out.observation, out.action_mask

    def step(self, actions: np.ndarray):
        out = self.vec.step(actions)
        done = out.terminated | out.truncated
        reward = (
            self.vec.shaped_rewards if self.vec.shaping is not None else self.vec.learner_rewards
        )
        ended = np.flatnonzero(done)
        fin = Finished(self.vec.learner_rewards[ended].copy(), self._opponents(ended))
        return out.observation, out.action_mask, reward, done, fin

    def _opponents(self, ended) -> list[str]:
        """The label of each ended game's opponent: the bot in its first non-learner seat."""
        seats = self.vec.finished_opponent_bots[ended]
        first = np.where(seats[:, 0] >= 0, seats[:, 0], seats[:, 1])
        return [self.labels[b] for b in first]


# the library's bots that play to win (Random is a baseline, not an opponent to learn from)
LIBRARY_BOTS = tuple(b for b in BOTS if b != "Random")


class LibrarySeats(BotSeats):
    """Each of ``bots`` (library names) on its own kingdom (``kingdom_for``), in learner mode:
    one mixed batch whose ``num_games`` rows are split evenly among the bots (each at least
    one), each row with its bot's kingdom and that bot in every other seat. Finished games are
    labelled "all bots"."""

    label = "all bots"

    def __init__(self, num_games: int, players: int, bots, *, vp_shaping: float, turn_limit=100):
        if num_games < len(bots):
            raise ValueError(f"{len(bots)} bots need at least as many rows, got {num_games}")
        parts = np.array_split(np.arange(num_games), len(bots))
        self.part = np.concatenate([np.full(len(p), k) for k, p in enumerate(parts)])
        # the game number of a row within its bot's part: each part deals the games a batch
        # of its own would (before the batches merged, every bot stepped its own VecGame)
        self.number = np.concatenate([np.arange(len(p)) for p in parts])
        kingdoms = [tuple(kingdom_for([BOTS[b]])) for b in bots]
        super().__init__(
            num_games,
            players,
            "random",  # unused: every row has its bot's kingdom
            list(bots),
            None,
            vp_shaping=vp_shaping,
            turn_limit=turn_limit,
            row_kingdoms=[kingdoms[k] for k in self.part],
            row_opponents=self.part,
        )

    def reset(self, seed: int):
        out = self.vec.reset(seed * 1000 + self.part, first_index=self.number)
        return out.observation, out.action_mask

    def _opponents(self, ended) -> list[str]:
        return [self.label] * len(ended)


class PolicySeats:
    """Every seat external; ``opponent(obs, mask) -> actions`` plays every non-learner seat.

    The learner's seat is drawn per game from this object's own generator (seeded by
    ``reset``), so a learner plays every seat equally often."""

    def __init__(
        self,
        num_games: int,
        players: int,
        kingdom,
        opponent,
        label: str,
        *,
        vp_shaping: float,
        turn_limit: int = 100,
    ):
        self.label = label
        self.opponent = opponent
        self.players = players
        self.vec = VecGame(
            num_games, players, kingdom, scale_observations=True, turn_limit=turn_limit
        )
        self.num_games = num_games
        self.seat = np.zeros(num_games, np.int64)
        self.shaping = VPShaping(num_games, vp_shaping or 0.0)
        self.rng = np.random.default_rng(0)
        self._result = np.zeros(num_games, np.float32)
        self._done = np.zeros(num_games, bool)

    def reset(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.seat[:] = self.rng.integers(0, self.players, self.num_games)
        self.vec.reset(seed)
        self.shaping.reset()
        self._result[:] = 0.0
        self._done[:] = False
        self._advance()
        return self.vec.observation, self.vec.action_mask

    def step(self, actions: np.ndarray):
        self._result[:] = 0.0
        self._done[:] = False
        self._play(actions)
        self._advance()
        done = self._done.copy()
        potential = vp_potential(self.vec.scores, self.seat, self.shaping.coef)
        reward = self.shaping.step(self._result, done, potential)
        ended = np.flatnonzero(done)
        fin = Finished(self._result[ended].copy(), [self.label] * len(ended))
        return self.vec.observation, self.vec.action_mask, reward, done, fin

    def _play(self, actions):
        """Step the rows given an action (others -1); note the learner's results of games
        that end, and draw the learner's seat of each new game."""
        out = self.vec.step(actions)
        ended = np.flatnonzero(out.terminated | out.truncated)
        if len(ended):
            self._result[ended] = out.rewards[ended, self.seat[ended]]
            self._done[ended] = True
            self.seat[ended] = self.rng.integers(0, self.players, len(ended))

    def _answer(self, rows):
        return self.opponent(self.vec.observation[rows], self.vec.action_mask[rows])

    def _advance(self):
        """Let the opponent answer every decision that is not the learner's."""
        for _ in range(10_000):
            other = np.flatnonzero(self.vec.current_player != self.seat)
            if not len(other):
                return
            actions = np.full(self.num_games, -1, np.int64)
            actions[other] = self._answer(other)
            self._play(actions)
        raise RuntimeError("opponents kept deciding for 10000 rounds")


class KingdomExperts:
    """The expert for each row's kingdom: the first of ``bots`` (a strategy file's, in its
    order) whose cards are all in it, else the strongest library bot whose cards are
    (``agents.strongest_bot_for``), as ids into one compiled table (``bots`` then the whole
    library), read from the observation's ``in_supply`` piece (public: every viewer sees the
    same Supply)."""

    def __init__(self, players: int, bots=()):
        self.bots = list(bots)
        self.library = [BOTS[n] for n in STRENGTH_ORDER]
        self.table = compile_table(self.bots + self.library)
        self.start = int(obs_offsets(players)[O_IN_SUPPLY])
        self._by_kingdom: dict[bytes, int] = {}
        self._packed = np.zeros((0, 0), np.uint8)  # each row's kingdom flags at the last call
        self._ids = np.zeros(0, np.int64)

    def bot_id(self, cards) -> int:
        """The table's id of the expert for a kingdom (card names)."""
        bot = strongest_bot_for(cards, self.bots)
        # by identity: a file's bot may share a library bot's name
        mine = next((i for i, b in enumerate(self.bots) if b is bot), None)
        return mine if mine is not None else len(self.bots) + STRENGTH_ORDER.index(bot.name)

    def bot(self, b: int):
        """The ``Bot`` of table id ``b``."""
        return (self.bots + self.library)[b]

    def ids(self, obs: np.ndarray) -> np.ndarray:
        """(N,) bot id per row; only rows whose kingdom changed (a new game) are looked up."""
        flags = obs[:, self.start : self.start + NUM_CARDS] > 0.5
        packed = np.packbits(flags, axis=1)
        if self._packed.shape != packed.shape:
            self._packed = ~packed  # every row is new
            self._ids = np.zeros(len(packed), np.int64)
        for g in np.flatnonzero((packed != self._packed).any(axis=1)):
            key = packed[g].tobytes()
            b = self._by_kingdom.get(key)
            if b is None:
                b = self.bot_id([NAMES[c] for c in np.flatnonzero(flags[g])])
                self._by_kingdom[key] = b
            self._ids[g] = b
        self._packed = packed
        return self._ids.copy()

    def actions(self, vec: VecGame, rows=None) -> np.ndarray:
        """The experts' actions at every row's pending decision (or at ``rows``)."""
        acts = vec.bot_actions(self.table, self.ids(vec.observation))
        return acts if rows is None else acts[rows]


class StrongestSeats(PolicySeats):
    """Every other seat played by each game's kingdom's expert (``KingdomExperts``): the
    strongest library bot, or with ``bots`` (a strategy file's) the first of them that fits."""

    def __init__(
        self,
        num_games: int,
        players: int,
        kingdom,
        label: str,
        *,
        vp_shaping: float,
        turn_limit: int = 100,
        bots=(),
    ):
        self.experts = KingdomExperts(players, bots)
        super().__init__(
            num_games, players, kingdom, None, label, vp_shaping=vp_shaping, turn_limit=turn_limit
        )

    def _answer(self, rows):
        return self.experts.actions(self.vec, rows)
