"""Hasenpfeffer records: a kernel record row as the record dict, and the Parquet fields of the records."""

from __future__ import annotations

import numpy as np

from kernels.hasenpfeffer import hand as hk
from sim.cards import SUITS
from sim.records import CARD_NAMES, _cards
from sim.rules import RULES_VERSION

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
