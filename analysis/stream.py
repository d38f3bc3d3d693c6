"""Streaming analysis of a records file: batches of checked columns, in constant memory, for the variants' tables.

A variant's tables module says which record fields its tables read (a list
of ``Field``) and folds batches of them (``Stream``: ``add`` a batch of
decoded columns, ``result`` the tables). This module reads the file batch
by batch and turns each field into numpy arrays, checking that the record
is what it claims; the first record that is not (a malformed card, a wrong
number of cards, a card twice in a deal, a seat out of range, a field that
is not a number, a missing field) is a ``RecordsError`` naming the record
and the field.

Parquet is read by DuckDB (``read_parquet``: the struct fields and list
lengths the tables need are taken out in SQL, the lists of plays never leave
the file), streamed as Arrow record batches. JSONL is parsed line by line
(``json.loads``, as before) into the same Arrow columns. A record is named by
its index in the file from 0 (and its line in a JSONL file).
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass

import numpy as np

from bower.sim.cards import RANKS, SUITS
from bower.sim.records_vector import popcount

BATCH = 16384  # records per batch (more: no faster, more memory)
DUCKDB_MEMORY = "64MB"  # DuckDB's own buffers (the scan streams; its buffers stay below this)
DUCKDB_JSON_MEMORY = "256MB"  # DuckDB's buffers reading JSONL (its JSON reader needs more than a Parquet scan)
DUCKDB_THREADS = 2  # DuckDB's threads unless --threads says (more read ahead, and hold more memory, for no gain here)


@dataclass(frozen=True)
class Field:
    """A record field a table reads: its path (``("deal", "0")``) and what it must hold.

    Kinds: ``cards`` (a list of card names; ``size`` cards exactly when
    given; decoded to a mask and, with ``size``, the cards in order),
    ``card`` (one card name, or null if ``nullable``), ``seat`` (an int from
    0 to the seats less one), ``int`` (an int), ``name`` (one of ``names``),
    ``bool``, ``count`` (a list, only its length is read), ``pairs`` (a list
    of ``[seat, name]`` pairs, at most ``size``: decoded to the count and the
    last pair's name), ``seats`` (a list of seats: decoded to a bit mask).
    ``joker``: the joker ``JK`` is a card here.
    """

    path: tuple
    kind: str
    size: int | None = None
    nullable: bool = False
    names: tuple = ()
    joker: bool = False

    @property
    def name(self) -> str:
        """The field as messages name it: ``deal.0``."""
        return ".".join(self.path)


class Bad(Exception):
    """A field of one record that is not what it must be: (row in the batch, message) for ``RecordsError``."""

    def __init__(self, row: int, field: str, problem: str):
        super().__init__(row, field, problem)
        self.row, self.field, self.problem = row, field, problem


def require_trump(maker: np.ndarray, trump: np.ndarray) -> None:
    """Bad on the first record of a batch whose hand has a maker (``maker >= 0``) but no trump."""
    bad = (maker >= 0) & (trump < 0)
    if bad.any():
        raise Bad(int(np.argmax(bad)), "trump", "is missing (null) for a hand with a maker")


# ---------------------------------------------------------------- card names


def _card_table(joker: bool) -> np.ndarray:
    """Card index of each two-byte name (``first * 256 + second``), -1 for every other pair of bytes."""
    lut = np.full(65536, -1, np.int16)
    for s, suit in enumerate(SUITS):
        for r, rank in enumerate(RANKS):
            lut[ord(rank) * 256 + ord(suit)] = s * 6 + r
    if joker:
        lut[ord("J") * 256 + ord("K")] = 24
    return lut


_CARD_LUT = {False: _card_table(False), True: _card_table(True)}


def _strings(arr):
    """(offsets, bytes, valid) of an Arrow array of strings (any string type), or None if it is not strings."""
    import pyarrow as pa

    view = getattr(pa.types, "is_string_view", lambda t: False)(arr.type)  # (pyarrow 16 on)
    if not (pa.types.is_string(arr.type) or pa.types.is_large_string(arr.type) or view):
        return None
    if not pa.types.is_string(arr.type):
        arr = arr.cast(pa.string())
    n = len(arr)
    bufs = arr.buffers()
    offsets = np.frombuffer(bufs[1], np.int32, count=n + 1, offset=4 * arr.offset) if n else np.zeros(1, np.int32)
    data = np.frombuffer(bufs[2], np.uint8) if bufs[2] is not None else np.zeros(0, np.uint8)
    valid = arr.is_valid().to_numpy(zero_copy_only=False) if arr.null_count else np.ones(n, bool)
    return offsets, data, valid


def card_codes(arr, joker: bool) -> np.ndarray:
    """Card indices of an Arrow array of card names (canonical ``JH``, ``TC``, ``JK``); -1 where not a card.

    -2 where the value is not a string at all (so not even malformed).
    """
    s = _strings(arr)
    if s is None:
        return np.full(len(arr), -2, np.int64)
    offsets, data, valid = s
    lut = _CARD_LUT[joker]
    n = len(offsets) - 1
    if n and offsets[-1] - offsets[0] == 2 * n and valid.all() and (np.diff(offsets) == 2).all():
        pairs = data[offsets[0]: offsets[-1]].reshape(n, 2).astype(np.int64)  # every name two bytes (the usual)
        return lut[pairs[:, 0] * 256 + pairs[:, 1]].astype(np.int64)
    start, length = offsets[:-1].astype(np.int64), np.diff(offsets)
    ok = valid & (length == 2)
    if len(data):
        a = data[np.clip(start, 0, len(data) - 1)].astype(np.int64)
        b = data[np.clip(start + 1, 0, len(data) - 1)].astype(np.int64)
        code = lut[a * 256 + b].astype(np.int64)
    else:
        code = np.full(len(start), -1, np.int64)
    return np.where(ok, code, -1)


def _name_of(arr, i: int) -> str:
    """How a message shows value ``i`` of an Arrow array."""
    shown = repr(arr[i].as_py())
    return shown if len(shown) <= 60 else shown[:57] + "..."


# ---------------------------------------------------------------- lists


def _list_masks(offsets: np.ndarray, codes: np.ndarray, out: np.ndarray) -> int:
    """OR of ``1 << code`` over each list into ``out``; the index of the first element seen twice in its list, or -1."""
    counts = np.diff(offsets)
    bits = np.int64(1) << codes.astype(np.int64)
    size = int(counts[0]) if len(counts) else 0
    if size and (counts == size).all():  # lists of one length (a deal): a row each
        out[:] = np.bitwise_or.reduce(bits.reshape(-1, size), axis=1)
    else:
        nonempty = counts > 0
        out[:] = 0
        if len(bits):
            out[nonempty] = np.bitwise_or.reduceat(bits, offsets[:-1][nonempty])
    twice = popcount(out) != counts
    if not twice.any():
        return -1
    i = int(np.argmax(twice))
    seen = set()
    for k in range(int(offsets[i]), int(offsets[i + 1])):
        if int(codes[k]) in seen:
            return k
        seen.add(int(codes[k]))
    return -1  # not reached


def _list_parts(arr, what: str, field: str):
    """(offsets relative to the values, values, valid) of an Arrow list array; Bad if it is not a list."""
    import pyarrow as pa

    t = arr.type
    views = [getattr(pa.types, n, lambda t: False) for n in ("is_list_view", "is_large_list_view")]  # (pyarrow 16 on)
    if pa.types.is_large_list(t) or any(is_view(t) for is_view in views):
        arr = arr.cast(pa.list_(t.value_type))
    elif pa.types.is_fixed_size_list(t):
        arr = arr.cast(pa.list_(t.value_type))
    elif not pa.types.is_list(arr.type):
        bad = next((i for i in range(len(arr)) if arr[i].is_valid), 0)
        raise Bad(bad, field, f"is {_name_of(arr, bad)}, not a list of {what}")
    n = len(arr)
    raw = np.frombuffer(arr.buffers()[1], np.int32, count=n + 1, offset=4 * arr.offset) if n else np.zeros(1, np.int32)
    valid = arr.is_valid().to_numpy(zero_copy_only=False) if arr.null_count else np.ones(n, bool)
    values = arr.values.slice(int(raw[0]), int(raw[-1] - raw[0]))
    return (raw - raw[0]).astype(np.int64), values, valid


def _first(bad: np.ndarray) -> int:
    return int(np.argmax(bad))


_INT_TEXT = __import__("re").compile(r"-?[0-9]+")


def _json_shown(text: str) -> str:
    """A JSON value's text as a message shows it (Python's repr of the value, cut to 60 characters)."""
    try:
        shown = repr(json.loads(text))
    except (ValueError, RecursionError):  # RecursionError: nested thousands deep
        shown = repr(text)
    return shown if len(shown) <= 60 else shown[:57] + "..."


# ---------------------------------------------------------------- decoding


def _ints(arr, field: str, nullable: bool, json_text: bool = False):
    """(int64 values, valid) of an Arrow array that must hold whole numbers; Bad at the first that is not one."""
    import pyarrow as pa
    import pyarrow.compute as pc

    t = arr.type
    if pa.types.is_integer(t):
        valid = arr.is_valid().to_numpy(zero_copy_only=False) if arr.null_count else np.ones(len(arr), bool)
        vals = pc.fill_null(arr.cast(pa.int64()), 0).to_numpy(zero_copy_only=False)
    elif pa.types.is_null(t):
        valid, vals = np.zeros(len(arr), bool), np.zeros(len(arr), np.int64)
    elif json_text and _strings(arr) is not None:
        # DuckDB's JSON text of each value: a number is its digits; a string keeps its quotes, so is refused
        valid = arr.is_valid().to_numpy(zero_copy_only=False) if arr.null_count else np.ones(len(arr), bool)
        try:
            vals = pc.fill_null(pc.cast(arr, pa.int64()), 0).to_numpy(zero_copy_only=False)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            for i, x in enumerate(arr.to_pylist()):
                if x is not None and not _INT_TEXT.fullmatch(x):
                    raise Bad(i, field, f"is {_json_shown(x)}, not a number") from None
                if x is not None and not -2 ** 63 <= int(x) < 2 ** 63:
                    raise Bad(i, field, f"is {x}, out of range") from None
            raise
    else:
        # not an int column (a file written by something else): each value must still be a whole number
        py = arr.to_pylist()
        vals, valid = np.zeros(len(py), np.int64), np.ones(len(py), bool)
        for i, x in enumerate(py):
            if x is None:
                valid[i] = False
            elif isinstance(x, int) and not isinstance(x, bool):
                vals[i] = x
            else:
                raise Bad(i, field, f"is {x!r}, not a number")
    if not nullable and not valid.all():
        raise Bad(_first(~valid), field, "is missing (null)")
    return vals, valid


def decode(cols: dict, fields: list, seats: int, json_text: bool = False) -> dict:
    """The numpy arrays of a batch's fields (``cols``: field name -> Arrow array); Bad at the first bad value.

    Per field name: ``cards`` -> mask (and ``NAME[]``: the cards in order,
    with ``size``); ``card``, ``seat``, ``name`` -> int64 index (-1: null);
    ``int`` -> int64; ``bool`` -> bool; ``count`` -> int64; ``pairs`` ->
    the count (``NAME#``) and the last pair's name index (``NAME``, -1 when
    empty); ``seats`` -> bit mask. ``json_text``: the ints and bools come as
    JSON text (DuckDB's ``read_json``), checked as strictly as ints.
    """
    out, first_bad = {}, None
    for f in fields:
        try:
            _decode_field(f, cols[f.name], out, seats, json_text)
        except Bad as e:  # the first record that is bad in any field is the one named
            if first_bad is None or e.row < first_bad.row:
                first_bad = e
    if first_bad is not None:
        raise first_bad
    return out


def _decode_field(f: Field, arr, out: dict, seats: int, json_text: bool) -> None:
    """``decode`` of one field into ``out``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    n = len(arr)
    if f.kind == "cards":
        offsets, values, valid = _list_parts(arr, "cards", f.name)
        if not valid.all():
            raise Bad(_first(~valid), f.name, "is missing (null)")
        counts = np.diff(offsets)
        if f.size is not None and (counts != f.size).any():
            i = _first(counts != f.size)
            raise Bad(i, f.name, f"has {counts[i]} cards, not {f.size}")
        codes = card_codes(values, f.joker)
        if (codes < 0).any():
            k = _first(codes < 0)
            i = int(np.searchsorted(offsets, k, side="right") - 1)
            raise Bad(i, f.name, f"holds {_name_of(values, k)}, not a card")
        masks = np.zeros(n, np.int64)
        twice = _list_masks(offsets, codes, masks)
        if twice >= 0:
            i = int(np.searchsorted(offsets, twice, side="right") - 1)
            raise Bad(i, f.name, f"holds {values[twice].as_py()} twice")
        out[f.name] = masks
        if f.size is not None:
            out[f.name + "[]"] = codes.reshape(n, f.size)
    elif f.kind == "card":
        codes = card_codes(arr, f.joker)
        valid = arr.is_valid().to_numpy(zero_copy_only=False) if arr.null_count else np.ones(n, bool)
        bad = (codes < 0) & valid
        if bad.any():
            i = _first(bad)
            raise Bad(i, f.name, f"is {_name_of(arr, i)}, not a card")
        if not f.nullable and not valid.all():
            raise Bad(_first(~valid), f.name, "is missing (null)")
        out[f.name] = np.where(valid, codes, -1)
    elif f.kind in ("seat", "int"):
        vals, valid = _ints(arr, f.name, f.nullable, json_text)
        if f.kind == "seat":
            bad = valid & ((vals < 0) | (vals >= seats))
            if bad.any():
                i = _first(bad)
                raise Bad(i, f.name, f"is {vals[i]}, not a seat (0 to {seats - 1})")
        out[f.name] = np.where(valid, vals, -1) if f.nullable else vals
    elif f.kind == "name":
        if _strings(arr) is None and not pa.types.is_null(arr.type):
            i = next((i for i in range(n) if arr[i].is_valid), 0)
            raise Bad(i, f.name, f"is {_name_of(arr, i)}, not one of {', '.join(f.names)}")
        idx = pc.index_in(arr.cast(pa.string()), value_set=pa.array(list(f.names), pa.string()))
        valid = arr.is_valid().to_numpy(zero_copy_only=False) if arr.null_count else np.ones(n, bool)
        found = idx.is_valid().to_numpy(zero_copy_only=False)
        bad = valid & ~found
        if bad.any():
            i = _first(bad)
            raise Bad(i, f.name, f"is {_name_of(arr, i)}, not one of {', '.join(f.names)}")
        if not f.nullable and not valid.all():
            raise Bad(_first(~valid), f.name, "is missing (null)")
        out[f.name] = np.where(valid, pc.fill_null(idx, -1).to_numpy(zero_copy_only=False), -1).astype(np.int64)
    elif f.kind == "bool":
        if json_text and _strings(arr) is not None:
            text = arr.to_numpy(zero_copy_only=False)
            bad = ~np.isin(text, ["true", "false"])
            if bad.any():
                i = _first(bad)
                shown = "null" if text[i] is None else _json_shown(text[i])
                raise Bad(i, f.name, "is missing (null)" if text[i] is None else f"is {shown}, not true or false")
            out[f.name] = text == "true"
            return
        if not pa.types.is_boolean(arr.type):
            i = next((i for i in range(n) if arr[i].is_valid), 0)
            raise Bad(i, f.name, f"is {_name_of(arr, i)}, not true or false")
        if arr.null_count:
            raise Bad(_first(~arr.is_valid().to_numpy(zero_copy_only=False)), f.name, "is missing (null)")
        out[f.name] = arr.to_numpy(zero_copy_only=False).astype(bool)
    elif f.kind == "count":
        if arr.null_count:
            raise Bad(_first(~arr.is_valid().to_numpy(zero_copy_only=False)), f.name, "is missing or not a list")
        vals, _ = _ints(arr, f.name, False)
        out[f.name] = vals
    elif f.kind == "seats":
        offsets, values, valid = _list_parts(arr, "seats", f.name)
        if not valid.all():
            raise Bad(_first(~valid), f.name, "is missing (null)")
        try:
            vals, _ = _ints(values, f.name, False, json_text)
        except Bad as e:
            raise Bad(int(np.searchsorted(offsets, e.row, side="right") - 1), f.name, e.problem) from None
        bad = (vals < 0) | (vals >= seats)
        if bad.any():
            k = _first(bad)
            raise Bad(int(np.searchsorted(offsets, k, side="right") - 1), f.name,
                      f"holds {vals[k]}, not a seat (0 to {seats - 1})")
        masks = np.zeros(n, np.int64)
        twice = _list_masks(offsets, vals, masks)
        if twice >= 0:
            raise Bad(int(np.searchsorted(offsets, twice, side="right") - 1), f.name,
                      f"holds seat {vals[twice]} twice")
        out[f.name] = masks
    elif f.kind == "pairs":
        offsets, inner, valid = _list_parts(arr, "[seat, call] pairs", f.name)
        if not valid.all():
            raise Bad(_first(~valid), f.name, "is missing, or not a list of [seat, name] pairs")
        counts = np.diff(offsets)
        if f.size is not None and (counts > f.size).any():
            i = _first(counts > f.size)
            raise Bad(i, f.name, f"has {counts[i]} entries, more than {f.size}")
        row_of = np.repeat(np.arange(n), counts)
        try:
            pair_off, items, pvalid = _list_parts(inner, "pairs", f.name)
        except Bad as e:
            raise Bad(int(row_of[e.row]), f.name, e.problem) from None
        plen = np.diff(pair_off)
        bad = ~pvalid | (plen != 2)
        if bad.any():
            k = _first(bad)
            raise Bad(int(row_of[k]), f.name, f"holds {_name_of(inner, k)}, not a [seat, name] pair")
        # (each pair's seat is checked by the layer every reader shares, records_check.check_pairs, which runs first
        # and names a seat that is not one in its own words: the tables read only the names)
        name_text = items.take(pa.array(np.arange(1, len(items), 2)))
        name_idx = pc.index_in(name_text.cast(pa.string()) if _strings(name_text) is not None else name_text,
                               value_set=pa.array(list(f.names), pa.string()))
        nbad = ~name_idx.is_valid().to_numpy(zero_copy_only=False)
        if nbad.any():
            k = _first(nbad)
            raise Bad(int(row_of[k]), f.name,
                      f"holds {_name_of(inner, k)}: {_name_of(name_text, k)} is not one of {', '.join(f.names)}")
        names = name_idx.to_numpy(zero_copy_only=False).astype(np.int64)
        last = np.full(n, -1, np.int64)
        has = counts > 0
        last[has] = names[offsets[1:][has] - 1]
        out[f.name + "#"] = counts
        out[f.name] = last
    else:
        raise ValueError(f"unknown field kind {f.kind!r}")


def check_plays(out: dict, maker: str, counts) -> None:
    """Bad at the first record whose number of plays does not fit its maker field: none for a hand thrown in
    (null), for a hand played one of ``counts`` (the whole hands of the seats in play: plays cut short are refused).

    Each play itself is checked by ``bower.sim.records_check`` where the plays are read (replay, solve,
    ``read_records``, the double-dummy tables); the tables here read only how many there are.
    """
    n = out["plays"]
    bad = (out[maker] < 0) & (n > 0)
    if bad.any():
        raise Bad(_first(bad), "plays", f"holds plays, but the hand was thrown in ('{maker}' is null)")
    bad = (out[maker] >= 0) & ~np.isin(n, np.asarray(counts, np.int64))
    if bad.any():
        i = _first(bad)
        raise Bad(i, "plays", f"holds {n[i]} plays, not the whole hands of the seats in play "
                              f"({' or '.join(map(str, counts))})")


def check_disjoint(out: dict, fields: list, names: list) -> None:
    """Bad at the first record in which two of the card fields ``names`` (decoded in ``out``) share a card."""
    kinds = {f.name: f.kind for f in fields}
    masks = {n: out[n] if kinds[n] == "cards" else np.int64(1) << out[n] for n in names}
    seen = np.zeros(len(masks[names[0]]), np.int64)
    for name in names:
        both = seen & masks[name]
        if both.any():
            i = _first(both != 0)
            low = int(both[i] & -both[i])
            card = low.bit_length() - 1
            other = next(o for o in names if masks[o][i] >> card & 1)
            label = "JK" if card == 24 else RANKS[card % 6] + SUITS[card // 6]
            raise Bad(i, name, f"holds {label}, which '{other}' holds too (a card twice in the deal)")
        seen |= masks[name]


# ---------------------------------------------------------------- reading


def _sql_path(path: tuple) -> str:
    return ".".join('"' + p.replace('"', '""') + '"' for p in path)


def _schema_has(schema, path: tuple) -> bool:
    import pyarrow as pa

    if path[0] not in schema.names:
        return False
    t = schema.field(path[0]).type
    for p in path[1:]:
        if not pa.types.is_struct(t) or t.get_field_index(p) < 0:
            return False
        t = t.field(p).type
    return True


_JSON_LEAF = {"cards": "VARCHAR[]", "card": "VARCHAR", "name": "VARCHAR", "seat": "JSON", "int": "JSON",
              "bool": "JSON", "count": "JSON", "pairs": "JSON", "seats": "VARCHAR[]"}


def _json_columns(fields: list, extra_json=()) -> dict:
    """DuckDB ``read_json`` column types for the fields: a struct for each nested path, the leaves by kind.

    Ints and bools are read as their JSON text (``decode`` checks them: DuckDB would turn ``true`` into 1 and
    ``1.5`` into 2), lists of pairs as JSON (``[1, "JH"]`` mixes types).
    """
    tree: dict = {"variant": "VARCHAR"}
    for f in fields:
        node = tree
        for p in f.path[:-1]:
            node = node.setdefault(p, {})
        node[f.path[-1]] = _JSON_LEAF[f.kind]
    for name in extra_json:
        tree[name] = "JSON"

    def sql(node) -> str:
        if isinstance(node, str):
            return node
        return "STRUCT(" + ", ".join(f'"{k}" {sql(v)}' for k, v in node.items()) + ")"

    return {k: sql(v) for k, v in tree.items()}


_DUCK: dict = {}  # DuckDB settings -> the in-memory database of this process opened with them (duck_connection)
_DUCK_LOCK = threading.Lock()


def _duck_before_fork() -> None:
    """Before ``os.fork``: the databases kept are closed (a reading under way keeps its own until it ends), so a
    child holds none of their threads, as when each reading opened its own; the next reading opens one again."""
    with _DUCK_LOCK:
        roots = list(_DUCK.values())
        _DUCK.clear()
    for root in roots:
        root.close()


def _duck_after_fork() -> None:
    """In a forked child: a lock of its own."""
    global _DUCK_LOCK
    _DUCK_LOCK = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(before=_duck_before_fork, after_in_child=_duck_after_fork)


def duck_connection(config: dict):
    """A new DuckDB connection (a cursor) to this process's in-memory database of the settings ``config``.

    The database is opened once for each settings (about 15 ms of CPU; a
    cursor costs well under one) and kept; each caller gets its own cursor,
    so readers open at once do not share a result, and closes it. Settings
    of a connection (``SET``) are the cursor's own.
    """
    import duckdb

    key = tuple(sorted(config.items()))
    with _DUCK_LOCK:
        root = _DUCK.get(key)
        if root is None:
            root = _DUCK[key] = duckdb.connect(config=config)
        return root.cursor()


def duck_batches(path: str, fmt: str, fields: list, threads: int | None = None, batch: int = BATCH, extra=(),
                 schema=None, extra_json=()):
    """Yield (first record index, {field name: Arrow array}) of a records file, read by DuckDB.

    Parquet (``read_parquet``): the fields must exist (``missing_fields``);
    a ``count`` field is read from the file's ``NAME_count`` column where
    ``schema`` has one (bower's derived ``plays_count``), so the list stays
    in the file. JSONL (``read_json``, blank lines skipped): ints and bools
    as JSON text (``decode(..., json_text=True)``), pairs turned into lists of
    strings as Parquet stores them. ``extra``: (name, SQL expression) of more
    columns (whether a record carries ``dd``); ``extra_json``: more JSONL
    fields they read, as JSON.
    """
    exprs = ['"variant" AS "variant"']
    for f in fields:
        col = _sql_path(f.path)
        if f.kind == "count" and fmt == "parquet":
            flat = "_".join(f.path) + "_count"
            expr = _sql_path((flat,)) if schema is not None and flat in schema.names else f"len({col})"
        elif f.kind == "count":
            expr = f"CASE WHEN json_type({col}) = 'ARRAY' THEN json_array_length({col}) END"
        elif f.kind == "pairs" and fmt == "jsonl":
            expr = f"""CASE WHEN json_type({col}) = 'ARRAY' THEN json_transform({col}, '[["VARCHAR"]]') END"""
        else:
            expr = col
        exprs.append(f'{expr} AS "{f.name}"')
    exprs += [f'{e} AS "{n}"' for n, e in extra]
    config = {"memory_limit": DUCKDB_MEMORY if fmt == "parquet" else DUCKDB_JSON_MEMORY,
              "preserve_insertion_order": True, "threads": int(threads) if threads else DUCKDB_THREADS}
    con = duck_connection(config)
    con.execute("SET enable_progress_bar = false")  # DuckDB's own bar goes to stdout (--json!); bower draws its own
    if fmt == "parquet":
        source, params = "read_parquet($path)", {"path": str(path)}
    else:
        source = "read_json($path, format='newline_delimited', columns=$columns, maximum_object_size=16777216)"
        params = {"path": str(path), "columns": _json_columns(fields, extra_json)}
    try:
        reader = con.sql(f"SELECT {', '.join(exprs)} FROM {source}", params=params).to_arrow_reader(batch)
        start = 0
        for b in reader:
            yield start, {name: b.column(i) for i, name in enumerate(b.schema.names)}
            start += b.num_rows
    finally:
        con.close()


def missing_fields(schema, fields: list) -> list[str]:
    """The fields a Parquet file's schema lacks."""
    return [f.name for f in fields if not _schema_has(schema, f.path)]


def _get(rec: dict, path: tuple):
    x = rec
    for p in path:
        if not isinstance(x, dict) or p not in x:
            raise KeyError(p)
        x = x[p]
    return x


def _pyvalue(f: Field, x):
    """A JSON value in the form its Arrow column takes (calls' seats as strings, as Parquet stores them)."""
    if f.kind == "count":
        return len(x) if isinstance(x, list) else x
    if f.kind == "pairs" and isinstance(x, list):
        return [[str(p[0]), p[1]] if isinstance(p, list) and len(p) == 2 and isinstance(p[0], int)
                and not isinstance(p[0], bool) else p for p in x]
    return x


def arrow_type(f: Field):
    """The Arrow type a field's column has."""
    import pyarrow as pa

    return {
        "cards": pa.list_(pa.string()), "card": pa.string(), "seat": pa.int64(), "int": pa.int64(),
        "name": pa.string(), "bool": pa.bool_(), "count": pa.int64(), "seats": pa.list_(pa.int64()),
        "pairs": pa.list_(pa.list_(pa.string())),
    }[f.kind]


def _typed_column(f: Field, values: list):
    """The Arrow array of a field's JSON values; Bad at the first that is not of the field's form."""
    import pyarrow as pa

    try:
        if f.kind in ("seat", "int", "count") and any(isinstance(v, bool) for v in values):
            raise TypeError
        if f.kind == "bool" and any(v is not None and not isinstance(v, bool) for v in values):
            raise TypeError
        return pa.array(values, type=arrow_type(f))
    except (TypeError, ValueError, OverflowError, pa.ArrowException):
        pass
    for i, v in enumerate(values):  # the slow way, only to name the first bad value
        try:
            if f.kind in ("seat", "int", "count") and isinstance(v, bool):
                raise TypeError
            if f.kind == "bool" and v is not None and not isinstance(v, bool):
                raise TypeError
            pa.array([v], type=arrow_type(f))
        except (TypeError, ValueError, OverflowError, pa.ArrowException):
            what = {"cards": "not a list of card names", "card": "not a card name", "seat": "not a number",
                    "int": "not a number", "count": "not a list", "name": "not a name", "bool": "not true or false",
                    "seats": "not a list of seats", "pairs": "not a list of [seat, name] pairs"}[f.kind]
            if f.kind in ("cards", "seats") and isinstance(v, list):
                bad = next((x for x in v if not isinstance(x, str if f.kind == "cards" else int)
                            or isinstance(x, bool)), v)
                what = f"holds {bad!r}, {'not a card' if f.kind == 'cards' else 'not a seat'}"
                raise Bad(i, f.name, what) from None
            raise Bad(i, f.name, f"is {v!r}, {what}") from None
    raise Bad(0, f.name, "cannot be read")  # not reached: one value above failed


def jsonl_batches(path: str, fields: list, batch: int = BATCH, on_bytes=None, lines=(1, None)):
    """Yield (first record index, {field name: Arrow array}, line numbers) of a JSONL records file.

    Blank lines are skipped. RecordsError for a line that is not UTF-8, not
    JSON or not an object, and (naming the record, its line and the field)
    for a record without a field or with one that is not of its form. The
    columns include ``dd?``: whether the record carries a ``dd`` object.
    ``on_bytes(done)`` after each batch. ``lines``: (first, last) line read
    (last None: to the end); the records before are counted, not parsed.
    """
    from bower.sim.records_check import label, parse_line

    start, done = 0, 0
    first_line, last_line = lines
    try:
        fh = open(path, "rb")
    except OSError as e:
        from bower.sim.errors import os_reason

        raise _records_error(f"cannot read records from {path}: {os_reason(e)}") from None
    with fh:
        recs, lines = [], []
        for lineno, raw in enumerate(fh, 1):
            done += len(raw)
            if last_line is not None and lineno > last_line:
                break
            if not raw.strip():
                continue
            if lineno < first_line:
                start += 1
                continue
            rec = parse_line(raw, label(path, start + len(recs), lineno), lineno == 1)
            recs.append(rec)
            lines.append(lineno)
            if len(recs) == batch:
                yield start, _columns_of(path, recs, fields, start, lines), lines
                if on_bytes is not None:
                    on_bytes(done)
                start += len(recs)
                recs, lines = [], []
        if recs:
            yield start, _columns_of(path, recs, fields, start, lines), lines
        if on_bytes is not None:
            on_bytes(done)


def _columns_of(path: str, recs: list, fields: list, start: int, lines: list) -> dict:
    """The Arrow columns of a batch of record dicts (RecordsError naming the first record a field is not right in)."""
    import pyarrow as pa

    cols = {"variant": pa.array([r.get("variant") if isinstance(r.get("variant"), str) else None for r in recs],
                                pa.string()),
            "dd?": pa.array([r.get("dd") is not None for r in recs], pa.bool_())}
    for f in fields:
        values = []
        for i, r in enumerate(recs):
            try:
                values.append(_pyvalue(f, _get(r, f.path)))
            except KeyError:
                raise _records_error(_where(path, start + i, f.name, "is missing", lines[i])) from None
        try:
            cols[f.name] = _typed_column(f, values)
        except Bad as e:
            raise _records_error(_where(path, start + e.row, e.field, e.problem, lines[e.row])) from None
    return cols


def file_size(path: str) -> int:
    """Bytes in a file (0 if it cannot be read: the reading itself says why)."""
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


# ---------------------------------------------------------------- folding batches


class Fold:
    """Running sums of per-batch frames of summed cells (a variant's ``cells``), their column types kept.

    Adding frames turns their int sums into floats where the cells differ
    (pandas fills the missing ones with NaN first); ``frame`` gives the sums
    back with the types one frame of every hand would have had.
    """

    def __init__(self):
        self.total = None
        self.dtypes = None

    def add(self, cells) -> None:
        if not len(cells):
            return
        if self.total is None:
            self.total, self.dtypes = cells, cells.dtypes.to_dict()
        else:
            self.total = self.total.add(cells, fill_value=0)

    def frame(self, empty):
        """The summed cells as a flat frame (``empty``: the cells of no hands, when there were none)."""
        if self.total is None:
            return empty.reset_index()
        return self.total.astype(self.dtypes).reset_index()


def tables_module(variant):
    """The variant package's tables module (``sim/variants/NAME/tables.py``: its ``Stream``)."""
    import importlib

    return importlib.import_module(variant.arrow_fields.__module__.rsplit(".", 1)[0] + ".tables")


# ---------------------------------------------------------------- a records file, start to end


def _records_error(msg: str):
    from bower.sim.records import RecordsError

    return RecordsError(msg)


def _parquet_record_columns(path: str, schema) -> list[str]:
    """The columns of a Parquet records file that are record fields (not its derived columns)."""
    from bower.sim.records import read_meta

    derived = (read_meta(path) or {}).get("derived_columns")
    return [n for n in schema.names if not isinstance(derived, list) or n not in derived]


def open_records(path: str) -> dict:
    """What a records file is, read from its start: ``format``, ``variant`` (a Variant), the first record's
    ``rules`` and ``rules_version``, the file's metadata (``meta``, None if it has none), ``total`` (records
    of a Parquet file, bytes of a JSONL one) and the Parquet ``schema``.

    RecordsError for a file that is not there, not of its format, empty, or not of a known variant.
    """
    from bower.sim.records import read_meta
    from bower.sim.records_check import check_play, check_record, iter_file, label, parse_line
    from bower.sim.variants import named, names

    lower = str(path).lower()
    if not (lower.endswith(".jsonl") or lower.endswith(".parquet")):
        raise _records_error(f"records file {path} must end in .jsonl or .parquet")
    if os.path.isdir(path):
        raise _records_error(f"cannot read records from {path}: it is a directory")
    if not os.path.exists(path):
        raise _records_error(f"no records file {path}")
    not_ours = f"{path}: record 0 is not a bower hand record of a known variant ({', '.join(names())})"
    info = {"format": "parquet" if lower.endswith(".parquet") else "jsonl", "schema": None}
    if info["format"] == "parquet":
        import pyarrow.parquet as pq

        try:
            pf = pq.ParquetFile(path)
            schema = pf.schema_arrow
            info["total"] = pf.metadata.num_rows
            if info["total"] == 0:
                raise _records_error(f"{path} holds no records")
            if "variant" not in schema.names:
                raise _records_error(not_ours)
            first = next(iter_file(path, _parquet_record_columns(path, schema)))[0]
            first_where = label(path, 0)
        except (OSError, ValueError) as e:
            if getattr(e, "exit_code", None) is not None:  # a RecordsError of ours
                raise
            raise _records_error(f"cannot read records from {path}: {str(e).splitlines()[0]}") from None
        info["schema"] = schema
    else:
        first = None
        try:
            with open(path, "rb") as fh:
                for lineno, raw in enumerate(fh, 1):
                    if raw.strip():
                        first_where = label(path, 0, lineno)
                        first = parse_line(raw, first_where, lineno == 1)
                        break
        except OSError as e:
            if getattr(e, "exit_code", None) is not None:
                raise
            from bower.sim.errors import os_reason

            raise _records_error(f"cannot read records from {path}: {os_reason(e)}") from None
        if first is None:
            raise _records_error(f"{path} holds no records")
        info["total"] = file_size(path)
    info["variant"] = named(first.get("variant") if isinstance(first, dict) else None)
    if info["variant"] is None:
        raise _records_error(not_ours)
    # record 0 checked in full by the layer every reader shares (its rules above all); the others by the columns
    v, _, rec0, maker = check_record(first, first_where, info["variant"], tuple(info["variant"].record_fields))
    check_play(v, rec0, maker, first_where)
    info["rules"] = first.get("rules") if isinstance(first.get("rules"), dict) else {}
    info["rules_version"] = first.get("rules_version")
    info["meta"] = read_meta(path)
    return info


def fault_index(path: str, error) -> int | None:
    """The index of the record a reader's error names (``FILE: record N ...``), None when it names none."""
    import re

    text = error.format_message()
    at = text.find(str(path))
    m = re.match(r": record (\d+)\b", text[at + len(str(path)):]) if at >= 0 else None
    return int(m.group(1)) if m else None


def _where(path: str, index: int, field: str, problem: str, line: int | None) -> str:
    at = f" (line {line})" if line is not None else ""
    if not field:
        return f"cannot read records from {path}: record {index}{at} {problem}"
    return f"{path}: record {index}{at}: field '{field}' {problem}"


def line_of(path: str, index: int) -> int | None:
    """The line of a JSONL file that holds record ``index`` (blank lines skipped, as the readers skip them)."""
    k = -1
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, 1):
            if raw.strip():
                k += 1
                if k == index:
                    return lineno
    return None


def _with_line(path: str, parquet: bool, index: int, text: str) -> str:
    """``text`` with ``{line}`` as `` (line L)`` for a JSONL record, nothing for Parquet."""
    line = None if parquet else line_of(path, index)
    return text.replace("{line}", f" (line {line})" if line is not None else "")


def _diagnose_jsonl(path: str, fields: list, v, message: str = "") -> None:
    """Read a JSONL file line by line, as strictly as the fast reader, to name the first record it could not
    read (RecordsError); return if every record reads.

    DuckDB's ``message`` names a line: the lines about it are read first (then, if they all read, the file).
    """
    import re

    m = re.search(r"line (\d+)", message)
    if m:
        near = int(m.group(1))
        _diagnose_lines(path, fields, v, max(near - 2, 1), near + 2)
    _diagnose_lines(path, fields, v, 1, None)


def _diagnose_lines(path: str, fields: list, v, first: int, last: int | None) -> None:
    """``_diagnose_jsonl`` over lines ``first`` .. ``last`` (None: to the end) only."""
    for start, cols, lines in jsonl_batches(path, fields, 4096, lines=(first, last)):
        try:
            decode(cols, fields, v.players)
        except Bad as e:
            raise _records_error(_where(path, start + e.row, e.field, e.problem, lines[e.row])) from None


def recorded_strategy(path: str, meta: dict | None, v):
    """(name, parameters, note or None) of the strategy a records file says made it; None if it says none.

    Every seat's strategy is recorded; when they differ the first seat's is
    used, and the note says so. RecordsError when the recorded parameters are
    not this variant's.
    """
    from bower.sim.records import RecordsError
    from bower.sim.strategy import StrategyError, load_strategy

    seats = (meta or {}).get("seats")
    if not isinstance(seats, list) or not seats or not all(isinstance(s, dict) for s in seats):
        return None
    try:
        loaded = [(str(s.get("strategy", "custom")), load_strategy(dict(s.get("params") or {}), v)[1]) for s in seats]
    except (StrategyError, TypeError, ValueError) as e:
        raise RecordsError(f"{path}: the strategy its metadata records is not a {v.name} strategy "
                           f"({getattr(e, 'message', e)}); give --strategy") from None
    name, params = loaded[0]
    note = None
    if any(p != params for _, p in loaded[1:]):
        note = (f"the seats played different strategies ({'/'.join(n for n, _ in loaded)}): the trick estimates are "
                f"seat 0's ({name}); --strategy chooses another")
    return name, params, note


def choose_strategy(path: str, info: dict, strategy=None) -> tuple[str, dict, str, list[str]]:
    """(name, parameters, source, notes) of the strategy whose trick estimates bucket the hands of a records file.

    ``strategy`` (any spec ``load_strategy`` takes) wins, with a note when it
    differs from the recorded one; else the one the file's metadata records
    (``recorded_strategy``); else ``default``, with a note. ``source``:
    ``"--strategy"``, ``"records"`` or ``"default"``.
    """
    from bower.sim.strategy import load_strategy

    v = info["variant"]
    recorded = recorded_strategy(path, info["meta"], v)
    notes = []
    if strategy is not None:
        name, params = load_strategy(strategy, v)
        if recorded is not None and recorded[1] != params:
            notes.append(f"--strategy {name} overrides the strategy the records were made with ({recorded[0]}): "
                         f"the trick estimates are {name}'s")
        return name, params, "--strategy", notes
    if recorded is not None:
        name, params, note = recorded
        return name, params, "records", [note] if note else []
    name, params = load_strategy("default", v)
    notes.append("the records file does not say which strategy made it (no seats in its metadata): the trick "
                 "estimates are default's; --strategy chooses")
    return name, params, "default", notes


def analyze(path: str, info: dict, params: dict, threads: int | None = None, solve_dd: bool = False,
            progress=None, dd_progress=None, batch: int = BATCH, check: bool = True, stop: int | None = None) -> dict:
    """The analysis tables of a records file, read batch by batch (``open_records`` gave ``info``).

    ``params``: the strategy whose trick estimates bucket the hands. Returns
    ``tables`` (name -> DataFrame, the variant's then the double-dummy ones
    when the records carry ``dd`` or ``solve_dd``), ``shown`` (the names to
    print), ``hands``, ``played``, ``missing`` (played hands without
    ``dd``), ``with_dd`` and ``solved``. ``progress(done, total)`` after each
    batch (records of a Parquet file, bytes of a JSONL one).

    ``check``: first check every record in full by the layer every reader
    shares (``bower.sim.records.check_records_file``: each play of each
    record too, which the tables do not read), as ``replay`` and ``solve
    --records`` check them; False only for records checked already. The
    first record at fault is the one named: when the tables' own reading
    finds a fault at that record or before it, its line is given (it names
    the table's field), else the shared check's. ``stop``: read the records
    up to that index only, for their faults (no tables).
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    from bower.analysis import dd

    # Arrow's own allocator keeps what a batch freed for the next; the system's gives it back, and the
    # batches are the same size, so memory stays flat at less (about 20 MB) for the same speed
    pa.set_memory_pool(pa.system_memory_pool())
    if check:
        from bower.sim.errors import UserError
        from bower.sim.records import check_records_file

        try:
            check_records_file(path)
        except UserError as shared:
            at = fault_index(path, shared)
            if at is not None:  # an earlier (or the same) record the tables' reading names in its own words
                try:
                    analyze(path, info, params, threads=threads, batch=batch, check=False, stop=at)
                except UserError as own:
                    mine = fault_index(path, own)
                    if mine is not None and mine <= at:
                        raise own from None
            raise
    v = info["variant"]
    try:
        st = tables_module(v).Stream(params, info["rules"])
    except KeyError as e:
        raise _records_error(f"{path}: record 0: field 'rules.{e.args[0]}' is missing") from None
    maker_field = Field((v.card_play.maker_field,), "seat", nullable=True)
    fields = list(st.fields)
    for extra in (maker_field, Field(("plays",), "count")):
        if extra.name not in {f.name for f in fields}:
            fields.append(extra)
    play_counts = sorted(v.card_play.hand_size * k for k in v.card_play.seats_in_play)
    parquet = info["format"] == "parquet"
    if parquet:
        lacking = missing_fields(info["schema"], fields)
        if lacking:
            raise _records_error(f"{path}: record 0 is not a bower {v.name} hand record "
                                 f"(needs {', '.join(sorted({n.split('.')[0] for n in lacking}))})")
        has_dd = "dd" in info["schema"].names
        extra = [("dd?", '"dd" IS NOT NULL')] if has_dd else []
        source = duck_batches(path, "parquet", fields, threads, batch, extra, schema=info["schema"])
    else:
        source = duck_batches(path, "jsonl", fields, threads, batch, [("dd?", '"dd" IS NOT NULL')], extra_json=("dd",))
    hands = played = with_dd = 0
    try:
        for start, cols in source:
            if stop is not None and start > stop:
                break
            n = len(cols["variant"])
            try:
                d = decode(cols, fields, v.players, json_text=not parquet)
                check_disjoint(d, fields, st.disjoint)
                check_plays(d, maker_field.name, play_counts)
                same = pc.fill_null(pc.equal(cols["variant"], pa.scalar(v.name)), False).to_numpy(zero_copy_only=False)
                if not same.all():
                    i = _first(~same)
                    raise _records_error(_with_line(path, parquet, start + i,
                                                    f"{path}: record {start + i}{{line}} is variant "
                                                    f"{cols['variant'][i].as_py()!r}, record 0 {v.name!r}; "
                                                    "one variant per file"))
                st.add(d, n)
            except Bad as e:
                raise _records_error(_with_line(path, parquet, start + e.row,
                                                f"{path}: record {start + e.row}{{line}}: field '{e.field}' "
                                                f"{e.problem}")) from None
            is_played = (d[maker_field.name] >= 0) & (d["plays"] > 0)
            played += int(is_played.sum())
            if "dd?" in cols:
                with_dd += int((is_played & cols["dd?"].to_numpy(zero_copy_only=False)).sum())
            hands += n
            if progress is not None:
                progress(hands, info["total"])
    except OSError as e:
        if getattr(e, "exit_code", None) is not None:
            raise
        from bower.sim.errors import os_reason

        raise _records_error(f"cannot read records from {path}: {os_reason(e)}") from None
    except Exception as e:
        import duckdb

        if not isinstance(e, duckdb.Error):
            raise
        if not parquet and isinstance(e, (duckdb.InvalidInputException, duckdb.ConversionException)):
            _diagnose_jsonl(path, fields, v, str(e))  # a line DuckDB could not read: the line-by-line reader names it
        raise _records_error(f"cannot read records from {path}: {str(e).splitlines()[0]}") from None
    if stop is not None:
        return {}
    tables, shown = st.result()
    missing, solved = played - with_dd, 0
    to_solve = missing if solve_dd else 0
    if to_solve:
        with_dd, missing = played, 0
    if with_dd:  # the double-dummy tables: the records as dicts again, batch by batch (dd files are small)
        from bower.sim.records import iter_record_batches

        folded, start = None, 0
        for recs in iter_record_batches(path, 4096):
            if to_solve:
                solved += dd.attach_dd(v, recs)
                if dd_progress is not None:
                    dd_progress(solved, to_solve)
            frame = dd.hand_frame(v, recs, offset=start,
                                  where=lambda i: _with_line(path, parquet, i, f"{path}: record {i}{{line}}"))
            if len(frame):
                folded = dd.fold_more(folded, frame)
            start += len(recs)
        tables.update(dd.frame_tables(v, folded if folded is not None else dd.hand_frame(v, [])))
        shown = [*shown, *dd.TABLES]
    return {"tables": tables, "shown": shown, "hands": hands, "played": played, "missing": missing,
            "with_dd": with_dd, "solved": solved}
