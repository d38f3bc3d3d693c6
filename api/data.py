"""Records files from Python: read them as DataFrames, analyse them as ``bower analyze`` does."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:
    from bower import StrategyLike


def read_records(path: str | os.PathLike[str], batch_size: int | None = None,
                 columns: list[str] | None = None) -> pd.DataFrame | Iterator[pd.DataFrame]:
    """The hand records of a ``.jsonl`` or ``.parquet`` file as a DataFrame, one row per hand.

    The columns are Arrow-backed (``pd.ArrowDtype``) with the types of the
    records' Parquet schema: ints ``int64[pyarrow]`` (a nullable one such as
    ``maker`` stays an int, with ``<NA>``), strings ``string[pyarrow]``,
    ``deal``, ``tricks``, ``points`` and ``rules`` Arrow structs, ``calls``
    and ``plays`` Arrow lists of ``[seat, value]`` string pairs (in JSONL
    the seat is a number; Arrow lists hold one type, so it reads as its
    digits, as in Parquet). Both formats give the same frame, the derived
    columns (``maker_position``, ``tricks_0``, ..., ``plays_count``)
    included; a JSONL field bower's records do not have (``dd`` of
    ``bower solve --records``) gets the type Arrow infers.
    ``batch_size``: an iterator of DataFrames of up to that many records
    instead, reading the file piece by piece (for files bigger than memory).
    ``columns``: only these fields. Every record is checked as every reader
    checks it (``bower.sim.records_check``: format, variant, each field,
    complete plays); a bad one raises ``bower.BowerError`` naming the record
    and the field, as does a wrongly typed argument. ``df.astype(object)``
    or ``Series.to_numpy()`` gives NumPy values where a library needs them.

    Examples:
        >>> run = bower.simulate("ghost", hands=1_000, seed=1, records="hands.parquet")
        >>> df = bower.read_records("hands.parquet")
        >>> len(df), str(df["maker"].dtype), str(df["tricks_0"].dtype)
        (1000, 'int64[pyarrow]', 'int64[pyarrow]')
        >>> df.groupby("bid")["hand"].count().to_dict()     # hands by the bid that won (6: a moon)
        {3: 498, 4: 464, 5: 3, 6: 7}
        >>> [len(b) for b in bower.read_records("hands.parquet", batch_size=400, columns=["bid"])]
        [400, 400, 200]
    """
    from bower import _check_args, _path
    from bower.analysis.stream import open_records
    from bower.sim.records_check import check_input
    from bower.sim.text import number_text

    _check_args(path=(path, "path"), batch_size=(batch_size, "int?"), columns=(columns, "strs?"))
    if batch_size is not None and batch_size < 1:
        from bower.sim.errors import UserError

        raise UserError(f"batch_size= must be a positive whole number, got {number_text(batch_size)}")
    if batch_size is not None:
        batch_size = min(batch_size, 2**62)  # pyarrow takes an int64; no file holds that many records
    path = _path(path)
    check_input(path)  # a FIFO would be waited on without end
    info = open_records(path)
    if columns is not None:
        fields = set(info["schema"].names) if info["schema"] is not None else _jsonl_fields(info)
        unknown = [c for c in columns if c not in fields and c not in ("hand", "rules", "rules_version")]
        if unknown:
            from bower.sim.errors import UserError

            raise UserError(f"columns=: {unknown[0]!r} is not a field of these records ({', '.join(sorted(fields))})")

    if info["format"] == "parquet":
        import pyarrow.parquet as pq

        from bower.sim.records import check_parquet_file, system_memory
        from bower.sim.records_check import read_batches

        if batch_size is None:  # read once: every record checked (records_check) before the table is handed out
            with system_memory():
                table = check_parquet_file(path, whole=True)
                return _frame(table.select(columns if columns is not None else table.column_names))
        check_parquet_file(path)
        pf = pq.ParquetFile(path)
        return (_frame(b) for b in read_batches(path, pf.iter_batches(batch_size=batch_size, columns=columns)))
    if batch_size is None:
        import pyarrow as pa

        from bower.sim.records import system_memory

        with system_memory():
            tables = list(_jsonl_tables(path, info, 32768, columns))
            return _frame(pa.concat_tables(tables))
    return (_frame(t) for t in _jsonl_tables(path, info, batch_size, columns))


def _frame(table) -> pd.DataFrame:
    """An Arrow table or record batch as a DataFrame of Arrow-backed columns (its own types)."""
    return table.to_pandas(types_mapper=pd.ArrowDtype)


def _jsonl_fields(info) -> set:
    """The columns a JSONL file's frame has: the record's fields and the derived ones of a Parquet file."""
    from bower.sim.records import derived_fields

    v = info["variant"]
    return set(v.record_fields) | {n for n, _ in v.arrow_fields(info["rules"])} | \
        {n for n, _ in derived_fields(v, info["rules"])}


_PAIRS = ("calls", "plays")


def _jsonl_tables(path: str, info, batch: int, columns):
    """The checked records of a JSONL file as Arrow tables of up to ``batch`` rows, in the Parquet file's schema."""
    import pyarrow as pa

    from bower.sim.records import derived_arrays, iter_record_batches, parquet_schema

    v, rules = info["variant"], info["rules"]
    schema = parquet_schema(v, rules)
    first = 0
    for recs in iter_record_batches(path, batch):
        for r in recs:
            for name in _PAIRS:
                pairs = r.get(name)
                if isinstance(pairs, list):
                    r[name] = [[str(p[0]).strip(), p[1]] if isinstance(p, list) and len(p) == 2 else p for p in pairs]
        arrays = {f.name: _arrow_column(path, recs, first, f.name, f.type) for f in schema}
        extra = [k for k in recs[0] if k not in arrays]  # fields bower's records do not have (``dd``)
        for k in extra:
            arrays[k] = _arrow_column(path, recs, first, k, None)
        derived = derived_arrays(v, rules, arrays)
        table = pa.table(list(arrays.values()) + [a for _, a in derived], names=list(arrays) + [n for n, _ in derived])
        first += len(recs)
        yield table if columns is None else table.select([c for c in columns if c in table.column_names])


def _arrow_column(path: str, recs: list, first: int, name: str, typ):
    """The Arrow array of field ``name`` of checked records; a value of another type: BowerError naming it."""
    import pyarrow as pa

    from bower.sim.errors import UserError
    from bower.sim.records_check import label

    values = [r.get(name) for r in recs]
    try:
        return pa.array(values, type=typ)
    except (pa.ArrowException, TypeError, ValueError, OverflowError):
        if typ == pa.int64():  # a seat written as its digits (the check takes them)
            values = [int(x) if isinstance(x, str) and x.strip().isdigit() else x for x in values]
            try:
                return pa.array(values, type=typ)
            except (pa.ArrowException, TypeError, ValueError, OverflowError):
                pass
        for i, x in enumerate(values):
            try:
                pa.array([x], type=typ)
            except (pa.ArrowException, TypeError, ValueError, OverflowError):
                raise UserError(f"{label(path, first + i)}: field {name!r} is {x!r}, which does not read as Arrow "
                                f"{typ}") from None
        raise UserError(f"{path}: field {name!r} does not read as one Arrow type") from None


def analyze(path: str | os.PathLike[str], strategy: StrategyLike | None = None, threads: int | None = None,
            dd: bool = False) -> dict[str, pd.DataFrame]:
    """``bower analyze``'s tables of a records file: table name -> DataFrame, read in constant memory.

    ``strategy``: whose trick estimates bucket the hands (a preset, ``.toml``
    path, dict or ``bower.Strategy``; default: the one the file records).
    ``dd``: solve the played hands without a ``dd`` object double dummy now,
    for the double-dummy tables.

    Examples:
        >>> run = bower.simulate("euchre", hands=2_000, seed=1, records="hands.jsonl")
        >>> tables = bower.analyze("hands.jsonl")
        >>> sorted(tables)[:3]
        ['by_trumps', 'dealer_side', 'lone_hands']
    """
    from bower import _check_args, _path
    from bower.analysis import stream
    from bower.sim.records_check import check_input
    from bower.sim.runner import set_threads

    _check_args(path=(path, "path"), threads=(threads, "int?"), dd=(dd, "bool"))
    path = _path(path)
    check_input(path)  # a FIFO would be waited on without end
    info = stream.open_records(path)
    _, params, _, _ = stream.choose_strategy(path, info, strategy)
    if dd:
        set_threads(threads)
    return stream.analyze(path, info, params, threads=threads, solve_dd=dd)["tables"]
