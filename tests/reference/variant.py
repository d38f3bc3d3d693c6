"""The references' own description of a variant's rule options (independent of the engine's ``bower.sim.variants``)."""

from __future__ import annotations

from dataclasses import dataclass

from bower.sim.rules import Option, RuleError, resolve


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


_RESOLVED: dict[tuple, dict] = {}


def resolve_remembered(variant, overrides: dict | None = None) -> dict:
    """``bower.sim.rules.resolve(variant, overrides)``, each distinct ``overrides`` resolved once.

    A twin's rule helpers each take unresolved rules, so one game asks for the
    same few rule sets hundreds of thousands of times. The answer is kept per
    (variant name, the overrides as given, each value's type: ``True == 1 ==
    1.0`` but not all of them parse) and handed out as a fresh copy. Bad names
    and values are refused as ``resolve`` refuses them (nothing is kept then);
    an unhashable value is resolved (and refused) afresh.
    """
    given = overrides or {}
    key = (variant.name, tuple(given.items()), tuple(map(type, given.values())))
    try:
        rules = _RESOLVED.get(key)
    except TypeError:
        return resolve(variant, overrides)
    if rules is None:
        rules = _RESOLVED[key] = resolve(variant, overrides)
    return dict(rules)
