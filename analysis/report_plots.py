"""What every report plot shares (matplotlib PNGs drawn to fit the page: nothing clipped, nothing over the data).

Each variant draws its own plots (``sim/variants/NAME/plots.py``: its
``PLOTS``, file name -> caption, and ``draw_plots``, the ``Variant`` field)
with the helpers here; this module names no variant. Every plot:

- has no title of its own (the page's heading above it is the caption);
- takes its y limits from the data it shows, error bars and bands included,
  with a margin, so no line or bar runs off the axes (bars keep 0 in view):
  ``y_limits`` and ``set_ylim``;
- puts counts in the tick labels (``count``) and the legend below the axes
  (``legend``), never over the data; series at the same x are set a little
  apart (``offsets``) so their bars do not overlap;
- says on the plot when it has nothing to show (``nothing``).

A plot is a function ``(tables, path) -> note`` that draws on ``figure()``,
writes the PNG with ``save`` and returns the note that goes under it ("" for
none: which cells were left out, what a comparison can and cannot show).
``draw_all`` draws a variant's plots into a folder. Shared plots:
``position_plot`` (points by position), ``order_up_plot`` (round-one make
rate by up-card) and ``dd_make_rate`` (played against double dummy, the plot
``bower.analysis.dd.PLOTS`` names, added to every variant's report).

``drawer(variant, with_dd)`` returns ``(plots, draw)`` for
``bower.analysis.report.write_report``: the variant's ``plots`` and ``draw_plots``,
with the double-dummy plot after them.
"""

from __future__ import annotations

import os
from typing import Callable

import numpy as np
import pandas as pd

FIGSIZE = (8.0, 3.8)  # inches; shown at most 800 px wide on the page
DPI = 150  # 1200 px wide: sharp on the page at 800 px and on a high-density screen
RANKS = ["9", "T", "J", "Q", "K", "A"]  # the up-card ranks, low to high, as the order-up tables spell them
COLORS = ["#3b6ea5", "#d1762c", "#4f9a59", "#b8474b", "#7c63a8", "#8c6d31"]  # the series' colours, in order

Plot = Callable[[dict, str], str]  # (tables, path of the PNG) -> the note under the plot ("" for none)


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def figure():
    """``(fig, ax)``: a figure of the page's size with constrained layout (room for the labels and the legend below)."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=FIGSIZE, layout="constrained")
    ax.grid(alpha=0.3)
    ax.set_axisbelow(True)
    return fig, ax


def save(fig, path: str) -> None:
    """Write ``fig`` as the PNG ``path`` at the page's resolution and close it."""
    fig.savefig(path, dpi=DPI)
    _plt().close(fig)


def legend(fig, ax) -> None:
    """The legend below the plot, in as many columns as fit, when there is anything to name."""
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        ncols = min(len(handles), 4)
        while ncols > 1 and sum(len(x) for x in labels[:ncols]) > 70:  # a row that fits the plot's width
            ncols -= 1
        fig.legend(handles, labels, loc="outside lower center", ncols=ncols, frameon=False)


def nothing(ax, text: str) -> None:
    """Say ``text`` in the middle of empty axes (no ticks): the plot has nothing to show."""
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


def set_ylim(ax, lim, rate: bool) -> None:
    """Set the y limits ``lim`` (from ``y_limits``; None: leave them); ``rate``: ticks as percentages."""
    if lim is not None:
        ax.set_ylim(*lim)
    if rate:
        from matplotlib.ticker import PercentFormatter

        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))


def _err(v: pd.DataFrame, col: str, low: str, high: str):
    return [(v[col] - v[low]).clip(lower=0).to_numpy(), (v[high] - v[col]).clip(lower=0).to_numpy()]


def offsets(k: int, width: float = 0.36) -> list[float]:
    """X shifts for ``k`` series drawn at the same x, so their error bars stand apart (``width`` between the ends)."""
    if k <= 1:
        return [0.0] * k
    return [(i - (k - 1) / 2) * width / (k - 1) for i in range(k)]


def errorbar(ax, x, g, col, low, high, color, label, **kw):
    """Points ``g[col]`` at ``x`` with error bars from ``g[low]`` to ``g[high]`` (``kw``: more for ``ax.errorbar``)."""
    ax.errorbar(x, g[col], yerr=_err(g, col, low, high), marker="o", ms=4, capsize=3, lw=1.4, color=color,
                label=label, **kw)


def count(n) -> str:
    """A count for a label: ``8103.0`` -> ``8,103`` (the report's own count format)."""
    from bower.analysis.report_format import fmt_count

    return fmt_count(n)


def left_out(n: int, least: int, what: str = "hands") -> str:
    """The note for ``n`` cells left out of a plot for having fewer than ``least`` ``what`` ("" when none)."""
    return f"{n} cell{'s' if n != 1 else ''} with fewer than {least} {what} left out." if n else ""


def bar_intervals(ax, labels, values, lows, highs, color="#8fbf7f"):
    """Bars of ``values`` with 95% interval whiskers (``lows`` .. ``highs``), ``labels`` under them."""
    x = np.arange(len(labels))
    err = [(values - lows).clip(lower=0).to_numpy(), (highs - values).clip(lower=0).to_numpy()]
    ax.bar(x, values, yerr=err, capsize=5, color=color, width=0.6, error_kw={"lw": 1.2})
    ax.set_xticks(x, labels)
    ax.grid(alpha=0.3, axis="y")
    ax.grid(False, axis="x")


def draw_all(draws: dict[str, Plot], tables: dict, folder: str) -> dict[str, str]:
    """Draw each plot of ``draws`` (file name -> plot) into ``folder``, in order; the notes that are not empty."""
    notes = {fname: fn(tables, os.path.join(folder, fname)) for fname, fn in draws.items()}
    return {k: n for k, n in notes.items() if n}


# ---- shared plots ------------------------------------------------------------------------------


def position_plot(tables: dict, path: str, names: dict | None = None) -> str:
    """Mean points per hand by position (``tables["position"]``) with 95% intervals, hands in the tick labels.

    ``names``: position -> what it is, added to its label ({3: "dealer"}).
    """
    fig, ax = figure()
    pos = tables.get("position")
    note = ""
    if pos is None or not len(pos):
        nothing(ax, "no positions in this run")
    else:
        names = names or {}
        labels = [f"{p}{' (' + names[int(p)] + ')' if int(p) in names else ''}\n{count(h)} hands"
                  for p, h in zip(pos["position"], pos["hands"])]
        bar_intervals(ax, labels, pos["points_per_hand"], pos["points_low"], pos["points_high"])
        set_ylim(ax, y_limits(pos["points_low"], pos["points_high"], bars=True), rate=False)
        ax.set_xlabel("position")
        ax.set_ylabel("mean points per hand\n(95% interval)")
    save(fig, path)
    return note


def order_up_plot(tables: dict, path: str, names: dict, least: int) -> str:
    """Round-one make rate by up-card rank (``tables["order_up"]``), one series per position, 95% intervals.

    Cells of ``least``+ hands are drawn (the note counts the others);
    ``names``: position -> its legend label.
    """
    fig, ax = figure()
    ou = tables.get("order_up")
    shown, dropped = [], 0
    if ou is not None and len(ou):
        groups = list(ou.groupby("position"))
        for (pos, g), dx, c in zip(groups, offsets(len(groups)), COLORS):
            dropped += int(((g["hands"] > 0) & (g["hands"] < least)).sum())
            g = g[g["hands"] >= least]
            if len(g):
                # every rank in order, a left-out one empty, so the line breaks there instead of bridging it
                full = g.assign(rank=[RANKS.index(str(u)) for u in g["upcard"]]).set_index("rank")
                full = full[["make_rate", "make_low", "make_high"]].astype(float).reindex(range(len(RANKS)))
                errorbar(ax, np.arange(len(RANKS)) + dx, full, "make_rate", "make_low", "make_high", c,
                         names.get(int(pos), f"position {pos}"))
                shown.append(g)
    if shown:
        s = pd.concat(shown)
        ax.set_xticks(range(6), RANKS)
        ax.set_xlim(-0.5, 5.5)
        set_ylim(ax, y_limits(s["make_low"], s["make_high"], rate=True), rate=True)
        ax.set_xlabel("up-card rank")
        ax.set_ylabel("make rate\n(95% interval)")
        legend(fig, ax)
    else:
        nothing(ax, f"no up-card with {least}+ hands ordered up")
    save(fig, path)
    return left_out(dropped, least)


def dd_make_rate(tables: dict, path: str) -> str:
    """Played and double-dummy (par) make rate by trumps held by the maker's side, 95% intervals."""
    from bower.analysis.dd import MIN_PLOT_HANDS

    fig, ax = figure()
    st = tables.get("dd_by_strength")
    dropped = 0
    if st is not None:
        dropped = int(((st["hands"] > 0) & (st["hands"] < MIN_PLOT_HANDS)).sum())
        st = st[st["hands"] >= MIN_PLOT_HANDS]
    if st is not None and len(st):
        series = (("make_rate", "make_low", "make_high", "-", "played (the strategy)"),
                  ("par_rate", "par_low", "par_high", "--", "double dummy (par)"))
        for (col, lo, hi, style, label), dx, c in zip(series, offsets(2, 0.16), COLORS):
            errorbar(ax, st["trumps"] + dx, st, col, lo, hi, c, label, linestyle=style)
        ax.set_xticks(range(int(st["trumps"].min()), int(st["trumps"].max()) + 1))
        set_ylim(ax, y_limits(pd.concat([st["make_low"], st["par_low"]]), pd.concat([st["make_high"], st["par_high"]]),
                              rate=True), rate=True)
        ax.set_xlabel("trumps held by the maker's side at the first lead (bowers counted)")
        ax.set_ylabel("make rate\n(95% interval)")
        legend(fig, ax)
    else:
        nothing(ax, f"no strength with {MIN_PLOT_HANDS}+ hands solved")
    save(fig, path)
    return left_out(dropped, MIN_PLOT_HANDS)


def drawer(v, with_dd: bool = False) -> tuple[dict[str, str], Callable[[dict, str], dict[str, str]]]:
    """``(plots, draw)`` for ``write_report``: the variant's plots (and the dd plot after them, ``with_dd``).

    ``draw(tables, folder)`` has the variant draw its own (``v.draw_plots``),
    then draws the dd plot, and returns the notes under the plots.
    """
    from bower.analysis import dd

    plots = {**v.plots, **(dd.PLOTS if with_dd else {})}

    def draw(tables: dict, folder: str) -> dict[str, str]:
        notes = dict(v.draw_plots(tables, folder) or {})
        if with_dd:
            notes.update(draw_all({dd.PLOT: dd_make_rate}, tables, folder))
        return {k: n for k, n in notes.items() if n}

    return plots, draw
