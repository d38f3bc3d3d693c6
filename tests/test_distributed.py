"""Distributed runs (``bower.sim.distributed``): a Dask LocalCluster of 2 worker processes gives the local numbers.

One cluster serves the module (``threads_per_worker=1``: each worker runs one
job at a time on its share of Numba threads). Every run is compared with the
same run on this machine's threads: summaries field by field (timings and
where it ran left out), records byte for byte. Faults: a worker killed in
the middle of a run, a scheduler that cannot be reached, one lost for good.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

distributed = pytest.importorskip("distributed")

from bower.sim import advice, distributed as dist, experiment, runner  # noqa: E402
from bower.sim.errors import UserError  # noqa: E402
from tests.cli_run import FullFile, listing, one_error, run  # noqa: E402

WHERE = {"elapsed_s", "hands_per_second", "games_per_second", "warm_up_s", "compiled", "threads", "workers",
         "scheduler"}


def same(a: dict, b: dict) -> None:
    """``a`` and ``b`` equal in every field but timings and where the run went."""
    assert {k: v for k, v in a.items() if k not in WHERE} == {k: v for k, v in b.items() if k not in WHERE}


@pytest.fixture(scope="module")
def cluster():
    c = dist.local_cluster(2)  # as --scheduler local:2 starts it: threads_per_worker=1
    yield c
    c.close()


@pytest.fixture
def address(cluster):
    return cluster.scheduler_address


def test_hands_summary_same_as_threads(address):
    local1 = runner.simulate(hands=20_000, seed=11, threads=1)
    local2 = runner.simulate(hands=20_000, seed=11, threads=min(2, runner.max_threads()))
    remote = runner.simulate(hands=20_000, seed=11, scheduler=address)
    assert remote["workers"] == 2 and remote["hands"] == 20_000
    same(local1, local2)
    same(local1, remote)


def test_records_stream_in_hand_order(address, tmp_path, monkeypatch):
    runner.simulate(hands=9_000, seed=4, records_path=str(tmp_path / "local.jsonl"))
    monkeypatch.setattr(runner, "RECORD_BATCH_CHUNKS", 1)  # 3 tasks of one chunk: they finish in any order
    runner.simulate(hands=9_000, seed=4, records_path=str(tmp_path / "dask.jsonl"), scheduler=address)
    assert (tmp_path / "local.jsonl").read_bytes() == (tmp_path / "dask.jsonl").read_bytes()
    assert listing(tmp_path) == ["dask.jsonl", "dask.jsonl.meta.json", "local.jsonl", "local.jsonl.meta.json"]


def test_games_experiment_sweep_same(address):
    same(runner.simulate_games(games=200, seed=2, variant="cutthroat"),
         runner.simulate_games(games=200, seed=2, variant="cutthroat", scheduler=address))
    a = experiment.run_experiment(["default", "aggressive"], games=800, seed=3)
    b = experiment.run_experiment(["default", "aggressive"], games=800, seed=3, scheduler=address)
    same(a, b)
    assert b["games"] == a["games"] > 0
    s1 = experiment.run_sweep(["bid_3=2.6:2.8:0.2"], games=400, seed=1)
    s2 = experiment.run_sweep(["bid_3=2.6:2.8:0.2"], games=400, seed=1, scheduler=address)
    same(s1, s2)


@pytest.mark.parametrize("model", ["softmax", "exact"])
def test_should_bid_same(address, model, monkeypatch):
    import cloudpickle

    sent = []
    submit = dist.Dask._submit
    monkeypatch.setattr(dist.Dask, "_submit", lambda self, fn, job, **kw: (sent.append(cloudpickle.dumps((fn, job))),
                                                                         submit(self, fn, job, **kw))[1])
    q = {"position": 1, "calls": None, "swapped": None, "bid": None, "scores": None, "upcard": None,
         "model": {"kind": model, "tau": None, "epsilon": None}, "playout": "strategy"}
    a = advice.advise("ghost", "JH JD AH KH QH TH", q, samples=3000, seed=5)
    b = advice.advise("ghost", "JH JD AH KH QH TH", q, samples=3000, seed=5, scheduler=address)
    assert b["workers"] == 2
    same(a, b)
    assert len(sent) >= 3 and not any(b"Dispatcher" in p or b"numba" in p for p in sent)  # kernels named, not sent


def test_worker_threads_are_its_share(address):
    with dist.session(address) as ex:
        got = list(ex.map(dist.numba_threads, range(4)))
    cores = len(os.sched_getaffinity(0))
    assert got == [max(1, cores // 2)] * 4


def test_worker_killed_mid_run(cluster, tmp_path, monkeypatch):
    """A worker process killed while its tasks run: they run again elsewhere and the records do not change."""
    runner.simulate(hands=40_000, seed=9, records_path=str(tmp_path / "local.jsonl"))
    monkeypatch.setattr(runner, "RECORD_BATCH_CHUNKS", 1)  # 10 tasks
    client = distributed.Client(cluster)
    pids = client.run(os.getpid)
    killed = []

    def progress(done, total):
        if not killed:
            victim = sorted(pids.values())[-1]
            os.kill(victim, signal.SIGKILL)
            killed.append(victim)

    try:
        s = runner.simulate(hands=40_000, seed=9, records_path=str(tmp_path / "dask.jsonl"), scheduler=client,
                            progress=progress)
        client.wait_for_workers(2, timeout=60)
        after = client.run(os.getpid)
    finally:
        client.close()
    assert killed and killed[0] not in after.values()  # the nanny started a new process
    assert s["hands"] == 40_000
    assert (tmp_path / "local.jsonl").read_bytes() == (tmp_path / "dask.jsonl").read_bytes()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_scheduler_one_line(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("BOWER_SCHEDULER_TIMEOUT", "1")
    out = tmp_path / "r.parquet"
    line = one_error(capsys, "simulate", "--hands", "5000", "--records", str(out), "--scheduler",
                     f"tcp://127.0.0.1:{_free_port()}")
    assert "cannot reach the Dask scheduler" in line
    assert listing(tmp_path) == []
    assert "local:N" in one_error(capsys, "experiment", "default", "aggressive", "--scheduler", "local:0")


def test_scheduler_from_environment(capsys, address, monkeypatch):
    monkeypatch.setenv("BOWER_SCHEDULER", address)
    code, out, err = run(capsys, "simulate", "--hands", "5000", "--json", "-q")
    assert code == 0, err
    s = json.loads(out)
    assert s["workers"] == 2 and s["scheduler"] == address


def test_scheduler_lost_for_good(tmp_path):
    """The scheduler killed during a run: one line, exit 2, no records file and no temporary file left."""
    port = _free_port()
    env = dict(os.environ, BOWER_SCHEDULER_TIMEOUT="2")
    bindir = os.path.dirname(sys.executable)
    sched = subprocess.Popen([os.path.join(bindir, "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                              "--no-dashboard"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = subprocess.Popen([os.path.join(bindir, "dask"), "worker", f"tcp://127.0.0.1:{port}", "--nthreads", "1",
                               "--no-dashboard", "--no-nanny"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    out = tmp_path / "r.jsonl"
    try:
        cli = subprocess.Popen([os.path.join(bindir, "bower"), "-q", "simulate", "--hands", "100000000", "--records",
                                str(out), "--scheduler", f"tcp://127.0.0.1:{port}"], env=env, cwd=tmp_path,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and cli.poll() is None:  # the run is under way once records are written
            if any(os.path.getsize(tmp_path / n) > 0 for n in os.listdir(tmp_path) if n.endswith(".part")):
                break
            time.sleep(0.2)
        assert cli.poll() is None, cli.communicate()
        sched.kill()
        _, err = cli.communicate(timeout=120)
    finally:
        for p in (sched, worker):
            p.kill()
            p.wait()
    assert cli.returncode == 2, err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bower: error: lost the Dask scheduler"), err
    assert listing(tmp_path) == []


def test_solve_and_replay_same(capsys, address, tmp_path, monkeypatch):
    recs = tmp_path / "r.jsonl"
    runner.simulate(hands=600, seed=8, records_path=str(recs))
    lines = recs.read_text().splitlines()
    lines[450] = lines[450].replace('"plays":[[', '"plays":[[9,"AS"],[')  # a seat not at the table
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n")
    from bower.sim import replay as rp
    from bower.sim import solve as S

    monkeypatch.setattr(rp, "REPLAY_BATCH", 100)  # 5 tasks, the fifth stops at the bad record
    local = run(capsys, "replay", str(bad), "--dd", "--json")
    remote = run(capsys, "replay", str(bad), "--dd", "--json", "--scheduler", address)
    assert local == remote and local[0] == 2 and local[1].count("\n") == 450
    S.solve_records(str(recs), str(tmp_path / "a.jsonl"), batch=256)
    s = S.solve_records(str(recs), str(tmp_path / "b.jsonl"), batch=256, scheduler=address)
    assert s["workers"] == 2 and s["records"] == 600
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


def test_report_tables_same(capsys, address, tmp_path):
    args = ["report", "--hands", "5000", "--games", "64", "--dd-hands", "500", "--csv", "--json", "-q"]
    assert run(capsys, *args, "--out", str(tmp_path / "a"))[0] == 0
    assert run(capsys, *args, "--out", str(tmp_path / "b"), "--scheduler", address)[0] == 0
    names = sorted(n for n in os.listdir(tmp_path / "a") if n.endswith(".csv"))
    assert len(names) > 10 and names == sorted(n for n in os.listdir(tmp_path / "b") if n.endswith(".csv"))
    for n in names:
        assert (tmp_path / "a" / n).read_bytes() == (tmp_path / "b" / n).read_bytes(), n


def test_worker_cache_folder(monkeypatch, tmp_path):
    """A worker keeps the package's Numba cache on a local disk, its own folder on a shared one or when asked."""
    from bower.sim import dask_worker as dw

    monkeypatch.delenv("BOWER_WORKER_CACHE", raising=False)
    assert dw.filesystem_type("/proc") == "proc"
    monkeypatch.setattr(dw, "filesystem_type", lambda path: "ext4")
    assert dw.cache_dir_for("tcp://10.0.0.7:4000") is None
    monkeypatch.setattr(dw, "filesystem_type", lambda path: "nfs4")
    shared = dw.cache_dir_for("tcp://10.0.0.7:4000")
    assert shared is not None and shared != dw.cache_dir_for("tcp://10.0.0.7:4001")
    assert "/" not in os.path.basename(shared) and ":" not in os.path.basename(shared)
    monkeypatch.setenv("BOWER_WORKER_CACHE", str(tmp_path))
    assert dw.cache_dir_for("w1").startswith(str(tmp_path / "bower-numba") + os.sep)


def test_library_runs_on_the_cluster(address):
    """``import bower`` takes ``scheduler=`` as the commands take ``--scheduler``: the same numbers."""
    import bower

    here = bower.simulate(hands=8_192, seed=13)
    there = bower.simulate(hands=8_192, seed=13, scheduler=address)
    same(here.summary, there.summary)
    assert there.summary["workers"] == 2
    assert here.records().to_json(orient="records") == there.records().to_json(orient="records")
    ex_here = bower.experiment(["default", "aggressive"], games=192, seed=5)
    ex_there = bower.experiment(["default", "aggressive"], games=192, seed=5, scheduler=address)
    same(ex_here.summary, ex_there.summary)


@pytest.mark.parametrize("variant", ["euchre", "cutthroat"])
def test_equity_table_same_for_threads_and_workers(capsys, address, monkeypatch, variant):
    """``bower equity`` / ``bower.equity``: the hands as Dask tasks (2 workers, and ``--scheduler local:1``), in
    batches of one chunk that finish in any order; the table is that of 1 and 2 threads, bit for bit."""
    import numpy as np

    import bower
    from bower.sim import equity as E

    monkeypatch.setattr(runner, "RECORD_BATCH_CHUNKS", 1)  # 5 tasks
    sent = []
    submit = dist.Dask._submit
    monkeypatch.setattr(dist.Dask, "_submit", lambda self, fn, job, **kw: (sent.append(fn.__name__),
                                                                         submit(self, fn, job, **kw))[1])
    args = dict(hands=20_000, seed=3, resamples=5, cache=False)
    one = E.compute(variant, threads=1, **args)
    two = E.compute(variant, threads=min(2, runner.max_threads()), **args)
    assert sent == []
    there = E.compute(variant, scheduler=address, **args)
    assert sent.count("hands_job") == 5
    for t in (two, there):
        assert [k for k in t] == [k for k in one]
        for k in one:
            if k not in ("cpu_s", "wall_s"):
                assert np.array_equal(np.asarray(t[k]), np.asarray(one[k])), k
    df = bower.equity(variant, scheduler=address, **args)
    assert df.attrs["outcomes"] == one["outcomes"]
    code, out, err = run(capsys, "equity", "--variant", variant, "--hands", "20000", "--seed", "3", "--json",
                         "--scheduler", "local:1")
    assert code == 0, err
    assert sent.count("hands_job") == 15  # the library's call and the command's ran theirs as tasks too
    local = json.loads(run(capsys, "equity", "--variant", variant, "--hands", "20000", "--seed", "3", "--json")[1])
    assert {k: x for k, x in json.loads(out).items() if k not in ("cpu_s", "wall_s")} == {
        k: x for k, x in local.items() if k not in ("cpu_s", "wall_s")}


def _nanny_closes(monkeypatch) -> list:
    """The (timeout, reason) of every close of a local worker's nanny from now on (Dask's close, still run)."""
    seen = []
    real = distributed.Nanny.close

    async def close(self, timeout=5, reason="nanny-close"):
        seen.append((timeout, reason))
        return await real(self, timeout=timeout, reason=reason)

    monkeypatch.setattr(distributed.Nanny, "close", close)
    return seen


def test_a_stop_kills_the_local_workers_after_a_short_grace(monkeypatch):
    """A signal's stop (a KeyboardInterrupt through ``session``) gives local:N's worker processes
    ``STOP_GRACE_S`` to close, then kills them: Dask's own close waits 4 s for a worker inside a task, and a
    PIMC kernel call cannot be left before it ends (bower exited 4.1 s after a SIGTERM in ``simulate --strategy
    pimc-fast --scheduler local:2``; now 0.3 s)."""
    seen = _nanny_closes(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        with dist.session("local:1") as ex:
            pids = list(ex.client.run(os.getpid).values())
            busy = ex.client.submit(time.sleep, 600, pure=False)  # a task the worker cannot leave, as a kernel call
            deadline = time.monotonic() + 120
            while not any(ex.client.processing().values()):  # until the worker runs it
                assert busy.status == "pending" and time.monotonic() < deadline, busy.status
                time.sleep(0.01)
            raise KeyboardInterrupt
    assert seen[0] == (dist.STOP_GRACE_S, "bower-stop"), seen
    assert len(pids) == 1
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # killed and joined


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (or is only a zombie awaiting its parent)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def test_an_error_kills_the_local_workers_after_a_short_grace(monkeypatch):
    """An error that ends a ``local:N`` run (bad input found mid-run, a records file that cannot be written) is
    a stop as a signal's: the worker processes get ``STOP_GRACE_S``, then are killed. Dask's own close waited 4 s
    for a worker inside a task (4.0 s measured here from the error to the end of the session; now 0.2 s). The
    close's own timeout is checked, not the clock: CI machines are loaded."""
    seen = _nanny_closes(monkeypatch)
    with pytest.raises(UserError, match="^a bad record$"):
        with dist.session("local:1") as ex:
            pids = list(ex.client.run(os.getpid).values())
            busy = ex.client.submit(time.sleep, 600, pure=False)  # a task the worker cannot leave
            deadline = time.monotonic() + 120
            while not any(ex.client.processing().values()):  # until the worker runs it
                assert busy.status == "pending" and time.monotonic() < deadline, busy.status
                time.sleep(0.01)
            raise UserError("a bad record")
    assert seen[0] == (dist.STOP_GRACE_S, "bower-stop"), seen
    assert len(pids) == 1 and all(_gone(pid) for pid in pids)  # killed and joined


def test_a_records_write_that_fails_in_a_local_run_ends_at_once(capsys, tmp_path, monkeypatch):
    """``simulate --scheduler local:2 --records`` on a disk that fills at the first batch: one line, status 2,
    nothing left, the workers killed after ``STOP_GRACE_S`` (a quick close, not Dask's 4 s) and gone."""
    from bower.sim import records as rec_mod

    real_put = rec_mod.JsonlWriter.put

    def put(self, data):  # the disk fills at the first batch of records
        if not isinstance(self.fh, FullFile):
            self.fh = FullFile(self.fh)
        return real_put(self, data)

    pids, closes = [], []
    real_setup, real_close = dist.Dask._setup_workers, dist.Dask.close

    def setup(self):
        real_setup(self)
        pids.extend(self.client.run(os.getpid).values())

    def close(self, stop=False):
        closes.append(stop)
        real_close(self, stop=stop)

    seen = _nanny_closes(monkeypatch)
    monkeypatch.setattr(rec_mod.JsonlWriter, "put", put)
    monkeypatch.setattr(dist.Dask, "_setup_workers", setup)
    monkeypatch.setattr(dist.Dask, "close", close)
    out = tmp_path / "out.jsonl"
    line = one_error(capsys, "simulate", "--hands", "1e6", "--threads", "1", "--scheduler", "local:2",
                     "--records", str(out))
    assert line == f"bower: error: cannot write records to {out}: No space left on device"
    assert listing(tmp_path) == []
    assert closes == [True], closes
    assert seen[:2] == [(dist.STOP_GRACE_S, "bower-stop")] * 2, seen  # both workers, before any other close
    assert len(pids) == 2 and all(_gone(pid) for pid in pids), pids


class _Poke(KeyboardInterrupt):
    """What the test's SIGUSR2 handler raises in the main thread (a stop, as bower's handlers raise)."""


def test_a_signal_another_thread_takes_stops_a_wait_on_a_task(monkeypatch):
    """A signal that the kernel hands to a thread other than the main one (the second of SIGINT and SIGTERM
    sent together: the main thread has one pending) only marks the signal as due: its Python handler runs when
    the main thread next runs bytecode. Dask's ``Future.result()`` blocks the main thread on a lock for 10 s at
    a time, so a SIGINT+SIGTERM ended ``simulate --strategy pimc-fast --scheduler local:2`` 4 to 10 s late
    (when the task or the slice ended); the executor now waits in slices of ``WAIT_SLICE_S`` (the handler ran
    0.05 s after the signal here). The bound is under Dask's 10 s slice with room for a loaded machine."""
    import threading

    sent = []

    def on_usr2(signum, frame):
        raise _Poke

    def send():
        time.sleep(1.0)  # the main thread waits on the task by then
        sent.append(time.monotonic())
        signal.pthread_kill(threading.get_ident(), signal.SIGUSR2)  # taken by this thread, not the main one

    previous = signal.signal(signal.SIGUSR2, on_usr2)
    try:
        with pytest.raises(_Poke):
            with dist.session("local:1") as ex:
                jobs = ex.map(time.sleep, [600])  # a task the worker cannot leave
                threading.Thread(target=send, daemon=True).start()
                next(jobs)
        took = time.monotonic() - sent[0]
    finally:
        signal.signal(signal.SIGUSR2, previous)
    assert took < 8.0, f"the handler ran {took:.2f} s after the signal"


def test_a_stop_while_the_local_workers_start_closes_them(monkeypatch):
    """A signal's stop while ``local:N``'s LocalCluster starts its worker processes (inside its constructor,
    which closes itself only on an Exception) left a cluster half open that nobody held: Dask's exit hook then
    closed it with a traceback after the stop's one line ("AssertionError: Status.init", ``simulate --scheduler
    local:2``, a SIGHUP 1.4 s after the start). Now its nannies are closed with ``STOP_GRACE_S`` and it is out
    of Dask's list.

    The stop lands just after the first worker process is spawned, before any has connected: Dask's close of a
    nanny waits for its process to report before asking it to close (the stop ended 0.2 to 2.5 s after the
    signal on a loaded 2-core machine, past the 2 s asked). Each worker process still starting is now killed at
    once: every process spawned got Dask's kill (SIGKILL) and is gone. Structural facts, not the clock: CI
    machines are loaded."""
    import threading
    import traceback

    from distributed.deploy.spec import SpecCluster
    from distributed.process import AsyncProcess

    nannies, spawned, killed, lock = [], [], [], threading.Lock()
    first = threading.Event()
    real_start, real_kill, real_nanny = AsyncProcess.start, AsyncProcess.kill, distributed.Nanny.start_unsafe

    async def start_unsafe(self):
        nannies.append(self)
        return await real_nanny(self)

    def start(self):  # the spawn (a future, done once the process exists)
        fut = real_start(self)

        def done(f):
            if f.exception() is None:
                with lock:
                    spawned.append((id(self), self.pid))
                first.set()

        fut.add_done_callback(done)
        return fut

    def kill(self):  # (asked for before its spawn is done, it is done after it: Dask's process thread in order)
        with lock:
            killed.append(id(self))
        return real_kill(self)

    def on_usr2(signum, frame):
        raise _Poke

    main = threading.get_ident()

    def send():
        if first.wait(120):  # a worker process exists; none has connected (it is still importing)
            signal.pthread_kill(main, signal.SIGUSR2)

    monkeypatch.setattr(distributed.Nanny, "start_unsafe", start_unsafe)
    monkeypatch.setattr(AsyncProcess, "start", start)
    monkeypatch.setattr(AsyncProcess, "kill", kill)
    seen = _nanny_closes(monkeypatch)
    before = list(SpecCluster._instances)
    previous = signal.signal(signal.SIGUSR2, on_usr2)
    try:
        threading.Thread(target=send, daemon=True).start()
        with pytest.raises(_Poke) as stopped:
            with dist.session("local:2"):
                pytest.fail("the cluster started before the stop")
    finally:
        signal.signal(signal.SIGUSR2, previous)
    assert any(f.f_code.co_name == "local_cluster" for f, _ in traceback.walk_tb(stopped.tb)), \
        "the stop did not land while the cluster started"
    assert [c for c in SpecCluster._instances if not any(c is b for b in before)] == []
    assert nannies and all(n.status.name in ("closed", "failed") for n in nannies), [n.status for n in nannies]
    assert seen[:len(nannies)] == [(dist.STOP_GRACE_S, "bower-stop")] * len(nannies), seen
    assert spawned and sorted(killed) == sorted(h for h, _ in spawned), (spawned, killed)  # none waited for
    assert all(_gone(pid) for _, pid in spawned), spawned
