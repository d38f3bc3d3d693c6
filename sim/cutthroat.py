"""Cutthroat in Python: the run summary, one hand from a given deal order, and the maker's keep-set.

The runner (``sim.runner``) plays Cutthroat hands and games with
``variant="cutthroat"``; this module turns its counters into the summary
dict, formats it for the terminal, and exposes the kernels' single-hand
paths that the tests compare with the reference engine.
"""

from __future__ import annotations

import numpy as np

from analysis.intervals import mean_interval
from kernels.cutthroat import hand as ck
from kernels.cutthroat import drivers as cs
from sim import records as rec_mod
from sim.cards import CardError, parse_card
from sim.rules import RULES_VERSION
from sim.text import pct, rate, rate_line

POSITIONS = ("1", "2", "3")
UP_RANKS = ("9", "T", "J", "Q", "K", "A")


def summarize(total: np.ndarray, variant: str, rules: dict, strategy: str, seed: int, threads: int,
              elapsed: float) -> dict:
    """The summary dict of a Cutthroat run from its merged counters (``kernels.cutthroat.S_*``)."""
    t = [int(x) for x in total]
    n = t[ck.S_HANDS]
    played = n - t[ck.S_THROWN]
    makers = {p: t[ck.S_MAKER_R1 + i] + t[ck.S_MAKER_R2 + i] for i, p in enumerate(POSITIONS)}
    made = sum(t[ck.S_MADE_R1 + i] + t[ck.S_MADE_R2 + i] for i in range(3))
    return {
        "variant": variant,
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
    return "\n".join(lines)


def _order(order) -> np.ndarray:
    cards = []
    for x in order:
        cards.append(parse_card(x) if isinstance(x, str) else int(x))
    if len(cards) != 24 or sorted(cards) != list(range(24)):
        raise CardError("a Cutthroat deal order holds each of the 24 cards once")
    return np.array(cards, np.int64)


def play_order(order, dealer: int, rules: dict | None = None, strategy="default", seed: int = 0,
               force: tuple[int, int, int, int] | None = None) -> dict:
    """The record of one hand dealt from a 24-card ``order`` (top first; card strings or indices).

    Cards 0..19 go one at a time to positions 1, 2, 3 (dealer) and the
    dummy; 20..23 are the kitty, the first turned up. ``strategy``: one for
    every seat or a list of three. Random seats draw from the decision
    stream of hand chunk 0 of ``seed``. ``force`` = (seat, at, call, alone)
    as ``kernels.cutthroat.F_*`` makes one decision (the should-bid path).
    """
    from sim.runner import decision_states, resolve_run, seat_params

    v, rules_d, rules_vec = resolve_run("cutthroat", seed, rules)
    _, params = seat_params(strategy, "cutthroat")
    rec = np.zeros(ck.R_WIDTH, np.int64)
    f = ck.NO_FORCE.copy() if force is None else np.array(force, np.int64)
    cs.play_order(_order(order), np.int64(dealer), rules_vec, params, f, decision_states(seed, 0, 1)[0], rec)
    return rec_mod.row_to_dict(rec, 0, v, rules_d)


def best_keep(cards10, trump: int, strategy="default") -> list[int]:
    """The 5 card indices the strategy keeps of the maker's 10 cards (hand and dummy) with ``trump``."""
    from sim.strategy import load_strategy, to_vector

    mask = 0
    for x in cards10:
        mask |= 1 << (parse_card(x) if isinstance(x, str) else int(x))
    params = to_vector(load_strategy(strategy, "cutthroat")[1], "cutthroat")
    keep = int(cs.keep_of(np.int64(mask), np.int64(trump), params))
    return [c for c in range(24) if (keep >> c) & 1]



def table_run(hands: int, seed: int = 0, threads: int | None = None, rules: dict | None = None, strategy="default",
              progress=None) -> tuple[dict, "object"]:
    """Play ``hands`` hands and sum the analysis cells batch by batch: (summary, cells frame)."""
    from analysis.cutthroat_tables import Accumulator
    from sim import runner
    from sim.strategy import load_strategy

    acc = Accumulator(load_strategy(strategy, "cutthroat")[1])
    summary = runner.rows_run("cutthroat", hands, seed, threads, rules, strategy, acc.add_rows, progress)
    return summary, acc.frame()
