"""The layout the variants rely on: kernels below the engine, and no module outside a variant's own files naming it.

A variant is ``kernels/NAME/`` and ``sim/variants/NAME/``; everything else
(commands, runner, records, experiments, analysis, report, profile, the
shared kernels, benchmarks) goes through ``bower.sim.variants`` and the
``Variant`` interface. These tests read the source: a comparison with a
variant's name or alias, a branch on one, or an import of one variant's
package from a shared module fails them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bower.sim.variants import all_variants, names

ROOT = Path(__file__).resolve().parents[1]
SHARED = [p for top in ("api", "sim", "kernels", "analysis", "benchmarks") for p in sorted((ROOT / top).rglob("*.py"))
          if not any(part in names() for part in p.relative_to(ROOT).parts[:-1])]
VARIANT_WORDS = {w for v in all_variants() for w in (v.name, *v.aliases)}


def _rel(p: Path) -> str:
    return p.relative_to(ROOT).as_posix()


def test_the_shared_modules_are_found():
    found = {_rel(p) for p in SHARED}
    assert {"sim/runner.py", "sim/records.py", "sim/experiment.py", "sim/profiling.py", "analysis/report.py",
            "sim/cli/report.py", "kernels/games.py", "sim/variants/__init__.py"} <= found
    assert not any("/ghost/" in f or "/euchre/" in f for f in found)


def _tests_of_a_name(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, text) of comparisons and dict lookups keyed by a variant's name or alias."""
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            for side in [node.left, *node.comparators]:
                consts = side.elts if isinstance(side, (ast.Tuple, ast.List, ast.Set)) else [side]
                for c in consts:
                    if isinstance(c, ast.Constant) and c.value in VARIANT_WORDS:
                        out.append((node.lineno, ast.unparse(node)))
        if isinstance(node, ast.Dict):
            for k in node.keys:
                if isinstance(k, ast.Constant) and k.value in VARIANT_WORDS:
                    out.append((node.lineno, "dict keyed by variant names"))
    return out


@pytest.mark.parametrize("path", SHARED, ids=_rel)
def test_no_shared_module_tests_a_variant_name(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    assert _tests_of_a_name(tree) == []


@pytest.mark.parametrize("path", SHARED, ids=_rel)
def test_no_shared_module_imports_one_variant(path):
    """Shared code reaches a variant through the registry, never by importing its package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = []
    for node in ast.walk(tree):
        mods = []
        if isinstance(node, ast.ImportFrom) and node.module:
            mods = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
        for m in mods:
            parts = m.split(".")
            if (parts[:2] == ["bower", "kernels"] and len(parts) > 2 and parts[2] in names()) or \
               (parts[:3] == ["bower", "sim", "variants"] and len(parts) > 3 and parts[3] in names()):
                bad.append((node.lineno, m))
    assert bad == []


def test_kernels_import_nothing_from_the_engine():
    bad = []
    for p in sorted((ROOT / "kernels").rglob("*.py")):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[:2] in (["bower", "sim"], ["bower", "analysis"]):
                bad.append((_rel(p), node.lineno, node.module))
            if isinstance(node, ast.Import) and any(a.name.split(".")[:2] in (["bower", "sim"], ["bower", "analysis"]) for a in node.names):
                bad.append((_rel(p), node.lineno))
    assert bad == []


def test_every_registered_variant_has_both_packages_and_a_full_interface():
    from dataclasses import fields

    from bower.sim.variants.base import Variant

    for v in all_variants():
        assert (ROOT / "kernels" / v.name / "codes.py").is_file()
        assert (ROOT / "sim" / "variants" / v.name / "__init__.py").is_file()
        for f in fields(Variant):
            assert getattr(v, f.name) is not None or f.name in ("phase_run", "game"), (v.name, f.name)
        from bower.sim.variants.base import CardPlay

        for f in fields(CardPlay):  # the solver and replay work for every registered variant
            if f.name in ("game_bonus", "bonus_rule"):  # a game-level rule some variants have (Euchre's tokens)
                assert (v.card_play.game_bonus is None) == (v.card_play.bonus_rule == ""), (v.name, f.name)
                continue
            assert getattr(v.card_play, f.name) not in (None, (), ""), (v.name, "card_play", f.name)
        assert v.param_names == tuple(p[0] for p in v.params)
        assert set(v.presets) >= {"default", "random"} and set(v.preset_notes) == set(v.presets)
        for preset in v.presets.values():
            assert set(preset) == set(v.param_names)


def test_the_install_maps_every_package_under_bower():
    """pyproject's package list is exactly the folders with an ``__init__.py``, each under ``bower``."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert config["package-dir"] == {"bower": "api", "bower.sim": "sim", "bower.kernels": "kernels",
                                     "bower.analysis": "analysis"}
    folders = {"bower"} | {"bower." + ".".join(p.parent.relative_to(ROOT).parts)
                           for top in ("sim", "kernels", "analysis") for p in (ROOT / top).rglob("__init__.py")}
    assert set(config["packages"]) == folders
