"""Ghost Hand advice kernel: every open action evaluated on the same weighted deals ("should I bid 4?").

The player's six cards are fixed; the other 18 are dealt uniformly at random
to the two other players and the ghost (the only hard facts). Each deal gets
a weight from the model of the other players (``bower.kernels.ghost.model``): with
the exact model (``MODEL_EXACT``) 1 if the strategy, playing the other seats
on those cards, makes exactly the calls (and the swap) made before the
player's turn, else 0 (today's rejection sampling, on the same streams);
with the softmax model the product of the model's probabilities of the
observed swap decisions and calls. A deal of weight 0 is drawn and skipped;
a softmax weight below the chunk's mean so far goes through Russian roulette
(``bower.kernels.advice.roulette``: played at that mean with probability w/mean).
Each kept deal is then played once per action from the same cards and
decision-stream state, the player's decision at this turn forced to the
action, the observed decisions before it imposed (softmax; under the exact
model the strategy makes them itself) and everything after it left to the
strategy. Play-out row 0 is the strategy's play of the cards; row 1 the
double-dummy value of the same contract (same hands at the first lead, same
trump, maker and bid), maker's side against defenders' side as in every
variant: the maker's tricks are the solver's with the maker alone against
the other two; as every defender scores its own tricks in Ghost Hand, the
player's tricks as a defender are the solver's with the player alone
against the other two, and the other defender takes the rest (``dd_tricks``).
Points are the rules' scoring of those tricks. A hand thrown in scores 0 in
both rows.
"""

import numpy as np

from bower.kernels.arrays import copy_into
from bower.kernels.advice import (
    M_EPS,
    M_KIND,
    M_TAU,
    MODEL_EXACT,
    PLAY_DD,
    PLAY_STRATEGY,
    add_draw_products,
    reseed,
    seat_equity,
    tally_equity,
    roulette_step,
    tally_weighted,
)
from bower.kernels.deal import shuffle
from bower.kernels.ghost.codes import G_STICK, G_SWAP
from bower.kernels.ghost.hand import (
    F_AT,
    F_CALL,
    F_GIVEN,
    F_GIVEN_CALLS,
    F_SEAT,
    F_SWAP,
    F_SWAP_GIVEN,
    F_TRUMP,
    N_SEATS,
    N_TRICKS,
    NO_FORCE,
    R_BID,
    R_CALLS,
    R_MAKER,
    R_NCALLS,
    R_NPLAYS,
    R_PLAYS,
    R_POINTS,
    R_SWAP,
    R_TRICKS,
    R_TRUMP,
    auction,
    chunk_scratch,
    margin2,
    play_dealt_once,
    score_of,
)
from bower.kernels.ghost.model import MAX_CHOICES, N_FEATURES, deal_weight
from bower.kernels.jit import chunk_kernel, kernel
from bower.kernels.solve import TT_BITS, solve_position

ADVICE_DEALER = 2  # the dealer's seat: position p is seat p - 1
DD_ACTIVE = np.int64(0b0111)  # seats 0..2 in play for the solver (its seat 3, the ghost's place, holds nothing)


@kernel
def prefix_matches(rec, prefix, swap_given):
    """Whether a played auction starts with the calls ``prefix`` (k, 2) and the swap ``swap_given`` before them."""
    k = prefix.shape[0]
    if rec[R_NCALLS] <= k:
        return False
    for i in range(k):
        if rec[R_CALLS + 2 * i] != prefix[i, 0] or rec[R_CALLS + 2 * i + 1] != prefix[i, 1]:
            return False
    swapper = rec[R_SWAP]
    in_prefix = False
    if swapper >= 0:
        for i in range(k):
            if rec[R_CALLS + 2 * i] == swapper:
                in_prefix = True  # the swapper's first call, right after the swap, came before this turn
                break
    if in_prefix:
        return swapper == swap_given
    return swap_given < 0


@kernel(_nrt=False)
def strategy_reproduces(dealt, dstate, dbuf, hands, rules, params, scores, target, prefix, swap_given, rec):
    """The exact model's test: whether the strategy's own auction on ``dealt`` makes the calls and swap given."""
    for s in range(N_SEATS):
        hands[s] = dealt[s]
    auction(hands, dealt[3], np.int64(ADVICE_DEALER), rules, params, scores, target, NO_FORCE, dstate, dbuf, rec)
    return prefix_matches(rec, prefix, swap_given)


@kernel
def dd_tricks(rec, me, seen, values, n_seen, keys, tags, bounds, nodes, fl, trick, out):
    """Double-dummy tricks by seat (``out``) of the contract played in ``rec``, for the player in seat ``me``.

    The maker's tricks are the solver's with the maker alone against the
    other two. When ``me`` defends, its tricks are the solver's with it alone
    against the other two, and the other defender takes the rest (each
    seat's solver value is what it can guarantee, so the two never add up
    to more than 6). When ``me`` is the maker, the defenders' 6 - maker
    tricks go to the first defender: every defender scores its own tricks,
    so the split changes no point or margin of the maker. The hands at the
    first lead are each seat's played cards; solves are cached per deal in
    ``seen``/``values`` (``n_seen`` entries) by hands, trump and maker;
    ``keys[i], tags[i], bounds[i]`` is the transposition table
    (``solve.new_table``) of the maker's solves (i = 0) and the player's as
    a defender (i = 1). Returns the new ``n_seen``.
    """
    maker = rec[R_MAKER]
    trump = rec[R_TRUMP]
    for s in range(4):
        fl[s] = 0
    for i in range(rec[R_NPLAYS]):
        fl[rec[R_PLAYS + 2 * i]] |= np.int64(1) << rec[R_PLAYS + 2 * i + 1]
    for j in range(n_seen):
        if (seen[j, 0] == fl[0] and seen[j, 1] == fl[1] and seen[j, 2] == fl[2] and seen[j, 3] == trump
                and seen[j, 4] == maker):
            for s in range(N_SEATS):
                out[s] = values[j, s]
            return n_seen
    m = solve_position(fl, DD_ACTIVE, trump, trick, np.int64(0), maker, np.int64(1) << maker, keys[0], tags[0],
                       bounds[0], nodes)
    if me == maker:
        first = (maker + 1) % N_SEATS
        for s in range(N_SEATS):
            out[s] = 0
        out[maker] = m
        out[first] = N_TRICKS - m
    else:
        d = solve_position(fl, DD_ACTIVE, trump, trick, np.int64(0), maker, np.int64(1) << me, keys[1], tags[1],
                           bounds[1], nodes)
        out[maker] = m
        out[me] = d
        out[N_SEATS - maker - me] = N_TRICKS - m - d
    if n_seen < seen.shape[0]:
        seen[n_seen, 0] = fl[0]
        seen[n_seen, 1] = fl[1]
        seen[n_seen, 2] = fl[2]
        seen[n_seen, 3] = trump
        seen[n_seen, 4] = maker
        for s in range(N_SEATS):
            values[n_seen, s] = out[s]
        n_seen += 1
    return n_seen


@chunk_kernel
def advice_chunks(lo, hi, states, dstates, targets, max_draws, hand, seat, rules, params, scores, target_score, prefix,
                  swap_given, actions, model, playout, search, dd, eqt, draws, kept, wsum, acc, pts_xy, mar_xy, infer,
                  eacc, eq_xy):
    """Draw deals, weight them by the model and play every action on each one of positive weight.

    Chunk ``ci`` draws deals from ``states[ci]`` until it keeps ``targets[ci]``
    of positive weight or has drawn ``max_draws``; it writes ``draws[ci]``,
    ``kept[ci]``, ``wsum[ci]`` = (Σw, Σw²), the weighted counters
    ``acc[ci, row, a, W_*]`` and the weighted sums of products of the
    actions' points (``pts_xy[ci, row, a, b]``) and of twice their margins
    (``mar_xy``), row 0 for the strategy play-out (``playout & PLAY_STRATEGY``)
    and row 1 for the double-dummy one (``playout & PLAY_DD``), and
    ``infer[ci, s, j]`` = Σ w · feature j of seat s (``model.FEATURE_NAMES``).
    ``actions[a]`` = (swap, call, trump), -1 meaning "as the strategy does";
    ``model`` is ``bower.kernels.advice``'s model vector; ``params`` has a
    ``strategy_rows`` row per seat. ``search`` None compiles no search code
    (no seat searches: ``hand.search_arg``), ``dd`` None no double-dummy
    play-out (``playout`` without ``PLAY_DD``: ``advice.dd_arg``): only what
    the question uses is compiled. ``eqt``: the asker's game equity after each
    outcome (``advice.seat_equity``; empty without one: ``advice.eqt_arg``); its weighted
    sums ``eacc[ci, row, a, E_*]`` and products ``eq_xy[ci, row]`` as the points'.
    """
    n_actions = actions.shape[0]
    k = prefix.shape[0]
    exact = model[M_KIND] == MODEL_EXACT
    tau = model[M_TAU]
    eps = model[M_EPS]
    do_strategy = (playout & PLAY_STRATEGY) != 0
    do_dd = (playout & PLAY_DD) != 0
    for ci in range(lo, hi):
        state, dstate0, buf, dbuf0, _, rec, work, _ = chunk_scratch(states, dstates, ci)
        dstate = np.empty(4, np.uint64)
        dbuf = np.zeros(2, np.int64)
        unseen = np.empty(18, np.int64)
        n = 0
        for c in range(24):
            if (hand >> c) & 1 == 0:
                unseen[n] = c
                n += 1
        dealt = np.zeros(4, np.int64)
        hands = np.zeros(N_SEATS, np.int64)
        whands = np.zeros(N_SEATS, np.int64)
        force = NO_FORCE.copy()
        if not exact:  # the observed turns are imposed on every play-out (under the exact model the strategy's own)
            packed = np.int64(0)
            for i in range(k):
                packed |= ((prefix[i, 0] << 3) | prefix[i, 1]) << (5 * i)
            force[F_GIVEN] = k
            force[F_GIVEN_CALLS] = packed
            force[F_SWAP_GIVEN] = swap_given
        pts = np.zeros(n_actions)
        mar = np.zeros(n_actions)
        pts_dd = np.zeros(n_actions)
        mar_dd = np.zeros(n_actions)
        eq = np.zeros(n_actions)
        eq_d = np.zeros(n_actions)
        feats = np.zeros((N_SEATS, N_FEATURES))
        best_e = np.zeros(N_SEATS)
        dist = np.zeros(MAX_CHOICES)
        seen = np.zeros((n_actions, 5), np.int64)
        values = np.zeros((n_actions, N_SEATS), np.int64)
        fl = np.zeros(4, np.int64)
        trick = np.zeros(4, np.int64)
        tdd = np.zeros(N_SEATS, np.int64)
        nodes = np.zeros(1, np.int64)
        # the chunk's transposition tables (``solve.new_table``): the maker's solves, the player's as a defender
        n_tt = (1 << TT_BITS) if do_dd else 1
        keys = np.zeros((2, n_tt, 2), np.int64)
        tags = np.full((2, n_tt), -1, np.int16)
        bounds = np.zeros((2, n_tt, 2), np.int8)
        slots = np.empty(3, np.int64)  # dealing slots (pos 1, 2, 3, ghost) other than the player's
        j = 0
        for slot in range(4):
            if slot != seat:  # with the dealer in seat 2, position p (slot p - 1) is seat p - 1
                slots[j] = slot
                j += 1
        n_draws = 0
        n_kept = 0
        raw_sum = 0.0  # the softmax weights of the chunk's draws so far (the roulette's scale)
        raw_n = 0
        sw = 0.0
        sw2 = 0.0
        while n_kept < targets[ci] and n_draws < max_draws:
            n_draws += 1
            shuffle(state, buf, unseen, 18)
            for s in range(4):
                dealt[s] = 0
            dealt[seat] = hand
            for i in range(18):
                dealt[slots[i % 3]] |= np.int64(1) << unseen[i]
            for s in range(N_SEATS):
                whands[s] = dealt[s]  # dealer in seat 2: seat s holds dealing slot s
            w = deal_weight(whands, dealt[3], np.int64(ADVICE_DEALER), rules[G_STICK], rules[G_SWAP], params, scores,
                            target_score, prefix, swap_given, seat, tau, eps, feats, best_e, dist)
            if exact:
                # the strategy's own auction on these cards must reproduce the calls so far (today's test)
                copy_into(dstate, dstate0)
                copy_into(dbuf, dbuf0)
                ok = strategy_reproduces(dealt, dstate, dbuf, hands, rules, params, scores, target_score, prefix,
                                         swap_given, rec)
                w = 1.0 if ok else 0.0
            if not exact and w > 0.0:  # Russian roulette on light deals (``bower.kernels.advice.roulette``)
                w, raw_sum, raw_n = roulette_step(w, raw_sum, raw_n, state)
            if not w > 0.0:
                reseed(dstate0, dbuf0)
                continue
            n_kept += 1
            sw += w
            sw2 += w * w
            for s in range(N_SEATS):
                for f in range(N_FEATURES):
                    infer[ci, s, f] += w * feats[s, f]
            n_seen = np.int64(0)
            for a in range(n_actions):
                copy_into(dstate, dstate0)
                copy_into(dbuf, dbuf0)
                force[F_SEAT] = seat
                force[F_AT] = k
                force[F_SWAP] = actions[a, 0]
                force[F_CALL] = actions[a, 1]
                force[F_TRUMP] = actions[a, 2]
                play_dealt_once(dealt, dstate, dbuf, work, np.int64(ADVICE_DEALER), rules, params, scores,
                                target_score, force, rec, search)
                maker = rec[R_MAKER]
                bid = rec[R_BID]
                if do_strategy:
                    t = rec[R_TRICKS + seat]
                    p = rec[R_POINTS + seat]
                    m = margin2(rec, seat)
                    pts[a] = p
                    mar[a] = m
                    tally_weighted(acc[ci, 0, a], w, maker == seat, t >= bid, t, p, m)
                    if eqt.shape[0] > 0:  # an equity table (``advice.eqt_arg``)
                        e = seat_equity(eqt, rec[R_POINTS], rec[R_POINTS + 1], rec[R_POINTS + 2])
                        eq[a] = e[0]
                        tally_equity(eacc[ci, 0, a], w, e)
                if dd is not None and do_dd:  # pruned when compiled for dd None
                    if maker < 0:
                        td = 0
                        p = 0
                        m = 0
                        made = False
                        q0 = 0
                        q1 = 0
                        q2 = 0
                    else:
                        n_seen = dd_tricks(rec, seat, seen, values, n_seen, keys, tags, bounds, nodes, fl, trick, tdd)
                        q0, q1, q2 = score_of(maker, bid, tdd[0], tdd[1], tdd[2], rules)
                        td = tdd[seat]
                        p = q0 if seat == 0 else (q1 if seat == 1 else q2)
                        m = 2 * p - (q0 + q1 + q2 - p)
                        made = tdd[maker] >= bid
                    pts_dd[a] = p
                    mar_dd[a] = m
                    tally_weighted(acc[ci, 1, a], w, maker == seat, made, td, p, m)
                    if eqt.shape[0] > 0:
                        e = seat_equity(eqt, q0, q1, q2)
                        eq_d[a] = e[0]
                        tally_equity(eacc[ci, 1, a], w, e)
            add_draw_products(w, do_strategy, do_dd, eqt.shape[0] > 0, pts, mar, pts_dd, mar_dd, eq, eq_d,
                              pts_xy[ci], mar_xy[ci], eq_xy[ci])
            reseed(dstate0, dbuf0)
        draws[ci] = n_draws
        kept[ci] = n_kept
        wsum[ci, 0] = sw
        wsum[ci, 1] = sw2
