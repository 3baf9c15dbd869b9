"""Gymnasium VectorEnv on VecGame: N games stepped by one compiled call, bots inside it.

    import gymnasium, dominion_env.envs
    envs = gymnasium.make_vec("Dominion-v0", num_envs=256, vectorization_mode="vector_entry_point",
                              players=2, opponents="Big Money")
    obs, infos = envs.reset(seed=0)
    masks = envs.unwrapped.action_masks()          # (N, 71) bool, also infos["action_mask"]
    obs, rewards, terminations, truncations, infos = envs.step(actions)

Not N Python envs: one ``VecGame`` in learner mode holds every game, and the compiled step plays
the opponent bots of all N games until each learner must decide again (``dominion_env.vector``).
Opponents are therefore compiled bots only: a bot name, an ``agents.Bot``, a ``BotTable``, or a
list of 1 or players-1 of them (the k-th plays the k-th non-learner seat in seat order). For
Python policies as opponents use ``gym_env.DominionEnv`` (one game each).

Spaces: ``single_observation_space`` Box float32 (obs_size(P),) and ``single_action_space``
Discrete(71), as in ``gym_env`` (action layout, observation layout and rewards are described
there and in ``dominion_env.envs``); batched: Box (N, O) and MultiDiscrete([71] * N).

Autoreset: ``metadata["autoreset_mode"] = AutoresetMode.SAME_STEP``. On the step a game ends, its
row returns that game's reward (the learner's own seat's), terminated / truncated, and already
the first observation of the next game; the finished game's last observation (learner's view)
is ``infos["final_obs"][g]`` (object array, None elsewhere, mask ``infos["_final_obs"]``) and
``infos["final_info"]`` holds ``rewards`` (every seat's, (N, P)) and ``learner_seat`` of the
finished games. Every step's infos also hold ``action_mask`` (N, 71) and ``learner_seat`` (N,)
for the games now in the rows.

Seeding: ``reset(seed=s)`` plays game g of the run seeded s in row g, exactly the games of
``VecGame(...).reset(s)``; ``reset()`` without a seed draws one from the env's generator.
Actions: an (N,) int array, each legal (masked): anything else raises before any game moves,
TypeError for what is not an int array (floats, bools, strings), ValueError for the wrong shape
(never reshaped) and ``names.IllegalActionError`` (a ValueError) for an index out of range
(-1 included: VecGame's skip is not an env action) or not legal now. Seeds: None or an int
0..2**63-1.

Version history
    v0  first release (VecGame v2 learner mode).
"""

from __future__ import annotations

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..cards import check_players
from ..checks import check_actions, check_seed
from ..vector import VecGame, check_learner_seat
from .common import action_space, all_bots, observation_space, opponents_table

VERSION = 0


def make_learner_vecgame(
    num_envs: int,
    players: int = 2,
    kingdom="random",
    opponents="Big Money",
    learner_seat: int | None = None,
    *,
    turn_limit: int = 100,
    first_player: int | None = None,
    autoplay_treasures: bool = True,
    auto_resolve: bool = True,
    pool=None,
    autoreset: bool = True,
    opponent_weights=None,
    scale_observations: bool = False,
    vp_shaping: float = 0.0,
) -> VecGame:
    """A VecGame in learner mode with compiled bot opponents, arguments checked."""
    players = check_players(players)
    check_learner_seat(learner_seat, players)
    if not all_bots(opponents):
        raise TypeError(
            "the vector envs play compiled bots only: give bot names, Bot "
            "objects or a BotTable as opponents (Python policies: use "
            f"gym_env.DominionEnv); got {opponents!r}"
        )
    return VecGame(
        num_envs,
        players,
        kingdom,
        pool=pool,
        autoplay_treasures=autoplay_treasures,
        auto_resolve=auto_resolve,
        turn_limit=turn_limit,
        first_player=first_player,
        autoreset=autoreset,
        opponents=opponents_table(opponents),
        learner_seat=learner_seat,
        opponent_weights=opponent_weights,
        scale_observations=scale_observations,
        vp_shaping=vp_shaping,
    )


class DominionVectorEnv(VectorEnv):
    """N learner-vs-bots games as one Gymnasium VectorEnv (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        players: int = 2,
        kingdom="random",
        opponents="Big Money",
        learner_seat: int | None = None,
        *,
        turn_limit: int = 100,
        first_player: int | None = None,
        autoplay_treasures: bool = True,
        auto_resolve: bool = True,
        pool=None,
        render_mode: str | None = None,
        scale_observations: bool = False,
        vp_shaping: float = 0.0,
        **unused,
    ):
        if render_mode is not None:
            raise ValueError(
                "the vector env does not render; render one game with "
                "gym_env.DominionEnv(render_mode='ansi')"
            )
        # make_vec passes options meant for single envs too; refuse the ones that matter
        unknown = set(unused) - {"max_episode_steps", "illegal_action", "log_lines"}
        if unknown:
            raise TypeError(f"unexpected arguments: {', '.join(sorted(unknown))}")
        if unused.get("illegal_action", "raise") != "raise":
            raise ValueError("the vector env raises on illegal actions (mask them)")
        self.vec = make_learner_vecgame(
            num_envs,
            players,
            kingdom,
            opponents,
            learner_seat,
            turn_limit=turn_limit,
            first_player=first_player,
            autoplay_treasures=autoplay_treasures,
            auto_resolve=auto_resolve,
            pool=pool,
            scale_observations=scale_observations,
            vp_shaping=vp_shaping,
        )
        self.num_envs = int(num_envs)
        self.players = self.vec.players
        self.render_mode = None
        self.single_observation_space = observation_space(
            self.players, turn_limit, scale_observations
        )
        self.single_action_space = action_space()
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._all = np.ones(self.num_envs, np.bool_)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        seed = check_seed(seed, allow_none=True)  # one seed: row g plays game g of its run
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 2**62))
        self.vec.reset(int(seed))
        return self.vec.observation.copy(), self._infos()

    def step(self, actions):
        v = self.vec
        seat_before = v.learner_seat.copy()  # the seat of each game the step may finish
        v.step(check_actions(actions, self.num_envs, skip=False))
        terminated = v.terminated.copy()
        truncated = v.truncated.copy()
        infos = self._infos()
        done = terminated | truncated
        if done.any():
            rows = np.flatnonzero(done)
            final_obs = np.full(self.num_envs, None, dtype=object)
            fo = v.final_observation
            for g in rows:
                final_obs[g] = fo[g].copy()
            seat = np.zeros(self.num_envs, np.int64)
            seat[rows] = seat_before[rows]
            rewards = np.zeros((self.num_envs, self.players), np.float32)
            rewards[rows] = v.rewards[rows]
            infos["final_obs"] = final_obs
            infos["_final_obs"] = done
            infos["final_info"] = {
                "rewards": rewards,
                "_rewards": done,
                "learner_seat": seat,
                "_learner_seat": done,
            }
            infos["_final_info"] = done
        return (
            v.observation.copy(),
            (v.shaped_rewards if v.shaping is not None else v.learner_rewards).astype(np.float64),
            terminated,
            truncated,
            infos,
        )

    def action_masks(self) -> np.ndarray:
        """(N, 71) bool: each learner's legal actions now."""
        return self.vec.action_mask.copy()

    def close_extras(self, **kwargs):
        pass

    # -- internals ------------------------------------------------------------------------

    def _infos(self) -> dict:
        return {
            "action_mask": self.vec.action_mask.copy(),
            "_action_mask": self._all.copy(),
            "learner_seat": self.vec.learner_seat.copy(),
            "_learner_seat": self._all.copy(),
        }
