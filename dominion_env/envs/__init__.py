"""Adapters to Gymnasium, PettingZoo and Stable-Baselines3, on the batched engine.

    import gymnasium
    import dominion_env.envs          # registers Dominion-v2 (import dominion_env does too)
    env = gymnasium.make("Dominion-v2", players=2, opponents="Big Money")
    venv = gymnasium.make_vec("Dominion-v2", num_envs=256, opponents="Big Money",
                              vectorization_mode="vector_entry_point")
    from dominion_env.envs import pettingzoo_env
    aec = pettingzoo_env.env(players=3)
    from dominion_env.envs.sb3_vec_env import DominionVecEnv   # needs the [train] extra
    sb3_venv = DominionVecEnv(256, opponents="Big Money")

What is here (module: class, what backs it):

* ``common``: ``OPTIONS``, the table of constructor options every face takes.
* ``gym_env``: ``DominionEnv``, Gymnasium single agent ``Dominion-v2``; one ``Game``, bot
  opponents inside its compiled step, Python policy opponents stepped in Python.
* ``vector_env``: ``DominionVectorEnv``, Gymnasium ``VectorEnv`` (``make_vec`` with
  ``vector_entry_point``); one ``VecGame`` in learner mode, bots inside the compiled step.
* ``sb3_vec_env``: ``DominionVecEnv``, SB3 ``VecEnv`` for (Maskable)PPO; the same VecGame.
* ``pettingzoo_env``: ``raw_env`` / ``env()``, PettingZoo AEC ``dominion_v1``, every seat an
  agent; one ``Game``. ``dominion_v1`` is the same under PettingZoo's naming convention.
* ``render``: ``render_game``, the ANSI text of a game by card names.

Actions (every env): ``Discrete(71)``, one space for every decision: 0..63 "this card" (play /
buy / gain / trash / discard / pass / name / topdeck / reveal ... as the pending decision
says), 64..69 "option k" (Pawn, Steward, Minion, Nobles, Torturer choices, yes/no ...), 70 PASS /
DONE / NO / end this phase. ``dominion_env.names.action_name(i)`` names an index. Masks: int8
wherever a library reads them as they come (``info["action_mask"]`` of the Gymnasium single and
vector envs, as ``action_space.sample(mask=...)`` takes it; the ``action_mask`` of the
PettingZoo observation and of the Gymnasium observation with ``mask_in_observation=True``);
bool from ``action_masks()`` on every face (sb3-contrib's MaskablePPO, TorchRL's
MaskedCategorical; PettingZoo: the agent deciding now). A finished episode's mask is all True.

Options: every face takes the same options where they mean something, from one table
(``common.OPTIONS``: the signatures are built from it and the values checked before any work);
``common.FACE_NAMES`` names the faces, and an option given to a face that does not take it is
refused with the reason. Recipes for RLlib, TorchRL and Tianshou: ``docs/recipes.md``.

Observation: float32 vector of ``obs_size(players)`` from the deciding player's honest view, its
seat rotated to 0; layout ``dominion_env.engine.observation.obs_layout`` (``split`` names the
pieces). The Box bounds are per piece: one-hot pieces in [0, 1], counts in [0, B], owned
counts and scores in [-B, B], B = max(10000, 2 * turn_limit * players).

Rewards: only when a game ends: +1 sole winner, 0 shared win, -1 otherwise (rules' tie-break).
A game reaching ``turn_limit`` is truncated with reward 0. Single-agent and vector envs give
the learner its own seat's reward.

The Gymnasium registration below is cheap: entry points are strings, so neither pettingzoo
nor stable_baselines3 (nor this package's env modules) is imported until an env is made.

Versions: ``Dominion-v2`` (Gymnasium, single and vector), ``dominion_v1`` (PettingZoo),
``DominionVecEnv`` v2 (SB3), each module's ``VERSION``; what changed: ``docs/changelog.md``.
"""

from __future__ import annotations

ENV_ID = "Dominion-v2"
_registered = False


def register_envs() -> None:
    """Register ``Dominion-v2`` with Gymnasium (idempotent)."""
    global _registered
    if _registered:
        return
    from gymnasium.envs.registration import register, registry

    if ENV_ID not in registry:
        register(
            id=ENV_ID,
            entry_point="dominion_env.envs.gym_env:DominionEnv",
            vector_entry_point="dominion_env.envs.vector_env:DominionVectorEnv",
            disable_env_checker=False,
        )
    _registered = True


register_envs()

_LAZY = {
    "DominionEnv": ("gym_env", "DominionEnv"),
    "DominionVectorEnv": ("vector_env", "DominionVectorEnv"),
    "DominionVecEnv": ("sb3_vec_env", "DominionVecEnv"),
    "render_game": ("render", "render_game"),
}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        module, attr = _LAZY[name]
        return getattr(importlib.import_module(f".{module}", __name__), attr)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "ENV_ID",
    "register_envs",
    "DominionEnv",
    "DominionVectorEnv",
    "DominionVecEnv",
    "render_game",
]
