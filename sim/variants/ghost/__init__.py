"""Ghost Hand Euchre (RULES.md 1): three players, six cards each and a ghost hand to swap for, bids 3 to moon, race to 32.

The ``Variant`` below wires this package's modules to the interface of
``bower.sim.variants.base``: ``strategy`` (presets), ``records``, ``summary``,
``tables`` and ``plots``, ``report``, ``advice`` (should-bid), ``stats``
(the report's kernel histograms and paired swap analysis) and ``hands``
(single-hand paths for the tests), over the kernels in ``kernels/ghost/``.
"""

from __future__ import annotations

import numpy as np

from bower.kernels.ghost import advice as ga
from bower.kernels.ghost import codes
from bower.kernels.ghost import drivers as gs
from bower.kernels.ghost import hand as gk
from bower.sim import equity_bidder
from bower.sim.experiment import rotations_one_vs_base, three_seat_assignments
from bower.sim.variants import base
from bower.sim.variants.ghost import advice, equity_strategy, plots, records, report, scoring, strategy, summary, tables

# the games kernel given the game-equity bidder's tables where a strategy bids by equity
gs.games_chunks = equity_bidder.GamesKernel(gs.games_chunks, codes.PARAM_NAMES.index("bid_equity"),
                                            equity_strategy.kernel_tables)

TARGET = 32
ADVICE_HAND = "JH KH TH 9H AS 9C"  # the profiled should-bid question: position 1, nothing called


def run_chunks(states, dstates, first, chunk, n, rules_vec, params, want_records, records_out, summary_out):
    """The hand kernel on a batch of chunks, without the report's bid histograms: the plain path's or the general
    one (``drivers.simulate_kernel``), the search code compiled only when a seat searches (``hand.search_arg``)."""
    n_chunks = states.shape[0]
    no_stats = np.zeros((n_chunks, 0, 4), np.int64)
    gs.simulate_kernel(params, rules_vec)(states, dstates, first, chunk, n, rules_vec, params, TARGET, want_records,
                                          records_out, summary_out, no_stats, no_stats, gk.search_arg(params))


def analysis_tables(recs: list, params: dict) -> tuple[dict, list]:
    """The tables ``bower analyze`` prints from saved records, and which of them to show."""
    hist = tables.histograms_from_records(recs, params)
    t = tables.table_set(hist["bids"], hist["estimates"], tables.position_from_records(recs))
    shown = ["bid_by_position", "bid_by_trumps", "bid_by_bowers", "bid_by_off_aces", "bid_by_estimate", "moon_odds",
             "position"]
    return t, shown


def profile_advice(n: int, threads: int, playout: str = "strategy") -> float:
    """Seconds of one should-bid run of ``n`` samples per action with ``playout`` (``should-bid --playout``) (position 1, nothing called)."""
    return advice.advise(ADVICE_HAND, position=1, samples=n, seed=0, threads=threads, playout=playout)["elapsed_s"]


def phase_run(n: int) -> float:
    """Deal and hold the auction for ``n`` hands (no play), seeded as the runner seeds; seconds."""
    import time

    from bower.sim import runner
    from bower.sim.rules import encode, resolve

    rules = encode(VARIANT, resolve(VARIANT, None))
    params = runner.seat_params("default", VARIANT)[1]
    t0 = time.perf_counter()
    n_chunks = -(-n // runner.CHUNK_SIZE)
    gs.auction_chunks(runner.chunk_states(0, 0, n_chunks), runner.decision_states(0, 0, n_chunks), runner.CHUNK_SIZE,
                      n, rules, params, TARGET, np.zeros(n_chunks, np.int64))
    return time.perf_counter() - t0


def first_leader(maker: int, dealer: int, active: int, rules: dict, alone=frozenset()) -> int:
    """Ghost Hand: the high bidder leads the first trick."""
    return maker


def contract(rec: dict) -> tuple[str, int]:
    """Ghost Hand: the bid (``moon`` needs all 6 tricks)."""
    return ("moon", 6) if rec["bid"] == 6 else (str(rec["bid"]), int(rec["bid"]))


def trump_choices(rec: dict) -> tuple[str, ...]:
    """Ghost Hand: the high bidder names any suit."""
    return ("C", "S", "D", "H")


VARIANT = base.Variant(
    records_batch_check=True,
    name="ghost",
    title="Ghost Hand Euchre",
    aliases=("ghost-hand", "ghosthand"),
    players=3,
    hand_size=6,
    target=TARGET,
    partnerships=False,
    options=base.options_from(codes.OPTIONS),
    params=codes.PARAMS,
    presets=strategy.PRESETS,
    preset_notes=strategy.PRESET_NOTES,
    switches=strategy.SWITCHES,
    non_negative=strategy.NON_NEGATIVE,
    hand_kernels=gk,
    drivers=gs,
    run_chunks=run_chunks,
    row_to_dict=records.row_to_dict,
    arrow_fields=records.arrow_fields,
    record_fields=records.FIELDS,
    summarize=summary.summarize,
    format_summary=summary.format_summary,
    win_units=("1", "2", "3"),
    win_units_note="starting position (1 = dealer's left in the first hand)",
    tiebreak_note="went on past a tie at the top",
    experiment_assignments=three_seat_assignments,
    sweep_assignments=rotations_one_vs_base,
    strategy_extras=summary.strategy_extras,
    experiment_table=summary.experiment_table,
    sweep_rate="bid_rate",
    analysis_tables=analysis_tables,
    report=report.report,
    plots=plots.PLOTS,
    draw_plots=plots.draw_plots,
    advise=advice.ask,
    advice_bots="bower.sim.variants.ghost.advice_bots",
    format_advice=advice.format_advice,
    card_play=base.CardPlay(
        seats=3, hand_size=6, seats_in_play=(3,), joker=False, maker_field="maker",
        leader_note="the maker",
        first_leader=first_leader,
        contract=contract, contracts=("3", "4", "5", "moon"),
        trump_choices=trump_choices,
        check=scoring.check, in_play=scoring.in_play, held=scoring.held, score=scoring.score,
        renege=scoring.renege, game_winner=scoring.game_winner,
        replay_fields=("bid",), deal_fields=("swap",),
        renege_note="the offender loses 2",
    ),
    deal_layout=(24, 4, 6),
    phases=("auction", "play"),
    profile_advice=profile_advice,
    advice_kernels=(ga.advice_chunks,),
    profile_notes={"should-bid": "should-bid: samples per action per second (position 1, 18 actions: each sample plays "
                                 "18 hands)."},
    phase_run=phase_run,
    phase_dispatchers=(gs.auction_chunks,),
    game="bower.sim.variants.ghost.game",  # the game API (bower.game): OpenSpiel's Game and State, one hand
)
