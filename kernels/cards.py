"""The card encoding every kernel and the engine share.

A card is an integer 0..24: ``suit * 6 + rank`` with suits ``C S D H`` (0..3)
and ranks ``9 T J Q K A`` (0..5); the joker is 24. A hand is an integer mask
with bit ``card`` set for each card held. Clubs/spades (0, 1) are black,
diamonds/hearts (2, 3) red, so the suit of the same colour is ``suit ^ 1``.
"""

N_SUITS = 4
N_RANKS = 6
JOKER = 24
N_CARDS = 25
DECK24 = (1 << 24) - 1
DECK25 = (1 << 25) - 1
