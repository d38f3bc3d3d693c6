"""Each variant's hand kernel by parts (Ghost Hand's against the plain simulator): CPU nanoseconds a hand, one thread.

Usage: ``python benchmarks/phases.py [--hands N] [--repeats R] [--variants ghost,euchre,cutthroat,hasenpfeffer]``

Each part is a kernel that stops after that phase, timed by the process's
CPU time (``getrusage``: all threads, so a busy machine's waiting is left
out), the parts in turns, the median of the repeats: ``deal`` (the
shuffle and the four masks, ``deal_many``), ``auction`` (deal, swap
decision and calls, the variant's ``phase_run``: the plain path's auction,
``auction_plain``, as the hand kernel takes it for default seats), ``hand`` (all of it in summary
mode: deal, auction, six tricks, scoring, the counters), and the plain
simulator of ``../shared/bench/naive_ghost.py`` (deal, trivial bidding, a
greedy play of the hands someone bids). ``hand - auction`` is the play,
scoring and counters. Hardware counters are not available in these virtual
machines, so this is how the time is split.

The other variants named (``--variants``) that have their plain path cut
after each phase (``Variant.phase_cut``: Euchre, Cutthroat, Hasenpfeffer):
the deal, the auction, the exchange (Euchre's going alone, Cutthroat's going
alone and merge with the dummy, Hasenpfeffer's widow), the tricks and
scoring, and the whole chunk kernel (``Variant.run_chunks``: the tally and
the record's writing past that), all timed in turns with Ghost Hand's parts,
each part the difference of two cuts.
"""

from __future__ import annotations

import argparse
import importlib.util
import resource
import statistics
from pathlib import Path

import numba
import numpy as np

YARDSTICK = Path(__file__).resolve().parents[2] / "shared" / "bench" / "naive_ghost.py"


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1 << 20, help="hands per timed run (default 1,048,576)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--variants", default="ghost", help="a comma list: ghost (always), euchre, cutthroat, hasenpfeffer")
    args = ap.parse_args()
    from bower.kernels.deal import deal_many
    from bower.sim import runner
    from bower.sim.rules import encode, get_variant, resolve
    from bower.sim.strategy import load_strategy, to_vector

    numba.set_num_threads(1)
    v = get_variant("ghost")  # the registry's Ghost Hand: its kernels through the Variant interface
    layout = v.hand_kernels
    rules = encode(v, resolve(v, {}))
    params = np.tile(to_vector(load_strategy("default", "ghost")[1], "ghost"), (3, 1))
    n, size = args.hands, runner.CHUNK_SIZE
    chunks = -(-n // size)

    def deal():
        deal_many(runner.chunk_states(0, 0, chunks), size, n, 24, 4, 6, np.zeros(chunks, np.int64))

    def auction():
        v.phase_run(n)  # deal and auction, seeded as the runner seeds (what ``bower profile`` times)

    def whole():
        v.run_chunks(runner.chunk_states(0, 0, chunks), runner.decision_states(0, 0, chunks), 0, size, n, rules,
                     params, False, np.zeros((1, layout.R_WIDTH), np.int64), np.zeros((chunks, layout.S_WIDTH), np.int64))

    parts = {"deal": deal, "auction": auction, "hand": whole}
    others = [x.strip() for x in args.variants.split(",") if x.strip() and get_variant(x.strip()).phase_cut]
    for name in others:
        parts.update(_variant_parts(name, n, size, chunks))
    if YARDSTICK.is_file():
        spec = importlib.util.spec_from_file_location("naive_ghost", YARDSTICK)
        plain = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(plain)
        parts["plain"] = lambda: plain.sim_parallel(3, n, 64, plain.POWER, plain.SUITMASK, plain.DB_TABLE)
    for f in parts.values():  # compile or load first
        f()
    times: dict[str, list[float]] = {k: [] for k in parts}
    for _ in range(args.repeats):
        for k, f in parts.items():
            c = _cpu()
            f()
            times[k].append(_cpu() - c)
    ns = {k: 1e9 * statistics.median(x) / n for k, x in times.items()}
    print(f"Ghost Hand by parts, 1 thread, {n:,} hands, CPU ns a hand (median of {args.repeats}):")
    print(f"  deal                       {ns['deal']:7.1f}")
    print(f"  swap decision and calls    {ns['auction'] - ns['deal']:7.1f}   (auction {ns['auction']:.1f} less deal)")
    print(f"  play, scoring, counters    {ns['hand'] - ns['auction']:7.1f}   (hand {ns['hand']:.1f} less auction)")
    print(f"  whole hand                 {ns['hand']:7.1f}")
    if "plain" in ns:
        print(f"  plain simulator            {ns['plain']:7.1f}   (bower / plain speed {ns['plain'] / ns['hand']:.2f})")
    if others:
        ref = v.name  # Ghost Hand: each part's ratio is to its part
        print("\nby parts, the same runs; each part the cut after it less the cut before (ratio: to Ghost Hand's part)")
        print(f"  {'part':<28}" + "".join(f"{name:>14}" for name in [ref] + others))
        table = {ref: {"deal": ns["deal"], "auction": ns["auction"] - ns["deal"], "exchange": 0.0,
                       "play": ns["hand"] - ns["auction"], "tally": 0.0, "hand": ns["hand"]}}
        for name in others:
            c = [ns[f"{name} {k}"] for k in ("deal", "auction", "exchange", "play", "hand")]
            table[name] = {"deal": c[0], "auction": c[1] - c[0], "exchange": c[2] - c[1], "play": c[3] - c[2],
                           "tally": c[4] - c[3], "hand": c[4]}
        rows = [("deal", "deal"), ("auction", "auction"), ("exchange", "exchange"), ("play", "tricks and scoring"),
                ("tally", "tally, record"), ("hand", "whole hand")]
        for key, label in rows:
            line = f"  {label:<28}"
            base = table[ref][key]
            for name in [ref] + others:
                x = table[name][key]
                line += f"{x:9.1f}" + (f" {x / base:3.1f}x" if base > 0 and name in others else "     ")
            print(line)
        print("  (Ghost Hand: swap decision and calls under auction, the play with scoring and counters under tricks; "
              + "; ".join(f"{name}'s exchange: {_cut(name).EXCHANGE}" for name in others) + ")")


def _cut(name: str):
    """The module of a variant's plain path cut after a phase (``Variant.phase_cut``)."""
    import importlib

    from bower.sim.rules import get_variant

    return importlib.import_module(get_variant(name).phase_cut)


def _variant_parts(name: str, n: int, size: int, chunks: int) -> dict:
    """The timed parts of one variant: its plain path cut after each phase (``Variant.phase_cut``) and its whole
    hands (``Variant.run_chunks``), each a function of no argument."""
    from bower.sim import runner
    from bower.sim.rules import encode, get_variant, resolve
    from bower.sim.strategy import load_strategy, to_vector

    v = get_variant(name)
    layout = v.hand_kernels
    rules = encode(v, resolve(v, {}))
    params = np.tile(to_vector(load_strategy("default", name)[1], name), (v.players, 1))
    cut = _cut(name).phase_chunks

    def phase(stop):
        return lambda: cut(runner.chunk_states(0, 0, chunks), runner.decision_states(0, 0, chunks), 0, size, n, rules,
                           params, stop, np.zeros(chunks, np.int64))

    def whole():
        v.run_chunks(runner.chunk_states(0, 0, chunks), runner.decision_states(0, 0, chunks), 0, size, n, rules,
                     params, False, np.zeros((1, layout.R_WIDTH), np.int64), np.zeros((chunks, layout.S_WIDTH), np.int64))

    return {f"{name} deal": phase(1), f"{name} auction": phase(2), f"{name} exchange": phase(3),
            f"{name} play": phase(4), f"{name} hand": whole}


if __name__ == "__main__":
    main()
