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
played: nothing else.

``pimc`` and ``pimc-fast`` (heuristic calls, PIMC cards) search each card
by the kernels' ``pimc.choose`` on ``pimc_facts`` of a record of the public
hand (``_searched``); ``pimc-bid`` (a searched auction) is refused. One
fact is not the seat's own: under ``discard_up`` the kernels' facts tell every
seat whether the dealer buried the up-card, and so do the bot's, to search
as the kernels do.
"""

from __future__ import annotations

import numpy as np

from bower.kernels.euchre.codes import E_DISCARD_UP, E_STICK
from bower.kernels.euchre.hand import (DECK, Q_PIMC, Q_PIMC_BID, Q_PIMC_INFER, Q_PIMC_SEES, R_ALONE, R_DEALER,
                                       R_DISCARD, R_KITTY, R_PLAYS, R_WIDTH, pimc_facts)
from bower.kernels.euchre.strategy import (Q_LEAD_NEXT, Q_LEAD_TRUMP, Q_VOID, alone_decision, best_discard,
                                           card_weights, is_random, name_decision, order_decision)
from bower.kernels.tables import SLOT_DECK
from bower.sim.preset_bots import follow_card, hand_workspace, lead_card, pimc_card, searched_parts, write_plays
from bower.sim.rules import encode
from bower.sim.variants.euchre import game as eg


def plays_at_random(params) -> bool:
    """Whether the strategy is the uniformly random player (the kernels' ``is_random``)."""
    return bool(is_random(params, 0))


def searches(params) -> str:
    """What the strategy searches that a bot cannot (a searched auction, auction-weighted worlds, the true hands);
    "" when nothing: heuristic calls with PIMC cards (``pimc``, ``pimc-fast``) are a bot."""
    return searched_parts(params, Q_PIMC, Q_PIMC_BID, Q_PIMC_INFER, Q_PIMC_SEES)


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

    def step(self, st) -> int:
        """The action of the seat to act at ``st`` (a ``bower.sim.variants.euchre.game.State``)."""
        seat = st.current_player()
        ph = st.phase
        p, wt = self.params, self.wt
        if ph == eg.PLAY:
            return self._card(st, seat)
        hand = np.int64(st.hands[seat])
        if ph == eg.AUCTION:
            position = (seat - st.dealer - 1) % 4 + 1
            if len(st.calls) < 4:
                order, _ = order_decision(hand, np.int64(st.up), np.int64(position), wt, p, np.int64(seat),
                                          self.discard_up)
                return eg.ORDER if order else eg.PASS
            stuck = position == 4 and self.stick
            call = int(name_decision(hand, np.int64(st.up // 6), np.int64(position), stuck, wt, p, np.int64(seat)))
            return eg.PASS if call < 0 else eg.NAME + call
        if ph == eg.DISCARD:  # the dealer's six cards, the up-card among them
            d, _ = best_discard(hand, np.int64(-1 if self.discard_up else st.up), np.int64(st.trump), wt,
                                np.int64(seat), p[seat, Q_VOID])
            return int(d)
        if ph in (eg.MAKER_ALONE, eg.DEFEND):
            go = alone_decision(hand, np.int64(st.trump), wt, p, np.int64(seat), ph == eg.DEFEND)
            return eg.ALONE if go else eg.WITH_PARTNER
        raise ValueError(f"no decision of a seat at phase {ph}")

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
        self.ws = hand_workspace(st, self.ws)
        rec = self.rec
        rec[R_DEALER] = st.dealer
        rec[R_KITTY] = st.up
        rec[R_ALONE] = ((1 << st.maker) if st.maker_alone else 0) | ((1 << st.lone) if st.lone >= 0 else 0)
        rec[R_DISCARD] = st.discard if st.round == 1 else -1  # the kernels' facts compare it with the up-card only
        n = write_plays(st, rec, R_PLAYS)
        return pimc_card(st.hands[seat], seat, pimc_facts(rec, np.int64(seat)), st.trump, DECK, rec, R_PLAYS, n,
                         self.worlds, self.stream, self.ws)
