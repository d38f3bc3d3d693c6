"""Ghost Hand strategy kernels: trick estimate, swap, call, lead, follow, and the random player.

Small functions that take arrays are inlined at Numba's level
(``inline="always"``): a plain call with array arguments costs atomic
reference-count updates (about 30 ns, measured), more than the work itself.
Functions called plainly take numbers only, or are compiled without
reference counting (``_nrt=False``, in ``bower.kernels.ghost``).

Every number comes from one seat's row ``p`` of the strategy record
(``bower.sim.strategy.GHOST_PARAMS``); sim/strategy.py describes the strategy in
words. The hand kernel reads ``strategy_rows``: each row followed by its
trick-estimate table, so a hand's four estimates take twelve lookups, and it
plays tricks by the shared core (``kernels.trick``, in slot space: cards
renumbered by value, where the card of least value is the lowest bit). Random choices draw
from the decision stream ``(dstate, dbuf)``, or the same stream held in
registers as a tuple (``bounded_rng``).
"""

import numpy as np

from bower.kernels.bits import popcount
from bower.kernels.deal import draw_bounded
from bower.kernels.equity import E_BUCKETS, E_WIDTH, best_level, bucket_of, value3
from bower.kernels.jit import kernel
from bower.kernels.tables import (
    SUIT_MASK,
)
from bower.kernels.estimate import WEIGHT_LIMIT, WEIGHT_STEP
from bower.kernels.ghost.codes import PARAM_NAMES

param_index = PARAM_NAMES.index

DECK24 = np.int64((1 << 24) - 1)
_JOKER = np.int64(1 << 24)
_ACES = np.int64(sum(1 << (s * 6 + 5) for s in range(4)))
_KINGS = np.int64(sum(1 << (s * 6 + 4) for s in range(4)))
MOON = 6

P_W_TRUMP = param_index("w_trump_nine")
P_W_OFF_ACE = param_index("w_off_ace")
P_W_OFF_KING = param_index("w_off_king")
P_W_VOID = param_index("w_void")
P_SWAP_BELOW = param_index("swap_below")
P_BID3 = param_index("bid_3")
P_BID4 = param_index("bid_4")
P_BID5 = param_index("bid_5")
P_MOON = param_index("bid_moon")
P_JUMP = param_index("bid_jump")
P_LEAD_TRUMP = param_index("lead_trump_min")
P_NEAR = param_index("near_target")
P_SHIFT_SELF = param_index("bid_shift_self_near")
P_SHIFT_OPP = param_index("bid_shift_opp_near")
P_RANDOM = param_index("random")


@kernel(inline="always")
def is_random(p):
    """Whether strategy row ``p`` is the uniformly random player."""
    return p[P_RANDOM] >= 0.5


@kernel(inline="always")
def _weights(p):
    """The trick weights of strategy row ``p`` as a tuple (held in registers, unlike array loads)."""
    return (
        p[P_W_TRUMP], p[P_W_TRUMP + 1], p[P_W_TRUMP + 2], p[P_W_TRUMP + 3], p[P_W_TRUMP + 4], p[P_W_TRUMP + 5],
        p[P_W_TRUMP + 6], p[P_W_TRUMP + 7], p[P_W_OFF_ACE], p[P_W_OFF_KING], p[P_W_VOID],
    )


@kernel(inline="always")
def _estimate_w(hand, trump, w):
    """``estimate`` with the weights as a tuple (9 T Q K A left right joker, off ace, off king, void)."""
    b = trump * 6
    r = (hand >> (b + 2)) & 1
    left = (hand >> ((trump ^ 1) * 6 + 2)) & 1
    ace = (hand >> (b + 5)) & 1
    king = (hand >> (b + 4)) & 1
    queen = (hand >> (b + 3)) & 1
    ten = (hand >> (b + 1)) & 1
    nine = (hand >> b) & 1
    joker = (hand >> 24) & 1
    est = (
        nine * w[0] + ten * w[1] + queen * w[2] + king * w[3] + ace * w[4] + left * w[5] + r * w[6] + joker * w[7]
    )
    est += popcount(hand & _ACES & ~(np.int64(1) << (b + 5))) * w[8]
    est += popcount(hand & _KINGS & ~(np.int64(1) << (b + 4))) * w[9]
    if nine + ten + queen + king + ace + left + r + joker >= 2:
        voids = 0
        for s in range(4):
            voids += (s != trump) & ((hand & SUIT_MASK[trump, s]) == 0)
        est += voids * w[10]
    return est


@kernel
def estimate(hand, trump, p):
    """Trick estimate of ``hand`` with ``trump`` (sim/strategy.py): trump weights, off aces and kings, voids.

    Branch-free on the card bits. The weights are multiples of a binary
    fraction (``bower.sim.strategy.WEIGHT_STEP``), so the sum is exact in any order.
    """
    return _estimate_w(hand, trump, _weights(p))


@kernel(inline="always")
def best_trump(hand, p):
    """(suit, estimate) of the suit with the highest trick estimate; ties to the lowest suit."""
    return best_trump_w(hand, _weights(p))


@kernel(inline="always")
def row_weights(rows, r):
    """``_weights`` of row ``r`` of a 2-D strategy array, read without taking a row view (no reference counting)."""
    return (
        rows[r, P_W_TRUMP], rows[r, P_W_TRUMP + 1], rows[r, P_W_TRUMP + 2], rows[r, P_W_TRUMP + 3],
        rows[r, P_W_TRUMP + 4], rows[r, P_W_TRUMP + 5], rows[r, P_W_TRUMP + 6], rows[r, P_W_TRUMP + 7],
        rows[r, P_W_OFF_ACE], rows[r, P_W_OFF_KING], rows[r, P_W_VOID],
    )


@kernel
def best_trump_w(hand, w):
    """``best_trump`` with the weights as a tuple (``_weights``); not inlined (scalar arguments: a cheap call)."""
    best_s = 0
    best_e = _estimate_w(hand, 0, w)
    for t in range(1, 4):
        e = _estimate_w(hand, t, w)
        if e > best_e:
            best_s = t
            best_e = e
    return best_s, best_e


# Strategy rows (``strategy_rows``): a strategy's parameter vector followed by its estimate table, so
# one float64 array row carries everything a seat's decisions read. For a suit's six cards as a 6-bit
# mask m (9 T J Q K A), column [T_<role> + m] holds what they add to the estimate when the suit plays
# that role (T_TRUMP: it is trump; T_SAME: it shares trump's colour; T_OTHER: the other colour),
# packed as an integer: weight in units of WEIGHT_STEP << T_UNITS | trumps held << 8 | 1 if the suit
# counts as void. Sums of entries are exact integers (below 2**53) and keep the fields apart
# (trumps <= 7, voids <= 3). T_VOID holds w_void in units; T_OK is 1 where the table may be used.
N_PARAMS = len(PARAM_NAMES)
T_TRUMP = N_PARAMS
T_SAME = T_TRUMP + 64
T_OTHER = T_SAME + 64
T_VOID = T_OTHER + 64
T_OK = T_VOID + 1
ROW_WIDTH = T_OK + 1
T_UNITS = 16
_UNIT = 1.0 / WEIGHT_STEP
_FIELD = float(1 << T_UNITS)


@kernel
def strategy_rows(strat_params):
    """Each strategy (row of ``strat_params``) followed by its estimate table: float64 (n, ``ROW_WIDTH``).

    The table gives ``best_trump`` exactly (for hands without the joker)
    when every weight is a whole number of units below the limit, as
    ``bower.sim.strategy`` makes them; otherwise ``T_OK`` is 0 and the estimates
    are summed directly.
    """
    n = strat_params.shape[0]
    rows = np.zeros((n, ROW_WIDTH), np.float64)
    for k in range(n):
        for i in range(N_PARAMS):
            rows[k, i] = strat_params[k, i]
        ok = 1.0
        for i in range(11):
            x = strat_params[k, P_W_TRUMP + i] if i < 8 else strat_params[k, P_W_OFF_ACE + i - 8]
            if not (-WEIGHT_LIMIT < x < WEIGHT_LIMIT) or x * _UNIT != np.floor(x * _UNIT):
                ok = 0.0
        if ok == 0.0:
            continue
        w = rows[k]
        ace = w[P_W_OFF_ACE] * _UNIT
        king = w[P_W_OFF_KING] * _UNIT
        left = w[P_W_TRUMP + 5] * _UNIT
        for m in range(64):
            t = 0.0
            same = 0.0
            other = 0.0
            for r in range(6):  # plain rank 9 T J Q K A; weights in the order 9 T Q K A left right joker
                if (m >> r) & 1:
                    t += w[P_W_TRUMP + (0, 1, 6, 2, 3, 4)[r]] * _UNIT * _FIELD + 256
            if (m >> 2) & 1:
                same += left * _FIELD + 256
            if (m >> 5) & 1:
                same += ace * _FIELD
                other += ace * _FIELD
            if (m >> 4) & 1:
                same += king * _FIELD
                other += king * _FIELD
            rows[k, T_TRUMP + m] = t
            rows[k, T_SAME + m] = same + (1 if m & 0b111011 == 0 else 0)
            rows[k, T_OTHER + m] = other + (1 if m == 0 else 0)
        rows[k, T_VOID] = rows[k, P_W_VOID] * _UNIT
        rows[k, T_OK] = ok
    return rows


@kernel(inline="always")
def _table_units(e, w_void):
    """Estimate in units from a sum ``e`` of table entries: the weights, plus the voids with two or more trumps."""
    x = np.int64(e)
    v = x >> T_UNITS
    if (x >> 8) & 255 >= 2:
        v += (x & 255) * w_void
    return v


@kernel(inline="always")
def best_trump_tab(hand, rows, r):
    """``best_trump`` from the estimate table of ``rows[r]`` (``strategy_rows``): all four suits from four masks.

    For hands of the 24-card deck (no joker); the same (suit, estimate) as ``best_trump``.
    """
    m0 = hand & 63
    m1 = (hand >> 6) & 63
    m2 = (hand >> 12) & 63
    m3 = (hand >> 18) & 63
    w_void = np.int64(rows[r, T_VOID])
    o01 = rows[r, T_OTHER + m0] + rows[r, T_OTHER + m1]
    o23 = rows[r, T_OTHER + m2] + rows[r, T_OTHER + m3]
    best_s = 0
    best_u = _table_units(rows[r, T_TRUMP + m0] + rows[r, T_SAME + m1] + o23, w_void)
    u = _table_units(rows[r, T_TRUMP + m1] + rows[r, T_SAME + m0] + o23, w_void)
    if u > best_u:
        best_s, best_u = 1, u
    u = _table_units(rows[r, T_TRUMP + m2] + rows[r, T_SAME + m3] + o01, w_void)
    if u > best_u:
        best_s, best_u = 2, u
    u = _table_units(rows[r, T_TRUMP + m3] + rows[r, T_SAME + m2] + o01, w_void)
    if u > best_u:
        best_s, best_u = 3, u
    return best_s, best_u / _UNIT


@kernel(inline="always")
def best_of_row(hand, rows, r):
    """(suit, estimate) of ``hand``'s best suit under strategy row ``rows[r]``: by its table if usable, else summed."""
    if rows[r, T_OK] == 1.0:
        return best_trump_tab(hand, rows, r)
    return best_trump_w(hand, row_weights(rows, r))


@kernel(inline="always")
def score_shift(seat, scores, target, p):
    """Score-aware shift of the bid thresholds for ``seat`` given the game ``scores`` (by seat)."""
    return shift_of(seat, (scores[0], scores[1], scores[2]), target, p[P_SHIFT_SELF], p[P_SHIFT_OPP], p[P_NEAR])


@kernel(inline="always")
def shift_of(seat, scores, target, self_near, opp_near, near):
    """``score_shift`` on the scores as a tuple and the strategy's shifts and ``near_target`` as numbers."""
    shift = 0.0
    if self_near == 0.0 and opp_near == 0.0:
        return shift  # not score-aware: adding zeros would change nothing
    line = target - near
    s0, s1, s2 = scores
    if (s0 if seat == 0 else (s1 if seat == 1 else s2)) >= line:
        shift += self_near
    if (seat != 0 and s0 >= line) or (seat != 1 and s1 >= line) or (seat != 2 and s2 >= line):
        shift += opp_near
    return shift


@kernel(inline="always")
def choose_call(est, standing, forced, shift, p):
    """The call (0 pass, 3..5, 6 moon) for a hand estimated ``est`` over the standing bid.

    ``forced``: the dealer is stuck; ``shift`` is added to every threshold.
    """
    return call_of(est - shift, standing, forced, p[P_MOON], p[P_BID5], p[P_BID4], p[P_BID3], p[P_JUMP])


@kernel(inline="always")
def call_of(est, standing, forced, moon, bid5, bid4, bid3, jump):
    """``choose_call`` of the shifted estimate ``est`` with the strategy's thresholds and ``bid_jump`` as numbers."""
    level = 5 if est >= bid5 else (4 if est >= bid4 else (3 if est >= bid3 else 0))
    bid = level if jump >= 0.5 else max(3, standing + 1)
    call = bid if level > standing else (3 if forced else 0)
    return MOON if est >= moon else call  # selects, not branches: the outcome is hard to predict


@kernel
def random_call(standing, forced, dstate, dbuf):
    """A call drawn uniformly from the legal ones: pass (unless forced), each bid above ``standing``, moon."""
    rng = (dstate[0], dstate[1], dstate[2], dstate[3], np.uint64(dbuf[0]), dbuf[1])
    call, rng = random_call_rng(standing, forced, rng)
    dstate[0], dstate[1], dstate[2], dstate[3] = rng[0], rng[1], rng[2], rng[3]
    dbuf[0] = np.int64(rng[4])
    dbuf[1] = rng[5]
    return call


@kernel
def bounded_rng(n, rng):
    """``rng.bounded(n)`` on a decision stream held as a tuple (s0, s1, s2, s3, held, has); returns (draw, rng).

    Numbers only, so a plain call (not inlined) costs no reference counting.
    """
    k, held, has, s0, s1, s2, s3 = draw_bounded(n, rng[4], rng[5], rng[0], rng[1], rng[2], rng[3])
    return k, (s0, s1, s2, s3, held, has)


@kernel
def random_call_rng(standing, forced, rng):
    """``random_call`` on a decision stream held as a tuple (``bounded_rng``); returns (call, rng)."""
    low = max(3, standing + 1)
    n_bids = 6 - low + 1 if low <= 6 else 0
    n = n_bids + (0 if forced else 1)
    k, rng = bounded_rng(n, rng)
    if not forced:
        if k == 0:
            return 0, rng
        k -= 1
    return low + k, rng




# ---------------------------------------------------------------- the game-equity bidder
# A strategy with ``bid_equity`` >= 0.5 chooses each call by game equity where its row carries the tables
# (``equity_rows``: the row widened past ``ROW_WIDTH`` by the vector ``bower.sim.variants.ghost.equity_strategy.flat``);
# a row without them (independent hands, should-bid) calls by its thresholds. The vector, from ``ROW_WIDTH``:
# a header (``E_*``), the outcomes (K rows of the points to the caller, the seat on its left, the seat on its
# right), each cell's count of measured hands, each cell's outcome probabilities (cells x K) and the equity
# cube of ``bower.sim.equity`` (3 x S x S x S, relative to the dealer, S = target - floor + 1): the layout of
# ``kernels.equity``, whose kernels read and weigh it. A cell is (position 0..2, standing bid 0/3/4/5, estimate
# bucket, level pass/3/4/5/moon).
P_EQUITY = param_index("bid_equity")
N_STANDING = 4
N_LEVELS = 5
PER_BUCKET = 3 * N_STANDING * N_LEVELS  # cells of one estimate bucket


@kernel(inline="always")
def level_index(call):
    """The level's index in a cell (pass, 3, 4, 5, moon: 0..4) of a call (0, 3..5, 6)."""
    return 0 if call == 0 else call - 2


@kernel(inline="always")
def equity_cell(pos, standing, bucket, n_buckets):
    """The first cell (level pass) of (position 0..2 from the dealer's left, standing bid 0 or 3..5, bucket)."""
    return ((pos * N_STANDING + (0 if standing == 0 else standing - 2)) * n_buckets + bucket) * N_LEVELS


@kernel
def legal_levels(standing, forced):
    """The legal calls over the ``standing`` bid as bits of their level indices (``level_index``): pass unless
    ``forced`` (the stuck dealer), each bid above the standing one, moon."""
    legal = 0 if forced else 1
    for li in range(1, N_LEVELS):
        call = li + 2
        if call == MOON or call > standing:
            legal |= 1 << li
    return legal


@kernel(_nrt=False)
def equity_value(rows, r, cell, seat, dealer, s0, s1, s2, target):
    """``seat``'s chance to win the game if the hand's outcome is drawn from ``cell`` of the tables in row ``r``
    (``kernels.equity.value3`` on the tables after ``ROW_WIDTH``)."""
    return value3(rows[r], ROW_WIDTH, PER_BUCKET, cell, seat, dealer, s0, s1, s2, target)


@kernel(_nrt=False)
def equity_call(rows, r, seat, dealer, scores, target, standing, forced, est, default):
    """The call of an equity bidder (row ``r`` with its tables): the legal call (pass unless ``forced``, a bid
    above ``standing``, moon) whose cell gives ``seat`` the highest chance to win the game, for the estimate
    ``est`` at the scores ``scores`` (by seat) (``kernels.equity.best_level``, in the order pass, 3, 4, 5, moon).
    ``default``, the thresholds' call, stands where its cell or the tables are missing and wins ties.
    """
    eq = rows[r]
    n_buckets = np.int64(eq[ROW_WIDTH + E_BUCKETS])
    cell = equity_cell((seat - dealer + 2) % 3, standing, bucket_of(est, eq[ROW_WIDTH + E_WIDTH], n_buckets),
                       n_buckets)
    s0, s1, s2 = scores
    li = best_level(eq, ROW_WIDTH, PER_BUCKET, 3, True, cell, level_index(default), legal_levels(standing, forced),
                    seat, dealer, s0, s1, s2, target)
    return 0 if li == 0 else li + 2


@kernel
def equity_rows(rows, strat_params, eq):
    """``rows`` (``strategy_rows``) widened by the tables ``eq`` (float64): copied after every equity bidder's
    row (``bid_equity`` >= 0.5); the other rows' extra cells are 0 and never read."""
    n = rows.shape[0]
    out = np.zeros((n, ROW_WIDTH + eq.shape[0]), np.float64)
    for k in range(n):
        for i in range(ROW_WIDTH):
            out[k, i] = rows[k, i]
        if strat_params[k, P_EQUITY] >= 0.5:
            for i in range(eq.shape[0]):
                out[k, ROW_WIDTH + i] = eq[i]
    return out
