"""``bower analyze`` streaming: the same tables as the records read whole, bad records named, the recorded strategy.

The reference twin is the path analyze took before (``Variant.analysis_tables``
over every record as a dict, ``bower.analysis.dd.dd_tables``); the streaming path
(``bower.analysis.stream``: DuckDB for Parquet, batches folded) must give the same
tables on the same records, counts exactly and rates and means to 1e-12, in
batches small enough that every table folds several.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

import bower
from bower.analysis import dd, stream
from bower.sim import runner
from bower.sim.records import RecordsError, read_records
from bower.sim.strategy import load_strategy
from bower.sim.variants import get_variant
from tests.cli_run import one_error, run

CASES = [
    ("ghost", None, "default"),
    ("ghost", {"auction": "until_passes", "stick_the_dealer": True, "moon_set_penalty": 24}, "random"),
    ("cutthroat", None, "default"),
    ("cutthroat", {"dealer_pickup": "mandatory", "stick_the_dealer": True}, "random"),
    ("hasenpfeffer", None, "default"),
    ("hasenpfeffer", {"bidding": "pepper", "widow": "dead"}, "random"),
    ("euchre", None, "default"),
    ("euchre", {"stick_the_dealer": True, "allow_lone_defender": True}, "aggressive"),
]


def assert_same_tables(new: dict, old: dict) -> None:
    """Same tables, same columns and types; ints exactly, floats to 1e-12 (relative, and absolute near 0)."""
    assert list(new) == list(old)
    for name in old:
        a, b = new[name].reset_index(drop=True), old[name].reset_index(drop=True)
        assert list(a.columns) == list(b.columns), name
        assert a.dtypes.tolist() == b.dtypes.tolist(), name
        for col in b.columns:
            x, y = a[col], b[col]
            if pd.api.types.is_float_dtype(y):
                np.testing.assert_allclose(x.to_numpy(float), y.to_numpy(float), rtol=1e-12, atol=1e-12,
                                           equal_nan=True, err_msg=f"{name}.{col}")
            else:
                assert x.tolist() == y.tolist(), f"{name}.{col}"


def _records(tmp_path, variant, rules, strategy, ext, hands=9000, seed=4):
    path = tmp_path / f"r.{ext}"
    runner.simulate(variant=variant, hands=hands, seed=seed, rules=rules, strategy=strategy, records_path=str(path))
    return path


_WHOLE: dict = {}


def _whole_tables(path, variant, rules, strategy) -> tuple:
    """(tables, shown, hands played) of the whole records of a case, as analyze made them before streaming
    (``Variant.analysis_tables`` over every record read as a dict): made once a case, from the first of its two
    files read (the JSONL file and the Parquet file hold the same hands, seed 4: either file's streamed tables must
    equal them). Reading every record is most of the test's time."""
    key = (variant, repr(rules), strategy)
    if key not in _WHOLE:
        v = get_variant(variant)
        recs = read_records(str(path))
        _WHOLE[key] = (*v.analysis_tables(recs, load_strategy(strategy, v)[1]), sum(dd.is_played(v, r) for r in recs))
    return _WHOLE[key]


@pytest.mark.parametrize("ext", ["parquet", "jsonl"])
@pytest.mark.parametrize("variant, rules, strategy", CASES, ids=lambda x: str(x))
def test_streamed_tables_equal_the_whole_records_tables(tmp_path, variant, rules, strategy, ext):
    path = _records(tmp_path, variant, rules, strategy, ext)
    v = get_variant(variant)
    params = load_strategy(strategy, v)[1]
    old, old_shown, played = _whole_tables(path, variant, rules, strategy)
    info = stream.open_records(str(path))
    new = stream.analyze(str(path), info, params, batch=1000)
    assert new["shown"] == old_shown
    assert_same_tables(new["tables"], old)
    assert new["hands"] == 9000
    assert new["played"] == played
    # one batch or many, the same
    whole = stream.analyze(str(path), info, params)
    assert_same_tables(whole["tables"], new["tables"])


@pytest.mark.parametrize("variant", ["ghost", "cutthroat", "hasenpfeffer", "euchre"])
def test_streamed_dd_tables_equal_the_whole_records_tables(tmp_path, variant, capsys):
    raw = _records(tmp_path, variant, None, "default", "parquet", hands=700, seed=2)
    solved = tmp_path / "dd.parquet"
    code, _, err = run(capsys, "solve", "--records", str(raw), "--out", str(solved), "--threads", "1")
    assert code == 0, err
    v = get_variant(variant)
    params = load_strategy("default", v)[1]
    recs = read_records(str(solved))
    want = dd.dd_tables(v, recs)
    new = stream.analyze(str(solved), stream.open_records(str(solved)), params, batch=100)
    assert_same_tables({k: new["tables"][k] for k in dd.TABLES}, want)
    assert new["with_dd"] == new["played"] == sum(dd.is_played(v, r) for r in recs) and new["missing"] == 0
    fly = stream.analyze(str(raw), stream.open_records(str(raw)), params, solve_dd=True)
    assert fly["solved"] == new["played"]
    assert_same_tables({k: fly["tables"][k] for k in dd.TABLES}, want)


def test_the_cli_json_is_unchanged_in_form(capsys, tmp_path):
    path = _records(tmp_path, "ghost", None, "aggressive", "parquet", hands=3000)
    code, out, err = run(capsys, "analyze", str(path), "--json")
    assert code == 0 and "note" not in err  # the recorded strategy is used: no note
    r = json.loads(out)
    assert set(r) == {"records", "variant", "rules_version", "hands", "played", "dd", "strategy", "tables", "written"}
    assert r["strategy"] == {"name": "aggressive", "from": "records"}
    v = get_variant("ghost")
    old, _ = v.analysis_tables(read_records(str(path)), v.presets["aggressive"])
    want = {k: json.loads(df.to_json(orient="records", double_precision=15)) for k, df in old.items()}
    assert list(r["tables"]) == list(want)
    for name, rows in want.items():
        assert [list(row) for row in r["tables"][name]] == [list(row) for row in rows], name
        for got, row in zip(r["tables"][name], rows):
            for key, x in row.items():
                assert type(got[key]) is type(x), (name, key)
                if isinstance(x, (int, float)) and not isinstance(x, bool):
                    assert got[key] == pytest.approx(x, rel=1e-12, abs=1e-12), (name, key)
                else:  # labels, flags, missing cells: exactly
                    assert got[key] == x, (name, key)


def test_the_recorded_strategy_and_the_overriding_one(capsys, tmp_path):
    path = _records(tmp_path, "cutthroat", None, "aggressive", "jsonl", hands=2000)
    v = get_variant("cutthroat")
    code, out, err = run(capsys, "analyze", str(path), "--json", "--strategy", "cautious")
    assert code == 0
    assert err == ("bower: note: --strategy cautious overrides the strategy the records were made with (aggressive): "
                   "the trick estimates are cautious's\n")
    r = json.loads(out)
    assert r["strategy"] == {"name": "cautious", "from": "--strategy"}
    old, _ = v.analysis_tables(read_records(str(path)), v.presets["cautious"])
    assert r["tables"]["dummy_value"] == json.loads(old["dummy_value"].to_json(orient="records", double_precision=15))
    # without the sidecar the file does not say: default, with a note
    (tmp_path / "r.jsonl.meta.json").unlink()
    code, out, err = run(capsys, "analyze", str(path), "--json")
    assert code == 0 and "does not say which strategy made it" in err
    assert json.loads(out)["strategy"] == {"name": "default", "from": "default"}


def test_seats_of_different_strategies(capsys, tmp_path):
    path = tmp_path / "r.parquet"
    runner.simulate(hands=1000, seed=1, strategy=["cautious", "random", "default"], records_path=str(path))
    code, out, err = run(capsys, "analyze", str(path), "--json")
    assert code == 0 and "seats played different strategies (cautious/random/default)" in err
    assert json.loads(out)["strategy"] == {"name": "cautious", "from": "records"}


# ---------------------------------------------------------------- records that are not what they claim


def _rewrite(src, dst, edit, ext):
    """Records of ``src`` with ``edit(records)`` applied, written to ``dst`` (JSONL as text, Parquet as its columns)."""
    recs = read_records(str(src))
    edit(recs)
    if ext == "jsonl":
        dst.write_text("".join(json.dumps(r) + "\n" for r in recs))
    else:
        import pyarrow as pa
        import pyarrow.parquet as pq

        for r in recs:
            r["calls"] = [[str(s), c] for s, c in r["calls"]]
            r["plays"] = [[str(s), c] for s, c in r["plays"]]
        pq.write_table(pa.Table.from_pylist(recs), dst)


def _set(path, value):
    def edit(recs):
        r = recs[path[0]]
        for k in path[1:-1]:
            r = r[k]
        r[path[-1]] = value(r[path[-1]]) if callable(value) else value
    return edit


BAD = [
    ("malformed card", (5, "deal", "1"), lambda cards: ["XZ", *cards[1:]], "record 5: field 'deal.1' holds 'XZ', not a card"),
    ("lower-case card", (6, "deal", "0"), lambda cards: [cards[0].lower(), *cards[1:]], "record 6: field 'deal.0' holds"),
    ("wrong hand size", (7, "deal", "2"), lambda cards: cards[:-1], "record 7: field 'deal.2' has 5 cards, not 6"),
    ("card twice in a hand", (8, "deal", "0"), lambda cards: [cards[0], cards[0], *cards[2:]],
     "record 8: field 'deal.0' holds "),
    ("card twice in the deal", (9, "deal", "ghost"), None, "a card twice in the deal"),
    ("dealer out of range", (10, "dealer"), 3, "record 10: field 'dealer' is 3, not a seat (0 to 2)"),
    ("negative dealer", (11, "dealer"), -1, "record 11: field 'dealer' is -1, not a seat (0 to 2)"),
    ("non-numeric tricks", (12, "tricks", "1"), "x", "record 12: field 'tricks.1' is 'x', not a number"),
    ("missing field", (13, "points"), None, "record 13: field 'points.0' is missing"),
    ("maker out of range", (14, "maker"), 7, "record 14: field 'maker' is 7, not a seat (0 to 2)"),
    ("bad trump", (15, "trump"), "X", "record 15: field 'trump' is 'X', not one of C, S, D, H"),
]


@pytest.mark.parametrize("ext", ["jsonl", "parquet"])
@pytest.mark.parametrize("what, where, value, words", BAD, ids=[b[0] for b in BAD])
def test_a_record_that_is_not_what_it_claims_is_named(capsys, tmp_path, what, where, value, words, ext):
    src = _records(tmp_path, "ghost", None, "default", "jsonl", hands=40)
    recs = read_records(str(src))
    if what == "card twice in the deal":
        def edit(rs):
            rs[9]["deal"]["ghost"][0] = rs[9]["deal"]["0"][0]
    elif what == "missing field":
        def edit(rs):
            if ext == "jsonl":
                del rs[13]["points"]
            else:
                rs[13]["points"] = None
    elif what == "non-numeric tricks" and ext == "parquet":
        def edit(rs):  # a Parquet column holds one type: strings then, and the first record's is not a number
            for r in rs:
                r["tricks"] = {k: str(x) for k, x in r["tricks"].items()}
        words = f"record 0: field 'tricks.0' is '{recs[0]['tricks']['0']}', not a number"
    else:
        edit = _set(where, value)
    assert recs  # the file is there
    bad = tmp_path / f"bad.{ext}"
    _rewrite(src, bad, edit, ext)
    line = one_error(capsys, "analyze", str(bad))
    if ext == "jsonl":  # a JSONL record is named with its line too
        words = words.replace(f"record {where[0]}:", f"record {where[0]} (line {where[0] + 1}):")
    assert line.startswith(f"bower: error: {bad}: ") and words in line, line


def test_one_variant_per_file(capsys, tmp_path):
    src = _records(tmp_path, "ghost", None, "default", "jsonl", hands=30)
    lines = src.read_text().splitlines(keepends=True)
    other = _records(tmp_path / "..", "ghost", None, "default", "jsonl", hands=1)
    assert other
    rec = json.loads(lines[20])
    rec["variant"] = "cutthroat"
    lines[20] = json.dumps(rec) + "\n"
    src.write_text("".join(lines))
    assert one_error(capsys, "analyze", str(src)) == (
        f"bower: error: {src}: record 20 (line 21) is variant 'cutthroat', record 0 'ghost'; one variant per file")


def test_bad_metadata_is_named(capsys, tmp_path):
    src = _records(tmp_path, "ghost", None, "default", "jsonl", hands=30)
    side = tmp_path / "r.jsonl.meta.json"
    meta = json.loads(side.read_text())
    meta["seats"][0]["params"]["no_such_parameter"] = 1.0
    side.write_text(json.dumps(meta))
    line = one_error(capsys, "analyze", str(src))
    assert "the strategy its metadata records is not a ghost strategy" in line
    side.write_text("{")
    assert one_error(capsys, "analyze", str(src)) == f"bower: error: {side} is not JSON"
    assert run(capsys, "analyze", str(src), "--strategy", "default")[0] == 2  # the metadata is read first


def test_open_records_refuses_what_is_not_records(tmp_path):
    for name, data, words in (("a.jsonl", "", "holds no records"), ("b.jsonl", '{"x": 1}\n', "not a bower hand record"),
                              ("c.parquet", "not parquet", "cannot read records"), ("d.txt", "", ".jsonl or .parquet")):
        p = tmp_path / name
        p.write_text(data)
        with pytest.raises(RecordsError, match=words):
            stream.open_records(str(p))
    with pytest.raises(RecordsError, match="no records file"):
        stream.open_records(str(tmp_path / "missing.parquet"))


@pytest.mark.parametrize("path, value, words", [
    ((10, "dealer"), True, "record 10 (line 11): field 'dealer' is True, not a number"),
    ((12, "tricks", "0"), 1.5, "record 12 (line 13): field 'tricks.0' is 1.5, not a number"),
    ((13, "points", "2"), "3", "record 13 (line 14): field 'points.2' is '3', not a number"),
    ((14, "deal", "1"), "JH QH", "record 14 (line 15): field 'deal.1'"),
])
def test_json_values_are_not_taken_for_numbers(capsys, tmp_path, path, value, words):
    # the fast JSON reader would turn true into 1 and 1.5 into 2: each is refused, named, as the line reader would
    src = _records(tmp_path, "ghost", None, "default", "jsonl", hands=40)
    bad = tmp_path / "bad.jsonl"
    _rewrite(src, bad, _set(path, value), "jsonl")
    line = one_error(capsys, "analyze", str(bad))
    assert line.startswith(f"bower: error: {bad}: ") and words in line, line


def test_a_blank_line_and_a_byte_order_mark_are_not_records(capsys, tmp_path):
    src = _records(tmp_path, "ghost", None, "default", "jsonl", hands=300)
    lines = src.read_text().splitlines(keepends=True)
    edited = tmp_path / "e.jsonl"
    edited.write_bytes(b"\xef\xbb\xbf" + "".join(lines[:100] + ["\n", "  \n"] + lines[100:]).encode())
    a = json.loads(run(capsys, "analyze", str(src), "--json")[1])
    b = json.loads(run(capsys, "analyze", str(edited), "--json", "--strategy", "default")[1])
    assert a["tables"] == b["tables"] and b["hands"] == 300
    rec = json.loads(lines[150])
    rec["dealer"] = 5
    edited.write_text("".join(lines[:100] + ["\n"] + lines[100:150] + [json.dumps(rec) + "\n"] + lines[151:]))
    assert one_error(capsys, "analyze", str(edited)) == (
        f"bower: error: {edited}: record 150 (line 152): field 'dealer' is 5, not a seat (0 to 2)")


@pytest.mark.parametrize("ext", ["jsonl", "parquet"])
def test_calls_that_are_not_calls_are_named(capsys, tmp_path, ext):
    # Cutthroat's tables read the calls (the round a maker took trump in): a seat or a call that is not one is named,
    # in the words of the check every reader shares (replay, solve and read_records say the same)
    src = _records(tmp_path, "cutthroat", None, "default", "jsonl", hands=40)
    for value, words in (([[0, "pass"], ["x", "pass"]], "entry 1 names seat 'x', not a seat (0..2)"),
                         ([[0, "pass"], [1, "bid"]],
                          "holds ['1', 'bid']: 'bid' is not one of pass, order, assist, take, C, S, D, H")):
        bad = tmp_path / f"bad.{ext}"
        _rewrite(src, bad, _set((7, "calls"), value), ext)
        line = one_error(capsys, "analyze", str(bad))
        at = " (line 8)" if ext == "jsonl" else ""
        assert line == f"bower: error: {bad}: record 7{at}: field 'calls' {words}", line
        with pytest.raises(bower.BowerError) as e:
            bower.read_records(str(bad))
        assert f"bower: error: {e.value.format_message()}" == line


def test_duckdb_readers_share_one_database_each_with_its_own_connection(tmp_path):
    """``duck_batches`` opens DuckDB's database once a process for the same settings; two readings open at once
    (each on its own cursor) give the batches each gives alone; the database is closed before ``os.fork``."""
    path = tmp_path / "r.parquet"
    runner.simulate(variant="ghost", hands=3000, seed=2, records_path=str(path))
    fields = [stream.Field(("dealer",), "seat"), stream.Field(("plays",), "count")]

    def alone() -> list:
        return [(start, cols["dealer"].to_pylist(), cols["plays"].to_pylist())
                for start, cols in stream.duck_batches(str(path), "parquet", fields, threads=1, batch=1000)]

    want = alone()
    assert [w[0] for w in want] == [0, 1000, 2000] and sum(len(w[1]) for w in want) == 3000
    key = next(k for k in stream._DUCK if dict(k)["threads"] == 1 and dict(k)["memory_limit"] == stream.DUCKDB_MEMORY)
    root = stream._DUCK[key]
    a = stream.duck_batches(str(path), "parquet", fields, threads=1, batch=1000)
    b = stream.duck_batches(str(path), "parquet", fields, threads=1, batch=1000)
    got_a, got_b = [], []
    for (sa, ca), (sb, cb) in zip(a, b):  # (interleaved: one reading's batch, then the other's)
        got_a.append((sa, ca["dealer"].to_pylist(), ca["plays"].to_pylist()))
        got_b.append((sb, cb["dealer"].to_pylist(), cb["plays"].to_pylist()))
    assert got_a == want and got_b == want
    assert stream._DUCK[key] is root  # the same database, not one a reading
    stream._duck_before_fork()  # (what os.fork runs first)
    assert key not in stream._DUCK
    assert alone() == want and key in stream._DUCK  # opened again on the next reading
    lock = stream._DUCK_LOCK
    stream._duck_after_fork()  # (what a forked child runs: a lock of its own)
    assert stream._DUCK_LOCK is not lock and not stream._DUCK_LOCK.locked()
