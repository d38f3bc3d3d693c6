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
def _take(i, r, deck, doubt):
    """Fisher-Yates step ``i`` on the 32-bit draw ``r`` without the rejection test: (card fixed at ``i``, whether
    ``doubt`` or the draw is one that rejection might refuse, its low half below ``i + 1``)."""
    un = np.uint64(i + 1)
    m = r * un
    j = np.int64(m >> np.uint64(32))
    card = deck[j]
    deck[j] = deck[i]
    return card, doubt | ((m & _M32) < un)


@kernel(inline="always")
def _put(i, card, n_dealt, n_hands, packet, deck, m0, m1, m2, m3, rest):
    """Card ``card``, fixed at deck position ``i``, to its packet: hand ``(i // packet) % n_hands`` below
    ``n_dealt``, else the leftover (stored back at ``deck[i]`` and added to ``rest``).

    Returns (m0, m1, m2, m3, rest); the hands' masks are selected without branches.
    """
    bit = np.int64(1) << card
    if i >= n_dealt:
        deck[i] = card
        rest |= bit
    else:
        k = (i // packet) % n_hands
        m0 |= bit if k == 0 else 0
        m1 |= bit if k == 1 else 0
        m2 |= bit if k == 2 else 0
        m3 |= bit if k == 3 else 0
    return m0, m1, m2, m3, rest


@kernel(_nrt=False)
def deal_exact(state, buf, deck, n_cards, n_hands, hand_size, packet):
    """``deal_fused``'s deal made the plain way: ``shuffle`` then the packets (``deal_packets`` with packets of
    ``packet`` cards). Returns the same (hand 0, hand 1, hand 2, hand 3, leftover) masks and leaves the whole
    shuffled deck in ``deck``.

    ``deal_fused`` falls back on it for about one deal in ten million. Not inlined, with the layout as run-time
    arguments and no reference counting (``_nrt=False``: it never allocates): compiled once for every layout.
    """
    for i in range(n_cards):
        deck[i] = i
    shuffle(state, buf, deck, n_cards)
    n_dealt = n_hands * hand_size
    m0 = m1 = m2 = m3 = rest = np.int64(0)
    for i in range(n_cards):
        m0, m1, m2, m3, rest = _put(i, deck[i], n_dealt, n_hands, packet, deck, m0, m1, m2, m3, rest)
    return m0, m1, m2, m3, rest


@kernel(inline="always")
def deal_fused(state, buf, deck, n_cards, n_hands, hand_size, packet):
    """Shuffle a fresh ``n_cards`` deck and deal it in one pass, each card going to its packet as the shuffle fixes it.

    The layout: ``n_hands`` hands (1 to 4) of ``hand_size`` cards, dealt round in packets of ``packet`` cards
    (``packet`` divides ``hand_size``); deck position ``i`` below ``n_hands * hand_size`` goes to hand
    ``(i // packet) % n_hands``, the positions from there on are the leftover packet (Cutthroat's and Euchre's
    kitty, Hasenpfeffer's widow; none when every card is dealt, Ghost Hand's ghost hand being the last hand).
    Returns (hand 0, hand 1, hand 2, hand 3, leftover) as card masks, a hand past ``n_hands`` empty; the leftover
    cards are also left in ``deck[n_hands * hand_size:n_cards]`` in deal order (the rest of ``deck`` is scratch).

    The same draws, the same generator state and held half afterwards, and the same deal as ``shuffle`` then
    dealing ``deck`` (``deal_packets`` when ``packet`` is 1): the Fisher-Yates step at position ``i`` fixes the
    card there, which goes straight to its packet, so the shuffled deck is never written back or read again.
    The draws come as in ``rng.bounded``, two to a generator output (the held half first when there is one),
    each taken without the rejection test: a step notes a draw whose low half is below its bound, the only
    draws rejection might refuse (about one deal in ten million), and such a deal is made again by
    ``deal_exact`` from the untouched state, so every deal is exactly the exact one.

    Inlined, so a variant passing its layout as constants gets the packet arithmetic folded away; each variant
    wraps it once in a kernel of its own that is not inlined (compiled once, called from every path).
    """
    n_dealt = n_hands * hand_size
    for i in range(n_cards):
        deck[i] = i
    s0, s1, s2, s3 = state[0], state[1], state[2], state[3]
    doubt = False
    hi = np.uint64(32)
    m0 = m1 = m2 = m3 = rest = np.int64(0)
    i = n_cards - 1
    if buf[1] == 1:  # the held half is the first draw
        c, doubt = _take(i, np.uint64(buf[0]), deck, doubt)
        m0, m1, m2, m3, rest = _put(i, c, n_dealt, n_hands, packet, deck, m0, m1, m2, m3, rest)
        i -= 1
    x = np.uint64(buf[0])
    while i >= 2:  # two draws to an output, high half first
        x, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        c, doubt = _take(i, x >> hi, deck, doubt)
        m0, m1, m2, m3, rest = _put(i, c, n_dealt, n_hands, packet, deck, m0, m1, m2, m3, rest)
        c, doubt = _take(i - 1, x & _M32, deck, doubt)
        m0, m1, m2, m3, rest = _put(i - 1, c, n_dealt, n_hands, packet, deck, m0, m1, m2, m3, rest)
        i -= 2
    held, has = x & _M32, np.int64(0)  # the spent half stays in buf[0], as the exact path leaves it
    if i == 1:  # the last step on a fresh output's high half, its low half held
        x, s0, s1, s2, s3 = xoshiro_step(s0, s1, s2, s3)
        c, doubt = _take(1, x >> hi, deck, doubt)
        m0, m1, m2, m3, rest = _put(1, c, n_dealt, n_hands, packet, deck, m0, m1, m2, m3, rest)
        held, has = x & _M32, np.int64(1)
    if doubt:
        return deal_exact(state, buf, deck, n_cards, n_hands, hand_size, packet)
    m0, m1, m2, m3, rest = _put(0, deck[0], n_dealt, n_hands, packet, deck, m0, m1, m2, m3, rest)
    state[0], state[1], state[2], state[3] = s0, s1, s2, s3
    buf[0] = np.int64(held)
    buf[1] = has
    return m0, m1, m2, m3, rest


@chunk_kernel
def deal_many(lo, hi, states, chunk_size, n_deals, n_cards, n_hands, hand_size, checksum):
    """Deal ``n_deals`` hands in chunks (one RNG state per chunk); XOR of all masks per chunk.

    Exists to measure dealing alone: ``checksum[i]`` keeps chunk ``i``'s work observable.
    """
    for ci in range(lo, hi):
        state = states[ci].copy()
        buf = np.zeros(2, np.int64)
        deck = np.empty(n_cards, np.int64)
        out = np.zeros(max(n_hands, 4), np.int64)
        x = np.int64(0)
        for _ in range(ci * chunk_size, min((ci + 1) * chunk_size, n_deals)):
            if n_hands <= 4:  # as the variants' kernels deal
                out[0], out[1], out[2], out[3], _r = deal_fused(state, buf, deck, n_cards, n_hands, hand_size, 1)
            else:
                deal_packets(state, buf, deck, n_cards, n_hands, hand_size, out)
            x ^= out[0] ^ (out[n_hands - 1] << 1)
        checksum[ci] = x
