"""Ghost Hand simulation drivers: independent hands, whole games and duplicate experiments.

Parallel loops run over chunks; each chunk owns its RNG state and writes only
its own rows of the outputs (``summary[ci]``, ``strat_acc[ci]``, its games'
rows), and the Python layer merges them, so results never depend on threads.
"""

import numpy as np
from numba import prange

from kernels.bits import lowest
from kernels.deal import deal_four, deal_packets
from kernels.ghost import (
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
    auction_core,
    chunk_scratch,
    play_hand,
    tally,
)
from kernels.ghost_stats import tally_bids
from kernels.ghost_strategy import strategy_rows
from kernels.jit import kernel
from kernels.rng import next_u64, splitmix_seed
from sim.rules import G_AUCTION, G_STICK, G_SWAP, G_TIEBREAK

# Per-strategy counters (int64 row per strategy, per chunk).
ST_HANDS = 0  # seat-hands played
ST_POINTS = 1
ST_POINTS_SQ = 2
ST_BIDDER = 3  # hands in which the seat made at least one bid
ST_MAKER = 4  # 4 counters: auctions won at 3, 4, 5, moon
ST_MADE = 8  # 4 counters: of those, made
ST_SWAPS = 12
ST_GAMES = 13  # seat-games played
ST_WINS = 14
ST_WIDTH = 15

# Game counters (int64 row per chunk).
GA_GAMES = 0
GA_HANDS = 1
GA_UNFINISHED = 2  # games stopped at max_hands without a winner
GA_MARGIN = 3  # sum of winner's score minus the best other score
GA_WINS = 4  # 3 counters: wins by starting position (seat + 1)
GA_TIEBREAKS = 7  # games that went past a tie at the top
GA_HANDS_SQ = 8
GA_WIDTH = 9

# Per-game output row: winner seat (-1 unfinished), hands, final scores by seat.
GO_WINNER = 0
GO_HANDS = 1
GO_SCORES = 2
GO_WIDTH = 5

FIRST_DEALER = 2  # seat 0 is position 1 in a game's first hand
DECISION_MIX = np.uint64(0xD1B54A32D192ED03)


@kernel(parallel=True)
def simulate_chunks(states, dstates, first_hand, chunk_size, n_hands, rules, params, target, want_records, records,
                    summary, bid_acc, est_acc):
    """Simulate hands ``first_hand .. first_hand + n_hands - 1`` in chunks, one RNG state per chunk.

    Chunk ``i`` plays hands ``i*chunk_size ..`` (relative) from deal state
    ``states[i]`` and decision state ``dstates[i]``, writing only
    ``summary[i]``, when ``want_records`` its own rows of ``records``, and,
    when ``bid_acc`` has cells (``bid_acc.shape[1] > 0``), its bid
    histograms ``bid_acc[i]`` and ``est_acc[i]`` (``ghost_stats``). The
    dealer of hand h is ``h % 3``; ``params`` has a row per seat.
    """
    want_stats = bid_acc.shape[1] > 0
    for ci in prange(states.shape[0]):
        state, dstate, buf, dbuf, deck, scratch, work, scores = chunk_scratch(states, dstates, ci)
        rows = strategy_rows(params)
        acc = np.zeros(S_WIDTH, np.int64)
        flat = records.reshape(-1) if want_records else scratch  # each hand writes its row at ``base``
        for h in range(ci * chunk_size, min((ci + 1) * chunk_size, n_hands)):
            base = h * R_WIDTH if want_records else 0
            play_hand(state, buf, dstate, dbuf, deck, work, (first_hand + h) % 3, rules, rows, SEAT_ROWS, scores,
                      target, flat, base)
            tally(flat, base, acc)
            if want_stats:
                tally_bids(flat[base:base + R_WIDTH], params, bid_acc[ci], est_acc[ci])
        summary[ci, :] = acc


@kernel(parallel=True)
def auction_chunks(states, dstates, chunk_size, n_hands, rules, params, target, makers):
    """Deal and hold the auction (swap included) for ``n_hands`` hands, without playing them.

    Exists to time the auction apart from the play (``bower profile``):
    ``makers[ci]`` counts the chunk's hands that found a maker.
    """
    for ci in prange(states.shape[0]):
        state, dstate, buf, dbuf, deck, _, _, scores = chunk_scratch(states, dstates, ci)
        rows = strategy_rows(params)
        rng = (dstate[0], dstate[1], dstate[2], dstate[3], np.uint64(dbuf[0]), dbuf[1])  # the decision stream
        count = 0
        for h in range(ci * chunk_size, min((ci + 1) * chunk_size, n_hands)):
            dealer = h % 3
            d0, d1, d2, ghost = deal_four(state, buf, deck)
            h0 = d2 if dealer == 0 else (d1 if dealer == 1 else d0)  # as in kernels.ghost.play_dealt_core
            h1 = d0 if dealer == 0 else (d2 if dealer == 1 else d1)
            h2 = d1 if dealer == 0 else (d0 if dealer == 1 else d2)
            out = auction_core(h0, h1, h2, ghost, dealer, rules[G_AUCTION], rules[G_SWAP], rules[G_STICK], rows,
                               SEAT_ROWS, (scores[0], scores[1], scores[2]), target,
                               (NO_FORCE[0], NO_FORCE[1], NO_FORCE[2], NO_FORCE[3], NO_FORCE[4]), rng)
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
def _top_seats(v0, v1, v2, among):
    """Bit mask of the seats in ``among`` (bit per seat) that hold the highest of the values v0, v1, v2."""
    best = -(1 << 62)
    for s in range(N_SEATS):
        v = v0 if s == 0 else (v1 if s == 1 else v2)
        if (among >> s) & 1 and v > best:
            best = v
    top = 0
    for s in range(N_SEATS):
        v = v0 if s == 0 else (v1 if s == 1 else v2)
        if (among >> s) & 1 and v == best:
            top |= 1 << s
    return top


@kernel
def play_game(state, buf, dstate, dbuf, deck, work, rec, rules, rows, seat_strat, target, max_hands, scores, hand_acc,
              strat_acc):
    """Play one game to ``target`` from the first dealer ``FIRST_DEALER``; returns (winner, hands, tiebreak).

    Seat ``s`` plays strategy ``seat_strat[s]``, row of ``rows`` (``strategy_rows``).

    The deal passes left every hand, thrown-in hands included. After a hand,
    a unique highest score at or above the target wins; a tie at the top goes
    on (``tiebreak = highest``: until the highest is unique; ``playoff``: the
    tied players' next-hand points decide, repeating on a tie). A game with
    no winner after ``max_hands`` returns winner -1.
    """
    playoff = rules[G_TIEBREAK] == 1
    for s in range(N_SEATS):
        scores[s] = 0
    dealer = FIRST_DEALER
    contenders = 0  # playoff: bit per tied seat
    went_on = False
    for n in range(1, max_hands + 1):
        seat_rows = (seat_strat[0], seat_strat[1], seat_strat[2])
        play_hand(state, buf, dstate, dbuf, deck, work, dealer, rules, rows, seat_rows, scores, target, rec, np.int64(0))
        tally(rec, 0, hand_acc)
        tally_strategies(rec, seat_strat, strat_acc)
        for s in range(N_SEATS):
            scores[s] += rec[R_POINTS + s]
        dealer = (dealer + 1) % 3
        if contenders != 0:
            tied = _top_seats(rec[R_POINTS], rec[R_POINTS + 1], rec[R_POINTS + 2], contenders)
            if tied & (tied - 1) == 0:
                return lowest(tied), n, True
            contenders = tied
            continue
        leaders = _top_seats(scores[0], scores[1], scores[2], 7)
        if scores[lowest(leaders)] >= target:
            if leaders & (leaders - 1) == 0:
                return lowest(leaders), n, went_on
            went_on = True
            if playoff:
                contenders = leaders
    return -1, max_hands, went_on


@kernel(inline="always")
def seed_game(chunk, game_seed, a, duplicate, state, dstate, buf, dbuf):
    """Seed the deal and decision streams of assignment ``a``'s game in a set; returns the game seed used.

    With ``duplicate`` every assignment replays the set's game seed, otherwise
    each after the first draws its own from the chunk's stream.
    """
    if a > 0 and not duplicate:
        game_seed = next_u64(chunk)
    splitmix_seed(game_seed, state)
    splitmix_seed(game_seed ^ (DECISION_MIX * np.uint64(a + 1)), dstate)
    buf[1] = 0
    dbuf[1] = 0
    return game_seed


@kernel(inline="always")
def record_game(row, g_acc, s_acc, set_wins_g, seat_strat, winner, n, went_on, scores):
    """Book one finished game: its output ``row`` and the game, per-strategy and set-win counters.

    ``winner`` indexes ``scores`` (a seat, or in Hasenpfeffer a side, whose
    strategy is that of seat ``winner``); -1 for unfinished. The margin is
    the winner's score minus the best other.
    """
    row[GO_WINNER] = winner
    row[GO_HANDS] = n
    for s in range(scores.shape[0]):
        row[GO_SCORES + s] = scores[s]
    for s in range(seat_strat.shape[0]):
        s_acc[seat_strat[s], ST_GAMES] += 1
    g_acc[GA_GAMES] += 1
    g_acc[GA_HANDS] += n
    g_acc[GA_HANDS_SQ] += n * n
    if went_on:
        g_acc[GA_TIEBREAKS] += 1
    if winner < 0:
        g_acc[GA_UNFINISHED] += 1
        return
    s_acc[seat_strat[winner], ST_WINS] += 1
    set_wins_g[seat_strat[winner]] += 1
    g_acc[GA_WINS + winner] += 1
    other = -(1 << 30)
    for s in range(scores.shape[0]):
        if s != winner and scores[s] > other:
            other = scores[s]
    g_acc[GA_MARGIN] += scores[winner] - other


@kernel(parallel=True)
def games_chunks(states, chunk_sets, n_sets, assignments, duplicate, rules, strat_params, target, max_hands,
                 set_wins, game_out, hand_acc, strat_acc, game_acc):
    """Play ``n_sets`` deal sets; in each, one game per seat assignment of the strategies.

    ``assignments[a, seat]`` is the strategy (row of ``strat_params``) in that
    seat. Set ``g`` draws a game seed from its chunk's stream; with
    ``duplicate`` every assignment replays the same deals from it, otherwise
    each assignment draws its own. The decision stream of (set, assignment)
    is seeded from the game seed and the assignment. Outputs: ``set_wins[g,
    strategy]`` (wins in the set), ``game_out[g * A + a]`` (winner, hands,
    scores), and per-chunk counters ``hand_acc``, ``strat_acc``, ``game_acc``.
    """
    n_assign = assignments.shape[0]
    for ci in prange(states.shape[0]):
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
        for g in range(ci * chunk_sets, min((ci + 1) * chunk_sets, n_sets)):
            game_seed = next_u64(chunk)
            for a in range(n_assign):
                game_seed = seed_game(chunk, game_seed, a, duplicate, state, dstate, buf, dbuf)
                for s in range(N_SEATS):
                    seat_strat[s] = assignments[a, s]
                winner, n, went_on = play_game(state, buf, dstate, dbuf, deck, work, rec, rules, rows, seat_strat,
                                               target, max_hands, scores, h_acc, s_acc)
                record_game(game_out[g * n_assign + a], g_acc, s_acc, set_wins[g], seat_strat, winner, n, went_on,
                            scores)
