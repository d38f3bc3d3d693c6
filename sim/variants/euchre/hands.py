"""Standard Euchre's single-hand paths: one hand from a given deal order, the score table; strategies and rules as vectors.

Strategies are resolved here from ``kernels.euchre.codes.PARAMS`` (not
``sim.strategy``): a preset name of ``PRESETS`` (``kernels/euchre/SPEC.md``),
or a dict of parameters over the defaults. Weights (``w_*``) are rounded to
multiples of ``kernels.estimate.WEIGHT_STEP``, so every estimate is exact.
"""

from __future__ import annotations

import math

import numpy as np

from kernels.estimate import WEIGHT_LIMIT, WEIGHT_STEP
from kernels.euchre import drivers as ed
from kernels.euchre import hand as ek
from kernels.euchre.codes import OPTIONS, PARAM_NAMES, PARAMS
from sim.cards import CardError, parse_card

DEFAULTS = {p[0]: p[1] for p in PARAMS}
SWITCHES = frozenset({"lead_next", "random"})  # 0 = off, 1 = on (on from 0.5)
NON_NEGATIVE = frozenset({"lead_trump_min"})
_THRESHOLDS = ("order_min_1", "order_min_2", "order_min_3", "take_min", "name_min_1", "name_min_2", "name_min_3",
               "name_min_4")


def _preset(**changes: float) -> dict[str, float]:
    params = dict(DEFAULTS)
    params.update(changes)
    return params


PRESETS: dict[str, dict[str, float]] = {
    "default": _preset(),
    "cautious": _preset(**{k: DEFAULTS[k] + 0.5 for k in _THRESHOLDS}),
    "aggressive": _preset(**{k: DEFAULTS[k] - 0.5 for k in _THRESHOLDS}),
    "never-alone": _preset(alone_min=99.0, defend_alone_min=99.0),
    "random": _preset(random=1.0),
}
PRESET_NOTES = {
    "default": "the strategy kernels/euchre/SPEC.md describes",
    "cautious": "orders, takes and names trump half a trick later (every order_min, take_min, name_min +0.5)",
    "aggressive": "orders, takes and names trump half a trick sooner (every order_min, take_min, name_min -0.5)",
    "never-alone": "the default, never going alone as maker or defender",
    "random": "every choice uniformly at random among the legal ones: the floor to beat",
}


class EuchreInputError(ValueError):
    """A strategy, rule set or deal order the Euchre paths do not accept."""


def _value(name: str, value) -> float:
    if name not in DEFAULTS:
        raise EuchreInputError(f"unknown strategy parameter {name!r} (euchre)")
    try:
        value = float(value)
    except (TypeError, ValueError):
        raise EuchreInputError(f"bad value {value!r} for strategy parameter {name!r} (a number)") from None
    if not math.isfinite(value):
        raise EuchreInputError(f"bad value {value!r} for strategy parameter {name!r} (a finite number)")
    if name.startswith("w_"):
        if abs(value) >= WEIGHT_LIMIT:
            raise EuchreInputError(f"bad value {value!r} for strategy parameter {name!r} (a weight below {WEIGHT_LIMIT:g})")
        value = round(value / WEIGHT_STEP) * WEIGHT_STEP
    if name in SWITCHES and not 0.0 <= value <= 1.0:
        raise EuchreInputError(f"bad value {value!r} for strategy parameter {name!r} (0 = off, 1 = on)")
    if name in NON_NEGATIVE and value < 0:
        raise EuchreInputError(f"bad value {value!r} for strategy parameter {name!r} (not negative)")
    return value


def resolve_strategy(strategy="default") -> dict[str, float]:
    """Every parameter of one strategy: a preset name, or a dict of parameters over the defaults."""
    if isinstance(strategy, dict):
        params = {k: _value(k, v) for k, v in DEFAULTS.items()}
        for k, v in strategy.items():
            params[k] = _value(k, v)
        return params
    if isinstance(strategy, str) and strategy in PRESETS:
        return {k: _value(k, v) for k, v in PRESETS[strategy].items()}
    raise EuchreInputError(f"unknown strategy {strategy!r} for euchre (presets: {', '.join(PRESETS)}; or a dict)")


def params_vector(strategy="default") -> np.ndarray:
    """The float64 parameter row of one strategy, in ``codes.PARAMS`` order."""
    params = resolve_strategy(strategy)
    return np.array([params[n] for n in PARAM_NAMES], np.float64)


def seat_params(strategy="default") -> np.ndarray:
    """Parameters by seat (4, P): one strategy for every seat, or a list of four (by seat)."""
    if isinstance(strategy, (list, tuple)):
        if len(strategy) != ek.N_SEATS:
            raise EuchreInputError(f"need one strategy per seat (4), got {len(strategy)}")
        return np.stack([params_vector(s) for s in strategy])
    return np.tile(params_vector(strategy), (ek.N_SEATS, 1))


_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off"}


def resolve_rules(rules: dict | None = None) -> dict:
    """Every Euchre rule option with its value: the defaults, then ``rules`` (bools or "true"/"false" strings)."""
    out = {name: values[0] for name, values, _ in OPTIONS}
    for name, raw in (rules or {}).items():
        if name not in out:
            raise EuchreInputError(f"unknown rule option {name!r} for euchre (known: {', '.join(out)})")
        if isinstance(raw, bool):
            out[name] = raw
            continue
        text = str(raw).strip().lower()
        if text in _TRUE:
            out[name] = True
        elif text in _FALSE:
            out[name] = False
        else:
            raise EuchreInputError(f"bad value {raw!r} for rule option {name!r} (allowed: false | true)")
    return out


def rules_vector(rules: dict | None = None) -> np.ndarray:
    """The int64 vector of kernel codes (``codes.E_*`` cells) of a rule set (missing options: their defaults)."""
    resolved = resolve_rules(rules)
    return np.array([codes[values.index(resolved[name])] for name, values, codes in OPTIONS], np.int64)


def _order(order) -> np.ndarray:
    cards = [parse_card(x) if isinstance(x, str) else int(x) for x in order]
    if len(cards) != 24 or sorted(cards) != list(range(24)):
        raise CardError("a Euchre deal order holds each of the 24 cards once")
    return np.array(cards, np.int64)


def play_order(order, dealer: int, rules: dict | None = None, strategy="default", seed: int = 0, force=None) -> dict:
    """The record dict (hand 0) of one hand dealt from a 24-card ``order`` (top first; card strings or indices).

    Card ``i < 20`` goes to position ``i % 4 + 1`` (position 1 is the
    dealer's left); 20..23 are the kitty, the first turned up. ``strategy``:
    a preset name or a parameter dict for every seat, or a list of four.
    Random seats draw from the decision stream ``sim.runner.decision_states(seed, 0, 1)[0]``.
    ``force`` = (seat, at, call, alone) as ``kernels.euchre.hand.F_*``
    makes one decision (the should-bid path).
    """
    from sim.runner import decision_states
    from sim.variants.euchre.records import row_to_dict

    if not 0 <= int(dealer) < ek.N_SEATS:
        raise EuchreInputError(f"dealer must be a seat 0..3, got {dealer!r}")
    rules_d = resolve_rules(rules)
    params = seat_params(strategy)
    rec = np.zeros(ek.R_WIDTH, np.int64)
    f = ek.NO_FORCE.copy() if force is None else np.array(force, np.int64)
    ed.play_order(_order(order), np.int64(dealer), rules_vector(rules_d), params, f, decision_states(seed, 0, 1)[0], rec)
    return row_to_dict(rec, 0, rules_d)


def score_hand(maker_tricks: int, maker_alone: bool, lone_defender: bool) -> tuple[int, int]:
    """(makers' points, defenders' points) of a hand in which the makers' side took ``maker_tricks`` (the kernel's table)."""
    makers, defenders = ek.score_hand(np.int64(maker_tricks), bool(maker_alone), bool(lone_defender))
    return int(makers), int(defenders)
