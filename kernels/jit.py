"""The one place that sets the Numba options every kernel uses."""

from numba import njit

JIT_OPTIONS = dict(cache=True, nogil=True, error_model="numpy", boundscheck=False)


def kernel(fn=None, **extra):
    """``@kernel``: ``numba.njit`` with the project's options (cached, no GIL, numpy error model)."""
    opts = dict(JIT_OPTIONS, **extra)
    if fn is None:
        return lambda f: njit(**opts)(f)
    return njit(**opts)(fn)
