"""``bower equity``: the chance that a side wins the game from any score (Euchre, Hasenpfeffer)."""

from __future__ import annotations

import json

import click

from bower.sim.cli.options import (
    Count,
    json_option,
    rule_option,
    seed_option,
    strategy_option,
    threads_option,
    VariantChoice,
)
from bower.sim.equity import DEFAULT_HANDS, MAX_TARGET
from bower.sim.limits import MAX_HANDS
from bower.sim.text import limit_text


@click.command()
@click.option("--variant", default="euchre", show_default=True, type=VariantChoice(),
              help="Game variant: euchre or hasenpfeffer (Ghost Hand and Cutthroat: not yet).")
@strategy_option
@rule_option
@click.option("--hands", default=DEFAULT_HANDS, show_default=True, type=Count(high=MAX_HANDS),
              help=f"Hands simulated for the outcome distribution by dealer (at most {limit_text(MAX_HANDS)}).")
@seed_option
@threads_option
@click.option("--target", default=None, type=int, help=f"Points that win the game (default: the variant's; 1 to {MAX_TARGET}).")
@click.option("--score", default=None, metavar="OWN,OPP", help="Print this state's equity with its 95% interval, e.g. 6,8.")
@click.option("--dealer", default=None, type=click.Choice(["own", "opponent"]),
              help="The table for this side dealing next (default: averaged over the four dealers).")
@json_option
@click.option("--plot", "plot_path", default=None, metavar="FILE.png", help="Also draw the table as a heat map (PNG).")
def equity(variant, strategy, rules, hands, seed, threads, target, score, dealer, as_json, plot_path):
    """Game equity: each score's chance of winning the game, by exact DP over simulated hands."""
    from bower.sim import equity as E
    from bower.sim.rules import get_variant, parse_rule_args

    v = get_variant(variant)
    E.check_variant(v)
    rules_d = parse_rule_args(v, rules)
    if target is not None:
        E.check_target(target)
    state = E.parse_score(score) if score is not None else None
    if state is not None:
        E.check_score(state, target or v.target, -E.FLOOR_SPAN * (target or v.target))
    if plot_path is not None and not plot_path.lower().endswith(".png"):
        raise E.EquityError(f"--plot needs a file name ending in .png, got {plot_path!r}")
    table = E.compute(v.name, strategy=strategy, rules=rules_d, hands=hands, seed=seed, threads=threads,
                      target=target)
    if plot_path:
        E.plot(table, plot_path, dealer)
    if state is not None:
        one = E.state_equity(table, state, dealer)
        if as_json:
            click.echo(json.dumps({**{k: table[k] for k in ("variant", "rules", "strategy", "hands", "seed",
                                                            "target")}, **one}, indent=2))
        else:
            lo, hi = one["ci95"]
            click.echo(f"{v.title} to {table['target']}, score {state[0]}-{state[1]} "
                       f"({'averaged over the dealer' if dealer is None else dealer + ' side dealing'}): "
                       f"{100 * one['equity']:.1f}% to win (95%: {100 * lo:.1f}-{100 * hi:.1f}%)")
        return
    if as_json:
        click.echo(json.dumps(table))
    else:
        click.echo(E.format_table(table, dealer))
