"""Card notation and the bit encoding shared by every variant.

A card is an integer 0..24: ``suit * 6 + rank`` with suits ``C S D H`` (0..3)
and ranks ``9 T J Q K A`` (0..5); the joker is 24. A hand is an integer mask
with bit ``card`` set for each card held. Clubs/spades (0, 1) are black,
diamonds/hearts (2, 3) red, so the suit of the same colour is ``suit ^ 1``.
"""

from __future__ import annotations

from bower.kernels.cards import DECK24, DECK25, JOKER, N_CARDS, N_RANKS, N_SUITS  # noqa: F401  (the encoding)
from bower.sim.errors import UserError

SUITS = "CSDH"
RANKS = "9TJQKA"

_SUIT_ALIASES = {"C": 0, "S": 1, "D": 2, "H": 3, "♣": 0, "♠": 1, "♦": 2, "♥": 3}


class CardError(UserError, ValueError):
    """A card string, hand or card list that the notation does not allow."""


def card_str(card: int) -> str:
    """The RULES.md notation of card index ``card`` (``"JH"``, ``"TC"``, ``"JK"``)."""
    if card == JOKER:
        return "JK"
    if not 0 <= card < JOKER:
        raise CardError(f"no card has index {card}")
    return RANKS[card % N_RANKS] + SUITS[card // N_RANKS]


def parse_card(text: str) -> int:
    """Card index of one card in RULES.md notation (``10`` for T, any case, suit symbols)."""
    c = _BY_NAME.get(text) if type(text) is str else None  # the usual spelling, looked up
    if c is not None:
        return c
    s = text.strip().upper()
    if s == "JK":
        return JOKER
    if s.startswith("10"):
        s = "T" + s[2:]
    if len(s) != 2 or s[0] not in RANKS or s[1] not in _SUIT_ALIASES:
        raise CardError(f"malformed card {text!r} (expected rank 9 T J Q K A and suit C S D H, e.g. 'JH')")
    return _SUIT_ALIASES[s[1]] * N_RANKS + RANKS.index(s[0])


_BY_NAME = {card_str(c): c for c in range(25)}


def card_list(names) -> list[int]:
    """Card indices of a list of card names (``parse_card`` each; the usual spelling quickly)."""
    try:
        return list(map(_BY_NAME.__getitem__, names))
    except (KeyError, TypeError):
        return [parse_card(n) for n in names]


def parse_cards(text: str | list[str], allow_joker: bool = False) -> list[int]:
    """Card indices of a space/comma separated list; duplicates and (unless allowed) the joker are errors."""
    parts = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = [parse_card(p) for p in parts]
    seen = set()
    for p, c in zip(parts, cards):
        if c == JOKER and not allow_joker:
            raise CardError("the joker (JK) is not in this variant's deck")
        if c in seen:
            raise CardError(f"duplicate card {p!r}")
        seen.add(c)
    return cards


def mask_of(cards) -> int:
    """Bit mask of an iterable of card indices."""
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def mask_of_names(names) -> int:
    """The mask of card strings (``["JH", "TC"]``); CardError on a bad one."""
    return mask_of(parse_card(n) for n in names)


def cards_of(mask: int) -> list[int]:
    """Card indices in ``mask``, ascending."""
    mask = int(mask)
    return [c for c in range(N_CARDS) if mask >> c & 1]


def mask_str(mask: int) -> list[str]:
    """Card strings of ``mask`` in ascending card order (suit C S D H, then rank 9..A)."""
    return [card_str(c) for c in cards_of(mask)]
