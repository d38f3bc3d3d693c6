"""Every example in the library's docstrings runs, and prints what its docstring says (``help(bower.simulate)``...).

Each docstring with ``>>>`` lines is one test, run by ``doctest`` in a
folder of its own (an example may write a records file under a relative
name). The numbers the examples show come from fixed seeds, so a change to
the engine that moves them fails here, as a golden file would.
"""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ("bower", "bower.results", "bower.data", "bower.sim.strategy", "bower.sim.errors")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _examples() -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder(exclude_empty=True)
    found = {}
    for name in MODULES:
        module = importlib.import_module(name)
        for t in finder.find(module, name, globs={}):
            if t.examples and (t.name.startswith(name) or name == "bower"):
                found.setdefault(t.name, t)
    return sorted(found.values(), key=lambda t: t.name)


EXAMPLES = _examples()


def _public() -> list[tuple[str, object]]:
    """(name, object) of every function and class of ``bower.__all__`` and every public method of those classes."""
    import inspect

    import bower

    out = []
    for n in bower.__all__:
        obj = getattr(bower, n)
        if not callable(obj):
            continue
        out.append((n, obj))
        if isinstance(obj, type):
            out += [(f"{n}.{m}", f) for m, f in vars(obj).items() if not m.startswith("_") and inspect.isfunction(f)]
    return out


def test_every_public_function_has_an_example():
    """help() of each function and class in ``bower.__all__``, and of each public method, shows an example."""
    names = {t.name for t in EXAMPLES}
    missing = [name for name, obj in _public() if not any(t.endswith("." + obj.__qualname__) for t in names)]
    assert missing == []


def test_every_public_function_has_full_type_hints():
    """Every parameter of every public function, class and method is annotated; so is every function's return."""
    import inspect

    bare = []
    for name, obj in _public():
        init = isinstance(obj, type)
        if init:
            obj = obj.__init__
            if not inspect.isfunction(obj):  # BowerError: click's ClickException(message: str)
                continue
        sig = inspect.signature(obj)
        bare += [f"{name}({p})" for p, v in sig.parameters.items()
                 if v.annotation is inspect.Parameter.empty and p not in ("self", "cls")]
        if not init and sig.return_annotation is inspect.Signature.empty:
            bare.append(f"{name} -> ?")
    assert bare == []


@pytest.mark.parametrize("test", EXAMPLES, ids=[t.name for t in EXAMPLES])
def test_docstring_example(test, tmp_path, monkeypatch):
    """The example runs and prints what the docstring shows."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BOWER_QUIET", "1")
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    test.globs = {"bower": importlib.import_module("bower"), **test.globs}
    out = []
    result = runner.run(test, out=out.append, clear_globs=True)
    assert result.failed == 0, "".join(out)


def test_the_package_is_marked_typed():
    """``py.typed`` ships beside ``bower/__init__.py`` (PEP 561), and the public functions carry return types."""
    import inspect
    from pathlib import Path

    import bower

    assert (Path(bower.__file__).parent / "py.typed").is_file()
    untyped = [n for n in bower.__all__ if inspect.isfunction(getattr(bower, n))
               and inspect.signature(getattr(bower, n)).return_annotation is inspect.Signature.empty]
    assert untyped == []
