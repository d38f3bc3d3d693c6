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
# The tests compute their equity tables afresh and keep none in the user's cache folder (tests/test_equity.py's
# cache tests turn it on, in a temporary folder).
os.environ["BOWER_EQUITY_CACHE"] = "0"

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


# ``BOWER_COMPILE_LOG=FILE pytest ...``: one JSON line a test appended to FILE: its CPU seconds in the worker
# (``cpu_s``, every thread) and in the child processes it waited for (``children_s``: the commands and Dask workers
# it started), and its Numba compiling in the worker (``compile_s``, the compiling thread's CPU s inside outermost
# ``numba:compile`` events, ``by`` kernel), to find where the suite's CPU goes and what it compiles beyond
# ``tests/warm.py``. Off unless the variable is set.
_COMPILE_LOG = os.environ.get("BOWER_COMPILE_LOG")
if _COMPILE_LOG:
    import json
    import threading
    import time

    from numba.core import event

    _compiling = {"stacks": {}, "by": {}}

    class _CompileListener(event.Listener):
        """Outermost compile CPU seconds by kernel, in any thread (a chunk kernel compiles in its worker)."""

        def on_start(self, ev):
            fn = getattr(ev.data.get("dispatcher"), "py_func", None)
            name = f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', '?')}"
            _compiling["stacks"].setdefault(threading.get_ident(), []).append((name, time.thread_time()))

        def on_end(self, ev):
            stack = _compiling["stacks"].get(threading.get_ident())
            if stack:
                name, t0 = stack.pop()
                if not stack:
                    by = _compiling["by"]
                    by[name] = by.get(name, 0.0) + time.thread_time() - t0

    event.register("numba:compile", _CompileListener())

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item, nextitem):
        """Write the CPU and the compiling this test's setup, call and teardown did."""
        import resource

        _compiling["by"] = {}
        cpu0, kids0 = time.process_time(), resource.getrusage(resource.RUSAGE_CHILDREN)
        yield
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        by = _compiling["by"]
        line = {"test": item.nodeid, "worker": _WORKER, "cpu_s": round(time.process_time() - cpu0, 3),
                "children_s": round(kids.ru_utime + kids.ru_stime - kids0.ru_utime - kids0.ru_stime, 3),
                "compile_s": round(sum(by.values()), 2),
                "by": {k: round(v, 2) for k, v in sorted(by.items(), key=lambda kv: -kv[1])}}
        with open(_COMPILE_LOG, "a", encoding="utf-8") as f:
            f.write(json.dumps(line) + "\n")


_SOCKET_MODULES = {"test_cli_limits", "test_distributed", "test_scheduler_probe"}


@pytest.fixture(autouse=True, scope="module")
def _collect_left_sockets(request):
    """After a module that opens sockets (Dask clusters, the fake servers), collect what it left for the garbage
    collector there: a socket Dask's client drops unclosed otherwise raises its ``ResourceWarning`` (an error
    here) inside whichever test the same worker runs next."""
    yield
    if request.module.__name__.rpartition(".")[2] in _SOCKET_MODULES:
        collect_left_sockets()


def collect_left_sockets() -> None:
    """Collect the garbage with the ``ResourceWarning`` of a socket left unclosed ignored (what Dask's client and
    in-process schedulers drop): after a socket module (``_collect_left_sockets``), or after a test of one whose
    next test would meet them (``tests/test_scheduler_probe.py``'s in-process schedulers)."""
    import gc
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ResourceWarning)
        gc.collect()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """``--dist loadgroup`` on pytest 9: add each ``xdist_group`` test's group to its node id (``ID@group``), which is
    what the controller's scheduler groups by. pytest-xdist (3.8) writes the suffix to ``item._nodeid``, which pytest 9
    no longer reads (the id is ``item._id``, a ``NodeId``), so without this every group's tests were spread over both
    workers and each worker compiled and built what the group was meant to do once. A no-op where xdist's own
    suffix took (an id that has it) and outside ``loadgroup``."""
    if not getattr(config.option, "loadgroup", False):
        return
    try:
        from _pytest.nodeid import NodeId
    except ImportError:  # a pytest whose ids xdist's own suffix still reaches
        return

    for item in items:
        names = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        if names and "@" not in item.nodeid:
            item._id = NodeId.parse(f"{item.nodeid}@{'_'.join(names)}")
