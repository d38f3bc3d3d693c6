"""``should-bid --variant cutthroat``: should I order it up (assist, take it up, name a suit), alone or not?

The situation is the player's five cards, the up-card, the position and the
passes before the turn (round one: 0 to 2 passes; round two: 3 passes of
round one then 0 to 2). Every open call is played on the same weighted deals
(``bower.kernels.cutthroat.advice``): under the softmax model each deal weighs the
model's probability of the other players' passes (``bower.kernels.cutthroat.model``),
under ``exact`` only the deals on which the strategy passes as they did count
(the old rejection, with the old driver, counters and intervals:
``bower.sim.advice.sample_actions``). The answer adds the model, the play-out, the
effective sample size, what the passes say about each other seat (its mean
trick estimate in the up-card's suit and the chance it holds that suit's right
bower) and, with the double-dummy play-out, ``actions_dd`` and
``recommendation_dd``. With ``--playout dd`` alone, ``actions`` and
``recommendation`` are the double-dummy ones too.
"""

from __future__ import annotations

import time

import numpy as np

from bower.kernels import advice as ka
from bower.kernels.cutthroat import advice as ca
from bower.kernels.cutthroat import hand as ck
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
from bower.sim.cards import SUITS, card_str, mask_of, parse_card, parse_cards
from bower.sim.text import number_text

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
        raise AdviceError(f"--position must be 1, 2 or 3 (1 = dealer's left, 3 = dealer), "
                          f"got {number_text(position)}")
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


def _weighted_estimates(actions, acc, ess) -> list[dict]:
    return [{"action": a["action"], "alone": a["alone"] == 1, **weighted_action_stats(acc[i], "maker_share", ess)}
            for i, a in enumerate(actions)]


INFERENCE_NAMES = ("up_suit_estimate", "right_bower")  # per other seat: what the passes say about its hand
def _who(position: int):
    def label(s: int) -> str:
        p = s + 1
        return f"position {p}" + (" (dealer)" if p == 3 else "")
    return label


def advise(hand: str, upcard: str | None, position: int = 1, calls: str | None = None, strategy="default",
           samples: int | None = None, seed: int = 0, threads: int | None = None, rules: dict | None = None,
           cap: int = DEFAULT_CAP, model: dict | None = None, playout: str | None = "strategy", scores=None,
           equity: dict | None = None) -> dict:
    """Evaluate every open call for ``hand`` at ``position`` with ``upcard`` turned, after ``calls`` (passes).

    ``model``: ``{"kind": "softmax"|"exact", "tau", "epsilon"}`` (None: softmax with
    ``bower.sim.advice.DEFAULT_TAU`` and ``DEFAULT_EPSILON``); ``playout``:
    ``strategy``, ``dd`` or ``both``. ``samples`` is the effective sample size
    wanted (exactly the kept deals under the exact model). ``scores`` (by
    position: ``"6,8,3"``) answers in games won too
    (``bower.sim.advice.game_equity``; ``equity``: the table's ``hands``,
    ``seed``, ``resamples``).
    """
    v, rules_d, rules_vec = runner.resolve_run("cutthroat", seed, rules)
    sit = parse_situation(hand, upcard, position, calls)
    actions = open_actions(sit, rules_d, position)
    name, params = runner.seat_params(strategy, "cutthroat")
    params = playout_params(params, playout, "cutthroat")
    if samples is not None and samples <= 0:
        raise AdviceError(f"--samples must be a positive integer, got {samples}")
    mvec, mdesc = model_vector(model)
    playout = playout or "strategy"
    bits = playout_bits(playout)
    game = None if scores is None else game_equity(
        "cutthroat", scores, rules=rules, seat=position - 1, dealer=ca.ADVICE_DEALER, table_args=equity,
        who="by position, 1 to 3")
    eqt = ka.eqt_arg(game)
    n_threads = runner.set_threads(threads)
    act = np.array([[a["call"], a["alone"]] for a in actions], np.int64)
    n_act = len(actions)
    before = sum(ca.advice_chunks.stats.cache_misses.values())
    t0 = time.perf_counter()
    seats = [s for s in range(ck.N_SEATS) if s != position - 1]

    def kernel_chunks(states, dstates, targets, d, k, w, a, p, m, inf, e, ex):
        call_chunks("bower.kernels.cutthroat.advice:advice_chunks", states, dstates, targets, (
            DRAWS_PER_SAMPLE * CHUNK_SAMPLES, np.int64(sit["mask"]), np.int64(sit["up"]), position - 1, rules_vec,
            params, sit["passes"], act, mvec, np.int64(bits), ck.search_arg(params), ka.dd_arg(bits), eqt),
            (d, k, w, a, p, m, inf, e, ex))

    head = {
        "variant": "cutthroat",
        "hand": [card_str(c) for c in range(24) if sit["mask"] >> c & 1],
        "upcard": card_str(sit["up"]),
        "position": position,
        "round": sit["round"],
        "passes_before": sit["passes"],
        "rules": rules_d,
    }
    if mdesc["kind"] == "exact":
        # today's path: the old driver, counters and intervals (the same numbers, bit for bit)
        extra = {"w": np.zeros(2), "a": np.zeros((N_PLAYOUTS, n_act, ka.W_WIDTH)),
                 "p": np.zeros((N_PLAYOUTS, n_act, n_act)), "m": np.zeros((N_PLAYOUTS, n_act, n_act)),
                 "inf": np.zeros((ck.N_SEATS, N_INFER)),
                 "e": np.zeros((N_PLAYOUTS, n_act, ka.E_WIDTH)), "ex": np.zeros((N_PLAYOUTS, n_act, n_act))}
        row = 0 if bits & ka.PLAY_STRATEGY else 1

        def run_chunks(states, dstates, targets, d, k, a, p, m):
            nc = len(targets)
            w = np.zeros((nc, 2))
            wa = np.zeros((nc, N_PLAYOUTS, n_act, ka.W_WIDTH))
            wp = np.zeros((nc, N_PLAYOUTS, n_act, n_act))
            wm = np.zeros((nc, N_PLAYOUTS, n_act, n_act))
            inf = np.zeros((nc, ck.N_SEATS, N_INFER))
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
                extra["m"] += wm[i]
                extra["inf"] += inf[i]
                extra["e"] += we[i]
                extra["ex"] += wx[i]

        stop = None if game is None else (
            lambda: equity_stop(extra["e"][row], extra["ex"][row], extra["w"][0], extra["w"][0]))
        acc, pxy, mxy, kept, draws, stopped = sample_actions(
            run_chunks, n_act, samples, cap, seed, name, lambda a, p, m: _estimates(actions, a), stop)
        est = _estimates(actions, acc)
        out = {**head, **run_fields(name, seed, n_threads, kept, draws, stopped, est, _recommend(est, acc, pxy),
                                    False, 0.0)}
        sums = {"ess": float(kept), "kept": kept, "draws": draws, "stopped": stopped}
        wsum, infer, wacc, wpxy = extra["w"], extra["inf"], extra["a"], extra["p"]
        eacc, exy = extra["e"], extra["ex"]
        ess = float(kept)
    else:
        sums = sample_weighted(kernel_chunks, n_act, ck.N_SEATS, samples, cap, seed,
                               lambda a, p, m, e: _weighted_estimates(actions, a, e),
                               first_row=0 if bits & ka.PLAY_STRATEGY else 1, equity=game is not None)
        ess = sums["ess"]
        if sums["kept"] == 0:
            raise ImpossibleAuction(f"no deal among {sums['draws']:,} drawn gives those calls a positive weight under "
                                    f"strategy {name} (the random seats' calls did not come up)")
        wsum, infer, wacc, wpxy = sums["wsum"], sums["infer"], sums["acc"], sums["pxy"]
        eacc, exy = sums["eacc"], sums["exy"]
        row = 0 if bits & ka.PLAY_STRATEGY else 1
        est = _weighted_estimates(actions, wacc[row], ess)
        out = {**head, **run_fields(name, seed, n_threads, sums["kept"], sums["draws"], sums["stopped"], est,
                                    _recommend_weighted(est, wacc[row], wpxy[row], ess), False, 0.0)}
    inference = inference_rows(infer, wsum, seats, INFERENCE_NAMES, _who(position))
    out.update(model_fields(mdesc, sums, playout, inference))
    out["ess"] = ess
    if bits & ka.PLAY_DD:
        dd = _weighted_estimates(actions, wacc[1], ess)
        out["actions_dd"] = dd
        out["recommendation_dd"] = _recommend_weighted(dd, wacc[1], wpxy[1], ess)
    if game is not None:
        attach_equity(out, game, eacc, exy, float(wsum[0]), ess, row)
    out["compiled"] = sum(ca.advice_chunks.stats.cache_misses.values()) > before
    out["elapsed_s"] = time.perf_counter() - t0
    return out


def _table(rows) -> list[str]:
    lines = [f"{'action':<28} {'maker':>7} {'make chance':>20} {'tricks':>7} {'points':>8} {'(95% interval)':>18} "
             f"{'margin':>7}"]
    for e in rows:
        mk = "-" if e["make_prob"] is None else f"{100 * e['make_prob']:.1f}% ({100 * e['make_ci95'][0]:.1f}-{100 * e['make_ci95'][1]:.1f})"
        lo, hi = e["points_ci95"]
        lines.append(
            f"{e['action']:<28} {100 * e['maker_share']:>6.1f}% {mk:>20} {e['mean_tricks']:>7.2f} "
            f"{e['expected_points']:>+8.3f} {f'({lo:+.3f} to {hi:+.3f})':>18} {e['expected_margin']:>+7.3f}"
        )
    return lines


def format_advice(r: dict) -> str:
    """The human-readable answer: the model, each call with its make chance and expected points, the recommendation."""
    m = r.get("model", {"kind": "exact"})
    if m["kind"] == "exact":
        mline = "model: exact (the other players called exactly as the strategy would)"
    else:
        mline = (f"model: softmax over the strategy's preferences, tau {m['tau']:g}, epsilon {m['epsilon']:g} "
                 "(the other players' calls weigh each deal)")
    ess = r.get("ess", r["samples"])
    lines = [
        f"Cutthroat, position {r['position']} (1 = dealer's left, 3 = dealer), round {r['round']}, "
        f"up-card {r['upcard']}, hand {' '.join(r['hand'])}",
        (f"{r['samples']:,} sampled deals consistent with {r['passes_before']} pass(es) before your turn "
         f"({100 * r['acceptance_rate']:.1f}% of {r['draws']:,} drawn), strategy {r['strategy']}, seed {r['seed']}"
         if m["kind"] == "exact" else
         f"{r['samples']:,} weighted deals played for {r['passes_before']} pass(es) before your turn "
         f"({100 * r['acceptance_rate']:.1f}% of {r['draws']:,} drawn; the lightest go through Russian roulette), "
         f"strategy {r['strategy']}, seed {r['seed']}"),
        f"{mline}; effective sample size {ess:,.0f}; play-out {r.get('playout', 'strategy')}",
    ]
    for row in r.get("inference", []):
        e, b = row["up_suit_estimate"], row["right_bower"]
        if e is not None:
            lines.append(f"  {row['who']}: mean trick estimate in the up-card's suit {e:.2f}, "
                         f"holds its right bower {100 * b:.0f}%")
    if r.get("warning"):
        lines.append(f"warning: {r['warning']}")
    playout = r.get("playout", "strategy")
    if playout != "dd":
        lines += ["", *(["strategy play-out:"] if playout == "both" else []), *_table(r["actions"]), "",
                  recommendation_line(r["recommendation"], " (the only call open)")]
    if "actions_dd" in r:
        lines += ["", "double-dummy play-out (the contract with best play by both sides):", *_table(r["actions_dd"]),
                  "", recommendation_line(r["recommendation_dd"], " (the only call open)")]
    lines += equity_block(r)
    return "\n".join(lines)


def ask(hand: str, question: dict, strategy="default", samples=None, seed: int = 0, threads=None, rules=None) -> dict:
    """``bower should-bid`` for Cutthroat: ``question`` holds the command's flags (upcard, position, calls)."""
    if question.get("bid") is not None:
        raise AdviceError("--bid is a Ghost Hand question; Cutthroat takes the hand, --upcard, --position, --calls, "
                          "--scores")
    if question.get("swapped") is not None:
        raise AdviceError("--swapped is a Ghost Hand question; Cutthroat has no ghost hand")
    return advise(hand, question.get("upcard"), position=question.get("position", 1), calls=question.get("calls"),
                  strategy=strategy, samples=samples, seed=seed, threads=threads, rules=rules,
                  model=question.get("model"), playout=question.get("playout") or "strategy",
                  scores=question.get("scores"), equity=question.get("equity"))
