"""Ghost Hand's model of the other players (should-bid): how likely each observed swap and call is on a drawn deal.

The other players are modelled as the strategy with noise: at each decision,
legal choice ``i`` gets a *distance* ``dist[i]``, how far the strategy's own
decision statistic is from the range that would make the strategy choose
``i`` (0 for the strategy's own choice), and the model's probability is
``bower.kernels.advice.choice_probability`` (a softmax over ``-dist / tau`` mixed
with a tremble ``eps``). The decisions and their statistics:

- **Swap** (at a player's first turn, while the ghost is there): the best
  trick estimate ``be`` of the hand held (no score shift: the strategy swaps
  when ``be < swap_below``). Keep: ``max(0, swap_below - be)``; swap:
  ``be - swap_below + DELTA`` when ``be >= swap_below``, else 0.
- **Call** (each turn, with the hand held after any swap; every lap of
  ``until_passes``; pass not legal for a stuck dealer): ``x = be - shift``,
  the estimate after the strategy's score shift (``shift_of``). The strategy's
  call ``call_of(x, ...)`` is piecewise constant in ``x`` with breaks at
  ``bid_3, bid_4, bid_5, bid_moon``; ``dist[i]`` is the distance from ``x`` to
  the set of ``x`` where ``call_of`` gives call ``i`` (a union of half-open
  intervals ``[lo, hi)``: ``lo - x`` below one, ``x - hi + DELTA`` above it). A
  call the strategy never makes (a jump bid when ``bid_jump`` is off) gets its
  distance as if ``bid_jump`` were on, at least ``DELTA`` (so a hand at the
  jump's level finds the jump about as likely as the least bid under the
  default tau, and the sharp model still never jumps); one it cannot make
  even then gets ``|x - threshold of its level| + DELTA``.
- ``DELTA`` (half a weight step, ``2**-13`` trick): estimates move in steps of
  ``WEIGHT_STEP``, so an estimate exactly at a threshold (which the strategy
  reads as ``>=``) is half a step inside its own range; the other side then has
  a positive distance, and the sharp model (``tau -> 0``, ``eps = 0``) is the
  strategy's exact choice, ties included.
- A seat playing the ``random`` preset: uniform over the legal choices (its
  own policy, with no tremble).

The player's own earlier calls (second lap of ``until_passes``) are given,
not modelled (factor 1). ``deal_weight`` also leaves, per seat, the two
inference features: the best trick estimate of the hand the seat holds
(after any swap) and whether that hand holds the right bower of its best
suit. The play-outs impose the observed calls and swap through
``hand.auction_core``'s ``force`` (``F_GIVEN``).
"""

import numpy as np

from bower.kernels.advice import choice_probability
from bower.kernels.ghost.strategy import (
    P_BID3,
    P_BID4,
    P_BID5,
    P_JUMP,
    P_MOON,
    P_NEAR,
    P_RANDOM,
    P_SHIFT_OPP,
    P_SHIFT_SELF,
    P_SWAP_BELOW,
    best_of_row,
    call_of,
    shift_of,
)
from bower.kernels.jit import kernel

DELTA = 2.0**-13  # half a weight step (``bower.kernels.estimate.WEIGHT_STEP``): see the module docstring
MOON = 6
MAX_CHOICES = 5  # pass, 3, 4, 5, moon
N_FEATURES = 2
FEATURE_NAMES = ("best_estimate", "right_bower")
SEAT_ROWS = (np.int64(0), np.int64(1), np.int64(2))


@kernel
def _range_dist(c, x, standing, forced, moon, bid5, bid4, bid3, jump):
    """Distance from ``x`` to the set where ``call_of`` gives ``c`` (``inf`` if it never does)."""
    if call_of(x, standing, forced, moon, bid5, bid4, bid3, jump) == c:
        return 0.0
    best = np.inf
    for k in range(4):
        b = moon if k == 0 else (bid5 if k == 1 else (bid4 if k == 2 else bid3))
        if call_of(b, standing, forced, moon, bid5, bid4, bid3, jump) == c:  # b opens an interval of c
            d = abs(x - b)
            best = min(best, d)
        bm = np.nextafter(b, -np.inf)
        if call_of(bm, standing, forced, moon, bid5, bid4, bid3, jump) == c:  # b closes an interval of c
            d = (x - b + DELTA) if x >= b else (b - x)
            best = min(best, d)
    return best


@kernel
def call_distance(c, x, standing, forced, moon, bid5, bid4, bid3, jump):
    """The model's distance of legal call ``c`` for the shifted estimate ``x`` (module docstring)."""
    d = _range_dist(c, x, standing, forced, moon, bid5, bid4, bid3, jump)
    if d == np.inf and jump < 0.5:  # a jump the strategy never makes: as if it did, never quite its own choice
        d = max(_range_dist(c, x, standing, forced, moon, bid5, bid4, bid3, 1.0), DELTA)
    if d == np.inf:
        t = bid3 if c <= 3 else (bid4 if c == 4 else (bid5 if c == 5 else moon))
        d = abs(x - t) + DELTA
    return d


@kernel
def n_legal_calls(standing, forced):
    """How many calls are legal: pass (unless forced), each bid above ``standing``, moon."""
    low = max(3, standing + 1)
    return (0 if forced else 1) + (MOON - low + 1)


@kernel
def call_index(call, standing, forced):
    """Index of ``call`` among the legal calls in ``call_distances``' order (pass first, then ascending)."""
    if call == 0:
        return 0
    low = max(3, standing + 1)
    return (0 if forced else 1) + call - low


@kernel
def call_distances(x, standing, forced, moon, bid5, bid4, bid3, jump, dist):
    """Distances of the legal calls into ``dist`` (pass unless forced, bids above ``standing``, moon); returns n."""
    n = 0
    if not forced:
        dist[0] = call_distance(np.int64(0), x, standing, forced, moon, bid5, bid4, bid3, jump)
        n = 1
    low = max(3, standing + 1)
    for c in range(low, MOON + 1):
        dist[n] = call_distance(c, x, standing, forced, moon, bid5, bid4, bid3, jump)
        n += 1
    return n


@kernel
def swap_distances(be, swap_below, dist):
    """Distances of keep (``dist[0]``) and swap (``dist[1]``) for a best estimate ``be``; returns 2."""
    if be >= swap_below:
        dist[0] = 0.0
        dist[1] = be - swap_below + DELTA
    else:
        dist[0] = swap_below - be
        dist[1] = 0.0
    return 2


@kernel
def call_probability(rows, r, x, standing, forced, call, tau, eps, dist):
    """The model's probability that strategy row ``r`` with shifted estimate ``x`` makes legal ``call``."""
    if rows[r, P_RANDOM] >= 0.5:
        return 1.0 / n_legal_calls(standing, forced)
    n = call_distances(x, standing, forced, rows[r, P_MOON], rows[r, P_BID5], rows[r, P_BID4], rows[r, P_BID3],
                       rows[r, P_JUMP], dist)
    return choice_probability(dist, n, call_index(call, standing, forced), tau, eps)


@kernel
def swap_probability(rows, r, be, swapped, tau, eps, dist):
    """The model's probability that strategy row ``r`` with best estimate ``be`` swaps (``swapped``) or keeps."""
    if rows[r, P_RANDOM] >= 0.5:
        return 0.5
    swap_distances(be, rows[r, P_SWAP_BELOW], dist)
    return choice_probability(dist, np.int64(2), np.int64(1 if swapped else 0), tau, eps)


@kernel
def deal_weight(hands, ghost, dealer, rules_stick, swap_rule, rows, scores, target, prefix, swap_given, me, tau, eps,
                feats, best_e, dist):
    """``deal_weight_rows`` with seat ``s`` playing strategy row ``rows[s]`` (should-bid)."""
    return deal_weight_rows(hands, ghost, dealer, rules_stick, swap_rule, rows, SEAT_ROWS, scores, target, prefix,
                            swap_given, me, tau, eps, feats, best_e, dist)


@kernel
def deal_weight_rows(hands, ghost, dealer, rules_stick, swap_rule, rows, seat_rows, scores, target, prefix, swap_given,
                     me, tau, eps, feats, best_e, dist):
    """The model's weight of one drawn deal: the product of the probabilities of the observed decisions.

    ``hands`` (by seat, int64[3], rewritten by an observed swap), ``ghost``;
    ``prefix`` (k, 2) the calls (seat, call) before the player's turn (seat
    ``me``), already checked legal; ``swap_given`` the seat that swapped before
    the player's turn, or -1. ``rules_stick``/``swap_rule`` are the
    ``G_STICK``/``G_SWAP`` codes; ``scores`` (by seat) and ``target`` feed the
    score shift; seat ``s`` plays strategy row ``rows[seat_rows[s]]``. Leaves in ``feats[s]`` each seat's inference features (the
    best estimate of the hand it holds and whether it holds that suit's right
    bower); ``best_e`` and ``dist`` are scratch (3 and ``MAX_CHOICES``).
    """
    swap_open = swap_rule == 1
    stick = rules_stick == 1
    standing = np.int64(0)
    n_passed = 0
    called = 0
    w = 1.0
    sc = (scores[0], scores[1], scores[2])
    for i in range(prefix.shape[0]):
        seat = prefix[i, 0]
        call = prefix[i, 1]
        if (called >> seat) & 1 == 0:
            if swap_open:
                if seat != me:
                    _, be = best_of_row(hands[seat], rows, seat_rows[seat])
                    w *= swap_probability(rows, seat_rows[seat], be, seat == swap_given, tau, eps, dist)
                if seat == swap_given:
                    hands[seat] = ghost
                    swap_open = False
            _, best_e[seat] = best_of_row(hands[seat], rows, seat_rows[seat])
        forced = stick and seat == dealer and n_passed == 2 and standing == 0
        if seat != me:
            shift = shift_of(seat, sc, target, rows[seat_rows[seat], P_SHIFT_SELF], rows[seat_rows[seat], P_SHIFT_OPP],
                             rows[seat_rows[seat], P_NEAR])
            w *= call_probability(rows, seat_rows[seat], best_e[seat] - shift, standing, forced, call, tau, eps, dist)
        called |= 1 << seat
        if call == 0:
            n_passed += 1
        else:
            standing = call
    for s in range(3):
        bs, be = best_of_row(hands[s], rows, seat_rows[s])
        feats[s, 0] = be
        feats[s, 1] = (hands[s] >> (bs * 6 + 2)) & 1
    return w


@kernel
def world_weight(me, dealer, rules_stick, swap_rule, rows, seat_rows, scores, target, prefix, swapper, dead, maker,
                 trump, held0, held1, held2, pile, tau, eps, hands, fs):
    """The PIMC player's weight of one world (``pimc_infer``): the model's probability of the whole auction on it.

    ``held0 .. held2``: the cards each seat held at the first lead (the
    world's hands and their plays), ``pile``: the world's cards out of play
    (the ghost, or the swapper's dead hand), ``dead``: seat ``me``'s dead hand
    when it swapped itself. The deal as dealt is rebuilt (the swapper held
    the pile, or ``dead``, and the ghost is what it holds now), then
    ``deal_weight_rows`` weighs every swap decision and call of the other
    seats in ``prefix`` (the whole auction), and the maker's trump gets the
    factor ``(1 - eps) [trump is its best suit] + eps / 4`` (a random maker:
    no factor). ``hands`` (int64[3]) and ``fs`` (float64, at least
    ``3 N_FEATURES + 3 + MAX_CHOICES``) are scratch.
    """
    hands[0], hands[1], hands[2] = held0, held1, held2
    ghost = pile
    if swapper >= 0:
        ghost = held0 if swapper == 0 else (held1 if swapper == 1 else held2)
        hands[swapper] = dead if swapper == me else pile
    feats = fs[:3 * N_FEATURES].reshape((3, N_FEATURES))
    best_e = fs[3 * N_FEATURES:3 * N_FEATURES + 3]
    dist = fs[3 * N_FEATURES + 3:3 * N_FEATURES + 3 + MAX_CHOICES]
    w = deal_weight_rows(hands, ghost, dealer, rules_stick, swap_rule, rows, seat_rows, scores, target, prefix,
                         swapper, me, tau, eps, feats, best_e, dist)
    if maker >= 0 and maker != me and rows[seat_rows[maker], P_RANDOM] < 0.5:
        bs, _ = best_of_row(hands[maker], rows, seat_rows[maker])
        w *= (1.0 - eps) * (1.0 if bs == trump else 0.0) + eps / 4.0
    return w
