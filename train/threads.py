"""Whether torch's and Numba's OpenMP pools sleep between parallel regions
(``PASSIVE_POOLS``), decided when ``dominion_env.train`` is first imported, before either pool
starts: it sets ``OMP_WAIT_POLICY=PASSIVE`` unless set (the package docstring says why).
"""

import os
import sys

import numba


def _pools_started() -> bool:
    """Whether an OpenMP runtime already read its settings: torch imported, or Numba's pool
    started (``numba.threading_layer`` refuses before)."""
    try:
        numba.threading_layer()
    except ValueError:
        return "torch" in sys.modules
    return True


# PASSIVE_POOLS: both runtimes sleep between parallel regions, so torch may take several
# threads in the update (``ppo.Trainer.update_threads``). Where one started spinning first
# (dominion_env's games played before this import, as a notebook does), a 2-thread update
# took 2.5x the time of a 1-thread one (measured): the update keeps ``torch_threads`` then.
# A policy found set was set by someone on purpose, before the runtimes started (a script's
# first lines, the shell).
_policy = os.environ.get("OMP_WAIT_POLICY")
PASSIVE_POOLS = _policy.upper() == "PASSIVE" if _policy is not None else not _pools_started()
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
