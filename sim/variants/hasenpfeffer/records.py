"""Hasenpfeffer records: a kernel record row as the record dict, a batch of rows as columns, and the Parquet fields."""

from __future__ import annotations

import numpy as np

from bower.kernels.hasenpfeffer import hand as hk
from bower.sim.cards import SUITS
from bower.sim import records as rc
from bower.sim.records import CARD_NAMES, _cards
from bower.sim.rules import RULES_VERSION

NUMERIC = ("pass", "1", "2", "3", "4", "5", "6")
PEPPER = ("pass", "1", "2", "3", "4", "5", "little-pepper", "big-pepper")


def row_to_dict(row: np.ndarray, hand: int, rules: dict) -> dict:
    """One Hasenpfeffer kernel record row as the record dict.

    ``deal`` has four seats (the joker written ``JK``), ``widow`` the 25th
    card, calls ``"pass"``, ``"1"``..``"6"`` or ``"little-pepper"`` /
    ``"big-pepper"``; ``forced`` is true for the joker holder's forced 3
    (not a call); ``bidder``, ``bid``, ``trump``; ``discard`` the card the
    bidder put down after taking the widow (None when the widow is dead);
    ``tricks`` by seat and ``points`` by side (``"0"``: seats 0 & 2,
    ``"1"``: seats 1 & 3).
    """
    r = row.tolist()
    names = PEPPER if rules["bidding"] == "pepper" else NUMERIC
    bidder = r[hk.R_BIDDER]
    flat = r[hk.R_CALLS: hk.R_CALLS + 2 * r[hk.R_NCALLS]]
    calls = [[flat[i], names[flat[i + 1]]] for i in range(0, len(flat), 2)]
    flat = r[hk.R_PLAYS: hk.R_PLAYS + 2 * r[hk.R_NPLAYS]]
    plays = [[flat[i], CARD_NAMES[flat[i + 1]]] for i in range(0, len(flat), 2)]
    discard = r[hk.R_DISCARD]
    return {
        "variant": "hasenpfeffer",
        "rules_version": RULES_VERSION,
        "rules": dict(rules),
        "hand": hand,
        "dealer": r[hk.R_DEALER],
        "deal": {str(s): _cards(r[hk.R_DEAL + s]) for s in range(hk.N_SEATS)},
        "widow": CARD_NAMES[r[hk.R_WIDOW]],
        "calls": calls,
        "forced": bool(r[hk.R_FORCED]),
        "bidder": bidder if bidder >= 0 else None,
        "bid": names[r[hk.R_BID]] if bidder >= 0 else None,
        "trump": SUITS[r[hk.R_TRUMP]] if bidder >= 0 else None,
        "discard": CARD_NAMES[discard] if discard >= 0 else None,
        "plays": plays,
        "tricks": {str(s): r[hk.R_TRICKS + s] for s in range(hk.N_SEATS)},
        "points": {"0": r[hk.R_POINTS], "1": r[hk.R_POINTS + 1]},
    }



def columns(rows: np.ndarray, first_hand: int, rules: dict) -> list:
    """The record fields of a batch of kernel rows as columns (``bower.sim.records``): the same values as ``row_to_dict``."""
    names = PEPPER if rules["bidding"] == "pepper" else NUMERIC
    bidder = rows[:, hk.R_BIDDER]
    played = bidder >= 0
    offsets, seats, levels = rc.pair_block(rows, hk.R_CALLS, hk.R_NCALLS, hk.MAX_CALLS)
    if ((levels < 0) | (levels >= len(names))).any():
        raise ValueError("kernel record holds a call level that has no name")
    offsets_p, seats_p, cards_p = rc.pair_block(rows, hk.R_PLAYS, hk.R_NPLAYS, hk.N_PLAYS)
    discard = rows[:, hk.R_DISCARD]
    four = tuple(str(s) for s in range(hk.N_SEATS))
    return rc.common_columns("hasenpfeffer", rows, first_hand, rules, hk.R_DEALER) + [
        ("deal", rc.Struct([(four[s], rc.card_lists(rows[:, hk.R_DEAL + s])) for s in range(hk.N_SEATS)])),
        ("widow", rc.cards(rows[:, hk.R_WIDOW])),
        ("calls", rc.Pairs(offsets, seats, hk.N_SEATS, names, levels)),
        ("forced", rc.Bools(rows[:, hk.R_FORCED] != 0)),
        ("bidder", rc.Ints(bidder, played)),
        ("bid", rc.Tokens(names, np.where(played, rows[:, hk.R_BID], 0), played)),
        ("trump", rc.Tokens(SUITS, np.where(played, rows[:, hk.R_TRUMP], 0), played)),
        ("discard", rc.cards(discard, discard >= 0)),
        ("plays", rc.Pairs(offsets_p, seats_p, hk.N_SEATS, CARD_NAMES, cards_p)),
        ("tricks", rc.seat_struct(four, rows[:, hk.R_TRICKS: hk.R_TRICKS + hk.N_SEATS])),
        ("points", rc.seat_struct(("0", "1"), rows[:, hk.R_POINTS: hk.R_POINTS + 2])),
    ]


def arrow_fields(rules: dict) -> list:
    """The (name, Arrow type) of the Hasenpfeffer fields after the common ones."""
    import pyarrow as pa

    four = ("0", "1", "2", "3")
    return [
        ("deal", pa.struct([(k, pa.list_(pa.string())) for k in four])),
        ("widow", pa.string()),
        ("calls", pa.list_(pa.list_(pa.string()))),
        ("forced", pa.bool_()),
        ("bidder", pa.int64()),
        ("bid", pa.string()),
        ("trump", pa.string()),
        ("discard", pa.string()),
        ("plays", pa.list_(pa.list_(pa.string()))),
        ("tricks", pa.struct([(k, pa.int64()) for k in four])),
        ("points", pa.struct([(k, pa.int64()) for k in ("0", "1")])),
    ]


FIELDS = frozenset({"variant", "dealer", "deal", "widow", "calls", "forced", "bidder", "bid", "trump", "discard",
                    "tricks", "points"})


def batch_play(b):
    """Hasenpfeffer's part of ``bower.sim.records_vector.batch_ok``: (seats in play, hands at the first lead as card
    masks by seat, first leader) of each hand played (``b.rows``), or None for anything the column-wise check
    leaves to the record-by-record one.

    As ``scoring.check``: a hand played has a bid of the bidding in force, written as bower writes it. As
    ``scoring.held``: every seat plays; a bidder who put down a ``discard`` took the ``widow``. The first leader
    as ``first_leader``: the dealer's left, or the bidder under ``first_lead = bidder``.
    """
    from bower.sim.records_vector import _codes, bits
    from bower.sim.variants.hasenpfeffer import scoring

    rules, rows = b.fast.rules, b.rows
    allowed = scoring.PEPPER if rules["bidding"] == "pepper" else scoring.NUMERIC
    bid = _codes(b.col("bid").take(rows), allowed) if len(rows) else np.zeros(0, np.int16)
    if bid is None or np.any(bid < 0):
        return None
    maker, dealer = b.maker[rows], b.dealer[rows]
    held = np.stack([bits(b.hands[str(s)][rows]) for s in range(hk.N_SEATS)], axis=1)
    widow, down = b.cards["widow"][rows], b.cards["discard"][rows]
    took = down >= 0  # the bidder took the widow and put a card down
    if np.any(took & (widow < 0)):
        return None
    one = np.int64(1)
    gain, lose = np.where(took, one << np.maximum(widow, 0), 0), np.where(took, one << np.maximum(down, 0), 0)
    at = np.arange(len(rows))
    hand = held[at, maker]
    if np.any(lose & ~(hand | gain)):  # the bidder does not hold its discard
        return None
    held[at, maker] = (hand | gain) & ~lose
    leader = maker.copy() if rules.get("first_lead") == "bidder" else (dealer + 1) % 4
    return np.full(len(rows), 0b1111, np.int64), held, leader


# ---- the auction's check (``bower.sim.records_check.auction_verdict``) ---------------------------------

AUCTION_BITS = (3, 3, 4, 2)  # bits of each ``auction_extra`` value plus one (-1 stands for none): joker's holder
# (4: the widow), bidder, bid level, forced


def auction_extra(rec: dict, rules: dict) -> tuple:
    """What the auction's check needs of a record beside its dealer and calls: (the seat dealt the joker, 4 when it
    is the widow, the bidder, the bid's level (1..7), whether the bid was forced (0 or 1)), each -1 when not
    given."""
    deal, widow = rec.get("deal"), rec.get("widow")
    holder = 4 if widow == "JK" else -1
    if holder < 0 and type(deal) is dict:
        holder = next((int(s) for s, cards in deal.items() if type(cards) is list and "JK" in cards), -1)
    bidder, bid, forced = rec.get("bidder"), rec.get("bid"), rec.get("forced")
    names = PEPPER if rules["bidding"] == "pepper" else NUMERIC
    return (holder, -1 if bidder is None else int(bidder), names.index(bid) if bid in names[1:] else -1,
            -1 if type(forced) is not bool else int(forced))


def batch_auction_extra(b):
    """``auction_extra`` of every record of a ``records_vector.Batch``, as int64 arrays (None: not read here)."""
    from bower.sim.records_vector import token_codes

    names = PEPPER if b.fast.rules["bidding"] == "pepper" else NUMERIC
    bid = token_codes(b.col("bid"), names)
    forced = b.col("forced")
    if bid is None or forced.null_count:
        return None
    holder = np.where(b.cards["widow"] == 24, 4, -1)
    for s in range(hk.N_SEATS):
        holder = np.where((b.hands[str(s)] == 24).any(axis=1), s, holder)
    return [holder, np.where(b.played, b.maker, -1), np.where(bid > 0, bid, -1),
            np.asarray(forced.to_numpy(zero_copy_only=False), np.int64)]


def calls_fault(dealer: int, calls: tuple, extra: tuple, rules: dict) -> str | None:
    """What is wrong with a Hasenpfeffer auction, replayed through the game API
    (``bower.sim.variants.hasenpfeffer.game``): a call out of turn (a seat asked again after its final pass) or
    after the auction, a bid not above the standing one or of another bidding, calls that stop before the
    auction ends, a bidder, bid or forced bid not the calls' (the joker's holder bids 3 when all pass)."""
    from bower.sim.records_check import replay_auction
    from bower.sim.variants import get_variant
    from bower.sim.variants.hasenpfeffer import game as hg

    holder, bidder, bid, forced = extra
    state = hg.Game(get_variant("hasenpfeffer"), rules).new_initial_state()
    state.apply_action(dealer)
    names = state.game.call_names
    at = 24 if holder in (4, -1) else next(k for k in range(24) if (dealer + 1 + (k // 3) % 4) % 4 == holder)
    others = list(range(24))
    for c in others[:at] + [24] + others[at:]:
        state.apply_action(c)

    def action(st, name):
        if name not in names:
            return None
        level = names.index(name)
        return hg.PASS if level == 0 else hg.BID + level - 1

    def word(st, a):
        return "pass" if a == hg.PASS else names[a - hg.BID + 1]

    def context(st):
        return f"over the standing bid {names[st.high]}" if st.high else "with no bid standing"

    bad = replay_auction(state, calls, lambda st: st.phase == hg.AUCTION, action, word, context)
    if bad is not None:
        return bad
    if holder < 0 and not state.high:
        return None  # all passed, the joker's holder not given: the forced bid cannot be followed
    made = state.bidder if state.level else -1
    if made != bidder:
        return (f"field 'bidder' is {'null' if bidder < 0 else bidder}, but the calls "
                + (f"make seat {made} the bidder" if made >= 0 else "throw the hand in"))
    if made >= 0 and state.level != bid:
        return f"field 'bid' is {names[bid] if bid > 0 else 'null'}, but the calls make the bid {names[state.level]}"
    if made >= 0 and forced >= 0 and bool(forced) != state.forced:
        return f"field 'forced' is {'true' if forced else 'false'}, but the calls make it {str(state.forced).lower()}"
    return None
