"""``should-bid --variant hasenpfeffer``: should I bid 4 (or pass, or pepper) at this turn?

The situation is the player's six cards, the position (1 = dealer's left, 4
= dealer) and the calls before the turn. Every legal call is played on the
same sampled deals (``bower.kernels.hasenpfeffer.advice``); points, tricks and the
make chance are the player's side's. Sampling, stopping and the paired
intervals are those of Ghost Hand's advice (``bower.sim.advice``).

The other players' calls weigh each deal under the model of
``bower.kernels.hasenpfeffer.model`` (softmax over the strategy's distances from
its thresholds, with a tremble; ``--model exact`` is the old rejection, on
the old code path, with the old numbers). The inference per other seat: the
weighted mean of its best suit's trick estimate (the strategy's, without the
partner's help) and the chance it holds the joker.
"""

from __future__ import annotations

import time

import numpy as np

from bower.kernels import advice as ka
from bower.kernels.hasenpfeffer import advice as ha
from bower.kernels.hasenpfeffer import hand as hk
from bower.sim import runner
from bower.sim.advice import (
    as_counts,
    CHUNK_SAMPLES,
    DEFAULT_CAP,
    DRAWS_PER_SAMPLE,
    N_INFER,
    N_PLAYOUTS,
    AdviceError,
    ImpossibleAuction,
    _diff,
    _diff_weighted,
    _recommend,
    _recommend_weighted,
    action_stats,
    attach_equity,
    equity_block,
    equity_stop,
    game_equity,
    inference_rows,
    model_fields,
    model_vector,
    playout_bits,
    playout_params,
    recommendation_line,
    run_fields,
    call_chunks,
    sample_actions,
    sample_weighted,
    weighted_action_stats,
)
from bower.sim.cards import card_str, mask_of, parse_cards
from bower.sim.text import number_text
from bower.sim.variants.hasenpfeffer.summary import NUMERIC_NAMES, PEPPER_NAMES

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
        raise AdviceError(f"--position must be 1 to 4 (1 = dealer's left, 4 = dealer), "
                          f"got {number_text(position)}")
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


def _weighted_estimates(actions, acc, ess) -> list[dict]:
    return [{"action": a["action"], **weighted_action_stats(acc[i], "side_bids", ess)} for i, a in enumerate(actions)]


INFERENCE_NAMES = ("best_suit_estimate", "joker")  # per other seat: its best suit's trick estimate, holds the joker
def _who(player: int):
    def label(s: int) -> str:
        roles = (["dealer"] if s + 1 == SEATS else []) + (["your partner"] if s == (player + 2) % SEATS else [])
        return f"position {s + 1}" + (f" ({', '.join(roles)})" if roles else "")
    return label


def advise(hand: str, position: int = 1, calls: str | None = None, bid: str | None = None, strategy="default",
           samples: int | None = None, seed: int = 0, threads: int | None = None, rules: dict | None = None,
           cap: int = DEFAULT_CAP, model: dict | None = None, playout: str | None = "strategy", scores=None,
           equity: dict | None = None) -> dict:
    """Evaluate every legal call for ``hand`` at ``position`` after ``calls``; ``bid`` answers "should I bid it?".

    ``model``: ``{"kind": "softmax"|"exact", "tau", "epsilon"}`` (None: softmax with
    ``bower.sim.advice.DEFAULT_TAU`` and ``DEFAULT_EPSILON``); ``playout``:
    ``strategy``, ``dd`` or ``both``. ``samples`` is the effective sample size
    wanted (exactly the kept deals under the exact model). ``scores`` (your
    side's, the other side's: ``"6,8"``) answers in games won too
    (``bower.sim.advice.game_equity``; ``equity``: the table's ``hands``,
    ``seed``, ``resamples``).
    """
    _v, rules_d, rules_vec = runner.resolve_run("hasenpfeffer", seed, rules)
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
    params = playout_params(params, playout, "hasenpfeffer")
    if samples is not None and samples <= 0:
        raise AdviceError(f"--samples must be a positive integer, got {samples}")
    mvec, mdesc = model_vector(model)
    playout = playout or "strategy"
    bits = playout_bits(playout)
    row = 0 if bits & ka.PLAY_STRATEGY else 1
    game = None if scores is None else game_equity(
        "hasenpfeffer", scores, rules=rules, seat=position - 1, dealer=ha.ADVICE_DEALER, table_args=equity,
        who="your side's score, then the other side's")
    eqt = ka.eqt_arg(game)
    n_threads = runner.set_threads(threads)
    act = np.array([a["call"] for a in actions], np.int64)
    n_act = len(actions)
    prefix = np.array(state["prefix"], np.int64).reshape(-1, 2)
    player = position - 1
    seats = [s for s in range(SEATS) if s != player]
    before = sum(ha.advice_chunks.stats.cache_misses.values())
    t0 = time.perf_counter()

    def kernel_chunks(states, dstates, targets, d, k, w, a, p, m, inf, e, ex):
        call_chunks("bower.kernels.hasenpfeffer.advice:advice_chunks", states, dstates, targets, (
            DRAWS_PER_SAMPLE * CHUNK_SAMPLES, np.int64(mask), player, rules_vec, params, prefix, act, mvec,
            np.int64(bits), hk.search_arg(params), ka.dd_arg(bits), eqt), (d, k, w, a, p, m, inf, e, ex))

    head = {
        "variant": "hasenpfeffer",
        "hand": [card_str(c) for c in range(25) if mask >> c & 1],
        "position": position,
        "calls": [[s + 1, names[c]] for s, c in state["prefix"]],
        "standing": names[state["standing"]],
        "rules": rules_d,
    }
    if mdesc["kind"] == "exact":
        # today's path: the old driver, counters and intervals (the same numbers, bit for bit)
        extra = {"w": np.zeros(2), "a": np.zeros((N_PLAYOUTS, n_act, ka.W_WIDTH)),
                 "p": np.zeros((N_PLAYOUTS, n_act, n_act)), "inf": np.zeros((SEATS, N_INFER)),
                 "e": np.zeros((N_PLAYOUTS, n_act, ka.E_WIDTH)), "ex": np.zeros((N_PLAYOUTS, n_act, n_act))}

        def run_chunks(states, dstates, targets, d, k, a, p, m):
            nc = len(targets)
            w = np.zeros((nc, 2))
            wa = np.zeros((nc, N_PLAYOUTS, n_act, ka.W_WIDTH))
            wp = np.zeros((nc, N_PLAYOUTS, n_act, n_act))
            wm = np.zeros((nc, N_PLAYOUTS, n_act, n_act))
            inf = np.zeros((nc, SEATS, N_INFER))
            we = np.zeros((nc, N_PLAYOUTS, n_act, ka.E_WIDTH))
            wx = np.zeros((nc, N_PLAYOUTS, n_act, n_act))
            kernel_chunks(states, dstates, targets, d, k, w, wa, wp, wm, inf, we, wx)
            a += as_counts(wa[:, row])
            p += np.rint(wp[:, row]).astype(np.int64)
            m += np.rint(wm[:, row]).astype(np.int64)
            for i in range(nc):
                extra["w"] += w[i]
                extra["a"] += wa[i]
                extra["p"] += wp[i]
                extra["inf"] += inf[i]
                extra["e"] += we[i]
                extra["ex"] += wx[i]

        stop = None if game is None else (
            lambda: equity_stop(extra["e"][row], extra["ex"][row], extra["w"][0], extra["w"][0]))
        acc, pxy, _mxy, kept, draws, stopped = sample_actions(
            run_chunks, n_act, samples, cap, seed, name, lambda a, p, m: _estimates(actions, a), stop)
        est = _estimates(actions, acc)
        out = {**head, **run_fields(name, seed, n_threads, kept, draws, stopped, est, _recommend(est, acc, pxy),
                                    False, 0.0)}
        sums = {"ess": float(kept), "kept": kept, "draws": draws, "stopped": stopped}
        wsum, infer, wacc, wpxy = extra["w"], extra["inf"], extra["a"], extra["p"]
        eacc, exy = extra["e"], extra["ex"]
        ess = float(kept)
    else:
        sums = sample_weighted(kernel_chunks, n_act, SEATS, samples, cap, seed,
                               lambda a, p, m, e: _weighted_estimates(actions, a, e), first_row=row,
                               equity=game is not None)
        ess = sums["ess"]
        if sums["kept"] == 0:  # only with epsilon 0: every draw's weight vanished
            raise ImpossibleAuction(f"no deal among {sums['draws']:,} drawn gives those calls a positive weight under "
                                    f"strategy {name} with epsilon 0 (an epsilon above 0 makes every legal auction "
                                    "possible)")
        wsum, infer, wacc, wpxy = sums["wsum"], sums["infer"], sums["acc"], sums["pxy"]
        eacc, exy = sums["eacc"], sums["exy"]
        est = _weighted_estimates(actions, wacc[row], ess)
        acc, pxy = wacc[row], wpxy[row]
        out = {**head, **run_fields(name, seed, n_threads, sums["kept"], sums["draws"], sums["stopped"], est,
                                    _recommend_weighted(est, acc, pxy, ess), False, 0.0)}
    if question is not None:
        i = next(j for j, a in enumerate(actions) if a["call"] == question)
        e = est[i]
        d, ci = _diff(acc, pxy, i, 0) if mdesc["kind"] == "exact" else _diff_weighted(acc, pxy, i, 0, ess)
        verdict = (f"yes: bid {names[question]}, better than passing by {d:+.2f} points a hand" if ci[0] > 0 else
                   f"no: passing is better by {-d:.2f} points a hand" if ci[1] < 0 else
                   f"close call: bidding {names[question]} and passing are within the interval")
        out["question"] = {"bid": names[question], "action": e["action"], "against": est[0]["action"],
                           "make_prob": e["make_prob"], "make_ci95": e["make_ci95"],
                           "expected_points": e["expected_points"], "ev_vs_pass": d, "ev_vs_pass_ci95": ci,
                           "verdict": verdict}
    inference = inference_rows(infer, wsum, seats, INFERENCE_NAMES, _who(player))
    out.update(model_fields(mdesc, sums, playout, inference))
    out["ess"] = ess
    if bits & ka.PLAY_DD:
        dd = _weighted_estimates(actions, wacc[1], ess)
        out["actions_dd"] = dd
        out["recommendation_dd"] = _recommend_weighted(dd, wacc[1], wpxy[1], ess)
    if game is not None:
        attach_equity(out, game, eacc, exy, float(wsum[0]), ess, row)
    out["compiled"] = sum(ha.advice_chunks.stats.cache_misses.values()) > before
    out["elapsed_s"] = time.perf_counter() - t0
    return out


def _table(rows) -> list[str]:
    lines = [(f"{'action':<20} {'side bids':>9} {'make chance':>20} {'tricks':>7} {'points':>8} "
             f"{'(95% interval)':>18} {'margin':>7}")]
    for e in rows:
        mk = "-" if e["make_prob"] is None else f"{100 * e['make_prob']:.1f}% ({100 * e['make_ci95'][0]:.1f}-{100 * e['make_ci95'][1]:.1f})"
        lo, hi = e["points_ci95"]
        lines.append(f"{e['action']:<20} {100 * e['side_bids']:>8.1f}% {mk:>20} {e['mean_tricks']:>7.2f} "
                     f"{e['expected_points']:>+8.3f} {f'({lo:+.3f} to {hi:+.3f})':>18} {e['expected_margin']:>+7.3f}")
    return lines


def format_advice(r: dict) -> str:
    """The human-readable answer: the model and the inference, each call with its side's make chance and points."""
    calls = ", ".join(f"{p}: {c}" for p, c in r["calls"]) or "none"
    m = r.get("model", {"kind": "exact"})
    if m["kind"] == "exact":
        mline = "model: exact (the other players called exactly as the strategy would)"
    else:
        mline = (f"model: softmax over the strategy's preferences, tau {m['tau']:g}, epsilon {m['epsilon']:g} "
                 "(the other players' calls weigh each deal)")
    ess = r.get("ess", r["samples"])
    lines = [
        (f"Hasenpfeffer, position {r['position']} (1 = dealer's left, 4 = dealer), hand {' '.join(r['hand'])}; "
        f"calls before you: {calls}"),
        (f"{r['samples']:,} sampled deals consistent with those calls ({100 * r['acceptance_rate']:.1f}% of "
         f"{r['draws']:,} drawn), strategy {r['strategy']}, seed {r['seed']}" if m["kind"] == "exact" else
         f"{r['samples']:,} sampled deals, each weighted by the chance of the calls before you on its hands "
         f"({100 * r['acceptance_rate']:.1f}% of {r['draws']:,} drawn kept), strategy {r['strategy']}, seed {r['seed']}"),
        f"{mline}; effective sample size {ess:,.0f}; play-out {r.get('playout', 'strategy')}",
    ]
    for row in r.get("inference", []):
        e, j = row[INFERENCE_NAMES[0]], row[INFERENCE_NAMES[1]]
        if e is not None:
            lines.append(f"  {row['who']}: mean trick estimate in its best suit {e:.2f}, holds the joker {100 * j:.0f}%")
    if r.get("warning"):
        lines.append(f"warning: {r['warning']}")
    lines.append("")
    if "question" in r:
        q = r["question"]
        mk = "-" if q["make_prob"] is None else f"{100 * q['make_prob']:.1f}%"
        lines += [f"bid {q['bid']}? {q['verdict']} (your side makes it {mk} of the time it plays the contract)", ""]
    playout = r.get("playout", "strategy")
    if playout != "dd":
        lines += [*(["strategy play-out:"] if playout == "both" else []), *_table(r["actions"]), "",
                  recommendation_line(r["recommendation"])]
    if "actions_dd" in r:
        lines += ["", "double-dummy play-out (the contract with best play by both sides):", *_table(r["actions_dd"]),
                  "", recommendation_line(r["recommendation_dd"])]
    lines += equity_block(r)
    return "\n".join(lines)


def ask(hand: str, question: dict, strategy="default", samples=None, seed: int = 0, threads=None, rules=None) -> dict:
    """``bower should-bid`` for Hasenpfeffer: ``question`` holds the command's flags (position, calls, bid)."""
    if question.get("upcard") is not None:
        raise AdviceError("--upcard is not a Hasenpfeffer question; it takes the hand, --position, --calls, --bid, "
                          "--scores")
    if question.get("swapped") is not None:
        raise AdviceError("--swapped is a Ghost Hand question; Hasenpfeffer has no ghost hand")
    return advise(hand, position=question.get("position", 1), calls=question.get("calls"), bid=question.get("bid"),
                  strategy=strategy, samples=samples, seed=seed, threads=threads, rules=rules,
                  model=question.get("model"), playout=question.get("playout") or "strategy",
                  scores=question.get("scores"), equity=question.get("equity"))
