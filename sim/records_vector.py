"""A whole batch of Parquet records checked at once with Arrow compute and NumPy.

``batch_ok(fast, batch)`` is True only when every record of the batch
passes ``FastCheck._ok`` (hence the full check): the same tests, made
column by column instead of record by record. The shared part (types,
seats, cards of the deck, complete plays in turn, trick winners) is here;
each variant's own rules (who sits out, the hands at the first lead after
a swap, an up-card or a widow, who leads) are the ``batch_play`` of its
records module (``sim/variants/NAME/records.py``), reached through the
``Variant``. It is strict: a type other than the records' own Arrow type,
a null where bower writes none, a seat or card written otherwise, anything
unusual, or a variant without ``batch_play`` gives False, and the caller
checks that batch record by record, which names the fault. The Parquet
readers (``check_parquet``) and the JSONL bulk reader (``JsonlBulk``) ask
it first.
"""

from __future__ import annotations

import numpy as np

SUITS = ("C", "S", "D", "H")


def _np(arr, fill=-1) -> np.ndarray:
    """An int Arrow array as int64 numpy (nulls as ``fill``)."""
    import pyarrow.compute as pc

    if arr.null_count:
        arr = pc.fill_null(arr, fill)
    return np.asarray(arr.to_numpy(zero_copy_only=False), np.int64)


_LUTS: dict = {}


def _lut(names: tuple):
    """(lookup table of a name's one or two bytes to its position (int16, -1: none), whether every name is of one or
    two bytes), made once for each tuple of names."""
    got = _LUTS.get(names)
    if got is None:
        short = all(1 <= len(x.encode()) <= 2 for x in names)
        lut = np.full(1 << 16, -1, np.int16)
        for k, name in enumerate(names):
            b = name.encode()
            if 1 <= len(b) <= 2:
                lut[b[0] << 8 | (b[1] if len(b) == 2 else 0)] = k
        got = _LUTS[names] = (lut, short)
    return got


def _lengths(lists) -> np.ndarray:
    """Each list's length of a list column (its offsets, so a null list's too), as int64 numpy."""
    offs = np.asarray(lists.offsets)
    return (offs[1:] - offs[:-1]).astype(np.int64)


def _codes(strings, names, skip: int = 0, first: int = 0, every: int = 1) -> np.ndarray | None:
    """Each string's position in ``names`` (int16 numpy; -1: not one of them), None when one is null.

    Names of one or two bytes (seats, cards) are looked up by the strings'
    bytes (a longer string is -1); a dictionary array (``read_dictionary``)
    by its values. ``skip``: the bytes of each string's start left out (each
    string has them: ``_marked_pairs``; names of one or two bytes only).
    ``first`` and ``every``: only the strings ``first``, ``first + every``, ...
    (the seats or the values of pairs read flat).
    """
    import pyarrow as pa

    names = tuple(names)
    lut, short = _lut(names)
    if strings.null_count:
        return None
    if pa.types.is_dictionary(strings.type):  # (read with ``read_dictionary``): the codes of the dictionary's values
        if skip:
            return None
        lut = _codes(strings.dictionary, names)
        idx = np.asarray(strings.indices.to_numpy(zero_copy_only=False))
        if lut is None or len(idx) and not 0 <= idx.min() <= idx.max() < len(lut):
            return None
        return lut[idx[first::every]]
    if not short:  # (names longer than a card's: Arrow's lookup)
        if skip:
            return None
        import pyarrow.compute as pc

        idx = pc.index_in(strings, value_set=pa.array(names, pa.string()))
        return np.asarray(pc.fill_null(idx, -1).to_numpy(zero_copy_only=False), np.int16)[first::every]
    n = len(strings)
    if n <= first:
        return np.zeros(0, np.int16)
    _, offs, data = strings.buffers()
    offs = np.frombuffer(offs, np.int32, n + 1, 4 * strings.offset)
    data = np.frombuffer(data, np.uint8) if data is not None else np.zeros(0, np.uint8)
    start, end = (offs[:-1], offs[1:]) if first == 0 and every == 1 else (offs[first:-1:every], offs[first + 1::every])
    if skip:
        start = start + skip
    lens = end - start
    lo, hi = lens.min(), lens.max()
    if 1 <= lo and hi <= 2 and 0 <= offs[0] and offs[-1] <= len(data):  # every string of one or two bytes
        high = data[start].astype(np.int32) << 8
        if hi == 1:
            return lut[high]
        if lo == 2:
            return lut[high | data[start + 1]]
        return lut[high | np.where(lens == 2, data[np.minimum(start + 1, len(data) - 1)], 0)]
    if len(data) < 2:
        data = np.concatenate([data, np.zeros(2, np.uint8)])
    start = np.clip(start, 0, len(data) - 1)
    high = data[start].astype(np.int32) << 8
    second = np.where(lens == 2, data[np.minimum(start + 1, len(data) - 1)], 0)
    out = lut[high | second]
    out[(lens < 1) | (lens > 2)] = -1
    return out


def _pairs(lists, names, n_seats: int):
    """A ``list<list<string>>`` column of ``[seat, value]`` pairs, none null: (lengths, seats, value codes) or None.

    A seat is ``"0"`` .. ``"n_seats - 1"``; ``names``: the values allowed
    (None: any string).
    """
    if lists.null_count:
        return None
    lengths = _lengths(lists)
    pairs = lists.flatten()
    if pairs.null_count or len(pairs) and np.any(_lengths(pairs) != 2):
        return None
    vals = pairs.flatten()
    seats = _codes(vals, _seat_names(n_seats), every=2)  # (a string of a seat's place that is not one: -1)
    if seats is None:  # (None also when a value is null: _codes)
        return None
    if len(seats) and seats.min() < 0:
        return None
    if names is None:
        return lengths, seats, None
    values = _codes(vals, names, first=1, every=2)
    if len(values) and values.min() < 0:
        return None
    return lengths, seats, values


def token_codes(arr, names) -> np.ndarray | None:
    """A string column's values as their positions in ``names`` (int64 numpy), -1 for a null or another string;
    None when the column is not of strings."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not pa.types.is_string(plain_type(arr.type)):
        return None
    if pa.types.is_dictionary(arr.type):
        arr = arr.cast(arr.type.value_type)
    idx = pc.index_in(arr, value_set=pa.array(list(names), pa.string()))
    return np.asarray(pc.fill_null(idx, -1).to_numpy(zero_copy_only=False), np.int64)


def _seat_names(n_seats: int) -> tuple:
    """The seats ``"0"`` .. ``"n_seats - 1"`` as strings."""
    return tuple(str(s) for s in range(n_seats))


def _marked_pairs(lists, names, n_seats: int):
    """``_pairs`` of a column read from JSONL with each pair as one marked string, ``[["0~JD"], ...]``
    (``records_check.JsonlBulk``): every pair one string, its seat's digit, the mark ``~``, the value."""
    from bower.sim.records_check import PAIR_MARK

    if lists.null_count:
        return None
    lengths = _lengths(lists)
    inner = lists.flatten()
    if inner.null_count or len(inner) and np.any(_lengths(inner) != 1):
        return None
    vals = inner.flatten()
    n = len(vals)
    if vals.null_count:
        return None
    if n == 0:
        return lengths, np.zeros(0, np.int16), None if names is None else np.zeros(0, np.int16)
    _, offs, data = vals.buffers()
    offs = np.frombuffer(offs, np.int32, n + 1, 4 * vals.offset)
    if np.any(offs[1:] - offs[:-1] < 2):
        return None
    data = np.frombuffer(data, np.uint8)
    starts = offs[:-1]
    if np.any(data[starts + 1] != PAIR_MARK):
        return None
    seats = data[starts].astype(np.int16) - ord("0")
    if seats.min() < 0 or seats.max() >= n_seats:
        return None
    if names is None:
        return lengths, seats, None
    names = tuple(names)
    if _lut(names)[1]:
        values = _codes(vals, names, skip=2)
    else:  # (longer names, such as calls: each value sliced out, then Arrow's lookup)
        import pyarrow.compute as pc

        values = _codes(pc.utf8_slice_codeunits(vals, 2, 1 << 30), names)
    if values is None or values.min() < 0:
        return None
    return lengths, seats, values


def _card_lists(lists, names, size: int) -> np.ndarray | None:
    """A ``list<string>`` column, each list ``size`` cards of ``names``: their codes as (rows, size), else None."""
    if lists.null_count or np.any(_lengths(lists) != size):
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
    return not arr.null_count and all(not arr.field(i).null_count for i in range(arr.type.num_fields))


def _rules_ok(fast, batch) -> bool:
    """Every record's ``rules`` equal to record 0's, each option of the same type."""
    import pyarrow as pa
    import pyarrow.compute as pc

    raw = fast.raw_rules
    col = batch.column("rules")
    if type(raw) is not dict or not pa.types.is_struct(col.type) or col.null_count:
        return False
    known = _consts(fast)
    if col.type == known.get("rules_type"):  # the type seen before: the column equals record 0's rules repeated
        want = known["rules"]
        if len(want) < len(col):
            want = known["rules"] = pa.repeat(want[0], 2 * len(col))
        return col.equals(want.slice(0, len(col)))
    if [col.type.field(i).name for i in range(col.type.num_fields)] != list(raw):
        return False
    plain = True
    for i, (k, x) in enumerate(raw.items()):
        typ = plain_type(col.type.field(i).type)
        want = pa.bool_() if type(x) is bool else pa.int64() if type(x) is int else pa.string() if type(x) is str \
            else None
        if want is None or typ != want:
            return False
        child = col.field(i)
        if pa.types.is_dictionary(child.type):
            plain = False
            child = child.cast(want)
        if child.null_count or not pc.all(pc.equal(child, pa.scalar(x, want))).as_py():
            return False
    if plain and raw:  # (every option of its plain type, no null: the same test as one comparison next time)
        known["rules_type"], known["rules"] = col.type, pa.repeat(pa.scalar(raw, col.type), len(col))
    return True


def _consts(fast) -> dict:
    """What ``batch_ok`` works out once for a file (its ``FastCheck``): kept in ``fast.vector``."""
    known = fast.vector
    if not known:
        from bower.sim.records import parquet_schema
        from bower.sim.records_check import CARD_FIELDS

        v = fast.variant
        schema = parquet_schema(v, fast.rules)
        known.update(
            play=_variant_part(v), schema=schema, names=set(schema.names) | fast.need, schemas=[],
            cards=[f.name for f in schema if f.name in CARD_FIELDS], deck=tuple(fast.index),
            deck_ids=_deck_ids(fast), after=_after())
        known["deck_ids_same"] = np.array_equal(known["deck_ids"], np.arange(len(known["deck_ids"])))
    return known


def _after() -> np.ndarray:
    """The next seat in play after each seat (``bower.sim.solve.next_seat``), by (seats in play as a mask, seat)."""
    from bower.sim.solve import next_seat

    return np.array([[next_seat(s, mask) for s in range(4)] for mask in range(16)], np.int64)


def card_ids(arr, fast) -> np.ndarray | None:
    """A string column of card names, nulls allowed: each card's number (int64 numpy; -1: null), None when a value
    is not a card of the deck (``fast.index``) in the records' own spelling."""
    import pyarrow as pa
    import pyarrow.compute as pc

    null = np.asarray(arr.is_null().to_numpy(zero_copy_only=False), bool) if arr.null_count else None
    codes = _dictionary_codes(arr, tuple(fast.index), null) if pa.types.is_dictionary(arr.type) else None
    if codes is None:
        if pa.types.is_dictionary(arr.type):
            arr = arr.cast(arr.type.value_type)
        codes = _codes(pc.fill_null(arr, "") if null is not None else arr, tuple(fast.index))
    if codes is None:
        return None
    ids = _deck_ids(fast)[codes.astype(np.intp)]
    if null is not None:
        ids[null] = -1
        if np.any((codes < 0) & ~null):
            return None
    elif len(codes) and codes.min() < 0:
        return None
    return ids


def _dictionary_codes(arr, names: tuple, null) -> np.ndarray | None:
    """Each value's position in ``names`` of a dictionary array of strings (int16 numpy, -1: not one; a null's: -1),
    looked up once a dictionary value and read off the indices, without making the strings plain; None when
    the dictionary holds a null or its indices are not int32 (the caller casts). ``null``: the nulls (bool numpy)
    or None."""
    import pyarrow as pa

    if not pa.types.is_int32(arr.type.index_type) or arr.dictionary.null_count:
        return None
    lut = _codes(arr.dictionary, names)
    if lut is None:
        return None
    n = len(arr)
    idx = np.frombuffer(arr.indices.buffers()[1], np.int32, n, arr.indices.offset) if n else np.zeros(0, np.int32)
    if null is not None:
        idx = np.where(null, 0, idx)
    if n and not 0 <= idx.min() <= idx.max() < len(lut):
        return None
    codes = lut[idx]
    if null is not None:
        codes[null] = -1
    return codes


def card_lists(arr, fast):
    """A ``list<string>`` column of card names, no list and no name null: (lengths, card numbers of every list in
    turn) as int64 numpy, None when a value is not a card of the deck."""
    if arr.null_count:
        return None
    lengths = _lengths(arr)
    values = arr.flatten()  # (a dictionary's codes are read as they are: ``card_ids``)
    if values.null_count:
        return None
    ids = card_ids(values, fast)
    return None if ids is None else (lengths, ids)


def _deck_ids(fast) -> np.ndarray:
    """The card number of each code of the deck's names (``list(fast.index)``)."""
    return np.array([fast.index[d] for d in fast.index], np.int64)


def bits(ids: np.ndarray) -> np.ndarray:
    """Card numbers (rows, k) as one int64 mask a row (a card as a bit; -1 stands for none)."""
    return np.bitwise_or.reduce(np.where(ids >= 0, np.left_shift(np.int64(1), np.maximum(ids, 0)), 0), axis=-1)


def row_bits(lists) -> np.ndarray:
    """Each row's cards of a ``card_lists`` result (lengths, card numbers) as one int64 mask (an empty list: 0)."""
    lengths, ids = lists
    out = np.zeros(len(lengths), np.int64)
    if len(ids) == 0:
        return out
    starts = np.cumsum(lengths) - lengths
    some = lengths > 0
    out[some] = np.bitwise_or.reduceat(np.left_shift(np.int64(1), ids), starts[some])
    return out


def popcount(x: np.ndarray) -> np.ndarray:
    """Bits set in each non-negative int64 (card masks), as int64, on any NumPy (``np.bitwise_count`` from 2.0 on)."""
    x = np.asarray(x, np.int64)
    count = getattr(np, "bitwise_count", None)
    if count is not None:
        return count(x).astype(np.int64)
    as_bytes = np.ascontiguousarray(x).view(np.uint8).reshape(x.shape + (8,))
    return np.unpackbits(as_bytes, axis=-1).sum(axis=-1).astype(np.int64)


def exchange(held: np.ndarray, seats: np.ndarray, gain: np.ndarray, lose: np.ndarray) -> bool:
    """Each row's hand of seat ``seats`` in ``held`` (rows, seats; card masks) takes the cards ``gain`` and puts
    down ``lose`` (masks; 0: no exchange); False, with ``held`` unchanged, when a card put down is neither held nor
    taken."""
    at = np.arange(len(seats))
    hand = held[at, seats]
    if np.any(lose & ~(hand | gain)):
        return False
    held[at, seats] = (hand | gain) & ~lose
    return True


_FIRST: dict = {}


def first_in_play(start: np.ndarray, active: np.ndarray, n_seats: int, default: np.ndarray) -> np.ndarray:
    """Each row's first seat of ``active`` (a mask) after seat ``start`` round the table (``start`` itself last);
    ``default`` where no seat is in play."""
    table = _FIRST.get(n_seats)
    if table is None:  # by (start, mask): the first seat in play after start (-1: none)
        table = _FIRST[n_seats] = np.array([[next(((s + k) % n_seats for k in range(1, n_seats + 1)
                                                  if mask >> (s + k) % n_seats & 1), -1)
                                             for mask in range(1 << n_seats)] for s in range(n_seats)], np.int64)
    out = table[start, active]
    return np.where(out < 0, default, out)


def seat_mask(arr, rows: np.ndarray, n_seats: int) -> np.ndarray | None:
    """A ``list<int>`` column of seats at ``rows``: each row's seats as a mask (int64), None when a list there is
    null or holds a null or a number that is not a seat (0 .. n_seats - 1). A seat listed twice counts once."""
    import pyarrow as pa

    part = arr.take(pa.array(rows, pa.int64()))
    if part.null_count:
        return None
    values = part.flatten()
    if values.null_count:
        return None
    values = _np(values)
    if len(values) and (values.min() < 0 or values.max() >= n_seats):
        return None
    out = np.zeros(len(rows), np.int64)
    if len(values):
        np.bitwise_or.at(out, np.repeat(np.arange(len(rows)), _lengths(part)), np.left_shift(np.int64(1), values))
    return out


class Batch:
    """What ``batch_ok`` has read of a batch, for a variant's own part (``batch_play`` of its records module).

    ``col(name)``: a column; ``played``: the rows of hands played (bool);
    ``rows``: their indices; ``maker`` and ``dealer``: int64 of every row;
    ``cards[name]``: each card field decoded (``card_ids``, ``card_lists``;
    a struct as a dict of its fields); ``hands[key]``: ``deal[key]`` as
    card numbers (rows, hand size); ``pairs(name, names)``: a ``calls`` or
    ``plays`` column as (lengths, seats, value codes) (``_pairs``).
    """

    def __init__(self, fast, batch, marked: bool):
        self.fast, self.batch, self.marked = fast, batch, marked
        self.col = batch.column
        self.cards: dict = {}
        self.hands: dict = {}

    def pairs(self, name: str, names):
        """``_pairs`` (or ``_marked_pairs`` for a JSONL block) of a column of pairs."""
        return (_marked_pairs if self.marked else _pairs)(self.col(name), names, self.fast.cp.seats)


def _variant_part(v):
    """The ``batch_play`` of the variant's records module (the module of ``Variant.row_to_dict``), or None."""
    import importlib

    try:
        mod = importlib.import_module(v.row_to_dict.__module__)
    except (ImportError, AttributeError):
        return None
    return getattr(mod, "batch_play", None)


def covers(v) -> bool:
    """Whether ``batch_ok`` checks the batches of this variant's records whole (its records module has
    ``batch_play``)."""
    return _variant_part(v) is not None


def _card_field(arr, fast):
    """A card field decoded (``Batch.cards``), None when a value is not one of the deck (or a list, object or name
    in a list is null)."""
    import pyarrow as pa

    typ = plain_type(arr.type)
    if pa.types.is_string(typ):
        return card_ids(arr, fast)
    if pa.types.is_list(typ) and pa.types.is_string(typ.value_type):
        return card_lists(arr, fast)
    if pa.types.is_struct(typ):
        if arr.null_count:
            return None
        out = {}
        for i in range(typ.num_fields):
            sub = _card_field(arr.field(i), fast)
            if sub is None:
                return None
            out[typ.field(i).name] = sub
        return out
    return None


def _schema_ok(known: dict, schema) -> bool:
    """Whether a batch's schema holds every field of the records' (``known["schema"]``), each of its type once
    dictionaries are plain strings; a schema passed is kept, and the next batch of the same schema passes at once."""
    if any(schema.equals(s) for s in known["schemas"]):
        return True
    names = set(schema.names)
    want = known["schema"]
    if not names >= known["names"] or "plays" not in names:
        return False
    if any(plain_type(schema.field(f.name).type) != f.type for f in want):
        return False
    known["schemas"] = known["schemas"][-7:] + [schema]
    return True


def dd_ok(arr, most: int) -> bool:
    """Whether every ``dd`` object of a column (``bower solve --records``) passes ``records_check.check_dd``: null, or
    of the type ``solve`` writes with ``tricks`` not null, every number of tricks from 0 to ``most`` (a ``table``
    or a suit of it may be null). Another type: False (the record-by-record check decides)."""
    import pyarrow.compute as pc

    from bower.sim.solve import dd_arrow_type

    if arr.null_count == len(arr):
        return True
    if plain_type(arr.type) != dd_arrow_type():
        return False
    tricks, table = arr.flatten()  # (a null object's fields null too)
    if tricks.null_count != arr.null_count:  # an object without its tricks
        return False
    for x in (tricks, *table.flatten()):
        if x.null_count == len(x):
            continue
        lo, hi = pc.min_max(x).values()
        if lo.as_py() < 0 or hi.as_py() > most:
            return False
    return True


def batch_ok(fast, batch, marked: bool = False) -> bool:
    """Whether every record of ``batch`` (a pyarrow RecordBatch of a file's record columns) certainly passes.

    The shared part: schema, variant, rules, dealer, maker, calls and plays
    as pairs of a seat and a string (a call one of the variant's names, at most
    its count of calls: ``records_check.call_names``), every card field of the deck, each
    hand of ``deal`` ``hand_size`` cards; and for the hands played: the
    trump a suit, the plays complete (every seat in play its whole hand),
    each card once and by the seat holding it, the first trick led by the
    seat the rules call on, each trick in turn and won as the rules say, its
    winner leading the next. The variant's own part (``batch_play`` of its
    records module: who is in play, the hands at the first lead, who leads)
    says the rest; a variant without one is not covered (False).

    ``marked``: ``calls`` and ``plays`` hold each pair as one marked string (a JSONL file read in bulk:
    ``_marked_pairs``), not as two.

    What does not change from batch to batch of a file (the records' schema,
    the variant's part, the deck's numbers, a batch schema already passed) is
    worked out once (``_consts``, kept in ``fast.vector``).
    """
    from bower.kernels.tables import EFF_SUIT, POWER

    v, cp = fast.variant, fast.cp
    if cp.seats > 4 or batch.num_rows == 0 or len(fast.index) > 25:
        return False
    known = _consts(fast)
    play = known["play"]
    if play is None or not _schema_ok(known, batch.schema):
        return False
    col = batch.column
    names = batch.schema.names
    if "unknown" in names and col("unknown").null_count != batch.num_rows:  # cards not known: the full check
        return False
    if "dd" in names and not dd_ok(col("dd"), cp.hand_size):
        return False
    if "start" in names and col("start").null_count != batch.num_rows:  # a game's score: the record-by-record check
        return False
    variant = _codes(col("variant"), (v.name,))
    if variant is None or np.any(variant != 0):
        return False
    if not _rules_ok(fast, batch):
        return False
    n_seats, size = cp.seats, cp.hand_size
    dealer_col = col("dealer")
    if dealer_col.null_count:
        return False
    dealer = _np(dealer_col)
    if not 0 <= dealer.min() <= dealer.max() < v.players:
        return False
    maker_col = col(cp.maker_field)
    if maker_col.null_count:
        played = np.unpackbits(np.frombuffer(maker_col.buffers()[0], np.uint8), bitorder="little")[
            maker_col.offset:maker_col.offset + len(maker_col)].astype(bool)
    else:
        played = np.ones(len(maker_col), bool)
    maker = _np(maker_col)
    if np.any(played & ((maker < 0) | (maker >= n_seats))):
        return False
    schema = known["schema"]
    for name in ("tricks", "points"):
        if name in schema.names and not _no_nulls(col(name)):
            return False
    b = Batch(fast, batch, marked)
    if "calls" in schema.names:  # pairs of a seat and a call of the writer's names, at most its count of them
        calls = b.pairs("calls", fast.call_names)
        if calls is None or fast.most_calls is not None and len(calls[0]) and calls[0].max() > fast.most_calls:
            return False
    for name in known["cards"]:  # every card field: cards of the deck (a card alone may be null)
        got = _card_field(col(name), fast)
        if got is None:
            return False
        b.cards[name] = got
    deal = b.cards.get("deal")
    if type(deal) is not dict:
        return False
    for key, (lengths, ids) in deal.items():  # every hand of the deal: ``size`` cards
        if np.any(lengths != size):
            return False
        b.hands[key] = ids.reshape(-1, size)
    plays = b.pairs("plays", known["deck"])
    if plays is None:
        return False
    lengths, seats, cards = plays
    if np.any(lengths[~played] != 0):
        return False
    rows = np.flatnonzero(played)
    b.played, b.rows, b.maker, b.dealer = played, rows, maker, dealer
    if "calls" in schema.names and not auction_ok(b, calls):
        return False
    got = play(b)  # the variant's own rules: (seats in play, hands at the first lead, first leader) of each hand played
    if got is None:
        return False
    if len(rows) == 0:
        return True
    active, held, leader = got
    trump_col = col("trump")
    trump = _codes(trump_col if len(rows) == len(trump_col) else trump_col.take(rows), SUITS)
    if trump is None or trump.min() < 0:
        return False
    trump = trump.astype(np.int64)
    if np.any((active >> maker[rows]) & 1 == 0):  # the maker plays
        return False
    n_in = popcount(active)
    if np.any(lengths[rows] != n_in * size):  # every seat in play plays its whole hand (checked below)
        return False
    held = np.where((active[:, None] >> np.arange(n_seats)) & 1 == 1, held, 0)  # the hands of the seats in play
    counts = popcount(held)
    if np.any(np.bitwise_or.reduce(held, axis=1) != held.sum(axis=1)) or np.any(counts.sum(axis=1) != n_in * size) \
            or np.any((counts != size) & (held != 0)):
        return False  # a card held twice, a hand short or long
    ids = cards if known["deck_ids_same"] else known["deck_ids"][cards.astype(np.intp)]  # (int16: no copy to int64)
    after = known["after"]
    groups = [(None, n_in[0])] if n_in.min() == n_in.max() else [(n_in == n, n) for n in np.unique(n_in).tolist()]
    starts = None if groups[0][0] is None else (np.cumsum(lengths) - lengths)[rows]
    for g, n in groups:  # the hands with ``n`` seats in play
        if g is None:  # (every hand played with ``n`` seats: its plays, and only these, in turn)
            mask, lead, t = active, leader, trump
            s, c = seats.reshape(len(rows), n * size), ids.reshape(len(rows), n * size)
        else:
            mask, lead, t = active[g], leader[g], trump[g]
            at = starts[g][:, None] + np.arange(n * size)
            s, c = seats[at], ids[at]
        if np.any(s[:, 0] != lead):  # (a seat not in play holds no card: refused below, its card not held)
            return False  # the first trick led by a seat the rules do not call on
        bit = np.left_shift(np.int64(1), c)
        if np.any(popcount(np.bitwise_or.reduce(bit, axis=1)) != n * size):  # a card played twice
            return False
        if np.any(np.take_along_axis(held if g is None else held[g], s, axis=1) & bit == 0):
            return False  # a card its seat did not hold (a seat not in play holds none)
        # every trick in turn, its winner leading the next (bower.sim.solve.in_turn_many): each seat in play plays
        # once a trick, so ``size`` cards, its whole hand
        s3, c3 = s.reshape(-1, size, n), c.reshape(-1, size, n)
        t = t[:, None]
        power = POWER.reshape(-1)[(t * 4 + EFF_SUIT[t, c3[:, :, 0]])[:, :, None] * POWER.shape[2] + c3]
        winner = np.take_along_axis(s3, power.argmax(axis=2)[:, :, None], axis=2)[:, :, 0]
        turn = after[mask[:, None, None], s3[:, :, :-1]]  # the seat after each card's, among those in play
        if not ((s3[:, 1:, 0] == winner[:, :-1]).all() and (s3[:, :, 1:] == turn).all()):
            return False
    return True


def _auction_keys(lengths: np.ndarray, codes: np.ndarray, head: np.ndarray, head_bits: int, code_bits: int,
                  most: int) -> np.ndarray:
    """One key a row, (rows, words) of int64, laid out the same for every batch of a file: ``head`` (each row's
    dealer and auction extras, packed in ``head_bits``), then its call codes (each 1 .. 2 ** code_bits - 1, at
    most ``most`` a row) packed in bits above it when all fit in one word, else as many to a word as fit."""
    n = len(lengths)
    starts = np.cumsum(lengths) - lengths
    pos = np.arange(len(codes)) - np.repeat(starts, lengths)
    if head_bits + most * code_bits <= 62:  # one word a row
        out = head.copy()
        some = lengths > 0
        if len(codes):  # (the codes' bits do not overlap: their sum is their or)
            out[some] |= np.add.reduceat(codes.astype(np.int64) << (head_bits + pos * code_bits), starts[some])
        return out[:, None]
    per = 62 // code_bits
    out = np.zeros((n, 1 + -(-most // per)), np.int64)
    out[:, 0] = head
    if len(codes):
        flat = np.repeat(np.arange(n), lengths) * out.shape[1] + 1 + pos // per
        at = np.concatenate(([0], np.flatnonzero(np.diff(flat)) + 1))
        out.reshape(-1)[flat[at]] = np.add.reduceat(codes.astype(np.int64) << (pos % per * code_bits), at)
    return out


def auction_ok(b, calls) -> bool:
    """Whether every record of a batch has an auction its variant's check passes (``records_check.auction_verdict``):
    each call legal at its turn, the auction's outcome the record's. ``calls``: the batch's ``calls`` as
    (lengths, seats, value codes) (``_pairs``).

    Auctions repeat: each record's (dealer, calls, the variant's ``batch_auction_extra``) is packed in a key,
    the distinct keys found (``np.unique``) and each key not seen before in the file replayed once through the
    game API; the keys passed are kept (``fast.vector``), so a file costs a look-up per distinct auction.
    """
    from bower.sim.records_check import auction_verdict

    fast = b.fast
    part = fast.auction
    if part is None:
        return True
    if calls is None or fast.call_names is None or fast.most_calls is None:
        return False
    lengths, seats, values = calls
    extra = part.batch_auction_extra(b)
    if extra is None:
        return False
    names = fast.call_names
    codes = seats.astype(np.int64) * len(names) + values.astype(np.int64) + 1
    code_bits = int(fast.cp.seats * len(names)).bit_length()
    head, shift = b.dealer.astype(np.int64), int(fast.variant.players - 1).bit_length()
    for x, bits in zip(extra, part.AUCTION_BITS):
        x = np.asarray(x, np.int64)
        if len(x) and (x.min() < -1 or x.max() + 1 >= 1 << bits):
            return False
        head = head | (x + 1) << shift
        shift += bits
    if len(lengths) and lengths.max() > fast.most_calls:
        return False
    keys = _auction_keys(lengths, codes, head, shift, code_bits, fast.most_calls)
    known = _consts(fast)
    good = known.setdefault("auctions", set())
    if keys.shape[1] == 1:
        import pyarrow as pa
        import pyarrow.compute as pc

        keys = keys[:, 0]
        if good:  # (a hash look-up of each key among those passed: quicker than finding the distinct keys)
            if len(known.get("auction_keys", ())) != len(good):
                known["auction_keys"] = pa.array(sorted(good), pa.int64())
            found = pc.index_in(pa.array(keys), value_set=known["auction_keys"])
            if not found.null_count:
                return True
            rows = np.flatnonzero(~np.asarray(found.is_valid().to_numpy(zero_copy_only=False), bool))
            keys = keys[rows]  # only the keys not seen before
        else:
            rows = None
        distinct, first = np.unique(keys, return_index=True)
        distinct = distinct.tolist()
        if rows is not None:
            first = rows[first]
    else:
        rows_view = np.ascontiguousarray(keys).view(np.dtype((np.void, keys.shape[1] * 8))).ravel()
        distinct, first = np.unique(rows_view, return_index=True)
        distinct = [x.tobytes() for x in distinct]
    starts = np.cumsum(lengths) - lengths
    for key, r in zip(distinct, first.tolist()):
        if key in good:
            continue
        a, z = int(starts[r]), int(starts[r] + lengths[r])
        auction = tuple((int(s), names[int(c)]) for s, c in zip(seats[a:z], values[a:z]))
        if auction_verdict(fast.variant, fast.rules, int(b.dealer[r]), auction, tuple(int(x[r]) for x in extra),
                           fast.verdicts) is not None:
            return False
        if len(good) < 1 << 16:
            good.add(key)
    return True
