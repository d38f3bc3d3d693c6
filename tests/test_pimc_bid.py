"""The PIMC player's auction: worlds weighed by the calls (Ghost Hand), searched calls (Ghost Hand, Euchre), seeds.

- **World weights** (``pimc_infer``). With the auction model sharp
  (``pimc_tau`` 0, ``pimc_eps`` 0) a world's weight is 1 exactly when the
  strategy, holding that world's cards, makes the swap, every call and the
  trump of the hand, else 0 (checked by replaying the strategy's auction on
  every world); with the tremble the weights are positive. ``pimc_infer`` 0
  changes nothing.
- **The true deal.** With ``pimc_sees_all`` and ``pimc_bid`` every searched
  call (and Ghost Hand's swap decision and trump, Euchre's going alone) is
  the double-dummy best among the candidates, checked with the kernels'
  auction and the plain solver.
- **Seeds.** The same records on 1 and 2 threads with searching seats; the
  search changes the auction. ``should-bid --playout pimc``: the same answer
  on 1 and 2 threads, the same deals as the strategy play-out, other points.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bower.kernels.ghost import hand as gh
from bower.kernels.ghost.strategy import strategy_rows
from bower.kernels.rng import splitmix_seed
from bower.kernels.solve import new_table, solve_position
from bower.sim import runner
from bower.sim.rules import encode, resolve
from bower.sim.variants import get_variant
from tests.chunks import records_on_one_and_two_threads

V = get_variant("ghost")


def _rows(hands: int, seed: int, strategy, rules=None) -> np.ndarray:
    out = []
    runner.rows_run("ghost", hands, seed, 1, rules or {}, strategy, out.append)
    return np.concatenate(out)


def _strategy_rows(**changes) -> np.ndarray:
    _, params = runner.seat_params({**V.presets["default"], **changes}, "ghost")
    return strategy_rows(params)


def _stream(seed: int):
    dstate = np.empty(4, np.uint64)
    splitmix_seed(np.uint64(seed), dstate)
    return dstate, np.zeros(2, np.int64)


def _auction_of(dealt, dealer, rules_vec, rows):
    """The strategy's own auction on a deal as dealt (seats 0..2, ghost): (swapper, calls, trump)."""
    rec = np.zeros(gh.R_WIDTH, np.int64)
    hands = np.array(dealt[:3], np.int64)
    dstate, dbuf = _stream(0)
    _, _, trump = gh.auction(hands, np.int64(dealt[3]), np.int64(dealer), rules_vec, rows[:3], np.zeros(3, np.int64),
                             np.int64(32), gh.NO_FORCE, dstate, dbuf, rec)
    n = int(rec[gh.R_NCALLS])
    return int(rec[gh.R_SWAP]), rec[gh.R_CALLS:gh.R_CALLS + 2 * n].tolist(), int(trump)


@pytest.mark.parametrize("rules", [{}, {"auction": "until_passes"}])
def test_sharp_weights_reproduce_the_auction(rules):
    rules_vec = encode(V, resolve(V, rules))
    rows = _strategy_rows(pimc_tau=0.0, pimc_eps=0.0)
    rows3 = np.repeat(rows, 3, axis=0)
    recs = _rows(200, 7, "default", rules)
    n_worlds = 24
    out = np.zeros((n_worlds, 4), np.int64)
    w = np.zeros(n_worlds)
    kept = dropped = true_checked = 0
    for i, rec in enumerate(recs):
        if rec[gh.R_MAKER] < 0:
            continue
        observed = (int(rec[gh.R_SWAP]), rec[gh.R_CALLS:gh.R_CALLS + 2 * int(rec[gh.R_NCALLS])].tolist(),
                    int(rec[gh.R_TRUMP]))
        if i % 10 == 0:  # the true deal reproduces its own auction
            true = [int(rec[gh.R_DEAL + s]) for s in range(4)]
            assert _auction_of(true, rec[gh.R_DEALER], rules_vec, rows3) == observed
            true_checked += 1
        seat = i % 3
        n = (i * 7) % 10  # a few plays in
        dstate, dbuf = _stream(i)
        assert gh.pimc_world_weights(rec, np.int64(seat), np.int64(n), rows, rules_vec, np.zeros(3, np.int64),
                                     np.int64(32), np.int64(n_worlds), dstate, dbuf, out, w)
        for k in range(n_worlds):
            assert w[k] in (0.0, 1.0)
            same = _auction_of(out[k].tolist(), rec[gh.R_DEALER], rules_vec, rows3)
            # (the seat's own decisions are not weighed: its cards are the true ones in every world)
            if w[k] == 1.0:
                assert same == observed
                kept += 1
            else:
                assert same != observed
                dropped += 1
    assert kept > 200 and dropped > 200 and true_checked > 5


def test_tremble_keeps_every_world():
    rules_vec = encode(V, resolve(V, {}))
    rows = _strategy_rows()  # pimc_tau 0.25, pimc_eps 0.01
    out = np.zeros((16, 4), np.int64)
    w = np.zeros(16)
    for i, rec in enumerate(_rows(40, 8, "default")[:40]):
        if rec[gh.R_MAKER] < 0:
            continue
        dstate, dbuf = _stream(i)
        gh.pimc_world_weights(rec, np.int64(i % 3), np.int64(3), rows, rules_vec, np.zeros(3, np.int64), np.int64(32),
                              np.int64(16), dstate, dbuf, out, w)
        assert (w > 0).all() and (w <= 1).all()


def test_pimc_infer_zero_changes_nothing():
    a = _rows(200, 3, ["pimc-fast", "default", "random"])
    b = _rows(200, 3, [{**V.presets["pimc-fast"], "pimc_tau": 0.0, "pimc_eps": 0.5}, "default", "random"])
    assert np.array_equal(a, b)
    c = _rows(200, 3, [{**V.presets["pimc-fast"], "pimc_infer": 1.0}, "default", "random"])
    assert not np.array_equal(a, c)


def _pack(calls) -> int:
    packed = 0
    for i, (s, c) in enumerate(calls):
        packed |= ((s << 3) | c) << (5 * i)
    return packed


def _dd_points(rec_deal, dealer, rules_vec, rows, force, keys, tags, bounds, nodes, trump=None):
    """Seat 0's points when the auction is finished with ``force`` and the contract solved double dummy (the
    true deal), from the kernels' auction and the plain solver: (points, maker, trump)."""
    rec = np.zeros(gh.R_WIDTH, np.int64)
    hands = np.array(rec_deal[:3], np.int64)
    dstate, dbuf = _stream(0)
    maker, bid, t = gh.auction(hands, np.int64(rec_deal[3]), np.int64(dealer), rules_vec, rows,
                               np.zeros(3, np.int64), np.int64(32), np.array(force, np.int64), dstate, dbuf, rec)
    if maker < 0:
        return 0, -1, -1
    t = t if trump is None else trump
    tricks = solve_position(np.array([*hands, 0], np.int64), np.int64(7), np.int64(t), np.zeros(4, np.int64),
                            np.int64(0), np.int64(maker), np.int64(1), keys, tags, bounds, nodes)
    if maker != 0:
        return int(tricks), int(maker), int(t)
    return int(gh.score_of(np.int64(0), np.int64(bid), np.int64(tricks), np.int64(0), np.int64(0), rules_vec)[0]), 0, t


@pytest.mark.parametrize("rules", [{}, {"auction": "until_passes", "stick_the_dealer": True}])
def test_searched_auction_with_the_true_deal_is_double_dummy_best(rules):
    rules_vec = encode(V, resolve(V, rules))
    seer = {**V.presets["default"], "pimc_worlds": 1.0, "pimc_sees_all": 1.0, "pimc_bid": 1.0}
    strategies = [seer, "default", "default"]
    _, params = runner.seat_params(strategies, "ghost")
    rows = strategy_rows(params)
    recs = _rows(150, 11, strategies, rules)
    keys, tags, bounds = new_table()
    nodes = np.zeros(1, np.int64)
    turns = swaps_searched = trumps = 0
    for rec in recs:
        deal = [int(rec[gh.R_DEAL + s]) for s in range(4)]
        dealer = int(rec[gh.R_DEALER])
        calls = [(int(rec[gh.R_CALLS + 2 * i]), int(rec[gh.R_CALLS + 2 * i + 1])) for i in range(int(rec[gh.R_NCALLS]))]
        swapper = int(rec[gh.R_SWAP])
        first_turn = {}
        for i, (s, _) in enumerate(calls):
            first_turn.setdefault(s, i)
        for k, (s, call) in enumerate(calls):
            if s != 0:
                continue
            swapped_before = swapper if swapper >= 0 and first_turn[swapper] < k else -1
            opening = k == first_turn[0] and swapped_before < 0 and rules_vec[gh.G_SWAP] == 1
            made_swap = 1 if opening and swapper == 0 else (0 if opening else -1)
            standing = max([c for _, c in calls[:k]] + [0])
            passes = sum(1 for _, c in calls[:k] if c == 0)
            stuck = rules.get("stick_the_dealer") and dealer == 0 and passes == 2 and standing == 0
            legal = ([] if stuck else [0]) + list(range(max(3, standing + 1), 7))

            def value(swap, c):
                force = [0, k, swap, c, -1, k, _pack(calls[:k]), swapped_before]
                return _dd_points(deal, dealer, rules_vec, rows, force, keys, tags, bounds, nodes)[0]

            values = {c: value(made_swap, c) for c in legal}
            assert values[call] == max(values.values()), (rec.tolist(), k, values)
            if opening:  # keeping (at its best call) against swapping (then the strategy's call on the ghost)
                keep = max(value(0, c) for c in legal)
                swap = value(1, -1)
                assert (swap >= keep) if swapper == 0 else (keep >= swap), (rec.tolist(), keep, swap)
                swaps_searched += 1
            turns += 1
        if rec[gh.R_MAKER] == 0:  # the trump the searching maker names is its best on the true deal
            force = [0, len(calls), -1, -1, -1, len(calls), _pack(calls), swapper]
            by_trump = [_dd_points(deal, dealer, rules_vec, rows, force, keys, tags, bounds, nodes, trump=t)[0]
                        for t in range(4)]
            assert by_trump[int(rec[gh.R_TRUMP])] == max(by_trump), (rec.tolist(), by_trump)
            trumps += 1
    assert turns > 100 and swaps_searched > 30 and trumps > 20


def test_searched_auction_same_seed_same_games_for_one_and_two_threads():
    k = V.hand_kernels
    strategy = [{**V.presets["pimc-fast"], "pimc_bid": 1.0, "pimc_infer": 1.0}, "random",
                {**V.presets["pimc-fast"], "pimc_bid": 1.0}]
    _, params = runner.seat_params(strategy, "ghost")
    got = records_on_one_and_two_threads(V, params)
    assert np.array_equal(got[0][0], got[1][0]) and np.array_equal(got[0][1], got[1][1])
    # the search changes the auction: seat 0 bids differently from the strategy on some deals
    _, params0 = runner.seat_params(["pimc-fast", "random", "pimc-fast"], "ghost")
    plain = records_on_one_and_two_threads(V, params0)[0][0]
    assert not np.array_equal(plain[:, k.R_CALLS:k.R_MAKER], got[0][0][:, k.R_CALLS:k.R_MAKER])


# ---------------------------------------------------------------- Euchre: searched calls and going alone

@pytest.mark.parametrize("rules", [{}, {"stick_the_dealer": True, "allow_lone_defender": True}])
def test_euchre_searched_calls_with_the_true_deal_are_double_dummy_best(rules):
    from bower.kernels.euchre import hand as eh
    from bower.kernels.euchre.strategy import card_weights

    ev = get_variant("euchre")
    rules_vec = encode(ev, resolve(ev, rules))
    seer = {**ev.presets["default"], "pimc_worlds": 1.0, "pimc_sees_all": 1.0, "pimc_bid": 1.0}
    strategies = [seer, "default", "default", "default"]
    _, params = runner.seat_params(strategies, "euchre")
    wt = np.zeros((4, 4, 24))
    card_weights(params, wt)
    out = []
    runner.rows_run("euchre", 200, 13, 1, rules, strategies, out.append)
    keys, tags, bounds = new_table()
    nodes = np.zeros(1, np.int64)
    scratch = np.zeros(eh.R_WIDTH, np.int64)

    def net(dealt, up, dealer, k, call, alone):
        hands = np.array(dealt, np.int64)
        dstate, dbuf = _stream(0)
        force = (np.int64(0), np.int64(k), np.int64(call), np.int64(alone), np.int64(k))
        maker, trump = eh.auction(hands, np.int64(up), np.int64(dealer), rules_vec, params, wt, force, dstate, dbuf,
                                  scratch, None)
        if maker < 0:
            return 0
        m_alone, lone, sitting, leader = eh.contract(hands, np.int64(trump), np.int64(maker), np.int64(dealer),
                                                     rules_vec, params, wt, np.int64(0), np.int64(alone), dstate, dbuf,
                                                     bool(trump == up // 6))  # trump made in round one
        active = 15 & ~sitting
        hands = np.array([h if active >> s & 1 else 0 for s, h in enumerate(hands)], np.int64)
        mt = solve_position(hands, np.int64(active), np.int64(trump), np.zeros(4, np.int64), np.int64(0),
                            np.int64(leader), np.int64(((1 << maker) | (1 << (maker ^ 2))) & active), keys, tags,
                            bounds, nodes)
        mk, df = eh.score_hand(np.int64(mt), m_alone, lone >= 0, rules_vec, False)
        return (mk - df) if maker % 2 == 0 else (df - mk)

    turns = calls_made = 0
    for rec in np.concatenate(out):
        dealer, up = int(rec[eh.R_DEALER]), int(rec[eh.R_KITTY])
        dealt = [int(rec[eh.R_DEAL + s]) for s in range(4)]
        n_calls = int(rec[eh.R_NCALLS])
        for k in range(n_calls):
            if (dealer + 1 + k) % 4 != 0:
                continue
            stuck = k == 7 and rules.get("stick_the_dealer")
            cands = ([] if stuck else [(eh.CALL_PASS, -1)]) + (
                [(eh.CALL_ORDER, 0), (eh.CALL_ORDER, 1)] if k < 4 else
                [(eh.CALL_SUIT + t, a) for t in range(4) if t != up // 6 for a in (0, 1)])
            values = {c: net(dealt, up, dealer, k, *c) for c in cands}
            code = int(rec[eh.R_CALLS + 2 * k + 1])
            chosen = (code, -1) if code == eh.CALL_PASS else (code, int(rec[eh.R_ALONE]) & 1)
            assert values[chosen] == max(values.values()), (rec.tolist(), k, values)
            turns += 1
            calls_made += code != eh.CALL_PASS
    assert turns > 150 and calls_made > 30


# ---------------------------------------------------------------- should-bid --playout pimc

@pytest.mark.parametrize("variant, args", [
    ("ghost", ("JH JD AH KH 9S TC",)),
    ("euchre", ("JH JD AH KH 9S", "QH")),
])
def test_should_bid_pimc_playout(variant, args):
    from bower.sim.variants.euchre.advice import advise as eu_advise
    from bower.sim.variants.ghost.advice import advise as gh_advise

    advise = gh_advise if variant == "ghost" else eu_advise
    runs = {(p, t): advise(*args, samples=48, seed=4, threads=t, playout=p)
            for p, t in (("pimc", 1), ("pimc", 2), ("strategy", 1))}
    a, b, s = runs["pimc", 1], runs["pimc", 2], runs["strategy", 1]
    assert a["playout"] == "pimc" and a["actions"] == b["actions"]  # the same answer on 1 and 2 threads
    # the same deals and weights, played out differently: the same ESS, other points
    assert a["ess"] == s["ess"]
    assert [x["expected_points"] for x in a["actions"]] != [x["expected_points"] for x in s["actions"]]


# ---------------------------------------------------------------- exact shortcuts of the searched auction


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), seats=st.sampled_from([(7, 6), (15, 5), (11, 8)]))
def test_solve_floor_is_exact_from_the_floor_up(seed, seats):
    """``solve_deal_floor`` returns the exact tricks whenever they reach the floor, and a count below the floor
    otherwise (the searched auction's shortcut for a contract that scores the same for any count short of its
    bid), on deals of three seats of 6, four of 5 and three of 8 cards, every floor from 0 to the hand size."""
    from bower.kernels import pimc

    rng = np.random.default_rng(seed)
    active, size = seats
    order = rng.permutation(24)
    hands = [0, 0, 0, 0]
    k = 0
    for s in range(4):
        if (active >> s) & 1:
            for c in order[k:k + size]:
                hands[s] |= 1 << int(c)
            k += size
    trump = int(rng.integers(4))
    leader = int(rng.choice([s for s in range(4) if (active >> s) & 1]))
    sides = 1 << int(rng.choice([s for s in range(4) if (active >> s) & 1]))
    ws = pimc.new_workspace()
    args = [np.int64(x) for x in (*hands, active, trump, leader, sides)]
    exact = pimc.solve_deal(*args, ws)
    for floor in range(size + 2):
        got = pimc.solve_deal_floor(*args, np.int64(floor), ws)
        if exact >= floor:
            assert got == exact, (floor, got, exact)
        else:
            assert got < floor, (floor, got, exact)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), n=st.integers(1, 5), worlds=st.integers(1, 12), bottom=st.integers(-24, 0),
       top=st.integers(0, 24))
def test_rule_out_keeps_the_choice(data, n, worlds, bottom, top):
    """Skipping the candidates ``pimc.rule_out`` rules out after each world leaves the highest sum and its ties
    where a full count has them: the candidates never ruled out include every one with the highest full sum."""
    from bower.kernels import pimc

    scores = np.array(data.draw(st.lists(st.lists(st.integers(bottom, top), min_size=n, max_size=n),
                                         min_size=worlds, max_size=worlds)), float)
    vals = np.zeros(n)
    out = np.int64(0)
    for j in range(worlds):
        for i in range(n):
            if not (out >> i) & 1:
                vals[i] += scores[j, i]
        out = pimc.rule_out(vals, np.int64(n), out, float(worlds - 1 - j), float(top), float(bottom))
    full = scores.sum(axis=0)
    best = full.max()
    kept = [i for i in range(n) if not (out >> i) & 1]
    assert {i for i in range(n) if full[i] == best} <= set(kept)
    for i in kept:
        assert vals[i] == full[i]
