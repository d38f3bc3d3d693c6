"""Pieces the variant packages share: a strategy's counter cells in experiments, the report run of record tables."""

from __future__ import annotations

from bower.analysis.intervals import wilson
from bower.analysis.report import check_out_dir, run_meta
from bower.kernels import games as kg
from bower.sim import runner
from bower.sim.progress import Progress
from bower.sim.strategy import load_strategy


def records_report_run(v, table_run, hands: int, games: int | None, swap_deals, seed: int, threads, rules_d: dict,
                       strategy, out_dir: str):
    """Play the report's hands through ``table_run`` (tables folded batch by batch) and its whole games.

    Returns (summary, cells, games summary, strategy name, parameters, games).
    """
    if swap_deals is not None:
        raise runner.RunError(f"--swap-deals is the Ghost Hand report's swap analysis; {v.title} has no ghost hand")
    games = max(hands // 20, 64) if games is None else games
    if games <= 0:
        raise runner.RunError(f"--games must be a positive integer, got {games}")
    name, params = load_strategy(strategy, v)
    check_out_dir(out_dir)
    bar = Progress("hands")
    try:
        s, cells = table_run(hands, seed=seed, threads=threads, rules=rules_d, strategy=strategy, progress=bar)
    finally:
        bar.close()
    bar = Progress("games")
    try:
        g = runner.simulate_games(variant=v, games=games, seed=seed, threads=threads, rules=rules_d,
                                  strategy=strategy, progress=bar)
    finally:
        bar.close()
    return s, cells, g, name, params, games


def records_report_meta(v, name, params, rules_d, seed, hands, games, what, rules, strategy, out_dir) -> dict:
    """The meta table of a records-table report, with the command that reproduces it."""
    return run_meta(v, name, params, rules_d, seed, {
        "hands": f"{hands:,} ({what})",
        "games": f"{games:,} whole games to {v.target} (win shares)",
    }, f"bower report --variant {v.name} --hands {hands} --games {games} --seed {seed} "
        f"--strategy {strategy} " + " ".join(f"--rule {r}" for r in rules) + f" --out {out_dir}")


def maker_cell(acc, k: int) -> tuple[int, dict]:
    """Cell ``k`` of a strategy's ``ST_MAKER`` / ``ST_MADE`` counters: (count, {count, made, rate, rate_ci95})."""
    won, made = int(acc[kg.ST_MAKER + k]), int(acc[kg.ST_MADE + k])
    lo, hi = wilson(made, won) if won else (None, None)
    return won, {"count": won, "made": made, "rate": made / won if won else None, "rate_ci95": [lo, hi]}


def all_tables(tables_from_records):
    """``Variant.analysis_tables`` for a variant whose ``bower analyze`` prints every table it builds."""

    def analysis_tables(recs: list, params: dict) -> tuple[dict, list]:
        t = tables_from_records(recs, params)
        return t, list(t)

    return analysis_tables
