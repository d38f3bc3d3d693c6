"""Hand-made Standard Euchre deals and strategy specs for the rule-option tests: the helpers they share."""

from __future__ import annotations

from bower.sim.strategy import resolve_strategy


def order_of(by_position: dict, kitty: str) -> list[str]:
    """The 24-card deal order giving each position (1..4) its five cards; ``kitty`` up-card first."""
    hands = {p: cards.split() for p, cards in by_position.items()}
    return [hands[i % 4 + 1][i // 4] for i in range(20)] + kitty.split()


def twin_params(spec):
    """The twin's parameters for a strategy spec (a name, or a list of one a seat), resolved as the kernels do."""
    if isinstance(spec, list):
        return [resolve_strategy(s, variant="euchre") for s in spec]
    return resolve_strategy(spec, variant="euchre")


def earns_token(rec: dict) -> bool:
    """Whether a hand's record earns its makers a ``four_trick_tokens`` token: made with partner, exactly 4 tricks."""
    m = rec["maker"]
    return m is not None and m not in rec["alone"] and rec["tricks"][str(m)] + rec["tricks"][str((m + 2) % 4)] == 4
