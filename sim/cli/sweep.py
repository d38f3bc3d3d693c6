"""``bower sweep``: one strategy parameter (or a grid) against two copies of a base strategy."""

from __future__ import annotations

import json

import click

from bower.sim.cli.options import (
    Count,
    bot_timeout_option,
    StrategySpec,
    json_option,
    rule_option,
    scheduler_option,
    seed_option,
    threads_option,
    variant_option,
)
from bower.sim.limits import MAX_GAMES
from bower.sim.text import limit_text


@click.command()
@click.option("--param", "params", multiple=True, required=True, metavar="NAME=START:STOP:STEP",
              help="Parameter values to try (STOP included); a second --param makes a grid.")
@click.option("--base", default="default", show_default=True, type=StrategySpec(),
              help="Base strategy (preset or .toml), or a Python bot (path.py:Class, greedy) whose keyword arguments "
                   "--param sets.")
@variant_option
@click.option("--games", default=30_000, show_default=True, type=Count(high=MAX_GAMES),
              help=f"Games per value (rounded up to whole deal sets, said on stderr; at most {limit_text(MAX_GAMES)}).")
@seed_option
@threads_option
@scheduler_option
@rule_option
@bot_timeout_option("a Python bot as --base")
@json_option
def sweep(params, base, variant, games, seed, threads, scheduler, rules, bot_timeout, as_json):
    """Play the base strategy with each parameter value against two copies of the base.

    A --base given as path.py:Class (or greedy) is a Python bot: at each
    value the class is made with NAME=value keyword arguments, and plays the
    same duplicate games through the game API against the class made with
    no arguments.
    """
    from bower.sim import bots
    from bower.sim import experiment as ex
    from bower.sim.progress import Progress
    from bower.sim.rules import get_variant, parse_rule_args

    v = get_variant(variant)
    rules_d = parse_rule_args(v, rules)
    is_bot = bots.is_bot_base(base)
    for p in params:
        bots.parse_bot_range(p) if is_bot else ex.parse_range(p, v.name)
    if is_bot and scheduler is not None:
        raise bots.BotError(f"a sweep of a bot runs in this process: drop --scheduler {scheduler}")
    progress = Progress("values", enabled=False if as_json else None)
    try:
        if is_bot:
            res = bots.run_bot_sweep(list(params), base, games=games, seed=seed, rules=rules_d, progress=progress,
                                     variant=v.name, bot_timeout=bot_timeout)
        else:
            res = ex.run_sweep(list(params), base=base, games=games, seed=seed, threads=threads, rules=rules_d,
                               progress=progress, variant=v.name, scheduler=scheduler)
    finally:
        progress.close()
    if as_json:
        click.echo(json.dumps(res, indent=2))
    else:
        click.echo(format_sweep(res))


def format_sweep(r: dict) -> str:
    """The human-readable table of a sweep."""
    from bower.sim.rules import get_variant

    names = r["params"]
    v = get_variant(r["variant"])
    lines = [
        f"{v.title} sweep against two copies of {r['base']}: {r['games_per_row']:,} games per row, seed {r['seed']}",
        ("win rate of the candidate partnership (1/2 = as good as the base), 95% interval; * = best"
         if v.partnerships else
         f"win rate of the candidate seat (1/{v.players} = as good as the base), 95% interval; * = best"),
        "",
        " ".join(f"{n:>14}" for n in names) + f" {'win rate':>9} {'(95% interval)':>19} {'pts/hand':>9} {'base pts':>9}",
    ]
    tokens = any("tokens_earned" in row for row in r["rows"])  # rows under Euchre's four_trick_tokens carry its counts
    if tokens:
        lines[-1] += f" {'tokens':>9} {'tok pts':>9}"
    for row in r["rows"]:
        lo, hi = row["win_rate_ci95"]
        lines.append(
            " ".join(f"{row['values'][n]:>14g}" for n in names)
            + f" {100 * row['win_rate']:>8.2f}% {f'({100 * lo:.2f}-{100 * hi:.2f}%)':>19}"
            + f" {row['points_per_hand']:>9.3f} {row['base_points_per_hand']:>9.3f}"
            + (f" {row['tokens_earned']:>9,} {row['token_points']:>9,}" if tokens else "")
            + ("  *" if row["best"] else "")
        )
    if tokens:
        lines.append("(tokens: four_trick_tokens earned by both sides in the row's games; tok pts: points of tokens "
                     "turned in, in the scores)")
    return "\n".join(lines)
