"""Ghost Hand calibration kernel for the game-equity bidder: each hand's outcome by the caller's level.

Every hand is dealt from its chunk's stream and played once by the strategy
rows (every seat the same strategy; the deal stream only: the strategies
measured draw no decision). Then, for each position, at that seat's first call,
the hand is played again once per legal level (pass, 3, 4, 5, moon) with the
call forced to it (the swap decision left to the strategy, as should-bid
forces an action; the level the strategy itself called reuses the first play),
everything after it left to the strategies. Each (hand, position, level) writes
its cell (``strategy.equity_cell`` plus the level's index; -1 where the seat had
no turn or the level was not legal) and its outcome code (the points to the
caller, to the seat on its left and to the seat on its right, each plus 64, in
bits 14.., 7.. and 0..).
"""

import numpy as np

from bower.kernels.equity import bucket_of, cell_block, first_call, outcome3
from bower.kernels.ghost.codes import G_STICK
from bower.kernels.ghost.hand import (
    MAX_CALLS,
    N_SEATS,
    R_CALLS,
    R_DEAL,
    R_NCALLS,
    R_POINTS,
    R_SWAP,
    R_WIDTH,
    deal_hand,
    play_dealt_once,
)
from bower.kernels.ghost.strategy import N_LEVELS, best_of_row, equity_cell, legal_levels
from bower.kernels.jit import chunk_kernel

PER_HAND = N_SEATS * N_LEVELS  # output cells of one hand: by position, then level


@chunk_kernel
def calibrate_chunks(lo, hi, states, chunk_size, n_hands, rules, rows, width, n_buckets, cells, codes):
    """Hands ``ci * chunk_size ..`` of chunk ``ci`` (dealer of hand h: ``h % 3``), each writing its
    ``PER_HAND`` entries of ``cells`` and ``codes`` (the module's docstring). ``rows``: three strategy rows
    (``strategy_rows``) by seat; ``width``: the estimate buckets' width; ``n_buckets``: their number (the last
    takes every estimate above)."""
    for ci in range(lo, hi):
        state = states[ci].copy()
        buf = np.zeros(2, np.int64)
        deck = np.empty(24, np.int64)
        dstate = np.zeros(4, np.uint64)
        dbuf = np.zeros(2, np.int64)
        work = np.zeros(16, np.int64)
        rec = np.zeros(R_WIDTH, np.int64)
        alt = np.zeros(R_WIDTH, np.int64)
        scores = np.zeros(N_SEATS, np.int64)
        force = np.empty(8, np.int64)
        dealt = np.empty(4, np.int64)
        stick = rules[G_STICK] == 1
        for h in range(ci * chunk_size, min((ci + 1) * chunk_size, n_hands)):
            d0, d1, d2, ghost = deal_hand(state, buf, deck)
            dealt[0], dealt[1], dealt[2], dealt[3] = d0, d1, d2, ghost
            dealer = h % 3
            force[:] = -1
            force[5], force[6] = 0, 0
            play_dealt_once(dealt, dstate, dbuf, work, dealer, rules, rows, scores, np.int64(32), force, rec, None)
            for pos in range(N_SEATS):
                out = h * PER_HAND + pos * N_LEVELS
                seat = (dealer + 1 + pos) % 3
                at, standing = first_call(rec, R_CALLS, min(rec[R_NCALLS], MAX_CALLS), seat)
                if at < 0:
                    cell_block(cells, codes, out, N_LEVELS, 0, 0)
                    continue  # a moon ended the auction before this seat's turn
                mine = rec[R_CALLS + 2 * at + 1]
                held = rec[R_DEAL + 3] if rec[R_SWAP] == seat else rec[R_DEAL + seat]
                est = best_of_row(held, rows, seat)[1]
                legal = legal_levels(standing, stick and pos == 2 and standing == 0)
                cell_block(cells, codes, out, N_LEVELS, equity_cell(pos, standing, bucket_of(est, width, n_buckets),
                                                                    n_buckets), legal)
                for li in range(N_LEVELS):
                    call = 0 if li == 0 else li + 2
                    if not (legal >> li) & 1:
                        continue
                    if call == mine:
                        codes[out + li] = outcome3(rec, R_POINTS, seat)
                        continue
                    force[0], force[1], force[2], force[3], force[4] = seat, -1, -1, call, -1
                    play_dealt_once(dealt, dstate, dbuf, work, dealer, rules, rows, scores, np.int64(32), force, alt,
                                    None)
                    codes[out + li] = outcome3(alt, R_POINTS, seat)
                force[0], force[3] = -1, -1
