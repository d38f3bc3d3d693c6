"""Writing tables and the HTML report (matplotlib PNGs with confidence bands), atomically, for any variant.

``write_tables`` saves a variant's tables as CSV or Parquet; ``write_report``
has the plots drawn and writes ``report.html``: a contents list, the run's
notes, the plots (each variant's ``Variant.draw_plots``, with the helpers
of ``bower.analysis.report_plots``), every table formatted for reading
(``bower.analysis.report_format``) and how the report was made (rules, strategy
parameters, the command that reproduces it). The page needs no
network and no script; it references only the PNGs beside it, or, with
``single_file``, none: the images are inside it as ``data:`` URIs.

The output folder is written whole or not at all: everything goes to a
staging folder beside it, which then takes the folder's name by a rename
(or, for a folder that exists, has its files moved in, the old ones put
back on any failure). A folder that already holds files is refused
(``OutputError``), unless ``force`` is given and the folder holds only what
a report writes (``report.html``, PNGs, CSV and Parquet tables): then the
new report replaces it, and nothing of the old one stays beside the new
files.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import html
import os
import re
import shutil
import tempfile

import pandas as pd

from bower.sim.errors import UserError

PAGE = "report.html"
REPORT_SUFFIXES = (".png", ".csv", ".parquet")  # with report.html: what a report folder may hold for --force
COLLAPSE_ROWS = 24  # tables longer than this are folded (a click shows them), so the page stays short
OFF_PAGE = ("bid_success",)  # tables too detailed for the page: in the files only (--csv)


class OutputError(UserError, OSError):
    """An output directory that cannot be created or written."""


def _reason(e: OSError) -> str:
    """An OSError's reason in words (``No space left on device``)."""
    if e.errno:
        return os.strerror(e.errno)
    return str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__


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


def _foreign(out_dir: str) -> list[str]:
    """The entries of ``out_dir`` that a report does not write (what ``force`` will not replace)."""
    return sorted(n for n in os.listdir(out_dir)
                  if not (n == PAGE or (n.endswith(REPORT_SUFFIXES) and not n.startswith(".")))
                  or os.path.isdir(os.path.join(out_dir, n)))


def check_report_dir(out_dir: str, force: bool = False) -> None:
    """OutputError now, before any long work, if ``out_dir`` cannot take a report.

    It must not be a file; a folder that holds anything is refused unless
    ``force``, and with ``force`` it may hold only what a report writes.
    """
    if not out_dir or not out_dir.strip():
        raise OutputError("--out needs a folder name")
    if os.path.isdir(out_dir):
        try:
            entries = os.listdir(out_dir)
        except OSError as e:
            raise OutputError(f"cannot write to {out_dir}: {_reason(e)}") from None
        if entries and not force:
            raise OutputError(f"--out {out_dir} already holds {len(entries)} file{'s' if len(entries) != 1 else ''}; "
                              "give a new folder, or --force to replace it")
        foreign = _foreign(out_dir) if entries else []
        if foreign:
            more = f" and {len(foreign) - 1} more" if len(foreign) > 1 else ""
            raise OutputError(f"--out {out_dir} holds {foreign[0]!r}{more}, which no report writes; --force "
                              "replaces only a report's folder: give a new folder")
    check_out_dir(out_dir)


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


def _replace_dir(staging: str, out_dir: str, force: bool) -> None:
    """Put the finished ``staging`` folder's files at ``out_dir`` (absent, empty, or with ``force`` a report's).

    A new ``out_dir`` is ``staging`` renamed (atomic). An existing folder
    keeps its identity (someone's current folder, its owner and mode): its
    old entries are moved aside, the new ones moved in, each by a rename on
    the same filesystem, and on any failure the old ones are put back.
    """
    if not os.path.lexists(out_dir):
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(staging, 0o777 & ~umask)
        try:
            os.rename(staging, out_dir)
            return
        except OSError as e:
            if e.errno not in (errno.ENOTEMPTY, errno.EEXIST) or not os.path.isdir(out_dir):
                raise  # made by someone else while the report ran: the rules of an existing folder
    check_report_dir(out_dir, force)  # it may have filled up while the report ran: the rules of the start
    trash = tempfile.mkdtemp(prefix=".bower-old-", dir=os.path.dirname(os.path.abspath(out_dir)))
    moved_old, moved_new = [], []
    try:
        for n in os.listdir(out_dir):
            os.rename(os.path.join(out_dir, n), os.path.join(trash, n))
            moved_old.append(n)
        for n in os.listdir(staging):
            os.rename(os.path.join(staging, n), os.path.join(out_dir, n))
            moved_new.append(n)
    except BaseException:
        for n in moved_new:
            with contextlib.suppress(OSError):
                os.rename(os.path.join(out_dir, n), os.path.join(staging, n))
        for n in moved_old:
            with contextlib.suppress(OSError):
                os.rename(os.path.join(trash, n), os.path.join(out_dir, n))
        raise
    finally:
        shutil.rmtree(trash, ignore_errors=True)
    os.rmdir(staging)


def _table_file(df: pd.DataFrame, path: str, fmt: str) -> None:
    frame = df.copy()
    for col in frame.columns:
        if isinstance(frame[col].dtype, pd.CategoricalDtype):
            frame[col] = frame[col].astype(str)
    if fmt == "csv":
        frame.to_csv(path, index=False)
    else:
        frame.to_parquet(path, index=False)


def write_tables(tables: dict[str, pd.DataFrame], out_dir: str, fmt: str) -> list[str]:
    """Write each table as ``out_dir/NAME.csv`` or ``.parquet``; all or nothing. Returns the paths."""
    staging = _staging_dir(out_dir)
    names = []
    try:
        for name, df in tables.items():
            fname = f"{name}.{fmt}"
            _table_file(df, os.path.join(staging, fname), fmt)
            names.append(fname)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    _publish(staging, out_dir, names)
    return [os.path.join(out_dir, n) for n in names]


def run_meta(v, name: str, params: dict, rules_d: dict, seed: int, extra: dict, reproduce: str) -> dict:
    """The report's table of how it was made: variant, rules, strategy, seed, counts, version, the command.

    ``strategy parameters`` is a dict: each parameter's value, default and meaning.
    """
    from bower.sim import __version__
    from bower.sim.rules import RULES_VERSION

    known = {p[0]: p for p in getattr(v, "params", ())}
    return {
        "variant": v.title,
        "rules": ", ".join(f"{k}={str(x).lower() if isinstance(x, bool) else x}" for k, x in rules_d.items()),
        "rules version": RULES_VERSION,
        "strategy": name,
        "strategy parameters": {k: {"value": x, "default": known[k][1] if k in known else None,
                                    "meaning": known[k][2] if k in known else ""} for k, x in params.items()},
        "seed": seed,
        **extra,
        "bower version": __version__,
        "reproduce with": reproduce,
    }


def add_dd_section(v, tables: dict, meta: dict, notes: list, hands: int, seed: int, rules_d: dict, strategy,
                   progress=None):
    """Add the double-dummy part of a report to ``tables``, ``meta`` and ``notes`` (in place); (plots, draw).

    The run's first ``hands`` hands are played again from ``seed`` and
    solved (``bower.analysis.dd.report_section``); the returned ``plots`` and
    ``draw`` are the variant's with the played-against-double-dummy plot
    after them, for ``write_report``.
    """
    from bower.analysis import dd
    from bower.analysis.report_plots import drawer

    dd_tables, dd_meta, dd_notes = dd.report_section(v, hands, seed, rules_d, strategy, progress)
    tables.update(dd_tables)
    tail = {k: meta.pop(k) for k in ("bower version", "reproduce with") if k in meta}
    meta.update(dd_meta)
    meta.update(tail)
    notes.extend(dd_notes)
    return drawer(v, with_dd=True)


# ---- the page -------------------------------------------------------------------------------------


CSS = """
*{box-sizing:border-box}
body{margin:0;background:#f6f6f3;color:#1f2328;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
main{max-width:1100px;margin:0 auto;padding:1.5rem 1.25rem 4rem;background:#fff;min-height:100vh}
h1{font-size:1.6rem;margin:0.2rem 0 0.2rem;line-height:1.25}
h2{font-size:1.2rem;margin:2.2rem 0 0.5rem;padding-top:0.6rem;border-top:1px solid #e3e3de;line-height:1.3}
.lede{color:#555;margin:0 0 1rem}
.group{margin-top:2.5rem}
.group>h2.band{font-size:0.8rem;text-transform:uppercase;letter-spacing:0.08em;color:#6b6b66;border:0;margin:0;padding:0}
nav{background:#f3f5f8;border:1px solid #e1e5eb;border-radius:6px;padding:0.6rem 1rem 0.7rem;margin:1rem 0 1.5rem}
nav h2{border:0;margin:0 0 0.3rem;padding:0;font-size:1rem}
nav ol{margin:0;padding-left:1.3rem}
nav ol ol{columns:2 18rem;column-gap:2rem;padding-left:1.1rem;margin:0.1rem 0 0.3rem}
nav li{break-inside:avoid}
a{color:#1f5fa8;text-decoration:none}a:hover{text-decoration:underline}
figure{margin:0.5rem 0 0}
img{display:block;width:100%;max-width:800px;height:auto}
figcaption{color:#555;font-size:0.9rem;max-width:800px;margin-top:0.3rem}
.scroll{overflow-x:auto;width:fit-content;max-width:100%;margin:0.4rem 0 0.2rem;border:1px solid #e3e3de;border-radius:4px}
table{border-collapse:collapse;font-size:13px;font-variant-numeric:tabular-nums}
table.t{min-width:50%}
table.t th{background:#f3f3ef;font-weight:600;vertical-align:bottom;padding:4px 8px;border-bottom:1px solid #d6d6d0;
 white-space:normal;min-width:4.5em;max-width:11em}
table.t td{padding:3px 8px;border-top:1px solid #eeeeea}
table.t td{white-space:nowrap}
@media (max-width:1000px){table.t td .ci{display:block;line-height:1.2}table.t{font-size:12.5px}
 table.t td,table.t th{padding-left:5px;padding-right:5px}table.t th{min-width:3.5em}
 main{padding-left:0.9rem;padding-right:0.9rem}}
table.t tbody tr:nth-child(even){background:#fbfbf9}
.n{text-align:right}.k{text-align:left}
td.k{font-weight:500}
td.e{color:#9a9a94;text-align:center}
.ci{color:#77776f;font-size:0.92em}
.foot,.rows{color:#666;font-size:0.85rem;margin:0.2rem 0 0}
details>summary{cursor:pointer;color:#1f5fa8;margin:0.3rem 0}
table.meta{width:100%;table-layout:fixed}
table.meta th{width:11rem;text-align:left;vertical-align:top;padding:4px 10px 4px 0;color:#444;font-weight:600}
table.meta td{padding:4px 0;vertical-align:top;overflow-wrap:anywhere}
table.meta tr+tr th,table.meta tr+tr td{border-top:1px solid #eeeeea}
table.params{width:100%}
table.params th:first-child,table.params td.n{width:1%;white-space:nowrap}
h3{font-size:1rem;margin:1.4rem 0 0.4rem}
table.params td,table.params th{padding:3px 10px 3px 0;text-align:left;vertical-align:top;border-top:1px solid #eeeeea}
table.params .n{text-align:right;white-space:nowrap}
table.params tr.changed td,table.params tr.changed th{background:#fff6dc}
code,pre{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:0.85em}
pre{white-space:pre-wrap;overflow-wrap:break-word;background:#f3f3ef;padding:0.5rem 0.7rem;border-radius:4px;margin:0}
.chips{display:flex;flex-wrap:wrap;gap:0.3rem}.chips code{background:#f0f0eb;border-radius:3px;padding:0 0.35rem}
@media (max-width:640px){main{padding:1rem 0.7rem 3rem}table.meta th{width:7.5rem}}
"""


def anchor(kind: str, name: str) -> str:
    """The id of a section of the page: ``plot-swap_value``, ``table-bid_by_position``."""
    stem = os.path.splitext(name)[0] if kind == "plot" else name
    return f"{kind}-" + re.sub(r"[^A-Za-z0-9_-]+", "-", stem).strip("-")


def _lede(meta: dict) -> str:
    """One line under the title: the strategy, the seed and the counts."""
    bits = []
    if meta.get("strategy"):
        bits.append(f"strategy {meta['strategy']}")
    for key in ("hands", "swap deals", "games", "double-dummy hands"):
        if key in meta:
            count = re.match(r"[\d,]+", str(meta[key]))
            bits.append(f"{count.group(0) if count else meta[key]} {key}")
    if "seed" in meta:
        bits.append(f"seed {meta['seed']}")
    if meta.get("bower version"):
        bits.append(f"bower {meta['bower version']}")
    return " · ".join(bits)


def _params(params: dict) -> list[tuple[str, str, str, bool]]:
    """(name, value as shown, meaning, changed from the default) of each strategy parameter."""
    out = []
    for k, p in params.items():
        if not isinstance(p, dict):
            p = {"value": p}
        value, default = p.get("value"), p.get("default")
        changed = default is not None and value != default
        shown = f"{value:g}" if isinstance(value, (int, float)) else str(value)
        if changed:
            shown += f" (default {default:g})"
        out.append((k, shown, p.get("meaning") or "", changed))
    return out


def _param_summary(params: dict) -> str:
    """``22 parameters, none changed from the defaults`` (or how many were)."""
    changed = sum(c for *_, c in _params(params))
    return (f"{len(params)} parameters, {changed if changed else 'none'} changed from the defaults"
            + (" (highlighted)" if changed else ""))


def _param_table(params: dict) -> str:
    """The strategy's parameters as a table: name, value (the default beside a changed one), meaning."""
    e = html.escape
    rows = [f"<tr{' class=changed' if changed else ''}><th scope='row'><code>{e(k)}</code></th>"
            f"<td class='n'>{e(shown)}</td><td>{e(meaning)}</td></tr>"
            for k, shown, meaning, changed in _params(params)]
    head = "<tr><th>parameter</th><th class='n'>value</th><th>meaning</th></tr>"
    return f"<div><table class='params'><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table></div>"


def _meta_value(key: str, value) -> str:
    e = html.escape
    if isinstance(value, dict):
        return f"{e(_param_summary(value))}: <a href='#params'>the table below</a>"
    text = str(value)
    if key == "reproduce with":
        return f"<pre>{e(re.sub(r'  +', ' ', text).strip())}</pre>"
    if key == "rules" and "=" in text:
        return "<div class='chips'>" + "".join(f"<code>{e(r.strip())}</code>" for r in text.split(",")) + "</div>"
    return e(text)


def _image(staging: str, fname: str, single_file: bool) -> str:
    if not single_file:
        return html.escape(fname, quote=True)
    with open(os.path.join(staging, fname), "rb") as fh:
        data = base64.b64encode(fh.read()).decode("ascii")
    return f"data:image/png;base64,{data}"


def page_html(tables: dict[str, pd.DataFrame], meta: dict, notes: list[str], plots: dict[str, str],
              plot_notes: dict[str, str], image_src) -> tuple[str, list[dict]]:
    """The page's HTML and its sections (``{"id", "title", "kind"}`` in page order).

    ``image_src(fname)`` gives each plot's ``src`` (its file name, or a data URI).
    """
    from bower.analysis.report_format import table_html

    e = html.escape
    title = f"{meta.get('variant', 'bower')}: bower report"
    sections: list[dict] = [{"id": "summary", "title": "Summary", "kind": "notes"}]
    body: list[str] = []
    body.append("<section id='summary'><h2>Summary</h2>" + "".join(f"<p>{e(n)}</p>" for n in notes) + "</section>")

    plot_parts = []
    for fname, caption in plots.items():
        sid = anchor("plot", fname)
        sections.append({"id": sid, "title": caption, "kind": "plot", "file": fname})
        note = plot_notes.get(fname)
        cap = f"<figcaption>{e(note)}</figcaption>" if note else ""
        plot_parts.append(f"<section id='{sid}'><h2>{e(caption)}</h2><figure>"
                          f"<img src='{image_src(fname)}' alt='{e(caption, quote=True)}' width='800' height='380'>"
                          f"{cap}</figure></section>")
    if plot_parts:
        body.append("<div class='group' id='plots'><h2 class='band'>Plots</h2>" + "".join(plot_parts) + "</div>")

    table_parts = []
    for name, df in tables.items():
        if name in OFF_PAGE:
            continue
        sid = anchor("table", name)
        heading = name.replace("_", " ")
        sections.append({"id": sid, "title": heading, "kind": "table", "table": name})
        inner = table_html(df)
        rows = len(df)
        if rows > COLLAPSE_ROWS:
            inner = f"<details><summary>Show the table ({rows:,} rows)</summary>{inner}</details>"
        elif rows == 0:
            inner = "<p class='rows'>No rows: nothing in this run to count here.</p>"
        table_parts.append(f"<section id='{sid}'><h2>{e(heading)}</h2>{inner}</section>")
    if table_parts:
        legend = ("<p class='foot'>Rates are percentages with their 95% interval in brackets; means have theirs "
                  "as \u201clow to high\u201d. \u2014 marks a cell with no hands to measure, n/a a column that does not "
                  "apply to the row. Hover a header for the columns of the CSV files (--csv).</p>")
        off = [f"{n} ({len(tables[n]):,} rows)" for n in tables if n in OFF_PAGE]
        if off:
            legend += (f"<p class='foot'>Too detailed for the page, in the files only (--csv): {e(', '.join(off))}."
                       "</p>")
        body.append("<div class='group' id='tables'><h2 class='band'>Tables</h2>" + legend + "".join(table_parts)
                    + "</div>")

    rows = "".join(f"<tr><th scope='row'>{e(str(k))}</th><td>{_meta_value(str(k), v)}</td></tr>"
                   for k, v in meta.items())
    sections.append({"id": "run", "title": "How this report was made", "kind": "run"})
    params = "".join(f"<h3 id='params'>{e(str(k).capitalize())}</h3>{_param_table(v)}" for k, v in meta.items()
                     if isinstance(v, dict))
    body.append(f"<section id='run'><h2>How this report was made</h2><table class='meta'>{rows}</table>{params}"
                "</section>")

    groups = [("Plots", "plots", "plot"), ("Tables", "tables", "table")]
    items = ["<li><a href='#summary'>Summary</a></li>"]
    for label, gid, kind in groups:
        subs = [s for s in sections if s["kind"] == kind]
        if subs:
            items.append(f"<li><a href='#{gid}'>{label}</a><ol>"
                         + "".join(f"<li><a href='#{s['id']}'>{e(s['title'])}</a></li>" for s in subs) + "</ol></li>")
    items.append("<li><a href='#run'>How this report was made</a></li>")
    nav = f"<nav id='contents' aria-label='Contents'><h2>Contents</h2><ol>{''.join(items)}</ol></nav>"

    page = "\n".join([
        "<!DOCTYPE html>",
        "<html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{e(title)}</title>",
        f"<style>{CSS}</style></head><body><main>",
        f"<header><h1>{e(title)}</h1><p class='lede'>{e(_lede(meta))}</p></header>",
        nav,
        *body,
        "</main></body></html>",
    ])
    return page, sections


def build_report(out_dir: str, tables: dict[str, pd.DataFrame], meta: dict, notes: list[str], plots: dict[str, str],
                 draw, *, single_file: bool = False, csv: bool = False, force: bool = False) -> dict:
    """Write the report folder (all or nothing) and return what was written.

    The summary: ``path`` (the page), ``folder``, ``files`` (names in the
    folder), ``sections`` (``id``, ``title``, ``kind`` in page order),
    ``tables`` (``name``, ``rows``, ``columns``, ``on_page``), ``plots``,
    ``single_file``. A fault while writing (a full disk) is an OutputError
    with nothing left behind.
    """
    staging = _staging_dir(out_dir)
    try:
        plot_notes = draw(tables, staging) or {}
        page, sections = page_html(tables, meta, notes, plots, plot_notes,
                                   lambda f: _image(staging, f, single_file))
        if single_file:
            for fname in plots:
                os.remove(os.path.join(staging, fname))
        with open(os.path.join(staging, PAGE), "w", encoding="utf-8") as fh:
            fh.write(page)
        if csv:
            for name, df in tables.items():
                _table_file(df, os.path.join(staging, f"{name}.csv"), "csv")
        files = sorted(os.listdir(staging))
        _replace_dir(staging, out_dir, force)
    except OSError as e:
        shutil.rmtree(staging, ignore_errors=True)
        if isinstance(e, OutputError):
            raise
        raise OutputError(f"cannot write to {out_dir}: {_reason(e)}") from None
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return {
        "path": os.path.join(out_dir, PAGE),
        "folder": out_dir,
        "single_file": single_file,
        "files": files,
        "sections": sections,
        "tables": [{"name": n, "rows": int(len(df)), "columns": list(map(str, df.columns)),
                    "on_page": n not in OFF_PAGE} for n, df in tables.items()],
        "plots": list(plots),
    }


def write_report(out_dir: str, tables: dict[str, pd.DataFrame], meta: dict, notes: list[str], plots: dict[str, str],
                 draw, **options) -> str:
    """Write ``out_dir/report.html`` and its PNGs (all or nothing); returns the report's path.

    ``plots`` maps each PNG's file name to its caption; ``draw(tables, folder)``
    draws them into the staging folder (and may return a note per plot).
    ``options`` are ``build_report``'s (``single_file``, ``csv``, ``force``).
    """
    return build_report(out_dir, tables, meta, notes, plots, draw, **options)["path"]
