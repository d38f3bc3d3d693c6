"""Standard Euchre kernels: the deal with the up-card, both rounds, the dealer's discard, alone and lone defender, play, score.

The contract is ``kernels/euchre/SPEC.md``. Seats 0..3, partners opposite
(side = seat % 2); position p (1..4) is seat ``(dealer + p) % 4``. Rule
options come as the int64 vector of ``codes.OPTIONS`` (``E_*`` cells), the
strategy as one float64 row per seat (``codes.PARAMS``) and its per-card
weight table ``wt`` (``strategy.card_weights``). Random strategies draw from
the decision stream ``(dstate, dbuf)``; deals draw from ``(state, buf)``. The
per-hand record (``R_*``) and summary counters (``S_*``) are fixed-width
int64 rows read by ``sim/variants/euchre``.

The hot path: ``play_hand`` (inlined into the hand drivers) deals, then calls two
kernels compiled once, not inlined, and without reference counting
(``_nrt=False``: they never allocate): ``auction`` (both rounds and the
dealer's discard) and ``kernels.trick.play_tricks`` through ``play_plain`` (every
seat plays the heuristic cards, in slot space: the core every variant shares)
or ``play_tricks`` (a random or searching seat, through the same core, as
Cutthroat; a PIMC seat's workspace, ``bower.kernels.pimc``, is made by the
caller once per hand). A run of heuristic seats compiles ``play_plain`` only
(``drivers.plain_chunks``). A hand of a game, one hand from an order and
should-bid are a call of ``play_dealt``, the hand compiled once for them all
(``play_hand_once``), not inlined into each.
"""

import numpy as np

from bower.kernels.arrays import copy_into
from bower.kernels import pimc
from bower.kernels import trick as core
from bower.kernels.bits import lowest, popcount
from bower.kernels.deal import deal_masks
from bower.kernels.euchre.codes import (
    E_CANADIAN, E_DISCARD_UP, E_FAST_BREAK, E_FARMERS, E_GO_UNDER, E_LONE_DEFENDER, E_LONER_EUCHRED, E_LONER_LEAD,
    E_LONER_MARCH, E_PARTNERS_BEST, E_STICK, PARAM_NAMES,
)
from bower.kernels.euchre.model import world_weight
from bower.kernels.euchre.strategy import (
    Q_EQUITY,
    Q_LEAD_NEXT,
    Q_LEAD_TRUMP,
    Q_VOID,
    alone_decision,
    best_discard,
    card_weights,
    equity_name,
    equity_order,
    is_random,
    name_decision,
    order_decision,
)
from bower.kernels.jit import kernel
from bower.kernels.play import nth_card, random_card
from bower.kernels.rng import bounded
from bower.kernels.solve import TO_SOLVER
from bower.kernels.tables import (
    SLOT_DECK,
    SLOT_RANK,
    VALUE,
    slot_ranks,
)

N_SEATS = 4
HAND_SIZE = 5
N_TRICKS = 5
N_CARDS = 24
MAX_CALLS = 8
MAX_PLAYS = N_SEATS * N_TRICKS
MAKER_NEEDS = 3
DECK = np.int64((1 << 24) - 1)
Q_PIMC = PARAM_NAMES.index("pimc_worlds")
Q_PIMC_SEES = PARAM_NAMES.index("pimc_sees_all")
Q_PIMC_BID = PARAM_NAMES.index("pimc_bid")
Q_PIMC_INFER = PARAM_NAMES.index("pimc_infer")
Q_PIMC_TAU = PARAM_NAMES.index("pimc_tau")
Q_PIMC_EPS = PARAM_NAMES.index("pimc_eps")

# Call codes in the record: 0 pass, 1 order (round one, whoever makes it), 2 + suit named (round two).
CALL_PASS = 0
CALL_ORDER = 1
CALL_SUIT = 2

# A forced decision (should-bid): seat, the call index at which it acts, its call code there (as in the record),
# and whether it goes alone if it becomes the maker (-1 = as the strategy does). The forced seat also passes at
# any turn of its own before that call index (the calls before the player's turn are all passes). Then how many
# of the first calls are given as passes, whoever makes them (should-bid's weighted model: the observed passes).
# A forced decision draws nothing from the decision stream. NO_FORCE (seat -1, no passes given): none. The
# kernels take a force as a tuple (``force_of``).
F_SEAT, F_AT, F_CALL, F_ALONE, F_PASSES = range(5)
NO_FORCE = np.array([-1, -1, -1, -1, 0], np.int64)

# Per-hand record layout (int64 row).
R_DEALER = 0
R_DEAL = 1  # 4 masks by seat, as dealt
R_KITTY = 5  # 4 cards in deal order; the first is the up-card
R_NCALLS = 9
R_CALLS = 10  # MAX_CALLS pairs (seat, call code)
R_MAKER = R_CALLS + 2 * MAX_CALLS  # seat or -1 (thrown in)
R_TRUMP = R_MAKER + 1  # suit or -1
R_DISCARD = R_TRUMP + 1  # the dealer's discard after an order, else -1
R_ALONE = R_DISCARD + 1  # bit per seat: the maker and/or the lone defender
R_NPLAYS = R_ALONE + 1
R_PLAYS = R_NPLAYS + 1  # MAX_PLAYS pairs (seat, card)
R_TRICKS = R_PLAYS + 2 * MAX_PLAYS  # 4: by seat (a seat sitting out: 0)
R_POINTS = R_TRICKS + N_SEATS  # 2: by side (0: seats 0 & 2, 1: seats 1 & 3)
R_EXCHANGE = R_POINTS + 2  # rules farmers / go_under: the seat that exchanged with the kitty, else -1
R_GIVEN = R_EXCHANGE + 1  # the 3 cards it gave (mask; 0: no exchange); it took the kitty's cards 2..4
R_PASSED = R_GIVEN + 1  # rule partners_best: the card the lone maker's partner passed it, else -1
R_LONER_DISCARD = R_PASSED + 1  # rule partners_best: the lone maker's discard after the pass, else -1
R_WIDTH = R_LONER_DISCARD + 1

# Rules farmers / go_under: the nines and tens (farmer's hand), the jacks, queens and kings (a hand going under
# holds none).
NINES_TENS = np.int64(sum(3 << (6 * s) for s in range(4)))
FACES = np.int64(sum(7 << (6 * s + 2) for s in range(4)))

# Summary counters (int64 row per chunk; merged by summing). "By position": 1, 2, 3, 4 (dealer).
S_HANDS = 0
S_THROWN = 1
S_MAKER_R1 = 2  # 4: round-one makers (orders) by position
S_MADE_R1 = 6  # 4: of those, made (the makers' side took 3+)
S_MAKER_R2 = 10  # 4: round-two makers by position
S_MADE_R2 = 14  # 4
S_MARCH = 18  # makers' side took all 5
S_EUCHRE = 19  # makers' side took fewer than 3
S_ALONE = 20  # makers who went alone
S_ALONE_MADE = 21
S_ALONE_MARCH = 22
S_DEF_ALONE = 23  # lone defenders
S_DEF_ALONE_SET = 24  # of those, the makers euchred
S_DEF_ALONE_ALL = 25  # of those, the makers took no trick
S_UP_ORDER = 26  # 6: round-one orders by up-card rank (9 T J Q K A)
S_UP_MADE = 32  # 6
S_POINTS = 38  # 2: points by side (0: seats 0 & 2, 1: seats 1 & 3)
S_POINTS_SQ = 40  # 2
S_POINTS_DEALER = 42  # 2: points of the dealer's side, of the other side (position 1's)
S_POINTS_DEALER_SQ = 44  # 2
S_POINTS_MAKER = 46  # 2: points of the makers' side, of the defenders' side (played hands only)
S_POINTS_MAKER_SQ = 48  # 2
S_TRICKS = 50  # 4: tricks by position
S_WIDTH = 54


@kernel(inline="always")
def score_hand(maker_tricks, maker_alone, lone_defender, rules, broken):
    """(makers' points, defenders' points) of a hand (RULES.md 4): 3-4 tricks 1, all 5 2 (alone: rule
    ``loner_march_score``, 4 by default); euchred 2 (a lone defender 4; a lone maker euchred by two defenders: rule
    ``loner_euchred_score``, 2 by default). ``broken``: the defenders took tricks 1 and 2 (``fast_broken``); with
    rule ``fast_break`` a hand whose makers then took exactly 3 tricks (3, 4 and 5) scores 0 for both sides, alone
    or not."""
    if maker_tricks >= MAKER_NEEDS:
        if maker_tricks < N_TRICKS:
            if broken and maker_tricks == MAKER_NEEDS and rules[E_FAST_BREAK] == 1:
                return 0, 0
            return 1, 0
        return (rules[E_LONER_MARCH] if maker_alone else 2), 0
    if lone_defender:
        return 0, 4
    return 0, (rules[E_LONER_EUCHRED] if maker_alone else 2)


@kernel(inline="always")
def fast_broken(rec, maker, out):
    """Whether the defenders of ``maker`` took tricks 1 and 2 of the hand played into ``rec`` (``out``: the seats
    sitting out): the seats leading tricks 2 and 3, each the winner of the trick before, are defenders."""
    n = N_SEATS
    for s in range(N_SEATS):
        n -= (out >> s) & 1
    if rec[R_NPLAYS] < 3 * n:
        return False
    return (rec[R_PLAYS + 2 * n] & 1) != (maker & 1) and (rec[R_PLAYS + 4 * n] & 1) != (maker & 1)


@kernel(inline="always")
def exchange_choices(hand, rules):
    """The cards a seat holding ``hand`` may give the kitty before the first call (rules ``farmers``, ``go_under``;
    0: it may not exchange): its nines and tens when it holds three or more (``farmers``), all five when it holds
    no jack, queen or king (``go_under``)."""
    cands = np.int64(0)
    if rules[E_FARMERS] == 1 and popcount(hand & NINES_TENS) >= 3:
        cands = hand & NINES_TENS
    if rules[E_GO_UNDER] == 1 and (hand & FACES) == 0:
        cands = hand
    return cands


@kernel(inline="always")
def heuristic_gift(hand, cands):
    """The heuristic player's three cards to give (SPEC.md, "Farmer's hand and going under"): the lowest ranks
    first (9, 10, then the ace), among equal ranks from the suit where it holds fewer cards (ties: the lower suit)."""
    given = np.int64(0)
    for _ in range(3):
        best = -1
        best_key = 1 << 20
        m = cands & ~given
        while m:
            c = lowest(m)
            m &= m - 1
            key = (c % 6) * 64 + popcount(hand & (np.int64(63) << (6 * (c // 6)))) * 8 + c // 6
            if key < best_key:
                best_key = key
                best = c
        given |= np.int64(1) << best
    return given


@kernel(_nrt=False)
def kitty_exchange(hands, kitty, dealer, rules, params, dstate, dbuf, rec):
    """Rules ``farmers`` / ``go_under``: before the first call, in turn from position 1 (the dealer last), the
    first eligible seat (``exchange_choices``) that chooses to gives three of its cards for the kitty's three
    face-down cards (``kitty[1:4]``; the up-card stays); at most one exchange a deal. The heuristic player always
    exchanges (``heuristic_gift``); a random one draws whether to (2), then each card given in turn among those
    left it may give. ``hands`` (by seat) get the exchange; ``rec`` its seat (``R_EXCHANGE``) and the cards given
    (``R_GIVEN``)."""
    rec[R_EXCHANGE] = -1
    rec[R_GIVEN] = 0
    down = (np.int64(1) << kitty[1]) | (np.int64(1) << kitty[2]) | (np.int64(1) << kitty[3])
    for p in range(1, 5):
        seat = (dealer + p) & 3
        cands = exchange_choices(hands[seat], rules)
        if cands == 0:
            continue
        given = np.int64(0)
        if is_random(params, seat):
            if bounded(dstate, dbuf, 2) == 0:
                continue
            for k in range(3):
                left = cands & ~given
                given |= np.int64(1) << nth_card(left, bounded(dstate, dbuf, popcount(left)))
        else:
            given = heuristic_gift(hands[seat], cands)
        hands[seat] = (hands[seat] & ~given) | down
        rec[R_EXCHANGE] = seat
        rec[R_GIVEN] = given
        return


@kernel(inline="always")
def held_dealt(rec, seat):
    """The five cards ``seat`` held before the first call: as dealt, after its exchange with the kitty (rules
    ``farmers`` / ``go_under``: ``R_EXCHANGE``, ``R_GIVEN``)."""
    own = rec[R_DEAL + seat]
    if rec[R_GIVEN] != 0 and rec[R_EXCHANGE] == seat:
        own = (own & ~rec[R_GIVEN]) | (np.int64(1) << rec[R_KITTY + 1]) | (np.int64(1) << rec[R_KITTY + 2]) \
            | (np.int64(1) << rec[R_KITTY + 3])
    return own


@kernel(inline="always")
def _call(rec, n_calls, seat, code):
    rec[R_CALLS + 2 * n_calls] = seat
    rec[R_CALLS + 2 * n_calls + 1] = code
    return n_calls + 1


@kernel(inline="always")
def force_of(force):
    """A force array (``F_*``, ``NO_FORCE`` for none) as the tuple ``auction`` takes."""
    return (force[F_SEAT], force[F_AT], force[F_CALL], force[F_ALONE], force[F_PASSES])


@kernel(inline="always")
def _forced(force, seat, n_calls):
    """0: the seat's call is its own; 1: forced to pass (a given pass, or a turn before the forced one); 2: the
    forced call."""
    if n_calls < force[F_PASSES]:
        return 1
    if seat != force[F_SEAT]:
        return 0
    if n_calls == force[F_AT]:
        return 2
    if n_calls < force[F_AT]:
        return 1
    return 0


@kernel(_nrt=False)
def auction(hands, up, dealer, rules, params, wt, force, dstate, dbuf, rec, eq=None):
    """Both rounds of the auction and, after an order, the dealer's discard; calls and discard into ``rec``.

    Returns (maker, trump); maker -1 means thrown in. ``hands`` (by seat)
    gets the dealer's exchange. ``force`` (``F_*`` as a tuple, ``force_of``)
    makes one seat's call at one turn instead of its strategy, and the first
    ``F_PASSES`` calls passes (no draw for them).

    ``eq``: None (left out) compiles no game-equity bidding; otherwise (the games of an equity bidder) the tuple
    (tables, side scores, target, pick): a strategic seat with ``bid_equity`` calls by ``strategy.equity_order``
    and ``strategy.equity_name``, and ``pick`` gets the seat that called so and whether it goes alone (seat -1:
    none).
    """
    if eq is not None:  # pruned when compiled for eq None
        eq[3][0] = -1
    u = up // 6
    up_bit = np.int64(1) << up
    n_calls = 0
    maker = -1
    trump = -1
    took_d = -1  # the dealer's best discard, when worked out for its own take decision
    for p in range(1, 5):
        seat = (dealer + p) & 3
        f = _forced(force, seat, n_calls)
        if f == 2:
            order = force[F_CALL] == CALL_ORDER
        elif f == 1:
            order = False
        elif is_random(params, seat):
            order = bounded(dstate, dbuf, 2) == 1
        else:
            order, d = order_decision(hands[seat], up, p, wt, params, seat, rules[E_DISCARD_UP] == 1)
            if eq is not None:  # pruned when compiled for eq None: no equity code in the other runs
                if params[seat, Q_EQUITY] >= 0.5:
                    level, d = equity_order(hands[seat], up, p, seat, dealer, wt, params, rules[E_DISCARD_UP] == 1,
                                            eq)
                    order = level > 0
                    eq[3][0], eq[3][1] = seat, level - 1
            took_d = d if p == 4 else took_d
        n_calls = _call(rec, n_calls, seat, CALL_ORDER if order else CALL_PASS)
        if order:
            maker = seat
            trump = u
            break
    discard = -1
    if maker >= 0:
        hand = hands[dealer]
        any_discard = rules[E_DISCARD_UP] == 1  # the up-card itself may be discarded: six candidates
        if is_random(params, dealer):
            if any_discard:
                discard = nth_card(hand | up_bit, bounded(dstate, dbuf, HAND_SIZE + 1))
            else:
                discard = nth_card(hand, bounded(dstate, dbuf, HAND_SIZE))
        elif took_d >= 0:
            discard = took_d
        else:
            discard, _ = best_discard(hand | up_bit, -1 if any_discard else up, u, wt, dealer, params[dealer, Q_VOID])
        hands[dealer] = (hand | up_bit) & ~(np.int64(1) << discard)
    else:
        allowed = np.int64(15 & ~(1 << u))
        for p in range(1, 5):
            seat = (dealer + p) & 3
            stuck = p == 4 and rules[E_STICK] == 1
            call = -1
            f = _forced(force, seat, n_calls)
            if f == 2:
                if force[F_CALL] >= CALL_SUIT:
                    call = force[F_CALL] - CALL_SUIT
            elif f == 1:
                call = -1
            elif is_random(params, seat):
                k = bounded(dstate, dbuf, 3 if stuck else 4)
                if not stuck:
                    k -= 1
                if k >= 0:
                    call = nth_card(allowed, k)
            else:
                call = name_decision(hands[seat], u, p, stuck, wt, params, seat)
                if eq is not None:  # pruned when compiled for eq None
                    if params[seat, Q_EQUITY] >= 0.5:
                        level, s = equity_name(hands[seat], u, p, stuck, seat, dealer, wt, params, eq)
                        call = s if level > 0 else -1
                        eq[3][0], eq[3][1] = seat, level - 1
            n_calls = _call(rec, n_calls, seat, CALL_PASS if call < 0 else CALL_SUIT + call)
            if call >= 0:
                maker = seat
                trump = call
                break
    rec[R_NCALLS] = n_calls
    rec[R_DISCARD] = discard
    return maker, trump


def search_arg(params):
    """``search`` for the hand kernels (``pimc.search_arg`` on this variant's ``pimc_worlds``)."""
    return pimc.search_arg(params, Q_PIMC)


@kernel(inline="always")
def uses_pimc(params):
    """Whether a seat plays its cards by PIMC (``pimc_worlds`` >= 1)."""
    return (params[0, Q_PIMC] >= 1.0 or params[1, Q_PIMC] >= 1.0 or params[2, Q_PIMC] >= 1.0
            or params[3, Q_PIMC] >= 1.0)


@kernel(inline="always")
def pimc_facts(rec, seat, any_discard):
    """What ``seat`` knows besides its hand and the plays, for ``pimc.choose``: (seats in play, its side, cards it
    knows to be out of play, pinned card, where it may be), from the record of the hand so far.

    Sides: the partnerships (a partner sitting out is out of play). After an
    order the dealer holds the up-card (it may not be discarded: pinned
    there, or out of play with the dealer sitting out) and knows its own
    discard; a turned-down up-card is out of play and seen by all; the
    kitty's other cards, the discard (to the others) and a hand sitting out
    are unseen. Under rule ``discard_up`` (``any_discard``) the dealer may
    have buried the up-card: to the other seats it is pinned to the dealer
    or the pile, whichever the dealer did (only the dealer knows). A seat
    that exchanged with the kitty (rules ``farmers`` / ``go_under``) knows
    the cards it gave out of play; the other seats do not use that a
    farmer's three were nines and tens (SPEC.md: a known gap). After a
    lone maker's exchange (rule ``partners_best``, ``R_PASSED`` >= 0) the
    maker knows its discard out of play; to the others the up-card held by
    the dealer may have gone (the loner's discard, or the sitting-out
    dealer's pass): pinned to the loner or the pile.
    """
    dealer = rec[R_DEALER]
    up = rec[R_KITTY]
    alone = rec[R_ALONE]
    out = np.int64(0)
    for s in range(N_SEATS):
        if (alone >> s) & 1:
            out |= np.int64(1) << (s ^ 2)
    active = np.int64(15) & ~out
    sides = (np.int64(5) << (seat & 1)) & active
    known = np.int64(0)
    if rec[R_GIVEN] != 0 and rec[R_EXCHANGE] == seat:
        known |= rec[R_GIVEN]  # the cards it gave the kitty (rules farmers / go_under)
    pin = np.int64(-1)
    pin_allow = np.int64(0)
    discard = rec[R_DISCARD]
    passed = rec[R_PASSED]
    maker = rec[R_MAKER]
    if passed >= 0 and seat == maker:
        known |= np.int64(1) << rec[R_LONER_DISCARD]
    if discard < 0:
        known |= np.int64(1) << up  # turned down
    elif passed >= 0 and discard != up and (maker == dealer or (out >> dealer) & 1):
        # the up-card went through the lone maker's exchange (it is the dealer, or its partner the dealer was)
        if seat == dealer:
            known |= np.int64(1) << discard
        if seat == maker:
            if rec[R_LONER_DISCARD] != up and (out >> dealer) & 1 and passed != up:
                known |= np.int64(1) << up  # still in the sitting-out dealer's hand
        else:
            pin = up
            pin_allow = (np.int64(1) << maker) | pimc.PILE_BIT
    else:
        if seat == dealer:
            known |= np.int64(1) << discard  # the up-card itself when it buried it (rule discard_up)
        if (out >> dealer) & 1:
            known |= np.int64(1) << up
        elif seat != dealer or discard != up:
            pin = up
            pin_allow = np.int64(1) << dealer
            if any_discard and seat != dealer:  # the dealer's, or buried (rule discard_up): not told which
                pin_allow |= pimc.PILE_BIT
    return active, sides, known, pin, pin_allow


@kernel(inline="always")
def infer_facts(rec, seat, any_discard):
    """The facts of the draws weighed by the auction (``pimc_infer``): (cards ``seat`` knows to be out of play,
    pinned card, where it may be), with every seat a recipient (a hand sitting out is dealt too, as it was dealt).

    A turned-down up-card is seen by all; after an exchange the up-card is
    the dealer's (sitting out or not), and the dealer knows its discard.
    Under rule ``discard_up`` (``any_discard``) the up-card is, to the other
    seats, the dealer's or the pile's (buried): ``model.world_weight``
    weighs each by the dealer's discard.
    """
    up = rec[R_KITTY]
    discard = rec[R_DISCARD]
    mine = rec[R_GIVEN] if rec[R_EXCHANGE] == seat else np.int64(0)  # the cards it gave the kitty (farmers)
    if discard < 0:
        return (np.int64(1) << up) | mine, np.int64(-1), np.int64(0)
    if seat == rec[R_DEALER]:
        return (np.int64(1) << discard) | mine, np.int64(-1), np.int64(0)
    if any_discard:
        return mine, up, (np.int64(1) << rec[R_DEALER]) | pimc.PILE_BIT
    return mine, up, np.int64(1) << rec[R_DEALER]


@kernel
def pimc_card_inferred(seat, own, trump, rec, n, params, wt, rules, dstate, dbuf, ws):
    """PIMC card play with the auction's inference (``pimc_infer``): each world weighted by ``model.world_weight``.

    The legal cards and whether to search are ``pimc.choose``'s; the worlds
    are then drawn uniformly among the deals that agree with what ``seat``
    has seen, with every seat a recipient (``infer_facts``: a hand sitting
    out is drawn too, so that its calls can be weighed), solved among the
    seats in play, and their values summed with their weights (a world of
    weight 0 is not solved); the card with the highest weighted total is
    played (ties: least value). If every world weighs 0 (a sharp model, and
    no world reproduces the auction) fresh unweighted worlds decide. The
    other seats are modelled by their own strategy rows (``rules``: the
    rule codes, for the auction model). Allocates nothing (``play_tricks``
    is compiled without reference counting): its scratch is the workspace's.
    """
    any_discard = rules[E_DISCARD_UP] == 1
    active, sides, known, pin, pin_allow = pimc_facts(rec, seat, any_discard)
    card, legal, leader, n_trick, n_unseen, restricted, full = pimc.begin(
        own, seat, active, trump, DECK, known, pin, pin_allow, rec, R_PLAYS, n, False, ws)
    if card >= 0:
        return card
    known4, pin4, allow4 = infer_facts(rec, seat, any_discard)
    played, _, _, _ = pimc.history(rec, R_PLAYS, n, trump, active, ws)
    n4, restricted4, full4, ok4, _ = pimc._plan(own, seat, np.int64(15), trump, DECK, known4, pin4, allow4, played, ws)
    n_worlds = np.int64(params[seat, Q_PIMC])
    if not ok4:  # cannot happen in positions the rules reach: the plain decision
        return pimc.choose(own, seat, active, trump, sides, DECK, known, pin, pin_allow, rec, R_PLAYS, n, n_worlds,
                           False, own, own, own, own, dstate, dbuf, ws)
    tau = params[seat, Q_PIMC_TAU]
    eps = params[seat, Q_PIMC_EPS]
    held = ws[pimc.OFF_ISCRATCH:pimc.OFF_ISCRATCH + N_SEATS]
    fs = ws[pimc.OFF_FSCRATCH:pimc.OFF_FSCRATCH + 8].view(np.float64)
    exchanged = rec[R_DISCARD] >= 0
    for _ in range(n_worlds):
        pimc.draw(own, seat, np.int64(15), n4, full4, restricted4, dstate, dbuf, ws)
        x0, x1, x2, x3, pile, p0, p1, p2, p3 = pimc.world_hands(ws)
        held[0], held[1], held[2], held[3] = x0 | p0, x1 | p1, x2 | p2, x3 | p3
        w = world_weight(held, pile, rec[R_KITTY], rec[R_DEALER], rec, np.int64(R_CALLS), rec[R_NCALLS], exchanged,
                         seat, rules[E_STICK], any_discard, wt, params, tau, eps, fs[:4], fs[4:])
        if w > 0.0:
            pimc.add_world(legal, active, trump, n_trick, leader, sides, w, ws)
    if pimc.weight_sum(ws) > 0.0:
        return pimc.pick(legal, trump, True, ws)
    for _ in range(n_worlds):
        pimc.draw(own, seat, np.int64(15), n4, full4, restricted4, dstate, dbuf, ws)
        pimc.add_world(legal, active, trump, n_trick, leader, sides, 1.0, ws)
    return pimc.pick(legal, trump, False, ws)


@kernel
def pimc_world_weights(rec, seat, n, params, rules, n_worlds, dstate, dbuf, out, weights):
    """For the tests: ``n_worlds`` worlds as ``pimc_card_inferred`` draws them for ``seat`` after ``n`` plays of
    the hand in ``rec``, with their weights.

    ``out[w]``: each seat's hand before the first lead in that world (the
    dealer's after its exchange), then the pile (int64[5]); ``weights[w]``:
    its ``model.world_weight`` under ``seat``'s ``pimc_tau`` and
    ``pimc_eps``, the other seats modelled by their rows of ``params``.
    Returns whether the facts admitted a deal.
    """
    ws = pimc.new_workspace()
    wt = np.zeros((N_SEATS, 4, N_CARDS), np.float64)
    card_weights(params, wt)
    trump = rec[R_TRUMP]
    any_discard = rules[E_DISCARD_UP] == 1
    active, _, _, _, _ = pimc_facts(rec, seat, any_discard)
    own = held_dealt(rec, seat)
    if rec[R_DISCARD] >= 0 and seat == rec[R_DEALER]:
        own = (own | (np.int64(1) << rec[R_KITTY])) & ~(np.int64(1) << rec[R_DISCARD])
    for i in range(n):
        if rec[R_PLAYS + 2 * i] == seat:
            own &= ~(np.int64(1) << rec[R_PLAYS + 2 * i + 1])
    known4, pin4, allow4 = infer_facts(rec, seat, any_discard)
    played, _, _, _ = pimc.history(rec, R_PLAYS, n, trump, active, ws)
    n4, restricted4, full4, ok, _ = pimc._plan(own, seat, np.int64(15), trump, DECK, known4, pin4, allow4, played, ws)
    held = np.zeros(N_SEATS, np.int64)
    fs = np.zeros(8)
    for w in range(n_worlds):
        pimc.draw(own, seat, np.int64(15), n4, full4, restricted4, dstate, dbuf, ws)
        x0, x1, x2, x3, pile, p0, p1, p2, p3 = pimc.world_hands(ws)
        held[0], held[1], held[2], held[3] = x0 | p0, x1 | p1, x2 | p2, x3 | p3
        weights[w] = world_weight(held, pile, rec[R_KITTY], rec[R_DEALER], rec, np.int64(R_CALLS), rec[R_NCALLS],
                                  rec[R_DISCARD] >= 0, seat, rules[E_STICK], any_discard, wt, params,
                                  params[seat, Q_PIMC_TAU], params[seat, Q_PIMC_EPS], fs[:4], fs[4:])
        for s in range(N_SEATS):
            out[w, s] = held[s]
        out[w, N_SEATS] = pile
    return ok


@kernel
def pick_card(seat, n, hand, legal, v0, v1, v2, v3, trump, ctx):
    """``trick.play_tricks``'s ``pick`` for a seat that plays at random or by PIMC (``ctx``: ``params``, the
    decision stream, ``rec``, the PIMC workspace ``ws``, ``wt``, ``rules`` and ``pim``, a bit per seat playing
    by PIMC); hands and the result in slot space.

    A PIMC seat plays by ``pimc.choose`` (``pimc_facts``), with ``pimc_infer`` (and not ``pimc_sees_all``, and no
    lone maker's exchange under rule ``partners_best``: its worlds then weigh the same) by
    ``pimc_card_inferred`` (``wt``, ``rules``: the card weights and the rule codes, for the auction model);
    any other a ``legal`` card at random.
    """
    params, dstate, dbuf, rec, ws, wt, rules, pim = ctx
    if ((pim >> seat) & 1 == 1 and params[seat, Q_PIMC_INFER] >= 0.5 and params[seat, Q_PIMC_SEES] < 0.5
            and rec[R_PASSED] < 0):
        card = pimc_card_inferred(seat, core.slot_cards(hand, trump), trump, rec, np.int64(n), params, wt, rules,
                                  dstate, dbuf, ws)
    elif (pim >> seat) & 1 == 1:
        card = pimc.choose_slots(hand, seat, pimc_facts(rec, seat, rules[E_DISCARD_UP] == 1), trump, DECK, rec,
                                 R_PLAYS, np.int64(n), np.int64(params[seat, Q_PIMC]), params[seat, Q_PIMC_SEES] >= 0.5,
                                 v0, v1, v2, v3, dstate, dbuf, ws)
    else:
        card = random_card(core.slot_cards(legal, trump), dstate, dbuf)
    return SLOT_RANK[trump, card]


@kernel(inline="always")
def next_leaders(params, maker, next_suit):
    """A bit per defender that leads "next" (``next_suit``) on the first lead when it can: ``lead_next`` on and
    ``next_suit`` >= 0 (a round-two hand whose up-card's colour partner is not trump)."""
    nxt = 0
    if next_suit >= 0:
        for s in range(N_SEATS):
            if (s & 1) != (maker & 1) and params[s, Q_LEAD_NEXT] >= 0.5:
                nxt |= 1 << s
    return nxt


@kernel(_nrt=False)
def play_tricks(hands, trump, leader, maker, out, next_suit, params, dstate, dbuf, rec, tricks, ws, wt, rules, search):
    """Play five tricks among the active seats (``out``: bit per seat sitting out); plays into ``rec``, tricks by seat.

    The shared core (``kernels.trick.play_tricks``): the heuristic seats lead and follow as SPEC.md says
    (``next_suit``: the suit of a defender's "next" first lead, else -1); a random seat, and a seat with
    ``pimc_worlds`` >= 1, plays by ``pick_card`` (``ws``: the PIMC workspace, any int64 array when no seat
    searches; with ``search`` None, compiled without the search, ``trick.pick_random``). Compiled once, without
    reference counting (``_nrt=False``).
    """
    rnd = 0  # bit per seat playing at random or by PIMC
    pim = 0  # bit per seat playing by PIMC
    for s in range(N_SEATS):
        if params[s, Q_PIMC] >= 1.0:
            rnd |= 1 << s
            pim |= 1 << s
        if is_random(params, s):
            rnd |= 1 << s
    nxt = next_leaders(params, maker, next_suit)
    v0 = slot_ranks(hands[0], trump)
    v1 = slot_ranks(hands[1], trump)
    v2 = slot_ranks(hands[2], trump)
    v3 = slot_ranks(hands[3], trump)
    lead_min = params[maker, Q_LEAD_TRUMP]
    if search is None:  # compiled without the search (``search_arg``): no seat searches
        t, n = core.play_tricks(v0, v1, v2, v3, N_SEATS, N_TRICKS, core.PARTNERS, out, SLOT_DECK[trump], trump,
                                leader, maker, maker ^ 2, lead_min, nxt, next_suit, rnd, core.pick_random,
                                (dstate, dbuf), rec, R_PLAYS, True)
    else:
        t, n = core.play_tricks(v0, v1, v2, v3, N_SEATS, N_TRICKS, core.PARTNERS, out, SLOT_DECK[trump], trump,
                                leader, maker, maker ^ 2, lead_min, nxt, next_suit, rnd, pick_card,
                                (params, dstate, dbuf, rec, ws, wt, rules, pim), rec, R_PLAYS, True)
    tricks[0], tricks[1], tricks[2], tricks[3] = t & 255, (t >> 8) & 255, (t >> 16) & 255, t >> 24
    rec[R_NPLAYS] = n


@kernel(inline="always")
def plays_plainly(params):
    """Whether every seat plays the heuristic cards (no random or PIMC seat): ``play_plain`` then plays the hand."""
    for s in range(N_SEATS):
        if params[s, Q_PIMC] >= 1.0 or is_random(params, s):
            return False
    return True


@kernel(_nrt=False)
def play_plain(h0, h1, h2, h3, trump, leader, maker, out, next_suit, params, rec, tricks):
    """``play_tricks`` for hands whose seats all play the heuristic cards (``plays_plainly``): the same plays into
    ``rec`` and tricks by seat into ``tricks``, by the shared core (``kernels.trick.play_tricks``: four seats in
    two partnerships, ``out`` the seats sitting out, a defender's "next" lead on the first trick)."""
    nxt = next_leaders(params, maker, next_suit)
    t, n = core.play_tricks(slot_ranks(h0, trump), slot_ranks(h1, trump), slot_ranks(h2, trump),
                            slot_ranks(h3, trump), N_SEATS, N_TRICKS, core.PARTNERS, out, SLOT_DECK[trump], trump,
                            leader, maker, maker ^ 2, params[maker, Q_LEAD_TRUMP], nxt, next_suit, 0, core.no_pick, (),
                            rec, R_PLAYS, True)
    tricks[0], tricks[1], tricks[2], tricks[3] = t & 255, (t >> 8) & 255, (t >> 16) & 255, t >> 24
    rec[R_NPLAYS] = n


@kernel(inline="always")
def _position(seat, dealer):
    """Position 1..4 of ``seat``."""
    return ((seat - dealer - 1) & 3) + 1


@kernel(_nrt=False)
def defends_alone(hands, trump, maker, dealer, params, wt, dstate, dbuf):
    """The defender who defends alone (rule ``allow_lone_defender``), else -1: the defenders are maker + 1 and
    maker + 3, the one of lower position asked first. Not inlined into ``contract``: the rule is off by default,
    and inlined it cost the hand kernel's compiling more than it saved a hand."""
    d = (maker + 1) & 3
    e = (maker + 3) & 3
    if _position(e, dealer) < _position(d, dealer):
        d, e = e, d
    for k in range(2):
        s = d if k == 0 else e
        if is_random(params, s):
            go = bounded(dstate, dbuf, 2) == 1
        else:
            go = alone_decision(hands[s], trump, wt, params, s, True)
        if go:
            return s
    return -1


@kernel(inline="always")
def first_leader(dealer, maker, maker_alone, out, loner_lead):
    """The first leader: position 1 (the lone maker's left under ``loner_lead`` code 1), skipping seats out."""
    leader = (maker + 1) & 3 if maker_alone and loner_lead == 1 else (dealer + 1) & 3
    while (out >> leader) & 1:
        leader = (leader + 1) & 3
    return leader


@kernel(inline="always")
def canadian_loner(rules, maker, dealer, r1):
    """Rule ``canadian`` (EGN's Canadian loner): the dealer's partner who orders the up-card up in round one
    (``r1``) plays alone, forced (no decision, nothing drawn)."""
    return rules[E_CANADIAN] == 1 and r1 and maker == (dealer ^ 2)


@kernel(inline="always")
def best_card(hand, trump):
    """The card a lone maker's partner passes it under rule ``partners_best``: of ``hand``, the card of most value
    (``kernels.tables.VALUE``: its highest trump by trump rank, else its highest card by rank, an ace first);
    ties (equal ranks in different suits) to the lowest card index."""
    best = -1
    m = hand
    while m != 0:
        c = lowest(m)
        m &= m - 1
        if best < 0 or VALUE[trump, c] > VALUE[trump, best]:
            best = c
    return best


@kernel(inline="always")
def exchange_best(hands, trump, maker, params, wt, dstate, dbuf):
    """Rule ``partners_best`` (EGN's call for best), once the maker goes alone: its partner passes it one card
    (``best_card``; a random partner the k-th lowest of its five, k = ``bounded(5)``), then the maker discards one
    of its six (``best_discard`` over all six, the passed card too; a random maker k = ``bounded(6)``). ``hands``
    (by seat) get the exchange; returns (card passed, the maker's discard)."""
    partner = maker ^ 2
    ph = hands[partner]
    if is_random(params, partner):
        c = nth_card(ph, bounded(dstate, dbuf, HAND_SIZE))
    else:
        c = best_card(ph, trump)
    hands[partner] = ph & ~(np.int64(1) << c)
    six = hands[maker] | (np.int64(1) << c)
    if is_random(params, maker):
        d = nth_card(six, bounded(dstate, dbuf, HAND_SIZE + 1))
    else:
        d, _ = best_discard(six, -1, trump, wt, maker, params[maker, Q_VOID])
    hands[maker] = six & ~(np.int64(1) << d)
    return c, d


@kernel(inline="always")
def contract(hands, trump, maker, dealer, rules, params, wt, f_seat, f_alone, dstate, dbuf, r1):
    """After the auction: whether the maker goes alone (forced when it is ``f_seat`` and ``f_alone`` >= 0, or by
    ``canadian_loner``; ``r1``: trump made in round one), which defender defends alone (-1: none), the seats
    sitting out (bits) and the first leader. Under rule ``partners_best`` a lone maker's exchange
    (``exchange_best``) follows the defenders' decisions, into ``hands``."""
    if canadian_loner(rules, maker, dealer, r1):
        maker_alone = True
    elif maker == f_seat and f_alone >= 0:
        maker_alone = f_alone == 1
    elif is_random(params, maker):
        maker_alone = bounded(dstate, dbuf, 2) == 1
    else:
        maker_alone = alone_decision(hands[maker], trump, wt, params, maker, False)
    lone_def = -1
    if rules[E_LONE_DEFENDER] == 1:
        lone_def = defends_alone(hands, trump, maker, dealer, params, wt, dstate, dbuf)
    if maker_alone and rules[E_PARTNERS_BEST] == 1:
        exchange_best(hands, trump, maker, params, wt, dstate, dbuf)
    out = 0
    if maker_alone:
        out |= 1 << (maker ^ 2)
    if lone_def >= 0:
        out |= 1 << (lone_def ^ 2)
    return maker_alone, lone_def, out, first_leader(dealer, maker, maker_alone, out, rules[E_LONER_LEAD])


@kernel(inline="always")
def uses_pimc_bid(params):
    """Whether a seat searches its calls by PIMC (``pimc_bid`` on, ``pimc_worlds`` >= 1, not random)."""
    for s in range(N_SEATS):
        if params[s, Q_PIMC_BID] >= 0.5 and params[s, Q_PIMC] >= 1.0 and not is_random(params, s):
            return True
    return False


@kernel
def _call_values(me, k, up, own, cand, n_cand, dealer, rules, params, wt, dstate, dbuf, ws, vals):
    """The searched calls' values: ``vals[i]``, the summed net points of ``me``'s side (its points less the
    other side's) over its worlds when it makes candidate ``i`` = (call code, alone: -1 the strategy's, 0, 1)
    at turn ``k`` (after ``k`` passes).

    In each world the ``k`` passes are given, the seats' strategies finish
    the auction (the dealer's discard included), decide going alone and
    defending alone (``contract``; the same decision-stream state for every
    candidate of a world), and the contract is solved double dummy (maker's
    side against the defenders, ``pimc.solve_deal_points``: only whether it was made, lost or marched) and scored by
    ``score_hand``; a hand thrown in scores 0. The worlds deal the cards
    ``me`` has not seen (not ``own``, not the up-card) to the other three
    seats and the kitty's other three cards, uniformly; with
    ``pimc_sees_all`` the one world is the true deal (``ws``'s scratch).
    With ``pimc_infer`` each world's values count with its weight,
    ``model.world_weight`` of the ``k`` passes (a world of weight 0 is not
    solved). Returns the summed weights.
    """
    n_worlds = np.int64(params[me, Q_PIMC])
    sees_all = params[me, Q_PIMC_SEES] >= 0.5
    infer = params[me, Q_PIMC_INFER] >= 0.5 and not sees_all
    tau = params[me, Q_PIMC_TAU]
    eps = params[me, Q_PIMC_EPS]
    passes = np.zeros(2 * MAX_CALLS, np.int64)
    for i in range(k):
        passes[2 * i] = (dealer + 1 + i) & 3
    fs = np.zeros(8)
    total = 0.0
    for i in range(n_cand):
        vals[i] = 0.0
    n_unseen, restricted, full = 0, False, 0
    if sees_all:
        n_worlds = 1
    else:
        n_unseen, restricted, full = pimc.plan_fresh(own, me, np.int64(15), DECK, np.int64(1) << up, ws)
    hands = np.zeros(N_SEATS, np.int64)
    world = np.zeros(N_SEATS, np.int64)
    rec = np.zeros(R_WIDTH, np.int64)
    ds = np.empty(4, np.uint64)
    db = np.zeros(2, np.int64)
    side = me & 1
    for _ in range(n_worlds):
        if sees_all:
            for s in range(N_SEATS):
                world[s] = ws[pimc.OFF_ISCRATCH + s]
        else:
            pimc.draw(own, me, np.int64(15), n_unseen, full, restricted, dstate, dbuf, ws)
            world[0], world[1], world[2], world[3], _, _, _, _, _ = pimc.world_hands(ws)
        w = 1.0
        if infer:
            w = world_weight(world, np.int64(0), up, dealer, passes, np.int64(0), k, False, me, rules[E_STICK],
                             rules[E_DISCARD_UP] == 1, wt, params, tau, eps, fs[:4], fs[4:])
            if not w > 0.0:
                continue
        total += w
        for i in range(n_cand):
            for s in range(N_SEATS):
                hands[s] = world[s]
            copy_into(ds, dstate)
            copy_into(db, dbuf)
            force = (me, k, cand[i, 0], cand[i, 1], k)
            maker, trump = auction(hands, up, dealer, rules, params, wt, force, ds, db, rec)
            if maker < 0:
                continue
            maker_alone, lone_def, out, leader = contract(hands, trump, maker, dealer, rules, params, wt, me,
                                                          cand[i, 1], ds, db, trump == up // 6)
            active = np.int64(15) & ~np.int64(out)
            msides = ((np.int64(1) << maker) | (np.int64(1) << (maker ^ 2))) & active
            mt = pimc.solve_deal_points(hands[0], hands[1], hands[2], hands[3], active, trump, leader, msides,
                                        MAKER_NEEDS, ws)
            mk, df = score_hand(mt, maker_alone, lone_def >= 0, rules, False)
            vals[i] += w * ((mk - df) if (maker & 1) == side else (df - mk))
    return total


@kernel
def pimc_auction_force(dealt_by_seat, up, dealer, rules, params, wt, dstate, dbuf, ws):
    """The auction's decisions with the searching seats' calls made by PIMC, as one force (``F_*`` tuple).

    Turn by turn (every call before the deciding one is a pass): a seat
    that does not search makes its strategy's call (``auction`` with the
    passes so far given); a searching seat (``uses_pimc_bid``) scores its
    candidates (round one: pass, order, order alone; round two: pass unless
    stuck, each suit but the up-card's, with or without going alone) with
    ``_call_values`` and makes the best (ties: the strategy's call, with
    its own going alone). The first call that is not a pass ends the
    search: the force makes that call at that turn after the passes (with
    the searching seat's going alone); if all pass, the force gives 8
    passes. The rest (discard, alone of others, play) is ``play_dealt``'s
    (a searching dealer's discard by ``pimc_discard``, a searching
    defender's defending alone by ``contract_searched``).
    """
    hands = np.zeros(N_SEATS, np.int64)
    rec = np.zeros(R_WIDTH, np.int64)
    ds = np.empty(4, np.uint64)
    db = np.zeros(2, np.int64)
    cand = np.zeros((9, 2), np.int64)
    vals = np.zeros(9)
    u = up // 6
    for k in range(2 * N_SEATS):
        seat = (dealer + 1 + k) & 3
        for s in range(N_SEATS):
            hands[s] = dealt_by_seat[s]
        copy_into(ds, dstate)
        copy_into(db, dbuf)
        auction(hands, up, dealer, rules, params, wt, (np.int64(-1), np.int64(-1), np.int64(-1), np.int64(-1),
                                                       np.int64(k)), ds, db, rec)
        if rec[R_NCALLS] <= k:
            break
        call = rec[R_CALLS + 2 * k + 1]
        if params[seat, Q_PIMC_BID] >= 0.5 and params[seat, Q_PIMC] >= 1.0 and not is_random(params, seat):
            n = 0
            stuck = k == 2 * N_SEATS - 1 and rules[E_STICK] == 1
            if not stuck:
                cand[0, 0], cand[0, 1] = CALL_PASS, -1
                n = 1
            if k < N_SEATS:
                cand[n, 0], cand[n, 1] = CALL_ORDER, 0
                cand[n + 1, 0], cand[n + 1, 1] = CALL_ORDER, 1
                n += 2
            else:
                for t in range(4):
                    if t != u:
                        cand[n, 0], cand[n, 1] = CALL_SUIT + t, 0
                        cand[n + 1, 0], cand[n + 1, 1] = CALL_SUIT + t, 1
                        n += 2
            if params[seat, Q_PIMC_SEES] >= 0.5:
                for s in range(N_SEATS):
                    ws[pimc.OFF_ISCRATCH + s] = dealt_by_seat[s]
            _call_values(seat, np.int64(k), up, dealt_by_seat[seat], cand, np.int64(n), dealer, rules, params, wt,
                         dstate, dbuf, ws, vals)
            # the tie rule: the strategy's call, going alone as the strategy would (the first alone flag listed)
            best = -1
            for i in range(n):
                if cand[i, 0] == call and best < 0:
                    best = i
            for i in range(n):
                if vals[i] > vals[best]:
                    best = i
            if cand[best, 0] != CALL_PASS:
                return seat, np.int64(k), cand[best, 0], cand[best, 1], np.int64(k)
        elif call != CALL_PASS:
            return seat, np.int64(k), call, np.int64(-1), np.int64(k)
    return np.int64(-1), np.int64(-1), np.int64(-1), np.int64(-1), np.int64(2 * N_SEATS)


@kernel(inline="always")
def searches(params, seat):
    """Whether ``seat`` searches its auction decisions by PIMC (``pimc_bid``, ``pimc_worlds`` >= 1, not random)."""
    return params[seat, Q_PIMC_BID] >= 0.5 and params[seat, Q_PIMC] >= 1.0 and not is_random(params, seat)


@kernel(inline="always")
def _solver_mask(mask, trump):
    """``mask`` (card space) in the solver's space under ``trump`` (suit blocks of 8 bits, rank order)."""
    out = np.int64(0)
    m = mask
    while m != 0:
        c = lowest(m)
        m &= m - 1
        out |= np.int64(1) << TO_SOLVER[trump, c]
    return out


@kernel(inline="always")
def _same_class(a, b, others, trump):
    """Whether keeping card ``b`` or card ``a`` is the same to the solver: one effective suit, and no card of
    ``others`` (solver space: the other hands) between them."""
    x = TO_SOLVER[trump, a]
    y = TO_SOLVER[trump, b]
    if x >> 3 != y >> 3:
        return False
    lo = min(x, y)
    hi = max(x, y)
    between = ((np.int64(1) << hi) - 1) & ~((np.int64(1) << (lo + 1)) - 1)
    return others & between == 0


@kernel
def _discard_values(me, dealt, up, maker, f_seat, f_alone, dealer, rules, params, wt, rec, cand, n_cand, dstate, dbuf,
                    ws, vals):
    """The dealer's searched discard: ``vals[i]``, the summed net points of ``me``'s side (the dealer's) over its
    worlds when it discards ``cand[i]`` (a card of ``dealt``, its hand as dealt) after the order in ``rec``.

    In each world (the cards ``me`` has not seen, not ``dealt``, not the
    up-card, dealt to the other seats and the kitty's three face-down
    cards, uniformly; with ``pimc_sees_all`` the true deal, ``ws``'s
    scratch) the dealer holds ``dealt`` less the candidate plus the
    up-card, the maker goes alone as ``contract`` decides (forced when it
    is ``f_seat``: ``f_alone``), the defenders' strategies decide defending
    alone (the same decision-stream state for every candidate of a world),
    and the contract is solved double dummy and scored. A candidate whose
    kept hand is the same to the solver as an earlier one's, under the same
    contract, takes its value without a solve. With ``pimc_infer`` each
    world counts with ``model.world_weight`` of the calls (a world of
    weight 0 is not solved). Returns the summed weights.
    """
    u = up // 6
    up_bit = np.int64(1) << up
    n_worlds = np.int64(params[me, Q_PIMC])
    sees_all = params[me, Q_PIMC_SEES] >= 0.5
    infer = params[me, Q_PIMC_INFER] >= 0.5 and not sees_all
    tau = params[me, Q_PIMC_TAU]
    eps = params[me, Q_PIMC_EPS]
    for i in range(n_cand):
        vals[i] = 0.0
    n_unseen, restricted, full = 0, False, 0
    if sees_all:
        n_worlds = 1
    else:
        n_unseen, restricted, full = pimc.plan_fresh(dealt, me, np.int64(15), DECK, up_bit, ws)
    hands = np.zeros(N_SEATS, np.int64)
    world = np.zeros(N_SEATS, np.int64)
    ds = np.empty(4, np.uint64)
    db = np.zeros(2, np.int64)
    fs = np.zeros(8)
    got = np.zeros(HAND_SIZE + 1)  # this world's value of each candidate
    key = np.zeros(HAND_SIZE + 1, np.int64)  # its contract: (maker alone, lone defender + 1)
    side = me & 1
    total = 0.0
    for _ in range(n_worlds):
        if sees_all:
            for s in range(N_SEATS):
                world[s] = ws[pimc.OFF_ISCRATCH + s]
        else:
            pimc.draw(dealt, me, np.int64(15), n_unseen, full, restricted, dstate, dbuf, ws)
            world[0], world[1], world[2], world[3], _, _, _, _, _ = pimc.world_hands(ws)
        w = 1.0
        if infer:
            w = world_weight(world, np.int64(0), up, dealer, rec, np.int64(R_CALLS), rec[R_NCALLS], False, me,
                             rules[E_STICK], rules[E_DISCARD_UP] == 1, wt, params, tau, eps, fs[:4], fs[4:])
            if not w > 0.0:
                continue
        total += w
        others = np.int64(0)
        for s in range(N_SEATS):
            if s != me:
                others |= _solver_mask(world[s], u)
        for i in range(n_cand):
            for s in range(N_SEATS):
                hands[s] = world[s]
            hands[me] = (dealt | up_bit) & ~(np.int64(1) << cand[i])
            copy_into(ds, dstate)
            copy_into(db, dbuf)
            maker_alone, lone_def, out, leader = contract(hands, u, maker, dealer, rules, params, wt, f_seat, f_alone,
                                                          ds, db, True)
            key[i] = (2 if maker_alone else 0) + 4 * (lone_def + 1)
            v = np.nan
            for j in range(i):
                if key[j] == key[i] and _same_class(cand[j], cand[i], others, u):
                    v = got[j]
                    break
            if np.isnan(v):
                active = np.int64(15) & ~np.int64(out)
                msides = ((np.int64(1) << maker) | (np.int64(1) << (maker ^ 2))) & active
                mt = pimc.solve_deal_points(hands[0], hands[1], hands[2], hands[3], active, u, leader, msides,
                                            MAKER_NEEDS, ws)
                mk, df = score_hand(mt, maker_alone, lone_def >= 0, rules, False)
                v = float((mk - df) if (maker & 1) == side else (df - mk))
            got[i] = v
            vals[i] += w * v
    return total


@kernel
def pimc_discard(maker, f_seat, f_alone, dealer, rules, params, wt, rec, dstate, dbuf, ws):
    """The searching dealer's discard after the order in ``rec`` (its strategy's discard in ``rec[R_DISCARD]``).

    The candidates are the five cards it was dealt (and the up-card itself
    under rule ``discard_up``), scored by ``_discard_values``; the best is
    kept (ties: the strategy's discard). When every candidate is the same to
    the dealer (one effective suit, no unseen card between them) nothing is
    searched.
    """
    up = rec[R_KITTY]
    dealt = held_dealt(rec, dealer)
    mine = rec[R_DISCARD]
    pool = dealt
    if rules[E_DISCARD_UP] == 1:
        pool = dealt | (np.int64(1) << up)
    unseen = DECK & ~dealt & ~(np.int64(1) << up)
    if rec[R_EXCHANGE] == dealer:
        unseen &= ~rec[R_GIVEN]  # the cards it gave the kitty (rules farmers / go_under)
    if pimc._one_class(pool, pool | unseen, up // 6):
        return mine
    cand = np.zeros(HAND_SIZE + 1, np.int64)
    vals = np.zeros(HAND_SIZE + 1)
    n = 0
    best = 0
    m = pool
    while m != 0:
        c = lowest(m)
        m &= m - 1
        best = n if c == mine else best
        cand[n] = c
        n += 1
    if params[dealer, Q_PIMC_SEES] >= 0.5:
        for s in range(N_SEATS):
            ws[pimc.OFF_ISCRATCH + s] = held_dealt(rec, s)
    _discard_values(dealer, dealt, up, maker, f_seat, f_alone, dealer, rules, params, wt, rec, cand, np.int64(n),
                    dstate, dbuf, ws, vals)
    for i in range(n):
        if vals[i] > vals[best]:
            best = i
    return cand[best]


@kernel
def _defend_values(me, second, hands, trump, maker, maker_alone, dealer, rules, params, wt, rec, dstate, dbuf, ws):
    """A searching defender's choice to defend alone: (summed net points of its side over its worlds when it does
    not, when it does), and the summed weights.

    Its worlds deal the cards it has not seen (not its hand; a turned-down
    up-card, or its own discard when it is the dealer) to the other three
    seats and the pile, the up-card with the dealer after an exchange
    (``infer_facts``), uniformly; with ``pimc_sees_all`` the one world is
    the true ``hands``. When it does not, the other defender still to be
    asked (``second``, -1: none) decides by its strategy (the same
    decision-stream state for both candidates of a world); then the
    contract (``maker_alone`` as decided) is solved double dummy and
    scored. With ``pimc_infer`` each world counts with
    ``model.world_weight`` of the calls (and the dealer's discard).
    """
    n_worlds = np.int64(params[me, Q_PIMC])
    sees_all = params[me, Q_PIMC_SEES] >= 0.5
    infer = params[me, Q_PIMC_INFER] >= 0.5 and not sees_all
    tau = params[me, Q_PIMC_TAU]
    eps = params[me, Q_PIMC_EPS]
    own = hands[me]
    n_unseen, restricted, full = 0, False, 0
    if sees_all:
        n_worlds = 1
    else:
        known, pin, allow = infer_facts(rec, me, rules[E_DISCARD_UP] == 1)
        pimc.history(ws, 0, 0, trump, np.int64(15), ws)
        n_unseen, restricted, full, ok, _ = pimc._plan(own, me, np.int64(15), trump, DECK, known, pin, allow,
                                                       np.int64(0), ws)
        if not ok:  # cannot happen in positions the rules reach
            return 0.0, 0.0, 0.0
    world = np.zeros(N_SEATS, np.int64)
    held = np.zeros(N_SEATS, np.int64)
    ds = np.empty(4, np.uint64)
    db = np.zeros(2, np.int64)
    fs = np.zeros(8)
    exchanged = rec[R_DISCARD] >= 0
    v0 = 0.0
    v1 = 0.0
    total = 0.0
    for _ in range(n_worlds):
        pile = np.int64(0)
        if sees_all:
            for s in range(N_SEATS):
                world[s] = hands[s]
        else:
            pimc.draw(own, me, np.int64(15), n_unseen, full, restricted, dstate, dbuf, ws)
            world[0], world[1], world[2], world[3], pile, _, _, _, _ = pimc.world_hands(ws)
        w = 1.0
        if infer:
            w = world_weight(world, pile, rec[R_KITTY], dealer, rec, np.int64(R_CALLS), rec[R_NCALLS], exchanged, me,
                             rules[E_STICK], rules[E_DISCARD_UP] == 1, wt, params, tau, eps, fs[:4], fs[4:])
            if not w > 0.0:
                continue
        total += w
        for c in range(2):
            copy_into(ds, dstate)
            copy_into(db, dbuf)
            lone = me if c == 1 else -1
            if c == 0 and second >= 0:
                if is_random(params, second):
                    go = bounded(ds, db, 2) == 1
                else:
                    go = alone_decision(world[second], trump, wt, params, second, True)
                if go:
                    lone = second
            for s in range(N_SEATS):
                held[s] = world[s]
            if maker_alone and rules[E_PARTNERS_BEST] == 1:  # the lone maker's exchange in this world
                exchange_best(held, trump, maker, params, wt, ds, db)
            out = np.int64(0)
            if maker_alone:
                out |= np.int64(1) << (maker ^ 2)
            if lone >= 0:
                out |= np.int64(1) << (lone ^ 2)
            leader = first_leader(dealer, maker, maker_alone, out, rules[E_LONER_LEAD])
            active = np.int64(15) & ~out
            msides = ((np.int64(1) << maker) | (np.int64(1) << (maker ^ 2))) & active
            mt = pimc.solve_deal_points(held[0], held[1], held[2], held[3], active, trump, leader, msides,
                                        MAKER_NEEDS, ws)
            mk, df = score_hand(mt, maker_alone, lone >= 0, rules, False)
            if c == 0:
                v0 += w * (df - mk)
            else:
                v1 += w * (df - mk)
    return v0, v1, total


@kernel
def contract_searched(hands, trump, maker, dealer, rules, params, wt, f_seat, f_alone, rec, dstate, dbuf, ws, r1):
    """``contract`` with a searching defender's choice to defend alone made by PIMC (``_defend_values``: the
    higher value; ties: its strategy's choice). The maker's going alone is ``contract``'s (a searching
    maker's was searched with its call), and so is a lone maker's exchange (rule ``partners_best``)."""
    if canadian_loner(rules, maker, dealer, r1):
        maker_alone = True
    elif maker == f_seat and f_alone >= 0:
        maker_alone = f_alone == 1
    elif is_random(params, maker):
        maker_alone = bounded(dstate, dbuf, 2) == 1
    else:
        maker_alone = alone_decision(hands[maker], trump, wt, params, maker, False)
    lone_def = -1
    if rules[E_LONE_DEFENDER] == 1:
        d = (maker + 1) & 3
        e = (maker + 3) & 3
        if _position(e, dealer) < _position(d, dealer):
            d, e = e, d
        for k in range(2):
            s = d if k == 0 else e
            if is_random(params, s):
                go = bounded(dstate, dbuf, 2) == 1
            else:
                go = alone_decision(hands[s], trump, wt, params, s, True)
                if searches(params, s):
                    v0, v1, _ = _defend_values(s, e if k == 0 else np.int64(-1), hands, trump, maker, maker_alone,
                                               dealer, rules, params, wt, rec, dstate, dbuf, ws)
                    if v1 > v0:
                        go = True
                    elif v0 > v1:
                        go = False
            if go:
                lone_def = s
                break
    if maker_alone and rules[E_PARTNERS_BEST] == 1:
        exchange_best(hands, trump, maker, params, wt, dstate, dbuf)
    out = 0
    if maker_alone:
        out |= 1 << (maker ^ 2)
    if lone_def >= 0:
        out |= 1 << (lone_def ^ 2)
    return maker_alone, lone_def, out, first_leader(dealer, maker, maker_alone, out, rules[E_LONER_LEAD])


@kernel(inline="always")
def play_dealt_inline(dealt, kitty, dealer, rules, params, wt, force, dstate, dbuf, hands, tricks, rec, search,
                      general, eq=None):
    """Auction, discard, alone, play and score a hand already dealt; everything into ``rec``.

    ``dealt``: masks by position 1..4; ``kitty``: its 4 cards in deal order,
    the first turned up; ``force`` as in ``auction`` (``NO_FORCE`` for none;
    its ``F_ALONE`` decides the forced seat's going alone if it makes trump).
    ``hands``, ``tricks``: int64[4] scratch (by seat). With a searching seat
    (``uses_pimc_bid``) and no force, the calls are searched
    (``pimc_auction_force``), then a searching dealer's discard
    (``pimc_discard``) and a searching defender's defending alone
    (``contract_searched``). Inlined into the hot loops (``play_hand``);
    ``play_dealt`` is the same compiled once. ``search`` None leaves all the
    search code out of the compiled code (Numba prunes the branches on
    ``search is None``; no seat may then search: ``search_arg``); an array
    compiles it in. ``general`` None: every seat plays the heuristic cards
    (``plays_plainly``), and only ``play_plain`` is compiled in; an array:
    ``play_tricks`` plays a hand with a random or searching seat. ``eq``: the game-equity bidder's tables with
    the game's scores (``auction``), None (left out) compiling none of it; a seat that made trump by them goes
    alone as they chose.
    """
    rec[R_DEALER] = dealer
    for p in range(N_SEATS):
        seat = (dealer + 1 + p) & 3
        hands[seat] = dealt[p]
        rec[R_DEAL + seat] = dealt[p]
    for i in range(4):
        rec[R_KITTY + i] = kitty[i]
    if rules[E_FARMERS] == 1 or rules[E_GO_UNDER] == 1:
        kitty_exchange(hands, kitty, dealer, rules, params, dstate, dbuf, rec)
    else:
        rec[R_EXCHANGE] = -1
        rec[R_GIVEN] = 0
    up = kitty[0]
    ws = rec
    if search is not None and uses_pimc(params):
        ws = pimc.new_workspace()  # one PIMC workspace for the hand
    bid_search = False
    if search is not None:
        bid_search = uses_pimc_bid(params) and force[F_SEAT] < 0 and force[F_PASSES] == 0
    if search is not None and bid_search:
        searched = pimc_auction_force(hands, up, dealer, rules, params, wt, dstate, dbuf, ws)
        maker, trump = auction(hands, up, dealer, rules, params, wt, searched, dstate, dbuf, rec, eq)
        f_seat, f_alone = searched[F_SEAT], searched[F_ALONE]
        if maker >= 0 and rec[R_DISCARD] >= 0 and searches(params, dealer):
            mine = rec[R_DISCARD]
            d = pimc_discard(maker, f_seat, f_alone, dealer, rules, params, wt, rec, dstate, dbuf, ws)
            hands[dealer] = (hands[dealer] | (np.int64(1) << mine) | (np.int64(1) << up)) & ~(np.int64(1) << d)
            rec[R_DISCARD] = d
    else:
        maker, trump = auction(hands, up, dealer, rules, params, wt, force_of(force), dstate, dbuf, rec, eq)
        f_seat, f_alone = force[F_SEAT], force[F_ALONE]
    if eq is not None:  # pruned when compiled for eq None
        if maker >= 0 and maker == eq[3][0]:  # the equity bidder made trump: alone as its tables chose
            f_seat, f_alone = maker, eq[3][1]
    rec[R_MAKER] = maker
    rec[R_TRUMP] = trump
    rec[R_ALONE] = 0
    rec[R_PASSED] = -1
    rec[R_LONER_DISCARD] = -1
    if maker < 0:
        rec[R_NPLAYS] = 0
        for s in range(N_SEATS):
            rec[R_TRICKS + s] = 0
        rec[R_POINTS] = 0
        rec[R_POINTS + 1] = 0
        return
    held_m = hands[maker]
    held_p = hands[maker ^ 2]
    if search is not None and bid_search:
        maker_alone, lone_def, out, leader = contract_searched(hands, trump, maker, dealer, rules, params, wt, f_seat,
                                                               f_alone, rec, dstate, dbuf, ws, trump == up // 6)
    else:
        maker_alone, lone_def, out, leader = contract(hands, trump, maker, dealer, rules, params, wt, f_seat,
                                                      f_alone, dstate, dbuf, trump == up // 6)
    if maker_alone:
        rec[R_ALONE] |= 1 << maker
    if lone_def >= 0:
        rec[R_ALONE] |= 1 << lone_def
    if maker_alone and rules[E_PARTNERS_BEST] == 1:  # the exchange ``contract`` made
        passed = held_p & ~hands[maker ^ 2]
        rec[R_PASSED] = lowest(passed)
        rec[R_LONER_DISCARD] = lowest((held_m | passed) & ~hands[maker])
    u = up // 6
    round_two = trump != u
    next_suit = u ^ 1 if round_two and (u ^ 1) != trump else -1
    if general is None:  # the caller's promise: ``plays_plainly`` (``drivers.plain_chunks``)
        play_plain(hands[0], hands[1], hands[2], hands[3], trump, leader, maker, out, next_suit, params, rec, tricks)
    elif plays_plainly(params):
        play_plain(hands[0], hands[1], hands[2], hands[3], trump, leader, maker, out, next_suit, params, rec, tricks)
    else:
        play_tricks(hands, trump, leader, maker, out, next_suit, params, dstate, dbuf, rec, tricks, ws, wt, rules,
                    search)
    side = maker & 1
    makers, defenders = score_hand(tricks[side] + tricks[side + 2], maker_alone, lone_def >= 0, rules,
                                   fast_broken(rec, maker, out))
    for s in range(N_SEATS):
        rec[R_TRICKS + s] = tricks[s]
    rec[R_POINTS + side] = makers
    rec[R_POINTS + 1 - side] = defenders


@kernel
def play_dealt(dealt, kitty, dealer, rules, params, wt, force, dstate, dbuf, hands, tricks, rec, search, eq=None):
    """``play_dealt_inline`` compiled once, not inlined, for the callers off the hand drivers' loops: the games
    (``play_hand_once``), one hand from an order, should-bid. Each passes
    the same argument types (a writable ``force``), so it compiles once per ``search`` kind. (With reference
    counting: a PIMC seat's workspace is made per hand.) ``search`` None compiles no search code
    (``search_arg``); any seat may play at random. ``eq``: the game-equity tables (``play_dealt_inline``), None
    (left out) for none."""
    play_dealt_inline(dealt, kitty, dealer, rules, params, wt, force, dstate, dbuf, hands, tricks, rec, search, rec,
                      eq)


@kernel(inline="always")
def deal_hand(state, buf, deck, dealt, kitty):
    """SPEC.md's deal (``deal.deal_masks``: 24 cards, four hands of 5 one card at a time to positions 1..4, the 4
    left over the kitty): the masks into ``dealt``, the kitty's cards in deal order into ``kitty`` (the first the
    up-card). The same deal as ``deal_packets(state, buf, deck, 24, 4, 5, dealt)`` with the kitty ``deck[20:24]``.
    Inlined (``play_hand``, ``play_hand_once``: measured faster so on the hot path)."""
    dealt[0], dealt[1], dealt[2], dealt[3], _rest = deal_masks(state, buf, deck, N_CARDS, N_SEATS, HAND_SIZE, 1)
    kitty[0], kitty[1], kitty[2], kitty[3] = deck[20], deck[21], deck[22], deck[23]


@kernel(inline="always")
def play_hand(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, dealer, rules, params, wt, rec, search,
              general):
    """Deal (SPEC.md: Fisher-Yates, one card at a time to positions 1..4; the last 4 the kitty) and play one hand
    (``search`` and ``general`` as in ``play_dealt_inline``): the whole hand inlined into the caller
    (``drivers.simulate_chunks``, ``drivers.plain_chunks``)."""
    deal_hand(state, buf, deck, dealt, kitty)
    play_dealt_inline(dealt, kitty, dealer, rules, params, wt, NO_FORCE, dstate, dbuf, hands, tricks, rec, search,
                      general)


@kernel(inline="always")
def play_hand_once(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, dealer, rules, params, wt, force, rec,
                   search, eq=None):
    """Deal as ``play_hand`` and play the hand by a call of ``play_dealt`` (``force``, ``search`` as it takes
    them), not inlined: the games (``drivers.play_game``) share the one compile of the hand with one hand from an
    order and should-bid. The callers pass a writable copy of ``NO_FORCE`` (a global array is read-only to Numba,
    another type: a second compile of ``play_dealt``). ``eq``: the game-equity tables (``play_dealt``)."""
    deal_hand(state, buf, deck, dealt, kitty)
    play_dealt(dealt, kitty, dealer, rules, params, wt, force, dstate, dbuf, hands, tricks, rec, search, eq)


@kernel(inline="always")
def round_one(rec):
    """Whether a played hand's trump was made in round one (its last call is an order)."""
    return rec[R_CALLS + 2 * rec[R_NCALLS] - 1] == CALL_ORDER


@kernel(inline="always")
def tally(rec, acc):
    """Add one hand's record to the summary counters ``acc`` (``S_*``)."""
    dealer = rec[R_DEALER]
    acc[S_HANDS] += 1
    maker = rec[R_MAKER]
    if maker < 0:
        acc[S_THROWN] += 1
        return
    pos = (maker - dealer + 3) & 3  # position - 1
    side = maker & 1
    mt = rec[R_TRICKS + side] + rec[R_TRICKS + side + 2]
    made = mt >= MAKER_NEEDS
    alone = rec[R_ALONE]
    up_rank = rec[R_KITTY] % 6
    if round_one(rec):
        acc[S_MAKER_R1 + pos] += 1
        acc[S_UP_ORDER + up_rank] += 1
        if made:
            acc[S_MADE_R1 + pos] += 1
            acc[S_UP_MADE + up_rank] += 1
    else:
        acc[S_MAKER_R2 + pos] += 1
        if made:
            acc[S_MADE_R2 + pos] += 1
    if mt == N_TRICKS:
        acc[S_MARCH] += 1
    if not made:
        acc[S_EUCHRE] += 1
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
    dside = dealer & 1
    for k in range(2):
        pts = rec[R_POINTS + k]
        acc[S_POINTS + k] += pts
        acc[S_POINTS_SQ + k] += pts * pts
        d = rec[R_POINTS + (dside ^ k)]  # k = 0: the dealer's side
        acc[S_POINTS_DEALER + k] += d
        acc[S_POINTS_DEALER_SQ + k] += d * d
        m = rec[R_POINTS + (side ^ k)]  # k = 0: the makers' side
        acc[S_POINTS_MAKER + k] += m
        acc[S_POINTS_MAKER_SQ + k] += m * m
    for s in range(N_SEATS):
        acc[S_TRICKS + ((s - dealer + 3) & 3)] += rec[R_TRICKS + s]
