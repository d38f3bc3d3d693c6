"""Standard Euchre advice kernel: every open call evaluated on the same weighted deals ("should I order it up?").

The player's five cards and the up-card are fixed; the other 18 cards are
dealt uniformly at random to the three other seats (5 each) and the rest of
the kitty (3). The dealer is seat ``ADVICE_DEALER`` = 3, so position p is
seat p - 1. Each deal gets a weight from the model of the other players
(``model``, ``bower.kernels.advice.M_*``): under ``MODEL_EXACT`` 1 if the strategy,
playing the other seats on those cards, passes at every call before the
player's turn, as happened (today's rejection test, decision stream
included), else 0; under ``MODEL_SOFTMAX`` the product of the model's
probabilities of those passes (``bower.kernels.euchre.model.deal_weight``), a weight
below the chunk's mean so far through Russian roulette
(``bower.kernels.advice.roulette``). A deal of weight 0 is skipped. Each kept deal is then played once per action from
the same cards and decision-stream state: the player's call at this turn
(and, if given, going alone) forced, everything else left to the strategy;
under the softmax model the passes before the turn are given too
(``hand.F_PASSES``: a deal may be one on which the strategy would have
called), under the exact model the play-out is today's ``hand.play_dealt``.
Points, tricks and "made" are the player's side's (partnerships).

Play-outs (``playout`` bits, ``bower.kernels.advice.PLAY_*``): row 0 the strategy's
play, row 1 the double-dummy value of the same contract: the hands at the
first lead (each seat's played cards, so the dealer's hand after its pickup
and discard; a seat sitting out holds nothing and is not in play), the first
leader as played, the maker's side measured against the defenders; its tricks
scored as the kernel scores a hand (``hand.score_hand``, with the same alone
and lone-defender flags). A thrown-in hand scores 0 in both rows.
"""

import numpy as np

from bower.kernels.arrays import copy_into
from bower.kernels.advice import (
    M_KIND,
    MODEL_EXACT,
    PLAY_DD,
    PLAY_STRATEGY,
    add_draw_products,
    reseed,
    side_equity,
    tally_equity,
    roulette_step,
    tally_weighted,
)
from bower.kernels.deal import shuffle
from bower.kernels.euchre.codes import E_DISCARD_UP
from bower.kernels.euchre.drivers import _scratch
from bower.kernels.euchre.hand import (
    CALL_ORDER,
    CALL_PASS,
    CALL_SUIT,
    F_ALONE,
    F_AT,
    F_CALL,
    F_PASSES,
    F_SEAT,
    MAKER_NEEDS,
    N_SEATS,
    NO_FORCE,
    R_ALONE,
    R_CALLS,
    R_MAKER,
    R_NCALLS,
    R_NPLAYS,
    R_PLAYS,
    R_POINTS,
    R_TRICKS,
    R_TRUMP,
    auction,
    force_of,
    play_dealt,
    score_hand,
)
from bower.kernels.euchre.model import deal_features, deal_weight
from bower.kernels.euchre.strategy import card_weights
from bower.kernels.jit import chunk_kernel, kernel
from bower.kernels.solve import new_table, solve_position

ADVICE_DEALER = 3  # the dealer's seat: position p is seat p - 1


def open_actions(n_passes: int, up: int, stick_the_dealer: bool) -> np.ndarray:
    """The actions (call code, alone: 0 no, 1 yes; pass: -1) open to the player after ``n_passes`` passes.

    Round one (``n_passes`` < 4): pass, order (alone or not). Round two: pass
    (unless the player is the stuck dealer), then each suit other than the
    up-card's, in suit order, alone or not. Plain Python (no kernel).
    """
    if not 0 <= n_passes < 2 * N_SEATS:
        raise ValueError(f"the player's turn comes after 0..7 passes, got {n_passes}")
    rows = []
    stuck = n_passes == 2 * N_SEATS - 1 and stick_the_dealer
    if not stuck:
        rows.append((CALL_PASS, -1))
    if n_passes < N_SEATS:
        rows += [(CALL_ORDER, 0), (CALL_ORDER, 1)]
    else:
        for s in range(4):
            if s != up // 6:
                rows += [(CALL_SUIT + s, 0), (CALL_SUIT + s, 1)]
    return np.array(rows, np.int64)


@chunk_kernel
def advice_chunks(lo, hi, states, dstates, targets, max_draws, hand, up, seat, rules, params, n_passes, actions, model,
                  playout, search, dd, eqt, draws, kept, wsum, acc, pts_xy, mar_xy, infer, eacc, eq_xy):
    """Draw deals, weigh them by the model of the ``n_passes`` passes before the player's turn, play every action.

    ``seat`` is the player's (position ``seat + 1``; its turn must be call
    ``n_passes``: ``n_passes % 4 == seat``). ``actions[a]`` = (call code,
    alone: -1 strategy, 0 no, 1 yes), as ``open_actions``. ``model``: the
    float64[3] ``M_*`` vector; ``playout``: ``PLAY_*`` bits. Chunk ``ci``
    draws until it keeps ``targets[ci]`` deals of positive weight or has
    drawn ``max_draws``, writing ``draws[ci]``, ``kept[ci]``, ``wsum[ci]`` =
    (sum of weights, of squared weights), the per-action weighted counters
    ``acc[ci, row, a, W_*]`` (row 0 the strategy play-out, row 1 the
    double-dummy one: the player's side made trump / made it, the side's
    tricks and points, twice the side's margin over the other side), the
    weighted sums of products of the actions' points and doubled margins
    ``pts_xy[ci, row]``, ``mar_xy[ci, row]`` (paired intervals) and
    ``infer[ci, s, j]``, the weighted sums of seat ``s``'s inference features
    (``bower.kernels.euchre.model.deal_features``). ``search`` None compiles
    no search code (no seat searches: ``hand.search_arg``), ``dd`` None no
    double-dummy play-out (``playout`` without ``PLAY_DD``: ``advice.dd_arg``).
    ``eqt``: the asker's game equity after each outcome (``advice.side_equity``;
    empty without one: ``advice.eqt_arg``); its weighted sums ``eacc[ci, row, a, E_*]``
    and products ``eq_xy[ci, row]`` as the points'.
    """
    n_actions = actions.shape[0]
    side = seat & 1
    exact = model[M_KIND] == MODEL_EXACT
    do_strat = (playout & PLAY_STRATEGY) != 0
    do_dd = (playout & PLAY_DD) != 0
    for ci in range(lo, hi):
        state = states[ci].copy()
        dstate0 = dstates[ci].copy()
        buf, dbuf0, _, dealt, kitty, hands, tricks, wt, rec = _scratch()
        card_weights(params, wt)
        dstate = np.empty(4, np.uint64)
        dbuf = np.zeros(2, np.int64)
        unseen = np.empty(18, np.int64)
        n = 0
        for c in range(24):
            if (hand >> c) & 1 == 0 and c != up:
                unseen[n] = c
                n += 1
        kitty[0] = up
        force = NO_FORCE.copy()
        if not exact:
            force[F_PASSES] = n_passes  # the observed passes, whatever the strategy would have called
        check = NO_FORCE.copy()  # the rejection test: the player passes at its own turns up to this one
        check[F_SEAT] = seat
        check[F_AT] = n_passes
        check[F_CALL] = CALL_PASS
        pts = np.zeros(n_actions, np.float64)
        mar = np.zeros(n_actions, np.float64)
        pts_d = np.zeros(n_actions, np.float64)
        mar_d = np.zeros(n_actions, np.float64)
        eq = np.zeros(n_actions, np.float64)
        eq_d = np.zeros(n_actions, np.float64)
        dist = np.zeros(4, np.float64)
        est = np.zeros(4, np.float64)
        others = np.empty(3, np.int64)  # the positions (0-based) dealt at random
        j = 0
        for p in range(N_SEATS):
            if p != seat:  # dealer in seat 3: position p + 1 is seat p
                others[j] = p
                j += 1
        keys, tags, bounds = new_table()
        nodes = np.zeros(1, np.int64)
        trick = np.zeros(4, np.int64)
        dd_hands = np.zeros(4, np.int64)
        n_draws = 0
        n_kept = 0
        raw_sum = 0.0  # the softmax weights of the chunk's draws so far (the roulette's scale)
        raw_n = 0
        while n_kept < targets[ci] and n_draws < max_draws:
            n_draws += 1
            shuffle(state, buf, unseen, 18)
            for p in range(N_SEATS):
                dealt[p] = 0
            dealt[seat] = hand
            for i in range(15):
                dealt[others[i % 3]] |= np.int64(1) << unseen[i]
            for i in range(3):
                kitty[1 + i] = unseen[15 + i]
            if exact:
                copy_into(dstate, dstate0)
                copy_into(dbuf, dbuf0)
                for p in range(N_SEATS):
                    hands[p] = dealt[p]
                auction(hands, up, np.int64(ADVICE_DEALER), rules, params, wt, force_of(check), dstate, dbuf, rec)
                keep = rec[R_NCALLS] > n_passes
                for i in range(n_passes):
                    if rec[R_CALLS + 2 * i + 1] != CALL_PASS:
                        keep = False
                w = 1.0 if keep else 0.0
            else:
                w = deal_weight(dealt, up, np.int64(ADVICE_DEALER), n_passes, seat, wt, params,
                                rules[E_DISCARD_UP] == 1, model, dist, est)
                if w > 0.0:  # Russian roulette on light deals (``bower.kernels.advice.roulette``)
                    w, raw_sum, raw_n = roulette_step(w, raw_sum, raw_n, state)
            if w == 0.0:
                reseed(dstate0, dbuf0)
                continue
            n_kept += 1
            wsum[ci, 0] += w
            wsum[ci, 1] += w * w
            for s in range(N_SEATS):
                f0, f1 = deal_features(dealt[s], up, wt, params, s)
                infer[ci, s, 0] += w * f0
                infer[ci, s, 1] += w * f1
            for a in range(n_actions):
                copy_into(dstate, dstate0)
                copy_into(dbuf, dbuf0)
                force[F_SEAT] = seat
                force[F_AT] = n_passes
                force[F_CALL] = actions[a, 0]
                force[F_ALONE] = actions[a, 1]
                play_dealt(dealt, kitty, np.int64(ADVICE_DEALER), rules, params, wt, force, dstate, dbuf, hands, tricks,
                           rec, search)
                maker = rec[R_MAKER]
                ours = maker >= 0 and (maker & 1) == side
                if do_strat:
                    t = rec[R_TRICKS + side] + rec[R_TRICKS + side + 2]
                    p = rec[R_POINTS + side]
                    m = 2 * (p - rec[R_POINTS + 1 - side])
                    pts[a] = p
                    mar[a] = m
                    tally_weighted(acc[ci, 0, a], w, ours, ours and t >= MAKER_NEEDS, t, p, m)
                    if eqt.shape[0] > 0:  # an equity table (``advice.eqt_arg``)
                        e = side_equity(eqt, rec[R_POINTS], rec[R_POINTS + 1], maker & 1 if maker >= 0 else 0)
                        eq[a] = e[0]
                        tally_equity(eacc[ci, 0, a], w, e)
                if dd is not None and do_dd:  # pruned when compiled for dd None
                    t = 0
                    p = 0
                    m = 0
                    if maker >= 0:
                        for s in range(N_SEATS):
                            dd_hands[s] = 0
                        for i in range(rec[R_NPLAYS]):
                            dd_hands[rec[R_PLAYS + 2 * i]] |= np.int64(1) << rec[R_PLAYS + 2 * i + 1]
                        active = 0
                        for s in range(N_SEATS):
                            if dd_hands[s] != 0:
                                active |= 1 << s
                        sides = (1 << maker) | (1 << (maker ^ 2))
                        mt = solve_position(dd_hands, np.int64(active), rec[R_TRUMP], trick, np.int64(0),
                                            rec[R_PLAYS], np.int64(sides), keys, tags, bounds, nodes)
                        alone = rec[R_ALONE]
                        mk, df = score_hand(mt, (alone >> maker) & 1 == 1, (alone & ~(1 << maker)) != 0, rules, False)
                        if ours:
                            t = mt
                            p = mk
                            m = 2 * (mk - df)
                        else:
                            t = 5 - mt
                            p = df
                            m = 2 * (df - mk)
                    pts_d[a] = p
                    mar_d[a] = m
                    tally_weighted(acc[ci, 1, a], w, ours, ours and t >= MAKER_NEEDS, t, p, m)
                    if eqt.shape[0] > 0:
                        q = p - m // 2  # the other side's points
                        if side == 0:
                            e = side_equity(eqt, p, q, maker & 1 if maker >= 0 else 0)
                        else:
                            e = side_equity(eqt, q, p, maker & 1 if maker >= 0 else 0)
                        eq_d[a] = e[0]
                        tally_equity(eacc[ci, 1, a], w, e)
            add_draw_products(w, do_strat, do_dd, eqt.shape[0] > 0, pts, mar, pts_d, mar_d, eq, eq_d,
                              pts_xy[ci], mar_xy[ci], eq_xy[ci])
            reseed(dstate0, dbuf0)
        draws[ci] = n_draws
        kept[ci] = n_kept
