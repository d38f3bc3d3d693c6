"""Game-equity tables (``bower.sim.equity``, ``bower equity``): symmetry, monotony, whole games, bad input."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from bower.sim import equity as E
from tests.cli_run import one_error, run

HANDS = 200_000
PARTNERSHIPS = ("euchre", "hasenpfeffer")


@pytest.fixture(scope="module", params=PARTNERSHIPS)
def table(request):
    return E.compute(request.param, hands=HANDS, seed=5, resamples=50)


def test_start_of_game_is_fair(table):
    """The same strategy for both sides: 0-0 averaged over the dealer is 0.5 (within 0.01 and its interval)."""
    lo, hi = table["start_ci95"]
    assert abs(table["start"] - 0.5) < 0.01
    assert lo - 0.005 <= 0.5 <= hi + 0.005


def test_equity_rises_with_own_score_and_falls_with_the_opponents(table):
    """Averaged over the dealer, on the cells from -target up, allowing 0.02 of sampling noise."""
    eq, lo, hi = E.side_view(table)
    f, t = table["floor"], table["target"]
    eq = eq[max(0, -t - f):, max(0, -t - f):]
    assert (np.diff(eq, axis=0) > -0.02).all()
    assert (np.diff(eq, axis=1) < 0.02).all()
    assert ((lo <= E.side_view(table)[0] + 1e-12) & (E.side_view(table)[0] <= hi + 1e-12)).all()
    assert 0.0 <= eq.min() and eq.max() <= 1.0


def test_dealer_sides_mirror(table):
    """Side 0 dealing at a-b is side 1 dealing at b-a seen from the other side (within 0.02)."""
    own, _, _ = E.side_view(table, "own")
    opp, _, _ = E.side_view(table, "opponent")
    assert np.abs(own - (1 - opp.T)).max() < 0.02


def test_the_table_agrees_with_whole_games(table):
    """The games kernel plays from 0-0 to a target; from a-a to T is the game to T - a (dealer seat 3 first).

    Only the diagonal cells can be checked so (games cannot start from other
    scores): each within the DP interval widened by 2.6 standard errors of
    the games' share, one miss allowed over the ten.
    """
    eq, lo, hi = (np.asarray(table[k]) for k in ("equity", "low", "high"))
    f, t, games = table["floor"], table["target"], 6000
    misses = []
    for a in range(t):
        wins, n = E.games_from(table["variant"], a, games, seed=11 + a)
        share, se = wins / n, math.sqrt(max(wins * (n - wins), 1) / n) / n
        cell = (3, a - f, a - f)
        if not lo[cell] - 2.6 * se <= share <= hi[cell] + 2.6 * se:
            misses.append((a, share, eq[cell]))
    assert len(misses) <= 1, misses


def test_same_seed_same_table_for_any_thread_count():
    one = E.compute("euchre", hands=20_000, seed=3, resamples=10, threads=1)
    two = E.compute("euchre", hands=20_000, seed=3, resamples=10, threads=2)
    for k in ("equity", "low", "high", "outcomes", "start"):
        assert one[k] == two[k]


def test_throw_ins_are_solved_exactly():
    """A hand thrown in half the time: the programme still settles, and 0-0 stays fair by symmetry."""
    points = np.array([[0, 0], [1, 0], [0, 1]])
    probs = np.tile([0.5, 0.25, 0.25], (1, 4, 1))
    v, _ = E.solve(points, np.zeros(3, np.int64), probs, 3, 0)
    assert np.allclose(v[0, :, 0, 0], 0.5, atol=1e-11)
    assert np.allclose(v[0, :, 2, 2], 0.5, atol=1e-11)


def test_cli_table_score_json_and_plot(capsys, tmp_path):
    code, out, err = run(capsys, "equity", "--variant", "euchre", "--hands", "50000", "--seed", "1")
    assert code == 0 and "rows: own score" in out and "start of game" in out
    code, out, _ = run(capsys, "equity", "--hands", "50000", "--seed", "1", "--score", "8,2")
    assert code == 0 and "score 8-2" in out and "to win (95%:" in out
    png = tmp_path / "eq.png"
    code, out, _ = run(capsys, "equity", "--variant", "hasenpfeffer", "--hands", "50000", "--seed", "1", "--json",
                       "--plot", str(png))
    j = json.loads(out)
    assert code == 0 and j["variant"] == "hasenpfeffer" and j["floor"] == -30 and len(j["equity"]) == 4
    assert png.read_bytes()[:4] == b"\x89PNG" and not list(tmp_path.glob(".bower-*"))


@pytest.mark.parametrize("args, words", [
    (["--variant", "ghost"], "not available yet for ghost"),
    (["--variant", "cutthroat"], "not available yet for cutthroat"),
    (["--variant", "nope"], "unknown variant"),
    (["--target", "0"], "--target must be"),
    (["--target", "51"], "--target must be"),
    (["--score", "10,3"], "at or past the target"),
    (["--score", "3,12", "--target", "12"], "at or past the target 12"),
    (["--score", "-1,3"], "negative"),
    (["--score", "1,2,3"], "needs 2 scores"),
    (["--score", "x,3"], "whole numbers"),
    (["--variant", "hasenpfeffer", "--score", "-31,0"], "below the table's floor"),
    (["--plot", "eq.svg"], "ending in .png"),
])
def test_bad_input_is_one_line_and_status_2(capsys, args, words):
    line = one_error(capsys, "equity", "--hands", "20000", *args)
    assert words in line
