"""Hasenpfeffer's model of the other players' calls: each observed call's probability on a drawn deal.

The strategy's bidding statistic is the partnership estimate ``est`` = the
best suit's estimate of the six cards (``best_estimate``) + ``partner_help``;
level L's threshold is ``th(L) = L + cushion`` (pepper: big pepper,
level 7, at ``max(6 + cushion, big_pepper_min)``). The strategy bids when its
level reaches ``L_min``, the least level that beats the standing bid (by
``support_margin`` more over the partner's bid), i.e. when ``est >= th_b =
th(L_min)``; it then bids its level (``bid_jump``) or the least bid. So each
legal call has a range of ``est`` where the strategy makes it, and its
distance is how far ``est`` lies outside that range:

- pass: ``[-inf, th_b)``: ``est - th_b`` when ``est >= th_b``;
- with ``bid_jump``, bid L: ``[max(th(L), th_b), th(L + 1))`` (the top level
  open-ended); a level under ``L_min`` (the support margin rules it out) has
  an empty range and gets the distance to ``th_b`` or past ``th(L + 1)``;
- without ``bid_jump``, the least bid: ``[th_b, inf)``; a jump to L (never
  made) as if the strategy jumped, plus ``JUMP_PENALTY`` tricks;
- every distance outside a range is at least ``BOUNDARY`` (an estimate exactly
  on a threshold is on the side the strategy's ``>=`` puts it): the
  strategy's own call alone is at distance 0, so tau -> 0 and epsilon 0 is
  the exact rejection.

A ``random`` seat calls uniformly among the legal calls. The player's own
calls carry no weight (their cards are known). The joker holder's forced 3
after four passes is not a choice and ends the auction, so it never comes
before a turn: it carries no weight (in play-outs it goes to the deal's
joker holder). With ``support_margin`` so large that no level is open over
the partner's bid, the strategy always passes there (distance 0) and a bid
gets the distance to ``th_b`` extrapolated one trick per level past the top
(plus ``BOUNDARY``).
"""

import numpy as np

from bower.kernels.advice import M_EPS, M_TAU, choice_probability
from bower.kernels.hasenpfeffer.codes import H_PEPPER
from bower.kernels.hasenpfeffer.strategy import (
    BIG_PEPPER,
    JOKER,
    N_SEATS,
    P_BIG_PEPPER,
    P_CUSHION,
    P_JUMP,
    P_PARTNER,
    P_SUPPORT,
    P_VOID,
    best_estimate,
    card_weights,
    is_random,
)
from bower.kernels.jit import kernel

BOUNDARY = 1e-3  # tricks: the least distance of a call the strategy does not make
JUMP_PENALTY = 1.0  # tricks: added to a jump by a strategy that never jumps (``bid_jump`` 0)
MAX_CHOICES = 8  # pass and the levels 1..7


@kernel(inline="always")
def _thr(level, top, pepper, params, seat):
    """``th`` without recursion (numba): past the top, the top's threshold plus a trick a level."""
    c = params[seat, P_CUSHION]
    if level > top:
        base = max(6 + c, params[seat, P_BIG_PEPPER]) if pepper else top + c
        return base + (level - top)
    if pepper and level == BIG_PEPPER:
        return max(6 + c, params[seat, P_BIG_PEPPER])
    return level + c


@kernel(inline="always")
def _shortfall(est, a):
    return 0.0 if est >= a else a - est + BOUNDARY


@kernel(inline="always")
def _excess(est, b):
    return 0.0 if est < b else est - b + BOUNDARY


@kernel(inline="always")
def partnership_estimate(hand, seat, params, wt):
    """The strategy's bidding statistic: the best suit's estimate plus ``partner_help`` (as ``target_level``)."""
    return best_estimate(hand, seat, wt, params[seat, P_VOID]) + params[seat, P_PARTNER]


@kernel(inline="always")
def call_distances(est, seat, high, margin, pepper, params, dist):
    """``dist[0]`` pass, ``dist[i]`` bid ``high + i``: how far ``est`` is from each call's range; returns n legal."""
    top = BIG_PEPPER if pepper else 6
    n = 1 + top - high
    lreq = high + 1
    while lreq < (high + 1) + margin and lreq < high + 64:  # the kernel's test: level >= (high + 1) + margin
        lreq += 1
    th_b = _thr(lreq, top, pepper, params, seat)
    never = lreq > top  # the support margin leaves no level open: the strategy always passes
    dist[0] = 0.0 if never else _excess(est, th_b)
    jump = params[seat, P_JUMP] >= 0.5
    for i in range(1, n):
        lv = high + i
        lo = max(_thr(lv, top, pepper, params, seat), th_b)
        hi = _thr(lv + 1, top, pepper, params, seat) if lv < top else np.inf
        if jump:
            d = _shortfall(est, lo) + _excess(est, hi)
        elif i == 1:
            d = _shortfall(est, th_b)
        else:
            d = _shortfall(est, lo) + _excess(est, hi) + JUMP_PENALTY
        dist[i] = d + BOUNDARY if never else d
    return n


@kernel(inline="always")
def call_probability(est, seat, high, margin, pepper, params, call, model, dist):
    """The model's probability that ``seat`` (estimate ``est``) makes ``call`` (0 pass) over ``high``."""
    top = BIG_PEPPER if pepper else 6
    n = 1 + top - high
    chosen = 0 if call == 0 else call - high
    if is_random(params, seat):
        return 1.0 / n
    call_distances(est, seat, high, margin, pepper, params, dist)
    return choice_probability(dist, n, chosen, model[M_TAU], model[M_EPS])


@kernel
def auction_weight(dealt, player, prefix, rules, params, wt, model, est, dist):
    """A drawn deal's weight: the product over the other seats' calls in ``prefix`` (k, 2) of their probabilities.

    ``est`` (4) receives each seat's partnership estimate.
    """
    pepper = rules[H_PEPPER] == 1
    for s in range(N_SEATS):
        est[s] = partnership_estimate(dealt[s], s, params, wt)
    high = 0
    bidder = -1
    w = 1.0
    for i in range(prefix.shape[0]):
        s = prefix[i, 0]
        call = prefix[i, 1]
        if s != player:
            margin = params[s, P_SUPPORT] if bidder >= 0 and bidder == (s + 2) % 4 else 0.0
            w *= call_probability(est[s], s, high, margin, pepper, params, call, model, dist)
            if w <= 0.0:
                return 0.0
        if call != 0:
            high = call
            bidder = s
    return w


@kernel(inline="always")
def features(hand, seat, params, wt):
    """The inference features of a seat's hand: its best suit's estimate (no partner help), whether it holds the joker."""
    return best_estimate(hand, seat, wt, params[seat, P_VOID]), 1.0 if (hand >> JOKER) & 1 else 0.0


@kernel
def decision_probabilities(hand, seat, high, bidder, rules, params, model, out):
    """Every legal call's probability (``out[0]`` pass, ``out[i]`` bid ``high + i``) for ``seat`` holding ``hand``.

    ``bidder`` holds the standing bid (-1: none). Returns the number of legal calls (tests: they sum to 1).
    """
    wt = np.zeros((params.shape[0], 4, 25), np.float64)
    card_weights(params, wt)
    pepper = rules[H_PEPPER] == 1
    top = BIG_PEPPER if pepper else 6
    n = 1 + top - high
    dist = np.zeros(MAX_CHOICES, np.float64)
    est = partnership_estimate(hand, seat, params, wt)
    margin = params[seat, P_SUPPORT] if bidder >= 0 and bidder == (seat + 2) % 4 else 0.0
    for i in range(n):
        out[i] = call_probability(est, seat, high, margin, pepper, params, 0 if i == 0 else high + i, model, dist)
    return n


@kernel
def decision_distances(hand, seat, high, bidder, rules, params, out):
    """The distances of every legal call (as ``decision_probabilities``); returns the strategy's estimate."""
    wt = np.zeros((params.shape[0], 4, 25), np.float64)
    card_weights(params, wt)
    pepper = rules[H_PEPPER] == 1
    est = partnership_estimate(hand, seat, params, wt)
    margin = params[seat, P_SUPPORT] if bidder >= 0 and bidder == (seat + 2) % 4 else 0.0
    call_distances(est, seat, high, margin, pepper, params, out)
    return est
