"""Analysis layer: kernel aggregates against pandas on records, paired swap replays, tables, report."""

import os
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from bower.sim.variants.ghost import tables as gt
from bower.analysis.report import write_report, write_tables
from bower.analysis.report_plots import drawer
from bower.sim.variants.ghost.tables import table_set
from bower.kernels.ghost import stats as gst
from bower.sim import runner
from bower.sim.variants.ghost import stats
from bower.sim.records import read_records
from bower.sim.variants import get_variant

PRESETS = get_variant("ghost").presets


@pytest.mark.parametrize(
    "rules, strategy",
    [
        (None, "default"),
        ({"auction": "until_passes", "stick_the_dealer": True, "set_keeps_tricks": True}, "aggressive"),
        ({"moon_set_penalty": 24}, "random"),
    ],
)
def test_kernel_histograms_equal_pandas_on_records(tmp_path, rules, strategy):
    n = runner.CHUNK_SIZE + 1500
    path = tmp_path / "r.jsonl"
    runner.simulate(hands=n, seed=6, rules=rules, strategy=strategy, records_path=str(path))
    agg = stats.bid_stats(n, seed=6, rules=rules, strategy=strategy)
    from_records = gt.histograms_from_records(read_records(str(path)), PRESETS[strategy])
    assert np.array_equal(agg["bids"], from_records["bids"])
    assert np.array_equal(agg["estimates"], from_records["estimates"])
    assert agg["bids"][:, gst.H_COUNT].sum() == agg["summary"]["played"]
    # and therefore every table built from them is identical
    a = table_set(agg["bids"], agg["estimates"])
    b = table_set(from_records["bids"], from_records["estimates"])
    for name in a:
        pd.testing.assert_frame_equal(a[name], b[name])


def test_tables_add_up():
    agg = stats.bid_stats(30000, seed=2)
    s = agg["summary"]
    full = gt.bid_success(agg["bids"])
    by_pos = gt.bid_success(agg["bids"], ["position"])
    for level, key in (("3", "3"), ("4", "4"), ("5", "5"), ("moon", "moon")):
        assert full[full["bid"] == level]["hands"].sum() == s["bids"][key]["count"]
        assert by_pos[by_pos["bid"] == level]["made"].sum() == s["bids"][key]["made"]
    assert by_pos.groupby("position")["hands"].sum().tolist() == [s["makers_by_position"][p] for p in "123"]
    row = by_pos.iloc[0]
    assert row["make_low"] <= row["make_rate"] <= row["make_high"]
    moon = gt.moon_odds(agg["bids"])
    assert moon["moons_called"].sum() == s["moons_called"] and moon["moons_made"].sum() == s["moons_made"]


def test_position_from_records_matches_summary(tmp_path):
    path = tmp_path / "r.jsonl"
    s = runner.simulate(hands=3000, seed=1, records_path=str(path))
    pos = gt.position_from_records(read_records(str(path)))
    for i, p in enumerate("123"):
        assert pos["points_per_hand"][i] == pytest.approx(s["points_per_hand_by_position"][p], rel=1e-12)
        assert pos["points_low"][i] == pytest.approx(s["points_per_hand_ci95_by_position"][p][0], rel=1e-9)


def test_swap_rows_aggregate_to_kernel_counters():
    r = stats.swap_values(5000, seed=3, want_rows=True)
    rows = pd.DataFrame(r["rows"], columns=["pos", "bucket", "ps", "pk", "ms", "mk"])
    rows = rows[rows["pos"] > 0]
    acc = r["acc"]
    g = rows.assign(d=rows.ps - rows.pk, dm=rows.ms - rows.mk).groupby(["pos", "bucket"])
    for (pos, b), grp in g:
        c = acc[pos - 1, b]
        assert c[gst.SW_N_PAIR] == len(grp) == c[gst.SW_N_SWAP] == c[gst.SW_N_KEEP]
        assert c[gst.SW_DPTS] == grp["d"].sum() and c[gst.SW_DPTS_SQ] == (grp["d"] ** 2).sum()
        assert c[gst.SW_DMAR] == grp["dm"].sum() and c[gst.SW_PTS_SWAP] == grp["ps"].sum()
    assert acc[..., gst.SW_N_PAIR].sum() == len(rows)
    # position 1 always has the choice; later positions only if nobody before them swapped
    assert (rows["pos"] == 1).sum() == 5000


def test_swap_branches_replay_the_strategy_exactly(tmp_path):
    # the branch the default strategy itself chooses is the hand `bower simulate` plays
    n = 3000
    path = tmp_path / "r.jsonl"
    runner.simulate(hands=n, seed=4, records_path=str(path))
    recs = read_records(str(path))
    r = stats.swap_values(n, seed=4, want_rows=True)
    checked = 0
    for h, rec in enumerate(recs):
        row = r["rows"][3 * h]  # position 1
        seat = (rec["dealer"] + 1) % 3
        own = rec["points"][str(seat)]
        if rec["swap"] == seat:
            assert row[gst.SR_PTS_SWAP] == own
        elif rec["swap"] is None or (rec["swap"] - rec["dealer"]) % 3 != 1:
            assert row[gst.SR_PTS_KEEP] == own
        checked += 1
    assert checked == n


def test_paired_swap_value_agrees_with_unpaired_and_is_narrower():
    # 200,000 deals, seed 5, default strategy. Measured gains in points by position: mirrored pairs
    # +0.192 (+0.187..+0.197), +0.065, exactly 0; unpaired +0.185 (+0.173..+0.197), +0.068, +0.006;
    # interval width ratio mirrored/unpaired 0.45 and 0.40 (points), 0.45 and 0.34 (margin).
    run = stats.swap_values(200000, seed=5)
    mirrored = gt.swap_overall(run["acc"], run["mirror"])
    by_deal = gt.swap_overall(run["acc"])
    unpaired = gt.swap_overall(stats.swap_values(200000, seed=5, paired=False)["acc"])
    for i in range(3):
        m, p, u = mirrored.iloc[i], by_deal.iloc[i], unpaired.iloc[i]
        assert m["decisions"] == p["decisions"]
        for est in (m, p):
            assert u["gain_low"] <= est["gain_points"] <= u["gain_high"]
            assert u["margin_low"] <= est["gain_margin"] <= u["margin_high"]
    for i in (0, 1):
        m, u = mirrored.iloc[i], unpaired.iloc[i]
        assert (m["gain_high"] - m["gain_low"]) < 0.6 * (u["gain_high"] - u["gain_low"])
        assert (m["margin_high"] - m["margin_low"]) < 0.6 * (u["margin_high"] - u["margin_low"])
    # the dealer acts last: no one can take the ghost after them, so swapping blind gains exactly
    # nothing on average (a hand and the ghost are exchangeable), and every mirrored pair shows it
    last = mirrored.iloc[2]
    assert last["gain_points"] == 0 and last["gain_low"] == last["gain_high"] == 0
    assert unpaired.iloc[2]["gain_low"] < 0 < unpaired.iloc[2]["gain_high"]


def test_swap_value_falls_with_strength_and_breaks_even():
    t = gt.swap_table(stats.swap_values(100000, seed=2)["acc"], by_position=False)
    weak = t[t["strength"] < 1.5]
    strong = t[(t["strength"] >= 3.5) & (t["strength"] < 5)]
    assert (weak["gain_low"] > 0).all() and (strong["gain_high"] < 0).all()
    be = gt.break_even(t)
    assert 2.5 < be < 3.5


def test_break_even_interpolates():
    t = pd.DataFrame({"strength": [1.0, 1.25, 1.5], "decisions": [500, 500, 500], "gain_points": [0.5, 0.25, -0.25]})
    assert gt.break_even(t) == pytest.approx(1.25 + 0.125 + 0.25 * 0.25 / 0.5)
    assert gt.break_even(t.assign(gain_points=[1, 1, 1])) is None


class _Refs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs = []

    def handle_starttag(self, tag, attrs):
        self.refs += [v for k, v in attrs if k in ("src", "href")]


def test_report_references_only_its_own_files(tmp_path):
    agg = stats.bid_stats(20000, seed=1)
    sw = stats.swap_values(20000, seed=1)
    tables = table_set(agg["bids"], agg["estimates"], gt.position_from_summary(agg["summary"]), sw["acc"])
    out = tmp_path / "rep"
    plots, draw = drawer(get_variant("ghost"))
    path = write_report(str(out), tables, {"seed": 1}, ["note"], plots, draw)
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    parser = _Refs()
    parser.feed(text)
    anchors = [r for r in parser.refs if r.startswith("#")]  # the contents list's links into the page
    parser.refs = [r for r in parser.refs if not r.startswith("#")]
    assert anchors and all(f"id='{a[1:]}'" in text for a in anchors)
    assert sorted(parser.refs) == sorted(f for f in os.listdir(out) if f.endswith(".png"))
    assert "http:" not in text and "https:" not in text and "<script" not in text
    for f in parser.refs:
        assert (out / f).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert sorted(os.listdir(out)) == sorted([*parser.refs, "report.html"])


def test_write_tables_round_trip(tmp_path):
    agg = stats.bid_stats(5000, seed=1)
    tables = table_set(agg["bids"], agg["estimates"])
    write_tables(tables, str(tmp_path / "csv"), "csv")
    write_tables(tables, str(tmp_path / "pq"), "parquet")
    for name, df in tables.items():
        expected = df.astype({c: str for c in df.columns if isinstance(df[c].dtype, pd.CategoricalDtype)})
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "pq" / f"{name}.parquet"), expected)
        back = pd.read_csv(tmp_path / "csv" / f"{name}.csv", dtype={"bid": str})
        assert list(back.columns) == list(df.columns) and len(back) == len(df)
