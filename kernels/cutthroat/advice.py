"""Cutthroat advice kernel: every open call evaluated on the same weighted deals ("should I order it up?").

The player's five cards and the up-card are fixed; the other 18 cards are
dealt uniformly to the two other players (5 each), the dummy (5) and the rest
of the kitty (3). Each deal gets a weight from the model of the other players
(``model``, ``bower.kernels.advice.M_*``):

- exact (``MODEL_EXACT``): 1 if the strategy, playing every seat on those
  cards, passes exactly as the calls before the player's turn did, else 0 (the
  old rejection sampling, same draws and numbers);
- softmax (``MODEL_SOFTMAX``): the product over the other seats' observed
  passes of the model's choice probability (``bower.kernels.cutthroat.model``). A
  seat playing the random preset draws its calls from the decision stream, so
  a deal is also skipped when those draws are not the observed passes (random
  calls say nothing about the cards: the deal distribution is unchanged).

A deal of weight 0 counts in ``draws`` only. A softmax weight ``w`` below
``r = kernels.advice.ROULETTE`` times the chunk's mean weight over its draws so far goes
through Russian roulette: the deal is played with probability ``w / r`` (a
uniform from the chunk's deal stream), at weight ``r``, else skipped like a
weight 0. ``r`` depends only on earlier draws, so the weighted sums stay
unbiased; the deals the calls make far less likely than the typical one stop
costing a play-out (and a solve) each for almost nothing in the effective
sample size. Each kept deal is played once per
action from the same cards and decision-stream state: the player's call at
this turn (and, if given, going alone) forced, the observed passes forced (the
strategy's round-one and round-two thresholds of the seats that passed are set
out of reach for the replay; the player's own round-one pass too), everything
else left to the strategy. With ``playout & PLAY_STRATEGY`` the strategy's
play-out is tallied into row 0; with ``playout & PLAY_DD`` the same contract is
scored double dummy into row 1: the hands at the first lead (each seat's played
cards, after the exchange, the merge and any lone hands), the maker against
the rest, solved with one table per chunk; the maker's double-dummy tricks are
scored by the kernel's ``score_hand`` (lone maker and lone defender as played).
The player's dd "tricks" are the maker's tricks when it made trump, else the
defenders' together (the solver measures the maker's side only).
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
from bower.kernels.cutthroat.drivers import _scratch
from bower.kernels.cutthroat.hand import (
    CALL_PASS,
    F_ALONE,
    F_AT,
    F_CALL,
    F_SEAT,
    MAKER_NEEDS,
    N_SEATS,
    NO_FORCE,
    R_ALONE,
    R_CALLS,
    R_MAKER,
    R_NCALLS,
    R_NPLAYS,
    R_PLAYS,
    R_POINTS,
    R_TRICKS,
    R_TRUMP,
    auction,
    force_of,
    play_dealt_once,
    score_hand,
)
from bower.kernels.cutthroat.model import pass_weight
from bower.kernels.cutthroat.strategy import (
    Q_ASSIST,
    Q_NAME,
    Q_ORDER,
    Q_RANDOM,
    Q_TAKE,
    Q_VOID,
    card_weights,
)
from bower.kernels.deal import shuffle
from bower.kernels.estimate import estimate
from bower.kernels.jit import chunk_kernel, kernel
from bower.kernels.solve import new_table, solve_position

ADVICE_DEALER = 2  # the dealer's seat: position p is seat p - 1
N_FEATURES = 2  # per seat: the estimate of the up-card's suit as dealt, whether it holds that suit's right bower


@kernel(inline="always")
def _margin2(rec, seat):
    """Twice the seat's points minus the two others' (twice its margin over their mean)."""
    m = 2 * rec[R_POINTS + seat]
    for s in range(N_SEATS):
        if s != seat:
            m -= rec[R_POINTS + s]
    return m


@kernel
def forced_passes(params, dealer, n_passes):
    """A copy of ``params`` in which every seat passing at the first ``n_passes`` calls cannot do otherwise.

    Round one's order / assist / take thresholds and round two's naming
    threshold are read only at those decisions, so setting them to infinity
    forces the pass without changing anything else the seat does.
    """
    out = params.copy()
    for i in range(n_passes):
        p = i % 3 + 1
        seat = (dealer + p) % 3
        if i < 3:
            out[seat, Q_ORDER if p == 1 else (Q_ASSIST if p == 2 else Q_TAKE)] = np.inf
        else:
            out[seat, Q_NAME] = np.inf
    return out


@kernel
def dd_score(rec, rules, keys, tags, bounds, nodes, hands4, trick, points):
    """Score the contract of a played record double dummy: (maker's tricks, or -1 when thrown in); points into ``points``."""
    maker = rec[R_MAKER]
    for s in range(N_SEATS):
        points[s] = 0
    if maker < 0:
        return -1
    for s in range(4):
        hands4[s] = 0
    active = 0
    for k in range(rec[R_NPLAYS]):
        s = rec[R_PLAYS + 2 * k]
        hands4[s] |= np.int64(1) << rec[R_PLAYS + 2 * k + 1]
        active |= 1 << s
    leader = rec[R_PLAYS]
    mt = solve_position(hands4, np.int64(active), np.int64(rec[R_TRUMP]), trick, np.int64(0), np.int64(leader),
                        np.int64(1 << maker), keys, tags, bounds, nodes)
    alone = rec[R_ALONE]
    lone_def = -1
    for s in range(N_SEATS):
        if s != maker and (alone >> s) & 1:
            lone_def = s
    score_hand(maker, mt, (alone >> maker) & 1 == 1, lone_def, rules, points)
    return mt


@chunk_kernel
def advice_chunks(lo, hi, states, dstates, targets, max_draws, hand, up, seat, rules, params, n_passes, actions, model,
                  playout, search, dd, eqt, draws, kept, wsum, acc, pts_xy, mar_xy, infer, eacc, eq_xy):
    """Draw weighted deals given the ``n_passes`` passes before the player's turn, and play every action on each.

    ``actions[a]`` = (call code, alone: -1 strategy, 0 no, 1 yes). Chunk
    ``ci`` draws until it keeps ``targets[ci]`` deals of positive weight or has
    drawn ``max_draws``, writing ``draws[ci]``, ``kept[ci]``, ``wsum[ci]`` =
    (Σw, Σw²), the weighted counters ``acc[ci, row, a, W_*]`` and sums of
    weighted products of the actions' points and doubled margins
    ``pts_xy``/``mar_xy[ci, row]`` (row 0 the strategy's play-out, row 1 double
    dummy) and ``infer[ci, s, f]`` (Σw·feature f of seat s, ``N_FEATURES``).
    ``search`` None compiles no search code (no seat searches:
    ``hand.search_arg``), ``dd`` None no double-dummy play-out (``playout``
    without ``PLAY_DD``: ``advice.dd_arg``). ``eqt``: the asker's game equity
    after each outcome (``advice.seat_equity``; empty without one: ``advice.eqt_arg``);
    its weighted sums ``eacc[ci, row, a, E_*]`` and products ``eq_xy[ci, row]``
    as the points'.
    """
    n_actions = actions.shape[0]
    exact = model[M_KIND] == MODEL_EXACT
    tau = model[M_TAU]
    eps = model[M_EPS]
    do_play = (playout & PLAY_STRATEGY) != 0
    do_dd = (playout & PLAY_DD) != 0
    u = up // 6
    right = u * 6 + 2
    any_random = False
    for s in range(N_SEATS):
        if params[s, Q_RANDOM] >= 0.5:
            any_random = True
    for ci in range(lo, hi):
        state = states[ci].copy()
        dstate0 = dstates[ci].copy()
        buf, dbuf0, _, _, _, (hands, tricks, points), pw, pm, wt, order, rec = _scratch()
        card_weights(params, wt, order)
        pplay = params.copy() if exact else forced_passes(params, np.int64(ADVICE_DEALER), n_passes)
        keys, tags, bounds = new_table()
        nodes = np.zeros(1, np.int64)
        hands4 = np.zeros(4, np.int64)
        trick = np.zeros(4, np.int64)
        dpts = np.zeros(N_SEATS, np.int64)
        dist = np.zeros(8)
        dstate = np.empty(4, np.uint64)
        dbuf = np.zeros(2, np.int64)
        unseen = np.empty(18, np.int64)
        n = 0
        for c in range(24):
            if (hand >> c) & 1 == 0 and c != up:
                unseen[n] = c
                n += 1
        dealt = np.zeros(4, np.int64)
        kitty = np.zeros(4, np.int64)
        kitty[0] = up
        force = NO_FORCE.copy()
        pts = np.zeros(n_actions, np.int64)
        mar = np.zeros(n_actions, np.int64)
        dd_pts = np.zeros(n_actions, np.int64)
        dd_mar = np.zeros(n_actions, np.int64)
        eq = np.zeros(n_actions, np.float64)
        eq_d = np.zeros(n_actions, np.float64)
        slots = np.empty(3, np.int64)  # the hands dealt at random: the two other seats and the dummy
        j = 0
        for slot in range(4):
            if slot != seat:
                slots[j] = slot
                j += 1
        n_draws = 0
        n_kept = 0
        sw = 0.0
        sw2 = 0.0
        raw_sum = 0.0  # the softmax weights of the chunk's draws so far (the roulette's scale)
        raw_n = 0
        while n_kept < targets[ci] and n_draws < max_draws:
            n_draws += 1
            shuffle(state, buf, unseen, 18)
            for s in range(4):
                dealt[s] = 0
            dealt[seat] = hand
            for i in range(15):
                dealt[slots[i % 3]] |= np.int64(1) << unseen[i]
            for i in range(3):
                kitty[1 + i] = unseen[15 + i]
            copy_into(dstate, dstate0)
            copy_into(dbuf, dbuf0)
            for s in range(N_SEATS):
                hands[s] = dealt[s]  # dealer in seat 2: position p is seat p - 1
            w = 1.0
            if exact or any_random:  # the strategy's (or the random seats') own calls must be the observed passes
                auction(hands, up, np.int64(ADVICE_DEALER), rules, pplay, wt, force_of(NO_FORCE), dstate, dbuf, rec)
                keep = rec[R_NCALLS] > n_passes
                for i in range(n_passes):
                    if rec[R_CALLS + 2 * i + 1] != CALL_PASS:
                        keep = False
                if not keep:
                    w = 0.0
                for s in range(N_SEATS):
                    hands[s] = dealt[s]  # undo the dealer's exchange
            if not exact and w > 0.0:
                w = pass_weight(hands, up, np.int64(ADVICE_DEALER), seat, n_passes, rules, params, wt, tau, eps, dist)
                w, raw_sum, raw_n = roulette_step(w, raw_sum, raw_n, state)
            if w <= 0.0:
                reseed(dstate0, dbuf0)
                continue
            n_kept += 1
            sw += w
            sw2 += w * w
            for s in range(N_SEATS):
                if s != seat:
                    infer[ci, s, 0] += w * estimate(dealt[s], u, wt, s, params[s, Q_VOID])
                    infer[ci, s, 1] += w * ((dealt[s] >> right) & 1)
            for a in range(n_actions):
                copy_into(dstate, dstate0)
                copy_into(dbuf, dbuf0)
                force[F_SEAT] = seat
                force[F_AT] = n_passes
                force[F_CALL] = actions[a, 0]
                force[F_ALONE] = actions[a, 1]
                play_dealt_once(dealt, kitty, np.int64(ADVICE_DEALER), rules, pplay, wt, order, force, dstate, dbuf,
                                hands, tricks, points, pw, pm, rec, search)
                maker = rec[R_MAKER]
                if do_play:
                    t = rec[R_TRICKS + seat]
                    p = rec[R_POINTS + seat]
                    m = _margin2(rec, seat)
                    pts[a] = p
                    mar[a] = m
                    tally_weighted(acc[ci, 0, a], w, maker == seat, t >= MAKER_NEEDS, t, p, m)
                    if eqt.shape[0] > 0:  # an equity table (``advice.eqt_arg``)
                        e = seat_equity(eqt, rec[R_POINTS], rec[R_POINTS + 1], rec[R_POINTS + 2])
                        eq[a] = e[0]
                        tally_equity(eacc[ci, 0, a], w, e)
                if dd is not None and do_dd:  # pruned when compiled for dd None
                    mt = dd_score(rec, rules, keys, tags, bounds, nodes, hands4, trick, dpts)
                    if mt < 0:
                        t = 0
                    else:
                        t = mt if maker == seat else 5 - mt
                    p = dpts[seat]
                    m = 2 * dpts[seat]
                    for s in range(N_SEATS):
                        if s != seat:
                            m -= dpts[s]
                    dd_pts[a] = p
                    dd_mar[a] = m
                    tally_weighted(acc[ci, 1, a], w, maker == seat, mt >= MAKER_NEEDS, t, p, m)
                    if eqt.shape[0] > 0:
                        e = seat_equity(eqt, dpts[0], dpts[1], dpts[2])
                        eq_d[a] = e[0]
                        tally_equity(eacc[ci, 1, a], w, e)
            add_draw_products(w, do_play, do_dd, eqt.shape[0] > 0, pts, mar, dd_pts, dd_mar, eq, eq_d,
                              pts_xy[ci], mar_xy[ci], eq_xy[ci])
            reseed(dstate0, dbuf0)
        draws[ci] = n_draws
        kept[ci] = n_kept
        wsum[ci, 0] = sw
        wsum[ci, 1] = sw2
