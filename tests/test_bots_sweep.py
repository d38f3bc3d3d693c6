"""bower sweep with a Python bot as the base: its constructor's keyword arguments swept, duplicate games, bad input."""

from __future__ import annotations

import pytest

import bower
from tests.cli_run import one_error, run

STICK = {"stick_the_dealer": True}  # bots that never bid: the dealer must, so games end

LEVEL = '''
class Level:
    """Deterministic: passes where it may; plays its lowest legal card, or with high=1 its highest rank."""

    name = "level"

    def __init__(self, high=0):
        self.high = high

    def step(self, state):
        legal = state.legal_actions()
        cards = [a for a in legal if a < 24]
        if cards and len(cards) == len(legal):
            return max(cards, key=lambda c: (c % 6, c)) if self.high else cards[0]
        return 24 if 24 in legal else legal[0]
'''


@pytest.fixture
def level(tmp_path):
    p = tmp_path / "level.py"
    p.write_text(LEVEL)
    return str(p)


def _numbers(r: dict) -> dict:
    return {k: v for k, v in r.items() if k != "elapsed_s"}


def test_the_base_value_ties_itself_exactly_and_another_does_not(level):
    """high=0 is the base itself: a deterministic bot against itself in duplicate games splits every deal set
    (win rate exactly 1/2, the interval [1/2, 1/2]); high=1 plays other cards and does not."""
    df = bower.sweep(f"{level}:Level", {"high": [0, 1]}, variant="euchre", games=40, seed=2, rules=STICK)
    r = df.attrs["summary"]
    assert r["bots"] is True and r["base"] == "level" and r["params"] == ["high"]
    assert [row["values"] for row in r["rows"]] == [{"high": 0}, {"high": 1}]
    assert [row["games"] for row in r["rows"]] == [40, 40]
    same, other = r["rows"]
    assert same["win_rate"] == 0.5 and same["win_rate_ci95"] == [0.5, 0.5]
    assert same["points_per_hand"] == same["base_points_per_hand"]
    assert other["win_rate"] != 0.5
    assert df["high"].tolist() == [0, 1]


def test_a_row_is_the_experiment_of_the_same_two_bots(level):
    """A sweep's row plays the games ``bower.experiment`` plays for the candidate against the base (same seed)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("level_bot", level)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    r = bower.sweep(mod.Level, {"high": [1]}, variant="euchre", games=24, seed=5, rules=STICK).attrs["summary"]
    ex = bower.experiment([mod.Level(high=1), mod.Level()], variant="euchre", games=24, seed=5, rules=STICK,
                          names=["candidate", "level"]).summary
    row = r["rows"][0]
    c, b = ex["strategies"]
    assert (row["win_rate"], row["win_rate_ci95"], row["points_per_hand"]) == (
        c["win_rate"], c["win_rate_ci95"], c["points_per_hand"])
    assert row["base_points_per_hand"] == b["points_per_hand"]


def test_same_seed_same_numbers_three_seats(level):
    a = bower.sweep("greedy", {"samples": [1, 2]}, variant="cutthroat", games=6, seed=1, rules=STICK).attrs["summary"]
    b = bower.sweep("greedy", {"samples": [1, 2]}, variant="cutthroat", games=6, seed=1, rules=STICK).attrs["summary"]
    assert _numbers(a) == _numbers(b)
    assert a["games_per_row"] == 6  # three seats: one candidate seat against two base seats, 3 games a set


def test_cli_sweep_of_a_bot(capsys, level):
    code, out, _ = run(capsys, "sweep", "--base", f"{level}:Level", "--param", "high=0:1:1", "--variant", "euchre",
                       "--games", "20", "--seed", "2", "--rule", "stick_the_dealer=true")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "Standard Euchre sweep against two copies of level: 20 games per row, seed 2"
    assert lines[4].split()[:2] == ["0", "50.00%"]


def test_bad_input_is_one_line(capsys, level, tmp_path):
    line = one_error(capsys, "sweep", "--base", f"{level}:Level", "--param", "low=0:1:1", "--variant", "euchre")
    assert line == (f"bower: error: bot '{level}:Level': Level() takes no keyword argument 'low' "
                    "(--param low=...)")
    line = one_error(capsys, "sweep", "--base", "greedy", "--param", "depth=1:2:1", "--variant", "euchre")
    assert "bot 'greedy' takes only samples= (got depth)" in line
    line = one_error(capsys, "sweep", "--base", f"{level}:Level", "--param", "high=2:1:1", "--variant", "euchre")
    assert "need START <= STOP and STEP > 0" in line
    line = one_error(capsys, "sweep", "--base", f"{level}:Level", "--param", "high=a:b:c", "--variant", "euchre")
    assert "START:STOP:STEP must be numbers" in line
    bad = tmp_path / "bad.py"
    bad.write_text("class B:\n    def __init__(self, x=0):\n        if x:\n            raise ValueError('no')\n"
                   "    def step(self, s):\n        return s.legal_actions()[0]\n")
    line = one_error(capsys, "sweep", "--base", f"{bad}:B", "--param", "x=1", "--variant", "euchre", "--games", "2")
    assert line == f"bower: error: bot '{bad}:B': B(x=1) raised ValueError: no"
    line = one_error(capsys, "sweep", "--base", f"{level}:Level", "--param", "high=1", "--variant", "euchre",
                     "--bot-timeout", "0")
    assert "--bot-timeout" in line
    with pytest.raises(bower.BowerError, match="give its class or a path.py:Class"):
        bower.sweep(bower.bot("random", variant="euchre"), {"seed": [1]}, variant="euchre", games=2)
