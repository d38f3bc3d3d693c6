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

from bower.analysis.intervals import mean_interval, wilson
from bower.kernels import games as kg
from bower.sim import distributed as dist
from bower.sim import records as rec_mod
from bower.sim.errors import UserError
from bower.sim.limits import MAX_GAMES, MAX_HANDS, MAX_HANDS_PER_GAME, MAX_SAMPLES, MAX_SEED  # noqa: F401
from bower.sim.rules import encode, get_variant, resolve
from bower.sim.strategy import load_strategy, to_vector
from bower.sim.text import limit_text, number_text

CHUNK_SIZE = 4096  # hands per chunk (independent hands)
GAME_CHUNK_SETS = 64  # deal sets per chunk (whole games)
SUMMARY_BATCH_CHUNKS = 64
DASK_SUMMARY_BATCH_CHUNKS = 128  # 524,288 hands a Dask task: its fixed cost under 5% (benchmarks/RESULTS.md)
RECORD_BATCH_CHUNKS = 8  # 32,768 hands a batch written (a Parquet row group)
RECORD_WORKERS = 2  # threads that turn batches of kernel rows into Arrow columns or JSON text, beside the kernels'
GAME_BATCH_CHUNKS = 32


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


def check_count(flag: str, n, limit: int) -> int:
    """``n`` if it is a whole number from 1 to ``limit``; RunError naming ``flag`` and the limit otherwise."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 0:
        raise RunError(f"{flag} must be a positive integer, got {number_text(n)}")
    if n > limit:
        raise RunError(f"{flag} {number_text(int(n))} is more than any run could finish: at most {limit_text(limit)}")
    return int(n)


def start_units(v) -> str:
    """What ``--start`` lists for variant ``v``: the two side scores, or one score per seat."""
    if v.partnerships:
        return "two side scores, the side of seats 0 & 2 first"
    return f"{v.score_units} player scores, seat 0 first"


def check_start(value, v, flag: str = "--start") -> np.ndarray | None:
    """A game's starting scores: ``"4,9"`` (as typed) or a sequence of whole numbers, by side (partnerships) or
    by seat; as an int64 array, or None for None (0s).

    RunError naming ``flag`` for a score that is not a whole number, negative, at or beyond the variant's target,
    or the wrong count. The text of each number is read for its size before it is expanded (``1e999999999`` is
    refused at once).
    """
    from bower.sim.text import given_text, whole_number

    if value is None:
        return None
    if isinstance(value, str):
        shown = given_text(value)
        parts = value.split(",")
    elif isinstance(value, (list, tuple, np.ndarray)):
        parts = list(value)
        shown = ",".join(number_text(int(x)) if isinstance(x, (int, np.integer)) and not isinstance(x, bool)
                         else given_text(repr(x), 12) for x in parts[:8]) + (",..." if len(parts) > 8 else "")
    else:
        raise RunError(f"{flag} must be {start_units(v)} ('4,9' or a list of whole numbers), "
                       f"got {given_text(repr(value))}")
    head = f"{flag} {shown}"
    if len(parts) != v.score_units:
        raise RunError(f"{head}: {v.title} takes {start_units(v)}, not {len(parts)} number(s)")
    out = []
    for x in parts:
        if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
            n = int(x)
        elif isinstance(x, str):
            try:
                n = whole_number(x) if x.strip() else None
            except ValueError:
                n = None
            except OverflowError:  # too many digits to expand: past any target, or below 0
                n = -1 if x.strip().startswith("-") else v.target
            if n is None:
                raise RunError(f"{head}: {given_text(x, 20)!r} is not a whole number")
        else:
            raise RunError(f"{head}: {given_text(repr(x), 20)} is not a whole number")
        word = given_text(x, 20) if isinstance(x, str) else number_text(n)
        if n < 0:
            raise RunError(f"{head}: {word} is negative; a game starts at scores of 0 or more")
        if n >= v.target:
            raise RunError(f"{head}: {word} is at or beyond the target ({v.target}); the game would be over")
        out.append(n)
    return np.array(out, np.int64)


def start_dict(start: np.ndarray | None) -> dict | None:
    """Starting scores as records and summaries key them (``{"0": 4, "1": 9}``, by side or seat); None for None."""
    return None if start is None else {str(k): int(x) for k, x in enumerate(start)}


def check_seed(seed) -> int:
    """``seed`` if it is a whole number from 0 to MAX_SEED; RunError (the CLI's words for ``--seed``) otherwise."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise RunError(f"--seed must be a non-negative integer, got {number_text(seed)}")
    if seed > MAX_SEED:
        raise RunError(f"--seed {number_text(int(seed))} is too large a seed: at most {limit_text(MAX_SEED)}")
    return int(seed)


def set_threads(threads: int | None) -> int:
    """Use ``threads`` kernel threads (None: all); returns the count in force."""
    n = max_threads() if threads is None else int(threads)
    if not 1 <= n <= max_threads():
        raise RunError(f"--threads must be between 1 and {max_threads()} on this machine, got {number_text(threads)}")
    numba.set_num_threads(n)
    return n


def _simulate_chunks(v, states, dstates, first, n, rules_vec, params, want_records, records, summary):
    """Run the variant's hand kernel on a batch of chunks."""
    v.run_chunks(states, dstates, first, CHUNK_SIZE, n, rules_vec, params, want_records, records, summary)


def _compiles(kernels) -> int:
    """How many signatures ``kernels`` compiled (cache misses) so far in this process."""
    return sum(sum(k.stats.cache_misses.values()) for k in kernels)


def warm_up(rules_vec: np.ndarray, params: np.ndarray, variant="ghost") -> tuple[float, bool]:
    """Load or compile the simulation kernel before timing; (seconds, whether it compiled)."""
    v = get_variant(variant)
    k, sim = v.hand_kernels, v.drivers
    t0 = time.perf_counter()
    before = _compiles(sim.SIMULATE_KERNELS)
    _simulate_chunks(v, chunk_states(0, 0, 1), decision_states(0, 0, 1), 0, 1, rules_vec, params, False,
                     np.zeros((1, k.R_WIDTH), np.int64), np.zeros((1, k.S_WIDTH), np.int64))
    compiled = _compiles(sim.SIMULATE_KERNELS) > before
    return time.perf_counter() - t0, compiled


def seat_params(strategy, variant="ghost") -> tuple[str, np.ndarray]:
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
    check_seed(seed)
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
    variant="ghost",
) -> None:
    """Play hands ``start .. start+count-1`` (start a multiple of CHUNK_SIZE), batch by batch.

    ``on_batch(first_hand, records or None, summary_rows)`` gets each batch in
    hand order. Each batch is one job of the executor in force
    (``bower.sim.distributed``): computed here, or as a Dask task.
    """
    v = get_variant(variant)
    assert start % CHUNK_SIZE == 0
    end = start + count
    firsts = list(range(start, end, batch_chunks * CHUNK_SIZE))
    jobs = ((v.name, seed, f, min(batch_chunks * CHUNK_SIZE, end - f), rules_vec, params, want_records)
            for f in firsts)
    warm = (("hands", v.name, want_records), (v.name, seed, start, 1, rules_vec, params, want_records))
    for first, (records, summary) in zip(firsts, dist.current().map(hands_job, jobs, warm=warm)):
        on_batch(first, records, summary)


def hands_job(job) -> tuple[np.ndarray | None, np.ndarray]:
    """One batch of hands: ``(variant, seed, first_hand, n, rules_vec, params, want_records)`` -> (records or None, summary rows).

    ``first_hand`` is a multiple of CHUNK_SIZE; the chunks are seeded from
    (seed, chunk index) alone, so the batch is the same wherever it runs.
    """
    name, seed, first, n, rules_vec, params, want_records = job
    v = get_variant(name)
    k = v.hand_kernels
    n_chunks = -(-n // CHUNK_SIZE)
    c0 = first // CHUNK_SIZE
    states, dstates = chunk_states(seed, c0, n_chunks), decision_states(seed, c0, n_chunks)
    records = np.zeros((n if want_records else 1, k.R_WIDTH), np.int64)
    summary = np.zeros((n_chunks, k.S_WIDTH), np.int64)
    _simulate_chunks(v, states, dstates, first, n, rules_vec, params, want_records, records, summary)
    return (records if want_records else None), summary


def simulate(
    variant="ghost",
    hands: int = 1_000_000,
    seed: int = 0,
    threads: int | None = None,
    rules: dict | None = None,
    strategy: str | dict = "default",
    records_path: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    command: str | None = None,
    scheduler=None,
) -> dict:
    """Simulate ``hands`` independent hands and return the summary dict (see ``summarize``).

    With ``records_path`` (``.jsonl`` or ``.parquet``) every hand's record is
    streamed to that file, written atomically (complete or not at all), with
    the run's metadata (``records_meta``; ``command``: the command line that
    made it, if any). ``scheduler``: where the batches run
    (``bower.sim.distributed.session``: None for this machine's threads,
    ``local:N``, a Dask scheduler address or client); the numbers are the same.
    """
    v, rules_d, rules_vec = resolve_run(variant, seed, rules)
    strategy_name, params = seat_params(strategy, v.name)
    hands = check_count("--hands", hands, MAX_HANDS)
    if records_path is not None and not str(records_path).strip():
        raise RunError("--records needs a file name ending in .jsonl or .parquet")
    n_threads = set_threads(threads)
    with dist.session(scheduler) as ex:
        return _simulate(v, rules_d, rules_vec, strategy, strategy_name, params, hands, seed, n_threads,
                         records_path, progress, command, ex)


def summary_batch(ex) -> int:
    """Chunks a batch of a summary run: bigger as Dask tasks, whose fixed cost (about 7 ms) they must outweigh."""
    return DASK_SUMMARY_BATCH_CHUNKS if ex.kind == "dask" else SUMMARY_BATCH_CHUNKS


def warm_executor(ex, fn, key, job) -> tuple[float, bool]:
    """Load the kernels on every Dask worker before the fan-out (``Dask.warm``); (seconds, False: not compiled here)."""
    t0 = time.perf_counter()
    ex.warm(fn, key, job)
    return time.perf_counter() - t0, False


def add_executor(summary: dict, ex) -> dict:
    """``summary`` with ``scheduler`` and ``workers`` when the run went through Dask."""
    if ex.kind == "dask":
        summary["scheduler"] = ex.address
        summary["workers"] = ex.workers
    return summary


def _simulate(v, rules_d, rules_vec, strategy, strategy_name, params, hands, seed, n_threads, records_path, progress,
              command, ex) -> dict:
    k = v.hand_kernels
    writer = None
    if records_path:
        meta = records_meta(v, strategy, strategy_name, seed, 0, hands, command)
        writer = rec_mod.BackgroundWriter(rec_mod.open_writer(records_path, v, rules_d, meta=meta),
                                          workers=RECORD_WORKERS)
    try:
        if ex.kind == "dask":
            warm_s, compiled = warm_executor(ex, hands_job, ("hands", v.name, writer is not None),
                                             (v.name, seed, 0, 1, rules_vec, params, writer is not None))
        else:
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
            RECORD_BATCH_CHUNKS if writer is not None else summary_batch(ex), v,
        )
        if writer is not None:
            writer.close()
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    elapsed = time.perf_counter() - t0
    summary = v.summarize(total, rules_d, strategy_name, seed, n_threads, elapsed)
    summary["warm_up_s"] = warm_s
    summary["compiled"] = compiled
    return add_executor(summary, ex)


def records_meta(v, strategy, strategy_name: str, seed: int, first_hand: int, hands: int,
                 command: str | None = None) -> dict:
    """What a records file says of the run that made it: every seat's strategy (name, parameters), seed, hands.

    ``seats``: one object per seat, ``{"seat", "strategy", "params"}``;
    ``strategy``: the run's strategy name (names joined by ``/`` when the
    seats differ); ``first_hand`` and ``hands``: the hand numbers
    ``first_hand .. first_hand + hands - 1``; ``command``: the command line.
    """
    specs = list(strategy) if isinstance(strategy, (list, tuple)) else [strategy] * v.players
    seats = []
    for seat, spec in enumerate(specs):
        name, params = load_strategy(spec, v.name)
        seats.append({"seat": seat, "strategy": name, "params": params})
    out = {"strategy": strategy_name, "seats": seats, "seed": int(seed), "first_hand": int(first_hand),
           "hands": int(hands)}
    if command is not None:
        out["command"] = command
    return out


def rows_run(variant: str, hands: int, seed: int, threads: int | None, rules: dict | None, strategy,
             on_rows: Callable[[np.ndarray], None], progress: Callable[[int, int], None] | None = None,
             scheduler=None) -> dict:
    """Play ``hands`` hands handing each batch's kernel record rows to ``on_rows``; returns the run summary.

    For tables that fold the records batch by batch (the Cutthroat and
    Hasenpfeffer reports): memory does not grow with ``hands``.
    """
    v, rules_d, rules_vec = resolve_run(variant, seed, rules)
    name, params = seat_params(strategy, v.name)
    hands = check_count("--hands", hands, MAX_HANDS)
    n_threads = set_threads(threads)
    k = v.hand_kernels
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

    with dist.session(scheduler) as ex:
        run_hands(0, hands, seed, rules_vec, params, True, on_batch, 16, v)
        return add_executor(v.summarize(total, rules_d, name, seed, n_threads, time.perf_counter() - t0), ex)


def hand_records(seed: int, start: int, count: int, rules: dict | None = None, strategy="default",
                 variant="ghost") -> list[dict]:
    """Records (dicts, as written to ``.jsonl``) of hands ``start .. start+count-1`` of a run.

    ``strategy``: one strategy for every seat, or a list of three (by seat).
    """
    v, rules_d, rules_vec = resolve_run(variant, seed, rules)
    _, params = seat_params(strategy, v.name)
    chunk_start = start - start % CHUNK_SIZE
    out: list[dict] = []

    def on_batch(first, recs, summary):
        out.extend(rec_mod.to_dicts(recs, first, v, rules_d))

    run_hands(chunk_start, start + count - chunk_start, seed, rules_vec, params, True, on_batch, RECORD_BATCH_CHUNKS, v)
    return out[start - chunk_start:]


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
    variant="ghost",
    start_scores: np.ndarray | None = None,
) -> None:
    """Play deal sets ``first_set .. first_set + n_sets - 1`` (first_set a multiple of GAME_CHUNK_SETS).

    In each set one game per row of ``assignments`` (strategy index by seat),
    every game from the scores ``start_scores`` (by side or seat, ``check_start``; None: 0s).
    ``on_batch(first_set, out)`` receives each batch's arrays: ``set_wins``
    (sets, strategies), ``games`` (sets * assignments, GO_WIDTH), and the
    summed counters ``hand``, ``strategy``, ``game``. Each batch is one job of
    the executor in force (``bower.sim.distributed``).
    """
    assert first_set % GAME_CHUNK_SETS == 0
    v = get_variant(variant)
    assignments = np.ascontiguousarray(assignments, np.int64)
    strat_params = np.ascontiguousarray(strat_params, np.float64)
    end = first_set + n_sets
    step = GAME_BATCH_CHUNKS * GAME_CHUNK_SETS
    firsts = list(range(first_set, end, step))
    start_scores = np.zeros(v.score_units, np.int64) if start_scores is None else np.ascontiguousarray(
        start_scores, np.int64)
    jobs = ((v.name, seed, f, min(step, end - f), assignments, strat_params, duplicate, rules_vec, max_hands,
             start_scores) for f in firsts)
    warm = (("games", v.name), (v.name, seed, first_set, 1, assignments, strat_params, duplicate, rules_vec, max_hands,
                                start_scores))
    for first, out in zip(firsts, dist.current().map(games_job, jobs, warm=warm)):
        on_batch(first, out)


def games_job(job) -> dict:
    """One batch of deal sets: ``(variant, seed, first_set, n, assignments, strat_params, duplicate, rules_vec, max_hands,
    start_scores)`` (the last optional: 0s).

    Returns the dict ``run_games`` hands to ``on_batch``; chunks are seeded
    from (seed, chunk index) alone.
    """
    name, seed, first, n, assignments, strat_params, duplicate, rules_vec, max_hands = job[:9]
    v = get_variant(name)
    start_scores = job[9] if len(job) > 9 else np.zeros(v.score_units, np.int64)
    k, sim = v.hand_kernels, v.drivers
    n_strat, n_assign = strat_params.shape[0], assignments.shape[0]
    n_chunks = -(-n // GAME_CHUNK_SETS)
    states = chunk_states(seed, first // GAME_CHUNK_SETS, n_chunks)
    set_wins = np.zeros((n, n_strat), np.int64)
    games = np.zeros((n * n_assign, kg.GO_WIDTH), np.int64)
    hand_acc = np.zeros((n_chunks, k.S_WIDTH), np.int64)
    strat_acc = np.zeros((n_chunks, n_strat, kg.ST_WIDTH), np.int64)
    game_acc = np.zeros((n_chunks, kg.GA_WIDTH), np.int64)
    sim.games_chunks(
        states, GAME_CHUNK_SETS, n, assignments, duplicate, rules_vec, strat_params, v.target, max_hands,
        set_wins, games, hand_acc, strat_acc, game_acc, k.search_arg(strat_params), start_scores,
    )
    return {
        "set_wins": set_wins, "games": games,
        "hand": hand_acc.sum(axis=0), "strategy": strat_acc.sum(axis=0), "game": game_acc.sum(axis=0),
    }


def simulate_games(
    variant="ghost",
    games: int = 100_000,
    seed: int = 0,
    threads: int | None = None,
    rules: dict | None = None,
    strategy="default",
    progress: Callable[[int, int], None] | None = None,
    scheduler=None,
    start=None,
) -> dict:
    """Play ``games`` whole games (every seat ``strategy``) and return the hand summary plus game results.

    ``scheduler`` as for ``simulate``. ``start``: every game's starting
    scores (``check_start``: ``"4,9"`` or a sequence, by side or by seat;
    None: 0s, and the summary then has no ``start``), with the dealer as
    from 0s.

    Game-level keys: ``games``, ``unfinished``, ``hands_per_game`` (with 95%
    interval), ``win_share_by_start`` (starting position 1 = seat 0, which is
    the dealer's left in the first hand) with Wilson intervals,
    ``mean_final_margin`` (winner's score minus the best other), and
    ``tiebreak_games`` (games that went on past a tie at the top); under
    Euchre's ``four_trick_tokens`` ``token_summary``'s keys.
    """
    v, rules_d, rules_vec = resolve_run(variant, seed, rules)
    games = check_count("--games", games, MAX_GAMES)
    start_scores = check_start(start, v)
    name, params = load_strategy(strategy, v.name)
    n_threads = set_threads(threads)
    strat_params = to_vector(params, v.name)[None, :]
    assignments = np.zeros((1, v.players), np.int64)
    with dist.session(scheduler) as ex:
        return _simulate_games(v, rules_d, rules_vec, name, strat_params, assignments, games, seed, n_threads,
                               progress, ex, start_scores)


def _simulate_games(v, rules_d, rules_vec, name, strat_params, assignments, games, seed, n_threads, progress, ex,
                    start_scores=None):
    k, sim = v.hand_kernels, v.drivers
    t_warm = time.perf_counter()
    if ex.kind == "dask":
        warm_s, compiled = warm_executor(ex, games_job, ("games", v.name), (
            v.name, seed, 0, 1, assignments, strat_params, True, rules_vec, MAX_HANDS_PER_GAME))
    else:
        before = sum(sim.games_chunks.stats.cache_misses.values())
        run_games(seed, 1, assignments, strat_params, True, rules_vec, lambda f, o: None, variant=v,
                  start_scores=start_scores)
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

    run_games(seed, games, assignments, strat_params, True, rules_vec, on_batch, variant=v, start_scores=start_scores)
    elapsed = time.perf_counter() - t0
    summary = v.summarize(hand_tot, rules_d, name, seed, n_threads, elapsed)
    summary.update(game_summary(game_tot, v))
    summary.update(token_summary(game_tot, rules_d))
    if start_scores is not None:
        summary["start"] = start_dict(start_scores)
    summary["games_per_second"] = games / elapsed if elapsed > 0 else None
    summary["max_hands_per_game"] = MAX_HANDS_PER_GAME
    summary["warm_up_s"] = warm_s
    summary["compiled"] = compiled
    return add_executor(summary, ex)


def game_summary(g: np.ndarray, variant="ghost") -> dict:
    """Game-level results from summed game counters.

    Wins are by starting position (1 = position 1 in the first hand); in
    Hasenpfeffer by side, ``"1"`` being the side of position 1 in the first
    hand (seats 0 & 2) and ``"2"`` the dealer's side; ``tiebreak_games`` then
    counts the games both sides reached the target on the same hand.
    """
    n = int(g[kg.GA_GAMES])
    finished = n - int(g[kg.GA_UNFINISHED])
    mean, low, high = mean_interval(int(g[kg.GA_HANDS]), int(g[kg.GA_HANDS_SQ]), n)
    units = get_variant(variant).win_units
    wins = {u: int(g[kg.GA_WINS + p]) for p, u in enumerate(units)}
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


def token_summary(g: np.ndarray, rules: dict) -> dict:
    """Euchre's ``four_trick_tokens`` in a games summary, from summed game counters: ``tokens_earned``,
    ``token_points`` (the points of tokens turned in, 1 for each 4 a side held: in the games' scores) and
    ``token_points_per_game``; {} without the rule (the summary as before it)."""
    if not rules.get("four_trick_tokens"):
        return {}
    n = int(g[kg.GA_GAMES])
    pts = int(g[kg.GA_TOKEN_POINTS])
    return {"tokens_earned": int(g[kg.GA_TOKENS]), "token_points": pts, "token_points_per_game": pts / n if n else None}


def token_keys(summary: dict) -> dict:
    """The ``token_summary`` keys an experiment's ``summary`` holds (none without ``four_trick_tokens``): what a
    sweep's row carries of its games' tokens."""
    return {k: summary[k] for k in ("tokens_earned", "token_points", "token_points_per_game") if k in summary}


def game_results(
    seed: int,
    start: int,
    count: int,
    rules: dict | None = None,
    strategies=("default",),
    assignments=None,
    duplicate: bool = True,
    variant="ghost",
    start_scores=None,
) -> list[dict]:
    """Per-game results of deal sets ``start .. start+count-1``: one dict per (set, assignment).

    ``assignments``: rows of a strategy index by seat (None: one row, strategy 0 in every seat); a row that does
    not name a strategy of ``strategies`` for each of the variant's seats is a ``RunError``.
    Each dict: ``set``, ``assignment`` (strategy index by seat), ``winner``
    (seat or None when unfinished), ``hands``, ``scores`` (by seat, final);
    under Euchre's ``four_trick_tokens`` also ``token_points`` (by side: the
    points of the tokens turned in, counted in ``scores``).
    ``start_scores``: every game's starting scores (``check_start``; None: 0s).
    """
    v, rules_d, rules_vec = resolve_run(variant, seed, rules)
    start_scores = check_start(start_scores, v)
    n_scores = v.score_units
    tokens = bool(rules_d.get("four_trick_tokens"))
    strat_params = np.stack([to_vector(load_strategy(s, v.name)[1], v.name) for s in strategies])
    assign = np.array(((0,) * v.players,) if assignments is None else assignments, np.int64)
    if assign.ndim != 2 or assign.shape[1] != v.players or assign.size == 0 or not (
            (assign >= 0) & (assign < len(strat_params))).all():
        raise RunError(f"assignments must be rows of {v.players} strategy indexes (0 to {len(strat_params) - 1}), "
                       f"one a seat, got {assignments!r}")
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
            if tokens:
                out[-1]["token_points"] = row[kg.GO_TOKEN_POINTS: kg.GO_TOKEN_POINTS + n_scores]

    run_games(seed, start + count - chunk_start, assign, strat_params, duplicate, rules_vec, on_batch, chunk_start,
              variant=v, start_scores=start_scores)
    skip = (start - chunk_start) * assign.shape[0]
    return out[skip:]


