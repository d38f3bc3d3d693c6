"""``bower report``: the page's formatting, contents, plots, --single-file, --json, --open, and its refusals.

The report runs are small (2,000 hands, 200 solved double dummy) with fixed
seeds; one Ghost Hand run is shared by the tests that only read its page.
"""

from __future__ import annotations

import base64
import contextlib
import errno
import io
import json
import os
import re
from html.parser import HTMLParser

import numpy as np
import pandas as pd
import pytest

from bower.analysis import report as rep
from bower.analysis import report_format as rf
from bower.analysis import report_plots as rp
from bower.sim.cli import main
from bower.sim.variants.cutthroat import plots as cutthroat_plots
from bower.sim.variants.ghost import plots as ghost_plots
from tests.cli_run import run, one_error

SMALL = ["--hands", "2000", "--games", "64", "--dd-hands", "200", "--seed", "7"]


def run_quiet(*args) -> tuple[int, str, str]:
    """``main`` with stdout and stderr captured, for module-scoped fixtures (no capsys there)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), pytest.raises(SystemExit) as e:
        main(list(args))
    return e.value.code, out.getvalue(), err.getvalue()


class Page(HTMLParser):
    """The parts of a report page the tests look at: ids, links, image sources, text."""

    def __init__(self, text: str):
        super().__init__()
        self.ids, self.links, self.images, self.text = [], [], [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and "href" in a:
            self.links.append(a["href"])
        if tag == "img":
            self.images.append(a.get("src", ""))

    def handle_data(self, data):
        self.text.append(data)


def plot_faults(fig) -> list[str]:
    """What a drawn figure gets wrong: text cut off at its edge, data outside its axes, a title, a legend on the data."""
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    fb = fig.bbox
    faults = []

    def outside(b, box, tol):
        return b.x0 < box.x0 - tol or b.y0 < box.y0 - tol or b.x1 > box.x1 + tol or b.y1 > box.y1 + tol

    for ax in fig.axes:
        if outside(ax.get_tightbbox(r), fb, 1):  # the axes with their drawn tick labels and axis labels
            faults.append(f"labels cut off: {ax.get_ylabel()!r} / {ax.get_xlabel()!r}")
        for t in ax.texts:
            if t.get_visible() and t.get_text().strip() and outside(t.get_window_extent(r), ax.bbox, 1):
                faults.append(f"text beyond the axes: {t.get_text()!r}")
        if ax.get_title():
            faults.append(f"a title: {ax.get_title()!r}")
        for artist in [*ax.lines, *ax.collections, *ax.patches]:
            b = artist.get_window_extent(r)
            if b.width > 0 and outside(b, ax.bbox, 2):
                faults.append(f"data beyond the axes: {artist!r}")
        for leg in fig.legends:
            if leg.get_window_extent(r).overlaps(ax.bbox):
                faults.append("the legend over the axes")
    return faults


@pytest.fixture(autouse=True)
def checked_plots(monkeypatch):
    """Every plot the tests draw is checked by ``plot_faults`` before it is saved."""
    save = rp.save
    found = []

    def checked(fig, path):
        found.extend(f"{os.path.basename(path)}: {f}" for f in plot_faults(fig))
        save(fig, path)

    monkeypatch.setattr(rp, "save", checked)
    yield
    assert found == []


@pytest.fixture(scope="module")
def ghost_report(tmp_path_factory):
    """One small Ghost Hand report (with --json and --csv): (folder, summary, page text)."""
    out = tmp_path_factory.mktemp("ghost") / "rep"
    code, stdout, err = run_quiet("report", *SMALL, "--out", str(out), "--json", "--csv")
    assert code == 0, err
    return out, json.loads(stdout), (out / "report.html").read_text(encoding="utf-8")


# ---------------------------------------------------------------- formatting helpers (exact strings)


def test_counts_have_thousands_separators():
    assert rf.fmt_count(47973) == "47,973"
    assert rf.fmt_count(47973.0) == "47,973"
    assert rf.fmt_count(np.int64(1_000_000)) == "1,000,000"
    assert rf.fmt_count(0) == "0"
    assert rf.fmt_count(float("nan")) == rf.NO_DATA == "—"


def test_rates_are_percentages_with_their_interval():
    assert rf.fmt_rate(0.9091, 0.9019, 0.9159) == "90.9% (90.2–91.6%)"
    assert rf.fmt_rate(0.9091, 0.9019, 0.9159, decimals=2) == "90.91% (90.19–91.59%)"
    assert rf.fmt_rate(1.0, 0.722467, 1.0) == "100.0% (72.2–100.0%)"
    assert rf.fmt_rate(0.018, float("nan"), float("nan")) == "1.8%"
    assert rf.fmt_rate(float("nan"), 0.1, 0.2) == "—"
    # a share that is not 0 or 1 never reads as 0.0% or 100.0%
    assert rf.fmt_pct(0.99996) == "99.996%"
    assert rf.fmt_pct(0.0004) == "0.04%"
    assert rf.fmt_pct(1e-9) == "<0.001%"
    assert rf.fmt_pct(1 - 1e-15) == "100.0%"  # a Wilson bound of 1 computed in floats is 1


def test_means_signs_and_no_negative_zero():
    assert rf.fmt_mean(3.4579, 3.4042, 3.5117) == "3.46 (3.40 to 3.51)"
    assert rf.fmt_mean(-0.0276, -0.0626, 0.0073) == "−0.03 (−0.06 to 0.01)"
    assert rf.fmt_number(-0.0) == "0.00"
    assert rf.fmt_number(-0.001) == "0.00"
    assert rf.fmt_number(-0.004, 1) == "0.0"
    assert rf.fmt_pct(-0.0) == "0.0%"
    assert rf.fmt_key(-0.0) == "0" and rf.fmt_key(2.25) == "2.25" and rf.fmt_key(3.0) == "3"
    assert rf.fmt_key(True) == "yes" and rf.fmt_key(np.bool_(False)) == "no"


def test_interval_decimals_follow_the_interval_width():
    wide = pd.Series([0.10, 0.20]), pd.Series([0.16, 0.26])  # half-width 3 points
    narrow = pd.Series([0.5000]), pd.Series([0.5008])  # half-width 0.04 points
    assert rf.interval_decimals(*wide, 100, 1, 2) == 1
    assert rf.interval_decimals(*narrow, 100, 1, 2) == 2


def _frame():
    return pd.DataFrame({
        "estimate": [4.0, 4.5, 5.0],
        "dummy_hands": [136, 0, 0],
        "mean_gain": [0.6089, float("nan"), float("nan")],
        "dummy_make_rate": [0.985294, float("nan"), float("nan")],
        "dummy_make_low": [0.947968, float("nan"), float("nan")],
        "dummy_make_high": [0.995958, float("nan"), float("nan")],
        "alone_hands": [50, 45, 10],
        "alone_make_rate": [1.0, 1.0, 1.0],
        "alone_make_low": [0.928652, 0.921348, 0.722467],
        "alone_make_high": [1.0, 1.0, 1.0],
        "gain": [-0.0, -0.00001, 0.25],
        "made": [50.0, float("nan"), 10.0],
        "hands": [50, 45, 10],
    })


def test_columns_fold_intervals_and_empty_cells_say_why():
    df = _frame()
    headers, rows = rf.table_rows(df)
    assert headers == ["trick estimate", "dummy hands", "mean gain in estimate", "dummy make rate", "alone hands",
                       "alone make rate", "gain", "made", "hands"]
    assert rows[0] == ["4", "136", "0.61", "98.5% (94.8–99.6%)", "50", "100.0% (92.9–100.0%)", "0.00", "50", "50"]
    # no dummy makers at 4.5: their cells are "no hands", not NaN; a made count missing with hands is n/a
    assert rows[1][2:4] == ["—", "—"] and rows[1][7] == "n/a"
    plan = {c.name: c for c in rf.plan_columns(df)}
    assert rf.cell_text(plan["dummy_make_rate"], df.iloc[1]) == ("—", "no hands")
    assert rf.cell_text(plan["made"], df.iloc[1]) == ("n/a", "does not apply to this row")


def test_table_html_has_no_nan_or_negative_zero():
    page = rf.table_html(_frame())
    text = "".join(Page(page).text)
    assert "NaN" not in page and "nan" not in text and "-0.0" not in text and "−0.00" not in text
    assert "title='no hands'" in page and "— no hands" in page  # the cell's title and the footnote
    assert "<div class='scroll'>" in page  # a wide table scrolls inside its box, not the page


# ---------------------------------------------------------------- plots


def test_y_limits_hold_every_error_bar():
    lo, hi = rp.y_limits([-7.5, 0.2, -1.0], [1.0, 2.0, 0.5], extra=[0])
    assert lo < -7.5 and hi > 2.0
    lo, hi = rp.y_limits([0.0, 0.9], [0.2, 1.0], rate=True)
    assert -0.03 <= lo < 0.0 and 1.0 < hi <= 1.03
    assert rp.y_limits([0.5, 0.6], [0.7, 0.8], bars=True)[0] == 0.0  # bars rise from 0
    assert rp.y_limits([], []) is None


def test_the_swap_plot_shows_every_band_and_has_no_title(monkeypatch, tmp_path):
    figs = []
    monkeypatch.setattr(rp, "save", lambda fig, path: figs.append(fig))
    strength = np.arange(12) * 0.25 + 1.0
    gain = np.linspace(1.0, -9.0, 12)  # far below the old fixed limit of -5
    sw = pd.DataFrame({"position": 1, "strength": strength, "decisions": 500, "gain_points": gain,
                       "gain_low": gain - 0.8, "gain_high": gain + 0.8, "gain_margin": gain, "margin_low": gain,
                       "margin_high": gain})
    tables = {"swap_value_by_position": sw, "swap_value": sw.drop(columns="position")}
    ghost_plots.swap_value(tables, str(tmp_path / "swap.png"))
    ax = figs[0].axes[0]
    lo, hi = ax.get_ylim()
    assert lo < (gain - 0.8).min() and hi > (gain + 0.8).max()
    assert ax.get_title() == ""
    assert not ax.texts  # nothing printed over the data


def test_the_dummy_plot_says_where_both_were_seen(tmp_path):
    dv = _frame()
    note = cutthroat_plots.dummy_value({"dummy_value": dv}, str(tmp_path / "d.png"))
    assert note.startswith("Like with like only where both were seen") and "strength 4 (136 with the dummy, 50 alone)" in note
    apart = dv.assign(alone_hands=[0, 45, 10])
    note = cutthroat_plots.dummy_value({"dummy_value": apart}, str(tmp_path / "d.png"))
    assert note.startswith("No strength has 30+ makers both with the dummy and alone")
    assert (tmp_path / "d.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ---------------------------------------------------------------- the page


def test_contents_links_match_the_sections(ghost_report):
    out, summary, text = ghost_report
    page = Page(text)
    nav = text[text.index("<nav"):text.index("</nav>")]
    links = [h[1:] for h in Page(nav).links]
    assert links and all(h.startswith("#") for h in Page(nav).links)
    assert set(links) <= set(page.ids)  # every link has its section
    sections = [s["id"] for s in summary["sections"]]
    assert [x for x in links if x not in ("plots", "tables")] == sections  # and every section its link, in order
    assert len(set(page.ids)) == len(page.ids)
    on_page = [t["name"] for t in summary["tables"] if t["on_page"]]
    assert [s["table"] for s in summary["sections"] if s["kind"] == "table"] == on_page
    assert [s["file"] for s in summary["sections"] if s["kind"] == "plot"] == summary["plots"]


def test_the_page_shows_the_tables_numbers_formatted(ghost_report):
    out, summary, text = ghost_report
    body = " ".join(Page(text).text)
    assert "NaN" not in body and "nan" not in body.split() and "-0.0" not in body
    tables = " ".join(Page(text[text.index("id='tables'"):text.index("id='run'")]).text)
    assert not re.search(r"\d\.\d{4}", tables)  # no 4-decimal floats (the strategy's parameters are as set)
    pos = pd.read_csv(out / "bid_by_position.csv")
    row = pos.iloc[0]
    cell = rf.fmt_rate(row["make_rate"], row["make_low"], row["make_high"],
                       rf.interval_decimals(pos["make_low"], pos["make_high"], 100, 1, 2))
    value, _, ci = cell.partition(" (")
    assert f"<span class='v'>{value}</span> <span class='ci'>({ci}</span>" in text
    assert f"{int(row['hands']):,}" in body


def test_parameters_are_a_table(ghost_report):
    out, summary, text = ghost_report
    params = text[text.index("<table class='params'>"):]
    params = params[:params.index("</table>")]
    from bower.sim.variants import get_variant

    n = len(get_variant("ghost").param_names)
    assert params.count("<tr") == 1 + n  # the header and one row per Ghost Hand parameter
    assert "<code>swap_below</code>" in params and "swap to the ghost hand" in params


def test_json_summary_names_what_was_written(ghost_report):
    out, summary, text = ghost_report
    assert summary["path"] == str(out / "report.html") and summary["folder"] == str(out)
    assert sorted(summary["files"]) == sorted(os.listdir(out))
    assert {f"{t['name']}.csv" for t in summary["tables"]} <= set(summary["files"])
    assert summary["single_file"] is False and summary["opened"] is None
    bid = next(t for t in summary["tables"] if t["name"] == "bid_success")
    assert bid["on_page"] is False and bid["rows"] == len(pd.read_csv(out / "bid_success.csv"))
    assert [s["kind"] for s in summary["sections"]][0] == "notes" and summary["sections"][-1]["id"] == "run"


def test_single_file_has_every_image_inside(capsys, tmp_path):
    out = tmp_path / "one"
    code, stdout, err = run(capsys, "report", "--variant", "hasenpfeffer", *SMALL, "--out", str(out),
                            "--single-file", "--json")
    assert code == 0, err
    summary = json.loads(stdout)
    assert os.listdir(out) == ["report.html"] and summary["files"] == ["report.html"]
    text = (out / "report.html").read_text(encoding="utf-8")
    page = Page(text)
    assert len(page.images) == len(summary["plots"]) == 4
    for src in page.images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1], validate=True)[:8] == b"\x89PNG\r\n\x1a\n"
    assert all(link.startswith("#") for link in page.links)
    assert not re.search(r"""(src|href)=['"](?!data:|#)""", text)  # nothing outside the file
    assert "--single-file" in text  # the command that reproduces it


def test_open_without_a_browser_is_a_note(capsys, tmp_path, monkeypatch):
    import webbrowser

    def none():
        raise webbrowser.Error("could not locate runnable browser")

    monkeypatch.setattr(webbrowser, "get", none)
    code, out, err = run(capsys, "report", "--variant", "euchre", *SMALL, "--dd-hands", "0", "--out",
                         str(tmp_path / "r"), "--open")
    assert code == 0 and out.startswith("wrote ")
    assert f"bower: no web browser to open the report; open {tmp_path / 'r' / 'report.html'} yourself" in err


def test_open_hands_the_page_to_the_browser(tmp_path, monkeypatch):
    import importlib
    import webbrowser

    cli_report = importlib.import_module("bower.sim.cli.report")  # the module (bower.sim.cli.report is the command)
    opened = []

    class Browser:
        def open(self, url):
            opened.append(url)
            return True

    monkeypatch.setattr(webbrowser, "get", lambda: Browser())
    assert cli_report._open(str(tmp_path / "r" / "report.html")) is True
    assert opened == [f"file://{tmp_path / 'r' / 'report.html'}"]


# ---------------------------------------------------------------- refusals: one line, exit 2, nothing left


def test_an_existing_folder_is_refused(capsys, tmp_path):
    out = tmp_path / "rep"
    out.mkdir()
    (out / "order_up.png").write_bytes(b"an older report's plot")
    line = one_error(capsys, "report", *SMALL, "--out", str(out))
    assert line == f"bower: error: --out {out} already holds 1 file; give a new folder, or --force to replace it"
    assert os.listdir(out) == ["order_up.png"] and sorted(os.listdir(tmp_path)) == ["rep"]


def test_force_replaces_a_report_folder_whole(capsys, tmp_path):
    out = tmp_path / "rep"
    out.mkdir()
    for name in ("report.html", "order_up.png", "dummy_value.csv"):  # another variant's report
        (out / name).write_text("stale")
    code, stdout, err = run(capsys, "report", *SMALL, "--dd-hands", "0", "--out", str(out), "--force")
    assert code == 0, err
    names = sorted(os.listdir(out))
    assert names == sorted(["report.html", "make_rate_by_strength.png", "swap_value.png", "moon_odds.png",
                            "points_by_position.png"])
    assert "stale" not in (out / "report.html").read_text()
    assert sorted(os.listdir(tmp_path)) == ["rep"]  # no staging or old folder beside it


def test_force_does_not_replace_other_files(capsys, tmp_path):
    out = tmp_path / "work"
    out.mkdir()
    (out / "report.html").write_text("x")
    (out / "notes.txt").write_text("mine")
    line = one_error(capsys, "report", *SMALL, "--out", str(out), "--force")
    assert line == (f"bower: error: --out {out} holds 'notes.txt', which no report writes; --force replaces only a "
                    "report's folder: give a new folder")
    assert sorted(os.listdir(out)) == ["notes.txt", "report.html"]


def test_an_empty_folder_is_used_and_kept(capsys, tmp_path):
    out = tmp_path / "rep"
    out.mkdir()
    inode = os.stat(out).st_ino
    code, stdout, err = run(capsys, "report", "--variant", "cutthroat", *SMALL, "--dd-hands", "0", "--out", str(out))
    assert code == 0, err
    assert "report.html" in os.listdir(out) and sorted(os.listdir(tmp_path)) == ["rep"]
    assert os.stat(out).st_ino == inode  # the same folder (someone's current folder stays valid)


def test_a_new_folder_has_the_usual_mode(capsys, tmp_path):
    out = tmp_path / "new"
    code, stdout, err = run(capsys, "report", "--variant", "euchre", *SMALL, "--dd-hands", "0", "--out", str(out))
    assert code == 0, err
    umask = os.umask(0)
    os.umask(umask)
    assert os.stat(out).st_mode & 0o777 == 0o777 & ~umask  # not the staging folder's 0700


def test_a_failed_replace_puts_the_old_report_back(capsys, tmp_path, monkeypatch):
    out = tmp_path / "rep"
    out.mkdir()
    (out / "report.html").write_text("the old page")
    (out / "old.png").write_bytes(b"old")
    rename = os.rename

    def failing(src, dst):
        staged = os.path.basename(os.path.dirname(os.path.abspath(src)))
        if os.path.dirname(os.path.abspath(dst)) == str(out) and staged.startswith(".bower-") \
                and not staged.startswith(".bower-old-") and os.path.basename(src) == "report.html":
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        rename(src, dst)

    monkeypatch.setattr(os, "rename", failing)
    line = one_error(capsys, "report", *SMALL, "--dd-hands", "0", "--out", str(out), "--force")
    assert line == f"bower: error: cannot write to {out}: No space left on device"
    assert sorted(os.listdir(out)) == ["old.png", "report.html"] and (out / "report.html").read_text() == "the old page"
    assert sorted(os.listdir(tmp_path)) == ["rep"]


@pytest.mark.parametrize("variant", ["cutthroat", "hasenpfeffer", "euchre"])
def test_swap_deals_without_a_ghost_hand_are_refused(capsys, tmp_path, monkeypatch, variant):
    monkeypatch.chdir(tmp_path)
    line = one_error(capsys, "report", "--variant", variant, "--swap-deals", "5", "--out", "rep")
    assert line == (f"bower: error: --swap-deals is the Ghost Hand report's swap analysis; --variant {variant} has "
                    "no ghost hand (leave --swap-deals out)")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("flag, limit", [("--swap-deals", "1e11"), ("--hands", "1e12"), ("--games", "1e10"),
                                         ("--dd-hands", "1e12")])
def test_counts_no_run_could_finish_are_refused(capsys, tmp_path, monkeypatch, flag, limit):
    monkeypatch.chdir(tmp_path)
    line = one_error(capsys, "report", flag, str(10**20), "--out", "rep")
    assert flag in line and f"at most {limit}" in line and "100,000,000,000,000,000,000" in line
    assert os.listdir(tmp_path) == []


def test_the_limits_are_in_the_help(capsys):
    code, out, _ = run(capsys, "report", "--help")
    text = " ".join(out.split())
    assert code == 0 and "at most 1e11" in text and "at most 1e12" in text and "--single-file" in text


def _enospc(*args, **kwargs):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_leaves_nothing(capsys, tmp_path, monkeypatch):
    # the last file written (the page) fails: the plots already staged must go too
    monkeypatch.setattr(rep, "page_html", lambda *a, **k: _enospc())
    out = tmp_path / "rep"
    line = one_error(capsys, "report", *SMALL, "--dd-hands", "0", "--out", str(out))
    assert line == f"bower: error: cannot write to {out}: No space left on device"
    assert os.listdir(tmp_path) == []


def test_a_full_tmpfs_leaves_nothing(capsys, small_disk):
    # 100 KiB left: room for a plot or two, not for the report
    st = os.statvfs(small_disk)
    with open(small_disk / "filler", "wb") as fh:
        fh.write(b"\0" * (st.f_bavail * st.f_frsize - 100 * 1024))
    out = small_disk / "rep"
    line = one_error(capsys, "report", *SMALL, "--out", str(out), "--csv")
    assert line == f"bower: error: cannot write to {out}: No space left on device"
    assert os.listdir(small_disk) == ["filler"]
