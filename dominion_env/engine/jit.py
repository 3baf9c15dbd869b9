"""The JIT policy, set in one place: nothing else in the package calls ``numba.njit``.

``njit``    an engine helper: compiled, cached on disk, no GIL, and without Numba's reference
            counting runtime (NRT). With NRT every call that passes the State tuple increments
            and decrements the count of each of its arrays (~120 ns a call, measured), which
            would dominate the engine; the price is that helpers never allocate arrays (all work
            space is passed in). Calls are typed without literal values (one compilation per
            argument type, see ``_compile_once_per_type``).
``kernel``  a batch entry point: compiled, cached, parallel over games with ``prange`` (parfors
            need NRT; a kernel calls helpers once per game, so their counting is cheap there).

With ``NUMBA_DISABLE_JIT=1`` both return the plain Python function (``prange`` is ``range``),
so every kernel line runs as Python for tracebacks and coverage.
"""

from numba import njit as _njit
from numba import prange, types

__all__ = ["njit", "kernel", "prange"]


def njit(fn):
    dispatcher = _njit(cache=True, nogil=True, _nrt=False)(fn)
    if hasattr(dispatcher, "get_call_template"):  # absent under NUMBA_DISABLE_JIT
        _compile_once_per_type(dispatcher)
    return dispatcher


def _compile_once_per_type(dispatcher):
    """Type calls from compiled code by plain types, not by literal values.

    Numba compiles a callee once per distinct *constant* argument (``ask(..., DEC_TRASH, ...)``
    and ``ask(..., DEC_GAIN, ...)`` are two compilations; the engine had 25 of ``log_event``).
    Unliteral argument types make one compilation per type, which cut cold compile time
    several-fold. Constants are still constants inside the caller.
    """
    template = dispatcher.get_call_template

    def get_call_template(args, kws):
        return template(tuple(types.unliteral(a) for a in args),
                        {k: types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template


def kernel(fn):
    return _njit(cache=True, nogil=True, parallel=True)(fn)
