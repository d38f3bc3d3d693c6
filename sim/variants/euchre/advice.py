"""``should-bid --variant euchre``: should I order it up (or take it up, or name a suit), and should I go alone?

The situation is the player's five cards, the up-card, the position (1 =
dealer's left, 4 = dealer) and the passes before the turn (round one: 0 to 3
passes; round two: the 4 passes of round one, then 0 to 3). Every open call
is played on the same deals (``bower.kernels.euchre.advice``): the other 18 cards
dealt uniformly at random, each deal weighted by the model of the other
players (``bower.kernels.euchre.model``: under ``softmax``, the product of the
model's probabilities of their passes; under ``exact``, 1 when the strategy,
playing the other seats, passes at each of those calls, else 0, which is the
old rejection sampling, answered exactly as before). Tricks and the make chance are the
player's side's; ``expected_points`` are *net*: the side's points less the
other side's (only one side scores a hand, so a euchre counts -2), which the
recommendation and the adaptive stop maximise; ``side_points`` are the
side's own points alone. Sampling, stopping and the paired intervals are
those of ``bower.sim.advice`` (weighted, with intervals at the effective sample size,
under ``softmax``). The play-out is the strategy's (``actions``) and/or the
double-dummy value of the same contract (``actions_dd``). The inference
reports, per other seat, the weighted mean of its trick estimate of the
up-card's suit (``up_suit_estimate``) and the chance it holds that suit's
right bower (``right_bower``). ``--bid`` asks one call first: ``order`` (or ``take``),
``alone`` (order alone), a suit letter (name it), ``H alone``.
"""

from __future__ import annotations

import time

import numpy as np

from bower.analysis.intervals import mean_interval
from bower.kernels import advice as ka
from bower.kernels.euchre import advice as ea
from bower.kernels.euchre import hand as ek
from bower.kernels.euchre.codes import E_FARMERS, E_GO_UNDER
from bower.sim import runner
from bower.sim.advice import (
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
    _wmean_ci,
    action_stats,
    attach_equity,
    equity_lines,
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

SEATS = 4
SUIT_WORDS = {"c": 0, "clubs": 0, "s": 1, "spades": 1, "d": 2, "diamonds": 2, "h": 3, "hearts": 3}
INFER_NAMES = ("up_suit_estimate", "right_bower")  # kernels.euchre.model.deal_features
ORDER_WORDS = {"order", "order up", "order it up", "take", "take it up", "pick up", "pick it up", "up"}


def parse_situation(hand: str, upcard: str | None, position: int, calls: str | None, rules: dict) -> dict:
    """Check the hand, up-card, position and calls: (mask, up, round, passes before the turn)."""
    cards = parse_cards(hand, allow_joker=False)
    if len(cards) != 5:
        raise AdviceError(f"a Euchre hand has 5 cards, got {len(cards)}")
    if upcard is None:
        raise AdviceError("--upcard is needed for Euchre (the kitty's turned card, e.g. --upcard JS)")
    up = parse_card(upcard.strip())
    if up == 24:
        raise AdviceError("the up-card cannot be the joker (Euchre has none)")
    if up in cards:
        raise AdviceError(f"the up-card {card_str(up)} is also in the hand")
    if position not in (1, 2, 3, 4):
        raise AdviceError(f"--position must be 1 to 4 (1 = dealer's left, 4 = dealer), "
                          f"got {number_text(position)}")
    seq = [] if calls is None or not calls.strip() else [
        c.strip().lower() for c in calls.replace(" ", ",").split(",") if c.strip()]
    for i, c in enumerate(seq):
        if c not in ("pass", "p"):
            raise AdviceError(f"call {i + 1} ({c!r}): any call but pass ends the Euchre auction, so no one "
                              "would have a turn after it; give the passes before your turn")
    n = len(seq)
    if n >= 2 * SEATS:
        raise AdviceError(f"{n} passes: eight passes throw the hand in, so no one has a turn"
                          + (" (and under stick_the_dealer the dealer cannot pass the eighth)"
                             if rules["stick_the_dealer"] else ""))
    turn = n % SEATS + 1
    if turn != position:
        raise AdviceError(f"after {n} passes it is position {turn}'s turn, not position {position}'s")
    return {"mask": mask_of(cards), "up": up, "round": 1 if n < SEATS else 2, "passes": n}


def _forced_alone(sit: dict, rules: dict, position: int) -> bool:
    """Rule ``canadian``: the dealer's partner (position 2) who orders the up-card up in round one plays alone."""
    return bool(rules.get("canadian")) and position == 2 and sit["round"] == 1


def open_actions(sit: dict, rules: dict, position: int) -> list[dict]:
    """The calls open at the turn (``bower.kernels.euchre.advice.open_actions``) with their names; under
    ``canadian`` the dealer's partner has no round-one order with its partner (it plays alone)."""
    rows = ea.open_actions(sit["passes"], sit["up"], bool(rules["stick_the_dealer"]))
    word = "take it up" if position == 4 else "order it up"
    out = []
    for code, alone in rows.tolist():
        if code == ek.CALL_ORDER and alone == 0 and _forced_alone(sit, rules, position):
            continue
        if code == ek.CALL_PASS:
            name = "pass"
        else:
            base = word if code == ek.CALL_ORDER else f"name {SUITS[code - ek.CALL_SUIT]}"
            name = f"{base}, alone" if alone == 1 else f"{base}, with partner"
        out.append({"action": name, "call": int(code), "alone": int(alone)})
    return out


def parse_bid(text: str, sit: dict) -> tuple[int, int]:
    """(call code, alone 0/1) of a ``--bid`` question at this turn; AdviceError if it is not a call open here."""
    t = " ".join(text.strip().lower().replace(",", " ").replace("-", " ").split())
    alone = 0
    if t == "alone":
        if sit["round"] == 2:
            raise AdviceError("--bid alone: in round two say which suit, e.g. --bid 'H alone'")
        return ek.CALL_ORDER, 1
    if t.endswith(" alone"):
        t, alone = t[: -len(" alone")].strip(), 1
    if t.startswith("name "):
        t = t[len("name "):].strip()
    u = sit["up"] // 6
    if t in ORDER_WORDS or (sit["round"] == 1 and SUIT_WORDS.get(t) == u):
        if sit["round"] == 2:
            raise AdviceError(f"--bid {text}: the up-card was turned down in round one; name a suit "
                              f"(not {SUITS[u]}), e.g. --bid {SUITS[u ^ 1]}")
        return ek.CALL_ORDER, alone
    if t in SUIT_WORDS:
        s = SUIT_WORDS[t]
        if sit["round"] == 1:
            raise AdviceError(f"--bid {text}: in round one the only call is ordering up the up-card's suit "
                              f"{SUITS[u]} (--bid order or --bid alone)")
        if s == u:
            raise AdviceError(f"--bid {text}: {SUITS[u]} was turned down and cannot be named in round two")
        return ek.CALL_SUIT + s, alone
    raise AdviceError(f"--bid {text!r}: ask order, alone, a suit letter C S D H, or a suit with alone (e.g. 'H alone')")


def _estimates(actions, acc, gross=None) -> list[dict]:
    """Per-action estimates (``acc`` holds net points, see ``_net``); ``gross``: the side's own points, sums and squares."""
    out = []
    for i, a in enumerate(actions):
        e = {"action": a["action"], "alone": a["alone"] == 1, **action_stats(acc[i], "side_maker")}
        if gross is not None:
            m, lo, hi = mean_interval(int(gross[i, 0]), int(gross[i, 1]), int(acc[i, ka.A_N]))
            e["side_points"], e["side_points_ci95"] = m, [lo, hi]
        out.append(e)
    return out


def _estimates_weighted(actions, acc, ess, kept, gross=None) -> list[dict]:
    """Per-action weighted estimates (``acc``: one play-out row of ``W_*`` counters holding net points, see
    ``_net_weighted``); ``gross``: the side's own points, weighted sums and squares."""
    out = []
    for i, a in enumerate(actions):
        e = {"action": a["action"], "alone": a["alone"] == 1, "samples": kept,
             **weighted_action_stats(acc[i], "side_maker", ess)}
        if gross is not None:
            m, ci = _wmean_ci(float(acc[i, ka.W_N]), gross[i, 0], gross[i, 1], ess)
            e["side_points"], e["side_points_ci95"] = m, ci
        out.append(e)
    return out


def _net(a: np.ndarray, p: np.ndarray, m: np.ndarray, gross: np.ndarray) -> None:
    """Turn a batch's counters to net points in place: A_PTS from the doubled margins, the products likewise.

    The margin is the side's points less the other side's, which in Euchre is
    the hand's net score for the side; the kernel keeps it doubled, so the
    halved sums (and quartered squares and products) are exact. The side's
    own points are added to ``gross`` (action, [sum, sum of squares]) first.
    """
    gross[:, 0] += a[:, :, ka.A_PTS].sum(axis=0)
    gross[:, 1] += a[:, :, ka.A_PTS_SQ].sum(axis=0)
    a[:, :, ka.A_PTS] = a[:, :, ka.A_MAR] // 2
    a[:, :, ka.A_PTS_SQ] = a[:, :, ka.A_MAR_SQ] // 4
    p[:] = m // 4


def _net_weighted(a: np.ndarray, p: np.ndarray, m: np.ndarray, gross: np.ndarray) -> None:
    """``_net`` for a batch of weighted counters (chunk, row, action, W_*): halving and quartering are exact in
    floating point. ``gross`` (row, action, [sum, sum of squares]) gets the side's own points, chunk by chunk."""
    for c in range(a.shape[0]):
        gross[:, :, 0] += a[c, :, :, ka.W_PTS]
        gross[:, :, 1] += a[c, :, :, ka.W_PTS_SQ]
    a[:, :, :, ka.W_PTS] = a[:, :, :, ka.W_MAR] / 2
    a[:, :, :, ka.W_PTS_SQ] = a[:, :, :, ka.W_MAR_SQ] / 4
    p[:] = m / 4


# the weighted counters (W_*) that are today's integer counters (A_*), row for row, under the exact model
_A_OF_W = [(ka.A_N, ka.W_N), (ka.A_MAKER, ka.W_MAKER), (ka.A_MADE, ka.W_MADE), (ka.A_TRICKS, ka.W_TRICKS),
           (ka.A_TRICKS_SQ, ka.W_TRICKS_SQ), (ka.A_PTS, ka.W_PTS), (ka.A_PTS_SQ, ka.W_PTS_SQ), (ka.A_MAR, ka.W_MAR),
           (ka.A_MAR_SQ, ka.W_MAR_SQ)]


def _question(actions, est, diff, call: int, alone: int) -> dict:
    """The answer to ``--bid``: the call against its alternative (a call with partner: passing, or for a stuck
    dealer the best other call; a call alone: the same call with partner). ``diff(i, j)``: the paired difference."""
    i = next(j for j, a in enumerate(actions) if a["call"] == call and a["alone"] == alone)
    partner = [k for k, a in enumerate(actions) if a["call"] == call and a["alone"] == 0]
    if alone == 1 and partner:
        j = partner[0]
    elif actions[0]["call"] == ek.CALL_PASS:
        j = 0
    else:
        j = max((k for k in range(len(actions)) if k != i), key=lambda k: est[k]["expected_points"])
    d, ci = diff(i, j)
    asked, other = actions[i]["action"], actions[j]["action"]
    if ci[0] > 0:
        verdict = f"yes: {asked} is better than {other} by {d:+.3f} points a hand"
    elif ci[1] < 0:
        verdict = f"no: {other} is better by {-d:.3f} points a hand"
    else:
        verdict = f"close call: {asked} and {other} are within the interval of each other"
    e = est[i]
    return {"action": asked, "against": other, "make_prob": e["make_prob"], "make_ci95": e["make_ci95"],
            "expected_points": e["expected_points"], "ev_diff": d, "ev_diff_ci95": ci, "verdict": verdict}


def _who(player: int):
    """Seat label for the inference lines, relative to the player (dealer in seat 3: position = seat + 1)."""
    return lambda s: f"position {s + 1} ({'partner' if (s - player) % 2 == 0 else 'opponent'}" + (
        ", dealer)" if s == ea.ADVICE_DEALER else ")")


def advise(hand: str, upcard: str | None, position: int = 1, calls: str | None = None, strategy="default",
           samples: int | None = None, seed: int = 0, threads: int | None = None, rules: dict | None = None,
           cap: int = DEFAULT_CAP, bid: str | None = None, model: dict | None = None,
           playout: str | None = "strategy", scores=None, equity: dict | None = None) -> dict:
    """Evaluate every open call for ``hand`` at ``position`` with ``upcard`` turned, after ``calls`` (passes).

    ``bid`` (``order``, ``alone``, a suit letter, ``H alone``) also answers
    "should I make this call?" against its alternative. ``model``:
    ``{"kind": "softmax"|"exact", "tau", "epsilon"}`` (None: softmax with the
    defaults of ``bower.sim.advice``); ``playout``: ``strategy``, ``dd`` or
    ``both``. ``samples`` is the effective sample size wanted (under
    ``exact``, the kept deals, as before). ``scores`` (your side's, the other
    side's: ``"8,9"``) answers in games won too (``bower.sim.advice.game_equity``;
    ``equity``: the equity table's ``hands``, ``seed``, ``resamples``).
    """
    _, rules_d, rules_vec = runner.resolve_run("euchre", seed, rules)
    if rules_d.get("farmers") or rules_d.get("go_under"):  # the hand given is the one held at the call: the
        rules_vec = rules_vec.copy()  # sampled deals play no exchange with the kitty (the note says so)
        rules_vec[E_FARMERS] = rules_vec[E_GO_UNDER] = 0
    sit = parse_situation(hand, upcard, position, calls, rules_d)
    actions = open_actions(sit, rules_d, position)
    mvec, mdesc = model_vector(model)
    playout = playout or "strategy"
    bits = playout_bits(playout)
    question = None
    if bid is not None:
        question = parse_bid(bid, sit)
        if question[0] == ek.CALL_ORDER and _forced_alone(sit, rules_d, position):
            question = (ek.CALL_ORDER, 1)  # canadian: ordering up is going alone
        if not any(a["call"] == question[0] and a["alone"] == question[1] for a in actions):
            raise AdviceError(f"--bid {bid}: not a call open at this turn")
    name, params = runner.seat_params(strategy, "euchre")
    params = playout_params(params, playout, "euchre")
    if samples is not None and samples <= 0:
        raise AdviceError(f"--samples must be a positive integer, got {samples}")
    player = position - 1
    game = None if scores is None else game_equity(
        "euchre", scores, rules=rules, seat=player, dealer=ea.ADVICE_DEALER, table_args=equity,
        who="your side's score, then the other side's")
    eqt = ka.eqt_arg(game)
    n_threads = runner.set_threads(threads)
    act = np.array([[a["call"], a["alone"]] for a in actions], np.int64)
    n_act = len(actions)
    before = sum(ea.advice_chunks.stats.cache_misses.values())
    t0 = time.perf_counter()
    exact = mdesc["kind"] == "exact"
    args = (np.int64(sit["mask"]), np.int64(sit["up"]), np.int64(player), rules_vec, params, np.int64(sit["passes"]),
            act, mvec)
    search = ek.search_arg(params)  # None: the play-outs compile no search code
    budget = DRAWS_PER_SAMPLE * CHUNK_SAMPLES
    head = {
        "variant": "euchre",
        "hand": [card_str(c) for c in range(24) if sit["mask"] >> c & 1],
        "upcard": card_str(sit["up"]),
        "position": position,
        "round": sit["round"],
        "passes_before": sit["passes"],
        "rules": rules_d,
    }
    others = [s for s in range(SEATS) if s != player]
    if exact:
        # today's code path: integer counters, sample_actions' batches and stop, the strategy play-out always
        gross = np.zeros((n_act, 2), np.int64)
        side = {"wsum": np.zeros(2), "infer": np.zeros((SEATS, N_INFER)), "dd": np.zeros((n_act, ka.W_WIDTH)),
                "dd_p": np.zeros((n_act, n_act)), "dd_m": np.zeros((n_act, n_act)), "dd_gross": np.zeros((n_act, 2)),
                "eacc": np.zeros((N_PLAYOUTS, n_act, ka.E_WIDTH)), "exy": np.zeros((N_PLAYOUTS, n_act, n_act))}

        def run_chunks(states, dstates, targets, d, k, a, p, m):
            nc = len(targets)
            w = np.zeros((nc, 2))
            fa = np.zeros((nc, N_PLAYOUTS, n_act, ka.W_WIDTH))
            fp = np.zeros((nc, N_PLAYOUTS, n_act, n_act))
            fm = np.zeros((nc, N_PLAYOUTS, n_act, n_act))
            inf = np.zeros((nc, SEATS, N_INFER))
            fe = np.zeros((nc, N_PLAYOUTS, n_act, ka.E_WIDTH))
            fx = np.zeros((nc, N_PLAYOUTS, n_act, n_act))
            call_chunks("bower.kernels.euchre.advice:advice_chunks", states, dstates, targets,
                        (budget, *args, np.int64(bits | ka.PLAY_STRATEGY), search, ka.dd_arg(bits), eqt),
                        (d, k, w, fa, fp, fm, inf, fe, fx))
            for ai, wi in _A_OF_W:
                a[:, :, ai] = fa[:, 0, :, wi].astype(np.int64)
            p[:] = fp[:, 0].astype(np.int64)
            m[:] = fm[:, 0].astype(np.int64)
            _net(a, p, m, gross)
            if bits & ka.PLAY_DD:
                g = np.zeros((1, n_act, 2))
                _net_weighted(fa[:, 1:], fp[:, 1:], fm[:, 1:], g)
                side["dd_gross"] += g[0]
            for c in range(nc):
                side["wsum"] += w[c]
                side["infer"] += inf[c]
                side["dd"] += fa[c, 1]
                side["dd_p"] += fp[c, 1]
                side["dd_m"] += fm[c, 1]
                side["eacc"] += fe[c]
                side["exy"] += fx[c]

        stop = None if game is None else (
            lambda: equity_stop(side["eacc"][0], side["exy"][0], side["wsum"][0], side["wsum"][0]))
        acc, pxy, _, kept, draws, stopped = sample_actions(
            run_chunks, n_act, samples, cap, seed, name, lambda a, p, m: _estimates(actions, a), stop)
        est = _estimates(actions, acc, gross)
        result = {**head, **run_fields(name, seed, n_threads, kept, draws, stopped, est, _recommend(est, acc, pxy),
                                       sum(ea.advice_chunks.stats.cache_misses.values()) > before,
                                       time.perf_counter() - t0)}
        ess = float(kept)
        inference = inference_rows(side["infer"], side["wsum"], others, INFER_NAMES, _who(player))
        result.update({"model": mdesc, "playout": playout, "ess": ess, "inference": inference})
        if question is not None:
            result["question"] = _question(actions, est, lambda i, j: _diff(acc, pxy, i, j), *question)
        if bits & ka.PLAY_DD:
            est_dd = _estimates_weighted(actions, side["dd"], ess, kept, side["dd_gross"])
            result["actions_dd"] = est_dd
            result["recommendation_dd"] = _recommend_weighted(est_dd, side["dd"], side["dd_p"], ess)
        if game is not None:
            attach_equity(result, game, side["eacc"], side["exy"], float(side["wsum"][0]), ess, 0)
        return result

    gross = np.zeros((N_PLAYOUTS, n_act, 2))
    first_row = 0 if bits & ka.PLAY_STRATEGY else 1

    def run_weighted(states, dstates, targets, d, k, w, a, p, m, inf, e, ex):
        call_chunks("bower.kernels.euchre.advice:advice_chunks", states, dstates, targets,
                    (budget, *args, np.int64(bits), search, ka.dd_arg(bits), eqt), (d, k, w, a, p, m, inf, e, ex))
        _net_weighted(a, p, m, gross)

    sums = sample_weighted(run_weighted, n_act, SEATS, samples, cap, seed,
                           lambda a, p, m, e: _estimates_weighted(actions, a, e, 0), first_row, equity=game is not None)
    if sums["kept"] == 0:
        raise ImpossibleAuction(
            f"no deal among {sums['draws']:,} drawn has positive weight under the model (epsilon "
            f"{mdesc['epsilon']}, tau {mdesc['tau']}): the model finds this auction impossible; use epsilon > 0")
    ess, kept = sums["ess"], sums["kept"]
    rows = {}
    for r in (0, 1):
        if bits & (ka.PLAY_STRATEGY if r == 0 else ka.PLAY_DD):
            est_r = _estimates_weighted(actions, sums["acc"][r], ess, kept, gross[r])
            rows[r] = (est_r, _recommend_weighted(est_r, sums["acc"][r], sums["pxy"][r], ess))
    est, rec = rows[first_row]
    inference = inference_rows(sums["infer"], sums["wsum"], others, INFER_NAMES, _who(player))
    result = {**head, **run_fields(name, seed, n_threads, kept, sums["draws"], sums["stopped"], est, rec,
                                   sum(ea.advice_chunks.stats.cache_misses.values()) > before,
                                   time.perf_counter() - t0)}
    result.update(model_fields(mdesc, sums, playout, inference))
    if 1 in rows:
        result["actions_dd"], result["recommendation_dd"] = rows[1]
    if question is not None:
        acc_r, pxy_r = sums["acc"][first_row], sums["pxy"][first_row]
        result["question"] = _question(actions, est, lambda i, j: _diff_weighted(acc_r, pxy_r, i, j, ess), *question)
    if game is not None:
        attach_equity(result, game, sums["eacc"], sums["exy"], float(sums["wsum"][0]), ess, first_row)
    return result


def format_advice(r: dict) -> str:
    """The human-readable answer: each call with its side's make chance and expected points, and the recommendation."""
    lines = [(f"Standard Euchre, position {r['position']} (1 = dealer's left, 4 = dealer), round {r['round']}, "
             f"up-card {r['upcard']}, hand {' '.join(r['hand'])}")]
    m = r.get("model") or {"kind": "exact"}
    if m["kind"] == "exact":
        lines.append(f"{r['samples']:,} sampled deals consistent with {r['passes_before']} pass(es) before your turn "
                     f"({100 * r['acceptance_rate']:.1f}% of {r['draws']:,} drawn), strategy {r['strategy']}, "
                     f"seed {r['seed']}")
        lines.append("model: exact (the other players call exactly as the strategy would; rejection sampling)")
    else:
        lines.append(f"{r['samples']:,} deals weighted by the model of the {r['passes_before']} pass(es) before your "
                     f"turn (of {r['draws']:,} drawn), effective sample size {r['ess']:,.0f}, strategy "
                     f"{r['strategy']}, seed {r['seed']}")
        lines.append(f"model: softmax, tau {m['tau']:g} (tricks), epsilon {m['epsilon']:g}: each other player passes "
                     "with the strategy's probability, softened by tau, with a tremble epsilon")
    if r.get("bot"):
        lines.append(f"play-out: the bot {r['bot']} at every seat after your call (the deals weighed by the "
                     f"{r['model_strategy']} strategy's model)")
    else:
        lines.append(f"play-out: {r.get('playout', 'strategy')}")
    for row in r.get("inference") or []:
        if row["up_suit_estimate"] is None:
            continue
        lines.append(f"  {row['who']}: trick estimate in the up-card's suit {row['up_suit_estimate']:.2f}, holds "
                     f"its right bower {100 * row['right_bower']:.1f}%")
    if r.get("warning"):
        lines.append(f"warning: {r['warning']}")
    lines.append("")
    if "question" in r:
        q = r["question"]
        mk = "" if q["make_prob"] is None else f" (your side makes it {100 * q['make_prob']:.1f}% of the time)"
        lines += [f"{q['action']}? {q['verdict']}{mk}", ""]
    tables = [("actions", "recommendation", None)]
    if "actions_dd" in r:
        if r.get("playout") == "dd":
            tables = [("actions_dd", "recommendation_dd", "double-dummy play-out")]
        else:
            tables = [("actions", "recommendation", "strategy play-out"),
                      ("actions_dd", "recommendation_dd", "double-dummy play-out")]
    for key, rkey, title in tables:
        if title:
            lines.append(f"{title}:")
        lines.append(f"{'action':<26} {'side makes':>10} {'make chance':>20} {'tricks':>7} {'side pts':>8} "
                     f"{'net points':>10} {'(95% interval)':>18}")
        for e in r[key]:
            mk = "-" if e["make_prob"] is None else (
                f"{100 * e['make_prob']:.1f}% ({100 * e['make_ci95'][0]:.1f}-{100 * e['make_ci95'][1]:.1f})")
            lo, hi = e["points_ci95"]
            lines.append(
                f"{e['action']:<26} {100 * e['side_maker']:>9.1f}% {mk:>20} {e['mean_tricks']:>7.2f} "
                f"{e['side_points']:>8.3f} {e['expected_points']:>+10.3f} {f'({lo:+.3f} to {hi:+.3f})':>18}"
            )
        lines += ["", recommendation_line(r[rkey], " (the only call open)"), ""]
        if r.get("game"):
            lines += equity_lines(r, key) + [""]
    rules = r.get("rules") or {}
    lone = int(rules.get("loner_euchred_score", 2))
    lone_text = "" if lone == 2 else f", -{lone} for a lone maker (loner_euchred_score)"
    fast_text = "; a fast break counts 0 (fast_break)" if rules.get("fast_break") else ""
    token_text = ("; a hand's points only: four_trick_tokens, a rule of whole games, is not seen"
                  if rules.get("four_trick_tokens") else "")
    best_text = ("; a lone maker plays with its partner's best card (partners_best)" if rules.get("partners_best")
                 else "")
    lines.append("net points: your side's points less the other side's, per hand (a euchre counts -2, -4 alone"
                 f"{lone_text}{fast_text}{token_text}{best_text})")
    if rules.get("farmers") or rules.get("go_under"):
        lines.append("the hand is the one held at the call, after any exchange with the kitty (farmers, go_under); "
                     "the sampled deals play no exchange")
    return "\n".join(lines)


def ask(hand: str, question: dict, strategy="default", samples=None, seed: int = 0, threads=None, rules=None) -> dict:
    """``bower should-bid`` for Euchre: ``question`` holds the command's flags (upcard, position, calls, bid,
    scores)."""
    if question.get("swapped") is not None:
        raise AdviceError("--swapped is a Ghost Hand question; Euchre has no ghost hand")
    return advise(hand, question.get("upcard"), position=question.get("position", 1), calls=question.get("calls"),
                  strategy=strategy, samples=samples, seed=seed, threads=threads, rules=rules,
                  bid=question.get("bid"), model=question.get("model"), playout=question.get("playout"),
                  scores=question.get("scores"), equity=question.get("equity"))
