"""Per-trump lookup tables: the card's effective suit, its power in a trick, its value.

Everything the kernels know about bowers and the joker is in these tables,
built once at import from the card encoding of ``bower.kernels.cards`` (card = suit*6 +
rank, joker = 24). Index order is always ``[trump, ...]`` with trump 0..3.

- ``EFF_SUIT[t, c]``: suit the card belongs to for following and leading
  (left bower and joker moved into trump).
- ``SUIT_MASK[t, s]``: mask of the cards whose effective suit is ``s``.
- ``TRUMP_RANK[t, c]``: 0..7 for 9 T Q K A left right joker, -1 if not trump.
- ``POWER[t, led, c]``: trick-taking power when ``led`` was led: 20 + trump
  rank for trumps, 1 + rank for cards of the led suit, 0 otherwise. The
  trick winner is the card of greatest power.
- ``VALUE[t, c]``: how precious a card is to its holder (trump 20 + trump
  rank, other cards their rank 0..5); the "lowest card" has least value.
- ``HIGHER[t, c]``: mask of cards of the same effective suit that beat ``c``.
- ``BEATS[t, led, c]``: mask of cards that beat ``c`` in a trick where ``led`` was led.
- ``RANK_MASK[r]``: the four cards of rank ``r``; ``TRUMP_PLAIN[t]``: the trump
  suit's cards other than the bowers and joker (their index order is their
  order of power); ``RIGHT[t]``, ``LEFT[t]``: the bowers' card indices.
- ``VALUE_ORDER``, ``VALUE_RANK``, ``VALUE_BITS``, ``CARD_BITS`` and the ``V_*`` tables: the
  cards renumbered by value rank ("value space", ``_build_value_space``), where the card of
  least value of a mask is its lowest bit.
"""

import numpy as np

from bower.kernels.cards import JOKER, N_CARDS, N_RANKS, N_SUITS
from bower.kernels.jit import kernel

RANK_J = 2
N_TRUMP_RANKS = 8  # 9 T Q K A left right joker


def _build():
    eff = np.zeros((N_SUITS, N_CARDS), np.int64)
    trank = np.full((N_SUITS, N_CARDS), -1, np.int64)
    for t in range(N_SUITS):
        for c in range(N_CARDS):
            if c == JOKER:
                eff[t, c], trank[t, c] = t, 7
                continue
            s, r = divmod(c, N_RANKS)
            if r == RANK_J and s == t:
                eff[t, c], trank[t, c] = t, 6
            elif r == RANK_J and s == t ^ 1:
                eff[t, c], trank[t, c] = t, 5
            elif s == t:
                eff[t, c], trank[t, c] = t, (0, 1, -1, 2, 3, 4)[r]
            else:
                eff[t, c] = s
    suit_mask = np.zeros((N_SUITS, N_SUITS), np.int64)
    power = np.zeros((N_SUITS, N_SUITS, N_CARDS), np.int64)
    value = np.zeros((N_SUITS, N_CARDS), np.int64)
    for t in range(N_SUITS):
        for c in range(N_CARDS):
            suit_mask[t, eff[t, c]] |= 1 << c
            value[t, c] = 20 + trank[t, c] if trank[t, c] >= 0 else c % N_RANKS
            for led in range(N_SUITS):
                if trank[t, c] >= 0:
                    power[t, led, c] = 20 + trank[t, c]
                elif eff[t, c] == led:
                    power[t, led, c] = 1 + c % N_RANKS
    higher = np.zeros((N_SUITS, N_CARDS), np.int64)
    for t in range(N_SUITS):
        for c in range(N_CARDS):
            s = eff[t, c]
            for d in range(N_CARDS):
                if eff[t, d] == s and power[t, s, d] > power[t, s, c]:
                    higher[t, c] |= 1 << d
    return eff, suit_mask, trank, power, value, higher


EFF_SUIT, SUIT_MASK, TRUMP_RANK, POWER, VALUE, HIGHER = _build()
for _a in (EFF_SUIT, SUIT_MASK, TRUMP_RANK, POWER, VALUE, HIGHER):
    _a.setflags(write=False)


def _build_masks():
    beats = np.zeros((N_SUITS, N_SUITS, N_CARDS), np.int64)
    for t in range(N_SUITS):
        for led in range(N_SUITS):
            for c in range(N_CARDS):
                for d in range(N_CARDS):
                    if POWER[t, led, d] > POWER[t, led, c]:
                        beats[t, led, c] |= 1 << d
    rank_mask = np.array([sum(1 << (s * N_RANKS + r) for s in range(N_SUITS)) for r in range(N_RANKS)], np.int64)
    right = np.array([t * N_RANKS + RANK_J for t in range(N_SUITS)], np.int64)
    left = np.array([(t ^ 1) * N_RANKS + RANK_J for t in range(N_SUITS)], np.int64)
    plain = np.array([SUIT_MASK[t, t] & ~(1 << right[t]) & ~(1 << left[t]) & ~(1 << JOKER) for t in range(N_SUITS)], np.int64)
    return beats, rank_mask, plain, right, left


BEATS, RANK_MASK, TRUMP_PLAIN, RIGHT, LEFT = _build_masks()
for _a in (BEATS, RANK_MASK, TRUMP_PLAIN, RIGHT, LEFT):
    _a.setflags(write=False)



def _build_value_space():
    """The cards renumbered by value, per trump: the "value space" the trick-play kernel works in.

    A card's value rank ranks it by ``VALUE`` (least first, ties to the lower card index; the
    joker is always rank 24), so in value space the card of least value of a mask is its lowest
    bit and the strongest trump its highest. ``VALUE_ORDER[t, v]``: the card of value rank ``v``;
    ``VALUE_RANK[t, c]``: the value rank of card ``c``; ``VALUE_BITS[t, k, x]``: the value ranks
    (as a mask) of the cards of bits ``6k .. 6k+5`` of a card mask, given as the 6-bit ``x``;
    ``CARD_BITS[t, k, x]`` the other way round. ``V_SUIT_MASK``, ``V_BEATS``, ``V_HIGHER`` and
    ``V_EFF_SUIT`` are ``SUIT_MASK``, ``BEATS``, ``HIGHER`` and ``EFF_SUIT`` in value space.
    """
    order = np.zeros((N_SUITS, N_CARDS), np.int64)
    rank = np.zeros((N_SUITS, N_CARDS), np.int64)
    value_bits = np.zeros((N_SUITS, 4, 64), np.int64)
    card_bits = np.zeros((N_SUITS, 4, 64), np.int64)
    v_suit = np.zeros((N_SUITS, N_SUITS), np.int64)
    v_beats = np.zeros((N_SUITS, N_SUITS, N_CARDS), np.int64)
    v_higher = np.zeros((N_SUITS, N_CARDS), np.int64)
    v_eff = np.zeros((N_SUITS, N_CARDS), np.int64)
    for t in range(N_SUITS):
        order[t] = sorted(range(N_CARDS), key=lambda c: (VALUE[t, c], c))
        rank[t, order[t]] = np.arange(N_CARDS)
        assert rank[t, JOKER] == JOKER

        def to_value(mask, t=t):
            """Card mask ``mask`` as a mask of value ranks."""
            return sum(1 << int(rank[t, c]) for c in range(N_CARDS) if (mask >> c) & 1)

        for k in range(4):
            for x in range(64):
                value_bits[t, k, x] = to_value(x << (6 * k))
                card_bits[t, k, x] = sum(1 << int(order[t, 6 * k + j]) for j in range(6) if (x >> j) & 1)
        for s in range(N_SUITS):
            v_suit[t, s] = to_value(SUIT_MASK[t, s])
        for v in range(N_CARDS):
            c = order[t, v]
            v_higher[t, v] = to_value(HIGHER[t, c])
            v_eff[t, v] = EFF_SUIT[t, c]
            for led in range(N_SUITS):
                v_beats[t, led, v] = to_value(BEATS[t, led, c])
    return order, rank, value_bits, card_bits, v_suit, v_beats, v_higher, v_eff


VALUE_ORDER, VALUE_RANK, VALUE_BITS, CARD_BITS, V_SUIT_MASK, V_BEATS, V_HIGHER, V_EFF_SUIT = _build_value_space()
for _a in (VALUE_ORDER, VALUE_RANK, VALUE_BITS, CARD_BITS, V_SUIT_MASK, V_BEATS, V_HIGHER, V_EFF_SUIT):
    _a.setflags(write=False)

# The trumps in value space: the top value ranks, the same block whatever the trump (joker included). So a card
# that beats value rank ``w`` in a trick whose led suit's value-space mask is ``s`` is one of ``(s | V_TRUMPS)``
# above ``w`` (``V_BEATS[t, led, w]`` for ``w`` of the led suit or trump: the trick-play kernels' arithmetic form).
V_TRUMPS = np.int64(V_SUIT_MASK[0, 0])
assert all(V_SUIT_MASK[t, t] == V_TRUMPS for t in range(N_SUITS))


def _build_slot_space():
    """Value space with each suit on its own stride: the "slot space" of Ghost Hand's plain trick path.

    Per trump ``t``, the three other suits in suit order are ``i = 0, 1, 2``; a card of suit ``i`` and plain rank
    ``r`` (9 T J Q K A = 0..5) has slot ``3 r + i``, so slots 0..17 hold the non-trumps and a suit's cards are
    every third slot (the jack of ``t``'s colour, a trump, leaves its slot empty); the trumps follow in value
    order from slot 18 (9 T Q K A left right), the joker at 25. Slots order the cards as value ranks do (the same
    ``(VALUE, card)`` order, one slot skipped), so a mask's card of least value is its lowest slot, its best trump
    its highest, and a card above another in value space is above it here: the value-space arithmetic holds,
    while "above every unseen card of its suit" is shifts by multiples of 3 (``S_PLAIN``) and one ``smear`` for
    the trumps (``S_TRUMPS``). ``SLOT_BITS[t, k, x]``: the slots of the cards of bits ``6k .. 6k+5`` of a card
    mask, given as the 6-bit ``x``; ``SLOT_ORDER[t, s]``: the card in slot ``s`` (-1: none); ``SLOT_DECK[t]``:
    the slots of the 24 cards; ``SLOT_SUIT[s]``: the slots of slot ``s``'s effective suit (the same for every
    trump); ``SLOT_SUIT_OF[t, u]``: the slots of suit ``u``'s cards (its effective suit).
    """
    slot = np.full((N_SUITS, N_CARDS), -1, np.int64)
    order = np.full((N_SUITS, 32), -1, np.int64)
    bits = np.zeros((N_SUITS, 4, 64), np.int64)
    deck = np.zeros(N_SUITS, np.int64)
    for t in range(N_SUITS):
        others = [s for s in range(N_SUITS) if s != t]
        for c in range(N_CARDS):
            if TRUMP_RANK[t, c] >= 0:
                slot[t, c] = 18 + TRUMP_RANK[t, c]
            else:
                s, r = divmod(c, N_RANKS)
                slot[t, c] = 3 * r + others.index(s)
            order[t, slot[t, c]] = c
        for k in range(4):
            for x in range(64):
                bits[t, k, x] = sum(1 << int(slot[t, 6 * k + j]) for j in range(6) if (x >> j) & 1)
        deck[t] = sum(1 << int(slot[t, c]) for c in range(N_CARDS) if c != JOKER)
        vr = VALUE_RANK[t]
        assert all((slot[t, c] < slot[t, d]) == (vr[c] < vr[d]) for c in range(N_CARDS) for d in range(N_CARDS))
    suit = np.zeros(32, np.int64)
    for s in range(32):
        suit[s] = (((1 << 7) - 1) << 18 | 1 << 25) if s >= 18 else sum(1 << j for j in range(s % 3, 18, 3))
    of_suit = np.array([[suit[18] if s == t else suit[[u for u in range(N_SUITS) if u != t].index(s)]
                         for s in range(N_SUITS)] for t in range(N_SUITS)], np.int64)
    return slot, order, bits, deck, suit, of_suit


SLOT_RANK, SLOT_ORDER, SLOT_BITS, SLOT_DECK, SLOT_SUIT, SLOT_SUIT_OF = _build_slot_space()
for _a in (SLOT_RANK, SLOT_ORDER, SLOT_BITS, SLOT_DECK, SLOT_SUIT, SLOT_SUIT_OF):
    _a.setflags(write=False)
S_TRUMPS = np.int64(SLOT_SUIT[18])  # slots 18..24 and the joker's 25
S_PLAIN = np.int64((1 << 18) - 1)  # the non-trump slots


def _build_slot_cards() -> np.ndarray:
    """``SLOT_CARDS[t, k, x]``: the card mask of the slots ``6k .. 6k+5`` given as the 6-bit ``x`` (trump ``t``;
    the joker's slot 25 is card 24): ``slot_cards``'s five lookups, the inverse of ``SLOT_BITS``."""
    out = np.zeros((N_SUITS, 5, 64), np.int64)
    for t in range(N_SUITS):
        for k in range(5):
            for x in range(64):
                out[t, k, x] = sum(1 << int(SLOT_ORDER[t, 6 * k + j]) for j in range(6)
                                   if (x >> j) & 1 and SLOT_ORDER[t, 6 * k + j] >= 0)
    return out


SLOT_CARDS = _build_slot_cards()
SLOT_CARDS.setflags(write=False)


@kernel(inline="always")
def slot_ranks(mask, trump):
    """Card mask ``mask`` of the 24-card deck in slot space (``SLOT_BITS``): four lookups, no branches."""
    return (
        SLOT_BITS[trump, 0, mask & 63] | SLOT_BITS[trump, 1, (mask >> 6) & 63]
        | SLOT_BITS[trump, 2, (mask >> 12) & 63] | SLOT_BITS[trump, 3, (mask >> 18) & 63]
    )


@kernel(inline="always")
def slot_cards(mask, trump):
    """Slot-space mask ``mask`` back to a card mask (``SLOT_CARDS``): five lookups, no branches; the inverse of
    ``slot_ranks`` (and of the joker's slot 25, card 24)."""
    return (
        SLOT_CARDS[trump, 0, mask & 63] | SLOT_CARDS[trump, 1, (mask >> 6) & 63]
        | SLOT_CARDS[trump, 2, (mask >> 12) & 63] | SLOT_CARDS[trump, 3, (mask >> 18) & 63]
        | SLOT_CARDS[trump, 4, (mask >> 24) & 63]
    )
