"""Ghost Hand Euchre kernels: auction with the ghost swap, trick play, scoring, chunked simulation.

Seats are 0..2; the dealer of a hand is given, position p (1..3) is seat
``(dealer + p) % 3``. Hands are card masks (``bower.sim.cards``). Rule options come
as the int64 vector of ``bower.sim.rules.encode`` and the strategy as the float64
vector of ``bower.sim.strategy.to_vector``, one row per seat (``params[seat]``).
Random strategies draw from the decision stream ``(dstate, dbuf)``, apart
from the deal stream ``(state, buf)``, so deals never depend on decisions. The per-hand record (``R_*``) and the
summary counters (``S_*``) are fixed-width int64 rows defined here and read by
``bower.sim.records`` / ``bower.sim.runner``.

The hot path: ``play_hand`` (inlined into the drivers) calls three kernels
that are compiled once, not inlined, and take numbers or are compiled without
reference counting (``_nrt=False``), so a call costs a few nanoseconds:
``deal_hand``, ``auction_core`` and ``play_core``. The public ``auction``,
``play_tricks`` and ``play_dealt`` wrap them for array callers.
"""

import numpy as np

from bower.kernels.bits import popcount
from bower.kernels.deal import deal_masks
from bower.kernels.ghost.strategy import (  # noqa: F401  (best_trump and estimate are re-exported for the tests)
    P_BID3,
    P_BID4,
    P_BID5,
    P_EQUITY,
    P_JUMP,
    P_LEAD_TRUMP,
    P_MOON,
    P_NEAR,
    P_RANDOM,
    P_SHIFT_OPP,
    P_SHIFT_SELF,
    P_SWAP_BELOW,
    best_of_row,
    best_trump,
    bounded_rng,
    ROW_WIDTH,
    call_of,
    equity_call,
    estimate,
    random_call_rng,
    shift_of,
)
from bower.kernels import pimc
from bower.kernels import trick as core
from bower.kernels.jit import kernel
from bower.kernels.play import nth_card, random_card
from bower.kernels.tables import (
    EFF_SUIT,
    POWER,
    S_TRUMPS,
    SLOT_DECK,
    SLOT_ORDER,
    SLOT_RANK,
    SLOT_SUIT,
    SUIT_MASK,
    slot_ranks,
)
from bower.kernels.ghost.codes import G_AUCTION, G_MOON_PENALTY, G_SET_KEEPS, G_STICK, G_SWAP, PARAM_NAMES
from bower.kernels.ghost.model import world_weight

DECK = np.int64((1 << 24) - 1)
N_SEATS = 3
HAND_SIZE = 6
N_TRICKS = 6
N_PLAYS = N_SEATS * N_TRICKS
MOON = 6
MAX_CALLS = 8
P_PIMC = PARAM_NAMES.index("pimc_worlds")
P_PIMC_SEES = PARAM_NAMES.index("pimc_sees_all")
P_PIMC_INFER = PARAM_NAMES.index("pimc_infer")
P_PIMC_TAU = PARAM_NAMES.index("pimc_tau")
P_PIMC_EPS = PARAM_NAMES.index("pimc_eps")
P_PIMC_BID = PARAM_NAMES.index("pimc_bid")
# the PIMC workspace's context cells (``pimc.context``): game scores by seat, target, G_STICK and G_SWAP codes
C_SCORES, C_TARGET, C_STICK, C_SWAP = 0, 3, 4, 5

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

# A forced decision (paired replays, should-bid): seat, turn, swap, call, trump; -1 = not forced. Then the
# observed turns before it (should-bid's weighted model): how many of the first calls are given, those calls
# packed as ``auction_core`` packs its calls (seat << 3 | call at bits 5i), and the seat that swapped on one
# of those turns (-1: none did).
F_SEAT, F_AT, F_SWAP, F_CALL, F_TRUMP, F_GIVEN, F_GIVEN_CALLS, F_SWAP_GIVEN = range(8)
NO_FORCE = np.array([-1, -1, -1, -1, -1, 0, 0, -1], np.int64)
SEAT_ROWS = (np.int64(0), np.int64(1), np.int64(2))  # each seat plays its own row of ``params``

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
    points[0], points[1], points[2] = score_of(maker, bid, tricks[0], tricks[1], tricks[2], rules)


@kernel(inline="always")
def score_of(maker, bid, t0, t1, t2, rules):
    """``score_hand`` on the tricks by seat ``t0, t1, t2``: the points by seat."""
    taken = t0 if maker == 0 else (t1 if maker == 1 else t2)
    if taken >= bid:
        mine = 24 if bid == MOON else taken
    else:
        penalty = rules[G_MOON_PENALTY] if bid == MOON else bid
        mine = -penalty + (taken if rules[G_SET_KEEPS] == 1 else 0)
    return (mine if maker == 0 else t0), (mine if maker == 1 else t1), (mine if maker == 2 else t2)


# ---------------------------------------------------------------- phases


@kernel(inline="always")
def auction(hands, ghost, dealer, rules, params, scores, target, force, dstate, dbuf, rec):
    """Run the auction on ``hands`` (by seat; a swap rewrites it); record swap and calls in ``rec``.

    ``auction_core`` on arrays, the estimates summed directly from ``params``
    (one row per seat). Returns (maker, bid, trump); maker -1 means thrown in.
    """
    rng = (dstate[0], dstate[1], dstate[2], dstate[3], np.uint64(dbuf[0]), dbuf[1])
    maker, bid, trump, h0, h1, h2, swapper, n_calls, calls, rng = auction_core(
        hands[0], hands[1], hands[2], ghost, dealer, rules[G_AUCTION], rules[G_SWAP], rules[G_STICK], params,
        SEAT_ROWS, (scores[0], scores[1], scores[2]), target, force_of(force), rng,
    )
    dstate[0], dstate[1], dstate[2], dstate[3] = rng[0], rng[1], rng[2], rng[3]
    dbuf[0] = np.int64(rng[4])
    dbuf[1] = rng[5]
    hands[0], hands[1], hands[2] = h0, h1, h2
    record_calls(rec, np.int64(0), swapper, n_calls, calls)
    return maker, bid, trump


@kernel(inline="always")
def force_of(force):
    """A force array (``F_*``, ``NO_FORCE`` for none) as the tuple ``auction_core`` takes."""
    return (force[F_SEAT], force[F_AT], force[F_SWAP], force[F_CALL], force[F_TRUMP], force[F_GIVEN],
            force[F_GIVEN_CALLS], force[F_SWAP_GIVEN])


@kernel(inline="always")
def record_calls(rec, base, swapper, n_calls, calls):
    """Write the swap and the calls of an auction (``auction_core``'s packed ``calls``) into ``rec[base:]``."""
    rec[base + R_SWAP] = swapper
    rec[base + R_NCALLS] = n_calls
    for i in range(n_calls):
        c = (calls >> (5 * i)) & 31
        rec[base + R_CALLS + 2 * i] = c >> 3
        rec[base + R_CALLS + 2 * i + 1] = c & 7


@kernel(_nrt=False)
def auction_core(h0, h1, h2, ghost, dealer, auction_rule, swap_rule, stick_rule, rows, seat_rows, scores, target,
                 force, rng, eq=None):
    """Run the auction on the seats' hands ``h0, h1, h2`` with ``ghost`` beside them.

    Rule options are the ``G_AUCTION``, ``G_SWAP``, ``G_STICK`` codes. Seat
    ``s`` plays strategy row ``rows[seat_rows[s]]``: a parameter vector, or a
    ``strategy_rows`` row whose estimate table is used when it can be.
    ``scores`` (by seat) are the game scores before this hand (for
    score-aware strategies). ``force`` = (seat, at, swap, call, trump,
    given, given_calls, swap_given) as ``F_*`` (``force_of``) overrides one
    seat's decisions at one turn (for paired analyses and should-bid): the
    turn is the seat's first (at = -1) or the turn made when ``at`` calls
    have been made; there swap (0 keep, 1 swap, -1 strategy) replaces the
    swap decision if the swap is open, and call (-1 strategy) the call; if
    the seat wins the auction, trump (-1 strategy) is the trump it names.
    Before that, the first ``given`` turns are imposed (should-bid's
    observed auction): call ``i`` is the one packed in ``given_calls`` and a
    seat's first turn among them swaps exactly when it is ``swap_given``
    (while the swap is open), with no draw. ``rng`` is the decision stream as a tuple
    (``bounded_rng``). Compiled once, not inlined, and without reference
    counting (``_nrt=False``: it never allocates), so a call is cheap.

    Returns (maker, bid, trump, h0, h1, h2, swapper, n_calls, calls, rng):
    maker -1 means thrown in; the hands after any swap; the swapper seat or
    -1; call i packed in bits 5i.. of ``calls`` as seat << 3 | call (call 0
    = pass, 3..5, 6 = moon); the stream after the draws.

    ``eq``: None (left out) compiles no game-equity bidding; otherwise (the games of an equity bidder, whose rows
    carry its tables: ``strategy.equity_rows``) a seat with ``bid_equity`` calls by ``strategy.equity_call``.
    """
    until_passes = auction_rule == 1
    swap_open = swap_rule == 1
    stick = stick_rule == 1
    f_seat, f_at, f_swap, f_call, f_trump, f_given, f_given_calls, f_swap_given = force
    standing = np.int64(0)
    maker = np.int64(-1)
    swapper = np.int64(-1)
    n_calls = np.int64(0)
    calls = np.int64(0)
    n_passed = 0
    passed = 0  # bit per seat
    called = 0  # bit per seat
    best_s0 = best_s1 = best_s2 = 0  # each seat's best suit and estimate, once known
    best_e0 = best_e1 = best_e2 = 0.0
    pos = 1
    while True:
        seat = (dealer + pos) % 3
        r = seat_rows[0] if seat == 0 else (seat_rows[1] if seat == 1 else seat_rows[2])
        if (passed >> seat) & 1 == 0 and seat != maker:
            forced = stick and seat == dealer and n_passed == 2 and standing == 0
            rnd = rows[r, P_RANDOM] >= 0.5
            given = n_calls < f_given
            at_force = seat == f_seat and (n_calls == f_at if f_at >= 0 else (called >> seat) & 1 == 0)
            if (called >> seat) & 1 == 0:
                hand = h0 if seat == 0 else (h1 if seat == 1 else h2)
                deciding = swap_open  # the swap decision is still to make
                known = False  # whether (bs, be) describe ``hand``
                bs, be = 0, 0.0
                while True:  # at most twice: the hand held, then the ghost if swapped
                    if not rnd and not known:
                        bs, be = best_of_row(hand, rows, r)
                        known = True
                    if not deciding:
                        break
                    deciding = False
                    if given:
                        do_swap = seat == f_swap_given
                    elif at_force and f_swap >= 0:
                        do_swap = f_swap == 1
                    elif rnd:
                        k, rng = bounded_rng(np.int64(2), rng)
                        do_swap = k == 1
                    else:
                        do_swap = be < rows[r, P_SWAP_BELOW]
                    if do_swap:
                        hand = ghost
                        if seat == 0:
                            h0 = ghost
                        elif seat == 1:
                            h1 = ghost
                        else:
                            h2 = ghost
                        swapper = seat
                        swap_open = False
                        known = False
                if seat == 0:
                    best_s0, best_e0 = bs, be
                elif seat == 1:
                    best_s1, best_e1 = bs, be
                else:
                    best_s2, best_e2 = bs, be
            if given:
                call = (f_given_calls >> (5 * n_calls)) & 7
            elif at_force and f_call >= 0:
                call = f_call
            elif rnd:
                call, rng = random_call_rng(standing, forced, rng)
            else:
                be = best_e0 if seat == 0 else (best_e1 if seat == 1 else best_e2)
                shift = shift_of(seat, scores, target, rows[r, P_SHIFT_SELF], rows[r, P_SHIFT_OPP], rows[r, P_NEAR])
                call = call_of(be - shift, standing, forced, rows[r, P_MOON], rows[r, P_BID5], rows[r, P_BID4],
                               rows[r, P_BID3], rows[r, P_JUMP])
                if eq is not None:  # pruned when compiled for eq None: no equity code in the other runs
                    if rows[r, P_EQUITY] >= 0.5 and rows.shape[1] > ROW_WIDTH:  # an equity bidder with its tables
                        call = equity_call(rows, r, seat, dealer, scores, target, standing, forced, be, call)
            calls |= ((seat << 3) | call) << (5 * n_calls)
            n_calls += 1
            called |= 1 << seat
            passes = call == 0
            passed |= np.int64(passes) << seat
            n_passed += passes
            standing = standing if passes else call
            maker = maker if passes else seat
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
    trump = -1
    if maker >= 0:
        r = seat_rows[0] if maker == 0 else (seat_rows[1] if maker == 1 else seat_rows[2])
        if maker == f_seat and f_trump >= 0:
            trump = f_trump
        elif rows[r, P_RANDOM] >= 0.5:
            trump, rng = bounded_rng(np.int64(4), rng)
        else:
            trump = best_s0 if maker == 0 else (best_s1 if maker == 1 else best_s2)
    return maker, standing, trump, h0, h1, h2, swapper, n_calls, calls, rng


@kernel(inline="always")
def play_tricks(hands, trump, leader, maker, params, choices, dstate, dbuf, rec, tricks):
    """Play six tricks from ``hands`` (by seat), recording plays in ``rec`` and counts in ``tricks``.

    With an empty ``choices`` each seat's strategy plays; otherwise play ``i``
    takes the ``choices[i] % n``-th of the n legal cards in ascending order.
    A PIMC seat (``pimc_worlds``) reads the swap and the deal from ``rec``.
    """
    ws = pimc.new_workspace() if uses_pimc(params, SEAT_ROWS) and choices.shape[0] == 0 else rec
    if uses_pimc(params, SEAT_ROWS) and choices.shape[0] == 0:
        # no rule set here: a swap is modelled only if one was made; game scores 0
        ws[pimc.OFF_CTX + C_SWAP] = 1 if rec[R_SWAP] >= 0 else 0
    t0, t1, t2 = play_core(hands[0], hands[1], hands[2], trump, leader, maker, params, SEAT_ROWS, choices,
                           choices.shape[0] > 0, dstate, dbuf, rec, np.int64(0), ws, ws)
    hands[0], hands[1], hands[2] = 0, 0, 0  # every card played
    tricks[0], tricks[1], tricks[2] = t0, t1, t2


def search_arg(params):
    """``search`` for the hand kernels (``pimc.search_arg`` on this variant's ``pimc_worlds``)."""
    return pimc.search_arg(params, P_PIMC)


@kernel(inline="always")
def uses_pimc(rows, seat_rows):
    """Whether a seat's strategy row plays its cards by PIMC (``pimc_worlds`` >= 1)."""
    return (rows[seat_rows[0], P_PIMC] >= 1.0 or rows[seat_rows[1], P_PIMC] >= 1.0
            or rows[seat_rows[2], P_PIMC] >= 1.0)


@kernel(inline="always")
def pimc_context(ws, scores, target, rules):
    """Write what the PIMC player's auction model needs of the hand into the workspace (``C_*``)."""
    c = pimc.OFF_CTX
    ws[c + C_SCORES], ws[c + C_SCORES + 1], ws[c + C_SCORES + 2] = scores[0], scores[1], scores[2]
    ws[c + C_TARGET] = target
    ws[c + C_STICK] = rules[G_STICK]
    ws[c + C_SWAP] = rules[G_SWAP]


@kernel(inline="always")
def pimc_facts(rec, base, seat):
    """What ``seat`` knows besides its hand and the plays, for ``pimc.choose``: (seats in play, its side, cards it
    knows to be out of play, pinned card, where it may be).

    Every player plays for itself (the solver's side is the seat alone). The
    swapper knows the dead hand (its own dealt hand); to the others the
    ghost or the dead hand is six unseen cards out of play.
    """
    swapper = rec[base + R_SWAP]
    known = rec[base + R_DEAL + swapper] if swapper == seat else np.int64(0)
    return np.int64(7), np.int64(1) << seat, known, np.int64(-1), np.int64(0)


@kernel(inline="always")
def pimc_card(seat, own, c0, c1, c2, trump, r, rows, seat_rows, rec, base, n, dstate, dbuf, ws):
    """The card ``seat`` (holding ``own``) plays by PIMC with strategy row ``r``; ``c0 .. c2``: the hands by seat
    (card masks).

    With ``pimc_infer`` (and not ``pimc_sees_all``) the worlds are weighed by the auction (``pimc_card_inferred``).
    """
    if rows[r, P_PIMC_INFER] >= 0.5 and rows[r, P_PIMC_SEES] < 0.5:
        return pimc_card_inferred(seat, own, trump, r, rows, seat_rows, rec, base, n, dstate, dbuf, ws)
    active, sides, known, pin, pin_allow = pimc_facts(rec, base, seat)
    return pimc.choose(own, seat, active, trump, sides, DECK, known, pin, pin_allow, rec, base + R_PLAYS, n,
                       np.int64(rows[r, P_PIMC]), rows[r, P_PIMC_SEES] >= 0.5, c0, c1, c2, np.int64(0), dstate, dbuf,
                       ws)


@kernel
def pimc_card_inferred(seat, own, trump, r, rows, seat_rows, rec, base, n, dstate, dbuf, ws):
    """PIMC card play with the auction's inference: each world weighted by ``model.world_weight``.

    The worlds are drawn as ``pimc.choose`` draws them (uniform among the
    deals that agree with the cards seen); a world of weight 0 is not
    solved; the card with the highest weighted total is played (ties: least
    value). If every world weighs 0 (a sharp model, ``pimc_eps`` 0, and no
    world reproduces the auction) the decision is made again on fresh
    unweighted worlds. The other seats are modelled by their own strategy
    rows (their heuristic swap, calls and trump).
    """
    active, sides, known, pin, pin_allow = pimc_facts(rec, base, seat)
    card, legal, leader, n_trick, n_unseen, restricted, full = pimc.begin(
        own, seat, active, trump, DECK, known, pin, pin_allow, rec, base + R_PLAYS, n, False, ws)
    if card >= 0:
        return card
    n_worlds = np.int64(rows[r, P_PIMC])
    tau = rows[r, P_PIMC_TAU]
    eps = rows[r, P_PIMC_EPS]
    c = pimc.OFF_CTX
    n_calls = rec[base + R_NCALLS]
    prefix = rec[base + R_CALLS:base + R_CALLS + 2 * n_calls].reshape((n_calls, 2))
    hands = ws[pimc.OFF_ISCRATCH:pimc.OFF_ISCRATCH + 3]
    fs = ws[pimc.OFF_FSCRATCH:pimc.OFF_FSCRATCH + pimc.N_FSCRATCH].view(np.float64)
    for _ in range(n_worlds):
        pimc.draw(own, seat, active, n_unseen, full, restricted, dstate, dbuf, ws)
        x0, x1, x2, _, pile, p0, p1, p2, _ = pimc.world_hands(ws)
        w = world_weight(seat, rec[base + R_DEALER], ws[c + C_STICK], ws[c + C_SWAP], rows, seat_rows,
                         ws[c + C_SCORES:c + C_SCORES + 3], ws[c + C_TARGET], prefix, rec[base + R_SWAP], known,
                         rec[base + R_MAKER], trump, x0 | p0, x1 | p1, x2 | p2, pile, tau, eps, hands, fs)
        if w > 0.0:
            pimc.add_world(legal, active, trump, n_trick, leader, sides, w, ws)
    if pimc.weight_sum(ws) > 0.0:
        return pimc.pick(legal, trump, True, ws)
    for _ in range(n_worlds):
        pimc.draw(own, seat, active, n_unseen, full, restricted, dstate, dbuf, ws)
        pimc.add_world(legal, active, trump, n_trick, leader, sides, 1.0, ws)
    return pimc.pick(legal, trump, False, ws)


@kernel
def pimc_world_weights(rec, seat, n, rows, rules, scores, target, n_worlds, dstate, dbuf, out, weights):
    """For the tests: ``n_worlds`` worlds as ``pimc_card_inferred`` draws them for ``seat`` after ``n`` plays of
    the hand in ``rec`` (row 0 of ``rows`` for every seat), with their weights.

    ``out[w]``: the deal as dealt in that world (seats 0..2, then the ghost);
    ``weights[w]``: its ``model.world_weight`` under the row's ``pimc_tau``
    and ``pimc_eps``.
    """
    ws = pimc.new_workspace()
    pimc_context(ws, scores, target, rules)
    seat_rows = (np.int64(0), np.int64(0), np.int64(0))
    trump = rec[R_TRUMP]
    active, sides, known, pin, pin_allow = pimc_facts(rec, 0, seat)
    own = rec[R_DEAL + seat] if rec[R_SWAP] != seat else rec[R_DEAL + 3]
    for i in range(n):
        if rec[R_PLAYS + 2 * i] == seat:
            own &= ~(np.int64(1) << rec[R_PLAYS + 2 * i + 1])
    played, _, _, _ = pimc.history(rec, R_PLAYS, n, trump, active, ws)
    n_unseen, restricted, full, ok, _ = pimc._plan(own, seat, active, trump, DECK, known, pin, pin_allow, played, ws)
    n_calls = rec[R_NCALLS]
    prefix = rec[R_CALLS:R_CALLS + 2 * n_calls].reshape((n_calls, 2))
    hands = np.zeros(3, np.int64)
    fs = np.zeros(pimc.N_FSCRATCH)
    c = pimc.OFF_CTX
    for w in range(n_worlds):
        pimc.draw(own, seat, active, n_unseen, full, restricted, dstate, dbuf, ws)
        x0, x1, x2, _, pile, p0, p1, p2, _ = pimc.world_hands(ws)
        weights[w] = world_weight(seat, rec[R_DEALER], ws[c + C_STICK], ws[c + C_SWAP], rows, seat_rows,
                                  ws[c + C_SCORES:c + C_SCORES + 3], ws[c + C_TARGET], prefix, rec[R_SWAP], known,
                                  rec[R_MAKER], trump, x0 | p0, x1 | p1, x2 | p2, pile, rows[0, P_PIMC_TAU],
                                  rows[0, P_PIMC_EPS], hands, fs)
        swapper = rec[R_SWAP]
        held = (x0 | p0, x1 | p1, x2 | p2)
        for s in range(3):
            out[w, s] = held[s]
        out[w, 3] = pile
        if swapper >= 0:
            out[w, 3] = held[swapper]
            out[w, swapper] = known if swapper == seat else pile
    return ok


@kernel(inline="always")
def uses_pimc_bid(rows, seat_rows):
    """Whether a seat searches its auction decisions by PIMC (``pimc_bid`` on, ``pimc_worlds`` >= 1, not random)."""
    for s in range(N_SEATS):
        r = seat_rows[s]
        if rows[r, P_PIMC_BID] >= 0.5 and rows[r, P_PIMC] >= 1.0 and rows[r, P_RANDOM] < 0.5:
            return True
    return False


@kernel
def _turn_calls(k, given_calls, seat, dealer, stick, cand):
    """The legal calls of ``seat`` at turn ``k`` after the calls ``given_calls`` (packed) into ``cand``: pass
    (unless a stuck dealer), each bid above the standing bid, moon. Returns how many."""
    standing = 0
    n_passed = 0
    for i in range(k):
        c = (given_calls >> (5 * i)) & 7
        if c == 0:
            n_passed += 1
        else:
            standing = c
    forced = stick == 1 and seat == dealer and n_passed == 2 and standing == 0
    n = 0
    if not forced:
        cand[0] = 0
        n = 1
    for c in range(max(3, standing + 1), MOON + 1):
        cand[n] = c
        n += 1
    return n


@kernel
def _bid_values(me, k, given_calls, swap_given, own, known, f_swap, cand, n_cand, trump_mode, bid, d0, d1, d2, ghost,
                dealer, rules, rows, seat_rows, scores, target, dstate, dbuf, rec, base, ws, vals):
    """The searched auction's values: ``vals[i]``, seat ``me``'s points summed over its worlds (weighted with
    ``pimc_infer``) when it makes candidate ``i``; returns the summed weights.

    Calls (``trump_mode`` off): candidate ``i`` is the call ``cand[i]`` (-1:
    the strategy's) at turn ``k`` with the swap forced to ``f_swap`` (-1:
    none open); in each world the first ``k`` calls (``given_calls``) and
    the swap of ``swap_given`` are imposed, the seats' strategies finish the
    auction (``auction_core``; the same decision-stream state for every
    candidate of a world), and the contract is solved double dummy with
    ``me`` alone against the other two (``pimc.solve_deal``): its tricks as
    maker are scored by the rules, as a defender they are its points; a
    hand thrown in scores 0. Trump (``trump_mode``, ``me`` the maker of the
    finished auction at ``bid``): candidate ``i`` is the suit ``cand[i]``.
    The worlds deal the cards ``me`` has not seen (not ``own``, not
    ``known``: its dead hand if it swapped) to the other two seats and the
    pile, uniformly (``pimc.plan_fresh``); with ``pimc_sees_all`` the one
    world is the true deal ``d0, d1, d2, ghost`` (as dealt).
    """
    r = seat_rows[me]
    n_worlds = np.int64(rows[r, P_PIMC])
    sees_all = rows[r, P_PIMC_SEES] >= 0.5
    infer = rows[r, P_PIMC_INFER] >= 0.5 and not sees_all
    tau = rows[r, P_PIMC_TAU]
    eps = rows[r, P_PIMC_EPS]
    keeps = rules[G_SET_KEEPS]
    for i in range(n_cand):
        vals[i] = 0.0
    n_unseen, restricted, full = 0, False, 0
    if sees_all:
        n_worlds = 1
    else:
        n_unseen, restricted, full = pimc.plan_fresh(own, me, np.int64(7), DECK, known, ws)
    n_calls = k if not trump_mode else rec[base + R_NCALLS]
    prefix = rec[base + R_CALLS:base + R_CALLS + 2 * n_calls].reshape((n_calls, 2))
    hands = ws[pimc.OFF_ISCRATCH:pimc.OFF_ISCRATCH + 3]
    fs = ws[pimc.OFF_FSCRATCH:pimc.OFF_FSCRATCH + pimc.N_FSCRATCH].view(np.float64)
    c = pimc.OFF_CTX
    sc = (scores[0], scores[1], scores[2])
    total = 0.0
    # trump: the candidates ruled out so far (bits), and a world's highest and lowest score for the maker
    out = np.int64(0)
    top = 24.0 if bid == MOON else float(HAND_SIZE)
    bottom = -float(rules[G_MOON_PENALTY] if bid == MOON else bid)
    for j in range(n_worlds):
        # the world's hands held now (after any swap) and its pile (the ghost, or the swapper's dead hand)
        if sees_all:
            x0 = ghost if swap_given == 0 else d0
            x1 = ghost if swap_given == 1 else d1
            x2 = ghost if swap_given == 2 else d2
            pile = ghost if swap_given < 0 else (d0 if swap_given == 0 else (d1 if swap_given == 1 else d2))
        else:
            pimc.draw(own, me, np.int64(7), n_unseen, full, restricted, dstate, dbuf, ws)
            x0, x1, x2, _, pile, _, _, _, _ = pimc.world_hands(ws)
        # the world as dealt: the swapper held the pile (or, for ``me``, its known dead hand) and holds the ghost
        g = pile
        e0, e1, e2 = x0, x1, x2
        if swap_given >= 0:
            g = x0 if swap_given == 0 else (x1 if swap_given == 1 else x2)
            dead = known if swap_given == me else pile
            e0 = dead if swap_given == 0 else x0
            e1 = dead if swap_given == 1 else x1
            e2 = dead if swap_given == 2 else x2
        w = 1.0
        if infer:
            w = world_weight(me, dealer, ws[c + C_STICK], ws[c + C_SWAP], rows, seat_rows,
                             ws[c + C_SCORES:c + C_SCORES + 3], ws[c + C_TARGET], prefix, swap_given, known,
                             np.int64(-1), np.int64(0), x0, x1, x2, pile, tau, eps, hands, fs)
            if not w > 0.0:
                continue
        total += w
        if trump_mode:
            for i in range(n_cand):
                if (out >> i) & 1:
                    continue
                t = pimc.solve_deal_floor(x0, x1, x2, np.int64(0), np.int64(7), cand[i], me, np.int64(1) << me,
                                          bid if keeps == 0 else np.int64(0), ws)
                p0, p1, p2 = score_of(me, bid, t if me == 0 else 0, t if me == 1 else 0, t if me == 2 else 0, rules)
                vals[i] += w * (p0 if me == 0 else (p1 if me == 1 else p2))
            if not infer:  # unweighted worlds: each world left adds between ``bottom`` and ``top``
                out = pimc.rule_out(vals, n_cand, out, float(n_worlds - 1 - j), top, bottom)
            continue
        rng = (dstate[0], dstate[1], dstate[2], dstate[3], np.uint64(dbuf[0]), dbuf[1])
        # solves already made in this world: (maker, trump, swapper) -> tricks of ``me``, and the floor they
        # are exact from (a maker's count short of its bid scores the same whatever it is, unless the set keeps
        # its tricks: ``pimc.solve_deal_floor``)
        n_seen = 0
        for i in range(n_cand):
            force = (me, k, f_swap, cand[i], np.int64(-1), k, given_calls, swap_given)
            maker, b, t, a0, a1, a2, swp, _, _, _ = auction_core(
                e0, e1, e2, g, dealer, rules[G_AUCTION], rules[G_SWAP], rules[G_STICK], rows, seat_rows, sc, target,
                force, rng)
            if maker < 0:
                continue
            key = (maker * 4 + t) * 4 + (swp + 1)
            floor = b if maker == me and keeps == 0 else 0
            tricks = -1
            for j in range(n_seen):
                e = ws[pimc.OFF_ISCRATCH + 3 + j]
                if e >> 16 == key and ((e & 255) >= (e >> 8) & 255 or (e >> 8) & 255 <= floor):
                    tricks = e & 255
            if tricks < 0:
                tricks = pimc.solve_deal_floor(a0, a1, a2, np.int64(0), np.int64(7), t, maker, np.int64(1) << me,
                                               floor, ws)
                if n_seen < pimc.N_ISCRATCH - 3:
                    ws[pimc.OFF_ISCRATCH + 3 + n_seen] = (key << 16) | (floor << 8) | tricks
                    n_seen += 1
            if maker == me:
                p0, p1, p2 = score_of(me, b, tricks if me == 0 else 0, tricks if me == 1 else 0,
                                      tricks if me == 2 else 0, rules)
                p = p0 if me == 0 else (p1 if me == 1 else p2)
            else:
                p = tricks  # a defender scores its own tricks
            vals[i] += w * p
    for i in range(n_cand):
        if (out >> i) & 1:
            vals[i] = -np.inf
    return total


@kernel
def _best(vals, n, incumbent):
    """Index of the highest of ``vals[:n]``; ties keep ``incumbent`` (if >= 0), else the first."""
    best = incumbent if incumbent >= 0 else 0
    for i in range(n):
        if vals[i] > vals[best]:
            best = i
    return best


@kernel
def pimc_auction(h0, h1, h2, ghost, dealer, rules, rows, seat_rows, scores, target, dstate, dbuf, rec, base, ws):
    """The auction with PIMC-searched decisions for the seats whose row has ``pimc_bid`` (``uses_pimc_bid``).

    The auction goes turn by turn: ``auction_core`` with the calls made so
    far imposed says whose turn it is and what its strategy would do; a
    searching seat instead scores its options on its worlds
    (``_bid_values``) and takes the best (ties: the strategy's own choice).
    At its first turn with the swap open it compares keeping (the best of
    its calls) with swapping (the strategy's call on the ghost); if it
    swaps it then searches its call holding the ghost. A searching maker
    then scores the four trumps on worlds drawn from the whole auction.
    Returns what ``auction_core`` returns (the stream is left in ``dstate``,
    ``dbuf``); the calls are written to ``rec[base + R_CALLS:]`` as they are made.
    """
    sc = (scores[0], scores[1], scores[2])
    given_n = np.int64(0)
    given_calls = np.int64(0)
    swap_given = np.int64(-1)
    called = 0
    cand = np.zeros(8, np.int64)
    vals = np.zeros(8)
    one = np.full(1, -1, np.int64)
    v1 = np.zeros(1)
    while True:
        rng = (dstate[0], dstate[1], dstate[2], dstate[3], np.uint64(dbuf[0]), dbuf[1])
        force = (np.int64(-1), np.int64(-1), np.int64(-1), np.int64(-1), np.int64(-1), given_n, given_calls, swap_given)
        maker, bid, trump, a0, a1, a2, swp, n_calls, calls, rng = auction_core(
            h0, h1, h2, ghost, dealer, rules[G_AUCTION], rules[G_SWAP], rules[G_STICK], rows, seat_rows, sc, target,
            force, rng)
        dstate[0], dstate[1], dstate[2], dstate[3] = rng[0], rng[1], rng[2], rng[3]
        dbuf[0] = np.int64(rng[4])
        dbuf[1] = rng[5]
        if n_calls <= given_n:
            break
        code = (calls >> (5 * given_n)) & 31
        seat = code >> 3
        call = code & 7
        r = seat_rows[seat]
        first = (called >> seat) & 1 == 0
        strategy_swaps = first and swap_given < 0 and swp == seat
        dealt = h0 if seat == 0 else (h1 if seat == 1 else h2)
        if rows[r, P_PIMC_BID] >= 0.5 and rows[r, P_PIMC] >= 1.0 and rows[r, P_RANDOM] < 0.5:
            own = ghost if swap_given == seat else dealt
            known = dealt if swap_given == seat else np.int64(0)
            n_cand = _turn_calls(given_n, given_calls, seat, dealer, rules[G_STICK], cand)
            mine = -1  # the strategy's call among the candidates (the tie rule)
            for i in range(n_cand):
                if cand[i] == call:
                    mine = i
            if first and swap_given < 0 and rules[G_SWAP] == 1:
                _bid_values(seat, given_n, given_calls, swap_given, own, known, np.int64(0), cand, n_cand, False,
                            np.int64(0), h0, h1, h2, ghost, dealer, rules, rows, seat_rows, scores, target, dstate,
                            dbuf, rec, base, ws, vals)
                keep = _best(vals, n_cand, -1 if strategy_swaps else mine)
                keep_value = vals[keep]
                _bid_values(seat, given_n, given_calls, swap_given, own, known, np.int64(1), one, np.int64(1), False,
                            np.int64(0), h0, h1, h2, ghost, dealer, rules, rows, seat_rows, scores, target, dstate,
                            dbuf, rec, base, ws, v1)
                if v1[0] > keep_value or (v1[0] == keep_value and strategy_swaps):
                    swap_given = seat
                    _bid_values(seat, given_n, given_calls, swap_given, ghost, dealt, np.int64(1), cand, n_cand,
                                False, np.int64(0), h0, h1, h2, ghost, dealer, rules, rows, seat_rows, scores, target,
                                dstate, dbuf, rec, base, ws, vals)
                    call = cand[_best(vals, n_cand, -1)]
                else:
                    call = cand[keep]
            else:
                _bid_values(seat, given_n, given_calls, swap_given, own, known, np.int64(-1), cand, n_cand, False,
                            np.int64(0), h0, h1, h2, ghost, dealer, rules, rows, seat_rows, scores, target, dstate,
                            dbuf, rec, base, ws, vals)
                call = cand[_best(vals, n_cand, mine)]
        elif strategy_swaps:
            swap_given = seat
        given_calls |= ((seat << 3) | call) << (5 * given_n)
        rec[base + R_CALLS + 2 * given_n] = seat
        rec[base + R_CALLS + 2 * given_n + 1] = call
        rec[base + R_NCALLS] = given_n + 1
        given_n += 1
        called |= 1 << seat
    if maker >= 0:
        r = seat_rows[maker]
        if rows[r, P_PIMC_BID] >= 0.5 and rows[r, P_PIMC] >= 1.0 and rows[r, P_RANDOM] < 0.5:
            dealt = h0 if maker == 0 else (h1 if maker == 1 else h2)
            own = a0 if maker == 0 else (a1 if maker == 1 else a2)
            known = dealt if swp == maker else np.int64(0)
            for i in range(4):
                cand[i] = i
            _bid_values(maker, n_calls, calls, swp, own, known, np.int64(-1), cand, np.int64(4), True, bid, h0, h1,
                        h2, ghost, dealer, rules, rows, seat_rows, scores, target, dstate, dbuf, rec, base, ws, vals)
            trump = cand[_best(vals, np.int64(4), trump)]
    return maker, bid, trump, a0, a1, a2, swp, n_calls, calls


@kernel(inline="always")
def pick_plain(seat, n, hand, legal, v0, v1, v2, v3, trump, ctx):
    """``trick.play_tricks``'s ``pick`` without the search: with ``use_choices`` play ``n`` takes the
    ``choices[n] % k``-th of the k ``legal`` cards in card order, else a random one (``ctx``: ``choices``,
    ``use_choices`` and the decision stream); hands and the result in slot space."""
    choices, use_choices, dstate, dbuf = ctx
    cards = core.slot_cards(legal, trump)
    if use_choices:
        return SLOT_RANK[trump, nth_card(cards, choices[n] % popcount(cards))]
    return SLOT_RANK[trump, random_card(cards, dstate, dbuf)]


@kernel
def pick_card(seat, n, hand, legal, v0, v1, v2, v3, trump, ctx):
    """``pick_plain`` with the search: a seat whose strategy row has ``pimc_worlds`` >= 1 (a bit of ``pim``) plays
    by ``pimc_card`` (``ctx`` adds ``rows``, ``seat_rows``, ``rec``, ``base``, the workspace ``ws`` and ``pim``)."""
    choices, use_choices, rows, seat_rows, rec, base, dstate, dbuf, ws, pim = ctx
    if not use_choices and (pim >> seat) & 1 == 1:
        r = seat_rows[0] if seat == 0 else (seat_rows[1] if seat == 1 else seat_rows[2])
        return SLOT_RANK[trump, pimc_card(seat, core.slot_cards(hand, trump), core.slot_cards(v0, trump),
                                          core.slot_cards(v1, trump), core.slot_cards(v2, trump), trump, r, rows,
                                          seat_rows, rec, base, np.int64(n), dstate, dbuf, ws)]
    return pick_plain(seat, n, hand, legal, v0, v1, v2, v3, trump, (choices, use_choices, dstate, dbuf))


@kernel(_nrt=False)
def play_core(h0, h1, h2, trump, leader, maker, rows, seat_rows, choices, use_choices, dstate, dbuf, rec, base, ws,
              search):
    """``play_tricks`` on the seats' hands ``h0, h1, h2``, recording into ``rec[base:]``; returns the tricks by seat.

    The shared core (``kernels.trick.play_tricks``, every player for itself): seat ``s`` plays strategy row
    ``rows[seat_rows[s]]``, the maker leading its strongest trump with ``lead_trump_min`` trumps, else a sure
    winner, else its card of least value; a follow is the cheapest card that takes the trick, else the card of
    least value. With ``use_choices`` play ``i`` takes the ``choices[i] % n``-th legal card. A random seat plays
    at random, and a seat whose row has ``pimc_worlds`` >= 1 by ``pimc.choose`` (``pick_card``, with ``ws`` its
    workspace, ``pimc.new_workspace``; any int64 array when no seat does). ``search`` None compiles no search
    code (no seat may then play by PIMC: ``search_arg``); any array compiles it. Compiled once, not inlined, and
    without reference counting (``_nrt=False``: it never allocates).
    """
    rnd = 0  # bit per seat playing at random or by PIMC
    pim = 0  # bit per seat playing by PIMC
    for s in range(N_SEATS):
        if rows[seat_rows[s], P_RANDOM] >= 0.5:
            rnd |= 1 << s
        if rows[seat_rows[s], P_PIMC] >= 1.0:
            rnd |= 1 << s
            pim |= 1 << s
    rnd = 7 if use_choices else rnd
    r_maker = seat_rows[0] if maker == 0 else (seat_rows[1] if maker == 1 else seat_rows[2])
    lead_min = rows[r_maker, P_LEAD_TRUMP] if maker >= 0 else 0.0
    v0 = slot_ranks(h0, trump)
    v1 = slot_ranks(h1, trump)
    v2 = slot_ranks(h2, trump)
    if search is None:
        t, n = core.play_tricks(v0, v1, v2, np.int64(0), N_SEATS, N_TRICKS, core.EACH_ALONE, 0, SLOT_DECK[trump],
                                trump, leader, maker, -1, lead_min, 0, -1, rnd, pick_plain,
                                (choices, use_choices, dstate, dbuf), rec, base + R_PLAYS, True)
    else:
        t, n = core.play_tricks(v0, v1, v2, np.int64(0), N_SEATS, N_TRICKS, core.EACH_ALONE, 0, SLOT_DECK[trump],
                                trump, leader, maker, -1, lead_min, 0, -1, rnd, pick_card,
                                (choices, use_choices, rows, seat_rows, rec, base, dstate, dbuf, ws, pim), rec,
                                base + R_PLAYS, True)
    rec[base + R_NPLAYS] = n
    return t & 255, (t >> 8) & 255, t >> 16


# ---------------------------------------------------------------- the plain path
# Hands where every seat plays the heuristic strategy (no random or PIMC seat), the auction is one lap and
# nothing is forced: the same decisions as ``auction_core`` and ``play_core``, with less work. The four
# estimates are computed up front (they do not depend on each other) and the swapper is known before the calls;
# the tricks are played in slot space (``tables.SLOT_ORDER``: value space with each suit on every third slot) with
# the hands rotated so the leader's is first, the lead's sure winners found by three shifts and one ``smear``, and
# two hands' tricks in lockstep (``play_pair``): one hand's
# trick is a chain of dependent steps, and a second, independent chain fills the processor's idle slots.


@kernel(inline="always")
def is_plain(rows, seat_rows, rules):
    """Whether hands under these strategy rows and rules can take the plain path (one lap, heuristic seats)."""
    if rules[G_AUCTION] != 0:
        return False
    for s in range(N_SEATS):
        r = seat_rows[s]
        if rows[r, P_RANDOM] >= 0.5 or rows[r, P_PIMC] >= 1.0:
            return False
    return True


@kernel(inline="always")
def plain_rows(rows):
    """The rows ``auction_plain`` and ``plain_chunk`` give seats 0, 1, 2: ``SEAT_ROWS``, or row 0 for all three
    when the three rows are equal (the same strategy everywhere), so the ghost's estimate does not wait for the
    swapper to be known."""
    same = True
    for j in range(rows.shape[1]):
        same = same and rows[0, j] == rows[1, j] and rows[0, j] == rows[2, j]
    z = np.int64(0)
    return (z, z, z) if same else SEAT_ROWS


@kernel(inline="always")
def lead_need(lead_min):
    """The least whole number of trumps that is at least ``lead_min`` (``lead_trump_min``); 7: never (NaN too)."""
    if lead_min <= 0.0:
        return np.int64(0)
    if not lead_min <= 6.0:
        return np.int64(7)
    return np.int64(np.ceil(lead_min))


@kernel(_nrt=False)
def auction_plain(h0, h1, h2, ghost, dealer, swap_rule, stick_rule, rows, r0, r1, r2, scores, target):
    """``auction_core`` for one lap, seat ``s`` playing the heuristic row ``rows[r_s]``, nothing forced.

    The same returns but the stream (no draw is made): (maker, bid, trump, h0, h1, h2, swapper, n_calls, calls).
    """
    s0, e0 = best_of_row(h0, rows, r0)
    s1, e1 = best_of_row(h1, rows, r1)
    s2, e2 = best_of_row(h2, rows, r2)
    q1 = dealer + 1  # the seats at positions 1, 2, 3
    q1 = q1 - 3 if q1 >= 3 else q1
    q2 = q1 + 1
    q2 = q2 - 3 if q2 >= 3 else q2
    q3 = dealer
    # the swapper, if the auction reaches it: the first by position whose estimate is below its row's line
    sw = np.int64(-1)
    if swap_rule == 1:
        for q in (q3, q2, q1):
            r = r0 if q == 0 else (r1 if q == 1 else r2)
            sw = q if (e0 if q == 0 else (e1 if q == 1 else e2)) < rows[r, P_SWAP_BELOW] else sw
    gs, ge = best_of_row(ghost, rows, r0)  # seats of one row (``plain_rows``): the ghost's estimate needs no swapper
    if r1 != r0 or r2 != r0:
        gs, ge = best_of_row(ghost, rows, r0 if sw <= 0 else (r1 if sw == 1 else r2))
    stick = stick_rule == 1
    standing = np.int64(0)
    maker = np.int64(-1)
    swapper = np.int64(-1)
    n_calls = np.int64(0)
    calls = np.int64(0)
    n_passed = 0
    trump = np.int64(-1)
    for pos in range(1, 4):
        seat = q1 if pos == 1 else (q2 if pos == 2 else q3)
        r = r0 if seat == 0 else (r1 if seat == 1 else r2)
        est = e0 if seat == 0 else (e1 if seat == 1 else e2)
        suit = s0 if seat == 0 else (s1 if seat == 1 else s2)
        if seat == sw:
            est, suit = ge, gs
            h0 = ghost if seat == 0 else h0
            h1 = ghost if seat == 1 else h1
            h2 = ghost if seat == 2 else h2
            swapper = seat
        forced = stick and pos == 3 and n_passed == 2
        shift = shift_of(seat, scores, target, rows[r, P_SHIFT_SELF], rows[r, P_SHIFT_OPP], rows[r, P_NEAR])
        call = call_of(est - shift, standing, forced, rows[r, P_MOON], rows[r, P_BID5], rows[r, P_BID4],
                       rows[r, P_BID3], rows[r, P_JUMP])
        calls |= ((seat << 3) | call) << (5 * n_calls)
        n_calls += 1
        passes = call == 0
        n_passed += passes
        standing = standing if passes else call
        maker = maker if passes else seat
        trump = trump if passes else suit
        if call == MOON:
            break
    return maker, standing, trump, h0, h1, h2, swapper, n_calls, calls


@kernel(inline="always")
def trick_plain(va, vb, vc, top, out):
    """One trick of the plain path in slot space, ``va`` leading, by the shared core's policies
    (``kernels.trick.lead_slot``, ``follow_slot``: no partners); ``top``: the leader is the maker holding enough
    trumps (its strongest trump leads); ``out``: the cards in no hand (unseen by all).

    Returns (va, vb, vc, winner 0..2 from the leader, the three cards).
    """
    v = core.lead_slot(va, vb | vc | out, top, False, np.int64(0), 0)
    va &= ~(np.int64(1) << v)
    sm = SLOT_SUIT[v]
    vb_card, tb = core.follow_slot(vb, sm, v, False)
    vb &= ~(np.int64(1) << vb_card)
    vc_card, tc = core.follow_slot(vc, sm, vb_card if tb else v, False)
    vc &= ~(np.int64(1) << vc_card)
    w = 2 if tc else (1 if tb else 0)
    return va, vb, vc, w, v, vb_card, vc_card


@kernel(inline="always")
def record_trick(rec, base, n, leader, trump, v, vb_card, vc_card):
    """Write a trick's three plays (seat, card; the cards as slots) from ``leader`` on as plays ``n .. n + 2`` of
    ``rec[base:]``."""
    sb = leader + 1
    sb = sb - 3 if sb >= 3 else sb
    sc = sb + 1
    sc = sc - 3 if sc >= 3 else sc
    i = base + R_PLAYS + 2 * n
    rec[i] = leader
    rec[i + 1] = SLOT_ORDER[trump, v]
    rec[i + 2] = sb
    rec[i + 3] = SLOT_ORDER[trump, vb_card]
    rec[i + 4] = sc
    rec[i + 5] = SLOT_ORDER[trump, vc_card]


@kernel(inline="always")
def next_lead(va, vb, vc, leader, w):
    """The hands rotated so the trick's winner (``w`` from the leader) leads next, and its seat."""
    ws = leader + w
    ws = ws - 3 if ws >= 3 else ws
    na = vb if w == 1 else (vc if w == 2 else va)
    nb = vc if w == 1 else (va if w == 2 else vb)
    nc = va if w == 1 else (vb if w == 2 else vc)
    return na, nb, nc, ws


@kernel(_nrt=False)
def play_pair(a1, b1, c1, trump1, m1, n1, a2, b2, c2, trump2, m2, n2, rec, base1, base2, write):
    """The plain path's card play of two hands at once, each led by its maker; with ``write`` the plays go to
    ``rec[base1:]`` and ``rec[base2:]`` (a summary run reads none of them).

    Hand ``k``: the hands in slot space (``rotate_to``) rotated so maker ``m_k`` is first (``a_k``), trump ``trump_k``, and
    ``n_k`` = ``lead_need`` of the maker's ``lead_trump_min``. Returns the tricks by seat of each (6 numbers).
    The same plays as ``play_core``; the two chains of dependent steps overlap.
    """
    o1 = SLOT_DECK[trump1] & ~(a1 | b1 | c1)  # the cards in no hand: unseen by every seat all hand long
    o2 = SLOT_DECK[trump2] & ~(a2 | b2 | c2)
    l1 = m1
    l2 = m2
    t1 = np.int64(0)  # tricks by seat, a byte each
    t2 = np.int64(0)
    for k in range(N_TRICKS):
        a1, b1, c1, w1, x1, y1, z1 = trick_plain(a1, b1, c1, (l1 == m1) & (popcount(a1 & S_TRUMPS) >= n1), o1)
        a2, b2, c2, w2, x2, y2, z2 = trick_plain(a2, b2, c2, (l2 == m2) & (popcount(a2 & S_TRUMPS) >= n2), o2)
        if write:
            record_trick(rec, base1, 3 * k, l1, trump1, x1, y1, z1)
            record_trick(rec, base2, 3 * k, l2, trump2, x2, y2, z2)
        a1, b1, c1, l1 = next_lead(a1, b1, c1, l1, w1)
        a2, b2, c2, l2 = next_lead(a2, b2, c2, l2, w2)
        t1 += np.int64(1) << (8 * l1)
        t2 += np.int64(1) << (8 * l2)
    rec[base1 + R_NPLAYS] = N_PLAYS
    rec[base2 + R_NPLAYS] = N_PLAYS
    return t1 & 255, (t1 >> 8) & 255, t1 >> 16, t2 & 255, (t2 >> 8) & 255, t2 >> 16


@kernel(_nrt=False)
def deal_hand(state, buf, deck):
    """Ghost Hand's deal (``deal.deal_masks``: 24 cards, four hands of 6 one card at a time, the fourth the ghost
    hand, nothing left over): (position 1, position 2, position 3, the ghost hand) as masks. Not inlined (compiled
    once for every caller), without reference counting."""
    m0, m1, m2, m3, _rest = deal_masks(state, buf, deck, 24, 4, HAND_SIZE, 1)
    return m0, m1, m2, m3


@kernel(inline="always")
def deal_plain(state, buf, deck, dealer, rules, rows, r0, r1, r2, scores, target, rec, base):
    """Deal a hand and hold its plain auction, into ``rec[base:]`` as ``play_dealt_core`` writes them.

    Returns (maker, bid, trump, h0, h1, h2): the hands by seat after any swap.
    """
    d0, d1, d2, ghost = deal_hand(state, buf, deck)
    rec[base + R_DEALER] = dealer
    h0 = d2 if dealer == 0 else (d1 if dealer == 1 else d0)  # as in play_dealt_core
    h1 = d0 if dealer == 0 else (d2 if dealer == 1 else d1)
    h2 = d1 if dealer == 0 else (d0 if dealer == 1 else d2)
    rec[base + R_DEAL] = h0
    rec[base + R_DEAL + 1] = h1
    rec[base + R_DEAL + 2] = h2
    rec[base + R_DEAL + 3] = ghost
    maker, bid, trump, h0, h1, h2, swapper, n_calls, calls = auction_plain(
        h0, h1, h2, ghost, dealer, rules[G_SWAP], rules[G_STICK], rows, r0, r1, r2, scores, target)
    record_calls(rec, base, swapper, n_calls, calls)
    rec[base + R_MAKER] = maker
    rec[base + R_BID] = bid
    rec[base + R_TRUMP] = trump
    return maker, bid, trump, h0, h1, h2


@kernel(inline="always")
def rotate_to(h0, h1, h2, seat, trump):
    """The hands by seat in slot space, rotated so ``seat``'s is first: (its, the next seat's, the last's)."""
    v0 = slot_ranks(h0, trump)
    v1 = slot_ranks(h1, trump)
    v2 = slot_ranks(h2, trump)
    a = v0 if seat == 0 else (v1 if seat == 1 else v2)
    b = v1 if seat == 0 else (v2 if seat == 1 else v0)
    c = v2 if seat == 0 else (v0 if seat == 1 else v1)
    return a, b, c


@kernel(inline="always")
def finish_hand(rec, base, maker, bid, t0, t1, t2, rules, acc):
    """Write a hand's tricks and points by seat into ``rec[base:]`` (a hand thrown in: no plays, zeros) and add
    the hand to the summary counters ``acc``, as ``tally`` of the record would, from the numbers in hand.

    The points are ``score_of``'s and whether the bid was made is added as a number, without branches: made or
    set is the least predictable outcome of a hand.
    """
    taken = t0 if maker == 0 else (t1 if maker == 1 else t2)
    made = taken >= bid
    moon = bid == MOON
    set_by = rules[G_MOON_PENALTY] if moon else bid
    kept = taken if rules[G_SET_KEEPS] == 1 else 0
    mine = (24 if moon else taken) if made else kept - set_by
    p0 = mine if maker == 0 else t0
    p1 = mine if maker == 1 else t1
    p2 = mine if maker == 2 else t2
    if maker < 0:
        p0 = p1 = p2 = 0
        rec[base + R_NPLAYS] = 0
    rec[base + R_TRICKS] = t0
    rec[base + R_TRICKS + 1] = t1
    rec[base + R_TRICKS + 2] = t2
    rec[base + R_POINTS] = p0
    rec[base + R_POINTS + 1] = p1
    rec[base + R_POINTS + 2] = p2
    dealer = rec[base + R_DEALER]
    swapper = rec[base + R_SWAP]
    acc[S_HANDS] += 1
    if swapper >= 0:
        acc[S_SWAPS] += 1
        acc[S_SWAP_POS + position_of(swapper, dealer)] += 1
    if maker < 0:
        acc[S_THROWN] += 1
        return
    level = bid - 3
    acc[S_BIDS + level] += 1
    acc[S_MAKER_POS + position_of(maker, dealer)] += 1
    acc[S_MADE + level] += np.int64(made)
    for s in range(N_SEATS):
        pos = position_of(s, dealer)
        pts = p0 if s == 0 else (p1 if s == 1 else p2)
        acc[S_POINTS + pos] += pts
        acc[S_POINTS_SQ + pos] += pts * pts
        acc[S_TRICKS + pos] += t0 if s == 0 else (t1 if s == 1 else t2)


@kernel(_nrt=False)
def finish_hand_once(rec, base, maker, bid, t0, t1, t2, rules, acc):
    """``finish_hand`` compiled once, not inlined: for the plain path's hands thrown in and a chunk's last hand,
    so that the chunk's loop inlines it at one place only (each copy inlined cost seconds of compiling)."""
    finish_hand(rec, base, maker, bid, t0, t1, t2, rules, acc)


@kernel(inline="always")
def position_of(seat, dealer):
    """``(seat - dealer + 2) % 3``: the position (0..2 for 1..3) of ``seat`` when ``dealer`` deals, without a division."""
    x = seat - dealer + 2
    return x - 3 if x >= 3 else x


@kernel(inline="always")
def play_hand(state, buf, dstate, dbuf, deck, work, dealer, rules, rows, seat_rows, scores, target, rec, base, search,
              eq=None):
    """Deal, auction, play and score one hand; the whole record goes to ``rec[base:]``.

    Seat ``s`` plays strategy row ``rows[seat_rows[s]]`` (``strategy_rows``);
    ``scores`` are the game scores before the hand (zeros for independent
    hands). ``work`` is unused (kept for the callers); ``deck`` is scratch.
    ``search``: None compiles no search code (``play_dealt_core``).
    """
    d0, d1, d2, ghost = deal_hand(state, buf, deck)
    play_dealt_core(d0, d1, d2, ghost, dstate, dbuf, dealer, rules, rows, seat_rows, scores, target, NO_FORCE, rec,
                    base, search, eq)


@kernel(inline="always")
def play_hand_once(state, buf, dstate, dbuf, deck, work, dealer, rules, rows, seat_rows, scores, target, rec, base,
                   search):
    """``play_hand`` with the hand a call to ``play_dealt_core_once`` instead of inlined: what a driver calls when a
    seat searches (``search`` not None; its ``if search is None`` is pruned before anything is inlined:
    ``jit._dead_branch_prune``), so the searched hand is compiled once for the hands and the games."""
    d0, d1, d2, ghost = deal_hand(state, buf, deck)
    play_dealt_core_once(d0, d1, d2, ghost, dstate, dbuf, dealer, rules, rows, seat_rows, scores, target, NO_FORCE,
                         rec, base, search)


@kernel(inline="always")
def play_dealt(dealt, dstate, dbuf, work, dealer, rules, params, scores, target, force, rec, search):
    """Auction, play and score a hand already dealt (``dealt``: position 1, 2, 3, ghost) into ``rec``.

    ``params`` has one strategy row per seat; ``force`` as in ``auction``
    (``NO_FORCE`` for none); ``work`` is unused (kept for the callers);
    ``search`` None compiles no search code (``search_arg``).
    """
    play_dealt_core(dealt[0], dealt[1], dealt[2], dealt[3], dstate, dbuf, dealer, rules, params, SEAT_ROWS, scores,
                    target, force, rec, np.int64(0), search)


@kernel
def play_dealt_core_once(d0, d1, d2, ghost, dstate, dbuf, dealer, rules, rows, seat_rows, scores, target, force, rec,
                         base, search):
    """``play_dealt_core`` compiled once, not inlined (``play_hand_once``: a searching seat's hand in the hands and
    the games)."""
    play_dealt_core(d0, d1, d2, ghost, dstate, dbuf, dealer, rules, rows, seat_rows, scores, target, force, rec, base,
                    search)


@kernel
def play_dealt_once(dealt, dstate, dbuf, work, dealer, rules, params, scores, target, force, rec, search):
    """``play_dealt`` compiled once, not inlined, for the callers off the hot path (should-bid, the swap
    analysis): the hand's code is typed and optimised here once instead of inside each caller."""
    play_dealt(dealt, dstate, dbuf, work, dealer, rules, params, scores, target, force, rec, search)


@kernel(inline="always")
def play_dealt_core(d0, d1, d2, ghost, dstate, dbuf, dealer, rules, rows, seat_rows, scores, target, force, rec, base,
                    search, eq=None):
    """``play_dealt`` of the hands dealt to positions 1, 2, 3 and the ghost, into ``rec[base:]``.

    Seat ``s`` plays strategy row ``rows[seat_rows[s]]`` (``auction_core``).
    ``search`` None: the PIMC auction and card play are left out of the
    compiled code (Numba prunes the branches on ``search is not None``), for
    runs where no seat searches (``search_arg``); any array: compiled in.
    """
    rec[base + R_DEALER] = dealer
    # seat (dealer + 1 + p) % 3 holds position p + 1's hand
    h0 = d2 if dealer == 0 else (d1 if dealer == 1 else d0)
    h1 = d0 if dealer == 0 else (d2 if dealer == 1 else d1)
    h2 = d1 if dealer == 0 else (d0 if dealer == 1 else d2)
    rec[base + R_DEAL] = h0
    rec[base + R_DEAL + 1] = h1
    rec[base + R_DEAL + 2] = h2
    rec[base + R_DEAL + 3] = ghost
    searched = False
    ws = rec
    if search is not None:  # pruned when compiled for search None
        searched = uses_pimc_bid(rows, seat_rows) and force[F_SEAT] < 0 and force[F_GIVEN] == 0
    if search is not None and searched:  # one PIMC workspace for the hand: the searched auction, then the card play
        ws = pimc.new_workspace()
        pimc_context(ws, scores, target, rules)
        maker, bid, trump, h0, h1, h2, swapper, n_calls, calls = pimc_auction(
            h0, h1, h2, ghost, dealer, rules, rows, seat_rows, scores, target, dstate, dbuf, rec, base, ws)
    else:
        rng = (dstate[0], dstate[1], dstate[2], dstate[3], np.uint64(dbuf[0]), dbuf[1])
        maker, bid, trump, h0, h1, h2, swapper, n_calls, calls, rng = auction_core(
            h0, h1, h2, ghost, dealer, rules[G_AUCTION], rules[G_SWAP], rules[G_STICK], rows, seat_rows,
            (scores[0], scores[1], scores[2]), target, force_of(force), rng, eq,
        )
        dstate[0], dstate[1], dstate[2], dstate[3] = rng[0], rng[1], rng[2], rng[3]
        dbuf[0] = np.int64(rng[4])
        dbuf[1] = rng[5]
    record_calls(rec, base, swapper, n_calls, calls)
    rec[base + R_MAKER] = maker
    rec[base + R_BID] = bid
    rec[base + R_TRUMP] = trump
    t0 = t1 = t2 = 0
    p0 = p1 = p2 = 0
    if maker < 0:
        rec[base + R_NPLAYS] = 0
    else:
        if search is not None and uses_pimc(rows, seat_rows) and not searched:  # one PIMC workspace for the hand
            ws = pimc.new_workspace()
            pimc_context(ws, scores, target, rules)
        t0, t1, t2 = play_core(h0, h1, h2, trump, maker, maker, rows, seat_rows, rec, np.bool_(False), dstate, dbuf,
                               rec, base, ws, search)
        p0, p1, p2 = score_of(maker, bid, t0, t1, t2, rules)
    rec[base + R_TRICKS] = t0
    rec[base + R_TRICKS + 1] = t1
    rec[base + R_TRICKS + 2] = t2
    rec[base + R_POINTS] = p0
    rec[base + R_POINTS + 1] = p1
    rec[base + R_POINTS + 2] = p2


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
def tally(rec, base, acc):
    """Add one hand's record (``rec[base:]``) to the summary counters ``acc``."""
    dealer = rec[base + R_DEALER]
    acc[S_HANDS] += 1
    maker = rec[base + R_MAKER]
    swapper = rec[base + R_SWAP]
    if swapper >= 0:
        acc[S_SWAPS] += 1
        acc[S_SWAP_POS + (swapper - dealer + 2) % 3] += 1
    if maker < 0:
        acc[S_THROWN] += 1
        return
    bid = rec[base + R_BID]
    level = bid - 3
    acc[S_BIDS + level] += 1
    acc[S_MAKER_POS + (maker - dealer + 2) % 3] += 1
    if rec[base + R_TRICKS + maker] >= bid:
        acc[S_MADE + level] += 1
    for s in range(N_SEATS):
        pos = (s - dealer + 2) % 3
        pts = rec[base + R_POINTS + s]
        acc[S_POINTS + pos] += pts
        acc[S_POINTS_SQ + pos] += pts * pts
        acc[S_TRICKS + pos] += rec[base + R_TRICKS + s]
