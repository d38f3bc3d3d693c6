"""Standard Euchre strategy kernels (``kernels/euchre/SPEC.md``): weights, estimates, best discard, calls, alone, lead.

Every number comes from a seat's row of the strategy record (``codes.PARAMS``).
The trick weights are first spread into a per-card table ``wt[seat, trump,
card]`` (``card_weights``, once per chunk), so an estimate ``E(hand, t)`` is a
sum over the hand's cards plus the void term (``bower.kernels.estimate.estimate``).
Weights are multiples of ``bower.kernels.estimate.WEIGHT_STEP``, so every estimate
is exact in any summation order (the discard's "total minus one card" too).
"""

import numpy as np

from bower.kernels.bits import lowest, popcount
from bower.kernels.estimate import best_suit, estimate
from bower.kernels.euchre.codes import PARAM_NAMES
from bower.kernels.jit import kernel
from bower.kernels.tables import EFF_SUIT, SUIT_MASK, TRUMP_RANK

_q = PARAM_NAMES.index

Q_W = _q("w_trump_nine")  # 7 trump weights in TRUMP_RANK order: 9 T Q K A left right
Q_OFF_ACE = _q("w_off_ace")
Q_OFF_KING = _q("w_off_king")
Q_VOID = _q("w_void")
Q_UP = _q("up_weight")
Q_ORDER = _q("order_min_1")  # 3: positions 1, 2, 3
Q_TAKE = _q("take_min")
Q_NAME = _q("name_min_1")  # 4: positions 1..4
Q_ALONE = _q("alone_min")
Q_DEF_ALONE = _q("defend_alone_min")
Q_LEAD_TRUMP = _q("lead_trump_min")
Q_LEAD_NEXT = _q("lead_next")
Q_RANDOM = _q("random")

DECK24 = np.int64((1 << 24) - 1)


@kernel(_nrt=False)
def card_weights(params, wt):
    """Fill ``wt[seat, trump, card]`` (24 cards): each card's trick weight for each seat's strategy and trump."""
    for seat in range(params.shape[0]):
        for t in range(4):
            for c in range(24):
                r = TRUMP_RANK[t, c]
                if r >= 0:
                    w = params[seat, Q_W + r]
                elif c % 6 == 5:
                    w = params[seat, Q_OFF_ACE]
                elif c % 6 == 4:
                    w = params[seat, Q_OFF_KING]
                else:
                    w = 0.0
                wt[seat, t, c] = w


@kernel(inline="always")
def is_random(params, seat):
    """Whether ``seat``'s strategy is the uniformly random player."""
    return params[seat, Q_RANDOM] >= 0.5


@kernel(inline="always")
def best_discard(six, up, t, wt, seat, void_w):
    """(d, E(six - d, t)): the card of ``six`` other than ``up`` whose removal leaves the best estimate; ties: lowest.
    ``up`` -1: any card of ``six`` (rule ``discard_up``: the dealer may discard the up-card itself).

    The estimate of each five is the six's weight total less the card's
    weight (exact: binary fractions) plus the void term of the five, from the
    six's counts by effective suit.
    """
    total = 0.0
    m = six
    while m != 0:
        c = lowest(m)
        m &= m - 1
        total += wt[seat, t, c]
    n_trumps = popcount(six & SUIT_MASK[t, t])
    voids = 0
    for s in range(4):
        if s != t and (six & SUIT_MASK[t, s]) == 0:
            voids += 1
    best_d = -1
    best_e = 0.0
    m = six
    if up >= 0:
        m = six & ~(np.int64(1) << up)
    while m != 0:
        d = lowest(m)
        m &= m - 1
        e = total - wt[seat, t, d]
        sd = EFF_SUIT[t, d]
        if sd == t:
            if n_trumps - 1 >= 2:
                e += voids * void_w
        elif n_trumps >= 2:
            e += (voids + (popcount(six & SUIT_MASK[t, sd]) == 1)) * void_w
        if best_d < 0 or e > best_e:
            best_d = d
            best_e = e
    return best_d, best_e


@kernel(inline="always")
def order_decision(hand, up, position, wt, params, seat, any_discard):
    """Round one for a strategic seat at ``position`` 1..4: (orders, the dealer's best discard or -1).
    ``any_discard`` (rule ``discard_up``): the dealer's discard may be the up-card itself."""
    u = up // 6
    vw = params[seat, Q_VOID]
    if position == 4:
        d, e = best_discard(hand | (np.int64(1) << up), -1 if any_discard else up, u, wt, seat, vw)
        return e >= params[seat, Q_TAKE], d
    e = estimate(hand, u, wt, seat, vw)
    w_up = params[seat, Q_UP] * wt[seat, u, up]
    if position == 2:
        return e + w_up >= params[seat, Q_ORDER + 1], -1
    return e - w_up >= params[seat, Q_ORDER + position - 1], -1


@kernel(inline="always")
def name_decision(hand, u, position, stuck, wt, params, seat):
    """Round two for a strategic seat: the suit it names, or -1 for a pass (a stuck dealer always names)."""
    s, e = best_suit(hand, 15 & ~(1 << u), wt, seat, params[seat, Q_VOID])
    if stuck or e >= params[seat, Q_NAME + position - 1]:
        return s
    return -1


@kernel(inline="always")
def alone_decision(hand, trump, wt, params, seat, defender):
    """Whether a strategic maker (``defender`` False: ``alone_min``) or defender (``defend_alone_min``) goes alone."""
    need = params[seat, Q_DEF_ALONE] if defender else params[seat, Q_ALONE]
    return estimate(hand, trump, wt, seat, params[seat, Q_VOID]) >= need


@kernel
def estimates(hands, trumps, params):
    """Trick estimates ``E(hand, trump)`` of many ``hands`` (masks) under one strategy row (for the analysis)."""
    wt = np.zeros((1, 4, 24), np.float64)
    card_weights(params.reshape((1, params.shape[0])), wt)
    out = np.empty(hands.shape[0], np.float64)
    for i in range(hands.shape[0]):
        out[i] = estimate(hands[i], trumps[i], wt, 0, params[Q_VOID])
    return out


@kernel
def discard_of(hand, up, params):
    """(discard, estimate) of the dealer holding the 5-card ``hand`` after taking ``up`` (for the tests)."""
    wt = np.zeros((1, 4, 24), np.float64)
    card_weights(params.reshape((1, params.shape[0])), wt)
    return best_discard(hand | (np.int64(1) << up), up, up // 6, wt, 0, params[Q_VOID])
