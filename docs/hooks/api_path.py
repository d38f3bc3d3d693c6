"""MkDocs hook (mkdocs.yml ``hooks:``): let mkdocstrings find the ``bower`` package, for the Python API page.

The package is installed from folders that are not named after it (``api/`` is ``bower``, ``sim/`` is
``bower.sim``...: ``[tool.setuptools.package-dir]`` in pyproject.toml), which griffe, mkdocstrings' loader, does not
follow; and run as ``mkdocs build``, the venv's ``bin/`` comes first on ``sys.path``, where the ``bower`` console
script passes for the package. So the hook lays the package out under its own names in a temporary folder (links to
the files, nothing copied) and puts that folder first on the python handler's search paths (its ``_paths``: the
handler has no public way to add one after its configuration is read), the script's folder left out.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _lay_out() -> Path:
    """A temporary folder holding ``bower/``, the installed package's layout, made of links into the checkout."""
    dirs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-dir"]
    top = Path(tempfile.mkdtemp(prefix="bower-mkdocs-"))
    atexit.register(shutil.rmtree, top, ignore_errors=True)
    pkg = top / "bower"
    pkg.mkdir()
    for f in (ROOT / dirs["bower"]).iterdir():
        if f.suffix == ".py":
            (pkg / f.name).symlink_to(f)
    for name, folder in dirs.items():
        if name != "bower":
            (top / name.replace(".", "/")).symlink_to(ROOT / folder, target_is_directory=True)
    return top


TOP = _lay_out()


def on_pre_build(config):
    """mkdocstrings' python handler searches ``TOP`` first, and never the console script's folder."""
    handler = config["plugins"]["mkdocstrings"].handlers.get_handler("python")
    handler._paths[:] = [str(TOP)] + [p for p in handler._paths if p != str(TOP) and not (Path(p) / "bower").is_file()]

