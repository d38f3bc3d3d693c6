"""``bower strategies``: list the strategy presets and their parameters, or print one as TOML."""

from __future__ import annotations

import click

from sim.cli.options import variant_option


@click.command()
@variant_option
@click.option("--show", "show", default=None, metavar="NAME", help="Print one strategy (preset or .toml) as TOML to start from.")
def strategies(variant, show):
    """List a variant's strategy presets with their parameters, or print one as TOML."""
    from sim.rules import get_variant
    from sim.strategy import load_strategy, to_toml

    v = get_variant(variant)
    if show is not None:
        name, params = load_strategy(show, v.name)
        click.echo(to_toml(name, params, v.name), nl=False)
        return
    presets, notes, table = v.presets, v.preset_notes, v.params
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
        click.echo(f"  {pname}: {doc}")
