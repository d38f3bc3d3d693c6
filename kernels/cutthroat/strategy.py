"""Cutthroat strategy kernels: per-card weights, trick estimate, exchange, best suit, the merge, random keep.

Every number comes from a seat's row of the strategy record
(``bower.sim.strategy.CUTTHROAT_PARAMS``); sim/strategy.py describes the strategy
in words. The trick weights are first spread into a per-card table
``wt[seat, trump, card]`` (``card_weights``, once per chunk), so an estimate
is a sum over the hand's five cards plus the void term.
"""

import numpy as np

from bower.kernels.bits import lowest, popcount
from bower.kernels.equity import E_BUCKETS, E_WIDTH, best_level, bucket_of, value3
from bower.kernels.estimate import best_suit, estimate
from bower.kernels.play import nth_card
from bower.kernels.jit import kernel
from bower.kernels.rng import bounded
from bower.kernels.tables import SUIT_MASK, TRUMP_RANK, slot_ranks
from bower.kernels.cutthroat.codes import PARAM_NAMES

_q = PARAM_NAMES.index


Q_W = _q("w_trump_nine")  # 7 trump weights in TRUMP_RANK order: 9 T Q K A left right
Q_OFF_ACE = _q("w_off_ace")
Q_OFF_KING = _q("w_off_king")
Q_VOID = _q("w_void")
Q_ORDER = _q("order_min")
Q_ASSIST = _q("assist_min")
Q_TAKE = _q("take_min")
Q_NAME = _q("name_min")
Q_ALONE = _q("alone_min")
Q_DEF_ALONE = _q("defend_alone_min")
Q_LEAD_TRUMP = _q("lead_trump_min")
Q_RANDOM = _q("random")
Q_EQUITY = _q("bid_equity")

KEEP = 5  # cards the maker keeps of the ten


@kernel
def card_weights(params, wt, order):
    """Fill ``wt[seat, trump, card]`` (each card's trick weight) and the keep orders ``order`` of each seat.

    ``order[seat, t, :7]``: the 7 trumps of trump ``t`` by (weight, then card
    index), highest first; ``order[seat, 4, :6]``: the ranks 9..A of an
    off-suit in that order. The merge takes the best cards of each group by
    walking these lists.
    """
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
        for t in range(5):
            n = 7 if t < 4 else 6
            for k in range(n):  # the k-th trump role (or off-suit rank) ...
                if t < 4:
                    c = (t ^ 1) * 6 + 2 if k == 5 else (t * 6 + 2 if k == 6 else t * 6 + (0, 1, 3, 4, 5)[k])
                    w = wt[seat, t, c]
                else:
                    c = k
                    w = params[seat, Q_OFF_ACE] if k == 5 else (params[seat, Q_OFF_KING] if k == 4 else 0.0)
                place = 0  # ... goes after every entry above it by (weight, index)
                for j in range(n):
                    if j != k:
                        if t < 4:
                            d = (t ^ 1) * 6 + 2 if j == 5 else (t * 6 + 2 if j == 6 else t * 6 + (0, 1, 3, 4, 5)[j])
                            v = wt[seat, t, d]
                        else:
                            d = j
                            v = params[seat, Q_OFF_ACE] if j == 5 else (params[seat, Q_OFF_KING] if j == 4 else 0.0)
                        if v > w or (v == w and d > c):
                            place += 1
                order[seat, t, place] = c


@kernel(inline="always")
def best_exchange(hand, up, t, wt, seat, void_w):
    """(discard, estimate): the card of ``hand`` whose exchange for ``up`` leaves the best estimate; ties: lowest card."""
    best_d = -1
    best_e = 0.0
    m = hand
    up_bit = np.int64(1) << up
    while m != 0:
        d = lowest(m)
        m &= m - 1
        e = estimate((hand & ~(np.int64(1) << d)) | up_bit, t, wt, seat, void_w)
        if best_d < 0 or e > best_e:
            best_d = d
            best_e = e
    return best_d, best_e


@kernel(inline="always")
def _group_prefix(cards, wt, order, seat, t, g, base, pw, pm):
    """Best 0..5 cards of group ``cards`` by (weight, then index): sums ``pw[g, c]``, masks ``pm[g, c]``.

    Walks the seat's keep order for the group (``order[seat, t]`` for trump,
    ranks ``order[seat, 4]`` offset by ``base`` for an off-suit) without
    branches: a card not held rewrites the current prefix with the same
    value. Returns the number of prefixes past the empty one (at most 5).
    """
    pw[g, 0] = 0.0
    pm[g, 0] = 0
    n = 0
    acc = 0.0
    macc = np.int64(0)
    row = t if g == 0 else 4
    for k in range(7 if g == 0 else 6):
        c = order[seat, row, k] + base
        held = (cards >> c) & 1
        n += held
        acc += wt[seat, t, c] * held
        macc |= held << c
        pw[g, n] = acc
        pm[g, n] = macc
    return min(n, KEEP)


@kernel(_nrt=False)
def best_keep(ten, t, wt, order, seat, void_w, pw, pm):
    """The 5 of the ``ten`` cards with the highest estimate for trump ``t``; ties: the largest mask.

    The estimate of a set is its cards' weights plus the void term, which
    depends only on how many cards it keeps of each effective suit. So for
    every split of 5 over trump and the three off-suits, the best set keeps
    the top cards of each group by (weight, index), and the best split wins:
    the same set as trying all 252, in at most 56 sums (only the splits the
    groups can fill are tried; ``pw``/``pm`` are (4, 8) scratch). Compiled once, not inlined, and without reference
    counting (``_nrt=False``: it never allocates), so a call is cheap.
    """
    n0 = _group_prefix(ten & SUIT_MASK[t, t], wt, order, seat, t, 0, 0, pw, pm)
    s1 = 1 if t == 0 else 0
    s2 = s1 + 1 if s1 + 1 != t else s1 + 2
    s3 = 6 - t - s1 - s2
    n1 = _group_prefix(ten & SUIT_MASK[t, s1], wt, order, seat, t, 1, s1 * 6, pw, pm)
    n2 = _group_prefix(ten & SUIT_MASK[t, s2], wt, order, seat, t, 2, s2 * 6, pw, pm)
    n3 = _group_prefix(ten & SUIT_MASK[t, s3], wt, order, seat, t, 3, s3 * 6, pw, pm)
    best_v = -np.inf
    best_m = np.int64(-1)
    # only the splits each group can fill: a strong maker's long trump suit leaves few
    for k in range(max(0, KEEP - n1 - n2 - n3), min(KEEP, n0) + 1):
        for c1 in range(min(KEEP - k, n1) + 1):
            rest = KEEP - k - c1
            for c2 in range(max(0, rest - n3), min(rest, n2) + 1):
                c3 = rest - c2
                v = pw[0, k] + pw[1, c1] + pw[2, c2] + pw[3, c3]
                v += ((c1 == 0) + (c2 == 0) + (c3 == 0)) * void_w * (k >= 2)
                msk = pm[0, k] | pm[1, c1] | pm[2, c2] | pm[3, c3]
                better = (v > best_v) | ((v == best_v) & (msk > best_m))
                best_v = v if better else best_v
                best_m = msk if better else best_m
    return best_m


N_PATTERNS_T = 128  # held patterns of a trump group: bit r for trump rank r (9 T Q K A left right)
N_PATTERNS_O = 64  # held patterns of an off-suit group: bit r for rank r (9 T J Q K A)


@kernel
def keep_tables(wt, order, tw, tm, ow, om):
    """The merge's group prefixes for every held pattern, per seat: what ``_group_prefix`` computes, tabulated.

    ``tw[seat, t, x, j]``, ``tm[seat, t, x, j]``: weight sum and card mask of
    the best ``j`` (0..5) trumps of trump ``t`` held as pattern ``x`` (bit per
    trump rank); ``ow[seat, x, j]``, ``om[seat, x, j]``: the same for an
    off-suit held as rank pattern ``x``, the mask by rank (shift it by 6 times
    the suit). The sums are accumulated in ``_group_prefix``'s order, so each
    is the same number. Built once a chunk for ``best_keep_plain``.
    """
    for seat in range(tw.shape[0]):
        for t in range(4):
            for x in range(N_PATTERNS_T):
                n = 0
                acc = 0.0
                macc = np.int64(0)
                tw[seat, t, x, 0] = 0.0
                tm[seat, t, x, 0] = 0
                for k in range(7):
                    c = order[seat, t, k]
                    held = (np.int64(x) >> TRUMP_RANK[t, c]) & 1
                    n += held
                    acc += wt[seat, t, c] * held
                    macc |= held << c
                    if n <= KEEP:
                        tw[seat, t, x, n] = acc
                        tm[seat, t, x, n] = macc
        for x in range(N_PATTERNS_O):
            n = 0
            acc = 0.0
            macc = np.int64(0)
            ow[seat, x, 0] = 0.0
            om[seat, x, 0] = 0
            for k in range(6):
                r = order[seat, 4, k]
                held = (np.int64(x) >> r) & 1
                n += held
                acc += wt[seat, 0, 12 + r] * held  # a diamond under clubs: an off-suit card of rank r
                macc |= held << r
                if n <= KEEP:
                    ow[seat, x, n] = acc
                    om[seat, x, n] = macc


def _build_splits():
    """Every split of the 5 kept cards over trump and the three off-suits, by what each group holds: for the held
    counts ``(n0, n1, n2, n3)`` (capped at 5), ``SPLITS[SPLIT_AT[n0, n1, n2, n3]:][:SPLIT_N[...]]`` are the splits
    ``best_keep``'s loops try, packed ``k | c1 << 3 | c2 << 6 | c3 << 9 | voids << 12`` with ``voids`` the void
    count the split scores (its empty off-suits, 0 with fewer than 2 trumps)."""
    at = np.zeros((6, 6, 6, 6), np.int64)
    count = np.zeros((6, 6, 6, 6), np.int64)
    flat = []
    for n0 in range(6):
        for n1 in range(6):
            for n2 in range(6):
                for n3 in range(6):
                    at[n0, n1, n2, n3] = len(flat)
                    for k in range(max(0, KEEP - n1 - n2 - n3), min(KEEP, n0) + 1):
                        for c1 in range(min(KEEP - k, n1) + 1):
                            rest = KEEP - k - c1
                            for c2 in range(max(0, rest - n3), min(rest, n2) + 1):
                                c3 = rest - c2
                                voids = ((c1 == 0) + (c2 == 0) + (c3 == 0)) * (k >= 2)
                                flat.append(k | c1 << 3 | c2 << 6 | c3 << 9 | voids << 12)
                    count[n0, n1, n2, n3] = len(flat) - at[n0, n1, n2, n3]
    return at, count, np.array(flat, np.int64)


SPLIT_AT, SPLIT_N, SPLITS = _build_splits()
for _a in (SPLIT_AT, SPLIT_N, SPLITS):
    _a.setflags(write=False)


@kernel(_nrt=False)
def best_keep_plain(ten, t, seat, void_w, tw, tm, ow, om):
    """``best_keep`` with the group prefixes looked up in ``keep_tables``' tables and the splits in ``SPLITS``:
    the same keep. The best is the largest (estimate, mask) of the splits, whatever order they are tried in; each
    try is branch-free.
    """
    x0 = (slot_ranks(ten, t) >> 18) & 127  # the held trumps by trump rank (slots 18..24)
    s1 = 1 if t == 0 else 0
    s2 = s1 + 1 if s1 + 1 != t else s1 + 2
    s3 = 6 - t - s1 - s2
    b1 = 6 * s1
    b2 = 6 * s2
    b3 = 6 * s3
    x1 = (ten & SUIT_MASK[t, s1]) >> b1
    x2 = (ten & SUIT_MASK[t, s2]) >> b2
    x3 = (ten & SUIT_MASK[t, s3]) >> b3
    n0 = min(popcount(x0), KEEP)
    n1 = min(popcount(x1), KEEP)
    n2 = min(popcount(x2), KEEP)
    n3 = min(popcount(x3), KEEP)
    start = SPLIT_AT[n0, n1, n2, n3]
    best_v = -np.inf
    best_m = np.int64(-1)
    for i in range(start, start + SPLIT_N[n0, n1, n2, n3]):
        sp = SPLITS[i]
        k = sp & 7
        c1 = (sp >> 3) & 7
        c2 = (sp >> 6) & 7
        c3 = (sp >> 9) & 7
        v = tw[seat, t, x0, k] + ow[seat, x1, c1] + ow[seat, x2, c2] + ow[seat, x3, c3]
        v += (sp >> 12) * void_w
        msk = tm[seat, t, x0, k] | (om[seat, x1, c1] << b1) | (om[seat, x2, c2] << b2) | (om[seat, x3, c3] << b3)
        better = (v > best_v) | ((v == best_v) & (msk > best_m))
        best_v = v if better else best_v
        best_m = msk if better else best_m
    return best_m


@kernel(inline="always")
def random_keep(ten, dstate, dbuf):
    """Five cards of ``ten`` drawn uniformly: pick ``i`` takes the ``bounded(10 - i)``-th remaining card (ascending)."""
    keep = np.int64(0)
    rest = ten
    for i in range(KEEP):
        c = nth_card(rest, bounded(dstate, dbuf, popcount(rest)))
        keep |= np.int64(1) << c
        rest &= ~(np.int64(1) << c)
    return keep


@kernel
def estimates(hands, trumps, params):
    """Trick estimates of many ``hands`` (masks) for their ``trumps`` under one strategy row (for the analysis)."""
    wt = np.zeros((1, 4, 24), np.float64)
    card_weights(params.reshape((1, params.shape[0])), wt, np.zeros((1, 5, 7), np.int64))
    out = np.empty(hands.shape[0], np.float64)
    for i in range(hands.shape[0]):
        out[i] = estimate(hands[i], trumps[i], wt, 0, params[Q_VOID])
    return out


# ---------------------------------------------------------------- the game-equity bidder
# A seat with ``bid_equity`` >= 0.5 makes each call of the auction (round one: pass, accept the up-card, accept
# and go alone; round two: pass, name its best suit, name it and go alone; the stuck dealer may not pass; alone
# only under ``maker_alone = allowed``) by game equity where the games kernel gives it the tables (``eq``, the
# vector ``bower.sim.variants.cutthroat.equity_strategy.flat``); without them (independent hands, should-bid) it
# calls by its thresholds. The vector: a header (``E_*``), the outcomes (K rows of the points to the caller, the
# seat on its left and the seat on its right), each cell's count of measured hands, each cell's outcome
# probabilities (cells x K) and the equity cube of ``bower.sim.equity`` (3 x S x S x S, relative to the dealer,
# S = target - floor + 1): the layout of ``kernels.equity``, whose kernels read and weigh it. A cell is (round 0/1,
# position 1..3, estimate bucket, level pass/call/alone).
N_LEVELS = 3  # pass, call (accept or name), call and go alone
PER_BUCKET = 2 * 3 * N_LEVELS  # cells of one estimate bucket


@kernel(inline="always")
def equity_cell(rnd, position, est, width, n_buckets):
    """The first cell (level pass) of (round 0/1, position 1..3, the bucket of the estimate ``est``)."""
    return ((rnd * 3 + position - 1) * n_buckets + bucket_of(est, width, n_buckets)) * N_LEVELS


@kernel
def equity_levels(pass_legal, alone_legal):
    """The legal levels as bits (pass 1, call 2, call alone 4): pass unless ``pass_legal`` is False (the stuck
    dealer), going alone unless ``alone_legal`` is False (``maker_alone = disabled``)."""
    return (1 if pass_legal else 0) | 2 | (4 if alone_legal else 0)


@kernel(_nrt=False)
def equity_value(eq, cell, seat, dealer, s0, s1, s2, target):
    """``seat``'s chance to win the game if the hand's outcome is drawn from ``cell`` (``kernels.equity.value3``)."""
    return value3(eq, 0, PER_BUCKET, cell, seat, dealer, s0, s1, s2, target)


@kernel(_nrt=False)
def equity_level(eq, rnd, position, seat, dealer, scores, target, est, default, pass_legal, alone_legal):
    """The level (0 pass, 1 call, 2 call alone) of an equity bidder at ``seat`` (``position`` 1..3, round ``rnd``
    0/1, estimate ``est``) whose chance to win the game is highest at the scores ``scores`` (by seat)
    (``kernels.equity.best_level``). ``default``, the thresholds' level, stands where its cell or the tables are
    missing and wins ties. ``pass_legal`` False: the stuck dealer; ``alone_legal`` False: ``maker_alone =
    disabled``."""
    cell = equity_cell(rnd, position, est, eq[E_WIDTH], np.int64(eq[E_BUCKETS]))
    legal = equity_levels(pass_legal, alone_legal)
    return best_level(eq, 0, PER_BUCKET, 3, True, cell, default, legal, seat, dealer, scores[0], scores[1], scores[2],
                      target)


@kernel(inline="always")
def accept_estimate(hand, up, position, wt, params, seat):
    """Round one for a strategic seat at ``position`` 1..3: (the estimate its threshold is compared with, that
    threshold, the dealer's best discard or -1): position 1 ``E(hand, u)`` against ``order_min``, position 2 the
    same against ``assist_min``, the dealer its best exchange against ``take_min``."""
    u = up // 6
    vw = params[seat, Q_VOID]
    if position == 3:
        d, e = best_exchange(hand, up, u, wt, seat, vw)
        return e, params[seat, Q_TAKE], d
    return estimate(hand, u, wt, seat, vw), params[seat, Q_ORDER if position == 1 else Q_ASSIST], -1


@kernel(inline="always")
def equity_accept(hand, up, position, seat, dealer, wt, params, mandatory, alone_ok, eq):
    """Round one for an equity bidder (``eq``: the tables, the scores, the target, the pick): its level; the
    thresholds' level is the accept decision with the maker's going alone on the hand it would play (the dealer's
    after its exchange, which it makes when the rule is ``mandatory`` or the exchange raises its estimate)."""
    e, need, d = accept_estimate(hand, up, position, wt, params, seat)
    u = up // 6
    vw = params[seat, Q_VOID]
    default = 0
    if e >= need:
        held = hand
        if position == 3 and (mandatory or e > estimate(hand, u, wt, seat, vw)):
            held = (hand & ~(np.int64(1) << d)) | (np.int64(1) << up)
        default = 2 if alone_ok and estimate(held, u, wt, seat, vw) >= params[seat, Q_ALONE] else 1
    return equity_level(eq[0], 0, position, seat, dealer, eq[1], eq[2], e, default, True, alone_ok)


@kernel(inline="always")
def equity_name(hand, allowed, position, stuck, seat, dealer, wt, params, alone_ok, eq):
    """Round two for an equity bidder: (its level, the suit it names at a level above pass: its best suit)."""
    vw = params[seat, Q_VOID]
    s, e = best_suit(hand, allowed, wt, seat, vw)
    default = 0
    if stuck or e >= params[seat, Q_NAME]:
        default = 2 if alone_ok and estimate(hand, s, wt, seat, vw) >= params[seat, Q_ALONE] else 1
    return equity_level(eq[0], 1, position, seat, dealer, eq[1], eq[2], e, default, not stuck, alone_ok), s
