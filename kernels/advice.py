"""Counters shared by every variant's should-bid kernels: one row of ``A_*`` per action, paired products."""

from kernels.jit import kernel
from kernels.rng import next_u64, splitmix_seed

A_N, A_MAKER, A_MADE, A_TRICKS, A_TRICKS_SQ, A_PTS, A_PTS_SQ, A_MAR, A_MAR_SQ = range(9)
A_WIDTH = 9


@kernel(inline="always")
def tally_action(row, maker, made, tricks, points, margin2):
    """Add one played sample to an action's counters ``row`` (``A_*``); ``margin2`` is twice the margin."""
    row[A_N] += 1
    if maker:
        row[A_MAKER] += 1
        if made:
            row[A_MADE] += 1
    row[A_TRICKS] += tricks
    row[A_TRICKS_SQ] += tricks * tricks
    row[A_PTS] += points
    row[A_PTS_SQ] += points * points
    row[A_MAR] += margin2
    row[A_MAR_SQ] += margin2 * margin2


@kernel(inline="always")
def add_products(pts, mar, pts_xy, mar_xy):
    """Add the sample's products of the actions' points (and doubled margins), for paired intervals."""
    n = pts.shape[0]
    for a in range(n):
        for b in range(n):
            pts_xy[a, b] += pts[a] * pts[b]
            mar_xy[a, b] += mar[a] * mar[b]


@kernel
def reseed(dstate, dbuf):
    """A fresh decision stream for the next draw, seeded from this one (no overlap between samples)."""
    splitmix_seed(next_u64(dstate), dstate)
    dbuf[1] = 0
