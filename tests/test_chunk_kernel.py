"""``kernels/jit.py``'s ``chunk_kernel``: every chunk run exactly once, by the calling thread and the others.

The drivers of every variant (``simulate_chunks``, ``games_chunks``, ``advice_chunks``...) are chunk kernels;
their results at one and at two threads are compared in the variants' own tests (``tests/chunks.py``). Here the
launcher itself: the shares it cuts, a fault in another thread, the attributes it passes through.
"""

from __future__ import annotations

import threading
import warnings

import numba
import numpy as np
import pytest

from bower.kernels.jit import ChunkKernel, chunk_kernel
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
