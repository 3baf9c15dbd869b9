"""Gymnasium single-agent environment: one learner against bots or policies, "Dominion-v2".

    import gymnasium, dominion_env.envs
    env = gymnasium.make("Dominion-v2", players=2, opponents="Big Money")
    obs, info = env.reset(seed=0)
    mask = env.unwrapped.action_masks()        # or info["action_mask"]

The learner takes a seat (``learner_seat``: None draws one per game from the env's generator,
or give 0..P-1); the other seats are played by ``opponents`` inside ``step`` until the learner
must decide again or the game ends. ``opponents`` is one entry for every other seat, or one per
other seat in increasing seat order; an entry is a bot name (``agents.BOTS``), an
``agents.Bot``, a callable ``policy(observation, action_mask) -> action`` (it gets that seat's
own honest observation and mask), a model with ``predict`` (sb3-contrib's MaskablePPO, used
deterministically; see ``common.ModelPolicy``), or the search player (``"search"``,
``"search:N"`` or a ``dominion_env.search.Search``: it decides from the game, through what its
seat may know). With bots only, the engine plays them inside its
compiled step (``VecGame`` learner mode: one call per learner action); with a Python policy
among them, every opponent decision is stepped from Python (bots still answer with compiled
code).

The learner decides mid-turn too: when an opponent plays Militia the learner is asked for its
discards inside the opponent's turn, and the env returns at that decision.

Action: ``Discrete(71)``: 0..63 "this card" (play / buy / gain / trash / discard / pass / name /
topdeck / reveal ... as the pending decision says), 64..69 option k, 70 PASS / DONE / NO / end
this phase. ``action_masks()`` returns the legal actions (bool, (71,)) for sb3-contrib's
MaskablePPO and TorchRL; ``info["action_mask"]`` holds the same as int8, as gymnasium's
``action_space.sample(mask=...)`` takes it. Once the episode is over the mask is all
True (as pgx does: masked sampling never meets an empty mask). An illegal action ends the
episode as a loss (reward -1, ``info["illegal_action"] = True``) with ``illegal_action="lose"``
(the default, so that random-action checkers run), or raises ``names.IllegalActionError`` (a
ValueError) with ``illegal_action="raise"``. What is not an action index at all (a float, a
string, a bool, None, an array of several) raises TypeError under either rule, and nothing
moves.

A Python-policy opponent that raises, returns something that is not an int action index, or
returns an illegal action aborts the episode: the error propagates (the policy's own, or a
TypeError / ``IllegalActionError`` naming the seat and the value), the env is over and the
next ``step`` raises RuntimeError until ``reset``. The opponent's decision is never played
for the learner.

Observation: ``Box(float32, (obs_size(P),))``, the learner's honest view, its seat rotated to
seat 0; the layout is ``dominion_env.engine.observation`` (``split(obs, players)`` names the
pieces: hand, draw_pile composition, discard, aside, in_play, owned per seat, supply, in_supply,
trash, turn_seat, phase, counters, turn_number, sizes, vp, turns_taken, decision, dec_source,
dec_card, dec_target, dec_params). Values are raw counts. ``mask_in_observation=True`` makes
it a dict {"observation": that Box, "action_mask": MultiBinary(71) int8} (PettingZoo's classic
convention, which RLlib's and TorchRL's action masking read). ``observation="cards"`` gives
the same facts card by card (``common.card_set_space``, ``engine.observation.card_set``):
{"card_ids": the game's 17 cards by id, "cards": (17, F) their entries of every per-card
piece, "globals": the rest}, for networks over the cards as a set (a scenario with more than
17 cards cannot be shown this way: ValueError); the default "flat" is the vector above.

Reward: 0 until the game ends, then the learner's own result: +1 sole winner, 0 shared win,
-1 otherwise (the rules' tie-break on turns applies). ``terminated`` when the game ends by the
rules; ``truncated`` (reward 0) when it reaches ``turn_limit``. The final ``info`` holds
``rewards`` (every seat's, by seat) and ``learner_seat``.

``record_dir="folder"`` (made if missing; refused when the env is made if it cannot be
written: ``common.check_writable_dir``) writes every episode's game as a record there when it
ends
(``dominion_env.records``, ``common.EpisodeRecorder``; ``env.unwrapped.recorder.last_path``
is the latest): the learner's seat is listed as kind "policy", named "learner", the
opponents by their bot or policy names; ``dominion replay FILE --html OUT.html`` shows it.

Options (``common.OPTIONS``, shared with the other faces): ``seed`` seeds the generator a
``reset()`` without a seed draws from (``reset(seed=s)`` reseeds it: any int >= 0, see
``checks.check_generator_seed``); ``vp_shaping=c`` makes the rewards potential-based VP
shaping (as ``sb3_vec_env``: each game's rewards still sum to its result) and
``opponent_weights`` (one weight per bot) makes ``opponents`` a pool of any number of bots that
each game draws every other seat from, as on the vector envs (``common.check_learner_opponents``),
both with compiled bot opponents only; ``public_discards=True`` shows every discarded card
(``VecGame``); ``scale_observations`` divides the observation by fixed per-entry divisors.

``render_mode="ansi"`` returns the game as text by card names (``render.render_game``), the
learner's hand shown; "human" prints it; "rgb_array" returns the same table as a picture,
an (720, 960, 3) uint8 array (``render.render_image``), the learner's view, which gymnasium's
``RecordVideo`` films.

This env runs one game in Python between decisions; for training use the vector envs
(``vector_env.DominionVectorEnv``, ``sb3_vec_env.DominionVecEnv``), which step N games and
play the bots inside the compiled step.

Version 2 (``VERSION``: ``Dominion-v2``); what changed: ``docs/changelog.md``.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
from gymnasium.utils import seeding

from ..agents import Bot, compile_bots
from ..cards import check_players
from ..checks import check_action, check_generator_seed, check_int
from ..engine.layout import NUM_ACTIONS
from ..engine.observation import card_set
from ..game import Game
from ..names import IllegalActionError, action_name
from ..protocols import decides_from_game
from ..vector import check_learner_seat
from . import ENV_ID
from .common import (
    GYM,
    EpisodeRecorder,
    action_space,
    all_bots,
    card_set_space,
    check_illegal_action,
    game_options,
    masked_observation_space,
    observation_space,
    opponent_list,
    opponents_table,
    seat_entry,
    table_rows,
    takes_options,
)
from .render import check_render_mode, emit, render_game, render_image

VERSION = 2


class DominionEnv(gym.Env):
    """One learner against ``opponents`` (see the module docstring)."""

    # render_fps: the pace of a RecordVideo film of the learner's decisions
    metadata = {"render_modes": ["ansi", "human", "rgb_array"], "render_fps": 4}

    @takes_options(GYM)
    def __init__(self, opts):
        scale_observations, opponents = opts.scale_observations, opts.opponents
        self.players = check_players(opts.players)
        self.recorder = (
            None if opts.record_dir is None else EpisodeRecorder(opts.record_dir, ENV_ID)
        )
        self.learner_seat_option = check_learner_seat(opts.learner_seat, self.players)
        self.illegal_action = check_illegal_action(opts.illegal_action)
        self.render_mode = check_render_mode(opts.render_mode, self.metadata["render_modes"])
        self.log_lines = check_int("log_lines", opts.log_lines, 0)
        self.observation_space = observation_space(
            self.players, opts.turn_limit, scale_observations
        )
        self.observation_kind = opts.observation
        if self.observation_kind == "cards":
            self.observation_space = card_set_space(
                self.players, opts.turn_limit, scale_observations
            )
        self.mask_in_observation = opts.mask_in_observation
        if self.mask_in_observation:
            self.observation_space = masked_observation_space(self.observation_space)
        self.action_space = action_space()
        # opponents[k] plays the k-th non-learner seat
        # (with opponent_weights: the pool's bots, which each game draws from)
        self.opponents = opponent_list(
            opponents, self.players, scale_observations, opts.opponent_weights
        )
        # bots only: the engine plays them inside its step (learner mode, one compiled call
        # per learner action); with a Python policy among them, every seat is stepped here
        self.compiled_opponents = all_bots(opponents)
        learner_mode = {}
        if self.compiled_opponents:
            learner_mode = {
                "opponents": opponents_table(opponents),
                "learner_seat": self.learner_seat_option,
                "opponent_weights": opts.opponent_weights,
                "vp_shaping": opts.vp_shaping,
            }
        elif opts.vp_shaping:
            raise ValueError(
                "vp_shaping needs compiled bot opponents (bot names, Bots or a BotTable): the "
                f"engine scores them; got opponents={opponents!r}"
            )
        self.vp_shaping = bool(opts.vp_shaping)
        self.game = Game(opts.kingdom, self.players, 0, **game_options(opts), **learner_mode)
        if opts.seed is not None:  # reset() without a seed draws from this generator
            self._np_random, self._np_random_seed = seeding.np_random(opts.seed)
        bots, players_ = [], []
        for o in self.opponents:
            if isinstance(o, Bot):
                players_.append(["bot", None, len(bots)])
                bots.append(o)
            elif isinstance(o, tuple):  # a row of a BotTable
                players_.append(["bot", o[1], o[2]])
            else:
                players_.append(["policy", o, None])
        table = compile_bots(bots) if bots else None
        self._players = [(k, table if k == "bot" and w is None else w, b) for k, w, b in players_]
        # the rows of the compiled opponents table, as opponents_table lays them out
        self._rows = table_rows(opponents) if self.compiled_opponents else []
        self._bot_rng = np.ones(1, np.uint64)
        self._seat_player: list = []
        self.learner_seat = 0
        self._over = True

    # -- the Gymnasium API ----------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        seed = check_generator_seed(seed, allow_none=True)
        self._over = True  # until a new episode is dealt (an opponent policy may fail first)
        super().reset(seed=seed)
        P = self.players
        while self.compiled_opponents:
            self.game.reset(int(self.np_random.integers(0, 2**62)))
            self.learner_seat = self.game.learner_seat
            if not self.game.done:  # the engine deals again rather than stop here
                break
        while not self.compiled_opponents:
            self.learner_seat = (
                int(self.np_random.integers(P))
                if self.learner_seat_option is None
                else self.learner_seat_option
            )
            others = [p for p in range(P) if p != self.learner_seat]
            self._seat_player = [None] * P
            for k, p in enumerate(others):
                self._seat_player[p] = self._players[k]
            self._bot_rng[0] = np.uint64(int(self.np_random.integers(1, 2**63)))
            self.game.reset(int(self.np_random.integers(0, 2**62)))
            self._play_opponents()
            if not self.game.done:  # the learner always gets a first decision in practice
                break
        self._over = False
        self._maybe_render()
        return self._with_mask(self.game.observation()), self._info()

    def step(self, action):
        if self._over:
            raise RuntimeError("the episode is over (or was aborted by an opponent): call reset()")
        g = self.game
        try:
            # not an index at all: TypeError, whatever the rule; then the one legality check
            # (VecGame's): nothing moves if illegal
            g.step(check_action(action))
        except IllegalActionError:
            if self.illegal_action == "raise":
                raise
            self._over = True
            info = self._info()
            info["illegal_action"] = True
            self._record({"illegal_action": action_name(int(action))})
            out = (self._with_mask(g.observation(self.learner_seat)), -1.0, True, False, info)
            self._maybe_render()
            return out
        self._play_opponents()
        reward, terminated, truncated = 0.0, False, False
        if g.done:
            self._over = True
            self._record()
            terminated, truncated = g.terminated, g.truncated
            reward = float(g.rewards[self.learner_seat])
            obs = g.observation(self.learner_seat)
        else:
            obs = g.observation()
        if self.vp_shaping:  # potential-based: a game's shaped rewards sum to its result
            reward = float(g.vec.shaped_rewards[0])
        info = self._info()
        if g.done:
            info["rewards"] = g.rewards
        self._maybe_render()
        return self._with_mask(obs), reward, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """(NUM_ACTIONS,) bool: the learner's legal actions now (all True once it is over)."""
        if self._over:
            return np.ones(NUM_ACTIONS, np.bool_)
        return self.game.action_mask.copy()

    def render(self):
        if self.render_mode is None:
            return emit(None, "")
        if self.render_mode == "rgb_array":
            return render_image(
                self.game,
                viewer=self.learner_seat,
                log_lines=self.log_lines,
                seat_labels={self.learner_seat: "learner"},
            )
        return emit(
            self.render_mode,
            render_game(
                self.game,
                viewer=self.learner_seat,
                log_lines=self.log_lines,
                seat_labels={self.learner_seat: "learner"},
            ),
        )

    def close(self):
        pass

    # -- internals ------------------------------------------------------------------------

    def _play_opponents(self):
        if self.compiled_opponents:
            return
        g = self.game
        learner = self.learner_seat
        while not g.done:
            p = g.current_player
            if p == learner:
                return
            kind, who, b = self._seat_player[p]
            if kind == "bot":
                a = g.bot_action_id(who, b, self._bot_rng)
                g.step(a)
                continue
            # a policy that fails aborts the episode (over until it has answered): its
            # decision must never pass to the learner's next step
            over, self._over = self._over, True
            if decides_from_game(who):  # the search decides from the game itself
                a = int(who.act_games(g.vec, [0])[0])
            else:
                a = who(g.observation(), g.action_mask.copy())
            g.step(check_action(a, f"the action of the opponent policy at seat {p}"))
            self._over = over

    def _record(self, meta: dict | None = None):
        if self.recorder is None:
            return
        if self.compiled_opponents:  # the bot (table row) the engine seated at each seat
            rows = self.game.vec.opponent_bots[0]
            others = iter([self._rows[rows[p]] for p in range(self.players) if rows[p] >= 0])
        else:
            others = iter(self.opponents)
        seats = [
            {"kind": "policy", "name": "learner"}
            if p == self.learner_seat
            else seat_entry(next(others))
            for p in range(self.players)
        ]
        self.recorder.save(self.game, seats, {"learner_seat": self.learner_seat, **(meta or {})})

    def _with_mask(self, obs):
        if self.observation_kind == "cards":
            obs = card_set(obs, self.players)
        if not self.mask_in_observation:
            return obs
        return {"observation": obs, "action_mask": self.action_masks().astype(np.int8)}

    def _info(self) -> dict:
        # int8, as gymnasium's Discrete.sample(mask=...) takes it; action_masks() is the bool
        return {"learner_seat": self.learner_seat, "action_mask": self.action_masks().view(np.int8)}

    def _maybe_render(self):
        if self.render_mode == "human":
            self.render()
