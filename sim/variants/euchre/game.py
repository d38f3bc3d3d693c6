"""Standard Euchre (RULES.md 4) through the game API of ``bower.sim.game``: one hand, decision by decision.

``bower.game("euchre", rules={...})`` gives this module's ``Game``; its states
follow the rules as the kernels play them (``kernels/euchre/SPEC.md``) under
every rule option (``stick_the_dealer``, ``allow_lone_defender``,
``loner_lead``, ``canadian``, ``discard_up``, ``loner_march_score``,
``loner_euchred_score``, ``fast_break``, ``farmers``, ``go_under``,
``partners_best``; ``four_trick_tokens`` is accepted but is a rule of whole
games, not of the one hand a state holds: ``returns()`` are the hand's points
under either value). Seats are 0..3 clockwise, partners opposite (side 0: seats
0 & 2). Cards are bower's numbers, ``suit * 6 + rank``, suits C S D H and
ranks 9 T J Q K A (``bower.sim.cards``).

A hand, node by node
--------------------
1. Chance: the dealer, each seat with probability 1/4 (as OpenSpiel's euchre).
2. Chance, 24 times: the deal, card by card from the top, each card not yet
   dealt equally likely. Card ``k < 20`` goes to position ``k % 4 + 1``
   (position 1 is the dealer's left: seat ``(dealer + 1 + k % 4) % 4``);
   cards 20..23 are the kitty in order, card 20 the up-card (the kernels'
   deal order). The whole deck is dealt, so a state is one complete world.
2a. Under ``farmers`` / ``go_under``: each seat in turn from position 1
   that may exchange with the kitty (three or more 9s and 10s under
   ``farmers``, no jack, queen or king under ``go_under``) decides ``KEEP``
   or ``EXCHANGE``; after ``EXCHANGE`` it gives three cards, one node each
   (the cards it may still give, ascending), and takes the kitty's three
   face-down cards; at most one exchange a deal, then the auction.
3. The auction: round one from position 1 to the dealer, pass or order up;
   round two, pass or name a suit other than the up-card's (the dealer may
   not pass under ``stick_the_dealer``). All pass twice: the hand is thrown
   in (terminal, no points).
4. After an order (round one) the dealer takes the up-card and discards one
   of its five dealt cards (under ``discard_up`` one of its six: the up-card
   itself too).
5. The maker goes alone or not (under ``canadian`` the dealer's partner who
   ordered in round one goes alone: no node, the decision is forced, as the
   kernels draw nothing for it); under ``allow_lone_defender`` the defenders
   are asked in turn, the one nearer the dealer's left first, until one
   defends alone. Under ``partners_best`` a lone maker's partner then passes
   it one of its cards (``PARTNER_PASS``: any card of the partner's), and the
   maker discards one of its six (``LONER_DISCARD``: the card passed too); a
   lone defender exchanges nothing. The information state shows the card
   passed to both partners and the discard to the maker; the observation
   tensor only the maker's hand after it.
6. Five tricks among the seats in play: position 1 leads (under
   ``loner_lead = loner`` after a lone maker, the maker's left), skipping a
   seat that sits out; follow the suit led (the left bower is trump) if you
   can.

Action ids
----------

=========  ===================================================================
id         meaning
=========  ===================================================================
0..3       chance, first node: the dealer's seat
0..23      chance: the card dealt next; a decision: a card given to the kitty
           (``farmers`` / ``go_under``), the dealer's discard, the card passed
           or the lone maker's discard (``partners_best``), or the card played
24         ``PASS`` (either round)
25         ``ORDER``: round one, order the up-card up (trump: its suit)
26..29     ``NAME + suit``: round two, name clubs, spades, diamonds, hearts
30         ``WITH_PARTNER``: the maker plays with its partner; a defender asked
           does not defend alone
31         ``ALONE``: the maker goes alone; a defender asked defends alone
32         ``KEEP`` (``farmers`` / ``go_under`` only): keep the hand dealt
33         ``EXCHANGE`` (``farmers`` / ``go_under`` only): give three cards
           (then 0..23, one a node) for the kitty's three
=========  ===================================================================

``num_distinct_actions()`` is 32, or 34 under ``farmers`` or ``go_under``.

Legal actions come sorted, which is also the order the kernels' random player
draws from (pass first, order or the suits C S D H; the dealer's five cards
(six under ``discard_up``) ascending; not alone before alone; the partner's cards and the lone maker's six
ascending (``partners_best``); the cards ascending), so a bot taking
``legal[rng.bounded(len(legal))]`` from the kernels' decision stream plays as
the ``random`` preset (``tests/test_game_euchre.py``).

``returns()``: by seat, the points each side scores for the hand by RULES.md's
table (makers 3-4 tricks 1, all five 2, alone ``loner_march_score``, 4 by
default; euchred, the defenders 2, 4 when a defender went alone, or
``loner_euchred_score``, 2 by default, against a lone maker defended by both),
each seat getting its side's: one of the sides
has 0 (both under ``fast_break`` when the defenders took tricks 1 and 2 and
the makers 3, 4 and 5). OpenSpiel's own ``euchre`` is zero-sum (and scores a march with no
trick for the defenders as 4); ``returns()[0] - returns()[1]`` is side 0's net.

Observation tensor (``OBSERVATION_SIZE`` = 651 floats for one seat)
-------------------------------------------------------------------
=========  ===================================================================
offset     what
=========  ===================================================================
0          4: the observing seat
4          4: the dealer's seat (zeros before the dealer is drawn)
8          24: the cards the seat holds now
32         24: the up-card (once dealt)
56         24: the dealer's discard (only to the dealer)
80         48: the calls, 8 turns x 6 (pass, order, name C, S, D, H)
128        4: trump suit C S D H
132        4: the maker's seat
136        4: seats playing alone (the lone maker, the lone defender)
140        4: seats sitting out
144        480: the cards played, 5 tricks x 4 seats x 24 cards
624        20: the leader of each trick, 5 tricks x 4 seats
644        4: the seat to act (zeros at a chance node and at the end)
648        2: the game's scores before the hand, by side (side 0 holds
           seats 0 and 2), whole numbers (``game_scores()``)
650        1: the game's target, a whole number (``game_target()``)
=========  ===================================================================

Every cell is 0 or 1 but the last ones: the game's scores and target.

``resample_from_infostate(player, rng)``: what ``player`` knows is its own
hand (and, as dealer, its discard), the up-card (in the dealer's hand once
ordered up, until played), every card played, and each seat's voids (a seat
that did not follow a suit led holds none of it). The other cards (the other
hands in play or sitting out, the kitty's three face-down cards, the dealer's
discard) are drawn by ``bower.sim.game.draw_hidden``, uniformly among the
deals that respect those voids; the state's own decisions are then replayed
on that deal (the discard replaced by the drawn one where the player did not
see it). Under ``partners_best``, after a lone maker's exchange: the maker
knows the card passed and its discard, the partner the card it passed (drawn
into the maker's hand or its discard, not played yet); to the defenders the
maker's discard is drawn with the kitty's, the card passed is one of the
maker's six (the up-card when the dealer was the partner and the maker holds
it), and an up-card the exchange may have moved (the dealer the maker or its
partner) is drawn into the hands or discards that could hold it. Under
``discard_up`` too the up-card is drawn only into the dealer's hand or its
discard. Under ``farmers`` / ``go_under`` (with or without
``partners_best``) it raises ``GameError``: the worlds would have to honour
the exchange with the kitty (a known gap).
"""

from __future__ import annotations

from bower.sim.cards import card_str
from bower.sim.variants.euchre.scoring import defenders_first_two, hand_points
from bower.sim.game import (
    cards_of as _cards, CHANCE, draw_hidden, EFFECTIVE, GameError, HandGame, HandState, names as _names, POWER,
    uniform_source,
)

PLAYERS = 4
HAND = 5
TRICKS = 5
DECK = 24
JACK = 2
SUITS = "CSDH"
SUIT_NAMES = ("clubs", "spades", "diamonds", "hearts")

PASS = 24
ORDER = 25
NAME = 26  # + suit
WITH_PARTNER = 30
ALONE = 31
NUM_DISTINCT_ACTIONS = 32
KEEP = 32  # rules farmers / go_under: an eligible seat keeps its hand
EXCHANGE = 33  # it exchanges three cards with the kitty (then gives them one node each)
NUM_EXCHANGE_ACTIONS = 34  # the actions under those rules

# phases (rule partners_best's two after the others: the lone maker's partner passes a card, the maker discards)
DEALER, DEAL, AUCTION, DISCARD, MAKER_ALONE, DEFEND, PLAY, OVER, PARTNER_PASS, LONER_DISCARD = range(10)
GIVE = 10  # rules farmers / go_under: before the first call, an eligible seat's exchange with the kitty
NINES_TENS = sum(3 << (6 * s) for s in range(4))
FACES = sum(7 << (6 * s + 2) for s in range(4))


def exchange_options(hand: int, rules: dict) -> int:
    """The cards (mask) a seat dealt ``hand`` may give the kitty: its 9s and 10s when it holds three or more (rule
    ``farmers``), all five when it holds no jack, queen or king (``go_under``); 0: it may not exchange."""
    out = 0
    if rules.get("farmers") and bin(hand & NINES_TENS).count("1") >= 3:
        out = hand & NINES_TENS
    if rules.get("go_under") and not hand & FACES:
        out = hand
    return out


OBSERVATION_SIZE = 651
_O_GAME = 648  # the game's scores, then its target (``HandState._game_cells``)
_O_SEAT, _O_DEALER, _O_HAND, _O_UP, _O_DISCARD, _O_CALLS = 0, 4, 8, 32, 56, 80
_O_TRUMP, _O_MAKER, _O_ALONE, _O_OUT, _O_PLAYS, _O_LEADERS, _O_TURN = 128, 132, 136, 140, 144, 624, 644


class Game(HandGame):
    """Standard Euchre's game under one rule set: ``new_initial_state()`` and OpenSpiel's sizes."""

    PLAYERS, ACTIONS, CHANCE_OUTCOMES, OBSERVATION_SIZE = PLAYERS, NUM_DISTINCT_ACTIONS, DECK, OBSERVATION_SIZE

    def __init__(self, variant, rules: dict):
        self.variant = variant
        self.rules = dict(rules)
        self.stick = bool(rules["stick_the_dealer"])
        self.lone_defender = bool(rules["allow_lone_defender"])
        self.loner_lead = rules["loner_lead"] == "loner"
        self.canadian = bool(rules.get("canadian", False))
        self.discard_up = bool(rules.get("discard_up", False))
        self.partners_best = bool(rules.get("partners_best", False))
        self.exchanges = bool(rules.get("farmers", False) or rules.get("go_under", False))
        if self.exchanges:
            self.ACTIONS = NUM_EXCHANGE_ACTIONS

    def min_utility(self) -> float:
        return 0.0

    def max_utility(self) -> float:
        return float(max(4, self.rules.get("loner_march_score", 4), self.rules.get("loner_euchred_score", 2)))

    def max_game_length(self) -> int:
        """Decisions at most: (under farmers / go_under: four seats asked to exchange, three cards given) 8 calls, a
        discard, going alone, two defenders asked, (``partners_best``) the partner's card and the lone maker's
        discard, 20 cards."""
        return 7 * self.exchanges + 8 + 1 + 1 + 2 * self.lone_defender + 2 * self.partners_best + PLAYERS * TRICKS

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v}" for k, v in self.rules.items())
        return f"bower.game('euchre', rules={{{shown}}})"


class State(HandState):
    """One hand of Standard Euchre at one node (see the module's text for the nodes and action ids)."""

    PLAYERS, TRICKS, DECK, DEAL, OVER, EFFECTIVE, POWER = PLAYERS, TRICKS, DECK, DEAL, OVER, EFFECTIVE, POWER

    __slots__ = ("game", "_history", "dealer", "dealt_order", "hands", "dealt", "kitty", "up", "calls", "phase",
                 "player", "maker", "trump", "round", "discard", "maker_alone", "answers", "lone", "active",
                 "leader", "trick", "tricks", "won", "points", "voids", "played", "gone", "passed", "loner_discard",
                 "ex_seat", "ex_given", "ex_pos")

    def __init__(self, game: Game):
        self.game = game
        self._memo = None  # HandState.legal_actions's
        self._scores, self._target = game.start  # the game's scores and target (``HandGame.new_initial_state``)
        self._history: list[int] = []
        self.dealer = -1
        self.dealt_order: list[int] = []  # the cards dealt, in order
        self.hands = [0, 0, 0, 0]  # masks of the cards each seat holds now
        self.dealt = [0, 0, 0, 0]  # masks of the five cards each seat was dealt
        self.kitty: list[int] = []
        self.up = -1
        self.calls: list[tuple[int, int]] = []  # (seat, action)
        self.phase = DEALER
        self.player = CHANCE
        self.maker = -1
        self.trump = -1
        self.round = 0
        self.discard = -1
        self.maker_alone = False
        self.answers: list[tuple[int, bool]] = []  # (defender, alone) in turn
        self.lone = -1
        self.active = 15  # mask of the seats in play
        self.leader = -1
        self.trick: list[tuple[int, int]] = []  # (seat, card) of the trick in progress
        self.tricks: list[tuple[int, list, int]] = []  # (leader, [(seat, card)], winner)
        self.won = [0, 0, 0, 0]
        self.points = [0, 0]
        self.voids = [0, 0, 0, 0]  # bit s: the seat has shown it holds no card of effective suit s
        self.played = 0  # mask of the cards played
        self.gone = 0  # mask of the cards dealt so far
        self.passed = -1  # partners_best: the card the lone maker's partner passed it
        self.loner_discard = -1  # partners_best: the lone maker's discard
        self.ex_seat = -1  # farmers / go_under: the seat exchanging (or that exchanged) with the kitty
        self.ex_given = 0  # mask of the cards it gave
        self.ex_pos = 0  # the position (1..4) of the seat asked now

    # ---------------------------------------------------------------- the OpenSpiel interface

    def _legal(self) -> list[int]:
        """The actions allowed now, sorted (``HandState.legal_actions`` asks, and remembers them)."""
        ph = self.phase
        if ph == PLAY:
            return self._legal_cards(self.player)
        if ph == GIVE:
            if self.ex_seat < 0:
                return [KEEP, EXCHANGE]
            return _cards(exchange_options(self.dealt[self.player], self.game.rules) & ~self.ex_given)
        if ph == AUCTION:
            k = len(self.calls)
            if k < PLAYERS:
                return [PASS, ORDER]
            names = [NAME + s for s in range(4) if s != self.up // 6]
            if k == 2 * PLAYERS - 1 and self.game.stick:
                return names
            return [PASS] + names
        if ph in (MAKER_ALONE, DEFEND):
            return [WITH_PARTNER, ALONE]
        if ph == PARTNER_PASS:  # any card of the partner's
            return _cards(self.hands[(self.maker + 2) % PLAYERS])
        if ph == LONER_DISCARD:  # any of the lone maker's six, the card passed too
            return _cards(self.hands[self.maker])
        if ph == DISCARD:
            if self.game.discard_up:
                return _cards(self.hands[self.dealer])
            return _cards(self.hands[self.dealer] & ~(1 << self.up))
        if ph == DEAL:
            return _cards(~self.gone & (1 << DECK) - 1)
        if ph == DEALER:
            return [0, 1, 2, 3]
        return []

    def _apply(self, a: int) -> None:
        """Take the legal action ``a`` (``HandState.apply_action`` has checked it)."""
        ph = self.phase
        if ph == PLAY:
            self._play(a)
        elif ph == DEAL:
            self._deal(a)
        elif ph == AUCTION:
            self._call(a)
        elif ph == GIVE:
            self._give(a)
        elif ph == DISCARD:
            self.hands[self.dealer] &= ~(1 << a)
            self.discard = a
            self._to_maker_alone()
        elif ph == MAKER_ALONE:
            self._go_alone(a == ALONE)
        elif ph == DEFEND:
            seat = self.player
            self.answers.append((seat, a == ALONE))
            if a == ALONE:
                self.lone = seat
                self.active &= ~(1 << ((seat + 2) % PLAYERS))
                self._exchange()
            else:
                self._next_defender()
        elif ph == PARTNER_PASS:
            self.hands[self.player] &= ~(1 << a)
            self.hands[self.maker] |= 1 << a
            self.passed = a
            self.phase, self.player = LONER_DISCARD, self.maker
        elif ph == LONER_DISCARD:
            self.hands[self.maker] &= ~(1 << a)
            self.loner_discard = a
            self._start_play()
        else:  # DEALER
            self.dealer = a
            self.phase = DEAL

    def _deal(self, card: int) -> None:
        k = len(self.dealt_order)
        self.dealt_order.append(card)
        self.gone |= 1 << card
        if k < PLAYERS * HAND:
            seat = (self.dealer + 1 + k % PLAYERS) % PLAYERS
            self.hands[seat] |= 1 << card
            self.dealt[seat] |= 1 << card
        else:
            self.kitty.append(card)
            if k == PLAYERS * HAND:
                self.up = card
        if k == DECK - 1:
            self._next_exchange(1)

    def _next_exchange(self, position: int) -> None:
        """Rules farmers / go_under: the next seat from ``position`` on that may exchange with the kitty decides;
        none (or no such rule): the auction."""
        if self.game.exchanges:
            for p in range(position, PLAYERS + 1):
                seat = (self.dealer + p) % PLAYERS
                if exchange_options(self.dealt[seat], self.game.rules):
                    self.phase, self.player, self.ex_pos = GIVE, seat, p
                    return
        self.phase, self.player = AUCTION, (self.dealer + 1) % PLAYERS

    def _give(self, a: int) -> None:
        seat = self.player
        if self.ex_seat < 0:
            if a == KEEP:
                self._next_exchange(self.ex_pos + 1)
            else:
                self.ex_seat = seat
            return
        self.ex_given |= 1 << a
        if bin(self.ex_given).count("1") == 3:  # it takes the kitty's three face-down cards; the auction
            self.hands[seat] = (self.hands[seat] & ~self.ex_given) | sum(1 << c for c in self.kitty[1:])
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
        if a == ORDER:
            self.trump, self.round = self.up // 6, 1
            self.hands[self.dealer] |= 1 << self.up
            self.phase, self.player = DISCARD, self.dealer
        else:
            self.trump, self.round = a - NAME, 2
            self._to_maker_alone()

    def _to_maker_alone(self) -> None:
        """The maker's decision to go alone; under ``canadian`` the dealer's partner who ordered in round one goes
        alone without a decision (no node)."""
        if self.game.canadian and self.round == 1 and self.maker == (self.dealer + 2) % PLAYERS:
            self._go_alone(True)
        else:
            self.phase, self.player = MAKER_ALONE, self.maker

    def _go_alone(self, alone: bool) -> None:
        self.maker_alone = alone
        if alone:
            self.active &= ~(1 << ((self.maker + 2) % PLAYERS))
        self._next_defender()

    def defenders_in_turn(self) -> list[int]:
        """The two defenders in the order they are asked to defend alone: the one nearer the dealer's left first."""
        d = [(self.maker + 1) % PLAYERS, (self.maker + 3) % PLAYERS]
        return sorted(d, key=lambda s: (s - self.dealer - 1) % PLAYERS)

    def _next_defender(self) -> None:
        if self.game.lone_defender:
            asked = len(self.answers)
            if asked < 2:
                self.phase, self.player = DEFEND, self.defenders_in_turn()[asked]
                return
        self._exchange()

    def _exchange(self) -> None:
        """Under ``partners_best`` a lone maker's exchange (its partner passes a card, it discards one), then play."""
        if self.game.partners_best and self.maker_alone:
            self.phase, self.player = PARTNER_PASS, (self.maker + 2) % PLAYERS
        else:
            self._start_play()

    def _trick_size(self) -> int:
        return bin(self.active).count("1")  # a lone maker's partner sits out

    def _next_in_trick(self, seat: int) -> int:
        nxt = (seat + 1) % PLAYERS
        while not self.active >> nxt & 1:
            nxt = (nxt + 1) % PLAYERS
        return nxt

    def _start_play(self) -> None:
        start = self.maker if (self.game.loner_lead and self.maker_alone) else self.dealer
        seat = (start + 1) % PLAYERS
        while not self.active >> seat & 1:
            seat = (seat + 1) % PLAYERS
        self.leader = seat
        self.phase, self.player = PLAY, seat

    def _score(self) -> None:
        side = self.maker % 2
        taken = self.won[self.maker] + self.won[(self.maker + 2) % PLAYERS]
        broken = defenders_first_two(self.maker, [w for _, _, w in self.tricks[:2]])
        makers, defenders = hand_points(taken, self.maker_alone, self.lone >= 0, self.game.rules, broken)
        self.points[side], self.points[1 - side] = makers, defenders
        self._end()

    def returns(self) -> list[float]:
        """Points of each seat for the hand: its side's (0 until the hand is over, and for a hand thrown in)."""
        return [float(self.points[s % 2]) for s in range(PLAYERS)]

    # ---------------------------------------------------------------- text

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
        if ph == GIVE:
            return {KEEP: "keep", EXCHANGE: "exchange with the kitty"}.get(a) or f"give {card_str(a)}"
        if a < DECK:
            if ph == PARTNER_PASS:
                return f"pass {card_str(a)}"
            return f"discard {card_str(a)}" if ph in (DISCARD, LONER_DISCARD) else card_str(a)
        return _call_word(a, self.up)

    def information_state_string(self, player: int | None = None) -> str:
        """What ``player`` (default: the seat to act) knows, as text: one line per fact, a perfect-recall record."""
        p = self._seat(self.player if player is None else player)
        lines = [f"seat {p}" + (f", dealer {self.dealer}" if self.dealer >= 0 else "")]
        lines.append(self._game_line())
        lines.append(f"hand {_names(_cards(self.hands[p]))}")
        if self.up >= 0:
            lines.append(f"up-card {card_str(self.up)}")
        if self.ex_seat >= 0:  # farmers / go_under: who exchanged is public, the cards only to it
            gave = f" gave {_names(_cards(self.ex_given))}" if p == self.ex_seat and self.ex_given else ""
            lines.append(f"exchange {self.ex_seat}{gave}")
        if self.calls:
            lines.append("calls " + " ".join(f"{s}:{_call_word(a, self.up)}" for s, a in self.calls))
        if self.discard >= 0 and p == self.dealer:
            lines.append(f"discard {card_str(self.discard)}")
        if self.maker >= 0 and self.phase > MAKER_ALONE:
            lines.append(f"maker {self.maker} alone {'yes' if self.maker_alone else 'no'}")
        for seat, alone in self.answers:
            lines.append(f"defender {seat} alone {'yes' if alone else 'no'}")
        if self.passed >= 0 and p in (self.maker, (self.maker + 2) % PLAYERS):
            lines.append(f"passed {card_str(self.passed)}")  # partners_best: seen by the two partners
        if self.loner_discard >= 0 and p == self.maker:
            lines.append(f"loner discard {card_str(self.loner_discard)}")
        for lead, cards, winner in self.tricks:
            lines.append("trick " + " ".join(f"{s}:{card_str(c)}" for s, c in cards) + f" won by {winner}")
        if self.trick:
            lines.append("trick " + " ".join(f"{s}:{card_str(c)}" for s, c in self.trick))
        if self.phase == OVER:
            lines.append(f"points {self.points[0]} {self.points[1]}")
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
        if self.discard >= 0 and p == self.dealer:
            t[_O_DISCARD + self.discard] = 1.0
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
            t[_O_LEADERS + 4 * i + lead] = 1.0
            for s, c in cards:
                t[_O_PLAYS + 96 * i + 24 * s + c] = 1.0
        if self.player >= 0:
            t[_O_TURN + self.player] = 1.0
        self._game_cells(t, _O_GAME)
        return t

    def __str__(self) -> str:
        lines = [f"dealer {self.dealer}" if self.dealer >= 0 else "dealer not drawn yet"]
        for s in range(PLAYERS):
            if self.dealt[s]:
                lines.append(f"seat {s}: {_names(_cards(self.dealt[s]))}")
        if self.kitty:
            lines.append("kitty " + " ".join(card_str(c) for c in self.kitty))
        if self.calls:
            lines.append("calls " + " ".join(f"{s}:{_call_word(a, self.up)}" for s, a in self.calls))
        if self.discard >= 0:
            lines.append(f"discard {card_str(self.discard)}")
        if self.passed >= 0:
            lines.append(f"passed {card_str(self.passed)}")
        if self.loner_discard >= 0:
            lines.append(f"loner discard {card_str(self.loner_discard)}")
        if self.maker >= 0 and self.phase >= PLAY:
            alone = [s for s in range(PLAYERS) if s in (self.lone,) or (s == self.maker and self.maker_alone)]
            lines.append(f"maker {self.maker}, trump {SUITS[self.trump]}, alone {alone or 'none'}")
        for lead, cards, winner in self.tricks:
            lines.append("trick " + " ".join(f"{s}:{card_str(c)}" for s, c in cards) + f" won by {winner}")
        if self.trick:
            lines.append("trick " + " ".join(f"{s}:{card_str(c)}" for s, c in self.trick))
        if self.phase == OVER:
            lines.append(f"points side 0: {self.points[0]}, side 1: {self.points[1]}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<euchre State, {len(self._history)} actions, to act: {self.player}>"

    def to_record(self) -> dict:
        """The hand's decisions as the kernels' records write them (``calls``, ``discard``, ``alone``, ``maker``,
        ``trump``, ``plays``, ``tricks``, ``points``; ``exchange`` under farmers / go_under), with ``dealer``,
        ``deal`` and ``kitty``."""
        word = {PASS: "pass", ORDER: "order", **{NAME + s: SUITS[s] for s in range(4)}}
        plays = [[s, card_str(c)] for _, cards, _ in self.tricks for s, c in cards]
        plays += [[s, card_str(c)] for s, c in self.trick]
        alone = sorted(([self.maker] if self.maker_alone else []) + ([self.lone] if self.lone >= 0 else []))
        out = {
            "dealer": self.dealer,
            "deal": {str(s): [card_str(c) for c in _cards(self.dealt[s])] for s in range(PLAYERS)},
            "kitty": [card_str(c) for c in self.kitty],
            "calls": [[s, word[a]] for s, a in self.calls],
            "discard": card_str(self.discard) if self.discard >= 0 else None,
            "alone": alone,
            "maker": self.maker if self.maker >= 0 else None,
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "plays": plays,
            "tricks": {str(s): self.won[s] for s in range(PLAYERS)},
            "points": {"0": self.points[0], "1": self.points[1]},
        }
        if self.game.exchanges:  # as the records: the seat that exchanged with the kitty, or -1
            done = self.ex_seat >= 0 and self.phase != GIVE
            out["exchange"] = {"seat": self.ex_seat if done else -1,
                               "gave": [card_str(c) for c in _cards(self.ex_given)] if done else [],
                               "took": [card_str(c) for c in sorted(self.kitty[1:])] if done else []}
        if self.game.partners_best:
            out["passed"] = card_str(self.passed) if self.passed >= 0 else None
            out["loner_discard"] = card_str(self.loner_discard) if self.loner_discard >= 0 else None
        return out

    # ---------------------------------------------------------------- resampling

    def resample_from_infostate(self, player: int, rng=None) -> State:
        """A state ``player`` cannot tell from this one: the hidden cards redrawn uniformly (module text)."""
        p = self._seat(player)
        if self.phase <= DEAL:
            raise GameError("resample_from_infostate needs the deal done (the state is still dealing)")
        if self.game.exchanges:
            raise GameError("resample_from_infostate does not draw worlds under rules farmers / go_under (the "
                            "exchange with the kitty)")
        up = self.up
        ordered = self.round == 1
        dealer = self.dealer
        maker = self.maker
        partner = (maker + 2) % PLAYERS if maker >= 0 else -1
        passed, loner_d = self.passed, self.loner_discard  # partners_best's exchange (-1: none, not yet)
        # under discard_up the up-card, once ordered up and not yet played, is the dealer's or its discard; under
        # partners_best, when the dealer is the lone maker or its partner, the lone maker's or its discard too: to
        # the others it is hidden (drawn into one of those places, never among the kitty's three)
        up_moves = passed >= 0 and ordered and dealer in (maker, partner)
        known = self.hands[p] | self.played
        if dealer == p and self.discard >= 0:
            known |= 1 << self.discard
        if passed >= 0 and p == maker:  # the lone maker knows the card passed and its own discard
            known |= 1 << passed | (1 << loner_d if loner_d >= 0 else 0)
        up_hidden = ((self.game.discard_up or up_moves) and ordered and self.discard >= 0 and dealer != p
                     and not known >> up & 1)
        if not up_hidden:
            known |= 1 << up
        # the partner knows the card it passed: the lone maker's, or its discard (hidden, drawn into one of them)
        passed_hidden = passed >= 0 and p == partner and not self.played >> passed & 1
        if passed_hidden:
            known &= ~(1 << passed)
        slots: list[tuple[int, frozenset]] = []
        seats = []
        for s in range(PLAYERS):
            if s == p:
                continue
            hidden = self.hands[s] & ~known
            n = bin(hidden).count("1")
            void = frozenset(x for x in range(4) if self.voids[s] >> x & 1)
            slots.append((n, void))
            seats.append(s)
        discard_hidden = ordered and self.discard >= 0 and dealer != p
        loner_d_hidden = loner_d >= 0 and p != maker
        # the kitty's face-down cards, then the dealer's discard and the lone maker's discard where hidden
        slots.append((3 + int(discard_hidden) + int(loner_d_hidden), frozenset()))
        unseen = [c for c in range(DECK) if not known >> c & 1]
        trump = self.trump
        group = EFFECTIVE[trump].__getitem__ if trump >= 0 else (lambda c: c // 6)
        allowed_up = {dealer} | ({"discard"} if self.game.discard_up else set())
        if up_moves:
            allowed_up |= {"loner discard"} | ({maker} if dealer == partner else set())

        def where(drawn, card):
            for s, cards in zip(seats, drawn):
                if card in cards:
                    return s
            pile = drawn[-1]
            k = pile.index(card)
            if k < 3:
                return "kitty"
            return "discard" if k == 3 and discard_hidden else "loner discard"

        def fits(drawn) -> bool:
            if up_hidden and where(drawn, up) not in allowed_up:
                return False
            return not passed_hidden or where(drawn, passed) in (maker, "loner discard")

        constrained = up_hidden or passed_hidden
        source = uniform_source(rng) if constrained else rng  # one source for the draws again
        drawn = draw_hidden(unseen, group, slots, source)
        while constrained and not fits(drawn):  # a card where the hand cannot have put it: draw again
            drawn = draw_hidden(unseen, group, slots, source)
        now = list(self.hands)
        for s, cards in zip(seats, drawn):
            keep = self.hands[s] & known  # the up-card in the dealer's hand
            now[s] = keep | sum(1 << c for c in cards)
        rest = list(drawn[-1])
        if loner_d_hidden:
            loner_d = rest.pop()
        discard = self.discard
        if discard_hidden:
            discard = rest.pop()
        kitty = [up] + rest
        played_by = [0, 0, 0, 0]
        for _, cards, _ in self.tricks:
            for s, c in cards:
                played_by[s] |= 1 << c
        for s, c in self.trick:
            played_by[s] |= 1 << c
        dealt = [now[s] | played_by[s] for s in range(PLAYERS)]
        if passed >= 0:  # undo the exchange: the card passed back to the partner, the loner's discard to the loner
            if p not in (maker, partner):  # a card the partner could have passed: the up-card if it held it
                six = dealt[maker] | (1 << loner_d if loner_d >= 0 else 0)
                if ordered and dealer == partner and six >> up & 1:
                    passed = up
                else:
                    passed = min(c for c in _cards(six) if not (ordered and c == up))
            if loner_d >= 0:
                dealt[maker] |= 1 << loner_d
            dealt[maker] &= ~(1 << passed)
            dealt[partner] |= 1 << passed
        if ordered:
            dealt[dealer] &= ~(1 << up)
            if discard >= 0 and discard != up:
                dealt[dealer] |= 1 << discard
        state = State(self.game)
        state._scores, state._target = self._scores, self._target  # the same game
        state.apply_action(dealer)
        by_seat = [sorted(_cards(dealt[s])) for s in range(PLAYERS)]
        for k in range(PLAYERS * HAND):
            state.apply_action(by_seat[(dealer + 1 + k % PLAYERS) % PLAYERS][k // PLAYERS])
        for c in kitty:
            state.apply_action(c)
        for a in self._history[1 + DECK:]:
            if state.phase == DISCARD:
                a = discard
            elif state.phase == PARTNER_PASS:
                a = passed
            elif state.phase == LONER_DISCARD:
                a = loner_d
            state.apply_action(a)
        return state


Game.STATE = State


def _call_word(a: int, up: int) -> str:
    if a == PASS:
        return "pass"
    if a == ORDER:
        return "order" if up < 0 else f"order {card_str(up)}"
    if NAME <= a < NAME + 4:
        return f"name {SUITS[a - NAME]}"
    if a == WITH_PARTNER:
        return "with partner"
    if a == ALONE:
        return "alone"
    return str(a)
