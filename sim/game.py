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
  deals consistent with what ``player`` knows.

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
from functools import lru_cache
from math import comb
from typing import Callable, Protocol, Sequence

from bower.sim.errors import UserError

CHANCE = -1  # pyspiel.PlayerId.CHANCE
TERMINAL = -4  # pyspiel.PlayerId.TERMINAL

REJECTION_TRIES = 64  # shuffles tried by ``draw_hidden`` before its exact draw


class GameError(UserError, ValueError):
    """A game API call the rules do not allow: an illegal action, a seat that is not at the table, no API yet."""


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
