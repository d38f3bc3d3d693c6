"""``bower warm`` and ``bower.warm()``: bad input as one line, a second warm finds everything cached and compiles
nothing, a later run loads from that cache; the library's compile notice, once per process and silenced on request.

One module fixture compiles the smallest variant part (Cut-Throat's ``hands``,
what ``bower simulate`` loads) into a folder of its own, once: the only real
compile of the file. Elsewhere a fresh Numba function stands for a cold cache.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import numba
import pytest

import bower
from bower.sim import progress as progress_mod
from bower.sim import runner
from bower.sim import warm as W
from bower.sim.progress import COMPILE_NOTICE
from tests.cli_run import one_error, run

VARIANT, PART = "euchre", "hands"
# the variant the ``warmed`` fixture compiles: Cut-Throat's ``hands`` compiles in about 12 CPU s from an empty cache,
# the least of the four (Hasenpfeffer 13.5, Euchre 15.5, Ghost Hand 19: ``bower warm --variant V --part hands``,
# 2026-12, a shared 2-core machine)
WARMED = "cutthroat"


def _compile_something(_job=None):
    """Compile a fresh function (a real Numba compile: a cache miss)."""
    f = numba.njit(lambda x: x * 2 + 1)
    assert f(3) == 7
    return 7


def _nothing(_job=None):
    return 0


# ---------------------------------------------------------------- bad input: one line, status 2, no traceback

@pytest.mark.parametrize("args, words", [
    (["--variant", "bridge"], "Invalid value for '--variant': unknown variant 'bridge' (known: ghost, cutthroat, "
                              "hasenpfeffer, euchre)"),
    (["--part", "shuffle"], "Invalid value for '--part': 'shuffle' is not one of"),
    (["--jobs", "0"], "Invalid value for '--jobs'"),
    (["--jobs", "two"], "Invalid value for '--jobs'"),
    (["extra"], "Got unexpected extra argument (extra)"),
])
def test_bad_input_is_one_line(capsys, args, words):
    assert one_error(capsys, "warm", *args).startswith(f"bower: error: {words}")


def test_the_library_refuses_bad_input():
    with pytest.raises(bower.BowerError, match="unknown variant 'bridge'"):
        bower.warm("bridge")
    with pytest.raises(bower.BowerError, match="unknown part 'shuffle'"):
        bower.warm(VARIANT, parts=["shuffle"])
    with pytest.raises(bower.BowerError, match="jobs must be at least 1"):
        bower.warm(VARIANT, jobs=0)


def test_help_lists_the_parts(capsys):
    code, out, _ = run(capsys, "warm", "--help")
    assert code == 0
    text = " ".join(out.split())
    assert "[hands|records|games|advice|search]" in text and "--variant" in text and "BOWER_WARM_JOBS" in text


def test_groups_one_process_per_variant_search_apart():
    assert [g.name for g in W.groups()] == ["ghost", "cutthroat", "hasenpfeffer", "euchre"]
    assert [g.name for g in W.groups(["Hasen", VARIANT, VARIANT])] == ["hasenpfeffer", "euchre"]
    gs = W.groups(VARIANT, parts=["search", "hands"])
    assert [(g.name, g.items) for g in gs] == [(VARIANT, (("variant", VARIANT, ("hands",)),)),
                                               (f"{VARIANT} search", (("variant", VARIANT, ("search",)),))]
    assert W.Group.from_json(gs[1].to_json()) == gs[1]
    # the search groups after every variant's other group, the costliest first (SEARCH_ORDER)
    assert [g.name for g in W.groups(parts=["hands", "search"])] == [
        "ghost", "cutthroat", "hasenpfeffer", "euchre",
        "cutthroat search", "euchre search", "ghost search", "hasenpfeffer search"]
    assert [g.name for g in W.groups(["hasenpfeffer", "euchre"], parts=["search"])] == [
        "euchre search", "hasenpfeffer search"]
    assert W.default_jobs(1) == 1 and 1 <= W.default_jobs(4) <= 4


@pytest.mark.parametrize("variant", ["ghost", "cutthroat", "hasenpfeffer", "euchre"])
def test_the_search_part_runs_what_the_search_commands_run(monkeypatch, variant):
    """``--part search`` runs (tiny) everything the docs say it compiles: the ``pimc-fast`` preset's hands and
    games, the solver and should-bid's ``dd`` and ``pimc`` play-outs. Recorded here, not compiled."""
    import dataclasses

    from bower.sim import rules as rules_mod
    from bower.sim import solve

    asked = []
    monkeypatch.setattr(runner, "simulate", lambda v, **k: asked.append(("hands", v, k.get("strategy"))))
    monkeypatch.setattr(runner, "simulate_games", lambda v, **k: asked.append(("games", v, k.get("strategy"))))
    monkeypatch.setattr(solve, "solve_batch", lambda *a: asked.append(("solve", variant, None)))
    monkeypatch.setattr(solve, "sample_deals", lambda v, n, seed: (v, n))
    v = dataclasses.replace(rules_mod.get_variant(variant), profile_advice=lambda n, threads, playout="strategy":
                            asked.append(("should-bid", variant, playout)))
    monkeypatch.setattr(rules_mod, "get_variant", lambda name: v)
    W.compile_parts(variant, ("search",))
    assert sorted(asked) == sorted([("hands", variant, W.SEARCH_PRESET), ("games", variant, W.SEARCH_PRESET),
                                    ("solve", variant, None), ("should-bid", variant, "dd"),
                                    ("should-bid", variant, "pimc")])


def test_summary_line():
    rows = [{"group": "ghost", "compiled": True, "cpu_s": 30.2}, {"group": "euchre", "compiled": True, "cpu_s": 11.0},
            {"group": "cutthroat", "compiled": False, "cpu_s": 1.5}]
    assert W.summary_text({"groups": rows, "wall_s": 25.0}) == (
        "bower: warm: ghost, euchre compiled in 41 s CPU; cutthroat cached (25.0 s)")
    assert W.summary_text({"groups": rows[2:], "wall_s": 1.2}) == (
        "bower: warm: cutthroat cached, nothing to compile (1.2 s)")


# ---------------------------------------------------------------- a real warm, then a cached one

def _bower(folder, *args):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(folder))
    env.pop("BOWER_QUIET", None)
    return subprocess.run([sys.executable, "-c", "from bower.sim.cli import main; main()", *args],
                          capture_output=True, text=True, env=env, timeout=1200, check=False)


# the tests of the ``warmed`` fixture run in one pytest worker (``make test`` runs ``--dist loadgroup``): a module
# fixture is made once per worker, and this one compiles for about 12 CPU s
_ONE_WORKER = pytest.mark.xdist_group("warmed-cache")


@pytest.fixture(scope="module")
def warmed(tmp_path_factory):
    """A cache folder of its own, warmed twice: (first run, second run)."""
    folder = tmp_path_factory.mktemp("warm-cache")
    first = _bower(folder, "warm", "--variant", WARMED, "--part", PART, "--json")
    second = _bower(folder, "warm", "--variant", WARMED, "--part", PART, "--json")
    return folder, first, second


@_ONE_WORKER
def test_a_first_warm_compiles_with_a_progress_line(warmed):
    _, first, _ = warmed
    assert first.returncode == 0, first.stderr
    result = json.loads(first.stdout)
    assert result["compiled"] == [WARMED] and result["cached"] == []
    assert result["groups"][0]["compiled"] and result["groups"][0]["cpu_s"] > 0
    lines = first.stderr.splitlines()
    assert lines[0] == f"bower: warm: {WARMED} in 1 process (kernels already cached only load)"
    assert f"bower: warm: {WARMED} compiled (" in first.stderr
    assert lines[-1].startswith(f"bower: warm: {WARMED} compiled in ") and " s CPU (" in lines[-1]
    assert "Traceback" not in first.stderr


@_ONE_WORKER
def test_a_second_warm_finds_everything_cached(warmed):
    folder, _, second = warmed
    assert second.returncode == 0, second.stderr
    result = json.loads(second.stdout)
    assert result["compiled"] == [] and result["cached"] == [WARMED]
    assert result["groups"][0]["compile_s"] == 0
    assert result["cache_dir"] == str(folder)
    assert second.stderr.splitlines()[-1].startswith(f"bower: warm: {WARMED} cached, nothing to compile (")


@_ONE_WORKER
def test_a_later_run_loads_from_the_warmed_cache(warmed):
    folder, _, _ = warmed
    code = (f"import bower; r = bower.simulate({WARMED!r}, hands=500, threads=1); "
            "import json; print(json.dumps(r.summary['compiled']))")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(folder))
    env.pop("BOWER_QUIET", None)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=1200,
                          check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "false"  # loaded, not compiled
    assert COMPILE_NOTICE not in proc.stderr  # and the library said nothing


@_ONE_WORKER
def test_quiet_warm_says_nothing(warmed):
    folder, _, _ = warmed
    proc = _bower(folder, "--quiet", "warm", "--variant", WARMED, "--part", PART)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "", "")


# ---------------------------------------------------------------- the library's notice

@pytest.fixture
def fresh_library(monkeypatch):
    """The library's notice as in a new process, nothing armed; a compile whenever a run starts."""
    monkeypatch.setitem(progress_mod._library, "noticed", False)
    monkeypatch.setitem(progress_mod._library, "silenced", None)
    monkeypatch.delenv("BOWER_QUIET", raising=False)
    progress_mod.stop_watching()
    real = runner.warm_up

    def warm_up(*a, **k):
        _compile_something()  # stands for a cold cache
        return real(*a, **k)

    monkeypatch.setattr(runner, "warm_up", warm_up)
    yield
    progress_mod.stop_watching()


def test_the_library_says_it_compiles_once_per_process(capsys, fresh_library):
    bower.simulate(hands=100, seed=0, threads=1)
    assert capsys.readouterr().err == COMPILE_NOTICE + "\n"
    bower.simulate(hands=100, seed=0, threads=1)  # compiles again: said once already
    assert capsys.readouterr().err == ""
    _compile_something()  # outside the library's calls: nothing
    assert capsys.readouterr().err == ""


def test_bower_quiet_silences_the_notice(capsys, fresh_library):
    bower.quiet(True)
    try:
        bower.simulate(hands=100, seed=0, threads=1)
        assert capsys.readouterr().err == ""
    finally:
        bower.quiet(False)
    bower.simulate(hands=100, seed=0, threads=1)
    assert capsys.readouterr().err == COMPILE_NOTICE + "\n"


def test_bower_quiet_from_the_environment(capsys, fresh_library, monkeypatch):
    monkeypatch.setenv("BOWER_QUIET", "1")
    bower.simulate(hands=100, seed=0, threads=1)
    assert capsys.readouterr().err == ""


def test_a_dask_worker_that_compiles_is_announced(capsys):
    pytest.importorskip("distributed")
    from bower.sim import distributed as dist

    stream = io.StringIO()
    progress_mod.watch_compiles(stream)
    try:
        with dist.session("local:1") as ex:
            ex.warm(_nothing, "nothing", 0)  # loads nothing, compiles nothing: no notice
            assert stream.getvalue() == ""
            ex.warm(_compile_something, "fresh", 0)  # the worker compiles: the client says so
            assert stream.getvalue() == COMPILE_NOTICE + "\n"
    finally:
        progress_mod.stop_watching()
