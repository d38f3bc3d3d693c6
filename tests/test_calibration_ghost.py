"""Ghost Hand should-bid calibration (issue 14): deals simulated with the model itself as the other players.

``tests/test_model_ghost.py`` checks the earlier callers' trick estimates of
one situation; this file checks every inference feature and every action's
outcomes, in two situations. For a fixed hand and auction (calls and swap)
before the player's turn, deals are drawn uniformly in Python (numpy, fixed
seed) and each earlier decision of another player, its swap at its first
turn while the ghost is there and then its call, is drawn from the model's
own probabilities (``bower.kernels.ghost.model.swap_probability`` and
``call_probability`` over every legal call, tau 0.25, epsilon 0.05). The
deals whose drawn auction is the given one are kept. On those:

1. the other seats' features (the best trick estimate of the hand each holds,
   after any swap, and whether it holds that suit's right bower) are
   averaged: should-bid's weighted ``inference`` rows must agree, every row
   and feature;
2. every open action is played out from the kept deal with the observed swap
   and calls imposed (each earlier seat's swap and call thresholds set so that
   its strategy makes exactly its observed decisions: a seat decides once in
   a one-lap auction and those thresholds are read only there; this does not
   use should-bid's own imposing of them) and the player's action forced
   (``bower.kernels.ghost.hand.play_dealt``), the strategy playing the rest: each
   action's mean points and tricks of the player, its share of deals won in
   the auction and, on those, the make rate must agree with should-bid's
   estimates under the strategy play-out.

Tolerance, per compared number: ``4 * sd * sqrt(1 / n + 1 / ess) + 0.01``
(points: ``+ 0.02``), ``sd`` the kept deals' standard deviation of the
quantity, ``n`` the kept count and ``ess`` should-bid's effective sample size
(the two estimates are independent; for the make rate, the deals the player
wins and ``ess`` times their share).

Situations (``SITUATIONS``): position 3 after position 1 swapped and passed
and position 2 bid 3 (``tests/test_model_ghost.py``'s); position 3 after
position 1 kept its hand and bid 3 and position 2 swapped and passed;
position 2 after position 1 kept its hand and opened with 4, a jump the
default strategy (``bid_jump`` off) never makes. The share of kept deals
holding a decision the strategy itself would not have made is checked (all of
them in the last), so the softmax and the tremble matter. Should-bid asked with a wrong model (tau 2 or
epsilon 0.5 against these deals) fails both.
"""

from __future__ import annotations

import numpy as np
import pytest

from bower.kernels.ghost import model as gm
from bower.kernels.ghost.hand import (
    F_AT,
    F_CALL,
    F_SEAT,
    F_SWAP,
    F_TRUMP,
    NO_FORCE,
    R_BID,
    R_CALLS,
    R_MAKER,
    R_POINTS,
    R_TRICKS,
    R_WIDTH,
    play_dealt,
    search_arg,
)
from bower.kernels.ghost.strategy import (
    P_BID3,
    P_BID4,
    P_BID5,
    P_JUMP,
    P_MOON,
    P_SHIFT_OPP,
    P_SHIFT_SELF,
    P_SWAP_BELOW,
    best_of_row,
    strategy_rows,
)
from bower.sim import runner
from bower.sim.variants.ghost import advice as adv
from tests.calibration import check, tol

TAU, EPS = 0.25, 0.05
MODEL = {"kind": "softmax", "tau": TAU, "epsilon": EPS}
ADVICE_SAMPLES = 20_000
DEALER = 2  # should-bid's dealer seat (``bower.kernels.ghost.advice.ADVICE_DEALER``): position p is seat p - 1
TARGET = 32
HAND = "JH JD AH KH 9S TC"
SITUATIONS = [
    pytest.param(HAND, 3, "pass,3", "1", 40_000, 0.1, id="position-3-after-swap-pass-and-3"),
    pytest.param(HAND, 3, "3,pass", "2", 30_000, 0.1, id="position-3-after-3-and-swap-pass"),
    pytest.param(HAND, 2, "4", None, 15_000, 0.9, id="position-2-after-an-opening-4"),
]
BIG = 1e9  # a threshold out of reach


def _setup():
    _, params = runner.seat_params("default")
    _, rules_d, rules_vec = runner.resolve_run("ghost", 0, None)
    assert rules_d["auction"] == "one_lap" and rules_d["swap"] == "at_turn" and not rules_d["stick_the_dealer"]
    assert (params[:, P_SHIFT_SELF] == 0).all() and (params[:, P_SHIFT_OPP] == 0).all()  # no score shift
    return params, strategy_rows(params), rules_d, rules_vec


def _legal(standing):
    return [0, *range(max(3, standing + 1), 7)]


def _draw(gen, p):
    return int(np.searchsorted(np.cumsum(p), gen.random() * sum(p), side="right"))


def _simulate(hand: int, me: int, prefix, swap_given: int, n_deals: int, seed: int):
    """(kept deals: positions 1, 2, 3, ghost; whether each holds a decision the strategy itself would not make).

    ``prefix``: the (seat, call) pairs before the player's turn, one lap (each seat calls once); ``swap_given``:
    the seat that swapped at its turn, or -1.
    """
    _, rows, _, _ = _setup()
    dist = np.zeros(gm.MAX_CHOICES)
    unseen = np.array([c for c in range(24) if not hand >> c & 1], np.int64)
    slots = [s for s in range(4) if s != me]  # the two other seats and the ghost (slot 3)
    gen = np.random.default_rng(seed)
    kept, off = [], []
    for _ in range(n_deals):
        perm = gen.permutation(unseen)
        dealt = [0, 0, 0, 0]
        dealt[me] = hand
        for i, c in enumerate(perm):
            dealt[slots[i % 3]] |= 1 << int(c)
        held = list(dealt[:3])
        swap_open, standing, ok, strange = True, 0, True, False
        for seat, call in prefix:
            if swap_open:  # the seat's swap decision, on the hand it was dealt
                _, be = best_of_row(np.int64(held[seat]), rows, seat)
                p_swap = gm.swap_probability(rows, seat, be, True, TAU, EPS, dist)
                swap = gen.random() < p_swap
                if swap != (seat == swap_given):
                    ok = False
                    break
                strange |= gm.swap_probability(rows, seat, be, swap, 0.0, 0.0, dist) < 0.5
                if swap:
                    held[seat] = dealt[3]
                    swap_open = False
            _, x = best_of_row(np.int64(held[seat]), rows, seat)
            legal = _legal(standing)
            p = [gm.call_probability(rows, seat, x, standing, False, c, TAU, EPS, dist) for c in legal]
            if legal[_draw(gen, p)] != call:
                ok = False
                break
            strange |= gm.call_probability(rows, seat, x, standing, False, call, 0.0, 0.0, dist) < 0.5
            standing = max(standing, call)
        if ok:
            kept.append((dealt, held))
            off.append(strange)
    return kept, np.array(off)


def _imposing(params, prefix, swap_given):
    """A copy of ``params`` in which each seat of ``prefix`` makes exactly its observed swap and call."""
    out = params.copy()
    swap_open = True
    for seat, call in prefix:
        if swap_open:
            out[seat, P_SWAP_BELOW] = BIG if seat == swap_given else -BIG
            swap_open = seat != swap_given
        out[seat, P_JUMP] = 1.0  # bid the level the thresholds give
        levels = {0: (BIG, BIG, BIG, BIG), 3: (-BIG, BIG, BIG, BIG), 4: (-BIG, -BIG, BIG, BIG),
                  5: (-BIG, -BIG, -BIG, BIG), 6: (-BIG, -BIG, -BIG, -BIG)}[call]
        out[seat, [P_BID3, P_BID4, P_BID5, P_MOON]] = levels
    return out


@pytest.mark.parametrize("hand_text,position,calls,swapped,n_deals,min_off", SITUATIONS)
def test_deals_simulated_from_the_model_match_should_bid(hand_text, position, calls, swapped, n_deals, min_off):
    """The kept simulated deals' features and play-out outcomes agree with should-bid's weighted answer."""
    params, rows, rules_d, rules_vec = _setup()
    hand = adv.parse_hand(hand_text)
    me = position - 1
    state = adv.replay_turns(position, adv.parse_calls(calls), rules_d)
    prefix = state["prefix"]
    swap_given = -1 if swapped is None else int(swapped) - 1
    kept, off = _simulate(hand, me, prefix, swap_given, n_deals, seed=400 + len(prefix) + swap_given)
    n = len(kept)
    assert n > 1000, n
    assert off.mean() > min_off, off.mean()  # the softmax and the tremble carry these deals, not the strategy alone
    r = adv.advise(hand_text, position=position, calls=calls, swapped=swapped, samples=ADVICE_SAMPLES, seed=10,
                   threads=1, model=MODEL)
    ess = r["ess"]
    assert ess >= ADVICE_SAMPLES
    report = []
    assert [row["seat"] for row in r["inference"]] == [s for s in range(3) if s != me]
    for row in r["inference"]:
        s = row["seat"]
        f = []
        for _, held in kept:
            bs, be = best_of_row(np.int64(held[s]), rows, s)
            f.append((be, float(held[s] >> (bs * 6 + 2) & 1)))
        f = np.array(f)
        for j, name in enumerate(gm.FEATURE_NAMES):
            report.append((row["who"], name, row[name], float(f[:, j].mean()), tol(f[:, j], n, ess)))
    actions = adv.open_actions(state, rules_d["swap"] == "at_turn" and swapped is None and position not in
                               state["called"])
    assert [a["action"] for a in actions] == [e["action"] for e in r["actions"]]
    play_rows = strategy_rows(_imposing(params, prefix, swap_given))
    dstate = np.array([1, 2, 3, 4], np.uint64)
    dbuf = np.zeros(2, np.int64)
    work = np.zeros(16, np.int64)
    rec = np.zeros(R_WIDTH, np.int64)
    scores = np.zeros(3, np.int64)
    for act, est in zip(actions, r["actions"]):
        force = NO_FORCE.copy()
        force[F_SEAT], force[F_AT], force[F_SWAP], force[F_CALL], force[F_TRUMP] = (
            me, len(prefix), act["swap"], act["call"], act["trump"])
        res = np.zeros((n, 4))
        for j, (dealt, _) in enumerate(kept):
            play_dealt(np.array(dealt, np.int64), dstate, dbuf, work, DEALER, rules_vec, play_rows, scores, TARGET,
                       force, rec, search_arg(play_rows))
            for i, (seat, call) in enumerate(prefix):  # the observed auction was imposed
                assert (rec[R_CALLS + 2 * i], rec[R_CALLS + 2 * i + 1]) == (seat, call)
            t = rec[R_TRICKS + me]
            won = rec[R_MAKER] == me
            res[j] = rec[R_POINTS + me], t, won, won and t >= rec[R_BID]
        pts, tricks, won, made = res.T
        a = est["action"]
        report.append((a, "points", est["expected_points"], float(pts.mean()), tol(pts, n, ess, 0.02)))
        report.append((a, "tricks", est["mean_tricks"], float(tricks.mean()), tol(tricks, n, ess)))
        report.append((a, "wins_auction", est["wins_auction"], float(won.mean()), tol(won, n, ess)))
        k = int(won.sum())
        if k >= 200:  # the make rate, over the deals on which the player wins the auction
            m = made[won > 0]
            report.append((a, "make", est["make_prob"], float(m.mean()), tol(m, k, ess * est["wins_auction"])))
    check(report, n, n_deals, off, ess, width=34)
