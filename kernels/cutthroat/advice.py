"""Cutthroat advice kernel: every open call evaluated on the same sampled deals ("should I order it up?").

The player's five cards and the up-card are fixed; the other 18 cards are
dealt at random to the two other players (5 each), the dummy (5) and the rest
of the kitty (3). A sample is kept only if the strategy, playing the other
seats on those cards, passes exactly as the calls before the player's turn
did (rejection sampling). Each kept sample is then played once per action
from the same cards and decision-stream state, the player's call at this
turn (and, if given, going alone) forced and everything else left to the
strategy.
"""

import numpy as np
from numba import prange

from kernels.cutthroat.hand import (
    CALL_PASS,
    F_ALONE,
    F_AT,
    F_CALL,
    F_SEAT,
    MAKER_NEEDS,
    N_SEATS,
    NO_FORCE,
    R_CALLS,
    R_MAKER,
    R_NCALLS,
    R_POINTS,
    R_TRICKS,
    auction,
    play_dealt,
)
from kernels.cutthroat.drivers import _scratch
from kernels.cutthroat.strategy import card_weights
from kernels.deal import shuffle
from kernels.advice import add_products, reseed, tally_action
from kernels.jit import kernel

ADVICE_DEALER = 2  # the dealer's seat: position p is seat p - 1


@kernel(inline="always")
def _margin2(rec, seat):
    """Twice the seat's points minus the two others' (twice its margin over their mean)."""
    m = 2 * rec[R_POINTS + seat]
    for s in range(N_SEATS):
        if s != seat:
            m -= rec[R_POINTS + s]
    return m


@kernel(parallel=True)
def advice_chunks(states, dstates, targets, max_draws, hand, up, seat, rules, params, n_passes, actions, draws, kept,
                  acc, pts_xy, mar_xy):
    """Sample deals in which the ``n_passes`` calls before the player's turn are passes, and play every action.

    ``actions[a]`` = (call code, alone: -1 strategy, 0 no, 1 yes). Chunk
    ``ci`` draws until it keeps ``targets[ci]`` samples or has drawn
    ``max_draws``, writing ``draws[ci]``, ``kept[ci]``, the per-action
    counters ``acc[ci, a, A_*]`` (``kernels.ghost.advice`` layout) and the
    sums of products of the actions' points and doubled margins.
    """
    n_actions = actions.shape[0]
    for ci in prange(states.shape[0]):
        state = states[ci].copy()
        dstate0 = dstates[ci].copy()
        buf, dbuf0, _, _, _, (hands, tricks, points), pw, pm, wt, order, rec = _scratch()
        card_weights(params, wt, order)
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
        slots = np.empty(3, np.int64)  # the hands dealt at random: the two other seats and the dummy
        j = 0
        for slot in range(4):
            if slot != seat:
                slots[j] = slot
                j += 1
        n_draws = 0
        n_kept = 0
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
            dstate[:] = dstate0
            dbuf[:] = dbuf0
            for s in range(N_SEATS):
                hands[s] = dealt[s]  # dealer in seat 2: position p is seat p - 1
            auction(hands, up, ADVICE_DEALER, rules, params, wt, NO_FORCE, dstate, dbuf, rec)
            keep = rec[R_NCALLS] > n_passes
            for i in range(n_passes):
                if rec[R_CALLS + 2 * i + 1] != CALL_PASS:
                    keep = False
            if not keep:
                reseed(dstate0, dbuf0)
                continue
            n_kept += 1
            for a in range(n_actions):
                dstate[:] = dstate0
                dbuf[:] = dbuf0
                force[F_SEAT] = seat
                force[F_AT] = n_passes
                force[F_CALL] = actions[a, 0]
                force[F_ALONE] = actions[a, 1]
                play_dealt(dealt, kitty, ADVICE_DEALER, rules, params, wt, order, force, dstate, dbuf, hands, tricks, points,
                           pw, pm, rec)
                t = rec[R_TRICKS + seat]
                p = rec[R_POINTS + seat]
                m = _margin2(rec, seat)
                pts[a] = p
                mar[a] = m
                tally_action(acc[ci, a], rec[R_MAKER] == seat, t >= MAKER_NEEDS, t, p, m)
            add_products(pts, mar, pts_xy[ci], mar_xy[ci])
            reseed(dstate0, dbuf0)
        draws[ci] = n_draws
        kept[ci] = n_kept
