"""The JIT policy, set in one place: nothing else in the package calls ``numba.njit``.

``njit``   a compiled helper, cached on disk, no GIL.
``kernel`` a batch entry point: compiled, cached, parallel over games with ``prange``.

With ``NUMBA_DISABLE_JIT=1`` both return the plain Python function (``prange`` is ``range``),
so every kernel line runs as Python for tracebacks and coverage.
"""

from numba import njit as _njit
from numba import prange

__all__ = ["njit", "kernel", "prange"]


def njit(fn):
    return _njit(cache=True, nogil=True)(fn)


def kernel(fn):
    return _njit(cache=True, nogil=True, parallel=True)(fn)
