"""Ghost Hand Euchre (RULES.md 1) through the game API of ``bower.sim.game``: one hand, decision by decision.

``bower.game("ghost", rules={...})`` gives this module's ``Game``; its states
follow the rules as the kernels play them (``kernels/ghost/hand.py``) under
every rule option a hand uses (``auction``, ``swap``, ``stick_the_dealer``,
``moon_set_penalty``, ``set_keeps_tricks``; ``tiebreak`` is a game's, not a
hand's). Seats are 0..2, each for itself; position ``p`` (1 = the dealer's
left, 3 = the dealer) is seat ``(dealer + p) % 3``. Cards are bower's numbers,
``suit * 6 + rank``, suits C S D H and ranks 9 T J Q K A
(``bower.sim.cards``).

A hand, node by node
--------------------
1. Chance: the dealer, each seat with probability 1/3.
2. Chance, 24 times: the deal, card by card from the top, each card not yet
   dealt equally likely. Card ``k`` goes to position ``k % 4 + 1`` while
   ``k % 4 < 3`` (seat ``(dealer + 1 + k % 4) % 3``) and to the ghost when
   ``k % 4 == 3``: the ghost sits between the dealer and position 1. The
   whole deck is dealt, so a state is one complete world.
3. The auction, from position 1 (the kernels' ``auction_core``): at a seat's
   first turn, while no one has swapped (``swap = at_turn``), the seat first
   keeps its hand or swaps it, unseen, for the ghost (its old hand is then
   the dead hand); then it calls: pass or a bid above the standing one (3, 4,
   5, moon). A moon ends the auction. ``one_lap``: each seat calls once;
   ``until_passes``: the lap goes round again, skipping the seats that passed
   and the high bidder, until all after the high bidder have passed. Under
   ``stick_the_dealer`` the dealer, when both others passed, may not pass.
   All pass: the hand is thrown in (terminal, no points).
4. The high bidder names trump (any suit) and leads the first trick.
5. Six tricks among the three seats, the winner of each leading the next;
   follow the suit led (the left bower is trump) if you can.

Action ids
----------

=========  ===================================================================
id         meaning
=========  ===================================================================
0..2       chance, first node: the dealer's seat
0..23      chance: the card dealt next; a decision: the card played
24         ``PASS``
25..27     ``BID + (n - 3)``: bid 3, 4, 5
28         ``MOON``: bid all six tricks
29..32     ``TRUMP + suit``: name clubs, spades, diamonds, hearts trump
33         ``KEEP``: keep the hand dealt (the swap decision)
34         ``SWAP``: swap it, unseen, for the ghost
=========  ===================================================================

Legal actions come sorted, which is also the order the kernels' random player
draws from (keep before swap; pass, then the bids upward to the moon; the
suits C S D H; the cards ascending), so a bot taking
``legal[rng.bounded(len(legal))]`` from the kernels' decision stream plays as
the ``random`` preset (``tests/test_game_ghost.py``).

``returns()``: by seat, the points each scores for the hand by RULES.md's
table: +1 per trick taken; the high bidder, if it took at least its bid, its
tricks (a moon made: 24); short of it, minus the bid (a failed moon minus
``moon_set_penalty``) plus its tricks only under ``set_keeps_tricks``. A hand
thrown in: all zeros.

Observation tensor (``OBSERVATION_SIZE`` = 570 floats for one seat)
-------------------------------------------------------------------
=========  ===================================================================
offset     what
=========  ===================================================================
0          3: the observing seat
3          3: the dealer's seat (zeros before the dealer is drawn)
6          24: the cards the seat holds now
30         24: the seat's dead hand (its own hand dealt, once it swapped)
54         3: the seat that swapped (public: the swap is made in the open)
57         40: the calls, 8 turns x 5 (pass, 3, 4, 5, moon)
97         4: trump suit C S D H
101        3: the maker's seat (the high bidder)
104        432: the cards played, 6 tricks x 3 seats x 24 cards
536        18: the leader of each trick, 6 tricks x 3 seats
554        3: the seat to act (zeros at a chance node and at the end)
557        4: the decision to make: swap, call, trump, card
561        5: the standing bid (none, 3, 4, 5, moon)
566        3: the game's scores before the hand, by seat, whole numbers
           (``game_scores()``)
569        1: the game's target, a whole number (``game_target()``)
=========  ===================================================================

Every cell is 0 or 1 but the last ones: the game's scores and target.

``resample_from_infostate(player, rng)``: what ``player`` knows is its own
hand (the ghost's cards, once it swapped: the swap is unseen before, its new
hand after) and, if it swapped, its dead hand; who swapped; every card
played, and each seat's voids (a seat that did not follow a suit led holds
none of it). The other cards (the other seats' hands, and the ghost, or the
dead hand of another seat that swapped: six cards face down either way) are
drawn by ``bower.sim.game.draw_hidden``, uniformly among the deals that
respect those voids; the state's own decisions are then replayed on that
deal.
"""

from __future__ import annotations

from bower.sim.cards import card_str
from bower.sim.game import (
    cards_of as _cards, CHANCE, draw_hidden, EFFECTIVE, GameError, HandGame, HandState, names as _names, POWER,
)

PLAYERS = 3
HAND = 6
TRICKS = 6
DECK = 24
SUITS = "CSDH"
MOON_BID = 6  # the moon as a bid level: all six tricks
MAX_CALLS = 8

PASS = 24
BID = 25  # + (bid - 3): bids 3, 4, 5
MOON = 28
TRUMP = 29  # + suit
KEEP = 33
SWAP = 34
NUM_DISTINCT_ACTIONS = 35

# phases
DEALER, DEAL, SWAP_TURN, AUCTION, NAMING, PLAY, OVER = range(7)

OBSERVATION_SIZE = 570
_O_GAME = 566  # the game's scores, then its target (``HandState._game_cells``)
_O_SEAT, _O_DEALER, _O_HAND, _O_DEAD, _O_SWAPPER, _O_CALLS = 0, 3, 6, 30, 54, 57
_O_TRUMP, _O_MAKER, _O_PLAYS, _O_LEADERS, _O_TURN, _O_PHASE, _O_STANDING = 97, 101, 104, 536, 554, 557, 561

_LEVEL = {PASS: 0, BID: 3, BID + 1: 4, BID + 2: 5, MOON: MOON_BID}  # call action -> bid level (0: pass)
_CALL_WORD = {PASS: "pass", BID: "3", BID + 1: "4", BID + 2: "5", MOON: "moon"}


def _call_action(level: int) -> int:
    return PASS if level == 0 else (MOON if level == MOON_BID else BID + level - 3)


class Game(HandGame):
    """Ghost Hand's game under one rule set: ``new_initial_state()`` and OpenSpiel's sizes."""

    PLAYERS, ACTIONS, CHANCE_OUTCOMES, OBSERVATION_SIZE = PLAYERS, NUM_DISTINCT_ACTIONS, DECK, OBSERVATION_SIZE

    def __init__(self, variant, rules: dict):
        self.variant = variant
        self.rules = dict(rules)
        self.until_passes = rules["auction"] == "until_passes"
        self.swap = rules["swap"] == "at_turn"
        self.stick = bool(rules["stick_the_dealer"])
        self.moon_penalty = int(rules["moon_set_penalty"])
        self.set_keeps = bool(rules["set_keeps_tricks"])

    def min_utility(self) -> float:
        return -float(max(self.moon_penalty, 5))

    def max_utility(self) -> float:
        return 24.0

    def max_game_length(self) -> int:
        """Decisions at most: a keep or swap at each seat's first turn (while no one has swapped), the calls, naming
        trump, 18 cards."""
        return (PLAYERS if self.swap else 0) + (MAX_CALLS if self.until_passes else PLAYERS) + 1 + PLAYERS * TRICKS

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v}" for k, v in self.rules.items())
        return f"bower.game('ghost', rules={{{shown}}})"


class State(HandState):
    """One hand of Ghost Hand at one node (see the module's text for the nodes and action ids)."""

    PLAYERS, TRICKS, DECK, DEAL, OVER, EFFECTIVE, POWER = PLAYERS, TRICKS, DECK, DEAL, OVER, EFFECTIVE, POWER

    __slots__ = ("game", "_history", "dealer", "dealt_order", "hands", "dealt", "ghost", "swapper", "dead",
                 "calls", "kept", "phase", "player", "pos", "passed", "called", "n_passed", "standing", "maker",
                 "bid",
                 "trump", "trick", "tricks", "won", "points", "voids", "played", "gone")

    def __init__(self, game: Game):
        self.game = game
        self._memo = None  # HandState.legal_actions's
        self._scores, self._target = game.start  # the game's scores and target (``HandGame.new_initial_state``)
        self._history: list[int] = []
        self.dealer = -1
        self.dealt_order: list[int] = []  # the cards dealt, in order
        self.hands = [0, 0, 0]  # masks of the cards each seat holds now
        self.dealt = [0, 0, 0]  # masks of the six cards each seat was dealt
        self.ghost = 0  # mask of the ghost hand as dealt
        self.swapper = -1
        self.dead = 0  # the swapper's hand dealt, out of play
        self.calls: list[tuple[int, int]] = []  # (seat, action)
        self.phase = DEALER
        self.player = CHANCE
        self.pos = 1  # the auction's position now (1..3)
        self.passed = 0  # bit per seat: passed (final)
        self.called = 0  # bit per seat: has called
        self.kept = 0  # bit per seat: kept its hand at its swap decision (public, as a swap is)
        self.n_passed = 0
        self.standing = 0  # the standing bid level (0: none)
        self.maker = -1
        self.bid = 0
        self.trump = -1
        self.trick: list[tuple[int, int]] = []  # (seat, card) of the trick in progress
        self.tricks: list[tuple[int, list, int]] = []  # (leader, [(seat, card)], winner)
        self.won = [0, 0, 0]
        self.points = [0, 0, 0]
        self.voids = [0, 0, 0]  # bit s: the seat has shown it holds no card of effective suit s
        self.played = 0  # mask of the cards played
        self.gone = 0  # mask of the cards dealt so far

    # ---------------------------------------------------------------- the OpenSpiel interface

    def dealer_stuck(self) -> bool:
        """Whether the seat to call is a dealer stuck under ``stick_the_dealer`` (both others passed, no bid)."""
        return (self.game.stick and self.player == self.dealer and self.n_passed == 2 and self.standing == 0)

    def _legal(self) -> list[int]:
        """The actions allowed now, sorted (``HandState.legal_actions`` asks, and remembers them)."""
        ph = self.phase
        if ph == PLAY:
            return self._legal_cards(self.player)
        if ph == AUCTION:
            low = max(3, self.standing + 1)
            bids = [_call_action(b) for b in range(low, MOON_BID + 1)]
            return bids if self.dealer_stuck() else [PASS] + bids
        if ph == SWAP_TURN:
            return [KEEP, SWAP]
        if ph == NAMING:
            return [TRUMP + s for s in range(4)]
        if ph == DEAL:
            return _cards(~self.gone & (1 << DECK) - 1)
        if ph == DEALER:
            return [0, 1, 2]
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
        elif ph == SWAP_TURN:
            if a == KEEP:
                self.kept |= 1 << self.player
            if a == SWAP:
                seat = self.player
                self.swapper = seat
                self.dead = self.hands[seat]
                self.hands[seat] = self.ghost
            self.phase = AUCTION
        elif ph == NAMING:
            self.trump = a - TRUMP
            self.phase, self.player = PLAY, self.maker  # the high bidder leads
        else:  # DEALER
            self.dealer = a
            self.phase = DEAL

    def _deal(self, card: int) -> None:
        k = len(self.dealt_order)
        self.dealt_order.append(card)
        self.gone |= 1 << card
        if k % 4 == 3:
            self.ghost |= 1 << card
        else:
            seat = (self.dealer + 1 + k % 4) % PLAYERS
            self.hands[seat] |= 1 << card
            self.dealt[seat] |= 1 << card
        if k == DECK - 1:
            self.pos = 1
            self._turn((self.dealer + 1) % PLAYERS)

    def _turn(self, seat: int) -> None:
        """Give ``seat`` its turn of the auction: the swap decision first at its first turn while the swap is open."""
        first = not self.called >> seat & 1
        swap_open = self.game.swap and self.swapper < 0
        self.phase = SWAP_TURN if first and swap_open else AUCTION
        self.player = seat

    def _call(self, a: int) -> None:
        seat = self.player
        self.calls.append((seat, a))
        self.called |= 1 << seat
        level = _LEVEL[a]
        if level == 0:
            self.passed |= 1 << seat
            self.n_passed += 1
        else:
            self.standing = level
            self.maker = seat
        if level == MOON_BID:
            return self._end_auction()
        until = self.game.until_passes
        while True:  # the kernels' auction loop: the next position, or the end
            if self.pos == 3:
                if not until or self.n_passed == 3:
                    return self._end_auction()
                self.pos = 1
            else:
                self.pos += 1
            if until and self.maker >= 0 and self.n_passed == 2:
                return self._end_auction()
            nxt = (self.dealer + self.pos) % PLAYERS
            if not self.passed >> nxt & 1 and nxt != self.maker:
                return self._turn(nxt)

    def _end_auction(self) -> None:
        if self.maker < 0:  # all passed: thrown in
            self._end()
            return
        self.bid = self.standing
        self.phase, self.player = NAMING, self.maker

    def _score(self) -> None:
        g = self.game
        points = list(self.won)
        taken = self.won[self.maker]
        if taken >= self.bid:
            points[self.maker] = 24 if self.bid == MOON_BID else taken
        else:
            penalty = g.moon_penalty if self.bid == MOON_BID else self.bid
            points[self.maker] = -penalty + (taken if g.set_keeps else 0)
        self.points = points
        self._end()

    def returns(self) -> list[float]:
        """Points of each seat for the hand (0 until the hand is over, and for a hand thrown in)."""
        return [float(p) for p in self.points]

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
        if 0 <= a < DECK:
            return card_str(a)
        return _action_word(a)

    def _calls_line(self) -> str:
        words = []
        for s, a in self.calls:
            if s == self.swapper and a == self._first_call_of(s):
                words.append(f"{s}:swap")
            words.append(f"{s}:{_CALL_WORD[a]}")
        return "calls " + " ".join(words)

    def _first_call_of(self, seat: int):
        for s, a in self.calls:
            if s == seat:
                return a
        return None

    def information_state_string(self, player: int | None = None) -> str:
        """What ``player`` (default: the seat to act) knows, as text: one line per fact, a perfect-recall record."""
        p = self._seat(self.player if player is None else player)
        lines = [f"seat {p}" + (f", dealer {self.dealer}" if self.dealer >= 0 else "")]
        lines.append(self._game_line())
        lines.append(f"hand {_names(_cards(self.hands[p]))}")
        if self.swapper == p:
            lines.append(f"dead {_names(_cards(self.dead))}")
        if self.swapper >= 0:
            lines.append(f"swap {self.swapper}")
        if self.kept:
            lines.append("kept " + " ".join(str(s) for s in range(PLAYERS) if self.kept >> s & 1))
        if self.calls:
            lines.append(self._calls_line())
        if self.trump >= 0:
            lines.append(f"maker {self.maker} bid {_level_word(self.bid)} trump {SUITS[self.trump]}")
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
        if self.swapper == p:
            for c in _cards(self.dead):
                t[_O_DEAD + c] = 1.0
        if self.swapper >= 0:
            t[_O_SWAPPER + self.swapper] = 1.0
        for k, (_, a) in enumerate(self.calls):
            t[_O_CALLS + 5 * k + (a - PASS)] = 1.0
        if self.trump >= 0:
            t[_O_TRUMP + self.trump] = 1.0
        if self.maker >= 0:
            t[_O_MAKER + self.maker] = 1.0
        tricks = [(lead, cards) for lead, cards, _ in self.tricks]
        if self.trick:
            tricks.append((self.trick[0][0], self.trick))
        for i, (lead, cards) in enumerate(tricks):
            t[_O_LEADERS + 3 * i + lead] = 1.0
            for s, c in cards:
                t[_O_PLAYS + 72 * i + 24 * s + c] = 1.0
        if self.player >= 0:
            t[_O_TURN + self.player] = 1.0
            t[_O_PHASE + self.phase - SWAP_TURN] = 1.0
        t[_O_STANDING + (0 if self.standing == 0 else self.standing - 2)] = 1.0
        self._game_cells(t, _O_GAME)
        return t

    def __str__(self) -> str:
        lines = [f"dealer {self.dealer}" if self.dealer >= 0 else "dealer not drawn yet"]
        for s in range(PLAYERS):
            if self.dealt[s]:
                lines.append(f"seat {s}: {_names(_cards(self.dealt[s]))}")
        if self.ghost:
            lines.append(f"ghost: {_names(_cards(self.ghost))}")
        if self.calls:
            lines.append(self._calls_line())
        if self.trump >= 0:
            lines.append(f"maker {self.maker}, bid {_level_word(self.bid)}, trump {SUITS[self.trump]}")
        for lead, cards, winner in self.tricks:
            lines.append("trick " + " ".join(f"{s}:{card_str(c)}" for s, c in cards) + f" won by {winner}")
        if self.trick:
            lines.append("trick " + " ".join(f"{s}:{card_str(c)}" for s, c in self.trick))
        if self.phase == OVER:
            lines.append("points " + ", ".join(f"seat {s}: {self.points[s]}" for s in range(PLAYERS)))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<ghost State, {len(self._history)} actions, to act: {self.player}>"

    def to_record(self) -> dict:
        """The hand's decisions as the kernels' records write them (``dealer``, ``deal`` with the ghost, ``swap``,
        ``calls``, ``maker``, ``bid``, ``trump``, ``plays``, ``tricks``, ``points``)."""
        plays = [[s, card_str(c)] for _, cards, _ in self.tricks for s, c in cards]
        plays += [[s, card_str(c)] for s, c in self.trick]
        deal = {str(s): [card_str(c) for c in _cards(self.dealt[s])] for s in range(PLAYERS)}
        deal["ghost"] = [card_str(c) for c in _cards(self.ghost)]
        made = self.maker >= 0 and self.trump >= 0
        return {
            "dealer": self.dealer,
            "deal": deal,
            "swap": self.swapper if self.swapper >= 0 else None,
            "calls": [[s, _CALL_WORD[a]] for s, a in self.calls],
            "maker": self.maker if made else None,
            "bid": self.bid if made else None,
            "trump": SUITS[self.trump] if made else None,
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
        known = self.hands[p] | self.played
        if self.swapper == p:
            known |= self.dead
        slots: list[tuple[int, frozenset]] = []
        seats = []
        for s in range(PLAYERS):
            if s == p:
                continue
            n = bin(self.hands[s] & ~known).count("1")
            slots.append((n, frozenset(x for x in range(4) if self.voids[s] >> x & 1)))
            seats.append(s)
        unseen = [c for c in range(DECK) if not known >> c & 1]
        slots.append((len(unseen) - sum(n for n, _ in slots), frozenset()))  # the ghost, or another's dead hand
        group = EFFECTIVE[self.trump].__getitem__ if self.trump >= 0 else (lambda c: c // 6)
        drawn = draw_hidden(unseen, group, slots, rng)
        now = list(self.hands)
        for s, cards in zip(seats, drawn):
            now[s] = sum(1 << c for c in cards)
        rest = sum(1 << c for c in drawn[-1])
        played_by = [0, 0, 0]
        for _, cards, _ in self.tricks:
            for s, c in cards:
                played_by[s] |= 1 << c
        for s, c in self.trick:
            played_by[s] |= 1 << c
        held = [now[s] | played_by[s] for s in range(PLAYERS)]  # each seat's hand once the auction was over
        dealt = list(held)
        ghost = rest
        if self.swapper >= 0:
            q = self.swapper
            ghost = held[q]
            dealt[q] = self.dead if q == p else rest
        state = State(self.game)
        state._scores, state._target = self._scores, self._target  # the same game
        state.apply_action(self.dealer)
        by_pos = [sorted(_cards(dealt[(self.dealer + 1 + i) % PLAYERS])) for i in range(PLAYERS)] + [
            sorted(_cards(ghost))]
        for k in range(DECK):
            state.apply_action(by_pos[k % 4][k // 4])
        for a in self._history[1 + DECK:]:
            state.apply_action(a)
        return state


Game.STATE = State


def _level_word(level: int) -> str:
    return "moon" if level == MOON_BID else str(level)


def _action_word(a: int) -> str:
    if a in _CALL_WORD:
        return "pass" if a == PASS else f"bid {_CALL_WORD[a]}"
    if TRUMP <= a < TRUMP + 4:
        return f"trump {SUITS[a - TRUMP]}"
    if a == KEEP:
        return "keep"
    if a == SWAP:
        return "swap"
    return str(a)
