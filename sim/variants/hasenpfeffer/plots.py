"""Hasenpfeffer's report plots (``PLOTS``: file name -> caption), drawn with ``bower.analysis.report_plots``.

``draw_plots(tables, folder)`` (``Variant.draw_plots``) draws them from the
report's tables and returns the notes under them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bower.analysis import report_plots as rp

PLOTS = {
    "make_by_bid.png": "Make rate by contract and where the joker was dealt",
    "widow_value.png": "The widow's value by the card it was",
    "sides.png": "Game win share by side",
}


def make_by_bid(tables: dict, path: str) -> str:
    """Make rate by contract, one series per place the joker was dealt, 95% intervals; cells of 30+ hands."""
    fig, ax = rp.figure()
    bj = tables.get("by_joker")
    shown, dropped = [], 0
    bids = []
    if bj is not None and len(bj):
        cats = bj["bid"].cat.categories if isinstance(bj["bid"].dtype, pd.CategoricalDtype) else sorted(bj["bid"].unique())
        bids = [str(b) for b in cats if (bj["bid"].astype(str) == str(b)).any()]
        groups = list(bj.groupby("joker", observed=True, sort=False))
        for (place, g), dx, c in zip(groups, rp.offsets(len(groups), 0.42), rp.COLORS):
            dropped += int(((g["hands"] > 0) & (g["hands"] < 30)).sum())
            g = g[g["hands"] >= 30]
            if len(g):
                x = np.array([bids.index(str(b)) for b in g["bid"]]) + dx
                rp.errorbar(ax, x, g, "make_rate", "make_low", "make_high", c, f"joker: {place}", ls="none")
                shown.append(g)
    if shown:
        s = pd.concat(shown)
        ax.set_xticks(range(len(bids)), bids)
        ax.set_xlim(-0.5, len(bids) - 0.5)
        rp.set_ylim(ax, rp.y_limits(s["make_low"], s["make_high"], rate=True), rate=True)
        ax.set_xlabel("contract")
        ax.set_ylabel("make rate\n(95% interval)")
        rp.legend(fig, ax)
    else:
        rp.nothing(ax, "no contract with 30+ hands")
    rp.save(fig, path)
    return rp.left_out(dropped, 30)


def widow_value(tables: dict, path: str) -> str:
    """The mean rise of the bidder's trick estimate by the widow card, hands in the tick labels."""
    fig, ax = rp.figure()
    wv = tables.get("widow_value")
    if wv is None or not len(wv):
        rp.nothing(ax, "no widow taken in this run")
    else:
        labels = [f"{w}\n{rp.count(h)} hands" for w, h in zip(wv["widow"].astype(str), wv["hands"])]
        x = np.arange(len(labels))
        ax.bar(x, wv["mean_gain"], color="#6a8caf", width=0.6)
        ax.set_xticks(x, labels)
        ax.grid(False, axis="x")
        rp.set_ylim(ax, rp.y_limits(wv["mean_gain"], wv["mean_gain"], bars=True), rate=False)
        ax.set_xlabel("the widow card (for the trump named)")
        ax.set_ylabel("mean rise of the bidder's\ntrick estimate")
    rp.save(fig, path)
    return ""


def sides(tables: dict, path: str) -> str:
    """Game win share of each side, 95% intervals, with the even line."""
    fig, ax = rp.figure()
    sd = tables.get("sides")
    if sd is None or not len(sd):
        rp.nothing(ax, "no games in this run")
    else:
        rp.bar_intervals(ax, list(sd["side"]), sd["win_share"], sd["win_low"], sd["win_high"])
        ax.axhline(0.5, color="grey", ls="--", lw=1)
        rp.set_ylim(ax, rp.y_limits(sd["win_low"], sd["win_high"], rate=True, bars=True), rate=True)
        ax.set_ylabel("share of games won\n(95% interval)")
    rp.save(fig, path)
    return ""


DRAW = {
    "make_by_bid.png": make_by_bid,
    "widow_value.png": widow_value,
    "sides.png": sides,
}


def draw_plots(tables: dict, folder: str) -> dict[str, str]:
    """Draw the report's plots (``PLOTS``) from ``tables`` into ``folder``; the notes under them, by file name."""
    return rp.draw_all(DRAW, tables, folder)
