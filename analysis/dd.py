"""Double-dummy tables for any variant: the tricks the card play leaves on the table, and "par" make rates.

A record's ``dd`` object (``bower.sim.solve.records_dd``; ``bower solve --records``)
holds the maker side's double-dummy tricks in the contract as played (the
hands as played, from the first lead) and, in ``table``, the same for every
trump. Set beside what was played, per contract label
(``variant.card_play.contract``), they give:

- ``dd_by_contract``: played against double-dummy tricks of the maker's
  side, the mean difference (``left_on_table`` = dd less played: the tricks
  the strategy's play gives away, net of the defenders' mistakes), the played
  and the double-dummy ("par") make rates, and how often a makeable contract
  went down (``makeable_set``) or an unmakeable one was made
  (``unmakeable_made``); ``make_rate - par_rate = unmakeable_made - makeable_set``.
- ``dd_by_features``: played and par make rates by contract, the trumps the
  maker's side holds at the first lead and whether it holds the right bower.
- ``dd_by_strength``: the same over every contract by trumps held alone
  (the hand strength of the report's plot: generic, and the main driver of
  a contract in every variant).
- ``dd_trump_choice``: how often the trump named was the makers' best
  double-dummy trump among those the auction let the maker name
  (``CardPlay.trump_choices``: Euchre's and Cutthroat's round one only the
  up-card's suit), and the par make rate had they named the best one.

The features come from the hands as played (each seat's played cards), so
they count the cards after any swap, dummy merge, widow or discard. Only the
interface is used: ``card_play.contract``/``contracts``/``maker_field`` and
``maker_side``; no variant is named here.
"""

from __future__ import annotations

import os

import numpy as np
import pandas as pd

from bower.analysis.intervals import mean_interval, wilson
from bower.kernels.tables import EFF_SUIT, RIGHT

ALL = "all"  # the contract label of the rows over every contract
MIN_PLOT_HANDS = 10  # strength buckets with fewer hands are left out of the plot
BATCH = 4096  # records per solver batch
REPORT_BATCH = 4 * BATCH  # hands the report plays again and solves at a time (a multiple of the runner's chunk)
PLOT = "dd_make_rate.png"
PLOTS = {PLOT: "Played vs double-dummy make rate by hand strength (trumps held by the maker's side)"}
TABLES = ("dd_by_contract", "dd_by_features", "dd_by_strength", "dd_trump_choice")
FRAME_COLUMNS = ["contract", "need", "played", "dd", "best", "trumps", "right_bower"]


# ---- records ----------------------------------------------------------------------------------


def is_played(variant, rec: dict) -> bool:
    """The hand was played out (not thrown in): it has a maker and card play."""
    return rec.get(variant.card_play.maker_field) is not None and bool(rec.get("plays"))


def missing_dd(variant, recs: list[dict]) -> int:
    """How many played records have no ``dd`` object."""
    return sum(1 for r in recs if is_played(variant, r) and r.get("dd") is None)


def attach_dd(variant, recs: list[dict], batch: int = BATCH, progress=None) -> int:
    """Solve every played record that lacks ``dd`` and set its ``dd`` (in place), ``batch`` at a time.

    Thrown-in hands get ``dd = None``; records that already carry ``dd`` are
    kept as they are. Returns how many records were solved. ``progress(done,
    total)`` is called after each batch.
    """
    from bower.sim import distributed as dist
    from bower.sim.solve import records_dd_job

    todo = [i for i, r in enumerate(recs) if r.get("dd") is None]
    for i in todo:
        if not is_played(variant, recs[i]):
            recs[i]["dd"] = None
    todo = [i for i in todo if is_played(variant, recs[i])]
    starts = range(0, len(todo), batch)
    if todo:
        from bower.sim.solve import sample_deals, solve_rows_job

        dist.current().warm(solve_rows_job, ("solve",), sample_deals(variant, 1))
    jobs = ((variant.name, [recs[i] for i in todo[k:k + batch]], 0) for k in starts)
    for k, dds in zip(starts, dist.current().map(records_dd_job, jobs)):
        for i, d in zip(todo[k:k + batch], dds):
            recs[i]["dd"] = d
        if progress is not None:
            progress(min(k + batch, len(todo)), len(todo))
    return len(todo)


def _tricks(rec: dict, seat: int) -> int:
    t = rec.get("tricks") or {}
    return int(t.get(str(seat), t.get(seat, 0)) or 0)


def hand_frame(variant, recs: list[dict], offset: int = 0, where=None) -> pd.DataFrame:
    """One row per played record with a ``dd`` object: contract, need, played and dd tricks, best trump's, features.

    ``played``: tricks the maker's side took; ``dd``: its double-dummy tricks
    in the contract; ``best``: the most it takes double-dummy over the trumps
    its maker could have named in that auction (``CardPlay.trump_choices``); ``trumps``: trumps the maker's side held at the first lead (the
    bowers and any joker counted); ``right_bower``: it held the jack of trump.
    Messages name record ``offset + i`` for ``recs[i]`` (a batch of a file) as ``where(offset + i)`` says
    (``FILE: record N (line L)``; default ``record N``).
    """
    from bower.sim.records_check import check_dd
    from bower.sim.solve import played_hand

    cp = variant.card_play
    rows = []
    for i, rec in enumerate(recs, offset):
        d = rec.get("dd")
        if d is None:
            continue
        ph = played_hand(variant, rec, i, check_turns=False)
        if ph is None:
            continue
        active = sum(1 << s for s in ph.hands)
        side = variant.maker_side(ph.maker, active)
        seats = [s for s in ph.hands if side >> s & 1]
        cards = [c for s in seats for c in ph.hands[s]]
        label, need = cp.contract(rec)
        tricks, table = check_dd(d, where(i) if where is not None else f"record {i}", cp.hand_size)
        allowed = [table[t] for t in cp.trump_choices(rec) if t in table]
        rows.append((
            str(label), int(need), sum(_tricks(rec, s) for s in seats), tricks, max(allowed, default=tricks),
            int(sum(EFF_SUIT[ph.trump, c] == ph.trump for c in cards)), bool(int(RIGHT[ph.trump]) in cards),
        ))
    frame = pd.DataFrame(rows, columns=FRAME_COLUMNS)
    return frame.astype({"need": np.int64, "played": np.int64, "dd": np.int64, "best": np.int64,
                         "trumps": np.int64, "right_bower": bool})


# ---- tables -----------------------------------------------------------------------------------


def _wilson(k, n):
    """Wilson 95% interval kept within [0, 1] and around the rate."""
    lo, hi = wilson(k, n)
    r = np.asarray(k, float) / np.asarray(n, float)
    return np.fmin(np.clip(lo, 0.0, 1.0), r), np.fmax(np.clip(hi, 0.0, 1.0), r)


def _order(variant, labels) -> list[str]:
    """The contract labels present, in the variant's table order (any unknown one after, sorted)."""
    known = [str(c) for c in variant.card_play.contracts]
    present = set(labels)
    return [c for c in known if c in present] + sorted(present - set(known))


def _weights(g: pd.DataFrame) -> np.ndarray:
    """How many hands each row of a hand frame stands for: its ``count`` (a ``fold``-ed frame) or 1."""
    return g["count"].to_numpy(np.int64) if "count" in g else np.ones(len(g), np.int64)


def _n(g: pd.DataFrame) -> int:
    return int(_weights(g).sum())


def _count(g: pd.DataFrame, mask) -> int:
    """Hands of a frame where ``mask`` holds."""
    return int(_weights(g)[np.asarray(mask, bool)].sum())


def _mean(g: pd.DataFrame, values) -> float:
    """The mean over a frame's hands of an int column (an exact sum, as pandas' mean of ints)."""
    return int((np.asarray(values, np.int64) * _weights(g)).sum()) / _n(g)


def fold(frame: pd.DataFrame) -> pd.DataFrame:
    """A hand frame as one row per distinct hand with a ``count`` (the tables come out the same, in less memory)."""
    w = _weights(frame)
    keyed = frame[FRAME_COLUMNS].assign(count=w)
    return keyed.groupby(FRAME_COLUMNS, sort=False, dropna=False)["count"].sum().reset_index()


def fold_more(folded: pd.DataFrame | None, frame: pd.DataFrame) -> pd.DataFrame:
    """``folded`` with another frame's hands added (``fold`` of both)."""
    frame = fold(frame)
    return frame if folded is None else fold(pd.concat([folded, frame], ignore_index=True))


def _summary(g: pd.DataFrame) -> dict:
    """The played-against-dd cells of a group of hand rows (a frame or a ``fold``-ed one)."""
    n = _n(g)
    w = _weights(g)
    made = _count(g, g["played"] >= g["need"])
    par = _count(g, g["dd"] >= g["need"])
    diff = (g["dd"] - g["played"]).to_numpy(np.int64)
    left, left_lo, left_hi = mean_interval(float((diff * w).sum()), float((diff * diff * w).sum()), n)
    (m_lo, m_hi), (p_lo, p_hi) = (tuple(float(x) for x in _wilson(k, n)) for k in (made, par))
    return {
        "hands": n,
        "played_tricks": _mean(g, g["played"]),
        "dd_tricks": _mean(g, g["dd"]),
        "left_on_table": left, "left_low": left_lo, "left_high": left_hi,
        "make_rate": made / n, "make_low": m_lo, "make_high": m_hi,
        "par_rate": par / n, "par_low": p_lo, "par_high": p_hi,
        "makeable_set": _count(g, (g["dd"] >= g["need"]) & (g["played"] < g["need"])) / n,
        "unmakeable_made": _count(g, (g["dd"] < g["need"]) & (g["played"] >= g["need"])) / n,
    }


CONTRACT_COLUMNS = ["contract", "need", "hands", "played_tricks", "dd_tricks", "left_on_table", "left_low",
                    "left_high", "make_rate", "make_low", "make_high", "par_rate", "par_low", "par_high",
                    "makeable_set", "unmakeable_made"]
FEATURE_COLUMNS = ["contract", "trumps", "right_bower", "hands", "make_rate", "make_low", "make_high", "par_rate",
                   "par_low", "par_high", "left_on_table"]
STRENGTH_COLUMNS = ["trumps", "hands", "played_tricks", "dd_tricks", "left_on_table", "left_low", "left_high",
                    "make_rate", "make_low", "make_high", "par_rate", "par_low", "par_high"]
TRUMP_COLUMNS = ["contract", "hands", "best_trump", "best_low", "best_high", "dd_tricks", "best_tricks", "gain",
                 "par_rate", "par_best_rate"]


def contract_table(variant, frame: pd.DataFrame) -> pd.DataFrame:
    """``dd_by_contract``: a row per contract label played, then ``all`` (its ``need`` empty)."""
    rows = []
    for label in _order(variant, frame["contract"]):
        g = frame[frame["contract"] == label]
        needs = g["need"].unique()
        rows.append({"contract": label, "need": int(needs[0]) if len(needs) == 1 else None, **_summary(g)})
    if len(frame):
        rows.append({"contract": ALL, "need": None, **_summary(frame)})
    return pd.DataFrame(rows, columns=CONTRACT_COLUMNS).astype({"need": "Int64", "hands": np.int64})


def feature_table(variant, frame: pd.DataFrame) -> pd.DataFrame:
    """``dd_by_features``: a row per contract, trumps held by the maker's side and right bower held or not."""
    rows = []
    for label in _order(variant, frame["contract"]):
        g = frame[frame["contract"] == label]
        for (trumps, right), h in g.groupby(["trumps", "right_bower"], sort=True):
            s = _summary(h)
            rows.append({"contract": label, "trumps": int(trumps), "right_bower": bool(right),
                         **{k: s[k] for k in FEATURE_COLUMNS[3:]}})
    return pd.DataFrame(rows, columns=FEATURE_COLUMNS).astype({"trumps": np.int64, "right_bower": bool,
                                                               "hands": np.int64})


def strength_table(variant, frame: pd.DataFrame) -> pd.DataFrame:
    """``dd_by_strength``: over every contract, a row per number of trumps held by the maker's side."""
    rows = [{"trumps": int(t), **{k: v for k, v in _summary(g).items() if k in STRENGTH_COLUMNS}}
            for t, g in frame.groupby("trumps", sort=True)]
    return pd.DataFrame(rows, columns=STRENGTH_COLUMNS).astype({"trumps": np.int64, "hands": np.int64})


def trump_table(variant, frame: pd.DataFrame) -> pd.DataFrame:
    """``dd_trump_choice``: per contract and ``all``, how often the trump named was the makers' best double-dummy."""
    rows = []
    labels = _order(variant, frame["contract"])
    for label in labels + ([ALL] if len(frame) else []):
        g = frame if label == ALL else frame[frame["contract"] == label]
        n = _n(g)
        best = _count(g, g["dd"] == g["best"])
        lo, hi = (float(x) for x in _wilson(best, n))
        rows.append({
            "contract": label, "hands": n, "best_trump": best / n, "best_low": lo, "best_high": hi,
            "dd_tricks": _mean(g, g["dd"]), "best_tricks": _mean(g, g["best"]),
            "gain": _mean(g, g["best"] - g["dd"]),
            "par_rate": _count(g, g["dd"] >= g["need"]) / n, "par_best_rate": _count(g, g["best"] >= g["need"]) / n,
        })
    return pd.DataFrame(rows, columns=TRUMP_COLUMNS).astype({"hands": np.int64})


def dd_tables(variant, recs: list[dict]) -> dict[str, pd.DataFrame]:
    """Every double-dummy table (``TABLES``) of the records that carry ``dd`` (the others are left out)."""
    return frame_tables(variant, hand_frame(variant, recs))


def frame_tables(variant, frame: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Every double-dummy table (``TABLES``) of a ``hand_frame`` (frames of several batches concatenated, or
    ``fold``-ed: one row per distinct hand and its ``count``)."""
    return {
        "dd_by_contract": contract_table(variant, frame),
        "dd_by_features": feature_table(variant, frame),
        "dd_by_strength": strength_table(variant, frame),
        "dd_trump_choice": trump_table(variant, frame),
    }


# ---- report -----------------------------------------------------------------------------------


def report_section(v, hands: int, seed: int, rules_d: dict, strategy, progress=None) -> tuple[dict, dict, list]:
    """The report's double-dummy part: (tables, meta rows, notes) from the run's first ``hands`` hands.

    The hands are played again from the run's seed (hand ``k`` of a seed is
    the same hand in every run), so they are the report's own first hands;
    each played one is solved for the four trumps.
    """
    from bower.sim import runner

    frames, solved = [], 0
    for start in range(0, hands, REPORT_BATCH):
        recs = runner.hand_records(seed, start, min(REPORT_BATCH, hands - start), rules_d, strategy, v.name)
        solved += attach_dd(v, recs)
        frames.append(hand_frame(v, recs))
        if progress is not None:
            progress(start + len(recs), hands)
    kept = [f for f in frames if len(f)] or frames[:1]
    tables = frame_tables(v, pd.concat(kept, ignore_index=True) if len(kept) > 1 else kept[0])
    meta = {"double-dummy hands": f"{hands:,} (the run's first hands dealt; {solved:,} played, each solved for "
                                  f"the 4 trumps: the dd tables and plot)"}
    notes = [(
        f"Double dummy (dd_* tables and the last plot): the first {hands:,} hands dealt of this run, "
        f"{solved:,} of them played, solved with every hand open and best play by both sides (the maker's side against everyone else in "
        "play as one side) from the first lead, the hands as played (after any swap, dummy, widow or discard). 'par' rates are the double-dummy make "
        "rates; 'left_on_table' is the mean of the double-dummy tricks less the tricks the maker's side took (the "
        "makers' mistakes net of the defenders'); 'makeable_set' is the share of contracts that were makeable "
        "double-dummy but went down, 'unmakeable_made' the reverse (make_rate - par_rate = unmakeable_made - "
        "makeable_set). Hand strength is the number of trumps the maker's side held. Trump choice: the other "
        "trumps are solved with the same hands, so after any discard made for the trump named."
    )]
    return tables, meta, notes


def draw_plot(tables: dict[str, pd.DataFrame], staging: str) -> None:
    """Draw ``PLOT``: played and par make rate by trumps held by the maker's side (``tables["dd_by_strength"]``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    st = tables.get("dd_by_strength")
    st = st[st["hands"] >= MIN_PLOT_HANDS] if st is not None else None
    if st is not None and len(st):
        for col, lo, hi, shift, style, label in (
                ("make_rate", "make_low", "make_high", -0.06, "-", "played (the strategy)"),
                ("par_rate", "par_low", "par_high", 0.06, "--", "double dummy (par)")):
            err = [(st[col] - st[lo]).clip(lower=0), (st[hi] - st[col]).clip(lower=0)]
            ax.errorbar(st["trumps"] + shift, st[col], yerr=err, marker="o", ms=4, capsize=3, linestyle=style,
                        label=label)
        ax.set_xticks(range(int(st["trumps"].min()), int(st["trumps"].max()) + 1))
        ax.legend()
    else:
        ax.text(0.5, 0.5, f"no strength with {MIN_PLOT_HANDS}+ hands solved", ha="center", va="center",
                transform=ax.transAxes)
    ax.set_xlabel("trumps held by the maker's side at the first lead (bowers counted)")
    ax.set_ylabel("make rate (95% interval)")
    ax.set_ylim(0, 1.02)
    ax.set_title(PLOTS[PLOT], fontsize=10)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(staging, PLOT), dpi=110)
    plt.close(fig)
