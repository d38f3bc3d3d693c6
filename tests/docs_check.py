"""Rerun the commands behind the documented figures and compare every figure quoted (``make docs-check``).

Not part of the test run (pytest collects only ``test_*.py``); ``tests/test_docs_check.py``
checks the parser and the comparison on a tiny fake command.

The figures live in README.md and in the documentation pages, ``docs/**/*.md``
(the MkDocs site); every one of these files is read, and a block's name is
unique across all of them. A figure block starts with an HTML comment
(invisible on GitHub and on the site)::

    <!-- docs-check: three-way
    $ bower experiment default aggressive cautious --games 60288 --seed 0 --json
    39.32% = S("default")["win_rate"]
    contains: default is better
    -->

- ``$ CMD``: a shell line (bash, ``set -euo pipefail``), run in a fresh
  scratch folder with the venv's ``bower`` first on PATH and ``$BOWER_ROOT``
  the checkout; several run in order. The last one's stdout is ``out`` and,
  when it parses as JSON, ``j``. A block whose commands equal an earlier
  block's reuses that run.
- ``FIGURE = EXPR``: FIGURE is written exactly as in the README text that
  follows the comment in its file (up to the next heading or ``<!-- /docs-check -->``,
  other docs-check comments left out) and must appear there; EXPR is a
  Python expression over ``j``, ``out`` and the helpers below. The figure's
  own digits set the precision: ``39.32%`` holds when EXPR (a fraction) is
  0.3932 to within half of 0.0001; ``1,958`` when EXPR is 1958; a ``+`` or
  ``-`` sign counts. ``FIGURE = EXPR ~ TOL`` allows TOL more, in the
  figure's own units (for the few figures that are not exact for the seed).
- ``contains: TEXT``: ``out`` must contain TEXT.
- ``measured: WHERE`` instead of commands: the figures that follow are timings
  or throughputs measured on the machine named; they cannot reproduce and are
  listed as SKIP.
- ``run: python``: the first ```` ```python ```` block of the text that
  follows is run too, as a script (``python example.py`` in the scratch
  folder, after the ``$`` lines), so a Python example on a page runs as
  written; it must exit 0. ``out`` stays the last ``$`` line's stdout when
  there is one, else it is the script's.
- ``requires: MODULE``: the block is listed as SKIP when MODULE cannot be
  imported (an optional dependency, such as OpenSpiel of the ``bench`` extra).

Usage: ``python -m tests.docs_check [--list] [--only PATTERN] [--skip PATTERN]
[FILE ...]`` (default: README.md and every ``docs/**/*.md``); exit status 1
when any figure differs (or a command fails), 0 otherwise.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARK = re.compile(r"<!-- docs-check:\s*(?P<name>[^\n]*?)\n(?P<body>.*?)-->", re.S)
BLOCK_END = re.compile(r"<!-- /docs-check -->|^#{1,6} ", re.M)
PYTHON_FENCE = re.compile(r"^```python\n(.*?)^```", re.S | re.M)
NUMBER = re.compile(r"^(?P<sign>[+\-−]?)(?P<int>\d{1,3}(?:,\d{3})+|\d*)(?:\.(?P<frac>\d+))?(?P<pct>%?)$")


@dataclass
class Figure:
    """One quoted figure: its text, the expression that recomputes it, an extra tolerance."""

    text: str
    expr: str
    tol: float = 0.0


@dataclass
class Block:
    """One docs-check comment: its commands, its figures, the README text it covers."""

    name: str
    line: int
    commands: list[str] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    contains: list[str] = field(default_factory=list)
    measured: str | None = None
    text: str = ""
    source: str = "README.md"
    run_python: bool = False
    requires: list[str] = field(default_factory=list)

    def python(self) -> str | None:
        """The first ```python block of the text this block covers (``run: python``), else None."""
        m = PYTHON_FENCE.search(self.text)
        return m.group(1) if m else None


def doc_files(root: Path | None = None) -> list[Path]:
    """The files whose figures are checked: README.md, then every ``docs/**/*.md`` in path order (of ``root``, by
    default the checkout)."""
    root = ROOT if root is None else Path(root)
    files = [root / "README.md"] if (root / "README.md").exists() else []
    return files + sorted((root / "docs").rglob("*.md"))


def collect(files: list[Path], root: Path | None = None) -> list[Block]:
    """Every block of ``files``, in order, each naming its file. Raises ValueError on a malformed block or on a
    name used twice (in one file or in two)."""
    blocks: list[Block] = []
    seen: dict[str, Block] = {}
    for f in files:
        f = Path(f)
        try:
            source = f.resolve().relative_to(Path(ROOT if root is None else root).resolve()).as_posix()
        except ValueError:
            source = str(f)
        for b in parse(f.read_text(encoding="utf-8"), source):
            if b.name in seen:
                o = seen[b.name]
                raise ValueError(f"{b.source} line {b.line}: the block name {b.name!r} is used already "
                                 f"({o.source} line {o.line})")
            seen[b.name] = b
            blocks.append(b)
    return blocks


def parse(readme: str, source: str = "README.md") -> list[Block]:
    """Every docs-check block of ``readme`` (the text of ``source``), in order. Raises ValueError on a malformed
    one."""
    blocks = []
    for m in MARK.finditer(readme):
        line = readme.count("\n", 0, m.start()) + 1
        b = Block(m.group("name").strip(), line, source=source)
        if not b.name:
            raise ValueError(f"{source} line {line}: a docs-check comment without a name")
        for raw in m.group("body").splitlines():
            s = raw.strip()
            if not s:
                continue
            if s.startswith("$ "):
                b.commands.append(s[2:])
            elif s.startswith("contains:"):
                b.contains.append(s[len("contains:"):].strip())
            elif s.startswith("measured:"):
                b.measured = s[len("measured:"):].strip()
            elif s.startswith("run:"):
                if s[len("run:"):].strip() != "python":
                    raise ValueError(f"{source} line {line} ({b.name}): only 'run: python' is known, not {s!r}")
                b.run_python = True
            elif s.startswith("requires:"):
                b.requires += s[len("requires:"):].split()
            elif " = " in s:
                text, expr = (x.strip() for x in s.split(" = ", 1))
                tol = 0.0
                if " ~ " in expr:
                    expr, t = expr.rsplit(" ~ ", 1)
                    tol = float(t)
                if value_of(text) is None:
                    raise ValueError(f"{source} line {line} ({b.name}): {text!r} is not a figure")
                b.figures.append(Figure(text, expr.strip(), tol))
            else:
                raise ValueError(f"{source} line {line} ({b.name}): cannot read {s!r}")
        if b.measured is None and not b.commands and not b.run_python:
            raise ValueError(f"{source} line {line} ({b.name}): no command and not marked measured")
        rest = readme[m.end():]
        end = _block_end(rest)
        b.text = MARK.sub("", rest[:end])
        if b.run_python and b.python() is None:
            raise ValueError(f"{source} line {line} ({b.name}): 'run: python' but no ```python block follows")
        blocks.append(b)
    return blocks


def _block_end(rest: str) -> int:
    """Where a block's text ends in ``rest``: the next heading or ``<!-- /docs-check -->``, a ``# `` line inside a
    fenced code block (a Python or shell comment) not counted."""
    fences = [(f.start(), f.end()) for f in re.finditer(r"^```.*?^```", rest, re.S | re.M)]
    for e in BLOCK_END.finditer(rest):
        if not any(a <= e.start() < z for a, z in fences):
            return e.start()
    return len(rest)


def value_of(text: str) -> tuple[float, float, bool] | None:
    """A figure's value, half its last digit and whether it is a percentage; None if it is no number."""
    m = NUMBER.match(text)
    if not m or not (m.group("int") or m.group("frac")):
        return None
    digits = (m.group("int") or "0").replace(",", "")
    frac = m.group("frac") or ""
    v = float(f"{digits}.{frac}" if frac else digits)
    if m.group("sign") in ("-", "−"):
        v = -v
    return v, 0.5 * 10.0 ** -len(frac), bool(m.group("pct"))


def compare(fig: Figure, got) -> tuple[bool, str]:
    """Whether ``got`` reads as ``fig.text``; and ``got`` written at the figure's precision."""
    v, half, pct = value_of(fig.text)
    if got is None or isinstance(got, str):
        return False, repr(got)
    g = float(got) * (100.0 if pct else 1.0)
    if math.isnan(g):
        return False, "nan"
    decimals = len(fig.text.split(".")[1].rstrip("%")) if "." in fig.text else 0
    shown = f"{g:+.{decimals}f}" if fig.text[0] in "+-−" else f"{g:.{decimals}f}"
    return abs(g - v) <= half * (1 + 1e-9) + fig.tol, shown + ("%" if pct else "")


def helpers(j, out: str) -> dict:
    """The names a figure's expression may use."""

    def S(name):  # noqa: N802 - an experiment's strategy by name
        return next(s for s in j["strategies"] if s["name"] == name)

    def pair(a, b):
        return next(p for p in j["pairs"] if p["a"] == a and p["b"] == b)

    def row(**values):
        return next(r for r in j["rows"] if all(abs(r["values"][k] - v) < 1e-9 for k, v in values.items()))

    def grab(pattern, group=1, text=None):
        m = re.search(pattern, out if text is None else text, re.M)
        if not m:
            raise LookupError(f"no match for {pattern!r}")
        g = m.group(group).replace(",", "")
        return float(g.rstrip("%")) / (100.0 if g.endswith("%") else 1.0)

    def read(path):
        return Path(path).read_text()

    def load(path):
        return json.loads(Path(path).read_text())

    return {"j": j, "out": out, "S": S, "pair": pair, "row": row, "grab": grab, "read": read, "load": load,
            "math": math, "sum": sum, "len": len, "max": max, "min": min, "abs": abs, "round": round, "next": next,
            "any": any, "all": all, "float": float, "int": int, "sorted": sorted}


def run_block(b: Block, cache: dict, timeout: float) -> tuple[str, dict, float, str]:
    """Run a block's commands (or reuse an identical earlier run, 0 seconds): stdout, the eval namespace,
    seconds, the scratch folder."""
    script = b.python() if b.run_python else None
    key = "\n".join(b.commands) + ("" if script is None else "\n# run: python\n" + script)
    if key in cache:
        out, ns, _secs, scratch = cache[key]
        return out, ns, 0.0, scratch
    env = dict(os.environ)
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["BOWER_ROOT"] = str(ROOT)
    for k in ("BOWER_SEED", "BOWER_THREADS"):
        env.pop(k, None)
    scratch = tempfile.mkdtemp(prefix="bower-docs-")
    t0 = time.perf_counter()
    out = ""
    try:
        for cmd in b.commands:
            p = subprocess.run(["bash", "-c", "set -euo pipefail\n" + cmd], cwd=scratch, env=env,
                               capture_output=True, text=True, timeout=timeout)
            if p.returncode != 0:
                tail = (p.stderr.strip().splitlines() or ["(no stderr)"])[-1]
                raise RuntimeError(f"`{cmd}` exited {p.returncode}: {tail}")
            out = p.stdout
        if script is not None:
            Path(scratch, "example.py").write_text(script, encoding="utf-8")
            p = subprocess.run([sys.executable, "example.py"], cwd=scratch, env=env, capture_output=True, text=True,
                               timeout=timeout)
            if p.returncode != 0:
                tail = (p.stderr.strip().splitlines() or ["(no stderr)"])[-1]
                raise RuntimeError(f"the Python example exited {p.returncode}: {tail}")
            out = out if b.commands else p.stdout
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    try:
        j = json.loads(out)
    except ValueError:
        j = None
    res = (out, helpers(j, out), time.perf_counter() - t0, scratch)
    cache[key] = res
    return res


def check(blocks: list[Block], timeout: float = 900.0, stream=None) -> int:
    """Check every block; print one line per figure (OK, DIFF, SKIP) on ``stream`` (stdout); the number of
    failures."""
    stream = sys.stdout if stream is None else stream
    bad = 0
    cache: dict = {}
    try:
        bad = _check(blocks, cache, timeout, stream)
    finally:
        for _out, _ns, _secs, scratch in cache.values():
            shutil.rmtree(scratch, ignore_errors=True)
    return bad


def _check(blocks: list[Block], cache: dict, timeout: float, stream) -> int:
    bad = 0
    for b in blocks:
        if b.measured is not None:
            print(f"SKIP {b.name} ({b.source} line {b.line}): measured on {b.measured}", file=stream)
            continue
        absent = [m for m in b.requires if importlib.util.find_spec(m) is None]
        if absent:
            print(f"SKIP {b.name} ({b.source} line {b.line}): needs {', '.join(absent)}, not installed", file=stream)
            continue
        missing = [f.text for f in b.figures if f.text not in b.text]
        for t in missing:
            print(f"DIFF {b.name} ({b.source} line {b.line}): figure {t} is not in the text that follows",
                  file=stream)
            bad += 1
        try:
            out, ns, secs, scratch = run_block(b, cache, timeout)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            print(f"DIFF {b.name} ({b.source} line {b.line}): {e}", file=stream)
            bad += 1 + len(b.figures) + len(b.contains)
            continue
        for f in b.figures:
            cwd = os.getcwd()
            try:
                os.chdir(scratch)
                got = eval(f.expr, {"__builtins__": {}, **ns})  # noqa: S307 - the docs' own expressions
                ok, shown = compare(f, got)
            except Exception as e:  # noqa: BLE001 - any failure to recompute is a difference
                ok, shown = False, f"{type(e).__name__}: {e}"
            finally:
                os.chdir(cwd)
            if not ok:
                bad += 1
            print(f"{'OK  ' if ok else 'DIFF'} {b.name}: {f.text}" + ("" if ok else f" (rerun gives {shown})"),
                  file=stream)
        for t in b.contains:
            ok = t in out
            bad += not ok
            print(f"{'OK  ' if ok else 'DIFF'} {b.name}: contains {t!r}", file=stream)
        print(f"     {b.name}: " + (f"{secs:.1f} s" if secs else "(an earlier block's run)"), file=stream, flush=True)
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="docs_check", description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="*", metavar="FILE", help="the Markdown files to read (default: README.md and "
                    "every docs/**/*.md)")
    ap.add_argument("--list", action="store_true", help="list the blocks, their commands and figures; run nothing")
    ap.add_argument("--only", metavar="PATTERN", help="only the blocks whose name contains PATTERN (or one of "
                    "several, comma-separated)")
    ap.add_argument("--skip", metavar="PATTERN", help="leave out the blocks whose name contains PATTERN (or ...)")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds a command may take")
    a = ap.parse_args(argv)
    try:
        blocks = collect([Path(f) for f in a.files] if a.files else doc_files())
    except (OSError, ValueError) as e:
        print(f"docs_check: {e}", file=sys.stderr)
        return 2
    if a.only:
        blocks = [b for b in blocks if any(p in b.name for p in a.only.split(","))]
    if a.skip:
        blocks = [b for b in blocks if not any(p in b.name for p in a.skip.split(","))]
    if a.list:
        for b in blocks:
            what = f"measured on {b.measured}" if b.measured is not None else \
                " && ".join(b.commands + (["(its Python example)"] if b.run_python else []))
            print(f"{b.name} ({b.source} line {b.line}): {what}")
            for f in b.figures:
                print(f"    {f.text} = {f.expr}" + (f" ~ {f.tol:g}" if f.tol else ""))
        return 0
    t0 = time.perf_counter()
    bad = check(blocks, a.timeout)
    n = sum(len(b.figures) + len(b.contains) for b in blocks if b.measured is None)
    skipped = sum(b.measured is not None for b in blocks)
    print(f"docs-check: {len(blocks)} blocks, {n} figures, {bad} differ, {skipped} measured blocks skipped "
          f"({time.perf_counter() - t0:.0f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
