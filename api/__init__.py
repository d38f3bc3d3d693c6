"""bower as a Python library: simulate, experiment, sweep, should-bid, records, double dummy.

Every command of the ``bower`` CLI has a function here taking Python values
(numbers, lists, dicts, ``Strategy`` objects) instead of command-line
strings, and returning a result with the command's ``--json`` dict as
``summary`` and its tables as pandas DataFrames (each example below runs in
the test suite, ``tests/test_doctests.py``, and prints what is shown)::

    >>> import bower
    >>> run = bower.simulate(variant="ghost", hands=20_000, seed=1)
    >>> run.summary["bids"]["4"]["made"], run.summary["bids"]["4"]["count"]   # the --json summary
    (6946, 9263)
    >>> list(run.tables())[:3]                                   # bower analyze's tables, as DataFrames
    ['bid_success', 'bid_by_position', 'bid_by_trumps']
    >>> bold = bower.strategy("default", bid_3=2.6, name="bold")
    >>> ex = bower.experiment([bold, "default"], games=384, seed=1)
    >>> ex.pairs[["a", "b", "win_rate_diff", "ci_low", "ci_high"]].round(3)  # 384 games: no clear winner
          a        b  win_rate_diff  ci_low  ci_high
    0  bold  default          0.031  -0.011    0.073
    >>> advice = bower.should_bid("JH JD AH KH 9S TC", position=2, calls=["pass"], samples=2000, seed=1)
    >>> advice.recommendation["action"]
    '4 H'

The first call that needs a kernel not yet in the cache compiles it (a
minute or more on a fresh install) and says so first on stderr, once per
process (a notebook shows it under the cell): ``bower: compiling kernels
...``; ``bower.quiet(True)`` or ``BOWER_QUIET=1`` silences it.
``bower.warm()`` compiles ahead, in parallel processes, with a progress line.

The same seed gives the same numbers as the CLI, for any thread count. Bad
input raises ``bower.BowerError`` (the CLI's one-line message, as
``str(error)``); faults (a full disk, a file that cannot be written) raise it
too. The engine lives in ``bower.sim`` (``sim/``), the compiled kernels in
``bower.kernels`` (``kernels/``), the analysis layer in ``bower.analysis``
(``analysis/``).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import os
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Union

from bower.sim import __version__
from bower.sim.errors import UserError as BowerError
from bower.sim.limits import BOT_TIMEOUT

if TYPE_CHECKING:  # imported at first use (``__getattr__``): a plain ``import bower`` loads no NumPy, pandas or Numba
    import pandas as pd

    from bower.results import Advice, Experiment, Simulation
    from bower.sim.game import Game
    from bower.sim.strategy import Strategy

# What the functions take for a strategy: a preset name, a ``.toml`` path, a dict of parameters over the defaults,
# or a ``Strategy``
StrategyLike = Union[str, "os.PathLike[str]", dict, "Strategy"]
PathLike = Union[str, "os.PathLike[str]"]

__all__ = ["simulate", "experiment", "sweep", "should_bid", "strategy", "strategies", "variants", "read_records",
           "analyze", "equity", "solve", "solve_records", "replay", "Strategy", "Simulation", "Experiment", "Advice",
           "BowerError", "warm", "quiet", "game", "bot", "__version__"]


def _faults(fn, faults: bool = True):
    """Faults nobody named more closely (OSError, MemoryError) leave as one-line ``BowerError``s (unless not
    ``faults``); a compile is said; errors name ``fn``'s arguments (``library_words``).

    While ``fn`` runs, the first Numba compile of the process prints the
    compile notice on stderr (``bower.sim.progress.library_notice``).
    """

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        from bower.sim.errors import fault_error
        from bower.sim.progress import library_notice

        try:
            with library_notice():
                return fn(*args, **kwargs)
        except BowerError as e:
            e.message = library_words(e.message, params)
            raise
        except (OSError, MemoryError) as e:
            if not faults:
                raise
            raise fault_error(e) from None

    params = frozenset(inspect.signature(fn).parameters)
    return wrapper


_FLAG = re.compile(r"(?<![\w-])--([a-z][a-z0-9]*(?:-[a-z0-9]+)*)(?![\w-])")
_COMMAND = re.compile(r"\bbower [a-z][a-z-]* $")  # a command quoted whole, up to its flag: ``bower solve --records``


def library_words(message: str, params) -> str:
    """``message`` with each command-line flag that is one of ``params`` (a function's parameter names) written as
    the library's argument: ``--hands about 1e30 is more ...`` -> ``hands= about 1e30 is more ...``,
    ``--max-games`` -> ``max_games=``. The checks behind a command and its function are shared and speak in
    flags; other flags (``--json``, a command's own) are left as they are, and so is a command quoted whole
    (``see bower solve --records``: what to run, not this function's argument)."""
    def one(m):
        name = m.group(1).replace("-", "_")
        if _COMMAND.search(message, 0, m.start()):
            return m.group(0)
        return f"{name}=" if name in params else m.group(0)

    return _FLAG.sub(one, message)


def _noticed(fn):
    """``fn`` with the compile notice while it runs and its errors naming its arguments (``_faults`` without the
    faults: these functions name their own)."""
    return _faults(fn, faults=False)


# ---- arguments: a wrongly typed one is a BowerError naming it and what it must be ---------------------

_KINDS = {
    "str": ("a string", lambda x: isinstance(x, str)),
    "int": ("a whole number", lambda x: isinstance(x, int) and not isinstance(x, bool)),
    "number": ("a number", lambda x: isinstance(x, (int, float)) and not isinstance(x, bool)),
    "bool": ("True or False", lambda x: isinstance(x, bool)),
    "dict": ("a dict", lambda x: isinstance(x, dict)),
    "path": ("a file path (a string)", lambda x: isinstance(x, (str, os.PathLike))),
    "list": ("a list", lambda x: isinstance(x, (list, tuple))),
    "ints": ("a list of whole numbers", lambda x: isinstance(x, (list, tuple, set, frozenset)) and all(
        isinstance(i, int) and not isinstance(i, bool) for i in x)),
    "strs": ("a list of strings", lambda x: isinstance(x, (list, tuple)) and all(isinstance(i, str) for i in x)),
    "cards": ("a string of cards or a list of card names", lambda x: isinstance(x, str) or (
        isinstance(x, (list, tuple)) and all(isinstance(i, str) for i in x))),
    "deal": ("a string ('0:JH JD ... 1:...') or a dict of seat -> cards", lambda x: isinstance(x, (str, dict))),
}


def _check_args(**args) -> None:
    """BowerError for the first argument not of its kind: ``_check_args(maker=(maker, "int?"))`` (``?``: or None)."""
    for name, (value, kind) in args.items():
        optional = kind.endswith("?")
        what, ok = _KINDS[kind.rstrip("?")]
        if value is None and optional:
            continue
        if not ok(value):
            shown = _shown(value)
            shown = shown if len(shown) <= 40 else shown[:37] + "..."
            raise BowerError(f"{name}= must be {what}{' or None' if optional else ''}, got {shown}")


def _shown(value) -> str:
    """``repr(value)``, but a whole number too long to print (10**5000) as ``about 1e5000``, in a list too."""
    if isinstance(value, int) and not isinstance(value, bool):
        return _word(value) if _huge(value) else repr(value)
    if isinstance(value, (list, tuple, set, frozenset)):
        inner = ", ".join(_shown(x) for x in list(value)[:8]) + (", ..." if len(value) > 8 else "")
        return {list: "[{}]", tuple: "({})"}.get(type(value), "{{{}}}").format(inner)
    try:
        return repr(value)
    except ValueError:  # a dict (or other container) holding a number too long to print
        return f"a {type(value).__name__} holding a huge number"


def _huge(value) -> bool:
    """Whether ``value`` is a whole number past ``MAX_DIGITS`` digits (str() of 10**5000 fails; no count is that)."""
    from bower.sim.text import MAX_DIGITS

    return isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**MAX_DIGITS


def _word(value) -> str:
    """``str(value)``, but a whole number past ``MAX_DIGITS`` digits as ``about 1e5000``."""
    from bower.sim.text import number_text

    return number_text(value) if _huge(value) else str(value)


def _path(value) -> str:
    return os.fspath(value)


# imported when first used, so that ``import bower`` (and every command's start) does not wait for pandas
_LAZY = {"Simulation": "bower.results", "Experiment": "bower.results", "Advice": "bower.results",
         "read_records": "bower.data", "analyze": "bower.data", "Strategy": "bower.sim.strategy"}


def __getattr__(name: str):
    """``Simulation``, ``Experiment``, ``Advice``, ``Strategy``, ``read_records`` and ``analyze``, imported at their
    first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'bower' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    if module == "bower.data":
        value = _noticed(value)  # reading records may compile (the dd columns): the notice as elsewhere
    globals()[name] = value
    return value


def quiet(flag: bool = True) -> None:
    """``quiet(True)``: the library prints no compile notice (nor ``warm``'s progress line); ``quiet(False)``: back.

    Without a call, the ``BOWER_QUIET`` environment variable decides (``1``: quiet).
    The results are the same either way; only stderr changes.

    Examples:
        >>> bower.quiet(True)                     # no "bower: compiling kernels ..." line on stderr
        >>> bower.simulate("ghost", hands=1_000, seed=1).summary["hands"]
        1000
        >>> bower.quiet(False)                    # the notice again (once per process)
    """
    from bower.sim.progress import silence_library

    silence_library(flag)


@_faults
def warm(variants: str | Sequence[str] | None = None, *, parts: str | Sequence[str] | None = None,
         jobs: int | None = None, progress: bool | None = None) -> dict[str, Any]:
    """Compile the kernels ahead of time, as ``bower warm``: one process per variant, ``jobs`` at a time.

    ``variants``: a name or a list (default: every variant). ``parts``:
    ``"hands"`` (``simulate``), ``"records"``, ``"games"`` (``games=``,
    ``experiment``, ``sweep``), ``"advice"`` (``should_bid``), and the opt-in
    ``"search"`` (PIMC presets, ``solve``); default: all but ``"search"``.
    ``progress``: the progress line and the summary on stderr (default:
    unless ``quiet``). Later calls (and commands) load the kernels from the
    cache; a second ``warm`` reports them ``cached`` in seconds. Returns the
    ``--json`` dict: ``groups`` (each with ``compiled``, ``cpu_s``,
    ``compile_s``, ``wall_s``), ``compiled`` and ``cached`` (group names),
    ``cpu_s``, ``wall_s``, ``jobs``, ``cache_dir``.

    Examples:
        >>> done = bower.warm("ghost", parts="hands", progress=False)
        >>> [g["group"] for g in done["groups"]], sorted(done["compiled"] + done["cached"])
        (['ghost'], ['ghost'])
    """
    from bower.sim import warm as W
    from bower.sim.progress import library_silenced

    if isinstance(variants, str):
        variants = [variants]
    if isinstance(parts, str):
        parts = [parts]
    _check_args(variants=(variants, "strs?"), parts=(parts, "strs?"), jobs=(jobs, "int?"), progress=(progress, "bool?"))

    if progress is None:
        progress = not library_silenced()
    return W.warm(variants, parts=parts, jobs=jobs, progress=bool(progress))


def _variant(name: str):
    from bower.sim.rules import get_variant

    _check_args(variant=(name, "str"))
    return get_variant(name)


def _call_text(v, hands, seed, strategy, rules, records) -> str:
    """The Python call that writes these records again (a records file's ``command``); strategies by name."""
    from bower.sim.rules import resolve
    from bower.sim.strategy import load_strategy

    specs = strategy if isinstance(strategy, (list, tuple)) else [strategy]
    names = [load_strategy(x, v.name)[0] for x in specs]
    shown = names[0] if not isinstance(strategy, (list, tuple)) else names
    return (f"bower.simulate({v.name!r}, hands={hands}, seed={seed}, strategy={shown!r}, "
            f"rules={resolve(v, rules)!r}, records={str(records)!r})  # the seats' parameters: 'seats'")


def _first_strategy(strategy):
    return strategy[0] if isinstance(strategy, (list, tuple)) else strategy


@_faults
def simulate(variant: str = "ghost", hands: int = 1_000_000, *, games: int | None = None, seed: int = 0,
             strategy: StrategyLike | Sequence[StrategyLike] = "default", rules: dict[str, Any] | None = None,
             threads: int | None = None, records: PathLike | None = None, progress: bool = False,
             scheduler: str | None = None, start: str | Sequence[int] | None = None) -> Simulation:
    """Play ``hands`` independent hands (or ``games`` whole games) and summarise them, as ``bower simulate``.

    ``strategy``: a preset name, a ``.toml`` path, a dict of parameters over
    the defaults, a ``bower.Strategy``, or (hands only) a list of one per
    seat. ``rules``: rule option -> value (``{"stick_the_dealer": True}``;
    ``bower.variants()`` lists them). ``records``: also write every hand's
    record to this ``.jsonl`` or ``.parquet`` file, with the run's metadata.
    ``progress``: show the progress bar on stderr. ``scheduler``: run the
    chunks as Dask tasks (an address, or ``"local:N"`` for N local worker
    processes; the numbers are the same). ``start`` (with ``games``): every
    game's starting scores, as ``bower simulate --start``: two side scores
    where partners play (the side of seats 0 & 2 first), else one score per
    player by seat, each below the target, as a
    sequence (``(4, 9)``) or the text ``"4,9"``; the summary then has
    ``start``. Returns a ``Simulation``.

    Examples:
        >>> run = bower.simulate("euchre", hands=20_000, seed=1)
        >>> run.summary["hands"], run.summary["points_per_hand_by_side"]
        (20000, ...)
        >>> games = bower.simulate("ghost", games=384, seed=1)
        >>> games.summary["games"], games.tables()["win_share"].columns.tolist()
        (384, ['start', 'win_share', 'win_share_low', 'win_share_high'])
    """
    from bower.sim import runner
    from bower.sim.progress import Progress

    v = _variant(variant)
    _check_args(hands=(hands, "int"), games=(games, "int?"), seed=(seed, "int"), rules=(rules, "dict?"),
                threads=(threads, "int?"), records=(records, "path?"), progress=(progress, "bool"),
                scheduler=(scheduler, "str?"))
    records = None if records is None else _path(records)
    if start is not None:
        runner.check_start(start, v)
        if games is None:
            raise runner.RunError("--start is the starting score of whole games: give --games too")
    bar = Progress("games" if games is not None else "hands", enabled=bool(progress))
    try:
        if games is not None:
            if records is not None:
                raise runner.RunError("records are written for independent hands; leave out games= to write records")
            if isinstance(strategy, (list, tuple)):
                raise runner.RunError("games= plays one strategy in every seat; give one strategy")
            summary = runner.simulate_games(variant=v.name, games=games, seed=seed, threads=threads, rules=rules,
                                            strategy=strategy, progress=bar, scheduler=scheduler, start=start)
        else:
            summary = runner.simulate(variant=v.name, hands=hands, seed=seed, threads=threads, rules=rules,
                                      strategy=strategy, records_path=records, progress=bar, scheduler=scheduler,
                                      command=_call_text(v, hands, seed, strategy, rules, records) if records else None)
    finally:
        bar.close()
    if records:
        summary["records"] = records
    run = {"variant": v.name, "hands": hands, "seed": seed, "threads": threads, "rules": rules, "strategy": strategy,
           "first_strategy": _first_strategy(strategy), "scheduler": scheduler}
    from bower.results import Simulation

    return Simulation(summary, run, records)


@_faults
def experiment(strategies: Sequence[StrategyLike], *, variant: str = "ghost", games: int = 100_000, seed: int = 0,
               rules: dict[str, Any] | None = None, threads: int | None = None, duplicate: bool = True,
               until_significant: bool = False, max_games: int = 1_000_000, names: list[str] | None = None,
               progress: bool = False, scheduler: str | None = None,
               start: str | Sequence[int] | None = None, bot_timeout: float | None = BOT_TIMEOUT) -> Experiment:
    """Play 2 or 3 strategies against each other in whole games on duplicate deals, as ``bower experiment``.

    ``strategies``: presets, ``.toml`` paths, dicts or ``bower.Strategy``
    objects; ``names``: what to call them (default: their own names). A
    Python bot (an object with ``step(state) -> action``, or a
    ``"path.py:Class"``) plays too: the games then go through the game API
    (docs/guides/bots.md), the other players naming bots (``"random"``,
    ``"greedy"``, ``bower.bot``); ``bot_timeout``: the seconds a bot may
    take to answer one call before the run stops with ``BowerError`` (None:
    no limit). ``duplicate=False`` gives every seat assignment its own deals;
    ``scheduler`` as for ``simulate``. ``games`` (and ``max_games``) are
    rounded up to whole deal sets, said on stderr (``bower: note: games=96
    rounded up to 384 ...``) unless ``quiet``. ``start``: every game's
    starting scores, duplicate games included, as ``simulate``'s (``bower
    experiment --start``). Returns an ``Experiment``
    (``strategies``, ``pairs``, ``make_rates``).

    Examples:
        >>> ex = bower.experiment(["aggressive", "default"], games=384, seed=1)
        >>> ex.strategies[["name", "games", "wins"]]
                 name  games  wins
        0  aggressive    576   171
        1     default    576   213
        >>> ex.pairs.loc[0, "better"]
        'default'
    """
    from bower.sim import experiment as ex
    from bower.sim.progress import Progress

    v = _variant(variant)
    _check_args(strategies=(strategies, "list"), games=(games, "int"), seed=(seed, "int"), rules=(rules, "dict?"),
                threads=(threads, "int?"), duplicate=(duplicate, "bool"), until_significant=(until_significant, "bool"),
                max_games=(max_games, "int"), names=(names, "strs?"), progress=(progress, "bool"),
                scheduler=(scheduler, "str?"))
    strategies = list(strategies)
    if len(strategies) not in (2, 3):
        raise ex.runner.RunError(f"give 2 or 3 strategies to compare, got {len(strategies)}")
    ex.runner.check_start(start, v)
    from bower.sim.bots import check_timeout

    check_timeout(bot_timeout)
    bar = Progress("games", enabled=bool(progress))
    try:
        res = ex.run_experiment(strategies, games=games, seed=seed, threads=threads, rules=rules, duplicate=duplicate,
                                until_significant=until_significant, max_games=max_games, names=names,
                                progress=bar, variant=v.name, scheduler=scheduler, start=start,
                                bot_timeout=bot_timeout)
    finally:
        bar.close()
    from bower.results import Experiment

    return Experiment(res)


@_faults
def sweep(base: StrategyLike = "default", grid: dict[str, Any] | None = None, *, variant: str = "ghost",
          games: int = 30_000, seed: int = 0, rules: dict[str, Any] | None = None, threads: int | None = None,
          progress: bool = False, scheduler: str | None = None,
          bot_timeout: float | None = BOT_TIMEOUT) -> pd.DataFrame:
    """Each parameter value (every combination, for several) against two copies of ``base``, as ``bower sweep``.

    ``grid``: parameter -> a value or a list of values, e.g.
    ``{"bid_3": [2.4, 2.6, 2.8]}``. Returns a DataFrame, one row per
    combination: the values, ``games``, ``win_rate`` with ``win_rate_low``
    and ``win_rate_high`` (95%), points per hand of the candidate and of the
    base, and ``best``; ``attrs["summary"]`` holds the ``--json`` dict.
    ``games`` per combination is rounded up as in ``experiment`` (said on stderr unless ``quiet``).
    ``base`` may be a Python bot's class (or ``"path.py:Class"``, or
    ``"greedy"``): ``grid`` then names its constructor's keyword arguments,
    the bot made with them plays against the bot made with none through the
    game API; ``bot_timeout`` as in ``experiment``.

    Examples:
        >>> df = bower.sweep("default", {"bid_3": [2.6, 2.8]}, games=384, seed=1)
        >>> df[["bid_3", "games", "best"]]
           bid_3  games   best
        0    2.6    384   True
        1    2.8    384  False
    """
    import pandas as pd

    from bower.results import flat_row
    from bower.sim import experiment as ex
    from bower.sim.progress import Progress
    from bower.sim.strategy import StrategyError

    v = _variant(variant)
    _check_args(grid=(grid, "dict?"), games=(games, "int"), seed=(seed, "int"), rules=(rules, "dict?"),
                threads=(threads, "int?"), progress=(progress, "bool"), scheduler=(scheduler, "str?"))
    if not grid:
        raise StrategyError("give the sweep at least one parameter and its values, e.g. {'bid_3': [2.6, 2.8]}")
    from bower.sim import bots

    is_bot = bots.is_bot_base(base)
    if is_bot:
        bots.check_timeout(bot_timeout)
        if scheduler is not None:
            raise bots.BotError(f"a sweep of a bot runs in this process: drop scheduler={scheduler!r}")
    bar = Progress("values", enabled=bool(progress))
    try:
        if is_bot:
            res = bots.run_bot_sweep(list(grid.items()), base, games=games, seed=seed, rules=rules, progress=bar,
                                     variant=v.name, bot_timeout=bot_timeout)
        else:
            res = ex.run_sweep(list(grid.items()), base=base, games=games, seed=seed, threads=threads, rules=rules,
                               progress=bar, variant=v.name, scheduler=scheduler)
    finally:
        bar.close()
    df = pd.DataFrame([{**row["values"], **flat_row(row, skip=("values",))} for row in res["rows"]])
    df.attrs["summary"] = res
    return df


@_faults
def should_bid(hand: str | Sequence[str], *, variant: str = "ghost", position: int = 1,
               calls: str | Sequence[str | int] = (), swapped: int | None = None, bid: str | int | None = None,
               scores: str | Sequence[int] | None = None, upcard: str | None = None,
               strategy: StrategyLike = "default", model: str = "softmax",
               tau: float | None = None, epsilon: float | None = None, playout: str = "strategy",
               samples: int | None = None, seed: int = 0, threads: int | None = None,
               rules: dict[str, Any] | None = None, scheduler: str | None = None,
               bot_timeout: float | None = BOT_TIMEOUT) -> Advice:
    """What to do at this turn, with odds: every open action on the same sampled deals, as ``bower should-bid``.

    ``hand``: the cards, a string (``"JH JD AH KH 9S TC"``) or a list;
    ``position``: 1 = the dealer's left, the last is the dealer; ``calls``:
    the calls before you, e.g. ``["pass", 3]``; ``swapped``: Ghost Hand,
    the position that took the ghost; ``bid``: answer "should I bid this?"
    first (``advice.verdict``); ``scores``: the game scores (your side's,
    then the other side's in Euchre and Hasenpfeffer; by position in Ghost
    Hand and Cutthroat): each action is then also valued as the change in
    your chance to win the game, and the recommendation is by that chance;
    ``upcard``: Cutthroat and Euchre. ``model``: ``"softmax"``
    (every legal auction possible, temperature ``tau``, tremble
    ``epsilon``) or ``"exact"``; ``playout``: ``"strategy"``, ``"dd"``,
    ``"both"`` or ``"pimc"`` (every seat plays its cards by PIMC after
    your decision); ``samples``: effective deals per action (default adaptive).
    ``strategy`` may be a Python bot (an object with ``step(state)``, a
    ``"path.py:Class"`` or ``"greedy"``): it plays every seat of each
    sampled deal after your forced action, on the same deals;
    ``bot_timeout``: the seconds it may take to answer one call (None: no
    limit). Returns an ``Advice`` (``actions``, ``recommendation``, ``verdict``).

    Examples:
        >>> advice = bower.should_bid("JH JD AH KH 9S TC", position=2, calls=["pass"], bid=3, samples=2000, seed=1)
        >>> advice.verdict
        'yes: bid 3 in H, better than passing by +2.10 points a hand (best of all: 4 H)'
        >>> advice.actions[["action", "make_prob", "expected_points"]].head(3).round(3)
                                   action  make_prob  expected_points
        0                             4 H      1.000            3.999
        1                             3 H      1.000            2.692
        2  swap, then the strategy's call      0.826            1.486
    """
    from bower.sim import runner
    from bower.sim.advice import AdviceError, advise
    from bower.sim.bots import check_timeout
    from bower.sim.text import call_word

    v = _variant(variant)
    _check_args(hand=(hand, "cards"), position=(position, "int"), swapped=(swapped, "int?"), upcard=(upcard, "str?"),
                model=(model, "str"), tau=(tau, "number?"), epsilon=(epsilon, "number?"), playout=(playout, "str"),
                samples=(samples, "int?"), seed=(seed, "int"), threads=(threads, "int?"), rules=(rules, "dict?"),
                scheduler=(scheduler, "str?"))
    if not isinstance(calls, (str, list, tuple)):
        _check_args(calls=(calls, "list"))
    if samples is not None:
        runner.check_count("--samples", samples, runner.MAX_SAMPLES)
    if model not in ("softmax", "exact"):
        raise AdviceError(f"model must be 'softmax' or 'exact', got {model!r}")
    from bower.sim.advice import PLAYOUTS

    if playout not in PLAYOUTS:
        raise AdviceError(f"playout must be one of {', '.join(map(repr, PLAYOUTS))}, got {playout!r}")
    # a whole number too long to print (str(10**5000) fails) is none of these: said before any is printed
    for name, what, values in (("swapped", "position", [swapped]), ("bid", "bid", [bid]),
                               ("calls", "call", [] if isinstance(calls, str) else calls),
                               ("scores", "game score", scores if isinstance(scores, (list, tuple)) else [])):
        for x in values:
            if _huge(x):
                raise AdviceError(f"{name}= {_word(x)} is not a {what}")
    hand_text = " ".join(str(c) for c in hand) if isinstance(hand, (list, tuple)) else str(hand)
    if isinstance(calls, str):
        calls_text = calls
    else:
        calls_text = ",".join(call_word(c) for c in calls) or None
    scores_text = scores if scores is None or isinstance(scores, str) else ",".join(str(s) for s in scores)
    question = {"position": position, "calls": calls_text, "swapped": None if swapped is None else str(swapped),
                "bid": None if bid is None else str(bid), "scores": scores_text, "upcard": upcard,
                "model": {"kind": model, "tau": tau, "epsilon": epsilon}, "playout": playout,
                "bot_timeout": check_timeout(bot_timeout)}
    from bower.sim.rules import resolve

    from bower.results import Advice

    return Advice(advise(v.name, hand_text, question, scheduler=scheduler, strategy=strategy, samples=samples,
                         seed=seed, threads=threads, rules=resolve(v, rules)))


def strategy(base: PathLike = "default", *, variant: str = "ghost", name: str | None = None,
             **params: float | bool) -> Strategy:
    """A strategy from a preset (or ``.toml`` path) with ``params`` overriding it: ``strategy("default", bid_3=2.6)``.

    ``name``: what results call it (default: the preset's name, or
    ``"<base>+"`` when parameters are changed). Switches take ``True`` or
    ``False``. Every value is checked (``BowerError`` names a bad one).

    Examples:
        >>> bold = bower.strategy("default", bid_3=2.6, name="bold")
        >>> bold.name, bold.params["bid_3"]
        ('bold', 2.6)
        >>> bower.strategy("default", bid_3="high")
        Traceback (most recent call last):
        ...
        bower.sim.strategy.StrategyError: bad value 'high' for strategy parameter 'bid_3' (a number)
    """
    from bower.sim.strategy import Strategy, load_strategy

    _check_args(name=(name, "str?"))
    base_name, full = load_strategy(base, _variant(variant).name)
    if name is None:
        name = base_name if not params else base_name + "+"
    return Strategy(name, {**full, **params}, variant)


def strategies(variant: str = "ghost") -> pd.DataFrame:
    """Every preset of ``variant`` as a DataFrame: one row per parameter, one column per preset, and its meaning.

    Examples:
        >>> bower.strategies("euchre").columns.tolist()
        ['default', 'cautious', 'aggressive', 'never-alone', 'equity', 'random', 'pimc', 'pimc-fast', 'pimc-bid', 'meaning']
    """
    import pandas as pd

    v = _variant(variant)
    df = pd.DataFrame({p: [v.presets[p][n] for n, _, _ in v.params] for p in v.presets},
                      index=pd.Index([n for n, _, _ in v.params], name="parameter"))
    df["meaning"] = [m for _, _, m in v.params]
    return df


def variants() -> pd.DataFrame:
    """The variants bower plays: name, title, players, cards per hand, target, partnerships, rule options.

    Examples:
        >>> bower.variants()[["name", "players", "hand_size", "target"]]
                   name  players  hand_size  target
        0         ghost        3          6      32
        1     cutthroat        3          5      10
        2  hasenpfeffer        4          6      10
        3        euchre        4          5      10
    """
    import pandas as pd

    from bower.sim.variants import all_variants

    return pd.DataFrame([{"name": v.name, "title": v.title, "aliases": list(v.aliases), "players": v.players,
                          "hand_size": v.hand_size, "target": v.target, "partnerships": v.partnerships,
                          "rules": {o.name: o.default for o in v.options}} for v in all_variants()])


def game(variant: str, rules: dict[str, Any] | None = None) -> Game:
    """The game API of ``variant``: OpenSpiel's ``Game`` and ``State`` interface, one hand decision by decision.

    ``game.new_initial_state()`` is the hand before the deal; its state has
    OpenSpiel's ``current_player()`` (a seat, ``-1`` at a chance node, ``-4``
    at the end), ``legal_actions()``, ``apply_action()`` (an illegal action
    raises ``BowerError``), ``chance_outcomes()``, ``returns()`` (points by
    seat), ``information_state_string()``, ``observation_tensor()``,
    ``clone()`` and ``resample_from_infostate(player, rng)``. ``rules`` as for
    ``simulate``. The action ids and the tensor layout are in
    ``help(bower.sim.variants.euchre.game)``; docs/guides/game-api.md has a
    bot. Every variant has one (``bower.sim.variants.<variant>.game``).

    Examples:
        >>> import random
        >>> state = bower.game("euchre", rules={"stick_the_dealer": True}).new_initial_state()
        >>> state.current_player(), state.chance_outcomes()[:2]
        (-1, [(0, 0.25), (1, 0.25)])
        >>> rng = random.Random(7)
        >>> while not state.is_terminal():
        ...     if state.is_chance_node():
        ...         outcomes, chances = zip(*state.chance_outcomes())
        ...         state.apply_action(rng.choices(outcomes, chances)[0])
        ...     else:
        ...         state.apply_action(rng.choice(state.legal_actions()))
        >>> state.to_record()["calls"], state.returns()      # seat 3 ordered up and its side took all five tricks
        ([[2, 'pass'], [3, 'order']], [2.0, 0.0, 2.0, 0.0])
        >>> bower.game("nosuch")
        Traceback (most recent call last):
        ...
        bower.sim.rules.RuleError: unknown variant 'nosuch' (known: ghost, cutthroat, hasenpfeffer, euchre)
    """
    from bower.sim.game import game as make

    _check_args(variant=(variant, "str"), rules=(rules, "dict?"))
    return make(_variant(variant), rules)


@_faults
def bot(name: str, *, variant: str = "ghost", seed: int = 0, **options: Any) -> Any:
    """bower's player ``name`` as a Python bot (``step(state) -> action``) for ``variant``'s game API.

    ``random``: a uniform legal action from ``random.Random(seed)``;
    ``greedy``: at each decision, every legal action tried in ``samples``
    (default 4) deals drawn by ``resample_from_infostate`` with random play
    after, the best mean points kept (``bower.sim.bots.GreedyBot``). A
    heuristic strategy preset (``default``, ``aggressive`` ...; also
    ``"bot:NAME"``, a ``.toml`` path) decides as the kernels' strategy does,
    through the kernels' own decision functions
    (``bower.sim.preset_bots``; a PIMC preset searches each card, and its
    calls when they are searched, by the kernels' own search). Auction-weighted
    worlds (``pimc_infer``), the true hands (``pimc_sees_all``) and the
    strategies that read the game's scores are refused in one line.
    ``bower.experiment`` takes bots where it takes strategies.

    Examples:
        >>> b = bower.bot("random", variant="euchre", seed=1)
        >>> state = bower.game("euchre").new_initial_state()
        >>> for a in [0] + list(range(24)):              # dealer 0, then the deck in order
        ...     state.apply_action(a)
        >>> state.action_to_string(b.step(state))
        'pass'
        >>> d = bower.bot("default", variant="euchre")
        >>> d
        <bower preset bot: default (euchre)>
        >>> while not state.is_terminal():               # the kernels' default at every seat
        ...     state.apply_action(d.step(state))
        >>> state.returns()
        [1.0, 0.0, 1.0, 0.0]
    """
    from bower.sim import bots

    _check_args(name=(name, "str"), variant=(variant, "str"), seed=(seed, "int"))
    return bots.bot(name, _variant(variant), seed=seed, **options)


@_faults
def equity(variant: str = "euchre", *, strategy: StrategyLike = "default", rules: dict[str, Any] | None = None,
           hands: int = 1_000_000, seed: int = 0, threads: int | None = None, target: int | None = None,
           resamples: int | None = None, cache: bool = True, scheduler: str | None = None) -> pd.DataFrame:
    """Game equity, as ``bower equity``: each side's or player's chance to win the game from every score and dealer.

    ``hands`` hands are simulated under ``strategy`` and counted by outcome
    (points to each side or player) and dealer; an exact DP over the scores
    and dealer to ``target`` (default: the variant's) gives the chances to
    win, and ``resamples`` Dirichlet redraws of the outcome counts (default
    200; Ghost Hand 10) their 95% intervals (``bower.sim.equity`` has the
    method). Two sides (Euchre, Hasenpfeffer): one row per state, ``dealer``
    (seat), ``own``, ``opponent``, ``equity``, ``low``, ``high``, ``se`` (side
    0's; ``se`` the cell's standard error, the redraws' standard deviation).
    Three players (Ghost Hand, Cutthroat): ``dealer``, ``score0`` ..
    ``score2`` (each seat's score), ``equity0`` .. ``equity2`` (each seat's
    chance), ``low0`` .. ``high2`` and ``se0`` .. ``se2``. ``.attrs`` holds the run (``variant``,
    ``start`` and the rest of the ``--json`` dict but the grids). A table
    computed once is kept in the user's cache folder
    (``$XDG_CACHE_HOME/bower/equity``, else ``~/.cache/bower/equity``) and
    read back by the next call with the same inputs; ``cache=False`` or
    ``BOWER_EQUITY_CACHE=0`` computes it afresh and keeps nothing.
    ``scheduler``: run the hands as Dask tasks, as ``simulate``'s (an
    address or ``local:N``); the table is the same for any ``threads`` or
    ``scheduler``.

    Examples:
        >>> eq = bower.equity("euchre", hands=100_000, seed=1, resamples=20)
        >>> eq.columns.tolist(), len(eq)
        (['dealer', 'own', 'opponent', 'equity', 'low', 'high', 'se'], 400)
        >>> mean = eq.groupby(["own", "opponent"])["equity"].mean()
        >>> round(float(mean[(0, 0)]), 2), round(float(mean[(8, 2)]), 2)   # 0-0 is fair; 8-2 nearly won
        (0.5, 0.94)
        >>> cut = bower.equity("cutthroat", hands=50_000, seed=1, resamples=10)
        >>> len(cut), round(float(cut.query("score0 == 0 and score1 == 0 and score2 == 0")["equity0"].mean()), 3)
        (3000, 0.333)
    """
    import numpy as np
    import pandas as pd

    from bower.sim import equity as E

    _check_args(variant=(variant, "str"), rules=(rules, "dict?"), hands=(hands, "int"), seed=(seed, "int"),
                threads=(threads, "int?"), target=(target, "int?"), resamples=(resamples, "int?"),
                cache=(cache, "bool"), scheduler=(scheduler, "str?"))
    t = E.compute(_variant(variant).name, strategy=strategy, rules=rules, hands=hands, seed=seed, threads=threads,
                  target=target, resamples=resamples, cache=cache, scheduler=scheduler)
    eq, lo, hi, se = (np.asarray(t[k]) for k in ("equity", "low", "high", "se"))
    if eq.ndim == 5:  # three players: [dealer][seat][score 0][score 1][score 2]
        d, a, b, c = np.meshgrid(np.arange(3), t["scores"], t["scores"], t["scores"], indexing="ij")
        cols = {"dealer": d.ravel(), "score0": a.ravel(), "score1": b.ravel(), "score2": c.ravel()}
        for name, arr in (("equity", eq), ("low", lo), ("high", hi), ("se", se)):
            cols.update({f"{name}{s}": arr[:, s].ravel() for s in range(3)})
        df = pd.DataFrame(cols)
    else:
        d, i, j = np.meshgrid(np.arange(eq.shape[0]), t["scores"], t["scores"], indexing="ij")
        df = pd.DataFrame({"dealer": d.ravel(), "own": i.ravel(), "opponent": j.ravel(), "equity": eq.ravel(),
                           "low": lo.ravel(), "high": hi.ravel(), "se": se.ravel()})
    df.attrs.update({k: x for k, x in t.items() if k not in ("equity", "low", "high", "se", "cube", "draws")})
    return df


@_faults
def solve(deal: str | dict[int, str | Sequence[str]], *, variant: str = "ghost", trump: str | None = None,
          maker: int | None = None, leader: int | None = None, dealer: int | None = None,
          alone: Sequence[int] = (), plays: str | Sequence[str] | None = None,
          rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """Double-dummy tricks of a deal or a part-played position, as ``bower solve`` (its ``--json`` dict).

    ``deal``: ``"0:JH JD AH KH QH TH 1:... 2:..."`` or ``{seat: cards}``
    (a string or a list of cards), the seats in play at the first lead.
    Without ``trump``: ``{"table": {trump: {maker: tricks}}}`` for every
    trump and maker. With ``trump`` and ``maker``: that contract's tricks;
    with ``plays`` (cards since the first lead) also each legal card's value.

    Examples:
        >>> deal = "0:JC JS TD 9H JH QH 1:9C TC AC 9S 9D AD 2:QC TS KS AS KH AH"
        >>> r = bower.solve(deal, trump="H", maker=0)
        >>> r["tricks"], r["values"]["JH"]
        (2, 2)
        >>> bower.solve(deal)["table"]["H"]        # every maker's tricks with hearts trump
        {'0': 2, '1': 1, '2': 2}
    """
    from bower.sim import solve as S
    from bower.sim.cards import parse_cards
    from bower.sim.rules import resolve
    from bower.sim.text import number_text

    v = _variant(variant)
    _check_args(deal=(deal, "deal"), trump=(trump, "str?"), maker=(maker, "int?"), leader=(leader, "int?"),
                dealer=(dealer, "int?"), alone=(alone, "ints"), plays=(plays, "cards?"), rules=(rules, "dict?"))
    if isinstance(deal, dict):
        n = v.card_play.seats
        for seat in deal:
            if isinstance(seat, int) and not isinstance(seat, bool) and not 0 <= seat < n:
                raise S.DealError(f"seat {number_text(seat)} is not at the {v.title} table (seats 0..{n - 1})")
        deal = " ".join(f"{seat}:" + (" ".join(map(str, cards)) if isinstance(cards, (list, tuple)) else str(cards))
                        for seat, cards in deal.items())
    rules_d = resolve(v, rules)
    hands = S.parse_deal(v, str(deal))
    alone = tuple(alone)
    S.check_seats(v, hands, leader, dealer, maker, alone)
    if trump is None:
        if plays or maker is not None:
            raise S.DealError("maker= and plays= need trump=")
        table = S.dd_table(v, hands, rules_d, dealer, leader, frozenset(alone))
        return {"variant": v.name, "table": {t: {str(m): x for m, x in row.items()} for t, row in table.items()}}
    if maker is None:
        raise S.DealError("trump= needs maker=")
    cards = []
    if plays:
        cards = parse_cards(plays if isinstance(plays, str) else " ".join(map(str, plays)),
                            allow_joker=v.card_play.joker)
    result = S.solve(v, hands, S.parse_suit(trump), maker, leader, cards, rules_d, dealer, frozenset(alone))
    result["variant"] = v.name
    return result


@_faults
def solve_records(records: PathLike, out: PathLike, *, threads: int | None = None, progress: bool = False,
                  scheduler: str | None = None) -> dict[str, Any]:
    """Copy a records file to ``out`` with every record's ``dd`` object added, as ``bower solve --records``.

    Examples:
        >>> run = bower.simulate("ghost", hands=50, seed=1, records="hands.jsonl")
        >>> done = bower.solve_records("hands.jsonl", "solved.jsonl")
        >>> done["records"], done["solved"]           # the hands thrown in have no contract to solve
        (50, 46)
    """
    from bower.sim import solve as S
    from bower.sim.progress import Progress
    from bower.sim.records_check import check_input

    _check_args(records=(records, "path"), out=(out, "path"), threads=(threads, "int?"), progress=(progress, "bool"),
                scheduler=(scheduler, "str?"))
    check_input(_path(records))  # a FIFO would be waited on without end
    bar = Progress("records", enabled=bool(progress))
    try:
        return S.solve_records(_path(records), _path(out), threads, bar, scheduler=scheduler)
    finally:
        bar.close()


@_faults
def replay(records: PathLike, *, dd: bool = False, scheduler: str | None = None,
           hand: int | str | tuple[int, int | None] | None = None,
           start: str | Sequence[int] | None = None) -> pd.DataFrame:
    """Replay a records file against the rules, as ``bower replay --json``: a DataFrame, one row per hand.

    Columns: the record's number, hand, variant, tricks, points (with any
    renege penalty), score as played, reneges, ``matches`` (the record's own
    tricks and points agree), game fields when the records form games, and
    with ``dd`` each play's double-dummy cost. ``hand``: only record ``N``
    (an int), or records ``N`` to ``M - 1`` (``"N:M"`` or ``(N, M)``; ``"N:"``
    or ``(N, None)``: to the end), numbered from 0 as the ``record`` column,
    as ``bower replay --hand``. ``start``: every game's score before its
    first hand, in place of the records' own ``start`` (``bower replay
    --start``: ``(4, 9)`` or ``"4,9"``).

    Examples:
        >>> run = bower.simulate("ghost", hands=20, seed=1, records="hands.jsonl")
        >>> df = bower.replay("hands.jsonl", hand="3:6")
        >>> df["record"].tolist(), bool(df["matches"].all())
        ([3, 4, 5], True)
    """
    import pandas as pd

    from bower.sim.records_check import check_input
    from bower.sim.replay import replay_file

    _check_args(records=(records, "path"), dd=(dd, "bool"), scheduler=(scheduler, "str?"))
    check_input(_path(records))  # a FIFO would be waited on without end
    return pd.DataFrame(list(replay_file(_path(records), dd, scheduler=scheduler, hand=hand, flag="hand=",
                                         start=start)))
