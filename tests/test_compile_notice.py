"""The one-line notice on stderr while the package's kernels compile (``engine.jit``)."""

import subprocess
import sys
import textwrap

from dominion_env.engine.jit import COMPILE_NOTICE

# a fresh process (the notice is once per process); tiny functions stand in for the kernels,
# one counted as the package's by its module name, one a user's own
SCRIPT = textwrap.dedent(
    """
    import sys
    from numba import njit
    import dominion_env.engine.jit

    def users(x):
        return x + 1

    def ours(x):
        return x + 2

    def ours_too(x):
        return x * 2

    ours.__module__ = ours_too.__module__ = "dominion_env.engine.stand_in"
    njit(users)(1)
    print("after the user's function", file=sys.stderr, flush=True)
    njit(ours)(1)
    njit(ours_too)(1)
    njit(ours)(1.5)
    """
)


def test_notice_once_when_the_package_compiles():
    err = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True
    ).stderr
    head = COMPILE_NOTICE.split("{")[0]
    lines = err.splitlines()
    assert lines[0] == "after the user's function"  # a user's own compilation says nothing
    assert sum(line.startswith(head) for line in lines) == 1, err
    assert lines[1].startswith(head)


def test_cache_keys_hold_the_engine_sources(tmp_path):
    """A kernel's machine code holds the helpers it calls, so its cache key holds a digest of
    every engine source: a change to bots.py alone must not load batch.py's old code."""
    import numba
    import pytest

    from dominion_env.engine import jit
    from dominion_env.engine.batch import bot_actions_kernel

    if numba.config.DISABLE_JIT:
        pytest.skip("NUMBA_DISABLE_JIT=1: no machine code, so nothing is cached")

    for f in ("a.py", "b.py"):
        (tmp_path / f).write_text(f"x = {f!r}\n")
    before = jit.source_digest(tmp_path.glob("*.py"))
    (tmp_path / "b.py").write_text("x = 'changed'\n")
    assert jit.source_digest(tmp_path.glob("*.py")) != before
    cache = bot_actions_kernel._cache
    assert isinstance(cache, jit._EngineCache)
    assert isinstance(bot_actions_kernel.serial._cache, jit._EngineCache)
    key = cache._index_key((), bot_actions_kernel.targetctx.codegen())
    assert key[-1] == jit.ENGINE_DIGEST
