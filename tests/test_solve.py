"""``bower solve`` and ``bower.sim.solve``: deals checked, tables and positions solved, records given their ``dd`` object."""

import json
import os

import pytest

from bower.sim import solve as S
from bower.sim.cli import main
from tests.cli_run import run
from bower.sim.records import read_records
from bower.sim.variants import get_variant

GHOST_DEAL = "0:TC JC TS 9D TH JH 1:KC 9S TD JD QH AH 2:AC KS QD AD 9H KH"


def one_line_error(code, out, err, words):
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("bower: error:") and words in lines[0], err


# ---- exact answers a player can check by hand


def test_all_the_top_trumps_take_every_trick():
    v = get_variant("ghost")
    # seat 0 holds the right, left, A, K, Q, T of hearts: six tricks whatever the others hold
    hands = S.parse_deal(v, "0:JH JD AH KH QH TH 1:9C TC JC QC KC AC 2:9S TS JS QS KS AS")
    r = S.solve(v, hands, trump=3, maker=0)
    assert r["tricks"] == 6 and r["leader"] == 0 and r["side"] == [0]
    assert set(r["values"].values()) == {6}
    # with clubs trump the same hand's hearts are beaten by seat 1's six clubs as soon as it leads
    assert S.solve(v, hands, trump=0, maker=1)["tricks"] == 6


def test_euchre_partnership_with_every_trump():
    v = get_variant("euchre")
    hands = S.parse_deal(v, "0:JS JC AS KS QS 1:9H TH JH QH KH 2:TS 9S AC KC QC 3:9D TD JD QD KD")
    # seats 0 and 2 hold all seven spades: five tricks for either of them as maker
    table = S.dd_table(v, hands)
    assert table["S"][0] == table["S"][2] == 5
    assert table["S"][1] == table["S"][3] == 0


def test_a_position_part_way_counts_the_tricks_already_taken():
    v = get_variant("ghost")
    hands = S.parse_deal(v, "0:JH JD AH KH QH TH 1:9C TC JC QC KC AC 2:9S TS JS QS KS AS")
    r = S.solve(v, hands, trump=3, maker=0, plays=[S.parse_card("JH"), S.parse_card("9C"), S.parse_card("9S"),
                                                   S.parse_card("JD")])
    assert r["tricks_taken"] == 1 and r["tricks_left"] == 5 and r["tricks"] == 6 and r["to_play"] == 1
    assert set(r["values"]) == {"TC", "JC", "QC", "KC", "AC"}  # seat 1 has no heart: any card


# ---- consistency of the table, the contract and the card values


@pytest.mark.parametrize("name, deal", [
    ("ghost", GHOST_DEAL),
    ("cutthroat", "0:JC TS 9D TH JH 1:KC TD JD QH AH 2:AC QD AD 9H KH"),
    ("hasenpfeffer", "0:TC 9S KS TD JH QH 1:QC AC QD KD 9H TH 2:JC KC QS 9D JD JK 3:9C TS JS AS KH AH"),
    ("euchre", "0:9C QC JS QS AS 1:KC TD JD QH AH 3:JC TS 9D TH JH"),
])
def test_table_contracts_and_card_values_agree(capsys, name, deal):
    code, out, err = run(capsys, "solve", "--variant", name, deal, "--json")
    assert code == 0, err
    table = json.loads(out)["table"]
    v = get_variant(name)
    hands = S.parse_deal(v, deal)
    for suit, row in table.items():
        for maker, tricks in row.items():
            code, out, err = run(capsys, "solve", "--variant", name, deal, "--trump", suit, "--maker", maker, "--json")
            assert code == 0, err
            r = json.loads(out)
            assert r["tricks"] == tricks
            best = max if r["to_play"] in r["side"] else min
            assert best(r["values"].values()) == tricks  # the leader is on the maker's side or not
            assert r["to_play"] == r["leader"]
            assert 0 <= tricks <= len(next(iter(hands.values())))


def test_text_output_names_the_best_cards(capsys):
    code, out, err = run(capsys, "solve", GHOST_DEAL, "--trump", "C", "--maker", "2")
    assert code == 0, err
    assert "double dummy: the maker's side takes 3 trick(s) of 6" in out
    assert "  KS  3   best" in out and "  AC  2" in out
    code, out, err = run(capsys, "solve", GHOST_DEAL)
    assert code == 0, err
    assert out.splitlines()[1].split() == ["trump", "maker", "0", "maker", "1", "maker", "2"]
    assert out.splitlines()[2].split() == ["C", "2", "1", "3"]


# ---- bad input: one line, exit 2


@pytest.mark.parametrize("args, words", [
    (["0:JH JD AH KH QH 1:9C TC JC QC KC AC 2:9S TS JS QS KS AS"], "same number of cards"),
    (["0:JH JD AH KH QH TH"], "3 seats in play, not 1"),
    (["0:JH JD AH KH QH TH 1:9C TC JC QC KC AC"], "3 seats in play, not 2"),
    (["--variant", "euchre", "0:JH JD AH KH QH"], "4, 3 or 2 seats in play, not 1"),
    ([GHOST_DEAL, "--alone", "4"], "--alone 4"),
    (["--records", "x.jsonl", "--out", "y.jsonl", "--variant", "euchre"], "leave out --variant"),
    (["--records", "x.jsonl", "--out", "y.jsonl", "--rule", "swap=none"], "leave out --rule"),
    (["--records", "x.jsonl", "--out", "y.jsonl", "--leader", "1"], "leave out --leader"),
    (["--variant", "hasenpfeffer", "0:JH JD AH KH QH TH 1:9C TC JC QC KC AC 2:9S TS JS QS KS AS"], "4 seats"),
    (["0:JH JD AH KH QH TH 1:JH TC JC QC KC AC 2:9S TS JS QS KS AS"], "JH"),
    (["0:JH JD AH KH QH XX 1:9C TC JC QC KC AC 2:9S TS JS QS KS AS"], "malformed card"),
    (["0:JH JD AH KH QH JK 1:9C TC JC QC KC AC 2:9S TS JS QS KS AS"], "joker"),
    (["5:JH JD AH KH QH TH 1:9C TC JC QC KC AC"], "seat 5"),
    (["0:JH 0:JD"], "twice"),
    (["JH JD AH"], "starts with a seat"),
    (["0:JH JD AH KH QH TH AS 1:9C TC JC QC KC AC 9D 2:9S TS JS QS KS 9H TD"], "1 to 6 cards"),
    ([GHOST_DEAL, "--trump", "X", "--maker", "0"], "unknown suit"),
    ([GHOST_DEAL, "--trump", "C"], "--maker"),
    ([GHOST_DEAL, "--plays", "AC"], "--trump"),
    ([GHOST_DEAL, "--trump", "C", "--maker", "2", "--plays", "AC TS"], "must follow"),
    ([GHOST_DEAL, "--trump", "C", "--maker", "2", "--plays", "KC"], "does not hold"),
    ([GHOST_DEAL, "--trump", "C", "--maker", "7"], "--maker 7"),
    ([GHOST_DEAL, "--leader", "3"], "--leader 3"),
    ([], "give a DEAL"),
    (["--records", "x.jsonl"], "--out"),
])
def test_bad_deals_one_line_exit_2(capsys, args, words):
    one_line_error(*run(capsys, "solve", *args), words)


# ---- records


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    d = tmp_path_factory.mktemp("dd")
    paths = {}
    for name in ("ghost", "cutthroat", "hasenpfeffer", "euchre"):
        p = d / f"{name}.jsonl"
        with pytest.raises(SystemExit) as e:
            main(["simulate", "--variant", name, "--hands", "300", "--seed", "5", "--records", str(p), "--json"])
        assert e.value.code == 0
        paths[name] = p
    return paths


@pytest.mark.parametrize("name", ["ghost", "cutthroat", "hasenpfeffer", "euchre"])
def test_records_get_dd_objects_that_match_the_solver(capsys, records, tmp_path, name):
    out1 = tmp_path / "one.jsonl"
    out2 = tmp_path / "two.jsonl"
    code, _, err = run(capsys, "solve", "--records", str(records[name]), "--out", str(out1), "--threads", "1")
    assert code == 0, err
    code, _, err = run(capsys, "solve", "--records", str(records[name]), "--out", str(out2), "--threads", "2")
    assert code == 0, err
    assert out1.read_bytes() == out2.read_bytes()  # same output for any thread count
    v = get_variant(name)
    original = read_records(str(records[name]))
    solved = read_records(str(out1))
    assert len(solved) == len(original)
    n_played = 0
    for rec, orig in zip(solved, original):
        assert {k: x for k, x in rec.items() if k != "dd"} == orig  # nothing else changes
        if rec[v.card_play.maker_field] is None:
            assert rec["dd"] is None
            continue
        n_played += 1
        dd = rec["dd"]
        assert dd["tricks"] == dd["table"][rec["trump"]]
        assert set(dd["table"]) == {"C", "S", "D", "H"}
    assert n_played > 100
    # a sample checked one by one through the position solver, from the hands as played
    for rec in [r for r in solved if r["dd"] is not None][:25]:
        ph = S.played_hand(v, rec)
        r = S.solve(v, ph.hands, ph.trump, ph.maker, leader=ph.leader)
        assert r["tricks"] == rec["dd"]["tricks"]


def test_parquet_records_round_trip(capsys, records, tmp_path):
    pq_in = tmp_path / "in.parquet"
    with pytest.raises(SystemExit):
        main(["simulate", "--variant", "euchre", "--hands", "300", "--seed", "5", "--records", str(pq_in), "--json"])
    capsys.readouterr()
    a, b = tmp_path / "a.parquet", tmp_path / "b.jsonl"
    assert run(capsys, "solve", "--records", str(pq_in), "--out", str(a))[0] == 0
    assert run(capsys, "solve", "--records", str(records["euchre"]), "--out", str(b))[0] == 0
    assert [r["dd"] for r in read_records(str(a))] == [r["dd"] for r in read_records(str(b))]


def test_records_faults_leave_nothing_behind(capsys, records, tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b"\xff\xfe not text\n")
    out = tmp_path / "out.jsonl"
    one_line_error(*run(capsys, "solve", "--records", str(bad), "--out", str(out)), "UTF-8")
    lines = records["ghost"].read_text().splitlines()
    broken = tmp_path / "broken.jsonl"
    broken.write_text("\n".join(lines[:3] + ["{not json"] + lines[3:]) + "\n")
    one_line_error(*run(capsys, "solve", "--records", str(broken), "--out", str(out)), "line 4")
    one_line_error(*run(capsys, "solve", "--records", str(records["ghost"]), "--out", str(tmp_path / "no" / "o.jsonl")),
                   "cannot write")
    one_line_error(*run(capsys, "solve", "--records", str(records["ghost"]), "--out", str(records["ghost"])),
                   "input file")
    one_line_error(*run(capsys, "solve", "--records", str(records["ghost"]), "--out", str(tmp_path / "o.csv")),
                   ".jsonl or .parquet")
    assert sorted(os.listdir(tmp_path)) == ["bad.jsonl", "broken.jsonl"]


def test_a_record_that_breaks_the_rules_is_named(capsys, records, tmp_path):
    recs = [json.loads(x) for x in records["ghost"].read_text().splitlines()]
    i = next(k for k, r in enumerate(recs) if r["plays"])
    recs[i]["plays"] = recs[i]["plays"][:-1]  # one seat one card short
    p = tmp_path / "short.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in recs))
    one_line_error(*run(capsys, "solve", "--records", str(p), "--out", str(tmp_path / "o.jsonl")), f"record {i}")
    assert not (tmp_path / "o.jsonl").exists()


def test_cutthroat_lone_hands_move_the_first_lead(capsys):
    # a lone defender (seat 0) against the maker (seat 1): the seat in play to the defender's left, the maker, leads
    deal = "0:JC AC JS KS 9H 1:KC QS AS TD QH"
    code, out, err = run(capsys, "solve", "--variant", "cutthroat", deal, "--trump", "H", "--maker", "1", "--alone", "0",
                         "--json")
    assert code == 0, err
    alone = json.loads(out)
    code, out, err = run(capsys, "solve", "--variant", "cutthroat", deal, "--trump", "H", "--maker", "1", "--leader",
                         "1", "--json")
    assert alone["leader"] == 1 and alone["tricks"] == json.loads(out)["tricks"]
    # both alone: the defender leads
    code, out, err = run(capsys, "solve", "--variant", "cutthroat", deal, "--trump", "H", "--maker", "1", "--alone", "0",
                         "--alone", "1", "--json")
    assert json.loads(out)["leader"] == 0
    # a lone maker with all three seats in play: the seat to the maker's left leads
    deal3 = "0:9C TC JS QS QD 1:9D TD JD 9H TH 2:JC AC AD QH AH"
    code, out, err = run(capsys, "solve", "--variant", "cutthroat", deal3, "--trump", "H", "--maker", "1", "--alone",
                         "1", "--json")
    assert json.loads(out)["leader"] == 2


def test_euchre_lone_maker_against_a_lone_defender(capsys, tmp_path):
    p = tmp_path / "lone.jsonl"
    code, _, err = run(capsys, "simulate", "--variant", "euchre", "--hands", "1000", "--seed", "1", "--rule",
                       "allow_lone_defender=true", "--records", str(p), "--json")
    assert code == 0, err
    two = [r for r in read_records(str(p)) if len({s for s, _ in r["plays"]}) == 2]
    assert two  # both sides alone: two seats in play
    out = tmp_path / "dd.jsonl"
    code, _, err = run(capsys, "solve", "--records", str(p), "--out", str(out))
    assert code == 0, err
    v = get_variant("euchre")
    solved = {r["hand"]: r for r in read_records(str(out))}
    for r in two:
        ph = S.played_hand(v, r)
        assert S.solve(v, ph.hands, ph.trump, ph.maker, leader=ph.leader)["tricks"] == solved[r["hand"]]["dd"]["tricks"]


def test_records_with_plays_the_rules_do_not_allow_are_refused(capsys, records, tmp_path):
    recs = [json.loads(x) for x in records["ghost"].read_text().splitlines()]
    i = next(k for k, r in enumerate(recs) if r["plays"])
    dup = json.loads(json.dumps(recs))
    dup[i]["plays"][1][1] = dup[i]["plays"][0][1]  # one card played twice
    turns = json.loads(json.dumps(recs))
    turns[i]["plays"] = list(reversed(turns[i]["plays"]))
    bad_dd = json.loads(json.dumps(recs))
    bad_dd[i]["dd"] = {"tricks": "x"}
    for name, data, words in (("dup", dup, "played twice"), ("turns", turns, "turn")):
        p = tmp_path / f"{name}.jsonl"
        p.write_text("".join(json.dumps(r) + "\n" for r in data))
        one_line_error(*run(capsys, "solve", "--records", str(p), "--out", str(tmp_path / "o.jsonl")),
                       f"{p}: record {i} (line {i + 1}): field 'plays'")
        one_line_error(*run(capsys, "analyze", str(p), "--dd"), words)
    p = tmp_path / "bad_dd.jsonl"
    p.write_text("".join(json.dumps(r) + "\n" for r in bad_dd))
    one_line_error(*run(capsys, "analyze", str(p)), f"record {i} (line {i + 1}): field 'dd'")
    bom = tmp_path / "bom.jsonl"
    bom.write_bytes(b"\xef\xbb\xbf" + records["ghost"].read_bytes())
    assert run(capsys, "solve", "--records", str(bom), "--out", str(tmp_path / "o.jsonl"))[0] == 0
    assert run(capsys, "solve", "--records", str(records["ghost"]), "--out", str(tmp_path / "p.jsonl"))[0] == 0
    assert (tmp_path / "o.jsonl").read_bytes() == (tmp_path / "p.jsonl").read_bytes()  # a byte-order mark is not data
