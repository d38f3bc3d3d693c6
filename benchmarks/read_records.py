"""Reading a records file into pandas: ``bower.read_records``, ``Simulation.records()`` and plain pandas, alternated.

Usage: ``python benchmarks/read_records.py [--hands N] [--seed S] [--repeat R] [--file PATH] [--json]``

Writes ``bower simulate --hands N --seed S --records FILE`` (Ghost Hand,
Parquet; or reads ``--file``), then, ``--repeat`` times in turn, each case
in a fresh process so that one's memory does not carry into the next:

- ``read_records``: ``bower.read_records(FILE)`` (every record checked);
- ``records()``: ``Simulation.records()`` of a result whose records are
  that file (``bower.simulate(..., records=FILE)``'s; the result is built
  on the file, so only the reading is timed, not the run);
- ``pandas``: ``pd.read_parquet(FILE, dtype_backend="pyarrow")``, which checks
  nothing: the floor on the same machine in the same minutes.

Each line: wall seconds and CPU seconds (user + system, all threads) of the
call alone, the process's peak resident memory (``ru_maxrss``) after it and
before it (imports). Run the cases of one comparison in the same minutes:
on a shared machine the load moves the wall seconds, less the CPU seconds.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CASE = r"""
import json, resource, sys, time
which, path = sys.argv[1], sys.argv[2]
import pandas as pd
import bower
from bower.results import Simulation
if which == "records()":
    run = Simulation({}, {}, path)  # a result whose records are the file: records() reads it
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
c0, t0 = time.process_time(), time.perf_counter()
if which == "read_records":
    df = bower.read_records(path)
elif which == "records()":
    df = run.records()
else:
    df = pd.read_parquet(path, dtype_backend="pyarrow")
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"case": which, "rows": len(df), "wall_s": round(wall, 2), "cpu_s": round(cpu, 2),
                  "peak_rss_mb": round(peak / 1024), "before_mb": round(before / 1024)}))
"""

CASES = ("read_records", "records()", "pandas")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1_000_000, help="hands of the file (default 1,000,000)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the file (default 1)")
    ap.add_argument("--repeat", type=int, default=3, help="rounds of the three cases (default 3)")
    ap.add_argument("--file", default=None, help="a records file to read instead of writing one")
    ap.add_argument("--json", action="store_true", help="one JSON object a line")
    a = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bower-read-") as tmp:
        path = a.file or str(Path(tmp) / "hands.parquet")
        if a.file is None:
            subprocess.run([sys.executable, "-c", "from bower.sim.cli import main; main()", "simulate", "--hands",
                            str(a.hands), "--seed", str(a.seed), "--records", path, "--quiet"],
                           check=True, stdout=subprocess.DEVNULL)
        for _ in range(a.repeat):
            for case in CASES:
                out = subprocess.run([sys.executable, "-c", CASE, case, path], check=True, capture_output=True,
                                     text=True, env=None).stdout
                r = json.loads(out.strip().splitlines()[-1])
                if a.json:
                    print(json.dumps(r), flush=True)
                else:
                    print(f"{r['case']:13} {r['rows']:,} rows  {r['wall_s']:5.2f} s wall  {r['cpu_s']:5.2f} s CPU  "
                          f"peak RSS {r['peak_rss_mb']:,} MB (before the call {r['before_mb']:,} MB)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
