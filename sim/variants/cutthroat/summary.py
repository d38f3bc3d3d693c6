"""Cutthroat in Python: the run summary, one hand from a given deal order, and the maker's keep-set.

The runner (``bower.sim.runner``) plays Cutthroat hands and games with
``variant="cutthroat"``; this module turns its counters into the summary
dict, formats it for the terminal, and exposes the kernels' single-hand
paths that the tests compare with the reference engine.
"""

from __future__ import annotations

import numpy as np

from bower.analysis.intervals import mean_interval
from bower.kernels import games as kg
from bower.kernels.cutthroat import hand as ck
from bower.sim.rules import RULES_VERSION
from bower.sim.text import pct, position_lines, rate, rate_line, share
from bower.sim.variants.common import maker_cell

POSITIONS = ("1", "2", "3")
UP_RANKS = ("9", "T", "J", "Q", "K", "A")


def summarize(total: np.ndarray, rules: dict, strategy: str, seed: int, threads: int,
              elapsed: float) -> dict:
    """The summary dict of a Cutthroat run from its merged counters (``bower.kernels.cutthroat.S_*``)."""
    t = [int(x) for x in total]
    n = t[ck.S_HANDS]
    played = n - t[ck.S_THROWN]
    makers = {p: t[ck.S_MAKER_R1 + i] + t[ck.S_MAKER_R2 + i] for i, p in enumerate(POSITIONS)}
    made = sum(t[ck.S_MADE_R1 + i] + t[ck.S_MADE_R2 + i] for i in range(3))
    return {
        "variant": "cutthroat",
        "rules_version": RULES_VERSION,
        "rules": rules,
        "strategy": strategy,
        "seed": seed,
        "threads": threads,
        "hands": n,
        "thrown_in": t[ck.S_THROWN],
        "played": played,
        "made": rate(made, played),
        "marches": t[ck.S_MARCH],
        "euchres": played - made,
        "dealer_exchanges": t[ck.S_EXCHANGES],
        "round_one_by_position": {p: rate(t[ck.S_MADE_R1 + i], t[ck.S_MAKER_R1 + i]) for i, p in enumerate(POSITIONS)},
        "round_two_by_position": {p: rate(t[ck.S_MADE_R2 + i], t[ck.S_MAKER_R2 + i]) for i, p in enumerate(POSITIONS)},
        "order_up_by_upcard_rank": {r: rate(t[ck.S_UP_MADE + i], t[ck.S_UP_ACCEPT + i]) for i, r in enumerate(UP_RANKS)},
        "maker_alone": {**rate(t[ck.S_ALONE_MADE], t[ck.S_ALONE]), "marches": t[ck.S_ALONE_MARCH]},
        "defender_alone": {
            "count": t[ck.S_DEF_ALONE], "euchres": t[ck.S_DEF_ALONE_SET], "all_five": t[ck.S_DEF_ALONE_ALL],
            "euchre_rate": t[ck.S_DEF_ALONE_SET] / t[ck.S_DEF_ALONE] if t[ck.S_DEF_ALONE] else None,
        },
        "makers_by_position": makers,
        "points_per_hand_by_position": {p: t[ck.S_POINTS + i] / n for i, p in enumerate(POSITIONS)},
        "points_per_hand_ci95_by_position": {
            p: list(mean_interval(t[ck.S_POINTS + i], t[ck.S_POINTS_SQ + i], n)[1:]) for i, p in enumerate(POSITIONS)
        },
        "tricks_per_hand_by_position": {p: t[ck.S_TRICKS + i] / n for i, p in enumerate(POSITIONS)},
        "elapsed_s": elapsed,
        "hands_per_second": n / elapsed if elapsed > 0 else None,
    }


def format_summary(s: dict) -> str:
    """The human-readable body of a Cutthroat summary (after the common header)."""
    n, played = s["hands"], s["played"]
    lines = [
        f"hands dealt      {n:>12,}",
        f"thrown in        {s['thrown_in']:>12,}  {pct(s['thrown_in'], n):>8}",
        f"dealer exchanges {s['dealer_exchanges']:>12,}",
        "",
        "maker                 hands   share      made   make rate   (95% interval)",
        rate_line("all", s["made"], played),
    ]
    for p in POSITIONS:
        lines.append(rate_line(f"round 1, pos {p}", s["round_one_by_position"][p], played))
    for p in POSITIONS:
        lines.append(rate_line(f"round 2, pos {p}", s["round_two_by_position"][p], played))
    lines.append(rate_line("alone", s["maker_alone"], played))
    lines += ["", "round one by up-card rank"]
    for r in UP_RANKS:
        lines.append(rate_line(f"up-card {r}", s["order_up_by_upcard_rank"][r], played))
    d = s["defender_alone"]
    lines += [
        "",
        f"marches (all 5) {s['marches']:,}, euchres {s['euchres']:,}; lone makers marched {s['maker_alone']['marches']:,}",
        f"lone defenders {d['count']:,}: euchred the maker {d['euchres']:,}, took all five {d['all_five']:,}",
    ]
    lines += position_lines(s, POSITIONS, "position (1 = dealer's left, 3 = dealer)")
    return "\n".join(lines)


def table_run(hands: int, seed: int = 0, threads: int | None = None, rules: dict | None = None, strategy="default",
              progress=None) -> tuple[dict, "object"]:
    """Play ``hands`` hands and sum the analysis cells batch by batch: (summary, cells frame)."""
    from bower.sim import runner
    from bower.sim.strategy import load_strategy
    from bower.sim.variants.cutthroat.tables import Accumulator

    acc = Accumulator(load_strategy(strategy, "cutthroat")[1])
    summary = runner.rows_run("cutthroat", hands, seed, threads, rules, strategy, acc.add_rows, progress)
    return summary, acc.frame()


def experiment_table(r: dict) -> list[str]:
    """Per-strategy rows of a Cutthroat experiment: calls, make rates, going alone."""
    lines = [
        f"{'strategy':<16} {'games':>9} {'win rate':>9} {'(95% interval)':>19} {'pts/hand':>9} {'maker':>7} "
        f"{'made':>7} {'alone':>7} {'made':>7} {'def.alone':>9} {'euchred':>7}",
    ]
    for s in r["strategies"]:
        lo, hi = s["win_rate_ci95"]
        lines.append(
            f"{s['name'][:16]:<16} {s['games']:>9,} {share(s['win_rate']):>9} {'(' + share(lo) + '-' + share(hi) + ')':>19} "
            f"{s['points_per_hand']:>9.3f} {share(s['maker_rate']):>7} {share(s['make_rate']['rate']):>7} "
            f"{share(s['alone_rate']):>7} {share(s['alone_make_rate']['rate']):>7} {share(s['defend_alone_rate']):>9} "
            f"{share(s['defend_alone_euchre_rate']['rate']):>7}"
        )
    return lines


def strategy_extras(acc: np.ndarray, hands: int) -> dict:
    """A Cutthroat strategy's own rates (``bower.kernels.cutthroat.drivers`` fills the ST_MAKER/ST_MADE cells)."""
    makers, made = maker_cell(acc, 0)
    alone, alone_made = maker_cell(acc, 1)
    lone_def, lone_def_set = maker_cell(acc, 2)
    ordered, ordered_made = maker_cell(acc, 3)
    return {
        "call_rate": int(acc[kg.ST_BIDDER]) / hands if hands else None,
        "maker_rate": makers / hands if hands else None,
        "make_rate": made,
        "round_one_make_rate": ordered_made,
        "alone_rate": alone / hands if hands else None,
        "alone_make_rate": alone_made,
        "defend_alone_rate": lone_def / hands if hands else None,
        "defend_alone_euchre_rate": lone_def_set,
        "exchanges": int(acc[kg.ST_SWAPS]),
    }
