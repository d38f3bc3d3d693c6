"""Hasenpfeffer's heuristic strategies as bots (``bower.sim.preset_bots``): the kernels' decisions, called from Python.

Every decision is the one ``bower.kernels.hasenpfeffer.hand`` makes for a
seat of the strategy, by the same kernel functions: a call from the level the
hand would go to (``target_level``, on the hand as dealt) against the
standing bid, with ``support_margin`` over a partner's bid and ``bid_jump``
(the few lines of ``auction`` that choose one seat's call, written here
beside the kernel call: ``auction`` plays the whole auction at once); the high
bidder's discard and trump by ``choose_widow`` (the best six of seven and its
trump; under a dead widow the best suit); the cards by the shared trick
core's ``lead_slot`` / ``follow_slot`` with the kernels' arguments (the
joker in slot 25, the bidder's strongest trump at ``lead_trump_min``
trumps). A seat reads its own hand (the bidder its widow and discard), the
calls, trump and the cards played: nothing else.

``pimc-fast`` and ``pimc-cards`` (heuristic calls, PIMC cards) search each
card by the kernels' ``pimc.choose`` on ``pimc_facts`` of a record of what
the seat knows (``_searched``); ``pimc`` (a searched auction) is refused.
"""

from __future__ import annotations

import numpy as np

from bower.kernels.hasenpfeffer.hand import (P_PIMC_BID, P_PIMC_INFER, P_PIMC_SEES, R_BIDDER, R_DISCARD, R_FORCED,
                                             R_PLAYS, R_WIDTH, choose_widow, pimc_facts, target_level)
from bower.kernels.hasenpfeffer.strategy import (DECK25, P_JUMP, P_LEAD_TRUMP, P_PIMC, P_SUPPORT, card_weights,
                                                 is_random)
from bower.kernels.tables import SLOT_DECK
from bower.sim.preset_bots import follow_card, hand_workspace, lead_card, pimc_card, searched_parts, write_plays
from bower.sim.variants.hasenpfeffer import game as hg


def plays_at_random(params) -> bool:
    """Whether the strategy is the uniformly random player (the kernels' ``is_random``)."""
    return bool(is_random(params, 0))


def searches(params) -> str:
    """What the strategy searches that a bot cannot (a searched auction, auction-weighted worlds, the true hands);
    "" when nothing: heuristic calls with PIMC cards (``pimc-fast``, ``pimc-cards``) are a bot."""
    return searched_parts(params, P_PIMC, P_PIMC_BID, P_PIMC_INFER, P_PIMC_SEES)


class Player:
    """The strategy rows ``params`` (one per seat) at the table of ``game``: ``step(state)`` is the kernels' decision
    (``stream``: the bot's decision stream, for a PIMC strategy's worlds)."""

    def __init__(self, params: np.ndarray, game, stream=None):
        self.params = params
        self.pepper = game.pepper
        self.dead = game.dead
        self.wt = np.zeros((params.shape[0], 4, 25), np.float64)
        card_weights(params, self.wt)
        self.dstate = np.zeros(4, np.uint64)  # ``choose_widow``'s decision stream: drawn from by a random seat only
        self.dbuf = np.zeros(2, np.int64)
        self.worlds = int(params[0, P_PIMC])  # PIMC cards (``pimc_worlds`` >= 1), from the decision ``stream``
        self.stream = stream
        self.rec = np.zeros(R_WIDTH, np.int64)
        self.ws = None

    def step(self, st) -> int:
        """The action of the seat to act at ``st`` (a ``bower.sim.variants.hasenpfeffer.game.State``)."""
        seat = st.current_player()
        ph = st.phase
        p, wt = self.params, self.wt
        if ph == hg.PLAY:
            return self._card(st, seat)
        if ph == hg.AUCTION:
            tl = int(target_level(np.int64(st.dealt[seat]), np.int64(seat), self.pepper, p, wt))
            high, bidder = st.high, st.bidder
            margin = p[seat, P_SUPPORT] if bidder >= 0 and bidder == (seat + 2) % 4 else 0.0
            if tl >= high + 1 and tl >= (high + 1) + margin:  # a call must beat the standing bid
                return hg.BID + (tl if p[seat, P_JUMP] >= 0.5 else high + 1) - 1
            return hg.PASS
        if ph in (hg.DISCARD, hg.NAME_TRUMP):
            hand = st.hands[seat]
            if ph == hg.NAME_TRUMP and st.discard >= 0:
                hand |= 1 << st.discard  # the seven it chose from
            seven = np.int64(hand)
            one = np.int64(hand & -hand)  # any card of the seven stands for the widow: ``choose_widow`` takes the union
            trump, discard, _ = choose_widow(seven, np.int64(int(one).bit_length() - 1), np.int64(seat), p, wt,
                                             self.dead, self.dstate, self.dbuf)
            return int(discard) if ph == hg.DISCARD else hg.TRUMP + int(trump)
        raise ValueError(f"no decision of a seat at phase {ph}")

    def _card(self, st, seat: int) -> int:
        trump, bidder = st.trump, st.bidder
        if self.worlds >= 1:
            return self._searched(st, seat)
        if st.trick:
            return follow_card(st.hands[seat], st.trick, trump, lambda winner: (winner & 1) == (seat & 1))
        return lead_card(st.hands[seat], st.played, trump, int(SLOT_DECK[trump]) | (1 << 25), seat == bidder,
                         seat == (bidder ^ 2), self.params[bidder, P_LEAD_TRUMP], -1)

    def _searched(self, st, seat: int) -> int:
        """The PIMC card (as the kernels' ``pick_card``): the facts from a record of what the seat knows (the
        bidder, a forced bid, its own discard as the bidder, the plays), the worlds from the bot's stream, a fresh
        workspace each hand (as the kernels' hand)."""
        self.ws = hand_workspace(st, self.ws)
        rec = self.rec
        rec[R_BIDDER] = st.bidder
        rec[R_FORCED] = 1 if st.forced else 0
        rec[R_DISCARD] = st.discard  # its card is read for the bidder alone; to the others only whether there is one
        n = write_plays(st, rec, R_PLAYS)
        return pimc_card(st.hands[seat], seat, pimc_facts(rec, np.int64(seat)), st.trump, DECK25, rec, R_PLAYS, n,
                         self.worlds, self.stream, self.ws)
