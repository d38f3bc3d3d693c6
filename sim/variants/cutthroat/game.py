"""Cutthroat (RULES.md 2) through the game API of ``bower.sim.game``: one hand, decision by decision.

``bower.game("cutthroat", rules={...})`` gives this module's ``Game``; its
states follow the rules as the kernels play them (``kernels/cutthroat/hand.py``)
under every rule option (``dealer_pickup``, ``allow_turned_down_suit``,
``stick_the_dealer``, ``maker_alone``, ``lone_maker_march``,
``lone_defender_points``). Seats are 0..2 clockwise, each for themselves; the
maker plays against the other two, partners for the hand only. Cards are
bower's numbers, ``suit * 6 + rank``, suits C S D H and ranks 9 T J Q K A
(``bower.sim.cards``).

A hand, node by node
--------------------
1. Chance: the dealer, each seat with probability 1/3.
2. Chance, 24 times: the deal, card by card from the top, each card not yet
   dealt equally likely. Card ``k < 20`` goes to position 1, 2, 3 (the
   dealer) or the dummy by ``k % 4`` (position 1 is the dealer's left: seat
   ``(dealer + 1 + k % 4) % 3`` for ``k % 4 < 3``); cards 20..23 are the kitty
   in order, card 20 the up-card (the kernels' deal order). The whole deck
   is dealt, so a state is one complete world.
3. The auction. Round one from position 1 to the dealer: pass or accept the
   up-card (position 1 "orders", position 2 "assists", the dealer "takes";
   trump: the up-card's suit). Round two: pass or name a suit other than the
   up-card's (any suit under ``allow_turned_down_suit``; the dealer may not
   pass under ``stick_the_dealer``). All pass twice: thrown in (terminal, no
   points).
4. After an acceptance the dealer exchanges: it discards one of its five
   dealt cards and takes the up-card, or "discards the up-card", that is
   keeps its hand as dealt (not under ``dealer_pickup = mandatory``).
5. Going alone: the maker goes alone or not (only under
   ``maker_alone = allowed``); then each defender from the maker's left is
   asked to defend alone, until one does (the other's hand then sits out).
6. The merge, unless the maker went alone: the maker takes the dummy and
   keeps five of its ten cards, one pick at a time (each pick a card kept);
   the five left are its discards, face down.
7. Five tricks among the seats in play: position 1 leads; after a lone hand
   the first seat in play to the lone player's left; when maker and a
   defender both went alone, the defender. Follow the suit led (the left
   bower is trump) if you can.

Action ids
----------

=========  ===================================================================
id         meaning
=========  ===================================================================
0..2       chance, first node: the dealer's seat
0..23      chance: the card dealt next; a decision: the dealer's exchange (the
           card discarded; the up-card itself: no exchange), a card the maker
           keeps in the merge, or the card played
24         ``PASS`` (either round)
25         ``ACCEPT``: round one, order / assist / take the up-card
26..29     ``NAME + suit``: round two, name clubs, spades, diamonds, hearts
30         ``NOT_ALONE``: the maker plays with the dummy; a defender asked does
           not defend alone
31         ``ALONE``: the maker goes alone; a defender asked defends alone
=========  ===================================================================

Legal actions come sorted. The kernels' random player draws
``legal[bounded(len(legal))]`` over its choices in this order too (pass
first, accept or the suits C S D H; not alone before alone; the kept cards
and the cards played ascending) except at the dealer's exchange, where its
order is "no exchange" first, then the discards ascending: ``kernel_order``
gives a legal set in the kernels' order (``tests/test_game_cutthroat.py``).

``returns()``: by seat, the points each seat scores for the hand by
RULES.md's table (the maker 1 for 3-4 tricks, 3 for all five with the dummy,
``lone_maker_march`` alone; euchred, each defender 2; a lone defender's side
2 for 3-4 tricks, 4 for all five, only the lone defender under
``lone_defender_points = lone_only``); all zeros for a hand thrown in.

Observation tensor (``OBSERVATION_SIZE`` = 564 floats for one seat)
-------------------------------------------------------------------
=========  ===================================================================
offset     what
=========  ===================================================================
0          3: the observing seat
3          3: the dealer's seat (zeros before the dealer is drawn)
6          24: the cards the seat holds now (the maker's ten while it merges)
30         24: the up-card (once dealt)
54         1: the dealer took the up-card (public)
55         24: the dealer's discard (only to the dealer)
79         24: the dummy (only to the maker, once it takes it)
103        24: the maker's discards after the merge (only to the maker)
127        36: the calls, 6 turns x 6 (pass, accept, name C, S, D, H)
163        4: trump suit C S D H
167        3: the maker's seat
170        3: seats playing alone (the lone maker, the lone defender)
173        3: seats sitting out
176        360: the cards played, 5 tricks x 3 seats x 24 cards
536        15: the leader of each trick, 5 tricks x 3 seats
551        3: the seat to act (zeros at a chance node and at the end)
554        6: the decision now: call, exchange, maker alone, defend alone,
           merge, play
560        3: the game's scores before the hand, by seat, whole numbers
           (``game_scores()``)
563        1: the game's target, a whole number (``game_target()``)
=========  ===================================================================

Every cell is 0 or 1 but the last ones: the game's scores and target.

``resample_from_infostate(player, rng)``: what ``player`` knows is its own
hand (as dealer, its discard; as maker after taking the dummy, the dummy and
its keep), the up-card (in the dealer's hand after an exchange, until played
or, when the dealer made trump and merged, until it could have been put
down), every card played, and each seat's voids (a seat that did not follow
a suit led holds none of it). The other cards (the other hands, the dummy,
the maker's discards, the kitty's three face-down cards, the dealer's
discard) are drawn by ``bower.sim.game.draw_hidden``, uniformly among the
deals that respect those voids; which five of a merging maker's ten cards
were its own is drawn uniformly (the up-card among them after its
exchange); the state's decisions are then replayed on that deal, the
hidden ones (another's exchange discard, another's keep) replaced by the
drawn world's.
"""

from __future__ import annotations

from bower.sim.cards import card_str
from bower.sim.game import (
    _below, cards_of as _cards, CHANCE, draw_hidden, EFFECTIVE, GameError, HandGame, HandState, names as _names, POWER, uniform_source,
)

PLAYERS = 3
HAND = 5
TRICKS = 5
DECK = 24
JACK = 2
SUITS = "CSDH"
MAKER_NEEDS = 3

PASS = 24
ACCEPT = 25
NAME = 26  # + suit
NOT_ALONE = 30
ALONE = 31
NUM_DISTINCT_ACTIONS = 32

# phases
DEALER, DEAL, AUCTION, EXCHANGE, MAKER_ALONE, DEFEND, MERGE, PLAY, OVER = range(9)

OBSERVATION_SIZE = 564
_O_GAME = 560  # the game's scores, then its target (``HandState._game_cells``)
_O_SEAT, _O_DEALER, _O_HAND, _O_UP, _O_TOOK, _O_DISCARD, _O_DUMMY, _O_PILE = 0, 3, 6, 30, 54, 55, 79, 103
_O_CALLS, _O_TRUMP, _O_MAKER, _O_ALONE, _O_OUT, _O_PLAYS, _O_LEADERS, _O_TURN, _O_PHASE = (
    127, 163, 167, 170, 173, 176, 536, 551, 554)
_PHASE_SLOT = {AUCTION: 0, EXCHANGE: 1, MAKER_ALONE: 2, DEFEND: 3, MERGE: 4, PLAY: 5}

ACCEPT_WORD = {1: "order", 2: "assist", 3: "take"}  # round one's acceptance by position


_FULL = (1 << DECK) - 1


def _count(mask: int) -> int:
    return bin(mask).count("1")


def _position(dealer: int, seat: int) -> int:
    """1, 2 or 3 (the dealer)."""
    return (seat - dealer) % PLAYERS or PLAYERS


class Game(HandGame):
    """Cutthroat's game under one rule set: ``new_initial_state()`` and OpenSpiel's sizes."""

    PLAYERS, ACTIONS, CHANCE_OUTCOMES, OBSERVATION_SIZE = PLAYERS, NUM_DISTINCT_ACTIONS, DECK, OBSERVATION_SIZE

    def __init__(self, variant, rules: dict):
        self.variant = variant
        self.rules = dict(rules)
        self.mandatory = rules["dealer_pickup"] == "mandatory"
        self.turned_down_ok = bool(rules["allow_turned_down_suit"])
        self.stick = bool(rules["stick_the_dealer"])
        self.maker_alone_ok = rules["maker_alone"] == "allowed"
        self.lone_march = int(rules["lone_maker_march"])
        self.lone_only = rules["lone_defender_points"] == "lone_only"

    def min_utility(self) -> float:
        return 0.0

    def max_utility(self) -> float:
        return float(max(4, self.lone_march))

    def max_game_length(self) -> int:
        """Decisions at most: 6 calls, the exchange, going alone, two defenders asked, 5 keeps, 15 cards."""
        return 2 * PLAYERS + 1 + 1 + 2 + HAND + PLAYERS * TRICKS

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.rules.items())
        return f"bower.game('cutthroat', rules={{{shown}}})"


class State(HandState):
    """One hand of Cutthroat at one node (see the module's text for the nodes and action ids)."""

    PLAYERS, TRICKS, DECK, DEAL, OVER, EFFECTIVE, POWER = PLAYERS, TRICKS, DECK, DEAL, OVER, EFFECTIVE, POWER

    __slots__ = ("game", "_history", "dealer", "hands", "dealt", "dummy", "kitty", "up", "calls", "phase", "player",
                 "maker", "trump", "round", "exchanged", "discard", "maker_alone", "answers", "lone", "active",
                 "ten", "kept", "keeps", "pile", "trick", "tricks", "won", "points", "voids", "played", "gone")

    def __init__(self, game: Game):
        self.game = game
        self._memo = None  # HandState.legal_actions's
        self._scores, self._target = game.start  # the game's scores and target (``HandGame.new_initial_state``)
        self._history: list[int] = []
        self.dealer = -1
        self.hands = [0, 0, 0]  # masks of the cards each seat holds now
        self.dealt = [0, 0, 0]  # masks of the five cards each seat was dealt
        self.dummy = 0  # mask of the dummy's five cards
        self.kitty: list[int] = []
        self.up = -1
        self.calls: list[tuple[int, int]] = []  # (seat, action)
        self.phase = DEALER
        self.player = CHANCE
        self.maker = -1
        self.trump = -1
        self.round = 0
        self.exchanged = False  # the dealer took the up-card
        self.discard = -1  # the dealer's discard when it took the up-card
        self.maker_alone = False
        self.answers: list[tuple[int, bool]] = []  # (defender, alone) in turn
        self.lone = -1
        self.active = 7  # mask of the seats in play
        self.ten = 0  # the maker's ten cards while it merges
        self.kept = 0  # mask of the cards the maker kept so far
        self.keeps: list[int] = []  # the maker's keep picks, in order
        self.pile = 0  # the maker's five discards after the merge
        self.trick: list[tuple[int, int]] = []  # (seat, card) of the trick in progress
        self.tricks: list[tuple[int, list, int]] = []  # (leader, [(seat, card)], winner)
        self.won = [0, 0, 0]
        self.points = [0, 0, 0]
        self.voids = [0, 0, 0]  # bit s: the seat has shown it holds no card of effective suit s
        self.played = 0  # mask of the cards played
        self.gone = 0  # mask of the cards dealt so far

    # ---------------------------------------------------------------- the OpenSpiel interface

    def _legal(self) -> list[int]:
        """The actions allowed now, sorted (``HandState.legal_actions`` asks, and remembers them)."""
        ph = self.phase
        if ph == PLAY:
            return self._legal_cards(self.player)
        if ph == MERGE:
            return _cards(self.ten & ~self.kept)
        if ph == AUCTION:
            k = len(self.calls)
            if k < PLAYERS:
                return [PASS, ACCEPT]
            g = self.game
            names = [NAME + s for s in range(4) if g.turned_down_ok or s != self.up // 6]
            if k == 2 * PLAYERS - 1 and g.stick:
                return names
            return [PASS] + names
        if ph in (MAKER_ALONE, DEFEND):
            return [NOT_ALONE, ALONE]
        if ph == EXCHANGE:
            hand = self.hands[self.dealer]
            return _cards(hand if self.game.mandatory else hand | 1 << self.up)
        if ph == DEAL:
            return _cards(~self.gone & _FULL)
        if ph == DEALER:
            return [0, 1, 2]
        return []

    def kernel_order(self, legal: list[int] | None = None) -> list[int]:
        """The legal actions in the order the kernels' random player draws from: as ``legal_actions()``, except the
        dealer's exchange, "no exchange" (the up-card) first, then the discards ascending."""
        legal = self.legal_actions() if legal is None else list(legal)
        if self.phase == EXCHANGE and self.up in legal:
            legal.remove(self.up)
            legal.insert(0, self.up)
        return legal

    def _apply(self, a: int) -> None:
        """Take the legal action ``a`` (``HandState.apply_action`` has checked it)."""
        ph = self.phase
        if ph == PLAY:
            self._play(a)
        elif ph == DEAL:
            self._deal(a)
        elif ph == AUCTION:
            self._call(a)
        elif ph == EXCHANGE:
            if a != self.up:
                d = self.dealer
                self.hands[d] = (self.hands[d] & ~(1 << a)) | 1 << self.up
                self.discard = a
                self.exchanged = True
            self._after_exchange()
        elif ph == MAKER_ALONE:
            self.maker_alone = a == ALONE
            self._next_defender()
        elif ph == DEFEND:
            seat = self.player
            self.answers.append((seat, a == ALONE))
            if a == ALONE:
                self.lone = seat
                self.active &= ~(1 << (PLAYERS - self.maker - seat))
                self._after_alone()
            else:
                self._next_defender()
        elif ph == MERGE:
            self.kept |= 1 << a
            self.keeps.append(a)
            if len(self.keeps) == HAND:
                self.pile = self.ten & ~self.kept
                self.hands[self.maker] = self.kept
                self._start_play()
        else:  # DEALER
            self.dealer = a
            self.phase = DEAL

    def _deal(self, card: int) -> None:
        k = _count(self.gone)
        self.gone |= 1 << card
        if k < 4 * HAND:
            if k % 4 == 3:
                self.dummy |= 1 << card
            else:
                seat = (self.dealer + 1 + k % 4) % PLAYERS
                self.hands[seat] |= 1 << card
                self.dealt[seat] |= 1 << card
        else:
            self.kitty.append(card)
            if k == 4 * HAND:
                self.up = card
        if k == DECK - 1:
            self.phase, self.player = AUCTION, (self.dealer + 1) % PLAYERS

    def _call(self, a: int) -> None:
        seat = self.player
        self.calls.append((seat, a))
        k = len(self.calls)
        if a == PASS:
            if k == 2 * PLAYERS:  # all passed twice: thrown in
                self._end()
            else:
                self.player = (seat + 1) % PLAYERS
            return
        self.maker = seat
        if a == ACCEPT:
            self.trump, self.round = self.up // 6, 1
            self.phase, self.player = EXCHANGE, self.dealer
        else:
            self.trump, self.round = a - NAME, 2
            self._after_exchange()

    def _after_exchange(self) -> None:
        if self.game.maker_alone_ok:
            self.phase, self.player = MAKER_ALONE, self.maker
        else:
            self._next_defender()

    def _next_defender(self) -> None:
        asked = len(self.answers)
        if asked < 2:
            self.phase, self.player = DEFEND, (self.maker + 1 + asked) % PLAYERS
            return
        self._after_alone()

    def _after_alone(self) -> None:
        if self.maker_alone:
            self._start_play()
            return
        self.ten = self.hands[self.maker] | self.dummy
        self.hands[self.maker] = self.ten
        self.phase, self.player = MERGE, self.maker

    def _trick_size(self) -> int:
        return bin(self.active).count("1")  # a lone maker's partner sits out

    def _next_in_trick(self, seat: int) -> int:
        nxt = (seat + 1) % PLAYERS
        while not self.active >> nxt & 1:
            nxt = (nxt + 1) % PLAYERS
        return nxt

    def _start_play(self) -> None:
        if self.maker_alone and self.lone >= 0:
            seat = self.lone
        else:
            start = self.maker if self.maker_alone else (self.lone if self.lone >= 0 else self.dealer)
            seat = (start + 1) % PLAYERS
            while not self.active >> seat & 1:
                seat = (seat + 1) % PLAYERS
        self.phase, self.player = PLAY, seat

    def _score(self) -> None:
        g = self.game
        taken = self.won[self.maker]
        if taken >= MAKER_NEEDS:
            if taken < TRICKS:
                self.points[self.maker] = 1
            else:
                self.points[self.maker] = g.lone_march if self.maker_alone else 3
        else:
            each = 4 if (self.lone >= 0 and taken == 0) else 2
            for s in range(PLAYERS):
                if s != self.maker and (self.lone < 0 or not g.lone_only or s == self.lone):
                    self.points[s] = each
        self._end()

    def returns(self) -> list[float]:
        """Points of each seat for the hand (0 until the hand is over, and for a hand thrown in)."""
        return [float(p) for p in self.points]

    # ---------------------------------------------------------------- text

    def _call_word(self, seat: int, a: int) -> str:
        if a == ACCEPT:
            word = ACCEPT_WORD[_position(self.dealer, seat)] if self.dealer >= 0 and seat >= 0 else "accept"
            return word if self.up < 0 else f"{word} {card_str(self.up)}"
        return _call_word(a)

    def action_to_string(self, *args) -> str:
        """``action_to_string(action)`` or, as OpenSpiel, ``action_to_string(player, action)``: the action in words."""
        if len(args) not in (1, 2):
            raise GameError("action_to_string takes (action) or (player, action)")
        a = int(args[-1])
        ph = self.phase
        if ph == DEALER:
            return f"dealer {a}"
        if ph == DEAL:
            return f"deal {card_str(a)}" if 0 <= a < DECK else str(a)
        if a < DECK:
            if ph == EXCHANGE:
                return "keep the hand (no exchange)" if a == self.up else f"discard {card_str(a)}"
            if ph == MERGE:
                return f"keep {card_str(a)}"
            return card_str(a)
        return self._call_word(self.player, a)

    def information_state_string(self, player: int | None = None) -> str:
        """What ``player`` (default: the seat to act) knows, as text: one line per fact, a perfect-recall record."""
        p = self._seat(self.player if player is None else player)
        lines = [f"seat {p}" + (f", dealer {self.dealer}" if self.dealer >= 0 else "")]
        lines.append(self._game_line())
        lines.append(f"hand {_names(_cards(self.hands[p]))}")
        if self.up >= 0:
            lines.append(f"up-card {card_str(self.up)}")
        if self.calls:
            lines.append("calls " + " ".join(f"{s}:{self._call_word(s, a)}" for s, a in self.calls))
        if self.round == 1 and self.phase > EXCHANGE:
            took = "took the up-card" if self.exchanged else "kept the hand"
            lines.append(f"dealer {took}" + (f", discard {card_str(self.discard)}" if p == self.dealer and
                                             self.exchanged else ""))
        if self.maker >= 0 and self.phase > MAKER_ALONE and self.game.maker_alone_ok:
            lines.append(f"maker {self.maker} alone {'yes' if self.maker_alone else 'no'}")
        for seat, alone in self.answers:
            lines.append(f"defender {seat} alone {'yes' if alone else 'no'}")
        if p == self.maker and self.ten:
            lines.append(f"dummy {_names(_cards(self.dummy))}")
            if self.keeps:
                lines.append("keeps " + " ".join(card_str(c) for c in self.keeps))
        for lead, cards, winner in self.tricks:
            lines.append("trick " + " ".join(f"{s}:{card_str(c)}" for s, c in cards) + f" won by {winner}")
        if self.trick:
            lines.append("trick " + " ".join(f"{s}:{card_str(c)}" for s, c in self.trick))
        if self.phase == OVER:
            lines.append("points " + " ".join(str(x) for x in self.points))
        return "\n".join(lines)

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The observation of ``player`` (default: the seat to act), ``OBSERVATION_SIZE`` floats (module text)."""
        p = self._seat(self.player if player is None else player)
        t = [0.0] * OBSERVATION_SIZE
        t[_O_SEAT + p] = 1.0
        if self.dealer >= 0:
            t[_O_DEALER + self.dealer] = 1.0
        for c in _cards(self.hands[p]):
            t[_O_HAND + c] = 1.0
        if self.up >= 0:
            t[_O_UP + self.up] = 1.0
        if self.exchanged:
            t[_O_TOOK] = 1.0
            if p == self.dealer:
                t[_O_DISCARD + self.discard] = 1.0
        if p == self.maker and self.ten:
            for c in _cards(self.dummy):
                t[_O_DUMMY + c] = 1.0
            for c in _cards(self.pile):
                t[_O_PILE + c] = 1.0
        for k, (_, a) in enumerate(self.calls):
            t[_O_CALLS + 6 * k + (a - PASS)] = 1.0
        if self.trump >= 0:  # public from the call on
            t[_O_TRUMP + self.trump] = 1.0
            t[_O_MAKER + self.maker] = 1.0
        if self.maker_alone:
            t[_O_ALONE + self.maker] = 1.0
        if self.lone >= 0:
            t[_O_ALONE + self.lone] = 1.0
        for s in range(PLAYERS):
            if not self.active >> s & 1:
                t[_O_OUT + s] = 1.0
        tricks = [(lead, cards) for lead, cards, _ in self.tricks]
        if self.trick:
            tricks.append((self.trick[0][0], self.trick))
        for i, (lead, cards) in enumerate(tricks):
            t[_O_LEADERS + PLAYERS * i + lead] = 1.0
            for s, c in cards:
                t[_O_PLAYS + PLAYERS * DECK * i + DECK * s + c] = 1.0
        if self.player >= 0:
            t[_O_TURN + self.player] = 1.0
            t[_O_PHASE + _PHASE_SLOT[self.phase]] = 1.0
        self._game_cells(t, _O_GAME)
        return t

    def __str__(self) -> str:
        lines = [f"dealer {self.dealer}" if self.dealer >= 0 else "dealer not drawn yet"]
        for s in range(PLAYERS):
            if self.dealt[s]:
                lines.append(f"seat {s}: {_names(_cards(self.dealt[s]))}")
        if self.dummy:
            lines.append(f"dummy {_names(_cards(self.dummy))}")
        if self.kitty:
            lines.append("kitty " + " ".join(card_str(c) for c in self.kitty))
        if self.calls:
            lines.append("calls " + " ".join(f"{s}:{self._call_word(s, a)}" for s, a in self.calls))
        if self.round == 1 and self.phase > EXCHANGE:
            lines.append(f"dealer discards {card_str(self.discard)}" if self.exchanged else "dealer keeps the hand")
        if self.maker >= 0 and self.phase >= PLAY:
            alone = sorted(([self.maker] if self.maker_alone else []) + ([self.lone] if self.lone >= 0 else []))
            lines.append(f"maker {self.maker}, trump {SUITS[self.trump]}, alone {alone or 'none'}")
            if self.pile:
                lines.append(f"maker keeps {_names(_cards(self.kept))}, discards {_names(_cards(self.pile))}")
        for lead, cards, winner in self.tricks:
            lines.append("trick " + " ".join(f"{s}:{card_str(c)}" for s, c in cards) + f" won by {winner}")
        if self.trick:
            lines.append("trick " + " ".join(f"{s}:{card_str(c)}" for s, c in self.trick))
        if self.phase == OVER:
            lines.append("points " + ", ".join(f"seat {s}: {self.points[s]}" for s in range(PLAYERS)))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<cutthroat State, {len(self._history)} actions, to act: {self.player}>"

    def to_record(self) -> dict:
        """The hand's decisions as the kernels' records write them (``dealer``, ``deal``, ``dummy``, ``kitty``,
        ``upcard``, ``calls``, ``maker``, ``trump``, ``discards``, ``alone``, ``plays``, ``tricks``, ``points``)."""
        plays = [[s, card_str(c)] for _, cards, _ in self.tricks for s, c in cards]
        plays += [[s, card_str(c)] for s, c in self.trick]
        alone = sorted(([self.maker] if self.maker_alone else []) + ([self.lone] if self.lone >= 0 else []))
        calls = []
        for s, a in self.calls:
            word = ("pass" if a == PASS else ACCEPT_WORD[_position(self.dealer, s)] if a == ACCEPT
                    else SUITS[a - NAME])
            calls.append([s, word])
        return {
            "dealer": self.dealer,
            "deal": {str(s): [card_str(c) for c in _cards(self.dealt[s])] for s in range(PLAYERS)},
            "dummy": [card_str(c) for c in _cards(self.dummy)],
            "kitty": [card_str(c) for c in self.kitty],
            "upcard": card_str(self.up) if self.up >= 0 else None,
            "calls": calls,
            "maker": self.maker if self.maker >= 0 else None,
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "discards": {"dealer": card_str(self.discard) if self.exchanged else None,
                         "maker": [card_str(c) for c in _cards(self.pile)]},
            "alone": alone,
            "plays": plays,
            "tricks": {str(s): self.won[s] for s in range(PLAYERS)},
            "points": {str(s): self.points[s] for s in range(PLAYERS)},
        }

    # ---------------------------------------------------------------- resampling

    def resample_from_infostate(self, player: int, rng=None) -> State:
        """A state ``player`` cannot tell from this one: the hidden cards redrawn uniformly (module text)."""
        p = self._seat(player)
        if self.phase <= DEAL:
            raise GameError("resample_from_infostate needs the deal done (the state is still dealing)")
        u = uniform_source(rng)
        up, dealer, maker, trump = self.up, self.dealer, self.maker, self.trump
        merging = bool(self.ten)  # the maker took the dummy (merging or merged)
        sees_maker = p == maker and merging
        # the up-card's place as p knows it: in the dealer's hand, or (the dealer merged it) the dealer's ten
        up_loose = (self.exchanged and merging and maker == dealer and p != dealer
                    and not self.played >> up & 1)
        known = self.hands[p] | self.played | (1 << up)
        if p == dealer and self.exchanged:
            known |= 1 << self.discard
        if sees_maker:
            known |= self.dummy | self.pile | self.ten
        UP = 4  # the up-card's own group when its place is loose
        slots: list[tuple[int, frozenset]] = []
        owners: list = []
        for s in range(PLAYERS):
            if s == p:
                continue
            hand = self.hands[s]
            if s == maker and merging and not sees_maker and self.phase == MERGE:
                hand = self.ten  # the ten it holds while merging
            n = _count(hand & ~known) + (hand >> up & 1 if up_loose and s == dealer else 0)
            void = {x for x in range(4) if self.voids[s] >> x & 1}
            if not (up_loose and s == dealer) or trump in void:
                void.add(UP)
            slots.append((n, frozenset(void)))
            owners.append(("hand", s))
        if merging and self.pile and not sees_maker:
            slots.append((HAND, frozenset() if up_loose else frozenset({UP})))
            owners.append(("pile", maker))
        if not merging:
            slots.append((HAND, frozenset({UP})))
            owners.append(("dummy", -1))
        if self.exchanged and p != dealer:
            slots.append((1, frozenset({UP})))
            owners.append(("discard", dealer))
        slots.append((3, frozenset({UP})))
        owners.append(("kitty", -1))
        unseen = [c for c in range(DECK) if not known >> c & 1]
        if up_loose:
            unseen.append(up)
        eff = EFFECTIVE[trump] if trump >= 0 else tuple(c // 6 for c in range(DECK))
        group = (lambda c: UP if c == up else eff[c]) if up_loose else eff.__getitem__
        drawn = draw_hidden(unseen, group, slots, u)
        now = list(self.hands)
        pile = self.pile
        dummy = self.dummy
        discard = self.discard
        kitty_rest: list[int] = []
        for (what, s), cards in zip(owners, drawn):
            mask = sum(1 << c for c in cards)
            if what == "hand":
                base = self.ten if (s == maker and merging and self.phase == MERGE) else self.hands[s]
                keep = base & known & ~(1 << up if up_loose else 0)
                now[s] = keep | mask
            elif what == "pile":
                pile = mask
            elif what == "dummy":
                dummy = mask
            elif what == "discard":
                discard = cards[0]
            else:
                kitty_rest = cards
        played_by = [0, 0, 0]
        for _, cards, _ in self.tricks:
            for s, c in cards:
                played_by[s] |= 1 << c
        for s, c in self.trick:
            played_by[s] |= 1 << c
        # the hands after the exchange, before the merge
        before = [now[s] | played_by[s] for s in range(PLAYERS)]
        keeps = list(self.keeps)
        if merging:
            ten = (now[maker] | played_by[maker] | pile) if self.phase != MERGE else now[maker]
            if sees_maker:
                own = self.ten & ~self.dummy
            else:
                fixed = (1 << up) if (self.exchanged and maker == dealer) else 0
                rest = _cards(ten & ~fixed)
                pick = []
                for _ in range(HAND - _count(fixed)):
                    pick.append(rest.pop(_below(u, len(rest))))
                own = fixed | sum(1 << c for c in pick)
                if self.phase == MERGE:  # the picks so far: any of the ten
                    pool = _cards(ten)
                    keeps = [pool.pop(_below(u, len(pool))) for _ in self.keeps]
                else:
                    keeps = _cards(now[maker] | played_by[maker])
            before[maker] = own
            dummy = ten & ~own
        dealt = list(before)
        if self.exchanged:
            dealt[dealer] = (dealt[dealer] & ~(1 << up)) | 1 << discard
        state = State(self.game)
        state._scores, state._target = self._scores, self._target  # the same game
        state.apply_action(dealer)
        by_seat = [_cards(dealt[s]) for s in range(PLAYERS)]
        dummy_cards = _cards(dummy)
        for k in range(4 * HAND):
            i = k % 4
            state.apply_action(dummy_cards[k // 4] if i == 3 else by_seat[(dealer + 1 + i) % PLAYERS][k // 4])
        for c in [up, *kitty_rest]:
            state.apply_action(c)
        k_keep = 0
        for a in self._history[1 + DECK:]:
            if state.phase == EXCHANGE and a != up:
                a = discard
            elif state.phase == MERGE:
                a = keeps[k_keep]
                k_keep += 1
            state.apply_action(a)
        return state


Game.STATE = State


def _call_word(a: int) -> str:
    if a == PASS:
        return "pass"
    if a == ACCEPT:
        return "accept"
    if NAME <= a < NAME + 4:
        return f"name {SUITS[a - NAME]}"
    if a == NOT_ALONE:
        return "not alone"
    if a == ALONE:
        return "alone"
    return str(a)
