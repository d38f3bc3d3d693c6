"""Standard Euchre in Python: the run summary and its text, the experiment columns, the report's table run.

The runner plays Euchre hands and games with ``variant="euchre"``; this
module turns the kernels' counters (``bower.kernels.euchre.hand.S_*``, and the
per-strategy ``bower.kernels.games.ST_*`` that ``bower.kernels.euchre.drivers`` fills)
into the summary dict, formats it for the terminal, and gives the
per-strategy rows of an experiment (each strategy a partnership).
"""

from __future__ import annotations

import numpy as np

from bower.analysis.intervals import mean_interval, wilson
from bower.kernels import games as kg
from bower.kernels.euchre import hand as ek
from bower.sim.rules import RULES_VERSION
from bower.sim.text import pct, rate, rate_line, share
from bower.sim.variants.common import maker_cell

POSITIONS = ("1", "2", "3", "4")
UP_RANKS = ("9", "T", "J", "Q", "K", "A")
SIDES = ("0", "1")  # seats 0 & 2, seats 1 & 3
DEAL_SIDES = ("dealer_side", "other_side")
ROLES = ("makers", "defenders")


def _means(t: list, at: int, at_sq: int, keys: tuple, n: int) -> tuple[dict, dict]:
    """Means per hand (over ``n``) of the pairs of counters at ``at`` and their squares at ``at_sq``, with 95% intervals."""
    if not n:
        return {k: None for k in keys}, {k: [None, None] for k in keys}
    means, cis = {}, {}
    for i, k in enumerate(keys):
        m, lo, hi = mean_interval(t[at + i], t[at_sq + i], n)
        means[k], cis[k] = m, [lo, hi]
    return means, cis


def summarize(total: np.ndarray, rules: dict, strategy: str, seed: int, threads: int,
              elapsed: float) -> dict:
    """The summary dict of a Standard Euchre run from its merged counters (``bower.kernels.euchre.hand.S_*``).

    Points are by side: ``points_per_hand_by_side`` ("0": seats 0 & 2, "1":
    seats 1 & 3) and ``points_per_hand_by_deal`` (the dealer's side, the
    other side: the value of dealing) over every hand dealt, thrown-in ones
    included; ``points_per_hand_by_role`` (makers, defenders) over the hands
    played. Makers are counted by position (1 = dealer's left, 4 = dealer).
    """
    t = [int(x) for x in total]
    n = t[ek.S_HANDS]
    played = n - t[ek.S_THROWN]
    made = sum(t[ek.S_MADE_R1 + i] + t[ek.S_MADE_R2 + i] for i in range(4))
    makers = {p: t[ek.S_MAKER_R1 + i] + t[ek.S_MAKER_R2 + i] for i, p in enumerate(POSITIONS)}
    by_side, by_side_ci = _means(t, ek.S_POINTS, ek.S_POINTS_SQ, SIDES, n)
    by_deal, by_deal_ci = _means(t, ek.S_POINTS_DEALER, ek.S_POINTS_DEALER_SQ, DEAL_SIDES, n)
    by_role, by_role_ci = _means(t, ek.S_POINTS_MAKER, ek.S_POINTS_MAKER_SQ, ROLES, played)
    # only one side scores on a hand, so (dealer - other)^2 = dealer^2 + other^2
    if n:
        d, lo, hi = mean_interval(t[ek.S_POINTS_DEALER] - t[ek.S_POINTS_DEALER + 1],
                                  t[ek.S_POINTS_DEALER_SQ] + t[ek.S_POINTS_DEALER_SQ + 1], n)
        dealer_edge = {"points": d, "ci95": [lo, hi]}
    else:
        dealer_edge = {"points": None, "ci95": [None, None]}
    n_def = t[ek.S_DEF_ALONE]
    return {
        "variant": "euchre",
        "rules_version": RULES_VERSION,
        "rules": rules,
        "strategy": strategy,
        "seed": seed,
        "threads": threads,
        "hands": n,
        "thrown_in": t[ek.S_THROWN],
        "played": played,
        "made": rate(made, played),
        "marches": t[ek.S_MARCH],
        "euchres": t[ek.S_EUCHRE],
        "round_one_by_position": {p: rate(t[ek.S_MADE_R1 + i], t[ek.S_MAKER_R1 + i]) for i, p in enumerate(POSITIONS)},
        "round_two_by_position": {p: rate(t[ek.S_MADE_R2 + i], t[ek.S_MAKER_R2 + i]) for i, p in enumerate(POSITIONS)},
        "order_up_by_upcard_rank": {r: rate(t[ek.S_UP_MADE + i], t[ek.S_UP_ORDER + i]) for i, r in enumerate(UP_RANKS)},
        "maker_alone": {**rate(t[ek.S_ALONE_MADE], t[ek.S_ALONE]), "marches": t[ek.S_ALONE_MARCH]},
        "defender_alone": {
            "count": n_def, "euchres": t[ek.S_DEF_ALONE_SET], "all_five": t[ek.S_DEF_ALONE_ALL],
            "euchre_rate": t[ek.S_DEF_ALONE_SET] / n_def if n_def else None,
            "euchre_rate_ci95": list(wilson(t[ek.S_DEF_ALONE_SET], n_def)) if n_def else [None, None],
        },
        "makers_by_position": makers,
        "points_per_hand_by_side": by_side,
        "points_per_hand_ci95_by_side": by_side_ci,
        "points_per_hand_by_deal": by_deal,
        "points_per_hand_ci95_by_deal": by_deal_ci,
        "dealer_edge": dealer_edge,
        "points_per_hand_by_role": by_role,
        "points_per_hand_ci95_by_role": by_role_ci,
        "tricks_per_hand_by_position": {p: t[ek.S_TRICKS + i] / n if n else None for i, p in enumerate(POSITIONS)},
        "elapsed_s": elapsed,
        "hands_per_second": n / elapsed if elapsed > 0 else None,
    }


def _pm(ci) -> str:
    return "-" if ci[0] is None else f"±{(ci[1] - ci[0]) / 2:.4f}"


def format_summary(s: dict) -> str:
    """The human-readable body of a Standard Euchre summary (after the common header)."""
    n, played = s["hands"], s["played"]
    lines = [
        f"hands dealt      {n:>12,}",
        f"thrown in        {s['thrown_in']:>12,}  {pct(s['thrown_in'], n):>8}",
        "",
        "makers                hands   share      made   make rate   (95% interval)",
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
        f"marches (all 5) {s['marches']:,}, euchres {s['euchres']:,} ({pct(s['euchres'], played)} of hands played); "
        f"lone makers marched {s['maker_alone']['marches']:,}",
        f"lone defenders {d['count']:,}: euchred the makers {d['euchres']:,} ({share(d['euchre_rate'])}), "
        f"held them to no trick {d['all_five']:,}",
    ]
    pp, ci = s["points_per_hand_by_side"], s["points_per_hand_ci95_by_side"]
    dd, dci = s["points_per_hand_by_deal"], s["points_per_hand_ci95_by_deal"]
    rr, rci = s["points_per_hand_by_role"], s["points_per_hand_ci95_by_role"]
    edge = s["dealer_edge"]

    def num(x):
        return "-" if x is None else f"{x:.4f}"

    lines += [
        "",
        "mean points per hand: seats 0 & 2 " f"{num(pp['0'])} ({_pm(ci['0'])}), seats 1 & 3 {num(pp['1'])} ({_pm(ci['1'])})",
        f"dealer's side {num(dd['dealer_side'])} ({_pm(dci['dealer_side'])}), other side {num(dd['other_side'])} "
        f"({_pm(dci['other_side'])}): the deal is worth "
        + ("-" if edge["points"] is None else f"{edge['points']:+.4f} ({edge['ci95'][0]:+.4f} to {edge['ci95'][1]:+.4f})")
        + " points a hand",
        f"per hand played: makers {num(rr['makers'])} ({_pm(rci['makers'])}), defenders {num(rr['defenders'])} "
        f"({_pm(rci['defenders'])})",
        "",
        "position (1 = dealer's left, 4 = dealer)        " + "        ".join(POSITIONS),
        "  mean tricks per hand              " + " ".join(
            f"{'-' if s['tricks_per_hand_by_position'][p] is None else format(s['tricks_per_hand_by_position'][p], '.4f'):>8}"
            for p in POSITIONS),
        "  auctions won (became maker)       " + " ".join(f"{s['makers_by_position'][p]:>8,}" for p in POSITIONS),
    ]
    return "\n".join(lines)


def table_run(hands: int, seed: int = 0, threads: int | None = None, rules: dict | None = None, strategy="default",
              progress=None) -> tuple[dict, object]:
    """Play ``hands`` hands and sum the analysis cells batch by batch: (summary, cells frame)."""
    from bower.sim import runner
    from bower.sim.strategy import load_strategy
    from bower.sim.variants.euchre.tables import Accumulator

    acc = Accumulator(load_strategy(strategy, "euchre")[1])
    summary = runner.rows_run("euchre", hands, seed, threads, rules, strategy, acc.add_rows, progress)
    return summary, acc.frame()


def experiment_table(r: dict) -> list[str]:
    """Per-strategy rows of a Euchre experiment (each strategy is a partnership): calls, makes, alone, lone defence."""
    lines = [
        f"{'strategy':<16} {'games':>9} {'win rate':>9} {'(95% interval)':>19} {'pts/hand':>9} "
        f"{'maker':>7} {'made':>7} {'rnd 1':>7} {'made':>7} {'alone':>7} {'made':>7} {'def.alone':>9} {'euchred':>7}",
    ]
    for s in r["strategies"]:
        lo, hi = s["win_rate_ci95"]
        lines.append(
            f"{s['name'][:16]:<16} {s['games'] // 2:>9,} {share(s['win_rate']):>9} "
            f"{'(' + share(lo) + '-' + share(hi) + ')':>19} {s['points_per_hand']:>9.3f} "
            f"{share(s['maker_rate']):>7} {share(s['make_rate']['rate']):>7} {share(s['round_one_rate']):>7} "
            f"{share(s['round_one_make_rate']['rate']):>7} {share(s['alone_rate']):>7} "
            f"{share(s['alone_make_rate']['rate']):>7} {share(s['defend_alone_rate']):>9} "
            f"{share(s['defend_alone_euchre_rate']['rate']):>7}"
        )
    lines += ["(per seat-hand: maker = made trump, also the call rate (the first call but pass ends the auction), "
              "rnd 1 = ordered up,",
              " alone = went alone as maker, def.alone = defended alone; made: the maker's side took 3+ tricks; "
              "euchred: the lone defender's side euchred the makers)"]
    return lines


def strategy_extras(acc: np.ndarray, hands: int) -> dict:
    """A Euchre strategy's own rates from its ``ST_*`` counters (``bower.kernels.euchre.drivers.tally_strategies``).

    ``ST_MAKER + k`` / ``ST_MADE + k``: k = 0 made trump in round one, 1 in
    round two, 2 went alone as maker, 3 defended alone (made: the makers
    were euchred). Rates are per seat-hand (``hands``).
    """
    def per(x):
        return x / hands if hands else None

    r1, r1_made = maker_cell(acc, 0)
    r2, r2_made = maker_cell(acc, 1)
    alone, alone_made = maker_cell(acc, 2)
    lone_def, lone_def_set = maker_cell(acc, 3)
    makers = r1 + r2
    made = r1_made["made"] + r2_made["made"]
    lo, hi = wilson(made, makers) if makers else (None, None)
    return {
        "call_rate": per(int(acc[kg.ST_BIDDER])),
        "maker_rate": per(makers),
        "make_rate": {"count": makers, "made": made, "rate": made / makers if makers else None, "rate_ci95": [lo, hi]},
        "round_one_rate": per(r1),
        "round_one_make_rate": r1_made,
        "round_two_rate": per(r2),
        "round_two_make_rate": r2_made,
        "alone_rate": per(alone),
        "alone_make_rate": alone_made,
        "defend_alone_rate": per(lone_def),
        "defend_alone_euchre_rate": lone_def_set,
        "dealer_pickups": int(acc[kg.ST_SWAPS]),
    }
