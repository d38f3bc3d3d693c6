"""``bower experiment A B [C]``: which strategy wins more whole games, by how much, how surely."""

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
    start_option,
    threads_option,
    variant_option,
)
from bower.sim.limits import MAX_GAMES
from bower.sim.text import limit_text


@click.command()
@click.argument("strategies", nargs=-1, required=True, type=StrategySpec())
@variant_option
@click.option("--games", default=100_000, show_default=True, type=Count(high=MAX_GAMES),
              help=f"Games to play (rounded up to whole deal sets, said on stderr; at most {limit_text(MAX_GAMES)}).")
@seed_option
@threads_option
@scheduler_option
@rule_option
@click.option("--until-significant", is_flag=True, help="Keep playing batches of --games until the leading pair differs significantly.")
@click.option("--max-games", default=1_000_000, show_default=True, type=Count(high=MAX_GAMES),
              help=f"Stop --until-significant here (at most {limit_text(MAX_GAMES)}).")
@click.option("--independent", is_flag=True, help="Give every seat assignment its own deals (no duplicate play), for comparison.")
@start_option("Start every game at these scores, duplicate games included, each below the target: two side "
              "scores where partners play (the side of seats 0 & 2 first, e.g. 4,9), else one score per player "
              "by seat (e.g. 20,0,0); the first dealer is the same.")
@bot_timeout_option("Python bots")
@json_option
def experiment(strategies, variant, games, seed, threads, scheduler, rules, until_significant, max_games, independent,
               start, bot_timeout, as_json):
    """Play strategies A B [C] (presets or .toml files) against each other in duplicate games.

    A player given as path.py:Class is a Python bot (the class, made with no
    arguments, has step(state) -> action); with one, every player plays
    through the game API and names bots (random, greedy, or a heuristic
    preset or .toml, which decides as the kernels' strategy does).
    bot:NAME makes a preset a bot always (bot:default against default).
    """
    from bower.sim import experiment as ex
    from bower.sim.progress import Progress
    from bower.sim.rules import get_variant, parse_rule_args

    v = get_variant(variant)
    rules_d = parse_rule_args(v, rules)
    if len(strategies) not in (2, 3):
        raise ex.runner.RunError(f"give 2 or 3 strategies to compare, got {len(strategies)}")
    ex.runner.check_start(start, v)
    progress = Progress("games", enabled=False if as_json else None)
    try:
        res = ex.run_experiment(
            list(strategies), games=games, seed=seed, threads=threads, rules=rules_d, duplicate=not independent,
            until_significant=until_significant, max_games=max_games, names=list(strategies), progress=progress,
            variant=v.name, scheduler=scheduler, start=start, bot_timeout=bot_timeout,
        )
    finally:
        progress.close()
    if as_json:
        click.echo(json.dumps(res, indent=2))
    else:
        click.echo(format_experiment(res))



def format_experiment(r: dict) -> str:
    """The human-readable report of an experiment result."""
    from bower.sim.rules import get_variant

    mode = "duplicate deals (every seat assignment on the same deals)" if r["duplicate"] else "independent deals"
    lines = [
        f"{get_variant(r['variant']).title} experiment: {r['games']:,} games in {r['deal_sets']:,} deal sets, seed {r['seed']}, {mode}",
        "rules: " + " ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in r["rules"].items()),
        f"seat assignments: {len(r['assignments'])} ({', '.join('/'.join(a) for a in r['assignments'])})",
    ]
    if r.get("start"):
        from bower.sim.cli.simulate import start_text

        unit = "side" if get_variant(r["variant"]).partnerships else "seat"
        lines.append(f"every game started at {start_text(r['start'])} (--start, by {unit})")
    lines.append("")
    if r.get("bots"):
        from bower.sim.bots import experiment_table

        lines += experiment_table(r)
    else:
        lines += get_variant(r["variant"]).experiment_table(r)
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
    if "tokens_earned" in r:
        lines.append(f"four_trick_tokens: {r['tokens_earned']:,} tokens earned, {r['token_points']:,} points for tokens "
                     f"turned in ({r['token_points_per_game']:.3f} a game)")
    lines.append(f"\n{r['hands_per_game']:.2f} hands per game; {r['games_per_second']:,.0f} games/s ({r['elapsed_s']:.1f} s)")
    return "\n".join(lines)


