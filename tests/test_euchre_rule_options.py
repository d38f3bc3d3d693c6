"""Euchre's rule options ``canadian`` (EGN's Canadian loner), ``discard_up`` (the dealer may discard the up-card),
``loner_march_score`` and ``loner_euchred_score`` (a lone maker's march, its euchre), ``fast_break`` (the
defenders take tricks 1 and 2, the makers 3 to 5: 0 to both sides) and ``four_trick_tokens`` (a rule of whole
games: a side's fourth token of 4-trick hands with partner is a point).

Exact crafted deals through the kernels, the plain-Python twin
(``tests/reference/euchre_play.py``) and the game API; the kernels against
the twin with each option on (hypothesis, fixed seeds); replay's refusals of
records that break them; EGN files with ``canadian``, with a dealer
burying the up-card, with ``loner_march_score: 5``, with ``fast_break: true`` and with ``four_trick_tokens: true``
(one game, replayed to the token's winning point), read and written back.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

import bower
from bower.sim import runner
from bower.sim.variants.euchre import game as eg
from bower.sim.variants.euchre.egn import EgnError, read_egn, ruleset_of, write_egn
from bower.sim.variants.euchre.hands import play_order
from tests.cli_run import one_error, run
from tests.euchre_cases import earns_token, order_of, twin_params
from tests.reference import euchre as eu
from tests.reference import euchre_play as ep

SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}


# dealer 0; position 2 (seat 2, the dealer's partner) orders the 9H up with an estimate below alone_min
CANADA = order_of({1: "9C TC 9D TD QS", 2: "JH AH KH 9S QC", 3: "KC AC KD AD KS", 4: "JC QD JS TS AS"},
                  "9H QH TH JD")
# dealer 0 holds five trumps; the 9H up-card is its weakest card
BURY = order_of({1: "9C TC 9D TD QS", 2: "KC AC KD AD KS", 3: "JC QD JS TS AS", 4: "JH JD AH KH QH"},
                "9H QC TH 9S")


# ---------------------------------------------------------------- exact cases


def test_canadian_forces_the_dealers_partner_alone():
    plain = play_order(CANADA, 0)
    assert plain["calls"] == [[1, "pass"], [2, "order"]] and plain["alone"] == [] and plain["points"] == {"0": 2,
                                                                                                           "1": 0}
    got = play_order(CANADA, 0, {"canadian": True})
    assert got["rules"]["canadian"] is True
    assert got["calls"] == [[1, "pass"], [2, "order"]] and got["alone"] == [2] and got["discard"] == "JC"
    assert got["points"] == {"0": 1, "1": 0}  # alone, 3 or 4 tricks: 1 point (with the partner it marched)
    assert got["plays"][0][0] == 1 and all(seat != 0 for seat, _ in got["plays"])  # the dealer sits out
    for rules in ({}, {"canadian": True}):
        assert ep.play_order(CANADA, 0, rules) == play_order(CANADA, 0, rules)
    # the rules reference refuses the partner's hand with its partner
    with pytest.raises(ValueError, match="must play alone"):
        eu.play_hand([eu.card_from_str(c) for c in CANADA], 0, ["pass", "order"], discard="JC", maker_alone=False,
                     rules={"canadian": True})


def test_canadian_leaves_other_makers_and_round_two_free():
    for h, order in enumerate(ep.orders(5, 0, 400)):
        dealer = h % 4
        rec = play_order([c.index for c in order], dealer, {"canadian": True}, "never-alone")
        if rec["maker"] is None:
            continue
        forced = rec["maker"] == (dealer + 2) % 4 and rec["calls"][-1][1] == "order"
        assert (rec["maker"] in rec["alone"]) == forced, rec


def test_the_dealer_buries_the_up_card_when_it_is_the_best_discard():
    assert play_order(BURY, 0)["discard"] == "QH"  # today: the up-card may not be discarded
    got = play_order(BURY, 0, {"discard_up": True})
    assert got["discard"] == "9H" and got["rules"]["discard_up"] is True
    assert "9H" not in [c for _, c in got["plays"]] and "QH" in [c for s, c in got["plays"] if s == 0]
    for rules in ({}, {"discard_up": True}):
        assert ep.play_order(BURY, 0, rules) == play_order(BURY, 0, rules)
    with pytest.raises(ValueError, match="may not discard the up-card"):
        eu.take_up("JH JD AH KH QH".split(), "9H", "9H")
    assert eu.take_up("JH JD AH KH QH".split(), "9H", "9H", {"discard_up": True})[1] == eu.card_from_str("9H")


def test_the_game_api_under_both_options():
    game = bower.game("euchre", rules={"canadian": True, "discard_up": True})
    state = game.new_initial_state()
    state.apply_action(0)
    for c in CANADA:
        state.apply_action(bower.sim.cards.parse_card(c))
    state.apply_action(eg.PASS)
    state.apply_action(eg.ORDER)
    assert state.current_player() == 0 and state.legal_actions() == sorted(
        bower.sim.cards.parse_card(c) for c in "JC QD JS TS AS 9H".split())  # six: the up-card too
    state.apply_action(bower.sim.cards.parse_card("JC"))
    assert state.phase == eg.PLAY and state.maker_alone  # canadian: no decision node, alone
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[0])
    assert state.to_record()["alone"] == [2]
    with pytest.raises(bower.sim.game.GameError):  # without discard_up the up-card is no discard
        s = bower.game("euchre").new_initial_state()
        s.apply_action(0)
        for c in BURY:
            s.apply_action(bower.sim.cards.parse_card(c))
        for _ in range(3):
            s.apply_action(eg.PASS)
        s.apply_action(eg.ORDER)
        s.apply_action(bower.sim.cards.parse_card("9H"))


# ---------------------------------------------------------------- the kernels against the twin, each option on

ON = [{"canadian": True}, {"discard_up": True}, {"canadian": True, "discard_up": True, "allow_lone_defender": True,
                                                 "stick_the_dealer": True},
      {"loner_march_score": 5, "loner_euchred_score": 3, "allow_lone_defender": True, "fast_break": True},
      {"loner_march_score": 1, "loner_euchred_score": 8, "loner_lead": "loner", "canadian": True},
      {"fast_break": True}]
STRATEGIES = st.one_of(st.sampled_from(["default", "random", "aggressive", "cautious"]),
                       st.lists(st.sampled_from(["default", "random", "aggressive"]), min_size=4, max_size=4))


@seed(35)
@settings(max_examples=30, **SETTINGS)
@given(order=st.permutations(range(24)), dealer=st.integers(0, 3), rules=st.sampled_from(ON), strategy=STRATEGIES,
       run_seed=st.integers(0, 2**32))
def test_play_order_twin_with_each_option_on(order, dealer, rules, strategy, run_seed):
    kernel = play_order(list(order), dealer, rules, strategy, run_seed)
    assert kernel == ep.play_order(list(order), dealer, rules, twin_params(strategy), run_seed)


@seed(36)
@settings(max_examples=8, **SETTINGS)
@given(run_seed=st.integers(0, 2**40), start=st.integers(0, 5000), rules=st.sampled_from(ON), strategy=STRATEGIES)
def test_hand_records_twin_with_each_option_on(run_seed, start, rules, strategy):
    kernel = runner.hand_records(run_seed, start, 40, rules, strategy, variant="euchre")
    assert kernel == ep.hand_records(run_seed, start, 40, rules, twin_params(strategy))


def test_the_options_change_hands_and_the_defaults_do_not():
    base = runner.hand_records(7, 0, 400, {}, "random", variant="euchre")
    off = runner.hand_records(7, 0, 400, {"canadian": False, "discard_up": False}, "random", variant="euchre")
    assert base == off
    on = runner.hand_records(7, 0, 400, {"canadian": True, "discard_up": True}, "random", variant="euchre")
    assert any(r["discard"] is not None and r["discard"] == r["upcard"] for r in on)
    assert any(r["maker"] == (r["dealer"] + 2) % 4 and r["calls"][-1][1] == "order" for r in on)
    assert all(r["maker"] in r["alone"] for r in on
               if r["maker"] == (r["dealer"] + 2) % 4 and r["calls"][-1][1] == "order")


# ---------------------------------------------------------------- replay refuses what the rules forbid


def _write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_replay_refuses_a_partner_with_partner_under_canadian(capsys, tmp_path):
    rec = play_order(CANADA, 0, {"canadian": True})
    good = tmp_path / "good.jsonl"
    _write(good, [rec])
    code, _, err = run(capsys, "replay", str(good))
    assert code == 0, err
    bad = tmp_path / "bad.jsonl"
    _write(bad, [dict(rec, alone=[])])
    line = one_error(capsys, "replay", str(bad))
    assert "field 'alone'" in line and "rule canadian" in line and "seat 2" in line


def test_replay_refuses_a_buried_up_card_without_discard_up(capsys, tmp_path):
    rec = play_order(BURY, 0, {"discard_up": True})
    good = tmp_path / "good.jsonl"
    _write(good, [rec])
    code, _, err = run(capsys, "replay", str(good))
    assert code == 0, err
    bad = tmp_path / "bad.jsonl"
    _write(bad, [dict(rec, rules=dict(rec["rules"], discard_up=False))])
    line = one_error(capsys, "replay", str(bad))
    assert "field 'discard' is the up-card 9H" in line and "discard_up" in line


# ---------------------------------------------------------------- EGN: canadian and a buried up-card


def test_egn_canadian_reads_and_writes_back(tmp_path):
    recs = runner.hand_records(3, 0, 60, {"canadian": True}, "default", variant="euchre")
    assert any(r["maker"] == (r["dealer"] + 2) % 4 and r["maker"] in r["alone"] for r in recs)
    path = tmp_path / "c.egn"
    write_egn(path, recs)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["metadata"]["ruleset"]["canadian"] is True
    back = read_egn(path)
    assert back.records == recs and back.meta["rules"]["canadian"] is True
    # the dealer's partner who ordered up, with partner: refused in one line naming the deal and the field
    k = next(i for i, r in enumerate(recs) if r["maker"] == (r["dealer"] + 2) % 4 and r["calls"][-1][1] == "order")
    bid = next(ph for ph in doc["deals"][k]["phases"] if ph["type"] == "EUCHRE_BIDDING")
    bid["isAlone"] = False
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(EgnError, match=rf"deal {doc['deals'][k]['dealNumber']}: field 'isAlone'.*canadian"):
        read_egn(path)


def test_egn_buried_up_card_reads_as_discard_up_and_writes_back(tmp_path):
    rec = play_order(BURY, 0, {"discard_up": True})
    recs = [rec] + runner.hand_records(4, 1, 20, {"discard_up": True}, "default", variant="euchre")
    path = tmp_path / "b.egn"
    write_egn(path, recs)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert "discard_up" not in doc["metadata"]["ruleset"]  # EGN has no key: its base rules allow any discard
    bid = next(ph for ph in doc["deals"][0]["phases"] if ph["type"] == "EUCHRE_BIDDING")
    assert bid["discard"] == "9h"
    back = read_egn(path)
    assert back.meta["rules"]["discard_up"] is True and back.records == recs
    # the same file without its discard: the up-card never played is the buried one
    del bid["discard"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    again = read_egn(path)
    assert again.records[0]["discard"] == "9H" and again.records[0]["deal"] == rec["deal"]
    del doc["deals"][0]["initialState"]["playerCards"]  # and without the hands: each seat's cards played
    path.write_text(json.dumps(doc), encoding="utf-8")
    third = read_egn(path)  # the buried up-card still shows (five tricks never play it); the deal itself is left
    assert third.meta["rules"]["discard_up"] is True  # out: the lone dealer's partner's cards are not known
    assert third.left_out[0] == (0, "seat 2 sits out and its cards are not given")
    assert ruleset_of({"canadian": True, "discard_up": True})["canadian"] is True


def test_egn_ruleset_carries_the_exchange_options_and_refuses_what_bower_does_not_play(tmp_path):
    rules = {"farmers": True, "go_under": True, "partners_best": True}
    recs = runner.hand_records(3, 0, 5, rules, "default", variant="euchre")
    path = tmp_path / "f.egn"
    write_egn(path, recs)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert {k: doc["metadata"]["ruleset"][k] for k in rules} == rules
    assert {k: read_egn(path).meta["rules"][k] for k in rules} == rules
    doc["metadata"]["ruleset"]["joker"] = True  # (the exchanges: tests/test_euchre_kitty_exchange.py, _partners_best)
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(EgnError, match="ruleset joker = true is not a rule bower plays"):
        read_egn(path)


# ---------------------------------------------------------------- the other players' model without discard_up

# SHA-256 of the records (int64 rows) of 60 hands, seed 4, with seats that play PIMC cards on the auction's
# inference (and search their calls), written at cad9d1b, before the model learned discard_up: without the
# option the worlds and their weights are what they were.
MODEL_DIGESTS = {
    "infer": "104630c83f9c2661a983f6d70125e8031a38f6d871de926475d1d99c9d2a1d1f",
    "bid": "d7a1e0b840b93b50a1debe42eb8ecb30c05a1329e7ab3652aa2eea9aed9ef8ea",
}


@pytest.mark.parametrize("name", sorted(MODEL_DIGESTS))
def test_the_inference_without_discard_up_gives_the_same_records(name):
    import hashlib

    import numpy as np

    from bower.sim.variants import get_variant

    presets = get_variant("euchre").presets
    infer = {**presets["pimc-fast"], "pimc_infer": 1.0}
    bid = {**infer, "pimc_bid": 1.0}
    rules, strategies = {"infer": ({}, [infer, "default", "random", "default"]),
                         "bid": ({"stick_the_dealer": True, "allow_lone_defender": True},
                                 [bid, "random", infer, "default"])}[name]
    out = []
    runner.rows_run("euchre", 60, 4, 1, rules, strategies, out.append)
    from bower.kernels.euchre.hand import R_EXCHANGE, R_GIVEN, R_LONER_DISCARD, R_PASSED

    rows = np.concatenate(out)
    # the cells added after the digests (farmers' and go_under's exchange, partners_best's): none under these rules
    assert (rows[:, R_EXCHANGE] == -1).all() and (rows[:, R_GIVEN] == 0).all()
    assert (rows[:, R_PASSED] == -1).all() and (rows[:, R_LONER_DISCARD] == -1).all()
    rows = np.ascontiguousarray(rows[:, :R_EXCHANGE], np.int64)  # the cells of the rows of cad9d1b: the row as it was
    assert hashlib.sha256(rows.tobytes()).hexdigest() == MODEL_DIGESTS[name]


# ---------------------------------------------------------------- discard_up carried by the files written under it


def test_a_file_written_under_discard_up_says_so_though_no_dealer_buried(capsys, tmp_path):
    # EGN's ruleset has no discard_up key (the schema allows no other): bower's note in the description carries it
    import jsonschema

    from bower.sim.records import read_meta, read_records
    from bower.sim.variants.euchre.egn import DISCARD_UP_NOTE, egn_document

    schema = json.loads((Path(__file__).parent / "data" / "egn" / "egn-schema-v1.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft7Validator(schema)
    for on in (True, False):
        paths = {ext: tmp_path / f"{on}.{ext}" for ext in ("egn", "jsonl", "parquet")}
        for path in paths.values():
            code, _, err = run(capsys, "simulate", "--variant", "euchre", "--hands", "30", "--seed", "3", "--rule",
                               f"discard_up={str(on).lower()}", "--records", str(path))
            assert code == 0, err
        egn = read_egn(paths["egn"])
        assert not any(r["discard"] == r["upcard"] for r in egn.records)  # no dealer buried it: the default's way
        assert egn.meta["rules"]["discard_up"] is on and all(r["rules"]["discard_up"] is on for r in egn.records)
        doc = json.loads(paths["egn"].read_text(encoding="utf-8"))
        assert (DISCARD_UP_NOTE in doc["metadata"]["description"]) is on
        assert [e.message for e in validator.iter_errors(doc)] == []
        for ext in ("jsonl", "parquet"):  # the records' header and every record
            assert read_meta(paths[ext])["rules"]["discard_up"] is on
            assert all(r["rules"]["discard_up"] is on for r in read_records(paths[ext]))
    # a description given (EGN -> records -> EGN) keeps the note, cut to the schema's 1024 characters
    egn = read_egn(tmp_path / "True.egn")
    doc = egn_document(egn.records, {**egn.meta, "description": "x" * 1024})
    assert len(doc["metadata"]["description"]) == 1024 and doc["metadata"]["description"].endswith(DISCARD_UP_NOTE)
    assert egn_document(egn.records, egn.meta)["metadata"]["description"] == egn.meta["description"]


# ---------------------------------------------------------------- deals cut short before the fifth trick


def test_a_deal_cut_short_is_left_out_naming_the_field(capsys, tmp_path):
    # EGN records no result of a deal (its points come from five tricks): a deal whose play stops early (a claim)
    # has no points to score; it is left out, one note naming the file, the deal and the field, the others read
    path = tmp_path / "hands.egn"
    code, _, err = run(capsys, "simulate", "--variant", "euchre", "--hands", "6", "--seed", "3", "--records",
                       str(path))
    assert code == 0, err
    doc = json.loads(path.read_text(encoding="utf-8"))
    played = [i for i, d in enumerate(doc["deals"]) if len(d["phases"]) > 1 and d["phases"][1].get("tricks")]
    a, b = played[0], played[1]
    doc["deals"][a]["phases"][1]["tricks"] = doc["deals"][a]["phases"][1]["tricks"][:3]  # stops after 3 tricks
    doc["deals"][b]["phases"][1]["tricks"][4] = doc["deals"][b]["phases"][1]["tricks"][4][:2]  # in trick 5
    cut = tmp_path / "cut.egn"
    cut.write_text(json.dumps(doc), encoding="utf-8")
    egn = read_egn(cut)
    assert [r["hand"] for r in egn.records] == [d["dealNumber"] for i, d in enumerate(doc["deals"]) if i not in (a, b)]
    assert egn.left_out == [
        (doc["deals"][a]["dealNumber"], "field 'tricks' stops after 3 trick(s); EGN records no result, so its points "
                                        "are not known"),
        (doc["deals"][b]["dealNumber"], "field 'tricks' stops in trick 5; EGN records no result, so its points are "
                                        "not known")]
    code, out, err = run(capsys, "replay", str(cut))
    assert code == 0
    assert f"bower: note: {cut} deal {doc['deals'][a]['dealNumber']} left out: field 'tricks' stops after 3" in err
    assert f"{len(doc['deals']) - 2} hand(s) replayed" in out


# ---------------------------------------------------------------- loner_march_score and loner_euchred_score

# dealer 0; position 1 (seat 1) holds the five highest hearts with the 9H up: it orders up alone and marches
MARCH = order_of({1: "JH JD AH KH QH", 2: "9C TC 9D TD QS", 3: "KC AC KD AD KS", 4: "JC QD JS TS AS"},
                 "9H QC TH 9S")
SCORES = {"loner_march_score": 5, "loner_euchred_score": 3}


def test_a_lone_march_and_a_lone_euchre_score_by_the_rule():
    plain = play_order(MARCH, 0)
    assert plain["alone"] == [1] and plain["points"] == {"0": 0, "1": 4}
    got = play_order(MARCH, 0, SCORES)
    assert got["rules"]["loner_march_score"] == 5 and got["points"] == {"0": 0, "1": 5}
    assert {k: v for k, v in got.items() if k not in ("rules", "points")} == {
        k: v for k, v in plain.items() if k not in ("rules", "points")}  # the same hand, other points
    # position 1 forced to order alone on no heart: euchred, the defenders score loner_euchred_score
    weak = order_of({1: "9C TC 9D TD QS", 2: "JH JD AH KH QH", 3: "KC AC KD AD KS", 4: "JC QD JS TS AS"},
                    "9H QC TH 9S")
    force = (1, 0, 1, 1)  # seat 1 at its first call orders up, alone
    assert play_order(weak, 0, {}, force=force)["points"] == {"0": 2, "1": 0}
    euchred = play_order(weak, 0, SCORES, force=force)
    assert euchred["alone"] == [1] and euchred["points"] == {"0": 3, "1": 0}
    for rules in ({}, SCORES, {"loner_march_score": 1, "loner_euchred_score": 8}):
        assert ep.play_order(MARCH, 0, rules) == play_order(MARCH, 0, rules)
    # a lone defender's euchre stays 4 whatever loner_euchred_score says; every score through kernel and twin
    from bower.sim.variants.euchre.hands import score_hand
    for rules in ({}, SCORES, {"loner_march_score": 8, "loner_euchred_score": 1}):
        for t in range(6):
            for alone in (False, True):
                for lone in (False, True):
                    assert score_hand(t, alone, lone, rules) == eu.score_hand(t, alone, lone, rules)
    assert score_hand(0, True, True, SCORES) == (0, 4) and score_hand(5, True, False, SCORES) == (5, 0)
    assert score_hand(2, True, False, SCORES) == (0, 3) and score_hand(2, False, False, SCORES) == (0, 2)


def test_the_game_api_scores_by_the_rule():
    for rules, want in (({}, 4.0), (SCORES, 5.0)):
        state = bower.game("euchre", rules=rules).new_initial_state()
        state.apply_action(0)
        for c in MARCH:
            state.apply_action(bower.sim.cards.parse_card(c))
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(eg.ALONE if eg.ALONE in legal and state.player == 1 else
                               eg.ORDER if eg.ORDER in legal and state.player == 1 else legal[0])
        assert state.returns() == [0.0, want, 0.0, want]


def test_scores_out_of_bounds_are_refused_in_one_line(capsys):
    for arg in ("loner_march_score=9", "loner_euchred_score=0", "loner_march_score=five"):
        line = one_error(capsys, "simulate", "--variant", "euchre", "--hands", "10", "--rule", arg)
        assert "bad value" in line and arg.split("=")[0] in line and "allowed: " in line


def test_replay_scores_by_the_rule_and_refuses_other_points(capsys, tmp_path):
    rec = play_order(MARCH, 0, SCORES)
    good = tmp_path / "good.jsonl"
    _write(good, [rec])
    code, out, err = run(capsys, "replay", str(good))
    assert code == 0 and "side 1 (seats 1 & 3) +5" in out and "differ" not in out, err
    bad = tmp_path / "bad.jsonl"
    _write(bad, [dict(rec, rules=dict(rec["rules"], loner_march_score=4))])  # the record's 5 points: not the rule's
    code, out, err = run(capsys, "replay", str(bad))
    assert code == 0 and "side 1 (seats 1 & 3) +4" in out, err
    assert "the record says: points side 0 (seats 0 & 2) 0, side 1 (seats 1 & 3) +5" in out
    assert "the record's own tricks or points differ from the replay on 1 hand(s)" in out


def test_egn_loner_march_score_reads_replays_and_writes_back(tmp_path):
    from bower.sim.replay import replay_file

    recs = [play_order(MARCH, 0)] + runner.hand_records(3, 1, 10, {}, "default", variant="euchre")
    path = tmp_path / "m.egn"
    write_egn(path, recs)
    doc = json.loads(path.read_text(encoding="utf-8"))
    ruleset = doc["metadata"]["ruleset"]
    assert ruleset["loner_march_score"] == 4 and ruleset["loner_euchred_score"] == 2
    doc["metadata"]["ruleset"]["loner_march_score"] = 5  # as a table playing a lone march for 5 writes it
    path.write_text(json.dumps(doc), encoding="utf-8")
    egn = read_egn(path)
    assert egn.meta["rules"]["loner_march_score"] == 5 and egn.records[0]["points"] == {"0": 0, "1": 5}
    assert [r["points"] for r in egn.records[1:]] == [r["points"] for r in recs[1:]]  # no other lone march there
    got = list(replay_file(str(path)))
    assert got[0]["points"] == {"0": 0, "1": 5} and all(g.get("matches") is not False for g in got)
    back = tmp_path / "back.egn"
    write_egn(back, egn.records, egn.meta)
    again = json.loads(back.read_text(encoding="utf-8"))
    assert again["metadata"]["ruleset"]["loner_march_score"] == 5 and read_egn(back).records == egn.records
    for value in (9, 0, "5"):  # outside 1..8, or not a number: refused naming the key
        doc["metadata"]["ruleset"]["loner_march_score"] = value
        path.write_text(json.dumps(doc), encoding="utf-8")
        with pytest.raises(EgnError, match="ruleset loner_march_score = .* is not a rule bower plays"):
            read_egn(path)


# ---------------------------------------------------------------- fast_break

# dealer 0; seat 1 orders the QS up (the default strategy), the dealer's side takes tricks 1 and 2, seat 1's side
# tricks 3, 4 and 5: a fast break
FAST = order_of({1: "JC 9S KD KH AH", 2: "KC JS KS 9H QH", 3: "TC TS AS TH JH", 4: "QC AC 9D TD QD"}, "QS 9C JD AD")
# dealer 3; seat 3 (the dealer) takes the AD up and plays alone: seats 0 and 2 take tricks 1 and 2, the dealer 3 to 5
FAST_ALONE = order_of({1: "TC JD 9H TH QH", 2: "QC AC 9S KS 9D", 3: "9C JC KC QD AH", 4: "QS TD KD JH KH"},
                      "AD AS TS JS")
BREAK = {"fast_break": True}


def _api_returns(order, dealer, rules, rec):
    """The game API's ``returns()`` after the deal ``order`` and the record's calls, alone, discard and plays."""
    state = bower.game("euchre", rules=rules).new_initial_state()
    state.apply_action(dealer)
    for c in order:
        state.apply_action(bower.sim.cards.parse_card(c))
    calls, plays = iter(rec["calls"]), iter(rec["plays"])
    while not state.is_terminal():
        if state.phase == eg.AUCTION:
            call = next(calls)[1]
            a = eg.PASS if call == "pass" else eg.ORDER if call == "order" else eg.NAME + eg.SUITS.index(call)
        elif state.phase == eg.MAKER_ALONE:
            a = eg.ALONE if rec["maker"] in rec["alone"] else eg.WITH_PARTNER
        elif state.phase == eg.DISCARD:
            a = bower.sim.cards.parse_card(rec["discard"])
        else:
            a = bower.sim.cards.parse_card(next(plays)[1])
        state.apply_action(a)
    return state.returns()


def test_a_fast_break_scores_nothing_alone_or_not():
    for order, dealer, maker, alone in ((FAST, 0, 1, []), (FAST_ALONE, 3, 3, [3])):
        plain = play_order(order, dealer)
        side = str(maker % 2)
        assert plain["maker"] == maker and plain["alone"] == alone and plain["points"][side] == 1
        n = 4 - len(alone)
        assert [plain["plays"][k * n][0] % 2 for k in (1, 2)] == [1 - maker % 2] * 2  # defenders led 2 and 3
        assert plain["tricks"][str(maker)] + plain["tricks"][str((maker + 2) % 4)] == 3
        got = play_order(order, dealer, BREAK)
        assert got["rules"]["fast_break"] is True and got["points"] == {"0": 0, "1": 0}
        assert {k: v for k, v in got.items() if k not in ("rules", "points")} == {
            k: v for k, v in plain.items() if k not in ("rules", "points")}  # the same hand, no points
        for rules in ({}, BREAK):
            assert ep.play_order(order, dealer, rules) == play_order(order, dealer, rules)
            want = (got if rules else plain)["points"]
            assert _api_returns(order, dealer, rules, plain) == [float(want[str(s % 2)]) for s in range(4)]
    from bower.sim.variants.euchre.hands import score_hand
    for rules in ({}, BREAK, dict(BREAK, loner_march_score=6)):
        for t in range(6):
            for alone in (False, True):
                for lone in (False, True):
                    for broken in (False, True):
                        assert score_hand(t, alone, lone, rules, broken) == eu.score_hand(t, alone, lone, rules,
                                                                                          broken)
    assert score_hand(3, True, True, BREAK, True) == (0, 0) and score_hand(4, False, False, BREAK, True) == (1, 0)
    assert score_hand(3, False, False, {}, True) == (1, 0) and score_hand(2, False, False, BREAK, True) == (0, 2)


def test_fast_break_changes_points_only():
    base = runner.hand_records(4, 0, 300, {}, "default", variant="euchre")
    fast = runner.hand_records(4, 0, 300, BREAK, "default", variant="euchre")
    broke = 0
    for a, b in zip(base, fast):
        assert {k: v for k, v in a.items() if k not in ("rules", "points")} == {
            k: v for k, v in b.items() if k not in ("rules", "points")}
        if a["points"] != b["points"]:
            broke += 1
            side = a["maker"] % 2
            assert a["points"][str(side)] == 1 and b["points"] == {"0": 0, "1": 0}
            assert a["tricks"][str(side)] + a["tricks"][str(side + 2)] == 3
    assert broke > 0


def test_fast_break_bad_value_is_refused_in_one_line(capsys):
    line = one_error(capsys, "simulate", "--variant", "euchre", "--hands", "10", "--rule", "fast_break=maybe")
    assert "bad value" in line and "fast_break" in line


def test_replay_scores_a_fast_break_by_the_rule(capsys, tmp_path):
    rec = play_order(FAST, 0, BREAK)
    good = tmp_path / "good.jsonl"
    _write(good, [rec])
    code, out, err = run(capsys, "replay", str(good))
    assert code == 0 and "differ" not in out, (out, err)
    bad = tmp_path / "bad.jsonl"
    _write(bad, [dict(rec, rules=dict(rec["rules"], fast_break=False))])  # the record's 0-0: not the rule's
    code, out, err = run(capsys, "replay", str(bad))
    assert code == 0 and "side 1 (seats 1 & 3) +1" in out, err
    assert "the record's own tricks or points differ from the replay on 1 hand(s)" in out


def test_egn_fast_break_reads_replays_and_writes_back(tmp_path):
    from bower.sim.replay import replay_file

    recs = [play_order(FAST, 0)] + runner.hand_records(3, 1, 10, {}, "default", variant="euchre")
    path = tmp_path / "f.egn"
    write_egn(path, recs)
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["metadata"]["ruleset"]["fast_break"] is False
    doc["metadata"]["ruleset"]["fast_break"] = True  # as a table playing the fast break writes it
    path.write_text(json.dumps(doc), encoding="utf-8")
    egn = read_egn(path)
    assert egn.meta["rules"]["fast_break"] is True and egn.records[0]["points"] == {"0": 0, "1": 0}
    for r, was in zip(egn.records[1:], recs[1:]):
        side = None if was["maker"] is None else was["maker"] % 2
        if r["points"] != was["points"]:  # another fast break among them: 1 point before, none now
            assert r["points"] == {"0": 0, "1": 0} and was["points"][str(side)] == 1
    got = list(replay_file(str(path)))
    assert got[0]["points"] == {"0": 0, "1": 0} and all(g.get("matches") is not False for g in got)
    back = tmp_path / "back.egn"
    write_egn(back, egn.records, egn.meta)
    again = json.loads(back.read_text(encoding="utf-8"))
    assert again["metadata"]["ruleset"]["fast_break"] is True and read_egn(back).records == egn.records
    doc["metadata"]["ruleset"]["fast_break"] = 1  # not a boolean: refused naming the key
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(EgnError, match="ruleset fast_break = 1 is not a rule bower plays"):
        read_egn(path)


# ---------------------------------------------------------------- four_trick_tokens (a rule of whole games)

TOKENS = {"four_trick_tokens": True}
FOUR_SEATS = ((0, 0, 0, 0),)


def test_a_token_step_in_the_kernel_twin_and_replay_scorer_alike():
    import numpy as np

    from bower.kernels.euchre import drivers as ed
    from bower.kernels.euchre import hand as ek
    from bower.sim.variants.euchre.hands import rules_vector
    from bower.sim.variants.euchre.scoring import game_bonus

    # (maker, alone seats, maker side's tricks): 4 with partner earns; alone, 3, 5, thrown in, a lone defender's
    # side do not (a lone defender beside makers with partner: the makers still earn)
    hands = [(0, [], 4), (1, [], 4), (2, [], 4), (2, [2], 4), (0, [], 3), (0, [], 5), (None, [], 0), (2, [1], 4),
             (0, [], 4), (3, [], 4), (0, [], 4), (1, [], 4)]
    for rules in (TOKENS, {}):
        vec = rules_vector(rules)
        k_tokens, k_points = np.zeros(2, np.int64), np.zeros(2, np.int64)
        t_tokens, r_tokens = [0, 0], None
        turned = []
        for maker, alone, taken in hands:
            rec = np.zeros(ek.R_WIDTH, np.int64)
            rec[ek.R_MAKER] = -1 if maker is None else maker
            rec[ek.R_ALONE] = sum(1 << s for s in alone)
            if maker is not None:
                rec[ek.R_TRICKS + maker % 2] = taken
            side, extra = ed.token_step(rec, vec, k_tokens, k_points)
            t_tokens, t_extra = eu.token_step(t_tokens, maker, maker in alone, taken, rules)
            tricks = {str(s): 0 for s in range(4)}
            if maker is not None:
                tricks[str(maker % 2)] = taken
            r_extra, r_tokens = game_bonus({"maker": maker, "alone": alone, "tricks": tricks}, rules, r_tokens)
            assert k_tokens.tolist() == t_tokens == [r_tokens["0"], r_tokens["1"]]
            assert t_extra == [r_extra["0"], r_extra["1"]] and extra == sum(t_extra)
            turned.append(t_extra)
        # side 0's tokens: hands 1, 3, 8 (seat 2 beside a lone defender), 9: the ninth hand turns them in
        want = [[0, 0]] * 8 + [[1, 0]] + [[0, 0]] * 3 if rules else [[0, 0]] * 12
        assert turned == want and k_points.tolist() == [sum(t[0] for t in want), 0]
        assert k_tokens.tolist() == ([1, 3] if rules else [0, 0])


def test_games_under_tokens_kernel_against_twin_and_an_independent_count():
    kernel = runner.game_results(5, 0, 128, TOKENS, assignments=FOUR_SEATS, variant="euchre")
    turned = [g for g in kernel if any(g["token_points"])]
    decided = [g for g in turned if g["scores"][g["winner"]] - g["token_points"][g["winner"]] < 10]
    assert len(turned) >= 5 and decided  # some games' tokens are turned in, and some win a game by their point
    for g in decided[:2] + turned[:2]:
        details = ep.game_details(5, g["set"], 1, TOKENS, keep_records=True)[0]
        assert {k: details[k] for k in g} == g
        # the count again, from the hands' records alone: a side's fourth token is its point on that hand
        scores, tokens, won_at = [0, 0], [0, 0], None
        for n, rec in enumerate(details["records"], 1):
            for side in (0, 1):
                scores[side] += rec["points"][str(side)]
            if earns_token(rec):
                side = rec["maker"] % 2
                tokens[side] += 1
                scores[side] += tokens[side] % 4 == 0
            if max(scores) >= 10:
                won_at = n
                break
        assert won_at == g["hands"] and scores == g["scores"] and [t // 4 for t in tokens] == g["token_points"]


def test_default_games_are_unchanged_and_say_nothing_of_tokens():
    base = runner.game_results(5, 0, 64, None, assignments=FOUR_SEATS, variant="euchre")
    assert base == runner.game_results(5, 0, 64, {"four_trick_tokens": False}, assignments=FOUR_SEATS,
                                       variant="euchre")
    assert all("token_points" not in g for g in base)
    on = runner.game_results(5, 0, 64, TOKENS, assignments=FOUR_SEATS, variant="euchre")
    # the same hands: a game under tokens ends as the default one or sooner, by a point of tokens
    for b, t in zip(base, on):
        if not any(t["token_points"]):
            assert {k: t[k] for k in b} == b
        else:
            assert t["hands"] <= b["hands"]
    off = runner.simulate_games("euchre", 640, 3, 1, None)
    assert not {"tokens_earned", "token_points", "token_points_per_game"} & set(off)
    tok = runner.simulate_games("euchre", 640, 3, 1, TOKENS)
    assert tok["tokens_earned"] > 4 * tok["token_points"] > 0
    assert tok["token_points_per_game"] == tok["token_points"] / 640 and tok["rules"]["four_trick_tokens"] is True


def test_simulate_and_experiment_say_the_tokens(capsys):
    code, out, err = run(capsys, "simulate", "--variant", "euchre", "--games", "200", "--seed", "4", "--rule",
                         "four_trick_tokens=true")
    assert code == 0 and "four_trick_tokens: " in out and "tokens earned" in out, err
    code, out, err = run(capsys, "experiment", "default", "aggressive", "--variant", "euchre", "--games", "64",
                         "--seed", "4", "--rule", "four_trick_tokens=true", "--json")
    got = json.loads(out)
    assert code == 0 and got["rules"]["four_trick_tokens"] is True and got["tokens_earned"] > 0, err
    line = one_error(capsys, "simulate", "--variant", "euchre", "--games", "10", "--rule", "four_trick_tokens=2")
    assert "bad value" in line and "four_trick_tokens" in line


def _token_game(tmp_path, initial):
    """An EGN game of four deals side 0 makes with partner taking exactly 4 tricks, from ``initial``."""
    recs = runner.hand_records(3, 0, 200, {}, "default", variant="euchre")
    four = [dict(r, rules=dict(r["rules"], four_trick_tokens=True), game="tokens")
            for r in recs if earns_token(r) and r["maker"] % 2 == 0][:4]
    assert len(four) == 4 and all(r["points"] == {"0": 1, "1": 0} for r in four)
    path = tmp_path / "tokens.egn"
    write_egn(path, four, {"initialScore": list(initial), "title": "tokens"})
    return path, four


def test_egn_tokens_game_replays_to_the_tokens_point(capsys, tmp_path):
    from bower.sim.replay import replay_file

    path, four = _token_game(tmp_path, [5, 3])
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["metadata"]["ruleset"]["four_trick_tokens"] is True and doc["metadata"]["initialScore"] == [5, 3]
    egn = read_egn(path)
    assert egn.meta["rules"]["four_trick_tokens"] is True
    assert [r["start"] for r in egn.records] == [{"0": 5 + k, "1": 3} for k in range(4)]
    assert [r["points"] for r in egn.records] == [r["points"] for r in four]  # a deal's points are the hand's
    got = list(replay_file(str(path)))
    # 5 + 4 hands' points = 9; the fourth token's point makes 10 on the fourth deal: side 0 wins there
    assert [g["scores"] for g in got] == [{"0": 6, "1": 3}, {"0": 7, "1": 3}, {"0": 8, "1": 3}, {"0": 10, "1": 3}]
    assert [g["tokens"] for g in got] == [{"0": 1, "1": 0}, {"0": 2, "1": 0}, {"0": 3, "1": 0}, {"0": 0, "1": 0}]
    assert [g["token_points"]["0"] for g in got] == [0, 0, 0, 1] and got[-1]["winner"] == 0
    assert all(g.get("matches") is not False for g in got)
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0 and "won by side 0" in out and "4 tokens turned in: side 0 +1" in out, err
    # --start in place of initialScore: the tokens' point counts from there as well
    code, out, err = run(capsys, "replay", str(path), "--start", "2,0", "--json")
    last = json.loads(out.splitlines()[-1])
    assert code == 0 and last["scores"] == {"0": 7, "1": 0} and last["winner"] is None, err
    # the same file without the rule: no token, no winner at 9
    doc["metadata"]["ruleset"]["four_trick_tokens"] = False
    plain = tmp_path / "plain.egn"
    plain.write_text(json.dumps(doc), encoding="utf-8")
    assert [g["scores"]["0"] for g in replay_file(str(plain))] == [6, 7, 8, 9]
    # read and written back: the key and the starts as read
    back = tmp_path / "back.egn"
    write_egn(back, egn.records, egn.meta)
    again = json.loads(back.read_text(encoding="utf-8"))
    assert again["metadata"]["ruleset"]["four_trick_tokens"] is True and read_egn(back).records == egn.records
    doc["metadata"]["ruleset"]["four_trick_tokens"] = "yes"  # not a boolean: refused naming the key
    plain.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(EgnError, match="ruleset four_trick_tokens = \"yes\" is not a rule bower plays"):
        read_egn(plain)


def test_python_bots_games_count_the_tokens(capsys):
    # the same deals and the same deterministic players: games under tokens end on the same hand or sooner
    bot = Path(__file__).resolve().parents[1] / "examples" / "bots" / "high_card.py"
    args = ("experiment", f"{bot}:HighCard", "default", "--variant", "euchre", "--games", "100",
            "--seed", "0", "--json")
    code, out, err = run(capsys, *args)
    plain = json.loads(out)
    code2, out2, err2 = run(capsys, *args, "--rule", "four_trick_tokens=true")
    tokens = json.loads(out2)
    assert code == code2 == 0 and tokens["rules"]["four_trick_tokens"] is True, (err, err2)
    assert tokens["hands"] < plain["hands"]
