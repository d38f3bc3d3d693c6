"""Running the suite on several workers (``pytest -n 2``, pytest-xdist), as ``make test`` does.

The workers share one Numba cache folder (``xdist`` inside the package's
one): a kernel one worker compiled, the other loads. Two processes may
compile one kernel at the same moment; the cache names each data file after
its signature (``kernels/cache.py``, ``KeyedCacheFile``), so they never
write each other's code. (Grouping the tests by variant so that each
variant compiles once was tried: the Ghost Hand group alone then outlasted
the other three, 12 min against 8.5 with the default distribution.)
``make test`` first runs ``tests/warm.py``, which compiles the engine's
kernels, search included, in two processes at a time into that folder, so
the workers load them instead of compiling them. Run without ``-n`` the
suite is unchanged.
"""

from __future__ import annotations

import os
import subprocess

import pytest

# Idle OpenMP threads (Numba's threading layer) sleep instead of spinning, so two workers' kernels do not
# burn each other's cores between parallel regions. Read when the OpenMP runtime loads, at the first kernel.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

from tests.warm import WORKERS_FOLDER  # noqa: E402  (tests/warm.py fills it)

_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
if _WORKER and not os.environ.get("NUMBA_CACHE_DIR"):
    from bower import kernels

    folder = os.path.join(kernels.cache_dir(), WORKERS_FOLDER)
    os.makedirs(folder, exist_ok=True)
    os.environ["NUMBA_CACHE_DIR"] = folder  # seen by the subprocesses the tests start
    kernels.numba.config.CACHE_DIR = folder  # before any kernel module is imported


@pytest.fixture
def small_disk(tmp_path):
    """A 512 KiB tmpfs at tmp_path/disk (root only: skipped otherwise), unmounted afterwards."""
    if os.getuid() != 0:
        pytest.skip("mounting a small tmpfs needs root (id -u is not 0)")
    disk = tmp_path / "disk"
    disk.mkdir()
    proc = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=512k", "tmpfs", str(disk)], capture_output=True,
                          text=True, check=False)
    if proc.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {proc.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=True)
