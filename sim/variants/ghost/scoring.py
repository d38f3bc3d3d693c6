"""Ghost Hand replay in plain Python (RULES.md 1): a record's fields checked, the hands at the first lead, the score.

What ``bower.sim.replay`` needs of the variant (``CardPlay``): ``check`` (the
``bid``), ``in_play`` (all three seats; the ghost is not a seat), ``held``
(the dealt hands, the swapper's being the ghost), ``score`` (exactly as
``kernels/ghost/hand.py``), ``renege`` (the offender loses 2) and
``game_winner`` (first to the target; a tie at the top plays on, or a
playoff with ``tiebreak = playoff``). Errors: KeyError names a missing
field, ValueError says which field is wrong.
"""

from __future__ import annotations

from bower.sim.cards import CardError, card_list, parse_card

SEATS = ("0", "1", "2")
MOON = 6
RENEGE = 2  # points the offender loses
BIDS = {"3": 3, "4": 4, "5": 5, "moon": 6, "6": 6}


def check(rec: dict, rules: dict) -> dict:
    """The record with ``bid`` as 3..6 (6 = moon; ``"moon"`` and strings accepted) when a hand was played."""
    if rec.get("maker") is None:
        return rec
    bid = rec["bid"]
    key = str(bid).strip().lower() if not isinstance(bid, bool) else ""
    if key not in BIDS:
        raise ValueError(f"field 'bid' is {bid!r}, not 3, 4, 5 or moon")
    return dict(rec, bid=BIDS[key])


def in_play(rec: dict) -> frozenset:
    """Ghost Hand: every player holds cards (the ghost hand is not a seat)."""
    return frozenset(range(3))


def _cards(value, field: str) -> list[int]:
    try:
        return card_list(value)
    except (TypeError, AttributeError, CardError):
        raise ValueError(f"field {field!r} is {value!r}, not a list of cards") from None


def held(rec: dict) -> dict[int, list[int]] | None:
    """Seat -> cards at the first lead from ``deal``, None without one: the seat in ``swap`` holds ``deal["ghost"]``."""
    deal = rec.get("deal")
    if deal is None:
        return None
    if not isinstance(deal, dict):
        raise ValueError("field 'deal' is not an object of seat -> cards")
    swap = rec["swap"]
    if swap is not None and (isinstance(swap, bool) or swap not in (0, 1, 2)):
        raise ValueError(f"field 'swap' is {swap!r}, not a seat or null")
    out = {}
    for s in range(3):
        key = "ghost" if s == swap else str(s)
        if deal.get(key) is None:
            raise ValueError(f"field 'deal' has no hand {key!r}")
        out[s] = _cards(deal[key], f"deal.{key}")
    return out


def score(rec: dict, tricks: dict[int, int], rules: dict) -> dict[str, int]:
    """Points by seat for a hand played (RULES.md 1): +1 a trick; the maker its tricks (moon 24) or -bid if set."""
    maker, bid = rec.get("maker"), rec.get("bid")
    points = {SEATS[s]: tricks.get(s, 0) for s in range(3)}
    if maker is None:
        return {k: 0 for k in SEATS}
    taken = tricks.get(maker, 0)
    if taken >= bid:
        points[SEATS[maker]] = 24 if bid == MOON else taken
    else:
        penalty = int(rules["moon_set_penalty"]) if bid == MOON else bid
        points[SEATS[maker]] = -penalty + (taken if rules["set_keeps_tricks"] else 0)
    return points


def renege(rec: dict, offender: int, rules: dict) -> dict[str, int]:
    """The renege penalty by seat (RULES.md 1): the offender loses 2."""
    out = {k: 0 for k in SEATS}
    out[SEATS[offender]] = -RENEGE
    return out


def game_winner(scores: dict[str, int], points: dict[str, int], rec: dict, rules: dict, target: int, state):
    """(winning seat or None, state) after a hand: the unique highest score at ``target`` or more wins.

    A tie at the top plays on; with ``tiebreak = playoff`` the tied players
    (``state``: their seats) are decided by the next hand's points alone.
    """
    if state:
        best = max(points[SEATS[s]] for s in state)
        tied = [s for s in state if points[SEATS[s]] == best]
        return (tied[0], None) if len(tied) == 1 else (None, tied)
    top = max(scores.values())
    if top < target:
        return None, None
    leaders = [s for s in range(3) if scores[SEATS[s]] == top]
    if len(leaders) == 1:
        return leaders[0], None
    return None, (leaders if rules["tiebreak"] == "playoff" else None)
