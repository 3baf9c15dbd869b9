"""The JIT policy, set in one place: nothing else in the package calls ``numba.njit``.

``njit``    an engine helper: compiled, cached on disk, no GIL, and without Numba's reference
            counting runtime (NRT). With NRT every call that passes the State tuple increments
            and decrements the count of each of its arrays (~120 ns a call, measured), which
            would dominate the engine; the price is that helpers never allocate arrays (all work
            space is passed in).
``kernel``  a batch entry point: compiled, cached, parallel over games with ``prange`` (parfors
            need NRT; a kernel calls helpers once per game, so their counting is cheap there).

With ``NUMBA_DISABLE_JIT=1`` both return the plain Python function (``prange`` is ``range``),
so every kernel line runs as Python for tracebacks and coverage.
"""

from numba import njit as _njit
from numba import prange

__all__ = ["njit", "kernel", "prange"]


def njit(fn):
    return _njit(cache=True, nogil=True, _nrt=False)(fn)


def kernel(fn):
    return _njit(cache=True, nogil=True, parallel=True)(fn)
