"""Hasenpfeffer (RULES.md 3) through the game API of ``bower.sim.game``: one hand, decision by decision.

``bower.game("hasenpfeffer", rules={...})`` gives this module's ``Game``; its
states follow the rules as the kernels play them
(``kernels/hasenpfeffer/hand.py``) under every rule option
(``pass_is_final``, ``all_pass``, ``bidding``, ``widow``, ``first_lead``,
``fail_penalty``, ``defenders_score_tricks``). Seats are 0..3 clockwise,
partners opposite (side ``seat % 2``). Cards are bower's numbers, ``suit * 6
+ rank`` for suits C S D H and ranks 9 T J Q K A, and 24 for the joker
(``JK``, always the highest trump; ``bower.sim.cards``).

A hand, node by node
--------------------
1. Chance: the dealer, each seat with probability 1/4.
2. Chance, 25 times: the deal, card by card from the top, each card not yet
   dealt equally likely. Card ``k < 24`` goes to position ``k // 3 % 4 + 1``
   (packets of three, position 1 first, twice round; position ``p`` is seat
   ``(dealer + p) % 4``); card 24 is the widow, face down (the kernels' deal
   order).
3. The auction from position 1: pass or a bid above the standing bid (levels
   1..6; under ``bidding = pepper`` 1..5, 6 little pepper, 7 big pepper). It
   ends when three seats in a row have passed after the high bid (under
   ``pass_is_final``: a seat that passed is not asked again, and it ends when
   all but the high bidder have passed), at once on the top bid (6, or big
   pepper), or when all four pass on the first round: then the joker's
   holder is made to bid 3 (not a decision: no call is recorded, the state's
   ``forced`` is true), or the hand is thrown in (terminal, no points) when
   the joker is the widow or under ``all_pass = redeal``.
4. The high bidder's discard (``widow = exchange``): it takes the widow into
   its hand and puts down one of its seven cards, face down (the widow and
   the joker included). The kernels' random player draws the discard before
   the trump, so the API asks in that order.
5. Trump: the high bidder names a suit.
6. Six tricks: position 1 leads (the high bidder under ``first_lead =
   bidder``); follow the suit led if you can, the left bower and the joker
   being trumps. The winner leads the next.

Action ids
----------

=========  ===================================================================
id         meaning
=========  ===================================================================
0..3       chance, first node: the dealer's seat
0..24      chance: the card dealt next; a decision: the bidder's discard or
           the card played (24: the joker)
25         ``PASS``
26..32     ``BID + level - 1``: bid level 1..7 (26..31 the numeric 1..6; under
           pepper bidding 26..30 the bids 1..5, 31 little pepper, 32 big
           pepper)
33..36     ``TRUMP + suit``: name clubs, spades, diamonds, hearts
=========  ===================================================================

Legal actions come sorted, which is also the order the kernels' random
player draws from (``legal[bounded(len(legal))]``): pass then the bids
ascending, the seven cards ascending, the suits C S D H, the cards played
ascending; ``kernel_order`` returns the legal set as it is, for bots that use
it in every variant (``tests/test_game_hasenpfeffer.py``).

``returns()``: by seat, its side's points for the hand (RULES.md 3): the
bidding side +1 a trick when it takes at least the bid, else minus the bid
(``fail_penalty = undertricks``: minus the tricks short); little pepper +-6,
big pepper +-12; the defenders 0, or +1 a trick under
``defenders_score_tricks``; all zeros for a hand thrown in.

Observation tensor (``OBSERVATION_SIZE`` = 990 floats for one seat)
-------------------------------------------------------------------
=========  ===================================================================
offset     what
=========  ===================================================================
0          4: the observing seat
4          4: the dealer's seat (zeros before the dealer is drawn)
8          25: the cards the seat holds now (the bidder's seven while it
           discards)
33         25: the widow (only to the bidder, once it takes it)
58         25: the bidder's discard (only to the bidder)
83         256: the calls, 32 turns x 8 (pass, levels 1..7)
339        1: the joker's holder was made to bid 3 (public)
340        4: the high bidder's seat (once the auction is over)
344        7: the contract's level 1..7
351        4: trump suit C S D H
355        600: the cards played, 6 tricks x 4 seats x 25 cards
955        24: the leader of each trick, 6 tricks x 4 seats
979        4: the seat to act (zeros at a chance node and at the end)
983        4: the decision now: call, discard, trump, play
987        2: the game's scores before the hand, by side (side 0 holds
           seats 0 and 2), whole numbers (``game_scores()``)
989        1: the game's target, a whole number (``game_target()``)
=========  ===================================================================

Every cell is 0 or 1 but the last ones: the game's scores and target.

``resample_from_infostate(player, rng)``: what ``player`` knows is its own
hand (as the bidder under ``widow = exchange``, the widow and its discard),
every call, the trump, every card played, each seat's voids (a seat that
did not follow a suit led holds none of it) and, after a forced bid, that the
bidder was dealt the joker (after a throw-in under ``all_pass =
joker_bids_three``, that the joker is the widow). The other cards (the other
hands, the widow or the bidder's discard) are drawn by
``bower.sim.game.draw_hidden``, uniformly among the deals that respect
those; which of a bidder's seven cards was the widow is drawn uniformly
(never the joker after a forced bid); the state's decisions are then
replayed on that deal, the bidder's hidden discard replaced by the drawn
world's.
"""

from __future__ import annotations

from bower.sim.cards import card_str
from bower.sim.game import (_below, _HIGH, _LOW, _RANDBELOW, CHANCE, cards_of, draw_hidden, effective_suits, GameError, HandGame, HandState, powers,
                            uniform_source)

PLAYERS = 4
HAND = 6
TRICKS = 6
DECK = 25
JOKER = 24
SUITS = "CSDH"
FORCED_BID = 3
LITTLE_PEPPER = 6
BIG_PEPPER = 7
MAX_CALLS = 32

PASS = 25
BID = 26  # + level - 1
TRUMP = 33  # + suit
NUM_DISTINCT_ACTIONS = 37

# phases
DEALER, DEAL, AUCTION, DISCARD, NAME_TRUMP, PLAY, OVER = range(7)

OBSERVATION_SIZE = 990
_O_GAME = 987  # the game's scores, then its target (``HandState._game_cells``)
_O_SEAT, _O_DEALER, _O_HAND, _O_WIDOW, _O_DISCARD, _O_CALLS = 0, 4, 8, 33, 58, 83
_O_FORCED, _O_BIDDER, _O_LEVEL, _O_TRUMP, _O_PLAYS, _O_LEADERS, _O_TURN, _O_PHASE = (
    339, 340, 344, 351, 355, 955, 979, 983)
_PHASE_SLOT = {AUCTION: 0, DISCARD: 1, NAME_TRUMP: 2, PLAY: 3}

NUMERIC_NAMES = ("pass", "1", "2", "3", "4", "5", "6")
PEPPER_NAMES = ("pass", "1", "2", "3", "4", "5", "little-pepper", "big-pepper")


EFFECTIVE = tuple(effective_suits(t, DECK) for t in range(4))
POWER = tuple(powers(t, DECK) for t in range(4))
_FULL = (1 << DECK) - 1
# by dealer, the seat of the k-th card dealt (packets of three to each seat from the dealer's left, twice)
_DEAL_SEATS = tuple(tuple((d + 1 + (k // 3) % 4) % PLAYERS for k in range(PLAYERS * HAND)) for d in range(PLAYERS))


def _cards(mask: int) -> list[int]:
    """The cards of a 25-card mask, ascending (the joker last)."""
    out = cards_of(mask & 0xFFFFFF)
    if mask >> JOKER & 1:
        out.append(JOKER)
    return out


def _count(mask: int) -> int:
    return bin(mask).count("1")


def _names(cards) -> str:
    return " ".join(card_str(c) for c in sorted(cards))


class Game(HandGame):
    """Hasenpfeffer's game under one rule set: ``new_initial_state()`` and OpenSpiel's sizes."""

    PLAYERS, ACTIONS, CHANCE_OUTCOMES, OBSERVATION_SIZE = PLAYERS, NUM_DISTINCT_ACTIONS, DECK, OBSERVATION_SIZE

    def __init__(self, variant, rules: dict):
        self.variant = variant
        self.rules = dict(rules)
        self.pass_final = bool(rules["pass_is_final"])
        self.redeal = rules["all_pass"] == "redeal"
        self.pepper = rules["bidding"] == "pepper"
        self.top = BIG_PEPPER if self.pepper else 6
        self.dead = rules["widow"] == "dead"
        self.bidder_leads = rules["first_lead"] == "bidder"
        self.undertricks = rules["fail_penalty"] == "undertricks"
        self.defenders_score = bool(rules["defenders_score_tricks"])
        self.call_names = PEPPER_NAMES if self.pepper else NUMERIC_NAMES

    def min_utility(self) -> float:
        return -12.0 if self.pepper else -6.0

    def max_utility(self) -> float:
        return 12.0 if self.pepper else 6.0

    def max_game_length(self) -> int:
        """Decisions at most: the calls (3 passes, then each level bid and followed by passes), discard, trump, 24
        cards."""
        levels = self.top
        return 3 + levels + 2 * (levels - 1) + 3 + 1 + 1 + PLAYERS * TRICKS

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.rules.items())
        return f"bower.game('hasenpfeffer', rules={{{shown}}})"


class State(HandState):
    """One hand of Hasenpfeffer at one node (see the module's text for the nodes and action ids)."""

    PLAYERS, TRICKS, DECK, DEAL, OVER, EFFECTIVE, POWER = PLAYERS, TRICKS, DECK, DEAL, OVER, EFFECTIVE, POWER
    CARDS = staticmethod(_cards)  # with the joker

    __slots__ = ("game", "_history", "dealer", "hands", "dealt", "order", "widow", "calls", "high", "bidder",
                 "since", "passed", "forced", "phase", "player", "level", "trump", "discard", "taken", "trick",
                 "tricks", "won", "points", "voids", "played", "gone")

    def __init__(self, game: Game):
        self.game = game
        self._memo = None  # HandState.legal_actions's
        self._scores, self._target = game.start  # the game's scores and target (``HandGame.new_initial_state``)
        self._history: list[int] = []
        self.dealer = -1
        self.hands = [0, 0, 0, 0]  # masks of the cards each seat holds now
        self.dealt = [0, 0, 0, 0]  # masks of the six cards each seat was dealt
        self.order: list[int] = []  # the cards dealt, in order
        self.widow = -1
        self.calls: list[tuple[int, int]] = []  # (seat, level; 0 = pass)
        self.high = 0
        self.bidder = -1
        self.since = 0  # passes since the high bid
        self.passed = 0  # mask of the seats that passed
        self.forced = False
        self.phase = DEALER
        self.player = CHANCE
        self.level = 0  # the contract
        self.trump = -1
        self.discard = -1
        self.taken = False  # the bidder took the widow
        self.trick: list[tuple[int, int]] = []  # (seat, card) of the trick in progress
        self.tricks: list[tuple[int, list, int]] = []  # (leader, [(seat, card)], winner)
        self.won = [0, 0, 0, 0]
        self.points = [0, 0]  # by side
        self.voids = [0, 0, 0, 0]  # bit s: the seat has shown it holds no card of effective suit s
        self.played = 0
        self.gone = 0  # mask of the cards dealt so far

    # ---------------------------------------------------------------- the OpenSpiel interface

    def _legal(self) -> list[int]:
        """The actions allowed now, sorted (``HandState.legal_actions`` asks, and remembers them)."""
        ph = self.phase
        if ph == PLAY:  # ``_legal_cards`` and ``_cards``, inline: the cards of the suit led if the seat holds one
            hand = self.hands[self.player]
            if self.trick:
                trump = self.trump
                follow = hand & _SUIT_MASKS[trump][EFFECTIVE[trump][self.trick[0][1]]]
                if follow:
                    hand = follow
            out = [*_LOW[hand & 4095], *_HIGH[hand >> 12 & 4095]]
            if hand >> JOKER & 1:
                out.append(JOKER)
            return out
        if ph == AUCTION:
            return [PASS] + [BID + lv - 1 for lv in range(self.high + 1, self.game.top + 1)]
        if ph == DISCARD:
            return _cards(self.hands[self.bidder])
        if ph == NAME_TRUMP:
            return [TRUMP, TRUMP + 1, TRUMP + 2, TRUMP + 3]
        if ph == DEAL:
            return _cards(~self.gone & _FULL)
        if ph == DEALER:
            return [0, 1, 2, 3]
        return []

    def kernel_order(self, legal: list[int] | None = None) -> list[int]:
        """The legal actions in the order the kernels' random player draws from: the sorted order itself."""
        return self.legal_actions() if legal is None else list(legal)

    def _apply(self, a: int) -> None:
        """Take the legal action ``a`` (``HandState.apply_action`` has checked it)."""
        ph = self.phase
        if ph == PLAY:
            self._play(a)
        elif ph == DEAL:
            self._deal(a)
        elif ph == AUCTION:
            self._call(a)
        elif ph == DISCARD:
            self.hands[self.bidder] &= ~(1 << a)
            self.discard = a
            self.phase = NAME_TRUMP
        elif ph == NAME_TRUMP:
            self.trump = a - TRUMP
            self.phase = PLAY
            self.player = self.bidder if self.game.bidder_leads else (self.dealer + 1) % PLAYERS
        else:  # DEALER
            self.dealer = a
            self.phase = DEAL

    def deal_random(self, rng) -> None:
        """``HandState.deal_random``: the same cards from the same draws, laid out in one pass (the seat of each
        card from ``_DEAL_SEATS``) instead of one ``_deal`` a card, for a ``random.Random`` of the standard
        kind; any other ``rng`` goes the shared way."""
        if self.phase != DEAL or type(rng)._randbelow is not _RANDBELOW:
            HandState.deal_random(self, rng)
            return
        left = _cards(~self.gone & _FULL)
        bits = rng.getrandbits
        history, order, hands, dealt = self._history, self.order, self.hands, self.dealt
        seats = _DEAL_SEATS[self.dealer]
        self._memo = None
        k = len(order)
        while left:  # every card not dealt yet: the 24 of the hands, then the widow
            n = len(left)
            b = n.bit_length()
            r = bits(b)
            while r >= n:
                r = bits(b)
            card = left.pop(r)
            history.append(card)
            order.append(card)
            if k < PLAYERS * HAND:
                bit = 1 << card
                seat = seats[k]
                hands[seat] |= bit
                dealt[seat] |= bit
            else:
                self.widow = card
            k += 1
        self.gone = _FULL
        self.phase, self.player = AUCTION, (self.dealer + 1) % PLAYERS

    def _deal(self, card: int) -> None:
        k = len(self.order)
        self.gone |= 1 << card
        self.order.append(card)
        if k < PLAYERS * HAND:
            seat = (self.dealer + 1 + (k // 3) % 4) % PLAYERS
            self.hands[seat] |= 1 << card
            self.dealt[seat] |= 1 << card
        else:
            self.widow = card
            self.phase, self.player = AUCTION, (self.dealer + 1) % PLAYERS

    def _call(self, a: int) -> None:
        g = self.game
        seat = self.player
        level = 0 if a == PASS else a - BID + 1
        self.calls.append((seat, level))
        if level == 0:
            self.passed |= 1 << seat
            self.since += 1
        else:
            self.high, self.bidder, self.since = level, seat, 0
        n = len(self.calls)
        if self.high == 0:
            over = n == PLAYERS
        elif self.high == g.top:
            over = True
        elif g.pass_final:
            over = (self.passed | 1 << self.bidder) == 15
        else:
            over = self.since == PLAYERS - 1
        if not over:
            nxt = (seat + 1) % PLAYERS
            if g.pass_final:
                while self.passed >> nxt & 1:
                    nxt = (nxt + 1) % PLAYERS
            self.player = nxt
            return
        if self.high == 0:
            holder = next((s for s in range(PLAYERS) if self.dealt[s] >> JOKER & 1), -1)
            if g.redeal or holder < 0:
                self._end()
                return
            self.bidder, self.level, self.forced = holder, FORCED_BID, True
        else:
            self.level = self.high
        self.player = self.bidder
        if g.dead:
            self.phase = NAME_TRUMP
        else:
            self.hands[self.bidder] |= 1 << self.widow
            self.taken = True
            self.phase = DISCARD

    def _score(self) -> None:
        g = self.game
        side = self.bidder % 2
        taken = self.won[side] + self.won[side + 2]
        need = min(self.level, TRICKS)
        if g.pepper and self.level == LITTLE_PEPPER:
            bidders = 6 if taken >= need else -6
        elif g.pepper and self.level == BIG_PEPPER:
            bidders = 12 if taken >= need else -12
        elif taken >= need:
            bidders = taken
        elif g.undertricks:
            bidders = taken - need
        else:
            bidders = -self.level
        self.points[side] = bidders
        self.points[1 - side] = TRICKS - taken if g.defenders_score else 0
        self._end()

    def returns(self) -> list[float]:
        """Each seat's side's points for the hand (0 until the hand is over, and for a hand thrown in)."""
        return [float(self.points[s % 2]) for s in range(PLAYERS)]

    # ---------------------------------------------------------------- text

    def _call_word(self, level: int) -> str:
        return self.game.call_names[level] if level < len(self.game.call_names) else str(level)

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
            return f"discard {card_str(a)}" if ph == DISCARD else card_str(a)
        if a == PASS:
            return "pass"
        if BID <= a < TRUMP:
            return f"bid {self._call_word(a - BID + 1)}"
        if TRUMP <= a < NUM_DISTINCT_ACTIONS:
            return f"trump {SUITS[a - TRUMP]}"
        return str(a)

    def _auction_lines(self) -> list[str]:
        lines = []
        if self.calls:
            lines.append("calls " + " ".join(f"{s}:{self._call_word(lv)}" for s, lv in self.calls))
        if self.forced:
            lines.append(f"seat {self.bidder} holds the joker: bids 3")
        return lines

    def information_state_string(self, player: int | None = None) -> str:
        """What ``player`` (default: the seat to act) knows, as text: one line per fact, a perfect-recall record."""
        p = self._seat(self.player if player is None else player)
        lines = [f"seat {p}" + (f", dealer {self.dealer}" if self.dealer >= 0 else "")]
        lines.append(self._game_line())
        lines.append(f"hand {_names(_cards(self.hands[p]))}")
        lines += self._auction_lines()
        if p == self.bidder and self.taken:
            lines.append(f"widow {card_str(self.widow)}" + (f", discard {card_str(self.discard)}"
                                                             if self.discard >= 0 else ""))
        if self.trump >= 0:
            lines.append(f"trump {SUITS[self.trump]}")
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
        if p == self.bidder and self.taken:
            t[_O_WIDOW + self.widow] = 1.0
            if self.discard >= 0:
                t[_O_DISCARD + self.discard] = 1.0
        for k, (_, lv) in enumerate(self.calls):
            t[_O_CALLS + 8 * k + lv] = 1.0
        if self.forced:
            t[_O_FORCED] = 1.0
        if self.level:
            t[_O_BIDDER + self.bidder] = 1.0
            t[_O_LEVEL + self.level - 1] = 1.0
        if self.trump >= 0:
            t[_O_TRUMP + self.trump] = 1.0
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
        if self.widow >= 0:
            lines.append(f"widow {card_str(self.widow)}")
        lines += self._auction_lines()
        if self.level:
            lines.append(f"bidder {self.bidder}, bid {self._call_word(self.level)}"
                         + (f", discards {card_str(self.discard)}" if self.discard >= 0 else "")
                         + (f", trump {SUITS[self.trump]}" if self.trump >= 0 else ""))
        for lead, cards, winner in self.tricks:
            lines.append("trick " + " ".join(f"{s}:{card_str(c)}" for s, c in cards) + f" won by {winner}")
        if self.trick:
            lines.append("trick " + " ".join(f"{s}:{card_str(c)}" for s, c in self.trick))
        if self.phase == OVER:
            lines.append("points " + ", ".join(f"side {k}: {self.points[k]}" for k in range(2)))
        return "\n".join(lines)

    def __repr__(self) -> str:
        return f"<hasenpfeffer State, {len(self._history)} actions, to act: {self.player}>"

    def to_record(self) -> dict:
        """The hand's decisions as the kernels' records write them (``dealer``, ``deal``, ``widow``, ``calls``,
        ``forced``, ``bidder``, ``bid``, ``trump``, ``discard``, ``plays``, ``tricks``, ``points``)."""
        plays = [[s, card_str(c)] for _, cards, _ in self.tricks for s, c in cards]
        plays += [[s, card_str(c)] for s, c in self.trick]
        played = self.level > 0
        return {
            "dealer": self.dealer,
            "deal": {str(s): [card_str(c) for c in _cards(self.dealt[s])] for s in range(PLAYERS)},
            "widow": card_str(self.widow) if self.widow >= 0 else None,
            "calls": [[s, self._call_word(lv)] for s, lv in self.calls],
            "forced": self.forced,
            "bidder": self.bidder if played else None,
            "bid": self._call_word(self.level) if played else None,
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "discard": card_str(self.discard) if self.discard >= 0 else None,
            "plays": plays,
            "tricks": {str(s): self.won[s] for s in range(PLAYERS)},
            "points": {"0": self.points[0], "1": self.points[1]},
        }

    # ---------------------------------------------------------------- resampling

    def resample_from_infostate(self, player: int, rng=None) -> State:
        """A state ``player`` cannot tell from this one: the hidden cards redrawn uniformly (module text)."""
        p = self._seat(player)
        if self.phase <= DEAL:
            raise GameError("resample_from_infostate needs the deal done (the state is still dealing)")
        u = uniform_source(rng)
        bidder, trump = self.bidder if self.level else -1, self.trump
        sees = p == bidder and self.taken  # the bidder that took the widow knows it and its discard
        known = self.hands[p] | self.played
        if sees:
            known |= 1 << self.widow
            if self.discard >= 0:
                known |= 1 << self.discard
        # where the joker must be, if the auction told: the forced bidder's cards, or the widow after a throw-in
        thrown = self.phase == OVER and not self.level
        joker_rule = not known >> JOKER & 1 and (self.forced or (thrown and not self.game.redeal))
        JK = 4  # the joker's own group when its place is known
        slots: list[tuple[int, frozenset]] = []
        owners: list = []
        for s in range(PLAYERS):
            if s == p:
                continue
            void = {x for x in range(4) if self.voids[s] >> x & 1}
            if joker_rule and not (self.forced and s == bidder and trump not in void):
                void.add(JK)
            slots.append((_count(self.hands[s]), frozenset(void)))
            owners.append(("hand", s))
        if self.taken:
            if self.discard >= 0 and not sees:
                slots.append((1, frozenset()))  # the joker may have been put down
                owners.append(("discard", bidder))
        else:
            slots.append((1, frozenset({JK}) if joker_rule and self.forced else frozenset()))
            owners.append(("widow", -1))
        unseen = [c for c in range(DECK) if not known >> c & 1]
        eff = EFFECTIVE[trump] if trump >= 0 else tuple(c // 6 if c != JOKER else JK for c in range(DECK))
        group = (lambda c: JK if c == JOKER else eff[c]) if joker_rule else eff.__getitem__
        drawn = draw_hidden(unseen, group, slots, u)
        now = list(self.hands)
        widow, discard = self.widow, self.discard
        for (what, s), cards in zip(owners, drawn):
            if what == "hand":
                now[s] = sum(1 << c for c in cards)
            elif what == "discard":
                discard = cards[0]
            else:
                widow = cards[0]
        by_seat = [0, 0, 0, 0]  # the cards each seat played
        for _, cards, _ in self.tricks:
            for s, c in cards:
                by_seat[s] |= 1 << c
        for s, c in self.trick:
            by_seat[s] |= 1 << c
        dealt = [now[s] | by_seat[s] for s in range(PLAYERS)]
        if self.taken:  # the bidder's seven: which was the widow
            seven = dealt[bidder] | (1 << discard if discard >= 0 else 0)
            if sees:
                widow = self.widow
            else:
                pool = _cards(seven & ~(1 << JOKER if self.forced else 0))
                widow = pool[_below(u, len(pool))]
            dealt[bidder] = seven & ~(1 << widow)
        dealt[p] = self.dealt[p]
        # the deal order: the player's own cards where it saw them dealt, the others' ascending
        state = State(self.game)
        state._scores, state._target = self._scores, self._target  # the same game
        state.apply_action(self.dealer)
        rest = [_cards(dealt[s]) for s in range(PLAYERS)]
        for k in range(PLAYERS * HAND):
            seat = (self.dealer + 1 + (k // 3) % 4) % PLAYERS
            state.apply_action(self.order[k] if seat == p else rest[seat].pop(0))
        state.apply_action(widow)
        for a in self._history[1 + DECK:]:
            if state.phase == DISCARD:
                a = discard
            state.apply_action(a)
        return state


Game.STATE = State
_SUIT_MASKS = State.SUIT_MASKS  # by trump, by suit as play sees it: its cards (``HandState.__init_subclass__``)
