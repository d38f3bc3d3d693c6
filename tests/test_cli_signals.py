"""SIGINT, SIGTERM and SIGHUP (issue 33): 130, 143 and 129, one line, and a cleanup no later signal cuts short.

The in-process tests send real signals to this process while a command
writes its tables (or records) and while it cleans up, through the CLI's own
handlers; the last ones stop a real ``simulate --records`` in a child process.
"""

from __future__ import annotations

import os
import shutil
import signal
import time

import pytest

from bower.sim import records as rec_mod
from bower.sim import runner
from bower.sim.errors import HungUp, Stopped, Terminated
from tests.cli_run import listing, run, stop_a_run, stop_in_a_kernel


def _wait_for_handler(seconds: float = 2.0) -> None:
    """Run Python for a moment, so that a signal just sent to this process reaches its handler here."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        time.sleep(0.001)


@pytest.fixture
def records(tmp_path):
    rec = tmp_path / "r.jsonl"
    runner.simulate(hands=300, records_path=str(rec))
    return rec


def _signal_on_second_table(monkeypatch, sig) -> list:
    """Make the second CSV table written send ``sig`` to this process; the list returned holds it once sent."""
    import pandas as pd

    real, count, sent = pd.DataFrame.to_csv, [], []

    def to_csv(self, *a, **k):
        count.append(1)
        if len(count) == 2:
            sent.append(sig)
            os.kill(os.getpid(), sig)
            _wait_for_handler()
            pytest.fail(f"signal {sig} was not acted on")
        return real(self, *a, **k)

    monkeypatch.setattr(pd.DataFrame, "to_csv", to_csv)
    return sent


@pytest.mark.parametrize("sig, status, word", [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated"),
                                              (signal.SIGHUP, 129, "hung up")])
def test_a_signal_while_the_tables_are_written(capsys, tmp_path, monkeypatch, records, sig, status, word):
    _signal_on_second_table(monkeypatch, sig)
    code, out, err = run(capsys, "analyze", str(records), "--csv", str(tmp_path / "tables"))
    assert (code, out, err) == (status, "", f"bower: {word}\n")
    assert listing(tmp_path) == ["r.jsonl", "r.jsonl.meta.json"]  # no .bower-*/ staging folder


@pytest.mark.parametrize("second", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_second_signal_does_not_cut_the_cleanup_short(capsys, tmp_path, monkeypatch, records, second):
    # SIGINT, then another signal while the staging folder is being removed: the cleanup finishes, status 130
    sent = _signal_on_second_table(monkeypatch, signal.SIGINT)
    real_rmtree, seen = shutil.rmtree, []

    def rmtree(path, *a, **k):
        if not sent:  # the check of the output folder, before the tables
            return real_rmtree(path, *a, **k)
        seen.append(path)
        os.kill(os.getpid(), second)
        _wait_for_handler(0.2)  # the handler, if it raised, would raise here, before the folder is gone
        return real_rmtree(path, *a, **k)

    monkeypatch.setattr(shutil, "rmtree", rmtree)
    code, out, err = run(capsys, "analyze", str(records), "--csv", str(tmp_path / "tables"))
    assert (code, out, err) == (130, "", "bower: interrupted\n")
    assert seen and listing(tmp_path) == ["r.jsonl", "r.jsonl.meta.json"]


def test_a_second_signal_during_the_records_cleanup(capsys, tmp_path, monkeypatch):
    # SIGTERM at the second batch of records, SIGINT and SIGHUP while the hidden part file is removed
    real_put, real_abort, calls = rec_mod.JsonlWriter.put, rec_mod._AtomicFile.abort, []

    def put(self, data):
        calls.append(len(data))
        if len(calls) == 2:
            os.kill(os.getpid(), signal.SIGTERM)
        return real_put(self, data)

    def abort(self):
        os.kill(os.getpid(), signal.SIGINT)
        os.kill(os.getpid(), signal.SIGHUP)
        _wait_for_handler(0.2)
        return real_abort(self)

    monkeypatch.setattr(rec_mod.JsonlWriter, "put", put)
    monkeypatch.setattr(rec_mod._AtomicFile, "abort", abort)
    hands = 40 * runner.RECORD_BATCH_CHUNKS * runner.CHUNK_SIZE
    code, out, err = run(capsys, "simulate", "--hands", str(hands), "--threads", "1", "--records",
                         str(tmp_path / "out.jsonl"))
    assert (code, out, err) == (143, "", "bower: terminated\n")
    assert len(calls) >= 2 and listing(tmp_path) == []


def test_the_handlers_are_put_back_and_nohup_is_respected(capsys, monkeypatch):
    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    from bower.sim import rules
    from bower.sim.cli import _on_signal

    during = []
    real = rules.get_variant

    def get_variant(name):
        during.append({s: signal.getsignal(s) for s in before})
        return real(name)

    monkeypatch.setattr(rules, "get_variant", get_variant)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # as nohup leaves it
    try:
        assert run(capsys, "strategies")[0] == 0
        assert during[0][signal.SIGHUP] == signal.SIG_IGN  # still ignored: nohup's choice stands
        assert during[0][signal.SIGTERM] is _on_signal
        assert during[0][signal.SIGINT] is (_on_signal if before[signal.SIGINT] is signal.default_int_handler
                                            else before[signal.SIGINT])
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, before[signal.SIGHUP])
    during.clear()
    assert run(capsys, "strategies")[0] == 0
    assert during[0][signal.SIGHUP] is _on_signal
    assert {s: signal.getsignal(s) for s in before} == before  # main() restores what it replaced


def test_the_handler_ignores_every_later_signal(monkeypatch):
    from bower.sim.cli import _ignore, _on_signal

    before = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    try:
        for s in before:
            signal.signal(s, _on_signal)
        with pytest.raises(HungUp):
            _on_signal(signal.SIGHUP, None)
        assert signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
        assert signal.getsignal(signal.SIGINT) is signal.getsignal(signal.SIGTERM) is _ignore
    finally:
        for s, h in before.items():
            signal.signal(s, h)
    assert issubclass(HungUp, Terminated) and issubclass(Terminated, KeyboardInterrupt)
    assert (Stopped(hung_up=True).exit_code, Stopped(hung_up=True).format_message()) == (129, "hung up")


# ---------------------------------------------------------------- a real run in a child process

STOP = {signal.SIGINT: (130, "interrupted"), signal.SIGTERM: (143, "terminated"), signal.SIGHUP: (129, "hung up")}


@pytest.mark.parametrize("signals", [[signal.SIGHUP], [signal.SIGINT, signal.SIGTERM],
                                     [signal.SIGINT, signal.SIGHUP, signal.SIGTERM]],
                         ids=lambda s: "-".join(map(str, s)))
def test_a_real_run_stopped_leaves_nothing(tmp_path, signals):
    # signals sent together may be taken in either order (pending ones run lowest number first): the status
    # and the line are one signal's, never a traceback, and the cleanup is whole
    done = stop_a_run(tmp_path, signals)
    assert done.stdout == ""
    assert (done.returncode, done.stderr) in [(code, f"bower: {word}\n") for code, word in map(STOP.get, signals)]
    assert listing(tmp_path) == []


# A stop inside a long kernel call: the main thread waits on the kernel's threads in slices (kernels/jit.py
# ChunkKernel), so the handler runs at once rather than when the call returns. On one thread a records batch of
# pimc-fast (4 chunks of 4,096 hands, about 1 s of CPU to get there, in the main thread) is one call of about 55
# CPU seconds (2026-12, a shared 2-core machine: 300 hands a second), and should-bid's 2,000 PIMC play-outs one of
# about 43; either is the run's first kernel call to last, run by a worker thread. The signal, sent once that
# worker has used half a CPU second (``stop_in_a_kernel``), lands well inside the call, and the process used to
# end only when the call did (51 s after a SIGTERM); now within a tenth of a second. The bound of 5 s leaves room
# for a busy machine.
LONG_CALLS = {
    "simulate": ["simulate", "--strategy", "pimc-fast", "--hands", "16384", "--threads", "1", "--seed", "3",
                 "--records", "out.jsonl"],
    "should-bid": ["should-bid", "JH JD AH KH 9S TC", "--playout", "pimc", "--samples", "2000", "--threads", "1",
                   "--seed", "4"],
}


@pytest.mark.parametrize("command", sorted(LONG_CALLS))
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_inside_a_long_kernel_call_stops_at_once(tmp_path, command, sig):
    done, took = stop_in_a_kernel(tmp_path, LONG_CALLS[command], sig, worker_cpu=0.5)
    code, word = STOP[sig]
    assert (done.returncode, done.stdout, done.stderr) == (code, "", f"bower: {word}\n")
    assert took < 5.0, f"ended {took:.1f} s after the signal"
    assert listing(tmp_path) == []  # no .bower-*.part left


def _swallow_the_stop(real, sig):
    """``real`` after taking ``sig`` and swallowing the handler's exception, as C code that clears Python's errors
    does (Numba's dispatcher around the Python it calls): the stop never reaches the command."""

    sent = []

    def call(*a, **k):
        if sent:  # the first call only
            return real(*a, **k)
        sent.append(sig)
        try:
            os.kill(os.getpid(), sig)
            _wait_for_handler()
        except KeyboardInterrupt:
            return real(*a, **k)  # swallowed: the command goes on
        pytest.fail(f"signal {sig} was not acted on")

    return call


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
def test_a_stop_swallowed_before_a_kernel_call_is_raised_there(capsys, monkeypatch, sig):
    """A stop whose exception was swallowed (``should-bid --playout pimc`` ran on for minutes after a SIGTERM,
    every later signal ignored) is raised again, once, when the main thread starts or waits on a kernel call."""
    from bower.kernels import jit
    from bower.sim import rules

    monkeypatch.setattr(rules, "get_variant", _swallow_the_stop(rules.get_variant, sig))
    code, word = STOP[sig]
    assert run(capsys, "simulate", "--hands", "2000000", "--threads", "1") == (code, "", f"bower: {word}\n")
    assert jit._wait_check[0] is None  # disarmed when main returns: the library's calls are not checked


def test_a_stop_swallowed_before_a_dask_task_is_raised_while_waiting_on_it(capsys, monkeypatch):
    """The same on a ``local:1`` run: the main thread waits on the workers' tasks, not on kernel threads."""
    from bower.sim import rules

    monkeypatch.setattr(rules, "get_variant", _swallow_the_stop(rules.get_variant, signal.SIGTERM))
    assert run(capsys, "simulate", "--hands", "2000000", "--threads", "1", "--scheduler", "local:1") == (
        143, "", "bower: terminated\n")


def test_a_kernel_call_while_a_stop_cleans_up_raises_no_second_stop(monkeypatch):
    """Cleanup code that calls a kernel while the stop is on its way out (an ``except`` or ``finally`` block)
    gets no second stop from the lost-stop check: the stop is not lost."""
    from bower.sim import cli as cli_mod

    monkeypatch.setattr(cli_mod, "_RECEIVED", [signal.SIGTERM])
    monkeypatch.setattr(cli_mod, "_RAISED_AGAIN", [])
    with pytest.raises(Terminated):
        try:
            raise Terminated()
        finally:
            cli_mod._lost_stop()  # the stop propagates: nothing raised here
    assert cli_mod._RAISED_AGAIN == []
    with pytest.raises(Terminated):
        cli_mod._lost_stop()  # no stop on its way: lost, raised again once
    cli_mod._lost_stop()  # and only once
