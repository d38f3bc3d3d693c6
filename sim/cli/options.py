"""Options shared by several commands, spelled once."""

import click

def _variant_help() -> str:
    from sim.variants import names

    known = names()
    return "Game variant: " + ", ".join(known[:-1]) + " or " + known[-1] + "."


variant_option = click.option("--variant", default="ghost", show_default=True, help=_variant_help())
seed_option = click.option("--seed", default=0, show_default=True, type=click.IntRange(min=0), help="Random seed.")
threads_option = click.option(
    "--threads", default=None, type=int, help="Kernel threads (default: all cores). Results do not depend on it."
)
rule_option = click.option(
    "--rule", "rules", multiple=True, metavar="NAME=VALUE", help="Rule option as named in RULES.md (repeatable)."
)
strategy_option = click.option(
    "--strategy", default="default", show_default=True, help="Strategy: a preset name (bower strategies) or a .toml file."
)
json_option = click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
