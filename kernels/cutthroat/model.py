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

The PIMC player's inference (``world_weight``, ``pimc_infer``) weighs the
whole auction of a deal as dealt with the same distances, and the decisions
after the calls: the dealer's exchange and the maker's merge as the
strategy's own choice with the tremble (``(1 - eps) [its choice] + eps /
n``), going alone (maker and defenders) by the threshold distances.
"""

import numpy as np

from bower.kernels.advice import choice_probability
from bower.kernels.cutthroat.codes import C_MAKER_ALONE, C_PICKUP_MANDATORY, C_STICK, C_TURNED_DOWN_OK
from bower.kernels.cutthroat.strategy import (
    Q_ALONE,
    Q_ASSIST,
    Q_DEF_ALONE,
    Q_NAME,
    Q_ORDER,
    Q_RANDOM,
    Q_TAKE,
    Q_VOID,
    best_exchange,
    best_keep,
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
    return round_two_into(hand, up, stuck, rules, wt, params, seat, dist, np.zeros(4))


@kernel
def round_two_into(hand, up, stuck, rules, wt, params, seat, dist, est):
    """``round_two_dists`` with the suits' estimates kept in ``est`` (float64[4] scratch): it never allocates."""
    u = up // 6
    t = params[seat, Q_NAME]
    best = -np.inf
    for s in range(4):
        if s != u or rules[C_TURNED_DOWN_OK] == 1:
            est[s] = estimate(hand, s, wt, seat, params[seat, Q_VOID])
            if est[s] > best:
                best = est[s]
    n = 0
    if not stuck:
        dist[0] = best - t + TIE if best >= t else 0.0
        n = 1
    for s in range(4):
        if not (s != u or rules[C_TURNED_DOWN_OK] == 1):
            continue
        d = 0.0 if stuck else max(0.0, t - est[s])
        for o in range(4):
            if (o != u or rules[C_TURNED_DOWN_OK] == 1) and o != s:
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


N_KEEPS = 252  # the maker's possible keeps: 5 of its 10 cards


@kernel
def world_weight(dealt, dummy, up, dealer, me, calls, n_calls, disc_seen, disc, alone_seen, alone, keep_seen, kept,
                 rules, params, wt, order, tau, eps, pw, pm, dist):
    """The PIMC player's weight of one deal as dealt (``pimc_infer``): the model's probability of the other seats'
    observed decisions on it.

    ``dealt`` (by seat, int64[3]) and ``dummy`` as dealt, ``up`` the
    up-card; ``calls[2i], calls[2i + 1]``: the first ``n_calls`` calls
    (seat, code: 0 pass, 1 accept, 2 + suit), each weighed as in
    ``pass_weight`` (the accepting or naming call too). With ``disc_seen``
    the dealer's exchange after a round-one call (``disc``: the card it
    laid down, -1 none) gets ``(1 - eps) [the strategy's exchange] + eps /
    n`` (n: 6 choices, 5 with ``dealer_pickup = mandatory``); with
    ``alone_seen`` (a count) the first ``alone_seen`` going-alone decisions,
    in their order: the maker's, then each defender's, asked from the
    maker's left until one goes (3: all of them; 1: the maker's only, for
    the first defender's own decision; 2: also the first defender's, for
    the second's), with ``alone`` the bit per seat of those who went, by
    the threshold distances of ``round_one_dists`` against ``alone_min`` and
    ``defend_alone_min``; with ``keep_seen`` the maker's merge (``kept``:
    the five it holds after it) ``(1 - eps) [the strategy's keep] + eps /
    252``. Seat ``me``'s own decisions weigh nothing; a random seat is
    uniform. With ``tau`` 0 and ``eps`` 0 the weight is 1 exactly when the
    strategies make every observed decision, else 0. ``pw``, ``pm`` (4, 8)
    and ``dist`` (12+) are scratch; it never allocates.
    """
    u = up // 6
    w = 1.0
    maker = -1
    trump = -1
    for i in range(n_calls):
        seat = calls[2 * i]
        code = calls[2 * i + 1]
        p = i % 3 + 1
        if code != 0:
            maker = seat
            trump = u if i < 3 else code - 2
        if seat == me:
            continue
        if i < 3:
            n = round_one_dists(dealt[seat], up, p, wt, params, seat, dist)
            choice = code
        else:
            stuck = p == 3 and rules[C_STICK] == 1
            n = round_two_into(dealt[seat], up, stuck, rules, wt, params, seat, dist, dist[8:12])
            choice = 0
            if code != 0:
                choice = 0 if stuck else 1
                for o in range(code - 2):
                    if o != u or rules[C_TURNED_DOWN_OK] == 1:
                        choice += 1
        if params[seat, Q_RANDOM] >= 0.5:
            w *= 1.0 / n
        else:
            w *= choice_probability(dist, n, np.int64(choice), tau, eps)
    if maker < 0:
        return w
    h0, h1, h2 = dealt[0], dealt[1], dealt[2]
    if disc_seen and trump == u and n_calls <= 3:
        hand = dealt[dealer]
        if dealer != me:
            mandatory = rules[C_PICKUP_MANDATORY] == 1
            n = 5 if mandatory else 6
            if params[dealer, Q_RANDOM] >= 0.5:
                w *= 1.0 / n
            else:
                vw = params[dealer, Q_VOID]
                d, e = best_exchange(hand, up, u, wt, dealer, vw)
                mine = d if (mandatory or e > estimate(hand, u, wt, dealer, vw)) else -1
                w *= (1.0 - eps) * (1.0 if mine == disc else 0.0) + eps / n
        if disc >= 0:
            hand = (hand & ~(np.int64(1) << disc)) | (np.int64(1) << up)
            h0 = hand if dealer == 0 else h0
            h1 = hand if dealer == 1 else h1
            h2 = hand if dealer == 2 else h2
    maker_alone = (alone >> maker) & 1 == 1
    if alone_seen >= 1:
        if rules[C_MAKER_ALONE] == 1 and maker != me:
            if params[maker, Q_RANDOM] >= 0.5:
                w *= 0.5
            else:
                hm = h0 if maker == 0 else (h1 if maker == 1 else h2)
                _threshold_dists(estimate(hm, trump, wt, maker, params[maker, Q_VOID]), params[maker, Q_ALONE], dist)
                w *= choice_probability(dist, np.int64(2), np.int64(1 if maker_alone else 0), tau, eps)
        for k in range(1, min(alone_seen, 3)):
            d = (maker + k) % 3
            went = (alone >> d) & 1 == 1
            if d != me:
                if params[d, Q_RANDOM] >= 0.5:
                    w *= 0.5
                else:
                    hd = h0 if d == 0 else (h1 if d == 1 else h2)
                    _threshold_dists(estimate(hd, trump, wt, d, params[d, Q_VOID]), params[d, Q_DEF_ALONE], dist)
                    w *= choice_probability(dist, np.int64(2), np.int64(1 if went else 0), tau, eps)
            if went:
                break
    if keep_seen and maker != me and not maker_alone:
        if params[maker, Q_RANDOM] >= 0.5:
            w *= 1.0 / N_KEEPS
        else:
            hm = h0 if maker == 0 else (h1 if maker == 1 else h2)
            mine = best_keep(hm | dummy, trump, wt, order, maker, params[maker, Q_VOID], pw, pm)
            w *= (1.0 - eps) * (1.0 if mine == kept else 0.0) + eps / N_KEEPS
    return w
