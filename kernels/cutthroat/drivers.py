"""Cutthroat simulation drivers: independent hands, one hand from a given order, whole games and experiments.

Same contract as ``ghost_sim``: each chunk owns its RNG states and writes
only its own output rows, so results never depend on the thread count. The
per-strategy (``ST_*``), game (``GA_*``) and per-game (``GO_*``) layouts are
Ghost Hand's; for Cutthroat the four ``ST_MAKER``/``ST_MADE`` cells count
(maker, maker alone, lone defender, round-one maker) and (made, alone made,
lone defender's euchre, round-one made), and ``ST_SWAPS`` the dealer's exchanges.
"""

import numpy as np

from bower.kernels.arrays import copy_into
from bower.kernels.bits import lowest
from bower.kernels.cutthroat.hand import (
    CALL_ACCEPT,
    CALL_PASS,
    MAKER_NEEDS,
    N_SEATS,
    R_ALONE,
    R_CALLS,
    R_DEALER,
    R_DEALER_DISCARD,
    R_MAKER,
    R_NCALLS,
    R_POINTS,
    R_TRICKS,
    R_WIDTH,
    S_WIDTH,
    play_dealt_once,
    play_hand,
    play_hand_once,
    play_hand_plain,
    plays_plainly,
    tally,
)
from bower.kernels.cutthroat.strategy import N_PATTERNS_O, N_PATTERNS_T, Q_VOID, best_keep, card_weights, keep_tables
from bower.kernels.deal import deal_packets
from bower.kernels.games import (
    ST_BIDDER,
    ST_HANDS,
    ST_MADE,
    ST_MAKER,
    ST_POINTS,
    ST_POINTS_SQ,
    ST_SWAPS,
    top_seats,
    record_game,
    seed_game,
)
from bower.kernels.jit import chunk_kernel, kernel
from bower.kernels.rng import next_u64

FIRST_DEALER = 2  # seat 0 is position 1 in a game's first hand


@kernel(inline="always")
def _scratch():
    """Per-chunk scratch: buf, dbuf, deck, dealt, kitty, (hands, tricks, points), pw and pm (merge), wt (card
    weights), order (keep orders), record row."""
    return (
        np.zeros(2, np.int64), np.zeros(2, np.int64), np.empty(24, np.int64), np.zeros(4, np.int64),
        np.zeros(4, np.int64), (np.zeros(N_SEATS, np.int64), np.zeros(N_SEATS, np.int64), np.zeros(N_SEATS, np.int64)),
        np.zeros((4, 8), np.float64), np.zeros((4, 8), np.int64), np.zeros((N_SEATS, 4, 24), np.float64),
        np.zeros((N_SEATS, 5, 7), np.int64), np.zeros(R_WIDTH, np.int64),
    )


@chunk_kernel
def simulate_chunks(lo, hi, states, dstates, first_hand, chunk_size, n_hands, rules, params, want_records, records,
                    summary, search):
    """Simulate hands ``first_hand ..`` in chunks (chunk ``i``: deal state ``states[i]``, decisions ``dstates[i]``).

    Chunk ``i`` writes only ``summary[i]`` and, with ``want_records``, its own
    rows of ``records``. The dealer of hand h is ``h % 3``; ``params`` has a row per seat. ``search``: None when
    no seat searches (``hand.search_arg``), so the search code is not compiled. Every strategy; a run whose seats
    all play the heuristic strategy takes ``plain_chunks`` instead (``simulate_kernel``).
    """
    for ci in range(lo, hi):
        state = states[ci].copy()
        dstate = dstates[ci].copy()
        buf, dbuf, deck, dealt, kitty, (hands, tricks, points), pw, pm, wt, order, scratch = _scratch()
        card_weights(params, wt, order)
        acc = np.zeros(S_WIDTH, np.int64)
        for h in range(ci * chunk_size, min((ci + 1) * chunk_size, n_hands)):
            rec = records[h] if want_records else scratch
            if search is None:  # the hand inlined; a searching seat's hand is one call (``play_hand_once``)
                play_hand(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, points, pw, pm,
                          (first_hand + h) % 3, rules, params, wt, order, rec, search)
            else:
                play_hand_once(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, points, pw, pm,
                               (first_hand + h) % 3, rules, params, wt, order, rec, search)
            tally(rec, acc)
        copy_into(summary[ci], acc)


@chunk_kernel
def plain_chunks(lo, hi, states, dstates, first_hand, chunk_size, n_hands, rules, params, want_records, records,
                 summary, search):
    """``simulate_chunks`` for a run whose seats all play the heuristic strategy (``plays_plainly``): the same
    hands and records by the plain path (``play_hand_plain``, the merge's tables built once a chunk). ``search``
    is not read."""
    for ci in range(lo, hi):
        state = states[ci].copy()
        dstate = dstates[ci].copy()
        buf, dbuf, deck, dealt, kitty, (hands, tricks, points), pw, pm, wt, order, scratch = _scratch()
        card_weights(params, wt, order)
        acc = np.zeros(S_WIDTH, np.int64)
        keeps = (np.empty((N_SEATS, 4, N_PATTERNS_T, 6), np.float64), np.empty((N_SEATS, 4, N_PATTERNS_T, 6), np.int64),
                 np.empty((N_SEATS, N_PATTERNS_O, 6), np.float64), np.empty((N_SEATS, N_PATTERNS_O, 6), np.int64))
        keep_tables(wt, order, keeps[0], keeps[1], keeps[2], keeps[3])
        for h in range(ci * chunk_size, min((ci + 1) * chunk_size, n_hands)):
            rec = records[h] if want_records else scratch
            play_hand_plain(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, points, keeps,
                            (first_hand + h) % 3, rules, params, wt, rec)
            tally(rec, acc)
        copy_into(summary[ci], acc)


def simulate_kernel(params, rules):
    """The chunk kernel that simulates hands of these strategies (``rules`` as ``simulate_chunks`` takes them):
    ``plain_chunks`` when every seat plays the heuristic strategy (``hand.plays_plainly``), else
    ``simulate_chunks``. Chosen here, once a run, so a run compiles only the path it takes."""
    return plain_chunks if bool(plays_plainly(params)) else simulate_chunks


SIMULATE_KERNELS = (simulate_chunks, plain_chunks)  # what ``simulate_kernel`` may choose


@kernel
def play_order(deal_order, dealer, rules, params, force, dstate, rec, search):
    """One hand dealt from a 24-card ``deal_order`` (top first) into ``rec``; random seats draw from ``dstate``.

    ``force``: one seat's decision at one turn (``bower.kernels.cutthroat.F_*``; ``NO_FORCE`` for none).
    ``search``: ``hand.search_arg(params)`` (None: no search code compiled in).
    """
    buf, dbuf, deck, dealt, kitty, (hands, tricks, points), pw, pm, wt, order, _ = _scratch()
    card_weights(params, wt, order)
    for k in range(4):
        dealt[k] = 0
        kitty[k] = deal_order[20 + k]
    for i in range(20):
        dealt[i % 4] |= np.int64(1) << deal_order[i]
    play_dealt_once(dealt, kitty, dealer, rules, params, wt, order, force, dstate, dbuf, hands, tricks, points, pw, pm,
                    rec, search)


@kernel
def keep_of(ten, trump, params):
    """The 5 cards the strategy ``params`` (one row) keeps of the ``ten`` as maker with ``trump`` (for the tests)."""
    wt = np.zeros((1, 4, 24), np.float64)
    order = np.zeros((1, 5, 7), np.int64)
    card_weights(params.reshape((1, params.shape[0])), wt, order)
    pw = np.zeros((4, 8), np.float64)
    pm = np.zeros((4, 8), np.int64)
    return best_keep(ten, trump, wt, order, 0, params[Q_VOID], pw, pm)


@kernel
def deal_chunk(state, count, out, kitty):
    """Deals of ``count`` hands from one chunk state: ``out`` (count, 4) pos 1, 2, 3, dummy; ``kitty`` (count, 4)."""
    buf = np.zeros(2, np.int64)
    deck = np.empty(24, np.int64)
    for h in range(count):
        deal_packets(state, buf, deck, 24, 4, 5, out[h])
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
    for s in range(N_SEATS):
        k = seat_strat[s]
        pts = rec[R_POINTS + s]
        acc[k, ST_HANDS] += 1
        acc[k, ST_POINTS] += pts
        acc[k, ST_POINTS_SQ] += pts * pts
        if (callers >> s) & 1:
            acc[k, ST_BIDDER] += 1
        if s == dealer and rec[R_DEALER_DISCARD] >= 0:
            acc[k, ST_SWAPS] += 1
        if maker < 0:
            continue
        made = rec[R_TRICKS + maker] >= MAKER_NEEDS
        if maker == s:
            acc[k, ST_MAKER] += 1
            acc[k, ST_MADE] += made
            if (alone >> s) & 1:
                acc[k, ST_MAKER + 1] += 1
                acc[k, ST_MADE + 1] += made
            if rec[R_CALLS + 2 * rec[R_NCALLS] - 1] == CALL_ACCEPT:
                acc[k, ST_MAKER + 3] += 1
                acc[k, ST_MADE + 3] += made
        elif (alone >> s) & 1:
            acc[k, ST_MAKER + 2] += 1
            acc[k, ST_MADE + 2] += not made


@kernel
def play_game(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, points, pw, pm, wt, order, rec, rules, params,
              seat_strat, target, max_hands, scores, start, hand_acc, strat_acc, search, eq=None):
    """Play one game to ``target`` from dealer ``FIRST_DEALER``; returns (winner, hands, went on past a tie).

    After a hand, a unique highest score at or above the target wins; a tie
    at the top plays another hand. No winner after ``max_hands``: winner -1.

    The scores start at ``start`` (int64, by seat; 0s for a game from the beginning). ``eq``: the game-equity
    bidder's tables (``games_chunks``) or None (left out): the equity bidding compiled only when given, its seats
    then calling at the game's scores. A searching seat's hand (``play_hand_once``) calls by the thresholds.
    """
    for s in range(N_SEATS):
        scores[s] = start[s]
    dealer = FIRST_DEALER
    went_on = False
    pick = scores  # the equity bidder's pick (``hand.auction``), its own array where the tables are given
    if eq is not None:
        pick = np.full(2, -1, np.int64)
    for n in range(1, max_hands + 1):
        if search is None and eq is None:  # as in simulate_chunks
            play_hand(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, points, pw, pm, dealer, rules, params,
                      wt, order, rec, search)
        elif search is None:
            play_hand(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, points, pw, pm, dealer, rules, params,
                      wt, order, rec, search, (eq, scores, target, pick))
        else:
            play_hand_once(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, points, pw, pm, dealer, rules,
                           params, wt, order, rec, search)
        tally(rec, hand_acc)
        tally_strategies(rec, seat_strat, strat_acc)
        for s in range(N_SEATS):
            scores[s] += rec[R_POINTS + s]
        dealer = (dealer + 1) % 3
        leaders = top_seats(scores[0], scores[1], scores[2], 7)
        if scores[lowest(leaders)] >= target:
            if leaders & (leaders - 1) == 0:
                return lowest(leaders), n, went_on
            went_on = True
    return -1, max_hands, went_on


@chunk_kernel
def games_chunks(lo, hi, states, chunk_sets, n_sets, assignments, duplicate, rules, strat_params, target, max_hands,
                 set_wins, game_out, hand_acc, strat_acc, game_acc, search, start, eq=None):
    """Play ``n_sets`` deal sets, one game per seat assignment in each (as ``ghost_sim.games_chunks``).

    ``start``: every game's starting scores by seat (int64; 0s for games from the beginning). ``eq``: the game-equity
    bidder's tables (``bower.sim.variants.cutthroat.equity_strategy.flat``), None where no strategy bids by
    equity: its code is then not compiled (``bower.sim.variants.cutthroat`` puts
    ``bower.sim.equity_bidder.GamesKernel``, which adds them, in this kernel's place).
    """
    n_assign = assignments.shape[0]
    n_params = strat_params.shape[1]
    for ci in range(lo, hi):
        chunk = states[ci].copy()
        state = np.empty(4, np.uint64)
        dstate = np.empty(4, np.uint64)
        buf, dbuf, deck, dealt, kitty, (hands, tricks, points), pw, pm, wt, order, rec = _scratch()
        scores = np.zeros(N_SEATS, np.int64)
        params = np.empty((N_SEATS, n_params), np.float64)
        seat_strat = np.empty(N_SEATS, np.int64)
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
                card_weights(params, wt, order)
                winner, n, went_on = play_game(state, buf, dstate, dbuf, deck, dealt, kitty, hands, tricks, points, pw, pm,
                                               wt, order, rec, rules, params, seat_strat, target, max_hands, scores,
                                               start, h_acc, s_acc, search, eq)
                record_game(game_out[g * n_assign + a], g_acc, s_acc, set_wins[g], seat_strat, winner, n, went_on,
                            scores)
