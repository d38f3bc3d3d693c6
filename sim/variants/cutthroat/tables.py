"""Cutthroat tables: order-up success by position and up-card, the value of the dummy, lone-hand odds.

One row per played hand is decoded (vectorised, from kernel record rows or
from saved record dicts) into a frame of features; the tables are group
sums of that frame with rates and 95% Wilson intervals. ``Accumulator``
sums batches of hands so a report over any number of hands keeps constant
memory.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bower.analysis.intervals import wilson
from bower.kernels.cutthroat import hand as ck
from bower.kernels.cutthroat.strategy import estimates
from bower.sim.cards import SUITS, mask_of_names, parse_card
from bower.sim.strategy import to_vector

UP_RANKS = ["9", "T", "J", "Q", "K", "A"]
EST_STEP = 0.5  # width of the trick-estimate buckets
COUNTS = ["hands", "made", "marches", "points", "gain"]


def rows_from_records(records: list[dict]) -> np.ndarray:
    """Saved Cutthroat record dicts back as kernel record rows (the fields the tables read)."""
    out = np.zeros((len(records), ck.R_WIDTH), np.int64)
    codes = {"pass": ck.CALL_PASS, "order": ck.CALL_ACCEPT, "assist": ck.CALL_ACCEPT, "take": ck.CALL_ACCEPT}
    codes.update({s: ck.CALL_SUIT + i for i, s in enumerate(SUITS)})
    for i, r in enumerate(records):
        row = out[i]
        row[ck.R_DEALER] = r["dealer"]
        for s in range(3):
            row[ck.R_DEAL + s] = mask_of_names(r["deal"][str(s)])
        row[ck.R_DUMMY] = mask_of_names(r["dummy"])
        for k, c in enumerate(r["kitty"]):
            row[ck.R_KITTY + k] = parse_card(c)
        row[ck.R_NCALLS] = len(r["calls"])
        for k, (seat, call) in enumerate(r["calls"]):
            row[ck.R_CALLS + 2 * k] = seat
            row[ck.R_CALLS + 2 * k + 1] = codes[call]
        row[ck.R_MAKER] = -1 if r["maker"] is None else r["maker"]
        row[ck.R_TRUMP] = -1 if r["trump"] is None else SUITS.index(r["trump"])
        d = r["discards"]["dealer"]
        row[ck.R_DEALER_DISCARD] = -1 if d is None else parse_card(d)
        row[ck.R_MAKER_DISCARDS] = mask_of_names(r["discards"]["maker"])
        row[ck.R_ALONE] = sum(1 << s for s in r["alone"])
        for s in range(3):
            row[ck.R_TRICKS + s] = r["tricks"][str(s)]
            row[ck.R_POINTS + s] = r["points"][str(s)]
    return out


def _after_exchange(rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """The hands of ``seats`` (one per row) after the dealer's exchange of the up-card, if they dealt and took it."""
    hand = rows[np.arange(rows.shape[0]), ck.R_DEAL + seats]
    discard = rows[:, ck.R_DEALER_DISCARD]
    exchanged = (seats == rows[:, ck.R_DEALER]) & (discard >= 0)
    one = np.int64(1)
    return np.where(exchanged, (hand & ~(one << np.maximum(discard, 0))) | (one << rows[:, ck.R_KITTY]), hand)


def hand_features(rows: np.ndarray, params: dict) -> pd.DataFrame:
    """One row per played hand: position, round, up-card rank, alone flags, estimates, made, march, points.

    ``est_hand`` is the strategy's trick estimate of the maker's own five
    cards after any exchange (what it decided on), ``est_kept`` that of the
    five it played (after the merge; the same when alone), ``gain`` their
    difference: what the dummy added.
    """
    rows = rows[rows[:, ck.R_MAKER] >= 0]
    n = rows.shape[0]
    idx = np.arange(n)
    maker = rows[:, ck.R_MAKER]
    dealer = rows[:, ck.R_DEALER]
    trump = np.ascontiguousarray(rows[:, ck.R_TRUMP])  # as every other caller passes it: one compiled kernel
    up = rows[:, ck.R_KITTY]
    one = np.int64(1)
    hand = _after_exchange(rows, maker)
    alone_mask = rows[:, ck.R_ALONE]
    maker_alone = ((alone_mask >> maker) & 1).astype(bool)
    kept = np.where(maker_alone, hand, (hand | rows[:, ck.R_DUMMY]) & ~rows[:, ck.R_MAKER_DISCARDS])
    vec = to_vector(params, "cutthroat")
    est_hand = estimates(hand, trump, vec)
    est_kept = estimates(kept, trump, vec)
    last_call = rows[idx, ck.R_CALLS + 2 * rows[:, ck.R_NCALLS] - 1]
    tricks = rows[idx, ck.R_TRICKS + maker]
    lone_def = (alone_mask & ~(one << maker)) != 0
    lone_seat = np.where(lone_def, np.log2(np.maximum(alone_mask & ~(one << maker), 1)).astype(np.int64), 0)
    est_lone = estimates(np.where(lone_def, _after_exchange(rows, lone_seat), 0), trump, vec)
    return pd.DataFrame({
        "position": (maker - dealer + 2) % 3 + 1,
        "round": np.where(last_call == ck.CALL_ACCEPT, 1, 2),
        "upcard": np.array(UP_RANKS)[up % 6],
        "maker_alone": maker_alone,
        "lone_defender": lone_def,
        "est_hand": est_hand,
        "est_kept": est_kept,
        "est_lone_defender": np.where(lone_def, est_lone, np.nan),
        "made": (tricks >= ck.MAKER_NEEDS).astype(np.int64),
        "marches": (tricks == ck.N_TRICKS).astype(np.int64),
        "defender_all": (tricks == 0).astype(np.int64),
        "points": rows[idx, ck.R_POINTS + maker],
    })


def _bucket(x: pd.Series) -> pd.Series:
    return np.floor(x / EST_STEP) * EST_STEP


def cells(features: pd.DataFrame) -> pd.DataFrame:
    """Summed counts of a batch by every feature the tables group on (small; add batches together)."""
    f = features.assign(
        hands=1,
        bucket=_bucket(features["est_hand"]),
        lone_bucket=_bucket(features["est_lone_defender"].fillna(-1.0)),
        gain=features["est_kept"] - features["est_hand"],
    )
    keys = ["position", "round", "upcard", "maker_alone", "lone_defender", "bucket", "lone_bucket"]
    return f.groupby(keys, observed=True)[["hands", "made", "marches", "defender_all", "points", "gain"]].sum()


class Accumulator:
    """Running sums of ``cells`` over batches of record rows."""

    def __init__(self, params: dict):
        self.params = params
        self.total: pd.DataFrame | None = None

    def add_rows(self, rows: np.ndarray) -> None:
        c = cells(hand_features(rows, self.params))
        self.total = c if self.total is None else self.total.add(c, fill_value=0)

    def frame(self) -> pd.DataFrame:
        return self.total.reset_index() if self.total is not None else cells(hand_features(
            np.zeros((0, ck.R_WIDTH), np.int64), self.params)).reset_index()


def _rate(df: pd.DataFrame, made: str = "made", n: str = "hands", name: str = "make") -> pd.DataFrame:
    out = df.copy()
    out[f"{name}_rate"] = out[made] / out[n]
    out[f"{name}_low"], out[f"{name}_high"] = wilson(out[made], out[n])
    return out


def order_up(c: pd.DataFrame) -> pd.DataFrame:
    """Round-one acceptances by position and up-card rank: hands, made, make rate (95%), marches, maker points."""
    g = c[c["round"] == 1].groupby(["position", "upcard"], observed=True)[["hands", "made", "marches", "points"]].sum()
    g = g.reset_index()
    g["upcard"] = pd.Categorical(g["upcard"], UP_RANKS, ordered=True)
    g = _rate(g.sort_values(["position", "upcard"]).reset_index(drop=True))
    g["march_rate"] = g["marches"] / g["hands"]
    g["points_per_hand"] = g["points"] / g["hands"]
    return g.drop(columns=["points"])


def makers(c: pd.DataFrame) -> pd.DataFrame:
    """Makers by round and position: hands, made, make rate (95%), march rate, maker points per hand."""
    g = c.groupby(["round", "position"])[["hands", "made", "marches", "points"]].sum().reset_index()
    g = _rate(g)
    g["march_rate"] = g["marches"] / g["hands"]
    g["points_per_hand"] = g["points"] / g["hands"]
    return g.drop(columns=["points"])


def dummy_value(c: pd.DataFrame) -> pd.DataFrame:
    """The dummy's worth by the maker's own strength: with the dummy vs alone, at equal trick estimates.

    ``mean_gain`` is how much the merge raised the trick estimate; the make
    and march rates compare makers who took the dummy with lone makers whose
    five cards were estimated the same.
    """
    cols = ["hands", "made", "marches", "points", "gain"]
    w = c[~c["maker_alone"]].groupby("bucket")[cols].sum()
    a = c[c["maker_alone"]].groupby("bucket")[["hands", "made", "marches", "points"]].sum()
    out = pd.DataFrame(index=w.index.union(a.index))
    out.index.name = "estimate"
    out["dummy_hands"] = w["hands"]
    out["mean_gain"] = w["gain"] / w["hands"]
    out["dummy_make_rate"] = w["made"] / w["hands"]
    out["dummy_make_low"], out["dummy_make_high"] = wilson(w["made"].reindex(out.index), w["hands"].reindex(out.index))
    out["dummy_march_rate"] = w["marches"] / w["hands"]
    out["alone_hands"] = a["hands"]
    out["alone_make_rate"] = a["made"] / a["hands"]
    out["alone_make_low"], out["alone_make_high"] = wilson(a["made"].reindex(out.index), a["hands"].reindex(out.index))
    out["alone_march_rate"] = a["marches"] / a["hands"]
    for col in ("dummy_hands", "alone_hands"):
        out[col] = out[col].fillna(0).astype(np.int64)
    return out.reset_index()


def lone_hands(c: pd.DataFrame) -> pd.DataFrame:
    """Lone-hand odds: lone makers (make, march) and lone defenders (euchre, all five) by trick estimate."""
    a = c[c["maker_alone"]].groupby("bucket")[["hands", "made", "marches"]].sum().reset_index()
    a = _rate(a)
    a["march_rate"] = a["marches"] / a["hands"]
    a.insert(0, "who", "maker")
    d = c[c["lone_defender"]].groupby("lone_bucket")[["hands", "made", "defender_all"]].sum().reset_index()
    d = d.rename(columns={"lone_bucket": "bucket"})
    d["euchres"] = d["hands"] - d["made"]
    d = _rate(d, "euchres", name="euchre")
    d["all_five_rate"] = d["defender_all"] / d["hands"]
    d.insert(0, "who", "defender")
    out = pd.concat([a, d.drop(columns=["made", "defender_all"])], ignore_index=True)
    return out.rename(columns={"bucket": "estimate"})


def table_set(c: pd.DataFrame, position: pd.DataFrame | None = None) -> dict[str, pd.DataFrame]:
    """Every Cutthroat table by file stem."""
    tables = {
        "makers": makers(c),
        "order_up": order_up(c),
        "dummy_value": dummy_value(c),
        "lone_hands": lone_hands(c),
    }
    if position is not None:
        tables["position"] = position
    return tables


def tables_from_records(records: list[dict], params: dict) -> dict[str, pd.DataFrame]:
    """The tables of saved Cutthroat records (the maker's strength judged by ``params``)."""
    from bower.sim.variants.ghost.tables import position_from_records

    acc = Accumulator(params)
    acc.add_rows(rows_from_records(records))
    return table_set(acc.frame(), position_from_records(records))


# ---------------------------------------------------------------- streaming (bower analyze)

_CALL_NAMES = ("pass", "order", "assist", "take", *SUITS)
_CALL_CODES = np.array([ck.CALL_PASS, ck.CALL_ACCEPT, ck.CALL_ACCEPT, ck.CALL_ACCEPT]
                       + [ck.CALL_SUIT + i for i in range(4)], np.int64)


class Stream:
    """``bower analyze``'s Cutthroat tables folded batch by batch (``bower.analysis.stream``): the same as ``tables_from_records``."""

    disjoint = ["deal.0", "deal.1", "deal.2", "dummy", "kitty"]

    def __init__(self, params: dict, rules: dict):
        from bower.analysis.stream import Field, Fold
        from bower.sim.variants.ghost.tables import PositionSums

        seats = ("0", "1", "2")
        self.fields = ([Field(("dealer",), "seat")] + [Field(("deal", k), "cards", size=5) for k in seats]
                       + [Field(("dummy",), "cards", size=5), Field(("kitty",), "cards", size=4),
                          Field(("calls",), "pairs", size=ck.MAX_CALLS, names=_CALL_NAMES),
                          Field(("maker",), "seat", nullable=True),
                          Field(("trump",), "name", nullable=True, names=tuple(SUITS)),
                          Field(("discards", "dealer"), "card", nullable=True),
                          Field(("discards", "maker"), "cards"), Field(("alone",), "seats")]
                       + [Field(("tricks", k), "int") for k in seats] + [Field(("points", k), "int") for k in seats])
        self.params = params
        self.fold = Fold()
        self.position = PositionSums()

    def add(self, d: dict, n: int) -> None:
        from bower.analysis.stream import require_trump

        maker = d["maker"]
        require_trump(maker, d["trump"])
        rows = np.zeros((n, ck.R_WIDTH), np.int64)
        rows[:, ck.R_DEALER] = d["dealer"]
        for s in range(3):
            rows[:, ck.R_DEAL + s] = d[f"deal.{s}"]
            rows[:, ck.R_TRICKS + s] = d[f"tricks.{s}"]
            rows[:, ck.R_POINTS + s] = d[f"points.{s}"]
        rows[:, ck.R_DUMMY] = d["dummy"]
        rows[:, ck.R_KITTY: ck.R_KITTY + 4] = d["kitty[]"]
        count = d["calls#"]
        rows[:, ck.R_NCALLS] = count
        has = np.nonzero(count > 0)[0]
        rows[has, ck.R_CALLS + 2 * count[has] - 1] = _CALL_CODES[d["calls"][has]]
        rows[:, ck.R_MAKER] = maker
        rows[:, ck.R_TRUMP] = d["trump"]
        rows[:, ck.R_DEALER_DISCARD] = d["discards.dealer"]
        rows[:, ck.R_MAKER_DISCARDS] = d["discards.maker"]
        rows[:, ck.R_ALONE] = d["alone"]
        self.fold.add(cells(hand_features(rows, self.params)))
        self.position.add(d["dealer"], rows[:, ck.R_POINTS: ck.R_POINTS + 3], rows[:, ck.R_TRICKS: ck.R_TRICKS + 3],
                          maker)

    def result(self) -> tuple[dict, list]:
        empty = cells(hand_features(np.zeros((0, ck.R_WIDTH), np.int64), self.params))
        t = table_set(self.fold.frame(empty), self.position.frame())
        return t, list(t)
