"""The double-dummy solver's points mode: the maker side's contract outcome, not its exact tricks.

Scoring and the searched bids need only which band the maker side's tricks
fall in: fewer than ``need`` (euchred), ``need`` up to all but one (made), or
all of them (a march). ``solve_points`` answers that with at most two
zero-window searches of ``bower.kernels.solve._search`` ("at least ``need``?",
then "all of them?"), where the exact solve (``solve_position``, MTD(f)) walks
the target from a guess to the value and needs two to four.

Which question comes first: asked "at least ``need``?" first, a no ends the
solve (euchred); asked "all?" first, a yes ends it (a march), and a no is
usually quick (one lost trick shows it). The trumps-held guess of
``solve._guess`` picks: a guess of ``need`` or more asks "all?" first, a lower
one "at least ``need``?". On 20,000 random four-seat deals (random maker and
trump, ``need`` 3) that took 230.0 positions a solve, against 234.8 always
asking "at least 3?" first, 232.6 always "all?" first, and 448 for the exact
solve.

**The table across questions and deals.** The transposition table is the
solver's own (``solve.new_table``) and its entries mean the same thing here:
bounds on the tricks *to come* from a trick boundary, keyed by the canonical
position (every seat's cards ranks-compressed within each suit, the plain
suits sorted, the seat to lead and the measured side). A bound found while
asking "at least 3?" is a bound on the same number when asking "all 5?", so
the second search starts from what the first learnt; and since neither the
tricks already taken nor the target nor the deal is part of what an entry
says, an entry written for one deal is true for every position of any deal
with the same key. Two positions with the same key are the same game: the
key holds each seat's holding of every suit in the order of the cards still
out (which cards are dead does not matter, only the order of the live ones),
the trump suit is the solver-space byte 3 under every trump, the seats in
play are the seats holding cards (at a trick boundary every seat in play
holds one card per trick left), and the full key is stored and compared, so a
slot shared by two keys is a miss, never a wrong answer. That is why one table
can serve a whole chunk of deals, of any trump, leader and layout.
"""

import numpy as np

from bower.kernels.bits import popcount
from bower.kernels.jit import chunk_kernel, kernel
from bower.kernels.solve import (MAX_PLY, MAX_MOVES, P_WIDTH, _guess, _root, _search, _setup, new_table,
                                 next_seats)

EUCHRED, MADE, MARCH = 0, 1, 2


@kernel
def _bands(h, st, moves, nxt, n_active, sides, left, need, keys, tags, bounds, nodes):
    """The band of the measured side's tricks from ply 0 of ``st``: 0 below ``need``, 2 all ``left``, 1 between."""
    if need > left:
        return EUCHRED
    if need <= 0:
        if _search(h, st, moves, nxt, n_active, sides, left, keys, tags, bounds, nodes):
            return MARCH
        return MADE
    if need < left and _guess(h, sides, left) >= need:
        # the contract looks made: "all?" first, and a yes (a march) ends it
        if _search(h, st, moves, nxt, n_active, sides, left, keys, tags, bounds, nodes):
            return MARCH
        if _search(h, st, moves, nxt, n_active, sides, need, keys, tags, bounds, nodes):
            return MADE
        return EUCHRED
    # the contract looks lost: "at least ``need``?" first, and a no (euchred) ends it
    if not _search(h, st, moves, nxt, n_active, sides, need, keys, tags, bounds, nodes):
        return EUCHRED
    if need == left or _search(h, st, moves, nxt, n_active, sides, left, keys, tags, bounds, nodes):
        return MARCH
    return MADE


@kernel
def solve_points(hands, active, t, trick, n_trick, trick_leader, sides, need, keys, tags, bounds, nodes):
    """The band of the measured side's tricks from a position: 0 euchred (< ``need``), 2 march (all), 1 made.

    Tricks are counted from this position on, the current trick included (as
    ``solve.solve_position`` counts them; a caller with tricks already taken
    passes ``need`` less those). Arguments as ``solve_position``; ``need``: the
    tricks the contract needs. 0 with no tricks left (unless ``need`` <= 0:
    then 2, all of none).
    """
    h, tc = _setup(hands, active, t, trick, n_trick, trick_leader)
    nxt = next_seats(active)
    n_active = popcount(active)
    st = np.zeros((MAX_PLY, P_WIDTH), np.int64)
    moves = np.zeros((MAX_PLY, MAX_MOVES), np.int64)
    left = _root(h, st, tc, n_trick, trick_leader, nxt, sides)
    if left == 0:
        return MARCH if need <= 0 else EUCHRED
    return _bands(h, st, moves, nxt, n_active, sides, left, need, keys, tags, bounds, nodes)


def _points_chunks(hands, active, trump, leader, sides, need, chunk_size, out, nodes):
    return -(-hands.shape[0] // chunk_size)


@chunk_kernel(count=_points_chunks)
def points_many(lo, hi, hands, active, trump, leader, sides, need, chunk_size, out, nodes):
    """``solve_points`` of full deals from the first lead, in fixed chunks with one table each.

    Rows as ``solve.solve_many``; ``need[i]``: the tricks row ``i``'s contract
    needs; ``out[i]`` gets the band (0 euchred, 1 made, 2 march) and
    ``nodes[i]`` the positions searched. The values do not depend on the
    chunking or the threads (the table only stores exact bounds).
    """
    n = hands.shape[0]
    for ci in range(lo, hi):
        keys, tags, bounds = new_table()
        trick = np.zeros(4, np.int64)
        cnt = np.zeros(1, np.int64)
        for i in range(ci * chunk_size, min((ci + 1) * chunk_size, n)):
            cnt[0] = 0
            out[i] = solve_points(hands[i], active[i], trump[i], trick, np.int64(0), leader[i], sides[i], need[i],
                                  keys, tags, bounds, cnt)
            nodes[i] = cnt[0]
