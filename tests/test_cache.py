"""Where compiled kernels are cached, and when cached code is reused: until its file or a file it imports changes."""

import importlib
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bower import kernels
from bower.kernels import cache

KERNELS = Path(kernels.__file__).resolve().parent
VARIANTS = ("ghost", "euchre", "cutthroat", "hasenpfeffer")


def test_cache_folder_is_the_same_across_edits_and_writable():
    folder = kernels.cache_dir()
    if os.environ.get("NUMBA_CACHE_DIR"):
        assert folder == os.environ["NUMBA_CACHE_DIR"]
        return
    assert Path(folder).name == "numba"
    assert os.access(folder, os.W_OK)


def test_unwritable_package_folder_falls_back_to_the_user_cache(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    real = cache._writable
    monkeypatch.setattr(cache, "_writable", lambda folder: "xdg" in str(folder) and real(folder))
    old = kernels.numba.config.CACHE_DIR
    try:
        (tmp_path / "xdg" / "bower" / "numba-0123abcd").mkdir(parents=True)  # the older scheme's folder
        chosen = Path(cache.choose_folder(tmp_path / "pkg"))
        assert chosen == tmp_path / "xdg" / "bower" / "numba"
        assert kernels.numba.config.CACHE_DIR == str(chosen)
        assert not (tmp_path / "xdg" / "bower" / "numba-0123abcd").exists()  # removed
    finally:
        kernels.numba.config.CACHE_DIR = old


def _kernel_modules():
    for path in sorted(KERNELS.rglob("*.py")):
        rel = path.relative_to(KERNELS).with_suffix("")
        parts = [p for p in rel.parts if p != "__init__"]
        yield ".".join(["bower.kernels", *parts]), path


def test_every_import_of_the_package_in_a_kernel_file_is_found():
    """A dependency the scan missed would let a kernel load code built from an older file."""
    for module, path in _kernel_modules():
        found = set(cache.dependencies(module))
        for line in re.findall(r"^\s*from (bower[\w.]*) import", path.read_text(), re.M):
            assert line in found, (module, line)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_variants_kernels_depend_on_no_other_variants_files(variant):
    """So an edit to one variant's kernels leaves the other variants' cache files valid."""
    others = [v for v in VARIANTS if v != variant]
    for module, path in _kernel_modules():
        if not module.startswith(f"bower.kernels.{variant}."):
            continue
        deps = cache.dependencies(module)
        assert module in deps
        if "@kernel" in path.read_text():
            assert "bower.kernels.jit" in deps
        for name in deps:
            # Ghost Hand's codes (the auction and rule codes every variant shares) are the one exception
            assert not any(name.startswith(f"bower.kernels.{o}.") for o in others) or name == "bower.kernels.ghost.codes"


def test_the_stamp_follows_a_file_imported_indirectly(tmp_path, monkeypatch):
    pkg = tmp_path / "stamppkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text("X = 1\n")
    (pkg / "mid.py").write_text("from stamppkg.low import X\n")
    (pkg / "top.py").write_text("from .mid import X  # relative\n")
    (pkg / "side.py").write_text("Y = 2\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.import_module("stamppkg.top")  # a kernel's module is imported when its stamp is asked for
    importlib.import_module("stamppkg.side")
    assert set(cache.dependencies("stamppkg.top")) == {"stamppkg.top", "stamppkg.mid", "stamppkg.low"}
    before = cache.source_stamp("stamppkg.top")
    (pkg / "low.py").write_text("X = 22\n")
    assert cache.source_stamp("stamppkg.top") != before
    side = cache.source_stamp("stamppkg.side")
    (pkg / "mid.py").write_text("from stamppkg.low import X\nZ = 3\n")
    assert cache.source_stamp("stamppkg.side") == side


_CORE = "from bower.kernels.jit import kernel\n\n@kernel\ndef base(x):\n    return x + {value}\n"
_USES_CORE = ("from bower.kernels.jit import kernel\nfrom kpkg.core import base\n\n"
              "@kernel\ndef {name}(x):\n    return base(x) * {factor}\n")
_RUN = textwrap.dedent("""
    import json
    from kpkg.a import fa
    from kpkg.b import fb
    values = [fa(1), fb(1)]
    print(json.dumps({"values": values, "hits": [sum(f.stats.cache_hits.values()) for f in (fa, fb)]}))
""")


def _run(tmp_path):
    # no bytecode written for the test's modules: an edit of the same size within the same second as the last
    # import would otherwise load the old module from its .pyc (Python checks the source's size and mtime in seconds)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(tmp_path),
               PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run([sys.executable, "-c", _RUN], env=env, check=True, capture_output=True, text=True).stdout
    import json

    return json.loads(out.strip().splitlines()[-1])


def _cache_files(tmp_path, module):
    return {p: p.read_bytes() for p in (tmp_path / "cache").rglob(f"{module}.f{module}-*")}


def test_an_edit_is_seen_at_once_and_leaves_other_kernels_cached(tmp_path):
    """A callee edited in another file is compiled anew in its callers (never stale machine code), and a kernel
    that does not import the edited file is loaded from its cache files, which stay as they were."""
    pkg = tmp_path / "kpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "core.py").write_text(_CORE.format(value=1))
    (pkg / "a.py").write_text(_USES_CORE.format(name="fa", factor=10))
    (pkg / "b.py").write_text(_USES_CORE.format(name="fb", factor=100))
    assert _run(tmp_path) == {"values": [20, 200], "hits": [0, 0]}
    assert _run(tmp_path) == {"values": [20, 200], "hits": [1, 1]}  # both loaded from the cache

    (pkg / "core.py").write_text(_CORE.format(value=2))  # the callee both use, in another file
    assert _run(tmp_path) == {"values": [30, 300], "hits": [0, 0]}

    b_files = _cache_files(tmp_path, "b")
    assert b_files
    (pkg / "a.py").write_text(_USES_CORE.format(name="fa", factor=7))  # one "variant" edited
    assert _run(tmp_path) == {"values": [21, 300], "hits": [0, 1]}  # b loaded from its cache
    assert _cache_files(tmp_path, "b") == b_files  # b's cache files untouched


def test_second_process_loads_from_the_cache():
    code = "from sim import runner; s = runner.simulate(hands=500, threads=1); print(s['compiled'])"
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "False"


def _writer(folder, stamp="s"):
    return cache.KeyedCacheFile(cache_path=str(folder), filename_base="k.f-1.py311", source_stamp=stamp)


@pytest.mark.parametrize("order", ["a-first", "b-first"])
def test_two_processes_saving_two_signatures_at_once_never_swap_code(tmp_path, order):
    """Both writers read the index before either saved (two processes compiling one kernel at once): each data
    file holds its own key's code, whichever order their writes land in, and the index never names another's."""
    a, b = _writer(tmp_path), _writer(tmp_path)
    stale = a._load_index()  # {}: what both read first
    b._load_index = lambda: dict(stale)
    a._load_index = lambda: dict(stale)
    first, second = ((a, ("sig-a",), "code-a"), (b, ("sig-b",), "code-b"))
    if order == "b-first":
        first, second = second, first
    for w, key, data in (first, second):
        w.save(key, data)
    fresh = _writer(tmp_path)
    index = fresh._load_index()
    assert len(index) == 1  # the last writer's index: the other entry is compiled again once, never mistaken
    for key, name in index.items():
        assert fresh.load(key) == {("sig-a",): "code-a", ("sig-b",): "code-b"}[key]
    names = sorted(p.name for p in tmp_path.glob("*.nbc"))
    assert len(names) == 2 and all(n.startswith("k.f-1.py311.") for n in names)
    # the lost entry comes back at its next save, beside the other
    for w, key, data in (first, second):
        _writer(tmp_path).save(key, data)
    fresh = _writer(tmp_path)
    assert fresh.load(("sig-a",)) == "code-a" and fresh.load(("sig-b",)) == "code-b"
    assert sorted(p.name for p in tmp_path.glob("*.nbc")) == names


def test_a_stale_index_is_ignored(tmp_path):
    _writer(tmp_path, "old").save(("sig",), "old code")
    assert _writer(tmp_path, "new").load(("sig",)) is None


def test_kernels_keep_their_code_in_keyed_files():
    from bower.kernels import bits

    disp = next(v for v in vars(bits).values() if hasattr(v, "_cache") and hasattr(v, "py_func"))
    assert isinstance(disp._cache._cache_file, cache.KeyedCacheFile)


def _save_keys(folder: str, first: int, n: int) -> None:
    """Add ``n`` entries (keys ``first`` ..) to one kernel's index in ``folder``, as a compiling process does."""
    f = cache.KeyedCacheFile(cache_path=folder, filename_base="kernel-x.py.1", source_stamp="stamp")
    for k in range(first, first + n):
        f.save(("sig", k), b"code %d" % k)


def test_processes_adding_entries_at_once_keep_every_entry(tmp_path):
    """Four processes each add 40 signatures to one kernel's index at the same time: the index names all 160,
    each with its own file (the index is read and written under a lock; without it entries were lost)."""
    import multiprocessing

    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_save_keys, args=(str(tmp_path), 40 * i, 40)) for i in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    f = cache.KeyedCacheFile(cache_path=str(tmp_path), filename_base="kernel-x.py.1", source_stamp="stamp")
    index = f._load_index()
    assert sorted(index) == [("sig", k) for k in range(160)]
    assert all(f.load(("sig", k)) == b"code %d" % k for k in range(160))
