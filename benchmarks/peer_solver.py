"""Peer benchmark: bower's double-dummy solver against the bitboard solver of jamesterrell/Euchre_Calculator.

Usage: ``python -m benchmarks.peer_solver --peer PATH [--deals N] [--seed S] [--block B] [--chunk C] [--json]``

The peer is ``bitcore.py`` of https://github.com/jamesterrell/Euchre_Calculator
(a bitboard alpha-beta search in Python and Numba, with a transposition table
over rank-compressed positions; its ``docs/writeup.md`` and
``notes/equivalence.md`` explain its reductions). Its code is not part of
bower: read the file from that repository (the indexed code is newer than its
main branch; the version measured in ``benchmarks/RESULTS.md`` is named
there), save it anywhere outside this repository and pass its path as
``--peer``. It needs only NumPy and Numba.

The work: ``--deals`` random standard-Euchre deals (four seats, five cards
each from the 24-card deck; trump, maker and leader drawn per deal; no
loner), the same deals for both. Answered three ways, one thread each:

- **peer**: the maker's points (euchred, made, march) as the peer's own sweeps
  ask them: two null-window searches of ``bitcore.solve_canon`` (score above 0?
  then above 1?), one 2**22-entry (32 MiB) table shared by the whole run;
- **bower exact**: the maker side's tricks, ``bower.kernels.solve.solve_many``
  (MTD(f)), a 1.25 MiB table per ``--chunk`` deals as bower's callers use it;
- **bower points**: the same band, ``bower.kernels.solve_points.points_many``
  (at most two zero-window searches), tables as the exact solve.

Every deal's values must agree (the peer's band, the band of bower's exact
tricks, and bower's points mode); a disagreement is printed and the exit
status is 1. Timings are interleaved in blocks of ``--block`` deals, the order
of the three rotating from block to block, so load on the machine falls on all
three alike; compilation is excluded (each is run on a few deals first, and the
peer's table emptied after). Solves a second are the deals over the summed wall
seconds of each (CPU seconds of the process are reported too); positions a
solve are each search's own count of positions entered (the peer's ``nodes``,
bower's ``nodes``), the same definition in both.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# bower's cards are suit * 6 + rank with suits C S D H; the peer's suit * 6 + rank with suits C D H S (ranks 9..A
# alike in both)
PEER_SUIT = np.array([0, 3, 1, 2], np.int64)
NEED = 3  # tricks the maker's side needs


def load_peer(path: str):
    """The peer's ``bitcore`` module, loaded from ``path``."""
    p = Path(path).resolve()
    if not p.is_file():
        raise SystemExit(f"--peer {path}: no such file (save bitcore.py of jamesterrell/Euchre_Calculator there)")
    spec = importlib.util.spec_from_file_location("bitcore", p)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["bitcore"] = mod
    spec.loader.exec_module(mod)
    for name in ("solve_canon", "to_canon", "new_tt", "tt_mask", "new_stack"):
        if not hasattr(mod, name):
            raise SystemExit(f"--peer {path}: has no {name} (not the bitcore.py this benchmark reads)")
    return mod


def make_peer_driver(bc):
    """A Numba loop over deals calling the peer's ``solve_canon`` twice with null windows: band 0, 1 or 2."""
    from numba import njit

    solve_canon = bc.solve_canon
    to_canon = bc.to_canon

    @njit
    def drive(nat, trump, leader, maker, tt, ttmask, stk, out, nodes):
        cnt = np.zeros(1, np.int64)
        for i in range(nat.shape[0]):
            cnt[0] = 0
            t = trump[i]
            h0 = to_canon(nat[i, 0], t)
            h1 = to_canon(nat[i, 1], t)
            h2 = to_canon(nat[i, 2], t)
            h3 = to_canon(nat[i, 3], t)
            v = solve_canon(h0, h1, h2, h3, leader[i], maker[i], 0, tt, ttmask, cnt, stk, 0, 1)
            if v >= 1:
                v = solve_canon(h0, h1, h2, h3, leader[i], maker[i], 0, tt, ttmask, cnt, stk, 1, 2)
                out[i] = 2 if v >= 2 else 1
            else:
                out[i] = 0
            nodes[i] = cnt[0]

    return drive


def random_deals(n: int, seed: int) -> dict:
    """``n`` random deals: bower's hands (card masks), the peer's (natural-id masks), trump, maker, leader."""
    rng = np.random.default_rng(seed)
    cards = np.argsort(rng.random((n, 24)), axis=1)[:, :20].reshape(n, 4, 5).astype(np.int64)
    hands = np.bitwise_or.reduce(np.left_shift(np.int64(1), cards), axis=2)
    nat = np.bitwise_or.reduce(np.left_shift(np.int64(1), PEER_SUIT[cards // 6] * 6 + cards % 6), axis=2)
    trump = rng.integers(0, 4, n).astype(np.int64)
    maker = rng.integers(0, 4, n).astype(np.int64)
    leader = rng.integers(0, 4, n).astype(np.int64)
    return {"hands": hands, "nat": nat, "trump": trump, "maker": maker, "leader": leader,
            "sides": (np.int64(1) << maker) | (np.int64(1) << (maker ^ 2)), "active": np.full(n, 15, np.int64)}


def band(tricks: np.ndarray) -> np.ndarray:
    """Tricks of five to the contract's band: 0 euchred (< 3), 1 made, 2 march."""
    return np.where(tricks < NEED, 0, np.where(tricks == 5, 2, 1))


def run(peer_path: str, deals: int = 200_000, seed: int = 0, block: int = 10_000, chunk: int = 256) -> dict:
    import numba

    from benchmarks.run import machine
    from bower.kernels import solve as ks
    from bower.kernels import solve_points as kp

    numba.set_num_threads(1)
    bc = load_peer(peer_path)
    drive = make_peer_driver(bc)
    d = random_deals(deals, seed)
    n = deals
    peer_out, peer_nodes = np.zeros(n, np.int64), np.zeros(n, np.int64)
    exact_out, exact_nodes = np.zeros(n, np.int64), np.zeros(n, np.int64)
    pts_out, pts_nodes = np.zeros(n, np.int64), np.zeros(n, np.int64)
    need = np.full(n, NEED, np.int64)
    peer_trump = PEER_SUIT[d["trump"]]
    stk = bc.new_stack()

    def peer(lo, hi, tt):
        drive(d["nat"][lo:hi], peer_trump[lo:hi], d["leader"][lo:hi], d["maker"][lo:hi], tt, bc.tt_mask(tt), stk,
              peer_out[lo:hi], peer_nodes[lo:hi])

    def exact(lo, hi):
        ks.solve_many(d["hands"][lo:hi], d["active"][lo:hi], d["trump"][lo:hi], d["leader"][lo:hi],
                      d["sides"][lo:hi], np.int64(chunk), exact_out[lo:hi], exact_nodes[lo:hi])

    def points(lo, hi):
        kp.points_many(d["hands"][lo:hi], d["active"][lo:hi], d["trump"][lo:hi], d["leader"][lo:hi],
                       d["sides"][lo:hi], need[lo:hi], np.int64(chunk), pts_out[lo:hi], pts_nodes[lo:hi])

    # warm-up: compile all three on a few deals; then the peer starts from an empty table
    warm = min(n, 200)
    peer(0, warm, bc.new_tt())
    exact(0, warm)
    points(0, warm)
    tt = bc.new_tt()

    names = ("peer", "bower exact", "bower points")
    wall = dict.fromkeys(names, 0.0)
    cpu = dict.fromkeys(names, 0.0)
    for k, lo in enumerate(range(0, n, block)):
        hi = min(n, lo + block)
        calls = [("peer", lambda: peer(lo, hi, tt)), ("bower exact", lambda: exact(lo, hi)),
                 ("bower points", lambda: points(lo, hi))]
        r = k % 3
        for name, fn in calls[r:] + calls[:r]:
            c0, w0 = time.process_time(), time.perf_counter()
            fn()
            wall[name] += time.perf_counter() - w0
            cpu[name] += time.process_time() - c0

    want = band(exact_out)
    bad = np.flatnonzero((peer_out != want) | (pts_out != want))
    m = machine()
    nodes = {"peer": peer_nodes, "bower exact": exact_nodes, "bower points": pts_nodes}
    res = {
        "machine": m, "threads": 1, "deals": n, "seed": seed, "block": block, "chunk": chunk,
        "peer_file": str(Path(peer_path).resolve()),
        "agree": int(n - len(bad)), "disagree": [int(i) for i in bad[:20]], "n_disagree": int(len(bad)),
        "bands": [int(x) for x in np.bincount(want, minlength=3)],
        "solves_per_second": {k: n / wall[k] for k in names},
        "cpu_solves_per_second": {k: n / cpu[k] for k in names},
        "positions_per_solve": {k: float(v.mean()) for k, v in nodes.items()},
    }
    sps, cps = res["solves_per_second"], res["cpu_solves_per_second"]
    res["ratio"] = {k: sps[k] / sps["peer"] for k in names[1:]}
    res["cpu_ratio"] = {k: cps[k] / cps["peer"] for k in names[1:]}
    return res


def report(r: dict) -> str:
    m = r["machine"]
    lines = [
        f"CPU: {m['cpu']} ({m['cores']} cores); threads: 1 each; Python {m['python']}, Numba {m['numba']}; "
        f"commit {m['commit']}; {m['date']}",
        f"peer: {r['peer_file']}",
        f"{r['deals']:,} random standard-Euchre deals (seed {r['seed']}; trump, maker, leader per deal, no loner), "
        f"timed in interleaved blocks of {r['block']:,}; bower's tables: one per {r['chunk']} deals",
        f"bands euchred / made / march: {r['bands'][0]:,} / {r['bands'][1]:,} / {r['bands'][2]:,}; "
        f"values agree on {r['agree']:,} of {r['deals']:,} deals",
        "",
        "| | solves/s | positions a solve | ratio to the peer (wall) | ratio (CPU) |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for k in ("peer", "bower exact", "bower points"):
        ratio = f"{r['ratio'][k]:.2f}x" if k in r["ratio"] else "1"
        cratio = f"{r['cpu_ratio'][k]:.2f}x" if k in r["cpu_ratio"] else "1"
        lines.append(f"| {k} | {r['solves_per_second'][k]:,.0f} | {r['positions_per_solve'][k]:.0f} | {ratio} | "
                     f"{cratio} |")
    if r["n_disagree"]:
        lines.append(f"DISAGREE on {r['n_disagree']:,} deals, first: {r['disagree']}")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", required=True, help="path to the peer's bitcore.py (see this module's docstring)")
    ap.add_argument("--deals", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--block", type=int, default=10_000, help="deals per timed block (the three interleave)")
    ap.add_argument("--chunk", type=int, default=256, help="deals per bower table (bower.sim.solve.CHUNK)")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    r = run(a.peer, a.deals, a.seed, a.block, a.chunk)
    print(json.dumps(r, indent=2) if a.json else report(r))
    return 1 if r["n_disagree"] else 0


if __name__ == "__main__":
    sys.exit(main())
