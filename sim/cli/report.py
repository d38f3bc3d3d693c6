"""``bower report``: simulate, analyse and write an HTML report with plots."""

from __future__ import annotations

import click

from sim.cli.options import rule_option, seed_option, strategy_option, threads_option, variant_option


@click.command()
@variant_option
@click.option("--hands", default=1_000_000, show_default=True, type=int, help="Hands for the bid, moon and position tables.")
@click.option("--swap-deals", default=None, type=int, help="Deals for the paired swap analysis (default: --hands).")
@click.option("--games", default=None, type=int, help="Whole games for win shares by position (default: --hands / 20).")
@seed_option
@threads_option
@rule_option
@strategy_option
@click.option("--out", "out_dir", required=True, metavar="DIR", help="Directory for report.html and its plots.")
@click.option("--csv", "with_csv", is_flag=True, help="Also write every table as DIR/NAME.csv.")
def report(variant, hands, swap_deals, games, seed, threads, rules, strategy, out_dir, with_csv):
    """Run the simulation and write DIR/report.html with tables and plots."""
    from analysis import ghost_tables as gt
    from analysis.report import table_set, write_report, write_tables
    from sim import __version__, runner, stats
    from sim.progress import Progress
    from sim.rules import RULES_VERSION, get_variant, parse_rule_args
    from sim.strategy import load_strategy

    v = get_variant(variant)
    rules_d = parse_rule_args(v, rules)
    if hands <= 0:
        raise runner.RunError(f"--hands must be a positive integer, got {hands}")
    if v.name in ("cutthroat", "hasenpfeffer"):
        _variant_report(v, rules_d, rules, hands, games, seed, threads, strategy, out_dir, with_csv)
        return
    swap_deals = hands if swap_deals is None else swap_deals
    games = max(hands // 20, 64) if games is None else games
    for name, n in (("--swap-deals", swap_deals), ("--games", games)):
        if n <= 0:
            raise runner.RunError(f"{name} must be a positive integer, got {n}")
    if rules_d["swap"] == "none":
        raise runner.RunError("the report's swap analysis needs the rule swap=at_turn")
    name, params = load_strategy(strategy)
    from analysis.report import check_out_dir

    check_out_dir(out_dir)

    bar = Progress("hands")
    try:
        b = stats.bid_stats(hands, seed=seed, threads=threads, rules=rules_d, strategy=strategy, progress=bar)
    finally:
        bar.close()
    bar = Progress("swap deals")
    try:
        sw = stats.swap_values(swap_deals, seed=seed, threads=threads, rules=rules_d, strategy=strategy, progress=bar)
    finally:
        bar.close()
    bar = Progress("games")
    try:
        g = runner.simulate_games(games=games, seed=seed, threads=threads, rules=rules_d, strategy=strategy, progress=bar)
    finally:
        bar.close()
    s = b["summary"]
    tables = table_set(b["bids"], b["estimates"], gt.position_from_summary(s, g), sw["acc"], sw["mirror"])
    be = gt.break_even(tables["swap_value"])
    meta = {
        "variant": v.title,
        "rules": ", ".join(f"{k}={str(x).lower() if isinstance(x, bool) else x}" for k, x in rules_d.items()),
        "rules version": RULES_VERSION,
        "strategy": name,
        "strategy parameters": ", ".join(f"{k}={x:g}" for k, x in params.items()),
        "seed": seed,
        "hands": f"{hands:,} (bid, moon and position tables)",
        "swap deals": f"{swap_deals:,} (paired: each decision point played with the swap taken and refused)",
        "games": f"{games:,} whole games to {v.target} (win shares)",
        "bower version": __version__,
        "reproduce with": f"bower report --hands {hands} --swap-deals {swap_deals} --games {games} --seed {seed} "
        f"--strategy {strategy} " + " ".join(f"--rule {r}" for r in rules) + f" --out {out_dir}",
    }
    notes = [
        f"Hands thrown in: {s['thrown_in']:,} of {s['hands']:,}; ghost swaps {s['swaps']:,}; "
        f"moons called {s['moons_called']:,}, made {s['moons_made']:,}.",
        "Swap value: points the player gains by swapping rather than keeping, on the same deal with everyone "
        "else playing the strategy; 'margin' is the gain in points over the mean of the two opponents. "
        + (f"Swapping gains points below a hand strength of about {be:.2f}." if be is not None else ""),
        "All intervals are 95%: Wilson for rates, normal for means.",
    ]
    path = write_report(out_dir, tables, meta, notes)
    if with_csv:
        write_tables(tables, out_dir, "csv")
    click.echo(f"wrote {path} ({len(tables)} tables, 4 plots)")


def _variant_report(v, rules_d, rules, hands, games, seed, threads, strategy, out_dir, with_csv):
    """The Cutthroat or Hasenpfeffer report: the variant's own tables from streamed records, and whole games."""
    from analysis.report import check_out_dir, write_report, write_tables
    from sim import __version__, runner
    from sim.progress import Progress
    from sim.rules import RULES_VERSION
    from sim.strategy import load_strategy

    games = max(hands // 20, 64) if games is None else games
    if games <= 0:
        raise runner.RunError(f"--games must be a positive integer, got {games}")
    name, params = load_strategy(strategy, v.name)
    check_out_dir(out_dir)
    if v.name == "cutthroat":
        from sim.cutthroat import table_run
    else:
        from sim.hasenpfeffer import table_run
    bar = Progress("hands")
    try:
        s, cells = table_run(hands, seed=seed, threads=threads, rules=rules_d, strategy=strategy, progress=bar)
    finally:
        bar.close()
    bar = Progress("games")
    try:
        g = runner.simulate_games(variant=v.name, games=games, seed=seed, threads=threads, rules=rules_d,
                                  strategy=strategy, progress=bar)
    finally:
        bar.close()
    if v.name == "cutthroat":
        from analysis import cutthroat_tables as ct
        from analysis import ghost_tables as gt

        tables = ct.table_set(cells, gt.position_from_summary(s, g))
        what = "maker, order-up, dummy, lone-hand and position tables"
        notes = [
            f"Hands thrown in: {s['thrown_in']:,} of {s['hands']:,}; makers made {s['made']['made']:,} of "
            f"{s['made']['count']:,}; marches {s['marches']:,}; lone makers {s['maker_alone']['count']:,}, "
            f"lone defenders {s['defender_alone']['count']:,}.",
            "Dummy value: makers are grouped by the strategy's trick estimate of their own five cards (after any "
            "exchange); 'mean gain' is how much the merge with the dummy raised that estimate, and the make rates "
            "compare makers who took the dummy with lone makers of the same strength.",
        ]
    else:
        from analysis import hasenpfeffer_tables as ht

        tables = ht.table_set(cells, rules_d["bidding"] == "pepper")
        tables["sides"] = _sides_table(s, g)
        what = "contract, joker, pepper, widow and side tables"
        notes = [
            f"Hands thrown in: {s['thrown_in']:,} of {s['hands']:,}; contracts made {s['made']['made']:,} of "
            f"{s['made']['count']:,}; forced threes {s['forced_threes']['count']:,}.",
            "Widow value: by the kind of card the widow was (for the trump the bidder named), how much taking it "
            "raised the strategy's estimate of the bidder's hand, and the make rate.",
        ]
    notes.append("All intervals are 95%: Wilson for rates, normal for means.")
    meta = {
        "variant": v.title,
        "rules": ", ".join(f"{k}={str(x).lower() if isinstance(x, bool) else x}" for k, x in rules_d.items()),
        "rules version": RULES_VERSION,
        "strategy": name,
        "strategy parameters": ", ".join(f"{k}={x:g}" for k, x in params.items()),
        "seed": seed,
        "hands": f"{hands:,} ({what})",
        "games": f"{games:,} whole games to {v.target} (win shares)",
        "bower version": __version__,
        "reproduce with": f"bower report --variant {v.name} --hands {hands} --games {games} --seed {seed} "
        f"--strategy {strategy} " + " ".join(f"--rule {r}" for r in rules) + f" --out {out_dir}",
    }
    path = write_report(out_dir, tables, meta, notes, variant=v.name)
    if with_csv:
        write_tables(tables, out_dir, "csv")
    click.echo(f"wrote {path} ({len(tables)} tables, 3 plots)")


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
