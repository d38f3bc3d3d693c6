"""Standard Euchre should-bid calibration (issue 14): deals simulated with the model itself as the other players.

For a fixed hand, up-card and number of passes before the player's turn,
deals are drawn uniformly in Python (numpy, fixed seed) and each earlier
decision of another player is drawn, call by call, from the model's own
probabilities of every legal choice (``bower.kernels.euchre.model.
call_probabilities``, tau 0.25, epsilon 0.05); the player's own round-one
pass is imposed (its hand is known). The deals whose drawn auction is the
given one (passes only) are kept. On those:

1. the other seats' features (``bower.kernels.euchre.model.deal_features``: the
   trick estimate of the up-card's suit as dealt, holding its right bower)
   are averaged: should-bid's weighted ``inference`` rows must agree, every
   row and feature;
2. every open call is played out from the kept deal with the observed passes
   imposed (the passing seats' thresholds out of reach at those decisions,
   not should-bid's own forcing) and the player's call forced
   (``bower.kernels.euchre.hand.play_dealt``), the strategy playing the rest:
   each call's net points (``expected_points``), the side's own points
   (``side_points``), the side's tricks, the share of deals on which the
   side makes trump and, on those, the make rate must agree with
   should-bid's estimates under the strategy play-out.

Tolerance, per compared number: ``4 * sd * sqrt(1 / n + 1 / ess) + 0.01``,
``sd`` the kept deals' standard deviation of the quantity, ``n`` the kept
count and ``ess`` should-bid's effective sample size (the two estimates are
independent; for the make rate, the deals on which the side makes trump and
``ess`` times their share).

Situations (``SITUATIONS``): round one, the dealer after three passes with
the ace of spades turned (about 9% of the kept deals hold a pass the strategy
itself would not have made); round two, position 2 after five passes
(position 1 twice, position 3 and the dealer's pass of a take: about half of
the kept deals hold a pass the strategy would not have made). Those shares
are checked, so the softmax and the tremble matter. Should-bid asked with a
wrong model (tau 2 or epsilon 0.5 against these deals) fails both.
"""

from __future__ import annotations

import numpy as np
import pytest

from bower.kernels.euchre import model as em
from bower.kernels.euchre.hand import (
    F_ALONE,
    F_AT,
    F_CALL,
    F_SEAT,
    MAKER_NEEDS,
    NO_FORCE,
    R_MAKER,
    R_POINTS,
    R_TRICKS,
    R_WIDTH,
    play_dealt,
)
from bower.kernels.euchre.strategy import Q_NAME, Q_ORDER, Q_TAKE, card_weights
from bower.sim import runner
from bower.sim.advice import model_vector
from bower.sim.cards import mask_of, parse_card, parse_cards
from bower.sim.variants.euchre.advice import INFER_NAMES, advise, open_actions, parse_situation
from tests.calibration import check, tol

DEALER = 3  # should-bid's dealer seat (``bower.kernels.euchre.advice.ADVICE_DEALER``): position p is seat p - 1
TAU, EPS = 0.25, 0.05
MODEL = {"kind": "softmax", "tau": TAU, "epsilon": EPS}
ADVICE_SAMPLES = 20_000
SITUATIONS = [
    pytest.param("AH 9H KH 9D TC", "AS", 4, 3, 10_000, 0.05, id="round-one-dealer-after-three-passes"),
    pytest.param("JC AC KH 9D TC", "9S", 2, 5, 40_000, 0.1, id="round-two-position-2-after-five-passes"),
]


def _setup():
    _, params = runner.seat_params("default", "euchre")
    _, rules_d, rules_vec = runner.resolve_run("euchre", 0, None)
    wt = np.zeros((4, 4, 24))
    card_weights(params, wt)
    return params, rules_d, rules_vec, wt


def _simulate(hand: int, up: int, position: int, n_passes: int, n_deals: int, seed: int):
    """(kept deals by seat, the kitty's three face-down cards, whether each holds a pass the strategy itself
    would not make)."""
    params, _, _, _ = _setup()
    model = model_vector({"kind": "softmax", "tau": TAU, "epsilon": EPS})[0]
    sharp = model_vector({"kind": "softmax", "tau": 0.0, "epsilon": 0.0})[0]
    me = position - 1  # the dealer is seat 3: position p is seat p - 1
    unseen = np.array([c for c in range(24) if not hand >> c & 1 and c != up], np.int64)
    others = [s for s in range(4) if s != me]
    gen = np.random.default_rng(seed)
    prob = np.zeros(4)
    own = np.zeros(4)
    kept, rests, off = [], [], []
    for _ in range(n_deals):
        perm = gen.permutation(unseen)
        dealt = np.zeros(4, np.int64)
        dealt[me] = hand
        for i in range(15):
            dealt[others[i % 3]] |= np.int64(1) << perm[i]
        ok, strange = True, False
        for i in range(n_passes):
            if (DEALER + i % 4 + 1) % 4 == me:
                continue  # the player's own pass: imposed
            n = em.call_probabilities(dealt, np.int64(up), DEALER, i, params, False, model, prob)
            if int(np.searchsorted(np.cumsum(prob[:n]), gen.random() * prob[:n].sum(), side="right")) != 0:
                ok = False  # the model called: not the given auction
                break
            em.call_probabilities(dealt, np.int64(up), DEALER, i, params, False, sharp, own)
            strange |= own[0] < 0.5
        if ok:
            kept.append(dealt)
            rests.append(perm[15:18])
            off.append(strange)
    return kept, rests, np.array(off)


def _passing(params, n_passes):
    """A copy of ``params`` in which the seat making each of the first ``n_passes`` calls cannot but pass there.

    Each threshold is read only at that decision (round one: the order threshold of the seat's position, the
    dealer's take; round two: the naming threshold), so the rest of the seat's play is its own. Imposing the
    observed passes this way does not use should-bid's own forcing of them.
    """
    out = params.copy()
    for i in range(n_passes):
        p = i % 4 + 1
        seat = (DEALER + p) % 4
        if i < 4:
            out[seat, Q_TAKE if p == 4 else Q_ORDER + p - 1] = np.inf
        else:
            out[seat, Q_NAME + p - 1] = np.inf
    return out


@pytest.mark.parametrize("hand_text,up_text,position,n_passes,n_deals,min_off", SITUATIONS)
def test_deals_simulated_from_the_model_match_should_bid(hand_text, up_text, position, n_passes, n_deals, min_off):
    """The kept simulated deals' features and play-out outcomes agree with should-bid's weighted answer."""
    params, rules_d, rules_vec, wt = _setup()
    hand = mask_of(parse_cards(hand_text))
    up = parse_card(up_text)
    me = position - 1
    side = me % 2
    kept, rests, off = _simulate(hand, up, position, n_passes, n_deals, seed=300 + position)
    n = len(kept)
    assert n > 3000, n
    assert off.mean() > min_off, off.mean()  # the softmax and the tremble carry these deals, not the strategy alone
    calls = ",".join(["pass"] * n_passes)
    r = advise(hand_text, up_text, position=position, calls=calls, samples=ADVICE_SAMPLES, seed=9, threads=1,
               model=MODEL)
    ess = r["ess"]
    assert ess >= ADVICE_SAMPLES
    report = []
    assert [row["seat"] for row in r["inference"]] == [s for s in range(4) if s != me]
    for row in r["inference"]:
        s = row["seat"]
        f = np.array([em.deal_features(d[s], np.int64(up), wt, params, s) for d in kept])
        for j, name in enumerate(INFER_NAMES):
            report.append((row["who"], name, row[name], float(f[:, j].mean()), tol(f[:, j], n, ess)))
    actions = open_actions(parse_situation(hand_text, up_text, position, calls, rules_d), rules_d, position)
    assert [a["action"] for a in actions] == [e["action"] for e in r["actions"]]
    dstate = np.array([1, 2, 3, 4], np.uint64)
    dbuf = np.zeros(2, np.int64)
    hands = np.zeros(4, np.int64)
    tricks = np.zeros(4, np.int64)
    rec = np.zeros(R_WIDTH, np.int64)
    kitty = np.zeros(4, np.int64)
    kitty[0] = up
    passing = _passing(params, n_passes)
    for act, est in zip(actions, r["actions"]):
        force = NO_FORCE.copy()
        force[F_SEAT], force[F_AT], force[F_CALL], force[F_ALONE] = me, n_passes, act["call"], act["alone"]
        res = np.zeros((n, 5))
        for j, d in enumerate(kept):
            kitty[1:] = rests[j]
            play_dealt(d, kitty, DEALER, rules_vec, passing, wt, force, dstate, dbuf, hands, tricks, rec, None, None)
            maker = rec[R_MAKER]
            ours = maker >= 0 and maker % 2 == side
            t = rec[R_TRICKS + side] + rec[R_TRICKS + side + 2]
            p = rec[R_POINTS + side]
            res[j] = p - rec[R_POINTS + 1 - side], p, t, ours, ours and t >= MAKER_NEEDS
        net, gross, t, ours, made = res.T
        a = est["action"]
        report.append((a, "points (net)", est["expected_points"], float(net.mean()), tol(net, n, ess)))
        report.append((a, "side_points", est["side_points"], float(gross.mean()), tol(gross, n, ess)))
        report.append((a, "tricks", est["mean_tricks"], float(t.mean()), tol(t, n, ess)))
        report.append((a, "side_maker", est["side_maker"], float(ours.mean()), tol(ours, n, ess)))
        k = int(ours.sum())
        if k >= 200:  # the make rate, over the deals on which the player's side makes trump
            m = made[ours > 0]
            report.append((a, "make", est["make_prob"], float(m.mean()), tol(m, k, ess * est["side_maker"])))
    check(report, n, n_deals, off, ess, width=34)
