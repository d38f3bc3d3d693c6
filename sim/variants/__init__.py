"""The registry of variants: every game bower plays, each one package implementing ``bower.sim.variants.base.Variant``.

``get_variant("cutthroat")`` (or an alias) gives the ``Variant`` object that
the commands, runner, records, experiments, analysis, report and profile go
through; ``VARIANTS`` lists them in the order help texts show. Adding a
variant is adding its packages and one line to ``_PACKAGES``
(docs/explanations/kernels.md: "Adding a variant").
"""

from __future__ import annotations

import importlib

_PACKAGES = ("ghost", "cutthroat", "hasenpfeffer", "euchre")
_loaded: dict = {}


def _load(key: str):
    if key not in _loaded:
        _loaded[key] = importlib.import_module(f"bower.sim.variants.{key}").VARIANT
    return _loaded[key]


def names() -> tuple[str, ...]:
    """The variant names, in registry order."""
    return _PACKAGES


def all_variants() -> list:
    """Every ``Variant``, in registry order."""
    return [_load(k) for k in _PACKAGES]


def named(name):
    """The ``Variant`` whose name is exactly ``name`` (no alias, no other case), else None.

    Only the packages up to it, in registry order, are loaded: a Ghost Hand
    records file is read without loading (and compiling nothing of) the
    other variants' modules and kernels.
    """
    if not isinstance(name, str):
        return None
    for k in _PACKAGES:
        v = _load(k)
        if v.name == name:
            return v
    return None


def get_variant(name):
    """The ``Variant`` called ``name`` or one of its aliases (any case); RuleError naming the known ones otherwise."""
    if not isinstance(name, str):
        return name  # already a Variant
    key = name.strip().lower()
    for k in _PACKAGES:
        v = _load(k)
        if key == v.name or key in v.aliases:
            return v
    from bower.sim.rules import RuleError  # here: importing the registry loads no NumPy (the CLI's option types)
    from bower.sim.text import did_you_mean

    names = [n for k in _PACKAGES for n in (_load(k).name, *_load(k).aliases)]
    raise RuleError(f"unknown variant {name!r}{did_you_mean(name, names)} (known: {', '.join(_PACKAGES)})")
