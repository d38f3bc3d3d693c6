"""Tables of a ``bower simulate`` summary: bids by level and results by position."""

from __future__ import annotations

import pandas as pd

from analysis.intervals import wilson


def bid_table(summary: dict) -> pd.DataFrame:
    """Bids won by level: count, share of played hands, made, make rate with its 95% Wilson interval."""
    rows = [{"bid": level, "count": b["count"], "made": b["made"]} for level, b in summary["bids"].items()]
    df = pd.DataFrame(rows).set_index("bid")
    played = summary["played"]
    df["share"] = df["count"] / played if played else float("nan")
    df["make_rate"] = df["made"] / df["count"].where(df["count"] > 0)
    df["make_low"], df["make_high"] = wilson(df["made"], df["count"])
    return df


def position_table(summary: dict) -> pd.DataFrame:
    """Per position (1 = dealer's left, 3 = dealer): mean points and tricks per hand, makers, swaps."""
    positions = ["1", "2", "3"]
    return pd.DataFrame(
        {
            "points_per_hand": [summary["points_per_hand_by_position"][p] for p in positions],
            "tricks_per_hand": [summary["tricks_per_hand_by_position"][p] for p in positions],
            "makers": [summary["makers_by_position"][p] for p in positions],
            "swaps": [summary["swaps_by_position"][p] for p in positions],
        },
        index=pd.Index([1, 2, 3], name="position"),
    )
