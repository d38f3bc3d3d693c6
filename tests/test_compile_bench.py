"""``benchmarks/compile.py``: a tiny ``@numba.njit`` kernel measured on an empty cache, then warm (no bower kernels)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks import compile as cb  # noqa: E402

KERNELS = '''
import numba


@numba.njit(cache=True)
def inner(x):
    return x * 2 + 1


@numba.njit(cache=True)
def outer(n):
    s = 0
    for i in range(n):
        s += inner(i)
    return s
'''


@pytest.fixture
def tiny(tmp_path):
    """A case whose command calls a two-kernel module written to ``tmp_path`` (cached kernels need a file)."""
    (tmp_path / "tinykernels.py").write_text(KERNELS)
    code = f"import sys; sys.path.insert(0, {str(tmp_path)!r}); import tinykernels; assert tinykernels.outer(10) == 100"
    return cb.Case("tiny", code=code)


def test_cold_compiles_and_warm_loads_from_the_cache(tiny):
    row = cb.measure(tiny, timeout=120, top=5)
    assert row["outcome"] == "ok", row
    assert row["compile_cpu_s"] > 0
    assert row["cpu_s"] > 0 and row["wall_s"] > 0
    assert row["kernels"] == 2  # outer, and inner nested in it
    names = [name for name, _, _ in row["top"]]
    assert sorted(names) == ["tinykernels.inner", "tinykernels.outer"]
    assert all(own >= 0 for _, own, _ in row["top"])
    assert row["warm_kernels"] == 0
    assert row["warm_cpu_s"] > 0
    text = cb.table([row])
    assert text.splitlines()[0].split()[:3] == ["case", "CPU", "s"]
    assert "tiny" in text and "tinykernels.outer" in text and "NUMBA_CACHE_DIR=$(mktemp -d) python -c" in text


def test_a_failing_and_a_hanging_case_are_reported_and_the_run_goes_on(tmp_path):
    bad = cb.measure(cb.Case("bad", code="raise ValueError('no such hand')"), timeout=120, top=3)
    assert bad["outcome"].startswith("failed") and "no such hand" in bad["outcome"]
    assert "warm_cpu_s" not in bad
    slow = cb.measure(cb.Case("slow", code="import time; time.sleep(60)"), timeout=3, top=3)
    assert slow["outcome"].startswith("timed out")
    text = cb.table([bad, slow])
    assert "bad: failed" in text and "slow: timed out" in text


def test_cases_are_selected_by_name_and_listed_with_their_commands(capsys):
    assert [c.name for c in cb.select("should-bid,simulate-ghost")] == ["should-bid", "simulate-ghost"]
    with pytest.raises(SystemExit, match="unknown case"):
        cb.select("simulate-nope")
    assert cb.main(["--list", "--only", "simulate-cutthroat,analyze"]) == 0
    out = capsys.readouterr().out
    assert "bower simulate --hands 100000 --variant cutthroat" in out
    assert 'bower analyze "$TMP/r.jsonl"' in out
    spec = cb.select("analyze")[0].spec("/x")
    assert spec == {"kind": "cli", "argv": ["analyze", "/x/r.jsonl"]}
    json.dumps(spec)
