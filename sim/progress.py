"""What long runs say on stderr: a progress bar with time left, and a notice when Numba compiles.

The bar is drawn only when stderr is a terminal (and not under ``--quiet``).
Its time left leaves out the seconds Numba spent compiling while it ran, so
a first run's estimate is not inflated by the compile. ``watch_compiles``
(the CLI installs it) prints ``bower: compiling kernels (first run only) ...``
on stderr when Numba starts compiling (it does only on a cache miss), once
per process, before the compile's minutes rather than after them. The
library's functions (``import bower``) say it too, once per process
(``library_notice``; ``bower.quiet(True)`` or ``BOWER_QUIET=1`` silences
it); ``count_compiles`` counts compiles without a word (``bower warm``'s
child processes).
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time

COMPILE_NOTICE = ("bower: compiling kernels (first run only; later runs load them from the cache; "
                  "`bower warm` compiles them ahead)...")

_quiet = False
_active: list = []  # bars with a line drawn, so a notice starts on a fresh line


def set_quiet(quiet: bool) -> None:
    """``--quiet``: no progress bars and no compile notice for the rest of the command."""
    global _quiet
    _quiet = bool(quiet)


def is_quiet() -> bool:
    """Whether ``--quiet`` is in force."""
    return _quiet


class _CompileClock:
    """Seconds Numba has spent compiling in this process (outermost compiles only), and the notice."""

    def __init__(self):
        self.lock = threading.Lock()
        self.depth = 0
        self.started = 0.0
        self.total = 0.0
        self.noticed = False
        self.armed = False  # whether a compile is to be announced (while a command runs)
        self.stream = None  # where the notice goes; None: stderr as it is at the time
        self.count = 0  # outermost compiles so far
        self.on_first = None  # called at the first compile after ``count_compiles(on_first=...)``

    def on_start(self) -> None:
        with self.lock:
            self.depth += 1
            if self.depth > 1:
                return
            self.started = time.perf_counter()
            self.count += 1
            first, self.on_first = self.on_first, None
        if first is not None:
            try:
                first()
            except Exception:  # a report that fails never stops a compile
                pass
        self.announce()

    def announce(self) -> None:
        """Print the notice, if armed and not said yet (a compile here, or one a Dask worker reported)."""
        with self.lock:
            say = self.armed and not self.noticed and not _quiet
            self.noticed = self.noticed or say
        if say:
            try:
                for bar in list(_active):
                    bar.close()
                stream = self.stream or sys.stderr
                stream.write(COMPILE_NOTICE + "\n")
                stream.flush()
            except (OSError, ValueError):  # a closed or broken stderr never stops a compile
                pass

    def on_end(self) -> None:
        with self.lock:
            self.depth = max(self.depth - 1, 0)
            if self.depth == 0:
                self.total += time.perf_counter() - self.started

    def seconds(self) -> float:
        """Compile seconds so far, a compile in progress included."""
        with self.lock:
            return self.total + (time.perf_counter() - self.started if self.depth else 0.0)


_clock = _CompileClock()
_listener = None


def compile_seconds() -> float:
    """Seconds Numba has spent compiling in this process since ``watch_compiles`` (0 before it)."""
    return _clock.seconds()


def compiles() -> int:
    """Numba compiles (outermost ones) in this process since counting began (``watch_compiles``, ``count_compiles``)."""
    with _clock.lock:
        return _clock.count


def watch_compiles(stream=None) -> None:
    """Count Numba's compile time from now on, and print the compile notice once on ``stream`` (None: stderr).

    Numba raises its ``numba:compile`` event only when it compiles (a cache
    miss), not when it loads a kernel from its cache. The CLI arms the
    notice for each command and disarms it after (``stop_watching``).
    """
    with _clock.lock:
        _clock.stream, _clock.noticed, _clock.armed = stream, False, True
    _listen()


def count_compiles(on_first=None) -> None:
    """Count Numba's compiles and their time from now on, with no notice; ``on_first()`` at the next compile.

    ``on_first`` replaces the one set before (None: none).
    """
    with _clock.lock:
        _clock.on_first = on_first
    _listen()


def announce_compile() -> None:
    """The compile notice now, as a compile here would print it (armed, once, not under ``--quiet``).

    For a compile elsewhere that this process waits on: a Dask worker's.
    """
    _clock.announce()


def _listen() -> None:
    global _listener
    if _listener is None:
        from numba.core import event

        class _Listener(event.Listener):
            def on_start(self, ev):
                _clock.on_start()

            def on_end(self, ev):
                _clock.on_end()

        _listener = _Listener()
        event.register("numba:compile", _listener)


def stop_watching() -> None:
    """No compile notice from now on (compile time is still counted)."""
    with _clock.lock:
        _clock.armed, _clock.stream = False, None


# ---- the library's notice (``import bower``) ---------------------------------------------------------------

_library = {"noticed": False, "silenced": None, "depth": 0, "armed": False}


def silence_library(flag: bool = True) -> None:
    """``bower.quiet(flag)``: no compile notice from the library's functions (True), or the notice back (False)."""
    _library["silenced"] = bool(flag)


def library_silenced() -> bool:
    """``bower.quiet(True)`` was called, or (without a ``bower.quiet`` call) ``BOWER_QUIET`` is set to a true value."""
    if _library["silenced"] is not None:
        return _library["silenced"]
    return os.environ.get("BOWER_QUIET", "").strip().lower() not in ("", "0", "false", "no", "off")


@contextlib.contextmanager
def library_notice():
    """While a library function runs: the compile notice on stderr (``sys.stderr`` then: a notebook shows it).

    Once per process: after one notice the library says no more. Nothing
    when ``library_silenced()``, or when the CLI's notice is armed already
    (a command calling the library). Calls nest: the outermost one arms it.
    """
    arm = False
    with _clock.lock:
        if _library["depth"] == 0 and not _clock.armed and not _library["noticed"] and not library_silenced():
            _clock.stream, _clock.noticed, _clock.armed = None, False, True
            _library["armed"] = arm = True
        _library["depth"] += 1
    if arm:
        _listen()
    try:
        yield
    finally:
        with _clock.lock:
            _library["depth"] -= 1
            if _library["depth"] == 0 and _library["armed"]:
                _library["noticed"] = _library["noticed"] or _clock.noticed
                _clock.armed, _clock.stream = False, None
                _library["armed"] = False


def in_library() -> bool:
    """Whether a library function (``import bower``) is running, rather than a command."""
    with _clock.lock:
        return _library["depth"] > 0


def notice(text: str, stream=None) -> None:
    """One line ``bower: note: TEXT`` on stderr (``stream``), as ``bower analyze``'s notes: e.g. a count rounded up.

    Not under ``--quiet``, nor from a library function under
    ``bower.quiet(True)`` / ``BOWER_QUIET`` (the compile notice's channel).
    Never on stdout, which may carry JSON. A bar drawn is ended first.
    """
    if _quiet or (in_library() and library_silenced()):
        return
    try:
        for bar in list(_active):
            bar.close()
        stream = stream or sys.stderr
        stream.write(f"bower: note: {text}\n")
        stream.flush()
    except (OSError, ValueError):  # a closed or broken stderr never stops a run
        pass


def rounded_notice(flag: str, asked: int, got: int, why: str) -> None:
    """``bower: note: --games 96 rounded up to 384 (WHY)`` when ``got`` differs from ``asked``.

    In a library function the argument is named as there: ``games=96``.
    """
    if got == asked:
        return
    name = flag.lstrip("-").replace("-", "_") + "=" if in_library() else flag + " "
    notice(f"{name}{asked:,} rounded up to {got:,} ({why})")


class Progress:
    """Callable ``progress(done, total)`` that redraws a one-line bar at most ten times a second.

    ``enabled``: None draws the bar when the stream is a terminal and
    ``--quiet`` is off. The time left is estimated from the seconds since the
    bar started less those Numba spent compiling meanwhile (``compile_clock``).
    """

    def __init__(self, label: str, enabled: bool | None = None, stream=None, clock=time.perf_counter,
                 compile_clock=compile_seconds):
        self.stream = stream or sys.stderr
        self.enabled = (self.stream.isatty() and not _quiet) if enabled is None else enabled
        self.label = label
        self.clock, self.compile_clock = clock, compile_clock
        self.t0 = clock()
        self.c0 = compile_clock()
        self.last = float("-inf")
        self.drawn = False

    def elapsed(self) -> float:
        """Seconds of work since the bar started: compile time left out."""
        return max(self.clock() - self.t0 - (self.compile_clock() - self.c0), 0.0)

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = self.clock()
        if done < total and now - self.last < 0.1:
            return
        self.last = now
        frac = min(done / total, 1.0) if total else 1.0
        elapsed = self.elapsed()
        left = elapsed * (1 - frac) / frac if frac > 0 else float("nan")
        width = 30
        bar = "#" * int(width * frac) + "." * (width - int(width * frac))
        eta = f"{left:5.0f} s left" if frac < 1 and left == left else f"{elapsed:5.1f} s"
        self.stream.write(f"\r{self.label} [{bar}] {100 * frac:5.1f}% {done:,}/{total:,} {eta}")
        self.stream.flush()
        self.drawn = True
        if self not in _active:
            _active.append(self)

    def close(self) -> None:
        """End the bar's line (if one was drawn)."""
        if self in _active:
            _active.remove(self)
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
            self.drawn = False
