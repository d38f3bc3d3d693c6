"""Hasenpfeffer as data the kernels read: rule options with their codes (``H_*`` cells), the strategy parameter layout.

As ``kernels/ghost/codes.py``: ``OPTIONS`` (name, values with the default
first, kernel codes) in kernel order; ``PARAMS`` (name, default, meaning) in
the order of a seat's strategy row.
"""

from bower.kernels.ghost.codes import PARAMS as _GHOST_PARAMS
from bower.kernels.ghost.codes import PIMC_PARAMS

OPTIONS = (
    ("pass_is_final", (False, True), (0, 1)),
    ("all_pass", ("joker_bids_three", "redeal"), (0, 1)),
    ("bidding", ("numeric", "pepper"), (0, 1)),
    ("widow", ("exchange", "dead"), (0, 1)),
    ("first_lead", ("dealer_left", "bidder"), (0, 1)),
    ("fail_penalty", ("bid", "undertricks"), (0, 1)),
    ("defenders_score_tricks", (False, True), (0, 1)),
)
H_PASS_FINAL, H_REDEAL, H_PEPPER, H_WIDOW_DEAD, H_BIDDER_LEADS, H_UNDERTRICKS, H_DEFENDERS_SCORE = range(7)

PARAMS: tuple[tuple[str, float, str], ...] = tuple(p for p in _GHOST_PARAMS if p[0].startswith("w_")) + (
    ("partner_help", 1.25, "tricks the partner is expected to add to the bidder's own estimate"),
    ("cushion", 0.0, "bid L when own estimate + partner_help reaches L + cushion"),
    ("support_margin", 0.0, "over a partner's bid, bid only when the level beats it by this much more"),
    ("bid_jump", 1.0, "1: bid the level the hand supports at once; 0: the least bid that beats the standing bid"),
    ("big_pepper_min", 6.5, "pepper bidding: a hand worth 6 bids big pepper when the partnership estimate reaches this"),
    ("lead_trump_min", 2.0, "a bidder with at least this many trumps leads the highest trump"),
    ("random", 0.0, "1: every decision uniformly at random among the legal choices"),
) + PIMC_PARAMS + (
    # the PIMC player's inference and search of the auction (kernels/hasenpfeffer/hand.py)
    ("pimc_infer", 0.0, ("1: the PIMC player weighs each world by the auction model's probability of the calls, "
                         "the trump and the discard the other seats made on it; 0: every world weighs the same")),
    ("pimc_tau", 0.25, "the auction model's temperature for pimc_infer, in tricks of estimate (0: sharp)"),
    ("pimc_eps", 0.01, "the auction model's tremble for pimc_infer: the share of each decision spread evenly"),
    ("pimc_bid", 0.0, ("1 (with pimc_worlds >= 1): the PIMC player also searches its calls, its trump and its "
                       "discard: each candidate scored by its side's points (less pimc_bid_rival times the other "
                       "side's) over the worlds, the auction finished by the seats' strategies and the contract "
                       "solved double dummy")),
    ("pimc_bid_cushion", 1.0, ("the searched calls: a bid is made only when its mean score over the worlds beats "
                               "passing's by this many points (every level alike; 0: the plain search)")),
    ("pimc_bid_rival", 0.5, ("the searched auction's weight of the other side's points: each candidate scored by "
                             "its side's points less this times the other side's (1: the net points; 0: its own "
                             "points only)")),
    # the game-equity bidder (bower.sim.variants.hasenpfeffer.equity_strategy; sim/variants/hasenpfeffer/strategy.py)
    ("bid_equity", 0.0, ("1: in whole games, each call is the legal one with the highest chance to win the game: "
                         "the hand's outcomes measured by position, standing bid and estimate, each weighed by the "
                         "game-equity table at the scores it leads to; 0: the thresholds")),
)
PARAM_NAMES = tuple(p[0] for p in PARAMS)
