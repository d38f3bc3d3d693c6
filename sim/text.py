"""Small text helpers shared by the summaries of the variants."""

from __future__ import annotations

import math
import re
from decimal import Decimal, InvalidOperation

from bower.analysis.intervals import wilson

MAX_DIGITS = 30  # a whole number written with more digits than this is never expanded from its text
_NUMBER = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)[eE]([+-]?)\d+")


def whole_number(text: str) -> int:
    """The whole number ``text`` writes (``1000000``, ``1_000_000``, ``1e6``); ValueError for anything else.

    Its size is read from the text (the exponent) before it is expanded: a
    number of more than MAX_DIGITS digits (``1e999999999``) is OverflowError
    at once, never minutes of arithmetic.
    """
    s = str(text).strip().replace("_", "")
    try:
        d = Decimal(s)
    except InvalidOperation:
        m = _NUMBER.fullmatch(s)
        if m and m.group(2) != "-" and Decimal(s.lower().split("e")[0]):
            raise OverflowError(s) from None  # an exponent beyond even a Decimal's
        raise ValueError(s) from None
    if not d.is_finite():
        raise ValueError(s)
    if d and d.adjusted() >= MAX_DIGITS:
        raise OverflowError(s)
    if d != d.to_integral_value():
        raise ValueError(s)
    return int(d)


class WrittenFloat(float):
    """A number written past a float's range (``1e400``, read as inf): still that float, but shown (``repr``) as
    it was written, so a message names what the user or the file wrote, not ``inf``."""

    def __new__(cls, text: str):
        x = super().__new__(cls, text)
        x.text = text
        return x

    def __repr__(self) -> str:
        return self.text


def written_float(text: str) -> float:
    """``float(text)``, but a number written past a float's range (``1e999``, not ``inf`` itself) as a
    ``WrittenFloat`` that an error shows as written; ValueError for text that is not a number."""
    x = float(text)
    text = text.strip()
    return WrittenFloat(text) if math.isinf(x) and "inf" not in text.lower() else x


def number_text(n) -> str:
    """A number as an error shows it: ``123,456`` for an int (``about 1e5000`` past MAX_DIGITS digits), else repr."""
    if isinstance(n, bool) or not isinstance(n, int):
        return repr(n)
    if abs(n) >= 10**MAX_DIGITS:
        return f"about {'-' if n < 0 else ''}1e{int(math.log10(abs(n)))}"
    return f"{n:,}"


def given_text(text: str, most: int = 40) -> str:
    """``text`` as typed, cut to ``most`` characters (``...`` after) so that an error line stays short."""
    text = str(text).strip()
    return text if len(text) <= most else text[:most] + "..."


def did_you_mean(name, choices) -> str:
    """``": did you mean 'x'?"`` for the choice closest to a mistyped ``name`` (case aside), else ``""``.

    Only short names are compared (an error line never waits on a long one).
    """
    import difflib

    text = str(name).strip().lower()
    if not text or len(text) > 64:
        return ""
    by_lower = {str(c).lower(): str(c) for c in choices}
    close = difflib.get_close_matches(text, list(by_lower), n=1, cutoff=0.6)
    return f": did you mean {by_lower[close[0]]!r}?" if close else ""


def limit_text(n: int) -> str:
    """A count limit as people write it: ``1e12`` for a power of ten (from a million up), else ``123,456``."""
    s = str(n)
    if n >= 10**6 and s.strip("0") == "1":
        return f"1e{len(s) - 1}"
    return f"{n:,}"


def pct(n: int, d: int) -> str:
    """``n`` as a percentage of ``d`` (two decimals), or ``-`` when ``d`` is 0."""
    return f"{100.0 * n / d:.2f}%" if d else "-"


def rate(made: int, count: int) -> dict:
    """count, made, make rate and its 95% Wilson interval (None when count is 0)."""
    low, high = wilson(made, count) if count else (None, None)
    return {"count": count, "made": made, "make_rate": made / count if count else None, "make_rate_ci95": [low, high]}


def rate_line(label: str, r: dict, of: int) -> str:
    """One summary line: label, count, share of ``of``, made, make rate with its interval."""
    if r["make_rate"] is None:
        shown = f"{'-':>10}"
    else:
        low, high = r["make_rate_ci95"]
        shown = f"{100 * r['make_rate']:>9.2f}%   ({100 * low:.2f}-{100 * high:.2f}%)"
    return f"  {label:<16} {r['count']:>10,} {pct(r['count'], of):>7} {r['made']:>10,} {shown}"


def share(x) -> str:
    """A rate as a percentage (two decimals), or ``-`` for None."""
    return "-" if x is None else f"{100 * x:.2f}%"


def position_lines(s: dict, positions: tuple, header: str) -> list[str]:
    """The summary's table by position: mean points with their interval, mean tricks, auctions won (as maker).

    ``makers_by_position`` counts the hands each position became the maker
    in (won the auction), made or not; the variants' tables give make rates.
    """
    ci = s["points_per_hand_ci95_by_position"]
    pad = 44 - len(header)
    return [
        "",
        header + " " * max(pad, 1) + "        ".join(positions),
        "  mean points per hand              " + " ".join(f"{s['points_per_hand_by_position'][p]:>8.4f}" for p in positions),
        "    95% interval                    " + " ".join(f"{'±%.4f' % ((ci[p][1] - ci[p][0]) / 2):>8}" for p in positions),
        "  mean tricks per hand              " + " ".join(f"{s['tricks_per_hand_by_position'][p]:>8.4f}" for p in positions),
        "  auctions won (became maker)       " + " ".join(f"{s['makers_by_position'][p]:>8,}" for p in positions),
    ]


def call_word(text) -> str:
    """A call as the auctions spell it: ``"Little pepper"``, ``little_pepper`` -> ``little-pepper``; ``3`` -> ``3``."""
    return str(text).strip().lower().replace("_", "-").replace(" ", "-")
