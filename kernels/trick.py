"""The trick-taking core every variant plays its heuristic cards with, in slot space.

Slot space (``tables.SLOT_ORDER``) numbers a trump suit's cards so that a
card's slot grows with its power: the plain suits three slots apart, the
trumps in ``S_TRUMPS`` above them (the joker, where a variant has one, in
slot 25). A suit's cards above a card ``c`` are then ``SLOT_SUIT[c] &
-(2 << c)``, and the card of least value of a mask is its lowest bit.

- ``sure_winners``: the cards of a hand above every unseen card of their suit.
- ``lead_slot``: the lead policy (the maker's strongest trump, a "next" lead,
  a sure winner, the maker's partner's weakest trump, the card of least value).
- ``follow_slot``: the follow policy (the cheapest card that takes the trick,
  or the card of least value when the trick is held by a partner or cannot
  be taken).
- ``play_tricks``: whole tricks among three or four seats, partnerships or
  not, sitting-out seats, the plays written into a variant's record; seats
  that play at random or by search choose through the variant's ``pick``
  (``pick_random``, ``no_pick``; ``to_slots`` and ``tables.slot_cards`` turn cards into slots and back).

A variant passes its own layout (seats, tricks, the record's plays offset)
and its own lead parameters; the rules that differ (deal, auction, exchange,
scoring) stay in the variant's kernels.
"""

import numpy as np

from bower.kernels.bits import highest, lowest, popcount, smear
from bower.kernels.jit import kernel
from bower.kernels.play import random_card
from bower.kernels.tables import (S_PLAIN, S_TRUMPS, SLOT_ORDER, SLOT_RANK, SLOT_SUIT, SLOT_SUIT_OF, slot_cards,
                                  slot_ranks)

# ``play_tricks``'s ``team``: two bits per seat, its side
PARTNERS = 0b01000100  # four seats in two partnerships: seats 0 and 2 side 0, 1 and 3 side 1
EACH_ALONE = 0b100100  # three seats, every player for itself


@kernel(inline="always")
def sure_winners(hand, unseen):
    """The cards of ``hand`` above every ``unseen`` card of their suit, in slot space, without branches.

    A non-trump is above every unseen card of its suit when no unseen card sits a multiple of 3 slots above it
    (three shifts smear the unseen non-trumps down their suits); a trump when it is above ``smear`` of the
    unseen trumps.
    """
    n = unseen & S_PLAIN
    a = n | (n >> 3)
    a |= a >> 6
    a |= a >> 12
    return hand & ~((a >> 3) | (smear(unseen & S_TRUMPS) & S_TRUMPS))


@kernel(inline="always")
def lead_slot(hand, unseen, is_maker, is_partner, nx, lead_min):
    """The heuristic lead from ``hand`` in slot space, without branches (``unseen``: the cards in play not in
    ``hand``).

    In order of precedence: the maker's strongest trump when it holds ``lead_min`` trumps or more; the strongest
    card of ``nx`` (a "next" lead's cards, else 0); a sure winner of least value (``sure_winners``); the maker's
    partner's weakest trump; the card of least value.
    """
    trumps = hand & S_TRUMPS
    sure = sure_winners(hand, unseen)
    v = lowest(hand)
    v = lowest(trumps) if is_partner and trumps != 0 else v
    v = lowest(sure) if sure != 0 else v
    v = highest(nx) if nx != 0 else v
    return highest(trumps) if is_maker and trumps != 0 and popcount(trumps) >= lead_min else v


@kernel(inline="always")
def follow_slot(hand, led_suit, winning, held):
    """The heuristic follow from ``hand`` in slot space to a trick of suit ``led_suit`` (``SLOT_SUIT`` of the
    lead) whose winning card is ``winning``: returns (card, whether it takes the trick).

    The legal cards are those of the led suit, else any. A card takes the trick when it is of the led suit or a
    trump and above ``winning``; the cheapest such card is played, or the card of least value when none takes
    it or the trick is ``held`` by a partner.
    """
    f = hand & led_suit
    legal = f if f != 0 else hand
    above = legal & (led_suit | S_TRUMPS) & -(np.int64(2) << winning)
    c = lowest(legal if held or above == 0 else above)
    return c, (above >> c) & 1 == 1


@kernel(inline="always")
def to_slots(mask, trump):
    """Card mask ``mask`` in slot space with the joker (card 24) in slot 25: ``tables.slot_ranks`` of the other
    24 cards."""
    return slot_ranks(mask & ((np.int64(1) << 24) - 1), trump) | (((mask >> 24) & 1) << 25)


@kernel(inline="always")
def pick_random(seat, n, hand, legal, v0, v1, v2, v3, trump, ctx):
    """``play_tricks``'s ``pick`` for seats that play at random: a ``legal`` card drawn uniformly, the k-th in
    card order (``play.random_card``) from the decision stream ``ctx = (dstate, dbuf)``; returns its slot.
    Inlined: a call a random play cost Ghost Hand's and Hasenpfeffer's random hands about 10% more."""
    dstate, dbuf = ctx
    return SLOT_RANK[trump, random_card(slot_cards(legal, trump), dstate, dbuf)]


@kernel(inline="always")
def no_pick(seat, n, hand, legal, v0, v1, v2, v3, trump, ctx):
    """``play_tricks``'s ``pick`` where every seat plays the heuristic cards (``rnd`` 0): never called."""
    return lowest(legal)


@kernel(inline="always")
def play_tricks(v0, v1, v2, v3, n_seats, n_tricks, team, out, deck, trump, leader, maker, partner, lead_min, nxt,
                next_suit, rnd, pick, ctx, rec, base, write):
    """Play ``n_tricks`` tricks in slot space: the heuristic seats by ``lead_slot`` and ``follow_slot``, the seats
    of ``rnd`` (a bit per seat playing at random or by search) by ``pick(seat, n, hand, legal, v0, v1, v2, v3,
    trump, ctx)``, which returns the slot of its card (``n``: the plays so far; the hands as they stand).

    ``v0 .. v3``: the seats' hands in slot space (``v3`` unused with three seats); ``team``: two bits per seat, its
    side (a trick held by a seat of the player's side is not overtaken; three sides: no partners); ``out``: a bit
    per seat sitting out; ``deck``: every card in play, in slot space; ``partner``: the maker's partner (-1: none);
    ``lead_min``: the maker's least number of trumps to lead its strongest; ``nxt``: a bit per seat that leads
    suit ``next_suit`` ("next") on the first trick when it can (``next_suit`` -1: none).

    With ``write``, play ``n`` goes to ``rec[base + 2n]`` (seat) and ``rec[base + 2n + 1]`` (the card, its index by
    ``tables.SLOT_ORDER``). Returns (tricks by seat, a byte each; the number of plays). The hands are held in
    registers. Inlined into each variant's kernels (compiled once there): a variant's constant layout and an
    ``rnd`` of 0 (the plain path, ``no_pick``) fold into the loop; called through a plain call the plain path ran
    3-7% slower (benchmarks/RESULTS.md).
    """
    played = np.int64(0)
    t = np.int64(0)
    n = 0
    for trick in range(n_tricks):
        hand = v0 if leader == 0 else (v1 if leader == 1 else (v2 if leader == 2 else v3))
        if (rnd >> leader) & 1 == 1:
            v = pick(leader, n, hand, hand, v0, v1, v2, v3, trump, ctx)
        else:
            nx = np.int64(0)
            if trick == 0 and (nxt >> leader) & 1 == 1:
                nx = hand & SLOT_SUIT_OF[trump, next_suit & 3]
            v = lead_slot(hand, deck & ~hand & ~played, leader == maker, leader == partner, nx, lead_min)
        bit = np.int64(1) << v
        hand &= ~bit
        v0 = hand if leader == 0 else v0
        v1 = hand if leader == 1 else v1
        v2 = hand if leader == 2 else v2
        v3 = hand if leader == 3 else v3
        played |= bit
        if write:
            rec[base + 2 * n] = leader
            rec[base + 2 * n + 1] = SLOT_ORDER[trump, v]
        n += 1
        led_suit = SLOT_SUIT[v]
        winning = v
        winner = leader
        for k in range(1, n_seats):
            seat = leader + k
            seat = seat - n_seats if seat >= n_seats else seat
            if (out >> seat) & 1:
                continue
            hand = v0 if seat == 0 else (v1 if seat == 1 else (v2 if seat == 2 else v3))
            if (rnd >> seat) & 1 == 1:
                f = hand & led_suit
                c = pick(seat, n, hand, f if f != 0 else hand, v0, v1, v2, v3, trump, ctx)
                takes = (((led_suit | S_TRUMPS) & -(np.int64(2) << winning)) >> c) & 1 == 1
            else:
                c, takes = follow_slot(hand, led_suit, winning, (team >> (2 * seat)) & 3 == (team >> (2 * winner)) & 3)
            bit = np.int64(1) << c
            hand &= ~bit
            v0 = hand if seat == 0 else v0
            v1 = hand if seat == 1 else v1
            v2 = hand if seat == 2 else v2
            v3 = hand if seat == 3 else v3
            played |= bit
            winning = c if takes else winning
            winner = seat if takes else winner
            if write:
                rec[base + 2 * n] = seat
                rec[base + 2 * n + 1] = SLOT_ORDER[trump, c]
            n += 1
        t += np.int64(1) << (8 * winner)
        leader = winner
    return t, n
