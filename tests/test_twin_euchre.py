"""Standard Euchre: the kernels against the plain-Python twin ``tests/reference/euchre_play.py``.

The contract is ``kernels/euchre/SPEC.md``; the twin is written from it alone.
First the twin by itself: its parameters are SPEC.md's table and presets, its
decisions flip exactly at each threshold (round one with the up-card's
weight, the dealer's best discard, round two, the stuck dealer, going alone
and defending alone), its leads and follows are SPEC.md's rules, its random
player draws from the decision stream in SPEC.md's order, and its records
replay through the rules reference ``tests/reference/euchre.py``. Then exact
comparisons of whole record dicts with the kernel side, skipped until it
exists: ``bower.sim.variants.euchre.play_order`` on random deck orders, every
dealer and rule combination, strategies (presets, per-seat mixes, perturbed
parameters, thresholds nudged onto the exact estimates of the hands dealt,
random players), ``bower.sim.runner.hand_records`` over chunks (hands 4095 and
4096 included) and ``bower.sim.runner.game_results`` with duplicate and
independent seeding. The twin always gets the kernel side's own resolved
parameters (``bower.sim.strategy.resolve_strategy(spec, variant="euchre")``).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.reference import euchre as eu
from tests.reference import euchre_play as ep
from tests.reference.rng import Xoshiro256ss, decision_chunk_rng

try:  # the kernel side is written alongside this file (an empty package directory is not it)
    from bower.sim import runner
    from bower.sim.strategy import resolve_strategy
    from bower.sim.variants import euchre as ke

    if not hasattr(ke, "play_order"):
        raise ImportError("sim.variants.euchre has no play_order yet")
except ImportError:  # pragma: no cover
    ke = runner = resolve_strategy = None

needs_kernel = pytest.mark.skipif(ke is None, reason="sim/variants/euchre.py does not exist yet")

SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}
CHUNK = ep.CHUNK_HANDS
HALF = 0.5
BELOW_HALF = float(np.nextafter(0.5, 0.0))
VARIANT = "euchre"

# ---------------------------------------------------------------- generators

RULE_OPTIONS = {o.name: list(o.values) for o in eu.EUCHRE.options}
# every combination of the options that change the play; the points options, which change only the points, and
# four_trick_tokens, a rule of whole games that single hands do not see, take their values in turn, each value in
# several combinations (their whole product with the others is thousands of rule sets, minutes of the twin's play
# for nothing the turns do not test)
# (the kitty exchanges farmers and go_under likewise: each value in a quarter of the combinations or more)
POINTS_OPTIONS = ("loner_march_score", "loner_euchred_score", "fast_break", "four_trick_tokens")
TURN_OPTIONS = POINTS_OPTIONS + ("farmers", "go_under")
_PLAY_OPTIONS = {n: v for n, v in RULE_OPTIONS.items() if n not in TURN_OPTIONS}
ALL_RULES = [dict(zip(_PLAY_OPTIONS, values), **{n: RULE_OPTIONS[n][(i + 3 * k + i // 2) % len(RULE_OPTIONS[n])]
                                                for k, n in enumerate(TURN_OPTIONS)})
             for i, values in enumerate(itertools.product(*_PLAY_OPTIONS.values()))]
rule_sets = st.fixed_dictionaries({name: st.sampled_from(values) for name, values in RULE_OPTIONS.items()})
seeds = st.one_of(st.integers(0, 2**16), st.integers(0, 2**63 - 1))
orders = st.permutations(range(24))
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
        st.just(ep.EUCHRE_DEFAULTS[name]),
        st.integers(0, 6).map(lambda k: k / 4),  # exact binary fractions: sums tie thresholds exactly
        st.integers(0, 30).map(lambda k: k / 20),  # rounded to 2**-12 on loading
        st.floats(0.0, 1.5, allow_nan=False),
    )


def _threshold(name: str, lo: float, hi: float, step: float = 1 / 16):
    return st.one_of(
        _nudged(ep.EUCHRE_DEFAULTS[name]),
        st.integers(int(lo / step), int(hi / step)).map(lambda k: k * step).flatmap(_nudged),
        st.floats(lo, hi, allow_nan=False),
    )


PARAM_STRATEGIES = {
    **{n: _weight(n) for n in ep.EUCHRE_DEFAULTS if n.startswith("w_")},
    # up_weight is a share, not a weight: any float (the product with w_up is then rounded, the same on both sides)
    "up_weight": st.one_of(st.just(1.0), st.integers(0, 8).map(lambda k: k / 4), st.floats(0.0, 2.0)),
    **{n: _threshold(n, 0.0, 5.0) for n in ep.AUCTION_THRESHOLDS},
    "alone_min": _threshold("alone_min", 1.0, 6.0),
    "defend_alone_min": _threshold("defend_alone_min", 1.0, 6.0),
    "lead_trump_min": st.sampled_from([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 1.5, 2.5, down(2.0), up(3.0)]),
    "lead_next": st.sampled_from([0.0, 1.0, HALF, BELOW_HALF]),
}
perturbed = st.fixed_dictionaries({}, optional=PARAM_STRATEGIES)
random_player = st.one_of(
    st.just("random"),
    st.fixed_dictionaries({"random": st.sampled_from([1.0, HALF])}, optional=PARAM_STRATEGIES),
)
not_random = st.fixed_dictionaries({"random": st.sampled_from([0.0, BELOW_HALF])}, optional=PARAM_STRATEGIES)
PRESET_NAMES = sorted(ep.EUCHRE_PRESETS)
one_strategy = st.one_of(st.sampled_from(PRESET_NAMES), perturbed, random_player, not_random)
deterministic_strategy = st.one_of(st.sampled_from(sorted(set(PRESET_NAMES) - {"random"})), perturbed, not_random)
seat_strategies = st.one_of(one_strategy, st.lists(one_strategy, min_size=4, max_size=4))

TUNABLE = (*ep.AUCTION_THRESHOLDS, "alone_min", "defend_alone_min", "lead_trump_min")


@st.composite
def tuned_strategy(draw, order, dealer):
    """A strategy whose thresholds sit on (or one ulp either side of) the values of the hands dealt.

    So every ``>=`` is tested on its edge: ``order_min_p`` at position p's
    ``E(hand, u) -/+ up_weight * w_up``, ``take_min`` at the dealer's best
    discard value, ``name_min_p`` at position p's best other suit, the alone
    thresholds at some seat's estimate (with the up-card picked up when it
    is the dealer's) for some suit, ``lead_trump_min`` at a whole number.
    """
    base = draw(st.fixed_dictionaries({}, optional={n: PARAM_STRATEGIES[n] for n in PARAM_STRATEGIES
                                                    if n.startswith("w_") or n in ("up_weight", "lead_next")}))
    params = ep.resolve_params(base)
    d = eu.deal_cards(order, dealer)
    upc = d.up_card
    hand = {p: list(d.hands[eu.seat_of_position(dealer, p)]) for p in (1, 2, 3, 4)}
    picked = eu.take_up(hand[4], upc, ep.best_discard(hand[4] + [upc], upc, upc.suit, params)[0])[0]
    values = {}
    for p in (1, 2, 3, 4):
        values[ep.ROUND_ONE_THRESHOLD[p]] = ep.round_one_value(p, hand[p], upc, params)
        values[f"name_min_{p}"] = ep.best_other_suit(hand[p], upc.suit, params)[1]
    for name in ("alone_min", "defend_alone_min"):
        cards = draw(st.sampled_from([hand[1], hand[2], hand[3], hand[4], picked]))
        values[name] = ep.estimate(cards, draw(st.integers(0, 3)), params)
    tuned = {}
    for name in draw(st.sets(st.sampled_from(TUNABLE), min_size=1)):
        if name == "lead_trump_min":
            tuned[name] = draw(_nudged(float(draw(st.integers(1, 4)))))
        else:
            tuned[name] = draw(_nudged(values[name]))
    return {**base, **tuned}


def _kernel_params(spec):
    """The twin's parameters for a strategy spec: the kernel side's own resolution, seat by seat."""
    if isinstance(spec, (list, tuple)):
        return [resolve_strategy(s, variant=VARIANT) for s in spec]
    return resolve_strategy(spec, variant=VARIANT)


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
    return [eu.card_from_str(c) for c in names.split()] if isinstance(names, str) else [
        eu.card_from_str(c) for c in names]


# ---------------------------------------------------------------- the twin alone: parameters

P = ep.resolve_params("default")


def test_parameters_are_the_spec_table():
    assert ep.EUCHRE_PARAM_NAMES == (
        "w_trump_nine", "w_trump_ten", "w_trump_queen", "w_trump_king", "w_trump_ace", "w_left", "w_right",
        "w_off_ace", "w_off_king", "w_void", "up_weight", "order_min_1", "order_min_2", "order_min_3", "take_min",
        "name_min_1", "name_min_2", "name_min_3", "name_min_4", "alone_min", "defend_alone_min",
        "lead_trump_min", "lead_next", "random", "pimc_worlds", "pimc_sees_all", "pimc_bid",
        "pimc_infer", "pimc_tau", "pimc_eps", "bid_equity")
    assert [P[n] for n in ep.EUCHRE_PARAM_NAMES] == [
        0.25, 0.25, 0.375, 0.5, 0.625, 0.75, 1.0, 0.5, 0.125, 0.25, 0.75, 2.5, 2.25, 2.5, 1.75,
        1.5, 1.5, 1.5, 1.25, 2.75, 2.75, 2.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.25, 0.01, 0.0]
    assert all(P[n] / 2**-12 == int(P[n] / 2**-12) for n in P if n.startswith("w_"))
    assert PRESET_NAMES == ["aggressive", "cautious", "default", "never-alone", "random"]
    for name, delta in (("cautious", 0.5), ("aggressive", -0.5)):
        q = ep.resolve_params(name)
        assert {n for n in q if q[n] != P[n]} == set(ep.AUCTION_THRESHOLDS)
        assert all(q[n] == P[n] + delta for n in ep.AUCTION_THRESHOLDS)
    assert {n: v for n, v in ep.resolve_params("never-alone").items() if v != P[n]} == {
        "alone_min": 99.0, "defend_alone_min": 99.0}
    assert {n: v for n, v in ep.resolve_params("random").items() if v != P[n]} == {"random": 1.0}


def test_resolve_params_rounds_weights_only():
    q = ep.resolve_params({"w_left": 0.3, "up_weight": 0.3, "order_min_1": 0.3})
    assert q["w_left"] == round(0.3 * 4096) / 4096 != 0.3
    assert q["up_weight"] == 0.3 and q["order_min_1"] == 0.3
    assert ep.resolve_params(q) == q  # a resolved dict goes through unchanged
    assert ep.seat_strategies(["default", "random", q, "cautious"])[2] == q
    with pytest.raises(ValueError, match="unknown Euchre strategy parameter"):
        ep.resolve_params({"bid_3": 1.0})
    with pytest.raises(ValueError, match="unknown Euchre strategy"):
        ep.resolve_params("creeping")
    with pytest.raises(ValueError, match="finite"):
        ep.resolve_params({"take_min": float("nan")})
    with pytest.raises(ValueError, match="one strategy per seat"):
        ep.seat_strategies(["default"] * 3)


# ---------------------------------------------------------------- the twin alone: the auction

UP = eu.card_from_str("9H")  # hearts; its weight as trump is w_trump_nine = 0.25


def test_round_one_on_its_thresholds():
    hand = _c("JH JD AH KS 9C")  # hearts: 1 + 0.75 + 0.625 + K 0.125 + the diamond void 0.25 = 2.75
    assert ep.estimate(hand, 3, P) == 2.75 and ep.card_weight(UP, 3, P) == 0.25
    assert [ep.round_one_value(p, hand, UP, P) for p in (1, 2, 3)] == [2.5625, 2.9375, 2.5625]  # up_weight 0.75
    for p, name in ((1, "order_min_1"), (2, "order_min_2"), (3, "order_min_3")):
        v = ep.round_one_value(p, hand, UP, P)
        assert ep.orders_up(p, hand, UP, {**P, name: v})
        assert not ep.orders_up(p, hand, UP, {**P, name: up(v)})
    # up_weight scales the up-card's weight; the product is taken first, in floats, as SPEC.md writes it
    q = {**P, "up_weight": 0.1}
    assert ep.round_one_value(1, hand, UP, q) == 2.75 - 0.1 * 0.25
    assert ep.round_one_value(2, hand, UP, q) == 2.75 + 0.1 * 0.25
    assert ep.round_one_value(1, hand, UP, {**P, "up_weight": 0.0}) == 2.75
    # the dealer: its estimate after its best discard of the six cards
    assert ep.best_discard(hand + [UP], UP, 3, P) == (eu.card_from_str("9C"), 3.25)  # voids in C and D
    assert ep.round_one_value(4, hand, UP, P) == 3.25
    assert ep.orders_up(4, hand, UP, {**P, "take_min": 3.25})
    assert not ep.orders_up(4, hand, UP, {**P, "take_min": up(3.25)})


def test_best_discard_ties_to_the_lowest_card_and_never_the_up_card():
    six = _c("JH AH 9C 9S TD 9H")  # removing 9C, 9S or TD each leaves one void: 2.125 all three
    assert ep.best_discard(six, UP, 3, P) == (eu.card_from_str("9C"), 2.125)
    zero = {n: (0.0 if n.startswith("w_") else v) for n, v in P.items()}
    # with no weights every discard ties: the lowest index of the five, the up-card (9C here) excluded
    assert ep.best_discard(_c("9C TC JC QC KC AC"), "9C", 0, zero)[0] == eu.card_from_str("TC")


def test_round_two_and_the_stuck_dealer():
    hand = _c("JS AS KS 9C TD")  # spades 1 + 0.625 + 0.5 + the heart void 0.25 = 2.375; clubs 1.875
    assert ep.best_other_suit(hand, 3, P) == (1, 2.375)
    assert ep.estimate(hand, 0, P) == 1.875 and ep.estimate(hand, 2, P) == 0.875
    for p in (1, 2, 3, 4):
        name = f"name_min_{p}"
        assert ep.round_two_choice(p, hand, 3, False, {**P, name: 2.375}) == 1
        assert ep.round_two_choice(p, hand, 3, False, {**P, name: up(2.375)}) is None
    assert ep.round_two_choice(4, hand, 3, True, {**P, "name_min_4": 99.0}) == 1  # stuck: always names
    assert ep.best_other_suit(hand, 1, P) == (0, 1.875)  # the up-card's suit is never named
    zero = {n: (0.0 if n.startswith("w_") else v) for n, v in P.items()}
    assert ep.best_other_suit(hand, 0, zero) == (1, 0.0) and ep.best_other_suit(hand, 1, zero) == (0, 0.0)


def _before_calls(rec: dict) -> dict[int, list]:
    """Each seat's 5 cards at the first call: as dealt, after an exchange with the kitty (farmers, go_under)."""
    hands = {s: _c(rec["deal"][str(s)]) for s in range(4)}
    ex = rec.get("exchange")
    if ex and ex["seat"] >= 0:
        gave = set(ex["gave"])
        hands[ex["seat"]] = eu.by_index([c for c in hands[ex["seat"]] if str(c) not in gave] + _c(ex["took"]))
    return hands


def _hands_in_play(rec: dict) -> dict[int, list]:
    """Each seat's cards after an exchange with the kitty (farmers, go_under), the dealer's pick-up and a lone
    maker's exchange (``partners_best``; from the record)."""
    hands = _before_calls(rec)
    if rec["discard"] is not None:
        d = rec["dealer"]
        six = hands[d] + [eu.card_from_str(rec["upcard"])]  # the up-card itself may be the discard (discard_up)
        hands[d] = [c for c in six if str(c) != rec["discard"]]
    if rec.get("passed"):
        ex = {"passed": rec["passed"], "discard": rec["loner_discard"]}
        m, p = rec["maker"], (rec["maker"] + 2) % 4
        six = hands[m] + [eu.card_from_str(ex["passed"])]
        hands[p] = [c for c in hands[p] if str(c) != ex["passed"]]
        hands[m] = [c for c in six if str(c) != ex["discard"]]
    return hands


def test_going_alone_on_its_thresholds():
    rules = {"allow_lone_defender": True}
    flipped = Counter()
    for h, order in enumerate(ep.orders(21, 0, 60)):
        dealer = h % 4
        rec = ep.play_order(order, dealer, rules, "never-alone")
        if rec["maker"] is None:
            continue
        maker, trump = rec["maker"], "CSDH".index(rec["trump"])
        hands = _hands_in_play(rec)
        e = ep.estimate(hands[maker], trump, P)
        q = {**ep.EUCHRE_PRESETS["never-alone"], "alone_min": e}
        assert maker in ep.play_order(order, dealer, rules, q)["alone"]
        assert maker not in ep.play_order(order, dealer, rules, {**q, "alone_min": up(e)})["alone"]
        first, second = eu.defenders_in_turn(dealer, maker)
        e1 = ep.estimate(hands[first], trump, P)
        q = {**ep.EUCHRE_PRESETS["never-alone"], "defend_alone_min": e1}
        assert ep.play_order(order, dealer, rules, q)["alone"] == [first]  # the second is not asked then
        assert ep.play_order(order, dealer, {}, q)["alone"] == []  # nobody defends alone without the option
        e2 = ep.estimate(hands[second], trump, P)
        if e2 > e1:  # the first says no, the second yes
            q = {**ep.EUCHRE_PRESETS["never-alone"], "defend_alone_min": e2}
            assert ep.play_order(order, dealer, rules, q)["alone"] == [second]
            flipped["second"] += 1
        flipped["hands"] += 1
    assert flipped["hands"] >= 15 and flipped["second"] >= 3, flipped


# ---------------------------------------------------------------- the twin alone: the play


def _lead(seat, hand, played="", maker=0, round_=1, up_suit=0, trump=3, **changes):
    return str(ep.choose_lead(seat, _c(hand), _c(played), trump, maker, round_, up_suit, {**P, **changes}))


def test_leads():
    # trump hearts: JH right, JD left
    # 1. the maker with >= lead_trump_min trumps leads its strongest
    assert _lead(0, "JD 9H AC KS 9D") == "JD"
    assert _lead(0, "JD JH 9H AC 9D") == "JH"
    assert _lead(0, "JD 9H AC KS 9D", lead_trump_min=3.0) == "AC"  # else its sure winner of least value
    assert _lead(0, "JD 9H AC KS 9D", lead_trump_min=up(2.0)) == "AC"
    assert _lead(0, "AC KS 9D 9S TC", lead_trump_min=0.0) == "AC"  # no trump: rule 1 needs one
    # 2. "next": a defender's first lead of a round-two hand, up-card clubs -> spades, trump not spades
    assert _lead(1, "9S KS AD 9H TC", round_=2, up_suit=0) == "KS"
    assert _lead(1, "9S KS AD 9H TC", round_=2, up_suit=0, lead_next=BELOW_HALF) == "AD"  # off: rule 3
    assert _lead(1, "9S KS AD 9H TC", round_=2, up_suit=0, lead_next=HALF) == "KS"
    assert _lead(1, "9S KS AD 9H TC", round_=1, up_suit=0) == "AD"  # round one: no "next"
    assert _lead(1, "9S KS AD 9H TC", played="AH KH QH TH", round_=2, up_suit=0) == "AD"  # not the first lead
    assert _lead(2, "9S KS AD 9H TC", round_=2, up_suit=0) == "AD"  # the maker's partner is no defender
    assert _lead(1, "9S KS AD 9H TC", round_=2, up_suit=2) == "AD"  # up diamonds: "next" is trump hearts
    assert _lead(3, "AD 9H TC 9D QD", round_=2, up_suit=1) == "TC"  # up spades: next clubs, TC its only club
    # 3. the sure winner of least value: unseen is the deck less the hand less the cards played
    assert _lead(1, "KC 9S TS 9D TD") == "9S"  # AC unseen (the kitty, another hand): KC is no sure winner
    assert _lead(1, "KC 9S TS 9D TD", played="AC 9C TC JC") == "KC"
    assert _lead(1, "AS AC 9D TD QD") == "AC"  # both aces sure: the lower suit
    # 4. the maker's partner with a trump and no sure winner leads its weakest trump; 5. else least value
    assert _lead(2, "9H TH 9C 9S TD") == "9H"
    assert _lead(2, "JD TH 9C 9S TD") == "TH"  # 9 T Q K A before the left bower
    assert _lead(1, "9H TH 9C 9S TD") == "9C"  # a defender: least value, ties to the lowest index
    assert _lead(2, "KC 9S TS 9D TD") == "9S"


def test_follows():
    def follow(seat, hand, trick, trick_seats, trump=3):
        return str(ep.choose_follow(seat, _c(hand), _c(trick), trick_seats, trump))

    # the partner (seat 0) is winning: the legal card of least value
    assert follow(2, "9C AC TH", "KC QC", [0, 1]) == "9C"
    # an opponent is winning: the cheapest legal card that beats it
    assert follow(2, "9C AC TH", "QC KC", [0, 1]) == "AC"
    assert follow(2, "9C TC TH", "QC KC", [0, 1]) == "9C"  # cannot beat it: least value
    # void: the weakest trump that beats the winning card (TH does not beat KH)
    assert follow(1, "9D TH AH JH", "AS KH", [3, 0]) == "AH"
    assert follow(1, "9D TH AH JH", "AS KS", [3, 0]) == "9D"  # the partner (seat 3) is winning
    # a led left bower calls for trump; a partner who sits out is never winning
    assert follow(3, "9D TH AC", "JD", [0]) == "TH"
    assert follow(2, "9D QH AC", "9H TH", [1, 3]) == "QH"


# ---------------------------------------------------------------- the twin alone: draws and replays


class LoggedStream:
    """A decision stream that logs every ``bounded(n)`` draw as (n, value)."""

    def __init__(self, seed: int):
        self.rng = decision_chunk_rng(seed, 0)
        self.log: list[tuple[int, int]] = []

    def bounded(self, n: int) -> int:
        v = self.rng.bounded(n)
        self.log.append((n, v))
        return v


def _defender_answers(rec: dict, rules: dict) -> list[bool]:
    """The answers of the defenders asked in turn, from the record's ``alone``."""
    if not rules["allow_lone_defender"]:
        return []
    first, second = eu.defenders_in_turn(rec["dealer"], rec["maker"])
    if first in rec["alone"]:
        return [True]
    return [False, second in rec["alone"]]


def _replay_draws(rec: dict, rules: dict, seats: list[dict], log: list[tuple[int, int]]) -> None:
    """Walk through a record with the logged draws: each random decision must be SPEC.md's draw, in order."""
    draws = iter(log)
    rnd = {s for s in range(4) if ep.is_random(seats[s])}

    def draw(seat: int, n: int) -> int | None:
        if seat not in rnd:
            return None
        got_n, v = next(draws)
        assert got_n == n, (seat, got_n, n)
        return v

    upc = eu.card_from_str(rec["upcard"])
    ex = rec.get("exchange")
    if rules["farmers"] or rules["go_under"]:  # each eligible seat in turn: whether (2), then each card given
        for p in range(1, 5):
            seat = eu.seat_of_position(rec["dealer"], p)
            options = eu.exchange_options(rec["deal"][str(seat)], rules)
            if not options:
                continue
            v = draw(seat, 2)
            assert v is None or (v == 1) == (ex["seat"] == seat)
            if ex["seat"] == seat:
                left = list(options)
                for _ in range(3):  # the k-th lowest of the cards it may still give
                    v = draw(seat, len(left))
                    assert v is None or str(left[v]) in ex["gave"]
                    if v is not None:
                        left.pop(v)
                break
    made = []
    for seat, call in rec["calls"]:
        allowed = eu.legal_calls(made, rec["dealer"], upc, rules)
        n = len(allowed)
        assert n == (2 if len(made) < 4 else 3 if eu.PASS not in allowed else 4)
        v = draw(seat, n)
        assert v is None or allowed[v] == call
        made.append(call)
    if rec["maker"] is None:
        assert next(draws, None) is None
        return
    dealer, maker = rec["dealer"], rec["maker"]
    if rec["discard"] is not None:  # the random dealer: the k-th lowest of its five dealt cards, k = bounded(5)
        five = _before_calls(rec)[dealer]
        if rules["discard_up"]:  # or of its six (the up-card too), k = bounded(6)
            six = eu.by_index(five + [upc])
            v = draw(dealer, 6)
            assert v is None or str(six[v]) == rec["discard"]
        else:
            v = draw(dealer, 5)
            assert v is None or str(five[v]) == rec["discard"]
    if eu.canadian_loner(dealer, maker, 1 if rec["discard"] is not None else 2, rules):
        assert maker in rec["alone"]  # forced: no draw
    else:
        v = draw(maker, 2)
        assert v is None or (v == 1) == (maker in rec["alone"])
    for d, answer in zip(eu.defenders_in_turn(dealer, maker), _defender_answers(rec, rules)):
        v = draw(d, 2)
        assert v is None or (v == 1) == answer
    assert (rec.get("passed") is not None) == (rules["partners_best"] and maker in rec["alone"])
    if rec.get("passed"):  # the partner's card: the k-th lowest of its five, bounded(5); the discard of six, bounded(6)
        ex = {"passed": rec["passed"], "discard": rec["loner_discard"]}
        held = _hands_in_play(dict(rec, passed=None))
        partner = (maker + 2) % 4
        v = draw(partner, 5)
        assert v is None or str(eu.by_index(held[partner])[v]) == ex["passed"]
        v = draw(maker, 6)
        assert v is None or str(eu.by_index(held[maker] + [eu.card_from_str(ex["passed"])])[v]) == ex["discard"]
    hands = _hands_in_play(rec)
    trump = "CSDH".index(rec["trump"])
    active = eu.active_seats(maker, maker in rec["alone"], next((s for s in rec["alone"] if s != maker), None))
    lead = None
    for i, (seat, name) in enumerate(rec["plays"]):
        lead = eu.card_from_str(name) if i % len(active) == 0 else lead
        legal = eu.legal_cards(hands[seat], None if i % len(active) == 0 else lead, trump)
        v = draw(seat, len(legal))  # always a draw, one legal card included
        assert v is None or str(legal[v]) == name
        hands[seat] = [c for c in hands[seat] if str(c) != name]
    assert next(draws, None) is None, "draws left over"


def _replay_through_rules(order, rec: dict, rules: dict) -> None:
    """The record's decisions, fed to the rules reference ``eu.play_hand``, give the record's play and score."""
    calls = [c for _, c in rec["calls"]]
    if rec["maker"] is None:
        ex = rec.get("exchange")
        out = eu.play_hand(order, rec["dealer"], calls, rules=rules,
                           exchange=(ex["seat"], ex["gave"]) if ex and ex["seat"] >= 0 else None)
        assert out["auction"].thrown_in and not rules["stick_the_dealer"]
        assert rec["plays"] == [] and rec["trump"] is None and rec["discard"] is None and rec["alone"] == []
        assert set(rec["points"].values()) == {0} and set(rec["tricks"].values()) == {0}
        return
    maker = rec["maker"]
    hands = _hands_in_play(rec)
    trump = "CSDH".index(rec["trump"])
    n = 4 - (len(rec["alone"]))
    choices = []
    lead = None
    for i, (seat, name) in enumerate(rec["plays"]):
        card = eu.card_from_str(name)
        lead = card if i % n == 0 else lead
        legal = eu.legal_cards(hands[seat], None if i % n == 0 else lead, trump)
        choices.append(legal.index(card))
        hands[seat].remove(card)
    ex = rec.get("exchange")
    out = eu.play_hand(order, rec["dealer"], calls, discard=rec["discard"], maker_alone=maker in rec["alone"],
                       defenders=_defender_answers(rec, rules), choices=choices, rules=rules,
                       exchange=(ex["seat"], ex["gave"]) if ex and ex["seat"] >= 0 else None,
                       passed=rec.get("passed"), loner_discard=rec.get("loner_discard"))
    assert out["maker"] == maker and "CSDH"[out["trump"]] == rec["trump"] and out["alone"] == rec["alone"]
    assert [[s, str(c)] for s, c in out["plays"]] == rec["plays"]
    assert {str(s): t for s, t in enumerate(out["tricks"])} == rec["tricks"]
    assert {str(s): p for s, p in enumerate(out["points"])} == rec["points"]


@settings(max_examples=150, **SETTINGS)
@given(order=orders, dealer=dealers, rules=rule_sets, strategy=seat_strategies, seed=seeds)
def test_reference_draws_in_spec_order_and_replays_through_the_rules(order, dealer, rules, strategy, seed):
    seats = ep.seat_strategies(strategy)
    rules = eu.resolve_rules(rules)
    stream = LoggedStream(seed)
    rec = ep.play_hand(order, dealer, rules, seats, stream if any(ep.is_random(p) for p in seats) else None)
    _replay_draws(rec, rules, seats, stream.log)
    _replay_through_rules(order, rec, rules)
    assert ep.play_order(order, dealer, rules, strategy, seed) == rec  # chunk 0's decision stream of seed
    assert ep.play_order([str(eu.DECK[c]) for c in order], dealer, rules, strategy, seed) == rec


def test_reference_shuffle_is_fisher_yates_of_24():
    for seed in range(20):
        a, b = Xoshiro256ss([seed + 1, 2, 3, 4]), Xoshiro256ss([seed + 1, 2, 3, 4])
        order = ep.shuffled_order(a)
        deck = list(range(24))
        for i in range(23, 0, -1):
            j = b.bounded(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        assert [c.index for c in order] == deck and a.s == b.s and a.held == b.held


def test_reference_orders_and_decisions_follow_the_chunks():
    # Hands read from the middle of a chunk are the chunk's own (checkpoints do not move the stream) ...
    full = ep.orders(3, 0, 600)
    assert ep.orders(3, 257, 300) == full[257:557]
    recs = ep.hand_records(3, 590, 10)
    assert [(r["deal"], r["kitty"], r["dealer"]) for r in recs] == [
        ({str(s): [str(c) for c in h] for s, h in enumerate(d.hands)}, [str(c) for c in d.kitty], k % 4)
        for d, k in ((eu.deal_cards(o, k % 4), k) for k, o in zip(range(590, 600), full[590:600]))]
    # ... and random players draw from the chunk's decision stream from its first hand on
    mix = ["random", "default", "random", "aggressive"]
    assert ep.hand_records(3, 20, 5, None, mix) == ep.hand_records(3, 0, 25, None, mix)[20:]
    across = ep.hand_records(3, CHUNK - 2, 4, None, "cautious")  # a new deal stream at hand 4096
    assert across[2:] == ep.hand_records(3, CHUNK, 2, None, "cautious")
    assert [r["hand"] for r in across] == [CHUNK - 2, CHUNK - 1, CHUNK, CHUNK + 1]
    assert ep.orders(3, CHUNK, 1)[0] == ep.shuffled_order(ep.chunk_rng(3, 1))


# ---------------------------------------------------------------- kernels against the twin


@needs_kernel
def test_resolve_strategy_is_the_spec_table():
    for name in PRESET_NAMES:
        assert resolve_strategy(name, variant=VARIANT) == ep.resolve_params(name), name


@needs_kernel
@settings(max_examples=60, **SETTINGS)
@given(strategy=perturbed)
def test_resolve_strategy_rounds_as_the_spec_says(strategy):
    # weights to multiples of 2**-12; everything else as given (a reading: up_weight is no weight)
    assert resolve_strategy(strategy, variant=VARIANT) == ep.resolve_params(strategy)


@needs_kernel
@settings(max_examples=150, **SETTINGS)
@given(order=orders, dealer=dealers, rules=rule_sets, strategy=seat_strategies, seed=seeds,
       as_strings=st.booleans())
def test_play_order_twin(order, dealer, rules, strategy, seed, as_strings):
    given_order = [str(eu.DECK[c]) for c in order] if as_strings else order
    kernel = ke.play_order(given_order, dealer, rules, strategy, seed)
    reference = ep.play_order(order, dealer, rules, _kernel_params(strategy), seed)
    assert kernel == reference, _first_difference(kernel, reference)


@needs_kernel
@settings(max_examples=150, **SETTINGS)
@given(data=st.data(), order=orders, dealer=dealers, rules=rule_sets)
def test_play_order_on_the_thresholds_twin(data, order, dealer, rules):
    tuned = data.draw(tuned_strategy(order, dealer))
    strategy = data.draw(st.one_of(st.just(tuned), st.lists(st.sampled_from([tuned, "default", "random"]),
                                                             min_size=4, max_size=4)))
    kernel = ke.play_order(order, dealer, rules, strategy, 7)
    reference = ep.play_order(order, dealer, rules, _kernel_params(strategy), 7)
    assert kernel == reference, _first_difference(kernel, reference)


def _coverage(rec: dict, seats: list[dict], seen: Counter) -> None:
    rnd = {s for s in range(4) if ep.is_random(seats[s])}
    if rec["maker"] is None:
        seen["thrown in"] += 1
        return
    dealer, maker = rec["dealer"], rec["maker"]
    kind = "random" if maker in rnd else "default"
    position = eu.position_of_seat(dealer, maker)
    seen[f"{kind} {'order' if rec['discard'] else 'named'} by position {position}"] += 1
    if len(rec["calls"]) == 8 and rec["rules"]["stick_the_dealer"]:
        seen[f"{kind} stuck dealer"] += 1
    if rec["discard"]:
        seen[f"{'random' if dealer in rnd else 'default'} discard"] += 1
    seen[f"{len(rec['alone'])} alone"] += 1
    if any(s != maker for s in rec["alone"]):
        seen["lone defender"] += 1
    upc = eu.card_from_str(rec["upcard"])
    lead_seat, lead = rec["plays"][0]
    if (rec["discard"] is None and lead_seat not in rnd and lead_seat % 2 != maker % 2
            and eu.card_from_str(lead).suit == upc.suit ^ 1 != "CSDH".index(rec["trump"])):
        seen["next led"] += 1
    side = maker % 2
    taken = rec["tricks"][str(side)] + rec["tricks"][str(side + 2)]
    seen["euchred" if taken < 3 else "march" if taken == 5 else "made"] += 1


NEVER = {n: 99.0 for n in ep.AUCTION_THRESHOLDS}
LONE = {"alone_min": 2.0, "defend_alone_min": 1.5, "order_min_1": 2.0, "order_min_3": 2.0}
MIXES = ["default", "random", "aggressive", "cautious", "never-alone", NEVER, LONE,
         ["random", NEVER, NEVER, NEVER], [NEVER, NEVER, NEVER, "random"], ["random", "default", LONE, "random"],
         ["default", "aggressive", "random", "cautious"], {"up_weight": 0.0, "lead_next": 0.0, "lead_trump_min": 1.0},
         {"up_weight": 1.75, "order_min_2": 1.5, "take_min": 2.0, "name_min_4": 1.0},
         {"w_void": 0.5, "w_off_ace": 0.75, "alone_min": 3.0, "defend_alone_min": 2.5},
         {"order_min_1": 1.25, "order_min_3": 1.5, "up_weight": 0.5, "name_min_1": 1.5}]


@needs_kernel
def test_play_order_every_rule_combination_twin():
    rng = random.Random(1)
    seen = Counter()
    for i, rules in enumerate(ALL_RULES):
        for j in range(40):
            strategy = MIXES[(7 * i + j) % len(MIXES)]
            order = list(range(24))
            rng.shuffle(order)
            dealer = rng.randrange(4)
            kernel = ke.play_order(order, dealer, rules, strategy, 100 * i + j)
            params = _kernel_params(strategy)
            reference = ep.play_order(order, dealer, rules, params, 100 * i + j)
            assert kernel == reference, _first_difference(kernel, reference)
            _coverage(reference, ep.seat_strategies(params), seen)
    wanted = ["thrown in", "default stuck dealer", "random stuck dealer", "default discard", "random discard",
              "0 alone", "1 alone", "2 alone", "lone defender", "next led", "euchred", "march", "made"]
    wanted += [f"{k} order by position {p}" for k in ("default", "random") for p in (1, 2, 3, 4)]
    wanted += [f"default named by position {p}" for p in (1, 2, 3, 4)]
    assert all(seen[k] for k in wanted), {k: seen[k] for k in wanted}


@needs_kernel
@settings(max_examples=25, **SETTINGS)
@given(seed=seeds, chunk=st.integers(0, 1000), offset=st.integers(0, 30), count=st.integers(1, 30),
       rules=rule_sets, strategy=st.one_of(deterministic_strategy,
                                           st.lists(deterministic_strategy, min_size=4, max_size=4)))
def test_hand_records_twin(seed, chunk, offset, count, rules, strategy):
    start = chunk * CHUNK + offset
    kernel = runner.hand_records(seed, start, count, rules, strategy, variant=VARIANT)
    _compare_hands(kernel, ep.hand_records(seed, start, count, rules, _kernel_params(strategy)))


@needs_kernel
@settings(max_examples=15, **SETTINGS)
@given(seed=seeds, chunk=st.integers(0, 1000), offset=st.integers(0, 20), count=st.integers(1, 20),
       rules=rule_sets, strategy=seat_strategies)
def test_random_hand_records_twin(seed, chunk, offset, count, rules, strategy):
    # random seats draw from the chunk's decision stream from the chunk's first hand on
    start = chunk * CHUNK + offset
    kernel = runner.hand_records(seed, start, count, rules, strategy, variant=VARIANT)
    _compare_hands(kernel, ep.hand_records(seed, start, count, rules, _kernel_params(strategy)))


@needs_kernel
@pytest.mark.parametrize("seed, start, count, rules, strategy", [
    (11, CHUNK - 1, 2, {}, "default"),  # hands 4095 and 4096
    (2**40 + 3, CHUNK - 3, 6, {"stick_the_dealer": True, "allow_lone_defender": True}, "aggressive"),
    (5, CHUNK - 2, 4, {"allow_lone_defender": True}, "random"),
    (6, 2 * CHUNK - 4, 8, {"stick_the_dealer": True}, ["cautious", "aggressive", "never-alone", LONE]),
])
def test_hand_records_across_a_chunk_boundary_twin(seed, start, count, rules, strategy):
    # the deal stream (and the held half of its 32-bit draws) and the decision stream restart at hand 4096
    kernel = runner.hand_records(seed, start, count, rules, strategy, variant=VARIANT)
    _compare_hands(kernel, ep.hand_records(seed, start, count, rules, _kernel_params(strategy)))


@needs_kernel
def test_decisions_never_move_the_deals():
    # random seats draw from their own stream: the same seed deals the same cards whoever plays
    start, count = CHUNK - 30, 60
    deals = [(r["deal"], r["kitty"]) for r in runner.hand_records(13, start, count, variant=VARIANT)]
    for strategy in ("random", ["default", "random", LONE, "random"]):
        recs = runner.hand_records(13, start, count, None, strategy, variant=VARIANT)
        assert [(r["deal"], r["kitty"]) for r in recs] == deals


GAME_POOL = ["default", "aggressive", "cautious", "never-alone", "random", LONE,
             {"up_weight": 0.5, "order_min_2": 2.25}, {"lead_next": 0.0, "alone_min": 3.5}]
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


def _twin_games(seed, start, count, rules, strategies, assignments, duplicate=True):
    return ep.game_results(seed, start, count, rules, [_kernel_params(s) for s in strategies], assignments,
                           duplicate)


@needs_kernel
@settings(max_examples=20, **SETTINGS)
@given(seed=seeds, start=st.one_of(st.integers(0, 4), st.integers(61, 63), st.integers(0, 2000)),
       count=st.integers(1, 3), rules=rule_sets, setup=games_setup(), duplicate=st.booleans())
def test_game_results_twin(seed, start, count, rules, setup, duplicate):
    strategies, assignments = setup
    kernel = runner.game_results(seed, start, count, rules, strategies, assignments, duplicate, variant=VARIANT)
    reference = _twin_games(seed, start, count, rules, strategies, assignments, duplicate)
    assert len(kernel) == len(reference)
    for k, r in zip(kernel, reference):
        assert k == r, f"kernel {k}\nreference {r}"


@needs_kernel
@pytest.mark.parametrize("duplicate", [True, False])
@pytest.mark.parametrize("rules", [{}, {"stick_the_dealer": True, "allow_lone_defender": True}])
def test_game_results_across_a_chunk_boundary_twin(duplicate, rules):
    # sets 62..65 straddle chunks 0 and 1 of the game-seed stream; each strategy on each side
    strategies = ("default", "aggressive")
    args = (12345, 62, 4, rules, strategies, SIDE_SWAPS, duplicate)
    kernel = runner.game_results(*args, variant=VARIANT)
    reference = _twin_games(*args)
    assert kernel == reference
    assert all(g["winner"] is not None for g in reference)


@needs_kernel
def test_game_results_with_random_players_twin():
    args = (99, 0, 2, {"allow_lone_defender": True}, ("default", "random", LONE), SIDE_SWAPS + [[0, 2, 1, 2]],
            False)
    assert runner.game_results(*args, variant=VARIANT) == _twin_games(*args)


@needs_kernel
def test_unfinished_games_twin():
    # Nobody ever orders or names and the dealer is not stuck: every hand is thrown in, 1000 hands, no winner.
    args = (8, 0, 2, {"stick_the_dealer": False}, (NEVER,), [[0, 0, 0, 0]])
    kernel = runner.game_results(*args, variant=VARIANT)
    assert kernel == _twin_games(*args)
    assert all(g["winner"] is None and g["hands"] == ep.MAX_HANDS and g["scores"] == [0, 0] for g in kernel)


@needs_kernel
def test_game_results_without_assignments_seat_strategy_0_everywhere_and_refuse_a_short_row():
    # the default row has a seat for each of Euchre's four (it once had three, and the kernel read past it)
    res = runner.game_results(5, 0, 3, variant=VARIANT)
    assert [r["assignment"] for r in res] == [[0, 0, 0, 0]] * 3
    assert res == runner.game_results(5, 0, 3, assignments=((0, 0, 0, 0),), variant=VARIANT)
    for bad in (((0, 0, 0),), ((0, 1, 0, 1),), ((0, -1, 0, 0),), ()):
        with pytest.raises(runner.RunError, match="rows of 4 strategy indexes"):
            runner.game_results(5, 0, 3, assignments=bad, variant=VARIANT)
