"""Rules as data: the variants, their rule options with defaults, and their encoding for the kernels.

Option names and values are exactly those of RULES.md. A rule set is a dict
``{name: value}`` with every option of the variant; ``encode`` turns it into
the int64 vector the kernels read (index = position in ``options``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.errors import UserError

RULES_VERSION = "bower-rules-1 (RULES.md 2026-11)"


class RuleError(UserError, ValueError):
    """An unknown variant, an unknown rule option or a value the option does not allow."""


@dataclass(frozen=True)
class Option:
    """One named rule option: allowed values (default first) and their kernel codes."""

    name: str
    values: tuple
    codes: tuple

    @property
    def default(self):
        return self.values[0]


@dataclass(frozen=True)
class Variant:
    """A variant: its name, seats, hand size and its rule options in kernel order."""

    name: str
    title: str
    players: int
    hand_size: int
    target: int
    options: tuple[Option, ...]

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        known = ", ".join(o.name for o in self.options)
        raise RuleError(f"unknown rule option {name!r} for {self.name} (known: {known})")


GHOST = Variant(
    name="ghost",
    title="Ghost Hand Euchre",
    players=3,
    hand_size=6,
    target=32,
    options=(
        Option("auction", ("one_lap", "until_passes"), (0, 1)),
        Option("swap", ("at_turn", "none"), (1, 0)),
        Option("stick_the_dealer", (False, True), (0, 1)),
        Option("moon_set_penalty", (6, 24), (6, 24)),
        Option("set_keeps_tricks", (False, True), (0, 1)),
        Option("tiebreak", ("highest", "playoff"), (0, 1)),
    ),
)

# Kernel indices into the encoded Ghost Hand rule vector.
G_AUCTION, G_SWAP, G_STICK, G_MOON_PENALTY, G_SET_KEEPS, G_TIEBREAK = range(6)

CUTTHROAT = Variant(
    name="cutthroat",
    title="Cutthroat: three-handed Euchre with a dummy",
    players=3,
    hand_size=5,
    target=10,
    options=(
        Option("dealer_pickup", ("optional", "mandatory"), (0, 1)),
        Option("allow_turned_down_suit", (False, True), (0, 1)),
        Option("stick_the_dealer", (False, True), (0, 1)),
        Option("maker_alone", ("allowed", "disabled"), (1, 0)),
        Option("lone_maker_march", (4, 3), (4, 3)),
        Option("lone_defender_points", ("both", "lone_only"), (0, 1)),
    ),
)

# Kernel indices into the encoded Cutthroat rule vector.
C_PICKUP_MANDATORY, C_TURNED_DOWN_OK, C_STICK, C_MAKER_ALONE, C_LONE_MARCH, C_LONE_ONLY = range(6)

HASENPFEFFER = Variant(
    name="hasenpfeffer",
    title="Hasenpfeffer",
    players=4,
    hand_size=6,
    target=10,
    options=(
        Option("pass_is_final", (False, True), (0, 1)),
        Option("all_pass", ("joker_bids_three", "redeal"), (0, 1)),
        Option("bidding", ("numeric", "pepper"), (0, 1)),
        Option("widow", ("exchange", "dead"), (0, 1)),
        Option("first_lead", ("dealer_left", "bidder"), (0, 1)),
        Option("fail_penalty", ("bid", "undertricks"), (0, 1)),
        Option("defenders_score_tricks", (False, True), (0, 1)),
    ),
)

# Kernel indices into the encoded Hasenpfeffer rule vector.
H_PASS_FINAL, H_REDEAL, H_PEPPER, H_WIDOW_DEAD, H_BIDDER_LEADS, H_UNDERTRICKS, H_DEFENDERS_SCORE = range(7)

VARIANTS = {"ghost": GHOST, "cutthroat": CUTTHROAT, "hasenpfeffer": HASENPFEFFER}
VARIANT_ALIASES = {
    "ghost": "ghost", "ghost-hand": "ghost", "ghosthand": "ghost",
    "cutthroat": "cutthroat", "cut-throat": "cutthroat",
    "hasenpfeffer": "hasenpfeffer", "hasen": "hasenpfeffer",
}

_TRUE = {"true", "yes", "1", "on"}
_FALSE = {"false", "no", "0", "off"}


def get_variant(name: str) -> Variant:
    """The variant called ``name`` (``ghost``, ``cutthroat``, ``hasenpfeffer``); RuleError names the known ones otherwise."""
    key = VARIANT_ALIASES.get(str(name).lower())
    if key is None:
        raise RuleError(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})")
    return VARIANTS[key]


def _parse_value(opt: Option, raw) -> object:
    for v in opt.values:
        if raw == v and type(raw) is type(v):
            return v
    text = str(raw).strip().lower()
    for v in opt.values:
        if isinstance(v, bool):
            if (v and text in _TRUE) or (not v and text in _FALSE):
                return v
        elif str(v).lower() == text:
            return v
    allowed = " | ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in opt.values)
    raise RuleError(f"bad value {raw!r} for rule option {opt.name!r} (allowed: {allowed})")


def resolve(variant: Variant, overrides: dict | None = None) -> dict:
    """Every option of ``variant`` with its value: defaults, then ``overrides`` (names checked)."""
    rules = {o.name: o.default for o in variant.options}
    for name, raw in (overrides or {}).items():
        opt = variant.option(name)
        rules[name] = _parse_value(opt, raw)
    return rules


def parse_rule_args(variant: Variant, pairs) -> dict:
    """Rules from ``NAME=VALUE`` strings (the CLI's ``--rule``), resolved against defaults."""
    overrides = {}
    for p in pairs or ():
        if "=" not in p:
            raise RuleError(f"rule option {p!r} must be written NAME=VALUE")
        name, value = p.split("=", 1)
        overrides[name.strip()] = value.strip()
    return resolve(variant, overrides)


def encode(variant: Variant, rules: dict) -> np.ndarray:
    """The int64 vector of kernel codes for a resolved rule set."""
    vec = np.zeros(len(variant.options), np.int64)
    for i, o in enumerate(variant.options):
        vec[i] = o.codes[o.values.index(rules[o.name])]
    return vec


def to_json(rules: dict) -> dict:
    """Rules as JSON-ready values (booleans stay booleans, numbers numbers)."""
    return dict(rules)
