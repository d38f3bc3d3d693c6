"""The report's plots (matplotlib PNGs), drawn to fit the page: nothing clipped, nothing printed over the data.

One function per plot, by variant and file name (the names and captions
are the variant's ``plots``, and ``analysis.dd.PLOTS``). Every plot:

- has no title of its own (the page's heading above it is the caption);
- takes its y limits from the data it shows, error bars and bands included,
  with a margin, so no line or bar runs off the axes (bars keep 0 in view);
- puts counts in the tick labels and the legend below the axes, never over
  the data; series at the same x are set a little apart so their bars do
  not overlap;
- says on the plot when it has nothing to show.

``drawer(variant, with_dd)`` returns ``(plots, draw)`` for
``analysis.report.write_report``; ``draw(tables, folder)`` writes the PNGs
and returns a note for the plots that need one under them (which cells
were left out, what a comparison can and cannot show).
"""

from __future__ import annotations

import os
from typing import Callable

import numpy as np
import pandas as pd

FIGSIZE = (8.0, 3.8)  # inches; shown at most 800 px wide on the page
DPI = 150  # 1200 px wide: sharp on the page at 800 px and on a high-density screen
RANKS = ["9", "T", "J", "Q", "K", "A"]
COLORS = ["#3b6ea5", "#d1762c", "#4f9a59", "#b8474b", "#7c63a8", "#8c6d31"]


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _fig():
    """A figure of the page's size with constrained layout (room for the labels and the legend below)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=FIGSIZE, layout="constrained")
    ax.grid(alpha=0.3)
    ax.set_axisbelow(True)
    return fig, ax


def _save(fig, path: str) -> None:
    fig.savefig(path, dpi=DPI)
    _plt().close(fig)


def _legend(fig, ax) -> None:
    """The legend below the plot, in as many columns as fit, when there is anything to name."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        ncols = min(len(handles), 4)
        while ncols > 1 and sum(len(x) for x in labels[:ncols]) > 70:  # a row that fits the plot's width
            ncols -= 1
        fig.legend(handles, labels, loc="outside lower center", ncols=ncols, frameon=False)


def _nothing(ax, text: str) -> None:
    ax.text(0.5, 0.5, text, ha="center", va="center", transform=ax.transAxes, color="#555")
    ax.set_xticks([])
    ax.set_yticks([])


def _finite(values) -> np.ndarray:
    a = np.asarray(pd.to_numeric(pd.Series(list(values)), errors="coerce"), dtype=float)
    return a[np.isfinite(a)]


def y_limits(lows, highs, rate: bool = False, bars: bool = False, extra=()) -> tuple[float, float] | None:
    """Y limits that show every value from ``lows`` to ``highs`` (and ``extra``) with a margin.

    Rates stay within a little of [0, 1]; bars keep 0 in view. None when
    there is nothing finite to show.
    """
    lo_v, hi_v = _finite(lows), _finite(highs)
    ex = _finite(extra)
    if not len(lo_v) and not len(hi_v):
        return None
    lo = min(np.min(lo_v) if len(lo_v) else np.inf, np.min(ex) if len(ex) else np.inf)
    hi = max(np.max(hi_v) if len(hi_v) else -np.inf, np.max(ex) if len(ex) else -np.inf)
    if bars:
        lo, hi = min(lo, 0.0), max(hi, 0.0)
    span = hi - lo
    pad = 0.06 * span if span > 0 else (0.05 if rate else max(0.5, abs(hi) * 0.1))
    y_lo, y_hi = lo - pad, hi + pad
    if bars and lo >= 0:
        y_lo = 0.0  # bars rise from the axis
    if bars and hi <= 0:
        y_hi = 0.0
    if rate:
        y_lo, y_hi = max(y_lo, -0.03), min(y_hi, 1.03)
    lo, hi = y_lo, y_hi
    return float(lo), float(hi)


def _set_ylim(ax, lim, rate: bool) -> None:
    if lim is not None:
        ax.set_ylim(*lim)
    if rate:
        from matplotlib.ticker import PercentFormatter

        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))


def _err(v: pd.DataFrame, col: str, low: str, high: str):
    return [(v[col] - v[low]).clip(lower=0).to_numpy(), (v[high] - v[col]).clip(lower=0).to_numpy()]


def _offsets(k: int, width: float = 0.36) -> list[float]:
    """X shifts for ``k`` series drawn at the same x, so their error bars stand apart."""
    if k <= 1:
        return [0.0] * k
    return [(i - (k - 1) / 2) * width / (k - 1) for i in range(k)]


def _errorbar(ax, x, g, col, low, high, color, label, **kw):
    ax.errorbar(x, g[col], yerr=_err(g, col, low, high), marker="o", ms=4, capsize=3, lw=1.4, color=color,
                label=label, **kw)


def _n(count) -> str:
    """A count for a label: ``8103.0`` -> ``8,103`` (the report's own count format)."""
    from analysis.report_format import fmt_count

    return fmt_count(count)


def _left_out(n: int, least: int, what: str = "hands") -> str:
    return f"{n} cell{'s' if n != 1 else ''} with fewer than {least} {what} left out." if n else ""


# ---- shared plots ------------------------------------------------------------------------------


def _bar_intervals(ax, labels, values, lows, highs, color="#8fbf7f"):
    x = np.arange(len(labels))
    err = [(values - lows).clip(lower=0).to_numpy(), (highs - values).clip(lower=0).to_numpy()]
    ax.bar(x, values, yerr=err, capsize=5, color=color, width=0.6, error_kw={"lw": 1.2})
    ax.set_xticks(x, labels)
    ax.grid(alpha=0.3, axis="y")
    ax.grid(False, axis="x")


def position_plot(tables: dict, path: str, names: dict | None = None) -> str:
    """Mean points per hand by position (``tables["position"]``) with 95% intervals, hands in the tick labels."""
    fig, ax = _fig()
    pos = tables.get("position")
    note = ""
    if pos is None or not len(pos):
        _nothing(ax, "no positions in this run")
    else:
        names = names or {}
        labels = [f"{p}{' (' + names[int(p)] + ')' if int(p) in names else ''}\n{_n(h)} hands"
                  for p, h in zip(pos["position"], pos["hands"])]
        _bar_intervals(ax, labels, pos["points_per_hand"], pos["points_low"], pos["points_high"])
        _set_ylim(ax, y_limits(pos["points_low"], pos["points_high"], bars=True), rate=False)
        ax.set_xlabel("position")
        ax.set_ylabel("mean points per hand\n(95% interval)")
    _save(fig, path)
    return note


# ---- Ghost Hand ---------------------------------------------------------------------------------


def ghost_make_rate(tables: dict, path: str) -> str:
    """Make rate by the maker's trick estimate, one line per bid, 95% bands; buckets of 30+ hands."""
    fig, ax = _fig()
    est = tables.get("bid_by_estimate")
    shown, dropped = [], 0
    if est is not None:
        for i, (level, g) in enumerate(est.groupby("bid", sort=False, observed=True)):
            dropped += int(((g["hands"] > 0) & (g["hands"] < 30)).sum())
            g = g[g["hands"] >= 30]
            if len(g):
                c = COLORS[i % len(COLORS)]
                ax.plot(g["estimate"], g["make_rate"], marker="o", ms=3, color=c, label=f"bid {level}")
                ax.fill_between(g["estimate"], g["make_low"], g["make_high"], alpha=0.2, color=c, lw=0)
                shown.append(g)
    if shown:
        s = pd.concat(shown)
        _set_ylim(ax, y_limits(s["make_low"], s["make_high"], rate=True), rate=True)
        ax.set_xlabel("strategy's trick estimate of the maker's hand (bucket start)")
        ax.set_ylabel("make rate\n(95% interval shaded)")
        _legend(fig, ax)
    else:
        _nothing(ax, "no estimate bucket with 30+ hands")
    _save(fig, path)
    return _left_out(dropped, 30)


def ghost_swap_value(tables: dict, path: str) -> str:
    """Points gained by swapping, by the strength given up, per position, 95% bands, with the break-even line."""
    from kernels.ghost import stats as gst
    from sim.variants.ghost import tables as gt

    fig, ax = _fig()
    sw = tables.get("swap_value_by_position")
    shown, dropped, flat = [], 0, []
    if sw is not None:
        for i, (pos, g) in enumerate(sw.groupby("position")):
            dropped += int(((g["decisions"] > 0) & (g["decisions"] < 100)).sum())
            g = g[g["decisions"] >= 100]
            if not len(g):
                continue
            if (g[["gain_points", "gain_low", "gain_high"]].abs().to_numpy() == 0).all():
                flat.append(str(pos))  # the swap changed nothing here: no line to draw
                continue
            c = COLORS[i % len(COLORS)]
            x = g["strength"] + gst.EST_STEP / 2
            ax.plot(x, g["gain_points"], marker="o", ms=3, color=c, label=f"position {pos}")
            ax.fill_between(x, g["gain_low"], g["gain_high"], alpha=0.2, color=c, lw=0)
            shown.append(g)
    notes = []
    wide = False
    if shown:
        s = pd.concat(shown)
        ax.axhline(0, color="black", lw=0.8)
        be = gt.break_even(tables["swap_value"]) if "swap_value" in tables else None
        if be is not None:
            ax.axvline(be, color="grey", ls="--", lw=1, label=f"break-even {be:.2f}")
        lim = y_limits(s["gain_low"], s["gain_high"], extra=[0])
        _set_ylim(ax, lim, rate=False)
        wide = lim is not None and lim[1] - lim[0] > 8
        if wide:  # a few strong hands lose a moon's worth: a log scale past 1 point keeps the break-even readable
            from matplotlib.ticker import FuncFormatter

            ax.set_yscale("symlog", linthresh=1, linscale=1.2)
            lim = tuple(x * 1.25 if abs(x) > 1 else x for x in lim)  # the margin, in the log part's terms
            ax.set_ylim(*lim)
            ax.set_yticks([t for t in (-100, -10, -1, -0.5, 0, 0.5, 1, 10, 100)
                           if lim[0] <= t <= lim[1]])
            ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}".replace("-", "\u2212")))
        ax.set_xlabel("strategy's best trick estimate of the hand given up (bucket midpoint)")
        scale = ";\nlog scale past \u00b11)" if wide else ")"
        ax.set_ylabel("points gained by swapping\n(95% interval shaded" + scale)
        _legend(fig, ax)
    else:
        _nothing(ax, "no strength with 100+ swap decisions")
    if shown and wide:
        notes.append("The scale is logarithmic beyond one point either way, so the few strong hands that lose a "
                     "moon's worth by swapping fit beside the break-even.")
    if flat:
        notes.append(f"Position {', '.join(flat)}: swapping and keeping scored the same on every deal (no line).")
    notes.append(_left_out(dropped, 100, "decisions"))
    _save(fig, path)
    return " ".join(n for n in notes if n)


def ghost_moon_odds(tables: dict, path: str) -> str:
    """Moons made / called by trumps held, 95% intervals, moons called in the tick labels."""
    fig, ax = _fig()
    moon = tables.get("moon_by_trumps")
    if moon is None or not len(moon):
        _nothing(ax, "no moon called in this run")
    else:
        labels = [f"{t} trumps\n{_n(n)} called" for t, n in zip(moon["trumps"], moon["moons_called"])]
        _bar_intervals(ax, labels, moon["make_rate"], moon["make_low"], moon["make_high"], color="#6a8caf")
        _set_ylim(ax, y_limits(moon["make_low"], moon["make_high"], rate=True, bars=True), rate=True)
        ax.set_xlabel("trumps in the moon caller's hand")
        ax.set_ylabel("moons made / called\n(95% interval)")
    _save(fig, path)
    return ""


def ghost_positions(tables: dict, path: str) -> str:
    """Ghost Hand's points by position (1 = dealer's left, 3 = dealer)."""
    return position_plot(tables, path, {1: "dealer's left", 3: "dealer"})


# ---- Cutthroat and Euchre ------------------------------------------------------------------------


def _order_up(tables: dict, path: str, names: dict, least: int) -> str:
    """Round-one make rate by up-card rank, one series per position, 95% intervals; cells of ``least``+ hands."""
    fig, ax = _fig()
    ou = tables.get("order_up")
    shown, dropped = [], 0
    if ou is not None and len(ou):
        groups = list(ou.groupby("position"))
        for (pos, g), dx, c in zip(groups, _offsets(len(groups)), COLORS):
            dropped += int(((g["hands"] > 0) & (g["hands"] < least)).sum())
            g = g[g["hands"] >= least]
            if len(g):
                # every rank in order, a left-out one empty, so the line breaks there instead of bridging it
                full = g.assign(rank=[RANKS.index(str(u)) for u in g["upcard"]]).set_index("rank")
                full = full[["make_rate", "make_low", "make_high"]].astype(float).reindex(range(len(RANKS)))
                _errorbar(ax, np.arange(len(RANKS)) + dx, full, "make_rate", "make_low", "make_high", c,
                          names.get(int(pos), f"position {pos}"))
                shown.append(g)
    if shown:
        s = pd.concat(shown)
        ax.set_xticks(range(6), RANKS)
        ax.set_xlim(-0.5, 5.5)
        _set_ylim(ax, y_limits(s["make_low"], s["make_high"], rate=True), rate=True)
        ax.set_xlabel("up-card rank")
        ax.set_ylabel("make rate\n(95% interval)")
        _legend(fig, ax)
    else:
        _nothing(ax, f"no up-card with {least}+ hands ordered up")
    _save(fig, path)
    return _left_out(dropped, least)


def cutthroat_order_up(tables: dict, path: str) -> str:
    """Cutthroat's round-one make rate by up-card and position."""
    return _order_up(tables, path, {1: "position 1 (dealer's left)", 3: "position 3 (dealer)"}, 20)


def cutthroat_dummy_value(tables: dict, path: str) -> str:
    """Make rate by the maker's own strength, with the dummy and alone; the strengths where both were seen shaded."""
    fig, ax = _fig()
    dv = tables.get("dummy_value")
    least = 30
    shown = []
    if dv is not None and len(dv):
        for who, c, label in (("dummy", COLORS[0], "took the dummy"), ("alone", COLORS[1], "went alone")):
            g = dv[dv[f"{who}_hands"] >= least]
            if len(g):
                ax.plot(g["estimate"], g[f"{who}_make_rate"], marker="o", ms=4, color=c, label=label)
                ax.fill_between(g["estimate"], g[f"{who}_make_low"], g[f"{who}_make_high"], alpha=0.2, color=c, lw=0)
                shown += [g[f"{who}_make_low"], g[f"{who}_make_high"]]
        both = dv[(dv["dummy_hands"] >= least) & (dv["alone_hands"] >= least)]
    else:
        both = None
    if not shown:
        _nothing(ax, f"no strength with {least}+ makers")
        _save(fig, path)
        return ""
    step = float(np.diff(np.sort(dv["estimate"].unique())).min()) if dv["estimate"].nunique() > 1 else 0.5
    for e in both["estimate"] if both is not None else []:
        ax.axvspan(e - step / 2, e + step / 2, color="#f2d16b", alpha=0.35, lw=0,
                   label="both seen" if e == both["estimate"].iloc[0] else None)
    _set_ylim(ax, y_limits(pd.concat(shown[0::2]), pd.concat(shown[1::2]), rate=True), rate=True)
    ax.set_xlabel("strategy's trick estimate of the maker's own five cards (bucket start)")
    ax.set_ylabel("make rate\n(95% interval shaded)")
    _legend(fig, ax)
    _save(fig, path)
    dummy = dv[dv["dummy_hands"] > 0]["estimate"]
    alone = dv[dv["alone_hands"] > 0]["estimate"]
    if both is not None and len(both):
        where = ", ".join(f"{e:g} ({_n(d)} with the dummy, {_n(a)} alone)"
                          for e, d, a in zip(both["estimate"], both["dummy_hands"], both["alone_hands"]))
        return (f"Like with like only where both were seen ({least}+ makers each, shaded): strength {where}. "
                "Elsewhere the strategy always or never goes alone, so the two lines are different hands.")
    span = (f"the dummy was taken from {dummy.min():g} to {dummy.max():g}, lone makers from {alone.min():g} to "
            f"{alone.max():g}" if len(dummy) and len(alone) else "one of the two was never seen")
    return (f"No strength has {least}+ makers both with the dummy and alone ({span}): the strategy decides by "
            "strength, so the lines show different hands and do not measure the dummy's worth.")


def euchre_order_up(tables: dict, path: str) -> str:
    """Euchre's round-one make rate by up-card and position."""
    return _order_up(tables, path, {1: "position 1 (dealer's left)", 2: "position 2 (dealer's partner)",
                                    3: "position 3", 4: "position 4 (dealer)"}, 20)


def euchre_by_trumps(tables: dict, path: str) -> str:
    """Make rate by trumps in the maker's dealt hand, round one and two set apart, 95% intervals."""
    fig, ax = _fig()
    bt = tables.get("by_trumps")
    shown, dropped = [], 0
    if bt is not None and len(bt):
        groups = list(bt.groupby("round"))
        for (rnd, g), dx, c in zip(groups, _offsets(len(groups), 0.16), COLORS):
            dropped += int(((g["hands"] > 0) & (g["hands"] < 20)).sum())
            g = g[g["hands"] >= 20]
            if len(g):
                _errorbar(ax, g["trumps"] + dx, g, "make_rate", "make_low", "make_high", c,
                          f"round {rnd}" + (" (ordered up)" if rnd == 1 else " (named)"))
                shown.append(g)
    if shown:
        s = pd.concat(shown)
        ax.set_xticks(range(int(s["trumps"].min()), int(s["trumps"].max()) + 1))
        _set_ylim(ax, y_limits(s["make_low"], s["make_high"], rate=True), rate=True)
        ax.set_xlabel("trumps in the maker's five dealt cards (bowers counted)")
        ax.set_ylabel("make rate\n(95% interval)")
        _legend(fig, ax)
    else:
        _nothing(ax, "no trump count with 20+ makers")
    _save(fig, path)
    return _left_out(dropped, 20)


def euchre_dealer_side(tables: dict, path: str) -> str:
    """Points per hand of the dealer's side and the other side, 95% intervals."""
    fig, ax = _fig()
    ds = tables.get("dealer_side")
    if ds is None or len(ds) < 2:
        _nothing(ax, "no hands in this run")
    else:
        ds = ds.iloc[:2]
        labels = [f"{s}\n{_n(h)} hands" for s, h in zip(ds["side"], ds["hands"])]
        _bar_intervals(ax, labels, ds["points_per_hand"], ds["points_low"], ds["points_high"])
        _set_ylim(ax, y_limits(ds["points_low"], ds["points_high"], bars=True), rate=False)
        ax.set_ylabel("mean points per hand dealt\n(95% interval)")
    _save(fig, path)
    return ""


# ---- Hasenpfeffer -----------------------------------------------------------------------------


def hasenpfeffer_make_by_bid(tables: dict, path: str) -> str:
    """Make rate by contract, one series per place the joker was dealt, 95% intervals; cells of 30+ hands."""
    fig, ax = _fig()
    bj = tables.get("by_joker")
    shown, dropped = [], 0
    bids = []
    if bj is not None and len(bj):
        cats = bj["bid"].cat.categories if isinstance(bj["bid"].dtype, pd.CategoricalDtype) else sorted(bj["bid"].unique())
        bids = [str(b) for b in cats if (bj["bid"].astype(str) == str(b)).any()]
        groups = list(bj.groupby("joker", observed=True, sort=False))
        for (place, g), dx, c in zip(groups, _offsets(len(groups), 0.42), COLORS):
            dropped += int(((g["hands"] > 0) & (g["hands"] < 30)).sum())
            g = g[g["hands"] >= 30]
            if len(g):
                x = np.array([bids.index(str(b)) for b in g["bid"]]) + dx
                _errorbar(ax, x, g, "make_rate", "make_low", "make_high", c, f"joker: {place}", ls="none")
                shown.append(g)
    if shown:
        s = pd.concat(shown)
        ax.set_xticks(range(len(bids)), bids)
        ax.set_xlim(-0.5, len(bids) - 0.5)
        _set_ylim(ax, y_limits(s["make_low"], s["make_high"], rate=True), rate=True)
        ax.set_xlabel("contract")
        ax.set_ylabel("make rate\n(95% interval)")
        _legend(fig, ax)
    else:
        _nothing(ax, "no contract with 30+ hands")
    _save(fig, path)
    return _left_out(dropped, 30)


def hasenpfeffer_widow_value(tables: dict, path: str) -> str:
    """The mean rise of the bidder's trick estimate by the widow card, hands in the tick labels."""
    fig, ax = _fig()
    wv = tables.get("widow_value")
    if wv is None or not len(wv):
        _nothing(ax, "no widow taken in this run")
    else:
        labels = [f"{w}\n{_n(h)} hands" for w, h in zip(wv["widow"].astype(str), wv["hands"])]
        x = np.arange(len(labels))
        ax.bar(x, wv["mean_gain"], color="#6a8caf", width=0.6)
        ax.set_xticks(x, labels)
        ax.grid(False, axis="x")
        _set_ylim(ax, y_limits(wv["mean_gain"], wv["mean_gain"], bars=True), rate=False)
        ax.set_xlabel("the widow card (for the trump named)")
        ax.set_ylabel("mean rise of the bidder's\ntrick estimate")
    _save(fig, path)
    return ""


def hasenpfeffer_sides(tables: dict, path: str) -> str:
    """Game win share of each side, 95% intervals, with the even line."""
    fig, ax = _fig()
    sd = tables.get("sides")
    if sd is None or not len(sd):
        _nothing(ax, "no games in this run")
    else:
        _bar_intervals(ax, list(sd["side"]), sd["win_share"], sd["win_low"], sd["win_high"])
        ax.axhline(0.5, color="grey", ls="--", lw=1)
        _set_ylim(ax, y_limits(sd["win_low"], sd["win_high"], rate=True, bars=True), rate=True)
        ax.set_ylabel("share of games won\n(95% interval)")
    _save(fig, path)
    return ""


# ---- double dummy ------------------------------------------------------------------------------


def dd_make_rate(tables: dict, path: str) -> str:
    """Played and double-dummy (par) make rate by trumps held by the maker's side, 95% intervals."""
    from analysis.dd import MIN_PLOT_HANDS

    fig, ax = _fig()
    st = tables.get("dd_by_strength")
    dropped = 0
    if st is not None:
        dropped = int(((st["hands"] > 0) & (st["hands"] < MIN_PLOT_HANDS)).sum())
        st = st[st["hands"] >= MIN_PLOT_HANDS]
    if st is not None and len(st):
        series = (("make_rate", "make_low", "make_high", "-", "played (the strategy)"),
                  ("par_rate", "par_low", "par_high", "--", "double dummy (par)"))
        for (col, lo, hi, style, label), dx, c in zip(series, _offsets(2, 0.16), COLORS):
            _errorbar(ax, st["trumps"] + dx, st, col, lo, hi, c, label, linestyle=style)
        ax.set_xticks(range(int(st["trumps"].min()), int(st["trumps"].max()) + 1))
        _set_ylim(ax, y_limits(pd.concat([st["make_low"], st["par_low"]]), pd.concat([st["make_high"], st["par_high"]]),
                               rate=True), rate=True)
        ax.set_xlabel("trumps held by the maker's side at the first lead (bowers counted)")
        ax.set_ylabel("make rate\n(95% interval)")
        _legend(fig, ax)
    else:
        _nothing(ax, f"no strength with {MIN_PLOT_HANDS}+ hands solved")
    _save(fig, path)
    return _left_out(dropped, MIN_PLOT_HANDS)


DRAW: dict[tuple[str, str], Callable[[dict, str], str]] = {
    ("ghost", "make_rate_by_strength.png"): ghost_make_rate,
    ("ghost", "swap_value.png"): ghost_swap_value,
    ("ghost", "moon_odds.png"): ghost_moon_odds,
    ("ghost", "points_by_position.png"): ghost_positions,
    ("cutthroat", "order_up.png"): cutthroat_order_up,
    ("cutthroat", "dummy_value.png"): cutthroat_dummy_value,
    ("cutthroat", "points_by_position.png"): lambda t, p: position_plot(t, p, {1: "dealer's left", 3: "dealer"}),
    ("hasenpfeffer", "make_by_bid.png"): hasenpfeffer_make_by_bid,
    ("hasenpfeffer", "widow_value.png"): hasenpfeffer_widow_value,
    ("hasenpfeffer", "sides.png"): hasenpfeffer_sides,
    ("euchre", "order_up.png"): euchre_order_up,
    ("euchre", "by_trumps.png"): euchre_by_trumps,
    ("euchre", "dealer_side.png"): euchre_dealer_side,
}


def drawer(v, with_dd: bool = False) -> tuple[dict[str, str], Callable[[dict, str], dict[str, str]]]:
    """``(plots, draw)`` for ``write_report``: the variant's plots (and the dd plot), drawn by this module.

    A plot of the variant's that this module does not know is drawn by the
    variant's own ``draw_plots``.
    """
    from analysis import dd

    plots = {**v.plots, **(dd.PLOTS if with_dd else {})}

    def draw(tables: dict, folder: str) -> dict[str, str]:
        notes = {}
        own = {f: dd_make_rate if f == dd.PLOT else DRAW.get((v.name, f)) for f in plots}
        if any(fn is None for fn in own.values()):
            v.draw_plots(tables, folder)
        for fname, fn in own.items():
            if fn is not None:
                notes[fname] = fn(tables, os.path.join(folder, fname))
        return {k: n for k, n in notes.items() if n}

    return plots, draw
