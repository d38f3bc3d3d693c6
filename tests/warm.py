"""Compile the engine's kernels once, in two processes, before ``make test`` starts its two workers.

Both pytest-xdist workers use one Numba cache folder (``tests/conftest.py``);
without this step each worker would compile what its tests reach, often the
same kernels at the same moment. Here ``bower.sim.warm.run_groups`` (what
``bower warm`` runs) compiles one group per process, two processes at a
time, into that folder: each variant's kernels (``bower warm``'s parts, and the
general hand path a random seat takes, ``compile_general``), each variant's
search (PIMC card play and the solver, ``--part search``), and with Ghost
Hand's group also the solver on part-played positions and Ghost Hand's
swap statistics (``ghost-stats``). The cache keeps each signature's code in
its own file (``kernels/cache.py``), so processes that fill one folder at once
are safe. Whatever a test compiles beyond these, the first worker to reach it
compiles, so the suite is the same with or without this step.

Usage: ``python -m tests.warm`` (``make test`` runs it before pytest).
"""

from __future__ import annotations

import os
import shutil
import sys

WORKERS_FOLDER = "xdist"  # the workers' cache folder, inside the package's (tests/conftest.py)
OLD_FOLDERS = ("xdist-gw0", "xdist-gw1")  # one folder a worker before the workers shared one: removed


def compile_solve() -> None:
    """The double-dummy solver on a Ghost Hand position with a card played (whole deals: each variant's search
    group)."""
    from bower.sim import solve
    from bower.sim.variants import get_variant

    v = get_variant("ghost")
    hands = solve.parse_deal(v, "0:JH JD AH KH 9S TC 1:QC AC TS AS TD QH 2:KC QS KS AD 9H TH")
    solve.solve(v, hands, 3, 0, plays=[solve.parse_card("JH")])


def compile_ghost_stats() -> None:
    """Ghost Hand's swap statistics (``bower analyze``'s swap tables)."""
    from bower.sim.variants.ghost import stats

    stats.swap_values(20, seed=0, threads=1, want_rows=True)


def compile_general(variant: str) -> None:
    """The variant's general hand path (``drivers.simulate_chunks``): a default run takes the plain path's kernel
    only (``drivers.simulate_kernel``), and many tests run random or forced seats."""
    from bower.sim import runner

    runner.simulate(variant, hands=50, seed=0, threads=1, strategy="random")


def _compile(names: list[str]) -> None:
    """Compile here, in this process, each named variant's group (``bower warm``'s parts), ``solve`` or
    ``ghost-stats`` (how benchmarks/RESULTS.md measured one group's compiling)."""
    from bower.sim.warm import compile_parts

    for name in names:
        if name == "solve":
            compile_solve()
        elif name == "ghost-stats":
            compile_ghost_stats()
        else:
            compile_parts(name)


def suite_groups() -> list:
    """The groups ``make test`` compiles: each variant's (``bower warm``'s, search included), Ghost Hand's with
    the two above."""
    from bower.sim.warm import ALL_PARTS, Group, groups

    out = []
    for g in groups(parts=ALL_PARTS):
        if " " not in g.name:  # a variant's group, not its search group
            g = Group(g.name, g.items + (("call", "tests.warm:compile_general", g.name),))
        if g.name == "ghost":
            extra = (("call", "tests.warm:compile_ghost_stats"), ("call", "tests.warm:compile_solve"))
            g = Group(g.name, g.items + extra)
        out.append(g)
    return out


def main() -> None:
    """Compile the groups, two processes at a time, into the workers' folder."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return  # a cache folder chosen by hand: the workers use it as it is (tests/conftest.py)
    from bower import kernels
    from bower.sim.errors import UserError
    from bower.sim.warm import run_groups

    base = kernels.cache_dir()
    for old in OLD_FOLDERS:
        shutil.rmtree(os.path.join(base, old), ignore_errors=True)
    try:
        run_groups(suite_groups(), jobs=2, cache_dir=os.path.join(base, WORKERS_FOLDER))
    except UserError as e:
        sys.exit(f"tests.warm: {e.format_message()}")


if __name__ == "__main__":
    main()
