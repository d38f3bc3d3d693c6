"""Ghost Hand's summary of a run (from the kernel counters), its text, and its columns in experiments."""

from __future__ import annotations

import numpy as np

from bower.analysis.intervals import mean_interval, wilson
from bower.kernels import games as kg
from bower.kernels.ghost import hand as gk
from bower.sim.rules import RULES_VERSION
from bower.sim.text import pct, position_lines, share

LEVELS = ("3", "4", "5", "moon")


def summarize(total: np.ndarray, rules: dict, strategy: str, seed: int, threads: int, elapsed: float) -> dict:
    """The summary dict of a run from its merged counters."""
    n = int(total[gk.S_HANDS])
    bids = {}
    for i, name in enumerate(("3", "4", "5", "moon")):
        count = int(total[gk.S_BIDS + i])
        made = int(total[gk.S_MADE + i])
        low, high = wilson(made, count) if count else (None, None)
        bids[name] = {"count": count, "made": made, "make_rate": made / count if count else None, "make_rate_ci95": [low, high]}
    positions = ("1", "2", "3")
    return {
        "variant": "ghost",
        "rules_version": RULES_VERSION,
        "rules": rules,
        "strategy": strategy,
        "seed": seed,
        "threads": threads,
        "hands": n,
        "thrown_in": int(total[gk.S_THROWN]),
        "played": n - int(total[gk.S_THROWN]),
        "swaps": int(total[gk.S_SWAPS]),
        "swaps_by_position": {p: int(total[gk.S_SWAP_POS + i]) for i, p in enumerate(positions)},
        "bids": bids,
        "moons_called": bids["moon"]["count"],
        "moons_made": bids["moon"]["made"],
        "makers_by_position": {p: int(total[gk.S_MAKER_POS + i]) for i, p in enumerate(positions)},
        "points_per_hand_by_position": {p: int(total[gk.S_POINTS + i]) / n for i, p in enumerate(positions)},
        "points_per_hand_ci95_by_position": {
            p: list(mean_interval(int(total[gk.S_POINTS + i]), int(total[gk.S_POINTS_SQ + i]), n)[1:])
            for i, p in enumerate(positions)
        },
        "tricks_per_hand_by_position": {p: int(total[gk.S_TRICKS + i]) / n for i, p in enumerate(positions)},
        "elapsed_s": elapsed,
        "hands_per_second": n / elapsed if elapsed > 0 else None,
    }


def format_summary(s: dict) -> str:
    """The Ghost Hand part of the text summary: swaps, bids, moons, and the table by position."""
    n = s["hands"]
    by_pos = s["swaps_by_position"]
    lines = [
        f"hands dealt      {n:>12,}",
        f"thrown in        {s['thrown_in']:>12,}  {pct(s['thrown_in'], n):>8}",
        f"ghost swaps      {s['swaps']:>12,}  {pct(s['swaps'], n):>8}   by position 1/2/3: "
        + " / ".join(f"{by_pos[p]:,}" for p in ("1", "2", "3")),
        "",
        "bid won       hands   share      made   make rate   (95% interval)",
    ]
    played = s["played"]
    for level, b in s["bids"].items():
        if b["make_rate"] is None:
            rate = f"{'-':>10}"
        else:
            low, high = b["make_rate_ci95"]
            rate = f"{100 * b['make_rate']:>9.2f}%   ({100 * low:.2f}-{100 * high:.2f}%)"
        lines.append(f"  {level:<6} {b['count']:>10,} {pct(b['count'], played):>7} {b['made']:>10,} {rate}")
    lines.append(f"moons called {s['moons_called']:,}, made {s['moons_made']:,}")
    lines += position_lines(s, ("1", "2", "3"), "position (1 = dealer's left, 3 = dealer)")
    return "\n".join(lines)


def strategy_extras(acc: np.ndarray, hands: int) -> dict:
    """A Ghost Hand strategy's own rates in an experiment: bids, make rates by bid, moons, swaps."""
    make = {}
    for i, level in enumerate(LEVELS):
        won, made = int(acc[kg.ST_MAKER + i]), int(acc[kg.ST_MADE + i])
        lo, hi = wilson(made, won) if won else (None, None)
        make[level] = {"won": won, "made": made, "make_rate": made / won if won else None, "make_rate_ci95": [lo, hi]}
    makers = int(acc[kg.ST_MAKER: kg.ST_MAKER + 4].sum())
    return {
        "bid_rate": int(acc[kg.ST_BIDDER]) / hands if hands else None,
        "maker_rate": makers / hands if hands else None,
        "make_rate_by_bid": make,
        "moon_rate": int(acc[kg.ST_MAKER + 3]) / hands if hands else None,
        "moons_made": int(acc[kg.ST_MADE + 3]),
        "swap_rate": int(acc[kg.ST_SWAPS]) / hands if hands else None,
    }


def experiment_table(r: dict) -> list[str]:
    """Per-strategy rows of a Ghost Hand experiment: bids, make rates by bid, moons, swaps."""
    lines = [
        f"{'strategy':<16} {'games':>9} {'win rate':>9} {'(95% interval)':>19} {'pts/hand':>9} {'bid rate':>9} "
        f"{'make 3':>7} {'make 4':>7} {'make 5':>7} {'moons':>7} {'swaps':>7}",
    ]
    for s in r["strategies"]:
        lo, hi = s["win_rate_ci95"]
        mk = s["make_rate_by_bid"]
        lines.append(
            f"{s['name'][:16]:<16} {s['games']:>9,} {share(s['win_rate']):>9} {'(' + share(lo) + '-' + share(hi) + ')':>19} "
            f"{s['points_per_hand']:>9.3f} {share(s['bid_rate']):>9} "
            + " ".join(f"{share(mk[k]['make_rate']):>7}" for k in ("3", "4", "5"))
            + f" {share(s['moon_rate']):>7} {share(s['swap_rate']):>7}"
        )
    return lines
