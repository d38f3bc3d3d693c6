"""Running the ``bower`` command line inside a test: the helpers every CLI test uses."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bower.sim.cli import main


COMPILE_NOTICE = "bower: compiling kernels"


class FullFile:
    """A file object whose writes fail with ENOSPC, as a full disk's do (the fault tests' disk that fills)."""

    def __init__(self, real):
        self.real = real

    def write(self, data):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def close(self):
        self.real.close()


def run_raw(capsys, *args):
    """Run ``bower ARGS`` in-process: (exit status, stdout, stderr as printed)."""
    with pytest.raises(SystemExit) as e:
        main(list(args))
    out, err = capsys.readouterr()
    return e.value.code, out, err


def run(capsys, *args):
    """``run_raw`` with the compile notice left out of stderr.

    The notice appears only when the worker's kernel cache is cold, so a test's
    view of stderr leaves it out (``tests/test_cli_conventions.py`` tests it with ``run_raw``).
    """
    code, out, err = run_raw(capsys, *args)
    err = "".join(line for line in err.splitlines(keepends=True) if not line.startswith(COMPILE_NOTICE))
    return code, out, err


def one_error(capsys, *args) -> str:
    """Run a command that must fail: status 2, nothing on stdout, one ``bower: error:`` line; the line."""
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, ""), err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bower: error: "), err
    return lines[0]


def listing(folder: Path) -> list[str]:
    """Every name in ``folder``, hidden ones (``.bower-*``) included."""
    return sorted(os.listdir(folder))


ROOT = Path(__file__).resolve().parent.parent

# a child that takes SIGINT and SIGHUP as a shell's foreground command does (pytest's may have changed them)
_CHILD = ("import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
          "signal.signal(signal.SIGHUP, signal.SIG_DFL); from bower.sim.cli import main; main(sys.argv[1:])")


def stop_a_run(folder: Path, signals: list[int], ext: str = "jsonl") -> subprocess.CompletedProcess:
    """Start a long ``simulate --records out.EXT`` in ``folder``, wait until records stream into its hidden part
    file, send ``signals`` (in order); the finished process.

    The part file exists (and a Parquet one has its header) before the
    kernels are loaded, so the signals wait for the file to pass 256 KiB:
    batches of records are then being written. Loading the kernels can take
    minutes on a busy machine (or a compile after a kernel edit), hence the
    generous wait. The child imports this checkout's package (``PYTHONPATH``
    kept in front, for a tree linked as another's package).
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(ROOT)) if p)
    args = [sys.executable, "-c", _CHILD, "simulate", "--hands", "1e9", "--threads", "1", "--records", f"out.{ext}"]
    with subprocess.Popen(args, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as proc:
        try:
            deadline = time.monotonic() + 900
            while time.monotonic() < deadline:
                parts = [p for p in folder.iterdir() if p.name.startswith(".bower-") and p.name.endswith(".part")]
                if parts and parts[0].stat().st_size > 256 * 1024:
                    break
                assert proc.poll() is None, proc.communicate()
                time.sleep(0.05)
            else:
                pytest.fail("the run never started writing records")
            for sig in signals:
                proc.send_signal(sig)
            out, err = proc.communicate(timeout=120)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    err = "".join(line for line in err.splitlines(keepends=True) if not line.startswith(COMPILE_NOTICE))
    return subprocess.CompletedProcess(args, proc.returncode, out, err)


def cpu_seconds(pid: int, tid: int | None = None) -> float:
    """The CPU seconds (user and system) process ``pid`` (or its thread ``tid``) has used so far (Linux's ``/proc``)."""
    path = f"/proc/{pid}/stat" if tid is None else f"/proc/{pid}/task/{tid}/stat"
    fields = Path(path).read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def worker_cpu_seconds(pid: int) -> float:
    """The most CPU seconds any thread of process ``pid`` but its main one has used so far (0 without one)."""
    most = 0.0
    try:
        tids = [int(t) for t in os.listdir(f"/proc/{pid}/task") if int(t) != pid]
    except FileNotFoundError:  # the process has ended
        return most
    for tid in tids:
        try:
            most = max(most, cpu_seconds(pid, tid))
        except (FileNotFoundError, ProcessLookupError):  # a thread that ended meanwhile
            pass
    return most


def stop_in_a_kernel(folder: Path, args: list[str], sig: int, worker_cpu: float = 0.5
                     ) -> tuple[subprocess.CompletedProcess, float]:
    """Run ``bower ARGS`` in ``folder``, send ``sig`` once one of its threads other than the main one has used
    ``worker_cpu`` CPU seconds; (the finished process, the seconds from the signal to its end).

    Called from the main thread, a chunk kernel (``kernels/jit.py``,
    ``ChunkKernel``) runs every share in a worker thread while the main
    thread only waits, and until a run's first kernel call returns nothing
    else in it spends CPU seconds outside the main thread (the records
    threads prepare and write what a call returned): the first thread but
    the main one to use ``worker_cpu`` seconds of CPU is inside the run's
    first kernel call, and has been for that long. CPU seconds rather than
    seconds of the clock, so that a busy machine makes the wait longer, never
    the signal early; the run's imports and kernel loading (about a CPU
    second, all in the main thread) never count.
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (os.environ.get("PYTHONPATH"), str(ROOT)) if p)
    cmd = [sys.executable, "-c", _CHILD, *args]
    with subprocess.Popen(cmd, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True) as proc:
        try:
            deadline = time.monotonic() + 900
            while worker_cpu_seconds(proc.pid) < worker_cpu:
                # a run that ends first made no long call in a worker thread (one in the main thread, say)
                assert proc.poll() is None, ("the run ended before a worker thread used "
                                             f"{worker_cpu} CPU s", proc.communicate())
                assert time.monotonic() < deadline, "the run never got going"
                time.sleep(0.05)
            sent = time.monotonic()
            proc.send_signal(sig)
            out, err = proc.communicate(timeout=300)
            took = time.monotonic() - sent
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()
    err = "".join(line for line in err.splitlines(keepends=True) if not line.startswith(COMPILE_NOTICE))
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err), took
