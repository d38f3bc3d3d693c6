"""Hasenpfeffer tables: make rate by contract and by where the joker was dealt, pepper odds, the widow's value.

As for Cutthroat: one row per played hand is decoded (vectorised, from kernel
record rows or from saved record dicts), the tables are group sums with
rates and 95% Wilson intervals, and ``Accumulator`` sums batches so a report
keeps constant memory.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bower.analysis.intervals import wilson
from bower.kernels.hasenpfeffer import hand as hk
from bower.kernels.hasenpfeffer.drivers import estimates
from bower.kernels.tables import SUIT_MASK
from bower.sim.cards import SUITS, mask_of_names, parse_card
from bower.sim.records_vector import popcount
from bower.sim.strategy import to_vector

JOKER_PLACES = ["bidder", "partner", "opponent", "widow"]
WIDOW_KINDS = ["joker", "bower", "trump", "off ace", "other"]
NUMERIC = ["1", "2", "3", "4", "5", "6"]
PEPPER = ["1", "2", "3", "4", "5", "little-pepper", "big-pepper"]


def rows_from_records(records: list[dict]) -> np.ndarray:
    """Saved Hasenpfeffer record dicts back as kernel record rows (the fields the tables read)."""
    out = np.zeros((len(records), hk.R_WIDTH), np.int64)
    for i, r in enumerate(records):
        names = PEPPER if r["rules"]["bidding"] == "pepper" else NUMERIC
        row = out[i]
        row[hk.R_DEALER] = r["dealer"]
        for s in range(4):
            row[hk.R_DEAL + s] = mask_of_names(r["deal"][str(s)])
        row[hk.R_WIDOW] = parse_card(r["widow"])
        row[hk.R_NCALLS] = len(r["calls"])
        for k, (seat, call) in enumerate(r["calls"]):
            row[hk.R_CALLS + 2 * k] = seat
            row[hk.R_CALLS + 2 * k + 1] = 0 if call == "pass" else names.index(call) + 1
        row[hk.R_FORCED] = int(r["forced"])
        row[hk.R_BIDDER] = -1 if r["bidder"] is None else r["bidder"]
        row[hk.R_BID] = 0 if r["bid"] is None else names.index(r["bid"]) + 1
        row[hk.R_TRUMP] = -1 if r["trump"] is None else SUITS.index(r["trump"])
        row[hk.R_DISCARD] = -1 if r["discard"] is None else parse_card(r["discard"])
        for s in range(4):
            row[hk.R_TRICKS + s] = r["tricks"][str(s)]
        row[hk.R_POINTS], row[hk.R_POINTS + 1] = r["points"]["0"], r["points"]["1"]
    return out


def hand_features(rows: np.ndarray, params: dict, pepper: bool) -> pd.DataFrame:
    """One row per played hand: contract, where the joker was, the widow card's kind, estimates, made, points.

    ``est_before`` is the strategy's estimate of the bidder's six dealt cards
    for the trump it named, ``est_after`` that of the six it played with (after
    the widow): ``widow_gain`` is their difference.
    """
    rows = rows[rows[:, hk.R_BIDDER] >= 0]
    n = rows.shape[0]
    idx = np.arange(n)
    bidder = rows[:, hk.R_BIDDER]
    trump = np.ascontiguousarray(rows[:, hk.R_TRUMP])  # as every other caller passes it: one compiled kernel
    level = rows[:, hk.R_BID]
    one = np.int64(1)
    dealt = rows[idx, hk.R_DEAL + bidder]
    partner = rows[idx, hk.R_DEAL + (bidder + 2) % 4]
    widow = rows[:, hk.R_WIDOW]
    discard = rows[:, hk.R_DISCARD]
    after = np.where(discard >= 0, (dealt | (one << widow)) & ~(one << np.maximum(discard, 0)), dealt)
    vec = to_vector(params, "hasenpfeffer")
    est_before = estimates(dealt, trump, vec)
    est_after = estimates(after, trump, vec)
    joker = np.where((dealt >> hk.JOKER) & 1, 0, np.where((partner >> hk.JOKER) & 1, 1, np.where(widow == hk.JOKER, 3, 2)))
    right = trump * 6 + 2
    left = (trump ^ 1) * 6 + 2
    kind = np.where(widow == hk.JOKER, 0, np.where((widow == right) | (widow == left), 1,
                    np.where(widow // 6 == trump, 2, np.where(widow % 6 == 5, 3, 4))))
    side = bidder % 2
    taken = rows[idx, hk.R_TRICKS + side] + rows[idx, hk.R_TRICKS + side + 2]
    need = np.minimum(level, 6)
    names = np.array(PEPPER if pepper else NUMERIC)
    trumps_held = popcount(after & SUIT_MASK[trump, trump])
    return pd.DataFrame({
        "bid": names[level - 1],
        "forced": rows[:, hk.R_FORCED].astype(bool),
        "joker": np.array(JOKER_PLACES)[joker],
        "widow": np.array(WIDOW_KINDS)[kind],
        "exchanged": discard >= 0,
        "trumps": trumps_held,
        "est_before": est_before,
        "est_after": est_after,
        "made": (taken >= need).astype(np.int64),
        "tricks": taken,
        "points": rows[idx, hk.R_POINTS + side],
    })


def cells(features: pd.DataFrame) -> pd.DataFrame:
    """Summed counts of a batch by every feature the tables group on (add batches together)."""
    f = features.assign(hands=1, gain=features["est_after"] - features["est_before"])
    keys = ["bid", "forced", "joker", "widow", "exchanged", "trumps"]
    return f.groupby(keys, observed=True)[["hands", "made", "tricks", "points", "gain"]].sum()


class Accumulator:
    """Running sums of ``cells`` over batches of record rows."""

    def __init__(self, params: dict, pepper: bool):
        self.params, self.pepper = params, pepper
        self.total: pd.DataFrame | None = None

    def add_rows(self, rows: np.ndarray) -> None:
        c = cells(hand_features(rows, self.params, self.pepper))
        self.total = c if self.total is None else self.total.add(c, fill_value=0)

    def frame(self) -> pd.DataFrame:
        if self.total is None:
            return cells(hand_features(np.zeros((0, hk.R_WIDTH), np.int64), self.params, self.pepper)).reset_index()
        return self.total.reset_index()


def _rated(g: pd.DataFrame, order: list[str] | None = None, col: str | None = None) -> pd.DataFrame:
    out = g.reset_index()
    if order is not None and col is not None:
        out[col] = pd.Categorical(out[col], [x for x in order if x in set(out[col])], ordered=True)
        out = out.sort_values(col).reset_index(drop=True)
    out["make_rate"] = out["made"] / out["hands"]
    out["make_low"], out["make_high"] = wilson(out["made"], out["hands"])
    out["points_per_hand"] = out["points"] / out["hands"]
    return out.drop(columns=["points"])


def by_bid(c: pd.DataFrame, pepper: bool) -> pd.DataFrame:
    """Contracts by bid (the forced 3 apart): hands, made, make rate (95%), mean tricks and points of the side."""
    g = c.groupby(["bid", "forced"], observed=True)[["hands", "made", "tricks", "points"]].sum()
    out = _rated(g, PEPPER if pepper else NUMERIC, "bid")
    out["tricks_per_hand"] = out["tricks"] / out["hands"]
    return out.drop(columns=["tricks"])


def by_joker(c: pd.DataFrame, pepper: bool) -> pd.DataFrame:
    """Make rate by bid and where the joker was dealt (bidder, partner, an opponent, the widow)."""
    g = c.groupby(["bid", "joker"], observed=True)[["hands", "made", "points"]].sum().reset_index()
    g["bid"] = pd.Categorical(g["bid"], PEPPER if pepper else NUMERIC, ordered=True)
    g["joker"] = pd.Categorical(g["joker"], JOKER_PLACES, ordered=True)
    return _rated(g.sort_values(["bid", "joker"]).set_index(["bid", "joker"]))


def pepper_odds(c: pd.DataFrame) -> pd.DataFrame:
    """All-six contracts (6, little and big pepper): made by trumps the bidder held after the widow and the joker."""
    six = c[c["bid"].isin(["6", "little-pepper", "big-pepper"])]
    g = six.groupby(["bid", "trumps", "joker"], observed=True)[["hands", "made", "points"]].sum()
    return _rated(g)


def widow_value(c: pd.DataFrame) -> pd.DataFrame:
    """The widow's worth: by the kind of card it was, how much the exchange raised the estimate, and the make rate."""
    g = c[c["exchanged"]].groupby("widow", observed=True)[["hands", "made", "points", "gain"]].sum().reset_index()
    g["widow"] = pd.Categorical(g["widow"], WIDOW_KINDS, ordered=True)
    g = g.sort_values("widow").reset_index(drop=True)
    g["mean_gain"] = g["gain"] / g["hands"]
    out = _rated(g.drop(columns=["gain"]).set_index("widow"))
    return out


def table_set(c: pd.DataFrame, pepper: bool) -> dict[str, pd.DataFrame]:
    """Every Hasenpfeffer table by file stem."""
    return {
        "by_bid": by_bid(c, pepper),
        "by_joker": by_joker(c, pepper),
        "pepper_odds": pepper_odds(c),
        "widow_value": widow_value(c),
    }


def tables_from_records(records: list[dict], params: dict) -> dict[str, pd.DataFrame]:
    """The tables of saved Hasenpfeffer records (estimates by ``params``)."""
    pepper = records[0]["rules"]["bidding"] == "pepper"
    acc = Accumulator(params, pepper)
    acc.add_rows(rows_from_records(records))
    return table_set(acc.frame(), pepper)


# ---------------------------------------------------------------- streaming (bower analyze)


class Stream:
    """``bower analyze``'s Hasenpfeffer tables folded batch by batch (``bower.analysis.stream``): as ``tables_from_records``.

    ``rules``: the first record's (its ``bidding`` names the calls).
    """

    disjoint = ["deal.0", "deal.1", "deal.2", "deal.3", "widow"]

    def __init__(self, params: dict, rules: dict):
        from bower.analysis.stream import Field, Fold

        self.pepper = rules["bidding"] == "pepper"
        names = PEPPER if self.pepper else NUMERIC
        four = ("0", "1", "2", "3")
        self.fields = ([Field(("dealer",), "seat")] + [Field(("deal", k), "cards", size=6, joker=True) for k in four]
                       + [Field(("widow",), "card", joker=True),
                          Field(("calls",), "pairs", size=hk.MAX_CALLS, names=("pass", *names)),
                          Field(("forced",), "bool"), Field(("bidder",), "seat", nullable=True),
                          Field(("bid",), "name", nullable=True, names=tuple(names)),
                          Field(("trump",), "name", nullable=True, names=tuple(SUITS)),
                          Field(("discard",), "card", nullable=True, joker=True)]
                       + [Field(("tricks", k), "int") for k in four] + [Field(("points", k), "int") for k in ("0", "1")])
        self.params = params
        self.fold = Fold()

    def add(self, d: dict, n: int) -> None:
        from bower.analysis.stream import Bad

        bidder = d["bidder"]
        for name in ("bid", "trump"):
            bad = (bidder >= 0) & (d[name] < 0)
            if bad.any():
                raise Bad(int(np.argmax(bad)), name, "is missing (null) for a hand with a bidder")
        rows = np.zeros((n, hk.R_WIDTH), np.int64)
        rows[:, hk.R_DEALER] = d["dealer"]
        for s in range(4):
            rows[:, hk.R_DEAL + s] = d[f"deal.{s}"]
            rows[:, hk.R_TRICKS + s] = d[f"tricks.{s}"]
        rows[:, hk.R_WIDOW] = d["widow"]
        rows[:, hk.R_NCALLS] = d["calls#"]
        rows[:, hk.R_FORCED] = d["forced"]
        rows[:, hk.R_BIDDER] = bidder
        rows[:, hk.R_BID] = np.where(bidder >= 0, d["bid"] + 1, 0)
        rows[:, hk.R_TRUMP] = d["trump"]
        rows[:, hk.R_DISCARD] = d["discard"]
        rows[:, hk.R_POINTS] = d["points.0"]
        rows[:, hk.R_POINTS + 1] = d["points.1"]
        self.fold.add(cells(hand_features(rows, self.params, self.pepper)))

    def result(self) -> tuple[dict, list]:
        empty = cells(hand_features(np.zeros((0, hk.R_WIDTH), np.int64), self.params, self.pepper))
        t = table_set(self.fold.frame(empty), self.pepper)
        return t, list(t)
