"""``import bower``: the library gives the CLI's numbers for the same seed, as Python values and DataFrames.

Each function is compared with its command's ``--json`` output on a small
run (timings left out), errors with the CLI's one line, and the records and
tables with the files the CLI writes.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

import bower
from tests.cli_run import one_error, run

TIMING = {"elapsed_s", "hands_per_second", "games_per_second", "warm_up_s", "compiled", "threads"}


def _untimed(d: dict) -> dict:
    return {k: x for k, x in d.items() if k not in TIMING}


def _cli_json(capsys, *args) -> dict:
    code, out, err = run(capsys, *args, "--json")
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("variant", ["ghost", "euchre"])
def test_simulate_is_the_command(capsys, variant):
    lib = bower.simulate(variant, hands=20_000, seed=7, threads=1)
    cli = _cli_json(capsys, "simulate", "--variant", variant, "--hands", "20000", "--seed", "7")
    assert _untimed(lib.summary) == _untimed(cli)


def test_strategy_overrides_a_preset_and_names_itself(capsys, tmp_path):
    bold = bower.strategy("default", bid_3=2.6, bid_jump=True, name="bold")
    assert bold.name == "bold" and bold.params["bid_3"] == 2.6 and bold.params["bid_jump"] == 1.0
    assert bold.params["bid_4"] == bower.strategies().loc["bid_4", "default"]
    path = tmp_path / "bold.toml"
    path.write_text(bold.to_toml(), encoding="utf-8")
    lib = bower.simulate(hands=10_000, seed=3, strategy=bold)
    cli = _cli_json(capsys, "simulate", "--hands", "10000", "--seed", "3", "--strategy", str(path))
    assert _untimed(lib.summary) == _untimed(cli)
    assert bower.strategy("default").name == "default" and bower.strategy("default", bid_3=2.7).name == "default+"


def test_experiment_frames_hold_the_command_numbers(capsys):
    ex = bower.experiment(["default", "aggressive"], games=384, seed=2)
    cli = _cli_json(capsys, "experiment", "default", "aggressive", "--games", "384", "--seed", "2")
    assert _untimed(ex.summary) == _untimed(cli)
    assert list(ex.strategies["name"]) == ["default", "aggressive"]
    assert ex.strategies["win_rate_low"].tolist() == [s["win_rate_ci95"][0] for s in cli["strategies"]]
    p = cli["pairs"][0]
    assert ex.pairs.iloc[0][["a", "b", "win_rate_diff", "ci_low", "ci_high"]].tolist() == \
        [p["a"], p["b"], p["win_rate_diff"], *p["ci95"]]
    made = ex.make_rates.set_index(["strategy", "bid"])["made"]
    assert made[("aggressive", "4")] == cli["strategies"][1]["make_rate_by_bid"]["4"]["made"]


def test_sweep_takes_python_values(capsys):
    df = bower.sweep("default", {"bid_3": [2.6, 2.8]}, games=192, seed=4)
    cli = _cli_json(capsys, "sweep", "--param", "bid_3=2.6:2.8:0.2", "--games", "192", "--seed", "4")
    assert df["bid_3"].tolist() == [2.6, 2.8]
    assert df["win_rate"].tolist() == [r["win_rate"] for r in cli["rows"]]
    assert df["best"].tolist() == [r["best"] for r in cli["rows"]]
    assert df.attrs["summary"]["rows"] == cli["rows"]


def test_should_bid_is_the_command(capsys):
    a = bower.should_bid(["JH", "JD", "AH", "KH", "9S", "TC"], position=2, calls=["pass"], samples=500, seed=1,
                         bid=3)
    cli = _cli_json(capsys, "should-bid", "JH JD AH KH 9S TC", "--position", "2", "--calls", "pass",
                    "--samples", "500", "--seed", "1", "--bid", "3")
    assert _untimed(a.summary) == _untimed(cli)
    assert a.recommendation == cli["recommendation"] and a.verdict == cli["question"]["verdict"]
    best = a.actions.iloc[0]
    assert best["action"] == cli["recommendation"]["action"]
    assert best["expected_points"] == max(x["expected_points"] for x in cli["actions"])
    assert set(a.actions["action"]) == {x["action"] for x in cli["actions"]}


def test_records_and_tables_are_the_files(capsys, tmp_path):
    path = tmp_path / "r.parquet"
    run_ = bower.simulate(hands=5_000, seed=9, records=str(path))
    fresh = bower.simulate(hands=5_000, seed=9)  # no file: made again from the seed when asked
    a, b = run_.records(), fresh.records()
    assert a.shape[0] == 5_000 and a.to_json(orient="records") == b.to_json(orient="records")
    batches = list(fresh.records(batch_size=2_000))
    assert [len(x) for x in batches] == [2_000, 2_000, 1_000]
    assert pd.concat(batches, ignore_index=True).to_json(orient="records") == b.to_json(orient="records")
    cli = _cli_json(capsys, "analyze", str(path))
    tables = fresh.tables()
    assert set(tables) == set(cli["tables"])
    for name, rows in cli["tables"].items():
        assert json.loads(tables[name].to_json(orient="records", double_precision=15)) == rows, name
    assert bower.analyze(str(path)).keys() == tables.keys()


def test_read_records_reads_both_formats(tmp_path):
    jl, pq_ = tmp_path / "r.jsonl", tmp_path / "r.parquet"
    bower.simulate("cutthroat", hands=2_000, seed=5, records=str(jl))
    bower.simulate("cutthroat", hands=2_000, seed=5, records=str(pq_))
    a, b = bower.read_records(str(jl)), bower.read_records(str(pq_), columns=["hand", "dealer", "maker", "points"])
    assert len(a) == len(b) == 2_000
    assert a["dealer"].tolist() == b["dealer"].tolist() and a["hand"].tolist() == b["hand"].tolist()
    assert [json.dumps(x, sort_keys=True) for x in a["points"]] == \
        [json.dumps({k: v for k, v in x.items() if v is not None}, sort_keys=True) if isinstance(x, dict) else
         json.dumps(x, sort_keys=True) for x in b["points"]]
    replayed = bower.replay(str(jl))
    assert len(replayed) == 2_000 and replayed["matches"].all()


def test_games_and_solve(capsys):
    g = bower.simulate(games=128, seed=6)
    cli = _cli_json(capsys, "simulate", "--games", "128", "--seed", "6")
    assert _untimed(g.summary) == _untimed(cli)
    ws = g.tables()["win_share"]
    assert ws["win_share"].tolist() == list(cli["win_share_by_start"].values())
    deal = {0: "JH JD AH KH QH TH", 1: ["9C", "TC", "JC", "QC", "KC", "AC"], 2: "9D TD QD KD AD 9H"}
    lib = bower.solve(deal, trump="H", maker=0)
    text = "0:JH JD AH KH QH TH 1:9C TC JC QC KC AC 2:9D TD QD KD AD 9H"
    assert lib == _cli_json(capsys, "solve", text, "--trump", "H", "--maker", "0")
    assert bower.solve(deal) == _cli_json(capsys, "solve", text)


@pytest.mark.parametrize("call, cli_args", [
    (lambda: bower.simulate(strategy="nonesuch"), ["simulate", "--strategy", "nonesuch"]),
    (lambda: bower.simulate(rules={"no_such_rule": 1}), ["simulate", "--rule", "no_such_rule=1"]),
    (lambda: bower.experiment(["default", "nonesuch"], games=10), ["experiment", "default", "nonesuch", "--games", "10"]),
    (lambda: bower.should_bid("JH JD AH KH 9S XX"), ["should-bid", "JH JD AH KH 9S XX"]),
    (lambda: bower.read_records("missing.parquet"), ["analyze", "missing.parquet"]),
])
def test_errors_are_the_command_lines(capsys, call, cli_args):
    with pytest.raises(bower.BowerError) as e:
        call()
    assert one_error(capsys, *cli_args) == f"bower: error: {e.value}"


def test_a_fault_is_a_bower_error(tmp_path):
    (tmp_path / "f").write_text("x", encoding="utf-8")
    with pytest.raises(bower.BowerError, match="records"):
        bower.simulate(hands=1_000, records=str(tmp_path / "f" / "r.parquet"))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f"]


def test_solved_records_say_how_they_were_made(tmp_path):
    from bower.sim.records import read_meta

    src, out = tmp_path / "r.jsonl", tmp_path / "s.parquet"
    bower.simulate("euchre", hands=300, seed=8, records=str(src))
    s = bower.solve_records(str(src), str(out))
    m_in, m_out = read_meta(str(src)), read_meta(str(out))
    assert (m_out["seed"], m_out["hands"], m_out["seats"], m_out["command"]) == \
        (8, 300, m_in["seats"], m_in["command"])
    assert m_out["solved_from"]["records"] == "r.jsonl" and m_out["variant"] == "euchre"
    df = bower.read_records(str(out), columns=["hand", "dd"])
    assert s["records"] == len(df) == 300 and df["dd"].notna().sum() == s["solved"] > 0
