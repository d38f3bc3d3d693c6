"""Standard Euchre report plots (matplotlib PNGs with 95% interval bars), drawn into the report's staging folder."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

PLOTS = {
    "order_up.png": "Round-one make rate by up-card rank and position",
    "by_trumps.png": "Make rate by trumps in the maker's dealt hand",
    "dealer_side.png": "The value of dealing: points per hand of the dealer's side and the other side",
}


def _err(rate, low, high):
    return [(rate - low).clip(lower=0), (high - rate).clip(lower=0)]


def _bottom(frames) -> float:
    """A lower y limit that shows the spread of the rates (make rates are mostly high): 0 .. 0.9 in steps of 0.1."""
    lows = [f["make_low"].min() for f in frames if len(f)]
    low = min(lows) if lows else 0.0
    return 0.0 if np.isnan(low) else max(0.0, min(0.9, float(int((low - 0.05) * 10)) / 10))


def draw_plots(tables: dict[str, pd.DataFrame], staging: str) -> None:
    """Draw the report's plots (``PLOTS``) from ``tables`` into ``staging``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    ou = tables["order_up"]
    shown = []
    labels = {1: "position 1 (dealer's left)", 2: "position 2 (dealer's partner)", 3: "position 3",
              4: "position 4 (dealer)"}
    for pos, g in ou.groupby("position"):
        g = g[g["hands"] >= 20]
        shown.append(g)
        if len(g):
            x = g["upcard"].cat.codes if hasattr(g["upcard"], "cat") else range(len(g))
            ax.errorbar(x, g["make_rate"], yerr=_err(g["make_rate"], g["make_low"], g["make_high"]), marker="o", ms=4,
                        capsize=3, label=labels.get(int(pos), f"position {pos}"))
    ax.set_xticks(range(6), ["9", "T", "J", "Q", "K", "A"])
    ax.set_xlabel("up-card rank")
    ax.set_ylabel("make rate (95% interval)")
    ax.set_ylim(_bottom(shown), 1.01)
    ax.set_title(PLOTS["order_up.png"])
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(staging, "order_up.png"), dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4.2))
    bt = tables["by_trumps"]
    shown = []
    for rnd, g in bt.groupby("round"):
        g = g[g["hands"] >= 20]
        shown.append(g)
        if len(g):
            shift = -0.06 if rnd == 1 else 0.06
            ax.errorbar(g["trumps"] + shift, g["make_rate"], yerr=_err(g["make_rate"], g["make_low"], g["make_high"]),
                        marker="o", ms=4, capsize=3, label=f"round {rnd}" + (" (ordered up)" if rnd == 1 else " (named)"))
    ax.set_xticks(range(6))
    ax.set_xlabel("trumps in the maker's five dealt cards (bowers counted)")
    ax.set_ylabel("make rate (95% interval)")
    ax.set_ylim(_bottom(shown), 1.01)
    ax.set_title(PLOTS["by_trumps.png"])
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(staging, "by_trumps.png"), dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4.2))
    ds = tables["dealer_side"].iloc[:2]
    ax.bar(["dealer's side", "other side"], ds["points_per_hand"],
           yerr=_err(ds["points_per_hand"], ds["points_low"], ds["points_high"]), capsize=4,
           color=["#8fbf7f", "#7f9fbf"])
    ax.set_ylabel("mean points per hand dealt (95% interval)")
    ax.set_title(PLOTS["dealer_side.png"])
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    fig.savefig(os.path.join(staging, "dealer_side.png"), dpi=110)
    plt.close(fig)
