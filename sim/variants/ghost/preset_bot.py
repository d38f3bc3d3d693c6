"""Ghost Hand's heuristic strategies as bots (``bower.sim.preset_bots``): the kernels' decisions, called from Python.

Every decision is the one ``bower.kernels.ghost.hand.auction_core`` and
``play_core`` make for a seat of the strategy, by the same kernel functions
on the strategy's rows (``strategy_rows``: the parameters and the estimate
table): the swap (``best_of_row`` of the hand held below ``swap_below``), the
call (``call_of`` of the hand's best estimate after any swap, against the
standing bid; a stuck dealer may not pass), trump (the best suit of the
maker's hand, ``best_of_row``) and the cards by the shared trick core's
``lead_slot`` / ``follow_slot`` with the kernels' arguments (every player for
itself). The few lines of ``auction_core`` that put those together for one
seat are written here beside the calls (``auction_core`` plays the whole
auction at once). A seat reads its own hand, the swap, the calls, trump and
the cards played: nothing else.

The strategies that read the game's scores read them from the state
(``game_scores()``, ``game_target()``: the game's in an experiment, set by
``new_initial_state(scores=..., target=...)`` for a lone hand): a call is
shifted by ``shift_of`` (``score-aware``: ``bid_shift_self_near``,
``bid_shift_opp_near``), and an equity bidder (``equity``: ``bid_equity``)
calls by the kernels' ``equity_call`` on its strategy rows widened by the
game's equity tables (``equity_rows``; the tables from
``bower.sim.equity_bidder``, as the runner's ``GamesKernel`` gets them).

``pimc-cards`` (heuristic calls, PIMC cards) searches each card by the
kernels' ``pimc.choose`` on ``pimc_facts`` of a record of what the seat
knows (``_searched``). ``pimc`` and ``pimc-fast`` (``pimc_bid``: a searched
auction) also search the swap, the calls and trump as the kernels'
``pimc_auction`` does, by its ``_bid_values`` on the seat's own hand (and
dead hand), the calls so far and the swap: at a seat's swap decision the
best call keeping against swapping (ties: the strategy's choice), the call
kept then made at its turn, or after a swap the best call on the ghost;
at a later turn the best call (ties: the strategy's); the maker's trump the
best suit (ties: the strategy's). The worlds come from the bot's stream, one
PIMC workspace a hand from its first decision (the auction's, then the
cards); the worlds' other seats play the bot's own strategy, at the game's
scores of the state (the workspace's context, as the kernels' games set it).
"""

from __future__ import annotations

import numpy as np

from bower.kernels.ghost.hand import (DECK, P_PIMC, P_PIMC_BID, P_PIMC_INFER, P_PIMC_SEES, R_CALLS, R_DEAL, R_NCALLS,
                                      R_PLAYS, R_SWAP, R_WIDTH, SEAT_ROWS, pimc_facts)
from bower.kernels.ghost.strategy import (MOON, P_BID3, P_BID4, P_BID5, P_EQUITY, P_JUMP, P_LEAD_TRUMP, P_MOON,
                                          P_NEAR, P_RANDOM, P_SHIFT_OPP, P_SHIFT_SELF, P_SWAP_BELOW, best_of_row,
                                          call_of, equity_call, equity_rows, shift_of, strategy_rows)
from bower.kernels.tables import SLOT_DECK
from bower.sim.preset_bots import (EquityTables, follow_card, hand_workspace, lead_card, pimc_card, searched_parts,
                                   write_plays)
from bower.sim.variants.ghost import game as gg


def plays_at_random(params) -> bool:
    """Whether the strategy is the uniformly random player (``random``)."""
    return params[0, P_RANDOM] >= 0.5


def searches(params) -> str:
    """What the strategy searches that a bot cannot (a searched auction, auction-weighted worlds, the true hands);
    "" when nothing: heuristic or searched calls (``pimc_bid``) with PIMC cards (``pimc-cards``, ``pimc``,
    ``pimc-fast``) are a bot."""
    return searched_parts(params, P_PIMC, -1, P_PIMC_INFER, P_PIMC_SEES)


class Player:
    """The strategy rows ``params`` (one per seat) at the table of ``game``: ``step(state)`` is the kernels' decision
    (``stream``: the bot's decision stream, for a PIMC strategy's worlds)."""

    def __init__(self, params: np.ndarray, game, stream=None):
        self.params = np.ascontiguousarray(params)
        self.rows = strategy_rows(self.params)
        # an equity bidder (``bid_equity``): its rows widened by the game's tables, by target (``_equity_rows``)
        self.equity = params[0, P_EQUITY] >= 0.5
        self.tables = EquityTables(game) if self.equity else None
        self.wide: dict = {}
        self.stick = game.stick
        self.worlds = int(params[0, P_PIMC])  # PIMC cards (``pimc_worlds`` >= 1), from the decision ``stream``
        self.stream = stream
        self.rec = np.zeros(R_WIDTH, np.int64)
        self.ws = None
        self.bid_search = self.worlds >= 1 and params[0, P_PIMC_BID] >= 0.5  # ``hand.uses_pimc_bid``
        if self.bid_search:
            from bower.sim.rules import encode

            self.rules = encode(game.variant, game.rules)
            self.seat_rows = SEAT_ROWS  # the kernels' tuple: the searched auction compiled once for both
            self.scores = np.zeros(3, np.int64)
            self.target = np.int64(game.variant.target)
        self.hand = None  # the hand the workspace and the kept calls belong to (``_begin``)
        self.kept = {}  # seat -> the call its swap decision's search chose, keeping (kernel code)

    def step(self, st) -> int:
        """The action of the seat to act at ``st`` (a ``bower.sim.variants.ghost.game.State``)."""
        seat = st.current_player()
        ph = st.phase
        rows, r = self.rows, np.int64(seat)
        if self.bid_search:
            self._begin(st)
        if ph == gg.PLAY:
            return self._card(st, seat)
        hand = np.int64(st.hands[seat])
        suit, est = best_of_row(hand, rows, r)
        if ph == gg.SWAP_TURN:
            swaps = est < rows[seat, P_SWAP_BELOW]
            if self.bid_search:
                swaps = self._searched_swap(st, seat, swaps, self._strategy_call(st, seat, est))
            return gg.SWAP if swaps else gg.KEEP
        if ph == gg.AUCTION:
            call = self._strategy_call(st, seat, est)
            if self.bid_search:
                call = self._searched_call(st, seat, call)
            if call == 0:
                return gg.PASS
            return gg.MOON if call == MOON else gg.BID + call - 3
        if ph == gg.NAMING:
            if self.bid_search:
                return gg.TRUMP + self._searched_trump(st, seat, int(suit))
            return gg.TRUMP + int(suit)
        raise ValueError(f"no decision of a seat at phase {ph}")

    def _strategy_call(self, st, seat: int, est) -> int:
        """The strategy's call (0 pass, 3..5, ``MOON``) on the hand held now, against the standing bid, at the
        game's scores of ``st``: ``auction_core``'s, its thresholds shifted by ``shift_of`` and, for an equity
        bidder (not a searched auction: the kernels' searching hands call by the thresholds), ``equity_call``."""
        rows = self.rows
        scores, target = st.game_scores(), np.int64(st.game_target())
        standing, forced = np.int64(st.standing), st.dealer_stuck()
        shift = shift_of(np.int64(seat), scores, target, rows[seat, P_SHIFT_SELF], rows[seat, P_SHIFT_OPP],
                         rows[seat, P_NEAR])
        call = int(call_of(est - shift, standing, forced, rows[seat, P_MOON], rows[seat, P_BID5],
                           rows[seat, P_BID4], rows[seat, P_BID3], rows[seat, P_JUMP]))
        if self.equity and not self.bid_search:
            call = int(equity_call(self._equity_rows(int(target)), np.int64(seat), np.int64(seat),
                                   np.int64(st.dealer), scores, target, standing, forced, est, np.int64(call)))
        return call

    def _equity_rows(self, target: int) -> np.ndarray:
        """The strategy rows widened by the equity tables of a game to ``target`` (the kernels' ``equity_rows``)."""
        wide = self.wide.get(target)
        if wide is None:
            wide = self.wide[target] = equity_rows(self.rows, self.params, self.tables(target))
        return wide

    # ---------------------------------------------------------------- the searched auction (``pimc_bid``)

    def new_hand(self) -> None:
        """Forget the hand: the next decision starts a new one (``_begin``), whatever its cards."""
        self.hand = None

    def _begin(self, st) -> None:
        """At the first decision this player sees of a hand: a fresh PIMC workspace with the hand's context (the
        kernels make one a hand, before its auction: ``pimc_context``) and no kept calls."""
        key = (st.dealer, tuple(st.dealt), st.ghost)
        if key != self.hand:
            from bower.kernels import pimc
            from bower.kernels.ghost.hand import pimc_context

            self.hand, self.kept, self.ws = key, {}, pimc.new_workspace()
            self.scores = np.array(st.game_scores(), np.int64)  # the game's, as the kernels' games give them
            self.target = np.int64(st.game_target())
            pimc_context(self.ws, self.scores, self.target, self.rules)

    def _given(self, st) -> tuple[int, int]:
        """The calls so far: (how many, packed as ``auction_core`` packs them), written into the record too."""
        rec, packed = self.rec, 0
        for i, (s, a) in enumerate(st.calls):
            level = gg._LEVEL[a]
            rec[R_CALLS + 2 * i], rec[R_CALLS + 2 * i + 1] = s, level
            packed |= ((s << 3) | level) << (5 * i)
        rec[R_NCALLS] = len(st.calls)
        return len(st.calls), packed

    def _values(self, st, seat, k, packed, own, known, f_swap, cand, n, trump_mode=False, bid=0) -> np.ndarray:
        """``_bid_values`` of the candidates ``cand[:n]`` for ``seat`` (the true deal, read only by
        ``pimc_sees_all``, not given)."""
        from bower.kernels.ghost.hand import _bid_values

        vals = np.zeros(8)
        z = np.int64(0)
        dstate, dbuf = self.stream
        _bid_values(np.int64(seat), np.int64(k), np.int64(packed), np.int64(st.swapper), np.int64(own),
                    np.int64(known), np.int64(f_swap), cand, np.int64(n), trump_mode, np.int64(bid), z, z, z, z,
                    np.int64(st.dealer), self.rules, self.rows, self.seat_rows, self.scores, self.target, dstate, dbuf,
                    self.rec, z, self.ws, vals)
        return vals

    def _candidates(self, st, seat, k, packed) -> tuple[np.ndarray, int]:
        from bower.kernels.ghost.codes import G_STICK
        from bower.kernels.ghost.hand import _turn_calls

        cand = np.zeros(8, np.int64)
        n = int(_turn_calls(np.int64(k), np.int64(packed), np.int64(seat), np.int64(st.dealer),
                            self.rules[G_STICK], cand))
        return cand, n

    def _searched_swap(self, st, seat: int, swaps: bool, call: int) -> bool:
        """``pimc_auction`` at a seat's swap decision: its best call keeping (ties: the strategy's call ``call``,
        or the first when the strategy ``swaps``) against swapping; swapping when it is worth more (on a tie when
        the strategy swaps). The call kept is remembered for the seat's call."""
        k, packed = self._given(st)
        cand, n = self._candidates(st, seat, k, packed)
        mine = -1
        for i in range(n):
            if cand[i] == call:
                mine = i
        own = st.hands[seat]
        vals = self._values(st, seat, k, packed, own, 0, 0, cand, n)
        keep = _best(vals, n, -1 if swaps else mine)
        one = np.full(1, -1, np.int64)
        v1 = self._values(st, seat, k, packed, own, 0, 1, one, 1)
        if v1[0] > vals[keep] or (v1[0] == vals[keep] and swaps):
            return True
        self.kept[seat] = int(cand[keep])
        return False

    def _searched_call(self, st, seat: int, call: int) -> int:
        """``pimc_auction``'s call: the one kept at the swap decision; right after a swap the best call on the
        ghost (ties: the first); otherwise the best call (ties: the strategy's ``call``)."""
        if seat in self.kept:
            return self.kept.pop(seat)
        k, packed = self._given(st)
        cand, n = self._candidates(st, seat, k, packed)
        swapped = st.swapper == seat
        if swapped and not st.called >> seat & 1:  # its first call, just after swapping
            vals = self._values(st, seat, k, packed, st.hands[seat], st.dead, 1, cand, n)
            return int(cand[_best(vals, n, -1)])
        mine = -1
        for i in range(n):
            if cand[i] == call:
                mine = i
        vals = self._values(st, seat, k, packed, st.hands[seat], st.dead if swapped else 0, -1, cand, n)
        return int(cand[_best(vals, n, mine)])

    def _searched_trump(self, st, seat: int, suit: int) -> int:
        """``pimc_auction``'s trump for the maker: the best of the four suits on worlds of the whole auction (ties:
        the strategy's ``suit``)."""
        k, packed = self._given(st)
        cand = np.arange(4, dtype=np.int64)
        vals = self._values(st, seat, k, packed, st.hands[seat], st.dead if st.swapper == seat else 0, -1, cand, 4,
                            True, st.standing)
        return int(cand[_best(vals, 4, suit)])

    def _card(self, st, seat: int) -> int:
        trump, maker = st.trump, st.maker
        if self.worlds >= 1:
            return self._searched(st, seat)
        if st.trick:
            return follow_card(st.hands[seat], st.trick, trump, lambda winner: winner == seat)
        return lead_card(st.hands[seat], st.played, trump, int(SLOT_DECK[trump]), seat == maker, False,
                         self.rows[maker, P_LEAD_TRUMP], -1)

    def _searched(self, st, seat: int) -> int:
        """The PIMC card (as the kernels' ``pimc_card``): the facts from a record of what the seat knows (the
        swapper, its own dead hand as the swapper, the plays), the worlds from the bot's stream, a fresh workspace
        each hand (as the kernels' hand)."""
        if not self.bid_search:  # a searched auction made the hand's workspace at its first decision
            self.ws = hand_workspace(st, self.ws)
        rec = self.rec
        rec[R_SWAP] = st.swapper
        if st.swapper >= 0:
            rec[R_DEAL + st.swapper] = st.dead if seat == st.swapper else 0  # read for the swapper alone
        n = write_plays(st, rec, R_PLAYS)
        return pimc_card(st.hands[seat], seat, pimc_facts(rec, np.int64(0), np.int64(seat)), st.trump, DECK, rec,
                         R_PLAYS, n, self.worlds, self.stream, self.ws)


def _best(vals, n: int, incumbent: int) -> int:
    """The kernels' ``_best``: the index of the highest of ``vals[:n]``; ties keep ``incumbent`` (if >= 0), else
    the first."""
    best = incumbent if incumbent >= 0 else 0
    for i in range(n):
        if vals[i] > vals[best]:
            best = i
    return best
