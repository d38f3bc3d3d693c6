"""Ghost Hand advice kernel: every open action evaluated on the same sampled deals ("should I bid 4?").

The player's six cards are fixed; the other 18 are dealt at random to the two
other players and the ghost. A sample is kept only if the strategy, playing
the other seats on those cards, makes exactly the calls (and the swap) that
were made before the player's turn (rejection sampling). Each kept sample is
then played once per action from the same cards and decision-stream state,
the player's decision at this turn forced to the action and everything else
left to the strategy.
"""

import numpy as np
from numba import prange

from kernels.deal import shuffle
from kernels.ghost.hand import (
    F_AT,
    F_CALL,
    F_SEAT,
    F_SWAP,
    F_TRUMP,
    N_SEATS,
    NO_FORCE,
    R_CALLS,
    R_MAKER,
    R_NCALLS,
    R_POINTS,
    R_SWAP,
    R_TRICKS,
    R_BID,
    auction,
    chunk_scratch,
    margin2,
    play_dealt,
)
from kernels.advice import A_N, A_WIDTH, add_products, reseed, tally_action  # noqa: F401  (A_WIDTH: the row width)
from kernels.jit import kernel

# per-action counters

ADVICE_DEALER = 2  # the dealer's seat: position p is seat p - 1


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


@kernel(parallel=True)
def advice_chunks(states, dstates, targets, max_draws, hand, seat, rules, params, scores, target_score, prefix,
                  swap_given, actions, draws, kept, acc, pts_xy, mar_xy):
    """Sample deals consistent with the auction so far and play every action on each kept one.

    Chunk ``ci`` draws deals from ``states[ci]`` until it keeps ``targets[ci]``
    samples or has drawn ``max_draws``; it writes ``draws[ci]``,
    ``kept[ci]``, the per-action counters ``acc[ci, a, A_*]`` and the sums of
    products of the actions' points (``pts_xy[ci, a, b]``) and of twice their
    margins (``mar_xy``), from which paired differences get their intervals.
    ``actions[a]`` = (swap, call, trump), -1 meaning "as the strategy does".
    """
    n_actions = actions.shape[0]
    k = prefix.shape[0]
    for ci in prange(states.shape[0]):
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
        force = NO_FORCE.copy()
        pts = np.zeros(n_actions, np.int64)
        mar = np.zeros(n_actions, np.int64)
        slots = np.empty(3, np.int64)  # dealing slots (pos 1, 2, 3, ghost) other than the player's
        j = 0
        for slot in range(4):
            if slot != seat:  # with the dealer in seat 2, position p (slot p - 1) is seat p - 1
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
            for i in range(18):
                dealt[slots[i % 3]] |= np.int64(1) << unseen[i]
            # the strategy's own auction on these cards must reproduce the calls so far
            dstate[:] = dstate0
            dbuf[:] = dbuf0
            for s in range(N_SEATS):
                hands[s] = dealt[s]  # dealer in seat 2: seat s holds dealing slot s
            auction(hands, dealt[3], ADVICE_DEALER, rules, params, scores, target_score, NO_FORCE, dstate, dbuf, rec)
            keep = prefix_matches(rec, prefix, swap_given)
            if not keep:
                reseed(dstate0, dbuf0)
                continue
            n_kept += 1
            for a in range(n_actions):
                dstate[:] = dstate0
                dbuf[:] = dbuf0
                force[F_SEAT] = seat
                force[F_AT] = k
                force[F_SWAP] = actions[a, 0]
                force[F_CALL] = actions[a, 1]
                force[F_TRUMP] = actions[a, 2]
                play_dealt(dealt, dstate, dbuf, work, ADVICE_DEALER, rules, params, scores, target_score, force, rec)
                t = rec[R_TRICKS + seat]
                p = rec[R_POINTS + seat]
                m = margin2(rec, seat)
                pts[a] = p
                mar[a] = m
                tally_action(acc[ci, a], rec[R_MAKER] == seat, t >= rec[R_BID], t, p, m)
            add_products(pts, mar, pts_xy[ci], mar_xy[ci])
            reseed(dstate0, dbuf0)
        draws[ci] = n_draws
        kept[ci] = n_kept
