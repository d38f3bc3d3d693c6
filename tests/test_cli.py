"""The ``bower`` command line: output, JSON, records, and bad input (one line, exit status 2)."""

import json
import os
import subprocess
import sys

import pytest

from tests.cli_run import run


def test_simulate_prints_summary(capsys):
    code, out, err = run(capsys, "simulate", "--hands", "5000", "--seed", "1", "--threads", "1")
    assert code == 0
    for needle in ("5,000 hands", "thrown in", "ghost swaps", "make rate", "moon", "mean points per hand", "hands/s"):
        assert needle in out


def test_simulate_json_matches_api(capsys):
    from bower.sim import runner

    code, out, _ = run(capsys, "simulate", "--hands", "5000", "--seed", "3", "--json", "--rule", "auction=until_passes")
    assert code == 0
    s = json.loads(out)
    api = runner.simulate(hands=5000, seed=3, rules={"auction": "until_passes"})
    for key in ("hands", "thrown_in", "swaps", "bids", "points_per_hand_by_position", "rules"):
        assert s[key] == api[key]
    assert s["rules"]["auction"] == "until_passes"


def test_simulate_writes_records(capsys, tmp_path):
    path = tmp_path / "out.jsonl"
    code, out, _ = run(capsys, "simulate", "--hands", "300", "--records", str(path))
    assert code == 0
    lines = path.read_text().splitlines()
    assert len(lines) == 300
    assert json.loads(lines[299])["hand"] == 299


@pytest.mark.parametrize(
    "args, words",
    [
        (["simulate", "--variant", "bridge"], "unknown variant"),
        (["simulate", "--strategy", "psychic"], "unknown strategy"),
        (["simulate", "--rule", "jokers=yes"], "unknown rule option"),
        (["simulate", "--rule", "moon_set_penalty=7"], "bad value"),
        (["simulate", "--rule", "auction"], "NAME=VALUE"),
        (["simulate", "--hands", "0"], "--hands"),
        (["simulate", "--hands", "-5"], "--hands"),
        (["simulate", "--hands", "many"], "--hands"),
        (["simulate", "--threads", "0"], "--threads"),
        (["simulate", "--seed", "-1"], "--seed"),
        (["simulate", "--records", "/nonexistent-dir/x.jsonl"], "cannot write"),
        (["simulate", "--records", "out.csv"], ".jsonl or .parquet"),
        (["simulate", "--frobnicate"], "frobnicate"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert err.startswith("bower: error:")
    assert words in err
    assert list(tmp_path.iterdir()) == []


def test_records_into_a_directory_is_refused(capsys, tmp_path):
    code, _, err = run(capsys, "simulate", "--hands", "10", "--records", str(tmp_path))
    assert code == 2 and "directory" in err


def test_console_script_has_no_traceback(tmp_path):
    # the installed entry point, in a fresh process
    env = dict(os.environ)
    proc = subprocess.run(
        [sys.executable, "-c", "from bower.sim.cli import main; main()", "simulate", "--rule", "swap=sometimes"],
        capture_output=True, text=True, env=env, cwd=tmp_path,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "bower: error: bad value 'sometimes' for rule option 'swap' (allowed: at_turn | none)"
    ]


def test_simulate_games(capsys):
    code, out, _ = run(capsys, "simulate", "--games", "640", "--seed", "2")
    assert code == 0
    assert "640   to 32" in out and "win share by starting position" in out and "games/s" in out
    code, out, _ = run(capsys, "simulate", "--games", "640", "--seed", "2", "--json")
    s = json.loads(out)
    assert s["games"] == 640 and sum(s["wins_by_start"].values()) + s["unfinished"] == 640


def test_experiment_text_and_json(capsys):
    code, out, _ = run(capsys, "experiment", "default", "random", "--games", "1200", "--seed", "1")
    assert code == 0
    assert "default is better" in out and "win rate" in out and "duplicate deals" in out
    code, out, _ = run(capsys, "experiment", "default", "random", "--games", "1200", "--seed", "1", "--json")
    r = json.loads(out)
    assert [s["name"] for s in r["strategies"]] == ["default", "random"]
    assert r["pairs"][0]["excludes_zero"] is True
    for key in ("win_rate", "win_rate_ci95", "points_per_hand", "bid_rate", "make_rate_by_bid", "moon_rate", "swap_rate"):
        assert key in r["strategies"][0]


def test_experiment_until_significant_says_why_it_stopped(capsys):
    code, out, _ = run(capsys, "experiment", "default", "default", "--games", "400", "--until-significant",
                       "--max-games", "800")
    assert code == 0 and "reached --max-games" in out
    code, out, _ = run(capsys, "experiment", "default", "random", "--games", "400", "--until-significant")
    assert code == 0 and "differs significantly" in out


def test_experiment_with_a_toml_strategy(capsys, tmp_path):
    code, out, _ = run(capsys, "strategies", "--show", "aggressive")
    assert code == 0 and out.startswith("# bower strategy")
    path = tmp_path / "mine.toml"
    path.write_text(out.replace("bid_3 = 2.4", "bid_3 = 2.5"))
    code, out, _ = run(capsys, "experiment", str(path), "default", "--games", "600", "--json")
    assert code == 0
    r = json.loads(out)
    assert r["parameters"][str(path)]["bid_3"] == 2.5


def test_sweep_table_and_json(capsys):
    code, out, _ = run(capsys, "sweep", "--param", "bid_3=2.6:3.0:0.2", "--games", "600")
    assert code == 0
    assert sum(line.endswith("  *") for line in out.splitlines()) == 1 and "2.6" in out and "win rate" in out
    code, out, _ = run(capsys, "sweep", "--param", "bid_3=2.6:3.0:0.2", "--games", "600", "--json")
    r = json.loads(out)
    assert len(r["rows"]) == 3 and sum(x["best"] for x in r["rows"]) == 1


def test_strategies_lists_presets(capsys):
    code, out, _ = run(capsys, "strategies")
    assert code == 0
    for name in ("default", "cautious", "aggressive", "never-swap", "random", "score-aware", "bid_shift_opp_near"):
        assert name in out


@pytest.mark.parametrize(
    "args, words",
    [
        (["experiment", "default"], "2 or 3 strategies"),
        (["experiment", "default", "nosuch"], "unknown strategy 'nosuch'"),
        (["experiment", "default", "missing.toml"], "cannot read strategy file"),
        (["experiment", "default", "random", "--games", "0"], "--games"),
        (["experiment", "default", "random", "--until-significant", "--games", "500", "--max-games", "100"], "--max-games"),
        (["sweep", "--param", "nosuch=1:2:1"], "unknown strategy parameter"),
        (["sweep", "--param", "bid_3=3:1:1"], "START <= STOP"),
        (["sweep", "--param", "bid_3=2:3:1", "--base", "nosuch"], "unknown strategy"),
        (["strategies", "--show", "nosuch"], "unknown strategy"),
        (["simulate", "--games", "0"], "--games"),
        (["simulate", "--games", "10", "--records", "x.jsonl"], "--records"),
    ],
)
def test_bad_input_in_game_commands(capsys, tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("bower: error:")
    assert words in err
    assert list(tmp_path.iterdir()) == []


def test_analyze_prints_and_writes_tables(capsys, tmp_path):
    rec = tmp_path / "r.parquet"
    assert run(capsys, "simulate", "--hands", "3000", "--records", str(rec))[0] == 0
    code, out, _ = run(capsys, "analyze", str(rec), "--csv", str(tmp_path / "tables"))
    assert code == 0
    for needle in ("bid by position", "bid by trumps", "moon odds", "position", "make_rate", "make_low"):
        assert needle in out
    names = sorted(os.listdir(tmp_path / "tables"))
    assert "bid_success.csv" in names and "bid_by_estimate.csv" in names and "position.csv" in names


def test_report_writes_html_and_plots(capsys, tmp_path):
    out_dir = tmp_path / "rep"
    code, out, _ = run(capsys, "report", "--hands", "20000", "--games", "64", "--seed", "3", "--out", str(out_dir))
    assert code == 0 and "report.html" in out
    html = (out_dir / "report.html").read_text()
    for needle in ("Ghost Hand Euchre", "auction=one_lap", "bower-rules-1", "strategy", "seed", "20,000",
                   "swap_value.png", "make_rate_by_strength.png", "moon_odds.png", "points_by_position.png",
                   "dd_make_rate.png"):
        assert needle in html
    assert sorted(p.name for p in out_dir.iterdir()) == sorted(
        ["report.html", "swap_value.png", "make_rate_by_strength.png", "moon_odds.png", "points_by_position.png",
         "dd_make_rate.png"]
    )


@pytest.mark.parametrize(
    "args, words",
    [
        (["analyze", "missing.jsonl"], "no records file"),
        (["analyze", "notes.txt"], ".jsonl or .parquet"),
        (["analyze", "bad.jsonl"], "bad.jsonl: record 0 (line 1) is not JSON"),
        (["analyze", "other.jsonl"], "not a bower hand record"),
        (["analyze", "empty.jsonl"], "no records"),
        (["analyze", "ok.jsonl", "--csv", "a", "--parquet", "b"], "not both"),
        (["analyze", "ok.jsonl", "--csv", "ok.jsonl"], "it is a file"),
        (["report", "--hands", "0", "--out", "rep"], "--hands"),
        (["report", "--hands", "100", "--out", "ok.jsonl"], "it is a file"),
        (["report", "--hands", "100", "--rule", "swap=none", "--out", "rep"], "swap=at_turn"),
    ],
)
def test_bad_input_in_analysis_commands(capsys, tmp_path, monkeypatch, args, words):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.jsonl").write_text("{not json\n")
    (tmp_path / "other.jsonl").write_text('{"a": 1}\n')
    (tmp_path / "empty.jsonl").write_text("")
    (tmp_path / "notes.txt").write_text("x")
    from bower.sim import runner

    runner.simulate(hands=50, records_path=str(tmp_path / "ok.jsonl"))
    before = sorted(os.listdir(tmp_path))
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("bower: error:")
    assert words in err
    assert sorted(os.listdir(tmp_path)) == before
