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
