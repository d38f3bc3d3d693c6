"""benchmarks/specializations.py: the kernels a cache holds compiled more than once, and why (a fake cache)."""

from __future__ import annotations

import os
import pickle

from numba.core import types

from benchmarks import specializations as S

ARR = types.Array(types.int64, 1, "C")


def _index(folder, name, sigs, t0=1_000_000.0):
    """A Numba index ``name.nbi`` in ``folder`` with one data file a signature, written ``i`` s after ``t0``."""
    folder.mkdir(parents=True, exist_ok=True)
    overloads = {}
    for i, sig in enumerate(sigs):
        data = folder / f"{name}.{i}.nbc"
        data.write_bytes(b"x" * (100 * (i + 1)))
        os.utime(data, (t0 + 10 * i, t0 + 10 * i))
        overloads[(sig, "cpu", ("bytecode", "cvars"))] = data.name
    with open(folder / f"{name}.nbi", "wb") as f:
        pickle.dump("0.68.1", f, protocol=-1)
        f.write(pickle.dumps(("stamp", overloads), protocol=-1))


def test_each_extra_signature_names_the_arguments_that_differ(tmp_path, capsys):
    cache = tmp_path / "cache"
    _index(cache / "ghost_0123", "drivers.games_chunks-302.py311", [
        (types.int64, ARR, types.none),  # the engine's call
        (types.int64, ARR, types.Omitted(None)),  # a caller that leaves the argument out: a habit
        (types.int64, ARR, types.Array(types.float64, 1, "C")),  # another path compiled in: meant
    ])
    _index(cache / "kernels_4567", "arrays.copy_into-6.py311", [(ARR, ARR)])  # compiled once: not listed
    _index(cache / "kernels_4567", "strategy.estimates-293.py311", [
        (ARR, types.Array(types.int64, 1, "A")), (ARR, ARR),
        (types.UniTuple(types.int64, 3), ARR)])  # a tuple where the engine passes an array: a habit too
    found = S.scan(cache)
    assert [(k["folder"], k["kernel"]) for k in found] == [("ghost", "drivers.games_chunks"),
                                                          ("kernels", "strategy.estimates")]
    games = found[0]
    assert games["first"] == {"t": 0.0, "bytes": 100, "signature": ["int64", str(ARR), "none"]}
    assert [(o["t"], o["bytes"], o["diff"], o["habit"]) for o in games["others"]] == [
        (10.0, 200, [(2, "none", "omitted(default=None)")], True),
        (20.0, 300, [(2, "none", "array(float64, 1d, C)")], False)]
    assert found[1]["others"][0]["diff"] == [(1, "array(int64, 1d, A)", "array(int64, 1d, C)")]
    assert found[1]["others"][0]["habit"]
    assert found[1]["others"][1]["diff"] == [(0, str(ARR), "UniTuple(int64 x 3)"), (1, "array(int64, 1d, A)", str(ARR))]
    assert found[1]["others"][1]["habit"]
    # --since: only the signatures written that late
    assert [len(k["others"]) for k in S.scan(cache, since=15)] == [1, 1]
    assert S.main([str(cache)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "ghost.drivers.games_chunks: first at 0 s, 100 bytes"
    assert out[1] == "  ! at 10 s, 200 bytes: #2: none -> omitted(default=None)"
    assert out[2] == "    at 20 s, 300 bytes: #2: none -> array(float64, 1d, C)"
    assert out[-1] == "2 kernels compiled more than once; 3 extra signatures look like a caller's habit (!)"


def test_a_folder_that_is_not_there_is_one_line(tmp_path, capsys):
    assert S.main([str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("specializations.py: no cache folder ")
