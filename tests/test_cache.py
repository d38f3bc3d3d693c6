"""Where compiled kernels are cached: a folder per version of the kernel sources, writable, never stale."""

import os
import subprocess
import sys
from pathlib import Path

from bower import kernels


def test_cache_folder_is_named_after_the_sources():
    folder = kernels.cache_dir()
    if os.environ.get("NUMBA_CACHE_DIR"):
        assert folder == os.environ["NUMBA_CACHE_DIR"]
        return
    assert Path(folder).name == f"numba-{kernels._source_tag()}"
    assert os.access(folder, os.W_OK)


def test_any_edit_to_a_kernel_source_changes_the_tag(tmp_path, monkeypatch):
    files = []
    for name in ("a.py", "b.py"):
        p = tmp_path / name
        p.write_text("x = 1\n")
        files.append(p)
    monkeypatch.setattr(kernels, "_SOURCES", files)
    before = kernels._source_tag()
    files[1].write_text("x = 2\n")  # a callee in another file changes: the cache must not be reused
    assert kernels._source_tag() != before


def test_unwritable_package_folder_falls_back_to_the_user_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    real = kernels._writable
    monkeypatch.setattr(kernels, "_writable", lambda folder: "xdg" in str(folder) and real(folder))
    old = kernels.numba.config.CACHE_DIR
    try:
        (tmp_path / "xdg" / "bower" / "numba-0000").mkdir(parents=True)  # an older version's folder
        kernels._choose_cache_dir()
        chosen = Path(kernels.cache_dir())
        assert chosen.parent == tmp_path / "xdg" / "bower"
        assert chosen.name == f"numba-{kernels._source_tag()}"
        assert not (tmp_path / "xdg" / "bower" / "numba-0000").exists()  # old versions are removed
    finally:
        kernels.numba.config.CACHE_DIR = old


def test_second_process_loads_from_the_cache():
    code = "from sim import runner; s = runner.simulate(hands=500, threads=1); print(s['compiled'])"
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "False"
