"""Hasenpfeffer kernels: 25-card deal with the joker and the widow, the auction, widow and trump, play, score.

Seats 0..3, partners opposite (side = seat % 2); position p (1..4) is seat
``(dealer + p) % 4``. Bid levels: 1..6 (numeric); in the pepper form 1..5,
6 = little pepper, 7 = big pepper. Rule options come as the int64 vector
of ``bower.sim.rules.encode`` (``H_*``), the strategy as one float64 row per seat
(``bower.sim.strategy.HASENPFEFFER_PARAMS``) and its per-card weight table ``wt``
(``card_weights``). Random strategies draw from ``(dstate, dbuf)``, deals
from ``(state, buf)``. The record (``R_*``) and summary (``S_*``) rows are
read by ``bower.sim.records`` and ``bower.sim.hasenpfeffer``.
"""

import numpy as np

from bower.kernels.bits import lowest, popcount
from bower.kernels.estimate import best_suit
from bower.kernels.deal import shuffle
from bower.kernels.play import choose_follow, least_value, nth_card, random_card, strongest_trump, weakest_trump
from bower.kernels import pimc
from bower.kernels.jit import kernel
from bower.kernels.rng import bounded
from bower.kernels.tables import EFF_SUIT, HIGHER, POWER, SUIT_MASK, TRUMP_RANK
from bower.kernels.hasenpfeffer.codes import H_BIDDER_LEADS, H_DEFENDERS_SCORE, H_PASS_FINAL, H_PEPPER, H_REDEAL, H_UNDERTRICKS, H_WIDOW_DEAD
from bower.kernels.hasenpfeffer.codes import PARAM_NAMES

N_SEATS = 4
HAND_SIZE = 6
N_TRICKS = 6
N_CARDS = 25
JOKER = 24
DECK25 = np.int64((1 << 25) - 1)
MAX_CALLS = 32
N_PLAYS = N_SEATS * N_TRICKS
LITTLE_PEPPER = 6  # bid levels in the pepper form
BIG_PEPPER = 7
FORCED_BID = 3


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

# A forced call (should-bid): seat, the call index at which it acts, the level it calls (0 = pass); -1 = none.
# Then how many of the first calls are given (should-bid's weighted model: the observed calls, whatever the
# strategy would have called) and those calls' levels, from F_GIVEN_CALLS on. NO_FORCE: none of either.
F_SEAT, F_AT, F_CALL, F_GIVEN, F_GIVEN_CALLS = range(5)
NO_FORCE = np.concatenate((np.array([-1, -1, -1, 0], np.int64), np.zeros(MAX_CALLS, np.int64)))

# Per-hand record layout (int64 row).
R_DEALER = 0
R_DEAL = 1  # 4 masks by seat, as dealt
R_WIDOW = 5  # card
R_NCALLS = 6
R_CALLS = 7  # MAX_CALLS pairs (seat, level; 0 = pass)
R_FORCED = R_CALLS + 2 * MAX_CALLS  # 1: the joker holder's forced 3
R_BIDDER = R_FORCED + 1  # seat or -1
R_BID = R_BIDDER + 1  # level or 0
R_TRUMP = R_BID + 1
R_DISCARD = R_TRUMP + 1  # card or -1
R_NPLAYS = R_DISCARD + 1
R_PLAYS = R_NPLAYS + 1  # N_PLAYS pairs (seat, card)
R_TRICKS = R_PLAYS + 2 * N_PLAYS  # by seat
R_POINTS = R_TRICKS + N_SEATS  # by side
R_WIDTH = R_POINTS + 2

# Summary counters (int64 row per chunk, merged by summing).
S_HANDS = 0
S_THROWN = 1
S_FORCED = 2
S_FORCED_MADE = 3
S_BIDS = 4  # 7: contracts by level 1..7 (forced 3s included under 3)
S_MADE = 11  # 7
S_JOKER = 18  # 4: contracts by where the joker was dealt: bidder, partner, an opponent, the widow
S_JOKER_MADE = 22  # 4
S_BIDDER_POS = 26  # 4: bidders by position
S_POINTS = 30  # 2: points of the side of position 1, of the dealer's side
S_POINTS_SQ = 32  # 2
S_BID_TRICKS = 34  # tricks of the bidding side, summed
S_WIDTH = 35


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
def bid_need(level):
    """Tricks a contract at ``level`` needs (the peppers: all six)."""
    return level if level <= 6 else 6


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


@kernel(inline="always")
def target_level(hand, seat, pepper, params, wt):
    """The level the strategy would go to with ``hand``: 0 none, 1..6, or 6/7 (little/big pepper)."""
    e = best_estimate(hand, seat, wt, params[seat, P_VOID])
    big_e = e + params[seat, P_PARTNER]
    level = 0
    for lv in range(6, 0, -1):
        if big_e >= lv + params[seat, P_CUSHION]:
            level = lv
            break
    if pepper and level == 6 and big_e >= params[seat, P_BIG_PEPPER]:
        return BIG_PEPPER
    return level


@kernel(_nrt=False)
def auction(hands, joker_seat, dealer, rules, params, wt, force, dstate, dbuf, rec):
    """The auction (RULES.md 3 with the reference's readings); calls into ``rec``. Returns (bidder, level, forced).

    Bidder -1: thrown in. ``joker_seat`` is -1 when the joker is the widow.
    ``force`` (``F_*``) gives the first ``force[F_GIVEN]`` calls and makes one
    seat's call at one turn (no draw for either).
    """
    pepper = rules[H_PEPPER] == 1
    top = BIG_PEPPER if pepper else 6
    final = rules[H_PASS_FINAL] == 1
    t0 = target_level(hands[0], 0, pepper, params, wt) if not is_random(params, 0) else 0
    t1 = target_level(hands[1], 1, pepper, params, wt) if not is_random(params, 1) else 0
    t2 = target_level(hands[2], 2, pepper, params, wt) if not is_random(params, 2) else 0
    t3 = target_level(hands[3], 3, pepper, params, wt) if not is_random(params, 3) else 0
    seat = (dealer + 1) % 4
    high = 0
    bidder = -1
    since = 0
    passed = 0
    n = 0
    while True:
        if n < force[F_GIVEN]:
            call = force[F_GIVEN_CALLS + n]
        elif seat == force[F_SEAT] and n == force[F_AT]:
            call = force[F_CALL]
        elif is_random(params, seat):
            k = bounded(dstate, dbuf, 1 + top - high)
            call = 0 if k == 0 else high + k
        else:
            tl = t0 if seat == 0 else (t1 if seat == 1 else (t2 if seat == 2 else t3))
            margin = params[seat, P_SUPPORT] if bidder >= 0 and bidder == (seat + 2) % 4 else 0.0
            call = 0
            if tl >= high + 1 and tl >= (high + 1) + margin:  # a call must beat the standing bid
                call = tl if params[seat, P_JUMP] >= 0.5 else high + 1
        rec[R_CALLS + 2 * n] = seat
        rec[R_CALLS + 2 * n + 1] = call
        n += 1
        if call == 0:
            passed |= 1 << seat
            since += 1
        else:
            high = call
            bidder = seat
            since = 0
        if high == 0:
            over = n == N_SEATS
        elif high == top:
            over = True
        elif final:
            over = (passed | (1 << bidder)) == 15
        else:
            over = since == N_SEATS - 1
        if over:
            break
        seat = (seat + 1) % 4
        if final:
            while (passed >> seat) & 1:
                seat = (seat + 1) % 4
    rec[R_NCALLS] = n
    if high == 0:
        if rules[H_REDEAL] == 1 or joker_seat < 0:
            return -1, 0, False
        return joker_seat, FORCED_BID, True
    return bidder, high, False


@kernel(inline="always")
def choose_widow(hand, widow, seat, params, wt, dead, dstate, dbuf):
    """(trump, discard, new hand) of the high bidder: the best 6 of 7 and trump by estimate (discard -1 if dead)."""
    if dead:
        if is_random(params, seat):
            return bounded(dstate, dbuf, 4), -1, hand
        t, _ = best_suit(hand, 15, wt, seat, params[seat, P_VOID])
        return t, -1, hand
    seven = hand | (np.int64(1) << widow)
    if is_random(params, seat):
        d = nth_card(seven, bounded(dstate, dbuf, 7))
        t = bounded(dstate, dbuf, 4)
        return t, d, seven & ~(np.int64(1) << d)
    best_t = -1
    best_d = -1
    best_e = 0.0
    vw = params[seat, P_VOID]
    for t in range(4):
        # the estimate of the seven, then of each six by taking one card's weight out (exact: binary fractions);
        # the void bonus from the seven's count per effective suit
        total = 0.0
        m = seven
        while m != 0:
            c = lowest(m)
            m &= m - 1
            total += wt[seat, t, c]
        n_trumps = popcount(seven & SUIT_MASK[t, t])
        voids = 0
        for s in range(4):
            if s != t and (seven & SUIT_MASK[t, s]) == 0:
                voids += 1
        m = seven
        while m != 0:
            d = lowest(m)
            m &= m - 1
            e = total - wt[seat, t, d]
            sd = EFF_SUIT[t, d]
            if sd == t:
                if n_trumps - 1 >= 2:
                    e += voids * vw
            elif n_trumps >= 2:
                e += (voids + (popcount(seven & SUIT_MASK[t, sd]) == 1)) * vw
            if best_t < 0 or e > best_e:
                best_t, best_d, best_e = t, d, e
    return best_t, best_d, seven & ~(np.int64(1) << best_d)


@kernel(inline="always")
def choose_lead(hand, trump, played, role, lead_min):
    """Lead for ``role`` 0 bidder, 1 bidder's partner, 2 defender (see sim/strategy.py)."""
    trumps = hand & SUIT_MASK[trump, trump]
    if role == 0 and trumps != 0 and popcount(trumps) >= lead_min:
        return strongest_trump(trumps, trump)
    unseen = DECK25 & ~hand & ~played
    sure = np.int64(0)
    m = hand
    while m != 0:
        c = lowest(m)
        m &= m - 1
        if HIGHER[trump, c] & unseen == 0:
            sure |= np.int64(1) << c
    if sure != 0:
        return least_value(sure, trump)
    if role == 1 and trumps != 0:
        return weakest_trump(trumps, trump)
    return least_value(hand, trump)


@kernel(inline="always")
def uses_pimc(params):
    """Whether a seat plays its cards by PIMC (``pimc_worlds`` >= 1)."""
    return (params[0, P_PIMC] >= 1.0 or params[1, P_PIMC] >= 1.0 or params[2, P_PIMC] >= 1.0
            or params[3, P_PIMC] >= 1.0)


@kernel(inline="always")
def pimc_facts(rec, seat):
    """What ``seat`` knows besides its hand and the plays, for ``pimc.choose``: (seats in play, its side, cards it
    knows to be out of play, pinned card, where it may be), from the record of the hand so far.

    Sides: the partnerships. The bidder knows its discard (the widow it took
    up is in its hand or is that discard); to the others the discard, and to
    everyone a dead widow, is one unseen card out of play. After a forced 3
    the bidder is known to hold the joker (or to have discarded it).
    """
    bidder = rec[R_BIDDER]
    discard = rec[R_DISCARD]
    known = np.int64(1) << discard if seat == bidder and discard >= 0 else np.int64(0)
    pin = np.int64(-1)
    pin_allow = np.int64(0)
    if rec[R_FORCED] == 1:
        pin = np.int64(JOKER)
        pin_allow = np.int64(1) << bidder
        if discard >= 0:
            pin_allow |= pimc.PILE_BIT
    return np.int64(15), np.int64(5) << (seat & 1), known, pin, pin_allow


@kernel(inline="always")
def play_tricks(hands, trump, leader, bidder, params, dstate, dbuf, rec, tricks, ws):
    """Six tricks among the four seats; plays into ``rec``, tricks by seat into ``tricks``.

    A seat with ``pimc_worlds`` >= 1 plays by ``pimc.choose``
    (``pimc_facts``), ``ws`` its workspace (any int64 array when no seat does).
    """
    played = np.int64(0)
    pim = 0  # bit per seat playing by PIMC
    for s in range(N_SEATS):
        tricks[s] = 0
        if params[s, P_PIMC] >= 1.0:
            pim |= 1 << s
    lead_min = params[bidder, P_LEAD_TRUMP]
    partner = (bidder + 2) % 4
    n = 0
    for _ in range(N_TRICKS):
        led = -1
        winning = -1
        winner = -1
        for k in range(N_SEATS):
            seat = (leader + k) % 4
            hand = hands[seat]
            legal = hand
            if led >= 0:
                legal = hand & SUIT_MASK[trump, led]
                if legal == 0:
                    legal = hand
            if (pim >> seat) & 1 == 1:
                active, sides, known, pin, pin_allow = pimc_facts(rec, seat)
                card = pimc.choose(hand, seat, active, trump, sides, DECK25, known, pin, pin_allow, rec, R_PLAYS,
                                   np.int64(n), np.int64(params[seat, P_PIMC]), params[seat, P_PIMC_SEES] >= 0.5,
                                   hands[0], hands[1], hands[2], hands[3], dstate, dbuf, ws)
            elif is_random(params, seat):
                card = random_card(legal, dstate, dbuf)
            elif led < 0:
                role = 0 if seat == bidder else (1 if seat == partner else 2)
                card = choose_lead(hand, trump, played, role, lead_min)
            elif winner == (seat + 2) % 4:  # the partner holds the trick
                card = least_value(legal, trump)
            else:
                card = choose_follow(legal, trump, led, winning)
            bit = np.int64(1) << card
            hands[seat] = hand & ~bit
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
        tricks[winner] += 1
        leader = winner
    rec[R_NPLAYS] = n


@kernel(inline="always")
def score_hand(level, taken, rules):
    """(bidding side's points, defenders' points) for a contract at ``level`` whose side took ``taken`` tricks."""
    need = bid_need(level)
    pepper = rules[H_PEPPER] == 1
    if pepper and level == LITTLE_PEPPER:
        bidders = 6 if taken >= need else -6
    elif pepper and level == BIG_PEPPER:
        bidders = 12 if taken >= need else -12
    elif taken >= need:
        bidders = taken
    elif rules[H_UNDERTRICKS] == 1:
        bidders = taken - need
    else:
        bidders = -level
    defenders = N_TRICKS - taken if rules[H_DEFENDERS_SCORE] == 1 else 0
    return bidders, defenders


@kernel(inline="always")
def play_dealt(dealt, widow, dealer, rules, params, wt, force, dstate, dbuf, work, rec):
    """Auction, widow, trump, play and score a dealt hand (``dealt``: masks by seat) into ``rec``.

    ``force`` as in ``auction`` (``NO_FORCE`` for none).
    """
    hands = work[0:4]
    tricks = work[4:8]
    rec[R_DEALER] = dealer
    joker_seat = np.int64(-1)
    for s in range(N_SEATS):
        hands[s] = dealt[s]
        rec[R_DEAL + s] = dealt[s]
        if (dealt[s] >> JOKER) & 1:
            joker_seat = s
    rec[R_WIDOW] = widow
    bidder, level, forced = auction(hands, joker_seat, dealer, rules, params, wt, force, dstate, dbuf, rec)
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
    trump, discard, hand = choose_widow(hands[bidder], widow, bidder, params, wt, rules[H_WIDOW_DEAD] == 1, dstate, dbuf)
    hands[bidder] = hand
    rec[R_TRUMP] = trump
    rec[R_DISCARD] = discard
    leader = bidder if rules[H_BIDDER_LEADS] == 1 else (dealer + 1) % 4
    ws = pimc.new_workspace() if uses_pimc(params) else rec  # one PIMC workspace for the hand
    play_tricks(hands, trump, leader, bidder, params, dstate, dbuf, rec, tricks, ws)
    side = bidder % 2
    bid_pts, def_pts = score_hand(level, tricks[side] + tricks[side + 2], rules)
    for s in range(N_SEATS):
        rec[R_TRICKS + s] = tricks[s]
    rec[R_POINTS + side] = bid_pts
    rec[R_POINTS + 1 - side] = def_pts


@kernel
def play_dealt_once(dealt, widow, dealer, rules, params, wt, force, dstate, dbuf, work, rec):
    """``play_dealt`` compiled once, not inlined, for the callers off the hot path (should-bid, one hand from a
    deal order): the hand's code is typed and optimised here once instead of inside each caller."""
    play_dealt(dealt, widow, dealer, rules, params, wt, force, dstate, dbuf, work, rec)


@kernel(inline="always")
def deal(state, buf, deck, dealt):
    """Shuffle the 25 cards; packets of three to positions 1..4 (twice round) by position; returns the widow.

    ``dealt[k]`` is position ``k + 1``'s mask (the caller maps positions to seats).
    """
    for i in range(N_CARDS):
        deck[i] = i
    shuffle(state, buf, deck, N_CARDS)
    for k in range(N_SEATS):
        dealt[k] = 0
    for i in range(24):
        dealt[(i // 3) % 4] |= np.int64(1) << deck[i]
    return deck[24]


@kernel(inline="always")
def play_hand(state, buf, dstate, dbuf, deck, work, dealer, rules, params, wt, rec):
    """Deal and play one hand dealt by ``dealer``."""
    by_pos = work[8:12]
    by_seat = work[12:16]
    widow = deal(state, buf, deck, by_pos)
    for p in range(N_SEATS):
        by_seat[(dealer + 1 + p) % 4] = by_pos[p]
    play_dealt(by_seat, widow, dealer, rules, params, wt, NO_FORCE, dstate, dbuf, work, rec)


@kernel(inline="always")
def tally(rec, acc):
    """Add one hand's record to the summary counters ``acc``."""
    acc[S_HANDS] += 1
    bidder = rec[R_BIDDER]
    if bidder < 0:
        acc[S_THROWN] += 1
        return
    dealer = rec[R_DEALER]
    level = rec[R_BID]
    side = bidder % 2
    taken = rec[R_TRICKS + side] + rec[R_TRICKS + side + 2]
    made = taken >= bid_need(level)
    acc[S_BIDS + level - 1] += 1
    acc[S_MADE + level - 1] += made
    if rec[R_FORCED] == 1:
        acc[S_FORCED] += 1
        acc[S_FORCED_MADE] += made
    if (rec[R_DEAL + bidder] >> JOKER) & 1:
        loc = 0
    elif (rec[R_DEAL + (bidder + 2) % 4] >> JOKER) & 1:
        loc = 1
    elif rec[R_WIDOW] == JOKER:
        loc = 3
    else:
        loc = 2
    acc[S_JOKER + loc] += 1
    acc[S_JOKER_MADE + loc] += made
    acc[S_BIDDER_POS + (bidder - dealer + 3) % 4] += 1
    first = (dealer + 1) % 2  # the side of position 1
    for k in range(2):
        pts = rec[R_POINTS + (first + k) % 2]
        acc[S_POINTS + k] += pts
        acc[S_POINTS_SQ + k] += pts * pts
    acc[S_BID_TRICKS] += taken
