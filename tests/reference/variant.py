"""The references' own description of a variant's rule options (independent of the engine's ``bower.sim.variants``)."""

from __future__ import annotations

from dataclasses import dataclass

from bower.sim.rules import Option, RuleError


@dataclass(frozen=True)
class Variant:
    """Name, seats, hand size, target and rule options (in kernel order), as a reference engine states them."""

    name: str
    title: str
    players: int
    hand_size: int
    target: int
    options: tuple[Option, ...]

    def option(self, name: str) -> Option:
        """The option called ``name``; RuleError otherwise."""
        for o in self.options:
            if o.name == name:
                return o
        raise RuleError(f"unknown rule option {name!r} for {self.name}")
