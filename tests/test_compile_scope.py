"""A run compiles only what it uses: the hand kernels leave the search code out when no seat searches.

Each variant's hand kernels take ``search``: None when no strategy row
searches (``hand.search_arg``), and Numba prunes every branch on
``search is (not) None`` before typing, so the PIMC card play, the searched
auction and the solver are never compiled for such a run. The records are the
same either way (tests/test_golden.py); here: which runs get None, and that
the pruning holds through a kernel-to-kernel call and an inlined kernel.
"""

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
