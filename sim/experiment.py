"""Strategy experiments: duplicate play of whole games, win rates with intervals, sweeps.

Every deal set is played once per seat assignment of the strategies, on the
same deals (duplicate play), so seat and card luck cancel. The unit of
inference is the deal set: for strategy ``s`` its per-set win rate is
``wins in the set / seats it held in the set``; means and 95% intervals come
from the spread of those per-set values, which accounts for the games of a
set being correlated. The difference of two strategies is estimated the same
way from per-set differences (paired).
"""

from __future__ import annotations

import itertools
import math
import time
from typing import Callable

import numpy as np

from bower.analysis.intervals import Z95, wilson_clustered
from bower.kernels import games as kg
from bower.sim import distributed as dist
from bower.sim.limits import BOT_TIMEOUT
from bower.sim import runner
from bower.sim.progress import rounded_notice
from bower.sim.rules import RULES_VERSION, get_variant
from bower.sim.strategy import StrategyError, check_value, load_strategy, to_vector
from bower.sim.text import did_you_mean, written_float


def all_assignments(n_strategies: int, seats: int = 3) -> np.ndarray:
    """Seat assignments used equally: every arrangement of the strategies over the seats using each one.

    Two strategies at 3 seats: the 6 arrangements AAB, ABA, BAA, ABB, BAB, BBA
    (each holds 9 of the 18 seats); three: the 6 permutations.
    """
    if n_strategies not in (2, 3):
        raise runner.RunError(f"an experiment compares 2 or 3 strategies, got {n_strategies}")
    rows = [a for a in itertools.product(range(n_strategies), repeat=seats) if len(set(a)) == n_strategies]
    return np.array(rows, np.int64)


def three_seat_assignments(n_strategies: int) -> np.ndarray:
    """Every arrangement of 2 or 3 strategies over three seats that uses each one (the three-player variants)."""
    return all_assignments(n_strategies, 3)


def rotations_one_vs_base() -> np.ndarray:
    """The 3 rotations of (candidate, base, base): strategy 0 in each seat once."""
    return np.array([(0, 1, 1), (1, 0, 1), (1, 1, 0)], np.int64)


def partnerships(n_strategies: int = 2) -> np.ndarray:
    """Partnership games: strategy 0 as partners in seats 0 & 2 against 1 in seats 1 & 3, then the sides exchanged."""
    if n_strategies != 2:
        raise runner.RunError(f"a partnership experiment compares 2 strategies (one per side), got {n_strategies}")
    return np.array([(0, 1, 0, 1), (1, 0, 1, 0)], np.int64)


class _Totals:
    """Running sums over deal sets and counters, merged batch by batch (constant memory)."""

    def __init__(self, n_strat: int, slots: np.ndarray, hand_width: int):
        self.n_strat = n_strat
        self.slots = slots.astype(np.int64)  # seats held by each strategy in one set
        self.sets = 0
        # sums of the wins w_i and of w_i * w_j over sets, kept as integers: float sums (numpy's SIMD
        # reductions, BLAS) round in an order that depends on the CPU, and a seed must give the same numbers on
        # every machine; the win shares x_i = w_i / slots_i are formed from them (``sum_x``, ``sum_xx``)
        self.sum_w = np.zeros(n_strat, np.int64)
        self.sum_ww = np.zeros((n_strat, n_strat), np.int64)
        self.strategy = np.zeros((n_strat, kg.ST_WIDTH), np.int64)
        self.game = np.zeros(kg.GA_WIDTH, np.int64)
        self.hand = np.zeros(hand_width, np.int64)

    @property
    def sum_x(self) -> np.ndarray:
        """The sum over sets of each strategy's share of its games won."""
        return self.sum_w / self.slots

    @property
    def sum_xx(self) -> np.ndarray:
        """The sum over sets of the products of two strategies' shares."""
        return self.sum_ww / np.outer(self.slots, self.slots)

    def add(self, out: dict) -> None:
        w = np.asarray(out["set_wins"], np.int64)
        self.sets += w.shape[0]
        self.sum_w += w.sum(axis=0)
        self.sum_ww += np.einsum("si,sj->ij", w, w)
        self.strategy += out["strategy"]
        self.game += out["game"]
        self.hand += out["hand"]

    def mean_ci(self, i: int) -> tuple[float, float, float]:
        """Win rate of strategy i with its 95% interval over deal sets, inside [0, 1].

        The standard error comes from the spread of the per-set rates (games
        of one set are correlated); the interval is Wilson's at the effective
        number of games that standard error implies (``wilson_clustered``).
        """
        mean, low, high = self._ci(self.sum_x[i], self.sum_xx[i, i])
        se = (high - low) / (2 * Z95)
        low, high = wilson_clustered(mean, se, self.sets * self.slots[i])
        return mean, low, high

    def diff_ci(self, i: int, j: int) -> tuple[float, float, float]:
        """Win-rate difference i - j with its paired 95% interval over deal sets."""
        s = self.sum_x[i] - self.sum_x[j]
        ss = self.sum_xx[i, i] - 2 * self.sum_xx[i, j] + self.sum_xx[j, j]
        return self._ci(s, ss)

    def _ci(self, s: float, ss: float) -> tuple[float, float, float]:
        n = self.sets
        mean = s / n
        var = max(ss / n - mean * mean, 0.0) * n / max(n - 1, 1)
        half = Z95 * math.sqrt(var / n)
        return float(mean), float(mean - half), float(mean + half)


def _strategy_report(name: str, acc: np.ndarray, mean_ci, variant="ghost") -> dict:
    hands = int(acc[kg.ST_HANDS])
    games = int(acc[kg.ST_GAMES])
    pts, pts_sq = int(acc[kg.ST_POINTS]), int(acc[kg.ST_POINTS_SQ])
    mean_pts = pts / hands if hands else None
    sd = math.sqrt(max(pts_sq / hands - mean_pts**2, 0.0)) if hands else None
    rate, low, high = mean_ci
    common = {
        "name": name,
        "games": games,
        "wins": int(acc[kg.ST_WINS]),
        "win_rate": rate,
        "win_rate_ci95": [low, high],
        "hands": hands,
        "points_per_hand": mean_pts,
        "points_per_hand_ci95": [mean_pts - Z95 * sd / math.sqrt(hands), mean_pts + Z95 * sd / math.sqrt(hands)] if hands else None,
    }
    return {**common, **get_variant(variant).strategy_extras(acc, hands)}


def run_experiment(
    strategies: list,
    games: int = 100_000,
    seed: int = 0,
    threads: int | None = None,
    rules: dict | None = None,
    duplicate: bool = True,
    until_significant: bool = False,
    max_games: int = 1_000_000,
    assignments: np.ndarray | None = None,
    names: list[str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    variant="ghost",
    scheduler=None,
    notify: bool = True,
    start=None,
    bot_timeout: float | None = BOT_TIMEOUT,
) -> dict:
    """Play the strategies against each other in whole games and compare them.

    ``strategies``: 2 or 3 specs (preset name, ``.toml`` path or dict). When
    one is a Python bot (an object with ``step``, or ``path.py:Class``), the
    games are played through the game API by ``bower.sim.bots.run_bot_experiment``
    (the other specs then name bots: ``random``, ``greedy``).
    ``games`` is rounded up to whole deal sets (one game per assignment, in
    multiples of 64 sets), said on stderr when that plays more than asked
    (``notify``; ``bower.sim.progress.rounded_notice``). With ``until_significant``, batches of ``games``
    are played until the interval of the leading pair's difference excludes
    zero or ``max_games`` is reached; ``stopped`` says which. ``scheduler``:
    where the batches run (``bower.sim.distributed.session``); the numbers do
    not depend on it. ``start``: every game's starting scores, duplicate games
    included (``runner.check_start``: ``"4,9"`` or a sequence, by side or by
    seat; None: 0s, and the result then has no ``start``). ``bot_timeout``:
    with Python bots, the seconds one may take to answer one call (None: no
    limit).
    """
    from bower.sim import bots

    if bots.needs_bots(strategies):  # Python bots: whole games through the game API
        if len(strategies) not in (2, 3):
            raise runner.RunError(f"an experiment compares 2 or 3 players, got {len(strategies)}")
        if scheduler is not None:
            raise runner.RunError("an experiment with Python bots runs in this process: give no scheduler")
        if start is not None:
            raise runner.RunError("--start is for games of the kernels' strategies; an experiment with Python bots "
                                  "starts its games at 0")
        return bots.run_bot_experiment(list(strategies), games=games, seed=seed, rules=rules, duplicate=duplicate,
                                       until_significant=until_significant, max_games=max_games, names=names,
                                       progress=progress, variant=variant, notify=notify,
                                       bot_timeout=bot_timeout)
    v, rules_d, rules_vec = runner.resolve_run(variant, seed, rules)
    loaded = [load_strategy(s, v.name) for s in strategies]
    names = list(names) if names else [n for n, _ in loaded]
    names = _unique_names(names)
    sides = v.partnerships
    if assignments is not None:
        assign = np.asarray(assignments, np.int64)
    else:
        assign = v.experiment_assignments(len(loaded))
    games = runner.check_count("--games", games, runner.MAX_GAMES)
    start_scores = runner.check_start(start, v)
    if until_significant:
        max_games = runner.check_count("--max-games", max_games, runner.MAX_GAMES)
    if until_significant and max_games < games:
        raise runner.RunError(f"--max-games ({max_games}) must be at least --games ({games})")
    n_threads = runner.set_threads(threads)
    strat_params = np.stack([to_vector(p, v.name) for _, p in loaded])
    n_assign = assign.shape[0]
    batch_sets = _round_sets(games, n_assign)
    cap_sets = _round_sets(max_games, n_assign) if until_significant else batch_sets
    slots = np.array([(assign == s).sum() for s in range(len(loaded))]) // (2 if sides else 1)  # games (sides) held
    totals = _Totals(len(loaded), slots, v.hand_kernels.S_WIDTH)
    with dist.session(scheduler) as ex:
        if notify:  # once the scheduler is checked: a bad address is the one line, with no note before it
            rounded_notice("--games", games, batch_sets * n_assign, rounding_why(n_assign))
            if until_significant:
                rounded_notice("--max-games", max_games, cap_sets * n_assign, rounding_why(n_assign))
        t0 = time.perf_counter()
        stopped = "games"
        while True:
            first = totals.sets
            n = min(batch_sets, cap_sets - first)
            runner.run_games(seed, n, assign, strat_params, duplicate, rules_vec,
                             lambda f, o: _add(totals, o, progress, cap_sets * n_assign), first, variant=v,
                             start_scores=start_scores)
            if not until_significant:
                break
            lead = _leading_pair(totals)
            if lead is not None and _excludes_zero(totals.diff_ci(*lead)):
                stopped = "significant"
                break
            if totals.sets >= cap_sets:
                stopped = "max-games"
                break
        elapsed = time.perf_counter() - t0
        result = _report(totals, names, loaded, assign, duplicate, rules_d, seed, n_threads, elapsed, stopped,
                         until_significant, v.name)
        if start_scores is not None:
            result["start"] = runner.start_dict(start_scores)
        return runner.add_executor(result, ex)


def _add(totals, out, progress, total_games):
    totals.add(out)
    if progress is not None:
        progress(int(totals.game[kg.GA_GAMES]), total_games)


def _round_sets(games: int, n_assign: int) -> int:
    sets = -(-games // n_assign)
    return -(-sets // runner.GAME_CHUNK_SETS) * runner.GAME_CHUNK_SETS


def rounding_why(n_assign: int) -> str:
    """Why a game count was rounded up: ``whole batches of 64 deal sets, 6 games a set``."""
    return f"whole batches of {runner.GAME_CHUNK_SETS} deal sets, {n_assign} game{'s' * (n_assign != 1)} a set"


def _unique_names(names: list[str]) -> list[str]:
    out = []
    for i, n in enumerate(names):
        out.append(n if names.count(n) == 1 else f"{n}#{i + 1}")
    return out


def _leading_pair(totals: _Totals):
    if totals.n_strat < 2:
        return None
    order = np.argsort(-totals.sum_x, kind="stable")
    return int(order[0]), int(order[1])


def _excludes_zero(ci) -> bool:
    _, low, high = ci
    return low > 0 or high < 0


def _report(totals, names, loaded, assign, duplicate, rules_d, seed, threads, elapsed, stopped, until_significant,
            variant="ghost"):
    per = [_strategy_report(names[i], totals.strategy[i], totals.mean_ci(i), variant) for i in range(totals.n_strat)]
    pairs = []
    for i, j in itertools.combinations(range(totals.n_strat), 2):
        d, low, high = totals.diff_ci(i, j)
        pairs.append({
            "a": names[i], "b": names[j], "win_rate_diff": d, "ci95": [low, high],
            "excludes_zero": _excludes_zero((d, low, high)),
            "better": (names[i] if d > 0 else names[j]) if _excludes_zero((d, low, high)) else None,
        })
    lead = _leading_pair(totals)
    g = runner.game_summary(totals.game, variant)
    result = {
        "variant": variant,
        "rules_version": RULES_VERSION,
        "rules": rules_d,
        "seed": seed,
        "threads": threads,
        "duplicate": duplicate,
        "strategies": per,
        "parameters": {names[i]: p for i, (_, p) in enumerate(loaded)},
        "assignments": [[names[k] for k in row] for row in assign.tolist()],
        "deal_sets": totals.sets,
        "games": g["games"],
        "unfinished": g["unfinished"],
        "hands": int(totals.hand[get_variant(variant).hand_kernels.S_HANDS]),
        "hands_per_game": g["hands_per_game"],
        "pairs": pairs,
        "leading_pair": [names[lead[0]], names[lead[1]]] if lead else None,
        "elapsed_s": elapsed,
        "games_per_second": g["games"] / elapsed if elapsed > 0 else None,
    }
    result.update(runner.token_summary(totals.game, rules_d))
    if until_significant:
        result["stopped"] = stopped
    return result


# ---------------------------------------------------------------- sweeps


def parse_range(text: str, variant="ghost") -> tuple[str, list[float]]:
    """``NAME=START:STOP:STEP`` (STOP included) → (name, values); StrategyError on a bad one."""
    if "=" not in text:
        raise StrategyError(f"--param {text!r} must be NAME=START:STOP:STEP")
    name, spec = (x.strip() for x in text.split("=", 1))
    v = get_variant(variant)
    if name not in v.param_names:
        raise StrategyError(f"unknown strategy parameter {name!r} in --param ({v.name})"
                            f"{did_you_mean(name, v.param_names)}")
    values = range_values(text, spec.split(":"), StrategyError)
    for x in values:
        check_value(name, x, "--param", variant)
    return name, values


def range_values(text: str, parts: list[str], error=StrategyError) -> list[float]:
    """The values of ``--param text``'s ``START:STOP:STEP`` (STOP included) or ``VALUE``, given as its ``parts``:
    at most 1000 of them; ``error`` (an exception class) with one line on a bad range."""
    try:
        nums = [written_float(p) for p in parts]  # 1e999 named as written, not inf
    except ValueError:
        raise error(f"--param {text!r}: START:STOP:STEP must be numbers") from None
    if len(nums) == 1:
        return nums
    if len(nums) != 3:
        raise error(f"--param {text!r} must be NAME=START:STOP:STEP (or NAME=VALUE)")
    start, stop, step = nums
    if not (math.isfinite(start) and math.isfinite(stop) and math.isfinite(step)) or step <= 0 or stop < start:
        raise error(f"--param {text!r}: need START <= STOP and STEP > 0")
    span = (stop - start) / step + 1e-9  # inf when past any float
    count = int(span) + 1 if span < 1e9 else None
    if count is None or count > 1000:
        raise error(f"--param {text!r} gives {count or 'over a billion'} values (at most 1000)")
    return [round(start + i * step, 12) for i in range(count)]


def _checked_values(name, values, variant="ghost") -> tuple[str, list[float]]:
    """(name, values) given as Python values (the library's sweep grid), each checked as ``parse_range`` does."""
    v = get_variant(variant)
    if name not in v.param_names:
        raise StrategyError(f"unknown strategy parameter {name!r} in the sweep ({v.name})"
                            f"{did_you_mean(name, v.param_names)}")
    values = list(values) if isinstance(values, (list, tuple, range)) else [values]
    if not values:
        raise StrategyError(f"the sweep gives no values for {name!r}")
    if len(values) > 1000:
        raise StrategyError(f"the sweep gives {len(values)} values for {name!r} (at most 1000)")
    return name, [check_value(name, x, "the sweep", variant) for x in values]


def run_sweep(
    params: list,
    base="default",
    games: int = 30_000,
    seed: int = 0,
    threads: int | None = None,
    rules: dict | None = None,
    progress: Callable[[int, int], None] | None = None,
    variant="ghost",
    scheduler=None,
) -> dict:
    """One row per value (grid for several ``--param``): that strategy against two copies of ``base``.

    ``params``: ``NAME=START:STOP:STEP`` strings, or ``(name, values)`` pairs.
    ``games`` per row is rounded up to whole deal sets as in ``run_experiment``
    (said once on stderr when that plays more than asked).

    Every row is played on the same deal sets (same seed), so rows differ by
    the parameter alone. The candidate's win rate, against 1/3 for a strategy
    as good as the base, carries its 95% interval; the best row is marked.
    ``scheduler``: where the batches run (one session for every row).
    """
    with dist.session(scheduler) as ex:
        return runner.add_executor(_sweep(params, base, games, seed, threads, rules, progress, variant), ex)


def _sweep(params, base, games, seed, threads, rules, progress, variant) -> dict:
    ranges = [parse_range(p, variant) if isinstance(p, str) else _checked_values(*p, variant=variant) for p in params]
    names = [n for n, _ in ranges]
    if len(set(names)) != len(names):
        raise StrategyError("each --param names a different parameter")
    base_name, base_params = load_strategy(base, variant)
    grid = list(itertools.product(*[vals for _, vals in ranges]))
    games = runner.check_count("--games", games, runner.MAX_GAMES)
    n_assign = len(get_variant(variant).sweep_assignments())
    rounded_notice("--games", games, _round_sets(games, n_assign) * n_assign, rounding_why(n_assign) + ", per value")
    rows = []
    done = 0
    total = len(grid)
    t0 = time.perf_counter()
    for combo in grid:
        cand = dict(base_params)
        cand.update(dict(zip(names, combo)))
        res = run_experiment(
            [cand, base_params], games=games, seed=seed, threads=threads, rules=rules,
            assignments=get_variant(variant).sweep_assignments(),
            names=["candidate", base_name], variant=variant, notify=False,
        )
        c = res["strategies"][0]
        rows.append({
            "values": dict(zip(names, combo)),
            "games": res["games"],
            "win_rate": c["win_rate"],
            "win_rate_ci95": c["win_rate_ci95"],
            "points_per_hand": c["points_per_hand"],
            "base_points_per_hand": res["strategies"][1]["points_per_hand"],
            "bid_rate": c[get_variant(variant).sweep_rate],
            "swap_rate": c.get("swap_rate"),
            **runner.token_keys(res),
        })
        done += 1
        if progress is not None:
            progress(done, total)
    best = max(range(len(rows)), key=lambda i: rows[i]["win_rate"])
    for i, r in enumerate(rows):
        r["best"] = i == best
    return {
        "variant": get_variant(variant).name,
        "rules_version": RULES_VERSION,
        "rules": runner.resolve_run(variant, seed, rules)[1],
        "base": base_name,
        "base_parameters": base_params,
        "params": names,
        "seed": seed,
        "games_per_row": rows[0]["games"],
        "rows": rows,
        "best": rows[best]["values"],
        "elapsed_s": time.perf_counter() - t0,
    }
