"""Cutthroat: the kernels against the plain-Python twin ``tests/reference/cutthroat_play.py``.

The contract is ``notes/cutthroat_spec.md``. First the twin alone (its merge
is the best of all 252 keep-sets, its random player consumes the decision
stream in the spec's order, its records replay through the rules reference
``tests/reference/cutthroat.py``), then exact comparisons with the kernel
side: whole record dicts from ``bower.sim.cutthroat.play_order`` on random deck
orders, every rule combination, strategies (presets, per-seat mixes,
perturbed parameters, thresholds nudged onto the exact estimates of the
hands dealt, random players), ``bower.sim.cutthroat.best_keep`` against the brute
force, ``bower.sim.runner.hand_records`` over chunks (a chunk boundary included)
and ``bower.sim.runner.game_results`` with duplicate and independent seeding.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.reference import cutthroat as ct
from tests.reference import cutthroat_play as cp
from tests.reference.ghost import card_from_str, cards_from_mask, legal_cards
from tests.reference.rng import Xoshiro256ss, decision_chunk_rng

try:  # the kernel side is written alongside this file
    from bower.sim.variants.cutthroat import hands as kc
    from bower.sim import runner
except ImportError:  # pragma: no cover
    kc = runner = None
from bower.sim.variants import get_variant

CUTTHROAT = get_variant("cutthroat")
CUTTHROAT_DEFAULTS = get_variant("cutthroat").defaults
# the presets the twin plays (it has no PIMC card play: pimc_worlds >= 1)
CUTTHROAT_PRESETS = {n: p for n, p in get_variant("cutthroat").presets.items() if p["pimc_worlds"] < 1}

needs_kernel = pytest.mark.skipif(kc is None, reason="sim/cutthroat.py does not exist yet")

SETTINGS = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large]}
CHUNK = cp.CHUNK_HANDS
HALF = 0.5
BELOW_HALF = float(np.nextafter(0.5, 0.0))

# ---------------------------------------------------------------- generators

RULE_OPTIONS = {o.name: list(o.values) for o in CUTTHROAT.options}
ALL_RULES = [dict(zip(RULE_OPTIONS, values)) for values in itertools.product(*RULE_OPTIONS.values())]
rule_sets = st.fixed_dictionaries({name: st.sampled_from(values) for name, values in RULE_OPTIONS.items()})
seeds = st.one_of(st.integers(0, 2**16), st.integers(0, 2**63 - 1))
orders = st.permutations(range(24))
THRESHOLDS = ("order_min", "assist_min", "take_min", "name_min", "alone_min", "defend_alone_min")


def _nudged(x: float):
    """``x`` and the floats just either side of it (the edges of a ``>=`` threshold)."""
    return st.sampled_from([x, float(np.nextafter(x, np.inf)), float(np.nextafter(x, -np.inf))])


def _weight(name: str):
    return st.one_of(
        st.just(CUTTHROAT_DEFAULTS[name]),
        st.integers(0, 6).map(lambda k: k / 4),  # exact binary fractions: sums tie thresholds exactly
        st.integers(0, 30).map(lambda k: k / 20),  # rounded to 2**-12 by sim.strategy
        st.floats(0.0, 1.5, allow_nan=False),
    )


def _threshold(name: str, hi: float):
    return st.one_of(
        _nudged(CUTTHROAT_DEFAULTS[name]),
        st.integers(0, int(hi * 16)).map(lambda k: k / 16).flatmap(_nudged),  # estimates are k/16 by default
        st.floats(-0.5, hi, allow_nan=False),
    )


PARAM_STRATEGIES = {
    **{n: _weight(n) for n in CUTTHROAT_DEFAULTS if n.startswith("w_")},
    "order_min": _threshold("order_min", 5.0),
    "assist_min": _threshold("assist_min", 5.0),
    "take_min": _threshold("take_min", 5.0),
    "name_min": _threshold("name_min", 5.0),
    "alone_min": _threshold("alone_min", 6.0),
    "defend_alone_min": _threshold("defend_alone_min", 6.0),
    "lead_trump_min": st.sampled_from([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 1.5, 2.5]),
}
perturbed = st.fixed_dictionaries({}, optional=PARAM_STRATEGIES)
random_player = st.one_of(
    st.just("random"),
    st.fixed_dictionaries({"random": st.sampled_from([1.0, HALF])}, optional=PARAM_STRATEGIES),
)
not_random = st.fixed_dictionaries({"random": st.sampled_from([0.0, BELOW_HALF])}, optional=PARAM_STRATEGIES)
one_strategy = st.one_of(st.sampled_from(sorted(CUTTHROAT_PRESETS)), perturbed, random_player, not_random)
deterministic_strategy = st.one_of(st.sampled_from(sorted(set(CUTTHROAT_PRESETS) - {"random"})), perturbed, not_random)
seat_strategies = st.one_of(one_strategy, st.lists(one_strategy, min_size=3, max_size=3))


@st.composite
def tuned_strategy(draw, order, dealer):
    """A strategy whose thresholds sit on (or one ulp either side of) the estimates of the hands dealt.

    So every ``>=`` of the auction and of going alone is tested on its edge:
    ``order_min`` at position 1's estimate for the up-card's suit,
    ``assist_min`` at position 2's, ``take_min`` at the dealer's best 5 of 6,
    ``name_min`` at someone's best allowed suit, the alone thresholds at some
    seat's estimate for some suit.
    """
    base = draw(st.fixed_dictionaries({}, optional={n: PARAM_STRATEGIES[n] for n in PARAM_STRATEGIES
                                                    if n.startswith("w_") or n == "lead_trump_min"}))
    params = cp.resolve_params(base)
    d = ct.deal_cards(order, dealer)
    up = d.up_card
    hand = {p: list(d.hands[ct.seat_of_position(dealer, p)]) for p in (1, 2, 3)}
    values = {
        "order_min": cp.estimate(hand[1], up.suit, params),
        "assist_min": cp.estimate(hand[2], up.suit, params),
        "take_min": cp.best_discard(hand[3], up, params)[1],
        "name_min": max(cp.estimate(hand[draw(st.sampled_from([1, 2, 3]))], s, params) for s in range(4)
                        if s != up.suit),
        "alone_min": cp.estimate(hand[draw(st.sampled_from([1, 2, 3]))], draw(st.integers(0, 3)), params),
        "defend_alone_min": cp.estimate(hand[draw(st.sampled_from([1, 2, 3]))], draw(st.integers(0, 3)), params),
    }
    tuned = {}
    for name in draw(st.sets(st.sampled_from(THRESHOLDS), min_size=1)):
        tuned[name] = draw(_nudged(values[name]))
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


def _cards(names) -> list[ct.Card]:
    return [card_from_str(c) for c in names]


def _hands_in_play(rec: dict) -> dict[int, list[ct.Card]]:
    """Each seat's 5 cards after the dealer's exchange and the maker's merge (from the record)."""
    hands = {s: _cards(rec["deal"][str(s)]) for s in range(3)}
    dealer, up = rec["dealer"], card_from_str(rec["upcard"])
    if rec["discards"]["dealer"] is not None:
        hands[dealer] = [c for c in hands[dealer] if str(c) != rec["discards"]["dealer"]] + [up]
    if rec["discards"]["maker"]:
        maker = rec["maker"]
        ten = hands[maker] + _cards(rec["dummy"])
        hands[maker] = [c for c in ten if str(c) not in rec["discards"]["maker"]]
    return hands


def _replay_draws(rec: dict, rules: dict, seats: list[dict], log: list[tuple[int, int]]) -> None:
    """Walk through a record with the logged draws: each random decision must be the spec's draw, in order."""
    draws = iter(log)
    rnd = {s for s in range(3) if cp.is_random(seats[s])}

    def draw(seat: int, n: int) -> int | None:
        if seat not in rnd:
            return None
        got_n, v = next(draws)
        assert got_n == n, (seat, got_n, n)
        return v

    up = card_from_str(rec["upcard"])
    for k, (seat, call) in enumerate(rec["calls"]):
        if k < 3:  # round one: bounded(2), 1 = accept
            v = draw(seat, 2)
            assert v is None or (v == 1) == (call != "pass")
        else:
            stuck = rules["stick_the_dealer"] and k == 5
            options = ([] if stuck else ["pass"]) + ["CSDH"[s] for s in cp.allowed_suits(up, rules)]
            v = draw(seat, len(options))
            assert v is None or options[v] == call
    if rec["maker"] is None:
        assert next(draws, None) is None
        return
    maker, trump = rec["maker"], "CSDH".index(rec["trump"])
    if len(rec["calls"]) <= 3:  # the dealer's exchange: [keep (optional only)] + 5 cards ascending
        options = ([None] if rules["dealer_pickup"] == "optional" else []) + rec["deal"][str(rec["dealer"])]
        v = draw(rec["dealer"], len(options))
        assert v is None or options[v] == rec["discards"]["dealer"]
    if rules["maker_alone"] == "allowed":
        v = draw(maker, 2)
        assert v is None or (v == 1) == (maker in rec["alone"])
    for defender in ((maker + 1) % 3, (maker + 2) % 3):
        v = draw(defender, 2)
        assert v is None or (v == 1) == (defender in rec["alone"])
        if defender in rec["alone"]:
            break
    hands = _hands_in_play(rec)
    if maker not in rec["alone"]:  # the merge: 5 picks among the cards not yet kept, ascending
        left = sorted(_cards(rec["deal"][str(maker)]) + _cards(rec["dummy"]), key=lambda c: c.index)
        if rec["dealer"] == maker and rec["discards"]["dealer"]:
            left = sorted([c for c in left if str(c) != rec["discards"]["dealer"]] + [up], key=lambda c: c.index)
        kept = []
        for i in range(5):
            v = draw(maker, 10 - i)
            if v is not None:
                kept.append(left.pop(v))
        if maker in rnd:
            assert sorted(kept, key=lambda c: c.index) == sorted(hands[maker], key=lambda c: c.index)
    lead = None
    for i, (seat, name) in enumerate(rec["plays"]):
        n_active = 2 if any(s != maker for s in rec["alone"]) else 3
        lead = card_from_str(name) if i % n_active == 0 else lead
        legal = legal_cards(hands[seat], None if i % n_active == 0 else lead, trump)
        v = draw(seat, len(legal))
        assert v is None or str(legal[v]) == name
        hands[seat] = [c for c in hands[seat] if str(c) != name]
    assert next(draws, None) is None, "draws left over"


def _replay_through_rules(order, rec: dict, rules: dict) -> None:
    """The record's decisions, fed to the rules reference ``ct.play_hand``, give the record's play and score."""
    dealer = rec["dealer"]
    calls = [c for _, c in rec["calls"]]
    if rec["maker"] is None:
        out = ct.play_hand(order, dealer, calls, rules=rules)
        assert out["auction"].thrown_in
        assert rec["plays"] == [] and set(rec["points"].values()) == {0} and set(rec["tricks"].values()) == {0}
        return
    maker = rec["maker"]
    maker_alone = maker in rec["alone"]
    lone = [s for s in rec["alone"] if s != maker]
    hands = _hands_in_play(rec)
    keep = None if maker_alone else hands[maker]
    # each play as its index among the legal cards (ascending), which is what ct.play_hand takes
    held = {s: list(h) for s, h in hands.items()}
    trump = "CSDH".index(rec["trump"])
    n_active = 2 if lone else 3
    choices = []
    lead = None
    for i, (seat, name) in enumerate(rec["plays"]):
        card = card_from_str(name)
        lead = card if i % n_active == 0 else lead
        legal = legal_cards(held[seat], None if i % n_active == 0 else lead, trump)
        assert card in legal, (seat, name, legal)
        choices.append(legal.index(card))
        held[seat].remove(card)
    out = ct.play_hand(order, dealer, calls, discard=rec["discards"]["dealer"], maker_alone=maker_alone,
                       lone_defender=lone[0] if lone else None, keep=keep, choices=choices, rules=rules)
    assert [[s, str(c)] for s, c in out["plays"]] == rec["plays"]
    assert {str(s): t for s, t in enumerate(out["tricks"])} == rec["tricks"]
    assert {str(s): p for s, p in enumerate(out["points"])} == rec["points"]
    assert [str(c) for c in out["maker_discards"]] == rec["discards"]["maker"]


@settings(max_examples=150, **SETTINGS)
@given(order=orders, dealer=st.integers(0, 2), rules=rule_sets, strategy=seat_strategies, seed=seeds)
def test_reference_draws_in_spec_order_and_replays_through_the_rules(order, dealer, rules, strategy, seed):
    seats = cp.seat_strategies(strategy)
    rules = ct.resolve_rules(rules)
    stream = LoggedStream(seed)
    rec = cp.play_hand(order, dealer, rules, seats, stream if any(cp.is_random(p) for p in seats) else None)
    _replay_draws(rec, rules, seats, stream.log)
    _replay_through_rules(order, rec, rules)
    if any(cp.is_random(p) for p in seats):  # play_order: the same draws from chunk 0's decision stream
        assert cp.play_order(order, dealer, rules, strategy, seed) == rec


@settings(max_examples=150, **SETTINGS)
@given(ten=st.sets(st.integers(0, 23), min_size=10, max_size=10), trump=st.integers(0, 3), strategy=perturbed)
def test_reference_merge_beats_every_other_keep_set(ten, trump, strategy):
    params = cp.resolve_params(strategy)
    cards = cards_from_mask(sum(1 << c for c in ten))
    keep = cp.best_keep(cards, trump, strategy)
    assert len(keep) == 5 and set(keep) <= ten and keep == sorted(keep)
    key = (cp.estimate(cards_from_mask(sum(1 << c for c in keep)), trump, params), sum(1 << c for c in keep))
    # every 5-card subset, enumerated as masks of the ten, is no better (and only the kept one ties)
    tens = sorted(ten)
    for bits in range(1 << 10):
        if bits.bit_count() != 5:
            continue
        mask = sum(1 << tens[i] for i in range(10) if bits >> i & 1)
        other = (cp.estimate(cards_from_mask(mask), trump, params), mask)
        assert other <= key
        assert other < key or mask == key[1]


def test_reference_decisions_on_their_thresholds():
    # Estimates with the default weights (multiples of 1/16): each >= flips exactly at its threshold.
    p = cp.resolve_params("default")
    hand = _cards(["JH", "JD", "AH", "9C", "KS"])  # hearts: right 1 + left 0.9375 + ace 0.875 + K 0.1875
    up = card_from_str("9H")
    est = cp.estimate(hand, 3, p)
    # three trumps, the off-suit king; diamonds is void (its jack is the left bower, a trump)
    assert est == 1 + 0.9375 + 0.875 + 0.1875 + 0.375
    for position, name in ((1, "order_min"), (2, "assist_min")):
        assert cp.round_one_accepts(position, hand, up, {**p, name: est})
        assert not cp.round_one_accepts(position, hand, up, {**p, name: float(np.nextafter(est, 9))})
    # the dealer's best 5 of 6 drops 9C: four trumps and clubs void too
    d, best6 = cp.best_discard(hand, up, p)
    assert str(d) == "9C" and best6 == 1 + 0.9375 + 0.875 + 0.4375 + 0.1875 + 2 * 0.375
    assert cp.round_one_accepts(3, hand, up, {**p, "take_min": best6})
    assert not cp.round_one_accepts(3, hand, up, {**p, "take_min": float(np.nextafter(best6, 9))})
    # ties in the discard go to the lowest card: two worthless cards
    hand2 = _cards(["9C", "TC", "JH", "AH", "QC"])  # any club may go: 9C
    assert str(cp.best_discard(hand2, card_from_str("KH"), p)[0]) == "9C"
    # optional pickup exchanges only on a strict improvement; a worthless up-card changes nothing then
    flat = {**p, "w_trump_nine": 0.0}
    assert cp.dealer_discard(hand2, card_from_str("9H"), ct.resolve_rules({}), flat) is None
    assert str(cp.dealer_discard(hand2, card_from_str("9H"), ct.resolve_rules({"dealer_pickup": "mandatory"}),
                                 flat)) == "9C"
    # round two: best allowed suit, ties to the lowest suit; a stuck dealer always names
    blank = _cards(["9C", "9S", "9D", "9H", "TC"])
    zero = {**p, "w_trump_nine": 0.0, "w_trump_ten": 0.0, "w_void": 0.0}
    assert cp.round_two_call(blank, [0, 1, 3], False, {**zero, "name_min": 0.0}) == 0
    assert cp.round_two_call(blank, [1, 2, 3], True, {**zero, "name_min": 9.0}) == 1
    assert cp.round_two_call(blank, [1, 2, 3], False, {**zero, "name_min": 9.0}) is None


def test_reference_defender_does_not_overtake_partner():
    p = cp.resolve_params("default")
    trump = 3  # hearts
    hand = _cards(["9C", "AC", "TH"])
    # seat 0, the maker, led QC; seat 1 (defender) winning with KC: seat 2 plays 9C, not AC
    trick = _cards(["QC", "KC"])
    assert str(cp.choose_card(2, hand, trick, [0, 1], [], trump, 0, p)) == "9C"
    # the maker (seat 1) winning: the defender overtakes with the cheapest winner
    assert str(cp.choose_card(2, hand, trick, [0, 1], [], trump, 1, p)) == "AC"
    # void in the suit led with partner winning: no trump, the least valued card
    hand = _cards(["9D", "TH"])
    assert str(cp.choose_card(2, hand, _cards(["QS", "AS"]), [0, 1], [], trump, 0, p)) == "9D"
    assert str(cp.choose_card(2, hand, _cards(["AS", "QS"]), [0, 1], [], trump, 0, p)) == "TH"
    # the maker never holds back for a "partner"
    assert str(cp.choose_card(0, _cards(["9C", "AC"]), _cards(["QC", "KC"]), [1, 2], [], trump, 0, p)) == "AC"


def test_reference_shuffle_is_ghosts():
    from tests.reference.ghost import deal_from

    for seed in range(20):
        a, b = Xoshiro256ss([seed + 1, 2, 3, 4]), Xoshiro256ss([seed + 1, 2, 3, 4])
        order = cp.shuffled_order(a)
        packets = [sorted((order[k] for k in range(24) if k % 4 == p), key=lambda c: c.index) for p in range(4)]
        assert packets == deal_from(b) and a.s == b.s and a.held == b.held


def test_reference_orders_continue_a_chunk():
    # Hands read from the middle of a chunk are the chunk's own (checkpoints do not move the stream).
    full = cp.orders(3, 0, 600)
    assert cp.orders(3, 257, 300) == full[257:557]
    assert [r["deal"] for r in cp.hand_records(3, 590, 10)] == [
        {str(s): [str(c) for c in h] for s, h in enumerate(ct.deal_cards(o, k % 3).hands)}
        for k, o in zip(range(590, 600), full[590:600])]


def test_reference_games():
    games = cp.game_details(4, 0, 6, {"stick_the_dealer": True}, ("default", "random"), [[0, 1, 0], [1, 1, 1]],
                            True, keep_records=True)
    for g in games:
        assert g["winner"] is not None
        scores = [0, 0, 0]
        for n, rec in enumerate(g["records"]):
            assert rec["dealer"] == (cp.FIRST_DEALER + n) % 3 and rec["hand"] == n
            assert rec["scores_before"] == scores
            scores = [scores[s] + rec["points"][str(s)] for s in range(3)]
            assert n == len(g["records"]) - 1 or ct.game_winner(scores) is None
        assert scores == g["scores"] and ct.game_winner(scores) == g["winner"] and max(scores) >= 10
    # duplicate: both assignments of a set see the same deals
    for a, b in zip(games[::2], games[1::2]):
        n = min(a["hands"], b["hands"])
        assert [r["deal"] for r in a["records"][:n]] == [r["deal"] for r in b["records"][:n]]


# ---------------------------------------------------------------- kernels against the twin


@needs_kernel
@settings(max_examples=400, **SETTINGS)
@given(order=orders, dealer=st.integers(0, 2), rules=rule_sets, strategy=seat_strategies, seed=seeds,
       as_strings=st.booleans())
def test_play_order_twin(order, dealer, rules, strategy, seed, as_strings):
    given_order = [str(ct.DECK[c]) for c in order] if as_strings else order
    kernel = kc.play_order(given_order, dealer, rules, strategy, seed)
    reference = cp.play_order(order, dealer, rules, strategy, seed)
    assert kernel == reference, _first_difference(kernel, reference)


@needs_kernel
@settings(max_examples=400, **SETTINGS)
@given(data=st.data(), order=orders, dealer=st.integers(0, 2), rules=rule_sets)
def test_play_order_on_the_thresholds_twin(data, order, dealer, rules):
    tuned = data.draw(tuned_strategy(order, dealer))
    strategy = data.draw(st.one_of(st.just(tuned), st.lists(st.sampled_from([tuned, "default", "random"]),
                                                             min_size=3, max_size=3)))
    kernel = kc.play_order(order, dealer, rules, strategy, 7)
    reference = cp.play_order(order, dealer, rules, strategy, 7)
    assert kernel == reference, _first_difference(kernel, reference)


def _coverage(rec: dict, seats: list[dict], seen: Counter) -> None:
    rnd = {s for s in range(3) if cp.is_random(seats[s])}
    kind = "random" if rec["maker"] in rnd else "default"
    seen[f"{kind} {rec['calls'][-1][1]}"] += 1
    if rec["maker"] is None:
        seen["thrown in"] += 1
        return
    if rec["rules"]["stick_the_dealer"] and len(rec["calls"]) == 6:
        seen["stuck dealer"] += 1
    if len(rec["calls"]) <= 3:
        seen["exchange" if rec["discards"]["dealer"] else "dealer keeps"] += 1
    maker_alone = rec["maker"] in rec["alone"]
    lone = [s for s in rec["alone"] if s != rec["maker"]]
    seen[f"alone maker={maker_alone} defender={bool(lone)}"] += 1
    seen["maker made"] += rec["tricks"][str(rec["maker"])] >= 3
    seen["march"] += rec["tricks"][str(rec["maker"])] == 5
    # a deterministic defender who followed low while the other defender was winning
    plays = rec["plays"]
    n = 2 if lone else 3
    trump = "CSDH".index(rec["trump"])
    for t in range(5):
        trick = plays[n * t: n * t + n]
        if len(trick) == 3 and trick[2][0] != rec["maker"] and trick[2][0] not in rnd:
            cards = _cards(c for _, c in trick[:2])
            w = trick[ct.trick_winner(cards, trump)][0]
            if w not in (rec["maker"], trick[2][0]):
                seen["partner winning"] += 1


MIXES = ["default", "random", ["random", "default", "default"], ["default", "aggressive", "random"],
         "never-alone", {"alone_min": 3.0, "defend_alone_min": 3.0, "order_min": 2.5, "assist_min": 2.5,
                         "take_min": 2.75, "name_min": 2.0},
         ["random", {"order_min": 4.0, "assist_min": 4.0, "take_min": 4.5, "name_min": 3.5}, "cautious"],
         {"order_min": 4.0, "assist_min": 4.0, "take_min": 4.5, "name_min": 3.5}]


@needs_kernel
def test_play_order_every_rule_combination_twin():
    rng = random.Random(1)
    seen = Counter()
    for i, rules in enumerate(ALL_RULES):
        for j, strategy in enumerate(MIXES):
            seats = cp.seat_strategies(strategy)
            for _ in range(6):
                order = list(range(24))
                rng.shuffle(order)
                dealer = rng.randrange(3)
                kernel = kc.play_order(order, dealer, rules, strategy, 100 * i + j)
                reference = cp.play_order(order, dealer, rules, strategy, 100 * i + j)
                assert kernel == reference, _first_difference(kernel, reference)
                _coverage(reference, seats, seen)
    wanted = ["thrown in", "stuck dealer", "exchange", "dealer keeps", "maker made", "march", "partner winning"]
    wanted += [f"alone maker={m} defender={d}" for m in (False, True) for d in (False, True)]
    wanted += [f"{k} {c}" for k in ("default", "random") for c in ("order", "assist", "take", "C", "S", "D", "H")]
    assert all(seen[k] for k in wanted), {k: seen[k] for k in wanted}


@needs_kernel
@settings(max_examples=300, **SETTINGS)
@given(ten=st.sets(st.integers(0, 23), min_size=10, max_size=10), trump=st.integers(0, 3),
       strategy=st.one_of(st.just("default"), perturbed), as_strings=st.booleans())
def test_best_keep_twin(ten, trump, strategy, as_strings):
    cards = sorted(ten)
    given_cards = [str(ct.DECK[c]) for c in cards] if as_strings else cards
    got = [int(c) for c in kc.best_keep(given_cards, trump, strategy)]
    assert sorted(got) == cp.best_keep(cards, trump, strategy)


@needs_kernel
@settings(max_examples=40, **SETTINGS)
@given(seed=seeds, chunk=st.integers(0, 1000), offset=st.integers(0, 30), count=st.integers(1, 30),
       rules=rule_sets, strategy=st.one_of(deterministic_strategy,
                                           st.lists(deterministic_strategy, min_size=3, max_size=3)))
def test_hand_records_twin(seed, chunk, offset, count, rules, strategy):
    start = chunk * CHUNK + offset
    kernel = runner.hand_records(seed, start, count, rules, strategy, variant="cutthroat")
    _compare_hands(kernel, cp.hand_records(seed, start, count, rules, strategy))


@needs_kernel
@settings(max_examples=25, **SETTINGS)
@given(seed=seeds, chunk=st.integers(0, 1000), offset=st.integers(0, 20), count=st.integers(1, 20),
       rules=rule_sets, strategy=seat_strategies)
def test_random_hand_records_twin(seed, chunk, offset, count, rules, strategy):
    # random seats draw from the chunk's decision stream from the chunk's first hand on
    start = chunk * CHUNK + offset
    kernel = runner.hand_records(seed, start, count, rules, strategy, variant="cutthroat")
    _compare_hands(kernel, cp.hand_records(seed, start, count, rules, strategy))


@needs_kernel
@pytest.mark.parametrize("seed, start, count, rules, strategy", [
    (11, CHUNK - 7, 14, {}, "default"),
    (2**40 + 3, CHUNK - 2, 5, {"stick_the_dealer": True, "allow_turned_down_suit": True}, "aggressive"),
    (5, CHUNK - 3, 6, {"dealer_pickup": "mandatory"}, ["random", "default", "random"]),
])
def test_hand_records_across_a_chunk_boundary_twin(seed, start, count, rules, strategy):
    # the deal stream (and the held half of its 32-bit draws) and the decision stream restart at hand 4096
    kernel = runner.hand_records(seed, start, count, rules, strategy, variant="cutthroat")
    _compare_hands(kernel, cp.hand_records(seed, start, count, rules, strategy))


@needs_kernel
def test_decisions_never_move_the_deals():
    # random seats draw from their own stream: the same seed deals the same cards whoever plays
    start, count = CHUNK - 30, 60
    deals = [(r["deal"], r["dummy"], r["kitty"]) for r in runner.hand_records(13, start, count, variant="cutthroat")]
    for strategy in ("random", ["default", "random", "never-alone"]):
        recs = runner.hand_records(13, start, count, None, strategy, variant="cutthroat")
        assert [(r["deal"], r["dummy"], r["kitty"]) for r in recs] == deals


GAME_POOL = ["default", "aggressive", "cautious", "never-alone", "random",
             {"alone_min": 3.0, "defend_alone_min": 3.25}, {"order_min": 3.0, "assist_min": 3.0, "take_min": 3.0}]


@st.composite
def games_setup(draw):
    n = draw(st.integers(1, 3))
    strategies = tuple(draw(st.lists(st.one_of(st.sampled_from(GAME_POOL), perturbed), min_size=n, max_size=n)))
    patterns = [st.lists(st.tuples(*[st.integers(0, n - 1)] * 3).map(list), min_size=1, max_size=3)]
    if n == 3:
        patterns.append(st.just([list(p) for p in itertools.permutations(range(3))]))
    assignments = draw(st.one_of(*patterns))
    return strategies, assignments


@needs_kernel
@settings(max_examples=30, **SETTINGS)
@given(seed=seeds, start=st.one_of(st.integers(0, 4), st.integers(61, 63), st.integers(0, 2000)),
       count=st.integers(1, 3), rules=rule_sets, setup=games_setup(), duplicate=st.booleans())
def test_game_results_twin(seed, start, count, rules, setup, duplicate):
    strategies, assignments = setup
    kernel = runner.game_results(seed, start, count, rules, strategies, assignments, duplicate, variant="cutthroat")
    reference = cp.game_results(seed, start, count, rules, strategies, assignments, duplicate)
    assert len(kernel) == len(reference)
    for k, r in zip(kernel, reference):
        assert k == r, f"kernel {k}\nreference {r}"


@needs_kernel
@pytest.mark.parametrize("duplicate", [True, False])
def test_game_results_across_a_chunk_boundary_twin(duplicate):
    # sets 62..65 straddle chunks 0 and 1 of the game-seed stream; every seating of three strategies
    strategies = ("default", "random", "aggressive")
    assignments = [list(p) for p in itertools.permutations(range(3))]
    args = (12345, 62, 4, {"stick_the_dealer": True, "lone_defender_points": "lone_only"}, strategies,
            assignments, duplicate)
    kernel = runner.game_results(*args, variant="cutthroat")
    reference = cp.game_results(*args)
    assert kernel == reference
    assert all(g["winner"] is not None for g in reference)


@needs_kernel
def test_unfinished_games_twin():
    # Nobody ever calls and nobody is stuck: every hand is thrown in, 1000 hands, no winner.
    never = {"order_min": 99.0, "assist_min": 99.0, "take_min": 99.0, "name_min": 99.0}
    args = (8, 0, 2, {}, (never,), [[0, 0, 0]])
    kernel = runner.game_results(*args, variant="cutthroat")
    assert kernel == cp.game_results(*args)
    assert all(g["winner"] is None and g["hands"] == cp.MAX_HANDS and g["scores"] == [0, 0, 0] for g in kernel)
