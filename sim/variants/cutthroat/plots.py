"""Cutthroat's report plots (``PLOTS``: file name -> caption), drawn with ``bower.analysis.report_plots``.

``draw_plots(tables, folder)`` (``Variant.draw_plots``) draws them from the
report's tables and returns the notes under them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from bower.analysis import report_plots as rp

PLOTS = {
    "order_up.png": "Round-one make rate by up-card rank and position",
    "dummy_value.png": "Make rate by the maker's own strength: with the dummy and alone",
    "points_by_position.png": "Points per hand by position",
}


def order_up(tables: dict, path: str) -> str:
    """Round-one make rate by up-card and position; cells of 20+ hands."""
    return rp.order_up_plot(tables, path, {1: "position 1 (dealer's left)", 3: "position 3 (dealer)"}, 20)


def dummy_value(tables: dict, path: str) -> str:
    """Make rate by the maker's own strength, with the dummy and alone; the strengths where both were seen shaded."""
    fig, ax = rp.figure()
    dv = tables.get("dummy_value")
    least = 30
    shown = []
    if dv is not None and len(dv):
        for who, c, label in (("dummy", rp.COLORS[0], "took the dummy"), ("alone", rp.COLORS[1], "went alone")):
            g = dv[dv[f"{who}_hands"] >= least]
            if len(g):
                ax.plot(g["estimate"], g[f"{who}_make_rate"], marker="o", ms=4, color=c, label=label)
                ax.fill_between(g["estimate"], g[f"{who}_make_low"], g[f"{who}_make_high"], alpha=0.2, color=c, lw=0)
                shown += [g[f"{who}_make_low"], g[f"{who}_make_high"]]
        both = dv[(dv["dummy_hands"] >= least) & (dv["alone_hands"] >= least)]
    else:
        both = None
    if not shown:
        rp.nothing(ax, f"no strength with {least}+ makers")
        rp.save(fig, path)
        return ""
    step = float(np.diff(np.sort(dv["estimate"].unique())).min()) if dv["estimate"].nunique() > 1 else 0.5
    for e in both["estimate"] if both is not None else []:
        ax.axvspan(e - step / 2, e + step / 2, color="#f2d16b", alpha=0.35, lw=0,
                   label="both seen" if e == both["estimate"].iloc[0] else None)
    rp.set_ylim(ax, rp.y_limits(pd.concat(shown[0::2]), pd.concat(shown[1::2]), rate=True), rate=True)
    ax.set_xlabel("strategy's trick estimate of the maker's own five cards (bucket start)")
    ax.set_ylabel("make rate\n(95% interval shaded)")
    rp.legend(fig, ax)
    rp.save(fig, path)
    dummy = dv[dv["dummy_hands"] > 0]["estimate"]
    alone = dv[dv["alone_hands"] > 0]["estimate"]
    if both is not None and len(both):
        where = ", ".join(f"{e:g} ({rp.count(d)} with the dummy, {rp.count(a)} alone)"
                          for e, d, a in zip(both["estimate"], both["dummy_hands"], both["alone_hands"]))
        return (f"Like with like only where both were seen ({least}+ makers each, shaded): strength {where}. "
                "Elsewhere the strategy always or never goes alone, so the two lines are different hands.")
    span = (f"the dummy was taken from {dummy.min():g} to {dummy.max():g}, lone makers from {alone.min():g} to "
            f"{alone.max():g}" if len(dummy) and len(alone) else "one of the two was never seen")
    return (f"No strength has {least}+ makers both with the dummy and alone ({span}): the strategy decides by "
            "strength, so the lines show different hands and do not measure the dummy's worth.")


def positions(tables: dict, path: str) -> str:
    """Points per hand by position (1 = dealer's left, 3 = dealer)."""
    return rp.position_plot(tables, path, {1: "dealer's left", 3: "dealer"})


DRAW = {
    "order_up.png": order_up,
    "dummy_value.png": dummy_value,
    "points_by_position.png": positions,
}


def draw_plots(tables: dict, folder: str) -> dict[str, str]:
    """Draw the report's plots (``PLOTS``) from ``tables`` into ``folder``; the notes under them, by file name."""
    return rp.draw_all(DRAW, tables, folder)
