"""Hasenpfeffer's PIMC auction: worlds weighed by the auction (``pimc_infer``), searched calls, trump and discard.

- **World weights.** With the auction model sharp (``pimc_tau`` 0,
  ``pimc_eps`` 0) a world's weight is 1 exactly when the strategies, holding
  that world's cards, make every call of the hand and (for a card) the
  bidder names the trump and discards the card the world has out of play,
  else 0: checked by replaying the reference twin's auction and widow choice
  on every world, for a card and for a call. With the tremble every weight
  is positive. ``pimc_infer`` 0 and ``pimc_bid`` 0 change no record.
- **The true deal.** With ``pimc_sees_all`` and ``pimc_bid`` every searched
  call and every trump and discard is the double-dummy best among the
  candidates: the auction finished and the widow taken by the twin, every
  contract solved by the plain solver (``solve_position``), scored by the
  twin; the widow search also on hypothesis-drawn deals, every candidate's value.
- **Seeds.** The same records on 1 and 2 threads with searching seats.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bower.kernels import pimc
from bower.kernels.hasenpfeffer import hand as hk
from bower.kernels.rng import splitmix_seed
from bower.kernels.solve import new_table, solve_position
from bower.sim import runner
from bower.sim.rules import encode, resolve
from bower.sim.variants import get_variant
from tests.chunks import records_on_one_and_two_threads
from tests.reference import hasenpfeffer as hp
from tests.reference import hasenpfeffer_play as hpp

V = get_variant("hasenpfeffer")
ONE = 2 ** 52  # weight 1 in the test kernels' fixed point


def _rows(hands: int, seed: int, strategy, rules=None) -> np.ndarray:
    out = []
    runner.rows_run("hasenpfeffer", hands, seed, 1, rules or {}, strategy, out.append)
    return np.concatenate(out)


def _stream(seed: int):
    dstate = np.empty(4, np.uint64)
    splitmix_seed(np.uint64(seed), dstate)
    return dstate, np.zeros(2, np.int64)


def _calls(rec) -> list[tuple[int, int]]:
    return [(int(rec[hk.R_CALLS + 2 * i]), int(rec[hk.R_CALLS + 2 * i + 1])) for i in range(int(rec[hk.R_NCALLS]))]


def _level(call, rules) -> int:
    return 0 if call == hp.PASS else hp.bid_level(call, rules)


def _twin_auction(masks, dealer, rules, seats, stop=None):
    """The twin's calls on hands ``masks`` (by seat) as (seat, level), the first ``stop`` of them (None: all)."""
    hands = [hp.cards_from_mask(m) for m in masks]
    calls = hpp.run_auction(hands, dealer, rules, seats, None)
    return [(s, _level(c, rules)) for s, c in calls][:stop]


SHARP_RULES = [{}, {"widow": "dead", "pass_is_final": True}, {"bidding": "pepper", "all_pass": "redeal"}]


@pytest.mark.parametrize("rules", SHARP_RULES)
def test_sharp_card_weights_reproduce_the_auction(rules):
    rules = hp.resolve_rules(rules)
    rules_vec = encode(V, resolve(V, rules))
    sharp = {**V.presets["default"], "pimc_worlds": 8.0, "pimc_tau": 0.0, "pimc_eps": 0.0}
    _, params = runner.seat_params([sharp] * 4, "hasenpfeffer")
    seats = [hpp.resolve_params(sharp)] * 4
    recs = _rows(160, 7, "default", rules)
    n_worlds = 12
    out = np.zeros((n_worlds, 7), np.int64)
    kept = dropped = 0
    for i, rec in enumerate(recs):
        bidder = int(rec[hk.R_BIDDER])
        if bidder < 0:
            continue
        seat = i % 4
        n = (i * 7) % 14
        observed = _calls(rec)
        dealer = int(rec[hk.R_DEALER])
        dstate, dbuf = _stream(i)
        assert hk.pimc_world_weights(rec, np.int64(seat), np.int64(n), rules_vec, params, np.int64(n_worlds), dstate,
                                     dbuf, out)
        for k in range(n_worlds):
            dealt = [int(x) for x in out[k, :4]]
            widow, discard, w = int(out[k, 4]), int(out[k, 5]), int(out[k, 6])
            assert w in (0, ONE)
            assert sum(bin(x).count("1") for x in dealt) == 24 and (dealt[0] | dealt[1] | dealt[2] | dealt[3]
                                                                      | 1 << widow) == (1 << 25) - 1
            same = _twin_auction(dealt, dealer, rules, seats) == observed
            if same:  # the contract follows from the calls; then the widow as the bidder's strategy takes it
                t, d = hpp.widow_choice(hp.cards_from_mask(dealt[bidder]), hp.card_from_index(widow), rules,
                                        seats[bidder])
                same = t == rec[hk.R_TRUMP] and (-1 if d is None else d.index) == discard
            if w == ONE:
                assert same, (rec.tolist(), seat, n, k)
                kept += 1
            else:
                assert not same, (rec.tolist(), seat, n, k)
                dropped += 1
    assert kept > 40 and dropped > 200


def test_sharp_call_weights_reproduce_the_calls():
    rules = hp.resolve_rules({})
    rules_vec = encode(V, resolve(V, rules))
    sharp = {**V.presets["default"], "pimc_worlds": 8.0, "pimc_tau": 0.0, "pimc_eps": 0.0}
    _, params = runner.seat_params([sharp] * 4, "hasenpfeffer")
    seats = [hpp.resolve_params(sharp)] * 4
    n_worlds = 12
    out = np.zeros((n_worlds, 6), np.int64)
    kept = dropped = 0
    for i, rec in enumerate(_rows(120, 5, "default")):
        observed = _calls(rec)
        k = 1 + i % max(1, len(observed) - 1)  # a turn after at least one call
        if k >= len(observed):
            continue
        seat, dealer = observed[k][0], int(rec[hk.R_DEALER])
        prefix = np.array(observed[:k], np.int64).reshape((k, 2))
        dstate, dbuf = _stream(i)
        hk.pimc_call_weights(np.int64(rec[hk.R_DEAL + seat]), np.int64(seat), np.int64(dealer), prefix, rules_vec,
                             params, np.int64(n_worlds), dstate, dbuf, out)
        for j in range(n_worlds):
            dealt = [int(x) for x in out[j, :4]]
            assert dealt[seat] == rec[hk.R_DEAL + seat]
            same = _twin_auction(dealt, dealer, rules, seats, stop=k) == observed[:k]
            assert out[j, 5] == (ONE if same else 0), (rec.tolist(), k, j)
            kept += same
            dropped += not same
    assert kept > 100 and dropped > 100


def test_tremble_keeps_every_world():
    rules_vec = encode(V, resolve(V, {}))
    _, params = runner.seat_params(["pimc-fast"] * 4, "hasenpfeffer")  # pimc_tau 0.25, pimc_eps 0.01
    out = np.zeros((16, 7), np.int64)
    calls_out = np.zeros((16, 6), np.int64)
    for i, rec in enumerate(_rows(40, 8, "default")):
        dstate, dbuf = _stream(i)
        if rec[hk.R_BIDDER] >= 0:
            hk.pimc_world_weights(rec, np.int64(i % 4), np.int64(5), rules_vec, params, np.int64(16), dstate, dbuf,
                                  out)
            assert (out[:, 6] > 0).all() and (out[:, 6] <= ONE).all()
        observed = _calls(rec)
        k = len(observed) - 1
        prefix = np.array(observed[:k], np.int64).reshape((k, 2))
        seat = observed[k][0]
        hk.pimc_call_weights(np.int64(rec[hk.R_DEAL + seat]), np.int64(seat), np.int64(rec[hk.R_DEALER]), prefix,
                             rules_vec, params, np.int64(16), dstate, dbuf, calls_out)
        assert (calls_out[:, 5] > 0).all()


def test_pimc_infer_and_pimc_bid_zero_change_nothing():
    fast = V.presets["pimc-fast"]
    a = _rows(120, 3, [fast, "default", "random", "default"])
    b = _rows(120, 3, [{**fast, "pimc_tau": 0.0, "pimc_eps": 0.5, "pimc_infer": 0.0, "pimc_bid": 0.0}, "default",
                       {**V.presets["random"], "pimc_bid": 1.0}, {"pimc_bid": 1.0}])  # pimc_bid without worlds: off
    assert np.array_equal(a, b)
    c = _rows(120, 3, [{**fast, "pimc_infer": 1.0}, "default", "random", "default"])
    assert not np.array_equal(a[:, hk.R_PLAYS:], c[:, hk.R_PLAYS:])
    assert np.array_equal(a[0, :hk.R_NPLAYS], c[0, :hk.R_NPLAYS])  # the first hand's auction is the same
    d = _rows(120, 3, [{**fast, "pimc_bid": 1.0}, "default", "random", "default"])
    assert not np.array_equal(a[:, hk.R_NCALLS:hk.R_NPLAYS], d[:, hk.R_NCALLS:hk.R_NPLAYS])


# ---------------------------------------------------------------- the true deal: double-dummy best


class _Solver:
    """The plain solver on one table: the bidding side's tricks of a whole deal from the first lead."""

    def __init__(self):
        self.keys, self.tags, self.bounds = new_table()
        self.nodes = np.zeros(1, np.int64)

    def tricks(self, hands, trump, leader, bidder):
        return int(solve_position(np.array(hands, np.int64), np.int64(15), np.int64(trump), np.zeros(4, np.int64),
                                  np.int64(0), np.int64(leader), np.int64(5 << (bidder & 1)), self.keys, self.tags,
                                  self.bounds, self.nodes))


def _net(side, bidder, level, taken, rules, rival=1.0):
    """Net points of ``side`` (its points less ``rival`` times the other side's) by the twin's score."""
    bp, dp = hp.score_hand(hp.bids(rules)[level - 1], taken, rules)
    return (bp - rival * dp) if bidder % 2 == side else (dp - rival * bp)


def _contract_value(solver, deal, widow, dealer, rules, seats, prefix, k, call, side, rival=1.0):
    """``side``'s net points (the other side's weighed by ``rival``) when the calls ``prefix`` are made, seat 0
    calls ``call`` at turn ``k`` and the twin finishes the auction and takes the widow, the contract solved double
    dummy."""
    hands = [hp.cards_from_mask(m) for m in deal]
    made, standing, standing_bidder = [], 0, None
    for s, lvl in prefix:
        made.append(hp.PASS if lvl == 0 else hp.bids(rules)[lvl - 1])
        if lvl:
            standing, standing_bidder = lvl, s
    while True:
        seat = hp.next_caller(made, dealer, rules)
        if seat is None:
            break
        if len(made) == k:
            assert seat == 0
            lvl = call
        else:
            lvl = hpp.auction_call(seat, hands[seat], standing, standing_bidder, rules, seats[seat])
        made.append(hp.PASS if lvl == 0 else hp.bids(rules)[lvl - 1])
        if lvl:
            standing, standing_bidder = lvl, seat
    joker = next((s for s in range(4) if deal[s] >> 24 & 1), None)
    outcome = hp.auction_outcome(made, dealer, joker, rules)
    if outcome.thrown_in:
        return 0
    bidder, level = outcome.bidder, hp.bid_level(outcome.bid, rules)
    t, d = hpp.widow_choice(hands[bidder], hp.card_from_index(widow), rules, seats[bidder])
    held = list(deal)
    if d is not None:
        held[bidder] = (deal[bidder] | 1 << widow) & ~(1 << d.index)
    taken = solver.tricks(held, t, hp.first_leader(dealer, bidder, rules), bidder)
    return _net(side, bidder, level, taken, rules, rival)


def _widow_values(solver, hand, widow, others, me, dealer, level, rules, rival=1.0):
    """{(trump, discard index or -1): net points of ``me``'s side (the defenders' weighed by ``rival``)} over every
    trump and discard (plain solver)."""
    seven = hand | (0 if rules["widow"] == "dead" else 1 << widow)
    discards = [-1] if rules["widow"] == "dead" else [c for c in range(25) if seven >> c & 1]
    leader = hp.first_leader(dealer, me, rules)
    values = {}
    for t in range(4):
        for d in discards:
            held = list(others)
            held[me] = seven if d < 0 else seven & ~(1 << d)
            values[t, d] = _net(me % 2, me, level, solver.tricks(held, t, leader, me), rules, rival)
    return values


TRUE_RULES = [{}, {"bidding": "pepper", "pass_is_final": True, "first_lead": "bidder",
                   "defenders_score_tricks": True}, {"widow": "dead", "fail_penalty": "undertricks"}]


SEARCH_SETTINGS = [(0.0, 1.0), (1.5, 1.0), (0.0, 0.25), (2.0, 0.5)]  # (pimc_bid_cushion, pimc_bid_rival)


@pytest.mark.parametrize("cushion, rival", SEARCH_SETTINGS)
@pytest.mark.parametrize("rules", TRUE_RULES)
def test_searched_auction_with_the_true_deal_is_double_dummy_best(rules, cushion, rival):
    """Every searched call is the best of the candidates' values on the true deal, each bid less the cushion, the
    other side's points weighed by ``rival``; the widow's trump and discard likewise (``rival``)."""
    rules = hp.resolve_rules(rules)
    seer = {**V.presets["default"], "pimc_worlds": 1.0, "pimc_sees_all": 1.0, "pimc_bid": 1.0,
            "pimc_bid_cushion": cushion, "pimc_bid_rival": rival}
    strategies = [seer, "default", "default", "default"]
    seats = [hpp.resolve_params(s) for s in strategies]
    recs = _rows(60, 11, strategies, rules)
    solver = _Solver()
    top = 7 if rules["bidding"] == "pepper" else 6
    turns = bids = widows = 0
    for rec in recs:
        deal = [int(rec[hk.R_DEAL + s]) for s in range(4)]
        widow, dealer = int(rec[hk.R_WIDOW]), int(rec[hk.R_DEALER])
        calls = _calls(rec)
        for k, (s, call) in enumerate(calls):
            standing = max([c for _, c in calls[:k]] + [0])
            if s != 0 or standing == top:
                continue
            values = {c: _contract_value(solver, deal, widow, dealer, rules, seats, calls[:k], k, c, 0, rival)
                      - (cushion if c else 0.0) for c in [0, *range(standing + 1, top + 1)]}
            assert values[call] == max(values.values()), (rec.tolist(), k, values)
            turns += 1
            bids += call != 0
        if rec[hk.R_BIDDER] == 0:
            values = _widow_values(solver, deal[0], widow, deal, 0, dealer, int(rec[hk.R_BID]), rules, rival)
            chosen = (int(rec[hk.R_TRUMP]), int(rec[hk.R_DISCARD]))
            assert values[chosen] == max(values.values()), (rec.tolist(), values)
            widows += 1
    assert turns > 40 and bids > 5 and widows > 4


def _replica_calls(dealt, widow, dealer, rules_vec, params, wt, dstate, dbuf):
    """The searched auction's calls by its rule, in Python over the kernels' ``auction`` and ``_call_values``
    (the same decision stream): each searching seat takes the candidate of the highest mean value over its
    worlds, each bid less its ``pimc_bid_cushion`` (ties: its strategy's call)."""
    force = hk.NO_FORCE.copy()
    calls = np.zeros((hk.MAX_CALLS, 2), np.int64)
    scratch = np.zeros(hk.R_WIDTH, np.int64)
    ws = pimc.new_workspace()
    joker = next((s for s in range(4) if dealt[s] >> 24 & 1), -1)
    high, n, out = 0, 0, []
    while True:
        force[hk.F_GIVEN] = n
        hk.auction(dealt.copy(), np.int64(joker), np.int64(dealer), rules_vec, params, wt, force, dstate, dbuf, scratch, None)
        if scratch[hk.R_NCALLS] <= n:
            return out
        seat, call = int(scratch[hk.R_CALLS + 2 * n]), int(scratch[hk.R_CALLS + 2 * n + 1])
        if params[seat, hk.P_PIMC_BID] >= 0.5 and params[seat, hk.P_PIMC] >= 1 and high < 6:
            cand = np.array([0, *range(high + 1, 7), 0], np.int64)[:8]
            n_cand = 7 - high
            vals = np.zeros(8)
            total = hk._call_values(np.int64(seat), np.int64(n), calls, force, cand, np.int64(n_cand), dealt,
                                    np.int64(widow), np.int64(dealer), rules_vec, params, wt, dstate, dbuf, ws, vals)
            means = [vals[i] - (params[seat, hk.P_PIMC_CUSHION] * total if i else 0.0) for i in range(n_cand)]
            best = list(cand[:n_cand]).index(call)
            for i in range(n_cand):
                if means[i] > means[best]:
                    best = i
            call = int(cand[best])
        force[hk.F_GIVEN_CALLS + n] = call
        calls[n] = seat, call
        out.append((seat, call))
        high = max(high, call)
        n += 1


@pytest.mark.parametrize("cushion, rival", [(0.0, 1.0), (1.5, 1.0), (0.75, 0.25)])
def test_searched_calls_follow_the_rule_on_sampled_worlds(cushion, rival):
    """On sampled worlds (8 a call) the kernel's searched calls are the rule's (``_replica_calls``): with cushion
    0 and rival 1 the plain search's argmax of the net points."""
    rules_vec = encode(V, resolve(V, {}))
    searcher = {**V.presets["pimc-fast"], "pimc_bid": 1.0, "pimc_bid_cushion": cushion, "pimc_bid_rival": rival}
    _, params = runner.seat_params([searcher, "default", searcher, "default"], "hasenpfeffer")
    wt = np.zeros((4, 4, 25))
    hk.card_weights(params, wt)
    work, rec = np.zeros(16, np.int64), np.zeros(hk.R_WIDTH, np.int64)
    rng = np.random.default_rng(3)
    searched = 0
    for i in range(24):
        order = rng.permutation(25)
        dealt = np.array([sum(1 << int(c) for c in order[6 * s:6 * s + 6]) for s in range(4)], np.int64)
        widow, dealer = int(order[24]), i % 4
        dstate, dbuf = _stream(100 + i)
        hk.play_dealt_once(dealt, np.int64(widow), np.int64(dealer), rules_vec, params, wt, hk.NO_FORCE, dstate,
                           dbuf, work, rec, rec, None)
        dstate, dbuf = _stream(100 + i)
        assert _calls(rec) == _replica_calls(dealt, widow, dealer, rules_vec, params, wt, dstate, dbuf), i
        searched += sum(1 for s, _ in _calls(rec) if s % 2 == 0)
    assert searched > 24


def test_cushion_and_rival_change_the_calls():
    """A cushion above any hand's worth makes a searching seat pass at every turn (its only contracts the forced
    3); a cushion of 1 and a rival weight of 0.25 each change some calls of the plain search."""
    plain = {**V.presets["pimc-fast"], "pimc_bid": 1.0, "pimc_bid_cushion": 0.0, "pimc_bid_rival": 1.0}
    strategies = lambda p: [p, "default", p, "default"]  # noqa: E731
    calls = lambda rows: [_calls(r) for r in rows]  # noqa: E731
    a = _rows(60, 13, strategies(plain))
    never = _rows(60, 13, strategies({**plain, "pimc_bid_cushion": 100.0}))
    for rec in never:
        assert all(c == 0 for s, c in _calls(rec) if s % 2 == 0), rec.tolist()
        if rec[hk.R_BIDDER] >= 0 and rec[hk.R_BIDDER] % 2 == 0:
            assert rec[hk.R_FORCED] == 1
    assert calls(_rows(60, 13, strategies({**plain, "pimc_bid_cushion": 1.0}))) != calls(a)
    assert calls(_rows(60, 13, strategies({**plain, "pimc_bid_rival": 0.25}))) != calls(a)


@settings(max_examples=30, deadline=None)
@given(order=st.permutations(range(25)), me=st.integers(0, 3), dealer=st.integers(0, 3), level=st.integers(1, 6),
       dead=st.booleans(), bidder_leads=st.booleans())
def test_searched_widow_with_the_true_deal_is_double_dummy_best(order, me, dealer, level, dead, bidder_leads):
    rules = hp.resolve_rules({"widow": "dead" if dead else "exchange",
                              "first_lead": "bidder" if bidder_leads else "dealer_left"})
    rules_vec = encode(V, resolve(V, rules))
    seer = {**V.presets["default"], "pimc_worlds": 1.0, "pimc_sees_all": 1.0, "pimc_bid": 1.0}
    _, params = runner.seat_params([seer] * 4, "hasenpfeffer")  # the widow's values weigh the defenders' points by 1
    wt = np.zeros((4, 4, 25))
    hk.card_weights(params, wt)
    deal = [sum(1 << c for c in order[6 * s:6 * s + 6]) for s in range(4)]
    widow = order[24]
    rec = np.zeros(hk.R_WIDTH, np.int64)
    rec[hk.R_DEALER] = dealer
    dstate, dbuf = _stream(1)
    t, d, held = hk.pimc_widow(np.int64(me), np.int64(level), np.int64(deal[me]), np.int64(widow), rec,
                               np.array(deal, np.int64), rules_vec, params, wt, dstate, dbuf, pimc.new_workspace())
    values = _widow_values(_Solver(), deal[me], widow, deal, me, dealer, level, rules)
    assert values[int(t), int(d)] == max(values.values()), (order, me, values)
    # and every candidate's value (the equivalent discards solved once included) is the plain solver's
    cards, vals = np.zeros(8, np.int64), np.zeros(32)
    n_d = hk.widow_values(np.int64(me), np.int64(level), np.int64(deal[me]), np.int64(widow), rec,
                          np.array(deal, np.int64), rules_vec, params, wt, dstate, dbuf, pimc.new_workspace(), cards,
                          vals)
    assert {(tt, int(cards[j])): vals[8 * tt + j] for tt in range(4) for j in range(n_d)} == values
    seven = deal[me] | (0 if dead else 1 << widow)
    assert held == (seven if dead else seven & ~(1 << int(d)))


def test_searched_auction_same_seed_same_games_for_one_and_two_threads():
    fast = V.presets["pimc-fast"]
    strategy = [{**fast, "pimc_bid": 1.0, "pimc_infer": 1.0}, "random",
                {**fast, "pimc_bid": 1.0, "pimc_bid_cushion": 1.0, "pimc_bid_rival": 0.5}, "default"]
    _, params = runner.seat_params(strategy, "hasenpfeffer")
    got = records_on_one_and_two_threads(V, params, n_chunks=2, chunk=12)
    assert np.array_equal(got[0][0], got[1][0]) and np.array_equal(got[0][1], got[1][1])
