"""Strategies as data: named parameter records that the kernels read.

A strategy is a float64 vector; ``GHOST_PARAMS`` fixes the order and gives
each parameter's default and meaning. The kernels never hold a threshold of
their own, so experiments vary these numbers without recompiling.

Default Ghost Hand strategy (README explains it for players):

- *Trick estimate* of a hand for trump ``t``: the sum of the weight of each
  trump by its rank (``w_trump_*``, ``w_left``, ``w_right``), of each off-suit
  ace and king, and, if the hand holds at least two trumps, ``w_void`` for
  each other suit it lacks. Weights are rounded to steps of 1/4096 trick
  (``WEIGHT_STEP``), so every estimate is an exact sum in any order. The best
  suit is the one with the highest estimate (ties: lowest suit, C S D H).
- *Swap*: at a player's turn, before their first call, while the ghost is
  still there, swap when the best estimate is below ``swap_below``.
- *Call*: the estimate's level is moon if it reaches ``bid_moon``, else 5, 4 or
  3 by ``bid_5``, ``bid_4``, ``bid_3``, else none. Score-aware play shifts every
  threshold: the level is taken of ``estimate - shift``, where ``shift`` is
  ``0.0``, plus ``bid_shift_self_near`` if the player's game score is at least
  ``target - near_target``, plus ``bid_shift_opp_near`` if an opponent's is. Moon is called whenever it
  is the level. Otherwise a level above the standing bid bids: the level
  itself when ``bid_jump`` >= 0.5, else the least legal bid (3, or one above
  the standing bid). A stuck dealer with no level bids 3. The maker names
  the best suit of the hand they hold.
- *Lead*: the maker holding at least ``lead_trump_min`` trumps leads the
  highest trump; otherwise a sure winner (no unseen card of its suit beats it)
  of least value; otherwise the card of least value.
- *Follow*: the cheapest legal card that beats the trick so far; if none,
  the legal card of least value. Ties of value go to the lowest card index.
- *Random* (``random`` >= 0.5) replaces every decision by a uniform draw from
  the game's decision stream: swap or not (when a swap is open), a call among
  the legal ones (pass unless stuck, then each bid above the standing bid,
  moon last), the trump suit, and each card among the legal ones (ascending).

Default Cutthroat strategy (``CUTTHROAT_PARAMS``; same trick estimate and
weights, no joker). ``u`` is the up-card's suit:

- *Round one*: position 1 orders it up when its estimate for ``u`` reaches
  ``order_min``, position 2 assists at ``assist_min``; the dealer takes it up
  when the best 5 of its 6 cards (hand and up-card) reach ``take_min``.
- *Exchange*: after any acceptance the dealer would discard the card whose
  loss leaves the highest estimate for ``u`` (ties: lowest card); under
  ``dealer_pickup = optional`` it exchanges only if that beats its own hand.
- *Round two*: the best allowed suit is named when its estimate reaches
  ``name_min`` (ties: lowest suit); a stuck dealer always names it.
- *Alone*: the maker goes alone (no dummy) at ``alone_min``; then the
  defenders, from the maker's left, the first at ``defend_alone_min``.
- *Merge*: of the 10 cards, the maker keeps the 5 with the highest estimate
  (ties: the set with the largest bit mask), which counts voids and trump
  length, not only high cards.
- *Play*: leads as in Ghost Hand; a defender whose partner is winning the
  trick plays its card of least value instead of overtaking.
- *Random* (``random`` >= 0.5): every call, exchange, alone decision, keep
  set and card uniformly at random among the legal ones.

Default Hasenpfeffer strategy (``HASENPFEFFER_PARAMS``; the Ghost Hand
weights with the joker):

- *Bid*: the partnership's estimate is the best suit's estimate of the
  player's six cards plus ``partner_help``; the level is the largest L in
  1..6 with estimate >= L + ``cushion`` (pepper bidding: a 6 is little
  pepper, or big pepper from ``big_pepper_min``). A player bids when the
  level beats the standing bid (by ``support_margin`` more over a
  partner's bid): the level itself with ``bid_jump``, else the least bid.
- *Widow*: the bidder takes it and keeps the six of seven cards and the
  trump with the highest estimate (ties: lowest suit, then lowest discard).
- *Play*: the bidder leads its top trump with ``lead_trump_min`` trumps;
  else everyone cashes a sure winner of least value; the bidder's partner
  then leads its weakest trump (to the partner's strength). Nobody
  overtakes a partner who is winning the trick; otherwise the cheapest card
  that wins, else the card of least value.
"""

from __future__ import annotations

import math
import os
import tomllib

import numpy as np

from sim.errors import UserError

GHOST_PARAMS: tuple[tuple[str, float, str], ...] = (
    # trump weights in TRUMP_RANK order (kernels/tables.py): 9 T Q K A left right joker
    ("w_trump_nine", 0.4375, "tricks credited for the 9 of trump"),
    ("w_trump_ten", 0.50, "tricks credited for the 10 of trump"),
    ("w_trump_queen", 0.625, "tricks credited for the queen of trump"),
    ("w_trump_king", 0.6875, "tricks credited for the king of trump"),
    ("w_trump_ace", 0.875, "tricks credited for the ace of trump"),
    ("w_left", 0.9375, "tricks credited for the left bower"),
    ("w_right", 1.00, "tricks credited for the right bower"),
    ("w_joker", 1.00, "tricks credited for the joker (variants with a joker)"),
    ("w_off_ace", 0.625, "tricks credited for an off-suit ace"),
    ("w_off_king", 0.1875, "tricks credited for an off-suit king"),
    ("w_void", 0.375, "tricks credited per void off-suit when holding two or more trumps"),
    ("swap_below", 3.00, "swap to the ghost hand when the best estimate is below this"),
    ("bid_3", 2.80, "estimate needed to bid 3"),
    ("bid_4", 3.20, "estimate needed to bid 4"),
    ("bid_5", 4.50, "estimate needed to bid 5"),
    ("bid_moon", 5.00, "estimate needed to call the moon"),
    ("bid_jump", 0.0, "1: bid the level the estimate supports; 0: the least bid that beats the standing bid"),
    ("lead_trump_min", 2.0, "a maker with at least this many trumps leads the highest trump"),
    ("near_target", 6.0, "a player within this many points of the target counts as close to it"),
    ("bid_shift_self_near", 0.0, "added to every bid threshold while the player is close to the target"),
    ("bid_shift_opp_near", 0.0, "added to every bid threshold while an opponent is close to the target"),
    ("random", 0.0, "1: swap, call, name trump and play uniformly at random among the legal choices"),
)

GHOST_PARAM_NAMES = tuple(p[0] for p in GHOST_PARAMS)
GHOST_DEFAULTS = {p[0]: p[1] for p in GHOST_PARAMS}

CUTTHROAT_PARAMS: tuple[tuple[str, float, str], ...] = tuple(
    p for p in GHOST_PARAMS if p[0].startswith("w_") and p[0] != "w_joker"
) + (
    ("order_min", 2.25, "position 1 orders the up-card when its estimate for that suit reaches this"),
    ("assist_min", 0.25, "position 2 assists when its estimate for the up-card's suit reaches this"),
    ("take_min", 0.5, "the dealer takes the up-card when its best 5 of 6 cards reach this"),
    ("name_min", 1.0, "round two: name the best other suit when its estimate reaches this"),
    ("alone_min", 4.25, "the maker goes alone (without the dummy) when its estimate reaches this"),
    ("defend_alone_min", 3.75, "a defender goes alone when its estimate for trump reaches this"),
    ("lead_trump_min", 2.0, "a maker with at least this many trumps leads the highest trump"),
    ("random", 0.0, "1: every decision uniformly at random among the legal choices"),
)
CUTTHROAT_DEFAULTS = {p[0]: p[1] for p in CUTTHROAT_PARAMS}

HASENPFEFFER_PARAMS: tuple[tuple[str, float, str], ...] = tuple(p for p in GHOST_PARAMS if p[0].startswith("w_")) + (
    ("partner_help", 1.25, "tricks the partner is expected to add to the bidder's own estimate"),
    ("cushion", 0.0, "bid L when own estimate + partner_help reaches L + cushion"),
    ("support_margin", 0.0, "over a partner's bid, bid only when the level beats it by this much more"),
    ("bid_jump", 1.0, "1: bid the level the hand supports at once; 0: the least bid that beats the standing bid"),
    ("big_pepper_min", 6.5, "pepper bidding: a hand worth 6 bids big pepper when the partnership estimate reaches this"),
    ("lead_trump_min", 2.0, "a bidder with at least this many trumps leads the highest trump"),
    ("random", 0.0, "1: every decision uniformly at random among the legal choices"),
)
HASENPFEFFER_DEFAULTS = {p[0]: p[1] for p in HASENPFEFFER_PARAMS}

PARAMS = {"ghost": GHOST_PARAMS, "cutthroat": CUTTHROAT_PARAMS, "hasenpfeffer": HASENPFEFFER_PARAMS}
DEFAULTS = {"ghost": GHOST_DEFAULTS, "cutthroat": CUTTHROAT_DEFAULTS, "hasenpfeffer": HASENPFEFFER_DEFAULTS}
PARAM_NAMES = {v: tuple(p[0] for p in t) for v, t in PARAMS.items()}


def _preset(variant: str = "ghost", **changes: float) -> dict[str, float]:
    params = dict(DEFAULTS[variant])
    params.update(changes)
    return params


PRESETS: dict[str, dict[str, float]] = {
    "default": _preset(),
    "cautious": _preset(swap_below=2.8, bid_3=3.2, bid_4=3.6, bid_5=4.9, bid_moon=5.4),
    "aggressive": _preset(swap_below=3.2, bid_3=2.4, bid_4=2.8, bid_5=4.1, bid_moon=4.7),
    "never-swap": _preset(swap_below=-1.0),
    "score-aware": _preset(bid_shift_self_near=0.4, bid_shift_opp_near=-0.4),
    "random": _preset(random=1.0),
}

PRESET_NOTES = {
    "default": "the strategy README describes",
    "cautious": "bids only on stronger hands, swaps less",
    "aggressive": "bids on weaker hands, swaps more",
    "never-swap": "the default, never taking the ghost hand",
    "score-aware": "near the target bids less (tricks score anyway); bids more to stop an opponent near it",
    "random": "every choice uniformly at random among the legal ones: the floor to beat",
}

CUTTHROAT_PRESETS: dict[str, dict[str, float]] = {
    "default": _preset("cutthroat"),
    "cautious": _preset("cutthroat", order_min=2.75, assist_min=1.0, take_min=1.25, name_min=1.75),
    "aggressive": _preset("cutthroat", order_min=1.75, assist_min=0.0, take_min=0.0, name_min=0.5),
    "never-alone": _preset("cutthroat", alone_min=99.0, defend_alone_min=99.0),
    "random": _preset("cutthroat", random=1.0),
}
CUTTHROAT_PRESET_NOTES = {
    "default": "the strategy README describes",
    "cautious": "makes trump only on stronger hands",
    "aggressive": "makes trump on weaker hands, counting on the dummy",
    "never-alone": "the default, never going alone as maker or defender",
    "random": "every choice uniformly at random among the legal ones: the floor to beat",
}

HASENPFEFFER_PRESETS: dict[str, dict[str, float]] = {
    "default": _preset("hasenpfeffer"),
    "cautious": _preset("hasenpfeffer", cushion=0.5),
    "aggressive": _preset("hasenpfeffer", cushion=-0.5),
    "creeping": _preset("hasenpfeffer", bid_jump=0.0),
    "random": _preset("hasenpfeffer", random=1.0),
}
HASENPFEFFER_PRESET_NOTES = {
    "default": "the strategy README describes",
    "cautious": "bids half a trick lower on the same hand (cushion 0.5)",
    "aggressive": "bids half a trick higher on the same hand (cushion -0.5)",
    "creeping": "raises the standing bid by one at a time instead of bidding its level at once",
    "random": "every choice uniformly at random among the legal ones: the floor to beat",
}

VARIANT_PRESETS = {"ghost": PRESETS, "cutthroat": CUTTHROAT_PRESETS, "hasenpfeffer": HASENPFEFFER_PRESETS}
VARIANT_PRESET_NOTES = {"ghost": PRESET_NOTES, "cutthroat": CUTTHROAT_PRESET_NOTES,
                        "hasenpfeffer": HASENPFEFFER_PRESET_NOTES}


class StrategyError(UserError, ValueError):
    """An unknown strategy, parameter or a bad parameter value."""


# Trick weights are used in steps of WEIGHT_STEP (a binary fraction), so every estimate is an exact
# sum whatever the order of its terms; weights must stay below WEIGHT_LIMIT in size.
WEIGHT_STEP = 2.0**-12
WEIGHT_LIMIT = 64.0
# Switches are on at 0.5 and above (0 = off, 1 = on); other parameters that must not be negative.
SWITCHES = {"bid_jump", "random"}
NON_NEGATIVE = {"lead_trump_min", "near_target"}


def _variant(variant: str) -> str:
    if variant not in PARAMS:
        raise StrategyError(f"no strategies for variant {variant!r} (known: {', '.join(PARAMS)})")
    return variant


def param_index(name: str, variant: str = "ghost") -> int:
    """Position of a strategy parameter of ``variant`` in its vector."""
    return PARAM_NAMES[variant].index(name)


def check_value(name: str, value, where: str = "", variant: str = "ghost") -> float:
    """``value`` as a float if it is allowed for parameter ``name``; StrategyError naming it otherwise."""
    at = f" in {where}" if where else ""
    if name not in DEFAULTS[_variant(variant)]:
        raise StrategyError(f"unknown strategy parameter {name!r}{at} ({variant})")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        try:
            value = float(value)
        except (TypeError, ValueError):
            raise StrategyError(f"bad value {value!r} for strategy parameter {name!r}{at} (a number)") from None
    value = float(value)
    if not math.isfinite(value):
        raise StrategyError(f"bad value {value!r} for strategy parameter {name!r}{at} (a finite number)")
    if name.startswith("w_"):
        if abs(value) >= WEIGHT_LIMIT:
            raise StrategyError(f"bad value {value!r} for strategy parameter {name!r}{at} (a weight below {WEIGHT_LIMIT:g})")
        value = round(value / WEIGHT_STEP) * WEIGHT_STEP
    if name in SWITCHES and not 0.0 <= value <= 1.0:
        raise StrategyError(f"bad value {value!r} for strategy parameter {name!r}{at} (0 = off, 1 = on)")
    if name in NON_NEGATIVE and value < 0:
        raise StrategyError(f"bad value {value!r} for strategy parameter {name!r}{at} (not negative)")
    return value


def load_toml(path: str, variant: str = "ghost") -> dict[str, float]:
    """A strategy from a TOML file that sets every parameter (and optionally ``name`` and ``variant``)."""
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as e:
        raise StrategyError(f"cannot read strategy file {path}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise StrategyError(f"strategy file {path} is not valid TOML: {e}") from None
    data.pop("name", None)
    declared = data.pop("variant", variant)
    if str(declared).lower() != variant:
        raise StrategyError(f"strategy file {path} is for variant {declared!r}, not {variant!r}")
    params = {k: check_value(k, v, path, variant) for k, v in data.items()}
    missing = [n for n in PARAM_NAMES[variant] if n not in params]
    if missing:
        raise StrategyError(f"strategy file {path} is missing parameter {missing[0]!r}" + (
            f" (and {len(missing) - 1} more)" if len(missing) > 1 else ""))
    return params


def load_strategy(spec, variant: str = "ghost") -> tuple[str, dict[str, float]]:
    """(name, full parameter dict) of a preset name, a ``.toml`` path, or a dict over the defaults."""
    presets = VARIANT_PRESETS[_variant(variant)]
    if isinstance(spec, dict):
        params = dict(DEFAULTS[variant])
        for k, v in spec.items():
            params[k] = check_value(k, v, "", variant)
        return "custom", params
    spec = str(spec)
    if spec in presets:
        return spec, dict(presets[spec])
    if spec.lower().endswith(".toml") or os.path.sep in spec:
        return os.path.splitext(os.path.basename(spec))[0], load_toml(spec, variant)
    raise StrategyError(f"unknown strategy {spec!r} for {variant} (presets: {', '.join(presets)}; or a .toml file)")


def resolve_strategy(name_or_params="default", variant: str = "ghost") -> dict[str, float]:
    """A full parameter dict from a preset name, a TOML path or a (partial) dict over the defaults."""
    return load_strategy(name_or_params, variant)[1]


def to_toml(name: str, params: dict[str, float], variant: str = "ghost") -> str:
    """A strategy as a TOML file that ``load_toml`` reads back, with each parameter explained."""
    from sim.rules import get_variant

    title = get_variant(variant).title
    lines = [f"# bower strategy for {title}: {name}", f"name = {name!r}".replace("'", '"'),
             f'variant = "{variant}"', ""]
    for pname, _, doc in PARAMS[variant]:
        lines.append(f"# {doc}")
        lines.append(f"{pname} = {params[pname]!r}")
    return "\n".join(lines) + "\n"


def to_vector(params: dict[str, float], variant: str = "ghost") -> np.ndarray:
    """The float64 parameter vector the kernels read."""
    return np.array([float(params[n]) for n in PARAM_NAMES[variant]], np.float64)
