"""Hasenpfeffer's searched auction (``pimc_bid``) measured by the hand: its calls' calibration, its duels.

``python benchmarks/hasenpfeffer/bid_calibration.py calibrate HANDS SEED [STRATEGY ...]``: play HANDS hands
with STRATEGY in every seat (one, or one a seat; default ``pimc``) and, at every searched call of the records,
search the call again on fresh worlds (the kernels' ``_call_values``, the strategy's worlds) and on the true deal
(``pimc_sees_all``: one world, the deal as dealt); print, by kind of call, the mean score of the chosen call in
the search's own units (its side's points less ``pimc_bid_rival`` times the other side's; the cushion not
subtracted) as the search predicts it, as the true deal gives it (the auction finished by the strategies, as in
the search), the double-dummy value of the contract the table actually reached, and the points the table
scored (the same units). The gaps are the parts of the search's over-optimism: predicted - true deal (sampling
and choosing the best of noisy values, worlds blind to the calls), true deal - reached contract (the auction
finished by the strategies, not by the other searching seats), reached contract - scored (double-dummy play
against the table's play).

``python benchmarks/hasenpfeffer/bid_calibration.py duel X Y HANDS SEED``: HANDS hands with X in seats 0 and 2
and Y in 1 and 3, then the same deals with the seats swapped; X's net points a hand (mean of the two, 95%
interval), the points a hand, the share of hands each side is the high bidder and its make rate, CPU seconds.

Strategies are preset names or strategy files (``base = "pimc"`` and the parameters that differ).
"""

from __future__ import annotations

import collections
import json
import sys
import time

import numpy as np

from bower.kernels import pimc
from bower.kernels.hasenpfeffer import hand as hk
from bower.kernels.rng import splitmix_seed
from bower.sim import runner
from bower.sim.rules import encode, resolve
from bower.sim.variants import get_variant

V = get_variant("hasenpfeffer")


def _rows(strategies, hands: int, seed: int) -> np.ndarray:
    out: list[np.ndarray] = []
    runner.rows_run("hasenpfeffer", hands, seed, 1, {}, strategies, out.append)
    return np.concatenate(out)


def _side_tricks(recs: np.ndarray, side: int) -> np.ndarray:
    return recs[:, hk.R_TRICKS + side] + recs[:, hk.R_TRICKS + side + 2]


def duel(x: str, y: str, hands: int, seed: int) -> dict:
    """X against Y on the same deals, each in both seat pairs (see the module's docstring)."""
    t0 = time.process_time()
    a = _rows([x, y, x, y], hands, seed)
    b = _rows([y, x, y, x], hands, seed)
    net = ((a[:, hk.R_POINTS] - a[:, hk.R_POINTS + 1]) + (b[:, hk.R_POINTS + 1] - b[:, hk.R_POINTS])) / 2.0
    m, se = float(net.mean()), float(net.std(ddof=1) / np.sqrt(len(net)))

    def bids(recs, side):
        bidder = recs[:, hk.R_BIDDER]
        mine = (bidder >= 0) & (bidder % 2 == side)
        made = _side_tricks(recs, side)[mine] >= np.minimum(recs[mine, hk.R_BID], 6)
        return int(mine.sum()), int(made.sum())

    (nxa, mxa), (nxb, mxb) = bids(a, 0), bids(b, 1)
    (nya, mya), (nyb, myb) = bids(a, 1), bids(b, 0)
    return {"x": x, "y": y, "hands": hands, "seed": seed, "net_x": m, "net_x_ci95": [m - 1.96 * se, m + 1.96 * se],
            "points_x": float((a[:, hk.R_POINTS].mean() + b[:, hk.R_POINTS + 1].mean()) / 2),
            "points_y": float((a[:, hk.R_POINTS + 1].mean() + b[:, hk.R_POINTS].mean()) / 2),
            "bidder_rate_x": (nxa + nxb) / (2 * hands), "make_rate_x": (mxa + mxb) / max(1, nxa + nxb),
            "bidder_rate_y": (nya + nyb) / (2 * hands), "make_rate_y": (mya + myb) / max(1, nya + nyb),
            "cpu_s": time.process_time() - t0}


def calibrate(hands: int, seed: int, strategies) -> dict:
    """Every searched call of a run: predicted, true-deal, reached-contract and scored net points (see above)."""
    recs = _rows(strategies, hands, seed)
    rules = encode(V, resolve(V, {}))
    _, params = runner.seat_params(strategies, "hasenpfeffer")
    seer = params.copy()
    seer[:, hk.P_PIMC_SEES] = 1.0
    seer[:, hk.P_PIMC] = 1.0
    wt = np.zeros((4, 4, 25))
    hk.card_weights(params, wt)
    ws = pimc.new_workspace()
    dstate, dbuf = np.empty(4, np.uint64), np.zeros(2, np.int64)
    cand, vals, vals_true = np.zeros(8, np.int64), np.zeros(8), np.zeros(8)
    by_kind: dict[str, list[tuple[float, float, float, float]]] = collections.defaultdict(list)
    for h, rec in enumerate(recs):
        bidder, dealer = int(rec[hk.R_BIDDER]), int(rec[hk.R_DEALER])
        dealt = np.array([rec[hk.R_DEAL + s] for s in range(4)], np.int64)
        widow = np.int64(rec[hk.R_WIDOW])
        n_calls = int(rec[hk.R_NCALLS])
        calls = np.zeros((hk.MAX_CALLS, 2), np.int64)
        calls[:n_calls] = rec[hk.R_CALLS:hk.R_CALLS + 2 * n_calls].reshape((n_calls, 2))
        scored, reached = np.zeros(2), np.zeros(2)  # points by side
        if bidder >= 0:
            side, level = bidder & 1, int(rec[hk.R_BID])
            held = dealt.copy()
            held[bidder] = (held[bidder] | (1 << int(widow))) & ~(1 << int(rec[hk.R_DISCARD]))
            dd = pimc.solve_deal(held[0], held[1], held[2], held[3], np.int64(15), np.int64(rec[hk.R_TRUMP]),
                                 np.int64((dealer + 1) % 4), np.int64(5 << side), ws)
            for out, taken in ((scored, int(_side_tricks(rec[None, :], side)[0])), (reached, int(dd))):
                out[side], out[1 - side] = hk.score_hand(level, taken, rules)
        high = 0
        for k in range(n_calls):
            seat, call = int(calls[k, 0]), int(calls[k, 1])
            if params[seat, hk.P_PIMC_BID] >= 0.5 and params[seat, hk.P_PIMC] >= 1.0 and high < 6:
                force = hk.NO_FORCE.copy()
                force[hk.F_GIVEN_CALLS:hk.F_GIVEN_CALLS + k] = calls[:k, 1]
                n_cand = 7 - high
                cand[:n_cand] = [0, *range(high + 1, 7)]
                splitmix_seed(np.uint64(h * 64 + k + 1), dstate)
                dbuf[:] = 0
                args = (np.int64(seat), np.int64(k), calls, force, cand, np.int64(n_cand), dealt, widow,
                        np.int64(dealer), rules)
                w = hk._call_values(*args, params, wt, dstate, dbuf, ws, vals)
                w_true = hk._call_values(*args, seer, wt, dstate, dbuf, ws, vals_true)
                i = [int(c) for c in cand[:n_cand]].index(call)
                kind = ("pass" if call == 0 else "bid") + (", opening" if high == 0 else "")
                rival = params[seat, hk.P_PIMC_RIVAL]  # the search's own score: its side's points less rival times
                mine, theirs = seat & 1, 1 - (seat & 1)  # the other side's
                entry = (vals[i] / w, vals_true[i] / w_true, reached[mine] - rival * reached[theirs],
                         scored[mine] - rival * scored[theirs])
                by_kind[kind].append(entry)
                by_kind["every call"].append(entry)
            high = max(high, call)
    out = {"hands": hands, "seed": seed, "strategies": strategies}
    for kind, rows in sorted(by_kind.items()):
        r = np.array(rows)
        out[kind] = {"n": len(rows), "predicted": float(r[:, 0].mean()), "true_deal": float(r[:, 1].mean()),
                     "reached_contract_dd": float(r[:, 2].mean()), "scored": float(r[:, 3].mean())}
    return out


if __name__ == "__main__":
    mode, rest = (sys.argv[1], sys.argv[2:]) if len(sys.argv) > 1 else ("", [])
    if mode == "duel" and len(rest) == 4:
        print(json.dumps(duel(rest[0], rest[1], int(rest[2]), int(rest[3]))))
    elif mode == "calibrate" and len(rest) >= 2:
        strat = rest[2:] or ["pimc"]
        print(json.dumps(calibrate(int(rest[0]), int(rest[1]), strat * 4 if len(strat) == 1 else strat), indent=1))
    else:
        raise SystemExit(__doc__)
