"""``should-bid --variant cutthroat --strategy mybot.py:MyBot``: the should-bid play-outs with Python bots.

``bot_chunks`` is a plain-Python twin of the advice kernel
(``bower.kernels.cutthroat.advice.advice_chunks``) with the same arguments
and outputs, on ``bower.sim.advice_bots.run_chunks``: it draws the deals as
the kernel does (18 unseen cards shuffled by the kernels' ``shuffle``, 5 to
each other position and the dummy in turn, 3 to the kitty after the
up-card), weighs them with the kernels' own functions (the strategy's
``auction`` must pass as the calls did under the exact model, or where a seat
plays at random; ``pass_weight`` under the softmax model) and plays the
kernel's roulette, so it keeps the kernel path's deals with its weights. Each
kept deal is dealt through the game API (dealer in seat 2, position p in
seat p - 1) and, for each open action, the passes before the turn are given,
then the player's call and, when it makes trump, its going alone or with the
dummy; every other decision (the dealer's exchange, the defenders' answers,
the merge, every card) is the bot's. With ``--scores`` each play-out's state
holds the question's scores by seat and the variant's target (``game_scores()``,
``game_target()``), so a bot that reads them decides at them, and each hand's
points are valued in games won.
"""

from __future__ import annotations

import numpy as np

from bower.kernels import advice as ka
from bower.kernels.cutthroat import hand as ck
from bower.kernels.cutthroat.advice import ADVICE_DEALER, forced_passes
from bower.kernels.cutthroat.model import pass_weight
from bower.kernels.cutthroat.strategy import Q_RANDOM, Q_VOID, card_weights
from bower.kernels.estimate import estimate
from bower.sim.advice_bots import Twin, passes_then_call, run_chunks, upcard_call_action, seat_cell
from bower.sim.variants.cutthroat import game as cg

KERNEL = "bower.kernels.cutthroat.advice:advice_chunks"
SEATS = ck.N_SEATS


class CutthroatTwin(Twin):
    """Cutthroat's advice kernel's own ways (see the module's text)."""

    seats = SEATS
    roulette_zero = True  # the kernel counts every deal its auction check lets through in the roulette's scale

    def __init__(self, hand, up, seat, rules, params, n_passes, model):
        self.set_layout(hand, seat, int(up), 15, ADVICE_DEALER)  # 5 cards to each other position and the dummy
        self.rules, self.params, self.n_passes = rules, params, int(n_passes)
        self.exact = model[ka.M_KIND] == ka.MODEL_EXACT
        self.tau, self.eps = model[ka.M_TAU], model[ka.M_EPS]
        self.wt = np.zeros((SEATS, 4, 24), np.float64)
        card_weights(params, self.wt, np.zeros((SEATS, 5, 7), np.int64))
        self.check = bool(self.exact or (params[:, Q_RANDOM] >= 0.5).any())  # the strategy's own auction decides
        self.pplay = params.copy() if self.exact or not self.check else forced_passes(
            params, np.int64(ADVICE_DEALER), np.int64(n_passes))
        self.hands = np.zeros(SEATS, np.int64)
        self.rec = np.zeros(ck.R_WIDTH, np.int64)
        self.dist = np.zeros(8)

    def weigh(self, deal, dstate0, dbuf0) -> float | None:
        dealt, _ = deal
        hands = self.hands
        if self.check:
            rec = self.rec
            hands[:] = dealt[:SEATS]
            ck.auction(hands, np.int64(self.up), np.int64(ADVICE_DEALER), self.rules, self.pplay, self.wt,
                       ck.force_of(ck.NO_FORCE), dstate0.copy(), dbuf0.copy(), rec, None)
            n = self.n_passes
            if not (rec[ck.R_NCALLS] > n and all(rec[ck.R_CALLS + 2 * i + 1] == ck.CALL_PASS for i in range(n))):
                return 0.0 if self.exact else None
        if self.exact:
            return 1.0
        hands[:] = dealt[:SEATS]
        return pass_weight(hands, np.int64(self.up), np.int64(ADVICE_DEALER), self.seat, np.int64(self.n_passes),
                           self.rules, self.params, self.wt, self.tau, self.eps, self.dist)

    def features(self, deal):
        dealt, _ = deal
        u = self.up // 6
        right = u * 6 + 2
        return [(0.0, 0.0) if s == self.seat else
                (estimate(dealt[s], np.int64(u), self.wt, np.int64(s), self.params[s, Q_VOID]),
                 (int(dealt[s]) >> right) & 1) for s in range(SEATS)]

    def play_out(self, st, action, player) -> None:
        alone = int(action[1])  # -1 not asked, 0 with the dummy, 1 alone
        call = upcard_call_action(int(action[0]), cg.PASS, cg.ACCEPT, cg.NAME)
        passes_then_call(st, player, self.n_passes, cg.PASS, call, cg.MAKER_ALONE, self.seat,
                         None if alone < 0 else (cg.ALONE if alone == 1 else cg.NOT_ALONE))

    def outcome(self, st, eqt):
        seat = self.seat
        p = st.points[seat]
        cell = seat_cell(eqt, *st.points) if eqt.shape[0] else None
        t = st.won[seat]
        return st.maker == seat, t >= ck.MAKER_NEEDS, t, p, 2 * p - (sum(st.points) - p), cell

    def label(self, action) -> str:  # the answer's names (``bower.sim.variants.cutthroat.advice.open_actions``)
        code, alone = int(action[0]), int(action[1])
        if code == ck.CALL_PASS:
            return "pass"
        word = cg.ACCEPT_WORD[self.seat + 1] if code == ck.CALL_ACCEPT else f"name {cg.SUITS[code - ck.CALL_SUIT]}"
        return word + (", alone" if alone == 1 else ", with the dummy")


def bot_chunks(states, dstates, targets, max_draws, hand, up, seat, rules, params, n_passes, actions, model, playout,
               search, dd, eqt, draws, kept, wsum, acc, pts_xy, mar_xy, infer, eacc, eq_xy, *, game, player,
               labels=None, game_scores=None):
    """``advice_chunks`` (the same arguments, without the chunk range, and the same outputs) with the play-outs by
    ``player`` (a ``bower.sim.bots.SeatPlayer``) through ``game``; only play-out row 0 (the strategy's).

    The draw loop is the kernel's (``bower.sim.advice_bots.run_chunks``), so ``draws``, ``kept``, ``wsum`` and
    ``infer`` are the kernel's own for the same arguments.
    ``game_scores``: the question's game scores (``--scores``: the player's side's first, or by position), which
    every play-out's state holds with the variant's target (None: 0s); the kernel's play-outs do not read them.
    """
    twin = CutthroatTwin(hand, up, seat, rules, params, n_passes, model)
    run_chunks(twin, states, dstates, targets, max_draws, model, actions, eqt, draws, kept, wsum, acc, pts_xy, mar_xy,
               infer, eacc, eq_xy, game=game, player=player, labels=labels,
               scores=game_scores)
