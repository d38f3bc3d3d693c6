"""xoshiro256** random numbers with explicit state, and unbiased bounded draws.

The state is a ``uint64[4]`` array owned by the caller (one per chunk of
hands, seeded from ``numpy.random.SeedSequence``), so results never depend on
which thread runs the chunk. ``tests/reference`` holds the plain-Python twin.
"""

import numpy as np

from bower.kernels.jit import kernel

_M32 = np.uint64(0xFFFFFFFF)


@kernel
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@kernel
def next_u64(s):
    """Advance state ``s`` (uint64[4]) and return the next 64-bit output."""
    result = _rotl(s[1] * np.uint64(5), 7) * np.uint64(9)
    t = s[1] << np.uint64(17)
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


@kernel
def xoshiro_step(s0, s1, s2, s3):
    """One xoshiro256** step on a state held in registers: (output, s0, s1, s2, s3)."""
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@kernel
def next_u32(s, buf):
    """Next 32-bit draw; each 64-bit output serves two draws (high half first).

    ``buf`` is an int64[2] holding the unused low half and a flag (1 = held).
    """
    if buf[1] == 1:
        buf[1] = 0
        return np.uint64(buf[0])
    x = next_u64(s)
    buf[0] = np.int64(x & _M32)
    buf[1] = 1
    return x >> np.uint64(32)


@kernel
def bounded(s, buf, n):
    """Uniform integer in ``[0, n)`` by Lemire's multiply-shift with rejection (no bias)."""
    un = np.uint64(n)
    m = next_u32(s, buf) * un
    low = m & _M32
    if low < un:
        threshold = ((_M32 + np.uint64(1)) - un) % un
        while low < threshold:
            m = next_u32(s, buf) * un
            low = m & _M32
    return np.int64(m >> np.uint64(32))


@kernel
def splitmix_seed(seed, out):
    """Fill ``out`` (uint64[4]) with four splitmix64 outputs from ``seed``: a fresh xoshiro state."""
    x = np.uint64(seed)
    for i in range(4):
        x += np.uint64(0x9E3779B97F4A7C15)
        z = x
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        out[i] = z ^ (z >> np.uint64(31))
