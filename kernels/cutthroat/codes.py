"""Cutthroat as data the kernels read: rule options with their codes (``C_*`` cells), the strategy parameter layout.

As ``kernels/ghost/codes.py``: ``OPTIONS`` (name, values with the default
first, kernel codes) in kernel order; ``PARAMS`` (name, default, meaning) in
the order of a seat's strategy row.
"""

from bower.kernels.ghost.codes import PARAMS as _GHOST_PARAMS
from bower.kernels.ghost.codes import PIMC_PARAMS

OPTIONS = (
    ("dealer_pickup", ("optional", "mandatory"), (0, 1)),
    ("allow_turned_down_suit", (False, True), (0, 1)),
    ("stick_the_dealer", (False, True), (0, 1)),
    ("maker_alone", ("allowed", "disabled"), (1, 0)),
    ("lone_maker_march", (4, 3), (4, 3)),
    ("lone_defender_points", ("both", "lone_only"), (0, 1)),
)
C_PICKUP_MANDATORY, C_TURNED_DOWN_OK, C_STICK, C_MAKER_ALONE, C_LONE_MARCH, C_LONE_ONLY = range(6)

PARAMS: tuple[tuple[str, float, str], ...] = tuple(
    p for p in _GHOST_PARAMS if p[0].startswith("w_") and p[0] != "w_joker"
) + (
    ("order_min", 2.25, "position 1 orders the up-card when its estimate for that suit reaches this"),
    ("assist_min", 0.25, "position 2 assists when its estimate for the up-card's suit reaches this"),
    ("take_min", 0.5, "the dealer takes the up-card when its best 5 of 6 cards reach this"),
    ("name_min", 1.0, "round two: name the best other suit when its estimate reaches this"),
    ("alone_min", 4.25, "the maker goes alone (without the dummy) when its estimate reaches this"),
    ("defend_alone_min", 3.75, "a defender goes alone when its estimate for trump reaches this"),
    ("lead_trump_min", 2.0, "a maker with at least this many trumps leads the highest trump"),
    ("random", 0.0, "1: every decision uniformly at random among the legal choices"),
) + PIMC_PARAMS + (
    # the PIMC player's inference and search of the auction (kernels/cutthroat/hand.py, model.py)
    ("pimc_infer", 0.0, ("1: the PIMC player weighs each world by the auction model's probability of the calls, "
                         "exchange, going alone and merge the other seats made on it; 0: every world weighs the same")),
    ("pimc_tau", 0.25, "the auction model's temperature for pimc_infer, in tricks of estimate (0: sharp)"),
    ("pimc_eps", 0.01, "the auction model's tremble for pimc_infer: the share of each decision spread evenly"),
    ("pimc_bid", 0.0, ("1 (with pimc_worlds >= 1): the PIMC player also searches its calls with going alone, the "
                       "dealer's exchange, the merge and a defender's going alone: each candidate scored by its "
                       "points over the worlds, the rest of the hand by the seats' strategies and the contract "
                       "solved double dummy")),
    ("pimc_bid_margin", 0.0, ("1: the searched auction scores each candidate by the player's margin (its points less "
                              "the mean of the other two's) instead of its points")),
    ("pimc_bid_edge", 0.0, ("the searched auction departs from the strategy's own choice only for a candidate whose "
                            "mean value over the worlds beats the strategy's by more than this many points "
                            "(0: any gain)")),
    # the game-equity bidder (bower.sim.variants.cutthroat.equity_strategy; sim/variants/cutthroat/strategy.py)
    ("bid_equity", 0.0, ("1: in whole games, each call (accept or pass, a suit or pass, alone or not) is the one "
                         "with the highest chance to win the game: the hand's outcomes measured by round, position "
                         "and estimate, each weighed by the game-equity table at the scores they lead to; 0: the "
                         "thresholds")),
)
PARAM_NAMES = tuple(p[0] for p in PARAMS)
