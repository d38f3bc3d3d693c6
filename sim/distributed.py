"""Where a run's fixed jobs are computed: here, on the kernels' threads, or as Dask tasks on a cluster.

Every run cuts its work into jobs that the run alone fixes (batches of seeded
chunks, batches of records) and merges the results in job order, so the
numbers never depend on who computed a job. ``session(scheduler)`` opens the
executor of a run and ``current()`` is the one in force:

- ``None``: ``Local``, each job run here in order on the kernels' threads;
- ``"local:N"``: a Dask ``LocalCluster`` of N worker processes for this run;
- a scheduler address (``tcp://host:8786``) or a ``distributed.Client``;
- an executor already open (``Local`` or ``Dask``: its owner closes it).

Both have ``map(fn, jobs, warm=...)``: ``fn(job)`` of each job, yielded in
job order. ``fn`` is a module-level function (sent by reference: workers
import ``bower``) and a job holds plain values and arrays, so no jitted
function is ever pickled. Before its first fan-out of a kind, the Dask
executor runs the ``warm`` job on one worker, then on the others, so the
Numba cache is built once and never by two processes at the same time.
Sessions nest: the runs of a sweep or a report share one cluster.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import logging
import os
import re
import threading
import traceback
from collections import deque
from typing import Callable, Iterable, Iterator

from bower.sim.errors import UserError, os_reason
from bower.sim.text import given_text

LOCAL_MAX_WORKERS = 1024  # ``local:N``: at most this many worker processes
DEFAULT_TIMEOUT_S = 30.0  # seconds to reach the scheduler and have its first answer, or to get it back once lost
MAX_TIMEOUT_S = 86_400.0  # --scheduler-timeout / BOWER_SCHEDULER_TIMEOUT: at most a day
SCHEMES = ("tcp", "tls", "ws", "wss", "ucx")  # the protocols of a scheduler address (tcp:// when none is given)
DEFAULT_PORT = 8786
_ADDRESS = re.compile(r"(?:(?P<scheme>[^:/]*)://)?"  # [PROTOCOL://]
                      r"(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+)"  # HOST: a name, an IPv4 or a bracketed IPv6
                      r"(?::(?P<port>[0-9]{1,5}))?", re.ASCII)  # [:PORT]
_timeout: float | None = None  # --scheduler-timeout of the command in progress (None: BOWER_SCHEDULER_TIMEOUT or 30)


class SchedulerError(UserError):
    """A Dask scheduler that cannot be reached or was lost, no workers, or a bad ``--scheduler``: one line, exit 2."""


class Local:
    """Jobs run here, one after the other, each on every kernel thread (the runs as they always were)."""

    kind = "local"
    address = None
    source = None
    workers = 0

    def warm(self, fn, key, job) -> None:
        """Nothing to do: the kernels load here on their first call."""

    def map(self, fn: Callable, jobs: Iterable, warm=None, window: int | None = None) -> Iterator:
        """``fn(job)`` of each job, in order, computed as it is asked for (``warm`` is not needed here)."""
        for job in jobs:
            yield fn(job)

    def close(self) -> None:
        """Nothing to release."""


_LOCAL = Local()
_CURRENT: contextvars.ContextVar = contextvars.ContextVar("bower_executor", default=None)


def current():
    """The executor of the run in progress (``Local`` outside any session)."""
    return _CURRENT.get() or _LOCAL


@contextlib.contextmanager
def session(scheduler=None):
    """The executor for ``scheduler`` (see the module) while the block runs; nested calls reuse the open one.

    SchedulerError when Dask is not installed, the scheduler cannot be
    reached or has no workers, or ``local:N`` is malformed.
    """
    if isinstance(scheduler, (Local, Dask)):  # an executor already open: use it as it is
        token = _CURRENT.set(scheduler)
        try:
            yield scheduler
        finally:
            _CURRENT.reset(token)
        return
    cur = _CURRENT.get()
    if cur is not None and (scheduler is None or scheduler is cur.source or scheduler == cur.source):
        yield cur
        return
    ex = _LOCAL if scheduler is None else _open_dask(scheduler)
    token = _CURRENT.set(ex)
    try:
        yield ex
    finally:
        _CURRENT.reset(token)
        ex.close()


# ---- the worker side -------------------------------------------------------------------------------

_TASK_LOCK = threading.Lock()  # one kernel call at a time in a worker process: Numba's threads are its share
_SHARE: int | None = None  # Numba threads for this worker process (set by ``bower.sim.dask_worker``)


def run_task(fn: Callable, job):
    """``fn(job)`` on a worker with its share of Numba threads: ``("ok", value)``, ``("user", ...)`` or ``("error", ...)``.

    A UserError (bad input found on the worker) comes back as its class and
    message, to be raised again here; any other exception as its traceback.
    """
    with _TASK_LOCK:
        if _SHARE:
            import numba

            numba.set_num_threads(max(1, min(_SHARE, numba.config.NUMBA_NUM_THREADS)))
        try:
            return ("ok", fn(job))
        except UserError as e:
            return ("user", type(e).__module__, type(e).__qualname__, e.format_message())
        except Exception as e:  # a failure of the engine: its traceback goes back to the caller
            return ("error", f"{type(e).__name__}: {e}", traceback.format_exc())


def _reraise(status: tuple):
    """The value of a ``run_task`` answer, or its error raised here."""
    if status[0] == "ok":
        return status[1]
    if status[0] == "user":
        _, module, qualname, message = status
        try:
            cls = importlib.import_module(module)
            for part in qualname.split("."):
                cls = getattr(cls, part)
            err = cls(message)
        except Exception:
            err = None
        raise err if isinstance(err, UserError) else UserError(message)
    raise RuntimeError(f"a job failed on a Dask worker: {status[1]}\n{status[2]}")


# ---- the Dask executor ------------------------------------------------------------------------------


def parse_timeout(text, what: str = "BOWER_SCHEDULER_TIMEOUT") -> float:
    """Seconds from ``text`` (above 0, at most a day); SchedulerError naming ``what`` (if given) otherwise."""
    try:
        t = float(str(text).strip())
    except ValueError:
        t = -1.0
    if not 0 < t <= MAX_TIMEOUT_S:
        raise SchedulerError(f"{what} must be a number of seconds above 0 and at most {MAX_TIMEOUT_S:g}, "
                             f"got {given_text(text)!r}".lstrip())
    return t


def set_timeout(seconds: float | None) -> None:
    """The scheduler timeout of the runs to come (the CLI's ``--scheduler-timeout``); None: from the environment."""
    global _timeout
    _timeout = seconds


def timeout_s() -> float:
    """Seconds to reach the scheduler and have its first answer, or to get it back once lost.

    ``--scheduler-timeout`` (``set_timeout``), else ``BOWER_SCHEDULER_TIMEOUT``, else 30.
    """
    if _timeout is not None:
        return _timeout
    text = os.environ.get("BOWER_SCHEDULER_TIMEOUT", "").strip()
    return parse_timeout(text) if text else DEFAULT_TIMEOUT_S


def parse_local(text: str) -> int | None:
    """N of ``local:N`` (None for another address); SchedulerError for a malformed or out-of-range N."""
    m = re.fullmatch(r"\s*local\s*:(.*)", str(text), re.IGNORECASE)
    if not m:
        return None
    n = m.group(1).strip()
    if not re.fullmatch(r"[0-9]{1,4}", n) or not 1 <= int(n) <= LOCAL_MAX_WORKERS:
        raise SchedulerError(f"--scheduler local:N needs a number of worker processes from 1 to "
                             f"{LOCAL_MAX_WORKERS}, got {given_text(text)!r}")
    return int(n)


def parse_address(text: str) -> tuple[str, str, int]:
    """(protocol, host, port) of an address ``[PROTOCOL://]HOST[:PORT]``; SchedulerError for a malformed one."""
    m = _ADDRESS.fullmatch(str(text).strip())
    shown = given_text(text)
    if not m:
        raise SchedulerError(f"--scheduler {shown!r} is not a scheduler address: give tcp://HOST:PORT (or HOST:PORT) "
                             "or local:N")
    scheme = (m.group("scheme") if m.group("scheme") is not None else "tcp").lower()
    if scheme not in SCHEMES:
        raise SchedulerError(f"--scheduler {shown!r}: {scheme or 'an empty protocol'!r} is not a Dask protocol "
                             f"({', '.join(SCHEMES)})")
    port = int(m.group("port") or DEFAULT_PORT)
    if not 1 <= port <= 65535:
        raise SchedulerError(f"--scheduler {shown!r}: port {port} is not from 1 to 65535")
    return scheme, m.group("host").strip("[]"), port


def _probe(text: str, host: str, port: int, timeout: float, handshake: bool) -> None:
    """Connect to the scheduler's port (again and again while it refuses) and, over tcp, read its first answer.

    A Dask scheduler speaks first: its handshake (a length, then a msgpack
    map with ``pickle-protocol``). SchedulerError, within ``timeout``
    seconds, when nothing accepts the connection, when nothing answers, or
    when the answer is something else (another server on that port).
    """
    import socket
    import time

    deadline = time.monotonic() + timeout
    reason = "no answer"
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise SchedulerError(f"cannot reach the Dask scheduler at {text} within {timeout:g} s ({reason})")
        try:
            sock = socket.create_connection((host, port), timeout=left)
            break
        except socket.gaierror as e:
            raise SchedulerError(f"cannot reach the Dask scheduler at {text}: unknown host {host!r} "
                                 f"({e.strerror or _reason(e)})") from None
        except TimeoutError:
            reason = "no connection"
        except OSError as e:
            reason = os_reason(e)
            time.sleep(min(0.2, max(0.0, deadline - time.monotonic())))
    if not handshake:
        sock.close()
        return
    other = (f"the server at {text} answered with something other than a Dask scheduler's handshake "
             "(is it a Dask scheduler's port?)")
    with sock:
        try:
            size = int.from_bytes(_recv(sock, 8, deadline, text), "little")
            if size > 1 << 16:  # a handshake is some 60 bytes
                raise SchedulerError(other)
            body = _recv(sock, size, deadline, text)
        except TimeoutError:
            raise SchedulerError(f"the server at {text} accepted the connection but did not answer within "
                                 f"{timeout:g} s (is it a Dask scheduler's port?)") from None
        except OSError as e:
            raise SchedulerError(f"cannot reach the Dask scheduler at {text}: {os_reason(e)}") from None
    if b"pickle-protocol" not in body:
        raise SchedulerError(other)


def _recv(sock, n: int, deadline: float, text: str) -> bytes:
    """``n`` bytes from ``sock`` before ``deadline`` (TimeoutError after it); SchedulerError if it closes first."""
    import time

    data = b""
    while len(data) < n:
        sock.settimeout(max(deadline - time.monotonic(), 0.001))
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise SchedulerError(f"the server at {text} closed the connection without a word "
                                 "(is it a Dask scheduler's port?)")
        data += chunk
    return data


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def local_cluster(n_workers: int):
    """A Dask LocalCluster of ``n_workers`` processes as ``local:N`` starts it: one task slot each, no dashboard.

    Numba's threads are set per job (``run_task``), not by NUMBA_NUM_THREADS
    (a worker process may import Numba before the nanny's environment
    reaches it); idle OpenMP threads sleep rather than spin on the others'
    cores; the scheduler's HTTP server takes a free port (8787 may be taken).
    """
    import distributed

    return distributed.LocalCluster(
        n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=None,
        scheduler_kwargs={"dashboard_address": ":0"}, silence_logs=logging.CRITICAL,
        env={"OMP_WAIT_POLICY": os.environ.get("OMP_WAIT_POLICY", "PASSIVE")},
    )


def _open_dask(scheduler):
    """A ``Dask`` executor on ``scheduler`` (see ``session``)."""
    try:
        import distributed
    except ImportError:
        raise SchedulerError("--scheduler needs Dask: pip install 'dask[distributed]', or bower's dask extra "
                             "(pip install '/path/to/bower-checkout[dask]')") from None
    if isinstance(scheduler, distributed.Client):
        return Dask(scheduler, scheduler, None, owned=False, quiet=_Quiet())
    if not isinstance(scheduler, str):
        raise SchedulerError(f"scheduler must be an address (tcp://HOST:PORT), local:N or a distributed.Client, "
                             f"got {type(scheduler).__name__} {given_text(repr(scheduler))}")
    text = scheduler.strip()
    if not text:
        raise SchedulerError("--scheduler needs an address (tcp://HOST:8786) or local:N")
    n_local = parse_local(text)
    timeout = timeout_s()
    if n_local is None:
        scheme, host, port = parse_address(text)
        if scheme != "ucx":
            _probe(text, host, port, timeout, handshake=scheme == "tcp")
    quiet = _Quiet()
    cluster = None
    try:
        if n_local is not None:
            cluster = local_cluster(n_local)
            client = distributed.Client(cluster, timeout=timeout)
        else:
            client = distributed.Client(text, timeout=timeout)
    except BaseException as e:
        quiet.restore()
        if cluster is not None:
            cluster.close()
        if isinstance(e, (OSError, TimeoutError)):
            raise SchedulerError(f"cannot reach the Dask scheduler at {text}: {_reason(e)}") from None
        if isinstance(e, Exception):  # an answer that is not Dask's (a length no message has: MemoryError)
            raise SchedulerError(f"cannot talk to the Dask scheduler at {text}: {type(e).__name__}: "
                                 f"{given_text(_reason(e), 200)}") from None
        raise
    return Dask(client, scheduler, cluster, owned=True, quiet=quiet)


def _reason(e: BaseException) -> str:
    from bower.sim.errors import one_line

    return one_line(str(e)) or type(e).__name__


class _Quiet:
    """Dask's own log lines kept off stderr while a session is open (a fault is one line of ours)."""

    NAMES = ("distributed", "tornado", "asyncio")

    def __init__(self):
        self.levels = {}
        names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in self.NAMES]
        for name in {*self.NAMES, *names}:
            log = logging.getLogger(name)
            self.levels[name] = log.level
            log.setLevel(logging.CRITICAL + 1)

    def restore(self) -> None:
        """Put the log levels back."""
        for name, level in self.levels.items():
            logging.getLogger(name).setLevel(level)
        self.levels = {}


class Dask:
    """Jobs as Dask tasks, at most ``window`` in flight, results yielded in job order."""

    kind = "dask"

    def __init__(self, client, source, cluster, owned: bool, quiet: _Quiet):
        self.client = client
        self.source = source
        self.cluster = cluster
        self.owned = owned
        self.quiet = quiet
        self.address = "local:" + str(len(cluster.workers)) if cluster is not None else str(client.scheduler.address)
        self._warmed: set = set()
        try:
            self._setup_workers()
        except BaseException:
            self.close()
            raise

    def _setup_workers(self) -> None:
        """Wait for a worker, then give every worker its share of Numba threads and its cache (a worker plugin)."""
        from bower.sim.dask_worker import BowerWorker, host_info

        t = timeout_s()
        try:
            self.client.wait_for_workers(1, timeout=t)
        except (TimeoutError, OSError) as e:
            raise SchedulerError(f"no Dask worker joined the scheduler at {self.address} within {t:g} s "
                                 f"({_reason(e)})") from None
        infos = self.client.run(host_info)
        per_host: dict = {}
        for info in infos.values():
            per_host.setdefault(info["host"], []).append(info["cpus"])
        shares = {h: max(1, min(cpus) // len(cpus)) for h, cpus in per_host.items()}
        self.client.register_plugin(BowerWorker(shares), name="bower-worker")

    @property
    def workers(self) -> int:
        """Workers connected now."""
        return len(self.client.scheduler_info().get("workers", {}))

    @property
    def nthreads(self) -> int:
        """Task slots over all workers."""
        return max(1, sum(w.get("nthreads", 1) for w in self.client.scheduler_info().get("workers", {}).values()))

    def _submit(self, fn, job, **kw):
        return self.client.submit(run_task, fn, job, pure=False, **kw)

    def _result(self, future):
        try:
            status = future.result()
        except Exception as e:
            raise self._fault(e) from None
        return _reraise(status)

    def _fault(self, e: BaseException) -> SchedulerError:
        import distributed

        if isinstance(e, distributed.KilledWorker):
            return SchedulerError(f"Dask workers died again and again running one task ({_reason(e)})")
        if getattr(self.client, "status", "running") != "running" or isinstance(e, (distributed.CancelledError,
                                                                                     OSError, TimeoutError)):
            return SchedulerError(f"lost the Dask scheduler at {self.address} during the run (not back within "
                                  f"{timeout_s():g} s)")
        return SchedulerError(f"the Dask run failed: {type(e).__name__}: {_reason(e)}")

    def warm(self, fn, key, job) -> None:
        """Run ``fn(job)`` on one worker, then on every other, once per ``key``: Numba compiles (or loads) there first.

        Only what the job needs is compiled (``fn`` itself, tiny). Each run
        goes through ``bower.sim.warm.watched_call``: a worker that starts
        compiling logs a Dask event, and the client prints the compile
        notice (``bower.sim.progress``) then, not after a silent minute.
        """
        if key in self._warmed:
            return
        import uuid

        from bower.sim.warm import watched_call

        token = uuid.uuid4().hex
        addrs = sorted(self.client.scheduler_info().get("workers", {}))
        for group in (addrs[:1], addrs[1:]):
            futures = [self._submit(watched_call, (fn, job, token), workers=[a], allow_other_workers=True)
                       for a in group]
            self._wait_announcing(futures, token)
            for f in futures:
                self._result(f)
        self._warmed.add(key)

    def _wait_announcing(self, futures, token: str) -> None:
        """Wait for ``futures``; print the compile notice once a worker says it compiles for ``token``."""
        import time

        from bower.sim.progress import announce_compile
        from bower.sim.warm import DASK_TOPIC

        def look() -> bool:
            try:
                events = self.client.get_events(DASK_TOPIC)
            except Exception:  # the events are a courtesy: the results say what went wrong
                return True
            if any(msg == token for _, msg in events):
                announce_compile()
                return True
            return False

        done, next_look = False, time.monotonic() + 0.5
        while not done and not all(f.done() for f in futures):
            time.sleep(0.05)
            if time.monotonic() >= next_look:
                next_look = time.monotonic() + 0.5
                done = look()
        if not done:
            look()  # a compile shorter than a look's interval

    def map(self, fn: Callable, jobs: Iterable, warm=None, window: int | None = None) -> Iterator:
        """``fn(job)`` of each job as a task, yielded in job order; ``warm``: ``(key, job)`` run first on each worker.

        At most ``window`` tasks (default: twice the workers' threads) are
        in flight or waiting to be yielded, so memory does not grow with the
        run; tasks left when the caller stops are cancelled.
        """
        if warm is not None:
            self.warm(fn, *warm)
        window = window or max(2, 2 * self.nthreads)
        pending: deque = deque()
        try:
            for job in jobs:
                pending.append(self._submit(fn, job))
                if len(pending) >= window:
                    yield self._result(pending.popleft())
            while pending:
                yield self._result(pending.popleft())
        finally:
            for f in pending:
                with contextlib.suppress(Exception):
                    f.cancel()

    def close(self) -> None:
        """Close the client and the run's own LocalCluster; Dask's logging back as it was."""
        try:
            if self.owned:
                with contextlib.suppress(Exception):
                    self.client.close(timeout=5)
                if self.cluster is not None:
                    with contextlib.suppress(Exception):
                        self.cluster.close(timeout=10)
        finally:
            self.quiet.restore()


def numba_threads(_job=None) -> int:
    """The Numba threads a job gets where it runs (a check of the workers' shares)."""
    import numba

    return numba.get_num_threads()
