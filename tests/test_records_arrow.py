"""``bower.read_records`` and ``Simulation.records()``: Arrow-backed columns of the records' own types (issue 34).

The frame of a Parquet file and of a JSONL file of the same hands is the
same, whole or in batches, with ``columns=`` or without; its values are the
records' JSON (the pairs' seats as their digits). The whole-batch check of
Ghost Hand records (``bower.sim.records_vector``) passes the records bower
writes and no record spoiled anywhere; a spoiled one is named by the
record-by-record check.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import bower
from bower.sim import runner
from bower.sim.records import read_meta

INT_FIELDS = ("hand", "dealer", "swap", "maker", "bid", "maker_position", "tricks_0", "points_2", "plays_count")


@pytest.fixture(scope="module")
def ghost(tmp_path_factory):
    """A Ghost Hand run of 3,000 hands (seed 4) as JSONL and Parquet: (jsonl path, parquet path)."""
    folder = tmp_path_factory.mktemp("arrow")
    jl, pqt = folder / "r.jsonl", folder / "r.parquet"
    runner.simulate(variant="ghost", hands=3_000, seed=4, records_path=str(jl))
    runner.simulate(variant="ghost", hands=3_000, seed=4, records_path=str(pqt))
    return str(jl), str(pqt)


def test_the_columns_are_arrow_backed_with_integer_types(ghost):
    df = bower.read_records(ghost[1])
    assert all(isinstance(t, pd.ArrowDtype) for t in df.dtypes)
    for name in INT_FIELDS:
        assert df[name].dtype == pd.ArrowDtype(pa.int64()), name
    assert df["maker"].isna().any() and df["maker"].notna().any()  # a nullable int with nulls stays an int
    assert df["maker"].dtype == pd.ArrowDtype(pa.int64()) and df["maker"].dropna().max() <= 2
    assert df["swap"].isna().any()
    assert pa.types.is_struct(df["tricks"].dtype.pyarrow_dtype)
    assert df["plays"].dtype == pd.ArrowDtype(pa.list_(pa.list_(pa.string())))
    assert df["trump"].dtype == pd.ArrowDtype(pa.string()) and set(df["trump"].dropna()) <= set("CSDH")


def test_jsonl_and_parquet_give_the_same_frame(ghost):
    a, b = bower.read_records(ghost[0]), bower.read_records(ghost[1])
    assert list(a.columns) == list(b.columns) and list(a.dtypes) == list(b.dtypes)
    assert a.equals(b)
    cols = ["plays", "hand", "maker", "deal"]
    assert bower.read_records(ghost[0], columns=cols).equals(bower.read_records(ghost[1], columns=cols))
    assert list(bower.read_records(ghost[1], columns=cols).columns) == cols


@pytest.mark.parametrize("variant", ["cutthroat", "hasenpfeffer", "euchre"])
def test_every_variant_gives_the_same_frame_from_both_formats(tmp_path, variant):
    jl, pqt = tmp_path / "r.jsonl", tmp_path / "r.parquet"
    runner.simulate(variant=variant, hands=300, seed=2, records_path=str(jl))
    runner.simulate(variant=variant, hands=300, seed=2, records_path=str(pqt))
    a, b = bower.read_records(str(jl)), bower.read_records(str(pqt))
    assert a.equals(b) and list(a.dtypes) == list(b.dtypes)
    assert a["hand"].dtype == pd.ArrowDtype(pa.int64()) and a["dealer"].dtype == pd.ArrowDtype(pa.int64())


@pytest.mark.parametrize("which", [0, 1])
def test_batches_and_the_whole_read_agree(ghost, which):
    whole = bower.read_records(ghost[which])
    batches = list(bower.read_records(ghost[which], batch_size=700))
    assert [len(b) for b in batches] == [700] * 4 + [200]
    assert all(list(b.dtypes) == list(whole.dtypes) for b in batches)
    assert pd.concat(batches, ignore_index=True).equals(whole)
    cut = list(bower.read_records(ghost[which], batch_size=1_000, columns=["maker", "plays"]))
    assert pd.concat(cut, ignore_index=True).equals(whole[["maker", "plays"]])


def test_the_values_are_the_records_json(ghost):
    df = bower.read_records(ghost[1])
    lines = Path(ghost[0]).read_text(encoding="utf-8").splitlines()
    fields = [c for c in df.columns if c not in set(read_meta(ghost[1])["derived_columns"])]
    rows = pa.Table.from_pandas(df[fields], preserve_index=False).to_pylist()
    for line, row in zip(lines, rows):
        rec = json.loads(line)
        for name in ("calls", "plays"):
            rec[name] = [[str(s), x] for s, x in rec[name]]
        assert row == rec


def test_simulation_records_are_the_file_read(ghost):
    run = bower.simulate("ghost", hands=3_000, seed=4)
    df = run.records()
    assert df.equals(bower.read_records(ghost[1]))
    assert pd.concat(run.records(batch_size=1_024), ignore_index=True).equals(df)
    assert run.records(columns=["hand", "bid"]).equals(df[["hand", "bid"]])


# ---- the whole-batch check ------------------------------------------------------------------------


def _fast(path):
    """(FastCheck of record 0, the record columns' batch of ``path``, read plain and with dictionaries)."""
    from bower.sim.records import _record_columns
    from bower.sim.records_check import FastCheck, _first_record, _from_parquet

    cols = _record_columns(path)
    strings = [c.path for c in pq.ParquetFile(path).schema if c.physical_type == "BYTE_ARRAY"]
    plain = pq.read_table(path, columns=cols).combine_chunks().to_batches()[0]
    coded = pq.read_table(path, columns=cols, read_dictionary=strings).combine_chunks().to_batches()[0]
    first = _from_parquet(plain.slice(0, 1).to_pylist()[0])
    v, rules, need = _first_record(path, first, "record 0", True)
    return FastCheck(v, first, rules, need), plain, coded


def _spoil(rec: dict, fault: str, k: int):
    """``rec`` (the Parquet form) with a fault; None where it does not apply to this record."""
    r = copy.deepcopy(rec)
    plays = r["plays"]
    if fault in ("twice", "not held", "out of turn", "seat") and k >= len(plays):
        return None
    if fault == "twice":
        plays[k] = [plays[k][0], plays[k - 3 if k >= 3 else k + 3][1]]
    elif fault == "not held":
        held = {c for s in ("0", "1", "2") for c in r["deal"]["ghost" if str(r["swap"]) == s else s]}
        plays[k] = [plays[k][0], next(c for h in r["deal"].values() for c in h if c not in held)]
    elif fault == "out of turn":
        if (k + 1) % 3 == 0:
            return None
        plays[k], plays[k + 1] = plays[k + 1], plays[k]
    elif fault == "seat":
        plays[k] = [str((int(plays[k][0]) + 1) % 3), plays[k][1]]
    return r


FIELD_FAULTS = {
    "dealer": lambda r: dict(r, dealer=3),
    "maker": lambda r: dict(r, maker=3),
    "bid": lambda r: dict(r, bid=7),
    "trump": lambda r: dict(r, trump="X"),
    "swap": lambda r: dict(r, swap=5),
    "deal": lambda r: dict(r, deal=dict(r["deal"], **{"1": r["deal"]["1"][:5] + ["ZZ"]})),
    "calls": lambda r: dict(r, calls=[["4", "pass"]] + r["calls"][1:]),
    "variant": lambda r: dict(r, variant="euchre"),
    "rules": lambda r: dict(r, rules=dict(r["rules"], moon_set_penalty=9)),
    "tricks": lambda r: dict(r, tricks=None),
    "plays": lambda r: dict(r, plays=r["plays"][:-1]),
}


def test_the_batch_check_passes_the_records_bower_writes(ghost):
    from bower.sim.records_vector import batch_ok

    fast, plain, coded = _fast(ghost[1])
    assert batch_ok(fast, plain) and batch_ok(fast, coded)


@pytest.mark.parametrize("fault", ["twice", "not held", "out of turn", "seat"])
def test_the_batch_check_passes_no_spoiled_play(ghost, fault):
    from bower.sim.records_vector import batch_ok

    fast, plain, _ = _fast(ghost[1])
    rows = plain.slice(0, 40).to_pylist()
    spoiled = 0
    for i in range(1, 40):
        for k in range(18):
            bad = _spoil(rows[i], fault, k)
            if bad is None:
                continue
            spoiled += 1
            batch = pa.RecordBatch.from_pylist(rows[:i] + [bad] + rows[i + 1:], schema=plain.schema)
            assert not batch_ok(fast, batch), (i, k)
    assert spoiled > 300


@pytest.mark.parametrize("name", sorted(FIELD_FAULTS))
def test_a_spoiled_field_is_refused_naming_record_and_field(ghost, tmp_path, name):
    from bower.sim.records_vector import batch_ok

    fast, plain, _ = _fast(ghost[1])
    rows = plain.to_pylist()
    i = next(j for j in range(2_000, 3_000) if rows[j]["maker"] is not None)  # a hand played, past record 0's batch
    rows[i] = FIELD_FAULTS[name](rows[i])
    table = pa.Table.from_pylist(rows, schema=plain.schema)
    assert not batch_ok(fast, table.to_batches()[0])
    path = tmp_path / "bad.parquet"
    pq.write_table(table, path)
    with pytest.raises(bower.BowerError) as e:
        bower.read_records(str(path))
    assert f"record {i}" in str(e.value) and "\n" not in str(e.value)
    if name not in ("variant", "rules"):
        assert name in str(e.value), str(e.value)
    with pytest.raises(bower.BowerError, match=f"record {i}"):
        list(bower.read_records(str(path), batch_size=500))
