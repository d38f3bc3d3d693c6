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
"""

from __future__ import annotations

import numpy as np

from bower.kernels import advice as ka
from bower.kernels.advice import reseed, roulette
from bower.kernels.deal import shuffle
from bower.kernels.euchre import hand as ek
from bower.kernels.euchre.advice import ADVICE_DEALER
from bower.kernels.euchre.model import deal_features, deal_weight
from bower.kernels.euchre.strategy import card_weights
from bower.sim.variants.euchre import game as eg

SEATS = 4


def _call_action(code: int) -> int:
    """The game API's action of a kernel call code (``hand.CALL_*``)."""
    if code == ek.CALL_PASS:
        return eg.PASS
    if code == ek.CALL_ORDER:
        return eg.ORDER
    return eg.NAME + (code - ek.CALL_SUIT)


def _draw(state, buf, unseen, hand, up, seat):
    """One deal of the kernel's loop from the chunk's deal stream ``state``: (dealt masks by seat, kitty)."""
    shuffle(state, buf, unseen, 18)
    dealt = np.zeros(SEATS, np.int64)
    dealt[seat] = hand
    others = [p for p in range(SEATS) if p != seat]
    for i in range(15):
        dealt[others[i % 3]] |= np.int64(1) << unseen[i]
    kitty = [up, int(unseen[15]), int(unseen[16]), int(unseen[17])]
    return dealt, kitty


def deal_state(game, dealt, kitty):
    """A game API state after the deal of ``dealt`` (masks by seat) and ``kitty`` (up-card first), dealer seat 3."""
    st = game.new_initial_state()
    st.apply_action(ADVICE_DEALER)
    cards = [[c for c in range(24) if int(dealt[s]) >> c & 1] for s in range(SEATS)]
    for k in range(20):  # card k to position k % 4 + 1: seat (dealer + 1 + k % 4) % 4
        st.apply_action(cards[(ADVICE_DEALER + 1 + k % 4) % 4][k // 4])
    for c in kitty:
        st.apply_action(int(c))
    return st


def play_out(st, seat: int, n_passes: int, call: int, alone: int, ask) -> None:
    """Play the dealt state ``st`` to its end: ``n_passes`` passes, the player's ``call`` at ``seat`` (alone:
    -1 not asked, 0 with partner, 1 alone, when its maker decision comes), every other decision ``ask(st)``'s."""
    for _ in range(n_passes):
        ask.given(st, eg.PASS)
    ask.given(st, _call_action(call))
    while not st.is_terminal():
        if st.phase == eg.MAKER_ALONE and st.player == seat and alone >= 0:
            ask.given(st, eg.ALONE if alone == 1 else eg.WITH_PARTNER)
            continue
        ask.choose(st)


def bot_chunks(states, dstates, targets, max_draws, hand, up, seat, rules, params, n_passes, actions, model, playout,
               search, dd, eqt, draws, kept, wsum, acc, pts_xy, mar_xy, infer, eacc, eq_xy, *, game, player, labels):
    """``advice_chunks`` (the same arguments, without the chunk range, and the same outputs) with the play-outs by
    ``player`` (a ``bower.sim.bots.SeatPlayer``) through ``game``, ``labels[a]`` naming action ``a`` in its error
    lines; only play-out row 0 (the strategy's).

    The draw loop is the kernel's, step for step, so ``draws``, ``kept``,
    ``wsum`` and ``infer`` are the kernel's own for the same arguments.
    """
    n_actions = actions.shape[0]
    side = seat & 1
    exact = model[ka.M_KIND] == ka.MODEL_EXACT
    hand = np.int64(hand)
    up = int(up)
    wt = np.zeros((SEATS, 4, 24), np.float64)
    card_weights(params, wt)
    unseen0 = np.array([c for c in range(24) if (int(hand) >> c) & 1 == 0 and c != up], np.int64)
    check = ek.NO_FORCE.copy()
    check[ek.F_SEAT] = seat
    check[ek.F_AT] = n_passes
    check[ek.F_CALL] = ek.CALL_PASS
    check_t = ek.force_of(check)
    has_eq = eqt.shape[0] > 0
    for ci in range(len(targets)):
        state = states[ci].copy()
        dstate0 = dstates[ci].copy()
        buf = np.zeros(2, np.int64)
        dbuf0 = np.zeros(2, np.int64)
        unseen = unseen0.copy()
        dist = np.zeros(4, np.float64)
        est = np.zeros(4, np.float64)
        hands = np.zeros(SEATS, np.int64)
        rec = np.zeros(ek.R_WIDTH, np.int64)
        n_draws = n_kept = 0
        raw_sum, raw_n = 0.0, 0
        while n_kept < targets[ci] and n_draws < max_draws:
            n_draws += 1
            dealt, kitty = _draw(state, buf, unseen, hand, up, seat)
            if exact:
                dstate = dstate0.copy()
                dbuf = dbuf0.copy()
                hands[:] = dealt
                ek.auction(hands, np.int64(up), np.int64(ADVICE_DEALER), rules, params, wt, check_t, dstate, dbuf, rec)
                keep = rec[ek.R_NCALLS] > n_passes and all(
                    rec[ek.R_CALLS + 2 * i + 1] == ek.CALL_PASS for i in range(n_passes))
                w = 1.0 if keep else 0.0
            else:
                w = deal_weight(dealt, np.int64(up), np.int64(ADVICE_DEALER), np.int64(n_passes), np.int64(seat), wt,
                                params, model, dist, est)
                if w > 0.0:
                    raw_w = w
                    w = roulette(w, raw_sum, raw_n, state)
                    raw_sum += raw_w
                    raw_n += 1
            if w == 0.0:
                reseed(dstate0, dbuf0)
                continue
            n_kept += 1
            wsum[ci, 0] += w
            wsum[ci, 1] += w * w
            for s in range(SEATS):
                f0, f1 = deal_features(dealt[s], np.int64(up), wt, params, np.int64(s))
                infer[ci, s, 0] += w * f0
                infer[ci, s, 1] += w * f1
            pts = np.zeros(n_actions)
            mar = np.zeros(n_actions)
            eq = np.zeros(n_actions)
            player.kept += 1
            for a in range(n_actions):
                player.begin(player.kept, labels[a])
                st = deal_state(game, dealt, kitty)
                player.start(st)
                play_out(st, seat, n_passes, int(actions[a, 0]), int(actions[a, 1]), player)
                maker = st.maker
                ours = maker >= 0 and (maker & 1) == side
                t = st.won[side] + st.won[side + 2]
                p = st.points[side]
                m = 2 * (p - st.points[1 - side])
                pts[a], mar[a] = p, m
                _tally(acc[ci, 0, a], w, ours, ours and t >= ek.MAKER_NEEDS, t, p, m)
                if has_eq:
                    cell = _side_equity(eqt, st.points[0], st.points[1], maker & 1 if maker >= 0 else 0)
                    eq[a] = cell[0]
                    _tally_equity(eacc[ci, 0, a], w, cell)
            pts_xy[ci, 0] += w * np.outer(pts, pts)
            mar_xy[ci, 0] += w * np.outer(mar, mar)
            if has_eq:
                eq_xy[ci, 0] += w * np.outer(eq, eq)
            reseed(dstate0, dbuf0)
        draws[ci] = n_draws
        kept[ci] = n_kept


def _tally(row, w, maker, made, tricks, points, margin2) -> None:
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


def _side_equity(eqt, p0, p1, maker_side):
    """``bower.kernels.advice.side_equity`` in Python."""
    off = ka.EQ_OFF
    if -off <= p0 <= off and -off <= p1 <= off and 0 <= maker_side <= 1:
        return eqt[p0 + off, p1 + off, maker_side]
    return eqt[-1, -1, -1]


def _tally_equity(row, w, cell) -> None:
    """``bower.kernels.advice.tally_equity`` in Python."""
    e = cell[0]
    row[ka.E_SUM] += w * e
    row[ka.E_SQ] += w * e * e
    for r in range(1, cell.shape[0]):
        row[ka.E_DRAW + r - 1] += w * cell[r]
