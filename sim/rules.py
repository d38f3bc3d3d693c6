"""Rules as data: rule options with their defaults, and a rule set's encoding for the kernels.

Option names and values are exactly those of RULES.md; each variant lists its
options (in kernel order, with their codes) in ``kernels/NAME/codes.py`` and
exposes them as ``Variant.options`` (``bower.sim.variants``). A rule set is a dict
``{name: value}`` with every option of the variant; ``encode`` turns it into
the int64 vector the kernels read (index = position in ``options``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bower.sim.errors import UserError
from bower.sim.text import number_text

RULES_VERSION = "bower-rules-1 (RULES.md 2026-11)"


class RuleError(UserError, ValueError):
    """An unknown variant, an unknown rule option or a value the option does not allow."""


@dataclass(frozen=True)
class Option:
    """One named rule option: allowed values (default first) and their kernel codes."""

    name: str
    values: tuple
    codes: tuple

    @property
    def default(self):
        return self.values[0]


_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off"}


def get_variant(name: str):
    """The variant called ``name`` or one of its aliases (``bower.sim.variants.get_variant``); RuleError otherwise."""
    from bower.sim.variants import get_variant as lookup

    return lookup(name)


def _parse_value(opt: Option, raw) -> object:
    for v in opt.values:
        if raw == v and type(raw) is type(v):
            return v
    shown = number_text(raw)
    text = shown.replace(",", "") if isinstance(raw, int) else str(raw).strip().lower()
    for v in opt.values:
        if isinstance(v, bool):
            if (v and text in _TRUE) or (not v and text in _FALSE):
                return v
        elif str(v).lower() == text:
            return v
    allowed = " | ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in opt.values)
    raise RuleError(f"bad value {shown} for rule option {opt.name!r} (allowed: {allowed})")


def resolve(variant, overrides: dict | None = None) -> dict:
    """Every option of ``variant`` with its value: defaults, then ``overrides`` (names checked)."""
    rules = {o.name: o.default for o in variant.options}
    for name, raw in (overrides or {}).items():
        opt = variant.option(name)
        rules[name] = _parse_value(opt, raw)
    return rules


def parse_rule_args(variant, pairs) -> dict:
    """Rules from ``NAME=VALUE`` strings (the CLI's ``--rule``), resolved against defaults."""
    overrides = {}
    for p in pairs or ():
        if "=" not in p:
            raise RuleError(f"rule option {p!r} must be written NAME=VALUE")
        name, value = p.split("=", 1)
        overrides[name.strip()] = value.strip()
    return resolve(variant, overrides)


def encode(variant, rules: dict) -> np.ndarray:
    """The int64 vector of kernel codes for a resolved rule set."""
    vec = np.zeros(len(variant.options), np.int64)
    for i, o in enumerate(variant.options):
        vec[i] = o.codes[o.values.index(rules[o.name])]
    return vec


def to_json(rules: dict) -> dict:
    """Rules as JSON-ready values (booleans stay booleans, numbers numbers)."""
    return dict(rules)
