"""Compile the engine's kernels once, split over two processes, before ``make test`` starts its two workers.

Each pytest-xdist worker keeps its own Numba cache folder (``tests/conftest.py``:
no two processes ever write one cache file), so without this step both workers
compile every kernel their tests reach, the same work twice. Here process 0
compiles the kernels of Ghost Hand, Euchre, the solver and Ghost Hand's swap
statistics (``ghost-stats``: the largest kernel the tests reach, about 40 s
of compiling on its own, which both workers otherwise compiled) into worker
gw0's folder while process 1 compiles Cutthroat's and Hasenpfeffer's into
gw1's (about 310 and 280 s of CPU at commit 0420fa9); then each folder
receives the files the other wrote (copies of finished files, never a
concurrent write). Whatever a test compiles beyond these, its worker
still compiles itself, so the suite is the same with or without this step.

Usage: ``python -m tests.warm`` (``make test`` runs it before pytest).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

GROUPS = (("gw0", ("ghost", "euchre", "solve", "ghost-stats")), ("gw1", ("cutthroat", "hasenpfeffer")))


def _compile(names: list[str]) -> None:
    """Run each named variant's hands, records, games, experiment and should-bid once, tiny (or the solver, or
    Ghost Hand's swap statistics)."""
    import tempfile

    from bower.sim import runner

    for name in names:
        if name == "solve":
            from bower.sim import solve
            from bower.sim.variants import get_variant

            v = get_variant("ghost")
            solve.solve_batch(*solve.sample_deals(v, 4, 0))
            hands = solve.parse_deal(v, "0:JH JD AH KH 9S TC 1:QC AC TS AS TD QH 2:KC QS KS AD 9H TH")
            solve.solve(v, hands, 3, 0, plays=[solve.parse_card("JH")])
            continue
        if name == "ghost-stats":
            from bower.sim.variants.ghost import stats

            stats.swap_values(20, seed=0, threads=1, want_rows=True)
            continue
        runner.simulate(name, hands=50, seed=0, threads=1)
        with tempfile.TemporaryDirectory() as d:
            runner.simulate(name, hands=50, seed=0, threads=1, records_path=os.path.join(d, "r.jsonl"))
        runner.simulate_games(name, games=2, seed=0, threads=1)
        from bower.sim.variants import get_variant

        get_variant(name).profile_advice(20, 1)


def _merge(src: str, dst: str) -> None:
    """Copy into ``dst`` every cache file of ``src`` that ``dst`` lacks."""
    for root, _, files in os.walk(src):
        target = os.path.join(dst, os.path.relpath(root, src))
        os.makedirs(target, exist_ok=True)
        for f in files:
            if not os.path.exists(os.path.join(target, f)):
                shutil.copy2(os.path.join(root, f), os.path.join(target, f))


def main() -> None:
    """Compile the groups in parallel into the workers' folders, then give each folder the other's files."""
    if len(sys.argv) > 2 and sys.argv[1] == "--only":
        _compile(sys.argv[2].split(","))
        return
    if os.environ.get("NUMBA_CACHE_DIR"):
        return  # a cache folder chosen by hand: the workers use it as it is (tests/conftest.py)
    from bower import kernels

    base = kernels.cache_dir()
    folders = {w: os.path.join(base, f"xdist-{w}") for w, _ in GROUPS}
    procs = []
    for worker, names in GROUPS:
        os.makedirs(folders[worker], exist_ok=True)
        env = dict(os.environ, NUMBA_CACHE_DIR=folders[worker], OMP_WAIT_POLICY="PASSIVE")
        procs.append(subprocess.Popen([sys.executable, "-m", "tests.warm", "--only", ",".join(names)], env=env))
    codes = [p.wait() for p in procs]
    if any(codes):
        sys.exit(f"tests.warm: compiling the kernels failed (exit codes {codes})")
    _merge(folders["gw0"], folders["gw1"])
    _merge(folders["gw1"], folders["gw0"])


if __name__ == "__main__":
    main()
