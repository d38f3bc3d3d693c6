"""Ghost Hand aggregates for the analysis layer: histograms of bids by hand features, paired swap replays.

Every table is a fixed-size int64 histogram per chunk, merged by summing,
so a billion hands take constant memory. ``analysis/`` turns them into
DataFrames and computes the same tables from records for checking.

Features of a won auction, taken from the maker's hand after any swap and
the named trump: bid level (3, 4, 5, moon), the maker's position (1..3),
trumps held (0..6), bowers held (0..2), off-suit aces (0..3), and the
strategy's own trick estimate in steps of ``EST_STEP``.
"""

import numpy as np

from bower.kernels.arrays import copy_into
from bower.kernels.bits import popcount
from bower.kernels.deal import deal_packets
from bower.kernels.ghost.hand import (
    HAND_SIZE,
    R_BID,
    R_DEAL,
    R_DEALER,
    R_MAKER,
    R_POINTS,
    R_SWAP,
    R_TRICKS,
    R_TRUMP,
    chunk_scratch,
    F_SEAT,
    F_SWAP,
    NO_FORCE,
    margin2,
    play_dealt_once,
)
from bower.kernels.ghost.strategy import best_trump, estimate
from bower.kernels.jit import chunk_kernel, kernel

N_LEVELS, N_POS, N_TRUMPS, N_BOWERS, N_ACES = 4, 3, 7, 3, 4
N_BID_CELLS = N_LEVELS * N_POS * N_TRUMPS * N_BOWERS * N_ACES
EST_STEP = 0.25
N_EST = 32  # buckets [0, 0.25), [0.25, 0.5), ..., the last one open-ended
# stats per histogram cell
H_COUNT, H_MADE, H_POINTS, H_POINTS_SQ = range(4)
H_WIDTH = 4

# paired swap replays, per (position, strength bucket of the hand given up)
SW_N_SWAP, SW_PTS_SWAP, SW_PTS_SWAP_SQ, SW_MAR_SWAP, SW_MAR_SWAP_SQ = range(5)
SW_N_KEEP, SW_PTS_KEEP, SW_PTS_KEEP_SQ, SW_MAR_KEEP, SW_MAR_KEEP_SQ = range(5, 10)
SW_N_PAIR, SW_DPTS, SW_DPTS_SQ, SW_DMAR, SW_DMAR_SQ = range(10, 15)
SW_WIDTH = 15
# per-deal rows of a swap run (optional output)
SR_POS, SR_STRENGTH_BUCKET, SR_PTS_SWAP, SR_PTS_KEEP, SR_MAR_SWAP, SR_MAR_KEEP = range(6)
SR_WIDTH = 6
# mirrored pairs, per position: the decision point also played on the mirror deal, where the player's
# hand and the ghost are exchanged (equally likely); sums of the two gains (points, 2 x margin)
MI_N, MI_PTS, MI_PTS_SQ, MI_MAR, MI_MAR_SQ = range(5)
MI_WIDTH = 5

# trump masks of the right and left bower, per trump suit
_BOWERS = np.array([(1 << (t * 6 + 2)) | (1 << ((t ^ 1) * 6 + 2)) for t in range(4)], np.int64)
_ACES = np.int64(sum(1 << (s * 6 + 5) for s in range(4)))


@kernel
def est_bucket(est):
    """Histogram bucket of a trick estimate (steps of EST_STEP, clipped to 0..N_EST-1)."""
    b = int(np.floor(est / EST_STEP))
    return min(max(b, 0), N_EST - 1)


@kernel
def bid_cell(level, pos, n_trumps, bowers, aces):
    """Flat index of a cell of the bid histogram."""
    return (((level * N_POS + pos) * N_TRUMPS + n_trumps) * N_BOWERS + bowers) * N_ACES + aces


@kernel
def maker_features(rec, params):
    """(level 0..3, position 0..2, trumps, bowers, off-suit aces, estimate) of a played hand's maker."""
    maker = rec[R_MAKER]
    trump = rec[R_TRUMP]
    hand = rec[R_DEAL + 3] if rec[R_SWAP] == maker else rec[R_DEAL + maker]
    trumps = hand & ((np.int64(63) << (6 * trump)) | _BOWERS[trump])
    n_trumps = popcount(trumps)
    bowers = popcount(hand & _BOWERS[trump])
    aces = popcount(hand & _ACES & ~(np.int64(1) << (trump * 6 + 5)))
    pos = (maker - rec[R_DEALER] + 2) % 3
    return rec[R_BID] - 3, pos, n_trumps, bowers, aces, estimate(hand, trump, params[maker])


@kernel
def tally_bids(rec, params, bid_acc, est_acc):
    """Add a played hand's auction winner to the bid histograms (by features, by estimate)."""
    maker = rec[R_MAKER]
    if maker < 0:
        return
    level, pos, n_trumps, bowers, aces, est = maker_features(rec, params)
    made = 1 if rec[R_TRICKS + maker] >= rec[R_BID] else 0
    pts = rec[R_POINTS + maker]
    c = bid_cell(level, pos, n_trumps, bowers, aces)
    bid_acc[c, H_COUNT] += 1
    bid_acc[c, H_MADE] += made
    bid_acc[c, H_POINTS] += pts
    bid_acc[c, H_POINTS_SQ] += pts * pts
    e = level * N_EST + est_bucket(est)
    est_acc[e, H_COUNT] += 1
    est_acc[e, H_MADE] += made
    est_acc[e, H_POINTS] += pts
    est_acc[e, H_POINTS_SQ] += pts * pts


@kernel
def _replay(dealt, dstate0, dbuf0, dstate, dbuf, work, dealer, rules, params, scores, target, force, swap, rec,
            search):
    """Play ``dealt`` from the saved decision-stream state with the forced seat swapping or not.

    Returns the forced seat's points and twice its margin.
    """
    copy_into(dstate, dstate0)
    copy_into(dbuf, dbuf0)
    force[F_SWAP] = swap
    play_dealt_once(dealt, dstate, dbuf, work, dealer, rules, params, scores, target, force, rec, search)
    seat = force[F_SEAT]
    return rec[R_POINTS + seat], margin2(rec, seat)


@kernel
def _add_side(a, pos, b, first, pts, mar):
    """Add one branch to the swap accumulator: the 5 counters from ``first`` (SW_N_SWAP or SW_N_KEEP)."""
    a[pos, b, first] += 1
    a[pos, b, first + 1] += pts
    a[pos, b, first + 2] += pts * pts
    a[pos, b, first + 3] += mar
    a[pos, b, first + 4] += mar * mar


@chunk_kernel
def swap_chunks(lo, hi, states, dstates, first_deal, chunk_size, n_deals, rules, params, target, paired, acc, rows,
                mirror, search):
    """Value of swapping to the ghost: each decision point replayed with the swap taken and refused.

    For every deal (dealer ``h % 3``) and position p whose first turn comes
    while the swap is open under the strategy, the hand is played twice from
    the same cards and decision-stream state: p swaps, and p keeps; everyone
    else follows the strategy. Paired: both branches on the same deal.
    Unpaired (``paired`` false, for comparison): the refusing branch uses the
    next deal of the stream, so the two sides are independent. ``acc[ci,
    pos, bucket]`` gets the sums of points and 2 x margin (``SW_*``); the
    bucket is the strategy's best estimate of the hand p gives up (or keeps).
    ``rows`` (if it has rows) gets one row per deal and position (``SR_*``,
    -1 where no decision point), paired mode only.

    Paired mode also plays each decision point on the mirror deal (the
    player's hand and the ghost exchanged, which is just as likely and has
    the same decision points, since no one sees those two hands before the
    player's turn) and adds the sum of the two gains to ``mirror[ci, pos]``
    (``MI_*``). Swapping on one deal and keeping on its mirror put the same
    hand in the player's seat, so the sum varies far less than either gain:
    the pooled value of swapping by position gets a much narrower interval.
    ``search`` None compiles no search code (``hand.search_arg``).
    """
    want_rows = rows.shape[0] > 0
    for ci in range(lo, hi):
        state, dstate0, buf, dbuf0, deck, rec, work, scores = chunk_scratch(states, dstates, ci)
        dstate = np.empty(4, np.uint64)
        dnext = np.empty(4, np.uint64)
        dbuf = np.zeros(2, np.int64)
        dbuf_next = np.zeros(2, np.int64)
        dealt = np.zeros(4, np.int64)
        dealt2 = np.zeros(4, np.int64)
        mirrored = np.zeros(4, np.int64)
        force = NO_FORCE.copy()
        unforced = NO_FORCE.copy()  # a copy, so play_dealt_once sees one array type
        a = acc[ci]
        mi = mirror[ci]
        for h in range(ci * chunk_size, min((ci + 1) * chunk_size, n_deals)):
            dealer = (first_deal + h) % 3
            deal_packets(state, buf, deck, 24, 4, HAND_SIZE, dealt)
            if not paired:
                deal_packets(state, buf, deck, 24, 4, HAND_SIZE, dealt2)
            # the strategy's own play, to find the decision points (decision stream restored after)
            copy_into(dstate, dstate0)
            copy_into(dbuf, dbuf0)
            play_dealt_once(dealt, dstate, dbuf, work, dealer, rules, params, scores, target, unforced, rec, search)
            copy_into(dnext, dstate)
            copy_into(dbuf_next, dbuf)
            base_swap = rec[R_SWAP]
            base_pos = (base_swap - dealer + 2) % 3 + 1 if base_swap >= 0 else 4
            if not paired:
                play_dealt_once(dealt2, dstate, dbuf, work, dealer, rules, params, scores, target, unforced, rec, search)
                base2 = rec[R_SWAP]
                base_pos2 = (base2 - dealer + 2) % 3 + 1 if base2 >= 0 else 4
            for pos in range(1, 4):
                seat = (dealer + pos) % 3
                force[F_SEAT] = seat
                if want_rows:
                    rows[3 * h + pos - 1, SR_POS] = -1
                if base_pos >= pos:
                    _, e = best_trump(dealt[pos - 1], params[seat])
                    b = est_bucket(e)
                    pts_s, mar_s = _replay(dealt, dstate0, dbuf0, dstate, dbuf, work, dealer, rules, params, scores,
                                           target, force, 1, rec, search)
                    _add_side(a, pos - 1, b, SW_N_SWAP, pts_s, mar_s)
                    if paired:
                        pts_k, mar_k = _replay(dealt, dstate0, dbuf0, dstate, dbuf, work, dealer, rules, params,
                                               scores, target, force, 0, rec, search)
                        _add_side(a, pos - 1, b, SW_N_KEEP, pts_k, mar_k)
                        d = pts_s - pts_k
                        dm = mar_s - mar_k
                        a[pos - 1, b, SW_N_PAIR] += 1
                        a[pos - 1, b, SW_DPTS] += d
                        a[pos - 1, b, SW_DPTS_SQ] += d * d
                        a[pos - 1, b, SW_DMAR] += dm
                        a[pos - 1, b, SW_DMAR_SQ] += dm * dm
                        copy_into(mirrored, dealt)
                        mirrored[pos - 1] = dealt[3]
                        mirrored[3] = dealt[pos - 1]
                        pts_ms, mar_ms = _replay(mirrored, dstate0, dbuf0, dstate, dbuf, work, dealer, rules, params,
                                                 scores, target, force, 1, rec, search)
                        pts_mk, mar_mk = _replay(mirrored, dstate0, dbuf0, dstate, dbuf, work, dealer, rules, params,
                                                 scores, target, force, 0, rec, search)
                        sp = d + pts_ms - pts_mk
                        sm = dm + mar_ms - mar_mk
                        mi[pos - 1, MI_N] += 1
                        mi[pos - 1, MI_PTS] += sp
                        mi[pos - 1, MI_PTS_SQ] += sp * sp
                        mi[pos - 1, MI_MAR] += sm
                        mi[pos - 1, MI_MAR_SQ] += sm * sm
                        if want_rows:
                            r = rows[3 * h + pos - 1]
                            r[SR_POS] = pos
                            r[SR_STRENGTH_BUCKET] = b
                            r[SR_PTS_SWAP] = pts_s
                            r[SR_PTS_KEEP] = pts_k
                            r[SR_MAR_SWAP] = mar_s
                            r[SR_MAR_KEEP] = mar_k
                if not paired and base_pos2 >= pos:
                    _, e = best_trump(dealt2[pos - 1], params[seat])
                    pts_k, mar_k = _replay(dealt2, dstate0, dbuf0, dstate, dbuf, work, dealer, rules, params, scores,
                                           target, force, 0, rec, search)
                    _add_side(a, pos - 1, est_bucket(e), SW_N_KEEP, pts_k, mar_k)
            # the decision stream moves on as in the strategy's own play of this deal
            copy_into(dstate0, dnext)
            copy_into(dbuf0, dbuf_next)
