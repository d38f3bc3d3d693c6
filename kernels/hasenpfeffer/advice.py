"""Hasenpfeffer advice kernel: every open call evaluated on the same sampled deals ("should I bid 4?").

The player's six cards are fixed; the other 19 are dealt at random to the
three other players (six each) and the widow. A sample is kept only if the
strategy, playing the other seats on those cards, makes exactly the calls
made before the player's turn (rejection sampling). Each kept sample is then
played once per action from the same cards and decision-stream state, the
player's call at this turn forced and everything else left to the strategy.
"""

import numpy as np
from numba import prange

from kernels.advice import add_products, reseed, tally_action
from kernels.deal import shuffle
from kernels.hasenpfeffer.hand import (
    F_AT,
    F_CALL,
    F_SEAT,
    JOKER,
    N_SEATS,
    NO_FORCE,
    R_BID,
    R_BIDDER,
    R_CALLS,
    R_NCALLS,
    R_POINTS,
    R_TRICKS,
    auction,
    bid_need,
    card_weights,
    play_dealt,
)
from kernels.hasenpfeffer.drivers import _scratch
from kernels.jit import kernel

ADVICE_DEALER = 3  # the dealer's seat: position p is seat p - 1


@kernel(parallel=True)
def advice_chunks(states, dstates, targets, max_draws, hand, seat, rules, params, prefix, actions, draws, kept, acc,
                  pts_xy, mar_xy):
    """Sample deals on which the strategy repeats the calls ``prefix`` (k, 2), and play every action on each.

    ``actions[a]`` is the level called (0 = pass). Counters as in
    ``kernels.ghost.advice`` (points and tricks are the player's side's;
    the margin is twice the side's points minus the other side's, doubled).
    """
    n_actions = actions.shape[0]
    k = prefix.shape[0]
    side = seat % 2
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
        pts = np.zeros(n_actions, np.int64)
        mar = np.zeros(n_actions, np.int64)
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
            if not keep:
                reseed(dstate0, dbuf0)
                continue
            n_kept += 1
            for a in range(n_actions):
                dstate[:] = dstate0
                dbuf[:] = dbuf0
                force[F_SEAT] = seat
                force[F_AT] = k
                force[F_CALL] = actions[a]
                play_dealt(dealt, widow, ADVICE_DEALER, rules, params, wt, force, dstate, dbuf, work, rec)
                t = rec[R_TRICKS + side] + rec[R_TRICKS + side + 2]
                p = rec[R_POINTS + side]
                m = 2 * (p - rec[R_POINTS + 1 - side])
                pts[a] = p
                mar[a] = m
                ours = rec[R_BIDDER] >= 0 and rec[R_BIDDER] % 2 == side
                tally_action(acc[ci, a], ours, ours and t >= bid_need(rec[R_BID]), t, p, m)
            add_products(pts, mar, pts_xy[ci], mar_xy[ci])
            reseed(dstate0, dbuf0)
        draws[ci] = n_draws
        kept[ci] = n_kept
