"""should-bid's play-outs by a Python bot, for every variant: the advice kernels' draw loop in plain Python.

A variant's ``sim/variants/NAME/advice_bots.py`` gives ``bot_chunks``, a twin
of its advice kernel (``bower.kernels.NAME.advice.advice_chunks``: the same
arguments and outputs, with the game API's ``game``, a
``bower.sim.bots.SeatPlayer`` and the actions' ``labels`` added), built on
``run_chunks`` here and a ``Twin``: what the variant's kernel does its own
way (the deal's layout, the model's weight, the inference features, how an
action is forced through the game API, what a play-out scores). The loop
itself is the kernels': each chunk draws from its own deal stream with the
kernels' own ``shuffle``, weighs each deal as the kernel does (the kernels'
own model functions, called from Python), plays Russian roulette on light
softmax weights (``bower.kernels.advice.roulette``) and reseeds the decision
stream after every draw (``reseed``), so for a seed and a question it keeps
the same deals with the same weights, in the same order, as the kernel path
and sums the same draws, kept deals, weights and inference features. Only the
play-out differs: each kept deal is dealt through the game API, the decisions
the question fixes (the observed turns before the player's, the player's
action) are given, and every other decision of every seat is the bot's.
Every play-out's state holds the question's game scores (``--scores``, seen
from the player's seat: ``Twin.state_scores``) and the variant's target, so a
bot that reads ``game_scores()`` decides at them; without ``--scores``, 0s.

``KERNEL`` in the variant's module names the kernel its twin stands for:
``call_chunks`` (``bower.sim.advice``) runs the twin instead while
``bot_run`` holds a bot for that kernel, so the variant's ``advise`` runs
unchanged, on the default strategy's deal weights.
"""

from __future__ import annotations

import contextlib
import contextvars

import numpy as np

from bower.kernels import advice as ka
from bower.kernels.advice import reseed, roulette
from bower.kernels.deal import shuffle


class Twin:
    """What one variant's advice kernel does its own way; ``run_chunks`` does the rest.

    A subclass sets ``seats`` (the rows of ``infer``) and the deal's layout
    (``set_layout``) and fills in the methods below. A deal is (the four
    dealing slots' masks, the kitty): every advice kernel shuffles the cards
    the player does not see (``unseen``, ascending, the up-card left out),
    deals the first ``n_dealt`` in turn to the slots other than the player's
    (the other seats, or two of them and the ghost or the dummy) and leaves
    the rest, after the up-card, to the kitty (or the widow).
    """

    seats = 0
    roulette_zero = False  # whether a softmax weight of 0 still counts in the roulette's scale (as one kernel does)

    def set_layout(self, hand, seat: int, up: int | None, n_dealt: int, dealer: int, deck: int = 24,
                   packet: int = 1) -> None:
        """The deal's layout: the player's ``hand`` in slot ``seat`` of a ``deck``-card deck, the up-card ``up``
        (None: none), ``n_dealt`` cards to the other slots, the game API's dealer seat ``dealer``, whose state
        deals the slots' cards in packets of ``packet`` to slot 0, 1, 2, 3 in turn (slot s is seat s with the
        dealer in the kernels' advice seat), then the kitty."""
        self.hand, self.seat, self.up, self.n_dealt, self.dealer = np.int64(hand), int(seat), up, n_dealt, dealer
        self.packet = packet
        self.unseen = np.array([c for c in range(deck) if (int(hand) >> c) & 1 == 0 and c != up], np.int64)
        self.slots = [s for s in range(4) if s != seat]

    def draw(self, state, buf, unseen):
        """One deal from the chunk's deal stream ``state``: the kernels' own ``shuffle`` of ``unseen``, laid out
        as ``set_layout`` says."""
        shuffle(state, buf, unseen, len(unseen))
        dealt = np.zeros(4, np.int64)
        dealt[self.seat] = self.hand
        for i in range(self.n_dealt):
            dealt[self.slots[i % 3]] |= np.int64(1) << unseen[i]
        return dealt, ([] if self.up is None else [self.up]) + [int(c) for c in unseen[self.n_dealt:]]

    def state_scores(self, scores) -> tuple:
        """The question's game ``scores`` (``--scores`` as given: by position, or the player's side first in a
        partnership variant) in the game API's order (by seat, or by side, side 0 holding seats 0 and 2)."""
        if len(scores) == 2:  # the player's side, then the other side
            return tuple(scores) if self.seat % 2 == 0 else (scores[1], scores[0])
        return tuple(scores)  # by position: position p sits in seat p - 1

    def deal_state(self, game, deal, position=None):
        """A game API state after the deal of ``deal``, the dealer in the kernel's advice seat; ``position``: the
        game's (scores, target) the state holds (``game_scores()``, ``game_target()``; None: 0s and the
        variant's target)."""
        dealt, kitty = deal
        st = game.new_initial_state() if position is None else game.new_initial_state(*position)
        st.apply_action(self.dealer)
        cards = [[c for c in range(25) if int(dealt[s]) >> c & 1] for s in range(4)]
        n = self.packet
        for k in range(sum(map(len, cards))):
            st.apply_action(cards[k // n % 4][k // (4 * n) * n + k % n])
        for c in kitty:
            st.apply_action(int(c))
        return st

    def weigh(self, deal, dstate0, dbuf0) -> float | None:
        """The deal's weight before any roulette: the exact model's 1.0 or 0.0 (its auction on a copy of the
        decision stream ``dstate0``, ``dbuf0``), or the softmax model's product of probabilities; None for a deal
        the kernel rejects before the model weighs it (weight 0, left out of the roulette's scale)."""
        raise NotImplementedError

    def features(self, deal):
        """The inference features of a kept deal: one row (N_INFER values) per seat of ``infer``."""
        raise NotImplementedError

    def play_out(self, st, action, player) -> None:
        """Play ``st`` to its end with ``action`` (a row of the kernel's ``actions``) forced: the decisions the
        question fixes by ``player.given``, every other by ``player.choose``."""
        raise NotImplementedError

    def outcome(self, st, eqt):
        """What a finished play-out scores for the player: (maker, made, tricks, points, twice the margin, the
        equity table's cell or None when ``eqt`` is empty), as the kernel tallies them."""
        raise NotImplementedError

    def label(self, action) -> str:
        """The name of an action row, for the bot's error lines."""
        return " ".join(str(int(x)) for x in action)


def run_chunks(twin: Twin, states, dstates, targets, max_draws, model, actions, eqt, draws, kept, wsum, acc, pts_xy,
               mar_xy, infer, eacc, eq_xy, *, game, player, labels=None, scores=None, target=None) -> None:
    """The advice kernels' chunk loop with ``twin``'s deals and the play-outs by ``player`` (a
    ``bower.sim.bots.SeatPlayer``) through ``game``: fills the kernel's outputs, play-out row 0 only (the
    strategy's). ``labels[a]`` names action ``a`` in the error lines (default ``twin.label``). ``scores``: the
    question's game scores (``--scores``, in its order: ``Twin.state_scores``), ``target`` the game's (None: the
    variant's), which every play-out's state holds for the bot (``game_scores()``, ``game_target()``); None: 0s,
    as at the start of a game."""
    n_actions = actions.shape[0]
    position = None
    if scores is not None or target is not None:
        position = game.game_position(None if scores is None else twin.state_scores(scores), target)
    exact = model[ka.M_KIND] == ka.MODEL_EXACT
    has_eq = eqt.shape[0] > 0
    if labels is None:
        labels = [twin.label(actions[a]) for a in range(n_actions)]
    for ci in range(len(targets)):
        state = states[ci].copy()
        dstate0 = dstates[ci].copy()
        buf = np.zeros(2, np.int64)
        dbuf0 = np.zeros(2, np.int64)
        unseen = twin.unseen.copy()
        n_draws = n_kept = 0
        raw_sum, raw_n = 0.0, 0  # the softmax weights of the chunk's draws so far (the roulette's scale)
        while n_kept < targets[ci] and n_draws < max_draws:
            n_draws += 1
            deal = twin.draw(state, buf, unseen)
            w = twin.weigh(deal, dstate0, dbuf0)
            if w is None:
                w = 0.0
            elif not exact and (w > 0.0 or twin.roulette_zero):  # the scale: the draws' weights before this one
                w, raw_sum, raw_n = roulette(w, raw_sum, raw_n, state), raw_sum + w, raw_n + 1
            if not w > 0.0:
                reseed(dstate0, dbuf0)
                continue
            n_kept += 1
            wsum[ci] += (w, w * w)
            for s, row in enumerate(twin.features(deal)):
                for f, x in enumerate(row):
                    infer[ci, s, f] += w * x
            pts = np.zeros(n_actions)
            mar = np.zeros(n_actions)
            eq = np.zeros(n_actions)
            player.kept += 1
            for a in range(n_actions):
                player.begin(player.kept, labels[a])
                st = twin.deal_state(game, deal, position)
                player.start(st)
                twin.play_out(st, actions[a], player)
                maker, made, tricks, p, m, cell = twin.outcome(st, eqt)
                pts[a], mar[a] = p, m
                tally(acc[ci, 0, a], w, maker, made, tricks, p, m)
                if has_eq:
                    eq[a] = cell[0]
                    tally_equity(eacc[ci, 0, a], w, cell)
            pts_xy[ci, 0] += w * pts[:, None] * pts[None, :]
            mar_xy[ci, 0] += w * mar[:, None] * mar[None, :]
            if has_eq:
                eq_xy[ci, 0] += w * eq[:, None] * eq[None, :]
            reseed(dstate0, dbuf0)
        draws[ci] = n_draws
        kept[ci] = n_kept


def upcard_call_action(code: int, pass_action: int, accept_action: int, name_action: int) -> int:
    """The game API's action of a call code of the up-card variants' kernels (0 pass, 1 accept the up-card, 2 +
    suit name that suit), their API's ``PASS``, its acceptance and its first ``NAME`` given."""
    return pass_action if code == 0 else (accept_action if code == 1 else name_action + code - 2)


def passes_then_call(st, player, n_passes: int, pass_action: int, call_action: int, alone_phase: int, seat: int,
                     alone_action: int | None) -> None:
    """Play ``st`` to its end for the variants whose turn follows passes alone: ``n_passes`` passes given, the
    player's ``call_action`` given, at ``seat``'s own going-alone decision (phase ``alone_phase``) ``alone_action``
    given (None: not fixed), every other decision ``player``'s (``choose``)."""
    for _ in range(n_passes):
        player.given(st, pass_action)
    player.given(st, call_action)
    while not st.is_terminal():
        if alone_action is not None and st.phase == alone_phase and st.player == seat:
            player.given(st, alone_action)
        else:
            player.choose(st)


def tally(row, w, maker, made, tricks, points, margin2) -> None:
    """``bower.kernels.advice.tally_weighted`` in Python."""
    row[ka.W_N] += w
    row[ka.W_N2] += w * w
    if maker:
        row[ka.W_MAKER] += w
        row[ka.W_MAKER2] += w * w
        if made:
            row[ka.W_MADE] += w
    row[ka.W_TRICKS] += w * tricks
    row[ka.W_TRICKS_SQ] += w * tricks * tricks
    row[ka.W_PTS] += w * points
    row[ka.W_PTS_SQ] += w * points * points
    row[ka.W_MAR] += w * margin2
    row[ka.W_MAR_SQ] += w * margin2 * margin2


def tally_equity(row, w, cell) -> None:
    """``bower.kernels.advice.tally_equity`` in Python."""
    e = cell[0]
    row[ka.E_SUM] += w * e
    row[ka.E_SQ] += w * e * e
    for r in range(1, cell.shape[0]):
        row[ka.E_DRAW + r - 1] += w * cell[r]


def side_cell(eqt, p0, p1, maker_side):
    """``bower.kernels.advice.side_equity`` in Python (two sides)."""
    off = ka.EQ_OFF
    if -off <= p0 <= off and -off <= p1 <= off and 0 <= maker_side <= 1:
        return eqt[p0 + off, p1 + off, maker_side]
    return eqt[-1, -1, -1]


def seat_cell(eqt, p0, p1, p2):
    """``bower.kernels.advice.seat_equity`` in Python (three seats)."""
    off = ka.EQ_OFF
    if -off <= p0 <= off and -off <= p1 <= off and -off <= p2 <= off:
        return eqt[p0 + off, p1 + off, p2 + off]
    return eqt[-1, -1, -1]


# ---- the route: a variant's ``advise`` unchanged, its advice kernel's calls answered by the twin -------------------

_RUN: contextvars.ContextVar = contextvars.ContextVar("bower_advice_bot_run", default=None)


class BotRun:
    """A bot's should-bid run: the variant's twin module (``KERNEL``, ``bot_chunks``), the API game, the player,
    the question's game scores (``--scores`` in its order, or None)."""

    def __init__(self, module, game, player, scores=None):
        self.module, self.game, self.player, self.scores = module, game, player, scores

    def chunks(self, states, dstates, targets, fixed: tuple, outs: tuple) -> None:
        """The twin's ``bot_chunks`` on a batch, in place of the kernel's call."""
        self.module.bot_chunks(states, dstates, targets, *fixed, *outs, game=self.game, player=self.player,
                               game_scores=self.scores)


def current_run(kernel: str):
    """The ``BotRun`` that answers calls of the advice kernel ``kernel`` now, or None (the kernel runs)."""
    run = _RUN.get()
    return run if run is not None and run.module.KERNEL == kernel else None


@contextlib.contextmanager
def bot_run(module, game, player, scores=None):
    """While inside, ``call_chunks`` of ``module.KERNEL`` plays ``player``'s play-outs (``module.bot_chunks``)
    within the bot's time limit clock (``player.clock``), their states holding the game ``scores`` (the
    question's, in its order; None: 0s)."""
    token = _RUN.set(BotRun(module, game, player, scores))
    try:
        with player.clock():
            yield
    finally:
        _RUN.reset(token)
