"""Compile the kernels ahead of time, one group per process, with a progress line: ``bower warm``, ``bower.warm()``.

A *group* is what one process compiles: a variant's kernels for the first
answers people ask (the ``PARTS``: ``hands``: ``bower simulate``; ``records``: a records
file, ``bower analyze`` and ``report``; ``games``: ``--games``,
``bower experiment`` and ``sweep``; ``advice``: ``bower should-bid``), or,
with the part ``search``, the same variant's search kernels (hands and a
game of its ``pimc-fast`` preset, the double-dummy solver and should-bid's
``dd`` and ``pimc`` play-outs, which heuristic strategies never reach;
opt-in). Each group runs tiny, seeded calls of the engine
itself, so it compiles exactly what those commands load, nothing more.

``warm`` runs the groups in ``jobs`` child processes at a time (``python -m
bower.sim.warm --child``), each compiling into the Numba cache folder the
later runs load (``bower.kernels.cache_dir()``, or ``cache_dir``). Numba
writes each cache file atomically (a temporary file, then a rename), so
processes compiling different groups into one folder never spoil a file. A
group whose kernels are cached already only loads them: its process costs
the import and the loads, about a second or two on the 2-core machine.
"""

from __future__ import annotations

import dataclasses
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time

from bower.sim.errors import UserError
from bower.sim.text import number_text

# the variants' search groups, costliest first: CPU s of each on an empty cache after its variant's other group, in
# two clean clones of ``make test`` on the 2-core AMD EPYC (benchmarks/RESULTS.md, 2026-12-08): Cutthroat 68 and 68,
# Standard Euchre 51 and 59, Ghost Hand 48 and 49, Hasenpfeffer 45 and 46
SEARCH_ORDER = ("cutthroat", "euchre", "ghost", "hasenpfeffer")
PARTS = ("hands", "records", "games", "advice")  # what a variant's first answers need (the default)
SEARCH_PARTS = ("search",)  # PIMC card play and auction, the double-dummy solver: opt-in
ALL_PARTS = PARTS + SEARCH_PARTS
SEARCH_PRESET = "pimc-fast"
TICK_S = 0.2  # how often the parent looks at its children
COMPILING = "compiling"  # what a child writes on its stdout when Numba starts its first compile


class WarmError(UserError):
    """A group that failed to compile (its last error line) or a bad request: one line, exit 2."""


@dataclasses.dataclass(frozen=True)
class Group:
    """What one process compiles: ``items``, each ``("variant", NAME, PARTS)`` or ``("call", "module:function")``."""

    name: str
    items: tuple

    def to_json(self) -> str:
        """The group as the child process reads it."""
        return json.dumps({"name": self.name, "items": [list(i) if i[0] == "call" else [i[0], i[1], list(i[2])]
                                                        for i in self.items]})

    @staticmethod
    def from_json(text: str) -> "Group":
        """The group ``to_json`` wrote."""
        d = json.loads(text)
        return Group(d["name"], tuple(tuple(i) if i[0] == "call" else (i[0], i[1], tuple(i[2])) for i in d["items"]))


def variant_names(variants=None) -> list[str]:
    """The variants' own names, in the registry's order and without repeats (None or empty: all of them).

    A name may be an alias, in any case; WarmError names the known ones for another.
    """
    from bower.sim.rules import RuleError, get_variant
    from bower.sim.variants import names

    if variants is None or (not isinstance(variants, str) and not list(variants)):
        return list(names())
    if isinstance(variants, str):
        variants = [variants]
    wanted = []
    for text in variants:
        try:
            wanted.append(get_variant(str(text).strip().lower()).name)
        except RuleError as e:
            raise WarmError(str(e)) from None
    return [n for n in names() if n in wanted]


def part_names(parts=None) -> tuple[str, ...]:
    """The parts asked for, in ``ALL_PARTS``' order (None or empty: ``PARTS``); WarmError names the known ones."""
    if parts is None or (not isinstance(parts, str) and not list(parts)):
        return PARTS
    if isinstance(parts, str):
        parts = [parts]
    wanted = {str(p).strip().lower() for p in parts}
    unknown = sorted(wanted - set(ALL_PARTS))
    if unknown:
        raise WarmError(f"unknown part {unknown[0]!r} (known: {', '.join(ALL_PARTS)})")
    return tuple(p for p in ALL_PARTS if p in wanted)


def groups(variants=None, parts=None) -> list[Group]:
    """One group per variant with its ``parts`` (default ``PARTS``); the search parts in a group of their own.

    The search kernels take as long to compile as the rest, so a variant's
    search group runs in a process beside its other group.
    """
    parts = part_names(parts)
    plain = tuple(p for p in parts if p not in SEARCH_PARTS)
    search = tuple(p for p in parts if p in SEARCH_PARTS)
    names_ = variant_names(variants)
    out = [Group(n, (("variant", n, plain),)) for n in names_] if plain else []
    if search:
        # costliest first, so that the last group to end is a short one and no process waits long alone
        by_cost = sorted(names_, key=lambda n: SEARCH_ORDER.index(n) if n in SEARCH_ORDER else len(SEARCH_ORDER))
        out += [Group(f"{n} search", (("variant", n, search),)) for n in by_cost]
    return out


# ---- what a group runs (in the child process) --------------------------------------------------------------

def compile_parts(variant: str, parts=PARTS) -> None:
    """Run each part of ``variant`` once, tiny and seeded, here: its kernels are compiled (or loaded) and cached."""
    from bower.sim import runner
    from bower.sim.rules import get_variant

    v = get_variant(variant)
    for part in parts:
        if part == "hands":
            runner.simulate(v.name, hands=50, seed=0, threads=1)
        elif part == "records":
            with tempfile.TemporaryDirectory(prefix="bower-warm-") as d:
                runner.simulate(v.name, hands=50, seed=0, threads=1, records_path=os.path.join(d, "r.jsonl"))
        elif part == "games":
            runner.simulate_games(v.name, games=2, seed=0, threads=1)
        elif part == "advice":
            v.profile_advice(20, 1)
        elif part == "search":
            from bower.sim import solve

            if SEARCH_PRESET in v.presets:
                runner.simulate_games(v.name, games=1, seed=0, threads=1, strategy=SEARCH_PRESET)
                runner.simulate(v.name, hands=2, seed=0, threads=1, strategy=SEARCH_PRESET)
            solve.solve_batch(*solve.sample_deals(v, 2, 0))
            v.profile_advice(4, 1, playout="dd")  # should-bid --playout dd and both
            v.profile_advice(2, 1, playout="pimc")
        else:
            raise WarmError(f"unknown part {part!r} (known: {', '.join(PARTS + SEARCH_PARTS)})")


def run_items(items) -> None:
    """Compile a group's items here, in order (a ``("call", "module:function", *args)`` item calls it with
    ``args``)."""
    for item in items:
        if item[0] == "variant":
            compile_parts(item[1], item[2])
        else:
            module, _, fn = item[1].partition(":")
            getattr(importlib.import_module(module), fn)(*item[2:])


DASK_TOPIC = "bower-compiling"  # the Dask event a worker logs when it starts compiling a warm job


def watched_call(arg):
    """``(fn(job), compiled, compile_s)`` for ``arg = (fn, job, token)``: the value, whether Numba compiled meanwhile.

    What a Dask worker runs to warm a job (``bower.sim.distributed``): at its
    first compile it logs ``token`` under the Dask event topic ``DASK_TOPIC``,
    so the client can print the compile notice while the worker compiles.
    """
    from bower.sim import progress

    fn, job, token = arg

    def said():
        from distributed import get_worker

        get_worker().log_event(DASK_TOPIC, token)

    before, n0 = progress.compile_seconds(), progress.compiles()
    progress.count_compiles(on_first=said)
    try:
        value = fn(job)
    finally:
        progress.count_compiles(on_first=None)
    return value, progress.compiles() > n0, progress.compile_seconds() - before


def _child(group_json: str) -> int:
    """The child's side: compile the group, say ``compiling`` at its first compile, end with its result as JSON."""
    from bower.sim import progress

    t0 = time.perf_counter()
    group = Group.from_json(group_json)

    def said():
        try:
            sys.stdout.write(COMPILING + "\n")
            sys.stdout.flush()
        except (OSError, ValueError):
            pass

    progress.count_compiles(on_first=said)
    run_items(group.items)
    result = {"group": group.name, "compiled": progress.compiles() > 0,
              "compile_s": round(progress.compile_seconds(), 2),
              "cpu_s": round(_process_cpu(), 2), "wall_s": round(time.perf_counter() - t0, 2)}
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0


def _process_cpu() -> float:
    """CPU seconds of this process so far, every thread, the interpreter's start and the imports included."""
    try:
        import resource

        r = resource.getrusage(resource.RUSAGE_SELF)
        return r.ru_utime + r.ru_stime
    except (ImportError, OSError):
        return time.process_time()


# ---- running the groups (the parent) ------------------------------------------------------------------------

def default_jobs(n_groups: int) -> int:
    """Processes at a time: the CPUs this process may use, at most one per group."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, n_groups))


class _Running:
    """One child process compiling one group; its stdout and stderr go to files in ``folder``.

    The parent reads them through handles of its own (never the child's, whose
    file offset it would move).
    """

    def __init__(self, group: Group, env: dict, folder: str, index: int):
        self.group = group
        self.out_path = os.path.join(folder, f"{index}.out")
        self.err_path = os.path.join(folder, f"{index}.err")
        self.t0 = time.perf_counter()
        with open(self.out_path, "wb") as out, open(self.err_path, "wb") as err:
            self.proc = subprocess.Popen([sys.executable, "-m", "bower.sim.warm", "--child", group.to_json()],
                                         stdin=subprocess.DEVNULL, stdout=out, stderr=err, env=env)

    def _read(self, path: str) -> str:
        try:
            with open(path, "rb") as fh:
                return fh.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def compiling(self) -> bool:
        """Whether the child has said it is compiling."""
        return self._read(self.out_path).startswith(COMPILING + "\n")

    def result(self) -> dict:
        """The child's result (after it ended); WarmError with its last error line when it failed."""
        lines = self._read(self.out_path).splitlines()
        if self.proc.returncode == 0 and lines:
            try:
                return json.loads(lines[-1])
            except ValueError:
                pass
        errs = [x.strip() for x in self._read(self.err_path).splitlines() if x.strip()]
        why = errs[-1] if errs else f"exit status {self.proc.returncode}"
        raise WarmError(f"compiling {self.group.name} failed: {why}")

    def stop(self) -> None:
        """End the child (if it still runs)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class Line:
    """The progress line on ``stream``: redrawn in place on a terminal, otherwise one line per group's end."""

    def __init__(self, names: list[str], jobs: int, stream=None, enabled: bool = True):
        self.stream = stream or sys.stderr
        self.enabled = enabled
        try:
            self.tty = self.stream.isatty()
        except (AttributeError, ValueError):
            self.tty = False
        self.t0 = time.perf_counter()
        self.state = {n: "waiting" for n in names}
        self.last = float("-inf")
        self.drawn = False
        self._write(f"bower: warm: {', '.join(names)} in {jobs} process{'es' if jobs > 1 else ''} "
                    "(kernels already cached only load)\n")

    def _write(self, text: str) -> None:
        if not self.enabled:
            return
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed stderr never stops the work
            pass

    def set(self, name: str, state: str) -> None:
        """Record a group's state (``waiting``, ``loading``, ``compiling``, ``compiled``, ``cached``)."""
        old, self.state[name] = self.state.get(name), state
        if not self.tty and state in ("compiled", "cached") and old != state:
            self._write(f"bower: warm: {name} {state} ({time.perf_counter() - self.t0:.0f} s)\n")

    def draw(self, force: bool = False) -> None:
        """Redraw the line on a terminal (at most twice a second unless ``force``)."""
        now = time.perf_counter()
        if not self.tty or (not force and now - self.last < 0.5):
            return
        self.last = now
        by: dict = {}
        for name, state in self.state.items():
            by.setdefault(state, []).append(name)
        parts = [f"{st} {', '.join(by[st])}" for st in ("compiling", "loading", "compiled", "cached", "waiting")
                 if by.get(st)]
        self._write(f"\r\033[Kbower: warm: {'; '.join(parts)}; {now - self.t0:.0f} s")
        self.drawn = True

    def close(self) -> None:
        """End the redrawn line."""
        if self.drawn:
            self._write("\n")
            self.drawn = False

    def say(self, text: str) -> None:
        """One line of its own (the summary)."""
        self.close()
        self._write(text + "\n")


def summary_text(result: dict) -> str:
    """``bower: warm: ghost, euchre compiled in 41 s CPU; cutthroat cached`` (the final line)."""
    compiled = [g for g in result["groups"] if g["compiled"]]
    cached = [g for g in result["groups"] if not g["compiled"]]
    parts = []
    if compiled:
        parts.append(f"{', '.join(g['group'] for g in compiled)} compiled in "
                     f"{sum(g['cpu_s'] for g in compiled):.0f} s CPU")
    if cached:
        parts.append(f"{', '.join(g['group'] for g in cached)} cached" + ("" if compiled else ", nothing to compile"))
    return f"bower: warm: {'; '.join(parts)} ({result['wall_s']:.1f} s)"


def run_groups(gs: list[Group], *, jobs: int | None = None, cache_dir: str | None = None, progress: bool = True,
               stream=None) -> dict:
    """Compile ``gs`` in ``jobs`` processes at a time (the next group starts as one ends); the result as a dict.

    ``{"groups": [{"group", "compiled", "compile_s", "cpu_s", "wall_s"}], "compiled": [names], "cached": [names],
    "cpu_s", "wall_s", "jobs", "cache_dir"}``. ``cache_dir``: the Numba cache
    folder the children write (default: ``bower.kernels.cache_dir()``, what
    this process and later runs load). ``progress``: the progress line and
    the summary on ``stream`` (stderr), unless ``--quiet`` / ``bower.quiet``.
    """
    from bower.sim import progress as prog

    if jobs is not None and jobs < 1:
        raise WarmError(f"jobs must be at least 1, got {number_text(jobs)}")
    if not gs:
        raise WarmError("nothing to warm: give at least one variant")
    jobs = min(jobs or default_jobs(len(gs)), len(gs))
    if cache_dir is None:
        from bower import kernels

        cache_dir = kernels.cache_dir()
    os.makedirs(cache_dir, exist_ok=True)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir), OMP_WAIT_POLICY=os.environ.get("OMP_WAIT_POLICY", "PASSIVE"))
    line = Line([g.name for g in gs], jobs, stream, enabled=progress and not prog.is_quiet())
    t0 = time.perf_counter()
    waiting, running, done = list(gs), [], {}
    folder = tempfile.TemporaryDirectory(prefix="bower-warm-")
    try:
        while waiting or running:
            while waiting and len(running) < jobs:
                g = waiting.pop(0)
                running.append(_Running(g, env, folder.name, len(gs) - len(waiting)))
                line.set(g.name, "loading")
            time.sleep(TICK_S)
            for r in list(running):
                if r.proc.poll() is None:
                    if line.state[r.group.name] == "loading" and r.compiling():
                        line.set(r.group.name, "compiling")
                    continue
                running.remove(r)
                try:
                    done[r.group.name] = r.result()
                finally:
                    r.stop()
                line.set(r.group.name, "compiled" if done[r.group.name]["compiled"] else "cached")
            line.draw()
        line.draw(force=True)
    finally:
        for r in running:
            r.stop()
        line.close()
        folder.cleanup()
    rows = [done[g.name] for g in gs]
    result = {"groups": rows, "compiled": [r["group"] for r in rows if r["compiled"]],
              "cached": [r["group"] for r in rows if not r["compiled"]],
              "cpu_s": round(sum(r["cpu_s"] for r in rows), 2),
              "wall_s": round(time.perf_counter() - t0, 2), "jobs": jobs, "cache_dir": str(cache_dir)}
    line.say(summary_text(result))
    return result


def warm(variants=None, *, parts=None, jobs: int | None = None, cache_dir: str | None = None,
         progress: bool = True, stream=None) -> dict:
    """Compile ``parts`` (default ``PARTS``) of ``variants`` (default: all) ahead, in parallel processes.

    ``run_groups``' dict.
    """
    return run_groups(groups(variants, parts), jobs=jobs, cache_dir=cache_dir, progress=progress, stream=stream)


def main(argv=None) -> int:
    """``python -m bower.sim.warm --child GROUP_JSON``: one group, in this process (what ``run_groups`` starts)."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if len(argv) == 2 and argv[0] == "--child":
        return _child(argv[1])
    sys.stderr.write("usage: bower warm [--variant V ...] (python -m bower.sim.warm is the child side)\n")
    return 2


if __name__ == "__main__":
    sys.exit(main())
