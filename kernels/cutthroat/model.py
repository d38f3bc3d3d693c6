"""Cutthroat's model of the other players' calls: the weight of a drawn deal given the passes before the turn.

Every call before a turn is a pass (any other call ends the auction), so the
observed decisions are, in order: round one's order (position 1), assist
(position 2) and take (position 3, the dealer), then round two's naming by
position 1 and 2. The dealer's exchange and going alone only happen after a
call that ends the auction, so they are never observed before a turn.

Each decision of a seat playing the strategy gets, for every legal choice, a
distance: how far the strategy's own statistic for that decision (the trick
estimate of the up-card's suit for order and assist; the estimate of the best
five of the six cards with the up-card for take; each allowed suit's
estimate for naming) is from the range where the strategy makes that choice.
The strategy's own choice has distance 0. With threshold ``t`` ("accept when
est >= t"): pass ``est - t + TIE`` when ``est >= t`` else 0; accept ``t -
est`` when ``est < t`` else 0. ``TIE`` is the width of the strict side of a
comparison, so with ``tau`` 0 the model reproduces the strategy exactly, also
at ``est == t``. Round two, with ``b`` the best allowed suit's estimate: pass
``b - t + TIE`` when ``b >= t`` else 0; naming suit ``s`` the rise of ``est_s``
the strategy would need to name ``s``: ``max(0, t - est_s, est_o - est_s`` for
each other allowed suit ``o`` above ``s`` in order, ``est_o - est_s + TIE`` for
each below it (the strategy names the lowest of tied suits)). The
probability is ``bower.kernels.advice.choice_probability`` of these distances; a
seat playing the random preset chooses uniformly among the legal calls. The
player's own decisions (its round-one pass, when the turn is in round two)
are known and weigh nothing.
"""

import numpy as np

from bower.kernels.advice import choice_probability
from bower.kernels.cutthroat.codes import C_STICK, C_TURNED_DOWN_OK
from bower.kernels.cutthroat.strategy import (
    Q_ASSIST,
    Q_NAME,
    Q_ORDER,
    Q_RANDOM,
    Q_TAKE,
    Q_VOID,
    best_exchange,
)
from bower.kernels.estimate import estimate
from bower.kernels.jit import kernel

TIE = 1e-3  # the distance of a choice the strategy misses by a tie only (the strict side of ``>=``), in tricks
R1_PASS, R1_ACCEPT = 0, 1  # round one's choices, in choice order


@kernel(inline="always")
def _threshold_dists(e, t, dist):
    """``dist[0]`` (pass) and ``dist[1]`` (accept) for the rule "accept when ``e >= t``"."""
    dist[0] = e - t + TIE if e >= t else 0.0
    dist[1] = 0.0 if e >= t else t - e


@kernel
def round_one_dists(hand, up, position, wt, params, seat, dist):
    """Fill ``dist[:2]`` (pass, accept) for ``seat`` at ``position`` (1 order, 2 assist, 3 take) of round one; returns 2."""
    u = up // 6
    if position == 3:
        _, e = best_exchange(hand, up, u, wt, seat, params[seat, Q_VOID])
        t = params[seat, Q_TAKE]
    else:
        e = estimate(hand, u, wt, seat, params[seat, Q_VOID])
        t = params[seat, Q_ORDER] if position == 1 else params[seat, Q_ASSIST]
    _threshold_dists(e, t, dist)
    return 2


@kernel
def round_two_dists(hand, up, stuck, rules, wt, params, seat, dist):
    """Fill ``dist[:n]`` for a round-two turn: pass first (unless ``stuck``), then each allowed suit ascending; returns n."""
    u = up // 6
    t = params[seat, Q_NAME]
    est = np.zeros(4)
    ok = np.zeros(4, np.bool_)
    best = -np.inf
    for s in range(4):
        ok[s] = s != u or rules[C_TURNED_DOWN_OK] == 1
        if ok[s]:
            est[s] = estimate(hand, s, wt, seat, params[seat, Q_VOID])
            if est[s] > best:
                best = est[s]
    n = 0
    if not stuck:
        dist[0] = best - t + TIE if best >= t else 0.0
        n = 1
    for s in range(4):
        if not ok[s]:
            continue
        d = 0.0 if stuck else max(0.0, t - est[s])
        for o in range(4):
            if ok[o] and o != s:
                gap = est[o] - est[s] + (TIE if o < s else 0.0)
                if gap > d:
                    d = gap
        dist[n] = d
        n += 1
    return n


@kernel
def pass_weight(hands, up, dealer, me, n_passes, rules, params, wt, tau, eps, dist):
    """The model's probability that the other seats made the ``n_passes`` passes before ``me``'s turn on ``hands``.

    ``hands`` by seat as dealt; ``dealer``'s left is position 1. Pass is
    choice 0 at every decision. ``dist`` is float64 scratch of length 5 or more.
    """
    w = 1.0
    for i in range(n_passes):
        p = i % 3 + 1
        seat = (dealer + p) % 3
        if seat == me:
            continue
        if i < 3:
            n = round_one_dists(hands[seat], up, p, wt, params, seat, dist)
        else:
            n = round_two_dists(hands[seat], up, p == 3 and rules[C_STICK] == 1, rules, wt, params, seat, dist)
        if params[seat, Q_RANDOM] >= 0.5:
            w *= 1.0 / n
        else:
            w *= choice_probability(dist, n, np.int64(0), tau, eps)
    return w


@kernel
def decision_probabilities(hand, up, round_, position, rules, params, wt, seat, tau, eps, out):
    """The model's probability of every legal choice of one decision (``out[:n]``, pass first); returns n.

    For tests and the documentation: round one (``round_`` 1) at ``position``,
    or round two. A random seat is uniform.
    """
    dist = np.zeros(5)
    if round_ == 1:
        n = round_one_dists(hand, up, position, wt, params, seat, dist)
    else:
        n = round_two_dists(hand, up, position == 3 and rules[C_STICK] == 1, rules, wt, params, seat, dist)
    for i in range(n):
        out[i] = 1.0 / n if params[seat, Q_RANDOM] >= 0.5 else choice_probability(dist, n, i, tau, eps)
    return n
