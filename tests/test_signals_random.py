"""SIGINT, SIGTERM and SIGHUP at random moments of real runs (issue 33): the status, one line, a quick end, no file.

Each example starts a command in a child process, waits until bower's
handlers are in place (the process catches SIGTERM and SIGHUP, as
``/proc/PID/status`` shows; before that the interpreter is still starting
and Python's defaults apply), then for a delay hypothesis draws (0 to 3 s:
while the kernels load, while records stream out, while hands are solved,
while Numba compiles), and sends one signal, or SIGINT and at once SIGTERM.
The run must end with 130, 143 or 129 (for two signals sent together, either
one's: pending signals may be taken in either order), print exactly one line
on stderr (``bower: interrupted`` / ``terminated`` / ``hung up``; the
compile notice aside) and nothing on stdout, end within ``BOUND`` seconds
of the signal, leave nothing in its folder but its input (no output under
the requested name, no hidden ``.bower-*.part`` beside it) and no process
of its own behind it (each child's environment carries a tag of its own,
which its Dask worker processes inherit; those still there ``LINGER_S``
after the end are named, then killed).

The commands: ``simulate --records`` into JSONL and into Parquet, ``solve
--records`` of a Euchre file, two PIMC runs of the Ghost Hand (``simulate
--strategy pimc-fast --records``, and ``should-bid --playout pimc``, which
prints its answer on stdout only at the end), a ``simulate --records``
that must compile its kernels (a Numba cache folder of its own, empty),
and two runs on a Dask ``--scheduler local:2`` of their own (``simulate
--records``, and ``simulate --strategy pimc-fast --records`` whose delays
are stretched to 5.2 s: the signals land while the modules load, while the
worker processes start and load their kernels, and inside their PIMC
kernel calls). In the PIMC runs on this machine's threads the first
examples' signals land while the modules load, the later ones' (1.4 and
2.6 s) inside the one long PIMC kernel call (a stack dump at those moments
showed it, 2026-12, on a loaded 2-core machine). Hypothesis runs with a
fixed seed and without shrinking (each example is a process); its first
examples draw every signal set, which the test asserts. The children wait
in a subprocess while the test sleeps: the file is one ``xdist_group`` so
that two of its children never run at once on the 2 cores ``make test``
uses (about 80 s of wall time on a loaded 2-core machine, 20 s of it the
two ``local:2`` runs).
"""

from __future__ import annotations

import os
import shutil
import contextlib
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import pytest
from hypothesis import Phase, given, seed, settings
from hypothesis import strategies as st

from bower.sim import runner
from tests.cli_run import COMPILE_NOTICE, ROOT, listing

pytestmark = pytest.mark.xdist_group("signals-random")

BOUND = 10.0  # seconds from the signal to the end (2 s asked; CI machines are loaded, so room is left)
STATUS = {signal.SIGINT: (130, "interrupted"), signal.SIGTERM: (143, "terminated"), signal.SIGHUP: (129, "hung up")}
SIGNAL_SETS = ((signal.SIGINT,), (signal.SIGTERM,), (signal.SIGHUP,), (signal.SIGINT, signal.SIGTERM))
EXAMPLES = 4  # per command: the fixed seed's first four draw each of SIGNAL_SETS once (delays 0, 0.7, 1.4, 2.6 s)

# a child that takes SIGINT and SIGHUP as a shell's foreground command does (pytest's may have changed them)
# (and on SIGUSR1 writes every thread's stack to stderr: what a run that does not end was doing)
CHILD = ("import faulthandler, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
         "signal.signal(signal.SIGHUP, signal.SIG_DFL); faulthandler.register(signal.SIGUSR1, all_threads=True); "
         "from bower.sim.cli import main; main(sys.argv[1:])")

COMMANDS = {
    # hands enough for minutes: every delay lands inside the run
    "simulate-jsonl": ["simulate", "--hands", "1e9", "--threads", "1", "--records", "out.jsonl"],
    "simulate-parquet": ["simulate", "--hands", "1e9", "--threads", "1", "--records", "out.parquet"],
    # 20,000 Euchre hands solved on one thread: about 17 s on a quiet core
    "solve": ["solve", "--records", "in.jsonl", "--out", "out.jsonl", "--threads", "1"],
    # PIMC: every seat's card chosen by searching sampled worlds (one kernel call runs for minutes on one thread)
    "simulate-pimc": ["simulate", "--strategy", "pimc-fast", "--hands", "1e6", "--threads", "1", "--records",
                      "out.jsonl"],
    "should-bid-pimc": ["should-bid", "JH JD AH KH 9S TC", "--playout", "pimc", "--samples", "1e4", "--threads", "1"],
    # kernels not in the (empty) cache: the signal lands while the interpreter imports or Numba compiles
    "compile": ["simulate", "--variant", "cutthroat", "--hands", "1000", "--threads", "1", "--records", "out.jsonl"],
    # Dask local:2: two worker processes of the run's own, each one's kernels called as tasks
    "simulate-local": ["simulate", "--hands", "1e9", "--threads", "1", "--scheduler", "local:2", "--records",
                       "out.jsonl"],
    "simulate-pimc-local": ["simulate", "--strategy", "pimc-fast", "--hands", "1e6", "--threads", "1", "--scheduler",
                            "local:2", "--records", "out.jsonl"],
}
# the drawn delay times this for a command: the local:2 PIMC run's workers start about 1.5 s after the handlers
# and are inside their PIMC kernel calls from about 4 s (2026-12, a loaded 2-core machine), so its delays (0, 1.4,
# 2.8 and 5.2 s) land while the modules load, while the workers start, while they load their kernels, and inside
# the kernel calls
STRETCH = {"simulate-pimc-local": 2.0}
TAG = "BOWER_SIGNALS_RANDOM_RUN"  # set in a child's environment, so in its worker processes' too: which are its
LINGER_S = 2.0  # seconds a process of the run may take to be gone once the run has ended


@pytest.fixture(scope="module")
def euchre_records(tmp_path_factory) -> Path:
    """20,000 Euchre records (``bower simulate --variant euchre --hands 20000 --seed 5 --records``)."""
    path = tmp_path_factory.mktemp("solve-input") / "in.jsonl"
    runner.simulate(variant="euchre", hands=20000, seed=5, records_path=str(path))
    return path


def _caught(pid: int) -> int:
    """The signals process ``pid`` catches, as a bit mask (bit ``s - 1`` for signal ``s``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return int(line.split()[1], 16)
    return 0


def _handlers_in_place(proc: subprocess.Popen, deadline: float) -> None:
    """Wait until ``proc`` catches SIGTERM and SIGHUP: bower's ``main`` has put its handlers in place."""
    want = 1 << (signal.SIGTERM - 1) | 1 << (signal.SIGHUP - 1)
    while _caught(proc.pid) & want != want:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the child never put its signal handlers in place"
        time.sleep(0.005)


def _tagged(tag: str) -> list[tuple[int, str]]:
    """(pid, command line) of every live process with ``TAG=tag`` in its environment (zombies are ended)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            if f"{TAG}={tag}".encode() not in Path(f"/proc/{name}/environ").read_bytes().split(b"\0"):
                continue
            state = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()[0]
            cmdline = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # ended meanwhile, or another user's
            continue
        if state != "Z":
            found.append((int(name), cmdline[:200]))
    return found


def _left_behind(tag: str) -> list[tuple[int, str]]:
    """The processes of a run (its workers, its children) still there ``LINGER_S`` after it ended (then killed)."""
    deadline = time.monotonic() + LINGER_S
    while (left := _tagged(tag)) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid, _ in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return left


def _stop(command: str, folder: Path, signals: tuple, delay: float, cache: str | None) -> tuple:
    """Start ``COMMANDS[command]`` in ``folder``; ``delay`` s after its handlers are in place send ``signals``.

    (status, stdout, stderr lines without the compile notice, seconds from the signal to the end, the processes
    of the run left behind).
    """
    env = dict(os.environ)
    tag = uuid.uuid4().hex
    env[TAG] = tag
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(ROOT)) if p)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    cmd = [sys.executable, "-c", CHILD, *COMMANDS[command]]
    with subprocess.Popen(cmd, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as proc:
        try:
            _handlers_in_place(proc, time.monotonic() + 120)
            time.sleep(delay)
            assert proc.poll() is None, ("the run ended before the signal", proc.communicate())
            sent = time.monotonic()
            for sig in signals:
                proc.send_signal(sig)
            try:
                out, err = proc.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                proc.send_signal(signal.SIGUSR1)  # its threads' stacks, then the end
                time.sleep(2)
                proc.kill()
                out, err = proc.communicate()
                pytest.fail(f"{command}: still running 60 s after {signals} ({delay:.3f} s after the handlers); "
                            f"its stderr:\n{err}")
            took = time.monotonic() - sent
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    lines = [ln for ln in err.splitlines() if not ln.startswith(COMPILE_NOTICE)]
    return proc.returncode, out, lines, took, _left_behind(tag)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_signal_at_a_random_moment(tmp_path, euchre_records, command):
    drawn = []

    @seed(288)
    @settings(max_examples=EXAMPLES, deadline=None, database=None, phases=[Phase.explicit, Phase.generate])
    @given(signals=st.sampled_from(SIGNAL_SETS), delay=st.integers(0, 3000))
    def check(signals, delay):
        drawn.append(signals)
        folder = Path(tempfile.mkdtemp(dir=tmp_path))
        inputs = []
        if command == "solve":
            os.link(euchre_records, folder / "in.jsonl")
            inputs = ["in.jsonl"]
        cache = tempfile.mkdtemp(dir=tmp_path, prefix="numba-") if command == "compile" else None
        try:
            code, out, lines, took, left = _stop(command, folder, signals, STRETCH.get(command, 1.0) * delay / 1000,
                                                 cache)
        finally:
            if cache is not None:
                shutil.rmtree(cache)
        what = (f"{command}, {'+'.join(signal.Signals(s).name for s in signals)} "
                f"{STRETCH.get(command, 1.0) * delay:.0f} ms after the handlers")
        assert (code, out, lines) in [(c, "", [f"bower: {word}"]) for c, word in map(STATUS.get, signals)], \
            (what, code, out, lines)
        assert took < BOUND, f"{what}: ended {took:.1f} s after the signal"
        assert listing(folder) == inputs, (what, listing(folder))  # no output, no .bower-*.part
        assert left == [], f"{what}: its processes left behind: {left}"  # local:N's workers killed and joined
        shutil.rmtree(folder)

    check()
    assert set(drawn) == set(SIGNAL_SETS), f"the examples drew {drawn}: raise EXAMPLES to cover every signal set"


# ---------------------------------------------------------------- a stop whose exception CPython loses

def _lose_the_stop(sig):
    """A stand-in that takes ``sig`` and then, as CPython's import code may (the child runs above met it: a SIGINT
    while NumPy imported ``_distributor_init_local`` gave ``TypeError: expected a message argument``, a traceback
    and status 1), raises another exception in place of the handler's."""

    def call(*a, **k):
        try:
            os.kill(os.getpid(), sig)
            end = time.monotonic() + 2
            while time.monotonic() < end:  # the handler runs here, between bytecodes
                time.sleep(0.001)
        except KeyboardInterrupt:
            raise TypeError("expected a message argument") from None
        pytest.fail(f"signal {sig} was not acted on")

    return call


@pytest.mark.parametrize("where", ["imports", "command"])
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_stop_whose_exception_is_lost_is_still_the_stop(capsys, monkeypatch, where, sig):
    from bower.sim import progress, rules
    from tests.cli_run import run

    if where == "imports":  # while main loads NumPy and Numba, before the command
        monkeypatch.setattr(progress, "watch_compiles", _lose_the_stop(sig))
    else:  # inside the command
        monkeypatch.setattr(rules, "get_variant", _lose_the_stop(sig))
    code, word = STATUS[sig]
    assert run(capsys, "strategies") == (code, "", f"bower: {word}\n")


def _stop_in_a_callback(sig):
    """A stand-in that takes ``sig`` inside a ctypes callback, as a SIGHUP inside llvmlite's object cache notice
    did while a kernel loaded (the handler's exception only printed, "Exception ignored on calling ctypes callback
    function", and ``simulate --hands 1e9`` ran on, every later signal ignored)."""
    import ctypes

    def body():
        os.kill(os.getpid(), sig)
        end = time.monotonic() + 2
        while time.monotonic() < end:  # the handler runs here, and Python cannot pass its exception on
            time.sleep(0.001)

    callback = ctypes.CFUNCTYPE(None)(body)

    def call(*a, **k):
        callback()
        end = time.monotonic() + 2
        while time.monotonic() < end:  # the stop is raised again here, out of the callback
            time.sleep(0.001)
        pytest.fail(f"signal {sig} was lost in the callback")

    return call


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_stop_inside_a_ctypes_callback_is_raised_again(capsys, monkeypatch, sig):
    from bower.sim import rules
    from tests.cli_run import run

    monkeypatch.setattr(rules, "get_variant", _stop_in_a_callback(sig))
    code, word = STATUS[sig]
    assert run(capsys, "strategies") == (code, "", f"bower: {word}\n")
    assert sys.unraisablehook is not None and sys.unraisablehook.__module__ != "bower.sim.cli"  # put back
