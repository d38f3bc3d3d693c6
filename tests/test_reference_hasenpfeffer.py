"""The Hasenpfeffer reference engine (``tests/reference/hasenpfeffer.py``) against RULES.md section 3.

- every worked score of ``shared/vectors/hasenpfeffer_scores.jsonl``, and
  every trick and legal-move vector (the joker ones above all) through the
  reference's joker-aware card rules;
- the joker pinned: above both bowers in every trump suit, a trump for
  following and leading (a led joker calls for trump; a player whose only
  trump is the joker must play it when trump is led);
- one test per rule (deal order, auction, all pass, pepper bids, widow,
  trump, first lead, renege, game end), with the illegal cases raising
  ValueError;
- hypothesis: random legal auctions under every combination of options
  against an independent statement of when the auction is over; random
  deals with random legal decisions played through ``play_hand``, checked
  for cards accounted for (25 dealt: 24 in hands + the widow; after the
  widow: hands + the card out of play), suit followed, tricks adding up to
  6, and the points of the vector table (looked up, not recomputed);
- exact combinatorics: where the joker lands, by enumerating its 25 possible
  positions in the shuffled order: each seat 6/25, the widow 1/25.
"""

from __future__ import annotations

import itertools
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bower.sim.cards import JOKER as SIM_JOKER
from bower.sim.cards import SUITS, parse_card
from tests.reference import hasenpfeffer as hp

VECTORS = Path(__file__).resolve().parents[1].parent / "shared" / "vectors"


def _load(name: str) -> list[dict]:
    with open(VECTORS / name, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


SCORES = _load("hasenpfeffer_scores.jsonl")
TRICKS = _load("tricks.jsonl")
LEGAL = _load("legal.jsonl")
JOKER_TRICKS = [v for v in TRICKS if "JK" in v["cards"]]
JOKER_LEGAL = [v for v in LEGAL if "JK" in v["hand"] or v["lead"] == "JK"]

OPTION_NAMES = ("pass_is_final", "all_pass", "bidding", "widow", "first_lead", "fail_penalty",
                "defenders_score_tricks")
ALL_RULES = [
    dict(zip(OPTION_NAMES, values))
    for values in itertools.product((False, True), ("joker_bids_three", "redeal"), ("numeric", "pepper"),
                                    ("exchange", "dead"), ("dealer_left", "bidder"), ("bid", "undertricks"),
                                    (False, True))
]
EVERY_CALL = ("pass", "1", "2", "3", "4", "5", "6", "little-pepper", "big-pepper", "7", "0", "moon")


def C(text: str):
    return hp.card_from_str(text)


def cards(text: str) -> list:
    return [C(t) for t in text.split()]


def test_vector_files_hold_what_we_expect():
    assert len(SCORES) == 182
    assert len(JOKER_TRICKS) >= 20 and len(JOKER_LEGAL) >= 25
    assert {len(v["cards"]) for v in JOKER_TRICKS} == {4}
    assert {v["bid"] for v in SCORES} == set(hp.NUMERIC_BIDS) | set(hp.PEPPER_BIDS)
    assert {json.dumps(v["rules"], sort_keys=True) for v in SCORES} == {
        json.dumps({"bidding": b, "fail_penalty": f}, sort_keys=True)
        for b in ("numeric", "pepper") for f in ("bid", "undertricks")
    }


# ---------------------------------------------------------------- rule vectors

VECTOR_TABLE = {
    (v["bid"], v["bidding_side_tricks"], v["rules"]["bidding"], v["rules"]["fail_penalty"]):
        (v["bidding_side_points"], v["defending_side_points"])
    for v in SCORES
}


def _score_id(v) -> str:
    return f"{v['bid']}-{v['bidding_side_tricks']}-{v['rules']['bidding']}-{v['rules']['fail_penalty']}"


@pytest.mark.parametrize("v", SCORES, ids=_score_id)
def test_hasenpfeffer_score_vectors(v):
    expected = (v["bidding_side_points"], v["defending_side_points"])
    assert hp.score_hand(v["bid"], v["bidding_side_tricks"], v["rules"]) == expected
    # the same through the tricks per seat, the bidder on either side, the tricks split between partners
    for bidder in range(4):
        partner = (bidder + 2) % 4
        taken = v["bidding_side_tricks"]
        tricks = [0] * 4
        tricks[bidder], tricks[partner] = taken - taken // 2, taken // 2
        tricks[(bidder + 1) % 4] = 6 - taken
        points = hp.score_tricks(bidder, v["bid"], tricks, v["rules"])
        assert points[bidder % 2] == expected[0] and points[1 - bidder % 2] == expected[1]
    # the defenders score their tricks only with defenders_score_tricks
    rules = dict(v["rules"], defenders_score_tricks=True)
    assert hp.score_hand(v["bid"], v["bidding_side_tricks"], rules) == (expected[0], 6 - v["bidding_side_tricks"])


def test_bids_of_the_other_form_cannot_be_scored():
    with pytest.raises(ValueError, match="not a bid under bidding = pepper"):
        hp.score_hand("6", 6, {"bidding": "pepper"})
    with pytest.raises(ValueError, match="not a bid under bidding = numeric"):
        hp.score_hand("little-pepper", 6)
    with pytest.raises(ValueError, match="0..6 tricks"):
        hp.score_hand("3", 7)
    with pytest.raises(ValueError, match="adding up to 6"):
        hp.score_tricks(0, "3", [3, 0, 2, 0])


def _check_trick(v):
    trump = SUITS.index(v["trump"])
    played = [C(c) for c in v["cards"]]
    assert hp.effective_suit(played[0], trump) == SUITS.index(v["led_suit"]), v
    assert hp.trick_winner(played, trump) == v["winner"], v
    assert hp.trick_winner(v["cards"], trump) == v["winner"]  # card strings accepted too


@pytest.mark.parametrize("v", JOKER_TRICKS, ids=lambda v: f"{v['trump']}:{'-'.join(v['cards'])}")
def test_joker_trick_vectors(v):
    _check_trick(v)


def test_every_trick_vector():
    for v in TRICKS:
        _check_trick(v)


def _check_legal(v):
    legal = hp.legal_cards([C(c) for c in v["hand"]], C(v["lead"]), SUITS.index(v["trump"]))
    assert sorted(str(c) for c in legal) == sorted(v["legal"]), v
    hand_mask = hp.mask_from_cards(v["hand"])
    assert hp.legal_mask(hand_mask, parse_card(v["lead"]), SUITS.index(v["trump"])) == hp.mask_from_cards(v["legal"])


@pytest.mark.parametrize("v", JOKER_LEGAL, ids=lambda v: f"{v['trump']}:{v['lead']}:{'-'.join(v['hand'])}")
def test_joker_legal_vectors(v):
    _check_legal(v)


def test_every_legal_vector():
    for v in LEGAL:
        _check_legal(v)


def test_card_numbering_matches_sim_cards():
    assert len(hp.DECK25) == 25
    for i, card in enumerate(hp.DECK25):
        assert card.index == i == parse_card(str(card)) == hp.as_card(i).index
        assert hp.as_card(str(card)) == card
    assert hp.JOKER.index == SIM_JOKER == 24 and str(hp.JOKER) == "JK" and hp.card_from_str("jk") is hp.JOKER
    assert hp.cards_from_mask((1 << 25) - 1) == hp.DECK25
    with pytest.raises(ValueError, match="not a card of the 25-card deck"):
        hp.as_card(25)
    with pytest.raises(ValueError, match="malformed"):
        hp.as_card("ZZ")
    with pytest.raises(ValueError, match="duplicate"):
        hp.as_cards(["JK", 24])


# ---------------------------------------------------------------- the joker


def test_joker_is_the_highest_trump_in_every_suit():
    for trump in range(4):
        right, left = hp.right_bower(trump), hp.left_bower(trump)
        ace = hp.Card(trump, 5)
        assert right == hp.Card(trump, hp.JACK) and left.rank == hp.JACK and left.suit != trump
        assert hp.trump_rank(hp.JOKER, trump) > hp.trump_rank(right, trump) > hp.trump_rank(left, trump) \
            > hp.trump_rank(ace, trump)
        assert hp.is_trump(hp.JOKER, trump) and hp.effective_suit(hp.JOKER, trump) == trump
        # in every order of play the joker takes a trick holding both bowers and the ace
        for perm in itertools.permutations([hp.JOKER, right, left, ace]):
            assert perm[hp.trick_winner(list(perm), trump)] == hp.JOKER
        # a plain lead, the joker thrown on it: the joker trumps it
        plain = next(s for s in range(4) if s != trump and s != hp.same_colour_suit(trump))
        assert hp.trick_winner([hp.Card(plain, 5), hp.JOKER, hp.Card(plain, 4)], trump) == 1
        assert hp.beats(hp.JOKER, right, trump, trump) and not hp.beats(right, hp.JOKER, trump, trump)


def test_a_led_joker_calls_for_trump():
    trump = SUITS.index("H")
    hand = cards("9H JD AS KS QC TC")  # two trumps: the 9H and the left bower
    assert hp.legal_cards(hand, hp.JOKER, trump) == hp.by_index(cards("9H JD"))
    no_trump = cards("AS KS QC TC 9D TD")  # no trump at all: anything goes
    assert hp.legal_cards(no_trump, hp.JOKER, trump) == hp.by_index(no_trump)
    # the trick the joker leads is a trump trick and the joker wins it
    assert hp.effective_suit(hp.JOKER, trump) == trump
    assert hp.trick_winner([hp.JOKER, C("JH"), C("JD"), C("AH")], trump) == 0


def test_only_trump_joker_must_be_played_to_a_trump_lead():
    trump = SUITS.index("S")
    hand = [hp.JOKER, *cards("AH KH QD TD 9C")]  # the joker is this hand's only trump
    assert hp.legal_cards(hand, C("9S"), trump) == [hp.JOKER]
    assert hp.legal_cards(hand, C("JC"), trump) == [hp.JOKER]  # the left bower led is a trump lead
    # a plain suit led: the joker does not follow it; hearts must be followed, clubs held -> the 9C
    assert hp.legal_cards(hand, C("TH"), trump) == hp.by_index(cards("KH AH"))
    assert hp.legal_cards(hand, C("KC"), trump) == cards("9C")
    # void in the suit led: anything, the joker included
    assert hp.legal_cards([hp.JOKER, *cards("AH KH QD TD 9D")], C("KC"), trump) == hp.by_index(
        [hp.JOKER, *cards("AH KH QD TD 9D")])


def test_only_trump_joker_in_a_played_hand():
    # trump spades, seat 0 leads the 9S; seat 1's only trump is the joker: it must come out and win
    hands = [cards("9S TS QS KS AS JS"), [hp.JOKER, *cards("AH KH QH TH 9H")],
             cards("9C TC QC KC AC JC"), cards("9D TD QD KD AD JD")]
    # seat 0's legal cards sorted by index: 9S TS JS QS KS AS -> choice 0 leads the 9S
    r = hp.play_with_choices([hp.mask_from_cards(h) for h in hands], trump=1, leader=0, choices=[0] * 24)
    first = r["plays"][:4]
    assert first[0] == (0, C("9S").index) and first[1] == (1, 24)
    assert first[2] == (2, C("JC").index)  # the left bower is seat 2's only trump and must follow too
    assert r["tricks"][1] >= 1 and sum(r["tricks"]) == 6


# ---------------------------------------------------------------- options


def test_options_and_defaults():
    assert hp.resolve_rules() == {
        "pass_is_final": False, "all_pass": "joker_bids_three", "bidding": "numeric", "widow": "exchange",
        "first_lead": "dealer_left", "fail_penalty": "bid", "defenders_score_tricks": False,
    }
    assert tuple(o.name for o in hp.HASENPFEFFER.options) == OPTION_NAMES
    assert hp.HASENPFEFFER.players == 4 and hp.HASENPFEFFER.hand_size == 6 and hp.TARGET == 10
    assert hp.resolve_rules({"pass_is_final": "true", "bidding": "pepper"})["pass_is_final"] is True
    with pytest.raises(ValueError, match="unknown rule option"):
        hp.resolve_rules({"swap": "none"})
    with pytest.raises(ValueError, match="bad value"):
        hp.resolve_rules({"widow": "burnt"})


# ---------------------------------------------------------------- the deal


def test_deal_order_in_packets_of_three():
    # order = the deck in index order; dealer seat 1, so position 1 is seat 2, 2 is seat 3, 3 is seat 0
    d = hp.deal_cards(list(range(25)), dealer=1)
    assert [c.index for c in d.hands[2]] == [0, 1, 2, 12, 13, 14]  # position 1
    assert [c.index for c in d.hands[3]] == [3, 4, 5, 15, 16, 17]  # position 2
    assert [c.index for c in d.hands[0]] == [6, 7, 8, 18, 19, 20]  # position 3
    assert [c.index for c in d.hands[1]] == [9, 10, 11, 21, 22, 23]  # the dealer
    assert d.widow == hp.JOKER and hp.joker_holder(d) is None and d.joker_holder() is None
    assert sorted(c.index for c in d.all_cards()) == list(range(25))
    d = hp.deal_cards([24] + list(range(24)), dealer=3)
    assert hp.joker_holder(d) == 0 and d.widow == hp.DECK25[23]


def test_deal_rejects_bad_orders():
    with pytest.raises(ValueError, match="all 25 cards"):
        hp.deal_cards(list(range(24)), 0)
    with pytest.raises(ValueError, match="duplicate"):
        hp.deal_cards([0] + list(range(1, 24)) + [0], 0)
    with pytest.raises(ValueError, match="seat"):
        hp.deal_cards(list(range(25)), 4)


def test_positions_seats_and_sides():
    for dealer in range(4):
        assert [hp.seat_of_position(dealer, p) for p in (1, 2, 3, 4)] == [(dealer + p) % 4 for p in (1, 2, 3, 4)]
        for p in (1, 2, 3, 4):
            assert hp.position_of_seat(dealer, hp.seat_of_position(dealer, p)) == p
        assert hp.next_dealer(dealer) == (dealer + 1) % 4
    assert [hp.side_of(s) for s in range(4)] == [0, 1, 0, 1]
    assert [hp.partner_of(s) for s in range(4)] == [2, 3, 0, 1]
    assert hp.seats_of_side(0) == [0, 2] and hp.seats_of_side(1) == [1, 3]
    with pytest.raises(ValueError, match="position"):
        hp.seat_of_position(0, 5)


# ---------------------------------------------------------------- the auction


def outcome(calls, dealer=0, joker=None, **rules):
    return hp.auction_outcome(calls, dealer, joker, rules)


def test_auction_goes_round_until_three_pass_after_the_high_bid():
    # dealer 0: seats 1, 2, 3, 0, 1, ... call
    r = outcome(["2", "pass", "3", "pass", "pass", "4", "pass", "pass", "pass"])
    assert r.bidder == 2 and r.bid == "4" and not r.thrown_in and not r.forced and r.bidding_side == 0
    assert [s for s, _ in r.calls] == [1, 2, 3, 0, 1, 2, 3, 0, 1]
    # a player who passed may bid again later: seat 2 passed, then bids 5
    r = outcome(["1", "pass", "pass", "2", "pass", "5", "pass", "pass", "pass"])
    assert r.bidder == 2 and r.bid == "5"
    # three passes right after position 1's bid end it
    assert outcome(["1", "pass", "pass", "pass"]).bidder == 1


def test_bid_of_six_ends_the_auction_at_once():
    r = outcome(["pass", "6"])
    assert (r.bidder, r.bid) == (2, "6")
    with pytest.raises(ValueError, match="ended with '6'"):
        outcome(["pass", "6", "pass"])


def test_pass_is_final():
    # seat 2 passed and is not asked again; seat 1's bid stands once seats 3 and 0 pass
    r = outcome(["1", "pass", "pass", "pass"], pass_is_final=True)
    assert r.bidder == 1
    r = outcome(["pass", "1", "2", "pass", "pass"], pass_is_final=True)  # seats 1, 2, 3, 0, then 2 (seat 1 skipped)
    assert [s for s, _ in r.calls] == [1, 2, 3, 0, 2] and r.bidder == 3 and r.bid == "2"
    assert hp.next_caller(["pass", "1", "2", "pass"], 0, {"pass_is_final": True}) == 2
    assert hp.next_caller(["pass", "1", "2", "pass"], 0) == 1  # without the option seat 1 may bid again
    # seat 1 passed: with the option the auction is over as soon as the others have passed
    assert hp.legal_calls(["pass", "1", "pass", "pass"], 0, {"pass_is_final": True}) == []
    assert hp.legal_calls(["pass", "1", "pass", "pass"], 0) == ["pass", "2", "3", "4", "5", "6"]


def test_all_four_pass():
    passes = ["pass"] * 4
    r = outcome(passes, dealer=2, joker=3)  # the joker holder must bid 3
    assert (r.bidder, r.bid, r.forced, r.thrown_in) == (3, "3", True, False) and len(r.calls) == 4
    r = outcome(passes, dealer=2, joker=None)  # the joker is the widow: thrown in
    assert r.thrown_in and r.bidder is None and r.bid is None and r.bidding_side is None
    assert outcome(passes, joker=1, all_pass="redeal").thrown_in
    assert outcome(passes, joker=1, pass_is_final=True).bidder == 1
    assert outcome(passes, joker=0, bidding="pepper").bid == "3"
    assert hp.legal_calls(passes, 0) == []
    # a bid after three passes: the first three may bid again (or pass)
    assert hp.legal_calls(["pass"] * 3 + ["1"], 0) == ["pass", "2", "3", "4", "5", "6"]


def test_pepper_bidding():
    p = {"bidding": "pepper"}
    assert hp.legal_calls([], 0, p) == ["pass", "1", "2", "3", "4", "5", "little-pepper", "big-pepper"]
    r = hp.auction_outcome(["big-pepper"], 0, None, p)  # big pepper may be bid directly and ends it
    assert (r.bidder, r.bid) == (1, "big-pepper")
    # little pepper does not end the auction; big pepper may follow it
    assert hp.legal_calls(["little-pepper"], 0, p) == ["pass", "big-pepper"]
    r = hp.auction_outcome(["2", "little-pepper", "big-pepper"], 0, None, p)
    assert (r.bidder, r.bid) == (3, "big-pepper")
    r = hp.auction_outcome(["little-pepper", "pass", "pass", "pass"], 0, None, p)
    assert (r.bidder, r.bid) == (1, "little-pepper")
    assert hp.auction_outcome(["Little Pepper", "pass", "pass", "pass"], 0, None, p).bid == "little-pepper"
    with pytest.raises(ValueError, match="may call 'pass' or '1'"):
        hp.auction_outcome(["6"], 0, None, p)
    with pytest.raises(ValueError, match="may call 'pass' or '1'"):
        hp.auction_outcome(["little-pepper"], 0, None)
    assert [hp.bid_tricks(b, p) for b in hp.PEPPER_BIDS] == [1, 2, 3, 4, 5, 6, 6]
    assert [hp.ends_auction(b, p) for b in hp.PEPPER_BIDS] == [False] * 6 + [True]
    assert [hp.ends_auction(b) for b in hp.NUMERIC_BIDS] == [False] * 5 + [True]


def test_illegal_calls_raise():
    with pytest.raises(ValueError, match="over the standing bid '3'"):
        outcome(["3", "2"])
    with pytest.raises(ValueError, match="over the standing bid '3'"):
        outcome(["3", "3"])
    with pytest.raises(ValueError, match="may call 'pass' or '1'"):
        outcome(["7"])
    with pytest.raises(ValueError, match="a call is a string"):
        outcome([None])
    with pytest.raises(ValueError, match="not over after 3 call"):
        outcome(["pass"] * 3)
    with pytest.raises(ValueError, match="not over after 3 call"):
        outcome(["2", "pass", "pass"])
    with pytest.raises(ValueError, match="all four passing"):
        outcome(["pass"] * 5, joker=0)
    with pytest.raises(ValueError, match="joker_seat"):
        outcome(["pass"] * 4, joker=4)
    assert outcome([3, "pass", "PASS", " pass "]).bid == "3"  # ints and any case accepted


# ---------------------------------------------------------------- widow, trump, first lead

HAND = cards("9C TC JS QD AH KH")


def test_widow_exchange():
    assert hp.widow_options(HAND, "JK") == hp.by_index([*HAND, hp.JOKER])
    hand, out = hp.take_widow(HAND, "JK", "9C")
    assert out == C("9C") and set(hand) == set(HAND) - {C("9C")} | {hp.JOKER} and len(hand) == 6
    hand, out = hp.take_widow(HAND, C("AS"), "AS")  # the widow itself may be discarded
    assert out == C("AS") and set(hand) == set(HAND)
    with pytest.raises(ValueError, match="must discard one card"):
        hp.take_widow(HAND, "JK", None)
    with pytest.raises(ValueError, match="not one of their seven cards"):
        hp.take_widow(HAND, "JK", "AS")
    with pytest.raises(ValueError, match="cannot be in the bidder's hand"):
        hp.widow_options(HAND, "9C")
    with pytest.raises(ValueError, match="holds 6 cards"):
        hp.widow_options(HAND[:5], "JK")


def test_widow_dead():
    dead = {"widow": "dead"}
    assert hp.widow_options(HAND, "JK", dead) == [None]
    hand, out = hp.take_widow(HAND, "JK", None, dead)
    assert set(hand) == set(HAND) and out == hp.JOKER
    with pytest.raises(ValueError, match="widow = dead"):
        hp.take_widow(HAND, "JK", "9C", dead)


def test_trump_and_first_lead():
    assert hp.trump_options() == [0, 1, 2, 3]
    assert [hp.name_trump(s) for s in "CSDH"] == [0, 1, 2, 3] and hp.name_trump("h") == 3 and hp.name_trump(2) == 2
    for bad in (4, "X", None, True):
        with pytest.raises(ValueError, match="trump must be a suit"):
            hp.name_trump(bad)
    for dealer, bidder in itertools.product(range(4), range(4)):
        assert hp.first_leader(dealer, bidder) == (dealer + 1) % 4
        assert hp.first_leader(dealer, bidder, {"first_lead": "bidder"}) == bidder


# ---------------------------------------------------------------- play


def test_play_with_choices_checks():
    hands = [hp.mask_from_cards(cards(h)) for h in ("9C TC JC QC KC AC", "9H TH JH QH KH AH",
                                                     "9S TS JS QS KS AS", "9D TD JD QD KD AD")]
    r = hp.play_with_choices(hands, trump=3, leader=0, choices=[0] * 24)
    assert [s for s, _ in r["plays"]][:8] == [0, 1, 2, 3, 1, 2, 3, 0]  # seat 1 trumps the first trick and leads
    assert sum(r["tricks"]) == 6
    assert hp.play_with_choices(hands, trump="h", leader=0, choices=[0] * 24) == r  # a suit letter will do
    with pytest.raises(ValueError, match="24 choices"):
        hp.play_with_choices(hands, 3, 0, [0] * 23)
    with pytest.raises(ValueError, match="must hold 6 cards"):
        hp.play_with_choices([hands[0] >> 1 << 1, *hands[1:]], 3, 0, [0] * 24)
    with pytest.raises(ValueError, match="share"):
        hp.play_with_choices([hands[0], hands[0], *hands[2:]], 3, 0, [0] * 24)


def test_a_renege_is_refused_in_play():
    hands = [cards("9C TC JC QC KC AC"), [hp.JOKER, *cards("9H TH QH KH AH")],
             cards("9S TS JS QS KS AS"), cards("9D TD JD QD KD AD")]

    def chooser(seat, hand, trick, played):
        if seat == 1 and trick and trick[0] == C("JC"):
            return C("9H")  # seat 1 holds the joker, a spade trump, and tries to keep it back
        return hand[2] if seat == 0 and not played else hand[0]

    # trump spades: seat 0 leads the JC (the left bower, a trump lead); seat 1 must play the joker
    with pytest.raises(ValueError, match="seat 1 may not play 9H; legal: JK"):
        hp.play_tricks(hands, "S", 0, chooser)


# ---------------------------------------------------------------- renege and the game


def test_renege_points():
    assert [hp.renege_points(s) for s in range(4)] == [[-2, 0], [0, -2], [-2, 0], [0, -2]]
    with pytest.raises(ValueError, match="offender"):
        hp.renege_points(4)


def test_game_winner():
    assert hp.game_winner([9, 9]) is None
    assert hp.game_winner([10, -3]) == 0 and hp.game_winner([4, 12]) == 1
    assert hp.game_winner([11, 10], bidding_side=1) == 1  # both reach it: the bidding side wins
    assert hp.game_winner([10, 13], bidding_side=0) == 0
    assert hp.game_winner([-5, 10], bidding_side=0) == 1
    with pytest.raises(ValueError, match="bidding side"):
        hp.game_winner([10, 10])
    with pytest.raises(ValueError, match="one score per side"):
        hp.game_winner([10, 1, 0])


# ---------------------------------------------------------------- hypothesis: auctions

rules_st = st.sampled_from(ALL_RULES)
deal_st = st.permutations(range(25))


def random_calls(rnd: random.Random, dealer: int, rules: dict, pass_bias: float = 0.6) -> list[str]:
    """A call sequence: pass with chance ``pass_bias``, else a bid uniform among the legal ones."""
    calls: list[str] = []
    while legal := hp.legal_calls(calls, dealer, rules):
        assert legal[0] == "pass"
        bids = legal[1:]
        calls.append("pass" if not bids or rnd.random() < pass_bias else rnd.choice(bids))
    return calls


def expected_over(calls: list[str], seats: list[int], rules: dict) -> bool:
    """When the auction is over, stated from RULES.md independently of the reference's bookkeeping."""
    top = "big-pepper" if rules["bidding"] == "pepper" else "6"
    bid_idx = [k for k, c in enumerate(calls) if c != "pass"]
    if not bid_idx:
        return len(calls) == 4  # all four passed on the first round
    last = bid_idx[-1]
    if calls[last] == top:  # nothing can beat it
        return last == len(calls) - 1
    bidder = seats[last]
    if rules["pass_is_final"]:
        return {seats[k] for k, c in enumerate(calls) if c == "pass"} >= set(range(4)) - {bidder}
    return len(calls) - 1 - last == 3  # three passes in a row after the high bid


@settings(deadline=None, max_examples=400)
@given(dealer=st.integers(0, 3), rules=rules_st, joker=st.sampled_from([None, 0, 1, 2, 3]),
       bias=st.sampled_from([0.3, 0.6, 0.85]), rnd=st.randoms(use_true_random=False))
def test_random_auctions_are_consistent(dealer, rules, joker, bias, rnd):
    calls = random_calls(rnd, dealer, rules, bias)
    r = hp.auction_outcome(calls, dealer, joker, rules)
    seats = [s for s, _ in r.calls]
    assert [c for _, c in r.calls] == calls and seats[0] == (dealer + 1) % 4
    order = hp.bids(rules)
    levels = [order.index(c) for c in calls if c != "pass"]
    assert levels == sorted(set(levels)), "each bid beats the standing bid"
    for k in range(1, len(calls)):  # turns go clockwise, skipping final passers
        step = (seats[k] - seats[k - 1]) % 4
        skipped = [(seats[k - 1] + j) % 4 for j in range(1, step)]
        if rules["pass_is_final"]:
            assert all("pass" in calls[:k] and any(seats[i] == s and calls[i] == "pass" for i in range(k))
                       for s in skipped)
            assert not any(seats[i] == seats[k] and calls[i] == "pass" for i in range(k)), "a pass is final"
        else:
            assert step == 1
    # the end: exactly when RULES.md says, and not before
    for k in range(len(calls) + 1):
        assert expected_over(calls[:k], seats[:k], rules) == (k == len(calls)), (calls, k)
    if all(c == "pass" for c in calls):
        assert calls == ["pass"] * 4
        forced = rules["all_pass"] == "joker_bids_three" and joker is not None
        assert r.thrown_in == (not forced) and r.forced == forced
        assert (r.bidder, r.bid) == ((joker, "3") if forced else (None, None))
    else:
        last = max(k for k, c in enumerate(calls) if c != "pass")
        assert (r.bidder, r.bid, r.forced, r.thrown_in) == (seats[last], calls[last], False, False)
        assert r.bidding_side == seats[last] % 2
    # the sequence is exact: a prefix is unfinished, any extra call is too many
    for k in range(len(calls)):
        with pytest.raises(ValueError, match="not over"):
            hp.auction_outcome(calls[:k], dealer, joker, rules)
    with pytest.raises(ValueError, match="more call"):
        hp.auction_outcome([*calls, "pass"], dealer, joker, rules)
    # any call not legal at a step makes the sequence illegal
    k = rnd.randrange(len(calls))
    legal = hp.legal_calls(calls[:k], dealer, rules)
    illegal = [c for c in EVERY_CALL if c not in legal]
    with pytest.raises(ValueError, match="may call"):
        hp.auction_outcome([*calls[:k], rnd.choice(illegal)], dealer, joker, rules)


# ---------------------------------------------------------------- hypothesis: whole hands


def eff_suit(card, trump: int) -> int:
    """The effective suit, written out again here: joker and left bower are trump."""
    if card == hp.JOKER:
        return trump
    if card.rank == hp.JACK and card.suit != trump and card.suit // 2 == trump // 2:  # same colour: C/S, D/H
        return trump
    return card.suit


def random_hand(rnd: random.Random, order, dealer: int, rules: dict):
    """Every decision uniformly among the legal ones (calls biased to pass); returns the decisions and record."""
    d = hp.deal_cards(order, dealer)
    calls = random_calls(rnd, dealer, rules, rnd.choice([0.5, 0.8, 0.95]))
    auction = hp.auction_outcome(calls, dealer, hp.joker_holder(d), rules)
    dec = {"calls": calls, "trump": None, "discard": None, "choices": [rnd.randrange(60) for _ in range(24)]}
    if auction.thrown_in:
        return dec, hp.play_hand(order, dealer, calls, rules=rules)
    dec["trump"] = rnd.choice(hp.trump_options())
    dec["discard"] = rnd.choice(hp.widow_options(d.hands[auction.bidder], d.widow, rules))
    rec = hp.play_hand(order, dealer, calls, trump=dec["trump"], discard=dec["discard"], choices=dec["choices"],
                       rules=rules)
    return dec, rec


@settings(deadline=None, max_examples=300)
@given(order=deal_st, dealer=st.integers(0, 3), rules=rules_st, rnd=st.randoms(use_true_random=False))
def test_random_hands_keep_the_rules(order, dealer, rules, rnd):
    dec, rec = random_hand(rnd, order, dealer, rules)
    d, auction = rec["deal"], rec["auction"]
    deck = set(hp.DECK25)
    # the deal: 24 cards in the four hands, the 25th the widow, nothing twice
    dealt = [c for h in d.hands for c in h]
    assert [len(h) for h in d.hands] == [6] * 4 and len(set(dealt)) == 24
    assert set(dealt) | {d.widow} == deck and d.widow == hp.DECK25[order[24]]
    assert hp.joker_holder(d) == next((s for s in range(4) if hp.JOKER in d.hands[s]), None)
    if auction.thrown_in:
        assert rec["plays"] == [] and rec["points"] == [0, 0] and set(rec["out_of_play"]) == deck
        assert calls_all_pass(dec["calls"]) and (rules["all_pass"] == "redeal" or d.widow == hp.JOKER)
        return
    bidder, trump = auction.bidder, rec["trump"]
    assert trump == dec["trump"] and rec["bidding_side"] == bidder % 2
    if auction.forced:
        assert hp.JOKER in d.hands[bidder] and auction.bid == "3" and rules["all_pass"] == "joker_bids_three"
    # the widow: taken and one of seven discarded, or dead
    hands = rec["hands"]
    assert all(len(h) == 6 for h in hands) and len(rec["out_of_play"]) == 1
    in_play = [c for h in hands for c in h]
    assert len(set(in_play)) == 24 and set(in_play) | set(rec["out_of_play"]) == deck
    for s in range(4):
        if s != bidder:
            assert set(hands[s]) == set(d.hands[s])
    if rules["widow"] == "exchange":
        assert rec["widow_taken"] and rec["discard"] == dec["discard"] == rec["out_of_play"][0]
        assert set(hands[bidder]) | {rec["discard"]} == set(d.hands[bidder]) | {d.widow}
    else:
        assert not rec["widow_taken"] and rec["discard"] is None and rec["out_of_play"] == [d.widow]
        assert set(hands[bidder]) == set(d.hands[bidder])
    # the first lead
    assert rec["leader"] == (bidder if rules["first_lead"] == "bidder" else (dealer + 1) % 4)
    # play: suit followed (joker and left bower as trump), the winner leads, tricks add up to 6
    plays = rec["plays"]
    assert len(plays) == 24 and sorted(c.index for _, c in plays) == sorted(c.index for c in in_play)
    held = {s: set(hands[s]) for s in range(4)}
    tricks = [0] * 4
    leader = rec["leader"]
    for t in range(6):
        trick = plays[4 * t: 4 * t + 4]
        seats = [s for s, _ in trick]
        assert seats == [(leader + k) % 4 for k in range(4)]
        led = eff_suit(trick[0][1], trump)
        for seat, card in trick:
            assert card in held[seat]
            if any(eff_suit(c, trump) == led for c in held[seat]):
                assert eff_suit(card, trump) == led, f"seat {seat} did not follow suit"
            held[seat].remove(card)
        played = [c for _, c in trick]
        if hp.JOKER in played:  # the joker takes every trick it is in
            assert played[hp.trick_winner(played, trump)] == hp.JOKER
        leader = seats[hp.trick_winner(played, trump)]
        tricks[leader] += 1
    assert tricks == rec["tricks"] and sum(tricks) == 6
    side = bidder % 2
    taken = tricks[side] + tricks[side + 2]
    assert rec["side_tricks"][side] == taken and sum(rec["side_tricks"]) == 6
    # the points are the vector table's (plus the defenders' tricks under defenders_score_tricks)
    bidders, defenders = VECTOR_TABLE[(auction.bid, taken, rules["bidding"], rules["fail_penalty"])]
    if rules["defenders_score_tricks"]:
        defenders += 6 - taken
    assert rec["points"][side] == bidders and rec["points"][1 - side] == defenders


def calls_all_pass(calls) -> bool:
    return list(calls) == ["pass"] * 4


@settings(deadline=None, max_examples=60)
@given(order=deal_st, dealer=st.integers(0, 3))
def test_illegal_decisions_in_a_hand_raise(order, dealer):
    d = hp.deal_cards(order, dealer)
    calls = ["2", "pass", "pass", "pass"]  # position 1 bids 2
    bidder = (dealer + 1) % 4
    discard = d.hands[bidder][0]
    rec = hp.play_hand(order, dealer, calls, trump="H", discard=discard, choices=[0] * 24)
    assert rec["bidder"] == bidder and rec["bid"] == "2" and rec["trump"] == 3
    with pytest.raises(ValueError, match="must discard"):
        hp.play_hand(order, dealer, calls, trump="H", choices=[0] * 24)
    with pytest.raises(ValueError, match="widow = dead"):
        hp.play_hand(order, dealer, calls, trump="H", discard=discard, choices=[0] * 24, rules={"widow": "dead"})
    with pytest.raises(ValueError, match="must name trump"):
        hp.play_hand(order, dealer, calls, discard=discard, choices=[0] * 24)
    with pytest.raises(ValueError, match="not one of their seven"):
        hp.play_hand(order, dealer, calls, trump="H", discard=d.hands[(bidder + 1) % 4][0], choices=[0] * 24)
    with pytest.raises(ValueError, match="24 choices"):
        hp.play_hand(order, dealer, calls, trump="H", discard=discard, choices=[0] * 5)
    with pytest.raises(ValueError, match="not over"):
        hp.play_hand(order, dealer, calls[:3], trump="H", discard=discard, choices=[0] * 24)
    passes = ["pass"] * 4
    if d.widow == hp.JOKER:
        with pytest.raises(ValueError, match="thrown in"):
            hp.play_hand(order, dealer, passes, trump="H")
    else:
        rec = hp.play_hand(order, dealer, passes, trump="C", discard=d.widow, choices=[0] * 24)
        assert rec["auction"].forced and rec["bidder"] == hp.joker_holder(d) and rec["bid"] == "3"


# ---------------------------------------------------------------- exact combinatorics


def test_joker_location_exactly():
    """Where the joker lands: each seat 6/25, the widow 1/25, for every dealer.

    For a uniformly shuffled 25-card order the joker's position is uniform
    over the 25 positions (every position is equally likely by symmetry), so
    enumerating the 25 positions, each of weight 1/25, gives the exact
    chances; the other 24 cards do not matter to where card 24 lands.
    """
    others = list(range(24))
    for dealer in range(4):
        chance = {"widow": Fraction(0)} | {s: Fraction(0) for s in range(4)}
        for k in range(25):
            order = others[:k] + [24] + others[k:]
            d = hp.deal_cards(order, dealer)
            holder = hp.joker_holder(d)
            chance["widow" if holder is None else holder] += Fraction(1, 25)
            # the packet rule, stated again: position (k // 3) % 4 + 1 gets card k, card 24 is the widow
            assert holder == (None if k == 24 else (dealer + (k // 3) % 4 + 1) % 4)
        assert chance == {"widow": Fraction(1, 25), 0: Fraction(6, 25), 1: Fraction(6, 25), 2: Fraction(6, 25),
                          3: Fraction(6, 25)}
        assert sum(chance.values()) == 1
    # so all four pass -> thrown in under joker_bids_three with chance exactly 1/25, and the
    # dealer's side holds the joker with chance 12/25
    assert Fraction(6, 25) * 2 == Fraction(12, 25)
