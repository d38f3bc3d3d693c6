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
seat knows (``_searched``). ``pimc-bid`` (``pimc_bid``: a searched
auction) also searches as the kernels' ``play_searched`` does: each call by
``auction_force``'s ``call_values`` over its candidates (pass unless stuck,
accept or each allowed suit, with and without going alone) on the seat's
dealt hand, the dealer's exchange after an acceptance by
``exchange_values``, the maker's going alone as its searched call chose, a
defender's going alone by ``lone_values`` and the maker's merge by
``keep_values`` over ``keep_candidates``, each departing from the
strategy's choice only for a candidate better by more than
``pimc_bid_edge`` points a world (``_best``). The worlds come from the bot's
stream, one PIMC workspace a hand from its first decision; the worlds'
other seats play the bot's own strategy.

An equity bidder (``equity``: ``bid_equity``) calls by the kernels'
``equity_accept`` and ``equity_name`` at the game's scores of the state
(``game_scores()`` by seat, ``game_target()``), on the game's equity tables
(from ``bower.sim.equity_bidder``, as the runner's ``GamesKernel`` gets
them), and as the maker goes alone as its call chose.
"""

from __future__ import annotations

import numpy as np

from bower.kernels.cutthroat.codes import C_MAKER_ALONE, C_PICKUP_MANDATORY, C_STICK, C_TURNED_DOWN_OK
from bower.kernels.cutthroat.hand import (CALL_ACCEPT, CALL_PASS, CALL_SUIT, DECK, MAX_KEEPS, Q_PIMC, Q_PIMC_BID,
                                          Q_PIMC_EDGE, Q_PIMC_INFER, Q_PIMC_SEES, R_ALONE, R_CALLS, R_DEAL, R_DEALER,
                                          R_DEALER_DISCARD, R_KITTY, R_MAKER, R_MAKER_DISCARDS, R_NCALLS, R_PLAYS,
                                          R_WIDTH, defender_goes_alone, is_random, maker_goes_alone, pimc_facts)
from bower.kernels.cutthroat.strategy import (Q_ALONE, Q_ASSIST, Q_EQUITY, Q_LEAD_TRUMP, Q_NAME, Q_ORDER, Q_TAKE,
                                              Q_VOID, best_exchange, best_keep, card_weights, equity_accept,
                                              equity_name)
from bower.kernels.estimate import best_suit, estimate
from bower.kernels.tables import SLOT_DECK
from bower.sim.preset_bots import (EquityTables, follow_card, hand_workspace, lead_card, pimc_card, searched_parts,
                                   write_plays)
from bower.sim.rules import encode
from bower.sim.variants.cutthroat import game as cg


def plays_at_random(params) -> bool:
    """Whether the strategy is the uniformly random player (the kernels' ``is_random``)."""
    return bool(is_random(params, 0))


def searches(params) -> str:
    """What the strategy searches that a bot cannot (a searched auction, auction-weighted worlds, the true hands);
    "" when nothing: heuristic or searched calls (``pimc_bid``) with PIMC cards (``pimc``, ``pimc-fast``,
    ``pimc-bid``) are a bot."""
    return searched_parts(params, Q_PIMC, -1, Q_PIMC_INFER, Q_PIMC_SEES)


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
        self.bid_search = self.worlds >= 1 and params[0, Q_PIMC_BID] >= 0.5  # ``hand.searches``
        self.hand = None  # the hand the workspace, the searched calls and the keep belong to (``_begin``)
        self.alone = {}  # seat -> its searched or equity call's going alone (0, 1) this hand
        self.equity = params[0, Q_EQUITY] >= 0.5  # an equity bidder: its tables by target (``EquityTables``)
        self.tables = EquityTables(game) if self.equity else None
        self.pick = np.full(2, -1, np.int64)  # the kernels' ``pick`` of an equity call (read back from ``alone``)
        self.keep = None  # the maker's searched keep this hand (a mask of five)

    def step(self, st) -> int:
        """The action of the seat to act at ``st`` (a ``bower.sim.variants.cutthroat.game.State``)."""
        seat = st.current_player()
        ph = st.phase
        p, wt, r = self.params, self.wt, self.rules
        if self.bid_search:
            self._begin(st)
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
                if self.equity and not self.bid_search:
                    level = int(equity_accept(hand, np.int64(st.up), np.int64(position), s64, np.int64(st.dealer), wt,
                                              p, r[C_PICKUP_MANDATORY] == 1, r[C_MAKER_ALONE] == 1, self._eq(st)))
                    accept, self.alone[seat] = level > 0, level - 1
                action = cg.ACCEPT if accept else cg.PASS
            else:
                allowed = 15 if r[C_TURNED_DOWN_OK] == 1 else 15 & ~(1 << u)
                stuck = position == 3 and r[C_STICK] == 1
                s, e = best_suit(hand, np.int64(allowed), wt, s64, vw)
                action = cg.NAME + int(s) if stuck or e >= p[seat, Q_NAME] else cg.PASS
                if self.equity and not self.bid_search:
                    level, s = equity_name(hand, np.int64(allowed), np.int64(position), stuck, s64,
                                           np.int64(st.dealer), wt, p, r[C_MAKER_ALONE] == 1, self._eq(st))
                    action, self.alone[seat] = (cg.NAME + int(s) if level > 0 else cg.PASS), int(level) - 1
            return self._searched_call(st, seat, action) if self.bid_search else action
        if ph == cg.EXCHANGE:
            u = np.int64(st.up // 6)
            d, e = best_exchange(hand, np.int64(st.up), u, wt, s64, vw)
            mine = int(d) if r[C_PICKUP_MANDATORY] == 1 or e > estimate(hand, u, wt, s64, vw) else -1
            if self.bid_search:
                mine = self._searched_exchange(st, seat, mine)
            return st.up if mine < 0 else mine  # the up-card itself: no exchange
        if ph == cg.MAKER_ALONE and seat in self.alone:  # a searched call chose its going alone
            return cg.ALONE if self.alone[seat] == 1 else cg.NOT_ALONE
        if ph == cg.MAKER_ALONE:
            hands = np.zeros(3, np.int64)
            hands[seat] = hand
            go = maker_goes_alone(hands, np.int64(st.trump), s64, r, p, wt, np.int64(-1), np.int64(-1), self.dstate,
                                  self.dbuf)
            return cg.ALONE if go else cg.NOT_ALONE
        if ph == cg.DEFEND:
            go = bool(defender_goes_alone(hand, np.int64(st.trump), s64, p, wt, self.dstate, self.dbuf))
            if self.bid_search:
                go = self._searched_defence(st, seat, go)
            return cg.ALONE if go else cg.NOT_ALONE
        if ph == cg.MERGE:
            if self.bid_search:
                keep = self._searched_keep(st, seat)
            else:
                keep = int(best_keep(np.int64(st.ten), np.int64(st.trump), wt, self.order, s64, vw, self.pw, self.pm))
            left = keep & ~st.kept
            return (left & -left).bit_length() - 1
        raise ValueError(f"no decision of a seat at phase {ph}")

    # ---------------------------------------------------------------- the searched auction (``pimc_bid``)

    def new_hand(self) -> None:
        """Forget the hand: the next decision starts a new one (``_begin``), whatever its cards."""
        self.hand = None

    def _begin(self, st) -> None:
        """At the first decision this player sees of a hand: a fresh PIMC workspace (the kernels' searched hand
        makes one before its auction), no searched calls or keep yet."""
        key = (st.dealer, st.up, tuple(st.dealt), st.dummy)
        if key != self.hand:
            from bower.kernels import pimc

            self.hand, self.alone, self.keep, self.ws = key, {}, None, pimc.new_workspace()

    def _public_record(self, st, seat: int) -> np.ndarray:
        """A record of what ``seat`` knows for the kernels' searches: dealer, up-card, the calls, the maker, who
        went alone, whether the dealer exchanged (its discard, read for the dealer alone), its own dealt hand."""
        rec = self.rec
        rec[R_DEALER] = st.dealer
        rec[R_KITTY] = st.up
        rec[R_MAKER] = st.maker
        rec[R_ALONE] = ((1 << st.maker) if st.maker_alone else 0) | ((1 << st.lone) if st.lone >= 0 else 0)
        rec[R_DEALER_DISCARD] = st.discard if st.exchanged else -1
        for s in range(3):
            rec[R_DEAL + s] = st.dealt[s] if s == seat else 0
        for i, (s, a) in enumerate(st.calls):
            rec[R_CALLS + 2 * i] = s
            rec[R_CALLS + 2 * i + 1] = CALL_PASS if a == cg.PASS else (CALL_ACCEPT if a == cg.ACCEPT
                                                                        else CALL_SUIT + a - cg.NAME)
        rec[R_NCALLS] = len(st.calls)
        return rec

    def _edge(self, seat: int, total: float) -> float:
        return float(self.params[seat, Q_PIMC_EDGE] * total)

    def _searched_call(self, st, seat: int, action: int) -> int:
        """``auction_force``'s call at this turn: the candidates valued by ``call_values`` on the seat's dealt
        hand, the best taken when it beats the strategy's call (with its own going alone) by more than the edge."""
        from bower.kernels.cutthroat.hand import _best, call_values

        r, p, wt = self.rules, self.params, self.wt
        k = len(st.calls)
        up, u = st.up, st.up // 6
        own = np.int64(st.dealt[seat])
        s64, vw = np.int64(seat), p[seat, Q_VOID]
        lone_ok = r[C_MAKER_ALONE] == 1
        n_alone = 2 if lone_ok else 1
        allowed = 15 if r[C_TURNED_DOWN_OK] == 1 else 15 & ~(1 << u)
        cand = np.zeros((9, 2), np.int64)
        n = 0
        if not (k == 5 and r[C_STICK] == 1):
            cand[0] = CALL_PASS, -1
            n = 1
        mine = 0
        if k < 3:
            for a in range(n_alone):
                cand[n + a] = CALL_ACCEPT, a
            if action == cg.ACCEPT:
                held = own
                if seat == st.dealer:  # the strategy's exchange: the hand it would go alone with
                    d, e = best_exchange(own, np.int64(up), np.int64(u), wt, s64, vw)
                    if r[C_PICKUP_MANDATORY] == 1 or e > estimate(own, np.int64(u), wt, s64, vw):
                        held = (own & ~(np.int64(1) << d)) | (np.int64(1) << up)
                alone = lone_ok and estimate(np.int64(held), np.int64(u), wt, s64, vw) >= p[seat, Q_ALONE]
                mine = n + (1 if alone else 0)
            n += n_alone
        else:
            for t in range(4):
                if allowed >> t & 1:
                    if action == cg.NAME + t:
                        alone = lone_ok and estimate(own, np.int64(t), wt, s64, vw) >= p[seat, Q_ALONE]
                        mine = n + (1 if alone else 0)
                    for a in range(n_alone):
                        cand[n + a] = CALL_SUIT + t, a
                    n += n_alone
        rec = self._public_record(st, seat)
        vals = np.zeros(9)
        dstate, dbuf = self.stream
        total = call_values(s64, np.int64(k), np.int64(up), own, cand, np.int64(n), np.int64(st.dealer), r, p, wt,
                            self.order, self.pw, self.pm, dstate, dbuf, rec, self.ws, vals)
        best = int(_best(vals, np.int64(n), np.int64(mine), self._edge(seat, total)))
        c, alone = int(cand[best, 0]), int(cand[best, 1])
        if c == CALL_PASS:
            return cg.PASS
        self.alone[seat] = alone
        return cg.ACCEPT if c == CALL_ACCEPT else cg.NAME + c - CALL_SUIT

    def _searched_exchange(self, st, seat: int, mine: int) -> int:
        """``play_searched``'s exchange of a searching dealer after an acceptance: keeping its hand (unless the
        pickup is mandatory) and each card to lay down, valued by ``exchange_values``; -1: keep the hand."""
        from bower.kernels.cutthroat.hand import _best, exchange_values

        r = self.rules
        own = st.dealt[seat]
        cand = [] if r[C_PICKUP_MANDATORY] == 1 else [-1]
        cand += [c for c in range(24) if own >> c & 1]
        at = cand.index(mine) if mine in cand else 0  # the strategy kept its hand: candidate 0
        arr = np.zeros(6, np.int64)
        arr[:len(cand)] = cand
        vals = np.zeros(6)
        rec = self._public_record(st, seat)
        dstate, dbuf = self.stream
        total = exchange_values(np.int64(seat), np.int64(len(st.calls)), np.int64(st.up), np.int64(own),
                                np.int64(st.maker), np.int64(st.maker), np.int64(self.alone.get(st.maker, -1)), arr,
                                np.int64(len(cand)), r, self.params, self.wt, self.order, self.pw, self.pm, dstate,
                                dbuf, rec, self.ws, vals)
        return int(cand[int(_best(vals, np.int64(len(cand)), np.int64(at), self._edge(seat, total)))])

    def _searched_defence(self, st, seat: int, go: bool) -> bool:
        """``play_searched``'s defender: going alone or not valued by ``lone_values`` (``asked``: the maker's
        decision and any defender's before it), the better taken when it beats the strategy's by more than the
        edge."""
        from bower.kernels.cutthroat.hand import _best, lone_values

        first = len(st.answers) == 0
        second = (st.maker + 2) % 3 if first else -1
        hands = np.zeros(3, np.int64)
        hands[seat] = st.hands[seat]
        rec = self._public_record(st, seat)
        rec[R_ALONE] = 0  # as the kernels' record holds it while the defenders decide
        vals = np.zeros(2)
        dstate, dbuf = self.stream
        total = lone_values(np.int64(seat), np.int64(second), hands, np.int64(st.dealer), np.int64(st.trump),
                            np.int64(st.maker), bool(st.maker_alone), np.int64(1 if first else 2), self.rules,
                            self.params, self.wt, self.order, self.pw, self.pm, dstate, dbuf, rec, self.ws, vals)
        return int(_best(vals, np.int64(2), np.int64(1 if go else 0), self._edge(seat, total))) == 1

    def _searched_keep(self, st, seat: int) -> int:
        """``play_searched``'s merge, searched once a hand: the keeps of ``keep_candidates`` (the strategy's
        ``best_keep`` among them) valued by ``keep_values``, the best kept when it beats the strategy's by more
        than the edge."""
        if self.keep is None:
            from bower.kernels.cutthroat.hand import _best, keep_candidates, keep_values

            p, wt = self.params, self.wt
            s64, vw, trump = np.int64(seat), p[seat, Q_VOID], np.int64(st.trump)
            ten = np.int64(st.ten)
            mine = best_keep(ten, trump, wt, self.order, s64, vw, self.pw, self.pm)
            keeps = np.zeros(MAX_KEEPS + 1, np.int64)
            vals = np.zeros(MAX_KEEPS + 1)
            n = int(keep_candidates(ten, trump, wt, s64, vw, mine, keeps))
            hands = np.zeros(3, np.int64)
            hands[seat] = st.ten & ~st.dummy  # its hand after the exchange, the dummy beside it
            rec = self._public_record(st, seat)
            dstate, dbuf = self.stream
            total = keep_values(s64, hands, np.int64(st.dummy), np.int64(st.dealer), trump, np.int64(st.lone), keeps,
                                np.int64(n), self.rules, p, wt, self.order, self.pw, self.pm, dstate, dbuf, rec,
                                self.ws, vals)
            at = 0
            for i in range(n):
                if keeps[i] == mine:
                    at = i
            self.keep = int(keeps[int(_best(vals, np.int64(n), np.int64(at), self._edge(seat, total)))])
        return self.keep

    def _eq(self, st) -> tuple:
        """The kernels' ``eq`` of an equity call at ``st``: (the tables of the game's target, the seat scores, the
        target, ``pick``)."""
        target = st.game_target()
        return self.tables(target), np.array(st.game_scores(), np.int64), np.int64(target), self.pick

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
        if not self.bid_search:  # a searched auction made the hand's workspace at its first decision
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
