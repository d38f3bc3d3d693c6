"""``bower profile``: time the kernels one by one at several thread counts.

Thin orchestration over the public entry points (``bower.kernels.deal.deal_many``,
``bower.sim.runner.simulate``, ``bower.sim.runner.simulate_games``, ``bower.sim.advice.advise``):
it loads or compiles the kernels first, then times each one at each thread
count (median of ``repeats`` runs after a warm-up) and reads the process's
peak resident set size after each.

The auction and the trick play run fused with the deal inside each variant's
hand kernel. A variant that has a phase kernel (``Variant.phase_run``: deal
and auction, no play; Ghost Hand's ``auction_chunks``) also gets ``auction``
(its ns per hand minus the deal's) and ``play`` (``hand`` minus it), marked
derived; every variant gets the derived ``auction+play`` (``hand`` minus
``deal``). A derived row whose difference of two timings is not positive (a
busy machine) is left out and listed under ``derived_skipped`` with the reason.
"""

from __future__ import annotations

import os
import platform
import resource
import statistics
import sys
import time
from typing import Callable

import numpy as np

from bower.sim.runner import RunError, max_threads

KERNELS = ("deal", "auction", "play", "hand", "game", "should-bid", "solve")
DERIVED = "auction+play"
HANDS_PER_GAME = 15  # ``game`` plays hands // 15 games (about 13 hands a game to 32)
HANDS_PER_SAMPLE = 20  # ``should-bid`` draws hands // 20 samples per action (each plays 18 hands)
HANDS_PER_SOLVE = 50  # ``solve`` solves hands // 50 full deals double dummy
UNITS = {"deal": "deals", "deal+auction": "hands", "hand": "hands", DERIVED: "hands", "auction": "hands",
         "play": "hands", "game": "games", "should-bid": "samples/action", "solve": "solves"}
FUSED_NOTE = (
    "derived rows: auction = deal+auction minus deal, play = hand minus deal+auction, auction+play = hand minus "
    "deal (the phases run fused in the hand kernel, kernels/NAME/drivers.py simulate_chunks; deal+auction is the "
    "variant's phase kernel)."
)


def parse_kernels(text: str, variant="ghost") -> list[str]:
    """Kernel names from ``"all"`` or a comma list of KERNELS; RunError on an unknown one."""
    from bower.sim.rules import get_variant

    v = get_variant(variant)
    names = [p.strip().lower() for p in (text or "").split(",") if p.strip()]
    if not names:
        raise RunError("--kernel needs a name: " + ", ".join(KERNELS) + " or all")
    out: list[str] = []
    for n in names:
        if n in ("auction", "play") and n not in v.phases:
            timed = [x.title for x in _variants() if x.phases]
            raise RunError(f"--kernel {n}: the auction and the play are timed apart for {' and '.join(timed)} only")
        if n == "all":
            wanted = ["deal", *v.phases, "hand", "game", "should-bid", "solve"]
        elif n in KERNELS:
            wanted = [n]
        else:
            raise RunError(f"unknown kernel {n!r} (choose from {', '.join(KERNELS)}, all)")
        out += [w for w in wanted if w not in out]
    return out


def _variants():
    from bower.sim.variants import all_variants

    return all_variants()


def parse_threads(text: str | None) -> list[int]:
    """Thread counts from ``"1,2"`` (default ``1,N`` with N = max_threads()); RunError if one is out of range."""
    top = max_threads()
    if text is None:
        return sorted({1, top})
    out: list[int] = []
    for part in text.split(","):
        part = part.strip()
        try:
            t = int(part)
        except ValueError:
            raise RunError(f"--threads must be a comma list of integers between 1 and {top}, got {text!r}") from None
        if not 1 <= t <= top:
            raise RunError(f"--threads must be between 1 and {top} on this machine, got {t}")
        if t not in out:
            out.append(t)
    return out


def peak_rss_mib() -> float:
    """Peak resident set size of this process so far, in MiB (ru_maxrss: KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024


def machine() -> dict:
    """CPU, core and kernel-thread counts, Python, NumPy and Numba versions."""
    import numba

    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "max_threads": max_threads(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "platform": platform.platform(),
    }


# ---------------------------------------------------------------- the cases


def _deal_once(n: int, variant="ghost") -> float:
    """Deal ``n`` deals as the runner seeds them, in the variant's layout (``Variant.deal_layout``); seconds."""
    from bower.kernels.deal import deal_many
    from bower.sim import runner
    from bower.sim.rules import get_variant

    cards, hands, size = get_variant(variant).deal_layout
    t0 = time.perf_counter()
    n_chunks = -(-n // runner.CHUNK_SIZE)
    states = runner.chunk_states(0, 0, n_chunks)
    deal_many(states, runner.CHUNK_SIZE, n, cards, hands, size, np.zeros(n_chunks, np.int64))
    return time.perf_counter() - t0


def _hand_once(n: int, threads: int, variant="ghost") -> float:
    from bower.sim import runner

    return runner.simulate(variant, hands=n, seed=0, threads=threads)["elapsed_s"]


def _game_once(n: int, threads: int, variant="ghost") -> tuple[float, int]:
    from bower.sim import runner

    s = runner.simulate_games(variant, games=n, seed=0, threads=threads)
    return s["elapsed_s"], s["hands"]


def _advice_once(n: int, threads: int, variant="ghost") -> float:
    from bower.sim.rules import get_variant

    return get_variant(variant).profile_advice(n, threads)


_SOLVE_DEALS: dict = {}


def _solve_once(n: int, variant="ghost") -> tuple[float, float]:
    """Solve ``n`` random full deals of the variant (``bower.sim.solve.sample_deals``, seed 0): (seconds, nodes per solve)."""
    from bower.sim import solve
    from bower.sim.rules import get_variant

    key = (variant, n)
    if key not in _SOLVE_DEALS:
        _SOLVE_DEALS.clear()
        _SOLVE_DEALS[key] = solve.sample_deals(get_variant(variant), n, 0)
    t0 = time.perf_counter()
    _, nodes = solve.solve_batch(*_SOLVE_DEALS[key])
    return time.perf_counter() - t0, float(nodes.mean())


def items(kernel: str, hands: int) -> int:
    """Items one timed run of ``kernel`` processes for ``--hands hands``: deals, hands, games, samples or solves."""
    if kernel == "game":
        return max(1, hands // HANDS_PER_GAME)
    if kernel == "solve":
        return max(1, hands // HANDS_PER_SOLVE)
    if kernel == "should-bid":
        return max(1, hands // HANDS_PER_SAMPLE)
    return hands


def _dispatchers(kernel: str, variant="ghost") -> list:
    from bower.kernels.deal import DEAL_KERNELS
    from bower.sim.rules import get_variant

    v = get_variant(variant)
    from bower.kernels.solve import solve_many

    return {"deal": list(DEAL_KERNELS), "deal+auction": list(v.phase_dispatchers), "hand": list(v.drivers.SIMULATE_KERNELS),
            "game": [v.drivers.games_chunks], "should-bid": list(v.advice_kernels), "solve": [solve_many]}[kernel]


def _smallest_run(kernel: str, variant="ghost") -> None:
    from bower.sim import runner
    from bower.sim.rules import get_variant

    if kernel == "deal":
        _deal_once(1, variant)
    elif kernel == "deal+auction":
        get_variant(variant).phase_run(1)
    elif kernel == "hand":
        from bower.sim.rules import encode, resolve

        v = get_variant(variant)
        runner.warm_up(encode(v, resolve(v, None)), runner.seat_params("default", variant)[1], variant)
    elif kernel == "game":
        _game_once(1, 1, variant)
    elif kernel == "solve":
        _solve_once(1, variant)
    else:
        _advice_once(1, 1, variant)


def timed_kernels(kernels: list[str]) -> list[str]:
    """The kernels that really run for the requested ones (auction and play need deal, deal+auction, hand)."""
    out: list[str] = []
    for k in kernels:
        for r in (["deal", "deal+auction", "hand"] if k in ("auction", "play") else [k]):
            if r not in out:
                out.append(r)
    return out


def compile_kernels(kernels: list[str], variant="ghost") -> dict:
    """Load (from Numba's cache) or compile the kernels behind ``kernels`` by running each once, tiny.

    Returns ``compile_s`` (total seconds), ``compiled`` (whether any had to
    be compiled: a Numba cache miss) and ``by_kernel`` (seconds and flag each).
    """
    by_kernel = []
    for k in timed_kernels(kernels):
        disp = _dispatchers(k, variant)
        before = sum(sum(d.stats.cache_misses.values()) for d in disp)
        t0 = time.perf_counter()
        _smallest_run(k, variant)
        seconds = time.perf_counter() - t0
        compiled = sum(sum(d.stats.cache_misses.values()) for d in disp) > before
        by_kernel.append({"name": k, "seconds": seconds, "compiled": compiled})
    return {
        "compile_s": sum(r["seconds"] for r in by_kernel),
        "compiled": any(r["compiled"] for r in by_kernel),
        "by_kernel": by_kernel,
    }


def measure(kernel: str, n: int, threads: int, repeats: int = 3, variant="ghost") -> dict:
    """Time ``kernel`` on ``n`` items at ``threads`` threads: median of ``repeats`` runs after one warm-up.

    ``hand``, ``game`` and ``should-bid`` use the elapsed time their runner
    reports (it leaves out the runner's own tiny warm-up chunk); ``deal``
    times seeding plus ``deal_many``, as the runner seeds its chunks.
    """
    from bower.sim import runner

    runner.set_threads(threads)
    hands_seen = None
    if kernel == "deal":
        def once(m):
            return _deal_once(m, variant)
    elif kernel == "deal+auction":
        from bower.sim.rules import get_variant

        once: Callable[[int], float] = get_variant(variant).phase_run
    elif kernel == "hand":
        def once(m):
            return _hand_once(m, threads, variant)
    elif kernel == "game":
        def once(m):
            nonlocal hands_seen
            seconds, hands_seen = _game_once(m, threads, variant)
            return seconds
    elif kernel == "should-bid":
        def once(m):
            return _advice_once(m, threads, variant)
    elif kernel == "solve":
        nodes = None

        def once(m):
            nonlocal nodes
            seconds, nodes = _solve_once(m, variant)
            return seconds
    else:
        raise RunError(f"no timed kernel {kernel!r}")
    once(min(n, 5000))
    times = [once(n) for _ in range(repeats)]
    seconds = statistics.median(times)
    row = {
        "name": kernel,
        "unit": UNITS[kernel],
        "items": n,
        "threads": threads,
        "seconds": seconds,
        "per_second": n / seconds,
        "ns_per_item": 1e9 * seconds / n,
        "parallel_efficiency": None,
        "peak_rss_mib": peak_rss_mib(),
        "derived": False,
    }
    if kernel == "game":
        row["hands"] = hands_seen
        row["hands_per_second"] = hands_seen / seconds
    if kernel == "solve":
        row["nodes_per_solve"] = nodes
    return row


def derive_phases(rows: list[dict], skipped: list | None = None) -> list[dict]:
    """Derived rows per thread count: ``auction``, ``play`` and ``auction+play`` ns per hand, from measured rows.

    A difference that is not positive gives no row; it is appended to
    ``skipped`` (name, threads, reason) instead.
    """
    by = {(r["name"], r["threads"]): r for r in rows}
    out = []
    skipped = [] if skipped is None else skipped
    for h in rows:
        if h["name"] != "hand":
            continue
        t = h["threads"]
        parts = []
        if ("deal+auction", t) in by and ("deal", t) in by:
            da, d = by[("deal+auction", t)]["ns_per_item"], by[("deal", t)]["ns_per_item"]
            parts += [("auction", da - d), ("play", h["ns_per_item"] - da)]
        if ("deal", t) in by:
            parts.append((DERIVED, h["ns_per_item"] - by[("deal", t)]["ns_per_item"]))
        for name, ns in parts:
            if ns <= 0:
                skipped.append({"name": name, "threads": t, "reason": (
                    f"the difference of its two timings was {ns:.1f} ns (not positive: the machine was busy "
                    "during one of them); rerun with more --hands or --repeats")})
                continue
            out.append({
                "name": name, "unit": UNITS[name], "items": h["items"], "threads": t,
                "seconds": ns * h["items"] / 1e9, "per_second": 1e9 / ns, "ns_per_item": ns,
                "parallel_efficiency": None, "peak_rss_mib": h["peak_rss_mib"], "derived": True,
            })
    return out


def add_efficiency(rows: list[dict]) -> None:
    """Set ``parallel_efficiency`` = per_second(T) / (T x per_second(1)) where a 1-thread row exists."""
    single = {r["name"]: r["per_second"] for r in rows if r["threads"] == 1}
    for r in rows:
        one = single.get(r["name"])
        if one and r["per_second"]:
            r["parallel_efficiency"] = r["per_second"] / (r["threads"] * one)


def profile(
    kernels: list[str],
    hands: int = 1_000_000,
    threads: list[int] | None = None,
    repeats: int = 3,
    on_row: Callable[[dict], None] | None = None,
    variant="ghost",
) -> dict:
    """Compile, then time every kernel at every thread count; the result ``bower profile --json`` prints.

    ``kernels`` as from ``parse_kernels``; ``threads`` as from
    ``parse_threads`` (None: ``1,N``). ``on_row(row)`` is told of each timed
    row as it finishes.
    """
    import numba

    if not isinstance(hands, (int, np.integer)) or hands <= 0:
        raise RunError(f"--hands must be a positive integer, got {hands!r}")
    if repeats <= 0:
        raise RunError(f"repeats must be positive, got {repeats}")
    threads = parse_threads(None) if threads is None else list(threads)
    for t in threads:
        if not 1 <= t <= max_threads():
            raise RunError(f"--threads must be between 1 and {max_threads()} on this machine, got {t}")
    before = numba.get_num_threads()
    try:
        comp = compile_kernels(kernels, variant)
        rows = []
        for k in timed_kernels(kernels):
            for t in threads:
                row = measure(k, items(k, hands), t, repeats, variant)
                rows.append(row)
                if on_row is not None:
                    on_row(row)
    finally:
        numba.set_num_threads(before)
    skipped: list[dict] = []
    if any(k in kernels for k in ("auction", "play")) or {"deal", "hand"} <= set(kernels):
        derived = derive_phases(rows, skipped)
        at = max(i for i, r in enumerate(rows) if r["name"] == "hand") + 1
        rows[at:at] = derived
    add_efficiency(rows)
    from bower.sim.rules import get_variant

    return {
        "variant": get_variant(variant).name,
        "compile_s": comp["compile_s"],
        "compiled": comp["compiled"],
        "compile": comp["by_kernel"],
        "machine": machine(),
        "hands": hands,
        "repeats": repeats,
        "threads": threads,
        "requested": kernels,
        "kernels": rows,
        "derived_skipped": skipped,
    }
