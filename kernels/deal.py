"""Seeded deals: Fisher-Yates shuffle into card masks."""

import numpy as np

from bower.kernels.jit import chunk_kernel, kernel
from bower.kernels.rng import xoshiro_step

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
def draw_bounded(n, held, has, s0, s1, s2, s3):
    """``rng.bounded(n)`` with the generator state and the held half in registers.

    Uniform in ``[0, n)`` by Lemire's multiply-shift with rejection, drawing
    exactly as ``rng.bounded`` does. Returns (draw, held, has, s0, s1, s2, s3).
    """
    un = np.uint64(n)
    r, held, has, s0, s1, s2, s3 = _draw32(held, has, s0, s1, s2, s3)
    m = r * un
    low = m & _M32
    if low < un:
        threshold = ((_M32 + np.uint64(1)) - un) % un
        while low < threshold:
            r, held, has, s0, s1, s2, s3 = _draw32(held, has, s0, s1, s2, s3)
            m = r * un
            low = m & _M32
    return np.int64(m >> np.uint64(32)), held, has, s0, s1, s2, s3


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
        j, held, has, s0, s1, s2, s3 = draw_bounded(i + 1, held, has, s0, s1, s2, s3)
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


@kernel(inline="always")
def _deal_step(i, deck, held, has, s0, s1, s2, s3):
    """Fisher-Yates step ``i`` of ``shuffle``, reading the card it fixes at position ``i`` (never stored there).

    Returns (card, held, has, s0, s1, s2, s3).
    """
    j, held, has, s0, s1, s2, s3 = draw_bounded(i + 1, held, has, s0, s1, s2, s3)
    card = deck[j]
    deck[j] = deck[i]
    return card, held, has, s0, s1, s2, s3


@kernel(_nrt=False)
def deal_four_exact(state, buf, deck):
    """``deal_packets(state, buf, deck, 24, 4, 6, out)`` returning the four masks (no leftover).

    The same draws and the same deal, fused: the Fisher-Yates step at
    position ``i`` fixes the card there, which goes straight to hand
    ``i % 4``, so the shuffled deck is never written back or read again.
    Returns (hand 0, hand 1, hand 2, hand 3). Not inlined (compiled once),
    and without reference counting (``_nrt=False``: it never allocates).
    ``deal_four`` is the same deal with less work, falling back on this one
    for about one deal in eight million: so this is a loop, not unrolled,
    which compiles in a fraction of the time.
    """
    for i in range(24):
        deck[i] = i
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    held = np.uint64(buf[0])
    has = buf[1]
    m0 = m1 = m2 = m3 = np.int64(0)
    for i in range(23, 0, -1):  # position 0 is fixed without a draw
        c, held, has, s0, s1, s2, s3 = _deal_step(i, deck, held, has, s0, s1, s2, s3)
        bit = np.int64(1) << c
        k = i & 3
        if k == 0:
            m0 |= bit
        elif k == 1:
            m1 |= bit
        elif k == 2:
            m2 |= bit
        else:
            m3 |= bit
    m0 |= np.int64(1) << deck[0]
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    buf[0] = np.int64(held)
    buf[1] = has
    return m0, m1, m2, m3


@kernel(inline="always")
def _take(i, r, deck, doubt):
    """Fisher-Yates step ``i`` on the 32-bit draw ``r`` without the rejection test: (card fixed at ``i``, whether
    ``doubt`` or the draw is one that rejection might refuse, its low half below ``i + 1``)."""
    un = np.uint64(i + 1)
    m = r * un
    j = np.int64(m >> np.uint64(32))
    card = deck[j]
    deck[j] = deck[i]
    return card, doubt | ((m & _M32) < un)


@kernel(_nrt=False)
def deal_four(state, buf, deck):
    """``deal_four_exact``: the same draws and the same four masks, with the rejection test taken out of the steps.

    Rejection refuses a draw only when its low half is below the bound (one draw in about 180 million here), so
    each step takes its draw and notes that case; the 23 draws come as in ``rng.bounded``, two to an output
    (the held half first when there is one). If any draw was in doubt, the deal is made again by
    ``deal_four_exact`` from the untouched state, so every deal is exactly the exact one.
    """
    for i in range(24):
        deck[i] = i
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    doubt = False
    one = np.int64(1)
    hi = np.uint64(32)
    m0 = m1 = m2 = m3 = np.int64(0)
    if buf[1] == 1:  # the held half is the first draw: then pairs (22, 21), (20, 19), ..., (2, 1)
        c, doubt = _take(23, np.uint64(buf[0]), deck, doubt)
        m3 |= one << c
        for q in range(5, 0, -1):
            x, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
            c, doubt = _take(4 * q + 2, x >> hi, deck, doubt)
            m2 |= one << c
            c, doubt = _take(4 * q + 1, x & _M32, deck, doubt)
            m1 |= one << c
            x, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
            c, doubt = _take(4 * q, x >> hi, deck, doubt)
            m0 |= one << c
            c, doubt = _take(4 * q - 1, x & _M32, deck, doubt)
            m3 |= one << c
        x, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        c, doubt = _take(2, x >> hi, deck, doubt)
        m2 |= one << c
        c, doubt = _take(1, x & _M32, deck, doubt)
        m1 |= one << c
        held, has = x & _M32, np.int64(0)  # the spent half stays in buf[0], as the exact path leaves it
    else:  # pairs (23, 22), ..., (3, 2), then 1 on a fresh output's high half, its low half held
        for q in range(5, 0, -1):
            x, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
            c, doubt = _take(4 * q + 3, x >> hi, deck, doubt)
            m3 |= one << c
            c, doubt = _take(4 * q + 2, x & _M32, deck, doubt)
            m2 |= one << c
            x, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
            c, doubt = _take(4 * q + 1, x >> hi, deck, doubt)
            m1 |= one << c
            c, doubt = _take(4 * q, x & _M32, deck, doubt)
            m0 |= one << c
        x, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        c, doubt = _take(3, x >> hi, deck, doubt)
        m3 |= one << c
        c, doubt = _take(2, x & _M32, deck, doubt)
        m2 |= one << c
        x, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        c, doubt = _take(1, x >> hi, deck, doubt)
        m1 |= one << c
        held, has = x & _M32, np.int64(1)
    if doubt:
        return deal_four_exact(state, buf, deck)
    m0 |= one << deck[0]
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    buf[0] = np.int64(held)
    buf[1] = has
    return m0, m1, m2, m3


@chunk_kernel
def deal_many(lo, hi, states, chunk_size, n_deals, n_cards, n_hands, hand_size, checksum):
    """Deal ``n_deals`` hands in chunks (one RNG state per chunk); XOR of all masks per chunk.

    Exists to measure dealing alone: ``checksum[i]`` keeps chunk ``i``'s work observable.
    """
    for ci in range(lo, hi):
        state = states[ci].copy()
        buf = np.zeros(2, np.int64)
        deck = np.empty(n_cards, np.int64)
        out = np.zeros(n_hands, np.int64)
        x = np.int64(0)
        ghost_layout = n_cards == 24 and n_hands == 4 and hand_size == 6
        for _ in range(ci * chunk_size, min((ci + 1) * chunk_size, n_deals)):
            if ghost_layout:  # as the Ghost Hand kernel deals
                out[0], out[1], out[2], out[3] = deal_four(state, buf, deck)
            else:
                deal_packets(state, buf, deck, n_cards, n_hands, hand_size, out)
            x ^= out[0] ^ (out[n_hands - 1] << 1)
        checksum[ci] = x
