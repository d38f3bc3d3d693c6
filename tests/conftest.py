"""Running the suite on several workers (``pytest -n 2``, pytest-xdist), as ``make test`` does.

Compiling the kernels is half the suite's time on a clean machine, so the
tests are grouped by the variant whose kernels they compile, and each group
runs on one worker (``--dist loadgroup``): every variant's kernels are
compiled once, by one process. Each worker keeps its own Numba cache folder
(inside the package's versioned one, named after the worker), so no two
processes ever write one cache file. Run without ``-n`` the suite is unchanged.
"""

from __future__ import annotations

import os

import pytest

# Idle OpenMP threads (Numba's threading layer) sleep instead of spinning, so two workers' kernels do not
# burn each other's cores between parallel regions. Read when the OpenMP runtime loads, at the first kernel.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if _WORKER and not os.environ.get("NUMBA_CACHE_DIR"):
    import kernels

    folder = os.path.join(kernels.cache_dir(), f"xdist-{_WORKER}")  # inside the versioned folder: cleaned with it
    os.makedirs(folder, exist_ok=True)
    os.environ["NUMBA_CACHE_DIR"] = folder  # seen by the subprocesses the tests start
    kernels.numba.config.CACHE_DIR = folder  # before any kernel module is imported

_GROUPS = ("euchre", "cutthroat", "hasenpfeffer")


def _group(item) -> str:
    """The variant whose kernels a test compiles: from its file name, or for the golden files its case name."""
    name = item.path.name
    if name == "test_golden.py":
        name = item.name
    for g in _GROUPS:
        if g in name:
            return g
    return "ghost"


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist's own hook reads the marks
def pytest_collection_modifyitems(config, items):
    """Mark every test with its variant's group (``xdist_group``, read only under ``--dist loadgroup``)."""
    for item in items:
        item.add_marker(pytest.mark.xdist_group(_group(item)))
