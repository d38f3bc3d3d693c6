"""``bower strategies``: list the strategy presets and their parameters, or print one as TOML."""

from __future__ import annotations

import click


@click.command()
@click.option("--show", "show", default=None, metavar="NAME", help="Print one strategy (preset or .toml) as TOML to start from.")
def strategies(show):
    """List strategy presets with their parameters, or print one as TOML."""
    from sim.strategy import GHOST_PARAMS, PRESET_NOTES, PRESETS, load_strategy, to_toml

    if show is not None:
        name, params = load_strategy(show)
        click.echo(to_toml(name, params), nl=False)
        return
    names = list(PRESETS)
    click.echo("Ghost Hand strategy presets (bower strategies --show NAME prints one as TOML):")
    for n in names:
        click.echo(f"  {n:<12} {PRESET_NOTES[n]}")
    click.echo("")
    width = max(len(p[0]) for p in GHOST_PARAMS)
    click.echo(f"{'parameter':<{width}} " + " ".join(f"{n:>11}" for n in names))
    for pname, _, _ in GHOST_PARAMS:
        click.echo(f"{pname:<{width}} " + " ".join(f"{PRESETS[n][pname]:>11g}" for n in names))
    click.echo("")
    for pname, _, doc in GHOST_PARAMS:
        click.echo(f"  {pname}: {doc}")
