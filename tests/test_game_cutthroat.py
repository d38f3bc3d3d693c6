"""Cutthroat's game API (``bower.game("cutthroat")``, ``bower.sim.variants.cutthroat.game``) against the kernels.

The kernel check: the kernels play ``N`` hands of a run with the ``random``
preset in every seat, and record each. The kernels' random player takes
``choices[bounded(len(choices))]`` from the chunk's decision stream
(``tests.reference.rng.decision_chunk_rng``): the round-one call (pass,
accept), the dealer's exchange (no exchange first, then its five cards
ascending), round two (pass, then the suits allowed), the maker's going
alone and each defender's (no, yes), the maker's keep, one card at a time
of the ten (ascending, ``strategy.random_keep``), and each card played
(ascending). The API's legal sets are sorted; ``State.kernel_order`` puts
them in that order (it moves "no exchange" first), so a bot drawing from the
same stream the same way plays as the kernels: a legal set of another size
at any decision moves the stream, another order or content changes the
choice, and every later decision of the chunk then differs. Every decision
(calls, exchange, alone, keep, plays), the tricks and the points must equal
the kernel's record; each legal set is also checked against the plain-Python
rules reference ``tests/reference/cutthroat.py``, the first leader and the
points too, and each hand's points against the score vectors of
``/work/shared/vectors/cutthroat_scores.jsonl`` (via the reference when the
file is absent).

``python -m tests.test_game_cutthroat [N] [--all-rules]`` runs the check on
``FULL_HANDS`` (100,000) hands under the default rules (each rule set with
``--all-rules``) and prints the time taken.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

import bower
from bower.sim.cards import card_str, parse_card
from bower.sim.game import CHANCE, TERMINAL, GameError
from bower.sim.variants.cutthroat import game as cg
from tests.reference import cutthroat as cu
from tests.reference.rng import decision_chunk_rng

FULL_HANDS = 100_000  # hands of the full check (``python -m tests.test_game_cutthroat``)
CI_HANDS = 2_000  # hands per rule set of the check in the suite
CHUNK = 4096  # hands per chunk of a run: each chunk has its own decision stream
VECTORS = Path("/work/shared/vectors/cutthroat_scores.jsonl")
RULE_SETS = [
    {},
    {"dealer_pickup": "mandatory", "stick_the_dealer": True},
    {"allow_turned_down_suit": True, "lone_maker_march": 3, "lone_defender_points": "lone_only"},
    {"maker_alone": "disabled", "stick_the_dealer": True, "allow_turned_down_suit": True},
]
CALL_ID = {"pass": cg.PASS, "order": cg.ACCEPT, "assist": cg.ACCEPT, "take": cg.ACCEPT,
           **{s: cg.NAME + i for i, s in enumerate("CSDH")}}


def _score_table() -> dict:
    """(maker_tricks, maker_alone, lone defender, lone_maker_march, lone_defender_points) -> points of (maker, the
    lone defender or a defender, the other defender)."""
    out = {}
    if VECTORS.is_file():
        for line in VECTORS.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                rules = r["rules"]
                key = (r["maker_tricks"], r["maker_alone"], r["lone_defender"] is not None,
                       rules["lone_maker_march"], rules["lone_defender_points"])
                out[key] = tuple(r["points"])
        return out
    for t in range(6):
        for a in (False, True):
            for d in (False, True):
                for march in (4, 3):
                    for who in ("both", "lone_only"):
                        rules = {"lone_maker_march": march, "lone_defender_points": who}
                        out[t, a, d, march, who] = tuple(cu.score_hand(0, t, a, 1 if d else None, rules))
    return out


SCORES = _score_table()


# ---------------------------------------------------------------- dealing a given deal through the chance nodes


def _card(c) -> int:
    return parse_card(c) if isinstance(c, str) else int(c)


def deal_actions(dealer: int, hands: dict, dummy: list, kitty: list) -> list[int]:
    """The chance actions that deal ``hands`` (seat -> 5 cards), ``dummy`` and ``kitty`` (up-card first)."""
    by_seat = {int(s): [_card(c) for c in cards] for s, cards in hands.items()}
    dum = [_card(c) for c in dummy]
    out = [dealer]
    for k in range(20):
        i = k % 4
        out.append(dum[k // 4] if i == 3 else by_seat[(dealer + 1 + i) % 3][k // 4])
    return out + [_card(c) for c in kitty]


def dealt_state(game, dealer: int, hands: dict, dummy: list, kitty: list):
    state = game.new_initial_state()
    for a in deal_actions(dealer, hands, dummy, kitty):
        assert state.is_chance_node() and a in dict(state.chance_outcomes())
        state.apply_action(a)
    return state


# ---------------------------------------------------------------- the reference's legal sets, as action ids


def _ref_cards(mask: int) -> list:
    return [cu.card_from_index(c) for c in range(24) if mask >> c & 1]


def reference_legal(state, rules: dict) -> list[int]:
    """The legal actions of ``state`` by the rules reference ``tests/reference/cutthroat.py``."""
    up = cu.card_from_index(state.up)
    if state.phase == cg.AUCTION:
        words = [cu.ROUND_ONE_ACCEPT[cg._position(state.dealer, s)] if a == cg.ACCEPT else
                 ("pass" if a == cg.PASS else "CSDH"[a - cg.NAME]) for s, a in state.calls]
        return sorted(CALL_ID[c] for c in cu.legal_calls(words, state.dealer, up, rules))
    if state.phase == cg.EXCHANGE:
        options = cu.exchange_options(_ref_cards(state.dealt[state.dealer]), up, rules)
        return sorted(state.up if c is None else c.index for c in options)
    if state.phase == cg.MAKER_ALONE:
        cu.check_going_alone(state.maker, True, None, rules)  # raises unless the maker may go alone
        return [cg.NOT_ALONE, cg.ALONE]
    if state.phase == cg.DEFEND:
        assert state.current_player() in cu.defenders_of(state.maker)
        cu.check_going_alone(state.maker, state.maker_alone, state.current_player(), rules)
        return [cg.NOT_ALONE, cg.ALONE]
    if state.phase == cg.MERGE:
        return [c for c in range(24) if (state.ten & ~state.kept) >> c & 1]
    if state.phase == cg.PLAY:
        hand = _ref_cards(state.hands[state.current_player()])
        lead = cu.card_from_index(state.trick[0][1]) if state.trick else None
        return sorted(c.index for c in cu.legal_cards(hand, lead, state.trump))
    raise AssertionError(state.phase)


# ---------------------------------------------------------------- the kernel check


def kernel_check(seed: int, hands: int, rules: dict, reference: bool = True, times: dict | None = None) -> Counter:
    """Play ``hands`` hands of the run ``seed`` in the kernels (``random`` preset) and through the API with the same
    decisions; assert every record field and legal set equal. Returns the score cases met, with counts; ``times``
    gets the seconds of the kernels' records (``kernels``) and of the API's play and checks (``api``)."""
    from bower.sim import runner

    start = time.perf_counter()
    records = runner.hand_records(seed, 0, hands, rules=rules, strategy="random", variant="cutthroat")
    if times is not None:
        times["kernels"] = time.perf_counter() - start
    game = bower.game("cutthroat", rules=rules)
    rules_d = game.rules
    cases: Counter = Counter()
    stream = None
    for h, rec in enumerate(records):
        if h % CHUNK == 0:
            stream = decision_chunk_rng(seed, h // CHUNK)
        state = dealt_state(game, rec["dealer"], rec["deal"], rec["dummy"], rec["kitty"])
        while not state.is_terminal():
            legal = state.legal_actions()
            if reference:
                assert legal == reference_legal(state, rules_d), (h, str(state))
                if state.phase == cg.PLAY and not state.tricks and not state.trick:
                    assert state.current_player() == cu.first_leader(
                        state.dealer, state.maker, state.maker_alone, state.lone if state.lone >= 0 else None)
            order = state.kernel_order(legal)
            assert sorted(order) == legal
            state.apply_action(order[stream.bounded(len(order))])
        mine = state.to_record()
        for key in ("dealer", "deal", "dummy", "kitty", "upcard", "calls", "maker", "trump", "discards", "alone",
                    "plays", "tricks", "points"):
            assert mine[key] == rec[key], f"hand {h}, {key}: api {mine[key]} kernels {rec[key]}"
        ret = state.returns()
        if state.maker >= 0:
            m = state.maker
            lone = state.lone if state.lone >= 0 else None
            if reference:
                if state.ten:  # the keep: five of the maker's hand and the dummy
                    cu.check_keep(_ref_cards(state.ten & ~state.dummy), _ref_cards(state.dummy), _ref_cards(state.kept))
                assert ret == [float(x) for x in cu.score_hand(m, state.won[m], state.maker_alone, lone, rules_d)]
            first = lone if lone is not None else (m + 1) % 3
            case = (state.won[m], state.maker_alone, lone is not None, rules_d["lone_maker_march"],
                    rules_d["lone_defender_points"])
            assert (ret[m], ret[first], ret[3 - m - first]) == SCORES[case], (h, case, ret)
            cases[case[:3]] += 1
        else:
            assert ret == [0.0] * 3 and len(state.calls) == 6
            cases["thrown in"] += 1
    if times is not None:
        times["api"] = time.perf_counter() - start - times["kernels"]
    return cases


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "defaults")
def test_api_plays_as_the_kernels(rules):
    cases = kernel_check(seed=11, hands=CI_HANDS, rules=rules)
    assert sum(cases.values()) == CI_HANDS
    assert cases[(3, False, False)] > 0 and any(k[1] for k in cases if k != "thrown in") == (
        rules.get("maker_alone") != "disabled")
    assert any(k[2] and k[0] < 3 for k in cases if k != "thrown in")  # a lone defender euchred the maker


def test_every_score_vector_is_met():
    """Across the rule sets, the hands played meet each (tricks, maker alone, lone defender) row the rules reach."""
    seen: Counter = Counter()
    for rules in RULE_SETS[:3]:
        seen.update(kernel_check(seed=5, hands=CI_HANDS // 2, rules=rules, reference=False))
    reachable = {k[:3] for k in SCORES}
    missing = sorted(k for k in reachable if k not in seen)
    assert missing == [], missing


# ---------------------------------------------------------------- the interface


def random_state(seed: int, decisions: int, rules=None):
    """A state after the deal of ``seed`` and ``decisions`` random decisions (fewer if the hand ends first)."""
    rng = random.Random(seed)
    state = bower.game("cutthroat", rules=rules).new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


HANDS = {0: ["JD", "9D", "AC", "AS", "KS"], 1: ["TD", "QD", "9C", "TC", "9S"], 2: ["9H", "TH", "QC", "KC", "TS"]}
DUMMY = ["JH", "QH", "KH", "AH", "QS"]
KITTY = ["KD", "AD", "JC", "JS"]


def test_the_first_nodes_and_sizes():
    game = bower.game("cut-throat")  # an alias
    state = game.new_initial_state()
    assert state.current_player() == CHANCE and state.is_chance_node()
    assert [a for a, _ in state.chance_outcomes()] == [0, 1, 2]
    state.apply_action(2)
    assert [a for a, _ in state.chance_outcomes()] == list(range(24))
    for c in range(24):
        state.apply_action(c)
    assert state.current_player() == 0 and state.legal_actions() == [cg.PASS, cg.ACCEPT]
    assert state.up == 20 and state.kitty == [20, 21, 22, 23]
    assert state.dealt == [1 + 16 + 256 + 4096 + 65536, 2 + 32 + 512 + 8192 + 131072, 4 + 64 + 1024 + 16384 + 262144]
    assert state.dummy == 8 + 128 + 2048 + 32768 + 524288
    assert len(state.observation_tensor(0)) == game.observation_tensor_size() == cg.OBSERVATION_SIZE
    assert state.history() == [2, *range(24)]
    assert state.action_to_string(cg.ACCEPT) == "order " + card_str(20)
    state.apply_action(cg.PASS)
    assert state.action_to_string(1, cg.ACCEPT) == "assist " + card_str(20)
    assert game.max_game_length() == 30 and game.num_distinct_actions() == 32


def test_exchange_merge_and_lone_defender():
    """Seat 1 (the dealer) takes the up-card KD, keeps five of its ten; seat 2 defends alone, seat 0 sits out."""
    state = dealt_state(bower.game("cutthroat"), 1, HANDS, DUMMY, KITTY)
    assert state.current_player() == 2
    state.apply_action(cg.PASS)
    state.apply_action(cg.PASS)
    state.apply_action(cg.ACCEPT)  # the dealer takes it
    assert state.to_record()["calls"] == [[2, "pass"], [0, "pass"], [1, "take"]]
    assert state.current_player() == 1 and state.legal_actions() == sorted(
        [parse_card(c) for c in HANDS[1]] + [parse_card("KD")])
    assert state.kernel_order()[0] == parse_card("KD")
    state.apply_action(parse_card("9S"))
    assert state.hands[1] >> parse_card("KD") & 1 and state.discard == parse_card("9S")
    assert state.current_player() == 1 and state.legal_actions() == [cg.NOT_ALONE, cg.ALONE]
    state.apply_action(cg.NOT_ALONE)
    assert state.current_player() == 2
    state.apply_action(cg.ALONE)  # the first defender asked (the maker's left) defends alone: nobody else asked
    assert state.phase == cg.MERGE and state.current_player() == 1 and len(state.legal_actions()) == 10
    for c in ("KD", "JH", "AH", "KH", "QH"):
        state.apply_action(parse_card(c))
    assert state.phase == cg.PLAY and state.current_player() == 1  # first active seat to the lone defender's left
    assert state.active == 0b110
    rec = state.to_record()
    assert rec["discards"] == {"dealer": "9S", "maker": ["9C", "TC", "QS", "TD", "QD"]} and rec["alone"] == [2]
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert sum(state.won) == 5 and state.won[0] == 0
    assert state.returns() == [float(x) for x in cu.score_hand(1, state.won[1], False, 2)]


def test_mandatory_pickup_and_the_turned_down_suit():
    state = dealt_state(bower.game("cutthroat", rules={"dealer_pickup": "mandatory"}), 0, HANDS, DUMMY, KITTY)
    state.apply_action(cg.ACCEPT)  # position 1 orders
    assert state.current_player() == 0 and state.legal_actions() == sorted(parse_card(c) for c in HANDS[0])
    for rules, expect in (({}, [cg.PASS, 26, 27, 29]), ({"allow_turned_down_suit": True, "stick_the_dealer": True},
                                                        [26, 27, 28, 29])):
        state = dealt_state(bower.game("cutthroat", rules=rules), 0, HANDS, DUMMY, KITTY)
        for _ in range(5):
            state.apply_action(cg.PASS)
        assert state.current_player() == 0 and state.legal_actions() == expect  # up-card KD
    state = dealt_state(bower.game("cutthroat", rules={"maker_alone": "disabled"}), 0, HANDS, DUMMY, KITTY)
    for _ in range(3):
        state.apply_action(cg.PASS)
    state.apply_action(cg.NAME + 3)  # seat 1 names hearts: no going alone for it, seat 2 is asked to defend alone
    assert state.phase == cg.DEFEND and state.current_player() == 2
    state = dealt_state(bower.game("cutthroat"), 0, HANDS, DUMMY, KITTY)
    for _ in range(6):
        state.apply_action(cg.PASS)
    assert state.is_terminal() and state.current_player() == TERMINAL and state.returns() == [0.0] * 3


def test_illegal_actions_are_refused_in_one_line():
    state = random_state(1, 0)
    before = state.history()
    for bad in (cg.ALONE, 99, -1, "pass", 3.5):
        with pytest.raises(bower.BowerError) as e:
            state.apply_action(bad)
        assert isinstance(e.value, GameError) and "\n" not in str(e.value) and "not legal" in str(e.value)
    assert state.history() == before
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(bower.BowerError, match="the hand is over"):
        state.apply_action(0)
    with pytest.raises(bower.BowerError, match="seat 0..2"):
        state.information_state_string(3)


def test_clones_are_independent():
    state = random_state(4, 8)
    copy = state.clone()
    text, history, tensor = str(state), state.history(), state.observation_tensor(1)
    while not copy.is_terminal():
        copy.apply_action(copy.legal_actions()[-1])
    assert str(state) == text and state.history() == history and state.observation_tensor(1) == tensor
    again = state.clone()
    for a in copy.history()[len(history):]:
        again.apply_action(a)
    assert again.history() == copy.history() and again.returns() == copy.returns() and str(again) == str(copy)


def test_information_state_hides_the_other_hands():
    for seed in range(20):
        state = random_state(seed, 14)
        for p in range(3):
            text = state.information_state_string(p)
            seen = {card_str(c) for c in range(24) if state.hands[p] >> c & 1 or state.played >> c & 1}
            seen.add(card_str(state.up))
            if p == state.dealer and state.exchanged:
                seen.add(card_str(state.discard))
            if p == state.maker and state.ten:
                seen |= {card_str(c) for c in range(24) if state.ten >> c & 1}
            shown = {w.split(":")[-1] for w in text.replace(",", " ").split()
                     if len(w.split(":")[-1]) == 2 and w.split(":")[-1][1] in "CSDH" and w.split(":")[-1][0] in "9TJQKA"}
            assert shown <= seen, (p, shown - seen)
            t = state.observation_tensor(p)
            assert [i for i in range(6, 30) if t[i]] == [6 + c for c in range(24) if state.hands[p] >> c & 1]
            assert sum(t[0:3]) == 1 and t[p] == 1
            if p != state.maker:
                assert not any(t[cg._O_DUMMY:cg._O_CALLS])


# ---------------------------------------------------------------- resampling


def _known(state, p: int) -> dict:
    played = {(s, c) for _, cards, _ in state.tricks for s, c in cards} | set(state.trick)
    mine = p == state.maker and bool(state.ten)
    return {"hand": state.hands[p], "played": played, "up": state.up, "calls": state.calls,
            "history_len": len(state.history()), "answers": state.answers, "maker_alone": state.maker_alone,
            "exchanged": state.exchanged, "discard": state.discard if p == state.dealer else None,
            "dummy": state.dummy if mine else None, "pile": state.pile if mine else None,
            "keeps": state.keeps if mine else None, "voids": list(state.voids),
            "info": state.information_state_string(p), "tensor": state.observation_tensor(p)}


def _consistent(world, state, p: int) -> None:
    assert _known(world, p) == _known(state, p)
    for s in range(3):
        if state.trump >= 0:
            assert not any(state.voids[s] >> cg.EFFECTIVE[state.trump][c] & 1 for c in range(24)
                           if world.hands[s] >> c & 1)
        assert bin(world.hands[s]).count("1") == bin(state.hands[s]).count("1")
    if state.exchanged and not (state.maker == state.dealer and state.ten) and not state.played >> state.up & 1:
        assert world.hands[state.dealer] >> state.up & 1  # the up-card stays where everyone saw it go
    if state.exchanged and state.maker == state.dealer and state.ten:
        assert (world.hands[state.dealer] | world.pile | world.played) >> state.up & 1


@pytest.mark.parametrize("seed,decisions", [(1, 2), (2, 5), (3, 8), (6, 12), (7, 16), (9, 20), (10, 11)])
def test_resampled_worlds_keep_what_the_player_knows(seed, decisions):
    state = random_state(seed, decisions)
    rng = random.Random(seed)
    for p in range(3):
        for _ in range(20):
            world = state.resample_from_infostate(p, rng)
            _consistent(world, state, p)
            copy = world.clone()  # and the world plays on
            while not copy.is_terminal():
                copy.apply_action(copy.legal_actions()[0])


def test_resampling_at_every_node_of_many_hands():
    """Every decision node of 60 random hands (the merge and the dealer's exchange met): worlds for every seat."""
    rng = random.Random(3)
    met = Counter()
    for seed in range(60):
        state = random_state(seed, 0, rules={"dealer_pickup": "mandatory"} if seed % 3 == 0 else None)
        while not state.is_terminal():
            met[state.phase] += 1
            for p in range(3):
                _consistent(state.resample_from_infostate(p, rng), state, p)
            state.apply_action(rng.choice(state.legal_actions()))
    assert all(met[ph] for ph in (cg.AUCTION, cg.EXCHANGE, cg.MAKER_ALONE, cg.DEFEND, cg.MERGE, cg.PLAY))


def test_resampling_a_merged_dealer_loosens_the_up_card():
    """The dealer took the up-card and merged: the others cannot tell whether it kept it or put it down."""
    state = dealt_state(bower.game("cutthroat"), 1, HANDS, DUMMY, KITTY)
    for a in (cg.PASS, cg.PASS, cg.ACCEPT, parse_card("9S"), cg.NOT_ALONE, cg.NOT_ALONE, cg.NOT_ALONE):
        state.apply_action(a)
    for c in ("JH", "AH", "KH", "QH", "QS"):
        state.apply_action(parse_card(c))
    assert state.phase == cg.PLAY and state.pile >> parse_card("KD") & 1
    rng = random.Random(5)
    held = 0
    for _ in range(400):
        world = state.resample_from_infostate(2, rng)
        _consistent(world, state, 2)
        held += world.hands[1] >> parse_card("KD") & 1
        assert world.discard != parse_card("KD") and not world.dummy >> parse_card("KD") & 1
    assert 100 < held < 300  # kept in about half the worlds (5 of the 10 places)
    world = state.resample_from_infostate(1, rng)  # the maker knows it all
    assert world.hands[1] == state.hands[1] and world.pile == state.pile and world.dummy == state.dummy


def test_resample_accepts_the_usual_random_sources():
    import numpy as np

    state = random_state(9, 15)
    worlds = [state.resample_from_infostate(0, r) for r in (random.Random(1), np.random.default_rng(1), 5, None,
                                                                random.Random(2).random)]
    assert all(w.information_state_string(0) == state.information_state_string(0) for w in worlds)
    assert state.resample_from_infostate(0, 5).hands == state.resample_from_infostate(0, 5).hands
    with pytest.raises(bower.BowerError, match="rng must be"):
        state.resample_from_infostate(0, "seed")
    with pytest.raises(bower.BowerError, match="needs the deal done"):
        bower.game("cutthroat").new_initial_state().resample_from_infostate(0, 1)


# ---------------------------------------------------------------- the full check


def main(argv: list[str]) -> None:
    args = [a for a in argv if not a.startswith("--")]
    hands = int(args[0]) if args else FULL_HANDS
    total = 0.0
    for rules in (RULE_SETS if "--all-rules" in argv else RULE_SETS[:1]):
        times: dict = {}
        cases = kernel_check(seed=2026, hands=hands, rules=rules, times=times)
        took = times["kernels"] + times["api"]
        total += took
        print(f"{hands:,} hands, rules {rules or 'defaults'}: the API plays as the kernels "
              f"({cases['thrown in']:,} thrown in), {took:.1f} s (kernels' records {times['kernels']:.1f} s, "
              f"API with its checks {times['api']:.1f} s)", flush=True)
    print(f"all: {total:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
