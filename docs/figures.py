"""Draw the documentation's figures into docs/img/ (``make docs-figures``), each from a seeded run.

Usage: ``python docs/figures.py [--only NAME[,NAME...]] [--out docs/img] [--list]``

Every figure has a *data* function (seeded, deterministic: the same seed and
sizes give the same numbers, for any thread count) that returns a tidy pandas
DataFrame, and a *draw* function that turns that frame into a PNG. The tests
(``tests/test_figures.py``) run the data functions at tiny sizes; this script
runs them at the sizes below and draws. The whole set takes a few CPU minutes
on a 2-core machine with the kernels cached (the first run compiles them);
the CPU seconds of each figure are printed.

Figures (NAME: what it shows, where it is shown):

- ``make-rate``: Ghost Hand make rate by the maker's trick estimate, one line
  per bid (README.md, docs/guides/analyze.md);
- ``moon-odds``: the chance a Ghost Hand moon makes, by trumps held and by
  trick estimate (docs/variants/ghost-hand.md);
- ``swap-value``: points gained by swapping to the ghost, by the strength
  given up and position, with the break-even (docs/guides/analyze.md);
- ``pimc-worlds``: a ``pimc-cards`` player's win-rate edge over ``default``
  by number of sampled worlds, duplicate games (docs/explanations/pimc.md);
- ``peer-speed``: hands per second against the peer (OpenSpiel's euchre), the
  double-dummy solver's solves per second by variant, and the solver against
  the peer solver (jamesterrell/Euchre_Calculator's ``bitcore.py``) on the
  same deals, numbers recorded in ``benchmarks/RESULTS.md`` (docs/benchmarks.md).

Colours: the Okabe-Ito palette (distinguishable with the common colour-vision
deficiencies), with markers or line styles as a second cue.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "img"
SEED = 1

# Okabe & Ito (2008), "Color Universal Design": orange, sky blue, bluish green, vermillion, blue, reddish purple
PALETTE = ["#E69F00", "#56B4E9", "#009E73", "#D55E00", "#0072B2", "#CC79A7", "#000000"]
MARKERS = ["o", "s", "^", "D", "v", "P"]
FIGSIZE = (8.0, 4.2)
DPI = 120  # 960 px wide: sharp on the page, small files

# the sizes the committed figures are drawn at (the tests pass tiny ones)
HANDS = 2_000_000  # make-rate, moon-odds: hands of one seeded run
SWAP_DEALS = 2_000_000  # swap-value: deals, each decision point replayed with the swap taken and refused
PIMC_WORLDS = (1, 2, 4, 8, 16, 32, 64)  # pimc-worlds: the numbers of worlds drawn
PIMC_GAMES = 1536  # pimc-worlds: games per number of worlds (a multiple of 384: 64 deal sets of 6 seatings)
MIN_HANDS = 100  # cells with fewer hands (moons, decisions) are left out of a plot


# ---- data -------------------------------------------------------------------------------------------


def ghost_tables(hands: int = HANDS, seed: int = SEED) -> dict[str, pd.DataFrame]:
    """``bower analyze``'s tables of a seeded Ghost Hand run of ``hands`` hands (default strategy).

    ``bower.simulate(...).tables()``: the hands' records written to a
    temporary Parquet file and read back by the analysis, as ``bower
    analyze`` reads them.
    """
    import bower

    bower.quiet(True)
    return bower.simulate(variant="ghost", hands=hands, seed=seed).tables()


def make_rate_data(hands: int = HANDS, seed: int = SEED, tables: dict | None = None) -> pd.DataFrame:
    """Make rate by bid and the maker's trick estimate (``bid_by_estimate``): bid, estimate, hands, made, rates."""
    t = (tables or ghost_tables(hands, seed))["bid_by_estimate"]
    cols = ["bid", "estimate", "hands", "made", "make_rate", "make_low", "make_high"]
    out = t[cols].copy()
    out["bid"] = out["bid"].astype(str)
    return out.sort_values(["bid", "estimate"], kind="stable").reset_index(drop=True)


def moon_data(hands: int = HANDS, seed: int = SEED, tables: dict | None = None) -> pd.DataFrame:
    """Moons called and made, by trumps held (``moon_by_trumps``) and by trick estimate (``bid_by_estimate``).

    One row per cell: ``by`` ("trumps" or "estimate"), ``value``, ``called``,
    ``made``, ``make_rate`` and its Wilson 95% interval.
    """
    t = tables or ghost_tables(hands, seed)
    tr = t["moon_by_trumps"]
    est = t["bid_by_estimate"]
    est = est[est["bid"].astype(str) == "moon"]
    parts = [
        pd.DataFrame({"by": "trumps", "value": tr["trumps"].astype(float), "called": tr["moons_called"],
                      "made": tr["moons_made"], "make_rate": tr["make_rate"], "make_low": tr["make_low"],
                      "make_high": tr["make_high"]}),
        pd.DataFrame({"by": "estimate", "value": est["estimate"].astype(float), "called": est["hands"],
                      "made": est["made"], "make_rate": est["make_rate"], "make_low": est["make_low"],
                      "make_high": est["make_high"]}),
    ]
    out = pd.concat(parts, ignore_index=True)
    out[["called", "made"]] = out[["called", "made"]].astype(np.int64)
    return out.sort_values(["by", "value"], kind="stable").reset_index(drop=True)


def swap_data(deals: int = SWAP_DEALS, seed: int = SEED) -> tuple[pd.DataFrame, float | None]:
    """The value of swapping to the ghost by position and strength given up, and the pooled break-even.

    ``bower report``'s ``swap_value_by_position`` table (paired replays of
    every decision point, ``bower.sim.variants.ghost.stats.swap_values``):
    position, strength (bucket start), decisions, gain_points and its 95%
    interval; with the break-even strength of the pooled ``swap_value`` table.
    """
    from bower.sim.variants.ghost import stats
    from bower.sim.variants.ghost import tables as gt

    import bower

    bower.quiet(True)
    sw = stats.swap_values(deals, seed=seed)
    t = gt.swap_table(sw["acc"], by_position=True)
    t = t[["position", "strength", "decisions", "gain_points", "gain_low", "gain_high"]]
    return t.reset_index(drop=True), gt.break_even(gt.swap_table(sw["acc"], by_position=False))


def pimc_data(worlds=PIMC_WORLDS, games: int = PIMC_GAMES, seed: int = SEED) -> pd.DataFrame:
    """``pimc-cards`` with ``pimc_worlds`` = each of ``worlds`` against ``default``: one duplicate experiment each.

    One row per number of worlds: games, the searcher's win rate and its
    95% interval, and the paired win-rate difference (searcher minus
    ``default``) with its 95% interval.
    """
    import bower

    bower.quiet(True)
    rows = []
    for w in worlds:
        p = bower.strategy("pimc-cards", pimc_worlds=int(w), name=f"pimc{w}")
        ex = bower.experiment([p, "default"], variant="ghost", games=games, seed=seed)
        s = ex.strategies.set_index("name").loc[f"pimc{w}"]
        pair = ex.pairs.iloc[0]
        rows.append({"worlds": int(w), "games": int(ex.summary["games"]), "win_rate": float(s["win_rate"]),
                     "win_low": float(s["win_rate_low"]), "win_high": float(s["win_rate_high"]),
                     "diff": float(pair["win_rate_diff"]), "diff_low": float(pair["ci_low"]),
                     "diff_high": float(pair["ci_high"])})
    return pd.DataFrame(rows)


def peer_data() -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The speeds recorded in ``benchmarks/RESULTS.md``: hands/s against the peer, the solver's solves/s, and the
    solver's solves/s against the peer solver's.

    Measured numbers, not rerun here: the peers (OpenSpiel, ``bitcore.py``)
    are not part of the project. Each row names its RESULTS.md entry and command.
    """
    hands = pd.DataFrame([
        # RESULTS.md "2026-11-29, commit 9a6ce33 (all of Ghost Hand; ...)": `benchmarks/run.py --against 9b9343e`,
        # AMD EPYC, 1 thread; the peer: OpenSpiel 2.0.2 euchre, C++ uniform random bots, `pyspiel.evaluate_bots`,
        # 100,000 hands, 110,911 hands/s; bower: the `hand` row (1,000,000 hands) and the random-strategy row
        {"run": "9a6ce33", "engine": "OpenSpiel euchre\n(random bots)", "hands_per_s": 110_911},
        {"run": "9a6ce33", "engine": "bower Ghost Hand\n(random strategy)", "hands_per_s": 2_502_119},
        {"run": "9a6ce33", "engine": "bower Ghost Hand\n(default strategy)", "hands_per_s": 1_875_940},
        # RESULTS.md "2026-11-29, commit 53149d8 (Ghost Hand 2x; ...)": `benchmarks/run.py --quick --against
        # e19380c`, AMD EPYC, 1 thread; the peer: the same OpenSpiel bots, 20,000 hands, 110,734 hands/s
        {"run": "53149d8", "engine": "OpenSpiel euchre\n(random bots)", "hands_per_s": 110_734},
        {"run": "53149d8", "engine": "bower Ghost Hand\n(random strategy)", "hands_per_s": 2_616_854},
        {"run": "53149d8", "engine": "bower Ghost Hand\n(default strategy)", "hands_per_s": 3_775_286},
    ])
    # RESULTS.md "2026-12-01, the double-dummy solver (`kernels/solve.py`)": `benchmarks/run.py --quick --only
    # solve,ct-solve,hp-solve,eu-solve`, Intel Xeon, 2 cores, full deals from the first lead, median of 3
    solver = pd.DataFrame([
        {"variant": "Ghost Hand\n(18 cards)", "threads": 1, "solves_per_s": 45_407, "nodes": 356},
        {"variant": "Ghost Hand\n(18 cards)", "threads": 2, "solves_per_s": 76_144, "nodes": 356},
        {"variant": "Cutthroat\n(15 cards)", "threads": 1, "solves_per_s": 88_680, "nodes": 149},
        {"variant": "Cutthroat\n(15 cards)", "threads": 2, "solves_per_s": 148_262, "nodes": 149},
        {"variant": "Euchre\n(20 cards)", "threads": 1, "solves_per_s": 30_977, "nodes": 445},
        {"variant": "Euchre\n(20 cards)", "threads": 2, "solves_per_s": 58_254, "nodes": 445},
        {"variant": "Hasenpfeffer\n(24 cards)", "threads": 1, "solves_per_s": 10_212, "nodes": 1_385},
        {"variant": "Hasenpfeffer\n(24 cards)", "threads": 2, "solves_per_s": 21_447, "nodes": 1_385},
    ])
    # RESULTS.md "2026-12-06 (evening), the double-dummy solver against the newest public euchre solver":
    # `python -m benchmarks.peer_solver --peer PATH/TO/bitcore.py --deals 200000 --seed 1` (and `--deals 1100000
    # --seed 2`), AMD EPYC, one thread each, the same random standard-Euchre deals, every value agreeing;
    # positions: positions searched a solve
    against = pd.DataFrame([
        {"deals": "200,000 deals\n(seed 1)", "solver": "peer: bitcore.py\n(euchred / made / march)",
         "solves_per_s": 32_782, "positions": 325},
        {"deals": "200,000 deals\n(seed 1)", "solver": "bower, exact tricks", "solves_per_s": 26_432, "positions": 448},
        {"deals": "200,000 deals\n(seed 1)", "solver": "bower, points mode\n(the peer's question)",
         "solves_per_s": 49_438, "positions": 229},
        {"deals": "1,100,000 deals\n(seed 2)", "solver": "peer: bitcore.py\n(euchred / made / march)",
         "solves_per_s": 34_801, "positions": 305},
        {"deals": "1,100,000 deals\n(seed 2)", "solver": "bower, exact tricks", "solves_per_s": 26_944,
         "positions": 449},
        {"deals": "1,100,000 deals\n(seed 2)", "solver": "bower, points mode\n(the peer's question)",
         "solves_per_s": 50_350, "positions": 230},
    ])
    return hands, solver, against


# ---- drawing ----------------------------------------------------------------------------------------


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"font.size": 10, "axes.titlesize": 11.5, "axes.titleweight": "bold"})
    return plt


def _figure(ncols: int = 1, width: float | None = None):
    plt = _plt()
    fig, axes = plt.subplots(1, ncols, figsize=(width or FIGSIZE[0], FIGSIZE[1]), layout="constrained")
    for ax in np.atleast_1d(axes):
        ax.grid(alpha=0.3)
        ax.set_axisbelow(True)
    return fig, axes


def _save(fig, path: Path) -> None:
    fig.savefig(path, dpi=DPI, metadata={"Software": None})  # no version stamp: the same data, the same file
    _plt().close(fig)


def draw_make_rate(df: pd.DataFrame, path: Path) -> None:
    from bower.analysis import report_plots as rp

    fig, ax = _figure()
    shown = []
    for i, (bid, g) in enumerate(df.groupby("bid", sort=False)):
        g = g[g["hands"] >= MIN_HANDS]
        if not len(g):
            continue
        c = PALETTE[i % len(PALETTE)]
        x = g["estimate"] + 0.125  # bucket midpoints (steps of 0.25)
        label = "moon" if bid == "moon" else f"bid {bid}"
        ax.plot(x, g["make_rate"], marker=MARKERS[i], ms=4, color=c, label=label)
        ax.fill_between(x, g["make_low"], g["make_high"], alpha=0.25, color=c, lw=0)
        shown.append(g)
    s = pd.concat(shown)
    rp.set_ylim(ax, rp.y_limits(s["make_low"], s["make_high"], rate=True), rate=True)
    ax.set_xlabel("the default strategy's trick estimate of the maker's hand for the trump named (bucket midpoints)")
    ax.set_ylabel("make rate (95% interval shaded)")
    n = int(df["hands"].sum())
    ax.set_title(f"Ghost Hand: how often a bid makes, by trick estimate ({n:,} bids)")
    ax.legend(loc="lower right", frameon=False)
    _save(fig, path)


def draw_moon_odds(df: pd.DataFrame, path: Path) -> None:
    from bower.analysis import report_plots as rp

    fig, (a1, a2) = _figure(2)
    tr = df[(df["by"] == "trumps") & (df["called"] >= MIN_HANDS)]
    labels = [f"{int(v)}\n{n:,} called" for v, n in zip(tr["value"], tr["called"])]
    x = np.arange(len(tr))
    err = [(tr["make_rate"] - tr["make_low"]).clip(lower=0), (tr["make_high"] - tr["make_rate"]).clip(lower=0)]
    a1.bar(x, tr["make_rate"], yerr=err, capsize=5, width=0.6, color=PALETTE[1], edgecolor=PALETTE[4],
           error_kw={"lw": 1.2})
    a1.set_xticks(x, labels)
    a1.grid(False, axis="x")
    a1.set_xlabel("trumps in the caller's hand")
    a1.set_ylabel("moons made / called (95% interval)")
    a1.set_title("By trumps held")
    rp.set_ylim(a1, (0, 1.03), rate=True)
    est = df[(df["by"] == "estimate") & (df["called"] >= MIN_HANDS)]
    a2.errorbar(est["value"] + 0.125, est["make_rate"], yerr=[(est["make_rate"] - est["make_low"]).clip(lower=0),
                (est["make_high"] - est["make_rate"]).clip(lower=0)], marker="o", ms=4, capsize=3, lw=1.4,
                color=PALETTE[3])
    a2.set_xlabel("trick estimate of the caller's hand")
    a2.set_title("By trick estimate")
    rp.set_ylim(a2, rp.y_limits(est["make_low"], est["make_high"], rate=True), rate=True)
    n = int(df.loc[df["by"] == "trumps", "called"].sum())
    fig.suptitle(f"Ghost Hand: the chance a moon makes ({n:,} moons called)", fontweight="bold")
    _save(fig, path)


def draw_swap_value(data: tuple[pd.DataFrame, float | None], path: Path) -> None:
    from matplotlib.ticker import FuncFormatter

    from bower.analysis import report_plots as rp

    df, be = data
    fig, ax = _figure()
    shown = []
    for i, (pos, g) in enumerate(df.groupby("position")):
        g = g[g["decisions"] >= MIN_HANDS]
        if not len(g) or (g[["gain_points", "gain_low", "gain_high"]].abs().to_numpy() == 0).all():
            continue  # the dealer: nobody after them can take the ghost; swapping blind changes nothing on average
        c = PALETTE[[0, 4, 2][i % 3]]
        x = g["strength"] + 0.125
        ax.plot(x, g["gain_points"], marker=MARKERS[i], ms=4, color=c, label=f"position {pos}")
        ax.fill_between(x, g["gain_low"], g["gain_high"], alpha=0.25, color=c, lw=0)
        shown.append(g)
    s = pd.concat(shown)
    ax.axhline(0, color="black", lw=0.8)
    if be is not None:
        ax.axvline(be, color="#555555", ls="--", lw=1.2, label=f"break-even {be:.2f} (all positions)")
    lim = rp.y_limits(s["gain_low"], s["gain_high"], extra=[0])
    ax.set_yscale("symlog", linthresh=1, linscale=1.2)
    lim = tuple(v * 1.25 if abs(v) > 1 else v for v in lim)
    ax.set_ylim(*lim)
    ax.set_yticks([t for t in (-100, -30, -10, -3, -1, -0.5, 0, 0.5, 1, 3, 10) if lim[0] <= t <= lim[1]])
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:+g}".replace("-", "\u2212") if y else "0"))
    ax.set_xlabel("strength of the hand given up (the strategy's best trick estimate)")
    ax.set_ylabel("points gained by swapping, per decision\n(95% interval shaded; log scale past \u00b11)")
    ax.set_title("Ghost Hand: the value of swapping to the ghost hand")
    ax.legend(loc="lower left", frameon=False)
    _save(fig, path)


def draw_pimc(df: pd.DataFrame, path: Path) -> None:
    fig, ax = _figure()
    y = df["diff"] * 100
    err = [y - df["diff_low"] * 100, df["diff_high"] * 100 - y]
    ax.errorbar(df["worlds"], y, yerr=err, marker="o", ms=5, capsize=4, lw=1.6, color=PALETTE[4],
                label="pimc-cards win rate minus default's (95% interval)")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xscale("log", base=2)
    ax.set_xticks(df["worlds"], [str(w) for w in df["worlds"]])
    ax.minorticks_off()
    ax.set_xlabel("worlds sampled at each card (pimc_worlds)")
    ax.set_ylabel("win-rate difference (percentage points)")
    games = int(df["games"].iloc[0])
    ax.set_title("Ghost Hand: PIMC card play against the default strategy")
    ax.legend(loc="lower right", frameon=False, title=f"{games:,} duplicate games for each number of worlds")
    _save(fig, path)


def _paired_bars(ax, df: pd.DataFrame, pair: str, group: str, value: str, scale: float, colours: tuple, label,
                 bar_text=None, keys=None) -> None:
    """Two bars per ``group`` (in the frame's order) on ``ax``: one per value of ``pair`` (``keys``, else the two
    in the frame's order), ``value / scale`` high, plain then hatched in ``PALETTE[colours[k]]``, labelled
    ``label(key)`` in the legend and ``bar_text(value)`` above each bar when given."""
    groups = list(dict.fromkeys(df[group]))
    w = 0.38
    for k, key in enumerate(keys if keys is not None else dict.fromkeys(df[pair])):
        g = df[df[pair] == key].set_index(group).reindex(groups)
        x = np.arange(len(groups)) + (k - 0.5) * w
        bars = ax.bar(x, g[value] / scale, width=w, color=PALETTE[colours[k]], label=label(key),
                      hatch=["", "//"][k], edgecolor="white")
        if bar_text is not None:
            ax.bar_label(bars, [bar_text(v) for v in g[value]], fontsize=8, padding=2)
    ax.set_xticks(np.arange(len(groups)), groups, fontsize=8.5)
    ax.grid(False, axis="x")


def draw_peer_speed(data: tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame], path: Path) -> None:
    from matplotlib.ticker import FuncFormatter

    hands, solver, against = data
    fig, (a1, a2, a3) = _figure(3, width=14.0)
    _paired_bars(a1, hands, "run", "engine", "hands_per_s", 1e6, (1, 4), lambda run: f"commit {run}",
                 lambda v: f"{v / 1e6:.2f}" if v >= 1e6 else f"{v / 1e3:.0f}k")
    a1.set_ylabel("whole hands per second, 1 thread (millions)")
    a1.set_title("Against the peer (OpenSpiel)")
    a1.legend(loc="upper left", frameon=False, fontsize=8.5)
    a1.set_ylim(0, hands["hands_per_s"].max() / 1e6 * 1.15)
    _paired_bars(a2, solver, "threads", "variant", "solves_per_s", 1e3, (0, 3),
                 lambda th: f"{th} thread{'s' * (th > 1)}", keys=(1, 2))
    a2.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}k"))
    a2.set_ylabel("full deals solved per second")
    a2.set_title("The double-dummy solver")
    a2.legend(loc="upper right", frameon=False, fontsize=8.5)
    _paired_bars(a3, against, "deals", "solver", "solves_per_s", 1e3, (2, 5), lambda d: d.replace("\n", " "),
                 lambda v: f"{v / 1e3:.1f}k")
    a3.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}k"))
    a3.set_ylabel("standard Euchre deals solved per second")
    a3.set_title("The solver against the peer solver (1 thread)")
    a3.legend(loc="upper left", frameon=False, fontsize=8.5)
    a3.set_ylim(0, against["solves_per_s"].max() / 1e3 * 1.2)
    fig.suptitle("Speed, as recorded in benchmarks/RESULTS.md", fontweight="bold")
    _save(fig, path)


# ---- the figures, by name ----------------------------------------------------------------------------


def _ghost(cache: dict) -> dict:
    if "ghost" not in cache:
        cache["ghost"] = ghost_tables()
    return cache["ghost"]


FIGURES = {
    # name: (file, data(cache) -> data, draw)
    "make-rate": ("make-rate.png", lambda c: make_rate_data(tables=_ghost(c)), draw_make_rate),
    "moon-odds": ("moon-odds.png", lambda c: moon_data(tables=_ghost(c)), draw_moon_odds),
    "swap-value": ("swap-value.png", lambda c: swap_data(), draw_swap_value),
    "pimc-worlds": ("pimc-worlds.png", lambda c: pimc_data(), draw_pimc),
    "peer-speed": ("peer-speed.png", lambda c: peer_data(), draw_peer_speed),
}


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the kernels run in this process's threads)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", help="comma-separated figure names (default: all): " + ", ".join(FIGURES))
    ap.add_argument("--out", default=str(OUT), help="folder for the PNGs (default: docs/img)")
    ap.add_argument("--list", action="store_true", help="print the figure names and files, draw nothing")
    a = ap.parse_args(argv)
    if a.list:
        for name, (fname, _, _) in FIGURES.items():
            print(f"{name}\t{fname}")
        return 0
    names = list(FIGURES) if not a.only else [n.strip() for n in a.only.split(",") if n.strip()]
    unknown = [n for n in names if n not in FIGURES]
    if unknown:
        ap.error(f"unknown figure {unknown[0]!r}; the figures: {', '.join(FIGURES)}")
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    cache: dict = {}
    total = 0.0
    for name in names:
        fname, data, draw = FIGURES[name]
        c0, w0 = _cpu(), time.perf_counter()
        draw(data(cache), out / fname)
        cpu, wall = _cpu() - c0, time.perf_counter() - w0
        total += cpu
        size = (out / fname).stat().st_size
        print(f"{name}: {out / fname} ({size / 1024:.0f} KB), {cpu:.1f} CPU s, {wall:.1f} s wall", flush=True)
    print(f"all: {total:.1f} CPU s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
