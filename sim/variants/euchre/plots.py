"""Standard Euchre's report plots (``PLOTS``: file name -> caption), drawn with ``bower.analysis.report_plots``.

``draw_plots(tables, folder)`` (``Variant.draw_plots``) draws them from the
report's tables and returns the notes under them.
"""

from __future__ import annotations

import pandas as pd

from bower.analysis import report_plots as rp

PLOTS = {
    "order_up.png": "Round-one make rate by up-card rank and position",
    "by_trumps.png": "Make rate by trumps in the maker's dealt hand",
    "dealer_side.png": "The value of dealing: points per hand of the dealer's side and the other side",
}


def order_up(tables: dict, path: str) -> str:
    """Round-one make rate by up-card and position; cells of 20+ hands."""
    return rp.order_up_plot(tables, path, {1: "position 1 (dealer's left)", 2: "position 2 (dealer's partner)",
                                           3: "position 3", 4: "position 4 (dealer)"}, 20)


def by_trumps(tables: dict, path: str) -> str:
    """Make rate by trumps in the maker's dealt hand, round one and two set apart, 95% intervals."""
    fig, ax = rp.figure()
    bt = tables.get("by_trumps")
    shown, dropped = [], 0
    if bt is not None and len(bt):
        groups = list(bt.groupby("round"))
        for (rnd, g), dx, c in zip(groups, rp.offsets(len(groups), 0.16), rp.COLORS):
            dropped += int(((g["hands"] > 0) & (g["hands"] < 20)).sum())
            g = g[g["hands"] >= 20]
            if len(g):
                rp.errorbar(ax, g["trumps"] + dx, g, "make_rate", "make_low", "make_high", c,
                            f"round {rnd}" + (" (ordered up)" if rnd == 1 else " (named)"))
                shown.append(g)
    if shown:
        s = pd.concat(shown)
        ax.set_xticks(range(int(s["trumps"].min()), int(s["trumps"].max()) + 1))
        rp.set_ylim(ax, rp.y_limits(s["make_low"], s["make_high"], rate=True), rate=True)
        ax.set_xlabel("trumps in the maker's five dealt cards (bowers counted)")
        ax.set_ylabel("make rate\n(95% interval)")
        rp.legend(fig, ax)
    else:
        rp.nothing(ax, "no trump count with 20+ makers")
    rp.save(fig, path)
    return rp.left_out(dropped, 20)


def dealer_side(tables: dict, path: str) -> str:
    """Points per hand of the dealer's side and the other side, 95% intervals."""
    fig, ax = rp.figure()
    ds = tables.get("dealer_side")
    if ds is None or len(ds) < 2:
        rp.nothing(ax, "no hands in this run")
    else:
        ds = ds.iloc[:2]
        labels = [f"{s}\n{rp.count(h)} hands" for s, h in zip(ds["side"], ds["hands"])]
        rp.bar_intervals(ax, labels, ds["points_per_hand"], ds["points_low"], ds["points_high"])
        rp.set_ylim(ax, rp.y_limits(ds["points_low"], ds["points_high"], bars=True), rate=False)
        ax.set_ylabel("mean points per hand dealt\n(95% interval)")
    rp.save(fig, path)
    return ""


DRAW = {
    "order_up.png": order_up,
    "by_trumps.png": by_trumps,
    "dealer_side.png": dealer_side,
}


def draw_plots(tables: dict, folder: str) -> dict[str, str]:
    """Draw the report's plots (``PLOTS``) from ``tables`` into ``folder``; the notes under them, by file name."""
    return rp.draw_all(DRAW, tables, folder)
