"""Cutthroat replay in plain Python (RULES.md 2): a record's fields checked, the hands at the first lead, the score.

What ``bower.sim.replay`` needs of the variant (``CardPlay``): ``check`` (the
``alone`` seats), ``in_play`` (a lone defender's partner sits out; the
dummy is not a seat), ``held`` (the deal after the dealer's exchange and
the maker's merge of the dummy), ``score`` (exactly as
``kernels/cutthroat/hand.py``), ``renege`` (the other side scores 2, 4
against a lone hand) and ``game_winner`` (the unique highest score at the
target or more). Errors: KeyError names a missing field, ValueError says
which field is wrong.
"""

from __future__ import annotations

from bower.sim.cards import CardError, card_list, parse_card

SEATS = ("0", "1", "2")
TRICKS = 5
MAKER_NEEDS = 3
RENEGE, LONE_RENEGE = 2, 4


def _seat_list(value, field: str) -> list[int]:
    if not isinstance(value, (list, tuple)) or any(isinstance(s, bool) or s not in (0, 1, 2) for s in value):
        raise ValueError(f"field {field!r} is {value!r}, not a list of seats")
    return sorted({int(s) for s in value})


def check(rec: dict, rules: dict) -> dict:
    """The record with ``alone`` checked: the maker (if ``maker_alone`` allows) and at most one defender."""
    maker = rec.get("maker")
    if maker is None:
        return dict(rec, alone=[])
    alone = _seat_list(rec["alone"], "alone")
    if maker in alone and rules["maker_alone"] == "disabled":
        raise ValueError(f"field 'alone': the maker, seat {maker}, went alone but maker_alone is disabled")
    if len([s for s in alone if s != maker]) > 1:
        raise ValueError(f"field 'alone' is {alone}: only one defender may go alone")
    return dict(rec, alone=alone)


def lone_defender(rec: dict) -> int | None:
    """The defender who went alone, or None."""
    lone = [s for s in rec.get("alone") or [] if s != rec.get("maker")]
    return lone[0] if lone else None


def in_play(rec: dict) -> frozenset:
    """The seats holding cards: all three, less the partner of a lone defender."""
    lone = lone_defender(rec)
    if lone is None:
        return frozenset(range(3))
    return frozenset({rec["maker"], lone})


def _cards(value, field: str) -> list[int]:
    try:
        return card_list(value)
    except (TypeError, AttributeError, CardError):
        raise ValueError(f"field {field!r} is {value!r}, not a list of cards") from None


def _card(value, field: str) -> int:
    try:
        return parse_card(value)
    except (TypeError, AttributeError, CardError):
        raise ValueError(f"field {field!r} is {value!r}, not a card") from None


def held(rec: dict) -> dict[int, list[int]] | None:
    """Seat -> cards at the first lead from ``deal`` (with ``upcard``, ``discards``, ``dummy``); None without a deal.

    The dealer who exchanged (``discards.dealer``) holds the up-card instead;
    a maker who did not go alone adds the ``dummy`` and puts down
    ``discards.maker``.
    """
    deal = rec.get("deal")
    if deal is None:
        return None
    if not isinstance(deal, dict):
        raise ValueError("field 'deal' is not an object of seat -> cards")
    discards = rec["discards"]
    if not isinstance(discards, dict):
        raise ValueError(f"field 'discards' is {discards!r}, not an object with 'dealer' and 'maker'")
    maker, dealer = rec["maker"], rec["dealer"]
    hands = {}
    for s in in_play(rec):
        if deal.get(str(s)) is None:
            raise ValueError(f"field 'deal' has no hand '{s}'")
        hands[s] = set(_cards(deal[str(s)], f"deal.{s}"))

    def swap(seat, gain, lose, field):
        for c in lose:
            if c not in hands[seat] and c not in gain:
                raise ValueError(f"field {field!r}: seat {seat} does not hold the card it put down")
        hands[seat] = (hands[seat] | set(gain)) - set(lose)

    if discards.get("dealer") is not None and dealer in hands:
        swap(dealer, [_card(rec["upcard"], "upcard")], [_card(discards["dealer"], "discards.dealer")],
             "discards.dealer")
    if maker not in rec["alone"]:
        swap(maker, _cards(rec["dummy"], "dummy"), _cards(discards.get("maker") or [], "discards.maker"),
             "discards.maker")
    return {s: sorted(c) for s, c in hands.items()}


def score(rec: dict, tricks: dict[int, int], rules: dict) -> dict[str, int]:
    """Points by seat for a hand played (RULES.md 2): made 1, march 3 (alone: ``lone_maker_march``); euchred 2 each.

    Against a lone defender a euchre gives 2, or 4 when the maker took no
    trick: to each defender, or only the lone one under
    ``lone_defender_points = lone_only``.
    """
    points = {k: 0 for k in SEATS}
    maker = rec.get("maker")
    if maker is None:
        return points
    taken = tricks.get(maker, 0)
    if taken >= MAKER_NEEDS:
        if taken < TRICKS:
            points[SEATS[maker]] = 1
        elif maker in rec["alone"]:
            points[SEATS[maker]] = int(rules["lone_maker_march"])
        else:
            points[SEATS[maker]] = 3
        return points
    lone = lone_defender(rec)
    each = 4 if lone is not None and taken == 0 else 2
    for s in range(3):
        if s != maker and (lone is None or rules["lone_defender_points"] == "both" or s == lone):
            points[SEATS[s]] = each
    return points


def renege(rec: dict, offender: int, rules: dict) -> dict[str, int]:
    """The renege penalty by seat (RULES.md 2): the other side scores 2, 4 when it plays a lone hand.

    A defender reneges: the maker scores 2 (4 alone). The maker reneges:
    each defender scores 2, or 4 against a lone defender (only the lone
    defender under ``lone_defender_points = lone_only``).
    """
    out = {k: 0 for k in SEATS}
    maker = rec["maker"]
    if offender != maker:
        out[SEATS[maker]] = LONE_RENEGE if maker in rec["alone"] else RENEGE
        return out
    lone = lone_defender(rec)
    for s in range(3):
        if s != maker and (lone is None or rules["lone_defender_points"] == "both" or s == lone):
            out[SEATS[s]] = RENEGE if lone is None else LONE_RENEGE
    return out


def game_winner(scores: dict[str, int], points: dict[str, int], rec: dict, rules: dict, target: int, state):
    """(winning seat or None, state) after a hand: the unique highest score at ``target`` or more; a tie plays on."""
    top = max(scores.values())
    leaders = [s for s in range(3) if scores[SEATS[s]] == top]
    if top < target or len(leaders) > 1:
        return None, None
    return leaders[0], None
