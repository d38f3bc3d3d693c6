"""``bower analyze RECORDS``: the analysis tables of a saved records file."""

from __future__ import annotations

import click


@click.command()
@click.argument("records", metavar="RECORDS")
@click.option("--strategy", default="default", show_default=True,
              help="Strategy whose trick estimate buckets the hands (preset or .toml of the records' variant).")
@click.option("--csv", "csv_dir", default=None, metavar="DIR", help="Write every table as DIR/NAME.csv.")
@click.option("--parquet", "parquet_dir", default=None, metavar="DIR", help="Write every table as DIR/NAME.parquet.")
def analyze(records, strategy, csv_dir, parquet_dir):
    """Print the analysis tables of a .jsonl or .parquet records file (any variant)."""
    import pandas as pd

    from analysis.report import check_out_dir, write_tables
    from sim.records import RecordsError, read_records_checked
    from sim.rules import get_variant
    from sim.strategy import load_strategy

    if csv_dir and parquet_dir:
        raise RecordsError("give --csv or --parquet, not both")
    for d in (csv_dir, parquet_dir):
        if d:
            check_out_dir(d)
    recs = read_records_checked(records)
    v = get_variant(recs[0]["variant"])
    _, params = load_strategy(strategy, v)
    tables, shown = v.analysis_tables(recs, params)
    with pd.option_context("display.width", 160, "display.max_columns", 30, "display.max_rows", 200,
                           "display.float_format", "{:.4f}".format):
        played = sum(r.get("maker", r.get("bidder")) is not None for r in recs)
        click.echo(f"{records}: {len(recs):,} {v.name} hands, {played:,} played (rules {recs[0]['rules_version']})\n")
        for name in shown:
            click.echo(f"== {name.replace('_', ' ')} ==")
            click.echo(tables[name].to_string(index=False))
            click.echo("")
    for d, fmt in ((csv_dir, "csv"), (parquet_dir, "parquet")):
        if d:
            paths = write_tables(tables, d, fmt)
            click.echo(f"wrote {len(paths)} tables to {d}/ ({fmt})")
