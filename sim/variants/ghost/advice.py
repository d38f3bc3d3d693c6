"""Ghost Hand's should-bid question: the situation (hand, position, calls, swap, scores), its open actions, the answer.

Positions are 1 (dealer's left) to 3 (dealer); in the kernel the dealer sits
in seat 2, so position p is seat p - 1. The sampling, statistics and
recommendation are the shared ones of ``sim.advice``.
"""

from __future__ import annotations

import time

import numpy as np

from kernels.ghost import advice as ga
from sim import runner
from sim.advice import (
    CHUNK_SAMPLES,
    DEFAULT_CAP,
    DRAWS_PER_SAMPLE,
    AdviceError,
    _diff,
    _recommend,
    action_stats,
    run_fields,
    sample_actions,
)
from sim.cards import SUITS, card_str, mask_of, parse_cards

CALL_CODES = {"pass": 0, "p": 0, "3": 3, "4": 4, "5": 5, "moon": 6, "6": 6}
CALL_NAMES = {0: "pass", 3: "3", 4: "4", 5: "5", 6: "moon"}
TARGET = 32


def parse_hand(text: str) -> int:
    """The mask of a six-card Ghost Hand hand; AdviceError/CardError on a bad one."""
    cards = parse_cards(text, allow_joker=False)
    if len(cards) != 6:
        raise AdviceError(f"a Ghost Hand hand has 6 cards, got {len(cards)}")
    return mask_of(cards)


def parse_calls(text: str | None) -> list[int]:
    """Call codes from ``"pass,3"`` (pass, 3, 4, 5, moon)."""
    if text is None or not text.strip():
        return []
    out = []
    for part in text.replace(" ", ",").split(","):
        if not part:
            continue
        code = CALL_CODES.get(part.strip().lower())
        if code is None:
            raise AdviceError(f"unknown call {part!r} (calls are pass, 3, 4, 5, moon)")
        out.append(code)
    return out


def replay_turns(position: int, calls: list[int], rules: dict) -> dict:
    """Check the calls against the auction's rules and turn order; the state at the player's turn.

    Follows the kernel's turn order (positions 1, 2, 3; under
    ``until_passes`` round again, skipping players who passed and the high
    bidder). Returns ``prefix`` (list of (seat, code)), ``standing``,
    ``called`` (positions that have called) and ``forced`` (the player is a
    stuck dealer).
    """
    if position not in (1, 2, 3):
        raise AdviceError(f"--position must be 1, 2 or 3 (1 = dealer's left, 3 = dealer), got {position}")
    until = rules["auction"] == "until_passes"
    passed: set[int] = set()
    called: set[int] = set()
    standing, maker = 0, None
    prefix = []
    i = 0
    pos = 1
    while True:
        if pos not in passed and pos != maker:
            if i == len(calls):
                break
            code = calls[i]
            if code != 0 and code <= standing:
                raise AdviceError(
                    f"call {i + 1}: a bid of {CALL_NAMES[code]} by position {pos} does not beat "
                    f"the standing bid {CALL_NAMES[standing]}"
                )
            if code == 0 and _stuck(pos, passed, standing, rules):
                raise AdviceError(f"call {i + 1}: the dealer (position 3) is stuck and may not pass")
            prefix.append((pos - 1, code))
            called.add(pos)
            i += 1
            if code == 0:
                passed.add(pos)
            else:
                standing, maker = code, pos
        ended = standing == 6
        if pos == 3:
            ended = ended or not until or len(passed) == 3
            pos = 1
        else:
            pos += 1
        ended = ended or (until and maker is not None and len(passed) == 2)
        if ended:
            if i < len(calls):
                raise AdviceError(f"call {i + 1} ({CALL_NAMES[calls[i]]}) comes after the auction ended")
            raise AdviceError("the auction is over after those calls: no one has a turn")
    if pos != position:
        raise AdviceError(f"after those calls it is position {pos}'s turn, not position {position}'s")
    return {"prefix": prefix, "standing": standing, "called": called, "forced": _stuck(position, passed, standing, rules)}


def _stuck(pos: int, passed: set, standing: int, rules: dict) -> bool:
    return bool(rules["stick_the_dealer"]) and pos == 3 and standing == 0 and passed >= {1, 2}


def open_actions(state: dict, swap_open: bool) -> list[dict]:
    """The actions open at the player's turn: pass, each legal bid with each trump, and the swap."""
    keep = 0 if swap_open else -1
    actions = []
    if not state["forced"]:
        actions.append({"action": "pass", "swap": keep, "call": 0, "trump": -1})
    for code in (3, 4, 5, 6):
        if code > state["standing"]:
            for t, suit in enumerate(SUITS):
                actions.append({"action": f"{CALL_NAMES[code]} {suit}", "swap": keep, "call": code, "trump": t})
    if swap_open:
        actions.append({"action": "swap, then the strategy's call", "swap": 1, "call": -1, "trump": -1})
    return actions


def advise(
    hand: str,
    position: int = 1,
    calls: str | None = None,
    swapped: str | None = None,
    bid: str | None = None,
    scores: str | None = None,
    strategy="default",
    samples: int | None = None,
    seed: int = 0,
    threads: int | None = None,
    rules: dict | None = None,
    cap: int = DEFAULT_CAP,
) -> dict:
    """Evaluate every open action for ``hand`` at ``position`` after ``calls``; see README for the fields."""
    v, rules_d, rules_vec = runner.resolve_run("ghost", seed, rules)
    mask = parse_hand(hand)
    codes = parse_calls(calls)
    state = replay_turns(position, codes, rules_d)
    swap_given = _parse_swapped(swapped, position, state, rules_d)
    swap_open = rules_d["swap"] == "at_turn" and swap_given is None and position not in state["called"]
    seat_scores = _parse_scores(scores)
    actions = open_actions(state, swap_open)
    question = _parse_bid(bid, state)
    name, params = runner.seat_params(strategy)
    if samples is not None and samples <= 0:
        raise AdviceError(f"--samples must be a positive integer, got {samples}")
    n_threads = runner.set_threads(threads)
    act = np.array([[a["swap"], a["call"], a["trump"]] for a in actions], np.int64)
    prefix = np.array(state["prefix"], np.int64).reshape(-1, 2)
    seat = position - 1
    before = sum(ga.advice_chunks.stats.cache_misses.values())
    t0 = time.perf_counter()

    def run_chunks(states, dstates, targets, d, k, a, p, m):
        ga.advice_chunks(
            states, dstates, targets, DRAWS_PER_SAMPLE * CHUNK_SAMPLES, np.int64(mask), seat, rules_vec, params,
            np.array(seat_scores, np.int64), TARGET, prefix, -1 if swap_given is None else swap_given - 1, act,
            d, k, a, p, m,
        )

    acc, pxy, mxy, kept, draws, stopped = sample_actions(
        run_chunks, len(actions), samples, cap, seed, name, lambda a, p, m: _estimates(actions, a, p, m))
    elapsed = time.perf_counter() - t0
    est = _estimates(actions, acc, pxy, mxy)
    rec = _recommend(est, acc, pxy)
    result = {
        "variant": "ghost",
        "hand": [card_str(c) for c in range(24) if mask >> c & 1],
        "position": position,
        "calls": [[pos + 1, CALL_NAMES[c]] for pos, c in state["prefix"]],
        "swapped": swap_given,
        "swap_open": swap_open,
        "scores": {str(i + 1): s for i, s in enumerate(seat_scores)},
        "rules": rules_d,
        **run_fields(name, seed, n_threads, kept, draws, stopped, est, rec,
                     sum(ga.advice_chunks.stats.cache_misses.values()) > before, elapsed),
    }
    if question is not None:
        result["question"] = _answer(question, est, acc, pxy)
    return result


def _parse_swapped(swapped, position, state, rules):
    if swapped is None or str(swapped).lower() == "none":
        return None
    try:
        q = int(swapped)
    except ValueError:
        raise AdviceError(f"--swapped must be a position (1, 2, 3) or none, got {swapped!r}") from None
    if rules["swap"] == "none":
        raise AdviceError("--swapped: no one can swap under the rule swap=none")
    if q not in (1, 2, 3):
        raise AdviceError(f"--swapped must be a position (1, 2, 3) or none, got {q}")
    if q == position:
        raise AdviceError("--swapped: the player's own swap is an action to evaluate, not a given")
    if q not in state["called"]:
        raise AdviceError(f"--swapped {q}: position {q} has not had a turn yet")
    return q


def _parse_scores(scores):
    if scores is None:
        return [0, 0, 0]
    try:
        vals = [int(x) for x in str(scores).split(",")]
    except ValueError:
        raise AdviceError(f"--scores must be three whole numbers (positions 1,2,3), got {scores!r}") from None
    if len(vals) != 3:
        raise AdviceError(f"--scores must be three whole numbers (positions 1,2,3), got {scores!r}")
    return vals


def _parse_bid(bid, state):
    if bid is None:
        return None
    code = CALL_CODES.get(str(bid).lower())
    if code in (None, 0):
        raise AdviceError(f"--bid must be 3, 4, 5 or moon, got {bid!r}")
    if code <= state["standing"]:
        raise AdviceError(f"--bid {CALL_NAMES[code]} does not beat the standing bid {CALL_NAMES[state['standing']]}")
    return code


def _estimates(actions, acc, pxy, mxy) -> list[dict]:
    return [
        {
            "action": a["action"],
            "call": CALL_NAMES.get(a["call"]) if a["call"] >= 0 else None,
            "trump": SUITS[a["trump"]] if a["trump"] >= 0 else None,
            "swap": a["swap"] == 1,
            **action_stats(acc[i], "wins_auction"),
        }
        for i, a in enumerate(actions)
    ]


def _answer(code: int, est, acc, pxy) -> dict:
    """The answer to "should I bid CODE?": its best suit, make chance, value against passing, verdict."""
    name = CALL_NAMES[code]
    cand = [i for i, e in enumerate(est) if e["call"] == name and not e["swap"]]
    best = max(cand, key=lambda i: est[i]["expected_points"])
    e = est[best]
    out = {
        "bid": name,
        "trump": e["trump"],
        "make_prob": e["make_prob"],
        "make_ci95": e["make_ci95"],
        "wins_auction": e["wins_auction"],
        "expected_points": e["expected_points"],
    }
    passes = [i for i, x in enumerate(est) if x["action"] == "pass"]
    if passes:
        d, ci = _diff(acc, pxy, best, passes[0])
        out.update({"ev_vs_pass": d, "ev_vs_pass_ci95": ci})
        if ci[0] > 0:
            out["verdict"] = f"yes: bid {name} in {e['trump']}, better than passing by {d:+.2f} points a hand"
        elif ci[1] < 0:
            out["verdict"] = f"no: passing is better by {-d:.2f} points a hand"
        else:
            out["verdict"] = f"close call: bidding {name} in {e['trump']} and passing are within the interval"
    else:
        out["verdict"] = f"the dealer is stuck: bid {name} in {e['trump']} scores {e['expected_points']:+.2f} a hand"
    rec = _recommend(est, acc, pxy)
    if rec["action"] != e["action"]:
        out["verdict"] += f" (best of all: {rec['action']})"
    return out


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def format_advice(r: dict) -> str:
    """The human-readable answer of ``sim.advice.advise``."""
    calls = ", ".join(f"position {p}: {c}" for p, c in r["calls"]) or "none"
    lines = []
    q = r.get("question")
    if q:
        lines += [
            f"Should you bid {q['bid']}?  {q['verdict']}",
            f"  bid {q['bid']} in {q['trump']}: makes {_pct(q['make_prob'])}"
            + (f" (95%: {_pct(q['make_ci95'][0])}-{_pct(q['make_ci95'][1])})" if q["make_ci95"] else "")
            + (f", expected value against passing {q['ev_vs_pass']:+.3f} points "
               f"({q['ev_vs_pass_ci95'][0]:+.3f} to {q['ev_vs_pass_ci95'][1]:+.3f})" if "ev_vs_pass" in q else ""),
            "",
        ]
    lines += [
        f"Hand {' '.join(r['hand'])} at position {r['position']} (1 = dealer's left, 3 = dealer); calls so far: {calls}; "
        + ("the ghost is still there" if r["swap_open"] else "no swap open"),
        f"{r['samples']:,} sampled deals per action (acceptance {_pct(r['acceptance_rate'])} of {r['draws']:,} drawn), "
        f"strategy {r['strategy']} for everyone afterwards, seed {r['seed']}",
    ]
    if r.get("compiled"):
        lines.append("(compiled the advice kernel first; cached for later calls)")
    lines += [
        "",
        f"{'action':<32} {'wins bid':>8} {'makes':>7} {'tricks':>7} {'points':>8} {'(95% interval)':>18} {'margin':>8}",
    ]
    best = r["recommendation"]["action"]
    for a in sorted(r["actions"], key=lambda a: -a["expected_points"]):
        lo, hi = a["points_ci95"]
        lines.append(
            f"{a['action'][:32]:<32} {_pct(a['wins_auction']):>8} {_pct(a['make_prob']):>7} {a['mean_tricks']:>7.2f} "
            f"{a['expected_points']:>+8.3f} {f'({lo:+.3f} to {hi:+.3f})':>18} {a['expected_margin']:>+8.3f}"
            + ("  <- best" if a["action"] == best else "")
        )
    rec = r["recommendation"]
    lines.append("")
    if "runner_up" in rec:
        lo, hi = rec["diff_ci95"]
        kind = "clearly best" if rec["clear"] else "a close call"
        lines.append(
            f"Recommendation: {rec['action']} ({kind}: {rec['diff_points']:+.3f} points over {rec['runner_up']}, "
            f"95% {lo:+.3f} to {hi:+.3f})"
        )
    else:
        lines.append(f"Recommendation: {rec['action']} (the only legal action)")
    lines.append("'makes' is the chance of making the contract when you win the auction; 'margin' is your points "
                 "minus the mean of the two opponents'.")
    return "\n".join(lines)


def ask(hand: str, question: dict, strategy="default", samples=None, seed: int = 0, threads=None, rules=None) -> dict:
    """``bower should-bid`` for Ghost Hand: ``question`` holds the command's flags (position, calls, swapped, bid, scores)."""
    if question.get("upcard") is not None:
        raise AdviceError("--upcard is a question of the variants with an up-card (Cutthroat, Euchre), not Ghost Hand")
    return advise(hand, position=question.get("position", 1), calls=question.get("calls"),
                  swapped=question.get("swapped"), bid=question.get("bid"), scores=question.get("scores"),
                  strategy=strategy, samples=samples, seed=seed, threads=threads, rules=rules)
