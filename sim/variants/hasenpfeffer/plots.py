"""Hasenpfeffer report plots (matplotlib PNGs with confidence bands), drawn into the report's staging folder."""

from __future__ import annotations

import os

import pandas as pd

PLOTS = {
    "make_by_bid.png": "Make rate by contract and where the joker was dealt",
    "widow_value.png": "The widow's value by the card it was",
    "sides.png": "Game win share by side",
}


def draw_plots(tables: dict[str, pd.DataFrame], staging: str) -> None:
    """Draw the report's plots (``PLOTS``) from ``tables`` into ``staging``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    bj = tables["by_joker"]
    bids = [str(b) for b in bj["bid"].cat.categories if (bj["bid"] == b).any()] if len(bj) else []
    for place, g in bj.groupby("joker", observed=True):
        g = g[g["hands"] >= 30]
        if len(g):
            x = [bids.index(str(b)) for b in g["bid"]]
            ax.errorbar(x, g["make_rate"], yerr=[(g["make_rate"] - g["make_low"]).clip(lower=0),
                        (g["make_high"] - g["make_rate"]).clip(lower=0)], marker="o", ms=4, capsize=3,
                        label=f"joker: {place}")
    ax.set_xticks(range(len(bids)), bids)
    ax.set_xlabel("contract")
    ax.set_ylabel("make rate (95% interval)")
    ax.set_ylim(0, 1.02)
    ax.set_title(PLOTS["make_by_bid.png"])
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(staging, "make_by_bid.png"), dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4.2))
    wv = tables["widow_value"]
    if len(wv):
        ax.bar(wv["widow"].astype(str), wv["mean_gain"], color="#6a8caf")
    ax.set_xlabel("the widow card (for the trump named)")
    ax.set_ylabel("mean rise of the bidder's trick estimate")
    ax.set_title(PLOTS["widow_value.png"])
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    fig.savefig(os.path.join(staging, "widow_value.png"), dpi=110)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 4.2))
    sd = tables.get("sides")
    if sd is not None:
        err = [(sd["win_share"] - sd["win_low"]).clip(lower=0), (sd["win_high"] - sd["win_share"]).clip(lower=0)]
        ax.bar(sd["side"], sd["win_share"], yerr=err, capsize=4, color="#8fbf7f")
    ax.set_ylabel("share of games won (95% interval)")
    ax.set_ylim(0, 1)
    ax.set_title(PLOTS["sides.png"])
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    fig.savefig(os.path.join(staging, "sides.png"), dpi=110)
    plt.close(fig)
