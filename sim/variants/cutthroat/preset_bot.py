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

``pimc`` and ``pimc-fast`` (heuristic calls, PIMC cards) search each card
by the kernels' ``pimc.choose`` on ``pimc_facts`` of a record of what the
seat knows (``_searched``); ``pimc-bid`` (a searched auction) is refused.
"""

from __future__ import annotations

import numpy as np

from bower.kernels.cutthroat.codes import C_PICKUP_MANDATORY, C_STICK, C_TURNED_DOWN_OK
from bower.kernels.cutthroat.hand import (DECK, Q_PIMC, Q_PIMC_BID, Q_PIMC_INFER, Q_PIMC_SEES, R_ALONE, R_DEALER,
                                          R_DEALER_DISCARD, R_KITTY, R_MAKER, R_MAKER_DISCARDS, R_PLAYS, R_WIDTH,
                                          defender_goes_alone, is_random, maker_goes_alone, pimc_facts)
from bower.kernels.cutthroat.strategy import (Q_ASSIST, Q_LEAD_TRUMP, Q_NAME, Q_ORDER, Q_TAKE, Q_VOID, best_exchange,
                                              best_keep, card_weights)
from bower.kernels.estimate import best_suit, estimate
from bower.kernels.tables import SLOT_DECK
from bower.sim.preset_bots import follow_card, hand_workspace, lead_card, pimc_card, searched_parts, write_plays
from bower.sim.rules import encode
from bower.sim.variants.cutthroat import game as cg


def plays_at_random(params) -> bool:
    """Whether the strategy is the uniformly random player (the kernels' ``is_random``)."""
    return bool(is_random(params, 0))


def searches(params) -> str:
    """What the strategy searches that a bot cannot (a searched auction, auction-weighted worlds, the true hands);
    "" when nothing: heuristic calls with PIMC cards (``pimc``, ``pimc-fast``) are a bot."""
    return searched_parts(params, Q_PIMC, Q_PIMC_BID, Q_PIMC_INFER, Q_PIMC_SEES)


class Player:
    """The strategy rows ``params`` (one per seat) at the table of ``game``: ``step(state)`` is the kernels' decision
    (``stream``: the bot's decision stream, for a PIMC strategy's worlds)."""

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
        self.worlds = int(params[0, Q_PIMC])  # PIMC cards (``pimc_worlds`` >= 1), from the decision ``stream``
        self.stream = stream
        self.rec = np.zeros(R_WIDTH, np.int64)
        self.ws = None

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
        if self.worlds >= 1:
            return self._searched(st, seat)
        if st.trick:
            return follow_card(st.hands[seat], st.trick, trump, lambda winner: (winner == maker) == (seat == maker))
        return lead_card(st.hands[seat], st.played, trump, int(SLOT_DECK[trump]), seat == maker, False,
                         self.params[maker, Q_LEAD_TRUMP], -1)

    def _searched(self, st, seat: int) -> int:
        """The PIMC card (as the kernels' ``pick_card``): the facts from a record of what the seat knows (dealer,
        maker, up-card, who went alone, whether the dealer took the up-card, the maker's own discards, the
        plays), the worlds from the bot's stream, a fresh workspace each hand (as the kernels' hand)."""
        self.ws = hand_workspace(st, self.ws)
        rec = self.rec
        rec[R_DEALER] = st.dealer
        rec[R_MAKER] = st.maker
        rec[R_KITTY] = st.up
        rec[R_ALONE] = ((1 << st.maker) if st.maker_alone else 0) | ((1 << st.lone) if st.lone >= 0 else 0)
        rec[R_DEALER_DISCARD] = st.discard if st.exchanged else -1  # to another seat: only whether it is taken
        rec[R_MAKER_DISCARDS] = st.pile if seat == st.maker else 0  # read for the maker alone
        n = write_plays(st, rec, R_PLAYS)
        return pimc_card(st.hands[seat], seat, pimc_facts(rec, np.int64(seat)), st.trump, DECK, rec, R_PLAYS, n,
                         self.worlds, self.stream, self.ws)
