"""The game-equity bidder's shared kernels (``kernels/equity.py``) against plain-Python twins: an estimate's bucket,
the calibration's bookkeeping (a block of cells, the outcome codes, a seat's first call) and each variant's legal
levels as the bidder and its calibration read them. The values and the choice of a level are checked against
their twins in every variant by ``tests/test_equity_strategy.py``.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bower.kernels import equity as ke
from bower.kernels.cutthroat import strategy as cks
from bower.kernels.euchre import strategy as eks
from bower.kernels.ghost import strategy as ks
from bower.kernels.hasenpfeffer import strategy as hks
from bower.sim import equity_bidder as eb

SETTINGS = dict(max_examples=200, deadline=None)


@settings(**SETTINGS)
@given(est=st.floats(-3.0, 12.0), width=st.sampled_from([0.25, 0.5, 1.0]), buckets=st.integers(1, 40))
def test_the_bucket_is_its_twins(est, width, buckets):
    assert ke.bucket_of(est, width, buckets) == eb.bucket(est, buckets, width)


@settings(**SETTINGS)
@given(n=st.integers(1, 8), cell=st.integers(0, 5000), legal=st.integers(0, 255), out=st.integers(0, 6))
def test_a_block_of_cells_marks_the_legal_levels(n, cell, legal, out):
    cells = np.full(20, 7, np.int64)
    codes = np.full(20, 9, np.int64)
    ke.cell_block(cells, codes, out, n, cell, legal)
    want = [cell + li if (legal >> li) & 1 else -1 for li in range(n)]
    assert cells[out:out + n].tolist() == want
    assert codes[out:out + n].tolist() == [0] * n
    assert (np.delete(cells, range(out, out + n)) == 7).all() and (np.delete(codes, range(out, out + n)) == 9).all()


@settings(**SETTINGS)
@given(a=st.integers(-64, 63), b=st.integers(-64, 63), c=st.integers(-64, 63))
def test_an_outcome_code_reads_back_as_its_points(a, b, c):
    code = ke.pack3(a, b, c)
    t = eb.tabulate(np.array([0], np.int64), np.array([code], np.int64), 1, 3)
    assert t["outcomes"].tolist() == [[a, b, c]]


@settings(**SETTINGS)
@given(points=st.lists(st.integers(-30, 30), min_size=3, max_size=3), seat=st.integers(0, 2))
def test_a_three_player_outcome_is_relative_to_the_seat(points, seat):
    rec = np.array([5, 5] + points, np.int64)  # two cells before the points
    code = ke.outcome3(rec, 2, seat)
    assert code == ke.pack3(points[seat], points[(seat + 1) % 3], points[(seat + 2) % 3])


def _first_call(calls, seat):
    """Twin of ``first_call``: the index of ``seat``'s first call and the highest call before it."""
    standing = 0
    for i, (s, c) in enumerate(calls):
        if s == seat:
            return i, standing
        standing = max(standing, c)
    return -1, standing


@settings(**SETTINGS)
@given(calls=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 7)), max_size=8), seat=st.integers(0, 3),
       cut=st.integers(0, 8))
def test_the_first_call_is_its_twins(calls, seat, cut):
    rec = np.array([-9] + [x for pair in calls for x in pair] + [seat, 5], np.int64)  # one cell before the calls
    n = min(cut, len(calls))
    assert tuple(ke.first_call(rec, 1, n, seat)) == _first_call(calls[:n], seat)


@given(standing=st.sampled_from([0, 3, 4, 5]), forced=st.booleans())
def test_ghost_hands_legal_calls(standing, forced):
    legal = ks.legal_levels(standing, forced)
    want = [(not forced) if call == 0 else (call == 6 or call > standing) for call in (0, 3, 4, 5, 6)]
    assert [bool((legal >> li) & 1) for li in range(5)] == want and legal >> 5 == 0


@given(pass_legal=st.booleans(), alone_legal=st.booleans())
def test_euchre_and_cutthroat_legal_levels(pass_legal, alone_legal):
    assert eks.equity_levels(pass_legal) == (1 if pass_legal else 0) + 2 + 4
    assert cks.equity_levels(pass_legal, alone_legal) == (1 if pass_legal else 0) + 2 + (4 if alone_legal else 0)


@given(standing=st.integers(0, 7), top=st.sampled_from([6, 7]))
def test_hasenpfeffer_legal_bids(standing, top):
    legal = hks.bid_levels(standing, top)
    assert [li for li in range(8) if (legal >> li) & 1] == [li for li in range(top + 1) if li == 0 or li > standing]
