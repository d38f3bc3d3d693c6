"""Ghost Hand Euchre kernels: auction with the ghost swap, trick play, scoring, chunked simulation.

Seats are 0..2; the dealer of a hand is given, position p (1..3) is seat
``(dealer + p) % 3``. Hands are card masks (``sim.cards``). Rule options come
as the int64 vector of ``sim.rules.encode`` and the strategy as the float64
vector of ``sim.strategy.to_vector``, one row per seat (``params[seat]``).
Random strategies draw from the decision stream ``(dstate, dbuf)``, apart
from the deal stream ``(state, buf)``, so deals never depend on decisions. The per-hand record (``R_*``) and the
summary counters (``S_*``) are fixed-width int64 rows defined here and read by
``sim.records`` / ``sim.runner``.
"""

import numpy as np

from kernels.bits import popcount
from kernels.deal import deal_packets
from kernels.ghost_strategy import (  # noqa: F401  (estimate is re-exported for the tests)
    P_LEAD_TRUMP,
    P_SWAP_BELOW,
    best_trump,
    choose_call,
    choose_follow,
    choose_lead,
    estimate,
    is_random,
    nth_card,
    random_call,
    random_card,
    score_shift,
)
from kernels.jit import kernel
from kernels.rng import bounded
from kernels.tables import EFF_SUIT, POWER, SUIT_MASK
from sim.rules import G_AUCTION, G_MOON_PENALTY, G_SET_KEEPS, G_STICK, G_SWAP

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

# A forced decision (paired replays, should-bid): seat, turn, swap, call, trump; -1 = not forced.
F_SEAT, F_AT, F_SWAP, F_CALL, F_TRUMP = range(5)
NO_FORCE = np.full(5, -1, np.int64)

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


@kernel(inline="always")
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


# ---------------------------------------------------------------- phases


@kernel
def auction(hands, ghost, dealer, rules, params, scores, target, force, dstate, dbuf, rec):
    """Run the auction on ``hands`` (by seat; a swap rewrites it); record swap and calls in ``rec``.

    ``scores`` are the game scores before this hand (for score-aware
    strategies). ``force`` (int64[5], ``F_*``) overrides one seat's decisions
    at one turn (for paired analyses and should-bid): the turn is the seat's
    first (``F_AT`` = -1) or the turn made when ``F_AT`` calls have been made;
    there ``F_SWAP`` (0 keep, 1 swap, -1 strategy) replaces the swap decision
    if the swap is open, and ``F_CALL`` (-1 strategy) the call; if the seat
    wins the auction, ``F_TRUMP`` (-1 strategy) is the trump it names.
    Returns (maker, bid, trump); maker -1 means thrown in.
    """
    until_passes = rules[G_AUCTION] == 1
    swap_open = rules[G_SWAP] == 1
    stick = rules[G_STICK] == 1
    standing = 0
    maker = -1
    n_calls = 0
    n_passed = 0
    passed = 0  # bit per seat
    called = 0  # bit per seat
    best_s0 = best_s1 = best_s2 = 0  # each seat's best suit and estimate, once known
    best_e0 = best_e1 = best_e2 = 0.0
    rec[R_SWAP] = -1
    pos = 1
    while True:
        seat = (dealer + pos) % 3
        p = params[seat]
        if (passed >> seat) & 1 == 0 and seat != maker:
            forced = stick and seat == dealer and n_passed == 2 and standing == 0
            rnd = is_random(p)
            at_force = seat == force[F_SEAT] and (
                n_calls == force[F_AT] if force[F_AT] >= 0 else (called >> seat) & 1 == 0
            )
            if (called >> seat) & 1 == 0:
                known = False  # whether (bs, be) already describe the seat's current hand
                bs, be = 0, 0.0
                if swap_open:
                    if at_force and force[F_SWAP] >= 0:
                        do_swap = force[F_SWAP] == 1
                    elif rnd:
                        do_swap = bounded(dstate, dbuf, 2) == 1
                    else:
                        bs, be = best_trump(hands[seat], p)
                        known = True
                        do_swap = be < p[P_SWAP_BELOW]
                    if do_swap:
                        hands[seat] = ghost
                        rec[R_SWAP] = seat
                        swap_open = False
                        known = False
                if not rnd:
                    if not known:
                        bs, be = best_trump(hands[seat], p)
                    if seat == 0:
                        best_s0, best_e0 = bs, be
                    elif seat == 1:
                        best_s1, best_e1 = bs, be
                    else:
                        best_s2, best_e2 = bs, be
            if at_force and force[F_CALL] >= 0:
                call = force[F_CALL]
            elif rnd:
                call = random_call(standing, forced, dstate, dbuf)
            else:
                be = best_e0 if seat == 0 else (best_e1 if seat == 1 else best_e2)
                call = choose_call(be, standing, forced, score_shift(seat, scores, target, p), p)
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
    trump = -1
    if maker >= 0:
        if maker == force[F_SEAT] and force[F_TRUMP] >= 0:
            trump = force[F_TRUMP]
        elif is_random(params[maker]):
            trump = bounded(dstate, dbuf, 4)
        else:
            trump = best_s0 if maker == 0 else (best_s1 if maker == 1 else best_s2)
    return maker, standing, trump


@kernel(inline="always")
def play_tricks(hands, trump, leader, maker, params, choices, dstate, dbuf, rec, tricks):
    """Play six tricks from ``hands`` (by seat), recording plays in ``rec`` and counts in ``tricks``.

    With an empty ``choices`` each seat's strategy plays; otherwise play ``i``
    takes the ``choices[i] % n``-th of the n legal cards in ascending order.
    """
    played = np.int64(0)
    h0, h1, h2 = hands[0], hands[1], hands[2]
    t0 = t1 = t2 = 0
    rnd0 = is_random(params[0])
    rnd1 = is_random(params[1])
    rnd2 = is_random(params[2])
    lead_min = params[maker, P_LEAD_TRUMP] if maker >= 0 else 0.0
    use_choices = choices.shape[0] > 0
    n = 0
    for _ in range(N_TRICKS):
        led = -1
        winning = -1  # the card winning the trick so far
        winner = -1
        for k in range(N_SEATS):
            seat = (leader + k) % 3
            hand = h0 if seat == 0 else (h1 if seat == 1 else h2)
            legal = hand
            if led >= 0:
                legal = hand & SUIT_MASK[trump, led]
                if legal == 0:
                    legal = hand
            if use_choices:
                card = nth_card(legal, choices[n] % popcount(legal))
            elif rnd0 if seat == 0 else (rnd1 if seat == 1 else rnd2):
                card = random_card(legal, dstate, dbuf)
            elif led < 0:
                card = choose_lead(hand, trump, played, seat == maker, lead_min)
            else:
                card = choose_follow(legal, trump, led, winning)
            bit = np.int64(1) << card
            if seat == 0:
                h0 = hand & ~bit
            elif seat == 1:
                h1 = hand & ~bit
            else:
                h2 = hand & ~bit
            played |= bit
            if led < 0:
                led = EFF_SUIT[trump, card]
                winning = card
                winner = seat
            elif POWER[trump, led, card] > POWER[trump, led, winning]:
                winning = card
                winner = seat
            rec[R_PLAYS + 2 * n] = seat
            rec[R_PLAYS + 2 * n + 1] = card
            n += 1
        if winner == 0:
            t0 += 1
        elif winner == 1:
            t1 += 1
        else:
            t2 += 1
        leader = winner
    hands[0], hands[1], hands[2] = h0, h1, h2
    tricks[0], tricks[1], tricks[2] = t0, t1, t2
    rec[R_NPLAYS] = n


@kernel(inline="always")
def play_hand(state, buf, dstate, dbuf, deck, work, dealer, rules, params, scores, target, rec):
    """Deal, auction, play and score one hand; the whole record goes to ``rec``.

    ``params`` has one strategy row per seat; ``scores`` are the game scores
    before the hand (zeros for independent hands). ``work`` is an int64
    scratch array of at least 13 entries (no allocation per hand).
    """
    deal_packets(state, buf, deck, 24, 4, HAND_SIZE, work[0:4])
    play_dealt(work[0:4], dstate, dbuf, work, dealer, rules, params, scores, target, NO_FORCE, rec)


@kernel(inline="always")
def play_dealt(dealt, dstate, dbuf, work, dealer, rules, params, scores, target, force, rec):
    """Auction, play and score a hand already dealt (``dealt``: position 1, 2, 3, ghost) into ``rec``.

    ``force`` as in ``auction`` (``NO_FORCE`` for none); ``work[4:13]`` is scratch.
    """
    hands = work[4:7]
    tricks = work[7:10]
    points = work[10:13]
    empty = work[13:13]
    rec[R_DEALER] = dealer
    for p in range(3):
        seat = (dealer + 1 + p) % 3
        hands[seat] = dealt[p]
        rec[R_DEAL + seat] = dealt[p]
    rec[R_DEAL + 3] = dealt[3]
    maker, bid, trump = auction(hands, dealt[3], dealer, rules, params, scores, target, force, dstate, dbuf, rec)
    rec[R_MAKER] = maker
    rec[R_BID] = bid
    rec[R_TRUMP] = trump
    if maker < 0:
        rec[R_NPLAYS] = 0
        for s in range(N_SEATS):
            tricks[s] = 0
            points[s] = 0
    else:
        play_tricks(hands, trump, maker, maker, params, empty, dstate, dbuf, rec, tricks)
        score_hand(maker, bid, tricks, rules, points)
    for s in range(N_SEATS):
        rec[R_TRICKS + s] = tricks[s]
        rec[R_POINTS + s] = points[s]


@kernel
def chunk_scratch(states, dstates, ci):
    """Chunk ``ci``'s own copies of its deal and decision streams, and the scratch arrays a hand needs.

    Returns (state, dstate, buf, dbuf, deck, rec, work, scores).
    """
    return (
        states[ci].copy(), dstates[ci].copy(), np.zeros(2, np.int64), np.zeros(2, np.int64),
        np.empty(24, np.int64), np.zeros(R_WIDTH, np.int64), np.zeros(16, np.int64), np.zeros(N_SEATS, np.int64),
    )


@kernel(inline="always")
def margin2(rec, seat):
    """Twice the margin of ``seat`` in a played hand: 2 x its points minus its two opponents' points."""
    m = 2 * rec[R_POINTS + seat]
    for s in range(N_SEATS):
        if s != seat:
            m -= rec[R_POINTS + s]
    return m


@kernel(inline="always")
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
