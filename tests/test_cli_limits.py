"""Numbers past any limit, strategy parameters out of range and bad Dask schedulers (issue 33): one line, exit 2.

A count or a seed is checked on its text before it is expanded
(``1e999999999`` would take minutes to expand, with no signal honoured);
``pimc_worlds`` has a range (``1e19`` used to wrap around into another
player); a scheduler that accepts and stays silent, or answers with other
bytes, ends within ``--scheduler-timeout``. The library raises
``bower.BowerError`` with the same words. Each test states the exact line,
and that the folder is left as it was.
"""

from __future__ import annotations

import socket
import time

import pytest

import bower
from bower.sim import distributed as dist
from bower.sim import runner
from bower.sim.text import whole_number
from tests import fake_servers
from tests.cli_run import listing, one_error, run

HUGE = "1e999999999"  # minutes and 400 MB to expand to an int
LIMITS = {"--hands": "more than any run could finish: at most 1e12", "--games": "more than any run could finish: "
          "at most 1e10", "--max-games": "more than any run could finish: at most 1e10",
          "--samples": "more than any run could finish: at most 1e9",
          "--seed": "too large a seed: at most 18,446,744,073,709,551,615"}
SEED = "'--seed' (env var: 'BOWER_SEED')"


# ---------------------------------------------------------------- counts and seeds read from their text

@pytest.mark.parametrize("args, flag, words", [
    (["simulate", "--hands"], "'--hands'", LIMITS["--hands"]),
    (["simulate", "--games"], "'--games'", LIMITS["--games"]),
    (["simulate", "--seed"], SEED, LIMITS["--seed"]),
    (["experiment", "default", "random", "--games"], "'--games'", LIMITS["--games"]),
    (["experiment", "default", "random", "--until-significant", "--max-games"], "'--max-games'",
     LIMITS["--max-games"]),
    (["experiment", "default", "random", "--seed"], SEED, LIMITS["--seed"]),
    (["sweep", "--param", "bid_3=2.6:2.8:0.2", "--games"], "'--games'", LIMITS["--games"]),
    (["sweep", "--param", "bid_3=2.6:2.8:0.2", "--seed"], SEED, LIMITS["--seed"]),
    (["should-bid", "JH JD AH KH 9S TC", "--samples"], "'--samples'", LIMITS["--samples"]),
    (["should-bid", "JH JD AH KH 9S TC", "--seed"], SEED, LIMITS["--seed"]),
    (["profile", "--hands"], "'--hands'", "more than any run could finish: at most 1e8"),
    (["report", "--out", "rep", "--hands"], "'--hands'", LIMITS["--hands"]),
    (["report", "--out", "rep", "--games"], "'--games'", LIMITS["--games"]),
    (["report", "--out", "rep", "--dd-hands"], "'--dd-hands'", LIMITS["--hands"]),
    (["report", "--out", "rep", "--seed"], SEED, LIMITS["--seed"]),
], ids=lambda a: " ".join(a) if isinstance(a, list) else None)
@pytest.mark.parametrize("number", [HUGE, "1e99999999999999999999999", "9" * 5000, "1_000e999_999_999"])
def test_a_huge_count_is_refused_from_its_text(capsys, tmp_path, monkeypatch, args, flag, words, number):
    monkeypatch.chdir(tmp_path)
    t0 = time.monotonic()
    line = one_error(capsys, *args, number)
    assert time.monotonic() - t0 < 20  # never expanded (1e999999999 took minutes)
    shown = number if len(number) <= 40 else number[:40] + "..."
    assert line == f"bower: error: Invalid value for {flag}: {shown} is {words}"
    assert listing(tmp_path) == []


def test_report_swap_deals_and_a_negative_one(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    line = one_error(capsys, "report", "--out", "rep", "--swap-deals", HUGE)
    assert line.startswith(f"bower: error: Invalid value for '--swap-deals': {HUGE} is more than any run could "
                           "finish: at most ")
    assert one_error(capsys, "simulate", "--hands", "-" + HUGE) == (
        f"bower: error: Invalid value for '--hands': -{HUGE} is not a positive integer")
    assert one_error(capsys, "report", "--out", "rep", "--dd-hands", "-" + HUGE) == (
        f"bower: error: Invalid value for '--dd-hands': -{HUGE} is less than 0")
    assert listing(tmp_path) == []


@pytest.mark.parametrize("command", [["simulate"], ["experiment", "default", "random"],
                                     ["should-bid", "JH JD AH KH 9S TC"]])
def test_a_huge_seed_from_the_environment(capsys, tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOWER_SEED", HUGE)
    t0 = time.monotonic()
    assert one_error(capsys, *command) == f"bower: error: Invalid value for {SEED}: {HUGE} is {LIMITS['--seed']}"
    assert time.monotonic() - t0 < 20
    monkeypatch.setenv("BOWER_SEED", str(2**64))
    assert one_error(capsys, *command) == (f"bower: error: Invalid value for {SEED}: 18,446,744,073,709,551,616 is "
                                           f"{LIMITS['--seed']}")
    assert listing(tmp_path) == []


def test_the_largest_seed_is_taken():
    assert runner.check_seed(2**64 - 1) == 2**64 - 1
    assert runner.chunk_states(2**64 - 1, 0, 1).shape == (1, 4)  # the seed reaches the chunks' streams as it is


@pytest.mark.parametrize("text, value", [("1e6", 10**6), ("1_000_000", 10**6), ("1.5e3", 1500), ("0e999999999", 0),
                                         ("-7", -7), ("1e29", 10**29)])
def test_whole_number_reads_the_usual_forms(text, value):
    assert whole_number(text) == value


@pytest.mark.parametrize("text, error", [("1e30", OverflowError), (HUGE, OverflowError), ("9" * 5000, OverflowError),
                                         ("1e99999999999999999999999", OverflowError), ("1.5", ValueError),
                                         ("1e-99999999999999999999999", ValueError), ("nan", ValueError),
                                         ("inf", ValueError), ("²", ValueError), ("", ValueError)])
def test_whole_number_refuses_at_once(text, error):
    t0 = time.monotonic()
    with pytest.raises(error):
        whole_number(text)
    assert time.monotonic() - t0 < 20


def test_the_library_refuses_the_same_seeds():
    for seed, words in ((10**400, "seed= about 1e400 is too large a seed: at most 18,446,744,073,709,551,615"),
                        (2**64, "seed= 18,446,744,073,709,551,616 is too large a seed: at most "
                                "18,446,744,073,709,551,615"),
                        (-(10**5000), "seed= must be a non-negative integer, got about -1e5000"),
                        ("1e9", "seed= must be a whole number, got '1e9'")):
        with pytest.raises(bower.BowerError) as e:
            bower.simulate(hands=10, seed=seed)
        assert str(e.value) == words
    # the engine's own check speaks in flags; the library's functions name their arguments (above)
    with pytest.raises(bower.BowerError, match="--hands must be a positive integer, got about -1e400"):
        runner.simulate(hands=-(10**400))


BIG = 10**5000  # past Python's 4,300 digits for str(): an error that printed it would fail itself


@pytest.mark.parametrize("call, words", [
    (lambda: bower.simulate(hands=10, threads=BIG),
     f"threads= must be between 1 and {runner.max_threads()} on this machine, got about 1e5000"),
    (lambda: bower.should_bid("JH JD AH KH 9S TC", samples=BIG),
     "samples= about 1e5000 is more than any run could finish: at most 1e9"),
    (lambda: bower.should_bid("JH JD AH KH 9S TC", samples=2 * 10**9),
     "samples= 2,000,000,000 is more than any run could finish: at most 1e9"),
    (lambda: bower.should_bid("JH JD AH KH 9S TC", position=BIG),
     "position= must be 1, 2 or 3 (1 = dealer's left, 3 = dealer), got about 1e5000"),
    (lambda: bower.should_bid("JH JD AH KH 9S TC", tau=BIG), "tau= must be a number >= 0, got about 1e5000"),
    (lambda: bower.should_bid("JH JD AH KH 9S TC", tau="x"), "tau= must be a number or None, got 'x'"),
    (lambda: bower.simulate(hands=10, rules={"moon_set_penalty": BIG}),
     "bad value about 1e5000 for rule option 'moon_set_penalty' (allowed: 6 | 24)"),
])
def test_the_library_names_a_huge_number(call, words):
    with pytest.raises(bower.BowerError) as e:
        call()
    assert str(e.value) == words


H = "JH JD AH KH 9S TC"
DEAL = {0: "JH JD AH KH QH TH", 1: "9C TC JC QC KC AC", 2: "9D TD QD KD AD 9H"}
DEAL_TEXT = "JH JD AH KH QH TH 1:9C TC JC QC KC AC 2:9D TD QD KD AD 9H"
EUCHRE = "0:JS AS KS AH 9D 1:JC AC KC QC TC 2:JH KH QH TH 9H 3:JD AD KD QD TD"
NAN, INF = float("nan"), float("inf")
SCORES = "scores= must be game scores from -1,000,000 to 1,000,000, got "
THREADS = f"threads= must be between 1 and {runner.max_threads()} on this machine, got "


# every whole-number and float argument of the library's functions: a huge one (10**5000, whose str() fails),
# a negative one, a bool, nan and inf each raise BowerError with one line naming the argument
@pytest.mark.parametrize("call, words", [
    (lambda: bower.simulate(hands=BIG), "hands= about 1e5000 is more than any run could finish: at most 1e12"),
    (lambda: bower.simulate(hands=-BIG), "hands= must be a positive integer, got about -1e5000"),
    (lambda: bower.simulate(games=BIG), "games= about 1e5000 is more than any run could finish: at most 1e10"),
    (lambda: bower.simulate(hands=True), "hands= must be a whole number, got True"),
    (lambda: bower.simulate(hands=INF), "hands= must be a whole number, got inf"),
    (lambda: bower.simulate(hands=10, seed=NAN), "seed= must be a whole number, got nan"),
    (lambda: bower.simulate(hands=10, threads=0), THREADS + "0"),
    (lambda: bower.simulate(hands=10, rules={"moon_set_penalty": -BIG}),
     "bad value about -1e5000 for rule option 'moon_set_penalty' (allowed: 6 | 24)"),
    (lambda: bower.experiment(["default", "random"], games=BIG),
     "games= about 1e5000 is more than any run could finish: at most 1e10"),
    (lambda: bower.experiment(["default", "random"], games=10, until_significant=True, max_games=-BIG),
     "max_games= must be a positive integer, got about -1e5000"),
    (lambda: bower.experiment(["default", "random"], games=10, seed=-1), "seed= must be a non-negative integer, got -1"),
    (lambda: bower.experiment(["default", "random"], games=10, threads=BIG), THREADS + "about 1e5000"),
    (lambda: bower.experiment(["default", "random"], games=10, names=[BIG, "x"]),
     "names= must be a list of strings or None, got [about 1e5000, 'x']"),
    (lambda: bower.experiment({"a": BIG}, games=10), "strategies= must be a list, got a dict holding a huge number"),
    (lambda: bower.sweep(grid={"bid_3": [2.6]}, games=-BIG), "games= must be a positive integer, got about -1e5000"),
    (lambda: bower.sweep(grid={"bid_3": [2.6]}, games=10, seed=BIG),
     "seed= about 1e5000 is too large a seed: at most 18,446,744,073,709,551,615"),
    (lambda: bower.sweep(grid={"bid_3": [BIG]}, games=10),
     "bad value about 1e5000 for strategy parameter 'bid_3' in the sweep (a finite number)"),
    (lambda: bower.sweep(grid={"bid_3": [NAN]}, games=10),
     "bad value nan for strategy parameter 'bid_3' in the sweep (a finite number)"),
    (lambda: bower.should_bid(H, position=2, calls=["pass"], swapped=BIG), "swapped= about 1e5000 is not a position"),
    (lambda: bower.should_bid(H, position=2, calls=["pass"], swapped=-BIG),
     "swapped= about -1e5000 is not a position"),
    (lambda: bower.should_bid(H, bid=BIG), "bid= about 1e5000 is not a bid"),
    (lambda: bower.should_bid(H, position=2, calls=[BIG]), "calls= about 1e5000 is not a call"),
    (lambda: bower.should_bid(H, scores=[BIG, 0, 0]), "scores= about 1e5000 is not a game score"),
    (lambda: bower.should_bid(H, scores=[10**25, 0, 0]), SCORES + "'10000000000000000000000000,0,0'"),
    (lambda: bower.should_bid(H, scores=[0, -10**6 - 1, 0]), SCORES + "'0,-1000001,0'"),
    (lambda: bower.should_bid(H, scores="1" + "0" * 5000 + ",0,0"), SCORES + "'1" + "0" * 39 + "...'"),
    (lambda: bower.should_bid([BIG]), "hand= must be a string of cards or a list of card names, got [about 1e5000]"),
    (lambda: bower.should_bid(H, seed=-BIG), "seed= must be a non-negative integer, got about -1e5000"),
    (lambda: bower.should_bid(H, threads=-BIG), THREADS + "about -1e5000"),
    (lambda: bower.should_bid(H, epsilon=BIG), "epsilon= must be at least 0 and below 1, got about 1e5000"),
    (lambda: bower.should_bid(H, epsilon=NAN), "epsilon= must be at least 0 and below 1, got nan"),
    (lambda: bower.should_bid(H, tau=INF), "tau= must be a number >= 0, got inf"),
    (lambda: bower.should_bid(H, samples=True), "samples= must be a whole number or None, got True"),
    (lambda: bower.strategy("default", bid_3=BIG),
     "bad value about 1e5000 for strategy parameter 'bid_3' (a finite number)"),
    (lambda: bower.strategy("default", bid_3=-INF), "bad value -inf for strategy parameter 'bid_3' (a finite number)"),
    (lambda: bower.solve(DEAL, trump="H", maker=BIG),
     "maker= about 1e5000 is not a seat at the Ghost Hand Euchre table (0..2)"),
    (lambda: bower.solve(DEAL, trump="H", maker=0, leader=-BIG),
     "leader= about -1e5000 is not a seat at the Ghost Hand Euchre table (0..2)"),
    (lambda: bower.solve(DEAL, dealer=BIG),
     "dealer= about 1e5000 is not a seat at the Ghost Hand Euchre table (0..2)"),
    (lambda: bower.solve(DEAL, trump="H", maker=NAN), "maker= must be a whole number or None, got nan"),
    (lambda: bower.solve(EUCHRE, variant="euchre", trump="S", maker=0, alone=[BIG]),
     "alone= about 1e5000 is not a seat at the Standard Euchre table (0..3)"),
    (lambda: bower.solve({BIG: DEAL[0], 1: DEAL[1], 2: DEAL[2]}),
     "seat about 1e5000 is not at the Ghost Hand Euchre table (seats 0..2)"),
    (lambda: bower.solve({-1: DEAL[0], 1: DEAL[1], 2: DEAL[2]}),
     "seat -1 is not at the Ghost Hand Euchre table (seats 0..2)"),
    (lambda: bower.solve("9" * 5000 + ":" + DEAL_TEXT),
     "seat " + "9" * 40 + "... is not at the Ghost Hand Euchre table (seats 0..2)"),
    (lambda: bower.solve("²:" + DEAL_TEXT), "malformed seat '²' in the deal (expected e.g. '0:JH JD ...')"),
    (lambda: bower.solve(DEAL, trump="H", maker=0, plays=[BIG]),
     "plays= must be a string of cards or a list of card names or None, got [about 1e5000]"),
    (lambda: bower.solve_records("in.jsonl", "out.jsonl", threads=BIG), THREADS + "about 1e5000"),
    (lambda: bower.analyze("in.jsonl", threads=-BIG, dd=True), THREADS + "about -1e5000"),
    (lambda: bower.read_records("in.jsonl", batch_size=-BIG),
     "batch_size= must be a positive whole number, got about -1e5000"),
    (lambda: bower.read_records("in.jsonl", batch_size=INF), "batch_size= must be a whole number or None, got inf"),
    (lambda: bower.warm("ghost", parts=["hands"], jobs=-BIG), "jobs must be at least 1, got about -1e5000"),
    (lambda: bower.warm("ghost", parts=["hands"], jobs=True), "jobs= must be a whole number or None, got True"),
])
def test_every_number_argument_of_the_library(folder, call, words):
    before = listing(folder)
    with pytest.raises(bower.BowerError) as e:
        call()
    assert str(e.value) == words
    assert listing(folder) == before


def test_a_batch_size_past_int64_reads_the_whole_file(folder):
    runner.simulate(hands=20, records_path=str(folder / "in.parquet"))
    for path in ("in.jsonl", "in.parquet"):
        for size in (2**63, BIG):
            batches = list(bower.read_records(path, batch_size=size))
            assert [len(b) for b in batches] == [20]


def test_huge_seats_and_scores_on_the_command_line(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert one_error(capsys, "should-bid", H, "--scores", "99999999999999999999,0,0") == (
        f"bower: error: --scores{SCORES[len('scores='):]}'99999999999999999999,0,0'")
    assert one_error(capsys, "solve", "9" * 5000 + ":" + DEAL_TEXT) == (
        "bower: error: seat " + "9" * 40 + "... is not at the Ghost Hand Euchre table (seats 0..2)")
    assert listing(tmp_path) == []


def test_a_huge_rule_value_on_the_command_line(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert one_error(capsys, "simulate", "--rule", f"moon_set_penalty={HUGE}") == (
        f"bower: error: bad value '{HUGE}' for rule option 'moon_set_penalty' (allowed: 6 | 24)")
    assert listing(tmp_path) == []


# ---------------------------------------------------------------- strategy parameters have ranges

RANGE = "(a whole number from 0 to 10,000)"


@pytest.mark.parametrize("text, shown", [("1e12", "1000000000000.0"), ("1e19", "1e+19"), ("1e300", "1e+300"),
                                         ("10001", "10,001"), ("-1", "-1"), ("1.5", "1.5"), ("nan", "nan"),
                                         ("inf", "inf"), ("1" + "0" * 400, "about 1e400")])
def test_pimc_worlds_out_of_range_is_refused(capsys, tmp_path, monkeypatch, text, shown):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w.toml").write_text(f'base = "default"\npimc_worlds = {text}\n')
    t0 = time.monotonic()
    for command in (["simulate", "--hands", "100", "--strategy", "w.toml"],
                    ["experiment", "w.toml", "default", "--games", "10"],
                    ["should-bid", "JH JD AH KH 9S TC", "--strategy", "w.toml", "--samples", "10"]):
        assert one_error(capsys, *command) == (
            f"bower: error: bad value {shown} for strategy parameter 'pimc_worlds' in w.toml {RANGE}")
    assert time.monotonic() - t0 < 20
    assert listing(tmp_path) == ["w.toml"]


@pytest.mark.parametrize("value, shown", [(1e12, "1000000000000.0"), (1e19, "1e+19"), (10**400, "about 1e400"),
                                          ("1e999999999", "'1e999999999'"), (2.5, "2.5"), (-1, "-1")])
def test_the_library_refuses_the_same_pimc_worlds(value, shown):
    with pytest.raises(bower.BowerError) as e:
        bower.strategy("default", pimc_worlds=value)
    assert str(e.value) == f"bad value {shown} for strategy parameter 'pimc_worlds' {RANGE}"


def test_pimc_worlds_at_its_limits_is_taken(tmp_path):
    for value in (0, 10_000, 8.0):
        assert bower.strategy("default", pimc_worlds=value).params["pimc_worlds"] == value
    (tmp_path / "w.toml").write_text('base = "default"\npimc_worlds = 1e4\n')
    assert bower.Strategy("x", {}).with_params(pimc_worlds=1e4).params["pimc_worlds"] == 10_000
    from bower.sim.strategy import load_toml

    assert load_toml(str(tmp_path / "w.toml"))["pimc_worlds"] == 10_000


def test_a_sweep_of_pimc_worlds_past_its_range(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert one_error(capsys, "sweep", "--param", "pimc_worlds=0:1e12:1e11", "--games", "10") == (
        f"bower: error: bad value 100000000000.0 for strategy parameter 'pimc_worlds' in --param {RANGE}")
    assert one_error(capsys, "sweep", "--param", "bid_3=-1e308:1e308:1e-300") == (
        "bower: error: --param 'bid_3=-1e308:1e308:1e-300' gives over a billion values (at most 1000)")
    assert listing(tmp_path) == []


def test_the_range_is_in_the_strategies_listing(capsys):
    code, out, _ = run(capsys, "strategies")
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith("  pimc_worlds: "))
    assert line.endswith(RANGE)
    code, out, _ = run(capsys, "strategies", "--json")
    import json

    params = {p["name"]: p for p in json.loads(out)["parameters"]}
    assert params["pimc_worlds"]["range"] == [0, 10_000] and "range" not in params["bid_3"]


@pytest.mark.parametrize("text, words", [
    ("pimc_worlds = 1" + "0" * 5000, "a number too long to read"),
    ("x = " + "[" * 50_000 + "]" * 50_000, "arrays or tables nested too deeply"),
])
def test_toml_past_what_python_reads(capsys, tmp_path, monkeypatch, text, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "w.toml").write_text(f'base = "default"\n{text}\n')
    assert one_error(capsys, "simulate", "--hands", "100", "--strategy", "w.toml") == (
        f"bower: error: strategy file w.toml is not valid TOML: {words}")
    assert listing(tmp_path) == ["w.toml"]


# ---------------------------------------------------------------- Dask schedulers: addresses, silence, other servers

@pytest.fixture
def silent():
    s = fake_servers.Server(fake_servers.silent)
    yield s
    s.close()


SCHEDULER_COMMANDS = [
    ["simulate", "--hands", "5000", "--records", "out.parquet"],
    ["simulate", "--games", "10"],
    ["experiment", "default", "random", "--games", "10"],
    ["sweep", "--param", "bid_3=2.6:2.8:0.2", "--games", "10"],
    ["should-bid", "JH JD AH KH 9S TC", "--samples", "10"],
    ["report", "--hands", "1000", "--out", "rep"],
    ["solve", "--records", "in.jsonl", "--out", "out.jsonl"],
    ["replay", "in.jsonl"],
]


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A folder holding a small valid records file ``in.jsonl`` (and its metadata), the current folder."""
    monkeypatch.chdir(tmp_path)
    runner.simulate(hands=20, records_path=str(tmp_path / "in.jsonl"))
    return tmp_path


@pytest.mark.parametrize("args", SCHEDULER_COMMANDS, ids=lambda a: "-".join(a[:2]))
def test_a_silent_port_ends_within_the_timeout(capsys, folder, silent, args):
    before = listing(folder)
    t0 = time.monotonic()
    address = f"tcp://127.0.0.1:{silent.port}"
    # a fifth of a second: the port never answers, so a longer wait would change only how long the test takes
    line = one_error(capsys, *args, "--scheduler", address, "--scheduler-timeout", "0.2")
    assert time.monotonic() - t0 < 20  # it used to wait for ever
    assert line == (f"bower: error: the server at {address} accepted the connection but did not answer within "
                    "0.2 s (is it a Dask scheduler's port?)")
    assert listing(folder) == before


def test_the_timeout_from_the_environment(capsys, folder, silent, monkeypatch):
    monkeypatch.setenv("BOWER_SCHEDULER_TIMEOUT", "0.5")
    address = f"127.0.0.1:{silent.port}"
    assert one_error(capsys, "simulate", "--hands", "100", "--scheduler", address) == (
        f"bower: error: the server at {address} accepted the connection but did not answer within 0.5 s "
        "(is it a Dask scheduler's port?)")
    with pytest.raises(bower.BowerError, match="did not answer within 0.5 s"):  # the library honours it too
        bower.simulate(hands=100, scheduler=address)
    assert dist.timeout_s() == 0.5
    monkeypatch.delenv("BOWER_SCHEDULER_TIMEOUT")
    assert dist.timeout_s() == 30  # the default, and --scheduler-timeout does not outlive its command


@pytest.mark.parametrize("answer", [b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello",
                                    b"\x05\x00\x00\x00\x00\x00\x00\x00hello", b"\x00" * 64])
def test_a_port_that_answers_other_bytes(capsys, folder, answer):
    server = fake_servers.Server(fake_servers.sends(answer))
    address = f"tcp://127.0.0.1:{server.port}"
    try:
        line = one_error(capsys, "simulate", "--hands", "100", "--scheduler", address, "--scheduler-timeout", "5")
    finally:
        server.close()
    assert line == (f"bower: error: the server at {address} answered with something other than a Dask scheduler's "
                    "handshake (is it a Dask scheduler's port?)")
    assert "memory" not in line


@pytest.mark.parametrize("answer", [b"", b"\x3a\x00\x00"])
def test_a_port_that_hangs_up(capsys, folder, answer):
    server = fake_servers.Server(fake_servers.sends(answer, close=True))
    address = f"tcp://127.0.0.1:{server.port}"
    try:
        line = one_error(capsys, "simulate", "--hands", "100", "--scheduler", address, "--scheduler-timeout", "5")
    finally:
        server.close()
    assert line == (f"bower: error: the server at {address} closed the connection without a word "
                    "(is it a Dask scheduler's port?)")


def test_a_refused_port_is_tried_until_the_timeout(capsys, folder):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    t0 = time.monotonic()
    line = one_error(capsys, "simulate", "--hands", "100", "--scheduler", f"tcp://127.0.0.1:{port}",
                     "--scheduler-timeout", "1")
    assert 1 <= time.monotonic() - t0 < 20
    assert line == (f"bower: error: cannot reach the Dask scheduler at tcp://127.0.0.1:{port} within 1 s "
                    "(Connection refused)")


NOT_AN_ADDRESS = "is not a scheduler address: give tcp://HOST:PORT (or HOST:PORT) or local:N"
LOCAL_N = "--scheduler local:N needs a number of worker processes from 1 to 1024, got"


@pytest.mark.parametrize("address, words", [
    ("foo://", f"--scheduler 'foo://' {NOT_AN_ADDRESS}"),
    ("http://", f"--scheduler 'http://' {NOT_AN_ADDRESS}"),
    ("tcp://", f"--scheduler 'tcp://' {NOT_AN_ADDRESS}"),
    ("[::1", f"--scheduler '[::1' {NOT_AN_ADDRESS}"),
    ("tcp://h:abc", f"--scheduler 'tcp://h:abc' {NOT_AN_ADDRESS}"),
    ("tcp://hé:1", f"--scheduler 'tcp://hé:1' {NOT_AN_ADDRESS}"),
    ("http://head:8786", "--scheduler 'http://head:8786': 'http' is not a Dask protocol (tcp, tls, ws, wss, ucx)"),
    ("tcp://head:99999", "--scheduler 'tcp://head:99999': port 99999 is not from 1 to 65535"),
    ("tcp://head:0", "--scheduler 'tcp://head:0': port 0 is not from 1 to 65535"),
    ("local:²", f"{LOCAL_N} 'local:²'"),
    ("local:0", f"{LOCAL_N} 'local:0'"),
    ("local:1e999", f"{LOCAL_N} 'local:1e999'"),
    ("local:" + "9" * 5000, f"{LOCAL_N} 'local:{'9' * 34}...'"),
    ("local:", f"{LOCAL_N} 'local:'"),
])
def test_a_malformed_address_is_one_line(capsys, tmp_path, monkeypatch, address, words):
    monkeypatch.chdir(tmp_path)
    for command in SCHEDULER_COMMANDS[:1] + SCHEDULER_COMMANDS[2:3]:
        assert one_error(capsys, *command, "--scheduler", address) == f"bower: error: {words}"
    with pytest.raises(bower.BowerError) as e:
        bower.simulate(hands=100, scheduler=address)
    assert str(e.value) == words.replace("--scheduler ", "scheduler= ")  # the library names its argument
    assert listing(tmp_path) == []


@pytest.mark.parametrize("value", ["0", "-1", "1e999", "nan", "abc", "86401"])
def test_a_bad_scheduler_timeout(capsys, tmp_path, monkeypatch, value):
    monkeypatch.chdir(tmp_path)
    assert one_error(capsys, "simulate", "--hands", "100", "--scheduler", "local:1", "--scheduler-timeout", value) == (
        "bower: error: Invalid value for '--scheduler-timeout' (env var: 'BOWER_SCHEDULER_TIMEOUT'): must be a "
        f"number of seconds above 0 and at most 86400, got {value!r}")
    monkeypatch.setenv("BOWER_SCHEDULER_TIMEOUT", value)
    with pytest.raises(bower.BowerError) as e:
        bower.simulate(hands=100, scheduler="local:1")
    assert str(e.value) == ("BOWER_SCHEDULER_TIMEOUT must be a number of seconds above 0 and at most 86400, "
                            f"got {value!r}")
    assert listing(tmp_path) == []


@pytest.mark.parametrize("scheduler", [5, 1.5, ["tcp://h:1"], b"tcp://h:1"])
def test_the_library_refuses_a_scheduler_of_another_type(scheduler):
    with pytest.raises(bower.BowerError) as e:
        bower.simulate(hands=100, scheduler=scheduler)
    assert str(e.value) == f"scheduler= must be a string or None, got {scheduler!r}"  # the library's type check


@pytest.mark.parametrize("command", ["simulate", "experiment", "sweep", "should-bid", "report", "solve", "replay",
                                     "equity"])
def test_the_scheduler_timeout_is_in_the_help(capsys, command):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0 and "--scheduler-timeout SECONDS" in out and "BOWER_SCHEDULER_TIMEOUT" in out
