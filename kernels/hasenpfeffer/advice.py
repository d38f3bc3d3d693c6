"""Hasenpfeffer advice kernel: every open call evaluated on the same weighted deals ("should I bid 4?").

The player's six cards are fixed; the other 19 are dealt uniformly at random
to the three other players (six each) and the widow. Each draw gets a
weight from the model of the other players (``model``, ``bower.kernels.advice.M_*``):

- exact (today's rejection): 1 if the strategy, playing every seat on those
  cards, makes exactly the calls before the player's turn (the player's own
  earlier calls included), else 0; each kept deal is then played once per
  action with ``play_dealt`` and the player's call forced, as before;
- softmax: the product over the other seats' observed calls of the model's
  probability of each (``bower.kernels.hasenpfeffer.model``), a weight below the
  chunk's mean so far through Russian roulette (``bower.kernels.advice.roulette``);
  the play-out gives the observed calls (``hand.F_GIVEN``), then the player's
  action, and leaves the rest of the auction, the widow and the play to the
  strategy.

A draw of weight 0 counts in ``draws``, not in ``kept``. Each kept deal is
played once per action from the same cards and decision-stream state. Row 0
(``playout & PLAY_STRATEGY``) tallies the strategy's play-out; row 1
(``playout & PLAY_DD``) the same contract scored double dummy: the hands at
the first lead (each seat's played cards: after the widow and the discard)
solved for the bidding side against the other, from the first leader, with
one transposition table per chunk, the actions of a deal that reach the same
contract sharing one solve; the bidding side's tricks are scored by
``score_hand`` (a hand thrown in scores 0 in both rows). Points and tricks
are the player's side's; the margin is twice the side's points minus the
other side's (doubled, as before).
"""

import numpy as np

from bower.kernels.arrays import copy_into
from bower.kernels.advice import (
    M_KIND,
    MODEL_EXACT,
    PLAY_DD,
    PLAY_STRATEGY,
    add_draw_products,
    reseed,
    side_equity,
    tally_equity,
    roulette_step,
    tally_weighted,
)
from bower.kernels.deal import shuffle
from bower.kernels.hasenpfeffer.drivers import _scratch
from bower.kernels.hasenpfeffer.hand import (
    F_AT,
    F_CALL,
    F_GIVEN,
    F_GIVEN_CALLS,
    F_SEAT,
    JOKER,
    N_SEATS,
    N_TRICKS,
    NO_FORCE,
    R_BID,
    R_BIDDER,
    R_CALLS,
    R_NCALLS,
    R_NPLAYS,
    R_PLAYS,
    R_POINTS,
    R_TRICKS,
    R_TRUMP,
    auction,
    bid_need,
    card_weights,
    play_dealt_once,
    score_hand,
)
from bower.kernels.hasenpfeffer.model import MAX_CHOICES, auction_weight, features
from bower.kernels.jit import chunk_kernel, kernel
from bower.kernels.solve import new_table, solve_position

ADVICE_DEALER = 3  # the dealer's seat: position p is seat p - 1


@kernel
def play_after(dealt, widow, dealer, rules, params, wt, prefix, player, call_now, dstate, dbuf, work, rec):
    """``hand.play_dealt`` with the calls ``prefix`` (k, 2) given as observed and ``player``'s call ``call_now`` next.

    The rest of the auction and the play are the strategy's (random seats draw from the decision stream):
    the advice kernel's weighted play-out of one action, for the tests.
    """
    force = NO_FORCE.copy()
    k = prefix.shape[0]
    force[F_GIVEN] = k
    for i in range(k):
        force[F_GIVEN_CALLS + i] = prefix[i, 1]
    force[F_SEAT] = player
    force[F_AT] = k
    force[F_CALL] = call_now
    play_dealt_once(dealt, widow, dealer, rules, params, wt, force, dstate, dbuf, work, rec, rec)


@kernel
def dd_tricks(rec, lead_hands, trick, keys, tags, bounds, nodes, seen, n_seen):
    """The bidding side's double-dummy tricks of a played record, from the hands at the first lead; (tricks, n_seen).

    The level bid changes the score, not the play: the actions of one deal that
    reach the same hands at the first lead, trump, first leader and bidding side
    share one solve, cached in ``seen`` (rows: 4 hands, trump, leader, bidder's
    side, tricks; ``n_seen`` of them filled).
    """
    bidder = rec[R_BIDDER]
    for s in range(N_SEATS):
        lead_hands[s] = 0
    for i in range(rec[R_NPLAYS]):
        lead_hands[rec[R_PLAYS + 2 * i]] |= np.int64(1) << rec[R_PLAYS + 2 * i + 1]
    trump = rec[R_TRUMP]
    leader = rec[R_PLAYS]
    side = bidder % 2
    for j in range(n_seen):
        if (seen[j, 0] == lead_hands[0] and seen[j, 1] == lead_hands[1] and seen[j, 2] == lead_hands[2]
                and seen[j, 3] == lead_hands[3] and seen[j, 4] == trump and seen[j, 5] == leader
                and seen[j, 6] == side):
            return seen[j, 7], n_seen
    sides = np.int64((1 << bidder) | (1 << ((bidder + 2) % 4)))
    taken = solve_position(lead_hands, np.int64(15), trump, trick, np.int64(0), leader, sides, keys, tags, bounds,
                           nodes)
    if n_seen < seen.shape[0]:
        for s in range(N_SEATS):
            seen[n_seen, s] = lead_hands[s]
        seen[n_seen, 4] = trump
        seen[n_seen, 5] = leader
        seen[n_seen, 6] = side
        seen[n_seen, 7] = taken
        n_seen += 1
    return taken, n_seen


@chunk_kernel
def advice_chunks(lo, hi, states, dstates, targets, max_draws, hand, seat, rules, params, prefix, actions, model,
                  playout, search, dd, eqt, draws, kept, wsum, acc, pts_xy, mar_xy, infer, eacc, eq_xy):
    """Weighted deals for the calls ``prefix`` (k, 2) before ``seat``'s turn; every action played on each.

    ``actions[a]`` is the level called (0 = pass); ``model`` the model vector,
    ``playout`` the play-out bits. Outputs per chunk ``ci``: ``draws``,
    ``kept`` (deals of positive weight), ``wsum[ci]`` (Σw, Σw²), ``acc[ci, row, a]``
    the weighted counters (``bower.kernels.advice.W_*``; row 0 strategy, 1 double
    dummy), ``pts_xy``/``mar_xy[ci, row]`` the weighted products,
    ``infer[ci, s]`` Σw·(best suit estimate, joker held) of each other seat.
    ``search`` None compiles no search code (no seat searches:
    ``hand.search_arg``), ``dd`` None no double-dummy play-out (``playout``
    without ``PLAY_DD``: ``advice.dd_arg``). ``eqt``: the asker's game equity
    after each outcome (``advice.side_equity``; empty without one: ``advice.eqt_arg``);
    its weighted sums ``eacc[ci, row, a, E_*]`` and products ``eq_xy[ci, row]``
    as the points'.
    """
    n_actions = actions.shape[0]
    k = prefix.shape[0]
    side = seat % 2
    exact = model[M_KIND] == MODEL_EXACT
    do_strategy = (playout & PLAY_STRATEGY) != 0
    do_dd = (playout & PLAY_DD) != 0
    for ci in range(lo, hi):
        state = states[ci].copy()
        dstate0 = dstates[ci].copy()
        buf, dbuf0, _, work, wt, rec = _scratch()
        card_weights(params, wt)
        dstate = np.empty(4, np.uint64)
        dbuf = np.zeros(2, np.int64)
        unseen = np.empty(19, np.int64)
        n = 0
        for c in range(25):
            if (hand >> c) & 1 == 0:
                unseen[n] = c
                n += 1
        dealt = np.zeros(N_SEATS, np.int64)
        hands = np.zeros(N_SEATS, np.int64)
        force = NO_FORCE.copy()  # the player's call at its turn; the observed calls before it given (softmax)
        unforced = NO_FORCE.copy()  # a copy, not the read-only global: ``auction`` compiles once
        force[F_SEAT] = seat
        force[F_AT] = k
        if not exact:
            force[F_GIVEN] = k
            for i in range(k):
                force[F_GIVEN_CALLS + i] = prefix[i, 1]
        pts = np.zeros(n_actions, np.float64)
        mar = np.zeros(n_actions, np.float64)
        pts_dd = np.zeros(n_actions, np.float64)
        mar_dd = np.zeros(n_actions, np.float64)
        eq = np.zeros(n_actions, np.float64)
        eq_d = np.zeros(n_actions, np.float64)
        est = np.zeros(N_SEATS, np.float64)
        dist = np.zeros(MAX_CHOICES, np.float64)
        lead_hands = np.zeros(N_SEATS, np.int64)
        seen = np.zeros((n_actions, 8), np.int64)  # the deal's solves so far (``dd_tricks``)
        trick = np.zeros(4, np.int64)
        nodes = np.zeros(1, np.int64)
        keys, tags, bounds = new_table()
        others = np.empty(3, np.int64)
        j = 0
        for s in range(N_SEATS):
            if s != seat:
                others[j] = s
                j += 1
        n_draws = 0
        n_kept = 0
        raw_sum = 0.0  # the softmax weights of the chunk's draws so far (the roulette's scale)
        raw_n = 0
        while n_kept < targets[ci] and n_draws < max_draws:
            n_draws += 1
            shuffle(state, buf, unseen, 19)
            for s in range(N_SEATS):
                dealt[s] = 0
            dealt[seat] = hand
            for i in range(18):
                dealt[others[i % 3]] |= np.int64(1) << unseen[i]
            widow = unseen[18]
            if exact:
                joker_seat = np.int64(-1)
                for s in range(N_SEATS):
                    hands[s] = dealt[s]
                    if (dealt[s] >> JOKER) & 1:
                        joker_seat = s
                copy_into(dstate, dstate0)
                copy_into(dbuf, dbuf0)
                auction(hands, joker_seat, np.int64(ADVICE_DEALER), rules, params, wt, unforced, dstate, dbuf, rec)
                keep = rec[R_NCALLS] > k
                if keep:
                    for i in range(k):
                        if rec[R_CALLS + 2 * i] != prefix[i, 0] or rec[R_CALLS + 2 * i + 1] != prefix[i, 1]:
                            keep = False
                            break
                w = 1.0 if keep else 0.0
            else:
                w = auction_weight(dealt, seat, prefix, rules, params, wt, model, est, dist)
                if w > 0.0:  # Russian roulette on light deals (``bower.kernels.advice.roulette``)
                    w, raw_sum, raw_n = roulette_step(w, raw_sum, raw_n, state)
            if not w > 0.0:
                reseed(dstate0, dbuf0)
                continue
            n_kept += 1
            wsum[ci, 0] += w
            wsum[ci, 1] += w * w
            for j in range(3):
                s = others[j]
                f0, f1 = features(dealt[s], s, params, wt)
                infer[ci, s, 0] += w * f0
                infer[ci, s, 1] += w * f1
            n_seen = np.int64(0)
            for a in range(n_actions):
                copy_into(dstate, dstate0)
                copy_into(dbuf, dbuf0)
                force[F_CALL] = actions[a]
                play_dealt_once(dealt, widow, np.int64(ADVICE_DEALER), rules, params, wt, force, dstate, dbuf, work, rec,
                                search)
                bidder = rec[R_BIDDER]
                ours = bidder >= 0 and bidder % 2 == side
                if do_strategy:
                    t = rec[R_TRICKS + side] + rec[R_TRICKS + side + 2]
                    p = rec[R_POINTS + side]
                    m = 2 * (p - rec[R_POINTS + 1 - side])
                    pts[a] = p
                    mar[a] = m
                    tally_weighted(acc[ci, 0, a], w, ours, ours and t >= bid_need(rec[R_BID]), t, p, m)
                    if eqt.shape[0] > 0:  # an equity table (``advice.eqt_arg``)
                        e = side_equity(eqt, rec[R_POINTS], rec[R_POINTS + 1], bidder % 2 if bidder >= 0 else 0)
                        eq[a] = e[0]
                        tally_equity(eacc[ci, 0, a], w, e)
                if dd is not None and do_dd:  # pruned when compiled for dd None
                    t = 0
                    p = 0
                    q = 0
                    if bidder >= 0:
                        taken, n_seen = dd_tricks(rec, lead_hands, trick, keys, tags, bounds, nodes, seen, n_seen)
                        bid_pts, def_pts = score_hand(rec[R_BID], taken, rules)
                        if ours:
                            t, p, q = taken, bid_pts, def_pts
                        else:
                            t, p, q = N_TRICKS - taken, def_pts, bid_pts
                    m = 2 * (p - q)
                    pts_dd[a] = p
                    mar_dd[a] = m
                    tally_weighted(acc[ci, 1, a], w, ours, ours and t >= bid_need(rec[R_BID]), t, p, m)
                    if eqt.shape[0] > 0:
                        ms = bidder % 2 if bidder >= 0 else 0
                        e = side_equity(eqt, p, q, ms) if side == 0 else side_equity(eqt, q, p, ms)
                        eq_d[a] = e[0]
                        tally_equity(eacc[ci, 1, a], w, e)
            add_draw_products(w, do_strategy, do_dd, eqt.shape[0] > 0, pts, mar, pts_dd, mar_dd, eq, eq_d,
                              pts_xy[ci], mar_xy[ci], eq_xy[ci])
            reseed(dstate0, dbuf0)
        draws[ci] = n_draws
        kept[ci] = n_kept
