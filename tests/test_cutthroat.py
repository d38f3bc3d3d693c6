"""Cutthroat through the runner and every command: determinism, records, tables, experiments, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bower.sim.variants.cutthroat import tables as ct
from bower.kernels.cutthroat import hand as ck
from bower.sim import records as rec_mod
from bower.sim import runner
from tests.cli_run import run
from bower.sim.rules import resolve
from bower.sim.strategy import load_strategy, to_toml
from bower.sim.variants import get_variant

CUTTHROAT = get_variant("cutthroat")
CUTTHROAT_DEFAULTS = get_variant("cutthroat").defaults

DEFAULT = CUTTHROAT_DEFAULTS


def _rows(seed: int, n: int, rules=None, strategy="default") -> np.ndarray:
    _, rules_d, vec = runner.resolve_run("cutthroat", seed, rules)
    _, params = runner.seat_params(strategy, "cutthroat")
    out = []
    runner.run_hands(0, n, seed, vec, params, True, lambda f, r, s: out.append(r.copy()), 2, "cutthroat")
    return np.concatenate(out)


def test_same_seed_same_summary_for_any_thread_count():
    keys = ("hands", "thrown_in", "made", "marches", "round_one_by_position", "maker_alone", "defender_alone",
            "points_per_hand_by_position", "order_up_by_upcard_rank")
    a = runner.simulate("cutthroat", hands=20_000, seed=5, threads=1)
    b = runner.simulate("cutthroat", hands=20_000, seed=5, threads=2)
    assert {k: a[k] for k in keys} == {k: b[k] for k in keys}
    c = runner.simulate("cutthroat", hands=20_000, seed=6, threads=2)
    assert a["points_per_hand_by_position"] != c["points_per_hand_by_position"]


def test_summary_counts_agree_with_the_records():
    recs = runner.hand_records(9, 0, 5000, variant="cutthroat")
    s = runner.simulate("cutthroat", hands=5000, seed=9, threads=1)
    played = [r for r in recs if r["maker"] is not None]
    assert s["played"] == len(played)
    assert s["made"]["made"] == sum(r["tricks"][str(r["maker"])] >= 3 for r in played)
    assert s["marches"] == sum(r["tricks"][str(r["maker"])] == 5 for r in played)
    assert s["dealer_exchanges"] == sum(r["discards"]["dealer"] is not None for r in played)
    assert s["maker_alone"]["count"] == sum(r["maker"] in r["alone"] for r in played)
    for p in "123":
        pts = sum(r["points"][str((r["dealer"] + int(p)) % 3)] for r in recs)
        assert s["points_per_hand_by_position"][p] == pytest.approx(pts / 5000, abs=1e-12)


def test_records_are_the_rules_output():
    """Every record: 24 distinct cards dealt, calls spelled by position, points = the score table of the tricks."""
    from tests.reference import cutthroat as ref

    for r in runner.hand_records(2, 0, 600, variant="cutthroat", rules={"stick_the_dealer": True}):
        cards = [c for s in "012" for c in r["deal"][s]] + r["dummy"] + r["kitty"]
        assert len(set(cards)) == 24 and r["upcard"] == r["kitty"][0]
        for seat, call in r["calls"]:
            pos = (seat - r["dealer"]) % 3 or 3
            assert call in ("pass", {1: "order", 2: "assist", 3: "take"}[pos], "C", "S", "D", "H")
        assert r["maker"] is not None  # stick the dealer: never thrown in
        lone = [s for s in r["alone"] if s != r["maker"]]
        expect = ref.score_tricks(r["maker"], [r["tricks"][s] for s in "012"], r["maker"] in r["alone"],
                                  lone[0] if lone else None, r["rules"])
        assert [r["points"][s] for s in "012"] == expect
        assert len(r["discards"]["maker"]) == (0 if r["maker"] in r["alone"] else 5)


def test_parquet_records_read_back_as_jsonl(tmp_path):
    for ext in ("jsonl", "parquet"):
        runner.simulate("cutthroat", hands=700, seed=4, records_path=str(tmp_path / f"r.{ext}"))
    a = rec_mod.read_records(str(tmp_path / "r.jsonl"))
    b = rec_mod.read_records(str(tmp_path / "r.parquet"))
    assert a == b
    assert a[0]["variant"] == "cutthroat"


def test_records_decode_back_to_the_kernel_rows():
    rows = _rows(3, 3000)
    dicts = rec_mod.to_dicts(rows, 0, CUTTHROAT, resolve(CUTTHROAT))
    back = ct.rows_from_records(dicts)
    used = [ck.R_DEALER, *range(ck.R_DEAL, ck.R_DEAL + 3), ck.R_DUMMY, *range(ck.R_KITTY, ck.R_KITTY + 4),
            ck.R_NCALLS, ck.R_MAKER, ck.R_TRUMP, ck.R_DEALER_DISCARD, ck.R_MAKER_DISCARDS, ck.R_ALONE,
            *range(ck.R_TRICKS, ck.R_TRICKS + 6)]
    assert (back[:, used] == rows[:, used]).all()
    seats = rows[:, ck.R_CALLS:ck.R_CALLS + 2 * ck.MAX_CALLS:2]
    assert ((back[:, ck.R_CALLS:ck.R_CALLS + 2 * ck.MAX_CALLS:2] == seats) | (np.arange(ck.MAX_CALLS) >= rows[:, [ck.R_NCALLS]])).all()


def test_the_merge_never_lowers_the_estimate():
    """The maker's own five are one of the 252 sets, so the kept five estimate at least as high (exact sums)."""
    f = ct.hand_features(_rows(8, 8000), DEFAULT)
    merged = f[~f["maker_alone"]]
    assert len(merged) > 5000
    assert (merged["est_kept"] >= merged["est_hand"]).all()
    assert (merged["est_kept"] > merged["est_hand"]).mean() > 0.9
    alone = f[f["maker_alone"]]
    assert (alone["est_kept"] == alone["est_hand"]).all()
    assert (alone["est_hand"] >= DEFAULT["alone_min"]).all()


def test_tables_from_records_match_tables_from_rows():
    rows = _rows(1, 4000)
    acc = ct.Accumulator(DEFAULT)
    acc.add_rows(rows[:1500])
    acc.add_rows(rows[1500:])
    dicts = rec_mod.to_dicts(rows, 0, CUTTHROAT, resolve(CUTTHROAT))
    a = ct.table_set(acc.frame())
    b = ct.tables_from_records(dicts, DEFAULT)
    for name in ("makers", "order_up", "dummy_value", "lone_hands"):
        pd_a, pd_b = a[name].reset_index(drop=True), b[name].reset_index(drop=True)
        assert pd_a.shape == pd_b.shape, name
        assert np.allclose(pd_a.select_dtypes("number").to_numpy(float), pd_b.select_dtypes("number").to_numpy(float),
                           equal_nan=True), name
    t = a["makers"]
    assert t["hands"].sum() == int((rows[:, ck.R_MAKER] >= 0).sum())


def test_up_card_jack_ordered_by_a_defender_of_the_dealer_never_marches():
    """Position 1 or 2 ordering up a jack hands the dealer (a defender) the right bower: no march possible."""
    c = ct.Accumulator(DEFAULT)
    c.add_rows(_rows(12, 30_000))
    ou = ct.order_up(c.frame())
    jacks = ou[(ou["upcard"] == "J") & (ou["position"] < 3)]
    assert len(jacks) == 2 and (jacks["hands"] > 100).all()
    assert (jacks["marches"] == 0).all()


def test_games_to_ten_are_deterministic_and_end_at_ten():
    res = runner.game_results(3, 0, 64, variant="cutthroat")
    again = runner.game_results(3, 0, 64, variant="cutthroat")
    assert res == again
    for g in res:
        assert g["winner"] is not None
        top = max(g["scores"])
        assert g["scores"][g["winner"]] == top >= 10
        assert g["scores"].count(top) == 1
    s = runner.simulate_games("cutthroat", games=640, seed=3, threads=1)
    t = runner.simulate_games("cutthroat", games=640, seed=3, threads=2)
    assert s["wins_by_start"] == t["wins_by_start"] and s["games"] == 640


def test_default_beats_random_in_duplicate_games():
    """Fixed seed; the interval of the difference must exclude zero by a wide margin (it is about +60 points)."""
    from bower.sim.experiment import run_experiment

    r = run_experiment(["default", "random"], games=768, seed=1, variant="cutthroat", threads=1)
    pair = r["pairs"][0]
    assert pair["better"] == "default" and pair["ci95"][0] > 0.3
    assert r["variant"] == "cutthroat"
    d, rnd = r["strategies"]
    assert d["make_rate"]["rate"] > rnd["make_rate"]["rate"]


def test_strategy_toml_round_trip_and_variant_check(tmp_path):
    _, params = load_strategy("aggressive", "cutthroat")
    path = tmp_path / "mine.toml"
    path.write_text(to_toml("mine", params, "cutthroat"))
    assert load_strategy(str(path), "cutthroat") == ("mine", params)
    ghost = tmp_path / "g.toml"
    ghost.write_text(to_toml("g", load_strategy("default")[1]))
    from bower.sim.strategy import StrategyError

    with pytest.raises(StrategyError, match="for variant 'ghost'"):
        load_strategy(str(ghost), "cutthroat")
    with pytest.raises(StrategyError, match=r"unknown strategy parameter 'swap_below' \(cutthroat\)"):
        load_strategy({"swap_below": 1.0}, "cutthroat")


def test_cli_simulate_games_experiment_sweep_analyze_report(capsys, tmp_path):
    code, out, _ = run(capsys, "simulate", "--variant", "cutthroat", "--hands", "4000", "--threads", "1")
    assert code == 0
    for needle in ("Cutthroat", "round 1, pos 1", "up-card J", "lone defenders", "mean points per hand"):
        assert needle in out
    code, out, _ = run(capsys, "simulate", "--variant", "cutthroat", "--games", "200", "--json")
    assert code == 0 and json.loads(out)["games"] == 200
    code, out, _ = run(capsys, "experiment", "default", "never-alone", "--variant", "cutthroat", "--games", "400")
    assert code == 0 and "def.alone" in out and "pairs" in out
    code, out, _ = run(capsys, "sweep", "--variant", "cutthroat", "--param", "order_min=1.5:2.0:0.5", "--games", "200",
                       "--json")
    assert code == 0 and [r["values"]["order_min"] for r in json.loads(out)["rows"]] == [1.5, 2.0]
    recs = tmp_path / "c.jsonl"
    code, _, _ = run(capsys, "simulate", "--variant", "cutthroat", "--hands", "3000", "--records", str(recs))
    assert code == 0
    code, out, _ = run(capsys, "analyze", str(recs), "--csv", str(tmp_path / "tables"))
    assert code == 0 and "== order up ==" in out and "== dummy value ==" in out
    assert sorted(p.name for p in (tmp_path / "tables").iterdir()) == [
        "dummy_value.csv", "lone_hands.csv", "makers.csv", "order_up.csv", "position.csv"]
    code, out, _ = run(capsys, "report", "--variant", "cutthroat", "--hands", "3000", "--games", "64",
                       "--out", str(tmp_path / "rep"))
    assert code == 0
    html = (tmp_path / "rep" / "report.html").read_text()
    assert "Cutthroat" in html and "dummy_value.png" in html
    code, out, _ = run(capsys, "strategies", "--variant", "cutthroat")
    assert code == 0 and "never-alone" in out and "order_min" in out


@pytest.mark.parametrize(
    "args, words",
    [
        (["simulate", "--variant", "cutthroat", "--rule", "swap=none"], "unknown rule option 'swap' for cutthroat"),
        (["simulate", "--variant", "cutthroat", "--rule", "dealer_pickup=sometimes"], "bad value"),
        (["simulate", "--variant", "cutthroat", "--strategy", "never-swap"], "unknown strategy 'never-swap' for cutthroat"),
        (["sweep", "--variant", "cutthroat", "--param", "bid_4=3:4:0.5"], "unknown strategy parameter 'bid_4' in --param (cutthroat)"),
        (["should-bid", "JH,JD,AH,KH,QH,9C", "--upcard", "TS"], "--upcard is a question of the variants with an up-card"),
    ],
)
def test_cli_bad_cutthroat_input_is_one_line_exit_2(capsys, args, words):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert words in err and len(err.strip().splitlines()) == 1


# ---------------------------------------------------------------- should-bid


def test_should_bid_orders_a_monster_and_passes_trash():
    from bower.sim.variants.cutthroat.advice import advise

    strong = advise("JS,JC,AS,KS,AH", "QS", position=1, samples=3000, seed=2, threads=1)
    assert strong["recommendation"]["action"].startswith("order")
    order = next(e for e in strong["actions"] if e["action"] == "order, with the dummy")
    assert order["maker_share"] == 1.0 and order["make_prob"] > 0.97
    weak = advise("9C,TC,9D,TD,9H", "AS", position=1, samples=3000, seed=2, threads=1)
    assert weak["recommendation"]["action"] == "pass"
    assert weak["recommendation"]["clear"]


def test_should_bid_is_the_same_for_any_thread_count_and_reads_the_passes():
    from bower.sim.variants.cutthroat.advice import advise

    a = advise("QC,TS,9S,KD,9H", "JS", position=2, calls="pass", samples=2048, seed=4, threads=1)
    b = advise("QC,TS,9S,KD,9H", "JS", position=2, calls="pass", samples=2048, seed=4, threads=2)
    assert a["actions"] == b["actions"] and a["draws"] == b["draws"]
    assert a["round"] == 1 and [x["action"] for x in a["actions"]] == [
        "pass", "assist, with the dummy", "assist, alone"]
    assert a["ess"] < a["samples"]  # position 1's pass tells something about its hand: the deals weigh unequally
    r2 = advise("9C,TC,9D,TD,QH", "9S", position=3, calls="pass,pass,pass,pass,pass", samples=512, seed=4,
                rules={"stick_the_dealer": True, "maker_alone": "disabled"}, strategy="cautious")
    assert r2["round"] == 2
    assert [x["action"] for x in r2["actions"]] == ["name C, with the dummy", "name D, with the dummy",
                                                    "name H, with the dummy"]


@pytest.mark.parametrize(
    "args, words",
    [
        (["JS,AS,KS,AH"], "has 5 cards"),
        (["JS,AS,KS,AH,9D"], "--upcard is needed"),
        (["JS,AS,KS,AH,9D", "--upcard", "AS"], "also in the hand"),
        (["JS,AS,KS,AH,9D", "--upcard", "TS", "--calls", "order"], "ends the Cutthroat auction"),
        (["JS,AS,KS,AH,9D", "--upcard", "TS", "--calls", "pass", "--position", "3"], "position 2's turn"),
        (["JS,AS,KS,AH,9D", "--upcard", "TS", "--bid", "4"], "Ghost Hand question"),
        (["JS,AS,KS,AH,9D", "--upcard", "ZZ"], "card"),
    ],
)
def test_should_bid_bad_cutthroat_input(capsys, args, words):
    code, out, err = run(capsys, "should-bid", "--variant", "cutthroat", *args)
    assert code == 2
    assert words in err and len(err.strip().splitlines()) == 1


def test_forcing_the_strategys_own_call_changes_nothing_and_other_calls_take_effect():
    """The should-bid path: a forced call equal to the strategy's gives the same record; others are obeyed."""
    from bower.kernels.cutthroat import hand as ck2
    from bower.sim.variants.cutthroat.hands import play_order

    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(300):
        order = [int(c) for c in rng.permutation(24)]
        dealer = int(rng.integers(3))
        rules = {"stick_the_dealer": bool(rng.integers(2))}
        base = play_order(order, dealer, rules)
        for i, (seat, call) in enumerate(base["calls"]):
            code = {"pass": ck2.CALL_PASS, "order": ck2.CALL_ACCEPT, "assist": ck2.CALL_ACCEPT,
                    "take": ck2.CALL_ACCEPT}.get(call, ck2.CALL_SUIT + "CSDH".find(call))
            alone = -1 if base["maker"] != seat else int(seat in base["alone"])
            assert play_order(order, dealer, rules, force=(seat, i, code, alone)) == base
            checked += 1
        seat = (dealer + 1) % 3
        forced = play_order(order, dealer, rules, force=(seat, 0, ck2.CALL_ACCEPT, 1))
        assert forced["calls"] == [[seat, "order"]] and forced["maker"] == seat and seat in forced["alone"]
        assert forced["discards"]["maker"] == [] and forced["trump"] == forced["upcard"][1]
        passed = play_order(order, dealer, rules, force=(seat, 0, ck2.CALL_PASS, -1))
        assert passed["calls"][0] == [seat, "pass"]
    assert checked > 500
