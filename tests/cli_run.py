"""Running the ``bower`` command line inside a test: the helpers every CLI test uses."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sim.cli import main


def run(capsys, *args):
    """Run ``bower ARGS`` in-process: (exit status, stdout, stderr)."""
    with pytest.raises(SystemExit) as e:
        main(list(args))
    out, err = capsys.readouterr()
    return e.value.code, out, err


def one_error(capsys, *args) -> str:
    """Run a command that must fail: status 2, nothing on stdout, one ``bower: error:`` line; the line."""
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, ""), err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bower: error: "), err
    return lines[0]


def listing(folder: Path) -> list[str]:
    """Every name in ``folder``, hidden ones (``.bower-*``) included."""
    return sorted(os.listdir(folder))
