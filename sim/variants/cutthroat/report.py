"""Cutthroat's report: maker, order-up, dummy, lone-hand and position tables from streamed records, and games."""

from __future__ import annotations

from bower.sim.variants.common import records_report_meta, records_report_run
from bower.sim.variants.cutthroat import tables as ct
from bower.sim.variants.cutthroat.summary import table_run
from bower.sim.variants.ghost import tables as gt


def report(hands: int, games: int | None, swap_deals, seed: int, threads, rules_d: dict, rules: tuple, strategy,
           out_dir: str) -> tuple[dict, dict, list]:
    """Run what the report needs and return (tables, meta, notes)."""
    from bower.sim.variants import get_variant

    v = get_variant("cutthroat")
    s, cells, g, name, params, games = records_report_run(v, table_run, hands, games, swap_deals, seed, threads,
                                                          rules_d, strategy, out_dir)
    tables = ct.table_set(cells, gt.position_from_summary(s, g))
    notes = [
        f"Hands thrown in: {s['thrown_in']:,} of {s['hands']:,}; makers made {s['made']['made']:,} of "
        f"{s['made']['count']:,}; marches {s['marches']:,}; lone makers {s['maker_alone']['count']:,}, "
        f"lone defenders {s['defender_alone']['count']:,}.",
        "Dummy value: makers are grouped by the strategy's trick estimate of their own five cards (after any "
        "exchange); 'mean gain' is how much the merge with the dummy raised that estimate, and the make rates "
        "compare makers who took the dummy with lone makers of the same strength.",
        "All intervals are 95%: Wilson for rates, normal for means.",
    ]
    meta = records_report_meta(v, name, params, rules_d, seed, hands, games,
                               "maker, order-up, dummy, lone-hand and position tables", rules, strategy, out_dir)
    return tables, meta, notes
