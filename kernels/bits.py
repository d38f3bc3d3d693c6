"""Single-instruction bit operations on card masks (LLVM ctpop / cttz)."""

import numpy as np
from numba import types
from numba.core import cgutils  # noqa: F401  (keeps numba's codegen helpers loaded)
from numba.extending import intrinsic

from bower.kernels.jit import kernel


@intrinsic
def _ctpop(typingctx, x):
    """LLVM ``ctpop`` on a 64-bit integer."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def _cttz(typingctx, x):
    """LLVM ``cttz`` on a 64-bit integer (64 for zero)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], context.get_constant(types.boolean, False))

    return sig, codegen


@intrinsic
def _ctlz(typingctx, x):
    """LLVM ``ctlz`` on a 64-bit integer (64 for zero)."""
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctlz(args[0], context.get_constant(types.boolean, False))

    return sig, codegen


@kernel
def popcount(m):
    """Number of cards in mask ``m``."""
    return _ctpop(m)


@kernel
def lowest(m):
    """Index of the lowest card in non-empty mask ``m``."""
    return _cttz(m)


@kernel
def highest(m):
    """Index of the highest card in non-empty mask ``m``."""
    return 63 - _ctlz(m)


_ONES = np.uint64(0xFFFFFFFFFFFFFFFF)


@kernel(inline="always")
def smear(m):
    """The bits at or below the highest bit of mask ``m`` (0 for 0): one ``ctlz`` and two shifts, no branch."""
    return np.int64((_ONES >> np.uint64(_ctlz(m) - 1)) >> np.uint64(1))
