"""The kernels against the plain-Python reference (``tests/reference``) on generated inputs.

Every comparison is exact: the same draws, the same deals, the same floats,
the same records. Rule options run through every combination and strategy
parameters are perturbed, often onto the exact values where a comparison
(``>=`` against a threshold, ``>`` between two suits) changes its answer.
"""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bower.kernels import deal as kdeal
from bower.kernels.ghost import hand as gk
from bower.kernels import rng as krng
from bower.sim import runner
from bower.sim.variants.ghost import hands as ghost_hands
from bower.sim.strategy import resolve_strategy, to_vector
from tests.reference import ghost as ref
from tests.reference.rng import Xoshiro256ss
from bower.sim.variants import get_variant

GHOST = get_variant("ghost")
GHOST_DEFAULTS = get_variant("ghost").defaults

CHUNK = runner.CHUNK_SIZE
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ---------------------------------------------------------------- generators

RULE_OPTIONS = {o.name: list(o.values) for o in GHOST.options}
rule_sets = st.fixed_dictionaries({name: st.sampled_from(values) for name, values in RULE_OPTIONS.items()})
seeds = st.one_of(st.integers(0, 2**16), st.integers(0, 2**63 - 1))
u64 = st.integers(0, 2**64 - 1)


def _nudged(x: float):
    """``x`` and the floats just either side of it (the edges of a ``>=`` threshold)."""
    return st.sampled_from([x, float(np.nextafter(x, np.inf)), float(np.nextafter(x, -np.inf))])


def _weight(name: str):
    d = GHOST_DEFAULTS[name]
    return st.one_of(
        st.just(d),
        st.integers(0, 6).map(lambda k: k / 4),  # exact binary fractions: sums tie thresholds exactly
        st.integers(0, 30).map(lambda k: k / 20),  # inexact decimals: float rounding must match too
        st.floats(0.0, 1.5, allow_nan=False),
    )


def _threshold(name: str, hi: float):
    d = GHOST_DEFAULTS[name]
    return st.one_of(
        _nudged(d),
        st.integers(0, int(hi * 4)).map(lambda k: k / 4).flatmap(_nudged),
        st.integers(0, int(hi * 20)).map(lambda k: k / 20),
        st.floats(0.0, hi, allow_nan=False),
    )


PARAM_STRATEGIES = {
    **{n: _weight(n) for n in GHOST_DEFAULTS if n.startswith("w_")},
    "swap_below": _threshold("swap_below", 4.0),
    "bid_3": _threshold("bid_3", 5.0),
    "bid_4": _threshold("bid_4", 6.0),
    "bid_5": _threshold("bid_5", 6.5),
    "bid_moon": _threshold("bid_moon", 7.0),
    "bid_jump": st.sampled_from([0.0, 1.0, 0.5, float(np.nextafter(0.5, 0.0)), 0.25, 0.75]),
    "lead_trump_min": st.sampled_from([0.0, 1.0, 2.0, 3.0, 4.0, 6.0, 7.0, 1.5, 2.5]),
}
strategy_params = st.one_of(
    st.just("default"),
    st.fixed_dictionaries({}, optional=PARAM_STRATEGIES),
)


# ---------------------------------------------------------------- random numbers


def test_xoshiro_known_answers():
    # Blackman & Vigna's reference code from state {1, 2, 3, 4}.
    r = Xoshiro256ss([1, 2, 3, 4])
    assert [r.next_u64() for _ in range(4)] == [11520, 0, 1509978240, 1215971899390074240]


@settings(max_examples=60, **SETTINGS)
@given(state=st.lists(u64, min_size=4, max_size=4).filter(any), steps=st.integers(1, 40))
def test_next_u64_twin(state, steps):
    s = np.array(state, np.uint64)
    r = Xoshiro256ss(state)
    for _ in range(steps):
        assert int(krng.next_u64(s)) == r.next_u64()
    assert [int(x) for x in s] == r.s


BOUNDS = st.one_of(
    st.integers(1, 25),
    st.integers(1, 2**32 - 1),
    st.sampled_from([2**31 + 1, 2**31 + 3, 3 * 2**30 + 1, 2**32 - 1, 2**31]),  # heavy rejection
)


@settings(max_examples=80, **SETTINGS)
@given(state=st.lists(u64, min_size=4, max_size=4).filter(any), bounds=st.lists(BOUNDS, min_size=1, max_size=60))
def test_bounded_twin(state, bounds):
    s = np.array(state, np.uint64)
    buf = np.zeros(2, np.int64)
    r = Xoshiro256ss(state)
    for n in bounds:
        got = int(krng.bounded(s, buf, np.int64(n)))
        assert got == r.bounded(n)
        assert 0 <= got < n
    assert [int(x) for x in s] == r.s
    assert (buf[1] == 1) == (r.held is not None)


@settings(max_examples=40, **SETTINGS)
@given(state=st.lists(u64, min_size=4, max_size=4).filter(any), n_deals=st.integers(1, 5))
def test_deal_packets_twin(state, n_deals):
    s = np.array(state, np.uint64)
    buf = np.zeros(2, np.int64)
    deck = np.empty(24, np.int64)
    out = np.zeros(4, np.int64)
    r = Xoshiro256ss(state)
    for _ in range(n_deals):
        rest = kdeal.deal_packets(s, buf, deck, 24, 4, 6, out)
        assert int(rest) == 0
        assert [int(m) for m in out] == [ref.mask_from_cards(h) for h in ref.deal_from(r)]


@settings(max_examples=40, **SETTINGS)
@given(
    seed=seeds,
    chunk=st.integers(0, 50),
    offset=st.one_of(st.integers(0, 40), st.integers(CHUNK - 30, CHUNK - 1)),
    count=st.integers(1, 60),
)
def test_deal_masks_twin(seed, chunk, offset, count):
    start = chunk * CHUNK + offset
    got = ghost_hands.deal_masks(seed, start, count)
    assert got.shape == (count, 4)
    assert got.tolist() == ref.deal_masks(seed, start, count)


# ---------------------------------------------------------------- whole hands


@settings(max_examples=200, **SETTINGS)
@given(
    seed=seeds,
    chunk=st.integers(0, 1000),
    offset=st.integers(0, 30),
    count=st.integers(1, 60),
    rules=rule_sets,
    strategy=strategy_params,
)
def test_hand_records_twin(seed, chunk, offset, count, rules, strategy):
    start = chunk * CHUNK + offset
    kernel = runner.hand_records(seed, start, count, rules, strategy)
    reference = ref.hand_records(seed, start, count, rules, strategy)
    assert len(kernel) == count
    for k, r in zip(kernel, reference):
        assert k == r, _first_difference(k, r)


@settings(max_examples=12, **SETTINGS)
@given(seed=st.integers(0, 2**16), tail=st.integers(1, 12), count=st.integers(2, 24), rules=rule_sets)
def test_hand_records_across_a_chunk_boundary_twin(seed, tail, count, rules):
    # Hands at the end of chunk 0 and the start of chunk 1: the held 32-bit half
    # must carry across hands inside a chunk and start empty in the next one.
    start = CHUNK - tail
    kernel = runner.hand_records(seed, start, count, rules)
    reference = ref.hand_records(seed, start, count, rules)
    for k, r in zip(kernel, reference, strict=True):
        assert k == r, _first_difference(k, r)


def test_hand_records_every_rule_combination_twin():
    names = list(RULE_OPTIONS)
    aggressive = {"bid_3": 1.5, "bid_4": 2.0, "bid_5": 2.5, "bid_moon": 3.25, "swap_below": 2.5}
    seen = Counter()
    for i, values in enumerate(itertools.product(*RULE_OPTIONS.values())):
        rules = dict(zip(names, values))
        for strategy in ("default", aggressive):
            kernel = runner.hand_records(1000 + i, 0, 40, rules, strategy)
            reference = ref.hand_records(1000 + i, 0, 40, rules, strategy)
            for k, r in zip(kernel, reference, strict=True):
                assert k == r, (rules, strategy, _first_difference(k, r))
                seen["moon"] += r["bid"] == 6
                seen["swap"] += r["swap"] is not None
                seen["thrown in"] += r["maker"] is None
                seen["stuck dealer"] += _dealer_was_stuck(r, strategy)
                seen["second lap"] += len(r["calls"]) > 3
    assert all(seen[k] for k in ("moon", "swap", "thrown in", "stuck dealer", "second lap")), seen


def _dealer_was_stuck(rec: dict, strategy) -> bool:
    """Whether the dealer bid 3 on a hand whose estimate supports no bid (stick the dealer)."""
    dealer = rec["dealer"]
    if rec["maker"] != dealer or rec["bid"] != 3:
        return False
    held = rec["deal"]["ghost" if rec["swap"] == dealer else str(dealer)]
    params = resolve_strategy(strategy)
    hand = [ref.card_from_str(c) for c in held]
    return ref.level(ref.best_suit(hand, params)[1], params) == 0


def _first_difference(k: dict, r: dict) -> str:
    keys = [key for key in sorted(set(k) | set(r)) if k.get(key) != r.get(key)]
    lines = [f"hand {r.get('hand')} rules {r.get('rules')}"]
    for key in keys:
        lines.append(f"  {key}: kernel {k.get(key)!r} reference {r.get(key)!r}")
    return "\n".join(lines)


def _summary_from_records(records: list[dict]) -> dict:
    n = len(records)
    pos = lambda rec, seat: str((seat - rec["dealer"]) % 3 or 3)  # noqa: E731  (1 = dealer's left, 3 = dealer)
    out = {
        "hands": n,
        "thrown_in": sum(r["maker"] is None for r in records),
        "swaps": sum(r["swap"] is not None for r in records),
        "swaps_by_position": {p: 0 for p in "123"},
        "makers_by_position": {p: 0 for p in "123"},
        "bids": {b: {"count": 0, "made": 0} for b in ("3", "4", "5", "moon")},
    }
    out["played"] = n - out["thrown_in"]
    points = {p: 0 for p in "123"}
    tricks = {p: 0 for p in "123"}
    for r in records:
        if r["swap"] is not None:
            out["swaps_by_position"][pos(r, r["swap"])] += 1
        if r["maker"] is None:
            continue
        out["makers_by_position"][pos(r, r["maker"])] += 1
        b = out["bids"]["moon" if r["bid"] == 6 else str(r["bid"])]
        b["count"] += 1
        b["made"] += r["tricks"][str(r["maker"])] >= r["bid"]
        for s in range(3):
            points[pos(r, s)] += r["points"][str(s)]
            tricks[pos(r, s)] += r["tricks"][str(s)]
    out["points_per_hand_by_position"] = {p: points[p] / n for p in "123"}
    out["tricks_per_hand_by_position"] = {p: tricks[p] / n for p in "123"}
    return out


def test_simulate_summary_twin():
    # The summary counters of a run equal those recomputed from the reference's
    # records, for one thread and for two (chunks must not depend on threads).
    rules = {"auction": "until_passes", "stick_the_dealer": True}
    n = CHUNK + 700
    want = _summary_from_records(ref.hand_records(11, 0, n, rules))
    for threads in (1, min(2, runner.max_threads())):
        got = runner.simulate(hands=n, seed=11, threads=threads, rules=rules)
        got["bids"] = {b: {"count": v["count"], "made": v["made"]} for b, v in got["bids"].items()}
        assert {k: got[k] for k in want} == want
        assert got["threads"] == threads


# ---------------------------------------------------------------- single rules


def _hands_of(perm: list[int]) -> list[int]:
    return [sum(1 << c for c in perm[6 * s: 6 * s + 6]) for s in range(3)]


@settings(max_examples=400, **SETTINGS)
@given(
    perm=st.permutations(range(24)),
    trump=st.integers(0, 3),
    leader=st.integers(0, 2),
    choices=st.lists(st.integers(0, 2**20), min_size=18, max_size=18),
)
def test_play_with_choices_twin(perm, trump, leader, choices):
    hands = _hands_of(perm)
    kernel = ghost_hands.play_with_choices(hands, trump, leader, choices)
    reference = ref.play_with_choices(hands, trump, leader, choices)
    assert [tuple(p) for p in kernel["plays"]] == reference["plays"]
    assert list(kernel["tricks"]) == reference["tricks"]
    assert sum(reference["tricks"]) == 6


@settings(max_examples=500, **SETTINGS)
@given(hand=st.sets(st.integers(0, 23), min_size=1, max_size=6), lead=st.integers(0, 23), trump=st.integers(0, 3))
def test_legal_mask_twin(hand, lead, trump):
    hand.discard(lead)
    if not hand:
        return
    mask = sum(1 << c for c in hand)
    got = int(gk.legal_mask(np.int64(mask), np.int64(lead), np.int64(trump)))
    assert got == ref.legal_mask(mask, lead, trump)
    assert got != 0 and got & ~mask == 0


def test_trick_winner_exhaustive_twin():
    # Every ordered three-card trick under every trump.
    for trump in range(4):
        t = np.int64(trump)
        for cards in itertools.permutations(range(24), 3):
            want = ref.trick_winner([ref.card_from_index(c) for c in cards], trump)
            assert gk.trick_winner(np.array(cards, np.int64), t) == want, (cards, trump)


@settings(max_examples=400, **SETTINGS)
@given(hand=st.sets(st.integers(0, 23), min_size=0, max_size=6), trump=st.integers(0, 3), strategy=strategy_params)
def test_estimate_twin(hand, trump, strategy):
    params = resolve_strategy(strategy)
    vec = to_vector(params)
    mask = sum(1 << c for c in hand)
    cards = ref.cards_from_mask(mask)
    got = float(gk.estimate(np.int64(mask), np.int64(trump), vec))
    assert got == ref.estimate(cards, trump, params)  # bit-identical, not approximately equal
    suit, est = gk.best_trump(np.int64(mask), vec)
    assert (int(suit), float(est)) == ref.best_suit(cards, params)


def test_score_table_exhaustive_twin():
    compositions = [t for t in itertools.product(range(7), repeat=3) if sum(t) == 6]
    for penalty, keeps in itertools.product((6, 24), (False, True)):
        rules = {"moon_set_penalty": penalty, "set_keeps_tricks": keeps}
        for maker, bid, tricks in itertools.product(range(3), (3, 4, 5, 6), compositions):
            want = ref.score_hand(maker, bid, list(tricks), rules)
            assert ghost_hands.score_hand(maker, bid, list(tricks), rules) == want, (maker, bid, tricks, rules)
