"""Standard Euchre's single-hand paths: one hand from a given deal order, the score table; strategies and rules as vectors.

Strategies and rules are resolved by the engine (``bower.sim.strategy``,
``bower.sim.rules``) against this variant's tables: a preset name of
``strategy.PRESETS``, a ``.toml`` file, or a dict of parameters over the
defaults (weights rounded to multiples of ``bower.kernels.estimate.WEIGHT_STEP``).
"""

from __future__ import annotations

import numpy as np

from bower.kernels.euchre import drivers as ed
from bower.kernels.euchre import hand as ek
from bower.sim.cards import CardError, parse_card
from bower.sim.variants.euchre.strategy import PRESET_NOTES, PRESETS  # noqa: F401  (the tests read them here too)


def _variant():
    from bower.sim.variants import get_variant

    return get_variant("euchre")


def resolve_strategy(strategy="default") -> dict[str, float]:
    """Every parameter of one strategy: a preset name, a ``.toml`` path, or a dict over the defaults."""
    from bower.sim.strategy import resolve_strategy as resolve

    return resolve(strategy, _variant())


def params_vector(strategy="default") -> np.ndarray:
    """The float64 parameter row of one strategy, in ``codes.PARAMS`` order."""
    from bower.sim.strategy import to_vector

    return to_vector(resolve_strategy(strategy), _variant())


def seat_params(strategy="default") -> np.ndarray:
    """Parameters by seat (4, P): one strategy for every seat, or a list of four (by seat)."""
    from bower.sim.runner import seat_params as by_seat

    return by_seat(strategy, _variant())[1]


def resolve_rules(rules: dict | None = None) -> dict:
    """Every Euchre rule option with its value: the defaults, then ``rules`` (bools or "true"/"false" strings)."""
    from bower.sim.rules import resolve

    return resolve(_variant(), rules)


def rules_vector(rules: dict | None = None) -> np.ndarray:
    """The int64 vector of kernel codes (``codes.E_*`` cells) of a rule set (missing options: their defaults)."""
    from bower.sim.rules import encode

    return encode(_variant(), resolve_rules(rules))


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
    Random seats draw from the decision stream ``bower.sim.runner.decision_states(seed, 0, 1)[0]``.
    ``force`` = (seat, at, call, alone) as ``bower.kernels.euchre.hand.F_*``
    makes one decision (the should-bid path).
    """
    from bower.sim.runner import decision_states
    from bower.sim.variants.euchre.records import row_to_dict

    if not 0 <= int(dealer) < ek.N_SEATS:
        raise CardError(f"dealer must be a seat 0..3, got {dealer!r}")
    rules_d = resolve_rules(rules)
    params = seat_params(strategy)
    rec = np.zeros(ek.R_WIDTH, np.int64)
    f = ek.NO_FORCE.copy()
    if force is not None:  # the fields given; the rest (the observed turns before it) as in NO_FORCE
        f[:len(force)] = np.array(force, np.int64)
    ed.play_order(_order(order), np.int64(dealer), rules_vector(rules_d), params, f, decision_states(seed, 0, 1)[0], rec,
                  ek.search_arg(params))
    return row_to_dict(rec, 0, rules_d)


def score_hand(maker_tricks: int, maker_alone: bool, lone_defender: bool, rules: dict | None = None,
               broken: bool = False) -> tuple[int, int]:
    """(makers' points, defenders' points) of a hand in which the makers' side took ``maker_tricks`` (the kernel's
    table) under ``rules`` (defaults for those not given: ``loner_march_score``, ``loner_euchred_score`` and
    ``fast_break`` are read); ``broken``: the defenders took tricks 1 and 2."""
    makers, defenders = ek.score_hand(np.int64(maker_tricks), bool(maker_alone), bool(lone_defender),
                                      rules_vector(resolve_rules(rules)), bool(broken))
    return int(makers), int(defenders)
