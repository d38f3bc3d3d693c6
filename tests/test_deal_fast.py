"""Each variant's deal (``deal.deal_masks`` with the variant's layout as constants, the masks in registers) against
the deal it replaces: the same masks, leftover and streams.

Ghost Hand's, Cutthroat's and Euchre's against ``deal_packets``, Hasenpfeffer's against ``hand.deal`` (packets of
three). A held half of 0 is a first draw that rejection refuses, so the redrawing is exercised too.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower.kernels import deal as kdeal
from bower.kernels.cutthroat import hand as ct_hand
from bower.kernels.euchre import hand as eu_hand
from bower.kernels.ghost import hand as gh_hand
from bower.kernels.hasenpfeffer import hand as hp_hand
from bower.kernels.hasenpfeffer import plain as hp_plain

u64 = st.integers(0, 2**64 - 1)
given_deals = given(state=st.lists(u64, min_size=4, max_size=4).filter(any),
                    held=st.sampled_from([None, 0, 1, 5, 2**31, 2**32 - 1]), n_deals=st.integers(1, 6))
SETTINGS = dict(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def streams(state, held):
    """Two copies of a generator state and held half."""
    s = np.array(state, np.uint64)
    b = np.array([0, 0] if held is None else [held, 1], np.int64)
    return s, b, s.copy(), b.copy()


@settings(**SETTINGS)
@given_deals
def test_ghost_deal_is_deal_packets(state, held, n_deals):
    s1, b1, s2, b2 = streams(state, held)
    d1, d2 = np.empty(24, np.int64), np.empty(24, np.int64)
    out = np.zeros(4, np.int64)
    for _ in range(n_deals):
        got = gh_hand.deal_hand(s1, b1, d1)
        kdeal.deal_packets(s2, b2, d2, 24, 4, 6, out)
        assert [int(m) for m in got] == out.tolist()
        assert s1.tolist() == s2.tolist() and b1.tolist() == b2.tolist()


@pytest.mark.parametrize("module", [ct_hand, eu_hand], ids=["cutthroat", "euchre"])
@settings(**SETTINGS)
@given_deals
def test_kitty_deals_are_deal_packets(module, state, held, n_deals):
    s1, b1, s2, b2 = streams(state, held)
    d1, d2 = np.empty(24, np.int64), np.empty(24, np.int64)
    dealt, kitty, out = np.zeros(4, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64)
    for _ in range(n_deals):
        module.deal_hand(s1, b1, d1, dealt, kitty)
        kdeal.deal_packets(s2, b2, d2, 24, 4, 5, out)
        assert dealt.tolist() == out.tolist()
        assert kitty.tolist() == d2[20:].tolist()
        assert s1.tolist() == s2.tolist() and b1.tolist() == b2.tolist()


@settings(**SETTINGS)
@given_deals
def test_hasenpfeffer_deal_is_hand_deal(state, held, n_deals):
    s1, b1, s2, b2 = streams(state, held)
    d1, d2 = np.empty(25, np.int64), np.empty(25, np.int64)
    out = np.zeros(4, np.int64)
    for _ in range(n_deals):
        got = hp_plain.deal_plain(s1, b1, d1)
        widow = hp_hand.deal(s2, b2, d2, out)
        assert [int(m) for m in got] == out.tolist() + [int(widow)]
        assert s1.tolist() == s2.tolist() and b1.tolist() == b2.tolist()
