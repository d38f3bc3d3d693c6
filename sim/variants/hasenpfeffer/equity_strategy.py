"""The game-equity bidder's tables (Hasenpfeffer, ``bid_equity``; the ``equity`` preset).

At each call the bidder asks which legal call (pass, each bid above the
standing one up to 6, or big pepper under ``bidding=pepper``) gives its side
the highest chance to win the game:

    value(level) = sum over outcomes o of P(o | cell) * E(scores + o, next dealer)

where the cell is (its position 1..4, the standing bid, the bucket of its
best trick estimate, the level), P the **calibration** table and E the
**equity** table of ``bower.sim.equity`` (the default strategy in every
seat, the game's target and rules; side 0's chance by dealer, scores from
the table's floor). The calibration is measured once from the default
strategy's own play (``kernels/hasenpfeffer/calibrate.py``): hands dealt at
random, and for each seat at its first call each legal level forced in turn,
the rest of the hand played by the default strategy; the outcome is the
points to the caller's side, to the other side, and whether the caller's
side bid the hand (both sides past the target: the bidders win). A cell with
fewer than ``MIN_COUNT`` hands is missing; where the thresholds' own call is
missing, or no other call is strictly better, the thresholds' call stands,
and so it does where a side's score is below ``low`` (``-target``): the
table's floor holds a falling score, so there a failed bid would look free.
The same cells serve the seat's later calls of an auction that goes round
again. Trump, the widow and the play stay the default's.

The plumbing (cache, seeding, tabulation, memo, the games kernel's tables) is
``bower.sim.equity_bidder``'s. Both tables are flattened (``flat``) and
carried into the games kernel (``kernels/hasenpfeffer/strategy.py``,
``equity_call``), which only indexes and compares. ``call`` is the
plain-Python twin of the kernel's decision.
"""

from __future__ import annotations

import sys

import numpy as np

from bower.sim import equity_bidder as eb

VARIANT_NAME = "hasenpfeffer"
CALIBRATE = "bower.kernels.hasenpfeffer.calibrate"  # the calibration kernel's module
CALIBRATION_HANDS = 1_000_000  # hands dealt to measure the calibration table (each played up to 29 times)
EQUITY_HANDS = 1_000_000  # hands of the equity table (``bower.sim.equity.DEFAULT_HANDS``)
SEED = 0  # the seed of both tables: they describe the strategy, not a run
BUCKET_WIDTH = 0.25  # tricks of estimate per bucket
N_BUCKETS = 32  # buckets 0 .. 7.75 and above (an estimate below 0 counts as 0)
MIN_COUNT = 100  # measured hands a cell needs to be used
CHUNK = 4096  # hands per calibration chunk (seeded by chunk: the same table for any thread count)
N_STANDING = 8  # standing bids 0 .. 7
N_LEVELS = 8  # pass, 1 .. 6, big pepper
N_CELLS = 4 * N_STANDING * N_BUCKETS * N_LEVELS
N_FIELDS = 3  # outcome fields of a calibration code


def calibration(rules: dict | None = None, hands: int = CALIBRATION_HANDS, seed: int = SEED,
                threads: int | None = None, cache: bool = True) -> dict:
    """The calibration table (module docstring) as a dict: ``outcomes`` (K, 3) int64 (points to the caller's side,
    to the other side, 1 where the caller's side bid), ``counts`` (cells, K) int64, ``cell_counts`` (cells,),
    ``probs`` (cells, K), with the ``rules``, ``hands``, ``seed``, ``bucket_width``, ``buckets``, ``cpu_s`` and
    ``wall_s`` it took.

    Cells: ``cell(position, standing, estimate, level)``. Chunks are seeded from (seed, chunk): the same table for
    any thread count; kept in the equity cache (``cache=False`` or ``BOWER_EQUITY_CACHE=0``: neither read nor
    written).
    """
    return eb.calibrate(sys.modules[__name__], rules, hands, seed, threads, cache)


def cell(position: int, standing: int, estimate: float, level: int, buckets: int = N_BUCKETS,
         width: float = BUCKET_WIDTH) -> int:
    """The calibration cell of a call: ``position`` 1..4 (4 = the dealer), the ``standing`` bid (0 none .. 7), the
    caller's best ``estimate`` and the ``level`` (0 pass, 1..6, 7 big pepper)."""
    return (((position - 1) * N_STANDING + standing) * buckets + eb.bucket(estimate, buckets, width)) * N_LEVELS + level


def tables(rules: dict | None = None, target: int = 10, *, hands: int = EQUITY_HANDS,
           calibration_hands: int = CALIBRATION_HANDS, seed: int = SEED, threads: int | None = None) -> dict:
    """Both tables of the bidder for a game to ``target`` under ``rules``: ``{"calibration", "equity"}``
    (``bower.sim.equity_bidder.tables``)."""
    return eb.tables(sys.modules[__name__], rules, target, hands, calibration_hands, seed, threads)


def flat(t: dict) -> np.ndarray:
    """The tables ``t`` (``tables``) as the float64 vector the games kernel carries (the layout of
    ``kernels/equity.py``'s ``E_*``)."""
    return eb.flat(t, MIN_COUNT, "equity", low=low(t["equity"]))


def low(eq: dict) -> int:
    """The lowest score the bidder trusts the equity table ``eq`` at: ``-target`` (the cells whose change with a
    deeper floor ``bower.sim.equity`` measures as ``floor_effect``), the floor itself if higher. Below it a failed
    bid would look free (the floor holds the score), so there the thresholds call."""
    return max(int(eq["floor"]), -int(eq["target"]))


def kernel_tables(rules_vec, target: int) -> np.ndarray:
    """``flat(tables(...))`` for the kernels' rule vector and target at this module's precision (``EQUITY_HANDS``,
    ``CALIBRATION_HANDS``), kept in memory for the process (``bower.sim.equity_bidder.GamesKernel``)."""
    return eb.kernel_tables(sys.modules[__name__], rules_vec, target)


value = eb.value2  # plain-Python twin of ``equity_value`` (the two sides' sum, shared with Standard Euchre)


def call(t: dict, seat: int, dealer: int, scores, target: int, standing: int, top: int, estimate: float,
         default: int) -> int:
    """Plain-Python twin of the kernel\'s ``equity_call`` (``bower.sim.equity_bidder.best_level``): the bidder\'s call,
    given the thresholds\' ``default``."""
    cal = t["calibration"]
    if min(scores) < low(t["equity"]):
        return default
    first = cell((seat - dealer + 3) % 4 + 1, standing, estimate, 0, int(cal["buckets"]),
                 float(cal["bucket_width"]))
    legal = [level for level in range(top + 1) if level == 0 or level > standing]
    return eb.best_level(t, first, default, legal, target, MIN_COUNT,
                         lambda c: value(t, c, seat % 2, dealer, scores, target))
