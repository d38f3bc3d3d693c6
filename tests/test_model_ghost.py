"""Ghost Hand should-bid under the model of the other players (issue 14): every legal auction gets an answer.

- every legal auction up to a few calls, with and without an observed swap,
  under each auction rule, gets an answer (softmax model, small ``samples``);
  an illegal one is bad input naming the call;
- the model's choice probabilities sum to 1 over the legal choices of a
  decision, and its sharp limit (tau -> 0, epsilon 0) puts everything on the
  strategy's own choice;
- ``hand.auction_core`` with the strategy's own first calls given
  (``F_GIVEN``) is the same auction, and with other calls given it makes
  exactly those, then the strategy's;
- a sharp model agrees with ``--model exact`` within the intervals;
- the same seed gives the same answer on 1 and 2 threads (both play-outs);
- ``--model exact`` is today's answer (the golden file's fields).
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest

from bower.kernels.ghost import hand as gk
from bower.kernels.ghost import model as gm
from bower.kernels.ghost.strategy import P_BID3, P_BID4, P_BID5, P_JUMP, P_MOON, best_of_row, call_of, strategy_rows
from bower.sim import runner
from bower.sim.advice import AdviceError, ImpossibleAuction
from bower.sim.variants.ghost import advice as adv

HAND = "JH JD AH KH 9S TC"
NAMES = {0: "pass", 3: "3", 4: "4", 5: "5", 6: "moon"}
RULE_SETS = [
    {},
    {"auction": "until_passes"},
    {"stick_the_dealer": True},
    {"swap": "none"},
    {"auction": "until_passes", "stick_the_dealer": True},
]


def _legal_auctions(rules_d: dict, max_calls: int):
    """(position, calls) of every legal turn reached after at most ``max_calls`` calls."""
    out = []
    for n in range(max_calls + 1):
        for seq in itertools.product((0, 3, 4, 5, 6), repeat=n):
            for position in (1, 2, 3):
                try:
                    adv.replay_turns(position, list(seq), rules_d)
                except AdviceError:
                    continue
                out.append((position, ",".join(NAMES[c] for c in seq)))
    return out


def _full_rules(rules):
    from bower.sim.rules import get_variant, resolve

    return resolve(get_variant("ghost"), rules)


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default")
def test_every_legal_auction_gets_an_answer(rules):
    rules_d = _full_rules(rules)
    max_calls = 6 if rules_d["auction"] == "until_passes" else 2  # one lap: at most 2 calls before a turn
    cases = _legal_auctions(rules_d, max_calls)
    assert cases
    n = 0
    for position, calls in cases:
        state = adv.replay_turns(position, adv.parse_calls(calls), rules_d)
        swaps = [None]
        if rules_d["swap"] == "at_turn":
            swaps += [str(p) for p in sorted(state["called"]) if p != position]
        for swapped in swaps:
            r = adv.advise(HAND, position=position, calls=calls or None, swapped=swapped, samples=24, seed=1,
                           threads=1, rules=rules)
            assert r["ess"] > 0 and r["samples"] > 0
            assert r["model"]["kind"] == "softmax"
            assert {row["seat"] for row in r["inference"]} == {0, 1, 2} - {position - 1}
            assert all(np.isfinite(a["expected_points"]) for a in r["actions"])
            n += 1
    assert n >= len(cases)


@pytest.mark.parametrize("strategy,scores", [("random", None), ("score-aware", "28,20,27"), ("cautious", None)])
def test_other_strategies_answer_every_one_lap_auction(strategy, scores, tmp_path, monkeypatch):
    # scores also answer in games won: a small equity table (floor 0), computed once into a cache of the test's own
    monkeypatch.setenv("BOWER_EQUITY_CACHE", "1")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    table = {"hands": 20_000, "resamples": 1, "floor": 0}
    rules_d = _full_rules({})
    for position, calls in _legal_auctions(rules_d, 2):
        r = adv.advise(HAND, position=position, calls=calls or None, scores=scores, strategy=strategy, samples=16,
                       seed=2, threads=1, equity=table)
        assert r["ess"] > 0
        assert ("game" in r) == (scores is not None)


def test_readme_question_without_a_swap_is_answered():
    r = adv.advise(HAND, position=2, calls="pass", samples=200, seed=0, threads=1)
    assert r["ess"] >= 200
    text = adv.format_advice(r)
    assert "softmax" in text and "effective sample size" in text and "position 1" in text


def test_illegal_auction_names_the_call():
    with pytest.raises(AdviceError, match="call 2"):
        adv.advise(HAND, position=3, calls="4,3", samples=10)
    with pytest.raises(AdviceError, match="stuck"):
        adv.advise(HAND, position=3, calls="pass,pass,pass", samples=10, rules={"stick_the_dealer": True})


def _rows(strategy="default"):
    return strategy_rows(runner.seat_params(strategy)[1])


@pytest.mark.parametrize("strategy", ["default", "aggressive", "score-aware", "random"])
def test_choice_probabilities_sum_to_one(strategy):
    rows = _rows(strategy)
    dist = np.zeros(gm.MAX_CHOICES)
    rng = np.random.default_rng(3)
    for _ in range(60):
        x = float(rng.uniform(1.0, 6.5))
        for standing, forced in ((0, False), (0, True), (3, False), (4, False), (5, False)):
            n = gm.n_legal_calls(standing, forced)
            legal = ([] if forced else [0]) + list(range(max(3, standing + 1), 7))
            assert len(legal) == n
            for tau, eps in ((0.25, 0.01), (1.0, 0.0), (0.05, 0.3)):
                total = sum(gm.call_probability(rows, 0, x, standing, forced, c, tau, eps, dist) for c in legal)
                assert total == pytest.approx(1.0, abs=1e-12)
            sw = sum(gm.swap_probability(rows, 0, x, s, 0.25, 0.01, dist) for s in (False, True))
            assert sw == pytest.approx(1.0, abs=1e-12)


def test_sharp_limit_is_the_strategy_choice():
    rows = _rows("default")
    dist = np.zeros(gm.MAX_CHOICES)
    r = rows[0]
    grid = np.arange(0, 6.5, 2.0**-12 * 64)
    special = [r[P_BID3], r[P_BID4], r[P_BID5], r[P_MOON], 3.0]
    for x in list(grid) + special:
        for standing, forced in ((0, False), (0, True), (3, False), (4, False), (5, False)):
            own = call_of(x, standing, forced, r[P_MOON], r[P_BID5], r[P_BID4], r[P_BID3], r[P_JUMP])
            n = gm.call_distances(x, standing, forced, r[P_MOON], r[P_BID5], r[P_BID4], r[P_BID3], r[P_JUMP], dist)
            i = gm.call_index(own, standing, forced)
            assert dist[i] == 0.0
            assert all(dist[j] > 0 for j in range(n) if j != i)
            assert gm.call_probability(rows, 0, x, standing, forced, own, 1e-9, 0.0, dist) == pytest.approx(1.0)
        gm.swap_distances(x, 3.0, dist)
        assert (dist[0] == 0) == (x >= 3.0) and (dist[1] == 0) == (x < 3.0)


def test_jump_the_strategy_never_makes_gets_its_levels_distance():
    rows = _rows("default")  # bid_jump off: an opening 4 is never the strategy's call
    r = rows[0]
    dist = np.zeros(gm.MAX_CHOICES)
    gm.call_distances(3.0, 0, False, r[P_MOON], r[P_BID5], r[P_BID4], r[P_BID3], r[P_JUMP], dist)
    # legal: pass, 3, 4, 5, moon; 3.0 is between bid_3 (2.8) and bid_4 (3.2)
    assert dist[1] == 0.0
    assert dist[2] == pytest.approx(r[P_BID4] - 3.0)
    assert dist[3] == pytest.approx(r[P_BID5] - 3.0)
    assert dist[4] == pytest.approx(r[P_MOON] - 3.0)
    assert dist[0] == pytest.approx(3.0 - r[P_BID3] + gm.DELTA)


@pytest.mark.parametrize("auction_rule,stick", [(0, 0), (1, 0), (1, 1)])
def test_auction_core_with_given_calls(auction_rule, stick):
    """Given the strategy's own first k calls (and its swap), ``auction_core`` is the same auction; given other
    calls (a pass instead of the first bid), it makes exactly those, then goes on as the strategy would."""
    rows = _rows("aggressive")
    rng0 = (np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4), np.uint64(0), np.int64(0))
    gen = np.random.default_rng(7)
    no_force = (-1, -1, -1, -1, -1, 0, 0, -1)
    changed = 0
    for _ in range(150):
        cards = gen.permutation(24)
        hands = [int(sum(1 << int(c) for c in cards[6 * i:6 * i + 6])) for i in range(4)]
        scores = (0, 0, 0)
        out = gk.auction_core(hands[0], hands[1], hands[2], hands[3], 2, auction_rule, 1, stick, rows,
                              gk.SEAT_ROWS, scores, 32, no_force, rng0, None)
        swapper, n_calls, calls = out[6], out[7], out[8]
        seq = [((calls >> (5 * i)) & 31) for i in range(n_calls)]
        for k in range(n_calls):
            seats_before = {c >> 3 for c in seq[:k]}
            given = swapper if swapper in seats_before else -1
            packed = sum(c << (5 * i) for i, c in enumerate(seq[:k]))
            rep = gk.auction_core(hands[0], hands[1], hands[2], hands[3], 2, auction_rule, 1, stick, rows,
                                  gk.SEAT_ROWS, scores, 32, (-1, -1, -1, -1, -1, k, packed, given), rng0, None)
            assert rep[:9] == out[:9]
        first_bid = next((i for i, c in enumerate(seq) if c & 7), None)
        if first_bid is None or (stick and first_bid == 2):  # a stuck dealer may not pass
            continue
        # the first bidder passes instead: the given calls are made as given, and the swap is the one given
        alt = seq[:first_bid] + [seq[first_bid] & ~7]
        packed = sum(c << (5 * i) for i, c in enumerate(alt))
        seats_before = {c >> 3 for c in alt}
        given = swapper if swapper in seats_before else -1
        rep = gk.auction_core(hands[0], hands[1], hands[2], hands[3], 2, auction_rule, 1, stick, rows, gk.SEAT_ROWS,
                              scores, 32, (-1, -1, -1, -1, -1, len(alt), packed, given), rng0, None)
        got = [((rep[8] >> (5 * i)) & 31) for i in range(rep[7])]
        assert got[:len(alt)] == alt
        if given >= 0:
            assert rep[6] == given
        else:
            assert rep[6] not in seats_before  # no seat swapped on a given turn
        changed += 1
    assert changed > 50


def _close(a, b):
    lo = min(a["points_ci95"][0], b["points_ci95"][0])
    hi = max(a["points_ci95"][1], b["points_ci95"][1])
    half = (a["points_ci95"][1] - a["points_ci95"][0] + b["points_ci95"][1] - b["points_ci95"][0]) / 2
    return abs(a["expected_points"] - b["expected_points"]) <= half + 1e-9 and lo <= hi


@pytest.mark.parametrize("position,calls,swapped", [(1, None, None), (2, "3", None), (3, "pass,3", "1")])
def test_sharp_model_agrees_with_exact(position, calls, swapped):
    kw = dict(position=position, calls=calls, swapped=swapped, samples=1500, seed=5, threads=1)
    exact = adv.advise(HAND, model={"kind": "exact"}, **kw)
    sharp = adv.advise(HAND, model={"kind": "softmax", "tau": 1e-6, "epsilon": 0.0}, **kw)
    for a, b in zip(exact["actions"], sharp["actions"]):
        assert a["action"] == b["action"]
        assert _close(a, b), (a["action"], a["expected_points"], b["expected_points"])
    for e, s in zip(exact["inference"], sharp["inference"]):
        assert e["best_estimate"] == pytest.approx(s["best_estimate"], abs=0.1)


def test_exact_rejection_still_finds_the_impossible():
    with pytest.raises(ImpossibleAuction):
        adv.advise(HAND, position=2, calls="pass", samples=50, model={"kind": "exact"}, cap=2048)


@pytest.mark.skipif(runner.max_threads() < 2, reason="needs 2 threads")
@pytest.mark.parametrize("playout", ["strategy", "both"])
def test_same_seed_same_answer_for_any_thread_count(playout):
    kw = dict(position=3, calls="pass,4", samples=600, seed=9, playout=playout)
    one = adv.advise(HAND, threads=1, **kw)
    two = adv.advise(HAND, threads=2, **kw)
    for key in ("actions", "recommendation", "inference", "ess", "samples", "draws"):
        assert one[key] == two[key]
    if playout == "both":
        assert one["actions_dd"] == two["actions_dd"]
        assert "recommendation_dd" in one


def test_exact_model_is_todays_answer():
    from tests.test_golden import _as_golden, _strip

    expected = json.loads((Path(__file__).parent / "golden" / "ghost.advice.json").read_text())
    r = adv.advise(HAND, position=1, samples=3000, seed=4, threads=1, model={"kind": "exact"})
    assert _as_golden(_strip(r), _strip(expected)) == _strip(expected)
    assert r["ess"] == 3000 and r["model"]["kind"] == "exact"


def test_old_callers_keep_working():
    r = adv.advise("JH KH TH 9H AS 9C", position=1, samples=100, seed=0, threads=1)
    assert r["playout"] == "strategy" and r["model"]["kind"] == "softmax"
    assert "actions_dd" not in r
    r = adv.ask(HAND, {"position": 2, "calls": "pass", "swapped": None, "bid": "4", "scores": None, "upcard": None},
                samples=100, seed=0, threads=1)
    assert r["question"]["bid"] == "4"


def test_calibration_deals_simulated_from_the_model_match_the_inference():
    """Deals whose auction, drawn call by call from the model itself, is the given one: their hands' features
    agree with should-bid's weighted inference (position 3 after position 1 swapped and passed, position 2 bid 3)."""
    rows = _rows("default")
    tau, eps = 0.25, 0.05
    dist = np.zeros(gm.MAX_CHOICES)
    me = adv.parse_hand(HAND)
    unseen = np.array([c for c in range(24) if not me >> c & 1])
    gen = np.random.default_rng(11)
    feats = [[], []]
    for _ in range(30_000):
        p = gen.permutation(unseen)
        d = [0, 0, 0, 0]
        d[2] = me
        for i, c in enumerate(p):
            d[(0, 1, 3)[i % 3]] |= 1 << int(c)
        # position 1 (seat 0): swap?, then a call with the hand held; position 2 (seat 1): a call
        _, be0 = best_of_row(np.int64(d[0]), rows, 0)
        if gen.random() >= gm.swap_probability(rows, 0, be0, True, tau, eps, dist):
            continue
        h0 = d[3]
        _, e0 = best_of_row(np.int64(h0), rows, 0)
        legal = [0, 3, 4, 5, 6]
        pr = [gm.call_probability(rows, 0, e0, 0, False, c, tau, eps, dist) for c in legal]
        if legal[gen.choice(5, p=np.array(pr) / sum(pr))] != 0:
            continue
        _, e1 = best_of_row(np.int64(d[1]), rows, 1)
        pr = [gm.call_probability(rows, 1, e1, 0, False, c, tau, eps, dist) for c in legal]
        if legal[gen.choice(5, p=np.array(pr) / sum(pr))] != 3:
            continue
        feats[0].append(e0)
        feats[1].append(e1)
    assert len(feats[1]) > 300
    r = adv.advise(HAND, position=3, calls="pass,3", swapped="1", samples=20_000, seed=3, threads=1,
                   model={"kind": "softmax", "tau": tau, "epsilon": eps})
    for row, f in zip(r["inference"], feats):
        f = np.array(f)
        half = 4 * f.std() * np.sqrt(1 / len(f) + 1 / r["ess"]) + 0.005
        assert abs(row["best_estimate"] - f.mean()) < half, (row, f.mean(), len(f))
