"""Table sets and the HTML report (matplotlib PNGs with confidence bands), written atomically.

``table_set`` names every table of a run; ``write_tables`` saves them as CSV
or Parquet; ``write_report`` draws the plots and writes ``report.html``,
which references only the files it wrote beside it and needs no network.
"""

from __future__ import annotations

import html
import os
import shutil
import tempfile

import pandas as pd

from analysis import ghost_tables as gt
from sim.errors import UserError

PLOTS = {
    "make_rate_by_strength.png": "Make rate by bid and trick estimate",
    "swap_value.png": "Value of swapping to the ghost hand by the strength given up",
    "moon_odds.png": "Moon odds by trumps held",
    "points_by_position.png": "Points per hand by position",
}


def table_set(bids, estimates=None, position=None, swap_acc=None, swap_mirror=None) -> dict[str, pd.DataFrame]:
    """Every table of a run, by file stem: bid success (full and by each feature), estimate, moon, position, swap."""
    tables = {
        "bid_success": gt.bid_success(bids),
        "bid_by_position": gt.bid_success(bids, ["position"]),
        "bid_by_trumps": gt.bid_success(bids, ["trumps"]),
        "bid_by_bowers": gt.bid_success(bids, ["bowers"]),
        "bid_by_off_aces": gt.bid_success(bids, ["off_aces"]),
        "moon_odds": gt.moon_odds(bids),
        "moon_by_trumps": gt.moon_odds(bids, ["trumps"]),
        "moon_odds_by_features": gt.moon_odds(bids, ["trumps", "bowers", "off_aces"]),
    }
    if estimates is not None:
        tables["bid_by_estimate"] = gt.bid_by_estimate(estimates)
    if position is not None:
        tables["position"] = position
    if swap_acc is not None:
        tables["swap_value"] = gt.swap_table(swap_acc, by_position=False)
        tables["swap_value_by_position"] = gt.swap_table(swap_acc, by_position=True)
        tables["swap_by_position"] = gt.swap_overall(swap_acc, swap_mirror)
    return tables


class OutputError(UserError, OSError):
    """An output directory that cannot be created or written."""


def _staging_dir(out_dir: str) -> str:
    """A fresh temporary directory beside ``out_dir`` (so the final rename stays on one filesystem)."""
    parent = os.path.dirname(os.path.abspath(out_dir)) or "."
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise OutputError(f"cannot write to {out_dir}: it is a file")
    try:
        return tempfile.mkdtemp(prefix=".bower-", dir=parent)
    except OSError as e:
        raise OutputError(f"cannot write to {out_dir}: {e.strerror or e}") from None


def check_out_dir(out_dir: str) -> None:
    """OutputError now, before any long work, if ``out_dir`` could not receive the output."""
    shutil.rmtree(_staging_dir(out_dir))


def _publish(staging: str, out_dir: str, names: list[str]) -> None:
    """Move the staged files into ``out_dir`` (created if needed), each by an atomic rename."""
    try:
        os.makedirs(out_dir, exist_ok=True)
        for n in names:
            os.replace(os.path.join(staging, n), os.path.join(out_dir, n))
    except OSError as e:
        raise OutputError(f"cannot write to {out_dir}: {e.strerror or e}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def write_tables(tables: dict[str, pd.DataFrame], out_dir: str, fmt: str) -> list[str]:
    """Write each table as ``out_dir/NAME.csv`` or ``.parquet``; all or nothing. Returns the paths."""
    staging = _staging_dir(out_dir)
    names = []
    try:
        for name, df in tables.items():
            fname = f"{name}.{fmt}"
            path = os.path.join(staging, fname)
            frame = df.copy()
            for col in frame.columns:
                if isinstance(frame[col].dtype, pd.CategoricalDtype):
                    frame[col] = frame[col].astype(str)
            if fmt == "csv":
                frame.to_csv(path, index=False)
            else:
                frame.to_parquet(path, index=False)
            names.append(fname)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _publish(staging, out_dir, names)
    return [os.path.join(out_dir, n) for n in names]


def _plots(tables: dict[str, pd.DataFrame], staging: str) -> None:
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
        be = gt.break_even(tables["swap_value"])
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

    _position_plot(tables, staging)


CUTTHROAT_PLOTS = {
    "order_up.png": "Round-one make rate by up-card rank and position",
    "dummy_value.png": "Make rate by the maker's own strength: with the dummy and alone",
    "points_by_position.png": "Points per hand by position",
}


def _cutthroat_plots(tables: dict[str, pd.DataFrame], staging: str) -> None:
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
    ax.set_title(CUTTHROAT_PLOTS["order_up.png"])
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
    ax.set_title(CUTTHROAT_PLOTS["dummy_value.png"])
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(staging, "dummy_value.png"), dpi=110)
    plt.close(fig)
    _position_plot(tables, staging)


HASENPFEFFER_PLOTS = {
    "make_by_bid.png": "Make rate by contract and where the joker was dealt",
    "widow_value.png": "The widow's value by the card it was",
    "sides.png": "Game win share by side",
}


def _hasenpfeffer_plots(tables: dict[str, pd.DataFrame], staging: str) -> None:
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
    ax.set_title(HASENPFEFFER_PLOTS["make_by_bid.png"])
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
    ax.set_title(HASENPFEFFER_PLOTS["widow_value.png"])
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
    ax.set_title(HASENPFEFFER_PLOTS["sides.png"])
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    fig.savefig(os.path.join(staging, "sides.png"), dpi=110)
    plt.close(fig)


def _position_plot(tables: dict[str, pd.DataFrame], staging: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    pos = tables.get("position")
    if pos is not None:
        err = [(pos["points_per_hand"] - pos["points_low"]).clip(lower=0), (pos["points_high"] - pos["points_per_hand"]).clip(lower=0)]
        ax.bar(pos["position"].astype(str), pos["points_per_hand"], yerr=err, capsize=4, color="#8fbf7f")
    ax.set_xlabel("position (1 = dealer's left, 3 = dealer)")
    ax.set_ylabel("mean points per hand (95% interval)")
    ax.set_title(PLOTS["points_by_position.png"])
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    fig.savefig(os.path.join(staging, "points_by_position.png"), dpi=110)
    plt.close(fig)


def _fmt_table(df: pd.DataFrame) -> str:
    return df.to_html(index=False, float_format=lambda x: f"{x:.4f}", border=0, classes="t")


def write_report(out_dir: str, tables: dict[str, pd.DataFrame], meta: dict, notes: list[str],
                 variant: str = "ghost") -> str:
    """Write ``out_dir/report.html`` and its PNGs (all or nothing); returns the report's path."""
    staging = _staging_dir(out_dir)
    plots, draw = {"cutthroat": (CUTTHROAT_PLOTS, _cutthroat_plots),
                   "hasenpfeffer": (HASENPFEFFER_PLOTS, _hasenpfeffer_plots)}.get(variant, (PLOTS, _plots))
    try:
        draw(tables, staging)
        rows = "".join(f"<tr><th>{html.escape(str(k))}</th><td>{html.escape(str(v))}</td></tr>" for k, v in meta.items())
        parts = [
            "<!DOCTYPE html><html><head><meta charset='utf-8'><title>bower report</title>",
            "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
            "table.t,table.meta{border-collapse:collapse;font-size:13px;margin:0.5em 0 1.5em}"
            "table.t td,table.t th,table.meta td,table.meta th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
            "table.meta th{text-align:left;background:#f3f3f3}img{max-width:100%}</style></head><body>",
            f"<h1>{html.escape(meta.get('variant', 'Ghost Hand Euchre'))}: bower report</h1>",
            f"<table class='meta'>{rows}</table>",
            "".join(f"<p>{html.escape(n)}</p>" for n in notes),
        ]
        for fname, title in plots.items():
            parts.append(f"<h2>{html.escape(title)}</h2><img src='{fname}' alt='{html.escape(title)}'>")
        for name, df in tables.items():
            if name == "bid_success":
                continue  # the full feature table goes to files (--csv/--parquet), not the page
            parts.append(f"<h2>{html.escape(name.replace('_', ' '))}</h2>{_fmt_table(df)}")
        parts.append("</body></html>")
        with open(os.path.join(staging, "report.html"), "w", encoding="utf-8") as fh:
            fh.write("\n".join(parts))
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _publish(staging, out_dir, [*plots, "report.html"])
    return os.path.join(out_dir, "report.html")
