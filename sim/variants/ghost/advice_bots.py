"""``should-bid --strategy mybot.py:MyBot`` in Ghost Hand: the should-bid play-outs with Python bots.

``bot_chunks`` is a plain-Python twin of the advice kernel
(``bower.kernels.ghost.advice.advice_chunks``) with the same arguments and
outputs, on ``bower.sim.advice_bots.run_chunks``: it draws the deals as the
kernel does (18 unseen cards shuffled by the kernels' ``shuffle``, dealt in
turn to the two other positions and the ghost), weighs them with the
kernels' own ``deal_weight`` (softmax; its inference features too) or the
strategy's own auction (``strategy_reproduces``, exact), so it keeps the
kernel path's deals with its weights. Each kept deal is then dealt through
the game API (dealer in seat 2, position p in seat p - 1) and, for each
open action, the observed turns before the player's are given (each
caller's swap decision: a swap exactly by ``--swapped``'s position; its
call), then the player's own: its swap or keep where the action fixes it,
its call where the action fixes one, and the trump it names if it wins the
auction; every other decision (the call after "swap, then the strategy's
call", the later calls, trump, every card) is the bot's. Each play-out's
state holds the game's scores by seat and the target as the kernel's
play-outs read them (``game_scores()``, ``game_target()``: ``--scores``, 0s
without), so a score-reading bot (``score-aware``) plays them as the kernel
strategy does; ``--scores`` also weighs the deals as the default strategy
would at those scores and values each hand's points in games won.
"""

from __future__ import annotations

import numpy as np

from bower.kernels import advice as ka
from bower.kernels.ghost import hand as gk
from bower.kernels.ghost.advice import ADVICE_DEALER, strategy_reproduces
from bower.kernels.ghost.codes import G_STICK, G_SWAP
from bower.kernels.ghost.model import MAX_CHOICES, N_FEATURES, deal_weight
from bower.sim.advice_bots import Twin, run_chunks, seat_cell
from bower.sim.variants.ghost import game as gg

KERNEL = "bower.kernels.ghost.advice:advice_chunks"
SEATS = gk.N_SEATS
_CALL_WORDS = {0: "pass", 3: "3", 4: "4", 5: "5", 6: "moon"}


def call_action(code: int) -> int:
    """The game API's action of a kernel call code (0 pass, 3..5, 6 the moon)."""
    if code == 0:
        return gg.PASS
    return gg.MOON if code == gg.MOON_BID else gg.BID + code - 3


class GhostTwin(Twin):
    """Ghost Hand's advice kernel's own ways (see the module's text)."""

    seats = SEATS

    def __init__(self, hand, seat, rules, rows, scores, target, prefix, swap_given, model):
        self.set_layout(hand, seat, None, 18, ADVICE_DEALER)  # 6 cards to each other position and the ghost
        self.rules, self.rows = rules, rows
        self.scores, self.target, self.prefix, self.swap_given = scores, target, prefix, int(swap_given)
        self.exact = model[ka.M_KIND] == ka.MODEL_EXACT
        self.tau, self.eps = model[ka.M_TAU], model[ka.M_EPS]
        self.feats = np.zeros((SEATS, N_FEATURES))
        self.best_e = np.zeros(SEATS)
        self.dist = np.zeros(MAX_CHOICES)
        self.hands = np.zeros(SEATS, np.int64)
        self.rec = np.zeros(gk.R_WIDTH, np.int64)

    def weigh(self, deal, dstate0, dbuf0) -> float:
        dealt, _ = deal
        w = deal_weight(dealt[:SEATS].copy(), dealt[3], np.int64(ADVICE_DEALER), self.rules[G_STICK],
                        self.rules[G_SWAP], self.rows, self.scores, self.target, self.prefix, self.swap_given,
                        self.seat, self.tau, self.eps, self.feats, self.best_e, self.dist)
        if self.exact:
            ok = strategy_reproduces(dealt, dstate0.copy(), dbuf0.copy(), self.hands, self.rules, self.rows,
                                     self.scores, self.target, self.prefix, self.swap_given, self.rec)
            return 1.0 if ok else 0.0
        return w

    def features(self, dealt):
        return self.feats  # ``deal_weight``'s, of the deal just weighed

    def play_out(self, st, action, player) -> None:
        swap, call, trump = int(action[0]), int(action[1]), int(action[2])
        k = self.prefix.shape[0]
        while not st.is_terminal():
            n = len(st.calls)
            if st.phase == gg.SWAP_TURN and n < k:  # an observed turn: the swap is --swapped's position's alone
                player.given(st, gg.SWAP if st.player == self.swap_given else gg.KEEP)
            elif st.phase == gg.AUCTION and n < k:
                player.given(st, call_action(int(self.prefix[n, 1])))
            elif st.phase == gg.SWAP_TURN and n == k and swap >= 0:
                player.given(st, gg.SWAP if swap == 1 else gg.KEEP)
            elif st.phase == gg.AUCTION and n == k and call >= 0:
                player.given(st, call_action(call))
            elif st.phase == gg.NAMING and st.player == self.seat and trump >= 0:
                player.given(st, gg.TRUMP + trump)
            else:
                player.choose(st)

    def outcome(self, st, eqt):
        seat = self.seat
        p = st.points[seat]
        cell = seat_cell(eqt, *st.points) if eqt.shape[0] else None
        return st.maker == seat, st.won[seat] >= st.bid, st.won[seat], p, 2 * p - (sum(st.points) - p), cell

    def label(self, action) -> str:
        call, trump = int(action[1]), int(action[2])
        if call < 0:  # the answer's name for it (``bower.sim.variants.ghost.advice.open_actions``)
            return "swap, then the strategy's call"
        return _CALL_WORDS[call] + ("" if call == 0 else f" {gg.SUITS[trump]}")


def bot_chunks(states, dstates, targets, max_draws, hand, seat, rules, params, scores, target_score, prefix,
               swap_given, actions, model, playout, search, dd, eqt, draws, kept, wsum, acc, pts_xy, mar_xy, infer,
               eacc, eq_xy, *, game, player, labels=None, game_scores=None):
    """``advice_chunks`` (the same arguments, without the chunk range, and the same outputs) with the play-outs by
    ``player`` (a ``bower.sim.bots.SeatPlayer``) through ``game``; only play-out row 0 (the strategy's).

    The draw loop is the kernel's (``bower.sim.advice_bots.run_chunks``), so ``draws``, ``kept``, ``wsum`` and
    ``infer`` are the kernel's own for the same arguments.
    Every play-out's state holds the game's scores and target as the kernel's play-outs read them (``scores``
    by seat, position p in seat p - 1, and ``target_score``; ``game_scores``: the question's, the same).
    """
    twin = GhostTwin(hand, seat, rules, params, scores, target_score, prefix, swap_given, model)
    run_chunks(twin, states, dstates, targets, max_draws, model, actions, eqt, draws, kept, wsum, acc, pts_xy, mar_xy,
               infer, eacc, eq_xy, game=game, player=player, labels=labels,
               scores=scores if game_scores is None else game_scores, target=int(target_score))
