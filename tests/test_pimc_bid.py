"""The PIMC player's auction (Ghost Hand): worlds weighed by the calls, searched calls, seeds.

- **World weights** (``pimc_infer``). With the auction model sharp
  (``pimc_tau`` 0, ``pimc_eps`` 0) a world's weight is 1 exactly when the
  strategy, holding that world's cards, makes the swap, every call and the
  trump of the hand, else 0 (checked by replaying the strategy's auction on
  every world); with the tremble the weights are positive. ``pimc_infer`` 0
  changes nothing.
"""

from __future__ import annotations

import numpy as np
import pytest

from bower.kernels.ghost import hand as gh
from bower.kernels.ghost.strategy import strategy_rows
from bower.kernels.rng import splitmix_seed
from bower.sim import runner
from bower.sim.rules import encode, resolve
from bower.sim.variants import get_variant

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
