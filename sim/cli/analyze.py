"""``bower analyze RECORDS``: the analysis tables of a saved records file, and its double-dummy tables."""

from __future__ import annotations

import json

import click

from sim.cli.options import StrategySpec, json_option, threads_option


def _rows(df) -> list[dict]:
    """A table as JSON rows: numbers as numbers, NaN as null, categories as their labels."""
    return json.loads(df.to_json(orient="records", double_precision=15))


@click.command()
@click.argument("records", metavar="RECORDS", type=click.Path(dir_okay=False))
@click.option("--strategy", default="default", show_default=True, type=StrategySpec(),
              help="Strategy whose trick estimate buckets the hands (preset or .toml of the records' variant).")
@click.option("--csv", "csv_dir", default=None, metavar="DIR", help="Write every table as DIR/NAME.csv.")
@click.option("--parquet", "parquet_dir", default=None, metavar="DIR", help="Write every table as DIR/NAME.parquet.")
@click.option("--dd", "solve_dd", is_flag=True,
              help="Solve the played hands that carry no 'dd' object double dummy now (as bower solve --records), "
                   "for the double-dummy tables.")
@threads_option
@json_option
def analyze(records, strategy, csv_dir, parquet_dir, solve_dd, threads, as_json):
    """Print the analysis tables of a .jsonl or .parquet records file (any variant).

    When the records carry double-dummy results ('dd', from bower solve
    --records IN --out OUT, or --dd here) the double-dummy tables follow:
    played against dd tricks and par make rates by contract, by hand
    features and by trumps held, and the trump choice.
    """
    import pandas as pd

    from analysis import dd
    from analysis.report import OutputError, check_out_dir, write_tables
    from sim.errors import os_reason
    from sim.records import RecordsError, read_records_checked
    from sim.rules import get_variant
    from sim.strategy import load_strategy

    for flag, d in (("--csv", csv_dir), ("--parquet", parquet_dir)):
        if d is not None and not d.strip():
            raise RecordsError(f"{flag} needs a folder name")
    if csv_dir and parquet_dir:
        raise RecordsError("give --csv or --parquet, not both")
    for d in (csv_dir, parquet_dir):
        if d:
            check_out_dir(d)
    recs = read_records_checked(records)
    v = get_variant(recs[0]["variant"])
    _, params = load_strategy(strategy, v)
    tables, shown = v.analysis_tables(recs, params)
    missing = dd.missing_dd(v, recs)
    solved = 0
    if solve_dd and missing:
        from sim.progress import Progress
        from sim.runner import set_threads

        set_threads(threads)
        bar = Progress("double dummy", enabled=False if as_json else None)
        try:
            solved = dd.attach_dd(v, recs, progress=bar)
        finally:
            bar.close()
        missing = 0
    played = sum(dd.is_played(v, r) for r in recs)
    with_dd = played - missing
    if with_dd:
        tables.update(dd.dd_tables(v, recs))
        shown = [*shown, *dd.TABLES]
    written = []
    for d, fmt in ((csv_dir, "csv"), (parquet_dir, "parquet")):
        if d:
            try:
                paths = write_tables(tables, d, fmt)
            except OSError as e:
                if isinstance(e, OutputError):
                    raise
                raise OutputError(f"cannot write to {d}: {os_reason(e)}") from None
            written.append((d, fmt, paths))
    if as_json:
        click.echo(json.dumps({
            "records": records, "variant": v.name, "rules_version": recs[0]["rules_version"], "hands": len(recs),
            "played": played, "dd": {"with_dd": with_dd, "missing": missing, "solved": solved},
            "tables": {name: _rows(df) for name, df in tables.items()},
            "written": {fmt: {"dir": d, "files": paths} for d, fmt, paths in written},
        }, indent=2))
        return
    with pd.option_context("display.width", 160, "display.max_columns", 30, "display.max_rows", 200,
                           "display.float_format", "{:.4f}".format):
        click.echo(f"{records}: {len(recs):,} {v.name} hands, {played:,} played (rules {recs[0]['rules_version']})\n")
        for name in shown:
            click.echo(f"== {name.replace('_', ' ')} ==")
            click.echo(tables[name].to_string(index=False))
            click.echo("")
    if solved:
        click.echo(f"double dummy: solved {solved:,} played hands for the 4 trumps (not saved; bower solve --records "
                   f"{records} --out FILE keeps them)")
    elif with_dd and missing:
        click.echo(f"double dummy: {missing:,} of {played:,} played hands carry no 'dd' and are left out of the dd "
                   f"tables (--dd solves them)")
    elif played and not with_dd:
        click.echo(f"no double-dummy tables: the records carry no 'dd'; add it with bower solve --records {records} "
                   f"--out FILE2 (then bower analyze FILE2), or run bower analyze {records} --dd")
    for d, fmt, paths in written:
        click.echo(f"wrote {len(paths)} tables to {d}/ ({fmt})")
