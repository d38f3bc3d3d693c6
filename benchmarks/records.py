"""Records and analysis speed: ``bower simulate --records`` into Parquet and JSONL, ``bower analyze`` of big files.

Usage: ``python benchmarks/records.py [--hands N] [--analyze N,N] [--threads T,T] [--repeat R] [--dir DIR]
[--json] [--parts]``

Each measurement is a fresh ``bower`` process. Writing: the run's own
throughput (``hands_per_second`` of ``simulate --json``: kernels, columns,
Parquet or JSON text and the file, the start-up and any compile left out)
at each thread count, Ghost Hand, seed 0, the default strategy, best of
``--repeat`` runs; and the CPU time the run costs a hand (user + system of
the whole process, all its threads, from ``os.wait4``, less that of a run of
65,536 hands, over the hands between), which does not depend on what else
the machine runs: ``2 / cpu`` is what two free cores could write. Analysis:
``bower analyze FILE --json`` on Ghost Hand Parquet files of the sizes
given (written first, at the most threads), wall seconds of the whole
command (start-up included) and the process's peak resident memory (the
child's ``ru_maxrss`` from ``os.wait4``). The kernels are compiled (or
loaded) by a small run first. ``--parts``: instead, one thread's CPU time
(``time.thread_time``) of each step of writing, per batch of 32,768 Ghost
Hand hands, in this process (best of 3 runs of 8 batches).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BOWER = [sys.executable, "-c", "import sys; from bower.sim.cli import main; sys.argv[0] = 'bower'; main()"]


def _peak_rss(args: list[str], usage_out: list | None = None) -> tuple[str, float, int]:
    """``bower ARGS`` with its own peak memory: fork, exec, wait4 (Popen's wait would take the rusage)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    r, w = os.pipe()
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: bower, its stdout into the pipe
        os.close(r)
        os.dup2(w, 1)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.chdir(ROOT)
        os.execve(BOWER[0], [*BOWER, *args], env)
    os.close(w)
    chunks = []
    while True:
        b = os.read(r, 1 << 16)
        if not b:
            break
        chunks.append(b)
    os.close(r)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    if status:
        raise SystemExit(f"bower {' '.join(args)} failed (status {status})")
    if usage_out is not None:
        usage_out.append(usage.ru_utime + usage.ru_stime)
    return b"".join(chunks).decode(), wall, usage.ru_maxrss * 1024


BASE_HANDS = 65_536  # the run whose CPU time is taken off (start-up, loading the kernels, the first batches)


def parts() -> None:
    """One thread's CPU time of each step of writing records, per batch of 32,768 Ghost Hand hands."""
    sys.path.insert(0, str(ROOT))
    from bower.sim import records as rc
    from bower.sim import records_parquet as rp
    from bower.sim import runner

    v, rules, rules_vec = runner.resolve_run("ghost", 0, None)
    _, params = runner.seat_params("default", "ghost")
    runner.set_threads(1)
    n_batches, size = 8, runner.RECORD_BATCH_CHUNKS * runner.CHUNK_SIZE
    work = Path(tempfile.mkdtemp(prefix="bower-parts-"))
    steps: dict[str, list[float]] = {}
    for _ in range(3):
        pw = rc.ParquetWriter(str(work / "p.parquet"), v, rules, meta={})
        aw = rc.ParquetWriter(str(work / "a.parquet"), v, rules, meta={}, direct=False)
        jw = rc.JsonlWriter(str(work / "j.jsonl"), v, rules, meta={})
        tot: dict[str, float] = {}

        def timed(name, fn):
            t0 = time.thread_time()
            out = fn()
            tot[name] = tot.get(name, 0.0) + time.thread_time() - t0
            return out

        for b in range(n_batches):
            first = b * size
            rows, _ = timed("kernels (one thread, records on)",
                            lambda: runner.hands_job(("ghost", 0, first, size, rules_vec, params, True)))
            step = "columns (`record_columns`, `derived_columns`)"
            cols = timed(step, lambda: rc.record_columns(v, rows, first, rules))
            cols = cols + timed(step, lambda: rc.derived_columns(v, rules, dict(cols)))
            group = timed("Parquet pages (`records_parquet.encode_row_group`)",
                          lambda: rp.encode_row_group(pw.layout, cols, size))
            timed("Parquet file write (`put`)", lambda: pw.put(group))
            batch = timed("before: Arrow arrays (`arrow_batch`)", lambda: aw.prepare(first, rows))
            timed("before: pyarrow's encoding and write (`write_batch`)", lambda: aw.put(batch))
            lines = timed("JSON lines (`record_columns`, `json_lines`)",
                          lambda: rc.json_lines(rc.record_columns(v, rows, first, rules), size))
            timed("JSONL file write (`put`)", lambda: jw.put(lines))
        for w in (pw, aw, jw):
            w.close()
        for k, x in tot.items():
            steps.setdefault(k, []).append(x)
    hands = n_batches * size
    print(f"| step (Ghost Hand, {size:,} hands a batch) | ms a batch | µs a hand |")
    print("| --- | ---: | ---: |")
    for k, xs in steps.items():
        print(f"| {k} | {min(xs) / n_batches * 1e3:.1f} | {min(xs) / hands * 1e6:.3f} |")
    print(f"\nload average {os.getloadavg()[0]:.1f} (2 cores: {os.cpu_count()})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2_000_000, help="hands per writing run (default 2,000,000)")
    ap.add_argument("--analyze", default="1000000,10000000", help="sizes of the files analysed (comma list)")
    ap.add_argument("--threads", default="1,2", help="thread counts of the writing runs (comma list)")
    ap.add_argument("--dir", default=None, help="where the files go (default: a temporary folder)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each writing case; the best is kept (default 1)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    ap.add_argument("--parts", action="store_true", help="the CPU time of each step instead (this process)")
    args = ap.parse_args()
    if args.parts:
        parts()
        return
    work = Path(args.dir or tempfile.mkdtemp(prefix="bower-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    for ext in ("parquet", "jsonl"):  # compile or load every kernel the runs use
        _peak_rss(["simulate", "--hands", "5000", "-q", "--records", str(work / f"warm.{ext}")])
    _peak_rss(["analyze", str(work / "warm.parquet"), "--json"])
    results = {"writing": [], "analyze": []}
    for threads in [int(t) for t in args.threads.split(",")]:
        for ext in ("parquet", "jsonl"):
            path = work / f"w.{ext}"
            base: list = []
            _peak_rss(["simulate", "--hands", str(BASE_HANDS), "--threads", str(threads), "-q", "--records",
                       str(path)], base)
            best = None
            for _ in range(max(1, args.repeat)):
                cpu: list = []
                load = os.getloadavg()[0]
                out, wall, rss = _peak_rss(["simulate", "--hands", str(args.hands), "--threads", str(threads), "-q",
                                            "--json", "--records", str(path)], cpu)
                s = json.loads(out)
                row = {"format": ext, "threads": threads, "hands": args.hands,
                       "hands_per_second": s["hands_per_second"], "seconds": s["elapsed_s"], "wall_s": wall,
                       "cpu_us_per_hand": (cpu[0] - base[0]) / (args.hands - BASE_HANDS) * 1e6,
                       "peak_rss_mb": rss / 2**20, "file_mb": path.stat().st_size / 2**20, "load": load}
                if best is None or row["hands_per_second"] > best["hands_per_second"]:
                    best = row
            results["writing"].append(best)
            path.unlink()
            if ext == "jsonl":
                Path(str(path) + ".meta.json").unlink()
    for n in [int(x) for x in args.analyze.split(",") if x]:
        path = work / f"a{n}.parquet"
        if not path.exists():
            _peak_rss(["simulate", "--hands", str(n), "-q", "--records", str(path)])
        out, wall, rss = _peak_rss(["analyze", str(path), "--json"])
        r = json.loads(out)
        assert r["hands"] == n
        results["analyze"].append({"hands": n, "wall_s": wall, "peak_rss_mb": rss / 2**20,
                                   "file_mb": path.stat().st_size / 2**20})
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print("| writing | threads | hands | hands/s | CPU a hand | 2 free cores | load | peak memory | file |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for w in results["writing"]:
        print(f"| .{w['format']} | {w['threads']} | {w['hands']:,} | {w['hands_per_second']:,.0f} | "
              f"{w['cpu_us_per_hand']:.2f} µs | {2e6 / w['cpu_us_per_hand']:,.0f}/s | {w['load']:.1f} | "
              f"{w['peak_rss_mb']:.0f} MB | {w['file_mb']:.0f} MB |")
    print()
    print("| bower analyze | seconds (whole command) | peak memory | file |")
    print("| ---: | ---: | ---: | ---: |")
    for a in results["analyze"]:
        print(f"| {a['hands']:,} hands | {a['wall_s']:.2f} | {a['peak_rss_mb']:.0f} MB | {a['file_mb']:.0f} MB |")


if __name__ == "__main__":
    main()
