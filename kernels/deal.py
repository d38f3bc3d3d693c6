"""Seeded deals: Fisher-Yates shuffle into card masks."""

import numpy as np
from numba import prange

from kernels.jit import kernel
from kernels.rng import xoshiro_step

_M32 = np.uint64(0xFFFFFFFF)


@kernel(inline="always")
def _draw32(held, has, s0, s1, s2, s3):
    """Next 32-bit draw with the state in registers: the held low half if any, else a fresh output's high half.

    Returns (draw, held, has, s0, s1, s2, s3).
    """
    if has == 1:
        return held, held, 0, s0, s1, s2, s3
    x, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
    return x >> np.uint64(32), x & _M32, 1, s0, s1, s2, s3


@kernel(inline="always")
def shuffle(state, buf, deck, n):
    """Shuffle ``deck[:n]`` in place (Fisher-Yates, i from n-1 down to 1, j uniform in [0, i]).

    Draws exactly as ``rng.bounded`` does (two 32-bit draws per 64-bit output,
    Lemire's multiply-shift with rejection), with the generator state and the
    held half kept in registers for the whole shuffle instead of in memory.
    """
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    held = np.uint64(buf[0])
    has = buf[1]
    for i in range(n - 1, 0, -1):
        un = np.uint64(i + 1)
        r, held, has, s0, s1, s2, s3 = _draw32(held, has, s0, s1, s2, s3)
        m = r * un
        low = m & _M32
        if low < un:
            threshold = ((_M32 + np.uint64(1)) - un) % un
            while low < threshold:
                r, held, has, s0, s1, s2, s3 = _draw32(held, has, s0, s1, s2, s3)
                m = r * un
                low = m & _M32
        j = np.int64(m >> np.uint64(32))
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    buf[0] = np.int64(held)
    buf[1] = has


@kernel(inline="always")
def deal_packets(state, buf, deck, n_cards, n_hands, hand_size, out):
    """Shuffle a fresh ``n_cards`` deck and deal one card at a time to ``n_hands`` hands.

    Hand ``k`` (in dealing order: position 1, position 2, ..., then the extra
    hand) receives ``deck[k], deck[k + n_hands], ...``; ``out[k]`` is its mask.
    Cards left over (``n_cards - n_hands * hand_size``) are returned as a mask.
    """
    for i in range(n_cards):
        deck[i] = i
    shuffle(state, buf, deck, n_cards)
    for k in range(n_hands):
        out[k] = 0
    for i in range(n_hands * hand_size):
        out[i % n_hands] |= np.int64(1) << deck[i]
    rest = np.int64(0)
    for i in range(n_hands * hand_size, n_cards):
        rest |= np.int64(1) << deck[i]
    return rest


@kernel(parallel=True)
def deal_many(states, chunk_size, n_deals, n_cards, n_hands, hand_size, checksum):
    """Deal ``n_deals`` hands in chunks (one RNG state per chunk); XOR of all masks per chunk.

    Exists to measure dealing alone: ``checksum[i]`` keeps chunk ``i``'s work observable.
    """
    for ci in prange(states.shape[0]):
        state = states[ci].copy()
        buf = np.zeros(2, np.int64)
        deck = np.empty(n_cards, np.int64)
        out = np.zeros(n_hands, np.int64)
        x = np.int64(0)
        ghost_layout = n_cards == 24 and n_hands == 4 and hand_size == 6
        for _ in range(ci * chunk_size, min((ci + 1) * chunk_size, n_deals)):
            if ghost_layout:  # constants, as in the Ghost Hand kernel: the compiler folds i % 4 and the bounds
                deal_packets(state, buf, deck, 24, 4, 6, out)
            else:
                deal_packets(state, buf, deck, n_cards, n_hands, hand_size, out)
            x ^= out[0] ^ (out[n_hands - 1] << 1)
        checksum[ci] = x
