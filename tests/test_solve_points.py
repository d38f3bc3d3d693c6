"""The solver's points mode ``kernels/solve_points.py`` against the band of the exact solve ``kernels/solve.py``.

- Every layout the solver plays (those of ``test_solve_kernel.SHAPES``: three
  seats with a lone maker, Cutthroat's lone defender's two seats, four seats in
  partnerships with and without the joker, a lone maker with its partner out):
  on 2,000 random full deals each, ``points_many`` gives the band of
  ``solve_many``'s tricks (fewer than ``need``: 0, all: 2, else 1), for the
  contract's 3 tricks and for random ``need`` from -1 to one more than the
  tricks; and on random part-played positions (mid-trick, random measured
  sides) ``solve_points`` gives the band of ``solve_position``.
- The values do not depend on the chunking (1, 7, 1024 deals a table), on the
  threads, or on what the table already holds (a table shared by thousands of
  positions of every layout, need and side gives what a fresh one gives).
- Fewer positions: the points mode searches fewer positions in total than the
  exact solve on every layout. Measured on these 2,000 deals a layout with
  ``need`` 3 (positions a solve, points / exact): three seats, lone maker, 6
  cards 119 / 300 (0.40); three seats, 5 cards 47 / 120 (0.40); two seats
  24 / 46 (0.53); four seats with the joker, 6 cards 680 / 1549 (0.44); four
  seats, 5 cards 230 / 454 (0.51); a lone maker, partner out 57 / 121 (0.47).
  Only "fewer in total" is asserted.
- ``benchmarks/peer_solver.py`` deals disjoint hands and names the same cards
  to the peer as to bower.
"""

from __future__ import annotations

import random

import numba
import numpy as np
import pytest

from bower.kernels import solve as ks
from bower.kernels import solve_points as kp
from tests.test_solve_kernel import SHAPES, Table, _args, deal, full_deal

DEALS = 2000


def band(tricks, need, left):
    return np.where(tricks < need, 0, np.where(tricks >= left, 2, 1)) if need <= left else np.zeros_like(tricks)


def _rows(shape, n, seed):
    rng = random.Random(f"points-{shape}-{seed}")
    hands = np.zeros((n, 4), np.int64)
    active, trump, leader, sides = (np.zeros(n, np.int64) for _ in range(4))
    for i in range(n):
        h, a, t, _, ld, sd = full_deal(rng, shape)
        hands[i] = h
        active[i], trump[i], leader[i], sides[i] = a, t, ld, sd
    return hands, active, trump, leader, sides


def _exact(rows, chunk=256):
    n = rows[0].shape[0]
    out, nodes = np.zeros(n, np.int64), np.zeros(n, np.int64)
    ks.solve_many(*rows, np.int64(chunk), out, nodes)
    return out, nodes


def _points(rows, need, chunk=256):
    n = rows[0].shape[0]
    out, nodes = np.zeros(n, np.int64), np.zeros(n, np.int64)
    kp.points_many(*rows, np.ascontiguousarray(need, np.int64), np.int64(chunk), out, nodes)
    return out, nodes


@pytest.fixture(scope="module", params=list(SHAPES))
def solved(request):
    shape = request.param
    rows = _rows(shape, DEALS, 0)
    return shape, rows, *_exact(rows)


def test_full_deals_contract_band(solved):
    shape, rows, tricks, exact_nodes = solved
    n_cards = SHAPES[shape][1]
    need = np.full(DEALS, 3, np.int64)
    got, nodes = _points(rows, need)
    want = band(tricks, 3, n_cards)
    assert (got == want).all(), np.flatnonzero(got != want)[:10]
    assert set(np.unique(want)) == {0, 1, 2}  # every band is reached
    assert nodes.sum() < exact_nodes.sum(), (nodes.mean(), exact_nodes.mean())


def test_full_deals_any_need(solved):
    shape, rows, tricks, _ = solved
    n_cards = SHAPES[shape][1]
    rng = np.random.default_rng(5)
    need = rng.integers(-1, n_cards + 2, DEALS)
    got, _ = _points(rows, need)
    want = np.array([band(np.array([v]), k, n_cards)[0] for v, k in zip(tricks, need)])
    assert (got == want).all(), np.flatnonzero(got != want)[:10]


@pytest.mark.parametrize("shape", list(SHAPES))
def test_part_played_positions(shape):
    rng = random.Random(f"points-partial-{shape}")
    t = Table()
    for _ in range(300):
        left = rng.randint(1, SHAPES[shape][1])
        pos = deal(rng, shape, left)
        args = _args(pos)
        exact = int(ks.solve_position(*args, t.keys, t.tags, t.bounds, t.nodes))
        tricks_left = left  # the current trick counts
        need = rng.randint(-1, tricks_left + 1)
        got = int(kp.solve_points(*args, np.int64(need), t.keys, t.tags, t.bounds, t.nodes))
        if need > tricks_left:
            want = 0
        else:
            want = 0 if exact < need else (2 if exact >= tricks_left else 1)
        assert got == want, (pos, need, exact)


def test_chunking_threads_and_a_shared_table():
    shape = "euchre"
    rows = _rows(shape, 3000, 1)
    need = np.full(3000, 3, np.int64)
    base, _ = _points(rows, need, 256)
    for chunk in (1, 7, 1024, 3000):
        assert (_points(rows, need, chunk)[0] == base).all(), chunk
    was = numba.get_num_threads()
    try:
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        assert (_points(rows, need, 7)[0] == base).all()
    finally:
        numba.set_num_threads(was)
    # one table for positions of every layout, need and side, in any order: as a fresh table each
    rng = random.Random(11)
    shared = Table()
    for _ in range(1500):
        shape = rng.choice(list(SHAPES))
        pos = deal(rng, shape, rng.randint(1, SHAPES[shape][1]))
        need = np.int64(rng.randint(0, SHAPES[shape][1]))
        fresh = Table()
        a = kp.solve_points(*_args(pos), need, shared.keys, shared.tags, shared.bounds, shared.nodes)
        b = kp.solve_points(*_args(pos), need, fresh.keys, fresh.tags, fresh.bounds, fresh.nodes)
        assert a == b, (pos, need)



def test_peer_benchmark_deals_and_card_names():
    """``benchmarks/peer_solver.py``'s deals: four disjoint five-card hands of 24; the peer's ids name the same cards
    (its suits C D H S, bower's C S D H; ranks 9 T J Q K A in both)."""
    from benchmarks.peer_solver import band as bench_band
    from benchmarks.peer_solver import random_deals
    from bower.sim.cards import card_str

    d = random_deals(500, 3)
    peer_names = [r + s for s in "CDHS" for r in "9TJQKA"]
    for i in range(500):
        row = [int(h) for h in d["hands"][i]]
        assert sum(bin(h).count("1") for h in row) == bin(row[0] | row[1] | row[2] | row[3]).count("1") == 20
        for s in range(4):
            mine = sorted(card_str(c) for c in range(24) if row[s] >> c & 1)
            theirs = sorted(peer_names[c] for c in range(24) if int(d["nat"][i, s]) >> c & 1)
            assert len(mine) == 5 and mine == theirs
        assert d["sides"][i] == (1 << d["maker"][i]) | (1 << (d["maker"][i] ^ 2))
    assert list(bench_band(np.arange(6))) == [0, 0, 0, 1, 1, 2]


@pytest.mark.parametrize("shape", ["euchre", "euchre_lone_maker", "cutthroat", "ghost", "hasenpfeffer"])
def test_a_workspace_deal_in_points_mode_is_the_band_of_its_exact_solve(shape):
    """``pimc.solve_deal_points`` (the searched auctions' solve) gives 0, ``need`` or all the tricks exactly as
    ``pimc.solve_deal``'s count falls below ``need``, between, or takes them all: 300 random deals a layout, one
    workspace for both, so the two modes also share (and must agree through) one table."""
    from bower.kernels import pimc

    ws = pimc.new_workspace()
    rng = random.Random(f"deal-points-{shape}")
    size = SHAPES[shape][1]
    seen = set()
    for _ in range(300):
        h, active, trump, _, leader, sides = full_deal(rng, shape)
        hs = [np.int64(x) for x in h]
        need = rng.choice([3, 3, 1, size])
        args = (*hs, np.int64(active), np.int64(trump), np.int64(leader), np.int64(sides))
        exact = int(pimc.solve_deal(*args, ws))
        got = int(pimc.solve_deal_points(*args, np.int64(need), ws))
        want = 0 if exact < need else (size if exact >= size else need)
        assert got == want, (shape, h, active, trump, leader, sides, need, exact, got)
        seen.add(int(band(np.array([exact]), need, size)[0]))
    assert {0, 1} <= seen and (2 in seen or shape == "ghost")  # every band (a lone maker of 6 rarely marches)
