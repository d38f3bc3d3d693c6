"""``bower warm``: compile the kernels ahead of time, in parallel processes, with a progress line."""

from __future__ import annotations

import json

import click

from bower.sim.cli.options import VariantChoice, _variant_help, json_option
from bower.sim.warm import ALL_PARTS


@click.command()
@click.option("--variant", "variants", multiple=True, type=VariantChoice(),
              help="Compile this variant (repeatable; default: every variant). " + _variant_help())
@click.option("--part", "parts", multiple=True, type=click.Choice(ALL_PARTS, case_sensitive=False),
              help="What to compile (repeatable; default: hands, records, games, advice): hands for bower simulate, "
                   "records for --records, analyze and report, games for --games, experiment and sweep, advice for "
                   "should-bid; search (opt-in: as long again) for the PIMC presets, bower solve and "
                   "should-bid --playout dd or pimc, in a process of its own.")
@click.option("--jobs", "-j", default=None, type=click.IntRange(min=1), envvar="BOWER_WARM_JOBS", show_envvar=True,
              help="Processes compiling at once (default: the CPUs, at most one per group).")
@json_option
def warm(variants, parts, jobs, as_json):
    """Compile the kernels ahead of time, so that the first runs load them from the cache.

    One process per variant (a group), JOBS at a time, each running the
    commands' own code once, tiny, so it compiles what they load into the
    kernel cache later runs read (bower.kernels.cache_dir()). Kernels already
    cached only load: a second bower warm says "cached" and ends in seconds.
    The progress line and the summary go to stderr (not with --quiet);
    --json prints each group's CPU seconds on stdout.
    """
    from bower.sim import warm as W

    result = W.warm(list(variants) or None, parts=list(parts) or None, jobs=jobs, progress=True)
    if as_json:
        click.echo(json.dumps(result, indent=2))
