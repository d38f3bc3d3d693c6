"""Ghost Hand strategy kernels: trick estimate, swap, call, lead, follow, and the random player.

Small functions that take arrays are inlined at Numba's level
(``inline="always"``): a plain call with array arguments costs atomic
reference-count updates (about 30 ns, measured), more than the work itself.

Every number comes from one seat's row ``p`` of the strategy record
(``sim.strategy.GHOST_PARAMS``); sim/strategy.py describes the strategy in
words. Random choices draw from the decision stream ``(dstate, dbuf)``.
"""

import numpy as np

from kernels.bits import highest, lowest, popcount
from kernels.jit import kernel
from kernels.rng import bounded
from kernels.tables import BEATS, HIGHER, LEFT, RANK_MASK, RIGHT, SUIT_MASK, TRUMP_PLAIN
from sim.strategy import param_index

DECK24 = np.int64((1 << 24) - 1)
_ACES = np.int64(sum(1 << (s * 6 + 5) for s in range(4)))
_KINGS = np.int64(sum(1 << (s * 6 + 4) for s in range(4)))
MOON = 6

P_W_TRUMP = param_index("w_trump_nine")
P_W_OFF_ACE = param_index("w_off_ace")
P_W_OFF_KING = param_index("w_off_king")
P_W_VOID = param_index("w_void")
P_SWAP_BELOW = param_index("swap_below")
P_BID3 = param_index("bid_3")
P_BID4 = param_index("bid_4")
P_BID5 = param_index("bid_5")
P_MOON = param_index("bid_moon")
P_JUMP = param_index("bid_jump")
P_LEAD_TRUMP = param_index("lead_trump_min")
P_NEAR = param_index("near_target")
P_SHIFT_SELF = param_index("bid_shift_self_near")
P_SHIFT_OPP = param_index("bid_shift_opp_near")
P_RANDOM = param_index("random")


@kernel(inline="always")
def is_random(p):
    """Whether strategy row ``p`` is the uniformly random player."""
    return p[P_RANDOM] >= 0.5


@kernel(inline="always")
def _weights(p):
    """The trick weights of strategy row ``p`` as a tuple (held in registers, unlike array loads)."""
    return (
        p[P_W_TRUMP], p[P_W_TRUMP + 1], p[P_W_TRUMP + 2], p[P_W_TRUMP + 3], p[P_W_TRUMP + 4], p[P_W_TRUMP + 5],
        p[P_W_TRUMP + 6], p[P_W_TRUMP + 7], p[P_W_OFF_ACE], p[P_W_OFF_KING], p[P_W_VOID],
    )


@kernel(inline="always")
def _estimate_w(hand, trump, w):
    """``estimate`` with the weights as a tuple (9 T Q K A left right joker, off ace, off king, void)."""
    b = trump * 6
    r = (hand >> (b + 2)) & 1
    left = (hand >> ((trump ^ 1) * 6 + 2)) & 1
    ace = (hand >> (b + 5)) & 1
    king = (hand >> (b + 4)) & 1
    queen = (hand >> (b + 3)) & 1
    ten = (hand >> (b + 1)) & 1
    nine = (hand >> b) & 1
    joker = (hand >> 24) & 1
    est = (
        nine * w[0] + ten * w[1] + queen * w[2] + king * w[3] + ace * w[4] + left * w[5] + r * w[6] + joker * w[7]
    )
    est += popcount(hand & _ACES & ~(np.int64(1) << (b + 5))) * w[8]
    est += popcount(hand & _KINGS & ~(np.int64(1) << (b + 4))) * w[9]
    if nine + ten + queen + king + ace + left + r + joker >= 2:
        voids = 0
        for s in range(4):
            voids += (s != trump) & ((hand & SUIT_MASK[trump, s]) == 0)
        est += voids * w[10]
    return est


@kernel
def estimate(hand, trump, p):
    """Trick estimate of ``hand`` with ``trump`` (sim/strategy.py): trump weights, off aces and kings, voids.

    Branch-free on the card bits. The weights are multiples of a binary
    fraction (``sim.strategy.WEIGHT_STEP``), so the sum is exact in any order.
    """
    return _estimate_w(hand, trump, _weights(p))


@kernel(inline="always")
def best_trump(hand, p):
    """(suit, estimate) of the suit with the highest trick estimate; ties to the lowest suit."""
    w = _weights(p)
    best_s = 0
    best_e = _estimate_w(hand, 0, w)
    for t in range(1, 4):
        e = _estimate_w(hand, t, w)
        if e > best_e:
            best_s = t
            best_e = e
    return best_s, best_e


@kernel(inline="always")
def bid_level(est, p):
    """Bid level the estimate supports: 6 (moon), 5, 4, 3, or 0 for none."""
    if est >= p[P_MOON]:
        return MOON
    if est >= p[P_BID5]:
        return 5
    if est >= p[P_BID4]:
        return 4
    if est >= p[P_BID3]:
        return 3
    return 0


@kernel(inline="always")
def score_shift(seat, scores, target, p):
    """Score-aware shift of the bid thresholds for ``seat`` given the game ``scores``."""
    shift = 0.0
    self_near = p[P_SHIFT_SELF]
    opp_near = p[P_SHIFT_OPP]
    if self_near == 0.0 and opp_near == 0.0:
        return shift  # not score-aware: adding zeros would change nothing
    line = target - p[P_NEAR]
    if scores[seat] >= line:
        shift += self_near
    for s in range(scores.shape[0]):
        if s != seat and scores[s] >= line:
            shift += opp_near
            break
    return shift


@kernel(inline="always")
def choose_call(est, standing, forced, shift, p):
    """The call (0 pass, 3..5, 6 moon) for a hand estimated ``est`` over the standing bid.

    ``forced``: the dealer is stuck; ``shift`` is added to every threshold.
    """
    level = bid_level(est - shift, p)
    if level == MOON:
        return MOON
    if level > standing:
        if p[P_JUMP] >= 0.5:
            return level
        return max(3, standing + 1)
    if forced:
        return 3
    return 0


@kernel
def random_call(standing, forced, dstate, dbuf):
    """A call drawn uniformly from the legal ones: pass (unless forced), each bid above ``standing``, moon."""
    low = max(3, standing + 1)
    n_bids = 6 - low + 1 if low <= 6 else 0
    n = n_bids + (0 if forced else 1)
    k = bounded(dstate, dbuf, n)
    if not forced:
        if k == 0:
            return 0
        k -= 1
    return low + k


@kernel
def nth_card(mask, k):
    """The ``k``-th card (0-based, ascending) of ``mask``."""
    for _ in range(k):
        mask &= mask - 1
    return lowest(mask)


@kernel
def random_card(legal, dstate, dbuf):
    """A card of ``legal`` drawn uniformly (the k-th in ascending order)."""
    return nth_card(legal, bounded(dstate, dbuf, popcount(legal)))


@kernel
def weakest_trump(trumps, trump):
    """The trump of least power in non-empty ``trumps``: a plain trump (9 T Q K A in index order), else left, else right."""
    plain = trumps & TRUMP_PLAIN[trump]
    if plain != 0:
        return lowest(plain)
    if (trumps >> LEFT[trump]) & 1:
        return LEFT[trump]
    if (trumps >> RIGHT[trump]) & 1:
        return RIGHT[trump]
    return lowest(trumps)  # the joker


@kernel
def strongest_trump(trumps, trump):
    """The trump of most power in non-empty ``trumps`` (joker, right, left, then A K Q T 9)."""
    if (trumps >> 24) & 1:
        return 24
    if (trumps >> RIGHT[trump]) & 1:
        return RIGHT[trump]
    if (trumps >> LEFT[trump]) & 1:
        return LEFT[trump]
    return highest(trumps)


@kernel
def least_value(mask, trump):
    """Card of least value in non-empty ``mask``: the lowest-ranked non-trump (ties: lowest suit), else the weakest trump."""
    plain = mask & ~SUIT_MASK[trump, trump]
    if plain != 0:
        for r in range(6):
            m = plain & RANK_MASK[r]
            if m != 0:
                return lowest(m)
    return weakest_trump(mask, trump)


@kernel
def choose_lead(hand, trump, played, is_maker, lead_min):
    """Lead: the maker's top trump when holding ``lead_min`` or more, else a sure winner of least value, else least value."""
    trumps = hand & SUIT_MASK[trump, trump]
    if is_maker and trumps != 0 and popcount(trumps) >= lead_min:
        return strongest_trump(trumps, trump)
    unseen = DECK24 & ~hand & ~played
    sure = np.int64(0)
    m = hand
    while m != 0:
        c = lowest(m)
        m &= m - 1
        if HIGHER[trump, c] & unseen == 0:
            sure |= np.int64(1) << c
    if sure != 0:
        return least_value(sure, trump)
    return least_value(hand, trump)


@kernel
def choose_follow(legal, trump, led, winning):
    """Follow: the cheapest ``legal`` card that beats the ``winning`` card so far, else the one of least value.

    Cards that can beat it are all of one effective suit (the led suit, or
    trump when void), so the cheapest is the weakest trump or the lowest card.
    """
    winners = legal & BEATS[trump, led, winning]
    if winners != 0:
        if winners & SUIT_MASK[trump, trump]:
            return weakest_trump(winners, trump)
        return lowest(winners)
    return least_value(legal, trump)
