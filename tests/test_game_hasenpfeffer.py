"""Hasenpfeffer's game API (``bower.game("hasenpfeffer")``, ``bower.sim.variants.hasenpfeffer.game``) against the kernels.

The kernel check: the kernels play ``N`` hands of a run with the ``random``
preset in every seat, and record each. The kernels' random player takes
``choices[bounded(len(choices))]`` from the chunk's decision stream
(``tests.reference.rng.decision_chunk_rng``): each call (pass, then the bids
above the standing one, ascending), the high bidder's discard (one of its
seven cards, ascending; ``widow = exchange``), then its trump (C S D H), and
each card played (ascending). The API asks in the same order and its legal
sets are sorted the same way (``State.kernel_order`` is the sorted order), so
a bot drawing from the same stream the same way plays as the kernels: a legal
set of another size at any decision moves the stream, another order or
content changes the choice, and every later decision of the chunk then
differs. Every decision (calls, forced bid, discard, trump, plays), the
tricks and the points must equal the kernel's record; each legal set is also
checked against the plain-Python rules reference
``tests/reference/hasenpfeffer.py``, the auction's outcome, the first leader
and the points too, and each hand's points against the score vectors of
``/work/shared/vectors/hasenpfeffer_scores.jsonl`` (via the reference when
the file is absent or the rules are outside it).

``python -m tests.test_game_hasenpfeffer [N] [--all-rules]`` runs the check
on ``FULL_HANDS`` (100,000) hands under the default rules (each rule set
with ``--all-rules``) and prints the time taken.
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
from bower.sim.variants.hasenpfeffer import game as hg
from tests.reference import hasenpfeffer as hr
from tests.reference.rng import decision_chunk_rng

FULL_HANDS = 100_000  # hands of the full check (``python -m tests.test_game_hasenpfeffer``)
CI_HANDS = 2_000  # hands per rule set of the check in the suite
CHUNK = 4096  # hands per chunk of a run: each chunk has its own decision stream
VECTORS = Path("/work/shared/vectors/hasenpfeffer_scores.jsonl")
RULE_SETS = [
    {},
    {"pass_is_final": True, "bidding": "pepper", "widow": "dead"},
    {"all_pass": "redeal", "first_lead": "bidder", "fail_penalty": "undertricks", "defenders_score_tricks": True},
    {"bidding": "pepper", "pass_is_final": True, "fail_penalty": "undertricks", "first_lead": "bidder"},
]


def _score_table() -> dict:
    """(bid, bidding side's tricks, bidding, fail_penalty) -> (bidding side's points, defenders' points), with
    ``defenders_score_tricks`` off."""
    out = {}
    if VECTORS.is_file():
        for line in VECTORS.read_text().splitlines():
            if line.strip():
                r = json.loads(line)
                rules = r["rules"]
                key = (r["bid"], r["bidding_side_tricks"], rules["bidding"], rules["fail_penalty"])
                out[key] = (r["bidding_side_points"], r["defending_side_points"])
        return out
    for bidding, bids in (("numeric", hr.NUMERIC_BIDS), ("pepper", hr.PEPPER_BIDS)):
        for fail in ("bid", "undertricks"):
            for bid in bids:
                for t in range(7):
                    rules = {"bidding": bidding, "fail_penalty": fail}
                    out[bid, t, bidding, fail] = hr.score_hand(bid, t, rules)
    return out


SCORES = _score_table()


# ---------------------------------------------------------------- dealing a given deal through the chance nodes


def _card(c) -> int:
    return parse_card(c) if isinstance(c, str) else int(c)


def deal_actions(dealer: int, hands: dict, widow) -> list[int]:
    """The chance actions that deal ``hands`` (seat -> 6 cards, packets of three from position 1) and ``widow``."""
    by_seat = {int(s): [_card(c) for c in cards] for s, cards in hands.items()}
    taken = [0, 0, 0, 0]
    out = [dealer]
    for k in range(24):
        seat = (dealer + 1 + (k // 3) % 4) % 4
        out.append(by_seat[seat][taken[seat]])
        taken[seat] += 1
    return out + [_card(widow)]


def dealt_state(game, dealer: int, hands: dict, widow):
    state = game.new_initial_state()
    for a in deal_actions(dealer, hands, widow):
        assert state.is_chance_node() and a in dict(state.chance_outcomes())
        state.apply_action(a)
    return state


# ---------------------------------------------------------------- the reference's legal sets, as action ids


def _call_id(word: str, rules: dict) -> int:
    return hg.PASS if word == hr.PASS else hg.BID + hr.bid_level(word, rules) - 1


def _words(state) -> list[str]:
    return [state.game.call_names[lv] for _, lv in state.calls]


def reference_legal(state, rules: dict) -> list[int]:
    """The legal actions of ``state`` by the rules reference ``tests/reference/hasenpfeffer.py``."""
    if state.phase == hg.AUCTION:
        words = _words(state)
        assert hr.next_caller(words, state.dealer, rules) == state.current_player()
        return sorted(_call_id(c, rules) for c in hr.legal_calls(words, state.dealer, rules))
    if state.phase == hg.DISCARD:
        dealt = hr.cards_from_mask(state.dealt[state.bidder])
        return sorted(c.index for c in hr.widow_options(dealt, state.widow, rules))
    if state.phase == hg.NAME_TRUMP:
        return [hg.TRUMP + s for s in hr.trump_options()]
    if state.phase == hg.PLAY:
        hand = hr.cards_from_mask(state.hands[state.current_player()])
        lead = hr.card_from_index(state.trick[0][1]) if state.trick else None
        return sorted(c.index for c in hr.legal_cards(hand, lead, state.trump))
    raise AssertionError(state.phase)


def _joker_seat(state):
    return next((s for s in range(4) if state.dealt[s] >> hg.JOKER & 1), None)


# ---------------------------------------------------------------- the kernel check


def kernel_check(seed: int, hands: int, rules: dict, reference: bool = True, times: dict | None = None) -> Counter:
    """Play ``hands`` hands of the run ``seed`` in the kernels (``random`` preset) and through the API with the same
    decisions; assert every record field and legal set equal. Returns the cases met (contract, made, forced), with
    counts; ``times`` gets the seconds of the kernels' records (``kernels``) and of the API's play and checks
    (``api``)."""
    from bower.sim import runner

    start = time.perf_counter()
    records = runner.hand_records(seed, 0, hands, rules=rules, strategy="random", variant="hasenpfeffer")
    if times is not None:
        times["kernels"] = time.perf_counter() - start
    game = bower.game("hasenpfeffer", rules=rules)
    rules_d = game.rules
    cases: Counter = Counter()
    stream = None
    for h, rec in enumerate(records):
        if h % CHUNK == 0:
            stream = decision_chunk_rng(seed, h // CHUNK)
        state = dealt_state(game, rec["dealer"], rec["deal"], rec["widow"])
        while not state.is_terminal():
            legal = state.legal_actions()
            if reference:
                assert legal == reference_legal(state, rules_d), (h, str(state))
                if state.phase == hg.PLAY and not state.tricks and not state.trick:
                    assert state.current_player() == hr.first_leader(state.dealer, state.bidder, rules_d)
            order = state.kernel_order(legal)
            assert sorted(order) == legal
            state.apply_action(order[stream.bounded(len(order))])
        mine = state.to_record()
        for key in ("dealer", "deal", "widow", "calls", "forced", "bidder", "bid", "trump", "discard", "plays",
                    "tricks", "points"):
            assert mine[key] == rec[key], f"hand {h}, {key}: api {mine[key]} kernels {rec[key]}"
        ret = state.returns()
        if reference:
            out = hr.auction_outcome(_words(state), state.dealer, _joker_seat(state), rules_d)
            assert out.thrown_in == (state.level == 0) and out.forced == state.forced
        if state.level:
            b = state.bidder
            side = b % 2
            taken = state.won[side] + state.won[side + 2]
            bid = mine["bid"]
            if reference:
                assert (out.bidder, out.bid) == (b, bid)
                assert [ret[0], ret[1]] == [float(x) for x in hr.score_tricks(b, bid, state.won, rules_d)]
            key = (bid, taken, rules_d["bidding"], rules_d["fail_penalty"])
            if not rules_d["defenders_score_tricks"]:
                assert (ret[b], ret[(b + 1) % 4]) == SCORES[key], (h, key, ret)
            assert ret[b] == ret[(b + 2) % 4] and ret[(b + 1) % 4] == ret[(b + 3) % 4]
            cases[bid, taken >= min(state.level, 6), state.forced] += 1
        else:
            assert ret == [0.0] * 4 and state.calls and all(lv == 0 for _, lv in state.calls)
            cases["thrown in"] += 1
    if times is not None:
        times["api"] = time.perf_counter() - start - times["kernels"]
    return cases


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "defaults")
def test_api_plays_as_the_kernels(rules):
    cases = kernel_check(seed=11, hands=CI_HANDS, rules=rules)
    assert sum(cases.values()) == CI_HANDS
    made = {k[1] for k in cases if k != "thrown in"}
    assert made == {True, False}
    if rules.get("bidding") == "pepper":
        assert any(k[0] == "big-pepper" for k in cases if k != "thrown in")


# ---------------------------------------------------------------- scoring


def test_every_score_vector():
    """Each row of the score vectors: a contract of that bid whose side took that many tricks scores as the row."""
    for (bid, t, bidding, fail), expect in SCORES.items():
        for dscore in (False, True):
            game = bower.game("hasenpfeffer", rules={"bidding": bidding, "fail_penalty": fail,
                                                     "defenders_score_tricks": dscore})
            for bidder in range(4):
                state = game.new_initial_state()
                state.bidder = bidder
                state.level = hr.bid_level(bid, game.rules)
                state.won = [0, 0, 0, 0]
                state.won[bidder] = t
                state.won[(bidder + 1) % 4] = 6 - t
                state._score()
                ret = state.returns()
                assert state.is_terminal()
                assert (ret[bidder], ret[(bidder + 1) % 4]) == (expect[0], 6 - t if dscore else expect[1])
                assert ret[bidder] == ret[(bidder + 2) % 4] and ret[(bidder + 1) % 4] == ret[(bidder + 3) % 4]


# ---------------------------------------------------------------- the interface


def random_state(seed: int, decisions: int, rules=None):
    """A state after the deal of ``seed`` and ``decisions`` random decisions (fewer if the hand ends first)."""
    rng = random.Random(seed)
    state = bower.game("hasenpfeffer", rules=rules).new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    for _ in range(decisions):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


HANDS = {0: ["JD", "9D", "AC", "AS", "KS", "QS"], 1: ["TD", "QD", "9C", "TC", "9S", "TS"],
         2: ["9H", "TH", "QC", "KC", "KD", "AD"], 3: ["JH", "QH", "KH", "AH", "JC", "JS"]}
WIDOW = "JK"


def _with_joker(seat: int):
    """HANDS with the joker swapped in for the first card of ``seat``; the widow then is that card."""
    card = HANDS[seat][0]
    hands = {s: [("JK" if c == card else c) for c in cs] for s, cs in HANDS.items()}
    return hands, card


def test_the_first_nodes_and_sizes():
    game = bower.game("hasen")  # an alias
    state = game.new_initial_state()
    assert state.current_player() == CHANCE and state.is_chance_node()
    assert [a for a, _ in state.chance_outcomes()] == [0, 1, 2, 3]
    state.apply_action(3)
    assert [a for a, _ in state.chance_outcomes()] == list(range(25))
    for c in range(25):
        state.apply_action(c)
    assert state.current_player() == 0 and state.legal_actions() == [hg.PASS, *range(26, 32)]
    assert state.widow == 24
    assert state.dealt[0] == 0b111 | 0b111 << 12 and state.dealt[3] == 0b111 << 9 | 0b111 << 21
    assert len(state.observation_tensor(0)) == game.observation_tensor_size() == hg.OBSERVATION_SIZE
    assert state.history() == [3, *range(25)]
    assert state.action_to_string(hg.BID + 2) == "bid 3" and state.action_to_string(hg.PASS) == "pass"
    assert game.num_distinct_actions() == 37 and game.max_chance_outcomes() == 25
    pepper = bower.game("hasenpfeffer", rules={"bidding": "pepper"}).new_initial_state()
    for a in [0, *range(25)]:
        pepper.apply_action(a)
    assert pepper.legal_actions() == [hg.PASS, *range(26, 33)]
    assert pepper.action_to_string(32) == "bid big-pepper" and pepper.action_to_string(31) == "bid little-pepper"


def test_auction_widow_trump_and_play():
    """Seat 1 bids 2, seat 3 bids 4, all pass: seat 3 takes the widow (the joker), discards, names hearts."""
    state = dealt_state(bower.game("hasenpfeffer"), 0, HANDS, WIDOW)
    assert state.current_player() == 1
    for a in (hg.BID + 1, hg.PASS, hg.BID + 3, hg.PASS, hg.PASS):
        state.apply_action(a)
    assert state.current_player() == 2 and state.legal_actions() == [hg.PASS, hg.BID + 4, hg.BID + 5]
    state.apply_action(hg.PASS)  # three passes in a row after the 4 (seat 1 passed and may bid again: it did not)
    assert state.phase == hg.DISCARD and state.current_player() == 3 and state.level == 4
    assert state.legal_actions() == sorted([parse_card(c) for c in HANDS[3]] + [24])
    state.apply_action(parse_card("JC"))
    assert state.phase == hg.NAME_TRUMP and state.legal_actions() == [33, 34, 35, 36]
    assert "widow JK, discard JC" in state.information_state_string(3)
    assert "JK" not in state.information_state_string(1)
    state.apply_action(hg.TRUMP + 3)
    assert state.phase == hg.PLAY and state.current_player() == 1  # position 1 leads
    rec = state.to_record()
    assert rec["calls"] == [[1, "2"], [2, "pass"], [3, "4"], [0, "pass"], [1, "pass"], [2, "pass"]]
    assert rec["discard"] == "JC" and rec["trump"] == "H" and rec["bid"] == "4" and rec["bidder"] == 3
    state.apply_action(parse_card("TD"))
    assert [card_str(c) for c in state.legal_actions()] == ["KD", "AD"]  # seat 2 follows diamonds
    state.apply_action(parse_card("KD"))
    assert [card_str(c) for c in state.legal_actions()] == ["JS", "JH", "QH", "KH", "AH", "JK"]  # void in diamonds
    state.apply_action(24)  # the joker trumps
    assert state.voids[3] == 1 << 2
    state.apply_action(parse_card("9D"))
    assert state.tricks[-1][2] == 3 and state.current_player() == 3
    state.apply_action(parse_card("AH"))  # trump led: the jack of diamonds (left bower) must follow
    assert [card_str(c) for c in state.legal_actions()] == ["JD"]
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    taken = state.won[1] + state.won[3]
    expect = hr.score_tricks(3, "4", state.won)
    assert state.returns() == [float(expect[s % 2]) for s in range(4)]
    assert (state.points[1] == taken) == (taken >= 4)


def test_all_pass_forced_bid_throw_in_and_pass_is_final():
    hands, widow = _with_joker(2)
    state = dealt_state(bower.game("hasenpfeffer"), 0, hands, widow)
    for _ in range(4):
        state.apply_action(hg.PASS)
    assert state.forced and state.bidder == 2 and state.level == 3 and state.current_player() == 2
    assert state.phase == hg.DISCARD and len(state.calls) == 4
    assert state.to_record()["forced"] and state.to_record()["bid"] == "3"
    # the joker is the widow: thrown in
    state = dealt_state(bower.game("hasenpfeffer", rules={"widow": "dead"}), 0, HANDS, WIDOW)
    for _ in range(4):
        state.apply_action(hg.PASS)
    assert state.is_terminal() and state.current_player() == TERMINAL and state.returns() == [0.0] * 4
    # redeal: thrown in whoever holds the joker
    state = dealt_state(bower.game("hasenpfeffer", rules={"all_pass": "redeal"}), 0, hands, widow)
    for _ in range(4):
        state.apply_action(hg.PASS)
    assert state.is_terminal() and state.returns() == [0.0] * 4 and not state.forced
    # a dead widow: straight to trump
    state = dealt_state(bower.game("hasenpfeffer", rules={"widow": "dead", "first_lead": "bidder"}), 0, hands, widow)
    state.apply_action(hg.BID + 5)  # 6 ends the auction at once
    assert state.phase == hg.NAME_TRUMP and state.current_player() == 1 and state.discard == -1
    state.apply_action(hg.TRUMP)
    assert state.current_player() == 1  # the bidder leads
    # pass_is_final: a seat that passed is skipped
    state = dealt_state(bower.game("hasenpfeffer", rules={"pass_is_final": True}), 0, HANDS, WIDOW)
    for a in (hg.PASS, hg.BID, hg.PASS):  # seat 1 passes, seat 2 bids 1, seat 3 passes
        state.apply_action(a)
    assert state.current_player() == 0
    state.apply_action(hg.BID + 1)  # seat 0 bids 2; seat 1 is skipped
    assert state.current_player() == 2
    state.apply_action(hg.PASS)  # every seat but the high bidder has passed
    assert state.phase == hg.DISCARD and state.bidder == 0
    # pepper: little pepper does not end the auction, big pepper does
    state = dealt_state(bower.game("hasenpfeffer", rules={"bidding": "pepper"}), 0, HANDS, WIDOW)
    state.apply_action(31)
    assert state.phase == hg.AUCTION and state.legal_actions() == [hg.PASS, 32]
    state.apply_action(32)
    assert state.phase == hg.DISCARD and state.bidder == 2 and state.to_record()["bid"] == "big-pepper"


def test_illegal_actions_are_refused_in_one_line():
    state = random_state(1, 0)
    before = state.history()
    for bad in (hg.TRUMP, 99, -1, "pass", 3.5, 0):
        with pytest.raises(bower.BowerError) as e:
            state.apply_action(bad)
        assert isinstance(e.value, GameError) and "\n" not in str(e.value) and "not legal" in str(e.value)
    assert state.history() == before
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(bower.BowerError, match="the hand is over"):
        state.apply_action(0)
    with pytest.raises(bower.BowerError, match="seat 0..3"):
        state.information_state_string(4)


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
        state = random_state(seed, 12)
        for p in range(4):
            text = state.information_state_string(p)
            seen = {card_str(c) for c in range(25) if state.hands[p] >> c & 1 or state.played >> c & 1}
            if p == state.bidder and state.taken:
                seen.add(card_str(state.widow))
                if state.discard >= 0:
                    seen.add(card_str(state.discard))
            shown = {w.split(":")[-1] for w in text.replace(",", " ").split()
                     if len(w.split(":")[-1]) == 2 and (w.split(":")[-1] == "JK" or (
                         w.split(":")[-1][1] in "CSDH" and w.split(":")[-1][0] in "9TJQKA"))}
            assert shown <= seen, (p, shown - seen)
            t = state.observation_tensor(p)
            assert [i for i in range(8, 33) if t[i]] == [8 + c for c in range(25) if state.hands[p] >> c & 1]
            assert sum(t[0:4]) == 1 and t[p] == 1
            if p != state.bidder:
                assert not any(t[hg._O_WIDOW:hg._O_CALLS])


# ---------------------------------------------------------------- resampling


def _known(state, p: int) -> dict:
    played = {(s, c) for _, cards, _ in state.tricks for s, c in cards} | set(state.trick)
    mine = p == state.bidder and state.taken
    return {"hand": state.hands[p], "dealt": state.dealt[p], "played": played, "calls": state.calls,
            "history_len": len(state.history()), "forced": state.forced, "bidder": state.bidder,
            "level": state.level, "trump": state.trump, "widow": state.widow if mine else None,
            "discard": state.discard if mine else None, "voids": list(state.voids),
            "info": state.information_state_string(p), "tensor": state.observation_tensor(p),
            "own_order": [c for c in state.order if state.dealt[p] >> c & 1]}


def _consistent(world, state, p: int) -> None:
    assert _known(world, p) == _known(state, p)
    for s in range(4):
        if state.trump >= 0:
            assert not any(state.voids[s] >> hg.EFFECTIVE[state.trump][c] & 1 for c in range(25)
                           if world.hands[s] >> c & 1)
        assert bin(world.hands[s]).count("1") == bin(state.hands[s]).count("1")
    if state.forced:
        assert world.dealt[state.bidder] >> hg.JOKER & 1
    if state.phase == hg.OVER and not state.level:
        assert world.returns() == [0.0] * 4


@pytest.mark.parametrize("seed,decisions", [(1, 2), (2, 5), (3, 8), (6, 12), (7, 16), (9, 20), (10, 11)])
def test_resampled_worlds_keep_what_the_player_knows(seed, decisions):
    state = random_state(seed, decisions)
    rng = random.Random(seed)
    for p in range(4):
        for _ in range(20):
            world = state.resample_from_infostate(p, rng)
            _consistent(world, state, p)
            copy = world.clone()  # and the world plays on
            while not copy.is_terminal():
                copy.apply_action(copy.legal_actions()[0])


def test_resampling_at_every_node_of_many_hands():
    """Every decision node of 60 random hands under the rule sets: worlds for every seat."""
    rng = random.Random(3)
    met = Counter()
    for seed in range(60):
        state = random_state(seed, 0, rules=RULE_SETS[seed % len(RULE_SETS)])
        while not state.is_terminal():
            met[state.phase] += 1
            for p in range(4):
                _consistent(state.resample_from_infostate(p, rng), state, p)
            state.apply_action(rng.choice(state.legal_actions()))
        for p in range(4):
            _consistent(state.resample_from_infostate(p, rng), state, p)
    assert all(met[ph] for ph in (hg.AUCTION, hg.DISCARD, hg.NAME_TRUMP, hg.PLAY))


def test_resampling_keeps_the_joker_with_a_forced_bidder():
    """All passed: seat 2 was made to bid 3, so every world deals it the joker (the widow is never the joker)."""
    hands, widow = _with_joker(2)
    for rules in ({}, {"widow": "dead"}):
        state = dealt_state(bower.game("hasenpfeffer", rules=rules), 0, hands, widow)
        for _ in range(4):
            state.apply_action(hg.PASS)
        if state.phase == hg.DISCARD:
            state.apply_action(24)  # it puts the joker down
        state.apply_action(hg.TRUMP + 2)
        rng = random.Random(7)
        widows = Counter()
        for _ in range(300):
            world = state.resample_from_infostate(1, rng)
            _consistent(world, state, 1)
            assert world.widow != 24
            widows[world.widow] += 1
        assert len(widows) > 5
    # thrown in with the joker the widow: it stays the widow
    state = dealt_state(bower.game("hasenpfeffer"), 0, HANDS, WIDOW)
    for _ in range(4):
        state.apply_action(hg.PASS)
    for p in range(4):
        assert state.resample_from_infostate(p, rng).widow == 24


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
        bower.game("hasenpfeffer").new_initial_state().resample_from_infostate(0, 1)


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
