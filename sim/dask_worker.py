"""What a Dask worker needs to run bower's jobs: its share of Numba threads and, on a shared folder, its own cache.

``bower.sim.distributed`` registers ``BowerWorker`` on every worker of a
session (those that join later too). Its ``setup``:

- gives the worker process ``cores of its machine / workers on it`` Numba
  threads (``run_task`` sets them in the thread that runs each job);
- when the package folder lies on a network filesystem (NFS, CIFS, Lustre,
  ...), or ``BOWER_WORKER_CACHE`` names a folder, points Numba's cache at a
  folder of that worker alone (``BOWER_WORKER_CACHE`` or the temporary
  folder, then ``bower-numba/HOST-WORKER``), so that no two processes build
  the same cache file. Kernels already compiled in that process keep theirs.

It compiles nothing: a worker joins at once, and compiles only what the
jobs it gets use. Before a run's first fan-out of a kind, the client runs
one tiny job of that kind on one worker, then on the others
(``Dask.warm`` in ``bower.sim.distributed``, through
``bower.sim.warm.watched_call``), and prints the compile notice when a worker
says it compiles. ``bower warm`` on a worker's machine compiles ahead.

The module also works as a worker preload (``dask worker ADDRESS --preload
bower.sim.dask_worker``): ``dask_setup`` does the cache part at start.
"""

from __future__ import annotations

import os
import re
import socket
import sys
import tempfile

from distributed.diagnostics.plugin import WorkerPlugin

NETWORK_FS = ("nfs", "nfs4", "cifs", "smb3", "smbfs", "lustre", "gpfs", "beegfs", "ceph", "glusterfs",
              "fuse.sshfs", "fuse.glusterfs", "fuse.cephfs", "9p", "afs", "panfs", "ocfs2", "gfs2")


def host_info() -> dict:
    """This worker's machine and cores: ``{"host", "cpus"}`` (run on every worker by the client)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return {"host": socket.gethostname(), "cpus": cpus}


def package_dir() -> str:
    """The folder of the compiled kernels (``bower.kernels``), where Numba keeps its cache by default."""
    import importlib.util

    spec = importlib.util.find_spec("bower.kernels")
    return os.path.dirname(spec.origin) if spec and spec.origin else os.getcwd()


def filesystem_type(path: str) -> str | None:
    """The type of the filesystem holding ``path`` (``/proc/self/mounts``, longest mount point), None if unknown."""
    try:
        with open("/proc/self/mounts", encoding="utf-8", errors="replace") as fh:
            mounts = [line.split()[:3] for line in fh if line.strip()]
    except OSError:
        return None
    path = os.path.realpath(path)
    best, kind = "", None
    for parts in mounts:
        if len(parts) < 3:
            continue
        point = parts[1].replace("\\040", " ")
        if (path == point or path.startswith(point.rstrip("/") + "/")) and len(point) >= len(best):
            best, kind = point, parts[2]
    return kind


def cache_dir_for(worker_name: str) -> str | None:
    """The Numba cache folder of this worker alone, or None to keep the package's (a folder on a local disk)."""
    base = os.environ.get("BOWER_WORKER_CACHE", "").strip()
    if not base:
        if (filesystem_type(package_dir()) or "") not in NETWORK_FS:
            return None
        base = tempfile.gettempdir()
    slot = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{socket.gethostname()}-{worker_name}").strip("_")
    return os.path.join(base, "bower-numba", slot)


def use_cache_dir(path: str) -> None:
    """Point Numba's cache at ``path``, also for the kernels imported already but not compiled yet in this process."""
    os.makedirs(path, exist_ok=True)
    os.environ["NUMBA_CACHE_DIR"] = path
    if "numba" not in sys.modules:
        return
    from numba.core import config
    from numba.core.caching import FunctionCache
    from numba.core.registry import CPUDispatcher

    from bower.kernels.jit import ChunkKernel

    config.CACHE_DIR = path
    for name, mod in list(sys.modules.items()):
        if not name.startswith("bower.") or mod is None:
            continue
        for obj in list(vars(mod).values()):
            obj = obj.kernel if isinstance(obj, ChunkKernel) else obj
            if (isinstance(obj, CPUDispatcher) and isinstance(getattr(obj, "_cache", None), FunctionCache)
                    and not obj.overloads):
                obj.enable_caching()


class BowerWorker(WorkerPlugin):
    """Sets a worker's Numba threads (``shares``: host -> threads) and, where needed, its own cache folder."""

    def __init__(self, shares: dict):
        self.shares = dict(shares)

    def setup(self, worker) -> None:
        """Run on each worker when the plugin is registered or the worker joins."""
        from bower.sim import distributed as dist

        dist._SHARE = self.shares.get(socket.gethostname())
        path = cache_dir_for(str(worker.name))
        if path is not None and os.environ.get("NUMBA_CACHE_DIR") != path:
            use_cache_dir(path)


def dask_setup(worker) -> None:
    """Worker preload: its own Numba cache folder when the package folder is shared (see the module)."""
    path = cache_dir_for(str(worker.name))
    if path is not None:
        use_cache_dir(path)
