"""OpenSpiel's face: Dominion as the python game ``python_dominion``, and OpenSpiel's ISMCTS
as a player of this package's tables.

    import pyspiel
    import dominion_env.envs.openspiel_game  # registers python_dominion

    game = pyspiel.load_game("python_dominion", {"players": 3, "kingdom": "First Game"})
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(random.choice(state.legal_actions()))
    state.returns()

Needs the ``openspiel`` extra (``pip install 'dominion-env[openspiel]'``).

=====================  ==================================================================
game type              sequential, imperfect information, sampled stochastic (the engine
                       shuffles with each game's own streams: no chance node is ever
                       current), terminal rewards; zero-sum with 2 players, general-sum
                       with 3 to 6 (below)
parameters             ``players`` 2..6 (2), ``kingdom`` 'random', a recommended set's
                       name or 10 card names joined by commas ('random'), ``turn_limit``
                       1..100000 turns per player (100), ``seed`` 0..2**31-1 (0): the
                       game's deals
actions                the engine's action space, ``NUM_ACTIONS`` of them: card ids, then
                       'option k', then PASS; ``action_to_string`` is ``names.action_name``
                       (a card's name, 'option 2', 'PASS'). Every decision of every player
                       is one action: a Militia victim's discard, a Moat reveal, a
                       Masquerade pass (``Game``'s decisions, one each)
returns                the engine's rewards: +1 the sole winner, 0 each player sharing a
                       win (the rules' tie-break by fewer turns applied first), -1 every
                       other player; all 0 for a game the turn limit stops
information state      the engine's observation of the seat (``observation.py``: what that
and observation        player may know under the rules, seats rotated so it is seat 0),
                       float32; the same vector for both (below); strings: the seat and
                       the vector's nonzero entries ``index:value``
=====================  ==================================================================

Utility: with 2 players every game's returns sum to 0 (a win +1/-1, a tie or a truncated
game 0/0): ``ZERO_SUM``. With more, a sole winner gets +1 and every other player -1, so the
sum is 2 - P, and shared wins change it again: ``GENERAL_SUM``. The registered type says
general-sum (the 2..6 player game); a 2-player game's own ``get_type()`` says zero-sum.

Deals: ``new_initial_state()`` deals game number k of the run seeded ``seed`` (k = 0, 1, 2 ...
counted by the Game object), the game a ``Game(kingdom, players, seed, game_index=k)`` deals:
two Game objects with one seed deal the same games in the same order. The Game cannot hand
that count to OpenSpiel's C++ side (``GetRNGState`` is not open to python games), so
``pyspiel.random_sim_test`` runs with ``serialize=False``.

Information state: the engine's observation is what the seat knows now, not the whole history
of what it saw (its own past choices are not all in it), so it is not a perfect-recall
information state; it is the state a search or a learner of this package reads, the honest
one (tests/test_public_info.py), and the same vector as the Gymnasium env's observation for
that game and seat (tests/test_openspiel.py). ``information_state_tensor`` and
``observation_tensor`` are therefore equal; so are the strings.

``clone()`` copies one game record (a 1-row ``VecGame`` clone: no setup, no tables);
``resample_from_infostate(player, sampler)`` deals the cards hidden from ``player`` anew with
the search's determinizer (``engine.determinize``, ``search.determinized``), on streams drawn
from ``sampler``: the result depends only on what ``player`` knows and the sampler's draws,
so OpenSpiel's ISMCTS plays fairly with it.

The player: ``ISMCTSPlayer`` (``ismcts:N`` wherever a player name is accepted: the parser is
``dominion_env.envs.ismcts``) seats OpenSpiel's ``ISMCTSBot`` (``make_ismcts_bot``) with N
simulations per decision, the tree keyed by the decider's information state, PUCT over a
prior with ``PRIOR_ON_BOT`` on the rollout bot's own action, and an evaluator
(``BotRolloutEvaluator``) that plays a leaf out to the end with the strongest library bot for
the kingdom in every seat (compiled: the search's rollout policy) instead of random moves,
which in Dominion rarely end a game. ``LibraryBot`` seats a library bot in OpenSpiel's own
tools (``evaluate_bots``, an ``rl_environment`` loop). Strength and decision time beside
``search:N``: docs/results/openspiel.md.
"""

from __future__ import annotations

import numpy as np

from ..agents import STRENGTH_ORDER, as_bot, compile_bots, strongest_bot_for
from ..cards import MAX_PLAYERS, MIN_PLAYERS, NAMES, TABLE
from ..checks import MAX_SEED, check_int, check_number, check_seed, is_int
from ..engine.batch import observe_game
from ..engine.bots import BotTable, bot_action
from ..engine.jit import njit
from ..engine.layout import (
    DEC_KIND,
    DEC_PLAYER,
    DECISION_NAMES,
    IN_SUPPLY,
    NUM_ACTIONS,
    PHASE,
    PHASE_NAMES,
    RUNNING,
    STATUS,
    TURN_NUMBER,
    TURN_PLAYER,
)
from ..engine.machine import resolve
from ..engine.mask import write_mask
from ..engine.observation import obs_size
from ..engine.zones import seed_game
from ..extras import require
from ..names import IllegalActionError, action_name
from ..search import determinized
from ..vector import MAX_TURN_LIMIT, VecGame

pyspiel = require("pyspiel", "the OpenSpiel game")
ismcts = require("open_spiel.python.algorithms.ismcts", "OpenSpiel's ISMCTS")
mcts = require("open_spiel.python.algorithms.mcts", "OpenSpiel's ISMCTS")

SHORT_NAME = "python_dominion"
MAX_PARAM_INT = 2**31 - 1  # OpenSpiel's game parameters hold a C++ int
DEFAULT_PARAMETERS = {"players": 2, "kingdom": "random", "turn_limit": 100, "seed": 0}
# decisions one turn may take, for OpenSpiel's max_game_length: far above any turn of random
# play (the most in 300 random games of 2 to 6 players, random kingdoms, 60 each: 21)
DECISIONS_PER_TURN = 1000
# the rules options of this face's games (VecGame's defaults) that play on after the deal:
# another VecGame's rows are read as this game's only with the same ones (state_of; who plays
# first was settled by the deal, so first_player may differ)
_RULES = {"autoplay_treasures": 1, "auto_resolve": 1, "public_discards": 0, "shared_stream": 0}
_STREAM_ISMCTS = 18  # the leaf rollouts' bot stream, beside determinize's STREAM_* (16, 17)


def _game_type(utility):
    return pyspiel.GameType(
        short_name=SHORT_NAME,
        long_name="Dominion (dominion-env)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS,
        min_num_players=MIN_PLAYERS,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=DEFAULT_PARAMETERS,
    )


GAME_TYPE = _game_type(pyspiel.GameType.Utility.GENERAL_SUM)


def check_params(params: dict | None) -> dict:
    """The game's parameters with defaults filled in, each checked: a ValueError naming the
    parameter, the value and what is allowed, before any game is built."""
    params = dict(params or {})
    unknown = sorted(set(params) - set(DEFAULT_PARAMETERS))
    if unknown:
        raise ValueError(
            f"{SHORT_NAME} has no parameter {unknown[0]!r}; its parameters: "
            f"{', '.join(DEFAULT_PARAMETERS)}"
        )
    out = {**DEFAULT_PARAMETERS, **params}
    players = out["players"]
    if not is_int(players) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(
            f"players must be an int {MIN_PLAYERS}..{MAX_PLAYERS} (seats at the table), got "
            f"{players!r}"
        )
    check_int("turn_limit", out["turn_limit"], 1, MAX_TURN_LIMIT, "turns per player")
    check_int("seed", out["seed"], 0, MAX_PARAM_INT, "OpenSpiel's int parameters are 32-bit")
    kingdom = out["kingdom"]
    if not isinstance(kingdom, str) or not kingdom.strip():
        raise ValueError(
            f"kingdom must be 'random', a recommended set's name or 10 card names joined by "
            f"commas, got {kingdom!r}"
        )
    # as OpenSpiel's parameters hold them (a numpy int would not pass to C++)
    return {k: str(v) if k == "kingdom" else int(v) for k, v in out.items()}


def kingdom_argument(kingdom: str):
    """The ``kingdom`` parameter as VecGame takes it: a name, or a list of 10 card names."""
    if "," in kingdom:
        return [name.strip() for name in kingdom.split(",")]
    return kingdom


class DominionGame(pyspiel.Game):
    """The game ``python_dominion`` (module docstring)."""

    def __init__(self, params=None):
        p = check_params(params)
        players, limit = int(p["players"]), int(p["turn_limit"])
        # builds (and checks) the kingdom: a bad one is a ValueError here, before any state
        self._template = VecGame(
            1, players, kingdom_argument(p["kingdom"]), autoreset=False, turn_limit=limit
        )
        self._template.reset(0)  # a clone of it steps (state_of puts another game's row in)
        self.players, self.turn_limit, self.seed = players, limit, int(p["seed"])
        self._next_game = 0  # the game number the next new_initial_state deals
        zero_sum = pyspiel.GameType.Utility.ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if players == 2 else None,
            max_game_length=limit * players * DECISIONS_PER_TURN,
        )
        game_type = _game_type(zero_sum) if players == 2 else GAME_TYPE
        super().__init__(game_type, info, p)

    def new_initial_state(self) -> DominionState:
        """Game number k of the run seeded ``seed`` (k counts this Game's deals from 0)."""
        vec = self._template.clone()
        vec.reset(self.seed, self._next_game)
        self._next_game += 1
        return DominionState(self, vec)

    def state_of(self, vec: VecGame, row: int) -> DominionState:
        """A state holding a copy of game ``row`` of ``vec`` (a VecGame of this game's players,
        turn limit and rules options; checked), waiting for its decision."""
        cfg = vec.config
        if cfg.players != self.players or cfg.turn_limit != self.turn_limit:
            raise ValueError(
                f"a VecGame of {cfg.players} players and turn_limit {cfg.turn_limit} is not a "
                f"game of {self}"
            )
        for k, v in _RULES.items():
            if int(getattr(cfg, k)) != v:
                raise ValueError(f"{SHORT_NAME} plays {k}={v}, the VecGame has {getattr(cfg, k)}")
        mine = self._template.clone()
        mine.state[0] = vec.state[row]
        mine.buffers.mask[0] = vec.action_mask[row]
        return DominionState(self, mine)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The engine's observation of a seat, for the information state and the observation
        alike (module docstring); other kinds (public only, perfect information) are refused."""
        if params:
            raise ValueError(f"{SHORT_NAME}'s observer takes no parameters, got {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            raise ValueError(
                f"{SHORT_NAME} observes a seat as the engine does (its public and its own "
                f"private information); got {iig_obs_type}"
            )
        return DominionObserver(self.players)


class DominionState(pyspiel.State):
    """One game of ``python_dominion``: a 1-row VecGame (no autoreset)."""

    def __init__(self, game: DominionGame, vec: VecGame):
        super().__init__(game)
        self._vec = vec

    # -- OpenSpiel's API ---------------------------------------------------------------------

    def current_player(self) -> int:
        if self.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        return int(self._vec.state["game"][0, DEC_PLAYER])

    def _legal_actions(self, player) -> list[int]:
        if player != self.current_player():
            return []
        return np.flatnonzero(self._vec.action_mask[0]).tolist()

    def _apply_action(self, action) -> None:
        mask = self._vec.action_mask[0]
        if not (is_int(action) and 0 <= action < NUM_ACTIONS and mask[action]):
            what = action_name(action) if is_int(action) and 0 <= action < NUM_ACTIONS else None
            raise IllegalActionError(
                f"action {action!r} ({what or f'out of range 0..{NUM_ACTIONS - 1}'}) is not "
                f"legal for player {self.current_player()} now ({self}); legal: "
                f"{[action_name(a) for a in np.flatnonzero(mask)]}",
                0,
                int(action) if is_int(action) else -1,
            )
        self._vec.step(np.array([action], np.int64))

    def _action_to_string(self, player, action) -> str:
        return action_name(action)

    def is_terminal(self) -> bool:
        return int(self._vec.state["game"][0, STATUS]) != RUNNING

    def returns(self) -> list[float]:
        """The engine's rewards once the game is over (+1 / 0 / -1 each), zeros before."""
        if not self.is_terminal():
            return [0.0] * self._vec.players
        return [float(r) for r in self._vec.state["reward"][0, : self._vec.players]]

    def resample_from_infostate(self, player_id, probability_sampler) -> DominionState:
        """A copy whose cards hidden from ``player_id`` are dealt anew, consistently with what
        it knows (``search.determinized``), on streams drawn from ``probability_sampler``
        (a callable returning floats in [0, 1)): the result depends on nothing hidden."""
        seat = check_int("player_id", player_id, 0, self._vec.players - 1, "a seat of the game")
        seed = int(probability_sampler() * (1 << 53)) % MAX_SEED
        index = int(probability_sampler() * (1 << 53))
        new = self.clone()
        new._vec.state[0] = determinized(self._vec.state, seat, seed, index)[0]
        _refresh_mask(new._vec.state, TABLE, new._vec.buffers.mask)
        return new

    def observation_vector(self, player: int) -> np.ndarray:
        """(obs_size(P),) float32: the engine's observation of seat ``player`` now."""
        vec = self._vec
        out = np.zeros(obs_size(vec.players), np.float32)
        observe_game(vec.state, 0, TABLE, int(player), vec.buffers, out)
        return out

    def __str__(self) -> str:
        gm = self._vec.state["game"][0]
        head = (
            f"turn {int(gm[TURN_NUMBER])}, P{int(gm[TURN_PLAYER])}'s "
            f"{PHASE_NAMES[int(gm[PHASE])]} phase"
        )
        if self.is_terminal():
            return f"{head}; over, returns {self.returns()}"
        legal = ", ".join(action_name(a) for a in self._legal_actions(self.current_player()))
        kind = DECISION_NAMES[int(gm[DEC_KIND])]
        return f"{head}; P{self.current_player()} decides ({kind}): {legal}"


class DominionObserver:
    """OpenSpiel's python observer: ``tensor`` the engine's observation of the seat, ``dict``
    its one piece (``observation`` views are ``observation.split``'s)."""

    def __init__(self, players: int):
        self.tensor = np.zeros(obs_size(players), np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: DominionState, player: int) -> None:
        observe_game(state._vec.state, 0, TABLE, int(player), state._vec.buffers, self.tensor)

    def string_from(self, state: DominionState, player: int) -> str:
        obs = state.observation_vector(player)
        nz = np.flatnonzero(obs)
        return f"P{player} " + " ".join(map("{}:{!r}".format, nz.tolist(), obs[nz].tolist()))


@njit
def _refresh_mask_kernel(records, T, masks):
    write_mask(records[0], T, masks[0])


def _refresh_mask(records, T, masks) -> None:
    _refresh_mask_kernel(records, T, masks)


pyspiel.register_game(GAME_TYPE, DominionGame)


# -- OpenSpiel's ISMCTS as a player ------------------------------------------------------------

DEFAULT_SIMULATIONS = 100  # ismcts: decision time near search:800's (docs/results/openspiel.md)
MAX_SIMULATIONS = 1 << 20
DEFAULT_UCT_C = 2.0  # PUCT's exploration constant (returns in [-1, 1])
PRIOR_ON_BOT = 0.5  # the prior's weight on the rollout bot's own action
_ROLLOUTS_PER_DECISION = 1 << 24  # a leaf rollout's stream index: decision x this + rollout


@njit
def _play_out_kernel(records, T, bot_kind, bot_rules, b, mask, scratch, bot_rng, cfg):
    """Compiled bot ``b`` answers every decision of every seat of ``records[0]`` (waiting for
    the decision ``mask[0]`` allows) to the game's end, drawing from ``bot_rng``."""
    r = records[0]
    bots = BotTable(bot_kind, bot_rules)
    while r.game[STATUS] == RUNNING:
        a = bot_action(r, T, bots, b, mask[0], bot_rng, 0, scratch[0])
        resolve(r, T, cfg, a, mask[0], scratch[0])


class BotRolloutEvaluator(mcts.Evaluator):
    """OpenSpiel's MCTS ``Evaluator`` whose value of a state is one game played out from it
    by the strongest library bot for its kingdom in every seat (``agents.strongest_bot_for``,
    compiled: the search's rollout policy), and whose prior is uniform over the legal actions.
    ``start(seed, decision)`` keys the rollouts' bot streams (those bots are deterministic
    except where the bot language draws)."""

    def __init__(self):
        self._bots = [as_bot(name) for name in STRENGTH_ORDER]
        self._table = compile_bots(self._bots)
        self._names = [b.name for b in self._bots]
        self._of_kingdom: dict[bytes, int] = {}
        self._rng = np.zeros(1, np.uint64)
        self._scratch = np.zeros((1, len(NAMES)), np.int64)
        self.start(0, 0)

    def start(self, seed: int, decision: int) -> None:
        self._seed, self._next = int(seed), int(decision) * _ROLLOUTS_PER_DECISION

    def _bot(self, record) -> int:
        supply = record["pile"][0, IN_SUPPLY] > 0
        key = supply.tobytes()
        if key not in self._of_kingdom:
            best = strongest_bot_for([NAMES[c] for c in np.flatnonzero(supply)])
            self._of_kingdom[key] = self._names.index(best.name)
        return self._of_kingdom[key]

    def evaluate(self, state: DominionState) -> np.ndarray:
        vec = state._vec
        record = vec.state.copy()
        mask = np.array(vec.action_mask)
        seed_game(self._rng, 0, self._seed, self._next, _STREAM_ISMCTS)
        self._next += 1
        t = self._table
        _play_out_kernel(
            record,
            TABLE,
            t.kind,
            t.rules,
            self._bot(record),
            mask,
            self._scratch,
            self._rng,
            vec.config,
        )
        return record["reward"][0, : vec.players].astype(np.float64)

    def prior(self, state: DominionState) -> list[tuple[int, float]]:
        """``PRIOR_ON_BOT`` on the rollout bot's own action here, the rest spread evenly over
        the legal actions (ISMCTS reads it with PUCT: the bot's choice is tried most unless
        its value falls behind)."""
        legal = state.legal_actions()
        vec = state._vec
        a = int(vec.bot_actions(self._table, self._bot(vec.state))[0])
        rest = (1.0 - PRIOR_ON_BOT) / len(legal)
        return [(x, rest + PRIOR_ON_BOT * (x == a)) for x in legal]


class ISMCTSPlayer:
    """OpenSpiel's ``ISMCTSBot`` in a seat (module docstring): ``simulations`` per decision,
    ``uct_c`` its exploration constant; decides from the game (``act_games``) through its
    seat's information state only. Decision d of a player seeded ``seed`` draws its worlds
    and its tree's choices from (seed, d): the same games asked in the same order get the
    same answers."""

    scale_observations = False
    info = None  # not a trained agent: any table size

    def __init__(
        self, simulations: int = DEFAULT_SIMULATIONS, seed: int = 0, uct_c: float = DEFAULT_UCT_C
    ):
        self.simulations = check_int(
            "simulations", simulations, 1, MAX_SIMULATIONS - 1, "simulations per decision"
        )
        self.seed = check_seed(seed)
        self.uct_c = check_number("uct_c", uct_c)
        self._evaluator = BotRolloutEvaluator()
        self._games: dict[tuple[int, int], DominionGame] = {}
        self._decisions = 0

    def __getstate__(self) -> dict:
        return {**self.__dict__, "_games": {}}  # (a Ray task's copy: games rebuilt on use)

    @property
    def name(self) -> str:
        return f"ismcts:{self.simulations}"

    def __repr__(self) -> str:
        return (
            f"ISMCTSPlayer(simulations={self.simulations}, seed={self.seed}, uct_c={self.uct_c:g})"
        )

    def with_seed(self, seed: int) -> ISMCTSPlayer:
        """A fresh player with these settings seeded ``seed`` (its decisions numbered from 0)."""
        return ISMCTSPlayer(self.simulations, seed, self.uct_c)

    def kingdom_cards(self) -> list[str]:
        """Cards a table's kingdom must hold for this player: none (it plays any kingdom)."""
        return []

    @property
    def decisions(self) -> int:
        return self._decisions

    def act(self, observations, masks):
        raise TypeError(
            f"{self.name} decides from the game, not from an observation: seat it where games "
            "are played in batches (simulate, tournament, evaluate, play) or call "
            "act_games(vec, rows) / step(state)"
        )

    def game_for(self, vec: VecGame) -> DominionGame:
        """The ``python_dominion`` game of ``vec``'s players and turn limit (kept)."""
        key = (int(vec.config.players), int(vec.config.turn_limit))
        if key not in self._games:
            self._games[key] = DominionGame({"players": key[0], "turn_limit": key[1]})
        return self._games[key]

    def step(self, state: DominionState) -> int:
        """The action ISMCTS takes in ``state`` (a ``python_dominion`` state, not over)."""
        d = self._decisions
        self._decisions += 1
        self._evaluator.start(self.seed, d)
        bot = make_ismcts_bot(
            state.get_game(), self.simulations, (self.seed, d), self.uct_c, self._evaluator
        )
        return int(bot.step(state))

    def act_games(self, vec: VecGame, rows) -> np.ndarray:
        """The actions for rows ``rows`` of VecGame ``vec``, each waiting for a decision of its
        current player (whom this player plays): one search per game."""
        game = self.game_for(vec)
        rows = np.asarray(rows, np.int64)
        return np.array([self.step(game.state_of(vec, int(r))) for r in rows], np.int64)


class _ISMCTSBot(ismcts.ISMCTSBot):
    """ISMCTSBot, which searches each decision afresh, as a bot of ``evaluate_bots`` (it asks
    every bot to restart at the first state and hears every action)."""

    def restart_at(self, state) -> None:
        pass

    def inform_action(self, state, player_id, action) -> None:
        pass


def make_ismcts_bot(
    game: DominionGame,
    simulations: int = DEFAULT_SIMULATIONS,
    seed=0,
    uct_c: float = DEFAULT_UCT_C,
    evaluator: BotRolloutEvaluator | None = None,
):
    """OpenSpiel's ``ISMCTSBot`` for ``game`` as ``ismcts:N`` plays: ``simulations`` per
    decision, PUCT over a prior on the rollout bot's action, leaves valued by
    ``BotRolloutEvaluator``'s rollouts, worlds from ``resample_from_infostate`` on the bot's
    own stream (``seed``: an int or a tuple of ints)."""
    rs = np.random.RandomState(np.random.SeedSequence(seed).generate_state(4))
    bot = _ISMCTSBot(
        game,
        evaluator or BotRolloutEvaluator(),
        uct_c,
        simulations,
        random_state=rs,
        # a seat's legal actions follow from its observation; kept safe all the same
        allow_inconsistent_action_sets=True,
        child_selection_policy=ismcts.ChildSelectionPolicy.PUCT,
    )
    bot.set_resampler(lambda s, p: s.resample_from_infostate(p, rs.uniform))
    return bot


class LibraryBot(pyspiel.Bot):
    """A library bot (a name or an ``agents.Bot``) as an OpenSpiel bot, for OpenSpiel's own
    tools (``evaluate_bots``, an opponent in an ``rl_environment`` loop): ``step(state)`` is
    the bot's action at a ``python_dominion`` state, from its compiled table as in every
    command (a random choice draws from the game's own bot stream)."""

    def __init__(self, bot):
        pyspiel.Bot.__init__(self)
        self.bot = as_bot(bot)
        self._table = compile_bots(self.bot)

    def step(self, state: DominionState) -> int:
        return int(state._vec.bot_actions(self._table, 0)[0])

    def restart_at(self, state) -> None:
        pass

    def inform_action(self, state, player_id, action) -> None:
        pass
