"""Array helpers for kernels, where Numba's own form compiles slowly."""

from bower.kernels.jit import kernel


@kernel
def copy_into(dst, src):
    """``dst[:] = src`` for two 1-D arrays of one length, as a loop.

    Numba's slice assignment from an array compiles the message of its
    shape-mismatch error (string formatting: about 2.7 CPU s, once in every
    process that compiles one); this loop compiles in a fraction of that.
    """
    for i in range(src.shape[0]):
        dst[i] = src[i]
