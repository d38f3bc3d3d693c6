"""Euchre's rule option ``partners_best`` (EGN's call for best: a lone maker's partner passes it one card face
down, the loner then discards one).

Exact crafted deals through the kernels and the plain-Python twin
(``tests/reference/euchre_play.py``): a lone march the pass makes, the
``canadian`` loner getting the dealer's best (the up-card), a lone defender
exchanging nothing; the kernels against the twin with the option on
(hypothesis, fixed seeds, random players included); the rules reference's
refusals; the default records unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from bower.sim import runner
from bower.sim.strategy import resolve_strategy
from bower.sim.records import read_records
from bower.sim.variants.euchre.egn import EgnError, read_egn, to_egn_card, write_egn
from bower.sim.variants.euchre import game as eg
from bower.sim.variants.euchre.hands import play_order
from tests.cli_run import one_error, run
from tests.euchre_cases import order_of, twin_params
from tests.reference import euchre as eu
from tests.reference import euchre_play as ep

SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}
BEST = {"partners_best": True}
DATA = Path(__file__).resolve().parent / "data" / "egn"


# dealer 0; seat 1 (position 1) orders the 9H up and goes alone with the four top trumps and the 9C; its partner
# seat 3 holds the QH: passed, the 9C discarded, the loner holds the five top trumps and marches
LONER = order_of({1: "JH JD AH KH 9C", 2: "TC JC QC KC TH", 3: "QH AC 9S TS 9D", 4: "JS QS KS AS AD"},
                 "9H TD QD KD")
# dealer 0; position 2 (seat 2) orders the 9H up: alone under canadian; the dealer's best after its pick-up is the 9H
CANADA = order_of({1: "9C TC 9D TD QS", 2: "JH AH KH 9S QC", 3: "KC AC KD AD KS", 4: "JC QD JS TS AS"},
                  "9H QH TH JD")


def test_the_partners_best_card_makes_a_lone_march():
    plain = play_order(LONER, 0)
    assert plain["calls"] == [[1, "order"]] and plain["alone"] == [1]
    assert "passed" not in plain and "loner_discard" not in plain
    assert plain["tricks"]["1"] == 4 and plain["points"] == {"0": 0, "1": 1}
    got = play_order(LONER, 0, BEST)
    assert got["rules"]["partners_best"] is True
    assert (got["passed"], got["loner_discard"]) == ("QH", "9C")
    assert sorted(c for s, c in got["plays"] if s == 1) == sorted("JH JD AH KH QH".split())
    assert all(s != 3 for s, _ in got["plays"]) and got["tricks"]["1"] == 5 and got["points"] == {"0": 0, "1": 4}
    for rules in ({}, BEST):
        assert ep.play_order(LONER, 0, rules) == play_order(LONER, 0, rules)
    # the rules reference: the same hand from its decisions, and what it refuses
    cards = [eu.card_from_str(c) for c in LONER]
    hand = eu.play_hand(cards, 0, ["order"], discard=got["discard"], maker_alone=True, rules=BEST, passed="QH",
                        loner_discard="9C", choices=[0] * 15)  # the five top trumps: any play marches
    assert hand["points"] == [0, 4] and str(hand["passed"]) == "QH" and str(hand["loner_discard"]) == "9C"
    assert eu.card_from_str("9C") in hand["out_of_play"] and len(hand["hands"][3]) == 4
    with pytest.raises(ValueError, match="not a card of seat 3"):
        eu.partners_exchange(hand["deal"].hands, 1, True, "JH", "9C", BEST)
    with pytest.raises(ValueError, match="not one of its six"):
        eu.partners_exchange(hand["deal"].hands, 1, True, "QH", "AS", BEST)
    with pytest.raises(ValueError, match="no exchange"):
        eu.partners_exchange(hand["deal"].hands, 1, True, "QH", "9C", {})
    with pytest.raises(ValueError, match="no exchange"):
        eu.partners_exchange(hand["deal"].hands, 1, False, "QH", "9C", BEST)
    with pytest.raises(ValueError, match="passes lone maker"):
        eu.partners_exchange(hand["deal"].hands, 1, True, None, None, BEST)


def test_the_canadian_loner_gets_the_dealers_best_the_up_card():
    rules = {"canadian": True, "partners_best": True}
    got = play_order(CANADA, 0, rules)
    assert got["calls"] == [[1, "pass"], [2, "order"]] and got["alone"] == [2] and got["discard"] == "JC"
    assert got["passed"] == "9H"  # the dealer's only trump after its pick-up: the up-card
    kept = set("JH AH KH 9S QC 9H".split()) - {got["loner_discard"]}
    assert {c for s, c in got["plays"] if s == 2} == kept
    assert got == ep.play_order(CANADA, 0, rules)


def test_a_lone_defender_exchanges_nothing():
    rules = {"allow_lone_defender": True, "partners_best": True}
    recs = runner.hand_records(3, 0, 2000, rules, "aggressive", variant="euchre")
    seen = 0
    for r in recs:
        if r["maker"] is None or r["maker"] in r["alone"]:
            continue
        assert r["passed"] is None and r["loner_discard"] is None
        seen += bool(r["alone"])
    assert seen > 0  # some lone defenders met


def test_every_exchange_is_the_partners_card_and_one_of_six():
    for r in runner.hand_records(11, 0, 3000, BEST, "random", variant="euchre"):
        ex = {"passed": r["passed"], "discard": r["loner_discard"]}
        if r["maker"] is None or r["maker"] not in r["alone"]:
            assert ex == {"passed": None, "discard": None}
            continue
        maker, partner = r["maker"], (r["maker"] + 2) % 4
        held = set(r["deal"][str(partner)])
        if partner == r["dealer"] and r["discard"] is not None:
            held = (held | {r["upcard"]}) - {r["discard"]}
        assert ex["passed"] in held
        mine = set(r["deal"][str(maker)])
        if maker == r["dealer"] and r["discard"] is not None:
            mine = (mine | {r["upcard"]}) - {r["discard"]}
        assert ex["discard"] in mine | {ex["passed"]}
        assert {c for s, c in r["plays"] if s == maker} == (mine | {ex["passed"]}) - {ex["discard"]}


# ---------------------------------------------------------------- the kernels against the twin

ON = [BEST, dict(BEST, canadian=True), dict(BEST, allow_lone_defender=True, loner_lead="loner"),
      dict(BEST, discard_up=True, stick_the_dealer=True, canadian=True)]
STRATEGIES = st.one_of(st.sampled_from(["default", "random", "aggressive"]),
                       st.lists(st.sampled_from(["default", "random", "aggressive"]), min_size=4, max_size=4))


@seed(3501)
@settings(max_examples=40, **SETTINGS)
@given(order=st.permutations(range(24)), dealer=st.integers(0, 3), rules=st.sampled_from(ON), strategy=STRATEGIES,
       run_seed=st.integers(0, 2**32))
def test_play_order_twin_under_partners_best(order, dealer, rules, strategy, run_seed):
    kernel = play_order(list(order), dealer, rules, strategy, run_seed)
    assert kernel == ep.play_order(list(order), dealer, rules, twin_params(strategy), run_seed)


@seed(3502)
@settings(max_examples=8, **SETTINGS)
@given(run_seed=st.integers(0, 2**40), start=st.integers(0, 5000), rules=st.sampled_from(ON), strategy=STRATEGIES)
def test_hand_records_twin_under_partners_best(run_seed, start, rules, strategy):
    kernel = runner.hand_records(run_seed, start, 60, rules, strategy, variant="euchre")
    assert kernel == ep.hand_records(run_seed, start, 60, rules, twin_params(strategy))


def test_the_default_records_are_unchanged_and_say_no_exchange():
    base = runner.hand_records(7, 0, 400, {}, "random", variant="euchre")
    off = runner.hand_records(7, 0, 400, {"partners_best": False}, "random", variant="euchre")
    assert base == off and all("passed" not in r and "loner_discard" not in r for r in base)
    on = runner.hand_records(7, 0, 400, BEST, "random", variant="euchre")
    assert any(r["passed"] is not None for r in on)


# ---------------------------------------------------------------- records: replay, EGN


def _write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")


def test_replay_checks_the_exchange_and_refuses_one_the_rule_does_not_make(capsys, tmp_path):
    rec = play_order(LONER, 0, BEST)
    good = tmp_path / "good.jsonl"
    _write(good, [rec])
    code, out, err = run(capsys, "replay", str(good), "--json")
    assert code == 0, err
    got = json.loads(out.splitlines()[0])
    assert got["points"] == {"0": 0, "1": 4} and got["tricks"]["1"] == 5
    for change, says in (
            ({"passed": "AS"}, "field 'passed': the lone maker's partner, seat 3, does not hold AS"),
            ({"loner_discard": "AS"}, "field 'loner_discard': the lone maker, seat 1, holds no AS"),
            ({"passed": None}, "field 'passed' is missing"),
            ({"rules": dict(rec["rules"], partners_best=False)}, "rule partners_best is false"),
            ({"loner_discard": "JH"}, "seat 1 plays JH, which it did not hold")):
        bad = tmp_path / "bad.jsonl"
        _write(bad, [dict(rec, **change)])
        line = one_error(capsys, "replay", str(bad))
        assert says in line and str(bad) in line, line
    plain = dict(play_order(LONER, 0), passed="QH", loner_discard="9C")  # no exchange without the rule
    bad = tmp_path / "plain.jsonl"
    _write(bad, [plain])
    assert "rule partners_best is false" in one_error(capsys, "replay", str(bad))


@pytest.mark.parametrize("ext", ["jsonl", "parquet"])
def test_simulated_records_say_the_exchange_and_replay(capsys, tmp_path, ext):
    path = tmp_path / f"hands.{ext}"
    code, _, err = run(capsys, "simulate", "--variant", "euchre", "--hands", "400", "--seed", "5", "--strategy",
                       "aggressive", "--rule", "partners_best=true", "--records", str(path))
    assert code == 0, err
    recs = read_records(path)
    assert recs == runner.hand_records(5, 0, 400, BEST, "aggressive", variant="euchre")
    assert sum(r["passed"] is not None for r in recs) > 10
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0, err
    assert "400 hand(s) replayed" in out


def test_egn_partners_best_reads_replays_and_writes_back(tmp_path):
    from bower.sim.replay import replay_file
    import jsonschema

    recs = [play_order(LONER, 0, BEST)] + runner.hand_records(3, 1, 40, BEST, "aggressive", variant="euchre")
    path = tmp_path / "f.egn"
    write_egn(path, recs)
    doc = json.loads(path.read_text(encoding="utf-8"))
    schema = json.loads((DATA / "egn-schema-v1.json").read_text(encoding="utf-8"))
    assert [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(doc)] == []
    assert doc["metadata"]["ruleset"]["partners_best"] is True
    assert doc["deals"][0]["phases"][0]["cardExchanges"] == [{"sender": 3, "receiver": 1, "cards": ["Qh"]}]
    assert "discard" not in doc["deals"][0]["phases"][0] or doc["deals"][0]["phases"][0]["discard"] != "9c"
    egn = read_egn(path)
    assert egn.meta["rules"]["partners_best"] is True and egn.left_out == []
    strip = ("rules_version", "hand")
    assert [{k: v for k, v in r.items() if k not in strip} for r in egn.records] == [
        {k: v for k, v in r.items() if k not in strip} for r in recs]
    got = list(replay_file(str(path)))
    assert got[0]["points"] == {"0": 0, "1": 4} and all(g.get("matches") is not False for g in got)
    back = tmp_path / "back.egn"
    write_egn(back, egn.records, egn.meta)
    assert read_egn(back).records == egn.records
    # a transcript without the exchange: the card passed deduced from the loner's plays when it played it
    first = doc["deals"][0]["phases"][0]
    del first["cardExchanges"]
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert read_egn(path).records[0] == egn.records[0]
    # ... and left out, named, when the loner discarded the card passed (nothing tells which it was)
    buried = next((i for i, r in enumerate(recs) if r["passed"] is not None and r["passed"] == r["loner_discard"]),
                  None)
    if buried is not None:
        del doc["deals"][buried]["phases"][0]["cardExchanges"]
        path.write_text(json.dumps(doc), encoding="utf-8")
        egn2 = read_egn(path)
        assert [n for n, _ in egn2.left_out] == [recs[buried]["hand"]]
        assert "partner passed" in egn2.left_out[0][1]
    # an exchange the rules do not make: refused naming the field
    doc = json.loads(back.read_text(encoding="utf-8"))
    doc["deals"][0]["phases"][0]["cardExchanges"] = [{"sender": 3, "receiver": 1, "cards": ["As"]}]
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(EgnError, match="field 'cardExchanges': seat 3 passes As, a card it does not hold"):
        read_egn(path)
    doc["metadata"]["ruleset"]["partners_best"] = False
    doc["deals"][0]["phases"][0]["cardExchanges"] = [{"sender": 3, "receiver": 1, "cards": ["Qh"]}]
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(EgnError, match="only a lone maker under ruleset partners_best"):
        read_egn(path)


# ---------------------------------------------------------------- games, searched play

SIDE_SWAPS = [[0, 1, 0, 1], [1, 0, 1, 0]]


@pytest.mark.parametrize("rules", [BEST, dict(BEST, canadian=True, loner_lead="loner")])
def test_games_under_partners_best_kernel_against_twin(rules):
    strategies = ("default", {"alone_min": 2.0})
    kernel = runner.game_results(35, 0, 3, rules, strategies, SIDE_SWAPS, True, variant="euchre")
    twin = ep.game_results(35, 0, 3, rules, [resolve_strategy(s, variant="euchre") for s in strategies],
                           SIDE_SWAPS, True)
    assert kernel == twin
    off = runner.game_results(35, 0, 3, {}, strategies, SIDE_SWAPS, True, variant="euchre")
    assert off != kernel  # the loners' exchanges change the games


SEARCHING = [{"pimc_worlds": 4, "alone_min": 1.75},  # PIMC cards
             {"pimc_worlds": 4, "pimc_bid": 1, "alone_min": 1.75},  # calls, going alone, discards searched too
             {"pimc_worlds": 4, "pimc_infer": 1, "alone_min": 1.75}]  # worlds weighed by the auction


@pytest.mark.parametrize("k", range(len(SEARCHING)))
def test_searching_seats_play_legal_hands_after_the_exchange(k):
    from tests.test_euchre_kernels import check_record

    rules = dict(BEST, discard_up=k == 1)
    loners = 0
    for h, order in enumerate(ep.orders(50 + k, 0, 60)):
        idx = [c.index for c in order]
        rec = play_order(idx, h % 4, rules, [SEARCHING[k], "default", SEARCHING[k], "aggressive"], h)
        check_record(rec, rules, 0, idx)  # the loner plays the five it holds after the exchange
        loners += rec["passed"] is not None
    assert loners > 0


def _row(order, dealer, rules):
    """The kernel's record row of a hand (``hands.play_order``'s, before it becomes a dict)."""
    import numpy as np

    from bower.kernels.euchre import drivers as ed
    from bower.kernels.euchre import hand as ek
    from bower.sim.runner import decision_states
    from bower.sim.variants.euchre import hands as eh

    rules_d = eh.resolve_rules(rules)
    params = eh.seat_params("default")
    rec = np.zeros(ek.R_WIDTH, np.int64)
    ed.play_order(eh._order(order), np.int64(dealer), eh.rules_vector(rules_d), params, ek.NO_FORCE.copy(),
                  decision_states(0, 0, 1)[0], rec, ek.search_arg(params))
    return rec


def test_what_each_seat_knows_of_the_up_card_after_the_exchange():
    # CANADA under canadian: the dealer, seat 0, sits out and passed the up-card 9H to the loner, seat 2
    from bower.kernels import pimc
    from bower.kernels.euchre import hand as ek
    from bower.sim.cards import parse_card

    up = parse_card("9H")
    plain = _row(CANADA, 0, {"canadian": True})
    assert plain[ek.R_PASSED] == -1 and plain[ek.R_LONER_DISCARD] == -1
    _, _, known, pin, _ = ek.pimc_facts(plain, 1, False)
    assert known >> up & 1 and pin == -1  # without the rule: out of play with the dealer who sits out
    rec = _row(CANADA, 0, {"canadian": True, "partners_best": True})
    assert rec[ek.R_PASSED] == up
    d = rec[ek.R_LONER_DISCARD]
    for seat in (1, 3):  # a defender: the up-card is the loner's or discarded, not told which
        _, _, known, pin, allow = ek.pimc_facts(rec, seat, False)
        assert not known >> up & 1 and pin == up and allow == (1 << 2) | pimc.PILE_BIT
        assert not known >> d & 1  # the loner's discard is not seen
    _, _, known, pin, _ = ek.pimc_facts(rec, 2, False)  # the loner knows its discard, holds or buried the 9H
    assert known >> d & 1 and pin == -1 and (known >> up & 1) == (d == up)


# ---------------------------------------------------------------- the game API

def _exchanged_states(rules, n):
    """States of random play under ``rules`` at each node from the partner's pass on, in hands with an exchange."""
    import random

    import bower

    game = bower.game("euchre", rules=rules)
    out = []
    for seed in range(400):
        rng = random.Random(seed)
        state = game.new_initial_state()
        path = []
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            if state.phase in (eg.PARTNER_PASS, eg.LONER_DISCARD) or state.passed >= 0:
                path.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        out += path[::3]
        if len(out) >= n:
            return out
    return out


def test_the_game_api_passes_and_discards_as_decisions():
    import bower
    from bower.sim.cards import parse_card

    game = bower.game("euchre", rules=BEST)
    state = game.new_initial_state()
    state.apply_action(0)
    for c in LONER:
        state.apply_action(parse_card(c))
    state.apply_action(eg.ORDER)
    state.apply_action(state.legal_actions()[0])  # the dealer's discard
    state.apply_action(eg.ALONE)
    assert state.phase == eg.PARTNER_PASS and state.current_player() == 3
    assert state.legal_actions() == sorted(parse_card(c) for c in "QH AC 9S TS 9D".split())
    assert state.action_to_string(parse_card("QH")) == "pass QH"
    state.apply_action(parse_card("QH"))
    assert state.phase == eg.LONER_DISCARD and state.current_player() == 1
    assert state.legal_actions() == sorted(parse_card(c) for c in "JH JD AH KH QH 9C".split())
    state.apply_action(parse_card("9C"))
    assert state.phase == eg.PLAY and state.current_player() == 1
    assert "passed QH" in state.information_state_string(3) and "loner discard 9C" in state.information_state_string(1)
    assert "passed" not in state.information_state_string(0) and "9C" not in state.information_state_string(2)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    rec = state.to_record()
    assert (rec["passed"], rec["loner_discard"]) == ("QH", "9C") and state.returns() == [0.0, 4.0, 0.0, 4.0]
    assert game.max_game_length() == bower.game("euchre").max_game_length() + 2
    plain = bower.game("euchre").new_initial_state()
    assert "passed" not in plain.to_record()


@pytest.mark.parametrize("rules", [BEST, dict(BEST, canadian=True, discard_up=True, allow_lone_defender=True)])
def test_resampled_worlds_keep_what_each_seat_knows_of_the_exchange(rules):
    import random

    states = _exchanged_states(rules, 40)
    assert len(states) >= 40
    rng = random.Random(35)
    for state in states:
        for p in range(4):
            for _ in range(6):
                world = state.resample_from_infostate(p, rng)
                assert world.information_state_string(p) == state.information_state_string(p)
                assert world.legal_actions() == state.legal_actions() or state.current_player() != p
                assert [bin(h).count("1") for h in world.hands] == [bin(h).count("1") for h in state.hands]
                while not world.is_terminal():  # and the world plays on
                    world.apply_action(world.legal_actions()[0])


# ---------------------------------------------------------------- with farmers and go_under: both exchanges in a hand

ALL3 = {"farmers": True, "go_under": True, "partners_best": True}
WITH_KITTY = [ALL3, dict(ALL3, canadian=True, discard_up=True),
              dict(ALL3, allow_lone_defender=True, loner_lead="loner"), {"farmers": True, "partners_best": True, "stick_the_dealer": True}]
LONE = {"alone_min": 2.0}  # goes alone readily: lone makers, and so partners' cards, are common
BOTH_STRATEGIES = st.one_of(st.sampled_from(["default", "random", "aggressive", LONE]),
                            st.lists(st.sampled_from(["default", "random", LONE]), min_size=4, max_size=4))


def _both(rec: dict) -> bool:
    """Whether the record holds both exchanges: a seat's with the kitty and a lone maker's partner's card."""
    return rec["exchange"]["seat"] >= 0 and rec["passed"] is not None


@seed(3503)
@settings(max_examples=40, **SETTINGS)
@given(order=st.permutations(range(24)), dealer=st.integers(0, 3), rules=st.sampled_from(WITH_KITTY),
       strategy=BOTH_STRATEGIES, run_seed=st.integers(0, 2**32))
def test_play_order_twin_with_the_kitty_exchange_too(order, dealer, rules, strategy, run_seed):
    kernel = play_order(list(order), dealer, rules, strategy, run_seed)
    assert kernel == ep.play_order(list(order), dealer, rules, twin_params(strategy), run_seed)


@seed(3504)
@settings(max_examples=8, **SETTINGS)
@given(run_seed=st.integers(0, 2**40), start=st.integers(0, 5000), rules=st.sampled_from(WITH_KITTY),
       strategy=BOTH_STRATEGIES)
def test_hand_records_twin_with_the_kitty_exchange_too(run_seed, start, rules, strategy):
    kernel = runner.hand_records(run_seed, start, 60, rules, strategy, variant="euchre")
    assert kernel == ep.hand_records(run_seed, start, 60, rules, twin_params(strategy))


def test_both_exchanges_meet_and_the_twin_agrees():
    """Under all three options the two exchanges meet in one hand, the partner's card coming from its hand after
    its own exchange with the kitty when the partner was the seat that exchanged; every record is the twin's."""
    recs = runner.hand_records(13, 0, 600, ALL3, LONE, variant="euchre")
    assert recs == ep.hand_records(13, 0, 600, ALL3, twin_params(LONE))
    both = [r for r in recs if _both(r)]
    assert len(both) >= 20
    partner_exchanged = 0
    for r in both:
        maker, partner = r["maker"], (r["maker"] + 2) % 4
        held = set(r["deal"][str(partner)])
        if r["exchange"]["seat"] == partner:
            held = (held - set(r["exchange"]["gave"])) | set(r["exchange"]["took"])
            partner_exchanged += 1
        if partner == r["dealer"] and r["discard"] is not None:
            held = (held | {r["upcard"]}) - {r["discard"]}
        assert r["passed"] in held
        mine = set(r["deal"][str(maker)])
        if r["exchange"]["seat"] == maker:
            mine = (mine - set(r["exchange"]["gave"])) | set(r["exchange"]["took"])
        if maker == r["dealer"] and r["discard"] is not None:
            mine = (mine | {r["upcard"]}) - {r["discard"]}
        assert {c for s, c in r["plays"] if s == maker} == (mine | {r["passed"]}) - {r["loner_discard"]}
    assert partner_exchanged > 0


@pytest.mark.parametrize("ext", ["jsonl", "parquet"])
def test_records_with_both_exchanges_replay(capsys, tmp_path, ext):
    path = tmp_path / f"hands.{ext}"
    code, _, err = run(capsys, "simulate", "--variant", "euchre", "--hands", "400", "--seed", "5", "--strategy",
                       "aggressive", "--rule", "farmers=true", "--rule", "go_under=true", "--rule",
                       "partners_best=true", "--records", str(path))
    assert code == 0, err
    recs = read_records(path)
    assert recs == runner.hand_records(5, 0, 400, ALL3, "aggressive", variant="euchre")
    assert sum(_both(r) for r in recs) >= 5
    code, out, err = run(capsys, "replay", str(path))
    assert code == 0, err
    assert "400 hand(s) replayed" in out


def test_replay_refuses_a_card_passed_that_the_partner_gave_the_kitty(capsys, tmp_path):
    recs = runner.hand_records(13, 0, 600, ALL3, LONE, variant="euchre")
    rec = next(r for r in recs if _both(r) and r["exchange"]["seat"] == (r["maker"] + 2) % 4)
    good = tmp_path / "good.jsonl"
    _write(good, [rec])
    code, _, err = run(capsys, "replay", str(good))
    assert code == 0, err
    bad = tmp_path / "bad.jsonl"
    _write(bad, [dict(rec, passed=rec["exchange"]["gave"][0])])  # held as dealt, given to the kitty before the calls
    line = one_error(capsys, "replay", str(bad))
    assert f"field 'passed': the lone maker's partner, seat {(rec['maker'] + 2) % 4}, does not hold" in line, line

def test_egn_with_both_exchanges_reads_replays_and_writes_back(tmp_path):
    from bower.sim.replay import replay_file
    import jsonschema

    recs = runner.hand_records(13, 0, 100, ALL3, LONE, variant="euchre")
    path = tmp_path / "both.egn"
    write_egn(path, recs)
    doc = json.loads(path.read_text(encoding="utf-8"))
    schema = json.loads((DATA / "egn-schema-v1.json").read_text(encoding="utf-8"))
    assert [e.message for e in jsonschema.Draft7Validator(schema).iter_errors(doc)] == []
    ruleset = doc["metadata"]["ruleset"]
    assert ruleset["farmers"] is ruleset["go_under"] is ruleset["partners_best"] is True
    k = next(i for i, r in enumerate(recs) if _both(r))
    r = recs[k]
    bid = doc["deals"][k]["phases"][0]
    maker, seat = r["maker"], r["exchange"]["seat"]
    assert bid["cardExchanges"] == [
        {"sender": seat, "receiver": 4, "cards": [to_egn_card(c) for c in r["exchange"]["gave"]]},
        {"sender": 4, "receiver": seat, "cards": [to_egn_card(c) for c in r["exchange"]["took"]]},
        {"sender": (maker + 2) % 4, "receiver": maker, "cards": [to_egn_card(r["passed"])]}]
    egn = read_egn(path)
    assert egn.meta["rules"]["partners_best"] is True and egn.meta["rules"]["farmers"] is True
    strip = ("rules_version", "hand")
    assert [{k: v for k, v in x.items() if k not in strip} for x in egn.records] == [
        {k: v for k, v in x.items() if k not in strip} for x in recs]
    got = list(replay_file(str(path)))
    assert len(got) == len(recs) and all(g.get("matches") is not False for g in got)
    back = tmp_path / "back.egn"
    write_egn(back, egn.records, egn.meta)
    assert read_egn(back).records == egn.records
    assert json.loads(back.read_text(encoding="utf-8"))["deals"][k]["phases"][0]["cardExchanges"] == \
        bid["cardExchanges"]
    # the entries told apart by sender and receiver, not by their place: the partner's card first reads the same
    bid["cardExchanges"] = bid["cardExchanges"][2:] + bid["cardExchanges"][:2]
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert read_egn(path).records == egn.records
    # without partners_best the partner's entry is refused, naming the field
    ruleset["partners_best"] = False
    path.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(EgnError, match=f"deal {k}: field 'cardExchanges'.*only a lone maker under ruleset "
                                       "partners_best"):
        read_egn(path)


def test_a_preset_bots_public_record_holds_this_hands_exchange_only():
    # the record the searched discard and lone defence hand the kernels: partners_best's cells as the state has
    # them (-1 before the exchange), whatever a hand before left in the player's buffer (it starts as zeros: card 0)
    import random

    from bower.kernels.euchre.hand import R_LONER_DISCARD, R_PASSED
    from bower.sim.game import game as make_game
    from bower.sim.rules import get_variant
    from bower.sim.variants.euchre.preset_bot import Player

    v = get_variant("euchre")
    g = make_game(v, BEST)
    state = g.new_initial_state()
    state.apply_action(0)
    state.deal_random(random.Random(3))
    import bower

    player = Player(bower.bot("default", variant="euchre").params, g)
    player.rec[R_PASSED], player.rec[R_LONER_DISCARD] = 7, 11  # what an earlier hand's exchange left
    rec = player._public_record(state)
    assert rec[R_PASSED] == -1 and rec[R_LONER_DISCARD] == -1
