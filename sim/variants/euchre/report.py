"""Standard Euchre's report: maker, order-up, trumps, trump-kind, lone-hand, dealer's-side and position tables, and games."""

from __future__ import annotations

from bower.sim.variants.common import records_report_meta, records_report_run
from bower.sim.variants.euchre import tables as et
from bower.sim.variants.euchre.summary import table_run


def report(hands: int, games: int | None, swap_deals, seed: int, threads, rules_d: dict, rules: tuple, strategy,
           out_dir: str) -> tuple[dict, dict, list]:
    """Run what the report needs and return (tables, meta, notes)."""
    from bower.sim.variants import get_variant

    v = get_variant("euchre")
    s, cells, g, name, params, games = records_report_run(v, table_run, hands, games, swap_deals, seed, threads,
                                                          rules_d, strategy, out_dir)
    tables = et.table_set(cells, g)
    edge = s["dealer_edge"]
    notes = [
        f"Hands thrown in: {s['thrown_in']:,} of {s['hands']:,}; makers made {s['made']['made']:,} of "
        f"{s['made']['count']:,}, were euchred {s['euchres']:,} times and marched {s['marches']:,}; lone makers "
        f"{s['maker_alone']['count']:,}, lone defenders {s['defender_alone']['count']:,}.",
        f"The deal is worth {edge['points']:+.4f} points a hand to the dealer's side "
        f"(95% interval {edge['ci95'][0]:+.4f} to {edge['ci95'][1]:+.4f}), over every hand dealt.",
        "Trumps held are those of the maker's five dealt cards, before the dealer's exchange, bowers counted as "
        "trump. Net points are the makers' side's points less the defenders'. Lone hands are grouped by the "
        "strategy's trick estimate of the lone player's hand (after any exchange).",
        "All intervals are 95%: Wilson for rates, normal for means.",
    ]
    meta = records_report_meta(v, name, params, rules_d, seed, hands, games,
                               "maker, order-up, trumps, lone-hand, dealer's-side and position tables", rules, strategy,
                               out_dir)
    return tables, meta, notes
