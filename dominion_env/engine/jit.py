"""The JIT policy, set in one place: nothing else in the package calls ``numba.njit``.

``njit``    an engine helper: compiled, cached on disk, no GIL, and without Numba's reference
            counting runtime (NRT). With NRT every call that passes arrays (the card table, the
            Config's log buffer, work rows) increments and decrements the count of each of them
            (~120 ns a call, measured when a game's state was a tuple of arrays), which would
            dominate the engine; the price is that helpers never allocate arrays (all work
            space is passed in). Calls are typed without literal values (one compilation per
            argument type, see ``_compile_once_per_type``).
``njit(inline="always")``
            a thin layer (``resolve``, ``new_game``, ...) inlined into its callers at Numba's IR
            level instead of compiled on its own: each separately compiled function re-generates
            machine code for everything it calls (~1.5 s for one that reaches the engine's core,
            measured), so the thin layers on the way there are not compiled on their own.
``switch(name, keys, args, cases, otherwise)``
            a dispatch written as data: an if/elif chain over ``cases`` (key values ->
            function), generated from the list (first-class function tables do not compile
            well), ending in ``otherwise``; inlined into its callers, or (``inline="never"``)
            compiled once on its own, not cached (it has no source file). Card effects and the
            bots' card defaults dispatch through it (``effects.py``, ``bots.py``).
``kernel``  a batch entry point: compiled, cached, parallel over games with ``prange`` (parfors
            need NRT; a kernel calls helpers once per game, so their counting is cheap there).

``prefetch_bytes(a, i, start, stop)``
            a hint, no effect on results: ask the CPU to start loading bytes [start, stop) of
            a[i] (one hint per 64-byte line) so they are in cache when a later iteration reads
            them. Big batches (thousands of games) do not fit in cache, and a game's record is
            read through a chain of dependent loads the hardware prefetcher cannot follow; a
            hint a couple of games ahead halved the step's time per game at batch 4096
            (measured). Without the JIT it does nothing.

With ``NUMBA_DISABLE_JIT=1`` both return the plain Python function (``prange`` is ``range``),
so every kernel line runs as Python for tracebacks and coverage.

Cache keys hold the engine's sources (``ENGINE_DIGEST``, ``_EngineCache``). Numba keys a cached
function by its own bytecode and its own file's time stamp, but a kernel's machine code holds
every helper it calls, compiled in: after a change to ``bots.py`` alone, ``batch.py``'s kernels
loaded from the cache still ran the old bot code (seen when a branch changing the bot tables
was merged). Every cached function's key now also holds a digest of the source of every module
in ``engine/`` and of ``cards.py``, so any change there compiles everything anew.

The first time in a process that Numba compiles one of the package's functions (no cached
machine code: the first run after an install, an engine change or with a new
``NUMBA_CACHE_DIR``), one line on stderr says so and why the wait (``COMPILE_NOTICE``);
Numba reports a compilation as an event, and a load from the cache is none.

Threading layer: Numba's own choice (its GNU OpenMP pool on Linux), the fastest per call here.
That pool, once started, kills a forked child that runs a kernel ("fork() called from a process
already using GNU OpenMP, this is unsafe"). Batches below ``vector.PARALLEL_MIN_GAMES`` games
run through each kernel's serial twin (``kernel``) and never start the pool, so gymnasium's
``AsyncVectorEnv``, Tianshou's ``SubprocVectorEnv`` and TorchRL's ``ParallelEnv`` (which fork
after making one single-game env in the parent) work with the default start method. A process
that ran big batches and then forks needs ``NUMBA_THREADING_LAYER=workqueue`` (fork-safe, but
~120 us per parallel call against ~4 us: measured, ``bench/bench_engine.py``) or a "spawn"
start method. Games do not depend on the layer (each game has its own RNG).
"""

import hashlib
import linecache
import sys
import types as _pytypes
from pathlib import Path

from llvmlite import ir
from numba import njit as _njit
from numba import prange, types
from numba.core import cgutils
from numba.core import config as _config
from numba.core import event as _event
from numba.core.caching import FunctionCache
from numba.extending import intrinsic

__all__ = ["njit", "kernel", "prange", "prefetch_bytes", "switch"]

CACHE_LINE = 64
COMPILE_NOTICE = (
    "dominion_env: compiling the engine's kernels on first use (about 30 s on 2 idle cores; "
    "cached in {where} for later runs)"
)


class _CompileNotice(_event.Listener):
    """Says once per process, on stderr, that the package's kernels are being compiled."""

    said = False

    def on_start(self, ev):
        fn = getattr(ev.data["dispatcher"], "py_func", None)
        if not self.said and getattr(fn, "__module__", "").startswith(__package__.split(".")[0]):
            type(self).said = True
            where = _config.CACHE_DIR or "the package's __pycache__ folders"
            print(COMPILE_NOTICE.format(where=where), file=sys.stderr, flush=True)

    def on_end(self, ev):
        pass


_event.register("numba:compile", _CompileNotice())


def source_digest(files) -> str:
    """A digest of the files' names and contents (the engine's sources: ``ENGINE_DIGEST``)."""
    h = hashlib.sha256()
    for f in sorted(Path(f) for f in files):
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()[:16]


_HERE = Path(__file__).resolve().parent
ENGINE_DIGEST = source_digest([*_HERE.glob("*.py"), _HERE.parent / "cards.py"])


class _EngineCache(FunctionCache):
    """Numba's on-disk cache, keyed also by ``ENGINE_DIGEST`` (see the module docstring)."""

    def _index_key(self, sig, codegen):
        return (*super()._index_key(sig, codegen), ENGINE_DIGEST)


def _engine_cached(dispatcher):
    if hasattr(dispatcher, "enable_caching"):  # absent under NUMBA_DISABLE_JIT
        dispatcher._cache = _EngineCache(dispatcher.py_func)
    return dispatcher


def njit(fn=None, *, inline="never"):
    if fn is None:
        return lambda f: njit(f, inline=inline)
    # no cfunc wrapper: nothing takes an engine function as a first-class function value, and
    # a wrapper is generated and compiled for every helper (~6% of a cold compile, measured)
    dispatcher = _njit(cache=True, nogil=True, _nrt=False, inline=inline, no_cfunc_wrapper=True)(fn)
    _engine_cached(dispatcher)
    if hasattr(dispatcher, "get_call_template"):  # absent under NUMBA_DISABLE_JIT
        _compile_once_per_type(dispatcher)
    return dispatcher


def _compile_once_per_type(dispatcher):
    """Type calls from compiled code by plain types, not by literal values.

    Numba compiles a callee once per distinct *constant* argument (``ask(..., DEC_TRASH, ...)``
    and ``ask(..., DEC_GAIN, ...)`` are two compilations; the engine had 25 of ``log_event``).
    Unliteral argument types make one compilation per type, which cut cold compile time
    several-fold. Constants are still constants inside the caller.

    Integer scalars are typed as int64, too: card ids and counts read from the int8 state, and
    prange's unsigned loop index, would otherwise make an int8 or uint64 compilation of every
    helper they are passed to, beside the int64 one (log_event had 8 compilations,
    ``_step_game`` 2; 194 compilations in all for the engine, 137 after). Values pass
    unchanged: every int the engine hands around fits int64, and uint64 random state travels
    in arrays.
    """
    template = dispatcher.get_call_template

    def get_call_template(args, kws):
        return template(tuple(_plain(a) for a in args), {k: _plain(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template


def _plain(t):
    t = types.unliteral(t)
    return types.int64 if isinstance(t, types.Integer) else t


def switch(name, keys, args, cases, otherwise, inline="always"):
    """A thin engine function ``name(*keys, *args)`` that dispatches on ``keys``::

        def name(k0, k1, a0, a1, ...):
            if k0 == v0 and k1 == v1:         # the values of the first case
                return fn0(a0, a1, ...)       # its function
            elif ...
            return otherwise(k0, k1, a0, a1, ...)

    ``keys`` and ``args`` are parameter names, ``cases`` a sequence of (tuple of key values,
    function), tried in order; values are ints. The source is generated (and registered with
    ``linecache``, so tracebacks show it) and compiled inline into its callers, unless
    ``inline="never"``: then on its own, for a switch whose cases are themselves inlined code
    (Numba types one huge function much more slowly than the same code in two).
    """
    params = ", ".join((*keys, *args))
    lines = [f"def {name}({params}):"]
    namespace = {"_otherwise": otherwise}
    for k, (values, fn) in enumerate(cases):
        if len(values) != len(keys):
            raise ValueError(f"{name}: case {values!r} does not give one value per key {keys}")
        test = " and ".join(f"{key} == {int(v)}" for key, v in zip(keys, values, strict=True))
        lines.append(f"    {'if' if k == 0 else 'elif'} {test}:")
        lines.append(f"        return _case{k}({', '.join(args)})")
        namespace[f"_case{k}"] = fn
    lines.append(f"    return _otherwise({params})")
    source = "\n".join(lines) + "\n"
    filename = f"<switch {name}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)
    fn = namespace[name]
    fn.__doc__ = f"Generated by jit.switch: dispatch on {', '.join(keys)} over {len(cases)} cases."
    # no source file to cache it by: compiled inline into cached callers, or once a process
    dispatcher = _njit(nogil=True, _nrt=False, inline=inline, no_cfunc_wrapper=True)(fn)
    if inline != "always" and hasattr(dispatcher, "get_call_template"):
        _compile_once_per_type(dispatcher)
    return dispatcher


def kernel(fn):
    """A batch kernel: its rows in parallel (prange over Numba's thread pool) and, as
    ``.serial``, the same code on the calling thread (prange runs as range), compiled the first
    time it is called. Small batches run serially (``VecGame``): no thread pool is woken per
    call, and none is started, so a process that played only small batches (a ``Game``, the
    single-game envs) may fork. The twin has a name of its own so the two never share a cache
    entry (Numba's cache key does not hold the ``parallel`` flag)."""
    parallel = _engine_cached(
        _njit(cache=True, nogil=True, parallel=True, no_cfunc_wrapper=True)(fn)
    )
    twin = _pytypes.FunctionType(
        fn.__code__, fn.__globals__, fn.__name__ + "_serial", fn.__defaults__, fn.__closure__
    )
    twin.__qualname__ = fn.__qualname__ + "_serial"
    twin.__doc__ = fn.__doc__
    parallel.serial = _engine_cached(_njit(cache=True, nogil=True, no_cfunc_wrapper=True)(twin))
    return parallel


def _prefetch_codegen(context, builder, signature, args):
    array, index, start, stop = args
    data = context.make_array(signature.args[0])(context, builder, array)
    i8p = ir.IntType(8).as_pointer()
    base = builder.gep(
        builder.bitcast(data.data, i8p),
        [builder.mul(index, builder.extract_value(data.strides, 0))],
    )
    i32 = ir.IntType(32)
    hint = cgutils.get_or_insert_function(
        builder.module, ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32]), "llvm.prefetch.p0"
    )
    # rw = 1 (the step writes most of what it reads), locality 3 (keep in every level), data
    args = [ir.Constant(i32, 1), ir.Constant(i32, 3), ir.Constant(i32, 1)]
    with cgutils.for_range_slice(builder, start, stop, ir.Constant(start.type, CACHE_LINE)) as (
        offset,
        _,
    ):
        builder.call(hint, [builder.gep(base, [offset])] + args)
    return context.get_dummy_value()


@intrinsic
def _prefetch_intrinsic(typingctx, array, index, start, stop):
    if not (
        isinstance(array, types.Array)
        and all(isinstance(t, types.Integer) for t in (index, start, stop))
    ):
        return None
    return types.void(array, types.int64, types.int64, types.int64), _prefetch_codegen


def _prefetch_python(array, index, start, stop):
    """No JIT: a hint has nothing to do."""


prefetch_bytes = _prefetch_python if _config.DISABLE_JIT else _prefetch_intrinsic
