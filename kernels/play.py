"""The two card draws every variant's kernels share: the k-th card of a mask and a card drawn uniformly.

The heuristic card play (leads, follows, whole tricks) is ``kernels.trick``.
"""

from bower.kernels.bits import lowest, popcount
from bower.kernels.jit import kernel
from bower.kernels.rng import bounded


@kernel
def nth_card(mask, k):
    """The ``k``-th card (0-based, ascending) of ``mask``."""
    for _ in range(k):
        mask &= mask - 1
    return lowest(mask)


@kernel
def random_card(legal, dstate, dbuf):
    """A card of ``legal`` drawn uniformly (the k-th in ascending order)."""
    return nth_card(legal, bounded(dstate, dbuf, popcount(legal)))
