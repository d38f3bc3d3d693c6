"""A run compiles only what it uses: the hand kernels leave the search code out when no seat searches, and a run
of heuristic seats compiles the plain path's chunk kernel and not the general one.

Each variant's hand kernels take ``search``: None when no strategy row
searches (``hand.search_arg``), and Numba prunes every branch on
``search is (not) None`` before typing, so the PIMC card play, the searched
auction and the solver are never compiled for such a run. The records are the
same either way (tests/test_golden.py); here: which runs get None, and that
the pruning holds through a kernel-to-kernel call and an inlined kernel.
Every variant chooses the plain path's kernel once a
run, in Python (``drivers.simulate_kernel``): which runs take it, that both
kernels play the same hands, and that a default run compiles no other.
"""

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from bower.sim import runner
from bower.sim.variants import get_variant

VARIANTS = ("ghost", "euchre", "cutthroat", "hasenpfeffer")


@pytest.mark.parametrize("variant", VARIANTS)
def test_search_is_compiled_only_for_a_searching_seat(variant):
    v = get_variant(variant)
    for preset in v.presets:
        params = runner.seat_params(preset, v)[1]
        searches = v.hand_kernels.search_arg(params) is not None
        assert searches == preset.startswith("pimc"), (variant, preset)
    mixed = runner.seat_params(["pimc"] + ["default"] * (v.players - 1), v)[1]
    assert isinstance(v.hand_kernels.search_arg(mixed), np.ndarray)  # one searching seat is enough


_TOY = textwrap.dedent('''
    import numpy as np
    from bower.kernels.jit import kernel

    @kernel
    def searched(x):
        return x * 1000

    @kernel(inline="always")
    def middle(x, search):
        if search is not None and x > 0:
            return searched(x)
        return x + 1

    @kernel
    def play(x, search):
        return middle(x, search) + 0

    @kernel
    def driver(x, search):
        return play(x, search)
''')


def test_a_none_search_is_pruned_through_calls_and_inlining(tmp_path):
    (tmp_path / "toyscope.py").write_text(_TOY)
    code = textwrap.dedent('''
        import json
        import numpy as np
        import toyscope as t
        a = t.driver(3, None)
        before = len(t.searched.signatures)
        b = t.driver(3, np.zeros(1, np.int64))
        print(json.dumps([int(a), before, int(b), len(t.searched.signatures)]))
    ''')
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True).stdout
    # with None the searched kernel is never compiled; with an array it is, and runs
    assert out.strip().splitlines()[-1] == "[4, 0, 3000, 1]"


_TOY_ARRAY = textwrap.dedent('''
    import numpy as np
    from bower.kernels.jit import kernel

    @kernel
    def plain(x):
        return x + 1

    @kernel
    def searched(x):
        return x * 1000

    @kernel(inline="always")
    def middle(x, search):
        if search is None:
            return plain(x)
        return searched(x)

    @kernel
    def driver(x, search):
        return middle(x, search)

    @kernel
    def maybe(x, flag):
        s = np.zeros(1, np.int64) if flag else None  # Optional: may be None, so nothing is pruned
        return driver(x, s)
''')


def test_an_array_search_prunes_the_unsearched_branch(tmp_path):
    """``kernels.jit._dead_branch_prune``: with ``search`` an array, ``search is None`` is known False before
    typing, so the arm only a run without search takes is never compiled; an Optional argument prunes nothing."""
    (tmp_path / "toyarray.py").write_text(_TOY_ARRAY)
    code = textwrap.dedent('''
        import json
        import numpy as np
        import toyarray as t
        out = [int(t.driver(3, np.zeros(1, np.int64))), len(t.plain.signatures), len(t.searched.signatures)]
        out += [int(t.driver(3, None)), len(t.plain.signatures), len(t.searched.signatures)]
        out += [int(t.maybe(3, True)), int(t.maybe(3, False))]
        print(json.dumps(out))
    ''')
    path = os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH", "")) if p)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=path)
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True).stdout
    # an array: only the searched kernel compiled; None: only then the plain one; Optional: both arms run right
    assert json.loads(out.strip().splitlines()[-1]) == [3000, 0, 1, 4, 1, 1, 3000, 4]


_TOY_INLINE = textwrap.dedent('''
    import numpy as np
    from bower.kernels.jit import kernel

    @kernel(inline="always")
    def step(a, i, k):
        t = a[i] * k
        if t > 50:
            t -= 7
        for j in range(3):
            t += j
        return t

    @kernel(inline="always")
    def twice(a, k):
        return step(a, 0, k) + step(a, 1, k + 1)

    @kernel
    def one(a):
        return step(a, 0, 2) * 100 + step(a, 2, 3) + twice(a, 5)

    @kernel
    def other(a):
        s = 0
        for i in range(a.shape[0]):
            s += step(a, i, i + 1)
        return s + twice(a, 1)
''')


def _step(a, i, k):
    t = a[i] * k
    if t > 50:
        t -= 7
    return t + 0 + 1 + 2


def test_a_kernel_inlined_at_many_sites_computes_as_python(tmp_path):
    """``kernels.jit._inline_function``: Numba's inlining no longer copies the callee's IR, which it builds afresh
    for each site; a kernel inlined twice into one caller, through another inlined kernel and into two callers
    still gives each site its own code (same answers as plain Python)."""
    (tmp_path / "toyinline.py").write_text(_TOY_INLINE)
    code = textwrap.dedent('''
        import copy, json, types
        import numpy as np
        from numba.core import inline_closurecall
        import toyinline as t
        copies = []
        inline_closurecall.copy = types.SimpleNamespace(deepcopy=lambda x, memo=None: copies.append(1) or copy.deepcopy(x))
        a = np.array([4, 9, 13, 2], np.int64)
        print(json.dumps([int(t.one(a)), int(t.other(a)), int(t.twice(a, 7)), len(copies)]))
    ''')
    path = os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH", "")) if p)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=path)
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True).stdout
    a = [4, 9, 13, 2]

    def twice(k):
        return _step(a, 0, k) + _step(a, 1, k + 1)

    one = _step(a, 0, 2) * 100 + _step(a, 2, 3) + twice(5)
    other = sum(_step(a, i, i + 1) for i in range(4)) + twice(1)
    assert json.loads(out.strip().splitlines()[-1]) == [one, other, twice(7), 0]  # 0: no IR copied


_TOY_DEFAULTS = textwrap.dedent('''
    from bower.kernels.jit import kernel

    @kernel
    def add(a, eq=None, k=2):
        if eq is None:
            return a[0] * k
        return a[0] * k + eq[0]

    @kernel
    def left_out(a):
        return add(a)

    @kernel
    def given_none(a):
        return add(a, None)

    @kernel
    def by_name(a):
        return add(a, eq=None, k=3)

    @kernel
    def given(a, e):
        return add(a, e)
''')


def test_a_left_out_none_argument_compiles_as_a_given_none(tmp_path):
    """``kernels.jit.KernelDispatcher``: a kernel called from kernels with its None-default argument left out
    (``add(a)``) and given as None (``add(a, None)``) compiles once for both; an array compiles its own version, and a
    left-out default that is not None stays as Numba types it. Each call computes what plain Python does."""
    (tmp_path / "toydefaults.py").write_text(_TOY_DEFAULTS)
    code = textwrap.dedent('''
        import json
        import numpy as np
        import toydefaults as t
        a, e = np.array([5], np.int64), np.array([7], np.int64)
        got = [int(t.left_out(a)), int(t.given_none(a)), int(t.by_name(a)), int(t.given(a, e))]
        print(json.dumps([got, sorted(str(s[1]) for s in t.add.signatures)]))
    ''')
    path = os.pathsep.join(p for p in (str(tmp_path), os.environ.get("PYTHONPATH", "")) if p)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=path)
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True).stdout
    got, eq_types = json.loads(out.strip().splitlines()[-1])
    assert got == [10, 10, 15, 17]
    # none (left out or given), and the array: two versions, where Numba alone compiled omitted(default=None) too
    assert eq_types == ["array(int64, 1d, C)", "none", "none"], eq_types


SPLIT = VARIANTS  # every variant's plain path is a chunk kernel of its own


def _rules(v, given=None):
    from bower.sim.rules import encode, resolve

    return encode(v, resolve(v, given))


@pytest.mark.parametrize("variant", SPLIT)
def test_the_plain_path_is_chosen_once_a_run(variant):
    v = get_variant(variant)
    d = v.drivers
    for preset in v.presets:
        params = runner.seat_params(preset, v)[1]
        plain = preset != "random" and not preset.startswith("pimc")
        assert (d.simulate_kernel(params, _rules(v)) is d.plain_chunks) == plain, preset
    one_random = runner.seat_params(["random"] + ["default"] * (v.players - 1), v)[1]
    assert d.simulate_kernel(one_random, _rules(v)) is d.simulate_chunks
    if variant == "ghost":  # the plain path holds one lap of bidding only
        params = runner.seat_params("default", v)[1]
        assert d.simulate_kernel(params, _rules(v, {"auction": "until_passes"})) is d.simulate_chunks


@pytest.mark.parametrize("variant", SPLIT)
def test_the_plain_and_general_kernels_play_the_same_hands(variant):
    v = get_variant(variant)
    d, k = v.drivers, v.hand_kernels
    params = runner.seat_params("default", v)[1]
    rules = _rules(v)
    n, chunk = 300, 100
    out = []
    for kern in (d.plain_chunks, d.simulate_chunks):
        records = np.zeros((n, k.R_WIDTH), np.int64)
        summary = np.zeros((n // chunk, k.S_WIDTH), np.int64)
        args = [runner.chunk_states(11, 0, n // chunk), runner.decision_states(11, 0, n // chunk), 0, chunk, n, rules,
                params]
        if variant == "ghost":
            no_stats = np.zeros((n // chunk, 0, 4), np.int64)
            kern(*args, v.target, True, records, summary, no_stats, no_stats, None)
        else:
            kern(*args, True, records, summary, None)
        out.append((records, summary))
    assert out[0][0].any()
    np.testing.assert_array_equal(out[0][0], out[1][0])
    np.testing.assert_array_equal(out[0][1], out[1][1])


def test_a_heuristic_run_compiles_no_general_path():
    code = textwrap.dedent('''
        import json
        from bower.sim import runner
        from bower.sim.variants import get_variant
        out = {}
        for name in %r:
            runner.simulate(name, hands=50, seed=0, threads=1)
            d = get_variant(name).drivers
            out[name] = [len(d.plain_chunks.signatures), len(d.simulate_chunks.signatures)]
        print(json.dumps(out))
    ''' % (SPLIT,))
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    # the plain path's kernel loaded or compiled once, the general one never
    assert json.loads(out.strip().splitlines()[-1]) == {name: [1, 0] for name in SPLIT}


def _slice_copies(tree) -> list[int]:
    """Lines of ``x[...:...] = y`` (an array into a slice) in a module's syntax tree; a constant on the right (a
    fill) does not count."""
    import ast

    def has_slice(node) -> bool:
        if isinstance(node, ast.Slice):
            return True
        return isinstance(node, ast.Tuple) and any(isinstance(e, ast.Slice) for e in node.elts)

    lines = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if isinstance(node.value, ast.Constant) or (isinstance(node.value, ast.UnaryOp)
                                                        and isinstance(node.value.operand, ast.Constant)):
                continue
            if any(isinstance(t, ast.Subscript) and has_slice(t.slice) for t in targets):
                lines.append(node.lineno)
    return lines


def test_no_kernel_copies_an_array_into_a_slice():
    # Numba compiles the shape-mismatch message of ``a[:] = b`` (string formatting, about 2.7 CPU s once in every
    # process that compiles one): kernels call ``kernels.arrays.copy_into`` instead (benchmarks/RESULTS.md)
    import ast
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent / "kernels"
    found = {}
    for path in sorted(root.rglob("*.py")):
        if path.name == "jit.py":  # plain Python (the chunk kernels' thread bookkeeping), no kernel
            continue
        lines = _slice_copies(ast.parse(path.read_text()))
        if lines:
            found[str(path.relative_to(root))] = lines
    assert not found, found
    assert _slice_copies(ast.parse("a[:] = b\nc[i, :] = d\ne[1:3] = -1\nf[:] = 0\n")) == [1, 2]


def test_copy_into_copies():
    from bower.kernels.arrays import copy_into

    dst = np.zeros(5, np.int64)
    copy_into(dst, np.arange(5, dtype=np.int64))
    assert dst.tolist() == [0, 1, 2, 3, 4]
    rows = np.zeros((2, 3))
    copy_into(rows[1], np.array([1.5, 2.5, 3.5]))
    assert rows.tolist() == [[0.0, 0.0, 0.0], [1.5, 2.5, 3.5]]
