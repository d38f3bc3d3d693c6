"""Standard Euchre simulation drivers: independent hands, one hand from a given order, whole games and experiments.

Same contract as the other variants: each chunk owns its RNG states and
writes only its own output rows, so results never depend on the thread
count. Games are won by a side (0: seats 0 & 2, 1: seats 1 & 3), as
Hasenpfeffer's: the per-game row holds the winning side and the two side
scores, ``GA_WINS`` counts wins by side; only one side scores on a hand, so
no game goes past a tie. Per strategy (``ST_*``): ``ST_MAKER``/``ST_MADE``
cells count (made trump in round one, in round two, went alone as maker,
defended alone) and their makes (for a lone defender: the makers euchred);
``ST_BIDDER`` the hands in which the seat made a call other than pass,
``ST_SWAPS`` the dealer's taking up the up-card, ``ST_POINTS`` its side's points.

Rule ``four_trick_tokens`` (cell ``E_FOUR_TOKENS``) is the games' own: a
side that makes a hand with partner taking exactly 4 tricks earns a token;
at its fourth it turns them in at once for 1 point, added to its score
after the hand's (``GO_TOKEN_POINTS``, ``GA_TOKENS``, ``GA_TOKEN_POINTS``
count them; the hand records and ``ST_POINTS`` hold the hands' points only).
"""

import numpy as np

from bower.kernels.arrays import copy_into
from bower.kernels.deal import deal_packets
from bower.kernels.euchre.hand import (
    CALL_PASS,
    MAKER_NEEDS,
    N_CARDS,
    N_SEATS,
    NO_FORCE,
    R_ALONE,
    R_CALLS,
    R_DEALER,
    R_MAKER,
    R_NCALLS,
    R_POINTS,
    R_TRICKS,
    R_WIDTH,
    S_WIDTH,
    play_dealt,
    play_hand,
    play_hand_once,
    plays_plainly,
    round_one,
    tally,
)
from bower.kernels.euchre.codes import E_FOUR_TOKENS
from bower.kernels.euchre.strategy import card_weights
from bower.kernels.games import (
    GA_TOKEN_POINTS,
    GA_TOKENS,
    GO_TOKEN_POINTS,
    ST_BIDDER,
    ST_HANDS,
    ST_MADE,
    ST_MAKER,
    ST_POINTS,
    ST_POINTS_SQ,
    ST_SWAPS,
    record_game,
    seed_game,
)
from bower.kernels.jit import PARFOR_PASSES, chunk_kernel, kernel
from bower.kernels.rng import next_u64

FIRST_DEALER = 3  # seat 0 is position 1 in a game's first hand


@kernel(inline="always")
def _scratch():
    """Per-chunk scratch: buf, dbuf, deck, dealt (by position), kitty, hands and tricks (by seat), wt, record row."""
    return (
        np.zeros(2, np.int64), np.zeros(2, np.int64), np.empty(N_CARDS, np.int64), np.zeros(N_SEATS, np.int64),
        np.zeros(4, np.int64), np.zeros(N_SEATS, np.int64), np.zeros(N_SEATS, np.int64),
        np.zeros((N_SEATS, 4, N_CARDS), np.float64), np.zeros(R_WIDTH, np.int64),
    )


@kernel(parallel=PARFOR_PASSES)
def _simulate(lo, hi, states, dstates, first_hand, chunk_size, n_hands, rules, params, want_records, records, summary,
              search, general):
    """The chunk loop of ``simulate_chunks`` and ``plain_chunks`` (``general`` as ``hand.play_dealt_inline``
    takes it), compiled once for each, through the chunk kernels' pipeline (``jit.PARFOR_PASSES``). Inlined into
    them at Numba's IR level it cost 5 CPU s more of compiling. The hand stays inlined here for both (``general``
    an array too): a call of ``hand.play_dealt`` from this pipeline compiled 2.5 CPU s slower, not faster."""
    for ci in range(lo, hi):
        state = states[ci].copy()
        dstate = dstates[ci].copy()
        buf, dbuf, deck, dealt, kitty, hands, tricks, wt, scratch = _scratch()
        card_weights(params, wt)
        acc = np.zeros(S_WIDTH, np.int64)
        force = NO_FORCE.copy()
        for h in range(ci * chunk_size, min((ci + 1) * chunk_size, n_hands)):
            rec = records[h] if want_records else scratch
            if search is None:  # the hand inlined; a searching seat's hand is a call of the one compiled play_dealt
                play_hand(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, (first_hand + h) % 4, rules,
                          params, wt, rec, search, general)
            else:
                play_hand_once(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, (first_hand + h) % 4,
                               rules, params, wt, force, rec, search)
            tally(rec, acc)
        copy_into(summary[ci], acc)


@chunk_kernel
def simulate_chunks(lo, hi, states, dstates, first_hand, chunk_size, n_hands, rules, params, want_records, records,
                    summary, search):
    """Simulate hands ``first_hand ..`` in chunks (chunk ``i``: deal state ``states[i]``, decisions ``dstates[i]``).

    Chunk ``i`` writes only ``summary[i]`` and, with ``want_records``, its own
    rows of ``records``. The dealer of hand h is ``h % 4``; ``params`` has a row per seat. ``search``: None when
    no seat searches (``hand.search_arg``), so the search code is not compiled.
    """
    _simulate(lo, hi, states, dstates, first_hand, chunk_size, n_hands, rules, params, want_records, records, summary,
              search, states)


@chunk_kernel
def plain_chunks(lo, hi, states, dstates, first_hand, chunk_size, n_hands, rules, params, want_records, records,
                 summary, search):
    """``simulate_chunks`` for seats that all play the heuristic cards (``hand.plays_plainly``): the same hands,
    records and counters, with ``play_plain`` the only card play compiled in."""
    _simulate(lo, hi, states, dstates, first_hand, chunk_size, n_hands, rules, params, want_records, records, summary,
              search, None)


def simulate_kernel(params, rules):
    """The chunk kernel that simulates hands of these strategies: ``plain_chunks`` when every seat plays the
    heuristic cards (``hand.plays_plainly``), else ``simulate_chunks``. Chosen here, once a run, so a run compiles
    only the path it takes (``rules`` as the other variants' ``simulate_kernel`` take them)."""
    return plain_chunks if bool(plays_plainly(params)) else simulate_chunks


SIMULATE_KERNELS = (simulate_chunks, plain_chunks)  # what ``simulate_kernel`` may choose


@kernel
def play_order(deal_order, dealer, rules, params, force, dstate, rec, search):
    """One hand dealt from a 24-card ``deal_order`` (top first) into ``rec``; random seats draw from ``dstate``.

    Card ``i < 20`` goes to position ``i % 4 + 1``; 20..23 are the kitty, the
    first turned up. ``force``: one seat's decision at one turn
    (``bower.kernels.euchre.hand.F_*``; ``NO_FORCE`` for none). ``search``:
    ``hand.search_arg(params)`` (None: no search code compiled in).
    """
    _, dbuf, _, dealt, kitty, hands, tricks, wt, _ = _scratch()
    card_weights(params, wt)
    for k in range(4):
        dealt[k] = 0
        kitty[k] = deal_order[20 + k]
    for i in range(20):
        dealt[i % 4] |= np.int64(1) << deal_order[i]
    play_dealt(dealt, kitty, dealer, rules, params, wt, force, dstate, dbuf, hands, tricks, rec, search)


@kernel
def deal_chunk(state, count, out, kitty):
    """Deals of ``count`` hands from one chunk state: ``out`` (count, 4) by position 1..4; ``kitty`` (count, 4)."""
    buf = np.zeros(2, np.int64)
    deck = np.empty(N_CARDS, np.int64)
    for h in range(count):
        deal_packets(state, buf, deck, N_CARDS, N_SEATS, 5, out[h])
        for i in range(4):
            kitty[h, i] = deck[20 + i]


@kernel(inline="always")
def tally_strategies(rec, seat_strat, acc):
    """Add one hand to the per-strategy counters ``acc`` (row = strategy of the seat)."""
    maker = rec[R_MAKER]
    callers = 0
    for i in range(rec[R_NCALLS]):
        if rec[R_CALLS + 2 * i + 1] != CALL_PASS:
            callers |= 1 << rec[R_CALLS + 2 * i]
    alone = rec[R_ALONE]
    dealer = rec[R_DEALER]
    first = maker >= 0 and round_one(rec)
    made = False
    if maker >= 0:
        side = maker & 1
        made = rec[R_TRICKS + side] + rec[R_TRICKS + side + 2] >= MAKER_NEEDS
    for s in range(N_SEATS):
        k = seat_strat[s]
        pts = rec[R_POINTS + (s & 1)]
        acc[k, ST_HANDS] += 1
        acc[k, ST_POINTS] += pts
        acc[k, ST_POINTS_SQ] += pts * pts
        if (callers >> s) & 1:
            acc[k, ST_BIDDER] += 1
        if s == dealer and first:
            acc[k, ST_SWAPS] += 1
        if maker < 0:
            continue
        if maker == s:
            cell = 0 if first else 1
            acc[k, ST_MAKER + cell] += 1
            acc[k, ST_MADE + cell] += made
            if (alone >> s) & 1:
                acc[k, ST_MAKER + 2] += 1
                acc[k, ST_MADE + 2] += made
        elif (alone >> s) & 1:
            acc[k, ST_MAKER + 3] += 1
            acc[k, ST_MADE + 3] += not made


@kernel(inline="always")
def token_step(rec, rules, tokens, token_points):
    """Rule ``four_trick_tokens`` after hand ``rec``: the side whose maker made it with partner taking exactly 4
    tricks earns a token (``tokens`` by side); at 4 they are turned in for 1 point (added to ``token_points``).
    Returns (the side that earned a token or -1, the points turned in: 0 or 1)."""
    maker = rec[R_MAKER]
    if rules[E_FOUR_TOKENS] == 0 or maker < 0 or ((rec[R_ALONE] >> maker) & 1) == 1:
        return -1, 0
    side = maker & 1
    if rec[R_TRICKS + side] + rec[R_TRICKS + side + 2] != 4:
        return -1, 0
    tokens[side] += 1
    if tokens[side] < 4:
        return side, 0
    tokens[side] = 0
    token_points[side] += 1
    return side, 1


@kernel
def play_game(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, wt, force, rec, rules, params, seat_strat,
              target, max_hands, scores, start, hand_acc, strat_acc, search, tokens, token_points, eq=None):
    """Play one game to ``target`` by side from dealer ``FIRST_DEALER``; returns (winning side, hands, tokens
    earned).

    After a hand, the side at or above the target wins (only one side scores
    on a hand). No winner after ``max_hands``: -1. Under ``four_trick_tokens``
    the hand's makers may earn a token and turn in four for a point
    (``token_step``), counted in ``scores`` before the target is checked;
    ``tokens`` (int64 by side) and ``token_points`` (by side: the points of
    tokens turned in) start at 0 here.

    The scores start at ``start`` (int64, by side; 0s for a game from the beginning). ``force``: a writable
    copy of ``NO_FORCE`` (``hand.play_hand_once``: each hand a call of the one compiled ``hand.play_dealt``).
    ``eq``: the game-equity bidder's tables (``games_chunks``) or None (left out): the equity bidding compiled
    only when given, its seats then calling at the game's scores.
    """
    scores[0] = start[0]
    scores[1] = start[1]
    tokens[:] = 0
    token_points[:] = 0
    earned = 0
    dealer = FIRST_DEALER
    pick = force  # the equity bidder's pick (``hand.auction``), its own array where the tables are given
    if eq is not None:
        pick = np.full(2, -1, np.int64)
    for n in range(1, max_hands + 1):
        if eq is None:  # pruned: the heuristic games compile as before
            play_hand_once(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, dealer, rules, params, wt,
                           force, rec, search)
        else:
            play_hand_once(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, dealer, rules, params, wt,
                           force, rec, search, (eq, scores, target, pick))
        tally(rec, hand_acc)
        tally_strategies(rec, seat_strat, strat_acc)
        scores[0] += rec[R_POINTS]
        scores[1] += rec[R_POINTS + 1]
        side, extra = token_step(rec, rules, tokens, token_points)
        if side >= 0:
            earned += 1
            scores[side] += extra
        dealer = (dealer + 1) % 4
        if scores[0] >= target:
            return 0, n, earned
        if scores[1] >= target:
            return 1, n, earned
    return -1, max_hands, earned


@chunk_kernel
def games_chunks(lo, hi, states, chunk_sets, n_sets, assignments, duplicate, rules, strat_params, target, max_hands,
                 set_wins, game_out, hand_acc, strat_acc, game_acc, search, start, eq=None):
    """Play ``n_sets`` deal sets, one game per seat assignment (4 seats) in each (as Hasenpfeffer's
    ``games_chunks``).

    ``start``: every game's starting scores by side (int64; 0s for games from the beginning). ``eq``: the game-equity
    bidder's tables (``bower.sim.variants.euchre.equity_strategy.flat``), None where no strategy bids by equity:
    its code is then not compiled (``bower.sim.variants.euchre`` puts ``bower.sim.equity_bidder.GamesKernel``,
    which adds them, in this kernel's place).
    """
    n_assign = assignments.shape[0]
    n_params = strat_params.shape[1]
    for ci in range(lo, hi):
        chunk = states[ci].copy()
        state = np.empty(4, np.uint64)
        dstate = np.empty(4, np.uint64)
        buf, dbuf, deck, dealt, kitty, hands, tricks, wt, rec = _scratch()
        scores = np.zeros(2, np.int64)
        params = np.empty((N_SEATS, n_params), np.float64)
        seat_strat = np.empty(N_SEATS, np.int64)
        force = NO_FORCE.copy()
        tokens = np.zeros(2, np.int64)
        token_points = np.zeros(2, np.int64)
        h_acc = hand_acc[ci]
        s_acc = strat_acc[ci]
        g_acc = game_acc[ci]
        for g in range(ci * chunk_sets, min((ci + 1) * chunk_sets, n_sets)):
            game_seed = next_u64(chunk)
            for a in range(n_assign):
                game_seed = seed_game(chunk, game_seed, a, duplicate, state, dstate, buf, dbuf)
                for s in range(N_SEATS):
                    seat_strat[s] = assignments[a, s]
                    copy_into(params[s], strat_params[assignments[a, s]])
                card_weights(params, wt)
                winner, n, earned = play_game(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, wt, force,
                                              rec, rules, params, seat_strat, target, max_hands, scores, start,
                                              h_acc, s_acc, search, tokens, token_points, eq)
                row = game_out[g * n_assign + a]
                record_game(row, g_acc, s_acc, set_wins[g], seat_strat, winner, n, False, scores)
                row[GO_TOKEN_POINTS] = token_points[0]
                row[GO_TOKEN_POINTS + 1] = token_points[1]
                g_acc[GA_TOKENS] += earned
                g_acc[GA_TOKEN_POINTS] += token_points[0] + token_points[1]
