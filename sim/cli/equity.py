"""``bower equity``: the chance that a side (Euchre, Hasenpfeffer) or a player (Ghost Hand, Cutthroat) wins the game."""

from __future__ import annotations

import json

import click

from bower.sim.cli.options import (
    Count,
    json_option,
    rule_option,
    scheduler_option,
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
              help="Game variant: euchre, hasenpfeffer (by side), ghost or cutthroat (by player).")
@strategy_option
@rule_option
@click.option("--hands", default=DEFAULT_HANDS, show_default=True, type=Count(high=MAX_HANDS),
              help=f"Hands simulated for the outcome distribution by dealer (at most {limit_text(MAX_HANDS)}).")
@seed_option
@threads_option
@scheduler_option
@click.option("--target", default=None, type=int,
              help=f"Points that win the game (default: the variant's; 1 to {MAX_TARGET}).")
@click.option("--score", default=None, metavar="OWN,OPP",
              help="Print this state's equity with its 95% interval, e.g. 6,8 (three players: one per seat, 20,12,5).")
@click.option("--dealer", default=None, type=click.Choice(["own", "opponent", "0", "1", "2"]),
              help="The table for this side (three players: this seat) dealing next (default: averaged over the "
                   "dealers).")
@click.option("--third", default=0, show_default=True, type=int,
              help="Three players: seat 2's score in the printed slice (rows seat 0's score, columns seat 1's).")
@json_option
@click.option("--plot", "plot_path", default=None, metavar="FILE.png", help="Also draw the table as a heat map (PNG).")
@click.option("--no-cache", "no_cache", is_flag=True,
              help="Compute the table even if it is cached, and do not keep it (as BOWER_EQUITY_CACHE=0).")
def equity(variant, strategy, rules, hands, seed, threads, scheduler, target, score, dealer, third, as_json, plot_path,
           no_cache):
    """Game equity: each score's chance of winning the game, by exact DP over simulated hands.

    The hands can run as Dask tasks (--scheduler local:2, or a scheduler's address); the table is the same for
    any --threads or --scheduler.
    """
    from bower.sim import equity as E
    from bower.sim.rules import get_variant, parse_rule_args

    v = get_variant(variant)
    E.check_variant(v)
    rules_d = parse_rule_args(v, rules)
    if target is not None:
        E.check_target(target)
    if not v.partnerships:
        return _equity3(E, v, strategy, rules_d, hands, seed, threads, target, score, dealer, third, as_json,
                        plot_path, not no_cache, scheduler)
    if dealer not in (None, "own", "opponent"):
        raise E.EquityError(f"--dealer for two sides is own or opponent, got {dealer!r}")
    state = E.parse_score(score) if score is not None else None
    if state is not None:
        E.check_score(state, target or v.target, -E.FLOOR_SPAN * (target or v.target))
    if plot_path is not None and not plot_path.lower().endswith(".png"):
        raise E.EquityError(f"--plot needs a file name ending in .png, got {plot_path!r}")
    table = _table(E, v, strategy, rules_d, hands, seed, threads, target, not no_cache, scheduler)
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
    if as_json:  # every key but the redrawn tables kept for should-bid (``draws``)
        click.echo(json.dumps({k: x for k, x in table.items() if k != "draws"}))
    else:
        click.echo(E.format_table(table, dealer))


def _table(E, v, strategy, rules_d, hands, seed, threads, target, cache, scheduler=None):
    """The table, from the cache where it is there (one ``bower: note:`` line on stderr saying so); computed with
    its hands on ``scheduler`` otherwise."""
    from bower.sim.progress import notice

    table, path = E.compute_cached(v.name, strategy=strategy, rules=rules_d, hands=hands, seed=seed,
                                   threads=threads, target=target, cache=cache, scheduler=scheduler)
    if path is not None:
        notice(f"equity table read from the cache ({path}; computed in {table['cpu_s']:.1f} CPU s); "
               f"--no-cache computes it again")
    return table


def _equity3(E, v, strategy, rules_d, hands, seed, threads, target, score, dealer, third, as_json, plot_path,
             cache=True, scheduler=None):
    """``bower equity`` for the three-player variants: slices of the cube with seat 2 fixed at ``third``."""
    t = target or v.target
    if dealer not in (None, "0", "1", "2"):
        raise E.EquityError(f"--dealer for three players is a seat, 0, 1 or 2, got {dealer!r}")
    dealer = None if dealer is None else int(dealer)
    E.check_rules3(v, E.resolved_rules(v, seed, rules_d))
    state = E.parse_score(score, 3) if score is not None else None
    asked = (*(state or ()), third)
    # the target and the lowest floor there can be now (before the hands); whether scores fall at all once they say
    E.check_score(asked, t, -E.FLOOR_SPAN3 * t)
    if plot_path is not None and not plot_path.lower().endswith(".png"):
        raise E.EquityError(f"--plot needs a file name ending in .png, got {plot_path!r}")
    table = _table(E, v, strategy, rules_d, hands, seed, threads, target, cache, scheduler)
    E.check_score(asked, t, table["floor"])  # 0 where no hand takes points away
    if plot_path:
        E.plot3(table, plot_path, tuple(sorted({third, 0, t // 2})), dealer)
    head = {k: table[k] for k in ("variant", "rules", "strategy", "hands", "seed", "resamples", "target", "floor")}
    if state is not None:
        one = E.state_equity3(table, state, dealer)
        if as_json:
            click.echo(json.dumps({**head, **one}, indent=2))
        else:
            who = "averaged over the dealer" if dealer is None else f"seat {dealer} dealing"
            each = ", ".join(f"seat {s} {100 * x:.1f}% (95%: {100 * lo:.1f}-{100 * hi:.1f}%)"
                             for s, (x, (lo, hi)) in enumerate(zip(one["equity"], one["ci95"])))
            click.echo(f"{v.title} to {t}, score {'-'.join(map(str, state))} ({who}): {each}")
        return
    if as_json:
        eq, lo, hi = E.seat_view(table, dealer)
        import numpy as np

        se = np.asarray(table["se"])[[0, 1, 2] if dealer is None else [dealer]].mean(axis=0)
        f = table["floor"]
        cut = {k: a[:, :, :, third - f].tolist() for k, a in (("equity", eq), ("low", lo), ("high", hi),
                                                              ("se", se))}
        rest = {k: table[k] for k in ("scores", "start", "start_by_position", "start_ci95", "floor_effect",
                                      "outcomes", "sweeps", "cpu_s", "wall_s")}
        click.echo(json.dumps({**head, **rest, "dealer": "average" if dealer is None else dealer, "third": third,
                               **cut}))
    else:
        click.echo(E.format_table3(table, third, dealer))
