"""Euchre's plain hands cut after a phase, for ``benchmarks/phases.py`` (``Variant.phase_cut``).

``phase_chunks`` plays the plain path (every seat the heuristic strategy, nothing forced, no record kept) as
``drivers.plain_chunks`` does, from the same inlined pieces and the same draws, and stops after phase ``stop``:
1 the deal, 2 the auction, 3 going alone (the dealer's discard is in the auction), 4 the tricks and the scoring. ``checksum[ci]`` keeps each chunk's work
observable. The tally and the record's writing are what the whole chunk kernel adds past ``stop`` 4. The cut is
a test of a run-time value in the loop, taken the same way every hand. Compiled only by the benchmark.
"""

import numpy as np

from bower.kernels.euchre.hand import (
    F_ALONE,
    F_SEAT,
    NO_FORCE,
    N_CARDS,
    R_DEALER,
    R_WIDTH,
    auction,
    contract,
    deal_hand,
    fast_broken,
    force_of,
    play_plain,
    score_hand,
)
from bower.kernels.euchre.strategy import card_weights
from bower.kernels.jit import chunk_kernel


@chunk_kernel
def phase_chunks(lo, hi, states, dstates, first_hand, chunk_size, n_hands, rules, params, stop, checksum):
    """Euchre's plain hands (``hand.play_dealt_inline`` with ``general`` and ``search`` None) cut after ``stop``.

    The auction includes the dealer's discard (``hand.auction`` decides it)."""
    for ci in range(lo, hi):
        state = states[ci].copy()
        dstate = dstates[ci].copy()
        buf = np.zeros(2, np.int64)
        dbuf = np.zeros(2, np.int64)
        deck = np.empty(N_CARDS, np.int64)
        dealt = np.zeros(4, np.int64)
        kitty = np.zeros(4, np.int64)
        hands = np.zeros(4, np.int64)
        tricks = np.zeros(4, np.int64)
        rec = np.zeros(R_WIDTH, np.int64)
        wt = np.zeros((4, 4, N_CARDS), np.float64)
        card_weights(params, wt)
        force = NO_FORCE.copy()
        x = np.int64(0)
        for h in range(ci * chunk_size, min((ci + 1) * chunk_size, n_hands)):
            dealer = (first_hand + h) % 4
            deal_hand(state, buf, deck, dealt, kitty)
            x ^= dealt[0] ^ kitty[0]
            if stop < 2:
                continue
            rec[R_DEALER] = dealer
            for p in range(4):
                seat = (dealer + 1 + p) & 3
                hands[seat] = dealt[p]
            up = kitty[0]
            maker, trump = auction(hands, up, dealer, rules, params, wt, force_of(force), dstate, dbuf, rec)
            x ^= maker + 8 * trump
            if stop < 3 or maker < 0:
                continue
            maker_alone, lone_def, out, leader = contract(hands, trump, maker, dealer, rules, params, wt,
                                                             force[F_SEAT], force[F_ALONE], dstate, dbuf,
                                                             trump == up // 6)
            x ^= leader + 4 * out
            if stop < 4:
                continue
            u = up // 6
            round_two = trump != u
            next_suit = u ^ 1 if round_two and (u ^ 1) != trump else -1
            play_plain(hands[0], hands[1], hands[2], hands[3], trump, leader, maker, out, next_suit, params, rec,
                          tricks)
            side = maker & 1
            makers, defenders = score_hand(tricks[side] + tricks[side + 2], maker_alone, lone_def >= 0, rules,
                                           fast_broken(rec, maker, out))
            x ^= makers + 8 * defenders
        checksum[ci] = x


EXCHANGE = "going alone"  # what phase 3 is
