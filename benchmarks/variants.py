"""Every variant's whole hands against Ghost Hand's: CPU nanoseconds a hand, the variants timed in turns.

Usage: ``python benchmarks/variants.py [--variants ghost,euchre,cutthroat,hasenpfeffer] [--hands N]
[--repeats R] [--threads T]``

Each measurement is ``runner.simulate`` of ``N`` independent hands (default
strategies, summary mode) timed by the process's CPU time (``getrusage``:
all threads, so a loaded machine's waiting is left out); the variants take
turns within each repeat and the median of the repeats is reported, with
each variant's ratio to Ghost Hand's nanoseconds a hand (the issue's bound:
1.5). The first run of each variant compiles or loads its kernels and is not
timed.
"""

from __future__ import annotations

import argparse
import resource
import statistics


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


REFERENCE = "ghost"  # the yardstick: every variant is measured against its ns a hand


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="ghost,euchre,cutthroat,hasenpfeffer")
    ap.add_argument("--hands", type=int, default=1 << 20)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    from bower.sim import runner

    # Ghost Hand first, always: the yardstick every other variant's nanoseconds are divided by
    names = list(dict.fromkeys([REFERENCE] + [v.strip() for v in args.variants.split(",") if v.strip()]))
    for v in names:  # compile or load first
        runner.simulate(variant=v, hands=5000, seed=0, threads=args.threads)
    times: dict[str, list[float]] = {v: [] for v in names}
    for _ in range(args.repeats):
        for v in names:
            c = _cpu()
            runner.simulate(variant=v, hands=args.hands, seed=0, threads=args.threads)
            times[v].append(_cpu() - c)
    ns = {v: 1e9 * statistics.median(x) / args.hands for v, x in times.items()}
    print(f"whole hands, {args.threads} thread(s), {args.hands:,} hands, CPU ns a hand (median of {args.repeats}):")
    for v in names:
        print(f"  {v:<13} {ns[v]:7.1f}   ({ns[v] / ns[REFERENCE]:.2f}x Ghost Hand's; runs {min(times[v]) * 1e9 / args.hands:.1f}"
              f"-{max(times[v]) * 1e9 / args.hands:.1f})")


if __name__ == "__main__":
    main()
