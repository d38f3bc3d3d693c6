"""A game's starting score (``--start``): whole games in every variant, duplicate experiments, replay, bad input.

Exact checks where they exist: a Euchre game started one point from the target under stick the dealer (every
hand is made or euchred, so someone scores) lasts one hand; a start of 0s is the game from the beginning, bit for
bit (the golden summaries, and the kernel called without a start); the wins move towards the side or seat given a
lead, judged on Wilson intervals of a fixed seed; ``replay --start`` changes a crafted game's winner.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import bower
from bower.kernels import games as kg
from bower.sim import runner
from bower.sim.rules import get_variant
from bower.sim.variants.euchre.egn import read_egn
from tests.cli_run import one_error, run

GOLDEN = Path(__file__).parent / "golden"
BEARS = Path(__file__).parent / "data" / "egn" / "Me and Bears.egn"
STD = {"stick_the_dealer": True}
MACHINE_KEYS = ("elapsed", "per_second", "warm_up", "compiled", "threads")


def _strip(obj):
    """``obj`` without the keys that measure the machine (as tests/test_golden.py) and the parameters that came
    after the golden files (``pimc_*``, ``bid_equity``)."""
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items()
                if not any(m in k for m in MACHINE_KEYS) and not k.startswith("pimc_") and k != "bid_equity"}
    if isinstance(obj, list):
        return [_strip(x) for x in obj]
    return obj


# ---- exact ---------------------------------------------------------------------------------------------------


def test_one_point_from_the_target_every_game_lasts_one_hand():
    # stick the dealer: no hand is thrown in, and a made or euchred hand gives its winners at least 1 point
    s = runner.simulate_games("euchre", games=640, seed=5, threads=1, rules=STD, start=(9, 9))
    assert (s["games"], s["unfinished"], s["hands_per_game"]) == (640, 0, 1.0)
    assert s["start"] == {"0": 9, "1": 9}
    games = runner.game_results(5, 0, 64, STD, variant="euchre", assignments=((0, 0, 0, 0),), start_scores=(9, 9))
    assert len(games) == 64
    for g in games:
        assert g["hands"] == 1 and g["winner"] in (0, 1)
        won, lost = g["scores"][g["winner"]], g["scores"][1 - g["winner"]]
        assert 10 <= won <= 13 and lost == 9  # 9 plus 1, 2 or 4; only one side scores on a hand


@pytest.mark.parametrize("variant", ["ghost", "cutthroat", "hasenpfeffer"])
def test_a_start_of_zeros_is_the_golden_game_bit_for_bit(variant, capsys):
    # the golden files hold today's games (seed 3, 2000 games) and experiment (seed 2); --start 0s gives them again
    zeros = ",".join("0" for _ in range(get_variant(variant).score_units))
    for kind, args in (("games", ["simulate", "--variant", variant, "--games", "2000", "--seed", "3"]),
                       ("experiment", ["experiment", "--variant", variant, "default", "aggressive", "--games", "2000",
                                       "--seed", "2"])):
        code, out, err = run(capsys, *args, "--start", zeros, "--json")
        assert code == 0, err
        got = json.loads(out)
        assert got.pop("start") == {str(k): 0 for k in range(get_variant(variant).score_units)}
        want = json.loads((GOLDEN / f"{variant}.{kind}.json").read_text())
        assert _strip(got) == _strip(want)


def test_the_euchre_kernel_plays_from_its_start():
    # games_chunks from 0s and from a lead of 6-0: other games, and side 0 never falls below its start
    v = get_variant("euchre")
    strat = np.stack([runner.to_vector(runner.load_strategy(s, "euchre")[1], "euchre") for s in ("default", "random")])
    assign = np.array([[0, 1, 0, 1], [1, 0, 1, 0]], np.int64)
    _, _, rules_vec = runner.resolve_run("euchre", 11, None)
    n_sets, nc = 40, 1

    def play(start):
        out = (np.zeros((n_sets, 2), np.int64), np.zeros((n_sets * 2, kg.GO_WIDTH), np.int64),
               np.zeros((nc, v.hand_kernels.S_WIDTH), np.int64), np.zeros((nc, 2, kg.ST_WIDTH), np.int64),
               np.zeros((nc, kg.GA_WIDTH), np.int64))
        v.drivers.games_chunks(runner.chunk_states(11, 0, nc), 64, n_sets, assign, True, rules_vec, strat, v.target,
                               runner.MAX_HANDS_PER_GAME, *out, v.hand_kernels.search_arg(strat), start)
        return out

    zeros, lead = play(np.zeros(2, np.int64)), play(np.array([6, 0], np.int64))
    assert not np.array_equal(zeros[1], lead[1])
    assert (lead[1][:, kg.GO_SCORES] >= 6).all()  # side 0's final score never falls below its start


# ---- the wins move with the start ----------------------------------------------------------------------------


@pytest.mark.parametrize("variant, start, favoured", [
    ("euchre", (8, 0), "1"), ("euchre", (0, 8), "2"), ("hasenpfeffer", (8, 0), "1"),
    ("ghost", (0, 0, 28), "3"), ("cutthroat", (0, 7, 0), "2"),
])
def test_a_lead_wins_more_games(variant, start, favoured):
    # seed 7, 1280 games: the favoured side or seat's 95% interval lies wholly above its interval from 0s (about
    # 1/2 or 1/3 there; 0.78 to 0.98 with the lead)
    from_zero = runner.simulate_games(variant, games=1280, seed=7, threads=1)
    led = runner.simulate_games(variant, games=1280, seed=7, threads=1, start=start)
    assert led["win_share_ci95_by_start"][favoured][0] > from_zero["win_share_ci95_by_start"][favoured][1]
    assert led["win_share_by_start"][favoured] > 0.75
    assert led["hands_per_game"] < from_zero["hands_per_game"]


def test_experiment_starts_every_duplicate_game_there():
    ex = bower.experiment(["default", "aggressive"], variant="euchre", games=384, seed=1, rules=STD, start=(9, 9))
    assert ex.summary["start"] == {"0": 9, "1": 9}
    assert ex.summary["hands_per_game"] == 1.0 and ex.summary["unfinished"] == 0
    assert ex.summary["games"] == 384


# ---- replay --start ------------------------------------------------------------------------------------------


def _two_deal_game(tmp_path) -> Path:
    """Records of Me and Bears' deals 0 (+2 to side 0) and 1 (+2 to side 1) as one game from 4-9 (JSONL)."""
    recs = read_egn(BEARS).records[:2]
    assert [r["points"] for r in recs] == [{"0": 2, "1": 0}, {"0": 0, "1": 2}]
    path = tmp_path / "game.jsonl"
    with open(path, "w", encoding="utf-8") as fh:
        for r in recs:
            r = {k: x for k, x in r.items() if k != "start"}  # the second hand: the running score
            fh.write(json.dumps(dict(r, start={"0": 4, "1": 9}) if not fh.tell() else r) + "\n")
    return path


def test_replay_start_changes_the_winner(capsys, tmp_path):
    path = _two_deal_game(tmp_path)
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code == 0, err
    assert [(r["scores"], r["winner"]) for r in map(json.loads, out.splitlines())] == [
        ({"0": 6, "1": 9}, None), ({"0": 6, "1": 11}, 1)]  # from the records' 4-9: side 1 wins
    code, out, err = run(capsys, "replay", str(path), "--json", "--start", "0,0")
    assert code == 0, err
    got = [json.loads(ln) for ln in out.splitlines()]
    assert [(r["scores"], r["winner"]) for r in got] == [({"0": 2, "1": 0}, None), ({"0": 2, "1": 2}, None)]
    assert got[0]["game_start"] == {"0": 0, "1": 0} and got[0]["start"] == {"0": 0, "1": 0}
    code, out, err = run(capsys, "replay", str(path), "--start", "5,0")
    assert code == 0, err
    lines = [ln for ln in out.splitlines() if ln.startswith("  game ")]
    assert lines == ["  game Me and Bears, hand 1: side 0 7, side 1 0 (from side 0 5, side 1 0 before it)",
                     "  game Me and Bears, hand 2: side 0 7, side 1 2"]
    # the library: the same
    df = bower.replay(path, start=(0, 8))
    assert df["winner"].tolist()[-1] == 1 and df["scores"].tolist()[-1] == {"0": 2, "1": 10}


def test_replay_start_applies_where_records_have_none(capsys, tmp_path):
    path = tmp_path / "bare.jsonl"
    recs = read_egn(BEARS).records[:1]
    path.write_text(json.dumps({k: x for k, x in recs[0].items() if k != "start"}) + "\n", encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path), "--json", "--start", "8,3")
    assert code == 0, err
    r = json.loads(out)
    assert (r["scores"], r["winner"]) == ({"0": 10, "1": 3}, 0)


# ---- bad input: one line, status 2; the library's BowerError says the same ------------------------------------


BAD = [
    ("euchre", "10,0", "--start 10,0: 10 is at or beyond the target (10); the game would be over"),
    ("euchre", "3,-1", "--start 3,-1: -1 is negative; a game starts at scores of 0 or more"),
    ("euchre", "3,x", "--start 3,x: 'x' is not a whole number"),
    ("euchre", "3,1.5", "--start 3,1.5: '1.5' is not a whole number"),
    ("euchre", "3,", "--start 3,: '' is not a whole number"),
    ("euchre", "1,2,3", "--start 1,2,3: Standard Euchre takes two side scores, the side of seats 0 & 2 first, "
                        "not 3 number(s)"),
    ("euchre", "1e999999999,0", "--start 1e999999999,0: 1e999999999 is at or beyond the target (10); the game "
                                "would be over"),
    ("euchre", "-1e999999999,0", "--start -1e999999999,0: -1e999999999 is negative; a game starts at scores of 0 "
                                 "or more"),
    ("ghost", "4,9", "--start 4,9: Ghost Hand Euchre takes 3 player scores, seat 0 first, not 2 number(s)"),
    ("ghost", "0,0,32", "--start 0,0,32: 32 is at or beyond the target (32); the game would be over"),
]


@pytest.mark.parametrize("variant, text, line", BAD)
def test_bad_starts_are_one_line(capsys, variant, text, line):
    assert one_error(capsys, "simulate", "--variant", variant, "--games", "64", "--start", text) == \
        f"bower: error: {line}"
    assert one_error(capsys, "experiment", "default", "aggressive", "--variant", variant, "--games", "64",
                     "--start", text) == f"bower: error: {line}"
    with pytest.raises(bower.BowerError) as e:
        bower.simulate(variant, games=64, start=text)
    assert e.value.format_message() == line.replace("--start ", "start= ")  # the library names its argument


def test_bad_starts_in_the_library_and_replay(capsys, tmp_path):
    for start, line in [((4, 10), "start= 4,10: 10 is at or beyond the target (10); the game would be over"),
                        ((10**5000, 1), "start= about 1e5000,1: about 1e5000 is at or beyond the target (10); the "
                                        "game would be over"),
                        ((True, 1), "start= True,1: True is not a whole number"),
                        (5, "start= must be two side scores, the side of seats 0 & 2 first ('4,9' or a list of "
                            "whole numbers), got 5")]:
        for call in (lambda: bower.simulate("euchre", games=64, start=start),
                     lambda: bower.experiment(["default", "aggressive"], variant="euchre", games=64, start=start)):
            with pytest.raises(bower.BowerError) as e:
                call()
            assert e.value.format_message() == line
    with pytest.raises(bower.BowerError) as e:
        bower.simulate("euchre", hands=100, start=(4, 9))
    assert e.value.format_message() == "start= is the starting score of whole games: give games= too"
    assert one_error(capsys, "simulate", "--variant", "euchre", "--hands", "100", "--start", "4,9") == \
        "bower: error: --start is the starting score of whole games: give --games too"
    path = _two_deal_game(tmp_path)
    assert one_error(capsys, "replay", str(path), "--start", "4,12") == \
        "bower: error: --start 4,12: 12 is at or beyond the target (10); the game would be over"
    with pytest.raises(bower.BowerError) as e:
        bower.replay(path, start="4,12")
    assert e.value.format_message() == "start= 4,12: 12 is at or beyond the target (10); the game would be over"
    hands = tmp_path / "hands.jsonl"
    bower.simulate("euchre", hands=3, seed=1, records=hands)
    assert one_error(capsys, "replay", str(hands), "--start", "4,9") == (
        f"bower: error: --start gives a game's starting score: {hands}: record 0 (line 1) is of no game (no 'game' field)")
