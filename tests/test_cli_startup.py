"""The command line starts light: ``import bower`` and the CLI's module load no NumPy, pandas or Numba, a command
imports only its own module, and a signal while the heavy modules load is a stop like any other (one line, 130).

``main`` sets its signal handlers before anything heavy is imported
(``bower.sim.cli``: the commands load lazily), so only the interpreter's own
start and click's import come before them.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from bower.sim import cli as cli_mod

HEAVY = ("numpy", "pandas", "numba", "pyarrow", "duckdb")


def _modules_after(code: str) -> dict:
    """The heavy modules and bower's command modules loaded after ``code`` runs in a fresh interpreter."""
    probe = (f"import sys\n{code}\nimport json\n"
             "print(json.dumps({'heavy': sorted(m for m in sys.modules if m.split('.')[0] in %r),"
             " 'commands': sorted(m for m in sys.modules if m.startswith('bower.sim.cli.'))}))" % (HEAVY,))
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300, check=True)
    return json.loads(out.stdout.splitlines()[-1])


def test_importing_bower_and_the_cli_loads_nothing_heavy():
    got = _modules_after("import bower\nfrom bower.sim.cli import main")
    assert got["heavy"] == []
    assert got["commands"] == ["bower.sim.cli.options"]


def test_a_command_loads_its_own_module_only():
    got = _modules_after("from bower.sim.cli import main\ntry:\n    main(['strategies', '--variant', 'euchre'])\n"
                         "except SystemExit:\n    pass")
    assert got["commands"] == ["bower.sim.cli.options", "bower.sim.cli.strategies"]


def test_every_command_is_listed_and_loads():
    ctx = cli_mod.cli.make_context("bower", [], resilient_parsing=True)
    names = cli_mod.cli.list_commands(ctx)
    assert names == sorted(cli_mod.COMMANDS) and "should-bid" in names
    for name in names:
        cmd = cli_mod.cli.get_command(ctx, name)
        assert cmd.name == name and any(p.name == "quiet" for p in cmd.params), name
    assert cli_mod.cli.get_command(ctx, "shuffle") is None


def _stop_while_loading(monkeypatch, where: str):
    """Make the loading step ``where`` raise the KeyboardInterrupt a SIGINT would."""
    def interrupted(*_a, **_k):
        raise KeyboardInterrupt

    if where == "numba":
        from bower.sim import progress

        monkeypatch.setattr(progress, "watch_compiles", interrupted)
    else:
        monkeypatch.setattr(cli_mod.BowerGroup, "_loaded", {})
        monkeypatch.setattr("importlib.import_module", interrupted)


@pytest.mark.parametrize("where", ["numba", "command"])
def test_a_signal_while_the_modules_load_is_one_line(capsys, monkeypatch, where):
    _stop_while_loading(monkeypatch, where)
    with pytest.raises(SystemExit) as e:
        cli_mod.main(["simulate", "--hands", "100"])
    assert e.value.code == 130
    out, err = capsys.readouterr()
    assert (out, err) == ("", "bower: interrupted\n")
