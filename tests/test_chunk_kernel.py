"""``kernels/jit.py``'s ``chunk_kernel``: every chunk run exactly once, by worker threads (and the calling thread off
the main thread), and a signal's handler that raises ends a long call at once.

The drivers of every variant (``simulate_chunks``, ``games_chunks``, ``advice_chunks``...) are chunk kernels;
their results at one and at two threads are compared in the variants' own tests (``tests/chunks.py``). Here the
launcher itself: the shares it cuts, a fault in another thread, the attributes it passes through.
"""

from __future__ import annotations

import signal
import threading
import time
import warnings

import numba
import numpy as np
import pytest

from bower.kernels.jit import ChunkKernel, chunk_kernel, left_running
from bower.sim import runner


@chunk_kernel
def _mark(lo, hi, states, out, calls):
    """Each chunk ``ci`` adds ``ci + 1`` to ``out[ci]``; ``calls[lo]`` counts the shares starting at ``lo``."""
    calls[lo] += 1
    for ci in range(lo, hi):
        out[ci] += ci + 1 + states[ci, 0]


def _pairs(hands, chunk_size, out):
    return -(-hands.shape[0] // chunk_size)


@chunk_kernel(count=_pairs)
def _sum_rows(lo, hi, hands, chunk_size, out):
    """Rows ``ci * chunk_size ..`` of ``hands`` summed into ``out`` (a count of chunks that is not a shape)."""
    for ci in range(lo, hi):
        for i in range(ci * chunk_size, min((ci + 1) * chunk_size, hands.shape[0])):
            out[i] = hands[i].sum()


@chunk_kernel
def _fail(lo, hi, states, bad):
    """Raises in the share that holds chunk ``bad``."""
    for ci in range(lo, hi):
        if ci == bad:
            raise ValueError("chunk failed")


@chunk_kernel
def _busy(lo, hi, states, out):
    """Up to ``states[ci, 1]`` rounds of xorshift from ``states[ci, 0]`` into ``out[ci]``, no GIL, until
    ``states[ci, 2]`` is set (by another thread): as long as the caller wants, at most seconds of work.

    The flag is read at every 65,536th round, just after a store into ``out``: memory the compiled loop cannot
    tell apart from ``states``', so it reads the flag afresh each time rather than once before the loop.
    """
    for ci in range(lo, hi):
        x = states[ci, 0] | 1
        for r in range(states[ci, 1]):
            x ^= x << 13
            x ^= x >> 7
            x ^= x << 17
            if r & 0xFFFF == 0:
                out[ci] = x
                if states[ci, 2]:
                    break
        out[ci] = x


@pytest.fixture
def two_threads():
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    yield numba.get_num_threads()
    numba.set_num_threads(runner.max_threads())


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 64])
def test_every_chunk_runs_once_whatever_the_threads(n, two_threads):
    states = np.arange(n * 4, dtype=np.int64).reshape(n, 4)
    want = np.arange(1, n + 1, dtype=np.int64) + states[:, 0]
    for threads in (1, two_threads):
        numba.set_num_threads(threads)
        out = np.zeros(n, np.int64)
        calls = np.zeros(max(n, 1), np.int64)
        _mark(states, out, calls)
        assert out.tolist() == want.tolist()
        # one share per thread (fewer when there are fewer chunks), each a contiguous range
        assert int(calls.sum()) == (max(1, min(threads, n)))


def test_count_from_the_arguments(two_threads):
    hands = np.arange(30, dtype=np.int64).reshape(10, 3)
    out = np.zeros(10, np.int64)
    _sum_rows(hands, 4, out)  # 3 chunks: rows 0-3, 4-7, 8-9
    assert out.tolist() == hands.sum(axis=1).tolist()


@pytest.mark.parametrize("bad", [0, 5])
def test_a_fault_in_any_share_reaches_the_caller(bad, two_threads):
    states = np.zeros((6, 4), np.int64)
    before = threading.active_count()
    with pytest.raises(ValueError, match="chunk failed"):
        _fail(states, bad)
    assert threading.active_count() == before  # the other share was waited for, not left running


def test_the_compiled_kernel_shows_through():
    _mark(np.zeros((1, 4), np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64))
    assert isinstance(_mark, ChunkKernel)
    assert _mark.__name__ == "_mark" and "calls[lo]" in _mark.__doc__
    assert _mark.py_func is _mark.kernel.py_func
    assert _mark.signatures == _mark.kernel.signatures and _mark.stats == _mark.kernel.stats


def test_compiles_without_numbas_warning_that_no_loop_became_parallel():
    """No loop is meant to (``jit.PARFOR_PASSES``): Numba's warning about it would be an error in this suite and
    noise on a user's terminal at every first compile."""
    _mark(np.zeros((1, 4), np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _mark.kernel.recompile()
    assert _mark.signatures


class _Alarm(Exception):
    pass


def _raise_alarm(signum, frame):
    raise _Alarm()


@pytest.mark.parametrize("threads", [1, 2])
def test_a_signal_handler_runs_during_a_long_call_and_its_exception_leaves_at_once(threads, two_threads):
    """The main thread waits on the shares in slices (``WAIT_SLICE``), so a handler that raises ends the call
    at once; the shares, which nothing stops inside the kernel, finish on their own (``left_running``)."""
    numba.set_num_threads(min(threads, two_threads))
    _busy(np.ones((2, 3), np.int64), np.zeros(2, np.int64))  # compiled (or loaded) before the clock runs
    out = np.zeros(2, np.int64)
    # each share runs until the flag (column 2) is set below, after the checks: the call outlasts the bound of
    # 5 s on any machine (20,000,000,000 rounds, 20 to 100 s a share, if the flag were never seen); the bound
    # leaves room for a loaded machine (the handler ran 0.2 s after the call began on an idle one)
    states = np.array([[1, 20_000_000_000, 0], [3, 20_000_000_000, 0]], np.int64)
    before = signal.signal(signal.SIGALRM, _raise_alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.2)
        start = time.monotonic()
        with pytest.raises(_Alarm):
            _busy(states, out)
        took = time.monotonic() - start
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    try:
        assert took < 5.0, f"the handler's exception left the call {took:.2f} s after it began"
        left = left_running()
        assert left and all(th.name.startswith("bower-kernel-") for th in left)
    finally:
        states[:, 2] = 1  # the shares may end now
    for th in left:
        th.join(120)
    assert not left_running() and out.all()  # the shares ran to their end


def test_a_call_off_the_main_thread_runs_share_0_itself(two_threads):
    n = 5
    states = np.arange(n * 4, dtype=np.int64).reshape(n, 4)
    out, calls, seen = np.zeros(n, np.int64), np.zeros(n, np.int64), []
    before = threading.active_count()

    def run():
        numba.set_num_threads(1)  # Numba's count is the thread's own
        _mark(states, out, calls)
        seen.append(threading.active_count())

    th = threading.Thread(target=run)
    th.start()
    th.join()
    assert out.tolist() == (np.arange(1, n + 1) + states[:, 0]).tolist() and int(calls.sum()) == 1
    assert seen == [before + 1]  # no worker started, none left


_FILE_KERNEL = '''
import warnings
warnings.simplefilter("error")  # as pytest's filterwarnings = ["error"]
import numpy as np
from bower.kernels.jit import chunk_kernel


@chunk_kernel
def add_one(lo, hi, a):
    for i in range(lo, hi):
        a[i] += 1


a = np.zeros(5)
add_one(a)
print(int(a.sum()))
'''


def test_a_chunk_kernel_called_as_its_module_is_imported_compiles_with_warnings_as_errors(tmp_path):
    """A chunk kernel called at its module's top level compiles in the importing thread, which holds the import's
    lock (a worker compiling it waited for that lock for ever). Numba warns that no loop of a chunk kernel became
    parallel (none is meant to); ``KernelDispatcher.compile`` hides that warning, also when its message starts with
    terminal colour codes (a kernel in a source file), so a kernel first compiled inside the suite does not fail
    it."""
    import os
    import subprocess
    import sys

    (tmp_path / "filekernel.py").write_text(_FILE_KERNEL)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=os.pathsep.join(
        [str(tmp_path), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    proc = subprocess.run([sys.executable, "-c", "import filekernel"], env=env, capture_output=True, text=True,
                          timeout=120, check=False)  # a deadlock: TimeoutExpired
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "5"
