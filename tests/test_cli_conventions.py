"""The command line as people expect it of click tools (issue 17): completion, choices, --quiet, --json, BOWER_*
environment defaults, counts written 1e6, strategy files with a base preset, and the compile notice."""

from __future__ import annotations

import io
import json

import click
import numba
import pytest

from bower.sim import progress as progress_mod
from bower.sim import runner
from tests.cli_run import run, run_raw
from bower.sim.errors import CommandLineError, Stopped, UserError
from bower.sim.progress import COMPILE_NOTICE, Progress
from bower.sim.records import RecordsError
from bower.sim.rules import RuleError
from bower.sim.strategy import StrategyError, load_strategy


def option_help(text: str, flag: str) -> str:
    """The help entry of ``flag`` in a ``--help`` text, on one line."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.lstrip().startswith((flag + " ", flag + ",")))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("-")), len(lines))
    return " ".join(" ".join(lines[start:end]).split())


# ---------------------------------------------------------------- errors are click exceptions; completion

def test_every_bad_input_error_is_a_click_exception_with_status_2(capsys):
    for cls in (UserError, CommandLineError, runner.RunError, RuleError, StrategyError, RecordsError):
        assert issubclass(cls, click.ClickException) and cls.exit_code == 2
    err = io.StringIO()
    RecordsError("cannot read x:\n  line 3").show(err)
    assert err.getvalue() == "bower: error: cannot read x: line 3\n"  # always one line
    assert (Stopped().exit_code, Stopped(terminated=True).exit_code) == (130, 143)


def test_bash_completion_script(capsys, monkeypatch):
    monkeypatch.setenv("_BOWER_COMPLETE", "bash_source")
    code, out, err = run(capsys)
    assert code == 0 and err == ""
    assert "_bower_completion()" in out and "complete -o nosort -F _bower_completion bower" in out


@pytest.mark.parametrize("words, cword, wanted", [
    ("bower sim", 1, ["plain,simulate"]),
    ("bower simulate --variant ", 3, ["plain,ghost", "plain,cutthroat", "plain,hasenpfeffer", "plain,euchre"]),
    ("bower profile --kernel deal,so", 3, ["plain,deal,solve"]),
    ("bower should-bid --swapped ", 3, ["plain,none", "plain,1", "plain,2", "plain,3"]),
    ("bower simulate --strategy agg", 3, ["plain,aggressive", "file,agg"]),
])
def test_completion_offers_the_closed_sets(capsys, monkeypatch, words, cword, wanted):
    monkeypatch.setenv("_BOWER_COMPLETE", "bash_complete")
    monkeypatch.setenv("COMP_WORDS", words)
    monkeypatch.setenv("COMP_CWORD", str(cword))
    code, out, _ = run(capsys)
    assert code == 0
    assert out.split() == wanted


def test_bare_bower_prints_the_help_and_the_statuses(capsys):
    code, out, err = run(capsys)
    assert code == 0 and err == "" and out.startswith("Usage: bower")
    text = " ".join(out.split())
    for needle in ("2 bad input or a fault", "130 interrupted", "143 terminated (SIGTERM)",
                   '_BOWER_COMPLETE=bash_source bower', "-q, --quiet"):
        assert needle in text


# ---------------------------------------------------------------- closed sets in --help

@pytest.mark.parametrize("command, flag, shown", [
    ("simulate", "--variant", "[ghost|cutthroat|hasenpfeffer|euchre]"),
    ("solve", "--variant", "[ghost|cutthroat|hasenpfeffer|euchre]"),
    ("profile", "--kernel", "[deal|auction|play|hand|game|should-bid|solve|all][,...]"),
    ("should-bid", "--position", "INTEGER RANGE"),
    ("should-bid", "--position", "1<=x<=4]"),
    ("should-bid", "--swapped", "[none|1|2|3]"),
    ("should-bid", "--calls", "[pass|p|1|2|3|4|5|6|moon|little-pepper|big-pepper|order|assist|take][,...]"),
    ("should-bid", "--model", "[softmax|exact]"),
    ("simulate", "--threads", "env var: BOWER_THREADS"),
    ("simulate", "--seed", "env var: BOWER_SEED"),
    ("experiment", "--seed", "env var: BOWER_SEED"),
])
def test_help_lists_the_closed_sets(capsys, command, flag, shown):
    code, out, _ = run(capsys, command, "--help")
    assert code == 0
    assert shown in option_help(out, flag)


@pytest.mark.parametrize("args, words", [
    (["simulate", "--variant", "bridge"], "Invalid value for '--variant': unknown variant 'bridge' (known: ghost, "
                                          "cutthroat, hasenpfeffer, euchre)"),
    (["profile", "--kernel", "deal,shuffle"], "Invalid value for '--kernel': unknown kernel 'shuffle' (choose from "
                                              "deal, auction, play, hand, game, should-bid, solve, all)"),
    (["should-bid", "JH JD AH KH 9S TC", "--position", "5"], "Invalid value for '--position': '5' is not a position: "
                                                              "1 to 4 (1 = dealer's left, the last is the dealer)"),
    (["should-bid", "JH JD AH KH 9S TC", "--calls", "pass,double"], "Invalid value for '--calls': unknown call "
                                                                     "'double'"),
    (["should-bid", "JH JD AH KH 9S TC", "--swapped", "4"], "Invalid value for '--swapped': '4' is not one of"),
])
def test_a_value_outside_the_set_is_one_line(capsys, args, words):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith(f"bower: error: {words}")


def test_a_variant_alias_is_its_variant(capsys):
    code, out, _ = run(capsys, "simulate", "--variant", "Hasen", "--hands", "200", "--json")
    assert code == 0 and json.loads(out)["variant"] == "hasenpfeffer"


# ---------------------------------------------------------------- counts, environment defaults

@pytest.mark.parametrize("text, n", [("1e3", 1000), ("1_000", 1000), ("2.5e3", 2500), ("1000", 1000), ("1E3", 1000)])
def test_counts_written_as_people_write_them(capsys, text, n):
    code, out, _ = run(capsys, "simulate", "--hands", text, "--json")
    assert code == 0 and json.loads(out)["hands"] == n


@pytest.mark.parametrize("text", ["1.5", "1e-3", "nan", "inf", "1,000", "ten"])
def test_counts_that_are_not_whole_numbers_are_refused(capsys, text):
    code, out, err = run(capsys, "simulate", "--hands", text)
    assert (code, out) == (2, "")
    assert err == (f"bower: error: Invalid value for '--hands': {text!r} is not a whole number (write 1000000, "
                   "1_000_000 or 1e6)\n")


def test_seed_and_threads_default_from_the_environment(capsys, monkeypatch):
    code, out, _ = run(capsys, "simulate", "--hands", "2000", "--seed", "5", "--json")
    given = json.loads(out)
    monkeypatch.setenv("BOWER_SEED", "5")
    monkeypatch.setenv("BOWER_THREADS", "1")
    code, out, _ = run(capsys, "simulate", "--hands", "2000", "--json")
    from_env = json.loads(out)
    assert code == 0 and from_env["seed"] == 5 and from_env["threads"] == 1
    assert from_env["bids"] == given["bids"] and from_env["points_per_hand_by_position"] == given[
        "points_per_hand_by_position"]
    code, out, _ = run(capsys, "simulate", "--hands", "2000", "--seed", "6", "--json")
    assert json.loads(out)["seed"] == 6  # the command line wins over the environment
    monkeypatch.setenv("BOWER_THREADS", "0")
    code, out, err = run(capsys, "simulate", "--hands", "2000")
    assert code == 2 and err.startswith("bower: error: Invalid value for '--threads' (env var: 'BOWER_THREADS'): 0 is not in "
                                  "the range x>=1")


def test_any_option_defaults_from_bower_command_option(capsys, monkeypatch):
    monkeypatch.setenv("BOWER_SIMULATE_HANDS", "1_500")
    code, out, _ = run(capsys, "simulate", "--json")
    assert code == 0 and json.loads(out)["hands"] == 1500


# ---------------------------------------------------------------- --json everywhere, --quiet

def test_strategies_json(capsys):
    code, out, _ = run(capsys, "strategies", "--json")
    r = json.loads(out)
    assert code == 0 and r["variant"] == "ghost"
    assert r["presets"]["aggressive"]["parameters"] == load_strategy("aggressive")[1]
    assert {p["name"] for p in r["parameters"]} == set(load_strategy("default")[1])
    assert [p["name"] for p in r["parameters"] if p["switch"]] == ["bid_jump", "random", "pimc_sees_all", "pimc_infer",
                                                                  "pimc_bid", "bid_equity"]
    code, out, _ = run(capsys, "strategies", "--variant", "euchre", "--show", "cautious", "--json")
    assert json.loads(out) == {"variant": "euchre", "name": "cautious",
                               "parameters": load_strategy("cautious", "euchre")[1]}


def test_analyze_json(capsys, tmp_path):
    rec = tmp_path / "r.jsonl"
    runner.simulate(hands=3000, seed=2, records_path=str(rec))
    code, out, _ = run(capsys, "analyze", str(rec), "--json", "--csv", str(tmp_path / "t"))
    assert code == 0
    r = json.loads(out)
    assert (r["variant"], r["hands"]) == ("ghost", 3000)
    import pandas as pd

    for name, rows in r["tables"].items():
        frame = pd.read_csv(tmp_path / "t" / f"{name}.csv")
        assert len(rows) == len(frame), name
    assert sum(row["hands"] for row in r["tables"]["bid_success"]) == r["played"]
    assert sorted(r["written"]["csv"]["files"]) == sorted(str(p) for p in (tmp_path / "t").iterdir())


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_quiet_turns_off_the_bar_and_the_notice(capsys, monkeypatch):
    tty = _Tty()
    monkeypatch.setattr(progress_mod.sys, "stderr", tty)
    code, out, _ = run(capsys, "simulate", "--hands", "600000", "--threads", "1")
    assert code == 0 and "hands [" in tty.getvalue()
    tty.seek(0)
    tty.truncate()
    code, out, _ = run(capsys, "simulate", "--hands", "600000", "--threads", "1", "--quiet")
    assert code == 0 and tty.getvalue() == "" and "600,000 hands" in out
    code, out, _ = run(capsys, "--quiet", "simulate", "--hands", "600000", "--threads", "1")
    assert code == 0 and tty.getvalue() == ""
    progress_mod.set_quiet(False)


# ---------------------------------------------------------------- strategy files

def test_a_strategy_file_may_start_from_a_preset(capsys, tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('name = "mine"\nbase = "aggressive"\nbid_3 = 2.5\nbid_jump = true\n')
    want = dict(load_strategy("aggressive")[1], bid_3=2.5, bid_jump=1.0)
    assert load_strategy(str(path)) == ("mine", want)
    code, out, _ = run(capsys, "strategies", "--show", str(path), "--json")
    assert json.loads(out)["parameters"] == want
    code, out, _ = run(capsys, "strategies", "--show", str(path))
    assert code == 0 and "bid_3 = 2.5" in out and "bid_jump = true" in out
    again = tmp_path / "again.toml"
    again.write_text(out)
    assert load_strategy(str(again))[1] == want  # what --show prints reads back


def test_switches_are_true_or_false(tmp_path):
    path = tmp_path / "r.toml"
    path.write_text('base = "default"\nrandom = true\n')
    assert load_strategy(str(path))[1] == dict(load_strategy("default")[1], random=1.0)
    path.write_text('base = "default"\nrandom = 1\n')  # 0 / 1 are still read
    assert load_strategy(str(path))[1]["random"] == 1.0


# ---------------------------------------------------------------- the compile notice, progress without compile time

def _compile_something():
    """Compile a fresh function (a real Numba compile: a cache miss)."""
    f = numba.njit(lambda x: x * 2 + 1)
    assert f(3) == 7


def test_the_compile_notice_is_said_once_before_a_compile(monkeypatch):
    stream = io.StringIO()
    progress_mod.watch_compiles(stream)
    before = progress_mod.compile_seconds()
    _compile_something()
    _compile_something()
    assert stream.getvalue() == COMPILE_NOTICE + "\n"
    assert progress_mod.compile_seconds() > before
    progress_mod.stop_watching()
    progress_mod.watch_compiles(stream)
    progress_mod.stop_watching()
    _compile_something()  # disarmed: compiles after a command say nothing
    assert stream.getvalue() == COMPILE_NOTICE + "\n"


def test_a_closed_stderr_never_stops_a_compile():
    stream = io.StringIO()
    progress_mod.watch_compiles(stream)
    stream.close()
    try:
        _compile_something()
    finally:
        progress_mod.stop_watching()


def test_no_notice_under_quiet():
    stream = io.StringIO()
    progress_mod.watch_compiles(stream)
    progress_mod.set_quiet(True)
    try:
        _compile_something()
    finally:
        progress_mod.set_quiet(False)
        progress_mod.stop_watching()
    assert stream.getvalue() == ""


@pytest.mark.parametrize("command", [
    ["simulate", "--hands", "100"],
    ["should-bid", "JH JD AH KH 9S TC", "--samples", "200", "--model", "exact"],
])
def test_a_command_that_compiles_says_so_first(capsys, monkeypatch, command):
    # the kernels are in the cache already: a fresh function compiled when the run starts stands for a cold cache
    if command[0] == "simulate":
        real = runner.warm_up

        def warm(*a, **k):
            _compile_something()
            return real(*a, **k)

        monkeypatch.setattr(runner, "warm_up", warm)
    else:
        from bower.sim.variants.ghost import advice

        real_parse = advice.parse_hand

        def parse(*a, **k):
            _compile_something()
            return real_parse(*a, **k)

        monkeypatch.setattr(advice, "parse_hand", parse)
    code, out, err = run_raw(capsys, *command)
    assert code == 0 and out
    assert err == COMPILE_NOTICE + "\n"


def test_progress_leaves_compile_time_out():
    now, compiled = [0.0], [0.0]
    out = _Tty()
    bar = Progress("hands", stream=out, clock=lambda: now[0], compile_clock=lambda: compiled[0])
    now[0], compiled[0] = 100.0, 90.0  # 90 of the first 100 s were spent compiling
    bar(10, 100)
    assert bar.elapsed() == 10.0
    assert "90 s left" in out.getvalue()  # 10 s for 10%: 90 s for the rest (not 900)
