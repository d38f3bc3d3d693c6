"""The figure checker of README.md and docs/ (tests/docs_check.py, `make docs-check`): its parser, its verdicts and
the files it reads, on tiny fake blocks."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from tests import docs_check as dc

FAKE = """# Title

<!-- docs-check: fake
$ printf '{"rate": 0.39316, "games": 60288, "diff": 0.01149}'
39.32% = j["rate"]
60,288 = j["games"]
+1.15 = j["diff"] * 100
contains: "games"
-->
`x` wins 39.32% of 60,288 games, +1.15 points ahead.

<!-- docs-check: timing
measured: a 2-core Intel Xeon
-->
It takes 4 min 45 s.
"""


def test_parser_reads_blocks_figures_and_text():
    blocks = dc.parse(FAKE)
    assert [b.name for b in blocks] == ["fake", "timing"]
    fake, timing = blocks
    assert fake.line == 3
    assert fake.commands == ["""printf '{"rate": 0.39316, "games": 60288, "diff": 0.01149}'"""]
    assert [(f.text, f.expr) for f in fake.figures] == [
        ("39.32%", 'j["rate"]'), ("60,288", 'j["games"]'), ("+1.15", 'j["diff"] * 100')]
    assert fake.contains == ['"games"']
    assert "wins 39.32%" in fake.text and "4 min" in fake.text and "measured:" not in fake.text
    assert timing.measured == "a 2-core Intel Xeon" and not timing.commands


@pytest.mark.parametrize("text, got, ok", [
    ("39.32%", 0.39316, True), ("39.32%", 0.39326, False), ("39.3%", 0.3934, True), ("39.2%", 0.3932, False),
    ("60,288", 60288, True), ("60,288", 60289, False), ("+1.15", 1.149, True), ("+1.15", -1.15, False),
    ("-0.89", -0.891, True), ("3.24", 3.2449, True), ("3.24", 3.2451, False),
])
def test_compare_reads_the_figures_precision(text, got, ok):
    assert dc.compare(dc.Figure(text, "x"), got)[0] is ok


def test_tolerance_widens_the_comparison():
    assert not dc.compare(dc.Figure("120", "x"), 123)[0]
    assert dc.compare(dc.Figure("120", "x", tol=5), 123)[0]


def test_a_right_readme_passes_and_a_wrong_figure_is_flagged():
    out = io.StringIO()
    assert dc.check(dc.parse(FAKE), stream=out) == 0, out.getvalue()
    assert "OK   fake: 39.32%" in out.getvalue() and "SKIP timing" in out.getvalue()
    # the text says 39.2% but the command gives 39.32%: flagged, and the rerun's value shown
    wrong = FAKE.replace("39.32%", "39.2%")
    out = io.StringIO()
    assert dc.check(dc.parse(wrong), stream=out) == 1
    assert "DIFF fake: 39.2% (rerun gives 39.3%)" in out.getvalue()


def test_a_figure_missing_from_the_text_or_a_failing_command_is_flagged():
    out = io.StringIO()
    stale = FAKE.replace("of 60,288 games", "of 60,000 games")
    assert dc.check(dc.parse(stale), stream=out) == 1
    assert "figure 60,288 is not in the text" in out.getvalue()
    broken = FAKE.replace("$ printf", "$ false; printf")
    out = io.StringIO()
    assert dc.check(dc.parse(broken), stream=out) == 1 + 3 + 1
    assert "exited 1" in out.getvalue()


def test_identical_commands_run_once():
    fake_block = FAKE[FAKE.index("<!--"):FAKE.index("-->") + 3]
    twice = FAKE + "\n" + fake_block.replace("docs-check: fake", "docs-check: again") + "\n39.32% of 60,288, +1.15\n"
    out = io.StringIO()
    assert dc.check(dc.parse(twice), stream=out) == 0, out.getvalue()
    assert "again: (an earlier block's run)" in out.getvalue()


def test_malformed_blocks_are_refused():
    with pytest.raises(ValueError, match="no command"):
        dc.parse("<!-- docs-check: x\n1 = 1\n-->\n")
    with pytest.raises(ValueError, match="not a figure"):
        dc.parse("<!-- docs-check: x\n$ true\nabc = 1\n-->\n")


def test_the_documented_blocks_parse_and_their_figures_are_in_the_text():
    files = dc.doc_files()
    assert files[0] == dc.ROOT / "README.md"
    blocks = dc.collect(files)
    assert len(blocks) >= 10
    for b in blocks:
        for f in b.figures:
            assert f.text in b.text, (b.source, b.name, f.text)


def _fake_tree(root: Path) -> None:
    (root / "docs" / "guides").mkdir(parents=True)
    (root / "README.md").write_text(FAKE)
    (root / "docs" / "index.md").write_text("# Home\n\n<!-- docs-check: page\n$ printf '{\"n\": 7}'\n"
                                             "7 = j[\"n\"]\n-->\nIt is 7.\n")
    (root / "docs" / "guides" / "deep.md").write_text("# Deep\n\ntext\n\n<!-- docs-check: deep-one\n"
                                                      "$ echo 12\n12 = float(out)\n-->\n12 of them.\n")
    (root / "docs" / "notes.txt").write_text("<!-- docs-check: not-markdown\n$ false\n-->\n")


def test_blocks_are_collected_from_the_readme_and_every_docs_page(tmp_path):
    _fake_tree(tmp_path)
    files = dc.doc_files(tmp_path)
    assert [f.relative_to(tmp_path).as_posix() for f in files] == ["README.md", "docs/guides/deep.md", "docs/index.md"]
    blocks = dc.collect(files, tmp_path)
    assert [(b.name, b.source, b.line) for b in blocks] == [
        ("fake", "README.md", 3), ("timing", "README.md", 12), ("deep-one", "docs/guides/deep.md", 5),
        ("page", "docs/index.md", 3)]
    out = io.StringIO()
    assert dc.check(blocks, stream=out) == 0, out.getvalue()
    assert "OK   deep-one: 12" in out.getvalue() and "OK   page: 7" in out.getvalue()
    assert "SKIP timing (README.md line 12)" in out.getvalue()
    # a page's figure that differs names its file
    page = tmp_path / "docs" / "index.md"
    page.write_text(page.read_text().replace("It is 7", "It is 8"))
    out = io.StringIO()
    assert dc.check(dc.collect(dc.doc_files(tmp_path), tmp_path), stream=out) == 1
    assert "DIFF page (docs/index.md line 3): figure 7 is not in the text" in out.getvalue()


def test_a_block_name_used_in_two_files_is_refused(tmp_path):
    _fake_tree(tmp_path)
    (tmp_path / "docs" / "guides" / "deep.md").write_text("# Deep\n\n<!-- docs-check: page\n$ true\n-->\n")
    with pytest.raises(ValueError, match=r"docs/index.md line 3: the block name 'page' is used already "
                                         r"\(docs/guides/deep.md line 3\)"):
        dc.collect(dc.doc_files(tmp_path), tmp_path)
    with pytest.raises(ValueError, match="used already"):
        dc.collect([tmp_path / "README.md", tmp_path / "README.md"], tmp_path)


def test_a_malformed_block_on_a_page_names_the_page(tmp_path):
    _fake_tree(tmp_path)
    (tmp_path / "docs" / "index.md").write_text("# Home\n\n<!-- docs-check: bad\nabc = 1\n-->\n")
    with pytest.raises(ValueError, match=r"docs/index.md line 3 \(bad\): 'abc' is not a figure"):
        dc.collect(dc.doc_files(tmp_path), tmp_path)


def test_main_reads_the_pages_and_only_picks_blocks_in_any_file(tmp_path, monkeypatch, capsys):
    _fake_tree(tmp_path)
    monkeypatch.setattr(dc, "ROOT", tmp_path)
    assert dc.main(["--list"]) == 0
    listed = capsys.readouterr().out
    assert "fake (README.md line 3)" in listed and "deep-one (docs/guides/deep.md line 5): echo 12" in listed
    assert "page (docs/index.md line 3)" in listed
    assert dc.main(["--only", "deep"]) == 0
    out = capsys.readouterr().out
    assert "OK   deep-one: 12" in out and "fake" not in out and "docs-check: 1 blocks, 1 figures, 0 differ" in out
    assert dc.main(["--only", "page,fake", "--skip", "fake"]) == 0
    assert "docs-check: 1 blocks" in capsys.readouterr().out
    # files named on the command line replace the default set
    assert dc.main(["--list", str(tmp_path / "docs" / "index.md")]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "page (docs/index.md line 3): printf '{\"n\": 7}'"
    (tmp_path / "docs" / "guides" / "deep.md").write_text("<!-- docs-check: page\n$ true\n-->\n")
    assert dc.main(["--list"]) == 2
    assert "used already" in capsys.readouterr().err


RUN = """# Page

<!-- docs-check: example
run: python
contains: 42
-->
```python
print(6 * 7)
```

<!-- docs-check: with-a-file
$ printf 7 > n.txt
run: python
7 = float(read("n.txt"))
-->
```python
from pathlib import Path
assert Path("n.txt").read_text() == "7"
```
It is 7.

<!-- docs-check: optional
requires: no_such_module_here
run: python
-->
```python
import no_such_module_here
```
"""


def test_a_python_example_runs_as_written():
    out = io.StringIO()
    blocks = dc.parse(RUN)
    assert [b.run_python for b in blocks] == [True, True, True] and blocks[2].requires == ["no_such_module_here"]
    assert dc.check(blocks, stream=out) == 0, out.getvalue()
    assert "OK   example: contains '42'" in out.getvalue() and "OK   with-a-file: 7" in out.getvalue()
    assert "SKIP optional (README.md line 22): needs no_such_module_here, not installed" in out.getvalue()


def test_a_failing_python_example_is_flagged():
    out = io.StringIO()
    assert dc.check(dc.parse(RUN.replace("print(6 * 7)", "{}['bid_rate']")), stream=out) == 1 + 1
    assert "DIFF example (README.md line 3): the Python example exited 1: KeyError: 'bid_rate'" in out.getvalue()


def test_run_python_needs_a_python_block():
    with pytest.raises(ValueError, match="no ```python block follows"):
        dc.parse("<!-- docs-check: x\nrun: python\n-->\ntext\n```sh\nls\n```\n")
    with pytest.raises(ValueError, match="only 'run: python'"):
        dc.parse("<!-- docs-check: x\nrun: bash\n-->\n```python\nx\n```\n")
