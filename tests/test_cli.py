"""The ``bower`` command line: output, JSON, records, and bad input (one line, exit status 2)."""

import json
import os
import subprocess
import sys

import pytest

from sim.cli import main


def run(capsys, *args):
    with pytest.raises(SystemExit) as e:
        main(list(args))
    out, err = capsys.readouterr()
    return e.value.code, out, err


def test_simulate_prints_summary(capsys):
    code, out, err = run(capsys, "simulate", "--hands", "5000", "--seed", "1", "--threads", "1")
    assert code == 0
    for needle in ("5,000 hands", "thrown in", "ghost swaps", "make rate", "moon", "mean points per hand", "hands/s"):
        assert needle in out


def test_simulate_json_matches_api(capsys):
    from sim import runner

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
        [sys.executable, "-c", "from sim.cli import main; main()", "simulate", "--rule", "swap=sometimes"],
        capture_output=True, text=True, env=env, cwd=tmp_path,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "bower: error: bad value 'sometimes' for rule option 'swap' (allowed: at_turn | none)"
    ]
