"""Run the example notebooks of ``examples/`` and compare what each cell prints with what the notebook shows.

Part of ``make docs-check``, not of the test run (the notebooks play
hundreds of thousands of hands); ``tests/test_notebooks.py`` checks this
runner on a tiny notebook. The cells run in order in one namespace, in this
process and in a scratch folder (no Jupyter kernel needed): a cell's output
is what it prints and, as in Jupyter, the value of its last line when that
is an expression (its ``repr``; a DataFrame's HTML table is stored too, for
viewers). A notebook whose seeds give other output than it shows fails, as
a figure of the docs would.

Usage: ``python -m tests.notebooks [--write] [NOTEBOOK ...]`` (default:
every ``examples/*.ipynb``); ``--write`` stores the outputs in the notebook
instead of comparing (after changing a cell). Exit status 1 when a notebook
differs or a cell fails.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _lines(text: str) -> list[str]:
    """A notebook's multi-line string: the lines, each keeping its newline."""
    return text.splitlines(keepends=True)


def run_cell(source: str, ns: dict) -> tuple[str, object, bool]:
    """Run one cell's code in ``ns``: (what it printed, the value of its last expression or None, whether there was
    one)."""
    tree = ast.parse(source, mode="exec")
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(tree, "<cell>", "exec"), ns)  # noqa: S102 - the notebook's own cells
        value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), ns) if last else None  # noqa: S307
    return buf.getvalue(), value, last is not None and value is not None


def outputs_of(printed: str, value: object, shown: bool, count: int) -> list[dict]:
    """A cell's outputs in the notebook format (nbformat 4): its printed text, then its value."""
    out = []
    if printed:
        out.append({"output_type": "stream", "name": "stdout", "text": _lines(printed)})
    if shown:
        data = {"text/plain": _lines(repr(value))}
        html = getattr(value, "_repr_html_", None)
        if callable(html):
            data["text/html"] = _lines(html())
        out.append({"output_type": "execute_result", "execution_count": count, "data": data, "metadata": {}})
    return out


def _plain(outputs: list[dict]) -> list[str]:
    """What a cell's outputs say, as text (printed text and ``text/plain``), for comparing."""
    res = []
    for o in outputs:
        if o.get("output_type") == "stream":
            res.append("".join(o.get("text", [])))
        elif "data" in o:
            res.append("".join(o["data"].get("text/plain", [])))
    return res


def run_notebook(path: Path, write: bool = False, stream=None) -> int:
    """Run every code cell of the notebook at ``path``; compare the outputs (or store them, ``write``). The
    number of cells that differ or fail."""
    stream = sys.stdout if stream is None else stream
    nb = json.loads(path.read_text(encoding="utf-8"))
    ns: dict = {"__name__": "__main__"}
    bad = 0
    count = 0
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory(prefix="bower-notebook-") as scratch:
        os.chdir(scratch)
        try:
            for i, cell in enumerate(nb["cells"]):
                if cell["cell_type"] != "code":
                    continue
                count += 1
                t0 = time.perf_counter()
                try:
                    printed, value, shown = run_cell("".join(cell["source"]), ns)
                except Exception:  # noqa: BLE001 - a failing cell is reported and counted
                    print(f"FAIL {path.name} cell {i}:\n{traceback.format_exc(limit=4)}", file=stream)
                    bad += 1
                    break
                got = outputs_of(printed, value, shown, count)
                secs = time.perf_counter() - t0
                if write:
                    cell["outputs"], cell["execution_count"] = got, count
                    print(f"WROTE {path.name} cell {i} ({secs:.1f} s)", file=stream)
                elif _plain(got) != _plain(cell.get("outputs", [])):
                    bad += 1
                    print(f"DIFF {path.name} cell {i} ({secs:.1f} s): shows {_plain(cell.get('outputs', []))!r}, "
                          f"runs to {_plain(got)!r}", file=stream)
                else:
                    print(f"OK   {path.name} cell {i} ({secs:.1f} s)", file=stream)
        finally:
            os.chdir(cwd)
    if write and not bad:
        path.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="notebooks", description=__doc__.split("\n")[0])
    ap.add_argument("notebooks", nargs="*", metavar="NOTEBOOK", help="default: every examples/*.ipynb")
    ap.add_argument("--write", action="store_true", help="store the outputs in the notebook instead of comparing")
    a = ap.parse_args(argv)
    paths = [Path(p).resolve() for p in a.notebooks] or sorted((ROOT / "examples").glob("*.ipynb"))
    os.environ.setdefault("BOWER_QUIET", "1")  # the compile notice goes to stderr, never into a cell
    bad = sum(run_notebook(p, a.write) for p in paths)
    print(f"notebooks: {len(paths)} run, {bad} cells differ or fail")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
