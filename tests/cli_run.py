"""Running the ``bower`` command line inside a test: the helpers every CLI test uses."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bower.sim.cli import main


COMPILE_NOTICE = "bower: compiling kernels"


def run_raw(capsys, *args):
    """Run ``bower ARGS`` in-process: (exit status, stdout, stderr as printed)."""
    with pytest.raises(SystemExit) as e:
        main(list(args))
    out, err = capsys.readouterr()
    return e.value.code, out, err


def run(capsys, *args):
    """``run_raw`` with the compile notice left out of stderr.

    The notice appears only when the worker's kernel cache is cold, so a test's
    view of stderr leaves it out (``tests/test_cli_conventions.py`` tests it with ``run_raw``).
    """
    code, out, err = run_raw(capsys, *args)
    err = "".join(line for line in err.splitlines(keepends=True) if not line.startswith(COMPILE_NOTICE))
    return code, out, err


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
