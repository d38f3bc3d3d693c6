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
the seat knows (``_searched``). ``pimc`` (``pimc_bid``: a searched auction)
also searches as the kernels' ``play_dealt`` does: each call, while a level
is left above the standing bid, by ``pimc_auction``'s ``_call_values`` on
the seat's dealt hand and the calls so far (each bid less
``pimc_bid_cushion`` points a world; ties: the strategy's call), and the
bidder's trump and discard together by ``pimc_widow`` (ties: the
strategy's), its worlds from the bot's stream, one PIMC workspace a hand
from its first decision; the worlds' other seats play the bot's own
strategy.

An equity bidder (``equity``: ``bid_equity``) calls by the kernels'
``equity_call`` on its best estimate at the game's scores of the state
(``game_scores()`` by side, ``game_target()``), on the game's equity tables
(from ``bower.sim.equity_bidder``, as the runner's ``GamesKernel`` gets
them).
"""

from __future__ import annotations

import numpy as np

from bower.kernels.hasenpfeffer.hand import (F_GIVEN, F_GIVEN_CALLS, MAX_CALLS, NO_FORCE, P_PIMC_BID, P_PIMC_INFER,
                                             P_PIMC_SEES, R_BIDDER, R_CALLS, R_DEALER, R_DISCARD, R_FORCED, R_NCALLS,
                                             R_PLAYS, R_WIDTH, best_candidate, best_estimate, choose_widow,
                                             pimc_facts, target_level)
from bower.kernels.hasenpfeffer.strategy import (BIG_PEPPER, DECK25, P_EQUITY, P_JUMP, P_LEAD_TRUMP, P_PIMC,
                                                 P_PIMC_CUSHION, P_SUPPORT, P_VOID, card_weights, equity_call,
                                                 is_random)
from bower.kernels.tables import SLOT_DECK
from bower.sim.preset_bots import (EquityTables, follow_card, hand_workspace, lead_card, pimc_card, searched_parts,
                                   write_plays)
from bower.sim.variants.hasenpfeffer import game as hg


def plays_at_random(params) -> bool:
    """Whether the strategy is the uniformly random player (the kernels' ``is_random``)."""
    return bool(is_random(params, 0))


def searches(params) -> str:
    """What the strategy searches that a bot cannot (a searched auction, auction-weighted worlds, the true hands);
    "" when nothing: heuristic or searched calls (``pimc_bid``) with PIMC cards (``pimc-fast``, ``pimc-cards``,
    ``pimc``) are a bot."""
    return searched_parts(params, P_PIMC, -1, P_PIMC_INFER, P_PIMC_SEES)


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
        self.bid_search = self.worlds >= 1 and params[0, P_PIMC_BID] >= 0.5  # ``hand.searches``
        if self.bid_search:
            from bower.sim.rules import encode

            self.rules = encode(game.variant, game.rules)
            self.top = BIG_PEPPER if self.pepper else 6
        self.equity = params[0, P_EQUITY] >= 0.5  # an equity bidder: its tables by target (``EquityTables``)
        self.tables = EquityTables(game) if self.equity else None
        self.top_level = BIG_PEPPER if self.pepper else 6
        self.hand = None  # the hand the workspace and the widow's choice belong to (``_begin``)
        self.widow = None  # the searched (trump, discard) of the bidder this hand

    def step(self, st) -> int:
        """The action of the seat to act at ``st`` (a ``bower.sim.variants.hasenpfeffer.game.State``)."""
        seat = st.current_player()
        ph = st.phase
        p, wt = self.params, self.wt
        if self.bid_search:
            self._begin(st)
        if ph == hg.PLAY:
            return self._card(st, seat)
        if ph == hg.AUCTION:
            tl = int(target_level(np.int64(st.dealt[seat]), np.int64(seat), self.pepper, p, wt))
            high, bidder = st.high, st.bidder
            margin = p[seat, P_SUPPORT] if bidder >= 0 and bidder == (seat + 2) % 4 else 0.0
            level = 0
            if tl >= high + 1 and tl >= (high + 1) + margin:  # a call must beat the standing bid
                level = tl if p[seat, P_JUMP] >= 0.5 else high + 1
            if self.equity and not self.bid_search:  # the kernels' ``auction`` with the game's tables
                target = st.game_target()
                est = best_estimate(np.int64(st.dealt[seat]), np.int64(seat), wt, p[seat, P_VOID])
                level = int(equity_call(self.tables(target), np.int64(seat), np.int64(st.dealer),
                                        np.array(st.game_scores(), np.int64), np.int64(target), np.int64(high),
                                        np.int64(self.top_level), est, np.int64(level)))
            if self.bid_search and high < self.top:
                level = self._searched_call(st, seat, level)
            return hg.PASS if level == 0 else hg.BID + level - 1
        if self.bid_search and ph in (hg.DISCARD, hg.NAME_TRUMP):
            trump, discard = self._searched_widow(st, seat)
            return discard if ph == hg.DISCARD else hg.TRUMP + trump
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

    # ---------------------------------------------------------------- the searched auction (``pimc_bid``)

    def new_hand(self) -> None:
        """Forget the hand: the next decision starts a new one (``_begin``), whatever its cards."""
        self.hand = None

    def _begin(self, st) -> None:
        """At the first decision this player sees of a hand: a fresh PIMC workspace (the kernels make one a hand,
        before its auction) and no widow's choice yet."""
        key = (st.dealer, tuple(st.dealt), st.widow)
        if key != self.hand:
            from bower.kernels import pimc

            self.hand, self.widow, self.ws = key, None, pimc.new_workspace()

    def _record_calls(self, st) -> np.ndarray:
        """The calls so far as (seat, level) rows, also written into the record (``R_CALLS``) with the dealer."""
        rec = self.rec
        calls = np.zeros((MAX_CALLS, 2), np.int64)
        for i, (s, level) in enumerate(st.calls):
            calls[i] = s, level
            rec[R_CALLS + 2 * i], rec[R_CALLS + 2 * i + 1] = s, level
        rec[R_NCALLS] = len(st.calls)
        rec[R_DEALER] = st.dealer
        return calls

    def _searched_call(self, st, seat: int, level: int) -> int:
        """``pimc_auction``'s call: pass and each level above the standing bid valued by ``_call_values`` on the
        seat's dealt hand (the true deal, read only by ``pimc_sees_all``, not given), each bid less the cushion,
        the best made (ties: the strategy's ``level``)."""
        from bower.kernels.hasenpfeffer.hand import _call_values

        k = len(st.calls)
        calls = self._record_calls(st)
        force = NO_FORCE.copy()
        for i, (_, lv) in enumerate(st.calls):
            force[F_GIVEN_CALLS + i] = lv
        force[F_GIVEN] = k
        cand = np.zeros(8, np.int64)
        levels = [0, *range(st.high + 1, self.top + 1)]
        cand[:len(levels)] = levels
        n = len(levels)
        dealt = np.zeros(4, np.int64)
        dealt[seat] = st.dealt[seat]
        vals = np.zeros(8)
        dstate, dbuf = self.stream
        total = _call_values(np.int64(seat), np.int64(k), calls, force, cand, np.int64(n), dealt, np.int64(0),
                             np.int64(st.dealer), self.rules, self.params, self.wt, dstate, dbuf, self.ws, vals)
        return int(best_candidate(vals, cand, np.int64(n), np.int64(level), self.params[seat, P_PIMC_CUSHION], total))

    def _searched_widow(self, st, seat: int) -> tuple[int, int]:
        """``pimc_widow``'s (trump, discard) for the bidder, searched once a hand at its first widow decision: its
        six cards dealt and the widow it took up (a dead widow: unseen; any of its cards stands for it, as for
        ``choose_widow``)."""
        if self.widow is None:
            from bower.kernels.hasenpfeffer.hand import pimc_widow

            self._record_calls(st)
            six = st.dealt[seat]
            widow = (six & -six).bit_length() - 1 if self.dead else st.widow
            dstate, dbuf = self.stream
            trump, discard, _ = pimc_widow(np.int64(seat), np.int64(st.level), np.int64(six), np.int64(widow),
                                           self.rec, np.zeros(4, np.int64), self.rules, self.params, self.wt, dstate,
                                           dbuf, self.ws)
            self.widow = (int(trump), int(discard))
        return self.widow

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
        if not self.bid_search:  # a searched auction made the hand's workspace at its first decision
            self.ws = hand_workspace(st, self.ws)
        rec = self.rec
        rec[R_BIDDER] = st.bidder
        rec[R_FORCED] = 1 if st.forced else 0
        rec[R_DISCARD] = st.discard  # its card is read for the bidder alone; to the others only whether there is one
        n = write_plays(st, rec, R_PLAYS)
        return pimc_card(st.hands[seat], seat, pimc_facts(rec, np.int64(seat)), st.trump, DECK25, rec, R_PLAYS, n,
                         self.worlds, self.stream, self.ws)
