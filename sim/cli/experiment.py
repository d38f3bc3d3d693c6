"""``bower experiment A B [C]``: which strategy wins more whole games, by how much, how surely."""

from __future__ import annotations

import json

import click

from sim.cli.options import json_option, rule_option, seed_option, threads_option, variant_option


@click.command()
@click.argument("strategies", nargs=-1, required=True)
@variant_option
@click.option("--games", default=100_000, show_default=True, type=int, help="Games to play (rounded up to whole deal sets).")
@seed_option
@threads_option
@rule_option
@click.option("--until-significant", is_flag=True, help="Keep playing batches of --games until the leading pair differs significantly.")
@click.option("--max-games", default=1_000_000, show_default=True, type=int, help="Stop --until-significant here.")
@click.option("--independent", is_flag=True, help="Give every seat assignment its own deals (no duplicate play), for comparison.")
@json_option
def experiment(strategies, variant, games, seed, threads, rules, until_significant, max_games, independent, as_json):
    """Play strategies A B [C] (presets or .toml files) against each other in duplicate games."""
    from sim import experiment as ex
    from sim.progress import Progress
    from sim.rules import get_variant, parse_rule_args

    v = get_variant(variant)
    rules_d = parse_rule_args(v, rules)
    if len(strategies) not in (2, 3):
        raise ex.runner.RunError(f"give 2 or 3 strategies to compare, got {len(strategies)}")
    progress = Progress("games", enabled=False if as_json else None)
    try:
        res = ex.run_experiment(
            list(strategies), games=games, seed=seed, threads=threads, rules=rules_d, duplicate=not independent,
            until_significant=until_significant, max_games=max_games, names=list(strategies), progress=progress,
            variant=v.name,
        )
    finally:
        progress.close()
    if as_json:
        click.echo(json.dumps(res, indent=2))
    else:
        click.echo(format_experiment(res))


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.2f}%"


def format_experiment(r: dict) -> str:
    """The human-readable report of an experiment result."""
    from sim.rules import get_variant

    mode = "duplicate deals (every seat assignment on the same deals)" if r["duplicate"] else "independent deals"
    lines = [
        f"{get_variant(r['variant']).title} experiment: {r['games']:,} games in {r['deal_sets']:,} deal sets, seed {r['seed']}, {mode}",
        "rules: " + " ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in r["rules"].items()),
        f"seat assignments: {len(r['assignments'])} ({', '.join('/'.join(a) for a in r['assignments'])})",
        "",
    ]
    table = {"cutthroat": _cutthroat_table, "hasenpfeffer": _hasenpfeffer_table}.get(r["variant"], _ghost_table)
    lines += table(r)
    lines += ["", "pairs (difference in win rate, 95% interval):"]
    for p in r["pairs"]:
        lo, hi = p["ci95"]
        verdict = f"{p['better']} is better" if p["excludes_zero"] else "no significant difference"
        lines.append(f"  {p['a']} - {p['b']}: {100 * p['win_rate_diff']:+.2f} points ({100 * lo:+.2f} to {100 * hi:+.2f}): {verdict}")
    if "stopped" in r:
        lead = " vs ".join(r["leading_pair"])
        if r["stopped"] == "significant":
            lines.append(f"\nstopped: the leading pair ({lead}) differs significantly after {r['games']:,} games")
        else:
            lines.append(f"\nstopped: reached --max-games ({r['games']:,} games) without a significant difference in the leading pair ({lead})")
    if r["unfinished"]:
        lines.append(f"{r['unfinished']:,} games had no winner after 1,000 hands and count as lost for every seat")
    lines.append(f"\n{r['hands_per_game']:.2f} hands per game; {r['games_per_second']:,.0f} games/s ({r['elapsed_s']:.1f} s)")
    return "\n".join(lines)


def _ghost_table(r: dict) -> list[str]:
    """Per-strategy rows of a Ghost Hand experiment: bids, make rates by bid, moons, swaps."""
    lines = [
        f"{'strategy':<16} {'games':>9} {'win rate':>9} {'(95% interval)':>19} {'pts/hand':>9} {'bid rate':>9} "
        f"{'make 3':>7} {'make 4':>7} {'make 5':>7} {'moons':>7} {'swaps':>7}",
    ]
    for s in r["strategies"]:
        lo, hi = s["win_rate_ci95"]
        mk = s["make_rate_by_bid"]
        lines.append(
            f"{s['name'][:16]:<16} {s['games']:>9,} {_pct(s['win_rate']):>9} {'(' + _pct(lo) + '-' + _pct(hi) + ')':>19} "
            f"{s['points_per_hand']:>9.3f} {_pct(s['bid_rate']):>9} "
            + " ".join(f"{_pct(mk[k]['make_rate']):>7}" for k in ("3", "4", "5"))
            + f" {_pct(s['moon_rate']):>7} {_pct(s['swap_rate']):>7}"
        )
    return lines


def _cutthroat_table(r: dict) -> list[str]:
    """Per-strategy rows of a Cutthroat experiment: calls, make rates, going alone."""
    lines = [
        f"{'strategy':<16} {'games':>9} {'win rate':>9} {'(95% interval)':>19} {'pts/hand':>9} {'maker':>7} "
        f"{'made':>7} {'alone':>7} {'made':>7} {'def.alone':>9} {'euchred':>7}",
    ]
    for s in r["strategies"]:
        lo, hi = s["win_rate_ci95"]
        lines.append(
            f"{s['name'][:16]:<16} {s['games']:>9,} {_pct(s['win_rate']):>9} {'(' + _pct(lo) + '-' + _pct(hi) + ')':>19} "
            f"{s['points_per_hand']:>9.3f} {_pct(s['maker_rate']):>7} {_pct(s['make_rate']['rate']):>7} "
            f"{_pct(s['alone_rate']):>7} {_pct(s['alone_make_rate']['rate']):>7} {_pct(s['defend_alone_rate']):>9} "
            f"{_pct(s['defend_alone_euchre_rate']['rate']):>7}"
        )
    return lines


def _hasenpfeffer_table(r: dict) -> list[str]:
    """Per-strategy rows of a Hasenpfeffer experiment (each strategy is a partnership): bids, makes, peppers."""
    lines = [
        f"{'strategy':<16} {'games':>9} {'win rate':>9} {'(95% interval)':>19} {'pts/hand':>9} {'bids':>7} "
        f"{'bidder':>7} {'made':>7} {'peppers':>8} {'made':>7}",
    ]
    for s in r["strategies"]:
        lo, hi = s["win_rate_ci95"]
        lines.append(
            f"{s['name'][:16]:<16} {s['games'] // 2:>9,} {_pct(s['win_rate']):>9} {'(' + _pct(lo) + '-' + _pct(hi) + ')':>19} "
            f"{s['points_per_hand']:>9.3f} {_pct(s['bid_rate']):>7} {_pct(s['bidder_rate']):>7} "
            f"{_pct(s['make_rate']['rate']):>7} {_pct(s['pepper_rate']):>8} {_pct(s['pepper_make_rate']['rate']):>7}"
        )
    return lines
