"""Double-dummy analysis: deals and played positions checked against the rules, solved by ``bower.kernels.solve``.

With every hand open and best play by both sides, how many tricks does the
maker's side take? The two sides are the maker's (alone, or with a partner
in a partnership variant) and everyone else in play (Ghost Hand's other two
players together: the "paranoid" reading of a contract). This module turns
deals, ``--plays`` lists and records into solver positions, and the results
back into plain dicts: ``solve`` (one position, with each legal card's
value), ``dd_table`` (every trump and maker), ``records_dd`` (the ``dd``
object of saved records, in batches on every thread).
"""

from __future__ import annotations

import functools
import os

from dataclasses import dataclass, field

import numpy as np

from bower.kernels import solve as ks
from bower.kernels.tables import EFF_SUIT, POWER
from bower.sim.cards import JOKER, SUITS, CardError, card_str, parse_card, parse_cards
from bower.sim.errors import UserError
from bower.sim.text import MAX_DIGITS, given_text, number_text

SUIT_NAMES = {"C": 0, "S": 1, "D": 2, "H": 3, "♣": 0, "♠": 1, "♦": 2, "♥": 3}
CHUNK = 256  # deals per solver chunk (one transposition table each)


_CARD_INDEX = {card_str(c): c for c in range(25)}  # the records' own spelling, looked up before parsing


class DealError(UserError, ValueError):
    """A deal, play list or record that the rules do not allow."""


def parse_suit(text: str) -> int:
    """Suit index of ``C S D H`` (any case, or a suit symbol)."""
    s = str(text).strip().upper()
    if s not in SUIT_NAMES:
        raise DealError(f"unknown suit {text!r} (expected C, S, D or H)")
    return SUIT_NAMES[s]


def parse_deal(variant, text: str) -> dict[int, list[int]]:
    """Seat -> cards of a deal written ``0:JH JD AH KH QH TH 1:... 2:...`` (commas allowed).

    Only seats in play are given (a seat sitting out is left out). Checked:
    seat numbers, card notation, duplicates, the joker only where the deck has one.
    """
    hands: dict[int, list[str]] = {}
    seat = None
    for tok in text.replace(",", " ").split():
        if ":" in tok:
            head, _, rest = tok.partition(":")
            head = head.strip()
            if not (head.isascii() and head.isdigit()):  # '²' is a digit to isdigit() but not to int()
                raise DealError(f"malformed seat {given_text(head)!r} in the deal (expected e.g. '0:JH JD ...')")
            seat = int(head) if len(head) <= MAX_DIGITS else None  # int() of 5,000 digits fails: never a seat
            if seat is None or not 0 <= seat < variant.card_play.seats:
                raise DealError(f"seat {given_text(head) if seat is None else seat} is not at the {variant.title} "
                                f"table (seats 0..{variant.card_play.seats - 1})")
            if seat in hands:
                raise DealError(f"seat {seat} is given twice in the deal")
            hands[seat] = []
            tok = rest
            if not tok:
                continue
        if seat is None:
            raise DealError("a deal starts with a seat number, e.g. '0:JH JD AH KH QH TH 1:...'")
        hands[seat].append(tok)
    out = {}
    seen: dict[int, int] = {}
    for s, names in hands.items():
        cards = parse_cards(names, allow_joker=variant.card_play.joker)
        for c in cards:
            if c in seen:
                raise DealError(f"card {card_str(c)} is in the hands of seats {seen[c]} and {s}")
            seen[c] = s
        out[s] = cards
    return check_hands(variant, out)


def check_hands(variant, hands: dict[int, list[int]]) -> dict[int, list[int]]:
    """``hands`` if the variant can hold them at a trick boundary: the seats in play, a seat of each side among
    them, equal counts, legal sizes."""
    cp = variant.card_play
    if len(hands) not in cp.seats_in_play:
        c = [str(n) for n in cp.seats_in_play]
        counts = c[0] if len(c) == 1 else ", ".join(c[:-1]) + " or " + c[-1]
        raise DealError(f"a {variant.title} deal has {counts} seats in play, not {len(hands)}")
    sizes = {len(c) for c in hands.values()}
    if len(sizes) != 1:
        detail = ", ".join(f"seat {s}: {len(c)}" for s, c in sorted(hands.items()))
        raise DealError(f"every seat in play holds the same number of cards at the first lead ({detail})")
    n = sizes.pop()
    if not 1 <= n <= cp.hand_size:
        raise DealError(f"a {variant.title} hand holds 1 to {cp.hand_size} cards, not {n}")
    active = sum(1 << s for s in hands)
    if all(variant.maker_side(m, active) == active for m in hands):  # partners alone: no one to play against
        seats = " and ".join(str(s) for s in sorted(hands))
        raise DealError(f"the deal's seats in play, {seats}, are all one side: a {variant.title} hand needs a "
                        "seat of each side in play")
    return hands


_EFF = EFF_SUIT.tolist()  # the tables as nested lists: indexing them from Python is many times faster
_POWER = POWER.tolist()


def trick_winner(trump: int, trick: list[tuple[int, int]]) -> int:
    """The seat that wins a complete trick of (seat, card) pairs under ``trump``."""
    power = _POWER[trump][_EFF[trump][trick[0][1]]]
    return max(trick, key=lambda sc: power[sc[1]])[0]


def legal_cards(hand: int, trump: int, trick: list[tuple[int, int]]) -> int:
    """The mask of the cards of ``hand`` that may be played to ``trick``: follow the suit led if able."""
    if not trick:
        return hand
    led = EFF_SUIT[trump, trick[0][1]]
    follow = sum(1 << c for c in range(25) if hand >> c & 1 and EFF_SUIT[trump, c] == led)
    return follow or hand


def next_seat(seat: int, active: int) -> int:
    """The next seat in play clockwise after ``seat``."""
    for k in range(1, 5):
        o = (seat + k) % 4
        if active >> o & 1:
            return o
    return seat


@dataclass
class Position:
    """A hand part-way through play: who holds what, the trick on the table, the tricks taken."""

    hands: dict[int, int]  # seat -> mask of the cards still held
    active: int  # mask of the seats in play
    trump: int
    trick: list[tuple[int, int]]  # (seat, card) played to the current trick
    leader: int  # the seat that led (or is to lead) the current trick
    taken: dict[int, int] = field(default_factory=dict)  # seat -> tricks taken so far

    @property
    def to_play(self) -> int:
        """The seat whose turn it is."""
        return self.leader if not self.trick else next_seat(self.trick[-1][0], self.active)

    @property
    def tricks_left(self) -> int:
        """Tricks not yet complete (the one on the table included)."""
        return bin(self.hands[self.leader]).count("1") + (1 if self.trick else 0)


def start(hands: dict[int, list[int]], trump: int, leader: int) -> Position:
    """The position at the first lead."""
    active = sum(1 << s for s in hands)
    if not active >> leader & 1:
        raise DealError(f"seat {leader} leads but is not in play")
    masks = {s: sum(1 << c for c in cards) for s, cards in hands.items()}
    return Position(masks, active, trump, [], leader, {s: 0 for s in hands})


def play(pos: Position, card: int, seat: int | None = None) -> tuple[int, int]:
    """Play ``card`` for the seat to play (checked: its turn, its card, legal); returns (seat, winner or -1)."""
    p = pos.to_play
    if seat is not None and seat != p:
        raise DealError(f"seat {seat} played {card_str(card)} when it was seat {p}'s turn")
    if not pos.hands[p] >> card & 1:
        raise DealError(f"seat {p} does not hold {card_str(card)}")
    if not legal_cards(pos.hands[p], pos.trump, pos.trick) >> card & 1:
        led = SUITS[EFF_SUIT[pos.trump, pos.trick[0][1]]]
        raise DealError(f"seat {p} cannot play {card_str(card)}: it must follow the suit led ({led})")
    pos.hands[p] &= ~(1 << card)
    pos.trick.append((p, card))
    if len(pos.trick) == bin(pos.active).count("1"):
        w = trick_winner(pos.trump, pos.trick)
        pos.taken[w] = pos.taken.get(w, 0) + 1
        pos.trick, pos.leader = [], w
        return p, w
    return p, -1


def _kernel_args(pos: Position):
    hands = np.zeros(4, np.int64)
    for s, m in pos.hands.items():
        hands[s] = m
    trick = np.zeros(4, np.int64)
    for i, (_, c) in enumerate(pos.trick):
        trick[i] = c
    trick_leader = pos.trick[0][0] if pos.trick else pos.leader
    return hands, trick, len(pos.trick), trick_leader


_TABLE = None


def _table():
    """The transposition table of this process's one-position solves (kept: its entries stay exact)."""
    global _TABLE
    if _TABLE is None:
        _TABLE = ks.new_table()
    return _TABLE


def value(pos: Position, side: int) -> tuple[int, int]:
    """(tricks the seats of ``side`` take from ``pos`` on with best play, positions searched)."""
    if pos.tricks_left == 0:
        return 0, 0
    hands, trick, n, tl = _kernel_args(pos)
    nodes = np.zeros(1, np.int64)
    keys, tags, bounds = _table()
    v = ks.solve_position(hands, np.int64(pos.active), np.int64(pos.trump), trick, np.int64(n), np.int64(tl),
                          np.int64(side), keys, tags, bounds, nodes)
    return int(v), int(nodes[0])


def card_values(pos: Position, side: int) -> dict[int, int]:
    """Card -> tricks ``side`` takes from ``pos`` on if the seat to play plays it (then best play), legal cards only."""
    hands, trick, n, tl = _kernel_args(pos)
    out = np.zeros(25, np.int64)
    keys, tags, bounds = _table()
    ks.card_values(hands, np.int64(pos.active), np.int64(pos.trump), trick, np.int64(n), np.int64(tl),
                   np.int64(side), keys, tags, bounds, np.zeros(1, np.int64), out)
    return {c: int(out[c]) for c in range(25) if out[c] >= 0}


def check_seats(variant, hands: dict[int, list[int]], leader=None, dealer=None, maker=None, alone=()) -> None:
    """DealError unless every seat named is at the table, and the leader and each lone seat hold cards."""
    v = variant
    for name, seat in (("--leader", leader), ("--dealer", dealer), ("--maker", maker),
                       *(("--alone", a) for a in alone)):
        if seat is not None and not 0 <= seat < v.card_play.seats:
            raise DealError(f"{name} {number_text(seat)} is not a seat at the {v.title} table "
                            f"(0..{v.card_play.seats - 1})")
    for a in alone:
        if a not in hands:
            raise DealError(f"--alone {a}: that seat holds no cards in the deal")
    if leader is not None and leader not in hands:
        raise DealError(f"--leader {leader}: that seat holds no cards in the deal")


def solve(variant, hands: dict[int, list[int]], trump: int, maker: int, leader: int | None = None,
          plays=(), rules: dict | None = None, dealer: int | None = None, alone=frozenset()) -> dict:
    """The double-dummy answer at one position: the maker side's tricks, and every legal card's value.

    ``hands``: seat -> cards at the first lead (seats in play only); ``plays``:
    cards played since, in order (checked against the rules). ``leader``
    defaults to the seat the rules make lead (``dealer`` defaults to the
    seat before seat 0, so seat 0 is position 1; ``alone``: the seats that
    went alone, where the rules make that change the leader). Tricks are
    counted for the whole hand: those already taken plus best play from here.
    """
    check_hands(variant, hands)
    active = sum(1 << s for s in hands)
    if maker not in hands:
        raise DealError(f"the maker, seat {maker}, is not in play")
    if dealer is None:
        dealer = variant.players - 1
    if leader is None:
        leader = variant.card_play.first_leader(maker, dealer, active, rules or {}, frozenset(alone))
    pos = start(hands, trump, leader)
    for c in plays:
        if pos.tricks_left == 0:
            raise DealError(f"{card_str(c)} is played after the last trick")
        play(pos, c)
    side = variant.maker_side(maker, active)
    taken = sum(n for s, n in pos.taken.items() if side >> s & 1)
    v, nodes = value(pos, side)
    out = {
        "trump": SUITS[trump], "maker": maker, "side": [s for s in range(4) if side >> s & 1], "leader": leader,
        "tricks_taken": taken, "tricks_left": pos.tricks_left, "tricks": taken + v, "nodes": nodes,
    }
    if pos.tricks_left:
        vals = card_values(pos, side)
        out["to_play"] = pos.to_play
        out["values"] = {card_str(c): taken + x for c, x in sorted(vals.items())}
    return out


def dd_table(variant, hands: dict[int, list[int]], rules: dict | None = None, dealer: int | None = None,
             leader: int | None = None, alone=frozenset()) -> dict:
    """Trump suit -> maker seat -> the maker side's double-dummy tricks, each leading as the rules say.

    ``alone``: the seats that went alone (for the rules' leader); ``leader``
    fixes the first leader for every entry instead.
    """
    check_hands(variant, hands)
    active = sum(1 << s for s in hands)
    if dealer is None:
        dealer = variant.players - 1
    seats = sorted(hands)
    rows, keys = [], []
    for t in range(4):
        for m in seats:
            lead = leader if leader is not None else variant.card_play.first_leader(m, dealer, active, rules or {},
                                                                                    frozenset(alone))
            rows.append((t, lead, variant.maker_side(m, active)))
            keys.append((t, m))
    hand_rows = np.zeros((len(rows), 4), np.int64)
    for s, cards in hands.items():
        hand_rows[:, s] = sum(1 << c for c in cards)
    vals, _ = solve_batch(hand_rows, np.full(len(rows), active, np.int64), np.array([r[0] for r in rows], np.int64),
                          np.array([r[1] for r in rows], np.int64), np.array([r[2] for r in rows], np.int64))
    table: dict = {}
    for (t, m), v in zip(keys, vals):
        table.setdefault(SUITS[t], {})[m] = int(v)
    return table


def solve_batch(hands, active, trump, leader, sides, chunk: int = CHUNK) -> tuple[np.ndarray, np.ndarray]:
    """(tricks, positions searched) of full deals from the first lead, rows as ``bower.kernels.solve.solve_many``."""
    n = hands.shape[0]
    out = np.zeros(n, np.int64)
    nodes = np.zeros(n, np.int64)
    if n:
        ks.solve_many(np.ascontiguousarray(hands, np.int64), np.ascontiguousarray(active, np.int64),
                      np.ascontiguousarray(trump, np.int64), np.ascontiguousarray(leader, np.int64),
                      np.ascontiguousarray(sides, np.int64), np.int64(chunk), out, nodes)
    return out, nodes


# ---- records ----------------------------------------------------------------------------------


@dataclass
class PlayedHand:
    """What a record says about the card play: the hands at the first lead and the plays, checked."""

    hands: dict[int, list[int]]  # seat -> cards at the first lead (the cards it played)
    trump: int
    maker: int
    leader: int
    plays: list[tuple[int, int]]  # (seat, card) in order


def played_hand(variant, rec: dict, index: int | None = None, check_turns: bool = True) -> PlayedHand | None:
    """The card play of a record, or None for a hand thrown in; DealError names the record and field.

    ``check_turns``: also check that every card is played once and each trick
    in turn (``records_dd`` does; the analysis of records already solved needs
    only the hands).
    """
    where = f"record {index}" if index is not None else "record"
    field_name = variant.card_play.maker_field
    maker = rec.get(field_name)
    plays = rec.get("plays") or []
    if maker is None or not plays:
        return None
    if not isinstance(plays, list):
        raise DealError(f"{where}: field 'plays' is {plays!r}, not a list of [seat, card]")
    if isinstance(maker, str) and maker.strip().isdigit():
        maker = int(maker)
    try:
        trump = parse_suit(rec.get("trump"))
    except DealError:
        raise DealError(f"{where}: field 'trump' is {rec.get('trump')!r}, not a suit") from None
    if not isinstance(maker, int) or isinstance(maker, bool) or not 0 <= maker < variant.card_play.seats:
        raise DealError(f"{where}: field {field_name!r} is {rec.get(field_name)!r}, not a seat")
    hands: dict[int, list[int]] = {}
    seq = []
    for k, pair in enumerate(plays):
        try:
            seat, name = pair
            seat = int(seat)
            card = _CARD_INDEX.get(name)
            if card is None:
                card = parse_card(name)
        except (TypeError, ValueError, CardError):
            raise DealError(f"{where}: field 'plays' entry {k} is {pair!r}, not [seat, card]") from None
        if not 0 <= seat < variant.card_play.seats:
            raise DealError(f"{where}: field 'plays' entry {k} names seat {seat}, not at the table")
        if card == JOKER and not variant.card_play.joker:
            raise DealError(f"{where}: field 'plays' entry {k} is the joker, not in this variant's deck")
        hands.setdefault(seat, []).append(card)
        seq.append((seat, card))
    if check_turns:
        check_turn_order(seq, trump, sum(1 << s for s in hands), where)
    return PlayedHand(hands, trump, maker, seq[0][0], seq)


@functools.lru_cache(maxsize=16)
def _turns(active: int) -> dict[int, list[int]]:
    """Each seat in play (``active`` mask): the seats of a trick it leads, in turn."""
    turns = {s: [s] for s in range(4) if active >> s & 1}
    for order in turns.values():
        while len(order) < len(turns):
            order.append(next_seat(order[-1], active))
    return turns


def in_turn(seats, cards, trump: int, active: int) -> bool:
    """Whether plays (their seats and cards, as lists) go in turn, each trick's winner leading the next (quick)."""
    turns = _turns(active)
    n = len(turns)
    power, eff = _POWER[trump], _EFF[trump]
    turn = list(turns.get(seats[0], ()))
    for k in range(0, len(cards) - n + 1, n):
        trick = cards[k:k + n]
        turn += turns.get(seats[k + trick.index(max(trick, key=power[eff[trick[0]]].__getitem__))], ())
    return turn[:len(seats)] == seats


def in_turn_many(hands: list) -> list[bool]:
    """``in_turn`` of many hands at once: ``hands`` are (seats, cards, trump, active), each seat in play playing the
    same number of cards (whole tricks); hands of the same seats in play and length are checked together."""
    groups: dict = {}
    for i, (seats, _, _, active) in enumerate(hands):
        groups.setdefault((active, len(seats)), []).append(i)
    out = [False] * len(hands)
    for (active, m), idx in groups.items():
        turns = _turns(active)
        n = len(turns)
        if not m or m % n:
            for i in idx:
                out[i] = in_turn(*hands[i])
            continue
        after = np.array([next_seat(s, active) for s in range(4)])
        seats = np.array([hands[i][0] for i in idx]).reshape(len(idx), m // n, n)
        cards = np.array([hands[i][1] for i in idx]).reshape(len(idx), m // n, n)
        trump = np.array([hands[i][2] for i in idx])[:, None]
        power = POWER[trump[:, :, None], EFF_SUIT[trump, cards[:, :, 0]][:, :, None], cards]  # (hand, trick, card)
        winner = np.take_along_axis(seats, power.argmax(axis=2)[:, :, None], axis=2)[:, :, 0]  # first highest
        ok = (seats[:, 1:, 0] == winner[:, :-1]).all(axis=1) & (seats[:, :, 1:] == after[seats[:, :, :-1]]).all(axis=(1, 2))
        for i, good in zip(idx, ok.tolist()):
            out[i] = good
    return out


def check_turn_order(seq: list[tuple[int, int]], trump: int, active: int, where: str) -> None:
    """DealError unless every card is played once, each trick by every seat in play in turn, won as the rules say.

    Following suit is not checked here: a renege is a fact of a recorded hand
    (``bower replay`` finds and scores it); the hands as played stay the same.
    """
    if len({c for _, c in seq}) != len(seq):
        seen: dict[int, int] = {}
        for k, (_, c) in enumerate(seq):
            if c in seen:
                raise DealError(f"{where}: field 'plays' entry {k}: {card_str(c)} is played twice "
                                f"(entries {seen[c]} and {k})")
            seen[c] = k
    if in_turn([s for s, _ in seq], [c for _, c in seq], trump, active):
        return
    n = bin(active).count("1")
    after = [next_seat(s, active) for s in range(4)]
    leader = seq[0][0]
    for start_k in range(0, len(seq), n):  # the fault, named
        trick = seq[start_k:start_k + n]
        seat = leader
        for j, (s, c) in enumerate(trick):
            if s != seat:
                raise DealError(f"{where}: field 'plays' entry {start_k + j}: seat {s} plays {card_str(c)} "
                                f"when it is seat {seat}'s turn")
            seat = after[seat]
        if len(trick) == n:
            leader = trick_winner(trump, trick)


def records_dd(variant, recs: list[dict], first_index: int = 0) -> list[dict | None]:
    """The ``dd`` object of each record (None for a hand thrown in): the contract's tricks and every trump's.

    ``tricks``: the maker side's double-dummy tricks from the first lead with
    the hands as played (after any swap, merge, widow or discard) and the
    contract's trump; ``table``: trump suit -> the same for each trump, same
    hands and leader. Records are checked first (DealError names the record).
    """
    rows = []
    for i, rec in enumerate(recs):
        ph = played_hand(variant, rec, first_index + i)
        if ph is None:
            rows.append(None)
            continue
        try:
            check_hands(variant, ph.hands)
        except DealError as e:
            raise DealError(f"record {first_index + i}: field 'plays': {e}") from None
        active = sum(1 << s for s in ph.hands)
        if ph.maker not in ph.hands:
            raise DealError(f"record {first_index + i}: the maker, seat {ph.maker}, plays no card")
        mask = np.zeros(4, np.int64)
        for s, cards in ph.hands.items():
            mask[s] = sum(1 << c for c in cards)
        rows.append((mask, active, ph.trump, ph.leader, variant.maker_side(ph.maker, active)))
    solved = [r for r in rows if r is not None]
    n = len(solved)
    hands = np.zeros((4 * n, 4), np.int64)
    active = np.zeros(4 * n, np.int64)
    trump = np.zeros(4 * n, np.int64)
    leader = np.zeros(4 * n, np.int64)
    sides = np.zeros(4 * n, np.int64)
    for j, (mask, act, _, lead, side) in enumerate(solved):
        for t in range(4):
            k = 4 * j + t
            hands[k] = mask
            active[k], trump[k], leader[k], sides[k] = act, t, lead, side
    vals, _ = solve_batch(hands, active, trump, leader, sides)
    out: list[dict | None] = []
    j = 0
    for r in rows:
        if r is None:
            out.append(None)
            continue
        table = {SUITS[t]: int(vals[4 * j + t]) for t in range(4)}
        out.append({"tricks": table[SUITS[r[2]]], "table": table})
        j += 1
    return out


def dd_arrow_type():
    """The Arrow type of the ``dd`` object in Parquet records."""
    import pyarrow as pa

    return pa.struct([("tricks", pa.int64()), ("table", pa.struct([(s, pa.int64()) for s in SUITS]))])


def solved_meta(in_path: str) -> dict:
    """The metadata of a solved copy: the input's run (seats, seed, hands, command...) and how ``dd`` was added.

    ``solved_from``: the input file's name and the double-dummy rule
    (``dd``: each record's contract and every trump, from the hands and
    first leader as played). The basics (format, version, variant, rules)
    are the writer's own, as in every records file.
    """
    from bower.sim.records import read_meta

    meta = {k: x for k, x in (read_meta(in_path) or {}).items()
            if k not in ("format", "format_version", "bower_version", "variant", "rules_version", "rules",
                         "derived_columns")}
    meta["solved_from"] = {"records": os.path.basename(str(in_path)),
                           "dd": "tricks of the record's contract and table of every trump, double dummy, "
                                 "from the hands and first leader as played"}
    return meta


def records_dd_job(job) -> list[dict | None]:
    """``records_dd`` of one batch, ``(variant name, records, index of the first)``, wherever it runs."""
    from bower.sim.variants import get_variant

    name, recs, first = job
    return records_dd(get_variant(name), recs, first)


def solve_rows_job(rows) -> tuple[np.ndarray, np.ndarray]:
    """``solve_batch`` of solver rows (the warm-up of a worker's solver)."""
    return solve_batch(*rows)


def solve_records(in_path: str, out_path: str, threads: int | None = None, progress=None, batch: int = 4096,
                  scheduler=None) -> dict:
    """Copy the records of ``in_path`` to ``out_path`` with a ``dd`` object added to each; a summary dict.

    Streams in batches (``batch`` records), solving each on every thread, or
    each as a Dask task with ``scheduler`` (``bower.sim.distributed``); the
    output does not depend on either. The output is written under a
    temporary name and renamed when complete.
    """
    from bower.sim import distributed as dist

    with dist.session(scheduler) as ex:
        out = _solve_records(in_path, out_path, threads, progress, batch, ex)
        if ex.kind == "dask":
            out.update(scheduler=ex.address, workers=ex.workers)
        return out


def _solve_records(in_path, out_path, threads, progress, batch, ex) -> dict:
    import time
    from collections import deque

    from bower.sim.records import RecordsError, iter_record_batches, open_writer
    from bower.sim.runner import set_threads
    from bower.sim.variants import get_variant

    if os.path.abspath(in_path) == os.path.abspath(out_path):
        raise RecordsError(f"--out {out_path} is the input file; write the solved records to another file")
    if not str(out_path).lower().endswith((".jsonl", ".parquet")):
        raise RecordsError(f"records file {out_path} must end in .jsonl or .parquet")
    n_threads = set_threads(threads)
    total = _count_records(in_path)
    t0 = time.perf_counter()
    writer = None
    done = solved = 0
    unknown: dict = {}  # the fields not known (a record's 'unknown') -> records
    variant = None
    held: deque = deque()  # the batches sent and not written yet, in order

    def jobs():
        first = 0
        for recs in iter_record_batches(in_path, batch):
            held.append(recs)
            name = variant.name if variant is not None else get_variant(recs[0]["variant"]).name
            if first == 0 and ex.kind == "dask":
                ex.warm(solve_rows_job, ("solve",), sample_deals(get_variant(name), 1))
            yield name, recs, first
            first += len(recs)

    try:
        for dds in ex.map(records_dd_job, jobs()):
            recs = held.popleft()
            if writer is None:
                variant = get_variant(recs[0]["variant"])
                writer = open_writer(out_path, variant, recs[0].get("rules") or {},
                                     extra=[*optional_arrow_fields(recs), ("dd", dd_arrow_type())],
                                     meta=solved_meta(in_path))
            for r, d in zip(recs, dds):
                r["dd"] = d
                solved += d is not None
                if r.get("unknown"):
                    unknown[tuple(r["unknown"])] = unknown.get(tuple(r["unknown"]), 0) + 1
            writer.write_dicts(recs)
            done += len(recs)
            if progress:
                progress(done, total)
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    writer.close()
    elapsed = time.perf_counter() - t0
    return {"variant": variant.name, "records": done, "solved": solved, "out": out_path, "threads": n_threads,
            "elapsed_s": elapsed, "solves_per_second": 4 * solved / elapsed if elapsed > 0 else 0.0,
            "unknown": [{"fields": list(f), "records": k} for f, k in unknown.items()]}


def optional_arrow_fields(recs: list[dict]) -> list:
    """(name, Arrow type) of the optional fields the records carry (``game``, ``start``, ``unknown``: a real game's
    records), for a Parquet copy; [] when none does."""
    import pyarrow as pa

    out = []
    if any(r.get("game") is not None for r in recs):
        out.append(("game", pa.string()))
    starts = [r["start"] for r in recs if isinstance(r.get("start"), dict)]
    if starts:
        out.append(("start", pa.struct([(k, pa.int64()) for k in sorted({k for x in starts for k in x})])))
    if any(r.get("unknown") for r in recs):
        out.append(("unknown", pa.list_(pa.string())))
    return out


def _count_records(path: str) -> int:
    """How many records a file holds (for the progress bar): Parquet metadata, or JSONL lines."""
    try:
        if str(path).lower().endswith(".parquet"):
            import pyarrow.parquet as pq

            return pq.ParquetFile(path).metadata.num_rows
        with open(path, "rb") as fh:
            return sum(1 for line in fh if line.strip())
    except (OSError, ValueError):
        return 0


def sample_deals(variant, n: int, seed: int = 0):
    """``n`` random full deals in the variant's play layout, as rows for ``solve_batch`` (profile and bench).

    Every seat in play holds ``hand_size`` cards from the deck; the maker is a
    random seat, trump the suit in which the maker's side holds most cards of
    the trump suit (the kind of contract a player makes), and the first leader
    as the rules say with the last seat dealing.
    """
    from bower.kernels.tables import SUIT_MASK

    cp = variant.card_play
    rng = np.random.default_rng(seed)
    deck = 25 if cp.joker else 24
    seats = cp.seats
    active = (1 << seats) - 1
    hands = np.zeros((n, 4), np.int64)
    trump = np.zeros(n, np.int64)
    leader = np.zeros(n, np.int64)
    sides = np.zeros(n, np.int64)
    makers = rng.integers(0, seats, n)
    for i in range(n):
        cards = rng.permutation(deck)[: seats * cp.hand_size]
        for s in range(seats):
            hands[i, s] = sum(1 << int(c) for c in cards[s * cp.hand_size:(s + 1) * cp.hand_size])
        m = int(makers[i])
        side = variant.maker_side(m, active)
        held = 0
        for s in range(seats):
            if side >> s & 1:
                held |= int(hands[i, s])
        trump[i] = max(range(4), key=lambda t: (bin(held & int(SUIT_MASK[t, t])).count("1"), -t))
        leader[i] = cp.first_leader(m, seats - 1, active, {}, frozenset())
        sides[i] = side
    return hands, np.full(n, active, np.int64), trump, leader, sides
