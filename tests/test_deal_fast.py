"""``deal.deal_four`` (rejection test taken out of the steps) and ``deal.deal_four_exact`` against ``deal_packets``:
the same masks and streams.

A held half of 0 makes the first draw one that rejection might refuse, so the fallback to ``deal_four_exact``
is exercised too.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower.kernels import deal as kdeal

u64 = st.integers(0, 2**64 - 1)


@pytest.mark.parametrize("name", ["deal_four", "deal_four_exact"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=st.lists(u64, min_size=4, max_size=4).filter(any), held=st.sampled_from([None, 0, 1, 5, 2**31, 2**32 - 1]),
       n_deals=st.integers(1, 6))
def test_the_fused_deals_are_deal_packets(name, state, held, n_deals):
    deal = getattr(kdeal, name)
    s1, s2 = np.array(state, np.uint64), np.array(state, np.uint64)
    b1 = np.array([0, 0] if held is None else [held, 1], np.int64)
    b2 = b1.copy()
    d1, d2 = np.empty(24, np.int64), np.empty(24, np.int64)
    out = np.zeros(4, np.int64)
    for _ in range(n_deals):
        got = deal(s1, b1, d1)
        kdeal.deal_packets(s2, b2, d2, 24, 4, 6, out)
        assert [int(m) for m in got] == out.tolist()
        assert s1.tolist() == s2.tolist() and b1.tolist() == b2.tolist()
