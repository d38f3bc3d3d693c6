"""Game-equity kernel: the three-player programme's Gauss-Seidel sweeps over the score cube.

``bower.sim.equity.solve3`` is its plain twin (NumPy, the same method) and
sets out the method; this kernel gives the same values to within the
sweeps' tolerance, for several outcome distributions (the redraws) at once,
without the twin's table of every next state (K x N integers: 290 MB for
Ghost Hand to 32). States are swept by rank, by falling score sum, so each
block of equal sum is a run of ranks; the values are kept by the state's
flat index, ``ext[flat, j, r]`` the chance of the player j seats left of the
dealer under draw r, so that a hand's next state is found by arithmetic on
the scores alone; rows N..N+2 are the games won (by the player 0, 1, 2 seats
left of the next dealer).

The game-equity bidder's kernels (``bid_equity``; ``bower.sim.equity_bidder``)
follow: the layout of the tables every variant's kernels carry (``E_*``), an
estimate's bucket, a cell's value (three players: ``value3``; two sides:
``value2``) and the choice of the best legal level (``best_level``). A variant
says only what its cells are (its ``equity_cell``) and which levels its
auction allows.
"""

import numpy as np

from bower.kernels.jit import kernel


@kernel(inline="always")
def next_flat(x0, x1, x2, p0, p1, p2, target, floor, s, n):
    """The flat index of the state after a hand scoring ``(p0, p1, p2)`` (relative to the dealer) from ``(x0, x1,
    x2)``, relative to the next dealer, or ``n + w`` when the player w seats left of the next dealer wins the game.

    A tie at the top at or past the target plays on, shifted down to the
    target; a score below ``floor`` counts as ``floor``; the next dealer is
    the player on the dealer's left."""
    y0, y1, y2 = x0 + p0, x1 + p1, x2 + p2
    top = max(y0, max(y1, y2))
    if top >= target:
        leaders = np.int64(y0 == top) + np.int64(y1 == top) + np.int64(y2 == top)
        if leaders == 1:
            lead = 0 if y0 == top else (1 if y1 == top else 2)
            return n + (lead + 2) % 3
        y0 += target - top
        y1 += target - top
        y2 += target - top
    y0, y1, y2 = max(y0, floor), max(y1, floor), max(y2, floor)
    return ((y1 - floor) * s + (y2 - floor)) * s + (y0 - floor)


@kernel
def solve_cube(points, probs, q, target, floor, rank, order, levels, ext, tol, max_sweeps):
    """Gauss-Seidel sweeps of the three-player programme until no value moves by more than ``tol``; the sweeps
    taken, or -1 if ``max_sweeps`` did not settle it.

    ``points`` (K, 3): the outcomes other than a thrown-in hand, relative to
    the dealer; ``probs`` (K, R) their chances under each draw; ``q`` (R,)
    the chance of a thrown-in hand. ``rank``/``order``: a state's flat index
    (``((x0 - floor) * s + (x1 - floor)) * s + (x2 - floor)``) to its rank and
    back; ``levels``: the bounds of the blocks of equal sum. ``ext`` (N + 3,
    3, R), by flat index, holds the start values and is solved in place.
    Within a block the sweep is a Jacobi step, a thrown-in hand folded in
    exactly (three in a row come back to the state), as in the twin.
    """
    k_n, r_n = probs.shape
    s = target - floor + 1
    n = s * s * s
    widest = 0
    for lv in range(len(levels) - 1):
        widest = max(widest, levels[lv + 1] - levels[lv])
    b = np.zeros((widest, 3, r_n))
    rot = np.zeros(widest, np.int64)
    fold = np.empty(r_n)
    for r in range(r_n):
        fold[r] = 1.0 / (1.0 - q[r] ** 3)
    any_zero = False
    for r in range(r_n):
        any_zero = any_zero or q[r] > 0.0
    # each outcome's move of the flat index where no score leaves the grid: (p1 * s + p2) * s + p0 from the state's
    # index turned to the next dealer; and its highest and lowest points, to tell where that holds
    shift = np.empty(k_n, np.int64)
    p_hi = np.empty(k_n, np.int64)
    p_lo = np.empty(k_n, np.int64)
    for m in range(k_n):
        shift[m] = (points[m, 1] * s + points[m, 2]) * s + points[m, 0]
        p_hi[m] = max(points[m, 0], max(points[m, 1], points[m, 2]))
        p_lo[m] = min(points[m, 0], min(points[m, 1], points[m, 2]))
    for sweep in range(1, max_sweeps + 1):
        moved = 0.0
        for lv in range(len(levels) - 1):
            lo, hi = levels[lv], levels[lv + 1]
            for i in range(lo, hi):
                fl = order[i]
                x0, x1, x2 = fl // (s * s) + floor, (fl // s) % s + floor, fl % s + floor
                c = i - lo
                for j in range(3):
                    for r in range(r_n):
                        b[c, j, r] = 0.0
                turned = ((x1 - floor) * s + (x2 - floor)) * s + (x0 - floor)
                x_hi = max(x0, max(x1, x2))
                x_lo = min(x0, min(x1, x2))
                for m in range(k_n):
                    if x_hi + p_hi[m] < target and x_lo + p_lo[m] >= floor:  # inside the grid: no win, no floor
                        nx = turned + shift[m]
                    else:
                        nx = next_flat(x0, x1, x2, points[m, 0], points[m, 1], points[m, 2], target, floor, s, n)
                    if nx >= n:  # a game won: 1 for the winner (seat j here is j - 1 seats left of the next dealer)
                        j = (nx - n + 1) % 3
                        for r in range(r_n):
                            b[c, j, r] += probs[m, r]
                    else:
                        for j in range(3):
                            jj = (j + 2) % 3
                            for r in range(r_n):
                                b[c, j, r] += probs[m, r] * ext[nx, jj, r]
                if any_zero:
                    nx = next_flat(x0, x1, x2, 0, 0, 0, target, floor, s, n)
                    rot[c] = c if nx >= n else rank[nx] - lo  # (a game already won: never reached)
            for i in range(lo, hi):
                c = i - lo
                fl = order[i]
                for j in range(3):
                    for r in range(r_n):
                        v = b[c, j, r]
                        if any_zero:
                            a = rot[c]
                            v = (v + q[r] * b[a, (j + 2) % 3, r]
                                 + q[r] * q[r] * b[rot[a], (j + 1) % 3, r]) * fold[r]
                        moved = max(moved, abs(v - ext[fl, j, r]))
                        ext[fl, j, r] = v
        if moved <= tol:
            return sweep
    return -1


# ---------------------------------------------------------------- the game-equity bidder
# The tables' vector (``bower.sim.equity_bidder.flat``), from its offset ``o``: a header (``E_*``: the target, the
# equity table's floor, the estimate buckets, K outcomes, the measured hands a cell needs, the bucket width, the
# side of the equity table, the lowest score the bidder trusts the table at where a variant has one), the outcomes
# (K rows of ``n_fields`` points: relative to the caller, or its side), each cell's count of measured hands, each
# cell's outcome probabilities (cells x K) and the equity table (three players: the cube, 3 x S x S x S, relative
# to the dealer; two sides: side 0's chance, 4 dealers x S x S, side 0's score first, from the floor).
E_TARGET, E_FLOOR, E_BUCKETS, E_K, E_MIN, E_WIDTH, E_SIDE, E_LOW = range(8)
E_HEADER = 8


@kernel
def bucket_of(est, width, n_buckets):
    """The estimate bucket of ``est``: ``floor(est / width)``, an estimate below 0 in bucket 0, the last bucket
    taking every estimate above."""
    return min(max(np.int64(np.floor(est / width)), 0), n_buckets - 1)


@kernel(_nrt=False)
def value3(eq, o, per_bucket, cell, seat, dealer, s0, s1, s2, target):
    """Three players: ``seat``'s chance to win the game if the hand's outcome (points to the caller, to its left,
    to its right) is drawn from ``cell`` of the tables at ``eq[o:]`` (``per_bucket`` cells a bucket), at the scores
    ``s0, s1, s2`` by seat: the sum over the outcomes of their probability times the equity at the scores they lead
    to, the deal passed to the left.

    A unique highest score at or past ``target`` wins (1 to its seat, 0 to the others); a tie at the top there
    is moved down to the target (the table's tie rows); a score below the floor counts as the floor.
    """
    floor = np.int64(eq[o + E_FLOOR])
    k_n = np.int64(eq[o + E_K])
    side = np.int64(eq[o + E_SIDE])
    n_cells = per_bucket * np.int64(eq[o + E_BUCKETS])
    oc = o + E_HEADER
    pr = oc + 3 * k_n + n_cells + cell * k_n
    cube = oc + 3 * k_n + n_cells + n_cells * k_n
    nd = (dealer + 1) % 3
    j = (seat - nd) % 3
    v = 0.0
    for k in range(k_n):
        p = eq[pr + k]
        if p == 0.0:
            continue
        own = np.int64(eq[oc + 3 * k])
        left = np.int64(eq[oc + 3 * k + 1])
        right = np.int64(eq[oc + 3 * k + 2])
        y0 = s0 + (own if seat == 0 else (left if seat == 2 else right))
        y1 = s1 + (own if seat == 1 else (left if seat == 0 else right))
        y2 = s2 + (own if seat == 2 else (left if seat == 1 else right))
        top = max(y0, max(y1, y2))
        if top >= target:
            if (y0 == top) + (y1 == top) + (y2 == top) == 1:
                mine = y0 if seat == 0 else (y1 if seat == 1 else y2)
                v += p if mine == top else 0.0
                continue
            y0, y1, y2 = y0 + target - top, y1 + target - top, y2 + target - top
        y0, y1, y2 = max(y0, floor), max(y1, floor), max(y2, floor)
        x0 = y0 if nd == 0 else (y1 if nd == 1 else y2)
        x1 = y1 if nd == 0 else (y2 if nd == 1 else y0)
        x2 = y2 if nd == 0 else (y0 if nd == 1 else y1)
        v += p * eq[cube + ((j * side + x0 - floor) * side + x1 - floor) * side + x2 - floor]
    return v


@kernel(_nrt=False)
def value2(eq, o, per_bucket, n_fields, cell, side, dealer, s0, s1, target):
    """Two sides: ``side``'s chance to win the game if the hand's outcome (points to the caller's side, to the
    other side, and with ``n_fields`` 3 a field that is 1 where the caller's side bid the hand) is drawn from
    ``cell`` of the tables at ``eq[o:]`` (``per_bucket`` cells a bucket), at side scores ``s0``, ``s1``: the sum
    over the outcomes of their probability times the equity at the scores they lead to, the deal passed to the
    left.

    A side alone at or past ``target`` wins; both there (never where only one side scores on a hand): the side
    that bid, or side 0 without that field; a score below the table's floor counts as the floor.
    """
    floor = np.int64(eq[o + E_FLOOR])
    k_n = np.int64(eq[o + E_K])
    side_n = np.int64(eq[o + E_SIDE])
    n_cells = per_bucket * np.int64(eq[o + E_BUCKETS])
    oc = o + E_HEADER
    pr = oc + n_fields * k_n + n_cells + cell * k_n
    table = oc + n_fields * k_n + n_cells + n_cells * k_n + ((dealer + 1) % 4) * side_n * side_n
    v = 0.0
    for k in range(k_n):
        p = eq[pr + k]
        if p == 0.0:
            continue
        own = np.int64(eq[oc + n_fields * k])
        opp = np.int64(eq[oc + n_fields * k + 1])
        y0 = s0 + (own if side == 0 else opp)
        y1 = s1 + (opp if side == 0 else own)
        if y0 >= target or y1 >= target:
            if y0 >= target and y1 >= target:
                win = eq[oc + n_fields * k + 2] == 1.0 if n_fields == 3 else side == 0
            else:
                win = (y0 >= target) == (side == 0)
            v += p if win else 0.0
            continue
        e = eq[table + (max(y0, floor) - floor) * side_n + max(y1, floor) - floor]
        v += p * (e if side == 0 else 1.0 - e)
    return v


@kernel(_nrt=False)
def best_level(eq, o, per_bucket, n_fields, three, cell, default, legal, who, dealer, s0, s1, s2, target):
    """The index of the level an equity bidder calls (the tables at ``eq[o:]``; ``cell``: its situation's first
    cell, of the level of index 0): the level of highest value (``value3`` for ``seat`` ``who`` with ``three``,
    else ``value2`` for side ``who`` and ``n_fields`` outcome fields) among the legal ones (bit ``li`` of
    ``legal``). ``default``, the index of the thresholds' level, stands where its cell or the tables are missing
    (another ``target``, fewer measured hands than the minimum) and wins ties; the others are tried by index,
    each needing strictly more.
    """
    if np.int64(eq[o + E_TARGET]) != target:
        return default
    counts = o + E_HEADER + n_fields * np.int64(eq[o + E_K])
    need = eq[o + E_MIN]
    if eq[counts + cell + default] < need:
        return default
    best = default
    if three:
        best_v = value3(eq, o, per_bucket, cell + default, who, dealer, s0, s1, s2, target)
    else:
        best_v = value2(eq, o, per_bucket, n_fields, cell + default, who, dealer, s0, s1, target)
    li = 0
    while (legal >> li) != 0:
        if li != default and (legal >> li) & 1 and eq[counts + cell + li] >= need:
            if three:
                v = value3(eq, o, per_bucket, cell + li, who, dealer, s0, s1, s2, target)
            else:
                v = value2(eq, o, per_bucket, n_fields, cell + li, who, dealer, s0, s1, target)
            if v > best_v:
                best, best_v = li, v
        li += 1
    return best


# ---------------------------------------------------------------- the bidder's calibration (kernels/<v>/calibrate.py)
# Each variant's calibration kernel plays a hand once by the strategy, then once more per legal level of each call
# it measures, the call forced to that level; a call writes a block of entries, one a level: its cell and its
# outcome code (points plus ``OFFSET``, ``FIELD_BITS`` bits a field, the first field highest;
# ``bower.sim.equity_bidder.tabulate`` reads them back).
OFFSET = 64
FIELD_BITS = 7


@kernel
def cell_block(cells, codes, out, n_levels, cell, legal):
    """Start the block of ``n_levels`` entries at ``out``: ``cell + li`` for each legal level index ``li`` (bit
    ``li`` of ``legal``), -1 for the others (``legal`` 0: a call never reached), every code 0."""
    for li in range(n_levels):
        cells[out + li] = cell + li if (legal >> li) & 1 else -1
        codes[out + li] = 0


@kernel
def pack3(a, b, c):
    """The outcome code of three fields (points from -64 to 63)."""
    return ((a + OFFSET) << (2 * FIELD_BITS)) | ((b + OFFSET) << FIELD_BITS) | (c + OFFSET)


@kernel(inline="always")
def outcome3(rec, r_points, seat):
    """Three players: the code of the points of a played hand (``rec[r_points:]`` by seat) relative to ``seat``:
    its own, its left's, its right's."""
    return pack3(rec[r_points + seat], rec[r_points + (seat + 1) % 3], rec[r_points + (seat + 2) % 3])


@kernel
def first_call(rec, r_calls, n_calls, seat):
    """(the index of ``seat``'s first call among the ``n_calls`` calls ``rec[r_calls:]`` as (seat, call) pairs, or -1
    where it had no turn; the highest call before it, the standing bid)."""
    standing = np.int64(0)
    for i in range(n_calls):
        if rec[r_calls + 2 * i] == seat:
            return i, standing
        standing = max(standing, rec[r_calls + 2 * i + 1])
    return np.int64(-1), standing
