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

from analysis.intervals import Z95, wilson
from kernels import advice as ka
from sim import runner
from sim.errors import UserError

CHUNK_SAMPLES = 1024
BATCH_CHUNKS = 8
DEFAULT_CAP = 200_000
TARGET_WIDTH = 0.05
DRAWS_PER_SAMPLE = 400  # rejection budget: a chunk gives up after this many draws per sample wanted


class AdviceError(UserError, ValueError):
    """A hand, call sequence or option that describes no reachable turn of the variant."""


class ImpossibleAuction(AdviceError):
    """No sampled deal reproduced the calls under the strategy: the model finds the auction impossible."""


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


