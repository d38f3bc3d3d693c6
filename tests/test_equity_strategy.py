"""The game-equity bidder (Ghost Hand, Standard Euchre, Hasenpfeffer: ``bid_equity``, the ``equity`` preset):
kernel against its twin, the end of a game, threads, bad input.

Small tables keep it quick: Ghost Hand, a calibration of 300,000 hands and an equity table of a game to 8 (floor
-8) from 50,000 hands; Euchre and Hasenpfeffer, a calibration of 100,000 hands and an equity table of the game to
10 from 50,000 hands. The suite's cache is off (``tests/conftest.py``), so each is computed here.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bower.kernels import games as kg
from bower.kernels.cutthroat import hand as ckh
from bower.kernels.cutthroat import strategy as cks
from bower.kernels.ghost import strategy as ks
from bower.kernels.hasenpfeffer import hand as hkh
from bower.kernels.hasenpfeffer import strategy as hks
from bower.sim import equity as E
from bower.kernels.euchre import hand as ekh
from bower.kernels.euchre import strategy as eks
from bower.sim import equity_bidder as eb
from bower.sim import runner
from bower.sim.variants import get_variant
from bower.sim.variants.cutthroat import equity_strategy as ces
from bower.sim.variants.euchre import equity_strategy as ees
from bower.sim.variants.ghost import equity_strategy as es
from bower.sim.variants.hasenpfeffer import equity_strategy as hes
from tests.cli_run import one_error

# one worker builds the module's tables (tens of CPU seconds), not each worker that runs one of its tests
pytestmark = pytest.mark.xdist_group("equity-strategy")

TARGET = 8
CAL_HANDS = 300_000
EQ_HANDS = 50_000
GHOST = get_variant("ghost")


@pytest.fixture(scope="module")
def tables():
    return {"calibration": es.calibration(None, CAL_HANDS, seed=3, cache=False),
            "equity": E.compute("ghost", hands=EQ_HANDS, seed=3, resamples=1, target=TARGET, cache=False)}


@pytest.fixture(scope="module")
def rows(tables):
    params = runner.to_vector(GHOST.presets["equity"], "ghost")[None, :]
    return ks.equity_rows(ks.strategy_rows(params), params, es.flat(tables))


def _default_call(est, standing, forced):
    p = GHOST.presets["default"]
    return int(ks.call_of(est, standing, forced, p["bid_moon"], p["bid_5"], p["bid_4"], p["bid_3"], p["bid_jump"]))


def test_the_tables_have_what_the_bidder_reads(tables):
    cal = tables["calibration"]
    assert cal["counts"].sum() == cal["cell_counts"].sum()
    np.testing.assert_allclose(cal["probs"][cal["cell_counts"] > 0].sum(axis=1), 1.0, rtol=0, atol=1e-12)
    # every position had a first call (no moon before it) in most hands, at every legal level: pass and moon
    # always legal at standing 0, so each is measured the same number of times there
    for pos in range(3):
        firsts = [es.cell(pos, 0, b * es.BUCKET_WIDTH, 0) for b in range(es.N_BUCKETS)]
        assert [cal["cell_counts"][f] for f in firsts] == [cal["cell_counts"][f + 4] for f in firsts]
    assert (cal["cell_counts"] >= es.MIN_COUNT).sum() > 300


@settings(max_examples=300, deadline=None)
@given(seat=st.integers(0, 2), dealer=st.integers(0, 2),
       scores=st.tuples(*[st.integers(-TARGET, TARGET - 1)] * 3),
       standing=st.sampled_from([0, 3, 4, 5]), forced=st.booleans(),
       est=st.one_of(st.floats(-1.0, 8.0, allow_nan=False), st.integers(0, 28).map(lambda k: k / 4)))
def test_the_kernel_call_is_its_twins(tables, rows, seat, dealer, scores, standing, forced, est):
    forced = forced and standing == 0
    default = _default_call(est, standing, forced)
    got = ks.equity_call(rows, 0, seat, dealer, scores, TARGET, standing, forced, est, default)
    assert got == es.call(tables, seat, dealer, scores, TARGET, standing, forced, est, default)
    first = es.cell((seat - dealer + 2) % 3, standing, est, 0)
    for li in range(5):  # each value exactly: the same sums in the same order
        assert ks.equity_value(rows, 0, first + li, seat, dealer, *scores, TARGET) == es.value(
            tables, first + li, seat, dealer, scores, TARGET)
    assert ks.equity_call(rows, 0, seat, dealer, scores, TARGET + 1, standing, forced, est, default) == default


def test_one_point_from_the_target_a_safe_bid_beats_the_moon(tables, rows):
    # the dealer (seat 0, dealer 0: nobody calls after it) at 7 of 8, nothing standing, estimate 4.75: a made 3 wins
    # the game outright (in every measured hand of the cell), a moon risks -6; the bidder bids 3, not the moon
    seat, dealer, est = 0, 0, 4.75
    first = es.cell(2, 0, est, 0)
    assert min(tables["calibration"]["cell_counts"][first + i] for i in (1, 4)) >= es.MIN_COUNT
    for scores in [(7, 3, 5), (7, 6, 6), (7, -4, 0)]:
        v3 = es.value(tables, first + 1, seat, dealer, scores, TARGET)
        v_moon = es.value(tables, first + 4, seat, dealer, scores, TARGET)
        assert v3 == 1.0 > v_moon
        assert ks.equity_call(rows, 0, seat, dealer, scores, TARGET, 0, False, est, 3) == 3
        assert ks.equity_call(rows, 0, seat, dealer, scores, TARGET, 0, False, est, 6) == 3  # even from a moon
    # first to call (dealer 2) at 7 of 8 with 5.0, where the thresholds call the moon: 5 is worth more, as the tables
    # measured it (a moon ends the auction, a 3 can be outbid), and the bidder bids 5
    seat, dealer, est = 0, 2, 5.0
    assert _default_call(est, 0, False) == 6
    first = es.cell(0, 0, est, 0)
    values = [es.value(tables, first + i, seat, dealer, (7, 0, 0), TARGET) for i in range(5)]
    assert max(values) == values[3] > values[4]
    assert ks.equity_call(rows, 0, seat, dealer, (7, 0, 0), TARGET, 0, False, est, 6) == 5


def test_one_point_from_the_target_never_the_moon_where_3_is_worth_more(tables, rows):
    # every position, estimate bucket and pair of other scores, the bidder at 7 of 8 with nothing standing
    counts = tables["calibration"]["cell_counts"]
    seen = 0
    for seat, dealer in ((0, 2), (0, 1), (0, 0)):
        for b in range(es.N_BUCKETS):
            est = b * es.BUCKET_WIDTH
            first = es.cell((seat - dealer + 2) % 3, 0, est, 0)
            if counts[first + 1] < es.MIN_COUNT:
                continue
            for other in ((0, 0), (3, 5), (6, 6), (-8, 7)):
                scores = (7, *other)
                v3 = es.value(tables, first + 1, seat, dealer, scores, TARGET)
                v_moon = es.value(tables, first + 4, seat, dealer, scores, TARGET)
                if v3 > v_moon:
                    seen += 1
                    for default in (0, 3, 6):
                        assert ks.equity_call(rows, 0, seat, dealer, scores, TARGET, 0, False, est, default) != 6
    assert seen > 50


@pytest.fixture()
def small_tables(monkeypatch):
    monkeypatch.setattr(es, "CALIBRATION_HANDS", CAL_HANDS)
    monkeypatch.setattr(es, "EQUITY_HANDS", EQ_HANDS)
    monkeypatch.setattr(es, "SEED", 3)
    eb.clear()
    yield
    eb.clear()


def _games(strategies, threads, v=GHOST, target=TARGET, assign=((0, 1, 1), (1, 0, 1), (1, 1, 0))):
    """Games to ``target`` of ``strategies`` in the seatings ``assign`` (Ghost Hand: the three rotations of (A, B,
    B)), duplicate deals: the kernel's outputs."""
    runner.set_threads(threads)
    strat = np.stack([runner.to_vector(v.presets[s], v.name) for s in strategies])
    assign = np.array(assign, np.int64)
    _, _, rules_vec = runner.resolve_run(v.name, 7, None)
    n_sets, nc = 256, 4
    out = (np.zeros((n_sets, 2), np.int64), np.zeros((n_sets * len(assign), kg.GO_WIDTH), np.int64),
           np.zeros((nc, v.hand_kernels.S_WIDTH), np.int64), np.zeros((nc, 2, kg.ST_WIDTH), np.int64),
           np.zeros((nc, kg.GA_WIDTH), np.int64))
    v.drivers.games_chunks(runner.chunk_states(7, 0, nc), 64, n_sets, assign, True, rules_vec, strat, target,
                           runner.MAX_HANDS_PER_GAME, *out, v.hand_kernels.search_arg(strat),
                           np.zeros(v.score_units, np.int64))
    return out


def test_the_same_seed_gives_the_same_games_for_one_and_two_threads(small_tables):
    one, two = _games(("equity", "default"), 1), _games(("equity", "default"), 2)
    assert all(np.array_equal(a, b) for a, b in zip(one, two))
    plain = _games(("default", "default"), 2)
    assert not np.array_equal(one[1], plain[1])  # the bidder changed calls, hence games
    assert one[0].sum() == plain[0].sum() == 256 * 3  # every game finished, one winner each


def test_a_tiebreak_without_an_equity_table_is_one_line(capsys):
    line = one_error(capsys, "experiment", "equity", "default", "--games", "384", "--rule", "tiebreak=playoff")
    assert "tiebreak = playoff" in line


@pytest.mark.parametrize("value", ["2", "-1", "0.5e9"])
def test_a_bad_switch_value_is_one_line(capsys, tmp_path, value):
    path = tmp_path / "eq.toml"
    path.write_text(f'base = "default"\nbid_equity = {value}\n')
    line = one_error(capsys, "experiment", str(path), "default", "--games", "384")
    assert "bid_equity" in line


def test_in_independent_hands_the_bidder_calls_by_the_thresholds():
    # no game score, no tables: the same hands, calls and points as default (the records differ in nothing but
    # the strategy's parameters, which they do not hold)
    for rules in (None, {"auction": "until_passes", "stick_the_dealer": True}):
        assert runner.hand_records(4, 0, 3000, rules, "equity") == runner.hand_records(4, 0, 3000, rules, "default")


# ---------------------------------------------------------------- Standard Euchre
EUCHRE = get_variant("euchre")
E_TARGET = 10
E_CAL_HANDS = 100_000


@pytest.fixture(scope="module")
def e_tables():
    return {"calibration": ees.calibration(None, E_CAL_HANDS, seed=3, cache=False),
            "equity": E.compute("euchre", hands=EQ_HANDS, seed=3, resamples=1, target=E_TARGET, cache=False)}


@pytest.fixture(scope="module")
def e_flat(e_tables):
    return ees.flat(e_tables)


def test_euchre_tables_have_what_the_bidder_reads(e_tables):
    cal = e_tables["calibration"]
    assert cal["outcomes"].tolist() == [[0, 0], [0, 1], [0, 2], [0, 4], [1, 0], [2, 0], [4, 0]]
    assert cal["counts"].sum() == cal["cell_counts"].sum()
    np.testing.assert_allclose(cal["probs"][cal["cell_counts"] > 0].sum(axis=1), 1.0, rtol=0, atol=1e-12)
    # position 1 has a round-one call in every hand, at every level: each level measured as often in each bucket,
    # and the buckets together hold every hand
    firsts = [ees.cell(0, 1, b * ees.BUCKET_WIDTH, 0) for b in range(ees.N_BUCKETS)]
    assert all(cal["cell_counts"][f] == cal["cell_counts"][f + 1] == cal["cell_counts"][f + 2] for f in firsts)
    assert sum(cal["cell_counts"][f] for f in firsts) == E_CAL_HANDS
    # a thrown-in hand (0, 0) only where a pass leaves it possible; a side going alone scores 4 only when it calls
    ok = cal["cell_counts"] > 0
    alone = np.arange(len(ok)) % 3 == 2
    assert cal["probs"][ok & alone][:, 0].max() == 0.0
    assert (cal["cell_counts"] >= ees.MIN_COUNT).sum() > 150


@settings(max_examples=300, deadline=None)
@given(rnd=st.integers(0, 1), position=st.integers(1, 4), dealer=st.integers(0, 3),
       scores=st.tuples(*[st.integers(0, E_TARGET - 1)] * 2), default=st.integers(0, 2), pass_legal=st.booleans(),
       est=st.one_of(st.floats(-1.5, 7.0, allow_nan=False), st.integers(-2, 26).map(lambda k: k / 4)))
def test_the_euchre_kernel_call_is_its_twins(e_tables, e_flat, rnd, position, dealer, scores, default, pass_legal,
                                             est):
    seat = (dealer + position) % 4
    sc = np.array(scores, np.int64)
    got = eks.equity_level(e_flat, rnd, position, seat, dealer, sc, E_TARGET, est, default, pass_legal)
    assert got == ees.level(e_tables, rnd, position, seat, dealer, scores, E_TARGET, est, default, pass_legal)
    first = ees.cell(rnd, position, est, 0)
    for li in range(3):  # each value exactly: the same sums in the same order
        for side in (0, 1):
            assert eks.equity_value(e_flat, first + li, side, dealer, *scores, E_TARGET) == ees.value(
                e_tables, first + li, side, dealer, scores, E_TARGET)
    assert eks.equity_level(e_flat, rnd, position, seat, dealer, sc, E_TARGET + 1, est, default, pass_legal) == default


def _alone_hand():
    """A deal where position 1 (seat 0, dealer 3) orders the up-card up and goes alone by the thresholds: (dealt by
    position, kitty, its round-one estimate)."""
    params = np.tile(runner.to_vector(EUCHRE.presets["default"], "euchre"), (4, 1))
    _, _, rules_vec = runner.resolve_run("euchre", 0, None)
    wt = np.zeros((4, 4, 24))
    eks.card_weights(params, wt)
    dealt, kitty = np.zeros((4000, 4), np.int64), np.zeros((4000, 4), np.int64)
    EUCHRE.drivers.deal_chunk(runner.chunk_states(11, 0, 1)[0], 4000, dealt, kitty)
    for h in range(4000):
        rec = _play(dealt[h], kitty[h], params, rules_vec, wt)
        if rec[ekh.R_MAKER] == 0 and ekh.round_one(rec) and rec[ekh.R_ALONE] == 1:
            est, _ = eks.order_estimate.py_func(dealt[h][0], kitty[h][0], 1, wt, params, 0, False)
            return dealt[h], kitty[h], est, params, rules_vec, wt
    raise AssertionError("no lone order in 4000 deals")


def _play(dealt, kitty, params, rules_vec, wt, eq=None):
    rec = np.zeros(ekh.R_WIDTH, np.int64)
    args = (dealt.copy(), kitty.copy(), 3, rules_vec, params, wt, ekh.NO_FORCE.copy(), np.zeros(4, np.uint64),
            np.zeros(2, np.int64), np.zeros(4, np.int64), np.zeros(4, np.int64), rec, None)
    ekh.play_dealt(*args, eq)
    return rec


def test_one_point_from_the_target_the_euchre_bidder_orders_with_its_partner(e_tables, e_flat):
    # position 1 at 9 of 10 with a lone hand: a make with the partner wins the game as surely as one alone and is
    # likelier, as the tables measured it; the bidder orders up without going alone where the thresholds go alone
    dealt, kitty, est, params, rules_vec, wt = _alone_hand()
    params = params.copy()
    params[0] = runner.to_vector(EUCHRE.presets["equity"], "euchre")  # seat 0 bids by equity
    first = ees.cell(0, 1, est, 0)
    assert min(e_tables["calibration"]["cell_counts"][first + i] for i in (1, 2)) >= ees.MIN_COUNT
    v_call, v_alone = (ees.value(e_tables, first + i, 0, 3, (9, 6), E_TARGET) for i in (1, 2))
    assert v_call > v_alone
    assert eks.equity_level(e_flat, 0, 1, 0, 3, np.array([9, 6], np.int64), E_TARGET, est, 2, True) == 1
    pick = np.full(2, -1, np.int64)
    rec = _play(dealt, kitty, params, rules_vec, wt, (e_flat, np.array([9, 6], np.int64), E_TARGET, pick))
    assert rec[ekh.R_MAKER] == 0 and ekh.round_one(rec) and rec[ekh.R_ALONE] == 0
    assert pick.tolist() == [0, 0]
    # without the tables (no game score) the same seat goes alone, as the thresholds do
    assert _play(dealt, kitty, params, rules_vec, wt)[ekh.R_ALONE] == 1


@pytest.fixture()
def e_small_tables(monkeypatch):
    monkeypatch.setattr(ees, "CALIBRATION_HANDS", E_CAL_HANDS)
    monkeypatch.setattr(ees, "EQUITY_HANDS", EQ_HANDS)
    monkeypatch.setattr(ees, "SEED", 3)
    eb.clear()
    yield
    eb.clear()


def test_euchre_same_seed_same_games_for_one_and_two_threads(e_small_tables):
    sides = ((0, 1, 0, 1), (1, 0, 1, 0))  # A as partners against B, then the sides exchanged
    one, two = (_games(("equity", "default"), t, EUCHRE, E_TARGET, sides) for t in (1, 2))
    assert all(np.array_equal(a, b) for a, b in zip(one, two))
    plain = _games(("default", "default"), 2, EUCHRE, E_TARGET, sides)
    assert not np.array_equal(one[1], plain[1])  # the bidder changed calls, hence games
    assert one[0].sum() == plain[0].sum() == 256 * 2  # every game finished, one winner each


# ---------------------------------------------------------------- Hasenpfeffer
HASEN = get_variant("hasenpfeffer")
H_TARGET = 10
H_CAL_HANDS = 100_000


@pytest.fixture(scope="module")
def h_tables():
    return {"calibration": hes.calibration(None, H_CAL_HANDS, seed=3, cache=False),
            "equity": E.compute("hasenpfeffer", hands=EQ_HANDS, seed=3, resamples=1, target=H_TARGET, cache=False)}


@pytest.fixture(scope="module")
def h_flat(h_tables):
    return hes.flat(h_tables)


def _h_default(est):
    """The default's call over nothing standing (it bids its level at once): its partnership estimate's level."""
    p = HASEN.presets["default"]
    level = int(np.floor(est + p["partner_help"] - p["cushion"]))
    return min(max(level, 0), 6)


def test_hasenpfeffer_tables_have_what_the_bidder_reads(h_tables):
    cal = h_tables["calibration"]
    assert cal["counts"].sum() == cal["cell_counts"].sum()
    np.testing.assert_allclose(cal["probs"][cal["cell_counts"] > 0].sum(axis=1), 1.0, rtol=0, atol=1e-12)
    assert set(cal["outcomes"][:, 2]) == {0, 1}
    # position 1 calls first in every hand, over nothing: pass and 1..6 each measured once a hand, bucket by bucket
    firsts = [hes.cell(1, 0, b * hes.BUCKET_WIDTH, 0) for b in range(hes.N_BUCKETS)]
    assert all(len({cal["cell_counts"][f + li] for li in range(7)}) == 1 for f in firsts)
    assert sum(cal["cell_counts"][f] for f in firsts) == H_CAL_HANDS
    assert cal["cell_counts"][np.arange(len(cal["cell_counts"])) % 8 == 7].sum() == 0  # no big pepper: numeric
    assert (cal["cell_counts"] >= hes.MIN_COUNT).sum() > 300


@settings(max_examples=300, deadline=None)
@given(seat=st.integers(0, 3), dealer=st.integers(0, 3),
       scores=st.tuples(*[st.integers(-3 * H_TARGET, H_TARGET - 1)] * 2),
       standing=st.integers(0, 5), default=st.integers(0, 6),
       est=st.one_of(st.floats(-1.0, 9.0, allow_nan=False), st.integers(0, 32).map(lambda k: k / 4)))
def test_the_hasenpfeffer_kernel_call_is_its_twins(h_tables, h_flat, seat, dealer, scores, standing, default, est):
    default = default if default == 0 or default > standing else 0
    sc = np.array(scores, np.int64)
    got = hks.equity_call(h_flat, seat, dealer, sc, H_TARGET, standing, 6, est, default)
    assert got == hes.call(h_tables, seat, dealer, scores, H_TARGET, standing, 6, est, default)
    first = hes.cell((seat - dealer + 3) % 4 + 1, standing, est, 0)
    for li in range(7):  # each value exactly: the same sums in the same order
        for side in (0, 1):
            assert hks.equity_value(h_flat, first + li, side, dealer, *scores, H_TARGET) == hes.value(
                h_tables, first + li, side, dealer, scores, H_TARGET)
    assert hks.equity_call(h_flat, seat, dealer, sc, H_TARGET + 1, standing, 6, est, default) == default


def _h_play(by_seat, widow, params, rules_vec, eq=None):
    wt = np.zeros((4, 4, 25))
    hks.card_weights(params, wt)
    rec = np.zeros(hkh.R_WIDTH, np.int64)
    args = (by_seat.copy(), widow, 3, rules_vec, params, wt, hkh.NO_FORCE.copy(), np.zeros(4, np.uint64),
            np.zeros(2, np.int64), np.zeros(16, np.int64), rec, None)
    hkh.play_dealt_once(*args, eq)
    return rec


def test_one_point_from_the_target_the_hasenpfeffer_bidder_bids_safe(h_tables, h_flat):
    # position 1 (seat 0, dealer 3) at 9 of 10, first to call: where the thresholds bid 6 and a lower bid wins more
    # games by the tables (any made bid wins; a failed 6 costs 6), the bidder bids the best of them, in the
    # kernel's call and in a played hand
    counts = h_tables["calibration"]["cell_counts"]
    seen = []
    for b in range(hes.N_BUCKETS):
        est = b * hes.BUCKET_WIDTH
        first = hes.cell(1, 0, est, 0)
        if _h_default(est) != 6 or counts[first + 6] < hes.MIN_COUNT:
            continue
        values = [hes.value(h_tables, first + li, 0, 3, (9, 0), H_TARGET) for li in range(7)]
        best = int(np.argmax(values))
        if values[best] > values[6]:
            seen.append(est)
            assert best < 6
            assert hks.equity_call(h_flat, 0, 3, np.array([9, 0], np.int64), H_TARGET, 0, 6, est, 6) == best
    assert seen
    params = np.tile(runner.to_vector(HASEN.presets["default"], "hasenpfeffer"), (4, 1))
    _, _, rules_vec = runner.resolve_run("hasenpfeffer", 0, None)
    by_pos, widow = np.zeros((4000, 4), np.int64), np.zeros(4000, np.int64)
    HASEN.drivers.deal_chunk(runner.chunk_states(11, 0, 1)[0], 4000, by_pos, widow)
    for h in range(4000):
        by_seat = np.roll(by_pos[h], 0)  # dealer 3: position 1 is seat 0
        rec = _h_play(by_seat, widow[h], params, rules_vec)
        if rec[hkh.R_CALLS] == 0 and rec[hkh.R_CALLS + 1] == 6:
            wt = np.zeros((4, 4, 25))
            hks.card_weights(params, wt)
            est = hks.best_estimate.py_func(by_seat[0], 0, wt, params[0, hks.P_VOID])
            if any(abs(est - s) < hes.BUCKET_WIDTH and np.floor(est / hes.BUCKET_WIDTH) == s / hes.BUCKET_WIDTH
                   for s in seen):
                break
    else:
        raise AssertionError("no opening 6 in a bucket where a lower bid is worth more")
    eq_params = params.copy()
    eq_params[0] = runner.to_vector(HASEN.presets["equity"], "hasenpfeffer")
    want = hks.equity_call(h_flat, 0, 3, np.array([9, 0], np.int64), H_TARGET, 0, 6, est, 6)
    rec = _h_play(by_seat, widow[h], eq_params, rules_vec, (h_flat, np.array([9, 0], np.int64), H_TARGET))
    assert rec[hkh.R_CALLS + 1] == want < 6
    assert _h_play(by_seat, widow[h], eq_params, rules_vec)[hkh.R_CALLS + 1] == 6  # without tables: the thresholds


@pytest.fixture()
def h_small_tables(monkeypatch):
    monkeypatch.setattr(hes, "CALIBRATION_HANDS", H_CAL_HANDS)
    monkeypatch.setattr(hes, "EQUITY_HANDS", EQ_HANDS)
    monkeypatch.setattr(hes, "SEED", 3)
    eb.clear()
    yield
    eb.clear()


def test_hasenpfeffer_same_seed_same_games_for_one_and_two_threads(h_small_tables):
    sides = ((0, 1, 0, 1), (1, 0, 1, 0))
    one, two = (_games(("equity", "default"), t, HASEN, H_TARGET, sides) for t in (1, 2))
    assert all(np.array_equal(a, b) for a, b in zip(one, two))
    plain = _games(("default", "default"), 2, HASEN, H_TARGET, sides)
    assert not np.array_equal(one[1], plain[1])  # the bidder changed calls, hence games
    assert one[0].sum() == plain[0].sum() == 256 * 2  # every game finished, one winner each


# ---------------------------------------------------------------- Cutthroat
CUT = get_variant("cutthroat")
C_TARGET = 10
C_CAL_HANDS = 100_000


@pytest.fixture(scope="module")
def c_tables():
    return {"calibration": ces.calibration(None, C_CAL_HANDS, seed=3, cache=False),
            "equity": E.compute("cutthroat", hands=EQ_HANDS, seed=3, resamples=1, target=C_TARGET, cache=False)}


@pytest.fixture(scope="module")
def c_flat(c_tables):
    return ces.flat(c_tables)


def test_cutthroat_tables_have_what_the_bidder_reads(c_tables):
    cal = c_tables["calibration"]
    assert cal["counts"].sum() == cal["cell_counts"].sum()
    np.testing.assert_allclose(cal["probs"][cal["cell_counts"] > 0].sum(axis=1), 1.0, rtol=0, atol=1e-12)
    # position 1 has a round-one call in every hand, at every level (maker_alone = allowed by default)
    firsts = [ces.cell(0, 1, b * ces.BUCKET_WIDTH, 0) for b in range(ces.N_BUCKETS)]
    assert all(cal["cell_counts"][f] == cal["cell_counts"][f + 1] == cal["cell_counts"][f + 2] for f in firsts)
    assert sum(cal["cell_counts"][f] for f in firsts) == C_CAL_HANDS
    assert (cal["cell_counts"] >= ces.MIN_COUNT).sum() > 100


@settings(max_examples=300, deadline=None)
@given(rnd=st.integers(0, 1), position=st.integers(1, 3), dealer=st.integers(0, 2),
       scores=st.tuples(*[st.integers(0, C_TARGET - 1)] * 3), default=st.integers(0, 2), pass_legal=st.booleans(),
       alone_legal=st.booleans(),
       est=st.one_of(st.floats(-1.5, 7.0, allow_nan=False), st.integers(-2, 26).map(lambda k: k / 4)))
def test_the_cutthroat_kernel_call_is_its_twins(c_tables, c_flat, rnd, position, dealer, scores, default, pass_legal,
                                                alone_legal, est):
    seat = (dealer + position) % 3
    sc = np.array(scores, np.int64)
    args = (rnd, position, seat, dealer)
    got = cks.equity_level(c_flat, *args, sc, C_TARGET, est, default, pass_legal, alone_legal)
    assert got == ces.level(c_tables, *args, scores, C_TARGET, est, default, pass_legal, alone_legal)
    first = ces.cell(rnd, position, est, 0)
    for li in range(3):  # each value exactly: the same sums in the same order
        assert cks.equity_value(c_flat, first + li, seat, dealer, *scores, C_TARGET) == ces.value(
            c_tables, first + li, seat, dealer, scores, C_TARGET)
    assert cks.equity_level(c_flat, *args, sc, C_TARGET + 1, est, default, pass_legal, alone_legal) == default


def _c_play(dealt, kitty, params, rules_vec, eq=None):
    buf, dbuf, deck, _, _, (hands, tricks, points), pw, pm, wt, order, rec = CUT.drivers._scratch()
    cks.card_weights(params, wt, order)
    args = (dealt.copy(), kitty.copy(), 2, rules_vec, params, wt, order, ckh.NO_FORCE.copy(), np.zeros(4, np.uint64),
            dbuf, hands, tricks, points, pw, pm, rec, None)
    ckh.play_dealt_once(*args, eq)
    return rec


def test_one_point_from_the_target_the_cutthroat_bidder_takes_the_safer_call(c_tables, c_flat):
    # position 1 (seat 0, dealer 2) at 9 of 10, the others at 6 and 7: going alone is never its best level where
    # the tables measure better (a make with the dummy or a pass, when the others' euchre would give it the game),
    # and in a played hand where the thresholds accept but the tables measure another level as likelier to win the
    # game, the bidder takes that level
    scores = np.array([9, 6, 7], np.int64)
    counts = c_tables["calibration"]["cell_counts"]
    seen = 0
    for b in range(ces.N_BUCKETS):
        first = ces.cell(0, 1, b * ces.BUCKET_WIDTH, 0)
        if min(counts[first + i] for i in range(3)) < ces.MIN_COUNT:
            continue
        values = [ces.value(c_tables, first + i, 0, 2, tuple(scores), C_TARGET) for i in range(3)]
        if values[2] < max(values[:2]):
            seen += 1
            for default in range(3):
                got = cks.equity_level(c_flat, 0, 1, 0, 2, scores, C_TARGET, b * ces.BUCKET_WIDTH, default, True, True)
                assert got != 2 and values[got] == max(values)
    assert seen >= 5
    params = np.tile(runner.to_vector(CUT.presets["default"], "cutthroat"), (3, 1))
    _, _, rules_vec = runner.resolve_run("cutthroat", 0, None)
    wt, order = np.zeros((3, 4, 24)), np.zeros((3, 5, 7), np.int64)
    cks.card_weights(params, wt, order)
    rng = np.random.default_rng(11)
    for _ in range(4000):
        deck = rng.permutation(24)
        dealt = np.array([sum(1 << int(c) for c in deck[k:20:4]) for k in range(4)], np.int64)
        kitty = deck[20:].astype(np.int64)
        rec = _c_play(dealt, kitty, params, rules_vec)
        if not (rec[ckh.R_MAKER] == 0 and rec[ckh.R_NCALLS] == 1 and rec[ckh.R_ALONE] == 0):
            continue
        est, _, _ = cks.accept_estimate.py_func(dealt[0], kitty[0], 1, wt, params, 0)
        want = cks.equity_level(c_flat, 0, 1, 0, 2, scores, C_TARGET, est, 1, True, True)
        if want != 1:
            break
    else:
        raise AssertionError("no acceptance by the thresholds where the tables prefer another level")
    eq_params = params.copy()
    eq_params[0] = runner.to_vector(CUT.presets["equity"], "cutthroat")
    pick = np.full(2, -1, np.int64)
    rec = _c_play(dealt, kitty, eq_params, rules_vec, (c_flat, scores, C_TARGET, pick))
    assert rec[ckh.R_CALLS + 1] == (ckh.CALL_PASS if want == 0 else ckh.CALL_ACCEPT)
    assert pick.tolist() == [0, want - 1]
    if want == 2:
        assert rec[ckh.R_ALONE] == 1
    assert _c_play(dealt, kitty, eq_params, rules_vec)[ckh.R_CALLS + 1] == ckh.CALL_ACCEPT  # without tables


@pytest.fixture()
def c_small_tables(monkeypatch):
    monkeypatch.setattr(ces, "CALIBRATION_HANDS", C_CAL_HANDS)
    monkeypatch.setattr(ces, "EQUITY_HANDS", EQ_HANDS)
    monkeypatch.setattr(ces, "SEED", 3)
    eb.clear()
    yield
    eb.clear()


def test_cutthroat_same_seed_same_games_for_one_and_two_threads(c_small_tables):
    one, two = (_games(("equity", "default"), t, CUT, C_TARGET) for t in (1, 2))
    assert all(np.array_equal(a, b) for a, b in zip(one, two))
    plain = _games(("default", "default"), 2, CUT, C_TARGET)
    assert not np.array_equal(one[1], plain[1])  # the bidder changed calls, hence games
    assert one[0].sum() == plain[0].sum() == 256 * 3  # every game finished, one winner each


# ---------------------------------------------------------------- every variant
OTHER_RULES = {"euchre": {"stick_the_dealer": True, "allow_lone_defender": True},
               "hasenpfeffer": {"bidding": "pepper", "pass_is_final": True},
               "cutthroat": {"stick_the_dealer": True, "maker_alone": "disabled"}}


@pytest.mark.parametrize("variant", sorted(OTHER_RULES))
@pytest.mark.parametrize("value", ["2", "-1"])
def test_a_bad_switch_value_is_one_line_in_every_variant(capsys, tmp_path, variant, value):
    path = tmp_path / "eq.toml"
    path.write_text(f'base = "default"\nbid_equity = {value}\n')
    line = one_error(capsys, "experiment", str(path), "default", "--variant", variant, "--games", "384")
    assert "bid_equity" in line


@pytest.mark.parametrize("variant", sorted(OTHER_RULES))
def test_in_independent_hands_the_bidder_calls_by_the_thresholds_in_every_variant(variant):
    # no game score, no tables: the same hands, calls and points as default, under the default rules and others
    for rules in (None, OTHER_RULES[variant]):
        assert runner.hand_records(4, 0, 3000, rules, "equity", variant) == runner.hand_records(
            4, 0, 3000, rules, "default", variant)
