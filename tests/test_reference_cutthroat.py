"""The Cutthroat reference engine (``tests/reference/cutthroat.py``) against RULES.md section 2.

- every worked score of ``shared/vectors/cutthroat_scores.jsonl``, and the
  three-card tricks and legal-move vectors without the joker through the card
  helpers shared with the Ghost Hand reference;
- one test per rule (deal order, auction, exchange, merge, going alone, first
  lead, renege, game end), with the illegal cases raising ValueError;
- hypothesis: random deals with random legal decisions (each picked
  uniformly among the legal ones) give consistent auctions and hands in
  which no card is lost or duplicated, suit is followed, tricks add up, a
  hand that sits out never plays, the first lead follows the rule and the
  points are the vectors' (the vector table looked up, not recomputed);
- exact combinatorics: the up-card is uniform over the 24 cards, and the
  chance that the dummy holds both bowers of the up-card's suit is 25/759.
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from math import comb, sqrt
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bower.sim.cards import SUITS, parse_card
from tests.reference import cutthroat as ct

VECTORS = Path(__file__).resolve().parents[1].parent / "shared" / "vectors"


def _load(name: str) -> list[dict]:
    with open(VECTORS / name, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


SCORES = _load("cutthroat_scores.jsonl")
TRICKS3 = [v for v in _load("tricks.jsonl") if len(v["cards"]) == 3 and "JK" not in v["cards"]]
LEGAL = [v for v in _load("legal.jsonl") if "JK" not in v["hand"] and v["lead"] != "JK"]

ALL_RULES = [
    dict(zip(("dealer_pickup", "allow_turned_down_suit", "stick_the_dealer", "maker_alone",
              "lone_maker_march", "lone_defender_points"), values))
    for values in itertools.product(("optional", "mandatory"), (False, True), (False, True),
                                    ("allowed", "disabled"), (4, 3), ("both", "lone_only"))
]
EVERY_CALL = ("pass", "order", "assist", "take", "C", "S", "D", "H")


def C(text: str) -> ct.Card:
    return ct.card_from_str(text)


def cards(text: str) -> list[ct.Card]:
    return [C(t) for t in text.split()]


def test_vector_files_hold_what_we_expect():
    assert len(SCORES) == 96
    assert len(TRICKS3) >= 200 and len(LEGAL) >= 350


# ---------------------------------------------------------------- rule vectors


def _vector_key(maker_tricks, maker_alone, with_lone_defender, rules):
    return (maker_tricks, maker_alone, with_lone_defender, rules["lone_maker_march"], rules["lone_defender_points"])


VECTOR_TABLE = {
    _vector_key(v["maker_tricks"], v["maker_alone"], v["lone_defender"] == 1, v["rules"]): v["points"]
    for v in SCORES
}


def _vector_id(v) -> str:
    keys = ("maker_tricks", "maker_alone", "lone_defender")
    return "-".join([str(v[k]) for k in keys] + [str(x) for x in v["rules"].values()])


@pytest.mark.parametrize("v", SCORES, ids=_vector_id)
def test_cutthroat_score_vectors(v):
    points = ct.score_hand(v["maker"], v["maker_tricks"], v["maker_alone"], v["lone_defender"], v["rules"])
    assert points == v["points"]
    # the same through the tricks per seat (the seat that sits out took none)
    defenders = 5 - v["maker_tricks"]
    tricks = [v["maker_tricks"], defenders, 0]  # with a lone defender (seat 1) seat 2 sits out
    assert ct.score_tricks(v["maker"], tricks, v["maker_alone"], v["lone_defender"], v["rules"]) == v["points"]
    if v["lone_defender"] is None and defenders:  # the defenders' tricks count together
        assert ct.score_tricks(v["maker"], [v["maker_tricks"], 0, defenders], v["maker_alone"], None,
                               v["rules"]) == v["points"]


def test_three_card_trick_vectors_through_shared_helpers():
    for v in TRICKS3:
        trump = SUITS.index(v["trump"])
        played = [C(c) for c in v["cards"]]
        assert ct.effective_suit(played[0], trump) == SUITS.index(v["led_suit"]), v
        assert ct.trick_winner(played, trump) == v["winner"], v


def test_legal_vectors_through_shared_helpers():
    for v in LEGAL:
        legal = ct.legal_cards([C(c) for c in v["hand"]], C(v["lead"]), SUITS.index(v["trump"]))
        assert sorted(str(c) for c in legal) == sorted(v["legal"]), v


def test_card_numbering_matches_sim_cards():
    for i, card in enumerate(ct.DECK):
        assert card.index == i == parse_card(str(card))


# ---------------------------------------------------------------- options


def test_options_and_defaults():
    assert ct.resolve_rules() == {
        "dealer_pickup": "optional", "allow_turned_down_suit": False, "stick_the_dealer": False,
        "maker_alone": "allowed", "lone_maker_march": 4, "lone_defender_points": "both",
    }
    assert ct.TARGET == 10
    assert ct.resolve_rules({"stick_the_dealer": "true", "lone_maker_march": "3"})["lone_maker_march"] == 3
    with pytest.raises(ValueError, match="unknown rule option"):
        ct.resolve_rules({"swap": "none"})
    with pytest.raises(ValueError, match="bad value"):
        ct.resolve_rules({"lone_maker_march": 5})


# ---------------------------------------------------------------- the deal


def test_deal_order_one_card_at_a_time():
    # order = the deck in index order; dealer seat 1, so position 1 is seat 2, position 2 seat 0
    d = ct.deal_cards(list(range(24)), dealer=1)
    assert [c.index for c in d.hands[2]] == [0, 4, 8, 12, 16]  # position 1
    assert [c.index for c in d.hands[0]] == [1, 5, 9, 13, 17]  # position 2
    assert [c.index for c in d.hands[1]] == [2, 6, 10, 14, 18]  # the dealer
    assert [c.index for c in d.dummy] == [3, 7, 11, 15, 19]
    assert [c.index for c in d.kitty] == [20, 21, 22, 23]
    assert d.up_card == ct.DECK[20] == C("JH")
    assert sorted(c.index for c in d.all_cards()) == list(range(24))


def test_deal_rejects_bad_orders():
    with pytest.raises(ValueError, match="all 24 cards"):
        ct.deal_cards(list(range(23)), 0)
    with pytest.raises(ValueError, match="duplicate"):
        ct.deal_cards([0] + list(range(1, 23)) + [0], 0)
    with pytest.raises(ValueError, match="seat"):
        ct.deal_cards(list(range(24)), 3)


def test_positions_and_seats():
    for dealer in range(3):
        assert [ct.seat_of_position(dealer, p) for p in (1, 2, 3)] == [(dealer + 1) % 3, (dealer + 2) % 3, dealer]
        for p in (1, 2, 3):
            assert ct.position_of_seat(dealer, ct.seat_of_position(dealer, p)) == p
        assert ct.next_dealer(dealer) == (dealer + 1) % 3


# ---------------------------------------------------------------- the auction

UP = C("QH")  # up-card in hearts


def test_round_one_acceptances():
    for k, word in enumerate(("order", "assist", "take")):
        calls = ["pass"] * k + [word]
        r = ct.auction_outcome(calls, dealer=0, up_card=UP)
        assert not r.thrown_in and r.round == 1 and r.trump == SUITS.index("H")
        assert r.maker == r.accepted_by == ct.seat_of_position(0, k + 1) and r.call == word
        assert r.calls == tuple((ct.seat_of_position(0, i + 1), c) for i, c in enumerate(calls))


def test_round_two_and_throw_in():
    r = ct.auction_outcome(["pass"] * 4 + ["S"], dealer=2, up_card=UP)
    assert (r.round, r.maker, r.trump, r.call, r.accepted_by) == (2, ct.seat_of_position(2, 2), 1, "S", None)
    r = ct.auction_outcome(["pass"] * 6, dealer=2, up_card=UP)
    assert r.thrown_in and r.maker is None and r.trump is None
    assert ct.auction_outcome(["pass"] * 3 + ["h"], 0, UP, {"allow_turned_down_suit": True}).trump == 3


def test_illegal_calls_raise():
    with pytest.raises(ValueError, match="position 1 .* may call 'pass' or 'order'"):
        ct.auction_outcome(["assist"], 0, UP)
    with pytest.raises(ValueError, match="the dealer .* may call 'pass' or 'take'"):
        ct.auction_outcome(["pass", "pass", "order"], 0, UP)
    with pytest.raises(ValueError, match="round two"):
        ct.auction_outcome(["pass"] * 3 + ["H"], 0, UP)  # the turned-down suit
    with pytest.raises(ValueError, match="round two"):
        ct.auction_outcome(["pass"] * 3 + ["order"], 0, UP)
    with pytest.raises(ValueError, match="the dealer .* may call 'C' or 'S' or 'D'"):
        ct.auction_outcome(["pass"] * 6, 0, UP, {"stick_the_dealer": True})
    with pytest.raises(ValueError, match="ended with 'order'"):
        ct.auction_outcome(["order", "pass"], 0, UP)
    with pytest.raises(ValueError, match="thrown in"):
        ct.auction_outcome(["pass"] * 7, 0, UP)
    with pytest.raises(ValueError, match="not over after 4 call"):
        ct.auction_outcome(["pass"] * 4, 0, UP)
    with pytest.raises(ValueError, match="a call is a string"):
        ct.auction_outcome([None], 0, UP)


def test_legal_calls():
    assert ct.legal_calls([], 0, UP) == ["pass", "order"]
    assert ct.legal_calls(["pass"], 0, UP) == ["pass", "assist"]
    assert ct.legal_calls(["pass"] * 3, 0, UP) == ["pass", "C", "S", "D"]
    assert ct.legal_calls(["pass"] * 5, 0, UP, {"stick_the_dealer": True}) == ["C", "S", "D"]
    both = {"stick_the_dealer": True, "allow_turned_down_suit": True}
    assert ct.legal_calls(["pass"] * 5, 0, UP, both) == list(SUITS)
    assert ct.legal_calls(["order"], 0, UP) == []


# ---------------------------------------------------------------- exchange, merge, going alone

DEALER_HAND = cards("9C TC JS QD AH")


def test_dealer_exchange():
    up = C("KH")
    by_index = sorted(DEALER_HAND, key=lambda c: c.index)
    assert ct.exchange_options(DEALER_HAND, up) == [None] + by_index
    assert ct.exchange_options(DEALER_HAND, up, {"dealer_pickup": "mandatory"}) == by_index
    hand, out = ct.dealer_exchange(DEALER_HAND, up, "9C")
    assert out == C("9C") and set(hand) == set(DEALER_HAND) - {C("9C")} | {up} and len(hand) == 5
    hand, out = ct.dealer_exchange(DEALER_HAND, up, None)
    assert out is None and set(hand) == set(DEALER_HAND)
    with pytest.raises(ValueError, match="mandatory"):
        ct.dealer_exchange(DEALER_HAND, up, None, {"dealer_pickup": "mandatory"})
    with pytest.raises(ValueError, match="not a card of the dealer's hand"):
        ct.dealer_exchange(DEALER_HAND, up, "KH")  # the up-card itself is not "a card of their own hand"
    with pytest.raises(ValueError, match="not a card of the dealer's hand"):
        ct.dealer_exchange(DEALER_HAND, up, "AS")


def test_merge_with_the_dummy():
    hand, dummy = cards("9C TC JS QD AH"), cards("JC AC KC QC 9S")
    kept, out = ct.merge_dummy(hand, dummy, cards("JS JC AC KC QC"))
    assert set(kept) == set(cards("JS JC AC KC QC")) and set(out) == set(cards("9C TC QD AH 9S"))
    with pytest.raises(ValueError, match="exactly 5"):
        ct.check_keep(hand, dummy, cards("JS JC AC KC"))
    with pytest.raises(ValueError, match="duplicate"):
        ct.check_keep(hand, dummy, cards("JS JC AC KC JS"))
    with pytest.raises(ValueError, match="not AS"):
        ct.check_keep(hand, dummy, cards("JS JC AC KC AS"))
    with pytest.raises(ValueError, match="share"):
        ct.check_keep(hand, cards("9C AC KC QC 9S"), cards("JS AC KC QC 9S"))


def test_going_alone_rules():
    ct.check_going_alone(0, True, 1)  # both may go alone
    ct.check_going_alone(0, False, 2)
    with pytest.raises(ValueError, match="disabled"):
        ct.check_going_alone(0, True, None, {"maker_alone": "disabled"})
    ct.check_going_alone(0, False, 1, {"maker_alone": "disabled"})  # a defender still may
    with pytest.raises(ValueError, match="is the maker"):
        ct.check_going_alone(0, False, 0)
    assert ct.sitting_out(0, 1) == 2 and ct.sitting_out(0, None) is None
    assert ct.active_seats(1, 0) == [0, 1] and ct.active_seats(1, None) == [0, 1, 2]
    assert ct.play_order(2, [0, 2]) == [2, 0] and ct.play_order(1, [0, 1, 2]) == [1, 2, 0]


def expected_first_leader(dealer, maker, maker_alone, lone_defender):
    """RULES.md section 2, case by case (written out here independently of the reference)."""
    if maker_alone and lone_defender is not None:
        return lone_defender  # "if maker and a defender both go alone, the defender"
    if maker_alone:
        return (maker + 1) % 3  # the seat to the lone maker's left is a defender, active
    if lone_defender is not None:
        return maker  # left of the lone defender: either the maker or the partner who sits out, then the maker
    return (dealer + 1) % 3  # position 1


def test_first_leader_every_case():
    for dealer, maker in itertools.product(range(3), range(3)):
        for maker_alone, lone in itertools.product((False, True), [None] + ct.defenders_of(maker)):
            got = ct.first_leader(dealer, maker, maker_alone, lone)
            assert got == expected_first_leader(dealer, maker, maker_alone, lone)
            assert got in ct.active_seats(maker, lone)
    # a worked case: dealer 0, maker 1, seat 2 alone -> seat 0 sits out, so the maker (seat 1) leads
    assert ct.first_leader(0, 1, False, 2) == 1


# ---------------------------------------------------------------- play


def test_play_with_choices_two_players():
    hands = [ct.mask_from_cards(cards("9C TC JC QC KC")), 0, ct.mask_from_cards(cards("9H TH JH QH KH"))]
    r = ct.play_with_choices(hands, trump=3, leader=0, active=[0, 2], choices=[0] * 10)
    seats = [s for s, _ in r["plays"]]
    assert seats == [0, 2] + [2, 0] * 4  # seat 1 sits out and never plays; seat 2 wins and leads
    assert r["tricks"] == [0, 0, 5]  # hearts are trump
    with pytest.raises(ValueError, match="10 choices"):
        ct.play_with_choices(hands, 3, 0, [0, 2], [0] * 9)
    with pytest.raises(ValueError, match="not an active player"):
        ct.play_with_choices(hands, 3, 1, [0, 2], [0] * 10)


def test_left_bower_must_follow_trump():
    # trump hearts, 9H led: the JD (left bower) holder with no other heart must play it
    hands = [ct.mask_from_cards(cards("9H 9C TC QC KC")), ct.mask_from_cards(cards("JD AD KD QD TD")),
             ct.mask_from_cards(cards("9S TS QS KS AS"))]
    # seat 0's legal cards sorted by index: 9C TC QC KC 9H, so choice 4 leads the 9H
    r = ct.play_with_choices(hands, trump=3, leader=0, active=[0, 1, 2], choices=[4] + [0] * 14)
    assert r["plays"][:3] == [(0, C("9H").index), (1, C("JD").index), (2, C("9S").index)]


# ---------------------------------------------------------------- renege and the game


def test_renege_points():
    assert ct.renege_points(1, 0) == [2, 0, 0]  # a defender reneges: the maker scores 2
    assert ct.renege_points(2, 0, maker_alone=True) == [4, 0, 0]  # against a lone maker: 4
    assert ct.renege_points(0, 0) == [0, 2, 2]  # the maker reneges: each defender 2
    assert ct.renege_points(0, 0, maker_alone=True) == [0, 2, 2]
    assert ct.renege_points(0, 0, lone_defender=1) == [0, 4, 4]  # against a lone defender: 4
    assert ct.renege_points(0, 0, lone_defender=1, rules={"lone_defender_points": "lone_only"}) == [0, 4, 0]
    assert ct.renege_points(1, 0, maker_alone=True, lone_defender=1) == [4, 0, 0]
    with pytest.raises(ValueError, match="sat out"):
        ct.renege_points(2, 0, lone_defender=1)


def test_game_winner():
    assert ct.game_winner([9, 9, 9]) is None
    assert ct.game_winner([10, 3, 4]) == 0
    assert ct.game_winner([7, 12, 11]) == 1  # two past 10 on the same hand: the higher wins
    assert ct.game_winner([11, 11, 2]) is None  # an exact tie plays another hand
    assert ct.game_winner([11, 11, 12]) == 2  # ... after which the highest at 10 or more wins
    assert ct.game_winner([10, 10, 10]) is None


# ---------------------------------------------------------------- hypothesis: auctions

rules_st = st.sampled_from(ALL_RULES)
deal_st = st.permutations(range(24))


def random_calls(rnd: random.Random, dealer: int, up_card, rules: dict) -> list[str]:
    """A call sequence picked uniformly among the legal calls at each step."""
    calls: list[str] = []
    while legal := ct.legal_calls(calls, dealer, up_card, rules):
        calls.append(rnd.choice(legal))
    return calls


@settings(deadline=None, max_examples=300)
@given(order=deal_st, dealer=st.integers(0, 2), rules=rules_st, rnd=st.randoms(use_true_random=False))
def test_random_auctions_are_consistent(order, dealer, rules, rnd):
    up = ct.deal_cards(order, dealer).up_card
    calls = random_calls(rnd, dealer, up, rules)
    r = ct.auction_outcome(calls, dealer, up, rules)
    turn_seats = [ct.seat_of_position(dealer, 1 + k % 3) for k in range(6)]
    assert [s for s, _ in r.calls] == turn_seats[: len(calls)]
    assert r.thrown_in == (r.maker is None) == (r.trump is None) == (r.round is None)
    assert all(c == "pass" for c in calls[:-1])  # one maker at most: the last call is the only non-pass
    if r.thrown_in:
        assert calls == ["pass"] * 6 and not rules["stick_the_dealer"]
    elif r.round == 1:
        assert len(calls) <= 3
        pos = len(calls)
        assert calls[-1] == {1: "order", 2: "assist", 3: "take"}[pos]
        assert r.maker == r.accepted_by == ct.seat_of_position(dealer, pos)
        assert r.trump == up.suit
    else:
        assert 4 <= len(calls) <= 6 and calls[-1] in SUITS
        assert r.maker == ct.seat_of_position(dealer, len(calls) - 3) and r.accepted_by is None
        assert r.trump == SUITS.index(calls[-1])
        assert rules["allow_turned_down_suit"] or r.trump != up.suit
    # the sequence is complete and exact: a prefix is unfinished, any extra call is too many
    for k in range(len(calls)):
        with pytest.raises(ValueError, match="not over"):
            ct.auction_outcome(calls[:k], dealer, up, rules)
    with pytest.raises(ValueError):
        ct.auction_outcome(calls + ["pass"], dealer, up, rules)
    # any call not legal at a step makes the sequence illegal
    k = rnd.randrange(len(calls))
    legal = ct.legal_calls(calls[:k], dealer, up, rules)
    illegal = [c for c in EVERY_CALL if c not in legal]
    with pytest.raises(ValueError):
        ct.auction_outcome(calls[:k] + [rnd.choice(illegal)], dealer, up, rules)


# ---------------------------------------------------------------- hypothesis: whole hands


def random_hand(rnd: random.Random, order, dealer: int, rules: dict):
    """Every decision uniformly among the legal ones; returns the decisions and the record."""
    d = ct.deal_cards(order, dealer)
    calls = random_calls(rnd, dealer, d.up_card, rules)
    auction = ct.auction_outcome(calls, dealer, d.up_card, rules)
    dec = {"calls": calls, "discard": None, "maker_alone": False, "lone_defender": None, "keep": None,
           "choices": [rnd.randrange(60) for _ in range(15)]}  # 60 = lcm(1..5): choice % n is uniform
    if auction.thrown_in:
        dec["choices"] = ()
        return dec, ct.play_hand(order, dealer, calls, rules=rules)
    maker = auction.maker
    maker_hand = list(d.hands[maker])
    if auction.round == 1:
        dec["discard"] = rnd.choice(ct.exchange_options(d.hands[dealer], d.up_card, rules))
        if maker == dealer:
            maker_hand = ct.dealer_exchange(d.hands[dealer], d.up_card, dec["discard"], rules)[0]
    dec["maker_alone"] = rules["maker_alone"] == "allowed" and rnd.random() < 0.5
    dec["lone_defender"] = rnd.choice([None] + ct.defenders_of(maker))
    if not dec["maker_alone"]:
        dec["keep"] = rnd.sample(maker_hand + list(d.dummy), 5)
    rec = ct.play_hand(order, dealer, calls, discard=dec["discard"], maker_alone=dec["maker_alone"],
                       lone_defender=dec["lone_defender"], keep=dec["keep"], choices=dec["choices"], rules=rules)
    return dec, rec


def vector_points(maker, maker_tricks, maker_alone, lone_defender, rules):
    """The points the vector file gives, relabelled from its seats (maker 0, lone defender 1) to ours."""
    key = _vector_key(maker_tricks, maker_alone, lone_defender is not None, rules)
    table = VECTOR_TABLE[key]
    defenders = ct.defenders_of(maker)
    if lone_defender is not None:
        defenders = [lone_defender] + [s for s in defenders if s != lone_defender]
    out = [0, 0, 0]
    for vector_seat, seat in enumerate([maker] + defenders):
        out[seat] = table[vector_seat]
    return out


@settings(deadline=None, max_examples=300)
@given(order=deal_st, dealer=st.integers(0, 2), rules=rules_st, rnd=st.randoms(use_true_random=False))
def test_random_hands_keep_the_rules(order, dealer, rules, rnd):
    dec, rec = random_hand(rnd, order, dealer, rules)
    d, auction = rec["deal"], rec["auction"]
    deck = set(ct.DECK)
    # the deal: 15 cards in the players' hands, 5 in the dummy, 4 in the kitty, nothing twice
    dealt = [c for h in d.hands for c in h]
    assert [len(h) for h in d.hands] == [5, 5, 5] and len(d.dummy) == 5 and len(d.kitty) == 4
    assert len(set(dealt) | set(d.dummy) | set(d.kitty)) == 24 and set(d.all_cards()) == deck
    assert d.up_card == ct.DECK[order[20]]
    if auction.thrown_in:
        assert rec["plays"] == [] and rec["points"] == [0, 0, 0] and set(rec["out_of_play"]) == deck
        return
    maker, trump = auction.maker, auction.trump
    active, out = rec["active"], rec["sitting_out"]
    # the dealer's exchange: round one only, the up-card for a card of the dealer's hand
    if rec["dealer_discard"] is not None:
        assert auction.round == 1 and rec["dealer_discard"] in d.hands[dealer]
        if dealer in active and dealer != maker:
            assert d.up_card in rec["hands"][dealer]
    elif auction.round == 1:
        assert rules["dealer_pickup"] == "optional"
    # the merge: the maker keeps 5 of the 10, the other 5 are discarded
    if rec["maker_alone"]:
        assert rules["maker_alone"] == "allowed" and rec["maker_discards"] == []
        assert set(rec["hands"][maker]) <= set(d.hands[maker]) | {d.up_card}
    else:
        ten = set(rec["hands"][maker]) | set(rec["maker_discards"])
        assert len(ten) == 10 and set(d.dummy) <= ten and len(rec["maker_discards"]) == 5
    # every card is accounted for exactly once: in play in an active hand, or out of play
    in_play = [c for s in active for c in rec["hands"][s]]
    assert all(len(rec["hands"][s]) == 5 for s in active)
    assert len(in_play) + len(rec["out_of_play"]) == 24 and set(in_play) | set(rec["out_of_play"]) == deck
    # going alone and who is active
    assert len(active) == (2 if dec["lone_defender"] is not None else 3)
    assert out is None or (out != maker and out != dec["lone_defender"] and out not in active)
    # the first lead follows the rule
    assert rec["leader"] == expected_first_leader(dealer, maker, rec["maker_alone"], rec["lone_defender"])
    # play: suit followed, winner leads, a hand that sits out never plays, tricks add up
    plays = rec["plays"]
    n = len(active)
    assert len(plays) == 5 * n and sorted(c.index for _, c in plays) == sorted(c.index for c in in_play)
    held = {s: set(rec["hands"][s]) for s in active}
    tricks = [0, 0, 0]
    leader = rec["leader"]
    for t in range(5):
        trick = plays[t * n:(t + 1) * n]
        seats = [s for s, _ in trick]
        assert seats[0] == leader and sorted(seats) == active and out not in seats
        led = ct.effective_suit(trick[0][1], trump)
        for seat, card in trick:
            assert card in held[seat]
            if any(ct.effective_suit(c, trump) == led for c in held[seat]):
                assert ct.effective_suit(card, trump) == led, f"seat {seat} did not follow suit"
            held[seat].remove(card)
        leader = seats[ct.trick_winner([c for _, c in trick], trump)]
        tricks[leader] += 1
    assert tricks == rec["tricks"] and sum(tricks) == 5 and (out is None or tricks[out] == 0)
    # the points are the vector table's
    assert rec["points"] == vector_points(maker, tricks[maker], rec["maker_alone"], rec["lone_defender"], rules)


@settings(deadline=None, max_examples=100)
@given(order=deal_st, dealer=st.integers(0, 2), rnd=st.randoms(use_true_random=False))
def test_illegal_decisions_in_a_hand_raise(order, dealer, rnd):
    rules = {"maker_alone": "disabled", "dealer_pickup": "mandatory"}
    d = ct.deal_cards(order, dealer)
    calls = ["order"]  # position 1 orders it up: round one, the dealer must exchange
    maker = ct.seat_of_position(dealer, 1)
    keep = list(d.hands[maker])
    discard = d.hands[dealer][0]
    ct.play_hand(order, dealer, calls, discard=discard, keep=keep, choices=[0] * 15, rules=rules)
    with pytest.raises(ValueError, match="mandatory"):
        ct.play_hand(order, dealer, calls, discard=None, keep=keep, choices=[0] * 15, rules=rules)
    with pytest.raises(ValueError, match="disabled"):
        ct.play_hand(order, dealer, calls, discard=discard, maker_alone=True, choices=[0] * 15, rules=rules)
    with pytest.raises(ValueError, match="choose the 5 cards"):
        ct.play_hand(order, dealer, calls, discard=discard, choices=[0] * 15, rules=rules)
    with pytest.raises(ValueError, match="only keep cards"):
        ct.play_hand(order, dealer, calls, discard=discard, keep=keep[:4] + [d.kitty[1]], choices=[0] * 15,
                     rules=rules)
    with pytest.raises(ValueError, match="turned down"):
        ct.play_hand(order, dealer, ["pass"] * 3 + ["C" if d.up_card.suit else "S"], discard=discard, keep=keep)


# ---------------------------------------------------------------- exact combinatorics

N_DEALS = 40_000
Z_999 = 3.2905  # two-sided 99.9% normal quantile
CHI2_999_DF23 = 49.728  # scipy.stats.chi2.ppf(0.999, 23)


@pytest.fixture(scope="module")
def many_deals():
    """N_DEALS deals of uniformly shuffled orders (fixed seed), dealers in turn."""
    rng = np.random.default_rng(20261111)
    orders = rng.permuted(np.tile(np.arange(24), (N_DEALS, 1)), axis=1).tolist()
    return [ct.deal_cards(order, k % 3) for k, order in enumerate(orders)]


def test_up_card_is_uniform(many_deals):
    counts = np.bincount([d.up_card.index for d in many_deals], minlength=24)
    expected = N_DEALS / 24
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < CHI2_999_DF23, (chi2, counts)


def dummy_has_both_bowers(d: ct.Deal) -> bool:
    trump = d.up_card.suit
    return ct.right_bower(trump) in d.dummy and ct.left_bower(trump) in d.dummy


def exact_both_bowers() -> Fraction:
    """P(the dummy holds both bowers of the up-card's suit), by counting.

    The up-card is uniform over the 24 cards and, given it, the dummy is a
    uniform 5-card subset of the other 23. If the up-card is a jack (4 of 24)
    it is itself the right bower of its suit, so the dummy cannot hold both
    bowers. Otherwise (20 of 24) both jacks of the up-card's colour are among
    the 23 and the dummy holds both with chance C(21,3)/C(23,5) (the other 3
    dummy cards from the remaining 21). In all 20/24 * 1330/33649 = 25/759.
    """
    return Fraction(20, 24) * Fraction(comb(21, 3), comb(23, 5))


def test_exact_both_bowers_by_enumeration():
    # An independent count: every up-card of one suit (all four suits are alike by symmetry)
    # with every 5-card dummy out of the other 23 cards.
    assert exact_both_bowers() == Fraction(25, 759)
    hits = total = 0
    for up in [c for c in ct.DECK if c.suit == 0]:
        rest = [c for c in ct.DECK if c != up]
        right, left = ct.right_bower(up.suit), ct.left_bower(up.suit)
        for dummy in itertools.combinations(rest, 5):
            total += 1
            hits += right in dummy and left in dummy
    assert Fraction(hits, total) == exact_both_bowers()


def test_dummy_both_bowers_matches_exact_chance(many_deals):
    p = float(exact_both_bowers())
    hits = sum(dummy_has_both_bowers(d) for d in many_deals)
    half_width = Z_999 * sqrt(p * (1 - p) / N_DEALS)
    assert abs(hits / N_DEALS - p) < half_width, (hits / N_DEALS, p, half_width)
    assert not any(dummy_has_both_bowers(d) for d in many_deals if d.up_card.rank == ct.JACK)
