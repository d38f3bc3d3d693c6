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
from bower.kernels.ghost.strategy import MOON, N_LEVELS, best_of_row, equity_cell
from bower.kernels.jit import chunk_kernel, kernel

PER_HAND = N_SEATS * N_LEVELS  # output cells of one hand: by position, then level
OFFSET = 64


@kernel(inline="always")
def outcome_code(rec, seat):
    """The points of a played hand relative to ``seat`` (its own, its left's, its right's) packed in one number."""
    own = rec[R_POINTS + seat] + OFFSET
    left = rec[R_POINTS + (seat + 1) % 3] + OFFSET
    right = rec[R_POINTS + (seat + 2) % 3] + OFFSET
    return (own << 14) | (left << 7) | right


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
                for li in range(N_LEVELS):
                    cells[out + li] = -1
                    codes[out + li] = 0
                seat = (dealer + 1 + pos) % 3
                standing = np.int64(0)
                mine = np.int64(-1)
                for i in range(min(rec[R_NCALLS], MAX_CALLS)):
                    if rec[R_CALLS + 2 * i] == seat:
                        mine = rec[R_CALLS + 2 * i + 1]
                        break
                    c = rec[R_CALLS + 2 * i + 1]
                    standing = c if c != 0 else standing
                if mine < 0:
                    continue  # a moon ended the auction before this seat's turn
                held = rec[R_DEAL + 3] if rec[R_SWAP] == seat else rec[R_DEAL + seat]
                est = best_of_row(held, rows, seat)[1]
                bucket = min(max(np.int64(np.floor(est / width)), 0), n_buckets - 1)
                cell = equity_cell(pos, standing, bucket, n_buckets)
                forced = stick and pos == 2 and standing == 0
                for li in range(N_LEVELS):
                    call = 0 if li == 0 else li + 2
                    legal = (not forced) if call == 0 else (call == MOON or call > standing)
                    if not legal:
                        continue
                    cells[out + li] = cell + li
                    if call == mine:
                        codes[out + li] = outcome_code(rec, seat)
                        continue
                    force[0], force[1], force[2], force[3], force[4] = seat, -1, -1, call, -1
                    play_dealt_once(dealt, dstate, dbuf, work, dealer, rules, rows, scores, np.int64(32), force, alt,
                                    None)
                    codes[out + li] = outcome_code(alt, seat)
                force[0], force[3] = -1, -1
