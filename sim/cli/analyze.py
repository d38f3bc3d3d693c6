"""``bower analyze RECORDS``: the analysis tables of a saved records file, and its double-dummy tables."""

from __future__ import annotations

import json
import tempfile

import click

from bower.sim.cli.options import StrategySpec, json_option, threads_option


def _has_unknown(path: str) -> bool:
    """Whether a records file may hold records with fields not known (``unknown``): a Parquet file with that
    column, a JSONL file with that key on a line (then its records are read as dicts to know)."""
    if str(path).lower().endswith(".parquet"):
        import pyarrow.parquet as pq

        try:
            return "unknown" in pq.ParquetFile(path).schema_arrow.names
        except (OSError, ValueError):
            return False  # the reader names the fault
    import re

    key = re.compile(rb'"unknown"\s*:')
    try:
        with open(path, "rb") as fh:
            return any(b'"unknown"' in line and key.search(line) for line in fh)
    except OSError:
        return False


def _analyze_unknown(path: str, scratch: str, strategy, threads, solve_dd: bool, as_json: bool):
    """(info, strategy choice, result as ``stream.analyze`` gives it, note) of a records file some of whose records
    do not know every card (``unknown``), or None when none of them lacks one.

    The analysis tables read the hands as dealt and the kitty: they count the records with every card known
    (none: no tables). The double-dummy tables count every played record: each seat's hand at the first lead
    is the cards it played.
    """
    import os

    from bower.analysis import dd, stream
    from bower.sim.progress import Progress
    from bower.sim.records import JsonlWriter, iter_record_batches, read_meta
    from bower.sim.replay import unknown_note

    recs = [r for batch in iter_record_batches(path, 4096) for r in batch]
    lacking = [r for r in recs if r.get("unknown")]
    if not lacking:
        return None
    from bower.sim.variants import get_variant

    v = get_variant(recs[0]["variant"])
    known = [r for r in recs if not r.get("unknown")]
    fields = sorted({f for r in lacking for f in r["unknown"]})
    info = stream.open_records(path)
    choice = stream.choose_strategy(path, info, strategy)
    tables, shown = {}, []
    if known:
        part = os.path.join(scratch, "known.jsonl")
        writer = JsonlWriter(part, v, recs[0].get("rules") or {}, read_meta(path) or {})
        writer.write_dicts(known)
        writer.close()
        got = stream.analyze(part, stream.open_records(part), choice[1], threads=threads, check=False)
        tables, shown = got["tables"], list(got["shown"])
    played = sum(dd.is_played(v, r) for r in recs)
    solved = 0
    if solve_dd:
        bar = Progress("double dummy", enabled=False if as_json else None)
        try:
            solved = dd.attach_dd(v, recs, progress=bar)
        finally:
            bar.close()
    with_dd = sum(1 for r in recs if dd.is_played(v, r) and r.get("dd") is not None)
    if with_dd:
        tables.update(dd.frame_tables(v, dd.hand_frame(v, recs)))
        shown += list(dd.TABLES)
    what = unknown_note(fields).split(":")[0]
    note = (f"{len(lacking):,} of {len(recs):,} hands have {what}: the analysis tables (they read the hands as dealt "
            f"and the kitty) count the {len(known):,} with every card known"
            + ("" if known else " (none: no analysis tables)")
            + "; the double-dummy tables every played hand, each seat's hand at the first lead the cards it played")
    result = {"tables": tables, "shown": shown, "hands": len(recs), "played": played, "missing": played - with_dd,
              "with_dd": with_dd, "solved": solved}
    return info, choice, result, note


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
    each record checked in full first, its plays too, by the check replay
    and solve --records use: one that is not what it claims (a malformed
    card, a wrong number of cards, a card twice, a card its seat did not
    hold, a seat out of range, plays out of turn, a field that is not a
    number) is named with its field, and nothing is printed. The
    trick estimates are those of the strategy the file records (--strategy
    overrides it).

    When the records carry double-dummy results ('dd', from bower solve
    --records IN --out OUT, or --dd here) the double-dummy tables follow:
    played against dd tricks and par make rates by contract, by hand
    features and by trumps held, and the trump choice.

    Records whose cards are not all known (their 'unknown' field: a real
    game's transcript without the kitty and the dealer's discard) are read
    whole: the analysis tables count the records with every card known, the
    double-dummy tables every played record (each seat's hand at the first
    lead: the cards it played), and one line says so.
    """
    from bower.analysis import stream
    from bower.analysis.report import check_out_dir
    from bower.sim.progress import Progress
    from bower.sim.records import RecordsError, own_format
    from bower.sim.records_check import check_input

    check_input(records)  # a FIFO would be waited on without end
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
    partial = None
    if _has_unknown(reading):
        from bower.sim.runner import set_threads

        set_threads(threads)
        part = tempfile.TemporaryDirectory(prefix="bower-known-")
        click.get_current_context().call_on_close(part.cleanup)
        partial = _analyze_unknown(reading, part.name, strategy, threads, solve_dd, as_json)
    if partial is not None:
        _report(records, *partial, csv_dir, parquet_dir, as_json)
        return
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
    _report(records, info, (name, params, source, notes), result, None, csv_dir, parquet_dir, as_json)


def _report(records, info, choice, result, unknown_note, csv_dir, parquet_dir, as_json):
    """Print (and write) the tables of ``result`` (``stream.analyze``'s); ``unknown_note``: the line that says which
    hands lack cards and what each table counts (None: every card is known)."""
    import pandas as pd

    from bower.analysis.report import OutputError, write_tables
    from bower.sim.errors import os_reason

    v = info["variant"]
    name, params, source, notes = choice
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
        doc = {
            "records": records, "variant": v.name, "rules_version": rules_version, "hands": result["hands"],
            "played": played, "dd": {"with_dd": with_dd, "missing": missing, "solved": solved},
            "strategy": {"name": name, "from": source},
            "tables": {name_: _rows(df) for name_, df in tables.items()},
            "written": {fmt: {"dir": d, "files": paths} for d, fmt, paths in written},
        }
        if unknown_note:  # (records whose cards are not all known only)
            doc["unknown"] = unknown_note
        click.echo(json.dumps(doc, indent=2))
        return
    with pd.option_context("display.width", 160, "display.max_columns", 30, "display.max_rows", 200,
                           "display.float_format", "{:.4f}".format):
        click.echo(f"{records}: {result['hands']:,} {v.name} hands, {played:,} played (rules {rules_version})\n")
        if unknown_note:
            click.echo(unknown_note + "\n")
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
