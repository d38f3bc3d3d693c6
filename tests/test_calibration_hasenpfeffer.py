"""Hasenpfeffer should-bid calibration (issue 14): deals simulated with the model itself as the other players.

For a fixed hand and auction before the player's turn, deals are drawn
uniformly in Python (numpy, fixed seed) and each earlier call of another
player is drawn, call by call, from the model's own probabilities of every
legal call (``bower.kernels.hasenpfeffer.model.decision_probabilities``, tau 0.25,
epsilon 0.05); the player's own earlier calls are imposed (its hand is
known). The deals whose drawn auction is the given one are kept. On those:

1. the other seats' features (``bower.kernels.hasenpfeffer.model.features``: the
   best suit's trick estimate, holding the joker) are averaged: should-bid's
   weighted ``inference`` rows must agree, every row and feature;
2. every open call is played out from the kept deal with the observed calls
   imposed and the player's call next (``bower.kernels.hasenpfeffer.advice.
   play_after``), the strategy playing the rest: each call's mean points and
   tricks of the player's side, its share of deals where the player's side
   bids and, on those deals, the make rate, must agree with
   should-bid's estimates under the strategy play-out.

Tolerance, per compared number: ``4 * sd * sqrt(1 / n + 1 / ess) + 0.01``
(points: ``+ 0.02``, pepper stakes are 6 and 12), ``sd`` the kept deals'
standard deviation of the quantity, ``n`` the kept count and ``ess``
should-bid's effective sample size (the two estimates are independent; for
the make rate, the deals on which the side bids and ``ess`` times its share).

Situations (``SITUATIONS``): numeric bidding, position 1's second turn after
``3,4,pass,pass`` (the bidding has gone round); pepper bidding, the dealer
after ``4,pass,little-pepper`` (position 3's little pepper over its
partner's 4 is a call the strategy makes only on a rare hand). A share of
the kept deals holds a call the strategy itself would not have made (checked),
so the softmax and the tremble matter. Should-bid asked with a wrong model
(tau 2 or epsilon 0.5 against these deals) fails both.
"""

from __future__ import annotations

import numpy as np
import pytest

from bower.kernels.hasenpfeffer import model as hm
from bower.kernels.hasenpfeffer.advice import ADVICE_DEALER, play_after
from bower.kernels.hasenpfeffer.drivers import WORK
from bower.kernels.hasenpfeffer.hand import R_BID, R_BIDDER, R_POINTS, R_TRICKS, R_WIDTH, bid_need, card_weights
from bower.sim import runner
from bower.sim.advice import model_vector
from bower.sim.cards import mask_of, parse_cards
from bower.sim.variants.hasenpfeffer.advice import INFERENCE_NAMES, _names, advise, parse_call, replay_calls
from tests.calibration import check, tol

TAU, EPS = 0.25, 0.05
MODEL = {"kind": "softmax", "tau": TAU, "epsilon": EPS}
ADVICE_SAMPLES = 20_000
PEPPER = {"bidding": "pepper"}
SITUATIONS = [
    pytest.param("JH JD AH KH 9S TC", 1, "3,4,pass,pass", None, 24_000, 0.1,
                 id="numeric-second-turn-after-3-4-pass-pass"),
    pytest.param("QH AH KH 9S TC 9D", 4, "4,pass,little-pepper", PEPPER, 110_000, 0.3,
                 id="pepper-dealer-after-4-pass-little-pepper"),
]


def _setup(rules):
    _, params = runner.seat_params("default", "hasenpfeffer")
    _, rules_d, rules_vec = runner.resolve_run("hasenpfeffer", 0, rules)
    wt = np.zeros((4, 4, 25))
    card_weights(params, wt)
    return params, rules_d, rules_vec, wt


def _simulate(hand: int, position: int, prefix, rules, n_deals: int, seed: int):
    """(kept deals by seat, widows, whether each kept deal holds a call the strategy itself would not make)."""
    params, _, rules_vec, _ = _setup(rules)
    model = model_vector({"kind": "softmax", "tau": TAU, "epsilon": EPS})[0]
    sharp = model_vector({"kind": "softmax", "tau": 0.0, "epsilon": 0.0})[0]
    me = position - 1  # the dealer is seat 3: position p is seat p - 1
    unseen = np.array([c for c in range(25) if not hand >> c & 1], np.int64)
    others = [s for s in range(4) if s != me]
    gen = np.random.default_rng(seed)
    prob = np.zeros(hm.MAX_CHOICES)
    own = np.zeros(hm.MAX_CHOICES)
    kept, widows, off = [], [], []
    for _ in range(n_deals):
        perm = gen.permutation(unseen)
        dealt = [0, 0, 0, 0]
        dealt[me] = hand
        for i in range(18):
            dealt[others[i % 3]] |= 1 << int(perm[i])
        high, bidder, ok, strange = 0, -1, True, False
        for s, call in prefix:
            if s != me:
                n = hm.decision_probabilities(np.int64(dealt[s]), s, high, bidder, rules_vec, params, model, prob)
                i = int(np.searchsorted(np.cumsum(prob[:n]), gen.random() * prob[:n].sum(), side="right"))
                if (0 if i == 0 else high + i) != call:  # the model called otherwise: not the given auction
                    ok = False
                    break
                hm.decision_probabilities(np.int64(dealt[s]), s, high, bidder, rules_vec, params, sharp, own)
                strange |= own[0 if call == 0 else call - high] < 0.5
            if call != 0:
                high, bidder = call, s
        if ok:
            kept.append(dealt)
            widows.append(int(perm[18]))
            off.append(strange)
    return np.array(kept, np.int64), widows, np.array(off)


@pytest.mark.parametrize("hand_text,position,calls,rules,n_deals,min_off", SITUATIONS)
def test_deals_simulated_from_the_model_match_should_bid(hand_text, position, calls, rules, n_deals, min_off):
    """The kept simulated deals' features and play-out outcomes agree with should-bid's weighted answer."""
    params, rules_d, rules_vec, wt = _setup(rules)
    hand = mask_of(parse_cards(hand_text, allow_joker=True))
    me = position - 1
    side = me % 2
    state = replay_calls(position, [parse_call(c, rules_d) for c in calls.split(",")], rules_d)
    prefix = state["prefix"]
    kept, widows, off = _simulate(hand, position, prefix, rules, n_deals, seed=200 + position)
    n = len(kept)
    assert n > 1200, n
    assert off.mean() > min_off, off.mean()  # the softmax and the tremble carry these deals, not the strategy alone
    r = advise(hand_text, position=position, calls=calls, samples=ADVICE_SAMPLES, seed=8, threads=1, rules=rules,
               model=MODEL)
    ess = r["ess"]
    assert ess >= ADVICE_SAMPLES
    report = []
    assert [row["seat"] for row in r["inference"]] == [s for s in range(4) if s != me]
    for row in r["inference"]:
        s = row["seat"]
        f = np.array([hm.features(np.int64(d[s]), s, params, wt) for d in kept])
        for j, name in enumerate(INFERENCE_NAMES):
            report.append((row["who"], name, row[name], float(f[:, j].mean()), tol(f[:, j], n, ess)))
    names = _names(rules_d)
    levels = [0, *range(state["standing"] + 1, state["top"] + 1)]
    assert [a["action"] for a in r["actions"]] == ["pass", *(f"bid {names[lv]}" for lv in levels[1:])]
    pre = np.array(prefix, np.int64).reshape(-1, 2)
    dstate = np.array([1, 2, 3, 4], np.uint64)
    dbuf = np.zeros(2, np.int64)
    work = np.zeros(WORK, np.int64)
    rec = np.zeros(R_WIDTH, np.int64)
    for level, est in zip(levels, r["actions"]):
        res = np.zeros((n, 4))
        for j, d in enumerate(kept):
            play_after(d, np.int64(widows[j]), ADVICE_DEALER, rules_vec, params, wt, pre, me, level, dstate, dbuf, work,
                       rec)
            bidder = rec[R_BIDDER]
            ours = bidder >= 0 and bidder % 2 == side
            t = rec[R_TRICKS + side] + rec[R_TRICKS + side + 2]
            res[j] = rec[R_POINTS + side], t, ours, ours and t >= bid_need(rec[R_BID])
        pts, tricks, ours, made = res.T
        act = est["action"]
        report.append((act, "points", est["expected_points"], float(pts.mean()), tol(pts, n, ess, 0.02)))
        report.append((act, "tricks", est["mean_tricks"], float(tricks.mean()), tol(tricks, n, ess)))
        report.append((act, "side_bids", est["side_bids"], float(ours.mean()), tol(ours, n, ess)))
        k = int(ours.sum())
        if k >= 200:  # the make rate, over the deals on which the player's side bids (about ess * share of them)
            m = made[ours > 0]
            report.append((act, "make", est["make_prob"], float(m.mean()), tol(m, k, ess * est["side_bids"])))
    check(report, n, n_deals, off, ess, width=30)
