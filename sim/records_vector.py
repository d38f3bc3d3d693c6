"""A whole batch of Parquet records checked at once with Arrow compute and NumPy (Ghost Hand records).

``batch_ok(fast, batch)`` is True only when every record of the batch
passes ``FastCheck._ok`` (hence the full check): the same tests, made
column by column instead of record by record. It is strict: a type other
than the records' own Arrow type, a null where bower writes none, a seat
written other than ``"0"`` .. ``"2"``, or a variant it does not cover
gives False, and the caller checks that batch record by record, which
names the fault. The Parquet readers (``check_parquet``) ask it first.
"""

from __future__ import annotations

import numpy as np

GHOST_BIDS = (3, 4, 5, 6)  # ``bid`` of a hand played, as bower writes it (``ghost.scoring.check`` takes these)
SUITS = ("C", "S", "D", "H")


def _np(arr, fill=-1) -> np.ndarray:
    """An int Arrow array as int64 numpy (nulls as ``fill``)."""
    import pyarrow.compute as pc

    if arr.null_count:
        arr = pc.fill_null(arr, fill)
    return np.asarray(arr.to_numpy(zero_copy_only=False), np.int64)


_LUTS: dict = {}


def _codes(strings, names, skip: int = 0) -> np.ndarray | None:
    """Each string's position in ``names`` (int16 numpy; -1: not one of them), None when one is null.

    Names of one or two bytes (seats, cards) are looked up by the strings'
    bytes (a longer string is -1); a dictionary array (``read_dictionary``)
    by its values. ``skip``: the bytes of each string's start left out (each
    string has them: ``_marked_pairs``; names of one or two bytes only).
    """
    import pyarrow as pa

    if strings.null_count or skip and (pa.types.is_dictionary(strings.type)
                                       or any(not 1 <= len(x.encode()) <= 2 for x in names)):
        return None
    names = tuple(names)
    if pa.types.is_dictionary(strings.type):  # (read with ``read_dictionary``): the codes of the dictionary's values
        lut = _codes(strings.dictionary, names)
        idx = np.asarray(strings.indices.to_numpy(zero_copy_only=False))
        if lut is None or len(idx) and not 0 <= idx.min() <= idx.max() < len(lut):
            return None
        return lut[idx]
    if any(not 1 <= len(x.encode()) <= 2 for x in names):  # (names longer than a card's: Arrow's lookup)
        import pyarrow.compute as pc

        idx = pc.index_in(strings, value_set=pa.array(names, pa.string()))
        return np.asarray(pc.fill_null(idx, -1).to_numpy(zero_copy_only=False), np.int16)
    lut = _LUTS.get(names)
    if lut is None:
        lut = _LUTS[names] = np.full(1 << 16, -1, np.int16)
        for k, name in enumerate(names):
            b = name.encode()
            if 1 <= len(b) <= 2:
                lut[b[0] << 8 | (b[1] if len(b) == 2 else 0)] = k
    n = len(strings)
    if n == 0:
        return np.zeros(0, np.int16)
    _, offs, data = strings.buffers()
    offs = np.frombuffer(offs, np.int32)[strings.offset:strings.offset + n + 1]
    data = np.frombuffer(data, np.uint8) if data is not None else np.zeros(1, np.uint8)
    lens = np.diff(offs) - skip
    start = offs[:-1] + skip
    if len(data) < 2:
        data = np.concatenate([data, np.zeros(2, np.uint8)])
    first = data[np.minimum(start, len(data) - 1)].astype(np.int32)
    second = np.where(lens == 2, data[np.minimum(start + 1, len(data) - 1)], 0)
    out = lut[first << 8 | second]
    out[(lens < 1) | (lens > 2)] = -1
    return out


def _pairs(lists, names, n_seats: int):
    """A ``list<list<string>>`` column of ``[seat, value]`` pairs, none null: (lengths, seats, value codes) or None.

    A seat is ``"0"`` .. ``"n_seats - 1"``; ``names``: the values allowed
    (None: any string).
    """
    import pyarrow.compute as pc

    if lists.null_count:
        return None
    lengths = _np(pc.list_value_length(lists))
    pairs = lists.flatten()
    if pairs.null_count or len(pairs) and np.any(_np(pc.list_value_length(pairs)) != 2):
        return None
    vals = pairs.flatten()
    codes = _codes(vals, [str(s) for s in range(n_seats)] + list(names or ()))
    if codes is None:
        return None
    seats, values = codes[0::2], codes[1::2]
    if len(seats) and (seats.min() < 0 or seats.max() >= n_seats):
        return None
    if names is None:
        return lengths, seats, None
    if len(values) and values.min() < n_seats:
        return None
    return lengths, seats, values - n_seats


def _marked_pairs(lists, names, n_seats: int):
    """``_pairs`` of a column read from JSONL with each pair as one marked string, ``[["0~JD"], ...]``
    (``records_check.JsonlBulk``): every pair one string, its seat's digit, the mark ``~``, the value."""
    import pyarrow.compute as pc

    from bower.sim.records_check import PAIR_MARK

    if lists.null_count:
        return None
    lengths = _np(pc.list_value_length(lists))
    inner = lists.flatten()
    if inner.null_count or len(inner) and np.any(_np(pc.list_value_length(inner)) != 1):
        return None
    vals = inner.flatten()
    n = len(vals)
    if vals.null_count:
        return None
    if n == 0:
        return lengths, np.zeros(0, np.int16), None if names is None else np.zeros(0, np.int16)
    _, offs, data = vals.buffers()
    offs = np.frombuffer(offs, np.int32)[vals.offset:vals.offset + n + 1]
    if np.any(np.diff(offs) < 2):
        return None
    data = np.frombuffer(data, np.uint8)
    if np.any(data[offs[:-1] + 1] != PAIR_MARK):
        return None
    seats = data[offs[:-1]].astype(np.int16) - ord("0")
    if seats.min() < 0 or seats.max() >= n_seats:
        return None
    if names is None:
        return lengths, seats, None
    values = _codes(vals, list(names), skip=2)
    if values is None or values.min() < 0:
        return None
    return lengths, seats, values


def _card_lists(lists, names, size: int) -> np.ndarray | None:
    """A ``list<string>`` column, each list ``size`` cards of ``names``: their codes as (rows, size), else None."""
    import pyarrow.compute as pc

    if lists.null_count or np.any(_np(pc.list_value_length(lists)) != size):
        return None
    codes = _codes(lists.flatten(), names)
    return None if codes is None or len(codes) and codes.min() < 0 else codes.reshape(-1, size)


def seat_pairs(lists):
    """A column of pairs read from JSONL as one marked string each, ``[["0~JD"], ...]``, as the pairs
    ``[["0", "JD"], ...]`` of a Parquet file; None unless every pair is one string ``S~VALUE`` (``_marked_pairs``)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from bower.sim.records_check import PAIR_MARK

    if lists.null_count:
        return None
    inner = lists.flatten()
    if inner.null_count or len(inner) and np.any(_np(pc.list_value_length(inner)) != 1):
        return None
    values = inner.flatten()
    n = len(values)
    if values.null_count or n and not pc.all(pc.equal(pc.utf8_slice_codeunits(values, 1, 2), chr(PAIR_MARK))).as_py():
        return None
    both = pa.concat_arrays([pc.utf8_slice_codeunits(values, 0, 1), pc.utf8_slice_codeunits(values, 2, 1 << 30)])
    order = (np.arange(2 * n) // 2 + np.tile(np.array([0, n]), n)).astype(np.int64)  # seat 0, value 0, seat 1, ...
    pairs = pa.ListArray.from_arrays(pa.array(np.arange(0, 2 * n + 1, 2, dtype=np.int32)),
                                     both.take(pa.array(order)) if n else pa.array([], pa.string()))
    ends = np.concatenate(([0], np.cumsum(_np(pc.list_value_length(lists))))).astype(np.int32)
    return pa.ListArray.from_arrays(pa.array(ends), pairs)


def plain_type(typ):
    """``typ`` with each dictionary of strings (``read_dictionary``) as plain strings."""
    import pyarrow as pa

    if pa.types.is_dictionary(typ):
        return typ.value_type
    if pa.types.is_list(typ):
        return pa.list_(plain_type(typ.value_type))
    if pa.types.is_struct(typ):
        return pa.struct([pa.field(f.name, plain_type(f.type), f.nullable) for f in typ])
    return typ


def plain_schema(schema):
    """``schema`` with each dictionary of strings as plain strings (``plain_type``)."""
    import pyarrow as pa

    return pa.schema([pa.field(f.name, plain_type(f.type), f.nullable) for f in schema], metadata=schema.metadata)


def _no_nulls(arr) -> bool:
    """Whether an int struct column and every one of its fields is without nulls."""
    import pyarrow.compute as pc

    return not arr.null_count and all(not pc.struct_field(arr, [i]).null_count for i in range(arr.type.num_fields))


def _rules_ok(fast, batch) -> bool:
    """Every record's ``rules`` equal to record 0's, each option of the same type."""
    import pyarrow as pa
    import pyarrow.compute as pc

    raw = fast.raw_rules
    col = batch.column("rules")
    if type(raw) is not dict or not pa.types.is_struct(col.type) or col.null_count:
        return False
    if [col.type.field(i).name for i in range(col.type.num_fields)] != list(raw):
        return False
    for i, (k, x) in enumerate(raw.items()):
        typ = plain_type(col.type.field(i).type)
        want = pa.bool_() if type(x) is bool else pa.int64() if type(x) is int else pa.string() if type(x) is str \
            else None
        if want is None or typ != want:
            return False
        child = pc.struct_field(col, [i])
        if pa.types.is_dictionary(child.type):
            child = child.cast(want)
        if child.null_count or not pc.all(pc.equal(child, pa.scalar(x, want))).as_py():
            return False
    return True


def batch_ok(fast, batch, marked: bool = False) -> bool:
    """Whether every record of ``batch`` (a pyarrow RecordBatch of a file's record columns) certainly passes.

    ``marked``: ``calls`` and ``plays`` hold each pair as one marked string (a JSONL file read in bulk:
    ``_marked_pairs``), not as two.
    """
    from bower.kernels.tables import EFF_SUIT, POWER
    from bower.sim.records import parquet_schema
    from bower.sim.solve import next_seat

    v, cp = fast.variant, fast.cp
    if not v.records_batch_check or cp.seats != 3 or cp.joker or len(fast.index) > 30 or batch.num_rows == 0:
        return False
    schema = parquet_schema(v, fast.rules)
    names = set(batch.schema.names)
    if not names >= set(schema.names) | fast.need:
        return False
    if any(plain_type(batch.schema.field(f.name).type) != f.type for f in schema):
        return False
    import pyarrow.compute as pc

    col = batch.column
    variant = _codes(col("variant"), [v.name])
    if variant is None or np.any(variant != 0):
        return False
    if not _rules_ok(fast, batch):
        return False
    n_seats, size = cp.seats, cp.hand_size
    dealer = col("dealer")
    if dealer.null_count or not 0 <= _np(dealer).min() <= _np(dealer).max() < v.players:
        return False
    maker_col = col(cp.maker_field)
    played = ~np.asarray(maker_col.is_null().to_numpy(zero_copy_only=False), bool)
    maker = _np(maker_col)
    if np.any(played & ((maker < 0) | (maker >= n_seats))):
        return False
    bid = col("bid")
    bids = _np(bid, 0)
    if np.any(played & ~np.isin(bids, GHOST_BIDS)):  # ghost.scoring.check: a hand played has a bid 3..6
        return False
    if not (_no_nulls(col("tricks")) and _no_nulls(col("points"))):
        return False
    pairs_of = _marked_pairs if marked else _pairs
    calls = pairs_of(col("calls"), None, n_seats)
    if calls is None:
        return False
    deck = list(fast.index)  # the deck's card names; code k is card fast.index[deck[k]]
    deal = col("deal")
    if deal.null_count:
        return False
    hands = {}
    for i in range(deal.type.num_fields):  # every hand of the deal: ``size`` cards of the deck
        codes = _card_lists(pc.struct_field(deal, [i]), deck, size)
        if codes is None:
            return False
        hands[deal.type.field(i).name] = codes
    plays = pairs_of(col("plays"), deck, n_seats)
    if plays is None:
        return False
    lengths, seats, cards = plays
    m = n_seats * size  # every seat plays its whole hand (all three seats are in play)
    if np.any(lengths[~played] != 0) or np.any(lengths[played] != m):
        return False
    rows = np.flatnonzero(played)
    if len(rows) == 0:
        return True
    trump = _codes(col("trump").take(rows), SUITS)
    if trump is None or len(trump) and trump.min() < 0:
        return False
    swap_col = col("swap")
    swap = _np(swap_col, -1)
    if np.any(~np.asarray(swap_col.is_null().to_numpy(zero_copy_only=False), bool) & ((swap < 0) | (swap > 2))):
        return False
    # the plays of the hands played: (hand, play); lengths are 0 or m, so they sit in order
    starts = np.concatenate(([0], np.cumsum(lengths)))[rows]
    at = starts[:, None] + np.arange(m)
    seats, cards = seats[at], cards[at]
    if np.any(seats[:, 0] != maker[rows]):  # Ghost Hand: the high bidder leads the first trick
        return False
    bit = np.left_shift(np.int32(1), cards.astype(np.int32))  # a card as a bit (24 cards: int32 holds a hand's sum)
    if np.any(bit.sum(axis=1) != np.bitwise_or.reduce(bit, axis=1)):  # a card played twice
        return False
    # ghost.scoring.held: seat s holds deal[s], the swapper deal["ghost"]; each card played by the seat holding it
    sw = swap[rows]
    held = [np.bitwise_or.reduce(np.left_shift(np.int32(1), np.where((sw == s)[:, None], hands["ghost"][rows],
                                                                      hands[str(s)][rows]).astype(np.int32)), axis=1)
            for s in range(n_seats)]  # each seat's hand as bits (each hand ``size`` cards of the deck)
    every = held[0] | held[1] | held[2]
    if np.any(every != held[0] + held[1] + held[2]) or np.any(np.bitwise_count(every) != m):  # a card held twice
        return False
    hand_of_play = np.take_along_axis(np.stack(held, axis=1), seats.astype(np.intp), axis=1)  # each play's seat's hand
    if np.any(hand_of_play & bit == 0):
        return False
    # every trick in turn, its winner leading the next (bower.sim.solve.in_turn_many)
    card_ids = np.array([fast.index[d] for d in deck], np.int64)[cards].reshape(len(rows), size, n_seats)
    s3 = seats.reshape(len(rows), size, n_seats)
    t = trump[:, None]
    power = POWER[t[:, :, None], EFF_SUIT[t, card_ids[:, :, 0]][:, :, None], card_ids]
    winner = np.take_along_axis(s3, power.argmax(axis=2)[:, :, None], axis=2)[:, :, 0]
    active = sum(1 << s for s in range(n_seats))
    after = np.array([next_seat(s, active) for s in range(4)])
    # (each trick three seats in turn, so each seat plays ``size`` cards: its whole hand)
    return bool((s3[:, 1:, 0] == winner[:, :-1]).all() and (s3[:, :, 1:] == after[s3[:, :, :-1]]).all())

