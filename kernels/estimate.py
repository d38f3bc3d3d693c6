"""Trick estimates from a per-card weight table ``wt[seat, trump, card]``, and the weight grid.

Trick weights are used in steps of ``WEIGHT_STEP`` (a binary fraction), so
every estimate is an exact sum whatever the order of its terms; weights stay
below ``WEIGHT_LIMIT`` in size.
"""


from bower.kernels.bits import lowest, popcount
from bower.kernels.jit import kernel
from bower.kernels.tables import SUIT_MASK

WEIGHT_STEP = 2.0**-12
WEIGHT_LIMIT = 64.0


@kernel(inline="always")
def estimate(hand, t, wt, seat, void_w):
    """Trick estimate of ``hand`` for trump ``t``: its cards' weights, plus ``void_w`` per empty off-suit with 2+ trumps."""
    est = 0.0
    m = hand
    while m != 0:
        c = lowest(m)
        m &= m - 1
        est += wt[seat, t, c]
    if popcount(hand & SUIT_MASK[t, t]) >= 2:
        voids = 0
        for s in range(4):
            if s != t and (hand & SUIT_MASK[t, s]) == 0:
                voids += 1
        est += voids * void_w
    return est


@kernel(inline="always")
def best_suit(hand, allowed, wt, seat, void_w):
    """(suit, estimate) of the suit in ``allowed`` (bit per suit) with the best estimate; ties: lowest suit."""
    best_s = -1
    best_e = 0.0
    for s in range(4):
        if (allowed >> s) & 1:
            e = estimate(hand, s, wt, seat, void_w)
            if best_s < 0 or e > best_e:
                best_s = s
                best_e = e
    return best_s, best_e
