"""Standard Euchre calibration kernel for the game-equity bidder: each hand's outcome by the caller's level.

Every hand is dealt from its chunk's stream and played once by the strategy
(every seat the same, strategic: it draws nothing from the decision stream).
Then, for each call of that play (round one, positions 1..4 until an order;
round two the same), the hand is played again once per legal level with that
call forced to it: pass, the call (round one: order up; round two: the
seat's best suit, as ``strategy.name_decision`` names it) without going
alone, the call going alone (the stuck dealer: no pass); the level the
strategy itself took reuses the first play, and everything after the call is
left to the strategy. Each (hand, round, position, level) writes its cell
(``strategy.equity_cell`` of the seat's estimate plus the level; -1 where the
turn was never reached or the level is not legal) and its outcome code (the
points to the caller's side and to the other side, each plus 64, in bits 7..
and 0..).
"""

import numpy as np

from bower.kernels.arrays import copy_into
from bower.kernels.equity import FIELD_BITS, OFFSET, cell_block
from bower.kernels.estimate import best_suit
from bower.kernels.euchre.codes import E_DISCARD_UP, E_STICK
from bower.kernels.euchre.drivers import _scratch
from bower.kernels.euchre.hand import (
    CALL_ORDER,
    CALL_PASS,
    CALL_SUIT,
    F_ALONE,
    F_AT,
    F_CALL,
    F_SEAT,
    NO_FORCE,
    N_SEATS,
    R_ALONE,
    R_CALLS,
    R_NCALLS,
    R_POINTS,
    R_WIDTH,
    deal_hand,
    held_dealt,
    play_dealt,
)
from bower.kernels.euchre.strategy import N_LEVELS, Q_VOID, card_weights, equity_cell, equity_levels, order_estimate
from bower.kernels.jit import chunk_kernel, kernel

PER_HAND = 2 * N_SEATS * N_LEVELS  # output entries of one hand: by round, position, then level


@kernel(inline="always")
def outcome_code(rec, side):
    """The points of a played hand to ``side`` and to the other side, packed in one number (two fields)."""
    return ((rec[R_POINTS + side] + OFFSET) << FIELD_BITS) | (rec[R_POINTS + 1 - side] + OFFSET)


@chunk_kernel
def calibrate_chunks(lo, hi, states, chunk_size, n_hands, rules, params, width, n_buckets, cells, codes):
    """Hands ``ci * chunk_size ..`` of chunk ``ci`` (dealer of hand h: ``h % 4``), each writing its
    ``PER_HAND`` entries of ``cells`` and ``codes`` (the module's docstring). ``params``: the strategy by seat;
    ``width``: the estimate buckets' width; ``n_buckets``: their number (the last takes every estimate above)."""
    for ci in range(lo, hi):
        state = states[ci].copy()
        buf, dbuf, deck, dealt, kitty, hands, tricks, wt, rec = _scratch()
        alt = np.zeros(R_WIDTH, np.int64)
        dstate = np.zeros(4, np.uint64)
        force = NO_FORCE.copy()
        card_weights(params, wt)
        any_discard = rules[E_DISCARD_UP] == 1
        stick = rules[E_STICK] == 1
        for h in range(ci * chunk_size, min((ci + 1) * chunk_size, n_hands)):
            deal_hand(state, buf, deck, dealt, kitty)
            dealer = h % 4
            copy_into(force, NO_FORCE)
            play_dealt(dealt, kitty, dealer, rules, params, wt, force, dstate, dbuf, hands, tricks, rec, None)
            up = kitty[0]
            u = up // 6
            for at in range(2 * N_SEATS):
                out = h * PER_HAND + at * N_LEVELS
                if at >= rec[R_NCALLS]:
                    cell_block(cells, codes, out, N_LEVELS, 0, 0)
                    continue  # trump was made before this turn
                rnd = at // N_SEATS
                p = at % N_SEATS + 1
                seat = (dealer + p) & 3
                held = held_dealt(rec, seat)
                if rnd == 0:
                    est, _ = order_estimate(held, up, p, wt, params, seat, any_discard)
                    call = CALL_ORDER
                else:
                    s, est = best_suit(held, 15 & ~(1 << u), wt, seat, params[seat, Q_VOID])
                    call = CALL_SUIT + s
                legal = equity_levels(not (rnd == 1 and p == 4 and stick))  # the stuck dealer names a suit
                cell_block(cells, codes, out, N_LEVELS, equity_cell(rnd, p, est, width, n_buckets), legal)
                mine = rec[R_CALLS + 2 * at + 1]
                own = 0 if mine == CALL_PASS else (2 if (rec[R_ALONE] >> seat) & 1 else 1)
                for li in range(N_LEVELS):
                    if not (legal >> li) & 1:
                        continue
                    if li == own:
                        codes[out + li] = outcome_code(rec, seat & 1)
                        continue
                    force[F_SEAT], force[F_AT] = seat, at
                    force[F_CALL], force[F_ALONE] = (CALL_PASS, -1) if li == 0 else (call, li - 1)
                    play_dealt(dealt, kitty, dealer, rules, params, wt, force, dstate, dbuf, hands, tricks, alt,
                               None)
                    codes[out + li] = outcome_code(alt, seat & 1)
                copy_into(force, NO_FORCE)
