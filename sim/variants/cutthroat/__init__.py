"""Cutthroat (RULES.md 2): three-handed Euchre with a dummy hand the maker merges, up-card and two rounds, game to 10.

The ``Variant`` below wires this package's modules (``strategy``,
``records``, ``summary``, ``tables``, ``plots``, ``report``, ``advice``,
``hands``) to the interface of ``bower.sim.variants.base``, over the kernels in
``kernels/cutthroat/``.
"""

from __future__ import annotations

from bower.kernels.cutthroat import advice as ca
from bower.kernels.cutthroat import codes
from bower.kernels.cutthroat import drivers as cs
from bower.kernels.cutthroat import hand as ck
from bower.sim import equity_bidder
from bower.sim.experiment import rotations_one_vs_base, three_seat_assignments
from bower.sim.variants import base
from bower.sim.variants.common import all_tables
from bower.sim.variants.cutthroat import (
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
cs.games_chunks = equity_bidder.GamesKernel(cs.games_chunks, codes.PARAM_NAMES.index("bid_equity"),
                                            equity_strategy.kernel_tables)

ADVICE = ("QC TS 9S KD 9H", "JS")  # the profiled should-bid question: hand, up-card; position 1, round one


def run_chunks(states, dstates, first, chunk, n, rules_vec, params, want_records, records_out, summary_out):
    """The hand kernel on a batch of chunks: the plain path's or the general one (``drivers.simulate_kernel``), the
    search code compiled only when a seat searches (``hand.search_arg``)."""
    cs.simulate_kernel(params, rules_vec)(states, dstates, first, chunk, n, rules_vec, params, want_records,
                                          records_out, summary_out, ck.search_arg(params))


def profile_advice(n: int, threads: int, playout: str = "strategy") -> float:
    """Seconds of one should-bid run of ``n`` samples per action with ``playout`` (``should-bid --playout``) (position 1, round one)."""
    hand, up = ADVICE
    return advice.advise(hand, up, position=1, samples=n, seed=0, threads=threads, playout=playout)["elapsed_s"]


def first_leader(maker: int, dealer: int, active: int, rules: dict, alone=frozenset()) -> int:
    """Cutthroat: position 1; if someone went alone, the first seat in play to their left (a lone defender first)."""
    defenders = [s for s in alone if s != maker]
    if defenders and maker in alone:
        return defenders[0]
    if defenders:
        lone = defenders[0]
    elif maker in alone:
        lone = maker
    else:
        lone = dealer
    for k in range(1, 4):
        seat = (lone + k) % 3
        if active >> seat & 1:
            return seat
    return maker


def contract(rec: dict) -> tuple[str, int]:
    """Cutthroat: the maker needs 3 tricks, with the dummy or alone."""
    return ("alone" if rec["maker"] in (rec.get("alone") or []) else "dummy"), 3


def trump_choices(rec: dict) -> tuple[str, ...]:
    """Cutthroat: the up-card's suit in round one; in round two any other (any suit with allow_turned_down_suit)."""
    if not rec.get("upcard"):
        return ("C", "S", "D", "H")  # a typed-in record without its up-card: any suit
    up = str(rec["upcard"])[-1].upper()
    if any(call in ("order", "assist", "take") for _, call in rec.get("calls") or []):
        return (up,)
    if (rec.get("rules") or {}).get("allow_turned_down_suit"):
        return ("C", "S", "D", "H")
    return tuple(s for s in "CSDH" if s != up)


VARIANT = base.Variant(
    name="cutthroat",
    title="Cutthroat: three-handed Euchre with a dummy",
    aliases=("cut-throat",),
    players=3,
    hand_size=5,
    target=10,
    partnerships=False,
    options=base.options_from(codes.OPTIONS),
    params=codes.PARAMS,
    presets=strategy.PRESETS,
    preset_notes=strategy.PRESET_NOTES,
    switches=strategy.SWITCHES,
    non_negative=strategy.NON_NEGATIVE,
    hand_kernels=ck,
    drivers=cs,
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
    sweep_rate="call_rate",
    analysis_tables=all_tables(tables.tables_from_records),
    report=report.report,
    plots=plots.PLOTS,
    draw_plots=plots.draw_plots,
    advise=advice.ask,
    advice_bots="bower.sim.variants.cutthroat.advice_bots",
    format_advice=advice.format_advice,
    card_play=base.CardPlay(
        seats=3, hand_size=5, seats_in_play=(3, 2), joker=False, maker_field="maker",
        leader_note=("position 1; after a lone hand (--alone) the first seat in play to the lone "
                     "player's left; when maker and defender both go alone, the defender"),
        first_leader=first_leader,
        contract=contract, contracts=("dummy", "alone"),
        trump_choices=trump_choices,
        check=scoring.check, in_play=scoring.in_play, held=scoring.held, score=scoring.score,
        renege=scoring.renege, game_winner=scoring.game_winner,
        replay_fields=("alone",), deal_fields=("upcard", "dummy", "discards"),
        renege_note="the other side scores 2, 4 when it plays a lone hand (each defender; lone_only: the lone one)",
    ),
    deal_layout=(24, 4, 5),
    phase_cut="bower.kernels.cutthroat.phases",
    phases=(),
    profile_advice=profile_advice,
    advice_kernels=(ca.advice_chunks,),
    profile_notes={"should-bid": "should-bid: samples per action per second (position 1, round one, 3 actions)."},
    game="bower.sim.variants.cutthroat.game",  # the game API (bower.game): OpenSpiel's Game and State, one hand
)
