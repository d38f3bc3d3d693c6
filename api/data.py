"""Records files from Python: read them as DataFrames, analyse them as ``bower analyze`` does."""

from __future__ import annotations

import pandas as pd


def read_records(path: str, batch_size: int | None = None, columns: list[str] | None = None):
    """The hand records of a ``.jsonl`` or ``.parquet`` file as a DataFrame, one row per hand.

    ``batch_size``: an iterator of DataFrames of up to that many records
    instead, reading the file piece by piece (for files bigger than memory).
    ``columns``: only these fields (Parquet; JSONL records are read whole and
    then cut). Every record is checked as every reader checks it
    (``bower.sim.records_check``: format, variant, each field, complete
    plays); a bad one raises ``bower.BowerError`` naming the record and the
    field, as does a wrongly typed argument.
    """
    from bower import _check_args, _path
    from bower.analysis.stream import open_records
    from bower.sim.records import iter_record_batches
    from bower.sim.text import number_text

    _check_args(path=(path, "path"), batch_size=(batch_size, "int?"), columns=(columns, "strs?"))
    if batch_size is not None and batch_size < 1:
        from bower.sim.errors import UserError

        raise UserError(f"batch_size= must be a positive whole number, got {number_text(batch_size)}")
    if batch_size is not None:
        batch_size = min(batch_size, 2**62)  # pyarrow takes an int64; no file holds that many records
    path = _path(path)
    info = open_records(path)
    if columns is not None:
        fields = set(info["schema"].names) if info["schema"] is not None else set(info["variant"].record_fields)
        unknown = [c for c in columns if c not in fields and c not in ("hand", "rules", "rules_version")]
        if unknown:
            from bower.sim.errors import UserError

            raise UserError(f"columns=: {unknown[0]!r} is not a field of these records ({', '.join(sorted(fields))})")

    def cut(df: pd.DataFrame) -> pd.DataFrame:
        return df if columns is None else df[[c for c in columns if c in df.columns]]

    if info["format"] == "parquet":
        import pyarrow.parquet as pq

        from bower.sim.records import check_parquet_file

        if batch_size is None:  # read once: every record checked (records_check) before the table is handed out
            table = check_parquet_file(path, whole=True)
            return table.select(columns if columns is not None else table.column_names).to_pandas()
        check_parquet_file(path)
        pf = pq.ParquetFile(path)
        return (b.to_pandas() for b in pf.iter_batches(batch_size=batch_size, columns=columns))
    if batch_size is None:
        return cut(pd.DataFrame([r for b in iter_record_batches(path) for r in b]))
    return (cut(pd.DataFrame(b)) for b in iter_record_batches(path, batch_size))


def analyze(path: str, strategy=None, threads: int | None = None, dd: bool = False) -> dict[str, pd.DataFrame]:
    """``bower analyze``'s tables of a records file: table name -> DataFrame, read in constant memory.

    ``strategy``: whose trick estimates bucket the hands (a preset, ``.toml``
    path, dict or ``bower.Strategy``; default: the one the file records).
    ``dd``: solve the played hands without a ``dd`` object double dummy now,
    for the double-dummy tables.
    """
    from bower import _check_args, _path
    from bower.analysis import stream
    from bower.sim.runner import set_threads

    _check_args(path=(path, "path"), threads=(threads, "int?"), dd=(dd, "bool"))
    path = _path(path)
    info = stream.open_records(path)
    _, params, _, _ = stream.choose_strategy(path, info, strategy)
    if dd:
        set_threads(threads)
    return stream.analyze(path, info, params, threads=threads, solve_dd=dd)["tables"]
