"""``bower strategies``: list the strategy presets and their parameters, or print one as TOML."""

from __future__ import annotations

import json

import click

from bower.sim.cli.options import StrategySpec, json_option, variant_option


@click.command()
@variant_option
@click.option("--show", "show", default=None, metavar="NAME", type=StrategySpec(),
              help="Print one strategy (preset or .toml) as TOML to start from.")
@json_option
def strategies(variant, show, as_json):
    """List a variant's strategy presets with their parameters, or print one as TOML.

    A strategy file sets every parameter, or names a preset to start from
    (base = "default") and sets only those that differ; switches are true or
    false, every other parameter a number (pimc_worlds a whole number from 0
    to 10,000).
    """
    from bower.sim.rules import get_variant
    from bower.sim.strategy import WHOLE_PARAMS, load_strategy, param_range, to_toml

    v = get_variant(variant)
    if show is not None:
        name, params = load_strategy(show, v.name)
        if as_json:
            click.echo(json.dumps({"variant": v.name, "name": name, "parameters": params}, indent=2))
        else:
            click.echo(to_toml(name, params, v.name), nl=False)
        return
    presets, notes, table = v.presets, v.preset_notes, v.params
    if as_json:
        click.echo(json.dumps({
            "variant": v.name,
            "presets": {n: {"note": notes[n], "parameters": presets[n]} for n in presets},
            "parameters": [{"name": p, "default": d, "meaning": doc, "switch": p in v.switches,
                            **({"range": list(WHOLE_PARAMS[p])} if p in WHOLE_PARAMS else {})} for p, d, doc in table],
        }, indent=2))
        return
    names = list(presets)
    click.echo(f"{v.title} strategy presets (bower strategies --variant {v.name} --show NAME prints one as TOML):")
    for n in names:
        click.echo(f"  {n:<12} {notes[n]}")
    click.echo("")
    width = max(len(p[0]) for p in table)
    click.echo(f"{'parameter':<{width}} " + " ".join(f"{n:>11}" for n in names))
    for pname, _, _ in table:
        click.echo(f"{pname:<{width}} " + " ".join(f"{presets[n][pname]:>11g}" for n in names))
    click.echo("")
    for pname, _, doc in table:
        click.echo(f"  {pname}: {doc}" + (f" ({param_range(pname)})" if param_range(pname) else ""))
