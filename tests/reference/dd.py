"""Plain exhaustive double-dummy minimax: the reference the solver kernel ``kernels/solve.py`` is tested against.

Written for clarity, not speed. Every hand is open; from a position the seat to
play tries each of its legal cards in turn, the measured side taking the best
result for it and the other side the worst. There is no pruning, no card
equivalence and no canonical form: the only shortcuts are the last trick, played
out at once when each hand holds one card (its play is forced), and memoisation of the
positions between tricks (the four hands and the seat to lead), which changes
nothing in the answer and makes full deals tractable. A position inside a trick
is not remembered: it is reached only through the position that began its
trick, the cards on the trick saying what was played since.

The rules, from ``/work/shared/RULES.md``, are written out here on their own
(no kernel tables):

- a card is ``suit * 6 + rank``, suits C S D H = 0..3 (C/S black, D/H red),
  ranks 9 T J Q K A = 0..5; the joker is 24 (Hasenpfeffer);
- the joker and both bowers (jack of trump = right, the other jack of trump's
  colour = left) belong to trump: for following, leading and voids;
- trump order, high to low: joker, right bower, left bower, A K Q T 9; other
  suits A K Q J T 9;
- follow the (effective) suit led if you can, else play anything; the highest
  trump wins the trick, else the highest card of the suit led; the winner leads;
- play goes clockwise: seat ``s`` is followed by the next seat in play among
  ``s+1, s+2, ...`` (mod 4); seats not in ``active`` hold nothing and are skipped.

A position: ``hands`` (four card masks, or four iterables of cards), the mask of
the seats in play ``active``, ``trump`` (0..3), ``trick_cards`` (the cards
already played to the current trick, in order) and ``trick_leader`` (the seat
that led it; the seat to lead when the trick is empty), and the measured side
``sides`` (a mask of seats). Values count the tricks the measured side takes
from this position on, the current trick included.
"""

from __future__ import annotations

from functools import lru_cache

JOKER = 24
N_RANKS = 6
JACK = 2
# trump order, low to high, by rank 9 T Q K A (the jacks are bowers and sit above)
_TRUMP_PLAIN_ORDER = {0: 0, 1: 1, 3: 2, 4: 3, 5: 4}  # 9 T Q K A


def suit_of(card: int) -> int:
    return card // N_RANKS


def rank_of(card: int) -> int:
    return card % N_RANKS


def effective_suit(card: int, trump: int) -> int:
    """The suit a card counts as under ``trump``: the joker and the left bower are trump."""
    if card == JOKER:
        return trump
    if rank_of(card) == JACK and suit_of(card) == (trump ^ 1):  # same colour: C<->S, D<->H
        return trump
    return suit_of(card)


def trump_strength(card: int, trump: int) -> int:
    """Order among trumps (higher is stronger): 9 T Q K A = 0..4, left 5, right 6, joker 7."""
    if card == JOKER:
        return 7
    if rank_of(card) == JACK:
        return 6 if suit_of(card) == trump else 5
    return _TRUMP_PLAIN_ORDER[rank_of(card)]


def trick_winner_index(cards, trump: int) -> int:
    """Index into ``cards`` (in order of play) of the card that wins the trick."""
    trumps = [i for i, c in enumerate(cards) if effective_suit(c, trump) == trump]
    if trumps:
        return max(trumps, key=lambda i: trump_strength(cards[i], trump))
    led = effective_suit(cards[0], trump)
    followers = [i for i, c in enumerate(cards) if effective_suit(c, trump) == led]
    return max(followers, key=lambda i: rank_of(cards[i]))


def cards_of(mask: int) -> list[int]:
    return [c for c in range(25) if mask >> c & 1]


def legal_cards(hand: int, trick_cards, trump: int) -> list[int]:
    """The cards of ``hand`` (a mask) that may be played to a trick with ``trick_cards`` already on it."""
    held = cards_of(hand)
    if not trick_cards:
        return held
    led = effective_suit(trick_cards[0], trump)
    follow = [c for c in held if effective_suit(c, trump) == led]
    return follow if follow else held


def next_seat(seat: int, active: int) -> int:
    """The next seat in play clockwise after ``seat``."""
    for k in range(1, 5):
        s = (seat + k) % 4
        if active >> s & 1:
            return s
    raise ValueError("no seat in play")


def seat_to_play(trick_leader: int, n_played: int, active: int) -> int:
    seat = trick_leader
    for _ in range(n_played):
        seat = next_seat(seat, active)
    return seat


def _as_mask(hand) -> int:
    if isinstance(hand, int):
        return hand
    m = 0
    for c in hand:
        m |= 1 << int(c)
    return m


@lru_cache(maxsize=4)
def _trump_tables(trump: int):
    """Lookups for one trump, from the plain functions above: each effective suit's card mask, each card's
    effective suit, and ``beats[card][best]``: whether ``card`` takes a trick that ``best`` is winning so far."""
    suit_mask = [sum(1 << c for c in range(25) if effective_suit(c, trump) == s) for s in range(4)]
    eff = [effective_suit(c, trump) for c in range(25)]
    strength = [trump_strength(c, trump) if eff[c] == trump else rank_of(c) for c in range(25)]

    def wins_over(card: int, best: int) -> bool:
        """Whether ``card`` beats ``best``, the card winning the trick so far (trump over the rest)."""
        if eff[card] == trump:
            return eff[best] != trump or strength[card] > strength[best]
        return eff[card] == eff[best] and strength[card] > strength[best]

    beats = [[wins_over(card, best) for best in range(25)] for card in range(25)]
    return suit_mask, eff, beats


@lru_cache(maxsize=2)
def _solver(active: int, trump: int, sides: int):
    """The memoised minimax for one game shape: ``value(hands, trick, leader)``.

    Only lookups are precomputed: the trump's (``_trump_tables``) and the
    order of play from each leader.
    """
    n_active = bin(active).count("1")
    suit_mask, eff, beats = _trump_tables(trump)
    order = {lead: [seat_to_play(lead, k, active) for k in range(n_active)] for lead in range(4) if active >> lead & 1}

    def winner(trick: tuple, leader: int) -> int:
        """The seat that wins the complete ``trick`` that ``leader`` led."""
        best = 0
        for i in range(1, n_active):
            if beats[trick[i]][trick[best]]:
                best = i
        return order[leader][best]

    @lru_cache(maxsize=1 << 20)  # bounded: an evicted position is only searched again
    def trick_start(hands: tuple, leader: int) -> int:
        """The value of a position between tricks: the one memoised (see ``value``)."""
        if not any(hands):
            return 0
        if all(h & (h - 1) == 0 for h in hands):  # one card in each hand: the last trick plays itself
            return sides >> winner(tuple(hands[s].bit_length() - 1 for s in order[leader]), leader) & 1
        return search(hands, (), leader)

    def value(hands: tuple, trick: tuple, leader: int) -> int:
        # Not memoised itself: a position inside a trick is reached only through the position that began the
        # trick (the cards on the trick say what was played since), so only those are worth remembering.
        if len(trick) == n_active:  # the trick is complete: score it, the winner leads on
            seat = winner(trick, leader)
            return (sides >> seat & 1) + trick_start(hands, seat)
        if not trick:
            return trick_start(hands, leader)
        return search(hands, trick, leader)

    def search(hands: tuple, trick: tuple, leader: int) -> int:
        """Each legal card of the seat to play in turn: the best result for its side."""
        seat = order[leader][len(trick)]
        hand = hands[seat]
        legal = hand
        if trick and hand & suit_mask[eff[trick[0]]]:  # must follow the suit led
            legal = hand & suit_mask[eff[trick[0]]]
        results = []
        rest = list(hands)
        while legal:  # each legal card in turn
            bit = legal & -legal
            legal ^= bit
            rest[seat] = hand ^ bit
            results.append(value(tuple(rest), trick + (bit.bit_length() - 1,), leader))
        return max(results) if sides >> seat & 1 else min(results)

    return value


def _without(hands: tuple, seat: int, card: int) -> tuple:
    return tuple(h & ~(1 << card) if s == seat else h for s, h in enumerate(hands))


def _normalise(hands, active, trick_cards):
    masks = tuple(_as_mask(h) if active >> s & 1 else 0 for s, h in enumerate(hands))
    return masks, tuple(int(c) for c in trick_cards)


def dd_value(hands, active, trump, trick_cards, trick_leader, sides) -> int:
    """Tricks the measured side ``sides`` takes from the position with best play by both sides."""
    masks, trick = _normalise(hands, int(active), trick_cards)
    return _solver(int(active), int(trump), int(sides))(masks, trick, int(trick_leader))


def dd_card_values(hands, active, trump, trick_cards, trick_leader, sides) -> dict[int, int]:
    """``{card: value}`` for each legal card of the seat to play: the measured side's tricks if it is played."""
    active, trump, sides, leader = int(active), int(trump), int(sides), int(trick_leader)
    masks, trick = _normalise(hands, active, trick_cards)
    value = _solver(active, trump, sides)
    seat = seat_to_play(leader, len(trick), active)
    return {c: value(_without(masks, seat, c), trick + (c,), leader) for c in legal_cards(masks[seat], trick, trump)}


def dd_seat_to_play(active, trick_cards, trick_leader) -> int:
    return seat_to_play(int(trick_leader), len(trick_cards), int(active))


def clear_cache() -> None:
    """Forget every memoised position (they are kept, per shape, between calls)."""
    _solver.cache_clear()
