"""Euchre Game Notation (issue 35): real games read as records, records written as EGN, bad files in one line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower.sim.variants.euchre.egn import EgnError, read_egn, ruleset_of, write_egn
from bower.sim.records import read_records, read_records_checked
from bower.sim.replay import replay_file
from tests.cli_run import listing, one_error, run

DATA = Path(__file__).resolve().parent / "data" / "egn"
BEARS = DATA / "Me and Bears.egn"
SCENARIO = DATA / "Custom Scenario.egn"
VWEC = DATA / "VWEC Finals.egn"  # ruleset loner_lead: LEFT_OF_LONER

# ---- an independent count, from RULES.md 4 (not bower's code) ------------------------------------------

PARTNER_SUIT = {"c": "s", "s": "c", "d": "h", "h": "d"}
ORDER = "9TJQKA"


def _power(card: str, led: str, trump: str) -> int:
    rank, suit = card[0], card[1]
    if rank == "J" and suit == trump:
        return 50
    if rank == "J" and suit == PARTNER_SUIT[trump]:
        return 49
    if suit == trump:
        return 30 + ORDER.index(rank)
    return 10 + ORDER.index(rank) if suit == led else 0


def _led(card: str, trump: str) -> str:
    return trump if card[0] == "J" and card[1] == PARTNER_SUIT[trump] else card[1]


def count(deal: dict, loner_lead: str = "LEFT_OF_DEALER") -> tuple[dict, dict] | None:
    """(tricks by seat, points by side) of an EGN deal, counted by hand; None when nobody made trump.

    The first lead: left of the dealer, or under ``LEFT_OF_LONER`` after a lone maker left of the maker, skipping
    a seat that sits out (the notation's "Trick 1 Initial Lead Resolution")."""
    dealer, up = deal["initialState"]["dealer"], deal["initialState"]["upCard"]
    bid = deal["phases"][0]
    first = next((i for i, c in enumerate(bid["calls"]) if c != "Pass"), None)
    if first is None:
        return None
    maker = (dealer + 1 + first) % 4
    trump = up[1] if first < 4 else bid["calls"][first]
    out = {(maker + 2) % 4} if bid.get("isAlone") else set()
    if bid.get("aloneDefender", -1) != -1:
        out.add((bid["aloneDefender"] + 2) % 4)
    seats = [s for s in range(4) if s not in out]
    leader = (maker + 1) % 4 if loner_lead == "LEFT_OF_LONER" and bid.get("isAlone") else (dealer + 1) % 4
    while leader in out:
        leader = (leader + 1) % 4
    tricks = {str(s): 0 for s in range(4)}
    for cards in deal["phases"][1]["tricks"]:
        turn = [s for s in ((leader + k) % 4 for k in range(4)) if s in seats]
        led = _led(cards[0], trump)
        best = max(range(len(cards)), key=lambda k: _power(cards[k], led, trump))
        leader = turn[best]
        tricks[str(leader)] += 1
    made = tricks[str(maker)] + tricks[str((maker + 2) % 4)]
    points = {"0": 0, "1": 0}
    if made == 5:
        points[str(maker % 2)] = 4 if bid.get("isAlone") else 2
    elif made >= 3:
        points[str(maker % 2)] = 1
    else:
        points[str(1 - maker % 2)] = 4 if bid.get("aloneDefender", -1) != -1 else 2
    return tricks, points


def test_example_files_read_to_the_tricks_and_points_counted_by_hand():
    for path, kept in ((BEARS, [0, 1, 2, 3, 5, 6, 7, 8, 9, 11]), (SCENARIO, [0])):
        egn = read_egn(path)
        deals = {d["dealNumber"]: d for d in json.loads(path.read_text(encoding="utf-8"))["deals"]}
        assert [r["hand"] for r in egn.records] == kept
        for r in egn.records:
            assert (r["tricks"], r["points"]) == count(deals[r["hand"]])
            if r["hand"] in (1, 5, 9) or path == SCENARIO:  # every card known
                assert "unknown" not in r
                assert sorted(sum(r["deal"].values(), []) + r["kitty"]) == sorted(
                    r + s for r in "9TJQKA" for s in "CSDH")
            else:  # the dealer's discard not given (issue 35): the deal, discard and kitty marked unknown
                assert r["unknown"] == ["deal", "discard", "kitty"]
                assert r["deal"] is r["kitty"] is r["discard"] is None
        assert egn.meta["rules"] == {"stick_the_dealer": True, "allow_lone_defender": False, "loner_lead": "dealer",
                                     "canadian": False, "discard_up": False, "loner_march_score": 4,
                                     "loner_euchred_score": 2, "fast_break": False, "four_trick_tokens": False,
                                     "farmers": False, "go_under": False, "partners_best": False}
        assert len(egn.records) + len(egn.left_out) == len(deals)
    egn = read_egn(BEARS)
    assert egn.meta["players"][0] and egn.meta["initialScore"] == [0, 0]
    assert egn.left_out == [(4, "seat 0 sits out and its cards are not given"),
                            (10, "seat 1 sits out and its cards are not given")]


def test_left_of_loner_example_reads_as_loner_lead_loner(capsys):
    egn = read_egn(VWEC)
    deals = {d["dealNumber"]: d for d in json.loads(VWEC.read_text(encoding="utf-8"))["deals"]}
    assert egn.meta["rules"] == {"stick_the_dealer": True, "allow_lone_defender": False, "loner_lead": "loner",
                                 "canadian": False, "discard_up": False, "loner_march_score": 4,
                                 "loner_euchred_score": 2, "fast_break": False, "four_trick_tokens": False,
                                 "farmers": False, "go_under": False, "partners_best": False}
    assert [r["hand"] for r in egn.records] == [0, 1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12] and len(egn.left_out) == 1
    for r in egn.records:
        assert r["rules"]["loner_lead"] == "loner"
        assert (r["tricks"], r["points"]) == count(deals[r["hand"]], "LEFT_OF_LONER")
    got = list(replay_file(str(VWEC)))
    capsys.readouterr()
    assert [(g["tricks"], g["points"], g["reneges"]) for g in got] == [
        (r["tricks"], r["points"], []) for r in egn.records]
    assert ruleset_of(egn.records[0]["rules"])["loner_lead"] == "LEFT_OF_LONER"


def test_loner_lead_loner_round_trips_and_leads_left_of_the_loner(simulated, tmp_path):
    # a lone maker not at the dealer's right: left of the loner is not left of the dealer
    recs = [r for r in simulated[2] if r["maker"] is not None]
    differs = [r for r in recs if r["maker"] in r["alone"] and (r["maker"] + 1) % 4 != (r["dealer"] + 1) % 4
               and (r["maker"] + 2) % 4 != (r["dealer"] + 1) % 4]
    assert differs and all(r["plays"][0][0] == (r["maker"] + 1) % 4 for r in differs)
    chosen = simulated[2][:100]
    path = tmp_path / "l.egn"
    write_egn(path, chosen)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["metadata"]["ruleset"]["loner_lead"] == "LEFT_OF_LONER"
    back = read_egn(path)
    assert back.records == chosen and back.meta["rules"]["loner_lead"] == "loner"
    for r, d in zip(chosen, doc["deals"]):
        if r["maker"] is not None:
            assert (r["tricks"], r["points"]) == count(d, "LEFT_OF_LONER")
    assert any(r["maker"] in r["alone"] and r["plays"][0][0] != (r["dealer"] + 1) % 4 for r in chosen)
    doc["metadata"]["ruleset"]["loner_lead"] = "LEFT_OF_DEALER"  # the same plays read left of the dealer: refused
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(EgnError):
        read_egn(path)


def test_records_without_loner_lead_read_as_dealer(simulated, tmp_path):
    # records written before the option (no loner_lead key) replay under loner_lead = dealer
    old = [dict(r, rules={k: v for k, v in r["rules"].items() if k != "loner_lead"}) for r in simulated[0][:40]]
    path = tmp_path / "old.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in old), encoding="utf-8")
    got = list(replay_file(str(path)))
    assert [(g["tricks"], g["points"], g["reneges"]) for g in got] == [(r["tricks"], r["points"], []) for r in old]
    assert ruleset_of(old[0]["rules"])["loner_lead"] == "LEFT_OF_DEALER"
    loner = [dict(r, rules={k: v for k, v in r["rules"].items() if k != "loner_lead"}) for r in simulated[2]
             if r["maker"] is not None and r["maker"] in r["alone"] and r["plays"][0][0] != (r["dealer"] + 1) % 4
             and (r["maker"] + 2) % 4 != (r["dealer"] + 1) % 4][:1]
    path.write_text(json.dumps(loner[0]) + "\n", encoding="utf-8")
    with pytest.raises(Exception, match="seat . to lead"):  # read as dealer, its first lead is out of turn
        list(replay_file(str(path)))


def test_bower_replay_of_the_examples_gives_the_same_tricks_and_points(capsys):
    for path in (BEARS, SCENARIO):
        egn = read_egn(path)
        got = list(replay_file(str(path)))
        capsys.readouterr()
        assert [(g["tricks"], g["points"], g["reneges"]) for g in got] == [
            (r["tricks"], r["points"], []) for r in egn.records]
        assert all(g.get("matches") is not False for g in got)
    code, out, err = run(capsys, "replay", str(BEARS))
    assert code == 0 and "10 hand(s) replayed: 10 played" in out
    notes = err.splitlines()
    assert len(notes) == 2 and all(n.startswith(f"bower: note: {BEARS} deal ") for n in notes)
    assert f"bower: note: {BEARS} deal 4 left out: seat 0 sits out and its cards are not given" in notes


def test_records_readers_take_egn():
    assert read_records(str(SCENARIO)) == read_egn(SCENARIO).records
    assert read_records_checked(str(SCENARIO)) == read_egn(SCENARIO).records


@pytest.fixture(scope="module")
def simulated(tmp_path_factory):
    """Simulated hands' records: cautious (thrown-in hands, loners), random under both switches (lone defenders),
    cautious under loner_lead = loner."""
    from bower.sim.cli import main

    out = []
    for rules in (["--strategy", "cautious"], ["--strategy", "random", "--rule", "allow_lone_defender=true",
                                                "--rule", "stick_the_dealer=true"],
                  ["--strategy", "cautious", "--rule", "loner_lead=loner"]):
        path = tmp_path_factory.mktemp("sim") / "h.jsonl"
        with pytest.raises(SystemExit) as e:
            main(["simulate", "--variant", "euchre", "--hands", "300", "--seed", "11", *rules,
                  "--records", str(path)])
        assert e.value.code == 0
        out.append(read_records(str(path)))
    return out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_records_to_egn_to_records_keeps_every_field(simulated, tmp_path, data):
    recs = data.draw(st.sampled_from(simulated))
    lo = data.draw(st.integers(0, len(recs) - 1))
    chosen = recs[lo: lo + data.draw(st.integers(1, 60))]
    path = tmp_path / f"r{lo}.egn"
    write_egn(path, chosen, {"seed": 11})
    back = read_egn(path)
    assert back.records == chosen and back.left_out == []
    assert listing(tmp_path).count(path.name) == 1 and not [n for n in listing(tmp_path) if n.startswith(".bower-")]
    # and EGN -> records -> EGN: the same file again
    again = tmp_path / f"again{lo}.egn"
    write_egn(again, back.records, back.meta)
    assert json.loads(again.read_text(encoding="utf-8")) == json.loads(path.read_text(encoding="utf-8"))


def test_simulated_kinds_are_covered(simulated):
    assert any(r["maker"] is None for r in simulated[0])
    assert any(r["maker"] in r["alone"] for r in simulated[0])
    assert any(s != r["maker"] for r in simulated[1] for s in r["alone"])  # a lone defender


def test_egn_to_records_to_egn_keeps_the_game(tmp_path):
    for src in (BEARS, SCENARIO):
        first = read_egn(src)
        path = tmp_path / src.name
        write_egn(path, first.records, first.meta)
        second = read_egn(path)
        # the same records, every start included: a deal left out is written back as the file wrote it, after the
        # record it followed, so its points stay counted in the later deals' start
        assert second.records == first.records and second.left_out == first.left_out
        for k in ("title", "description", "date", "players", "initialScore"):
            assert second.meta.get(k) == first.meta.get(k)
        orig = {d["dealNumber"]: d for d in json.loads(src.read_text(encoding="utf-8"))["deals"]}
        written = json.loads(path.read_text(encoding="utf-8"))["deals"]
        assert [d["dealNumber"] for d in written] == sorted(orig)  # every deal, in order
        left = {n for n, _ in first.left_out}
        assert [d for d in written if d["dealNumber"] in left] == [orig[n] for n in sorted(left)]
        for d in written:
            o = orig[d["dealNumber"]]
            assert d["initialState"]["dealer"] == o["initialState"]["dealer"]
            assert d["initialState"]["upCard"] == o["initialState"]["upCard"]
            assert d["phases"][0]["calls"] == o["phases"][0]["calls"]
            assert d["phases"][1]["tricks"] == o["phases"][1]["tricks"]


def test_egn_to_records_to_egn_keeps_every_score(tmp_path):
    # the files with deals left out (seats that sit out, cards not given): every record's start survives the trip,
    # and so does the game's end, replayed from the file written back
    for src in (BEARS, VWEC):
        first = read_egn(src)
        assert first.left_out
        path = tmp_path / src.name
        write_egn(path, first.records, first.meta)
        second = read_egn(path)
        assert [r["start"] for r in second.records] == [r["start"] for r in first.records]
        again = [r for r in replay_file(str(path)) if "game" in r]
        orig = [r for r in replay_file(str(src)) if "game" in r]
        assert [(r["scores"], r["winner"]) for r in again] == [(r["scores"], r["winner"]) for r in orig]
    # Me and Bears: deals 4 and 10 (left out) gave side 0 a point and side 1 four
    assert [(r["hand"], r["start"]) for r in read_egn(BEARS).records if r["hand"] in (3, 5, 9, 11)] == [
        (3, {"0": 3, "1": 2}), (5, {"0": 5, "1": 2}), (9, {"0": 9, "1": 3}), (11, {"0": 9, "1": 9})]


def test_records_whose_starts_egn_cannot_hold_are_refused(tmp_path):
    # without the deals left out (read_egn's meta), the starts after a gap cannot be written: one line, no file
    egn = read_egn(BEARS)
    path = tmp_path / "gap.egn"
    with pytest.raises(EgnError) as e:
        write_egn(path, egn.records)
    assert str(e.value.format_message()) == (
        "record 5: field 'start' is 5-2, but the deals written before it count 4-2 (a deal left out between them): "
        "EGN holds no score between deals; write .jsonl or .parquet, or give write_egn the meta read_egn returned")
    assert not path.exists() and not [n for n in listing(tmp_path) if n.startswith(".bower-")]


def test_simulate_writes_egn_and_other_variants_refuse_it(capsys, tmp_path):
    path = tmp_path / "hands.egn"
    code, out, _ = run(capsys, "simulate", "--variant", "euchre", "--hands", "30", "--seed", "3",
                       "--records", str(path))
    assert code == 0 and listing(tmp_path) == ["hands.egn"]
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["version"] == "1.4" and len(doc["deals"]) == 30
    assert "seed 3" in doc["metadata"]["description"] and "Made by bower" in doc["metadata"]["description"]
    line = one_error(capsys, "simulate", "--variant", "cutthroat", "--hands", "5", "--records", str(tmp_path / "c.egn"))
    assert line == (f"bower: error: records file {tmp_path / 'c.egn'}: .egn (Euchre Game Notation) holds Standard "
                    "Euchre hands, not cutthroat; write .jsonl or .parquet")
    assert listing(tmp_path) == ["hands.egn"]


def test_files_bower_writes_pass_the_notations_schema(capsys, tmp_path):
    # the notation's own JSON schema (tests/data/egn/egn-schema-v1.json, copied from its repository): every key,
    # card spelling and bound of a file bower writes, 100 deals (the most a file may hold) with loners and throw-ins
    import jsonschema

    path = tmp_path / "hands.egn"
    code, _, _ = run(capsys, "simulate", "--variant", "euchre", "--hands", "100", "--seed", "11",
                     "--rule", "allow_lone_defender=true", "--records", str(path))
    assert code == 0
    doc = json.loads(path.read_text(encoding="utf-8"))
    schema = json.loads((DATA / "egn-schema-v1.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema)
    assert [e.message for e in validator.iter_errors(doc)] == []
    assert len(doc["deals"]) == 100 and any(d["phases"][0].get("isAlone") for d in doc["deals"])
    for example in (BEARS, SCENARIO):  # the schema is strict enough to tell: the examples pass, a stray key fails
        assert [e.message for e in validator.iter_errors(json.loads(example.read_text(encoding="utf-8")))] == []
    doc["deals"][0]["initialState"]["kitty"] = ["9c"]
    assert list(validator.iter_errors(doc))


def test_analyze_reads_egn_as_its_records(capsys, tmp_path):
    # the tables of an EGN file are those of its records written as JSONL; the deals left out are named first
    egn = read_egn(BEARS)
    jsonl = tmp_path / "bears.jsonl"
    from bower.sim.variants.euchre.egn import egn_as_jsonl

    made = egn_as_jsonl(BEARS, tmp_path)
    assert read_records(made) == egn.records
    capsys.readouterr()  # its notes of the deals left out
    code, out_egn, err = run(capsys, "analyze", str(BEARS), "--json")
    assert code == 0, err
    assert [ln for ln in err.splitlines() if "left out" in ln] == [
        f"bower: note: {BEARS} deal {n} left out: {why}" for n, why in egn.left_out]
    os.replace(made, jsonl)
    code, out_jsonl, _ = run(capsys, "analyze", str(jsonl), "--json")
    a, b = json.loads(out_egn), json.loads(out_jsonl)
    assert a["records"] == str(BEARS) and a["hands"] == len(egn.records) > 0
    assert a["tables"] == b["tables"]
    empty = dict(_bears(), deals=_bears()["deals"][4:5])  # deal 4: a loner's partner's cards unknown, left out
    path = tmp_path / "none.egn"
    path.write_text(json.dumps(empty), encoding="utf-8")
    code, out, err = run(capsys, "analyze", str(path))
    assert (code, out) == (2, "") and err.splitlines()[-1] == (
        f"bower: error: {path}: every deal is left out: nothing to analyze")


def test_more_deals_than_a_file_holds_are_refused(capsys, tmp_path):
    path = tmp_path / "hands.egn"
    line = one_error(capsys, "simulate", "--variant", "euchre", "--hands", "101", "--seed", "3",
                     "--records", str(path))
    assert line == (f"bower: error: records file {path}: an EGN file holds at most 100 deals (the notation's "
                    "limit), not 101; write .jsonl or .parquet for more")
    assert listing(tmp_path) == []
    with pytest.raises(EgnError, match="at most 100 deals"):
        write_egn(tmp_path / "x.egn", read_egn(SCENARIO).records * 101)
    assert listing(tmp_path) == []


def test_write_egn_leaves_nothing_on_error(tmp_path):
    recs = read_egn(SCENARIO).records
    bad = [dict(recs[0]), dict(recs[0], rules={"stick_the_dealer": False, "allow_lone_defender": False})]
    with pytest.raises(EgnError, match="rules differ"):
        write_egn(tmp_path / "x.egn", bad)
    assert listing(tmp_path) == []


# ---- bad files: one line, status 2, nothing written --------------------------------------------------------


def _bears() -> dict:
    return json.loads(BEARS.read_text(encoding="utf-8"))


def _edit(fn):
    doc = _bears()
    fn(doc)
    return doc


def _deal1(doc):
    return doc["deals"][1]


BAD = {
    "not-json": (b"{not json", "is not JSON"),
    "not-utf8": (bytes(range(128, 256)), "is not UTF-8 text"),
    "not-egn": ({"fileType": "something else"}, "is not an EGN file (field 'fileType'"),
    "old-version": (_edit(lambda d: d.update(version="0.9")), "field 'version' is '0.9'"),
    "partners-best-value": (_edit(lambda d: d["metadata"]["ruleset"].update(partners_best="yes")),
                            'ruleset partners_best = "yes" is not a rule bower plays'),
    "farmers-value": (_edit(lambda d: d["metadata"]["ruleset"].update(farmers="yes")),
                      'ruleset farmers = "yes" is not a rule bower plays'),
    # the example's deal 3: the dealer's partner orders up with its partner, which canadian forbids
    "canadian": (_edit(lambda d: d["metadata"]["ruleset"].update(canadian=True)),
                 "deal 3: field 'isAlone' is false but the ruleset has canadian"),
    "loner-lead": (_edit(lambda d: d["metadata"]["ruleset"].update(loner_lead="LEFT_OF_PARTNER")),
                   'ruleset loner_lead = "LEFT_OF_PARTNER" is not a rule bower plays'),
    "joker": (_edit(lambda d: d["metadata"]["ruleset"].update(joker=True)), "ruleset joker = true"),
    "players": (_edit(lambda d: d["metadata"]["ruleset"].update(num_players=6)), "ruleset num_players = 6"),
    "card": (_edit(lambda d: _deal1(d)["phases"][1]["tricks"][0].__setitem__(0, "Zq")),
             "deal 1: field 'tricks' entry 0 card 0: 'Zq' is not a card"),
    "twice": (_edit(lambda d: _deal1(d)["phases"][1]["tricks"][1].__setitem__(
        0, _deal1(d)["phases"][1]["tricks"][0][0])), "deal 1: field 'tricks' entry 1: "),
    "short": (_edit(lambda d: _deal1(d)["phases"][1]["tricks"][0].pop()),
              "deal 1: field 'tricks' entry 0 holds 3 cards, not 4"),
    "renege": (None, "but could follow the suit led (a renege)"),
    "call-after": (_edit(lambda d: _deal1(d)["phases"][0]["calls"].append("Pass")), "deal 1: field 'calls' entry"),
    "dealer-stuck": (_edit(lambda d: _deal1(d)["phases"][0].update(calls=["Pass"] * 8)),
                     "deal 1: field 'calls' entry 7 (seat 2): the dealer passes in round two under stick the dealer"),
    "round-two-upsuit": (None, "the turned-down up-card's suit"),
}


def _renege(tmp_path) -> dict:
    """The bears with two cards of one seat swapped between tricks of deal 1 so that it fails to follow suit."""
    rec = next(r for r in read_egn(BEARS).records if r["hand"] == 1)
    seats = [s for s, _ in rec["plays"]]
    for i in range(20):
        for j in range(i + 4 - i % 4, 20):
            if seats[i] != seats[j] or i % 4 == 0 or j % 4 == 0:
                continue
            doc = _bears()
            t = _deal1(doc)["phases"][1]["tricks"]
            t[i // 4][i % 4], t[j // 4][j % 4] = t[j // 4][j % 4], t[i // 4][i % 4]
            path = tmp_path / "probe.egn"
            path.write_text(json.dumps(doc))
            try:
                read_egn(path)
            except EgnError as e:
                if "renege" in str(e.format_message()):
                    path.unlink()
                    return doc
    raise AssertionError("no renege found")


def test_bad_inputs_are_one_line(capsys, tmp_path):
    d1 = _deal1(_bears())
    for name, (doc, words) in BAD.items():
        if name == "renege":
            doc = _renege(tmp_path)
        if name == "round-two-upsuit":
            up = d1["initialState"]["upCard"][1]
            doc = _edit(lambda d: _deal1(d)["phases"][0].update(calls=["Pass"] * 4 + [up.lower()]))
        path = tmp_path / f"{name}.egn"
        path.write_bytes(doc if isinstance(doc, bytes) else json.dumps(doc).encode())
        before = listing(tmp_path)
        line = one_error(capsys, "replay", str(path))
        assert str(path) in line and words in line, (name, line)
        with pytest.raises(EgnError):
            read_egn(path)
        assert listing(tmp_path) == before
    line = one_error(capsys, "replay", str(tmp_path / "missing.egn"))
    assert line == f"bower: error: no EGN file {tmp_path / 'missing.egn'}"


def test_solve_reads_egn(capsys, tmp_path):
    out = tmp_path / "dd.jsonl"
    code, _, err = run(capsys, "solve", "--records", str(SCENARIO), "--out", str(out))
    assert code == 0, err
    recs = read_records(str(out))
    assert len(recs) == 1 and "dd" in recs[0]
    assert os.path.exists(str(out) + ".meta.json")
