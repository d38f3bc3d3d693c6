"""Standard Euchre tables: ordering up by position and up-card, trumps held, euchres, marches, lone hands, the deal's value.

One row per hand is decoded (vectorised, from kernel record rows or from
saved record dicts) into a frame of features; the tables are group sums of
that frame with rates and 95% Wilson intervals, and means with 95% normal
intervals. Thrown-in hands are kept (round 0): they count as hands dealt for
the dealer's-side table and nowhere else. ``Accumulator`` sums batches of
hands so a report over any number of hands keeps constant memory.

Points are by side. "Net points" of a hand are the makers' side's points
less the defenders' (only one side scores on a hand: +1, +2 or +4 to the
makers, or -2 / -4 when euchred).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bower.analysis.intervals import Z95, wilson
from bower.kernels.euchre import hand as ek
from bower.kernels.euchre.strategy import estimates
from bower.kernels.tables import SUIT_MASK
from bower.sim.cards import SUITS, mask_of_names, parse_card
from bower.sim.records_vector import popcount
from bower.sim.strategy import to_vector
from bower.sim.variants.euchre.records import took_masks

UP_RANKS = ["9", "T", "J", "Q", "K", "A"]
TRUMP_KINDS = ["up", "next", "cross"]  # the up-card's suit (round one); round two: same colour, other colour
EST_STEP = 0.5  # width of the trick-estimate buckets
KEYS = ["position", "round", "trump_kind", "upcard", "maker_alone", "lone_defender", "trumps", "bucket", "lone_bucket"]
SUMS = ["hands", "made", "marches", "euchres", "all_defence", "maker_points", "defender_points", "net", "net_sq",
        "dealer_points", "dealer_points_sq", "other_points", "other_points_sq", "maker_tricks",
        "tricks_1", "tricks_2", "tricks_3", "tricks_4"]


def rows_from_records(records: list[dict]) -> np.ndarray:
    """Saved Euchre record dicts back as kernel record rows (every field the tables read; not the plays)."""
    out = np.zeros((len(records), ek.R_WIDTH), np.int64)
    codes = {"pass": ek.CALL_PASS, "order": ek.CALL_ORDER}
    codes.update({s: ek.CALL_SUIT + i for i, s in enumerate(SUITS)})
    for i, r in enumerate(records):
        row = out[i]
        row[ek.R_DEALER] = r["dealer"]
        for s in range(ek.N_SEATS):
            row[ek.R_DEAL + s] = mask_of_names(r["deal"][str(s)])
        for k, c in enumerate(r["kitty"]):
            row[ek.R_KITTY + k] = parse_card(c)
        row[ek.R_NCALLS] = len(r["calls"])
        for k, (seat, call) in enumerate(r["calls"]):
            row[ek.R_CALLS + 2 * k] = seat
            row[ek.R_CALLS + 2 * k + 1] = codes[call]
        row[ek.R_MAKER] = -1 if r["maker"] is None else r["maker"]
        row[ek.R_TRUMP] = -1 if r["trump"] is None else SUITS.index(r["trump"])
        row[ek.R_DISCARD] = -1 if r["discard"] is None else parse_card(r["discard"])
        row[ek.R_ALONE] = sum(1 << s for s in r["alone"])
        row[ek.R_NPLAYS] = len(r["plays"])
        for s in range(ek.N_SEATS):
            row[ek.R_TRICKS + s] = r["tricks"][str(s)]
        row[ek.R_POINTS] = r["points"]["0"]
        row[ek.R_POINTS + 1] = r["points"]["1"]
        ex = r.get("exchange") or {"seat": -1, "gave": []}  # farmers / go_under: the exchange with the kitty
        row[ek.R_EXCHANGE] = ex["seat"]
        row[ek.R_GIVEN] = mask_of_names(ex["gave"]) if ex["seat"] >= 0 else 0
        row[ek.R_PASSED] = -1 if r.get("passed") is None else parse_card(r["passed"])
        row[ek.R_LONER_DISCARD] = -1 if r.get("loner_discard") is None else parse_card(r["loner_discard"])
    return out


def _wilson(made, n):
    """Wilson 95% interval kept within [0, 1] and around the rate (the formula strays by rounding errors at 0 and 1)."""
    lo, hi = wilson(made, n)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.asarray(made, float) / np.asarray(n, float)
    lo, hi = np.fmin(np.clip(lo, 0.0, 1.0), r), np.fmax(np.clip(hi, 0.0, 1.0), r)
    return lo, hi


def _after_exchange(rows: np.ndarray, seats: np.ndarray) -> np.ndarray:
    """The hands of ``seats`` (one per row) as they played: after the exchange with the kitty before the first call
    (rules ``farmers`` / ``go_under``: the three cards given for the kitty's three face-down cards), then the
    dealer's exchange of the up-card, if they dealt and took it."""
    hand = rows[np.arange(rows.shape[0]), ek.R_DEAL + seats]
    one = np.int64(1)
    given = rows[:, ek.R_GIVEN]
    hand = np.where((given != 0) & (rows[:, ek.R_EXCHANGE] == seats), (hand & ~given) | took_masks(rows), hand)
    discard = rows[:, ek.R_DISCARD]
    exchanged = (seats == rows[:, ek.R_DEALER]) & (discard >= 0)
    return np.where(exchanged, (hand & ~(one << np.maximum(discard, 0))) | (one << rows[:, ek.R_KITTY]), hand)


def hand_features(rows: np.ndarray, params: dict) -> pd.DataFrame:
    """One row per hand: the maker's position and round, trump kind, up-card rank, alone flags, trumps, estimates, outcome.

    Thrown-in hands have ``round`` 0 and position 0. ``trumps`` counts the
    trumps of the maker's five dealt cards (bowers counted as trump), before
    any exchange; ``est`` is the strategy's trick estimate of the maker's
    hand after its exchange with the kitty (rules ``farmers`` / ``go_under``:
    before the first call, so the hand its calls saw) and the dealer's
    exchange (what it played with; under rule ``partners_best`` before a lone
    maker's, the hand its calls and going alone saw), ``est_lone_defender``
    that of the lone defender's. ``made``: the makers' side took 3+ tricks;
    ``all_defence``: it took none.
    """
    n = rows.shape[0]
    idx = np.arange(n)
    dealer = rows[:, ek.R_DEALER]
    maker = rows[:, ek.R_MAKER]
    played = maker >= 0
    m = np.maximum(maker, 0)
    trump = np.where(played, rows[:, ek.R_TRUMP], 0)
    up = rows[:, ek.R_KITTY]
    u = up // 6
    last = rows[idx, ek.R_CALLS + 2 * np.maximum(rows[:, ek.R_NCALLS] - 1, 0) + 1]
    rnd = np.where(~played, 0, np.where(last == ek.CALL_ORDER, 1, 2))
    kind = np.where(rnd == 1, 0, np.where(trump == (u ^ 1), 1, 2))
    one = np.int64(1)
    dealt = rows[idx, ek.R_DEAL + m]
    trumps = popcount(dealt & SUIT_MASK[trump, trump])
    vec = to_vector(params, "euchre")
    est = estimates(_after_exchange(rows, m), trump, vec)
    alone = rows[:, ek.R_ALONE]
    maker_alone = played & (((alone >> m) & 1) == 1)
    lone_mask = alone & ~(one << m)
    lone_def = played & (lone_mask != 0)
    lone_seat = np.where(lone_def, np.log2(np.maximum(lone_mask, 1)).astype(np.int64), 0)
    est_lone = estimates(_after_exchange(rows, lone_seat), trump, vec)
    side = m & 1
    tricks = rows[:, ek.R_TRICKS:ek.R_TRICKS + 4]
    mt = tricks[idx, side] + tricks[idx, side + 2]
    pts = rows[:, ek.R_POINTS:ek.R_POINTS + 2]
    maker_pts = np.where(played, pts[idx, side], 0)
    def_pts = np.where(played, pts[idx, 1 - side], 0)
    dside = dealer & 1
    dealer_pts = pts[idx, dside]
    other_pts = pts[idx, 1 - dside]
    made = played & (mt >= ek.MAKER_NEEDS)
    net = maker_pts - def_pts
    out = {
        "position": np.where(played, ((m - dealer - 1) & 3) + 1, 0),
        "round": rnd,
        "trump_kind": np.where(played, np.array(TRUMP_KINDS)[kind], "none"),
        "upcard": np.array(UP_RANKS)[up % 6],
        "maker_alone": maker_alone,
        "lone_defender": lone_def,
        "trumps": np.where(played, trumps, 0),
        "est": np.where(played, est, np.nan),
        "est_lone_defender": np.where(lone_def, est_lone, np.nan),
        "made": made.astype(np.int64),
        "marches": (played & (mt == ek.N_TRICKS)).astype(np.int64),
        "euchres": (played & (mt < ek.MAKER_NEEDS)).astype(np.int64),
        "all_defence": (played & (mt == 0)).astype(np.int64),
        "maker_tricks": np.where(played, mt, 0),
        "maker_points": maker_pts,
        "defender_points": def_pts,
        "net": net,
        "net_sq": net * net,
        "dealer_points": dealer_pts,
        "dealer_points_sq": dealer_pts * dealer_pts,
        "other_points": other_pts,
        "other_points_sq": other_pts * other_pts,
    }
    for p in range(1, 5):
        out[f"tricks_{p}"] = tricks[idx, (dealer + p) & 3]
    return pd.DataFrame(out)


def _bucket(x: pd.Series) -> pd.Series:
    return np.floor(x / EST_STEP) * EST_STEP


def cells(features: pd.DataFrame) -> pd.DataFrame:
    """Summed counts of a batch by every feature the tables group on (small; add batches together)."""
    f = features.assign(
        hands=1,
        bucket=_bucket(features["est"].fillna(-1.0)),
        lone_bucket=_bucket(features["est_lone_defender"].fillna(-1.0)),
    )
    return f.groupby(KEYS, observed=True)[SUMS].sum()


class Accumulator:
    """Running sums of ``cells`` over batches of record rows."""

    def __init__(self, params: dict):
        self.params = params
        self.total: pd.DataFrame | None = None

    def add_rows(self, rows: np.ndarray) -> None:
        c = cells(hand_features(rows, self.params))
        self.total = c if self.total is None else self.total.add(c, fill_value=0)

    def frame(self) -> pd.DataFrame:
        if self.total is None:
            return cells(hand_features(np.zeros((0, ek.R_WIDTH), np.int64), self.params)).reset_index()
        return self.total.astype(np.int64).reset_index()


# ---------------------------------------------------------------- the tables


def _mean_ci(s, ss, n):
    """Mean and 95% normal interval from sums and sums of squares (arrays)."""
    n = np.asarray(n, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.asarray(s, float) / n
        var = np.clip(np.asarray(ss, float) / n - mean**2, 0, None) * n / np.clip(n - 1, 1, None)
        half = Z95 * np.sqrt(var / n)
    return mean, mean - half, mean + half


def _outcomes(g: pd.DataFrame) -> pd.DataFrame:
    """Rates of a frame of summed cells: make and euchre rates (Wilson 95%), march rate, points and net points (95%)."""
    out = g.copy()
    out["make_rate"] = out["made"] / out["hands"]
    out["make_low"], out["make_high"] = _wilson(out["made"], out["hands"])
    out["euchre_rate"] = out["euchres"] / out["hands"]
    out["euchre_low"], out["euchre_high"] = _wilson(out["euchres"], out["hands"])
    out["march_rate"] = out["marches"] / out["hands"]
    out["points_per_hand"] = out["maker_points"] / out["hands"]
    out["net_points"], out["net_low"], out["net_high"] = _mean_ci(out["net"], out["net_sq"], out["hands"])
    return out.drop(columns=["maker_points", "net", "net_sq"])


def _played(c: pd.DataFrame) -> pd.DataFrame:
    return c[c["round"] > 0]


OUTCOME = ["hands", "made", "euchres", "marches", "maker_points", "net", "net_sq"]


def makers(c: pd.DataFrame) -> pd.DataFrame:
    """Makers by round and position: hands, make and euchre rates (95%), march rate, makers' and net points per hand."""
    g = _played(c).groupby(["round", "position"])[OUTCOME].sum().reset_index()
    return _outcomes(g)


def order_up(c: pd.DataFrame) -> pd.DataFrame:
    """Round-one orders by position and up-card rank: hands, make and euchre rates (95%), marches, points (95%)."""
    g = c[c["round"] == 1].groupby(["position", "upcard"], observed=True)[OUTCOME].sum().reset_index()
    g["upcard"] = pd.Categorical(g["upcard"], UP_RANKS, ordered=True)
    return _outcomes(g.sort_values(["position", "upcard"]).reset_index(drop=True))


def by_trumps(c: pd.DataFrame) -> pd.DataFrame:
    """Make rate by trumps in the maker's five dealt cards (bowers are trump), by round: hands, rates (95%), points."""
    g = _played(c).groupby(["round", "trumps"])[OUTCOME].sum().reset_index()
    return _outcomes(g)


def trump_kind(c: pd.DataFrame) -> pd.DataFrame:
    """Trump by its relation to the up-card: ordered up (round one), "next" (same colour) or "cross" (round two)."""
    g = _played(c).groupby("trump_kind", observed=True)[OUTCOME].sum().reset_index()
    g["trump_kind"] = pd.Categorical(g["trump_kind"], TRUMP_KINDS, ordered=True)
    return _outcomes(g.sort_values("trump_kind").reset_index(drop=True))


def lone_hands(c: pd.DataFrame) -> pd.DataFrame:
    """Lone-hand odds by trick estimate: lone makers (make, march) and lone defenders (euchred the makers, held to none)."""
    p = _played(c)
    a = p[p["maker_alone"]].groupby("bucket")[["hands", "made", "marches"]].sum().reset_index()
    a["make_rate"] = a["made"] / a["hands"]
    a["make_low"], a["make_high"] = _wilson(a["made"], a["hands"])
    a["march_rate"] = a["marches"] / a["hands"]
    a["march_low"], a["march_high"] = _wilson(a["marches"], a["hands"])
    a.insert(0, "who", "maker")
    d = p[p["lone_defender"]].groupby("lone_bucket")[["hands", "euchres", "all_defence"]].sum().reset_index()
    d = d.rename(columns={"lone_bucket": "bucket"})
    d["euchre_rate"] = d["euchres"] / d["hands"]
    d["euchre_low"], d["euchre_high"] = _wilson(d["euchres"], d["hands"])
    d["no_trick_rate"] = d["all_defence"] / d["hands"]
    d.insert(0, "who", "defender")
    out = pd.concat([a, d.drop(columns=["all_defence"])], ignore_index=True)
    return out.rename(columns={"bucket": "estimate"})


def dealer_side(c: pd.DataFrame, games: dict | None = None) -> pd.DataFrame:
    """The value of dealing: points per hand dealt (95%) of the dealer's side, the other side and their difference.

    ``makers``: the hands in which the side made trump, with their make rate
    (95%). With ``games`` (a whole-games summary), the game win share (95%)
    of the side that dealt the first hand and of the other.
    """
    n = int(c["hands"].sum())
    p = _played(c)
    dealer_made = p[p["position"].isin([2, 4])]
    other_made = p[p["position"].isin([1, 3])]
    d, dd = int(c["dealer_points"].sum()), int(c["dealer_points_sq"].sum())
    o, oo = int(c["other_points"].sum()), int(c["other_points_sq"].sum())
    mean, low, high = _mean_ci(np.array([d, o, d - o]), np.array([dd, oo, dd + oo]), np.full(3, n))
    mk = np.array([int(dealer_made["hands"].sum()), int(other_made["hands"].sum()), 0])
    md = np.array([int(dealer_made["made"].sum()), int(other_made["made"].sum()), 0])
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = np.where(mk > 0, md / np.maximum(mk, 1), np.nan)
    lo, hi = _wilson(md, mk)
    out = pd.DataFrame({
        "side": ["dealer's side", "other side", "difference (dealer's - other)"],
        "hands": [n, n, n],
        "points_per_hand": mean,
        "points_low": low,
        "points_high": high,
        "makers": [mk[0], mk[1], np.nan],
        "make_rate": [rate[0], rate[1], np.nan],
        "make_low": [lo[0], lo[1], np.nan],
        "make_high": [hi[0], hi[1], np.nan],
    })
    if games is not None:
        ws, wci = games["win_share_by_start"], games["win_share_ci95_by_start"]
        # win units: "1" = seats 0 & 2 (position 1's side in the first hand), "2" = the first dealer's side
        out["first_deal_win_share"] = [ws["2"], ws["1"], ws["2"] - ws["1"]]
        out["win_low"] = [wci["2"][0], wci["1"][0], np.nan]
        out["win_high"] = [wci["2"][1], wci["1"][1], np.nan]
    return out


def position(c: pd.DataFrame) -> pd.DataFrame:
    """By position (1 = dealer's left, 4 = dealer): trump made (share of hands), make rate (95%), tricks, side points (95%)."""
    n = int(c["hands"].sum())
    p = _played(c)
    g = p.groupby("position")[["hands", "made"]].sum().reindex([1, 2, 3, 4], fill_value=0)
    d, dd = float(c["dealer_points"].sum()), float(c["dealer_points_sq"].sum())
    o, oo = float(c["other_points"].sum()), float(c["other_points_sq"].sum())
    mean, low, high = _mean_ci(np.array([o, d, o, d]), np.array([oo, dd, oo, dd]), np.full(4, n))
    lo, hi = _wilson(g["made"].to_numpy(), g["hands"].to_numpy())
    with np.errstate(invalid="ignore", divide="ignore"):
        return pd.DataFrame({
            "position": [1, 2, 3, 4],
            "side": ["other", "dealer's", "other", "dealer's"],
            "hands": [n] * 4,
            "maker_share": g["hands"].to_numpy() / n if n else np.full(4, np.nan),
            "make_rate": g["made"].to_numpy() / g["hands"].to_numpy(),
            "make_low": lo,
            "make_high": hi,
            "tricks_per_hand": [c[f"tricks_{q}"].sum() / n if n else np.nan for q in range(1, 5)],
            "points_per_hand": mean,
            "points_low": low,
            "points_high": high,
        })


def table_set(c: pd.DataFrame, games: dict | None = None) -> dict[str, pd.DataFrame]:
    """Every Euchre table by file stem (``games``: a whole-games summary for the dealer's-side win shares)."""
    return {
        "makers": makers(c),
        "order_up": order_up(c),
        "by_trumps": by_trumps(c),
        "trump_kind": trump_kind(c),
        "lone_hands": lone_hands(c),
        "dealer_side": dealer_side(c, games),
        "position": position(c),
    }


def tables_from_records(records: list[dict], params: dict) -> dict[str, pd.DataFrame]:
    """The tables of saved Euchre records (trick estimates by ``params``)."""
    acc = Accumulator(params)
    acc.add_rows(rows_from_records(records))
    return table_set(acc.frame())


# ---------------------------------------------------------------- streaming (bower analyze)

_CALL_NAMES = ("pass", "order", *SUITS)
_CALL_CODES = np.array([ek.CALL_PASS, ek.CALL_ORDER] + [ek.CALL_SUIT + i for i in range(4)], np.int64)


class Stream:
    """``bower analyze``'s Euchre tables folded batch by batch (``bower.analysis.stream``): the same as ``tables_from_records``."""

    disjoint = ["deal.0", "deal.1", "deal.2", "deal.3", "kitty"]

    def __init__(self, params: dict, rules: dict):
        from bower.analysis.stream import Field, Fold

        four = ("0", "1", "2", "3")
        self.fields = ([Field(("dealer",), "seat")] + [Field(("deal", k), "cards", size=5) for k in four]
                       + [Field(("kitty",), "cards", size=4),
                          Field(("calls",), "pairs", size=ek.MAX_CALLS, names=_CALL_NAMES),
                          Field(("maker",), "seat", nullable=True),
                          Field(("trump",), "name", nullable=True, names=tuple(SUITS)),
                          Field(("discard",), "card", nullable=True), Field(("alone",), "seats"),
                          Field(("plays",), "count")]
                       + [Field(("tricks", k), "int") for k in four] + [Field(("points", k), "int") for k in ("0", "1")])
        self.params = params
        self.fold = Fold()

    def add(self, d: dict, n: int) -> None:
        from bower.analysis.stream import require_trump

        maker = d["maker"]
        require_trump(maker, d["trump"])
        rows = np.zeros((n, ek.R_WIDTH), np.int64)
        rows[:, ek.R_DEALER] = d["dealer"]
        for s in range(4):
            rows[:, ek.R_DEAL + s] = d[f"deal.{s}"]
            rows[:, ek.R_TRICKS + s] = d[f"tricks.{s}"]
        rows[:, ek.R_KITTY: ek.R_KITTY + 4] = d["kitty[]"]
        count = d["calls#"]
        rows[:, ek.R_NCALLS] = count
        has = np.nonzero(count > 0)[0]
        rows[has, ek.R_CALLS + 2 * count[has] - 1] = _CALL_CODES[d["calls"][has]]
        rows[:, ek.R_MAKER] = maker
        rows[:, ek.R_TRUMP] = d["trump"]
        rows[:, ek.R_DISCARD] = d["discard"]
        rows[:, ek.R_ALONE] = d["alone"]
        rows[:, ek.R_NPLAYS] = d["plays"]
        rows[:, ek.R_POINTS] = d["points.0"]
        rows[:, ek.R_POINTS + 1] = d["points.1"]
        self.fold.add(cells(hand_features(rows, self.params)))

    def result(self) -> tuple[dict, list]:
        empty = cells(hand_features(np.zeros((0, ek.R_WIDTH), np.int64), self.params))
        t = table_set(self.fold.frame(empty).astype({c: np.int64 for c in SUMS}), None)
        return t, list(t)
