"""Cutthroat kernels: the deal with dummy and kitty, both auction rounds, exchange, going alone, merge, play, score.

Seats are 0..2; position p (1..3) is seat ``(dealer + p) % 3``. Rule options
come as the int64 vector of ``bower.sim.rules.encode`` (``C_*`` indices), the
strategy as one float64 row per seat (``bower.sim.strategy.CUTTHROAT_PARAMS``) and
its per-card weight table ``wt`` and keep orders ``order`` (``cutthroat_strategy.card_weights``).
Random strategies draw from the decision stream ``(dstate, dbuf)``; deals
draw from ``(state, buf)``. The per-hand record (``R_*``) and summary
counters (``S_*``) are fixed-width int64 rows read by ``bower.sim.records`` and
``bower.sim.runner``.
"""

import numpy as np

from bower.kernels.bits import popcount
from bower.kernels.cutthroat.strategy import (
    Q_ALONE,
    Q_ASSIST,
    Q_DEF_ALONE,
    Q_LEAD_TRUMP,
    Q_NAME,
    Q_ORDER,
    Q_RANDOM,
    Q_TAKE,
    Q_VOID,
    best_exchange,
    best_keep,
    random_keep,
)
from bower.kernels.deal import deal_packets
from bower.kernels.bits import lowest
from bower.kernels.estimate import best_suit, estimate
from bower.kernels.play import card_mask, lead_rank, nth_card, random_card, value_ranks
from bower.kernels import pimc
from bower.kernels.jit import kernel
from bower.kernels.rng import bounded
from bower.kernels.tables import V_BEATS, V_EFF_SUIT, V_SUIT_MASK, VALUE_ORDER, VALUE_RANK
from bower.kernels.cutthroat.codes import C_LONE_MARCH, C_LONE_ONLY, C_MAKER_ALONE, C_PICKUP_MANDATORY, C_STICK, C_TURNED_DOWN_OK
from bower.kernels.cutthroat.codes import PARAM_NAMES

N_SEATS = 3
HAND_SIZE = 5
N_TRICKS = 5
MAX_PLAYS = N_SEATS * N_TRICKS
MAX_CALLS = 6
MAKER_NEEDS = 3
DECK = np.int64((1 << 24) - 1)
Q_PIMC = PARAM_NAMES.index("pimc_worlds")
Q_PIMC_SEES = PARAM_NAMES.index("pimc_sees_all")

# Call codes in the record: 0 pass, 1 accept the up-card (order / assist / take by position), 2 + suit named.
CALL_PASS = 0
CALL_ACCEPT = 1
CALL_SUIT = 2

# A forced decision (should-bid): seat, the call index at which it acts, its call code (as in the record),
# and whether it goes alone if it becomes the maker (-1 = as the strategy does).
F_SEAT, F_AT, F_CALL, F_ALONE = range(4)
NO_FORCE = np.full(4, -1, np.int64)

# Per-hand record layout (int64 row).
R_DEALER = 0
R_DEAL = 1  # 3 masks by seat, as dealt
R_DUMMY = 4
R_KITTY = 5  # 4 cards in deal order; the first is the up-card
R_NCALLS = 9
R_CALLS = 10  # MAX_CALLS pairs (seat, call code)
R_MAKER = R_CALLS + 2 * MAX_CALLS  # seat or -1
R_TRUMP = R_MAKER + 1
R_DEALER_DISCARD = R_TRUMP + 1  # card or -1
R_MAKER_DISCARDS = R_DEALER_DISCARD + 1  # mask (0 when the maker went alone)
R_ALONE = R_MAKER_DISCARDS + 1  # bit per seat
R_NPLAYS = R_ALONE + 1
R_PLAYS = R_NPLAYS + 1  # MAX_PLAYS pairs (seat, card)
R_TRICKS = R_PLAYS + 2 * MAX_PLAYS
R_POINTS = R_TRICKS + N_SEATS
R_WIDTH = R_POINTS + N_SEATS

# Summary counters (int64 row per chunk; merged by summing). "By position": 1, 2, 3 (dealer).
S_HANDS = 0
S_THROWN = 1
S_MAKER_R1 = 2  # 3: round-one makers by position
S_MADE_R1 = 5  # 3: of those, made (3+ tricks)
S_MAKER_R2 = 8  # 3: round-two makers by position
S_MADE_R2 = 11  # 3
S_MARCH = 14  # makers taking all 5
S_EXCHANGES = 15  # dealer exchanged the up-card
S_ALONE = 16  # makers alone
S_ALONE_MADE = 17
S_ALONE_MARCH = 18
S_DEF_ALONE = 19  # lone defenders
S_DEF_ALONE_SET = 20  # of those, maker euchred
S_DEF_ALONE_ALL = 21  # of those, all five tricks to the defender
S_UP_ACCEPT = 22  # 6: round-one acceptances by up-card rank (9 T J Q K A)
S_UP_MADE = 28  # 6
S_POINTS = 34  # 3: points by position
S_POINTS_SQ = 37  # 3
S_TRICKS = 40  # 3
S_WIDTH = 43


@kernel(inline="always")
def is_random(params, seat):
    """Whether ``seat``'s strategy is the uniformly random player."""
    return params[seat, Q_RANDOM] >= 0.5


@kernel(inline="always")
def score_hand(maker, maker_tricks, maker_alone, lone_def, rules, points):
    """Points by seat into ``points`` (RULES.md 2): maker 1 / 3 (march) / lone march; euchre 2 each; lone defender 2 or 4."""
    for s in range(N_SEATS):
        points[s] = 0
    if maker_tricks >= MAKER_NEEDS:
        if maker_tricks < N_TRICKS:
            points[maker] = 1
        elif maker_alone:
            points[maker] = rules[C_LONE_MARCH]
        else:
            points[maker] = 3
        return
    each = 2
    if lone_def >= 0 and maker_tricks == 0:
        each = 4
    for s in range(N_SEATS):
        if s != maker and (lone_def < 0 or rules[C_LONE_ONLY] == 0 or s == lone_def):
            points[s] = each


@kernel(inline="always")
def _call(rec, n_calls, seat, code):
    rec[R_CALLS + 2 * n_calls] = seat
    rec[R_CALLS + 2 * n_calls + 1] = code
    return n_calls + 1


@kernel(inline="always")
def uses_pimc(params):
    """Whether a seat plays its cards by PIMC (``pimc_worlds`` >= 1)."""
    return params[0, Q_PIMC] >= 1.0 or params[1, Q_PIMC] >= 1.0 or params[2, Q_PIMC] >= 1.0


@kernel(inline="always")
def pimc_facts(rec, seat):
    """What ``seat`` knows besides its hand and the plays, for ``pimc.choose``: (seats in play, its side, cards it
    knows to be out of play, pinned card, where it may be), from the record of the hand so far.

    Sides: the maker alone against the defenders. Out of play and seen: the
    up-card left in the kitty or turned down, the dealer's own discard (to
    the dealer), the maker's discards after the merge (to the maker); unseen:
    the kitty's face-down cards, the merge's discards and the dummy of a lone
    maker (to everyone else), a hand sitting out. After an exchange the
    up-card is the dealer's (pinned there), or out of play with the dealer's
    hand sitting out, or, when the dealer made trump with the dummy, the
    dealer's or among its discards.
    """
    dealer = rec[R_DEALER]
    maker = rec[R_MAKER]
    up = rec[R_KITTY]
    alone = rec[R_ALONE]
    maker_alone = (alone >> maker) & 1 == 1
    lone_def = alone & ~(np.int64(1) << maker)
    out = -1
    if lone_def != 0:
        out = 3 - maker - lowest(lone_def)
    active = np.int64(7) if out < 0 else np.int64(7) & ~(np.int64(1) << out)
    sides = np.int64(1) << maker if seat == maker else active & ~(np.int64(1) << maker)
    known = np.int64(0)
    pin = np.int64(-1)
    pin_allow = np.int64(0)
    if rec[R_DEALER_DISCARD] < 0:
        known |= np.int64(1) << up  # never taken: left in the kitty or turned down
    else:
        if seat == dealer:
            known |= np.int64(1) << rec[R_DEALER_DISCARD]
        if dealer == out:
            known |= np.int64(1) << up
        else:
            pin = up
            pin_allow = np.int64(1) << dealer
            if dealer == maker and not maker_alone:
                pin_allow |= pimc.PILE_BIT
    if seat == maker and not maker_alone:
        known |= rec[R_MAKER_DISCARDS]
    return active, sides, known, pin, pin_allow


@kernel(_nrt=False)
def play_tricks(hands, trump, leader, maker, out, params, dstate, dbuf, rec, tricks, ws):
    """Play five tricks among the active seats (all but ``out``, -1 for none); plays into ``rec``, counts into ``tricks``.

    Leads as Ghost Hand's strategy; a defender follows with its card of least
    value while its partner is winning the trick, else with the cheapest card
    that wins, else its card of least value. Played in value space
    (``tables.VALUE_ORDER``, as Ghost Hand's ``play_core``): the card of least
    value of a mask is its lowest bit. A seat with ``pimc_worlds`` >= 1
    plays by ``pimc.choose`` (``pimc_facts``), ``ws`` its workspace (any
    int64 array when no seat does). Compiled once, without reference
    counting (``_nrt=False``: it never allocates).
    """
    v0 = value_ranks(hands[0], trump)
    v1 = value_ranks(hands[1], trump)
    v2 = value_ranks(hands[2], trump)
    played = np.int64(0)
    t0 = t1 = t2 = 0
    rnd = 0  # bit per seat playing at random or by PIMC
    pim = 0  # bit per seat playing by PIMC
    for s in range(N_SEATS):
        if is_random(params, s):
            rnd |= 1 << s
        if params[s, Q_PIMC] >= 1.0:
            rnd |= 1 << s
            pim |= 1 << s
    lead_min = params[maker, Q_LEAD_TRUMP]
    n = 0
    for _ in range(N_TRICKS):
        led = 0
        winning = 0  # by value rank
        winner = leader
        first = True
        for k in range(N_SEATS):
            seat = leader + k
            seat = seat - 3 if seat >= 3 else seat
            if seat == out:
                continue
            hand = v0 if seat == 0 else (v1 if seat == 1 else v2)
            legal = hand
            if not first:
                follow = hand & V_SUIT_MASK[trump, led]
                legal = follow if follow != 0 else hand
            if (rnd >> seat) & 1 == 1:
                if (pim >> seat) & 1 == 1:
                    active, sides, known, pin, pin_allow = pimc_facts(rec, seat)
                    card = pimc.choose(card_mask(hand, trump), seat, active, trump, sides, DECK, known, pin, pin_allow,
                                       rec, R_PLAYS, np.int64(n), np.int64(params[seat, Q_PIMC]),
                                       params[seat, Q_PIMC_SEES] >= 0.5, card_mask(v0, trump), card_mask(v1, trump),
                                       card_mask(v2, trump), np.int64(0), dstate, dbuf, ws)
                else:
                    card = random_card(card_mask(legal, trump), dstate, dbuf)
                v = VALUE_RANK[trump, card]
                takes = not first and (V_BEATS[trump, led, winning] >> v) & 1 == 1
            elif first:
                v = lead_rank(hand, trump, played, seat == maker, lead_min)
                takes = False
            elif seat != maker and winner != maker:  # the partner holds the trick
                v = lowest(legal)
                takes = (V_BEATS[trump, led, winning] >> v) & 1 == 1
            else:
                winners = legal & V_BEATS[trump, led, winning]
                v = lowest(winners if winners != 0 else legal)
                takes = winners != 0
            bit = np.int64(1) << v
            hand &= ~bit
            v0 = hand if seat == 0 else v0
            v1 = hand if seat == 1 else v1
            v2 = hand if seat == 2 else v2
            played |= bit
            if first:
                led = V_EFF_SUIT[trump, v]
                winning = v
                first = False
            else:
                winning = v if takes else winning
                winner = seat if takes else winner
            rec[R_PLAYS + 2 * n] = seat
            rec[R_PLAYS + 2 * n + 1] = VALUE_ORDER[trump, v]
            n += 1
        t0 += winner == 0
        t1 += winner == 1
        t2 += winner == 2
        leader = winner
    tricks[0], tricks[1], tricks[2] = t0, t1, t2
    rec[R_NPLAYS] = n


@kernel(inline="always")
def force_of(force):
    """A force array (``F_*``, ``NO_FORCE`` for none) as the tuple ``auction`` takes (one type for the global
    ``NO_FORCE`` and a copy, so the auction compiles once)."""
    return (force[F_SEAT], force[F_AT], force[F_CALL], force[F_ALONE])


@kernel(_nrt=False)
def auction(hands, up, dealer, rules, params, wt, force, dstate, dbuf, rec):
    """Both rounds of the auction and the dealer's exchange; calls and discard into ``rec``.

    Returns (maker, trump); maker -1 means thrown in. ``hands`` (by seat)
    gets the dealer's exchange. ``force`` (``F_*`` as a tuple, ``force_of``)
    makes one seat's call at one turn instead of its strategy (no draw for it).
    """
    u = up // 6
    n_calls = 0
    maker = -1
    trump = -1
    took_d = -1  # the dealer's best discard, when worked out for its own take decision
    took_e = 0.0
    for p in range(1, 4):
        seat = (dealer + p) % 3
        hand = hands[seat]
        if seat == force[F_SEAT] and n_calls == force[F_AT]:
            accept = force[F_CALL] == CALL_ACCEPT
        elif is_random(params, seat):
            accept = bounded(dstate, dbuf, 2) == 1
        elif p == 3:
            took_d, took_e = best_exchange(hand, up, u, wt, seat, params[seat, Q_VOID])
            accept = took_e >= params[seat, Q_TAKE]
        else:
            need = params[seat, Q_ORDER] if p == 1 else params[seat, Q_ASSIST]
            accept = estimate(hand, u, wt, seat, params[seat, Q_VOID]) >= need
        n_calls = _call(rec, n_calls, seat, CALL_ACCEPT if accept else CALL_PASS)
        if accept:
            maker = seat
            trump = u
            break
    discard = -1
    if maker >= 0:
        hand = hands[dealer]
        mandatory = rules[C_PICKUP_MANDATORY] == 1
        if is_random(params, dealer):
            k = bounded(dstate, dbuf, HAND_SIZE if mandatory else HAND_SIZE + 1)
            if not mandatory:
                k -= 1
            if k >= 0:
                discard = nth_card(hand, k)
        else:
            vw = params[dealer, Q_VOID]
            if took_d >= 0:
                d, e = took_d, took_e
            else:
                d, e = best_exchange(hand, up, u, wt, dealer, vw)
            if mandatory or e > estimate(hand, u, wt, dealer, vw):
                discard = d
        if discard >= 0:
            hands[dealer] = (hand & ~(np.int64(1) << discard)) | (np.int64(1) << up)
    else:
        allowed = 15 if rules[C_TURNED_DOWN_OK] == 1 else 15 & ~(1 << u)
        for p in range(1, 4):
            seat = (dealer + p) % 3
            stuck = p == 3 and rules[C_STICK] == 1
            call = -1
            if seat == force[F_SEAT] and n_calls == force[F_AT]:
                if force[F_CALL] >= CALL_SUIT:
                    call = force[F_CALL] - CALL_SUIT
            elif is_random(params, seat):
                k = bounded(dstate, dbuf, popcount(allowed) + (0 if stuck else 1))
                if not stuck:
                    k -= 1
                if k >= 0:
                    call = nth_card(np.int64(allowed), k)
            else:
                s, e = best_suit(hands[seat], allowed, wt, seat, params[seat, Q_VOID])
                if stuck or e >= params[seat, Q_NAME]:
                    call = s
            n_calls = _call(rec, n_calls, seat, CALL_PASS if call < 0 else CALL_SUIT + call)
            if call >= 0:
                maker = seat
                trump = call
                break
    rec[R_NCALLS] = n_calls
    rec[R_DEALER_DISCARD] = discard
    return maker, trump


@kernel(inline="always")
def play_dealt(dealt, kitty, dealer, rules, params, wt, order, force, dstate, dbuf, hands, tricks, points, pw, pm, rec):
    """Auction, alone, merge, play and score a hand already dealt into ``rec``.

    ``dealt``: masks of position 1, 2, 3 (dealer), dummy; ``kitty``: its 4
    cards in deal order, the first turned up; ``force`` as in ``auction``
    (``NO_FORCE`` for none; its ``F_ALONE`` decides the forced seat's going
    alone if it makes trump). ``hands``, ``tricks``, ``points`` are int64[3] scratch (by seat), ``pw``
    float64 and ``pm`` int64 (4, 8) scratch for the merge: separate arrays, so
    no view is made per hand.
    """
    rec[R_DEALER] = dealer
    for p in range(3):
        seat = (dealer + 1 + p) % 3
        hands[seat] = dealt[p]
        rec[R_DEAL + seat] = dealt[p]
    dummy = dealt[3]
    rec[R_DUMMY] = dummy
    for i in range(4):
        rec[R_KITTY + i] = kitty[i]
    maker, trump = auction(hands, kitty[0], dealer, rules, params, wt, force_of(force), dstate, dbuf, rec)
    rec[R_MAKER] = maker
    rec[R_TRUMP] = trump
    rec[R_MAKER_DISCARDS] = 0
    rec[R_ALONE] = 0
    if maker < 0:
        rec[R_NPLAYS] = 0
        for s in range(N_SEATS):
            rec[R_TRICKS + s] = 0
            rec[R_POINTS + s] = 0
        return
    maker_alone = False
    if rules[C_MAKER_ALONE] == 1:
        if maker == force[F_SEAT] and force[F_ALONE] >= 0:
            maker_alone = force[F_ALONE] == 1
        elif is_random(params, maker):
            maker_alone = bounded(dstate, dbuf, 2) == 1
        else:
            maker_alone = estimate(hands[maker], trump, wt, maker, params[maker, Q_VOID]) >= params[maker, Q_ALONE]
    lone_def = -1
    for k in range(1, 3):
        d = (maker + k) % 3
        if is_random(params, d):
            go = bounded(dstate, dbuf, 2) == 1
        else:
            go = estimate(hands[d], trump, wt, d, params[d, Q_VOID]) >= params[d, Q_DEF_ALONE]
        if go:
            lone_def = d
            break
    if not maker_alone:
        ten = hands[maker] | dummy
        if is_random(params, maker):
            keep = random_keep(ten, dstate, dbuf)
        else:
            keep = best_keep(ten, trump, wt, order, maker, params[maker, Q_VOID], pw, pm)
        rec[R_MAKER_DISCARDS] = ten & ~keep
        hands[maker] = keep
    out = -1
    if lone_def >= 0:
        out = 3 - maker - lone_def
        rec[R_ALONE] |= 1 << lone_def
    if maker_alone:
        rec[R_ALONE] |= 1 << maker
    if maker_alone and lone_def >= 0:
        leader = lone_def
    elif maker_alone:
        leader = (maker + 1) % 3
    elif lone_def >= 0:
        leader = maker  # the first active player to the lone defender's left
    else:
        leader = (dealer + 1) % 3
    ws = pimc.new_workspace() if uses_pimc(params) else rec  # one PIMC workspace for the hand
    play_tricks(hands, trump, leader, maker, out, params, dstate, dbuf, rec, tricks, ws)
    score_hand(maker, tricks[maker], maker_alone, lone_def, rules, points)
    for s in range(N_SEATS):
        rec[R_TRICKS + s] = tricks[s]
        rec[R_POINTS + s] = points[s]


@kernel
def play_dealt_once(dealt, kitty, dealer, rules, params, wt, order, force, dstate, dbuf, hands, tricks, points, pw, pm, rec):
    """``play_dealt`` compiled once, not inlined, for the callers off the hot path (should-bid, one hand from a
    deal order): the hand's code is typed and optimised here once instead of inside each caller."""
    play_dealt(dealt, kitty, dealer, rules, params, wt, order, force, dstate, dbuf, hands, tricks, points, pw, pm, rec)


@kernel(inline="always")
def play_hand(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, points, pw, pm, dealer, rules, params, wt,
              order, rec):
    """Deal (Fisher-Yates, one card at a time to positions 1, 2, 3 and the dummy; 4 to the kitty) and play one hand."""
    deal_packets(state, buf, deck, 24, 4, HAND_SIZE, dealt)
    for i in range(4):
        kitty[i] = deck[20 + i]
    play_dealt(dealt, kitty, dealer, rules, params, wt, order, NO_FORCE, dstate, dbuf, hands, tricks, points, pw, pm,
               rec)


@kernel(inline="always")
def tally(rec, acc):
    """Add one hand's record to the summary counters ``acc``."""
    dealer = rec[R_DEALER]
    acc[S_HANDS] += 1
    maker = rec[R_MAKER]
    if maker < 0:
        acc[S_THROWN] += 1
        return
    pos = (maker - dealer + 2) % 3
    mt = rec[R_TRICKS + maker]
    made = mt >= MAKER_NEEDS
    alone = rec[R_ALONE]
    round_one = rec[R_CALLS + 2 * rec[R_NCALLS] - 1] == CALL_ACCEPT
    if round_one:
        acc[S_MAKER_R1 + pos] += 1
        acc[S_UP_ACCEPT + rec[R_KITTY] % 6] += 1
        if made:
            acc[S_MADE_R1 + pos] += 1
            acc[S_UP_MADE + rec[R_KITTY] % 6] += 1
        if rec[R_DEALER_DISCARD] >= 0:
            acc[S_EXCHANGES] += 1
    else:
        acc[S_MAKER_R2 + pos] += 1
        if made:
            acc[S_MADE_R2 + pos] += 1
    if mt == N_TRICKS:
        acc[S_MARCH] += 1
    if (alone >> maker) & 1:
        acc[S_ALONE] += 1
        if made:
            acc[S_ALONE_MADE] += 1
        if mt == N_TRICKS:
            acc[S_ALONE_MARCH] += 1
    if alone & ~(1 << maker):
        acc[S_DEF_ALONE] += 1
        if not made:
            acc[S_DEF_ALONE_SET] += 1
        if mt == 0:
            acc[S_DEF_ALONE_ALL] += 1
    for s in range(N_SEATS):
        p = (s - dealer + 2) % 3
        pts = rec[R_POINTS + s]
        acc[S_POINTS + p] += pts
        acc[S_POINTS_SQ + p] += pts * pts
        acc[S_TRICKS + p] += rec[R_TRICKS + s]
