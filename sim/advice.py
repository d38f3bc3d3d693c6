"""``should-bid`` orchestration: check the situation, list the open actions, sample, compare, recommend.

Positions are 1 (dealer's left) to 3 (dealer); in the kernel the dealer sits
in seat 2, so position p is seat p - 1. Samples come in chunks of
``CHUNK_SAMPLES`` kept deals, chunk c seeded from ``SeedSequence(seed,
spawn_key=(c,))``; batches of chunks are fixed, so the answer for a seed does
not depend on the thread count.
"""

from __future__ import annotations

import math
import time

import numpy as np

from analysis.intervals import Z95, wilson
from kernels import advice as ka
from kernels.ghost import advice as ga
from sim import runner
from sim.cards import SUITS, card_str, mask_of, parse_cards
from sim.errors import UserError

CHUNK_SAMPLES = 1024
BATCH_CHUNKS = 8
DEFAULT_CAP = 200_000
TARGET_WIDTH = 0.05
DRAWS_PER_SAMPLE = 400  # rejection budget: a chunk gives up after this many draws per sample wanted
CALL_CODES = {"pass": 0, "p": 0, "3": 3, "4": 4, "5": 5, "moon": 6, "6": 6}
CALL_NAMES = {0: "pass", 3: "3", 4: "4", 5: "5", 6: "moon"}


class AdviceError(UserError, ValueError):
    """A hand, call sequence or option that describes no reachable Ghost Hand turn."""


class ImpossibleAuction(AdviceError):
    """No sampled deal reproduced the calls under the strategy: the model finds the auction impossible."""


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
            np.array(seat_scores, np.int64), runner.TARGET, prefix, -1 if swap_given is None else swap_given - 1, act,
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
        "strategy": name,
        "seed": seed,
        "threads": n_threads,
        "samples": kept,
        "draws": draws,
        "acceptance_rate": kept / draws,
        "stopped": stopped,
        "actions": est,
        "recommendation": rec,
        "compiled": sum(ga.advice_chunks.stats.cache_misses.values()) > before,
        "elapsed_s": elapsed,
    }
    if question is not None:
        result["question"] = _answer(question, est, acc, pxy)
    return result


def sample_actions(run_chunks, n_act: int, samples: int | None, cap: int, seed: int, strategy_name: str, estimates):
    """Sample kept deals in fixed batches of chunks and sum every action's counters; stop when asked or clear.

    ``run_chunks(states, dstates, targets, draws, kept, acc, pts_xy, mar_xy)``
    runs the variant's advice kernel on a batch; ``estimates(acc, pxy, mxy)``
    gives the per-action estimates the adaptive stop looks at. Returns (acc,
    pts_xy, mar_xy, kept, draws, stopped).
    """
    acc = np.zeros((n_act, ka.A_WIDTH), np.int64)
    pxy = np.zeros((n_act, n_act), np.int64)
    mxy = np.zeros((n_act, n_act), np.int64)
    draws = kept = 0
    total = samples if samples is not None else cap
    chunk = 0
    stopped = "samples" if samples is not None else "cap"
    while kept < total:
        n_chunks = min(BATCH_CHUNKS, -(-(total - kept) // CHUNK_SAMPLES))
        targets = np.array([min(CHUNK_SAMPLES, total - kept - i * CHUNK_SAMPLES) for i in range(n_chunks)], np.int64)
        d = np.zeros(n_chunks, np.int64)
        k = np.zeros(n_chunks, np.int64)
        a = np.zeros((n_chunks, n_act, ka.A_WIDTH), np.int64)
        p = np.zeros((n_chunks, n_act, n_act), np.int64)
        m = np.zeros((n_chunks, n_act, n_act), np.int64)
        run_chunks(runner.chunk_states(seed, chunk, n_chunks), runner.decision_states(seed, chunk, n_chunks), targets,
                   d, k, a, p, m)
        chunk += n_chunks
        draws += int(d.sum())
        kept += int(k.sum())
        acc += a.sum(axis=0)
        pxy += p.sum(axis=0)
        mxy += m.sum(axis=0)
        if kept == 0:
            raise ImpossibleAuction(
                f"no deal among {draws:,} drawn reproduces those calls under strategy {strategy_name}: "
                "the model finds this auction impossible"
            )
        if int(k.sum()) < int(targets.sum()):
            stopped = "acceptance"
            break
        if samples is None:
            est = estimates(acc, pxy, mxy)
            if _recommend(est, acc, pxy)["clear"]:
                stopped = "clear"
                break
            if all(e["points_ci95"][1] - e["points_ci95"][0] < TARGET_WIDTH for e in est):
                stopped = "narrow"
                break
    return acc, pxy, mxy, kept, draws, stopped


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


def _mean_ci(n, s, ss, scale=1.0):
    mean = float(s / n / scale)
    var = max(float(ss / n / scale**2) - mean * mean, 0.0) * n / max(n - 1, 1)
    half = Z95 * math.sqrt(var / n)
    return mean, [mean - half, mean + half]


def action_stats(row, maker_key: str) -> dict:
    """One action's estimates from its counters (``kernels.ghost.advice.A_*``), with 95% intervals.

    ``maker_key`` names the share of samples in which the player (or side)
    ended up making trump; ``make_prob`` is the chance of making it then.
    """
    c = row.astype(float)
    n = c[ka.A_N]
    maker = int(row[ka.A_MAKER])
    made = int(row[ka.A_MADE])
    pts, pts_ci = _mean_ci(n, c[ka.A_PTS], c[ka.A_PTS_SQ])
    mar, mar_ci = _mean_ci(n, c[ka.A_MAR], c[ka.A_MAR_SQ], 2.0)
    tr, tr_ci = _mean_ci(n, c[ka.A_TRICKS], c[ka.A_TRICKS_SQ])
    return {
        "samples": int(n),
        maker_key: maker / n,
        f"{maker_key}_ci95": list(wilson(maker, int(n))),
        "make_prob": made / maker if maker else None,
        "make_ci95": list(wilson(made, maker)) if maker else None,
        "mean_tricks": tr,
        "tricks_ci95": tr_ci,
        "expected_points": pts,
        "points_ci95": pts_ci,
        "expected_margin": mar,
        "margin_ci95": mar_ci,
    }


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


def recommendation_line(rec: dict, alone: str = "") -> str:
    """The last line of a should-bid answer: the best action, how surely it beats the runner-up."""
    if "runner_up" not in rec:
        return f"recommendation: {rec['action']}{alone}"
    lo, hi = rec["diff_ci95"]
    sure = "clearly" if rec["clear"] else "not clearly (within the interval)"
    return (f"recommendation: {rec['action']} — {sure} better than {rec['runner_up']} by "
            f"{rec['diff_points']:+.3f} points a hand ({lo:+.3f} to {hi:+.3f})")


def _diff(acc, pxy, i, j):
    """Paired mean difference of points (action i minus j) and its 95% interval."""
    n = float(acc[i, ka.A_N])
    d = float(acc[i, ka.A_PTS] - acc[j, ka.A_PTS]) / n
    ss = float(pxy[i, i] - 2 * pxy[i, j] + pxy[j, j]) / n
    var = max(ss - d * d, 0.0) * n / max(n - 1, 1)
    half = Z95 * math.sqrt(var / n)
    return d, [d - half, d + half]


def _recommend(est, acc, pxy) -> dict:
    order = sorted(range(len(est)), key=lambda i: -est[i]["expected_points"])
    best = order[0]
    rec = {"action": est[best]["action"], "expected_points": est[best]["expected_points"], "clear": True}
    if len(order) > 1:
        ru = order[1]
        d, ci = _diff(acc, pxy, best, ru)
        rec.update({"runner_up": est[ru]["action"], "diff_points": d, "diff_ci95": ci, "clear": bool(ci[0] > 0)})
    return rec


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
