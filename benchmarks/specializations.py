"""The kernels a Numba cache holds compiled more than once, and what in their arguments made each extra copy.

Usage: ``python benchmarks/specializations.py [FOLDER] [--since S] [--json]``

Numba compiles a kernel once per argument types. A caller that passes an
argument of another type than the engine's own callers (an array where they
pass a tuple, a column slice, a read-only array, a default argument left out
where they pass None) compiles the whole kernel again, callees included:
seconds of CPU each for the chunk and hand kernels. This reads the cache's
index files (``*.nbi``) and prints, for every kernel with several compiled
signatures, the first one compiled (by its data file's time) and, for each
later one, the arguments that differ from it and the size of its machine
code. ``--since S`` lists only the signatures written ``S`` seconds or more
after the folder's first (the ones a test run added after ``tests/warm.py``,
say). What to look for: ``omitted(...)`` against ``none`` (a caller left out
an argument the engine passes as None), ``array(..., A)`` or ``readonly``
against a C-contiguous array, an array against a ``UniTuple``: the same code
compiled again for a caller's habit, which that caller can drop. A different
``none`` / array in a ``search`` or ``eq`` argument is a different path (the
search or the equity bidder compiled in), as meant.

FOLDER defaults to the suite's cache (``kernels/__pycache__/numba/xdist``
of this checkout). Used for benchmarks/RESULTS.md's entries on the suite's
compiling (issue 32).
"""

from __future__ import annotations

import argparse
import json
import pickle
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# what a caller's habit changes in an argument's type, the code being the same: (pattern, its engine form)
HABITS = ((re.compile(r"^omitted\(default=None\)$"), "none"), (re.compile(r"^readonly "), ""),
          (re.compile(r", A\)$"), ", C)"), (re.compile(r"^UniTuple\((\w+) x \d+\)$"), r"array(\1, 1d, C)"))


def read_index(path: Path) -> dict:
    """The overloads of one Numba index file: ``{signature (tuple of types): data file name}``."""
    with open(path, "rb") as f:
        pickle.load(f)  # Numba's version
        _, overloads = pickle.loads(f.read())
    return {key[0]: name for key, name in overloads.items()}


def differences(first: tuple, other: tuple) -> list[tuple[int | str, str, str]]:
    """``(argument index, type in first, type in other)`` for every argument whose type differs (``"count"`` when
    the numbers of arguments differ)."""
    out = [(i, str(a), str(b)) for i, (a, b) in enumerate(zip(first, other)) if a != b]
    if len(first) != len(other):
        out.append(("count", str(len(first)), str(len(other))))
    return out


def _engine_form(text: str) -> str:
    """An argument's type with what a caller's habit changes (``HABITS``) put back."""
    for pattern, repl in HABITS:
        text = pattern.sub(repl, text)
    return text


def habit(diff: list) -> bool:
    """Whether a signature's differences are all a caller's habit (``HABITS``: the same type once put back in the
    engine's form), not another code path."""
    return bool(diff) and all(i != "count" and _engine_form(a) == _engine_form(b) for i, a, b in diff)


def scan(folder: Path, since: float = 0.0) -> list[dict]:
    """Every kernel of ``folder`` (a Numba cache: one sub-folder per source folder) with more than one signature:
    ``{"kernel", "folder", "first": {"t", "bytes", "signature"}, "others": [{"t", "bytes", "diff", "habit"}]}``,
    times in seconds after the folder's first data file; ``since``: only later signatures written at or after."""
    indexes = sorted(folder.glob("*/*.nbi"))
    data = [p for p in folder.glob("*/*.nbc")]
    if not data:
        return []
    t0 = min(p.stat().st_mtime for p in data)
    found = []
    for index in indexes:
        try:
            overloads = read_index(index)
        except (OSError, EOFError, pickle.UnpicklingError, ValueError):
            continue
        if len(overloads) < 2:
            continue
        entries = []
        for sig, name in overloads.items():
            nbc = index.parent / name
            if nbc.exists():
                st = nbc.stat()
                entries.append((st.st_mtime - t0, st.st_size, sig))
        entries.sort(key=lambda e: e[0])
        if len(entries) < 2:
            continue
        first = entries[0]
        others = []
        for t, size, sig in entries[1:]:
            if t < since:
                continue
            diff = differences(first[2], sig)
            others.append({"t": round(t, 1), "bytes": size, "diff": diff, "habit": habit(diff)})
        if others:
            found.append({"kernel": index.name.split("-")[0], "folder": index.parent.name.rsplit("_", 1)[0],
                          "first": {"t": round(first[0], 1), "bytes": first[1],
                                    "signature": [str(a) for a in first[2]]},
                          "others": others})
    return found


def text(found: list[dict]) -> str:
    """The report ``main`` prints: a kernel a paragraph, habits marked ``!``."""
    lines = []
    for k in found:
        lines.append(f"{k['folder']}.{k['kernel']}: first at {k['first']['t']:.0f} s, {k['first']['bytes']:,} bytes")
        for o in k["others"]:
            what = "; ".join(f"#{i}: {a} -> {b}" for i, a, b in o["diff"]) or "the same types (another CPU or flags)"
            lines.append(f"  {'!' if o['habit'] else ' '} at {o['t']:.0f} s, {o['bytes']:,} bytes: {what}")
    n = sum(o["habit"] for k in found for o in k["others"])
    lines.append(f"{len(found)} kernels compiled more than once; {n} extra signatures look like a caller's habit (!)")
    return "\n".join(lines)


def main(argv=None) -> int:
    """Print the report for a cache folder (``--json``: the ``scan`` list)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", nargs="?", default=str(ROOT / "kernels" / "__pycache__" / "numba" / "xdist"))
    ap.add_argument("--since", type=float, default=0.0, help="only signatures written this many seconds or more "
                    "after the folder's first data file")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    folder = Path(a.folder)
    if not folder.is_dir():
        print(f"specializations.py: no cache folder {folder}", file=sys.stderr)
        return 2
    found = scan(folder, a.since)
    print(json.dumps(found, indent=1) if a.json else text(found))
    return 0


if __name__ == "__main__":
    sys.exit(main())
