"""Card-play helpers every variant's strategy uses: the k-th card, random cards, weakest and strongest trump,
the card of least value, value space, the lead of a sure winner and the cheapest winning follow.

Value space (``tables.VALUE_ORDER``) renumbers the cards by value, so the
card of least value of a mask is its lowest bit there.
"""

import numpy as np

from bower.kernels.bits import highest, lowest, popcount
from bower.kernels.jit import kernel
from bower.kernels.rng import bounded
from bower.kernels.tables import (
    BEATS,
    CARD_BITS,
    LEFT,
    RIGHT,
    SUIT_MASK,
    TRUMP_PLAIN,
    V_HIGHER,
    V_SUIT_MASK,
    VALUE_BITS,
    VALUE_ORDER,
)

DECK24 = np.int64((1 << 24) - 1)
_JOKER = np.int64(1 << 24)


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


@kernel
def weakest_trump(trumps, trump):
    """The trump of least power in non-empty ``trumps``: a plain trump (9 T Q K A in index order), else left, else right."""
    plain = trumps & TRUMP_PLAIN[trump]
    if plain != 0:
        return lowest(plain)
    if (trumps >> LEFT[trump]) & 1:
        return LEFT[trump]
    if (trumps >> RIGHT[trump]) & 1:
        return RIGHT[trump]
    return lowest(trumps)  # the joker


@kernel
def strongest_trump(trumps, trump):
    """The trump of most power in non-empty ``trumps`` (joker, right, left, then A K Q T 9)."""
    if (trumps >> 24) & 1:
        return 24
    if (trumps >> RIGHT[trump]) & 1:
        return RIGHT[trump]
    if (trumps >> LEFT[trump]) & 1:
        return LEFT[trump]
    return highest(trumps)


@kernel
def least_value(mask, trump):
    """Card of least value in non-empty ``mask``: the lowest-ranked non-trump (ties: lowest suit), else the weakest trump."""
    return lowest_value(mask, trump)


@kernel(inline="always")
def value_ranks(mask, trump):
    """Card mask ``mask`` in value space (``tables.VALUE_ORDER``): four lookups, no branches (joker: bit 24)."""
    return (
        VALUE_BITS[trump, 0, mask & 63] | VALUE_BITS[trump, 1, (mask >> 6) & 63]
        | VALUE_BITS[trump, 2, (mask >> 12) & 63] | VALUE_BITS[trump, 3, (mask >> 18) & 63] | (mask & _JOKER)
    )


@kernel(inline="always")
def card_mask(ranks, trump):
    """Value-space mask ``ranks`` back to a card mask (the inverse of ``value_ranks``)."""
    return (
        CARD_BITS[trump, 0, ranks & 63] | CARD_BITS[trump, 1, (ranks >> 6) & 63]
        | CARD_BITS[trump, 2, (ranks >> 12) & 63] | CARD_BITS[trump, 3, (ranks >> 18) & 63] | (ranks & _JOKER)
    )


@kernel(inline="always")
def lowest_value(mask, trump):
    """``least_value``, inlined: the lowest bit of ``mask`` in value space."""
    return VALUE_ORDER[trump, lowest(value_ranks(mask, trump))]


@kernel
def choose_lead(hand, trump, played, is_maker, lead_min):
    """Lead: the maker's top trump when holding ``lead_min`` or more, else a sure winner of least value, else least value."""
    v = lead_rank(value_ranks(hand, trump), trump, value_ranks(played, trump), is_maker, lead_min)
    return VALUE_ORDER[trump, v]


@kernel(inline="always")
def lead_rank(hand, trump, played, is_maker, lead_min):
    """``choose_lead`` in value space (``hand``, ``played`` and the result by value rank), inlined.

    A sure winner is a card that no unseen card of its suit beats.
    """
    trumps = hand & V_SUIT_MASK[trump, trump]
    if is_maker and trumps != 0 and popcount(trumps) >= lead_min:
        return highest(trumps)
    unseen = DECK24 & ~hand & ~played  # the 24 cards are value ranks 0..23 too
    sure = np.int64(0)
    m = hand
    while m != 0:
        v = lowest(m)
        m &= m - 1
        sure |= np.int64((V_HIGHER[trump, v] & unseen) == 0) << v
    return lowest(sure if sure != 0 else hand)


@kernel
def choose_follow(legal, trump, led, winning):
    """Follow: the cheapest ``legal`` card that beats the ``winning`` card so far, else the one of least value.

    Cards that can beat it are all of one effective suit (the led suit, or
    trump when void): the weakest trump, or the lowest card. (The trick-play
    kernel does the same in value space, ``bower.kernels.ghost.play_core``.)
    """
    winners = legal & BEATS[trump, led, winning]
    if winners != 0:
        if winners & SUIT_MASK[trump, trump]:
            return weakest_trump(winners, trump)
        return lowest(winners)
    return lowest_value(legal, trump)
