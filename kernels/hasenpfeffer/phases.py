"""Hasenpfeffer's plain hands cut after a phase, for ``benchmarks/phases.py`` (``Variant.phase_cut``).

``phase_chunks`` plays the plain path (every seat the heuristic strategy, nothing forced, no record kept) as
``drivers.plain_chunks`` does, from the same inlined pieces and the same draws, and stops after phase ``stop``:
1 the deal, 2 the auction, 3 the widow, 4 the tricks and the scoring. ``checksum[ci]`` keeps each chunk's work
observable. The tally and the record's writing are what the whole chunk kernel adds past ``stop`` 4. The cut is
a test of a run-time value in the loop, taken the same way every hand. Compiled only by the benchmark.
"""

import numpy as np

from bower.kernels.hasenpfeffer.codes import H_BIDDER_LEADS, H_WIDOW_DEAD
from bower.kernels.hasenpfeffer.hand import R_WIDTH, score_hand
from bower.kernels.hasenpfeffer.plain import (
    PT_WIDTH,
    auction_plain,
    deal_plain,
    plain_seats,
    plain_tables,
    play_plain,
    widow_plain,
)
from bower.kernels.hasenpfeffer.strategy import P_LEAD_TRUMP
from bower.kernels.jit import PARFOR_PASSES, chunk_kernel, kernel


@kernel(parallel=PARFOR_PASSES)
def _cut_chunk(state, buf, deck, lo, hi, first_hand, rules, params, tab, rec, stop):
    """Hands ``lo .. hi - 1`` of a chunk as ``plain.plain_hand`` plays them, cut after ``stop``: a checksum."""
    x = np.int64(0)
    for hnd in range(lo, hi):
        dealer = (first_hand + hnd) % 4
        p0, p1, p2, p3, widow = deal_plain(state, buf, deck)
        x ^= p0 ^ widow
        if stop < 2:
            continue
        h0, h1, h2, h3, joker_seat, s0, s1, s2, s3, t0, t1, t2, t3 = plain_seats(p0, p1, p2, p3, dealer, rules,
                                                                                  params, tab)
        bidder, level, forced = auction_plain(t0, t1, t2, t3, joker_seat, dealer, rules, params, rec)
        x ^= bidder + 8 * level
        if stop < 3 or bidder < 0:
            continue
        hb = h0 if bidder == 0 else (h1 if bidder == 1 else (h2 if bidder == 2 else h3))
        if rules[H_WIDOW_DEAD] == 1:
            trump = s0 if bidder == 0 else (s1 if bidder == 1 else (s2 if bidder == 2 else s3))
        else:
            seven = hb | (np.int64(1) << widow)
            trump, discard = widow_plain(seven, bidder, tab)
            hb = seven & ~(np.int64(1) << discard)
        x ^= hb + trump
        if stop < 4:
            continue
        h0 = hb if bidder == 0 else h0
        h1 = hb if bidder == 1 else h1
        h2 = hb if bidder == 2 else h2
        h3 = hb if bidder == 3 else h3
        leader = bidder if rules[H_BIDDER_LEADS] == 1 else (dealer + 1) % 4
        t = play_plain(h0, h1, h2, h3, trump, leader, bidder, params[bidder, P_LEAD_TRUMP], rec, False)
        side = bidder % 2
        bid_pts, def_pts = score_hand(level, ((t & 255) + ((t >> 16) & 255)) if side == 0
                                    else (((t >> 8) & 255) + (t >> 24)), rules)
        x ^= bid_pts + 8 * def_pts
    return x


@chunk_kernel
def phase_chunks(lo, hi, states, dstates, first_hand, chunk_size, n_hands, rules, params, stop, checksum):
    """Hasenpfeffer's plain hands (``plain.plain_hand``) cut after ``stop``; the exchange phase is the widow."""
    for ci in range(lo, hi):
        state = states[ci].copy()
        buf = np.zeros(2, np.int64)
        deck = np.empty(25, np.int64)
        tab = np.zeros((4, PT_WIDTH), np.int64)
        plain_tables(params, tab)
        rec = np.zeros(R_WIDTH, np.int64)
        checksum[ci] = _cut_chunk(state, buf, deck, ci * chunk_size, min((ci + 1) * chunk_size, n_hands),
                                           first_hand, rules, params, tab, rec, stop)


EXCHANGE = "widow"  # what phase 3 is
