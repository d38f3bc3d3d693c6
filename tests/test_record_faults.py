"""Malformed records for every reader (issue 33): one line naming the record, exit 2, no traceback, nothing written.

Valid records come from the tool itself: a small Euchre ``simulate
--records`` run, JSONL and Parquet, made once per session. Hypothesis
mutates one played record field by field (a field dropped, a wrong type, a
seat out of range, plays cut short or out of turn, garbage for a card, deep
nesting) and every reader must refuse the file: ``bower replay``, ``bower solve
--records --out``, ``bower analyze`` (in-process, status 2 and exactly one
``bower: error:`` line naming the record) and ``bower.read_records`` (a
``BowerError`` with the same line). Nothing may be left in the folder but
the input. The readers share one check (``bower.sim.records_check``);
``analyze`` reads only the fields its tables need, so the mutations of each
play (a card or seat inside ``plays``, their order) are the other readers'
alone, and its plays cut short are cut inside a trick (it counts the plays).

A few subprocess runs check the real exit status and stderr of the command.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bower
from bower.sim import runner
from bower.sim.cards import CardError, parse_card
from bower.sim.cli import main
from bower.sim.records import read_meta

ROOT = Path(__file__).resolve().parent.parent
SETTINGS = dict(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
READERS = ("replay", "solve", "analyze", "read_records")
HAND = 5  # cards a Euchre seat plays


@pytest.fixture(scope="session")
def valid(tmp_path_factory):
    """(records as dicts, the Parquet schema of a record's fields) of a small Euchre run, the hands played first."""
    folder = tmp_path_factory.mktemp("valid-records")
    path = folder / "e.parquet"
    runner.simulate(variant="euchre", hands=24, seed=3, records_path=str(path))
    derived = set((read_meta(str(path)) or {}).get("derived_columns") or [])
    schema = pq.read_schema(path)
    schema = pa.schema([f for f in schema if f.name not in derived])
    recs = pq.read_table(path, columns=schema.names).to_pylist()  # the Parquet form, as a Parquet file holds it
    for r in recs:  # the JSON form: pairs' seats as numbers
        r["calls"] = [[int(s), c] for s, c in r["calls"]]
        r["plays"] = [[int(s), c] for s, c in r["plays"]]
    played = [i for i, r in enumerate(recs) if r["maker"] is not None]
    assert len(played) >= 3, "the run needs hands played"
    return recs, schema, played


def _write(folder: str, recs: list, fmt: str, schema, raw_line: tuple | None = None) -> str:
    """The records as ``folder/in.FMT``; ``raw_line``: (index, text) replaces that record's JSONL line."""
    path = os.path.join(folder, f"in.{fmt}")
    if fmt == "jsonl":
        lines = [json.dumps(r) for r in recs]
        if raw_line is not None:
            lines[raw_line[0]] = raw_line[1]
        Path(path).write_text("\n".join(lines) + "\n")
    else:
        rows = [dict(r, calls=None if r.get("calls") is None else [[str(s), c] for s, c in r["calls"]],
                     plays=None if r.get("plays") is None else [[str(s), c] for s, c in r["plays"]]) for r in recs]
        pq.write_table(pa.Table.from_pylist(rows, schema=schema), path)
    return path


def _cli(*args) -> tuple:
    """(status, stdout, stderr lines without the compile notice) of ``bower ARGS`` run in-process."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(list(args))
            code = 0
        except SystemExit as e:
            code = e.code
    lines = [ln for ln in err.getvalue().splitlines() if not ln.startswith("bower: compiling")]
    return code, out.getvalue(), lines


def refused(reader: str, path: str, folder: str, index: int) -> str:
    """Run ``reader`` on ``path``: assert it refused the file in one line naming record ``index``; the line."""
    if reader == "read_records":
        with pytest.raises(bower.BowerError) as e:
            bower.read_records(path)
        line = "bower: error: " + e.value.format_message()
        assert "\n" not in line
    else:
        args = {"replay": ["replay", path], "analyze": ["analyze", path],
                "solve": ["solve", "--records", path, "--out", os.path.join(folder, "out.jsonl")]}[reader]
        code, out, lines = _cli(*args)
        assert code == 2, (code, lines)
        assert len(lines) == 1 and lines[0].startswith("bower: error: "), lines
        assert "Traceback" not in lines[0]
        line = lines[0]
        if reader != "replay":  # replay prints the hands before the bad one, as it goes
            assert out == ""
    assert f"record {index}" in line, line
    assert sorted(os.listdir(folder)) == [os.path.basename(path)], os.listdir(folder)
    return line


# ---------------------------------------------------------------- mutations

def _not_card(text: str) -> bool:
    try:
        parse_card(text)
    except (CardError, AttributeError):
        return True
    return False


GARBAGE = st.text(max_size=6).filter(_not_card)
NOT_A_SEAT = st.one_of(
    st.integers(min_value=4, max_value=10 ** 30), st.integers(max_value=-1, min_value=-10 ** 30),
    st.floats(allow_nan=False),
    st.sampled_from([True, False, "²", "x", "", [], {}, [0], 1.5, float("inf")]))
WRONG_TYPE = st.one_of(st.integers(-3, 3), st.booleans(), GARBAGE.filter(lambda t: t.strip() not in "CSDH"),
                       st.floats(allow_nan=False),
                       st.dictionaries(st.sampled_from("abc"), st.integers(), min_size=1, max_size=2))


@st.composite
def mutation(draw, valid, fmt: str, reader: str):
    """(records mutated, index of the bad record, a raw JSONL line or None, what was done) for ``reader``."""
    recs, _, played = valid
    recs = copy.deepcopy(recs)
    i = draw(st.sampled_from(played))
    r = recs[i]
    kinds = ["drop", "type", "seat", "cut", "garbage", "null"] if fmt == "parquet" else \
        ["drop", "type", "seat", "cut", "garbage", "deep", "text"]
    if fmt == "parquet":
        kinds.remove("drop")  # a Parquet row has every column: a dropped field is a null one
        kinds.remove("type")  # and every value is of its column's type
    if reader != "analyze":
        kinds += ["play", "order"]
    kind = draw(st.sampled_from(kinds))
    raw = None
    if kind == "drop":
        # a typed-in record may leave out 'deal' (replay then takes the hands from the plays)
        name = draw(st.sampled_from(["variant", "dealer", "maker", "plays", "alone"] + ["deal"] * (reader != "replay")))
        del r[name]
    elif kind == "null":
        name = draw(st.sampled_from(["variant", "dealer", "calls", "plays", "alone", "deal"]))
        r[name] = None
    elif kind == "type":
        name = draw(st.sampled_from(["dealer", "maker", "alone", "plays", "calls", "deal", "trump", "points"]))
        value = draw(WRONG_TYPE)
        if name in ("dealer", "maker") and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 4:
            value = value + 4
        r[name] = value
    elif kind == "seat":
        name = draw(st.sampled_from(["dealer", "maker"]))
        r[name] = draw(NOT_A_SEAT) if fmt == "jsonl" else draw(st.integers(4, 2 ** 62) | st.integers(-2 ** 62, -1))
    elif kind == "cut":
        n = len(r["plays"])
        cuts = [k for k in range(n) if reader != "analyze" or k % HAND]
        r["plays"] = r["plays"][:draw(st.sampled_from(cuts))]
    elif kind == "garbage":
        where = draw(st.sampled_from(["deal", "kitty", "trump"]))
        bad = draw(GARBAGE)
        if where == "deal":
            seat = draw(st.sampled_from(sorted(r["deal"])))
            r["deal"][seat][draw(st.integers(0, HAND - 1))] = bad
        elif where == "kitty":
            r["kitty"][draw(st.integers(0, len(r["kitty"]) - 1))] = bad
        else:
            suits = ("C", "S", "D", "H", "♣", "♠", "♦", "♥")
            r["trump"] = draw(GARBAGE.filter(lambda t: t.strip().upper() not in suits))
    elif kind == "play":
        k = draw(st.integers(0, len(r["plays"]) - 1))
        seat, card = r["plays"][k]
        if fmt == "parquet" or draw(st.booleans()):
            r["plays"][k] = [seat, draw(GARBAGE)]
        else:
            r["plays"][k] = draw(st.sampled_from([[seat, 12], [True, card], [seat], [9, card], ["²", card], card]))
    elif kind == "order":  # every card played, but not in turn
        r["plays"] = list(reversed(r["plays"]))
    elif kind == "deep":  # written as text (a value this deep is not for printing)
        name = draw(st.sampled_from(["dealer", "maker", "deal", "plays", "calls", "points", "alone"]))
        depth = draw(st.integers(40, 3000))
        raw = json.dumps(dict(r, **{name: "DEEP"})).replace('"DEEP"', "[" * depth + "]" * depth)
    elif kind == "text":
        raw = draw(st.sampled_from(["[1, 2]", '"a string"', "{not json", "[" * 5000 + "]" * 5000, "null"]))
    return recs, i, raw, kind


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
@pytest.mark.parametrize("reader", READERS)
def test_a_mutated_record_is_refused_by_every_reader(valid, reader, fmt):
    @settings(max_examples=20, **SETTINGS)
    @given(m=mutation(valid, fmt, reader))
    def check(m):
        recs, i, raw, kind = m
        with tempfile.TemporaryDirectory() as folder:
            path = _write(folder, recs, fmt, valid[1], None if raw is None else (i, raw))
            refused(reader, path, folder, i)

    check()


@pytest.mark.parametrize("reader", READERS)
def test_the_valid_records_are_read(valid, reader, tmp_path):
    # the mutations above are what the readers refuse: the same records unmutated are read
    recs, schema, _ = valid
    path = _write(str(tmp_path), recs, "jsonl", schema)
    if reader == "read_records":
        assert len(bower.read_records(path)) == len(recs)
        return
    args = ["solve", "--records", path, "--out", str(tmp_path / "o.jsonl")] if reader == "solve" else [reader, path]
    code, _, lines = _cli(*args)
    assert code == 0, lines


# ---------------------------------------------------------------- the issue's cases, one by one

def _played(valid) -> tuple[list, int]:
    recs, _, played = valid
    return copy.deepcopy(recs), played[1]


CASES = {
    "seat 1e400": lambda r: r.__setitem__("dealer", "1e400 raw"),
    "seat ²": lambda r: r.__setitem__("maker", "²"),
    "a card given as a number": lambda r: r["plays"].__setitem__(2, [r["plays"][2][0], 12]),
    "alone 5": lambda r: r.__setitem__("alone", 5),
    "a bad points key": lambda r: r.__setitem__("points", {"x": 1, "1": 0}),
    "plays cut short": lambda r: r.__setitem__("plays", r["plays"][:HAND + 2]),
    "no plays, dd null": lambda r: (r.pop("plays"), r.__setitem__("dd", None)),
    "null calls": lambda r: r.__setitem__("calls", None),
}


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_cases_of_the_issue(valid, reader, case, tmp_path):
    if reader == "analyze" and case == "a card given as a number":
        pytest.skip("analyze does not read the cards of the plays (it counts them)")
    recs, i = _played(valid)
    CASES[case](recs[i])
    path = _write(str(tmp_path), recs, "jsonl", valid[1])
    if recs[i].get("dealer") == "1e400 raw":  # a number too big for a float, as JSON text
        text = Path(path).read_text().replace('"1e400 raw"', "1e400")
        Path(path).write_text(text)
    line = refused(reader, path, str(tmp_path), i)
    assert "(line " in line


@pytest.mark.parametrize("reader", READERS)
def test_plays_cut_short_are_refused_by_solve_as_by_replay(valid, reader, tmp_path):
    # the maker's side took its tricks, the plays stop after two tricks: not a shorter hand to solve
    recs, i = _played(valid)
    recs[i]["plays"] = recs[i]["plays"][:2 * 4]
    path = _write(str(tmp_path), recs, "jsonl", valid[1])
    line = refused(reader, path, str(tmp_path), i)
    assert "plays" in line


@pytest.mark.parametrize("reader", READERS)
def test_a_file_that_is_not_records(valid, reader, tmp_path):
    cases = {"empty.jsonl": b"", "latin1.jsonl": json.dumps(valid[0][0]).encode() + b"\n" + b"\xe9t\xe9\n",
             "deep.jsonl": json.dumps(valid[0][0]).encode() + b"\n" + b"[" * 100000 + b"]" * 100000 + b"\n"}
    for name, data in cases.items():
        folder = tmp_path / name.split(".")[0]
        folder.mkdir()
        (folder / name).write_bytes(data)
        if reader == "read_records":
            with pytest.raises(bower.BowerError) as e:
                bower.read_records(str(folder / name))
            line = e.value.format_message()
        else:
            args = [reader, str(folder / name)] if reader != "solve" else \
                ["solve", "--records", str(folder / name), "--out", str(folder / "out.jsonl")]
            code, _, lines = _cli(*args)
            assert code == 2 and len(lines) == 1, lines
            line = lines[0]
        assert str(folder / name) in line
        assert ("holds no records" in line) if name == "empty.jsonl" else ("record 1 (line 2)" in line), line
        assert os.listdir(folder) == [name]


@pytest.mark.parametrize("reader", READERS)
def test_a_parquet_file_that_is_not_records(reader, tmp_path):
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"a": [1, 2]}), path)
    if reader == "read_records":
        with pytest.raises(bower.BowerError, match="record 0"):
            bower.read_records(str(path))
    else:
        args = [reader, str(path)] if reader != "solve" else ["solve", "--records", str(path), "--out",
                                                                str(tmp_path / "o.jsonl")]
        code, _, lines = _cli(*args)
        assert code == 2 and len(lines) == 1 and "record 0" in lines[0], lines
    assert os.listdir(tmp_path) == ["t.parquet"]


# ---------------------------------------------------------------- the library's arguments

@pytest.mark.parametrize("call, words", [
    (lambda: bower.replay(123), "records= must be a file path"),
    (lambda: bower.replay("x.jsonl", dd="yes"), "dd= must be True or False"),
    (lambda: bower.read_records(None), "path= must be a file path"),
    (lambda: bower.read_records("x.jsonl", batch_size="10"), "batch_size= must be a whole number"),
    (lambda: bower.read_records("x.jsonl", columns="dealer"), "columns= must be a list of strings"),
    (lambda: bower.solve_records("x.jsonl", 5), "out= must be a file path"),
    (lambda: bower.solve("0:JH", variant=None), "variant= must be a string"),
    (lambda: bower.solve("0:JH", variant="euchre", trump="H", maker="0"), "maker= must be a whole number"),
    (lambda: bower.solve("0:JH", variant="euchre", trump="H", maker=0, plays=123), "plays= must be"),
    (lambda: bower.solve(5), "deal= must be"),
    (lambda: bower.simulate(rules="swap=none"), "rules= must be a dict"),
    (lambda: bower.simulate(variant=None), "variant= must be a string"),
    (lambda: bower.experiment(None), "strategies= must be a list"),
    (lambda: bower.strategies(None), "variant= must be a string"),
    (lambda: bower.analyze(3), "path= must be a file path"),
])
def test_a_wrongly_typed_argument_is_a_bower_error(call, words):
    with pytest.raises(bower.BowerError) as e:
        call()
    assert words in e.value.format_message()
    assert "\n" not in e.value.format_message()


def test_read_records_columns_are_fields(valid, tmp_path):
    path = _write(str(tmp_path), valid[0], "jsonl", valid[1])
    assert list(bower.read_records(path, columns=["dealer", "maker"]).columns) == ["dealer", "maker"]
    with pytest.raises(bower.BowerError, match="'nope' is not a field"):
        bower.read_records(path, columns=["nope"])


# ---------------------------------------------------------------- the real command

@pytest.mark.parametrize("command", [["replay"], ["solve", "--records"], ["analyze"]])
def test_the_command_exits_2_with_one_line(valid, command, tmp_path):
    recs, i = _played(valid)
    recs[i]["dealer"] = "²"
    path = _write(str(tmp_path), recs, "jsonl", valid[1])
    args = [*command, path] + (["--out", str(tmp_path / "o.parquet")] if command[0] == "solve" else [])
    p = subprocess.run([sys.executable, "-c", "from bower.sim.cli import main; main()", *args],
                       capture_output=True, text=True, timeout=600, cwd=ROOT)
    err = [ln for ln in p.stderr.splitlines() if not ln.startswith("bower: compiling")]
    assert p.returncode == 2, p.stderr
    assert err == [f"bower: error: {path}: record {i} (line {i + 1}): field 'dealer' is '²', not a seat (0..3)"] \
        or (command[0] == "analyze" and len(err) == 1 and f"record {i} (line {i + 1}): field 'dealer'" in err[0]), err
    assert os.listdir(tmp_path) == ["in.jsonl"]
