"""``should-bid --variant cutthroat``: should I order it up (assist, take it up, name a suit), alone or not?

The situation is the player's five cards, the up-card, the position and the
passes before the turn (round one: 0 to 2 passes; round two: 3 passes of
round one then 0 to 2). Every open call is played on the same sampled deals
(``kernels.cutthroat.advice``); sampling, stopping and the paired intervals
are those of Ghost Hand's advice (``sim.advice``).
"""

from __future__ import annotations

import time

import numpy as np

from kernels.cutthroat import advice as ca
from kernels.cutthroat import hand as ck
from sim import runner
from sim.advice import (
    CHUNK_SAMPLES,
    DEFAULT_CAP,
    DRAWS_PER_SAMPLE,
    AdviceError,
    _recommend,
    action_stats,
    recommendation_line,
    run_fields,
    sample_actions,
)
from sim.cards import SUITS, card_str, mask_of, parse_card, parse_cards

ACCEPT = {1: "order", 2: "assist", 3: "take"}


def parse_situation(hand: str, upcard: str | None, position: int, calls: str | None) -> dict:
    """Check the hand, up-card, position and calls; (mask, up, round, passes before the turn, stuck-able)."""
    cards = parse_cards(hand, allow_joker=False)
    if len(cards) != 5:
        raise AdviceError(f"a Cutthroat hand has 5 cards, got {len(cards)}")
    if upcard is None:
        raise AdviceError("--upcard is needed for Cutthroat (the kitty's turned card, e.g. --upcard JS)")
    up = parse_card(upcard.strip())
    if up == 24:
        raise AdviceError("the up-card cannot be the joker (Cutthroat has none)")
    if up in cards:
        raise AdviceError(f"the up-card {card_str(up)} is also in the hand")
    if position not in (1, 2, 3):
        raise AdviceError(f"--position must be 1, 2 or 3 (1 = dealer's left, 3 = dealer), got {position}")
    seq = [] if calls is None or not calls.strip() else [c.strip().lower() for c in calls.replace(" ", ",").split(",") if c.strip()]
    for i, c in enumerate(seq):
        if c not in ("pass", "p"):
            raise AdviceError(f"call {i + 1} ({c!r}): any call but pass ends the Cutthroat auction, so no one "
                              "would have a turn after it; give the passes before your turn")
    n = len(seq)
    if n >= 6:
        raise AdviceError("six passes throw the hand in: no one has a turn")
    turn = n % 3 + 1
    if turn != position:
        raise AdviceError(f"after {n} passes it is position {turn}'s turn, not position {position}'s")
    return {"mask": mask_of(cards), "up": up, "round": 1 if n < 3 else 2, "passes": n}


def open_actions(sit: dict, rules: dict, position: int) -> list[dict]:
    """The calls open at the turn: pass (unless stuck), and each acceptance or suit with and without the dummy."""
    alone_ok = rules["maker_alone"] == "allowed"
    stuck = sit["round"] == 2 and position == 3 and bool(rules["stick_the_dealer"])
    out = [] if stuck else [{"action": "pass", "call": ck.CALL_PASS, "alone": -1}]
    if sit["round"] == 1:
        word = ACCEPT[position]
        options = [(word, ck.CALL_ACCEPT)]
    else:
        u = sit["up"] // 6
        options = [(f"name {SUITS[s]}", ck.CALL_SUIT + s) for s in range(4)
                   if s != u or bool(rules["allow_turned_down_suit"])]
    for word, code in options:
        out.append({"action": f"{word}, with the dummy", "call": code, "alone": 0})
        if alone_ok:
            out.append({"action": f"{word}, alone", "call": code, "alone": 1})
    return out


def _estimates(actions, acc) -> list[dict]:
    return [{"action": a["action"], "alone": a["alone"] == 1, **action_stats(acc[i], "maker_share")}
            for i, a in enumerate(actions)]


def advise(hand: str, upcard: str | None, position: int = 1, calls: str | None = None, strategy="default",
           samples: int | None = None, seed: int = 0, threads: int | None = None, rules: dict | None = None,
           cap: int = DEFAULT_CAP) -> dict:
    """Evaluate every open call for ``hand`` at ``position`` with ``upcard`` turned, after ``calls`` (passes)."""
    v, rules_d, rules_vec = runner.resolve_run("cutthroat", seed, rules)
    sit = parse_situation(hand, upcard, position, calls)
    actions = open_actions(sit, rules_d, position)
    name, params = runner.seat_params(strategy, "cutthroat")
    if samples is not None and samples <= 0:
        raise AdviceError(f"--samples must be a positive integer, got {samples}")
    n_threads = runner.set_threads(threads)
    act = np.array([[a["call"], a["alone"]] for a in actions], np.int64)
    before = sum(ca.advice_chunks.stats.cache_misses.values())
    t0 = time.perf_counter()

    def run_chunks(states, dstates, targets, d, k, a, p, m):
        ca.advice_chunks(states, dstates, targets, DRAWS_PER_SAMPLE * CHUNK_SAMPLES, np.int64(sit["mask"]),
                         np.int64(sit["up"]), position - 1, rules_vec, params, sit["passes"], act, d, k, a, p, m)

    acc, pxy, mxy, kept, draws, stopped = sample_actions(
        run_chunks, len(actions), samples, cap, seed, name, lambda a, p, m: _estimates(actions, a))
    est = _estimates(actions, acc)
    return {
        "variant": "cutthroat",
        "hand": [card_str(c) for c in range(24) if sit["mask"] >> c & 1],
        "upcard": card_str(sit["up"]),
        "position": position,
        "round": sit["round"],
        "passes_before": sit["passes"],
        "rules": rules_d,
        **run_fields(name, seed, n_threads, kept, draws, stopped, est, _recommend(est, acc, pxy),
                     sum(ca.advice_chunks.stats.cache_misses.values()) > before, time.perf_counter() - t0),
    }


def format_advice(r: dict) -> str:
    """The human-readable answer: each call with its make chance and expected points, and the recommendation."""
    lines = [
        f"Cutthroat, position {r['position']} (1 = dealer's left, 3 = dealer), round {r['round']}, "
        f"up-card {r['upcard']}, hand {' '.join(r['hand'])}",
        f"{r['samples']:,} sampled deals consistent with {r['passes_before']} pass(es) before your turn "
        f"({100 * r['acceptance_rate']:.1f}% of {r['draws']:,} drawn), strategy {r['strategy']}, seed {r['seed']}",
        "",
        f"{'action':<28} {'maker':>7} {'make chance':>20} {'tricks':>7} {'points':>8} {'(95% interval)':>18} {'margin':>7}",
    ]
    for e in r["actions"]:
        mk = "-" if e["make_prob"] is None else f"{100 * e['make_prob']:.1f}% ({100 * e['make_ci95'][0]:.1f}-{100 * e['make_ci95'][1]:.1f})"
        lo, hi = e["points_ci95"]
        lines.append(
            f"{e['action']:<28} {100 * e['maker_share']:>6.1f}% {mk:>20} {e['mean_tricks']:>7.2f} "
            f"{e['expected_points']:>+8.3f} {f'({lo:+.3f} to {hi:+.3f})':>18} {e['expected_margin']:>+7.3f}"
        )
    lines += ["", recommendation_line(r["recommendation"], " (the only call open)")]
    return "\n".join(lines)


def ask(hand: str, question: dict, strategy="default", samples=None, seed: int = 0, threads=None, rules=None) -> dict:
    """``bower should-bid`` for Cutthroat: ``question`` holds the command's flags (upcard, position, calls)."""
    for flag, key in (("--bid", "bid"), ("--scores", "scores")):
        if question.get(key) is not None:
            raise AdviceError(f"{flag} is a Ghost Hand question; Cutthroat takes the hand, --upcard, --position, --calls")
    if question.get("swapped") is not None:
        raise AdviceError("--swapped is a Ghost Hand question; Cutthroat has no ghost hand")
    return advise(hand, question.get("upcard"), position=question.get("position", 1), calls=question.get("calls"),
                  strategy=strategy, samples=samples, seed=seed, threads=threads, rules=rules)
