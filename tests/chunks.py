"""Running a variant's hand kernel over a few chunks inside a test: the helper the thread-count tests share."""

from __future__ import annotations

import numba
import numpy as np

from bower.sim import runner


def records_on_one_and_two_threads(v, params, seed: int = 9, n_chunks: int = 4, chunk: int = 24):
    """(records, summary) of ``v``'s hand kernel over ``n_chunks`` chunks of ``chunk`` hands, at 1 and at 2 threads.

    ``params``: one strategy row per seat (``runner.seat_params``); default rules. The thread count is put back.
    """
    k = v.hand_kernels
    _, _, rules_vec = runner.resolve_run(v.name, seed, None)
    got = []
    try:
        for threads in (1, 2):
            numba.set_num_threads(threads)
            records = np.zeros((n_chunks * chunk, k.R_WIDTH), np.int64)
            summary = np.zeros((n_chunks, k.S_WIDTH), np.int64)
            v.run_chunks(runner.chunk_states(seed, 0, n_chunks), runner.decision_states(seed, 0, n_chunks), 0,
                         chunk, n_chunks * chunk, rules_vec, params, True, records, summary)
            got.append((records, summary))
    finally:
        numba.set_num_threads(runner.max_threads())
    return got
