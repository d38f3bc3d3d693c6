"""Euchre's, Cutthroat's and Hasenpfeffer's plain hands cut after a phase: the kernels of ``phases.py``.

Each chunk kernel plays a variant's plain path (every seat the heuristic strategy, nothing forced, no record
kept) as its ``drivers.plain_chunks`` does, from the same inlined pieces and the same draws, and stops after
phase ``stop``: 1 the deal, 2 the auction, 3 the exchange (Euchre: going alone; Cutthroat: going alone and the
maker's merge with the dummy; Hasenpfeffer: the widow), 4 the tricks and the scoring. ``checksum[ci]`` keeps
each chunk's work observable. The tally and the writing of the record are what the whole chunk kernel
(``Variant.run_chunks``) adds past ``stop`` 4. The cut is a test of a run-time value in the loop, taken the
same way every hand.
"""

import numpy as np

from bower.kernels.euchre.hand import (
    F_ALONE as eu_F_ALONE,
    F_SEAT as eu_F_SEAT,
    NO_FORCE as eu_NO_FORCE,
    N_CARDS as eu_N_CARDS,
    R_DEALER as eu_R_DEALER,
    R_WIDTH as eu_R_WIDTH,
    auction as eu_auction,
    contract as eu_contract,
    deal_hand as eu_deal_hand,
    force_of as eu_force_of,
    play_plain as eu_play_plain,
    score_hand as eu_score_hand,
)
from bower.kernels.cutthroat.hand import (
    N_SEATS as ct_N_SEATS,
    R_WIDTH as ct_R_WIDTH,
    auction_plain as ct_auction_plain,
    deal_hand as ct_deal_hand,
    first_leader as ct_first_leader,
    going_alone as ct_going_alone,
    play_plain as ct_play_plain,
    score_hand as ct_score_hand,
)
from bower.kernels.cutthroat.strategy import (
    N_PATTERNS_O as cts_N_PATTERNS_O,
    N_PATTERNS_T as cts_N_PATTERNS_T,
    Q_LEAD_TRUMP as cts_Q_LEAD_TRUMP,
    Q_VOID as cts_Q_VOID,
    best_keep_plain as cts_best_keep_plain,
    card_weights as cts_card_weights,
    keep_tables as cts_keep_tables,
)
from bower.kernels.hasenpfeffer.plain import (
    PT_WIDTH as hp_PT_WIDTH,
    auction_plain as hp_auction_plain,
    best_units as hp_best_units,
    deal_plain as hp_deal_plain,
    level_of as hp_level_of,
    plain_tables as hp_plain_tables,
    play_plain as hp_play_plain,
    widow_plain as hp_widow_plain,
)
from bower.kernels.euchre.strategy import card_weights as eu_card_weights
from bower.kernels.estimate import WEIGHT_STEP
from bower.kernels.hasenpfeffer.codes import H_BIDDER_LEADS, H_PEPPER, H_WIDOW_DEAD
from bower.kernels.hasenpfeffer.hand import R_WIDTH as HP_WIDTH
from bower.kernels.hasenpfeffer.hand import score_hand as hp_score
from bower.kernels.hasenpfeffer.strategy import P_LEAD_TRUMP
from bower.kernels.jit import PARFOR_PASSES, chunk_kernel, kernel


@chunk_kernel
def euchre_phases(lo, hi, states, dstates, first_hand, chunk_size, n_hands, rules, params, stop, checksum):
    """Euchre's plain hands (``hand.play_dealt_inline`` with ``general`` and ``search`` None) cut after ``stop``.

    The auction includes the dealer's discard (``hand.auction`` decides it)."""
    for ci in range(lo, hi):
        state = states[ci].copy()
        dstate = dstates[ci].copy()
        buf = np.zeros(2, np.int64)
        dbuf = np.zeros(2, np.int64)
        deck = np.empty(eu_N_CARDS, np.int64)
        dealt = np.zeros(4, np.int64)
        kitty = np.zeros(4, np.int64)
        hands = np.zeros(4, np.int64)
        tricks = np.zeros(4, np.int64)
        rec = np.zeros(eu_R_WIDTH, np.int64)
        wt = np.zeros((4, 4, eu_N_CARDS), np.float64)
        eu_card_weights(params, wt)
        force = eu_NO_FORCE.copy()
        x = np.int64(0)
        for h in range(ci * chunk_size, min((ci + 1) * chunk_size, n_hands)):
            dealer = (first_hand + h) % 4
            eu_deal_hand(state, buf, deck, dealt, kitty)
            x ^= dealt[0] ^ kitty[0]
            if stop < 2:
                continue
            rec[eu_R_DEALER] = dealer
            for p in range(4):
                seat = (dealer + 1 + p) & 3
                hands[seat] = dealt[p]
            up = kitty[0]
            maker, trump = eu_auction(hands, up, dealer, rules, params, wt, eu_force_of(force), dstate, dbuf, rec)
            x ^= maker + 8 * trump
            if stop < 3 or maker < 0:
                continue
            maker_alone, lone_def, out, leader = eu_contract(hands, trump, maker, dealer, rules, params, wt,
                                                             force[eu_F_SEAT], force[eu_F_ALONE], dstate, dbuf,
                                                             trump == up // 6)
            x ^= leader + 4 * out
            if stop < 4:
                continue
            u = up // 6
            round_two = trump != u
            next_suit = u ^ 1 if round_two and (u ^ 1) != trump else -1
            eu_play_plain(hands[0], hands[1], hands[2], hands[3], trump, leader, maker, out, next_suit, params, rec,
                          tricks)
            side = maker & 1
            makers, defenders = eu_score_hand(tricks[side] + tricks[side + 2], maker_alone, lone_def >= 0)
            x ^= makers + 8 * defenders
        checksum[ci] = x


@chunk_kernel
def cutthroat_phases(lo, hi, states, dstates, first_hand, chunk_size, n_hands, rules, params, stop, checksum):
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
        hands = np.zeros(ct_N_SEATS, np.int64)
        tricks = np.zeros(ct_N_SEATS, np.int64)
        points = np.zeros(ct_N_SEATS, np.int64)
        rec = np.zeros(ct_R_WIDTH, np.int64)
        wt = np.zeros((ct_N_SEATS, 4, 24), np.float64)
        order = np.zeros((ct_N_SEATS, 5, 7), np.int64)
        cts_card_weights(params, wt, order)
        tw = np.empty((ct_N_SEATS, 4, cts_N_PATTERNS_T, 6), np.float64)
        tm = np.empty((ct_N_SEATS, 4, cts_N_PATTERNS_T, 6), np.int64)
        ow = np.empty((ct_N_SEATS, cts_N_PATTERNS_O, 6), np.float64)
        om = np.empty((ct_N_SEATS, cts_N_PATTERNS_O, 6), np.int64)
        cts_keep_tables(wt, order, tw, tm, ow, om)
        x = np.int64(0)
        for h in range(ci * chunk_size, min((ci + 1) * chunk_size, n_hands)):
            dealer = (first_hand + h) % 3
            ct_deal_hand(state, buf, deck, dealt, kitty)
            x ^= dealt[0] ^ kitty[0]
            if stop < 2:
                continue
            for p in range(3):
                hands[(dealer + 1 + p) % 3] = dealt[p]
            dummy = dealt[3]
            maker, trump = ct_auction_plain(hands, kitty[0], dealer, rules, params, wt, rec)
            x ^= maker + 8 * trump
            if stop < 3 or maker < 0:
                continue
            maker_alone, lone_def = ct_going_alone(hands, trump, maker, rules, params, wt, np.int64(-1),
                                                   np.int64(-1), dstate, dbuf)
            if not maker_alone:
                ten = hands[maker] | dummy
                keep = cts_best_keep_plain(ten, trump, maker, params[maker, cts_Q_VOID], tw, tm, ow, om)
                hands[maker] = keep
            x ^= hands[maker] + lone_def
            if stop < 4:
                continue
            out = -1
            if lone_def >= 0:
                out = 3 - maker - lone_def
            leader = ct_first_leader(maker, maker_alone, lone_def, dealer)
            ct_play_plain(hands[0], hands[1], hands[2], trump, leader, maker, out, params[maker, cts_Q_LEAD_TRUMP],
                          rec, tricks)
            ct_score_hand(maker, tricks[maker], maker_alone, lone_def, rules, points)
            x ^= points[0] + 8 * points[1] + 64 * points[2]
        checksum[ci] = x


@kernel(parallel=PARFOR_PASSES)
def _hasenpfeffer_chunk(state, buf, deck, lo, hi, first_hand, rules, params, tab, rec, stop):
    """Hands ``lo .. hi - 1`` of a chunk as ``plain.plain_hand`` plays them, cut after ``stop``: a checksum."""
    x = np.int64(0)
    for hnd in range(lo, hi):
        dealer = (first_hand + hnd) % 4
        p0, p1, p2, p3, widow = hp_deal_plain(state, buf, deck)
        x ^= p0 ^ widow
        if stop < 2:
            continue
        h0 = p3 if dealer == 0 else (p2 if dealer == 1 else (p1 if dealer == 2 else p0))
        h1 = p0 if dealer == 0 else (p3 if dealer == 1 else (p2 if dealer == 2 else p1))
        h2 = p1 if dealer == 0 else (p0 if dealer == 1 else (p3 if dealer == 2 else p2))
        h3 = p2 if dealer == 0 else (p1 if dealer == 1 else (p0 if dealer == 2 else p3))
        joker_seat = np.int64(-1)
        joker_seat = 0 if (h0 >> 24) & 1 else joker_seat
        joker_seat = 1 if (h1 >> 24) & 1 else joker_seat
        joker_seat = 2 if (h2 >> 24) & 1 else joker_seat
        joker_seat = 3 if (h3 >> 24) & 1 else joker_seat
        pepper = rules[H_PEPPER] == 1
        s0, u0 = hp_best_units(h0, tab, 0)
        s1, u1 = hp_best_units(h1, tab, 1)
        s2, u2 = hp_best_units(h2, tab, 2)
        s3, u3 = hp_best_units(h3, tab, 3)
        t0 = hp_level_of(u0 * WEIGHT_STEP, 0, pepper, params)
        t1 = hp_level_of(u1 * WEIGHT_STEP, 1, pepper, params)
        t2 = hp_level_of(u2 * WEIGHT_STEP, 2, pepper, params)
        t3 = hp_level_of(u3 * WEIGHT_STEP, 3, pepper, params)
        bidder, level, forced = hp_auction_plain(t0, t1, t2, t3, joker_seat, dealer, rules, params, rec)
        x ^= bidder + 8 * level
        if stop < 3 or bidder < 0:
            continue
        hb = h0 if bidder == 0 else (h1 if bidder == 1 else (h2 if bidder == 2 else h3))
        if rules[H_WIDOW_DEAD] == 1:
            trump = s0 if bidder == 0 else (s1 if bidder == 1 else (s2 if bidder == 2 else s3))
        else:
            seven = hb | (np.int64(1) << widow)
            trump, discard = hp_widow_plain(seven, bidder, tab)
            hb = seven & ~(np.int64(1) << discard)
        x ^= hb + trump
        if stop < 4:
            continue
        h0 = hb if bidder == 0 else h0
        h1 = hb if bidder == 1 else h1
        h2 = hb if bidder == 2 else h2
        h3 = hb if bidder == 3 else h3
        leader = bidder if rules[H_BIDDER_LEADS] == 1 else (dealer + 1) % 4
        t = hp_play_plain(h0, h1, h2, h3, trump, leader, bidder, params[bidder, P_LEAD_TRUMP], rec, False)
        side = bidder % 2
        bid_pts, def_pts = hp_score(level, ((t & 255) + ((t >> 16) & 255)) if side == 0
                                    else (((t >> 8) & 255) + (t >> 24)), rules)
        x ^= bid_pts + 8 * def_pts
    return x


@chunk_kernel
def hasenpfeffer_phases(lo, hi, states, dstates, first_hand, chunk_size, n_hands, rules, params, stop, checksum):
    """Hasenpfeffer's plain hands (``plain.plain_hand``) cut after ``stop``; the exchange phase is the widow."""
    for ci in range(lo, hi):
        state = states[ci].copy()
        buf = np.zeros(2, np.int64)
        deck = np.empty(25, np.int64)
        tab = np.zeros((4, hp_PT_WIDTH), np.int64)
        hp_plain_tables(params, tab)
        rec = np.zeros(HP_WIDTH, np.int64)
        checksum[ci] = _hasenpfeffer_chunk(state, buf, deck, ci * chunk_size, min((ci + 1) * chunk_size, n_hands),
                                           first_hand, rules, params, tab, rec, stop)


PHASE_KERNELS = {"euchre": euchre_phases, "cutthroat": cutthroat_phases, "hasenpfeffer": hasenpfeffer_phases}
# what phase 3 is in each variant
EXCHANGE = {"euchre": "going alone", "cutthroat": "going alone, merge", "hasenpfeffer": "widow"}
