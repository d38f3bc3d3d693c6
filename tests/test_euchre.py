"""Standard Euchre through the runner and every command: summaries, determinism, records, tables, games,
experiments by partnership, sweeps, strategies, the report, should-bid, profile and bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bower.kernels.euchre import hand as ek
from bower.sim import records as rec_mod
from bower.sim import runner
from tests.cli_run import run
from bower.sim.rules import resolve
from bower.sim.strategy import StrategyError, load_strategy, to_toml
from bower.sim.variants import get_variant
from bower.sim.variants.euchre import hands as eh
from bower.sim.variants.euchre import tables as et

EUCHRE = get_variant("euchre")
DEFAULT = EUCHRE.defaults
LONE_RULES = {"allow_lone_defender": True}
LONE = {"alone_min": 2.75, "defend_alone_min": 2.25, "order_min_1": 2.5, "order_min_3": 2.5}  # many lone hands


def _rows(seed: int, n: int, rules=None, strategy="default") -> np.ndarray:
    _, _, vec = runner.resolve_run("euchre", seed, rules)
    _, params = runner.seat_params(strategy, "euchre")
    out = []
    runner.run_hands(0, n, seed, vec, params, True, lambda f, r, s: out.append(r.copy()), 2, "euchre")
    return np.concatenate(out)


def _maker_tricks(r: dict) -> int:
    side = r["maker"] % 2
    return r["tricks"][str(side)] + r["tricks"][str(side + 2)]


# ---------------------------------------------------------------- the variant and the runner


def test_the_variant_is_registered_with_its_names_and_hand_paths():
    import bower.sim.variants.euchre as pkg

    assert get_variant("standard") is EUCHRE and get_variant("Four-Handed") is EUCHRE
    assert (EUCHRE.players, EUCHRE.hand_size, EUCHRE.target, EUCHRE.partnerships) == (4, 5, 10, True)
    assert [o.name for o in EUCHRE.options] == ["stick_the_dealer", "allow_lone_defender", "loner_lead", "canadian",
                                                "discard_up", "loner_march_score", "loner_euchred_score",
                                                "fast_break", "four_trick_tokens", "farmers", "go_under",
                                                "partners_best"]
    assert EUCHRE.presets is eh.PRESETS and set(EUCHRE.presets) >= {"default", "cautious", "aggressive", "random"}
    assert pkg.play_order is eh.play_order and pkg.score_hand(5, True, False) == (4, 0)


def test_same_seed_same_summary_and_records_for_any_thread_count(tmp_path):
    keys = ("hands", "thrown_in", "made", "marches", "euchres", "round_one_by_position", "round_two_by_position",
            "order_up_by_upcard_rank", "maker_alone", "defender_alone", "points_per_hand_by_side",
            "points_per_hand_by_deal", "points_per_hand_by_role", "tricks_per_hand_by_position")
    a = runner.simulate("euchre", hands=20_000, seed=5, threads=1, rules=LONE_RULES, strategy=LONE,
                        records_path=str(tmp_path / "a.jsonl"))
    b = runner.simulate("euchre", hands=20_000, seed=5, threads=2, rules=LONE_RULES, strategy=LONE,
                        records_path=str(tmp_path / "b.jsonl"))
    assert {k: a[k] for k in keys} == {k: b[k] for k in keys}
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    c = runner.simulate("euchre", hands=20_000, seed=6, threads=2, rules=LONE_RULES, strategy=LONE)
    assert a["points_per_hand_by_side"] != c["points_per_hand_by_side"]
    assert a["variant"] == "euchre" and a["strategy"] == "custom"


def test_summary_counts_add_up_and_agree_with_the_records():
    n = 6000
    recs = runner.hand_records(9, 0, n, rules=LONE_RULES, strategy=LONE, variant="euchre")
    s = runner.simulate("euchre", hands=n, seed=9, threads=1, rules=LONE_RULES, strategy=LONE)
    played = [r for r in recs if r["maker"] is not None]
    assert s["hands"] == n and s["played"] == len(played) and s["played"] + s["thrown_in"] == n
    made = sum(_maker_tricks(r) >= 3 for r in played)
    assert s["made"]["made"] == made and s["made"]["made"] + s["euchres"] == s["played"]
    assert s["marches"] == sum(_maker_tricks(r) == 5 for r in played)
    r1 = sum(v["count"] for v in s["round_one_by_position"].values())
    r2 = sum(v["count"] for v in s["round_two_by_position"].values())
    assert r1 + r2 == s["played"] == sum(s["makers_by_position"].values())
    assert r1 == sum(r["calls"][-1][1] == "order" for r in played)
    assert sum(v["count"] for v in s["order_up_by_upcard_rank"].values()) == r1
    for p in "1234":
        assert s["makers_by_position"][p] == sum((r["maker"] - r["dealer"] - 1) % 4 + 1 == int(p) for r in played)
    lone_makers = [r for r in played if r["maker"] in r["alone"]]
    lone_defs = [r for r in played if any(x != r["maker"] for x in r["alone"])]
    assert s["maker_alone"]["count"] == len(lone_makers) > 50
    assert s["maker_alone"]["marches"] == sum(_maker_tricks(r) == 5 for r in lone_makers)
    assert s["defender_alone"]["count"] == len(lone_defs) > 50
    assert s["defender_alone"]["euchres"] == sum(_maker_tricks(r) < 3 for r in lone_defs)
    # every hand's points are the score table's, and the summary's points are the records' sums
    for r in played:
        mk, df = eh.score_hand(_maker_tricks(r), r["maker"] in r["alone"], r in lone_defs)
        side = str(r["maker"] % 2)
        assert r["points"][side] == mk and r["points"][str(1 - r["maker"] % 2)] == df
    for side in "01":
        assert s["points_per_hand_by_side"][side] == pytest.approx(sum(r["points"][side] for r in recs) / n, abs=1e-12)
    dealer = sum(r["points"][str(r["dealer"] % 2)] for r in recs)
    other = sum(r["points"][str(1 - r["dealer"] % 2)] for r in recs)
    assert s["points_per_hand_by_deal"]["dealer_side"] == pytest.approx(dealer / n, abs=1e-12)
    assert s["points_per_hand_by_deal"]["other_side"] == pytest.approx(other / n, abs=1e-12)
    assert s["dealer_edge"]["points"] == pytest.approx((dealer - other) / n, abs=1e-12)
    total = sum(s["points_per_hand_by_side"].values())
    assert total == pytest.approx(sum(s["points_per_hand_by_deal"].values()), abs=1e-12)
    assert total * n == pytest.approx(sum(s["points_per_hand_by_role"].values()) * s["played"], abs=1e-9)
    for p in "1234":
        tricks = sum(r["tricks"][str((r["dealer"] + int(p)) % 4)] for r in recs)
        assert s["tricks_per_hand_by_position"][p] == pytest.approx(tricks / n, abs=1e-12)


def test_records_jsonl_and_parquet_round_trip(tmp_path):
    for ext in ("jsonl", "parquet"):
        runner.simulate("euchre", hands=700, seed=4, rules=LONE_RULES, strategy=LONE,
                        records_path=str(tmp_path / f"r.{ext}"))
    a = rec_mod.read_records(str(tmp_path / "r.jsonl"))
    b = rec_mod.read_records(str(tmp_path / "r.parquet"))
    assert len(a) == 700 and a == b
    assert a[0]["variant"] == "euchre" and set(a[0]) >= EUCHRE.record_fields
    assert a == runner.hand_records(4, 0, 700, rules=LONE_RULES, strategy=LONE, variant="euchre")


# ---------------------------------------------------------------- tables


def test_records_decode_back_to_the_kernel_rows_and_the_tables_agree():
    rows = _rows(3, 5000, LONE_RULES, LONE)
    dicts = rec_mod.to_dicts(rows, 0, EUCHRE, resolve(EUCHRE, LONE_RULES))
    back = et.rows_from_records(dicts)
    used = [ek.R_DEALER, *range(ek.R_DEAL, ek.R_DEAL + 4), *range(ek.R_KITTY, ek.R_KITTY + 4), ek.R_NCALLS,
            ek.R_MAKER, ek.R_TRUMP, ek.R_DISCARD, ek.R_ALONE, ek.R_NPLAYS, *range(ek.R_TRICKS, ek.R_TRICKS + 6)]
    assert (back[:, used] == rows[:, used]).all()
    calls = np.arange(ek.MAX_CALLS) < rows[:, [ek.R_NCALLS]]
    for k in (0, 1):
        cols = slice(ek.R_CALLS + k, ek.R_CALLS + 2 * ek.MAX_CALLS, 2)
        assert ((back[:, cols] == rows[:, cols]) | ~calls).all()
    params = load_strategy(LONE, "euchre")[1]
    acc = et.Accumulator(params)
    acc.add_rows(rows[:1800])
    acc.add_rows(rows[1800:])
    a = et.table_set(acc.frame())
    b = et.tables_from_records(dicts, params)
    assert list(a) == ["makers", "order_up", "by_trumps", "trump_kind", "lone_hands", "dealer_side", "position"]
    for name in a:
        x, y = a[name].select_dtypes("number").to_numpy(float), b[name].select_dtypes("number").to_numpy(float)
        assert x.shape == y.shape and np.allclose(x, y, equal_nan=True), name
    played = int((rows[:, ek.R_MAKER] >= 0).sum())
    for name in ("makers", "by_trumps", "trump_kind"):
        assert a[name]["hands"].sum() == played, name


def test_tables_agree_with_the_summary_and_answer_the_classic_questions():
    from bower.sim.variants.euchre.summary import table_run

    s, cells = table_run(40_000, seed=2, threads=2, rules=LONE_RULES, strategy=LONE)
    t = et.table_set(cells)
    mk = t["makers"]
    assert mk["hands"].sum() == s["played"] and mk["made"].sum() == s["made"]["made"]
    assert mk["euchres"].sum() == s["euchres"] and mk["marches"].sum() == s["marches"]
    r1 = mk[mk["round"] == 1].set_index("position")
    for p in "1234":
        assert r1.loc[int(p), "hands"] == s["round_one_by_position"][p]["count"]
        assert r1.loc[int(p), "make_rate"] == pytest.approx(s["round_one_by_position"][p]["make_rate"])
    ou = t["order_up"].groupby("upcard", observed=True)["hands"].sum()
    assert {str(k): int(v) for k, v in ou.items()} == {
        r: v["count"] for r, v in s["order_up_by_upcard_rank"].items() if v["count"]}
    # the value of dealing: the same points per hand as the summary, with intervals around them
    ds = t["dealer_side"].set_index("side")
    assert ds.loc["dealer's side", "points_per_hand"] == pytest.approx(s["points_per_hand_by_deal"]["dealer_side"])
    assert ds.loc["other side", "points_per_hand"] == pytest.approx(s["points_per_hand_by_deal"]["other_side"])
    diff = ds.loc["difference (dealer's - other)"]
    assert diff["points_per_hand"] == pytest.approx(s["dealer_edge"]["points"])
    assert [diff["points_low"], diff["points_high"]] == pytest.approx(s["dealer_edge"]["ci95"])
    assert (t["dealer_side"]["points_low"] <= t["dealer_side"]["points_per_hand"]).all()
    assert diff["points_low"] > 0  # the dealer's side, holding the up-card's pick-up, scores more
    # trumps held: more trumps, more makes (round two, where the maker's hand is its own)
    bt = t["by_trumps"][t["by_trumps"]["round"] == 2].set_index("trumps")
    assert bt.loc[4, "make_rate"] > bt.loc[2, "make_rate"] and bt.loc[3, "hands"] > 100
    assert ((bt["make_low"] <= bt["make_rate"]) & (bt["make_rate"] <= bt["make_high"])).all()
    # lone hands: the counts are the summary's
    lh = t["lone_hands"]
    assert lh[lh["who"] == "maker"]["hands"].sum() == s["maker_alone"]["count"]
    assert lh[lh["who"] == "maker"]["marches"].sum() == s["maker_alone"]["marches"]
    assert lh[lh["who"] == "defender"]["hands"].sum() == s["defender_alone"]["count"]
    assert lh[lh["who"] == "defender"]["euchres"].sum() == s["defender_alone"]["euchres"]
    pos = t["position"].set_index("position")
    for p in "1234":
        assert pos.loc[int(p), "tricks_per_hand"] == pytest.approx(s["tricks_per_hand_by_position"][p])
    assert set(t["trump_kind"]["trump_kind"].astype(str)) == {"up", "next", "cross"}


def test_a_lone_maker_always_has_the_alone_estimate():
    f = et.hand_features(_rows(8, 8000, LONE_RULES, LONE), load_strategy(LONE, "euchre")[1])
    alone = f[f["maker_alone"]]
    assert len(alone) > 100 and (alone["est"] >= LONE["alone_min"]).all()
    lone = f[f["lone_defender"]]
    assert len(lone) > 100 and (lone["est_lone_defender"] >= LONE["defend_alone_min"]).all()
    thrown = f[f["round"] == 0]
    assert (thrown["made"] == 0).all() and (thrown["dealer_points"] == 0).all()


# ---------------------------------------------------------------- games and experiments


def test_games_to_ten_by_side_are_deterministic():
    res = runner.game_results(3, 0, 64, variant="euchre", strategies=("default", "aggressive"),
                              assignments=((0, 1, 0, 1), (1, 0, 1, 0)))
    assert res == runner.game_results(3, 0, 64, variant="euchre", strategies=("default", "aggressive"),
                                      assignments=((0, 1, 0, 1), (1, 0, 1, 0)))
    for g in res:
        assert g["winner"] in (0, 1) and len(g["scores"]) == 2
        assert g["scores"][g["winner"]] >= 10 > g["scores"][1 - g["winner"]]
    s = runner.simulate_games("euchre", games=640, seed=3, threads=1, rules=LONE_RULES)
    t = runner.simulate_games("euchre", games=640, seed=3, threads=2, rules=LONE_RULES)
    assert s["wins_by_start"] == t["wins_by_start"] and set(s["wins_by_start"]) == {"1", "2"}
    assert s["games"] == 640 and s["tiebreak_games"] == 0 and s["unfinished"] == 0
    assert sum(s["wins_by_start"].values()) == 640


def test_default_partnership_beats_random():
    from bower.sim.experiment import run_experiment

    r = run_experiment(["default", "random"], games=512, seed=1, variant="euchre", threads=1)
    assert r["assignments"] == [["default", "random", "default", "random"], ["random", "default", "random", "default"]]
    pair = r["pairs"][0]
    assert pair["better"] == "default" and pair["ci95"][0] > 0.3
    d, rnd = r["strategies"]
    assert d["win_rate"] + rnd["win_rate"] == pytest.approx(1.0)  # every game has one winning side
    assert d["make_rate"]["rate"] > rnd["make_rate"]["rate"]
    assert rnd["call_rate"] > d["call_rate"] > 0
    assert d["maker_rate"] == pytest.approx(d["round_one_rate"] + d["round_two_rate"])
    with pytest.raises(runner.RunError, match="compares 2 strategies"):
        run_experiment(["default", "random", "cautious"], games=64, variant="euchre")


def test_sweep_is_one_partnership_against_the_base():
    from bower.sim.experiment import run_sweep

    r = run_sweep(["order_min_2=2.25:2.75:0.5"], games=128, seed=2, variant="euchre", threads=1)
    assert r["variant"] == "euchre" and [x["values"]["order_min_2"] for x in r["rows"]] == [2.25, 2.75]
    assert all(0 <= x["bid_rate"] <= 1 for x in r["rows"])
    same = r["rows"][0]  # the base itself (order_min_2 = 2.25): on duplicate deals the same side wins both games of every set
    assert same["win_rate"] == 0.5 and same["win_rate_ci95"] == [0.5, 0.5]


def test_strategies_presets_toml_round_trip_and_checks(tmp_path):
    _, params = load_strategy("aggressive", "euchre")
    assert params["order_min_1"] == DEFAULT["order_min_1"] - 0.5
    path = tmp_path / "mine.toml"
    path.write_text(to_toml("mine", params, "euchre"))
    assert load_strategy(str(path), "euchre") == ("mine", params)
    with pytest.raises(StrategyError, match="0 = off, 1 = on"):
        load_strategy({"lead_next": 2.0}, "euchre")
    with pytest.raises(StrategyError, match="not negative"):
        load_strategy({"lead_trump_min": -1.0}, "euchre")
    with pytest.raises(StrategyError, match=r"unknown strategy parameter 'order_min' \(euchre\)"):
        load_strategy({"order_min": 1.0}, "euchre")


# ---------------------------------------------------------------- should-bid


def test_should_bid_orders_both_bowers_and_passes_trash():
    from bower.sim.variants.euchre.advice import advise

    strong = advise("JS JC AS 9H QD", "TS", position=1, samples=2048, seed=2, threads=1)
    assert [a["action"] for a in strong["actions"]] == ["pass", "order it up, with partner", "order it up, alone"]
    assert strong["recommendation"]["action"].startswith("order it up") and strong["recommendation"]["clear"]
    order = strong["actions"][1]
    assert order["side_maker"] == 1.0 and order["make_prob"] > 0.97 and order["expected_points"] > 1.0
    weak = advise("9C TC 9D TD QH", "AS", position=1, samples=2048, seed=2, threads=1)
    assert weak["recommendation"]["action"] == "pass" and weak["recommendation"]["clear"]
    # net points: ordering trash is euchred most of the time, and a euchre counts against the side
    assert weak["actions"][1]["expected_points"] < weak["actions"][0]["expected_points"] < 0
    assert weak["actions"][1]["side_points"] >= 0


def test_should_bid_is_thread_independent_and_reads_the_passes():
    from bower.sim.variants.euchre.advice import advise

    a = advise("QC TS 9S KD 9H", "JS", position=3, calls="pass,pass", samples=2048, seed=4, threads=1)
    b = advise("QC TS 9S KD 9H", "JS", position=3, calls="pass,pass", samples=2048, seed=4, threads=2)
    assert a["actions"] == b["actions"] and a["draws"] == b["draws"] and a["round"] == 1
    assert a["ess"] < a["samples"]  # position 2's pass tells something about its hand: the deals weigh unequally
    r2 = advise("9C TC 9D TD QH", "9S", position=4, calls=",".join(["pass"] * 7), samples=512, seed=4,
                rules={"stick_the_dealer": True}, bid="H")
    assert r2["round"] == 2 and [x["action"] for x in r2["actions"]] == [
        "name C, with partner", "name C, alone", "name D, with partner", "name D, alone", "name H, with partner",
        "name H, alone"]
    assert r2["question"]["action"] == "name H, with partner" and r2["question"]["against"] != "pass"
    q = advise("JS JC AS 9H QD", "TS", position=4, calls="pass,pass,pass", samples=1024, seed=1, bid="order")
    assert [x["action"] for x in q["actions"]][1] == "take it up, with partner"
    assert q["question"]["against"] == "pass" and q["question"]["verdict"].startswith("yes")


# ---------------------------------------------------------------- the commands


def test_cli_every_command(capsys, tmp_path):
    code, out, _ = run(capsys, "simulate", "--variant", "euchre", "--hands", "4000", "--threads", "1")
    assert code == 0
    for needle in ("Standard Euchre", "round 1, pos 4", "round 2, pos 1", "up-card J", "dealer's side",
                   "the deal is worth", "lone defenders", "mean tricks per hand"):
        assert needle in out, needle
    code, out, _ = run(capsys, "simulate", "--variant", "standard", "--games", "10", "--json")
    assert code == 0 and json.loads(out)["games"] == 10 and json.loads(out)["variant"] == "euchre"
    code, out, _ = run(capsys, "simulate", "--variant", "euchre", "--games", "128")
    assert code == 0 and "win share by side" in out
    code, out, _ = run(capsys, "experiment", "default", "aggressive", "--variant", "euchre", "--games", "256")
    assert code == 0 and "def.alone" in out and "pairs" in out and "aggressive" in out
    code, out, _ = run(capsys, "sweep", "--variant", "euchre", "--param", "take_min=2.5:3:0.5", "--games", "128",
                       "--json")
    assert code == 0 and [r["values"]["take_min"] for r in json.loads(out)["rows"]] == [2.5, 3.0]
    recs = tmp_path / "e.jsonl"
    assert run(capsys, "simulate", "--variant", "euchre", "--hands", "3000", "--records", str(recs))[0] == 0
    code, out, _ = run(capsys, "analyze", str(recs), "--csv", str(tmp_path / "tables"))
    assert code == 0 and "3,000 euchre hands" in out
    for name in ("order up", "by trumps", "lone hands", "dealer side"):
        assert f"== {name} ==" in out, name
    assert sorted(p.name for p in (tmp_path / "tables").iterdir()) == [
        "by_trumps.csv", "dealer_side.csv", "lone_hands.csv", "makers.csv", "order_up.csv", "position.csv",
        "trump_kind.csv"]
    code, out, _ = run(capsys, "report", "--variant", "euchre", "--hands", "3000", "--games", "64",
                       "--out", str(tmp_path / "rep"), "--csv")
    assert code == 0 and "4 plots" in out
    html = (tmp_path / "rep" / "report.html").read_text()
    assert "Standard Euchre" in html and "dealer_side.png" in html and "The deal is worth" in html
    for png in EUCHRE.plots:
        assert (tmp_path / "rep" / png).stat().st_size > 1000
    assert "first_deal_win_share" in (tmp_path / "rep" / "dealer_side.csv").read_text()
    code, out, _ = run(capsys, "should-bid", "--variant", "euchre", "JS JC AS 9H QD", "--upcard", "TS",
                       "--samples", "500")
    assert code == 0 and "recommendation: order it up" in out
    code, out, _ = run(capsys, "should-bid", "--variant", "euchre", "JS JC AS 9H QD", "--upcard", "TS",
                       "--position", "2", "--calls", "pass", "--bid", "alone", "--samples", "500", "--json")
    assert code == 0 and json.loads(out)["question"]["against"] == "order it up, with partner"
    code, out, _ = run(capsys, "strategies", "--variant", "euchre")
    assert code == 0 and "never-alone" in out and "order_min_2" in out and "lead_next" in out
    code, out, _ = run(capsys, "strategies", "--variant", "euchre", "--show", "cautious")
    assert code == 0 and 'variant = "euchre"' in out
    (tmp_path / "c.toml").write_text(out)
    assert load_strategy(str(tmp_path / "c.toml"), "euchre")[1] == load_strategy("cautious", "euchre")[1]
    code, out, _ = run(capsys, "simulate", "--variant", "euchre", "--hands", "1000", "--strategy",
                       str(tmp_path / "c.toml"), "--json")
    assert code == 0 and json.loads(out)["strategy"] == "c"
    code, out, _ = run(capsys, "profile", "--variant", "euchre", "--hands", "4000", "--threads", "1", "--json")
    assert code == 0
    prof = json.loads(out)
    assert prof["variant"] == "euchre" and {"deal", "hand", "game", "should-bid"} <= {r["name"] for r in prof["kernels"]}


@pytest.mark.parametrize(
    "args, words",
    [
        (["simulate", "--variant", "euchre", "--rule", "dealer_pickup=optional"], "unknown rule option 'dealer_pickup' for euchre"),
        (["simulate", "--variant", "euchre", "--rule", "stick_the_dealer=sometimes"], "bad value"),
        (["simulate", "--variant", "euchre", "--strategy", "bold"], "unknown strategy 'bold' for euchre"),
        (["sweep", "--variant", "euchre", "--param", "order_min=1:2:0.5"], "unknown strategy parameter 'order_min' in --param (euchre)"),
        (["experiment", "default", "cautious", "random", "--variant", "euchre"], "compares 2 strategies"),
        (["profile", "--variant", "euchre", "--kernel", "auction"], "timed apart"),
        (["should-bid", "--variant", "euchre", "JS JC AS 9H", "--upcard", "TS"], "a Euchre hand has 5 cards, got 4"),
        (["should-bid", "--variant", "euchre", "JS JC AS 9H QD"], "--upcard is needed"),
        (["should-bid", "--variant", "euchre", "JS JC AS 9H QD", "--upcard", "AS"], "also in the hand"),
        (["should-bid", "--variant", "euchre", "JS JC AS 9H QD", "--upcard", "JK"], "cannot be the joker"),
        (["should-bid", "--variant", "euchre", "JS JC AS 9H JK", "--upcard", "TS"], "joker"),
        (["should-bid", "--variant", "euchre", "JS JC AS 9H QD", "--upcard", "TS", "--position", "5"], "1 to 4"),
        (["should-bid", "--variant", "euchre", "JS JC AS 9H QD", "--upcard", "TS", "--position", "2", "--calls", "order"],
         "ends the Euchre auction"),
        (["should-bid", "--variant", "euchre", "JS JC AS 9H QD", "--upcard", "TS", "--calls", "pass"], "position 2's turn"),
        (["should-bid", "--variant", "euchre", "JS JC AS 9H QD", "--upcard", "TS", "--calls", ",".join(["pass"] * 8)],
         "throw the hand in"),
        (["should-bid", "--variant", "euchre", "JS JC AS 9H QD", "--upcard", "TS", "--bid", "H"], "in round one"),
        (["should-bid", "--variant", "euchre", "JS JC AS 9H QD", "--upcard", "TS", "--bid", "4"], "--bid '4'"),
        (["should-bid", "--variant", "euchre", "JS JC AS 9H QD", "--upcard", "TS", "--calls", "pass,pass,pass,pass",
          "--bid", "S"], "turned down"),
        (["should-bid", "--variant", "euchre", "JS JC AS 9H QD", "--upcard", "TS", "--scores", "3,10"], "at or past"),
        (["should-bid", "--variant", "euchre", "JS JC AS 9H QD", "--upcard", "TS", "--swapped", "2"], "no ghost hand"),
    ],
)
def test_cli_bad_euchre_input_is_one_line_exit_2(capsys, args, words):
    code, _, err = run(capsys, *args)
    assert code == 2
    assert words in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------- who leads against a loner (loner_lead)

# dealer seat 0; position 2 (seat 2, the dealer's partner) orders the 9 of hearts up and goes alone: the dealer sits
# out. Left of the dealer is seat 1, left of the loner seat 3.
_POSITIONS = ("9C TC 9S TS 9D", "JH JD AH KH QH", "QC KC QS KS TD", "AC AS AD KD QD")
LONER_ORDER = [h.split()[k] for k in range(5) for h in _POSITIONS] + "9H TH JC JS".split()


@pytest.mark.parametrize("loner_lead, leader", [("dealer", 1), ("loner", 3)])
def test_loner_lead_picks_the_first_leader(loner_lead, leader):
    from tests.reference import euchre_play as ep

    rules = {"loner_lead": loner_lead}
    got = eh.play_order(LONER_ORDER, 0, rules)
    assert got["maker"] == 2 and got["alone"] == [2] and got["plays"][0][0] == leader
    assert got["rules"]["loner_lead"] == loner_lead
    assert [s for s, _ in got["plays"][:3]] == {1: [1, 2, 3], 3: [3, 1, 2]}[leader]  # the dealer sits out
    twin = ep.play_order(LONER_ORDER, 0, rules, "default")
    assert (twin["plays"], twin["tricks"], twin["points"]) == (got["plays"], got["tricks"], got["points"])


def test_loner_lead_with_a_lone_defender_the_defender_leads():
    # a lone maker and a lone defender: two seats play; under loner the first in play left of the maker, the
    # defender, whichever defender it is; under dealer position 1 skipping the seats out
    from tests.reference import euchre as eu

    for maker in range(4):
        for lone in ((maker + 1) % 4, (maker + 3) % 4):
            active = eu.active_seats(maker, True, lone)
            for dealer in range(4):
                got = eu.first_leader(dealer, active, maker, True, {"loner_lead": "loner"})
                assert got == lone
                assert eu.first_leader(dealer, active, maker, True, {}) == eu.first_leader(dealer, active)
            assert EUCHRE.card_play.first_leader(maker, 0, sum(1 << s for s in active), {"loner_lead": "loner"},
                                                 frozenset({maker, lone})) == lone
    # a lone defender against a maker with its partner: no lone maker, so the dealer's rule
    assert eu.first_leader(0, eu.active_seats(2, False, 1), 2, False, {"loner_lead": "loner"}) == 1
    assert EUCHRE.card_play.first_leader(2, 0, 0b0111, {"loner_lead": "loner"}, frozenset({1})) == 1


def test_loner_lead_on_the_command_line(capsys, tmp_path):
    path = tmp_path / "l.jsonl"
    code, out, _ = run(capsys, "simulate", "--variant", "euchre", "--hands", "400", "--seed", "5", "--strategy",
                       "cautious", "--rule", "loner_lead=loner", "--records", str(path))
    assert code == 0 and "loner_lead=loner" in out
    recs = rec_mod.read_records(str(path))
    assert all(r["rules"]["loner_lead"] == "loner" for r in recs)
    lone = [r for r in recs if r["maker"] is not None and r["alone"] == [r["maker"]]]
    assert lone and all(r["plays"][0][0] == (r["maker"] + 1) % 4 for r in lone)  # the seat left of the loner
    assert any(r["plays"][0][0] != (r["dealer"] + 1) % 4 for r in lone)
    code, out, _ = run(capsys, "replay", str(path))
    assert code == 0 and "0 renege(s)" in out
    code, out, err = run(capsys, "simulate", "--variant", "euchre", "--rule", "loner_lead=partner")
    assert code == 2 and err == ("bower: error: bad value 'partner' for rule option 'loner_lead' "
                                 "(allowed: dealer | loner)\n")
