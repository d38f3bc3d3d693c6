"""``Variant.phase_cut``: each variant's plain path cut after a phase (``benchmarks/phases.py``) deals the runner's
deals and holds its auctions: its checksums after the deal and after the auction, recomputed from the records of
the same run (``runner.rows_run``), and the same on one thread as on two."""

from __future__ import annotations

import importlib

import numba
import numpy as np
import pytest

from bower.sim import runner
from bower.sim.rules import encode, get_variant, resolve
from bower.sim.strategy import load_strategy, to_vector

CUT = ("euchre", "cutthroat", "hasenpfeffer")  # the variants with a phase cut
N = 5000  # two chunks, the second short


def _cut(name, stop, threads=1):
    v = get_variant(name)
    rules = encode(v, resolve(v, {}))
    params = np.tile(to_vector(load_strategy("default", name)[1], name), (v.players, 1))
    chunks = -(-N // runner.CHUNK_SIZE)
    out = np.zeros(chunks, np.int64)
    saved = numba.get_num_threads()
    numba.set_num_threads(threads)
    try:
        importlib.import_module(v.phase_cut).phase_chunks(runner.chunk_states(3, 0, chunks),
                                                          runner.decision_states(3, 0, chunks), 0,
                                                          runner.CHUNK_SIZE, N, rules, params, stop, out)
    finally:
        numba.set_num_threads(saved)
    return out


def _expected(name, stop):
    """The checksums of ``phase_chunks`` cut after ``stop`` (1 or 2), from the run's records."""
    v = get_variant(name)
    k = v.hand_kernels
    rows = []
    runner.rows_run(name, N, 3, 1, None, "default", lambda r: rows.append(r.copy()))
    recs = np.concatenate(rows)
    out = []
    for c in range(-(-N // runner.CHUNK_SIZE)):
        x = 0
        for rec in recs[c * runner.CHUNK_SIZE:(c + 1) * runner.CHUNK_SIZE]:
            dealer = int(rec[k.R_DEALER])
            seats = v.players
            first = int(rec[k.R_DEAL + (dealer + 1) % seats])  # position 1's hand as dealt
            if hasattr(k, "R_WIDOW"):  # Hasenpfeffer: the widow card; its auction's bidder and level
                x ^= first ^ int(rec[k.R_WIDOW])
                if stop >= 2:
                    x ^= int(rec[k.R_BIDDER]) + 8 * int(rec[k.R_BID])
            else:  # the up-card; the auction's maker and trump
                x ^= first ^ int(rec[k.R_KITTY])
                if stop >= 2:
                    x ^= int(rec[k.R_MAKER]) + 8 * int(rec[k.R_TRUMP])
        out.append(x)
    return out


@pytest.mark.parametrize("name", CUT)
def test_a_phase_cut_deals_and_bids_as_the_runner(name):
    for stop in (1, 2):
        assert _cut(name, stop).tolist() == _expected(name, stop), (name, stop)
    assert _cut(name, 4).tolist() == _cut(name, 4, threads=2).tolist()
