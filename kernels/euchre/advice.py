"""Standard Euchre advice kernel: every open call evaluated on the same sampled deals ("should I order it up?").

The player's five cards and the up-card are fixed; the other 18 cards are
dealt at random to the three other seats (5 each) and the rest of the kitty
(3). The dealer is seat ``ADVICE_DEALER`` = 3, so position p is seat p - 1.
A sample is kept only if the strategy, playing the other seats on those
cards, passes at every call before the player's turn, as happened
(rejection sampling; the player's own earlier pass, in round two, is
forced). Each kept sample is then played once per action from the same
cards and decision-stream state: the player's call at this turn (and, if
given, going alone) forced, everything else left to the strategy.
Points, tricks and "made" are the player's side's (partnerships).
"""

import numpy as np
from numba import prange

from kernels.advice import add_products, reseed, tally_action
from kernels.deal import shuffle
from kernels.euchre.drivers import _scratch
from kernels.euchre.hand import (
    CALL_ORDER,
    CALL_PASS,
    CALL_SUIT,
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
from kernels.euchre.strategy import card_weights
from kernels.jit import kernel

ADVICE_DEALER = 3  # the dealer's seat: position p is seat p - 1


def open_actions(n_passes: int, up: int, stick_the_dealer: bool) -> np.ndarray:
    """The actions (call code, alone: 0 no, 1 yes; pass: -1) open to the player after ``n_passes`` passes.

    Round one (``n_passes`` < 4): pass, order (alone or not). Round two: pass
    (unless the player is the stuck dealer), then each suit other than the
    up-card's, in suit order, alone or not. Plain Python (no kernel).
    """
    if not 0 <= n_passes < 2 * N_SEATS:
        raise ValueError(f"the player's turn comes after 0..7 passes, got {n_passes}")
    rows = []
    stuck = n_passes == 2 * N_SEATS - 1 and stick_the_dealer
    if not stuck:
        rows.append((CALL_PASS, -1))
    if n_passes < N_SEATS:
        rows += [(CALL_ORDER, 0), (CALL_ORDER, 1)]
    else:
        for s in range(4):
            if s != up // 6:
                rows += [(CALL_SUIT + s, 0), (CALL_SUIT + s, 1)]
    return np.array(rows, np.int64)


@kernel(parallel=True)
def advice_chunks(states, dstates, targets, max_draws, hand, up, seat, rules, params, n_passes, actions, draws, kept,
                  acc, pts_xy, mar_xy):
    """Sample deals on which the ``n_passes`` calls before the player's turn are passes, and play every action.

    ``seat`` is the player's (position ``seat + 1``; its turn must be call
    ``n_passes``: ``n_passes % 4 == seat``). ``actions[a]`` = (call code,
    alone: -1 strategy, 0 no, 1 yes), as ``open_actions``. Chunk ``ci``
    draws until it keeps ``targets[ci]`` samples or has drawn ``max_draws``,
    writing ``draws[ci]``, ``kept[ci]``, the per-action counters
    ``acc[ci, a, A_*]`` (``kernels.advice``: the player's side made trump /
    made it, the side's tricks and points, twice the side's margin over the
    other side) and the sums of products of the actions' points and doubled
    margins ``pts_xy[ci]``, ``mar_xy[ci]`` (paired intervals).
    """
    n_actions = actions.shape[0]
    side = seat & 1
    for ci in prange(states.shape[0]):
        state = states[ci].copy()
        dstate0 = dstates[ci].copy()
        buf, dbuf0, _, dealt, kitty, hands, tricks, wt, rec = _scratch()
        card_weights(params, wt)
        dstate = np.empty(4, np.uint64)
        dbuf = np.zeros(2, np.int64)
        unseen = np.empty(18, np.int64)
        n = 0
        for c in range(24):
            if (hand >> c) & 1 == 0 and c != up:
                unseen[n] = c
                n += 1
        kitty[0] = up
        force = NO_FORCE.copy()
        check = NO_FORCE.copy()  # the rejection test: the player passes at its own turns up to this one
        check[F_SEAT] = seat
        check[F_AT] = n_passes
        check[F_CALL] = CALL_PASS
        pts = np.zeros(n_actions, np.int64)
        mar = np.zeros(n_actions, np.int64)
        others = np.empty(3, np.int64)  # the positions (0-based) dealt at random
        j = 0
        for p in range(N_SEATS):
            if p != seat:  # dealer in seat 3: position p + 1 is seat p
                others[j] = p
                j += 1
        n_draws = 0
        n_kept = 0
        while n_kept < targets[ci] and n_draws < max_draws:
            n_draws += 1
            shuffle(state, buf, unseen, 18)
            for p in range(N_SEATS):
                dealt[p] = 0
            dealt[seat] = hand
            for i in range(15):
                dealt[others[i % 3]] |= np.int64(1) << unseen[i]
            for i in range(3):
                kitty[1 + i] = unseen[15 + i]
            dstate[:] = dstate0
            dbuf[:] = dbuf0
            for p in range(N_SEATS):
                hands[p] = dealt[p]
            auction(hands, up, ADVICE_DEALER, rules, params, wt, check, dstate, dbuf, rec)
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
                play_dealt(dealt, kitty, ADVICE_DEALER, rules, params, wt, force, dstate, dbuf, hands, tricks, rec)
                t = rec[R_TRICKS + side] + rec[R_TRICKS + side + 2]
                p = rec[R_POINTS + side]
                m = 2 * (p - rec[R_POINTS + 1 - side])
                pts[a] = p
                mar[a] = m
                ours = rec[R_MAKER] >= 0 and (rec[R_MAKER] & 1) == side
                tally_action(acc[ci, a], ours, ours and t >= MAKER_NEEDS, t, p, m)
            add_products(pts, mar, pts_xy[ci], mar_xy[ci])
            reseed(dstate0, dbuf0)
        draws[ci] = n_draws
        kept[ci] = n_kept
