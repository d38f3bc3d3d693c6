"""Cutthroat's plain hands cut after a phase, for ``benchmarks/phases.py`` (``Variant.phase_cut``).

``phase_chunks`` plays the plain path (every seat the heuristic strategy, nothing forced, no record kept) as
``drivers.plain_chunks`` does, from the same inlined pieces and the same draws, and stops after phase ``stop``:
1 the deal, 2 the auction, 3 going alone and the maker's merge with the dummy (the dealer's exchange with the up-card is in the auction), 4 the tricks and the scoring. ``checksum[ci]`` keeps each chunk's work
observable. The tally and the record's writing are what the whole chunk kernel adds past ``stop`` 4. The cut is
a test of a run-time value in the loop, taken the same way every hand. Compiled only by the benchmark.
"""

import numpy as np

from bower.kernels.cutthroat.hand import (
    N_SEATS,
    R_WIDTH,
    auction_plain,
    deal_hand,
    first_leader,
    going_alone,
    play_plain,
    score_hand,
)
from bower.kernels.cutthroat.strategy import (
    N_PATTERNS_O,
    N_PATTERNS_T,
    Q_LEAD_TRUMP,
    Q_VOID,
    best_keep_plain,
    card_weights,
    keep_tables,
)
from bower.kernels.jit import chunk_kernel


@chunk_kernel
def phase_chunks(lo, hi, states, dstates, first_hand, chunk_size, n_hands, rules, params, stop, checksum):
    """Cutthroat's plain hands (``hand.play_dealt_plain``) cut after ``stop``; the auction includes the dealer's
    exchange with the up-card, the exchange phase is going alone and the maker's merge with the dummy."""
    for ci in range(lo, hi):
        state = states[ci].copy()
        dstate = dstates[ci].copy()
        buf = np.zeros(2, np.int64)
        dbuf = np.zeros(2, np.int64)
        deck = np.empty(24, np.int64)
        dealt = np.zeros(4, np.int64)
        kitty = np.zeros(4, np.int64)
        hands = np.zeros(N_SEATS, np.int64)
        tricks = np.zeros(N_SEATS, np.int64)
        points = np.zeros(N_SEATS, np.int64)
        rec = np.zeros(R_WIDTH, np.int64)
        wt = np.zeros((N_SEATS, 4, 24), np.float64)
        order = np.zeros((N_SEATS, 5, 7), np.int64)
        card_weights(params, wt, order)
        tw = np.empty((N_SEATS, 4, N_PATTERNS_T, 6), np.float64)
        tm = np.empty((N_SEATS, 4, N_PATTERNS_T, 6), np.int64)
        ow = np.empty((N_SEATS, N_PATTERNS_O, 6), np.float64)
        om = np.empty((N_SEATS, N_PATTERNS_O, 6), np.int64)
        keep_tables(wt, order, tw, tm, ow, om)
        x = np.int64(0)
        for h in range(ci * chunk_size, min((ci + 1) * chunk_size, n_hands)):
            dealer = (first_hand + h) % 3
            deal_hand(state, buf, deck, dealt, kitty)
            x ^= dealt[0] ^ kitty[0]
            if stop < 2:
                continue
            for p in range(3):
                hands[(dealer + 1 + p) % 3] = dealt[p]
            dummy = dealt[3]
            maker, trump = auction_plain(hands, kitty[0], dealer, rules, params, wt, rec)
            x ^= maker + 8 * trump
            if stop < 3 or maker < 0:
                continue
            maker_alone, lone_def = going_alone(hands, trump, maker, rules, params, wt, np.int64(-1),
                                                   np.int64(-1), dstate, dbuf)
            if not maker_alone:
                ten = hands[maker] | dummy
                keep = best_keep_plain(ten, trump, maker, params[maker, Q_VOID], tw, tm, ow, om)
                hands[maker] = keep
            x ^= hands[maker] + lone_def
            if stop < 4:
                continue
            out = -1
            if lone_def >= 0:
                out = 3 - maker - lone_def
            leader = first_leader(maker, maker_alone, lone_def, dealer)
            play_plain(hands[0], hands[1], hands[2], trump, leader, maker, out, params[maker, Q_LEAD_TRUMP],
                          rec, tricks)
            score_hand(maker, tricks[maker], maker_alone, lone_def, rules, points)
            x ^= points[0] + 8 * points[1] + 64 * points[2]
        checksum[ci] = x


EXCHANGE = "going alone, merge"  # what phase 3 is
