"""The ``bower`` command line: one click group, one module per command."""

from __future__ import annotations

import sys

import click

from sim.cli.analyze import analyze
from sim.cli.experiment import experiment
from sim.cli.profile import profile
from sim.cli.replay import replay
from sim.cli.report import report
from sim.cli.should_bid import should_bid
from sim.cli.simulate import simulate
from sim.cli.solve import solve
from sim.cli.strategies import strategies
from sim.cli.sweep import sweep


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="bower-euchre", prog_name="bower")
def cli():
    """bower: Monte Carlo simulation of Euchre variants."""


cli.add_command(simulate)
cli.add_command(experiment)
cli.add_command(sweep)
cli.add_command(strategies)
cli.add_command(analyze)
cli.add_command(report)
cli.add_command(should_bid)
cli.add_command(profile)
cli.add_command(solve)
cli.add_command(replay)


def main(argv=None) -> None:
    """Entry point: run the CLI; bad input prints one line ``bower: error: ...`` and exits 2."""
    from sim.errors import UserError

    args = sys.argv[1:] if argv is None else list(argv)
    if not args:
        click.echo(cli.get_help(click.Context(cli, info_name="bower")))
        sys.exit(0)
    try:
        cli.main(args=args, prog_name="bower", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("bower: interrupted", err=True)
        sys.exit(130)
    except click.exceptions.UsageError as e:
        click.echo(f"bower: error: {e.format_message()}", err=True)
        sys.exit(2)
    except click.exceptions.ClickException as e:
        click.echo(f"bower: error: {e.format_message()}", err=True)
        sys.exit(2)
    except UserError as e:
        click.echo(f"bower: error: {e}", err=True)
        sys.exit(2)
    except KeyboardInterrupt:
        click.echo("bower: interrupted", err=True)
        sys.exit(130)
    sys.exit(0)
