"""Parquet row groups encoded straight from records columns, on any thread, without pyarrow's writer.

pyarrow's Parquet writer encodes a file on one thread, and its nested-list
levels cost about 19 ns a value (``plays``: 36 values a hand), so it caps a
records file near 500,000 to 600,000 hands/s whatever the thread count.
The records' shape is fixed and small (``bower.sim.records``: constants,
ints, bools, tokens out of short name lists, structs of those, lists of
tokens or ints, lists of ``[seat, value]`` pairs), so this module writes
those pages itself, in small Numba loops that run without the GIL on the
records worker threads: a list's repetition levels as one bit-packed run
and its definition levels as RLE runs, straight from the list offsets
(``kernels.parquet.rep_levels``, ``kernels.parquet.def_runs``); card and pair indices as one bit-packed
run (``kernels.parquet.pack``); flat columns through the RLE / bit-packed hybrid
(``kernels.parquet.hybrid``); small ints dictionary-encoded (``kernels.parquet.int_dictionary``). The
writer thread only appends each finished row group's bytes and keeps its
metadata for the footer.

The file is what pyarrow writes for the same Arrow schema
(``store_schema=False``), page for page in kind: the schema elements are
pyarrow's own (taken from the footer of an empty file it writes), every
column chunk is one PLAIN dictionary page (strings; ints whose range in
the row group is under 4,096) and one v1 data page of RLE_DICTIONARY
indices with RLE/bit-packed levels; ints of a wider range (``hand``) are
PLAIN int64, bools PLAIN. Every page is snappy-compressed (0.1 ms a row
group; the periodic repetition levels and ``hand`` shrink, the card
indices do not), about 50 bytes a Ghost Hand hand as pyarrow's. ``hand``
has min/max statistics (the row groups are found by hand number), no
other column has any. Readers (pyarrow, pandas, DuckDB) see the same
types and values as in a file pyarrow writes (``tests/test_records_fast.py``
compares them, every variant).

Thrift (the page headers and the footer) is written with the compact
protocol by the few helpers below; ``read_footer`` reads a footer back
(the tests and the schema template use it).
"""

from __future__ import annotations

import struct as _struct

import numpy as np

from bower.kernels import parquet as kp

# ---------------------------------------------------------------- Thrift compact protocol

T_TRUE, T_FALSE, T_BYTE, T_I16, T_I32, T_I64, T_DOUBLE, T_BINARY, T_LIST, T_SET, T_MAP, T_STRUCT = (
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)
T_BOOL = T_TRUE  # a bool field: T_TRUE or T_FALSE by its value
T_RAW = -1  # a field whose value is already encoded (``tstruct``)

# parquet.thrift enums used here
INT64, BOOLEAN, BYTE_ARRAY = 2, 0, 6
PLAIN, RLE, RLE_DICTIONARY = 0, 3, 8
DATA_PAGE, DICTIONARY_PAGE = 0, 2
SNAPPY = 1
REQUIRED, OPTIONAL, REPEATED = 0, 1, 2
CREATED_BY = "bower (records_parquet)"


def _uvarint(n: int) -> bytes:
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _zigzag(n: int) -> int:
    return (n << 1) ^ (n >> 63)


def _value(t: int, v) -> bytes:
    if t in (T_TRUE, T_FALSE):
        return b""
    if t in (T_I16, T_I32, T_I64):
        return _uvarint(_zigzag(v))
    if t == T_BINARY:
        v = v.encode() if isinstance(v, str) else bytes(v)
        return _uvarint(len(v)) + v
    if t == T_STRUCT:
        return v  # already encoded (``tstruct``)
    if t == T_LIST:
        et, items = v
        head = bytes([len(items) << 4 | et]) if len(items) < 15 else bytes([0xF0 | et]) + _uvarint(len(items))
        return head + b"".join(_value(et, x) for x in items)
    raise ValueError(f"thrift type {t}")


def tstruct(*fields) -> bytes:
    """A Thrift compact struct of ``(field id, type, value)`` in ascending id (a value None is left out).

    A struct value is its encoded bytes (``tstruct``), a list value
    ``(element type, items)``, a bool field's type ``T_BOOL``; type
    ``T_RAW``: the value is (its type, its encoded bytes), as ``read_struct``
    keeps them.
    """
    out = bytearray()
    last = 0
    for fid, t, v in fields:
        if v is None:
            continue
        if t == T_BOOL:
            t = T_TRUE if v else T_FALSE
        raw = t == T_RAW
        if raw:
            t, v = v
        d = fid - last
        out += bytes([d << 4 | t]) if 0 < d <= 15 else bytes([t]) + _uvarint(_zigzag(fid))
        last = fid
        out += v if raw else _value(t, v)
    out.append(0)
    return bytes(out)


def _read_uvarint(b, p: int) -> tuple[int, int]:
    r = s = 0
    while True:
        x = b[p]
        p += 1
        r |= (x & 0x7F) << s
        s += 7
        if x < 0x80:
            return r, p


def _read_value(b, p: int, t: int):
    if t in (T_TRUE, T_FALSE):
        return t == T_TRUE, p
    if t == T_BYTE:
        return _struct.unpack_from("b", b, p)[0], p + 1
    if t in (T_I16, T_I32, T_I64):
        v, p = _read_uvarint(b, p)
        return (v >> 1) ^ -(v & 1), p
    if t == T_DOUBLE:
        return _struct.unpack_from("<d", b, p)[0], p + 8
    if t == T_BINARY:
        n, p = _read_uvarint(b, p)
        return bytes(b[p:p + n]), p + n
    if t in (T_LIST, T_SET):
        h = b[p]
        p += 1
        n, et = h >> 4, h & 15
        if n == 15:
            n, p = _read_uvarint(b, p)
        items = []
        for _ in range(n):
            if et in (T_TRUE, T_FALSE):
                items.append(b[p] == 1)
                p += 1
            else:
                x, p = _read_value(b, p, et)
                items.append(x)
        return items, p
    if t == T_STRUCT:
        return read_struct(b, p)
    raise ValueError(f"thrift type {t}")


def read_struct(b, p: int = 0) -> tuple[dict, int]:
    """A Thrift compact struct at ``b[p:]`` as {field id: value} (structs as dicts, lists as lists); and its end."""
    fields, last = {}, 0
    while True:
        h = b[p]
        p += 1
        if h == 0:
            return fields, p
        t, d = h & 15, h >> 4
        if d:
            fid = last + d
        else:
            v, p = _read_uvarint(b, p)
            fid = (v >> 1) ^ -(v & 1)
        last = fid
        start = p
        fields[fid], p = _read_value(b, p, t)
        fields.setdefault("_raw", {})[fid] = (t, bytes(b[start:p]))


def read_footer(data: bytes) -> dict:
    """The FileMetaData of a whole Parquet file's bytes (``read_struct``'s form)."""
    if data[:4] != b"PAR1" or data[-4:] != b"PAR1":
        raise ValueError("not a Parquet file")
    n = _struct.unpack("<i", data[-8:-4])[0]
    return read_struct(data, len(data) - 8 - n)[0]


# ---------------------------------------------------------------- the encodings (the loops: bower.kernels.parquet)


def _bits(n: int) -> int:
    """Bits of a value 0 .. n."""
    return int(n).bit_length()


def hybrid(values: np.ndarray, bw: int) -> np.ndarray:
    """``values`` (non-negative, < 2**bw) RLE / bit-packed (the bytes as a uint8 array)."""
    if values.dtype not in (np.uint8, np.int32):
        values = values.astype(np.int32)
    values = np.ascontiguousarray(values)
    out = np.empty(len(values) // 8 * (bw + 3) + 16 + bw, np.uint8)
    return out[:kp.hybrid(values, bw, out)]


def _list_levels(offsets: np.ndarray, width: int, max_def: int) -> bytes:
    """The level sections of a list column (``width`` 2: of pairs): repetition bit-packed, definition RLE runs."""
    n = len(offsets) - 1
    m = int(offsets[-1] - offsets[0]) * width + n
    out = np.empty(m * width // 8 + 8 * n + 32, np.uint8)  # the runs: at most 8 bytes a row
    rep = out[:kp.rep_levels(offsets, width, out)].tobytes()
    dbw = _bits(max_def)
    dfn = out[:kp.def_runs(offsets, width, max_def - 2 * width, max_def, (dbw + 7) // 8, out)].tobytes()
    return _struct.pack("<i", len(rep)) + rep + _struct.pack("<i", len(dfn)) + dfn


def _levels(values: np.ndarray, bw: int) -> bytes:
    """A v1 data page's level section: the length (4 bytes) and the hybrid-encoded levels."""
    enc = hybrid(values, bw)
    return _struct.pack("<i", len(enc)) + enc.tobytes()


def _run_levels(level: int, n: int, bw: int) -> bytes:
    """The level section of ``n`` equal levels (one RLE run)."""
    enc = _uvarint(n << 1) + int(level).to_bytes((bw + 7) // 8, "little")
    return _struct.pack("<i", len(enc)) + enc


# ---------------------------------------------------------------- the file's layout

class Leaf:
    """A leaf column of the Parquet schema: its path, physical type and maximum levels."""

    __slots__ = ("path", "type", "max_def", "max_rep")

    def __init__(self, path, typ, max_def, max_rep):
        self.path, self.type, self.max_def, self.max_rep = tuple(path), typ, max_def, max_rep


def _schema_leaves(elements: list) -> list[Leaf]:
    """The leaves of a flattened Parquet schema (depth first, as the column chunks are ordered)."""
    leaves = []
    pos = 1

    def walk(path, d, r):
        nonlocal pos
        el = elements[pos]
        pos += 1
        rep = el.get(3, REQUIRED)
        d += rep != REQUIRED
        r += rep == REPEATED
        path = path + [el[4].decode()]
        if el.get(5):
            for _ in range(el[5]):
                walk(path, d, r)
        else:
            leaves.append(Leaf(path, el[1], d, r))

    for _ in range(elements[0].get(5, 0)):
        walk([], 0, 0)
    return leaves


class Layout:
    """The Parquet form of an Arrow schema: pyarrow's schema elements, the leaves, the footer's fixed parts."""

    def __init__(self, schema):
        import pyarrow as pa
        import pyarrow.parquet as pq

        sink = pa.BufferOutputStream()
        pq.ParquetWriter(sink, schema, store_schema=False).close()
        footer = read_footer(sink.getvalue().to_pybytes())
        raw = footer["_raw"]
        self.version = footer[1]
        self.schema_raw = raw[2]  # (type, bytes) of the schema list, as pyarrow writes it
        self.orders_raw = raw.get(7)
        self.leaves = _schema_leaves(footer[2])
        self.arrow_schema = schema


# ---------------------------------------------------------------- one row group

class Chunk:
    """One encoded column chunk: its bytes and what its ColumnMetaData says (offsets relative to the chunk)."""

    __slots__ = ("leaf", "data", "num_values", "dict_size", "raw_size", "encodings", "stats")

    def __init__(self, leaf, data, num_values, dict_size, raw_size, encodings, stats):
        self.leaf, self.data, self.num_values, self.dict_size = leaf, data, num_values, dict_size
        self.raw_size, self.encodings, self.stats = raw_size, encodings, stats


def _page(page_type: int, body: bytes, num_values: int, encoding: int) -> tuple[bytes, int]:
    """A page: its header and its snappy-compressed body; and its uncompressed size (header included)."""
    import pyarrow as pa

    packed = pa.compress(body, codec="snappy", asbytes=True)
    if page_type == DICTIONARY_PAGE:
        sub = (7, T_STRUCT, tstruct((1, T_I32, num_values), (2, T_I32, encoding), (3, T_BOOL, False)))
    else:
        sub = (5, T_STRUCT, tstruct((1, T_I32, num_values), (2, T_I32, encoding), (3, T_I32, RLE), (4, T_I32, RLE)))
    head = tstruct((1, T_I32, page_type), (2, T_I32, len(body)), (3, T_I32, len(packed)), sub)
    return head + packed, len(head) + len(body)


_PLAIN_STRINGS: dict = {}


def _plain_strings(names: tuple) -> bytes:
    """PLAIN BYTE_ARRAY values of ``names`` (a dictionary page's body)."""
    out = _PLAIN_STRINGS.get(names)
    if out is None:
        parts = []
        for s in names:
            b = s.encode("utf-8")
            parts.append(_struct.pack("<i", len(b)) + b)
        out = _PLAIN_STRINGS[names] = b"".join(parts)
    return out


INT_DICTIONARY_RANGE = 4096  # ints whose range in a row group is under this are dictionary-encoded


def _chunk(leaf: Leaf, n_entries: int, levels: bytes, kind: str, payload, stats: bool = False) -> Chunk:
    """A column chunk of ``n_entries`` level entries: ``levels`` (the level sections) then the values.

    ``kind``: "dict" (payload (dictionary page body, dictionary size, indices or their encoded bytes)),
    "plain" (payload: the PLAIN values' bytes, and the int64 values for statistics).
    """
    if kind == "dict":
        body, size, values = payload
        if not isinstance(values, bytes):
            values = _dict_values(values, size)
        dict_page, dict_raw = _page(DICTIONARY_PAGE, body, size, PLAIN)
        data_page, data_raw = _page(DATA_PAGE, levels + values, n_entries, RLE_DICTIONARY)
        return Chunk(leaf, dict_page + data_page, n_entries, len(dict_page), dict_raw + data_raw,
                     [PLAIN, RLE, RLE_DICTIONARY], None)
    body, ints = payload
    st = None
    if stats and ints is not None and len(ints):
        lo, hi = (int(x).to_bytes(8, "little", signed=True) for x in (ints.min(), ints.max()))
        st = tstruct((1, T_BINARY, hi), (2, T_BINARY, lo), (3, T_I64, n_entries - len(ints)), (5, T_BINARY, hi),
                     (6, T_BINARY, lo), (7, T_BOOL, True), (8, T_BOOL, True))
    data_page, data_raw = _page(DATA_PAGE, levels + body, n_entries, PLAIN)
    return Chunk(leaf, data_page, n_entries, 0, data_raw, [PLAIN, RLE], st)


def dict_bits(size: int) -> int:
    """Bits of a dictionary index (at least 1)."""
    return max(1, _bits(size - 1))


def _dict_values(idx: np.ndarray, size: int) -> bytes:
    """A data page's RLE_DICTIONARY values: the bit width (a byte), then the indices RLE / bit-packed."""
    bw = dict_bits(size)
    return bytes([bw]) + (hybrid(idx, bw).tobytes() if len(idx) else b"")


_NONE = np.zeros(0, np.int32)


def _packed_values(first: np.ndarray, size: int, second: np.ndarray = _NONE, shift: int = 0) -> bytes:
    """RLE_DICTIONARY values as one bit-packed run (``kernels.parquet.pack``): no run is looked for (cards have none)."""
    bw = dict_bits(size)
    m = len(first) * (2 if len(second) else 1)
    if m == 0:
        return bytes([bw])
    out = np.empty(m * bw // 8 + 24, np.uint8)
    first = first if first.dtype in (np.int8, np.int32) else first.astype(np.int32)
    return bytes([bw]) + out[:kp.pack(first, second, shift, bw, out)].tobytes()


def _int_payload(v: np.ndarray):
    """("dict", ...) for ints of a small range, else ("plain", ...)."""
    v = np.ascontiguousarray(v, np.int64)
    lut = np.empty(INT_DICTIONARY_RANGE, np.int32)
    idx = np.empty(len(v), np.int32)
    lo, hi, size = kp.int_dictionary(v, INT_DICTIONARY_RANGE, lut, idx)
    if size:
        keys = np.flatnonzero(lut[:hi - lo + 1] >= 0) + lo
        return "dict", (keys.astype("<i8").tobytes(), size, idx)
    return "plain", (v.astype("<i8", copy=False).tobytes(), v)


def _flat_levels(leaf: Leaf, n: int, valid) -> bytes:
    """Definition levels of a leaf under structs only (every struct present): full where ``valid``."""
    bw = _bits(leaf.max_def)
    if valid is None:
        return _run_levels(leaf.max_def, n, bw)
    return _levels(np.where(valid, leaf.max_def, leaf.max_def - 1).astype(np.int32), bw)


def _encode(col, leaves: list, n: int, stats: set, out: list) -> None:
    """The chunks of a records column (``bower.sim.records`` kinds) over its leaves, appended to ``out``."""
    from bower.sim import records as rc

    if isinstance(col, rc.Struct):
        for _, c in col.fields:
            _encode(c, leaves, n, stats, out)
        return
    if isinstance(col, rc.Const) and isinstance(col.value, dict):
        for v in col.value.values():
            _encode(rc.Const(v), leaves, n, stats, out)
        return
    leaf = leaves[len(out)]
    if isinstance(col, (rc.Lists, rc.Pairs)):
        width = 1 if isinstance(col, rc.Lists) else 2
        if leaf.max_rep != width:
            raise ValueError(f"column {'.'.join(leaf.path)}: {leaf.max_rep} repetition levels, not {width}")
        levels = _list_levels(col.offsets, width, leaf.max_def)
        if isinstance(col, rc.Pairs):
            names = tuple(str(s) for s in range(col.n_seats)) + col.names
            values = _packed_values(col.seats, len(names), col.idx, col.n_seats)
            kind, payload = "dict", (_plain_strings(names), len(names), values)
        else:
            child = col.child
            if isinstance(child, rc.Tokens) and child.valid is None:
                values = _packed_values(child.idx, len(child.names))
                kind, payload = "dict", (_plain_strings(child.names), len(child.names), values)
            elif isinstance(child, rc.Ints) and child.valid is None:
                kind, payload = _int_payload(child.values)
            else:
                raise TypeError(f"column {'.'.join(leaf.path)}: a list of {type(child).__name__} with nulls")
        entries = int(col.offsets[-1] - col.offsets[0]) * width + int(np.count_nonzero(
            col.offsets[1:] == col.offsets[:-1]))
        out.append(_chunk(leaf, entries, levels, kind, payload))
        return
    if leaf.max_rep:
        raise ValueError(f"column {'.'.join(leaf.path)} is a list in the schema, not in the records")
    valid = getattr(col, "valid", None)
    levels = _flat_levels(leaf, n, valid)
    if isinstance(col, rc.Const):
        v = col.value
        if v is None:
            levels = _run_levels(leaf.max_def - 1, n, _bits(leaf.max_def))
            out.append(_chunk(leaf, n, levels, "plain", (b"", None)))
        elif isinstance(v, bool):
            out.append(_chunk(leaf, n, levels, "plain", (np.packbits(np.full(n, v), bitorder="little").tobytes(),
                                                         None)))
        elif isinstance(v, int):
            out.append(_chunk(leaf, n, levels, "dict", (_struct.pack("<q", v), 1, np.zeros(n, np.int32))))
        else:
            out.append(_chunk(leaf, n, levels, "dict", (_plain_strings((str(v),)), 1, np.zeros(n, np.int32))))
    elif isinstance(col, rc.Ints):
        v = col.values if valid is None else col.values[valid]
        kind, payload = _int_payload(v)
        if leaf.path in stats and kind == "dict":
            kind, payload = "plain", (np.ascontiguousarray(v, "<i8").tobytes(), v)
        out.append(_chunk(leaf, n, levels, kind, payload, stats=leaf.path in stats))
    elif isinstance(col, rc.Bools):
        out.append(_chunk(leaf, n, levels, "plain", (np.packbits(col.values, bitorder="little").tobytes(), None)))
    elif isinstance(col, rc.Tokens):
        idx = col.idx if valid is None else col.idx[valid]
        out.append(_chunk(leaf, n, levels, "dict", (_plain_strings(col.names), len(col.names), idx)))
    else:
        raise TypeError(f"not a record column: {col!r}")
    want = {rc.Ints: INT64, rc.Bools: BOOLEAN, rc.Tokens: BYTE_ARRAY}.get(type(col))
    if want is not None and leaf.type != want:
        raise TypeError(f"column {'.'.join(leaf.path)} is of Parquet type {leaf.type}, its records {want}")


class RowGroup:
    """An encoded row group: its bytes (the column chunks in order) and their metadata."""

    __slots__ = ("data", "chunks", "num_rows")

    def __init__(self, data: bytes, chunks: list, num_rows: int):
        self.data, self.chunks, self.num_rows = data, chunks, num_rows

    def meta(self, offset: int, ordinal: int) -> bytes:
        """The RowGroup struct of this row group written at file ``offset``."""
        cols = []
        pos = offset
        for c in self.chunks:
            size = len(c.data)
            md = tstruct(
                (1, T_I32, c.leaf.type), (2, T_LIST, (T_I32, c.encodings)), (3, T_LIST, (T_BINARY, list(c.leaf.path))),
                (4, T_I32, SNAPPY), (5, T_I64, c.num_values), (6, T_I64, c.raw_size), (7, T_I64, size),
                (9, T_I64, pos + c.dict_size), (11, T_I64, pos if c.dict_size else None), (12, T_STRUCT, c.stats))
            cols.append(tstruct((2, T_I64, 0), (3, T_STRUCT, md)))
            pos += size
        raw = sum(c.raw_size for c in self.chunks)
        return tstruct((1, T_LIST, (T_STRUCT, cols)), (2, T_I64, raw), (3, T_I64, self.num_rows),
                       (5, T_I64, offset), (6, T_I64, len(self.data)), (7, T_I16, ordinal))


def encode_row_group(layout: Layout, columns: list, n: int, stats=(("hand",),)) -> RowGroup:
    """The row group of ``n`` rows of records columns (name, column), in the schema's order (any thread)."""
    names = [name for name, _ in columns]
    if names != layout.arrow_schema.names:
        raise ValueError(f"columns {names} are not the schema's {layout.arrow_schema.names}")
    chunks: list = []
    for _, col in columns:
        _encode(col, layout.leaves, n, set(stats), chunks)
    if len(chunks) != len(layout.leaves):
        raise ValueError(f"{len(chunks)} column chunks for {len(layout.leaves)} leaves")
    return RowGroup(b"".join(c.data for c in chunks), chunks, n)


def footer(layout: Layout, row_groups: list, num_rows: int, kv: dict) -> bytes:
    """The file's end: FileMetaData (``row_groups``: RowGroup structs), its length and ``PAR1``.

    The schema and the column orders are pyarrow's own bytes (``Layout``).
    """
    body = tstruct(
        (1, T_I32, layout.version), (2, T_RAW, layout.schema_raw), (3, T_I64, num_rows),
        (4, T_LIST, (T_STRUCT, row_groups)),
        (5, T_LIST, (T_STRUCT, [tstruct((1, T_BINARY, k), (2, T_BINARY, v)) for k, v in kv.items()])),
        (6, T_BINARY, CREATED_BY), (7, T_RAW, layout.orders_raw))
    return body + _struct.pack("<i", len(body)) + b"PAR1"
