"""Ghost Hand Euchre kernels: auction with the ghost swap, trick play, scoring, chunked simulation.

Seats are 0..2; the dealer of a hand is given, position p (1..3) is seat
``(dealer + p) % 3``. Hands are card masks (``sim.cards``). Rule options come
as the int64 vector of ``sim.rules.encode`` and the strategy as the float64
vector of ``sim.strategy.to_vector``. The per-hand record (``R_*``) and the
summary counters (``S_*``) are fixed-width int64 rows defined here and read by
``sim.records`` / ``sim.runner``.
"""

import numpy as np
from numba import prange

from kernels.bits import lowest, popcount
from kernels.deal import deal_packets
from kernels.jit import kernel
from kernels.tables import EFF_SUIT, HIGHER, POWER, SUIT_MASK, TRUMP_RANK, VALUE
from sim.rules import G_AUCTION, G_MOON_PENALTY, G_SET_KEEPS, G_STICK, G_SWAP
from sim.strategy import param_index

DECK = np.int64((1 << 24) - 1)
N_SEATS = 3
HAND_SIZE = 6
N_TRICKS = 6
N_PLAYS = N_SEATS * N_TRICKS
MOON = 6
MAX_CALLS = 8

# Per-hand record layout (int64 row).
R_DEALER = 0
R_DEAL = 1  # 4 masks: seat 0, seat 1, seat 2, ghost (as dealt)
R_SWAP = 5  # seat or -1
R_NCALLS = 6
R_CALLS = 7  # MAX_CALLS pairs (seat, call); call 0 = pass, 3..5, 6 = moon
R_MAKER = R_CALLS + 2 * MAX_CALLS  # seat or -1
R_BID = R_MAKER + 1  # 0 = none
R_TRUMP = R_BID + 1  # suit or -1
R_NPLAYS = R_TRUMP + 1
R_PLAYS = R_NPLAYS + 1  # N_PLAYS pairs (seat, card)
R_TRICKS = R_PLAYS + 2 * N_PLAYS  # by seat
R_POINTS = R_TRICKS + N_SEATS  # by seat
R_WIDTH = R_POINTS + N_SEATS

# Summary counters (int64 row per chunk; merged by summing).
S_HANDS = 0
S_THROWN = 1
S_SWAPS = 2
S_BIDS = 3  # 4 counters: bids won at 3, 4, 5, moon
S_MADE = 7  # 4 counters: of those, made
S_POINTS = 11  # 3 sums: points by position 1..3
S_TRICKS = 14  # 3 sums: tricks by position
S_MAKER_POS = 17  # 3 counts: maker by position
S_SWAP_POS = 20  # 3 counts: swapper by position
S_POINTS_SQ = 23  # 3 sums: squared points by position
S_WIDTH = 26

P_W_TRUMP = param_index("w_trump_nine")
P_W_OFF_ACE = param_index("w_off_ace")
P_W_OFF_KING = param_index("w_off_king")
P_W_VOID = param_index("w_void")
P_SWAP_BELOW = param_index("swap_below")
P_BID3 = param_index("bid_3")
P_BID4 = param_index("bid_4")
P_BID5 = param_index("bid_5")
P_MOON = param_index("bid_moon")
P_JUMP = param_index("bid_jump")
P_LEAD_TRUMP = param_index("lead_trump_min")


# ---------------------------------------------------------------- rules


@kernel
def legal_mask(hand, lead_card, trump):
    """Cards of ``hand`` that may be played to a trick led by ``lead_card``."""
    follow = hand & SUIT_MASK[trump, EFF_SUIT[trump, lead_card]]
    return follow if follow != 0 else hand


@kernel
def trick_winner(cards, trump):
    """Index in ``cards`` (play order, first led) of the card that wins the trick."""
    led = EFF_SUIT[trump, cards[0]]
    best = 0
    for i in range(1, cards.shape[0]):
        if POWER[trump, led, cards[i]] > POWER[trump, led, cards[best]]:
            best = i
    return best


@kernel
def score_hand(maker, bid, tricks, rules, points):
    """Points of each seat for a played hand into ``points`` (score table of RULES.md 1)."""
    for s in range(N_SEATS):
        points[s] = tricks[s]
    if tricks[maker] >= bid:
        if bid == MOON:
            points[maker] = 24
    else:
        penalty = rules[G_MOON_PENALTY] if bid == MOON else bid
        points[maker] = -penalty + (tricks[maker] if rules[G_SET_KEEPS] == 1 else 0)


# ---------------------------------------------------------------- strategy


@kernel
def estimate(hand, trump, params):
    """Strategy's trick estimate of ``hand`` with ``trump`` (see sim/strategy.py)."""
    est = 0.0
    n_trumps = 0
    m = hand
    while m != 0:
        c = lowest(m)
        m &= m - 1
        r = TRUMP_RANK[trump, c]
        if r >= 0:
            est += params[P_W_TRUMP + r]
            n_trumps += 1
        else:
            rank = c % 6
            if rank == 5:
                est += params[P_W_OFF_ACE]
            elif rank == 4:
                est += params[P_W_OFF_KING]
    if n_trumps >= 2:
        for s in range(4):
            if s != trump and hand & SUIT_MASK[trump, s] == 0:
                est += params[P_W_VOID]
    return est


@kernel
def best_trump(hand, params):
    """(suit, estimate) of the suit with the highest trick estimate; ties to the lowest suit.

    One pass over the cards keeps four running sums, each in ascending card
    order, so every sum equals ``estimate(hand, t, params)`` exactly.
    """
    e0 = e1 = e2 = e3 = 0.0
    n0 = n1 = n2 = n3 = 0
    off_ace = params[P_W_OFF_ACE]
    off_king = params[P_W_OFF_KING]
    m = hand
    while m != 0:
        c = lowest(m)
        m &= m - 1
        rank = c % 6
        off = off_ace if rank == 5 else (off_king if rank == 4 else 0.0)
        r = TRUMP_RANK[0, c]
        if r >= 0:
            e0 += params[P_W_TRUMP + r]
            n0 += 1
        elif rank >= 4:
            e0 += off
        r = TRUMP_RANK[1, c]
        if r >= 0:
            e1 += params[P_W_TRUMP + r]
            n1 += 1
        elif rank >= 4:
            e1 += off
        r = TRUMP_RANK[2, c]
        if r >= 0:
            e2 += params[P_W_TRUMP + r]
            n2 += 1
        elif rank >= 4:
            e2 += off
        r = TRUMP_RANK[3, c]
        if r >= 0:
            e3 += params[P_W_TRUMP + r]
            n3 += 1
        elif rank >= 4:
            e3 += off
    void = params[P_W_VOID]
    if n0 >= 2:
        e0 = _add_voids(e0, hand, 0, void)
    if n1 >= 2:
        e1 = _add_voids(e1, hand, 1, void)
    if n2 >= 2:
        e2 = _add_voids(e2, hand, 2, void)
    if n3 >= 2:
        e3 = _add_voids(e3, hand, 3, void)
    best_s, best_e = 0, e0
    if e1 > best_e:
        best_s, best_e = 1, e1
    if e2 > best_e:
        best_s, best_e = 2, e2
    if e3 > best_e:
        best_s, best_e = 3, e3
    return best_s, best_e


@kernel
def _add_voids(est, hand, trump, void):
    """``est`` plus ``void`` for each non-trump suit (in suit order) missing from ``hand``."""
    for s in range(4):
        if s != trump and hand & SUIT_MASK[trump, s] == 0:
            est += void
    return est


@kernel
def bid_level(est, params):
    """Bid level the estimate supports: 6 (moon), 5, 4, 3, or 0 for none."""
    if est >= params[P_MOON]:
        return MOON
    if est >= params[P_BID5]:
        return 5
    if est >= params[P_BID4]:
        return 4
    if est >= params[P_BID3]:
        return 3
    return 0


@kernel
def choose_call(est, standing, forced, params):
    """The call (0 pass, 3..5, 6 moon) for a hand estimated ``est`` over the standing bid; ``forced``: stuck dealer."""
    level = bid_level(est, params)
    if level == MOON:
        return MOON
    if level > standing:
        if params[P_JUMP] >= 0.5:
            return level
        return max(3, standing + 1)
    if forced:
        return 3
    return 0


@kernel
def _least_value(mask, trump):
    """Card of least value in non-empty ``mask`` (ties to the lowest index)."""
    best = -1
    m = mask
    while m != 0:
        c = lowest(m)
        m &= m - 1
        if best < 0 or VALUE[trump, c] < VALUE[trump, best]:
            best = c
    return best


@kernel
def choose_lead(hand, trump, played, is_maker, params):
    """Strategy's lead: maker's top trump when strong, else a sure winner, else least value."""
    trumps = hand & SUIT_MASK[trump, trump]
    if is_maker and trumps != 0 and popcount(trumps) >= params[P_LEAD_TRUMP]:
        best = -1
        m = trumps
        while m != 0:
            c = lowest(m)
            m &= m - 1
            if best < 0 or VALUE[trump, c] > VALUE[trump, best]:
                best = c
        return best
    unseen = DECK & ~hand & ~played
    sure = np.int64(0)
    m = hand
    while m != 0:
        c = lowest(m)
        m &= m - 1
        if HIGHER[trump, c] & unseen == 0:
            sure |= np.int64(1) << c
    if sure != 0:
        return _least_value(sure, trump)
    return _least_value(hand, trump)


@kernel
def choose_follow(hand, trump, led, best_power):
    """Strategy's follow: the cheapest legal card that wins the trick so far, else least value."""
    legal = hand & SUIT_MASK[trump, led]
    if legal == 0:
        legal = hand
    win = -1
    m = legal
    while m != 0:
        c = lowest(m)
        m &= m - 1
        p = POWER[trump, led, c]
        if p > best_power and (win < 0 or p < POWER[trump, led, win]):
            win = c
    if win >= 0:
        return win
    return _least_value(legal, trump)


# ---------------------------------------------------------------- phases


@kernel
def auction(hands, ghost, dealer, rules, params, rec):
    """Run the auction on ``hands`` (by seat; a swap rewrites it); record swap and calls in ``rec``.

    Returns (maker, bid, trump); maker -1 means thrown in.
    """
    until_passes = rules[G_AUCTION] == 1
    swap_open = rules[G_SWAP] == 1
    stick = rules[G_STICK] == 1
    standing = 0
    maker = -1
    trump = -1
    n_calls = 0
    n_passed = 0
    passed = 0  # bit per seat
    called = 0  # bit per seat
    best_s = np.empty(N_SEATS, np.int64)  # each seat's best suit and estimate, once known
    best_e = np.empty(N_SEATS, np.float64)
    rec[R_SWAP] = -1
    pos = 1
    while True:
        seat = (dealer + pos) % 3
        if (passed >> seat) & 1 == 0 and seat != maker:
            if (called >> seat) & 1 == 0:
                best_s[seat], best_e[seat] = best_trump(hands[seat], params)
                if swap_open and best_e[seat] < params[P_SWAP_BELOW]:
                    hands[seat] = ghost
                    rec[R_SWAP] = seat
                    swap_open = False
                    best_s[seat], best_e[seat] = best_trump(ghost, params)
            forced = stick and seat == dealer and n_passed == 2 and standing == 0
            call = choose_call(best_e[seat], standing, forced, params)
            rec[R_CALLS + 2 * n_calls] = seat
            rec[R_CALLS + 2 * n_calls + 1] = call
            n_calls += 1
            called |= 1 << seat
            if call == 0:
                passed |= 1 << seat
                n_passed += 1
            else:
                standing = call
                maker = seat
                trump = best_s[seat]
                if call == MOON:
                    break
        if pos == 3:
            if not until_passes or n_passed == 3:
                break
            pos = 1
        else:
            pos += 1
        if until_passes and maker >= 0 and n_passed == 2:
            break
    rec[R_NCALLS] = n_calls
    return maker, standing, trump


@kernel
def play_tricks(hands, trump, leader, maker, params, choices, rec, tricks):
    """Play six tricks from ``hands`` (by seat), recording plays in ``rec`` and counts in ``tricks``.

    With an empty ``choices`` the strategy plays; otherwise play ``i`` takes
    the ``choices[i] % n``-th of the n legal cards in ascending card order.
    """
    played = np.int64(0)
    for s in range(N_SEATS):
        tricks[s] = 0
    n = 0
    for _ in range(N_TRICKS):
        led = -1
        best_power = -1
        winner = -1
        for k in range(N_SEATS):
            seat = (leader + k) % 3
            hand = hands[seat]
            if choices.shape[0] > 0:
                legal = hand if led < 0 else hand & SUIT_MASK[trump, led]
                if legal == 0:
                    legal = hand
                pick = choices[n] % popcount(legal)
                for _ in range(pick):
                    legal &= legal - 1
                card = lowest(legal)
            elif led < 0:
                card = choose_lead(hand, trump, played, seat == maker, params)
            else:
                card = choose_follow(hand, trump, led, best_power)
            hands[seat] = hand & ~(np.int64(1) << card)
            played |= np.int64(1) << card
            if led < 0:
                led = EFF_SUIT[trump, card]
            p = POWER[trump, led, card]
            if p > best_power:
                best_power = p
                winner = seat
            rec[R_PLAYS + 2 * n] = seat
            rec[R_PLAYS + 2 * n + 1] = card
            n += 1
        tricks[winner] += 1
        leader = winner
    rec[R_NPLAYS] = n


@kernel
def play_hand(state, buf, deck, work, dealer, rules, params, rec):
    """Deal, auction, play and score one hand; the whole record goes to ``rec``.

    ``work`` is an int64 scratch array of at least 13 entries (no allocation per hand).
    """
    dealt = work[0:4]
    hands = work[4:7]
    tricks = work[7:10]
    points = work[10:13]
    empty = work[13:13]
    deal_packets(state, buf, deck, 24, 4, HAND_SIZE, dealt)
    rec[R_DEALER] = dealer
    for p in range(3):
        seat = (dealer + 1 + p) % 3
        hands[seat] = dealt[p]
        rec[R_DEAL + seat] = dealt[p]
    rec[R_DEAL + 3] = dealt[3]
    maker, bid, trump = auction(hands, dealt[3], dealer, rules, params, rec)
    rec[R_MAKER] = maker
    rec[R_BID] = bid
    if maker < 0:
        rec[R_TRUMP] = -1
        rec[R_NPLAYS] = 0
        for s in range(N_SEATS):
            tricks[s] = 0
            points[s] = 0
    else:
        rec[R_TRUMP] = trump
        play_tricks(hands, trump, maker, maker, params, empty, rec, tricks)
        score_hand(maker, bid, tricks, rules, points)
    for s in range(N_SEATS):
        rec[R_TRICKS + s] = tricks[s]
        rec[R_POINTS + s] = points[s]


@kernel
def tally(rec, acc):
    """Add one hand's record to the summary counters ``acc``."""
    dealer = rec[R_DEALER]
    acc[S_HANDS] += 1
    maker = rec[R_MAKER]
    if rec[R_SWAP] >= 0:
        acc[S_SWAPS] += 1
        acc[S_SWAP_POS + (rec[R_SWAP] - dealer + 2) % 3] += 1
    if maker < 0:
        acc[S_THROWN] += 1
        return
    level = rec[R_BID] - 3
    acc[S_BIDS + level] += 1
    acc[S_MAKER_POS + (maker - dealer + 2) % 3] += 1
    made = rec[R_TRICKS + maker] >= rec[R_BID]
    if made:
        acc[S_MADE + level] += 1
    for s in range(N_SEATS):
        pos = (s - dealer + 2) % 3
        acc[S_POINTS + pos] += rec[R_POINTS + s]
        acc[S_POINTS_SQ + pos] += rec[R_POINTS + s] * rec[R_POINTS + s]
        acc[S_TRICKS + pos] += rec[R_TRICKS + s]


@kernel(parallel=True)
def simulate_chunks(states, first_hand, chunk_size, n_hands, rules, params, want_records, records, summary):
    """Simulate hands ``first_hand .. first_hand + n_hands - 1`` in chunks, one RNG state per chunk.

    Chunk ``i`` plays hands ``i*chunk_size ..`` (relative) from ``states[i]``
    and writes only ``summary[i]`` and, when ``want_records``, its own rows of
    ``records``. The dealer of hand h is ``h % 3``.
    """
    n_chunks = states.shape[0]
    for ci in prange(n_chunks):
        state = states[ci].copy()
        buf = np.zeros(2, np.int64)
        deck = np.empty(24, np.int64)
        scratch = np.zeros(R_WIDTH, np.int64)
        work = np.zeros(16, np.int64)
        acc = np.zeros(S_WIDTH, np.int64)
        start = ci * chunk_size
        end = min(start + chunk_size, n_hands)
        for h in range(start, end):
            rec = records[h] if want_records else scratch
            play_hand(state, buf, deck, work, (first_hand + h) % 3, rules, params, rec)
            tally(rec, acc)
        summary[ci, :] = acc


@kernel
def deal_chunk(state, count, out):
    """Deals of ``count`` hands from one chunk state into ``out`` (count, 4): pos 1, 2, 3, ghost."""
    buf = np.zeros(2, np.int64)
    deck = np.empty(24, np.int64)
    for h in range(count):
        deal_packets(state, buf, deck, 24, 4, HAND_SIZE, out[h])
