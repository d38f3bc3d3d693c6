"""Game equity: the chance that a side (or, in the three-player variants, a player) wins the game from any score.

Method. ``hands`` independent hands are played under one strategy in every
seat (``runner.run_hands``, the dealer of hand h being seat ``h % 4``), and
each hand's outcome (points to side 0 = seats 0 & 2, points to side 1, and
the maker's side where both sides score) is counted by the dealer's seat.
From those per-dealer distributions an exact dynamic programme over the
state (score of side 0, score of side 1, dealer) gives V = P(side 0 wins):
after a hand the dealer passes left; a side at or past the target wins; if
both reach it on the same hand the maker's side wins (RULES.md). A thrown-in
hand leaves the score and passes the deal, so the states form cycles; the
programme is solved by Gauss-Seidel sweeps over the dealers, in the order
against the deal, until no value moves by more than ``TOL`` (1e-12).

Scores that can fall (Hasenpfeffer's set bids) are bounded by a floor: a
score below ``floor`` counts as ``floor`` (default ``-3 * target``; Euchre's
scores never fall, so its floor is 0). ``floor_effect`` in the result is
the largest change in the table when the floor is moved ``target`` points
lower, over the cells from ``-target`` up (the printed ones), so the bound's
cost is measured, not assumed.

Intervals: each dealer's outcome distribution is redrawn ``resamples`` times
from Dirichlet(counts) (seeded from ``seed``), the programme solved for each
draw, and the 2.5% and 97.5% points of each cell kept; ``se`` is each cell's
standard error, the redraws' standard deviation (the Dirichlet redraw is the
Bayesian bootstrap of the hands: its spread is that of tables from other
seeds, ``tests/test_equity.py``). The first ``DRAWS_KEPT`` redrawn tables are
kept whole (``draws``, float32), so that should-bid can carry the table's
error through to each action (``bower.sim.advice.game_equity``). Hands are
seeded by chunk, so the same seed gives the same table for any thread count,
and for any Dask scheduler (``scheduler``: the hands' batches run as Dask
tasks, in order, and the programme is solved here).

Three players (Ghost Hand, Cutthroat): ``compute3``. Outcomes are the points
vectors relative to the dealer, pooled over the dealers; the state is each
player's score relative to the dealer (a cube), the value each player's
chance; a tie at the top at or past the target plays on (held exactly as a
tie at the target); see ``solve3``. Ghost Hand's floor is ``-target``.
"""

from __future__ import annotations

import os
import tempfile
import time

import numpy as np

from bower.sim.errors import UserError

TOL = 1e-12  # the Gauss-Seidel sweeps stop when no value moves by more than this
# the same for the three-player redraws and the deeper floor's table: they give 2.5% and 97.5% points and the floor's
# effect, printed to three decimals (a Ghost Hand table to 32 then needs 15 and 19 sweeps instead of 20 and 24)
TOL_DRAWS3 = 1e-9
MAX_SWEEPS = 100_000
DEFAULT_HANDS = 1_000_000
DEFAULT_RESAMPLES = 200
MAX_TARGET = 50  # the largest target the tables are computed for
FLOOR_SPAN = 3  # a falling score is bounded at -FLOOR_SPAN * target
DRAWS_KEPT = 10  # the redraws kept with a table (``draws``): should-bid's --scores carries them for the table's error
RESAMPLE_KEY = 7_351  # spawn key of the resampling stream (apart from the hands' chunk streams)
GAME_CHECK_KEY = 7_352  # spawn key of the games that check a table (``games_from_scores``)


class EquityError(UserError, ValueError):
    """An equity table that cannot be made: a variant without one yet, a bad target or score."""


def check_variant(v) -> None:
    """Every variant has equity tables: by side (Euchre, Hasenpfeffer) or by player (Ghost Hand, Cutthroat)."""


def check_target(target) -> int:
    """``target`` if it is a whole number from 1 to MAX_TARGET; EquityError otherwise."""
    if isinstance(target, bool) or not isinstance(target, (int, np.integer)) or not 1 <= target <= MAX_TARGET:
        raise EquityError(f"--target must be a whole number from 1 to {MAX_TARGET}, got {target!r}")
    return int(target)


def parse_score(text, units: int = 2) -> tuple[int, ...]:
    """``"4,7"`` (or a sequence) as a tuple of ``units`` whole numbers; EquityError for another form."""
    parts = [p.strip() for p in text.split(",")] if isinstance(text, str) else list(text)
    try:
        score = tuple(int(p) if not isinstance(p, bool) and float(p) == int(p) else None for p in parts)
    except (TypeError, ValueError):
        score = (None,)
    who = "own,opponent" if units == 2 else "one per seat, seat 0 first"
    if None in score:
        raise EquityError(f"--score must be {units} whole numbers separated by a comma ({who}), got {text!r}")
    if len(score) != units:
        raise EquityError(f"--score needs {units} scores ({who}), got {len(score)}: {text!r}")
    return score


def check_score(score: tuple[int, ...], target: int, floor: int) -> None:
    """EquityError for a score at or past the target, or below the lowest score the table holds."""
    for s in score:
        if s >= target:
            raise EquityError(f"score {s} is at or past the target {target}: the game is over")
        if s < floor:
            if floor == 0:
                raise EquityError(f"score {s} is negative: scores in this variant never fall below 0")
            raise EquityError(f"score {s} is below the table's floor {floor}")


def outcome_counts(variant: str, hands: int, seed: int, rules: dict | None, strategy, threads: int | None):
    """Play ``hands`` hands; (points (K, 2), maker side (K,), counts (4, K)) of the distinct outcomes by dealer.

    The maker side is kept (else 0) only for outcomes where both sides score,
    the one case it decides the game.
    """
    from bower.sim import runner

    v, rules_d, rules_vec = runner.resolve_run(variant, seed, rules)
    check_variant(v)
    runner.check_count("--hands", hands, runner.MAX_HANDS)
    runner.set_threads(threads)
    _, params = runner.seat_params(strategy, v.name)
    k = v.hand_kernels
    maker_col = getattr(k, "R_" + v.card_play.maker_field.upper())
    keys: list[np.ndarray] = []

    def on_batch(first, recs, summary):
        p = recs[:, k.R_POINTS:k.R_POINTS + 2]
        maker = recs[:, maker_col]
        both = (p[:, 0] > 0) & (p[:, 1] > 0)
        side = np.where(both & (maker >= 0), maker % 2, 0)
        keys.append(np.c_[recs[:, k.R_DEALER], p, side])

    runner.run_hands(0, hands, seed, rules_vec, params, True, on_batch, runner.RECORD_BATCH_CHUNKS, v.name)
    allk = np.concatenate(keys)
    outcomes, inv = np.unique(allk[:, 1:], axis=0, return_inverse=True)
    counts = np.zeros((v.players, len(outcomes)), np.int64)
    np.add.at(counts, (allk[:, 0], inv.ravel()), 1)
    return outcomes[:, :2].copy(), outcomes[:, 2].copy(), counts


def _gather(points: np.ndarray, maker: np.ndarray, target: int, floor: int) -> np.ndarray:
    """Index (K, S*S) of each outcome's next state in a dealer's flat grid extended by [loss, win]."""
    s = target - floor
    i, j = np.meshgrid(np.arange(s), np.arange(s), indexing="ij")
    out = np.empty((len(points), s * s), np.int64)
    loss, win = s * s, s * s + 1
    for n, ((a, b), m) in enumerate(zip(points, maker)):
        a0, b0 = i + floor + a, j + floor + b
        there0, there1 = a0 >= target, b0 >= target
        nxt = np.maximum(a0 - floor, 0) * s + np.maximum(b0 - floor, 0)
        nxt = np.where(there0 & ~there1, win, nxt)
        nxt = np.where(there1 & ~there0, loss, nxt)
        nxt = np.where(there0 & there1, np.where(m == 0, win, loss), nxt)
        out[n] = nxt.ravel()
    return out


def solve(points: np.ndarray, maker: np.ndarray, probs: np.ndarray, target: int, floor: int) -> tuple[np.ndarray, int]:
    """P(side 0 wins) by draw, dealer and score: (R, D, S, S) for ``probs`` (R, D, K); and the sweeps it took.

    Index ``[r, d, i, j]``: draw r, dealer seat d, side 0 at ``floor + i``,
    side 1 at ``floor + j``. Gauss-Seidel over the dealers against the deal
    (dealer d's hand leads to dealer d + 1's state) until a sweep moves no
    value by more than ``TOL``.
    """
    r, d_n, _ = probs.shape
    s = target - floor
    g = _gather(points, maker, target, floor)
    ext = np.zeros((r, d_n, s * s + 2))
    ext[:, :, -1] = 1.0
    for sweep in range(1, MAX_SWEEPS + 1):
        moved = 0.0
        for d in reversed(range(d_n)):
            nxt = ext[:, (d + 1) % d_n]
            new = np.einsum("rk,rks->rs", probs[:, d], nxt[:, g])
            moved = max(moved, float(np.abs(new - ext[:, d, :-2]).max()))
            ext[:, d, :-2] = new
        if moved <= TOL:
            break
    else:
        raise EquityError(f"the equity programme did not settle in {MAX_SWEEPS} sweeps")
    return ext[:, :, :-2].reshape(r, d_n, s, s), sweep


def default_floor(points: np.ndarray, target: int, span: int | None = None) -> int:
    """0 where no outcome takes points away, else ``-span * target`` (``span``: FLOOR_SPAN by default)."""
    return 0 if (points >= 0).all() else -(FLOOR_SPAN if span is None else span) * target


def _floor(points: np.ndarray, target: int, floor: int | None, span: int | None = None) -> int:
    """The table's floor: ``floor`` as given, else ``default_floor``; EquityError unless at most 0 and below the
    target."""
    floor = default_floor(points, target, span) if floor is None else int(floor)
    if floor > 0 or floor >= target:
        raise EquityError(f"floor must be at most 0 and below the target, got {floor}")
    return floor


def _run_info(v, rules: dict, strategy, hands: int, seed: int, resamples: int, target: int, floor: int) -> dict:
    """The keys every table starts with: what was run (variant, full rules, strategy name, hands, seed, redraws) and
    its grid (target, floor, scores)."""
    from bower.sim.strategy import load_strategy

    return {"variant": v.name, "rules": rules, "strategy": load_strategy(strategy, v.name)[0], "hands": int(hands),
            "seed": int(seed), "resamples": int(resamples), "target": target, "floor": floor,
            "scores": list(range(floor, target))}


def compute(variant: str = "euchre", *, strategy="default", rules: dict | None = None, hands: int = DEFAULT_HANDS,
            seed: int = 0, threads: int | None = None, target: int | None = None, resamples: int | None = None,
            floor: int | None = None, cache: bool = True, scheduler=None) -> dict:
    """The equity table of ``variant`` as a dict (see the module's docstring for the method).

    A table computed once is kept in the user's cache folder and read back
    (bit for bit) by the next call with the same inputs (``compute_cached``);
    ``cache=False`` or ``BOWER_EQUITY_CACHE=0`` neither reads nor writes it.
    ``scheduler``: where the hands' batches run (``bower.sim.distributed.session``:
    None for this machine's threads, ``local:N``, a Dask scheduler address or
    client); the table is the same, bit for bit (the programme is solved here).

    Keys: ``variant``, ``rules``, ``strategy``, ``hands``, ``seed``,
    ``target``, ``floor``, ``scores`` (the grid's scores, floor .. target-1),
    ``equity`` [dealer][own][opponent] (side 0's chance, dealer by seat:
    seats 0 & 2 are side 0), ``low`` and ``high`` (95% intervals, same
    shape), ``se`` (each cell's standard error, the redraws' standard
    deviation; 0 with fewer than 2 redraws), ``draws`` (the first
    ``DRAWS_KEPT`` redrawn tables, float32, [draw][dealer][own][opponent]),
    ``start`` (0-0 averaged over the dealer, with ``start_ci95``),
    ``floor_effect``, ``outcomes`` (points, maker side, counts by dealer),
    ``sweeps``, ``cpu_s``, ``wall_s``. Three players: ``equity``
    [dealer][seat][score 0][score 1][score 2] as arrays, ``start`` by seat
    averaged over the dealer, ``start_by_position`` (dealer, position 1,
    position 2) with ``start_ci95`` for each, and ``cube`` [j][x0][x1][x2]
    (the programme's own table relative to the dealer: the chance of the
    player j seats left of the dealer, ``x_i - floor`` the score of the
    player i seats left; each axis runs to the target itself, whose rows hold
    the ties at the top there, the states a tie at or past the target is
    played on from), ``draws`` (the first ``DRAWS_KEPT`` redrawn cubes, the
    same way, float32) and ``se`` by seat (as ``equity``).
    """
    return compute_cached(variant, strategy=strategy, rules=rules, hands=hands, seed=seed, threads=threads,
                          target=target, resamples=resamples, floor=floor, cache=cache, scheduler=scheduler)[0]


def _compute(variant: str = "euchre", *, strategy="default", rules: dict | None = None, hands: int = DEFAULT_HANDS,
             seed: int = 0, threads: int | None = None, target: int | None = None, resamples: int | None = None,
             floor: int | None = None) -> dict:
    """``compute`` without the cache: the hands are played and the programme solved."""
    from bower.sim import runner
    from bower.sim.rules import get_variant, resolve

    v = get_variant(variant)
    check_variant(v)
    target = v.target if target is None else check_target(target)
    if not v.partnerships:
        return compute3(v, strategy=strategy, rules=rules, hands=hands, seed=seed, threads=threads, target=target,
                        resamples=resamples, floor=floor)
    resamples = DEFAULT_RESAMPLES if resamples is None else resamples
    runner.check_count("resamples", resamples, 100_000)
    t0, c0 = time.perf_counter(), time.process_time()
    points, maker, counts = outcome_counts(v.name, hands, seed, rules, strategy, threads)
    floor = _floor(points, target, floor)
    base = counts / counts.sum(axis=1, keepdims=True)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(RESAMPLE_KEY,)))
    draws = np.empty((resamples, *counts.shape))
    for d in range(counts.shape[0]):
        seen = counts[d] > 0
        draws[:, d] = 0.0
        draws[:, d, seen] = rng.dirichlet(counts[d, seen], size=resamples)
    point, sweeps = solve(points, maker, base[None], target, floor)
    lo = hi = point[0]
    if resamples:
        vals = np.concatenate([solve(points, maker, draws[i:i + 50], target, floor)[0]
                               for i in range(0, resamples, 50)])
        lo, hi = np.quantile(vals, 0.025, axis=0), np.quantile(vals, 0.975, axis=0)
    floor_effect = 0.0
    if floor < 0:
        deeper, _ = solve(points, maker, base[None], target, floor - target)
        shown = max(0, -target - floor)  # the cells from -target up, the ones printed
        floor_effect = float(np.abs(deeper[0][:, target + shown:, target + shown:] - point[0][:, shown:, shown:]).max())
    z = -floor
    start_draws = vals[:, :, z, z].mean(axis=1) if resamples else point[:, :, z, z].mean(axis=1)
    se = vals.std(axis=0, ddof=1) if resamples >= 2 else np.zeros_like(point[0])
    _, rules_d, _ = runner.resolve_run(v.name, seed, rules)
    return {
        **_run_info(v, resolve(v, rules_d), strategy, hands, seed, resamples, target, floor),
        "equity": point[0].tolist(),
        "low": np.asarray(lo).tolist(),
        "high": np.asarray(hi).tolist(),
        "se": se.tolist(),
        "draws": np.asarray(vals[:DRAWS_KEPT] if resamples else point[:0], np.float32),
        "start": float(point[0][:, z, z].mean()),
        "start_ci95": [float(np.quantile(start_draws, 0.025)), float(np.quantile(start_draws, 0.975))],
        "floor_effect": floor_effect,
        "outcomes": {"points": points.tolist(), "maker_side": maker.tolist(), "counts_by_dealer": counts.tolist()},
        "sweeps": int(sweeps),
        "cpu_s": time.process_time() - c0,
        "wall_s": time.perf_counter() - t0,
    }


# The disk cache of computed tables.
#
# A table is kept as two files in ``cache_folder()``: ``KEY.npz`` (the table's arrays) and ``KEY.json`` (every
# other key, the names of the arrays and the SHA-256 of the .npz), each written to a temporary file in the same
# folder and renamed over the old one, the .json last. KEY is a hash of everything that decides the table (see
# ``cache_key``); an entry that cannot be read, whose key, format or checksum disagree, or whose arrays are not the
# ones named, is not trusted: the table is computed again and the entry replaced.

CACHE_ENV = "BOWER_EQUITY_CACHE"  # "0" (or "off", "false", "no"): no cache
CACHE_FORMAT = 1  # the layout of an entry; a change makes every older entry a miss


def cache_folder() -> str | None:
    """The folder of cached tables, ``$XDG_CACHE_HOME/bower/equity`` (else ``~/.cache/bower/equity``), as
    ``bower.kernels.cache`` places Numba's; None when ``BOWER_EQUITY_CACHE`` turns the cache off."""
    if os.environ.get(CACHE_ENV, "").strip().lower() in ("0", "off", "false", "no"):
        return None
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "bower", "equity")


def cache_key(variant: str, *, strategy="default", rules: dict | None = None, hands: int = DEFAULT_HANDS,
              seed: int = 0, target: int | None = None, resamples: int | None = None,
              floor: int | None = None) -> str:
    """SHA-256 (hex) of what decides a table: the variant, the full rule set in force, the strategy's name and
    full parameters, hands, seed, target, resamples and floor as asked, the bower and NumPy versions, the
    programme's constants and the source of the code that plays the hands and solves the programme. Threads are
    left out: they never change the table."""
    import hashlib
    import json

    from bower.kernels.cache import source_stamp
    from bower.sim import __version__, runner
    from bower.sim.rules import get_variant
    from bower.sim.strategy import load_strategy

    v = get_variant(variant)
    _, rules_d, rules_vec = runner.resolve_run(v.name, seed, rules)
    name, params = load_strategy(strategy, v.name)
    _, vector = runner.seat_params(strategy, v.name)
    modules = sorted({__name__, "bower.kernels.equity", v.hand_kernels.__name__})
    what = {
        "format": CACHE_FORMAT, "bower": __version__, "numpy": np.__version__, "variant": v.name,
        "rules": resolved_rules(v, seed, rules), "rules_vector": np.asarray(rules_vec).tolist(),
        "strategy": name, "params": {k: params[k] for k in sorted(params)},
        "params_vector": np.asarray(vector).tolist(), "hands": int(hands), "seed": int(seed),
        "target": v.target if target is None else int(target),
        "resamples": None if resamples is None else int(resamples), "floor": None if floor is None else int(floor),
        "constants": {"TOL": TOL, "TOL_DRAWS3": TOL_DRAWS3, "MAX_SWEEPS": MAX_SWEEPS,
                      "DEFAULT_RESAMPLES": DEFAULT_RESAMPLES, "FLOOR_SPAN": FLOOR_SPAN, "FLOOR_SPAN3": FLOOR_SPAN3,
                      "LARGE_SIDE3": LARGE_SIDE3, "LARGE_RESAMPLES3": LARGE_RESAMPLES3,
                      "RESAMPLE_KEY": RESAMPLE_KEY, "DRAWS_KEPT": DRAWS_KEPT},
        "code": {m: source_stamp(m) for m in modules},
    }
    text = json.dumps(what, sort_keys=True, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()


def _file_sha(path: str) -> str:
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def cache_read(folder: str, key: str, arrays: tuple[str, ...] | None = None) -> dict | None:
    """The table cached under ``key`` in ``folder``, or None where there is none or it is not sound; ``arrays``:
    read only those of its arrays (the rest left out of the table; the whole file is still checked)."""
    import json

    base = os.path.join(folder, key)
    try:
        with open(base + ".json", encoding="utf-8") as f:
            meta = json.load(f)
        if meta.get("format") != CACHE_FORMAT or meta.get("key") != key:
            return None
        if _file_sha(base + ".npz") != meta["npz_sha256"]:
            return None
        wanted = None if arrays is None else set(arrays)
        with np.load(base + ".npz", allow_pickle=False) as z:
            if sorted(z.files) != sorted(meta["arrays"]) or set(z.files) & set(meta["table"]):
                return None
            found = {k: z[k] for k in z.files if wanted is None or k in wanted}
        table = dict(meta["table"])
        table.update(found)
        return {k: table[k] for k in meta["order"] if k in table}
    except Exception:  # noqa: BLE001 - whatever is wrong with an entry, it is computed again
        return None


def _write_atomic(folder: str, name: str, write) -> None:
    """``write(file object)`` into a temporary file in ``folder``, renamed to ``name`` (removed if anything fails)."""
    fd, tmp = tempfile.mkstemp(prefix=".bower-", suffix=".part", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.replace(tmp, os.path.join(folder, name))
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def cache_write(folder: str, key: str, table: dict) -> bool:
    """Keep ``table`` under ``key`` in ``folder``; False (and nothing kept) where a key does not survive JSON as it
    is or the folder cannot be written (one ``bower: note:`` line)."""
    import json

    from bower.sim.progress import notice

    arrays = {k: x for k, x in table.items() if isinstance(x, np.ndarray)}
    rest = {k: x for k, x in table.items() if k not in arrays}
    try:
        text = json.dumps({"format": CACHE_FORMAT, "key": key, "order": list(table), "arrays": sorted(arrays),
                           "table": rest, "npz_sha256": None})
        if json.loads(text)["table"] != rest:  # a tuple or a NaN would come back otherwise
            return False
    except (TypeError, ValueError):
        return False
    try:
        os.makedirs(folder, exist_ok=True)
        _write_atomic(folder, key + ".npz", lambda f: np.savez(f, **arrays))
        meta = json.loads(text)
        meta["npz_sha256"] = _file_sha(os.path.join(folder, key + ".npz"))
        _write_atomic(folder, key + ".json", lambda f: f.write(json.dumps(meta).encode()))
        return True
    except OSError as e:
        notice(f"the equity cache {folder} cannot be written ({e.strerror or e}); the table was not kept")
        return False


def cached_path(variant: str, **args) -> str | None:
    """The cache entry (``.npz``) that ``compute_cached(variant, **args)`` would read, or None where there is none
    yet (or the cache is off): whether a first call will compute the table."""
    folder = cache_folder()
    if folder is None:
        return None
    args.pop("threads", None)
    path = os.path.join(folder, cache_key(variant, **args))
    return path + ".npz" if os.path.exists(path + ".json") else None


def compute_cached(variant: str = "euchre", *, strategy="default", rules: dict | None = None,
                   hands: int = DEFAULT_HANDS, seed: int = 0, threads: int | None = None, target: int | None = None,
                   resamples: int | None = None, floor: int | None = None,
                   cache: bool = True, arrays: tuple[str, ...] | None = None,
                   scheduler=None) -> tuple[dict, str | None]:
    """(``compute``'s table, the cache file it was read from or None where it was computed now); ``arrays``: from
    the cache read only those of the table's arrays (NumPy's; should-bid needs only ``cube`` and ``draws``);
    ``scheduler``: as for ``compute`` (opened only where the table is computed; like threads, not in the key)."""
    from bower.sim import distributed as dist
    from bower.sim import runner
    from bower.sim.rules import get_variant

    args = dict(strategy=strategy, rules=rules, hands=hands, seed=seed, target=target, resamples=resamples,
                floor=floor)
    folder = cache_folder() if cache else None
    key = None
    if folder is not None:
        v = get_variant(variant)
        check_variant(v)
        if target is not None:
            check_target(target)
        runner.check_count("--hands", hands, runner.MAX_HANDS)
        if resamples is not None:
            runner.check_count("resamples", resamples, 100_000)
        runner.set_threads(threads)
        if not v.partnerships:
            check_rules3(v, resolved_rules(v, seed, rules))
        key = cache_key(v.name, **args)
        table = cache_read(folder, key, arrays)
        if table is not None:
            return table, os.path.join(folder, key + ".npz")
    with dist.session(scheduler):
        table = _compute(variant, threads=threads, **args)
    if key is not None:
        cache_write(folder, key, table)
    return table, None


def side_view(table: dict, dealer: str | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(equity, low, high) as (own score, opponent score) grids: averaged over the dealer, or for ``dealer``.

    ``dealer``: None (the four seats averaged), ``"own"`` (seats 0 & 2
    averaged) or ``"opponent"`` (seats 1 & 3). The intervals are averaged the
    same way (a bound, not a resampled interval of the average).
    """
    seats = {None: [0, 1, 2, 3], "own": [0, 2], "opponent": [1, 3]}[dealer]
    return tuple(np.asarray(table[k])[seats].mean(axis=0) for k in ("equity", "low", "high"))


def state_equity(table: dict, score: tuple[int, int], dealer: str | None = None) -> dict:
    """One state's equity with its interval: ``{"score", "dealer", "equity", "ci95"}``."""
    check_score(score, table["target"], table["floor"])
    eq, lo, hi = side_view(table, dealer)
    i, j = score[0] - table["floor"], score[1] - table["floor"]
    se = side_se(table, dealer)
    return {"score": list(score), "dealer": dealer or "average", "equity": float(eq[i, j]),
            "ci95": [float(lo[i, j]), float(hi[i, j])], "se": float(se[i, j])}


def side_se(table: dict, dealer: str | None = None) -> np.ndarray:
    """Each cell's standard error as an (own score, opponent score) grid, for the dealers ``side_view`` averages:
    the dealers' errors averaged (a bound, as the cells move together), 0 where the table has none."""
    seats = {None: [0, 1, 2, 3], "own": [0, 2], "opponent": [1, 3]}[dealer]
    if "se" not in table:
        return np.zeros(np.asarray(table["equity"]).shape[1:])
    return np.asarray(table["se"])[seats].mean(axis=0)


def format_table(table: dict, dealer: str | None = None) -> str:
    """The equity table as text: rows own side's score, columns the opponent's, in percent (averaged over the
    dealer)."""
    from bower.sim.rules import get_variant

    eq, _, _ = side_view(table, dealer)
    f, t = table["floor"], table["target"]
    shown = list(range(max(f, -t), t))
    who = {None: "averaged over the dealer", "own": "own side dealing", "opponent": "opponent dealing"}[dealer]
    lines = [f"{get_variant(table['variant']).title}: chance (%) that a side wins the game to {t}, {who}; "
             f"strategy {table['strategy']}, {table['hands']:,} hands, seed {table['seed']}",
             "rows: own score, columns: opponent's score"]
    lines.append("own\\opp" + "".join(f"{s:>4}" for s in shown))
    for a in shown:
        lines.append(f"{a:>7}" + "".join(f"{100 * eq[a - f, b - f]:>4.0f}" for b in shown))
    lo, hi = table["start_ci95"]
    lines.append(f"start of game (0-0, averaged over the dealer): {100 * table['start']:.2f}% "
                 f"(95%: {100 * lo:.2f}-{100 * hi:.2f}%)")
    if f < 0:
        lines.append(f"scores below {f} are counted as {f}; moving that floor {t} lower changes no cell by more than "
                     f"{table['floor_effect']:.1e}")
    return "\n".join(lines)


def plot(table: dict, path: str, dealer: str | None = None) -> None:
    """A heat map of the table (own score up, opponent's across) written atomically to ``path`` (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    eq, _, _ = side_view(table, dealer)
    f, t = table["floor"], table["target"]
    lo = max(f, -t)
    grid = eq[lo - f:, lo - f:]
    fig, ax = plt.subplots(figsize=(6, 5))
    im = ax.imshow(grid, origin="lower", cmap="RdBu", vmin=0, vmax=1, extent=(lo - .5, t - .5, lo - .5, t - .5))
    ax.set_xlabel("opponent's score")
    ax.set_ylabel("own score")
    ax.set_title(f"{table['variant']}: chance to win the game to {t}")
    fig.colorbar(im, ax=ax, label="equity")
    _save_png(fig, path)


def _save_png(fig, path: str) -> None:
    """Write ``fig`` to ``path`` as PNG atomically (a ``.bower-*.png.part`` file beside it, renamed) and close it."""
    import matplotlib.pyplot as plt

    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".bower-", suffix=".png.part", dir=folder)
    os.close(fd)
    try:
        fig.savefig(tmp, format="png", dpi=100)
        os.replace(tmp, path)
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.unlink(tmp)


def check_start_scores(scores, units: int, target: int) -> tuple[int, ...]:
    """``scores`` (``"4,9"`` or a sequence) as ``units`` whole numbers from 0 to ``target - 1``; EquityError
    otherwise (a game starts at no score below 0, and one at or past the target is over)."""
    score = parse_score(scores, units)
    for s in score:
        if s < 0:
            raise EquityError(f"score {s} is negative: a game starts at scores of 0 or more")
    check_score(score, target, 0)
    return score


def games_from_scores(variant: str, scores, dealer: int, games: int, seed: int, rules: dict | None = None,
                      strategy="default", threads: int | None = None, target: int | None = None) -> np.ndarray:
    """Wins by side (Euchre, Hasenpfeffer) or by seat (Ghost Hand, Cutthroat) of ``games`` whole games, each from
    ``scores`` (by side, seats 0 & 2 first, or by seat; 0 to ``target - 1``) with seat ``dealer`` dealing the
    first hand: the table's cell ``[dealer][scores]`` played out directly (unfinished games left out, so the wins
    sum to the finished games).

    The games kernel deals its first hand from a fixed seat (``FIRST_DEALER`` of the variant's drivers); with
    one strategy in every seat, a game whose seats are all turned by ``r`` is the same game, so the games are
    played from the turned scores (the kernel's ``start``) with its first dealer in ``dealer``'s place, and the
    wins turned back. They start at exactly ``scores`` (nothing is taken off the target). The games are seeded
    by chunk from (``seed``, ``GAME_CHECK_KEY``), apart from the streams of a table's hands of the same seed:
    the same wins for any thread count.
    """
    from bower.kernels import games as kg
    from bower.sim import runner
    from bower.sim.rules import get_variant

    v = get_variant(variant)
    check_variant(v)
    target = v.target if target is None else check_target(target)
    units = 2 if v.partnerships else v.players
    score = check_start_scores(scores, units, target)
    if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) or not 0 <= dealer < v.players:
        raise EquityError(f"dealer must be a seat from 0 to {v.players - 1}, got {dealer!r}")
    games = runner.check_count("games", games, runner.MAX_GAMES)
    _, _, rules_vec = runner.resolve_run(v.name, seed, rules)
    runner.set_threads(threads)
    _, params = runner.seat_params(strategy, v.name)
    turn = (v.drivers.FIRST_DEALER - int(dealer)) % v.players  # cell seat x is the games' seat x + turn
    unit = (np.arange(units) + turn) % units  # cell side or seat s is the games' unit[s]
    start = np.zeros(units, np.int64)
    start[unit] = score
    strat = params[:1]
    k, sim = v.hand_kernels, v.drivers
    n_chunks = -(-games // runner.GAME_CHUNK_SETS)
    states = np.empty((n_chunks, 4), np.uint64)
    for c in range(n_chunks):
        states[c] = np.random.SeedSequence(seed, spawn_key=(GAME_CHECK_KEY, c)).generate_state(4, np.uint64)
    out = np.zeros((games, kg.GO_WIDTH), np.int64)
    sim.games_chunks(states, runner.GAME_CHUNK_SETS, games, np.zeros((1, v.players), np.int64), False, rules_vec,
                     strat, target, runner.MAX_HANDS_PER_GAME, np.zeros((games, 1), np.int64), out,
                     np.zeros((n_chunks, k.S_WIDTH), np.int64), np.zeros((n_chunks, 1, kg.ST_WIDTH), np.int64),
                     np.zeros((n_chunks, kg.GA_WIDTH), np.int64), k.search_arg(strat), start)
    w = out[:, kg.GO_WINNER]
    return np.bincount(w[w >= 0], minlength=units)[unit]


# Three players (Ghost Hand, Cutthroat): each for themselves.

FLOOR_SPAN3 = 1  # a falling score of a three-player game is bounded at -FLOOR_SPAN3 * target (the grid is cubic)
# redraws for the intervals: DEFAULT_RESAMPLES where the cube has at most LARGE_SIDE3 scores a side (Cutthroat to 10),
# else LARGE_RESAMPLES3 (Ghost Hand to 32 and its floor: 64 a side, each redraw a whole solve of the cube)
LARGE_SIDE3 = 24
LARGE_RESAMPLES3 = 10


def resolved_rules(v, seed: int, rules: dict | None) -> dict:
    """The full rule set in force (every option named)."""
    from bower.sim import runner
    from bower.sim.rules import resolve

    return resolve(v, runner.resolve_run(v.name, seed, rules)[1])


def check_rules3(v, rules: dict) -> None:
    """EquityError for a three-player rule set the programme does not model (Ghost Hand's playoff tiebreak)."""
    if rules.get("tiebreak") == "playoff":
        raise EquityError("bower equity is not available yet for tiebreak = playoff (only highest); no table was "
                          "computed")


def outcome_counts3(variant: str, hands: int, seed: int, rules: dict | None, strategy, threads: int | None):
    """Play ``hands`` hands; (points (K, 3) relative to the dealer, counts (3, K) by dealer's seat).

    ``points[n, j]`` is what the player ``j`` seats left of the dealer scored
    (j = 0 the dealer). Every seat plays the same strategy, so the programme
    pools the three dealers' counts.
    """
    from bower.sim import runner

    v, rules_d, rules_vec = runner.resolve_run(variant, seed, rules)
    runner.check_count("--hands", hands, runner.MAX_HANDS)
    runner.set_threads(threads)
    _, params = runner.seat_params(strategy, v.name)
    k = v.hand_kernels
    keys: list[np.ndarray] = []

    def on_batch(first, recs, summary):
        d = recs[:, k.R_DEALER]
        p = recs[:, k.R_POINTS:k.R_POINTS + 3]
        rel = p[np.arange(len(p))[:, None], (d[:, None] + np.arange(3)) % 3]
        keys.append(np.c_[d, rel])

    runner.run_hands(0, hands, seed, rules_vec, params, True, on_batch, runner.RECORD_BATCH_CHUNKS, v.name)
    allk = np.concatenate(keys)
    outcomes, inv = np.unique(allk[:, 1:], axis=0, return_inverse=True)
    counts = np.zeros((3, len(outcomes)), np.int64)
    np.add.at(counts, (allk[:, 0], inv.ravel()), 1)
    return outcomes, counts


def _cube(target: int, floor: int):
    """The three-player states (x0, x1, x2), each from ``floor`` to ``target``: (x (3, N) by flat index, order (the
    flat index of each rank: by falling sum, then flat index), rank (N,), levels (the bounds of the blocks of equal
    sum, highest first))."""
    s = target - floor + 1
    n = s ** 3
    x = np.stack(np.meshgrid(*[np.arange(s)] * 3, indexing="ij")).reshape(3, n) + floor
    order = np.argsort(-x.sum(axis=0), kind="stable")
    rank = np.empty(n, np.int64)
    rank[order] = np.arange(n)
    sums = x.sum(axis=0)[order]
    levels = np.flatnonzero(np.r_[True, sums[1:] != sums[:-1], True])
    return x, order, rank, levels


def solve_cube(points: np.ndarray, probs: np.ndarray, target: int, floor: int,
               start: np.ndarray | None = None, tol: float = TOL) -> tuple[np.ndarray, int]:
    """``solve3`` by the compiled kernel (``bower.kernels.equity.solve_cube``): the same values to within ``TOL``,
    for every draw of ``probs`` (R, K) at once; ``start`` (3, S, S, S), a solution to start every draw's sweeps
    from (the point table, for the redraws), else zeros; ``tol``, the largest move of a value that stops the
    sweeps."""
    from bower.kernels import equity as ke

    r, _ = probs.shape
    s = target - floor + 1
    n = s ** 3
    _, order, rank, levels = _cube(target, floor)
    zero = (points == 0).all(axis=1)
    q = probs[:, zero].sum(axis=1) if zero.any() else np.zeros(r)
    ext = np.zeros((n + 3, 3, r))  # by flat index
    if start is not None:
        ext[:n] = start.reshape(3, n).T[:, :, None]
    sweeps = ke.solve_cube(np.ascontiguousarray(points[~zero], np.int64), np.ascontiguousarray(probs[:, ~zero].T),
                           np.ascontiguousarray(q, np.float64), int(target), int(floor), rank, order,
                           levels.astype(np.int64), ext, float(tol), MAX_SWEEPS)
    if sweeps < 0:
        raise EquityError(f"the equity programme did not settle in {MAX_SWEEPS} sweeps")
    return np.ascontiguousarray(ext[:n].transpose(2, 1, 0)).reshape(r, 3, s, s, s), int(sweeps)


def _grid3(points: np.ndarray, target: int, floor: int):
    """The three-player programme's state order and next states.

    States are relative to the dealer, (x0, x1, x2) from ``floor`` to
    ``target`` (``target`` only where the top is tied there: a tie at or past
    the target plays on, and from then only differences of score matter,
    since one of the tied players cannot lose points; it is shifted down to
    ``target``). Returns (levels: bounds of the blocks of equal score sum,
    highest first; nxt (K, N) the next state's rank, or N + j for a win by the
    player j seats left of the next dealer; rot (N,) the rank after a
    thrown-in hand).
    """
    s = target - floor + 1
    n = s ** 3
    x, order, rank, levels = _cube(target, floor)
    nxt = np.empty((len(points), n), np.int64)
    for m, p in enumerate(points):
        y = x[:, order] + p[:, None]
        top = y.max(axis=0)
        lead = y == top
        over = top >= target
        y = np.maximum(y + np.where(over, target - top, 0), floor)
        flat = ((y[1] - floor) * s + (y[2] - floor)) * s + (y[0] - floor)  # next dealer: the player on the left
        won = over & (lead.sum(axis=0) == 1)
        nxt[m] = np.where(won, n + (np.argmax(lead, axis=0) - 1) % 3, rank[flat])
    return levels, nxt


def solve3(points: np.ndarray, probs: np.ndarray, target: int, floor: int) -> tuple[np.ndarray, int]:
    """Each player's chance to win: (R, 3, S, S, S) for ``probs`` (R, K); and the sweeps it took.

    Index ``[r, j, x0, x1, x2]``: draw r, the player j seats left of the
    dealer, ``x_i - floor`` the score of the player i seats left of the
    dealer (S = target - floor + 1; the ``target`` rows hold ties at the top).
    Gauss-Seidel over blocks of equal score sum, highest first (most hands
    add points); a thrown-in hand (the deal passes, scores stay) is folded
    exactly into each block, as three throw-ins in a row come back to it.
    """
    r, k_n = probs.shape
    s = target - floor + 1
    n = s ** 3
    levels, nxt = _grid3(points, target, floor)
    zero = np.flatnonzero((points == 0).all(axis=1))
    rest = [m for m in range(k_n) if m not in zero]
    q = probs[:, zero[0]] if len(zero) else np.zeros(r)
    prev = [2, 0, 1]  # player j seats left of this dealer is j - 1 seats left of the next
    ext = np.zeros((r, 3, n + 3))
    for j in range(3):
        ext[:, j, n + j] = 1.0
    fold = 1.0 / (1.0 - q ** 3)
    kk = np.array(prev)[:, None]
    for sweep in range(1, MAX_SWEEPS + 1):
        moved = 0.0
        for lo, hi in zip(levels[:-1], levels[1:]):
            b = np.zeros((r, 3, hi - lo))
            for m in rest:
                b += probs[:, m, None, None] * ext[:, kk, nxt[m, lo:hi]]
            if len(zero):
                rot = nxt[zero[0], lo:hi]
                rot = np.where(rot >= n, np.arange(lo, hi), rot) - lo  # (a game already won: never reached)
                tb = q[:, None, None] * b[:, prev][:, :, rot]
                b = (b + tb + q[:, None, None] * tb[:, prev][:, :, rot]) * fold[:, None, None]
            moved = max(moved, float(np.abs(b - ext[:, :, lo:hi]).max()))
            ext[:, :, lo:hi] = b
        if moved <= TOL:
            break
    else:
        raise EquityError(f"the equity programme did not settle in {MAX_SWEEPS} sweeps")
    order = np.argsort(-(np.stack(np.meshgrid(*[np.arange(s)] * 3, indexing="ij")).reshape(3, n).sum(axis=0)),
                       kind="stable")
    out = np.empty((r, 3, n))
    out[:, :, order] = ext[:, :, :n]
    return out.reshape(r, 3, s, s, s), sweep


def by_seat(w: np.ndarray) -> np.ndarray:
    """(..., 3 dealers, 3 seats, S, S, S) by seat from (..., 3, S, S, S) relative to the dealer."""
    out = np.empty((*w.shape[:-4], 3, 3, *w.shape[-3:]))
    for d in range(3):
        for seat in range(3):
            out[..., d, seat, :, :, :] = np.moveaxis(w[..., (seat - d) % 3, :, :, :], [-3, -2, -1],
                                                     [-3 + d, -3 + (d + 1) % 3, -3 + (d + 2) % 3])
    return out


def compute3(v, *, strategy, rules: dict | None, hands: int, seed: int, threads: int | None, target: int,
             resamples: int | None, floor: int | None) -> dict:
    """``compute`` for the three-player variants; ``equity`` [dealer][seat][score 0][score 1][score 2]."""
    from bower.sim import runner
    from bower.sim.rules import resolve

    if resamples is not None:
        runner.check_count("resamples", resamples, 100_000)
    _, rules_d, _ = runner.resolve_run(v.name, seed, rules)
    full = resolve(v, rules_d)
    check_rules3(v, full)
    t0, c0 = time.perf_counter(), time.process_time()
    points, counts = outcome_counts3(v.name, hands, seed, rules, strategy, threads)
    floor = _floor(points, target, floor, FLOOR_SPAN3)
    if resamples is None:
        resamples = DEFAULT_RESAMPLES if target - floor <= LARGE_SIDE3 else LARGE_RESAMPLES3
    pooled = counts.sum(axis=0)
    rng = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(RESAMPLE_KEY,)))
    draws = rng.dirichlet(pooled, size=resamples) if resamples else np.empty((0, len(pooled)))
    point, sweeps = solve_cube(points, (pooled / pooled.sum())[None], target, floor)
    t = target - floor  # the cells below the target (the last row holds ties at the top)
    eq = by_seat(point[0])[..., :t, :t, :t]
    lo = hi = eq
    z = -floor
    start_draws = point[:, :, z, z, z]
    se = np.zeros_like(eq)
    cube_draws = np.zeros((0, *point[0].shape), np.float32)
    if resamples:  # every redraw's sweeps start from the point table, ten redraws a call
        redrawn = np.concatenate([solve_cube(points, draws[i:i + 10], target, floor, start=point[0],
                                             tol=TOL_DRAWS3)[0] for i in range(0, resamples, 10)])
        cube_draws = np.asarray(redrawn[:DRAWS_KEPT], np.float32)  # with the ties at the target, for should-bid
        vals = redrawn[..., :t, :t, :t]
        lo, hi = by_seat(np.quantile(vals, 0.025, axis=0)), by_seat(np.quantile(vals, 0.975, axis=0))
        if resamples >= 2:
            se = by_seat(vals.std(axis=0, ddof=1))
        start_draws = vals[:, :, z, z, z]  # relative to the dealer: the start is the same state for every dealer
    floor_effect = 0.0
    if floor < 0:  # from the point table, each score below the floor started at the floor's value
        grow = np.clip(np.arange(target - floor + target + 1) - target, 0, None)
        deeper, _ = solve_cube(points, (pooled / pooled.sum())[None], target, floor - target,
                               start=point[0][:, grow][:, :, grow][:, :, :, grow], tol=TOL_DRAWS3)
        shown = max(0, -target - floor)
        d = deeper[0][:, target + shown:-1, target + shown:-1, target + shown:-1]
        floor_effect = float(np.abs(d - point[0][:, shown:-1, shown:-1, shown:-1]).max())
    return {
        **_run_info(v, full, strategy, hands, seed, resamples, target, floor),
        "equity": eq,
        "low": np.asarray(lo),
        "high": np.asarray(hi),
        "se": se,
        "start": [float(x) for x in eq[:, :, z, z, z].mean(axis=0)],
        "start_by_position": [float(x) for x in point[0][:, z, z, z]],
        "start_ci95": [[float(np.quantile(start_draws[:, j], 0.025)), float(np.quantile(start_draws[:, j], 0.975))]
                       for j in range(3)],
        "floor_effect": floor_effect,
        "outcomes": {"points": points.tolist(), "counts_by_dealer": counts.tolist()},
        "cube": point[0],
        "draws": cube_draws,
        "sweeps": int(sweeps),
        "cpu_s": time.process_time() - c0,
        "wall_s": time.perf_counter() - t0,
    }


def seat_view(table: dict, dealer: int | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(equity, low, high) as (seat, score 0, score 1, score 2) grids: averaged over the dealer, or for seat
    ``dealer``."""
    seats = [0, 1, 2] if dealer is None else [dealer]
    return tuple(np.asarray(table[k])[seats].mean(axis=0) for k in ("equity", "low", "high"))


def state_equity3(table: dict, score: tuple[int, int, int], dealer: int | None = None) -> dict:
    """One state's equity for each seat with its interval: ``{"score", "dealer", "equity", "ci95"}``."""
    check_score(score, table["target"], table["floor"])
    eq, lo, hi = seat_view(table, dealer)
    i = tuple(x - table["floor"] for x in score)
    seats = [0, 1, 2] if dealer is None else [dealer]
    se = np.asarray(table["se"])[seats].mean(axis=0) if "se" in table else np.zeros_like(eq)
    return {"score": list(score), "dealer": "average" if dealer is None else dealer,
            "equity": [float(eq[(s, *i)]) for s in range(3)],
            "ci95": [[float(lo[(s, *i)]), float(hi[(s, *i)])] for s in range(3)],
            "se": [float(se[(s, *i)]) for s in range(3)]}


def shown3(table: dict) -> list[int]:
    """The scores printed on each axis of a slice: every point to 10, every ceil(target / 10)th beyond."""
    f, t = table["floor"], table["target"]
    step = -(-t // 10)
    return [s for s in range(max(f, -t), t) if s % step == 0]


def format_table3(table: dict, third: int = 0, dealer: int | None = None) -> str:
    """A slice of a three-player table: seat 0's chance (%), rows seat 0's score, columns seat 1's, seat 2 at ``third``."""
    from bower.sim.rules import get_variant

    check_score((third,), table["target"], table["floor"])
    eq, _, _ = seat_view(table, dealer)
    f, t = table["floor"], table["target"]
    shown = shown3(table)
    who = "averaged over the dealer" if dealer is None else f"seat {dealer} dealing"
    lines = [f"{get_variant(table['variant']).title}: chance (%) that seat 0 wins the game to {t}, {who}; "
             f"strategy {table['strategy']}, {table['hands']:,} hands, seed {table['seed']}",
             f"rows: own score (seat 0), columns: seat 1's score; seat 2 at {third}"]
    lines.append("own\\s1" + "".join(f"{s:>4}" for s in shown))
    for a in shown:
        lines.append(f"{a:>7}" + "".join(f"{100 * eq[0, a - f, b - f, third - f]:>4.0f}" for b in shown))
    pos = ", ".join(f"{name} {100 * x:.2f}% (95%: {100 * lo:.2f}-{100 * hi:.2f}%)" for name, x, (lo, hi) in
                    zip(("dealer", "position 1", "position 2"), table["start_by_position"], table["start_ci95"]))
    lines.append(f"start of game (0-0-0): 33.33% each averaged over the dealer; by position: {pos}")
    if f < 0:
        lines.append(f"scores below {f} are counted as {f}; moving that floor {t} lower changes no cell by more than "
                     f"{table['floor_effect']:.1e}")
    return "\n".join(lines)


def plot3(table: dict, path: str, thirds: tuple[int, ...] = (0,), dealer: int | None = None) -> None:
    """Heat maps of seat 0's chance (own score up, seat 1's across), one per ``thirds`` score of seat 2 (PNG)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    eq, _, _ = seat_view(table, dealer)
    f, t = table["floor"], table["target"]
    lo = max(f, -t)
    fig, axes = plt.subplots(1, len(thirds), figsize=(5 * len(thirds) + 1, 5), squeeze=False)
    for ax, c in zip(axes[0], thirds):
        im = ax.imshow(eq[0, lo - f:, lo - f:, c - f], origin="lower", cmap="RdBu", vmin=0, vmax=1,
                       extent=(lo - .5, t - .5, lo - .5, t - .5))
        ax.set_xlabel("seat 1's score")
        ax.set_ylabel("own score (seat 0)")
        ax.set_title(f"{table['variant']} to {t}: seat 2 at {c}")
    fig.colorbar(im, ax=list(axes[0]), label="seat 0's chance to win")
    _save_png(fig, path)
