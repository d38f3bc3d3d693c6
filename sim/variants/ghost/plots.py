"""Ghost Hand's report plots (``PLOTS``: file name -> caption), drawn with ``bower.analysis.report_plots``.

``draw_plots(tables, folder)`` (``Variant.draw_plots``) draws them from the
report's tables and returns the notes under them.
"""

from __future__ import annotations

import pandas as pd

from bower.analysis import report_plots as rp
from bower.kernels.ghost import stats as gst
from bower.sim.variants.ghost import tables as gt

PLOTS = {
    "make_rate_by_strength.png": "Make rate by bid and trick estimate",
    "swap_value.png": "Value of swapping to the ghost hand by the strength given up",
    "moon_odds.png": "Moon odds by trumps held",
    "points_by_position.png": "Points per hand by position",
}


def make_rate(tables: dict, path: str) -> str:
    """Make rate by the maker's trick estimate, one line per bid, 95% bands; buckets of 30+ hands."""
    fig, ax = rp.figure()
    est = tables.get("bid_by_estimate")
    shown, dropped = [], 0
    if est is not None:
        for i, (level, g) in enumerate(est.groupby("bid", sort=False, observed=True)):
            dropped += int(((g["hands"] > 0) & (g["hands"] < 30)).sum())
            g = g[g["hands"] >= 30]
            if len(g):
                c = rp.COLORS[i % len(rp.COLORS)]
                ax.plot(g["estimate"], g["make_rate"], marker="o", ms=3, color=c, label=f"bid {level}")
                ax.fill_between(g["estimate"], g["make_low"], g["make_high"], alpha=0.2, color=c, lw=0)
                shown.append(g)
    if shown:
        s = pd.concat(shown)
        rp.set_ylim(ax, rp.y_limits(s["make_low"], s["make_high"], rate=True), rate=True)
        ax.set_xlabel("strategy's trick estimate of the maker's hand (bucket start)")
        ax.set_ylabel("make rate\n(95% interval shaded)")
        rp.legend(fig, ax)
    else:
        rp.nothing(ax, "no estimate bucket with 30+ hands")
    rp.save(fig, path)
    return rp.left_out(dropped, 30)


def swap_value(tables: dict, path: str) -> str:
    """Points gained by swapping, by the strength given up, per position, 95% bands, with the break-even line."""
    fig, ax = rp.figure()
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
            c = rp.COLORS[i % len(rp.COLORS)]
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
        lim = rp.y_limits(s["gain_low"], s["gain_high"], extra=[0])
        rp.set_ylim(ax, lim, rate=False)
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
        rp.legend(fig, ax)
    else:
        rp.nothing(ax, "no strength with 100+ swap decisions")
    if shown and wide:
        notes.append("The scale is logarithmic beyond one point either way, so the few strong hands that lose a "
                     "moon's worth by swapping fit beside the break-even.")
    if flat:
        notes.append(f"Position {', '.join(flat)}: swapping and keeping scored the same on every deal (no line).")
    notes.append(rp.left_out(dropped, 100, "decisions"))
    rp.save(fig, path)
    return " ".join(n for n in notes if n)


def moon_odds(tables: dict, path: str) -> str:
    """Moons made / called by trumps held, 95% intervals, moons called in the tick labels."""
    fig, ax = rp.figure()
    moon = tables.get("moon_by_trumps")
    if moon is None or not len(moon):
        rp.nothing(ax, "no moon called in this run")
    else:
        labels = [f"{t} trumps\n{rp.count(n)} called" for t, n in zip(moon["trumps"], moon["moons_called"])]
        rp.bar_intervals(ax, labels, moon["make_rate"], moon["make_low"], moon["make_high"], color="#6a8caf")
        rp.set_ylim(ax, rp.y_limits(moon["make_low"], moon["make_high"], rate=True, bars=True), rate=True)
        ax.set_xlabel("trumps in the moon caller's hand")
        ax.set_ylabel("moons made / called\n(95% interval)")
    rp.save(fig, path)
    return ""


def positions(tables: dict, path: str) -> str:
    """Points per hand by position (1 = dealer's left, 3 = dealer)."""
    return rp.position_plot(tables, path, {1: "dealer's left", 3: "dealer"})


DRAW = {
    "make_rate_by_strength.png": make_rate,
    "swap_value.png": swap_value,
    "moon_odds.png": moon_odds,
    "points_by_position.png": positions,
}


def draw_plots(tables: dict, folder: str) -> dict[str, str]:
    """Draw the report's plots (``PLOTS``) from ``tables`` into ``folder``; the notes under them, by file name."""
    return rp.draw_all(DRAW, tables, folder)
