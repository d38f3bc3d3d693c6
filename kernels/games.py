"""Whole-game bookkeeping shared by every variant's game drivers: counter layouts, game seeding, booking a game.

Chunk kernels (``jit.chunk_kernel``) run chunks in threads; each chunk owns its RNG state and writes only
its own rows of the outputs, and the Python layer merges them, so results
never depend on threads.
"""

import numpy as np

from bower.kernels.jit import kernel
from bower.kernels.rng import next_u64, splitmix_seed

# Per-strategy counters (int64 row per strategy, per chunk).
ST_HANDS = 0  # seat-hands played
ST_POINTS = 1
ST_POINTS_SQ = 2
ST_BIDDER = 3  # hands in which the seat made at least one bid
ST_MAKER = 4  # 4 counters: auctions won at 3, 4, 5, moon (other variants: their own four kinds)
ST_MADE = 8  # 4 counters: of those, made
ST_SWAPS = 12
ST_GAMES = 13  # seat-games played
ST_WINS = 14
ST_WIDTH = 15

# Game counters (int64 row per chunk).
GA_GAMES = 0
GA_HANDS = 1
GA_UNFINISHED = 2  # games stopped at max_hands without a winner
GA_MARGIN = 3  # sum of winner's score minus the best other score
GA_WINS = 4  # 3 counters: wins by starting position (seat + 1), or by side
GA_TIEBREAKS = 7  # games that went past a tie at the top
GA_HANDS_SQ = 8
GA_TOKENS = 9  # Euchre's four_trick_tokens: tokens earned (0 in the other variants and without the rule)
GA_TOKEN_POINTS = 10  # ... and the points of the tokens turned in (in the games' scores too)
GA_WIDTH = 11

# Per-game output row: winner seat (-1 unfinished), hands, final scores by seat (or side); the points of
# Euchre's turned-in tokens by side (four_trick_tokens; in the scores too, 0s otherwise).
GO_WINNER = 0
GO_HANDS = 1
GO_SCORES = 2
GO_TOKEN_POINTS = 5
GO_WIDTH = 7

DECISION_MIX = np.uint64(0xD1B54A32D192ED03)


@kernel
def top_seats(v0, v1, v2, among):
    """Bit mask of the seats in ``among`` (bit per seat) that hold the highest of the values v0, v1, v2."""
    best = -(1 << 62)
    for s in range(3):
        v = v0 if s == 0 else (v1 if s == 1 else v2)
        if (among >> s) & 1 and v > best:
            best = v
    top = 0
    for s in range(3):
        v = v0 if s == 0 else (v1 if s == 1 else v2)
        if (among >> s) & 1 and v == best:
            top |= 1 << s
    return top


@kernel(inline="always")
def seed_game(chunk, game_seed, a, duplicate, state, dstate, buf, dbuf):
    """Seed the deal and decision streams of assignment ``a``'s game in a set; returns the game seed used.

    With ``duplicate`` every assignment replays the set's game seed, otherwise
    each after the first draws its own from the chunk's stream.
    """
    if a > 0 and not duplicate:
        game_seed = next_u64(chunk)
    splitmix_seed(game_seed, state)
    splitmix_seed(game_seed ^ (DECISION_MIX * np.uint64(a + 1)), dstate)
    buf[1] = 0
    dbuf[1] = 0
    return game_seed


@kernel(inline="always")
def record_game(row, g_acc, s_acc, set_wins_g, seat_strat, winner, n, went_on, scores):
    """Book one finished game: its output ``row`` and the game, per-strategy and set-win counters.

    ``winner`` indexes ``scores`` (a seat, or in Hasenpfeffer a side, whose
    strategy is that of seat ``winner``); -1 for unfinished. The margin is
    the winner's score minus the best other.
    """
    row[GO_WINNER] = winner
    row[GO_HANDS] = n
    for s in range(scores.shape[0]):
        row[GO_SCORES + s] = scores[s]
    for s in range(seat_strat.shape[0]):
        s_acc[seat_strat[s], ST_GAMES] += 1
    g_acc[GA_GAMES] += 1
    g_acc[GA_HANDS] += n
    g_acc[GA_HANDS_SQ] += n * n
    if went_on:
        g_acc[GA_TIEBREAKS] += 1
    if winner < 0:
        g_acc[GA_UNFINISHED] += 1
        return
    s_acc[seat_strat[winner], ST_WINS] += 1
    set_wins_g[seat_strat[winner]] += 1
    g_acc[GA_WINS + winner] += 1
    other = -(1 << 30)
    for s in range(scores.shape[0]):
        if s != winner and scores[s] > other:
            other = scores[s]
    g_acc[GA_MARGIN] += scores[winner] - other
