"""Malformed records for every reader (issue 33): one line naming the record, exit 2, no traceback, nothing written.

Valid records come from the tool itself: a small Euchre ``simulate
--records`` run, JSONL and Parquet, made once per session. Hypothesis
mutates one played record field by field (a field dropped, a wrong type, a
seat out of range, plays cut short or out of turn, garbage for a card, deep
nesting) and every reader must refuse the file: ``bower replay``, ``bower solve
--records --out``, ``bower analyze`` (in-process, status 2 and exactly one
``bower: error:`` line naming the record) and ``bower.read_records`` (a
``BowerError`` with the same line). Nothing may be left in the folder but
the input. The readers share one check (``bower.sim.records_check``):
``analyze`` reads only the fields its tables need, then that check reads
every play of every record, so every mutation (a card or seat inside
``plays``, their order, plays cut at any point) is put to every reader.

A few subprocess runs check the real exit status and stderr of the command.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import pickle
import shutil
import subprocess
import sys
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


def _copy(recs):
    """A deep copy of records (plain JSON data), as ``copy.deepcopy`` makes it, in a fraction of its time."""
    return pickle.loads(pickle.dumps(recs, pickle.HIGHEST_PROTOCOL))


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


# text near a card and far from one: ranks, suits and digits in both cases, spaces, quotes, controls, suit symbols,
# characters whose case changes their length or that look like others (a prepared alphabet: ``st.text()``'s own
# builds Unicode tables on first use, seconds in a clean checkout, in each test process)
ALPHABET = ("TJQKACSDH" "tjqkacsdh" "0123456789" " \t\n" "\"\\,:[]{}" "xZ_-"
            "\x00\x7f\u00a0\u200b\u0301" "\u2663\u2660\u2666\u2665\u2667\u2664"
            "\u00e9\u00b2\u00df\u0130\ufb00\uff2a\U0001f0a1")
GARBAGE = st.text(alphabet=ALPHABET, max_size=6).filter(_not_card)
NOT_A_SEAT = st.one_of(
    st.integers(min_value=4, max_value=10 ** 30), st.integers(max_value=-1, min_value=-10 ** 30),
    st.floats(allow_nan=False),
    st.sampled_from([True, False, "²", "x", "", [], {}, [0], 1.5, float("inf")]))
WRONG_TYPE = st.one_of(st.integers(-3, 3), st.booleans(), GARBAGE.filter(lambda t: t.strip() not in "CSDH"),
                       st.floats(allow_nan=False),
                       st.dictionaries(st.sampled_from("abc"), st.integers(), min_size=1, max_size=2))


PLAY_KINDS = ("play", "order", "twice", "not held", "out of turn", "play seat")  # faults inside 'plays'
KINDS = {"jsonl": ("drop", "type", "seat", "cut", "garbage", "deep", "text", "dd", "call", "auction", *PLAY_KINDS),
         # a Parquet row has every column (a dropped field is a null one), every value of its column's type
         "parquet": ("seat", "cut", "garbage", "null", "dd", "call", "auction", *PLAY_KINDS)}
EUCHRE_CALLS = ("pass", "order", "C", "S", "D", "H")  # the call names Euchre's records hold (RULES.md)
MOST_CALLS = 8  # the most calls of a Euchre auction: two rounds of four
# names near a call and far from one: another variant's calls, other cases, spaces, a card, garbage
NOT_A_CALL = st.one_of(st.sampled_from(["nonsense", "Pass", "ORDER", "order ", " C", "c", "♣", "alone", "3", "moon",
                                        "assist", "take", "little-pepper", "JH", ""]),
                       GARBAGE.filter(lambda t: t not in EUCHRE_CALLS))

# a record's ``dd`` object spoiled (``bower solve --records`` writes {"tricks": n, "table": {suit: n}}, n 0..5 in
# Euchre): numbers of tricks out of range, a key that is no suit, values of another type, ``tricks`` missing, a key
# it does not have; in Parquet, of the column's own type (``solve.dd_arrow_type``)
NOT_TRICKS = st.integers(-2 ** 63, 2 ** 63 - 1).filter(lambda x: not 0 <= x <= HAND)
SUIT = st.sampled_from("CSDH")
DD_BAD = {
    "jsonl": st.one_of(
        WRONG_TYPE, st.lists(st.integers(0, 5), max_size=2),
        st.builds(lambda t: {"tricks": t}, st.integers().filter(lambda x: not 0 <= x <= HAND)),
        st.builds(lambda t: {"tricks": t, "table": {}},
                  st.one_of(st.booleans(), st.floats(allow_nan=False), GARBAGE, st.none(), st.just([3]))),
        st.builds(lambda k: {"tricks": 3, "table": {k: 2}}, GARBAGE.filter(lambda k: k not in ("C", "S", "D", "H"))),
        st.builds(lambda k, x: {"tricks": 3, "table": {k: x}}, SUIT,
                  st.one_of(st.integers().filter(lambda x: not 0 <= x <= HAND), st.booleans(), GARBAGE,
                            st.floats(allow_nan=False))),
        st.builds(lambda t: {"tricks": 3, "table": t}, st.one_of(st.integers(), GARBAGE.filter(bool),
                                                                 st.lists(st.integers(0, 5), min_size=1))),
        st.builds(lambda k: {"tricks": 3, k: 1}, st.sampled_from(["x", "Tricks", "tricks ", "dd"])),
        st.builds(lambda t: {"table": t}, st.dictionaries(SUIT, st.integers(0, 5), max_size=4))),
    "parquet": st.one_of(
        st.builds(lambda t: {"tricks": t, "table": None}, NOT_TRICKS),
        st.builds(lambda k, x: {"tricks": 3, "table": {k: x}}, SUIT, NOT_TRICKS),
        st.builds(lambda t: {"tricks": None, "table": t}, st.none() | st.dictionaries(SUIT, st.integers(0, 5)))),
}


@st.composite
def mutation(draw, valid, fmt: str, reader: str, kind: str):
    """(records mutated, index of the bad record, a raw JSONL line or None, what was done) for ``reader``:
    one record's fields spoiled in the way ``kind`` says (one of ``KINDS[fmt]``)."""
    recs, _, played = valid
    i = draw(st.sampled_from(played))
    recs = list(recs)  # the others as they are: only record i is spoiled, on its own copy
    recs[i] = r = _copy(recs[i])
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
        r["plays"] = r["plays"][:draw(st.integers(0, n - 1))]
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
    elif kind in ("twice", "not held", "out of turn"):  # one play spoiled (``_spoiled``), the others as played
        k = draw(st.integers(0, len(r["plays"]) - 2))
        recs[i] = _spoiled(r, kind, k) or _spoiled(r, kind, k + 1)
    elif kind == "play seat":  # a seat not at the table, written as bower writes seats
        k = draw(st.integers(0, len(r["plays"]) - 1))
        r["plays"][k] = [draw(st.integers(4, 2 ** 62) | st.integers(-2 ** 62, -1)), r["plays"][k][1]]
    elif kind == "deep":  # written as text (a value this deep is not for printing)
        name = draw(st.sampled_from(["dealer", "maker", "deal", "plays", "calls", "points", "alone"]))
        depth = draw(st.integers(40, 3000))
        raw = json.dumps(dict(r, **{name: "DEEP"})).replace('"DEEP"', "[" * depth + "]" * depth)
    elif kind == "text":
        raw = draw(st.sampled_from(["[1, 2]", '"a string"', "{not json", "[" * 5000 + "]" * 5000, "null"]))
    elif kind == "call":  # a call no Euchre record holds, or more calls than an auction has
        if draw(st.booleans()):
            k = draw(st.integers(0, len(r["calls"]) - 1))
            r["calls"][k] = [r["calls"][k][0], draw(NOT_A_CALL)]
        else:
            r["calls"] = (r["calls"] * MOST_CALLS)[:draw(st.integers(MOST_CALLS + 1, 3 * MOST_CALLS))]
    elif kind == "auction":  # Euchre's calls, each a name it holds, one of them not legal at its turn
        calls = r["calls"]
        how = draw(st.sampled_from(["seat", "name", "after", "short"] if len(calls) > 1 else ["seat", "name", "after"]))
        k = draw(st.integers(0, len(calls) - 1))
        if how == "seat":  # another seat than the one whose turn it is
            calls[k] = [(calls[k][0] + draw(st.integers(1, 3))) % 4, calls[k][1]]
        elif how == "name":  # a suit named in round one, the up-card ordered in round two
            calls[k] = [calls[k][0], draw(st.sampled_from("CSDH")) if k < 4 else "order"]
        elif how == "after":  # a call after the auction has ended
            calls.append([(calls[-1][0] + draw(st.integers(0, 3))) % 4, draw(st.sampled_from(EUCHRE_CALLS))])
        else:  # the auction cut short
            del calls[draw(st.integers(1, len(calls) - 1)):]
    elif kind == "dd":  # every record with its dd (solved), record i's spoiled
        recs = [dict(x, dd=d) for x, d in zip(recs, _dds(valid))]
        recs[i] = dict(r, dd=draw(DD_BAD[fmt]))
    return recs, i, raw, kind


_DDS: list = []


def _dds(valid) -> list:
    """The ``dd`` object of each valid record (``bower.sim.solve.records_dd``), solved once."""
    if not _DDS:
        from bower.sim.solve import records_dd
        from bower.sim.variants import get_variant

        _DDS.extend(records_dd(get_variant("euchre"), valid[0]))
    return _DDS


def _dd_schema(schema):
    """A records schema with the ``dd`` column ``bower solve --records`` adds."""
    from bower.sim.solve import dd_arrow_type

    return schema.append(pa.field("dd", dd_arrow_type()))


@pytest.mark.parametrize("fmt, kind", [(fmt, kind) for fmt in KINDS for kind in KINDS[fmt]])
@pytest.mark.parametrize("reader", READERS)
def test_a_mutated_record_is_refused_by_every_reader(valid, reader, fmt, kind, tmp_path):
    # every kind of fault for every reader in both formats (analyze too: it reads the plays through the shared check)
    folder = str(tmp_path)  # one folder for the examples, emptied after each (``refused``: the input alone in it)

    @settings(max_examples=8, derandomize=True, **SETTINGS)
    @given(m=mutation(valid, fmt, reader, kind))
    def check(m):
        recs, i, raw, kind = m
        try:
            schema = _dd_schema(valid[1]) if kind == "dd" else valid[1]
            path = _write(folder, recs, fmt, schema, None if raw is None else (i, raw))
            line = refused(reader, path, folder, i)
            if kind in ("play", "twice", "not held", "out of turn", "play seat", "order"):
                assert "'plays'" in line, line  # every reader names the field, whatever reads it
            if kind == "dd":
                assert "field 'dd" in line, line
            if kind in ("call", "auction"):
                assert "field 'calls'" in line, line
        finally:
            _empty(folder)

    check()


def _empty(folder: str) -> None:
    """Remove everything in ``folder``, leaving it there (cheaper than a new temporary folder an example)."""
    for entry in os.scandir(folder):
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path)
        else:
            os.remove(entry.path)


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
    return _copy(recs), played[1]


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


# ---------------------------------------------------------------- every play of every record, past the first

_RUNS: dict = {}


def _run_of(variant: str, folder) -> tuple:
    """``bower simulate --variant VARIANT --records --hands 50 --seed 1`` as (JSON records, Parquet rows, schema)."""
    if variant not in _RUNS:
        runner.simulate(variant=variant, hands=50, seed=1, records_path=str(folder / "f.jsonl"))
        runner.simulate(variant=variant, hands=50, seed=1, records_path=str(folder / "f.parquet"))
        recs = [json.loads(line) for line in (folder / "f.jsonl").read_text().splitlines()]
        schema = pq.read_schema(folder / "f.parquet")
        derived = set((read_meta(str(folder / "f.parquet")) or {}).get("derived_columns") or [])
        schema = pa.schema([f for f in schema if f.name not in derived])
        rows = pq.read_table(folder / "f.parquet", columns=schema.names).to_pylist()
        assert [r["plays"] for r in recs] == [[[int(s), c] for s, c in r["plays"] or []] for r in rows]
        _RUNS[variant] = recs, rows, schema
    return _RUNS[variant]


@pytest.fixture(scope="session")
def fifty(tmp_path_factory):
    """The Ghost Hand run of ``_run_of`` (``bower simulate --records f.jsonl --hands 50 --seed 1``)."""
    run = _run_of("ghost", tmp_path_factory.mktemp("fifty"))
    assert run[0][30]["maker"] is not None, "record 30 must be a hand played"
    return run


def _spoiled(rec: dict, fault: str, k: int) -> dict | None:
    """``rec`` with play ``k`` spoiled: ``twice`` (the card of another play of the hand), ``not held`` (a card no
    seat in play held), ``out of turn`` (plays k and k + 1 of one trick swapped); None where it cannot be done."""
    r = _copy(rec)
    plays = r["plays"]
    n = len({s for s, _ in plays})
    if fault == "twice":
        plays[k] = [plays[k][0], plays[k - n if k >= n else k + n][1]]
    elif fault == "not held":
        played = {c for _, c in plays}
        plays[k] = [plays[k][0], next(c for c in (r + s for s in "CSDH" for r in "9TJQKA") if c not in played)]
    elif (k + 1) % n == 0:  # out of turn, within a trick only
        return None
    else:
        plays[k], plays[k + 1] = plays[k + 1], plays[k]
    return r


FAULTS = ("twice", "not held", "out of turn")


@pytest.mark.parametrize("variant", ["ghost", "cutthroat", "hasenpfeffer", "euchre"])
@pytest.mark.parametrize("fault", FAULTS)
def test_the_quick_check_passes_no_spoiled_play_of_any_record(tmp_path, variant, fault):
    """``FastCheck`` (built from record 0, as every reader builds it) passes every record of the run as written and
    no record with any one play spoiled, in the JSON form (``ok_many``) and the Parquet form (``ok_batch``);
    the full check refuses each such record, naming the play."""
    from bower.sim.records_check import FastCheck, RecordError, check_play, check_record

    recs, rows, schema = _run_of(variant, tmp_path)
    variant, rules, _, _ = check_record(recs[0], "record 0")
    need = tuple(sorted(variant.record_fields))
    fast = FastCheck(variant, recs[0], rules, need)
    fast_pq = FastCheck(variant, rows[0], rules, need)
    assert all(fast.ok_many(recs))  # the quick path is the one taken: a spoiled record must leave it
    assert fast_pq.ok_batch(pa.RecordBatch.from_pylist(rows, schema=schema))
    spoiled = 0
    for i, rec in enumerate(recs[1:], 1):
        for k in range(len(rec["plays"] or [])):
            bad = _spoiled(rec, fault, k)
            if bad is None:
                continue
            spoiled += 1
            assert fast.ok_many([bad]) == [False], (i, k)
            row = dict(rows[i], plays=[[str(s), c] for s, c in bad["plays"]])
            assert not fast_pq.ok_batch(pa.RecordBatch.from_pylist([rows[0], row], schema=schema)), (i, k)
            _, _, rec2, maker = check_record(bad, f"record {i}")
            with pytest.raises(RecordError, match=rf"^record {i}: field 'plays' entry \d+: "):
                check_play(variant, rec2, maker, f"record {i}")
    assert spoiled > (400 if fault == "out of turn" else 700)


def _fault_words(rec: dict, fault: str) -> tuple[int, str]:
    """The play of ``rec`` to spoil by ``fault`` (``_spoiled``), and what the readers say of it."""
    plays = rec["plays"]
    n = len({s for s, _ in plays})
    if fault == "twice":  # play n + 5 given the card of play 5
        return n + 5, f"field 'plays' entry {n + 5}: {plays[5][1]} is played twice (entries 5 and {n + 5})"
    if fault == "not held":
        bad = _spoiled(rec, fault, 5)["plays"][5]
        return 5, f"field 'plays' entry 5: seat {bad[0]} plays {bad[1]}, which it did not hold"
    s, c = plays[n + 1]  # the first two plays of trick 2 swapped
    return n, f"field 'plays' entry {n}: seat {s} plays {c} "


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
@pytest.mark.parametrize("fault", FAULTS)
@pytest.mark.parametrize("reader", ["replay", "solve", "read_records", "analyze", "analyze --dd"])
def test_record_30_spoiled_is_refused_naming_it(fifty, reader, fault, fmt, tmp_path):
    recs, _, schema = fifty
    recs = _copy(recs)
    k, words = _fault_words(recs[30], fault)
    recs[30] = _spoiled(recs[30], fault, k)
    path = _write(str(tmp_path), recs, fmt, schema)
    if reader == "analyze --dd":  # (the double-dummy tables read the plays again)
        code, out, lines = _cli("analyze", "--dd", path)
        assert (code, out) == (2, "") and len(lines) == 1, lines
        line = lines[0]
        assert os.listdir(tmp_path) == [os.path.basename(path)]
    else:
        line = refused(reader, path, str(tmp_path), 30)
    where = "record 30 (line 31)" if fmt == "jsonl" else "record 30"
    assert f"{path}: {where}: " in line and words in line, line


def test_a_renege_in_record_30_is_replayed_and_scored_not_refused(fifty, tmp_path):
    """Failing to follow suit is a fact of a recorded hand (RULES.md: a renege and its penalty), not a fault of the
    file: ``replay`` names and scores it, the other readers read the file."""
    from bower.sim.replay import replay_hand

    recs, _, schema = fifty
    recs = _copy(recs)
    rec, plays = recs[30], recs[30]["plays"]
    for a in range(len(plays)):  # a seat's two cards swapped, giving a renege and nothing else
        for b in range(a + 1, len(plays)):
            if plays[a][0] != plays[b][0]:
                continue
            r = _copy(rec)
            r["plays"][a][1], r["plays"][b][1] = plays[b][1], plays[a][1]
            try:
                reneges = replay_hand(r)["reneges"]
            except Exception:
                continue
            if reneges:
                break
        else:
            continue
        break
    else:
        pytest.fail("no swap of a seat's cards in record 30 gives a renege alone")
    recs[30] = r
    for fmt in ("jsonl", "parquet"):
        path = _write(str(tmp_path), recs, fmt, schema)
        assert len(bower.read_records(path)) == 50
        df = bower.replay(path)
        assert [len(x) for x in df["reneges"]].count(0) == 49 and len(df["reneges"][30]) == len(reneges) >= 1
        assert df["reneges"][30][0]["seat"] == reneges[0]["seat"] and not df["matches"][30]
        code, _, lines = _cli("solve", "--records", path, "--out", str(tmp_path / "o.jsonl"))
        assert code == 0, lines
        os.remove(tmp_path / "o.jsonl")
        meta = tmp_path / "o.jsonl.meta.json"
        if meta.exists():
            meta.unlink()


@pytest.mark.parametrize("reader", ["replay", "solve", "read_records", "analyze", "analyze --dd"])
def test_a_first_trick_led_by_the_wrong_seat_is_refused(tmp_path, reader):
    """A Cutthroat lone hand (two seats in play) with its first two cards swapped: every trick is still played in
    turn from its own first card, but the first is led by the seat the rules do not call on. Replay refused it;
    the shared check (``check_play``, ``FastCheck``) let the other readers take it."""
    from bower.sim.records_check import RecordError, check_play, check_record

    recs, _, schema = _run_of("cutthroat", tmp_path)
    recs = _copy(recs)
    for i, rec in enumerate(recs):
        if rec["maker"] is None or not rec.get("alone"):
            continue
        r = _copy(rec)
        r["plays"][0], r["plays"][1] = r["plays"][1], r["plays"][0]
        v, rules, r2, maker = check_record(r, f"record {i}")
        try:
            check_play(v, r2, maker, f"record {i}", rules=rules)
        except RecordError as e:
            if "(the first lead: " in e.format_message():
                break
    else:
        pytest.fail("no lone hand whose first two cards swapped leaves every trick in turn")
    recs[i] = r
    seat, card = r["plays"][0]
    for fmt in ("jsonl", "parquet"):
        folder = tmp_path / fmt
        folder.mkdir()
        path = _write(str(folder), recs, fmt, schema)
        if reader == "analyze --dd":
            code, out, lines = _cli("analyze", "--dd", path)
            assert (code, out, len(lines)) == (2, "", 1), lines
            line = lines[0]
        else:
            line = refused(reader, path, str(folder), i)
        assert f"record {i}" in line and f"field 'plays' entry 0: seat {seat} plays {card} " in line, line
        assert ("out of turn (trick 1: seat " if reader == "replay" else "'s turn (the first lead: ") in line, line


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_analyze_names_the_first_record_at_fault(valid, fmt, tmp_path):
    """Two records at fault, one in a field the tables read, one in a play only the shared check reads: analyze
    names the earlier, whichever check finds it (a fault in a play after a table field's fault, and before it)."""
    recs, schema, played = valid
    a, b = played[1], played[2]
    for play_first in (True, False):
        rs = _copy(recs)
        bad_play, bad_seat = (a, b) if play_first else (b, a)
        rs[bad_play] = _spoiled(rs[bad_play], "twice", HAND)
        rs[bad_seat]["dealer"] = 7
        folder = tmp_path / f"{fmt}-{play_first}"
        folder.mkdir()
        path = _write(str(folder), rs, fmt, schema)
        line = refused("analyze", path, str(folder), a)
        assert (f"record {a}" in line) and ("'plays'" in line if play_first else "'dealer'" in line), line
        assert f"record {b}" not in line


# ---------------------------------------------------------------- the dd object: one check, every reader, one line

DD_FORM = "not a bower dd object ({'tricks': n, 'table': {suit: n}}: see bower solve --records)"
# case -> (the record's dd, the reason the line gives), in each format (None: not a value the format holds)
DD_LINES = {
    "tricks 99": ({"tricks": 99, "table": None}, "field 'dd.tricks' is 99, not a number of tricks (0..5)"),
    "tricks -1": ({"tricks": -1}, "field 'dd.tricks' is -1, not a number of tricks (0..5)"),
    "table past the hand": ({"tricks": 3, "table": {"S": 3, "H": 6}},
                            "field 'dd.table.H' is 6, not a number of tricks (0..5)"),
    "a trump that is no suit": ({"tricks": 3, "table": {"X": 2}},
                                "field 'dd.table' has key 'X', not a suit (C, S, D, H)"),
    "two suits": ({"tricks": 3, "table": {"CS": 2}}, "field 'dd.table' has key 'CS', not a suit (C, S, D, H)"),
    "tricks a string": ({"tricks": "3"}, "field 'dd' is {'tricks': '3'}, " + DD_FORM),
    "tricks true": ({"tricks": True}, "field 'dd' is {'tricks': True}, " + DD_FORM),
    "a number": (5, "field 'dd' is 5, " + DD_FORM),
    "table a list": ({"tricks": 2, "table": [2]}, "field 'dd' is {'tricks': 2, 'table': [2]}, " + DD_FORM),
    "tricks missing": ({"table": {"C": 1}}, "field 'dd' is {'table': {'C': 1}}, " + DD_FORM),
    "a key it has not": ({"tricks": 2, "best": 3}, "field 'dd' has key 'best', not one of tricks, table"),
}
# the same faults in a Parquet file's dd column (its own type: no string, no key but tricks and table's suits)
DD_PARQUET = {
    "tricks 99": ({"tricks": 99, "table": None}, "field 'dd.tricks' is 99, not a number of tricks (0..5)"),
    "tricks -1": ({"tricks": -1}, "field 'dd.tricks' is -1, not a number of tricks (0..5)"),
    "table past the hand": ({"tricks": 3, "table": {"S": 3, "H": 6}},
                            "field 'dd.table.H' is 6, not a number of tricks (0..5)"),
    "tricks missing": ({"tricks": None, "table": None}, "field 'dd' is {'tricks': None, 'table': None}, " + DD_FORM),
    "a column of strings": ("3", "field 'dd' is '3', " + DD_FORM),
}
DD_READERS = ("read_records", "replay", "bower.replay", "solve --records", "bower.solve_records", "analyze",
              "bower.analyze")


def _line_of(reader: str, path: str, folder: str) -> str:
    """The one line ``reader`` refuses ``path`` with (``bower: error: ...``), the folder left as it was."""
    out_path = os.path.join(folder, "out.jsonl")
    calls = {"read_records": lambda: bower.read_records(path), "bower.replay": lambda: bower.replay(path),
             "bower.solve_records": lambda: bower.solve_records(path, out_path),
             "bower.analyze": lambda: bower.analyze(path)}
    if reader in calls:
        with pytest.raises(bower.BowerError) as e:
            calls[reader]()
        line = "bower: error: " + e.value.format_message()
    else:
        args = {"replay": ["replay", path], "analyze": ["analyze", path],
                "solve --records": ["solve", "--records", path, "--out", out_path]}[reader]
        code, out, lines = _cli(*args)
        assert code == 2 and len(lines) == 1, (code, lines)
        line = lines[0]
    assert sorted(os.listdir(folder)) == [os.path.basename(path)], os.listdir(folder)
    return line


@pytest.mark.parametrize("fmt, case", [("jsonl", c) for c in DD_LINES] + [("parquet", c) for c in DD_PARQUET])
def test_a_bad_dd_is_refused_by_every_reader_in_the_same_line(valid, fmt, case, tmp_path):
    # issue 33: the dd object was checked by analyze alone; read_records, replay and solve --records took
    # {"tricks": 99} without a word. Now the one shared check refuses it, in the same line for every reader.
    dd, reason = (DD_LINES if fmt == "jsonl" else DD_PARQUET)[case]
    recs, i = _played(valid)
    recs = [dict(r, dd=d) for r, d in zip(recs, _dds(valid))]
    recs[i]["dd"] = dd
    schema = _dd_schema(valid[1])
    if isinstance(dd, str):  # a dd column of another type: every record's a string
        recs = [dict(r, dd=None if k != i else dd) for k, r in enumerate(recs)]
        schema = valid[1].append(pa.field("dd", pa.string()))
    path = _write(str(tmp_path), recs, fmt, schema)
    want = f"bower: error: {path}: record {i}{f' (line {i + 1})' if fmt == 'jsonl' else ''}: {reason}"
    for reader in DD_READERS:
        assert _line_of(reader, path, str(tmp_path)) == want, reader


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_a_valid_dd_is_read_by_every_reader(valid, fmt, tmp_path):
    # the records with the dd objects bower solve --records writes (a hand thrown in: null), and with a table
    # that leaves a trump out (null) or none at all: every reader takes them
    from bower.sim.records_check import FastCheck, check_record
    from bower.sim.records_vector import batch_ok

    recs, i = _played(valid)
    recs = [dict(r, dd=d) for r, d in zip(recs, _dds(valid))]
    assert [d is None for d in _dds(valid)] == [r["maker"] is None for r in recs]  # a hand thrown in: no dd
    recs[i]["dd"] = {"tricks": 0, "table": {"C": 5, "S": None, "D": 0, "H": 1} if fmt == "parquet" else {"C": 5}}
    recs[valid[2][2]]["dd"] = {"tricks": 5, "table": None}
    path = _write(str(tmp_path), recs, fmt, _dd_schema(valid[1]))
    df = bower.read_records(path)
    assert len(df) == len(recs) and df["dd"].iloc[i]["tricks"] == 0
    assert len(bower.replay(path)) == len(recs)
    for args in (["replay", path], ["analyze", path], ["solve", "--records", path, "--out", str(tmp_path / "o.jsonl")]):
        code, _, lines = _cli(*args)
        assert code == 0, (args, lines)
    # the quick checks pass them too (the full check is the slow way, not the only way)
    v, rules, _, _ = check_record(recs[0], "record 0")
    fast = FastCheck(v, recs[0], rules)
    assert fast.ok_many(recs) == [True] * len(recs)
    if fmt == "parquet":
        batch = pq.read_table(path).to_batches()[0]
        assert batch_ok(fast, batch)
        (tmp_path / "b").mkdir()
        spoiled = [dict(r, dd={"tricks": 6}) if k == i else r for k, r in enumerate(recs)]
        bad = pq.read_table(_write(str(tmp_path / "b"), spoiled, fmt, _dd_schema(valid[1]))).to_batches()[0]
        assert not batch_ok(fast, bad)
    assert fast.ok_many([dict(recs[i], dd={"tricks": 6})]) == [False]


def test_a_command_quoted_in_a_library_message_keeps_its_flags():
    # the library writes a flag of its own function as its argument (records=), not a flag of a command quoted
    # whole for the reader to run (bower.replay's "see bower solve --records" was "see bower solve records=")
    from bower import library_words

    params = frozenset({"records", "dd"})
    assert library_words("--records FILE: no file (see bower solve --records)", params) == \
        "records= FILE: no file (see bower solve --records)"
    assert library_words("--dd needs bower replay --dd", params) == "dd= needs bower replay --dd"


START_LINES = {  # a real game's score before the hand (EGN's ``start``), once checked by replay alone
    "a string": ("x", "field 'start' is 'x', not an object of numbers"),
    "a seat not at the table": ({"7": 1}, "field 'start' has key '7', not a seat (0..3)"),
    "a side past the two": ({"0": 3, "2": 5}, "field 'start' has key '2', not a side (0, 1)"),
    "a score not a number": ({"0": "3"}, "field 'start.0' is '3', not a number"),
}


@pytest.mark.parametrize("case", sorted(START_LINES))
def test_a_bad_start_is_refused_by_every_reader_in_the_same_line(valid, case, tmp_path):
    # replay checked a record's start and the other readers read it in silence: now the shared check does
    start, reason = START_LINES[case]
    recs, i = _played(valid)
    recs[i]["start"] = start
    path = _write(str(tmp_path), recs, "jsonl", valid[1])
    want = f"bower: error: {path}: record {i} (line {i + 1}): {reason}"
    for reader in DD_READERS:
        assert _line_of(reader, path, str(tmp_path)) == want, reader


def test_a_valid_start_is_read_by_every_reader(valid, tmp_path):
    recs, i = _played(valid)
    recs[i]["start"] = {"0": 4, "1": 9}
    path = _write(str(tmp_path), recs, "jsonl", valid[1])
    assert len(bower.read_records(path)) == len(recs)
    got = bower.replay(path)
    assert got["start"].iloc[i] == {"0": 4, "1": 9}
    for args in (["analyze", path], ["solve", "--records", path, "--out", str(tmp_path / "o.jsonl")]):
        code, _, lines = _cli(*args)
        assert code == 0, (args, lines)


# ---------------------------------------------------------------- calls: the names and count of every variant's

CALL_NAMES = {  # the calls each variant's records hold (RULES.md; the writer's names), and the most a hand has
    "euchre": (EUCHRE_CALLS, 8),
    "cutthroat": (("pass", "order", "assist", "take", "C", "S", "D", "H"), 6),
    "ghost": (("pass", "3", "4", "5", "moon"), 8),
    "hasenpfeffer": (("pass", "1", "2", "3", "4", "5", "6"), 32),  # (its default bidding, numeric)
}


def test_the_call_names_are_the_writers():
    # the shared check takes the names from the variant's records writer: the same names as listed here
    from bower.sim.records_check import call_names
    from bower.sim.rules import resolve
    from bower.sim.variants import get_variant

    for name, want in CALL_NAMES.items():
        v = get_variant(name)
        assert call_names(v, resolve(v, {})) == want, name
    v = get_variant("hasenpfeffer")
    assert call_names(v, resolve(v, {"bidding": "pepper"})) == \
        (("pass", "1", "2", "3", "4", "5", "little-pepper", "big-pepper"), 32)


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
@pytest.mark.parametrize("fault", ["name", "count"])
@pytest.mark.parametrize("variant", sorted(CALL_NAMES))
def test_a_bad_call_is_refused_by_every_reader_in_the_same_line(tmp_path, variant, fault, fmt):
    # issue 33: Euchre's calls were checked by analyze alone (read_records, replay and solve --records took
    # [2, "nonsense"] without a word), and no reader checked the other variants' call names. Now the shared check
    # refuses a call that is not one of the variant's, and more calls than an auction has, in analyze's words.
    names, most = CALL_NAMES[variant]
    run = tmp_path / "run"
    run.mkdir()
    recs, rows, schema = _run_of(variant, run)
    recs = _copy(recs)
    i = 30
    if fault == "name":
        seat = recs[i]["calls"][0][0]
        recs[i]["calls"][0] = [seat, "nonsense"]
        reason = f"field 'calls' holds ['{seat}', 'nonsense']: 'nonsense' is not one of {', '.join(names)}"
    else:
        recs[i]["calls"] = (recs[i]["calls"] * (most + 1))[:most + 1]
        reason = f"field 'calls' has {most + 1} entries, more than {most}"
    folder = tmp_path / "f"
    folder.mkdir()
    path = _write(str(folder), recs, fmt, schema)
    want = f"bower: error: {path}: record {i}{f' (line {i + 1})' if fmt == 'jsonl' else ''}: {reason}"
    for reader in DD_READERS:
        assert _line_of(reader, path, str(folder)) == want, reader


@pytest.mark.parametrize("variant", sorted(CALL_NAMES))
def test_the_quick_checks_pass_no_bad_call(tmp_path, variant):
    # the quick paths (FastCheck record by record and column-wise, records_vector.batch_ok) leave a record with a
    # bad call to the full check, which names it; the records as written pass them
    from bower.sim.records_check import FastCheck, check_record
    from bower.sim.records_vector import batch_ok, covers

    names, most = CALL_NAMES[variant]
    recs, rows, schema = _run_of(variant, tmp_path)
    v, rules, _, _ = check_record(recs[0], "record 0")
    need = tuple(sorted(v.record_fields))
    fast, fast_pq = FastCheck(v, recs[0], rules, need), FastCheck(v, rows[0], rules, need)
    batch = pa.RecordBatch.from_pylist(rows, schema=schema)
    assert all(fast.ok_many(recs)) and fast_pq.ok_batch(batch)
    assert batch_ok(fast_pq, batch) == covers(v)
    seat = recs[30]["calls"][0][0]
    for calls in ([[seat, "nonsense"]], [[seat, names[-1].upper() + "x"]], recs[30]["calls"] * (most + 1)):
        bad = dict(recs[30], calls=calls)
        assert fast.ok_many([bad]) == [False], calls
        row = dict(rows[30], calls=[[str(s), c] for s, c in calls])
        spoiled = pa.RecordBatch.from_pylist([rows[0], row], schema=schema)
        assert not fast_pq.ok_batch(spoiled) and not batch_ok(fast_pq, spoiled), calls


# ---------------------------------------------------------------- calls: each legal at its turn

# the rule options the auction cases below are made under (a stuck dealer, Hasenpfeffer's final pass)
AUCTION_RULES = {
    "euchre": {"stick_the_dealer": True},
    "cutthroat": {"stick_the_dealer": True},
    "ghost": {"stick_the_dealer": True},
    "hasenpfeffer": {"pass_is_final": True},
}


def _auction_run(variant: str, folder) -> tuple:
    """(JSON records, Parquet schema) of ``simulate --variant VARIANT --strategy random --hands 12 --seed 5`` under
    ``AUCTION_RULES``."""
    key = ("auction", variant)
    if key not in _RUNS:
        runner.simulate(variant=variant, hands=12, seed=5, rules=AUCTION_RULES[variant], strategy="random",
                        records_path=str(folder / "a.jsonl"))
        runner.simulate(variant=variant, hands=12, seed=5, rules=AUCTION_RULES[variant], strategy="random",
                        records_path=str(folder / "a.parquet"))
        recs = [json.loads(line) for line in (folder / "a.jsonl").read_text().splitlines()]
        schema = pq.read_schema(folder / "a.parquet")
        derived = set((read_meta(str(folder / "a.parquet")) or {}).get("derived_columns") or [])
        _RUNS[key] = recs, pa.schema([f for f in schema if f.name not in derived])
    return _RUNS[key]


def _up(r) -> str:
    return r["upcard"][-1]


def _other_suit(r) -> str:
    return next(s for s in "CSDH" if s != _up(r))


# (variant, case) -> (the calls of a record whose dealer is seat d, as [position, call] (position 1 is the dealer's
# left), the fields changed beside, the reason each reader gives, {N}: the calls' first entry at fault)
AUCTION_CASES = {
    ("euchre", "order in round two"): (lambda r: [[p, "pass"] for p in (1, 2, 3, 4)] + [[1, "order"]], {},
                                       "entry 4: seat {1} calls 'order' in round two, where the rules allow "
                                       "pass, {others}"),
    ("euchre", "a suit in round one"): (lambda r: [[1, _other_suit(r)]], {},
                                        "entry 0: seat {1} calls '{other}' in round one, where the rules allow "
                                        "pass, order"),
    ("euchre", "the up-card's suit named"): (lambda r: [[p, "pass"] for p in (1, 2, 3, 4)] + [[1, _up(r)]], {},
                                             "entry 4: seat {1} calls '{up}' in round two"),
    ("euchre", "out of turn"): (lambda r: [[2, "pass"]], {},
                                "entry 0: seat {2} calls 'pass' out of turn (it is seat {1}'s turn in round one)"),
    ("euchre", "after the auction"): (lambda r: [[1, "order"], [2, "pass"]], {},
                                      "entry 1: seat {2} calls 'pass' after the auction has ended"),
    ("euchre", "a stuck dealer passes"): (lambda r: [[p, "pass"] for p in (1, 2, 3, 4, 1, 2, 3, 4)], {},
                                          "entry 7: seat {4} calls 'pass' in round two, the dealer stuck "
                                          "(stick_the_dealer), where the rules allow {others}"),
    ("euchre", "calls cut short"): (lambda r: [[1, "pass"], [2, "pass"]], {},
                                    "'calls' ends after 2 call(s), before the auction does (seat {3}'s turn in "
                                    "round one)"),
    ("cutthroat", "take by position 1"): (lambda r: [[1, "take"]], {},
                                          "entry 0: seat {1} calls 'take' in round one, where the rules allow "
                                          "pass, order"),
    ("cutthroat", "order in round two"): (lambda r: [[1, "pass"], [2, "pass"], [3, "pass"], [1, "order"]], {},
                                          "entry 3: seat {1} calls 'order' in round two"),
    ("cutthroat", "a stuck dealer passes"): (lambda r: [[p, "pass"] for p in (1, 2, 3, 1, 2, 3)], {},
                                             "entry 5: seat {3} calls 'pass' in round two, the dealer stuck "
                                             "(stick_the_dealer)"),
    ("cutthroat", "two calls by one seat"): (lambda r: [[1, "pass"], [1, "pass"]], {},
                                             "entry 1: seat {1} calls 'pass' out of turn (it is seat {2}'s turn"),
    ("ghost", "a bid not above the standing bid"): (lambda r: [[1, "4"], [2, "3"]], {},
                                                    "entry 1: seat {2} calls '3' over the standing bid 4, where "
                                                    "the rules allow pass, 5, moon"),
    ("ghost", "a call after a moon"): (lambda r: [[1, "moon"], [2, "pass"]], {},
                                       "entry 1: seat {2} calls 'pass' after the auction has ended"),
    ("ghost", "a second lap"): (lambda r: [[1, "3"], [2, "pass"], [3, "pass"], [1, "4"]], {},
                                "entry 3: seat {1} calls '4' after the auction has ended"),
    ("ghost", "a stuck dealer passes"): (lambda r: [[1, "pass"], [2, "pass"], [3, "pass"]], {},
                                         "entry 2: seat {3} calls 'pass' with no bid standing, the dealer stuck "
                                         "(stick_the_dealer), where the rules allow 3, 4, 5, moon"),
    ("hasenpfeffer", "a bid below the standing bid"): (lambda r: [[1, "3"], [2, "2"]], {},
                                                       "entry 1: seat {2} calls '2' over the standing bid 3, where "
                                                       "the rules allow pass, 4, 5, 6"),
    ("hasenpfeffer", "a call after the top bid"): (lambda r: [[1, "6"], [2, "pass"]], {},
                                                   "entry 1: seat {2} calls 'pass' after the auction has ended"),
    ("hasenpfeffer", "a call after a final pass"): (lambda r: [[1, "pass"], [2, "2"], [3, "pass"], [4, "pass"],
                                                               [1, "3"]], {},
                                                    "entry 4: seat {1} calls '3' after the auction has ended"),
}


def _auction_record(variant: str, case: str, folder) -> tuple:
    """(records with record 1's auction spoiled as ``AUCTION_CASES`` says, the schema, the reason expected)."""
    recs, schema = _auction_run(variant, folder)
    recs = _copy(recs)
    make, fields, reason = AUCTION_CASES[variant, case]
    r = recs[1]
    n = 3 if variant in ("ghost", "cutthroat") else 4
    seat = {p: (r["dealer"] + p) % n for p in range(1, n + 1)}
    up = _up(r) if "upcard" in r else None
    r["calls"] = [[seat[p], c] for p, c in make(r)]
    r.update({k: seat[x] if k in ("maker", "swap") else x for k, x in fields.items()})  # (maker, swap: positions)
    for p, s in seat.items():
        reason = reason.replace("{%d}" % p, str(s))
    if up is not None:
        reason = reason.replace("{up}", up).replace("{other}", _other_suit(r))
        reason = reason.replace("{others}", ", ".join(s for s in "CSDH" if s != up))
    return recs, schema, reason


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
@pytest.mark.parametrize("variant, case", sorted(AUCTION_CASES))
def test_a_call_not_legal_at_its_turn_is_refused_by_every_reader_in_the_same_line(tmp_path, variant, case, fmt):
    # issue 33: the readers checked the calls' names and count, not the auction's order (Euchre's order in round
    # two, a call out of turn or after the auction, a bid not above the standing one, a stuck dealer's pass were
    # read without a word); the shared check replays each auction through the game API and names the first call
    # the rules do not allow at its turn, in one line, for every reader, nothing written
    run = tmp_path / "run"
    run.mkdir()
    recs, schema, reason = _auction_record(variant, case, run)
    folder = tmp_path / "f"
    folder.mkdir()
    path = _write(str(folder), recs, fmt, schema)
    head = f"bower: error: {path}: record 1{' (line 2)' if fmt == 'jsonl' else ''}: "
    lines = {reader: _line_of(reader, path, str(folder)) for reader in DD_READERS}
    want = lines["read_records"]
    assert want.startswith(head) and reason in want, (want, reason)
    if reason.startswith("entry") or reason.startswith("'calls'"):
        assert want.startswith(head + "field 'calls'"), want
    assert all(line == want for line in lines.values()), lines
    _, code, err = _bower_subprocess(["replay", path]) if (variant, fmt) == ("euchre", "jsonl") \
        and case == "order in round two" else (None, 2, [want])
    assert code == 2 and err == [want], err


def _bower_subprocess(args: list) -> tuple:
    """(stdout, status, stderr lines without the compile notice) of ``bower ARGS`` in a process of its own."""
    p = subprocess.run([sys.executable, "-c", "from bower.sim.cli import main; main()", *args],
                       capture_output=True, text=True, timeout=600, cwd=ROOT)
    return p.stdout, p.returncode, [ln for ln in p.stderr.splitlines() if not ln.startswith("bower: compiling")]


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_an_auction_whose_outcome_is_not_the_records_is_refused_by_every_reader(tmp_path, fmt):
    # Ghost Hand: the calls of a hand played, legal each at its turn, make another seat the maker (its bid as
    # the record's, the others passing): every reader names the maker field, once the plays are checked
    run = tmp_path / "run"
    run.mkdir()
    recs, schema = _auction_run("ghost", run)
    recs = _copy(recs)
    i = next(k for k, r in enumerate(recs) if r["maker"] is not None and r["bid"] != 6)
    r = recs[i]
    other = (r["maker"] + 1) % 3
    r["calls"] = [[(r["dealer"] + p) % 3, str(r["bid"]) if (r["dealer"] + p) % 3 == other else "pass"]
                  for p in (1, 2, 3)]
    folder = tmp_path / "f"
    folder.mkdir()
    path = _write(str(folder), recs, fmt, schema)
    want = (f"bower: error: {path}: record {i}{f' (line {i + 1})' if fmt == 'jsonl' else ''}: field 'maker' is "
            f"{r['maker']}, but the calls make seat {other} the maker")
    for reader in DD_READERS:
        assert _line_of(reader, path, str(folder)) == want, reader


@pytest.mark.parametrize("rules, extra, words", [
    ({}, (2, 0, 6), "field 'swap' is 2, but it had no turn to swap at"),  # seat 0 (position 1) mooned: 2 had none
    ({"swap": "none"}, (1, 0, 6), "field 'swap' is 1, but the rule swap is none"),
])
def test_a_swap_is_made_at_the_seats_first_turn(rules, extra, words):
    # Ghost Hand's swap is made at a seat's first turn, before its call, once a deal: a record naming a seat
    # that had no turn (or under swap = none) is refused; the check is the variant's own (calls_fault)
    from bower.sim.rules import resolve
    from bower.sim.variants import get_variant
    from bower.sim.variants.ghost.records import calls_fault

    v = get_variant("ghost")
    got = calls_fault(2, ((0, "moon"),), extra, resolve(v, rules))  # dealer 2: seat 0 is position 1
    assert got is not None and got.startswith(words), got
    assert calls_fault(2, ((0, "pass"), (1, "moon")), (1, 1, 6), resolve(v, {})) is None  # 1's first turn
    assert calls_fault(2, ((0, "moon"),), (0, 0, 6), resolve(v, {})) is None  # 0 swapped, then mooned


@pytest.mark.parametrize("variant", sorted(AUCTION_RULES))
def test_the_quick_checks_pass_no_call_out_of_its_turn(tmp_path, variant):
    # the quick paths (FastCheck record by record and column-wise, records_vector.batch_ok, in Parquet and in a
    # JSONL block) leave a record whose auction the rules do not allow to the full check; the records as written
    # pass them all
    from bower.sim.records_check import FastCheck, check_record
    from bower.sim.records_vector import batch_ok, covers

    recs, schema = _auction_run(variant, tmp_path)
    rows = [dict(r, calls=[[str(s), c] for s, c in r["calls"]], plays=[[str(s), c] for s, c in r["plays"]])
            for r in recs]
    v, rules, _, _ = check_record(recs[0], "record 0")
    need = tuple(sorted(v.record_fields))
    fast, fast_pq = FastCheck(v, recs[0], rules, need), FastCheck(v, rows[0], rules, need)
    batch = pa.RecordBatch.from_pylist(rows, schema=schema)
    assert all(fast.ok_many(recs)) and fast_pq.ok_batch(batch) and batch_ok(fast_pq, batch) == covers(v)
    for (name, case) in AUCTION_CASES:
        if name != variant:
            continue
        bad, _, _ = _auction_record(variant, case, tmp_path)
        assert fast.ok_many([bad[1]]) == [False], case
        row = dict(bad[1], calls=[[str(s), c] for s, c in bad[1]["calls"]],
                   plays=[[str(s), c] for s, c in bad[1]["plays"]])
        spoiled = pa.RecordBatch.from_pylist([rows[0], row], schema=schema)
        assert not fast_pq.ok_batch(spoiled) and not batch_ok(fast_pq, spoiled), case


# every kind of auction the simulators play, under the rule options that change it: all accepted by every reader
VALID_AUCTIONS = [
    ("euchre", {}),
    ("euchre", {"stick_the_dealer": True, "loner_lead": "loner", "canadian": True, "allow_lone_defender": True,
                "discard_up": True}),
    ("cutthroat", {}),
    ("cutthroat", {"stick_the_dealer": True, "allow_turned_down_suit": True, "dealer_pickup": "mandatory",
                   "maker_alone": "disabled"}),
    ("ghost", {}),
    ("ghost", {"auction": "until_passes", "stick_the_dealer": True}),
    ("ghost", {"auction": "until_passes", "swap": "none"}),
    ("hasenpfeffer", {}),
    ("hasenpfeffer", {"pass_is_final": True, "bidding": "pepper"}),
    ("hasenpfeffer", {"all_pass": "redeal", "widow": "dead", "first_lead": "bidder", "bidding": "pepper"}),
]


@pytest.mark.parametrize("variant, rules", VALID_AUCTIONS, ids=lambda x: x if isinstance(x, str) else
                         ",".join(f"{k}={v}" for k, v in x.items()) or "defaults")
def test_every_auction_the_simulators_play_is_read_by_every_reader(tmp_path, variant, rules):
    # random players make every kind of auction (a seat's every legal call); the records they write, JSONL and
    # Parquet, are read back whole by read_records, replay and analyze
    for ext in ("jsonl", "parquet"):
        path = str(tmp_path / f"r.{ext}")
        runner.simulate(variant=variant, hands=300, seed=7, rules=rules, strategy="random", records_path=path)
        assert len(bower.read_records(path)) == 300
        readers = (["replay", path], ["analyze", path]) if ext == "jsonl" else (["analyze", path],)
        for args in readers:
            code, _, lines = _cli(*args)
            assert code == 0, (args, lines)
