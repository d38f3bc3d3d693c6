"""Standard Euchre: the auction model of the other players (should-bid, issue 14).

For one drawn deal, ``deal_weight`` walks the calls before the player's turn
(all passes: any other call ends the Euchre auction) and returns the deal's
weight, the product over the other seats' observed passes of
``bower.kernels.advice.choice_probability(dist, n, 0, tau, eps)``. ``dist[i]`` is
how far the seat's own decision statistic (SPEC.md, "The auction", under that
seat's strategy row) is from the range in which the strategy would make legal
choice ``i``:

- Round one (choices: 0 pass, 1 order). The statistic ``x`` and threshold
  ``t``: positions 1 and 3 ``E(hand, u) - up_weight * w_up`` against
  ``order_min_p``; position 2 ``E(hand, u) + up_weight * w_up`` against
  ``order_min_2``; the dealer ``best_discard(hand | up, up, u)[1]`` against
  ``take_min`` (under rule ``discard_up``, ``any_discard`` below, the best
  five of all six: ``best_discard(hand | up, -1, u)[1]``, as the strategy's
  ``order_estimate``). The strategy orders when ``x >= t``, so the distance of the
  order is ``max(0, t - x)`` and of the pass ``x - t + TIE_STEP`` when
  ``x >= t`` (0 otherwise): ``TIE_STEP`` (2**-13, below the 2**-12 grid of
  the estimates) makes a hand exactly at the threshold, which orders, count
  as outside the pass range, so that a sharp model is the exact rule.
- Round two (choices: 0 pass, then the three suits other than the turned-down
  one in suit order). With ``E(s)`` the estimate of each allowed suit, ``e``
  the best and ``t`` = ``name_min_p``: the pass's distance is
  ``e - t + TIE_STEP`` when ``e >= t`` (0 otherwise); a suit ``x``'s is
  ``max(0, b - E(x))`` with ``b`` the least estimate at which the strategy
  would name ``x``: ``max(t, E(y) for allowed y > x, E(y) + TIE_STEP for
  allowed y < x)`` (ties go to the lowest suit). A stuck dealer's call is the
  last of the auction, so it is never observed before the player's turn.
- A seat playing the ``random`` preset: all distances 0 (uniform over the
  legal calls: 1/2 in round one, 1/4 in round two).

Going alone and the lone defender come after the auction's last call, so no
such decision is observed before the player's turn. The player's own earlier
pass (round two) is its own, not weighed.

Inference features of every seat (``deal_features``): 0, the trick estimate
``E(hand, u)`` of the up-card's suit under the seat's own strategy row (the
dealer's hand as dealt, before any pickup); 1, whether it holds the right
bower of the up-card's suit (1.0 or 0.0).
"""

import numpy as np

from bower.kernels.advice import M_EPS, M_TAU, choice_probability
from bower.kernels.bits import lowest
from bower.kernels.estimate import estimate
from bower.kernels.euchre.strategy import (
    Q_NAME,
    Q_ORDER,
    Q_TAKE,
    Q_UP,
    Q_VOID,
    best_discard,
    card_weights,
    is_random,
)
from bower.kernels.jit import kernel

N_SEATS = 4
TIE_STEP = 2.0 ** -13  # half the estimates' grid (2**-12): a statistic exactly at a threshold is on the call's side
RANK_JACK = 2


@kernel(inline="always")
def round_one_stat(hand, up, position, wt, params, seat, any_discard):
    """(statistic, threshold) of a strategic seat's round-one decision at ``position`` 1..4 (orders when >=);
    ``any_discard`` (rule ``discard_up``): the dealer's five may leave out the up-card itself."""
    u = up // 6
    vw = params[seat, Q_VOID]
    if position == 4:
        _, e = best_discard(hand | (np.int64(1) << up), -1 if any_discard else up, u, wt, seat, vw)
        return e, params[seat, Q_TAKE]
    e = estimate(hand, u, wt, seat, vw)
    w_up = params[seat, Q_UP] * wt[seat, u, up]
    if position == 2:
        return e + w_up, params[seat, Q_ORDER + 1]
    return e - w_up, params[seat, Q_ORDER + position - 1]


@kernel(inline="always")
def round_one_distances(hand, up, position, wt, params, seat, any_discard, dist):
    """``dist[0]`` (pass), ``dist[1]`` (order) of a seat's round-one decision; returns the number of choices, 2.
    ``any_discard``: rule ``discard_up`` (``round_one_stat``)."""
    if is_random(params, seat):
        dist[0] = 0.0
        dist[1] = 0.0
        return 2
    x, t = round_one_stat(hand, up, position, wt, params, seat, any_discard)
    dist[0] = x - t + TIE_STEP if x >= t else 0.0
    dist[1] = t - x if t > x else 0.0
    return 2


@kernel(inline="always")
def round_two_distances(hand, u, position, wt, params, seat, dist, est):
    """``dist[0]`` (pass), ``dist[1..3]`` (the suits other than ``u`` in order) of a non-stuck round-two decision.

    ``est``: float64[4] scratch. Returns the number of choices, 4.
    """
    if is_random(params, seat):
        for i in range(4):
            dist[i] = 0.0
        return 4
    vw = params[seat, Q_VOID]
    best = -1.0e300
    for s in range(4):
        if s != u:
            est[s] = estimate(hand, s, wt, seat, vw)
            best = max(best, est[s])
    t = params[seat, Q_NAME + position - 1]
    dist[0] = best - t + TIE_STEP if best >= t else 0.0
    i = 1
    for x in range(4):
        if x == u:
            continue
        b = t
        for y in range(4):
            if y == u or y == x:
                continue
            need = est[y] + TIE_STEP if y < x else est[y]
            b = max(b, need)
        dist[i] = b - est[x] if b > est[x] else 0.0
        i += 1
    return 4


@kernel(inline="always")
def decision_distances(hands, up, dealer, call_index, wt, params, any_discard, dist, est):
    """The distances of the decision at call ``call_index`` (0..6, every call before it a pass); returns n choices.
    ``any_discard``: rule ``discard_up``."""
    p = call_index % N_SEATS + 1
    seat = (dealer + p) & 3
    if call_index < N_SEATS:
        return round_one_distances(hands[seat], up, p, wt, params, seat, any_discard, dist)
    return round_two_distances(hands[seat], up // 6, p, wt, params, seat, dist, est)


@kernel
def deal_weight(hands, up, dealer, n_passes, player, wt, params, any_discard, model, dist, est):
    """The deal's weight: the product over the other seats' passes at calls ``0 .. n_passes - 1`` of the model's
    probability of that pass (choice 0). ``hands`` by seat (as dealt); ``any_discard``: rule ``discard_up`` (the
    dealer's take weighs its best five of six); ``model`` the ``M_*`` vector (softmax); ``dist``, ``est``:
    float64[4] scratch."""
    w = 1.0
    tau = model[M_TAU]
    eps = model[M_EPS]
    for i in range(n_passes):
        seat = (dealer + i % N_SEATS + 1) & 3
        if seat == player:
            continue
        n = decision_distances(hands, up, dealer, i, wt, params, any_discard, dist, est)
        w *= choice_probability(dist, n, np.int64(0), tau, eps)
        if w == 0.0:
            return 0.0
    return w


@kernel(inline="always")
def deal_features(hand, up, wt, params, seat):
    """(E(hand, u) under ``seat``'s strategy, 1.0 if ``hand`` holds the right bower of ``u`` else 0.0)."""
    u = up // 6
    e = estimate(hand, u, wt, seat, params[seat, Q_VOID])
    rb = 1.0 if (hand >> (u * 6 + RANK_JACK)) & 1 else 0.0
    return e, rb


@kernel
def call_probabilities(hands, up, dealer, call_index, params, any_discard, model, out):
    """Every legal choice's probability at call ``call_index`` (the tests: they sum to 1); returns n choices.
    ``any_discard``: rule ``discard_up``.

    ``out[i]`` for choice ``i`` (0 pass, 1 order; round two 1..3 the suits other than the up-card's in order).
    """
    wt = np.zeros((N_SEATS, 4, 24), np.float64)
    card_weights(params, wt)
    dist = np.zeros(4, np.float64)
    est = np.zeros(4, np.float64)
    n = decision_distances(hands, up, dealer, call_index, wt, params, any_discard, dist, est)
    for i in range(n):
        out[i] = choice_probability(dist, n, i, model[M_TAU], model[M_EPS])
    return n


@kernel
def weight_of(hands, up, dealer, n_passes, player, params, any_discard, model):
    """``deal_weight`` with its own scratch (the tests)."""
    wt = np.zeros((N_SEATS, 4, 24), np.float64)
    card_weights(params, wt)
    dist = np.zeros(4, np.float64)
    est = np.zeros(4, np.float64)
    return deal_weight(hands, up, dealer, n_passes, player, wt, params, any_discard, model, dist, est)


# ---------------------------------------------------------------- the PIMC player's inference (``pimc_infer``)

CALL_PASS, CALL_ORDER, CALL_SUIT = 0, 1, 2  # the record's call codes (``hand.CALL_*``)
HAND_SIZE = 5


@kernel(inline="always")
def stuck_distances(hand, u, wt, params, seat, dist, est):
    """``dist[0..2]`` (the suits other than ``u`` in order) of a stuck dealer's round-two call; returns 3.

    The strategy names its best suit (ties: the lowest), whatever its
    estimate: a suit ``x``'s distance is ``max(0, b - E(x))`` with ``b`` =
    ``max(E(y) for allowed y > x, E(y) + TIE_STEP for allowed y < x)``.
    ``est``: float64[4] scratch.
    """
    if is_random(params, seat):
        for i in range(3):
            dist[i] = 0.0
        return 3
    vw = params[seat, Q_VOID]
    for s in range(4):
        if s != u:
            est[s] = estimate(hand, s, wt, seat, vw)
    i = 0
    for x in range(4):
        if x == u:
            continue
        b = -1.0e300
        for y in range(4):
            if y == u or y == x:
                continue
            need = est[y] + TIE_STEP if y < x else est[y]
            b = max(b, need)
        dist[i] = b - est[x] if b > est[x] else 0.0
        i += 1
    return 3


@kernel
def call_probability(dealt, up, dealer, i, code, stick, any_discard, wt, params, tau, eps, dist, est):
    """The model's probability of call ``code`` (the record's code) at call index ``i`` (every call before it a
    pass), the seat holding ``dealt`` (as dealt); ``stick``: the ``E_STICK`` code; ``any_discard``: rule
    ``discard_up``."""
    p = i % N_SEATS + 1
    seat = (dealer + p) & 3
    u = up // 6
    if i < N_SEATS:
        n = round_one_distances(dealt, up, p, wt, params, seat, any_discard, dist)
        return choice_probability(dist, n, np.int64(1 if code == CALL_ORDER else 0), tau, eps)
    if i == 2 * N_SEATS - 1 and stick == 1:
        n = stuck_distances(dealt, u, wt, params, seat, dist, est)
        s = code - CALL_SUIT
        return choice_probability(dist, n, np.int64(s - (1 if s > u else 0)), tau, eps)
    n = round_two_distances(dealt, u, p, wt, params, seat, dist, est)
    if code == CALL_PASS:
        return choice_probability(dist, n, np.int64(0), tau, eps)
    s = code - CALL_SUIT
    return choice_probability(dist, n, np.int64(1 + s - (1 if s > u else 0)), tau, eps)


@kernel(inline="always")
def discard_probability(six, d, up, wt, params, seat, any_discard, eps):
    """The model's probability that the dealer ``seat`` holding ``six`` (its hand and the up-card) discards ``d``:
    ``(1 - eps) [d is its strategy's discard] + eps / n`` (a random dealer: ``1 / n``), ``n`` the cards it may
    discard: 5, or 6 under rule ``discard_up`` (``any_discard``: the up-card too)."""
    n = HAND_SIZE + 1 if any_discard else HAND_SIZE
    if is_random(params, seat):
        return 1.0 / n
    bd, _ = best_discard(six, -1 if any_discard else up, up // 6, wt, seat, params[seat, Q_VOID])
    return (1.0 - eps) * (1.0 if bd == d else 0.0) + eps / n


@kernel
def world_weight(held, pile, up, dealer, calls, off, n_calls, exchanged, player, stick, any_discard, wt, params, tau,
                 eps, dist, est):
    """The PIMC player's weight of one world (``pimc_infer``): the model's probability of the auction on it.

    ``held`` (int64[4] by seat): each seat's hand in the world before the
    first lead (the dealer's after its exchange when ``exchanged``);
    ``pile``: the world's cards out of play and unseen to the player (the
    kitty's face-down cards, and the discard when the player is not the
    dealer); ``calls[off:off + 2 n_calls]``: the calls (seat, code) so far.
    The weight is the product, over the calls of the seats other than
    ``player``, of ``call_probability`` on the hands as dealt. After an
    exchange seen from another seat, the dealer's hand as dealt is not in
    the world (its discard is one of the pile's cards): each card ``d`` of
    the pile is tried as the discard, with the factor ``discard_probability``
    (and, when the dealer took the up-card itself, the probability of that
    order on the hand it was dealt, ``held - up + d``), and the best is
    taken. Under rule ``discard_up`` (``any_discard``) the dealer may have
    buried the up-card: a world with the up-card in the pile (not in the
    dealer's hand) stands for that one deal and discard (the dealer's hand
    as dealt is ``held``), one with the up-card in the dealer's hand for one
    deal per card of the pile, so the factors of its deals are summed (not
    the best taken), each discard weighed by the strategy's choice among all
    six cards: the worlds then weigh the up-card buried or kept as often as
    the dealer's strategy does it (a random dealer: 1 in 6). So with the
    model sharp (``tau`` 0, ``eps`` 0) the weight is 1 exactly when, on one
    of the deals the world stands for, every seat's strategy would have made
    these calls (and the dealer its discard), else 0 (under ``discard_up``:
    the number of such deals). ``stick``: the ``E_STICK`` code. ``dist``,
    ``est``: float64[4] scratch.
    """
    w = 1.0
    amb = exchanged and dealer != player
    for i in range(n_calls):
        seat = calls[off + 2 * i]
        if seat == player or (amb and seat == dealer):
            continue
        w *= call_probability(held[seat], up, dealer, i, calls[off + 2 * i + 1], stick, any_discard, wt, params, tau,
                              eps, dist, est)
        if w == 0.0:
            return 0.0
    if amb:
        up_bit = np.int64(1) << up
        took = n_calls == N_SEATS and calls[off + 2 * (N_SEATS - 1)] == dealer
        best = 0.0
        m = pile
        if (pile & up_bit) != 0:  # buried (rule discard_up): the up-card is the discard
            m = up_bit
        while m != 0:
            c = lowest(m)
            m &= m - 1
            six = held[dealer] | (np.int64(1) << c)
            f = discard_probability(six, c, up, wt, params, dealer, any_discard, eps)
            if any_discard:  # every deal the world stands for: their factors summed
                if f > 0.0 and took:
                    f *= call_probability(six & ~up_bit, up, dealer, np.int64(N_SEATS - 1), np.int64(CALL_ORDER),
                                          stick, any_discard, wt, params, tau, eps, dist, est)
                best += f
                continue
            if f > best and took:
                f *= call_probability(six & ~up_bit, up, dealer, np.int64(N_SEATS - 1), np.int64(CALL_ORDER), stick,
                                      any_discard, wt, params, tau, eps, dist, est)
            best = max(best, f)
        w *= best
    return w
