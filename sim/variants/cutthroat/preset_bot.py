"""Cutthroat's heuristic strategies as bots (``bower.sim.preset_bots``): the kernels' decisions, called from Python.

Every decision is the one ``bower.kernels.cutthroat.hand`` makes for a seat
of the strategy, by the same kernel functions: round one by ``estimate``
against ``order_min`` / ``assist_min`` (the dealer by ``best_exchange``
against ``take_min``), round two ``best_suit`` against ``name_min`` (a stuck
dealer always names), the dealer's exchange ``best_exchange`` (kept only when
it beats the hand as dealt, unless the pickup is mandatory), the maker's
going alone ``maker_goes_alone`` and a defender's ``defender_goes_alone``,
the merge ``best_keep`` (the five kept, one pick at a time, lowest first),
and the cards by the shared trick core's ``lead_slot`` / ``follow_slot``
with the kernels' arguments (the two defenders partners against the maker).
The few lines of ``auction`` that choose one seat's call are written here
beside those calls (``auction`` plays the whole auction at once). A seat reads
its own hand (the dealer its discard, the maker the dummy), the up-card, the
calls, trump, the maker and the cards played: nothing else.
"""

from __future__ import annotations

import numpy as np

from bower.kernels.cutthroat.codes import C_PICKUP_MANDATORY, C_STICK, C_TURNED_DOWN_OK
from bower.kernels.cutthroat.hand import Q_PIMC, defender_goes_alone, is_random, maker_goes_alone
from bower.kernels.cutthroat.strategy import (Q_ASSIST, Q_LEAD_TRUMP, Q_NAME, Q_ORDER, Q_TAKE, Q_VOID, best_exchange,
                                              best_keep, card_weights)
from bower.kernels.estimate import best_suit, estimate
from bower.kernels.tables import SLOT_DECK
from bower.sim.preset_bots import follow_card, lead_card
from bower.sim.rules import encode
from bower.sim.variants.cutthroat import game as cg


def plays_at_random(params) -> bool:
    """Whether the strategy is the uniformly random player (the kernels' ``is_random``)."""
    return bool(is_random(params, 0))


def searches(params) -> str:
    """What the strategy searches (PIMC: ``pimc_worlds`` >= 1), which a bot cannot do here; "" when nothing."""
    return "pimc_worlds >= 1" if params[0, Q_PIMC] >= 1.0 else ""


class Player:
    """The strategy rows ``params`` (one per seat) at the table of ``game``: ``step(state)`` is the kernels' decision
    (``stream``: the bot's decision stream, not drawn from here)."""

    def __init__(self, params: np.ndarray, game, stream=None):
        self.params = params
        self.rules = encode(game.variant, game.rules)
        self.wt = np.zeros((params.shape[0], 4, 24), np.float64)
        self.order = np.zeros((params.shape[0], 5, 7), np.int64)
        card_weights(params, self.wt, self.order)
        self.pw = np.zeros((4, 8), np.float64)  # ``best_keep``'s scratch
        self.pm = np.zeros((4, 8), np.int64)
        self.dstate = np.zeros(4, np.uint64)  # the decision stream the kernels' functions take (a random seat's)
        self.dbuf = np.zeros(2, np.int64)

    def step(self, st) -> int:
        """The action of the seat to act at ``st`` (a ``bower.sim.variants.cutthroat.game.State``)."""
        seat = st.current_player()
        ph = st.phase
        p, wt, r = self.params, self.wt, self.rules
        if ph == cg.PLAY:
            return self._card(st, seat)
        hand = np.int64(st.hands[seat])
        vw = p[seat, Q_VOID]
        s64 = np.int64(seat)
        if ph == cg.AUCTION:
            position = (seat - st.dealer - 1) % 3 + 1
            u = st.up // 6
            if len(st.calls) < 3:
                if position == 3:
                    _, e = best_exchange(hand, np.int64(st.up), np.int64(u), wt, s64, vw)
                    accept = e >= p[seat, Q_TAKE]
                else:
                    need = p[seat, Q_ORDER] if position == 1 else p[seat, Q_ASSIST]
                    accept = estimate(hand, np.int64(u), wt, s64, vw) >= need
                return cg.ACCEPT if accept else cg.PASS
            allowed = 15 if r[C_TURNED_DOWN_OK] == 1 else 15 & ~(1 << u)
            stuck = position == 3 and r[C_STICK] == 1
            s, e = best_suit(hand, np.int64(allowed), wt, s64, vw)
            return cg.NAME + int(s) if stuck or e >= p[seat, Q_NAME] else cg.PASS
        if ph == cg.EXCHANGE:
            u = np.int64(st.up // 6)
            d, e = best_exchange(hand, np.int64(st.up), u, wt, s64, vw)
            if r[C_PICKUP_MANDATORY] == 1 or e > estimate(hand, u, wt, s64, vw):
                return int(d)
            return st.up  # no exchange
        if ph == cg.MAKER_ALONE:
            hands = np.zeros(3, np.int64)
            hands[seat] = hand
            go = maker_goes_alone(hands, np.int64(st.trump), s64, r, p, wt, np.int64(-1), np.int64(-1), self.dstate,
                                  self.dbuf)
            return cg.ALONE if go else cg.NOT_ALONE
        if ph == cg.DEFEND:
            go = defender_goes_alone(hand, np.int64(st.trump), s64, p, wt, self.dstate, self.dbuf)
            return cg.ALONE if go else cg.NOT_ALONE
        if ph == cg.MERGE:
            keep = int(best_keep(np.int64(st.ten), np.int64(st.trump), wt, self.order, s64, vw, self.pw, self.pm))
            left = keep & ~st.kept
            return (left & -left).bit_length() - 1
        raise ValueError(f"no decision of a seat at phase {ph}")

    def _card(self, st, seat: int) -> int:
        trump, maker = st.trump, st.maker
        if st.trick:
            return follow_card(st.hands[seat], st.trick, trump, lambda winner: (winner == maker) == (seat == maker))
        return lead_card(st.hands[seat], st.played, trump, int(SLOT_DECK[trump]), seat == maker, False,
                         self.params[maker, Q_LEAD_TRUMP], -1)
