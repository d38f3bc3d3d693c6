"""Standard Euchre strategies: the default in words, the presets.

Default Standard Euchre strategy (``kernels/euchre/SPEC.md``; the parameters
are ``bower.kernels.euchre.codes.PARAMS``). ``E(hand, t)`` is the trick estimate of a
hand for trump ``t``: the sum of its cards' weights (trumps ``w_trump_*``,
``w_left``, ``w_right``; an off-suit ace ``w_off_ace``, king ``w_off_king``)
plus ``w_void`` per empty non-trump suit when it holds 2+ trumps. ``u`` is
the up-card's suit and ``w_up`` the up-card's weight for trump ``u``:

- *Round one*, positions 1 to 4 (the dealer): position 1 or 3 orders it up
  when ``E(hand, u) - up_weight * w_up`` reaches ``order_min_1`` /
  ``order_min_3`` (the up-card goes to an opponent), the dealer's partner
  (position 2) when ``E(hand, u) + up_weight * w_up`` reaches ``order_min_2``;
  the dealer takes it up when its best five of six (hand and up-card, the
  up-card kept) reach ``take_min``.
- *Discard*: after an order the dealer takes the up-card and discards the
  card whose loss leaves the highest estimate for ``u`` (ties: lowest card).
- *Round two*: the best suit other than ``u`` (ties: lowest suit) is named
  when its estimate reaches ``name_min_p`` of the position; under
  ``stick_the_dealer`` the dealer, reached, always names it.
- *Alone*: the maker goes alone at ``alone_min``; under
  ``allow_lone_defender`` the defenders, the lower position first, defend
  alone at ``defend_alone_min`` (the first who does plays alone).
- *Lead*: a maker with ``lead_trump_min`` trumps leads its highest trump;
  on the first lead of a round-two hand a defender leads "next" (its highest
  card of the suit of the up-card's colour, when that suit is not trump)
  with ``lead_next``; else a sure winner of least value; the maker's partner
  leads its weakest trump; else its card of least value.
- *Follow*: when the partner is winning the trick, the card of least value;
  otherwise the cheapest card that wins, else the card of least value.
- *Random* (``random`` >= 0.5): every call, discard, alone decision and card
  uniformly at random among the legal ones.
- *PIMC card play* (``pimc_worlds`` >= 1, ``kernels/pimc.py``) replaces the
  lead and follow rules (and a random player's cards): at each turn the unseen
  cards are dealt ``pimc_worlds`` times, uniformly among the deals that agree
  with what the player has seen (its hand, the cards played, the voids shown,
  the up-card and (to the dealer) the discard), each deal is solved double
  dummy (the partnerships), and the legal card with the most tricks for its
  side summed over the deals is played (ties: the card of least value).
  ``pimc_sees_all`` = 1 makes its one deal the true one.
- *PIMC auction* (``pimc_bid`` with ``pimc_worlds`` >= 1): each call (pass,
  order up, name a suit, with and without going alone), the dealer's discard
  and the choice to defend alone are scored on the sampled deals (the rest of
  the auction by the seats' strategies, the contract solved double dummy) by
  the side's net points; the best is made (ties: the strategy's own choice).
- *PIMC inference* (``pimc_infer``): each deal is weighted by the auction
  model of should-bid (temperature ``pimc_tau``, tremble ``pimc_eps``): the
  probability of the calls the other seats made on it, and of the dealer's
  discard (``kernels/euchre/model.py``, ``world_weight``).
- *Game-equity bidding* (``bid_equity``, the ``equity`` preset): in whole
  games each call (pass, order up or name the best suit, with or without
  going alone; the stuck dealer names) is the level whose measured outcomes
  give the side the highest chance to win the game from the score, by the
  game-equity table (``bower.sim.variants.euchre.equity_strategy``); the
  thresholds' call stands where a cell is missing or nothing is strictly
  better. In independent hands (no score) it calls by the thresholds.
"""

from __future__ import annotations

from bower.kernels.euchre.codes import PARAMS

SWITCHES = frozenset({"random", "lead_next", "pimc_sees_all", "pimc_bid", "pimc_infer", "bid_equity"})
NON_NEGATIVE = frozenset({"lead_trump_min", "pimc_worlds", "pimc_tau"})
DEFAULTS = {p[0]: p[1] for p in PARAMS}
_THRESHOLDS = ("order_min_1", "order_min_2", "order_min_3", "take_min", "name_min_1", "name_min_2", "name_min_3",
               "name_min_4")


def _preset(**changes: float) -> dict[str, float]:
    params = dict(DEFAULTS)
    params.update(changes)
    return params


PRESETS: dict[str, dict[str, float]] = {
    "default": _preset(),
    "cautious": _preset(**{k: DEFAULTS[k] + 0.5 for k in _THRESHOLDS}),
    "aggressive": _preset(**{k: DEFAULTS[k] - 0.5 for k in _THRESHOLDS}),
    "never-alone": _preset(alone_min=99.0, defend_alone_min=99.0),
    "equity": _preset(bid_equity=1.0),
    "random": _preset(random=1.0),
    "pimc": _preset(pimc_worlds=32.0),
    "pimc-fast": _preset(pimc_worlds=8.0),
    "pimc-bid": _preset(pimc_worlds=32.0, pimc_bid=1.0),
}
PRESET_NOTES = {
    "default": "the strategy kernels/euchre/SPEC.md describes",
    "cautious": "orders, takes and names trump half a trick later (every order_min, take_min, name_min +0.5)",
    "aggressive": "orders, takes and names trump half a trick sooner (every order_min, take_min, name_min -0.5)",
    "never-alone": "the default, never going alone as maker or defender",
    "equity": ("in whole games, each call (order, name, go alone) the one with the highest chance to win the game "
               "(game-equity tables)"),
    "random": "every choice uniformly at random among the legal ones: the floor to beat",
    "pimc": "the default's bidding; cards by PIMC, 32 sampled deals solved double dummy per decision",
    "pimc-fast": "pimc with 8 sampled deals per decision",
    "pimc-bid": ("pimc with the calls, going alone, the dealer's discard and defending alone searched too (no "
                 "clear gain over pimc measured: docs/explanations/pimc.md)"),
}


__all__ = ["NON_NEGATIVE", "PRESETS", "PRESET_NOTES", "SWITCHES"]
