"""Standard Euchre records: a kernel record row as the record dict (``kernels/euchre/SPEC.md``, "Records"), and its Parquet fields.

``ARROW_FIELDS`` (built on first use, so importing this module does not load
pyarrow) lists the (name, Arrow type) of every record field; ``arrow_fields``
those after the common ones (as the other variants). Nested dicts are
structs; ``calls`` and ``plays`` are lists of ``[seat, value]`` string pairs,
as the engine's Parquet writer and reader (``bower.sim.records``) store them for
every variant (a Parquet list holds one type).
"""

from __future__ import annotations

import numpy as np

from bower.kernels.euchre import hand as ek
from bower.sim.cards import SUITS
from bower.sim import records as rc
from bower.sim.records import CARD_NAMES, _cards
from bower.sim.rules import RULES_VERSION

VARIANT = "euchre"
SEAT_KEYS = ("0", "1", "2", "3")
SIDE_KEYS = ("0", "1")

FIELDS = frozenset({"variant", "dealer", "deal", "kitty", "upcard", "calls", "discard", "alone", "maker", "trump",
                    "plays", "tricks", "points"})


def _call_name(code: int) -> str:
    if code == ek.CALL_PASS:
        return "pass"
    if code == ek.CALL_ORDER:
        return "order"
    return SUITS[code - ek.CALL_SUIT]


def row_to_dict(row: np.ndarray, hand: int, rules: dict) -> dict:
    """One Euchre kernel record row as the record dict.

    Beyond the common fields: ``deal`` (seat string -> the five cards dealt,
    ascending), ``kitty`` (its 4 cards in deal order), ``upcard`` (the
    kitty's first), ``calls`` (``[seat, "pass" | "order" | suit letter]``),
    ``discard`` (the dealer's, after an order; else None), ``alone`` (the
    seats that went alone, ascending), ``maker`` and ``trump`` (None when
    thrown in), ``plays`` (``[seat, card]``), ``tricks`` by seat and
    ``points`` by side (``"0"``: seats 0 & 2, ``"1"``: seats 1 & 3). Under
    rule ``farmers`` or ``go_under`` also ``exchange`` (``exchange_of``; the
    field is absent under the other rules, whose records stay as they were);
    under rule ``partners_best`` also ``passed`` and ``loner_discard`` (the
    card the lone maker's partner passed it and the maker's discard; None
    when no maker went alone).
    """
    r = row.tolist()
    maker = r[ek.R_MAKER]
    kitty = [CARD_NAMES[c] for c in r[ek.R_KITTY: ek.R_KITTY + 4]]
    flat = r[ek.R_CALLS: ek.R_CALLS + 2 * r[ek.R_NCALLS]]
    calls = [[flat[i], _call_name(flat[i + 1])] for i in range(0, len(flat), 2)]
    flat = r[ek.R_PLAYS: ek.R_PLAYS + 2 * r[ek.R_NPLAYS]]
    plays = [[flat[i], CARD_NAMES[flat[i + 1]]] for i in range(0, len(flat), 2)]
    discard = r[ek.R_DISCARD]
    d = {
        "variant": VARIANT,
        "rules_version": RULES_VERSION,
        "rules": dict(rules),
        "hand": hand,
        "dealer": r[ek.R_DEALER],
        "deal": {SEAT_KEYS[s]: _cards(r[ek.R_DEAL + s]) for s in range(ek.N_SEATS)},
        "kitty": kitty,
        "upcard": kitty[0],
        "calls": calls,
        "discard": CARD_NAMES[discard] if discard >= 0 else None,
        "alone": [s for s in range(ek.N_SEATS) if (r[ek.R_ALONE] >> s) & 1],
        "maker": maker if maker >= 0 else None,
        "trump": SUITS[r[ek.R_TRUMP]] if maker >= 0 else None,
        "plays": plays,
        "tricks": {SEAT_KEYS[s]: r[ek.R_TRICKS + s] for s in range(ek.N_SEATS)},
        "points": {SIDE_KEYS[k]: r[ek.R_POINTS + k] for k in range(2)},
    }
    if exchanges(rules):
        d["exchange"] = exchange_of(r, kitty)
    if rules.get("partners_best"):
        passed, loner_discard = r[ek.R_PASSED], r[ek.R_LONER_DISCARD]
        d["passed"] = CARD_NAMES[passed] if passed >= 0 else None
        d["loner_discard"] = CARD_NAMES[loner_discard] if loner_discard >= 0 else None
    return d


def exchanges(rules: dict | None) -> bool:
    """Whether records under ``rules`` carry the field ``exchange`` (rule ``farmers`` or ``go_under`` on)."""
    return bool(rules) and bool(rules.get("farmers") or rules.get("go_under"))


def exchange_of(r, kitty: list) -> dict:
    """The record's ``exchange`` from a kernel row (a list): ``{"seat", "gave", "took"}``, the seat that exchanged
    with the kitty before the first call, the three cards it gave and the kitty's three face-down cards it took
    (each ascending); ``{"seat": -1, "gave": [], "took": []}`` when no seat did."""
    if r[ek.R_GIVEN] == 0:
        return {"seat": -1, "gave": [], "took": []}
    return {"seat": r[ek.R_EXCHANGE], "gave": _cards(r[ek.R_GIVEN]), "took": _cards(_took_mask(r))}


def _took_mask(r) -> int:
    return (1 << r[ek.R_KITTY + 1]) | (1 << r[ek.R_KITTY + 2]) | (1 << r[ek.R_KITTY + 3])



CALL_NAMES = ("pass", "order", *SUITS)  # the call names, in the order columns index them


def columns(rows: np.ndarray, first_hand: int, rules: dict) -> list:
    """The record fields of a batch of kernel rows as columns (``bower.sim.records``): the same values as ``row_to_dict``."""
    maker = rows[:, ek.R_MAKER]
    played = maker >= 0
    offsets, seats, codes = rc.pair_block(rows, ek.R_CALLS, ek.R_NCALLS, ek.MAX_CALLS)
    if ((codes < ek.CALL_PASS) | (codes >= ek.CALL_SUIT + 4)).any():
        raise ValueError("kernel record holds a call code that has no name")
    names = np.where(codes == ek.CALL_PASS, 0, np.where(codes == ek.CALL_ORDER, 1, codes - ek.CALL_SUIT + 2))
    offsets_p, seats_p, cards_p = rc.pair_block(rows, ek.R_PLAYS, ek.R_NPLAYS, ek.MAX_PLAYS)
    kitty = rows[:, ek.R_KITTY: ek.R_KITTY + 4]
    discard = rows[:, ek.R_DISCARD]
    return rc.common_columns(VARIANT, rows, first_hand, rules, ek.R_DEALER) + _exchange_last(rules, rows, [
        ("deal", rc.Struct([(SEAT_KEYS[s], rc.card_lists(rows[:, ek.R_DEAL + s])) for s in range(ek.N_SEATS)])),
        ("kitty", rc.fixed_lists(kitty, rc.cards)),
        ("upcard", rc.cards(kitty[:, 0])),
        ("calls", rc.Pairs(offsets, seats, ek.N_SEATS, CALL_NAMES, names)),
        ("discard", rc.cards(discard, discard >= 0)),
        ("alone", rc.seat_lists(rows[:, ek.R_ALONE])),
        ("maker", rc.Ints(maker, played)),
        ("trump", rc.Tokens(SUITS, np.where(played, rows[:, ek.R_TRUMP], 0), played)),
        ("plays", rc.Pairs(offsets_p, seats_p, ek.N_SEATS, CARD_NAMES, cards_p)),
        ("tricks", rc.seat_struct(SEAT_KEYS, rows[:, ek.R_TRICKS: ek.R_TRICKS + ek.N_SEATS])),
        ("points", rc.seat_struct(SIDE_KEYS, rows[:, ek.R_POINTS: ek.R_POINTS + 2])),
    ] + (_exchange_columns(rows) if exchanges(rules) else []))


def took_masks(rows: np.ndarray) -> np.ndarray:
    """For each kernel row, the mask of the kitty's three face-down cards: what a seat exchanging with the kitty
    (rules ``farmers`` / ``go_under``) took."""
    one = np.int64(1)
    return (one << rows[:, ek.R_KITTY + 1]) | (one << rows[:, ek.R_KITTY + 2]) | (one << rows[:, ek.R_KITTY + 3])


def _exchange_columns(rows: np.ndarray) -> list:
    """The ``exchange`` column (rules ``farmers`` / ``go_under``): as ``exchange_of``."""
    given = rows[:, ek.R_GIVEN]
    done = given != 0
    took = np.where(done, took_masks(rows), 0)
    return [("exchange", rc.Struct([("seat", rc.Ints(np.where(done, rows[:, ek.R_EXCHANGE], -1))),
                                    ("gave", rc.card_lists(given)), ("took", rc.card_lists(took))]))]


def _exchange_last(rules: dict | None, rows, cols: list) -> list:
    """``cols`` and, under rule ``partners_best``, the lone maker's exchange: ``passed`` and ``loner_discard``
    (``rows`` None: their Arrow types)."""
    if not (rules or {}).get("partners_best"):
        return cols
    if rows is None:
        import pyarrow as pa

        return cols + [("passed", pa.string()), ("loner_discard", pa.string())]
    passed, loner_discard = rows[:, ek.R_PASSED], rows[:, ek.R_LONER_DISCARD]
    return cols + [("passed", rc.cards(passed, passed >= 0)), ("loner_discard", rc.cards(loner_discard,
                                                                                         loner_discard >= 0))]


def _rules_struct(rules: dict | None):
    import pyarrow as pa

    from bower.kernels.euchre.codes import OPTIONS
    from bower.sim.records import rule_type

    values = {o[0]: o[1][0] for o in OPTIONS}
    names = list(values) if rules is None else list(rules)
    return pa.struct([(k, rule_type(values.get(k, False))) for k in names])  # (the points options: int64)


def arrow_fields(rules: dict | None = None) -> list:
    """The (name, Arrow type) of the Euchre fields after the common ones (``deal`` .. ``points``; ``exchange``
    under rule ``farmers`` or ``go_under``; then under rule ``partners_best`` ``passed`` and ``loner_discard``)."""
    import pyarrow as pa

    return _exchange_last(rules, None, [
        ("deal", pa.struct([(k, pa.list_(pa.string())) for k in SEAT_KEYS])),
        ("kitty", pa.list_(pa.string())),
        ("upcard", pa.string()),
        ("calls", pa.list_(pa.list_(pa.string()))),
        ("discard", pa.string()),
        ("alone", pa.list_(pa.int64())),
        ("maker", pa.int64()),
        ("trump", pa.string()),
        ("plays", pa.list_(pa.list_(pa.string()))),
        ("tricks", pa.struct([(k, pa.int64()) for k in SEAT_KEYS])),
        ("points", pa.struct([(k, pa.int64()) for k in SIDE_KEYS])),
    ] + ([("exchange", pa.struct([("seat", pa.int64()), ("gave", pa.list_(pa.string())),
                                  ("took", pa.list_(pa.string()))]))] if exchanges(rules) else []))


def all_arrow_fields(rules: dict | None = None) -> list:
    """The (name, Arrow type) of every field of a Euchre record, the common ones first."""
    import pyarrow as pa

    return [
        ("variant", pa.string()),
        ("rules_version", pa.string()),
        ("rules", _rules_struct(rules)),
        ("hand", pa.int64()),
        ("dealer", pa.int64()),
    ] + arrow_fields(rules)


def __getattr__(name: str):
    if name == "ARROW_FIELDS":
        return all_arrow_fields()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def batch_play(b):
    """Euchre's part of ``bower.sim.records_vector.batch_ok``: (seats in play, hands at the first lead as card masks
    by seat, first leader) of each hand played (``b.rows``), or None for anything the column-wise check leaves to
    the record-by-record one.

    As ``scoring.check``: a discard that is the up-card only under ``discard_up``; ``alone`` seats, not the
    maker's partner, at most one defender (and only under ``allow_lone_defender``), the dealer's partner who
    ordered up alone under ``canadian``. As ``scoring.in_play`` and ``held``: each lone player's partner sits out;
    the dealer who took the up-card holds it and not the discard. The first leader as ``first_leader``.
    """
    from bower.sim.records_vector import bits, exchange, first_in_play, popcount, seat_mask

    rules, rows = b.fast.rules, b.rows
    if rules.get("partners_best") or exchanges(rules):  # an exchange: the record-by-record check (``scoring.held``)
        return None
    upcard, discard = b.cards["upcard"], b.cards["discard"]
    if not rules.get("discard_up") and np.any((discard >= 0) & (discard == upcard)):
        return None
    alone = seat_mask(b.col("alone"), rows, ek.N_SEATS)
    if alone is None:
        return None
    maker, dealer = b.maker[rows], b.dealer[rows]
    if np.any(alone >> ((maker + 2) % 4) & 1):  # the maker's partner cannot go alone
        return None
    if rules.get("canadian"):
        calls = b.pairs("calls", CALL_NAMES)
        if calls is None:
            return None
        lengths, _, values = calls
        ordered = np.zeros(len(lengths), bool)
        ordered[np.repeat(np.arange(len(lengths)), lengths)[values == CALL_NAMES.index("order")]] = True
        if np.any(ordered[rows] & (maker == (dealer + 2) % 4) & (alone >> maker & 1 == 0)):
            return None
    defenders = alone & np.where(maker % 2 == 0, 0b1010, 0b0101)
    if np.any(defenders) and not rules["allow_lone_defender"] or np.any(popcount(defenders) > 1):
        return None
    active = 0b1111 & ~((alone << 2 | alone >> 2) & 0b1111)  # each lone player's partner sits out
    held = np.stack([bits(b.hands[k][rows]) for k in SEAT_KEYS], axis=1)
    up, down = upcard[rows], discard[rows]
    took = (down >= 0) & (active >> dealer & 1 == 1)  # the dealer, in play, took the up-card and put one down
    if np.any(took & (up < 0)):
        return None
    one = np.int64(1)
    up_bit = np.where(took, one << np.maximum(up, 0), 0)
    down_bit = np.where(took, one << np.maximum(down, 0), 0)
    if not exchange(held, dealer, up_bit, down_bit):  # the dealer holds neither its discard nor the up-card
        return None
    start = np.where((rules.get("loner_lead") == "loner") & (alone >> maker & 1 == 1), maker, dealer)
    return active, held, first_in_play(start, active, ek.N_SEATS, maker)


# ---- the auction's check (``bower.sim.records_check.auction_verdict``) ---------------------------------

AUCTION_BITS = (3, 3, 3)  # bits of each ``auction_extra`` value plus one (-1 stands for none): up-card suit, maker, trump


auction_extra = rc.upcard_auction_extra  # (the up-card's suit, the maker, the trump)
batch_auction_extra = rc.batch_upcard_auction_extra


def calls_fault(dealer: int, calls: tuple, extra: tuple, rules: dict) -> str | None:
    """What is wrong with a Euchre auction, replayed through the game API (``bower.sim.variants.euchre.game``;
    ``rc.upcard_calls_fault``): a call out of turn, after the auction, not allowed at its turn (``order`` in round
    two, the up-card's suit named, a stuck dealer's pass), calls that stop before the auction ends, a maker or
    trump not the calls'."""
    from bower.sim.variants import get_variant
    from bower.sim.variants.euchre import game as eg

    return rc.upcard_calls_fault(eg, get_variant(VARIANT), dealer, calls, extra, rules, eg.ORDER, lambda st: "order")
