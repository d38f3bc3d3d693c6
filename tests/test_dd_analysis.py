"""Double-dummy analysis (``bower.analysis.dd``): exact tables on hand-built records, ``analyze`` with and without dd, ``--dd``
solving on the fly, and the report's dd tables and plot for every variant."""

from __future__ import annotations

import math
import statistics
from html import escape as html_escape

import pandas as pd
import pytest

from bower.analysis import dd
from bower.analysis.intervals import Z95, wilson
from bower.sim import runner
from bower.sim.cli import main
from tests.cli_run import run
from bower.sim.records import read_records
from bower.sim.variants import all_variants, get_variant

EUCHRE = get_variant("euchre")


def record(variant, maker, trump, hands, tricks, dd_tricks, table, **fields):
    """A minimal played record: ``hands`` seat -> cards (played in that order), ``tricks`` seat -> tricks taken."""
    v = get_variant(variant)
    plays = [[s, c] for s, cards in hands.items() for c in cards]
    return {"variant": v.name, v.card_play.maker_field: maker, "trump": trump, "plays": plays,
            "tricks": {str(s): n for s, n in tricks.items()},
            "dd": {"tricks": dd_tricks, "table": table}, **fields}


# Euchre, trump hearts; maker seat 0 with seat 2 unless alone. Side trumps: JH AH KH (seat 0) JD QH (seat 2).
SIDE_5_RIGHT = {0: ["JH", "AH", "KH", "9C", "TC"], 1: ["9H", "AC", "KC", "QC", "JC"],
                2: ["JD", "QH", "9S", "TS", "QS"], 3: ["TH", "KS", "AS", "AD", "KD"]}
# side trumps: 9H TH (seat 0) JD (seat 2): 3, no right bower (seat 1 has JH)
SIDE_3_LEFT = {0: ["9H", "TH", "9C", "TC", "QC"], 1: ["JH", "AC", "KC", "AH", "JC"],
               2: ["JD", "9S", "TS", "QS", "KS"], 3: ["QH", "KH", "AS", "AD", "KD"]}


def euchre_records():
    t = lambda h, s, c, d: {"H": h, "S": s, "C": c, "D": d}
    return [
        # made, makeable (dd 4): 1 trick left; hearts the best trump
        record("euchre", 0, "H", SIDE_5_RIGHT, {0: 2, 1: 1, 2: 1, 3: 1}, 4, t(4, 1, 2, 2), alone=[]),
        # set, makeable (dd 3): makeable but went down; spades would have taken 4
        record("euchre", 0, "H", SIDE_5_RIGHT, {0: 1, 1: 2, 2: 1, 3: 1}, 3, t(3, 4, 0, 0), alone=[]),
        # made, unmakeable (dd 2)
        record("euchre", 0, "H", SIDE_3_LEFT, {0: 3, 1: 1, 2: 0, 3: 1}, 2, t(2, 1, 1, 2), alone=[]),
        # set, unmakeable (dd 1); clubs would take 3
        record("euchre", 0, "H", SIDE_3_LEFT, {0: 1, 1: 2, 2: 0, 3: 2}, 1, t(1, 0, 3, 0), alone=[]),
        # alone (seat 2 sits out): march, dd 5; side trumps JH AH KH only
        record("euchre", 0, "H", {s: c for s, c in SIDE_5_RIGHT.items() if s != 2}, {0: 5, 1: 0, 2: 0, 3: 0}, 5,
               t(5, 2, 2, 1), alone=[0]),
        # thrown in: no maker, no play, no dd
        {"variant": "euchre", "maker": None, "trump": None, "plays": [], "tricks": {}, "dd": None, "alone": []},
    ]


def test_contract_table_exact():
    frame = dd.hand_frame(EUCHRE, euchre_records())
    assert len(frame) == 5
    assert frame["trumps"].tolist() == [5, 5, 3, 3, 3]
    assert frame["right_bower"].tolist() == [True, True, False, False, True]
    assert frame["played"].tolist() == [3, 2, 3, 1, 5]
    t = dd.contract_table(EUCHRE, frame).set_index("contract")
    assert list(t.index) == ["partner", "alone", "all"]
    p = t.loc["partner"]
    assert p["need"] == 3 and p["hands"] == 4
    assert p["played_tricks"] == pytest.approx(9 / 4) and p["dd_tricks"] == pytest.approx(10 / 4)
    assert p["left_on_table"] == pytest.approx(0.25)
    half = Z95 * math.sqrt(statistics.variance([1, 1, -1, 0]) / 4)
    assert (p["left_low"], p["left_high"]) == pytest.approx((0.25 - half, 0.25 + half))
    assert p["make_rate"] == 0.5 and p["par_rate"] == 0.5
    assert (p["make_low"], p["make_high"]) == pytest.approx(wilson(2, 4))
    assert (p["par_low"], p["par_high"]) == pytest.approx(wilson(2, 4))
    assert p["makeable_set"] == 0.25 and p["unmakeable_made"] == 0.25
    a = t.loc["alone"]
    assert a["hands"] == 1 and a["make_rate"] == 1 and a["par_rate"] == 1 and a["left_on_table"] == 0
    assert a["makeable_set"] == 0 and a["unmakeable_made"] == 0
    al = t.loc["all"]
    assert pd.isna(al["need"]) and al["hands"] == 5
    assert al["played_tricks"] == pytest.approx(14 / 5) and al["dd_tricks"] == pytest.approx(3.0)
    assert al["make_rate"] == pytest.approx(0.6) and al["par_rate"] == pytest.approx(0.6)
    assert al["makeable_set"] == pytest.approx(0.2) and al["unmakeable_made"] == pytest.approx(0.2)
    assert (al["make_low"], al["make_high"]) == pytest.approx(wilson(3, 5))
    for _, r in t.iterrows():  # played - par = made unmakeable - makeable set
        assert r["make_rate"] - r["par_rate"] == pytest.approx(r["unmakeable_made"] - r["makeable_set"])


def test_feature_strength_and_trump_tables_exact():
    tables = dd.dd_tables(EUCHRE, euchre_records())
    assert set(tables) == set(dd.TABLES)
    f = tables["dd_by_features"]
    assert f[["contract", "trumps", "right_bower", "hands"]].values.tolist() == [
        ["partner", 3, False, 2], ["partner", 5, True, 2], ["alone", 3, True, 1]]
    assert f["make_rate"].tolist() == [0.5, 0.5, 1.0]
    assert f["par_rate"].tolist() == [0.0, 1.0, 1.0]
    assert f["left_on_table"].tolist() == [-0.5, 1.0, 0.0]
    s = tables["dd_by_strength"]
    assert s["trumps"].tolist() == [3, 5] and s["hands"].tolist() == [3, 2]
    assert s["make_rate"].tolist() == pytest.approx([2 / 3, 0.5])
    assert s["par_rate"].tolist() == pytest.approx([1 / 3, 1.0])
    assert s["played_tricks"].tolist() == pytest.approx([3.0, 2.5]) and s["dd_tricks"].tolist() == pytest.approx([8 / 3, 3.5])
    c = tables["dd_trump_choice"].set_index("contract")
    p = c.loc["partner"]
    assert p["hands"] == 4 and p["best_trump"] == 0.5 and (p["best_low"], p["best_high"]) == pytest.approx(wilson(2, 4))
    assert p["best_tricks"] == pytest.approx(13 / 4) and p["gain"] == pytest.approx(0.75)
    assert p["par_rate"] == 0.5 and p["par_best_rate"] == 0.75
    assert c.loc["all", "best_trump"] == pytest.approx(0.6) and c.loc["all", "par_best_rate"] == pytest.approx(0.8)


def test_sides_needs_and_trumps_through_the_interface():
    """Ghost Hand's maker alone, Hasenpfeffer's partners, the joker as a trump, the bid as the need."""
    ghost = record("ghost", 1, "S", {1: ["JS", "JC", "AS", "9H", "TH", "QD"], 2: ["KS"], 0: ["QS"]},
                   {0: 1, 1: 4, 2: 1}, 3, {"C": 2, "S": 3, "D": 1, "H": 1}, bid=4)
    hasen = record("hasenpfeffer", 1, "D", {1: ["JK", "JD", "9S", "TS", "QS", "KS"],
                                            3: ["JH", "AD", "AC", "KC", "QC", "TC"], 0: ["9D"], 2: ["TD"]},
                   {0: 0, 1: 2, 2: 1, 3: 3}, 5, {"C": 4, "S": 3, "D": 5, "H": 2}, bid="little-pepper")
    g = dd.hand_frame(get_variant("ghost"), [ghost]).iloc[0]
    assert (g["contract"], g["need"], g["played"], g["trumps"], g["right_bower"]) == ("4", 4, 4, 3, True)
    h = dd.hand_frame(get_variant("hasenpfeffer"), [hasen]).iloc[0]
    assert (h["contract"], h["need"], h["played"], h["trumps"], h["right_bower"]) == ("little-pepper", 6, 5, 4, True)
    assert h["dd"] == 5 and h["best"] == 5


def test_empty_and_thrown_in_records_give_empty_tables():
    tables = dd.dd_tables(EUCHRE, euchre_records()[-1:])
    assert all(len(t) == 0 for t in tables.values())
    assert list(tables["dd_by_contract"].columns) == dd.CONTRACT_COLUMNS


@pytest.fixture(scope="module")
def euchre_files(tmp_path_factory):
    """A simulated Euchre records file, and the same solved by ``bower solve --records``."""
    d = tmp_path_factory.mktemp("dd")
    raw, solved = d / "e.jsonl", d / "e-dd.jsonl"
    with pytest.raises(SystemExit):
        main(["simulate", "--variant", "euchre", "--hands", "1500", "--seed", "7", "--records", str(raw)])
    with pytest.raises(SystemExit):
        main(["solve", "--records", str(raw), "--out", str(solved)])
    return raw, solved


def test_attach_dd_equals_bower_solve(euchre_files):
    raw, solved = euchre_files
    recs = read_records(raw)
    n = dd.attach_dd(EUCHRE, recs, batch=500)
    want = read_records(solved)
    assert n == sum(r["maker"] is not None for r in want) and n > 1000
    assert [r["dd"] for r in recs] == [r["dd"] for r in want]
    assert dd.missing_dd(EUCHRE, recs) == 0 and dd.missing_dd(EUCHRE, read_records(raw)) == n


def test_analyze_without_dd_says_how_to_get_it(capsys, euchre_files, tmp_path):
    raw, _ = euchre_files
    code, out, _ = run(capsys, "analyze", str(raw), "--csv", str(tmp_path / "t"))
    assert code == 0 and "== dd by contract ==" not in out
    hint = [line for line in out.splitlines() if "bower solve --records" in line]
    assert len(hint) == 1 and f"bower solve --records {raw} --out" in hint[0] and "--dd" in hint[0]
    assert not any(p.name.startswith("dd_") for p in (tmp_path / "t").iterdir())


def test_analyze_prints_dd_tables_and_dd_on_the_fly_is_the_same(capsys, euchre_files, tmp_path):
    raw, solved = euchre_files
    code, pre, _ = run(capsys, "analyze", str(solved), "--csv", str(tmp_path / "pre"))
    assert code == 0
    for name in dd.TABLES:
        assert f"== {name.replace('_', ' ')} ==" in pre
    assert pre.index("== position ==") < pre.index("== dd by contract ==")  # after the variant's tables
    assert "bower solve --records" not in pre
    code, fly, _ = run(capsys, "analyze", str(raw), "--dd", "--threads", "1", "--csv", str(tmp_path / "fly"))
    assert code == 0 and "double dummy: solved" in fly
    body = lambda text: [ln for ln in text.splitlines()[1:] if not ln.startswith(("double dummy:", "wrote "))]
    assert body(fly) == body(pre)
    for name in dd.TABLES:
        a = pd.read_csv(tmp_path / "pre" / f"{name}.csv")
        pd.testing.assert_frame_equal(a, pd.read_csv(tmp_path / "fly" / f"{name}.csv"))
    # the printed table is the function's
    recs = read_records(solved)
    t = dd.dd_tables(EUCHRE, recs)["dd_by_contract"]
    assert t.iloc[-1]["hands"] == sum(r["maker"] is not None for r in recs)
    got = pd.read_csv(tmp_path / "pre" / "dd_by_contract.csv")
    assert got["hands"].tolist() == t["hands"].tolist()
    assert got["par_rate"].tolist() == pytest.approx(t["par_rate"].tolist())


@pytest.mark.parametrize("variant", [v.name for v in all_variants()])
def test_report_writes_dd_tables_and_plot(capsys, tmp_path, monkeypatch, variant):
    monkeypatch.setattr(dd, "REPORT_BATCH", 150)  # the report plays and solves its dd hands in three batches
    out_dir = tmp_path / "rep"
    code, out, _ = run(capsys, "report", "--variant", variant, "--hands", "1200", "--games", "64",
                       "--dd-hands", "400", "--seed", "5", "--out", str(out_dir), "--csv")
    assert code == 0
    v = get_variant(variant)
    assert f"{len(v.plots) + 1} plots" in out
    html = (out_dir / "report.html").read_text()
    assert dd.PLOT in html and html_escape(dd.PLOTS[dd.PLOT]) in html
    assert (out_dir / dd.PLOT).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for name in dd.TABLES:
        assert f"<h2>{name.replace('_', ' ')}</h2>" in html and (out_dir / f"{name}.csv").exists()
    assert "the first 400 hands dealt" in html and "--dd-hands 400" in html
    # the report's dd tables are those of the run's first 400 hands, solved
    recs = runner.hand_records(5, 0, 400, None, "default", variant)
    dd.attach_dd(v, recs)
    want = dd.dd_tables(v, recs)
    for name in dd.TABLES:
        assert (out_dir / f"{name}.csv").read_text() == want[name].to_csv(index=False), name
    played = sum(dd.is_played(v, r) for r in recs)
    assert f"{played:,} of them played" in html


def test_report_without_dd(capsys, tmp_path):
    out_dir = tmp_path / "rep"
    code, out, _ = run(capsys, "report", "--variant", "euchre", "--hands", "500", "--games", "64", "--dd-hands", "0",
                       "--out", str(out_dir))
    assert code == 0 and f"{len(EUCHRE.plots)} plots" in out
    assert not (out_dir / dd.PLOT).exists() and "dd by contract" not in (out_dir / "report.html").read_text()


def test_best_trump_only_among_the_suits_the_auction_allowed():
    # ordered up in round one: hearts was the only trump the makers could have; spades' 4 does not count
    r1 = record("euchre", 0, "H", SIDE_5_RIGHT, {0: 1, 1: 2, 2: 1, 3: 1}, 3, {"H": 3, "S": 4, "C": 0, "D": 0},
                alone=[], upcard="9H", calls=[[1, "order"]])
    # round two with hearts turned down: spades named; hearts' 5 was not open to them
    r2 = record("euchre", 0, "S", SIDE_5_RIGHT, {0: 1, 1: 2, 2: 1, 3: 1}, 3, {"H": 5, "S": 3, "C": 4, "D": 0},
                alone=[], upcard="9H", calls=[[1, "pass"], [2, "pass"], [3, "pass"], [0, "pass"], [1, "pass"],
                                              [2, "pass"], [3, "pass"], [0, "S"]])
    frame = dd.hand_frame(EUCHRE, [r1, r2])
    assert frame["best"].tolist() == [3, 4]
    assert get_variant("cutthroat").card_play.trump_choices({"upcard": "TS", "calls": [[1, "assist"]]}) == ("S",)
    assert get_variant("cutthroat").card_play.trump_choices(
        {"upcard": "TS", "calls": [[1, "pass"]] * 3, "rules": {"allow_turned_down_suit": True}}) == ("C", "S", "D", "H")
