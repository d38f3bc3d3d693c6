"""Records and analysis speed: ``bower simulate --records`` into Parquet and JSONL, ``bower analyze`` of big files.

Usage: ``python benchmarks/records.py [--hands N] [--analyze N,N] [--threads T,T] [--dir DIR] [--json]``

Each measurement is a fresh ``bower`` process. Writing: the run's own
throughput (``hands_per_second`` of ``simulate --json``: kernels, columns,
Parquet or JSON text and the file, the start-up and any compile left out)
at each thread count, Ghost Hand, seed 0, the default strategy. Analysis:
``bower analyze FILE --json`` on Ghost Hand Parquet files of the sizes
given (written first, at the most threads), wall seconds of the whole
command (start-up included) and the process's peak resident memory (the
child's ``ru_maxrss`` from ``os.wait4``). The kernels are compiled (or
loaded) by a small run first.
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


def _peak_rss(args: list[str]) -> tuple[str, float, int]:
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
    return b"".join(chunks).decode(), wall, usage.ru_maxrss * 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2_000_000, help="hands per writing run (default 2,000,000)")
    ap.add_argument("--analyze", default="1000000,10000000", help="sizes of the files analysed (comma list)")
    ap.add_argument("--threads", default="1,2", help="thread counts of the writing runs (comma list)")
    ap.add_argument("--dir", default=None, help="where the files go (default: a temporary folder)")
    ap.add_argument("--json", action="store_true", help="print the results as JSON")
    args = ap.parse_args()
    work = Path(args.dir or tempfile.mkdtemp(prefix="bower-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    for ext in ("parquet", "jsonl"):  # compile or load every kernel the runs use
        _peak_rss(["simulate", "--hands", "5000", "-q", "--records", str(work / f"warm.{ext}")])
    _peak_rss(["analyze", str(work / "warm.parquet"), "--json"])
    results = {"writing": [], "analyze": []}
    for threads in [int(t) for t in args.threads.split(",")]:
        for ext in ("parquet", "jsonl"):
            path = work / f"w.{ext}"
            out, wall, rss = _peak_rss(["simulate", "--hands", str(args.hands), "--threads", str(threads), "-q",
                                        "--json", "--records", str(path)])
            s = json.loads(out)
            results["writing"].append({"format": ext, "threads": threads, "hands": args.hands,
                                       "hands_per_second": s["hands_per_second"], "seconds": s["elapsed_s"],
                                       "wall_s": wall, "peak_rss_mb": rss / 2**20,
                                       "file_mb": path.stat().st_size / 2**20})
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
    print("| writing | threads | hands | hands/s | peak memory | file |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for w in results["writing"]:
        print(f"| .{w['format']} | {w['threads']} | {w['hands']:,} | {w['hands_per_second']:,.0f} | "
              f"{w['peak_rss_mb']:.0f} MB | {w['file_mb']:.0f} MB |")
    print()
    print("| bower analyze | seconds (whole command) | peak memory | file |")
    print("| ---: | ---: | ---: | ---: |")
    for a in results["analyze"]:
        print(f"| {a['hands']:,} hands | {a['wall_s']:.2f} | {a['peak_rss_mb']:.0f} MB | {a['file_mb']:.0f} MB |")


if __name__ == "__main__":
    main()
