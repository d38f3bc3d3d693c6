"""The one place that sets the Numba options every kernel uses."""

from numba import config, njit
from numba.core import types
from numba.core.registry import CPUDispatcher

from bower.kernels.cache import KernelCache

JIT_OPTIONS = dict(cache=True, nogil=True, error_model="numpy", boundscheck=False)


class KernelDispatcher(CPUDispatcher):
    """A kernel's dispatcher: a call from another kernel compiles it for its arguments' plain types.

    Numba types a constant argument (``f(x, 2)``, ``f(x, True)``, a variable
    first set to a constant) as a literal, and a kernel called with a literal
    compiles a version of its own for that value, and so does every kernel it
    calls on: in one run of the test suite's compiling that was one kernel in
    ten compiled two to four times over. Here the literal types become plain
    ``int64`` and ``bool`` before the call is typed, so each kernel compiles
    once per argument layout. A constant still reaches the callee's code where
    LLVM inlines the call; where it does not, the callee tests the value at run
    time (the records and summaries are the same; benchmarks/RESULTS.md has the
    speed measured after the change).
    """

    def get_call_template(self, args, kws):
        """Type a call from another kernel with the arguments' literal types made plain."""
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        return super().get_call_template(args, kws)

    def enable_caching(self):
        """Cache in ``config.CACHE_DIR`` with a stamp of the kernel's file and its dependencies (``cache.py``);
        no cache when no folder is set or the function has no source file."""
        if not config.CACHE_DIR:
            return
        try:
            self._cache = KernelCache(self.py_func)
        except RuntimeError:  # no locator: a function without a source file (``python -c``, a notebook cell)
            pass


def _make(fn, opts):
    """Wrap ``fn`` in a cached ``KernelDispatcher`` with the options ``opts``."""
    if config.DISABLE_JIT:
        return njit(**opts)(fn)
    opts = dict(opts, nopython=True)
    cache = opts.pop("cache", False)
    disp = KernelDispatcher(py_func=fn, locals={}, targetoptions=opts)
    if cache:
        disp.enable_caching()
    return disp


def kernel(fn=None, **extra):
    """``@kernel``: ``numba.njit`` with the project's options (cached by dependencies, no GIL, numpy error model)."""
    opts = dict(JIT_OPTIONS, **extra)
    if fn is None:
        return lambda f: _make(f, opts)
    return _make(fn, opts)
