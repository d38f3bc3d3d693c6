"""Ghost Hand's should-bid question: the situation (hand, position, calls, swap, scores), its open actions, the answer.

Positions are 1 (dealer's left) to 3 (dealer); in the kernel the dealer sits
in seat 2, so position p is seat p - 1. The sampling, statistics and
recommendation are the shared ones of ``bower.sim.advice``.

The other players' observed swap decisions and calls are weighted by the
model of ``bower.kernels.ghost.model`` (``--model softmax``, the default: every
legal auction has positive probability when epsilon > 0) or by exact
rejection (``--model exact``: today's answer, bit for bit, through the same
integer statistics). What the calls say about each other player is reported
as the weighted mean of two features of the hand it holds (after any swap):
its best trick estimate (``best_estimate``) and whether it holds the right
bower of that best suit (``right_bower``).
"""

from __future__ import annotations

import time

import numpy as np

from bower.kernels import advice as ka
from bower.kernels.ghost import advice as ga
from bower.kernels.ghost import hand as gk
from bower.kernels.ghost import model as gm
from bower.kernels.ghost.strategy import strategy_rows
from bower.sim import runner
from bower.sim.advice import (
    attach_equity,
    equity_block,
    equity_stop,
    game_equity,
    as_counts,
    CHUNK_SAMPLES,
    DEFAULT_CAP,
    DRAWS_PER_SAMPLE,
    AdviceError,
    ImpossibleAuction,
    _diff,
    _diff_weighted,
    _recommend,
    _recommend_weighted,
    action_stats,
    inference_rows,
    model_fields,
    model_vector,
    playout_bits,
    playout_params,
    run_fields,
    call_chunks,
    sample_actions,
    sample_weighted,
    weighted_action_stats,
)
from bower.sim.cards import SUITS, card_str, mask_of, parse_cards
from bower.sim.text import MAX_DIGITS, given_text, number_text

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
        raise AdviceError(f"--position must be 1, 2 or 3 (1 = dealer's left, 3 = dealer), "
                          f"got {number_text(position)}")
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
    model: dict | None = None,
    playout: str | None = "strategy",
    equity: dict | None = None,
) -> dict:
    """Evaluate every open action for ``hand`` at ``position`` after ``calls``; see docs/guides/should-bid.md for the fields.

    ``model`` is ``{"kind": "softmax"|"exact", "tau", "epsilon"}`` (None: the
    softmax model with the defaults of ``bower.sim.advice``); ``playout`` is
    ``strategy``, ``dd`` or ``both``. ``scores`` (by position) feed
    score-aware strategies and answer in games won too
    (``bower.sim.advice.game_equity``; ``equity``: the table's ``hands``,
    ``seed``, ``resamples``).
    """
    _, rules_d, rules_vec = runner.resolve_run("ghost", seed, rules)
    mask = parse_hand(hand)
    codes = parse_calls(calls)
    state = replay_turns(position, codes, rules_d)
    swap_given = _parse_swapped(swapped, position, state, rules_d)
    swap_open = rules_d["swap"] == "at_turn" and swap_given is None and position not in state["called"]
    seat_scores = _parse_scores(scores)
    actions = open_actions(state, swap_open)
    question = _parse_bid(bid, state)
    mvec, mdesc = model_vector(model)
    playout = playout or "strategy"
    bits = playout_bits(playout)
    name, params = runner.seat_params(strategy)
    params = playout_params(params, playout, "ghost")
    rows = strategy_rows(params)
    search = gk.search_arg(params)  # None: the play-outs compile no search code
    if samples is not None and samples <= 0:
        raise AdviceError(f"--samples must be a positive integer, got {samples}")
    game = None if scores is None else game_equity(
        "ghost", seat_scores, rules=rules, seat=position - 1, dealer=ga.ADVICE_DEALER, table_args=equity,
        who="by position, 1 to 3")
    eqt = ka.eqt_arg(game)
    n_threads = runner.set_threads(threads)
    act = np.array([[a["swap"], a["call"], a["trump"]] for a in actions], np.int64)
    prefix = np.array(state["prefix"], np.int64).reshape(-1, 2)
    seat = position - 1
    n_act = len(actions)
    before = sum(ga.advice_chunks.stats.cache_misses.values())
    t0 = time.perf_counter()

    def kernel(states, dstates, targets, d, k, w, a, p, m, inf, e, ex):
        call_chunks("bower.kernels.ghost.advice:advice_chunks", states, dstates, targets, (
            DRAWS_PER_SAMPLE * CHUNK_SAMPLES, np.int64(mask), seat, rules_vec, rows,
            np.array(seat_scores, np.int64), TARGET, prefix, -1 if swap_given is None else swap_given - 1, act,
            mvec, bits, search, ka.dd_arg(bits), eqt), (d, k, w, a, p, m, inf, e, ex))

    exact = mdesc["kind"] == "exact"
    main_row = 0 if bits & ka.PLAY_STRATEGY else 1
    if exact:
        sums = _sample_exact(kernel, n_act, samples, cap, seed, name, actions, main_row, game is not None)
    else:
        sums = sample_weighted(kernel, n_act, N_SEATS, samples, cap, seed,
                               lambda a, p, m, e: _estimates_w(actions, a, p, m, e), first_row=main_row,
                               strategy_name=name, equity=game is not None)
        if sums["kept"] == 0:
            raise ImpossibleAuction(
                f"no deal among {sums['draws']:,} drawn has positive weight under the model "
                f"(epsilon {mdesc['epsilon']}, tau {mdesc['tau']}): use epsilon > 0"
            )
    elapsed = time.perf_counter() - t0
    rows_est = {}
    for row in ([0] if bits & ka.PLAY_STRATEGY else []) + ([1] if bits & ka.PLAY_DD else []):
        rows_est[row] = _row_estimates(actions, sums, row, exact)
    est, rec, acc_m, pxy_m, diff = rows_est[main_row]
    others = [s for s in range(N_SEATS) if s != seat]
    inference = inference_rows(sums["infer"], sums["wsum"], others, gm.FEATURE_NAMES, lambda s: f"position {s + 1}")
    for row in inference:  # whether the seat made an observed decision, or its features are only the deal's prior
        row["called"] = row["seat"] + 1 in state["called"]
        row["swapped"] = swap_given == row["seat"] + 1
    result = {
        "variant": "ghost",
        "hand": [card_str(c) for c in range(24) if mask >> c & 1],
        "position": position,
        "calls": [[pos + 1, CALL_NAMES[c]] for pos, c in state["prefix"]],
        "swapped": swap_given,
        "swap_open": swap_open,
        "scores": {str(i + 1): s for i, s in enumerate(seat_scores)},
        "rules": rules_d,
        **model_fields(mdesc, sums, playout, inference),
        **run_fields(name, seed, n_threads, sums["kept"], sums["draws"], sums["stopped"], est, rec,
                     sum(ga.advice_chunks.stats.cache_misses.values()) > before, elapsed),
    }
    if bits & ka.PLAY_DD:
        result["actions_dd"] = rows_est[1][0]
        result["recommendation_dd"] = rows_est[1][1]
    if question is not None:
        result["question"] = _answer(question, est, acc_m, pxy_m, diff)
    if game is not None:
        attach_equity(result, game, sums["eacc"], sums["exy"], float(sums["wsum"][0]), sums["ess"], main_row)
    return result


N_SEATS = 3
def _sample_exact(kernel, n_act, samples, cap, seed, name, actions, main_row, equity=False):
    """Today's rejection sampling (``bower.sim.advice.sample_actions``, integer counters) through the weighted kernel."""
    from bower.sim.advice import N_INFER, N_PLAYOUTS

    extra = {"acc": np.zeros((N_PLAYOUTS, n_act, ka.W_WIDTH)), "pxy": np.zeros((N_PLAYOUTS, n_act, n_act)),
             "mxy": np.zeros((N_PLAYOUTS, n_act, n_act)), "wsum": np.zeros(2), "infer": np.zeros((N_SEATS, N_INFER)),
             "eacc": np.zeros((N_PLAYOUTS, n_act, ka.E_WIDTH)), "exy": np.zeros((N_PLAYOUTS, n_act, n_act))}

    def run_chunks(states, dstates, targets, d, k, a, p, m):
        n = states.shape[0]
        w = np.zeros((n, 2))
        aw = np.zeros((n, N_PLAYOUTS, n_act, ka.W_WIDTH))
        pw = np.zeros((n, N_PLAYOUTS, n_act, n_act))
        mw = np.zeros((n, N_PLAYOUTS, n_act, n_act))
        inf = np.zeros((n, N_SEATS, N_INFER))
        ew = np.zeros((n, N_PLAYOUTS, n_act, ka.E_WIDTH))
        xw = np.zeros((n, N_PLAYOUTS, n_act, n_act))
        kernel(states, dstates, targets, d, k, w, aw, pw, mw, inf, ew, xw)
        a[:] = as_counts(aw[:, main_row])
        p[:] = np.rint(pw[:, main_row]).astype(np.int64)
        m[:] = np.rint(mw[:, main_row]).astype(np.int64)
        for i in range(n):
            extra["acc"] += aw[i]
            extra["pxy"] += pw[i]
            extra["mxy"] += mw[i]
            extra["wsum"] += w[i]
            extra["infer"] += inf[i]
            extra["eacc"] += ew[i]
            extra["exy"] += xw[i]

    stop = None if not equity else (
        lambda: equity_stop(extra["eacc"][main_row], extra["exy"][main_row], extra["wsum"][0], extra["wsum"][0]))
    _, _, _, kept, draws, stopped = sample_actions(
        run_chunks, n_act, samples, cap, seed, name, lambda a, p, m: _estimates(actions, a, p, m), stop)
    return {**extra, "ess": float(kept), "kept": kept, "draws": draws, "stopped": stopped}


def _row_estimates(actions, sums, row, exact):
    """(estimates, recommendation, counters, point products, paired difference) of play-out ``row``."""
    if exact:
        acc = as_counts(sums["acc"][row])
        pxy = np.rint(sums["pxy"][row]).astype(np.int64)
        mxy = np.rint(sums["mxy"][row]).astype(np.int64)
        est = _estimates(actions, acc, pxy, mxy)
        return est, _recommend(est, acc, pxy), acc, pxy, _diff
    acc, pxy, mxy, ess = sums["acc"][row], sums["pxy"][row], sums["mxy"][row], sums["ess"]
    est = _estimates_w(actions, acc, pxy, mxy, ess)
    return est, _recommend_weighted(est, acc, pxy, ess), acc, pxy, lambda a, p, i, j: _diff_weighted(a, p, i, j, ess)


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


MAX_SCORE = 10**6  # a game score further from 0 than this is no game's (the target is 32); the kernel adds to it


def _parse_scores(scores):
    if scores is None:
        return [0, 0, 0]
    shown = given_text(scores)
    try:  # a whole number of more than MAX_DIGITS digits is never expanded (int() of 5,000 digits fails)
        vals = [int(x) if len(x.strip()) <= MAX_DIGITS else None for x in str(scores).split(",")]
    except ValueError:
        raise AdviceError(f"--scores must be three whole numbers (positions 1,2,3), got {shown!r}") from None
    if len(vals) != 3:
        raise AdviceError(f"--scores must be three whole numbers (positions 1,2,3), got {shown!r}")
    if any(v is None or abs(v) > MAX_SCORE for v in vals):
        raise AdviceError(f"--scores must be game scores from {-MAX_SCORE:,} to {MAX_SCORE:,}, got {shown!r}")
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


def _estimates_w(actions, acc, pxy, mxy, ess) -> list[dict]:
    n = int(round(ess))
    return [
        {
            "action": a["action"],
            "call": CALL_NAMES.get(a["call"]) if a["call"] >= 0 else None,
            "trump": SUITS[a["trump"]] if a["trump"] >= 0 else None,
            "swap": a["swap"] == 1,
            "samples": n,
            **weighted_action_stats(acc[i], "wins_auction", ess),
        }
        for i, a in enumerate(actions)
    ]


def _answer(code: int, est, acc, pxy, diff=_diff) -> dict:
    """The answer to "should I bid CODE?": its best suit, make chance, value against passing, verdict."""
    name = CALL_NAMES[code]
    cand = [i for i, e in enumerate(est) if e["call"] == name and not e["swap"]]
    best = max(cand, key=lambda i: est[i]["expected_points"])
    e = est[best]
    passes = [i for i, x in enumerate(est) if x["action"] == "pass"]
    out = {
        "bid": name,
        "action": e["action"],
        "against": est[passes[0]]["action"] if passes else None,
        "trump": e["trump"],
        "make_prob": e["make_prob"],
        "make_ci95": e["make_ci95"],
        "wins_auction": e["wins_auction"],
        "expected_points": e["expected_points"],
    }
    if passes:
        d, ci = diff(acc, pxy, best, passes[0])
        out.update({"ev_vs_pass": d, "ev_vs_pass_ci95": ci})
        if ci[0] > 0:
            out["verdict"] = f"yes: bid {name} in {e['trump']}, better than passing by {d:+.2f} points a hand"
        elif ci[1] < 0:
            out["verdict"] = f"no: passing is better by {-d:.2f} points a hand"
        else:
            out["verdict"] = f"close call: bidding {name} in {e['trump']} and passing are within the interval"
    else:
        out["verdict"] = f"the dealer is stuck: bid {name} in {e['trump']} scores {e['expected_points']:+.2f} a hand"
    rec = max(est, key=lambda x: x["expected_points"])
    if rec["action"] != e["action"]:
        out["verdict"] += f" (best of all: {rec['action']})"
    return out


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _table(actions, best) -> list[str]:
    lines = [f"{'action':<32} {'wins bid':>8} {'makes':>7} {'tricks':>7} {'points':>8} {'(95% interval)':>18} "
             f"{'margin':>8}"]
    for a in sorted(actions, key=lambda a: -a["expected_points"]):
        lo, hi = a["points_ci95"]
        lines.append(
            f"{a['action'][:32]:<32} {_pct(a['wins_auction']):>8} {_pct(a['make_prob']):>7} {a['mean_tricks']:>7.2f} "
            f"{a['expected_points']:>+8.3f} {f'({lo:+.3f} to {hi:+.3f})':>18} {a['expected_margin']:>+8.3f}"
            + ("  <- best" if a["action"] == best else "")
        )
    return lines


def _rec_line(rec) -> str:
    if "runner_up" in rec:
        lo, hi = rec["diff_ci95"]
        kind = "clearly best" if rec["clear"] else "a close call"
        if "diff_equity" in rec:
            return (f"Recommendation (by game equity): {rec['action']} ({kind}: {100 * rec['diff_equity']:+.2f} "
                    f"percentage points of the chance to win the game over {rec['runner_up']}, "
                    f"95% {100 * lo:+.2f} to {100 * hi:+.2f})")
        return (f"Recommendation: {rec['action']} ({kind}: {rec['diff_points']:+.3f} points over {rec['runner_up']}, "
                f"95% {lo:+.3f} to {hi:+.3f})")
    return f"Recommendation: {rec['action']} (the only legal action)"


def _model_line(r: dict) -> str:
    m = r.get("model") or {}
    if m.get("kind") == "exact":
        return "model of the other players: exact (they call exactly as the strategy would: rejection sampling)"
    return (f"model of the other players: softmax over the strategy's distances, tau {m.get('tau')} tricks, "
            f"tremble epsilon {m.get('epsilon')}; effective sample size {r.get('ess', 0):,.0f}")


def format_advice(r: dict) -> str:
    """The human-readable answer of ``advise``."""
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
    swapped = f"position {r['swapped']} swapped for the ghost" if r.get("swapped") else None
    lines += [
        f"Hand {' '.join(r['hand'])} at position {r['position']} (1 = dealer's left, 3 = dealer); calls so far: {calls}; "
        + (swapped or ("the ghost is still there" if r["swap_open"] else "no swap open")),
        f"{r['samples']:,} sampled deals per action (acceptance {_pct(r['acceptance_rate'])} of {r['draws']:,} drawn), "
        f"strategy {r['strategy']} for everyone afterwards, seed {r['seed']}",
    ]
    if "model" in r:
        lines.append(_model_line(r))
    for row in r.get("inference", []):
        est, rb = row.get("best_estimate"), row.get("right_bower")
        if est is not None:
            said = "what the calls say about" if row.get("called", True) else "no call yet from"
            held = " (the ghost's cards)" if row.get("swapped") else ""
            lines.append(f"  {said} {row['who']}: best trick estimate of the hand held{held} {est:.2f} on average, "
                         f"right bower of that suit {_pct(rb)}")
    if r.get("warning"):
        lines.append(f"warning: {r['warning']}")
    if r.get("compiled"):
        lines.append("(compiled the advice kernel first; cached for later calls)")
    playout = r.get("playout", "strategy")
    head = {"strategy": "strategy play-out", "dd": "double-dummy play-out", "both": "strategy play-out",
            "pimc": "PIMC play-out"}[playout]
    lines += ["", f"{head}:"] + _table(r["actions"], r["recommendation"]["action"])
    lines += ["", _rec_line(r["recommendation"])]
    if playout == "both" and "actions_dd" in r:
        lines += ["", "double-dummy play-out (the contract's tricks with best play by every seat):"]
        lines += _table(r["actions_dd"], r["recommendation_dd"]["action"])
        lines += ["", _rec_line(r["recommendation_dd"]).replace("Recommendation:", "Double-dummy recommendation:")]
    lines.append("'makes' is the chance of making the contract when you win the auction; 'margin' is your points "
                 "minus the mean of the two opponents'.")
    lines += equity_block(r)
    return "\n".join(lines)


def ask(hand: str, question: dict, strategy="default", samples=None, seed: int = 0, threads=None, rules=None) -> dict:
    """``bower should-bid`` for Ghost Hand: ``question`` holds the command's flags (position, calls, swapped, bid,
    scores, model, playout)."""
    if question.get("upcard") is not None:
        raise AdviceError("--upcard is a question of the variants with an up-card (Cutthroat, Euchre), not Ghost Hand")
    return advise(hand, position=question.get("position", 1), calls=question.get("calls"),
                  swapped=question.get("swapped"), bid=question.get("bid"), scores=question.get("scores"),
                  strategy=strategy, samples=samples, seed=seed, threads=threads, rules=rules,
                  model=question.get("model"), playout=question.get("playout") or "strategy",
                  equity=question.get("equity"))
