"""``make bench``, second part: CPU seconds of compiling, by variant and by command, on an empty Numba cache.

Usage: ``python benchmarks/compile.py [--only CASES] [--top N] [--timeout S] [--json] [--list]``

Each case runs twice in fresh interpreters, with ``NUMBA_CACHE_DIR`` set to a
new empty temporary folder: first on that empty cache ("cold"), then the same
command again on the cache the first run filled ("warm"). A run is
``python -c BOOTSTRAP``: the bootstrap registers a listener for Numba's
``numba:compile`` event, runs the command in-process (``bower.sim.cli.main``,
as the ``bower`` script does, or a snippet of Python for the library) and
prints one JSON line. Reported for each case:

- CPU s: user + system seconds of the whole run (``getrusage(RUSAGE_CHILDREN)``
  around it: the interpreter, its threads and any processes it waited for);
- compiling: CPU seconds (``time.process_time``) inside outermost
  ``numba:compile`` events of the interpreter itself (a kernel compiling a
  callee raises a nested event, counted once in its caller's); compiles in
  processes the command starts are not seen, only their CPU in "CPU s" (the
  JSON gives ``child_cpu_s``, the CPU of those processes);
- wall s of the cold run (a shared machine stretches it: trust CPU seconds);
- kernels: ``numba:compile`` events, nested ones included (one per function
  and signature compiled); the warm run's count should be 0;
- warm CPU s: the second run's CPU seconds, what a user pays once compiled;
- the top ``--top`` kernels by exclusive compile CPU seconds (their own
  compile less the callees' compiles nested in it).

A case that fails or runs past ``--timeout`` is reported as such; the script
goes on with the next and exits 1 at the end. Compiling is single-threaded:
with the figures of issue 32 (44 to 89 CPU s a command before its work) the
13 cases take about 15 to 20 CPU minutes, as many wall minutes on an idle
2-core machine. ``make bench SKIP_COMPILE=1`` leaves this part out.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.run import machine  # noqa: E402

MARK = "BOWER-COMPILE-RESULT "

BOOTSTRAP = r'''
import json, os, resource, sys, threading, time, traceback
from numba.core import event

_stacks = {}
_state = {"compile_cpu_s": 0.0, "kernels": 0, "by": {}}


class _Listener(event.Listener):
    def on_start(self, ev):
        fn = getattr(ev.data.get("dispatcher"), "py_func", None)
        name = f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', '?')}"
        _stacks.setdefault(threading.get_ident(), []).append([name, time.process_time(), 0.0])

    def on_end(self, ev):
        stack = _stacks.get(threading.get_ident())
        if not stack:
            return
        name, t0, inner = stack.pop()
        took = time.process_time() - t0
        _state["kernels"] += 1
        own = _state["by"].setdefault(name, [0.0, 0])
        own[0] += took - inner
        own[1] += 1
        if stack:
            stack[-1][2] += took
        else:
            _state["compile_cpu_s"] += took


event.register("numba:compile", _Listener())
spec = json.loads(sys.argv[1])
status, error = 0, None
try:
    if spec["kind"] == "cli":
        from bower.sim.cli import main
        try:
            main(spec["argv"])
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    else:
        exec(compile(spec["code"], "<case>", "exec"), {"__name__": "__case__"})
except BaseException:
    status, error = 1, traceback.format_exc(limit=3)
me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
top = sorted(([k, v[0], v[1]] for k, v in _state["by"].items()), key=lambda r: -r[1])
sys.stdout.flush()
sys.stdout.write("\n" + spec["mark"] + json.dumps({
    "status": status, "error": error, "compile_cpu_s": _state["compile_cpu_s"], "kernels": _state["kernels"],
    "self_cpu_s": me.ru_utime + me.ru_stime, "child_cpu_s": kids.ru_utime + kids.ru_stime,
    "top": top[:spec["top"]]}) + "\n")
sys.stdout.flush()
'''


@dataclass
class Case:
    """One measured command: ``argv`` of ``bower`` or a Python ``code`` snippet; ``{tmp}`` is the case's folder.

    ``setup``: ``bower`` argvs run first, each on a cache of its own that is thrown away (not counted).
    """

    name: str
    argv: list[str] | None = None
    code: str | None = None
    setup: list[list[str]] = field(default_factory=list)

    def spec(self, tmp: str) -> dict:
        if self.argv is not None:
            return {"kind": "cli", "argv": [a.replace("{tmp}", tmp) for a in self.argv]}
        return {"kind": "code", "code": self.code.replace("{tmp}", tmp)}

    def command(self) -> str:
        """What a reader runs, from the repository's root, to reproduce the cold run (``$TMP`` the case's folder)."""
        def line(words):
            return "NUMBA_CACHE_DIR=$(mktemp -d) " + " ".join(
                f'"{w.replace("{tmp}", "$TMP")}"' if "{tmp}" in w else shlex.quote(w) for w in words)

        pre = "".join(line(["bower", *argv]) + " && " for argv in self.setup)  # not counted: its own cache
        return pre + line(["bower", *self.argv] if self.argv is not None else ["python", "-c", self.code])


GOLDEN = "tests/golden/ghost.records.head.jsonl"  # 50 records of Ghost Hand hands: replay's input
DEAL = "0:JC JS TD 9H JH QH 1:9C TC AC 9S 9D AD 2:QC TS KS AS KH AH"  # the `bower solve` deal of docs/guides/solve.md

CASES = [
    *(Case(f"simulate-{v}", ["simulate", "--hands", "100000", "--variant", v])
      for v in ("ghost", "euchre", "cutthroat", "hasenpfeffer")),
    Case("should-bid", ["should-bid", "JH JD AH KH 9S TC", "--position", "2", "--calls", "pass"]),
    # 384 games: few whole deal sets (games are rounded up to multiples of 64 sets); sweep's the same per value
    Case("experiment", ["experiment", "default", "aggressive", "--games", "384"]),
    Case("experiment-pimc", ["experiment", "pimc", "default", "--games", "384"]),
    Case("sweep", ["sweep", "--param", "bid_3=2.6:2.8:0.2", "--games", "384"]),
    Case("solve", ["solve", DEAL]),
    Case("replay", ["replay", GOLDEN]),  # the runs start in the repository's root
    Case("analyze", ["analyze", "{tmp}/r.jsonl"],
         setup=[["simulate", "--hands", "2000", "--records", "{tmp}/r.jsonl", "-q"]]),
    Case("report", ["report", "--hands", "20000", "--dd-hands", "100", "--out", "{tmp}/report", "--force"]),
    Case("api-simulate", code='import bower; bower.simulate("ghost", hands=100_000)'),
]


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(spec: dict, cache: str, timeout: float, top: int, cwd: Path = ROOT) -> dict:
    """One fresh interpreter running ``spec`` on the Numba cache ``cache``: its JSON line plus CPU and wall s."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    payload = json.dumps({**spec, "mark": MARK, "top": top})
    cpu0, t0 = _cpu_children(), time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", BOOTSTRAP, payload], cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # its own session: the command's processes too
        out, err = proc.communicate()
        timed_out = True
    wall, cpu = time.perf_counter() - t0, _cpu_children() - cpu0
    result = {"cpu_s": cpu, "wall_s": wall, "returncode": proc.returncode}
    lines = [x for x in out.splitlines() if x.startswith(MARK)]
    if lines:
        result.update(json.loads(lines[-1][len(MARK):]))
    if timed_out:
        result["outcome"] = f"timed out after {timeout:g} s"
    elif not lines or proc.returncode != 0 or result.get("status"):
        tail = (result.get("error") or err or out).strip().splitlines()
        result["outcome"] = "failed: " + (tail[-1] if tail else f"exit status {proc.returncode}")
    else:
        result["outcome"] = "ok"
    return result


def measure(case: Case, timeout: float, top: int) -> dict:
    """The case cold (an empty cache) then warm (the cache the cold run filled); setup steps first, uncounted."""
    row = {"case": case.name, "command": case.command()}
    with tempfile.TemporaryDirectory(prefix=f"bower-compile-{case.name}-") as tmp:
        for i, argv in enumerate(case.setup):
            step = Case(f"{case.name}-setup", argv).spec(tmp)
            r = run_once(step, str(Path(tmp) / f"setup-cache-{i}"), timeout, top)
            if r["outcome"] != "ok":
                row.update(outcome=f"setup {shlex.join(argv)} {r['outcome']}")
                return row
        cache = str(Path(tmp) / "cache")
        os.mkdir(cache)
        cold = run_once(case.spec(tmp), cache, timeout, top)
        row.update(outcome=cold["outcome"], cpu_s=cold["cpu_s"], wall_s=cold["wall_s"],
                   compile_cpu_s=cold.get("compile_cpu_s"), kernels=cold.get("kernels"),
                   child_cpu_s=cold.get("child_cpu_s"), top=cold.get("top", []))
        if cold["outcome"] != "ok":
            return row
        warm = run_once(case.spec(tmp), cache, timeout, top)
        row.update(warm_cpu_s=warm["cpu_s"], warm_wall_s=warm["wall_s"], warm_kernels=warm.get("kernels"),
                   warm_compile_cpu_s=warm.get("compile_cpu_s"))
        if warm["outcome"] != "ok":
            row["outcome"] = "warm run " + warm["outcome"]
    return row


def loadavg() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def _num(x, fmt: str) -> str:
    return "-" if x is None else format(x, fmt)


def table(rows: list[dict]) -> str:
    """The text table, then each case's top kernels and any failures."""
    lines = [f"{'case':<21} {'CPU s':>8} {'compiling':>9} {'wall s':>8} {'kernels':>7} {'warm CPU s':>10} "
             f"{'warm kernels':>12}  command"]
    for r in rows:
        lines.append(f"{r['case']:<21} {_num(r.get('cpu_s'), '.1f'):>8} {_num(r.get('compile_cpu_s'), '.1f'):>9} "
                     f"{_num(r.get('wall_s'), '.1f'):>8} {_num(r.get('kernels'), 'd'):>7} "
                     f"{_num(r.get('warm_cpu_s'), '.1f'):>10} {_num(r.get('warm_kernels'), 'd'):>12}  {r['command']}")
    for r in rows:
        if r.get("top"):
            lines.append(f"{r['case']}: top kernels by own compile CPU s: "
                         + ", ".join(f"{name} {s:.1f}" + (f" (x{n})" if n > 1 else "") for name, s, n in r["top"]))
        if r.get("child_cpu_s"):
            lines.append(f"{r['case']}: {r['child_cpu_s']:.1f} CPU s in processes the command started (their "
                         "compiles are in CPU s, not in compiling)")
    for r in rows:
        if r["outcome"] != "ok":
            lines.append(f"{r['case']}: {r['outcome']}")
    return "\n".join(lines)


def select(only: str | None, cases: list[Case] = CASES) -> list[Case]:
    if not only:
        return list(cases)
    wanted = [c.strip() for c in only.split(",") if c.strip()]
    names = {c.name: c for c in cases}
    unknown = [w for w in wanted if w not in names]
    if unknown:
        raise SystemExit(f"unknown case(s) {', '.join(unknown)}; the cases are {', '.join(names)}")
    return [names[w] for w in wanted]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", metavar="CASES", help="a comma list of cases (default: all; --list names them)")
    ap.add_argument("--top", type=int, default=5, help="kernels listed by own compile time, per case")
    ap.add_argument("--timeout", type=float, default=900, help="seconds each run (cold, warm, setup) may take")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--list", action="store_true", help="print the cases and their commands, run nothing")
    args = ap.parse_args(argv)
    cases = select(args.only)
    if args.list:
        for c in cases:
            print(f"{c.name:<21} {c.command()}")
        return 0
    info = machine()
    load_start = loadavg()
    if not args.json:
        print(f"bower compile benchmarks: {info['date']}, commit {info['commit']}")
        print(f"machine: {info['cpu']} ({info['cpu_vendor']}, family {info['cpu_family']}, model {info['cpu_model']}; "
              f"{' '.join(info['cpu_flags']) or 'no AVX2'}), {info['cores']} cores; Python {info['python']}, "
              f"Numba {info['numba']}; load average {load_start} at start")
        print("each case on an empty Numba cache (NUMBA_CACHE_DIR a new folder), then again warm; CPU s = user + "
              "system of the whole run; compiling = CPU s inside outermost numba:compile events; kernels = compile "
              "events; $TMP = the case's temporary folder", flush=True)
    rows = []
    for c in cases:
        rows.append(measure(c, args.timeout, args.top))
        if not args.json:
            r = rows[-1]
            print(f"  {c.name}: {r['outcome']}, {_num(r.get('cpu_s'), '.1f')} CPU s, "
                  f"{_num(r.get('compile_cpu_s'), '.1f')} compiling, warm {_num(r.get('warm_cpu_s'), '.1f')}",
                  file=sys.stderr, flush=True)
    load_end = loadavg()
    if args.json:
        print(json.dumps({"machine": info, "loadavg": {"start": load_start, "end": load_end}, "cases": rows}, indent=2))
    else:
        print()
        print(table(rows))
        print(f"load average {load_end} at the end")
    return 1 if any(r["outcome"] != "ok" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
