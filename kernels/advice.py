"""Counters shared by every variant's should-bid kernels: one row of ``A_*`` per action, paired products."""

import numpy as np

from bower.kernels.jit import kernel
from bower.kernels.rng import next_u64, splitmix_seed

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


# ---- weighted samples (the auction model of the other players: self-normalised importance sampling)

W_N, W_N2, W_MAKER, W_MAKER2, W_MADE, W_TRICKS, W_TRICKS_SQ, W_PTS, W_PTS_SQ, W_MAR, W_MAR_SQ = range(11)
W_WIDTH = 11
M_KIND, M_TAU, M_EPS = range(3)  # the model vector: kind (0 exact rejection, 1 softmax), temperature, tremble
MODEL_EXACT, MODEL_SOFTMAX = 0, 1
PLAY_STRATEGY, PLAY_DD = 1, 2  # play-out bits: the strategy plays the hand out, the double-dummy solver scores it


def dd_arg(playout):
    """The should-bid kernels' ``dd`` argument: an array when the play-out bits ``playout`` ask for the
    double-dummy play-out, else None, for which the kernels compile no solver code."""
    return np.zeros(1, np.int64) if int(playout) & PLAY_DD else None


NO_EQUITY = np.zeros((0, 0, 0, 0))  # ``eqt`` without ``--scores``: an empty table, the same type as a real one


def eqt_arg(game):
    """The should-bid kernels' ``eqt`` argument: the asker's equity table of ``game``
    (``bower.sim.advice.game_equity``), or ``NO_EQUITY`` without one. Always an array, so questions with and
    without scores run one compiled kernel: the equity sums cost a branch per sample, where a specialization
    for None cost each variant's advice kernel a second compile."""
    return NO_EQUITY if game is None else game["eqt"]


@kernel(inline="always")
def tally_weighted(row, w, maker, made, tricks, points, margin2):
    """Add one sample of weight ``w`` to an action's weighted counters ``row`` (``W_*``); ``margin2`` twice the margin."""
    row[W_N] += w
    row[W_N2] += w * w
    if maker:
        row[W_MAKER] += w
        row[W_MAKER2] += w * w
        if made:
            row[W_MADE] += w
    row[W_TRICKS] += w * tricks
    row[W_TRICKS_SQ] += w * tricks * tricks
    row[W_PTS] += w * points
    row[W_PTS_SQ] += w * points * points
    row[W_MAR] += w * margin2
    row[W_MAR_SQ] += w * margin2 * margin2


@kernel(inline="always")
def add_products_weighted(w, pts, mar, pts_xy, mar_xy):
    """Add ``w`` times the sample's products of the actions' points (and doubled margins), for paired intervals."""
    n = pts.shape[0]
    for a in range(n):
        for b in range(n):
            pts_xy[a, b] += w * pts[a] * pts[b]
            mar_xy[a, b] += w * mar[a] * mar[b]


@kernel
def choice_probability(dist, n, chosen, tau, eps):
    """The model's probability of legal choice ``chosen`` among ``n`` with distances ``dist[:n]`` (0: the strategy's).

    A softmax over ``-dist / tau`` (with ``tau`` 0: the choices at the least
    distance share it evenly), mixed with a tremble ``eps`` spread evenly over
    the ``n`` legal choices: ``(1 - eps) * softmax + eps / n``.
    """
    if n <= 0 or chosen < 0 or chosen >= n:
        return 0.0
    best = dist[0]
    for i in range(1, n):
        if dist[i] < best:
            best = dist[i]
    if tau <= 0.0:
        ties = 0
        for i in range(n):
            if dist[i] == best:
                ties += 1
        p = 1.0 / ties if dist[chosen] == best else 0.0
    else:
        z = 0.0
        for i in range(n):
            z += np.exp(-(dist[i] - best) / tau)
        p = np.exp(-(dist[chosen] - best) / tau) / z
    return (1.0 - eps) * p + eps / n


ROULETTE = 1.0  # softmax weights below this share of the chunk's mean weight so far go through Russian roulette


@kernel(inline="always")
def roulette(w, raw_sum, raw_n, state):
    """Russian roulette on a deal's model weight ``w`` (should-bid's softmax model): the weight to play it at.

    ``raw_sum``/``raw_n`` are the chunk's weights over its earlier draws. A
    weight below ``r = ROULETTE`` times their mean is played with probability
    ``w / r`` (a uniform from the chunk's deal stream ``state``) at weight
    ``r``, else skipped (0). ``r`` depends only on earlier draws, so the
    weighted sums stay unbiased, and the deals the calls make far less likely
    than the typical one stop costing a play-out (and solves) each for almost
    nothing in the effective sample size.
    """
    r = ROULETTE * raw_sum / raw_n if raw_n > 0 else 0.0
    if 0.0 < w < r:
        u01 = float(next_u64(state) >> np.uint64(11)) * 1.1102230246251565e-16
        return r if u01 * r < w else 0.0
    return w


@kernel
def roulette_step(w, raw_sum, raw_n, state):
    """``roulette`` on a deal's model weight ``w``, then ``w`` added to the chunk's scale: (the weight to play the
    deal at, ``raw_sum + w``, ``raw_n + 1``), as every variant's should-bid chunk kernel weighs a drawn deal."""
    return roulette(w, raw_sum, raw_n, state), raw_sum + w, raw_n + 1


# ---- game equity (``should-bid --scores``): the asker's chance to win the game after each hand's outcome
#
# An outcome table ``eqt`` has one cell per outcome, a cell being a row of 1 + EQ_DRAWS chances: the table's own
# (column 0) and those of EQ_DRAWS redraws of it (``bower.sim.equity``: the table's outcome counts redrawn), whose
# spread is the table's own uncertainty. The last index of every outcome axis is a cell of NaN: points outside the
# table. Per action the kernels add up, with the deal's weight, the chance and its square (``E_SUM``, ``E_SQ``) and
# each redraw's chance (``E_DRAW + r``).

EQ_OFF = 30  # an equity table's points axes run from -EQ_OFF to EQ_OFF (the points one unit scores in a hand)
EQ_DRAWS = 10  # the redraws of the equity table carried beside it, for its standard error
E_SUM, E_SQ, E_DRAW = range(3)  # per action: the weighted sums of the equity after the hand, of its square, and
# from E_DRAW on of each redraw's equity after the hand
E_WIDTH = E_DRAW + EQ_DRAWS


@kernel(inline="always")
def side_equity(eqt, p0, p1, maker_side):
    """The asker's game equity after a hand scoring ``p0`` to side 0 and ``p1`` to side 1, ``maker_side`` (0, 1;
    0 when no one made trump) deciding a game both sides reach: the cell ``eqt[p0 + EQ_OFF, p1 + EQ_OFF,
    maker_side]`` (the table's chance, then each redraw's); the NaN cell for points outside the table."""
    if -EQ_OFF <= p0 <= EQ_OFF and -EQ_OFF <= p1 <= EQ_OFF and 0 <= maker_side <= 1:
        return eqt[p0 + EQ_OFF, p1 + EQ_OFF, maker_side]
    return eqt[-1, -1, -1]


@kernel(inline="always")
def seat_equity(eqt, p0, p1, p2):
    """The asker's game equity after a hand scoring ``p0``, ``p1``, ``p2`` to seats 0, 1, 2: the cell
    ``eqt[p0 + EQ_OFF, p1 + EQ_OFF, p2 + EQ_OFF]`` (the table's chance, then each redraw's); the NaN cell for
    points outside the table."""
    if -EQ_OFF <= p0 <= EQ_OFF and -EQ_OFF <= p1 <= EQ_OFF and -EQ_OFF <= p2 <= EQ_OFF:
        return eqt[p0 + EQ_OFF, p1 + EQ_OFF, p2 + EQ_OFF]
    return eqt[-1, -1, -1]


@kernel(inline="always")
def tally_equity(row, w, cell):
    """Add one sample of weight ``w`` and outcome ``cell`` (``side_equity``, ``seat_equity``) to an action's equity
    counters ``row`` (``E_*``): the table's chance and its square, and each redraw's chance."""
    e = cell[0]
    row[E_SUM] += w * e
    row[E_SQ] += w * e * e
    for r in range(1, cell.shape[0]):
        row[E_DRAW + r - 1] += w * cell[r]


@kernel(inline="always")
def add_equity_products(w, eq, eq_xy):
    """Add ``w`` times the sample's products of the actions' game equities, for paired intervals."""
    n = eq.shape[0]
    for a in range(n):
        for b in range(n):
            eq_xy[a, b] += w * eq[a] * eq[b]


@kernel
def add_draw_products(w, do_a, do_b, has_eq, pts, mar, pts_b, mar_b, eq, eq_b, pts_xy, mar_xy, eq_xy):
    """Close one kept deal of weight ``w`` in a chunk's paired-interval sums: the products of the actions' points
    and doubled margins (``add_products_weighted``) of play-out row 0 (``pts``, ``mar``: the strategy's play, when
    ``do_a``) and row 1 (``pts_b``, ``mar_b``: double dummy, when ``do_b``) into rows 0 and 1 of ``pts_xy`` and
    ``mar_xy``, and with an equity table (``has_eq``) the products of the game equities ``eq``, ``eq_b`` into
    ``eq_xy`` (``add_equity_products``)."""
    if do_a:
        add_products_weighted(w, pts, mar, pts_xy[0], mar_xy[0])
    if do_b:
        add_products_weighted(w, pts_b, mar_b, pts_xy[1], mar_xy[1])
    if has_eq:
        if do_a:
            add_equity_products(w, eq, eq_xy[0])
        if do_b:
            add_equity_products(w, eq_b, eq_xy[1])
