"""Hasenpfeffer through the runner and every command: determinism, records, tables, experiments, should-bid, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest

from bower.sim.variants.hasenpfeffer import tables as ht
from bower.kernels.hasenpfeffer import hand as hk
from bower.sim import records as rec_mod
from bower.sim import runner
from tests.cli_run import run
from bower.sim.rules import resolve
from bower.sim.strategy import load_strategy, to_toml
from tests.reference import hasenpfeffer as ref
from bower.sim.variants import get_variant

HASENPFEFFER = get_variant("hasenpfeffer")
HASENPFEFFER_DEFAULTS = get_variant("hasenpfeffer").defaults

DEFAULT = HASENPFEFFER_DEFAULTS


def _rows(seed: int, n: int, rules=None, strategy="default") -> np.ndarray:
    _, rules_d, vec = runner.resolve_run("hasenpfeffer", seed, rules)
    _, params = runner.seat_params(strategy, "hasenpfeffer")
    out = []
    runner.run_hands(0, n, seed, vec, params, True, lambda f, r, s: out.append(r.copy()), 2, "hasenpfeffer")
    return np.concatenate(out)


def test_same_seed_same_summary_for_any_thread_count():
    keys = ("hands", "thrown_in", "made", "bids", "by_joker", "points_per_hand_by_side", "bidders_by_position")
    a = runner.simulate("hasenpfeffer", hands=20_000, seed=5, threads=1, rules={"bidding": "pepper"})
    b = runner.simulate("hasenpfeffer", hands=20_000, seed=5, threads=2, rules={"bidding": "pepper"})
    assert {k: a[k] for k in keys} == {k: b[k] for k in keys}
    assert set(a["bids"]) == {"1", "2", "3", "4", "5", "little-pepper", "big-pepper"}


@pytest.mark.parametrize("rules", [{}, {"bidding": "pepper", "pass_is_final": True},
                                   {"widow": "dead", "first_lead": "bidder", "fail_penalty": "undertricks",
                                    "defenders_score_tricks": True, "all_pass": "redeal"}])
def test_records_are_the_rules_output(rules):
    """Every record: the 25 cards dealt once, calls legal in turn, points as the score table gives them."""
    recs = runner.hand_records(2, 0, 400, rules=rules, variant="hasenpfeffer", strategy=["default", "random"] * 2)
    for r in recs:
        cards = [c for s in "0123" for c in r["deal"][s]] + [r["widow"]]
        assert len(cards) == 25 and len(set(cards)) == 25
        out = ref.auction_outcome([c for _, c in r["calls"]], r["dealer"],
                                  next((int(s) for s in "0123" if "JK" in r["deal"][s]), None), r["rules"])
        assert [list(x) for x in out.calls] == r["calls"]
        assert out.bidder == r["bidder"] and out.forced == r["forced"]
        if r["bidder"] is None:
            assert r["plays"] == [] and r["points"] == {"0": 0, "1": 0}
            continue
        assert out.bid == r["bid"]
        assert (r["discard"] is None) == (r["rules"]["widow"] == "dead")
        assert len(r["plays"]) == 24 and sum(r["tricks"].values()) == 6
        expect = ref.score_tricks(r["bidder"], r["bid"], [r["tricks"][s] for s in "0123"], r["rules"])
        assert [r["points"]["0"], r["points"]["1"]] == expect


def test_parquet_records_read_back_as_jsonl(tmp_path):
    for ext in ("jsonl", "parquet"):
        runner.simulate("hasenpfeffer", hands=500, seed=4, records_path=str(tmp_path / f"r.{ext}"))
    a = rec_mod.read_records(str(tmp_path / "r.jsonl"))
    assert a == rec_mod.read_records(str(tmp_path / "r.parquet"))
    assert a[0]["variant"] == "hasenpfeffer"


def test_records_decode_back_to_the_kernel_rows_and_tables_agree():
    rows = _rows(3, 3000, {"bidding": "pepper"})
    rules = resolve(HASENPFEFFER, {"bidding": "pepper"})
    dicts = rec_mod.to_dicts(rows, 0, HASENPFEFFER, rules)
    back = ht.rows_from_records(dicts)
    used = [hk.R_DEALER, *range(hk.R_DEAL, hk.R_DEAL + 4), hk.R_WIDOW, hk.R_NCALLS, hk.R_FORCED, hk.R_BIDDER,
            hk.R_BID, hk.R_TRUMP, hk.R_DISCARD, *range(hk.R_TRICKS, hk.R_TRICKS + 6)]
    assert (back[:, used] == rows[:, used]).all()
    acc = ht.Accumulator(DEFAULT, True)
    acc.add_rows(rows[:1000])
    acc.add_rows(rows[1000:])
    a = ht.table_set(acc.frame(), True)
    b = ht.tables_from_records(dicts, DEFAULT)
    for name in a:
        x, y = a[name].select_dtypes("number").to_numpy(float), b[name].select_dtypes("number").to_numpy(float)
        assert x.shape == y.shape and np.allclose(x, y, equal_nan=True), name
    assert a["by_bid"]["hands"].sum() == int((rows[:, hk.R_BIDDER] >= 0).sum())


def test_the_widow_never_lowers_the_bidders_estimate():
    """The bidder keeps the best six of seven for the best trump, so the kept six estimate at least as high."""
    f = ht.hand_features(_rows(8, 6000), DEFAULT, False)
    assert len(f) > 5000
    assert (f["est_after"] >= f["est_before"]).all()
    joker_widow = f[f["widow"] == "joker"]
    assert len(joker_widow) > 100 and (joker_widow["est_after"] > joker_widow["est_before"]).all()


def test_games_end_at_ten_by_side_and_the_bidding_side_wins_a_double_finish():
    res = runner.game_results(3, 0, 64, variant="hasenpfeffer", strategies=("default", "random"),
                              assignments=((0, 1, 0, 1), (1, 0, 1, 0)))
    assert res == runner.game_results(3, 0, 64, variant="hasenpfeffer", strategies=("default", "random"),
                                      assignments=((0, 1, 0, 1), (1, 0, 1, 0)))
    for g in res:
        assert g["winner"] in (0, 1) and len(g["scores"]) == 2
        assert g["scores"][g["winner"]] >= 10
    s = runner.simulate_games("hasenpfeffer", games=640, seed=3, threads=1, rules={"defenders_score_tricks": True})
    t = runner.simulate_games("hasenpfeffer", games=640, seed=3, threads=2, rules={"defenders_score_tricks": True})
    assert s["wins_by_start"] == t["wins_by_start"] and set(s["wins_by_start"]) == {"1", "2"}
    assert s["tiebreak_games"] > 0  # with defenders scoring, both sides sometimes pass 10 on one hand


def test_default_partnership_beats_random():
    from bower.sim.experiment import run_experiment

    r = run_experiment(["default", "random"], games=512, seed=1, variant="hasenpfeffer", threads=1)
    assert r["assignments"] == [["default", "random", "default", "random"], ["random", "default", "random", "default"]]
    pair = r["pairs"][0]
    assert pair["better"] == "default" and pair["ci95"][0] > 0.5
    d, rnd = r["strategies"]
    assert d["win_rate"] + rnd["win_rate"] == pytest.approx(1.0)  # every game has one winning side


def test_strategy_toml_round_trip(tmp_path):
    _, params = load_strategy("cautious", "hasenpfeffer")
    path = tmp_path / "mine.toml"
    path.write_text(to_toml("mine", params, "hasenpfeffer"))
    assert load_strategy(str(path), "hasenpfeffer") == ("mine", params)


def test_should_bid_answers_and_is_thread_independent():
    from bower.sim.variants.hasenpfeffer.advice import advise

    a = advise("JK JH JD AH KH 9C", position=2, calls="3", bid="5", samples=2048, seed=2, threads=1)
    b = advise("JK JH JD AH KH 9C", position=2, calls="3", bid="5", samples=2048, seed=2, threads=2)
    assert a["actions"] == b["actions"]
    assert [x["action"] for x in a["actions"]] == ["pass", "bid 4", "bid 5", "bid 6"]
    assert a["question"]["verdict"].startswith("yes")
    assert a["ess"] < a["samples"]  # the opening 3 tells something about its hand: the deals weigh unequally
    weak = advise("9C TC QD 9S TH KS", position=1, samples=2048, seed=2, bid="6")
    assert weak["question"]["verdict"].startswith("no")


def test_cli_every_command(capsys, tmp_path):
    code, out, _ = run(capsys, "simulate", "--variant", "hasenpfeffer", "--hands", "3000", "--rule", "bidding=pepper")
    assert code == 0 and "little-pepper" in out and "joker: widow" in out
    code, out, _ = run(capsys, "simulate", "--variant", "hasenpfeffer", "--games", "128", "--json")
    assert code == 0 and json.loads(out)["games"] == 128
    code, out, _ = run(capsys, "experiment", "default", "cautious", "--variant", "hasenpfeffer", "--games", "256")
    assert code == 0 and "peppers" in out
    code, out, _ = run(capsys, "sweep", "--variant", "hasenpfeffer", "--param", "cushion=0:0.5:0.5", "--games", "128")
    assert code == 0 and "1/2 = as good as the base" in out
    recs = tmp_path / "h.jsonl"
    assert run(capsys, "simulate", "--variant", "hasenpfeffer", "--hands", "2000", "--records", str(recs))[0] == 0
    code, out, _ = run(capsys, "analyze", str(recs))
    assert code == 0 and "== by joker ==" in out and "== widow value ==" in out
    code, out, _ = run(capsys, "report", "--variant", "hasenpfeffer", "--hands", "2000", "--games", "64",
                       "--out", str(tmp_path / "rep"), "--csv")
    assert code == 0 and (tmp_path / "rep" / "widow_value.csv").exists()
    assert "Hasenpfeffer" in (tmp_path / "rep" / "report.html").read_text()
    code, out, _ = run(capsys, "should-bid", "--variant", "hasenpfeffer", "JK JH JD AH KH 9C", "--calls", "3",
                       "--position", "2", "--samples", "500")
    assert code == 0 and "recommendation" in out
    code, out, _ = run(capsys, "strategies", "--variant", "hasenpfeffer")
    assert code == 0 and "partner_help" in out


@pytest.mark.parametrize(
    "args, words",
    [
        (["simulate", "--variant", "hasenpfeffer", "--rule", "bidding=auction"], "bad value"),
        (["experiment", "default", "cautious", "random", "--variant", "hasenpfeffer"], "compares 2 strategies"),
        (["should-bid", "--variant", "hasenpfeffer", "JK JH JD AH KH"], "has 6 cards"),
        (["should-bid", "--variant", "hasenpfeffer", "JK JH JD AH KH 9C", "--calls", "3,2"], "does not beat"),
        (["should-bid", "--variant", "hasenpfeffer", "JK JH JD AH KH 9C", "--calls", "6"], "auction is over"),
        (["should-bid", "--variant", "hasenpfeffer", "JK JH JD AH KH 9C", "--calls", "3", "--position", "1"],
         "position 2's turn"),
        (["should-bid", "--variant", "hasenpfeffer", "JK JH JD AH KH 9C", "--calls", "little-pepper"], "unknown call"),
        (["should-bid", "--variant", "hasenpfeffer", "JK JH JD AH KH 9C", "--upcard", "JS"], "not a Hasenpfeffer"),
        (["should-bid", "--variant", "hasenpfeffer", "JK JH JD AH KH 9C", "--calls", "4", "--bid", "3",
          "--position", "2"], "--bid 3"),
    ],
)
def test_cli_bad_hasenpfeffer_input_is_one_line_exit_2(capsys, args, words):
    code, out, err = run(capsys, *args)
    assert code == 2
    assert words in err and len(err.strip().splitlines()) == 1


def test_a_negative_support_margin_never_bids_under_the_standing_bid():
    """Found by the twin: a margin of -2 once let seat 2 'bid' 2 over its partner's 3, then loop for ever."""
    from bower.sim.variants.hasenpfeffer.hands import play_order

    odd = {"support_margin": -2.0, "bid_jump": 1.0, "cushion": 1.0, "partner_help": 1.25}
    order = [12, 14, 11, 24, 6, 18, 0, 5, 16, 15, 23, 2, 10, 19, 8, 20, 3, 22, 21, 13, 9, 4, 17, 1, 7]
    r = play_order(order, 3, {"pass_is_final": True}, odd)
    assert r["calls"] == [[0, "3"], [1, "pass"], [2, "pass"], [3, "4"], [0, "pass"]]
    order = [1, 5, 4, 10, 6, 23, 7, 3, 9, 19, 2, 21, 20, 13, 15, 24, 0, 17, 8, 14, 22, 18, 11, 16, 12]
    assert play_order(order, 3, None, odd)["calls"] == [[0, "3"], [1, "pass"], [2, "pass"], [3, "pass"]]
