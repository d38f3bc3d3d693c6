"""Standard Euchre replay in plain Python (RULES.md 4): fields checked, the hands at the first lead, the score.

What ``bower.sim.replay`` needs of the variant (``CardPlay``): ``check`` (the
``alone`` seats; rules ``farmers`` / ``go_under``'s ``exchange``; rule
``partners_best``'s ``passed`` and ``loner_discard``), ``in_play`` (the
partner of whoever went alone sits out), ``held`` (the deal, the exchanging
seat's after its exchange with the kitty, the dealer's after taking the
up-card, a lone maker's after its exchange),
``score`` (exactly as ``kernels/euchre/hand.py``, ``hand_points``), ``renege`` (the other
side scores 2, 4 against a lone hand), ``game_bonus`` (rule
``four_trick_tokens``: a side's fourth token gives it a point) and
``game_winner`` (first side to the target). Points are by side: ``"0"`` seats 0 & 2, ``"1"`` seats 1 &
3. Errors: KeyError names a missing field, ValueError says which field is
wrong.
"""

from __future__ import annotations

from bower.sim.cards import CardError, parse_card

SIDES = ("0", "1")
TRICKS = 5
MAKERS_NEED = 3
RENEGE, LONE_RENEGE = 2, 4
LONER_MARCH, LONER_EUCHRED = 4, 2  # the defaults of rules loner_march_score and loner_euchred_score


def check(rec: dict, rules: dict) -> dict:
    """The record with ``alone`` checked: the maker and at most one defender (``allow_lone_defender``), the
    dealer's partner who ordered the up-card up among them under ``canadian``; a ``discard`` that is the up-card
    only under ``discard_up``; a ``discard`` not known (``unknown``) only after an order, with the ``deal``
    (which holds it) not known either."""
    _check_unknown(rec)
    discard = rec.get("discard")
    if discard is not None and not rules.get("discard_up") and discard == rec.get("upcard"):
        raise ValueError(f"field 'discard' is the up-card {discard}, which the dealer may not discard (rule "
                         "discard_up is false)")
    _check_exchange(rec, rules)
    maker = rec.get("maker")
    if maker is None:
        return dict(rec, alone=[])
    alone = rec["alone"]
    if not isinstance(alone, (list, tuple)) or any(isinstance(s, bool) or s not in (0, 1, 2, 3) for s in alone):
        raise ValueError(f"field 'alone' is {alone!r}, not a list of seats")
    alone = sorted({int(s) for s in alone})
    if (maker + 2) % 4 in alone:
        raise ValueError(f"field 'alone': seat {(maker + 2) % 4} is the maker's partner and cannot go alone")
    dealer = rec.get("dealer")
    ordered = any(isinstance(c, (list, tuple)) and len(c) == 2 and c[1] == "order" for c in rec.get("calls") or [])
    if rules.get("canadian") and ordered and dealer in (0, 1, 2, 3) and maker == (dealer + 2) % 4 \
            and maker not in alone:
        raise ValueError(f"field 'alone': seat {maker}, the dealer's partner, ordered the up-card up and must play "
                         "alone (rule canadian)")
    defenders = [s for s in alone if s % 2 != maker % 2]
    if defenders and not rules["allow_lone_defender"]:
        raise ValueError(f"field 'alone': seat {defenders[0]} defends alone but allow_lone_defender is false")
    if len(defenders) > 1:
        raise ValueError(f"field 'alone' is {alone}: only one defender may defend alone")
    _check_passed(rec, rules, maker in alone)
    return dict(rec, alone=alone)


EXCHANGE_FIELDS = ("passed", "loner_discard")  # rule partners_best: the lone maker's exchange


def _check_passed(rec: dict, rules: dict, maker_alone: bool) -> None:
    """ValueError unless the exchange fields fit rule ``partners_best``: both given (a card each) exactly when the
    maker went alone under the rule, else null or absent."""
    given = [f for f in EXCHANGE_FIELDS if rec.get(f) is not None]
    if not rules.get("partners_best"):
        if given:
            raise ValueError(f"field {given[0]!r} is {rec[given[0]]!r}: only a lone maker under rule partners_best "
                             "gets its partner's card (rule partners_best is false)")
        return
    if not maker_alone:
        if given:
            raise ValueError(f"field {given[0]!r} is {rec[given[0]]!r} but the maker did not go alone (rule "
                             "partners_best: only a lone maker exchanges)")
        return
    for f in EXCHANGE_FIELDS:
        if rec.get(f) is None:
            raise ValueError(f"field {f!r} is missing: the maker went alone under rule partners_best, so its "
                             "partner passed it a card and it discarded one")
        _card(rec[f], f)


NINES_TENS = (0, 1)  # ranks 9 and 10
FACES = (2, 3, 4)  # ranks J Q K


def exchange_options(cards: list[int], rules: dict) -> set[int]:
    """The cards a seat dealt ``cards`` may give the kitty (rules ``farmers``: its 9s and 10s when it holds three or
    more; ``go_under``: any of them when it holds no jack, queen or king); empty when it may not exchange."""
    out: set[int] = set()
    low = {c for c in cards if c % 6 in NINES_TENS}
    if rules.get("farmers") and len(low) >= 3:
        out |= low
    if rules.get("go_under") and not any(c % 6 in FACES for c in cards):
        out |= set(cards)
    return out


def exchange(rec: dict) -> tuple[int, list[int], list[int]] | None:
    """The record's exchange with the kitty as (seat, cards given, cards taken), or None (no field, or seat -1)."""
    ex = rec.get("exchange")
    if ex is None:
        return None
    if not isinstance(ex, dict) or "seat" not in ex:
        raise ValueError(f"field 'exchange' is {ex!r}, not an object of seat, gave and took")
    seat = ex["seat"]
    if isinstance(seat, bool) or seat not in (-1, 0, 1, 2, 3):
        raise ValueError(f"field 'exchange.seat' is {seat!r}, not a seat (0..3) or -1")
    gave, took = ex.get("gave") or [], ex.get("took") or []
    if seat == -1:
        if gave or took:
            raise ValueError("field 'exchange': no seat (-1) but cards given or taken")
        return None
    if not isinstance(gave, list) or not isinstance(took, list):
        raise ValueError("field 'exchange': 'gave' and 'took' are lists of cards")
    return seat, [_card(c, "exchange.gave") for c in gave], [_card(c, "exchange.took") for c in took]


def _check_exchange(rec: dict, rules: dict) -> None:
    """ValueError when the record's exchange with the kitty breaks rules ``farmers`` / ``go_under``: an exchange
    under neither, a seat not eligible by its dealt cards, three cards given that it did not hold or may not give,
    cards taken that are not the kitty's three face-down cards."""
    ex = exchange(rec)
    if ex is None:
        return
    seat, gave, took = ex
    if not (rules.get("farmers") or rules.get("go_under")):
        raise ValueError(f"field 'exchange': seat {seat} exchanged with the kitty but rules farmers and go_under "
                         "are false")
    if len(set(gave)) != 3 or len(gave) != 3 or len(set(took)) != 3 or len(took) != 3:
        raise ValueError(f"field 'exchange': seat {seat} gives and takes exactly three cards each")
    deal = rec.get("deal")
    if isinstance(deal, dict) and isinstance(deal.get(str(seat)), (list, tuple)):
        cards = [_card(c, f"deal.{seat}") for c in deal[str(seat)]]
        options = exchange_options(cards, rules)
        if not options:
            raise ValueError(f"field 'exchange': seat {seat} may not exchange with the kitty (" + " and ".join(
                what for rule, what in (("farmers", "fewer than three 9s and 10s"), ("go_under", "a face card"))
                if rules.get(rule)) + ")")
        bad = [c for c in gave if c not in options]
        if bad:
            from bower.sim.cards import card_str

            raise ValueError(f"field 'exchange.gave': seat {seat} may not give {card_str(bad[0])} (it may give "
                             f"{' '.join(card_str(c) for c in sorted(options))})")
    kitty = rec.get("kitty")
    if isinstance(kitty, list) and len(kitty) == 4:
        down = {_card(c, "kitty") for c in kitty[1:]}
        if set(took) != down:
            raise ValueError(f"field 'exchange.took' is not the kitty's three face-down cards {kitty[1:]}")


def _check_unknown(rec: dict) -> None:
    """ValueError when the fields a record marks as not known do not fit together (the list itself is checked by
    ``bower.sim.records_check.check_unknown``)."""
    unknown = rec.get("unknown")
    if not isinstance(unknown, list) or "discard" not in unknown:
        return
    calls = rec.get("calls")
    if not (isinstance(calls, list) and any(isinstance(c, (list, tuple)) and len(c) == 2 and c[1] == "order"
                                            for c in calls)):
        raise ValueError("field 'unknown' lists 'discard' but nobody ordered the up-card up (the dealer discards "
                         "only then)")
    if "deal" not in unknown:
        raise ValueError("field 'unknown' lists 'discard' but not 'deal' (the dealer's hand as dealt holds the "
                         "discard)")


def in_play(rec: dict) -> frozenset:
    """The seats holding cards: all four, less the partner of each seat that went alone."""
    out = {(s + 2) % 4 for s in rec.get("alone") or []}
    return frozenset(range(4)) - out


def _card(value, field: str) -> int:
    try:
        return parse_card(value)
    except (TypeError, AttributeError, CardError):
        raise ValueError(f"field {field!r} is {value!r}, not a card") from None


def held(rec: dict) -> dict[int, list[int]] | None:
    """Seat -> cards at the first lead from ``deal`` (or None): the seat in ``exchange`` gives its three for the
    kitty's (rules ``farmers`` / ``go_under``), then the dealer takes ``upcard``, puts down ``discard``; then (rule
    ``partners_best``, ``check``) a lone maker adds ``passed``, one of its partner's cards, and puts down
    ``loner_discard``, one of its six."""
    deal = rec.get("deal")
    if deal is None:
        return None
    if not isinstance(deal, dict):
        raise ValueError("field 'deal' is not an object of seat -> cards")
    hands = {}
    for s in in_play(rec):
        cards = deal.get(str(s))
        if not isinstance(cards, (list, tuple)):
            raise ValueError(f"field 'deal' has no hand '{s}'")
        hands[s] = {_card(c, f"deal.{s}") for c in cards}
    ex = exchange(rec)
    if ex is not None and ex[0] in hands:  # rules farmers / go_under: the exchange with the kitty comes first
        seat, gave, took = ex
        if not set(gave) <= hands[seat]:
            raise ValueError(f"field 'exchange.gave': seat {seat} was not dealt every card it gives")
        hands[seat] = (hands[seat] - set(gave)) | set(took)
    dealer, discard = rec["dealer"], rec["discard"]
    if discard is not None and dealer in hands:
        up, down = _card(rec["upcard"], "upcard"), _card(discard, "discard")
        if down not in hands[dealer] and down != up:  # the up-card itself: rule discard_up (``check``)
            raise ValueError(f"field 'discard': the dealer, seat {dealer}, does not hold {discard}")
        hands[dealer] = (hands[dealer] | {up}) - {down}
    passed = rec.get("passed")
    if passed is not None:
        maker = rec["maker"]
        partner = (maker + 2) % 4
        cards = deal.get(str(partner))
        if not isinstance(cards, (list, tuple)):
            raise ValueError(f"field 'deal' has no hand '{partner}'")
        theirs = {_card(c, f"deal.{partner}") for c in cards}
        if ex is not None and ex[0] == partner and set(ex[1]) <= theirs:  # its exchange with the kitty first
            theirs = (theirs - set(ex[1])) | set(ex[2])
        if discard is not None and dealer == partner:
            theirs = (theirs | {_card(rec["upcard"], "upcard")}) - {_card(discard, "discard")}
        c, d = _card(passed, "passed"), _card(rec["loner_discard"], "loner_discard")
        if c not in theirs:
            raise ValueError(f"field 'passed': the lone maker's partner, seat {partner}, does not hold {passed}")
        if d not in hands[maker] | {c}:
            raise ValueError(f"field 'loner_discard': the lone maker, seat {maker}, holds no {rec['loner_discard']} "
                             "(its five and the card passed)")
        hands[maker] = (hands[maker] | {c}) - {d}
    return {s: sorted(c) for s, c in hands.items()}


def hand_points(taken: int, maker_alone: bool, lone_defender: bool, rules: dict,
                broken: bool = False) -> tuple[int, int]:
    """(makers' points, defenders' points) when the makers took ``taken`` tricks (RULES.md 4): 3-4 tricks 1, all
    5 2, or ``loner_march_score`` (default 4) to a lone maker; euchred: the defenders 2, 4 to a lone defender, or
    ``loner_euchred_score`` (default 2) against a lone maker defended by both. ``broken``: the defenders took
    tricks 1 and 2; under ``fast_break`` the makers' 3 tricks (3, 4 and 5) then score 0 to both sides."""
    if taken >= MAKERS_NEED:
        if taken < TRICKS:
            if broken and taken == MAKERS_NEED and rules.get("fast_break", False):
                return 0, 0
            return 1, 0
        return (int(rules.get("loner_march_score", LONER_MARCH)) if maker_alone else 2), 0
    if lone_defender:
        return 0, 4
    return 0, (int(rules.get("loner_euchred_score", LONER_EUCHRED)) if maker_alone else 2)


def defenders_first_two(maker: int, leaders: list[int]) -> bool:
    """Whether the defenders of ``maker`` took tricks 1 and 2, from the seats that led tricks 2 and 3 (each the
    winner of the trick before; ``leaders`` holds at least those two, else False)."""
    return len(leaders) >= 2 and all(s % 2 != maker % 2 for s in leaders[:2])


def trick_leaders(rec: dict) -> list[int]:
    """The seats leading tricks 2 and 3 in the record's ``plays`` (in turn: each the winner of the trick before),
    as far as the plays go."""
    n = len(in_play(rec))
    plays = rec.get("plays") or []
    return [int(plays[k * n][0]) for k in (1, 2) if k * n < len(plays)]


def score(rec: dict, tricks: dict[int, int], rules: dict) -> dict[str, int]:
    """Points by side for a hand played (``hand_points``: makers 1, march 2, a lone maker's march
    ``loner_march_score``; euchred: defenders 2, a lone defender 4, a lone maker euchred ``loner_euchred_score``;
    a fast break 0 under ``fast_break``, read from the seats leading tricks 2 and 3 in ``plays``)."""
    maker = rec.get("maker")
    if maker is None:
        return {k: 0 for k in SIDES}
    side = maker % 2
    taken = tricks.get(side, 0) + tricks.get(side + 2, 0)
    alone = rec.get("alone") or []
    makers, defenders = hand_points(taken, maker in alone, any(s % 2 != side for s in alone), rules,
                                    defenders_first_two(maker, trick_leaders(rec)))
    points = {k: 0 for k in SIDES}
    points[SIDES[side]], points[SIDES[1 - side]] = makers, defenders
    return points


def renege(rec: dict, offender: int, rules: dict) -> dict[str, int]:
    """The renege penalty by side (RULES.md 4): the other side scores 2, or 4 when it plays a lone hand."""
    other = 1 - offender % 2
    lone = any(s % 2 == other for s in rec.get("alone") or [])
    out = {k: 0 for k in SIDES}
    out[SIDES[other]] = LONE_RENEGE if lone else RENEGE
    return out


TOKENS_TURNED_IN = 4  # four_trick_tokens: a side's tokens are turned in for 1 point when it holds this many


def game_bonus(rec: dict, rules: dict, tokens: dict[str, int] | None) -> tuple[dict[str, int], dict[str, int]]:
    """(extra points by side, tokens by side after the hand) under rule ``four_trick_tokens`` (EGN's), a rule of
    whole games: the makers of a hand played with partner (``maker`` not in ``alone``) who took exactly 4
    ``tricks`` (by seat, keyed ``"0"``..``"3"``) earn a token; at 4 the side turns them in at once for 1 point,
    which counts toward the target like any point. ``tokens``: by side before the hand (None: 0s)."""
    tokens = dict(tokens) if tokens is not None else {k: 0 for k in SIDES}
    extra = {k: 0 for k in SIDES}
    maker = rec.get("maker")
    if not rules.get("four_trick_tokens") or maker is None or maker in (rec.get("alone") or ()):
        return extra, tokens
    tricks = rec.get("tricks") or {}
    if int(tricks.get(str(maker), 0)) + int(tricks.get(str((maker + 2) % 4), 0)) != TRICKS - 1:
        return extra, tokens
    side = SIDES[maker % 2]
    tokens[side] += 1
    if tokens[side] == TOKENS_TURNED_IN:
        tokens[side] = 0
        extra[side] = 1
    return extra, tokens


def game_winner(scores: dict[str, int], points: dict[str, int], rec: dict, rules: dict, target: int, state):
    """(winning side or None, state) after a hand: the side at ``target`` or more.

    Only a renege penalty can bring both sides there on one hand: then the
    higher score wins, and a tie plays on.
    """
    a, b = scores["0"], scores["1"]
    if max(a, b) < target or a == b:
        return None, None
    return (0 if a > b else 1), None
