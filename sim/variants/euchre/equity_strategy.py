"""The game-equity bidder's tables (Standard Euchre, ``bid_equity``; the ``equity`` preset).

At each call of the auction the bidder asks which legal level gives its side
the highest chance to win the game:

    value(level) = sum over outcomes o of P(o | cell) * E(scores + o, next dealer)

where the cell is (the round, its position 1..4, the bucket of its estimate
(round one: the number its order threshold is compared with; round two: its
best suit's), the level: pass, the call (order up; name the best suit), the
call going alone), P the **calibration** table and E the **equity** table of
``bower.sim.equity`` (the default strategy in every seat, the game's target
and rules; side 0's chance by dealer). The calibration is measured once from
the default strategy's own play (``kernels/euchre/calibrate.py``): hands
dealt at random, and at each call of the default's auction each legal level
forced in turn, the rest of the hand played by the default strategy; the
outcome is the points to the caller's side and to the other side. A cell
with fewer than ``MIN_COUNT`` hands is missing; where the thresholds' own
level is missing, or no other level is strictly better, the thresholds' call
stands. A defender's defending alone stays the thresholds'.

The plumbing (cache, seeding, tabulation, memo) is ``bower.sim.equity_bidder``'s.
Both tables are flattened (``flat``) and carried into the games kernel
(``kernels/euchre/strategy.py``, ``equity_level``), which only indexes and
compares. ``level`` is the plain-Python twin of the kernel's decision.
"""

from __future__ import annotations

import sys

import numpy as np

from bower.sim import equity_bidder as eb

VARIANT_NAME = "euchre"
CALIBRATE = "bower.kernels.euchre.calibrate"  # the calibration kernel's module
CALIBRATION_HANDS = 1_000_000  # hands dealt to measure the calibration table (each played up to 17 times)
EQUITY_HANDS = 1_000_000  # hands of the equity table (``bower.sim.equity.DEFAULT_HANDS``)
SEED = 0  # the seed of both tables: they describe the strategy, not a run
BUCKET_WIDTH = 0.25  # tricks of estimate per bucket
N_BUCKETS = 24  # buckets 0 .. 5.75 and above (an estimate below 0 counts as 0)
MIN_COUNT = 100  # measured hands a cell needs to be used
CHUNK = 4096  # hands per calibration chunk (seeded by chunk: the same table for any thread count)
N_LEVELS = 3  # pass, call, call alone
N_CELLS = 2 * 4 * N_BUCKETS * N_LEVELS
N_FIELDS = 2  # outcome fields of a calibration code


def calibration(rules: dict | None = None, hands: int = CALIBRATION_HANDS, seed: int = SEED,
                threads: int | None = None, cache: bool = True) -> dict:
    """The calibration table (module docstring) as a dict: ``outcomes`` (K, 2) int64 (points to the caller's side,
    to the other side), ``counts`` (cells, K) int64, ``cell_counts`` (cells,), ``probs`` (cells, K), with the
    ``rules``, ``hands``, ``seed``, ``bucket_width``, ``buckets``, ``cpu_s`` and ``wall_s`` it took.

    Cells: ``cell(round, position, estimate, level)``. Chunks are seeded from (seed, chunk): the same table for any
    thread count; kept in the equity cache (``cache=False`` or ``BOWER_EQUITY_CACHE=0``: neither read nor
    written).
    """
    return eb.calibrate(sys.modules[__name__], rules, hands, seed, threads, cache)


def cell(rnd: int, position: int, estimate: float, level: int, buckets: int = N_BUCKETS,
         width: float = BUCKET_WIDTH) -> int:
    """The calibration cell of a call: round ``rnd`` (0: the up-card's, 1: naming a suit), ``position`` 1..4 (4 =
    the dealer), the caller's ``estimate`` and the ``level`` (0 pass, 1 call, 2 call alone)."""
    return ((rnd * 4 + position - 1) * buckets + eb.bucket(estimate, buckets, width)) * N_LEVELS + level


def tables(rules: dict | None = None, target: int = 10, *, hands: int = EQUITY_HANDS,
           calibration_hands: int = CALIBRATION_HANDS, seed: int = SEED, threads: int | None = None) -> dict:
    """Both tables of the bidder for a game to ``target`` under ``rules``: ``{"calibration", "equity"}``
    (``bower.sim.equity_bidder.tables``)."""
    return eb.tables(sys.modules[__name__], rules, target, hands, calibration_hands, seed, threads)


def flat(t: dict) -> np.ndarray:
    """The tables ``t`` (``tables``) as the float64 vector the games kernel carries (the layout of
    ``kernels/equity.py``'s ``E_*``)."""
    return eb.flat(t, MIN_COUNT, "equity")


def kernel_tables(rules_vec, target: int) -> np.ndarray:
    """``flat(tables(...))`` for the kernels' rule vector and target at this module's precision (``EQUITY_HANDS``,
    ``CALIBRATION_HANDS``), kept in memory for the process (``bower.sim.equity_bidder.GamesKernel``)."""
    return eb.kernel_tables(sys.modules[__name__], rules_vec, target)


value = eb.value2  # plain-Python twin of ``equity_value`` (the two sides' sum, shared with Hasenpfeffer)


def level(t: dict, rnd: int, position: int, seat: int, dealer: int, scores, target: int, estimate: float,
          default: int, pass_legal: bool = True) -> int:
    """Plain-Python twin of the kernel's ``equity_level`` (``bower.sim.equity_bidder.best_level``): the bidder's
    level (0 pass, 1 call, 2 alone), given the thresholds' ``default``; ``pass_legal`` False for the stuck dealer."""
    cal = t["calibration"]
    first = cell(rnd, position, estimate, 0, int(cal["buckets"]), float(cal["bucket_width"]))
    legal = [li for li in range(N_LEVELS) if li != 0 or pass_legal]
    return eb.best_level(t, first, default, legal, target, MIN_COUNT,
                         lambda c: value(t, c, seat % 2, dealer, scores, target))
