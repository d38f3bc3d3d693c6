"""The game API every variant can offer: OpenSpiel's ``Game`` / ``State`` interface over bower's rules.

``bower.game(variant, rules=...)`` returns a ``Game``; ``game.new_initial_state()``
a ``State`` at the start of one hand, before the deal. A variant offers the
API by naming a module in ``Variant.game`` (``bower.sim.variants.base``); that
module's ``Game(variant, rules)`` builds the game from the variant and a rule
set resolved by ``bower.sim.rules.resolve``; ``Game`` and ``State`` below are
the protocols it implements. Nothing here names a variant.

The State's methods have OpenSpiel's names and meanings (``pyspiel.State``):

- ``current_player()``: the seat to act, ``CHANCE`` (-1) at a chance node
  (the deal), ``TERMINAL`` (-4) once the hand is over (pyspiel's
  ``kChancePlayerId`` and ``kTerminalPlayerId``);
- ``legal_actions()``: the action ids allowed now, sorted (at a chance node
  the outcomes of ``chance_outcomes()``); ``apply_action(a)``: take one
  (``GameError``, a ``bower.BowerError``, with one line naming the state,
  the action and the legal ones otherwise);
- ``is_chance_node()``, ``chance_outcomes()`` ((action, probability) pairs),
  ``is_terminal()``, ``returns()`` (points of each seat for the hand);
- ``action_to_string([player,] action)``, ``information_state_string(player)``,
  ``observation_tensor(player)`` (a flat list of floats of the game's
  ``observation_tensor_size()``), ``clone()``, ``history()``, ``str(state)``;
- ``resample_from_infostate(player, rng)``: a State with the same history as
  far as ``player`` can tell, its hidden cards drawn uniformly among the
  deals consistent with what ``player`` knows;
- ``deal_random(rng)`` (not OpenSpiel's): the rest of the deal drawn from a
  ``random.Random``, as ``chance_outcomes()[rng.randrange(n)]`` at each
  chance node would draw it;
- ``game_scores()``, ``game_target()`` (not OpenSpiel's): the scores of the
  game the hand is part of, before it, and its target (read only: set by
  ``new_initial_state(scores=..., target=...)``, by an experiment at every
  hand; 0s and the variant's target otherwise), for the strategies that
  read them; every seat knows them, so ``information_state_string`` and
  ``observation_tensor`` hold them too.

``resample_from_infostate`` takes for ``rng`` a ``random.Random``, a NumPy
``Generator``, a seed (int), None (fresh entropy) or, as OpenSpiel passes it,
a function returning floats in [0, 1) (``uniform_source``). A variant's draw
goes through ``draw_hidden``: unseen cards into slots (an opponent's hand, the
kitty ...) of given sizes, each slot refusing the card groups (suits) its
holder has shown void in, uniformly among all such assignments.
"""

from __future__ import annotations

import importlib
import random
from functools import cached_property, lru_cache
from math import comb
from typing import Callable, Protocol, Sequence

from bower.sim.errors import UserError

CHANCE = -1  # pyspiel.PlayerId.CHANCE
TERMINAL = -4  # pyspiel.PlayerId.TERMINAL

REJECTION_TRIES = 64  # shuffles tried by ``draw_hidden`` before its exact draw


class GameError(UserError, ValueError):
    """A game API call the rules do not allow: an illegal action, a seat that is not at the table, no API yet."""


# ---------------------------------------------------------------- the 24-card deck's play (Euchre, Cutthroat, Ghost Hand)

JACK = 2  # a card is suit * 6 + rank, ranks 9 T J Q K A (bower.sim.cards)
JOKER = 24  # the joker, in a deck that has one (bower.sim.cards)


def effective_suits(trump: int, deck: int = 24) -> tuple:
    """Suit of each card as play sees it: the left bower (the other jack of trump's colour) is trump, and so is
    the joker (card 24) of a 25-card deck."""
    return tuple(trump if (c == JOKER or (c % 6 == JACK and c // 6 == trump ^ 1)) else c // 6 for c in range(deck))


def powers(trump: int, deck: int = 24) -> tuple:
    """Trick power of each card with ``trump``: trumps above all (the joker of a 25-card deck, right bower, left
    bower, A K Q T 9), then rank."""
    out = []
    for c in range(deck):
        suit, rank = divmod(c, 6)
        if c == JOKER:
            out.append(100 + 30)
        elif suit == trump and rank == JACK:
            out.append(100 + 20)
        elif suit == trump ^ 1 and rank == JACK:
            out.append(100 + 19)
        elif suit == trump:
            out.append(100 + rank)
        else:
            out.append(rank)
    return tuple(out)


EFFECTIVE = tuple(effective_suits(t) for t in range(4))
POWER = tuple(powers(t) for t in range(4))
_LOW = tuple(tuple(c for c in range(12) if m >> c & 1) for m in range(1 << 12))  # the cards of a 12-bit mask
_HIGH = tuple(tuple(c + 12 for c in cards) for cards in _LOW)


def cards_of(mask: int) -> list[int]:
    """The cards of a 24-card mask, ascending."""
    return [*_LOW[mask & 4095], *_HIGH[mask >> 12 & 4095]]


def names(cards) -> str:
    """Cards as names, in card order (``"9C TC JS"``)."""
    from bower.sim.cards import card_str

    return " ".join(card_str(c) for c in sorted(cards))


# ---------------------------------------------------------------- what the variants' games and states share


class HandGame:
    """The part of a variant's ``Game`` every variant shares: OpenSpiel's sizes from the class's constants
    (``PLAYERS``, ``ACTIONS``, ``CHANCE_OUTCOMES``, ``OBSERVATION_SIZE``) and the first state, a ``STATE``."""

    PLAYERS = ACTIONS = CHANCE_OUTCOMES = OBSERVATION_SIZE = 0
    STATE: type

    def new_initial_state(self, scores=None, target=None):
        """A hand before the deal: the first node is the chance node choosing the dealer.

        ``scores``: the game's scores before this hand, one a score unit
        (by side, side 0 holding seats 0 and 2, in a partnership variant; by
        seat otherwise), 0s if left out; ``target``: the points that win the
        game, the variant's if left out. The state holds them for its
        players (``game_scores()``, ``game_target()``): a strategy that
        reads the game's scores decides from them. GameError in one line
        for anything else.
        """
        st = self.STATE(self)
        if scores is not None or target is not None:
            st._scores, st._target = self.game_position(scores, target)
        return st

    @cached_property
    def start(self) -> tuple:
        """(scores, target) of a hand at the start of a game: 0s and the variant's target."""
        return (0,) * self.variant.score_units, int(self.variant.target)

    def game_position(self, scores=None, target=None) -> tuple:
        """``scores`` (a sequence of whole numbers, one a score unit) as a tuple and ``target`` (a positive whole
        number) checked, each left out taken from ``start``; GameError in one line otherwise."""
        zero, default = self.start
        if target is None:
            target = default
        elif isinstance(target, bool) or not hasattr(target, "__index__") or int(target) < 1:
            raise GameError(f"target must be a positive whole number of points, got {target!r}")
        if scores is None:
            return zero, int(target)
        units = "sides" if self.variant.partnerships else "seats"
        try:
            got = tuple(scores)
        except TypeError:
            got = None
        if got is None or len(got) != len(zero) or any(isinstance(x, bool) or not hasattr(x, "__index__")
                                                        for x in got):
            raise GameError(f"scores must be {len(zero)} whole numbers (the game's scores by {units[:-1]}: "
                            f"{units}), got {scores!r}")
        return tuple(int(x) for x in got), int(target)

    def num_players(self) -> int:
        return self.PLAYERS

    def num_distinct_actions(self) -> int:
        return self.ACTIONS

    def max_chance_outcomes(self) -> int:
        return self.CHANCE_OUTCOMES

    def observation_tensor_size(self) -> int:
        return self.OBSERVATION_SIZE

    def observation_tensor_shape(self) -> list[int]:
        return [self.OBSERVATION_SIZE]


class HandState:
    """The part of a variant's ``State`` every variant shares: the node queries, copies, refusals and the play of
    a trick (follow the suit led, the left bower as trump, the highest power wins).

    A subclass sets ``PLAYERS``, ``TRICKS``, ``DECK`` (its cards), ``DEAL``
    and ``OVER`` (its phases of the deal and once the hand is over), ``EFFECTIVE`` and ``POWER`` (the play tables by trump: a card's
    suit as played, its power, trumps at 100 and above) and ``CARDS`` (a
    mask's cards, ascending), and holds ``game``, ``_history``, ``phase``,
    ``player``, ``hands``, ``trump``, ``trick``, ``tricks``, ``won``,
    ``voids``, ``played``, ``gone`` (the cards dealt so far) and ``_memo`` (None at first); it defines
    ``_legal`` (the actions allowed now, for ``legal_actions``), ``_apply`` (a legal action taken, for
    ``apply_action``), ``_score`` (the hand's points, then ``_end``), and ``_trick_size`` where a seat may sit out.
    """

    # ``_memo``: (history length, the legal actions then), ``legal_actions`` remembered; ``_scores``, ``_target``:
    # the game's scores before the hand and its target (``game_scores``, ``game_target``), set by the game
    __slots__ = ("_memo", "_scores", "_target")
    PLAYERS = TRICKS = DECK = DEAL = OVER = 0
    _EVERY_SEAT = True  # set by ``__init_subclass__``: whether every seat plays to every trick in turn
    EFFECTIVE: tuple = ()
    POWER: tuple = ()
    SUIT_MASKS: tuple = ()  # set from EFFECTIVE (``__init_subclass__``)
    CARDS = staticmethod(cards_of)

    def current_player(self) -> int:
        """The seat to act, ``CHANCE`` (-1) at a chance node, ``TERMINAL`` (-4) once the hand is over."""
        return self.player

    def is_chance_node(self) -> bool:
        return self.player == CHANCE

    def game_scores(self) -> tuple:
        """The game's scores before this hand (a tuple: by side in a partnership variant, side 0 holding seats 0
        and 2; by seat otherwise): 0s for a lone hand unless ``new_initial_state(scores=...)`` set them, the
        game's in an experiment."""
        return self._scores

    def game_target(self) -> int:
        """The points that win the game this hand is part of (the variant's unless ``new_initial_state(target=...)``
        set another)."""
        return self._target

    def _game_line(self) -> str:
        """The game's scores and target as ``information_state_string`` gives them (every seat knows them):
        ``game scores S0 S1 target T`` (by side, or by seat)."""
        return "game scores " + " ".join(str(s) for s in self._scores) + f" target {self._target}"

    def _game_cells(self, t: list, offset: int) -> None:
        """The game's scores (by side, or by seat) and then its target into ``t[offset:]``, as whole numbers (the
        observation tensor's last cells)."""
        for i, s in enumerate(self._scores):
            t[offset + i] = float(s)
        t[offset + len(self._scores)] = float(self._target)

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The actions allowed now, sorted (``[]`` when ``player`` is given and is not the one to act).

        The variant's ``_legal`` works them out once per position: they are
        remembered with the length of the history (every action adds to it)
        and forgotten when ``apply_action`` or ``deal_random`` has changed
        the state, so a bot's turn (the experiment's check, the bot's own
        ask, the check of its answer) computes them once.
        """
        if player is not None and player != self.player:
            return []
        return self._legal_now()[:]

    def _legal_now(self) -> list[int]:
        """The remembered list of the actions allowed now (``legal_actions``): the caller must not change it."""
        n = len(self._history)
        memo = self._memo
        if memo is not None and memo[0] == n:
            return memo[1]
        legal = self._legal()
        self._memo = (n, legal)
        return legal

    def apply_action(self, action: int) -> None:
        """Take ``action`` (a chance outcome at a chance node); GameError with one line if it is not legal."""
        a = self._accept(action)
        self._memo = None  # set again only by ``legal_actions`` on the finished state
        self._apply(a)
        self._memo = None

    def _apply_legal(self, action: int) -> None:
        """Take ``action``, an int its caller has already found among ``legal_actions()`` (an experiment checks
        each bot's answer): ``apply_action`` without checking it a second time."""
        self._history.append(action)
        self._memo = None
        self._apply(action)
        self._memo = None

    def is_terminal(self) -> bool:
        return self.phase == self.OVER

    def is_player_node(self) -> bool:
        return self.player >= 0

    def history(self) -> list[int]:
        """Every action applied so far, chance outcomes included."""
        return list(self._history)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(action, probability): the dealer (each seat alike; the first phase, 0, of every variant), or the next
        card of the deal (each card not dealt yet alike)."""
        if self.phase == 0:
            return [(s, 1.0 / self.PLAYERS) for s in range(self.PLAYERS)]
        if self.phase != self.DEAL:
            return []
        left = self.CARDS(~self.gone & (1 << self.DECK) - 1)
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def deal_random(self, rng) -> None:
        """Deal the rest of the hand from ``rng`` (a ``random.Random``): the same cards as applying
        ``chance_outcomes()[rng.randrange(n)][0]`` at each chance node of the deal (``n`` outcomes), each card
        uniformly among those not dealt yet, in card order, without building the outcomes and checking each card
        again (the cards drawn are legal by construction). The dealer must be chosen first."""
        if self.phase != self.DEAL:
            raise GameError("deal_random deals the cards once the dealer is chosen, before the first decision")
        left = self.CARDS(~self.gone & (1 << self.DECK) - 1)
        history, deal, phase = self._history, self._deal, self.DEAL
        self._memo = None
        if type(rng)._randbelow is _RANDBELOW:  # randrange(n)'s own steps, inline (the same numbers)
            bits = rng.getrandbits
            while self.phase == phase:
                n = len(left)
                k = n.bit_length()
                r = bits(k)
                while r >= n:
                    r = bits(k)
                card = left.pop(r)
                history.append(card)
                deal(card)
            return
        below = _below_of(rng)
        while self.phase == phase:
            card = left.pop(below(len(left)))
            history.append(card)
            deal(card)

    def rewards(self) -> list[float]:
        """OpenSpiel's rewards: the returns at the end, 0 before (the points come only at the end)."""
        return self.returns() if self.phase == self.OVER else [0.0] * self.PLAYERS

    def player_return(self, player: int) -> float:
        return self.returns()[self._seat(player)]

    def num_players(self) -> int:
        return self.PLAYERS

    def get_game(self):
        return self.game

    def clone(self):
        """An independent copy: actions applied to it leave this state as it is (every list copied)."""
        cls = type(self)
        copy = _CLONERS.get(cls)
        if copy is None:
            copy = _CLONERS[cls] = _cloner(cls)
        return copy(self)

    def child(self, action: int):
        """A clone with ``action`` applied."""
        s = self.clone()
        s.apply_action(action)
        return s

    def information_state_tensor(self, player: int | None = None) -> list[float]:
        """The observation tensor: it holds the whole history a seat has seen (perfect recall)."""
        return self.observation_tensor(player)

    def observation_string(self, player: int | None = None) -> str:
        return self.information_state_string(player)

    def _seat(self, player) -> int:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.PLAYERS:
            raise GameError(f"player must be a seat 0..{self.PLAYERS - 1}, got {player!r}")
        return player

    def _refuse(self, action, legal) -> None:
        """GameError: ``action`` is not among ``legal`` (or the hand is over), in one line."""
        if self.phase == self.OVER:
            raise GameError(f"the hand is over: no action {action!r} can follow")
        who = "chance" if self.player == CHANCE else f"seat {self.player}"
        shown = ", ".join(f"{x} ({self.action_to_string(x)})" for x in legal)
        raise GameError(f"action {action!r} is not legal for {who} now; legal: {shown}")

    def _end(self) -> None:
        self.phase, self.player = self.OVER, TERMINAL

    def _accept(self, action) -> int:
        """``action`` as an int, added to the history, once it is legal here (``_refuse`` otherwise); a card of the
        deal is checked against the cards dealt so far, not against the whole list."""
        a = int(action) if isinstance(action, int) or hasattr(action, "__index__") else action
        if self.phase == self.DEAL and type(a) is int and 0 <= a < self.DECK:
            if self.gone >> a & 1:
                self._refuse(action, self.legal_actions())
        elif type(a) is not int or a not in self._legal_now():
            self._refuse(action, self.legal_actions())
        self._history.append(a)
        return a

    def __init_subclass__(cls, **kwargs):
        """A variant's class gets ``SUIT_MASKS`` from its ``EFFECTIVE``: by trump, by suit as play sees it, the mask
        of the cards of that suit (so following suit is one ``&``)."""
        super().__init_subclass__(**kwargs)
        # every seat plays to every trick, in turn (``_trick_size`` and ``_next_in_trick`` as here): ``_play`` then
        # works them out inline, with no call
        cls._EVERY_SEAT = cls._trick_size is HandState._trick_size and cls._next_in_trick is HandState._next_in_trick
        if "EFFECTIVE" in cls.__dict__:
            cls.SUIT_MASKS = tuple(tuple(sum(1 << c for c, s in enumerate(eff) if s == suit) for suit in range(4))
                                   for eff in cls.EFFECTIVE)

    def _legal_cards(self, seat: int) -> list[int]:
        """The cards ``seat`` may play: those of the suit led if it holds one, else any."""
        hand = self.hands[seat]
        if self.trick:
            follow = hand & self.SUIT_MASKS[self.trump][self.EFFECTIVE[self.trump][self.trick[0][1]]]
            if follow:
                return self.CARDS(follow)
        return self.CARDS(hand)

    def _trick_size(self) -> int:
        """The seats that play to a trick (every seat, unless a subclass lets one sit out)."""
        return self.PLAYERS

    def _next_in_trick(self, seat: int) -> int:
        """The seat after ``seat`` that plays to this trick."""
        return (seat + 1) % self.PLAYERS

    def _play(self, card: int) -> None:
        """``card`` played by the seat to act: a void shown, the trick taken by the highest card when it is
        complete, the hand scored after the last trick."""
        seat = self.player
        eff = self.EFFECTIVE[self.trump]
        if self.trick:
            led = eff[self.trick[0][1]]
            if eff[card] != led:
                self.voids[seat] |= 1 << led
        self.hands[seat] &= ~(1 << card)
        self.played |= 1 << card
        trick = self.trick
        trick.append((seat, card))
        if self._EVERY_SEAT:
            if len(trick) < self.PLAYERS:
                self.player = (seat + 1) % self.PLAYERS
                return
        elif len(trick) < self._trick_size():
            self.player = self._next_in_trick(seat)
            return
        power = self.POWER[self.trump]
        winner, card = trick[0]
        led, top = eff[card], power[card]
        for seat, card in trick:  # the highest trump, else the highest card of the suit led (powers differ)
            p = power[card]
            if p > top and (p >= 100 or eff[card] == led):
                winner, top = seat, p
        self.won[winner] += 1
        self.tricks.append((trick[0][0], trick, winner))
        self.trick = []
        if len(self.tricks) == self.TRICKS:
            self._score()
        else:
            self.player = winner


def _below_of(rng) -> Callable[[int], int]:
    """``rng.randrange`` for a positive bound ``n``: for a ``random.Random`` its ``_randbelow``, the very function
    ``randrange(n)`` calls for ``n > 0`` (the same numbers, without ``randrange``'s argument checks)."""
    return rng._randbelow if isinstance(rng, random.Random) else rng.randrange


_RANDBELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)  # what ``deal_random`` inlines


_CLONERS: dict = {}  # state class -> its ``clone`` body (``_cloner``)


def _cloner(cls):
    """A function copying an instance of ``cls`` slot by slot, each list copied (one line a slot, made once per
    class: about six times faster than a loop of ``getattr`` and ``setattr``, and a bot's every decision gets a
    clone)."""
    slots = [name for c in reversed(cls.__mro__) for name in c.__dict__.get("__slots__", ())]
    lines = ["def clone(self):", "    o = new(cls)"]
    for name in slots:
        if name == "_memo":  # (history length, legal list): the list copied too, as no two states share one
            lines += ["    v = self._memo", "    o._memo = v if v is None else (v[0], v[1][:])"]
            continue
        lines += [f"    v = self.{name}", f"    o.{name} = v[:] if v.__class__ is list else v"]
    lines.append("    return o")
    scope = {"new": object.__new__, "cls": cls}
    exec("\n".join(lines), scope)  # noqa: S102  (the names are the class's own slots)
    return scope["clone"]


# ---------------------------------------------------------------- a bot's view of the game's state

# The methods a view reads from the state it shows (none of them changes a state; ``legal_actions`` remembers its list
# in ``_memo``, as it does on any state): every other attribute's read, and any write, is made on the view's own clone.
VIEW_READS = ("current_player", "is_chance_node", "game_scores", "game_target", "is_terminal", "is_player_node", "legal_actions", "history",
              "chance_outcomes", "returns", "rewards", "player_return", "num_players", "get_game", "clone", "child",
              "action_to_string", "information_state_string", "information_state_tensor", "observation_string",
              "observation_tensor", "resample_from_infostate", "to_record", "kernel_order", "defenders_in_turn",
              "dealer_stuck", "__str__", "__repr__")
_PLAIN = frozenset((int, float, bool, str, type(None)))  # values a reader cannot change in place
_VIEWS: dict = {}  # state class -> its view class (``_view_class``)


class StateView:
    """A copy-on-write view of a game API state, what an experiment hands a user's bot at each decision.

    It reads the state it shows, with no copy: ``current_player()``,
    ``legal_actions()`` (a fresh list), ``information_state_string()``,
    ``clone()``, ``resample_from_infostate()`` and the other reading
    methods (``VIEW_READS``), and any attribute whose value is a plain
    number, string or None. The first call of any other method
    (``apply_action``, ``deal_random`` ...), read of any other attribute (a
    list of hands ...) or write of an attribute clones the state, and from
    then on the view is that clone: a bot may change the state it is given,
    the game goes on from its own. ``detach()`` makes the view a clone now
    (the experiment does it when a bot keeps the view past its call, so a
    kept view stays the state it was given). ``isinstance`` sees the
    state's class; ``copy.copy`` and ``copy.deepcopy`` give a clone.
    """

    __slots__ = ("_s", "_own")

    def __init__(self, state):
        object.__setattr__(self, "_s", state)
        object.__setattr__(self, "_own", False)

    def _mine(self):
        """The view's own state: a clone of the state shown, made on the first call."""
        if not self._own:
            object.__setattr__(self, "_s", self._s.clone())
            object.__setattr__(self, "_own", True)
        return self._s

    def detach(self) -> None:
        """Make the view a clone of the state it shows (no later change of that state reaches the view)."""
        self._mine()

    def current_player(self) -> int:
        return self._s.current_player()

    def legal_actions(self, player: int | None = None) -> list[int]:
        return self._s.legal_actions(player)

    def is_terminal(self) -> bool:
        return self._s.is_terminal()

    def is_chance_node(self) -> bool:
        return self._s.is_chance_node()

    def __getattr__(self, name):  # an attribute the view has no method for: plain values read, the rest copied
        value = getattr(self._s, name)
        if type(value) in _PLAIN:
            return value
        return getattr(self._mine(), name)

    def __setattr__(self, name, value) -> None:
        setattr(self._mine(), name, value)

    def __delattr__(self, name) -> None:
        delattr(self._mine(), name)

    @property
    def __class__(self):  # isinstance(view, State) as for the state itself
        return type(self._s)

    def __dir__(self):
        return dir(self._s)

    def __copy__(self):
        return self._s.clone()

    def __deepcopy__(self, memo):
        return self._s.clone()

    def __reduce_ex__(self, protocol):
        return self._mine().__reduce_ex__(protocol)


class _HandStateView(StateView):
    """The view of a ``HandState`` that keeps its ``current_player`` and ``legal_actions``: those two read the
    state's fields and its remembered legal list directly (the same answers, one call fewer at a bot's every
    decision)."""

    __slots__ = ()

    def current_player(self) -> int:
        return self._s.player

    def legal_actions(self, player: int | None = None) -> list[int]:
        s = self._s
        if player is not None and player != s.player:
            return []
        memo = s._memo  # ``_legal_now``, inline: an experiment has just remembered the list
        if memo is not None and memo[0] == len(s._history):
            return memo[1][:]
        return s._legal_now()[:]


def _view_class(cls) -> type:
    """The ``StateView`` subclass for states of ``cls``: a forwarding method for each of ``VIEW_READS`` it has."""
    own = {"current_player", "legal_actions", "is_terminal", "is_chance_node"}
    base = StateView
    if (issubclass(cls, HandState) and cls.current_player is HandState.current_player
            and cls.legal_actions is HandState.legal_actions):
        base = _HandStateView
    lines = []
    for name in VIEW_READS:
        if name not in own and callable(getattr(cls, name, None)):
            lines += [f"def {name}(self, *args, **kwargs):", f"    return self._s.{name}(*args, **kwargs)"]
    scope: dict = {}
    exec("\n".join(lines), scope)  # noqa: S102  (the names are VIEW_READS's own)
    methods = {k: v for k, v in scope.items() if k in VIEW_READS}
    return type(f"{cls.__name__}View", (base,), {"__slots__": (), "__module__": __name__, **methods})


def state_view(state) -> StateView:
    """A copy-on-write view of the game API state ``state`` (``StateView``)."""
    cls = _VIEWS.get(type(state))
    if cls is None:
        cls = _VIEWS[type(state)] = _view_class(type(state))
    view = object.__new__(cls)
    _set(view, "_s", state)
    _set(view, "_own", False)
    return view


_set = object.__setattr__


class State(Protocol):
    """What every variant's state offers (OpenSpiel's names; the module's text says what each means)."""

    def current_player(self) -> int: ...
    def legal_actions(self, player: int | None = None) -> list[int]: ...
    def action_to_string(self, *args: int) -> str: ...
    def apply_action(self, action: int) -> None: ...
    def is_chance_node(self) -> bool: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def is_terminal(self) -> bool: ...
    def returns(self) -> list[float]: ...
    def information_state_string(self, player: int | None = None) -> str: ...
    def observation_tensor(self, player: int | None = None) -> list[float]: ...
    def clone(self) -> State: ...
    def history(self) -> list[int]: ...
    def resample_from_infostate(self, player: int, rng=None) -> State: ...


class Game(Protocol):
    """What every variant's game offers: ``Game(variant, rules)`` in the module ``Variant.game`` names."""

    rules: dict

    def new_initial_state(self) -> State: ...
    def num_players(self) -> int: ...
    def num_distinct_actions(self) -> int: ...
    def max_chance_outcomes(self) -> int: ...
    def observation_tensor_size(self) -> int: ...
    def max_game_length(self) -> int: ...


def game(variant, rules: dict | None = None) -> Game:
    """The ``Game`` of ``variant`` (a name, an alias or a ``Variant``) under ``rules`` (resolved as everywhere)."""
    from bower.sim.rules import resolve
    from bower.sim.variants import all_variants, get_variant

    v = get_variant(variant)
    if not v.game:
        have = [x.name for x in all_variants() if x.game]
        raise GameError(f"{v.name} has no game API yet (variants with one: {', '.join(have) or 'none'})")
    return importlib.import_module(v.game).Game(v, resolve(v, rules))


def uniform_source(rng) -> Callable[[], float]:
    """A function returning uniform floats in [0, 1) from ``rng`` (see the module's text for what it may be)."""
    if rng is None or (isinstance(rng, int) and not isinstance(rng, bool)):
        return random.Random(rng).random
    draw = getattr(rng, "random", None)
    if callable(draw):  # random.Random, numpy.random.Generator / RandomState
        return lambda: float(draw())
    if callable(rng):
        return rng
    raise GameError(f"rng must be a random.Random, a numpy Generator, a seed or a function, got {type(rng).__name__}")


def _below(u: Callable[[], float], n: int) -> int:
    """A uniform integer in [0, n)."""
    return min(int(u() * n), n - 1)


def _shuffle(items: list, u: Callable[[], float]) -> None:
    for i in range(len(items) - 1, 0, -1):
        j = _below(u, i + 1)
        items[i], items[j] = items[j], items[i]


def draw_hidden(cards: Sequence[int], group: Callable[[int], int], slots: Sequence[tuple[int, frozenset]],
                rng, tries: int = REJECTION_TRIES) -> list[list[int]]:
    """Deal ``cards`` into ``slots`` (size, groups refused), uniformly among the assignments no slot refuses.

    ``group(card)`` is the card's group (its suit as play sees it); a slot
    refuses the groups its holder has shown void in. The sizes add up to
    ``len(cards)``. The draw: up to ``tries`` shuffles cut into the slots,
    the first that breaks no void kept (each accepted shuffle is uniform
    among the consistent assignments); failing those, an exact draw: the
    number of consistent assignments counted group by group over the slots'
    room left (a product of binomials), each group's split among the slots
    drawn in proportion to the assignments it leaves, then the group's cards
    shuffled into that split. Both are uniform, so their mixture is too.
    GameError when no assignment exists.
    """
    u = uniform_source(rng)
    cards = list(cards)
    sizes = [int(s) for s, _ in slots]
    refused = [frozenset(r) for _, r in slots]
    if sum(sizes) != len(cards):
        raise GameError(f"{len(cards)} hidden cards for slots of {sum(sizes)}")
    groups = [group(c) for c in cards]
    if not any(refused):
        tries = max(tries, 1)  # nothing to reject: one shuffle is the draw
    for _ in range(tries):
        order = list(range(len(cards)))
        _shuffle(order, u)
        out, k, ok = [], 0, True
        for size, bad in zip(sizes, refused):
            part = order[k:k + size]
            k += size
            if bad and any(groups[i] in bad for i in part):
                ok = False
                break
            out.append([cards[i] for i in part])
        if ok:
            return out
    return _exact_draw(cards, groups, sizes, refused, u)


def _exact_draw(cards, groups, sizes, refused, u) -> list[list[int]]:
    labels = sorted(set(groups))
    members = {g: [c for c, x in zip(cards, groups) if x == g] for g in labels}
    allowed = [[i for i in range(len(sizes)) if g not in refused[i]] for g in labels]

    def splits(n: int, slots: list[int], room: tuple) -> list[tuple]:
        """Every way to put n cards into ``slots`` within ``room``: tuples of counts by slot."""
        if not slots:
            return [tuple([0] * len(room))] if n == 0 else []
        out = []
        first, rest = slots[0], slots[1:]
        for k in range(min(n, room[first]), -1, -1):
            left = list(room)
            left[first] -= k
            for tail in splits(n - k, rest, tuple(left)):
                t = list(tail)
                t[first] += k
                out.append(tuple(t))
        return out

    @lru_cache(maxsize=None)
    def count(gi: int, room: tuple) -> int:
        if gi == len(labels):
            return 1 if not any(room) else 0
        n = len(members[labels[gi]])
        total = 0
        for split in splits(n, allowed[gi], room):
            ways = 1
            left = n
            for k in split:
                ways *= comb(left, k)
                left -= k
            total += ways * count(gi + 1, tuple(r - k for r, k in zip(room, split)))
        return total

    room = tuple(sizes)
    if count(0, room) == 0:
        raise GameError("no deal is consistent with what the player has seen")
    out: list[list[int]] = [[] for _ in sizes]
    for gi, g in enumerate(labels):
        n = len(members[g])
        options = []
        for split in splits(n, allowed[gi], room):
            ways = 1
            left = n
            for k in split:
                ways *= comb(left, k)
                left -= k
            w = ways * count(gi + 1, tuple(r - k for r, k in zip(room, split)))
            if w:
                options.append((w, split))
        pick = _below(u, sum(w for w, _ in options))
        for w, split in options:
            if pick < w:
                break
            pick -= w
        hand = list(members[g])
        _shuffle(hand, u)
        k = 0
        for i, m in enumerate(split):
            out[i].extend(hand[k:k + m])
            k += m
        room = tuple(r - m for r, m in zip(room, split))
    return out
