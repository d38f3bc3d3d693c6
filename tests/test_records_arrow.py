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
import functools
import json
import re
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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


@pytest.fixture(scope="module")
def ghost_fast(ghost):
    """``_fast`` of the Ghost Hand Parquet file, read once for the module (nothing below changes it: ``batch_ok``
    only reads the FastCheck and the batches)."""
    return _fast(ghost[1])


@pytest.fixture(scope="module")
def ghost_rows(ghost_fast):
    """The plain batch's records as Parquet-form dicts, read once (each test spoils a shallow copy of the list,
    its faults making new dicts, never changing these)."""
    return ghost_fast[1].to_pylist()


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


def test_the_batch_check_passes_the_records_bower_writes(ghost_fast):
    from bower.sim.records_vector import batch_ok

    fast, plain, coded = ghost_fast
    assert batch_ok(fast, plain) and batch_ok(fast, coded)


@pytest.mark.parametrize("fault", ["twice", "not held", "out of turn", "seat"])
def test_the_batch_check_passes_no_spoiled_play(ghost_fast, ghost_rows, fault):
    from bower.sim.records_vector import batch_ok

    fast, plain, _ = ghost_fast
    rows, head = ghost_rows[:40], plain.slice(0, 40)
    spoiled = 0
    for i in range(1, 40):
        for k in range(18):
            bad = _spoil(rows[i], fault, k)
            if bad is None:
                continue
            spoiled += 1
            # the 40 records with record i spoiled, one batch: the others as read (not built again from their dicts)
            batch = pa.Table.from_batches([head.slice(0, i), pa.RecordBatch.from_pylist([bad], schema=plain.schema),
                                           head.slice(i + 1)]).combine_chunks().to_batches()[0]
            assert not batch_ok(fast, batch), (i, k)
    assert spoiled > 300


@pytest.mark.parametrize("name", sorted(FIELD_FAULTS))
def test_a_spoiled_field_is_refused_naming_record_and_field(ghost_fast, ghost_rows, tmp_path, name):
    from bower.sim.records_vector import batch_ok

    fast, plain, _ = ghost_fast
    rows = ghost_rows
    i = next(j for j in range(2_000, 3_000) if rows[j]["maker"] is not None)  # a hand played, past record 0's batch
    # the records with record i spoiled: the rows before and after it as read, one table of one chunk
    table = pa.Table.from_batches([plain.slice(0, i), pa.RecordBatch.from_pylist([FIELD_FAULTS[name](rows[i])],
                                                                                 schema=plain.schema),
                                   plain.slice(i + 1)]).combine_chunks()
    assert table.num_rows == 3_000 and table.slice(i + 1).equals(pa.Table.from_batches([plain.slice(i + 1)]))
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


# ---- a JSONL file checked in bulk (records_check.JsonlBulk, check_jsonl) -----------------------------------------

_TOKEN = re.compile(rb'"[^"]*"|-?[0-9][0-9.eE+-]*|true|false|null|[\[\]{}:,]|\s+|.')
_MEMBER = re.compile(rb'(,"[^"]+":)(-?[0-9]+|null|true|false|"[^"]*")')  # a scalar member after the first
_NEW = [b'1', b'1.0', b'-0', b'1e0', b'true', b'null', b'"0"', b'"x"', b'"JH"', b'"ghost"', b'[0,"JH"]', b'["0","JH"]',
        b'[3,"JH"]', b'[0,"JH",1]', b'"hand":1,', b',"hand":1', b'"maker":', b',"x":1', b'{', b'}', b'[', b']', b',',
        b':', b'"', b'~', b'\\u0030', b' ', b'\n', b'\xc3\xa9', b'\xff', b'{"variant":"ghost"}', b'99999999999999999999']


_BULKS: dict = {}


def _bulk(path):
    """(JsonlBulk of a file's record 0, its variant, the fields needed), as ``check_jsonl`` makes them; made once
    a file (``JsonlBulk.ok`` changes nothing in it), not once a Hypothesis example."""
    if path not in _BULKS:
        _BULKS[path] = _new_bulk(path)
    return _BULKS[path]


def _new_bulk(path):
    """``_bulk`` made afresh."""
    from bower.sim.records_check import FastCheck, JsonlBulk, _first_record, iter_file

    first = next(iter_file(path))
    v, rules, need = _first_record(path, *first, True)
    with open(path, "rb") as fh:
        line = fh.readline()
    return JsonlBulk(FastCheck(v, first[0], rules, need), first[0], line), v, need


def _line_by_line(path) -> str | None:
    """The fault the line-by-line check names in a JSONL file (``checked_batches``), None when it passes it."""
    from bower.sim.errors import UserError
    from bower.sim.records_check import checked_batches

    try:
        for _ in checked_batches(path):
            pass
    except UserError as e:
        return str(e)
    return None


@functools.lru_cache(maxsize=4096)
def _tokens(line: bytes) -> tuple:
    """``_TOKEN``'s tokens of a line, split once a line (most examples spoil a line as written: the same few lines)."""
    return tuple(_TOKEN.findall(line))


@functools.lru_cache(maxsize=4096)
def _members(line: bytes) -> list:
    """``_MEMBER``'s matches in a line, found once a line (``re.Match`` objects are only read)."""
    return list(_MEMBER.finditer(line))


@st.composite
def _mutated(draw, lines: list) -> bytes:
    """The lines after record 0 with a few tokens deleted, replaced, moved or inserted (record 0 as it is)."""
    out = list(lines)
    for _ in range(draw(st.integers(1, 3))):
        k = draw(st.integers(1, len(out) - 1))
        toks = list(_tokens(out[k]))
        i = draw(st.integers(0, len(toks) - 1))
        j = draw(st.integers(i, min(len(toks), i + 4)))
        how = draw(st.sampled_from(["delete", "replace", "insert", "copy", "member", "member", "member"]))
        members = _members(out[k])
        if how == "member" and members:  # a scalar member of an object left out, doubled, or made null or another
            m = draw(st.sampled_from(members))
            new = draw(st.sampled_from([b"", b"", b"", m.group() * 2, m.group(1) + b"null", m.group(1) + b"0",
                                        m.group(1) + b'"0"', m.group(1) + b"1.0", m.group(1) + b"false"]))
            out[k] = out[k][:m.start()] + new + out[k][m.end():]
            continue
        if how == "delete":
            toks[i:j] = []
        elif how == "replace":
            toks[i:j] = [draw(st.sampled_from(_NEW))]
        elif how == "insert":
            toks.insert(i, draw(st.sampled_from(_NEW)))
        else:  # a run of tokens of this or another line put somewhere in this one
            other = _tokens(out[draw(st.integers(0, len(out) - 1))])
            a = draw(st.integers(0, len(other) - 1))
            toks[i:i] = other[a:a + draw(st.integers(1, 6))]
        out[k] = b"".join(toks)
    return b"\n".join(out) + b"\n"


def _small(folder, variant: str) -> tuple:
    """A JSONL file of 40 hands of ``variant`` (seed 11): its path and its lines."""
    path = folder / f"{variant}.jsonl"
    runner.simulate(variant=variant, hands=40, seed=11, records_path=str(path))
    return str(path), path.read_bytes().splitlines()


@pytest.fixture(scope="module")
def small_jsonl(tmp_path_factory):
    """A Ghost Hand JSONL file of 40 hands (seed 11): its path and its lines."""
    return _small(tmp_path_factory.mktemp("bulk"), "ghost")


@pytest.fixture(scope="module", params=["ghost", "cutthroat", "hasenpfeffer", "euchre"])
def any_jsonl(request, tmp_path_factory):
    """A JSONL file of 40 hands (seed 11) of each variant: its path and its lines."""
    return _small(tmp_path_factory.mktemp("bulk"), request.param)


def test_the_bulk_check_passes_the_lines_bower_writes(any_jsonl, tmp_path):
    from bower.sim.records_check import check_jsonl

    path, lines = any_jsonl
    bulk, _, _ = _bulk(path)
    assert bulk.usable and bulk.prefix is not None
    assert bulk.ok(b"\n".join(lines) + b"\n") and bulk.ok(b"\n".join(lines))
    assert check_jsonl(path) == 40 == check_jsonl(path, block=4096)
    assert bulk.whole  # every variant's batches checked whole (records_vector.covers)


@pytest.mark.parametrize("change", [
    (b'"maker":0,', b''),  # a field missing (Arrow would read it as null)
    (b'"swap":', b'"swap":1.0,"x":'),  # a float where an int goes
    (b'"dealer":0', b'"dealer":true'),
    (b'"tricks":{"0":', b'"tricks":{"0":0,"0":'),  # a key twice
    (b'[[0,"', b'[["0","'),  # a seat written as text
    (b'[[0,"', b'[[0,"x","'),  # a pair of three
    (b'[[0,"', b'[["0~'),  # a pair as the one string the bulk reading makes of it
    (b'}\n', b'}{"variant":"ghost"}\n'),  # two objects on a line
    (b'"hand":', b'"hand" :'),  # not bower's spacing
    (b'"C"', b'"\\u0043"'),  # an escape
])
def test_the_bulk_check_leaves_to_the_line_check_what_arrow_would_read_otherwise(small_jsonl, change):
    path, lines = small_jsonl
    bulk, _, _ = _bulk(path)
    text = b"\n".join(lines) + b"\n"
    at = text.index(change[0], len(lines[0]))
    assert not bulk.ok(text[:at] + change[1] + text[at + len(change[0]):])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_the_bulk_check_passes_only_what_the_line_check_passes(any_jsonl, tmp_path, data):
    from bower.sim import records_check
    from bower.sim.errors import UserError

    path, lines = any_jsonl
    bulk, _, _ = _bulk(path)
    text = data.draw(_mutated(lines))
    spoiled = tmp_path / "m.jsonl"
    spoiled.write_bytes(text)
    want = _line_by_line(str(spoiled))
    if bulk.ok(text):
        assert want is None, want
    piece, records_check.JSONL_PIECE = records_check.JSONL_PIECE, data.draw(st.sampled_from([256, 3]))
    real_ok, records_check.JsonlBulk.ok = records_check.JsonlBulk.ok, _remembered(path, records_check.JsonlBulk.ok)
    try:  # the file in one block, or in blocks of two or three lines; a block not passed in pieces of 3 lines
        records_check.check_jsonl(str(spoiled), block=data.draw(st.sampled_from([1 << 20, 2000])))
        got = None
    except UserError as e:
        got = str(e)
    finally:
        records_check.JSONL_PIECE = piece
        records_check.JsonlBulk.ok = real_ok
    assert got == want


_VERDICTS: dict = {}


def _remembered(path, ok):
    """``JsonlBulk.ok`` for the bulk checks of spoilings of the file ``path``, remembering each verdict.

    Every spoiling keeps record 0, so ``check_jsonl`` builds the same ``JsonlBulk`` for each (its one changing
    field, ``usable``, is in the key), and ``ok`` is a function of that and the bytes given: a block or piece of
    lines is checked once, the first time any example gives it. The blocks before the first spoiled line are the
    same bytes example after example (with blocks of two or three lines, most of the blocks of a file), and
    checking them again checks nothing new; every block or piece seen for the first time is checked in full.
    """
    seen = _VERDICTS.setdefault(path, {})

    def remembered(self, buf: bytes) -> bool:
        if len(buf) > 8192:  # a whole file, new each example: not kept (blocks and pieces are a few lines)
            return ok(self, buf)
        key = (self.usable, bytes(buf))
        if key not in seen:
            seen[key] = ok(self, buf)
        return seen[key]

    return remembered


def test_a_member_left_out_or_made_null_is_passed_only_as_the_line_check_passes_it(any_jsonl, tmp_path):
    """Each scalar member of some lines (every line holding a null among them) left out, made null, or doubled."""
    from bower.sim.errors import UserError
    from bower.sim.records_check import checked, parse_line

    path, lines = any_jsonl
    bulk, v, need = _bulk(path)
    first = parse_line(lines[0], "record 0", True)
    some = [k for k, line in enumerate(lines) if b"null" in line or k < 6][:12]
    tried = passed = 0
    for k in some:
        for m in _MEMBER.finditer(lines[k]):
            for new in (b"", m.group(1) + b"null", m.group() * 2):
                line = lines[k][:m.start()] + new + lines[k][m.end():]
                tried += 1
                if bulk.ok(line + b"\n"):
                    passed += 1
                    try:  # (after record 0, which fixes the variant and rules)
                        list(checked([(first, "record 0"), (parse_line(line, "record 1"), "record 1")], v, need))
                    except UserError as e:
                        raise AssertionError(f"line {k} with {new!r} for {m.group()!r}: {e}") from None
    assert tried > 100 and passed < tried


# ---- a file of several row groups, read whole row group by row group (``records._whole_by_row_group``) ----------


@pytest.fixture(scope="module")
def ghost_groups(tmp_path_factory):
    """A Ghost Hand Parquet file of 70,000 hands (seed 4): three row groups (32,768, 32,768 and 4,464 hands)."""
    path = tmp_path_factory.mktemp("groups") / "r.parquet"
    runner.simulate(variant="ghost", hands=70_000, seed=4, records_path=str(path))
    assert [pq.ParquetFile(path).metadata.row_group(i).num_rows for i in range(3)] == [32768, 32768, 4464]
    return str(path)


def test_the_whole_read_of_several_row_groups_is_the_file(ghost_groups):
    """Checked row group by row group, the frame is the file as pyarrow reads it, every column and row in order."""
    from bower.sim.records import check_parquet_file

    assert check_parquet_file(ghost_groups, whole=True).equals(pq.read_table(ghost_groups))
    df = bower.read_records(ghost_groups)
    assert df.equals(pq.read_table(ghost_groups).to_pandas(types_mapper=pd.ArrowDtype))
    assert df["hand"].tolist() == list(range(70_000))
    assert pd.concat(bower.read_records(ghost_groups, batch_size=30_000), ignore_index=True).equals(df)


def _damaged(src: str, dst: Path) -> str:
    """A copy of ``src`` with 200 bytes of a data page of its last row group overwritten."""
    col = pq.ParquetFile(src).metadata.row_group(2).column(5)
    data = bytearray(Path(src).read_bytes())
    data[col.data_page_offset + 40: col.data_page_offset + 240] = b"\xff" * 200
    dst.write_bytes(bytes(data))
    return str(dst)


def test_a_damaged_row_group_is_one_line(ghost_groups, tmp_path):
    """A page that does not decompress, past the first row group: BowerError naming the file, whole or in
    batches (not pyarrow's OSError)."""
    path = _damaged(ghost_groups, tmp_path / "bad.parquet")
    for read in (lambda: bower.read_records(path), lambda: list(bower.read_records(path, batch_size=10_000))):
        with pytest.raises(bower.BowerError) as e:
            read()
        assert str(e.value).startswith(f"cannot read records from {path}: ") and "\n" not in str(e.value)


def test_a_fault_found_mid_file_stops_the_reading_threads(ghost_groups, monkeypatch):
    """The check's error leaves read_records as it is, and the reader and caster threads are gone after."""
    import threading

    from bower.sim import records_check

    real = records_check.check_parquet

    def fails_at_the_second_batch(path, batches, required=True):
        def two():
            for k, b in enumerate(batches):
                if k == 1:
                    raise records_check._records_error("record 32768: spoiled")
                yield b
        real(path, two(), required)

    before = threading.active_count()
    monkeypatch.setattr(records_check, "check_parquet", fails_at_the_second_batch)
    with pytest.raises(bower.BowerError, match="record 32768: spoiled"):
        bower.read_records(ghost_groups)
    assert threading.active_count() == before


# ---- the variant of a file: by its exact name, loading no other variant ------------------------------------------


def test_a_variant_is_named_exactly():
    from bower.sim.variants import named

    assert named("ghost").name == "ghost" and named("euchre").name == "euchre"
    assert named("standard") is None and named("GHOST") is None and named(" ghost") is None  # no alias, no case
    assert named(None) is None and named(3) is None and named("bridge") is None


@pytest.mark.parametrize("name", ["bridge", "standard", "Ghost", None])
def test_a_file_of_no_known_variant_is_one_line(ghost, tmp_path, name):
    """Record 0's ``variant`` must be a variant's own name (an alias is not a record's), for every reader."""
    first, *rest = Path(ghost[0]).read_text().splitlines()
    rec = json.loads(first)
    rec["variant"] = name
    path = tmp_path / "other.jsonl"
    path.write_text("\n".join([json.dumps(rec), *rest]) + "\n")
    with pytest.raises(bower.BowerError, match="record 0 is not a bower hand record of a known variant "
                                               r"\(ghost, cutthroat, hasenpfeffer, euchre\)"):
        bower.read_records(str(path))


def test_reading_a_ghost_hand_file_loads_no_other_variant(ghost):
    """Only the registry's packages up to the file's variant are imported (their kernels' modules with them)."""
    import subprocess
    import sys

    code = ("import sys, bower; bower.read_records(sys.argv[1]); "
            "print(sorted(k for k in ('cutthroat', 'hasenpfeffer', 'euchre') "
            "if f'bower.sim.variants.{k}' in sys.modules or f'bower.kernels.{k}' in sys.modules))")
    for path in ghost:
        out = subprocess.run([sys.executable, "-c", code, path], capture_output=True, text=True, check=True).stdout
        assert out.strip() == "[]", path


def test_the_whole_read_runs_on_the_system_allocator_and_puts_arrows_pool_back(ghost_groups):
    """The whole read allocates on the system pool (``records.system_memory``: Arrow's mimalloc gave each freed
    batch's pages back and faulted new ones in, about 2 CPU seconds a million hands); the pool before is the
    pool after, an error inside too, and the frame is the file's."""
    from bower.sim.records import system_memory

    before = pa.default_memory_pool().backend_name
    with system_memory():
        assert pa.default_memory_pool().backend_name == "system"
    with pytest.raises(ZeroDivisionError), system_memory():
        1 / 0
    assert pa.default_memory_pool().backend_name == before
    df = bower.read_records(ghost_groups)
    assert pa.default_memory_pool().backend_name == before
    assert df.equals(pq.read_table(ghost_groups).to_pandas(types_mapper=pd.ArrowDtype))


def test_card_ids_of_dictionary_strings_are_those_of_the_strings(ghost):
    """``records_vector.card_ids`` reads a dictionary column's codes as they are (not cast to strings first): the
    same card numbers, nulls and refusals as the plain strings give, sliced or not."""
    from bower.sim.records_check import FastCheck, check_record
    from bower.sim.records_vector import card_ids

    first = json.loads(Path(ghost[0]).read_text().splitlines()[0])
    v, rules, _, _ = check_record(first, "record 0")
    fast = FastCheck(v, first, rules)
    cases = [["JH", "9C", "AS", "9C"], ["JH", None, "TD", None, "JH"], [None, None], ["JH", "XX", "9C"],
             ["JH", "jh"], ["JK"], []]
    for values in cases:
        plain = pa.array(values, pa.string())
        for arr in (plain, plain.slice(1)):
            coded = arr.dictionary_encode()
            got, want = card_ids(coded, fast), card_ids(arr, fast)
            assert (got is None) == (want is None), values
            if want is not None:
                assert got.tolist() == want.tolist(), values
    assert card_ids(pa.array(["JH", None, "9C"]).dictionary_encode(), fast).tolist()[1] == -1
    assert card_ids(pa.array(["JH", "XX"]).dictionary_encode(), fast) is None
