"""Cutthroat calibration kernel for the game-equity bidder: each hand's outcome by the caller's level.

Every hand is dealt from its chunk's stream and played once by the strategy
(every seat the same, strategic: it draws nothing from the decision stream).
Then, for each call of that play (round one, positions 1..3 until one
accepts; round two the same), the hand is played again once per legal level
with that call forced to it: pass, the call (round one: accept the up-card;
round two: the seat's best suit) without going alone, the call going alone
(only under ``maker_alone = allowed``; the stuck dealer: no pass); the level
the strategy itself took reuses the first play, and everything after the
call is left to the strategy. Each (hand, round, position, level) writes its
cell (``strategy.equity_cell`` of the seat's estimate plus the level; -1
where the turn was never reached or the level is not legal) and its outcome
code (the points to the caller, to the seat on its left and to the seat on
its right, each plus 64, in bits 14.., 7.. and 0..).
"""

import numpy as np

from bower.kernels.arrays import copy_into
from bower.kernels.cutthroat.codes import C_MAKER_ALONE, C_STICK, C_TURNED_DOWN_OK
from bower.kernels.cutthroat.drivers import _scratch
from bower.kernels.cutthroat.hand import (
    CALL_ACCEPT,
    CALL_PASS,
    CALL_SUIT,
    F_ALONE,
    F_AT,
    F_CALL,
    F_SEAT,
    HAND_SIZE,
    NO_FORCE,
    N_SEATS,
    R_ALONE,
    R_CALLS,
    R_DEAL,
    R_NCALLS,
    R_POINTS,
    R_WIDTH,
    play_dealt_once,
)
from bower.kernels.cutthroat.strategy import (
    N_LEVELS,
    Q_VOID,
    accept_estimate,
    card_weights,
    equity_cell,
    equity_levels,
)
from bower.kernels.deal import deal_packets
from bower.kernels.equity import cell_block, outcome3
from bower.kernels.estimate import best_suit
from bower.kernels.jit import chunk_kernel

PER_HAND = 2 * N_SEATS * N_LEVELS  # output entries of one hand: by round, position, then level


@chunk_kernel
def calibrate_chunks(lo, hi, states, chunk_size, n_hands, rules, params, width, n_buckets, cells, codes):
    """Hands ``ci * chunk_size ..`` of chunk ``ci`` (dealer of hand h: ``h % 3``), each writing its
    ``PER_HAND`` entries of ``cells`` and ``codes`` (the module's docstring). ``params``: the strategy by seat;
    ``width``: the estimate buckets' width; ``n_buckets``: their number (the last takes every estimate above)."""
    alone_ok = rules[C_MAKER_ALONE] == 1
    for ci in range(lo, hi):
        state = states[ci].copy()
        buf, dbuf, deck, dealt, kitty, (hands, tricks, points), pw, pm, wt, order, rec = _scratch()
        alt = np.zeros(R_WIDTH, np.int64)
        dstate = np.zeros(4, np.uint64)
        force = NO_FORCE.copy()
        card_weights(params, wt, order)
        for h in range(ci * chunk_size, min((ci + 1) * chunk_size, n_hands)):
            deal_packets(state, buf, deck, 24, 4, HAND_SIZE, dealt)
            for i in range(4):
                kitty[i] = deck[20 + i]
            dealer = h % 3
            copy_into(force, NO_FORCE)
            play_dealt_once(dealt, kitty, dealer, rules, params, wt, order, force, dstate, dbuf, hands, tricks, points,
                            pw, pm, rec, None)
            up = kitty[0]
            u = up // 6
            allowed = 15 if rules[C_TURNED_DOWN_OK] == 1 else 15 & ~(1 << u)
            for at in range(2 * N_SEATS):
                out = h * PER_HAND + at * N_LEVELS
                if at >= rec[R_NCALLS]:
                    cell_block(cells, codes, out, N_LEVELS, 0, 0)
                    continue  # trump was made before this turn
                rnd = at // N_SEATS
                p = at % N_SEATS + 1
                seat = (dealer + p) % 3
                held = rec[R_DEAL + seat]
                if rnd == 0:
                    est, _, _ = accept_estimate(held, up, p, wt, params, seat)
                    call = CALL_ACCEPT
                else:
                    s, est = best_suit(held, allowed, wt, seat, params[seat, Q_VOID])
                    call = CALL_SUIT + s
                # the stuck dealer names a suit; no going alone under maker_alone = disabled
                legal = equity_levels(not (rnd == 1 and p == 3 and rules[C_STICK] == 1), alone_ok)
                cell_block(cells, codes, out, N_LEVELS, equity_cell(rnd, p, est, width, n_buckets), legal)
                mine = rec[R_CALLS + 2 * at + 1]
                own = 0 if mine == CALL_PASS else (2 if (rec[R_ALONE] >> seat) & 1 else 1)
                for li in range(N_LEVELS):
                    if not (legal >> li) & 1:
                        continue
                    if li == own:
                        codes[out + li] = outcome3(rec, R_POINTS, seat)
                        continue
                    force[F_SEAT], force[F_AT] = seat, at
                    force[F_CALL], force[F_ALONE] = (CALL_PASS, -1) if li == 0 else (call, li - 1)
                    play_dealt_once(dealt, kitty, dealer, rules, params, wt, order, force, dstate, dbuf, hands, tricks,
                                    points, pw, pm, alt, None)
                    codes[out + li] = outcome3(alt, R_POINTS, seat)
                copy_into(force, NO_FORCE)
