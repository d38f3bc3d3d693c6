"""Hasenpfeffer's report: contract, joker, pepper, widow and side tables from streamed records, and games."""

from __future__ import annotations

from bower.sim.variants.common import records_report_meta, records_report_run
from bower.sim.variants.hasenpfeffer import tables as ht
from bower.sim.variants.hasenpfeffer.summary import table_run


def report(hands: int, games: int | None, swap_deals, seed: int, threads, rules_d: dict, rules: tuple, strategy,
           out_dir: str) -> tuple[dict, dict, list]:
    """Run what the report needs and return (tables, meta, notes)."""
    from bower.sim.variants import get_variant

    v = get_variant("hasenpfeffer")
    s, cells, g, name, params, games = records_report_run(v, table_run, hands, games, swap_deals, seed, threads,
                                                          rules_d, strategy, out_dir)
    tables = ht.table_set(cells, rules_d["bidding"] == "pepper")
    tables["sides"] = _sides_table(s, g)
    notes = [
        f"Hands thrown in: {s['thrown_in']:,} of {s['hands']:,}; contracts made {s['made']['made']:,} of "
        f"{s['made']['count']:,}; forced threes {s['forced_threes']['count']:,}.",
        "Widow value: by the kind of card the widow was (for the trump the bidder named), how much taking it "
        "raised the strategy's estimate of the bidder's hand, and the make rate.",
        "All intervals are 95%: Wilson for rates, normal for means.",
    ]
    meta = records_report_meta(v, name, params, rules_d, seed, hands, games,
                               "contract, joker, pepper, widow and side tables", rules, strategy, out_dir)
    return tables, meta, notes


def _sides_table(s: dict, g: dict):
    """Points per hand and game win shares of the two sides (position 1's side first, then the dealer's)."""
    import pandas as pd

    keys = ("position_1_side", "dealer_side")
    return pd.DataFrame({
        "side": ["position 1's side (first hand)", "dealer's side (first hand)"],
        "points_per_hand": [s["points_per_hand_by_side"][k] for k in keys],
        "points_low": [s["points_per_hand_ci95_by_side"][k][0] for k in keys],
        "points_high": [s["points_per_hand_ci95_by_side"][k][1] for k in keys],
        "win_share": [g["win_share_by_start"][p] for p in ("1", "2")],
        "win_low": [g["win_share_ci95_by_start"][p][0] for p in ("1", "2")],
        "win_high": [g["win_share_ci95_by_start"][p][1] for p in ("1", "2")],
    })
