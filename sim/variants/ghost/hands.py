"""Ghost Hand's single-hand paths: deals of a run, tricks with given choices, a hand's score, a hand with a forced decision.

The kernel paths the should-bid question, the swap analysis and the twin tests use.
"""

from __future__ import annotations

import numpy as np

from bower.kernels.ghost import drivers as gs
from bower.kernels.ghost import hand as gk
from bower.sim.rules import encode, get_variant, resolve
from bower.sim.runner import (
    CHUNK_SIZE,
    chunk_states,
    decision_states,
    resolve_run,
    seat_params,
)

TARGET = 32


def deal_masks(seed: int, start: int, count: int) -> np.ndarray:
    """Ghost Hand deals of hands ``start ..`` as masks (count, 4): position 1, 2, 3 (dealer), ghost."""
    out = np.empty((count, 4), np.int64)
    h = start
    while h < start + count:
        c = h // CHUNK_SIZE
        chunk_first = c * CHUNK_SIZE
        upto = min((c + 1) * CHUNK_SIZE, start + count)
        tmp = np.empty((upto - chunk_first, 4), np.int64)
        gs.deal_chunk(chunk_states(seed, c, 1)[0], upto - chunk_first, tmp)
        out[h - start: upto - start] = tmp[h - chunk_first:]
        h = upto
    return out


def play_with_choices(hands: list[int], trump: int, leader: int, choices: list[int]) -> dict:
    """Play six tricks from the given hands (by seat), each play the ``choices[i] % n``-th legal card."""
    h = np.array(hands, np.int64)
    rec = np.zeros(gk.R_WIDTH, np.int64)
    tricks = np.zeros(gk.N_SEATS, np.int64)
    ch = np.array(choices, np.int64)
    if ch.shape[0] < gk.N_PLAYS:
        raise ValueError(f"need {gk.N_PLAYS} choices")
    _, params = seat_params("default")
    dstate, dbuf = decision_states(0, 0, 1)[0], np.zeros(2, np.int64)
    gk.play_tricks(h, np.int64(trump), np.int64(leader), np.int64(leader), params, ch, dstate, dbuf, rec, tricks)
    plays = [(int(rec[gk.R_PLAYS + 2 * i]), int(rec[gk.R_PLAYS + 2 * i + 1])) for i in range(gk.N_PLAYS)]
    return {"plays": plays, "tricks": [int(t) for t in tricks]}


def score_hand(maker: int, bid: int, tricks: list[int], rules: dict | None = None) -> list[int]:
    """Points per seat for a Ghost Hand hand with the given maker, bid (6 = moon) and tricks."""
    v = get_variant("ghost")
    vec = encode(v, resolve(v, rules))
    points = np.zeros(gk.N_SEATS, np.int64)
    gk.score_hand(np.int64(maker), np.int64(bid), np.array(tricks, np.int64), vec, points)
    return [int(p) for p in points]


def play_forced(
    dealt: list[int],
    dealer: int,
    force: tuple[int, int, int, int, int] | None = None,
    rules: dict | None = None,
    strategy="default",
    scores: tuple[int, int, int] = (0, 0, 0),
    seed: int = 0,
) -> dict:
    """The record of one hand played from given masks (position 1, 2, 3, ghost) with one decision forced.

    ``force`` = (seat, at, swap, call, trump) as ``bower.kernels.ghost.F_*`` (-1
    for "as the strategy does"; ``at`` -1 = the seat's first turn, else the
    turn made when that many calls have been made). Random strategies draw
    from the decision stream of hand chunk 0 of ``seed``. The kernel path
    used by should-bid and the swap analysis, exposed for the twin tests.
    """
    v, rules_d, rules_vec = resolve_run("ghost", seed, rules)
    _, params = seat_params(strategy)
    f = gk.NO_FORCE.copy()
    if force is not None:  # the fields given; the rest (the observed turns before it) as in NO_FORCE
        f[:len(force)] = np.array(force, np.int64)
    rec = np.zeros(gk.R_WIDTH, np.int64)
    work = np.zeros(16, np.int64)
    dstate, dbuf = decision_states(seed, 0, 1)[0], np.zeros(2, np.int64)
    gk.play_dealt(np.array(dealt, np.int64), dstate, dbuf, work, np.int64(dealer), rules_vec, params,
                  np.array(scores, np.int64), np.int64(TARGET), f, rec, gk.search_arg(params))
    return v.row_to_dict(rec, 0, rules_d)
