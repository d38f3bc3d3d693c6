"""Hasenpfeffer replay in plain Python (RULES.md 3): a record's fields checked, the hands at the first lead, the score.

What ``bower.sim.replay`` needs of the variant (``CardPlay``): ``check`` (the
``bid`` in the bidding form in force), ``in_play`` (all four seats),
``held`` (the deal, the bidder's after taking the widow and discarding),
``score`` (exactly as ``kernels/hasenpfeffer/hand.py``), ``renege`` (the
offending side loses 2) and ``game_winner`` (first side to the target;
both on one hand: the bidding side). Points are by side: ``"0"`` seats 0 &
2, ``"1"`` seats 1 & 3. Errors: KeyError names a missing field,
ValueError says which field is wrong.
"""

from __future__ import annotations

from bower.sim.cards import CardError, parse_card

SIDES = ("0", "1")
TRICKS = 6
RENEGE = 2  # points the offending side loses
NUMERIC = ("1", "2", "3", "4", "5", "6")
PEPPER = ("1", "2", "3", "4", "5", "little-pepper", "big-pepper")


def check(rec: dict, rules: dict) -> dict:
    """The record with ``bid`` a string of the bidding in force: ``"1"``.. or ``"little-pepper"``, ``"big-pepper"``."""
    if rec.get("bidder") is None:
        return rec
    bid = rec["bid"]
    allowed = PEPPER if rules["bidding"] == "pepper" else NUMERIC
    key = str(bid).strip().lower() if not isinstance(bid, bool) else ""
    if key not in allowed:
        raise ValueError(f"field 'bid' is {bid!r}, not one of {', '.join(allowed)} (bidding = {rules['bidding']})")
    return dict(rec, bid=key)


def in_play(rec: dict) -> frozenset:
    """Hasenpfeffer: every seat plays (no one goes alone)."""
    return frozenset(range(4))


def _card(value, field: str) -> int:
    try:
        return parse_card(value)
    except (TypeError, AttributeError, CardError):
        raise ValueError(f"field {field!r} is {value!r}, not a card") from None


def held(rec: dict) -> dict[int, list[int]] | None:
    """Seat -> cards at the first lead from ``deal`` (or None): the bidder adds ``widow``, puts down ``discard``."""
    deal = rec.get("deal")
    if deal is None:
        return None
    if not isinstance(deal, dict):
        raise ValueError("field 'deal' is not an object of seat -> cards")
    hands = {}
    for s in range(4):
        cards = deal.get(str(s))
        if not isinstance(cards, (list, tuple)):
            raise ValueError(f"field 'deal' has no hand '{s}'")
        hands[s] = {_card(c, f"deal.{s}") for c in cards}
    bidder, discard = rec["bidder"], rec["discard"]
    if discard is not None:
        widow, down = _card(rec["widow"], "widow"), _card(discard, "discard")
        if down not in hands[bidder] | {widow}:
            raise ValueError(f"field 'discard': the bidder, seat {bidder}, does not hold {discard}")
        hands[bidder] = (hands[bidder] | {widow}) - {down}
    return {s: sorted(c) for s, c in hands.items()}


def _level(bid: str) -> tuple[int, int]:
    """(tricks needed, points at stake: None for a numeric bid)."""
    if bid == "little-pepper":
        return TRICKS, 6
    if bid == "big-pepper":
        return TRICKS, 12
    return int(bid), None


def score(rec: dict, tricks: dict[int, int], rules: dict) -> dict[str, int]:
    """Points by side for a hand played (RULES.md 3): the bidders +1 a trick if made, else -bid; pepper +-6 / +-12.

    ``fail_penalty = undertricks``: a failed numeric bid loses a point per
    trick short; ``defenders_score_tricks``: the defenders +1 a trick.
    """
    bidder = rec.get("bidder")
    if bidder is None:
        return {k: 0 for k in SIDES}
    side = bidder % 2
    taken = tricks.get(side, 0) + tricks.get(side + 2, 0)
    need, stake = _level(rec["bid"])
    if stake is not None:
        bidders = stake if taken >= need else -stake
    elif taken >= need:
        bidders = taken
    elif rules["fail_penalty"] == "undertricks":
        bidders = taken - need
    else:
        bidders = -need
    defenders = TRICKS - taken if rules["defenders_score_tricks"] else 0
    points = {k: 0 for k in SIDES}
    points[SIDES[side]], points[SIDES[1 - side]] = bidders, defenders
    return points


def renege(rec: dict, offender: int, rules: dict) -> dict[str, int]:
    """The renege penalty by side (RULES.md 3): the offending side loses 2; the other gains nothing."""
    out = {k: 0 for k in SIDES}
    out[SIDES[offender % 2]] = -RENEGE
    return out


def game_winner(scores: dict[str, int], points: dict[str, int], rec: dict, rules: dict, target: int, state):
    """(winning side or None, state) after a hand: the side at ``target`` or more; both there: the bidding side."""
    there = [k for k in range(2) if scores[SIDES[k]] >= target]
    if len(there) == 1:
        return there[0], None
    if not there:
        return None, None
    if rec.get("bidder") is not None:
        return rec["bidder"] % 2, None
    a, b = scores["0"], scores["1"]
    return (None if a == b else (0 if a > b else 1)), None
