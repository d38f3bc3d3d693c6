"""Compile the engine's kernels once, in two processes, before ``make test`` starts its two workers.

Each pytest-xdist worker keeps its own Numba cache folder (``tests/conftest.py``:
no two processes ever write one cache file), so without this step both workers
compile every kernel their tests reach, the same work twice. Here
``bower.sim.warm.run_groups`` (what ``bower warm`` runs) compiles one group per
process, two processes at a time, into worker gw0's folder: each variant's
kernels, and with Ghost Hand's group also the solver and Ghost Hand's swap
statistics (``ghost-stats``: the largest kernel the tests reach, about 40 s of
compiling on its own). Numba writes each cache file atomically, so the two
processes share that folder safely. Then gw1's folder receives copies of the
finished files. Whatever a test compiles beyond these, its worker still
compiles itself, so the suite is the same with or without this step.

Usage: ``python -m tests.warm`` (``make test`` runs it before pytest).
"""

from __future__ import annotations

import os
import shutil
import sys

WORKERS = ("gw0", "gw1")


def compile_solve() -> None:
    """The double-dummy solver on a few Ghost Hand deals and one position with a card played."""
    from bower.sim import solve
    from bower.sim.variants import get_variant

    v = get_variant("ghost")
    solve.solve_batch(*solve.sample_deals(v, 4, 0))
    hands = solve.parse_deal(v, "0:JH JD AH KH 9S TC 1:QC AC TS AS TD QH 2:KC QS KS AD 9H TH")
    solve.solve(v, hands, 3, 0, plays=[solve.parse_card("JH")])


def compile_ghost_stats() -> None:
    """Ghost Hand's swap statistics (``bower analyze``'s swap tables)."""
    from bower.sim.variants.ghost import stats

    stats.swap_values(20, seed=0, threads=1, want_rows=True)


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
    """The groups ``make test`` compiles: each variant's (``bower warm``'s), Ghost Hand's with the two above."""
    from bower.sim.warm import Group, groups

    out = []
    for g in groups():
        if g.name == "ghost":
            extra = (("call", "tests.warm:compile_ghost_stats"), ("call", "tests.warm:compile_solve"))
            g = Group(g.name, g.items + extra)
        out.append(g)
    return out


def _merge(src: str, dst: str) -> None:
    """Copy into ``dst`` every cache file of ``src`` that ``dst`` lacks."""
    for root, _, files in os.walk(src):
        target = os.path.join(dst, os.path.relpath(root, src))
        os.makedirs(target, exist_ok=True)
        for f in files:
            if not os.path.exists(os.path.join(target, f)):
                shutil.copy2(os.path.join(root, f), os.path.join(target, f))


def main() -> None:
    """Compile the groups, two processes at a time, into gw0's folder, then copy the files into gw1's."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return  # a cache folder chosen by hand: the workers use it as it is (tests/conftest.py)
    from bower import kernels
    from bower.sim.errors import UserError
    from bower.sim.warm import run_groups

    base = kernels.cache_dir()
    folders = [os.path.join(base, f"xdist-{w}") for w in WORKERS]  # as tests/conftest.py names them
    try:
        run_groups(suite_groups(), jobs=2, cache_dir=folders[0])
    except UserError as e:
        sys.exit(f"tests.warm: {e.format_message()}")
    for folder in folders[1:]:
        _merge(folders[0], folder)


if __name__ == "__main__":
    main()
