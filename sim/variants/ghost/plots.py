"""Ghost Hand report plots (matplotlib PNGs with confidence bands), drawn into the report's staging folder."""

from __future__ import annotations

import os

import pandas as pd

from analysis.report import position_plot
from sim.variants.ghost import tables as tables_mod

PLOTS = {
    "make_rate_by_strength.png": "Make rate by bid and trick estimate",
    "swap_value.png": "Value of swapping to the ghost hand by the strength given up",
    "moon_odds.png": "Moon odds by trumps held",
    "points_by_position.png": "Points per hand by position",
}


def draw_plots(tables: dict[str, pd.DataFrame], staging: str) -> None:
    """Draw the report's plots (``PLOTS``) from ``tables`` into ``staging``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # make rate by bid and estimate
    fig, ax = plt.subplots(figsize=(7, 4.2))
    est = tables.get("bid_by_estimate")
    if est is not None:
        for level, g in est.groupby("bid", sort=False, observed=True):
            g = g[g["hands"] >= 30]
            if len(g):
                ax.plot(g["estimate"], g["make_rate"], marker="o", ms=3, label=f"bid {level}")
                ax.fill_between(g["estimate"], g["make_low"], g["make_high"], alpha=0.25)
    ax.set_xlabel("strategy's trick estimate of the maker's hand (bucket start)")
    ax.set_ylabel("make rate (95% interval shaded)")
    ax.set_ylim(0, 1.02)
    ax.set_title(PLOTS["make_rate_by_strength.png"])
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(staging, "make_rate_by_strength.png"), dpi=110)
    plt.close(fig)

    # swap value
    fig, ax = plt.subplots(figsize=(7, 4.2))
    sw = tables.get("swap_value_by_position")
    if sw is not None:
        for pos, g in sw.groupby("position"):
            g = g[g["decisions"] >= 100]
            ax.plot(g["strength"], g["gain_points"], marker="o", ms=3, label=f"position {pos}")
            ax.fill_between(g["strength"], g["gain_low"], g["gain_high"], alpha=0.25)
        ax.axhline(0, color="black", lw=0.8)
        be = tables_mod.break_even(tables["swap_value"])
        if be is not None:
            ax.axvline(be, color="grey", ls="--", lw=1, label=f"break-even {be:.2f}")
        ax.set_ylim(-5, 3)
    ax.set_xlabel("strategy's best trick estimate of the hand given up")
    ax.set_ylabel("points gained by swapping (95% interval shaded)")
    ax.set_title(PLOTS["swap_value.png"])
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(staging, "swap_value.png"), dpi=110)
    plt.close(fig)

    # moon odds by trumps held
    fig, ax = plt.subplots(figsize=(7, 4.2))
    moon = tables["moon_by_trumps"]
    if len(moon):
        err = [(moon["make_rate"] - moon["make_low"]).clip(lower=0), (moon["make_high"] - moon["make_rate"]).clip(lower=0)]
        ax.bar(moon["trumps"].astype(str), moon["make_rate"], yerr=err, capsize=4, color="#6a8caf")
        for x, (n, r) in enumerate(zip(moon["moons_called"], moon["make_rate"])):
            ax.annotate(f"n={n:,}", (x, min(r, 0.95)), ha="center", va="bottom", fontsize=8)
    ax.set_xlabel("trumps in the moon caller's hand")
    ax.set_ylabel("moons made / called (95% interval)")
    ax.set_ylim(0, 1.1)
    ax.set_title(PLOTS["moon_odds.png"])
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    fig.savefig(os.path.join(staging, "moon_odds.png"), dpi=110)
    plt.close(fig)

    position_plot(tables, staging)
