"""How the report shows a table's numbers: counts, rates and means with their intervals, empty cells.

Only the presentation changes: every cell is the table's own number,
rounded for reading. The helpers return plain text (``fmt_count``,
``fmt_rate``, ``fmt_mean``, ...) and ``table_html`` builds one table of
the page from them:

- counts: whole numbers with thousands separators (``47,973``);
- rates: percentages, with their 95% interval when the table has one
  (``90.9% (90.2–91.6%)``), the decimals set by how wide the column's
  intervals are;
- means: with their interval (``3.46 (3.40 to 3.51)``);
- a column's ``_low`` / ``_high`` pair is folded into the cell of the value
  it bounds, so the table is a third narrower than the file's;
- an empty cell says why: ``—`` where the row has no hands to measure
  (explained in the cell's title and a footnote), ``n/a`` where the column
  does not apply to the row (a defender's make rate); never ``NaN``;
- no ``-0``: a value that rounds to zero is shown as ``0``.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

NO_DATA = "—"  # an empty cell: the row has no hands (or decisions, moons) to measure
NOT_APPLICABLE = "n/a"  # an empty cell: the column does not apply to the row
MINUS = "\u2212"  # the minus sign (not a hyphen) for negative numbers

# columns that hold a count: whole numbers, even when stored as floats beside empty cells
COUNT_NAMES = frozenset({"hands", "made", "marches", "euchres", "moons_called", "moons_made", "decisions", "makers"})
# counts that are the base of a row's rates and means (what a "no hands" cell has none of)
BASE_NAMES = {"hands": "hands", "decisions": "decisions", "moons_called": "moons called", "makers": "makers"}
# the columns that identify a row (what it is about), shown as labels
KEY_NAMES = frozenset({"bid", "position", "trumps", "bowers", "off_aces", "round", "upcard", "joker", "who", "side",
                       "widow", "contract", "trump_kind", "forced", "right_bower", "estimate", "strength", "need"})
# shares that do not end in _rate or hold "share"
RATE_NAMES = frozenset({"best_trump", "makeable_set", "unmakeable_made"})
# headers that read better than the column name with spaces
LABELS = {
    "off_aces": "off aces",
    "upcard": "up-card",
    "estimate": "trick estimate",
    "strength": "strength given up",
    "points_per_hand": "points per hand",
    "tricks_per_hand": "tricks per hand",
    "win_share_from_start": "game win share",
    "first_deal_win_share": "game win share (first deal)",
    "maker_share": "share of hands as maker",
    "gain_points": "points gained",
    "gain_margin": "margin gained",
    "left_on_table": "tricks left on the table",
    "par_rate": "par (dd) make rate",
    "par_best_rate": "par rate, best trump",
    "best_trump": "named the best trump",
    "dd_tricks": "dd tricks",
    "makeable_set": "makeable, went down",
    "unmakeable_made": "unmakeable, made",
    "all_five_rate": "all five tricks",
    "no_trick_rate": "no trick taken",
    "mean_gain": "mean gain in estimate",
}


def _clean(x: float) -> float:
    """``x`` with -0.0 made 0.0."""
    return 0.0 if x == 0 else x


def is_empty(x) -> bool:
    """Whether a cell holds no number (None, NaN, pandas NA)."""
    if x is None:
        return True
    try:
        return bool(pd.isna(x))
    except (TypeError, ValueError):
        return False


def fmt_count(n) -> str:
    """A count with thousands separators: ``47973`` (or ``47973.0``) -> ``47,973``; empty -> ``—``."""
    if is_empty(n):
        return NO_DATA
    return f"{int(round(float(n))):,}"


def _signed(s: str) -> str:
    """A formatted number with a true minus sign, and never ``-0``."""
    if s.startswith("-"):
        body = s[1:]
        if body.strip("0.") == "":
            return body
        return MINUS + body
    return s


def fmt_number(x, decimals: int = 2) -> str:
    """A number rounded to ``decimals`` places, minus sign as ``−``, never ``-0.00``; empty -> ``—``."""
    if is_empty(x):
        return NO_DATA
    return _signed(f"{_clean(float(x)):.{decimals}f}")


def fmt_pct(x, decimals: int = 1) -> str:
    """A share as a percentage: ``0.9091`` -> ``90.9%``; one that is not 0 or 1 never reads ``0.0%`` / ``100.0%``."""
    if is_empty(x):
        return NO_DATA
    x = _clean(float(x))
    if abs(x - 1) < 1e-12 or abs(x) < 1e-12:
        x = float(round(x))  # a bound of 0 or 1 computed in floats (Wilson's) is 0 or 1
    for d in range(decimals, decimals + 3):
        s = f"{100 * x:.{d}f}"
        if not ((0 < x < 1) and (float(s) == 0 or float(s) == 100)):
            return _signed(s) + "%"
    bound = "0." + "0" * (decimals + 1) + "1" if x < 0.5 else "99." + "9" * (decimals + 2)
    return ("<" if x < 0.5 else ">") + bound + "%"


def fmt_key(x) -> str:
    """A row label: ``True`` -> ``yes``, ``3.0`` -> ``3``, ``2.25`` -> ``2.25``; empty -> ``n/a``."""
    if is_empty(x):
        return NOT_APPLICABLE
    if isinstance(x, (bool, np.bool_)):
        return "yes" if x else "no"
    if isinstance(x, (float, np.floating)):
        x = _clean(float(x))
        if x == int(x):
            return _signed(str(int(x)))
        return _signed(f"{x:.4f}".rstrip("0").rstrip("."))
    return str(x)


def fmt_rate(rate, low=None, high=None, decimals: int = 1) -> str:
    """A rate as a percentage with its 95% interval: ``(0.9091, 0.9019, 0.9159)`` -> ``90.9% (90.2–91.6%)``.

    Without an interval (either bound empty) it is the percentage alone.
    """
    if is_empty(rate):
        return NO_DATA
    head = fmt_pct(rate, decimals)
    if is_empty(low) or is_empty(high):
        return head
    return f"{head} ({fmt_pct(low, decimals)[:-1]}–{fmt_pct(high, decimals)})"


def fmt_mean(mean, low=None, high=None, decimals: int = 2) -> str:
    """A mean with its 95% interval: ``(3.4579, 3.4042, 3.5117)`` -> ``3.46 (3.40 to 3.51)``."""
    if is_empty(mean):
        return NO_DATA
    head = fmt_number(mean, decimals)
    if is_empty(low) or is_empty(high):
        return head
    return f"{head} ({fmt_number(low, decimals)} to {fmt_number(high, decimals)})"


def interval_decimals(low: pd.Series, high: pd.Series, scale: float, least: int, most: int) -> int:
    """Decimals that show a column's typical interval (its median half-width, times ``scale``) to a digit or two."""
    half = ((high.astype(float) - low.astype(float)) / 2 * scale).abs()
    half = half[half > 0].dropna()
    if not len(half):
        return least
    return max(least, min(most, math.ceil(-math.log10(float(half.median())))))


@dataclass
class Column:
    """One column of the page's table: its header, the table columns it shows and how."""

    name: str  # the value's column in the table
    kind: str  # "key", "count", "rate", "mean", "text"
    low: str | None = None  # the interval's columns, folded into this one
    high: str | None = None
    decimals: int = 2
    base: str | None = None  # the count column a row needs above 0 for this one to mean anything
    sources: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        """The header text."""
        return LABELS.get(self.name, self.name.replace("_", " "))


def _is_rate(name: str) -> bool:
    return name.endswith("_rate") or "share" in name or name in RATE_NAMES


def _is_count(name: str, s: pd.Series) -> bool:
    if name in COUNT_NAMES or name.endswith("_hands"):
        return True
    return pd.api.types.is_integer_dtype(s.dtype) and not pd.api.types.is_bool_dtype(s.dtype)


def _is_base(name: str) -> bool:
    return name in BASE_NAMES or name.endswith("_hands")


def base_label(name: str) -> str:
    """What a base count counts, in words: ``hands``, ``moons called``, ``alone_hands`` -> ``hands``."""
    return BASE_NAMES.get(name, "hands")


def plan_columns(df: pd.DataFrame) -> list[Column]:
    """How each of ``df``'s columns is shown: intervals folded into their value, kinds and decimals."""
    names = list(df.columns)
    folded: dict[str, tuple[str, str]] = {}
    for i, c in enumerate(names):
        if not c.endswith("_low") or i == 0:
            continue
        stem = c[:-4]
        high = stem + "_high"
        value = names[i - 1]
        if high in names and stem in value and not value.endswith(("_low", "_high")):
            folded[value] = (c, high)
    bounds = {b for pair in folded.values() for b in pair}
    plan = []
    base = None
    for c in names:
        if c in bounds:
            continue
        s = df[c]
        if c in KEY_NAMES:
            col = Column(c, "key")
        elif pd.api.types.is_bool_dtype(s.dtype) or not pd.api.types.is_numeric_dtype(s.dtype):
            col = Column(c, "text")
        elif _is_count(c, s):
            col = Column(c, "count")
        elif _is_rate(c):
            col = Column(c, "rate", decimals=1)
        else:
            col = Column(c, "mean", decimals=2)
        if c in folded:
            col.low, col.high = folded[c]
            if col.kind == "rate":
                col.decimals = interval_decimals(df[col.low], df[col.high], 100, 1, 2)
            elif col.kind == "mean":
                col.decimals = interval_decimals(df[col.low], df[col.high], 1, 2, 4)
        col.sources = [x for x in (c, col.low, col.high) if x]
        if col.kind not in ("key", "text"):
            col.base = base if base != c else None
        if _is_base(c):
            base = c
        plan.append(col)
    return plan


def cell_text(col: Column, row: pd.Series) -> tuple[str, str | None]:
    """(text, why) of ``row``'s cell in ``col``; ``why`` explains an empty cell, else None."""
    v = row[col.name]
    if col.kind == "key":
        return fmt_key(v), ("does not apply to this row" if is_empty(v) else None)
    if col.kind == "text":
        if is_empty(v):
            return NOT_APPLICABLE, "does not apply to this row"
        return fmt_key(v), None
    if is_empty(v):
        if col.base is not None and not is_empty(row[col.base]) and float(row[col.base]) == 0:
            return NO_DATA, f"no {base_label(col.base)}"
        if col.base is None and col.kind == "count":
            return NO_DATA, "no hands"
        return NOT_APPLICABLE, "does not apply to this row"
    low = row[col.low] if col.low else None
    high = row[col.high] if col.high else None
    if col.kind == "count":
        return fmt_count(v), None
    if col.kind == "rate":
        return fmt_rate(v, low, high, col.decimals), None
    return fmt_mean(v, low, high, col.decimals), None


def table_rows(df: pd.DataFrame) -> tuple[list[str], list[list[str]]]:
    """The table as the page shows it, in plain text: (headers, rows of cells)."""
    plan = plan_columns(df)
    return [c.label for c in plan], [[cell_text(c, r)[0] for c in plan] for _, r in df.iterrows()]


def table_html(df: pd.DataFrame, caption: str | None = None) -> str:
    """One HTML table of ``df``, formatted (module docstring), with a footnote for its empty cells."""
    plan = plan_columns(df)
    e = html.escape
    head = []
    for c in plan:
        cls = "k" if c.kind in ("key", "text") else "n"
        head.append(f"<th class='{cls}' scope='col' title='{e(', '.join(c.sources))}'>{e(c.label)}</th>")
    reasons: dict[tuple[str, str], None] = {}
    body = []
    for _, r in df.iterrows():
        cells = []
        for c in plan:
            text, why = cell_text(c, r)
            cls = "k" if c.kind in ("key", "text") else "n"
            if why is not None:
                reasons[(text, why)] = None
                cells.append(f"<td class='{cls} e' title='{e(why)}'>{e(text)}</td>")
                continue
            if c.low and "(" in text:
                value, _, ci = text.partition(" (")
                text_html = f"<span class='v'>{e(value)}</span> <span class='ci'>({e(ci)}</span>"
            else:
                text_html = e(text)
            cells.append(f"<td class='{cls}'>{text_html}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    cap = f"<caption>{e(caption)}</caption>" if caption else ""
    out = (f"<div class='scroll'><table class='t'>{cap}<thead><tr>{''.join(head)}</tr></thead>"
           f"<tbody>{''.join(body)}</tbody></table></div>")
    notes = empty_cell_notes(reasons)
    if notes:
        out += f"<p class='foot'>{e(notes)}</p>"
    return out


def empty_cell_notes(reasons) -> str:
    """The footnote of a table's empty cells from (mark, why) pairs: ``— no hands; n/a does not apply to this row``."""
    return "; ".join(f"{mark} {why}" for mark, why in sorted(reasons))
