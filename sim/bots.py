"""Python bots as players: bower's own (``bower.bot``), a user's class, and the experiments, sweeps
(``run_bot_sweep``) and should-bid play-outs (``SeatPlayer``) that play them.

A bot is any object with ``step(state) -> action``: ``state`` is a game API
state (``bower.sim.game``) at a decision of the seat the bot holds
(``state.current_player()``), and the action is one of
``state.legal_actions()``. OpenSpiel's ``pyspiel.Bot`` is accepted as it is.
What an experiment calls, exactly:

- ``restart_at(state)`` (or, failing that, ``restart()``), when the bot has
  one, once per bot object at the start of every hand, on the state after
  the deal (before the first decision);
- ``step(state)`` at each decision of a seat the bot holds, on a
  copy-on-write view of the hand's state (``bower.sim.game.StateView``: it
  reads the state itself and becomes a clone on the bot's first write, so
  a bot may change it and the game goes on from its own; bower's own
  ``random``, ``greedy`` and strategy bots, which only read it, get the
  state itself);
- ``inform_action(state, player, action)``, when the bot has one, after
  every decision taken by a seat the bot does not hold, with a view of the
  state before the action (``restart_at`` gets a view too).

One bot object holds every seat its player holds in a game (two partners in
Euchre, two of the three seats in AAB), so ``current_player()`` tells it
which seat is asked. A bot that raises, or returns something that is not a
legal action, or takes longer than the experiment's ``bot_timeout``
(``--bot-timeout``, 60 s a call by default) to answer one call, stops the
experiment with one line (``BotError``, a ``BowerError``; exit 2 on the
command line) naming the bot, the game, the hand, the seat and the action.
The time limit interrupts a bot's Python code (``SIGALRM`` in the main
thread; elsewhere the call runs in a helper thread that is left behind); a
bot blocked inside C code that never returns to Python is stopped only when
it does.

``bower.bot(name, variant=...)`` gives bower's players as bots: ``random``
(a uniform legal action, seeded), ``greedy`` (a plain-Python lookahead,
see ``GreedyBot``) and the heuristic strategy presets (``default``,
``aggressive`` ..., a ``.toml`` file or a parameter dict), which decide as
the kernels' strategy does, through the kernels' own decision functions
(``bower.sim.preset_bots``), and the PIMC presets, searching as the kernels
do (not the auction-weighted or all-seeing searches). In an experiment a bare preset name plays in
the kernels when no player is a bot, and as a bot beside one;
``bot:default`` makes it a bot always.
"""

from __future__ import annotations

import importlib.util
import itertools
import math
import numbers
import os
import random
import signal
import sys
import threading
import time
from sys import getrefcount
from threading import get_ident
from time import monotonic
from typing import Callable

import numpy as np

from bower.sim.errors import UserError, one_line
from bower.sim.game import state_view
from bower.sim.limits import BOT_TIMEOUT
from bower.sim.text import did_you_mean

MAX_HANDS = 1000  # a game with no winner after this many hands is unfinished (as the kernels' games)
BOT_NAMES = ("random", "greedy")


class BotError(UserError):
    """A bot that cannot be loaded or made, or that misbehaved in a game: one line naming it."""


# ---------------------------------------------------------------- bower's own bots


class RandomBot:
    """A uniform legal action at every decision, from its own ``random.Random(seed)``."""

    def __init__(self, seed: int | str | None = 0):
        self.seed = seed
        self.rng = random.Random(seed)

    def restart(self) -> None:
        """Nothing to forget between hands (the random stream goes on)."""

    def step(self, state) -> int:
        """A legal action of ``state``, each equally likely."""
        return self.pick(state.legal_actions())

    def pick(self, legal: list[int]) -> int:
        """The action ``step`` takes when the legal actions are ``legal``: ``legal[rng.randrange(len(legal))]``
        (drawn by ``_randbelow``, the function ``randrange`` calls for a positive bound: the same numbers). An
        experiment calls it with the state's remembered legal list (``asker``)."""
        return legal[self.rng._randbelow(len(legal))]


class GreedyBot:
    """One decision's lookahead: the action whose hand ends best for its seat over a few sampled worlds.

    At a decision with one legal action it takes it. Otherwise it draws
    ``samples`` deals consistent with what its seat knows
    (``resample_from_infostate``), and in each world tries every legal
    action, then plays the rest of the hand with uniform random actions
    (from its own seeded stream); an action's value is the mean over the
    worlds of its seat's points minus the best points of a seat not on its
    side. It takes the best value, the first of the legal order on a tie.
    A plain-Python heuristic over the game API, for any variant that has
    one; it is not a kernel strategy.
    """

    def __init__(self, seed: int | str | None = 0, samples: int = 4):
        self.seed = seed
        self.samples = int(samples)
        self.rng = random.Random(seed)

    def restart(self) -> None:
        """Nothing to forget between hands."""

    def step(self, state) -> int:
        """The legal action with the best sampled value (see the class)."""
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        seat = state.current_player()
        n = state.num_players()
        mine = _side(seat, n)
        totals = [0.0] * len(legal)
        for _ in range(self.samples):
            world = state.resample_from_infostate(seat, self.rng)
            for i, a in enumerate(legal):
                s = world.clone()
                s.apply_action(a)
                while not s.is_terminal():
                    acts = s.legal_actions()
                    s.apply_action(acts[self.rng.randrange(len(acts))])
                r = s.returns()
                others = [r[p] for p in range(n) if _side(p, n) != mine]
                totals[i] += r[seat] - max(others)
        best = max(range(len(legal)), key=lambda i: (totals[i], -i))
        return legal[best]


_READ_ONLY = (RandomBot, GreedyBot)  # bots whose ``step`` never changes the state it is given


def _side(seat: int, players: int) -> int:
    """The side of a seat: partners sit opposite at four seats; at three each seat is its own side."""
    return seat % 2 if players == 4 else seat


BOT_PREFIX = "bot:"  # ``bot:default``: a strategy preset (or .toml) as a bot, where a bare name plays in the kernels


def preset_name(spec) -> str | None:
    """The strategy of a ``bot:NAME`` spec (``bot:default``, ``bot:my.toml``), else None."""
    if isinstance(spec, str) and spec.startswith(BOT_PREFIX) and not is_file_spec(spec):
        return spec[len(BOT_PREFIX):]
    return None


def bot(name, variant="ghost", seed: int | str | None = 0, **options):
    """bower's player ``name`` as a bot for ``variant``: ``random`` or ``greedy`` (``options``: ``samples``), or a
    heuristic strategy (a preset name, a ``.toml`` path, a parameter dict; ``bot:NAME`` too) deciding as the
    kernels do (``bower.sim.preset_bots``)."""
    from bower.sim.game import game as make_game
    from bower.sim.preset_bots import preset_bot
    from bower.sim.strategy import Strategy
    from bower.sim.variants import get_variant

    v = get_variant(variant)
    make_game(v)  # GameError when the variant has no game API yet
    strategy = preset_name(name)
    if strategy is None and isinstance(name, str) and name in BOT_NAMES:
        if name == "random":
            if options:
                raise BotError(f"bot 'random' takes no options (got {', '.join(options)})")
            return RandomBot(seed)
        extra = set(options) - {"samples"}
        if extra:
            raise BotError(f"bot 'greedy' takes only samples= (got {', '.join(sorted(extra))})")
        samples = options.get("samples", 4)
        if not isinstance(samples, numbers.Integral) or isinstance(samples, bool) or samples < 1:
            raise BotError(f"bot 'greedy': samples must be a whole number of at least 1, got {samples!r}")
        return GreedyBot(seed, samples=int(samples))
    if strategy is None and (isinstance(name, (dict, Strategy)) or (isinstance(name, str) and (
            name in v.presets or name.lower().endswith(".toml")))):
        strategy = name
    if strategy is not None:
        if options:
            raise BotError(f"a strategy as a bot takes no options (got {', '.join(sorted(options))}): "
                           f"give its parameters as a dict or a .toml file")
        return preset_bot(v, strategy, seed)
    names = [*BOT_NAMES, *v.presets]
    raise BotError(f"unknown bot {name!r}{did_you_mean(str(name), names)} (bots: {', '.join(BOT_NAMES)}, "
                   f"or a strategy preset: {', '.join(v.presets)})")


# ---------------------------------------------------------------- a user's bot from a file


def is_file_spec(spec) -> bool:
    """``path.py:Class``: a bot class in a Python file."""
    if not isinstance(spec, str) or ":" not in spec:
        return False
    path = spec.rsplit(":", 1)[0]
    return path.lower().endswith(".py")


def is_bot(spec) -> bool:
    """Whether a player spec is a bot: an object with ``step``, or a ``path.py:Class``."""
    return is_file_spec(spec) or (not isinstance(spec, (str, dict)) and callable(getattr(spec, "step", None)))


def needs_bots(specs) -> bool:
    """Whether an experiment of these players plays through the game API: one is a bot, or names a bot only.

    ``greedy`` is a bot only; ``random`` is also a kernel preset, so
    ``random`` against a preset stays in the kernels.
    """
    return any(is_bot(s) or preset_name(s) is not None or (isinstance(s, str) and s in BOT_NAMES and s != "random")
               for s in specs)


def load_bot(spec: str):
    """An instance of the class ``Class`` of the file ``path.py`` in ``path.py:Class``, made with no arguments."""
    return make_bot(load_bot_class(spec), spec)


def make_bot(cls, spec: str, **kwargs):
    """``cls(**kwargs)``, checked to be a bot; BotError in one line naming ``spec`` when it raises or has no step."""
    cls_name = getattr(cls, "__name__", type(cls).__name__)
    try:
        obj = cls(**kwargs)
    except Exception as e:  # noqa: BLE001
        args = ", ".join(f"{k}={v!r}" for k, v in kwargs.items())
        raise BotError(f"bot {spec!r}: {cls_name}({args}) raised {type(e).__name__}: {one_line(e)}") from None
    check_bot(obj, spec)
    return obj


def load_bot_class(spec: str):
    """The class ``Class`` of the file ``path.py`` in ``path.py:Class`` (BotError in one line when it cannot)."""
    path, cls_name = spec.rsplit(":", 1)
    if not os.path.isfile(path):
        raise BotError(f"bot {spec!r}: no file {path!r}")
    mod_name = "bower_bot_" + "".join(c if c.isalnum() else "_" for c in os.path.abspath(path))
    try:
        loader_spec = importlib.util.spec_from_file_location(mod_name, path)
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[mod_name] = module
        loader_spec.loader.exec_module(module)
    except BaseException as e:  # noqa: BLE001 - anything the file raises is the file's fault
        sys.modules.pop(mod_name, None)
        if isinstance(e, KeyboardInterrupt):
            raise
        raise BotError(f"bot {spec!r}: loading {path} raised {type(e).__name__}: {one_line(e)}") from None
    cls = getattr(module, cls_name, None)
    if cls is None:
        have = [k for k, x in vars(module).items() if isinstance(x, type) and x.__module__ == mod_name]
        raise BotError(f"bot {spec!r}: {path} has no {cls_name!r}{did_you_mean(cls_name, have)}"
                       f" (classes: {', '.join(have) or 'none'})")
    return cls


def check_bot(obj, name: str) -> None:
    """BotError unless ``obj`` has a callable ``step``."""
    if not callable(getattr(obj, "step", None)):
        raise BotError(f"bot {name!r}: {type(obj).__name__} object has no step(state) method")


def bot_name(obj) -> str:
    """What an experiment calls a bot object: its ``name`` attribute when a string, else its class's name."""
    name = getattr(obj, "name", None)
    return name if isinstance(name, str) and name else type(obj).__name__


# ---------------------------------------------------------------- whole games through the game API


class _Where:
    """Where a decision is, for the one-line errors: deal set, assignment, hand of the game."""

    def __init__(self, set_no: int, row: int, hand: int):
        self.set_no, self.row, self.hand, self.decision = set_no, row, hand, 0

    def __str__(self) -> str:
        at = f", decision {self.decision}" if self.decision else ""
        return f"deal set {self.set_no}, seat assignment {self.row + 1}, hand {self.hand}{at}"


class _TimedOut(BaseException):
    """Raised inside a bot's call when its time is up (not an ``Exception``: a bot's ``except Exception`` cannot
    swallow it)."""


def check_timeout(seconds) -> float | None:
    """``seconds`` as the limit on one call of a bot (None: no limit); BotError unless a positive finite number."""
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real) or not 0 < float(seconds) < math.inf:
        raise BotError(f"bot_timeout is a positive number of seconds (or None: no limit), not {seconds!r}")
    return float(seconds)


class _Clock:
    """The bots' time limit in the main thread: one ``SIGALRM`` handler and a repeating interval timer for a whole
    game (``with _Clock(timeout):``), not a handler and a timer set and put back around every call.

    While a bot's call runs (``_call``), ``deadline`` holds the moment its
    time is up; the timer ticks every ``timeout / 10`` seconds (at most 0.1
    s), and a tick past the deadline raises ``_TimedOut`` inside the call.
    So a call is stopped between its timeout and its timeout plus a tick;
    between calls the ticks do nothing. Setting a handler and a timer and
    putting them back cost two system calls and two ``signal.signal`` a
    call, about a fifth of a random bot's experiment.
    """

    active: "_Clock | None" = None  # the clock of the game running in the main thread, if any

    def __init__(self, timeout: float | None):
        self.timeout = timeout
        self.deadline = None
        self._old = None
        self._on = (timeout is not None and hasattr(signal, "setitimer")
                    and threading.current_thread() is threading.main_thread())
        self.thread = threading.get_ident()

    def __enter__(self) -> "_Clock":
        if self._on:
            self._old = signal.signal(signal.SIGALRM, self._alarm)
            tick = min(0.1, self.timeout / 10)
            signal.setitimer(signal.ITIMER_REAL, tick, tick)
            self._outer, _Clock.active = _Clock.active, self
        return self

    def __exit__(self, *exc) -> None:
        if self._on:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, self._old)
            _Clock.active = self._outer

    def _alarm(self, signum, frame) -> None:
        end = self.deadline
        if end is not None and time.monotonic() >= end:
            self.deadline = None
            raise _TimedOut

    def call(self, fn, args):
        """``fn(*args)`` with the deadline set while it runs."""
        self.deadline = time.monotonic() + self.timeout
        try:
            return fn(*args)
        finally:
            self.deadline = None


def _call(fn, args, timeout):
    """``fn(*args)``, raising ``_TimedOut`` when it takes longer than ``timeout`` seconds (None: no limit).

    In the main thread the game's clock (``_Clock``, set by ``play_game``) stops the call; in another thread, or
    where there is no ``setitimer``, the call runs in a daemon thread, which is left running when its time is up.
    """
    if timeout is None:
        return fn(*args)
    clock = _Clock.active
    if clock is not None and clock.timeout == timeout and clock.thread == threading.get_ident():
        return clock.call(fn, args)
    box = {}

    def run():
        try:
            box["value"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
            box["error"] = e

    t = threading.Thread(target=run, name="bower-bot-call", daemon=True)
    t.start()
    t.join(timeout)
    if t.is_alive():
        raise _TimedOut
    if "error" in box:
        raise box["error"]
    return box.get("value")


def _trusted(obj) -> bool:
    """Whether ``obj`` is one of bower's own bots, which only read the state they are given (it gets the state
    itself; any other bot a copy-on-write view of it, ``bower.sim.game.state_view``)."""
    return type(obj) in _READ_ONLY or bool(getattr(type(obj), "_bower_read_only", False))


def asker(obj, name: str, where, timeout: float | None = None, clock: "_Clock | None" = None) -> Callable:
    """``ask(state)``: the checked answer of bot ``obj`` at ``state`` (a game API state,
    ``bower.sim.game.HandState``), BotError in one line when it raises, is out of time or answers an action that
    is not legal.

    What depends on the bot alone is worked out once: bower's random bot
    draws from the state's remembered legal list (``RandomBot.pick``);
    bower's other bots get the state itself; any other bot a copy-on-write
    view of it (``bower.sim.game.StateView``: its reads read the state, its
    first write clones it, so the bot cannot change the game), one view
    used again from decision to decision of a hand until the bot writes to
    it or keeps it (a view still held by the bot after its call is
    detached, a clone from then on, so it stays the state it was given).
    ``timeout``: the seconds a call may take (None: no limit), by the game's
    clock (``_Clock``) when it runs in this thread, else by ``_call``;
    ``clock``: the clock of the game the function serves, entered, in this
    thread, for this ``timeout``, when the caller has one (else the clock
    running is looked up at each call).
    """
    if type(obj) is RandomBot:  # its step's draw from the same list, legal by construction
        pick = obj.pick
        return lambda state: pick(state._legal_now())
    step = obj.step
    trusted = _trusted(obj)
    view = None
    own_clock = clock if clock is not None and clock._on and _Clock.active is clock and clock.timeout == timeout \
        and clock.thread == get_ident() else None

    def ask(state):
        nonlocal view
        n, memo = len(state._history), state._memo  # ``state._legal_now()``, inline: its remembered list, read only
        if memo is not None and memo[0] == n:
            legal = memo[1]
        else:
            legal = state._legal()
            state._memo = (n, legal)
        if trusted:
            given = state
        else:
            given = view
            if given is None or given._own or given._s is not state:
                given = view = state_view(state)
        held = getrefcount(given)
        c = own_clock
        if c is None:
            c = _Clock.active
            if c is not None and not (c.timeout == timeout and c.thread == get_ident()):
                c = None
        try:
            if c is not None:
                c.deadline = monotonic() + timeout  # ``_Clock.call``, inline
                try:
                    action = step(given)
                finally:
                    c.deadline = None
            else:
                action = _call(step, (given,), timeout)
        except _TimedOut:
            raise BotError(f"bot {name!r} took longer than {timeout:g} s (the bot timeout) to choose an action at "
                           f"seat {state.player} ({where})") from None
        except Exception as e:  # noqa: BLE001 - a bot's own fault, said in one line
            raise BotError(f"bot {name!r} raised {type(e).__name__}: {one_line(e)} at seat {state.player} "
                           f"({where})") from None
        if not trusted and getrefcount(given) > held:  # the bot kept the view: it stays the state it was given
            given.detach()
        if type(action) is int:
            if action in legal:
                return action
        elif isinstance(action, numbers.Integral) and not isinstance(action, bool) and int(action) in legal:
            return int(action)
        words = ", ".join(f"{a}={state.action_to_string(a)}" for a in legal)
        raise BotError(f"bot {name!r} returned {action!r}, not a legal action, at seat {state.player} ({where}; "
                       f"legal: {words})")

    return ask


def _notify(obj, name, method, where, *args, timeout: float | None = None):
    """Call the bot's ``method`` (when it has one) with ``args``, a game API state first when there is one (the
    state itself to bower's own bots, a copy-on-write view to others, as ``asker`` gives it); BotError in one line
    when it raises or is out of time."""
    fn = getattr(obj, method, None)
    if not callable(fn):
        return
    given = None
    if args and not _trusted(obj):
        given = state_view(args[0])
        args = (given, *args[1:])
    held = 0 if given is None else getrefcount(given)
    try:
        _call(fn, args, timeout)
    except _TimedOut:
        raise BotError(f"bot {name!r} took longer than {timeout:g} s (the bot timeout) in {method} ({where})") from None
    except Exception as e:  # noqa: BLE001
        raise BotError(f"bot {name!r} raised {type(e).__name__} in {method}: {one_line(e)} ({where})") from None
    if given is not None and getrefcount(given) > held:  # kept by the bot: it stays the state it was given
        given.detach()


def _restart(obj, name, state, where, timeout=None):
    if callable(getattr(obj, "restart_at", None)):
        _notify(obj, name, "restart_at", where, state, timeout=timeout)
    else:
        _notify(obj, name, "restart", where, timeout=timeout)


def play_game(game, variant, seat_bots: list, seat_names: list, deal_key: str, where: _Where,
              timeout: float | None = None):
    """One whole game to the variant's target: (winning unit or None, hands, points by seat-hand, first dealer, scores,
    bonus), ``bonus`` the game's points outside the hands' as (events, points): under Euchre's ``four_trick_tokens``
    the tokens earned and the points of tokens turned in ((0, 0) without such a rule).
    ``timeout``: the seconds a bot may take to answer one call (None: no limit).

    Hand ``h`` is dealt from ``random.Random(f"{deal_key}:{h}")`` and the
    first dealer from ``random.Random(deal_key)``, so games with the same
    ``deal_key`` see the same deals whoever sits where; the dealer moves one
    seat to the left each hand. A variant's game points outside the hands'
    (``CardPlay.game_bonus``: Euchre's ``four_trick_tokens``) go into the
    scores, not into the points by seat-hand.
    """
    players = game.num_players()
    units = [str(u) for u in range(variant.score_units)]
    scores = {u: 0 for u in units}
    dealer = random.Random(deal_key).randrange(players)
    distinct = []
    for obj, name in zip(seat_bots, seat_names):
        if all(obj is not o for o, _ in distinct):
            distinct.append((obj, name))
    with _Clock(timeout) as clock:
        return _play_game(game, variant, seat_bots, seat_names, deal_key, where, timeout, players, units, scores,
                          dealer, distinct, clock)


def _play_game(game, variant, seat_bots, seat_names, deal_key, where, timeout, players, units, scores, dealer,
               distinct, clock):
    """``play_game``'s hands, inside its bots' clock (``clock``)."""
    first_dealer = dealer
    target = int(variant.target)
    now = tuple(scores[u] for u in units)  # the game's scores before the hand, as the hand's state holds them
    state_tb = None
    cp = variant.card_play
    bonus = cp.game_bonus if cp.game_bonus is not None and game.rules.get(cp.bonus_rule) else None
    bonus_state = None  # Euchre's four_trick_tokens: each side's tokens (``CardPlay.game_bonus``)
    earned = bonus_points = 0  # tokens earned (a hand earns at most one) and the points of those turned in
    points = []  # per hand, returns by seat
    winner = None
    informed = [(o, n) for o, n in distinct if callable(getattr(o, "inform_action", None))]  # told of others' actions
    restarted = [(o, n) for o, n in distinct if type(o) is not RandomBot]  # the random bot's restart does nothing
    by_bot = {id(o): asker(o, n, where, timeout, clock) for o, n in distinct}  # one ask (and one view) a bot object
    asks = [by_bot[id(o)] for o in seat_bots]
    for h in range(1, MAX_HANDS + 1):
        where.hand = h
        rng = random.Random(f"{deal_key}:{h}")
        st = game.new_initial_state()
        st._scores, st._target = now, target  # ``new_initial_state(scores=now, target=target)``, checked already
        st._apply_legal(dealer)  # a seat: ``apply_action(dealer)`` without the check
        st.deal_random(rng)  # each card as ``chance_outcomes()[rng.randrange(n)]`` would draw it
        history, apply = st._history, st._apply
        where.decision = 0
        for obj, name in restarted:
            _restart(obj, name, st, where, timeout)
        over = st.OVER
        while st.phase != over:  # ``is_terminal()``, read directly (a game API state, ``bower.sim.game.HandState``)
            where.decision += 1
            seat = st.player
            action = asks[seat](st)
            if informed:
                obj = seat_bots[seat]
                for other, oname in informed:
                    if other is not obj:
                        _notify(other, oname, "inform_action", where, st, seat, action, timeout=timeout)
            history.append(action)  # ``st._apply_legal(action)``, inline: ``asks`` has checked it
            st._memo = None
            apply(action)
            st._memo = None
        where.decision = 0
        r = [int(x) for x in st.returns()]
        points.append(r)
        hand_pts = {"0": r[0], "1": r[1]} if variant.partnerships else {str(s): r[s] for s in range(players)}
        scores = {u: scores[u] + hand_pts[u] for u in units}
        if bonus is not None:  # points outside the hand's, in the scores only (per-hand points stay the hand's)
            before = bonus_state or {}
            extra, bonus_state = bonus(st.to_record(), game.rules, bonus_state)
            scores = {u: scores[u] + extra.get(u, 0) for u in units}
            bonus_points += sum(extra.values())
            earned += any(extra.values()) or any(n != before.get(u, 0) for u, n in bonus_state.items())
        now = tuple(scores[u] for u in units)
        winner, state_tb = variant.card_play.game_winner(dict(scores), hand_pts, {}, game.rules, variant.target,
                                                         state_tb)
        if winner is not None:
            break
        dealer = (dealer + 1) % players
    return winner, len(points), points, first_dealer, scores, (earned, bonus_points)


class _AdviceWhere:
    """Where a should-bid play-out is, for the one-line errors: the kept deal, the action asked about, the decision."""

    def __init__(self):
        self.deal, self.action, self.decision = 0, "", 0

    def __str__(self) -> str:
        return f"should-bid deal {self.deal}, action {self.action!r}, decision {self.decision}"


class SeatPlayer:
    """A bot holding every seat of should-bid's play-outs (``bower.sim.advice``): one object, restarted at each
    play-out on the state after the deal, told (``inform_action``) of the actions it does not choose (the calls
    before the turn and the player's forced call), asked (``step``) for every other decision, each answer
    checked as an experiment checks it (``BotError`` in one line: raises, an illegal action, the time limit)."""

    def __init__(self, obj, name: str, timeout: float | None = BOT_TIMEOUT):
        self.obj, self.name, self.timeout = obj, name, check_timeout(timeout)
        self.where = _AdviceWhere()
        self._ask = asker(obj, name, self.where, self.timeout)
        self.kept = 0  # the kept deals played so far (``bot_chunks`` counts them)
        self._informed = callable(getattr(obj, "inform_action", None))

    def clock(self) -> "_Clock":
        """The time limit's clock for a whole run in the main thread (``with player.clock():``)."""
        return _Clock(self.timeout)

    def begin(self, deal: int, action: str) -> None:
        """Say which kept deal (1, 2, ...) and which action the next play-out is, for the error lines."""
        self.where.deal, self.where.action, self.where.decision = deal, action, 0

    def start(self, state) -> None:
        """A new play-out from the dealt ``state``: the bot's ``restart_at`` or ``restart``."""
        self.where.decision = 0
        _restart(self.obj, self.name, state, self.where, self.timeout)

    def given(self, state, action: int) -> None:
        """Apply an action the bot did not choose, telling it first (``inform_action``)."""
        self.where.decision += 1
        if self._informed:
            _notify(self.obj, self.name, "inform_action", self.where, state, state.current_player(), action,
                    timeout=self.timeout)
        state.apply_action(action)

    def choose(self, state) -> None:
        """Ask the bot for the decision at ``state`` and apply it."""
        self.where.decision += 1
        state.apply_action(self._ask(state))


def advice_player(strategy, variant, seed, timeout: float | None = BOT_TIMEOUT) -> tuple["SeatPlayer", str]:
    """The ``SeatPlayer`` of a should-bid ``strategy`` that is a bot (``is_bot``, or a bot name) and its name."""
    if is_file_spec(strategy):
        obj = load_bot(strategy)
    elif isinstance(strategy, str):
        obj = bot(strategy, variant, seed=f"{seed}:should-bid")
    else:
        check_bot(strategy, bot_name(strategy))
        obj = strategy
    name = bot_name(obj)
    return SeatPlayer(obj, name, timeout), name


def run_bot_experiment(players: list, games: int = 1000, seed: int = 0, rules: dict | None = None,
                       duplicate: bool = True, until_significant: bool = False, max_games: int = 1_000_000,
                       names: list[str] | None = None, progress: Callable[[int, int], None] | None = None,
                       variant="ghost", notify: bool = True, bot_timeout: float | None = BOT_TIMEOUT,
                       assignments: np.ndarray | None = None) -> dict:
    """``bower.sim.experiment.run_experiment`` when a player is a Python bot: whole games through the game API.

    The design is the kernel experiment's: every deal set is played once per
    seat assignment (``variant.experiment_assignments``), each game of a set
    on the same deal stream (``duplicate``; otherwise each game its own), the
    deal set the unit of the intervals. ``games`` is rounded up to whole deal
    sets (said on stderr as there); the games run here, one after another.
    Strategy names play as ``bot(name, variant, seed)`` (``random``,
    ``greedy``, a heuristic preset, ``bot:NAME``, a ``.toml`` path or a
    parameter dict: the kernels' strategy as a bot), each seeded from
    ``seed`` and its place in ``players``.
    ``bot_timeout``: the seconds a bot may take to answer one call (None: no
    limit); a slower bot stops the run with ``BotError``. ``assignments``:
    the seat assignments (rows: player by seat; default the variant's
    ``experiment_assignments``; a sweep gives ``sweep_assignments``).
    """
    from bower.kernels import games as kg
    from bower.sim import experiment as ex
    from bower.sim import runner
    from bower.sim.game import game as make_game
    from bower.sim.progress import rounded_notice
    from bower.sim.rules import RULES_VERSION, get_variant
    from bower.sim.strategy import Strategy

    bot_timeout = check_timeout(bot_timeout)
    v = get_variant(variant)
    game = make_game(v, rules)
    objs, given = [], []
    for i, p in enumerate(players):
        if is_file_spec(p):
            objs.append(load_bot(p))
            given.append(p)
        elif isinstance(p, str):
            objs.append(bot(p, v, seed=f"{seed}:player:{i}"))
            given.append(p)
        elif isinstance(p, (dict, Strategy)):  # a strategy's parameters: the kernels' strategy as a bot
            objs.append(bot(p, v, seed=f"{seed}:player:{i}"))
            given.append(bot_name(objs[-1]))
        elif is_bot(p):
            objs.append(p)
            given.append(bot_name(p))
        else:
            raise BotError(f"player {i + 1} ({type(p).__name__}) cannot play with Python bots: give a bot object, "
                           f"a path.py:Class, a bot name ({', '.join(BOT_NAMES)}) or a strategy (a preset, "
                           f"a .toml path, a dict)")
    names = list(names) if names else list(given)
    for i, p in enumerate(players):  # a file's bot is called by its own name, not the path:Class given
        if is_file_spec(p) and names[i] == p:
            names[i] = bot_name(objs[i])
    names = ex._unique_names(names)
    assign = v.experiment_assignments(len(objs)) if assignments is None else np.asarray(assignments)
    games = runner.check_count("--games", games, runner.MAX_GAMES)
    if until_significant:
        max_games = runner.check_count("--max-games", max_games, runner.MAX_GAMES)
        if max_games < games:
            raise runner.RunError(f"--max-games ({max_games}) must be at least --games ({games})")
    n_assign = assign.shape[0]
    batch_sets = -(-games // n_assign)
    cap_sets = -(-max_games // n_assign) if until_significant else batch_sets
    why = f"whole deal sets, {n_assign} games a set"
    if notify:
        rounded_notice("--games", games, batch_sets * n_assign, why)
        if until_significant:
            rounded_notice("--max-games", max_games, cap_sets * n_assign, why)
    sides = v.partnerships
    slots = np.array([(assign == s).sum() for s in range(len(objs))]) // (2 if sides else 1)
    totals = ex._Totals(len(objs), slots, 1)
    seats = v.players
    t0 = time.perf_counter()
    stopped = "games"
    total_games = cap_sets * n_assign
    while True:
        n = min(batch_sets, cap_sets - totals.sets)
        for set_no in range(totals.sets, totals.sets + n):
            out = {"set_wins": np.zeros((1, len(objs)), np.int64),
                   "strategy": np.zeros((len(objs), kg.ST_WIDTH), np.int64),
                   "game": np.zeros(kg.GA_WIDTH, np.int64), "hand": np.zeros(1, np.int64)}
            for row, arr in enumerate(assign.tolist()):
                key = f"{seed}:{set_no}" if duplicate else f"{seed}:{set_no}:{row}"
                where = _Where(set_no + 1, row, 0)
                winner, hands, pts, dealer0, scores, (earned, bonus_points) = play_game(
                    game, v, [objs[k] for k in arr], [names[k] for k in arr], key, where, bot_timeout)
                won_seats = set()
                if winner is not None:
                    won_seats = {winner, winner + 2} if sides else {winner}
                for seat, k in enumerate(arr):
                    acc = out["strategy"][k]
                    acc[kg.ST_HANDS] += hands
                    col = [p[seat] for p in pts]
                    acc[kg.ST_POINTS] += sum(col)
                    acc[kg.ST_POINTS_SQ] += sum(x * x for x in col)
                    acc[kg.ST_GAMES] += 1
                    acc[kg.ST_WINS] += seat in won_seats
                    if seat in won_seats and (not sides or seat == winner):
                        out["set_wins"][0, k] += 1
                g = out["game"]
                g[kg.GA_GAMES] += 1
                g[kg.GA_HANDS] += hands
                g[kg.GA_HANDS_SQ] += hands * hands
                g[kg.GA_TOKENS] += earned
                g[kg.GA_TOKEN_POINTS] += bonus_points
                if winner is None:
                    g[kg.GA_UNFINISHED] += 1
                else:
                    pos = (winner - (dealer0 + 1)) % (2 if sides else seats)  # 0: position 1 (the side of)
                    g[kg.GA_WINS + pos] += 1
                    top = scores[str(winner)]
                    g[kg.GA_MARGIN] += top - max(x for u, x in scores.items() if u != str(winner))
                out["hand"][0] += hands
            totals.add(out)
            if progress is not None:
                progress(int(totals.game[kg.GA_GAMES]), total_games)
        if not until_significant:
            break
        lead = ex._leading_pair(totals)
        if lead is not None and ex._excludes_zero(totals.diff_ci(*lead)):
            stopped = "significant"
            break
        if totals.sets >= cap_sets:
            stopped = "max-games"
            break
    elapsed = time.perf_counter() - t0
    return _report(totals, names, given, assign, duplicate, game.rules, seed, elapsed, stopped, until_significant, v,
                   RULES_VERSION)


def _report(totals, names, given, assign, duplicate, rules_d, seed, elapsed, stopped, until_significant, v,
            rules_version) -> dict:
    from bower.analysis.intervals import Z95
    from bower.kernels import games as kg
    from bower.sim import experiment as ex
    from bower.sim import runner

    per = []
    for i in range(totals.n_strat):
        acc = totals.strategy[i]
        hands = int(acc[kg.ST_HANDS])
        pts, sq = int(acc[kg.ST_POINTS]), int(acc[kg.ST_POINTS_SQ])
        mean = pts / hands if hands else None
        sd = math.sqrt(max(sq / hands - mean * mean, 0.0)) if hands else None
        rate, low, high = totals.mean_ci(i)
        per.append({
            "name": names[i], "games": int(acc[kg.ST_GAMES]), "wins": int(acc[kg.ST_WINS]), "win_rate": rate,
            "win_rate_ci95": [low, high], "hands": hands, "points_per_hand": mean,
            "points_per_hand_ci95": [mean - Z95 * sd / math.sqrt(hands), mean + Z95 * sd / math.sqrt(hands)]
            if hands else None,
        })
    pairs = []
    for i, j in itertools.combinations(range(totals.n_strat), 2):
        d, low, high = totals.diff_ci(i, j)
        sig = ex._excludes_zero((d, low, high))
        pairs.append({"a": names[i], "b": names[j], "win_rate_diff": d, "ci95": [low, high], "excludes_zero": sig,
                      "better": (names[i] if d > 0 else names[j]) if sig else None})
    lead = ex._leading_pair(totals)
    g = runner.game_summary(totals.game, v.name)
    result = {
        "variant": v.name, "rules_version": rules_version, "rules": rules_d, "seed": seed, "threads": 1,
        "duplicate": duplicate, "bots": True, "strategies": per, "players": dict(zip(names, given)),
        "assignments": [[names[k] for k in row] for row in assign.tolist()],
        "deal_sets": totals.sets, "games": g["games"], "unfinished": g["unfinished"], "hands": int(totals.hand[0]),
        "hands_per_game": g["hands_per_game"], "pairs": pairs,
        "leading_pair": [names[lead[0]], names[lead[1]]] if lead else None,
        "elapsed_s": elapsed, "games_per_second": g["games"] / elapsed if elapsed > 0 else None,
    }
    result.update(runner.token_summary(totals.game, rules_d))
    if until_significant:
        result["stopped"] = stopped
    return result


def experiment_table(r: dict) -> list[str]:
    """Per-player rows of a bot experiment: games, win rate with its interval, points per hand with its interval."""
    part = get_variant_partnerships(r["variant"])
    lines = [f"{'player':<24} {'games':>9} {'win rate':>9} {'(95% interval)':>19} {'pts/hand':>9} {'(95% interval)':>19}"]
    for s in r["strategies"]:
        lo, hi = s["win_rate_ci95"]
        plo, phi = s["points_per_hand_ci95"] or (math.nan, math.nan)
        games = s["games"] // 2 if part else s["games"]
        lines.append(f"{s['name'][:24]:<24} {games:>9,} {100 * s['win_rate']:>8.2f}% "
                     f"{'(' + f'{100 * lo:.2f}%-{100 * hi:.2f}%' + ')':>19} {s['points_per_hand']:>9.3f} "
                     f"{'(' + f'{plo:.3f} to {phi:.3f}' + ')':>19}")
    lines.append("(games: " + ("games played as a side" if part else "seats held") + "; points per seat-hand)")
    return lines


def get_variant_partnerships(name: str) -> bool:
    from bower.sim.rules import get_variant

    return get_variant(name).partnerships


# ---------------------------------------------------------------- sweeps of a bot's constructor arguments


def is_bot_base(base) -> bool:
    """Whether a sweep's ``base`` is a bot: a ``path.py:Class``, a bot class (one with ``step``), or a bot name."""
    if isinstance(base, type):
        return callable(getattr(base, "step", None))
    return is_file_spec(base) or (isinstance(base, str) and base in BOT_NAMES and base != "random") or (
        not isinstance(base, (str, dict)) and is_bot(base))


def parse_bot_range(text: str) -> tuple[str, list]:
    """``NAME=START:STOP:STEP`` (STOP included) or ``NAME=VALUE`` for a bot's keyword argument ``NAME``: (name,
    values), whole numbers as ints when START, STOP and STEP are written as whole numbers; BotError on a bad one."""
    from bower.sim.experiment import range_values

    if "=" not in text:
        raise BotError(f"--param {text!r} must be NAME=START:STOP:STEP")
    name, spec = (x.strip() for x in text.split("=", 1))
    if not name.isidentifier():
        raise BotError(f"--param {text!r}: {name!r} is not a keyword argument name")
    parts = [p.strip() for p in spec.split(":")]
    values = range_values(text, parts, BotError)
    whole = all(p.lstrip("+-").isdigit() for p in parts)
    if not all(math.isfinite(x) for x in values):
        raise BotError(f"--param {text!r}: the values must be finite numbers")
    return name, [int(x) for x in values] if whole else values


def _bot_factory(base, variant, seed):
    """(make(role, **kwargs) -> a bot, the base's name, its class or None) for a sweep's bot ``base``."""
    if isinstance(base, str) and not is_file_spec(base):  # bower's own: bot(name, **options)
        return (lambda role, **kw: bot(base, variant, seed=f"{seed}:player:{role}", **kw)), base, None
    cls = load_bot_class(base) if isinstance(base, str) else base
    if not isinstance(cls, type):
        raise BotError(f"a sweep makes its bot at each value: give its class or a path.py:Class, not a "
                       f"{type(base).__name__} object")
    spec = base if isinstance(base, str) else cls.__name__
    probe = make_bot(cls, spec)
    return (lambda role, **kw: make_bot(cls, spec, **kw)), bot_name(probe), cls


def _refused_names(cls, names: list[str]) -> list[str]:
    """The names among ``names`` that ``cls``'s constructor takes no keyword argument for (none when it takes
    ``**kwargs`` or its signature cannot be read)."""
    import inspect

    try:
        sig = inspect.signature(cls)
    except (TypeError, ValueError):
        return []
    ps = list(sig.parameters.values())
    if any(p.kind is p.VAR_KEYWORD for p in ps):
        return []
    ok = {p.name for p in ps if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    return [n for n in names if n not in ok]


def run_bot_sweep(params: list, base, games: int = 1000, seed: int = 0, rules: dict | None = None,
                  progress: Callable[[int, int], None] | None = None, variant="ghost",
                  bot_timeout: float | None = BOT_TIMEOUT) -> dict:
    """``bower.sim.experiment.run_sweep`` for a bot ``base``: at each value (grid for several) the bot made with
    ``NAME=value`` keyword arguments against the bot made with none, as the sweep seats a candidate against
    the base (``Variant.sweep_assignments``), in duplicate games through the game API (``run_bot_experiment``).

    ``base``: a ``path.py:Class``, a bot class, or ``greedy`` (``bot("greedy", samples=...)``).
    ``params``: ``NAME=START:STOP:STEP`` strings or ``(name, values)`` pairs.
    Every row is played on the same deal sets (the same seed), and bower's
    own bots are seeded by their role alone, so rows differ by the value
    alone. BotError in one line when the constructor takes no ``NAME``.
    """
    from bower.sim import runner
    from bower.sim.progress import rounded_notice
    from bower.sim.rules import RULES_VERSION, get_variant

    v = get_variant(variant)
    bot_timeout = check_timeout(bot_timeout)
    ranges = []
    for p in params:
        if isinstance(p, str):
            ranges.append(parse_bot_range(p))
        else:
            name, values = p
            values = list(values) if isinstance(values, (list, tuple, range)) else [values]
            if not values:
                raise BotError(f"the sweep gives no values for {name!r}")
            ranges.append((str(name), values))
    names = [n for n, _ in ranges]
    if len(set(names)) != len(names):
        raise BotError("each --param names a different keyword argument")
    make, base_name, cls = _bot_factory(base, v, seed)
    if cls is not None:
        refused = _refused_names(cls, names)
        if refused:
            raise BotError(f"bot {base if isinstance(base, str) else base_name!r}: {cls.__name__}() takes no "
                           f"keyword argument {refused[0]!r} (--param {refused[0]}=...)")
    games = runner.check_count("--games", games, runner.MAX_GAMES)
    assign = v.sweep_assignments()
    n_assign = len(assign)
    rounded_notice("--games", games, -(-games // n_assign) * n_assign,
                   f"whole deal sets, {n_assign} games a set, per value")
    grid = list(itertools.product(*[vals for _, vals in ranges]))
    rows = []
    t0 = time.perf_counter()
    for done, combo in enumerate(grid, 1):
        cand = make(0, **dict(zip(names, combo)))
        res = run_bot_experiment([cand, make(1)], games=games, seed=seed, rules=rules, names=["candidate", base_name],
                                 variant=v.name, notify=False, bot_timeout=bot_timeout, assignments=assign)
        c, b = res["strategies"]
        rows.append({"values": dict(zip(names, combo)), "games": res["games"], "win_rate": c["win_rate"],
                     "win_rate_ci95": c["win_rate_ci95"], "points_per_hand": c["points_per_hand"],
                     "base_points_per_hand": b["points_per_hand"], "bid_rate": None, "swap_rate": None,
                     **runner.token_keys(res)})
        if progress is not None:
            progress(done, len(grid))
    best = max(range(len(rows)), key=lambda i: rows[i]["win_rate"])
    for i, r in enumerate(rows):
        r["best"] = i == best
    return {
        "variant": v.name, "rules_version": RULES_VERSION, "rules": runner.resolve_run(v.name, seed, rules)[1],
        "base": base_name, "base_parameters": {}, "bots": True, "params": names, "seed": seed,
        "games_per_row": rows[0]["games"], "rows": rows, "best": rows[best]["values"],
        "elapsed_s": time.perf_counter() - t0,
    }
