"""The hostile user's bad inputs of issue 33, re-run case by case: one line, exit 2, no traceback, nothing left.

One table per kind of input, each row a case the issue names or one of
its kind: malformed records for every reader (``bower solve --records``,
``replay``, ``analyze``, ``bower.read_records``, ``bower.solve_records``,
``bower.replay``), malformed ``--scheduler`` addresses, deeply nested TOML,
the library's wrongly typed arguments, huge counts and seeds given as text,
``pimc_worlds`` past its range, ``should-bid --samples`` past its cap and a
FIFO with no writer as input. A command must exit with status 2 and print
exactly one ``bower: error:`` line on stderr naming the input and what is
wrong (nothing on stdout, no traceback); a library call must raise
``bower.BowerError`` whose message is that one line. The folder holds
afterwards only what the case put there. Every case fails before any kernel
runs, so the file runs in seconds; the commands run in-process
(``tests/cli_run.py``), except the FIFO's, which needs a real process and a
clock.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import bower
from bower.sim import runner
from tests.cli_run import ROOT, listing, run

DEEP = 100_000  # levels of nesting: far past Python's recursion limit


@pytest.fixture(scope="module")
def valid(tmp_path_factory) -> dict[str, list[dict]]:
    """Valid records of each kind the cases spoil: variant -> records as dicts (a few hands each, seed 1)."""
    folder = tmp_path_factory.mktemp("hostile-valid")
    out = {}
    for variant in ("ghost", "euchre"):
        path = folder / f"{variant}.jsonl"
        runner.simulate(variant=variant, hands=8, seed=1, records_path=str(path))
        out[variant] = [json.loads(line) for line in path.read_text().splitlines()]
    return out


def _played(recs: list[dict]) -> int:
    """The index of the first record that was played (a maker, plays)."""
    return next(i for i, r in enumerate(recs) if r.get("maker") is not None)


def _set(field, value):
    return lambda r: r.__setitem__(field, value)


def _play(i, value):
    return lambda r: r["plays"].__setitem__(i, value)


def _deal_seat(key):
    return lambda r: r.__setitem__("deal", {(key if k == "0" else k): v for k, v in r["deal"].items()})


# (variant, how the first played record is spoiled: a function of the record, or None with a whole file's bytes,
# what the line must say after the file's name: the record, the field and the fault)
RECORD_CASES = {
    "seat-1e400-dealer": ("ghost", _set("dealer", "@1e400@"),
                          "record 0 (line 1): field 'dealer' is 1e400, not a seat (0..2)"),  # as the file wrote it
    "seat-1e400-in-plays": ("ghost", _play(0, ["@1e400@", "JD"]),
                            "record 0 (line 1): field 'plays' entry 0 names seat 1e400, not a seat in play (0..2)"),
    "seat-superscript-two-maker": ("ghost", _set("maker", "²"),
                                   "record 0 (line 1): field 'maker' is '²', not a seat (0..2) or null"),
    "seat-superscript-two-in-plays": ("euchre", _play(1, ["²", "AD"]),
                                      "record 0 (line 1): field 'plays' entry 1 names seat '²', "
                                      "not a seat in play (0..3)"),
    "seat-superscript-two-deal-key": ("ghost", _deal_seat("²"),
                                      "record 0 (line 1): field 'deal' has key '²', not one of 0, 1, 2, ghost"),
    "seat-negative": ("euchre", _set("dealer", -1), "record 0 (line 1): field 'dealer' is -1, not a seat (0..3)"),
    "seat-float": ("euchre", _set("maker", 1.5), "record 0 (line 1): field 'maker' is 1.5, not a seat (0..3) or null"),
    "card-a-number-in-plays": ("ghost", _play(2, [0, 12]),
                               "record 0 (line 1): field 'plays' entry 2 is [0, 12], not [seat, card]"),
    "card-a-number-in-deal": ("euchre", lambda r: r["deal"]["1"].__setitem__(0, 5),
                              "record 0 (line 1): field 'deal.1[0]' is 5, not a card"),
    "card-a-number-upcard": ("euchre", _set("upcard", 31), "record 0 (line 1): field 'upcard' is 31, not a card"),
    "alone-5": ("euchre", _set("alone", 5), "record 0 (line 1): field 'alone' is 5, not a list of seats"),
    "alone-string": ("euchre", _set("alone", "0"), "record 0 (line 1): field 'alone' is '0', not a list of seats"),
    "points-bad-key": ("ghost", _set("points", {"x": 1, "1": 0}),
                       "record 0 (line 1): field 'points' has key 'x', not one of 0, 1, 2"),
    "points-key-out-of-range": ("euchre", _set("points", {"7": 1}),
                                "record 0 (line 1): field 'points' has key '7', not one of 0, 1"),
    "tricks-bad-key": ("ghost", _set("tricks", {"²": 1}),
                       "record 0 (line 1): field 'tricks' has key '²', not one of 0, 1, 2"),
    "null-calls": ("euchre", _set("calls", None),
                   "record 0 (line 1): field 'calls' is null, not a list of [seat, call]"),
    "calls-a-number": ("ghost", _set("calls", 7), "record 0 (line 1): field 'calls' is 7, not a list of [seat, call]"),
    "plays-cut-short-whole-tricks": ("euchre", lambda r: r.__setitem__("plays", r["plays"][:8]),
                                     "record 0 (line 1): field 'plays': seat 0 plays 3 card(s), not 5"),
    "plays-cut-short-mid-trick": ("ghost", lambda r: r.__setitem__("plays", r["plays"][:7]),
                                  "record 0 (line 1): field 'plays': seat 0 plays 2 card(s), not 6"),
    "no-plays": ("ghost", lambda r: r.pop("plays"), "record 0 (line 1): missing field 'plays'"),
    "no-plays-dd-null": ("euchre", lambda r: (r.pop("plays"), r.__setitem__("dd", None)),
                         "record 0 (line 1): missing field 'plays'"),
    "plays-null": ("ghost", _set("plays", None), "record 0 (line 1): field 'plays' is null: a hand played lists "
                                                  "all its plays (6 card(s) a seat in play)"),
    "plays-empty": ("euchre", _set("plays", []), "record 0 (line 1): field 'plays' is []: a hand played lists all "
                                                 "its plays (5 card(s) a seat in play)"),
    "json-number-of-5000-digits": ("ghost", _set("dealer", "@5000-digits@"),
                                   "record 0 (line 1) holds a whole number of more than 4,300 digits (no field "
                                   "holds one so long)"),  # Python's limit on converting digits; it was "not JSON"
    "json-nested-deep": (None, b"[" * DEEP + b"]" * DEEP + b"\n",
                         "record 0 (line 1) is nested too deeply (more than 32 levels)"),
    "json-nested-deep-object": (None, b'{"a":' * DEEP + b"1" + b"}" * DEEP + b"\n",
                                "record 0 (line 1) is nested too deeply (more than 32 levels)"),
    "json-nested-deep-in-a-field": ("ghost", _set("deal", "@deep@"),
                                    "record 0 (line 1) is nested too deeply (more than 32 levels)"),
}
READERS = ("solve", "replay", "analyze", "lib-read_records", "lib-solve_records", "lib-replay")
PARQUET_CASES = ("parquet-not-records", "parquet-null-calls", "parquet-garbage-bytes")


def _records_file(valid, case: str, folder: Path) -> Path:
    variant, spoil, _ = RECORD_CASES[case]
    path = folder / "in.jsonl"
    if variant is None:
        path.write_bytes(spoil)
        return path
    recs = json.loads(json.dumps(valid[variant]))
    spoil(recs[_played(recs)])
    text = "\n".join(json.dumps(r) for r in recs) + "\n"
    text = text.replace('"@1e400@"', "1e400").replace('"@deep@"', "[" * DEEP + "]" * DEEP)
    text = text.replace('"@5000-digits@"', "9" * 5000)
    path.write_text(text)
    return path


def _parquet_file(valid, case: str, folder: Path) -> Path:
    path = folder / "in.parquet"
    if case == "parquet-not-records":
        pq.write_table(pa.table({"a": [1, 2]}), path)
    elif case == "parquet-garbage-bytes":
        path.write_bytes(b"PAR1" + b"\x00garbage" * 10 + b"PAR1")
    else:  # the tool's own Parquet records, one played record's calls null
        runner.simulate(variant="euchre", hands=8, seed=1, records_path=str(folder / "v.parquet"))
        table = pq.read_table(folder / "v.parquet")
        rows = table.to_pylist()
        rows[_played(rows)]["calls"] = None
        pq.write_table(pa.Table.from_pylist(rows, schema=table.schema), path)
        for name in ("v.parquet", "v.parquet.meta.json"):
            if (folder / name).exists():
                (folder / name).unlink()
    return path


def _refused(capsys, reader: str, path: Path, folder: Path) -> str:
    """Run ``reader`` on ``path`` in ``folder``: it must refuse in one line, leaving nothing; the line."""
    before = listing(folder)
    name = path.name
    if reader.startswith("lib-"):
        call = {"lib-read_records": lambda: bower.read_records(name),
                "lib-solve_records": lambda: bower.solve_records(name, "out.jsonl"),
                "lib-replay": lambda: bower.replay(name)}[reader]
        with pytest.raises(bower.BowerError) as e:
            call()
        line = "bower: error: " + e.value.format_message()
        assert "\n" not in line
    else:
        args = {"solve": ["solve", "--records", name, "--out", "out.jsonl"], "replay": ["replay", name],
                "analyze": ["analyze", name]}[reader]
        code, out, err = run(capsys, *args)
        lines = err.splitlines()
        assert code == 2, (code, err[-2000:])
        assert len(lines) == 1 and lines[0].startswith("bower: error: "), err[-2000:]
        assert out == "", out[-2000:]
        line = lines[0]
    assert "Traceback" not in line
    assert listing(folder) == before, listing(folder)
    return line


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("case", list(RECORD_CASES))
def test_malformed_records(valid, capsys, tmp_path, monkeypatch, case, reader):
    monkeypatch.chdir(tmp_path)
    path = _records_file(valid, case, tmp_path)
    line = _refused(capsys, reader, path, tmp_path)
    assert line.startswith(f"bower: error: {path.name}: {RECORD_CASES[case][2]}"), line


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("case", PARQUET_CASES)
def test_malformed_parquet(valid, capsys, tmp_path, monkeypatch, case, reader):
    monkeypatch.chdir(tmp_path)
    path = _parquet_file(valid, case, tmp_path)
    line = _refused(capsys, reader, path, tmp_path)
    assert path.name in line, line


# an EGN transcript (replay's other reader) names a number past a float's range as written, not as Infinity, and
# one of more digits than Python converts as such
EGN_CASES = {
    "dealer-1e400": (('"dealer": 0', '"dealer": 1e400'), ": deal 0: field 'dealer' is 1e400, not a seat 0 to 3"),
    "deal-number-negative": (('"dealNumber": 0', '"dealNumber": -1E400'),
                             ": deal 0: field 'dealNumber' is -1E400, not a whole number"),
    "initial-score": (('"initialScore": [\n      0,', '"initialScore": [\n      1e400,'),
                      ": field 'metadata.initialScore' is [1e400, 0], not two whole numbers"),
    "a-number-of-5000-digits": (('"dealer": 0', '"dealer": ' + "9" * 5000),  # it was "not JSON (too deep)"
                                " holds a whole number of more than 4,300 digits (no field holds one so long)"),
}


@pytest.mark.parametrize("reader", ["replay", "lib-replay"])
@pytest.mark.parametrize("case", list(EGN_CASES))
def test_a_number_past_a_float_in_an_egn_file_is_named_as_written(capsys, tmp_path, monkeypatch, case, reader):
    monkeypatch.chdir(tmp_path)
    (old, new), want = EGN_CASES[case]
    text = (ROOT / "tests" / "data" / "egn" / "Custom Scenario.egn").read_text()
    assert old in text
    (tmp_path / "in.egn").write_text(text.replace(old, new, 1))
    if reader == "lib-replay":
        with pytest.raises(bower.BowerError) as e:
            bower.replay("in.egn")
        assert e.value.format_message() == f"in.egn{want}"
    else:
        assert run(capsys, "replay", "in.egn") == (2, "", f"bower: error: in.egn{want}\n")
    assert listing(tmp_path) == ["in.egn"]


# ---------------------------------------------------------------- scheduler addresses

NOT_AN_ADDRESS = "is not a scheduler address: give tcp://HOST:PORT (or HOST:PORT) or local:N"
NOT_A_COUNT = "--scheduler local:N needs a number of worker processes from 1 to 1024, got"
BAD_SCHEDULERS = {  # address -> the line after "bower: error: "
    "foo://": f"--scheduler 'foo://' {NOT_AN_ADDRESS}",
    "http://": f"--scheduler 'http://' {NOT_AN_ADDRESS}",
    "tcp://": f"--scheduler 'tcp://' {NOT_AN_ADDRESS}",
    "[::1": f"--scheduler '[::1' {NOT_AN_ADDRESS}",
    "tcp://:8786": f"--scheduler 'tcp://:8786' {NOT_AN_ADDRESS}",
    "ws://[::1:8786": f"--scheduler 'ws://[::1:8786' {NOT_AN_ADDRESS}",
    "tcp://host:99999": "--scheduler 'tcp://host:99999': port 99999 is not from 1 to 65535",
    "local:²": f"{NOT_A_COUNT} 'local:²'",
    "local:-1": f"{NOT_A_COUNT} 'local:-1'",
    "local:1e400": f"{NOT_A_COUNT} 'local:1e400'",
    "local:": f"{NOT_A_COUNT} 'local:'",
    "": "--scheduler needs an address (tcp://HOST:8786) or local:N",
}


@pytest.mark.parametrize("address", list(BAD_SCHEDULERS))
def test_a_malformed_scheduler_address_cli(capsys, tmp_path, monkeypatch, address):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "simulate", "--hands", "100", "--scheduler", address)
    lines = err.splitlines()
    assert (code, out) == (2, ""), err[-2000:]
    assert len(lines) == 1 and lines[0].startswith("bower: error: ") and "Traceback" not in err, err[-2000:]
    assert lines[0] == "bower: error: " + BAD_SCHEDULERS[address]
    assert listing(tmp_path) == []


@pytest.mark.parametrize("address", list(BAD_SCHEDULERS))
def test_a_malformed_scheduler_address_library(tmp_path, monkeypatch, address):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(bower.BowerError) as e:
        bower.simulate(hands=100, scheduler=address)
    assert e.value.format_message() == BAD_SCHEDULERS[address].replace("--scheduler ", "scheduler= ")  # its argument
    assert listing(tmp_path) == []


# ---------------------------------------------------------------- deeply nested TOML

TOO_DEEP = "strategy file s.toml is not valid TOML: arrays or tables nested too deeply"
TOO_MANY_PARTS = "strategy file s.toml is not valid TOML: a key of more than 32 dotted parts (tables nested too deeply)"
NESTED_TOML = {  # the file -> the line after "bower: error: "
    "array": ("x = " + "[" * DEEP + "]" * DEEP + "\n", TOO_DEEP),
    "inline-table": ("x = " + "{a = " * 5000 + "1" + "}" * 5000 + "\n", TOO_DEEP),
    "dotted-keys": ("a" + ".a" * 200_000 + " = 1\n", TOO_MANY_PARTS),  # a quarter of an hour in Python's reader
    "table-header": ("[" + ".".join(["a"] * 20000) + "]\nb = 1\n", TOO_MANY_PARTS),
    "inline-dotted-keys": ("x = {" + "a." * 20000 + "b = 1}\n", TOO_MANY_PARTS),
    "quoted-dotted-keys": ('"a".' * 20000 + "b = 1\n", TOO_MANY_PARTS),
}
TOML_COMMANDS = {
    "simulate": ["simulate", "--hands", "100", "--strategy", "s.toml"],
    "experiment": ["experiment", "s.toml", "default", "--games", "10"],
    "strategies-show": ["strategies", "--show", "s.toml"],
}


@pytest.mark.parametrize("command", list(TOML_COMMANDS))
@pytest.mark.parametrize("case", list(NESTED_TOML))
def test_deeply_nested_toml(capsys, tmp_path, monkeypatch, case, command):
    monkeypatch.chdir(tmp_path)
    text, want = NESTED_TOML[case]
    (tmp_path / "s.toml").write_text(text)
    code, out, err = run(capsys, *TOML_COMMANDS[command])
    lines = err.splitlines()
    assert (code, out) == (2, ""), err[-2000:]
    assert len(lines) == 1 and lines[0].startswith("bower: error: ") and "Traceback" not in err, err[-2000:]
    assert lines[0] == "bower: error: " + want
    assert listing(tmp_path) == ["s.toml"]
    with pytest.raises(bower.BowerError) as e:
        bower.strategy("s.toml")
    assert e.value.format_message() == want


# ---------------------------------------------------------------- the library's wrongly typed arguments

LIBRARY_CALLS = {
    "simulate-variant-None": (lambda: bower.simulate(variant=None, hands=10), "variant"),
    "simulate-rules-string": (lambda: bower.simulate(rules="swap=none", hands=10), "rules"),
    "simulate-scheduler-5": (lambda: bower.simulate(hands=10, scheduler=5), "scheduler"),
    "simulate-hands-string": (lambda: bower.simulate(hands="10"), "hands"),
    "simulate-hands-float-inf": (lambda: bower.simulate(hands=float("inf")), "hands"),
    "simulate-hands-huge-int": (lambda: bower.simulate(hands=10 ** 400), "hands"),
    "simulate-seed-None": (lambda: bower.simulate(hands=10, seed=None), "seed"),
    "simulate-seed-huge": (lambda: bower.simulate(hands=10, seed=10 ** 400), "seed"),
    "simulate-rules-bad-key": (lambda: bower.simulate(hands=10, rules={5: "x"}), "rule"),
    "solve-maker-string": (lambda: bower.solve("0:JH", variant="euchre", trump="H", maker="0"), "maker"),
    "solve-plays-123": (lambda: bower.solve("0:JH", variant="euchre", trump="H", maker=0, plays=123), "plays"),
    "solve-variant-None": (lambda: bower.solve("0:JH", variant=None), "variant"),
    "solve-trump-5": (lambda: bower.solve("0:JH", variant="euchre", trump=5, maker=0), "trump"),
    "experiment-None": (lambda: bower.experiment(None), "strategies"),
    "experiment-games-string": (lambda: bower.experiment(["default", "default"], games="10"), "games"),
    "sweep-grid-5": (lambda: bower.sweep(grid=5), "grid"),
    "should_bid-hand-5": (lambda: bower.should_bid(5), "hand"),
    "should_bid-samples-huge": (lambda: bower.should_bid("JH JD AH KH 9S TC", samples=10 ** 30), "samples"),
    "should_bid-position-string": (lambda: bower.should_bid("JH JD AH KH 9S TC", position="1"), "position"),
    "strategy-base-5": (lambda: bower.strategy(5), "not 5 (int)"),
    "strategy-base-None": (lambda: bower.strategy(None), "not None (NoneType)"),
    "simulate-strategy-5": (lambda: bower.simulate(hands=10, strategy=5), "not 5 (int)"),
    "experiment-strategy-5": (lambda: bower.experiment([5, "default"], games=10), "not 5 (int)"),
    "strategy-pimc_worlds-1e19": (lambda: bower.strategy("default", pimc_worlds=1e19), "pimc_worlds"),
    "strategies-None": (lambda: bower.strategies(None), "variant"),
    "game-None": (lambda: bower.game(None), "variant"),
    "read_records-None": (lambda: bower.read_records(None), "path"),
    "replay-123": (lambda: bower.replay(123), "records"),
    "replay-scheduler-5": (lambda: bower.replay("x.jsonl", scheduler=5), "scheduler"),
    "solve_records-out-5": (lambda: bower.solve_records("x.jsonl", 5), "out"),
    "analyze-3": (lambda: bower.analyze(3), "path"),
    "equity-variant-None": (lambda: bower.equity(variant=None), "variant"),
}


@pytest.mark.parametrize("case", list(LIBRARY_CALLS))
def test_a_wrongly_typed_library_argument(tmp_path, monkeypatch, case):
    monkeypatch.chdir(tmp_path)
    call, word = LIBRARY_CALLS[case]
    with pytest.raises(bower.BowerError) as e:
        call()
    message = e.value.format_message()
    assert word in message and "\n" not in message, message
    assert listing(tmp_path) == []


# ---------------------------------------------------------------- huge numbers as text, caps

HUGE = "1e999999999"
COUNT_CASES = {
    "simulate-hands": (["simulate", "--hands", HUGE], {}, "--hands"),
    "simulate-games": (["simulate", "--games", HUGE], {}, "--games"),
    "simulate-seed": (["simulate", "--hands", "10", "--seed", HUGE], {}, "--seed"),
    "simulate-seed-env": (["simulate", "--hands", "10"], {"BOWER_SEED": HUGE}, "BOWER_SEED"),
    "simulate-hands-long-digits": (["simulate", "--hands", "9" * 100_000], {}, "--hands"),
    "simulate-hands-negative-exponent": (["simulate", "--hands", "1e-999999999"], {}, "--hands"),
    "experiment-games": (["experiment", "default", "default", "--games", HUGE], {}, "--games"),
    "should-bid-samples": (["should-bid", "JH JD AH KH 9S TC", "--samples", HUGE], {}, "--samples"),
    "should-bid-samples-above-cap": (["should-bid", "JH JD AH KH 9S TC", "--samples", "2e9"], {}, "--samples"),
    "should-bid-samples-cap-plus-one": (["should-bid", "JH JD AH KH 9S TC", "--samples", "1000000001"], {},
                                        "--samples"),
    "should-bid-seed": (["should-bid", "JH JD AH KH 9S TC", "--seed", HUGE], {}, "--seed"),
    "pimc_worlds-1e12": (["simulate", "--hands", "10", "--strategy", "p.toml"], {"toml": "pimc_worlds = 1e12\n"},
                         "pimc_worlds"),
    "pimc_worlds-1e19": (["simulate", "--hands", "10", "--strategy", "p.toml"], {"toml": "pimc_worlds = 1e19\n"},
                         "pimc_worlds"),
    "pimc_worlds-1e300": (["simulate", "--hands", "10", "--strategy", "p.toml"],
                          {"toml": "pimc_worlds = 1e300\n"}, "pimc_worlds"),
    "pimc_worlds-huge-int": (["simulate", "--hands", "10", "--strategy", "p.toml"],
                             {"toml": "pimc_worlds = 99999999999999999999999\n"}, "pimc_worlds"),
    "pimc_worlds-inf": (["simulate", "--hands", "10", "--strategy", "p.toml"], {"toml": "pimc_worlds = inf\n"},
                        "pimc_worlds"),
    "pimc_worlds-in-experiment": (["experiment", "p.toml", "default", "--games", "10"],
                                  {"toml": "pimc_worlds = 1e19\n"}, "pimc_worlds"),
}


@pytest.mark.parametrize("case", list(COUNT_CASES))
def test_a_huge_number(capsys, tmp_path, monkeypatch, case):
    args, extra, word = COUNT_CASES[case]
    monkeypatch.chdir(tmp_path)
    for key, value in extra.items():
        if key == "toml":
            (tmp_path / "p.toml").write_text(value)
        else:
            monkeypatch.setenv(key, value)
    before = listing(tmp_path)
    code, out, err = run(capsys, *args)
    lines = err.splitlines()
    assert (code, out) == (2, ""), err[-2000:]
    assert len(lines) == 1 and lines[0].startswith("bower: error: ") and "Traceback" not in err, err[-2000:]
    assert word in lines[0], lines[0]
    assert listing(tmp_path) == before


# a number past a float's range is named as it was written, never as the inf it reads as (as a record's 1e400 is)
WRITTEN_CASES = {
    "should-bid-tau": (["should-bid", "JH JD AH KH 9S TC", "--tau", HUGE, "--samples", "10"],
                       f"--tau must be a number >= 0, got {HUGE}"),
    "should-bid-epsilon-negative": (["should-bid", "JH JD AH KH 9S TC", "--epsilon", "-1e400", "--samples", "10"],
                                    "--epsilon must be at least 0 and below 1, got -1e400"),
    "experiment-bot-timeout": (["experiment", "default", "default", "--games", "10", "--bot-timeout", HUGE],
                               f"Invalid value for '--bot-timeout': {HUGE} is not a positive number of seconds"),
    "sweep-param": (["sweep", "--param", f"bid_3={HUGE}", "--games", "10"],
                    f"bad value {HUGE} for strategy parameter 'bid_3' in --param (a finite number)"),
    "strategy-toml": (["simulate", "--hands", "10", "--strategy", "p.toml"],
                      "bad value 1e400 for strategy parameter 'bid_3' in p.toml (a finite number)"),
    "strategy-toml-pimc_worlds": (["simulate", "--hands", "10", "--strategy", "w.toml"],
                                  "bad value -1E400 for strategy parameter 'pimc_worlds' in w.toml "
                                  "(a whole number from 0 to 10,000)"),
}


@pytest.mark.parametrize("case", list(WRITTEN_CASES))
def test_a_number_past_a_float_is_named_as_written(capsys, tmp_path, monkeypatch, case):
    args, want = WRITTEN_CASES[case]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.toml").write_text('base = "default"\nbid_3 = 1e400\n')
    (tmp_path / "w.toml").write_text('base = "pimc-fast"\npimc_worlds = -1E400\n')
    assert run(capsys, *args) == (2, "", f"bower: error: {want}\n")
    assert listing(tmp_path) == ["p.toml", "w.toml"]


def test_a_number_in_range_or_inf_itself_reads_as_a_float():
    from bower.sim.text import WrittenFloat, written_float

    assert [type(written_float(t)) for t in ("0.25", " 1e-999", "inf", "-Infinity", "nan")] == [float] * 5
    assert (written_float("0.25"), written_float("1e-999"), repr(written_float("-inf"))) == (0.25, 0.0, "-inf")
    big = written_float(" 1e400 ")
    assert type(big) is WrittenFloat and big == float("inf") and repr(big) == "1e400"
    with pytest.raises(ValueError):
        written_float("1e4OO")


# an input of 100,000 characters echoed by its message: the line shows its first 60 and "...", not all of it (a
# line of 100 kB it was)
LONG = "9" * 100_000
LONG_CASES = {
    "variant": ["simulate", "--hands", "10", "--variant", LONG],
    "threads": ["simulate", "--hands", "10", "--threads", LONG],
    "position": ["should-bid", "JH JD AH KH 9S TC", "--position", LONG],
    "rule": ["simulate", "--hands", "10", "--rule", f"swap={LONG}"],
    "strategy": ["simulate", "--hands", "10", "--strategy", LONG],
    "equity-score": ["equity", "--score", f"{LONG},0"],
}


@pytest.mark.parametrize("case", list(LONG_CASES))
def test_a_long_input_is_shown_cut(capsys, case):
    code, out, err = run(capsys, *LONG_CASES[case])
    assert (code, out) == (2, "")
    assert err.startswith("bower: error: ") and err.count("\n") == 1 and len(err) < 400, err[:500]
    assert "'" + "9" * 59 + "..." in err and "9" * 60 not in err  # the word's first 60 characters, its quote one


def test_a_long_input_is_cut_in_the_library_too():
    with pytest.raises(bower.BowerError) as e:
        bower.simulate(variant="x" * 100_000, hands=10)
    want = "unknown variant '" + "x" * 59 + "... (known: ghost, cutthroat, hasenpfeffer, euchre)"
    assert str(e.value) == e.value.format_message() == want


# ---------------------------------------------------------------- a FIFO with no writer

FIFO_COMMANDS = {
    "analyze": ["analyze", "in.jsonl"],
    "replay": ["replay", "in.jsonl"],
    "solve-records": ["solve", "--records", "in.jsonl", "--out", "out.jsonl"],
    "strategy": ["simulate", "--hands", "10", "--strategy", "in.toml"],
}


# One child process runs the four commands one after another (its start is most of each run's time), each in a
# folder of its own holding the FIFO, and prints a JSON line per command. The strategy file's wait for a FIFO's
# writer (``strategy.FIFO_WAIT``, from ``limits.STRATEGY_FIFO_WAIT``: 5 s) is cut to a tenth of a second there: no
# writer ever comes, so the wait's length changes only how long the run takes (a records input that is a FIFO is
# refused at once, without a wait).
_FIFO_CHILD = """
import contextlib, io, json, os, sys
from bower.sim import strategy
strategy.FIFO_WAIT = 0.1
from bower.sim.cli import main
for folder, args in json.loads(sys.argv[1]):
    os.chdir(folder)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(args)
            code = 0
        except SystemExit as e:
            code = e.code
    print(json.dumps([folder, code, out.getvalue(), err.getvalue()]), flush=True)
"""


def _fifo_name(command: str) -> str:
    return "in.toml" if command == "strategy" else "in.jsonl"


@pytest.fixture(scope="module")
def fifo_runs(tmp_path_factory) -> dict[str, tuple]:
    """Each of ``FIFO_COMMANDS`` run in a real process on a FIFO with no writer: command -> (status, stdout,
    stderr, the folder's listing before, after)."""
    jobs, before = [], {}
    for command, args in FIFO_COMMANDS.items():
        folder = tmp_path_factory.mktemp(f"fifo-{command}")
        os.mkfifo(folder / _fifo_name(command))
        before[command] = listing(folder)
        jobs.append((str(folder), args))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(ROOT)) if p)
    try:
        p = subprocess.run([sys.executable, "-c", _FIFO_CHILD, json.dumps(jobs)], env=env, capture_output=True,
                           text=True, timeout=120)
    except subprocess.TimeoutExpired as e:
        done = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        pytest.fail(f"a command waited for a writer (the ones that ended: {done.splitlines()})")
    assert p.returncode == 0, p.stderr[-2000:]
    ran = [json.loads(line) for line in p.stdout.splitlines()]
    assert [folder for folder, *_ in ran] == [folder for folder, _ in jobs], p.stdout[-2000:]
    return {command: (code, out, err, before[command], listing(Path(folder)))
            for command, (folder, code, out, err) in zip(FIFO_COMMANDS, ran)}


@pytest.mark.parametrize("command", list(FIFO_COMMANDS))
def test_a_fifo_with_no_writer(fifo_runs, command):
    # a real process: the open of a FIFO blocks until a writer comes; the command must not wait for one
    code, out, err, before, after = fifo_runs[command]
    lines = [ln for ln in err.splitlines() if not ln.startswith("bower: compiling")]
    assert (code, out) == (2, ""), err[-2000:]
    assert len(lines) == 1 and lines[0].startswith("bower: error: "), err[-2000:]
    assert _fifo_name(command) in lines[0], lines[0]
    assert after == before


def test_the_waits_the_docs_state_are_the_limits():
    # every wait has a limit, stated where a user looks (conventions.md's table; the strategy guide for the FIFO)
    from bower.sim import strategy
    from bower.sim.distributed import DEFAULT_TIMEOUT_S
    from bower.sim.limits import BOT_TIMEOUT, STRATEGY_FIFO_WAIT

    docs = ROOT / "docs"
    table = (docs / "reference" / "conventions.md").read_text()
    assert f"`--scheduler-timeout` seconds (default {DEFAULT_TIMEOUT_S:g}, or `BOWER_SCHEDULER_TIMEOUT`)" in table
    assert f"`--bot-timeout` seconds (default {BOT_TIMEOUT:g})" in table
    assert f"(`--strategy <(...)`) to be written to | {STRATEGY_FIFO_WAIT:g} seconds (fixed) |" in table
    guide = " ".join((docs / "guides" / "strategies.md").read_text().split())
    assert f"refused in one line if nothing writes to it within {STRATEGY_FIFO_WAIT:g} seconds" in guide
    assert strategy.FIFO_WAIT == STRATEGY_FIFO_WAIT


# ---------------------------------------------------------------- answers that were wrong without a word

PARTNERS_ONLY = "0:JH JD AH KH QH 2:9C TC QC KC AC"  # seats 0 and 2: one side, no one to play against


@pytest.mark.parametrize("extra", [[], ["--trump", "H", "--maker", "0"]], ids=["table", "contract"])
def test_a_euchre_deal_of_the_two_partners_alone_is_refused(capsys, tmp_path, monkeypatch, extra):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "solve", "--variant", "euchre", PARTNERS_ONLY, *extra)
    assert (code, out) == (2, ""), out
    assert err == ("bower: error: the deal's seats in play, 0 and 2, are all one side: a Standard Euchre hand "
                   "needs a seat of each side in play\n")
    with pytest.raises(bower.BowerError, match="are all one side"):
        bower.solve(PARTNERS_ONLY, variant="euchre", trump="H" if extra else None, maker=0 if extra else None)
    assert listing(tmp_path) == []


# a record's ``dd`` object (bower solve --records) that analyze's double-dummy tables would have read as written:
# tricks past a hand's 5 (or below 0) or a trump that is no suit was counted without a word, and a malformed one
# was named without its file and line
DD_CASES = {
    "tricks-99": ({"tricks": 99, "table": {}}, "field 'dd.tricks' is 99, not a number of tricks (0..5)"),
    "tricks-negative": ({"tricks": -1}, "field 'dd.tricks' is -1, not a number of tricks (0..5)"),
    "table-past-the-hand": ({"tricks": 3, "table": {"S": 3, "H": 6}}, "field 'dd.table.H' is 6, "
                                                                       "not a number of tricks (0..5)"),
    "table-key-not-a-suit": ({"tricks": 3, "table": {"X": 2}}, "field 'dd.table' has key 'X', not a suit (C, S, D, H)"),
    "table-key-two-suits": ({"tricks": 3, "table": {"CS": 2}}, "field 'dd.table' has key 'CS', not a suit "
                                                               "(C, S, D, H)"),
    "a-number": (5, "field 'dd' is 5, not a bower dd object ({'tricks': n, 'table': {suit: n}}: see bower solve "
                    "--records)"),
    "tricks-1e400": ({"tricks": "@1e400@"}, "field 'dd' is {'tricks': 1e400}, not a bower dd object "
                                            "({'tricks': n, 'table': {suit: n}}: see bower solve --records)"),
}


@pytest.mark.parametrize("reader", ["analyze", "lib-analyze"])
@pytest.mark.parametrize("case", list(DD_CASES))
def test_a_malformed_dd_object_is_named_with_its_file_and_line(valid, capsys, tmp_path, monkeypatch, case, reader):
    monkeypatch.chdir(tmp_path)
    recs = json.loads(json.dumps(valid["euchre"]))
    i = _played(recs)
    recs[i]["dd"] = DD_CASES[case][0]
    text = "\n".join(json.dumps(r) for r in recs) + "\n"
    (tmp_path / "in.jsonl").write_text(text.replace('"@1e400@"', "1e400"))
    want = f"bower: error: in.jsonl: record {i} (line {i + 1}): {DD_CASES[case][1]}"
    if reader == "lib-analyze":
        with pytest.raises(bower.BowerError) as e:
            bower.analyze("in.jsonl")
        assert "bower: error: " + e.value.format_message() == want
    else:
        assert run(capsys, "analyze", "in.jsonl") == (2, "", want + "\n")
    assert listing(tmp_path) == ["in.jsonl"]


def test_should_bid_samples_past_the_old_cap_are_used(capsys):
    # 200,000 was once a silent cap: a count past it is used as asked (past 1e9 refused, test_a_huge_number)
    code, out, err = run(capsys, "should-bid", "JH JD AH KH 9S TC", "--samples", "200001", "--json", "--threads", "1")
    assert code == 0, err
    got = json.loads(out)
    assert (got["samples"], got["draws"], got["stopped"]) == (200_001, 200_001, "samples")


def test_a_strategy_fifo_with_a_writer_is_read(tmp_path):
    # --strategy <(...) is a pipe with a writer: read as a file is
    import threading

    os.mkfifo(tmp_path / "s.toml")

    def write():
        with open(tmp_path / "s.toml", "w") as fh:
            fh.write('base = "default"\nbid_3 = 2.6\nname = "a.b.c"\n')

    writer = threading.Thread(target=write)
    writer.start()
    try:
        got = bower.strategy(str(tmp_path / "s.toml"))
    finally:
        writer.join(timeout=30)
    assert got.params["bid_3"] == 2.6
