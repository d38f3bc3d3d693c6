"""``should-bid --variant hasenpfeffer --strategy mybot.py:MyBot``: the should-bid play-outs with Python bots.

``bot_chunks`` is a plain-Python twin of the advice kernel
(``bower.kernels.hasenpfeffer.advice.advice_chunks``) with the same
arguments and outputs, on ``bower.sim.advice_bots.run_chunks``: it draws the
deals as the kernel does (the 19 cards the player does not see, the joker
among them, shuffled by the kernels' ``shuffle``: 6 to each other seat in
turn, the last the widow), weighs them with the kernels' own functions (the
strategy's ``auction`` must make the calls before the turn under the exact
model; ``auction_weight`` and the roulette under the softmax one), so it
keeps the kernel path's deals with its weights. Each kept deal is dealt
through the game API (dealer in seat 3, position p in seat p - 1; the cards
in packets of three) and, for each open action, the calls before the turn
are given (the player's own earlier ones too), then the player's call (pass,
a bid, or a pepper under ``bidding = pepper``); every other decision (the
later calls, the high bidder's discard after taking the widow, trump, every
card) is the bot's. With ``--scores`` each play-out's state holds the
question's scores by side (the player's side's in its own place) and the
variant's target (``game_scores()``, ``game_target()``), so a bot that reads
them decides at them, and each hand's points are valued in games won.
"""

from __future__ import annotations

import numpy as np

from bower.kernels import advice as ka
from bower.kernels.hasenpfeffer import hand as hk
from bower.kernels.hasenpfeffer.advice import ADVICE_DEALER
from bower.kernels.hasenpfeffer.model import MAX_CHOICES, auction_weight, features
from bower.kernels.hasenpfeffer.strategy import card_weights
from bower.sim.advice_bots import Twin, run_chunks, side_cell
from bower.sim.variants.hasenpfeffer import game as hg

KERNEL = "bower.kernels.hasenpfeffer.advice:advice_chunks"
SEATS = hk.N_SEATS


def call_action(level: int) -> int:
    """The game API's action of a call level (0 pass, 1..7 a bid)."""
    return hg.PASS if level == 0 else hg.BID + level - 1


class HasenpfefferTwin(Twin):
    """Hasenpfeffer's advice kernel's own ways (see the module's text)."""

    seats = SEATS

    def __init__(self, hand, seat, rules, params, prefix, model):
        self.set_layout(hand, seat, None, 18, ADVICE_DEALER, deck=25, packet=3)  # 6 to each other seat; the widow
        self.rules, self.params, self.prefix, self.model = rules, params, prefix, model
        self.exact = model[ka.M_KIND] == ka.MODEL_EXACT
        self.wt = np.zeros((SEATS, 4, 25), np.float64)
        card_weights(params, self.wt)
        self.unforced = hk.NO_FORCE.copy()
        self.hands = np.zeros(SEATS, np.int64)
        self.rec = np.zeros(hk.R_WIDTH, np.int64)
        self.est = np.zeros(SEATS, np.float64)
        self.dist = np.zeros(MAX_CHOICES, np.float64)

    def weigh(self, deal, dstate0, dbuf0) -> float:
        dealt, _ = deal
        if not self.exact:
            return auction_weight(dealt, self.seat, self.prefix, self.rules, self.params, self.wt, self.model,
                                  self.est, self.dist)
        self.hands[:] = dealt
        held = [s for s in range(SEATS) if (int(dealt[s]) >> hk.JOKER) & 1]
        rec = self.rec
        hk.auction(self.hands, np.int64(held[0] if held else -1), np.int64(ADVICE_DEALER), self.rules, self.params,
                   self.wt, self.unforced, dstate0.copy(), dbuf0.copy(), rec, None)
        k = self.prefix.shape[0]
        return 1.0 if rec[hk.R_NCALLS] > k and all(
            rec[hk.R_CALLS + 2 * i] == self.prefix[i, 0] and rec[hk.R_CALLS + 2 * i + 1] == self.prefix[i, 1]
            for i in range(k)) else 0.0

    def features(self, deal):
        dealt, _ = deal
        return [(0.0, 0.0) if s == self.seat else features(dealt[s], np.int64(s), self.params, self.wt)
                for s in range(SEATS)]

    def play_out(self, st, action, player) -> None:
        k = self.prefix.shape[0]
        while not st.is_terminal():
            n = len(st.calls)
            if st.phase == hg.AUCTION and n < k:
                player.given(st, call_action(int(self.prefix[n, 1])))
            elif st.phase == hg.AUCTION and n == k:
                player.given(st, call_action(int(action)))
            else:
                player.choose(st)

    def outcome(self, st, eqt):
        side = self.seat % 2
        bidder = st.bidder
        ours = bidder >= 0 and bidder % 2 == side
        t = st.won[side] + st.won[side + 2]
        p = st.points[side]
        cell = side_cell(eqt, st.points[0], st.points[1], bidder % 2 if bidder >= 0 else 0) if eqt.shape[0] else None
        return ours, ours and t >= hk.bid_need(st.level), t, p, 2 * (p - st.points[1 - side]), cell

    def label(self, action) -> str:
        return "pass" if action == 0 else f"bid level {int(action)}"


def bot_chunks(states, dstates, targets, max_draws, hand, seat, rules, params, prefix, actions, model, playout,
               search, dd, eqt, draws, kept, wsum, acc, pts_xy, mar_xy, infer, eacc, eq_xy, *, game, player,
               labels=None, game_scores=None):
    """``advice_chunks`` (the same arguments, without the chunk range, and the same outputs) with the play-outs by
    ``player`` (a ``bower.sim.bots.SeatPlayer``) through ``game``; only play-out row 0 (the strategy's).

    The draw loop is the kernel's (``bower.sim.advice_bots.run_chunks``), so ``draws``, ``kept``, ``wsum`` and
    ``infer`` are the kernel's own for the same arguments.
    ``game_scores``: the question's game scores (``--scores``: the player's side's first, or by position), which
    every play-out's state holds with the variant's target (None: 0s); the kernel's play-outs do not read them.
    """
    twin = HasenpfefferTwin(hand, seat, rules, params, prefix, model)
    if labels is None:  # the answer's names (``bower.sim.variants.hasenpfeffer.advice``)
        names = hg.PEPPER_NAMES if game.rules["bidding"] == "pepper" else hg.NUMERIC_NAMES
        labels = ["pass" if a == 0 else f"bid {names[a]}" for a in actions]
    run_chunks(twin, states, dstates, targets, max_draws, model, actions, eqt, draws, kept, wsum, acc, pts_xy, mar_xy,
               infer, eacc, eq_xy, game=game, player=player, labels=labels,
               scores=game_scores)
