"""Cutthroat strategies: the default in words, the presets.

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
- *PIMC card play* (``pimc_worlds`` >= 1, ``kernels/pimc.py``) replaces the
  lead and follow rules (and a random player's cards): at each turn the unseen
  cards are dealt ``pimc_worlds`` times, uniformly among the deals that agree
  with what the player has seen (its hand, the cards played, the voids shown,
  the up-card and the kitty, discards and dummy it has seen), each deal is
  solved double dummy (the maker alone against the two defenders together),
  and the legal card with the most tricks for its side summed over the deals
  is played (ties: the card of least value). ``pimc_sees_all`` = 1 makes its
  one deal the true one.
- *PIMC inference* (``pimc_infer``): each deal is weighted by the auction
  model (``kernels/cutthroat/model.py``; temperature ``pimc_tau``, tremble
  ``pimc_eps``): the probability of the calls, the dealer's exchange, going
  alone and the merge the other seats made on it.
- *PIMC auction* (``pimc_bid`` with ``pimc_worlds`` >= 1): each call with
  going alone, the dealer's exchange, the maker's merge and a defender's
  going alone is searched (``kernels/cutthroat/hand.py``, ``play_searched``):
  every candidate scored by the player's points over its sampled deals, the
  rest of the hand by the seats' strategies and the contract solved double
  dummy; ties (and, with ``pimc_bid_edge``, any candidate not better by more
  than that many points a deal): the strategy's own choice.
"""

from __future__ import annotations

from bower.kernels.cutthroat.codes import PARAMS

SWITCHES = frozenset({"random", "pimc_sees_all", "pimc_infer", "pimc_bid", "pimc_bid_margin", "bid_equity"})
NON_NEGATIVE = frozenset({"lead_trump_min", "pimc_worlds", "pimc_tau", "pimc_bid_edge"})


def _preset(**changes: float) -> dict[str, float]:
    params = {p[0]: p[1] for p in PARAMS}
    params.update(changes)
    return params


PRESETS: dict[str, dict[str, float]] = {
    "default": _preset(),
    "cautious": _preset(order_min=2.75, assist_min=1.0, take_min=1.25, name_min=1.75),
    "aggressive": _preset(order_min=1.75, assist_min=0.0, take_min=0.0, name_min=0.5),
    "never-alone": _preset(alone_min=99.0, defend_alone_min=99.0),
    "equity": _preset(bid_equity=1.0),
    "random": _preset(random=1.0),
    "pimc": _preset(pimc_worlds=32.0),
    "pimc-fast": _preset(pimc_worlds=8.0),
    "pimc-bid": _preset(pimc_worlds=32.0, pimc_bid=1.0),
}
PRESET_NOTES = {
    "default": "the strategy docs/variants/cutthroat.md describes",
    "cautious": "makes trump only on stronger hands",
    "aggressive": "makes trump on weaker hands, counting on the dummy",
    "never-alone": "the default, never going alone as maker or defender",
    "equity": ("in whole games, each call (accept, name, go alone) the one with the highest chance to win the game "
               "(game-equity tables)"),
    "random": "every choice uniformly at random among the legal ones: the floor to beat",
    "pimc": "the default's bidding; cards by PIMC, 32 sampled deals solved double dummy per decision",
    "pimc-fast": "pimc with 8 sampled deals per decision",
    "pimc-bid": "pimc with the calls, going alone, the dealer's exchange, the merge and defending alone searched too",
}
