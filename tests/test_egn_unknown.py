"""Analysis from what is known (issue 35): real deals whose kitty and dealer's discard are not given.

Every card played in them is known, so each is a record with ``deal``, ``discard`` and ``kitty`` null and listed
in ``unknown``; replay, solve and analyze take each seat's hand at the first lead as the cards it played. The
tricks, points and game scores are checked against a count by hand from the notation's rules (``tests/test_egn``'s
``count``), the double-dummy values against the solver run on hands built here from the file's tricks.
"""

from __future__ import annotations

import json

from bower.sim import solve as S
from bower.sim.cards import parse_card
from bower.sim.records import read_records
from bower.sim.variants import get_variant
from bower.sim.variants.euchre.egn import read_egn, write_egn
from tests.cli_run import one_error, run
from tests.test_egn import BEARS, SCENARIO, VWEC, _led, _power, count

UNKNOWN = ["deal", "discard", "kitty"]
NOTE = "'deal', 'discard' and 'kitty' not known: each seat's hand at the first lead is the cards it played"
# the deals of each file whose dealer's discard is not given (before issue 35 they were left out)
NO_DISCARD = {BEARS: [0, 2, 3, 6, 7, 8, 11], VWEC: [0, 2, 3, 5, 6, 8, 9, 10, 11, 12]}
LEAD = {BEARS: "LEFT_OF_DEALER", VWEC: "LEFT_OF_LONER"}


def _deals(path) -> dict:
    return {d["dealNumber"]: d for d in json.loads(path.read_text(encoding="utf-8"))["deals"]}


def by_hand(deal: dict, loner_lead: str):
    """(seat -> the cards it played, bower spelling; maker; trump; first leader) of an EGN deal, from its tricks as
    the notation's rules seat them: the first lead left of the dealer (or of a lone maker under LEFT_OF_LONER),
    each later trick led by the winner of the one before."""
    dealer, up = deal["initialState"]["dealer"], deal["initialState"]["upCard"]
    bid = deal["phases"][0]
    first = next(i for i, c in enumerate(bid["calls"]) if c != "Pass")
    maker = (dealer + 1 + first) % 4
    trump = up[1] if first < 4 else bid["calls"][first]
    out = {(maker + 2) % 4} if bid.get("isAlone") else set()
    leader = (maker + 1) % 4 if loner_lead == "LEFT_OF_LONER" and bid.get("isAlone") else (dealer + 1) % 4
    while leader in out:
        leader = (leader + 1) % 4
    first_leader, hands = leader, {}
    for cards in deal["phases"][1]["tricks"]:
        turn = [s for s in ((leader + k) % 4 for k in range(4)) if s not in out]
        for s, c in zip(turn, cards):
            hands.setdefault(s, []).append(c[0] + c[1].upper())
        led = _led(cards[0], trump)
        leader = turn[max(range(len(cards)), key=lambda k: _power(cards[k], led, trump))]
    return hands, maker, trump.upper(), first_leader


def test_the_examples_now_give_the_deals_whose_discard_is_not_given():
    for path, lost in NO_DISCARD.items():
        egn, deals = read_egn(path), _deals(path)
        got = {r["hand"]: r for r in egn.records}
        assert set(lost) <= set(got)
        for n in lost:
            r = got[n]
            assert r["unknown"] == UNKNOWN and r["deal"] is r["kitty"] is r["discard"] is None
            assert (r["tricks"], r["points"]) == count(deals[n], LEAD[path])
            hands, maker, trump, leader = by_hand(deals[n], LEAD[path])
            assert (r["maker"], r["trump"], r["plays"][0][0]) == (maker, trump, leader)
            assert {s: sorted(c for t, c in r["plays"] if t == s) for s in hands} == {
                s: sorted(c) for s, c in hands.items()}
            assert r["upcard"] in hands[r["dealer"]]  # the dealer took the up-card: it is among its cards played
        for n, r in got.items():
            if n not in lost:
                assert "unknown" not in r and r["kitty"] is not None


def test_the_game_score_counts_every_deal_from_the_initial_score(capsys):
    # each record's start is the initial score plus the points of every deal before it, counted by hand (the deals
    # left out too: their tricks are known)
    for path in (BEARS, VWEC):
        egn, deals = read_egn(path), _deals(path)
        score = dict(zip("01", egn.meta["initialScore"]))
        starts = {}
        for n in sorted(deals):
            starts[n] = dict(score)
            _, points = count(deals[n], LEAD[path])
            score = {k: score[k] + points[k] for k in score}
        assert all(r["start"] == starts[r["hand"]] and r["game"] == egn.meta["title"] for r in egn.records)
        code, out, err = run(capsys, "replay", str(path))
        assert code == 0, err
        lines = out.splitlines()
        final = [ln for ln in lines if ln.startswith("  game ")][-1]
        winner = "0" if score["0"] > score["1"] else "1"
        assert final.endswith(f": side 0 {score['0']}, side 1 {score['1']}; won by side {winner} "
                              f"(seats {winner} & {int(winner) + 2})")
        assert lines.count("  " + NOTE) == len(NO_DISCARD[path])
        assert f"{len(NO_DISCARD[path])} hand(s) with {NOTE}" in lines
    assert score == {"0": 8, "1": 10}  # VWEC Finals: won 10-8 by seats 1 & 3


def test_replay_starts_a_game_at_its_initial_score(capsys, tmp_path):
    # a transcript that starts at 4-9: deal 0 (+2 to side 0) and deal 1 (+2 to side 1) end it 6-11
    doc = json.loads(BEARS.read_text(encoding="utf-8"))
    doc["metadata"]["initialScore"] = [4, 9]
    doc["deals"] = doc["deals"][:2]
    assert [count(d)[1] for d in doc["deals"]] == [{"0": 2, "1": 0}, {"0": 0, "1": 2}]
    path = tmp_path / "late.egn"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0, err
    games = [ln for ln in out.splitlines() if ln.startswith("  game ")]
    assert games == ["  game Me and Bears, hand 1: side 0 6, side 1 9 (from side 0 4, side 1 9 before it)",
                     "  game Me and Bears, hand 2: side 0 6, side 1 11; won by side 1 (seats 1 & 3)"]
    code, out, _ = run(capsys, "replay", str(path), "--json")
    got = [json.loads(ln) for ln in out.splitlines()]
    assert [(g["start"], g["scores"], g["winner"]) for g in got] == [
        ({"0": 4, "1": 9}, {"0": 6, "1": 9}, None), ({"0": 6, "1": 9}, {"0": 6, "1": 11}, 1)]
    assert got[0]["unknown"] == UNKNOWN and "unknown" not in got[1]
    # written back, the file keeps its initial score
    back = tmp_path / "back.egn"
    egn = read_egn(path)
    write_egn(back, egn.records)
    assert json.loads(back.read_text(encoding="utf-8"))["metadata"]["initialScore"] == [4, 9]
    assert read_egn(back).records == egn.records


def _solver_tricks(path, deal):
    """trump -> the maker side's double-dummy tricks, solved on the hands built by hand from the file's tricks."""
    v = get_variant("euchre")
    hands, maker, _, leader = by_hand(deal, LEAD[path])
    table = S.dd_table(v, {s: [parse_card(c) for c in cards] for s, cards in hands.items()}, leader=leader)
    return {t: table[t][maker] for t in "CSDH"}


def test_solve_replay_and_analyze_dd_agree_with_the_solver_on_the_hands_by_hand(capsys, tmp_path):
    for path in (BEARS, VWEC):
        deals = _deals(path)
        out_path = tmp_path / (path.stem + ".jsonl")
        code, out, err = run(capsys, "solve", "--records", str(path), "--out", str(out_path))
        assert code == 0, err
        assert f"{len(NO_DISCARD[path])} record(s) with {NOTE}" in out.splitlines()
        solved = read_records(str(out_path))
        for r in solved:
            table = _solver_tricks(path, deals[r["hand"]])
            assert r["dd"] == {"tricks": table[r["trump"]], "table": table}
        code, out, _ = run(capsys, "replay", str(path), "--dd", "--json")
        got = [g for ln in out.splitlines() if "players" not in (g := json.loads(ln))]  # the last: the table
        assert [(g["hand"], g["dd_tricks"], g.get("unknown")) for g in got] == [
            (r["hand"], r["dd"]["tricks"], r.get("unknown")) for r in solved]
        code, out, _ = run(capsys, "analyze", str(path), "--dd", "--json")
        a = json.loads(out)
        n = len(NO_DISCARD[path])
        assert a["hands"] == a["played"] == a["dd"]["solved"] == len(solved)
        assert a["unknown"].startswith(f"{n} of {len(solved)} hands have 'deal', 'discard' and 'kitty' not known: "
                                       f"the analysis tables (they read the hands as dealt and the kitty) count the "
                                       f"{len(solved) - n} with every card known")
        assert a["tables"]["makers"] and sum(row["hands"] for row in a["tables"]["dd_by_strength"]) == len(solved)
        made = sum(r["dd"]["tricks"] >= 3 for r in solved)
        assert a["tables"]["dd_by_contract"][-1]["par_rate"] == made / len(solved)
        # its solved copy analyzed: the same double-dummy tables
        code, out, _ = run(capsys, "analyze", str(out_path), "--json")
        b = json.loads(out)
        assert {k: x for k, x in b["tables"].items() if k.startswith("dd_")} == {
            k: x for k, x in a["tables"].items() if k.startswith("dd_")}


def _record(tmp_path, rec, name="r.jsonl"):
    path = tmp_path / name
    path.write_text(json.dumps(rec) + "\n", encoding="utf-8")
    return str(path)


def test_only_the_marked_form_is_taken(capsys, tmp_path):
    rec = next(r for r in read_egn(BEARS).records if r.get("unknown"))
    code, _, err = run(capsys, "replay", _record(tmp_path, rec))
    assert code == 0, err
    # the kitty (or the deal) null without the marker: refused as before
    for bad, why in (
            ({k: x for k, x in rec.items() if k != "unknown"}, "field 'deal' is null, not an object"),
            (dict({k: x for k, x in read_egn(SCENARIO).records[0].items()}, kitty=None),
             "field 'kitty' is null, not a list"),
            (dict(rec, unknown=["deal", "discard"]), "field 'kitty' is null, not a list"),
            (dict(rec, unknown=["kitty"], deal=None), "field 'deal' is null, not an object"),
            (dict(rec, unknown=["deal", "discard", "kitty"], kitty=["9C"]), "field 'kitty' is given but 'unknown'"),
            (dict(rec, unknown=["hand"]), "field 'unknown' names 'hand', not a field that may be unknown"),
            (dict(rec, unknown="kitty"), "field 'unknown' is 'kitty', not a list of the fields not known"),
            (dict(rec, unknown=["discard", "kitty"]), "lists 'discard' but not 'deal'")):
        for command in (("replay",), ("solve", "--records")):
            args = [*command, _record(tmp_path, bad)] + (["--out", str(tmp_path / "o.jsonl")] if
                                                        command[0] == "solve" else [])
            line = one_error(capsys, *args)
            assert why in line, line
            assert not (tmp_path / "o.jsonl").exists()
    # a discard not known where nobody ordered the up-card up
    called = next(r for r in read_egn(BEARS).records if not any(c == "order" for _, c in r["calls"]))
    bad = dict(called, deal=None, kitty=None, unknown=UNKNOWN)
    assert "nobody ordered the up-card up" in one_error(capsys, "replay", _record(tmp_path, bad))
    # the marker with a play the hands at the first lead cannot have made: one line, status 2
    plays = [list(p) for p in rec["plays"]]
    plays[5][0], plays[6][0] = plays[6][0], plays[5][0]  # two cards of trick 2 played by each other's seat
    line = one_error(capsys, "replay", _record(tmp_path, dict(rec, plays=plays)))
    assert "field 'plays'" in line and "record 0 (line 1)" in line
    line = one_error(capsys, "solve", "--records", _record(tmp_path, dict(rec, plays=plays)), "--out",
                     str(tmp_path / "o.jsonl"))
    assert "field 'plays'" in line and not (tmp_path / "o.jsonl").exists()


def test_egn_to_records_to_egn_keeps_every_field_of_the_kept_deals(tmp_path):
    for path in (BEARS, VWEC, SCENARIO):
        egn = read_egn(path)
        orig = json.loads(path.read_text(encoding="utf-8"))
        out = tmp_path / path.name
        write_egn(out, egn.records, egn.meta)
        doc = json.loads(out.read_text(encoding="utf-8"))
        for k in ("title", "description", "date", "players", "initialScore"):
            assert doc["metadata"].get(k) == orig["metadata"].get(k)
        assert {k: x for k, x in doc["metadata"]["ruleset"].items() if k in orig["metadata"]["ruleset"]} == \
            orig["metadata"]["ruleset"]
        deals = {d["dealNumber"]: d for d in orig["deals"]}
        # every deal in order: the kept ones as bower writes them, those left out as the file wrote them
        assert [d["dealNumber"] for d in doc["deals"]] == sorted(deals)
        left = {n for n, _ in egn.left_out}
        assert [d for d in doc["deals"] if d["dealNumber"] in left] == [deals[n] for n in sorted(left)]
        for d in doc["deals"]:
            o = deals[d["dealNumber"]]
            if d["dealNumber"] in left:
                continue
            if d["dealNumber"] in NO_DISCARD.get(path, ()):
                assert d["initialState"] == o["initialState"]  # no playerCards: none were given
                assert "discard" not in d["phases"][0] and "discard" not in o["phases"][0]
            else:
                assert d["initialState"]["dealer"] == o["initialState"]["dealer"]
                assert d["initialState"]["upCard"] == o["initialState"]["upCard"]
            for k in ("calls", "isAlone", "discard"):
                assert d["phases"][0].get(k, False) == o["phases"][0].get(k, False)
            assert d["phases"][0].get("aloneDefender", -1) == o["phases"][0].get("aloneDefender", -1)
            assert d["phases"][1]["tricks"] == o["phases"][1]["tricks"]
        again = read_egn(out)
        assert again.records == egn.records and again.left_out == egn.left_out  # every start included
        out2 = tmp_path / ("2" + path.name)
        write_egn(out2, again.records, again.meta)
        assert json.loads(out2.read_text(encoding="utf-8")) == doc
