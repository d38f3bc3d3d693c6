"""Dask runs against local threads: the overhead per task, the chunk size that keeps it small, ``local:2`` against 2 threads.

    python benchmarks/dask_runs.py [--hands 1000000] [--repeat 3]

One LocalCluster of 2 worker processes (``threads_per_worker=1``, each
worker's Numba threads its share of the cores, as ``--scheduler local:2``
makes it) serves parts 1 and 2, warmed first. On a shared machine wall time
says more about the neighbours than about Dask, so the overhead is counted
in CPU time: the CPU seconds of this process (client and scheduler) and of
both workers over a run, less the CPU spent inside the jobs. Printed as
Markdown for RESULTS.md:

1. no-op tasks through the executor: CPU and wall time per task;
2. per task size (chunks of 4,096 Ghost Hand hands, summary mode, the jobs
   of ``runner.run_hands``): the CPU of all processes over the run less the
   CPU the worker processes spent inside the jobs (``time.process_time``
   around each), per task and as a share of the run's CPU, and the fixed
   cost alone (tasks times a no-op task's CPU) against the jobs' CPU;
3. whole runs, ``simulate(scheduler="local:2")`` (a cluster started for the
   run) against ``simulate(threads=2)``, interleaved: the runs' own hands/s,
   the call's wall time with the cluster start, and CPU seconds per million hands.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time


def _load() -> str:
    return "%.1f" % os.getloadavg()[0]


def _worker_cpu() -> float:
    return time.process_time()


def timed_hands_job(job):
    """``runner.hands_job`` and the CPU seconds its worker process spent on it."""
    from bower.sim import runner

    t0 = time.process_time()
    runner.hands_job(job)
    return None, time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--noops", type=int, default=2000)
    args = ap.parse_args()

    import numba

    from bower.sim import distributed as dist
    from bower.sim import runner

    _, _, rules_vec = runner.resolve_run("ghost", 0, None)
    _, params = runner.seat_params("default")
    print(f"load average at the start: {_load()} (2 cores)\n")

    numba.set_num_threads(1)
    chunk_s = {}
    for c in (1, 4, 16):
        job = ("ghost", 0, 0, c * runner.CHUNK_SIZE, rules_vec, params, False)
        runner.hands_job(job)
        ts = []
        for _ in range(max(3, args.repeat)):
            t0 = time.thread_time()
            runner.hands_job(job)
            ts.append(time.thread_time() - t0)
        chunk_s[c] = min(ts) / c
    t_chunk = statistics.median(chunk_s.values())
    numba.set_num_threads(runner.max_threads())
    print(f"kernel CPU time of one chunk (4,096 Ghost Hand hands, summary mode) on one thread: "
          f"{t_chunk * 1e3:.2f} ms (best of {max(3, args.repeat)}; 1, 4 and 16 chunks at a time)\n")

    cluster = dist.local_cluster(2)
    try:
        with dist.session(cluster.scheduler_address) as ex:
            def cpu() -> float:
                return time.process_time() + sum(ex.client.run(_worker_cpu).values())

            ex.warm(runner.hands_job, ("hands", "ghost", False), ("ghost", 0, 0, 1, rules_vec, params, False))
            list(ex.map(abs, range(200)))
            cpus, walls = [], []
            for _ in range(args.repeat):
                c0, t0 = cpu(), time.perf_counter()
                for _ in ex.map(abs, range(args.noops)):
                    pass
                walls.append((time.perf_counter() - t0) / args.noops)
                cpus.append((cpu() - c0) / args.noops)
            print("| no-op task, 2 workers | per task |\n| --- | ---: |")
            noop = statistics.median(cpus)
            print(f"| CPU, all three processes (median of {args.repeat} x {args.noops} tasks) "
                  f"| {noop * 1e3:.2f} ms |")
            print(f"| wall (tasks in flight: {max(2, 2 * ex.nthreads)}) | {statistics.median(walls) * 1e3:.2f} ms |")
            c0 = cpu()
            time.sleep(5)
            idle = (cpu() - c0) / 5
            print(f"| CPU of the idle cluster (heartbeats, memory monitors), per second of wall time | "
                  f"{idle * 1e3:.1f} ms |")
            print(f"\nload average: {_load()}\n")

            print("| chunks a task | hands a task | tasks | wall s | CPU s, all processes | of it in the jobs "
                  "| per task, beyond the jobs and the idle cluster | overhead share of the CPU "
                  "| fixed cost share (tasks x no-op CPU / jobs' CPU) |")
            print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
            for c in (1, 4, 16, 64, 128, 256):
                step = c * runner.CHUNK_SIZE
                jobs = [("ghost", 0, f, min(step, args.hands - f), rules_vec, params, False)
                        for f in range(0, args.hands, step)]
                used, inside, walls = [], [], []
                for _ in range(args.repeat):
                    c0, t0 = cpu(), time.perf_counter()
                    job_cpu = sum(t for _, t in ex.map(timed_hands_job, jobs))
                    walls.append(time.perf_counter() - t0)
                    used.append(cpu() - c0)
                    inside.append(job_cpu)
                total, jobs_cpu, wall = statistics.median(used), statistics.median(inside), statistics.median(walls)
                per_task = (total - jobs_cpu - idle * wall) / len(jobs)
                print(f"| {c} | {step:,} | {len(jobs)} | {wall:.2f} | {total:.2f} | {jobs_cpu:.2f} "
                      f"| {per_task * 1e3:.1f} ms | {100 * (total - jobs_cpu) / total:.1f}% "
                      f"| {100 * len(jobs) * noop / jobs_cpu:.1f}% |")
            print(f"\nload average: {_load()}\n")
    finally:
        cluster.close()

    import resource

    def children_cpu() -> float:
        r = resource.getrusage(resource.RUSAGE_CHILDREN)
        return r.ru_utime + r.ru_stime

    res = {"2 threads": [], "local:2": []}
    for _ in range(args.repeat):
        for label, kw in (("2 threads", {"threads": min(2, runner.max_threads())}),
                          ("local:2", {"scheduler": "local:2"})):
            c0, k0, t0 = time.process_time(), children_cpu(), time.perf_counter()
            s = runner.simulate(hands=args.hands, seed=0, **kw)
            res[label].append((s["hands_per_second"], time.perf_counter() - t0,
                               time.process_time() - c0 + children_cpu() - k0))
    print("| run | hands | hands/s (the run's own, median) | whole call, s (cluster start and warm-up in it) "
          "| CPU s per million hands (whole call) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for label, rows in res.items():
        rate = statistics.median(r[0] for r in rows)
        wall = statistics.median(r[1] for r in rows)
        cpu_m = statistics.median(r[2] for r in rows) / args.hands * 1e6
        print(f"| {label} | {args.hands:,} | {rate:,.0f} | {wall:.1f} | {cpu_m:.2f} |")
    ratio = statistics.median(a[0] / b[0] for a, b in zip(res["local:2"], res["2 threads"]))
    print(f"\nlocal:2 / 2 threads, hands/s (median of the {args.repeat} interleaved pairs): {ratio:.2f}; "
          f"load average: {_load()}")


if __name__ == "__main__":
    main()
