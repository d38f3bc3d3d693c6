"""Standard Euchre (RULES.md 4): four players in partnerships, 24 cards, up-card and two rounds, going alone, game to 10.

The ``Variant`` below wires this package's modules (``strategy``,
``records``, ``summary``, ``tables``, ``plots``, ``report``, ``advice``,
``hands``) to the interface of ``bower.sim.variants.base``, over the kernels in
``kernels/euchre/`` (their contract: ``kernels/euchre/SPEC.md``).
``play_order`` and ``score_hand`` are the single-hand paths of ``hands``.
"""

from __future__ import annotations

from bower.kernels.euchre import advice as ea
from bower.kernels.euchre import codes
from bower.kernels.euchre import drivers as ed
from bower.kernels.euchre import hand as ek
from bower.sim import equity_bidder
from bower.sim.experiment import partnerships
from bower.sim.variants import base
from bower.sim.variants.common import all_tables
from bower.sim.variants.euchre import (
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
from bower.sim.variants.euchre.hands import play_order, score_hand

# the games kernel given the game-equity bidder's tables where a strategy bids by equity
ed.games_chunks = equity_bidder.GamesKernel(ed.games_chunks, codes.PARAM_NAMES.index("bid_equity"),
                                            equity_strategy.kernel_tables)

ADVICE = ("JH AS KS 9H QD", "TS")  # the profiled should-bid question: hand, up-card; position 1, round one

__all__ = ["VARIANT", "play_order", "score_hand"]


def run_chunks(states, dstates, first, chunk, n, rules_vec, params, want_records, records_out, summary_out):
    """The hand kernel on a batch of chunks: the plain path's or the general one (``drivers.simulate_kernel``), the
    search code compiled only when a seat searches (``hand.search_arg``)."""
    ed.simulate_kernel(params, rules_vec)(states, dstates, first, chunk, n, rules_vec, params, want_records,
                                          records_out, summary_out, ek.search_arg(params))


def profile_advice(n: int, threads: int, playout: str = "strategy") -> float:
    """Seconds of one should-bid run of ``n`` samples per action with ``playout`` (``should-bid --playout``) (position 1, round one)."""
    hand, up = ADVICE
    return advice.advise(hand, up, position=1, samples=n, seed=0, threads=threads, playout=playout)["elapsed_s"]


def first_leader(maker: int, dealer: int, active: int, rules: dict, alone=frozenset()) -> int:
    """Euchre: position 1 (under ``loner_lead=loner`` after a lone maker, the maker's left), skipping a seat out."""
    start = maker if rules.get("loner_lead") == "loner" and maker in alone else dealer
    for k in range(1, 5):
        seat = (start + k) % 4
        if active >> seat & 1:
            return seat
    return maker


def contract(rec: dict) -> tuple[str, int]:
    """Euchre: the makers need 3 tricks, with the partner or alone."""
    return ("alone" if rec["maker"] in (rec.get("alone") or []) else "partner"), 3


def trump_choices(rec: dict) -> tuple[str, ...]:
    """Euchre: the up-card's suit when ordered up in round one; in round two any other suit."""
    if not rec.get("upcard"):
        return ("C", "S", "D", "H")  # a typed-in record without its up-card: any suit
    up = str(rec["upcard"])[-1].upper()
    if any(call == "order" for _, call in rec.get("calls") or []):
        return (up,)
    return tuple(s for s in "CSDH" if s != up)


VARIANT = base.Variant(
    name="euchre",
    title="Standard Euchre",
    aliases=("standard", "four-handed"),
    players=4,
    hand_size=5,
    target=10,
    partnerships=True,
    options=base.options_from(codes.OPTIONS),
    params=codes.PARAMS,
    presets=strategy.PRESETS,
    preset_notes=strategy.PRESET_NOTES,
    switches=strategy.SWITCHES,
    non_negative=strategy.NON_NEGATIVE,
    hand_kernels=ek,
    drivers=ed,
    run_chunks=run_chunks,
    row_to_dict=records.row_to_dict,
    arrow_fields=records.arrow_fields,
    record_fields=records.FIELDS,
    summarize=summary.summarize,
    format_summary=summary.format_summary,
    win_units=("1", "2"),
    win_units_note="side (1 = seats 0 & 2, position 1's side in the first hand; 2 = seats 1 & 3, the first dealer's side)",
    tiebreak_note="went past a tie (none can: only one side scores on a hand)",
    experiment_assignments=partnerships,
    sweep_assignments=partnerships,
    strategy_extras=summary.strategy_extras,
    experiment_table=summary.experiment_table,
    sweep_rate="call_rate",
    analysis_tables=all_tables(tables.tables_from_records),
    report=report.report,
    plots=plots.PLOTS,
    draw_plots=plots.draw_plots,
    advise=advice.ask,
    format_advice=advice.format_advice,
    advice_bots="bower.sim.variants.euchre.advice_bots",
    card_play=base.CardPlay(
        seats=4, hand_size=5, seats_in_play=(4, 3, 2), joker=False, maker_field="maker",
        leader_note=("position 1, skipping a seat that sits out; under loner_lead=loner after a lone maker, the "
                     "first seat in play to the maker's left"),
        first_leader=first_leader,
        contract=contract, contracts=("partner", "alone"),
        trump_choices=trump_choices,
        check=scoring.check, in_play=scoring.in_play, held=scoring.held, score=scoring.score,
        renege=scoring.renege, game_winner=scoring.game_winner, game_bonus=scoring.game_bonus,
        bonus_rule="four_trick_tokens",
        replay_fields=("alone",), deal_fields=("upcard", "discard"),
        renege_note="the other side scores 2, 4 when it plays a lone hand",
    ),
    deal_layout=(24, 4, 5),
    phase_cut="bower.kernels.euchre.phases",
    phases=(),
    profile_advice=profile_advice,
    advice_kernels=(ea.advice_chunks,),
    profile_notes={"should-bid": "should-bid: samples per action per second (position 1, round one, 3 actions)."},
    file_formats={".egn": "bower.sim.variants.euchre.egn"},  # Euchre Game Notation: real games in and out
    unknown_fields=("deal", "discard", "kitty"),  # an EGN transcript may not give the kitty and the discard
    game="bower.sim.variants.euchre.game",  # the game API (bower.game): OpenSpiel's Game and State, one hand
)
