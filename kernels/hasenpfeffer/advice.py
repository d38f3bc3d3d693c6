"""Hasenpfeffer advice kernel: every open call evaluated on the same weighted deals ("should I bid 4?").

The player's six cards are fixed; the other 19 are dealt uniformly at random
to the three other players (six each) and the widow. Each draw gets a
weight from the model of the other players (``model``, ``kernels.advice.M_*``):

- exact (today's rejection): 1 if the strategy, playing every seat on those
  cards, makes exactly the calls before the player's turn (the player's own
  earlier calls included), else 0; each kept deal is then played once per
  action with ``play_dealt`` and the player's call forced, as before;
- softmax: the product over the other seats' observed calls of the model's
  probability of each (``kernels.hasenpfeffer.model``); the play-out forces
  the observed calls, then the player's action, and leaves the rest of the
  auction, the widow and the play to the strategy.

A draw of weight 0 counts in ``draws``, not in ``kept``. Each kept deal is
played once per action from the same cards and decision-stream state. Row 0
(``playout & PLAY_STRATEGY``) tallies the strategy's play-out; row 1
(``playout & PLAY_DD``) the same contract scored double dummy: the hands at
the first lead (each seat's played cards: after the widow and the discard)
solved for the bidding side against the other, from the first leader, with
one transposition table per chunk; the bidding side's tricks are scored by
``score_hand`` (a hand thrown in scores 0 in both rows). Points and tricks
are the player's side's; the margin is twice the side's points minus the
other side's (doubled, as before).
"""

import numpy as np
from numba import prange

from kernels.advice import (
    M_KIND,
    MODEL_EXACT,
    PLAY_DD,
    PLAY_STRATEGY,
    add_products_weighted,
    reseed,
    tally_weighted,
)
from kernels.deal import shuffle
from kernels.hasenpfeffer.codes import (
    H_BIDDER_LEADS,
    H_PASS_FINAL,
    H_PEPPER,
    H_REDEAL,
    H_WIDOW_DEAD,
)
from kernels.hasenpfeffer.drivers import _scratch
from kernels.hasenpfeffer.hand import (
    BIG_PEPPER,
    F_AT,
    F_CALL,
    F_SEAT,
    FORCED_BID,
    JOKER,
    N_SEATS,
    N_TRICKS,
    NO_FORCE,
    P_JUMP,
    P_SUPPORT,
    R_BID,
    R_BIDDER,
    R_CALLS,
    R_DEAL,
    R_DEALER,
    R_DISCARD,
    R_FORCED,
    R_NCALLS,
    R_NPLAYS,
    R_PLAYS,
    R_POINTS,
    R_TRICKS,
    R_TRUMP,
    R_WIDOW,
    auction,
    bid_need,
    card_weights,
    choose_widow,
    is_random,
    play_dealt,
    play_tricks,
    score_hand,
    target_level,
)
from kernels.hasenpfeffer.model import MAX_CHOICES, auction_weight, features
from kernels.jit import kernel
from kernels.rng import bounded
from kernels.solve import new_table, solve_position

ADVICE_DEALER = 3  # the dealer's seat: position p is seat p - 1


@kernel(_nrt=False)
def auction_after(hands, joker_seat, dealer, rules, params, wt, prefix, player, call_now, dstate, dbuf, rec):
    """``hand.auction`` with the calls ``prefix`` (k, 2) made as observed and ``player``'s call ``call_now`` next.

    The rest of the auction is the strategy's (random seats draw from the
    decision stream). Returns (bidder, level, forced) as ``hand.auction``.
    """
    pepper = rules[H_PEPPER] == 1
    top = BIG_PEPPER if pepper else 6
    final = rules[H_PASS_FINAL] == 1
    k = prefix.shape[0]
    t0 = target_level(hands[0], 0, pepper, params, wt) if not is_random(params, 0) else 0
    t1 = target_level(hands[1], 1, pepper, params, wt) if not is_random(params, 1) else 0
    t2 = target_level(hands[2], 2, pepper, params, wt) if not is_random(params, 2) else 0
    t3 = target_level(hands[3], 3, pepper, params, wt) if not is_random(params, 3) else 0
    seat = (dealer + 1) % 4
    high = 0
    bidder = -1
    since = 0
    passed = 0
    n = 0
    while True:
        if n < k:
            call = prefix[n, 1]
        elif n == k and seat == player:
            call = call_now
        elif is_random(params, seat):
            kk = bounded(dstate, dbuf, 1 + top - high)
            call = 0 if kk == 0 else high + kk
        else:
            tl = t0 if seat == 0 else (t1 if seat == 1 else (t2 if seat == 2 else t3))
            margin = params[seat, P_SUPPORT] if bidder >= 0 and bidder == (seat + 2) % 4 else 0.0
            call = 0
            if tl >= high + 1 and tl >= (high + 1) + margin:
                call = tl if params[seat, P_JUMP] >= 0.5 else high + 1
        rec[R_CALLS + 2 * n] = seat
        rec[R_CALLS + 2 * n + 1] = call
        n += 1
        if call == 0:
            passed |= 1 << seat
            since += 1
        else:
            high = call
            bidder = seat
            since = 0
        if high == 0:
            over = n == N_SEATS
        elif high == top:
            over = True
        elif final:
            over = (passed | (1 << bidder)) == 15
        else:
            over = since == N_SEATS - 1
        if over:
            break
        seat = (seat + 1) % 4
        if final:
            while (passed >> seat) & 1:
                seat = (seat + 1) % 4
    rec[R_NCALLS] = n
    if high == 0:
        if rules[H_REDEAL] == 1 or joker_seat < 0:
            return -1, 0, False
        return joker_seat, FORCED_BID, True  # the forced 3: not a choice, the deal's joker holder
    return bidder, high, False


@kernel(inline="always")
def play_after(dealt, widow, dealer, rules, params, wt, prefix, player, call_now, dstate, dbuf, work, rec):
    """``hand.play_dealt`` with the auction of ``auction_after``: the observed calls, then the player's."""
    hands = work[0:4]
    tricks = work[4:8]
    rec[R_DEALER] = dealer
    joker_seat = -1
    for s in range(N_SEATS):
        hands[s] = dealt[s]
        rec[R_DEAL + s] = dealt[s]
        if (dealt[s] >> JOKER) & 1:
            joker_seat = s
    rec[R_WIDOW] = widow
    bidder, level, forced = auction_after(hands, joker_seat, dealer, rules, params, wt, prefix, player, call_now,
                                          dstate, dbuf, rec)
    rec[R_FORCED] = 1 if forced else 0
    rec[R_BIDDER] = bidder
    rec[R_BID] = level
    if bidder < 0:
        rec[R_TRUMP] = -1
        rec[R_DISCARD] = -1
        rec[R_NPLAYS] = 0
        for s in range(N_SEATS):
            rec[R_TRICKS + s] = 0
        rec[R_POINTS] = 0
        rec[R_POINTS + 1] = 0
        return
    trump, discard, hand = choose_widow(hands[bidder], widow, bidder, params, wt, rules[H_WIDOW_DEAD] == 1, dstate, dbuf)
    hands[bidder] = hand
    rec[R_TRUMP] = trump
    rec[R_DISCARD] = discard
    leader = bidder if rules[H_BIDDER_LEADS] == 1 else (dealer + 1) % 4
    play_tricks(hands, trump, leader, bidder, params, dstate, dbuf, rec, tricks)
    side = bidder % 2
    bid_pts, def_pts = score_hand(level, tricks[side] + tricks[side + 2], rules)
    for s in range(N_SEATS):
        rec[R_TRICKS + s] = tricks[s]
    rec[R_POINTS + side] = bid_pts
    rec[R_POINTS + 1 - side] = def_pts


@kernel(inline="always")
def dd_tricks(rec, lead_hands, trick, keys, tags, bounds, nodes):
    """The bidding side's double-dummy tricks of a played record, from the hands at the first lead."""
    bidder = rec[R_BIDDER]
    for s in range(N_SEATS):
        lead_hands[s] = 0
    for i in range(rec[R_NPLAYS]):
        lead_hands[rec[R_PLAYS + 2 * i]] |= np.int64(1) << rec[R_PLAYS + 2 * i + 1]
    sides = np.int64((1 << bidder) | (1 << ((bidder + 2) % 4)))
    return solve_position(lead_hands, np.int64(15), rec[R_TRUMP], trick, np.int64(0), rec[R_PLAYS], sides, keys, tags,
                          bounds, nodes)


@kernel(parallel=True)
def advice_chunks(states, dstates, targets, max_draws, hand, seat, rules, params, prefix, actions, model, playout,
                  draws, kept, wsum, acc, pts_xy, mar_xy, infer):
    """Weighted deals for the calls ``prefix`` (k, 2) before ``seat``'s turn; every action played on each.

    ``actions[a]`` is the level called (0 = pass); ``model`` the model vector,
    ``playout`` the play-out bits. Outputs per chunk ``ci``: ``draws``,
    ``kept`` (deals of positive weight), ``wsum[ci]`` (Σw, Σw²), ``acc[ci, row, a]``
    the weighted counters (``kernels.advice.W_*``; row 0 strategy, 1 double
    dummy), ``pts_xy``/``mar_xy[ci, row]`` the weighted products,
    ``infer[ci, s]`` Σw·(best suit estimate, joker held) of each other seat.
    """
    n_actions = actions.shape[0]
    k = prefix.shape[0]
    side = seat % 2
    exact = model[M_KIND] == MODEL_EXACT
    do_strategy = (playout & PLAY_STRATEGY) != 0
    do_dd = (playout & PLAY_DD) != 0
    for ci in prange(states.shape[0]):
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
        force = NO_FORCE.copy()
        pts = np.zeros(n_actions, np.float64)
        mar = np.zeros(n_actions, np.float64)
        pts_dd = np.zeros(n_actions, np.float64)
        mar_dd = np.zeros(n_actions, np.float64)
        est = np.zeros(N_SEATS, np.float64)
        dist = np.zeros(MAX_CHOICES, np.float64)
        lead_hands = np.zeros(N_SEATS, np.int64)
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
                joker_seat = -1
                for s in range(N_SEATS):
                    hands[s] = dealt[s]
                    if (dealt[s] >> JOKER) & 1:
                        joker_seat = s
                dstate[:] = dstate0
                dbuf[:] = dbuf0
                auction(hands, joker_seat, ADVICE_DEALER, rules, params, wt, NO_FORCE, dstate, dbuf, rec)
                keep = rec[R_NCALLS] > k
                if keep:
                    for i in range(k):
                        if rec[R_CALLS + 2 * i] != prefix[i, 0] or rec[R_CALLS + 2 * i + 1] != prefix[i, 1]:
                            keep = False
                            break
                w = 1.0 if keep else 0.0
            else:
                w = auction_weight(dealt, seat, prefix, rules, params, wt, model, est, dist)
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
            for a in range(n_actions):
                dstate[:] = dstate0
                dbuf[:] = dbuf0
                if exact:
                    force[F_SEAT] = seat
                    force[F_AT] = k
                    force[F_CALL] = actions[a]
                    play_dealt(dealt, widow, ADVICE_DEALER, rules, params, wt, force, dstate, dbuf, work, rec)
                else:
                    play_after(dealt, widow, ADVICE_DEALER, rules, params, wt, prefix, seat, actions[a], dstate,
                               dbuf, work, rec)
                bidder = rec[R_BIDDER]
                ours = bidder >= 0 and bidder % 2 == side
                if do_strategy:
                    t = rec[R_TRICKS + side] + rec[R_TRICKS + side + 2]
                    p = rec[R_POINTS + side]
                    m = 2 * (p - rec[R_POINTS + 1 - side])
                    pts[a] = p
                    mar[a] = m
                    tally_weighted(acc[ci, 0, a], w, ours, ours and t >= bid_need(rec[R_BID]), t, p, m)
                if do_dd:
                    t = 0
                    p = 0
                    q = 0
                    if bidder >= 0:
                        taken = dd_tricks(rec, lead_hands, trick, keys, tags, bounds, nodes)
                        bid_pts, def_pts = score_hand(rec[R_BID], taken, rules)
                        if ours:
                            t, p, q = taken, bid_pts, def_pts
                        else:
                            t, p, q = N_TRICKS - taken, def_pts, bid_pts
                    m = 2 * (p - q)
                    pts_dd[a] = p
                    mar_dd[a] = m
                    tally_weighted(acc[ci, 1, a], w, ours, ours and t >= bid_need(rec[R_BID]), t, p, m)
            if do_strategy:
                add_products_weighted(w, pts, mar, pts_xy[ci, 0], mar_xy[ci, 0])
            if do_dd:
                add_products_weighted(w, pts_dd, mar_dd, pts_xy[ci, 1], mar_xy[ci, 1])
            reseed(dstate0, dbuf0)
        draws[ci] = n_draws
        kept[ci] = n_kept
