"""Strategies as data: named parameter records that the kernels read.

A strategy is a float64 vector; ``GHOST_PARAMS`` fixes the order and gives
each parameter's default and meaning. The kernels never hold a threshold of
their own, so experiments vary these numbers without recompiling.

Default Ghost Hand strategy (README explains it for players):

- *Trick estimate* of a hand for trump ``t``: the sum, over its cards in
  ascending card order, of the weight of each trump by its rank (``w_trump_*``,
  ``w_left``, ``w_right``) and of each off-suit ace and king; then, if the hand
  holds at least two trumps, ``w_void`` for each other suit it lacks. The best
  suit is the one with the highest estimate (ties: lowest suit, C S D H).
- *Swap*: at a player's turn, before their first call, while the ghost is
  still there, swap when the best estimate is below ``swap_below``.
- *Call*: the estimate's level is moon if it reaches ``bid_moon``, else 5, 4 or
  3 by ``bid_5``, ``bid_4``, ``bid_3``, else none. Moon is called whenever it
  is the level. Otherwise a level above the standing bid bids: the level
  itself when ``bid_jump`` >= 0.5, else the least legal bid (3, or one above
  the standing bid). A stuck dealer with no level bids 3. The maker names
  the best suit of the hand they hold.
- *Lead*: the maker holding at least ``lead_trump_min`` trumps leads the
  highest trump; otherwise a sure winner (no unseen card of its suit beats it)
  of least value; otherwise the card of least value.
- *Follow*: the cheapest legal card that beats the trick so far; if none,
  the legal card of least value. Ties of value go to the lowest card index.
"""

from __future__ import annotations

import numpy as np

GHOST_PARAMS: tuple[tuple[str, float, str], ...] = (
    # trump weights in TRUMP_RANK order (kernels/tables.py): 9 T Q K A left right joker
    ("w_trump_nine", 0.45, "tricks credited for the 9 of trump"),
    ("w_trump_ten", 0.50, "tricks credited for the 10 of trump"),
    ("w_trump_queen", 0.60, "tricks credited for the queen of trump"),
    ("w_trump_king", 0.70, "tricks credited for the king of trump"),
    ("w_trump_ace", 0.85, "tricks credited for the ace of trump"),
    ("w_left", 0.95, "tricks credited for the left bower"),
    ("w_right", 1.00, "tricks credited for the right bower"),
    ("w_joker", 1.00, "tricks credited for the joker (variants with a joker)"),
    ("w_off_ace", 0.60, "tricks credited for an off-suit ace"),
    ("w_off_king", 0.20, "tricks credited for an off-suit king"),
    ("w_void", 0.35, "tricks credited per void off-suit when holding two or more trumps"),
    ("swap_below", 2.00, "swap to the ghost hand when the best estimate is below this"),
    ("bid_3", 2.80, "estimate needed to bid 3"),
    ("bid_4", 3.60, "estimate needed to bid 4"),
    ("bid_5", 4.50, "estimate needed to bid 5"),
    ("bid_moon", 5.00, "estimate needed to call the moon"),
    ("bid_jump", 0.0, "1: bid the level the estimate supports; 0: the least bid that beats the standing bid"),
    ("lead_trump_min", 2.0, "a maker with at least this many trumps leads the highest trump"),
)

GHOST_PARAM_NAMES = tuple(p[0] for p in GHOST_PARAMS)
GHOST_DEFAULTS = {p[0]: p[1] for p in GHOST_PARAMS}

PRESETS: dict[str, dict[str, float]] = {
    "default": dict(GHOST_DEFAULTS),
}


class StrategyError(ValueError):
    """An unknown strategy, parameter or a bad parameter value."""


def param_index(name: str) -> int:
    """Position of a Ghost Hand strategy parameter in the vector."""
    return GHOST_PARAM_NAMES.index(name)


def resolve_strategy(name_or_params="default") -> dict[str, float]:
    """A full parameter dict from a preset name or a (partial) dict over the defaults."""
    if isinstance(name_or_params, dict):
        params = dict(GHOST_DEFAULTS)
        for k, v in name_or_params.items():
            if k not in GHOST_DEFAULTS:
                raise StrategyError(f"unknown strategy parameter {k!r}")
            try:
                params[k] = float(v)
            except (TypeError, ValueError):
                raise StrategyError(f"bad value {v!r} for strategy parameter {k!r} (a number)") from None
        return params
    if name_or_params not in PRESETS:
        raise StrategyError(f"unknown strategy {name_or_params!r} (known: {', '.join(PRESETS)})")
    return dict(PRESETS[name_or_params])


def to_vector(params: dict[str, float]) -> np.ndarray:
    """The float64 parameter vector the kernels read."""
    return np.array([float(params[n]) for n in GHOST_PARAM_NAMES], np.float64)
