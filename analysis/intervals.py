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
    low, high = np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)  # never past 0 or 1
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def mean_interval(total: float, total_sq: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high) of a normal-approximation interval from a sum and a sum of squares."""
    mean = total / n
    var = max(total_sq / n - mean * mean, 0.0) * n / max(n - 1, 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


def wilson_clustered(mean: float, se: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """A Wilson interval (inside [0, 1]) for a rate ``mean`` whose standard error ``se`` comes from clusters.

    The effective number of trials is ``mean (1 - mean) / se**2`` (Kish's
    design effect: games of one deal set are correlated), then the Wilson
    score interval of ``mean`` at that many trials. At a rate of 0 or 1
    that is undefined and ``trials`` is used. Between 0 and 1 with no spread
    at all between clusters (identical strategies on duplicate deals: every
    set splits the same way) the rate is known exactly: the interval is the
    point, as the clusters' standard error says.
    """
    p = min(max(float(mean), 0.0), 1.0)
    if 0.0 < p < 1.0 and se == 0.0:
        return p, p
    n = float(trials)
    if 0.0 < p < 1.0 and se > 0.0:
        n = p * (1.0 - p) / (se * se)
    if n <= 0:
        return float("nan"), float("nan")
    low, high = wilson(p * n, n, z)
    return (0.0 if p == 0.0 else low), (1.0 if p == 1.0 else high)  # the formula's rounding at the ends
