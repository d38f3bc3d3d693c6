"""Orchestration of the aggregate kernels: bid histograms and paired swap replays, batch by batch.

Both run in constant memory: each batch of chunks returns fixed-size
histograms that are summed here. Seeds and chunks work as in ``runner``, so a
stats run of N hands plays exactly the hands of ``bower simulate`` with the
same seed, rules and strategy.
"""

from __future__ import annotations

import time
from typing import Callable

import numpy as np

from bower.kernels.ghost import drivers as gs
from bower.kernels.ghost import hand as gk
from bower.kernels.ghost import stats as gst
from bower.sim import distributed as dist
from bower.sim import runner


def bid_stats(
    hands: int,
    seed: int = 0,
    threads: int | None = None,
    rules: dict | None = None,
    strategy="default",
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Simulate ``hands`` hands; return the run summary and the merged bid histograms.

    Keys: ``summary`` (as ``runner.simulate``), ``bids`` (N_BID_CELLS, H_WIDTH)
    and ``estimates`` (4 * N_EST, H_WIDTH) int64 arrays.
    """
    v, rules_d, rules_vec = runner.resolve_run("ghost", seed, rules)
    name, params = runner.seat_params(strategy)
    if not isinstance(hands, (int, np.integer)) or hands <= 0:
        raise runner.RunError(f"--hands must be a positive integer, got {hands!r}")
    n_threads = runner.set_threads(threads)
    total = np.zeros(gk.S_WIDTH, np.int64)
    bids = np.zeros((gst.N_BID_CELLS, gst.H_WIDTH), np.int64)
    ests = np.zeros((gst.N_LEVELS * gst.N_EST, gst.H_WIDTH), np.int64)
    t0 = time.perf_counter()
    step = runner.summary_batch(dist.current()) * runner.CHUNK_SIZE
    jobs = ((seed, f, min(step, hands - f), rules_vec, params) for f in range(0, hands, step))
    done = 0
    for s, b, e in dist.current().map(bid_job, jobs, warm=(("ghost-bids",), (seed, 0, 1, rules_vec, params))):
        total += s
        bids += b
        ests += e
        done = min(done + step, hands)
        if progress is not None:
            progress(done, hands)
    elapsed = time.perf_counter() - t0
    return {
        "summary": v.summarize(total, rules_d, name, seed, n_threads, elapsed),
        "bids": bids,
        "estimates": ests,
    }


def bid_job(job) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One batch of ``bid_stats``: ``(seed, first_hand, n, rules_vec, params)`` -> summed (summary, bids, estimates)."""
    seed, first, n, rules_vec, params = job
    n_chunks = -(-n // runner.CHUNK_SIZE)
    c0 = first // runner.CHUNK_SIZE
    summary = np.zeros((n_chunks, gk.S_WIDTH), np.int64)
    b_acc = np.zeros((n_chunks, gst.N_BID_CELLS, gst.H_WIDTH), np.int64)
    e_acc = np.zeros((n_chunks, gst.N_LEVELS * gst.N_EST, gst.H_WIDTH), np.int64)
    gs.simulate_kernel(params, rules_vec)(
        runner.chunk_states(seed, c0, n_chunks), runner.decision_states(seed, c0, n_chunks), first,
        runner.CHUNK_SIZE, n, rules_vec, params, runner.get_variant("ghost").target, False,
        np.zeros((1, gk.R_WIDTH), np.int64), summary, b_acc, e_acc, gk.search_arg(params),
    )
    return summary.sum(axis=0), b_acc.sum(axis=0), e_acc.sum(axis=0)


def swap_job(job) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One batch of ``swap_values``: ``(seed, first_deal, n, rules_vec, params, paired, want_rows)`` -> (acc, mirror, rows)."""
    seed, first, n, rules_vec, params, paired, want_rows = job
    n_chunks = -(-n // runner.CHUNK_SIZE)
    c0 = first // runner.CHUNK_SIZE
    b_acc = np.zeros((n_chunks, 3, gst.N_EST, gst.SW_WIDTH), np.int64)
    rows = np.zeros((3 * n if want_rows else 0, gst.SR_WIDTH), np.int64)
    m_acc = np.zeros((n_chunks, 3, gst.MI_WIDTH), np.int64)
    gst.swap_chunks(
        runner.chunk_states(seed, c0, n_chunks), runner.decision_states(seed, c0, n_chunks), first,
        runner.CHUNK_SIZE, n, rules_vec, params, runner.get_variant("ghost").target, paired, b_acc, rows, m_acc,
        gk.search_arg(params),
    )
    return b_acc.sum(axis=0), m_acc.sum(axis=0), rows


def swap_values(
    deals: int,
    seed: int = 0,
    threads: int | None = None,
    rules: dict | None = None,
    strategy="default",
    paired: bool = True,
    want_rows: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Replay every swap decision point of ``deals`` deals with the swap taken and refused.

    Returns ``acc`` (3 positions, N_EST buckets, SW_WIDTH) summed over the
    run, ``mirror`` (3 positions, MI_WIDTH; paired only: each decision point
    also played on its mirror deal), ``rows`` (deals * 3, SR_WIDTH) when ``want_rows`` (paired only),
    ``deals``, ``paired`` and ``elapsed_s``. Unpaired mode plays the refusing
    branch on separate deals (the comparison the paired design improves on).
    """
    v, rules_d, rules_vec = runner.resolve_run("ghost", seed, rules)
    if rules_d["swap"] == "none":
        raise runner.RunError("the swap analysis needs the rule swap=at_turn")
    name, params = runner.seat_params(strategy)
    if not isinstance(deals, (int, np.integer)) or deals <= 0:
        raise runner.RunError(f"the number of deals must be a positive integer, got {deals!r}")
    n_threads = runner.set_threads(threads)
    acc = np.zeros((3, gst.N_EST, gst.SW_WIDTH), np.int64)
    mirror = np.zeros((3, gst.MI_WIDTH), np.int64)
    all_rows = [] if want_rows else None
    t0 = time.perf_counter()
    step = runner.summary_batch(dist.current()) * runner.CHUNK_SIZE
    jobs = ((seed, f, min(step, deals - f), rules_vec, params, paired, want_rows) for f in range(0, deals, step))
    warm = (("ghost-swaps", paired, want_rows), (seed, 0, 1, rules_vec, params, paired, want_rows))
    done = 0
    for a, m, rows in dist.current().map(swap_job, jobs, warm=warm):
        acc += a
        mirror += m
        if want_rows:
            all_rows.append(rows)
        done = min(done + step, deals)
        if progress is not None:
            progress(done, deals)
    return {
        "acc": acc,
        "mirror": mirror if paired else None,
        "rows": np.concatenate(all_rows) if want_rows else None,
        "deals": deals,
        "paired": paired,
        "rules": rules_d,
        "strategy": name,
        "seed": seed,
        "threads": n_threads,
        "elapsed_s": time.perf_counter() - t0,
    }
