"""``deal.deal_masks``, the one deal every variant calls, against ``shuffle`` then dealing the deck and against a
plain-Python twin (``tests.reference.rng``): the same masks, the same leftover in the deck, the same generator
state and held half afterwards, for every layout (cards, hands, hand size, packet size, leftover).

A held half of 0 is a first draw that rejection refuses, so the redrawing is exercised too.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower.kernels import deal as kdeal
from tests.reference.rng import Xoshiro256ss

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
u64 = st.integers(0, 2**64 - 1)
states = st.lists(u64, min_size=4, max_size=4).filter(any)
helds = st.sampled_from([None, 0, 1, 5, 2**31, 2**32 - 1])

# The variants' layouts: (cards, hands, hand size, packet)
GHOST = (24, 4, 6, 1)  # the fourth hand the ghost hand, no leftover
EUCHRE = (24, 4, 5, 1)  # a 4-card kitty (Cutthroat's too: its fourth hand the dummy)
HASENPFEFFER = (25, 4, 6, 3)  # packets of three, a 1-card widow


@st.composite
def layouts(draw):
    """Any layout the kernel takes: 1 to 4 hands, a packet size dividing the hand size, 0 to 6 cards left over."""
    n_hands = draw(st.integers(1, 4))
    packet = draw(st.integers(1, 3))
    hand_size = packet * draw(st.integers(1, 4))
    n_cards = max(2, n_hands * hand_size + draw(st.integers(0, 6)))
    if n_hands * hand_size > n_cards:  # only when one hand of one card: deal every card
        n_cards = n_hands * hand_size
    return n_cards, n_hands, hand_size, packet


def twin_deal(rng, n_cards, n_hands, hand_size, packet):
    """The deal in plain Python: Fisher-Yates from the top (i from n-1 down to 1, j = bounded(i + 1)), then card
    ``i`` to hand ``(i // packet) % n_hands`` below ``n_hands * hand_size``, the rest left over in order."""
    deck = list(range(n_cards))
    for i in range(n_cards - 1, 0, -1):
        j = rng.bounded(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    n_dealt = n_hands * hand_size
    hands = [0, 0, 0, 0]
    for i in range(n_dealt):
        hands[(i // packet) % n_hands] |= 1 << deck[i]
    return hands, deck[n_dealt:]


def kernel_state(state, held):
    """A kernel's generator state and held half (``buf``) and the twin's, the same."""
    s = np.array(state, np.uint64)
    buf = np.array([0, 0] if held is None else [held, 1], np.int64)
    r = Xoshiro256ss(state)
    r.held = held
    return s, buf, r


def mask(cards):
    """The mask of a list of cards."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def check_against_twin(deal, layout, state, held, n_deals):
    """``n_deals`` deals in a row by ``deal`` against ``twin_deal``: masks, leftover, streams."""
    n_cards, n_hands, hand_size, _ = layout
    s, buf, r = kernel_state(state, held)
    deck = np.empty(n_cards, np.int64)
    for _ in range(n_deals):
        got = [int(m) for m in deal(s, buf, deck, *layout)]
        hands, rest = twin_deal(r, *layout)
        assert got == hands + [mask(rest)]
        assert deck[n_hands * hand_size:].tolist() == rest
        assert [int(w) for w in s] == r.s
        assert (buf[1] == 1) == (r.held is not None)
        if r.held is not None:
            assert int(buf[0]) == r.held


@settings(max_examples=150, **SETTINGS)
@given(layout=layouts(), state=states, held=helds, n_deals=st.integers(1, 4))
def test_deal_masks_is_the_twin_for_any_layout(layout, state, held, n_deals):
    check_against_twin(kdeal.deal_masks, layout, state, held, n_deals)


@pytest.mark.parametrize("layout", [GHOST, EUCHRE, HASENPFEFFER], ids=["ghost", "euchre", "hasenpfeffer"])
@settings(max_examples=80, **SETTINGS)
@given(state=states, held=helds, n_deals=st.integers(1, 6))
def test_deal_masks_is_shuffle_then_deal(layout, state, held, n_deals):
    """Against the kernels' own steps: ``shuffle`` then the deck dealt (``deal_packets`` for packets of
    one), the whole buffer compared (``buf[0]`` included when no half is held)."""
    n_cards, n_hands, hand_size, packet = layout
    s1, b1, _ = kernel_state(state, held)
    s2, b2 = s1.copy(), b1.copy()
    d1, d2 = np.empty(n_cards, np.int64), np.empty(n_cards, np.int64)
    out = np.zeros(n_hands, np.int64)
    n_dealt = n_hands * hand_size
    for _ in range(n_deals):
        got = [int(m) for m in kdeal.deal_masks(s1, b1, d1, *layout)]
        if packet == 1:
            rest = int(kdeal.deal_packets(s2, b2, d2, n_cards, n_hands, hand_size, out))
            want = out.tolist()
        else:
            d2[:] = np.arange(n_cards)
            kdeal.shuffle(s2, b2, d2, n_cards)
            want = [0] * n_hands
            for i in range(n_dealt):
                want[(i // packet) % n_hands] |= 1 << int(d2[i])
            rest = mask(d2[n_dealt:].tolist())
        assert got == want + [0] * (4 - n_hands) + [rest]
        assert d1[n_dealt:].tolist() == d2[n_dealt:].tolist()
        assert s1.tolist() == s2.tolist() and b1.tolist() == b2.tolist()


def test_a_refused_draw_is_drawn_again():
    """A held half of 0 is a draw rejection refuses for a bound that does not divide 2**32 (its low half, 0, is
    below the threshold): the deal takes the next draw, as the twin does, for every variant's layout."""
    state = [1, 2, 3, 4]
    for layout in (GHOST, EUCHRE, HASENPFEFFER):
        check_against_twin(kdeal.deal_masks, layout, state, 0, 2)
    s, buf, r = kernel_state(state, 0)
    deck = np.empty(24, np.int64)
    got = [int(m) for m in kdeal.deal_masks(s, buf, deck, *EUCHRE)]
    hands, rest = twin_deal(r, *EUCHRE)
    assert got == hands + [mask(rest)] and len(rest) == 4
    assert all(bin(m).count("1") == 5 for m in got[:4])
    assert got[0] | got[1] | got[2] | got[3] | got[4] == (1 << 24) - 1


@pytest.mark.parametrize("layout", [GHOST, EUCHRE, HASENPFEFFER], ids=["ghost", "euchre", "hasenpfeffer"])
def test_deal_many_deals_each_layout_as_its_variant(layout):
    """``deal_many``'s checksums (hand 0 XOR the last hand shifted by one, over a chunk's deals) are the twin's deals
    in the variant's own layout, packets included: the layout kernels (``deal_ghost``...) deal what the hand
    kernels deal."""
    n_cards, n_hands, hand_size, packet = layout
    states = np.array([[1, 2, 3, 4], [5, 6, 7, 2**63 + 9]], np.uint64)
    chunk, n_deals = 7, 11  # the second chunk short
    got = np.zeros(2, np.int64)
    kdeal.deal_many(states, chunk, n_deals, n_cards, n_hands, hand_size, got)
    for ci in range(2):
        rng = Xoshiro256ss([int(x) for x in states[ci]])
        x = 0
        for _ in range(min(chunk, n_deals - ci * chunk)):
            hands, _rest = twin_deal(rng, n_cards, n_hands, hand_size, packet)
            x ^= hands[0] ^ (hands[n_hands - 1] << 1)
        assert int(got[ci]) == x, (layout, ci)


def test_deal_many_refuses_a_layout_no_variant_deals():
    with pytest.raises(ValueError, match="no variant deals 20 cards in 3 hands of 6"):
        kdeal.deal_many(np.zeros((1, 4), np.uint64), 7, 7, 20, 3, 6, np.zeros(1, np.int64))
