"""The double-dummy solver: best play by both sides with every hand open, for every variant.

A position is up to four seats' remaining cards (card-space masks), the seats
in play (``active``; seats sitting out hold nothing and are skipped), trump,
the cards already played to the current trick and who led it, and the
*measured side* (a mask of seats: the maker's side). The solver returns the
number of tricks, from this position on, that the measured side takes when
both sides play perfectly. Ghost Hand's maker against the other two, Cutthroat's
maker against the defenders, and the partnerships of Hasenpfeffer and Euchre
are all just two sides.

How it is fast (all standard in double-dummy solvers):

- **Solver space.** Per trump, each card gets a bit in one byte per effective
  suit, in order of power: bytes 0..2 the plain suits, byte 3 trump (up to 8
  cards with the joker). Following suit is a byte mask; a card beats another if
  its bit is higher and it is of the same byte or a trump.
- **Zero-window search.** ``_search`` answers "can the measured side take at
  least ``target`` tricks?" by an and/or search with an explicit stack (no
  recursion: a self-recursive cached kernel crashed here when loaded from the
  cache); ``_solve_root`` walks the target from a guess to the exact value
  (MTD(f)).
- **Transposition table** at trick boundaries, keyed on a canonical form: ranks
  compressed within each suit (only the order of the cards still out matters)
  and the three plain suits sorted, so equivalent positions share an entry. It
  stores bounds on the tricks to come, which stay exact across positions and
  deals, so one table serves a whole chunk of solves. Its size is fixed
  (``TT_BITS``): ``2**TT_BITS`` entries of 20 bytes, 1.25 MiB per table.
- **Equivalent cards** (adjacent in the live order of one hand's suit) are
  tried once; **quick tricks** (the leader's top trumps, and its top cards in
  every suit once nobody else holds trump; whoever holds the top trumps wins
  a trick with each of them) and the target cut prune; the last trick is
  played out directly; moves are ordered cheaply (cheapest winner, masters
  first, low cards).
"""

import numpy as np

from bower.kernels.bits import highest, lowest, popcount
from bower.kernels.cards import JOKER, N_CARDS, N_RANKS, N_SUITS
from bower.kernels.jit import chunk_kernel, kernel
from bower.kernels.tables import EFF_SUIT, TRUMP_RANK

TRUMP_SLOT = 3
MAX_PLY = 40  # 4 seats x 8 cards, with room
MAX_MOVES = 10
TT_BITS = 16
TT_ENTRY_BYTES = 20  # two int64 keys, an int16 tag, two int8 bounds


def _build_space():
    """``TO_SOLVER[t, c]``: card ``c``'s bit in solver space under trump ``t``; ``FROM_SOLVER[t, b]`` back (-1: none)."""
    to_solver = np.full((N_SUITS, N_CARDS), -1, np.int64)
    from_solver = np.full((N_SUITS, 32), -1, np.int64)
    for t in range(N_SUITS):
        plain = [s for s in range(N_SUITS) if s != t]
        for c in range(N_CARDS):
            if TRUMP_RANK[t, c] >= 0:
                b = 8 * TRUMP_SLOT + TRUMP_RANK[t, c]
            else:
                b = 8 * plain.index(EFF_SUIT[t, c]) + c % N_RANKS
            to_solver[t, c] = b
            from_solver[t, b] = c
    return to_solver, from_solver


def _build_pext():
    """``PEXT[live, x]``: the bits of ``x`` at ``live``'s set positions packed low; ``PDEP[live, y]`` the inverse.

    Built bit position by bit position over all 256 x 256 pairs at once (a loop over the pairs took 0.4 s of every
    process's import): position ``i`` of ``live``, when set, is bit ``k`` of the packed form, ``k`` the number of
    set positions of ``live`` below ``i``.
    """
    live = np.arange(256, dtype=np.int64)[:, None]
    x = np.arange(256, dtype=np.int64)[None, :]
    pext = np.zeros((256, 256), np.int64)
    pdep = np.zeros((256, 256), np.int64)
    below = np.zeros_like(live)  # set positions of ``live`` below ``i``
    for i in range(8):
        on = (live >> i) & 1
        pext |= (on & (x >> i)) << below
        pdep |= (on & (x >> below)) << i
        below += on
    return (pext & 255).astype(np.uint8), (pdep & 255).astype(np.uint8)


TO_SOLVER, FROM_SOLVER = _build_space()
PEXT, PDEP = _build_pext()
for _a in (TO_SOLVER, FROM_SOLVER, PEXT, PDEP):
    _a.setflags(write=False)

# the per-ply state of the search stack
P_PLAYER, P_POS, P_LED, P_WBIT, P_WSEAT, P_WON, P_LEFT, P_TRICK, P_NM, P_IX, P_SLOT, P_K1, P_K2, P_TAG, P_WIDTH = range(15)


@kernel
def new_table():
    """A fresh transposition table: keys, tags and bounds (``2**TT_BITS`` entries)."""
    n = 1 << TT_BITS
    keys = np.zeros((n, 2), np.int64)
    tags = np.full(n, -1, np.int16)
    bounds = np.zeros((n, 2), np.int8)
    return keys, tags, bounds


@kernel
def to_solver(mask, t):
    """Card-space mask ``mask`` in solver space under trump ``t``."""
    out = 0
    m = mask
    while m:
        c = lowest(m)
        m &= m - 1
        out |= 1 << TO_SOLVER[t, c]
    return out


@kernel
def next_seats(active):
    """``nxt[s]``: the next seat in play clockwise after ``s`` (seats 0..3, those not in ``active`` skipped)."""
    nxt = np.zeros(4, np.int64)
    for s in range(4):
        for k in range(1, 5):
            o = (s + k) % 4
            if active >> o & 1:
                nxt[s] = o
                break
    return nxt


@kernel
def _beats(b, w):
    """Whether solver card ``b`` beats the winning card ``w`` of a trick."""
    return b > w and ((b >> 3) == (w >> 3) or (b >> 3) == TRUMP_SLOT)


@kernel
def _column(h, live, s):
    """Suit byte ``s`` of every seat's hand, ranks compressed among the live cards, packed a byte per seat."""
    ls = (live >> (8 * s)) & 255
    sh = 8 * s
    return (np.int64(PEXT[ls, (h[0] >> sh) & 255]) | (np.int64(PEXT[ls, (h[1] >> sh) & 255]) << 8)
            | (np.int64(PEXT[ls, (h[2] >> sh) & 255]) << 16) | (np.int64(PEXT[ls, (h[3] >> sh) & 255]) << 24))


@kernel
def _key(h, leader, sides):
    """The canonical transposition key of the hands ``h`` at a trick boundary: (k1, k2, tag)."""
    live = h[0] | h[1] | h[2] | h[3]
    a = _column(h, live, 0)
    b = _column(h, live, 1)
    c = _column(h, live, 2)
    if a < b:
        a, b = b, a
    if b < c:
        b, c = c, b
    if a < b:
        a, b = b, a
    k1 = _column(h, live, TRUMP_SLOT) | (a << 32)
    k2 = b | (c << 32)
    tag = leader | (sides << 2)
    return k1, k2, tag


@kernel
def _slot_of(k1, k2, tag):
    x = k1 * np.int64(-7046029254386353131) ^ k2 * np.int64(-4658895280553007687) ^ tag * np.int64(0x27D4EB2F165667C5)
    x ^= x >> 29
    return x & ((1 << TT_BITS) - 1)


@kernel
def _top_run(c, n):
    """How many of the ``n`` compressed live cards, counted from the top, are in ``c`` without a gap."""
    q = 0
    while q < n and (c >> (n - 1 - q)) & 1:
        q += 1
    return q


@kernel
def _quick_tricks(h, leader, active):
    """Tricks the leader is sure to take by cashing top cards from the lead."""
    live = h[0] | h[1] | h[2] | h[3]
    others = live & ~h[leader]
    lt = h[leader]
    ls = (live >> 24) & 255
    q = _top_run(np.int64(PEXT[ls, (lt >> 24) & 255]), popcount(ls))
    if (others >> 24) & 255 == 0:
        for s in range(3):
            ls = (live >> (8 * s)) & 255
            if ls:
                q += _top_run(np.int64(PEXT[ls, (lt >> (8 * s)) & 255]), popcount(ls))
    return q


@kernel
def _trump_run(h):
    """(how many of the top trumps still out one seat holds without a gap, that seat); (0, -1) with no trumps."""
    live = (h[0] | h[1] | h[2] | h[3]) >> 24 & 255
    if live == 0:
        return 0, -1
    top = highest(live) + 24
    holder = 0
    for s in range(4):
        if h[s] >> top & 1:
            holder = s
    return _top_run(np.int64(PEXT[live, (h[holder] >> 24) & 255]), popcount(live)), holder


@kernel
def _gen_moves(h, st, ply, moves, sides, trick_mask, n_active):
    """Fill ``moves[ply]`` with the player's distinct legal cards in a cheap good order; return how many."""
    p = st[ply, P_PLAYER]
    hand = h[p]
    pos = st[ply, P_POS]
    if pos > 0:
        fm = hand & (255 << (8 * st[ply, P_LED]))
        legal = fm if fm else hand
    else:
        legal = hand
    live = h[0] | h[1] | h[2] | h[3] | trick_mask
    reps = 0
    for s in range(4):
        ms = (legal >> (8 * s)) & 255
        if ms == 0:
            continue
        ls = (live >> (8 * s)) & 255
        c = np.int64(PEXT[ls, ms])
        reps |= np.int64(PDEP[ls, c & ~(c >> 1)]) << (8 * s)
    n = 0
    if pos == 0:
        # masters (the highest card still out in their suit) first, trump first; then low cards up
        masters = 0
        for s in range(3, -1, -1):
            ls = (live >> (8 * s)) & 255
            if ls:
                top = highest(ls) + 8 * s
                if reps >> top & 1:
                    moves[ply, n] = top
                    n += 1
                    masters |= 1 << top
        rest = reps & ~masters
        while rest:
            b = lowest(rest)
            rest &= rest - 1
            moves[ply, n] = b
            n += 1
        return n
    w = st[ply, P_WBIT]
    mine = (sides >> p) & 1
    if ((sides >> st[ply, P_WSEAT]) & 1) != mine:
        winners = 0
        m = reps
        while m:
            b = lowest(m)
            m &= m - 1
            if _beats(b, w):
                winners |= 1 << b
        if winners:
            b = lowest(winners)
            moves[ply, n] = b
            n += 1
            reps &= ~(1 << b)
    while reps:
        b = lowest(reps)
        reps &= reps - 1
        moves[ply, n] = b
        n += 1
    return n


@kernel
def _search(h, st, moves, nxt, n_active, sides, target, keys, tags, bounds, nodes):
    """Whether the measured side can take ``target`` tricks or more from the root at ply 0 of ``st``.

    ``h`` (solver-space hands) is changed in place during the search and restored
    before return. ``nodes[0]`` counts the positions visited.
    """
    ply = 0
    ENTER, NEXT, RETURN = 0, 1, 2
    phase = ENTER
    result = False
    mask = (1 << TT_BITS) - 1
    while True:
        if phase == ENTER:
            nodes[0] += 1
            if st[ply, P_POS] == 0:
                won = st[ply, P_WON]
                left = st[ply, P_LEFT]
                if won >= target:
                    result = True
                    phase = RETURN
                    st[ply, P_SLOT] = -1
                    continue
                if won + left < target:
                    result = False
                    phase = RETURN
                    st[ply, P_SLOT] = -1
                    continue
                leader = st[ply, P_PLAYER]
                if left == 1:
                    # the last trick plays itself: one card each
                    wbit = lowest(h[leader])
                    wseat = leader
                    p = nxt[leader]
                    while p != leader:
                        b = lowest(h[p])
                        if _beats(b, wbit):
                            wbit, wseat = b, p
                        p = nxt[p]
                    result = won + ((sides >> wseat) & 1) >= target
                    phase = RETURN
                    st[ply, P_SLOT] = -1
                    continue
                q = _quick_tricks(h, leader, n_active)
                if q > left:
                    q = left
                if (sides >> leader) & 1:
                    if won + q >= target:
                        result = True
                        phase = RETURN
                        st[ply, P_SLOT] = -1
                        continue
                elif won + left - q < target:
                    result = False
                    phase = RETURN
                    st[ply, P_SLOT] = -1
                    continue
                # whoever holds the top trumps wins a trick with each of them, whoever leads
                q, holder = _trump_run(h)
                if q > 0:
                    if (sides >> holder) & 1:
                        if won + q >= target:
                            result = True
                            phase = RETURN
                            st[ply, P_SLOT] = -1
                            continue
                    elif won + left - q < target:
                        result = False
                        phase = RETURN
                        st[ply, P_SLOT] = -1
                        continue
                k1, k2, tag = _key(h, leader, sides)
                slot = _slot_of(k1, k2, tag) & mask
                st[ply, P_SLOT] = slot
                st[ply, P_K1] = k1
                st[ply, P_K2] = k2
                st[ply, P_TAG] = tag
                if tags[slot] == tag and keys[slot, 0] == k1 and keys[slot, 1] == k2:
                    if won + bounds[slot, 0] >= target:
                        result = True
                        phase = RETURN
                        st[ply, P_SLOT] = -1
                        continue
                    if won + bounds[slot, 1] < target:
                        result = False
                        phase = RETURN
                        st[ply, P_SLOT] = -1
                        continue
            else:
                st[ply, P_SLOT] = -1
            st[ply, P_NM] = _gen_moves(h, st, ply, moves, sides, st[ply, P_TRICK], n_active)
            st[ply, P_IX] = 0
            phase = NEXT
        elif phase == NEXT:
            if st[ply, P_IX] == st[ply, P_NM]:
                result = ((sides >> st[ply, P_PLAYER]) & 1) == 0
                phase = RETURN
                continue
            b = moves[ply, st[ply, P_IX]]
            st[ply, P_IX] += 1
            p = st[ply, P_PLAYER]
            h[p] ^= 1 << b
            pos = st[ply, P_POS]
            c = ply + 1
            if pos == 0:
                led, wbit, wseat = b >> 3, b, p
            else:
                led, wbit, wseat = st[ply, P_LED], st[ply, P_WBIT], st[ply, P_WSEAT]
                if _beats(b, wbit):
                    wbit, wseat = b, p
            won = st[ply, P_WON]
            left = st[ply, P_LEFT]
            if pos + 1 == n_active:
                st[c, P_POS] = 0
                st[c, P_PLAYER] = wseat
                st[c, P_WON] = won + ((sides >> wseat) & 1)
                st[c, P_LEFT] = left - 1
                st[c, P_TRICK] = 0
            else:
                st[c, P_POS] = pos + 1
                st[c, P_PLAYER] = nxt[p]
                st[c, P_WON] = won
                st[c, P_LEFT] = left
                st[c, P_TRICK] = st[ply, P_TRICK] | (1 << b)
            st[c, P_LED] = led
            st[c, P_WBIT] = wbit
            st[c, P_WSEAT] = wseat
            ply = c
            phase = ENTER
        else:  # RETURN: ``result`` is the answer at ``ply``
            slot = st[ply, P_SLOT]
            if slot >= 0:
                need = target - st[ply, P_WON]
                if not (tags[slot] == st[ply, P_TAG] and keys[slot, 0] == st[ply, P_K1]
                        and keys[slot, 1] == st[ply, P_K2]):
                    tags[slot] = st[ply, P_TAG]
                    keys[slot, 0] = st[ply, P_K1]
                    keys[slot, 1] = st[ply, P_K2]
                    bounds[slot, 0] = 0
                    bounds[slot, 1] = st[ply, P_LEFT]
                if result:
                    if need > bounds[slot, 0]:
                        bounds[slot, 0] = need
                elif need - 1 < bounds[slot, 1]:
                    bounds[slot, 1] = need - 1
            if ply == 0:
                return result
            ply -= 1
            h[st[ply, P_PLAYER]] ^= 1 << moves[ply, st[ply, P_IX] - 1]
            if result == (((sides >> st[ply, P_PLAYER]) & 1) == 1):
                phase = RETURN
            else:
                phase = NEXT


@kernel
def _root(h, st, trick_cards, n_trick, trick_leader, nxt, sides):
    """Set ply 0 of ``st`` from the cards already played to the current trick; return the tricks left."""
    pos = 0
    led = 0
    wbit = 0
    wseat = trick_leader
    seat = trick_leader
    tmask = 0
    for i in range(n_trick):
        b = trick_cards[i]
        if i == 0:
            led, wbit, wseat = b >> 3, b, seat
        elif _beats(b, wbit):
            wbit, wseat = b, seat
        tmask |= 1 << b
        seat = nxt[seat]
        pos += 1
    left = popcount(h[trick_leader]) + (1 if n_trick > 0 else 0)
    st[0, P_POS] = pos
    st[0, P_PLAYER] = seat
    st[0, P_LED] = led
    st[0, P_WBIT] = wbit
    st[0, P_WSEAT] = wseat
    st[0, P_WON] = 0
    st[0, P_LEFT] = left
    st[0, P_TRICK] = tmask
    return left


@kernel
def _mtd(h, st, moves, nxt, n_active, sides, left, guess, keys, tags, bounds, nodes, floor):
    """The exact value at ply 0 of ``st``: zero-window tests walked from ``guess`` (MTD(f)).

    With ``floor`` > 0 the value is exact only from ``floor`` up: once the
    side is shown to take fewer, the walk stops and returns a bound below
    ``floor`` (for a score that is the same for every count below it).
    """
    lo, hi = 0, left
    g = min(max(guess, floor, 1), left)
    while lo < hi and hi >= floor:
        if g <= lo:
            g = lo + 1
        if g > hi:
            g = hi
        if _search(h, st, moves, nxt, n_active, sides, g, keys, tags, bounds, nodes):
            lo = g
            g = g + 1
        else:
            hi = g - 1
            g = g - 1
    return lo


@kernel
def _setup(hands, active, t, trick, n_trick, trick_leader):
    h = np.zeros(4, np.int64)
    for s in range(4):
        if active >> s & 1:
            h[s] = to_solver(hands[s], t)
    tc = np.zeros(4, np.int64)
    for i in range(n_trick):
        tc[i] = TO_SOLVER[t, trick[i]]
    return h, tc


@kernel
def _guess(h, sides, left):
    """A cheap first guess at the measured side's tricks: its share of the trumps still out."""
    mine = 0
    live = 0
    for s in range(4):
        tr = popcount((h[s] >> 24) & 255)
        live += tr
        if sides >> s & 1:
            mine += tr
    if live == 0:
        return left // 2
    return (mine * left + live // 2) // live


@kernel
def solve_position(hands, active, t, trick, n_trick, trick_leader, sides, keys, tags, bounds, nodes):
    """Double-dummy tricks of the measured side ``sides`` from a position, the current trick included.

    ``hands[s]``: seat ``s``'s remaining cards (card space); ``active``: mask of the
    seats in play; ``t``: trump; ``trick[:n_trick]``: the cards already played to
    the current trick, led by ``trick_leader`` (with ``n_trick`` 0 it is the
    seat to lead). ``keys, tags, bounds``: a table from ``new_table``;
    ``nodes[0]`` is increased by the positions searched.
    """
    h, tc = _setup(hands, active, t, trick, n_trick, trick_leader)
    nxt = next_seats(active)
    n_active = popcount(active)
    st = np.zeros((MAX_PLY, P_WIDTH), np.int64)
    moves = np.zeros((MAX_PLY, MAX_MOVES), np.int64)
    left = _root(h, st, tc, n_trick, trick_leader, nxt, sides)
    if left == 0:
        return 0
    return _mtd(h, st, moves, nxt, n_active, sides, left, _guess(h, sides, left), keys, tags, bounds, nodes,
                np.int64(0))


@kernel
def card_values(hands, active, t, trick, n_trick, trick_leader, sides, keys, tags, bounds, nodes, out):
    """For every legal card of the seat to play, the measured side's tricks if it is played (then best play).

    Same position arguments as ``solve_position``. ``out[c]`` is set for each legal
    card ``c`` (card space) and -1 elsewhere; returns the seat to play.
    """
    h, tc = _setup(hands, active, t, trick, n_trick, trick_leader)
    nxt = next_seats(active)
    n_active = popcount(active)
    st = np.zeros((MAX_PLY, P_WIDTH), np.int64)
    moves = np.zeros((MAX_PLY, MAX_MOVES), np.int64)
    left = _root(h, st, tc, n_trick, trick_leader, nxt, sides)
    for c in range(N_CARDS):
        out[c] = -1
    p = st[0, P_PLAYER]
    pos = st[0, P_POS]
    hand = h[p]
    legal = hand
    if pos > 0:
        fm = hand & (255 << (8 * st[0, P_LED]))
        if fm:
            legal = fm
    m = legal
    while m:
        b = lowest(m)
        m &= m - 1
        # the child position: the card played, solved from ply 1 as a new root
        h[p] ^= 1 << b
        c = 1
        if pos == 0:
            led, wbit, wseat = b >> 3, b, p
        else:
            led, wbit, wseat = st[0, P_LED], st[0, P_WBIT], st[0, P_WSEAT]
            if _beats(b, wbit):
                wbit, wseat = b, p
        st2 = np.zeros((MAX_PLY, P_WIDTH), np.int64)
        gain = 0
        if pos + 1 == n_active:
            gain = (sides >> wseat) & 1
            st2[0, P_POS] = 0
            st2[0, P_PLAYER] = wseat
            st2[0, P_LEFT] = left - 1
        else:
            st2[0, P_POS] = pos + 1
            st2[0, P_PLAYER] = nxt[p]
            st2[0, P_LEFT] = left
            st2[0, P_TRICK] = st[0, P_TRICK] | (1 << b)
        st2[0, P_LED] = led
        st2[0, P_WBIT] = wbit
        st2[0, P_WSEAT] = wseat
        v = 0
        if st2[0, P_LEFT] > 0:
            v = _mtd(h, st2, moves, nxt, n_active, sides, st2[0, P_LEFT], _guess(h, sides, st2[0, P_LEFT]),
                     keys, tags, bounds, nodes, np.int64(0))
        h[p] ^= 1 << b
        out[FROM_SOLVER[t, b]] = gain + v
    return p


def _solve_chunks(hands, active, trump, leader, sides, chunk_size, out, nodes):
    return -(-hands.shape[0] // chunk_size)


@chunk_kernel(count=_solve_chunks)
def solve_many(lo, hi, hands, active, trump, leader, sides, chunk_size, out, nodes):
    """Solve full deals from the first lead, in fixed chunks with one table each.

    Row ``i``: ``hands[i, 0..3]`` (card space), ``active[i]``, ``trump[i]``,
    ``leader[i]`` (the seat to lead), ``sides[i]``; ``out[i]`` gets the measured
    side's tricks and ``nodes[i]`` the positions searched. The values do not
    depend on the chunking or the threads (the table only stores exact bounds).
    """
    n = hands.shape[0]
    for ci in range(lo, hi):  # chunk ci: rows ci * chunk_size ..
        keys, tags, bounds = new_table()
        trick = np.zeros(4, np.int64)
        cnt = np.zeros(1, np.int64)
        for i in range(ci * chunk_size, min((ci + 1) * chunk_size, n)):
            cnt[0] = 0
            out[i] = solve_position(hands[i], active[i], trump[i], trick, np.int64(0), leader[i], sides[i], keys, tags,
                                    bounds, cnt)
            nodes[i] = cnt[0]
