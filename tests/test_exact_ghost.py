"""Simulated frequencies against exact combinatorial probabilities.

Each check uses a fixed seed and a stated tolerance: the exact value must lie
inside the simulation's own two-sided confidence interval, at 99.9% for a
single number and, where one test makes k comparisons at once, at the
Bonferroni level 0.001 / k (so a correct simulator fails a test with
probability at most 0.001; with the fixed seeds the outcome never changes).
"""

from __future__ import annotations

from math import comb, sqrt
from statistics import NormalDist

import numpy as np
import pytest

from bower.sim import runner
from bower.sim.variants.ghost import hands as ghost_hands
from bower.sim.cards import parse_card

N_DEALS = 400_000
SEED = 20261129
ALPHA = 0.001


def z_for(alpha: float, comparisons: int = 1) -> float:
    """Two-sided normal quantile for family error ``alpha`` over ``comparisons`` intervals."""
    return NormalDist().inv_cdf(1 - alpha / comparisons / 2)


def assert_inside(hits: int, n: int, exact: float, comparisons: int = 1, what: str = "") -> None:
    p = hits / n
    half = z_for(ALPHA, comparisons) * sqrt(p * (1 - p) / n)
    assert abs(p - exact) <= half, f"{what}: simulated {p:.6f} ± {half:.6f}, exact {exact:.6f}"


@pytest.fixture(scope="module")
def deals() -> np.ndarray:
    masks = ghost_hands.deal_masks(SEED, 0, N_DEALS)
    assert masks.shape == (N_DEALS, 4)
    # the four hands partition the deck in every deal
    assert np.all(masks[:, 0] | masks[:, 1] | masks[:, 2] | masks[:, 3] == (1 << 24) - 1)
    for a in range(4):
        for b in range(a + 1, 4):
            assert not np.any(masks[:, a] & masks[:, b])
    return masks


def _has(masks: np.ndarray, card: int) -> np.ndarray:
    return (masks >> card) & 1 == 1


def test_position_1_holds_both_black_jacks(deals):
    exact = comb(22, 4) / comb(24, 6)  # the other 4 cards from the 22 that are not those jacks
    both = _has(deals[:, 0], parse_card("JC")) & _has(deals[:, 0], parse_card("JS"))
    assert_inside(int(both.sum()), N_DEALS, exact, what="position 1 holds JC and JS")


def test_every_hand_holds_both_jacks_of_a_colour_equally_often(deals):
    exact = comb(22, 4) / comb(24, 6)
    for hand in range(4):
        for pair in (("JC", "JS"), ("JD", "JH")):
            both = _has(deals[:, hand], parse_card(pair[0])) & _has(deals[:, hand], parse_card(pair[1]))
            assert_inside(int(both.sum()), N_DEALS, exact, comparisons=8, what=f"hand {hand} holds {pair}")


def test_each_card_equally_likely_in_each_hand(deals):
    # 24 cards x 4 hands, each 1/4: per-cell intervals at the Bonferroni level for 96 cells.
    for hand in range(4):
        for card in range(24):
            hits = int(_has(deals[:, hand], card).sum())
            assert_inside(hits, N_DEALS, 0.25, comparisons=96, what=f"card {card} in hand {hand}")


def test_ghost_receives_a_given_card_with_probability_one_quarter(deals):
    assert_inside(int(_has(deals[:, 3], parse_card("JH")).sum()), N_DEALS, 0.25, what="ghost holds JH")


def test_two_given_cards_share_a_hand_with_probability_5_of_23(deals):
    # Wherever the first card lies, 5 of the other 23 places are in its hand.
    jh, jd = parse_card("JH"), parse_card("JD")
    together = np.zeros(N_DEALS, bool)
    for hand in range(4):
        together |= _has(deals[:, hand], jh) & _has(deals[:, hand], jd)
    assert_inside(int(together.sum()), N_DEALS, 5 / 23, what="JH and JD in one hand")


def test_suit_length_of_position_1_is_hypergeometric(deals):
    # Hearts in position 1: P(k) = C(6,k) C(18,6-k) / C(24,6); k >= 5 merged (expected ~3 deals at k = 6).
    hearts = sum(((deals[:, 0] >> (3 * 6 + r)) & 1) for r in range(6))
    exact = [comb(6, k) * comb(18, 6 - k) / comb(24, 6) for k in range(7)]
    cells_exact = exact[:5] + [exact[5] + exact[6]]
    counts = np.bincount(np.minimum(hearts, 5), minlength=6)
    assert counts.sum() == N_DEALS
    expected = np.array(cells_exact) * N_DEALS
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    assert chi2 < 20.515, f"chi-square {chi2:.2f} over the 99.9% quantile of chi2(5); counts {counts.tolist()}"


def test_maker_holds_the_right_bower_as_often_as_a_hand_holds_a_jack():
    # A strategy that values only the right bower and makes position 1 bid 3 on
    # anything: position 1 is always the maker and names the suit of a jack it
    # holds (else clubs), so it holds the right bower of trump exactly when its
    # dealt hand has a jack: 1 - C(20,6)/C(24,6).
    strategy = {name: 0.0 for name in ("w_trump_nine", "w_trump_ten", "w_trump_queen", "w_trump_king",
                                       "w_trump_ace", "w_left", "w_off_ace", "w_off_king", "w_void")}
    strategy.update(w_right=1.0, bid_3=0.0, bid_4=100.0, bid_5=100.0, bid_moon=100.0, bid_jump=0.0)
    n = 40_000
    records = runner.hand_records(SEED + 1, 0, n, {"swap": "none"}, strategy)
    hits = 0
    for rec in records:
        position_1 = (rec["dealer"] + 1) % 3
        assert rec["maker"] == position_1 and rec["bid"] == 3
        hits += ("J" + rec["trump"]) in rec["deal"][str(position_1)]
    assert_inside(hits, n, 1 - comb(20, 6) / comb(24, 6), what="maker holds the right bower")
