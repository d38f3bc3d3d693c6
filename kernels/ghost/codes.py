"""Ghost Hand as data the kernels read: rule options with their codes, the strategy parameter layout.

``OPTIONS`` lists the rule options in kernel order, each as (name, allowed
values with the default first, kernel codes); the engine's ``bower.sim.rules``
builds its option objects from them and encodes a rule set as the int64
vector whose ``G_*`` cells the kernels read. ``PARAMS`` lists the strategy
parameters (name, default, meaning) in the order of the float64 row each
seat's strategy is.
"""

OPTIONS = (
    ("auction", ("one_lap", "until_passes"), (0, 1)),
    ("swap", ("at_turn", "none"), (1, 0)),
    ("stick_the_dealer", (False, True), (0, 1)),
    ("moon_set_penalty", (6, 24), (6, 24)),
    ("set_keeps_tricks", (False, True), (0, 1)),
    ("tiebreak", ("highest", "playoff"), (0, 1)),
)
G_AUCTION, G_SWAP, G_STICK, G_MOON_PENALTY, G_SET_KEEPS, G_TIEBREAK = range(6)

# The PIMC card player's parameters (kernels/pimc.py), the last of every variant's strategy row.
PIMC_PARAMS: tuple[tuple[str, float, str], ...] = (
    ("pimc_worlds", 0.0, ("card play by PIMC: the legal card with the most double-dummy tricks summed over this "
                          "many worlds sampled from what the player knows; 0: the heuristic card play")),
    ("pimc_sees_all", 0.0, ("1: the PIMC player's one world is the true deal (it sees every hand: the "
                            "double-dummy ceiling, not a fair player)")),
)

PARAMS: tuple[tuple[str, float, str], ...] = (
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
) + PIMC_PARAMS + (
    # the PIMC player's inference and search of the auction (Ghost Hand; kernels/ghost/pimc.py)
    ("pimc_infer", 0.0, ("1: the PIMC player weighs each world by the auction model's probability of the swap, "
                         "calls and trump the other seats made on it; 0: every world weighs the same")),
    ("pimc_tau", 0.25, "the auction model's temperature for pimc_infer, in tricks of estimate (0: sharp)"),
    ("pimc_eps", 0.01, "the auction model's tremble for pimc_infer: the share of each decision spread evenly"),
    ("pimc_bid", 0.0, ("1: the PIMC player also searches its swap, calls and trump: each candidate scored by its "
                       "points over the worlds, the auction finished by the seats' strategies and the contract "
                       "solved double dummy")),
    # the game-equity bidder (bower.sim.variants.ghost.equity_strategy; sim/variants/ghost/strategy.py)
    ("bid_equity", 0.0, ("1: in whole games, each call is the legal one with the highest chance to win the game: "
                         "the hand's outcomes measured by estimate, position and standing bid, each weighed by the "
                         "game-equity table at the scores it leads to; 0: the thresholds")),
)
PARAM_NAMES = tuple(p[0] for p in PARAMS)
