"""Ghost Hand records: a kernel record row as the record dict, a batch of rows as columns, and the Parquet fields."""

from __future__ import annotations

import numpy as np

from bower.kernels.ghost import hand as gk
from bower.sim.cards import SUITS
from bower.sim import records as rc
from bower.sim.records import CARD_NAMES, _cards
from bower.sim.rules import RULES_VERSION

SEAT_KEYS = ("0", "1", "2")
CALL_NAMES = {0: "pass", 3: "3", 4: "4", 5: "5", 6: "moon"}


def row_to_dict(row: np.ndarray, hand: int, rules: dict) -> dict:
    """One Ghost Hand kernel record row as the record dict: deal with the ghost, swap, calls, maker, bid, tricks, points."""
    r = row.tolist()
    maker = r[gk.R_MAKER]
    deal = {SEAT_KEYS[s]: _cards(r[gk.R_DEAL + s]) for s in range(gk.N_SEATS)}
    deal["ghost"] = _cards(r[gk.R_DEAL + 3])
    flat = r[gk.R_CALLS: gk.R_CALLS + 2 * r[gk.R_NCALLS]]
    calls = [[flat[i], CALL_NAMES[flat[i + 1]]] for i in range(0, len(flat), 2)]
    flat = r[gk.R_PLAYS: gk.R_PLAYS + 2 * r[gk.R_NPLAYS]]
    plays = [[flat[i], CARD_NAMES[flat[i + 1]]] for i in range(0, len(flat), 2)]
    return {
        "variant": "ghost",
        "rules_version": RULES_VERSION,
        "rules": dict(rules),
        "hand": hand,
        "dealer": r[gk.R_DEALER],
        "deal": deal,
        "swap": r[gk.R_SWAP] if r[gk.R_SWAP] >= 0 else None,
        "calls": calls,
        "maker": maker if maker >= 0 else None,
        "bid": r[gk.R_BID] if maker >= 0 else None,
        "trump": SUITS[r[gk.R_TRUMP]] if maker >= 0 else None,
        "plays": plays,
        "tricks": {SEAT_KEYS[s]: r[gk.R_TRICKS + s] for s in range(gk.N_SEATS)},
        "points": {SEAT_KEYS[s]: r[gk.R_POINTS + s] for s in range(gk.N_SEATS)},
    }



CALL_INDEX = {0: 0, 3: 1, 4: 2, 5: 3, 6: 4}  # call code -> index into CALL_ORDER
CALL_ORDER = ("pass", "3", "4", "5", "moon")


def columns(rows: np.ndarray, first_hand: int, rules: dict) -> list:
    """The record fields of a batch of kernel rows as columns (``bower.sim.records``): the same values as ``row_to_dict``."""
    maker = rows[:, gk.R_MAKER]
    played = maker >= 0
    swap = rows[:, gk.R_SWAP]
    offsets, seats, codes = rc.pair_block(rows, gk.R_CALLS, gk.R_NCALLS, gk.MAX_CALLS)
    calls = rc.Pairs(offsets, seats, gk.N_SEATS, CALL_ORDER, rc.lookup(codes, CALL_INDEX, "call"))
    offsets, seats, cards = rc.pair_block(rows, gk.R_PLAYS, gk.R_NPLAYS, gk.N_PLAYS)
    plays = rc.Pairs(offsets, seats, gk.N_SEATS, CARD_NAMES, cards)
    deal = [(SEAT_KEYS[s], rc.card_lists(rows[:, gk.R_DEAL + s])) for s in range(gk.N_SEATS)]
    deal.append(("ghost", rc.card_lists(rows[:, gk.R_DEAL + 3])))
    return rc.common_columns("ghost", rows, first_hand, rules, gk.R_DEALER) + [
        ("deal", rc.Struct(deal)),
        ("swap", rc.Ints(swap, swap >= 0)),
        ("calls", calls),
        ("maker", rc.Ints(maker, played)),
        ("bid", rc.Ints(rows[:, gk.R_BID], played)),
        ("trump", rc.Tokens(SUITS, np.where(played, rows[:, gk.R_TRUMP], 0), played)),
        ("plays", plays),
        ("tricks", rc.seat_struct(SEAT_KEYS, rows[:, gk.R_TRICKS: gk.R_TRICKS + gk.N_SEATS])),
        ("points", rc.seat_struct(SEAT_KEYS, rows[:, gk.R_POINTS: gk.R_POINTS + gk.N_SEATS])),
    ]


def arrow_fields(rules: dict) -> list:
    """The (name, Arrow type) of the Ghost Hand fields after the common ones."""
    import pyarrow as pa

    seat_ints = pa.struct([(k, pa.int64()) for k in SEAT_KEYS])
    return [
        ("deal", pa.struct([(k, pa.list_(pa.string())) for k in (*SEAT_KEYS, "ghost")])),
        ("swap", pa.int64()),
        ("calls", pa.list_(pa.list_(pa.string()))),
        ("maker", pa.int64()),
        ("bid", pa.int64()),
        ("trump", pa.string()),
        ("plays", pa.list_(pa.list_(pa.string()))),
        ("tricks", seat_ints),
        ("points", seat_ints),
    ]


FIELDS = frozenset({"variant", "dealer", "deal", "swap", "maker", "bid", "trump", "tricks", "points"})


BATCH_BIDS = (3, 4, 5, 6)  # ``bid`` of a hand played, as bower writes it (``scoring.check`` takes these)


def batch_play(b):
    """Ghost Hand's part of ``bower.sim.records_vector.batch_ok``: (seats in play, hands at the first lead as card
    masks by seat, first leader) of each hand played (``b.rows``), or None for anything the column-wise check
    leaves to the record-by-record one.

    A hand played has a bid 3..6 (``scoring.check``); ``swap`` is null or a seat, and that seat holds
    ``deal["ghost"]`` (``scoring.held``); all three seats play; the high bidder leads.
    """
    from bower.sim.records_vector import _np, bits

    rows = b.rows
    bids = _np(b.col("bid"), 0)
    if np.any(b.played & ~np.isin(bids, BATCH_BIDS)):
        return None
    swap_col = b.col("swap")
    swap = _np(swap_col, -1)
    if np.any(~np.asarray(swap_col.is_null().to_numpy(zero_copy_only=False), bool) & ((swap < 0) | (swap > 2))):
        return None
    sw = swap[rows]
    ghost = bits(b.hands["ghost"][rows])  # each hand as a mask once; the seat that swapped holds the ghost's
    held = np.stack([np.where(sw == s, ghost, bits(b.hands[SEAT_KEYS[s]][rows])) for s in range(gk.N_SEATS)], axis=1)
    return np.full(len(rows), 0b111, np.int64), held, b.maker[rows]


# ---- the auction's check (``bower.sim.records_check.auction_verdict``) ---------------------------------

AUCTION_BITS = (2, 2, 3)  # bits of each ``auction_extra`` value plus one (-1 stands for none): swap, maker, bid
_BID_OF = {"3": 3, "4": 4, "5": 5, "moon": 6, 3: 3, 4: 4, 5: 5, 6: 6}


def auction_extra(rec: dict, rules: dict) -> tuple:
    """What the auction's check needs of a record beside its dealer and calls: (the seat that swapped, the maker,
    the bid 3..6), each -1 when not given."""
    swap, maker, bid = rec.get("swap"), rec.get("maker"), rec.get("bid")
    return (-1 if swap is None else int(swap), -1 if maker is None else int(maker),
            _BID_OF.get(bid, -1) if type(bid) in (int, str) else -1)


def batch_auction_extra(b):
    """``auction_extra`` of every record of a ``records_vector.Batch``, as int64 arrays (None: not read here)."""
    from bower.sim.records_vector import _np

    bid = _np(b.col("bid"), -1)
    bid = np.where(b.played & (bid >= BATCH_BIDS[0]) & (bid <= BATCH_BIDS[-1]), bid, -1)  # (bids 3..6)
    return [_np(b.col("swap"), -1), np.where(b.played, b.maker, -1), bid]


def calls_fault(dealer: int, calls: tuple, extra: tuple, rules: dict) -> str | None:
    """What is wrong with a Ghost Hand auction, replayed through the game API
    (``bower.sim.variants.ghost.game``): a call out of turn or after the auction (a seat's second call in one
    lap, a call after a moon), a bid not above the standing one, a stuck dealer's pass, a swap where the seat
    had no turn to make it (or the rules allow none), calls that stop before the auction ends, a maker or bid
    not the calls'."""
    from bower.sim.records_check import replay_auction
    from bower.sim.variants import get_variant
    from bower.sim.variants.ghost import game as gg

    swap, maker, bid = extra
    state = gg.Game(get_variant("ghost"), rules).new_initial_state()
    state.apply_action(dealer)
    for c in range(gg.DECK):
        state.apply_action(c)

    def before(st):  # a seat's swap decision, at its first turn while no one has swapped: as the record says
        if st.phase == gg.SWAP_TURN:
            st.apply_action(gg.SWAP if st.current_player() == swap else gg.KEEP)

    def action(st, name):
        level = _BID_OF.get(name)
        return gg.PASS if name == "pass" else gg._call_action(level) if level is not None else None

    def context(st):
        where = f"over the standing bid {CALL_NAMES[st.standing]}" if st.standing else "with no bid standing"
        return where + (", the dealer stuck (stick_the_dealer)" if st.dealer_stuck() else "")

    bad = replay_auction(state, calls, lambda st: st.phase == gg.AUCTION, action,
                         lambda st, a: gg._CALL_WORD[a], context, before)
    if bad is not None:
        return bad
    if swap >= 0 and state.swapper != swap:
        why = "the rule swap is none" if not state.game.swap else \
            "it had no turn to swap at (a seat swaps at its first turn, before its call, once a deal)"
        return f"field 'swap' is {swap}, but {why}"
    if state.maker != maker:
        return (f"field 'maker' is {'null' if maker < 0 else maker}, but the calls "
                + (f"make seat {state.maker} the maker" if state.maker >= 0 else "throw the hand in"))
    if state.maker >= 0 and state.bid != bid:
        return f"field 'bid' is {CALL_NAMES.get(bid, bid)}, but the calls make the bid {CALL_NAMES[state.bid]}"
    return None
