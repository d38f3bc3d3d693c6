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
STOP_GRACE_S = 0.25  # a run that stops (a signal or an error): seconds local:N's worker processes get to close
# before they are killed (Dask's own close gives a worker 4 s, and one inside a kernel call, PIMC's, cannot stop
# before the call ends)
WAIT_SLICE_S = 0.05  # how long the main thread waits on a task between two chances to run a signal's handler
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

    def close(self, stop: bool = False) -> None:
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
    stop = False
    try:
        yield ex
    except BaseException:  # a signal's stop (Ctrl-C, SIGTERM, SIGHUP) or an error: the workers are not waited for
        stop = True
        raise
    finally:
        _CURRENT.reset(token)
        ex.close(stop=stop)


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


_IS_DASK = "(is it a Dask scheduler's port?)"
_WS_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"  # RFC 6455: the server's Sec-WebSocket-Accept is made with it
_MOST = 1 << 16  # bytes: a handshake is some 60, an HTTP answer's head a few hundred


def _probe(text: str, scheme: str, host: str, port: int, timeout: float) -> None:
    """Check, within ``timeout`` seconds, that a Dask scheduler answers at ``text``; SchedulerError otherwise.

    Connect to the port (again and again while it refuses), then by scheme:
    ``tls://`` does a TLS handshake first (the certificate is not checked
    here: Dask does that with the user's security settings), ``ws://`` asks
    for a WebSocket (HTTP ``Upgrade``, answered by ``101 Switching
    Protocols``), ``wss://`` both; then the scheduler's first words are read
    (a Dask scheduler speaks first): its handshake, a length then a msgpack
    map with ``pickle-protocol``, in one stream (tcp, tls) or as websocket
    messages (a count of frames, then the frames). Each way to fail is one
    line: nothing accepts, a silent port, another server on that port.
    """
    import time

    deadline = time.monotonic() + timeout
    sock = _connect(text, host, port, deadline, timeout)
    try:
        if scheme in ("tls", "wss"):
            sock = _start_tls(sock, text, host, deadline, timeout)
        stream = _Stream(sock, deadline, text)
        if scheme in ("ws", "wss"):
            _ws_upgrade(stream, text, host, port, timeout, tls=scheme == "wss")
            body = _ws_handshake(stream, text, timeout)
        else:
            body = _tcp_handshake(stream, text, timeout, after="a TLS handshake" if scheme == "tls" else "")
    finally:
        sock.close()
    if b"pickle-protocol" not in body:
        raise SchedulerError(_other(text))


def _connect(text: str, host: str, port: int, deadline: float, timeout: float):
    """A socket connected to ``host:port`` before ``deadline``, trying again while the port refuses."""
    import socket
    import time

    reason = "no answer"
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise SchedulerError(f"cannot reach the Dask scheduler at {text} within {timeout:g} s ({reason})")
        try:
            return socket.create_connection((host, port), timeout=left)
        except socket.gaierror as e:
            raise SchedulerError(f"cannot reach the Dask scheduler at {text}: unknown host {host!r} "
                                 f"({e.strerror or _reason(e)})") from None
        except TimeoutError:
            reason = "no connection"
        except OSError as e:
            reason = os_reason(e)
            time.sleep(min(0.2, max(0.0, deadline - time.monotonic())))


def _other(text: str) -> str:
    return f"the server at {text} answered with something other than a Dask scheduler's handshake {_IS_DASK}"


def _tls_context():
    """The client TLS context of Dask's settings (its client certificate, if any), without checking the server's.

    A Dask scheduler on tls:// asks for the client's certificate: offering
    the one Dask will offer lets its handshake be read. Whether the
    server's certificate is trusted is Dask's to say afterwards.
    """
    import ssl

    ctx = None
    try:
        from distributed.security import Security

        ctx = Security().get_connection_args("client").get("ssl_context")
    except Exception:  # no Dask TLS settings, or broken ones (Dask names those itself)
        ctx = None
    if not isinstance(ctx, ssl.SSLContext):
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    ctx.check_hostname = False
    ctx.verify_mode = ssl.CERT_NONE
    return ctx


def _tls_refused(text: str, e) -> SchedulerError:
    """A TLS alert from the server (it speaks TLS but will not talk to this client): one line."""
    from bower.sim.errors import one_line

    why = one_line(getattr(e, "reason", None) or str(e)).replace("_", " ").lower()
    return SchedulerError(f"the TLS server at {text} refused this client ({why}); Dask's client certificate is "
                          "set by distributed.comm.tls.client.cert, .key and distributed.comm.tls.ca-file")


def _is_alert(e) -> bool:
    return "ALERT" in str(getattr(e, "reason", None) or "").upper()


def _start_tls(sock, text: str, host: str, deadline: float, timeout: float):
    """``sock`` with a TLS session on it, the handshake done before ``deadline``."""
    import ipaddress
    import ssl
    import time

    try:
        ipaddress.ip_address(host)
        name = None  # no SNI for an IP address
    except ValueError:
        name = host
    tls = _tls_context().wrap_socket(sock, server_hostname=name, do_handshake_on_connect=False)
    try:
        tls.settimeout(max(deadline - time.monotonic(), 0.001))
        tls.do_handshake()
    except TimeoutError:
        tls.close()
        raise SchedulerError(f"the server at {text} accepted the connection but did not complete a TLS handshake "
                             f"within {timeout:g} s {_IS_DASK}") from None
    except (ssl.SSLEOFError, ConnectionResetError, BrokenPipeError):
        tls.close()
        raise SchedulerError(f"the server at {text} closed the connection during the TLS handshake "
                             f"{_IS_DASK}") from None
    except ssl.SSLError as e:
        tls.close()
        if _is_alert(e):
            raise _tls_refused(text, e) from None
        raise SchedulerError(f"the server at {text} answered with something other than TLS {_IS_DASK}") from None
    except OSError as e:
        tls.close()
        raise SchedulerError(f"cannot reach the Dask scheduler at {text}: {os_reason(e)}") from None
    return tls


class _Stream:
    """Exact reads from a socket (plain or TLS) before a deadline: TimeoutError after it, SchedulerError at its end."""

    def __init__(self, sock, deadline: float, text: str):
        self.sock, self.deadline, self.text, self.data = sock, deadline, text, b""

    def _more(self) -> None:
        import time

        self.sock.settimeout(max(self.deadline - time.monotonic(), 0.001))
        chunk = self.sock.recv(_MOST)
        if not chunk:
            raise SchedulerError(f"the server at {self.text} closed the connection without a word {_IS_DASK}")
        self.data += chunk

    def read(self, n: int) -> bytes:
        """The next ``n`` bytes."""
        while len(self.data) < n:
            self._more()
        out, self.data = self.data[:n], self.data[n:]
        return out

    def read_until(self, end: bytes, most: int):
        """The bytes up to ``end`` included, or None when ``most`` bytes have come without it."""
        while end not in self.data[:most + len(end)]:
            if len(self.data) >= most:
                return None
            self._more()
        i = self.data.index(end) + len(end)
        out, self.data = self.data[:i], self.data[i:]
        return out

    def send(self, data: bytes) -> None:
        import time

        self.sock.settimeout(max(self.deadline - time.monotonic(), 0.001))
        self.sock.sendall(data)


@contextlib.contextmanager
def _reading(text: str, timeout: float, what: str, to: str = ""):
    """The errors of reading the scheduler's first words, as lines."""
    import ssl

    try:
        yield
    except TimeoutError:
        raise SchedulerError(f"the server at {text} {what} but did not answer{to} within {timeout:g} s "
                             f"{_IS_DASK}") from None
    except ssl.SSLError as e:
        if _is_alert(e):
            raise _tls_refused(text, e) from None
        if isinstance(e, ssl.SSLEOFError):
            raise SchedulerError(f"the server at {text} closed the connection without a word {_IS_DASK}") from None
        raise SchedulerError(_other(text)) from None
    except OSError as e:
        raise SchedulerError(f"cannot reach the Dask scheduler at {text}: {os_reason(e)}") from None


def _tcp_handshake(stream: _Stream, text: str, timeout: float, after: str) -> bytes:
    """The scheduler's handshake as tcp and tls frame it: 8 bytes of length (little-endian), then the message."""
    with _reading(text, timeout, f"completed {after}" if after else "accepted the connection"):
        size = int.from_bytes(stream.read(8), "little")
        if size > _MOST:
            raise SchedulerError(_other(text))
        return stream.read(size)


def _ws_upgrade(stream: _Stream, text: str, host: str, port: int, timeout: float, tls: bool) -> None:
    """Ask for a WebSocket on ``/`` (as Dask's ws comm does); SchedulerError unless ``101 Switching Protocols``."""
    import base64
    import hashlib

    key = base64.b64encode(os.urandom(16))
    shown = f"[{host}]" if ":" in host else host
    request = (b"GET / HTTP/1.1\r\nHost: " + f"{shown}:{port}".encode("ascii") + b"\r\nUpgrade: websocket\r\n"
               b"Connection: Upgrade\r\nSec-WebSocket-Key: " + key + b"\r\nSec-WebSocket-Version: 13\r\n\r\n")
    not_http = f"the server at {text} answered a WebSocket request with something other than HTTP {_IS_DASK}"
    with _reading(text, timeout, "completed a TLS handshake" if tls else "accepted the connection",
                  " a WebSocket request"):
        stream.send(request)
        head = stream.read_until(b"\r\n\r\n", _MOST)
    if head is None or not head.startswith(b"HTTP/"):
        raise SchedulerError(not_http)
    status_line, *headers = head.decode("latin-1").split("\r\n")
    parts = status_line.split(" ", 2)
    if len(parts) < 2 or parts[1] != "101":
        status = given_text(" ".join(parts[1:]), 60) or "no status"
        raise SchedulerError(f"the server at {text} answered a WebSocket request with HTTP {status}, not "
                             f"101 Switching Protocols {_IS_DASK}")
    fields = {}
    for line in headers:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    accept = base64.b64encode(hashlib.sha1(key + _WS_GUID).digest()).decode()
    if fields.get("sec-websocket-accept") != accept:
        raise SchedulerError(f"the server at {text} answered a WebSocket request with 101 Switching Protocols but "
                             f"not as RFC 6455 asks (no Sec-WebSocket-Accept of this request) {_IS_DASK}")


def _ws_message(stream: _Stream, text: str) -> bytes:
    """The next binary websocket message (pings and pongs passed over)."""
    data, first = b"", None
    while True:
        b0, b1 = stream.read(2)
        opcode, n = b0 & 0x0F, b1 & 0x7F
        if n == 126:
            n = int.from_bytes(stream.read(2), "big")
        elif n == 127:
            n = int.from_bytes(stream.read(8), "big")
        mask = stream.read(4) if b1 & 0x80 else None  # a server does not mask its frames; read them anyway
        if n > _MOST or len(data) + n > _MOST:
            raise SchedulerError(_other(text))
        payload = stream.read(n)
        if mask:
            payload = bytes(c ^ mask[i % 4] for i, c in enumerate(payload))
        if opcode == 8:
            raise SchedulerError(f"the server at {text} closed the WebSocket without a word {_IS_DASK}")
        if opcode in (9, 10):
            continue
        if first is None:
            first = opcode
        if first != 2 or opcode not in (0, 2) or (opcode == 2 and data):
            raise SchedulerError(_other(text))
        data += payload
        if b0 & 0x80:
            return data


def _ws_handshake(stream: _Stream, text: str, timeout: float) -> bytes:
    """The scheduler's handshake as Dask's ws comm sends it: a message of 8 bytes (how many frames), the frames."""
    with _reading(text, timeout, "accepted the WebSocket"):
        count = _ws_message(stream, text)
        n = int.from_bytes(count, "little") if len(count) == 8 else 0
        if not 1 <= n <= 16:
            raise SchedulerError(_other(text))
        return b"".join(_ws_message(stream, text) for _ in range(n))


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
            _probe(text, scheme, host, port, timeout)
    from distributed.deploy.spec import SpecCluster

    quiet = _Quiet()
    cluster = None
    before = list(SpecCluster._instances)  # the clusters open already (a stop inside the constructor: see below)
    try:
        if n_local is not None:
            cluster = local_cluster(n_local)
            client = distributed.Client(cluster, timeout=timeout)
        else:
            client = distributed.Client(text, timeout=timeout)
    except BaseException as e:
        try:
            if cluster is not None:  # a signal's stop or an error: the workers are not waited for
                _close_local(cluster, stop=True)
            elif n_local is not None:
                # a stop while the LocalCluster started its workers leaves a cluster half open that nobody holds
                # (its constructor closes it only on an Exception): Dask's exit hook then closed it with a traceback
                # ("AssertionError: Status.init" of a worker not started), after the stop's one line
                for half in [c for c in list(SpecCluster._instances) if not any(c is b for b in before)]:
                    _close_local(half, stop=True)
        finally:
            quiet.restore()
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
        except BaseException:  # a signal's stop or an error (no worker joined): the workers are not waited for
            self.close(stop=True)
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
        _wait(future)
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

    def close(self, stop: bool = False) -> None:
        """Close the client and the run's own LocalCluster; Dask's logging back as it was.

        ``stop``: the run ends before its end (a signal, or an error such as
        a records file that cannot be written or bad input found on a
        worker), so the LocalCluster's worker processes get ``STOP_GRACE_S``
        to close before they are killed: one busy in a kernel call cannot
        close before the call ends, and Dask's own close waits 4 s for it,
        past the 2 s a stop may take and for nothing (its result is not
        wanted).
        """
        try:
            if self.owned:
                with contextlib.suppress(Exception):
                    self.client.close(timeout=5)
                if self.cluster is not None:
                    _close_local(self.cluster, stop)
        finally:
            self.quiet.restore()


def _close_local(cluster, stop: bool) -> None:
    """Close a run's own LocalCluster; ``stop``: its worker processes killed after ``STOP_GRACE_S`` (``Dask.close``).

    It is then out of Dask's list of clusters to close at exit, whatever the
    close did: a cluster that could not close would only be tried again there.
    """
    from distributed.deploy.spec import SpecCluster

    try:
        if stop:
            with contextlib.suppress(Exception):
                _kill_workers(cluster)
        with contextlib.suppress(Exception):
            cluster.close(timeout=10)
    finally:
        SpecCluster._instances.discard(cluster)


def _kill_workers(cluster) -> None:
    """Close every worker of a LocalCluster at once, each killed after ``STOP_GRACE_S``: those that have joined,
    and those still starting (Dask's ``_created``: a stop while the cluster starts).

    A worker process still starting (spawned, importing, not yet connected)
    is killed at once (``_kill_starting``): Dask's close of its nanny waits
    for it to report before it can be asked to close, 1 to 2.5 s after the
    stop on a loaded machine, past the 2 s a stop may take; it has no work
    to save.
    """
    import asyncio

    workers = {id(w): w for w in [*cluster.workers.values(), *getattr(cluster, "_created", ())]}
    nannies = [w for w in workers.values() if hasattr(w, "kill")]  # processes (Nanny) only

    async def close_all():
        closes = [asyncio.ensure_future(w.close(timeout=STOP_GRACE_S, reason="bower-stop")) for w in nannies]
        await asyncio.gather(*closes, *(_kill_starting(w, c) for w, c in zip(nannies, closes)),
                             return_exceptions=True)

    cluster.sync(close_all, callback_timeout=4 * STOP_GRACE_S + 5)


async def _kill_starting(nanny, closing) -> None:
    """Kill the worker process of ``nanny`` while it is still starting, until ``closing`` (its close) is done.

    The close runs first (its status ``closing``: the nanny does not start
    the process again when it dies). A process spawned and not yet connected
    gets SIGKILL through Dask's own process handle (after the spawn, if that
    is under way); the close, waiting for it to report, then sees it gone.
    """
    import asyncio

    from distributed.core import Status

    killed = None
    while not closing.done():
        proc = getattr(nanny, "process", None)  # the WorkerProcess, None before the nanny makes it or once closed
        handle = getattr(proc, "process", None)  # its AsyncProcess
        if proc is not None and proc.status == Status.starting and handle is not None and handle is not killed:
            killed = handle
            with contextlib.suppress(Exception):  # (a process that ended meanwhile: its handle is closed)
                await handle.kill()
        await asyncio.sleep(0.01)


def _wait(future) -> None:
    """Wait until ``future`` is done (finished, failed or cancelled), in slices of ``WAIT_SLICE_S`` seconds.

    A signal's Python handler runs only in the main thread, between
    bytecodes. Dask's ``Future.result()`` waits on a lock in slices of 10 s:
    a signal that the kernel hands to another thread of the process (the
    second of SIGINT and SIGTERM sent together: the main thread has one
    pending), or that lands just before the main thread blocks, was acted
    on only when the task ended or the slice did (4 to 10 s after a SIGINT
    and SIGTERM in ``simulate --strategy pimc-fast --scheduler local:2``).
    A bare lock released by the future's done callback, as
    ``bower.kernels.jit.ChunkKernel`` waits on its threads, and with the
    same check of a stop whose exception was swallowed (``jit.wait_check``).
    """
    from bower.kernels.jit import wait_check

    done = threading.Lock()
    done.acquire()
    future.add_done_callback(lambda _f: done.release())
    wait_check()
    while not done.acquire(timeout=WAIT_SLICE_S):
        if future.done():
            return
        wait_check()


def numba_threads(_job=None) -> int:
    """The Numba threads a job gets where it runs (a check of the workers' shares)."""
    import numba

    return numba.get_num_threads()
