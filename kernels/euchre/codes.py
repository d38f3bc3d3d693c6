"""Standard Euchre as data the kernels read: rule options with their codes (``E_*`` cells), the strategy parameter layout.

As ``kernels/ghost/codes.py``: ``OPTIONS`` (name, values with the default
first, kernel codes) in kernel order; ``PARAMS`` (name, default, meaning) in
the order of a seat's strategy row (``kernels/euchre/SPEC.md``, "Strategy
parameters").
"""

from bower.kernels.ghost.codes import PIMC_PARAMS

OPTIONS = (
    ("stick_the_dealer", (False, True), (0, 1)),
    ("allow_lone_defender", (False, True), (0, 1)),
    ("loner_lead", ("dealer", "loner"), (0, 1)),
    ("canadian", (False, True), (0, 1)),
    ("discard_up", (False, True), (0, 1)),
    # points to a lone maker who takes all five tricks, to the defenders who euchre a lone maker (1..8; the code is
    # the number of points)
    ("loner_march_score", (4, 1, 2, 3, 5, 6, 7, 8), (4, 1, 2, 3, 5, 6, 7, 8)),
    ("loner_euchred_score", (2, 1, 3, 4, 5, 6, 7, 8), (2, 1, 3, 4, 5, 6, 7, 8)),
    # EGN's fast break: the defenders take tricks 1 and 2, the makers 3, 4 and 5: the hand scores 0 for both sides
    ("fast_break", (False, True), (0, 1)),
    # EGN's four-trick tokens, a rule of whole games: a side making a hand with partner and taking exactly 4 tricks
    # earns a token besides its point; its fourth token is turned in at once for 1 extra point (``drivers.play_game``)
    ("four_trick_tokens", (False, True), (0, 1)),
    # EGN's farmer's hand: before the first call, the first seat from the dealer's left holding 3+ nines and tens
    # that chooses to gives three of them, face down, for the kitty's three face-down cards (one exchange a deal)
    ("farmers", (False, True), (0, 1)),
    # EGN's go under: the same exchange for a seat holding no jack, queen or king (any three of its cards)
    ("go_under", (False, True), (0, 1)),
    # EGN's call for best: a lone maker's partner passes it one card face down, the loner then discards one
    ("partners_best", (False, True), (0, 1)),
)
(E_STICK, E_LONE_DEFENDER, E_LONER_LEAD, E_CANADIAN, E_DISCARD_UP, E_LONER_MARCH,
 E_LONER_EUCHRED, E_FAST_BREAK, E_FOUR_TOKENS, E_FARMERS, E_GO_UNDER, E_PARTNERS_BEST) = range(12)

PARAMS: tuple[tuple[str, float, str], ...] = (
    # trump weights in TRUMP_RANK order (kernels/tables.py): 9 T Q K A left right
    ("w_trump_nine", 0.25, "weight of the 9 of trump"),
    ("w_trump_ten", 0.25, "weight of the 10 of trump"),
    ("w_trump_queen", 0.375, "weight of the queen of trump"),
    ("w_trump_king", 0.5, "weight of the king of trump"),
    ("w_trump_ace", 0.625, "weight of the ace of trump"),
    ("w_left", 0.75, "weight of the left bower"),
    ("w_right", 1.0, "weight of the right bower"),
    ("w_off_ace", 0.5, "weight of an ace of a suit that is not trump"),
    ("w_off_king", 0.125, "weight of a king of a suit that is not trump"),
    ("w_void", 0.25, "per empty non-trump suit, counted only with 2+ trumps"),
    ("up_weight", 0.75, ("share of the up-card's own weight counted for (dealer's partner) or against (positions 1 "
                        "and 3) in round one")),
    ("order_min_1", 2.5, "round one, position 1 orders up from this"),
    ("order_min_2", 2.25, "round one, position 2 (the dealer's partner) orders up from this"),
    ("order_min_3", 2.5, "round one, position 3 orders up from this"),
    ("take_min", 1.75, "round one, the dealer takes the up-card from this"),
    ("name_min_1", 1.5, "round two, position 1 names from this"),
    ("name_min_2", 1.5, "round two, position 2 names from this"),
    ("name_min_3", 1.5, "round two, position 3 names from this"),
    ("name_min_4", 1.25, "round two, the dealer (when not stuck) names from this"),
    ("alone_min", 2.75, "the maker goes alone from this"),
    ("defend_alone_min", 2.75, "a defender defends alone from this (only under allow_lone_defender)"),
    ("lead_trump_min", 2.0, "a maker on lead with at least this many trumps leads its highest trump"),
    ("lead_next", 1.0, "1: a defender of a round-two hand leads \"next\" on the first lead; 0: off"),
    ("random", 0.0, ">= 0.5: every decision uniformly at random among the legal choices"),
) + PIMC_PARAMS + (
    ("pimc_bid", 0.0, ("1 (with pimc_worlds >= 1): the PIMC player also searches its calls and going alone: each "
                       "candidate scored by its side's net points over the worlds, the rest of the auction by the "
                       "seats' strategies and the contract solved double dummy; also the dealer's discard and "
                       "defending alone")),
    # the PIMC player's inference from the auction (kernels/euchre/model.py ``world_weight``)
    ("pimc_infer", 0.0, ("1: the PIMC player weighs each world by the auction model's probability of the calls "
                         "the other seats made on it (and of the dealer's discard); 0: every world weighs the same")),
    ("pimc_tau", 0.25, "the auction model's temperature for pimc_infer, in tricks of estimate (0: sharp)"),
    ("pimc_eps", 0.01, "the auction model's tremble for pimc_infer: the share of each decision spread evenly"),
    # the game-equity bidder (bower.sim.variants.euchre.equity_strategy; sim/variants/euchre/strategy.py)
    ("bid_equity", 0.0, ("1: in whole games, each call (order or pass, a suit or pass, alone or not) is the one "
                         "with the highest chance to win the game: the hand's outcomes measured by round, position "
                         "and estimate, each weighed by the game-equity table at the scores it leads to; 0: the "
                         "thresholds")),
)
PARAM_NAMES = tuple(p[0] for p in PARAMS)
