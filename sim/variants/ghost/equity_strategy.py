"""The game-equity bidder's tables (Ghost Hand, ``bid_equity``; the ``equity`` preset).

At each call the bidder asks which legal call (pass, each bid above the
standing one, moon) gives it the highest chance to win the game:

    value(level) = sum over outcomes o of P(o | cell) * E(scores + o, next dealer)

where the cell is (its position, the standing bid, its trick estimate's
bucket, the level), P the **calibration** table and E the **equity** table of
``bower.sim.equity`` (the default strategy in every seat, the game's target
and rules). The calibration is measured once from the default strategy's own
play (``kernels/ghost/calibrate.py``): hands dealt at random, and for each
seat at its first call each legal level forced in turn, the rest of the hand
played by the default strategy; the outcome is the points to the caller, to
the seat on its left and to the seat on its right. A cell with fewer than
``MIN_COUNT`` hands is missing; where the thresholds' own call is missing, or
no other call is strictly better, the thresholds' call stands.

Both tables are computed in Python, kept in the equity cache
(``bower.sim.equity.cache_folder``; ``BOWER_EQUITY_CACHE=0`` turns it off)
and in memory, flattened (``flat``) and carried after the bidder's strategy
row into the kernels (``kernels/ghost/strategy.py``, ``equity_call``), which
only index and compare. ``call`` is the plain-Python twin of the kernel's
decision.
"""

from __future__ import annotations

import sys

import numpy as np

from bower.sim import equity_bidder as eb

VARIANT_NAME = "ghost"
CALIBRATE = "bower.kernels.ghost.calibrate"  # the calibration kernel's module
CALIBRATION_HANDS = 1_000_000  # hands dealt to measure the calibration table (each played up to 13 times)
EQUITY_HANDS = 1_000_000  # hands of the equity table (``bower.sim.equity.DEFAULT_HANDS``)
SEED = 0  # the seed of both tables: they describe the strategy, not a run
BUCKET_WIDTH = 0.25  # tricks of estimate per bucket
N_BUCKETS = 28  # buckets 0 .. 6.75 and above
MIN_COUNT = 100  # measured hands a cell needs to be used
CHUNK = 4096  # hands per calibration chunk (seeded by chunk: the same table for any thread count)
LEVELS = (0, 3, 4, 5, 6)
N_CELLS = 3 * 4 * N_BUCKETS * len(LEVELS)  # position, standing bid, bucket, level
N_FIELDS = 3  # outcome fields of a calibration code

rules_from_vector = eb.rules_from_vector
EquityStrategyError = eb.EquityStrategyError


def kernel_strategy(params):
    """The default strategy by seat as the calibration kernel reads it: its strategy rows."""
    from bower.kernels.ghost.strategy import strategy_rows

    return strategy_rows(params)


def calibration(rules: dict | None = None, hands: int = CALIBRATION_HANDS, seed: int = SEED,
                threads: int | None = None, cache: bool = True) -> dict:
    """The calibration table (module docstring) as a dict: ``outcomes`` (K, 3) int64 (points to the caller, its
    left, its right), ``counts`` (cells, K) int64, ``cell_counts`` (cells,), ``probs`` (cells, K), with the
    ``rules``, ``hands``, ``seed``, ``bucket_width``, ``buckets``, ``cpu_s`` and ``wall_s`` it took.

    Cells: ``equity_cell(position, standing, bucket) + level index`` (``kernels/ghost/strategy.py``); read them
    with ``cell``. Chunks are seeded from (seed, chunk), so the table is the same for any thread count; it is
    kept in the equity cache (``cache=False`` or ``BOWER_EQUITY_CACHE=0``: neither read nor written)
    (``bower.sim.equity_bidder.calibration``).
    """
    return eb.calibrate(sys.modules[__name__], rules, hands, seed, threads, cache)


def cell(position: int, standing: int, estimate: float, level: int, buckets: int = N_BUCKETS,
         width: float = BUCKET_WIDTH) -> int:
    """The calibration cell of a call: ``position`` 0..2 from the dealer's left (2 = the dealer), the
    ``standing`` bid (0, 3, 4, 5), the caller's trick ``estimate`` and the ``level`` (0, 3, 4, 5, 6)."""
    bucket = eb.bucket(estimate, buckets, width)
    first = ((position * 4 + (0 if standing == 0 else standing - 2)) * buckets + bucket) * len(LEVELS)
    return first + LEVELS.index(level)


def equity_table(rules: dict | None = None, target: int = 32, hands: int = EQUITY_HANDS, seed: int = SEED,
                 threads: int | None = None) -> dict:
    """The equity table (``bower.sim.equity.compute``: the default strategy, ``hands`` hands, the game's ``target``
    and ``rules``) the bidder weighs outcomes with; only its cube and its shape are read."""
    return eb.equity_table(VARIANT_NAME, rules, target, hands, seed, threads)


def tables(rules: dict | None = None, target: int = 32, *, hands: int = EQUITY_HANDS,
           calibration_hands: int = CALIBRATION_HANDS, seed: int = SEED, threads: int | None = None) -> dict:
    """Both tables of the bidder for a game to ``target`` under ``rules``: ``{"calibration", "equity"}``
    (``bower.sim.equity_bidder.tables``)."""
    return eb.tables(sys.modules[__name__], rules, target, hands, calibration_hands, seed, threads)


def flat(t: dict) -> np.ndarray:
    """The tables ``t`` (``tables``) as the float64 vector the kernels carry after the bidder's row (the layout of
    ``kernels/equity.py``'s ``E_*``)."""
    return eb.flat(t, MIN_COUNT, "cube")


def kernel_tables(rules_vec, target: int) -> np.ndarray:
    """``flat(tables(...))`` for the kernels' rule vector and target at this module's precision (``EQUITY_HANDS``,
    ``CALIBRATION_HANDS``), kept in memory for the process (``bower.sim.equity_bidder.GamesKernel``)."""
    from bower.sim.variants import get_variant

    if rules_from_vector(get_variant(VARIANT_NAME), rules_vec).get("tiebreak") == "playoff":
        raise EquityStrategyError("the equity bidder (bid_equity = 1) needs an equity table, which is not "
                                  "available for tiebreak = playoff (only highest)")
    return eb.kernel_tables(sys.modules[__name__], rules_vec, target)


value = eb.value3  # plain-Python twin of ``equity_value`` (the three players' sum, shared with Cutthroat)


def call(t: dict, seat: int, dealer: int, scores, target: int, standing: int, forced: bool, estimate: float,
         default: int) -> int:
    """Plain-Python twin of the kernel\'s ``equity_call`` (``bower.sim.equity_bidder.best_level``): the bidder\'s call,
    given the thresholds\' ``default``."""
    cal = t["calibration"]
    first = cell((seat - dealer + 2) % 3, standing, estimate, 0, int(cal["buckets"]), float(cal["bucket_width"]))
    legal = [i for i, level in enumerate(LEVELS) if ((not forced) if level == 0 else (level == 6 or level > standing))]
    return LEVELS[eb.best_level(t, first, LEVELS.index(default), legal, target, MIN_COUNT,
                                lambda c: value(t, c, seat, dealer, scores, target))]
