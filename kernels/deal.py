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
def _to_hand(k, bit, m0, m1, m2, m3):
    """Add ``bit`` to hand ``k``'s mask of (m0, m1, m2, m3), by selects (``k`` a constant once unrolled)."""
    m0 |= bit if k == 0 else 0
    m1 |= bit if k == 1 else 0
    m2 |= bit if k == 2 else 0
    m3 |= bit if k == 3 else 0
    return m0, m1, m2, m3


@kernel(inline="always")
def deal_masks(state, buf, deck, n_cards, n_hands, hand_size, packet):
    """Shuffle a fresh ``n_cards`` deck and deal it by a packet layout: every variant's deal.

    The layout: ``n_hands`` hands (1 to 4) of ``hand_size`` cards, dealt round in packets of ``packet`` cards
    (``packet`` divides ``hand_size``): deck position ``i`` below ``n_hands * hand_size`` goes to hand
    ``(i // packet) % n_hands``; the positions from there on are the leftover packet (Cutthroat's and Euchre's
    kitty, Hasenpfeffer's widow; none when every card is dealt, Ghost Hand's ghost hand being the last hand).
    Returns (hand 0, hand 1, hand 2, hand 3, leftover) as card masks, a hand past ``n_hands`` empty; the whole
    shuffled deck is left in ``deck``, so the leftover cards are ``deck[n_hands * hand_size:n_cards]`` in deal
    order. With packets of one card this is ``deal_packets`` (the same draws, generator state and deal).

    ``shuffle`` keeps the generator in registers and draws exactly as ``rng.bounded`` (rejection included, so
    no deal is ever made twice); the masks are then built in registers by loops whose trip counts are the
    layout, so a variant passing its layout as constants gets them unrolled with each card's hand fixed.
    Inlined: each variant wraps it once in a kernel of its own with its layout (compiled once, called from
    every path). The deal fused into the shuffle (each card to its hand as the shuffle fixes it, the rejection
    test taken out of the steps) measured slower on the 2-core AMD EPYC (benchmarks/RESULTS.md).
    """
    for i in range(n_cards):
        deck[i] = i
    shuffle(state, buf, deck, n_cards)
    one = np.int64(1)
    m0 = m1 = m2 = m3 = rest = np.int64(0)
    for q in range(hand_size // packet):  # the rounds
        for k in range(n_hands):
            for t in range(packet):
                m0, m1, m2, m3 = _to_hand(k, one << deck[(q * n_hands + k) * packet + t], m0, m1, m2, m3)
    for i in range(n_hands * hand_size, n_cards):
        rest |= one << deck[i]
    return m0, m1, m2, m3, rest


@kernel(inline="always")
def _deal_chunks(lo, hi, states, chunk_size, n_deals, n_cards, n_hands, hand_size, packet, checksum):
    """The chunk loop of the dealing kernels: ``checksum[ci]`` is the XOR over chunk ``ci``'s deals of hand 0's mask
    and hand ``n_hands - 1``'s shifted left by one. Inlined with constant layouts (``deal_ghost``...), the deal is
    the one the variants' hand kernels compile."""
    for ci in range(lo, hi):
        state = states[ci].copy()
        buf = np.zeros(2, np.int64)
        deck = np.empty(n_cards, np.int64)
        x = np.int64(0)
        for _ in range(ci * chunk_size, min((ci + 1) * chunk_size, n_deals)):
            m0, m1, m2, m3, _r = deal_masks(state, buf, deck, n_cards, n_hands, hand_size, packet)
            last = m3 if n_hands == 4 else (m2 if n_hands == 3 else (m1 if n_hands == 2 else m0))
            x ^= m0 ^ (last << 1)
        checksum[ci] = x


@chunk_kernel
def deal_ghost(lo, hi, states, chunk_size, n_deals, checksum):
    """``deal_many`` for Ghost Hand's layout, as its hand kernels deal it: 24 cards, four hands of 6."""
    _deal_chunks(lo, hi, states, chunk_size, n_deals, 24, 4, 6, 1, checksum)


@chunk_kernel
def deal_fives(lo, hi, states, chunk_size, n_deals, checksum):
    """``deal_many`` for Euchre's and Cutthroat's layout: 24 cards, four hands of 5, the kitty left over."""
    _deal_chunks(lo, hi, states, chunk_size, n_deals, 24, 4, 5, 1, checksum)


@chunk_kernel
def deal_hasenpfeffer(lo, hi, states, chunk_size, n_deals, checksum):
    """``deal_many`` for Hasenpfeffer's layout: 25 cards, four hands of 6 in packets of 3, the widow left over."""
    _deal_chunks(lo, hi, states, chunk_size, n_deals, 25, 4, 6, 3, checksum)


# the variants' layouts (``Variant.deal_layout``), each dealt by a kernel compiled for it alone
LAYOUT_KERNELS = {(24, 4, 6): deal_ghost, (24, 4, 5): deal_fives, (25, 4, 6): deal_hasenpfeffer}
DEAL_KERNELS = tuple(LAYOUT_KERNELS.values())  # every kernel ``deal_many`` may run


def deal_many(states, chunk_size, n_deals, n_cards, n_hands, hand_size, checksum):
    """Deal ``n_deals`` hands in chunks (one RNG state per chunk, ``states`` rows); XOR of masks per chunk.

    Exists to measure dealing alone: ``checksum[i]`` keeps chunk ``i``'s work observable. Each variant's layout
    (``Variant.deal_layout``: Ghost Hand's 24 cards in four hands of 6, Euchre's and Cutthroat's hands of 5,
    Hasenpfeffer's 25 cards in packets of 3) runs a kernel of its own with the layout as constants, so it is the
    deal that variant's hand kernels compile (``deal_masks`` unrolled, each card's hand fixed; Ghost Hand's layout
    read at run time cost 50 ns a deal against 40 on the 2-core AMD EPYC, benchmarks/RESULTS.md), and a run
    compiles only its layout's kernel. ValueError for a layout no variant deals.
    """
    fixed = LAYOUT_KERNELS.get((int(n_cards), int(n_hands), int(hand_size)))
    if fixed is None:
        raise ValueError(f"no variant deals {n_cards} cards in {n_hands} hands of {hand_size} "
                         f"(the layouts: {', '.join(str(k) for k in LAYOUT_KERNELS)})")
    fixed(states, chunk_size, n_deals, checksum)
