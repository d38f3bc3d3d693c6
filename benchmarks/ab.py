"""Interleaved A/B timing of whole hands: this tree against another commit, alternating, both orders.

Usage: ``python benchmarks/ab.py --against REV [--variants ghost,cutthroat] [--threads 1,2] [--rounds 6]
[--hands 2000000]``

On a machine whose speed drifts from minute to minute, timing one tree and
then the other (``run.py --against``) can show ratios far from 1 between
identical kernels. Here every measurement is a fresh process timing
``runner.simulate`` (best of 3 after a warm-up); the two trees alternate
within each round, the first tree of the pair changing every round, and the
best of all rounds is reported for each. The other commit is checked out in
a temporary git worktree.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from benchmarks.run import link_package  # noqa: E402  (the other tree's package, made as make bench makes it)

TIME = r'''
import json, sys, time
import numba
from bower.sim import runner
variant, threads, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
numba.set_num_threads(threads)
kw = {} if variant == "ghost" else {"variant": variant}  # an old tree may predate the variant argument
runner.simulate(hands=5000, seed=0, threads=threads, **kw)
best = 0.0
for _ in range(3):
    t0 = time.perf_counter()
    runner.simulate(hands=n, seed=0, threads=threads, **kw)
    best = max(best, n / (time.perf_counter() - t0))
print(json.dumps(best))
'''


def once(tree: Path, variant: str, threads: int, hands: int) -> float:
    """Hands per second of one fresh process whose ``bower`` comes from ``tree`` (best of 3 after a warm-up).

    As ``run.py``'s ``measure``: another tree is imported through a folder of links laid out as the install maps
    this one (``bower`` is ``api/``, ``bower.sim`` is ``sim/``...). ``PYTHONPATH=tree`` alone would not do: the
    editable install's finder maps ``bower`` to this checkout whatever the path says, so both sides of the
    comparison were this tree.
    """
    with tempfile.TemporaryDirectory(prefix="bower-ab-") as farm:
        env = dict(os.environ)
        if tree.resolve() != ROOT.resolve():
            env["PYTHONPATH"] = link_package(tree, Path(farm))
        out = subprocess.run([sys.executable, "-c", TIME, variant, str(threads), str(hands)], cwd=tree, env=env,
                             capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    """Run the rounds and print the best of each tree, the ratio, and every measurement."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", required=True, help="the other commit")
    ap.add_argument("--variants", default="ghost,cutthroat,hasenpfeffer")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--hands", type=int, default=2_000_000)
    args = ap.parse_args()
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    threads = [int(t) for t in args.threads.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "other"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(other), args.against], cwd=ROOT, check=True)
        try:
            best: dict = {}
            for r in range(args.rounds):
                for v in variants:
                    for t in threads:
                        pair = [("this", ROOT), (args.against, other)]
                        for name, tree in (pair if r % 2 == 0 else pair[::-1]):
                            x = once(tree, v, t, args.hands)
                            print(f"round {r + 1} {name:<10} {v:<13} {t} thread(s) {x:>12,.0f} hands/s", flush=True)
                            key = (v, t, name)
                            best[key] = max(best.get(key, 0.0), x)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(other)], cwd=ROOT, check=False)
    print(f"\nbest of {args.rounds} rounds ({args.hands:,} hands, fresh process each):")
    print(f"{'variant':<13} {'threads':>7} {'this':>12} {args.against[:12]:>12} {'ratio':>6}")
    for v in variants:
        for t in threads:
            a, b = best[(v, t, "this")], best[(v, t, args.against)]
            print(f"{v:<13} {t:>7} {a:>12,.0f} {b:>12,.0f} {a / b:>6.2f}")


if __name__ == "__main__":
    main()
