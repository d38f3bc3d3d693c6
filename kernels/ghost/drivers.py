"""Ghost Hand simulation drivers: independent hands, whole games and duplicate experiments.

Chunk kernels (``jit.chunk_kernel``) run chunks in threads; each chunk owns its RNG state and writes only
its own rows of the outputs (``summary[ci]``, ``strat_acc[ci]``, its games'
rows), and the Python layer merges them, so results never depend on threads.
"""

import numpy as np

from bower.kernels.arrays import copy_into
from bower.kernels.bits import lowest
from bower.kernels.deal import deal_packets
from bower.kernels.ghost.hand import (
    HAND_SIZE,
    N_SEATS,
    NO_FORCE,
    R_BID,
    R_CALLS,
    R_MAKER,
    R_NCALLS,
    R_POINTS,
    R_SWAP,
    R_TRICKS,
    R_WIDTH,
    S_WIDTH,
    SEAT_ROWS,
    P_LEAD_TRUMP,
    auction_core,
    auction_plain,
    chunk_scratch,
    deal_hand,
    deal_plain,
    finish_hand,
    finish_hand_once,
    force_of,
    is_plain,
    lead_need,
    play_hand,
    play_hand_once,
    plain_rows,
    play_pair,
    rotate_to,
    tally,
)
from bower.kernels.ghost.stats import tally_bids
from bower.kernels.ghost.strategy import equity_rows, strategy_rows
from bower.kernels.games import (  # noqa: F401  (the layouts are read through this module too)
    GA_WIDTH,
    GO_WIDTH,
    ST_BIDDER,
    ST_HANDS,
    ST_MADE,
    ST_MAKER,
    ST_POINTS,
    ST_POINTS_SQ,
    ST_SWAPS,
    ST_WIDTH,
    record_game,
    seed_game,
    top_seats,
)
from bower.kernels.jit import chunk_kernel, kernel
from bower.kernels.rng import next_u64
from bower.kernels.ghost.codes import G_AUCTION, G_STICK, G_SWAP, G_TIEBREAK

FIRST_DEALER = 2  # seat 0 is position 1 in a game's first hand


@chunk_kernel
def simulate_chunks(lo, hi, states, dstates, first_hand, chunk_size, n_hands, rules, params, target, want_records,
                    records, summary, bid_acc, est_acc, search):
    """Simulate hands ``first_hand .. first_hand + n_hands - 1`` in chunks, one RNG state per chunk.

    Chunk ``i`` plays hands ``i*chunk_size ..`` (relative) from deal state
    ``states[i]`` and decision state ``dstates[i]``, writing only
    ``summary[i]``, when ``want_records`` its own rows of ``records``, and,
    when ``bid_acc`` has cells (``bid_acc.shape[1] > 0``), its bid
    histograms ``bid_acc[i]`` and ``est_acc[i]`` (``ghost_stats``). The
    dealer of hand h is ``h % 3``; ``params`` has a row per seat. ``search``:
    None when no seat searches (``hand.search_arg``): the search code is then
    not compiled. Every strategy and rule; runs on the plain path take
    ``plain_chunks`` instead (``simulate_kernel``).
    """
    want_stats = bid_acc.shape[1] > 0
    for ci in range(lo, hi):
        state, dstate, buf, dbuf, deck, scratch, work, scores = chunk_scratch(states, dstates, ci)
        rows = strategy_rows(params)
        acc = np.zeros(S_WIDTH, np.int64)
        flat = records.reshape(-1) if want_records else scratch  # each hand writes its row at ``base``
        for h in range(ci * chunk_size, min((ci + 1) * chunk_size, n_hands)):
            base = h * R_WIDTH if want_records else 0
            if search is None:  # the hand inlined; a searching seat's hand is one call (``play_hand_once``)
                play_hand(state, buf, dstate, dbuf, deck, work, (first_hand + h) % 3, rules, rows, SEAT_ROWS, scores,
                          target, flat, base, search)
            else:
                play_hand_once(state, buf, dstate, dbuf, deck, work, (first_hand + h) % 3, rules, rows, SEAT_ROWS,
                               scores, target, flat, base, search)
            tally(flat, base, acc)
            if want_stats:
                tally_bids(flat[base:base + R_WIDTH], params, bid_acc[ci], est_acc[ci])
        copy_into(summary[ci], acc)


@chunk_kernel
def plain_chunks(lo, hi, states, dstates, first_hand, chunk_size, n_hands, rules, params, target, want_records,
                 records, summary, bid_acc, est_acc, search):
    """``simulate_chunks`` for a run on the plain path (``plain_run``): the same hands, records and counters, by
    ``plain_chunk``. ``dstates`` and ``search`` are not read (no decision is drawn)."""
    want_stats = bid_acc.shape[1] > 0
    for ci in range(lo, hi):
        state, dstate, buf, dbuf, deck, scratch, work, scores = chunk_scratch(states, dstates, ci)
        rows = strategy_rows(params)
        acc = np.zeros(S_WIDTH, np.int64)
        two = np.zeros(2 * R_WIDTH, np.int64)  # two rows: a hand waiting for its partner keeps its own
        flat = records.reshape(-1) if want_records else two
        plain_chunk(state, buf, deck, ci * chunk_size, min((ci + 1) * chunk_size, n_hands), first_hand, rules,
                    params, rows, scores, target, want_records, flat, acc, want_stats, bid_acc[ci], est_acc[ci])
        copy_into(summary[ci], acc)


def plain_run(params, rules) -> bool:
    """Whether hands of these strategies (``params``, a row per seat) and rules take the plain path
    (``hand.is_plain``)."""
    return bool(is_plain(strategy_rows(params), SEAT_ROWS, rules))


def simulate_kernel(params, rules):
    """The chunk kernel that simulates hands of these strategies and rules: ``plain_chunks`` on the plain path,
    else ``simulate_chunks``. Chosen here, once a run, so a run compiles only the path it takes."""
    return plain_chunks if plain_run(params, rules) else simulate_chunks


SIMULATE_KERNELS = (simulate_chunks, plain_chunks)  # what ``simulate_kernel`` may choose


@kernel(inline="always")
def plain_chunk(state, buf, deck, h_first, h_end, first_hand, rules, params, rows, scores, target, want_records, flat,
                acc, want_stats, bid_acc, est_acc):
    """Hands ``h_first .. h_end - 1`` of ``plain_chunks``, on the plain path (``is_plain``), into ``acc``.

    Each hand is dealt and auctioned in turn (``deal_plain``); a hand with a maker waits for the next one and
    the two are played together (``play_pair``), a last one alone. Each hand's record is its own row of
    ``flat`` (its row of the records, or one of two scratch rows; a summary run skips the plays, which nothing
    reads); the counters are sums, so the order in which hands are tallied changes nothing. No draw is made from
    the decision stream.
    """
    r0, r1, r2 = plain_rows(rows)
    need = (lead_need(rows[r0, P_LEAD_TRUMP]), lead_need(rows[r1, P_LEAD_TRUMP]), lead_need(rows[r2, P_LEAD_TRUMP]))
    sc = (scores[0], scores[1], scores[2])
    waiting = False
    wb = np.int64(0)  # the waiting hand's row, rotated hands, trump, maker, bid, trumps its maker needs to lead one
    wa = wb_ = wc = wt = wm = wbid = wn = np.int64(0)
    for h in range(h_first, h_end):
        base = h * R_WIDTH if want_records else (R_WIDTH - wb if waiting else 0)
        maker, bid, trump, h0, h1, h2 = deal_plain(state, buf, deck, (first_hand + h) % 3, rules, rows, r0, r1, r2,
                                                   sc, target, flat, base)
        if maker < 0:
            finish_hand_once(flat, base, maker, bid, 0, 0, 0, rules, acc)
            if want_stats:
                tally_bids(flat[base:base + R_WIDTH], params, bid_acc, est_acc)
            continue
        a, b, c = rotate_to(h0, h1, h2, maker, trump)
        n = need[0] if maker == 0 else (need[1] if maker == 1 else need[2])
        if not waiting:
            waiting = True
            wb, wa, wb_, wc, wt, wm, wbid, wn = base, a, b, c, trump, maker, bid, n
            continue
        t0, t1, t2, u0, u1, u2 = play_pair(wa, wb_, wc, wt, wm, wn, a, b, c, trump, maker, n, flat, wb, base,
                                           want_records)
        for k in range(2):  # one inlined copy of finish_hand for both hands
            finish_hand(flat, wb if k == 0 else base, wm if k == 0 else maker, wbid if k == 0 else bid,
                        t0 if k == 0 else u0, t1 if k == 0 else u1, t2 if k == 0 else u2, rules, acc)
        if want_stats:
            tally_bids(flat[wb:wb + R_WIDTH], params, bid_acc, est_acc)
            tally_bids(flat[base:base + R_WIDTH], params, bid_acc, est_acc)
        waiting = False
    if waiting:  # the last hand with a maker, played alongside itself
        t0, t1, t2, _, _, _ = play_pair(wa, wb_, wc, wt, wm, wn, wa, wb_, wc, wt, wm, wn, flat, wb, wb, want_records)
        finish_hand_once(flat, wb, wm, wbid, t0, t1, t2, rules, acc)
        if want_stats:
            tally_bids(flat[wb:wb + R_WIDTH], params, bid_acc, est_acc)


@chunk_kernel
def auction_chunks(lo, hi, states, dstates, chunk_size, n_hands, rules, params, target, makers):
    """Deal and hold the auction (swap included) for ``n_hands`` hands, without playing them.

    Exists to time the auction apart from the play (``bower profile``):
    ``makers[ci]`` counts the chunk's hands that found a maker.
    """
    for ci in range(lo, hi):
        state, dstate, buf, dbuf, deck, _, _, scores = chunk_scratch(states, dstates, ci)
        rows = strategy_rows(params)
        rng = (dstate[0], dstate[1], dstate[2], dstate[3], np.uint64(dbuf[0]), dbuf[1])  # the decision stream
        count = 0
        plain = is_plain(rows, SEAT_ROWS, rules)  # as simulate_chunks: the plain path's auction where it applies
        r0, r1, r2 = plain_rows(rows)
        for h in range(ci * chunk_size, min((ci + 1) * chunk_size, n_hands)):
            dealer = h % 3
            d0, d1, d2, ghost = deal_hand(state, buf, deck)
            h0 = d2 if dealer == 0 else (d1 if dealer == 1 else d0)  # as in kernels.ghost.play_dealt_core
            h1 = d0 if dealer == 0 else (d2 if dealer == 1 else d1)
            h2 = d1 if dealer == 0 else (d0 if dealer == 1 else d2)
            if plain:
                maker = auction_plain(h0, h1, h2, ghost, dealer, rules[G_SWAP], rules[G_STICK], rows, r0, r1, r2,
                                      (scores[0], scores[1], scores[2]), target)[0]
            else:
                out = auction_core(h0, h1, h2, ghost, dealer, rules[G_AUCTION], rules[G_SWAP], rules[G_STICK], rows,
                                   SEAT_ROWS, (scores[0], scores[1], scores[2]), target, force_of(NO_FORCE), rng)
                maker, rng = out[0], out[9]
            if maker >= 0:
                count += 1
        makers[ci] = count


@kernel
def deal_chunk(state, count, out):
    """Deals of ``count`` hands from one chunk state into ``out`` (count, 4): pos 1, 2, 3, ghost."""
    buf = np.zeros(2, np.int64)
    deck = np.empty(24, np.int64)
    for h in range(count):
        deal_packets(state, buf, deck, 24, 4, HAND_SIZE, out[h])


@kernel
def tally_strategies(rec, seat_strat, acc):
    """Add one hand to the per-strategy counters ``acc`` (row = strategy of the seat)."""
    maker = rec[R_MAKER]
    bidders = 0
    for i in range(rec[R_NCALLS]):
        if rec[R_CALLS + 2 * i + 1] != 0:
            bidders |= 1 << rec[R_CALLS + 2 * i]
    for s in range(N_SEATS):
        k = seat_strat[s]
        pts = rec[R_POINTS + s]
        acc[k, ST_HANDS] += 1
        acc[k, ST_POINTS] += pts
        acc[k, ST_POINTS_SQ] += pts * pts
        if (bidders >> s) & 1:
            acc[k, ST_BIDDER] += 1
        if rec[R_SWAP] == s:
            acc[k, ST_SWAPS] += 1
        if maker == s:
            level = rec[R_BID] - 3
            acc[k, ST_MAKER + level] += 1
            if rec[R_TRICKS + s] >= rec[R_BID]:
                acc[k, ST_MADE + level] += 1


@kernel
def play_game(state, buf, dstate, dbuf, deck, work, rec, rules, rows, seat_strat, target, max_hands, scores, start,
              hand_acc, strat_acc, search, eq=None):
    """Play one game to ``target`` from the first dealer ``FIRST_DEALER``; returns (winner, hands, tiebreak).

    Seat ``s`` plays strategy ``seat_strat[s]``, row of ``rows`` (``strategy_rows``).

    The deal passes left every hand, thrown-in hands included. After a hand,
    a unique highest score at or above the target wins; a tie at the top goes
    on (``tiebreak = highest``: until the highest is unique; ``playoff``: the
    tied players' next-hand points decide, repeating on a tie). A game with
    no winner after ``max_hands`` returns winner -1.

    The scores start at ``start`` (int64, by seat; 0s for a game from the beginning). ``eq``: the game-equity
    tables (``games_chunks``) or None (left out): the equity bidding compiled only when given. A searching seat's
    hand (``play_hand_once``) calls by the thresholds.
    """
    playoff = rules[G_TIEBREAK] == 1
    for s in range(N_SEATS):
        scores[s] = start[s]
    dealer = FIRST_DEALER
    contenders = 0  # playoff: bit per tied seat
    went_on = False
    for n in range(1, max_hands + 1):
        seat_rows = (seat_strat[0], seat_strat[1], seat_strat[2])
        if search is None:  # as in simulate_chunks
            play_hand(state, buf, dstate, dbuf, deck, work, dealer, rules, rows, seat_rows, scores, target, rec,
                      np.int64(0), search, eq)
        else:
            play_hand_once(state, buf, dstate, dbuf, deck, work, dealer, rules, rows, seat_rows, scores, target, rec,
                           np.int64(0), search)
        tally(rec, 0, hand_acc)
        tally_strategies(rec, seat_strat, strat_acc)
        for s in range(N_SEATS):
            scores[s] += rec[R_POINTS + s]
        dealer = (dealer + 1) % 3
        if contenders != 0:
            tied = top_seats(rec[R_POINTS], rec[R_POINTS + 1], rec[R_POINTS + 2], contenders)
            if tied & (tied - 1) == 0:
                return lowest(tied), n, True
            contenders = tied
            continue
        leaders = top_seats(scores[0], scores[1], scores[2], 7)
        if scores[lowest(leaders)] >= target:
            if leaders & (leaders - 1) == 0:
                return lowest(leaders), n, went_on
            went_on = True
            if playoff:
                contenders = leaders
    return -1, max_hands, went_on


@chunk_kernel
def games_chunks(lo, hi, states, chunk_sets, n_sets, assignments, duplicate, rules, strat_params, target, max_hands,
                 set_wins, game_out, hand_acc, strat_acc, game_acc, search, start, eq=None):
    """Play ``n_sets`` deal sets; in each, one game per seat assignment of the strategies.

    ``assignments[a, seat]`` is the strategy (row of ``strat_params``) in that
    seat. Set ``g`` draws a game seed from its chunk's stream; with
    ``duplicate`` every assignment replays the same deals from it, otherwise
    each assignment draws its own. The decision stream of (set, assignment)
    is seeded from the game seed and the assignment. Outputs: ``set_wins[g,
    strategy]`` (wins in the set), ``game_out[g * A + a]`` (winner, hands,
    scores), and per-chunk counters ``hand_acc``, ``strat_acc``, ``game_acc``.
    ``start``: every game's starting scores by seat (int64; 0s for games from the beginning). ``eq``: the game-equity
    bidder's tables (``strategy.equity_rows``; ``bower.sim.variants.ghost.equity_strategy``), None where no
    strategy bids by equity: the code that widens the rows is then not compiled (``bower.sim.variants.ghost``
    puts ``bower.sim.equity_bidder.GamesKernel``, which adds them, in this kernel's place).
    """
    n_assign = assignments.shape[0]
    for ci in range(lo, hi):
        chunk = states[ci].copy()
        state = np.empty(4, np.uint64)
        dstate = np.empty(4, np.uint64)
        buf = np.zeros(2, np.int64)
        dbuf = np.zeros(2, np.int64)
        deck = np.empty(24, np.int64)
        work = np.zeros(16, np.int64)
        rec = np.zeros(R_WIDTH, np.int64)
        scores = np.zeros(N_SEATS, np.int64)
        seat_strat = np.empty(N_SEATS, np.int64)
        h_acc = hand_acc[ci]
        s_acc = strat_acc[ci]
        g_acc = game_acc[ci]
        rows = strategy_rows(strat_params)
        if eq is not None:  # pruned when compiled for eq None
            rows = equity_rows(rows, strat_params, eq)
        for g in range(ci * chunk_sets, min((ci + 1) * chunk_sets, n_sets)):
            game_seed = next_u64(chunk)
            for a in range(n_assign):
                game_seed = seed_game(chunk, game_seed, a, duplicate, state, dstate, buf, dbuf)
                for s in range(N_SEATS):
                    seat_strat[s] = assignments[a, s]
                winner, n, went_on = play_game(state, buf, dstate, dbuf, deck, work, rec, rules, rows, seat_strat,
                                               target, max_hands, scores, start, h_acc, s_acc, search, eq)
                record_game(game_out[g * n_assign + a], g_acc, s_acc, set_wins[g], seat_strat, winner, n, went_on,
                            scores)

