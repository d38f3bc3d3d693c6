"""Numba kernels: deal, auction, play and score on bit-mask hands. Compute only; no I/O.

Numba's on-disk cache notices when a function's own file changes, but not
when a kernel it calls in another file does, and would then load stale
machine code. So the cache lives in a folder named after a hash of every
file the kernels are built from: any edit gives a fresh folder (and older
ones are removed). The folder is beside the installed package when that is
writable, else in the user's cache directory. ``NUMBA_CACHE_DIR``, if set,
is used as it is.
"""

import hashlib
import os
import shutil
from pathlib import Path

import numba

_HERE = Path(__file__).resolve().parent
_SOURCES = sorted(p for p in _HERE.rglob("*.py") if "__pycache__" not in p.parts)


def _source_tag() -> str:
    h = hashlib.sha256()
    for path in _SOURCES:
        name = path.relative_to(_HERE).as_posix() if path.is_relative_to(_HERE) else path.name
        h.update(name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".probe"
        probe.write_bytes(b"")
        probe.unlink()
        return True
    except OSError:
        return False


def cache_dir() -> str | None:
    """The folder Numba caches compiled kernels in (None when NUMBA_CACHE_DIR decides)."""
    return numba.config.CACHE_DIR or None


def _choose_cache_dir() -> None:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    tag = f"numba-{_source_tag()}"
    user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "bower"
    for base in (_HERE / "__pycache__", user):
        folder = base / tag
        if _writable(folder):
            for old in base.glob("numba-*"):
                if old.name != tag:
                    shutil.rmtree(old, ignore_errors=True)
            numba.config.CACHE_DIR = str(folder)
            return


_choose_cache_dir()
