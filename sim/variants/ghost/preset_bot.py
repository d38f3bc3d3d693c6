"""Ghost Hand's heuristic strategies as bots (``bower.sim.preset_bots``): the kernels' decisions, called from Python.

Every decision is the one ``bower.kernels.ghost.hand.auction_core`` and
``play_core`` make for a seat of the strategy, by the same kernel functions
on the strategy's rows (``strategy_rows``: the parameters and the estimate
table): the swap (``best_of_row`` of the hand held below ``swap_below``), the
call (``call_of`` of the hand's best estimate after any swap, against the
standing bid; a stuck dealer may not pass), trump (the best suit of the
maker's hand, ``best_of_row``) and the cards by the shared trick core's
``lead_slot`` / ``follow_slot`` with the kernels' arguments (every player for
itself). The few lines of ``auction_core`` that put those together for one
seat are written here beside the calls (``auction_core`` plays the whole
auction at once). A seat reads its own hand, the swap, the calls, trump and
the cards played: nothing else.

Strategies that read the game's scores (``score-aware``: ``bid_shift_*``;
``equity``: ``bid_equity``) are not available as bots: a hand's state does
not carry the game's scores.

``pimc-cards`` (heuristic calls, PIMC cards) searches each card by the
kernels' ``pimc.choose`` on ``pimc_facts`` of a record of what the seat
knows (``_searched``); ``pimc`` and ``pimc-fast`` (a searched auction) are
refused.
"""

from __future__ import annotations

import numpy as np

from bower.kernels.ghost.hand import (DECK, P_PIMC, P_PIMC_BID, P_PIMC_INFER, P_PIMC_SEES, R_DEAL, R_PLAYS, R_SWAP,
                                      R_WIDTH, pimc_facts)
from bower.kernels.ghost.strategy import (MOON, P_BID3, P_BID4, P_BID5, P_EQUITY, P_JUMP, P_LEAD_TRUMP, P_MOON,
                                          P_RANDOM, P_SHIFT_OPP, P_SHIFT_SELF, P_SWAP_BELOW, best_of_row, call_of,
                                          strategy_rows)
from bower.kernels.tables import SLOT_DECK
from bower.sim.preset_bots import follow_card, hand_workspace, lead_card, pimc_card, searched_parts, write_plays
from bower.sim.variants.ghost import game as gg


def plays_at_random(params) -> bool:
    """Whether the strategy is the uniformly random player (``random``)."""
    return params[0, P_RANDOM] >= 0.5


def searches(params) -> str:
    """What the strategy searches that a bot cannot (a searched auction, auction-weighted worlds, the true hands);
    "" when nothing: heuristic calls with PIMC cards (``pimc-cards``) are a bot."""
    return searched_parts(params, P_PIMC, P_PIMC_BID, P_PIMC_INFER, P_PIMC_SEES)


def unsupported(params) -> str | None:
    """Why the strategy cannot be a bot (it reads the game's scores), or None."""
    if params[0, P_EQUITY] >= 0.5:
        return "bids by game equity (bid_equity), from the game's scores"
    if params[0, P_SHIFT_SELF] != 0.0 or params[0, P_SHIFT_OPP] != 0.0:
        return "shifts its bids by the game's scores (bid_shift_self_near, bid_shift_opp_near)"
    return None


class Player:
    """The strategy rows ``params`` (one per seat) at the table of ``game``: ``step(state)`` is the kernels' decision
    (``stream``: the bot's decision stream, for a PIMC strategy's worlds)."""

    def __init__(self, params: np.ndarray, game, stream=None):
        self.rows = strategy_rows(np.ascontiguousarray(params))
        self.stick = game.stick
        self.worlds = int(params[0, P_PIMC])  # PIMC cards (``pimc_worlds`` >= 1), from the decision ``stream``
        self.stream = stream
        self.rec = np.zeros(R_WIDTH, np.int64)
        self.ws = None

    def step(self, st) -> int:
        """The action of the seat to act at ``st`` (a ``bower.sim.variants.ghost.game.State``)."""
        seat = st.current_player()
        ph = st.phase
        rows, r = self.rows, np.int64(seat)
        if ph == gg.PLAY:
            return self._card(st, seat)
        hand = np.int64(st.hands[seat])
        suit, est = best_of_row(hand, rows, r)
        if ph == gg.SWAP_TURN:
            return gg.SWAP if est < rows[seat, P_SWAP_BELOW] else gg.KEEP
        if ph == gg.AUCTION:
            forced = st.dealer_stuck()
            call = int(call_of(est, np.int64(st.standing), forced, rows[seat, P_MOON], rows[seat, P_BID5],
                               rows[seat, P_BID4], rows[seat, P_BID3], rows[seat, P_JUMP]))
            if call == 0:
                return gg.PASS
            return gg.MOON if call == MOON else gg.BID + call - 3
        if ph == gg.NAMING:
            return gg.TRUMP + int(suit)
        raise ValueError(f"no decision of a seat at phase {ph}")

    def _card(self, st, seat: int) -> int:
        trump, maker = st.trump, st.maker
        if self.worlds >= 1:
            return self._searched(st, seat)
        if st.trick:
            return follow_card(st.hands[seat], st.trick, trump, lambda winner: winner == seat)
        return lead_card(st.hands[seat], st.played, trump, int(SLOT_DECK[trump]), seat == maker, False,
                         self.rows[maker, P_LEAD_TRUMP], -1)

    def _searched(self, st, seat: int) -> int:
        """The PIMC card (as the kernels' ``pimc_card``): the facts from a record of what the seat knows (the
        swapper, its own dead hand as the swapper, the plays), the worlds from the bot's stream, a fresh workspace
        each hand (as the kernels' hand)."""
        self.ws = hand_workspace(st, self.ws)
        rec = self.rec
        rec[R_SWAP] = st.swapper
        if st.swapper >= 0:
            rec[R_DEAL + st.swapper] = st.dead if seat == st.swapper else 0  # read for the swapper alone
        n = write_plays(st, rec, R_PLAYS)
        return pimc_card(st.hands[seat], seat, pimc_facts(rec, np.int64(0), np.int64(seat)), st.trump, DECK, rec,
                         R_PLAYS, n, self.worlds, self.stream, self.ws)
