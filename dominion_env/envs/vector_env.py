"""Gymnasium VectorEnv on VecGame: N games stepped by one compiled call, bots inside it.

    import gymnasium, dominion_env.envs
    envs = gymnasium.make_vec("Dominion-v2", num_envs=256, vectorization_mode="vector_entry_point",
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

``mask_in_observation=True``: the observation is a dict {"observation": (N, O) float32,
"action_mask": (N, 71) int8} (single space: ``common.masked_observation_space``, PettingZoo's
classic convention, which RLlib and TorchRL read).

Autoreset: ``autoreset_mode`` is gymnasium's ``AutoresetMode`` (or its string value), kept in
``metadata["autoreset_mode"]``; the games each row plays are the same in every mode.
* ``SAME_STEP``: on the step a game ends, its row returns that game's reward (the
  learner's own seat's), terminated / truncated, and already the first observation of the next
  game; the finished game's last observation (learner's view) is ``infos["final_obs"][g]``
  (object array, None elsewhere, mask ``infos["_final_obs"]``) and ``infos["final_info"]``
  holds ``rewards`` (every seat's, (N, P)) and ``learner_seat`` of the finished games.
* ``NEXT_STEP`` (the default, as gymnasium's own vector envs; what its vector observation
  wrappers, such as NormalizeObservation, need): the row returns the finished game's last
  observation, and its next step ignores the row's action and returns the next game's first
  observation with reward 0, not terminated, not truncated. ``infos["rewards"]`` (N, P) holds
  every seat's reward of the games that ended (mask ``infos["_rewards"]``).
* ``DISABLED``: as NEXT_STEP, but a finished row stays finished until
  ``reset(options={"reset_mask": rows})`` deals it anew; stepping it first raises ValueError.
Every step's infos hold ``action_mask`` (N, 71) int8 (as gymnasium's ``sample(mask=...)``
takes it; ``action_masks()`` is the same as bool) and ``learner_seat`` (N,) for the game each
row shows. A row showing a finished game has an all-True mask (as pgx does: masked sampling
never meets an empty mask; its action is ignored).

Seeding: ``reset(seed=s)`` plays game g of the run seeded s in row g, exactly the games of
``VecGame(...).reset(s)``; ``reset()`` without a seed draws one from the env's generator;
``reset(seed=[s_0, ..., s_{N-1}])`` (ints or None, gymnasium's per-env seeds) plays game g of
the run seeded s_g in row g (None: a seed drawn from the generator), so ``[s] * N`` is ``s``.
The constructor's ``seed`` seeds the generator. ``reset(options={"reset_mask": m})`` ((N,)
bool numpy array, as gymnasium's vector envs take it) deals only the rows m anew, seeded the
same way; the other rows go on as they were.
Seeds: None or an int 0..2**63-1.
Actions: an (N,) int array, each legal (masked): anything else raises before any game moves,
TypeError for what is not an int array (floats, bools, strings), ValueError for the wrong shape
(never reshaped) and ``names.IllegalActionError`` (a ValueError) for an index out of range
(-1 included: VecGame's skip is not an env action) or not legal now (a row showing a finished
game takes any index 0..70 and ignores it).

Version 2 (``VERSION``: ``Dominion-v2``); what changed: ``docs/changelog.md``.
"""

from __future__ import annotations

import numpy as np
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..cards import check_players
from ..checks import check_actions, check_seed
from ..engine.layout import NUM_ACTIONS
from ..vector import VecGame, check_learner_seat
from .common import (
    VECTOR,
    action_space,
    all_bots,
    check_learner_opponents,
    game_options,
    masked_observation_space,
    observation_space,
    opponents_table,
    takes_options,
)

VERSION = 2


def make_learner_vecgame(
    num_envs: int,
    players: int = 2,
    kingdom="random",
    opponents="Big Money",
    learner_seat: int | None = None,
    *,
    autoreset: bool = True,
    opponent_weights=None,
    vp_shaping: float = 0.0,
    **game_options,
) -> VecGame:
    """A VecGame in learner mode with compiled bot opponents, arguments checked;
    ``game_options`` (turn_limit, public_discards ... : ``common.GAME_OPTIONS``) go to VecGame,
    which checks them."""
    players = check_players(players)
    check_learner_seat(learner_seat, players)
    check_learner_opponents(opponents, players, opponent_weights)
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
        autoreset=autoreset,
        opponents=opponents_table(opponents),
        learner_seat=learner_seat,
        opponent_weights=opponent_weights,
        vp_shaping=vp_shaping,
        **game_options,
    )


def learner_vecgame(opts) -> VecGame:
    """``make_learner_vecgame`` from a vector face's options (``common.takes_options``)."""
    return make_learner_vecgame(
        opts.num_envs,
        opts.players,
        opts.kingdom,
        opts.opponents,
        opts.learner_seat,
        opponent_weights=opts.opponent_weights,
        vp_shaping=opts.vp_shaping,
        **game_options(opts),
    )


class DominionVectorEnv(VectorEnv):
    """N learner-vs-bots games as one Gymnasium VectorEnv (see the module docstring)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    @takes_options(
        VECTOR, extra=("max_episode_steps", "illegal_action", "log_lines", "render_mode")
    )
    def __init__(self, opts, **unused):
        if unused.get("render_mode") is not None:
            raise ValueError(
                "the vector env does not render; render one game with "
                "gym_env.DominionEnv(render_mode='ansi')"
            )
        # make_vec passes options meant for single envs too; refuse the one that matters
        if unused.get("illegal_action", "raise") != "raise":
            raise ValueError("the vector env raises on illegal actions (mask them)")
        try:
            self.autoreset_mode = AutoresetMode(opts.autoreset_mode)
        except ValueError:
            raise ValueError(
                f"autoreset_mode must be a gymnasium.vector.AutoresetMode or one of "
                f"{[m.value for m in AutoresetMode]}, got {opts.autoreset_mode!r}"
            ) from None
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.mask_in_observation = opts.mask_in_observation
        self.vec = learner_vecgame(opts)
        num_envs, turn_limit, scale_observations = (
            opts.num_envs,
            opts.turn_limit,
            opts.scale_observations,
        )
        self.num_envs = int(num_envs)
        self.players = self.vec.players
        self.render_mode = None
        self.single_observation_space = observation_space(
            self.players, turn_limit, scale_observations
        )
        if self.mask_in_observation:
            self.single_observation_space = masked_observation_space(self.single_observation_space)
        self.single_action_space = action_space()
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._all = np.ones(self.num_envs, np.bool_)
        # NEXT_STEP / DISABLED: rows showing a finished game (its last observation in
        # _final_obs, its learner's seat in _final_seat) while the VecGame holds the next one
        self._finished = np.zeros(self.num_envs, np.bool_)
        self._final_obs = np.zeros_like(self.vec.observation)
        self._final_seat = np.zeros(self.num_envs, np.int64)
        if opts.seed is not None:  # reset() without a seed draws from this generator
            self._np_random, self._np_random_seed = seeding.np_random(opts.seed)

    def reset(self, *, seed=None, options: dict | None = None):
        options = dict(options or {})
        reset_mask = options.pop("reset_mask", None)
        if options:
            raise ValueError(f"unknown reset options {sorted(options)}; known: ['reset_mask']")
        if reset_mask is not None:
            reset_mask = self._check_reset_mask(reset_mask)
        if isinstance(seed, (list, tuple, np.ndarray)):
            seeds = self._row_seeds(seed)
        else:
            seed = check_seed(seed, allow_none=True)
            super().reset(seed=seed)
            seeds = int(self.np_random.integers(0, 2**62)) if seed is None else seed
        self.vec.reset(seeds, mask=reset_mask)
        self._finished[self._all if reset_mask is None else reset_mask] = False
        return self._observation(), self._infos()

    def step(self, actions):
        v = self.vec
        actions = check_actions(actions, self.num_envs, skip=False)
        if self._finished.any():
            if self.autoreset_mode == AutoresetMode.DISABLED:
                rows = np.flatnonzero(self._finished)
                raise ValueError(
                    f"rows {rows.tolist()[:10]} hold finished games (autoreset_mode DISABLED): "
                    f"deal them anew with reset(options={{'reset_mask': ...}}) first"
                )
            # NEXT_STEP: the row's action is ignored; it shows the game the VecGame dealt
            actions = np.where(self._finished, -1, actions)
            self._finished[:] = False
        seat_before = v.learner_seat.copy()  # the seat of each game the step may finish
        v.step(actions)
        terminated = v.terminated.copy()
        truncated = v.truncated.copy()
        done = terminated | truncated
        if self.autoreset_mode != AutoresetMode.SAME_STEP:
            self._finished[:] = done
            self._final_obs[done] = v.final_observation[done]
            self._final_seat[done] = seat_before[done]
        infos = self._infos()
        if self.autoreset_mode != AutoresetMode.SAME_STEP:
            rewards = np.zeros((self.num_envs, self.players), np.float32)
            rewards[done] = v.rewards[done]
            infos["rewards"] = rewards
            infos["_rewards"] = done
        elif done.any():
            rows = np.flatnonzero(done)
            final_obs = np.full(self.num_envs, None, dtype=object)
            fo = v.final_observation
            for g in rows:
                final_obs[g] = self._with_mask(fo[g].copy(), np.ones(NUM_ACTIONS, np.bool_))
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
            self._observation(),
            (v.shaped_rewards if v.shaping is not None else v.learner_rewards).astype(np.float64),
            terminated,
            truncated,
            infos,
        )

    def action_masks(self) -> np.ndarray:
        """(N, 71) bool: each learner's legal actions now (all True in a row showing a
        finished game)."""
        mask = self.vec.action_mask.copy()
        mask[self._finished] = True
        return mask

    def close_extras(self, **kwargs):
        pass

    # -- internals ------------------------------------------------------------------------

    def _observation(self):
        obs = self.vec.observation.copy()
        obs[self._finished] = self._final_obs[self._finished]
        return self._with_mask(obs, self.action_masks())

    def _with_mask(self, obs, mask):
        if not self.mask_in_observation:
            return obs
        return {"observation": obs, "action_mask": mask.astype(np.int8)}

    def _infos(self) -> dict:
        seat = self.vec.learner_seat.copy()
        seat[self._finished] = self._final_seat[self._finished]
        return {  # int8, as gymnasium's sample(mask=...) takes it; action_masks() is bool
            "action_mask": self.action_masks().view(np.int8),
            "_action_mask": self._all.copy(),
            "learner_seat": seat,
            "_learner_seat": self._all.copy(),
        }

    def _row_seeds(self, seed) -> np.ndarray:
        """Gymnasium's per-env seeds (ints or None) as (N,) seeds, None drawn from the
        generator; VecGame checks the ints."""
        if len(seed) != self.num_envs:
            raise ValueError(
                f"seed as a list must have num_envs = {self.num_envs} entries (ints or None), "
                f"got {len(seed)}"
            )
        drawn = self.np_random.integers(0, 2**62, size=self.num_envs)
        out = np.empty(self.num_envs, np.int64)
        for g, s in enumerate(seed):  # N Python ints, once per reset
            if s is None:
                out[g] = drawn[g]
            elif isinstance(s, (int, np.integer)) and not isinstance(s, bool) and 0 <= s < 2**63:
                out[g] = s
            else:
                raise ValueError(f"seed[{g}] must be None or a non-negative int, got {s!r}")
        return out

    def _check_reset_mask(self, mask) -> np.ndarray:
        if (
            not isinstance(mask, np.ndarray)
            or mask.shape != (self.num_envs,)
            or mask.dtype != np.bool_
        ):
            raise ValueError(
                f"options['reset_mask'] must be a numpy bool array of shape ({self.num_envs},), "
                f"got {mask!r}"
            )
        if not mask.any():
            raise ValueError("options['reset_mask'] must select at least one row (all False)")
        return mask
