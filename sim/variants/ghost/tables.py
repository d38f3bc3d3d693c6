"""Ghost Hand tables: bid success, moon odds, the value of swapping, position; from aggregates or records.

Every table is a tidy DataFrame with counts, rates and 95% intervals (Wilson
for rates, normal for means). The same tables come either from the
histograms the kernels accumulate (``bower.sim.stats``: constant memory, any
number of hands) or from saved per-hand records (``histograms_from_records``
rebuilds those histograms with pandas, so both paths meet in one place).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bower.analysis.intervals import Z95, wilson
from bower.kernels.ghost import stats as gst
from bower.kernels.ghost.codes import PARAM_NAMES as GHOST_PARAM_NAMES
from bower.kernels.ghost.strategy import estimate
from bower.kernels.jit import kernel
from bower.sim.cards import SUITS, parse_card

LEVEL_NAMES = ["3", "4", "5", "moon"]
FEATURES = ["bid", "position", "trumps", "bowers", "off_aces"]


# ---------------------------------------------------------------- bids


def bid_cells(bids: np.ndarray) -> pd.DataFrame:
    """The bid histogram as a tidy frame: one row per non-empty feature cell with its sums."""
    idx = pd.MultiIndex.from_product(
        [LEVEL_NAMES, [1, 2, 3], range(gst.N_TRUMPS), range(gst.N_BOWERS), range(gst.N_ACES)], names=FEATURES
    )
    df = pd.DataFrame(bids, index=idx, columns=["hands", "made", "points", "points_sq"])
    return df[df["hands"] > 0].reset_index()


def _rates(df: pd.DataFrame) -> pd.DataFrame:
    """Add make rate, mean maker points and their 95% intervals to summed counts."""
    out = df.copy()
    n = out["hands"].astype(float)
    out["make_rate"] = out["made"] / n
    out["make_low"], out["make_high"] = wilson(out["made"], out["hands"])
    mean = out["points"] / n
    var = (out["points_sq"] / n - mean**2).clip(lower=0) * n / (n - 1).clip(lower=1)
    half = Z95 * np.sqrt(var / n)
    out["mean_points"] = mean
    out["points_low"], out["points_high"] = mean - half, mean + half
    return out.drop(columns=["points", "points_sq"])


def bid_success(bids: np.ndarray, by: list[str] | None = None) -> pd.DataFrame:
    """Make rate and mean maker points by bid level and the given features (default: every feature)."""
    by = FEATURES if by is None else ["bid", *[b for b in by if b != "bid"]]
    cells = bid_cells(bids)
    grouped = cells.groupby(by, sort=False)[["hands", "made", "points", "points_sq"]].sum().reset_index()
    grouped["bid"] = pd.Categorical(grouped["bid"], LEVEL_NAMES, ordered=True)
    return _rates(grouped.sort_values(by).reset_index(drop=True))


def bid_by_estimate(estimates: np.ndarray) -> pd.DataFrame:
    """Make rate and mean maker points by bid level and the strategy's trick estimate (bucket lower edge)."""
    idx = pd.MultiIndex.from_product([LEVEL_NAMES, np.arange(gst.N_EST) * gst.EST_STEP], names=["bid", "estimate"])
    df = pd.DataFrame(estimates, index=idx, columns=["hands", "made", "points", "points_sq"]).reset_index()
    return _rates(df[df["hands"] > 0].reset_index(drop=True))


def moon_odds(bids: np.ndarray, by: list[str] | None = None) -> pd.DataFrame:
    """Moons called and made by hand features: the chance such a hand takes all six when it calls."""
    by = ["trumps", "bowers"] if by is None else by
    table = bid_success(bids, by)
    table = table[table["bid"] == "moon"].drop(columns=["bid"]).reset_index(drop=True)
    return table.rename(columns={"hands": "moons_called", "made": "moons_made"})


# ---------------------------------------------------------------- records


def maker_rows(records: list[dict], strategy_params: dict | None = None) -> pd.DataFrame:
    """One row per played hand: the maker's features (from their hand after any swap), made, points.

    Columns: bid, position, trumps, bowers, off_aces, estimate (the
    strategy's trick estimate of the maker's hand for the named trump, if
    ``strategy_params`` is given), made, points.
    """
    vec = None
    if strategy_params is not None:
        vec = np.array([float(strategy_params[n]) for n in GHOST_PARAM_NAMES])
    rows = []
    for r in records:
        maker = r["maker"]
        if maker is None:
            continue
        cards = r["deal"]["ghost"] if r["swap"] == maker else r["deal"][str(maker)]
        idx = [parse_card(c) for c in cards]
        trump = SUITS.index(r["trump"])
        left = (trump ^ 1) * 6 + 2
        in_trump = [c for c in idx if c // 6 == trump or c == left]
        bid = r["bid"]
        row = {
            "bid": LEVEL_NAMES[bid - 3],
            "position": (maker - r["dealer"] + 2) % 3 + 1,
            "trumps": len(in_trump),
            "bowers": sum(c in (trump * 6 + 2, left) for c in idx),
            "off_aces": sum(c % 6 == 5 and c // 6 != trump for c in idx),
            "made": int(r["tricks"][str(maker)] >= bid),
            "points": r["points"][str(maker)],
        }
        if vec is not None:
            mask = 0
            for c in idx:
                mask |= 1 << c
            row["estimate"] = float(estimate(np.int64(mask), np.int64(trump), vec))
        rows.append(row)
    return pd.DataFrame(rows, columns=[*FEATURES, "estimate", "made", "points"] if vec is not None else [*FEATURES, "made", "points"])


def histograms_from_records(records: list[dict], strategy_params: dict | None = None) -> dict:
    """The kernels' bid histograms rebuilt from records with pandas (``bids``, and ``estimates`` if params)."""
    df = maker_rows(records, strategy_params)
    df["level"] = df["bid"].map({n: i for i, n in enumerate(LEVEL_NAMES)})
    df["points_sq"] = df["points"] ** 2
    df["hands"] = 1
    cell = (
        (((df["level"] * gst.N_POS + df["position"] - 1) * gst.N_TRUMPS + df["trumps"]) * gst.N_BOWERS + df["bowers"])
        * gst.N_ACES + df["off_aces"]
    )
    sums = df.assign(cell=cell).groupby("cell")[["hands", "made", "points", "points_sq"]].sum()
    bids = np.zeros((gst.N_BID_CELLS, gst.H_WIDTH), np.int64)
    bids[sums.index.to_numpy().astype(np.int64)] = sums.to_numpy()  # (an empty index has no integer type)
    out = {"bids": bids}
    if strategy_params is not None:
        bucket = np.clip(np.floor(df["estimate"] / gst.EST_STEP).astype(int), 0, gst.N_EST - 1)
        esums = df.assign(cell=df["level"] * gst.N_EST + bucket).groupby("cell")[["hands", "made", "points", "points_sq"]].sum()
        ests = np.zeros((gst.N_LEVELS * gst.N_EST, gst.H_WIDTH), np.int64)
        ests[esums.index.to_numpy().astype(np.int64)] = esums.to_numpy()
        out["estimates"] = ests
    return out


def position_from_records(records: list[dict]) -> pd.DataFrame:
    """Mean points and tricks per hand by position (1 = dealer's left, 3 = dealer) with 95% intervals."""
    rows = []
    for r in records:
        for seat in ("0", "1", "2"):
            rows.append({"position": (int(seat) - r["dealer"] + 2) % 3 + 1, "points": r["points"][seat],
                         "tricks": r["tricks"][seat], "maker": int(r["maker"] == int(seat))})
    df = pd.DataFrame(rows)
    g = df.groupby("position")
    out = pd.DataFrame({
        "hands": g.size(),
        "points_per_hand": g["points"].mean(),
        "tricks_per_hand": g["tricks"].mean(),
        "maker_share": g["maker"].mean(),
    })
    half = Z95 * g["points"].std(ddof=1) / np.sqrt(out["hands"])
    out["points_low"], out["points_high"] = out["points_per_hand"] - half, out["points_per_hand"] + half
    return out.reset_index()


def position_from_summary(summary: dict, games: dict | None = None) -> pd.DataFrame:
    """Position table from a run summary (and, if given, a whole-games summary for win shares)."""
    pos = ["1", "2", "3"]
    out = pd.DataFrame({
        "position": [1, 2, 3],
        "hands": [summary["hands"]] * 3,
        "points_per_hand": [summary["points_per_hand_by_position"][p] for p in pos],
        "points_low": [summary["points_per_hand_ci95_by_position"][p][0] for p in pos],
        "points_high": [summary["points_per_hand_ci95_by_position"][p][1] for p in pos],
        "tricks_per_hand": [summary["tricks_per_hand_by_position"][p] for p in pos],
        "maker_share": [summary["makers_by_position"][p] / summary["hands"] for p in pos],
    })
    if games is not None:
        out["win_share_from_start"] = [games["win_share_by_start"][p] for p in pos]
        out["win_low"] = [games["win_share_ci95_by_start"][p][0] for p in pos]
        out["win_high"] = [games["win_share_ci95_by_start"][p][1] for p in pos]
    return out


# ---------------------------------------------------------------- swap


def _mean_ci(n, s, ss):
    n = np.asarray(n, float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = s / n
        var = np.clip(ss / n - mean**2, 0, None) * n / np.clip(n - 1, 1, None)
        half = Z95 * np.sqrt(var / n)
    return mean, half


def swap_table(acc: np.ndarray, by_position: bool = True) -> pd.DataFrame:
    """Mean gain from swapping (points, and margin over the opponents' mean) by strength given up.

    Paired runs: the mean of per-deal differences with its interval. Unpaired
    runs: the difference of the two sides' means, its interval from both
    variances. Rows by position (or pooled) and estimate bucket.
    """
    a = acc if by_position else acc.sum(axis=0, keepdims=True)
    rows = []
    for p in range(a.shape[0]):
        for b in range(a.shape[1]):
            c = a[p, b].astype(float)
            n_pair = c[gst.SW_N_PAIR]
            if n_pair > 0:
                d, hd = _mean_ci(n_pair, c[gst.SW_DPTS], c[gst.SW_DPTS_SQ])
                m, hm = _mean_ci(n_pair, c[gst.SW_DMAR] / 2, c[gst.SW_DMAR_SQ] / 4)
                n = n_pair
            elif c[gst.SW_N_SWAP] > 0 and c[gst.SW_N_KEEP] > 0:
                ms, hs = _mean_ci(c[gst.SW_N_SWAP], c[gst.SW_PTS_SWAP], c[gst.SW_PTS_SWAP_SQ])
                mk, hk = _mean_ci(c[gst.SW_N_KEEP], c[gst.SW_PTS_KEEP], c[gst.SW_PTS_KEEP_SQ])
                d, hd = ms - mk, float(np.hypot(hs, hk))
                ms2, hs2 = _mean_ci(c[gst.SW_N_SWAP], c[gst.SW_MAR_SWAP] / 2, c[gst.SW_MAR_SWAP_SQ] / 4)
                mk2, hk2 = _mean_ci(c[gst.SW_N_KEEP], c[gst.SW_MAR_KEEP] / 2, c[gst.SW_MAR_KEEP_SQ] / 4)
                m, hm = ms2 - mk2, float(np.hypot(hs2, hk2))
                n = min(c[gst.SW_N_SWAP], c[gst.SW_N_KEEP])
            else:
                continue
            row = {"position": p + 1} if by_position else {}
            row.update({
                "strength": b * gst.EST_STEP,
                "decisions": int(n),
                "gain_points": float(d), "gain_low": float(d - hd), "gain_high": float(d + hd),
                "gain_margin": float(m), "margin_low": float(m - hm), "margin_high": float(m + hm),
            })
            rows.append(row)
    return pd.DataFrame(rows)


def swap_overall(acc: np.ndarray, mirror: np.ndarray | None = None) -> pd.DataFrame:
    """Mean gain from swapping per position over all decision points (pooled strengths).

    With ``mirror`` (paired runs) the estimate is the mean over mirrored
    pairs of deals (the player's hand and the ghost exchanged): half the sum
    of the two gains, whose spread is far smaller than either gain's, so the
    interval is much narrower. Without it, as ``swap_table`` pooled.
    """
    pooled = acc.sum(axis=1, keepdims=True)
    t = swap_table(pooled, by_position=True).drop(columns=["strength"])
    if mirror is None:
        return t
    rows = []
    for p in range(mirror.shape[0]):
        m = mirror[p].astype(float)
        n = m[gst.MI_N]
        if n == 0:
            continue
        d, hd = _mean_ci(n, m[gst.MI_PTS] / 2, m[gst.MI_PTS_SQ] / 4)
        g, hg = _mean_ci(n, m[gst.MI_MAR] / 4, m[gst.MI_MAR_SQ] / 16)
        rows.append({
            "position": p + 1, "decisions": int(n),
            "gain_points": float(d), "gain_low": float(d - hd), "gain_high": float(d + hd),
            "gain_margin": float(g), "margin_low": float(g - hg), "margin_high": float(g + hg),
        })
    return pd.DataFrame(rows)


def break_even(table: pd.DataFrame, min_decisions: int = 200) -> float | None:
    """Hand strength (estimate) below which swapping gains points: where the mean gain crosses zero.

    Uses buckets with at least ``min_decisions`` decision points, at bucket
    midpoints, interpolating linearly at the first sign change from gain to
    loss. None if the gain never changes sign.
    """
    t = table[table["decisions"] >= min_decisions].sort_values("strength")
    x = (t["strength"] + gst.EST_STEP / 2).to_numpy()
    y = t["gain_points"].to_numpy()
    for i in range(1, len(y)):
        if y[i - 1] > 0 >= y[i]:
            return float(x[i - 1] + (x[i] - x[i - 1]) * y[i - 1] / (y[i - 1] - y[i]))
    return None


def table_set(bids, estimates=None, position=None, swap_acc=None, swap_mirror=None) -> dict[str, pd.DataFrame]:
    """Every table of a run, by file stem: bid success (full and by each feature), estimate, moon, position, swap."""
    tables = {
        "bid_success": bid_success(bids),
        "bid_by_position": bid_success(bids, ["position"]),
        "bid_by_trumps": bid_success(bids, ["trumps"]),
        "bid_by_bowers": bid_success(bids, ["bowers"]),
        "bid_by_off_aces": bid_success(bids, ["off_aces"]),
        "moon_odds": moon_odds(bids),
        "moon_by_trumps": moon_odds(bids, ["trumps"]),
        "moon_odds_by_features": moon_odds(bids, ["trumps", "bowers", "off_aces"]),
    }
    if estimates is not None:
        tables["bid_by_estimate"] = bid_by_estimate(estimates)
    if position is not None:
        tables["position"] = position
    if swap_acc is not None:
        tables["swap_value"] = swap_table(swap_acc, by_position=False)
        tables["swap_value_by_position"] = swap_table(swap_acc, by_position=True)
        tables["swap_by_position"] = swap_overall(swap_acc, swap_mirror)
    return tables


# ---------------------------------------------------------------- streaming (bower analyze)

SHOWN = ["bid_by_position", "bid_by_trumps", "bid_by_bowers", "bid_by_off_aces", "bid_by_estimate", "moon_odds",
         "position"]  # the tables bower analyze prints (Variant.analysis_tables's)


def _stream_fields():
    from bower.analysis.stream import Field

    seats = ("0", "1", "2")
    return ([Field(("dealer",), "seat")]
            + [Field(("deal", k), "cards", size=6) for k in (*seats, "ghost")]
            + [Field(("swap",), "seat", nullable=True), Field(("maker",), "seat", nullable=True),
               Field(("bid",), "int", nullable=True), Field(("trump",), "name", nullable=True, names=tuple(SUITS))]
            + [Field(("tricks", k), "int") for k in seats] + [Field(("points", k), "int") for k in seats])


@kernel
def _estimate_loop(hands, trumps, p):
    """The kernel's ``estimate`` of each hand for its trump."""
    out = np.empty(hands.shape[0], np.float64)
    for i in range(hands.shape[0]):
        out[i] = estimate(hands[i], trumps[i], p)
    return out


def _estimates_of(hands: np.ndarray, trumps: np.ndarray, vec: np.ndarray) -> np.ndarray:
    """The strategy's trick estimate of each hand for its trump (the kernel's ``estimate``, hand by hand)."""
    return _estimate_loop(np.ascontiguousarray(hands, np.int64), np.ascontiguousarray(trumps, np.int64), vec)


_SUIT = np.array([63 << (6 * s) for s in range(4)], np.int64)
_ACES = np.int64(sum(1 << (6 * s + 5) for s in range(4)))


class PositionSums:
    """Sums by position (1 = dealer's left, 3 = dealer) of three-seat records, for ``position_from_records``'s table."""

    def __init__(self):
        self.n = np.zeros(3, np.int64)
        self.points = np.zeros(3, np.int64)
        self.points_sq = np.zeros(3, np.int64)
        self.tricks = np.zeros(3, np.int64)
        self.makers = np.zeros(3, np.int64)

    def add(self, dealer: np.ndarray, points: np.ndarray, tricks: np.ndarray, maker: np.ndarray) -> None:
        """A batch: dealer (n,), points and tricks (n, 3) by seat, maker (n,; -1 when none)."""
        for seat in range(3):
            pos = (seat - dealer + 2) % 3
            self.n += np.bincount(pos, minlength=3)
            self.points += _isum(pos, points[:, seat])
            self.points_sq += _isum(pos, points[:, seat] * points[:, seat])
            self.tricks += _isum(pos, tricks[:, seat])
            self.makers += _isum(pos, (maker == seat).astype(np.int64))

    def frame(self) -> pd.DataFrame:
        """The table ``position_from_records`` makes of the same records (the std from exact integer sums)."""
        rows = []
        for p in range(3):
            n, s, ss = int(self.n[p]), int(self.points[p]), int(self.points_sq[p])
            var = (n * ss - s * s) / (n * (n - 1)) if n > 1 else float("nan")
            rows.append((p + 1, n, s / n, int(self.tricks[p]) / n, int(self.makers[p]) / n, np.sqrt(var)))
        out = pd.DataFrame(rows, columns=["position", "hands", "points_per_hand", "tricks_per_hand", "maker_share",
                                          "std"])
        out = out[out["hands"] > 0].reset_index(drop=True)
        half = Z95 * out["std"] / np.sqrt(out["hands"])
        out["points_low"], out["points_high"] = out["points_per_hand"] - half, out["points_per_hand"] + half
        return out.drop(columns=["std"])


def _isum(pos: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Exact int sums of ``values`` by position 0..2."""
    return _cell_sums(pos, values[:, None], 3)[:, 0]


def _cell_sums(cell: np.ndarray, values: np.ndarray, cells: int) -> np.ndarray:
    """Exact int64 sums of the rows of ``values`` (n, k) by ``cell`` (n,) into (cells, k).

    ``np.bincount`` adds in float64, exact for the sums of small ints of up to 2^53; its result is checked
    against that bound and the sums are given back as ints.
    """
    values = np.asarray(values, np.int64)
    out = np.zeros((cells, values.shape[1]), np.int64)
    if not len(cell):
        return out
    if np.abs(values).sum(axis=0).max() >= 2**53:
        np.add.at(out, cell, values)
        return out
    for k in range(values.shape[1]):
        out[:, k] = np.rint(np.bincount(cell, weights=values[:, k], minlength=cells)).astype(np.int64)
    return out


class Stream:
    """``bower analyze``'s Ghost Hand tables folded batch by batch (``bower.analysis.stream``): the same as ``analysis_tables``.

    ``fields``: what the tables read; ``disjoint``: the card fields that
    share no card (the deal). ``add`` takes a batch's decoded fields (Bad
    for a record whose fields disagree), ``result`` gives (tables, shown).
    """

    disjoint = ["deal.0", "deal.1", "deal.2", "deal.ghost"]

    def __init__(self, params: dict, rules: dict):
        self.fields = _stream_fields()
        self.vec = np.array([float(params[n]) for n in GHOST_PARAM_NAMES])
        self.bids = np.zeros((gst.N_BID_CELLS, gst.H_WIDTH), np.int64)
        self.estimates = np.zeros((gst.N_LEVELS * gst.N_EST, gst.H_WIDTH), np.int64)
        self.position = PositionSums()

    def add(self, d: dict, n: int) -> None:
        from bower.analysis.stream import Bad, require_trump
        from bower.sim.records_vector import popcount

        maker, bid, trump, swap, dealer = d["maker"], d["bid"], d["trump"], d["swap"], d["dealer"]
        played = maker >= 0
        bad = played & ((bid < 3) | (bid > 6))
        if bad.any():
            i = int(np.argmax(bad))
            raise Bad(i, "bid", f"is {int(bid[i]) if bid[i] >= 0 else None!r}, not 3, 4, 5 or 6 (a moon) for a hand with a maker")
        require_trump(maker, trump)
        deal = np.stack([d["deal.0"], d["deal.1"], d["deal.2"]], axis=1)
        tricks = np.stack([d[f"tricks.{s}"] for s in range(3)], axis=1)
        points = np.stack([d[f"points.{s}"] for s in range(3)], axis=1)
        self.position.add(dealer, points, tricks, maker)
        rows = np.nonzero(played)[0]
        if not len(rows):
            return
        m, t, b = maker[rows], trump[rows], bid[rows]
        hand = np.where(swap[rows] == m, d["deal.ghost"][rows], deal[rows, m])
        right = np.int64(1) << (t * 6 + 2)
        left = np.int64(1) << ((t ^ 1) * 6 + 2)
        trumps = popcount(hand & (_SUIT[t] | left))
        bowers = popcount(hand & (right | left))
        aces = popcount(hand & _ACES & ~_SUIT[t])
        made = (tricks[rows, m] >= b).astype(np.int64)
        pts = points[rows, m]
        level = b - 3
        pos = (m - dealer[rows] + 2) % 3
        cell = (((level * gst.N_POS + pos) * gst.N_TRUMPS + trumps) * gst.N_BOWERS + bowers) * gst.N_ACES + aces
        sums = np.stack([np.ones_like(made), made, pts, pts * pts], axis=1)
        self.bids += _cell_sums(cell, sums, gst.N_BID_CELLS)
        est = _estimates_of(hand, t, self.vec)
        bucket = np.clip(np.floor(est / gst.EST_STEP).astype(np.int64), 0, gst.N_EST - 1)
        self.estimates += _cell_sums(level * gst.N_EST + bucket, sums, gst.N_LEVELS * gst.N_EST)

    def result(self) -> tuple[dict, list]:
        return table_set(self.bids, self.estimates, self.position.frame()), list(SHOWN)
