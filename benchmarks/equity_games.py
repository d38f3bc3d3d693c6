"""A variant's equity table at its real target against whole games started at 24 of its cells.

``tests/test_equity.py`` checks each variant's table against whole games
(``bower.sim.equity.games_from_scores``) with small tables and, for Ghost
Hand, a target of 8, so the suite stays quick. This runs the same check
(the same named and drawn cells, 8,000 games a cell, the cell's 95%
interval widened by 3 standard errors of a share and by ``floor_effect``)
on a table at the default precision and any target (default: the
variant's), and the same games against the wrong cells (scores turned a
side or seat round), which must miss in most of them.

    python benchmarks/equity_games.py --variant ghost --seed 1
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time


sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from tests.test_equity import cell_values, games_against_cells  # noqa: E402  (the suite's check itself)


def check(variant: str, seed: int, target: int | None) -> dict:
    """The table of ``variant`` (default precision, ``seed``) against whole games from the suite's 24 cells."""
    from bower.sim import equity as E
    from bower.sim.rules import get_variant

    v = get_variant(variant)
    c0 = time.process_time()
    t = E.compute(v.name, seed=seed, target=target, cache=False)
    table_s = time.process_time() - c0
    value = cell_values(t)
    units, players = (2, 4) if v.partnerships else (3, 3)
    c1 = time.process_time()
    misses, wrong, cells = games_against_cells(t, units, players, value, lambda s, d: value(s, d, turn=1))
    return {"variant": v.name, "target": t["target"], "hands": t["hands"], "seed": seed, "cells": len(cells),
            "comparisons": len(cells) * (1 if v.partnerships else 3), "misses": len(misses),
            "wrong_cell_misses": len(wrong), "table_cpu_s": round(table_s, 1),
            "games_cpu_s": round(time.process_time() - c1, 1), "missed": [list(map(str, m)) for m in misses]}


def main(argv=None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variant", default="ghost")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--target", type=int, default=None, help="default: the variant's")
    a = ap.parse_args(argv)
    out = check(a.variant, a.seed, a.target)
    print(json.dumps(out))
    return out


if __name__ == "__main__":
    main()
