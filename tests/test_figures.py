"""docs/figures.py's data functions at tiny sizes: well-formed tables, the same numbers for the same seed.

The drawing is not run here (``make docs-figures`` draws); the data are what the figures show.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def figures():
    spec = importlib.util.spec_from_file_location("bower_docs_figures", ROOT / "docs" / "figures.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def tables(figures):
    return figures.ghost_tables(hands=20_000, seed=3)


def _rates_ok(df, n, made="made"):
    assert (df[n] > 0).all() and (df[made] >= 0).all() and (df[made] <= df[n]).all()
    assert np.allclose(df["make_rate"], df[made] / df[n])
    assert ((df["make_low"] <= df["make_rate"] + 1e-12) & (df["make_rate"] <= df["make_high"] + 1e-12)).all()
    assert ((df["make_low"] >= 0) & (df["make_high"] <= 1)).all()


def test_make_rate_data(figures, tables):
    df = figures.make_rate_data(tables=tables)
    assert list(df.columns) == ["bid", "estimate", "hands", "made", "make_rate", "make_low", "make_high"]
    assert set(df["bid"]) <= {"3", "4", "5", "moon"} and {"3", "4"} <= set(df["bid"])
    assert (df["estimate"] % 0.25 == 0).all()
    _rates_ok(df, "hands")
    # the same seed, the same hands: every number again
    again = figures.make_rate_data(tables=figures.ghost_tables(hands=20_000, seed=3))
    pd.testing.assert_frame_equal(df, again)
    other = figures.make_rate_data(tables=figures.ghost_tables(hands=20_000, seed=4))
    assert not df.equals(other)


def test_moon_data(figures, tables):
    df = figures.moon_data(tables=tables)
    assert set(df["by"]) == {"trumps", "estimate"}
    _rates_ok(df, "called")
    # every moon counted once by trumps and once by estimate
    by = df.groupby("by")[["called", "made"]].sum()
    assert (by.loc["trumps"] == by.loc["estimate"]).all()
    assert by.loc["trumps", "called"] > 0


def test_swap_data_is_well_formed_and_seeded(figures):
    df, be = figures.swap_data(deals=3_000, seed=2)
    assert list(df.columns) == ["position", "strength", "decisions", "gain_points", "gain_low", "gain_high"]
    assert set(df["position"]) <= {1, 2, 3} and (df["decisions"] > 0).all()
    assert ((df["gain_low"] <= df["gain_points"] + 1e-9) & (df["gain_points"] <= df["gain_high"] + 1e-9)).all()
    assert be is None or 0 < be < 8
    df2, be2 = figures.swap_data(deals=3_000, seed=2)
    pd.testing.assert_frame_equal(df, df2)
    assert be == be2


def test_pimc_data_is_well_formed_and_seeded(figures):
    df = figures.pimc_data(worlds=(1,), games=384, seed=2)
    assert list(df["worlds"]) == [1] and (df["games"] == 384).all()
    assert ((df["win_low"] <= df["win_rate"]) & (df["win_rate"] <= df["win_high"])).all()
    assert ((df["diff_low"] <= df["diff"]) & (df["diff"] <= df["diff_high"])).all()
    pd.testing.assert_frame_equal(df, figures.pimc_data(worlds=(1,), games=384, seed=2))


def test_peer_data_are_the_recorded_numbers(figures):
    hands, solver, against = figures.peer_data()
    assert (hands["hands_per_s"] > 0).all() and (solver["solves_per_s"] > 0).all()
    # the ratios RESULTS.md quotes for each run: bower's default and random strategies against the peer
    for run, default, random in (("9a6ce33", 16.9, 22.6), ("53149d8", 34.1, 23.6)):
        g = hands[hands["run"] == run].set_index("engine")["hands_per_s"]
        peer = g[g.index.str.startswith("OpenSpiel")].iloc[0]
        assert round(g[g.index.str.contains("default strategy")].iloc[0] / peer, 1) == default
        assert round(g[g.index.str.contains("random strategy")].iloc[0] / peer, 1) == random
    assert set(solver["threads"]) == {1, 2} and solver.groupby("variant").size().eq(2).all()
    text = (ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8")
    for v in [*hands["hands_per_s"], *solver["solves_per_s"], *against["solves_per_s"]]:
        assert f"{v:,}" in text, f"{v:,} is not in benchmarks/RESULTS.md"
    # the solver against the peer solver: the ratios RESULTS.md quotes (exact tricks, points mode) for each run
    for deals, exact, points in (("200,000", 0.81, 1.51), ("1,100,000", 0.77, 1.45)):
        g = against[against["deals"].str.startswith(deals + " ")].set_index("solver")["solves_per_s"]
        peer = g[g.index.str.startswith("peer")].iloc[0]
        assert round(g[g.index.str.contains("exact")].iloc[0] / peer, 2) == exact
        assert round(g[g.index.str.contains("points")].iloc[0] / peer, 2) == points


def test_every_figure_has_data_and_a_drawing(figures):
    assert list(figures.FIGURES) == ["make-rate", "moon-odds", "swap-value", "pimc-worlds", "peer-speed"]
    for name, (fname, data, draw) in figures.FIGURES.items():
        assert fname.endswith(".png") and callable(data) and callable(draw)
        assert (ROOT / "docs" / "img" / fname).is_file(), f"docs/img/{fname} is not committed"
