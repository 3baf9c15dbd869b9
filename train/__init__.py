"""Training agents on the batched engine (installed as ``dominion_env.train``).

    dominion train --minutes 10                       # the defaults: see settings.TrainConfig
    from dominion_env.train import TrainConfig, train, load_agent, evaluate

``ppo``         our PPO on VecGame with torch (``Trainer``, ``train``): gamma 1,
                potential-based VP shaping, scaled observations, an imitation warm start, an
                opponent pool of library bots, past snapshots (self-play) and saved agents.
                The default trainer; its parts:
``settings``    ``TrainConfig``, the settings' bounds and ``check_config``.
``experience``  one rollout's storage and its advantages (GAE).
``imitation``   the imitation warm start (an expert's decisions, behaviour cloning).
``teacher``     the search as a teacher during PPO (expert iteration).
``checkpoint``  the checkpoint that resumes a run; the progress log and curve.
``opponents``  where the learner's games come from: compiled bots in the step (learner mode),
                or policies answering the other seats of an all-external VecGame.
``policy``      the network, batched masked sampling, saving and loading agents (shipped
                agents: ``policy.shipped_agents()``).
``sparse``      the network's first layer on the observation's non-zero entries (the
                trainer's CPU path: the same function, about half the update's work).
``tensorfile``  the agent and checkpoint file format (tensors + JSON; loading runs no code)
                and ``AgentFileError``; ``legacy.convert`` rewrites format-1 (pickled) files
                one trusts.
``evaluate``    an agent against bots: W/T/L with 95% intervals, VP margin, length, buys.
``search_network``  a trained agent as the guided search's network (``search:AGENT:N``).
``selfplay``    Expert Iteration on the guided search (``dominion selfplay``): generations of
                searched games (self-play and a league), the network learning the search's
                improved policy and the results; ``replay_buffer`` holds the decisions.
``maskable_ppo``  sb3-contrib's MaskablePPO on the SB3 VecEnv (kept working; slower per step).

Needs the ``train`` extra (torch). Importing this package sets ``OMP_WAIT_POLICY=PASSIVE``
unless set: torch and Numba each bring an OpenMP runtime, and with both spinning after their
parallel regions a VecGame step took 18 ms instead of 0.6 ms on 2 cores (measured). It must be
set before either runtime starts, hence here, at import. (Numba's OpenMP pool starts with the
first batch of 64 games or more; smaller batches run serially, ``engine/jit.py``.) Import this
package before playing big batches (or set ``OMP_WAIT_POLICY=PASSIVE`` in the environment):
otherwise the update stays on ``torch_threads`` (``threads.PASSIVE_POOLS``).
"""

from ..extras import require
from .threads import PASSIVE_POOLS as PASSIVE_POOLS  # read by the trainers

require("torch", "dominion_env.train (training, trained agents)")  # one clear error, first

from .evaluate import evaluate  # noqa: E402
from .legacy import convert  # noqa: E402
from .policy import Agent, load_agent, save_agent, shipped_agents  # noqa: E402
from .ppo import Trainer, train  # noqa: E402
from .settings import TrainConfig  # noqa: E402
from .tensorfile import AgentFileError  # noqa: E402

__all__ = [
    "Agent",
    "AgentFileError",
    "TrainConfig",
    "Trainer",
    "convert",
    "evaluate",
    "load_agent",
    "save_agent",
    "shipped_agents",
    "train",
]
