"""Cutthroat report plots (matplotlib PNGs with confidence bands), drawn into the report's staging folder."""

from __future__ import annotations

import os

import pandas as pd

from analysis.report import position_plot

PLOTS = {
    "order_up.png": "Round-one make rate by up-card rank and position",
    "dummy_value.png": "Make rate by the maker's own strength: with the dummy and alone",
    "points_by_position.png": "Points per hand by position",
}


def draw_plots(tables: dict[str, pd.DataFrame], staging: str) -> None:
    """Draw the report's plots (``PLOTS``) from ``tables`` into ``staging``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    ou = tables["order_up"]
    for pos, g in ou.groupby("position"):
        x = g["upcard"].cat.codes if hasattr(g["upcard"], "cat") else range(len(g))
        ax.errorbar(x, g["make_rate"], yerr=[(g["make_rate"] - g["make_low"]).clip(lower=0),
                    (g["make_high"] - g["make_rate"]).clip(lower=0)], marker="o", ms=4, capsize=3,
                    label=f"position {pos}")
    ax.set_xticks(range(6), ["9", "T", "J", "Q", "K", "A"])
    ax.set_xlabel("up-card rank")
    ax.set_ylabel("make rate (95% interval)")
    ax.set_ylim(0, 1.02)
    ax.set_title(PLOTS["order_up.png"])
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(staging, "order_up.png"), dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4.2))
    dv = tables["dummy_value"]
    for who in ("dummy", "alone"):
        g = dv[dv[f"{who}_hands"] >= 30]
        if len(g):
            ax.plot(g["estimate"], g[f"{who}_make_rate"], marker="o", ms=3,
                    label="with the dummy" if who == "dummy" else "alone")
            ax.fill_between(g["estimate"], g[f"{who}_make_low"], g[f"{who}_make_high"], alpha=0.25)
    ax.set_xlabel("strategy's trick estimate of the maker's own five cards (bucket start)")
    ax.set_ylabel("make rate (95% interval shaded)")
    ax.set_ylim(0, 1.02)
    ax.set_title(PLOTS["dummy_value.png"])
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(staging, "dummy_value.png"), dpi=110)
    plt.close(fig)
    position_plot(tables, staging)
