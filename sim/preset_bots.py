"""bower's strategy presets as bots: ``bower.bot("default", variant=...)`` decides as the kernels' strategy does.

A ``PresetBot`` holds one heuristic strategy (a preset name, a ``.toml``
file or a parameter dict: ``bower.sim.strategy.load_strategy``) and, at each
decision of a game API state, returns the action the kernels' strategy takes
in that position. It calls the kernels' own decision functions from Python
(Numba kernels are callable from Python): the estimates, the calls, the
discard and the lead and follow policies of the shared trick core
(``bower.kernels.trick``: ``lead_slot``, ``follow_slot``, in slot space), on
the strategy rows the kernels read (``runner.seat_params``, the card weights
``wt``), built once per bot and game. It reads only what its seat may know:
its own hand, the up-card, the calls and answers made, trump and the maker,
and the cards played (the dealer its own discard); never another seat's hand.

Each variant's decisions live in its own module, ``preset_bot`` beside its
game API module (``Variant.game``): its ``Player(params, game)`` gives
``step(state) -> action``; this module only finds it and shares the card
play.

A strategy that plays at random (the ``random`` parameter) draws a uniform
legal action from the bot's own ``random.Random(seed)``: the same strategy as
the kernels' random player, not the same draws (the kernels draw from their
chunk's decision stream). A variant's module may play a PIMC strategy's
cards by the kernels' search for one decision (``bower.kernels.pimc.choose``:
``pimc_card``; ``pimc-fast`` ...) and its searched auction (``pimc_bid``:
``pimc-bid``, ``pimc``) by the kernels' own value functions of one seat's
choice, drawing its worlds from the
bot's decision stream (``stream``: for a whole-number seed the kernels' own
stream of a run's first chunk of hands, so a bot at every seat draws what the
kernels draw); the searches a variant's module cannot make for one decision
(the auction-weighted worlds, the true hands) are refused in one line
(``searches``).
"""

from __future__ import annotations

import importlib
import random

import numpy as np

from bower.kernels.tables import SLOT_ORDER, SLOT_RANK, SLOT_SUIT, SLOT_SUIT_OF, S_TRUMPS
from bower.kernels.trick import follow_slot, lead_slot, to_slots

JOKER = 24


def player_module(variant):
    """The variant's ``preset_bot`` module (beside its game API module, ``Variant.game``), or None without one."""
    if not variant.game:
        return None
    name = variant.game.rsplit(".", 1)[0] + ".preset_bot"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name == name:
            return None
        raise


def slot(card: int, trump: int) -> int:
    """A card's slot (``bower.kernels.tables`` slot space) under ``trump``; the joker (card 24) in slot 25."""
    return 25 if card == JOKER else int(SLOT_RANK[trump, card])


def card_of(v: int, trump: int) -> int:
    """The card in slot ``v`` under ``trump`` (slot 25: the joker)."""
    return JOKER if v == 25 else int(SLOT_ORDER[trump, v])


def follow_card(hand: int, trick, trump: int, held_by_partner) -> int:
    """The kernels' heuristic follow (``follow_slot``) of ``hand`` to the ``trick`` in progress, as a card;
    ``held_by_partner(winner)``: whether the seat now winning the trick is on the player's side."""
    v = int(to_slots(np.int64(hand), np.int64(trump)))
    lead = slot(trick[0][1], trump)
    led = int(SLOT_SUIT[lead])
    winning, winner = lead, trick[0][0]
    for seat, card in trick[1:]:
        c = slot(card, trump)
        if (((led | int(S_TRUMPS)) & -(2 << winning)) >> c) & 1:
            winning, winner = c, seat
    c, _ = follow_slot(np.int64(v), np.int64(led), np.int64(winning), bool(held_by_partner(winner)))
    return card_of(int(c), trump)


def lead_card(hand: int, played: int, trump: int, deck: int, is_maker: bool, is_partner: bool, lead_min: float,
              nx_suit: int) -> int:
    """The kernels' heuristic lead (``lead_slot``) from ``hand``, as a card: ``played`` every card played this
    hand (a card mask), ``deck`` every card in play in slot space, ``nx_suit`` the suit of a "next" lead on the
    first trick (-1: none)."""
    v = int(to_slots(np.int64(hand), np.int64(trump)))
    seen = int(to_slots(np.int64(played), np.int64(trump)))
    nx = (v & int(SLOT_SUIT_OF[trump, nx_suit])) if nx_suit >= 0 else 0
    s = int(lead_slot(np.int64(v), np.int64(deck & ~v & ~seen), bool(is_maker), bool(is_partner), np.int64(nx),
                      float(lead_min)))
    return card_of(s, trump)


def write_plays(st, rec, off: int) -> int:
    """The cards played so far in the hand of ``st`` (its tricks, then the trick in progress) into ``rec[off:]`` as
    the kernels' records hold them (seat, card); returns how many."""
    n = 0
    for _, cards, _ in st.tricks:
        for s, c in cards:
            rec[off + 2 * n], rec[off + 2 * n + 1] = s, c
            n += 1
    for s, c in st.trick:
        rec[off + 2 * n], rec[off + 2 * n + 1] = s, c
        n += 1
    return n


def pimc_card(hand: int, seat: int, facts, trump: int, deck, rec, off: int, n: int, worlds: int, stream, ws) -> int:
    """The card the kernels' PIMC seat plays (``bower.kernels.pimc.choose``, as the variants' ``pick_card`` calls
    it without ``pimc_sees_all``): ``facts`` the variant's ``pimc_facts`` of ``rec`` (the public record of the hand,
    ``n`` plays at ``off``), ``worlds`` worlds drawn from ``stream`` (``(dstate, dbuf)``), ``ws`` the hand's
    workspace (``pimc.new_workspace``)."""
    from bower.kernels import pimc

    active, sides, known, pin, pin_allow = facts
    dstate, dbuf = stream
    z = np.int64(0)
    return int(pimc.choose(np.int64(hand), np.int64(seat), active, np.int64(trump), sides, deck, known, pin, pin_allow,
                           rec, np.int64(off), np.int64(n), np.int64(worlds), False, z, z, z, z, dstate, dbuf, ws))


class EquityTables:
    """The game-equity bidder's tables for the game of one bot (``bid_equity``), as the runner's ``GamesKernel``
    gets them: the variant's ``equity_strategy.kernel_tables`` for the game's rule vector and a target (the state's
    ``game_target()``), at the module's precision, built or read once and kept for each target."""

    def __init__(self, game):
        from bower.sim.rules import encode

        self.module = importlib.import_module(game.variant.game.rsplit(".", 1)[0] + ".equity_strategy")
        self.rules = encode(game.variant, game.rules)
        self.by_target: dict = {}

    def __call__(self, target: int) -> np.ndarray:
        """The flattened tables for a game to ``target``."""
        flat = self.by_target.get(target)
        if flat is None:
            flat = self.by_target[target] = self.module.kernel_tables(self.rules, int(target))
        return flat


def searched_parts(params, pimc: int, bid: int, infer: int, sees: int) -> str:
    """What the strategy rows ``params`` search that a bot cannot, as the names of their switches (a searched
    auction ``pimc_bid``, auction-weighted worlds ``pimc_infer``, the true hands ``pimc_sees_all``); "" when
    nothing: heuristic calls with PIMC cards are a bot. ``pimc`` ... ``sees``: the variant's parameter columns
    (``bid`` -1: the variant's bot searches the auction too)."""
    if params[0, pimc] < 1.0:
        return ""
    return ", ".join(name for q, name in ((bid, "pimc_bid"), (infer, "pimc_infer"), (sees, "pimc_sees_all"))
                     if q >= 0 and params[0, q] >= 0.5)


def hand_workspace(st, ws):
    """A PIMC workspace for the hand of ``st``: a fresh one at its first lead (as each kernel hand makes one),
    else ``ws``."""
    from bower.kernels import pimc

    return pimc.new_workspace() if ws is None or (not st.tricks and not st.trick) else ws


class PresetBot:
    """A heuristic strategy of the kernels as a bot (see the module): ``step(state)`` is the kernels' decision.

    ``variant``: a ``Variant``; ``name``: what experiments call it;
    ``params``: the strategy's parameter vector (``strategy.to_vector``);
    ``seed``: the stream of a strategy that plays at random.
    """

    _bower_read_only = True  # ``step`` only reads the state: an experiment gives it the state itself, no clone

    def __init__(self, variant, name: str, params: np.ndarray, seed=0):
        self.variant = variant
        self.name = name
        self.seed = seed
        self.params = np.ascontiguousarray(np.tile(np.asarray(params, np.float64), (variant.players, 1)))
        self.rng = random.Random(seed)
        # the decision stream of a searching strategy: a whole-number seed's is the kernels' own stream of a run's
        # first chunk of hands (``runner.decision_states``), any other seed's a number drawn from it
        from bower.sim.runner import decision_states

        whole = isinstance(seed, int) and not isinstance(seed, bool) and seed >= 0
        self.stream = (decision_states(seed if whole else random.Random(seed).getrandbits(63), 0, 1)[0].copy(),
                       np.zeros(2, np.int64))
        self._module = player_module(variant)
        self._game = None
        self._player = None
        self.random = bool(self._module.plays_at_random(self.params))

    def __repr__(self) -> str:
        return f"<bower preset bot: {self.name} ({self.variant.name})>"

    def restart(self) -> None:
        """A new hand: a searched auction forgets the last hand's workspace and searched choices (``new_hand``),
        even when the next hand is dealt the same cards (should-bid's play-outs of one deal); every other decision
        is read off the state, and a random stream goes on."""
        if self._player is not None and hasattr(self._player, "new_hand"):
            self._player.new_hand()

    def step(self, state) -> int:
        """The action the kernels' strategy takes at ``state`` for the seat to act."""
        if self.random:
            legal = state.legal_actions()
            return legal[self.rng.randrange(len(legal))]
        if state.game is not self._game:
            self._player = self._module.Player(self.params, state.game, self.stream)
            self._game = state.game
        return self._player.step(state)


def preset_bot(variant, strategy="default", seed=0) -> PresetBot:
    """A ``PresetBot`` of ``strategy`` (a preset name, a ``.toml`` path or a parameter dict) for ``variant``;
    ``BotError`` in one line for a variant without preset bots or a strategy that searches (PIMC)."""
    from bower.sim.bots import BotError
    from bower.sim.strategy import load_strategy, to_vector

    module = player_module(variant)
    if module is None:
        raise BotError(f"{variant.title} has no strategy presets as bots yet")
    name, params = load_strategy(strategy, variant.name)
    vec = to_vector(params, variant.name)
    rows = np.tile(vec, (variant.players, 1))
    if module.plays_at_random(rows):
        return PresetBot(variant, name, vec, seed)
    if module.searches(rows):
        raise BotError(f"the strategy {name!r} searches (PIMC: {module.searches(rows)}) on what one seat's state "
                       f"does not hold (worlds weighed by the kernels' whole record of the hand, or the true "
                       f"hands): it is not available as a bot")
    return PresetBot(variant, name, vec, seed)
