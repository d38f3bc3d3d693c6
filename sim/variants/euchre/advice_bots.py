"""``should-bid --variant euchre --strategy mybot.py:MyBot``: the should-bid play-outs with Python bots.

``bot_chunks`` is a plain-Python twin of the advice kernel
(``bower.kernels.euchre.advice.advice_chunks``) with the same arguments and
outputs: it draws the deals exactly as the kernel does, from the same chunk
states (the same shuffles of the unseen cards through the kernels' own
``shuffle``; the same weights: ``deal_weight`` and ``roulette`` under the
softmax model, the strategy's ``auction`` under the exact one, on the same
decision streams), so for a seed and a question it keeps the same deals with
the same weights, in the same order, as the kernel path. Only the play-out
differs: each kept deal is dealt through the game API (``bower.game``) and,
for each open action, the passes before the turn are given, the player's call
(and its going alone or not) is forced at the player's seat, and every other
decision of every seat (the dealer's discard, the defenders' answers, every
card) is the bot's. The deals' weights come from the auction model of the
kernel strategy (``default``): a bot has no model of the other players' calls.
With ``--scores`` each play-out's state holds the question's scores by side
(the player's side's in its own place) and the variant's target
(``game_scores()``, ``game_target()``), so a bot that reads them decides at
them.
"""

from __future__ import annotations

import numpy as np

from bower.kernels import advice as ka
from bower.kernels.euchre import hand as ek
from bower.kernels.euchre.advice import ADVICE_DEALER
from bower.kernels.euchre.codes import E_DISCARD_UP
from bower.kernels.euchre.model import deal_features, deal_weight
from bower.kernels.euchre.strategy import card_weights
from bower.sim.advice_bots import Twin, passes_then_call, run_chunks, upcard_call_action, side_cell
from bower.sim.cards import SUITS
from bower.sim.variants.euchre import game as eg

SEATS = 4
KERNEL = "bower.kernels.euchre.advice:advice_chunks"


class EuchreTwin(Twin):
    """Euchre's advice kernel's own ways: 18 unseen cards, 5 to each other seat and 3 to the kitty beside the
    up-card; the passes before the turn weighed by ``deal_weight`` (softmax) or reproduced by the strategy's
    ``auction`` (exact); the player's call (and going alone) forced."""

    seats = SEATS

    def __init__(self, hand, up, seat, rules, params, n_passes, model):
        self.set_layout(hand, seat, int(up), 15, ADVICE_DEALER)  # 5 cards to each other seat; 3 to the kitty
        self.rules, self.params, self.n_passes, self.model = rules, params, int(n_passes), model
        self.exact = model[ka.M_KIND] == ka.MODEL_EXACT
        self.wt = np.zeros((SEATS, 4, 24), np.float64)
        card_weights(params, self.wt)
        check = ek.NO_FORCE.copy()
        check[ek.F_SEAT] = seat
        check[ek.F_AT] = n_passes
        check[ek.F_CALL] = ek.CALL_PASS
        self.check = ek.force_of(check)
        self.dist = np.zeros(4, np.float64)
        self.est = np.zeros(4, np.float64)
        self.hands = np.zeros(SEATS, np.int64)
        self.rec = np.zeros(ek.R_WIDTH, np.int64)

    def weigh(self, deal, dstate0, dbuf0) -> float:
        dealt, _ = deal
        if self.exact:
            rec = self.rec
            self.hands[:] = dealt
            ek.auction(self.hands, np.int64(self.up), np.int64(ADVICE_DEALER), self.rules, self.params, self.wt,
                       self.check, dstate0.copy(), dbuf0.copy(), rec, None)
            n = self.n_passes
            return 1.0 if rec[ek.R_NCALLS] > n and all(
                rec[ek.R_CALLS + 2 * i + 1] == ek.CALL_PASS for i in range(n)) else 0.0
        return deal_weight(dealt, np.int64(self.up), np.int64(ADVICE_DEALER), np.int64(self.n_passes),
                           np.int64(self.seat), self.wt, self.params, bool(self.rules[E_DISCARD_UP] == 1),
                           self.model, self.dist, self.est)

    def features(self, deal):
        dealt, _ = deal
        return [deal_features(dealt[s], np.int64(self.up), self.wt, self.params, np.int64(s)) for s in range(SEATS)]

    def play_out(self, st, action, player) -> None:
        alone = int(action[1])  # -1 not asked, 0 with partner, 1 alone
        call = upcard_call_action(int(action[0]), eg.PASS, eg.ORDER, eg.NAME)
        passes_then_call(st, player, self.n_passes, eg.PASS, call, eg.MAKER_ALONE, self.seat,
                         None if alone < 0 else (eg.ALONE if alone == 1 else eg.WITH_PARTNER))

    def outcome(self, st, eqt):
        side = self.seat & 1
        maker = st.maker
        ours = maker >= 0 and (maker & 1) == side
        t = st.won[side] + st.won[side + 2]
        p = st.points[side]
        cell = side_cell(eqt, st.points[0], st.points[1], maker & 1 if maker >= 0 else 0) if eqt.shape[0] else None
        return ours, ours and t >= ek.MAKER_NEEDS, t, p, 2 * (p - st.points[1 - side]), cell

    def label(self, action) -> str:  # the answer's names (``bower.sim.variants.euchre.advice.open_actions``)
        code, alone = int(action[0]), int(action[1])
        if code == ek.CALL_PASS:
            return "pass"
        base = ("take it up" if self.seat == ADVICE_DEALER else "order it up") if code == ek.CALL_ORDER \
            else f"name {SUITS[code - ek.CALL_SUIT]}"
        return f"{base}, alone" if alone == 1 else f"{base}, with partner"


def bot_chunks(states, dstates, targets, max_draws, hand, up, seat, rules, params, n_passes, actions, model, playout,
               search, dd, eqt, draws, kept, wsum, acc, pts_xy, mar_xy, infer, eacc, eq_xy, *, game, player,
               labels=None, game_scores=None):
    """``advice_chunks`` (the same arguments, without the chunk range, and the same outputs) with the play-outs by
    ``player`` (a ``bower.sim.bots.SeatPlayer``) through ``game``, ``labels[a]`` naming action ``a`` in its error
    lines; only play-out row 0 (the strategy's).

    The draw loop is the kernel's, step for step (``bower.sim.advice_bots.run_chunks``), so ``draws``, ``kept``,
    ``wsum`` and ``infer`` are the kernel's own for the same arguments.
    ``game_scores``: the question's game scores (``--scores``: the player's side's first, or by position), which
    every play-out's state holds with the variant's target (None: 0s); the kernel's play-outs do not read them.
    """
    twin = EuchreTwin(hand, up, seat, rules, params, n_passes, model)
    run_chunks(twin, states, dstates, targets, max_draws, model, actions, eqt, draws, kept, wsum, acc, pts_xy, mar_xy,
               infer, eacc, eq_xy, game=game, player=player, labels=labels,
               scores=game_scores)
