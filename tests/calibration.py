"""What the should-bid calibration tests share (``tests/test_calibration_*.py``): the tolerance and the verdict.

Each test keeps the deals, simulated in plain Python, whose auction drawn
from the model itself is the situation's, and lists ``report`` rows
``(who, what, should_bid_value, simulated_value, tolerance)``.
"""

from __future__ import annotations

import numpy as np


def tol(x, n, ess, floor=0.01):
    """Four standard errors of the difference of two means of ``x``: ``n`` kept deals against an effective ``ess``."""
    return 4 * float(np.std(x)) * np.sqrt(1 / n + 1 / ess) + floor


def check(report, n: int, n_deals: int, off, ess: float, width: int = 34) -> None:
    """Print every comparison, then fail naming each one outside its tolerance."""
    lines = [f"{who:>{width}} {what:>16}: should-bid {got:.4f} simulated {want:.4f} diff {got - want:+.4f} "
             f"tol {t:.4f}" for who, what, got, want, t in report]
    print(f"\nkept {n} of {n_deals} ({100 * np.mean(off):.0f}% off the strategy), ess {ess:.0f}", *lines, sep="\n")
    bad = [line for line, (_, _, got, want, t) in zip(lines, report) if not abs(got - want) < t]
    assert not bad, "\n".join([f"kept {n}, ess {ess:.0f}", *bad])
