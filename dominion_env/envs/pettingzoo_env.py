"""PettingZoo AEC environment: every seat is an agent, turn-based, "dominion_v1".

    from dominion_env.envs import pettingzoo_env
    env = pettingzoo_env.env(players=3, kingdom="First Game")
    env.reset(seed=42)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else \\
            env.action_space(agent).sample(obs["action_mask"])
        env.step(action)

Agents: ``player_0 .. player_{P-1}`` (seat p is ``player_p``; who starts the game is drawn per
game unless ``first_player`` is given). ``agent_selection`` is the player who decides now, which
is not always the turn player: a Militia victim discarding, a defender revealing Moat or Secret
Chamber, every player passing a card to Masquerade, the attacker choosing for each victim of
Swindler or Thief. Consecutive decisions of one player select the same agent again.

Observation (``observe(agent)``): a dict
    observation   Box float32 (obs_size(P),)  that agent's honest view, seats rotated so it is
                  seat 0 (layout: ``dominion_env.engine.observation``, ``split`` names the parts)
    action_mask   Box int8 (NUM_ACTIONS,)     its legal actions; all zeros unless it decides now

State (``state()``, for centralised critics): Box float32 ``state_space`` of shape
(P * obs_size(P),): every seat's honest observation, seat 0 first, each from its own view
(itself rotated to seat 0, as ``observe`` gives it). Together that is everything any player
knows: every hand, every draw pile's composition and known top cards, every discard, and the
public state. It leaves out only what no player knows, the order of the draw piles (chance).

Action: ``Discrete(NUM_ACTIONS)`` = 71: 0..63 "this card" (play / buy / gain / trash / discard /
pass / name / topdeck / reveal ... as the pending decision says), 64..69 option k, 70 PASS /
DONE / NO / end this phase (``dominion_env.names.action_name`` names an index).

Rewards: zero until the game ends; then +1 to the sole winner, 0 to each player sharing a win,
-1 to everyone else (the rules' tie-break on turns taken applies), and every agent is
terminated. A game reaching ``turn_limit`` is truncated for every agent with zero rewards. With
``env()`` an illegal action ends the game: -1 to the agent that took it, 0 to the others
(PettingZoo's TerminateIllegalWrapper); ``raw_env`` raises ``names.IllegalActionError`` (a
ValueError) instead, and TypeError for what is not an int action index (a float, a string, a
bool, an array of several), before anything moves. Seeds: None or an int 0..2**63-1. A
``set_scenario`` that raises leaves the env as it was.

``record_dir="folder"`` (made if missing; refused when the env is made if it cannot be
written: ``common.check_writable_dir``) writes every game that ends as a record there
(``dominion_env.records``; ``env.unwrapped.recorder.last_path`` is the latest), every seat
listed as kind "policy" named by its agent; a game ended by an illegal action under ``env()``'s
wrapper is not recorded (the wrapper ends it before the game sees the action).

``action_masks()`` is the bool mask of ``agent_selection`` (TorchRL's MaskedCategorical
wants bool; the observation's int8 is what PettingZoo's ``sample`` takes). Options are the
table ``common.OPTIONS`` (shared with the Gymnasium and SB3 faces): ``seed`` seeds the
generator a ``reset()`` without a seed draws from, ``scale_observations``,
``public_discards``; learner-only options (opponents, shaping) are refused with the reason.

``render_mode="ansi"`` returns the game as text by card names (``render.render_game``);
"human" prints it; "rgb_array" returns the same table as an (720, 960, 3) uint8 array
(``render.render_image``). Both show the hand of the agent to act (``agent_selection``), the
seat whose view an agent's observation is, so a film of a game shows each decision as its
decider saw it; once the game is over, nobody's hand and the full log.

Version 1 (``VERSION``: ``dominion_v1``); what changed: ``docs/changelog.md``.
"""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from ..cards import check_players
from ..checks import check_action, check_generator_seed, check_int
from ..engine.layout import NUM_ACTIONS
from ..extras import require
from ..game import Game
from .common import (
    PZ,
    EpisodeRecorder,
    action_mask_space,
    action_space,
    game_options,
    observation_space,
    takes_options,
)
from .render import check_render_mode, emit, render_game, render_image

AECEnv = require("pettingzoo", "the PettingZoo environment").AECEnv
wrappers = require("pettingzoo.utils.wrappers", "the PettingZoo environment")

VERSION = 1


def env(illegal_reward: float | None = -1.0, **kwargs):
    """The AEC env wrapped as PettingZoo's classic games are: an illegal action ends the game
    with ``illegal_reward`` for its agent (None: raise instead), out-of-range actions assert,
    and the call order is enforced. ``kwargs`` go to ``raw_env``."""
    e = raw_env(**kwargs)
    if illegal_reward is not None:
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):  # noqa: N801 (PettingZoo's naming)
    """The AEC env itself (see the module docstring). Options (``common.OPTIONS``):
    ``players`` (2-6), ``kingdom`` ('random', a recommended set name or 10 card names),
    ``turn_limit``, ``first_player`` (None: drawn per game), ``autoplay_treasures``,
    ``auto_resolve``, ``pool`` (cards a random kingdom is drawn from), ``public_discards``,
    ``scale_observations``, ``seed``, ``record_dir``, ``render_mode``, ``log_lines`` (events
    shown by render)."""

    metadata = {
        "name": "dominion_v1",
        "render_modes": ["ansi", "human", "rgb_array"],
        "is_parallelizable": False,
        "render_fps": 4,
    }

    @takes_options(PZ)
    def __init__(self, opts):
        super().__init__()
        self.recorder = (
            None if opts.record_dir is None else EpisodeRecorder(opts.record_dir, "dominion_v1")
        )
        self.players = check_players(opts.players)
        self.render_mode = check_render_mode(opts.render_mode, self.metadata["render_modes"])
        self.log_lines = check_int("log_lines", opts.log_lines, 0)
        self.kingdom = opts.kingdom
        self.possible_agents = [f"player_{p}" for p in range(self.players)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        obs_space = observation_space(self.players, opts.turn_limit, opts.scale_observations)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs_space, "action_mask": action_mask_space()})
            for a in self.possible_agents
        }
        self.action_spaces = {a: action_space() for a in self.possible_agents}
        self.state_space = spaces.Box(
            np.tile(obs_space.low, self.players),
            np.tile(obs_space.high, self.players),
            dtype=np.float32,
        )
        self.game = Game(opts.kingdom, self.players, 0, **game_options(opts))
        # a constructor seed seeds the generator that reset() without a seed draws from
        self._np_random = None if opts.seed is None else np.random.default_rng(opts.seed)
        self.game_seed = None
        self._dealt = False
        self._zero_mask = np.zeros(NUM_ACTIONS, np.int8)
        self.agents = []

    # -- spaces ---------------------------------------------------------------------------

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # -- the AEC API ----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None):
        """Start a new game. ``seed`` (any int >= 0: ``checks.check_generator_seed``) seeds the
        env's generator, which draws each game's seed: the same seed gives the same game and,
        with the same actions, the same play."""
        seed = check_generator_seed(seed, allow_none=True)
        if seed is not None or self._np_random is None:
            self._np_random = np.random.default_rng(seed)
        self.game_seed = int(self._np_random.integers(0, 2**62))
        self.game.reset(self.game_seed)
        self._new_game_bookkeeping()

    def set_scenario(self, **scenario):
        """``Game.set_scenario`` (this exact hand, this deck, this phase ...), then the AEC
        bookkeeping of a game that starts there: rewards cleared, every agent live, the agent
        who decides first selected."""
        self.game.set_scenario(**scenario)  # checks everything first: on error nothing changed
        if self._np_random is None:  # later resets draw from an unseeded generator
            self._np_random = np.random.default_rng()
        self.game_seed = None  # the position is not a dealt game
        self._new_game_bookkeeping()

    def _new_game_bookkeeping(self):
        self._dealt = True
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game.current_player]

    def observe(self, agent):
        p = self.agent_name_mapping[agent]
        if p == self.game.current_player:
            return {
                "observation": self.game.observation(),
                "action_mask": self.game.action_mask.astype(np.int8),
            }
        return {"observation": self.game.observation(p), "action_mask": self._zero_mask.copy()}

    def action_masks(self) -> np.ndarray:
        """(NUM_ACTIONS,) bool: the legal actions of ``agent_selection`` now (the int8
        ``observe(agent)["action_mask"]`` as bool, for TorchRL's MaskedCategorical); all True
        once the game is over, as the Gymnasium envs give it."""
        if not self._dealt or not self.agents or self.game.done:
            return np.ones(NUM_ACTIONS, np.bool_)
        return self.game.action_mask.copy()

    def state(self) -> np.ndarray:
        """(P * obs_size(P),) float32: every seat's own observation, seat 0 first (the module
        docstring says what it holds)."""
        if not self._dealt:
            raise RuntimeError("call reset() before state()")
        return np.concatenate([self.game.observation(p) for p in range(self.players)])

    def step(self, action):
        if not self._dealt:
            raise RuntimeError("call reset() before step(): no game is dealt yet")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        p = self.agent_name_mapping[agent]
        if p != self.game.current_player:  # cannot happen through agent_selection
            raise RuntimeError(f"{agent} does not decide now")
        # not an index at all: TypeError; then the one legality check (VecGame's): raises
        # before moving
        self.game.step(check_action(action))
        self._cumulative_rewards[agent] = 0.0
        if self.game.done:
            rewards = self.game.rewards
            terminated, truncated = self.game.terminated, self.game.truncated
            for a_, q in self.agent_name_mapping.items():
                self.rewards[a_] = float(rewards[q])
                self.terminations[a_] = terminated
                self.truncations[a_] = truncated
            if self.recorder is not None:
                seats = [{"kind": "policy", "name": a_} for a_ in self.possible_agents]
                self.recorder.save(self.game, seats)
            # the agent that ended the game sees the end first; the others follow in seat order
        else:
            for a_ in self.agents:
                self.rewards[a_] = 0.0
            self.agent_selection = self.possible_agents[self.game.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            return emit(None, "")
        if self.render_mode == "rgb_array":
            return render_image(self.game, log_lines=self.log_lines)
        return emit(self.render_mode, render_game(self.game, log_lines=self.log_lines))

    def close(self):
        pass
