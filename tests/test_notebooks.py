"""``tests/notebooks.py`` (``make docs-check``'s notebook runner) on a tiny notebook, and the committed notebooks'
form: every code cell has the outputs it was run to."""

from __future__ import annotations

import io
import json
from pathlib import Path

from tests import notebooks

ROOT = Path(__file__).resolve().parent.parent


def _notebook(path: Path, sources: list[str]) -> None:
    cells = [{"cell_type": "code", "id": f"c{i}", "metadata": {}, "execution_count": None, "outputs": [],
              "source": notebooks._lines(s)} for i, s in enumerate(sources)]
    path.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))


def test_write_then_check_agrees_and_a_change_is_caught(tmp_path):
    nb = tmp_path / "t.ipynb"
    _notebook(nb, ["x = 6 * 7\nprint('hello')\nx", "y = x + 1", "y"])
    assert notebooks.run_notebook(nb, write=True, stream=io.StringIO()) == 0
    cells = json.loads(nb.read_text())["cells"]
    assert notebooks._plain(cells[0]["outputs"]) == ["hello\n", "42"]
    assert cells[1]["outputs"] == []  # an assignment shows nothing, as in Jupyter
    assert notebooks._plain(cells[2]["outputs"]) == ["43"]
    assert notebooks.run_notebook(nb, stream=io.StringIO()) == 0
    cells[1]["source"] = ["y = x + 2"]
    nb.write_text(json.dumps({**json.loads(nb.read_text()), "cells": cells}))
    out = io.StringIO()
    assert notebooks.run_notebook(nb, stream=out) == 1
    assert "DIFF t.ipynb cell 2" in out.getvalue() and "'44'" in out.getvalue()


def test_a_failing_cell_is_counted_and_named(tmp_path):
    nb = tmp_path / "t.ipynb"
    _notebook(nb, ["1 / 0"])
    out = io.StringIO()
    assert notebooks.run_notebook(nb, stream=out) == 1
    assert "FAIL t.ipynb cell 0" in out.getvalue() and "ZeroDivisionError" in out.getvalue()


def test_the_example_notebooks_hold_their_outputs():
    paths = sorted((ROOT / "examples").glob("*.ipynb"))
    assert paths
    for p in paths:
        nb = json.loads(p.read_text(encoding="utf-8"))
        code = [c for c in nb["cells"] if c["cell_type"] == "code"]
        assert code and all(c["outputs"] for c in code), p.name
        assert [c["execution_count"] for c in code] == list(range(1, len(code) + 1)), p.name
