"""The documentation as files: README.md stays short, and every relative link of README.md and docs/ leads to a file.

(`make docs` builds the site strictly, which checks the links between pages and their anchors too; this test needs
no MkDocs and runs in `make test`.)
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)
CODE = re.compile(r"`[^`\n]*`")
COMMENT = re.compile(r"<!--.*?-->", re.S)
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(?:<([^>\n]+)>|([^)\s]+))(?:\s+\"[^\"]*\")?\s*\)")


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def links(text: str) -> list[str]:
    """The link targets of a Markdown text, leaving out code blocks, code spans and HTML comments."""
    text = COMMENT.sub("", FENCE.sub("", text))
    return [m.group(1) or m.group(2) for m in LINK.finditer(CODE.sub("", text))]


def test_links_are_read_outside_code():
    text = "[a](x.md) `[b](y.md)` ![c](img/c.png \"t\")\n```\n[d](z.md)\n```\n<!-- [e](w.md) -->[f](<g h.md>)"
    assert links(text) == ["x.md", "img/c.png", "g h.md"]


def test_readme_is_short():
    n = len((ROOT / "README.md").read_text(encoding="utf-8").splitlines())
    assert n <= 250, f"README.md has {n} lines: the long text belongs in docs/"



@pytest.mark.parametrize("page", pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_leads_to_a_file(page):
    missing = []
    for target in links(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
            continue  # a URL (https:, mailto:) or an anchor of the page itself
        path = target.split("#", 1)[0].split("?", 1)[0]
        if not (page.parent / path).exists():
            missing.append(target)
    assert not missing, f"{page.relative_to(ROOT)}: links to nothing: {missing}"


def test_the_api_reference_has_every_public_name():
    """docs/reference/api.md renders (``::: bower...``) every function and class of ``bower.__all__``."""
    import bower

    text = (ROOT / "docs" / "reference" / "api.md").read_text(encoding="utf-8")
    shown = {m.rsplit(".", 1)[-1] for m in re.findall(r"^::: (bower[\w.]*)", text, re.M)}
    missing = [n for n in bower.__all__ if callable(getattr(bower, n)) and n not in shown]
    assert missing == []


VARIANT_PAGES = {"ghost": "ghost-hand.md", "cutthroat": "cutthroat.md", "hasenpfeffer": "hasenpfeffer.md",
                 "euchre": "euchre.md"}


def test_every_variant_has_a_page_with_every_rule_option():
    """docs/variants/: a page per variant, each rule option a row of its table with every value it takes."""
    from bower.sim.variants import get_variant, names

    assert sorted(VARIANT_PAGES) == sorted(names())
    missing = []
    for name, page in VARIANT_PAGES.items():
        text = (ROOT / "docs" / "variants" / page).read_text(encoding="utf-8")
        assert f"variants/{page}" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
        for opt in get_variant(name).options:
            row = re.search(rf"^\| `{opt.name}` \|(.*)$", text, re.M)
            if row is None:
                missing.append(f"{page}: {opt.name}")
                continue
            shown = str(row.group(1))
            missing += [f"{page}: {opt.name}={c}" for c in opt.values
                        if f"`{str(c).lower() if isinstance(c, bool) else c}`" not in shown]
    assert missing == []
