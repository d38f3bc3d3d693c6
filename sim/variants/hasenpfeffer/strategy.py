"""Hasenpfeffer strategies: the default in words, the presets.

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
- *PIMC card play* (``pimc_worlds`` >= 1, ``kernels/pimc.py``) replaces the
  lead and follow rules (and a random player's cards): at each turn the unseen
  cards are dealt ``pimc_worlds`` times, uniformly among the deals that agree
  with what the player has seen (its hand, the cards played, the voids shown,
  its own discard, the joker of a forced 3), each deal is solved double dummy
  (the partnerships), and the legal card with the most tricks for its side
  summed over the deals is played (ties: the card of least value).
  ``pimc_sees_all`` = 1 makes its one deal the true one.
- *PIMC inference* (``pimc_infer``): each deal is weighted by the auction
  model of should-bid (temperature ``pimc_tau``, tremble ``pimc_eps``): the
  probability of the other seats' calls on it, and of another bidder's
  trump and discard (its widow drawn among its seven cards).
- *PIMC auction* (``pimc_bid`` with ``pimc_worlds`` >= 1): each call (pass
  or a level above the standing bid) and, as bidder, every trump with every
  discard, scored on the sampled deals by its side's points less
  ``pimc_bid_rival`` (0.5) times the other side's: the auction finished by
  the seats' strategies, the contract solved double dummy and scored by the
  rules; a bid must beat passing by ``pimc_bid_cushion`` (1 point) on the
  mean (ties: the strategy's choice). Both measured in self-play: with the
  plain net points and no cushion every seat searching overbids
  (docs/explanations/pimc.md, "PIMC auction and inference").
- *Game-equity bidding* (``bid_equity``, the ``equity`` preset): in whole
  games each call (pass or a level above the standing bid) is the one whose
  measured outcomes give the side the highest chance to win the game from
  the score, by the game-equity table
  (``bower.sim.variants.hasenpfeffer.equity_strategy``); the thresholds'
  call stands where a cell is missing or nothing is strictly better. In
  independent hands (no score) it calls by the thresholds.
"""

from __future__ import annotations

from bower.kernels.hasenpfeffer.codes import PARAMS

SWITCHES = frozenset({"bid_jump", "random", "pimc_sees_all", "pimc_infer", "pimc_bid", "bid_equity"})
NON_NEGATIVE = frozenset({"lead_trump_min", "pimc_worlds", "pimc_tau", "pimc_bid_cushion", "pimc_bid_rival"})


def _preset(**changes: float) -> dict[str, float]:
    params = {p[0]: p[1] for p in PARAMS}
    params.update(changes)
    return params


PRESETS: dict[str, dict[str, float]] = {
    "default": _preset(),
    "cautious": _preset(cushion=0.5),
    "aggressive": _preset(cushion=-0.5),
    "creeping": _preset(bid_jump=0.0),
    "equity": _preset(bid_equity=1.0),
    "random": _preset(random=1.0),
    "pimc": _preset(pimc_worlds=32.0, pimc_bid=1.0),
    "pimc-fast": _preset(pimc_worlds=8.0),
    "pimc-cards": _preset(pimc_worlds=32.0),
}
PRESET_NOTES = {
    "default": "the strategy docs/variants/hasenpfeffer.md describes",
    "cautious": "bids half a trick lower on the same hand (cushion 0.5)",
    "aggressive": "bids half a trick higher on the same hand (cushion -0.5)",
    "creeping": "raises the standing bid by one at a time instead of bidding its level at once",
    "equity": "in whole games, each call the one with the highest chance to win the game (game-equity tables)",
    "random": "every choice uniformly at random among the legal ones: the floor to beat",
    "pimc": ("cards by PIMC, 32 sampled deals solved double dummy per decision; the calls, the trump and the "
             "discard searched the same way (pimc_bid; a bid must beat passing by pimc_bid_cushion 1 point, the "
             "other side's points weighed by pimc_bid_rival 0.5)"),
    "pimc-fast": "the default's bidding; cards by PIMC with 8 sampled deals per decision",
    "pimc-cards": "the default's bidding; only the cards by PIMC (32 deals): what pimc was before the auction search",
}
