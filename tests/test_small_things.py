"""Small things a user trips on: counts rounded up are said, ``replay --hand``, completion of closed sets, the install.

A count rounded up (``experiment``/``sweep --games``, ``--max-games``) is one
notice line on stderr, never on stdout, not under ``--quiet`` (nor from the
library under ``bower.quiet(True)``). ``bower replay --hand N[:M]`` (and
``bower.replay(hand=)``) replays records N to M-1, numbered from 0 as replay
names them. ``should-bid --position`` and solve's suit and seat options
complete in the shell. ``make dist`` builds a wheel, and the docs install from
a checkout rather than a package name no index has.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from click.shell_completion import ShellComplete
from click.testing import CliRunner

import bower
from bower.sim import progress, runner
from bower.sim.cli import cli
from bower.sim.replay import ReplayError, parse_hands, replay
from tests.cli_run import one_error, run

ROOT = Path(__file__).resolve().parent.parent
NOTICE = "bower: note: --games 96 rounded up to 384 (whole batches of 64 deal sets, 6 games a set)"


# ---- 1. counts rounded up are said ---------------------------------------------------------------------


def test_experiment_says_games_rounded_up_on_stderr_only(capsys):
    code, out, err = run(capsys, "experiment", "default", "random", "--games", "96", "--seed", "1", "--json")
    assert code == 0
    assert json.loads(out)["games"] == 384  # stdout is the JSON alone
    assert err.splitlines() == [NOTICE]
    code, out, err = run(capsys, "experiment", "default", "random", "--games", "96", "--seed", "1", "--json", "-q")
    assert code == 0 and err == ""
    code, _, err = run(capsys, "experiment", "default", "random", "--games", "384", "--seed", "1", "--json")
    assert code == 0 and err == ""  # a whole number of batches: nothing to say


def test_max_games_rounded_up_is_said_too(capsys):
    code, _, err = run(capsys, "experiment", "default", "random", "--games", "384", "--until-significant",
                       "--max-games", "500", "--seed", "1", "--json")
    assert code == 0
    assert err.splitlines() == ["bower: note: --max-games 500 rounded up to 768 (whole batches of 64 deal sets, "
                                "6 games a set)"]


def test_sweep_says_it_once_for_every_row(capsys):
    code, out, err = run(capsys, "sweep", "--param", "bid_3=2.6:2.8:0.2", "--games", "100", "--seed", "1", "--json")
    assert code == 0
    assert [r["games"] for r in json.loads(out)["rows"]] == [192, 192]
    assert err.splitlines() == ["bower: note: --games 100 rounded up to 192 (whole batches of 64 deal sets, "
                                "3 games a set, per value)"]


def test_the_library_says_it_unless_quiet(capsys, monkeypatch):
    monkeypatch.setitem(progress._library, "silenced", False)
    ex = bower.experiment(["default", "random"], games=96, seed=1)
    assert ex.summary["games"] == 384
    out, err = capsys.readouterr()
    assert out == ""
    assert "bower: note: games=96 rounded up to 384 (whole batches of 64 deal sets, 6 games a set)" in err.splitlines()
    bower.quiet(True)
    bower.experiment(["default", "random"], games=96, seed=1)
    assert capsys.readouterr().err == ""


def test_the_notice_ends_a_progress_bar_first():
    import io

    stream = io.StringIO()
    bar = progress.Progress("games", enabled=True, stream=stream)
    bar(1, 2)
    progress.notice("something", stream=stream)
    assert stream.getvalue().endswith("\nbower: note: something\n")


# ---- 2. replay --hand N[:M] ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def recs(tmp_path_factory):
    """30 Ghost Hand records, as .jsonl and .parquet: {ext: path}."""
    folder = tmp_path_factory.mktemp("small")
    paths = {}
    for ext in ("jsonl", "parquet"):
        path = folder / f"r.{ext}"
        runner.simulate(variant="ghost", hands=30, seed=5, records_path=str(path), threads=2)
        paths[ext] = str(path)
    return paths


def _lines(capsys, *args):
    code, out, err = run(capsys, "replay", *args, "--json")
    assert code == 0, err
    return [json.loads(x) for x in out.splitlines()]


@pytest.mark.parametrize("ext", ["jsonl", "parquet"])
def test_replay_hand_picks_records_numbered_from_0(capsys, recs, ext):
    path = recs[ext]
    full = _lines(capsys, path)
    assert len(full) == 30
    assert _lines(capsys, path, "--hand", "3") == [full[3]]
    assert _lines(capsys, path, "--hand", "3:6") == full[3:6]
    assert _lines(capsys, path, "--hand", "27:") == full[27:]
    assert _lines(capsys, path, "--hand", "0:30") == full
    assert [o["record"] for o in _lines(capsys, path, "--hand", "10:12")] == [10, 11]


def test_replay_hand_text_summary_counts_the_chosen_hands(capsys, recs):
    code, text, _ = run(capsys, "replay", recs["jsonl"], "--hand", "4:7")
    assert code == 0
    heads = re.findall(r"^record (\d+), hand (\d+)", text, re.M)
    assert heads == [("4", "4"), ("5", "5"), ("6", "6")]
    assert "3 hand(s) replayed" in text


def test_replay_hand_with_dd(capsys, recs, tmp_path):
    first = Path(recs["jsonl"]).read_text().splitlines()[:4]
    path = tmp_path / "four.jsonl"
    path.write_text("\n".join(first) + "\n")
    full = _lines(capsys, str(path), "--dd")
    assert _lines(capsys, str(path), "--dd", "--hand", "2") == [full[2]]
    assert "costs" in full[2]


@pytest.mark.parametrize("value, words", [
    ("30", "--hand '30': {path} has 30 record(s), numbered from 0 to 29"),
    ("99:100", "has 30 record(s)"),
])
def test_replay_hand_past_the_last_record(capsys, recs, value, words):
    line = one_error(capsys, "replay", recs["jsonl"], "--hand", value)
    assert words.format(path=recs["jsonl"]) in line


@pytest.mark.parametrize("value, words", [
    ("x", "is not a record number N or a range N:M"), ("-1", "is not a record number"),
    ("", "is not a record number"), ("1e3", "is not a record number"), ("1:2:3", "is not a record number"),
    (":4", "is not a record number"), ("3:3", "needs M above N"), ("5:2", "needs M above N"),
    ("9" * 40, "past any file's records"),
])
def test_replay_hand_malformed_is_one_line_and_status_2(capsys, recs, value, words):
    line = one_error(capsys, "replay", recs["jsonl"], "--hand", value)
    assert "'--hand'" in line and words in line, line


def test_replay_hand_in_a_game_keeps_the_games_scores(recs):
    from bower.sim.records_check import iter_file

    items = list(iter_file(recs["jsonl"]))
    # games of 3 hands each (a game's running scores need its earlier hands)
    items = [(dict(r, game=f"g{i // 3}"), where) for i, (r, where) in enumerate(items)]
    full = list(replay(items))
    for k in range(len(items)):
        assert list(replay(items, hand=k)) == [full[k]], k
    assert list(replay(items, hand=(4, 8))) == full[4:8]
    assert list(replay(items, hand="28:")) == full[28:]


def test_parse_hands():
    assert parse_hands(3) == (3, 4)
    assert parse_hands("3:5") == (3, 5)
    assert parse_hands(" 2 : 4 ") == (2, 4)
    assert parse_hands("7:") == (7, None)
    assert parse_hands((1, None)) == (1, None)
    for bad in (True, -1, 1.5, "a", [1], (3, 2), "1:2:3"):
        with pytest.raises(ReplayError):
            parse_hands(bad)


def test_the_library_takes_hand(recs):
    df = bower.replay(recs["parquet"], hand="3:5")
    assert list(df["record"]) == [3, 4]
    assert list(bower.replay(recs["jsonl"], hand=7)["record"]) == [7]
    assert list(bower.replay(recs["jsonl"], hand=(28, None))["record"]) == [28, 29]
    with pytest.raises(bower.BowerError, match=r"^hand= 30: .* has 30 record\(s\)"):
        bower.replay(recs["jsonl"], hand=30)
    with pytest.raises(bower.BowerError, match="hand= 'x' is not a record number"):
        bower.replay(recs["jsonl"], hand="x")


def test_replay_help_says_how_hand_counts(capsys):
    code, text, _ = run(capsys, "replay", "--help")
    assert code == 0
    assert "--hand N[:M]" in text and "numbered from 0" in " ".join(text.split())


# ---- 3. completion of closed sets ----------------------------------------------------------------------


def _complete(args, incomplete):
    return [c.value for c in ShellComplete(cli, {}, "bower", "_BOWER_COMPLETE").get_completions(args, incomplete)]


def test_position_completes_the_positions():
    assert _complete(["should-bid", "JH JD AH KH 9S TC", "--position"], "") == ["1", "2", "3"]  # ghost, the default
    assert _complete(["should-bid", "JH", "--variant", "euchre", "--position"], "") == ["1", "2", "3", "4"]
    assert _complete(["should-bid", "JH", "--variant", "euchre", "--position"], "4") == ["4"]


def test_bid_completes_the_calls_but_pass():
    assert _complete(["should-bid", "JH", "--bid"], "m") == ["moon"]
    assert "pass" not in _complete(["should-bid", "JH", "--bid"], "") and "4" in _complete(["should-bid", "JH", "--bid"], "")


def test_solve_completes_suits_and_seats():
    assert _complete(["solve", "--trump"], "") == ["C", "S", "D", "H"]
    assert _complete(["solve", "--trump"], "s") == ["S"]
    assert _complete(["solve", "--maker"], "") == ["0", "1", "2", "3"]
    assert _complete(["solve", "--variant", "cutthroat", "--leader"], "") == ["0", "1", "2"]
    for opt in ("--dealer", "--alone"):
        assert _complete(["solve", "--variant", "euchre", opt], "") == ["0", "1", "2", "3"]


def test_completion_through_the_environment_variable():
    res = CliRunner().invoke(cli, prog_name="bower", env={
        "_BOWER_COMPLETE": "bash_complete", "COMP_WORDS": "bower should-bid JH --position ", "COMP_CWORD": "4"})
    assert res.exit_code == 0
    assert res.output.split() == ["plain,1", "plain,2", "plain,3"]


def test_position_keeps_its_message(capsys):
    line = one_error(capsys, "should-bid", "JH JD AH KH 9S TC", "--position", "9")
    assert "'9' is not a position: 1 to 4 (1 = dealer's left, the last is the dealer)" in line


# ---- 4. the install line -------------------------------------------------------------------------------


def test_make_dist_builds_a_wheel_into_dist():
    text = (ROOT / "Makefile").read_text()
    assert re.search(r"^dist:", text, re.M)
    assert text.rstrip().splitlines()[-1].strip().endswith("-m pip wheel --no-deps -w dist .")
    dry = subprocess.run(["make", "-n", "dist"], cwd=ROOT, capture_output=True, text=True)
    assert dry.returncode == 0 and "pip wheel --no-deps -w dist ." in dry.stdout
    assert "dist/" in (ROOT / ".gitignore").read_text().split()


def test_the_docs_install_from_a_checkout_not_an_index():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"pip install '?bower-euchre", text), page  # no index has it
        assert not re.search(r"pip install ['\"]?bower\b", text), page  # nor a package named bower (with an extra)
    start = (ROOT / "docs" / "getting-started.md").read_text()
    assert "pip install /path/to/bower" in start and "make dist" in start
    readme = (ROOT / "README.md").read_text()
    assert "make dist" in readme and "pip install /path/to/checkout" in readme
