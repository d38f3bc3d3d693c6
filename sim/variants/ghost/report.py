"""Ghost Hand's report: bid, moon and position tables from kernel histograms, the paired swap analysis, games."""

from __future__ import annotations

from bower.analysis.report import check_out_dir, run_meta
from bower.sim import runner
from bower.sim.progress import Progress
from bower.sim.strategy import load_strategy
from bower.sim.variants.ghost import stats
from bower.sim.variants.ghost import tables as gt


def report(hands: int, games: int | None, swap_deals: int | None, seed: int, threads, rules_d: dict, rules: tuple,
           strategy, out_dir: str) -> tuple[dict, dict, list]:
    """Run what the report needs and return (tables, meta, notes); RunError on a bad count or rule."""
    from bower.sim.variants import get_variant

    v = get_variant("ghost")
    swap_deals = hands if swap_deals is None else swap_deals
    games = max(hands // 20, 64) if games is None else games
    for name, n in (("--swap-deals", swap_deals), ("--games", games)):
        if n <= 0:
            raise runner.RunError(f"{name} must be a positive integer, got {n}")
    if rules_d["swap"] == "none":
        raise runner.RunError("the report's swap analysis needs the rule swap=at_turn")
    name, params = load_strategy(strategy)
    check_out_dir(out_dir)

    bar = Progress("hands")
    try:
        b = stats.bid_stats(hands, seed=seed, threads=threads, rules=rules_d, strategy=strategy, progress=bar)
    finally:
        bar.close()
    bar = Progress("swap deals")
    try:
        sw = stats.swap_values(swap_deals, seed=seed, threads=threads, rules=rules_d, strategy=strategy, progress=bar)
    finally:
        bar.close()
    bar = Progress("games")
    try:
        g = runner.simulate_games(games=games, seed=seed, threads=threads, rules=rules_d, strategy=strategy, progress=bar)
    finally:
        bar.close()
    s = b["summary"]
    tables = gt.table_set(b["bids"], b["estimates"], gt.position_from_summary(s, g), sw["acc"], sw["mirror"])
    be = gt.break_even(tables["swap_value"])
    meta = run_meta(v, name, params, rules_d, seed, {
        "hands": f"{hands:,} (bid, moon and position tables)",
        "swap deals": f"{swap_deals:,} (paired: each decision point played with the swap taken and refused)",
        "games": f"{games:,} whole games to {v.target} (win shares)",
    }, f"bower report --hands {hands} --swap-deals {swap_deals} --games {games} --seed {seed} "
        f"--strategy {strategy} " + " ".join(f"--rule {r}" for r in rules) + f" --out {out_dir}")
    notes = [
        f"Hands thrown in: {s['thrown_in']:,} of {s['hands']:,}; ghost swaps {s['swaps']:,}; "
        f"moons called {s['moons_called']:,}, made {s['moons_made']:,}.",
        "Swap value: points the player gains by swapping rather than keeping, on the same deal with everyone "
        "else playing the strategy; 'margin' is the gain in points over the mean of the two opponents. "
        + (f"Swapping gains points below a hand strength of about {be:.2f}." if be is not None else ""),
        "All intervals are 95%: Wilson for rates, normal for means.",
    ]
    return tables, meta, notes
