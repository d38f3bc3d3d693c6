"""The one place that sets the Numba options every kernel uses."""

import functools
import inspect
import sys
import threading
import warnings

import numba
from numba import config, njit
from numba.core import inline_closurecall, types, untyped_passes
from numba.core.compiler_lock import global_compiler_lock
from numba.core.errors import NumbaPerformanceWarning
from numba.core.cpu_options import ParallelOptions
from numba.core.registry import CPUDispatcher

from bower.kernels.cache import KernelCache

JIT_OPTIONS = dict(cache=True, nogil=True, error_model="numpy", boundscheck=False)

# A chunk kernel's ``parallel`` option: Numba's parallel pipeline with every conversion to a parallel loop turned
# off. Its passes still rewrite the (inlined) body, and the hands run about 20% faster than through the plain
# pipeline; without a ``prange`` the body is compiled once, not again as a gufunc (benchmarks/RESULTS.md). No
# loop becomes parallel, so the kernel never enters Numba's threading layer and Python threads may run it at once.
# (An instance, not a dict: Numba empties a dict of options as it reads it, so a second signature would get them
# all turned on.)
PARFOR_PASSES = ParallelOptions(dict(comprehension=False, reduction=False, inplace_binop=False, setitem=False,
                                     numpy=False, stencil=False, fusion=False, prange=False))


# Types whose values are never None: an argument of one of them makes ``arg is None`` False and ``arg is not None``
# True before typing (``_dead_branch_prune``).
_NEVER_NONE = (types.Array, types.Number, types.Boolean, types.BaseTuple)


class _NotNone:
    """An argument type that can never hold None, as Numba's dead-branch pruning reads a known argument: its
    ``literal_type`` is compared with None (``is`` / ``is not``) and nothing else."""

    def __init__(self, ty):
        self.literal_type = ty


_numba_dead_branch_prune = untyped_passes.dead_branch_prune


def _dead_branch_prune(func_ir, called_args):
    """Numba's dead-branch pruning, which also prunes ``arg is None`` for an argument that cannot be None.

    Numba prunes a branch on ``arg is None`` before typing only when ``arg``
    is None (its type ``none``): with ``search`` an array, every ``if search
    is None:`` arm of a searched kernel was typed and compiled though it can
    never run, the heuristic hand's code among it. Here an argument whose
    type is an array, a number, a boolean or a tuple counts as known not to
    be None, so the arm is pruned in both specializations; comparisons with
    anything else are left as Numba leaves them (benchmarks/RESULTS.md).
    """
    if called_args:
        called_args = tuple(_NotNone(t) if isinstance(t, _NEVER_NONE) else t for t in called_args)
    return _numba_dead_branch_prune(func_ir, called_args)


untyped_passes.dead_branch_prune = _dead_branch_prune  # the name Numba's DeadBranchPrune pass calls


class _NoCopy:
    """Stands in for the ``copy`` module inside Numba's ``inline_closurecall`` while a kernel inlines a fresh IR:
    its ``deepcopy`` returns the object itself (``_inline_function``)."""

    @staticmethod
    def deepcopy(x, memo=None):
        return x


_numba_inline_function = inline_closurecall.InlineWorker.inline_function


def _inline_function(self, caller_ir, block, i, function, arg_typs=None):
    """Numba's inlining of an ``inline="always"`` kernel, without the two deep copies of the callee's IR.

    Numba builds the callee's IR afresh from its bytecode for every call
    site it inlines (``run_untyped_passes``), then deep-copies it twice in
    ``inline_ir``: once to mutate and once to hand back unmutated, a copy
    both of Numba's callers of ``inline_function`` discard. The fresh IR is
    held by nothing else, so it is mutated in place: the copies were a
    quarter of the compiling of a variant's hand, game and advice kernels
    (benchmarks/RESULTS.md). Numba 0.60 to 0.68 (pyproject.toml) copy and
    discard as described; ``tests/test_compile_scope.py`` checks a kernel
    inlined at several sites of one caller and into two callers. Kernels
    compile one at a time, under Numba's compiler lock, so the module's
    ``copy`` is swapped only while this call holds it.
    """
    with global_compiler_lock:
        saved = inline_closurecall.copy
        inline_closurecall.copy = _NoCopy
        try:
            return _numba_inline_function(self, caller_ir, block, i, function, arg_typs)
        finally:
            inline_closurecall.copy = saved


inline_closurecall.InlineWorker.inline_function = _inline_function


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
        """Type a call from another kernel with the arguments' literal types made plain, and a left-out argument
        whose default is None typed ``none``, as a call from Python passes it (Numba types it ``omitted``, and a
        kernel called both ways, ``f(x)`` and ``f(x, None)``, compiled twice: Euchre's and Hasenpfeffer's
        ``play_dealt``, about 5 CPU s each)."""
        args = tuple(types.unliteral(a) for a in args)
        kws = {k: types.unliteral(v) for k, v in kws.items()}
        for name, at in self._none_defaults().items():
            if at >= len(args) and name not in kws:
                kws[name] = types.none
        return super().get_call_template(args, kws)

    def _none_defaults(self) -> dict:
        """{name: position} of the parameters whose default is None, found once a kernel."""
        found = self.__dict__.get("_none_params")
        if found is None:
            params = inspect.signature(self.py_func).parameters.values()
            found = {p.name: i for i, p in enumerate(params) if p.default is None}
            self._none_params = found
        return found

    def compile(self, sig):
        """Numba's compile; a kernel given ``PARFOR_PASSES`` compiles without Numba's warning that no loop became
        parallel (none is meant to; the message may start with terminal colour codes)."""
        if not self.targetoptions.get("parallel"):
            return super().compile(sig)
        with global_compiler_lock, warnings.catch_warnings():  # the lock first: one thread's filters at a time
            warnings.filterwarnings("ignore", category=NumbaPerformanceWarning,
                                    message=r"(\x1b\[[0-9;]*m|\s)*The keyword argument 'parallel=True' was specified")
            return super().compile(sig)

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


# How long the main thread waits on a chunk kernel's workers between two chances to run a signal handler.
WAIT_SLICE = 0.05

_left: list[threading.Thread] = []  # workers of calls the main thread left by an exception (a stop)
_wait_check: list = [None]  # ``set_wait_check``'s function, or None


def set_wait_check(fn) -> None:
    """Have the main thread call ``fn()`` as it starts a chunk kernel call and between two slices of its wait.

    For the CLI's signal handling: ``fn`` raises a stop whose signal the
    handler took but whose exception never reached the command (C code that
    clears Python's errors, as Numba's dispatcher does around the Python it
    calls, can swallow it: the run then went on, every later signal
    ignored). None: no check.
    """
    _wait_check[0] = fn


def wait_check() -> None:
    """Call ``set_wait_check``'s function, if one is set, from the main thread (elsewhere: nothing).

    For other waits of the main thread on work elsewhere (a Dask task).
    """
    check = _wait_check[0]
    if check is not None and threading.current_thread() is threading.main_thread():
        check()


def left_running() -> list[threading.Thread]:
    """The chunk kernels' worker threads still running a call that the main thread left by an exception.

    Nothing stops them inside the kernel; a process that ends while they
    run can end without waiting (the CLI does: ``bower.sim.cli.main``).
    """
    _left[:] = [th for th in _left if th.is_alive()]
    return list(_left)


def _importing() -> bool:
    """Whether the calling thread is importing a module (a kernel called at a module's top level): it then holds
    that module's import lock, which a compile in another thread may need."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib._bootstrap"):
            return True
        frame = frame.f_back
    return False


class ChunkKernel:
    """A kernel over independent chunks, run by ``numba.get_num_threads()`` threads.

    The compiled kernel (``self.kernel``) takes the chunk range ``lo, hi`` before
    its other arguments and loops ``for ci in range(lo, hi)``; calling this
    object with the other arguments runs every chunk, the range cut into one
    contiguous share per thread. The kernel releases the GIL (``nogil``), so
    the shares run at once, and each chunk writes only its own rows, so the
    results never depend on the threads. Numba's ``prange`` did the same and
    cost a variant's first ``bower simulate`` 15 to 37 CPU seconds more of
    compiling (benchmarks/RESULTS.md). Other attributes (``stats``,
    ``signatures``, ``py_func``...) are the compiled kernel's.
    """

    def __init__(self, dispatcher, count):
        self.kernel = dispatcher
        self.count = count
        functools.update_wrapper(self, dispatcher.py_func)

    def __getattr__(self, name):
        return getattr(self.__dict__["kernel"], name)

    def __call__(self, *args):
        """Run all chunks of the call ``args`` (the kernel's arguments after ``lo, hi``).

        Called from the main thread, every share runs in a worker thread and
        the main thread waits for them in slices of ``WAIT_SLICE`` seconds, so
        that a signal's Python handler runs within one slice, not after the
        call (a PIMC call can take minutes; the handler runs only in the main
        thread, between bytecodes). An exception there (the handler's
        ``KeyboardInterrupt``, a ``Terminated``) propagates at once; the
        workers, which nothing can stop inside the kernel, are left running
        (``left_running``): daemon threads that write only into this call's
        arrays, which nobody reads after the exception. From any other thread
        the calling thread runs share 0 itself, as no signal handler runs
        there.
        """
        n = int(self.count(*args))
        threads = max(1, min(numba.get_num_threads(), n))
        cuts = [n * t // threads for t in range(threads + 1)]
        errors = [None] * threads
        main = threading.current_thread() is threading.main_thread()
        first = 0 if main else 1  # off the main thread the calling thread runs share 0: no worker at one thread
        left = [threads - first]  # workers still in the kernel
        lock, done = threading.Lock(), threading.Lock()  # ``done`` is released by the last worker out
        done.acquire()

        def share(t):
            try:
                self.kernel(cuts[t], cuts[t + 1], *args)
            except BaseException as e:  # noqa: B036  (re-raised in the calling thread)
                errors[t] = e
            finally:
                if t >= first:
                    with lock:
                        left[0] -= 1
                        if not left[0]:
                            done.release()

        check = _wait_check[0] if main else None
        if check is not None:
            check()
        if main and _importing():
            # compiled (or loaded from the cache) here, on an empty range, before any worker runs it: a worker
            # compiling while this thread holds an import's lock would wait for that lock, and this thread for
            # the worker, for ever
            self.kernel(0, 0, *args)
        workers = [threading.Thread(target=share, args=(t,), daemon=True, name=f"bower-kernel-{t}")
                   for t in range(first, threads)]
        for th in workers:
            th.start()
        if main:
            # a bare lock's timed acquire, one C call that a signal's exception leaves whole: not Thread.join (one
            # that an exception interrupts marks a thread still running as stopped, in Python 3.11's threading, and
            # ``left_running`` would miss it), nor an Event (an exception inside its Condition's Python code can
            # leave that lock released twice: "RuntimeError: release unlocked lock" instead of the stop)
            try:
                while not done.acquire(timeout=WAIT_SLICE):
                    if check is not None:
                        check()
                for th in workers:
                    th.join()  # out of the kernel already: a moment
            except BaseException:
                _left.extend(th for th in workers if th.is_alive())
                raise
        else:
            try:
                share(0)
            finally:
                for th in workers:
                    th.join()
        for e in errors:
            if e is not None:
                raise e


def chunk_kernel(fn=None, *, count=None):
    """``@chunk_kernel``: a ``@kernel`` whose first two arguments are a chunk range, called as a ``ChunkKernel``.

    ``count(*args)`` gives the number of chunks of a call; by default the
    first argument's rows (``states.shape[0]``, one RNG state per chunk).
    """
    if fn is None:
        return lambda f: chunk_kernel(f, count=count)
    return ChunkKernel(kernel(fn, parallel=PARFOR_PASSES), count or _rows)


def _rows(first, *rest):
    return first.shape[0]
