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
