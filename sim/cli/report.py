"""``bower report``: simulate, analyse and write an HTML report with plots."""

from __future__ import annotations

import click

from sim.cli.options import rule_option, seed_option, strategy_option, threads_option, variant_option

DD_HANDS = 20_000  # hands of the report's run solved double dummy, by default


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
@click.option("--dd-hands", default=DD_HANDS, show_default=True, type=click.IntRange(min=0),
              help="Solve the run's first N hands double dummy for the dd tables and plot (at most --hands; "
                   "0: leave them out).")
def report(variant, hands, swap_deals, games, seed, threads, rules, strategy, out_dir, with_csv, dd_hands):
    """Run the simulation and write DIR/report.html with tables and plots.

    The double-dummy tables (dd_*) and the plot of played against
    double-dummy make rate by hand strength come from the run's first
    --dd-hands hands, each played hand solved for the four trumps.
    """
    from analysis.report import add_dd_section, write_report, write_tables
    from sim import runner
    from sim.rules import get_variant, parse_rule_args

    v = get_variant(variant)
    rules_d = parse_rule_args(v, rules)
    if hands <= 0:
        raise runner.RunError(f"--hands must be a positive integer, got {hands}")
    tables, meta, notes = v.report(hands=hands, games=games, swap_deals=swap_deals, seed=seed, threads=threads,
                                   rules_d=rules_d, rules=rules, strategy=strategy, out_dir=out_dir)
    plots, draw = v.plots, v.draw_plots
    n_dd = min(hands, dd_hands)
    if n_dd:
        from sim.progress import Progress

        bar = Progress("double dummy")
        try:
            plots, draw = add_dd_section(v, tables, meta, notes, n_dd, seed, rules_d, strategy, progress=bar)
        finally:
            bar.close()
    if dd_hands != DD_HANDS:
        meta["reproduce with"] += f" --dd-hands {dd_hands}"
    path = write_report(out_dir, tables, meta, notes, plots, draw)
    if with_csv:
        write_tables(tables, out_dir, "csv")
    click.echo(f"wrote {path} ({len(tables)} tables, {len(plots)} plots)")
