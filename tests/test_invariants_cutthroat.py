"""Invariants of the Cutthroat kernels' records, checked against the rules reference only.

Independent of the strategy twin: whatever the players decide, a kernel
record (``bower.sim.runner.hand_records(..., variant="cutthroat")``) must be a
legal hand of RULES.md section 2 (``tests/reference/cutthroat.py``): no card
lost or duplicated, the discards from the right hands, only cards held
played, only active seats playing, suit followed, five tricks won as the
trick rule says, the points of ``score_hand``. And the kernel's deals have
the exact distribution of a uniform shuffle: the up-card is each of the 24
cards with probability 1/24, and position 1 holds the right bower of the
up-card's suit with the probability found by counting, 25/138.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from math import comb, sqrt

import numpy as np
import pytest

from bower.sim import runner
from tests.reference import cutthroat as ct
from tests.reference.ghost import JACK, card_from_str, legal_cards
from bower.sim.variants import get_variant

CUTTHROAT = get_variant("cutthroat")

RULE_OPTIONS = {o.name: list(o.values) for o in CUTTHROAT.options}
ALL_RULES = [dict(zip(RULE_OPTIONS, values)) for values in itertools.product(*RULE_OPTIONS.values())]
LOOSE = {"order_min": 3.0, "assist_min": 3.0, "take_min": 3.25, "name_min": 2.5, "alone_min": 3.25,
         "defend_alone_min": 3.0}
TIMID = {"order_min": 4.0, "assist_min": 4.0, "take_min": 4.5, "name_min": 3.5}
STRATEGIES = ["default", "random", ["random", LOOSE, "default"], [TIMID, "never-alone", "random"], LOOSE]

# The chi-square critical value at p = 1e-6 with 23 degrees of freedom (scipy.stats.chi2.isf(1e-6, 23) = 70.5496...).
CHI2_CRIT_23 = 70.5496


def _c(names) -> list[ct.Card]:
    return [card_from_str(c) for c in names]


def check_record(rec: dict, hand_index: int, rules: dict) -> None:
    """Every rule-level invariant of one kernel record (AssertionError naming the first broken)."""
    rules = ct.resolve_rules(rules)
    assert rec["variant"] == "cutthroat" and rec["hand"] == hand_index and rec["rules"] == rules
    dealer = rec["dealer"]
    assert dealer == hand_index % 3
    dealt = {s: _c(rec["deal"][str(s)]) for s in range(3)}
    dummy, kitty = _c(rec["dummy"]), _c(rec["kitty"])
    up = kitty[0]
    # no card lost: 15 in the players' hands, 5 in the dummy, 4 in the kitty, all 24 distinct
    assert all(len(h) == 5 for h in dealt.values()) and len(dummy) == 5 and len(kitty) == 4
    everything = [c for h in dealt.values() for c in h] + dummy + kitty
    assert len(set(everything)) == 24
    assert rec["upcard"] == str(up)
    for names in [*rec["deal"].values(), rec["dummy"]]:
        assert names == [str(c) for c in sorted(_c(names), key=lambda c: c.index)], "hands ascending"

    # the auction is legal and its outcome is the record's
    calls = [c for _, c in rec["calls"]]
    auction = ct.auction_outcome(calls, dealer, up, rules)
    assert [list(c) for c in auction.calls] == rec["calls"]
    if auction.thrown_in:
        assert rec["maker"] is None and rec["trump"] is None
        assert rec["discards"] == {"dealer": None, "maker": []} and rec["alone"] == [] and rec["plays"] == []
        assert rec["tricks"] == rec["points"] == {"0": 0, "1": 0, "2": 0}
        return
    maker, trump = auction.maker, auction.trump
    assert rec["maker"] == maker and rec["trump"] == "CSDH"[trump]

    # the dealer's discard: only after round one, from the dealer's own hand; mandatory means always
    hands = {s: list(h) for s, h in dealt.items()}
    discard = rec["discards"]["dealer"]
    if auction.round == 2:
        assert discard is None
    elif discard is None:
        assert rules["dealer_pickup"] == "optional"
    else:
        assert card_from_str(discard) in dealt[dealer]
        hands[dealer] = [c for c in dealt[dealer] if str(c) != discard] + [up]

    # going alone
    maker_alone = maker in rec["alone"]
    lone = [s for s in rec["alone"] if s != maker]
    assert rec["alone"] == sorted(rec["alone"]) and len(lone) <= 1
    lone_defender = lone[0] if lone else None
    ct.check_going_alone(maker, maker_alone, lone_defender, rules)

    # the maker's 5 discards come from the maker's hand (after the exchange) and the dummy
    maker_discards = _c(rec["discards"]["maker"])
    if maker_alone:
        assert maker_discards == []
    else:
        ten = hands[maker] + dummy
        assert len(maker_discards) == 5 and set(maker_discards) <= set(ten)
        assert rec["discards"]["maker"] == [str(c) for c in sorted(maker_discards, key=lambda c: c.index)]
        hands[maker] = [c for c in ten if c not in maker_discards]

    # only active seats play, each the 5 cards it held after the exchange and the merge, following suit
    active = ct.active_seats(maker, lone_defender)
    plays = [(s, card_from_str(c)) for s, c in rec["plays"]]
    assert len(plays) == 5 * len(active)
    for s in range(3):
        played = [c for seat, c in plays if seat == s]
        if s in active:
            assert sorted(played, key=lambda c: c.index) == sorted(hands[s], key=lambda c: c.index), s
        else:
            assert played == [], f"seat {s} sat out but played"
    leader = ct.first_leader(dealer, maker, maker_alone, lone_defender)
    held = {s: list(hands[s]) for s in active}
    tricks = [0, 0, 0]
    n = len(active)
    for t in range(5):
        trick = plays[n * t: n * t + n]
        assert [s for s, _ in trick] == ct.play_order(leader, active), f"trick {t} order"
        cards = [c for _, c in trick]
        for i, (s, c) in enumerate(trick):
            assert c in legal_cards(held[s], cards[0] if i else None, trump), f"seat {s} may not play {c}"
            held[s].remove(c)
        leader = trick[ct.trick_winner(cards, trump)][0]
        tricks[leader] += 1
    assert rec["tricks"] == {str(s): tricks[s] for s in range(3)}
    points = ct.score_hand(maker, tricks[maker], maker_alone, lone_defender, rules)
    assert rec["points"] == {str(s): points[s] for s in range(3)}


@pytest.mark.parametrize("k", range(len(ALL_RULES)))
def test_kernel_records_are_legal_hands(k):
    rules = ALL_RULES[k]
    strategy = STRATEGIES[k % len(STRATEGIES)]
    start = (k % 3) * runner.CHUNK_SIZE + 37 * k
    records = runner.hand_records(100 + k, start, 120, rules, strategy, variant="cutthroat")
    assert len(records) == 120
    for i, rec in enumerate(records):
        try:
            check_record(rec, start + i, rules)
        except AssertionError as e:
            raise AssertionError(f"seed {100 + k} hand {start + i} rules {rules} strategy {strategy}: {e}\n{rec}")


def test_records_cover_every_kind_of_hand():
    # Across the rule sets above the invariants met every branch: thrown in, exchange or not,
    # both kinds of lone hand, a maker who went alone while a defender went alone too.
    seen = set()
    for k, rules in enumerate(ALL_RULES[::5]):
        for rec in runner.hand_records(7 + k, 0, 150, rules, STRATEGIES[k % len(STRATEGIES)], variant="cutthroat"):
            if rec["maker"] is None:
                seen.add("thrown in")
                continue
            seen.add("exchange" if rec["discards"]["dealer"] else "no exchange")
            maker_alone = rec["maker"] in rec["alone"]
            seen.add(("maker alone", maker_alone, len(rec["alone"]) - maker_alone))
    assert seen >= {"thrown in", "exchange", "no exchange", ("maker alone", False, 0), ("maker alone", True, 0),
                    ("maker alone", False, 1), ("maker alone", True, 1)}, seen


# ---------------------------------------------------------------- the deal's distribution

DEAL_SEED = 20251129
DEAL_CHUNKS = 256  # 256 * 4096 = 1,048,576 deals


def _p_right_bower_with_position_one() -> Fraction:
    """P(position 1 holds the right bower of the up-card's suit), by counting.

    The up-card is any of the 24 cards; position 1's 5 cards are any 5 of the
    other 23. If the up-card is a jack it is itself the right bower (no hand
    can hold it); otherwise the right bower is among the 23, and C(22, 4) of
    the C(23, 5) hands hold it.
    """
    favourable = 0
    total = 0
    for suit in range(4):
        for rank in range(6):
            total += comb(23, 5)
            if rank != JACK:
                favourable += comb(22, 4)
    return Fraction(favourable, total)


@pytest.fixture(scope="module")
def kernel_deals():
    from bower.kernels.cutthroat import drivers as cs

    n = runner.CHUNK_SIZE
    states = runner.chunk_states(DEAL_SEED, 0, DEAL_CHUNKS)
    masks = np.empty((DEAL_CHUNKS * n, 4), np.int64)
    kitty = np.empty((DEAL_CHUNKS * n, 4), np.int64)
    for c in range(DEAL_CHUNKS):
        cs.deal_chunk(states[c].copy(), n, masks[c * n:(c + 1) * n], kitty[c * n:(c + 1) * n])
    # the test deal function deals what the runner's records hold (chunk 0 and chunk 1's first hands)
    for start in (0, n):
        for i, rec in enumerate(runner.hand_records(DEAL_SEED, start, 6, variant="cutthroat")):
            h = start + i
            pos = [(rec["dealer"] + p) % 3 for p in (1, 2, 3)]
            want = [sum(1 << card_from_str(c).index for c in rec["deal"][str(s)]) for s in pos]
            want.append(sum(1 << card_from_str(c).index for c in rec["dummy"]))
            assert masks[h].tolist() == want
            assert kitty[h].tolist() == [card_from_str(c).index for c in rec["kitty"]]
    return masks, kitty


def test_deals_partition_the_deck(kernel_deals):
    masks, kitty = kernel_deals
    assert (np.bitwise_or.reduce(masks, axis=1) | np.bitwise_or.reduce(1 << kitty, axis=1) == (1 << 24) - 1).all()
    for col in range(4):
        assert all(int(m).bit_count() == 5 for m in masks[:2000, col])


def test_up_card_is_uniform(kernel_deals):
    # chi-square over the 24 cards, 23 degrees of freedom, rejecting only below p = 1e-6
    _, kitty = kernel_deals
    n = len(kitty)
    counts = np.bincount(kitty[:, 0], minlength=24)
    expected = n / 24
    stat = float(((counts - expected) ** 2 / expected).sum())
    assert stat < CHI2_CRIT_23, (stat, counts.tolist())
    # and each card within 5 sigma of n/24
    sigma = sqrt(n * (1 / 24) * (23 / 24))
    assert np.abs(counts - expected).max() < 5 * sigma, counts.tolist()


def test_position_one_holds_the_right_bower_at_the_counted_rate(kernel_deals):
    masks, kitty = kernel_deals
    p = _p_right_bower_with_position_one()
    assert p == Fraction(25, 138)
    up = kitty[:, 0]
    right = (up // 6) * 6 + JACK  # the jack of the up-card's suit
    holds = ((masks[:, 0] >> right) & 1).astype(bool) & (up != right)
    n = len(up)
    sigma = sqrt(n * float(p) * (1 - float(p)))
    assert abs(int(holds.sum()) - n * float(p)) < 5 * sigma, (int(holds.sum()), n * float(p), sigma)
    # when the up-card is a jack nobody can hold "its" right bower: the dealt hands never contain the up-card
    assert not (((masks >> up[:, None]) & 1).any())


def _corruptions(rec: dict):
    """Broken copies of a played record, each one breaking one invariant."""
    import copy

    def changed(f):
        r = copy.deepcopy(rec)
        f(r)
        return r

    dealer = rec["dealer"]
    yield "a card dealt twice", changed(lambda r: r["dummy"].__setitem__(0, r["deal"]["0"][0]))
    yield "up-card not the kitty's first", changed(lambda r: r.__setitem__("upcard", r["kitty"][1]))
    yield "two plays swapped", changed(lambda r: r["plays"].__setitem__(slice(0, 2), r["plays"][1::-1]))
    yield "a trick miscounted", changed(lambda r: r["tricks"].update({"0": r["tricks"]["0"] + 1,
                                                                      "1": r["tricks"]["1"] - 1}))
    yield "a point more", changed(lambda r: r["points"].update({"2": r["points"]["2"] + 1}))
    yield "maker discards the up-card's neighbour", changed(
        lambda r: r["discards"]["maker"].__setitem__(0, r["kitty"][1]))
    other = rec["deal"][str((dealer + 1) % 3)][0]
    yield "dealer discards another's card", changed(lambda r: r["discards"].__setitem__("dealer", other))
    yield "a seat that sits out plays", changed(lambda r: r.__setitem__("alone", [(r["maker"] + 1) % 3]))


def test_check_record_catches_corruptions():
    # A record of a plain hand (round-one acceptance with an exchange, nobody alone) broken eight ways.
    rules = ct.resolve_rules({})
    for i, rec in enumerate(runner.hand_records(3, 0, 200, rules, "default", variant="cutthroat")):
        if rec["maker"] is not None and rec["discards"]["dealer"] and not rec["alone"] and rec["tricks"]["1"]:
            break
    check_record(rec, i, rules)
    for what, bad in _corruptions(rec):
        try:
            check_record(bad, i, rules)
        except (AssertionError, ValueError):
            continue
        pytest.fail(f"not caught: {what}")
