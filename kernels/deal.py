"""Seeded deals: Fisher-Yates shuffle into card masks."""

import numpy as np

from kernels.jit import kernel
from kernels.rng import bounded


@kernel
def shuffle(state, buf, deck, n):
    """Shuffle ``deck[:n]`` in place (Fisher-Yates, i from n-1 down to 1, j uniform in [0, i])."""
    for i in range(n - 1, 0, -1):
        j = bounded(state, buf, i + 1)
        tmp = deck[i]
        deck[i] = deck[j]
        deck[j] = tmp


@kernel
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
