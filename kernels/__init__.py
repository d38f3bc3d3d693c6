"""Numba kernels: deal, auction, play and score on bit-mask hands. Compute only; no I/O.

Importing the package points Numba's cache at its folder (``cache.py``: a
kernel's cached code stays valid until its file or a file it imports
changes).
"""

from pathlib import Path

import numba

from bower.kernels.cache import choose_folder

_HERE = Path(__file__).resolve().parent


def cache_dir() -> str | None:
    """The folder Numba caches compiled kernels in (None when no folder is writable)."""
    return numba.config.CACHE_DIR or None


choose_folder(_HERE)
