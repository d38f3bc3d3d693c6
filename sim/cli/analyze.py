"""``bower analyze RECORDS``: the analysis tables of a saved records file, and its double-dummy tables."""

from __future__ import annotations

import json
import tempfile

import click

from bower.sim.cli.options import StrategySpec, json_option, threads_option


def _rows(df) -> list[dict]:
    """A table as JSON rows: numbers as numbers, NaN as null, categories as their labels."""
    return json.loads(df.to_json(orient="records", double_precision=15))


@click.command()
@click.argument("records", metavar="RECORDS", type=click.Path(dir_okay=False))
@click.option("--strategy", default=None, type=StrategySpec(),
              help="Strategy whose trick estimate buckets the hands (preset or .toml of the records' variant; "
                   "default: the one the records file says made it, else default).")
@click.option("--csv", "csv_dir", default=None, metavar="DIR", help="Write every table as DIR/NAME.csv.")
@click.option("--parquet", "parquet_dir", default=None, metavar="DIR", help="Write every table as DIR/NAME.parquet.")
@click.option("--dd", "solve_dd", is_flag=True,
              help="Solve the played hands that carry no 'dd' object double dummy now (as bower solve --records), "
                   "for the double-dummy tables.")
@threads_option
@json_option
def analyze(records, strategy, csv_dir, parquet_dir, solve_dd, threads, as_json):
    """Print the analysis tables of a .jsonl or .parquet records file (any variant), or of a .egn game.

    The file is read batch by batch (Parquet by DuckDB) in constant memory,
    each record checked: one that is not what it claims (a malformed card, a
    wrong number of cards, a card twice, a seat out of range, a field that
    is not a number) is named with its field, and nothing is printed. The
    trick estimates are those of the strategy the file records (--strategy
    overrides it).

    When the records carry double-dummy results ('dd', from bower solve
    --records IN --out OUT, or --dd here) the double-dummy tables follow:
    played against dd tricks and par make rates by contract, by hand
    features and by trumps held, and the trump choice.
    """
    import pandas as pd

    from bower.analysis import stream
    from bower.analysis.report import OutputError, check_out_dir, write_tables
    from bower.sim.errors import os_reason
    from bower.sim.progress import Progress
    from bower.sim.records import RecordsError, own_format

    for flag, d in (("--csv", csv_dir), ("--parquet", parquet_dir)):
        if d is not None and not d.strip():
            raise RecordsError(f"{flag} needs a folder name")
    if csv_dir and parquet_dir:
        raise RecordsError("give --csv or --parquet, not both")
    for d in (csv_dir, parquet_dir):
        if d:
            check_out_dir(d)
    reading = records
    own = own_format(records)
    if own is not None:  # a variant's own format (.egn): its records as JSONL in a scratch folder, removed at the end
        scratch = tempfile.TemporaryDirectory(prefix="bower-records-")
        click.get_current_context().call_on_close(scratch.cleanup)
        reading = own.as_jsonl(records, scratch.name)
    info = stream.open_records(reading)
    v = info["variant"]
    name, params, source, notes = stream.choose_strategy(reading, info, strategy)
    if solve_dd:
        from bower.sim.runner import set_threads

        set_threads(threads)
    bar = Progress("records" if info["format"] == "parquet" else "records (bytes read)",
                   enabled=False if as_json else None)
    dd_bar = None
    try:
        if solve_dd:
            dd_bar = Progress("double dummy", enabled=False if as_json else None)
        result = stream.analyze(reading, info, params, threads=threads, solve_dd=solve_dd, progress=bar,
                                dd_progress=dd_bar)
    finally:
        bar.close()
        if dd_bar is not None:
            dd_bar.close()
    for note in notes:  # once the records have been read (a bad one is the only line then)
        click.echo(f"bower: note: {note}", err=True)
    tables, shown = result["tables"], result["shown"]
    played, missing, solved, with_dd = result["played"], result["missing"], result["solved"], result["with_dd"]
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
    rules_version = info["rules_version"]
    if as_json:
        click.echo(json.dumps({
            "records": records, "variant": v.name, "rules_version": rules_version, "hands": result["hands"],
            "played": played, "dd": {"with_dd": with_dd, "missing": missing, "solved": solved},
            "strategy": {"name": name, "from": source},
            "tables": {name_: _rows(df) for name_, df in tables.items()},
            "written": {fmt: {"dir": d, "files": paths} for d, fmt, paths in written},
        }, indent=2))
        return
    with pd.option_context("display.width", 160, "display.max_columns", 30, "display.max_rows", 200,
                           "display.float_format", "{:.4f}".format):
        click.echo(f"{records}: {result['hands']:,} {v.name} hands, {played:,} played (rules {rules_version})\n")
        for table in shown:
            click.echo(f"== {table.replace('_', ' ')} ==")
            click.echo(tables[table].to_string(index=False))
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
