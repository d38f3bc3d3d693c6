"""PIMC card play: sample the unseen cards from what the player knows, solve each world open, play the best card.

Perfect-information Monte Carlo for every variant. At a seat's turn the
variant's play code calls ``choose`` with what that seat knows and nothing
else: its own hand, every card played so far and by whom (the variant's
record row, ``R_PLAYS`` pairs), the cards it knows to be out of play (its own
discards, a turned-down up-card, the dead hand of a Ghost Hand swapper), at
most one card whose place it knows (``pin_card``: the up-card the dealer
picked up, Hasenpfeffer's joker after a forced 3), the seats in play and the
deck. From the plays it derives the voids shown (a seat that did not follow
the led suit, effective suit with the bowers in trump, holds none of it) and
every seat's hand size (each seat in play held the same number of cards at
the first lead).

**Worlds.** The unseen cards (the deck less the player's hand, the cards
played and those it knows to be out of play) go to the other seats in play,
each up to its hand size, and the rest to the *pile* of cards out of play
that the player has not seen (Ghost Hand's ghost or dead hand, a kitty, a
widow or a discard, a hand sitting out). Each world is drawn **exactly
uniformly** among the deals that agree with those facts: the unseen cards
are dealt one at a time (in card order), card ``i`` to recipient ``r`` with
probability ``N(i + 1, cap - e_r) / N(i, cap)``, where ``N(i, cap)`` counts
the ways to deal cards ``i ..`` into the remaining capacities ``cap`` with
every card going only where it may (``_count_deals``, a table over cards and
capacity vectors, built once per decision in exact int64 arithmetic; the
draws are exact integers below ``N``). With no void and no pin every card
may go anywhere and the same rule is ``cap_r / (cards left)``. So the draw
never dead-ends and nothing is rejected; a deal the facts rule out (it would
mean the facts were wrong) is never produced, and if the facts admit no deal
at all (``N = 0``, impossible for positions that the rules reached), the
voids are dropped for that decision.

**Values.** Each world is solved open by the double-dummy solver
(``bower.kernels.solve``: the same search as ``card_values``) for every legal card
of the player, from the measured side's view: the player's side (its
partnership; in Cutthroat the maker alone or the defenders together; in
Ghost Hand the player alone against the other two). Cards that are
equivalent in a world (adjacent in its live order) are solved once. The
values are summed over the worlds and the card with the highest total is
played; **ties** go to the card of least value (``tables.VALUE_RANK``: an
off-suit card before a trump, a low card before a high one), so the player
keeps its high cards when nothing tells them apart. A forced card (one legal
card), or legal cards that are all equivalent to the player (no card it has
not seen lies between them), need no search and draw nothing.

**Randomness** comes from the hand's decision stream ``(dstate, dbuf)``
(``bower.kernels.rng``), so a seed gives the same games for any thread count.

**Workspace.** The play kernels are compiled without reference counting, so
nothing here allocates: everything lives in one int64 array from
``new_workspace`` (the transposition table of ``bower.kernels.solve`` as views,
the search stacks, the deal-count table, counters), made once per hand by the
variant and reused by every decision of that hand (the table stores exact
bounds, so reuse is sound and the values never depend on it).

``pimc_sees_all`` (a test hook and the double-dummy ceiling): the one world
is the true deal, passed in by the caller; nothing is sampled.
"""

import numpy as np

from bower.kernels.bits import lowest, popcount
from bower.kernels.jit import kernel
from bower.kernels.rng import bounded, next_u32
from bower.kernels.solve import (
    FROM_SOLVER,
    MAX_MOVES,
    MAX_PLY,
    P_LED,
    P_LEFT,
    P_PLAYER,
    P_POS,
    P_TRICK,
    P_WBIT,
    P_WIDTH,
    P_WON,
    P_WSEAT,
    PEXT,
    TO_SOLVER,
    TT_BITS,
    _beats,
    _guess,
    _mtd,
    _root,
)
from bower.kernels.solve_points import EUCHRED, MARCH, _bands
from bower.kernels.tables import EFF_SUIT, SUIT_MASK, VALUE_RANK, slot_cards

PILE = 4  # recipient index of the out-of-play pile (seats are 0..3)
PILE_BIT = 1 << PILE
N_RECIPIENTS = 5
MAX_UNSEEN = 25
DP_STATES = 4096  # capacity vectors the deal-count table holds (the variants need at most 1,080)

# Counters kept in the workspace (``ws[OFF_STATS + k]``), summed over the decisions that used it.
ST_DECISIONS, ST_SEARCHED, ST_WORLDS, ST_SOLVES, ST_NODES, ST_DROPPED, ST_BAD = range(7)

_TT = 1 << TT_BITS
OFF_KEYS = 0  # (_TT, 2) int64
OFF_TAGS = 2 * _TT  # _TT int16 = _TT // 4 words
OFF_BOUNDS = OFF_TAGS + _TT // 4  # (_TT, 2) int8 = _TT // 4 words
OFF_ST = OFF_BOUNDS + _TT // 4
OFF_ST2 = OFF_ST + MAX_PLY * P_WIDTH
OFF_MOVES = OFF_ST2 + MAX_PLY * P_WIDTH
OFF_H = OFF_MOVES + MAX_PLY * MAX_MOVES  # 4: a world's hands in solver space
OFF_TC = OFF_H + 4  # 4: the current trick in solver space
OFF_NXT = OFF_TC + 4  # 4: next seat in play
OFF_HANDS = OFF_NXT + 4  # 4: a world's hands in card space
OFF_TRICK = OFF_HANDS + 4  # 4: the current trick in card space
OFF_STATS = OFF_TRICK + 4  # 8 counters
OFF_VOID = OFF_STATS + 8  # 4: voids shown, a suit bit per seat
OFF_NPLAYED = OFF_VOID + 4  # 4: cards played by seat
OFF_CAP = OFF_NPLAYED + 4  # N_RECIPIENTS: capacities
OFF_STRIDE = OFF_CAP + 8  # N_RECIPIENTS + 1
OFF_WORLD = OFF_STRIDE + 8  # N_RECIPIENTS: a world's cards by recipient (card space)
OFF_CARDS = OFF_WORLD + 8  # MAX_UNSEEN: the unseen cards
OFF_ALLOW = OFF_CARDS + MAX_UNSEEN  # MAX_UNSEEN: the recipients each may go to (bit mask)
OFF_TOTAL = OFF_ALLOW + MAX_UNSEEN  # 25: summed values by card
OFF_VAL = OFF_TOTAL + 25  # 25: one world's values by card
OFF_PLAYED_BY = OFF_VAL + 25  # 4: cards played by seat (mask)
OFF_WSUM = OFF_PLAYED_BY + 4  # 1 float64: the worlds' summed weights (weighted decisions)
OFF_FTOTAL = OFF_WSUM + 1  # 25 float64: weighted summed values by card
OFF_FSCRATCH = OFF_FTOTAL + 25  # N_FSCRATCH float64: the variant's scratch for a world's weight (a view there)
N_FSCRATCH = 32
OFF_CTX = OFF_FSCRATCH + N_FSCRATCH  # N_CTX: what the variant's weight needs of the hand, written by its play code
N_CTX = 8
OFF_ISCRATCH = OFF_CTX + N_CTX  # N_ISCRATCH: the variant's int64 scratch (a world's hands as dealt)
# (the play kernels run without reference counting, so a variant takes these views itself: no kernel returns one)
N_ISCRATCH = 8
OFF_NZ = OFF_ISCRATCH + N_ISCRATCH  # DP_STATES: recipients with capacity left, by state
OFF_DSUM = OFF_NZ + DP_STATES  # DP_STATES: cards still to deal, by state
OFF_DP = OFF_DSUM + DP_STATES  # (MAX_UNSEEN + 1) x DP_STATES: deal counts
WS_SIZE = OFF_DP + (MAX_UNSEEN + 1) * DP_STATES


def search_arg(params, worlds_column: int):
    """The hand kernels' ``search`` argument: an int64 array when a strategy row of ``params`` searches (its
    ``worlds_column``, ``pimc_worlds``, is 1 or more: its card play or its auction), else None. Each variant's
    kernels prune their search branches for None, so a run without a searching seat compiles none of this module."""
    return np.zeros(1, np.int64) if bool((np.asarray(params)[:, worlds_column] >= 1.0).any()) else None


@kernel
def new_workspace():
    """A fresh PIMC workspace: one int64 array of ``WS_SIZE`` with an empty transposition table.

    Only the table's tags need a value (-1: empty); the rest is written before it is read.
    """
    ws = np.empty(WS_SIZE, np.int64)
    ws[OFF_TAGS:OFF_BOUNDS] = -1  # every int16 tag -1
    ws[OFF_STATS:OFF_STATS + 8] = 0
    ws[OFF_CTX:OFF_CTX + N_CTX] = 0
    return ws


@kernel
def workspace_stats(ws):
    """The workspace's counters: (decisions, searched decisions, worlds, solves, nodes, decisions whose voids
    were dropped, decisions whose facts did not fit)."""
    return (ws[OFF_STATS + ST_DECISIONS], ws[OFF_STATS + ST_SEARCHED], ws[OFF_STATS + ST_WORLDS],
            ws[OFF_STATS + ST_SOLVES], ws[OFF_STATS + ST_NODES], ws[OFF_STATS + ST_DROPPED], ws[OFF_STATS + ST_BAD])


@kernel
def _below(dstate, dbuf, n):
    """Uniform integer in ``[0, n)`` for any positive int64 ``n``: ``rng.bounded`` below 2**32, else masked
    64-bit draws (two 32-bit draws, high half first) with rejection."""
    if n < (np.int64(1) << 32):
        return bounded(dstate, dbuf, n)
    bits = 64 - 1
    while (np.int64(1) << (bits - 1)) >= n:
        bits -= 1
    mask = (np.uint64(1) << np.uint64(bits)) - np.uint64(1)
    while True:
        hi = next_u32(dstate, dbuf)
        lo = next_u32(dstate, dbuf)
        x = ((hi << np.uint64(32)) | lo) & mask
        if np.int64(x) < n:
            return np.int64(x)


@kernel
def history(rec, off, n, trump, active, ws):
    """What the plays ``rec[off:off + 2n]`` (seat, card pairs) show: voids, cards played by seat (how many and
    which) into ``ws``.

    Returns (played mask, index of the current trick's first play, its leader
    (-1 when a trick is to be led), cards in it).
    """
    n_active = popcount(active)
    for s in range(4):
        ws[OFF_VOID + s] = 0
        ws[OFF_NPLAYED + s] = 0
        ws[OFF_PLAYED_BY + s] = 0
    played = np.int64(0)
    led = 0
    for i in range(n):
        seat = rec[off + 2 * i]
        card = rec[off + 2 * i + 1]
        played |= np.int64(1) << card
        ws[OFF_NPLAYED + seat] += 1
        ws[OFF_PLAYED_BY + seat] |= np.int64(1) << card
        suit = EFF_SUIT[trump, card]
        if i % n_active == 0:
            led = suit
        elif suit != led:
            ws[OFF_VOID + seat] |= 1 << led
    start = n - n % n_active
    leader = rec[off + 2 * start] if start < n else -1
    return played, start, leader, n - start


@kernel
def _prepare(own, me, active, trump, deck, known_out, pin_card, pin_allow, played, ws, use_voids):
    """The unseen cards, where each may go and every recipient's capacity, into ``ws``.

    Returns (number of unseen cards, whether any card is restricted, whether
    the capacities add up). A seat's capacity is its hand size (its cards at
    the first lead, the player's own count) less its plays; the pile takes
    the rest.
    """
    size = popcount(own) + ws[OFF_NPLAYED + me]
    unseen = deck & ~own & ~played & ~known_out
    n = popcount(unseen)
    total = 0
    open_to = PILE_BIT
    for s in range(4):
        ws[OFF_CAP + s] = 0
        if s != me and (active >> s) & 1:
            c = size - ws[OFF_NPLAYED + s]
            ws[OFF_CAP + s] = c
            total += c
            if c > 0:
                open_to |= 1 << s
    ws[OFF_CAP + PILE] = n - total
    ok = n - total >= 0 and n <= MAX_UNSEEN
    if n - total == 0:
        open_to &= ~PILE_BIT
    restricted = False
    m = unseen
    i = 0
    while m:
        c = lowest(m)
        m &= m - 1
        allow = open_to
        if use_voids:
            suit = EFF_SUIT[trump, c]
            for s in range(4):
                if (ws[OFF_VOID + s] >> suit) & 1:
                    allow &= ~(1 << s)
        if c == pin_card:
            allow &= pin_allow
        if allow != open_to:
            restricted = True
        if i < MAX_UNSEEN:
            ws[OFF_CARDS + i] = c
            ws[OFF_ALLOW + i] = allow
        i += 1
    return n, restricted, ok


@kernel
def _count_deals(n, ws):
    """Fill the deal-count table: ``N(i, s)``, the deals of unseen cards ``i ..`` into capacity state ``s``.

    States are the capacity vectors in mixed radix (``ws[OFF_STRIDE + r]``).
    Returns the state of the full capacities, or -1 when the table cannot
    hold the states.
    """
    stride = 1
    for r in range(N_RECIPIENTS):
        ws[OFF_STRIDE + r] = stride
        stride *= ws[OFF_CAP + r] + 1
    n_states = stride
    if n_states > DP_STATES:
        return -1
    for s in range(n_states):
        nz = 0
        dsum = 0
        for r in range(N_RECIPIENTS):
            d = (s // ws[OFF_STRIDE + r]) % (ws[OFF_CAP + r] + 1)
            dsum += d
            if d > 0:
                nz |= 1 << r
        ws[OFF_NZ + s] = nz
        ws[OFF_DSUM + s] = dsum
    row = OFF_DP + n * DP_STATES
    for s in range(n_states):
        ws[row + s] = 1 if s == 0 else 0
    for i in range(n - 1, -1, -1):
        row = OFF_DP + i * DP_STATES
        below = row + DP_STATES
        allow = ws[OFF_ALLOW + i]
        for s in range(n_states):
            acc = 0
            if ws[OFF_DSUM + s] == n - i:
                m = allow & ws[OFF_NZ + s]
                while m:
                    r = lowest(m)
                    m &= m - 1
                    acc += ws[below + s - ws[OFF_STRIDE + r]]
            ws[row + s] = acc
    return n_states - 1


@kernel
def _plan(own, me, active, trump, deck, known_out, pin_card, pin_allow, played, ws):
    """Everything the draws of one decision need, into ``ws``: (unseen cards, whether any is restricted, the
    deal-count table's full state, whether the hand sizes fit, whether the voids had to be dropped).

    The voids are dropped (the pin kept) only if no deal agrees with them,
    which cannot happen in positions the rules reach.
    """
    n_unseen, restricted, ok = _prepare(own, me, active, trump, deck, known_out, pin_card, pin_allow, played, ws, True)
    full = 0
    dropped = False
    if ok and restricted:
        full = _count_deals(n_unseen, ws)
        if full < 0 or ws[OFF_DP + full] == 0:
            dropped = True
            n_unseen, restricted, ok = _prepare(own, me, active, trump, deck, known_out, pin_card, pin_allow, played,
                                                ws, False)
            full = _count_deals(n_unseen, ws) if restricted else 0
            if full < 0 or (restricted and ws[OFF_DP + full] == 0):
                restricted = False
    return n_unseen, restricted, full, ok, dropped


@kernel
def _draw_world(n, full, restricted, dstate, dbuf, ws):
    """One world: the unseen cards dealt to the recipients (``ws[OFF_WORLD + r]``), uniformly among the deals
    the facts allow (``_count_deals``'s table when a card is restricted, else in proportion to capacities)."""
    for r in range(N_RECIPIENTS):
        ws[OFF_WORLD + r] = 0
    if restricted:
        s = full
        for i in range(n):
            u = _below(dstate, dbuf, ws[OFF_DP + i * DP_STATES + s])
            below = OFF_DP + (i + 1) * DP_STATES
            m = ws[OFF_ALLOW + i] & ws[OFF_NZ + s]
            r = lowest(m)
            while m:
                r = lowest(m)
                m &= m - 1
                w = ws[below + s - ws[OFF_STRIDE + r]]
                if u < w:
                    break
                u -= w
            s -= ws[OFF_STRIDE + r]
            ws[OFF_WORLD + r] |= np.int64(1) << ws[OFF_CARDS + i]
    else:
        left0 = ws[OFF_CAP + 0]
        left1 = ws[OFF_CAP + 1]
        left2 = ws[OFF_CAP + 2]
        left3 = ws[OFF_CAP + 3]
        for i in range(n):
            u = bounded(dstate, dbuf, n - i)
            if u < left0:
                r = 0
                left0 -= 1
            elif u < left0 + left1:
                r = 1
                left1 -= 1
            elif u < left0 + left1 + left2:
                r = 2
                left2 -= 1
            elif u < left0 + left1 + left2 + left3:
                r = 3
                left3 -= 1
            else:
                r = PILE
            ws[OFF_WORLD + r] |= np.int64(1) << ws[OFF_CARDS + i]


@kernel
def _setup_deal(own, me, active, n_unseen, full, restricted, dstate, dbuf, ws, sees_all, true0, true1, true2, true3):
    """A world's hands (card space) into ``ws[OFF_HANDS:]``: drawn, or the true ones with ``sees_all``."""
    if sees_all:
        ws[OFF_HANDS + 0] = true0 if active & 1 else 0
        ws[OFF_HANDS + 1] = true1 if (active >> 1) & 1 else 0
        ws[OFF_HANDS + 2] = true2 if (active >> 2) & 1 else 0
        ws[OFF_HANDS + 3] = true3 if (active >> 3) & 1 else 0
    else:
        _draw_world(n_unseen, full, restricted, dstate, dbuf, ws)
        for s in range(4):
            ws[OFF_HANDS + s] = ws[OFF_WORLD + s] if (active >> s) & 1 else 0
    ws[OFF_HANDS + me] = own


@kernel
def _world_values(legal, active, t, n_trick, trick_leader, sides, ws):
    """Write, for each card of ``legal`` (card space), the measured side's tricks in the world ``ws[OFF_HANDS:]``
    when it is played (then best play by both sides) to ``ws[OFF_VAL + card]``.

    ``card_values`` of ``bower.kernels.solve`` without allocating, with the cards
    equivalent in this world solved once, each solve guessed from the last.
    """
    n_tt = 1 << TT_BITS
    keys = ws[OFF_KEYS:OFF_TAGS].reshape((n_tt, 2))
    tags = ws[OFF_TAGS:OFF_BOUNDS].view(np.int16)
    bounds = ws[OFF_BOUNDS:OFF_ST].view(np.int8).reshape((n_tt, 2))
    st = ws[OFF_ST:OFF_ST2].reshape((MAX_PLY, P_WIDTH))
    st2 = ws[OFF_ST2:OFF_MOVES].reshape((MAX_PLY, P_WIDTH))
    moves = ws[OFF_MOVES:OFF_H].reshape((MAX_PLY, MAX_MOVES))
    h = ws[OFF_H:OFF_TC]
    tc = ws[OFF_TC:OFF_NXT]
    nxt = ws[OFF_NXT:OFF_HANDS]
    nodes = ws[OFF_STATS + ST_NODES:OFF_STATS + ST_NODES + 1]
    n_active = popcount(active)
    live = np.int64(0)
    for s in range(4):
        h[s] = 0
        if (active >> s) & 1:
            m = ws[OFF_HANDS + s]
            while m:
                c = lowest(m)
                m &= m - 1
                h[s] |= np.int64(1) << TO_SOLVER[t, c]
        live |= h[s]
        for k in range(1, 5):
            o = (s + k) % 4
            if (active >> o) & 1:
                nxt[s] = o
                break
    for i in range(n_trick):
        tc[i] = TO_SOLVER[t, ws[OFF_TRICK + i]]
        live |= np.int64(1) << tc[i]
    left = _root(h, st, tc, n_trick, trick_leader, nxt, sides)
    p = st[0, P_PLAYER]
    pos = st[0, P_POS]
    mine = np.int64(0)
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        mine |= np.int64(1) << TO_SOLVER[t, c]
    prev = -1
    for sb in range(4):
        ms = (mine >> (8 * sb)) & 255
        if ms == 0:
            continue
        ls = (live >> (8 * sb)) & 255
        comp = np.int64(PEXT[ls, ms])  # the legal cards among the live ones of this suit, ranks compressed
        value = 0
        in_run = False
        k = 0
        for bit in range(8):
            if not (ls >> bit) & 1:
                continue
            b = 8 * sb + bit  # the k-th live card of the suit
            if (comp >> k) & 1:
                if not in_run:
                    # a new run of equivalent cards: solve its first
                    h[p] ^= np.int64(1) << b
                    if pos == 0:
                        led, wbit, wseat = b >> 3, b, p
                    else:
                        led, wbit, wseat = st[0, P_LED], st[0, P_WBIT], st[0, P_WSEAT]
                        if _beats(b, wbit):
                            wbit, wseat = b, p
                    gain = 0
                    st2[0, P_WON] = 0
                    if pos + 1 == n_active:
                        gain = (sides >> wseat) & 1
                        st2[0, P_POS] = 0
                        st2[0, P_PLAYER] = wseat
                        st2[0, P_LEFT] = left - 1
                        st2[0, P_TRICK] = 0
                    else:
                        st2[0, P_POS] = pos + 1
                        st2[0, P_PLAYER] = nxt[p]
                        st2[0, P_LEFT] = left
                        st2[0, P_TRICK] = st[0, P_TRICK] | (np.int64(1) << b)
                    st2[0, P_LED] = led
                    st2[0, P_WBIT] = wbit
                    st2[0, P_WSEAT] = wseat
                    v = 0
                    n_left = st2[0, P_LEFT]
                    if n_left > 0:
                        guess = prev if prev >= 0 else _guess(h, sides, n_left)
                        v = _mtd(h, st2, moves, nxt, n_active, sides, n_left, guess, keys, tags, bounds, nodes,
                                 np.int64(0))
                        prev = v
                        ws[OFF_STATS + ST_SOLVES] += 1
                    h[p] ^= np.int64(1) << b
                    value = gain + v
                    in_run = True
                ws[OFF_VAL + FROM_SOLVER[t, b]] = value
            else:
                in_run = False
            k += 1
    return p


@kernel
def _one_class(legal, live, t):
    """Whether every card of ``legal`` is equivalent to the others among the cards ``live`` (card space):
    all of one effective suit with no live card of another hand between them."""
    mine = np.int64(0)
    lv = np.int64(0)
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        mine |= np.int64(1) << TO_SOLVER[t, c]
    m = live
    while m:
        c = lowest(m)
        m &= m - 1
        lv |= np.int64(1) << TO_SOLVER[t, c]
    runs = 0
    for sb in range(4):
        ms = (mine >> (8 * sb)) & 255
        if ms:
            comp = np.int64(PEXT[(lv >> (8 * sb)) & 255, ms])
            runs += popcount(comp & ~(comp >> 1))
    return runs <= 1


@kernel
def least_valued(mask, t):
    """The card of ``mask`` of least value under trump ``t`` (``tables.VALUE_RANK``): the tie rule."""
    best = -1
    m = mask
    while m:
        c = lowest(m)
        m &= m - 1
        if best < 0 or VALUE_RANK[t, c] < VALUE_RANK[t, best]:
            best = c
    return best


@kernel
def begin(own, me, active, trump, deck, known_out, pin_card, pin_allow, rec, off, n, sees_all, ws):
    """The first half of a PIMC decision: the legal cards, and whether a search is needed.

    Returns (card, legal, leader, cards in the current trick, unseen cards,
    whether one is restricted, the deal-count table's full state): ``card``
    >= 0 when the decision needs no search (a forced card, equivalent cards,
    facts that do not fit), else -1 and the draws are planned in ``ws``
    (``_plan``) and the totals of the legal cards cleared. Arguments as
    ``choose``.
    """
    ws[OFF_STATS + ST_DECISIONS] += 1
    played, start, leader, n_trick = history(rec, off, n, trump, active, ws)
    legal = own
    if n_trick > 0:
        follow = own & SUIT_MASK[trump, EFF_SUIT[trump, rec[off + 2 * start + 1]]]
        if follow:
            legal = follow
    if legal & (legal - 1) == 0:
        return lowest(legal), legal, leader, n_trick, 0, False, 0
    trick_mask = np.int64(0)
    for i in range(n_trick):
        c = rec[off + 2 * (start + i) + 1]
        ws[OFF_TRICK + i] = c
        trick_mask |= np.int64(1) << c
    unseen = deck & ~own & ~played & ~known_out
    if _one_class(legal, own | unseen | trick_mask, trump):
        return least_valued(legal, trump), legal, leader, n_trick, 0, False, 0
    ws[OFF_STATS + ST_SEARCHED] += 1
    if leader < 0:
        leader = me
    n_unseen, restricted, full, ok = 0, False, 0, True
    if not sees_all:
        n_unseen, restricted, full, ok, dropped = _plan(own, me, active, trump, deck, known_out, pin_card, pin_allow,
                                                        played, ws)
        ws[OFF_STATS + ST_DROPPED] += dropped
        if not ok:
            # cannot happen in positions the rules reach (the hand sizes do not fit the unseen cards)
            ws[OFF_STATS + ST_BAD] += 1
            return least_valued(legal, trump), legal, leader, n_trick, 0, False, 0
    fw = ws[OFF_WSUM:OFF_FTOTAL + 25].view(np.float64)
    fw[0] = 0.0
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        ws[OFF_TOTAL + c] = 0
        fw[1 + c] = 0.0
    return -1, legal, leader, n_trick, n_unseen, restricted, full


@kernel
def world_hands(ws):
    """The current world (after ``draw``): (hands by seat 0..3 in card space, the pile, cards played by seat 0..3)."""
    return (ws[OFF_HANDS], ws[OFF_HANDS + 1], ws[OFF_HANDS + 2], ws[OFF_HANDS + 3], ws[OFF_WORLD + PILE],
            ws[OFF_PLAYED_BY], ws[OFF_PLAYED_BY + 1], ws[OFF_PLAYED_BY + 2], ws[OFF_PLAYED_BY + 3])


@kernel
def draw(own, me, active, n_unseen, full, restricted, dstate, dbuf, ws):
    """Draw the next world of a decision (``begin``'s plan) into ``ws``; ``world_hands`` reads it."""
    _setup_deal(own, me, active, n_unseen, full, restricted, dstate, dbuf, ws, False, own, own, own, own)


@kernel
def add_world(legal, active, trump, n_trick, leader, sides, w, ws):
    """Solve the current world for every legal card and add its values to the totals: plain, and times ``w``."""
    _world_values(legal, active, trump, n_trick, leader, sides, ws)
    ws[OFF_STATS + ST_WORLDS] += 1
    fw = ws[OFF_WSUM:OFF_FTOTAL + 25].view(np.float64)
    fw[0] += w
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        ws[OFF_TOTAL + c] += ws[OFF_VAL + c]
        fw[1 + c] += w * ws[OFF_VAL + c]


@kernel
def weight_sum(ws):
    """The summed weights of the worlds added to this decision."""
    return ws[OFF_WSUM:OFF_WSUM + 1].view(np.float64)[0]


@kernel
def pick(legal, trump, weighted, ws):
    """The legal card with the highest total (weighted: the weighted total), ties to the card of least value."""
    fw = ws[OFF_WSUM:OFF_FTOTAL + 25].view(np.float64)
    best = -1
    m = legal
    while m:
        c = lowest(m)
        m &= m - 1
        if best < 0:
            best = c
            continue
        if weighted:
            better = fw[1 + c] > fw[1 + best]
            tie = fw[1 + c] == fw[1 + best]
        else:
            better = ws[OFF_TOTAL + c] > ws[OFF_TOTAL + best]
            tie = ws[OFF_TOTAL + c] == ws[OFF_TOTAL + best]
        if better or (tie and VALUE_RANK[trump, c] < VALUE_RANK[trump, best]):
            best = c
    return best


@kernel
def choose(own, me, active, trump, sides, deck, known_out, pin_card, pin_allow, rec, off, n, n_worlds, sees_all,
           true0, true1, true2, true3, dstate, dbuf, ws):
    """The card seat ``me`` plays by PIMC: the legal card whose double-dummy values summed over ``n_worlds`` worlds
    are highest (ties: least value).

    ``own``: its hand (card space); ``active``: the seats in play (mask);
    ``sides``: the seats of its side (the measured side, ``me`` in it);
    ``deck``: every card of the variant; ``known_out``: cards the seat knows
    are out of play; ``pin_card`` (-1: none) may only be with the recipients
    of ``pin_allow`` (bits: seats, ``PILE_BIT``), unless played or in
    ``own``; ``rec[off:off + 2n]``: the plays so far (seat, card).
    ``sees_all``: one world, the true hands ``true0 .. true3`` (card space
    by seat; the test hook and the double-dummy ceiling). Draws from ``(dstate, dbuf)`` only when it searches; ``ws`` from
    ``new_workspace``. Every world weighs the same; a variant that weighs
    them by the auction composes ``begin``, ``draw``, ``add_world`` and
    ``pick`` itself.
    """
    card, legal, leader, n_trick, n_unseen, restricted, full = begin(
        own, me, active, trump, deck, known_out, pin_card, pin_allow, rec, off, n, sees_all, ws)
    if card >= 0:
        return card
    worlds = 1 if sees_all else n_worlds
    for _ in range(worlds):
        _setup_deal(own, me, active, n_unseen, full, restricted, dstate, dbuf, ws, sees_all, true0, true1, true2, true3)
        add_world(legal, active, trump, n_trick, leader, sides, 1.0, ws)
    return pick(legal, trump, False, ws)


@kernel
def sample_worlds(own, me, active, trump, deck, known_out, pin_card, pin_allow, rec, off, n, n_worlds, dstate, dbuf,
                  ws, out):
    """``n_worlds`` worlds as ``choose`` draws them, into ``out[w, r]`` (card masks: seats 0..3, then the pile).

    For the tests: the same facts, the same draws, without the search.
    Returns (whether the voids had to be dropped, whether the hand sizes fit
    the unseen cards): (False, True) for every position the rules reach.
    """
    played, _, _, _ = history(rec, off, n, trump, active, ws)
    n_unseen, restricted, full, ok, dropped = _plan(own, me, active, trump, deck, known_out, pin_card, pin_allow,
                                                    played, ws)
    if not ok:
        return dropped, ok
    for w in range(n_worlds):
        _draw_world(n_unseen, full, restricted, dstate, dbuf, ws)
        for r in range(N_RECIPIENTS):
            out[w, r] = ws[OFF_WORLD + r]
    return dropped, ok


@kernel
def solve_deal(h0, h1, h2, h3, active, trump, leader, sides, ws):
    """Double-dummy tricks of the seats ``sides`` from a whole deal at the first lead (hands by seat, card space,
    ``leader`` to lead), on the workspace's table and stacks (no allocation): the searched auction's solves."""
    return solve_deal_floor(h0, h1, h2, h3, active, trump, leader, sides, np.int64(0), ws)


@kernel(inline="always")
def choose_slots(hand, me, facts, trump, deck, rec, off, n, n_worlds, sees_all, v0, v1, v2, v3, dstate, dbuf, ws):
    """``choose`` for a seat of the trick core (``kernels.trick.play_tricks``'s ``pick``): ``hand`` and the
    seats' hands ``v0 .. v3`` in slot space, ``facts`` the variant's (seats in play, ``me``'s side, cards known
    out of play, pinned card, where it may be); returns the card (card space)."""
    active, sides, known, pin, pin_allow = facts
    return choose(slot_cards(hand, trump), me, active, trump, sides, deck, known, pin, pin_allow, rec, off, n,
                  n_worlds, sees_all, slot_cards(v0, trump), slot_cards(v1, trump), slot_cards(v2, trump),
                  slot_cards(v3, trump), dstate, dbuf, ws)


@kernel(inline="always")
def _load_deal(h0, h1, h2, h3, active, trump, leader, sides, ws):
    """A whole deal (hands by seat, card space) at the first lead set up on the workspace's solver stacks: returns
    (tricks left, then ``solve._search``'s arrays: hands, stack, moves, next seats, the table's keys, tags and
    bounds, the node counter)."""
    n_tt = 1 << TT_BITS
    keys = ws[OFF_KEYS:OFF_TAGS].reshape((n_tt, 2))
    tags = ws[OFF_TAGS:OFF_BOUNDS].view(np.int16)
    bounds = ws[OFF_BOUNDS:OFF_ST].view(np.int8).reshape((n_tt, 2))
    st = ws[OFF_ST:OFF_ST2].reshape((MAX_PLY, P_WIDTH))
    moves = ws[OFF_MOVES:OFF_H].reshape((MAX_PLY, MAX_MOVES))
    h = ws[OFF_H:OFF_TC]
    tc = ws[OFF_TC:OFF_NXT]
    nxt = ws[OFF_NXT:OFF_HANDS]
    nodes = ws[OFF_STATS + ST_NODES:OFF_STATS + ST_NODES + 1]
    for s in range(4):
        x = h0 if s == 0 else (h1 if s == 1 else (h2 if s == 2 else h3))
        h[s] = 0
        if (active >> s) & 1:
            while x:
                c = lowest(x)
                x &= x - 1
                h[s] |= np.int64(1) << TO_SOLVER[trump, c]
        for k in range(1, 5):
            o = (s + k) % 4
            if (active >> o) & 1:
                nxt[s] = o
                break
    left = _root(h, st, tc, 0, leader, nxt, sides)
    return left, h, st, moves, nxt, keys, tags, bounds, nodes


@kernel
def solve_deal_floor(h0, h1, h2, h3, active, trump, leader, sides, floor, ws):
    """``solve_deal`` exact from ``floor`` tricks up: a count below ``floor`` comes back as some number below it
    (fewer zero-window searches), for a contract whose score is the same for every count short of ``floor``."""
    left, h, st, moves, nxt, keys, tags, bounds, nodes = _load_deal(h0, h1, h2, h3, active, trump, leader, sides, ws)
    if left == 0:
        return 0
    ws[OFF_STATS + ST_SOLVES] += 1
    return _mtd(h, st, moves, nxt, popcount(active), sides, left, _guess(h, sides, left), keys, tags, bounds, nodes,
                floor)


@kernel
def solve_deal_points(h0, h1, h2, h3, active, trump, leader, sides, need, ws):
    """``solve_deal`` in the solver's points mode (``solve_points._bands``, at most two zero-window searches): the
    tricks of ``sides`` as 0 when fewer than ``need`` (euchred), ``need`` when ``need`` up to all but one (made),
    and all of them (a march); ``need`` >= 1. For a contract scored by those three bands alone, the same score as the exact
    count (the searched auctions of Euchre; the values, hence the calls, are the same)."""
    left, h, st, moves, nxt, keys, tags, bounds, nodes = _load_deal(h0, h1, h2, h3, active, trump, leader, sides, ws)
    if left == 0:
        return 0
    ws[OFF_STATS + ST_SOLVES] += 1
    band = _bands(h, st, moves, nxt, popcount(active), sides, left, need, keys, tags, bounds, nodes)
    return 0 if band == EUCHRED else (left if band == MARCH else need)


@kernel
def rule_out(vals, n, out, left, top, bottom):
    """The candidates of ``vals[:n]`` (sums over the worlds so far) that can no longer be chosen, as bits added to
    ``out`` (those already out are not counted): a candidate is out once, even scoring ``top`` in each of the
    ``left`` worlds to come while the leader scores ``bottom``, it would still end strictly below the leader.
    Its solves can be skipped and the choice (the highest sum, ties to any rule) is unchanged."""
    lead = -np.inf
    for i in range(n):
        if not (out >> i) & 1 and vals[i] > lead:
            lead = vals[i]
    for i in range(n):
        if vals[i] + left * top < lead + left * bottom:
            out |= np.int64(1) << i
    return out


@kernel
def plan_fresh(own, me, active, deck, known_out, ws):
    """``begin``'s plan for a decision before any card is played (the auction): the unseen cards go to the
    other seats in play (each as many as ``own``) and the pile. Returns (unseen cards, restricted, full state)."""
    played, _, _, _ = history(ws, 0, 0, 0, active, ws)
    n_unseen, restricted, full, ok, _ = _plan(own, me, active, 0, deck, known_out, -1, 0, played, ws)
    return n_unseen, restricted, full


@kernel
def plan_fresh_pinned(own, me, active, deck, known_out, pin_card, pin_allow, ws):
    """``plan_fresh`` with one card whose place is known (``pin_card`` only with the recipients of ``pin_allow``,
    -1: none): a decision after the auction and before the first lead, such as Cutthroat's merge after the
    dealer took the up-card. Returns (unseen cards, restricted, full state)."""
    played, _, _, _ = history(ws, 0, 0, 0, active, ws)
    n_unseen, restricted, full, ok, _ = _plan(own, me, active, 0, deck, known_out, pin_card, pin_allow, played, ws)
    return n_unseen, restricted, full
