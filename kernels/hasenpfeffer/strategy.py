"""Hasenpfeffer's strategy primitives that the hand and the auction model share: sizes, parameter cells, estimates.

``hand.py`` (the rules and the players) and ``model.py`` (the auction model of
should-bid and of the PIMC player's inference) both read these; ``hand.py``
re-exports them.
"""

import numpy as np

from bower.kernels.bits import lowest, popcount
from bower.kernels.equity import E_BUCKETS, E_LOW, E_WIDTH, best_level, bucket_of, value2
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
P_EQUITY = _p("bid_equity")


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


# ---------------------------------------------------------------- the game-equity bidder
# A seat with ``bid_equity`` >= 0.5 makes each call by game equity where the games kernel gives it the tables
# (``eq``: the vector ``bower.sim.variants.hasenpfeffer.equity_strategy.flat``); without them (independent hands,
# should-bid) it calls by its thresholds. The vector: a header (``E_*``), the outcomes (K rows: the points to the
# caller's side, to the other side, and 1 where the caller's side bid the hand), each cell's count of measured
# hands, each cell's outcome probabilities (cells x K) and the equity table of ``bower.sim.equity`` (4 dealers x
# S x S, side 0's chance, side 0's score first, from the floor; S = target - floor). A cell is (position 1..4,
# standing bid 0..7, the bucket of the caller's best estimate, level 0 pass .. 7 big pepper): the layout of
# ``kernels.equity``, whose kernels read and weigh it. ``E_LOW``: the lowest score the bidder trusts the table at
# (the table's floor makes a failed bid free below it).
N_STANDING = 8  # 0 (nothing bid) .. 7
N_LEVELS = 8  # 0 pass, 1..6, 7 big pepper
PER_BUCKET = 4 * N_STANDING * N_LEVELS  # cells of one estimate bucket


@kernel(inline="always")
def equity_cell(position, standing, est, width, n_buckets):
    """The first cell (level pass) of (``position`` 1..4, the ``standing`` bid, the bucket of the estimate)."""
    return (((position - 1) * N_STANDING + standing) * n_buckets + bucket_of(est, width, n_buckets)) * N_LEVELS


@kernel
def bid_levels(standing, top):
    """The legal calls over the ``standing`` bid as bits of their levels: pass, and each level above the standing
    bid up to ``top`` (6, or 7, big pepper, under ``bidding = pepper``)."""
    return ((1 << (top + 1)) - 1) & ~((1 << (standing + 1)) - 2)


@kernel(_nrt=False)
def equity_value(eq, cell, side, dealer, s0, s1, target):
    """``side``'s chance to win the game if the hand's outcome is drawn from ``cell``, at side scores ``s0``,
    ``s1`` (``kernels.equity.value2``: a side alone at or past ``target`` wins; both there: the side that bid)."""
    return value2(eq, 0, PER_BUCKET, 3, cell, side, dealer, s0, s1, target)


@kernel(_nrt=False)
def equity_call(eq, seat, dealer, scores, target, standing, top, est, default):
    """The call of an equity bidder at ``seat`` (its best estimate ``est``) over the ``standing`` bid (``top``:
    the highest level): the legal call (pass, or a level above the standing bid up to ``top``) whose cell gives its
    side the highest chance to win the game at the side scores ``scores`` (``kernels.equity.best_level``).
    ``default``, the thresholds' call, stands where its cell or the tables are missing (``best_level``) or a
    side's score is below ``E_LOW`` (where the table's floor would make a failed bid cost nothing), and wins
    ties."""
    if min(scores[0], scores[1]) < eq[E_LOW]:
        return default
    cell = equity_cell((seat - dealer + 3) % 4 + 1, standing, est, eq[E_WIDTH], np.int64(eq[E_BUCKETS]))
    legal = bid_levels(standing, top)
    return best_level(eq, 0, PER_BUCKET, 3, False, cell, default, legal, seat % 2, dealer, scores[0], scores[1], 0,
                      target)
