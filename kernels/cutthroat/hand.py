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

from bower.kernels.arrays import copy_into
from bower.kernels.bits import popcount
from bower.kernels.tables import SUIT_MASK
from bower.kernels.cutthroat.strategy import (
    Q_ALONE,
    Q_ASSIST,
    Q_DEF_ALONE,
    Q_EQUITY,
    Q_LEAD_TRUMP,
    Q_NAME,
    Q_ORDER,
    Q_RANDOM,
    Q_TAKE,
    Q_VOID,
    best_exchange,
    best_keep,
    best_keep_plain,
    card_weights,
    equity_accept,
    equity_name,
    random_keep,
)
from bower.kernels.cutthroat.strategy import KEEP as KEEP_N
from bower.kernels.deal import deal_masks, deal_packets
from bower.kernels.bits import lowest
from bower.kernels.estimate import best_suit, estimate
from bower.kernels.play import nth_card, random_card
from bower.kernels import pimc
from bower.kernels import trick as core
from bower.kernels.jit import kernel
from bower.kernels.rng import bounded
from bower.kernels.tables import SLOT_DECK, SLOT_RANK, VALUE_RANK, slot_ranks
from bower.kernels.cutthroat.codes import C_LONE_MARCH, C_LONE_ONLY, C_MAKER_ALONE, C_PICKUP_MANDATORY, C_STICK, C_TURNED_DOWN_OK
from bower.kernels.cutthroat.codes import PARAM_NAMES
from bower.kernels.cutthroat.model import world_weight

N_SEATS = 3
HAND_SIZE = 5
N_TRICKS = 5
MAX_PLAYS = N_SEATS * N_TRICKS
MAX_CALLS = 6
MAKER_NEEDS = 3
DECK = np.int64((1 << 24) - 1)
Q_PIMC = PARAM_NAMES.index("pimc_worlds")
Q_PIMC_SEES = PARAM_NAMES.index("pimc_sees_all")
Q_PIMC_INFER = PARAM_NAMES.index("pimc_infer")
Q_PIMC_TAU = PARAM_NAMES.index("pimc_tau")
Q_PIMC_EPS = PARAM_NAMES.index("pimc_eps")
Q_PIMC_BID = PARAM_NAMES.index("pimc_bid")
Q_PIMC_MARGIN = PARAM_NAMES.index("pimc_bid_margin")
Q_PIMC_EDGE = PARAM_NAMES.index("pimc_bid_edge")
MAX_KEEPS = 12  # the merge's searched keeps (``keep_candidates``)

# Call codes in the record: 0 pass, 1 accept the up-card (order / assist / take by position), 2 + suit named.
CALL_PASS = 0
CALL_ACCEPT = 1
CALL_SUIT = 2

# A forced decision (should-bid): seat, the call index at which it acts, its call code (as in the record),
# and whether it goes alone if it becomes the maker (-1 = as the strategy does); then how many of the first
# calls are given as passes, whoever makes them (the searched auction; no draw for them). NO_FORCE: none.
F_SEAT, F_AT, F_CALL, F_ALONE, F_PASSES = range(5)
NO_FORCE = np.array([-1, -1, -1, -1, 0], np.int64)

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


def search_arg(params):
    """``search`` for the hand kernels (``pimc.search_arg`` on this variant's ``pimc_worlds``)."""
    return pimc.search_arg(params, Q_PIMC)


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


@kernel
def pick_card(seat, n, hand, legal, v0, v1, v2, v3, trump, ctx):
    """``trick.play_tricks``'s ``pick`` for a seat that plays at random or by PIMC (``ctx``: ``params``, the
    decision stream, ``rec``, the PIMC workspace ``ws``, ``rules``, ``wt``, ``order``, ``pw``, ``pm`` and ``pim``,
    a bit per seat playing by PIMC); hands and the result in slot space.

    A PIMC seat plays by ``pimc.choose`` (``pimc_facts``), with ``pimc_infer`` by ``pimc_card_inferred``
    (``rules``, ``wt``, ``order`` feed its model; ``pw``, ``pm`` are the merge's scratch, free by then); any
    other a ``legal`` card at random.
    """
    params, dstate, dbuf, rec, ws, rules, wt, order, pw, pm, pim = ctx
    if (pim >> seat) & 1 == 1 and params[seat, Q_PIMC_INFER] >= 0.5 and params[seat, Q_PIMC_SEES] < 0.5:
        card = pimc_card_inferred(core.slot_cards(hand, trump), seat, trump, np.int64(n), rules, params, wt, order,
                                  pw, pm, dstate, dbuf, rec, ws)
    elif (pim >> seat) & 1 == 1:
        card = pimc.choose_slots(hand, seat, pimc_facts(rec, seat), trump, DECK, rec, R_PLAYS, np.int64(n),
                                 np.int64(params[seat, Q_PIMC]), params[seat, Q_PIMC_SEES] >= 0.5, v0, v1, v2, v3,
                                 dstate, dbuf, ws)
    else:
        card = random_card(core.slot_cards(legal, trump), dstate, dbuf)
    return SLOT_RANK[trump, card]


@kernel(_nrt=False)
def play_tricks(hands, trump, leader, maker, out, params, dstate, dbuf, rec, tricks, ws, rules, wt, order, pw, pm,
                search):
    """Play five tricks among the active seats (all but ``out``, -1 for none); plays into ``rec``, counts into ``tricks``.

    The shared core (``kernels.trick.play_tricks``): leads as Ghost Hand's strategy; a defender follows with its
    card of least value while its partner is winning the trick, else with the cheapest card that wins, else its
    card of least value. A seat with ``pimc_worlds`` >= 1 or a random strategy plays by ``pick_card`` (``ws``:
    the PIMC workspace, any int64 array when no seat searches; with ``search`` None, compiled without the
    search, ``trick.pick_random``). Compiled once, without reference counting (``_nrt=False``: it never
    allocates).
    """
    rnd = 0  # bit per seat playing at random or by PIMC
    pim = 0  # bit per seat playing by PIMC
    for s in range(N_SEATS):
        if is_random(params, s):
            rnd |= 1 << s
        if params[s, Q_PIMC] >= 1.0:
            rnd |= 1 << s
            pim |= 1 << s
    gone = 0 if out < 0 else 1 << out
    v0 = slot_ranks(hands[0], trump)
    v1 = slot_ranks(hands[1], trump)
    v2 = slot_ranks(hands[2], trump)
    if search is None:  # compiled without the search (``search_arg``): no seat searches
        t, n = core.play_tricks(v0, v1, v2, np.int64(0), N_SEATS, N_TRICKS, 1 << (2 * maker), gone, SLOT_DECK[trump],
                                trump, leader, maker, -1, params[maker, Q_LEAD_TRUMP], 0, -1, rnd, core.pick_random,
                                (dstate, dbuf), rec, R_PLAYS, True)
    else:
        t, n = core.play_tricks(v0, v1, v2, np.int64(0), N_SEATS, N_TRICKS, 1 << (2 * maker), gone, SLOT_DECK[trump],
                                trump, leader, maker, -1, params[maker, Q_LEAD_TRUMP], 0, -1, rnd, pick_card,
                                (params, dstate, dbuf, rec, ws, rules, wt, order, pw, pm, pim), rec, R_PLAYS, True)
    tricks[0], tricks[1], tricks[2] = t & 255, (t >> 8) & 255, t >> 16
    rec[R_NPLAYS] = n


# ---------------------------------------------------------------- the plain path
# Hands where every seat plays the strategy's heuristic cards and merge (no random or PIMC seat) and nothing is
# forced: the same decisions as ``play_dealt``, with less work. Decided once a chunk (``plays_plainly``); the merge
# looks its group prefixes up in tables built once a chunk (``strategy.keep_tables``, ``best_keep_plain``), the
# tricks are played in slot space by the core every variant shares (``kernels.trick.play_tricks``).


@kernel(inline="always")
def plays_plainly(params):
    """Whether every seat plays the heuristic strategy (no random or PIMC seat): the plain path then plays it."""
    for s in range(N_SEATS):
        if params[s, Q_PIMC] >= 1.0 or is_random(params, s):
            return False
    return True


@kernel(_nrt=False)
def play_plain(h0, h1, h2, trump, leader, maker, out, lead_min, rec, tricks):
    """``play_tricks`` for hands whose seats all play the heuristic cards (``plays_plainly``): the same plays into
    ``rec`` and tricks by seat into ``tricks``, by the shared core (``kernels.trick.play_tricks``: three seats, the
    two defenders partners against the maker, ``out`` the seat sitting out or -1, ``lead_min`` the maker's
    ``lead_trump_min``)."""
    gone = 0 if out < 0 else 1 << out
    t, n = core.play_tricks(slot_ranks(h0, trump), slot_ranks(h1, trump), slot_ranks(h2, trump), np.int64(0),
                            N_SEATS, N_TRICKS, 1 << (2 * maker), gone, SLOT_DECK[trump], trump, leader, maker, -1,
                            lead_min, 0, -1, 0, core.no_pick, (), rec, R_PLAYS, True)
    tricks[0], tricks[1], tricks[2] = t & 255, (t >> 8) & 255, t >> 16
    rec[R_NPLAYS] = n


@kernel(inline="always")
def estimate_plain(hand, t, wt, seat, void_w):
    """``estimate`` with the void count without branches: the same sum, in the same order."""
    est = 0.0
    m = hand
    while m != 0:
        c = lowest(m)
        m &= m - 1
        est += wt[seat, t, c]
    voids = (((hand & SUIT_MASK[t, 0]) == 0) + ((hand & SUIT_MASK[t, 1]) == 0) + ((hand & SUIT_MASK[t, 2]) == 0)
             + ((hand & SUIT_MASK[t, 3]) == 0))  # the trump suit is never empty when it counts
    return est + voids * void_w if popcount(hand & SUIT_MASK[t, t]) >= 2 else est


@kernel(inline="always")
def exchange_plain(hand, up, t, wt, seat, void_w):
    """``best_exchange`` by ``estimate_plain``: the same (discard, estimate)."""
    best_d = -1
    best_e = 0.0
    m = hand
    up_bit = np.int64(1) << up
    while m != 0:
        d = lowest(m)
        m &= m - 1
        e = estimate_plain((hand & ~(np.int64(1) << d)) | up_bit, t, wt, seat, void_w)
        better = best_d < 0 or e > best_e
        best_d = d if better else best_d
        best_e = e if better else best_e
    return best_d, best_e


@kernel(_nrt=False)
def auction_plain(hands, up, dealer, rules, params, wt, rec):
    """``auction`` for seats that all play the heuristic strategy, nothing forced (no draw is made): the same calls,
    exchange and returns. Round one's estimates (positions 1 and 2, the dealer's best exchange and its own hand)
    are computed up front: they do not depend on each other.
    """
    u = up // 6
    q1 = dealer + 1
    q1 = q1 - 3 if q1 >= 3 else q1
    q2 = q1 + 1
    q2 = q2 - 3 if q2 >= 3 else q2
    h1 = hands[q1]
    h2 = hands[q2]
    h3 = hands[dealer]
    vd = params[dealer, Q_VOID]
    e1 = estimate_plain(h1, u, wt, q1, params[q1, Q_VOID])
    e2 = estimate_plain(h2, u, wt, q2, params[q2, Q_VOID])
    d, ex = exchange_plain(h3, up, u, wt, dealer, vd)
    own = estimate_plain(h3, u, wt, dealer, vd)
    a1 = e1 >= params[q1, Q_ORDER]
    a2 = e2 >= params[q2, Q_ASSIST]
    a3 = ex >= params[dealer, Q_TAKE]
    rec[R_CALLS] = q1
    rec[R_CALLS + 1] = CALL_ACCEPT if a1 else CALL_PASS
    maker = -1
    trump = -1
    n_calls = 1
    if not a1:
        rec[R_CALLS + 2] = q2
        rec[R_CALLS + 3] = CALL_ACCEPT if a2 else CALL_PASS
        n_calls = 2
        if not a2:
            rec[R_CALLS + 4] = dealer
            rec[R_CALLS + 5] = CALL_ACCEPT if a3 else CALL_PASS
            n_calls = 3
    discard = -1
    if a1 or a2 or a3:
        maker = q1 if a1 else (q2 if a2 else dealer)
        trump = u
        if rules[C_PICKUP_MANDATORY] == 1 or ex > own:
            discard = d
            hands[dealer] = (h3 & ~(np.int64(1) << d)) | (np.int64(1) << up)
    else:
        allowed = 15 if rules[C_TURNED_DOWN_OK] == 1 else 15 & ~(1 << u)
        for p in range(1, 4):
            seat = q1 if p == 1 else (q2 if p == 2 else dealer)
            stuck = p == 3 and rules[C_STICK] == 1
            s, e = best_suit(hands[seat], allowed, wt, seat, params[seat, Q_VOID])
            call = s if stuck or e >= params[seat, Q_NAME] else -1
            n_calls = _call(rec, n_calls, seat, CALL_PASS if call < 0 else CALL_SUIT + call)
            if call >= 0:
                maker = seat
                trump = call
                break
    rec[R_NCALLS] = n_calls
    rec[R_DEALER_DISCARD] = discard
    return maker, trump


@kernel(_nrt=False)
def deal_hand(state, buf, deck, dealt, kitty):
    """Cutthroat's deal (``deal.deal_masks``: 24 cards, four hands of 5 one card at a time to positions 1, 2, 3 and
    the dummy, the 4 left over the kitty): the masks into ``dealt``, the kitty's cards in deal order into ``kitty``
    (the first the up-card). The same deal as ``deal_packets(state, buf, deck, 24, 4, 5, dealt)`` with the kitty
    ``deck[20:24]``. Not inlined, without reference counting."""
    dealt[0], dealt[1], dealt[2], dealt[3], _rest = deal_masks(state, buf, deck, 24, 4, HAND_SIZE, 1)
    kitty[0], kitty[1], kitty[2], kitty[3] = deck[20], deck[21], deck[22], deck[23]


@kernel(inline="always")
def play_dealt_plain(dealt, kitty, dealer, rules, params, wt, keeps, dstate, dbuf, hands, tricks, points, rec):
    """``play_dealt`` for seats that all play the heuristic strategy (``plays_plainly``), nothing forced.

    ``keeps``: the merge's tables (``tw``, ``tm``, ``ow``, ``om`` of ``strategy.keep_tables``); the auction by
    ``auction_plain``, the merge by ``best_keep_plain``, the play by ``play_plain``; the same record and points.
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
    maker, trump = auction_plain(hands, kitty[0], dealer, rules, params, wt, rec)
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
    maker_alone, lone_def = going_alone(hands, trump, maker, rules, params, wt, np.int64(-1), np.int64(-1), dstate,
                                        dbuf)
    if not maker_alone:
        tw, tm, ow, om = keeps
        ten = hands[maker] | dummy
        keep = best_keep_plain(ten, trump, maker, params[maker, Q_VOID], tw, tm, ow, om)
        rec[R_MAKER_DISCARDS] = ten & ~keep
        hands[maker] = keep
    out = -1
    if lone_def >= 0:
        out = 3 - maker - lone_def
        rec[R_ALONE] |= 1 << lone_def
    if maker_alone:
        rec[R_ALONE] |= 1 << maker
    leader = first_leader(maker, maker_alone, lone_def, dealer)
    play_plain(hands[0], hands[1], hands[2], trump, leader, maker, out, params[maker, Q_LEAD_TRUMP], rec, tricks)
    score_hand(maker, tricks[maker], maker_alone, lone_def, rules, points)
    for s in range(N_SEATS):
        rec[R_TRICKS + s] = tricks[s]
        rec[R_POINTS + s] = points[s]


@kernel(inline="always")
def play_hand_plain(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, points, keeps, dealer, rules, params,
                    wt, rec):
    """``play_hand`` on the plain path: the same deal (``deal_hand``), the same hand (``play_dealt_plain``)."""
    deal_hand(state, buf, deck, dealt, kitty)
    play_dealt_plain(dealt, kitty, dealer, rules, params, wt, keeps, dstate, dbuf, hands, tricks, points, rec)


@kernel(inline="always")
def force_of(force):
    """A force array (``F_*``, ``NO_FORCE`` for none) as the tuple ``auction`` takes (one type for the global
    ``NO_FORCE`` and a copy, so the auction compiles once)."""
    return (force[F_SEAT], force[F_AT], force[F_CALL], force[F_ALONE], force[F_PASSES])


@kernel(_nrt=False)
def auction(hands, up, dealer, rules, params, wt, force, dstate, dbuf, rec, eq=None):
    """Both rounds of the auction and the dealer's exchange; calls and discard into ``rec``.

    Returns (maker, trump); maker -1 means thrown in. ``hands`` (by seat)
    gets the dealer's exchange. ``force`` (``F_*`` as a tuple, ``force_of``)
    makes one seat's call at one turn instead of its strategy, and the first
    ``F_PASSES`` calls passes (no draw for them).

    ``eq``: None (left out) compiles no game-equity bidding; otherwise (the games of an equity bidder) the tuple
    (tables, scores, target, pick): a strategic seat with ``bid_equity`` calls by ``strategy.equity_accept`` and
    ``strategy.equity_name``, and ``pick`` gets the seat that called so and whether it goes alone (seat -1: none).
    """
    if eq is not None:  # pruned when compiled for eq None
        eq[3][0] = -1
    u = up // 6
    n_calls = 0
    maker = -1
    trump = -1
    took_d = -1  # the dealer's best discard, when worked out for its own take decision
    took_e = 0.0
    for p in range(1, 4):
        seat = (dealer + p) % 3
        hand = hands[seat]
        if n_calls < force[F_PASSES]:
            accept = False
        elif seat == force[F_SEAT] and n_calls == force[F_AT]:
            accept = force[F_CALL] == CALL_ACCEPT
        elif is_random(params, seat):
            accept = bounded(dstate, dbuf, 2) == 1
        elif p == 3:
            took_d, took_e = best_exchange(hand, up, u, wt, seat, params[seat, Q_VOID])
            accept = took_e >= params[seat, Q_TAKE]
        else:
            need = params[seat, Q_ORDER] if p == 1 else params[seat, Q_ASSIST]
            accept = estimate(hand, u, wt, seat, params[seat, Q_VOID]) >= need
        if eq is not None:  # pruned when compiled for eq None: no equity code in the other runs
            if n_calls >= force[F_PASSES] and not (seat == force[F_SEAT] and n_calls == force[F_AT]):
                if params[seat, Q_EQUITY] >= 0.5 and not is_random(params, seat):
                    level = equity_accept(hand, up, p, seat, dealer, wt, params, rules[C_PICKUP_MANDATORY] == 1,
                                          rules[C_MAKER_ALONE] == 1, eq)
                    accept = level > 0
                    eq[3][0], eq[3][1] = seat, level - 1
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
            if n_calls < force[F_PASSES]:
                call = -1
            elif seat == force[F_SEAT] and n_calls == force[F_AT]:
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
                if eq is not None:  # pruned when compiled for eq None
                    if params[seat, Q_EQUITY] >= 0.5:
                        level, s = equity_name(hands[seat], allowed, p, stuck, seat, dealer, wt, params,
                                               rules[C_MAKER_ALONE] == 1, eq)
                        call = s if level > 0 else -1
                        eq[3][0], eq[3][1] = seat, level - 1
            n_calls = _call(rec, n_calls, seat, CALL_PASS if call < 0 else CALL_SUIT + call)
            if call >= 0:
                maker = seat
                trump = call
                break
    rec[R_NCALLS] = n_calls
    rec[R_DEALER_DISCARD] = discard
    return maker, trump


@kernel(inline="always")
def play_dealt(dealt, kitty, dealer, rules, params, wt, order, force, dstate, dbuf, hands, tricks, points, pw, pm, rec,
               search, eq=None):
    """Auction, alone, merge, play and score a hand already dealt into ``rec``.

    ``dealt``: masks of position 1, 2, 3 (dealer), dummy; ``kitty``: its 4
    cards in deal order, the first turned up; ``force`` as in ``auction``
    (``NO_FORCE`` for none; its ``F_ALONE`` decides the forced seat's going
    alone if it makes trump). ``hands``, ``tricks``, ``points`` are int64[3] scratch (by seat), ``pw``
    float64 and ``pm`` int64 (4, 8) scratch for the merge: separate arrays, so
    no view is made per hand. ``search`` None leaves the searched auction and
    card play out of the compiled code (Numba prunes the branches on
    ``search is None``; no seat may then search: ``search_arg``); an array
    compiles them in. ``eq``: the game-equity bidder's tables with the game's
    scores (``auction``), None (left out) compiling none of it; a seat that
    made trump by them goes alone as they chose.
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
    if search is not None and uses_pimc_bid(params) and force[F_SEAT] < 0 and force[F_PASSES] == 0:
        play_searched(kitty[0], dummy, dealer, rules, params, wt, order, dstate, dbuf, hands, tricks, points, pw, pm,
                      rec)
        return
    maker, trump = auction(hands, kitty[0], dealer, rules, params, wt, force_of(force), dstate, dbuf, rec, eq)
    f_seat, f_alone = force[F_SEAT], force[F_ALONE]
    if eq is not None:  # pruned when compiled for eq None
        if maker >= 0 and maker == eq[3][0]:  # the equity bidder made trump: alone as its tables chose
            f_seat, f_alone = maker, eq[3][1]
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
    maker_alone, lone_def = going_alone(hands, trump, maker, rules, params, wt, f_seat, f_alone, dstate, dbuf)
    if not maker_alone:
        keep = merge(hands, dummy, trump, maker, params, wt, order, pw, pm, dstate, dbuf)
        rec[R_MAKER_DISCARDS] = (hands[maker] | dummy) & ~keep
        hands[maker] = keep
    out = -1
    if lone_def >= 0:
        out = 3 - maker - lone_def
        rec[R_ALONE] |= 1 << lone_def
    if maker_alone:
        rec[R_ALONE] |= 1 << maker
    leader = first_leader(maker, maker_alone, lone_def, dealer)
    ws = rec
    if search is not None and uses_pimc(params):
        ws = pimc.new_workspace()  # one PIMC workspace for the hand
    play_tricks(hands, trump, leader, maker, out, params, dstate, dbuf, rec, tricks, ws, rules, wt, order, pw, pm,
                search)
    score_hand(maker, tricks[maker], maker_alone, lone_def, rules, points)
    for s in range(N_SEATS):
        rec[R_TRICKS + s] = tricks[s]
        rec[R_POINTS + s] = points[s]


@kernel(inline="always")
def maker_goes_alone(hands, trump, maker, rules, params, wt, f_seat, f_alone, dstate, dbuf):
    """The maker's going alone after trump is fixed (under ``maker_alone = allowed``; forced when the maker is
    ``f_seat`` and ``f_alone`` >= 0), else its strategy's (a random seat: a draw)."""
    if rules[C_MAKER_ALONE] != 1:
        return False
    if maker == f_seat and f_alone >= 0:
        return f_alone == 1
    if is_random(params, maker):
        return bounded(dstate, dbuf, 2) == 1
    return estimate(hands[maker], trump, wt, maker, params[maker, Q_VOID]) >= params[maker, Q_ALONE]


@kernel(inline="always")
def defender_goes_alone(hand, trump, d, params, wt, dstate, dbuf):
    """Whether defender ``d``'s strategy, holding ``hand``, goes alone (``defend_alone_min``; a random seat: a draw)."""
    if is_random(params, d):
        return bounded(dstate, dbuf, 2) == 1
    return estimate(hand, trump, wt, d, params[d, Q_VOID]) >= params[d, Q_DEF_ALONE]


@kernel(inline="always")
def going_alone(hands, trump, maker, rules, params, wt, f_seat, f_alone, dstate, dbuf):
    """(maker alone, lone defender or -1) after trump is fixed: the maker's going alone (``maker_goes_alone``),
    then each defender's from the maker's left, the first to go (``defender_goes_alone``)."""
    maker_alone = maker_goes_alone(hands, trump, maker, rules, params, wt, f_seat, f_alone, dstate, dbuf)
    lone_def = -1
    for k in range(1, 3):
        d = (maker + k) % 3
        if defender_goes_alone(hands[d], trump, d, params, wt, dstate, dbuf):
            lone_def = d
            break
    return maker_alone, lone_def


@kernel(inline="always")
def merge(hands, dummy, trump, maker, params, wt, order, pw, pm, dstate, dbuf):
    """The five the maker's strategy keeps of its hand and the dummy (``best_keep``, or ``random_keep``)."""
    ten = hands[maker] | dummy
    if is_random(params, maker):
        return random_keep(ten, dstate, dbuf)
    return best_keep(ten, trump, wt, order, maker, params[maker, Q_VOID], pw, pm)


@kernel(inline="always")
def first_leader(maker, maker_alone, lone_def, dealer):
    """The first lead (RULES.md 2): position 1; the first active seat left of a lone hand; the lone defender."""
    if maker_alone and lone_def >= 0:
        return lone_def
    if maker_alone:
        return (maker + 1) % 3
    if lone_def >= 0:
        return maker  # the first active player to the lone defender's left
    return (dealer + 1) % 3


@kernel
def play_dealt_once(dealt, kitty, dealer, rules, params, wt, order, force, dstate, dbuf, hands, tricks, points, pw, pm,
                    rec, search, eq=None):
    """``play_dealt`` compiled once, not inlined, for the callers off the hot path (should-bid, one hand from a
    deal order): the hand's code is typed and optimised here once instead of inside each caller. ``search`` and
    ``eq`` as in ``play_dealt``."""
    play_dealt(dealt, kitty, dealer, rules, params, wt, order, force, dstate, dbuf, hands, tricks, points, pw, pm, rec,
               search, eq)


@kernel(inline="always")
def play_hand(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, points, pw, pm, dealer, rules, params, wt,
              order, rec, search, eq=None):
    """Deal (Fisher-Yates, one card at a time to positions 1, 2, 3 and the dummy; 4 to the kitty) and play one hand
    (``search`` and ``eq`` as in ``play_dealt``)."""
    deal_packets(state, buf, deck, 24, 4, HAND_SIZE, dealt)
    for i in range(4):
        kitty[i] = deck[20 + i]
    play_dealt(dealt, kitty, dealer, rules, params, wt, order, NO_FORCE, dstate, dbuf, hands, tricks, points, pw, pm,
               rec, search, eq)


@kernel(inline="always")
def play_hand_once(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, points, pw, pm, dealer, rules, params,
                   wt, order, rec, search):
    """``play_hand`` with the hand a call to ``play_dealt_once`` instead of inlined: what a driver calls when a seat
    searches (``search`` not None; its ``if search is None`` is pruned before anything is inlined:
    ``jit._dead_branch_prune``), so the searched hand is compiled once, in ``play_dealt_once``, for every caller."""
    deal_packets(state, buf, deck, 24, 4, HAND_SIZE, dealt)
    for i in range(4):
        kitty[i] = deck[20 + i]
    play_dealt_once(dealt, kitty, dealer, rules, params, wt, order, NO_FORCE.copy(), dstate, dbuf, hands, tricks,
                    points, pw, pm, rec, search)


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


# ---------------------------------------------------------------- PIMC: the searched auction and the inference


@kernel(inline="always")
def searches(params, seat):
    """Whether ``seat`` searches its auction decisions by PIMC (``pimc_bid`` on, ``pimc_worlds`` >= 1, not random)."""
    return params[seat, Q_PIMC_BID] >= 0.5 and params[seat, Q_PIMC] >= 1.0 and not is_random(params, seat)


@kernel(inline="always")
def uses_pimc_bid(params):
    """Whether a seat searches its auction decisions by PIMC (``searches``)."""
    return searches(params, 0) or searches(params, 1) or searches(params, 2)


@kernel
def draw_cards(pool, k, dstate, dbuf):
    """``k`` cards of ``pool`` drawn uniformly from the decision stream (pick ``i``: the ``bounded``-th left)."""
    out = np.int64(0)
    for _ in range(k):
        c = nth_card(pool, bounded(dstate, dbuf, popcount(pool)))
        out |= np.int64(1) << c
        pool &= ~(np.int64(1) << c)
    return out


@kernel
def finish_points(hands, dummy, dealer, maker, trump, f_seat, f_alone, lone_given, keep_given, me, rules, params, wt,
                  order, pw, pm, dstate, dbuf, points, ws):
    """Seat ``me``'s points when the hand is finished from the auction's end (``hands`` by seat after the
    exchange; rewritten) and the contract solved double dummy.

    Going alone as ``going_alone`` (``f_seat``, ``f_alone``), or given
    (``lone_given`` >= -1: the lone defender or -1, the maker alone when
    ``f_alone`` is 1); the merge the strategy's, or ``keep_given`` (>= 0);
    then the maker alone against the defenders from the first lead
    (``pimc.solve_deal_points``, or ``pimc.solve_deal`` against a lone
    defender, whose score needs the exact count) and ``score_hand``. With ``pimc_bid_margin`` the
    value is ``me``'s margin instead: its points less the mean of the other
    two seats'.
    """
    if lone_given < -1:
        maker_alone, lone_def = going_alone(hands, trump, maker, rules, params, wt, f_seat, f_alone, dstate, dbuf)
    else:
        maker_alone = f_alone == 1
        lone_def = lone_given
    if not maker_alone:
        if keep_given >= 0:
            hands[maker] = keep_given
        else:
            hands[maker] = merge(hands, dummy, trump, maker, params, wt, order, pw, pm, dstate, dbuf)
    active = np.int64(7)
    if lone_def >= 0:
        active &= ~(np.int64(1) << (3 - maker - lone_def))
    leader = first_leader(maker, maker_alone, lone_def, dealer)
    if lone_def >= 0:  # a lone defender scores more when the maker takes no trick at all: the exact count
        mt = pimc.solve_deal(hands[0], hands[1], hands[2], np.int64(0), active, trump, leader, np.int64(1) << maker,
                             ws)
    else:  # made, lost or marched is all the score needs: the solver's points mode
        mt = pimc.solve_deal_points(hands[0], hands[1], hands[2], np.int64(0), active, trump, leader,
                                    np.int64(1) << maker, MAKER_NEEDS, ws)
    score_hand(maker, mt, maker_alone, lone_def, rules, points)
    if params[me, Q_PIMC_MARGIN] >= 0.5:
        return 1.5 * points[me] - 0.5 * (points[0] + points[1] + points[2])
    return 1.0 * points[me]


@kernel
def _auction_world(me, own, up, sees_all, n_unseen, full, restricted, dstate, dbuf, rec, ws, world):
    """A world for an auction decision of ``me`` (before the exchange): ``world`` by seat as dealt, returns the
    dummy. The unseen cards go to the other two seats and the pile (``pimc.draw``), the dummy is 5 of the pile
    (the rest the kitty's face-down cards); with ``sees_all`` the true deal (``rec``)."""
    if sees_all:
        for s in range(N_SEATS):
            world[s] = rec[R_DEAL + s]
        return rec[R_DUMMY]
    pimc.draw(own, me, np.int64(7), n_unseen, full, restricted, dstate, dbuf, ws)
    world[0], world[1], world[2], _, pile, _, _, _, _ = pimc.world_hands(ws)
    return draw_cards(pile, 5, dstate, dbuf)


@kernel
def call_values(me, k, up, own, cand, n_cand, dealer, rules, params, wt, order, pw, pm, dstate, dbuf, rec, ws, vals):
    """The searched calls' values: ``vals[i]``, ``me``'s points summed over its worlds (weighted with
    ``pimc_infer``) when it makes candidate ``i`` = (call code, alone 0 / 1) at turn ``k`` after ``k`` passes.

    In each world (``_auction_world``) the passes are given, the seats'
    strategies finish the auction and the exchange (``auction``), going
    alone and the merge (``finish_points``; the same decision-stream state
    for every candidate of a world), and the contract is solved double
    dummy; a hand thrown in scores 0. With ``pimc_infer`` a world weighs
    ``model.world_weight`` of the passes (``rec``'s first ``k`` calls).
    Returns the summed weights.
    """
    n_worlds = np.int64(params[me, Q_PIMC])
    sees_all = params[me, Q_PIMC_SEES] >= 0.5
    infer = params[me, Q_PIMC_INFER] >= 0.5 and not sees_all
    tau, eps = params[me, Q_PIMC_TAU], params[me, Q_PIMC_EPS]
    for i in range(n_cand):
        vals[i] = 0.0
    n_unseen, restricted, full = 0, False, 0
    if sees_all:
        n_worlds = 1
    else:
        n_unseen, restricted, full = pimc.plan_fresh(own, me, np.int64(7), DECK, np.int64(1) << up, ws)
    world = np.zeros(N_SEATS, np.int64)
    hands = np.zeros(N_SEATS, np.int64)
    points = np.zeros(N_SEATS, np.int64)
    scratch = np.zeros(R_WIDTH, np.int64)
    ds = np.empty(4, np.uint64)
    db = np.zeros(2, np.int64)
    dist = np.zeros(12)
    calls = rec[R_CALLS:R_CALLS + 2 * MAX_CALLS]
    total = 0.0
    for _ in range(n_worlds):
        dummy = _auction_world(me, own, up, sees_all, n_unseen, full, restricted, dstate, dbuf, rec, ws, world)
        w = 1.0
        if infer:
            w = world_weight(world, dummy, up, dealer, me, calls, k, False, np.int64(-1), np.int64(0), np.int64(0),
                             False, np.int64(0), rules, params, wt, order, tau, eps, pw, pm, dist)
            if not w > 0.0:
                continue
        total += w
        for i in range(n_cand):
            for s in range(N_SEATS):
                hands[s] = world[s]
            copy_into(ds, dstate)
            copy_into(db, dbuf)
            force = (me, k, cand[i, 0], cand[i, 1], k)
            maker, trump = auction(hands, up, dealer, rules, params, wt, force, ds, db, scratch)
            if maker < 0:
                continue
            vals[i] += w * finish_points(hands, dummy, dealer, maker, trump, me, cand[i, 1], np.int64(-2),
                                         np.int64(-1), me, rules, params, wt, order, pw, pm, ds, db, points, ws)
    return total


@kernel
def exchange_values(me, n_calls, up, own, maker, f_seat, f_alone, cand, n_cand, rules, params, wt, order, pw, pm,
                    dstate, dbuf, rec, ws, vals):
    """The dealer's searched exchange: ``vals[i]``, its points summed over its worlds when it lays down
    ``cand[i]`` for the up-card (-1: keeps its hand), after the round-one call of ``maker`` (call ``n_calls`` - 1).

    Worlds as ``call_values`` (weighted by the whole auction with
    ``pimc_infer``); going alone (``f_seat``, ``f_alone``: the searched
    maker's choice), the lone defender and the merge by the strategies.
    Returns the summed weights.
    """
    n_worlds = np.int64(params[me, Q_PIMC])
    sees_all = params[me, Q_PIMC_SEES] >= 0.5
    infer = params[me, Q_PIMC_INFER] >= 0.5 and not sees_all
    tau, eps = params[me, Q_PIMC_TAU], params[me, Q_PIMC_EPS]
    for i in range(n_cand):
        vals[i] = 0.0
    n_unseen, restricted, full = 0, False, 0
    if sees_all:
        n_worlds = 1
    else:
        n_unseen, restricted, full = pimc.plan_fresh(own, me, np.int64(7), DECK, np.int64(1) << up, ws)
    world = np.zeros(N_SEATS, np.int64)
    hands = np.zeros(N_SEATS, np.int64)
    points = np.zeros(N_SEATS, np.int64)
    ds = np.empty(4, np.uint64)
    db = np.zeros(2, np.int64)
    dist = np.zeros(12)
    calls = rec[R_CALLS:R_CALLS + 2 * MAX_CALLS]
    trump = up // 6
    total = 0.0
    for _ in range(n_worlds):
        dummy = _auction_world(me, own, up, sees_all, n_unseen, full, restricted, dstate, dbuf, rec, ws, world)
        w = 1.0
        if infer:
            w = world_weight(world, dummy, up, me, me, calls, n_calls, False, np.int64(-1), np.int64(0), np.int64(0),
                             False, np.int64(0), rules, params, wt, order, tau, eps, pw, pm, dist)
            if not w > 0.0:
                continue
        total += w
        for i in range(n_cand):
            for s in range(N_SEATS):
                hands[s] = world[s]
            hands[me] = own if cand[i] < 0 else (own & ~(np.int64(1) << cand[i])) | (np.int64(1) << up)
            copy_into(ds, dstate)
            copy_into(db, dbuf)
            vals[i] += w * finish_points(hands, dummy, me, maker, trump, f_seat, f_alone, np.int64(-2), np.int64(-1),
                                         me, rules, params, wt, order, pw, pm, ds, db, points, ws)
    return total


@kernel
def _top_cards(mask, t, j):
    """The ``j`` cards of ``mask`` of highest power under trump ``t`` (one effective suit: ``VALUE_RANK`` order)."""
    out = np.int64(0)
    for _ in range(j):
        best = -1
        m = mask & ~out
        while m:
            c = lowest(m)
            m &= m - 1
            if best < 0 or VALUE_RANK[t, c] > VALUE_RANK[t, best]:
                best = c
        out |= np.int64(1) << best
    return out


@kernel
def keep_candidates(ten, t, wt, seat, void_w, mine, cand):
    """The merge's searched keeps into ``cand`` (``MAX_KEEPS`` + 1 at most); returns how many.

    For every split of the five over trump and the three off-suits (as
    ``best_keep``), the highest cards of each suit by power (a lower card
    kept over a higher one of its suit is never tried); of those the
    ``MAX_KEEPS`` with the highest estimate for the seat (ties: the larger
    mask), and the strategy's own keep ``mine`` if it is not among them.
    """
    masks = np.zeros(64, np.int64)
    ests = np.zeros(64)
    groups = np.zeros(4, np.int64)
    groups[0] = ten & SUIT_MASK[t, t]
    g = 1
    for s in range(4):
        if s != t:
            groups[g] = ten & SUIT_MASK[t, s]
            g += 1
    n0, n1, n2, n3 = popcount(groups[0]), popcount(groups[1]), popcount(groups[2]), popcount(groups[3])
    n = 0
    for k0 in range(min(KEEP_N, n0) + 1):
        for k1 in range(min(KEEP_N - k0, n1) + 1):
            for k2 in range(min(KEEP_N - k0 - k1, n2) + 1):
                k3 = KEEP_N - k0 - k1 - k2
                if k3 > n3:
                    continue
                msk = (_top_cards(groups[0], t, k0) | _top_cards(groups[1], t, k1) | _top_cards(groups[2], t, k2)
                       | _top_cards(groups[3], t, k3))
                masks[n] = msk
                ests[n] = estimate(msk, t, wt, seat, void_w)
                n += 1
    m = 0
    have_mine = False
    for _ in range(min(n, MAX_KEEPS)):
        best = -1
        for i in range(n):
            if masks[i] < 0:
                continue
            if best < 0 or ests[i] > ests[best] or (ests[i] == ests[best] and masks[i] > masks[best]):
                best = i
        cand[m] = masks[best]
        have_mine = have_mine or masks[best] == mine
        masks[best] = -1
        m += 1
    if not have_mine:
        cand[m] = mine
        m += 1
    return m


@kernel
def _late_plan(me, own, seen, sees_all, rec, ws):
    """The plan of the worlds for a decision of ``me`` after the exchange (the merge, a defender's going alone),
    holding ``own``: what it has not seen (not its hand, ``seen`` besides, the up-card left or its own discard)
    goes to the other two seats (the up-card another dealer took pinned there) and the pile
    (``pimc.plan_fresh_pinned``). Returns (unseen cards, restricted, full state); nothing to plan with
    ``sees_all``."""
    if sees_all:
        return 0, False, 0
    up = rec[R_KITTY]
    disc = rec[R_DEALER_DISCARD]
    dealer = rec[R_DEALER]
    known = seen
    pin = np.int64(-1)
    pin_allow = np.int64(0)
    if disc < 0:
        known |= np.int64(1) << up
    elif dealer == me:
        known |= np.int64(1) << disc
    else:
        pin = up
        pin_allow = np.int64(1) << dealer
    return pimc.plan_fresh_pinned(own, me, np.int64(7), DECK, known, pin, pin_allow, ws)


@kernel
def _late_world(me, hands, dummy, alone_seen, alone, sees_all, infer, n_unseen, full, restricted, rules, params, wt,
                order, pw, pm, dist, dealt, dstate, dbuf, rec, ws, world):
    """A world for a decision of ``me`` after the exchange (``_late_plan``'s): ``world`` by seat after the
    exchange; returns (the dummy, the world's weight).

    ``dummy`` >= 0: the dummy, seen (the maker's merge); -1: drawn, 5 of the
    pile. With ``sees_all`` the true ``hands`` and dummy (weight 1). With
    ``infer`` the weight is ``model.world_weight`` of the calls, the
    exchange (another dealer's discard drawn from the pile left) and the
    first ``alone_seen`` going-alone decisions (``alone``: bit per seat);
    else 1. ``dealt`` (int64[3]) is scratch.
    """
    if sees_all:
        for s in range(N_SEATS):
            world[s] = hands[s]
        return rec[R_DUMMY], 1.0
    pimc.draw(hands[me], me, np.int64(7), n_unseen, full, restricted, dstate, dbuf, ws)
    world[0], world[1], world[2], _, pile, _, _, _, _ = pimc.world_hands(ws)
    if dummy < 0:
        dummy = draw_cards(pile, 5, dstate, dbuf)
        pile &= ~dummy
    if not infer:
        return dummy, 1.0
    up = rec[R_KITTY]
    disc = rec[R_DEALER_DISCARD]
    dealer = rec[R_DEALER]
    wd = disc
    for s in range(N_SEATS):
        dealt[s] = world[s]
    dealt[me] = rec[R_DEAL + me]
    if disc >= 0 and dealer != me:
        wd = lowest(draw_cards(pile, 1, dstate, dbuf))
        dealt[dealer] = (world[dealer] & ~(np.int64(1) << up)) | (np.int64(1) << wd)
    tau, eps = params[me, Q_PIMC_TAU], params[me, Q_PIMC_EPS]
    w = world_weight(dealt, dummy, up, dealer, me, rec[R_CALLS:R_CALLS + 2 * MAX_CALLS], rec[R_NCALLS], True, wd,
                     alone_seen, alone, False, np.int64(0), rules, params, wt, order, tau, eps, pw, pm, dist)
    return dummy, w


@kernel
def keep_values(me, hands, dummy, dealer, trump, lone_def, cand, n_cand, rules, params, wt, order, pw, pm, dstate,
                dbuf, rec, ws, vals):
    """The maker's searched merge: ``vals[i]``, its points summed over its worlds when it keeps ``cand[i]`` of
    its hand (``hands[me]``, after the exchange) and the dummy; the lone defender (``lone_def``) is known.

    The worlds (``_late_plan``, ``_late_world``) deal what the maker has not
    seen (not its hand, the dummy, the up-card left or its own discard) to
    the other two seats (the up-card the other dealer took pinned there) and
    the kitty; with ``pimc_infer`` each weighs ``model.world_weight`` of the
    calls, the exchange and going alone. With ``pimc_sees_all`` the one
    world is ``hands``. Returns the summed weights.
    """
    n_worlds = np.int64(params[me, Q_PIMC])
    sees_all = params[me, Q_PIMC_SEES] >= 0.5
    infer = params[me, Q_PIMC_INFER] >= 0.5 and not sees_all
    for i in range(n_cand):
        vals[i] = 0.0
    if sees_all:
        n_worlds = 1
    n_unseen, restricted, full = _late_plan(me, hands[me], dummy, sees_all, rec, ws)
    world = np.zeros(N_SEATS, np.int64)
    dealt = np.zeros(N_SEATS, np.int64)
    h = np.zeros(N_SEATS, np.int64)
    points = np.zeros(N_SEATS, np.int64)
    dist = np.zeros(12)
    total = 0.0
    for _ in range(n_worlds):
        _, w = _late_world(me, hands, dummy, np.int64(3), rec[R_ALONE], sees_all, infer, n_unseen, full, restricted,
                           rules, params, wt, order, pw, pm, dist, dealt, dstate, dbuf, rec, ws, world)
        if not w > 0.0:
            continue
        total += w
        for i in range(n_cand):
            for s in range(N_SEATS):
                h[s] = world[s]
            vals[i] += w * finish_points(h, dummy, dealer, me, trump, me, np.int64(0), lone_def, cand[i], me, rules,
                                         params, wt, order, pw, pm, dstate, dbuf, points, ws)
    return total


@kernel
def lone_values(me, second, hands, dealer, trump, maker, maker_alone, asked, rules, params, wt, order, pw, pm, dstate,
                dbuf, rec, ws, vals):
    """A searching defender's going alone: ``vals[0]`` (it does not), ``vals[1]`` (it goes alone), its points
    summed over its worlds; ``asked``: how many going-alone decisions were made before it (the maker's, and
    the first defender's when ``me`` is the second).

    The worlds (``_late_plan``, ``_late_world``) deal what the defender has
    not seen (not its hand, the up-card left or its own discard) to the
    other two seats (the up-card another dealer took pinned there), the
    dummy and the kitty; with ``pimc_infer`` each weighs
    ``model.world_weight`` of the calls, the exchange and the ``asked``
    going-alone decisions (none of them went but a lone maker). With
    ``pimc_sees_all`` the one world is ``hands`` with the true dummy. When
    it does not go, the other defender still to be asked (``second``, -1:
    none) decides by its strategy (the same decision-stream state for both
    candidates of a world); then the maker's merge by its strategy and the
    contract solved double dummy (``finish_points``). Returns the summed
    weights.
    """
    n_worlds = np.int64(params[me, Q_PIMC])
    sees_all = params[me, Q_PIMC_SEES] >= 0.5
    infer = params[me, Q_PIMC_INFER] >= 0.5 and not sees_all
    vals[0] = 0.0
    vals[1] = 0.0
    if sees_all:
        n_worlds = 1
    n_unseen, restricted, full = _late_plan(me, hands[me], np.int64(0), sees_all, rec, ws)
    world = np.zeros(N_SEATS, np.int64)
    dealt = np.zeros(N_SEATS, np.int64)
    h = np.zeros(N_SEATS, np.int64)
    points = np.zeros(N_SEATS, np.int64)
    ds = np.empty(4, np.uint64)
    db = np.zeros(2, np.int64)
    dist = np.zeros(12)
    alone = np.int64(1) << maker if maker_alone else np.int64(0)
    f_alone = np.int64(1) if maker_alone else np.int64(0)
    total = 0.0
    for _ in range(n_worlds):
        dummy, w = _late_world(me, hands, np.int64(-1), asked, alone, sees_all, infer, n_unseen, full, restricted,
                               rules, params, wt, order, pw, pm, dist, dealt, dstate, dbuf, rec, ws, world)
        if not w > 0.0:
            continue
        total += w
        for c in range(2):
            for s in range(N_SEATS):
                h[s] = world[s]
            copy_into(ds, dstate)
            copy_into(db, dbuf)
            lone = me if c == 1 else np.int64(-1)
            if c == 0 and second >= 0 and defender_goes_alone(h[second], trump, second, params, wt, ds, db):
                lone = second
            vals[c] += w * finish_points(h, dummy, dealer, maker, trump, np.int64(-1), f_alone, lone, np.int64(-1),
                                         me, rules, params, wt, order, pw, pm, ds, db, points, ws)
    return total


@kernel
def _best(vals, n, mine, edge):
    """The index of the highest of ``vals[:n]`` (the first of ties) when it beats ``vals[mine]`` by more than
    ``edge`` (``pimc_bid_edge`` times the summed weights: the values are sums over the worlds), else ``mine``."""
    best = 0
    for i in range(n):
        if vals[i] > vals[best]:
            best = i
    if vals[best] > vals[mine] + edge:
        return best
    return mine


@kernel
def auction_force(dealt, up, dealer, rules, params, wt, order, pw, pm, dstate, dbuf, rec, ws):
    """The calls with the searching seats' (``searches``) made by PIMC, as one force (``F_*`` tuple).

    Turn by turn (every call before the deciding one is a pass): a seat
    that does not search makes its strategy's call (``auction`` with the
    passes so far given); a searching seat scores its candidates (round one:
    pass, accept, accept alone; round two: pass unless stuck, each allowed
    suit, with or without going alone; alone only under ``maker_alone =
    allowed``) with ``call_values`` and makes the best (ties, and any
    candidate not beating it by more than ``pimc_bid_edge`` points a world:
    the strategy's call with its own going alone). The first call that is not a
    pass ends the search; if all pass, the force gives 6 passes. The passes
    are written to ``rec``'s calls as they are made (the inference reads them).
    """
    hands = np.zeros(N_SEATS, np.int64)
    scratch = np.zeros(R_WIDTH, np.int64)
    ds = np.empty(4, np.uint64)
    db = np.zeros(2, np.int64)
    cand = np.zeros((9, 2), np.int64)
    vals = np.zeros(9)
    u = up // 6
    lone_ok = rules[C_MAKER_ALONE] == 1
    n_alone = 2 if lone_ok else 1
    allowed = 15 if rules[C_TURNED_DOWN_OK] == 1 else 15 & ~(1 << u)
    for k in range(2 * N_SEATS):
        seat = (dealer + 1 + k) % 3
        for s in range(N_SEATS):
            hands[s] = dealt[s]
        copy_into(ds, dstate)
        copy_into(db, dbuf)
        auction(hands, up, dealer, rules, params, wt, (np.int64(-1), np.int64(-1), np.int64(-1), np.int64(-1),
                                                       np.int64(k)), ds, db, scratch)
        call = scratch[R_CALLS + 2 * k + 1]
        if searches(params, seat):
            own = dealt[seat]
            vw = params[seat, Q_VOID]
            n = 0
            stuck = k == 2 * N_SEATS - 1 and rules[C_STICK] == 1
            if not stuck:
                cand[0, 0], cand[0, 1] = CALL_PASS, -1
                n = 1
            mine = 0
            if k < N_SEATS:
                for a in range(n_alone):
                    cand[n + a, 0], cand[n + a, 1] = CALL_ACCEPT, a
                if call == CALL_ACCEPT:
                    held = own
                    if seat == dealer:  # the strategy's exchange: the hand it would go alone with
                        d, e = best_exchange(own, up, u, wt, seat, vw)
                        if rules[C_PICKUP_MANDATORY] == 1 or e > estimate(own, u, wt, seat, vw):
                            held = (own & ~(np.int64(1) << d)) | (np.int64(1) << up)
                    alone = lone_ok and estimate(held, u, wt, seat, vw) >= params[seat, Q_ALONE]
                    mine = n + (1 if alone else 0)
                n += n_alone
            else:
                for t in range(4):
                    if (allowed >> t) & 1:
                        if call == CALL_SUIT + t:
                            alone = lone_ok and estimate(own, t, wt, seat, vw) >= params[seat, Q_ALONE]
                            mine = n + (1 if alone else 0)
                        for a in range(n_alone):
                            cand[n + a, 0], cand[n + a, 1] = CALL_SUIT + t, a
                        n += n_alone
            for i in range(k):
                rec[R_CALLS + 2 * i] = (dealer + 1 + i) % 3
                rec[R_CALLS + 2 * i + 1] = CALL_PASS
            total = call_values(seat, np.int64(k), up, own, cand, np.int64(n), dealer, rules, params, wt, order, pw,
                                pm, dstate, dbuf, rec, ws, vals)
            best = _best(vals, n, mine, params[seat, Q_PIMC_EDGE] * total)
            if cand[best, 0] != CALL_PASS:
                return seat, np.int64(k), cand[best, 0], cand[best, 1], np.int64(k)
        elif call != CALL_PASS:
            return seat, np.int64(k), call, np.int64(-1), np.int64(k)
    return np.int64(-1), np.int64(-1), np.int64(-1), np.int64(-1), np.int64(2 * N_SEATS)


@kernel
def play_searched(up, dummy, dealer, rules, params, wt, order, dstate, dbuf, hands, tricks, points, pw, pm, rec):
    """``play_dealt``'s hand (dealt into ``rec`` and ``hands``) with the searching seats' auction by PIMC.

    The calls by ``auction_force``; after a round-one call a searching
    dealer scores keeping its hand (``dealer_pickup = optional``) and each
    card to lay down for the up-card (``exchange_values``; ties: the
    strategy's exchange); going alone: the searched maker's as chosen with
    its call, else its strategy's, then each defender's from the maker's
    left until one goes, a searching defender's by ``lone_values`` (alone or
    not; ties: its strategy's choice); a searching maker
    with the dummy scores its keeps (``keep_candidates``, ``keep_values``;
    ties: the strategy's keep). Then the play, as ``play_dealt``. One PIMC
    workspace serves the search and the card play. Every searched choice
    departs from the strategy's only for a candidate better by more than
    ``pimc_bid_edge`` points a world (``_best``).
    """
    ws = pimc.new_workspace()
    u = up // 6
    dealt = np.zeros(N_SEATS, np.int64)
    for s in range(N_SEATS):
        dealt[s] = hands[s]
    f = auction_force(dealt, up, dealer, rules, params, wt, order, pw, pm, dstate, dbuf, rec, ws)
    maker, trump = auction(hands, up, dealer, rules, params, wt, f, dstate, dbuf, rec)
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
    n_calls = rec[R_NCALLS]
    if rec[R_CALLS + 2 * n_calls - 1] == CALL_ACCEPT and searches(params, dealer):
        own = dealt[dealer]
        cand = np.zeros(6, np.int64)
        vals = np.zeros(6)
        n = 0
        if rules[C_PICKUP_MANDATORY] == 0:
            cand[0] = -1
            n = 1
        mine = -1
        m = own
        while m:
            c = lowest(m)
            m &= m - 1
            if c == rec[R_DEALER_DISCARD]:
                mine = n
            cand[n] = c
            n += 1
        if mine < 0:
            mine = 0  # the strategy kept its hand: candidate 0
        total = exchange_values(dealer, n_calls, up, own, maker, f[F_SEAT], f[F_ALONE], cand, np.int64(n), rules,
                                params, wt, order, pw, pm, dstate, dbuf, rec, ws, vals)
        d = cand[_best(vals, n, mine, params[dealer, Q_PIMC_EDGE] * total)]
        hands[dealer] = own if d < 0 else (own & ~(np.int64(1) << d)) | (np.int64(1) << up)
        rec[R_DEALER_DISCARD] = d
    maker_alone = maker_goes_alone(hands, trump, maker, rules, params, wt, f[F_SEAT], f[F_ALONE], dstate, dbuf)
    lone_def = -1
    vals2 = np.zeros(2)
    for k in range(1, 3):
        d = (maker + k) % 3
        go = defender_goes_alone(hands[d], trump, d, params, wt, dstate, dbuf)
        if searches(params, d):
            second = (maker + 2) % 3 if k == 1 else -1
            total = lone_values(d, np.int64(second), hands, dealer, trump, maker, maker_alone, np.int64(k), rules,
                                params, wt, order, pw, pm, dstate, dbuf, rec, ws, vals2)
            go = _best(vals2, 2, 1 if go else 0, params[d, Q_PIMC_EDGE] * total) == 1
        if go:
            lone_def = d
            break
    if lone_def >= 0:
        rec[R_ALONE] |= 1 << lone_def
    if maker_alone:
        rec[R_ALONE] |= 1 << maker
    if not maker_alone:
        ten = hands[maker] | dummy
        if searches(params, maker):
            mine = best_keep(ten, trump, wt, order, maker, params[maker, Q_VOID], pw, pm)
            keeps = np.zeros(MAX_KEEPS + 1, np.int64)
            vals = np.zeros(MAX_KEEPS + 1)
            n = keep_candidates(ten, trump, wt, maker, params[maker, Q_VOID], mine, keeps)
            total = keep_values(maker, hands, dummy, dealer, trump, lone_def, keeps, n, rules, params, wt, order,
                                pw, pm, dstate, dbuf, rec, ws, vals)
            at = 0
            for i in range(n):
                if keeps[i] == mine:
                    at = i
            keep = keeps[_best(vals, n, at, params[maker, Q_PIMC_EDGE] * total)]
        else:
            keep = merge(hands, dummy, trump, maker, params, wt, order, pw, pm, dstate, dbuf)
        rec[R_MAKER_DISCARDS] = ten & ~keep
        hands[maker] = keep
    out = -1 if lone_def < 0 else 3 - maker - lone_def
    leader = first_leader(maker, maker_alone, lone_def, dealer)
    play_tricks(hands, trump, leader, maker, out, params, dstate, dbuf, rec, tricks, ws, rules, wt, order, pw, pm, ws)
    score_hand(maker, tricks[maker], maker_alone, lone_def, rules, points)
    for s in range(N_SEATS):
        rec[R_TRICKS + s] = tricks[s]
        rec[R_POINTS + s] = points[s]


@kernel
def held_at_lead(rec, seat):
    """The five cards ``seat`` held at the first lead (its dealt hand after the exchange and the merge)."""
    h = rec[R_DEAL + seat]
    d = rec[R_DEALER_DISCARD]
    if d >= 0 and seat == rec[R_DEALER]:
        h = (h & ~(np.int64(1) << d)) | (np.int64(1) << rec[R_KITTY])
    maker = rec[R_MAKER]
    if seat == maker and (rec[R_ALONE] >> maker) & 1 == 0:
        h = (h | rec[R_DUMMY]) & ~rec[R_MAKER_DISCARDS]
    return h


@kernel
def complete_deal(rec, me, h0, h1, h2, pile, dstate, dbuf, out):
    """A card-play world completed into a deal as dealt, uniformly among the deals it allows (``pimc_infer``).

    ``h0 .. h2``: the cards each seat in play held at the first lead (the
    world's hands and their plays), ``pile``: its unseen cards out of play.
    Drawn from the pile in turn: a hand sitting out (with the up-card when
    it is the dealer's after an exchange), the dealer's discard (known to
    the dealer), a lone maker's dummy, or the maker's five discards (known
    to the maker; with the up-card when it is not held) and then which five
    of its ten it was dealt (the up-card among them after its own
    exchange); the rest is the kitty. Into ``out``: the hands by seat as
    dealt, the dummy, the dealer's discard (-1: none), the maker's keep (0
    when alone).
    """
    dealer = rec[R_DEALER]
    maker = rec[R_MAKER]
    up = rec[R_KITTY]
    up_bit = np.int64(1) << up
    dd = rec[R_DEALER_DISCARD]
    alone = rec[R_ALONE]
    maker_alone = (alone >> maker) & 1 == 1
    lone = alone & ~(np.int64(1) << maker)
    sit = 3 - maker - lowest(lone) if lone != 0 else -1
    post = out[:3]
    post[0], post[1], post[2] = h0, h1, h2
    pool = pile
    if sit >= 0:
        if sit == dealer and dd >= 0:
            post[sit] = up_bit | draw_cards(pool, 4, dstate, dbuf)
        else:
            post[sit] = draw_cards(pool, 5, dstate, dbuf)
        pool &= ~post[sit]
    disc = np.int64(-1)
    if dd >= 0:
        if me == dealer:
            disc = dd
        else:
            disc = lowest(draw_cards(pool & ~up_bit, 1, dstate, dbuf))
            pool &= ~(np.int64(1) << disc)
    kept = np.int64(0)
    if maker_alone:
        dummy = draw_cards(pool, 5, dstate, dbuf)
    elif me == maker:
        kept = post[me]
        dummy = rec[R_DUMMY]
        post[me] = rec[R_DEAL + me]
        if dd >= 0 and me == dealer:
            post[me] = (post[me] & ~(np.int64(1) << dd)) | up_bit
    else:
        kept = post[maker]
        if pool & up_bit:  # the dealer-maker took the up-card and laid it down in the merge
            discards = up_bit | draw_cards(pool & ~up_bit, 4, dstate, dbuf)
        else:
            discards = draw_cards(pool, 5, dstate, dbuf)
        ten = kept | discards
        if maker == dealer and dd >= 0:
            mine = up_bit | draw_cards(ten & ~up_bit, 4, dstate, dbuf)
        else:
            mine = draw_cards(ten, 5, dstate, dbuf)
        dummy = ten & ~mine
        post[maker] = mine
    if disc >= 0:
        post[dealer] = (post[dealer] & ~up_bit) | (np.int64(1) << disc)
    out[3] = dummy
    out[4] = disc
    out[5] = kept


@kernel
def pimc_card_inferred(own, me, trump, n, rules, params, wt, order, pw, pm, dstate, dbuf, rec, ws):
    """PIMC card play with the auction's inference: each world weighted by ``model.world_weight``.

    The worlds are drawn as ``pimc.choose`` draws them, completed into deals
    as dealt (``complete_deal``) and weighed by the model's probability of
    the other seats' calls, exchange, going alone and merge on them; a world
    of weight 0 is not solved; the card with the highest weighted total is
    played (ties: least value). If every world weighs 0 the decision is made
    again on fresh unweighted worlds. It never allocates (``pw``, ``pm``:
    (4, 8) scratch; the rest in the workspace's scratch cells).
    """
    active, sides, known, pin, pin_allow = pimc_facts(rec, me)
    card, legal, leader, n_trick, n_unseen, restricted, full = pimc.begin(
        own, me, active, trump, DECK, known, pin, pin_allow, rec, R_PLAYS, n, False, ws)
    if card >= 0:
        return card
    n_worlds = np.int64(params[me, Q_PIMC])
    tau, eps = params[me, Q_PIMC_TAU], params[me, Q_PIMC_EPS]
    deal = ws[pimc.OFF_ISCRATCH:pimc.OFF_ISCRATCH + 6]
    dist = ws[pimc.OFF_FSCRATCH:pimc.OFF_FSCRATCH + 12].view(np.float64)
    calls = rec[R_CALLS:R_CALLS + 2 * MAX_CALLS]
    maker = rec[R_MAKER]
    for _ in range(n_worlds):
        pimc.draw(own, me, active, n_unseen, full, restricted, dstate, dbuf, ws)
        x0, x1, x2, _, pile, p0, p1, p2, _ = pimc.world_hands(ws)
        complete_deal(rec, me, x0 | p0, x1 | p1, x2 | p2, pile, dstate, dbuf, deal)
        w = world_weight(deal, deal[3], rec[R_KITTY], rec[R_DEALER], me, calls, rec[R_NCALLS], True, deal[4],
                         np.int64(3), rec[R_ALONE], (rec[R_ALONE] >> maker) & 1 == 0, deal[5], rules, params, wt,
                         order, tau, eps, pw, pm, dist)
        if w > 0.0:
            pimc.add_world(legal, active, trump, n_trick, leader, sides, w, ws)
    if pimc.weight_sum(ws) > 0.0:
        return pimc.pick(legal, trump, True, ws)
    for _ in range(n_worlds):
        pimc.draw(own, me, active, n_unseen, full, restricted, dstate, dbuf, ws)
        pimc.add_world(legal, active, trump, n_trick, leader, sides, 1.0, ws)
    return pimc.pick(legal, trump, False, ws)


@kernel
def pimc_world_weights(rec, seat, n, params, rules, n_worlds, dstate, dbuf, out, weights):
    """For the tests: ``n_worlds`` worlds as ``pimc_card_inferred`` draws them for ``seat`` after ``n`` plays of
    the hand in ``rec``, completed (``out[w]``: the hands by seat as dealt, the dummy, the dealer's discard, the
    maker's keep) with their weights under the seat's ``pimc_tau`` and ``pimc_eps``. Returns False when the
    facts admit no deal (never, for hands the rules reach)."""
    ws = pimc.new_workspace()
    wt = np.zeros((N_SEATS, 4, 24))
    order = np.zeros((N_SEATS, 5, 7), np.int64)
    card_weights(params, wt, order)
    trump = rec[R_TRUMP]
    active, sides, known, pin, pin_allow = pimc_facts(rec, seat)
    own = held_at_lead(rec, seat)
    for i in range(n):
        if rec[R_PLAYS + 2 * i] == seat:
            own &= ~(np.int64(1) << rec[R_PLAYS + 2 * i + 1])
    played, _, _, _ = pimc.history(rec, R_PLAYS, n, trump, active, ws)
    n_unseen, restricted, full, ok, _ = pimc._plan(own, seat, active, trump, DECK, known, pin, pin_allow, played, ws)
    if not ok:
        return False
    pw = np.zeros((4, 8))
    pm = np.zeros((4, 8), np.int64)
    dist = np.zeros(12)
    deal = np.zeros(6, np.int64)
    calls = rec[R_CALLS:R_CALLS + 2 * MAX_CALLS]
    maker = rec[R_MAKER]
    for w in range(n_worlds):
        pimc.draw(own, seat, active, n_unseen, full, restricted, dstate, dbuf, ws)
        x0, x1, x2, _, pile, p0, p1, p2, _ = pimc.world_hands(ws)
        complete_deal(rec, seat, x0 | p0, x1 | p1, x2 | p2, pile, dstate, dbuf, deal)
        weights[w] = world_weight(deal, deal[3], rec[R_KITTY], rec[R_DEALER], seat, calls, rec[R_NCALLS], True,
                                  deal[4], np.int64(3), rec[R_ALONE], (rec[R_ALONE] >> maker) & 1 == 0, deal[5], rules,
                                  params, wt, order, params[seat, Q_PIMC_TAU], params[seat, Q_PIMC_EPS], pw, pm, dist)
        for i in range(6):
            out[w, i] = deal[i]
    return True
