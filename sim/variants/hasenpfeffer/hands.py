"""Hasenpfeffer's single-hand paths: one hand from a given deal order (for the tests)."""

from __future__ import annotations

import numpy as np

from bower.kernels.hasenpfeffer import drivers as hs
from bower.kernels.hasenpfeffer import hand as hk
from bower.sim.cards import CardError, parse_card


def _order(order) -> np.ndarray:
    cards = [parse_card(x) if isinstance(x, str) else int(x) for x in order]
    if len(cards) != 25 or sorted(cards) != list(range(25)):
        raise CardError("a Hasenpfeffer deal order holds each of the 25 cards (the joker JK included) once")
    return np.array(cards, np.int64)


def play_order(order, dealer: int, rules: dict | None = None, strategy="default", seed: int = 0) -> dict:
    """The record of one hand dealt from a 25-card ``order`` (top first; card strings or indices).

    Cards 0..23 go in packets of three to positions 1, 2, 3, 4 (dealer),
    twice round; card 24 is the widow. ``strategy``: one for every seat or a
    list of four. Random seats draw from the decision stream of hand chunk 0
    of ``seed``.
    """
    from bower.sim.runner import decision_states, resolve_run, seat_params

    v, rules_d, rules_vec = resolve_run("hasenpfeffer", seed, rules)
    _, params = seat_params(strategy, "hasenpfeffer")
    rec = np.zeros(hk.R_WIDTH, np.int64)
    hs.play_order(_order(order), np.int64(dealer), rules_vec, params, decision_states(seed, 0, 1)[0], rec,
                  hk.search_arg(params))
    return v.row_to_dict(rec, 0, rules_d)
