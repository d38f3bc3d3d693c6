"""Writing tables and the HTML report (matplotlib PNGs with confidence bands), atomically, for any variant.

``write_tables`` saves a variant's tables as CSV or Parquet; ``write_report``
has the variant draw its plots and writes ``report.html``,
which references only the files it wrote beside it and needs no network.
"""

from __future__ import annotations

import html
import os
import shutil
import tempfile

import pandas as pd

from sim.errors import UserError



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






def position_plot(tables: dict[str, pd.DataFrame], staging: str, title: str = "Points per hand by position",
                  xlabel: str = "position (1 = dealer's left, 3 = dealer)") -> None:
    """The bar plot of mean points per hand by position (``tables["position"]``) as points_by_position.png."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.2))
    pos = tables.get("position")
    if pos is not None:
        err = [(pos["points_per_hand"] - pos["points_low"]).clip(lower=0), (pos["points_high"] - pos["points_per_hand"]).clip(lower=0)]
        ax.bar(pos["position"].astype(str), pos["points_per_hand"], yerr=err, capsize=4, color="#8fbf7f")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("mean points per hand (95% interval)")
    ax.set_title(title)
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    fig.savefig(os.path.join(staging, "points_by_position.png"), dpi=110)
    plt.close(fig)


def run_meta(v, name: str, params: dict, rules_d: dict, seed: int, extra: dict, reproduce: str) -> dict:
    """The report's table of how it was made: variant, rules, strategy, seed, counts, version, the command."""
    from sim import __version__
    from sim.rules import RULES_VERSION

    return {
        "variant": v.title,
        "rules": ", ".join(f"{k}={str(x).lower() if isinstance(x, bool) else x}" for k, x in rules_d.items()),
        "rules version": RULES_VERSION,
        "strategy": name,
        "strategy parameters": ", ".join(f"{k}={x:g}" for k, x in params.items()),
        "seed": seed,
        **extra,
        "bower version": __version__,
        "reproduce with": reproduce,
    }


def add_dd_section(v, tables: dict, meta: dict, notes: list, hands: int, seed: int, rules_d: dict, strategy,
                   progress=None):
    """Add the double-dummy part of a report to ``tables``, ``meta`` and ``notes`` (in place); (plots, draw).

    The run's first ``hands`` hands are played again from ``seed`` and
    solved (``analysis.dd.report_section``); the returned ``plots`` and
    ``draw`` are the variant's with the played-against-double-dummy plot
    after them, for ``write_report``.
    """
    from analysis import dd

    dd_tables, dd_meta, dd_notes = dd.report_section(v, hands, seed, rules_d, strategy, progress)
    tables.update(dd_tables)
    tail = {k: meta.pop(k) for k in ("bower version", "reproduce with") if k in meta}
    meta.update(dd_meta)
    meta.update(tail)
    notes.extend(dd_notes)
    variant_draw = v.draw_plots

    def draw(t: dict, staging: str) -> None:
        variant_draw(t, staging)
        dd.draw_plot(t, staging)

    return {**v.plots, **dd.PLOTS}, draw


def _fmt_table(df: pd.DataFrame) -> str:
    return df.to_html(index=False, float_format=lambda x: f"{x:.4f}", border=0, classes="t")


def write_report(out_dir: str, tables: dict[str, pd.DataFrame], meta: dict, notes: list[str], plots: dict[str, str],
                 draw) -> str:
    """Write ``out_dir/report.html`` and its PNGs (all or nothing); returns the report's path.

    ``plots`` maps each PNG's file name to its caption; ``draw(tables, folder)``
    (the variant's ``draw_plots``) draws them into the staging folder.
    """
    staging = _staging_dir(out_dir)
    try:
        draw(tables, staging)
        rows = "".join(f"<tr><th>{html.escape(str(k))}</th><td>{html.escape(str(v))}</td></tr>" for k, v in meta.items())
        parts = [
            "<!DOCTYPE html><html><head><meta charset='utf-8'><title>bower report</title>",
            "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}"
            "table.t,table.meta{border-collapse:collapse;font-size:13px;margin:0.5em 0 1.5em}"
            "table.t td,table.t th,table.meta td,table.meta th{border:1px solid #ccc;padding:2px 6px;text-align:right}"
            "table.meta th{text-align:left;background:#f3f3f3}img{max-width:100%}</style></head><body>",
            f"<h1>{html.escape(meta.get('variant', 'bower'))}: bower report</h1>",
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
