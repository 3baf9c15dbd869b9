"""Where independent pieces of work run: here, one after another, or as Ray tasks on a cluster.

An executor is a ``map``: ``executor(fn, items)`` returns an iterable of ``fn(item)`` for each
item, in the order of ``items``. The analysis runners take one (``map=``) and hand it their
independent pieces: the tables of a tournament (``tournament.run_tournament``), the chunks of
games of a match (``arena.play_games``), an evaluation's chunks (``dominion_env.train.evaluate``).
Each piece is seeded by its position in the run (table seeds from ``planning.table_seed``, game
``first_index + g`` of a chunk), never by what ran before it, so every executor gives the same
results for the same seed, bit for bit.

``local_map``   Python's ``map``: each piece in this process, in order (the default).
``RayMap(address=None)``
                each piece a Ray task; ``address`` None starts (or joins, see ``ray.init``) a
                local cluster of this machine's cores, ``"auto"`` joins the cluster this machine
                belongs to, ``"ray://host:10001"`` a remote one. ``fn`` is shipped once (in
                Ray's object store), the results come back in item order; what travels is
                pickled (items, ``fn`` and results), so ``fn`` is a module-level function or a
                ``functools.partial`` of one, and arrays arrive writable. Workers import
                ``dominion_env`` themselves: on a cluster every node needs it installed (or a
                Ray ``runtime_env``), and each worker compiles or loads the kernels from its
                own ``NUMBA_CACHE_DIR`` (set here, when unset, to one folder shared by every
                worker of the machine, so a node compiles each kernel once). A task takes one
                CPU and its kernels one thread (``NUMBA_NUM_THREADS=1``): Ray runs as many
                tasks at once as there are CPUs. Both are set when ``RayMap`` starts Ray; a
                cluster started by the caller keeps its own environment.

Ray is an optional extra (``pip install -e ".[ray]"``), imported when a ``RayMap`` is made.
"""

from __future__ import annotations

import os
import pickle
import tempfile
from pathlib import Path

from ..extras import require

__all__ = ["local_map", "RayMap", "ray_cache_dir", "add_ray_option", "executor_for"]

local_map = map


def ray_cache_dir() -> str:
    """The kernel cache the Ray workers of this machine share: this process's
    ``NUMBA_CACHE_DIR`` if set, else a folder in the temp directory."""
    return os.environ.get("NUMBA_CACHE_DIR") or str(
        Path(tempfile.gettempdir()) / "dominion_env_numba_cache"
    )


def _call(fn_blob, item_blob):
    # pickled both ways: numpy arrays Ray hands over zero-copy are read-only, which the kernels
    # refuse to write and type apart (a read-only array would compile every kernel again)
    fn = pickle.loads(fn_blob)
    return pickle.dumps(fn(pickle.loads(item_blob)), protocol=pickle.HIGHEST_PROTOCOL)


def _dumps(obj) -> bytes:
    return pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)


class RayMap:
    """Run each item's ``fn(item)`` as a Ray task (module docstring)."""

    def __init__(self, address: str | None = None, **init_kwargs):
        ray = require("ray", "RayMap (running work as Ray tasks)")
        self._ray = ray
        if not ray.is_initialized():
            # a task takes one CPU (Ray's default), so its kernels run on one thread
            env = {"NUMBA_CACHE_DIR": ray_cache_dir(), "NUMBA_NUM_THREADS": "1"}
            runtime_env = dict(init_kwargs.pop("runtime_env", None) or {})
            runtime_env["env_vars"] = {**env, **runtime_env.get("env_vars", {})}
            init_kwargs.setdefault("include_dashboard", False)
            init_kwargs.setdefault("log_to_driver", True)
            ray.init(address=address, runtime_env=runtime_env, **init_kwargs)
        self._call = ray.remote(_call)

    def __call__(self, fn, items):
        ray = self._ray
        fn_ref = ray.put(_dumps(fn))
        refs = [self._call.remote(fn_ref, _dumps(item)) for item in items]
        return (pickle.loads(ray.get(ref)) for ref in refs)

    def __repr__(self) -> str:
        return f"RayMap({self._ray.get_runtime_context().gcs_address!r})"


def add_ray_option(parser) -> None:
    """The command line's ``--ray [ADDRESS]`` (simulate, tournament, evaluate): read it with
    ``executor_for(args.ray)``."""
    parser.add_argument(
        "--ray",
        nargs="?",
        const="",
        metavar="ADDRESS",
        help="play the pieces (tables, chunks of games) as Ray tasks: without ADDRESS on a "
        "local cluster of this machine's cores, 'auto' or ray://HOST:PORT on a running "
        "cluster; the same results as without --ray (needs the ray extra)",
    )


def executor_for(ray_address: str | None):
    """``--ray``'s value as an executor: None (no --ray) runs here, "" a local Ray cluster,
    anything else the Ray cluster at that address. Raises ``ImportError`` naming the extra
    when Ray is not installed."""
    if ray_address is None:
        return local_map
    return RayMap(ray_address or None)
