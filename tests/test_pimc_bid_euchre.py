"""Euchre's PIMC player: the searched discard and defending alone (``pimc_bid``), the inference (``pimc_infer``).

- **World weights.** With the auction model sharp (``pimc_tau`` 0,
  ``pimc_eps`` 0) a world's weight is 1 exactly when, on one of the deals
  the world stands for (after an exchange seen from another seat, each card
  of the pile taken as the dealer's discard), the seats' strategies make
  every call of the hand and the dealer its discard, else 0: checked by
  replaying the kernels' auction on those deals; with the tremble every
  weight is positive; ``pimc_infer`` 0 changes no record.
- **The true deal.** With ``pimc_sees_all`` and ``pimc_bid`` every searched
  discard and every searched choice to defend alone is the best among its
  candidates, each scored by the contract solved double dummy from the first
  lead by the plain solver (``kernels/solve.py``'s ``solve_position``, some
  checked against the exhaustive minimax of ``tests/reference/dd.py``) and
  scored by the rules; the search does not always agree with the strategy.
- **Seeds.** The same records on 1 and 2 threads with searching and
  inferring seats, under both rule options.
"""

from __future__ import annotations

import numba
import numpy as np
import pytest

from bower.kernels.euchre import hand as eh
from bower.kernels.euchre.strategy import alone_decision, card_weights
from bower.kernels.rng import splitmix_seed
from bower.kernels.solve import new_table, solve_position
from bower.sim import runner
from bower.sim.rules import encode, resolve
from bower.sim.variants import get_variant
from tests.reference import dd

V = get_variant("euchre")
BOTH = {"stick_the_dealer": True, "allow_lone_defender": True}


def _rows(hands: int, seed: int, strategies, rules=None) -> np.ndarray:
    out = []
    runner.rows_run("euchre", hands, seed, 1, rules or {}, strategies, out.append)
    return np.concatenate(out)


def _stream(seed: int):
    dstate = np.empty(4, np.uint64)
    splitmix_seed(np.uint64(seed), dstate)
    return dstate, np.zeros(2, np.int64)


def _params(strategies):
    _, params = runner.seat_params(strategies, "euchre")
    wt = np.zeros((4, 4, 24))
    card_weights(params, wt)
    return params, wt


def _calls(rec) -> list:
    return rec[eh.R_CALLS:eh.R_CALLS + 2 * int(rec[eh.R_NCALLS])].tolist()


def _replay(dealt, up, dealer, rules_vec, params, wt):
    """The strategies' own auction on a deal as dealt (hands by seat): (calls, discard)."""
    rec = np.zeros(eh.R_WIDTH, np.int64)
    dstate, dbuf = _stream(0)
    eh.auction(np.array(dealt, np.int64), np.int64(up), np.int64(dealer), rules_vec, params, wt,
               eh.force_of(eh.NO_FORCE), dstate, dbuf, rec, None)
    return _calls(rec), int(rec[eh.R_DISCARD])


def _bits(mask: int) -> list[int]:
    return [c for c in range(24) if mask >> c & 1]


# ---------------------------------------------------------------- world weights

@pytest.mark.parametrize("rules", [{}, BOTH, {"discard_up": True}])
def test_sharp_weights_reproduce_the_auction(rules):
    rules_vec = encode(V, resolve(V, rules))
    strategies = ["default", "cautious", "aggressive", "default"]
    params, wt = _params(strategies)
    params[:, eh.Q_PIMC_TAU] = 0.0
    params[:, eh.Q_PIMC_EPS] = 0.0
    recs = _rows(240, 7, strategies, rules)
    n_worlds = 16
    out = np.zeros((n_worlds, 5), np.int64)
    w = np.zeros(n_worlds)
    kept = dropped = true_checked = amb = buried = 0
    for i, rec in enumerate(recs):
        if rec[eh.R_MAKER] < 0:
            continue
        dealer, up, discard = int(rec[eh.R_DEALER]), int(rec[eh.R_KITTY]), int(rec[eh.R_DISCARD])
        observed = _calls(rec)
        dealt = [int(rec[eh.R_DEAL + s]) for s in range(4)]
        if i % 8 == 0:  # the true deal reproduces its own auction
            assert _replay(dealt, up, dealer, rules_vec, params, wt) == (observed, discard)
            true_checked += 1
        sitting = {s ^ 2 for s in range(4) if rec[eh.R_ALONE] >> s & 1}
        seat = next(s for s in ((i + i // 4 + j) % 4 for j in range(4)) if s not in sitting)  # a seat in play
        n = (i * 7) % (int(rec[eh.R_NPLAYS]) + 1)
        dstate, dbuf = _stream(i)
        assert eh.pimc_world_weights(rec, np.int64(seat), np.int64(n), params, rules_vec, np.int64(n_worlds), dstate,
                                     dbuf, out, w)
        for k in range(n_worlds):
            assert w[k] == int(w[k]) and (w[k] <= 1.0 or rules.get("discard_up"))
            held, pile = [int(x) for x in out[k, :4]], int(out[k, 4])
            assert held[seat] == (dealt[seat] if discard < 0 or seat != dealer
                                  else (dealt[seat] | 1 << up) & ~(1 << discard))
            if discard >= 0 and seat != dealer:  # each card of the pile as the dealer's discard
                # the up-card is the dealer's, or (discard_up) buried in the pile: then it is the discard
                assert held[dealer] >> up & 1 or (rules.get("discard_up") and pile >> up & 1)
                buried += not held[dealer] >> up & 1
                deals = [(held[:dealer] + [(held[dealer] | 1 << d) & ~(1 << up)] + held[dealer + 1:], d)
                         for d in _bits(pile) if held[dealer] >> up & 1 or d == up]
                amb += 1
            elif discard >= 0:
                deals = [(held[:dealer] + [dealt[dealer]] + held[dealer + 1:], discard)]
            else:
                deals = [(held, -1)]
            hits = sum(_replay(d, up, dealer, rules_vec, params, wt) == (observed, d_card) for d, d_card in deals)
            same = hits > 0
            # (the seat's own decisions are not weighed: its cards are the true ones in every world; under
            # discard_up a world weighs every deal it stands for, else the best one)
            assert w[k] == (hits if rules.get("discard_up") else float(same)), (rec.tolist(), seat, n,
                                                                                 out[k].tolist())
            kept += same
            dropped += not same
    assert kept > 300 and dropped > 300 and true_checked > 10 and amb > 300
    assert (buried > 100) == bool(rules.get("discard_up")), buried


def test_discard_up_worlds_bury_the_up_card_as_often_as_the_dealer_does():
    """Under ``discard_up``, seen from a seat other than the dealer, the weighted worlds put the up-card in the pile
    (buried) as often as the dealer buries it. Every seat random: the dealer buries it 1 time in 6, whatever it
    holds, and no call tells anything, so the weighted share of buried worlds is 1/6 (the unweighted draw, which
    knows only that the up-card is the dealer's or the pile's, gives 4/9: four pile places against five in the
    dealer's hand). Seed 9, 600 hands (267 with an exchange and no loner), 32 worlds each: the weighted share
    within 0.03 of 1/6 (0.172 measured; a best-deal weight, as without the rule, gives about 4/9 again); the
    records' own share of buried up-cards within 0.07 of 1/6 (0.176; binomial, about 3 standard errors)."""
    rules = {"discard_up": True}
    rules_vec = encode(V, resolve(V, rules))
    params, _ = _params(["random"] * 4)
    n_worlds = 32
    out = np.zeros((n_worlds, 5), np.int64)
    w = np.zeros(n_worlds)
    shares, truth, uniform = [], [], []
    for i, rec in enumerate(_rows(600, 9, "random", rules)):
        dealer, up = int(rec[eh.R_DEALER]), int(rec[eh.R_KITTY])
        if rec[eh.R_DISCARD] < 0 or rec[eh.R_ALONE]:
            continue
        seat = (dealer + 1 + i % 3) % 4
        dstate, dbuf = _stream(i)
        assert eh.pimc_world_weights(rec, np.int64(seat), np.int64(0), params, rules_vec, np.int64(n_worlds), dstate,
                                     dbuf, out, w)
        buried = (out[:, 4] >> up) & 1
        assert ((out[:, dealer] >> up) & 1 | buried).all()  # the dealer's or the pile's, never another seat's
        shares.append(float((w * buried).sum() / w.sum()))
        uniform.append(float(buried.mean()))
        truth.append(int(rec[eh.R_DISCARD]) == up)
    assert len(shares) > 200
    assert abs(np.mean(shares) - 1 / 6) < 0.03, np.mean(shares)
    assert abs(np.mean(truth) - 1 / 6) < 0.07, np.mean(truth)
    assert abs(np.mean(uniform) - 4 / 9) < 0.05, np.mean(uniform)


def test_tremble_keeps_every_world():
    rules_vec = encode(V, resolve(V, BOTH))
    strategies = ["default", "default", "random", "cautious"]
    params, _ = _params(strategies)  # pimc_tau 0.25, pimc_eps 0.01
    out = np.zeros((16, 5), np.int64)
    w = np.zeros(16)
    seen = 0
    for i, rec in enumerate(_rows(60, 8, strategies, BOTH)):
        if rec[eh.R_MAKER] < 0 or rec[eh.R_ALONE]:
            continue
        dstate, dbuf = _stream(i)
        eh.pimc_world_weights(rec, np.int64(i % 4), np.int64(3), params, rules_vec, np.int64(16), dstate, dbuf, out, w)
        assert (w > 0).all() and (w <= 1).all()
        seen += 1
    assert seen > 20


def test_pimc_infer_zero_changes_nothing():
    bid = {**V.presets["pimc-fast"], "pimc_bid": 1.0}
    a = _rows(120, 3, [bid, "default", "random", "default"], BOTH)
    b = _rows(120, 3, [{**bid, "pimc_tau": 0.0, "pimc_eps": 0.5}, "default", "random", "default"], BOTH)
    assert np.array_equal(a, b)
    c = _rows(120, 3, [{**bid, "pimc_infer": 1.0}, "default", "random", "default"], BOTH)
    assert not np.array_equal(a, c)
    cards = _rows(120, 3, ["pimc-fast", "default", "random", "default"], BOTH)
    inferred = _rows(120, 3, [{**V.presets["pimc-fast"], "pimc_infer": 1.0}, "default", "random", "default"], BOTH)
    assert not np.array_equal(cards[:, eh.R_PLAYS:eh.R_TRICKS], inferred[:, eh.R_PLAYS:eh.R_TRICKS])
    # (the card player's inference leaves the auction alone: the first hand's, before the streams part)
    assert np.array_equal(cards[0, :eh.R_NPLAYS], inferred[0, :eh.R_NPLAYS])


# ---------------------------------------------------------------- the true deal: double-dummy best

class _DD:
    """Net points of seat 0's side for a contract on open hands, by the plain solver (some by the reference)."""

    def __init__(self):
        self.keys, self.tags, self.bounds = new_table()
        self.nodes = np.zeros(1, np.int64)
        self.checked = 0

    def net(self, hands, trump, maker, dealer, maker_alone, lone):
        out = (1 << (maker ^ 2) if maker_alone else 0) | (1 << (lone ^ 2) if lone >= 0 else 0)
        active = 15 & ~out
        leader = (dealer + 1) % 4
        while out >> leader & 1:
            leader = (leader + 1) % 4
        h = np.array([x if active >> s & 1 else 0 for s, x in enumerate(hands)], np.int64)
        sides = ((1 << maker) | (1 << (maker ^ 2))) & active
        mt = int(solve_position(h, np.int64(active), np.int64(trump), np.zeros(4, np.int64), np.int64(0),
                                np.int64(leader), np.int64(sides), self.keys, self.tags, self.bounds, self.nodes))
        if out and self.checked < 12:  # a lone hand (15 cards): the exhaustive minimax agrees
            assert dd.dd_value([int(x) for x in h], active, trump, [], leader, sides) == mt
            self.checked += 1
        mk, df = eh.score_hand(np.int64(mt), maker_alone, lone >= 0, encode(V, resolve(V, {})), False)  # defaults
        return (mk - df) if maker % 2 == 0 else (df - mk)


def _seer():
    return {**V.presets["default"], "pimc_worlds": 1.0, "pimc_sees_all": 1.0, "pimc_bid": 1.0}


@pytest.mark.parametrize("rules", [{}, BOTH, {"discard_up": True}])
def test_searched_discard_with_the_true_deal_is_double_dummy_best(rules):
    rules_vec = encode(V, resolve(V, rules))
    strategies = [_seer(), "default", "default", "default"]
    params, wt = _params(strategies)
    solver = _DD()
    searched = differs = 0
    for rec in _rows(600, 21, strategies, rules):
        dealer, up, discard = int(rec[eh.R_DEALER]), int(rec[eh.R_KITTY]), int(rec[eh.R_DISCARD])
        if dealer != 0 or discard < 0:
            continue
        maker = int(rec[eh.R_MAKER])
        dealt = [int(rec[eh.R_DEAL + s]) for s in range(4)]
        values = {}
        for d in _bits(dealt[0] | (1 << up if rules.get("discard_up") else 0)):  # discard_up: the up-card too
            hands = np.array(dealt, np.int64)
            hands[0] = (dealt[0] | 1 << up) & ~(1 << d)
            dstate, dbuf = _stream(0)
            # the maker goes alone as it did (seat 0: as it chose with its call), the defenders by their strategies
            f_alone = int(rec[eh.R_ALONE]) & 1 if maker == 0 else -1
            m_alone, lone, _, _ = eh.contract(hands, np.int64(up // 6), np.int64(maker), np.int64(0), rules_vec, params,
                                              wt, np.int64(0 if maker == 0 else -1), np.int64(f_alone), dstate, dbuf,
                                              True)
            values[d] = solver.net(hands.tolist(), up // 6, maker, 0, bool(m_alone), int(lone))
        assert values[discard] == max(values.values()), (rec.tolist(), values)
        mine, _ = eh.best_discard(np.int64(dealt[0] | 1 << up), np.int64(up), np.int64(up // 6), wt, np.int64(0),
                                  params[0, eh.PARAM_NAMES.index("w_void")])
        differs += mine != discard
        searched += 1
    assert searched > 50 and differs > 3


def test_searched_defending_alone_with_the_true_deal_is_double_dummy_best():
    rules_vec = encode(V, resolve(V, BOTH))
    strategies = [_seer(), "default", "aggressive", "default"]
    params, wt = _params(strategies)
    solver = _DD()
    asked = went = differs = 0
    for rec in _rows(500, 5, strategies, BOTH):
        maker = int(rec[eh.R_MAKER])
        if maker < 0 or maker % 2 == 0:
            continue
        dealer, up, discard, alone = (int(rec[eh.R_DEALER]), int(rec[eh.R_KITTY]), int(rec[eh.R_DISCARD]),
                                      int(rec[eh.R_ALONE]))
        trump = int(rec[eh.R_TRUMP])
        hands = [int(rec[eh.R_DEAL + s]) for s in range(4)]
        if discard >= 0:
            hands[dealer] = hands[dealer] & ~(1 << discard) | 1 << up
        d, e = (maker + 1) % 4, (maker + 3) % 4
        if (e - dealer - 1) % 4 < (d - dealer - 1) % 4:
            d, e = e, d
        if d != 0 and alone >> d & 1:
            continue  # the first defender went alone: seat 0 was not asked
        m_alone = bool(alone >> maker & 1)
        second = e if d == 0 else -1
        if second >= 0 and alone_decision(np.int64(hands[second]), np.int64(trump), wt, params, np.int64(second),
                                          True):
            other = second
        else:
            other = -1
        values = {1: solver.net(hands, trump, maker, dealer, m_alone, 0),
                  0: solver.net(hands, trump, maker, dealer, m_alone, other)}
        chose = alone & 1
        assert values[chose] == max(values.values()), (rec.tolist(), values)
        strategy = bool(alone_decision(np.int64(hands[0]), np.int64(trump), wt, params, np.int64(0), True))
        differs += strategy != bool(chose)
        asked += 1
        went += chose
    assert asked > 100 and went > 3 and differs > 3


# ---------------------------------------------------------------- seeds

@pytest.mark.parametrize("rules", [{}, BOTH])
def test_same_records_on_one_and_two_threads(rules):
    k = V.hand_kernels
    fast = V.presets["pimc-fast"]
    strategies = [{**fast, "pimc_bid": 1.0, "pimc_infer": 1.0}, "random", {**fast, "pimc_bid": 1.0},
                  {**fast, "pimc_infer": 1.0}]
    _, params = runner.seat_params(strategies, "euchre")
    _, _, rules_vec = runner.resolve_run("euchre", 9, rules)
    got = []
    try:
        for threads in (1, 2):
            numba.set_num_threads(threads)
            records = np.zeros((4 * 24, k.R_WIDTH), np.int64)
            summary = np.zeros((4, k.S_WIDTH), np.int64)
            V.run_chunks(runner.chunk_states(9, 0, 4), runner.decision_states(9, 0, 4), 0, 24, 4 * 24, rules_vec,
                         params, True, records, summary)
            got.append((records, summary))
    finally:
        numba.set_num_threads(runner.max_threads())
    assert np.array_equal(got[0][0], got[1][0]) and np.array_equal(got[0][1], got[1][1])
