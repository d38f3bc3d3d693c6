"""Hasenpfeffer's plain path: whole hands when every seat plays the heuristic strategy (no random or PIMC seat).

The same records and draws as ``hand.play_hand`` (bit for bit), with less
work: the deal with its masks in registers (``deal_plain``), the estimates of
the auction and the widow from per-seat tables of whole suits
(``plain_tables``: exact integers in units of ``WEIGHT_STEP``, so every sum
is the one the card-by-card float sums give), and the card play in slot
space by the core every variant shares (``kernels.trick.play_tricks``; the joker in slot 25, the top trump slot)
with the hands in registers (``play_plain``). ``plain_tables`` decides once
a chunk or game whether the path applies: no seat random or playing by
PIMC, and every weight a whole number of units below ``WEIGHT_LIMIT``.
"""

import numpy as np

from bower.kernels.bits import popcount
from bower.kernels.deal import deal_masks
from bower.kernels.estimate import WEIGHT_LIMIT, WEIGHT_STEP
from bower.kernels.jit import PARFOR_PASSES, kernel
from bower.kernels import trick as core
from bower.kernels.tables import SLOT_DECK
from bower.kernels.hasenpfeffer.codes import H_BIDDER_LEADS, H_PASS_FINAL, H_PEPPER, H_WIDOW_DEAD
from bower.kernels.hasenpfeffer.hand import (
    R_BID,
    R_BIDDER,
    R_DEAL,
    R_DEALER,
    R_DISCARD,
    R_FORCED,
    R_NPLAYS,
    R_PLAYS,
    R_POINTS,
    R_TRICKS,
    R_TRUMP,
    R_WIDOW,
    auction_end,
    level_of,
    record_bid,
    score_hand,
    strategic_bid,
    tally,
)
from bower.kernels.hasenpfeffer.strategy import (
    BIG_PEPPER,
    N_SEATS,
    P_LEAD_TRUMP,
    P_OFF_ACE,
    P_OFF_KING,
    P_PIMC,
    P_W,
    is_random,
)

N_TRICKS = 6
# Per-seat table (``plain_tables``), int64. A suit's six cards as a 6-bit mask m (9 T J Q K A): [PT_TRUMP + m] the
# suit as trump, [PT_SAME + m] the suit of trump's colour (its jack the left bower), [PT_OTHER + m] another suit,
# each packed as weight units << 16 | trumps held << 8 | 1 if the suit counts as void; [PT_JOKER] the joker so.
# [PT_MIN_* + m]: the card of least weight of the suit's non-trumps (the trump suit: its six cards), ties the
# lowest, as weight units << 3 | rank (0 for no card). [PT_LEFT]: the left bower's units; [PT_VOID]: w_void's.
PT_TRUMP = 0
PT_SAME = 64
PT_OTHER = 128
PT_MIN_TRUMP = 192
PT_MIN_SAME = 256
PT_MIN_OTHER = 320
PT_JOKER = 384
PT_LEFT = 385
PT_VOID = 386
PT_WIDTH = 387
_UNIT = 1.0 / WEIGHT_STEP
_TRUMP_ORDER = np.array([0, 1, 6, 2, 3, 4], np.int64)  # weight cell (P_W + i) of the trump suit's 9 T J Q K A
_NONE = np.int64(-(1 << 62))  # a key below every candidate's


@kernel(inline="always")
def _units_of(x):
    """``x`` in units of ``WEIGHT_STEP`` (int64) and whether that is exact and below ``WEIGHT_LIMIT`` in size."""
    u = x * _UNIT
    ok = -WEIGHT_LIMIT < x < WEIGHT_LIMIT and u == np.floor(u)
    return np.int64(u) if ok else np.int64(0), ok


@kernel
def plain_tables(params, tab):
    """Fill ``tab`` (seats, ``PT_WIDTH``) from each seat's weights; returns whether the plain path plays the hands.

    It does when no seat is random or plays by PIMC and every weight (the 8 trump weights, the off-suit ace and
    king, ``w_void``) is a whole number of units below ``WEIGHT_LIMIT``: then every estimate is an exact sum.
    """
    plain = True
    for s in range(N_SEATS):
        if is_random(params, s) or params[s, P_PIMC] >= 1.0:
            plain = False
        w = np.zeros(11, np.int64)
        for i in range(11):
            u, ok = _units_of(params[s, P_W + i])  # P_W .. P_W + 7, P_OFF_ACE, P_OFF_KING, P_VOID
            w[i] = u
            plain = plain and ok
        ace = w[P_OFF_ACE - P_W]
        king = w[P_OFF_KING - P_W]
        for m in range(64):
            t = np.int64(0)
            same = np.int64(0)
            other = np.int64(0)
            mt = np.int64(-1)
            ms = np.int64(-1)
            mo = np.int64(-1)
            for r in range(6):
                if (m >> r) & 1:
                    wt = w[_TRUMP_ORDER[r]]
                    t += (wt << 16) + 256
                    if mt < 0 or wt < (tab[s, PT_MIN_TRUMP + m] >> 3):
                        mt = r
                        tab[s, PT_MIN_TRUMP + m] = (wt << 3) | r
                    wo = ace if r == 5 else (king if r == 4 else np.int64(0))
                    other += wo << 16
                    if mo < 0 or wo < (tab[s, PT_MIN_OTHER + m] >> 3):
                        mo = r
                        tab[s, PT_MIN_OTHER + m] = (wo << 3) | r
                    if r == 2:
                        same += (w[5] << 16) + 256
                    else:
                        same += wo << 16
                        if ms < 0 or wo < (tab[s, PT_MIN_SAME + m] >> 3):
                            ms = r
                            tab[s, PT_MIN_SAME + m] = (wo << 3) | r
            if mt < 0:
                tab[s, PT_MIN_TRUMP + m] = 0
            if mo < 0:
                tab[s, PT_MIN_OTHER + m] = 0
            if ms < 0:
                tab[s, PT_MIN_SAME + m] = 0
            tab[s, PT_TRUMP + m] = t
            tab[s, PT_SAME + m] = same + (1 if (m & ~4) == 0 else 0)
            tab[s, PT_OTHER + m] = other + (1 if m == 0 else 0)
        tab[s, PT_JOKER] = (w[7] << 16) + 256
        tab[s, PT_LEFT] = w[5]
        tab[s, PT_VOID] = w[10]
    return plain


@kernel(inline="always")
def _units(x, w_void):
    """An estimate in units from a sum ``x`` of table entries: the weights, plus the voids with two or more trumps."""
    return (x >> 16) + ((x & 255) * w_void if (x >> 8) & 255 >= 2 else 0)


@kernel(inline="always")
def best_units(hand, tab, seat):
    """(suit, estimate in units) of ``hand``'s best trump for ``seat`` (``estimate.best_suit`` of all four suits)."""
    m0 = hand & 63
    m1 = (hand >> 6) & 63
    m2 = (hand >> 12) & 63
    m3 = (hand >> 18) & 63
    j = tab[seat, PT_JOKER] * ((hand >> 24) & 1)
    wv = tab[seat, PT_VOID]
    o01 = tab[seat, PT_OTHER + m0] + tab[seat, PT_OTHER + m1] + j
    o23 = tab[seat, PT_OTHER + m2] + tab[seat, PT_OTHER + m3] + j
    best_s = np.int64(0)
    best_u = _units(tab[seat, PT_TRUMP + m0] + tab[seat, PT_SAME + m1] + o23, wv)
    u = _units(tab[seat, PT_TRUMP + m1] + tab[seat, PT_SAME + m0] + o23, wv)
    best_s, best_u = (np.int64(1), u) if u > best_u else (best_s, best_u)
    u = _units(tab[seat, PT_TRUMP + m2] + tab[seat, PT_SAME + m3] + o01, wv)
    best_s, best_u = (np.int64(2), u) if u > best_u else (best_s, best_u)
    u = _units(tab[seat, PT_TRUMP + m3] + tab[seat, PT_SAME + m2] + o01, wv)
    best_s, best_u = (np.int64(3), u) if u > best_u else (best_s, best_u)
    return best_s, best_u


@kernel(_nrt=False)
def auction_plain(t0, t1, t2, t3, joker_seat, dealer, rules, params, rec):
    """``hand.auction`` with the seats' target levels given and nothing forced or random; calls into ``rec``.

    Returns (bidder, level, forced) as ``auction`` does.
    """
    pepper = rules[H_PEPPER] == 1
    top = BIG_PEPPER if pepper else 6
    final = rules[H_PASS_FINAL] == 1
    seat = (dealer + 1) % 4
    high = 0
    bidder = -1
    since = 0
    passed = 0
    n = 0
    while True:
        tl = t0 if seat == 0 else (t1 if seat == 1 else (t2 if seat == 2 else t3))
        call = strategic_bid(tl, high, bidder, seat, params)
        n, seat, high, bidder, since, passed, over = record_bid(rec, n, seat, call, high, bidder, since, passed, top,
                                                                final)
        if over:
            break
    return auction_end(rec, n, high, bidder, joker_seat, rules)


@kernel(inline="always")
def _group_key(total, bonus, mn, base):
    """The widow key of a group's card of least weight (``PT_MIN_*`` entry ``mn`` of the suit at card ``base``)."""
    d = base + (mn & 7)
    return (total - (mn >> 3) + bonus) * 32 + (31 - d)


@kernel(_nrt=False)
def widow_plain(seven, seat, tab):
    """``hand.choose_widow`` on an exchanged widow (``seven``: the hand and the widow): (trump, discard).

    Each trump's best discard is the card of least weight of one of its groups (the trumps; each other suit,
    whose void bonus is alike for its cards), ties the lowest card, keyed as estimate * 32 + (31 - card).
    """
    m0 = seven & 63
    m1 = (seven >> 6) & 63
    m2 = (seven >> 12) & 63
    m3 = (seven >> 18) & 63
    jb = (seven >> 24) & 1
    jw = tab[seat, PT_JOKER]
    j = jw * jb
    wv = tab[seat, PT_VOID]
    left = tab[seat, PT_LEFT]
    best_t = np.int64(-1)
    best_d = np.int64(-1)
    best_e = np.int64(0)
    for t in range(4):
        mt = m0 if t == 0 else (m1 if t == 1 else (m2 if t == 2 else m3))
        u = t ^ 1
        ms = m0 if u == 0 else (m1 if u == 1 else (m2 if u == 2 else m3))
        a = 2 if t < 2 else 0
        ma = m0 if a == 0 else m2
        mb = m1 if a == 0 else m3
        x = tab[seat, PT_TRUMP + mt] + tab[seat, PT_SAME + ms] + tab[seat, PT_OTHER + ma] + tab[seat, PT_OTHER + mb] + j
        total = x >> 16
        ntr = (x >> 8) & 255
        voids = x & 255
        bt = voids * wv if ntr - 1 >= 2 else np.int64(0)
        two = ntr >= 2
        key = _NONE
        if mt != 0:
            key = max(key, _group_key(total, bt, tab[seat, PT_MIN_TRUMP + mt], 6 * t))
        if (ms >> 2) & 1:
            dl = 6 * u + 2
            key = max(key, (total - left + bt) * 32 + (31 - dl))
        if jb:
            key = max(key, (total - (jw >> 16) + bt) * 32 + (31 - 24))
        s_rest = ms & ~4
        if s_rest != 0:
            b = (voids + (popcount(s_rest) == 1)) * wv if two else np.int64(0)
            key = max(key, _group_key(total, b, tab[seat, PT_MIN_SAME + s_rest], 6 * u))
        if ma != 0:
            b = (voids + (popcount(ma) == 1)) * wv if two else np.int64(0)
            key = max(key, _group_key(total, b, tab[seat, PT_MIN_OTHER + ma], 6 * a))
        if mb != 0:
            b = (voids + (popcount(mb) == 1)) * wv if two else np.int64(0)
            key = max(key, _group_key(total, b, tab[seat, PT_MIN_OTHER + mb], 6 * a + 6))
        e = key >> 5
        if best_t < 0 or e > best_e:
            best_t = t
            best_e = e
            best_d = 31 - (key & 31)
    return best_t, best_d


@kernel(_nrt=False)
def deal_plain(state, buf, deck):
    """``hand.deal`` with the masks in registers (``deal.deal_masks``: 25 cards, four hands of 6 in packets of
    three, the last card the widow): the same draws and deal.

    Returns (positions 1..4's masks, the widow). Not inlined, without reference counting.
    """
    m0, m1, m2, m3, _rest = deal_masks(state, buf, deck, 25, 4, 6, 3)
    return m0, m1, m2, m3, deck[24]


@kernel(_nrt=False)
def play_plain(h0, h1, h2, h3, trump, leader, bidder, lead_min, rec, write):
    """``hand.play_tricks`` for heuristic seats, by the shared core (``kernels.trick.play_tricks``: four seats in two
    partnerships, the joker in slot 25): the same plays (into ``rec`` with ``write``; the number of plays
    always); returns the tricks by seat, a byte each."""
    t, n = core.play_tricks(core.to_slots(h0, trump), core.to_slots(h1, trump), core.to_slots(h2, trump),
                            core.to_slots(h3, trump), N_SEATS, N_TRICKS, core.PARTNERS, 0,
                            SLOT_DECK[trump] | (np.int64(1) << 25), trump, leader, bidder, bidder ^ 2, lead_min, 0, -1,
                            0, core.no_pick, (), rec, R_PLAYS, write)
    rec[R_NPLAYS] = n
    return t


@kernel(inline="always")
def plain_seats(p0, p1, p2, p3, dealer, rules, params, tab):
    """The dealt packets by position as the seats' hands (position p + 1 is seat (dealer + 1 + p) % 4), the joker's
    seat (-1: in the widow), and each seat's best suit and target level (``level_of`` of its ``best_units``):
    (h0, h1, h2, h3, joker_seat, s0, s1, s2, s3, t0, t1, t2, t3). Inlined into ``plain_hand`` as the lines it
    was, and shared with the phase cut (``kernels/hasenpfeffer/phases.py``)."""
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
    s0, u0 = best_units(h0, tab, 0)
    s1, u1 = best_units(h1, tab, 1)
    s2, u2 = best_units(h2, tab, 2)
    s3, u3 = best_units(h3, tab, 3)
    t0 = level_of(u0 * WEIGHT_STEP, 0, pepper, params)
    t1 = level_of(u1 * WEIGHT_STEP, 1, pepper, params)
    t2 = level_of(u2 * WEIGHT_STEP, 2, pepper, params)
    t3 = level_of(u3 * WEIGHT_STEP, 3, pepper, params)
    return h0, h1, h2, h3, joker_seat, s0, s1, s2, s3, t0, t1, t2, t3


@kernel(inline="always")
def plain_hand(state, buf, deck, dealer, rules, params, tab, rec, write):
    """Deal and play one hand dealt by ``dealer`` on the plain path (``plain_tables`` true): ``hand.play_hand``'s
    record (the plays only with ``write``)."""
    p0, p1, p2, p3, widow = deal_plain(state, buf, deck)
    h0, h1, h2, h3, joker_seat, s0, s1, s2, s3, t0, t1, t2, t3 = plain_seats(p0, p1, p2, p3, dealer, rules, params,
                                                                              tab)
    rec[R_DEALER] = dealer
    rec[R_DEAL] = h0
    rec[R_DEAL + 1] = h1
    rec[R_DEAL + 2] = h2
    rec[R_DEAL + 3] = h3
    rec[R_WIDOW] = widow
    bidder, level, forced = auction_plain(t0, t1, t2, t3, joker_seat, dealer, rules, params, rec)
    rec[R_FORCED] = 1 if forced else 0
    rec[R_BIDDER] = bidder
    rec[R_BID] = level
    if bidder < 0:
        rec[R_TRUMP] = -1
        rec[R_DISCARD] = -1
        rec[R_NPLAYS] = 0
        for s in range(N_SEATS):
            rec[R_TRICKS + s] = 0
        rec[R_POINTS] = 0
        rec[R_POINTS + 1] = 0
        return
    hb = h0 if bidder == 0 else (h1 if bidder == 1 else (h2 if bidder == 2 else h3))
    if rules[H_WIDOW_DEAD] == 1:
        trump = s0 if bidder == 0 else (s1 if bidder == 1 else (s2 if bidder == 2 else s3))
        discard = np.int64(-1)
    else:
        seven = hb | (np.int64(1) << widow)
        trump, discard = widow_plain(seven, bidder, tab)
        hb = seven & ~(np.int64(1) << discard)
    h0 = hb if bidder == 0 else h0
    h1 = hb if bidder == 1 else h1
    h2 = hb if bidder == 2 else h2
    h3 = hb if bidder == 3 else h3
    rec[R_TRUMP] = trump
    rec[R_DISCARD] = discard
    leader = bidder if rules[H_BIDDER_LEADS] == 1 else (dealer + 1) % 4
    t = play_plain(h0, h1, h2, h3, trump, leader, bidder, params[bidder, P_LEAD_TRUMP], rec, write)
    k0 = t & 255
    k1 = (t >> 8) & 255
    k2 = (t >> 16) & 255
    k3 = t >> 24
    side = bidder % 2
    bid_pts, def_pts = score_hand(level, (k0 + k2) if side == 0 else (k1 + k3), rules)
    rec[R_TRICKS] = k0
    rec[R_TRICKS + 1] = k1
    rec[R_TRICKS + 2] = k2
    rec[R_TRICKS + 3] = k3
    rec[R_POINTS + side] = bid_pts
    rec[R_POINTS + 1 - side] = def_pts


@kernel(parallel=PARFOR_PASSES)
def plain_chunk(state, buf, deck, lo, hi, first_hand, rules, params, tab, want_records, records, scratch, acc):
    """Hands ``lo .. hi - 1`` of a chunk on the plain path (``plain_hand``), tallied into ``acc``; with
    ``want_records`` each into its row of ``records``, else into ``scratch`` (the plays not written)."""
    for h in range(lo, hi):
        rec = records[h] if want_records else scratch
        plain_hand(state, buf, deck, (first_hand + h) % 4, rules, params, tab, rec, want_records)
        tally(rec, acc)
