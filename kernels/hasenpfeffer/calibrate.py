"""Hasenpfeffer calibration kernel for the game-equity bidder: each hand's outcome by the caller's level.

Every hand is dealt from its chunk's stream and played once by the strategy
(every seat the same, strategic: it draws nothing from the decision stream).
Then, for each seat at its first call (a seat reached before the auction
ended), the hand is played again once per legal level (pass, each bid above
the standing one up to the top: 6, or big pepper under ``bidding=pepper``)
with that call forced to it, everything after it left to the strategy (the
seat's later calls too); the level the strategy itself called reuses the
first play. Each (hand, position, level) writes its cell
(``strategy.equity_cell`` of the seat's best estimate plus the level; -1
where the seat had no turn or the level is not legal) and its outcome code
(the points to the caller's side, to the other side, and 1 where the
caller's side bid the hand, each plus 64, in bits 14.., 7.. and 0..).
"""

import numpy as np

from bower.kernels.arrays import copy_into
from bower.kernels.equity import cell_block, first_call, pack3
from bower.kernels.hasenpfeffer.codes import H_PEPPER
from bower.kernels.hasenpfeffer.drivers import _scratch
from bower.kernels.hasenpfeffer.hand import (
    BIG_PEPPER,
    F_AT,
    F_CALL,
    F_SEAT,
    NO_FORCE,
    N_SEATS,
    P_VOID,
    R_BIDDER,
    R_CALLS,
    R_DEAL,
    R_NCALLS,
    R_POINTS,
    R_WIDTH,
    best_estimate,
    card_weights,
    deal,
    play_dealt_once,
)
from bower.kernels.hasenpfeffer.strategy import N_LEVELS, bid_levels, equity_cell
from bower.kernels.jit import chunk_kernel, kernel

PER_HAND = N_SEATS * N_LEVELS  # output entries of one hand: by position, then level


@kernel(inline="always")
def outcome_code(rec, side):
    """The points of a played hand to ``side``, to the other side, and whether ``side`` bid it, in one number."""
    bid = 1 if rec[R_BIDDER] >= 0 and rec[R_BIDDER] % 2 == side else 0
    return pack3(rec[R_POINTS + side], rec[R_POINTS + 1 - side], bid)


@chunk_kernel
def calibrate_chunks(lo, hi, states, chunk_size, n_hands, rules, params, width, n_buckets, cells, codes):
    """Hands ``ci * chunk_size ..`` of chunk ``ci`` (dealer of hand h: ``h % 4``), each writing its
    ``PER_HAND`` entries of ``cells`` and ``codes`` (the module's docstring). ``params``: the strategy by seat;
    ``width``: the estimate buckets' width; ``n_buckets``: their number (the last takes every estimate above)."""
    top = BIG_PEPPER if rules[H_PEPPER] == 1 else 6
    for ci in range(lo, hi):
        state = states[ci].copy()
        buf, dbuf, deck, work, wt, rec = _scratch()
        alt = np.zeros(R_WIDTH, np.int64)
        dstate = np.zeros(4, np.uint64)
        force = NO_FORCE.copy()
        card_weights(params, wt)
        by_pos = np.zeros(N_SEATS, np.int64)
        by_seat = np.zeros(N_SEATS, np.int64)
        for h in range(ci * chunk_size, min((ci + 1) * chunk_size, n_hands)):
            widow = deal(state, buf, deck, by_pos)
            dealer = h % 4
            for p in range(N_SEATS):
                by_seat[(dealer + 1 + p) % 4] = by_pos[p]
            copy_into(force, NO_FORCE)
            play_dealt_once(by_seat, widow, dealer, rules, params, wt, force, dstate, dbuf, work, rec, None)
            for p in range(1, N_SEATS + 1):
                out = h * PER_HAND + (p - 1) * N_LEVELS
                seat = (dealer + p) % 4
                at, standing = first_call(rec, R_CALLS, rec[R_NCALLS], seat)
                if at < 0:
                    cell_block(cells, codes, out, N_LEVELS, 0, 0)
                    continue  # the auction ended before this seat's turn
                mine = rec[R_CALLS + 2 * at + 1]
                est = best_estimate(rec[R_DEAL + seat], seat, wt, params[seat, P_VOID])
                legal = bid_levels(standing, top)
                cell_block(cells, codes, out, N_LEVELS, equity_cell(p, standing, est, width, n_buckets), legal)
                for li in range(top + 1):
                    if not (legal >> li) & 1:
                        continue
                    if li == mine:
                        codes[out + li] = outcome_code(rec, seat % 2)
                        continue
                    force[F_SEAT], force[F_AT], force[F_CALL] = seat, at, li
                    play_dealt_once(by_seat, widow, dealer, rules, params, wt, force, dstate, dbuf, work, alt, None)
                    codes[out + li] = outcome_code(alt, seat % 2)
                copy_into(force, NO_FORCE)
