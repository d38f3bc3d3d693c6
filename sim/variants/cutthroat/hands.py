"""Cutthroat's single-hand paths: one hand from a given deal order, and the maker's keep-set (for the tests)."""

from __future__ import annotations

import numpy as np

from bower.kernels.cutthroat import drivers as cs
from bower.kernels.cutthroat import hand as ck
from bower.sim.cards import CardError, parse_card


def _order(order) -> np.ndarray:
    cards = []
    for x in order:
        cards.append(parse_card(x) if isinstance(x, str) else int(x))
    if len(cards) != 24 or sorted(cards) != list(range(24)):
        raise CardError("a Cutthroat deal order holds each of the 24 cards once")
    return np.array(cards, np.int64)


def play_order(order, dealer: int, rules: dict | None = None, strategy="default", seed: int = 0,
               force: tuple[int, int, int, int] | None = None) -> dict:
    """The record of one hand dealt from a 24-card ``order`` (top first; card strings or indices).

    Cards 0..19 go one at a time to positions 1, 2, 3 (dealer) and the
    dummy; 20..23 are the kitty, the first turned up. ``strategy``: one for
    every seat or a list of three. Random seats draw from the decision
    stream of hand chunk 0 of ``seed``. ``force`` = (seat, at, call, alone)
    as ``bower.kernels.cutthroat.F_*`` makes one decision (the should-bid path).
    """
    from bower.sim.runner import decision_states, resolve_run, seat_params

    v, rules_d, rules_vec = resolve_run("cutthroat", seed, rules)
    _, params = seat_params(strategy, "cutthroat")
    rec = np.zeros(ck.R_WIDTH, np.int64)
    f = ck.NO_FORCE.copy()
    if force is not None:  # the fields given; the passes given (F_PASSES) as in NO_FORCE
        f[:len(force)] = np.array(force, np.int64)
    cs.play_order(_order(order), np.int64(dealer), rules_vec, params, f, decision_states(seed, 0, 1)[0], rec,
                  ck.search_arg(params))
    return v.row_to_dict(rec, 0, rules_d)


def best_keep(cards10, trump: int, strategy="default") -> list[int]:
    """The 5 card indices the strategy keeps of the maker's 10 cards (hand and dummy) with ``trump``."""
    from bower.sim.strategy import load_strategy, to_vector

    mask = 0
    for x in cards10:
        mask |= 1 << (parse_card(x) if isinstance(x, str) else int(x))
    params = to_vector(load_strategy(strategy, "cutthroat")[1], "cutthroat")
    keep = int(cs.keep_of(np.int64(mask), np.int64(trump), params))
    return [c for c in range(24) if (keep >> c) & 1]
