"""Strategies as data: named parameter records that the kernels read.

A strategy is a float64 vector; ``GHOST_PARAMS`` fixes the order and gives
each parameter's default and meaning. The kernels never hold a threshold of
their own, so experiments vary these numbers without recompiling.

Default Ghost Hand strategy (README explains it for players):

- *Trick estimate* of a hand for trump ``t``: the sum of the weight of each
  trump by its rank (``w_trump_*``, ``w_left``, ``w_right``), of each off-suit
  ace and king, and, if the hand holds at least two trumps, ``w_void`` for
  each other suit it lacks. Weights are rounded to steps of 1/4096 trick
  (``WEIGHT_STEP``), so every estimate is an exact sum in any order. The best
  suit is the one with the highest estimate (ties: lowest suit, C S D H).
- *Swap*: at a player's turn, before their first call, while the ghost is
  still there, swap when the best estimate is below ``swap_below``.
- *Call*: the estimate's level is moon if it reaches ``bid_moon``, else 5, 4 or
  3 by ``bid_5``, ``bid_4``, ``bid_3``, else none. Score-aware play shifts every
  threshold: the level is taken of ``estimate - shift``, where ``shift`` is
  ``0.0``, plus ``bid_shift_self_near`` if the player's game score is at least
  ``target - near_target``, plus ``bid_shift_opp_near`` if an opponent's is. Moon is called whenever it
  is the level. Otherwise a level above the standing bid bids: the level
  itself when ``bid_jump`` >= 0.5, else the least legal bid (3, or one above
  the standing bid). A stuck dealer with no level bids 3. The maker names
  the best suit of the hand they hold.
- *Lead*: the maker holding at least ``lead_trump_min`` trumps leads the
  highest trump; otherwise a sure winner (no unseen card of its suit beats it)
  of least value; otherwise the card of least value.
- *Follow*: the cheapest legal card that beats the trick so far; if none,
  the legal card of least value. Ties of value go to the lowest card index.
- *Random* (``random`` >= 0.5) replaces every decision by a uniform draw from
  the game's decision stream: swap or not (when a swap is open), a call among
  the legal ones (pass unless stuck, then each bid above the standing bid,
  moon last), the trump suit, and each card among the legal ones (ascending).
"""

from __future__ import annotations

import math
import os
import tomllib

import numpy as np

from sim.errors import UserError

GHOST_PARAMS: tuple[tuple[str, float, str], ...] = (
    # trump weights in TRUMP_RANK order (kernels/tables.py): 9 T Q K A left right joker
    ("w_trump_nine", 0.4375, "tricks credited for the 9 of trump"),
    ("w_trump_ten", 0.50, "tricks credited for the 10 of trump"),
    ("w_trump_queen", 0.625, "tricks credited for the queen of trump"),
    ("w_trump_king", 0.6875, "tricks credited for the king of trump"),
    ("w_trump_ace", 0.875, "tricks credited for the ace of trump"),
    ("w_left", 0.9375, "tricks credited for the left bower"),
    ("w_right", 1.00, "tricks credited for the right bower"),
    ("w_joker", 1.00, "tricks credited for the joker (variants with a joker)"),
    ("w_off_ace", 0.625, "tricks credited for an off-suit ace"),
    ("w_off_king", 0.1875, "tricks credited for an off-suit king"),
    ("w_void", 0.375, "tricks credited per void off-suit when holding two or more trumps"),
    ("swap_below", 3.00, "swap to the ghost hand when the best estimate is below this"),
    ("bid_3", 2.80, "estimate needed to bid 3"),
    ("bid_4", 3.20, "estimate needed to bid 4"),
    ("bid_5", 4.50, "estimate needed to bid 5"),
    ("bid_moon", 5.00, "estimate needed to call the moon"),
    ("bid_jump", 0.0, "1: bid the level the estimate supports; 0: the least bid that beats the standing bid"),
    ("lead_trump_min", 2.0, "a maker with at least this many trumps leads the highest trump"),
    ("near_target", 6.0, "a player within this many points of the target counts as close to it"),
    ("bid_shift_self_near", 0.0, "added to every bid threshold while the player is close to the target"),
    ("bid_shift_opp_near", 0.0, "added to every bid threshold while an opponent is close to the target"),
    ("random", 0.0, "1: swap, call, name trump and play uniformly at random among the legal choices"),
)

GHOST_PARAM_NAMES = tuple(p[0] for p in GHOST_PARAMS)
GHOST_DEFAULTS = {p[0]: p[1] for p in GHOST_PARAMS}

def _preset(**changes: float) -> dict[str, float]:
    params = dict(GHOST_DEFAULTS)
    params.update(changes)
    return params


PRESETS: dict[str, dict[str, float]] = {
    "default": _preset(),
    "cautious": _preset(swap_below=2.8, bid_3=3.2, bid_4=3.6, bid_5=4.9, bid_moon=5.4),
    "aggressive": _preset(swap_below=3.2, bid_3=2.4, bid_4=2.8, bid_5=4.1, bid_moon=4.7),
    "never-swap": _preset(swap_below=-1.0),
    "score-aware": _preset(bid_shift_self_near=0.4, bid_shift_opp_near=-0.4),
    "random": _preset(random=1.0),
}

PRESET_NOTES = {
    "default": "the strategy README describes",
    "cautious": "bids only on stronger hands, swaps less",
    "aggressive": "bids on weaker hands, swaps more",
    "never-swap": "the default, never taking the ghost hand",
    "score-aware": "near the target bids less (tricks score anyway); bids more to stop an opponent near it",
    "random": "every choice uniformly at random among the legal ones: the floor to beat",
}


class StrategyError(UserError, ValueError):
    """An unknown strategy, parameter or a bad parameter value."""


# Trick weights are used in steps of WEIGHT_STEP (a binary fraction), so every estimate is an exact
# sum whatever the order of its terms; weights must stay below WEIGHT_LIMIT in size.
WEIGHT_STEP = 2.0**-12
WEIGHT_LIMIT = 64.0
# Switches are on at 0.5 and above (0 = off, 1 = on); other parameters that must not be negative.
SWITCHES = {"bid_jump", "random"}
NON_NEGATIVE = {"lead_trump_min", "near_target"}


def param_index(name: str) -> int:
    """Position of a Ghost Hand strategy parameter in the vector."""
    return GHOST_PARAM_NAMES.index(name)


def check_value(name: str, value, where: str = "") -> float:
    """``value`` as a float if it is allowed for parameter ``name``; StrategyError naming it otherwise."""
    at = f" in {where}" if where else ""
    if name not in GHOST_DEFAULTS:
        raise StrategyError(f"unknown strategy parameter {name!r}{at}")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise StrategyError(f"bad value {value!r} for strategy parameter {name!r}{at} (a number)") from None
    value = float(value)
    if not math.isfinite(value):
        raise StrategyError(f"bad value {value!r} for strategy parameter {name!r}{at} (a finite number)")
    if name.startswith("w_"):
        if abs(value) >= WEIGHT_LIMIT:
            raise StrategyError(f"bad value {value!r} for strategy parameter {name!r}{at} (a weight below {WEIGHT_LIMIT:g})")
        value = round(value / WEIGHT_STEP) * WEIGHT_STEP
    if name in SWITCHES and not 0.0 <= value <= 1.0:
        raise StrategyError(f"bad value {value!r} for strategy parameter {name!r}{at} (0 = off, 1 = on)")
    if name in NON_NEGATIVE and value < 0:
        raise StrategyError(f"bad value {value!r} for strategy parameter {name!r}{at} (not negative)")
    return value


def load_toml(path: str) -> dict[str, float]:
    """A strategy from a TOML file that sets every parameter (and optionally ``name``)."""
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as e:
        raise StrategyError(f"cannot read strategy file {path}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise StrategyError(f"strategy file {path} is not valid TOML: {e}") from None
    data.pop("name", None)
    data.pop("variant", None)
    params = {k: check_value(k, v, path) for k, v in data.items()}
    missing = [n for n in GHOST_PARAM_NAMES if n not in params]
    if missing:
        raise StrategyError(f"strategy file {path} is missing parameter {missing[0]!r}" + (
            f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))
    return params


def load_strategy(spec) -> tuple[str, dict[str, float]]:
    """(name, full parameter dict) of a preset name, a ``.toml`` path, or a dict over the defaults."""
    if isinstance(spec, dict):
        params = dict(GHOST_DEFAULTS)
        for k, v in spec.items():
            params[k] = check_value(k, v)
        return "custom", params
    spec = str(spec)
    if spec in PRESETS:
        return spec, dict(PRESETS[spec])
    if spec.lower().endswith(".toml") or os.path.sep in spec:
        return os.path.splitext(os.path.basename(spec))[0], load_toml(spec)
    raise StrategyError(f"unknown strategy {spec!r} (presets: {', '.join(PRESETS)}; or a .toml file)")


def resolve_strategy(name_or_params="default") -> dict[str, float]:
    """A full parameter dict from a preset name, a TOML path or a (partial) dict over the defaults."""
    return load_strategy(name_or_params)[1]


def to_toml(name: str, params: dict[str, float]) -> str:
    """A strategy as a TOML file that ``load_toml`` reads back, with each parameter explained."""
    lines = [f"# bower strategy for Ghost Hand Euchre: {name}", f"name = {name!r}".replace("'", '"'), ""]
    for pname, _, doc in GHOST_PARAMS:
        lines.append(f"# {doc}")
        lines.append(f"{pname} = {params[pname]!r}")
    return "\n".join(lines) + "\n"


def to_vector(params: dict[str, float]) -> np.ndarray:
    """The float64 parameter vector the kernels read."""
    return np.array([float(params[n]) for n in GHOST_PARAM_NAMES], np.float64)
