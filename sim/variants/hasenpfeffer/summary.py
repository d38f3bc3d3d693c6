"""Hasenpfeffer in Python: the run summary, its text form, and one hand from a given deal order.

The runner plays Hasenpfeffer hands and games with ``variant="hasenpfeffer"``;
this module turns the kernels' counters into the summary dict and exposes
the single-hand path that the tests compare with the reference engine.
"""

from __future__ import annotations

import numpy as np

from bower.analysis.intervals import mean_interval
from bower.kernels import games as kg
from bower.kernels.hasenpfeffer import hand as hk
from bower.sim.rules import RULES_VERSION
from bower.sim.text import pct, rate, rate_line, share
from bower.sim.variants.common import maker_cell

NUMERIC_NAMES = ("1", "2", "3", "4", "5", "6")
PEPPER_NAMES = ("1", "2", "3", "4", "5", "little-pepper", "big-pepper")
JOKER_PLACES = ("bidder", "partner", "opponent", "widow")


def bid_names(rules: dict) -> tuple:
    """The contract names of the bidding form in force, by level 1.."""
    return PEPPER_NAMES if rules["bidding"] == "pepper" else NUMERIC_NAMES


def summarize(total: np.ndarray, rules: dict, strategy: str, seed: int, threads: int,
              elapsed: float) -> dict:
    """The summary dict of a Hasenpfeffer run from its merged counters (``bower.kernels.hasenpfeffer.S_*``).

    ``bids`` counts the contracts reached by bidding, by level; the joker
    holder's forced 3s are ``forced_threes`` alone, so ``bids`` and
    ``forced_threes`` together count every hand played once (``made``).
    """
    t = [int(x) for x in total]
    n = t[hk.S_HANDS]
    played = n - t[hk.S_THROWN]
    names = bid_names(rules)
    made = sum(t[hk.S_MADE + i] for i in range(7))
    sides = ("position_1_side", "dealer_side")
    # the kernel counts the joker holder's forced 3s under level 3 as well: ``bids`` are the contracts bid,
    # ``forced_threes`` the forced ones, so the two add up to every hand played
    bids = {name: [t[hk.S_BIDS + i], t[hk.S_MADE + i]] for i, name in enumerate(names)}
    bids[names[2]][0] -= t[hk.S_FORCED]
    bids[names[2]][1] -= t[hk.S_FORCED_MADE]
    return {
        "variant": "hasenpfeffer",
        "rules_version": RULES_VERSION,
        "rules": rules,
        "strategy": strategy,
        "seed": seed,
        "threads": threads,
        "hands": n,
        "thrown_in": t[hk.S_THROWN],
        "played": played,
        "made": rate(made, played),
        "forced_threes": rate(t[hk.S_FORCED_MADE], t[hk.S_FORCED]),
        "bids": {name: rate(m, c) for name, (c, m) in bids.items()},
        "by_joker": {place: rate(t[hk.S_JOKER_MADE + i], t[hk.S_JOKER + i]) for i, place in enumerate(JOKER_PLACES)},
        "bidders_by_position": {str(p + 1): t[hk.S_BIDDER_POS + p] for p in range(4)},
        "bidding_side_tricks_per_hand": t[hk.S_BID_TRICKS] / played if played else None,
        "points_per_hand_by_side": {s: t[hk.S_POINTS + i] / n for i, s in enumerate(sides)},
        "points_per_hand_ci95_by_side": {
            s: list(mean_interval(t[hk.S_POINTS + i], t[hk.S_POINTS_SQ + i], n)[1:]) for i, s in enumerate(sides)
        },
        "elapsed_s": elapsed,
        "hands_per_second": n / elapsed if elapsed > 0 else None,
    }


def format_summary(s: dict) -> str:
    """The human-readable body of a Hasenpfeffer summary (after the common header)."""
    n, played = s["hands"], s["played"]
    lines = [
        f"hands dealt      {n:>12,}",
        f"thrown in        {s['thrown_in']:>12,}  {pct(s['thrown_in'], n):>8}",
        "",
        "contract              hands   share      made   make rate   (95% interval)",
        rate_line("all", s["made"], played),
    ]
    for name, r in s["bids"].items():
        lines.append(rate_line(f"bid {name}", r, played))
    lines.append(rate_line("forced 3", s["forced_threes"], played))
    lines += ["", "by where the joker was dealt"]
    for place, r in s["by_joker"].items():
        lines.append(rate_line(f"joker: {place}", r, played))
    ci = s["points_per_hand_ci95_by_side"]
    pp = s["points_per_hand_by_side"]
    lines += [
        "",
        "bidders by position 1/2/3/4 (4 = dealer): " + " / ".join(f"{v:,}" for v in s["bidders_by_position"].values()),
        "mean points per hand: side of position 1 "
        f"{pp['position_1_side']:.4f} (±{(ci['position_1_side'][1] - ci['position_1_side'][0]) / 2:.4f}), "
        f"dealer's side {pp['dealer_side']:.4f} (±{(ci['dealer_side'][1] - ci['dealer_side'][0]) / 2:.4f})",
    ]
    return "\n".join(lines)


def table_run(hands: int, seed: int = 0, threads: int | None = None, rules: dict | None = None, strategy="default",
              progress=None) -> tuple[dict, "object"]:
    """Play ``hands`` hands and sum the analysis cells batch by batch: (summary, cells frame)."""
    from bower.sim import runner
    from bower.sim.strategy import load_strategy
    from bower.sim.variants.hasenpfeffer.tables import Accumulator

    _, rules_d, _ = runner.resolve_run("hasenpfeffer", seed, rules)
    acc = Accumulator(load_strategy(strategy, "hasenpfeffer")[1], rules_d["bidding"] == "pepper")
    summary = runner.rows_run("hasenpfeffer", hands, seed, threads, rules, strategy, acc.add_rows, progress)
    return summary, acc.frame()


def experiment_table(r: dict) -> list[str]:
    """Per-strategy rows of a Hasenpfeffer experiment (each strategy is a partnership): bids, makes, peppers."""
    lines = [
        f"{'strategy':<16} {'games':>9} {'win rate':>9} {'(95% interval)':>19} {'pts/hand':>9} {'bids':>7} "
        f"{'bidder':>7} {'made':>7} {'peppers':>8} {'made':>7}",
    ]
    for s in r["strategies"]:
        lo, hi = s["win_rate_ci95"]
        lines.append(
            f"{s['name'][:16]:<16} {s['games'] // 2:>9,} {share(s['win_rate']):>9} {'(' + share(lo) + '-' + share(hi) + ')':>19} "
            f"{s['points_per_hand']:>9.3f} {share(s['bid_rate']):>7} {share(s['bidder_rate']):>7} "
            f"{share(s['make_rate']['rate']):>7} {share(s['pepper_rate']):>8} {share(s['pepper_make_rate']['rate']):>7}"
        )
    return lines


def strategy_extras(acc: np.ndarray, hands: int) -> dict:
    """A Hasenpfeffer strategy's own rates (``bower.kernels.hasenpfeffer.drivers`` fills the ST_MAKER/ST_MADE cells)."""
    contracts, made = maker_cell(acc, 0)
    peppers, pepper_made = maker_cell(acc, 1)
    return {
        "bid_rate": int(acc[kg.ST_BIDDER]) / hands if hands else None,
        "bidder_rate": contracts / hands if hands else None,
        "make_rate": made,
        "pepper_rate": peppers / hands if hands else None,
        "pepper_make_rate": pepper_made,
    }
