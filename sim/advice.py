"""``should-bid`` machinery every variant shares: sampling in fixed chunks, per-action statistics, the recommendation.

Each variant's ``sim/variants/NAME/advice.py`` checks its situation, lists
the open actions and runs its kernel through ``sample_actions``. Samples come in chunks of
``CHUNK_SAMPLES`` kept deals, chunk c seeded from ``SeedSequence(seed,
spawn_key=(c,))``; batches of chunks are fixed, so the answer for a seed does
not depend on the thread count.
"""

from __future__ import annotations

import math

import numpy as np

from bower.analysis.intervals import Z95, wilson
from bower.kernels import advice as ka
from bower.sim import distributed as dist
from bower.sim import runner
from bower.sim.errors import UserError
from bower.sim.text import number_text

CHUNK_SAMPLES = 1024
BATCH_CHUNKS = 8
DEFAULT_CAP = 200_000
TARGET_WIDTH = 0.05
DRAWS_PER_SAMPLE = 400  # rejection budget: a chunk gives up after this many draws per sample wanted


class AdviceError(UserError, ValueError):
    """A hand, call sequence or option that describes no reachable turn of the variant."""


class ImpossibleAuction(AdviceError):
    """No sampled deal reproduced the calls under the strategy: the model finds the auction impossible."""


def advise(variant, hand: str, question: dict, scheduler=None, **kw) -> dict:
    """The variant's should-bid answer (``Variant.advise``), its chunks run where ``scheduler`` says.

    ``scheduler`` as for ``bower.sim.runner.simulate``; ``kw``: ``strategy``,
    ``samples``, ``seed``, ``threads``, ``rules``. The answer does not depend
    on where the chunks ran. A bot ``strategy`` (``bower.sim.bots.is_bot``,
    or ``greedy``) plays its play-outs here, in this process, where the
    variant offers it (``Variant.advice_bots``: ``advise_with_bot``); BotError
    otherwise.
    """
    from bower.sim.rules import get_variant

    from bower.sim.bots import BotError, is_bot, needs_bots

    v = get_variant(variant)
    strategy = kw.get("strategy", "default")
    if is_bot(strategy) or needs_bots([strategy]):
        if not v.advice_bots:
            raise BotError(f"should-bid with a bot strategy is not available for {v.title} yet (the {v.title} "
                           "play-outs run only in the kernels); a kernel strategy (preset, .toml) plays them")
        if scheduler is not None and getattr(scheduler, "kind", None) != "local":
            raise BotError(f"should-bid with a bot strategy runs in this process: drop --scheduler {scheduler}")
        import importlib

        return advise_with_bot(v, importlib.import_module(v.advice_bots), hand, question, scheduler, **kw)
    with dist.session(scheduler) as ex:
        return runner.add_executor(v.advise(hand, question, **kw), ex)


def advise_with_bot(v, twin, hand: str, question: dict, scheduler=None, **kw) -> dict:
    """``advise`` with a bot ``kw["strategy"]`` for a variant whose ``advise`` takes kernel strategies only: it runs
    as for ``default`` (whose auction model weighs the deals), each call of its advice kernel (``twin.KERNEL``)
    answered by the twin's ``bot_chunks``, the bot playing every seat after the question's forced decisions
    (``bower.sim.advice_bots``). The answer names the bot as its ``strategy`` and ``bot``, and ``default`` as its
    ``model_strategy``. Only ``--playout strategy``; ``question["bot_timeout"]``: the seconds the bot may take
    to answer one call. The play-outs' states hold the question's ``scores`` (seen from the seat the question is
    about, as the kernels' play-outs see them) and the variant's target: a bot that reads ``game_scores()``
    decides at them."""
    from bower.sim.advice_bots import bot_run
    from bower.sim.bots import BOT_TIMEOUT, advice_player
    from bower.sim.game import game as make_game

    playout = question.get("playout") or "strategy"
    if playout != "strategy":
        raise AdviceError(f"--playout {playout} with a bot strategy: the bot plays the hands out itself; use "
                          "--playout strategy")
    seed = kw.get("seed", 0)
    _, rules_d, _ = runner.resolve_run(v.name, seed, kw.get("rules"))
    player, name = advice_player(kw["strategy"], v.name, seed, question.get("bot_timeout", BOT_TIMEOUT))
    with dist.session(scheduler) as ex, bot_run(twin, make_game(v.name, rules_d), player,
                                                 _question_scores(v, question.get("scores"))):
        r = runner.add_executor(v.advise(hand, question, **{**kw, "strategy": "default"}), ex)
    r.update({"strategy": name, "bot": name, "model_strategy": "default"})
    return r


def _question_scores(v, scores) -> tuple[int, ...] | None:
    """The game scores of a should-bid question (``--scores``, in its order) as whole numbers, or None: none given,
    or not valid (the variant's ``advise`` then refuses them in its own words before any deal)."""
    if scores is None:
        return None
    try:
        return parse_game_scores(scores, 2 if v.partnerships else 3, "", v.target)
    except AdviceError:
        return None


def call_chunks(kernel: str, states, dstates, targets, fixed: tuple, outs: tuple) -> None:
    """Run the advice kernel ``kernel`` (``"module:function"``) on a batch of chunks, filling ``outs``.

    The kernel is called ``kernel(states, dstates, targets, *fixed, *outs)``;
    every array of ``outs`` has one row per chunk. Here the batch is one
    call; through Dask the chunks are cut into one run of consecutive
    chunks per worker, each a task (chunks do not depend on one another, so
    the rows are the same), and the kernel is named, not sent.
    """
    from bower.sim.advice_bots import current_run

    bot = current_run(kernel)
    if bot is not None:  # a bot plays the play-outs (``advise_with_bot``)
        bot.chunks(states, dstates, targets, fixed, outs)
        return
    ex = dist.current()
    if ex.kind == "local":
        _kernel(kernel)(states, dstates, targets, *fixed, *outs)
        return
    n = len(targets)
    shapes = tuple(o.shape[1:] + (o.dtype.str,) for o in outs)

    def job(a, b, tg):
        return kernel, states[a:b], dstates[a:b], np.asarray(tg, np.int64), fixed, shapes

    groups = min(n, max(1, ex.workers))
    cuts = [n * g // groups for g in range(groups + 1)]
    key = ("advice", kernel, tuple((type(x).__name__, getattr(x, "dtype", None), getattr(x, "ndim", 0)) for x in fixed))
    jobs = (job(a, b, targets[a:b]) for a, b in zip(cuts, cuts[1:]))
    for a, b, rows in zip(cuts, cuts[1:], ex.map(advice_job, jobs, warm=(key, job(0, 1, [1])))):
        for o, r in zip(outs, rows):
            o[a:b] = r


def _kernel(path: str):
    import importlib

    module, _, name = path.partition(":")
    return getattr(importlib.import_module(module), name)


def advice_job(job) -> tuple:
    """Chunks of an advice kernel (``call_chunks``): the kernel named, its inputs, the shapes of its outputs' rows."""
    kernel, states, dstates, targets, fixed, shapes = job
    outs = tuple(np.zeros((len(targets),) + tuple(s[:-1]), np.dtype(s[-1])) for s in shapes)
    _kernel(kernel)(states, dstates, targets, *fixed, *outs)
    return outs


def sample_actions(run_chunks, n_act: int, samples: int | None, cap: int, seed: int, strategy_name: str, estimates,
                   stop=None):
    """Sample kept deals in fixed batches of chunks and sum every action's counters; stop when asked or clear.

    ``run_chunks(states, dstates, targets, draws, kept, acc, pts_xy, mar_xy)``
    runs the variant's advice kernel on a batch; ``estimates(acc, pxy, mxy)``
    gives the per-action estimates the adaptive stop looks at; ``stop()``, when
    given, decides the adaptive stop instead (``"clear"``, ``"narrow"`` or None:
    the game-equity answer of ``--scores``). Returns (acc,
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
        if samples is None and stop is not None:
            verdict = stop()
            if verdict:
                stopped = verdict
                break
        elif samples is None:
            est = estimates(acc, pxy, mxy)
            if _recommend(est, acc, pxy)["clear"]:
                stopped = "clear"
                break
            if all(e["points_ci95"][1] - e["points_ci95"][0] < TARGET_WIDTH for e in est):
                stopped = "narrow"
                break
    return acc, pxy, mxy, kept, draws, stopped


def _mean_ci(n, s, ss, scale=1.0):
    mean = float(s / n / scale)
    var = max(float(ss / n / scale**2) - mean * mean, 0.0) * n / max(n - 1, 1)
    half = Z95 * math.sqrt(var / n)
    return mean, [mean - half, mean + half]


def action_stats(row, maker_key: str) -> dict:
    """One action's estimates from its counters (``bower.kernels.ghost.advice.A_*``), with 95% intervals.

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


def run_fields(strategy: str, seed: int, threads: int, kept: int, draws: int, stopped: str, actions: list,
               recommendation: dict, compiled: bool, elapsed: float) -> dict:
    """The fields every should-bid answer ends with: how it was sampled, the actions, the recommendation."""
    return {
        "strategy": strategy,
        "seed": seed,
        "threads": threads,
        "samples": kept,
        "draws": draws,
        "acceptance_rate": kept / draws,
        "stopped": stopped,
        "actions": actions,
        "recommendation": recommendation,
        "compiled": compiled,
        "elapsed_s": elapsed,
    }


def recommendation_line(rec: dict, alone: str = "") -> str:
    """The last line of a should-bid answer: the best action, how surely it beats the runner-up."""
    if "runner_up" not in rec:
        return f"recommendation: {rec['action']}{alone}"
    lo, hi = rec["diff_ci95"]
    sure = "clearly" if rec["clear"] else "not clearly (within the interval)"
    if "diff_equity" in rec:
        return (f"recommendation (by game equity): {rec['action']} — {sure} better than {rec['runner_up']} by "
                f"{100 * rec['diff_equity']:+.2f} percentage points of the chance to win the game "
                f"({100 * lo:+.2f} to {100 * hi:+.2f})")
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




# ---- weighted samples: the auction model of the other players -------------------------------------------------------

MODELS = ("softmax", "exact")
DEFAULT_TAU = 0.25  # the softmax temperature, in the units of the strategy's decision statistic (tricks)
DEFAULT_EPSILON = 0.01  # the tremble: this share of each call is spread evenly over the legal calls
PLAYOUTS = ("strategy", "dd", "both", "pimc")
PIMC_PLAYOUT_WORLDS = 8.0  # ``--playout pimc``: worlds per card for the seats whose strategy does not play by PIMC
N_PLAYOUTS = 2  # kernel play-out rows: 0 the strategy plays the hand out, 1 the double-dummy solver scores it
N_INFER = 2  # per seat: the weighted sums of the variant's two inference features (``Variant`` advice names them)
MIN_ESS = 100.0  # below this effective sample size an answer says it rests on too few deals
LOW_ESS_DRAW = 5  # while the ESS is below MIN_ESS, sampling goes on up to this many times the cap


def _number(value, default: float) -> float:
    """``value`` as a float (``default`` for None); NaN for what is not a number, inf past any float."""
    if value is None:
        return default
    try:
        return float(value)
    except OverflowError:
        return math.inf
    except (TypeError, ValueError):
        return math.nan


def model_vector(model: dict | None):
    """The kernels' model vector (``bower.kernels.advice.M_*``) of ``{"kind", "tau", "epsilon"}``; AdviceError when bad."""
    m = dict(model or {})
    kind = m.get("kind", "softmax")
    if kind not in MODELS:
        raise AdviceError(f"unknown model {kind!r} (choose from {', '.join(MODELS)})")
    tau = _number(m.get("tau"), DEFAULT_TAU)
    eps = _number(m.get("epsilon"), DEFAULT_EPSILON)
    if not (tau >= 0 and math.isfinite(tau)):
        raise AdviceError(f"--tau must be a number >= 0, got {number_text(m.get('tau'))}")
    if not 0 <= eps < 1:
        raise AdviceError(f"--epsilon must be at least 0 and below 1, got {number_text(m.get('epsilon'))}")
    if kind == "exact":
        tau, eps = 0.0, 0.0
    return np.array([float(ka.MODEL_EXACT if kind == "exact" else ka.MODEL_SOFTMAX), tau, eps]), {
        "kind": kind, "tau": tau, "epsilon": eps}


def playout_bits(playout: str | None) -> int:
    """The kernels' play-out bits (``bower.kernels.advice.PLAY_*``) of ``strategy``, ``dd``, ``both`` or ``pimc``
    (the strategy play-out, with the cards played by PIMC: ``playout_params``)."""
    p = playout or "strategy"
    if p not in PLAYOUTS:
        raise AdviceError(f"unknown play-out {p!r} (choose from {', '.join(PLAYOUTS)})")
    return {"strategy": ka.PLAY_STRATEGY, "dd": ka.PLAY_DD, "both": ka.PLAY_STRATEGY | ka.PLAY_DD,
            "pimc": ka.PLAY_STRATEGY}[p]


def playout_params(params, playout: str | None, variant: str):
    """The strategy rows (one per seat) the play-outs use: ``--playout pimc`` makes every seat play its cards by
    PIMC after the player's decision (a seat whose strategy has no ``pimc_worlds`` gets ``PIMC_PLAYOUT_WORLDS``);
    the auction model and the calls after the decision stay the strategy's."""
    if playout != "pimc":
        return params
    from bower.sim.strategy import param_index

    out = params.copy()
    i = param_index("pimc_worlds", variant)
    out[:, i] = np.where(out[:, i] >= 1.0, out[:, i], PIMC_PLAYOUT_WORLDS)
    return out


_W_TO_A = ((ka.A_N, ka.W_N), (ka.A_MAKER, ka.W_MAKER), (ka.A_MADE, ka.W_MADE), (ka.A_TRICKS, ka.W_TRICKS),
           (ka.A_TRICKS_SQ, ka.W_TRICKS_SQ), (ka.A_PTS, ka.W_PTS), (ka.A_PTS_SQ, ka.W_PTS_SQ), (ka.A_MAR, ka.W_MAR),
           (ka.A_MAR_SQ, ka.W_MAR_SQ))


def as_counts(wacc):
    """Weighted counters (``bower.kernels.advice.W_*``) whose weights are all 1 (the exact model) as the integer ``A_*`` ones."""
    out = np.zeros(wacc.shape[:-1] + (ka.A_WIDTH,), np.int64)
    for a, w in _W_TO_A:
        out[..., a] = np.rint(wacc[..., w]).astype(np.int64)
    return out


def ess_of(wsum) -> float:
    """The effective sample size (Σw)² / Σw² of weights summed as ``wsum = (Σw, Σw²)``."""
    return float(wsum[0] ** 2 / wsum[1]) if wsum[1] > 0 else 0.0


def sample_weighted(run_chunks, n_act: int, n_seats: int, samples: int | None, cap: int, seed: int, estimates,
                    first_row: int = 0, strategy_name: str = "default", equity: bool = False):
    """Draw weighted deals in fixed batches of chunks and sum every action's weighted counters; stop when asked or clear.

    ``run_chunks(states, dstates, targets, draws, kept, wsum, acc, pxy, mxy, infer, eacc, exy)``
    runs the variant's advice kernel on a batch (shapes: ``wsum`` (chunks, 2),
    ``acc`` (chunks, N_PLAYOUTS, actions, W_WIDTH), ``pxy``/``mxy`` (chunks,
    N_PLAYOUTS, actions, actions), ``infer`` (chunks, seats, N_INFER), the game
    equity's ``eacc`` (chunks, N_PLAYOUTS, actions, E_WIDTH) and ``exy`` (as
    ``pxy``), left 0 without ``--scores``); ``equity``: the adaptive stop looks
    at the game equity (``equity_stop``) instead of the points;
    ``targets[c]`` is how many deals of positive weight chunk ``c`` wants.
    Sampling stops at ``samples`` effective deals (ESS) when given, else when
    ``estimates(acc, pxy, mxy, ess)`` of play-out row ``first_row`` give a
    clear or precise answer; either way at most at ``max(cap, samples)``
    deals of positive weight (``cap`` without ``samples``: an explicit
    ``samples`` above the cap is not cut to it). An answer is only called
    clear or precise once the ESS reaches ``MIN_ESS``, and while the ESS is
    below it sampling draws more, up to ``LOW_ESS_DRAW`` times that limit
    (``stopped`` then says ``"low-ess"`` if it still could not). With weights 0 or 1 (the exact model) the batches are those of
    ``sample_actions``, so the answer is the same. ImpossibleAuction when no
    deal has positive weight. Returns a dict of the sums, ``ess``, ``kept``,
    ``draws`` and ``stopped``.
    """
    acc = np.zeros((N_PLAYOUTS, n_act, ka.W_WIDTH))
    pxy = np.zeros((N_PLAYOUTS, n_act, n_act))
    mxy = np.zeros((N_PLAYOUTS, n_act, n_act))
    wsum = np.zeros(2)
    infer = np.zeros((n_seats, N_INFER))
    eacc = np.zeros((N_PLAYOUTS, n_act, ka.E_WIDTH))
    exy = np.zeros((N_PLAYOUTS, n_act, n_act))
    draws = kept = 0
    chunk = 0
    ess = 0.0
    # the cap on deals of positive weight: ``cap``, or ``samples`` when more are asked for (an explicit request
    # is never cut to the adaptive mode's cap); raised ``LOW_ESS_DRAW`` times while too few of them carry the weight
    base = cap if samples is None else max(cap, samples)
    while True:
        limit = base if kept == 0 or ess >= MIN_ESS else base * LOW_ESS_DRAW
        if samples is not None:
            if ess >= samples:
                stopped = "samples"
                break
            # the deals expected to bring the ESS to ``samples`` (with weights 0 or 1: exactly the rest)
            want = samples - kept if ess == kept else math.ceil((samples - ess) * kept / max(ess, 1e-12))
        else:
            want = limit - kept
        want = min(want, limit - kept)
        if want <= 0:
            stopped = "cap" if ess >= MIN_ESS else "low-ess"
            break
        n_chunks = min(BATCH_CHUNKS, -(-want // CHUNK_SAMPLES))
        targets = np.array([min(CHUNK_SAMPLES, want - i * CHUNK_SAMPLES) for i in range(n_chunks)], np.int64)
        d = np.zeros(n_chunks, np.int64)
        k = np.zeros(n_chunks, np.int64)
        w = np.zeros((n_chunks, 2))
        a = np.zeros((n_chunks, N_PLAYOUTS, n_act, ka.W_WIDTH))
        p = np.zeros((n_chunks, N_PLAYOUTS, n_act, n_act))
        m = np.zeros((n_chunks, N_PLAYOUTS, n_act, n_act))
        inf = np.zeros((n_chunks, n_seats, N_INFER))
        e = np.zeros((n_chunks, N_PLAYOUTS, n_act, ka.E_WIDTH))
        ex = np.zeros((n_chunks, N_PLAYOUTS, n_act, n_act))
        run_chunks(runner.chunk_states(seed, chunk, n_chunks), runner.decision_states(seed, chunk, n_chunks), targets,
                   d, k, w, a, p, m, inf, e, ex)
        chunk += n_chunks
        for i in range(n_chunks):  # fixed order: the same sums for any thread count
            wsum += w[i]
            acc += a[i]
            pxy += p[i]
            mxy += m[i]
            infer += inf[i]
            eacc += e[i]
            exy += ex[i]
        draws += int(d.sum())
        kept += int(k.sum())
        ess = ess_of(wsum)
        if kept == 0:
            raise ImpossibleAuction(
                f"no deal among {draws:,} drawn reproduces those calls under strategy {strategy_name}: "
                "the model finds this auction impossible (the softmax model with --epsilon above 0 never does)"
            )
        if int(k.sum()) < int(targets.sum()):
            stopped = "acceptance"
            break
        if samples is None and ess >= MIN_ESS and equity:
            verdict = equity_stop(eacc[first_row], exy[first_row], float(wsum[0]), ess)
            if verdict:
                stopped = verdict
                break
        elif samples is None and ess >= MIN_ESS:
            est = estimates(acc[first_row], pxy[first_row], mxy[first_row], ess)
            if _recommend_weighted(est, acc[first_row], pxy[first_row], ess)["clear"]:
                stopped = "clear"
                break
            if all(e["points_ci95"][1] - e["points_ci95"][0] < TARGET_WIDTH for e in est):
                stopped = "narrow"
                break
    return {"acc": acc, "pxy": pxy, "mxy": mxy, "wsum": wsum, "infer": infer, "eacc": eacc, "exy": exy,
            "ess": ess_of(wsum), "kept": kept,
            "draws": draws, "stopped": stopped, "asked": samples}


def _wmean_ci(wn, s, ss, ess, scale=1.0):
    mean = float(s / wn / scale)
    var = max(float(ss / wn / scale**2) - mean * mean, 0.0)
    if ess > 1:
        var = var * ess / (ess - 1)  # in this order: with weights 0 or 1, exactly ``_mean_ci``
    half = Z95 * math.sqrt(var / ess) if ess > 0 else float("inf")
    return mean, [mean - half, mean + half]


def _wrate(num, den, den2):
    """A weighted rate and its Wilson interval at the subset's effective sample size."""
    if den <= 0:
        return None, None
    rate = num / den
    if den2 == den:  # weights 0 or 1: the plain count
        lo, hi = wilson(num, den)
    else:
        ess = den * den / den2 if den2 > 0 else 0.0
        lo, hi = wilson(rate * ess, ess) if ess > 0 else (0.0, 1.0)
    return rate, [float(lo), float(hi)]


def weighted_action_stats(row, maker_key: str, ess: float) -> dict:
    """One action's estimates from its weighted counters (``bower.kernels.advice.W_*``), intervals at the effective size."""
    wn = float(row[ka.W_N])
    share, share_ci = _wrate(row[ka.W_MAKER], wn, row[ka.W_N2])
    make, make_ci = _wrate(row[ka.W_MADE], row[ka.W_MAKER], row[ka.W_MAKER2])
    pts, pts_ci = _wmean_ci(wn, row[ka.W_PTS], row[ka.W_PTS_SQ], ess)
    mar, mar_ci = _wmean_ci(wn, row[ka.W_MAR], row[ka.W_MAR_SQ], ess, 2.0)
    tr, tr_ci = _wmean_ci(wn, row[ka.W_TRICKS], row[ka.W_TRICKS_SQ], ess)
    return {
        "ess": ess,
        maker_key: share,
        f"{maker_key}_ci95": share_ci,
        "make_prob": make,
        "make_ci95": make_ci,
        "mean_tricks": tr,
        "tricks_ci95": tr_ci,
        "expected_points": pts,
        "points_ci95": pts_ci,
        "expected_margin": mar,
        "margin_ci95": mar_ci,
    }


def _diff_weighted(acc, pxy, i, j, ess):
    """Paired weighted mean difference of points (action i minus j) and its 95% interval at the effective size."""
    wn = float(acc[i, ka.W_N])
    d = float(acc[i, ka.W_PTS] - acc[j, ka.W_PTS]) / wn
    ss = float(pxy[i, i] - 2 * pxy[i, j] + pxy[j, j]) / wn
    var = max(ss - d * d, 0.0) * ess / max(ess - 1, 1)  # in this order: with weights 0 or 1, exactly ``_diff``
    half = Z95 * math.sqrt(var / ess) if ess > 0 else float("inf")
    return d, [d - half, d + half]


def _recommend_weighted(est, acc, pxy, ess) -> dict:
    order = sorted(range(len(est)), key=lambda i: -est[i]["expected_points"])
    best = order[0]
    rec = {"action": est[best]["action"], "expected_points": est[best]["expected_points"], "clear": True}
    if len(order) > 1:
        ru = order[1]
        d, ci = _diff_weighted(acc, pxy, best, ru, ess)
        rec.update({"runner_up": est[ru]["action"], "diff_points": d, "diff_ci95": ci, "clear": bool(ci[0] > 0)})
    return rec


def model_fields(model: dict, sums: dict, playout: str, inference: list) -> dict:
    """The fields every weighted should-bid answer carries: the model, the sampling, the inference, a warning."""
    ess = sums["ess"]
    out = {
        "model": model,
        "playout": playout,
        "ess": ess,
        "samples": sums["kept"],
        "draws": sums["draws"],
        "acceptance_rate": sums["kept"] / sums["draws"] if sums["draws"] else 0.0,
        "stopped": sums["stopped"],
        "inference": inference,
    }
    if ess < MIN_ESS:
        out["warning"] = (f"the answer rests on an effective {ess:.0f} deals (fewer than {MIN_ESS:.0f}, after "
                          f"{sums['draws']:,} draws): the model finds these calls very unlikely; a useful sample "
                          "could not be reached, so treat it as a rough guide")
    elif sums.get("asked") and ess < sums["asked"]:
        out["warning"] = (f"an effective sample of {sums['asked']:,} was asked for; the model's weights gave "
                          f"{ess:,.0f} from {sums['kept']:,} deals, the most drawn, and the intervals are at that size")
    return out


def inference_rows(infer, wsum, seats: list[int], names: tuple[str, str], label) -> list[dict]:
    """Per other seat, what the calls say about its hand: the weighted means of the variant's two features."""
    total = float(wsum[0])
    rows = []
    for s in seats:
        rows.append({"seat": s, "who": label(s), names[0]: float(infer[s, 0] / total) if total else None,
                     names[1]: float(infer[s, 1] / total) if total else None})
    return rows


# ---- game equity: ``--scores`` (the answer in games won) ------------------------------------------------------------

EQUITY_WIDTH = 0.01  # with --scores the adaptive stop also ends when every action's game-equity interval is this narrow
MAX_SCORE_DIGITS = 12  # a score written with more digits than this is no game's (said before int() expands it)


def parse_game_scores(scores, units: int, who: str, target: int) -> tuple[int, ...]:
    """``--scores`` (text ``"8,9"`` or a sequence) as ``units`` whole numbers from 0 to ``target - 1``; AdviceError
    (one line) for another form, a negative score or one at or past the target. ``who`` says their order."""
    parts = list(scores) if isinstance(scores, (list, tuple)) else str(scores).split(",")
    vals = []
    for x in parts:
        t = str(x).strip()
        try:
            ok = len(t) <= MAX_SCORE_DIGITS and not isinstance(x, bool) and float(t) == int(float(t))
        except (TypeError, ValueError, OverflowError):
            ok = False
        vals.append(int(float(t)) if ok else None)
    shown = ",".join(str(x).strip()[:MAX_SCORE_DIGITS + 1] for x in parts)
    if None in vals:
        raise AdviceError(f"--scores must be {units} whole numbers separated by commas ({who}), got {shown!r}")
    if len(vals) != units:
        raise AdviceError(f"--scores needs {units} scores ({who}), got {len(vals)}: {shown!r}")
    for s in vals:
        if s < 0:
            raise AdviceError(f"--scores: score {s} is negative; give game scores from 0 to {target - 1}")
        if s >= target:
            raise AdviceError(f"--scores: score {s} is at or past the target {target}: the game is over")
    return tuple(vals)


def side_outcome_table(table: dict, side: int, dealer: int, scores: tuple[int, int]) -> tuple[np.ndarray, float]:
    """(the asker's game equity after each outcome of the hand, the equity now) from a two-side equity table.

    ``scores`` = (asker's side, other side) with seat ``dealer`` dealing; the
    outcome is (side 0's points, side 1's points, the maker's side), indexed
    as ``bower.kernels.advice.side_equity``. After the hand the deal passes
    left; a side alone at or past the target wins, both there: the maker's
    side; else the table's chance from the new score (a score below its floor
    counts as the floor).
    """
    out, now = side_outcome_tables(table, side, dealer, scores)
    return out[0], float(now[0])


def side_outcome_tables(table: dict, side: int, dealer: int, scores: tuple[int, int], eqs=None):
    """``side_outcome_table`` for a stack of tables ``eqs`` (default: the table's ``equity`` alone) at once:
    (outcome tables (R, ...), the chances now (R,))."""
    eq = np.asarray([table["equity"]] if eqs is None else eqs, np.float64)  # [r, dealer, side 0 - floor, side 1 - f]
    f, t = int(table["floor"]), int(table["target"])
    nd = (dealer + 1) % eq.shape[1]
    g = np.arange(-ka.EQ_OFF, ka.EQ_OFF + 1)
    a, b = np.meshgrid(g, g, indexing="ij")
    mine, theirs = (a, b) if side == 0 else (b, a)
    x, y = scores[0] + mine, scores[1] + theirs
    xi, yi = np.clip(x, f, t - 1) - f, np.clip(y, f, t - 1) - f
    cont = eq[:, nd][:, xi, yi] if side == 0 else 1.0 - eq[:, nd][:, yi, xi]
    out = np.empty((len(eq), len(g), len(g), 2))
    for c in (0, 1):
        out[..., c] = np.where(x >= t, np.where(y >= t, float(c == side), 1.0), np.where(y >= t, 0.0, cont))
    i, j = scores[0] - f, scores[1] - f
    now = eq[:, dealer, i, j] if side == 0 else 1.0 - eq[:, dealer, j, i]
    return out, now


def seat_outcome_table(table: dict, seat: int, dealer: int, scores: tuple[int, int, int]) -> tuple[np.ndarray, float]:
    """(seat ``seat``'s game equity after each outcome of the hand, the equity now) from a three-player table.

    ``scores`` by seat, seat ``dealer`` dealing; the outcome is the points of
    seats 0, 1, 2 (``bower.kernels.advice.seat_equity``). After the hand the
    deal passes left; a unique top score at or past the target wins; a tie at
    the top there plays on and is valued exactly, as the table's programme
    holds it: every score shifted down by the same amount so that the tie is
    at the target (only differences of score matter from then on), read from
    the target row of the table's ``cube`` (relative to the next dealer); a
    score below the floor counts as the floor.
    """
    out, now = seat_outcome_tables(table, seat, dealer, scores)
    return out[0], float(now[0])


def seat_outcome_tables(table: dict, seat: int, dealer: int, scores: tuple[int, int, int], cubes=None):
    """``seat_outcome_table`` for a stack of cubes ``cubes`` (default: the table's ``cube`` alone) at once:
    (outcome tables (R, ...), the chances now (R,))."""
    cubes = [table["cube"]] if cubes is None else cubes  # each [j, x0 - floor, ...]: relative to the dealer, each
    # axis to the target
    f, t = int(table["floor"]), int(table["target"])
    nd = (dealer + 1) % 3
    g = np.arange(-ka.EQ_OFF, ka.EQ_OFF + 1)
    p = np.meshgrid(g, g, g, indexing="ij")
    y = [scores[i] + p[i] for i in range(3)]
    top = np.maximum(y[0], np.maximum(y[1], y[2]))
    leaders = sum((yi == top).astype(np.int64) for yi in y)
    over = top >= t
    won = over & (leaders == 1)
    shift = np.where(over & ~won, top - t, 0)  # a tie at the top at or past the target: held at the target
    idx = [np.clip(yi - shift, f, t) - f for yi in y]
    s = t - f + 1
    flat = (idx[nd] * s + idx[(nd + 1) % 3]) * s + idx[(nd + 2) % 3]
    cont = np.stack([np.asarray(c[(seat - nd) % 3], np.float64).reshape(-1)[flat] for c in cubes])
    out = np.where(won, (y[seat] == top).astype(np.float64), cont)
    here = ((seat - dealer) % 3,) + tuple(scores[(dealer + i) % 3] - f for i in range(3))
    now = np.array([float(c[here]) for c in cubes])
    return out, now


def kernel_table(point: np.ndarray, draws: list[np.ndarray]) -> np.ndarray:
    """The advice kernels' outcome table (``bower.kernels.advice``: ``eqt``) of an outcome table ``point`` and its
    redraws ``draws`` (at most ``EQ_DRAWS``; the columns of missing ones repeat ``point`` and are not read): each
    outcome axis one longer, its last index the NaN cell, and a last axis of 1 + ``EQ_DRAWS`` chances."""
    out = np.full(tuple(n + 1 for n in point.shape) + (1 + ka.EQ_DRAWS,), np.nan)
    inner = tuple(slice(0, n) for n in point.shape)
    out[inner] = point[..., None]
    for r, d in enumerate(draws[:ka.EQ_DRAWS]):
        out[inner + (1 + r,)] = d
    return out


def game_equity(variant: str, scores, *, rules: dict | None, seat: int, dealer: int, table_args: dict | None = None,
                who: str) -> dict:
    """Everything ``--scores`` needs, before any hand is dealt: the checked scores, the variant's equity table (its
    rules, target and the default strategy; from the cache, or computed once with a note on stderr) and the
    asker's equity after each outcome (``eqt``, for the advice kernel) and now.

    ``scores``: by side, the asker's first (two-side variants), or by
    position (three players: position p is seat p - 1); ``seat`` the asker's,
    ``dealer`` the dealer's seat; ``table_args``: ``hands``, ``seed``,
    ``resamples`` of the table (``bower.sim.equity.compute``; default its
    defaults, the table ``bower equity`` prints).
    """
    from bower.sim import equity as E
    from bower.sim.progress import notice
    from bower.sim.rules import get_variant

    v = get_variant(variant)
    units = 2 if v.partnerships else 3
    score = parse_game_scores(scores, units, who, v.target)
    args = {"hands": E.DEFAULT_HANDS, **(table_args or {})}
    if E.cached_path(v.name, rules=rules, **args) is None:
        notice(f"computing the {v.title} equity table to {v.target} (strategy default, {args['hands']:,} hands) for "
               "--scores: once, then read from the cache (Ghost Hand: about 40 CPU s; see bower equity)")
    table, path = E.compute_cached(v.name, rules=rules, arrays=("cube", "draws"), **args)  # not the others' MBs
    redrawn = np.asarray(table["draws"])[:ka.EQ_DRAWS]
    if v.partnerships:
        out, now = side_outcome_tables(table, seat % 2, dealer, score,
                                       [np.asarray(table["equity"], np.float64), *redrawn])
        shown = {"own": score[0], "opponent": score[1]}
    else:  # position p is seat p - 1 (the dealer sits last): the scores are by seat
        out, now = seat_outcome_tables(table, seat, dealer, score, [np.asarray(table["cube"]), *redrawn])
        shown = {str(i + 1): s for i, s in enumerate(score)}
    return {"eqt": kernel_table(out[0], list(out[1:])), "now": float(now[0]), "now_draws": [float(x) for x in now[1:]],
            "scores": shown, "target": v.target,
            "table": {"strategy": table["strategy"], "hands": table["hands"], "seed": table["seed"],
                      "cached": path is not None, "redraws": len(redrawn)}}


def _table_var(sums, wn: float, game: dict | None, less=None) -> float:
    """The variance the equity table's own error adds to a weighted mean over the sampled deals: ``sums`` are its
    per-redraw sums (``E_DRAW`` columns), each redraw's mean (less ``less[r]``, a per-redraw shift such as the
    chance now) taken, and their variance across the table's redraws; 0 with fewer than two redraws."""
    n = 0 if game is None else len(game.get("now_draws", ()))
    if n < 2 or wn <= 0:
        return 0.0
    vals = np.asarray(sums[:n], np.float64) / wn - (0.0 if less is None else np.asarray(less[:n], np.float64))
    return float(vals.var(ddof=1))


def _widen(mean: float, ci: list, table_var: float) -> tuple[list, float]:
    """``ci`` (a 95% interval about ``mean``) widened by the table's variance in quadrature, and the table's
    standard error."""
    half = (ci[1] - ci[0]) / 2
    half = math.sqrt(half * half + Z95 * Z95 * table_var) if math.isfinite(half) else half
    return [mean - half, mean + half], math.sqrt(table_var)


def _equity_diff(eacc, exy, wn, ess, i, j, game=None):
    """Paired weighted mean difference of game equity (action i minus j) and its 95% interval; with ``game``
    (``game_equity``'s) the interval also holds the table's error of the difference (its redraws' spread, in
    quadrature), and the third value is that standard error (else 0)."""
    d = float(eacc[i, ka.E_SUM] - eacc[j, ka.E_SUM]) / wn
    ss = float(exy[i, i] - 2 * exy[i, j] + exy[j, j]) / wn
    var = max(ss - d * d, 0.0) * ess / max(ess - 1, 1)
    half = Z95 * math.sqrt(var / ess) if ess > 0 else float("inf")
    ci, se = _widen(d, [d - half, d + half], _table_var(eacc[i, ka.E_DRAW:] - eacc[j, ka.E_DRAW:], wn, game))
    return d, ci, se


def _equity_order(eacc) -> list[int]:
    return sorted(range(eacc.shape[0]), key=lambda i: -float(eacc[i, ka.E_SUM]))


def equity_stop(eacc, exy, wn: float, ess: float):
    """The adaptive stop under ``--scores``: ``"clear"`` when the best action by game equity beats the runner-up
    beyond the interval, ``"narrow"`` when every action's interval is narrower than ``EQUITY_WIDTH``, else None.
    The intervals here are the sampled deals' alone: more deals cannot narrow the equity table's own error, which
    the answer adds (``equity_answer``)."""
    if wn <= 0:
        return None
    order = _equity_order(eacc)
    if len(order) < 2 or _equity_diff(eacc, exy, wn, ess, order[0], order[1])[1][0] > 0:
        return "clear"
    widths = [np.diff(_wmean_ci(wn, eacc[i, ka.E_SUM], eacc[i, ka.E_SQ], ess)[1])[0] for i in order]
    return "narrow" if max(widths) < EQUITY_WIDTH else None


def equity_answer(est: list[dict], eacc, exy, wn: float, ess: float, now: float, game: dict | None = None) -> dict:
    """Add each action's game equity after the hand and its change from ``now`` (with 95% intervals) to ``est``;
    return the recommendation by game equity (``_recommend``'s keys, in equity: ``diff_equity``).

    With ``game`` (``game_equity``'s: the table's redraws) every interval also holds the equity table's own
    error: the variance across the redraws of the same weighted mean (the action's chance after the hand; its
    change, less each redraw's chance now; the paired difference), added to the sampled deals' in quadrature.
    Each action gains ``game_equity_table_se`` and ``equity_change_table_se``, the recommendation
    ``diff_table_se`` (0 where the table has fewer than two redraws)."""
    nows = None if game is None else game.get("now_draws")
    for i, e in enumerate(est):
        m, ci = _wmean_ci(wn, eacc[i, ka.E_SUM], eacc[i, ka.E_SQ], ess)
        if not math.isfinite(m):
            raise AdviceError("a hand's points fell outside the equity table: no game equity for these scores")
        draws = eacc[i, ka.E_DRAW:]
        e["game_equity"] = m
        e["game_equity_ci95"], e["game_equity_table_se"] = _widen(m, ci, _table_var(draws, wn, game))
        c = m - now
        e["equity_change"] = c
        e["equity_change_ci95"], e["equity_change_table_se"] = _widen(c, [ci[0] - now, ci[1] - now],
                                                                      _table_var(draws, wn, game, nows))
    order = _equity_order(eacc)
    best = order[0]
    rec = {"action": est[best]["action"], "by": "game equity", "equity_change": est[best]["equity_change"],
           "expected_points": est[best]["expected_points"], "clear": True}
    if len(order) > 1:
        ru = order[1]
        d, ci, se = _equity_diff(eacc, exy, wn, ess, best, ru, game)
        rec.update({"runner_up": est[ru]["action"], "diff_equity": d, "diff_ci95": ci, "diff_table_se": se,
                    "clear": bool(ci[0] > 0)})
    return rec


def equity_question(q: dict, actions: list[dict], eacc, exy, wn: float, ess: float, game: dict | None = None) -> dict:
    """``--bid``'s answer in games won: ``q`` (a variant's question, naming the asked ``action`` and the one it is
    weighed ``against``, None for a stuck dealer) gains the paired difference in the chance to win the game
    (``equity_diff``, ``equity_diff_ci95``, with ``game`` the table's error in it: ``equity_diff_table_se``, as in
    ``equity_answer``), and its ``verdict`` says it in those terms (the one in points kept as
    ``verdict_points``)."""
    names = [e["action"] for e in actions]
    i = names.index(q["action"])
    asked = q["action"]
    q["verdict_points"] = q["verdict"]
    if q.get("against") is None:
        q["equity_diff"] = q["equity_diff_ci95"] = q["equity_diff_table_se"] = None
        q["verdict"] = (f"the dealer is stuck: {asked} leaves you a {100 * actions[i]['game_equity']:.1f}% chance "
                        "to win the game")
        return q
    j = names.index(q["against"])
    d, ci, se = _equity_diff(eacc, exy, wn, ess, i, j, game)
    q["equity_diff"], q["equity_diff_ci95"], q["equity_diff_table_se"] = d, ci, se
    span = f"({100 * ci[0]:+.2f} to {100 * ci[1]:+.2f})"
    if ci[0] > 0:
        q["verdict"] = (f"yes: {asked} wins the game more often than {q['against']}, by {100 * d:+.2f} percentage "
                        f"points {span}")
    elif ci[1] < 0:
        q["verdict"] = (f"no: {q['against']} wins the game more often than {asked}, by {-100 * d:.2f} percentage "
                        f"points {span}")
    else:
        q["verdict"] = (f"close call: {asked} and {q['against']} win the game about as often ({100 * d:+.2f} "
                        f"percentage points {span})")
    return q


def attach_equity(result: dict, game: dict, eacc, exy, wn: float, ess: float, main_row: int) -> dict:
    """Put the game-equity answer into a should-bid ``result``: per action (``actions`` from play-out row
    ``main_row``, ``actions_dd`` from row 1) the equity fields, the recommendation by game equity (the one by
    points kept as ``recommendation_points``, ``recommendation_dd_points``), ``--bid``'s ``question`` answered in
    games won (``equity_question``) and ``game`` (the scores, the target, the chance to win now, the table
    used)."""
    rows = [("actions", "recommendation", main_row)]
    if "actions_dd" in result:
        rows.append(("actions_dd", "recommendation_dd", 1))
    for akey, rkey, r in rows:
        rec = equity_answer(result[akey], eacc[r], exy[r], wn, ess, game["now"], game)
        result[rkey + "_points"] = result[rkey]
        result[rkey] = rec
    if result.get("question"):
        equity_question(result["question"], result["actions"], eacc[main_row], exy[main_row], wn, ess, game)
    result["game"] = {"scores": game["scores"], "target": game["target"], "equity_now": game["now"],
                      "table": game["table"]}
    return result


def equity_lines(r: dict, akey: str = "actions") -> list[str]:
    """The game-equity block of a text answer: the chance to win now and after each action, the points' pick."""
    g = r.get("game")
    if not g:
        return []
    sc = ", ".join(f"{k} {v}" for k, v in g["scores"].items())
    tb = g["table"]
    lines = [f"game equity: scores {sc} (target {g['target']}), your chance to win the game now "
             f"{100 * g['equity_now']:.1f}% (equity table: strategy {tb['strategy']}, {tb['hands']:,} hands, "
             f"seed {tb['seed']})",
             f"{'action':<32} {'win chance':>10} {'change':>8} {'(95% interval)':>20}"]
    for e in sorted(r[akey], key=lambda e: -e["game_equity"]):
        lo, hi = e["equity_change_ci95"]
        lines.append(f"{e['action'][:32]:<32} {100 * e['game_equity']:>9.2f}% {100 * e['equity_change']:>+8.2f} "
                     f"{f'({100 * lo:+.2f} to {100 * hi:+.2f})':>20}")
    pts_key = "recommendation_points" if akey == "actions" else "recommendation_dd_points"
    if pts_key in r:
        lines.append(f"by points alone: {r[pts_key]['action']}")
    lines.append("change: percentage points of the chance to win the game; the recommendation is by game equity" +
                 ("; the intervals hold the equity table's own error" if tb.get("redraws", 0) >= 2 else ""))
    return lines


def equity_block(r: dict) -> list[str]:
    """``equity_lines`` for each play-out a text answer shows (strategy, double dummy or both), blank-line led."""
    if not r.get("game"):
        return []
    playout = r.get("playout", "strategy")
    keys = ["actions_dd"] if playout == "dd" and "actions_dd" in r else ["actions"]
    if playout == "both" and "actions_dd" in r:
        keys.append("actions_dd")
    out = []
    for k in keys:
        out += ["", *(["double-dummy play-out:"] if k == "actions_dd" and playout == "both" else []),
                *equity_lines(r, k)]
    return out
