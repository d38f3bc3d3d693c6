"""Ghost Hand strategies: the default in words, the presets.

Default Ghost Hand strategy (docs/variants/ghost-hand.md explains it for players):

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
- *Equity bidding* (``bid_equity`` >= 0.5, the ``equity`` preset; whole games
  only): the call is the legal one (pass, each bid above the standing one,
  moon) with the highest chance to win the game, each call's value the sum
  over the hand's outcomes (points to each player) of their probability,
  measured from the default strategy's play for the caller's position,
  standing bid, estimate bucket and call, times the game-equity table at the
  scores they lead to (``bower.sim.variants.ghost.equity_strategy``). The
  thresholds' call stands where its cell has too few measured hands and on
  ties. In independent hands, in should-bid and for a searching seat's hand
  it calls by the thresholds.
- *Lead*: the maker holding at least ``lead_trump_min`` trumps leads the
  highest trump; otherwise a sure winner (no unseen card of its suit beats it)
  of least value; otherwise the card of least value.
- *Follow*: the cheapest legal card that beats the trick so far; if none,
  the legal card of least value. Ties of value go to the lowest card index.
- *Random* (``random`` >= 0.5) replaces every decision by a uniform draw from
  the game's decision stream: swap or not (when a swap is open), a call among
  the legal ones (pass unless stuck, then each bid above the standing bid,
  moon last), the trump suit, and each card among the legal ones (ascending).
- *PIMC card play* (``pimc_worlds`` >= 1, ``kernels/pimc.py``) replaces the
  lead and follow rules (and a random player's cards): at each turn the unseen
  cards are dealt ``pimc_worlds`` times, uniformly among the deals that agree
  with what the player has seen (its hand, the cards played, the voids shown,
  the dead hand if it swapped), each deal is solved double dummy with the
  player alone against the other two, and the legal card with the most tricks
  summed over the deals is played (ties: the card of least value).
  ``pimc_sees_all`` = 1 makes its one deal the true one.
- *PIMC inference* (``pimc_infer``): each deal is weighted by the auction
  model of should-bid (temperature ``pimc_tau``, tremble ``pimc_eps``): the
  probability that the other seats' strategies make the swap decisions, the
  calls and the trump of the hand on it; the values are summed with those
  weights.
- *PIMC auction* (``pimc_bid`` with ``pimc_worlds`` >= 1): the swap, each
  call and the trump are searched too (``kernels/ghost/hand.py``,
  ``pimc_auction``): each legal call at the turn (and, at the first turn
  with the ghost there, keeping against swapping) is scored by the player's
  points over its sampled deals, the auction finished in each deal by the
  seats' own strategies and the contract solved double dummy; ties keep the
  strategy's choice. A maker then scores the four trumps the same way.
"""

from __future__ import annotations

from bower.kernels.ghost.codes import PARAMS

SWITCHES = frozenset({"bid_jump", "random", "pimc_sees_all", "pimc_infer", "pimc_bid", "bid_equity"})
NON_NEGATIVE = frozenset({"lead_trump_min", "near_target", "pimc_worlds", "pimc_tau"})


def _preset(**changes: float) -> dict[str, float]:
    params = {p[0]: p[1] for p in PARAMS}
    params.update(changes)
    return params


PRESETS: dict[str, dict[str, float]] = {
    "default": _preset(),
    "cautious": _preset(swap_below=2.8, bid_3=3.2, bid_4=3.6, bid_5=4.9, bid_moon=5.4),
    "aggressive": _preset(swap_below=3.2, bid_3=2.4, bid_4=2.8, bid_5=4.1, bid_moon=4.7),
    "never-swap": _preset(swap_below=-1.0),
    "score-aware": _preset(bid_shift_self_near=0.4, bid_shift_opp_near=-0.4),
    "equity": _preset(bid_equity=1.0),
    "random": _preset(random=1.0),
    "pimc": _preset(pimc_worlds=32.0, pimc_bid=1.0),
    "pimc-fast": _preset(pimc_worlds=8.0, pimc_bid=1.0),
    "pimc-cards": _preset(pimc_worlds=32.0),
}

PRESET_NOTES = {
    "default": "the strategy docs/variants/ghost-hand.md describes",
    "cautious": "bids only on stronger hands, swaps less",
    "aggressive": "bids on weaker hands, swaps more",
    "never-swap": "the default, never taking the ghost hand",
    "score-aware": "near the target bids less (tricks score anyway); bids more to stop an opponent near it",
    "equity": "in whole games, each call the one with the highest chance to win the game (game-equity tables)",
    "random": "every choice uniformly at random among the legal ones: the floor to beat",
    "pimc": "swap, calls, trump and cards by PIMC: 32 sampled deals solved double dummy per decision",
    "pimc-fast": "pimc with 8 sampled deals per decision",
    "pimc-cards": "the default's swap and bids; only the cards by PIMC, 32 sampled deals per decision",
}
