"""Confidence intervals used by every table."""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054
Z999 = 3.2905267314918945


def wilson(successes, trials, z: float = Z95):
    """Wilson score interval (low, high) for a binomial proportion; NaN where ``trials`` is 0.

    Works elementwise on numpy arrays or pandas Series as well as on scalars.
    """
    k = np.asarray(successes, dtype=float)
    n = np.asarray(trials, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / n
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low, high = centre - half, centre + half
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def mean_interval(total: float, total_sq: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high) of a normal-approximation interval from a sum and a sum of squares."""
    mean = total / n
    var = max(total_sq / n - mean * mean, 0.0) * n / max(n - 1, 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half
