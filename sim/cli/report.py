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
    from analysis.report import write_report, write_tables
    from sim import runner
    from sim.rules import get_variant, parse_rule_args

    v = get_variant(variant)
    rules_d = parse_rule_args(v, rules)
    if hands <= 0:
        raise runner.RunError(f"--hands must be a positive integer, got {hands}")
    tables, meta, notes = v.report(hands=hands, games=games, swap_deals=swap_deals, seed=seed, threads=threads,
                                   rules_d=rules_d, rules=rules, strategy=strategy, out_dir=out_dir)
    path = write_report(out_dir, tables, meta, notes, v.plots, v.draw_plots)
    if with_csv:
        write_tables(tables, out_dir, "csv")
    click.echo(f"wrote {path} ({len(tables)} tables, {len(v.plots)} plots)")
