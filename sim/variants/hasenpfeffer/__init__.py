"""Hasenpfeffer (RULES.md 3): four players in partnerships, 25 cards with the joker, a widow, numeric or pepper bids.

The ``Variant`` below wires this package's modules (``strategy``,
``records``, ``summary``, ``tables``, ``plots``, ``report``, ``advice``,
``hands``) to the interface of ``bower.sim.variants.base``, over the kernels in
``kernels/hasenpfeffer/``.
"""

from __future__ import annotations

from bower.kernels.hasenpfeffer import advice as ha
from bower.kernels.hasenpfeffer import codes
from bower.kernels.hasenpfeffer import drivers as hs
from bower.kernels.hasenpfeffer import hand as hk
from bower.sim import equity_bidder
from bower.sim.experiment import partnerships
from bower.sim.variants import base
from bower.sim.variants.common import all_tables
from bower.sim.variants.hasenpfeffer import (
    advice,
    equity_strategy,
    plots,
    records,
    report,
    scoring,
    strategy,
    summary,
    tables,
)

# the games kernel given the game-equity bidder's tables where a strategy bids by equity
hs.games_chunks = equity_bidder.GamesKernel(hs.games_chunks, codes.PARAM_NAMES.index("bid_equity"),
                                            equity_strategy.kernel_tables)

ADVICE_HAND = "JK JH JD AH KH 9C"  # the profiled should-bid question: position 1, nothing called


def run_chunks(states, dstates, first, chunk, n, rules_vec, params, want_records, records_out, summary_out):
    """The hand kernel on a batch of chunks: the plain path's or the general one (``drivers.simulate_kernel``), the
    search code compiled only when a seat searches (``hand.search_arg``)."""
    hs.simulate_kernel(params, rules_vec)(states, dstates, first, chunk, n, rules_vec, params, want_records,
                                          records_out, summary_out, hk.search_arg(params))


def profile_advice(n: int, threads: int, playout: str = "strategy") -> float:
    """Seconds of one should-bid run of ``n`` samples per action with ``playout`` (``should-bid --playout``) (position 1, nothing called)."""
    return advice.advise(ADVICE_HAND, position=1, samples=n, seed=0, threads=threads, playout=playout)["elapsed_s"]


def first_leader(maker: int, dealer: int, active: int, rules: dict, alone=frozenset()) -> int:
    """Hasenpfeffer: position 1, or the bidder with ``first_lead = bidder``."""
    return maker if rules.get("first_lead") == "bidder" else (dealer + 1) % 4


def contract(rec: dict) -> tuple[str, int]:
    """Hasenpfeffer: the bid (either pepper needs all 6 tricks)."""
    bid = str(rec["bid"])
    return bid, 6 if "pepper" in bid else int(bid)


def trump_choices(rec: dict) -> tuple[str, ...]:
    """Hasenpfeffer: the high bidder names any suit."""
    return ("C", "S", "D", "H")


VARIANT = base.Variant(
    name="hasenpfeffer",
    title="Hasenpfeffer",
    aliases=("hasen",),
    players=4,
    hand_size=6,
    target=10,
    partnerships=True,
    options=base.options_from(codes.OPTIONS),
    params=codes.PARAMS,
    presets=strategy.PRESETS,
    preset_notes=strategy.PRESET_NOTES,
    switches=strategy.SWITCHES,
    non_negative=strategy.NON_NEGATIVE,
    hand_kernels=hk,
    drivers=hs,
    run_chunks=run_chunks,
    row_to_dict=records.row_to_dict,
    arrow_fields=records.arrow_fields,
    record_fields=records.FIELDS,
    summarize=summary.summarize,
    format_summary=summary.format_summary,
    win_units=("1", "2"),
    win_units_note="side (1 = the side of position 1 in the first hand, 2 = the dealer's side)",
    tiebreak_note="ended with both sides past the target (the bidding side won)",
    experiment_assignments=partnerships,
    sweep_assignments=partnerships,
    strategy_extras=summary.strategy_extras,
    experiment_table=summary.experiment_table,
    sweep_rate="bid_rate",
    analysis_tables=all_tables(tables.tables_from_records),
    report=report.report,
    plots=plots.PLOTS,
    draw_plots=plots.draw_plots,
    advise=advice.ask,
    advice_bots="bower.sim.variants.hasenpfeffer.advice_bots",
    format_advice=advice.format_advice,
    card_play=base.CardPlay(
        seats=4, hand_size=6, seats_in_play=(4,), joker=True, maker_field="bidder",
        leader_note="position 1 (the bidder with --rule first_lead=bidder)",
        first_leader=first_leader,
        contract=contract, contracts=("1", "2", "3", "4", "5", "6", "little-pepper", "big-pepper"),
        trump_choices=trump_choices,
        check=scoring.check, in_play=scoring.in_play, held=scoring.held, score=scoring.score,
        renege=scoring.renege, game_winner=scoring.game_winner,
        replay_fields=("bid",), deal_fields=("widow", "discard"),
        renege_note="the offending side loses 2",
    ),
    deal_layout=(25, 4, 6),
    phase_cut="bower.kernels.hasenpfeffer.phases",
    phases=(),
    profile_advice=profile_advice,
    advice_kernels=(ha.advice_chunks,),
    game="bower.sim.variants.hasenpfeffer.game",  # the game API (bower.game): OpenSpiel's Game and State, one hand
    profile_notes={"should-bid": "should-bid: samples per action per second (position 1, nothing called, 7 actions)."},
)
