"""The trick-taking core every variant plays with (``kernels/trick.py``) against a plain-Python twin.

The twin plays in card space from the rules' own tables (``EFF_SUIT`` for a
card's suit, ``POWER`` for who takes a trick, ``VALUE_RANK`` for the card of
least value), card by card, as the strategies are written in words: the
maker's strongest trump with enough trumps, a "next" lead, a sure winner of
least value (no unseen card of its suit above it), the maker's partner's
weakest trump, the card of least value; a follow takes the trick as cheaply
as it can unless a partner holds it. Hypothesis deals three or four hands,
with and without the joker, partnerships or every player for itself, seats
sitting out, and compares every play and the tricks.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from bower.kernels import trick as core
from bower.kernels.tables import EFF_SUIT, POWER, SLOT_DECK, VALUE_RANK, slot_cards


@njit(cache=False)
def _play(v0, v1, v2, v3, n_seats, n_tricks, team, out, deck, trump, leader, maker, partner, lead_min, nxt,
          next_suit, rec):
    return core.play_tricks(v0, v1, v2, v3, n_seats, n_tricks, team, out, deck, trump, leader, maker, partner,
                            lead_min, nxt, next_suit, 0, core.no_pick, (), rec, 0, True)


def _least(cards, trump):
    return min(cards, key=lambda c: VALUE_RANK[trump, c])


def _most(cards, trump):
    return max(cards, key=lambda c: VALUE_RANK[trump, c])


def twin_play(hands, trump, leader, maker, partner, side, out, lead_min, nxt, next_suit, in_play):
    """The plays (seat, card) and tricks by seat of the heuristic policy, card by card (``in_play``: the deck)."""
    hands = [set(h) for h in hands]
    n = len(hands)
    played: set[int] = set()
    plays = []
    tricks = [0] * n
    n_tricks = len(hands[leader])
    for trick in range(n_tricks):
        hand = hands[leader]
        trumps = [c for c in hand if EFF_SUIT[trump, c] == trump]
        unseen = set(in_play) - hand - played
        sure = [c for c in hand if not any(EFF_SUIT[trump, x] == EFF_SUIT[trump, c]
                                           and POWER[trump, EFF_SUIT[trump, c], x] > POWER[trump, EFF_SUIT[trump, c], c]
                                           for x in unseen)]
        nx = [c for c in hand if EFF_SUIT[trump, c] == next_suit] if trick == 0 and (nxt >> leader) & 1 else []
        if leader == maker and trumps and len(trumps) >= lead_min:
            lead = _most(trumps, trump)
        elif nx:
            lead = _most(nx, trump)
        elif sure:
            lead = _least(sure, trump)
        elif leader == partner and trumps:
            lead = _least(trumps, trump)
        else:
            lead = _least(hand, trump)
        led = EFF_SUIT[trump, lead]
        winning, winner = lead, leader
        trick_cards = [(leader, lead)]
        for k in range(1, n):
            seat = (leader + k) % n
            if (out >> seat) & 1:
                continue
            hand = hands[seat]
            follow = [c for c in hand if EFF_SUIT[trump, c] == led]
            legal = follow or list(hand)
            takers = [c for c in legal if POWER[trump, led, c] > POWER[trump, led, winning]]
            held = side[seat] == side[winner]
            card = _least(legal if held or not takers else takers, trump)
            trick_cards.append((seat, card))
            if POWER[trump, led, card] > POWER[trump, led, winning]:
                winning, winner = card, seat
        for seat, card in trick_cards:
            hands[seat].discard(card)
            played.add(card)
            plays.append((seat, card))
        tricks[winner] += 1
        leader = winner
    return plays, tricks


@st.composite
def deals(draw):
    """A deal for the core: seats, tricks, the joker or not, sides, a maker, seats out, "next" leaders."""
    n_seats = draw(st.sampled_from([3, 4]))
    joker = n_seats == 4 and draw(st.booleans())
    n_tricks = draw(st.integers(1, 6 if joker or n_seats == 3 else 5))
    deck = list(range(25 if joker else 24))
    order = draw(st.permutations(deck))
    hands = [sorted(order[s * n_tricks:(s + 1) * n_tricks]) for s in range(n_seats)]
    trump = draw(st.integers(0, 3))
    maker = draw(st.integers(0, n_seats - 1))
    layout = draw(st.sampled_from(["partners", "against-maker", "each"] if n_seats == 3 else ["partners", "each"]))
    if layout == "partners":
        side = [s % 2 for s in range(n_seats)]
    elif layout == "against-maker":
        side = [1 if s == maker else 0 for s in range(n_seats)]
    else:
        side = list(range(n_seats))
    partner = (maker + 2) % 4 if n_seats == 4 and layout == "partners" else -1
    out = 0
    if n_seats == 4 and layout == "partners" and draw(st.booleans()):
        out = 1 << draw(st.sampled_from([s for s in range(4) if s != maker]))
    elif n_seats == 3 and draw(st.booleans()):
        out = 1 << draw(st.sampled_from([s for s in range(3) if s != maker]))
    leader = draw(st.sampled_from([s for s in range(n_seats) if not (out >> s) & 1]))
    next_suit = draw(st.sampled_from([-1] + [u for u in range(4) if u != trump]))
    nxt = draw(st.integers(0, (1 << n_seats) - 1)) if next_suit >= 0 else 0
    lead_min = float(draw(st.integers(0, 6)))
    return hands, trump, leader, maker, partner, side, out, lead_min, nxt, next_suit, deck, joker


@settings(max_examples=400, deadline=None, derandomize=True)
@given(deals())
def test_the_core_plays_as_its_twin(d):
    hands, trump, leader, maker, partner, side, out, lead_min, nxt, next_suit, in_play, joker = d
    n_seats, n_tricks = len(hands), len(hands[0])
    masks = [sum(1 << c for c in h) for h in hands]
    slots = [int(core.to_slots.py_func(np.int64(m), trump)) for m in masks] + [0] * (4 - n_seats)
    deck = int(SLOT_DECK[trump]) | ((1 << 25) if joker else 0)
    team = sum(side[s] << (2 * s) for s in range(n_seats))
    rec = np.full(2 * n_seats * n_tricks, -1, np.int64)
    t, n = _play(*[np.int64(v) for v in slots], np.int64(n_seats), np.int64(n_tricks), np.int64(team),
                 np.int64(out), np.int64(deck), np.int64(trump), np.int64(leader), np.int64(maker),
                 np.int64(partner), lead_min, np.int64(nxt), np.int64(next_suit), rec)
    # a card not yet played is unseen to the leader wherever it is (another hand, a seat sitting out, undealt)
    plays, tricks = twin_play(hands, trump, leader, maker, partner, side, out, lead_min, nxt, next_suit, in_play)
    assert [(int(rec[2 * i]), int(rec[2 * i + 1])) for i in range(n)] == plays
    assert [(int(t) >> (8 * s)) & 255 for s in range(n_seats)] == tricks


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.integers(0, 3), st.integers(0, (1 << 25) - 1))
def test_slot_cards_undoes_to_slots(trump, mask):
    slots = core.to_slots.py_func(np.int64(mask), trump)
    assert bin(int(slots)).count("1") == bin(mask).count("1")
    assert slot_cards.py_func(slots, trump) == mask
