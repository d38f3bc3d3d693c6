"""The game-equity bidder's table plumbing, the same in every variant (``bid_equity``; the ``equity`` preset).

A variant's ``equity_strategy`` module says what a calibration cell is (the
caller's situation and the level it calls) and measures each cell's
outcomes with its own calibration kernel (``kernels/<variant>/calibrate.py``:
the default strategy's own play with the level forced); this module does
the rest the same way for all of them:

- ``calibration``: the chunks seeded from (seed, chunk) (the same table for
  any thread count), the kernel run, its outcome codes (points relative to
  the caller, ``FIELD_BITS`` bits each, plus ``OFFSET``) tabulated by cell
  (``tabulate``), the table kept in the equity cache
  (``bower.sim.equity.cache_folder``; ``BOWER_EQUITY_CACHE=0``: off) under
  a key of everything that decides it (``cache_key``).
- ``equity_table``: the equity table of ``bower.sim.equity`` the outcomes are
  weighed with (the default strategy, one redraw: only the point table is read).
- ``memo``: the flattened tables the kernels carry, built once a process for a
  (variant, rules, target, precision) and kept in memory, one set at a time.
- ``rules_from_vector``: the rule dict of a kernel rule vector.
- ``GamesKernel``: a variant's games chunk kernel (its last argument ``eq``,
  None compiling no equity code) given the tables where a strategy bids by
  equity; the variant's package puts it in place of its drivers'
  ``games_chunks``.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Callable

import numpy as np

from bower.kernels.equity import FIELD_BITS, OFFSET  # a calibration code's fields (points from -64 to 63)
from bower.kernels.jit import ChunkKernel
from bower.sim.errors import UserError

FORMAT = 1  # the layout of a cached calibration; a change makes older entries misses
EQUITY_RESAMPLES = 1  # the equity table's redraws: the bidder reads only the point table

_MEMO: dict = {}


class EquityStrategyError(UserError, ValueError):
    """Tables the bidder cannot have: a rule set the equity table does not model, a bad precision."""


def rules_from_vector(v, rules_vec) -> dict:
    """The rule dict of the kernel codes ``rules_vec`` (``bower.sim.rules.encode`` read backwards) of variant ``v``."""
    vec = np.asarray(rules_vec)
    return {o.name: o.values[list(o.codes).index(int(vec[i]))] for i, o in enumerate(v.options)}


def cache_key(what: dict, modules: tuple[str, ...]) -> str:
    """The cache key of a calibration: a hash of ``what`` (its variant, rules, hands, seed, cell layout), the
    versions, the layout ``FORMAT`` and the sources of ``modules`` (the code that measures it)."""
    from bower.kernels.cache import source_stamp
    from bower.sim import __version__

    what = {**what, "format": FORMAT, "bower": __version__, "numpy": np.__version__,
            "code": {m: source_stamp(m) for m in (__name__, *modules)}}
    return "calibration-" + hashlib.sha256(json.dumps(what, sort_keys=True, default=repr).encode()).hexdigest()


def tabulate(cells: np.ndarray, codes: np.ndarray, n_cells: int, n_fields: int) -> dict:
    """The calibration arrays of the measured (cell, outcome code) pairs (cells < 0 skipped): ``outcomes``
    (K, n_fields) int64 (the distinct outcomes, fields from the most significant), ``counts`` (n_cells, K),
    ``cell_counts`` (n_cells,) and ``probs`` (n_cells, K; 0 in a cell never measured)."""
    kept = cells >= 0
    cells, codes = cells[kept], codes[kept]
    uniq, inv = np.unique(codes, return_inverse=True)
    mask = (1 << FIELD_BITS) - 1
    outcomes = np.stack([((uniq >> (FIELD_BITS * (n_fields - 1 - i))) & mask) - OFFSET for i in range(n_fields)],
                        axis=1)
    counts = np.bincount(cells * len(uniq) + inv.ravel(), minlength=n_cells * len(uniq)).reshape(n_cells, -1)
    cell_counts = counts.sum(axis=1)
    return {"outcomes": outcomes.astype(np.int64), "counts": counts.astype(np.int64),
            "cell_counts": cell_counts.astype(np.int64), "probs": counts / np.maximum(cell_counts, 1)[:, None]}


def calibration(variant: str, measure: Callable, *, rules: dict | None, hands: int, seed: int,
                threads: int | None, cache: bool, chunk: int, per_hand: int, n_cells: int, n_fields: int,
                layout: dict, modules: tuple[str, ...]) -> dict:
    """A variant's calibration table: ``measure(states, chunk, hands, rules_vec, params, cells, codes)`` (the
    variant's calibration kernel, ``params`` the default strategy by seat) fills ``per_hand`` entries of
    ``cells`` and ``codes`` a hand; the result is ``tabulate``'s arrays with the ``rules``, ``hands``, ``seed``,
    the ``layout`` (the variant's cell layout: bucket width, buckets...), ``cpu_s`` and ``wall_s``.

    Chunks of ``chunk`` hands are seeded from (seed, chunk index): the same table for any thread count. Kept in
    the equity cache (``cache=False`` or ``BOWER_EQUITY_CACHE=0``: neither read nor written).
    """
    from bower.sim import equity, runner

    v, rules_d, rules_vec = runner.resolve_run(variant, seed, rules)
    hands = runner.check_count("calibration hands", hands, runner.MAX_HANDS)
    folder = equity.cache_folder() if cache else None
    key = cache_key({"variant": v.name, "rules": rules_d, "hands": hands, "seed": seed, **layout}, modules)
    if folder is not None:
        found = equity.cache_read(folder, key)
        if found is not None:
            return found
    runner.set_threads(threads)
    t0, c0 = time.perf_counter(), time.process_time()
    _, params = runner.seat_params("default", v.name)
    cells = np.empty(hands * per_hand, np.int64)
    codes = np.empty(hands * per_hand, np.int64)
    measure(runner.chunk_states(seed, 0, -(-hands // chunk)), chunk, hands, rules_vec, params, cells, codes)
    table = {"rules": rules_d, "hands": hands, "seed": seed, **layout, **tabulate(cells, codes, n_cells, n_fields),
             "cpu_s": time.process_time() - c0, "wall_s": time.perf_counter() - t0}
    if folder is not None:
        equity.cache_write(folder, key, table)
    return table


def calibrate(module, rules: dict | None, hands: int, seed: int, threads: int | None, cache: bool) -> dict:
    """``calibration`` for a variant's ``equity_strategy`` ``module``, read from its names: ``VARIANT_NAME``,
    ``CALIBRATE`` (its calibration kernel module, whose ``calibrate_chunks`` takes the strategy by seat, the bucket
    width and the bucket count before ``cells, codes``, and whose ``PER_HAND`` counts a hand's entries), ``CHUNK``,
    ``N_CELLS``, ``N_FIELDS``, ``BUCKET_WIDTH``, ``N_BUCKETS`` and, where the kernel reads the strategy otherwise
    than as parameter rows, ``kernel_strategy(params)``."""
    import importlib

    kc = importlib.import_module(module.CALIBRATE)
    to_kernel = getattr(module, "kernel_strategy", None)
    width, buckets = module.BUCKET_WIDTH, module.N_BUCKETS

    def measure(states, chunk, n_hands, rules_vec, params, cells, codes):
        """The calibration kernel on the default strategy by seat."""
        strat = params if to_kernel is None else to_kernel(params)
        kc.calibrate_chunks(states, chunk, n_hands, rules_vec, strat, width, buckets, cells, codes)

    return calibration(module.VARIANT_NAME, measure, rules=rules, hands=hands, seed=seed, threads=threads,
                       cache=cache, chunk=module.CHUNK, per_hand=kc.PER_HAND, n_cells=module.N_CELLS,
                       n_fields=module.N_FIELDS, layout={"bucket_width": width, "buckets": buckets},
                       modules=(module.__name__, module.CALIBRATE))


def equity_table(variant: str, rules: dict | None, target: int, hands: int, seed: int,
                 threads: int | None = None) -> dict:
    """The equity table (``bower.sim.equity.compute``: the default strategy, ``hands`` hands, the game's ``target``
    and ``rules``) the bidder weighs outcomes with; only its point table and its shape are read."""
    from bower.sim import equity

    table, _ = equity.compute_cached(variant, rules=rules, hands=hands, seed=seed, threads=threads,
                                     target=equity.check_target(target), resamples=EQUITY_RESAMPLES)
    return table


def value3(t: dict, cell_index: int, seat: int, dealer: int, scores, target: int) -> float:
    """Three players (Ghost Hand, Cutthroat): the plain-Python twin of ``kernels.equity.value3``: ``seat``'s
    chance to win the game after a hand whose outcome (points to ``seat``, to its left, to its right) is drawn from
    calibration cell ``cell_index`` of the tables ``t`` at ``scores`` (by seat), the deal passing from ``dealer`` to
    its left. A unique highest score at or past ``target`` wins; a tie at the top there is moved down to the
    target (the cube's tie rows); a score below the floor counts as the floor."""
    cal, eq = t["calibration"], t["equity"]
    cube, floor = np.asarray(eq["cube"]), int(eq["floor"])
    nd = (dealer + 1) % 3
    total = 0.0
    for p, (own, left, right) in zip(np.asarray(cal["probs"])[cell_index], np.asarray(cal["outcomes"])):
        if p == 0.0:
            continue
        y = list(scores)
        y[seat] += int(own)
        y[(seat + 1) % 3] += int(left)
        y[(seat + 2) % 3] += int(right)
        top = max(y)
        if top >= target:
            if y.count(top) == 1:
                total += p if y[seat] == top else 0.0
                continue
            y = [x + target - top for x in y]
        y = [max(x, floor) for x in y]
        total += p * cube[(seat - nd) % 3, y[nd] - floor, y[(nd + 1) % 3] - floor, y[(nd + 2) % 3] - floor]
    return total


def value2(t: dict, cell_index: int, side: int, dealer: int, scores, target: int) -> float:
    """Two sides (Standard Euchre, Hasenpfeffer): the plain-Python twin of ``kernels.equity.value2``: ``side``'s
    chance to win the game after a hand whose outcome (points to the caller's side, to the other side, and where
    the outcomes have a third field 1 if the caller's side bid the hand) is drawn from calibration cell
    ``cell_index`` of the tables ``t`` at side ``scores`` (side 0's first), the deal passing from ``dealer`` to its
    left. A side alone at or past ``target`` wins; both there: the side that bid (side 0 without that field); a
    score below the table's floor counts as the floor."""
    cal, eq = t["calibration"], t["equity"]
    table, floor = np.asarray(eq["equity"])[(dealer + 1) % 4], int(eq.get("floor") or 0)
    outcomes = np.asarray(cal["outcomes"])
    total = 0.0
    for p, row in zip(np.asarray(cal["probs"])[cell_index], outcomes):
        if p == 0.0:
            continue
        own, opp = int(row[0]), int(row[1])
        y_own, y_opp = scores[side] + own, scores[1 - side] + opp
        if y_own >= target or y_opp >= target:
            if y_own >= target and y_opp >= target:
                win = row[2] == 1 if len(row) > 2 else side == 0
            else:
                win = y_own >= target
            total += p if win else 0.0
            continue
        y_own, y_opp = max(y_own, floor) - floor, max(y_opp, floor) - floor
        total += p * table[y_own, y_opp] if side == 0 else p * (1.0 - table[y_opp, y_own])
    return total


def bucket(estimate: float, buckets: int, width: float) -> int:
    """Plain-Python twin of ``kernels.equity.bucket_of``: the estimate's bucket (below 0: 0; the last takes every
    estimate above)."""
    return min(max(int(np.floor(estimate / width)), 0), buckets - 1)


def best_level(t: dict, first: int, default: int, legal, target: int, min_count: int, value: Callable) -> int:
    """Plain-Python twin of ``kernels.equity.best_level``: the index of the bidder's level, given the cell
    ``first`` of its situation (level index 0), the thresholds' level index ``default``, the ``legal`` level
    indices in order and ``value(cell)``, its chance to win the game after a hand drawn from a cell. ``default``
    stands where the tables are for another ``target`` or its cell has fewer than ``min_count`` measured hands,
    and wins ties; each other level needs strictly more."""
    if int(t["equity"]["target"]) != target:
        return default
    counts = np.asarray(t["calibration"]["cell_counts"])
    if counts[first + default] < min_count:
        return default
    best, best_v = default, value(first + default)
    for li in legal:
        if li == default or counts[first + li] < min_count:
            continue
        v = value(first + li)
        if v > best_v:
            best, best_v = li, v
    return best


def tables(module, rules: dict | None, target: int, hands: int, calibration_hands: int, seed: int,
           threads: int | None) -> dict:
    """Both tables of a variant's bidder (``module``: its ``equity_strategy``, with ``VARIANT_NAME`` and
    ``calibration``) for a game to ``target`` under ``rules``: ``{"calibration", "equity"}``."""
    from bower.sim import equity

    target = equity.check_target(target)
    return {"calibration": module.calibration(rules, calibration_hands, seed, threads),
            "equity": equity_table(module.VARIANT_NAME, rules, target, hands, seed, threads)}


def flat(t: dict, min_count: int, table: str, low: float = 0.0) -> np.ndarray:
    """The tables ``t`` (``tables``) as the float64 vector the kernels carry (the layout of ``kernels/equity.py``'s
    ``E_*``): the header (target, the equity table's floor, the buckets, K outcomes, ``min_count``, the bucket
    width, the side of the equity ``table``: ``"equity"`` by side and dealer, ``"cube"`` for three players, and
    ``low``, the lowest score the bidder trusts the table at where the variant reads it), the outcomes, each cell's
    count, each cell's probabilities and the equity table."""
    from bower.kernels import equity as ke

    cal, eq = t["calibration"], t["equity"]
    values = np.asarray(eq[table], np.float64)
    outcomes = np.asarray(cal["outcomes"], np.float64)
    head = np.zeros(ke.E_HEADER)
    head[ke.E_TARGET], head[ke.E_BUCKETS], head[ke.E_K] = eq["target"], cal["buckets"], len(outcomes)
    head[ke.E_MIN], head[ke.E_WIDTH], head[ke.E_SIDE] = min_count, cal["bucket_width"], values.shape[-1]
    head[ke.E_FLOOR], head[ke.E_LOW] = eq.get("floor") or 0, low
    return np.concatenate([head, outcomes.ravel(), np.asarray(cal["cell_counts"], np.float64),
                           np.asarray(cal["probs"], np.float64).ravel(), values.ravel()])


def kernel_tables(module, rules_vec, target: int) -> np.ndarray:
    """``module.flat(module.tables(...))`` (``module``: a variant's ``equity_strategy``) for the kernels' rule vector
    and target at the module's precision (``EQUITY_HANDS``, ``CALIBRATION_HANDS``, ``SEED``, read at the call),
    kept in memory for the process (``memo``; ``GamesKernel``)."""
    from bower.sim.variants import get_variant

    name = module.VARIANT_NAME
    rules = rules_from_vector(get_variant(name), rules_vec)
    hands, cal_hands, seed = module.EQUITY_HANDS, module.CALIBRATION_HANDS, module.SEED
    key = (name, tuple(sorted(rules.items())), int(target), hands, cal_hands, seed)
    return memo(key, lambda: module.flat(module.tables(rules, int(target), hands=hands, calibration_hands=cal_hands,
                                                       seed=seed)))


def memo(key: tuple, build: Callable[[], np.ndarray]) -> np.ndarray:
    """``build()`` kept in memory under ``key`` (a variant's rules, target and precision) for the process: one set
    of tables at a time, as they are megabytes (``clear`` empties it)."""
    if key not in _MEMO:
        _MEMO.clear()
        _MEMO[key] = build()
    return _MEMO[key]


def clear() -> None:
    """Forget the tables ``memo`` keeps (tests that change a variant's precision)."""
    _MEMO.clear()


class GamesKernel(ChunkKernel):
    """A variant's ``games_chunks`` (a ``ChunkKernel`` whose arguments end ``search, start, eq=None``) as the
    runner calls it, with the game-equity bidder's tables added as ``eq`` where a strategy has its ``bid_equity``
    cell (column ``p_equity`` of the strategies' parameters) >= 0.5: ``tables(rules_vec, target)`` builds or reads
    them for the call's rules and target. Calls without such a strategy, or that give ``eq`` themselves, go to the
    kernel as they come (compiled without the tables' code where no ``eq`` is given)."""

    def __init__(self, chunk: ChunkKernel, p_equity: int, tables: Callable):
        super().__init__(chunk.kernel, chunk.count)
        self.p_equity, self.tables = p_equity, tables

    def __call__(self, *args):
        """Run every chunk (``ChunkKernel``), the tables added for an equity bidder."""
        if len(args) == 16 and bool((np.asarray(args[6])[:, self.p_equity] >= 0.5).any()):
            args = (*args, self.tables(args[5], int(args[7])))
        return super().__call__(*args)
