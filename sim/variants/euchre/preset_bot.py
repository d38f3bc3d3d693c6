"""Standard Euchre's strategies as bots (``bower.sim.preset_bots``): the kernels' decisions, called from Python.

Every decision is the one ``bower.kernels.euchre.hand`` makes for a seat of
the strategy (``kernels/euchre/SPEC.md``), by the same kernel functions:
round one ``order_decision``, round two ``name_decision`` (a stuck dealer
always names), the dealer's discard ``best_discard``, the maker's going alone
and a defender's defending alone ``alone_decision``, and the cards by the
shared trick core's ``lead_slot`` / ``follow_slot`` with the kernels'
arguments (the maker's strongest trump at ``lead_trump_min`` trumps, a
defender's "next" lead on the first trick after a round-two call). A seat
reads its own hand, the up-card, the calls, trump, the maker and the cards
played: nothing else. An equity bidder (``equity``: ``bid_equity``) calls
by the kernels' ``equity_order`` and ``equity_name`` at the game's scores
of the state (``game_scores()`` by side, ``game_target()``), on the game's
equity tables (from ``bower.sim.equity_bidder``, as the runner's
``GamesKernel`` gets them), and as the maker goes alone as its call chose.

``pimc`` and ``pimc-fast`` (heuristic calls, PIMC cards) search each card
by the kernels' ``pimc.choose`` on ``pimc_facts`` of a record of the public
hand (``_searched``). ``pimc-bid`` (``pimc_bid``: a searched auction) also
searches, as the kernels' ``play_dealt`` does: each call by ``_call_values``
over the candidates of ``pimc_auction_force`` (ties: the strategy's call),
the maker's going alone as its searched call chose, the dealer's discard by
``pimc_discard`` and a defender's defending alone by ``_defend_values`` (as
``contract_searched``), each on the seat's own hand and the public record,
the worlds drawn from the bot's stream, one PIMC workspace a hand from its
first decision. The worlds' other seats play the bot's own strategy (in the
kernels, each seat's row: the same when the bot holds every seat). Under
``discard_up`` the facts of a seat other than the dealer leave open whether
the dealer buried the up-card (the kernels' ``pimc_facts``).
"""

from __future__ import annotations

import numpy as np

from bower.kernels.euchre.codes import E_DISCARD_UP, E_STICK
from bower.kernels.euchre.hand import (CALL_ORDER, CALL_PASS, CALL_SUIT, DECK, Q_PIMC, Q_PIMC_BID, Q_PIMC_INFER,
                                       Q_PIMC_SEES, R_ALONE, R_DEAL, R_DEALER, R_DISCARD, R_EXCHANGE, R_GIVEN,
                                       R_KITTY, R_LONER_DISCARD, R_MAKER, R_PASSED, R_PLAYS, R_WIDTH, best_card,
                                       heuristic_gift, pimc_facts)
from bower.kernels.euchre.strategy import (Q_EQUITY, Q_LEAD_NEXT, Q_LEAD_TRUMP, Q_VOID, alone_decision, best_discard,
                                           card_weights, equity_name, equity_order, is_random, name_decision,
                                           order_decision)
from bower.kernels.tables import SLOT_DECK
from bower.sim.preset_bots import (EquityTables, follow_card, hand_workspace, lead_card, pimc_card, searched_parts,
                                   write_plays)
from bower.sim.rules import encode
from bower.sim.variants.euchre import game as eg


def plays_at_random(params) -> bool:
    """Whether the strategy is the uniformly random player (the kernels' ``is_random``)."""
    return bool(is_random(params, 0))


def searches(params) -> str:
    """What the strategy searches that a bot cannot (auction-weighted worlds, the true hands); "" when nothing:
    heuristic or searched calls (``pimc_bid``) with PIMC cards (``pimc``, ``pimc-fast``, ``pimc-bid``) are a bot."""
    return searched_parts(params, Q_PIMC, -1, Q_PIMC_INFER, Q_PIMC_SEES)


class Player:
    """The strategy rows ``params`` (one per seat) at the table of ``game``: ``step(state)`` is the kernels' decision
    (``stream``: the bot's decision stream, for a PIMC strategy's worlds)."""

    def __init__(self, params: np.ndarray, game, stream=None):
        self.params = params
        self.worlds = int(params[0, Q_PIMC])  # PIMC cards (``pimc_worlds`` >= 1), from the decision ``stream``
        self.stream = stream
        self.rec = np.zeros(R_WIDTH, np.int64)
        self.ws = None
        rules = encode(game.variant, game.rules)
        self.stick = bool(rules[E_STICK] == 1)
        self.discard_up = bool(rules[E_DISCARD_UP] == 1)
        self.wt = np.zeros((params.shape[0], 4, 24), np.float64)
        card_weights(params, self.wt)
        self.rules = rules
        self.bid_search = self.worlds >= 1 and params[0, Q_PIMC_BID] >= 0.5  # ``hand.searches``
        self.hand = None  # the hand the workspace and the searched calls belong to (``_begin``)
        self.alone = {}  # seat -> its searched or equity call's going alone (0, 1) this hand
        self.equity = params[0, Q_EQUITY] >= 0.5  # an equity bidder: its tables by target (``EquityTables``)
        self.tables = EquityTables(game) if self.equity else None
        self.pick = np.full(2, -1, np.int64)  # the kernels' ``pick`` of an equity call (read back from ``alone``)

    def step(self, st) -> int:
        """The action of the seat to act at ``st`` (a ``bower.sim.variants.euchre.game.State``)."""
        seat = st.current_player()
        ph = st.phase
        p, wt = self.params, self.wt
        if self.bid_search:
            self._begin(st)
        if ph == eg.PLAY:
            return self._card(st, seat)
        if ph == eg.GIVE:  # farmers / go_under: as the kernels, always exchange, giving ``heuristic_gift``'s three
            if st.ex_seat < 0:
                return eg.EXCHANGE
            dealt = st.dealt[seat]
            gift = int(heuristic_gift(np.int64(dealt), np.int64(eg.exchange_options(dealt, st.game.rules))))
            left = gift & ~st.ex_given
            return (left & -left).bit_length() - 1
        hand = np.int64(st.hands[seat])
        if ph == eg.AUCTION:
            position = (seat - st.dealer - 1) % 4 + 1
            if len(st.calls) < 4:
                order, _ = order_decision(hand, np.int64(st.up), np.int64(position), wt, p, np.int64(seat),
                                          self.discard_up)
                if self.equity and not self.bid_search:
                    level, _ = equity_order(hand, np.int64(st.up), np.int64(position), np.int64(seat),
                                            np.int64(st.dealer), wt, p, self.discard_up, self._eq(st))
                    order, self.alone[seat] = level > 0, int(level) - 1
                action = eg.ORDER if order else eg.PASS
            else:
                stuck = position == 4 and self.stick
                call = int(name_decision(hand, np.int64(st.up // 6), np.int64(position), stuck, wt, p,
                                         np.int64(seat)))
                if self.equity and not self.bid_search:
                    level, s = equity_name(hand, np.int64(st.up // 6), np.int64(position), stuck, np.int64(seat),
                                           np.int64(st.dealer), wt, p, self._eq(st))
                    call, self.alone[seat] = (int(s) if level > 0 else -1), int(level) - 1
                action = eg.PASS if call < 0 else eg.NAME + call
            return self._searched_call(st, seat, action) if self.bid_search else action
        if ph == eg.DISCARD:  # the dealer's six cards, the up-card among them
            d, _ = best_discard(hand, np.int64(-1 if self.discard_up else st.up), np.int64(st.trump), wt,
                                np.int64(seat), p[seat, Q_VOID])
            return self._searched_discard(st, seat, int(d)) if self.bid_search else int(d)
        if ph == eg.PARTNER_PASS:  # partners_best: the lone maker's partner passes its best card
            return int(best_card(hand, np.int64(st.trump)))
        if ph == eg.LONER_DISCARD:  # ... and the lone maker discards as the dealer does, any of its six
            d, _ = best_discard(hand, np.int64(-1), np.int64(st.trump), wt, np.int64(seat), p[seat, Q_VOID])
            return int(d)
        if ph == eg.MAKER_ALONE and seat in self.alone:  # a searched call chose its going alone
            return eg.ALONE if self.alone[seat] == 1 else eg.WITH_PARTNER
        if ph in (eg.MAKER_ALONE, eg.DEFEND):
            go = bool(alone_decision(hand, np.int64(st.trump), wt, p, np.int64(seat), ph == eg.DEFEND))
            if ph == eg.DEFEND and self.bid_search:
                go = self._searched_defence(st, seat, go)
            return eg.ALONE if go else eg.WITH_PARTNER
        raise ValueError(f"no decision of a seat at phase {ph}")

    def _eq(self, st) -> tuple:
        """The kernels' ``eq`` of an equity call at ``st``: (the tables of the game's target, the side scores, the
        target, ``pick``)."""
        target = st.game_target()
        return self.tables(target), np.array(st.game_scores(), np.int64), np.int64(target), self.pick

    # ---------------------------------------------------------------- the searched auction (``pimc_bid``)

    def new_hand(self) -> None:
        """Forget the hand: the next decision starts a new one (``_begin``), whatever its cards."""
        self.hand = None

    def _begin(self, st) -> None:
        """At the first decision this player sees of a hand: a fresh PIMC workspace (the kernels make one a hand,
        before its auction) and no searched calls yet."""
        key = (st.dealer, st.up, tuple(st.dealt))
        if key != self.hand:
            from bower.kernels import pimc

            self.hand, self.alone, self.ws = key, {}, pimc.new_workspace()

    def _searched_call(self, st, seat: int, action: int) -> int:
        """``pimc_auction_force``'s call at this turn: the candidates (pass unless a stuck dealer; round one order
        with and without going alone; round two each suit but the up-card's, with and without) valued by
        ``_call_values`` on the seat's hand at the call (its dealt hand, after an exchange with the kitty), the best taken (ties: the strategy's call ``action``)."""
        from bower.kernels.euchre.hand import _call_values

        k = len(st.calls)
        up = st.up
        code = CALL_PASS if action == eg.PASS else (CALL_ORDER if action == eg.ORDER else CALL_SUIT + action - eg.NAME)
        cand = []
        if not (k == 7 and self.stick):
            cand.append((CALL_PASS, -1))
        if k < 4:
            cand += [(CALL_ORDER, 0), (CALL_ORDER, 1)]
        else:
            for t in range(4):
                if t != up // 6:
                    cand += [(CALL_SUIT + t, 0), (CALL_SUIT + t, 1)]
        arr = np.zeros((9, 2), np.int64)
        arr[:len(cand)] = cand
        vals = np.zeros(9)
        dstate, dbuf = self.stream
        _call_values(np.int64(seat), np.int64(k), np.int64(up), np.int64(st.hands[seat]), arr, np.int64(len(cand)),
                     np.int64(st.dealer), self.rules, self.params, self.wt, dstate, dbuf, self.ws, vals)
        best = next(i for i, (c, _) in enumerate(cand) if c == code)
        for i in range(len(cand)):
            if vals[i] > vals[best]:
                best = i
        c, alone = cand[best]
        if c == CALL_PASS:
            return eg.PASS
        self.alone[seat] = alone
        return eg.ORDER if c == CALL_ORDER else eg.NAME + c - CALL_SUIT

    def _public_record(self, st) -> np.ndarray:
        """A record of what is public in the hand of ``st`` (dealer, up-card, the dealer's discard after an order,
        as ``_searched`` writes it) for the kernels' facts."""
        rec = self.rec
        rec[R_DEALER] = st.dealer
        rec[R_KITTY] = st.up
        rec[R_DISCARD] = st.discard if st.round == 1 and st.discard >= 0 else -1
        # partners_best's exchange as this hand has it (-1: none yet), never the one a hand before left here
        rec[R_PASSED], rec[R_LONER_DISCARD] = st.passed, st.loner_discard
        self._exchange_facts(st, st.current_player())
        return rec

    def _exchange_facts(self, st, seat: int) -> None:
        """The exchange with the kitty (farmers / go_under) in the public record: its seat, and the cards it gave
        to that seat only (the kernels' ``pimc_facts``)."""
        mine = st.ex_seat == seat and st.phase != eg.GIVE
        self.rec[R_EXCHANGE] = st.ex_seat if st.phase != eg.GIVE else -1
        self.rec[R_GIVEN] = st.ex_given if mine else 0
        if mine:  # the kitty's three it took (``hand.held_dealt``)
            self.rec[R_KITTY + 1], self.rec[R_KITTY + 2], self.rec[R_KITTY + 3] = st.kitty[1:4]

    def _searched_discard(self, st, seat: int, mine: int) -> int:
        """``pimc_discard``: the dealer's five dealt cards (six under ``discard_up``) valued after the order (the
        maker's going alone as its searched call chose, else its strategy's), the best kept (ties: ``mine``)."""
        from bower.kernels.euchre.hand import pimc_discard

        rec = self._public_record(st)
        rec[R_DISCARD] = mine
        for s in range(4):
            rec[R_DEAL + s] = st.dealt[s] if s == seat else 0
        dstate, dbuf = self.stream
        alone = self.alone.get(st.maker, -1)
        return int(pimc_discard(np.int64(st.maker), np.int64(st.maker), np.int64(alone), np.int64(st.dealer),
                                self.rules, self.params, self.wt, rec, dstate, dbuf, self.ws))

    def _searched_defence(self, st, seat: int, go: bool) -> bool:
        """``contract_searched``'s defender: defend alone when ``_defend_values`` values it higher, not when lower
        (a tie: the strategy's ``go``); the other defender, when asked after this one, modelled by its strategy."""
        from bower.kernels.euchre.hand import _defend_values

        rec = self._public_record(st)
        first = len(st.answers) == 0
        second = st.defenders_in_turn()[1] if first else -1
        hands = np.zeros(4, np.int64)
        hands[seat] = st.hands[seat]
        dstate, dbuf = self.stream
        v0, v1, _ = _defend_values(np.int64(seat), np.int64(second), hands, np.int64(st.trump), np.int64(st.maker),
                                   bool(st.maker_alone), np.int64(st.dealer), self.rules, self.params, self.wt, rec,
                                   dstate, dbuf, self.ws)
        return True if v1 > v0 else (False if v0 > v1 else go)

    def _card(self, st, seat: int) -> int:
        trump, maker = st.trump, st.maker
        if self.worlds >= 1:
            return self._searched(st, seat)
        if st.trick:
            return follow_card(st.hands[seat], st.trick, trump, lambda winner: (winner & 1) == (seat & 1))
        u = st.up // 6
        nx = -1
        if not st.tricks and st.round == 2 and (u ^ 1) != trump and (seat & 1) != (maker & 1) \
                and self.params[seat, Q_LEAD_NEXT] >= 0.5:
            nx = u ^ 1
        return lead_card(st.hands[seat], st.played, trump, int(SLOT_DECK[trump]), seat == maker, seat == (maker ^ 2),
                         self.params[maker, Q_LEAD_TRUMP], nx)

    def _searched(self, st, seat: int) -> int:
        """The PIMC card (as the kernels' ``pick_card``): the facts from a record of what is public (dealer,
        up-card, who went alone, whether the dealer took the up-card, the plays), the worlds from the bot's
        stream, a fresh workspace each hand (as the kernels' hand)."""
        if not self.bid_search:  # a searched auction made the hand's workspace at its first decision
            self.ws = hand_workspace(st, self.ws)
        rec = self.rec
        rec[R_DEALER] = st.dealer
        rec[R_KITTY] = st.up
        rec[R_ALONE] = ((1 << st.maker) if st.maker_alone else 0) | ((1 << st.lone) if st.lone >= 0 else 0)
        rec[R_DISCARD] = st.discard if st.round == 1 else -1  # the kernels' facts compare it with the up-card only
        rec[R_MAKER] = st.maker
        rec[R_PASSED], rec[R_LONER_DISCARD] = st.passed, st.loner_discard  # partners_best's exchange (-1: none)
        self._exchange_facts(st, seat)
        n = write_plays(st, rec, R_PLAYS)
        return pimc_card(st.hands[seat], seat, pimc_facts(rec, np.int64(seat), self.discard_up), st.trump, DECK, rec, R_PLAYS, n,
                         self.worlds, self.stream, self.ws)
