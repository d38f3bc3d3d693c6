"""``should-bid --variant hasenpfeffer``: should I bid 4 (or pass, or pepper) at this turn?

The situation is the player's six cards, the position (1 = dealer's left, 4
= dealer) and the calls before the turn. Every legal call is played on the
same sampled deals (``kernels.hasenpfeffer.advice``); points, tricks and the
make chance are the player's side's. Sampling, stopping and the paired
intervals are those of Ghost Hand's advice (``sim.advice``).
"""

from __future__ import annotations

import time

import numpy as np

from kernels.hasenpfeffer import advice as ha
from sim import runner
from sim.advice import (
    CHUNK_SAMPLES,
    DEFAULT_CAP,
    DRAWS_PER_SAMPLE,
    AdviceError,
    _diff,
    _recommend,
    action_stats,
    recommendation_line,
    run_fields,
    sample_actions,
)
from sim.cards import card_str, mask_of, parse_cards
from sim.variants.hasenpfeffer.summary import NUMERIC_NAMES, PEPPER_NAMES

SEATS = 4


def _names(rules: dict) -> tuple:
    return ("pass", *(PEPPER_NAMES if rules["bidding"] == "pepper" else NUMERIC_NAMES))


def parse_call(text: str, rules: dict) -> int:
    """The level of a call (0 = pass) in the bidding form in force; AdviceError on an unknown one."""
    t = text.strip().lower().replace("_", "-").replace(" ", "-")
    names = _names(rules)
    if t in ("p",):
        t = "pass"
    if t not in names:
        raise AdviceError(f"unknown call {text!r} (calls are {', '.join(names)})")
    return names.index(t)


def replay_calls(position: int, calls: list[int], rules: dict) -> dict:
    """Check the calls against the auction's rules and turn order; the state at the player's turn.

    The dealer sits in seat 3, so position p is seat p - 1. Returns
    ``prefix`` (list of (seat, level)) and ``standing`` (level) and
    ``partner_holds`` (the standing bid is the partner's).
    """
    if position not in (1, 2, 3, 4):
        raise AdviceError(f"--position must be 1 to 4 (1 = dealer's left, 4 = dealer), got {position}")
    top = 7 if rules["bidding"] == "pepper" else 6
    final = bool(rules["pass_is_final"])
    seat, high, bidder, since, passed = 0, 0, -1, 0, set()
    prefix = []
    for i, call in enumerate(calls):
        if call != 0 and call <= high:
            raise AdviceError(f"call {i + 1}: {_names(rules)[call]} by position {seat + 1} does not beat the "
                              f"standing bid {_names(rules)[high]}")
        prefix.append((seat, call))
        if call == 0:
            passed.add(seat)
            since += 1
        else:
            high, bidder, since = call, seat, 0
        if high == 0:
            over = len(prefix) == SEATS
        elif high == top:
            over = True
        elif final:
            over = all(s in passed for s in range(SEATS) if s != bidder)
        else:
            over = since == SEATS - 1
        if over:
            raise AdviceError(f"the auction is over after call {i + 1}: no one has a turn"
                              + ("" if i + 1 == len(calls) else f" ({len(calls) - i - 1} more call(s) given)"))
        seat = (seat + 1) % SEATS
        if final:
            while seat in passed:
                seat = (seat + 1) % SEATS
    if seat + 1 != position:
        raise AdviceError(f"after those calls it is position {seat + 1}'s turn, not position {position}'s")
    return {"prefix": prefix, "standing": high, "partner_holds": bidder >= 0 and bidder == (seat + 2) % SEATS,
            "top": top}


def _estimates(actions, acc) -> list[dict]:
    return [{"action": a["action"], **action_stats(acc[i], "side_bids")} for i, a in enumerate(actions)]


def advise(hand: str, position: int = 1, calls: str | None = None, bid: str | None = None, strategy="default",
           samples: int | None = None, seed: int = 0, threads: int | None = None, rules: dict | None = None,
           cap: int = DEFAULT_CAP) -> dict:
    """Evaluate every legal call for ``hand`` at ``position`` after ``calls``; ``bid`` answers "should I bid it?"."""
    v, rules_d, rules_vec = runner.resolve_run("hasenpfeffer", seed, rules)
    cards = parse_cards(hand, allow_joker=True)
    if len(cards) != 6:
        raise AdviceError(f"a Hasenpfeffer hand has 6 cards, got {len(cards)}")
    mask = mask_of(cards)
    seq = [] if calls is None or not calls.strip() else [parse_call(c, rules_d) for c in calls.split(",") if c.strip()]
    state = replay_calls(position, seq, rules_d)
    names = _names(rules_d)
    actions = [{"action": "pass", "call": 0}] + [
        {"action": f"bid {names[lv]}", "call": lv} for lv in range(state["standing"] + 1, state["top"] + 1)]
    question = None
    if bid is not None:
        question = parse_call(bid, rules_d)
        if question == 0 or question <= state["standing"]:
            raise AdviceError(f"--bid {bid}: not a bid that beats the standing bid {names[state['standing']]}")
    name, params = runner.seat_params(strategy, "hasenpfeffer")
    if samples is not None and samples <= 0:
        raise AdviceError(f"--samples must be a positive integer, got {samples}")
    n_threads = runner.set_threads(threads)
    act = np.array([a["call"] for a in actions], np.int64)
    prefix = np.array(state["prefix"], np.int64).reshape(-1, 2)
    before = sum(ha.advice_chunks.stats.cache_misses.values())
    t0 = time.perf_counter()

    def run_chunks(states, dstates, targets, d, k, a, p, m):
        ha.advice_chunks(states, dstates, targets, DRAWS_PER_SAMPLE * CHUNK_SAMPLES, np.int64(mask), position - 1,
                         rules_vec, params, prefix, act, d, k, a, p, m)

    acc, pxy, mxy, kept, draws, stopped = sample_actions(
        run_chunks, len(actions), samples, cap, seed, name, lambda a, p, m: _estimates(actions, a))
    est = _estimates(actions, acc)
    result = {
        "variant": "hasenpfeffer",
        "hand": [card_str(c) for c in range(25) if mask >> c & 1],
        "position": position,
        "calls": [[s + 1, names[c]] for s, c in state["prefix"]],
        "standing": names[state["standing"]],
        "rules": rules_d,
        **run_fields(name, seed, n_threads, kept, draws, stopped, est, _recommend(est, acc, pxy),
                     sum(ha.advice_chunks.stats.cache_misses.values()) > before, time.perf_counter() - t0),
    }
    if question is not None:
        i = next(j for j, a in enumerate(actions) if a["call"] == question)
        e = est[i]
        d, ci = _diff(acc, pxy, i, 0)
        verdict = (f"yes: bid {names[question]}, better than passing by {d:+.2f} points a hand" if ci[0] > 0 else
                   f"no: passing is better by {-d:.2f} points a hand" if ci[1] < 0 else
                   f"close call: bidding {names[question]} and passing are within the interval")
        result["question"] = {"bid": names[question], "make_prob": e["make_prob"], "make_ci95": e["make_ci95"],
                              "expected_points": e["expected_points"], "ev_vs_pass": d, "ev_vs_pass_ci95": ci,
                              "verdict": verdict}
    return result


def format_advice(r: dict) -> str:
    """The human-readable answer: each call with its side's make chance and expected points, and the recommendation."""
    calls = ", ".join(f"{p}: {c}" for p, c in r["calls"]) or "none"
    lines = [
        f"Hasenpfeffer, position {r['position']} (1 = dealer's left, 4 = dealer), hand {' '.join(r['hand'])}; "
        f"calls before you: {calls}",
        f"{r['samples']:,} sampled deals consistent with those calls ({100 * r['acceptance_rate']:.1f}% of "
        f"{r['draws']:,} drawn), strategy {r['strategy']}, seed {r['seed']}",
        "",
    ]
    if "question" in r:
        q = r["question"]
        mk = "-" if q["make_prob"] is None else f"{100 * q['make_prob']:.1f}%"
        lines += [f"bid {q['bid']}? {q['verdict']} (your side makes it {mk} of the time it plays the contract)", ""]
    lines.append(f"{'action':<20} {'side bids':>9} {'make chance':>20} {'tricks':>7} {'points':>8} "
                 f"{'(95% interval)':>18} {'margin':>7}")
    for e in r["actions"]:
        mk = "-" if e["make_prob"] is None else f"{100 * e['make_prob']:.1f}% ({100 * e['make_ci95'][0]:.1f}-{100 * e['make_ci95'][1]:.1f})"
        lo, hi = e["points_ci95"]
        lines.append(f"{e['action']:<20} {100 * e['side_bids']:>8.1f}% {mk:>20} {e['mean_tricks']:>7.2f} "
                     f"{e['expected_points']:>+8.3f} {f'({lo:+.3f} to {hi:+.3f})':>18} {e['expected_margin']:>+7.3f}")
    lines += ["", recommendation_line(r["recommendation"])]
    return "\n".join(lines)


def ask(hand: str, question: dict, strategy="default", samples=None, seed: int = 0, threads=None, rules=None) -> dict:
    """``bower should-bid`` for Hasenpfeffer: ``question`` holds the command's flags (position, calls, bid)."""
    for flag, key in (("--scores", "scores"), ("--upcard", "upcard")):
        if question.get(key) is not None:
            raise AdviceError(f"{flag} is not a Hasenpfeffer question; it takes the hand, --position, --calls, --bid")
    if question.get("swapped") is not None:
        raise AdviceError("--swapped is a Ghost Hand question; Hasenpfeffer has no ghost hand")
    return advise(hand, position=question.get("position", 1), calls=question.get("calls"), bid=question.get("bid"),
                  strategy=strategy, samples=samples, seed=seed, threads=threads, rules=rules)
