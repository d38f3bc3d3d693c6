"""The Standard Euchre rules reference (``tests/reference/euchre.py``) against RULES.md section 4.

- every worked score of ``shared/vectors/euchre_scores.jsonl`` (through
  ``score_hand`` and through the tricks per seat, for every maker seat),
  and every joker-free trick and legal-move vector (two-, three- and
  four-card tricks: a lone maker against a lone defender plays two-card
  tricks; the six-card legal vectors also hold for every smaller hand cut
  from them);
- one test per rule (deal layout, auction rounds one and two, the stuck
  dealer, the dealer's discard, going alone and lone defenders, who sits
  out, the first lead skipping a sitting-out seat, score, renege, game end),
  with the illegal cases raising ValueError;
- hypothesis: random legal auctions under both options against an
  independent statement of the auction; random deals with random legal
  decisions played through ``play_hand``, checked for the 24 cards
  accounted for, suit followed, a sitting-out seat never playing, tricks
  adding up to 5, and the points of the vector table (looked up, not
  recomputed).
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bower.sim.cards import SUITS, parse_card
from tests.reference import euchre as eu

VECTORS = Path(__file__).resolve().parents[1].parent / "shared" / "vectors"


def _load(name: str) -> list[dict]:
    with open(VECTORS / name, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


SCORES = _load("euchre_scores.jsonl")
TRICKS = [v for v in _load("tricks.jsonl") if "JK" not in v["cards"]]
LEGAL = [v for v in _load("legal.jsonl") if "JK" not in v["hand"] and v["lead"] != "JK"]
JOKER_LEGAL = [v for v in _load("legal.jsonl") if "JK" in v["hand"] or v["lead"] == "JK"]
SCORE_TABLE = {(v["maker_tricks"], v["maker_alone"], v["lone_defender"]): (v["makers_points"], v["defenders_points"])
               for v in SCORES}
ALL_RULES = [{"stick_the_dealer": s, "allow_lone_defender": a} for s in (False, True) for a in (False, True)]
SETTINGS = {"deadline": None}


def C(text: str):
    return eu.card_from_str(text)


def cards(text: str) -> list:
    return [C(t) for t in text.split()]


def test_vector_files_hold_what_we_expect():
    assert len(SCORES) == 24 and len(SCORE_TABLE) == 24
    assert set(SCORE_TABLE) == set(itertools.product(range(6), (False, True), (False, True)))
    assert {len(v["cards"]) for v in TRICKS} == {2, 3, 4}
    assert len(TRICKS) >= 500 and len(LEGAL) >= 300
    assert {len(v["hand"]) for v in LEGAL} == {6}


# ---------------------------------------------------------------- rule vectors


@pytest.mark.parametrize("v", SCORES, ids=lambda v: f"{v['maker_tricks']}-{v['maker_alone']}-{v['lone_defender']}")
def test_euchre_score_vectors(v):
    expected = (v["makers_points"], v["defenders_points"])
    assert eu.score_hand(v["maker_tricks"], v["maker_alone"], v["lone_defender"]) == expected
    # through the tricks per seat: every maker seat, the first defender in turn alone when the vector says so
    rules = {"allow_lone_defender": True}
    for dealer, maker in itertools.product(range(4), range(4)):
        lone = eu.defenders_in_turn(dealer, maker)[0] if v["lone_defender"] else None
        active = eu.active_seats(maker, v["maker_alone"], lone)
        makers = [s for s in active if eu.side_of(s) == eu.side_of(maker)]
        defenders = [s for s in active if eu.side_of(s) != eu.side_of(maker)]
        tricks = [0] * 4
        taken = v["maker_tricks"]
        tricks[makers[0]] = taken - taken // 2 if len(makers) == 2 else taken
        if len(makers) == 2:
            tricks[makers[1]] = taken // 2
        tricks[defenders[-1]] = 5 - taken
        points = eu.score_tricks(maker, tricks, v["maker_alone"], lone, rules)
        assert points[eu.side_of(maker)] == expected[0] and points[1 - eu.side_of(maker)] == expected[1]


def test_illegal_scores_raise():
    with pytest.raises(ValueError, match="0..5 tricks"):
        eu.score_hand(6)
    with pytest.raises(ValueError, match="0..5 tricks"):
        eu.score_hand(-1)
    with pytest.raises(ValueError, match="maker_alone is True or False"):
        eu.score_hand(3, "yes")
    with pytest.raises(ValueError, match="adding up to 5"):
        eu.score_tricks(0, [3, 1, 0, 0])
    with pytest.raises(ValueError, match="seat 2 sat out"):
        eu.score_tricks(0, [3, 1, 1, 0], maker_alone=True)
    with pytest.raises(ValueError, match="allow_lone_defender = false"):
        eu.score_tricks(0, [3, 2, 0, 0], lone_defender=1)
    with pytest.raises(ValueError, match="makers' side"):
        eu.score_tricks(0, [3, 2, 0, 0], lone_defender=2, rules={"allow_lone_defender": True})


def _check_trick(v):
    trump = SUITS.index(v["trump"])
    played = [C(c) for c in v["cards"]]
    assert eu.effective_suit(played[0], trump) == SUITS.index(v["led_suit"]), v
    assert eu.trick_winner(played, trump) == v["winner"], v
    assert eu.trick_winner(v["cards"], v["trump"]) == v["winner"]  # card strings and a suit letter accepted


def test_every_trick_vector():
    for v in TRICKS:
        _check_trick(v)


def _check_legal(v):
    trump = SUITS.index(v["trump"])
    hand = [C(c) for c in v["hand"]]
    legal = eu.legal_cards(hand, C(v["lead"]), trump)
    assert [str(c) for c in legal] == [str(c) for c in eu.by_index(cards(" ".join(v["legal"])))], v
    assert eu.legal_mask(eu.mask_from_cards(hand), parse_card(v["lead"]), trump) == eu.mask_from_cards(
        cards(" ".join(v["legal"])))


def test_every_legal_vector():
    for v in LEGAL:
        _check_legal(v)


def test_legal_vectors_hold_for_every_smaller_hand():
    # Following suit does not depend on the hand size: a hand cut from a vector's six cards must play
    # the vector's legal cards it still holds, or anything when it holds none of them.
    rng = random.Random(4)
    for v in LEGAL:
        trump = SUITS.index(v["trump"])
        hand, legal = [C(c) for c in v["hand"]], {C(c) for c in v["legal"]}
        subsets = [list(s) for s in itertools.combinations(hand, 5)]  # the five-card hands of this game
        subsets += [rng.sample(hand, k) for k in (1, 2, 3, 4)]
        for sub in subsets:
            want = [c for c in sub if c in legal] or sub
            assert eu.legal_cards(sub, C(v["lead"]), trump) == eu.by_index(want), (v, sub)


def test_the_joker_is_no_card_of_this_deck():
    assert len(JOKER_LEGAL) > 0
    for v in JOKER_LEGAL[:5]:
        with pytest.raises(ValueError, match="malformed card 'JK'"):
            eu.legal_cards(v["hand"], v["lead"], v["trump"])
    with pytest.raises(ValueError, match="not a card of the 24-card deck"):
        eu.as_card(24)


def test_card_numbering_matches_sim_cards():
    assert len(eu.DECK) == 24
    for i, card in enumerate(eu.DECK):
        assert card.index == i == parse_card(str(card)) == eu.as_card(i).index
        assert eu.as_card(str(card)) == card and eu.as_card(str(card).lower()) == card
    assert eu.as_card("10h") == C("TH")
    assert eu.cards_from_mask((1 << 24) - 1) == eu.DECK
    with pytest.raises(ValueError, match="malformed"):
        eu.as_card("ZZ")
    with pytest.raises(ValueError, match="duplicate"):
        eu.as_cards(["JH", 20])
    with pytest.raises(ValueError, match="a suit is"):
        eu.as_suit("X")


def test_bowers_and_the_trump_order():
    for trump in range(4):
        right, left = eu.right_bower(trump), eu.left_bower(trump)
        assert right == eu.Card(trump, eu.JACK) and left.rank == eu.JACK and left.suit == trump ^ 1
        assert eu.effective_suit(left, trump) == trump and eu.is_trump(left, trump)
        order = [eu.Card(trump, r) for r in (0, 1, 3, 4, 5)] + [left, right]  # 9 T Q K A left right
        assert [eu.trump_rank(c, trump) for c in order] == list(range(7))
        assert [eu.card_value(c, trump) for c in order] == list(range(20, 27))
        # the suit sharing trump's colour has no jack: its cards rank A K Q 10 9
        plain = eu.Card(trump ^ 1, 5)
        assert eu.card_value(plain, trump) == 5 and eu.effective_suit(plain, trump) == trump ^ 1
        for perm in itertools.permutations([right, left, eu.Card(trump, 5), eu.Card(trump ^ 1, 5)]):
            assert perm[eu.trick_winner(list(perm), trump)] == right


# ---------------------------------------------------------------- options


def test_options_and_defaults():
    assert eu.resolve_rules() == {"stick_the_dealer": False, "allow_lone_defender": False, "loner_lead": "dealer",
                                  "canadian": False, "discard_up": False, "loner_march_score": 4,
                                  "loner_euchred_score": 2, "fast_break": False, "four_trick_tokens": False,
                                  "farmers": False, "go_under": False, "partners_best": False}
    assert tuple(o.name for o in eu.EUCHRE.options) == ("stick_the_dealer", "allow_lone_defender", "loner_lead",
                                                        "canadian", "discard_up", "loner_march_score",
                                                        "loner_euchred_score", "fast_break",
                                                        "four_trick_tokens", "farmers", "go_under",
                                                        "partners_best")
    assert eu.EUCHRE.players == 4 and eu.EUCHRE.hand_size == 5 and eu.TARGET == 10
    assert eu.resolve_rules({"stick_the_dealer": "true", "allow_lone_defender": "yes", "loner_lead": "LONER"}) == {
        "stick_the_dealer": True, "allow_lone_defender": True, "loner_lead": "loner", "canadian": False,
        "discard_up": False, "loner_march_score": 4, "loner_euchred_score": 2,
        "fast_break": False, "four_trick_tokens": False, "farmers": False, "go_under": False, "partners_best": False}
    with pytest.raises(ValueError, match="unknown rule option"):
        eu.resolve_rules({"swap": "none"})
    with pytest.raises(ValueError, match="bad value"):
        eu.resolve_rules({"stick_the_dealer": "sometimes"})


# ---------------------------------------------------------------- the deal


def test_deal_one_card_at_a_time_from_position_one():
    # order = the deck in index order; dealer seat 1, so positions 1, 2, 3, 4 are seats 2, 3, 0, 1
    d = eu.deal_cards(list(range(24)), dealer=1)
    assert [c.index for c in d.hands[2]] == [0, 4, 8, 12, 16]  # position 1
    assert [c.index for c in d.hands[3]] == [1, 5, 9, 13, 17]  # position 2
    assert [c.index for c in d.hands[0]] == [2, 6, 10, 14, 18]  # position 3
    assert [c.index for c in d.hands[1]] == [3, 7, 11, 15, 19]  # the dealer
    assert [c.index for c in d.kitty] == [20, 21, 22, 23] and d.up_card == eu.DECK[20]
    assert sorted(c.index for c in d.all_cards()) == list(range(24))
    # the kitty keeps its deal order; hands are sorted by index
    d = eu.deal_cards(list(range(23, -1, -1)), dealer=3)
    assert [str(c) for c in d.kitty] == [str(eu.DECK[i]) for i in (3, 2, 1, 0)]
    assert [c.index for c in d.hands[0]] == [7, 11, 15, 19, 23]  # position 1 gets order[0] = card 23, ...


def test_deal_rejects_bad_orders():
    with pytest.raises(ValueError, match="all 24 cards"):
        eu.deal_cards(list(range(23)), 0)
    with pytest.raises(ValueError, match="duplicate"):
        eu.deal_cards([0] + list(range(1, 23)) + [0], 0)
    with pytest.raises(ValueError, match="not a card of the 24-card deck"):
        eu.deal_cards(list(range(1, 25)), 0)
    with pytest.raises(ValueError, match="dealer must be a seat"):
        eu.deal_cards(list(range(24)), 4)


def test_positions_seats_and_sides():
    for dealer in range(4):
        assert [eu.seat_of_position(dealer, p) for p in (1, 2, 3, 4)] == [(dealer + p) % 4 for p in (1, 2, 3, 4)]
        for p in (1, 2, 3, 4):
            assert eu.position_of_seat(dealer, eu.seat_of_position(dealer, p)) == p
        assert eu.next_dealer(dealer) == (dealer + 1) % 4
    assert [eu.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [eu.partner_of(s) for s in range(4)] == [2, 3, 0, 1]
    assert eu.seats_of_side(0) == [0, 2] and eu.seats_of_side(1) == [1, 3]
    with pytest.raises(ValueError, match="position"):
        eu.seat_of_position(0, 5)
    with pytest.raises(ValueError, match="seat"):
        eu.side_of(4)


# ---------------------------------------------------------------- the auction

UP = C("9H")  # the up-card: hearts


def outcome(calls, dealer=0, up=UP, **rules):
    return eu.auction_outcome(calls, dealer, up, rules)


def test_round_one_an_order_ends_the_auction():
    for k in range(4):  # position k + 1 orders: dealer 0, so seat k + 1 (the dealer itself for k = 3)
        r = outcome(["pass"] * k + ["order"])
        assert (r.maker, r.trump, r.round, r.thrown_in) == ((k + 1) % 4, 3, 1, False)
        assert [s for s, _ in r.calls] == [(j + 1) % 4 for j in range(k + 1)]
        assert r.makers == (k + 1) % 2
    with pytest.raises(ValueError, match="ended with seat 1's call at call 1; 1 more"):
        outcome(["order", "pass"])
    # "order" is a round-one call only; suits are round-two calls only
    with pytest.raises(ValueError, match="in round one position 1 .* may call 'pass' or 'order'"):
        outcome(["S"])
    with pytest.raises(ValueError, match="in round two position 1"):
        outcome(["pass"] * 4 + ["order"])


def test_round_two_names_a_suit_other_than_the_up_cards():
    for k in range(4):
        r = outcome(["pass"] * (4 + k) + ["s"])  # any case
        assert (r.maker, r.trump, r.round) == ((k + 1) % 4, 1, 2)
        assert r.calls[-1] == ((k + 1) % 4, "S")
    with pytest.raises(ValueError, match="may call 'pass' or 'C' or 'S' or 'D'"):
        outcome(["pass"] * 4 + ["H"])  # the up-card's suit was turned down
    assert eu.legal_calls(["pass"] * 4, 0, UP) == ["pass", "C", "S", "D"]
    assert eu.legal_calls(["pass"] * 4, 0, C("AC")) == ["pass", "S", "D", "H"]


def test_all_pass_is_thrown_in_unless_the_dealer_is_stuck():
    r = outcome(["pass"] * 8, dealer=2)
    assert r.thrown_in and r.maker is None and r.trump is None and r.round is None and r.makers is None
    assert [s for s, _ in r.calls] == [3, 0, 1, 2] * 2
    assert eu.legal_calls(["pass"] * 8, 2, UP) == [] and eu.next_caller(["pass"] * 8, 2, UP) is None
    stick = {"stick_the_dealer": True}
    assert eu.legal_calls(["pass"] * 7, 2, UP, stick) == ["C", "S", "D"]  # the dealer may not pass
    assert eu.legal_calls(["pass"] * 3, 2, UP, stick) == ["pass", "order"]  # ... in round one the dealer may
    assert eu.legal_calls(["pass"] * 6, 2, UP, stick) == ["pass", "C", "S", "D"]  # nor is position 3 stuck
    with pytest.raises(ValueError, match="the dealer .* may call 'C' or 'S' or 'D'"):
        outcome(["pass"] * 8, dealer=2, stick_the_dealer=True)
    r = outcome(["pass"] * 7 + ["D"], dealer=2, stick_the_dealer=True)
    assert (r.maker, r.trump, r.round) == (2, 2, 2)


def test_auction_turns_and_illegal_sequences():
    assert [eu.next_caller(["pass"] * k, 1, UP) for k in range(8)] == [2, 3, 0, 1] * 2
    assert eu.next_caller(["pass", "order"], 1, UP) is None
    with pytest.raises(ValueError, match="not over after 3 call"):
        outcome(["pass"] * 3)
    with pytest.raises(ValueError, match="not over after 7 call"):
        outcome(["pass"] * 7)
    with pytest.raises(ValueError, match="a call is a string"):
        outcome([None])
    with pytest.raises(ValueError, match="thrown in at call 8; 1 more"):
        outcome(["pass"] * 9)
    with pytest.raises(ValueError, match="may call"):
        outcome(["bid"])
    assert outcome([" Pass ", "ORDER"]).maker == 2  # any case, spaces around


# ---------------------------------------------------------------- the dealer's pick-up

DEALER_HAND = cards("9C TC JS QD AH")


def test_dealer_takes_the_up_card_and_discards_another():
    assert eu.discard_options(DEALER_HAND, "KH") == eu.by_index(DEALER_HAND)
    hand, out = eu.take_up(DEALER_HAND, "KH", "9C")
    assert out == C("9C") and hand == eu.by_index(cards("TC JS QD AH KH"))
    with pytest.raises(ValueError, match="may not discard the up-card KH"):
        eu.take_up(DEALER_HAND, "KH", "KH")
    with pytest.raises(ValueError, match="must discard a card"):
        eu.take_up(DEALER_HAND, "KH", None)
    with pytest.raises(ValueError, match="not a card of the dealer's hand"):
        eu.take_up(DEALER_HAND, "KH", "AS")
    with pytest.raises(ValueError, match="cannot be in the dealer's hand"):
        eu.discard_options(DEALER_HAND, "AH")
    with pytest.raises(ValueError, match="holds 5 cards"):
        eu.discard_options(DEALER_HAND[:4], "KH")


# ---------------------------------------------------------------- going alone, sitting out, first lead


def test_defenders_are_asked_in_turn_from_the_dealers_left():
    for dealer, maker in itertools.product(range(4), range(4)):
        turn = eu.defenders_in_turn(dealer, maker)
        assert sorted(turn) == eu.seats_of_side(1 - maker % 2)
        assert eu.position_of_seat(dealer, turn[0]) < eu.position_of_seat(dealer, turn[1])
    assert eu.defenders_in_turn(0, 0) == [1, 3] and eu.defenders_in_turn(2, 0) == [3, 1]
    assert eu.defenders_in_turn(1, 1) == [2, 0] and eu.defenders_in_turn(3, 1) == [0, 2]


def test_defence_outcome():
    lone = {"allow_lone_defender": True}
    # dealer 2, maker 0: the defenders are seats 3 (position 1) and 1 (position 3)
    assert eu.defence_outcome(2, 0, [], None) is None
    assert eu.defence_outcome(2, 0, [True], lone) == 3
    assert eu.defence_outcome(2, 0, [False, True], lone) == 1
    assert eu.defence_outcome(2, 0, [False, False], lone) is None
    assert [eu.defender_to_ask(2, 0, a, lone) for a in ([], [False], [True], [False, False], [False, True])] == [
        3, 1, None, None, None]
    assert eu.defender_to_ask(2, 0, [], None) is None  # without the option nobody is asked
    with pytest.raises(ValueError, match="allow_lone_defender = false"):
        eu.defence_outcome(2, 0, [False], None)
    with pytest.raises(ValueError, match="allow_lone_defender = false"):
        eu.defender_to_ask(2, 0, [True], None)
    with pytest.raises(ValueError, match="the other defender is not asked"):
        eu.defence_outcome(2, 0, [True, False], lone)
    with pytest.raises(ValueError, match="the other defender is not asked"):
        eu.defender_to_ask(2, 0, [True, True], lone)
    with pytest.raises(ValueError, match="both defenders are asked"):
        eu.defence_outcome(2, 0, [False], lone)
    with pytest.raises(ValueError, match="only the two defenders"):
        eu.defence_outcome(2, 0, [False, False, False], lone)
    with pytest.raises(ValueError, match="True or False"):
        eu.defence_outcome(2, 0, ["alone"], lone)
    with pytest.raises(ValueError, match="maker_alone is True or False"):
        eu.check_maker_alone(0, "alone")


def test_who_sits_out():
    assert eu.sitting_out(0, False, None) == [] and eu.active_seats(0, False, None) == [0, 1, 2, 3]
    assert eu.sitting_out(0, True, None) == [2] and eu.active_seats(0, True, None) == [0, 1, 3]
    assert eu.sitting_out(0, False, 3) == [1] and eu.active_seats(0, False, 3) == [0, 2, 3]
    assert eu.sitting_out(1, True, 2) == [0, 3] and eu.active_seats(1, True, 2) == [1, 2]
    with pytest.raises(ValueError, match="lone_defender must be a seat"):
        eu.sitting_out(0, False, 5)


def test_first_lead_is_position_one_skipping_who_sits_out():
    for dealer in range(4):
        p1 = (dealer + 1) % 4
        assert eu.first_leader(dealer, range(4)) == p1
        others = [s for s in range(4) if s != p1]
        assert eu.first_leader(dealer, others) == (dealer + 2) % 4  # position 1 sits out: position 2 leads
        # two seats out, positions 1 and 2 (a lone maker and a lone defender sitting next to each other)
        assert eu.first_leader(dealer, [dealer, (dealer + 3) % 4]) == (dealer + 3) % 4
    # dealer 0, maker seat 3 alone: seat 1 (position 1) sits out, seat 2 leads
    assert eu.first_leader(0, eu.active_seats(3, True, None)) == 2
    assert eu.play_order(2, [0, 2, 3]) == [2, 3, 0] and eu.play_order(3, [1, 3]) == [3, 1]
    # loner_lead = loner: the lone maker's left (a maker with its partner: position 1 still)
    loner = {"loner_lead": "loner"}
    for dealer in range(4):
        for maker in range(4):
            active = eu.active_seats(maker, True, None)
            assert eu.first_leader(dealer, active, maker, True, loner) == (maker + 1) % 4
            assert eu.first_leader(dealer, range(4), maker, False, loner) == (dealer + 1) % 4
    assert eu.first_leader(0, eu.active_seats(2, True, None), 2, True, loner) == 3  # dealer's rule: seat 1
    with pytest.raises(ValueError, match="loner_lead"):
        eu.first_leader(0, range(4), 1, True, {"loner_lead": "partner"})
    with pytest.raises(ValueError, match="not an active player"):
        eu.play_order(1, [0, 2, 3])


def test_lone_defender_checks():
    lone = {"allow_lone_defender": True}
    eu.check_lone_defender(0, 1, lone)
    eu.check_lone_defender(0, None)
    with pytest.raises(ValueError, match="allow_lone_defender = false"):
        eu.check_lone_defender(0, 1)
    with pytest.raises(ValueError, match="makers' side"):
        eu.check_lone_defender(0, 2, lone)


# ---------------------------------------------------------------- play

FOUR = ["9C TC JC QC KC", "9H TH JH QH KH", "9S TS JS QS KS", "9D TD JD QD KD"]


def test_play_with_choices_checks():
    hands = [eu.mask_from_cards(cards(h)) for h in FOUR]
    r = eu.play_with_choices(hands, trump=3, leader=0, active=range(4), choices=[0] * 20)
    assert [s for s, _ in r["plays"]][:8] == [0, 1, 2, 3, 1, 2, 3, 0]  # seat 1 trumps the first trick and leads
    assert sum(r["tricks"]) == 5 and len(r["plays"]) == 20
    assert eu.play_with_choices(hands, "h", 0, range(4), [0] * 20) == r  # a suit letter will do
    with pytest.raises(ValueError, match="20 choices"):
        eu.play_with_choices(hands, 3, 0, range(4), [0] * 19)
    with pytest.raises(ValueError, match="must hold 5 cards"):
        eu.play_with_choices([hands[0] >> 1 << 1, *hands[1:]], 3, 0, range(4), [0] * 20)
    with pytest.raises(ValueError, match="share"):
        eu.play_with_choices([hands[0], hands[0], *hands[2:]], 3, 0, range(4), [0] * 20)
    with pytest.raises(ValueError, match="both sides play"):
        eu.play_with_choices(hands, 3, 0, [0, 2], [0] * 10)


def test_a_seat_sitting_out_never_plays():
    hands = [cards(h) for h in FOUR]
    for active in ([0, 1, 3], [0, 2, 3], [1, 2], [0, 3]):
        asked: list[int] = []

        def chooser(seat, hand, trick, played, asked=asked):
            asked.append(seat)
            return eu.legal_cards(hand, trick[0] if trick else None, 1)[-1]

        leader = active[0]
        plays, tricks = eu.play_tricks(hands, "S", leader, active, chooser)
        assert set(asked) == set(active) and len(plays) == 5 * len(active)
        assert all(tricks[s] == 0 for s in range(4) if s not in active) and sum(tricks) == 5
        for t in range(5):  # one card per active seat in each trick
            assert sorted(s for s, _ in plays[len(active) * t: len(active) * (t + 1)]) == active


def test_a_renege_is_refused_in_play():
    hands = [cards("9C TC JC QC AH"), cards("9S TH QH KH AD"), cards("TS JS QS KS AS"), cards("9D TD JD QD KD")]

    def chooser(seat, hand, trick, played):
        if seat == 1 and trick:
            return C("TH")  # seat 1 holds the 9S and tries to keep it back
        return hand[2] if seat == 0 else hand[0]

    # trump spades: seat 0 leads the JC (the left bower, a trump lead); seat 1 must play its 9S
    with pytest.raises(ValueError, match="seat 1 may not play TH; legal: 9S"):
        eu.play_tricks(hands, "S", 0, range(4), chooser)


# ---------------------------------------------------------------- whole hands

ORDER = [eu.DECK[i] for i in range(24)]  # dealer 3: seat 0 (position 1) gets 9C KC JS 9D KD, ...; up-card JH


def test_a_whole_hand_ordered_up():
    d = eu.deal_cards(ORDER, 3)
    assert [str(c) for c in d.hands[0]] == ["9C", "KC", "JS", "9D", "KD"] and str(d.up_card) == "JH"
    out = eu.play_hand(ORDER, 3, ["pass", "order"], discard=d.hands[3][0], choices=[0] * 20)
    assert out["maker"] == 1 and out["trump"] == 3 and out["discard"] == d.hands[3][0]
    assert C("JH") in out["hands"][3] and d.hands[3][0] not in out["hands"][3]
    held = [c for h in out["hands"] for c in h]
    assert sorted(c.index for c in held + out["out_of_play"]) == list(range(24))
    assert out["leader"] == 0 and out["active"] == [0, 1, 2, 3] and out["alone"] == []
    assert sum(out["tricks"]) == 5
    with pytest.raises(ValueError, match="must discard a card"):
        eu.play_hand(ORDER, 3, ["pass", "order"], choices=[0] * 20)


def test_a_whole_hand_named_in_round_two_alone_against_a_lone_defender():
    lone = {"allow_lone_defender": True}
    # dealer 3: seat 0 names clubs and goes alone; the defenders in turn are seat 1 (position 2) then seat 3
    out = eu.play_hand(ORDER, 3, ["pass"] * 4 + ["C"], maker_alone=True, defenders=[False, True],
                       choices=[0] * 10, rules=lone)
    assert out["maker"] == 0 and out["trump"] == 0 and out["discard"] is None
    assert out["alone"] == [0, 3] and out["sitting_out"] == [1, 2] and out["active"] == [0, 3]
    assert out["leader"] == 0  # position 1 plays
    assert len(out["plays"]) == 10 and all(s in (0, 3) for s, _ in out["plays"])
    assert sorted(c.index for c in [c for s in (0, 3) for c in out["hands"][s]] + out["out_of_play"]) == list(
        range(24))
    with pytest.raises(ValueError, match="turned down"):
        eu.play_hand(ORDER, 3, ["pass"] * 4 + ["C"], discard="9C", choices=[0] * 20)
    with pytest.raises(ValueError, match="allow_lone_defender = false"):
        eu.play_hand(ORDER, 3, ["pass"] * 4 + ["C"], defenders=[True], choices=[0] * 15)


def test_a_whole_hand_thrown_in():
    out = eu.play_hand(ORDER, 0, ["pass"] * 8)
    assert out["auction"].thrown_in and out["plays"] == [] and out["points"] == [0, 0]
    assert sorted(c.index for c in out["out_of_play"]) == list(range(24))
    with pytest.raises(ValueError, match="thrown in"):
        eu.play_hand(ORDER, 0, ["pass"] * 8, maker_alone=True)


# ---------------------------------------------------------------- renege and the game


def test_renege_points():
    lone = {"allow_lone_defender": True}
    assert eu.renege_points(1, 0) == [2, 0] and eu.renege_points(2, 0) == [0, 2]
    assert eu.renege_points(1, 0, maker_alone=True) == [4, 0]  # a defender reneges against a lone maker
    assert eu.renege_points(0, 0, maker_alone=True) == [0, 2]
    assert eu.renege_points(0, 0, lone_defender=3, rules=lone) == [0, 4]  # against a lone defender
    assert eu.renege_points(3, 0, lone_defender=3, rules=lone) == [2, 0]
    with pytest.raises(ValueError, match="sat out"):
        eu.renege_points(2, 0, maker_alone=True)


def test_game_winner():
    assert eu.game_winner([9, 9]) is None and eu.game_winner([10, 0]) == 0 and eu.game_winner([3, 12]) == 1
    with pytest.raises(ValueError, match="both sides"):
        eu.game_winner([10, 10])
    with pytest.raises(ValueError, match="one score per side"):
        eu.game_winner([1, 2, 3])


# ---------------------------------------------------------------- hypothesis: auctions

deal_st = st.permutations(range(24))
rules_st = st.sampled_from(ALL_RULES)


def _expected_auction(calls, dealer, up_suit, rules):
    """An independent statement of the auction: (maker, trump, round) or "thrown in"."""
    for k, call in enumerate(calls):
        seat = (dealer + 1 + k % 4) % 4
        if k < 4 and call == "order":
            return seat, up_suit, 1
        if k >= 4 and call != "pass":
            return seat, "CSDH".index(call), 2
    return "thrown in"


@settings(max_examples=300, **SETTINGS)
@given(order=deal_st, dealer=st.integers(0, 3), rules=rules_st, rnd=st.randoms(use_true_random=False))
def test_random_legal_auctions(order, dealer, rules, rnd):
    up = eu.DECK[order[20]]
    calls: list[str] = []
    while (allowed := eu.legal_calls(calls, dealer, up, rules)):
        assert eu.next_caller(calls, dealer, up, rules) == (dealer + 1 + len(calls) % 4) % 4
        assert (eu.PASS in allowed) == (not (rules["stick_the_dealer"] and len(calls) == 7))
        assert "CSDH"[up.suit] not in allowed
        calls.append(allowed[0] if rnd.random() < 0.7 else rnd.choice(allowed))
    r = eu.auction_outcome(calls, dealer, up, rules)
    want = _expected_auction(calls, dealer, up.suit, rules)
    if want == "thrown in":
        assert r.thrown_in and not rules["stick_the_dealer"] and len(calls) == 8
    else:
        assert (r.maker, r.trump, r.round) == want and not r.thrown_in


# ---------------------------------------------------------------- hypothesis: whole hands


@settings(max_examples=300, **SETTINGS)
@given(order=deal_st, dealer=st.integers(0, 3), rules=rules_st, rnd=st.randoms(use_true_random=False))
def test_random_legal_hands(order, dealer, rules, rnd):
    d = eu.deal_cards(order, dealer)
    up = d.up_card
    calls: list[str] = []
    while (allowed := eu.legal_calls(calls, dealer, up, rules)):
        calls.append(allowed[0] if rnd.random() < 0.6 else rnd.choice(allowed))
    auction = eu.auction_outcome(calls, dealer, up, rules)
    if auction.thrown_in:
        out = eu.play_hand(order, dealer, calls, rules=rules)
        assert out["points"] == [0, 0] and out["plays"] == []
        return
    discard = rnd.choice(d.hands[dealer]) if auction.round == 1 else None
    maker_alone = rnd.random() < 0.3
    answers: list[bool] = []
    while (seat := eu.defender_to_ask(dealer, auction.maker, answers, rules)) is not None:
        answers.append(rnd.random() < 0.3)
    choices = [rnd.randrange(5) for _ in range(20)]
    out = eu.play_hand(order, dealer, calls, discard=discard, maker_alone=maker_alone, defenders=answers,
                       choices=choices, rules=rules)
    maker = auction.maker
    # 24 cards: the hands in play and everything out of play
    active = out["active"]
    held = [c for s in active for c in out["hands"][s]]
    assert sorted(c.index for c in held + out["out_of_play"]) == list(range(24))
    if discard is not None:
        assert up in out["hands"][dealer] and discard not in out["hands"][dealer] and discard in out["out_of_play"]
    # who sits out and who leads
    lone = out["lone_defender"]
    assert out["sitting_out"] == sorted(([eu.partner_of(maker)] if maker_alone else [])
                                        + ([eu.partner_of(lone)] if lone is not None else []))
    assert lone is None or (rules["allow_lone_defender"] and eu.side_of(lone) != eu.side_of(maker))
    seat = (dealer + 1) % 4
    while seat not in active:
        seat = (seat + 1) % 4
    assert out["leader"] == seat
    # every play follows suit when it can, by an active seat, each card once
    plays = out["plays"]
    n = len(active)
    assert len(plays) == 5 * n and len({c for _, c in plays}) == 5 * n
    hands = {s: list(out["hands"][s]) for s in active}
    leader = out["leader"]
    tricks = [0] * 4
    for t in range(5):
        trick = plays[n * t: n * (t + 1)]
        assert trick[0][0] == leader
        lead = trick[0][1]
        for i, (s, c) in enumerate(trick):
            assert s in active and c in hands[s]
            if i and any(eu.effective_suit(x, auction.trump) == eu.effective_suit(lead, auction.trump)
                         for x in hands[s]):
                assert eu.effective_suit(c, auction.trump) == eu.effective_suit(lead, auction.trump)
            hands[s].remove(c)
        leader = trick[eu.trick_winner([c for _, c in trick], auction.trump)][0]
        tricks[leader] += 1
    assert tricks == out["tricks"] and sum(tricks) == 5
    taken = tricks[maker] + tricks[eu.partner_of(maker)]
    makers, defenders = SCORE_TABLE[(taken, maker_alone, lone is not None)]
    assert out["points"][eu.side_of(maker)] == makers and out["points"][1 - eu.side_of(maker)] == defenders
