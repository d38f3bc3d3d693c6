"""Cutthroat records: a kernel record row as the record dict, a batch of rows as columns, and the Parquet fields."""

from __future__ import annotations

import numpy as np

from bower.kernels.cutthroat import hand as ck
from bower.sim.cards import SUITS
from bower.sim import records as rc
from bower.sim.records import CARD_NAMES, _cards
from bower.sim.rules import RULES_VERSION

SEAT_KEYS = ("0", "1", "2")
ACCEPT = {1: "order", 2: "assist", 3: "take"}  # the round-one acceptance by position


def row_to_dict(row: np.ndarray, hand: int, rules: dict) -> dict:
    """One Cutthroat kernel record row as the record dict.

    Beyond the common fields: ``dummy``, ``kitty`` (in deal order),
    ``upcard`` (the kitty's first card), calls written ``order`` / ``assist``
    / ``take`` / a suit letter / ``pass``, ``discards`` (``dealer``: the card
    the dealer exchanged for the up-card or None; ``maker``: the 5 cards the
    maker put down when merging the dummy, [] when alone) and ``alone`` (the
    seats that went alone).
    """
    r = row.tolist()
    maker = r[ck.R_MAKER]
    dealer = r[ck.R_DEALER]
    deal = {SEAT_KEYS[s]: _cards(r[ck.R_DEAL + s]) for s in range(ck.N_SEATS)}
    kitty = [CARD_NAMES[c] for c in r[ck.R_KITTY: ck.R_KITTY + 4]]
    flat = r[ck.R_CALLS: ck.R_CALLS + 2 * r[ck.R_NCALLS]]
    calls = []
    for i in range(0, len(flat), 2):
        seat, code = flat[i], flat[i + 1]
        if code == ck.CALL_PASS:
            name = "pass"
        elif code == ck.CALL_ACCEPT:
            name = ACCEPT[(seat - dealer) % 3 or 3]
        else:
            name = SUITS[code - ck.CALL_SUIT]
        calls.append([seat, name])
    flat = r[ck.R_PLAYS: ck.R_PLAYS + 2 * r[ck.R_NPLAYS]]
    plays = [[flat[i], CARD_NAMES[flat[i + 1]]] for i in range(0, len(flat), 2)]
    discard = r[ck.R_DEALER_DISCARD]
    return {
        "variant": "cutthroat",
        "rules_version": RULES_VERSION,
        "rules": dict(rules),
        "hand": hand,
        "dealer": dealer,
        "deal": deal,
        "dummy": _cards(r[ck.R_DUMMY]),
        "kitty": kitty,
        "upcard": kitty[0],
        "calls": calls,
        "maker": maker if maker >= 0 else None,
        "trump": SUITS[r[ck.R_TRUMP]] if maker >= 0 else None,
        "discards": {"dealer": CARD_NAMES[discard] if discard >= 0 else None, "maker": _cards(r[ck.R_MAKER_DISCARDS])},
        "alone": [s for s in range(ck.N_SEATS) if (r[ck.R_ALONE] >> s) & 1],
        "plays": plays,
        "tricks": {SEAT_KEYS[s]: r[ck.R_TRICKS + s] for s in range(ck.N_SEATS)},
        "points": {SEAT_KEYS[s]: r[ck.R_POINTS + s] for s in range(ck.N_SEATS)},
    }



CALL_NAMES = ("pass", "order", "assist", "take", *SUITS)  # the call names, in the order columns index them


def columns(rows: np.ndarray, first_hand: int, rules: dict) -> list:
    """The record fields of a batch of kernel rows as columns (``bower.sim.records``): the same values as ``row_to_dict``."""
    maker = rows[:, ck.R_MAKER]
    played = maker >= 0
    dealer = rows[:, ck.R_DEALER]
    offsets, seats, codes = rc.pair_block(rows, ck.R_CALLS, ck.R_NCALLS, ck.MAX_CALLS)
    owner_dealer = np.repeat(dealer, np.diff(offsets))
    position = (seats - owner_dealer) % 3
    position = np.where(position == 0, 3, position)  # 1 order, 2 assist, 3 take
    bad = (codes < ck.CALL_PASS) | (codes >= ck.CALL_SUIT + 4)
    if bad.any():
        raise ValueError(f"kernel record holds call code {codes[bad][0]}, which has no name")
    names = np.where(codes == ck.CALL_PASS, 0, np.where(codes == ck.CALL_ACCEPT, position, codes - ck.CALL_SUIT + 4))
    offsets_p, seats_p, cards_p = rc.pair_block(rows, ck.R_PLAYS, ck.R_NPLAYS, ck.MAX_PLAYS)
    kitty = rows[:, ck.R_KITTY: ck.R_KITTY + 4]
    discard = rows[:, ck.R_DEALER_DISCARD]
    return rc.common_columns("cutthroat", rows, first_hand, rules, ck.R_DEALER) + [
        ("deal", rc.Struct([(SEAT_KEYS[s], rc.card_lists(rows[:, ck.R_DEAL + s])) for s in range(ck.N_SEATS)])),
        ("dummy", rc.card_lists(rows[:, ck.R_DUMMY])),
        ("kitty", rc.fixed_lists(kitty, rc.cards)),
        ("upcard", rc.cards(kitty[:, 0])),
        ("calls", rc.Pairs(offsets, seats, ck.N_SEATS, CALL_NAMES, names)),
        ("maker", rc.Ints(maker, played)),
        ("trump", rc.Tokens(SUITS, np.where(played, rows[:, ck.R_TRUMP], 0), played)),
        ("discards", rc.Struct([("dealer", rc.cards(discard, discard >= 0)),
                                ("maker", rc.card_lists(rows[:, ck.R_MAKER_DISCARDS]))])),
        ("alone", rc.seat_lists(rows[:, ck.R_ALONE])),
        ("plays", rc.Pairs(offsets_p, seats_p, ck.N_SEATS, CARD_NAMES, cards_p)),
        ("tricks", rc.seat_struct(SEAT_KEYS, rows[:, ck.R_TRICKS: ck.R_TRICKS + ck.N_SEATS])),
        ("points", rc.seat_struct(SEAT_KEYS, rows[:, ck.R_POINTS: ck.R_POINTS + ck.N_SEATS])),
    ]


def arrow_fields(rules: dict) -> list:
    """The (name, Arrow type) of the Cutthroat fields after the common ones."""
    import pyarrow as pa

    seat_ints = pa.struct([(k, pa.int64()) for k in SEAT_KEYS])
    return [
        ("deal", pa.struct([(k, pa.list_(pa.string())) for k in SEAT_KEYS])),
        ("dummy", pa.list_(pa.string())),
        ("kitty", pa.list_(pa.string())),
        ("upcard", pa.string()),
        ("calls", pa.list_(pa.list_(pa.string()))),
        ("maker", pa.int64()),
        ("trump", pa.string()),
        ("discards", pa.struct([("dealer", pa.string()), ("maker", pa.list_(pa.string()))])),
        ("alone", pa.list_(pa.int64())),
        ("plays", pa.list_(pa.list_(pa.string()))),
        ("tricks", seat_ints),
        ("points", seat_ints),
    ]


FIELDS = frozenset({"variant", "dealer", "deal", "dummy", "kitty", "upcard", "calls", "maker", "trump", "discards",
                    "alone", "tricks", "points"})


def batch_play(b):
    """Cutthroat's part of ``bower.sim.records_vector.batch_ok``: (seats in play, hands at the first lead as card
    masks by seat, first leader) of each hand played (``b.rows``), or None for anything the column-wise check
    leaves to the record-by-record one.

    As ``scoring.check``: ``alone`` seats, the maker only unless ``maker_alone`` is disabled, at most one
    defender. As ``scoring.in_play`` and ``held``: a lone defender's partner sits out; the dealer who exchanged
    holds the up-card instead of ``discards.dealer``; a maker not alone takes the ``dummy`` and puts down
    ``discards.maker``. The first leader as ``first_leader``.
    """
    from bower.sim.records_vector import bits, exchange, first_in_play, popcount, row_bits, seat_mask

    rules, rows = b.fast.rules, b.rows
    alone = seat_mask(b.col("alone"), rows, ck.N_SEATS)
    if alone is None:
        return None
    maker, dealer = b.maker[rows], b.dealer[rows]
    maker_alone = alone >> maker & 1 == 1
    if rules["maker_alone"] == "disabled" and np.any(maker_alone):
        return None
    defenders = alone & ~(np.int64(1) << maker)
    if np.any(popcount(defenders) > 1):  # one defender at most goes alone
        return None
    active = np.where(defenders != 0, np.int64(1) << maker | defenders, 0b111)  # a lone defender's partner sits out
    held = np.stack([bits(b.hands[k][rows]) for k in SEAT_KEYS], axis=1)
    one = np.int64(1)
    discards = b.cards["discards"]
    up, down = b.cards["upcard"][rows], discards["dealer"][rows]
    took = (down >= 0) & (active >> dealer & 1 == 1)  # the dealer, in play, exchanged with the up-card
    if np.any(took & (up < 0)):
        return None
    gain, lose = np.where(took, one << np.maximum(up, 0), 0), np.where(took, one << np.maximum(down, 0), 0)
    if not exchange(held, dealer, gain, lose):  # the dealer does not hold the card it put down
        return None
    gain = np.where(maker_alone, 0, row_bits(b.cards["dummy"])[rows])  # a maker not alone takes the dummy
    lose = np.where(maker_alone, 0, row_bits(discards["maker"])[rows])
    if not exchange(held, maker, gain, lose):
        return None
    lone_def = np.log2(np.maximum(defenders, 1)).astype(np.int64)  # (the defender who went alone, if one did)
    lone = np.where(defenders != 0, lone_def, np.where(maker_alone, maker, dealer))
    leader = first_in_play(lone, active, ck.N_SEATS, maker)  # after the lone player (or the dealer)
    leader = np.where((defenders != 0) & maker_alone, lone_def, leader)  # both alone: the defender leads
    return active, held, leader


# ---- the auction's check (``bower.sim.records_check.auction_verdict``) ---------------------------------

AUCTION_BITS = (3, 2, 3)  # bits of each ``auction_extra`` value plus one (-1 stands for none): up-card suit, maker, trump


auction_extra = rc.upcard_auction_extra  # (the up-card's suit, the maker, the trump)
batch_auction_extra = rc.batch_upcard_auction_extra


def calls_fault(dealer: int, calls: tuple, extra: tuple, rules: dict) -> str | None:
    """What is wrong with a Cutthroat auction, replayed through the game API
    (``bower.sim.variants.cutthroat.game``; ``rc.upcard_calls_fault``): a call out of turn, after the auction, not
    allowed at its turn (an acceptance in round two or by another position's word, the turned-down suit named, a
    stuck dealer's pass), calls that stop before the auction ends, a maker or trump not the calls'."""
    from bower.sim.variants import get_variant
    from bower.sim.variants.cutthroat import game as cg

    def accept_word(st):
        return ACCEPT[(st.current_player() - st.dealer) % cg.PLAYERS or cg.PLAYERS]

    return rc.upcard_calls_fault(cg, get_variant("cutthroat"), dealer, calls, extra, rules, cg.ACCEPT, accept_word)
