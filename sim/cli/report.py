"""``bower report``: simulate, analyse and write an HTML report with plots."""

from __future__ import annotations

import json
import os

import click

from bower.sim.cli.options import (
    Count,
    rule_option,
    scheduler_option,
    seed_option,
    strategy_option,
    threads_option,
    variant_option,
)
from bower.sim.limits import MAX_GAMES, MAX_HANDS
from bower.sim.text import limit_text

DD_HANDS = 20_000  # hands of the report's run solved double dummy, by default
MAX_SWAP_DEALS = 10**11  # each deal is played two to six times (every swap decision both ways): days of work
SWAP_VARIANTS = ("ghost",)  # the variants with a ghost hand, whose report has the paired swap analysis


@click.command()
@variant_option
@click.option("--hands", default=1_000_000, show_default=True, type=Count(high=MAX_HANDS),
              help=f"Hands for the bid, moon and position tables (at most {limit_text(MAX_HANDS)}).")
@click.option("--swap-deals", default=None, type=Count(high=MAX_SWAP_DEALS),
              help="Deals for the paired swap analysis (default: --hands; Ghost Hand only, at most "
                   f"{limit_text(MAX_SWAP_DEALS)}).")
@click.option("--games", default=None, type=Count(high=MAX_GAMES),
              help=f"Whole games for win shares by position (default: --hands / 20; at most {limit_text(MAX_GAMES)}).")
@seed_option
@threads_option
@scheduler_option
@rule_option
@strategy_option
@click.option("--out", "out_dir", required=True, metavar="DIR",
              help="Folder for report.html and its plots: a new or empty one (see --force).")
@click.option("--force", is_flag=True,
              help="Replace DIR when it holds an earlier report (report.html, PNGs, CSV or Parquet files, nothing "
                   "else): the new report takes its place and nothing of the old one is kept.")
@click.option("--csv", "with_csv", is_flag=True, help="Also write every table as DIR/NAME.csv.")
@click.option("--single-file", is_flag=True,
              help="Put the plots inside report.html (as data: URIs), so the one file can be shared.")
@click.option("--open", "open_page", is_flag=True, help="Open the report in the web browser when written.")
@click.option("--dd-hands", default=DD_HANDS, show_default=True, type=Count(low=0, high=MAX_HANDS),
              help="Solve the run's first N hands double dummy for the dd tables and plot (at most --hands; "
                   "0: leave them out).")
@click.option("--json", "as_json", is_flag=True,
              help="Print what was written as one JSON object: the page's path, its files, sections and tables.")
def report(variant, hands, swap_deals, games, seed, threads, scheduler, rules, strategy, out_dir, force, with_csv, single_file,
           open_page, dd_hands, as_json):
    """Run the simulation and write DIR/report.html with tables and plots.

    The page has a contents list, the run's notes, the plots, every table
    (counts with separators, rates as percentages with their 95% interval)
    and how it was made (rules, strategy parameters, the command that
    reproduces it). The folder is written whole or not at all; one that
    already holds files is refused unless --force.

    The double-dummy tables (dd_*) and the plot of played against
    double-dummy make rate by hand strength come from the run's first
    --dd-hands hands, each played hand solved for the four trumps.
    """
    from bower.analysis.report import build_report, check_report_dir
    from bower.sim import runner
    from bower.sim.rules import get_variant, parse_rule_args

    v = get_variant(variant)
    rules_d = parse_rule_args(v, rules)
    if swap_deals is not None and v.name not in SWAP_VARIANTS:
        raise runner.RunError(f"--swap-deals is the Ghost Hand report's swap analysis; --variant {v.name} has no "
                              "ghost hand (leave --swap-deals out)")
    check_report_dir(out_dir, force)
    tables, meta, notes, plots, draw = run_report(v, hands, swap_deals, games, seed, threads, rules_d, rules, strategy,
                                                  out_dir, dd_hands, as_json, scheduler)
    if dd_hands != DD_HANDS:
        meta["reproduce with"] += f" --dd-hands {dd_hands}"
    for flag, on in (("--csv", with_csv), ("--single-file", single_file)):
        if on:
            meta["reproduce with"] += f" {flag}"
    summary = build_report(out_dir, tables, meta, notes, plots, draw, single_file=single_file, csv=with_csv,
                           force=force)
    path = summary["path"]
    opened = _open(path) if open_page else None
    if as_json:
        summary["opened"] = opened
        click.echo(json.dumps(summary))
    else:
        click.echo(f"wrote {path} ({len(tables)} tables, {len(plots)} plots)")


def run_report(v, hands, swap_deals, games, seed, threads, rules_d, rules, strategy, out_dir, dd_hands, as_json,
               scheduler=None):
    """The report's runs, on this machine or as Dask tasks (``scheduler``): (tables, meta, notes, plots, draw)."""
    from bower.analysis.report import add_dd_section
    from bower.analysis.report_plots import drawer
    from bower.sim import distributed as dist

    with dist.session(scheduler):
        tables, meta, notes = v.report(hands=hands, games=games, swap_deals=swap_deals, seed=seed, threads=threads,
                                       rules_d=rules_d, rules=rules, strategy=strategy, out_dir=out_dir)
        plots, draw = drawer(v)
        n_dd = min(hands, dd_hands)
        if n_dd:
            from bower.sim.progress import Progress

            bar = Progress("double dummy", enabled=False if as_json else None)
            try:
                plots, draw = add_dd_section(v, tables, meta, notes, n_dd, seed, rules_d, strategy, progress=bar)
            finally:
                bar.close()
    return tables, meta, notes, plots, draw


def _open(path: str) -> bool:
    """Open ``path`` in the web browser; False (with a note on stderr) when there is none."""
    import webbrowser

    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        browser = None
    if browser is None or not browser.open("file://" + os.path.abspath(path)):
        click.echo(f"bower: no web browser to open the report; open {path} yourself", err=True)
        return False
    return True
