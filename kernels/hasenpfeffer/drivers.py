"""Hasenpfeffer simulation drivers: independent hands, one hand from a given order, whole games and experiments.

Same contract as ``ghost_sim``: each chunk owns its RNG states and writes
only its own output rows. Games are won by a side (0: seats 0 & 2, 1: seats
1 & 3): the per-game row holds the winning side and the two side scores;
``GA_WINS`` counts wins by side and ``GA_TIEBREAKS`` the games both sides
reached the target on the same hand. Per strategy (``ST_*``, Ghost Hand's
layout): ``ST_MAKER``/``ST_MADE`` cells count (contracts, peppers, forced
threes, -) as bidder and their makes; ``ST_WINS`` counts games its side won.
"""

import numpy as np

from bower.kernels.arrays import copy_into
from bower.kernels.estimate import estimate
from bower.kernels.games import (
    ST_BIDDER,
    ST_HANDS,
    ST_MADE,
    ST_MAKER,
    ST_POINTS,
    ST_POINTS_SQ,
    record_game,
    seed_game,
)
from bower.kernels.hasenpfeffer.hand import (
    LITTLE_PEPPER,
    N_CARDS,
    N_SEATS,
    NO_FORCE,
    P_EQUITY,
    P_VOID,
    R_BID,
    R_BIDDER,
    R_CALLS,
    R_FORCED,
    R_NCALLS,
    R_POINTS,
    R_TRICKS,
    R_WIDTH,
    S_WIDTH,
    bid_need,
    card_weights,
    deal,
    play_dealt_once,
    play_hand,
    tally,
)
from bower.kernels.jit import chunk_kernel, kernel
from bower.kernels.rng import next_u64
from bower.kernels.hasenpfeffer.codes import H_PEPPER
from bower.kernels.hasenpfeffer.plain import PT_WIDTH, plain_chunk, plain_hand, plain_tables

FIRST_DEALER = 3  # seat 0 is position 1 in a game's first hand
WORK = 16


@kernel(inline="always")
def _scratch():
    """Per-chunk scratch: buf, dbuf, deck, work, wt (card weights), record row."""
    return (np.zeros(2, np.int64), np.zeros(2, np.int64), np.empty(N_CARDS, np.int64), np.zeros(WORK, np.int64),
            np.zeros((N_SEATS, 4, N_CARDS), np.float64), np.zeros(R_WIDTH, np.int64))


@chunk_kernel
def simulate_chunks(lo, hi, states, dstates, first_hand, chunk_size, n_hands, rules, params, want_records, records,
                    summary, search):
    """Simulate hands ``first_hand ..`` in chunks (chunk ``i``: deal state ``states[i]``, decisions ``dstates[i]``).

    Chunk ``i`` writes only ``summary[i]`` and, with ``want_records``, its own
    rows of ``records``. The dealer of hand h is ``h % 4``; ``params`` has a row per seat. ``search``: None when
    no seat searches (``hand.search_arg``), so the search code is not compiled. Every strategy; a run whose seats
    all play the heuristic strategy takes ``plain_chunks`` instead (``simulate_kernel``).
    """
    for ci in range(lo, hi):
        state = states[ci].copy()
        dstate = dstates[ci].copy()
        buf, dbuf, deck, work, wt, scratch = _scratch()
        card_weights(params, wt)
        force = NO_FORCE.copy()
        acc = np.zeros(S_WIDTH, np.int64)
        for h in range(ci * chunk_size, min((ci + 1) * chunk_size, n_hands)):
            rec = records[h] if want_records else scratch
            play_hand(state, buf, dstate, dbuf, deck, work, (first_hand + h) % 4, rules, params, wt, force, rec,
                      search)
            tally(rec, acc)
        copy_into(summary[ci], acc)


@chunk_kernel
def plain_chunks(lo, hi, states, dstates, first_hand, chunk_size, n_hands, rules, params, want_records, records,
                 summary, search):
    """``simulate_chunks`` for a run on the plain path (``plain.plain_tables``): the same hands and records by
    ``plain.plain_chunk``. ``dstates`` and ``search`` are not read."""
    for ci in range(lo, hi):
        state = states[ci].copy()
        buf, dbuf, deck, work, wt, scratch = _scratch()
        tab = np.zeros((N_SEATS, PT_WIDTH), np.int64)
        plain_tables(params, tab)
        acc = np.zeros(S_WIDTH, np.int64)
        plain_chunk(state, buf, deck, ci * chunk_size, min((ci + 1) * chunk_size, n_hands), first_hand, rules, params,
                    tab, want_records, records, scratch, acc)
        copy_into(summary[ci], acc)


def simulate_kernel(params, rules):
    """The chunk kernel that simulates hands of these strategies (``rules`` as ``simulate_chunks`` takes them):
    ``plain_chunks`` when the plain path plays them (``plain.plain_tables``), else ``simulate_chunks``. Chosen
    here, once a run, so a run compiles only the path it takes."""
    plain = plain_tables(params, np.zeros((N_SEATS, PT_WIDTH), np.int64))
    return plain_chunks if bool(plain) else simulate_chunks


SIMULATE_KERNELS = (simulate_chunks, plain_chunks)  # what ``simulate_kernel`` may choose


@kernel
def play_order(deal_order, dealer, rules, params, dstate, rec, search):
    """One hand dealt from a 25-card ``deal_order`` (top first) into ``rec``; random seats draw from ``dstate``;
    ``search``: ``hand.search_arg(params)`` (None: no search code compiled in)."""
    buf, dbuf, deck, work, wt, _ = _scratch()
    card_weights(params, wt)
    by_seat = work[12:16]
    for s in range(N_SEATS):
        by_seat[s] = 0
    for i in range(24):
        by_seat[(dealer + 1 + (i // 3) % 4) % 4] |= np.int64(1) << deal_order[i]
    play_dealt_once(by_seat, deal_order[24], dealer, rules, params, wt, NO_FORCE.copy(), dstate, dbuf, work, rec,
                    search)


@kernel
def deal_chunk(state, count, out, widow):
    """Deals of ``count`` hands from one chunk state: ``out`` (count, 4) by position 1..4, ``widow`` (count,)."""
    buf = np.zeros(2, np.int64)
    deck = np.empty(N_CARDS, np.int64)
    for h in range(count):
        widow[h] = deal(state, buf, deck, out[h])


@kernel(inline="always")
def tally_strategies(rec, seat_strat, pepper, acc):
    """Add one hand to the per-strategy counters ``acc`` (row = strategy of the seat)."""
    bidder = rec[R_BIDDER]
    callers = 0
    for i in range(rec[R_NCALLS]):
        if rec[R_CALLS + 2 * i + 1] != 0:
            callers |= 1 << rec[R_CALLS + 2 * i]
    for s in range(N_SEATS):
        k = seat_strat[s]
        pts = rec[R_POINTS + s % 2]
        acc[k, ST_HANDS] += 1
        acc[k, ST_POINTS] += pts
        acc[k, ST_POINTS_SQ] += pts * pts
        if (callers >> s) & 1:
            acc[k, ST_BIDDER] += 1
        if bidder == s:
            level = rec[R_BID]
            made = rec[R_TRICKS + s % 2] + rec[R_TRICKS + s % 2 + 2] >= bid_need(level)
            acc[k, ST_MAKER] += 1
            acc[k, ST_MADE] += made
            if rec[R_BID] >= LITTLE_PEPPER and pepper:
                acc[k, ST_MAKER + 1] += 1
                acc[k, ST_MADE + 1] += made
            if rec[R_FORCED] == 1:
                acc[k, ST_MAKER + 2] += 1
                acc[k, ST_MADE + 2] += made


@kernel
def play_game(state, buf, dstate, dbuf, deck, work, wt, tab, plain, force, rec, rules, params, seat_strat, target,
              max_hands, scores, start, hand_acc, strat_acc, search, eq=None):
    """Play one game to ``target`` by side from dealer ``FIRST_DEALER``; returns (winning side, hands, both reached).

    After a hand, a side at or above the target wins; if both are, the side
    that bid that hand wins. No winner after ``max_hands``: -1. ``plain``:
    the hands take the plain path (``plain.plain_tables`` filled ``tab``).

    The scores start at ``start`` (int64, by side; 0s for a game from the beginning). ``eq``: the game-equity
    bidder's tables (``games_chunks``) or None (left out): the equity bidding compiled only when given, its seats
    then calling at the game's scores.
    """
    scores[0] = start[0]
    scores[1] = start[1]
    dealer = FIRST_DEALER
    for n in range(1, max_hands + 1):
        if search is None and plain:  # a searching seat never takes the plain path: pruned before inlining
            plain_hand(state, buf, deck, dealer, rules, params, tab, rec, False)
        elif eq is None:  # pruned: the heuristic games compile as before
            play_hand(state, buf, dstate, dbuf, deck, work, dealer, rules, params, wt, force, rec, search)
        else:
            play_hand(state, buf, dstate, dbuf, deck, work, dealer, rules, params, wt, force, rec, search,
                      (eq, scores, target))
        tally(rec, hand_acc)
        tally_strategies(rec, seat_strat, rules[H_PEPPER] == 1, strat_acc)
        scores[0] += rec[R_POINTS]
        scores[1] += rec[R_POINTS + 1]
        dealer = (dealer + 1) % 4
        there0 = scores[0] >= target
        there1 = scores[1] >= target
        if there0 and there1:
            return rec[R_BIDDER] % 2, n, True
        if there0:
            return 0, n, False
        if there1:
            return 1, n, False
    return -1, max_hands, False


@chunk_kernel
def games_chunks(lo, hi, states, chunk_sets, n_sets, assignments, duplicate, rules, strat_params, target, max_hands,
                 set_wins, game_out, hand_acc, strat_acc, game_acc, search, start, eq=None):
    """Play ``n_sets`` deal sets, one game per seat assignment (4 seats) in each (as ``ghost_sim.games_chunks``).

    ``start``: every game's starting scores by side (int64; 0s for games from the beginning). ``eq``: the game-equity
    bidder's tables (``bower.sim.variants.hasenpfeffer.equity_strategy.flat``), None where no strategy bids by
    equity: its code is then not compiled (``bower.sim.variants.hasenpfeffer`` puts
    ``bower.sim.equity_bidder.GamesKernel``, which adds them, in this kernel's place). A game with an equity
    bidder never takes the plain path (``plain.plain_tables``).
    """
    n_assign = assignments.shape[0]
    n_params = strat_params.shape[1]
    for ci in range(lo, hi):
        chunk = states[ci].copy()
        state = np.empty(4, np.uint64)
        dstate = np.empty(4, np.uint64)
        buf, dbuf, deck, work, wt, rec = _scratch()
        scores = np.zeros(2, np.int64)
        params = np.empty((N_SEATS, n_params), np.float64)
        seat_strat = np.empty(N_SEATS, np.int64)
        tab = np.zeros((N_SEATS, PT_WIDTH), np.int64)
        force = NO_FORCE.copy()
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
                plain = plain_tables(params, tab)
                if eq is not None:  # pruned when compiled for eq None
                    for s in range(N_SEATS):
                        plain = plain and params[s, P_EQUITY] < 0.5
                winner, n, both = play_game(state, buf, dstate, dbuf, deck, work, wt, tab, plain, force, rec, rules,
                                            params, seat_strat, target, max_hands, scores, start, h_acc, s_acc,
                                            search, eq)
                record_game(game_out[g * n_assign + a], g_acc, s_acc, set_wins[g], seat_strat, winner, n, both,
                            scores)


@kernel
def estimates(hands, trumps, params):
    """Trick estimates of many ``hands`` (masks, the joker included) for their ``trumps`` under one strategy row."""
    wt = np.zeros((1, 4, N_CARDS), np.float64)
    card_weights(params.reshape((1, params.shape[0])), wt)
    out = np.empty(hands.shape[0], np.float64)
    for i in range(hands.shape[0]):
        out[i] = estimate(hands[i], trumps[i], wt, 0, params[P_VOID])
    return out
