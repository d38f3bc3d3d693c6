"""Strategies as data: named parameter records that the kernels read, and their loading and checking.

A strategy is a float64 vector per seat; each variant's ``kernels/NAME/codes.py``
fixes the order and gives each parameter's default and meaning, and its
``sim/variants/NAME/strategy.py`` describes the strategy in words and holds the
presets. The kernels never hold a threshold of their own, so experiments vary
these numbers without recompiling. Everything here takes the variant (a name
or a ``Variant``) and reads its tables through ``bower.sim.variants``.
"""

from __future__ import annotations

import math
import os
import re
import tomllib

import numpy as np

from bower.sim.errors import UserError
from bower.sim.limits import STRATEGY_FIFO_WAIT
from bower.sim.text import did_you_mean, limit_text, number_text, written_float


class StrategyError(UserError, ValueError):
    """An unknown strategy, parameter or a bad parameter value."""


# Trick weights are used in steps of WEIGHT_STEP (a binary fraction), so every estimate is an exact
# sum whatever the order of its terms; weights must stay below WEIGHT_LIMIT in size (``kernels/estimate.py``,
# imported where a weight is checked: ``import bower`` loads no Numba)

MAX_PIMC_WORLDS = 10_000  # worlds searched per PIMC decision: each one a double-dummy solve
# Parameters the kernels read as whole numbers, with their ranges (every variant): a value outside is refused,
# never wrapped around or cut to another player.
WHOLE_PARAMS: dict[str, tuple[int, int]] = {"pimc_worlds": (0, MAX_PIMC_WORLDS)}


def _variant(variant):
    """The ``Variant`` of a name (StrategyError for an unknown one) or the object itself."""
    from bower.sim.rules import RuleError
    from bower.sim.variants import get_variant

    try:
        return get_variant(variant)
    except RuleError:
        from bower.sim.variants import names

        raise StrategyError(f"no strategies for variant {variant!r} (known: {', '.join(names())})") from None


def param_index(name: str, variant="ghost") -> int:
    """Position of a strategy parameter of ``variant`` in its vector."""
    return _variant(variant).param_names.index(name)


def param_range(name: str) -> str:
    """The range of a whole-number parameter in words (``a whole number from 0 to 10,000``), else ``""``."""
    if name not in WHOLE_PARAMS:
        return ""
    low, high = WHOLE_PARAMS[name]
    return f"a whole number from {low:,} to {limit_text(high)}"


def check_value(name: str, value, where: str = "", variant="ghost") -> float:
    """``value`` as a float if it is allowed for parameter ``name``; StrategyError naming it otherwise."""
    at = f" in {where}" if where else ""
    v = _variant(variant)
    if name not in v.param_names:
        raise StrategyError(f"unknown strategy parameter {name!r}{at} ({v.name}){did_you_mean(name, v.param_names)}")
    shown = number_text(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        try:
            value = float(value)
        except (TypeError, ValueError, OverflowError):
            raise StrategyError(f"bad value {shown} for strategy parameter {name!r}{at} (a number)") from None
    if name in WHOLE_PARAMS:
        low, high = WHOLE_PARAMS[name]
        if not low <= value <= high or value != math.floor(value):
            raise StrategyError(f"bad value {shown} for strategy parameter {name!r}{at} ({param_range(name)})")
    try:
        value = float(value)
    except OverflowError:
        value = math.inf
    if not math.isfinite(value):
        raise StrategyError(f"bad value {shown} for strategy parameter {name!r}{at} (a finite number)")
    if name.startswith("w_"):
        from bower.kernels.estimate import WEIGHT_LIMIT, WEIGHT_STEP

        if abs(value) >= WEIGHT_LIMIT:
            raise StrategyError(f"bad value {value!r} for strategy parameter {name!r}{at} (a weight below {WEIGHT_LIMIT:g})")
        value = round(value / WEIGHT_STEP) * WEIGHT_STEP
    if name in v.switches and not 0.0 <= value <= 1.0:
        raise StrategyError(f"bad value {value!r} for strategy parameter {name!r}{at} (0 = off, 1 = on)")
    if name == "pimc_eps" and not 0.0 <= value <= 1.0:
        raise StrategyError(f"bad value {value!r} for strategy parameter {name!r}{at} (a share from 0 to 1)")
    if name in v.non_negative and value < 0:
        raise StrategyError(f"bad value {value!r} for strategy parameter {name!r}{at} (not negative)")
    return value


def _toml_value(name: str, value, path: str, v) -> float:
    """A TOML value for parameter ``name``: a switch is ``true``/``false`` (or 0/1), anything else a number."""
    if name in v.param_names:
        if name in v.switches:
            if isinstance(value, bool):
                return 1.0 if value else 0.0
            if not isinstance(value, (int, float)):
                raise StrategyError(f"bad value {value!r} for strategy parameter {name!r} in {path} "
                                    "(a switch: true or false)")
        elif isinstance(value, bool) or not isinstance(value, (int, float)):
            shown = str(value).lower() if isinstance(value, bool) else repr(value)
            raise StrategyError(f"bad value {shown} for strategy parameter {name!r} in {path} (a number)")
    return check_value(name, value, path, v)


# more dotted parts than this in one key (a.a.a... = 1, [a.a.a...]) is refused before parsing: Python's TOML reader
# takes time quadratic in them (20,000 parts: 8 s; a 400 KB file: a quarter of an hour), and no strategy key has 2
MAX_KEY_PARTS = 32
_KEY_PART = r"""(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')"""
_QUOTED = re.compile(r""""[^"\n]*"|'[^'\n]*'""")  # a quoted part, whose dots are its own
_DOTTED = re.compile(_KEY_PART + r"(?:[ \t]*\.[ \t]*" + _KEY_PART + ")*")  # one chain a.b.c, matched in one pass


def _deep_key(text: str) -> bool:
    """Whether ``text`` holds a dotted chain (a key, or a table's name) of more than ``MAX_KEY_PARTS`` parts."""
    return any(m.group().count(".") >= MAX_KEY_PARTS and _QUOTED.sub("q", m.group()).count(".") >= MAX_KEY_PARTS
               for m in _DOTTED.finditer(text))


FIFO_WAIT = STRATEGY_FIFO_WAIT  # seconds a strategy file that is a FIFO may take to say something (sim/limits.py)


def _read_text(path: str) -> bytes:
    """The bytes of the file ``path``; a FIFO (``--strategy <(...)``) is read once its writer has written, else
    StrategyError after ``FIFO_WAIT`` seconds; a socket or device is refused (read, it may never end)."""
    import select

    from bower.sim.errors import FIFO, not_a_file

    kind = not_a_file(path)
    if kind is None:  # a file (or not there: the open says so)
        with open(path, "rb") as fh:
            return fh.read()
    if kind != FIFO:
        raise StrategyError(f"cannot read strategy file {path}: it is {kind}, not a file")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # the open of a FIFO with no writer yet does not wait
    try:
        poll = select.poll()
        poll.register(fd, select.POLLIN)
        if not poll.poll(int(FIFO_WAIT * 1000)):
            raise StrategyError(f"cannot read strategy file {path}: it is a FIFO (named pipe) that nothing wrote "
                                f"to within {FIFO_WAIT:g} s")
        os.set_blocking(fd, True)  # a writer is there: read to its end
        chunks = []
        while chunk := os.read(fd, 1 << 16):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def load_toml(path: str, variant="ghost") -> dict[str, float]:
    """A strategy from a TOML file: every parameter, or ``base = "PRESET"`` and the parameters that differ.

    Optional keys: ``name`` (a string), ``variant`` (the file's variant),
    ``base`` (a preset of that variant the file starts from). Switches are
    ``true``/``false``; every other parameter is a number.
    """
    try:
        text = _read_text(path).decode("utf-8")
        if _deep_key(text):
            raise StrategyError(f"strategy file {path} is not valid TOML: a key of more than {MAX_KEY_PARTS} "
                                "dotted parts (tables nested too deeply)")
        data = tomllib.loads(text, parse_float=written_float)  # 1e400 named as written, not inf
    except StrategyError:  # _read_text's own (a ValueError, not a TOML fault)
        raise
    except OSError as e:
        raise StrategyError(f"cannot read strategy file {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise StrategyError(f"strategy file {path} is not UTF-8 text (a TOML file is)") from None
    except tomllib.TOMLDecodeError as e:
        raise StrategyError(f"strategy file {path} is not valid TOML: {e}") from None
    except ValueError:  # an integer of thousands of digits (Python's limit on converting them)
        raise StrategyError(f"strategy file {path} is not valid TOML: a number too long to read") from None
    except RecursionError:
        raise StrategyError(f"strategy file {path} is not valid TOML: arrays or tables nested too deeply") from None
    v = _variant(variant)
    name = data.pop("name", None)
    if name is not None and not isinstance(name, str):
        raise StrategyError(f"strategy file {path}: name must be a string (name = \"...\"), got {name!r}")
    declared = data.pop("variant", v.name)
    if not isinstance(declared, str) or declared.lower() != v.name:
        raise StrategyError(f"strategy file {path} is for variant {declared!r}, not {v.name!r}")
    base = data.pop("base", None)
    if base is not None and (not isinstance(base, str) or base not in v.presets):
        raise StrategyError(f"strategy file {path}: base {base!r} is not a {v.name} preset "
                            f"({', '.join(v.presets)})")
    params = {k: _toml_value(k, x, path, v) for k, x in data.items()}
    if base is not None:
        return {**v.presets[base], **params}
    missing = [n for n in v.param_names if n not in params]
    if missing:
        raise StrategyError(f"strategy file {path} is missing parameter {missing[0]!r}" + (
            f" (and {len(missing) - 1} more)" if len(missing) > 1 else "")
            + "; or name a preset to start from, e.g. base = \"default\"")
    return params


class Strategy:
    """A named strategy of one variant: every parameter set (``bower.strategy`` builds one from a preset).

    ``name`` is what summaries, experiments and records call it; ``params``
    is the full parameter dict, each value checked. Usable wherever a preset
    name or a ``.toml`` path is.

    Examples:
        >>> bold = bower.strategy("default", bid_3=2.6, name="bold")
        >>> bold
        Strategy('bold', variant='ghost', 29 parameters)
        >>> bold.name, bold.variant, bold.params["bid_3"]
        ('bold', 'ghost', 2.6)
        >>> bower.Strategy("mine", {"bid_3": 2.8}).params["bid_3"]     # the other parameters: the defaults
        2.8
    """

    def __init__(self, name: str, params: dict[str, float], variant: str = "ghost"):
        """Check every parameter of ``params`` (the missing ones take the defaults) for ``variant`` (a name)."""
        v = _variant(variant)
        if not isinstance(name, str) or not name.strip():
            raise StrategyError(f"a strategy's name must be a non-empty string, got {name!r}")
        full = v.defaults
        for k, x in params.items():
            full[k] = check_value(k, x, "", v)
        self.name, self.variant, self.params = name, v.name, full

    def with_params(self, name: str | None = None, **overrides: float) -> "Strategy":
        """A copy with ``overrides`` set (and another ``name``, default this one's), each value checked.

        Examples:
            >>> bolder = bower.strategy("default", bid_3=2.6, name="bold").with_params("bolder", bid_4=3.4)
            >>> bolder.name, bolder.params["bid_3"], bolder.params["bid_4"]
            ('bolder', 2.6, 3.4)
        """
        return Strategy(self.name if name is None else name, {**self.params, **overrides}, self.variant)

    def to_toml(self) -> str:
        """The strategy as a ``.toml`` file that reads back to it (``bower strategies --show``'s form).

        Examples:
            >>> text = bower.strategy("default", bid_3=2.6, name="bold").to_toml()
            >>> print("\\n".join(text.splitlines()[1:3]))
            name = "bold"
            variant = "ghost"
            >>> from pathlib import Path
            >>> _ = Path("bold.toml").write_text(text)
            >>> bower.strategy("bold.toml").params["bid_3"]       # reads back
            2.6
        """
        return to_toml(self.name, self.params, self.variant)

    def __eq__(self, other) -> bool:
        return (isinstance(other, Strategy) and (self.name, self.variant, self.params)
                == (other.name, other.variant, other.params))

    def __repr__(self) -> str:
        return f"Strategy({self.name!r}, variant={self.variant!r}, {len(self.params)} parameters)"


def load_strategy(spec, variant="ghost") -> tuple[str, dict[str, float]]:
    """(name, full parameter dict) of a preset name, a ``.toml`` path, a ``Strategy`` or a dict over the defaults."""
    v = _variant(variant)
    presets = v.presets
    if isinstance(spec, Strategy):
        if spec.variant != v.name:
            raise StrategyError(f"strategy {spec.name!r} is a {spec.variant} strategy, not {v.name}")
        return spec.name, dict(spec.params)
    if isinstance(spec, dict):
        params = v.defaults
        for k, x in spec.items():
            params[k] = check_value(k, x, "", v)
        return "custom", params
    if not isinstance(spec, (str, os.PathLike)):  # str() would make a preset name of 5 or None
        try:
            shown = repr(spec)
        except ValueError:  # a whole number too long to print
            shown = "a huge number"
        shown = shown if len(shown) <= 40 else shown[:37] + "..."
        raise StrategyError(f"a strategy is a preset name, a .toml path, a dict of parameters or a Strategy, "
                            f"not {shown} ({type(spec).__name__})")
    spec = os.fspath(spec)
    if spec in presets:
        return spec, dict(presets[spec])
    if spec.lower().endswith(".toml") or os.path.sep in spec:
        return os.path.splitext(os.path.basename(spec))[0], load_toml(spec, v)
    raise StrategyError(f"unknown strategy {spec!r} for {v.name}{did_you_mean(spec, presets)} (presets: "
                        f"{', '.join(presets)}; or a .toml file)")


def resolve_strategy(name_or_params="default", variant="ghost") -> dict[str, float]:
    """A full parameter dict from a preset name, a TOML path or a (partial) dict over the defaults."""
    return load_strategy(name_or_params, variant)[1]


def to_toml(name: str, params: dict[str, float], variant="ghost") -> str:
    """A strategy as a TOML file that ``load_toml`` reads back, with each parameter explained."""
    v = _variant(variant)
    lines = [f"# bower strategy for {v.title}: {name}", f"name = {name!r}".replace("'", '"'),
             f'variant = "{v.name}"', ""]
    lines[3:3] = ["", "# base = \"default\" would start from a preset: then only the parameters that differ are needed"]
    for pname, _, doc in v.params:
        lines.append(f"# {doc}")
        value = params[pname]
        lines.append(f"{pname} = {str(bool(value)).lower() if pname in v.switches and value in (0.0, 1.0) else repr(value)}")
    return "\n".join(lines) + "\n"


def to_vector(params: dict[str, float], variant="ghost") -> np.ndarray:
    """The float64 parameter vector the kernels read."""
    return np.array([float(params[n]) for n in _variant(variant).param_names], np.float64)
