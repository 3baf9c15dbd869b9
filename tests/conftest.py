"""Set-up for a test run on several cores (pytest-xdist: ``-n auto``, in pyproject's addopts).

* The kernels are compiled once, before the workers start: the controller runs
  ``warm_kernels.py``'s parts side by side, each filling Numba's on-disk cache, so that the
  workers load the machine code instead of each compiling the same kernels (a run on a fresh
  clone). Nothing happens in a run on one process (``-n 0``, ``-p no:xdist``): it compiles
  what it uses, as before.
* A module whose tests share a module-scoped fixture (a trained agent, a built site, a long
  differential run) runs on one worker (``--dist loadgroup``, the group named for the
  module), so the fixture is made once per run, not once per worker.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SHARED_SCOPES = ("module", "package", "session")


def _workers(config) -> int:
    n = getattr(config.option, "numprocesses", None)
    return n if isinstance(n, int) else 0


def pytest_configure(config):
    if hasattr(config, "workerinput") or _workers(config) < 2:
        return  # a worker (the controller warmed the cache), or one process
    from warm_kernels import PARTS

    start = time.perf_counter()
    runs = [
        subprocess.Popen([sys.executable, str(HERE / "warm_kernels.py"), str(i)], cwd=HERE.parent)
        for i in range(len(PARTS))
    ]
    failed = [i for i, run in enumerate(runs) if run.wait() != 0]
    if failed:  # the tests then compile what they use and say what is wrong
        print(f"warm_kernels.py parts {failed} failed", file=sys.stderr)
    if config.option.verbose >= 0:
        print(f"kernels warmed in {time.perf_counter() - start:.0f} s", file=sys.stderr)


@pytest.hookimpl(tryfirst=True)  # before xdist's own hook reads the groups
def pytest_collection_modifyitems(config, items):
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        module = item.nodeid.split("::")[0]
        for defs in info.name2fixturedefs.values():
            if any(d.scope in SHARED_SCOPES and d.baseid.startswith(module) for d in defs):
                item.add_marker(pytest.mark.xdist_group(module))
                break
