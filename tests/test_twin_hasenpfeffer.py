"""Hasenpfeffer: the kernels against the plain-Python twin ``tests/reference/hasenpfeffer_play.py``.

The contract is ``notes/hasenpfeffer_spec.md``. First the twin alone (its
estimate is Ghost Hand's plus the joker, its auction flips exactly at each
threshold, its widow choice is the first best of all 28 (trump, discard)
pairs, its random player consumes the decision stream in the spec's order,
its records replay through the rules reference ``tests/reference/hasenpfeffer.py``),
then exact comparisons of whole record dicts with the kernel side:
``bower.sim.hasenpfeffer.play_order`` on random 25-card orders, every dealer, every
rule combination, strategies (presets, per-seat mixes, perturbed parameters,
thresholds nudged onto the exact values of the hands dealt, random players),
``bower.sim.runner.hand_records`` over chunks (a chunk boundary included) and
``bower.sim.runner.game_results`` with duplicate and independent seeding.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.reference import ghost
from tests.reference import hasenpfeffer as hp
from tests.reference import hasenpfeffer_play as pp
from tests.reference.rng import Xoshiro256ss, decision_chunk_rng

try:  # the kernel side is written alongside this file
    from bower.sim.variants.hasenpfeffer import hands as kh
    from bower.sim import runner
except ImportError:  # pragma: no cover
    kh = runner = None
from bower.sim.variants import get_variant

HASENPFEFFER_DEFAULTS = get_variant("hasenpfeffer").defaults
# the presets the twin plays (it has no PIMC card play: pimc_worlds >= 1)
HASENPFEFFER_PRESETS = {n: p for n, p in get_variant("hasenpfeffer").presets.items() if p["pimc_worlds"] < 1}

needs_kernel = pytest.mark.skipif(kh is None, reason="sim/hasenpfeffer.py does not exist yet")

SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}
CHUNK = pp.CHUNK_HANDS
HALF = 0.5
BELOW_HALF = float(np.nextafter(0.5, 0.0))

# ---------------------------------------------------------------- generators

RULE_OPTIONS = {o.name: list(o.values) for o in hp.HASENPFEFFER.options}
ALL_RULES = [dict(zip(RULE_OPTIONS, values)) for values in itertools.product(*RULE_OPTIONS.values())]
rule_sets = st.fixed_dictionaries({name: st.sampled_from(values) for name, values in RULE_OPTIONS.items()})
seeds = st.one_of(st.integers(0, 2**16), st.integers(0, 2**63 - 1))
orders = st.permutations(range(25))
dealers = st.integers(0, 3)


def up(x: float) -> float:
    return float(np.nextafter(x, np.inf))


def down(x: float) -> float:
    return float(np.nextafter(x, -np.inf))


def _nudged(x: float):
    """``x`` and the floats just either side of it (the edges of a ``>=`` threshold)."""
    return st.sampled_from([x, up(x), down(x)])


def _weight(name: str):
    return st.one_of(
        st.just(HASENPFEFFER_DEFAULTS[name]),
        st.integers(0, 6).map(lambda k: k / 4),  # exact binary fractions: sums tie thresholds exactly
        st.integers(0, 30).map(lambda k: k / 20),  # rounded to 2**-12 by sim.strategy
        st.floats(0.0, 1.5, allow_nan=False),
    )


def _threshold(name: str, lo: float, hi: float, step: float = 1 / 16):
    return st.one_of(
        _nudged(HASENPFEFFER_DEFAULTS[name]),
        st.integers(int(lo / step), int(hi / step)).map(lambda k: k * step).flatmap(_nudged),
        st.floats(lo, hi, allow_nan=False),
    )


PARAM_STRATEGIES = {
    **{n: _weight(n) for n in HASENPFEFFER_DEFAULTS if n.startswith("w_")},
    "partner_help": st.one_of(st.just(1.0), st.integers(0, 12).map(lambda k: k / 4), st.floats(-0.5, 3.0)),
    "cushion": _threshold("cushion", -1.0, 2.5),
    # support_margin down to -3: a negative margin must never let a call fall to or below the standing bid
    # (both sides require the level to beat it; the kernel once bid under it and looped).
    "support_margin": _threshold("support_margin", -3.0, 3.0, 0.25),
    "bid_jump": st.sampled_from([0.0, 1.0, HALF, BELOW_HALF]),
    "big_pepper_min": _threshold("big_pepper_min", 5.0, 9.0),
    "lead_trump_min": st.sampled_from([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 1.5, 2.5, down(2.0), up(3.0)]),
}
perturbed = st.fixed_dictionaries({}, optional=PARAM_STRATEGIES)
random_player = st.one_of(
    st.just("random"),
    st.fixed_dictionaries({"random": st.sampled_from([1.0, HALF])}, optional=PARAM_STRATEGIES),
)
not_random = st.fixed_dictionaries({"random": st.sampled_from([0.0, BELOW_HALF])}, optional=PARAM_STRATEGIES)
PRESET_NAMES = sorted(HASENPFEFFER_PRESETS)
one_strategy = st.one_of(st.sampled_from(PRESET_NAMES), perturbed, random_player, not_random)
deterministic_strategy = st.one_of(st.sampled_from(sorted(set(PRESET_NAMES) - {"random"})), perturbed, not_random)
seat_strategies = st.one_of(one_strategy, st.lists(one_strategy, min_size=4, max_size=4))

TUNABLE = ("cushion", "big_pepper_min", "support_margin", "lead_trump_min", "partner_help")


@st.composite
def tuned_strategy(draw, order, dealer):
    """A strategy whose thresholds sit on (or one ulp either side of) the values of the hands dealt.

    So every ``>=`` of the auction is tested on its edge: ``cushion`` at
    ``E - L`` for some seat's partnership estimate E and some level L,
    ``big_pepper_min`` at some seat's E, ``support_margin`` at a whole
    number (T - st - 1 is one), ``partner_help`` such that E = L + cushion
    exactly, ``lead_trump_min`` at a whole number of trumps.
    """
    base = draw(st.fixed_dictionaries({}, optional={n: PARAM_STRATEGIES[n] for n in PARAM_STRATEGIES
                                                    if n.startswith("w_") or n in ("bid_jump",)}))
    params = pp.resolve_params(base)
    d = hp.deal_cards(order, dealer)
    seat = draw(st.integers(0, 3))
    e = pp.best_suit(d.hands[seat], params)[1]
    E = e + params["partner_help"]
    level = draw(st.integers(1, 6))
    tuned = {}
    for name in draw(st.sets(st.sampled_from(TUNABLE), min_size=1)):
        if name == "cushion":
            tuned[name] = draw(_nudged(E - level))
        elif name == "big_pepper_min":
            tuned[name] = draw(_nudged(E))
        elif name == "support_margin":
            tuned[name] = draw(_nudged(float(draw(st.integers(0, 3)))))
        elif name == "lead_trump_min":
            tuned[name] = draw(_nudged(float(draw(st.integers(1, 4)))))
        else:  # partner_help such that e + partner_help == level + cushion (cushion kept)
            tuned[name] = draw(_nudged(level + tuned.get("cushion", params["cushion"]) - e))
    return {**base, **tuned}


def _first_difference(k: dict, r: dict) -> str:
    keys = [key for key in sorted(set(k) | set(r)) if k.get(key) != r.get(key)]
    lines = [f"hand {r.get('hand')} dealer {r.get('dealer')} rules {r.get('rules')}"]
    for key in keys:
        lines.append(f"  {key}: kernel {k.get(key)!r}\n  {' ' * len(key)}  reference {r.get(key)!r}")
    return "\n".join(lines)


def _compare_hands(kernel: list[dict], reference: list[dict]) -> None:
    assert len(kernel) == len(reference)
    for k, r in zip(kernel, reference):
        assert k == r, _first_difference(k, r)


def _c(names) -> list:
    return [hp.card_from_str(c) for c in names]


# ---------------------------------------------------------------- the twin alone


class LoggedStream:
    """A decision stream that logs every ``bounded(n)`` draw as (n, value)."""

    def __init__(self, seed: int):
        self.rng = decision_chunk_rng(seed, 0)
        self.log: list[tuple[int, int]] = []

    def bounded(self, n: int) -> int:
        v = self.rng.bounded(n)
        self.log.append((n, v))
        return v


def _hands_in_play(rec: dict) -> dict[int, list]:
    """Each seat's 6 cards after the widow (from the record)."""
    hands = {s: _c(rec["deal"][str(s)]) for s in range(4)}
    if rec["discard"] is not None:
        b = rec["bidder"]
        hands[b] = [c for c in hands[b] + [hp.card_from_str(rec["widow"])] if str(c) != rec["discard"]]
    return hands


def _replay_draws(rec: dict, rules: dict, seats: list[dict], log: list[tuple[int, int]]) -> None:
    """Walk through a record with the logged draws: each random decision must be the spec's draw, in order."""
    draws = iter(log)
    rnd = {s for s in range(4) if pp.is_random(seats[s])}

    def draw(seat: int, n: int) -> int | None:
        if seat not in rnd:
            return None
        got_n, v = next(draws)
        assert got_n == n, (seat, got_n, n)
        return v

    made = []
    for seat, call in rec["calls"]:
        allowed = hp.legal_calls(made, rec["dealer"], rules)
        assert hp.next_turn(made, rec["dealer"], rules) == (seat, allowed)
        v = draw(seat, len(allowed))
        assert v is None or allowed[v] == call
        made.append(call)
    if rec["bidder"] is None:
        assert next(draws, None) is None
        return
    b = rec["bidder"]
    if rules["widow"] == "exchange":
        seven = sorted(_c(rec["deal"][str(b)]) + [hp.card_from_str(rec["widow"])], key=lambda c: c.index)
        v = draw(b, 7)
        assert v is None or str(seven[v]) == rec["discard"]
    v = draw(b, 4)
    assert v is None or "CSDH"[v] == rec["trump"]
    hands = _hands_in_play(rec)
    trump = "CSDH".index(rec["trump"])
    lead = None
    for i, (seat, name) in enumerate(rec["plays"]):
        lead = hp.card_from_str(name) if i % 4 == 0 else lead
        legal = hp.legal_cards(hands[seat], None if i % 4 == 0 else lead, trump)
        v = draw(seat, len(legal))
        assert v is None or str(legal[v]) == name
        hands[seat] = [c for c in hands[seat] if str(c) != name]
    assert next(draws, None) is None, "draws left over"


def _replay_through_rules(order, rec: dict, rules: dict) -> None:
    """The record's decisions, fed to the rules reference ``hp.play_hand``, give the record's play and score."""
    calls = [c for _, c in rec["calls"]]
    if rec["bidder"] is None:
        out = hp.play_hand(order, rec["dealer"], calls, rules=rules)
        assert out["auction"].thrown_in
        assert rec["plays"] == [] and rec["trump"] is None and rec["discard"] is None and not rec["forced"]
        assert set(rec["points"].values()) == {0} and set(rec["tricks"].values()) == {0}
        return
    hands = _hands_in_play(rec)
    trump = "CSDH".index(rec["trump"])
    choices = []
    lead = None
    for i, (seat, name) in enumerate(rec["plays"]):
        card = hp.card_from_str(name)
        lead = card if i % 4 == 0 else lead
        legal = hp.legal_cards(hands[seat], None if i % 4 == 0 else lead, trump)
        choices.append(legal.index(card))
        hands[seat].remove(card)
    out = hp.play_hand(order, rec["dealer"], calls, trump=rec["trump"], discard=rec["discard"], choices=choices,
                       rules=rules)
    assert out["bidder"] == rec["bidder"] and out["bid"] == rec["bid"] and out["auction"].forced == rec["forced"]
    assert [[s, str(c)] for s, c in out["plays"]] == rec["plays"]
    assert {str(s): t for s, t in enumerate(out["tricks"])} == rec["tricks"]
    assert {str(s): p for s, p in enumerate(out["points"])} == rec["points"]


@settings(max_examples=150, **SETTINGS)
@given(order=orders, dealer=dealers, rules=rule_sets, strategy=seat_strategies, seed=seeds)
def test_reference_draws_in_spec_order_and_replays_through_the_rules(order, dealer, rules, strategy, seed):
    seats = pp.seat_strategies(strategy)
    rules = hp.resolve_rules(rules)
    stream = LoggedStream(seed)
    rec = pp.play_hand(order, dealer, rules, seats, stream if any(pp.is_random(p) for p in seats) else None)
    _replay_draws(rec, rules, seats, stream.log)
    _replay_through_rules(order, rec, rules)
    if any(pp.is_random(p) for p in seats):  # play_order: the same draws from chunk 0's decision stream
        assert pp.play_order(order, dealer, rules, strategy, seed) == rec


@settings(max_examples=200, **SETTINGS)
@given(cards=st.sets(st.integers(0, 24), min_size=1, max_size=7), trump=st.integers(0, 3), strategy=perturbed)
def test_reference_estimate_is_ghosts_plus_the_joker(cards, trump, strategy):
    params = pp.resolve_params(strategy)
    hand = [hp.DECK25[c] for c in sorted(cards)]
    plain = [c for c in hand if not hp.is_joker(c)]
    if len(plain) == len(hand):  # no joker: exactly Ghost Hand's estimate
        assert pp.estimate(hand, trump, params) == ghost.estimate(plain, trump, params)
        return
    # the joker: w_joker, and it counts towards the two trumps of the void bonus
    n_trumps = sum(hp.is_trump(c, trump) for c in plain)
    voids = sum(1 for s in range(4) if s != trump and not any(hp.effective_suit(c, trump) == s for c in plain))
    want = ghost.estimate(plain, trump, params) + params["w_joker"]
    if n_trumps == 1:  # the joker makes the second trump: the voids now count
        want += voids * params["w_void"]
    assert pp.estimate(hand, trump, params) == want


FIXED = {"partner_help": 1.0, "cushion": 0.5, "support_margin": 1.0, "bid_jump": 1.0, "big_pepper_min": 7.0,
         "lead_trump_min": 2.0}  # the unit tests below do not follow the tuning of the defaults


def test_reference_auction_on_its_thresholds():
    p = pp.resolve_params(FIXED)
    numeric, pepper = hp.resolve_rules({}), hp.resolve_rules({"bidding": "pepper"})
    hand = _c(["JK", "JH", "JD", "AH", "9C", "KS"])  # hearts: 1 + 1 + 0.9375 + 0.875 + K 0.1875 + D void 0.375
    e = pp.best_suit(hand, p)
    assert e == (3, 1 + 1 + 0.9375 + 0.875 + 0.1875 + 0.375)
    E = e[1] + p["partner_help"]  # 5.375
    # L = largest L with E >= L + cushion: cushion on E - L exactly bids L, one ulp more bids L - 1
    for lvl in range(1, 7):
        assert pp.hand_level(E, {**p, "cushion": E - lvl}) == lvl
        assert pp.hand_level(E, {**p, "cushion": E - lvl + 1 / 64}) == lvl - 1
    assert pp.hand_level(E, {**p, "cushion": 1.0}) == 4
    # the spec's comparison is literally E >= L + cushion, in floats: one ulp above 1.375 the sum 4 + cushion
    # still rounds to E (so 4 is bid), although E - cushion < 4; the first cushion that drops to 3 is 2**-50 up
    assert 4 + up(1.375) == E and pp.hand_level(E, {**p, "cushion": up(1.375)}) == 4
    assert pp.hand_level(E, {**p, "cushion": 1.375 + 2**-50}) == 3
    assert pp.hand_level(E, {**p, "cushion": 99.0}) == 0
    assert pp.hand_level(E, {**p, "cushion": -99.0}) == 6
    # pepper: a 6 is little pepper, big pepper from big_pepper_min (E itself bids big)
    six = {**p, "cushion": E - 6}
    assert pp.target_level(E, numeric, six) == 6
    assert pp.target_level(E, pepper, {**six, "big_pepper_min": E}) == 7
    assert pp.target_level(E, pepper, {**six, "big_pepper_min": up(E)}) == 6
    # a 5 is a 5 in both forms
    assert pp.target_level(E, pepper, {**p, "cushion": E - 5, "big_pepper_min": 0.0}) == 5
    # over an opponent's bid: T >= st + 1; over the partner's: T >= st + 1 + support_margin
    q = {**p, "cushion": E - 4}  # T = 4
    assert pp.auction_call(0, hand, 3, 1, numeric, q) == 4
    assert pp.auction_call(0, hand, 4, 1, numeric, q) == 0
    assert pp.auction_call(0, hand, 2, 2, numeric, {**q, "support_margin": 1.0}) == 4
    assert pp.auction_call(0, hand, 2, 2, numeric, {**q, "support_margin": 1.0 + 2**-50}) == 0
    # (the sum st + 1 + support_margin is a float: one ulp above 1.0 it rounds back to 4, which is bid)
    assert pp.auction_call(0, hand, 2, 2, numeric, {**q, "support_margin": up(1.0)}) == 4
    assert pp.auction_call(0, hand, 3, 2, numeric, {**q, "support_margin": 0.0}) == 4
    # bid_jump: the level itself, else the least bid; the switch is on at 0.5
    assert pp.auction_call(0, hand, 0, None, numeric, {**q, "bid_jump": HALF}) == 4
    assert pp.auction_call(0, hand, 0, None, numeric, {**q, "bid_jump": BELOW_HALF}) == 1
    assert pp.auction_call(0, hand, 2, 1, numeric, {**q, "bid_jump": 0.0}) == 3
    # reading: a negative margin never makes a player bid at or below the standing bid
    assert pp.auction_call(0, hand, 4, 2, numeric, {**q, "support_margin": -2.0}) == 0


def test_reference_widow_choice_is_the_first_best_pair():
    p = pp.resolve_params(FIXED)
    rules = hp.resolve_rules({})
    rng = random.Random(5)
    for _ in range(60):
        cards = rng.sample(hp.DECK25, 7)
        hand, widow = cards[:6], cards[6]
        trump, d = pp.widow_choice(hand, widow, rules, p)
        seven = sorted(cards, key=lambda c: c.index)
        pairs = [(t, x) for t in range(4) for x in seven]
        values = [pp.estimate([c for c in seven if c != x], t, p) for t, x in pairs]
        assert (trump, d) == pairs[values.index(max(values))]
    # ties: the lowest suit, then the lowest discard; with no weights everything ties: clubs, the first card
    zero = {k: (0.0 if k.startswith("w_") else v) for k, v in p.items()}
    hand = _c(["9S", "TS", "JH", "AH", "KD", "JK"])
    assert pp.widow_choice(hand, hp.card_from_str("QC"), rules, zero) == (0, hp.card_from_str("QC"))
    # dead widow: the best suit of the six, no discard: diamonds (JH left .9375, JK 1, KD .6875, off AH .625,
    # clubs void .375 = 3.625) over hearts (JH 1, JK 1, AH .875, off KD .1875, clubs void .375 = 3.4375)
    assert pp.best_suit(hand, p) == (2, 3.625) and pp.estimate(hand, 3, p) == 3.4375
    assert pp.widow_choice(hand, hp.card_from_str("QC"), hp.resolve_rules({"widow": "dead"}), p) == (2, None)


def test_reference_leads_and_follows():
    p = pp.resolve_params(FIXED)
    trump = 3  # hearts: JH right, JD left
    # the bidder with >= lead_trump_min trumps leads its strongest: the joker
    hand = _c(["9C", "JD", "AH", "JK"])
    assert str(pp.choose_card(0, hand, [], [], trump, 0, p)) == "JK"
    assert str(pp.choose_card(0, hand, [], [], trump, 0, {**p, "lead_trump_min": 4.0})) == "JK"  # JK is sure
    # the bidder's partner: its sure winner of least value if any (the left bower, once the joker and the
    # right bower are out), else its weakest trump; a defender the card of least value
    hand = _c(["9C", "KS", "TH", "JD"])
    played = _c(["JK", "JH", "AC", "KC", "QC"])
    assert str(pp.choose_card(2, hand, [], played, trump, 0, p)) == "JD"
    assert str(pp.choose_card(2, hand, [], [], trump, 0, p)) == "TH"  # no sure winner: weakest trump
    assert str(pp.choose_card(1, hand, [], [], trump, 0, p)) == "9C"  # a defender: least value
    assert str(pp.choose_card(2, _c(["9C", "KS"]), [], [], trump, 0, p)) == "9C"  # no trump: least value
    # the sure winner of least value: AC and AS are both sure (nothing unseen beats an ace but trumps,
    # which are another suit); AC is the lower suit
    assert str(pp.choose_card(1, _c(["AS", "AC", "9D"]), [], [], trump, 0, p)) == "AC"
    # follow: never overtake a partner (seat 2's partner seat 0 led and is winning)
    assert str(pp.choose_card(2, _c(["9C", "AC", "TH"]), _c(["KC", "QC"]), [], trump, 0, p)) == "9C"
    # an opponent winning: the cheapest card that beats it
    assert str(pp.choose_card(2, _c(["9C", "AC", "TH"]), _c(["QC", "KC"]), [], trump, 0, p)) == "AC"
    # void with an opponent winning: the cheapest trump that beats it; a joker led calls for trump
    assert str(pp.choose_card(3, _c(["9D", "TH", "AH"]), _c(["AS", "QS", "KS"]), [], trump, 0, p)) == "TH"
    assert str(pp.choose_card(1, _c(["9D", "AC", "JK"]), _c(["9H"]), [], trump, 0, p)) == "JK"  # only trump
    assert str(pp.choose_card(1, _c(["9D", "JD", "TH"]), _c(["JK"]), [], trump, 0, p)) == "TH"  # cannot win


def test_reference_shuffle_is_fisher_yates_of_25():
    for seed in range(20):
        a, b = Xoshiro256ss([seed + 1, 2, 3, 4]), Xoshiro256ss([seed + 1, 2, 3, 4])
        order = pp.shuffled_order(a)
        deck = list(range(25))
        for i in range(24, 0, -1):
            j = b.bounded(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        assert [c.index for c in order] == deck and a.s == b.s and a.held == b.held


def test_reference_orders_continue_a_chunk():
    # Hands read from the middle of a chunk are the chunk's own (checkpoints do not move the stream).
    full = pp.orders(3, 0, 600)
    assert pp.orders(3, 257, 300) == full[257:557]
    recs = pp.hand_records(3, 590, 10)
    assert [(r["deal"], r["widow"]) for r in recs] == [
        ({str(s): [str(c) for c in h] for s, h in enumerate(d.hands)}, str(d.widow))
        for d in (hp.deal_cards(o, k % 4) for k, o in zip(range(590, 600), full[590:600]))]


def test_reference_games():
    games = pp.game_details(4, 0, 4, {"bidding": "pepper"}, ("default", "random"), [[0, 1, 0, 1], [1, 0, 1, 0]],
                            True, keep_records=True)
    for g in games:
        assert g["winner"] is not None
        scores = [0, 0]
        for n, rec in enumerate(g["records"]):
            assert rec["dealer"] == (pp.FIRST_DEALER + n) % 4 and rec["hand"] == n
            assert rec["scores_before"] == scores
            scores = [scores[s] + rec["points"][str(s)] for s in range(2)]
            assert n == len(g["records"]) - 1 or hp.game_winner(scores, pp.bidding_side(rec)) is None
        assert scores == g["scores"] and max(scores) >= 10
        assert hp.game_winner(scores, pp.bidding_side(g["records"][-1])) == g["winner"]
    # duplicate: both assignments of a set see the same deals
    for a, b in zip(games[::2], games[1::2]):
        n = min(a["hands"], b["hands"])
        assert [r["deal"] for r in a["records"][:n]] == [r["deal"] for r in b["records"][:n]]


def test_reference_both_sides_reaching_ten_the_bidding_side_wins():
    # defenders_score_tricks lets both sides cross 10 on one hand: the bidding side takes the game.
    rules = {"defenders_score_tricks": True, "fail_penalty": "undertricks"}
    found = 0
    strategies = (FIXED, {**FIXED, "cushion": -0.5})
    for g in pp.game_details(21, 0, 40, rules, strategies, [[0, 1, 0, 1]], True, keep_records=True):
        if min(g["scores"]) >= 10:
            found += 1
            assert g["winner"] == pp.bidding_side(g["records"][-1])
    assert found >= 2, found


# ---------------------------------------------------------------- kernels against the twin


@needs_kernel
@settings(max_examples=400, **SETTINGS)
@given(order=orders, dealer=dealers, rules=rule_sets, strategy=seat_strategies, seed=seeds,
       as_strings=st.booleans())
def test_play_order_twin(order, dealer, rules, strategy, seed, as_strings):
    given_order = [str(hp.DECK25[c]) for c in order] if as_strings else order
    kernel = kh.play_order(given_order, dealer, rules, strategy, seed)
    reference = pp.play_order(order, dealer, rules, strategy, seed)
    assert kernel == reference, _first_difference(kernel, reference)


@needs_kernel
@settings(max_examples=400, **SETTINGS)
@given(data=st.data(), order=orders, dealer=dealers, rules=rule_sets)
def test_play_order_on_the_thresholds_twin(data, order, dealer, rules):
    tuned = data.draw(tuned_strategy(order, dealer))
    strategy = data.draw(st.one_of(st.just(tuned), st.lists(st.sampled_from([tuned, "default", "random"]),
                                                             min_size=4, max_size=4)))
    kernel = kh.play_order(order, dealer, rules, strategy, 7)
    reference = pp.play_order(order, dealer, rules, strategy, 7)
    assert kernel == reference, _first_difference(kernel, reference)


def _coverage(rec: dict, seats: list[dict], seen: Counter) -> None:
    rnd = {s for s in range(4) if pp.is_random(seats[s])}
    if rec["bidder"] is None:
        seen["thrown in"] += 1
        return
    kind = "random" if rec["bidder"] in rnd else "default"
    seen[f"{kind} {'forced' if rec['forced'] else rec['bid']}"] += 1
    calls = rec["calls"]
    for k in range(1, len(calls)):
        s, c = calls[k]
        if c != "pass" and s not in rnd:
            prev = [x for x in calls[:k] if x[1] != "pass"]
            if prev and prev[-1][0] == (s + 2) % 4:
                seen["raised a partner"] += 1
            if any(x[0] == s for x in calls[:k]):
                seen["bid again"] += 1
    seen["widow " + ("exchange" if rec["discard"] else "dead")] += 1
    bidder, trump = rec["bidder"], "CSDH".index(rec["trump"])
    taken = rec["tricks"][str(bidder)] + rec["tricks"][str((bidder + 2) % 4)]
    seen["made" if taken >= hp.bid_tricks(rec["bid"], rec["rules"]) else "set"] += 1
    plays = rec["plays"]
    for t in range(6):
        trick = plays[4 * t: 4 * t + 4]
        cards = _c(c for _, c in trick)
        if trick[0][0] == (bidder + 2) % 4 and trick[0][0] not in rnd and hp.is_trump(cards[0], trump):
            seen["partner leads trump"] += 1
        if str(cards[0]) == "JK":
            seen["joker led"] += 1
        for i in range(1, 4):
            seat = trick[i][0]
            if seat in rnd:
                continue
            w = trick[hp.trick_winner(cards[:i], trump)][0]
            if w == (seat + 2) % 4:
                seen["partner winning"] += 1


NEVER = {"cushion": 99.0}  # never bids: all pass, then the forced 3 or a throw-in
MIXES = ["default", "random", "aggressive", "cautious", "creeping", NEVER, ["random", NEVER, NEVER, NEVER],
         ["random", "default", "default", "default"], ["default", "aggressive", "random", "creeping"],
         {"cushion": -0.75, "support_margin": 0.0, "big_pepper_min": 6.25, "bid_jump": 0.0},
         {"cushion": 2.5, "lead_trump_min": 1.0}, {"cushion": -1.5, "big_pepper_min": 7.5, "support_margin": 2.0},
         {"cushion": -3.0, "big_pepper_min": 5.0, "partner_help": 0.5}]


@needs_kernel
def test_play_order_every_rule_combination_twin():
    rng = random.Random(1)
    seen = Counter()
    for i, rules in enumerate(ALL_RULES):
        for j in range(5):
            strategy = MIXES[(5 * i + j) % len(MIXES)]
            order = list(range(25))
            rng.shuffle(order)
            dealer = rng.randrange(4)
            kernel = kh.play_order(order, dealer, rules, strategy, 100 * i + j)
            reference = pp.play_order(order, dealer, rules, strategy, 100 * i + j)
            assert kernel == reference, _first_difference(kernel, reference)
            _coverage(reference, pp.seat_strategies(strategy), seen)
    wanted = ["thrown in", "raised a partner", "bid again", "widow exchange", "widow dead", "made", "set",
              "partner leads trump", "joker led", "partner winning"]
    wanted += [f"{k} {c}" for k in ("default", "random") for c in ("1", "3", "4", "5", "6",
                                                                   "little-pepper", "big-pepper")]
    wanted += ["default forced"]  # a random joker holder forced to 3: the next test
    assert all(seen[k] for k in wanted), {k: seen[k] for k in wanted}


@needs_kernel
@pytest.mark.parametrize("rules", [{}, {"widow": "dead", "bidding": "pepper", "first_lead": "bidder"}])
def test_random_joker_holder_forced_to_bid_three_twin(rules):
    # seat 0 (random) holds the joker and the others never bid: when seat 0 passes, it is forced to 3
    # and then takes the widow, names trump and plays at random
    rng = random.Random(3)
    forced = 0
    for seed in range(60):
        order = list(range(24))
        rng.shuffle(order)
        dealer = rng.randrange(4)
        k = (-dealer - 1) % 4  # the packets of seat 0 are order[3k..3k+2] and order[12+3k..12+3k+2]
        order.insert(3 * k, 24)  # the joker is seat 0's first card
        order.append(order.pop(3 * k + 3))  # one card goes to the widow, all 25 there
        assert hp.joker_holder(hp.deal_cards(order, dealer)) == 0
        strategy = ["random", NEVER, NEVER, NEVER]
        kernel = kh.play_order(order, dealer, rules, strategy, seed)
        reference = pp.play_order(order, dealer, rules, strategy, seed)
        assert kernel == reference, _first_difference(kernel, reference)
        forced += reference["forced"]
    assert forced >= 3, forced


@needs_kernel
@settings(max_examples=40, **SETTINGS)
@given(seed=seeds, chunk=st.integers(0, 1000), offset=st.integers(0, 30), count=st.integers(1, 30),
       rules=rule_sets, strategy=st.one_of(deterministic_strategy,
                                           st.lists(deterministic_strategy, min_size=4, max_size=4)))
def test_hand_records_twin(seed, chunk, offset, count, rules, strategy):
    start = chunk * CHUNK + offset
    kernel = runner.hand_records(seed, start, count, rules, strategy, variant="hasenpfeffer")
    _compare_hands(kernel, pp.hand_records(seed, start, count, rules, strategy))


@needs_kernel
@settings(max_examples=25, **SETTINGS)
@given(seed=seeds, chunk=st.integers(0, 1000), offset=st.integers(0, 20), count=st.integers(1, 20),
       rules=rule_sets, strategy=seat_strategies)
def test_random_hand_records_twin(seed, chunk, offset, count, rules, strategy):
    # random seats draw from the chunk's decision stream from the chunk's first hand on
    start = chunk * CHUNK + offset
    kernel = runner.hand_records(seed, start, count, rules, strategy, variant="hasenpfeffer")
    _compare_hands(kernel, pp.hand_records(seed, start, count, rules, strategy))


@needs_kernel
@pytest.mark.parametrize("seed, start, count, rules, strategy", [
    (11, CHUNK - 7, 14, {}, "default"),
    (2**40 + 3, CHUNK - 2, 5, {"bidding": "pepper", "pass_is_final": True}, "aggressive"),
    (5, CHUNK - 3, 6, {"widow": "dead", "all_pass": "redeal"}, "random"),
    (6, 2 * CHUNK - 4, 8, {"first_lead": "bidder"}, ["cautious", "default", "aggressive", "creeping"]),
])
def test_hand_records_across_a_chunk_boundary_twin(seed, start, count, rules, strategy):
    # the deal stream (and the held half of its 32-bit draws) and the decision stream restart at hand 4096
    kernel = runner.hand_records(seed, start, count, rules, strategy, variant="hasenpfeffer")
    _compare_hands(kernel, pp.hand_records(seed, start, count, rules, strategy))


@needs_kernel
def test_decisions_never_move_the_deals():
    # random seats draw from their own stream: the same seed deals the same cards whoever plays
    start, count = CHUNK - 30, 60
    deals = [(r["deal"], r["widow"]) for r in runner.hand_records(13, start, count, variant="hasenpfeffer")]
    for strategy in ("random", ["default", "random", "creeping", "random"]):
        recs = runner.hand_records(13, start, count, None, strategy, variant="hasenpfeffer")
        assert [(r["deal"], r["widow"]) for r in recs] == deals


GAME_POOL = ["default", "aggressive", "cautious", "creeping", "random",
             {"cushion": 0.25, "support_margin": 0.0}, {"big_pepper_min": 6.5, "cushion": -0.5}]
SIDE_SWAPS = [[0, 1, 0, 1], [1, 0, 1, 0]]


@st.composite
def games_setup(draw):
    n = draw(st.integers(1, 3))
    strategies = tuple(draw(st.lists(st.one_of(st.sampled_from(GAME_POOL), perturbed), min_size=n, max_size=n)))
    patterns = [st.lists(st.tuples(*[st.integers(0, n - 1)] * 4).map(list), min_size=1, max_size=3)]
    if n >= 2:
        patterns.append(st.just(SIDE_SWAPS))
    assignments = draw(st.one_of(*patterns))
    return strategies, assignments


@needs_kernel
@settings(max_examples=15, **SETTINGS)
@given(seed=seeds, start=st.one_of(st.integers(0, 4), st.integers(61, 63), st.integers(0, 2000)),
       count=st.integers(1, 3), rules=rule_sets, setup=games_setup(), duplicate=st.booleans())
def test_game_results_twin(seed, start, count, rules, setup, duplicate):
    strategies, assignments = setup
    kernel = runner.game_results(seed, start, count, rules, strategies, assignments, duplicate,
                                 variant="hasenpfeffer")
    reference = pp.game_results(seed, start, count, rules, strategies, assignments, duplicate)
    assert len(kernel) == len(reference)
    for k, r in zip(kernel, reference):
        assert k == r, f"kernel {k}\nreference {r}"


@needs_kernel
@pytest.mark.parametrize("duplicate", [True, False])
@pytest.mark.parametrize("rules", [{}, {"bidding": "pepper", "defenders_score_tricks": True,
                                        "fail_penalty": "undertricks", "first_lead": "bidder"}])
def test_game_results_across_a_chunk_boundary_twin(duplicate, rules):
    # sets 62..65 straddle chunks 0 and 1 of the game-seed stream; each strategy on each side
    strategies = ("default", "aggressive")
    args = (12345, 62, 4, rules, strategies, SIDE_SWAPS, duplicate)
    kernel = runner.game_results(*args, variant="hasenpfeffer")
    reference = pp.game_results(*args)
    assert kernel == reference
    assert all(g["winner"] is not None for g in reference)


@needs_kernel
def test_game_results_with_random_players_twin():
    args = (99, 0, 2, {"all_pass": "redeal"}, ("default", "random"), SIDE_SWAPS + [[0, 0, 1, 1]], False)
    assert runner.game_results(*args, variant="hasenpfeffer") == pp.game_results(*args)


@needs_kernel
def test_unfinished_games_twin():
    # Nobody ever bids and all passing is a redeal: every hand is thrown in, 1000 hands, no winner.
    never = {"cushion": 99.0}
    args = (8, 0, 2, {"all_pass": "redeal"}, (never,), [[0, 0, 0, 0]])
    kernel = runner.game_results(*args, variant="hasenpfeffer")
    assert kernel == pp.game_results(*args)
    assert all(g["winner"] is None and g["hands"] == pp.MAX_HANDS and g["scores"] == [0, 0] for g in kernel)
