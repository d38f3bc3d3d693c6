"""Numba's on-disk cache of the kernels, kept valid by each kernel's file dependencies.

Numba stamps a cached kernel with its own file only, so an edit to a kernel
it calls in another file (or to a table it reads from one) would load stale
machine code. Here a kernel's stamp is a hash of its file and of every
module of its package that file imports, directly or not (``dependencies``):
an edit recompiles exactly the kernels whose files reach the edited one, and
the other cache files stay valid. An edit to ``kernels/cutthroat/hand.py``
leaves Ghost Hand's, Euchre's and Hasenpfeffer's kernels cached; an edit to
``kernels/tables.py``, which every variant imports, recompiles them all.

The cache folder is ``kernels/__pycache__/numba`` when the installed package
is writable, else ``~/.cache/bower/numba`` (``$XDG_CACHE_HOME/bower/numba``);
``NUMBA_CACHE_DIR``, if set, is used as it is. Folders of the older scheme
(``numba-<hash of every kernel file>``) are removed.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import shutil
import sys
from pathlib import Path

from numba.core import config
from numba.core.caching import CompileResultCacheImpl, FunctionCache, IndexDataCacheFile, UserProvidedCacheLocator

FOLDER = "numba"


def _writable(folder: Path) -> bool:
    """Whether ``folder`` exists (made if need be) and a file can be written in it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / ".probe"
        probe.write_bytes(b"")
        probe.unlink()
        return True
    except OSError:
        return False


def choose_folder(package_dir: Path) -> str | None:
    """Point Numba's cache at the package's folder or the user's (see the module's docstring); return it."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return config.CACHE_DIR or None
    user = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "bower"
    for base in (package_dir / "__pycache__", user):
        folder = base / FOLDER
        if _writable(folder):
            for old in base.glob("numba-*"):  # the older scheme's folders, one per version of every kernel file
                shutil.rmtree(old, ignore_errors=True)
            config.CACHE_DIR = str(folder)
            return str(folder)
    return None


def _module_file(name: str) -> str | None:
    """The source file of module ``name`` (imported or not), or None when it is not a module with a .py file."""
    mod = sys.modules.get(name)
    if mod is not None:
        path = getattr(mod, "__file__", None)
        return path if path and path.endswith(".py") else None
    parent, _, last = name.rpartition(".")
    if not parent:
        return None
    pmod = sys.modules.get(parent)
    folders = list(getattr(pmod, "__path__", None) or [])
    if pmod is None:
        pfile = _module_file(parent)
        if pfile is None or os.path.basename(pfile) != "__init__.py":
            return None
        folders = [os.path.dirname(pfile)]
    for folder in folders:
        for candidate in (os.path.join(folder, last + ".py"), os.path.join(folder, last, "__init__.py")):
            if os.path.isfile(candidate):
                return candidate
    return None


_FROM = re.compile(r"^[ \t]*from[ \t]+(\.*[\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)", re.M)
_IMPORT = re.compile(r"^[ \t]*import[ \t]+([^\n]*)", re.M)


def _names(text: str) -> list[str]:
    """The imported names of an import list (``a, b as c  # note`` or a parenthesised one): ``[a, b]``."""
    text = re.sub(r"#[^\n]*", "", text).strip("()")
    return [part.split()[0] for part in text.split(",") if part.split()]


@functools.lru_cache(maxsize=None)
def _parse_imports(path: str, module: str, mtime: float, size: int) -> tuple[str, ...]:
    """Every module name the file's import statements name (at any depth of its code), made absolute;
    ``mtime`` and ``size`` key the memo, so a file edited while the process runs is read again.

    A scan of the lines, not a parse (twenty times faster): a line of a docstring that reads as an import
    adds at most a module more, never one less."""
    source = Path(path).read_text(encoding="utf-8")
    package = module if os.path.basename(path) == "__init__.py" else module.rpartition(".")[0]
    names = []
    for match in _IMPORT.finditer(source):
        names.extend(_names(match.group(1)))
    for match in _FROM.finditer(source):
        base = match.group(1)
        level = len(base) - len(base.lstrip("."))
        if level:
            parts = package.split(".")
            head = ".".join(parts[:len(parts) - level + 1])
            base = f"{head}.{base[level:]}" if base[level:] else head
        names.append(base)
        names.extend(f"{base}.{name}" for name in _names(match.group(2)))  # kept where it names a module
    return tuple(names)


def imports(module: str) -> list[str]:
    """The modules of ``module``'s own top-level package that its file imports, directly (with their files)."""
    path = _module_file(module)
    if path is None:
        return []
    st = os.stat(path)
    top = module.split(".")[0]
    found = []
    for name in _parse_imports(path, module, st.st_mtime, st.st_size):
        if (name == top or name.startswith(top + ".")) and name not in found and _module_file(name) is not None:
            found.append(name)
    return found


@functools.lru_cache(maxsize=None)
def dependencies(module: str) -> dict[str, str]:
    """``module`` and every module of its package it imports, directly or not: name -> source file (found once
    per process; the files' contents are hashed anew whenever they change)."""
    seen = {module: _module_file(module)}
    todo = [module]
    while todo:
        for name in imports(todo.pop()):
            if name not in seen:
                seen[name] = _module_file(name)
                todo.append(name)
    return {name: path for name, path in seen.items() if path is not None}


@functools.lru_cache(maxsize=None)
def _file_digest(path: str, mtime: float, size: int) -> bytes:
    """SHA-256 of a file's bytes (memoised on its path, modification time and size)."""
    return hashlib.sha256(Path(path).read_bytes()).digest()


def source_stamp(module: str) -> str:
    """A hash of the source of ``module`` and of everything it imports from its package: a kernel's cache stamp."""
    h = hashlib.sha256()
    for name, path in sorted(dependencies(module).items()):
        st = os.stat(path)
        h.update(name.encode() + b"\0" + _file_digest(path, st.st_mtime, st.st_size))
    return h.hexdigest()


@functools.lru_cache(maxsize=None)
def import_stamp(module: str) -> str:
    """``source_stamp(module)`` taken once per process, when the module's first kernel is made (as it is imported):
    the stamp of the files the process runs, even if one is edited while it runs."""
    return source_stamp(module)


class DependencyLocator(UserProvidedCacheLocator):
    """Numba's locator for ``config.CACHE_DIR``, stamped with the kernel's file and its dependencies."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        self._module = py_func.__module__

    def get_source_stamp(self):
        """The hash of the kernel's module and of every module of its package it imports (``import_stamp``)."""
        return import_stamp(self._module)


class _KernelCacheImpl(CompileResultCacheImpl):
    _locator_classes = [DependencyLocator]


class KeyedCacheFile(IndexDataCacheFile):
    """Numba's index and data files, each data file named after a hash of its key (signature, CPU, bytecode).

    Numba names a new data file by the first number its index does not use.
    Two processes that compile one kernel for two signatures at once (two
    ``bower warm`` groups, two test workers) then both read the same index,
    take the same number and write each other's file, and the index of one
    names the machine code of the other signature. Here the name follows the
    key, so two processes only ever write one file for one key (each write
    atomic: the same code either way). The index is read, added to and
    written under an exclusive lock (``index_lock``), so two processes adding
    entries at once each add to what the other wrote: without it, the index
    the last of them wrote lacked the other's entry, and that kernel compiled
    again in a later process.
    """

    def save(self, key, data):
        """Write ``data`` for ``key`` in its own file, and the key into the index if it is not there."""
        name = self._data_name_pattern.replace("{number:d}", hashlib.sha256(repr(key).encode()).hexdigest()[:16])
        self._save_data(name, data)  # the file first: an index never names a file not yet written
        with self.index_lock():
            overloads = self._load_index()
            if overloads.get(key) != name:
                overloads[key] = name
                self._save_index(overloads)

    @contextlib.contextmanager
    def index_lock(self):
        """Hold an exclusive ``fcntl.flock`` on a ``.lock`` file beside the index while the block runs (released
        when the file is closed, so also when a process dies). Where there is no ``fcntl`` (Windows) or the lock
        file cannot be made, no lock, as in Numba's own cache."""
        try:
            import fcntl

            fd = os.open(self._index_path + ".lock", os.O_CREAT | os.O_RDWR, 0o644)
        except (ImportError, OSError):
            fd = None
        try:
            if fd is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            if fd is not None:
                os.close(fd)


class KernelCache(FunctionCache):
    """Numba's per-function cache stamped with the kernel's file and its dependencies: never loads code built
    from older files, and safe to fill from several processes at once (``KeyedCacheFile``)."""

    _impl_class = _KernelCacheImpl

    def __init__(self, py_func):
        super().__init__(py_func)
        self._cache_file = KeyedCacheFile(cache_path=self._cache_path, filename_base=self._impl.filename_base,
                                          source_stamp=self._impl.locator.get_source_stamp())
