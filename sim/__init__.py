"""bower: Monte Carlo simulation of Euchre variants (Python API, rules, strategies, runner, CLI)."""

__version__ = "0.1.0"
