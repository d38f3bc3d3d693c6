"""The interface every variant implements: one ``Variant`` object per game, listed by ``bower.sim.variants``.

A variant is two packages: its Numba code under ``kernels/NAME/`` (``codes``:
rule codes and the strategy parameter layout; ``hand``: the deal, auction,
play and score of one hand with its record and summary layouts; ``strategy``;
``drivers``: hands, games and experiments in chunks; ``advice``: should-bid),
and its engine package ``sim/variants/NAME/`` that builds the ``Variant``
below from its own modules (``strategy``: presets; ``records``; ``summary``:
the summary, its text and the experiment columns; ``tables``: the analysis
tables; ``plots``: the report's plots, with ``bower.analysis.report_plots``'
helpers; ``advice``: the should-bid question; ``report``;
``scoring``: replay's rules, through ``CardPlay``; ``game``: the game API,
``bower.sim.game``, named by module path in ``Variant.game``). The commands, runner,
records, experiments, analysis, report, profile, the double-dummy solver and
replay only ever go through these fields; none of them names a variant.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import ModuleType
from typing import Callable

import numpy as np

from bower.sim.rules import Option, RuleError


@dataclass(frozen=True)
class CardPlay:
    """What the double-dummy solver and replay (``bower.sim.solve``, ``bower.sim.replay``) need of a variant's card play.

    The two sides of a hand are the maker's side (the maker alone, or with a
    partner in a partnership variant) and everyone else in play.
    """

    seats: int  # seats that can hold cards in play (Ghost Hand's ghost is not one)
    hand_size: int  # cards each seat in play holds at the first lead
    seats_in_play: tuple[int, ...]  # how many seats can be in play (fewer when someone sits out)
    joker: bool  # the joker is in the deck
    maker_field: str  # the record field naming the maker ("maker", or Hasenpfeffer's "bidder")
    first_leader: Callable[[int, int, int, dict, frozenset], int]  # (maker, dealer, active mask, rules, alone) -> leader
    leader_note: str  # who leads the first trick, for help texts
    contract: Callable[[dict], tuple[str, int]]  # record of a hand played -> (contract label, tricks the makers need)
    contracts: tuple[str, ...]  # every contract label, in table order
    trump_choices: Callable[[dict], tuple[str, ...]]  # record of a hand played -> the suits its maker could name
    # replay (``sim/variants/NAME/scoring.py``; None: no replay): KeyError names a missing field, ValueError a bad one
    check: Callable[[dict, dict], dict] | None = None  # (record, rules) -> the record, its fields checked, canonical
    in_play: Callable[[dict], frozenset] | None = None  # checked record of a hand played -> the seats that hold cards
    held: Callable[[dict], dict | None] | None = None  # checked record -> seat -> cards at the first lead from 'deal'
    score: Callable[[dict, dict, dict], dict] | None = None  # (record, tricks by seat, rules) -> points as in 'points'
    renege: Callable[[dict, int, dict], dict] | None = None  # (record, offender, rules) -> the penalty, as 'points'
    game_winner: Callable | None = None  # (scores, points, record, rules, target, state) -> (winner|None, state)
    # points a game gives outside the hands' (Euchre's four_trick_tokens), called only when rule ``bonus_rule`` is
    # on: (record with maker, alone and tricks by seat, rules, state or None) -> (extra points as 'points', state)
    game_bonus: Callable | None = None
    bonus_rule: str = ""
    replay_fields: tuple[str, ...] = ()  # fields replay needs beyond variant, dealer, maker, trump, plays
    deal_fields: tuple[str, ...] = ()  # fields replay needs along with 'deal' (to find the hands at the first lead)
    renege_note: str = ""  # the renege penalty, for help texts


@dataclass(frozen=True)
class Variant:
    """One game: what it is, its rules and strategies, its kernels, records, summaries, tables and questions."""

    # ---- identity and table
    name: str  # the --variant name, also the records' ``variant`` field
    title: str
    aliases: tuple[str, ...]  # other names accepted by --variant
    players: int  # seats at the table
    hand_size: int  # cards dealt to each seat
    target: int  # points that win a game
    partnerships: bool  # True: seats 0 & 2 play against 1 & 3, games are won by side
    options: tuple[Option, ...]  # rule options in kernel order (from ``kernels/NAME/codes.py``)

    # ---- strategies (the parameter layout comes from ``kernels/NAME/codes.py``)
    params: tuple[tuple[str, float, str], ...]  # (name, default, meaning) in kernel order
    presets: dict[str, dict[str, float]]
    preset_notes: dict[str, str]
    switches: frozenset[str]  # parameters that are 0 = off, 1 = on
    non_negative: frozenset[str]

    # ---- kernels
    hand_kernels: ModuleType  # R_WIDTH, S_WIDTH, S_HANDS: the record and summary layouts
    drivers: ModuleType  # simulate_chunks and games_chunks (numba dispatchers)
    run_chunks: Callable  # (states, dstates, first, chunk, n, rules_vec, params, want_records, records, summary) -> None

    # ---- records
    row_to_dict: Callable[[np.ndarray, int, dict], dict]  # (kernel row, hand number, rules) -> record dict
    arrow_fields: Callable[[dict], list]  # rules -> [(name, pyarrow type)] of the Parquet schema
    record_fields: frozenset[str]  # fields a record must have to be read back

    # ---- summaries
    summarize: Callable  # (counters, rules, strategy, seed, threads, elapsed) -> summary dict
    format_summary: Callable[[dict], str]  # the variant's block of the text summary
    win_units: tuple[str, ...]  # game win shares are by these ("1", "2", "3": starting position; "1", "2": side)
    win_units_note: str  # what the units are, for the text summary
    tiebreak_note: str  # what ``tiebreak_games`` counts

    # ---- experiments and sweeps
    experiment_assignments: Callable[[int], np.ndarray]  # strategies -> seat assignments (rows: strategy by seat)
    sweep_assignments: Callable[[], np.ndarray]  # candidate 0 against base 1
    strategy_extras: Callable[[np.ndarray, int], dict]  # per-strategy counters (ST_*), seat-hands -> its own rates
    experiment_table: Callable[[dict], list[str]]  # the per-strategy rows of the experiment's text
    sweep_rate: str  # the key of strategy_extras shown as the sweep's "bid rate"

    # ---- analysis and report
    analysis_tables: Callable[[list, dict], tuple[dict, list]]  # (records, params) -> (tables, names to print)
    report: Callable  # (**run options) -> (tables, meta, notes) of the HTML report
    plots: dict[str, str]  # file name -> caption of the report's plots (``plots.PLOTS``)
    draw_plots: Callable[[dict, str], dict[str, str]]  # (tables, folder) draws them -> file name -> note under it

    # ---- should-bid
    advise: Callable  # (hand, question dict, strategy, samples, seed, threads, rules) -> answer dict
    format_advice: Callable[[dict], str]

    # ---- card play (double-dummy solver, replay)
    card_play: CardPlay

    # ---- profile
    deal_layout: tuple[int, int, int]  # (cards in the deck, hands dealt, cards per hand) as the kernels deal
    phases: tuple[str, ...]  # derived profile rows timed apart with phase_run (Ghost Hand: auction, play), or ()
    profile_advice: Callable[..., float]  # (samples, threads, playout="strategy") -> seconds of one should-bid run
    advice_kernels: tuple  # numba dispatchers of should-bid
    profile_notes: dict[str, str] = field(default_factory=dict)  # kernel -> a line under the profile table
    # extension (".egn") -> the module of a records format of the variant's own: ``Writer(path, variant, rules, meta)``
    # as ``open_writer``'s, ``items(path)`` yielding (record, label), ``as_jsonl(path, folder)`` (sim/records.py)
    file_formats: dict[str, str] = field(default_factory=dict)
    # record fields that may be null because they are not known (a real game's transcript: the kitty), each listed
    # in the record's 'unknown' (``bower.sim.records_check.check_unknown``); the hands at the first lead are then the
    # cards each seat played
    unknown_fields: tuple[str, ...] = ()
    # the module of its game API (``bower.game``; ``bower.sim.game``): ``Game(variant, rules)`` with OpenSpiel's
    # ``new_initial_state()``, its states OpenSpiel's methods; None: the variant has none yet
    game: str | None = None
    phase_run: Callable[[int], float] | None = None  # hands -> seconds of deal and auction alone (with ``phases``)
    phase_dispatchers: tuple = ()  # numba dispatchers of phase_run
    # the module of the plain path's hands cut after a phase, for ``benchmarks/phases.py`` (``kernels/NAME/phases.py``:
    # ``phase_chunks``, stop 1 deal, 2 auction, 3 exchange, 4 tricks and scoring; ``EXCHANGE``, what phase 3 is), or ""
    phase_cut: str = ""
    # its Parquet records' batches are checked whole by ``bower.sim.records_vector`` (read with dictionary strings);
    # the others record by record in batches
    records_batch_check: bool = False
    # should-bid's play-outs by a Python bot (``bower.sim.bots``): the module of the variant's twin of its advice
    # kernel (``bower.sim.advice_bots``), or "" where a bot cannot play them
    advice_bots: str = ""

    @property
    def defaults(self) -> dict[str, float]:
        """Every strategy parameter with its default."""
        return {p[0]: p[1] for p in self.params}

    @property
    def param_names(self) -> tuple[str, ...]:
        """The strategy parameters in kernel order."""
        return tuple(p[0] for p in self.params)

    @property
    def score_units(self) -> int:
        """How many scores a game keeps: one per side with partnerships, else one per seat."""
        return 2 if self.partnerships else self.players

    def maker_side(self, maker: int, active: int) -> int:
        """The mask of the seats in play (``active``) on the side of ``maker``: partners sit opposite."""
        side = 1 << maker
        if self.partnerships:
            side |= 1 << ((maker + 2) % 4)
        return side & active

    def option(self, name: str) -> Option:
        """The rule option called ``name``; RuleError naming the known ones otherwise."""
        for o in self.options:
            if o.name == name:
                return o
        from bower.sim.text import did_you_mean

        names = [o.name for o in self.options]
        hint = did_you_mean(name, names)
        raise RuleError(f"unknown rule option {name!r} for {self.name}{hint} (known: {', '.join(names)})")


def options_from(codes: tuple) -> tuple[Option, ...]:
    """Rule option objects from a kernel ``codes.OPTIONS`` table of (name, values, codes)."""
    return tuple(Option(name, tuple(values), tuple(c)) for name, values, c in codes)
