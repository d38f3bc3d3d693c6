"""Hasenpfeffer kernels: 25-card deal with the joker and the widow, the auction, widow and trump, play, score.

Seats 0..3, partners opposite (side = seat % 2); position p (1..4) is seat
``(dealer + p) % 4``. Bid levels: 1..6 (numeric); in the pepper form 1..5,
6 = little pepper, 7 = big pepper. Rule options come as the int64 vector
of ``bower.sim.rules.encode`` (``H_*``), the strategy as one float64 row per seat
(``bower.sim.strategy.HASENPFEFFER_PARAMS``) and its per-card weight table ``wt``
(``card_weights``). Random strategies draw from ``(dstate, dbuf)``, deals
from ``(state, buf)``. The record (``R_*``) and summary (``S_*``) rows are
read by ``bower.sim.records`` and ``bower.sim.hasenpfeffer``.

PIMC (``bower.kernels.pimc``): a seat with ``pimc_worlds`` >= 1 plays its
cards by PIMC (``play_tricks``), with ``pimc_infer`` on worlds weighted by
the auction model (``world_weight``, ``model.auction_weight``); with
``pimc_bid`` it also searches its calls (``pimc_auction``, ``_call_values``)
and, as the high bidder, its trump and discard (``pimc_widow``).
"""

import numpy as np

from bower.kernels.arrays import copy_into
from bower.kernels.bits import lowest, popcount
from bower.kernels.estimate import best_suit
from bower.kernels.deal import shuffle
from bower.kernels.play import nth_card, random_card
from bower.kernels import pimc
from bower.kernels import trick as core
from bower.kernels.jit import kernel
from bower.kernels.advice import M_EPS, M_KIND, M_TAU
from bower.kernels.rng import bounded
from bower.kernels.solve import TO_SOLVER
from bower.kernels.tables import EFF_SUIT, SLOT_DECK, SLOT_RANK, SUIT_MASK
from bower.kernels.hasenpfeffer.codes import H_BIDDER_LEADS, H_DEFENDERS_SCORE, H_PASS_FINAL, H_PEPPER, H_REDEAL, H_UNDERTRICKS, H_WIDOW_DEAD
from bower.kernels.hasenpfeffer.strategy import (  # noqa: F401  (re-exported: the sim layer and tests read them here)
    BIG_PEPPER,
    DECK25,
    JOKER,
    LITTLE_PEPPER,
    N_CARDS,
    N_SEATS,
    P_BIG_PEPPER,
    P_CUSHION,
    P_EQUITY,
    P_JUMP,
    P_LEAD_TRUMP,
    P_OFF_ACE,
    P_OFF_KING,
    P_PARTNER,
    P_PIMC,
    P_PIMC_BID,
    P_PIMC_CUSHION,
    P_PIMC_RIVAL,
    P_PIMC_EPS,
    P_PIMC_INFER,
    P_PIMC_SEES,
    P_PIMC_TAU,
    P_RANDOM,
    P_SUPPORT,
    P_VOID,
    P_W,
    best_estimate,
    card_weights,
    equity_call,
    is_random,
)
from bower.kernels.hasenpfeffer.model import MAX_CHOICES, auction_weight

HAND_SIZE = 6
N_TRICKS = 6
MAX_CALLS = 32
N_PLAYS = N_SEATS * N_TRICKS
FORCED_BID = 3


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


@kernel(inline="always")
def bid_need(level):
    """Tricks a contract at ``level`` needs (the peppers: all six)."""
    return level if level <= 6 else 6


@kernel(_nrt=False)
def level_of(e, seat, pepper, params):
    """The level the strategy would go to with the best estimate ``e``: 0 none, 1..6, or 6/7 (little/big pepper)."""
    big_e = e + params[seat, P_PARTNER]
    level = 0
    for lv in range(6, 0, -1):
        if big_e >= lv + params[seat, P_CUSHION]:
            level = lv
            break
    if pepper and level == 6 and big_e >= params[seat, P_BIG_PEPPER]:
        return BIG_PEPPER
    return level


@kernel(inline="always")
def target_level(hand, seat, pepper, params, wt):
    """The level the strategy would go to with ``hand``: 0 none, 1..6, or 6/7 (little/big pepper)."""
    return level_of(best_estimate(hand, seat, wt, params[seat, P_VOID]), seat, pepper, params)


@kernel(_nrt=False)
def strategic_bid(tl, high, bidder, seat, params):
    """A strategic seat's call to its target level ``tl``: pass (0) unless ``tl`` beats the standing ``high``, by
    the support cushion where the standing bid is its partner's; then ``tl`` (a jump bidder) or one above."""
    margin = params[seat, P_SUPPORT] if bidder >= 0 and bidder == (seat + 2) % 4 else 0.0
    if tl >= high + 1 and tl >= (high + 1) + margin:  # a call must beat the standing bid
        return tl if params[seat, P_JUMP] >= 0.5 else high + 1
    return 0


@kernel(_nrt=False)
def record_bid(rec, n, seat, call, high, bidder, since, passed, top, final):
    """Write call ``n`` (``seat``'s ``call``, 0 a pass) into ``rec`` and move the auction on (RULES.md 3): returns
    (calls made, the next seat, the standing bid, its bidder, passes since it, the seats passed as bits, over).
    The auction is over after four passes, at the top bid, once every other seat has passed (``final``: a pass
    is final) or three passes after the standing bid; the next seat skips the seats passed under ``final``."""
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
    if not over:
        seat = (seat + 1) % 4
        if final:
            while (passed >> seat) & 1:
                seat = (seat + 1) % 4
    return n, seat, high, bidder, since, passed, over


@kernel(_nrt=False)
def auction_end(rec, n, high, bidder, joker_seat, rules):
    """Close the auction after ``n`` calls: (bidder, level, forced), bidder -1 when all passed and the hand is
    thrown in (``redeal``, or the joker in the widow), else the joker's holder forced to ``FORCED_BID``."""
    rec[R_NCALLS] = n
    if high == 0:
        if rules[H_REDEAL] == 1 or joker_seat < 0:
            return -1, 0, False
        return joker_seat, FORCED_BID, True
    return bidder, high, False


@kernel(_nrt=False)
def auction(hands, joker_seat, dealer, rules, params, wt, force, dstate, dbuf, rec, eq=None):
    """The auction (RULES.md 3 with the reference's readings); calls into ``rec``. Returns (bidder, level, forced).

    Bidder -1: thrown in. ``joker_seat`` is -1 when the joker is the widow.
    ``force`` (``F_*``) gives the first ``force[F_GIVEN]`` calls and makes one
    seat's call at one turn (no draw for either). ``eq``: None (left out)
    compiles no game-equity bidding; otherwise (the games of an equity bidder)
    the tuple (tables, side scores, target): a strategic seat with
    ``bid_equity`` calls by ``strategy.equity_call``.
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
            call = strategic_bid(tl, high, bidder, seat, params)
            if eq is not None:  # pruned when compiled for eq None: no equity code in the other runs
                if params[seat, P_EQUITY] >= 0.5:
                    est = best_estimate(hands[seat], seat, wt, params[seat, P_VOID])
                    call = equity_call(eq[0], seat, dealer, eq[1], eq[2], high, top, est, call)
        n, seat, high, bidder, since, passed, over = record_bid(rec, n, seat, call, high, bidder, since, passed, top,
                                                                final)
        if over:
            break
    return auction_end(rec, n, high, bidder, joker_seat, rules)


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


def search_arg(params):
    """``search`` for the hand kernels (``pimc.search_arg`` on this variant's ``pimc_worlds``)."""
    return pimc.search_arg(params, P_PIMC)


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


@kernel
def world_weight(me, rec, x0, x1, x2, x3, pile, rules, params, wt, model, dstate, dbuf, dealt, est, dist):
    """A card-play world's weight under the auction model (``pimc_infer``), and that world as dealt.

    ``x0 .. x3``: the cards each seat held at the first lead in the world
    (held now and played); ``pile``: its unseen card out of play (the
    bidder's discard, or a dead widow; none for the bidder itself under
    ``exchange``). The widow: to the bidder itself the true one; a dead widow
    is the pile; else one of the bidder's seven cards (its six and the pile)
    drawn uniformly from the decision stream (not the joker after a forced
    3: the joker holder was dealt it), so that a world with its widow is a
    whole deal drawn uniformly among those that agree with what ``me`` saw.
    The weight is ``model.auction_weight`` of the calls of the other seats
    (``rec``'s) on the deal times, for another bidder, the probability of its
    trump and discard: ``(1 - eps) [the strategy's choice on its seven] +
    eps / 28`` (dead widow: the trump, ``eps / 4``; a random bidder: uniform).
    ``dealt`` (4) receives the hands as dealt; returns (weight, widow).
    """
    bidder = rec[R_BIDDER]
    trump = rec[R_TRUMP]
    dealt[0], dealt[1], dealt[2], dealt[3] = x0, x1, x2, x3
    dead = rules[H_WIDOW_DEAD] == 1
    eps = model[M_EPS]
    f = 1.0
    if bidder == me:
        dealt[me] = rec[R_DEAL + me]
        widow = lowest(pile) if dead else rec[R_WIDOW]
    elif dead:
        widow = lowest(pile)
        if is_random(params, bidder):
            f = 0.25
        else:
            t, _ = best_suit(dealt[bidder], 15, wt, bidder, params[bidder, P_VOID])
            f = (1.0 - eps) * (1.0 if t == trump else 0.0) + eps / 4.0
    else:
        seven = dealt[bidder] | pile
        choices = seven & ~(np.int64(1) << JOKER) if rec[R_FORCED] == 1 else seven
        widow = nth_card(choices, bounded(dstate, dbuf, popcount(choices)))
        dealt[bidder] = seven & ~(np.int64(1) << widow)
        if is_random(params, bidder):
            f = 1.0 / 28.0
        else:
            t, d, _ = choose_widow(dealt[bidder], widow, bidder, params, wt, False, dstate, dbuf)
            f = (1.0 - eps) * (1.0 if t == trump and d == lowest(pile) else 0.0) + eps / 28.0
    if not f > 0.0:
        return 0.0, widow
    n_calls = rec[R_NCALLS]
    prefix = rec[R_CALLS:R_CALLS + 2 * n_calls].reshape((n_calls, 2))
    return f * auction_weight(dealt, me, prefix, rules, params, wt, model, est, dist), widow


@kernel
def pimc_card_inferred(hand, seat, trump, rec, n, rules, params, wt, dstate, dbuf, ws):
    """PIMC card play with the auction's inference (``pimc_infer``): each world weighted by ``world_weight``.

    The worlds are drawn as ``pimc.choose`` draws them; a world of weight 0
    is not solved; the card with the highest weighted total is played (ties:
    least value). If every world weighs 0 (a sharp model, ``pimc_eps`` 0,
    and no world reproduces the auction) the decision is made again on fresh
    unweighted worlds. The other seats are modelled by their own strategy
    rows (their heuristic calls, trump and discard).
    """
    active, sides, known, pin, pin_allow = pimc_facts(rec, seat)
    card, legal, leader, n_trick, n_unseen, restricted, full = pimc.begin(
        hand, seat, active, trump, DECK25, known, pin, pin_allow, rec, R_PLAYS, n, False, ws)
    if card >= 0:
        return card
    n_worlds = np.int64(params[seat, P_PIMC])
    fs = ws[pimc.OFF_FSCRATCH:pimc.OFF_FSCRATCH + pimc.N_FSCRATCH].view(np.float64)
    model = fs[0:3]
    est = fs[4:8]
    dist = fs[8:8 + MAX_CHOICES]
    model[M_KIND] = 1.0
    model[M_TAU] = params[seat, P_PIMC_TAU]
    model[M_EPS] = params[seat, P_PIMC_EPS]
    dealt = ws[pimc.OFF_ISCRATCH:pimc.OFF_ISCRATCH + 4]
    for _ in range(n_worlds):
        pimc.draw(hand, seat, active, n_unseen, full, restricted, dstate, dbuf, ws)
        x0, x1, x2, x3, pile, p0, p1, p2, p3 = pimc.world_hands(ws)
        w, _ = world_weight(seat, rec, x0 | p0, x1 | p1, x2 | p2, x3 | p3, pile, rules, params, wt, model, dstate,
                            dbuf, dealt, est, dist)
        if w > 0.0:
            pimc.add_world(legal, active, trump, n_trick, leader, sides, w, ws)
    if pimc.weight_sum(ws) > 0.0:
        return pimc.pick(legal, trump, True, ws)
    for _ in range(n_worlds):
        pimc.draw(hand, seat, active, n_unseen, full, restricted, dstate, dbuf, ws)
        pimc.add_world(legal, active, trump, n_trick, leader, sides, 1.0, ws)
    return pimc.pick(legal, trump, False, ws)


@kernel
def pimc_world_weights(rec, seat, n, rules, params, n_worlds, dstate, dbuf, out):
    """For the tests: ``n_worlds`` worlds as ``pimc_card_inferred`` draws them for ``seat`` after ``n`` plays of
    the hand in ``rec``, with their weights under ``seat``'s ``pimc_tau`` and ``pimc_eps``.

    ``out[w]``: the deal as dealt in that world (seats 0..3), its widow, its
    discard (-1: dead widow) and the weight times 2**52 (rounded down; 2**52
    is weight 1). Returns whether the hand sizes fit the unseen cards.
    """
    ws = pimc.new_workspace()
    wt = np.zeros((N_SEATS, 4, N_CARDS), np.float64)
    card_weights(params, wt)
    trump = rec[R_TRUMP]
    active, _, known, pin, pin_allow = pimc_facts(rec, seat)
    own = rec[R_DEAL + seat]
    if seat == rec[R_BIDDER] and rec[R_DISCARD] >= 0:
        own = (own | (np.int64(1) << rec[R_WIDOW])) & ~(np.int64(1) << rec[R_DISCARD])
    for i in range(n):
        if rec[R_PLAYS + 2 * i] == seat:
            own &= ~(np.int64(1) << rec[R_PLAYS + 2 * i + 1])
    played, _, _, _ = pimc.history(rec, R_PLAYS, n, trump, active, ws)
    n_unseen, restricted, full, ok, _ = pimc._plan(own, seat, active, trump, DECK25, known, pin, pin_allow, played,
                                                   ws)
    model = np.zeros(3)
    model[M_KIND] = 1.0
    model[M_TAU] = params[seat, P_PIMC_TAU]
    model[M_EPS] = params[seat, P_PIMC_EPS]
    est = np.zeros(4)
    dist = np.zeros(MAX_CHOICES)
    dealt = np.zeros(4, np.int64)
    for k in range(n_worlds):
        pimc.draw(own, seat, active, n_unseen, full, restricted, dstate, dbuf, ws)
        x0, x1, x2, x3, pile, p0, p1, p2, p3 = pimc.world_hands(ws)
        w, widow = world_weight(seat, rec, x0 | p0, x1 | p1, x2 | p2, x3 | p3, pile, rules, params, wt, model,
                                dstate, dbuf, dealt, est, dist)
        for s in range(N_SEATS):
            out[k, s] = dealt[s]
        out[k, 4] = widow
        if rules[H_WIDOW_DEAD] == 1:
            out[k, 5] = -1
        elif seat == rec[R_BIDDER]:
            out[k, 5] = rec[R_DISCARD]
        else:
            out[k, 5] = lowest(pile)
        out[k, 6] = np.int64(w * 4503599627370496.0)
    return ok


@kernel
def pimc_call_weights(own, seat, dealer, calls, rules, params, n_worlds, dstate, dbuf, out):
    """For the tests: ``n_worlds`` worlds as a searched call of ``seat`` (holding ``own``) draws them after the
    calls ``calls`` (k, 2), with their weights (``_call_weight``).

    ``out[w]``: the deal (seats 0..3), the widow, the weight times 2**52 (rounded down).
    """
    ws = pimc.new_workspace()
    wt = np.zeros((N_SEATS, 4, N_CARDS), np.float64)
    card_weights(params, wt)
    n_unseen, restricted, full = pimc.plan_fresh(own, seat, np.int64(15), DECK25, np.int64(0), ws)
    model = np.zeros(3)
    model[M_KIND] = 1.0
    model[M_TAU] = params[seat, P_PIMC_TAU]
    model[M_EPS] = params[seat, P_PIMC_EPS]
    est = np.zeros(4)
    dist = np.zeros(MAX_CHOICES)
    world = np.zeros(4, np.int64)
    for k in range(n_worlds):
        pimc.draw(own, seat, np.int64(15), n_unseen, full, restricted, dstate, dbuf, ws)
        world[0], world[1], world[2], world[3], pile, _, _, _, _ = pimc.world_hands(ws)
        w = auction_weight(world, seat, calls, rules, params, wt, model, est, dist)
        for s in range(N_SEATS):
            out[k, s] = world[s]
        out[k, 4] = lowest(pile)
        out[k, 5] = np.int64(w * 4503599627370496.0)


@kernel
def pick_card(seat, n, hand, legal, v0, v1, v2, v3, trump, ctx):
    """``trick.play_tricks``'s ``pick`` for a seat that plays at random or by PIMC (``ctx``: ``params``, the
    decision stream, ``rec``, the PIMC workspace ``ws``, ``rules``, ``wt`` and ``pim``, a bit per seat playing by
    PIMC); hands and the result in slot space (the joker in slot 25).

    A PIMC seat plays by ``pimc.choose`` (``pimc_facts``), with ``pimc_infer`` (and not ``pimc_sees_all``) by
    ``pimc_card_inferred``; any other a ``legal`` card at random.
    """
    params, dstate, dbuf, rec, ws, rules, wt, pim = ctx
    if (pim >> seat) & 1 == 1 and params[seat, P_PIMC_INFER] >= 0.5 and params[seat, P_PIMC_SEES] < 0.5:
        card = pimc_card_inferred(core.slot_cards(hand, trump), seat, trump, rec, np.int64(n), rules, params, wt,
                                  dstate, dbuf, ws)
    elif (pim >> seat) & 1 == 1:
        card = pimc.choose_slots(hand, seat, pimc_facts(rec, seat), trump, DECK25, rec, R_PLAYS, np.int64(n),
                                 np.int64(params[seat, P_PIMC]), params[seat, P_PIMC_SEES] >= 0.5, v0, v1, v2, v3,
                                 dstate, dbuf, ws)
    else:
        card = random_card(core.slot_cards(legal, trump), dstate, dbuf)
    return SLOT_RANK[trump, card]


@kernel(_nrt=False)
def play_tricks(hands, trump, leader, bidder, params, dstate, dbuf, rec, tricks, ws, rules, wt, search):
    """Six tricks among the four seats; plays into ``rec``, tricks by seat into ``tricks`` (``hands`` emptied).

    The shared core (``kernels.trick.play_tricks``, the joker in slot 25): the bidder leads its strongest trump
    with ``lead_trump_min`` trumps, else a sure winner, the bidder's partner its weakest trump, else the card of
    least value; a seat follows with the cheapest card that wins unless its partner holds the trick. A random
    seat, and with ``search`` (not None: compiled with the search) a seat with ``pimc_worlds`` >= 1, plays by
    ``pick_card`` (``ws``: the PIMC workspace, any int64 array when no seat searches). Compiled once, not
    inlined (inlined into the hand, its random hands ran about 20% slower), without reference counting.
    """
    rnd = 0  # bit per seat playing at random
    pim = 0  # bit per seat playing by PIMC
    for s in range(N_SEATS):
        if params[s, P_PIMC] >= 1.0:
            pim |= 1 << s
        if is_random(params, s):
            rnd |= 1 << s
    v0 = core.to_slots(hands[0], trump)
    v1 = core.to_slots(hands[1], trump)
    v2 = core.to_slots(hands[2], trump)
    v3 = core.to_slots(hands[3], trump)
    deck = SLOT_DECK[trump] | (np.int64(1) << 25)
    lead_min = params[bidder, P_LEAD_TRUMP]
    if search is None:  # compiled without the search (``search_arg``): no seat searches
        t, n = core.play_tricks(v0, v1, v2, v3, N_SEATS, N_TRICKS, core.PARTNERS, 0, deck, trump, leader, bidder,
                                bidder ^ 2, lead_min, 0, -1, rnd, core.pick_random, (dstate, dbuf), rec, R_PLAYS, True)
    else:
        t, n = core.play_tricks(v0, v1, v2, v3, N_SEATS, N_TRICKS, core.PARTNERS, 0, deck, trump, leader, bidder,
                                bidder ^ 2, lead_min, 0, -1, rnd | pim, pick_card,
                                (params, dstate, dbuf, rec, ws, rules, wt, pim), rec, R_PLAYS, True)
    for s in range(N_SEATS):
        hands[s] = 0
        tricks[s] = (t >> (8 * s)) & 255
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
def searches(params, seat):
    """Whether ``seat`` searches its auction decisions by PIMC (``pimc_bid`` on, ``pimc_worlds`` >= 1, not random)."""
    return params[seat, P_PIMC_BID] >= 0.5 and params[seat, P_PIMC] >= 1.0 and not is_random(params, seat)


@kernel(inline="always")
def uses_pimc_bid(params):
    """Whether a seat searches its auction decisions by PIMC (``searches``)."""
    return searches(params, 0) or searches(params, 1) or searches(params, 2) or searches(params, 3)


@kernel(inline="always")
def _model_of(params, seat):
    """The auction model vector (``advice.M_*``) of ``seat``'s ``pimc_tau`` and ``pimc_eps``."""
    model = np.zeros(3)
    model[M_KIND] = 1.0
    model[M_TAU] = params[seat, P_PIMC_TAU]
    model[M_EPS] = params[seat, P_PIMC_EPS]
    return model


@kernel
def _call_values(me, k, calls, force, cand, n_cand, dealt, widow, dealer, rules, params, wt, dstate, dbuf, ws, vals):
    """The searched calls' values: ``vals[i]``, the net points of ``me``'s side (its points less
    ``pimc_bid_rival`` times the other side's; 1: the net points) summed over its worlds (weighted with
    ``pimc_infer``) when it calls ``cand[i]`` (0 pass, else a level) at turn ``k``; returns the summed weights.

    In each world the first ``k`` calls (``force``'s given calls, also
    ``calls[:k]`` as (seat, level)) are imposed, the seats' strategies finish
    the auction (``auction``, the joker holder's forced 3 included) and the
    bidder's strategy takes the widow, names trump and discards
    (``choose_widow``), all from the same decision-stream state for every
    candidate of a world; the contract is solved double dummy from the first
    lead (``pimc.solve_deal``, the bidder's side) and scored by
    ``score_hand`` (a hand thrown in scores 0). Contracts met again in a
    world (same bidder, trump and discard: the level only changes the score)
    are solved once. The worlds deal the cards ``me`` has not seen to the
    other three seats and the widow, uniformly (``pimc.plan_fresh``); with
    ``pimc_sees_all`` the one world is the true deal ``dealt``, ``widow``.
    """
    n_worlds = np.int64(params[me, P_PIMC])
    sees_all = params[me, P_PIMC_SEES] >= 0.5
    infer = params[me, P_PIMC_INFER] >= 0.5 and not sees_all
    rival = params[me, P_PIMC_RIVAL]
    for i in range(n_cand):
        vals[i] = 0.0
    own = dealt[me]
    n_unseen, restricted, full = 0, False, 0
    if sees_all:
        n_worlds = 1
    else:
        n_unseen, restricted, full = pimc.plan_fresh(own, me, np.int64(15), DECK25, np.int64(0), ws)
    world = np.zeros(N_SEATS, np.int64)
    hands = np.zeros(N_SEATS, np.int64)
    rec = np.zeros(R_WIDTH, np.int64)
    f = force.copy()
    f[F_SEAT] = me
    f[F_AT] = k
    f[F_GIVEN] = k
    ds = np.empty(4, np.uint64)
    db = np.zeros(2, np.int64)
    model = _model_of(params, me)
    est = np.zeros(4)
    dist = np.zeros(MAX_CHOICES)
    seen_key = np.zeros(n_cand, np.int64)
    seen_taken = np.zeros(n_cand, np.int64)
    prefix = calls[:k]
    dead = rules[H_WIDOW_DEAD] == 1
    side = me & 1
    total = 0.0
    for _ in range(n_worlds):
        wid = widow
        if sees_all:
            for s in range(N_SEATS):
                world[s] = dealt[s]
        else:
            pimc.draw(own, me, np.int64(15), n_unseen, full, restricted, dstate, dbuf, ws)
            world[0], world[1], world[2], world[3], pile, _, _, _, _ = pimc.world_hands(ws)
            wid = lowest(pile)
        w = 1.0
        if infer:
            w = auction_weight(world, me, prefix, rules, params, wt, model, est, dist)
            if not w > 0.0:
                continue
        total += w
        joker_seat = np.int64(-1)
        for s in range(N_SEATS):
            if (world[s] >> JOKER) & 1:
                joker_seat = s
        n_seen = 0
        for i in range(n_cand):
            for s in range(N_SEATS):
                hands[s] = world[s]
            copy_into(ds, dstate)
            copy_into(db, dbuf)
            f[F_CALL] = cand[i]
            bidder, level, _ = auction(hands, joker_seat, dealer, rules, params, wt, f, ds, db, rec)
            if bidder < 0:
                continue
            trump, discard, hand = choose_widow(hands[bidder], wid, bidder, params, wt, dead, ds, db)
            key = (bidder * 4 + trump) * 32 + discard + 1
            taken = -1
            for j in range(n_seen):
                if seen_key[j] == key:
                    taken = seen_taken[j]
            if taken < 0:
                hands[bidder] = hand
                leader = bidder if rules[H_BIDDER_LEADS] == 1 else (dealer + 1) % 4
                taken = pimc.solve_deal(hands[0], hands[1], hands[2], hands[3], np.int64(15), trump, leader,
                                        np.int64(5) << (bidder & 1), ws)
                seen_key[n_seen] = key
                seen_taken[n_seen] = taken
                n_seen += 1
            bid_pts, def_pts = score_hand(level, taken, rules)
            if (bidder & 1) == side:
                vals[i] += w * (bid_pts - rival * def_pts)
            else:
                vals[i] += w * (def_pts - rival * bid_pts)
    return total


@kernel(inline="always")
def best_candidate(vals, cand, n_cand, own, cushion, total):
    """The call a searching seat makes from the values ``vals`` of its ``n_cand`` candidates ``cand`` (pass first,
    then each level): each bid less ``cushion * total`` (a bid must beat passing by the cushion, a mean over the
    worlds: times their weight), the highest value, ties to ``own`` (its strategy's call), else the first."""
    if cushion != 0.0:
        for i in range(1, n_cand):
            vals[i] -= cushion * total
    best = 0
    for i in range(n_cand):
        if cand[i] == own:
            best = i
    for i in range(n_cand):
        if vals[i] > vals[best]:
            best = i
    return cand[best]


@kernel
def pimc_auction(dealt, widow, joker_seat, dealer, rules, params, wt, dstate, dbuf, ws):
    """The auction with the searching seats' calls made by PIMC (``searches``), as a force giving every call.

    Turn by turn, ``auction`` with the calls so far given says whose turn it
    is and what its strategy calls (a random seat draws it); a searching seat
    instead scores pass and each level above the standing bid on its worlds
    (``_call_values``), each bid less ``pimc_bid_cushion`` points a world,
    and makes the best (ties: its strategy's call). The
    returned force (``F_*``) gives all the calls (``F_GIVEN``); the joker
    holder's forced 3 after four passes is the rules', not searched.
    """
    force = NO_FORCE.copy()
    calls = np.zeros((MAX_CALLS, 2), np.int64)
    hands = np.zeros(N_SEATS, np.int64)
    scratch = np.zeros(R_WIDTH, np.int64)
    cand = np.zeros(8, np.int64)
    vals = np.zeros(8)
    top = BIG_PEPPER if rules[H_PEPPER] == 1 else 6
    high = 0
    n = 0
    while n < MAX_CALLS:
        for s in range(N_SEATS):
            hands[s] = dealt[s]
        force[F_GIVEN] = n
        auction(hands, joker_seat, dealer, rules, params, wt, force, dstate, dbuf, scratch)
        if scratch[R_NCALLS] <= n:
            break
        seat = scratch[R_CALLS + 2 * n]
        call = scratch[R_CALLS + 2 * n + 1]
        if searches(params, seat) and high < top:
            cand[0] = 0
            n_cand = 1
            for lv in range(high + 1, top + 1):
                cand[n_cand] = lv
                n_cand += 1
            total = _call_values(seat, np.int64(n), calls, force, cand, np.int64(n_cand), dealt, widow, dealer, rules,
                                 params, wt, dstate, dbuf, ws, vals)
            call = best_candidate(vals, cand, n_cand, call, params[seat, P_PIMC_CUSHION], total)
        force[F_GIVEN_CALLS + n] = call
        calls[n, 0] = seat
        calls[n, 1] = call
        if call != 0:
            high = call
        n += 1
    force[F_GIVEN] = n
    return force


@kernel
def widow_values(me, level, hand, widow, rec, dealt, rules, params, wt, dstate, dbuf, ws, cards, vals):
    """The searched widow's values: ``vals[8 t + j]``, the net points of the bidder ``me``'s side (the
    defenders' points weighed by ``pimc_bid_rival``) summed over its worlds (weighted with ``pimc_infer``) when
    it names trump ``t`` and discards ``cards[j]`` (of its seven cards, ascending; a dead widow: ``j`` 0, no
    discard). Returns the number of discards (1 when dead).

    The worlds deal the cards it has not seen (not its six, not the widow it
    took up) to the other seats (a dead widow: and the widow), uniformly,
    weighted with ``pimc_infer`` by the other seats' calls (``rec``'s); each
    candidate's contract is solved double dummy from the first lead and
    scored by ``score_hand``. Discards equivalent in a world (of one
    effective suit with no other seat's card between them) are solved once.
    With ``pimc_sees_all`` the one world is the true deal ``dealt`` (by seat).
    """
    dead = rules[H_WIDOW_DEAD] == 1
    n_worlds = np.int64(params[me, P_PIMC])
    sees_all = params[me, P_PIMC_SEES] >= 0.5
    infer = params[me, P_PIMC_INFER] >= 0.5 and not sees_all
    rival = params[me, P_PIMC_RIVAL]
    seven = hand if dead else hand | (np.int64(1) << widow)
    n_d = 1 if dead else popcount(seven)
    for j in range(8):
        cards[j] = -1
    if not dead:
        m = seven
        for j in range(n_d):
            cards[j] = lowest(m)
            m &= m - 1
    for j in range(32):
        vals[j] = 0.0
    n_unseen, restricted, full = 0, False, 0
    if sees_all:
        n_worlds = 1
    else:
        known = np.int64(0) if dead else np.int64(1) << widow
        n_unseen, restricted, full = pimc.plan_fresh(hand, me, np.int64(15), DECK25, known, ws)
    world = np.zeros(N_SEATS, np.int64)
    model = _model_of(params, me)
    est = np.zeros(4)
    dist = np.zeros(MAX_CHOICES)
    n_calls = rec[R_NCALLS]
    prefix = rec[R_CALLS:R_CALLS + 2 * n_calls].reshape((n_calls, 2))
    done_bit = np.zeros(8, np.int64)
    done_taken = np.zeros(8, np.int64)
    leader = me if rules[H_BIDDER_LEADS] == 1 else (rec[R_DEALER] + 1) % 4
    sides = np.int64(5) << (me & 1)
    for _ in range(n_worlds):
        if sees_all:
            for s in range(N_SEATS):
                world[s] = dealt[s]
        else:
            pimc.draw(hand, me, np.int64(15), n_unseen, full, restricted, dstate, dbuf, ws)
            world[0], world[1], world[2], world[3], _, _, _, _, _ = pimc.world_hands(ws)
        world[me] = hand
        w = 1.0
        if infer:
            w = auction_weight(world, me, prefix, rules, params, wt, model, est, dist)
            if not w > 0.0:
                continue
        for t in range(4):
            others = np.int64(0)
            for s in range(N_SEATS):
                if s != me:
                    m = world[s]
                    while m:
                        c = lowest(m)
                        m &= m - 1
                        others |= np.int64(1) << TO_SOLVER[t, c]
            n_done = 0
            for j in range(n_d):
                d = cards[j]
                held = seven if dead else seven & ~(np.int64(1) << d)
                taken = -1
                b = TO_SOLVER[t, d] if not dead else 0
                for q in range(n_done):
                    bq = done_bit[q]
                    if bq >> 3 == b >> 3:
                        lo = min(b, bq)
                        hi = max(b, bq)
                        between = ((np.int64(1) << hi) - 1) & ~((np.int64(1) << (lo + 1)) - 1)
                        if others & between == 0:
                            taken = done_taken[q]
                            break
                if taken < 0:
                    taken = pimc.solve_deal(held if me == 0 else world[0], held if me == 1 else world[1],
                                            held if me == 2 else world[2], held if me == 3 else world[3],
                                            np.int64(15), np.int64(t), leader, sides, ws)
                    done_bit[n_done] = b
                    done_taken[n_done] = taken
                    n_done += 1
                bid_pts, def_pts = score_hand(level, taken, rules)
                vals[t * 8 + j] += w * (bid_pts - rival * def_pts)
    return n_d


@kernel
def pimc_widow(me, level, hand, widow, rec, dealt, rules, params, wt, dstate, dbuf, ws):
    """(trump, discard, new hand) of a searching bidder ``me`` (``searches``) at ``level``: every trump with every
    discard of its seven cards (a dead widow: every trump) scored by ``widow_values``, the best taken (ties: the
    strategy's own choice, ``choose_widow``)."""
    dead = rules[H_WIDOW_DEAD] == 1
    t0, d0, _ = choose_widow(hand, widow, me, params, wt, dead, dstate, dbuf)
    seven = hand if dead else hand | (np.int64(1) << widow)
    cards = np.zeros(8, np.int64)
    vals = np.zeros(32)
    n_d = widow_values(me, level, hand, widow, rec, dealt, rules, params, wt, dstate, dbuf, ws, cards, vals)
    best_t = t0
    best_j = 0
    for j in range(n_d):
        if cards[j] == d0:
            best_j = j
    for t in range(4):
        for j in range(n_d):
            if vals[t * 8 + j] > vals[best_t * 8 + best_j]:
                best_t = t
                best_j = j
    if dead:
        return best_t, np.int64(-1), hand
    d = cards[best_j]
    return best_t, d, seven & ~(np.int64(1) << d)


@kernel(inline="always")
def play_dealt(dealt, widow, dealer, rules, params, wt, force, dstate, dbuf, work, rec, search, eq=None):
    """Auction, widow, trump, play and score a dealt hand (``dealt``: masks by seat) into ``rec``.

    ``force`` as in ``auction`` (``NO_FORCE`` for none). ``search`` None leaves
    all the search code out of the compiled code (Numba prunes the branches
    on ``search is not None``; no seat may then search: ``search_arg``); an
    array compiles it in. ``eq``: the game-equity bidder's tables with the
    game's scores (``auction``), None (left out) compiling none of it.
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
    searched = False
    if search is not None:
        searched = uses_pimc_bid(params) and force[F_SEAT] < 0 and force[F_GIVEN] == 0
    ws = rec
    if search is not None and searched:  # one PIMC workspace for the hand: the searched auction, the widow, the play
        ws = pimc.new_workspace()
        given = pimc_auction(hands, widow, joker_seat, dealer, rules, params, wt, dstate, dbuf, ws)
        bidder, level, forced = auction(hands, joker_seat, dealer, rules, params, wt, given, dstate, dbuf, rec, eq)
    else:
        bidder, level, forced = auction(hands, joker_seat, dealer, rules, params, wt, force, dstate, dbuf, rec, eq)
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
    if search is not None and searched and searches(params, bidder):
        trump, discard, hand = pimc_widow(bidder, level, hands[bidder], widow, rec, hands, rules, params, wt, dstate,
                                          dbuf, ws)
    else:
        trump, discard, hand = choose_widow(hands[bidder], widow, bidder, params, wt, rules[H_WIDOW_DEAD] == 1,
                                            dstate, dbuf)
    hands[bidder] = hand
    rec[R_TRUMP] = trump
    rec[R_DISCARD] = discard
    leader = bidder if rules[H_BIDDER_LEADS] == 1 else (dealer + 1) % 4
    if search is not None and not searched and uses_pimc(params):
        ws = pimc.new_workspace()  # one PIMC workspace for the hand
    play_tricks(hands, trump, leader, bidder, params, dstate, dbuf, rec, tricks, ws, rules, wt, search)
    side = bidder % 2
    bid_pts, def_pts = score_hand(level, tricks[side] + tricks[side + 2], rules)
    for s in range(N_SEATS):
        rec[R_TRICKS + s] = tricks[s]
    rec[R_POINTS + side] = bid_pts
    rec[R_POINTS + 1 - side] = def_pts


@kernel
def play_dealt_once(dealt, widow, dealer, rules, params, wt, force, dstate, dbuf, work, rec, search, eq=None):
    """``play_dealt`` compiled once, not inlined, for the callers off the hot path (should-bid, one hand from a
    deal order): the hand's code is typed and optimised here once instead of inside each caller. ``eq``: the
    game-equity tables (``play_dealt``), None (left out) for none."""
    play_dealt(dealt, widow, dealer, rules, params, wt, force, dstate, dbuf, work, rec, search, eq)


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
def play_hand(state, buf, dstate, dbuf, deck, work, dealer, rules, params, wt, force, rec, search, eq=None):
    """Deal and play one hand dealt by ``dealer`` (``force``, ``search`` as in ``play_dealt``: the callers pass a
    writable copy of ``NO_FORCE``, so every caller of ``play_dealt_once`` shares one compiled hand). The hand is a
    call, not inlined: its code is compiled once for the hands, the games and should-bid, not inside each.
    ``eq``: the game-equity tables (``play_dealt``)."""
    by_pos = work[8:12]
    by_seat = work[12:16]
    widow = deal(state, buf, deck, by_pos)
    for p in range(N_SEATS):
        by_seat[(dealer + 1 + p) % 4] = by_pos[p]
    play_dealt_once(by_seat, widow, dealer, rules, params, wt, force, dstate, dbuf, work, rec, search, eq)


@kernel(_nrt=False)
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
