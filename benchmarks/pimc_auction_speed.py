"""Hands per CPU-second on one thread: PIMC card play alone against card play with the searched auction.

``python benchmarks/pimc_auction_speed.py [--every-seat] [VARIANT ...]``: Ghost Hand (600
hands), Euchre (400), Cutthroat (600) and Hasenpfeffer (400), or only the variants named;
seat 0 with ``pimc_worlds`` = W (16, 32, 64) and the others ``default``, with and without ``pimc_bid``; then every seat with both at
W = 16, 32 and 64 (a quarter of the hands; ``--every-seat``: only these rows). Best of two runs after a warm-up,
in CPU seconds of this process (the machine is shared: wall time moves with
the load, CPU time far less). Euchre also with ``pimc_infer`` (seat 0 at
W = 16 and 32: cards alone, cards and auction).
"""
import sys
import time

import numba
from bower.sim import runner
numba.set_num_threads(1)
def rate(variant, strategy, n):
    runner.simulate(variant, hands=10, seed=0, threads=1, strategy=strategy)
    best = 0
    for _ in range(2):
        t = time.process_time()
        runner.simulate(variant, hands=n, seed=0, threads=1, strategy=strategy)
        best = max(best, n / (time.process_time() - t))
    return best
every_only = "--every-seat" in sys.argv[1:]
names = [a for a in sys.argv[1:] if not a.startswith("--")]
# the variants, their seats and hands, and whether to measure the auction model's inference (pimc_infer) too
for variant, seats, n, infer in (("ghost", 3, 600, False), ("euchre", 4, 400, True), ("cutthroat", 3, 600, False),
                                 ("hasenpfeffer", 4, 400, False)):
    if names and variant not in names:
        continue
    others = ["default"] * (seats - 1)
    for w in (16, 32, 64) if not every_only else ():
        cards = rate(variant, [{"pimc_worlds": float(w)}] + others, n)
        bid = rate(variant, [{"pimc_worlds": float(w), "pimc_bid": 1.0}] + others, n)
        print(variant, f"W={w} one seat: cards {cards:,.0f}/s, cards+auction {bid:,.0f}/s", flush=True)
    for w in (16, 32, 64):
        allb = rate(variant, [{"pimc_worlds": float(w), "pimc_bid": 1.0}] * seats, n // 4)
        print(variant, f"W={w} every seat cards+auction {allb:,.0f}/s", flush=True)
    for w in (16, 32) if infer and not every_only else ():
        cinf = rate(variant, [{"pimc_worlds": float(w), "pimc_infer": 1.0}] + others, n)
        binf = rate(variant, [{"pimc_worlds": float(w), "pimc_bid": 1.0, "pimc_infer": 1.0}] + others, n)
        print(variant, f"W={w} one seat with pimc_infer: cards {cinf:,.0f}/s, cards+auction {binf:,.0f}/s", flush=True)
