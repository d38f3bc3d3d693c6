"""Orchestration: seeds chunks, calls the kernels in batches, merges counters, streams records.

Hands of a run are numbered 0..N-1 and cut into fixed chunks of
``CHUNK_SIZE`` hands; chunk ``c`` draws from its own xoshiro256** state,
``SeedSequence(seed, spawn_key=(c,))``. Threads only decide who runs which
chunk, so a seed gives the same numbers for any thread count.
"""

from __future__ import annotations

import time
from typing import Callable

import numba
import numpy as np

from analysis.intervals import mean_interval, wilson
from kernels import games as kg
from kernels.cutthroat import hand as ck
from kernels.cutthroat import drivers as cs
from kernels.ghost import hand as gk
from kernels.ghost import drivers as gs
from kernels.hasenpfeffer import hand as hk
from kernels.hasenpfeffer import drivers as hs
from sim import records as rec_mod
from sim.errors import UserError
from sim.rules import RULES_VERSION, encode, get_variant, resolve
from sim.strategy import load_strategy, to_vector

TARGET = get_variant("ghost").target
CHUNK_SIZE = 4096  # hands per chunk (independent hands)
GAME_CHUNK_SETS = 64  # deal sets per chunk (whole games)
SUMMARY_BATCH_CHUNKS = 64
RECORD_BATCH_CHUNKS = 2
GAME_BATCH_CHUNKS = 32
MAX_HANDS_PER_GAME = 1000


class RunError(UserError, ValueError):
    """A run that cannot start: bad hand count, thread count, and the like."""


def chunk_states(seed: int, first_chunk: int, n_chunks: int) -> np.ndarray:
    """xoshiro256** states (n_chunks, 4) for chunks ``first_chunk ..`` of a run seeded ``seed``."""
    out = np.empty((n_chunks, 4), np.uint64)
    for i in range(n_chunks):
        ss = np.random.SeedSequence(seed, spawn_key=(first_chunk + i,))
        out[i] = ss.generate_state(4, np.uint64)
    return out


def decision_states(seed: int, first_chunk: int, n_chunks: int) -> np.ndarray:
    """States of the decision streams (random strategies) of hand chunks: ``spawn_key=(c, 1)``."""
    out = np.empty((n_chunks, 4), np.uint64)
    for i in range(n_chunks):
        ss = np.random.SeedSequence(seed, spawn_key=(first_chunk + i, 1))
        out[i] = ss.generate_state(4, np.uint64)
    return out


def max_threads() -> int:
    """Threads available to the kernels (all cores unless NUMBA_NUM_THREADS says less)."""
    return numba.config.NUMBA_NUM_THREADS


def set_threads(threads: int | None) -> int:
    """Use ``threads`` kernel threads (None: all); returns the count in force."""
    n = max_threads() if threads is None else int(threads)
    if not 1 <= n <= max_threads():
        raise RunError(f"--threads must be between 1 and {max_threads()} on this machine, got {threads}")
    numba.set_num_threads(n)
    return n


def _kernels(variant: str):
    """(record/summary layout module, simulation module) of a variant's kernels."""
    return {"cutthroat": (ck, cs), "hasenpfeffer": (hk, hs)}.get(variant, (gk, gs))


def _simulate_chunks(variant, states, dstates, first, n, rules_vec, params, want_records, records, summary):
    """Run a variant's hand kernel on a batch of chunks."""
    if variant in ("cutthroat", "hasenpfeffer"):
        _kernels(variant)[1].simulate_chunks(states, dstates, first, CHUNK_SIZE, n, rules_vec, params, want_records,
                                             records, summary)
    else:
        gs.simulate_chunks(states, dstates, first, CHUNK_SIZE, n, rules_vec, params, TARGET, want_records, records,
                           summary, *_no_stats(states.shape[0]))


def warm_up(rules_vec: np.ndarray, params: np.ndarray, variant: str = "ghost") -> tuple[float, bool]:
    """Load or compile the simulation kernel before timing; (seconds, whether it compiled)."""
    k, sim = _kernels(variant)
    t0 = time.perf_counter()
    before = sum(sim.simulate_chunks.stats.cache_misses.values())
    _simulate_chunks(variant, chunk_states(0, 0, 1), decision_states(0, 0, 1), 0, 1, rules_vec, params, False,
                     np.zeros((1, k.R_WIDTH), np.int64), np.zeros((1, k.S_WIDTH), np.int64))
    compiled = sum(sim.simulate_chunks.stats.cache_misses.values()) > before
    return time.perf_counter() - t0, compiled


def _no_stats(n_chunks: int) -> tuple[np.ndarray, np.ndarray]:
    """Empty bid-histogram arguments for ``simulate_chunks`` runs that keep no histograms."""
    return np.zeros((n_chunks, 0, 4), np.int64), np.zeros((n_chunks, 0, 4), np.int64)


def seat_params(strategy, variant: str = "ghost") -> tuple[str, np.ndarray]:
    """(name, params by seat (seats, P)) for one strategy in every seat, or a list of one per seat."""
    seats = get_variant(variant).players
    if isinstance(strategy, (list, tuple)):
        if len(strategy) != seats:
            raise RunError(f"need one strategy per seat ({seats}), got {len(strategy)}")
        loaded = [load_strategy(x, variant) for x in strategy]
        return "/".join(n for n, _ in loaded), np.stack([to_vector(p, variant) for _, p in loaded])
    name, params = load_strategy(strategy, variant)
    return name, np.tile(to_vector(params, variant), (seats, 1))


def resolve_run(variant, seed, rules):
    """(variant, full rule dict, encoded rule vector) for a run; RuleError/RunError on bad input."""
    v = get_variant(variant)
    if not isinstance(seed, (int, np.integer)) or seed < 0:
        raise RunError(f"seed must be a non-negative integer, got {seed!r}")
    rules_d = resolve(v, rules)
    return v, rules_d, encode(v, rules_d)


def run_hands(
    start: int,
    count: int,
    seed: int,
    rules_vec: np.ndarray,
    params: np.ndarray,
    want_records: bool,
    on_batch: Callable[[int, np.ndarray | None, np.ndarray], None],
    batch_chunks: int,
    variant: str = "ghost",
) -> None:
    """Play hands ``start .. start+count-1`` (start a multiple of CHUNK_SIZE), batch by batch.

    ``on_batch(first_hand, records or None, summary_rows)`` gets each batch in
    hand order.
    """
    k, _ = _kernels(variant)
    assert start % CHUNK_SIZE == 0
    end = start + count
    first = start
    while first < end:
        n = min(batch_chunks * CHUNK_SIZE, end - first)
        n_chunks = -(-n // CHUNK_SIZE)
        c0 = first // CHUNK_SIZE
        states, dstates = chunk_states(seed, c0, n_chunks), decision_states(seed, c0, n_chunks)
        records = np.zeros((n if want_records else 1, k.R_WIDTH), np.int64)
        summary = np.zeros((n_chunks, k.S_WIDTH), np.int64)
        _simulate_chunks(variant, states, dstates, first, n, rules_vec, params, want_records, records, summary)
        on_batch(first, records if want_records else None, summary)
        first += n


def simulate(
    variant: str = "ghost",
    hands: int = 1_000_000,
    seed: int = 0,
    threads: int | None = None,
    rules: dict | None = None,
    strategy: str | dict = "default",
    records_path: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Simulate ``hands`` independent hands and return the summary dict (see ``summarize``).

    With ``records_path`` (``.jsonl`` or ``.parquet``) every hand's record is
    streamed to that file, written atomically (complete or not at all).
    """
    v, rules_d, rules_vec = resolve_run(variant, seed, rules)
    strategy_name, params = seat_params(strategy, v.name)
    if not isinstance(hands, (int, np.integer)) or hands <= 0:
        raise RunError(f"--hands must be a positive integer, got {hands!r}")
    n_threads = set_threads(threads)
    k, _ = _kernels(v.name)
    writer = rec_mod.open_writer(records_path, v, rules_d) if records_path else None
    try:
        warm_s, compiled = warm_up(rules_vec, params, v.name)
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    total = np.zeros(k.S_WIDTH, np.int64)
    t0 = time.perf_counter()
    done = 0

    def on_batch(first, recs, summary):
        nonlocal done
        total[:] += summary.sum(axis=0)
        if writer is not None:
            writer.write(first, recs)
        done += len(recs) if recs is not None else int(summary[:, k.S_HANDS].sum())
        if progress is not None:
            progress(done, hands)

    try:
        run_hands(
            0, hands, seed, rules_vec, params, writer is not None, on_batch,
            RECORD_BATCH_CHUNKS if writer is not None else SUMMARY_BATCH_CHUNKS, v.name,
        )
        if writer is not None:
            writer.close()
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    elapsed = time.perf_counter() - t0
    summary = _summarizer(v.name)(total, v.name, rules_d, strategy_name, seed, n_threads, elapsed)
    summary["warm_up_s"] = warm_s
    summary["compiled"] = compiled
    return summary


def rows_run(variant: str, hands: int, seed: int, threads: int | None, rules: dict | None, strategy,
             on_rows: Callable[[np.ndarray], None], progress: Callable[[int, int], None] | None = None) -> dict:
    """Play ``hands`` hands handing each batch's kernel record rows to ``on_rows``; returns the run summary.

    For tables that fold the records batch by batch (the Cutthroat and
    Hasenpfeffer reports): memory does not grow with ``hands``.
    """
    v, rules_d, rules_vec = resolve_run(variant, seed, rules)
    name, params = seat_params(strategy, v.name)
    if not isinstance(hands, (int, np.integer)) or hands <= 0:
        raise RunError(f"--hands must be a positive integer, got {hands!r}")
    n_threads = set_threads(threads)
    k, _ = _kernels(v.name)
    total = np.zeros(k.S_WIDTH, np.int64)
    done = 0
    t0 = time.perf_counter()

    def on_batch(first, recs, summary):
        nonlocal done
        total[:] += summary.sum(axis=0)
        on_rows(recs)
        done += len(recs)
        if progress is not None:
            progress(done, hands)

    run_hands(0, hands, seed, rules_vec, params, True, on_batch, 16, v.name)
    return _summarizer(v.name)(total, v.name, rules_d, name, seed, n_threads, time.perf_counter() - t0)


def _summarizer(variant: str):
    """The function that turns a variant's merged counters into its summary dict."""
    if variant == "cutthroat":
        from sim.cutthroat import summarize as cutthroat_summarize

        return cutthroat_summarize
    if variant == "hasenpfeffer":
        from sim.hasenpfeffer import summarize as hasenpfeffer_summarize

        return hasenpfeffer_summarize
    return summarize


def summarize(total: np.ndarray, variant: str, rules: dict, strategy: str, seed: int, threads: int, elapsed: float) -> dict:
    """The summary dict of a run from its merged counters."""
    n = int(total[gk.S_HANDS])
    bids = {}
    for i, name in enumerate(("3", "4", "5", "moon")):
        count = int(total[gk.S_BIDS + i])
        made = int(total[gk.S_MADE + i])
        low, high = wilson(made, count) if count else (None, None)
        bids[name] = {"count": count, "made": made, "make_rate": made / count if count else None, "make_rate_ci95": [low, high]}
    positions = ("1", "2", "3")
    return {
        "variant": variant,
        "rules_version": RULES_VERSION,
        "rules": rules,
        "strategy": strategy,
        "seed": seed,
        "threads": threads,
        "hands": n,
        "thrown_in": int(total[gk.S_THROWN]),
        "played": n - int(total[gk.S_THROWN]),
        "swaps": int(total[gk.S_SWAPS]),
        "swaps_by_position": {p: int(total[gk.S_SWAP_POS + i]) for i, p in enumerate(positions)},
        "bids": bids,
        "moons_called": bids["moon"]["count"],
        "moons_made": bids["moon"]["made"],
        "makers_by_position": {p: int(total[gk.S_MAKER_POS + i]) for i, p in enumerate(positions)},
        "points_per_hand_by_position": {p: int(total[gk.S_POINTS + i]) / n for i, p in enumerate(positions)},
        "points_per_hand_ci95_by_position": {
            p: list(mean_interval(int(total[gk.S_POINTS + i]), int(total[gk.S_POINTS_SQ + i]), n)[1:])
            for i, p in enumerate(positions)
        },
        "tricks_per_hand_by_position": {p: int(total[gk.S_TRICKS + i]) / n for i, p in enumerate(positions)},
        "elapsed_s": elapsed,
        "hands_per_second": n / elapsed if elapsed > 0 else None,
    }


def hand_records(seed: int, start: int, count: int, rules: dict | None = None, strategy="default",
                 variant: str = "ghost") -> list[dict]:
    """Records (dicts, as written to ``.jsonl``) of hands ``start .. start+count-1`` of a run.

    ``strategy``: one strategy for every seat, or a list of three (by seat).
    """
    v, rules_d, rules_vec = resolve_run(variant, seed, rules)
    _, params = seat_params(strategy, v.name)
    chunk_start = start - start % CHUNK_SIZE
    out: list[dict] = []

    def on_batch(first, recs, summary):
        out.extend(rec_mod.to_dicts(recs, first, v, rules_d))

    run_hands(chunk_start, start + count - chunk_start, seed, rules_vec, params, True, on_batch, RECORD_BATCH_CHUNKS,
              v.name)
    return out[start - chunk_start:]


def deal_masks(seed: int, start: int, count: int) -> np.ndarray:
    """Ghost Hand deals of hands ``start ..`` as masks (count, 4): position 1, 2, 3 (dealer), ghost."""
    out = np.empty((count, 4), np.int64)
    h = start
    while h < start + count:
        c = h // CHUNK_SIZE
        chunk_first = c * CHUNK_SIZE
        upto = min((c + 1) * CHUNK_SIZE, start + count)
        tmp = np.empty((upto - chunk_first, 4), np.int64)
        gs.deal_chunk(chunk_states(seed, c, 1)[0], upto - chunk_first, tmp)
        out[h - start: upto - start] = tmp[h - chunk_first:]
        h = upto
    return out


def play_with_choices(hands: list[int], trump: int, leader: int, choices: list[int]) -> dict:
    """Play six tricks from the given hands (by seat), each play the ``choices[i] % n``-th legal card."""
    h = np.array(hands, np.int64)
    rec = np.zeros(gk.R_WIDTH, np.int64)
    tricks = np.zeros(gk.N_SEATS, np.int64)
    ch = np.array(choices, np.int64)
    if ch.shape[0] < gk.N_PLAYS:
        raise ValueError(f"need {gk.N_PLAYS} choices")
    _, params = seat_params("default")
    dstate, dbuf = decision_states(0, 0, 1)[0], np.zeros(2, np.int64)
    gk.play_tricks(h, np.int64(trump), np.int64(leader), np.int64(leader), params, ch, dstate, dbuf, rec, tricks)
    plays = [(int(rec[gk.R_PLAYS + 2 * i]), int(rec[gk.R_PLAYS + 2 * i + 1])) for i in range(gk.N_PLAYS)]
    return {"plays": plays, "tricks": [int(t) for t in tricks]}


def score_hand(maker: int, bid: int, tricks: list[int], rules: dict | None = None) -> list[int]:
    """Points per seat for a Ghost Hand hand with the given maker, bid (6 = moon) and tricks."""
    v = get_variant("ghost")
    vec = encode(v, resolve(v, rules))
    points = np.zeros(gk.N_SEATS, np.int64)
    gk.score_hand(np.int64(maker), np.int64(bid), np.array(tricks, np.int64), vec, points)
    return [int(p) for p in points]


# ---------------------------------------------------------------- whole games


def run_games(
    seed: int,
    n_sets: int,
    assignments: np.ndarray,
    strat_params: np.ndarray,
    duplicate: bool,
    rules_vec: np.ndarray,
    on_batch: Callable[[int, dict], None],
    first_set: int = 0,
    max_hands: int = MAX_HANDS_PER_GAME,
    variant: str = "ghost",
) -> None:
    """Play deal sets ``first_set .. first_set + n_sets - 1`` (first_set a multiple of GAME_CHUNK_SETS).

    In each set one game per row of ``assignments`` (strategy index by seat).
    ``on_batch(first_set, out)`` receives each batch's arrays: ``set_wins``
    (sets, strategies), ``games`` (sets * assignments, GO_WIDTH), and the
    summed counters ``hand``, ``strategy``, ``game``.
    """
    assert first_set % GAME_CHUNK_SETS == 0
    k, sim = _kernels(variant)
    target = get_variant(variant).target
    assignments = np.ascontiguousarray(assignments, np.int64)
    strat_params = np.ascontiguousarray(strat_params, np.float64)
    n_strat, n_assign = strat_params.shape[0], assignments.shape[0]
    end = first_set + n_sets
    first = first_set
    while first < end:
        n = min(GAME_BATCH_CHUNKS * GAME_CHUNK_SETS, end - first)
        n_chunks = -(-n // GAME_CHUNK_SETS)
        states = chunk_states(seed, first // GAME_CHUNK_SETS, n_chunks)
        set_wins = np.zeros((n, n_strat), np.int64)
        games = np.zeros((n * n_assign, kg.GO_WIDTH), np.int64)
        hand_acc = np.zeros((n_chunks, k.S_WIDTH), np.int64)
        strat_acc = np.zeros((n_chunks, n_strat, kg.ST_WIDTH), np.int64)
        game_acc = np.zeros((n_chunks, kg.GA_WIDTH), np.int64)
        sim.games_chunks(
            states, GAME_CHUNK_SETS, n, assignments, duplicate, rules_vec, strat_params, target, max_hands,
            set_wins, games, hand_acc, strat_acc, game_acc,
        )
        on_batch(first, {
            "set_wins": set_wins, "games": games,
            "hand": hand_acc.sum(axis=0), "strategy": strat_acc.sum(axis=0), "game": game_acc.sum(axis=0),
        })
        first += n


def simulate_games(
    variant: str = "ghost",
    games: int = 100_000,
    seed: int = 0,
    threads: int | None = None,
    rules: dict | None = None,
    strategy="default",
    progress: Callable[[int, int], None] | None = None,
) -> dict:
    """Play ``games`` whole games (every seat ``strategy``) and return the hand summary plus game results.

    Game-level keys: ``games``, ``unfinished``, ``hands_per_game`` (with 95%
    interval), ``win_share_by_start`` (starting position 1 = seat 0, which is
    the dealer's left in the first hand) with Wilson intervals,
    ``mean_final_margin`` (winner's score minus the best other), and
    ``tiebreak_games`` (games that went on past a tie at the top).
    """
    v, rules_d, rules_vec = resolve_run(variant, seed, rules)
    if not isinstance(games, (int, np.integer)) or games <= 0:
        raise RunError(f"--games must be a positive integer, got {games!r}")
    name, params = load_strategy(strategy, v.name)
    n_threads = set_threads(threads)
    strat_params = to_vector(params, v.name)[None, :]
    assignments = np.zeros((1, v.players), np.int64)
    k, sim = _kernels(v.name)
    t_warm = time.perf_counter()
    before = sum(sim.games_chunks.stats.cache_misses.values())
    run_games(seed, 1, assignments, strat_params, True, rules_vec, lambda f, o: None, variant=v.name)
    compiled = sum(sim.games_chunks.stats.cache_misses.values()) > before
    warm_s = time.perf_counter() - t_warm
    hand_tot = np.zeros(k.S_WIDTH, np.int64)
    game_tot = np.zeros(kg.GA_WIDTH, np.int64)
    t0 = time.perf_counter()

    def on_batch(first, out):
        hand_tot[:] += out["hand"]
        game_tot[:] += out["game"]
        if progress is not None:
            progress(int(game_tot[kg.GA_GAMES]), games)

    run_games(seed, games, assignments, strat_params, True, rules_vec, on_batch, variant=v.name)
    elapsed = time.perf_counter() - t0
    summary = _summarizer(v.name)(hand_tot, v.name, rules_d, name, seed, n_threads, elapsed)
    summary.update(game_summary(game_tot, v.name))
    summary["games_per_second"] = games / elapsed if elapsed > 0 else None
    summary["max_hands_per_game"] = MAX_HANDS_PER_GAME
    summary["warm_up_s"] = warm_s
    summary["compiled"] = compiled
    return summary


def game_summary(g: np.ndarray, variant: str = "ghost") -> dict:
    """Game-level results from summed game counters.

    Wins are by starting position (1 = position 1 in the first hand); in
    Hasenpfeffer by side, ``"1"`` being the side of position 1 in the first
    hand (seats 0 & 2) and ``"2"`` the dealer's side; ``tiebreak_games`` then
    counts the games both sides reached the target on the same hand.
    """
    n = int(g[kg.GA_GAMES])
    finished = n - int(g[kg.GA_UNFINISHED])
    mean, low, high = mean_interval(int(g[kg.GA_HANDS]), int(g[kg.GA_HANDS_SQ]), n)
    starts = 2 if variant == "hasenpfeffer" else gk.N_SEATS
    wins = {str(p + 1): int(g[kg.GA_WINS + p]) for p in range(starts)}
    return {
        "games": n,
        "unfinished": n - finished,
        "tiebreak_games": int(g[kg.GA_TIEBREAKS]),
        "hands_per_game": mean,
        "hands_per_game_ci95": [low, high],
        "wins_by_start": wins,
        "win_share_by_start": {p: w / n for p, w in wins.items()},
        "win_share_ci95_by_start": {p: list(wilson(w, n)) for p, w in wins.items()},
        "mean_final_margin": int(g[kg.GA_MARGIN]) / finished if finished else None,
    }


def game_results(
    seed: int,
    start: int,
    count: int,
    rules: dict | None = None,
    strategies=("default",),
    assignments=((0, 0, 0),),
    duplicate: bool = True,
    variant: str = "ghost",
) -> list[dict]:
    """Per-game results of deal sets ``start .. start+count-1``: one dict per (set, assignment).

    Each dict: ``set``, ``assignment`` (strategy index by seat), ``winner``
    (seat or None when unfinished), ``hands``, ``scores`` (by seat).
    """
    v, rules_d, rules_vec = resolve_run(variant, seed, rules)
    n_scores = 2 if v.name == "hasenpfeffer" else v.players
    strat_params = np.stack([to_vector(load_strategy(s, v.name)[1], v.name) for s in strategies])
    assign = np.array(assignments, np.int64)
    chunk_start = start - start % GAME_CHUNK_SETS
    out: list[dict] = []

    def on_batch(first, o):
        games = o["games"]
        for i in range(games.shape[0]):
            g, a = divmod(i, assign.shape[0])
            row = games[i].tolist()
            out.append({
                "set": first + g,
                "assignment": assign[a].tolist(),
                "winner": row[kg.GO_WINNER] if row[kg.GO_WINNER] >= 0 else None,
                "hands": row[kg.GO_HANDS],
                "scores": row[kg.GO_SCORES: kg.GO_SCORES + n_scores],
            })

    run_games(seed, start + count - chunk_start, assign, strat_params, duplicate, rules_vec, on_batch, chunk_start,
              variant=v.name)
    skip = (start - chunk_start) * assign.shape[0]
    return out[skip:]


def play_forced(
    dealt: list[int],
    dealer: int,
    force: tuple[int, int, int, int, int] | None = None,
    rules: dict | None = None,
    strategy="default",
    scores: tuple[int, int, int] = (0, 0, 0),
    seed: int = 0,
) -> dict:
    """The record of one hand played from given masks (position 1, 2, 3, ghost) with one decision forced.

    ``force`` = (seat, at, swap, call, trump) as ``kernels.ghost.F_*`` (-1
    for "as the strategy does"; ``at`` -1 = the seat's first turn, else the
    turn made when that many calls have been made). Random strategies draw
    from the decision stream of hand chunk 0 of ``seed``. The kernel path
    used by should-bid and the swap analysis, exposed for the twin tests.
    """
    v, rules_d, rules_vec = resolve_run("ghost", seed, rules)
    _, params = seat_params(strategy)
    f = gk.NO_FORCE.copy() if force is None else np.array(force, np.int64)
    rec = np.zeros(gk.R_WIDTH, np.int64)
    work = np.zeros(16, np.int64)
    dstate, dbuf = decision_states(seed, 0, 1)[0], np.zeros(2, np.int64)
    gk.play_dealt(np.array(dealt, np.int64), dstate, dbuf, work, np.int64(dealer), rules_vec, params,
                  np.array(scores, np.int64), np.int64(TARGET), f, rec)
    return rec_mod.row_to_dict(rec, 0, v, rules_d)
