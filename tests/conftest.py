"""Set-up for a test run on several cores (pytest-xdist: ``-n auto``, in pyproject's addopts).

* The kernels are compiled once, before the workers start: the controller runs
  ``warm_kernels.py``'s parts side by side, each filling Numba's on-disk cache, so that the
  workers load the machine code instead of each compiling the same kernels (a run on a fresh
  clone). Nothing happens in a run on one process (``-n 0``, ``-p no:xdist``): it compiles
  what it uses, as before.
* A module whose tests share a module-scoped fixture (a trained agent, a built site, a long
  differential run) runs on one worker (``pytest_xdist_make_scheduler``), so the fixture is
  made once per run, not once per worker; every other test is scheduled on its own.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
SHARED_FIXTURE = re.compile(r"@pytest\.fixture\([^)]*scope=\"(module|package|session)\"")


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


def shared_modules(root: Path) -> set[str]:
    """The test modules (as node ids name them) that define a fixture shared beyond one test:
    scope "module", "package" or "session"."""
    return {
        path.relative_to(root).as_posix()
        for path in HERE.glob("test_*.py")
        if SHARED_FIXTURE.search(path.read_text(encoding="utf-8"))
    }


@pytest.hookimpl(tryfirst=True, optionalhook=True)  # optional: xdist's hook
def pytest_xdist_make_scheduler(config, log):
    """xdist's "load" scheduling (every test its own unit), but a module in ``shared_modules``
    one unit: its tests run on one worker, one after another, and its shared fixture is made
    once. (xdist's own ``--dist loadgroup`` renames the test ids to group them, which pytest
    9 no longer lets a plugin do.)"""
    if config.getvalue("dist") != "load":
        return None  # another --dist asked for: xdist's own
    from xdist.scheduler import LoadScopeScheduling

    shared = shared_modules(config.rootpath)

    class SharedModulesTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return module if module in shared else nodeid

    return SharedModulesTogether(config, log)
