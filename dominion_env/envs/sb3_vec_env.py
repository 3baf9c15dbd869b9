"""Stable-Baselines3 VecEnv on VecGame: N learner-vs-bots games, one compiled call per step.

    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecMonitor
    from dominion_env.envs.sb3_vec_env import DominionVecEnv
    env = VecMonitor(DominionVecEnv(256, players=2, opponents="Big Money"))
    model = MaskablePPO("MlpPolicy", env).learn(1_000_000)

Needs the ``train`` extra (stable-baselines3, sb3-contrib, torch). Not N Python envs (that is
``DummyVecEnv([lambda: DominionEnv(...)] * N)``, the baseline in ``bench/bench_envs.py``): one
``VecGame`` in learner mode holds every game and its compiled step plays the opponent bots of all
N games until each learner decides again. Opponents are compiled bots (a bot name, an
``agents.Bot``, a ``BotTable``, or a list of 1 or players-1 of them); for Python policies as
opponents use ``DummyVecEnv`` of ``gym_env.DominionEnv``.

Spaces, action and observation layouts and rewards: as ``gym_env.DominionEnv`` (Box float32
(obs_size(P),), Discrete(71); the learner's own seat's reward when a game ends).

SB3 conventions: ``step_wait`` returns (obs (N, O) float32, rewards (N,) float32, dones (N,),
infos: a list of N dicts). Autoreset on the same step: for a row whose game ended,
``infos[g]["terminal_observation"]`` is that game's last observation (learner's view),
``infos[g]["TimeLimit.truncated"]`` is True when it hit ``turn_limit`` (so PPO bootstraps)
and ``infos[g]["rewards"]`` / ``["learner_seat"]`` give every seat's reward and the learner's
seat; the returned observation already belongs to the next game.

Learning aids (off by default; ``dominion_env.train`` turns them on): ``scale_observations``
(fixed divisors per entry, the Box bounds scaled with them) and ``vp_shaping=c`` (the rewards
become ``VecGame.shaped_rewards``: potential-based shaping on c x (own VP - best other VP),
with the potential 0 at a game's start and end, so each game's rewards still sum to its result;
``dominion_env.shaping``). ``opponent_weights`` makes ``opponents`` a pool that each game draws
from. Note that SB3 bootstraps a truncated game from ``terminal_observation``
(``TimeLimit.truncated``); our trainer scores a truncated game as 0 instead.

Masks for sb3-contrib's MaskablePPO: ``action_masks()`` is one batched copy of the (N, 71) mask;
``env_method("action_masks")`` (what ``get_action_masks`` calls, also through VecEnvWrappers)
returns the same array, not N calls.

Seeding: ``seed(s)`` (MaskablePPO(seed=s) calls it) then ``reset()`` plays game g of the run
seeded s in row g; a reset without a seed draws one from the generator seeded by the
constructor's ``seed`` (any int >= 0: it seeds numpy's generator); the seeds of games
(``seed(s)``) are None or ints 0..2**63-1. Actions are checked as the
Gymnasium vector env checks them (``vector_env``): an (N,) int array of legal indices, else an
error before any game moves (``names.IllegalActionError``, a ValueError, for illegal ones).

Version 2 (``VERSION``); what changed: ``docs/changelog.md``.
"""

from __future__ import annotations

import numpy as np

from ..checks import check_actions, check_seed
from ..extras import require
from .common import SB3, action_space, observation_space, takes_options
from .vector_env import learner_vecgame

VecEnv = require("stable_baselines3.common.vec_env", "DominionVecEnv (the SB3 VecEnv)").VecEnv

VERSION = 2


class DominionVecEnv(VecEnv):
    """N learner-vs-bots games as one SB3 VecEnv (see the module docstring)."""

    @takes_options(SB3)
    def __init__(self, opts):
        self.vec = learner_vecgame(opts)
        self.players = self.vec.players
        self.render_mode = None
        self._rng = np.random.default_rng(opts.seed)
        self._actions = None
        space = observation_space(self.players, opts.turn_limit, opts.scale_observations)
        super().__init__(int(opts.num_envs), space, action_space())

    # -- the VecEnv API -------------------------------------------------------------------

    def reset(self):
        seed = self._seeds[0]
        if seed is None:
            seed = int(self._rng.integers(0, 2**62))
        self.vec.reset(int(seed))
        self._reset_seeds()
        self._reset_options()
        seat = self.vec.learner_seat
        self.reset_infos = [{"learner_seat": int(seat[g])} for g in range(self.num_envs)]
        return self.vec.observation.copy()

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = actions

    def step_wait(self):
        v = self.vec
        seat_before = v.learner_seat.copy()
        v.step(check_actions(self._actions, self.num_envs, skip=False))
        rewards = (v.shaped_rewards if v.shaping is not None else v.learner_rewards).copy()
        truncated = v.truncated
        dones = v.terminated | truncated
        infos = [{} for _ in range(self.num_envs)]
        if dones.any():
            fo, all_rewards = v.final_observation, v.rewards
            for g in np.flatnonzero(dones):
                infos[g] = {
                    "terminal_observation": fo[g].copy(),
                    "TimeLimit.truncated": bool(truncated[g]),
                    "rewards": all_rewards[g].copy(),
                    "learner_seat": int(seat_before[g]),
                }
        return v.observation.copy(), rewards, dones, infos

    def seed(self, seed: int | None = None):
        return super().seed(check_seed(seed, allow_none=True))

    def close(self) -> None:
        pass

    def action_masks(self) -> np.ndarray:
        """(N, 71) bool: each learner's legal actions now, one copy of the batch mask."""
        return self.vec.action_mask.copy()

    def get_attr(self, attr_name: str, indices=None) -> list:
        value = getattr(self, attr_name)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs):
        if method_name == "action_masks":
            masks = self.action_masks()
            return masks if indices is None else masks[list(self._get_indices(indices))]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def get_images(self):
        return [None for _ in range(self.num_envs)]
