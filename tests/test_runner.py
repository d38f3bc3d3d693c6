"""Runner contracts: same seed, same numbers for any thread count; summaries agree with records."""

import json

import numpy as np
import pytest

from bower.sim import runner
from bower.sim.records import read_records

RULE_SETS = [
    None,
    {"auction": "until_passes", "stick_the_dealer": True},
    {"swap": "none", "moon_set_penalty": 24, "set_keeps_tricks": True},
]


def _strip_timing(s):
    return {k: v for k, v in s.items() if k not in ("elapsed_s", "hands_per_second", "threads", "warm_up_s", "compiled")}


@pytest.mark.parametrize("rules", RULE_SETS)
def test_summary_identical_for_any_thread_count(rules):
    # 3 chunks and a partial one, so chunks really are split between threads.
    n = 3 * runner.CHUNK_SIZE + 123
    one = runner.simulate(hands=n, seed=11, threads=1, rules=rules)
    two = runner.simulate(hands=n, seed=11, threads=runner.max_threads(), rules=rules)
    assert _strip_timing(one) == _strip_timing(two)
    other_seed = runner.simulate(hands=n, seed=12, threads=1, rules=rules)
    assert _strip_timing(other_seed) != _strip_timing(one)


def test_records_identical_for_any_thread_count(tmp_path):
    n = 2 * runner.CHUNK_SIZE + 7
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    runner.simulate(hands=n, seed=5, threads=1, records_path=str(a))
    runner.simulate(hands=n, seed=5, threads=runner.max_threads(), records_path=str(b))
    assert a.read_bytes() == b.read_bytes()


def test_hand_records_match_full_run_records(tmp_path):
    path = tmp_path / "r.jsonl"
    runner.simulate(hands=runner.CHUNK_SIZE + 50, seed=3, threads=1, records_path=str(path))
    full = read_records(str(path))
    # a window straddling a chunk boundary is reproduced exactly from the seed alone
    start = runner.CHUNK_SIZE - 20
    assert runner.hand_records(3, start, 40) == full[start:start + 40]


def test_summary_counts_follow_from_records(tmp_path):
    path = tmp_path / "r.jsonl"
    rules = {"auction": "until_passes"}
    s = runner.simulate(hands=6000, seed=9, threads=2, rules=rules, records_path=str(path))
    recs = read_records(str(path))
    assert len(recs) == s["hands"] == 6000
    assert [r["hand"] for r in recs] == list(range(6000))
    assert sum(r["maker"] is None for r in recs) == s["thrown_in"]
    assert sum(r["swap"] is not None for r in recs) == s["swaps"]
    for level, key in ((3, "3"), (4, "4"), (5, "5"), (6, "moon")):
        won = [r for r in recs if r["bid"] == level]
        made = [r for r in won if r["tricks"][str(r["maker"])] >= level]
        assert s["bids"][key]["count"] == len(won)
        assert s["bids"][key]["made"] == len(made)
    for pos in (1, 2, 3):
        pts = sum(r["points"][str((r["dealer"] + pos) % 3)] for r in recs)
        assert s["points_per_hand_by_position"][str(pos)] == pytest.approx(pts / 6000, abs=0, rel=1e-12)
    assert all(r["dealer"] == r["hand"] % 3 for r in recs)


def test_parquet_and_jsonl_hold_the_same_records(tmp_path):
    j, p = tmp_path / "r.jsonl", tmp_path / "r.parquet"
    runner.simulate(hands=3000, seed=4, threads=1, records_path=str(j))
    runner.simulate(hands=3000, seed=4, threads=1, records_path=str(p))
    assert read_records(str(j)) == read_records(str(p))


def test_failed_run_leaves_no_file(tmp_path, monkeypatch):
    path = tmp_path / "r.jsonl"

    def boom(*a, **k):
        raise KeyboardInterrupt

    real = runner.run_hands
    calls = {"n": 0}

    def interrupted(start, count, seed, rv, pv, want, on_batch, bc, variant="ghost"):
        def wrapped(first, recs, summary):
            on_batch(first, recs, summary)
            calls["n"] += 1
            boom()

        return real(start, count, seed, rv, pv, want, wrapped, bc, variant)

    monkeypatch.setattr(runner, "run_hands", interrupted)
    with pytest.raises(KeyboardInterrupt):
        runner.simulate(hands=runner.CHUNK_SIZE * 20, seed=1, records_path=str(path))
    assert calls["n"] == 1
    assert list(tmp_path.iterdir()) == []


def test_chunk_states_are_seedsequence_spawns():
    s = runner.chunk_states(7, 3, 2)
    kids = np.random.SeedSequence(7).spawn(5)
    assert np.array_equal(s[0], kids[3].generate_state(4, np.uint64))
    assert np.array_equal(s[1], kids[4].generate_state(4, np.uint64))


def test_json_roundtrip_of_records(tmp_path):
    path = tmp_path / "r.jsonl"
    runner.simulate(hands=100, seed=2, records_path=str(path))
    first = json.loads(path.read_text().splitlines()[0])
    assert set(first) >= {
        "variant", "rules", "hand", "dealer", "deal", "swap", "calls", "maker", "bid", "trump", "plays", "tricks", "points",
    }
    assert first["rules"] == {
        "auction": "one_lap", "swap": "at_turn", "stick_the_dealer": False,
        "moon_set_penalty": 6, "set_keeps_tricks": False, "tiebreak": "highest",
    }
