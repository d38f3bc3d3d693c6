"""Hasenpfeffer's strategy primitives that the hand and the auction model share: sizes, parameter cells, estimates.

``hand.py`` (the rules and the players) and ``model.py`` (the auction model of
should-bid and of the PIMC player's inference) both read these; ``hand.py``
re-exports them.
"""

import numpy as np

from bower.kernels.bits import lowest, popcount
from bower.kernels.hasenpfeffer.codes import PARAM_NAMES
from bower.kernels.jit import kernel
from bower.kernels.tables import SUIT_MASK, TRUMP_RANK

N_SEATS = 4
N_CARDS = 25
JOKER = 24
DECK25 = np.int64((1 << 25) - 1)
LITTLE_PEPPER = 6  # bid levels in the pepper form
BIG_PEPPER = 7

_p = PARAM_NAMES.index

P_W = _p("w_trump_nine")  # 8 trump weights in TRUMP_RANK order: 9 T Q K A left right joker
P_OFF_ACE = _p("w_off_ace")
P_OFF_KING = _p("w_off_king")
P_VOID = _p("w_void")
P_PARTNER = _p("partner_help")
P_CUSHION = _p("cushion")
P_SUPPORT = _p("support_margin")
P_JUMP = _p("bid_jump")
P_BIG_PEPPER = _p("big_pepper_min")
P_LEAD_TRUMP = _p("lead_trump_min")
P_RANDOM = _p("random")
P_PIMC = _p("pimc_worlds")
P_PIMC_SEES = _p("pimc_sees_all")
P_PIMC_INFER = _p("pimc_infer")
P_PIMC_TAU = _p("pimc_tau")
P_PIMC_EPS = _p("pimc_eps")
P_PIMC_BID = _p("pimc_bid")
P_PIMC_CUSHION = _p("pimc_bid_cushion")
P_PIMC_RIVAL = _p("pimc_bid_rival")


@kernel
def card_weights(params, wt):
    """Fill ``wt[seat, trump, card]`` (25 cards): each card's trick weight for each seat's strategy and trump."""
    for seat in range(params.shape[0]):
        for t in range(4):
            for c in range(N_CARDS):
                r = TRUMP_RANK[t, c]
                if r >= 0:
                    w = params[seat, P_W + r]
                elif c % 6 == 5:
                    w = params[seat, P_OFF_ACE]
                elif c % 6 == 4:
                    w = params[seat, P_OFF_KING]
                else:
                    w = 0.0
                wt[seat, t, c] = w


@kernel(inline="always")
def is_random(params, seat):
    """Whether ``seat``'s strategy is the uniformly random player."""
    return params[seat, P_RANDOM] >= 0.5


@kernel(inline="always")
def best_estimate(hand, seat, wt, vw):
    """The best of the four trumps' estimates of ``hand`` (one pass over the cards for all four)."""
    e0 = e1 = e2 = e3 = 0.0
    m = hand
    while m != 0:
        c = lowest(m)
        m &= m - 1
        e0 += wt[seat, 0, c]
        e1 += wt[seat, 1, c]
        e2 += wt[seat, 2, c]
        e3 += wt[seat, 3, c]
    best = 0.0
    for t in range(4):
        e = e0 if t == 0 else (e1 if t == 1 else (e2 if t == 2 else e3))
        if popcount(hand & SUIT_MASK[t, t]) >= 2:
            voids = 0
            for s in range(4):
                if s != t and (hand & SUIT_MASK[t, s]) == 0:
                    voids += 1
            e += voids * vw
        if t == 0 or e > best:
            best = e
    return best
