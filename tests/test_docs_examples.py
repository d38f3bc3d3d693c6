"""Every example in README.md and the documentation pages still matches the tool: each ``bower ...`` command line
parses (its command, options and values, as the CLI would read them, without running it), and each ``bower.f(...)``
call of a Python example names a public function and its keyword arguments.

The figures these examples print are checked by ``make docs-check`` (``tests/docs_check.py``), which reruns
them; this is the quick half, run by the suite, which catches an example left behind by a renamed command,
option or argument. The appendix (``docs/appendix/``) keeps old commands as history and is left out.
"""

from __future__ import annotations

import ast
import inspect
import re
import shlex
from pathlib import Path

import click
import pytest

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)
DEAL = "0:JC JS TD 9H JH QH 1:9C TC AC 9S 9D AD 2:QC TS KS AS KH AH"  # the pages' "$D"


def _pages() -> list[Path]:
    return [ROOT / "README.md"] + sorted(p for p in (ROOT / "docs").rglob("*.md") if "appendix" not in p.parts)


def _blocks():
    for page in _pages():
        text = page.read_text(encoding="utf-8")
        for m in FENCE.finditer(text):
            yield page, text[: m.start()].count("\n") + 1, m.group(1), m.group(2)


def _command_lines() -> list[tuple[str, list[str]]]:
    """(where, argv after ``bower``) of every ``bower`` command line in a shell block (an example of an error,
    a block showing ``bower: error``, is left out: it is meant not to parse)."""
    out = []
    for page, line, lang, body in _blocks():
        if lang not in ("", "sh", "bash", "console", "shell") or "bower: error" in body:
            continue
        joined = re.sub(r"\\\n\s*", " ", body)
        for i, raw in enumerate(joined.split("\n")):
            text = raw.strip()
            text = text[2:] if text.startswith("$ ") else text
            if not text.startswith("bower "):
                continue
            text = text.replace('"$D"', shlex.quote(DEAL))
            try:
                words = shlex.split(text, comments=True)
            except ValueError:  # a quote that a later line of the pipe closes: the command before the pipe
                words = shlex.split(re.split(r" [|>] ", text)[0], comments=True)
            for k, w in enumerate(words):  # the command ends at a pipe or a redirection
                if w in ("|", ">", ">>", "&&", ";", "2>&1") or w.startswith(">"):
                    words = words[:k]
                    break
            out.append((f"{page.relative_to(ROOT)}:{line + i + 1}", words[1:]))
    return out


COMMANDS = _command_lines()


def test_the_pages_have_command_examples():
    assert len(COMMANDS) > 60


def _parse(argv: list[str]) -> None:
    """Parse ``bower ARGV`` as the CLI would, running nothing: click's error for an unknown command, option or
    value."""
    from bower.sim.cli import cli

    try:
        with cli.make_context("bower", list(argv)) as ctx:
            protected = ctx._protected_args if hasattr(ctx, "_protected_args") else ctx.protected_args  # click < 8.2
            name, cmd, rest = cli.resolve_command(ctx, [*protected, *ctx.args])
            with cmd.make_context(name, rest, parent=ctx):
                pass
    except click.exceptions.Exit:  # --help, --version
        pass


@pytest.mark.parametrize("argv", [["simulate", "--hands", "10", "--no-such-option"], ["simulat"],
                                  ["simulate", "--variant", "bridge"], ["should-bid", "JH", "--position", "x"]])
def test_a_stale_command_line_is_caught(argv):
    with pytest.raises(click.ClickException):
        _parse(argv)


@pytest.mark.parametrize("where, argv", COMMANDS, ids=[w for w, _ in COMMANDS])
def test_a_documented_command_line_parses(where, argv):
    """Its command exists and click accepts its options and values (types converted), as ``bower`` would."""
    try:
        _parse(argv)
    except click.ClickException as e:
        pytest.fail(f"{where}: bower {shlex.join(argv)}: {e.format_message()}")


def _python_calls() -> list[tuple[str, str, list[str]]]:
    """(where, function, keyword names) of every ``bower.f(...)`` call in a Python block."""
    out = []
    for page, line, lang, body in _blocks():
        if lang != "python":
            continue
        tree = ast.parse(body)
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "bower"):
                out.append((f"{page.relative_to(ROOT)}:{line + node.lineno}", node.func.attr,
                            [k.arg for k in node.keywords if k.arg is not None]))
    return out


CALLS = _python_calls()


def test_the_pages_have_python_examples():
    assert len(CALLS) > 5


@pytest.mark.parametrize("where, name, keywords", CALLS, ids=[f"{w}-{n}" for w, n, _ in CALLS])
def test_a_documented_library_call_names_real_arguments(where, name, keywords):
    import bower

    assert name in bower.__all__, f"{where}: bower.{name} is not a public function"
    params = inspect.signature(getattr(bower, name)).parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return  # bower.strategy(**params): every strategy parameter, checked when called
    unknown = [k for k in keywords if k not in params]
    assert not unknown, f"{where}: bower.{name} has no argument {', '.join(unknown)}"
