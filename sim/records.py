"""Per-hand records: kernel rows to columns (and to dicts), streaming atomic ``.jsonl`` / ``.parquet`` writers, readers.

A record is what the rules produced for one hand, in RULES.md notation:
``variant``, ``rules_version``, ``rules``, ``hand``, ``dealer``, ``deal``
(seat string -> cards as dealt, plus ``"ghost"``), ``swap``, ``calls``
(``[seat, call]``), ``maker``, ``bid`` (6 = moon), ``trump``, ``plays``
(``[seat, card]``), ``tricks`` and ``points`` (seat string -> number).

A run's records never become Python objects one by one: each variant's
records module describes a batch of kernel rows as columns (``columns``:
the column kinds ``Const`` .. ``Pairs`` below, numpy arrays cut from the
rows), from which come the Arrow arrays of the Parquet form (``to_arrow``)
and the JSON lines (``json_lines``, built with Arrow's string kernels: the
bytes ``json.dumps`` writes of the record dict, ``row_to_dict``, which stays
for single hands and as the twin the tests hold the columns to). Batches are
prepared on worker threads and written in order on another
(``BackgroundWriter``) while the kernels play the next ones.

Every file says how it was made (``file_meta``: variant, rules, bower
version, every seat's strategy and parameters, seed, hands, command): a
Parquet file in its key-value metadata ``bower``, a JSONL file in the
sidecar ``FILE.jsonl.meta.json``. A Parquet file also has flat derived
columns after the record's fields (``derived_fields``). A file is written
under a temporary name and renamed when complete (a JSONL sidecar just
before it), so a failed or interrupted run never leaves a half-written file
under its name or beside it.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import tempfile

import numpy as np

from bower.kernels.jit import kernel
from bower.sim.cards import SUITS, card_str, mask_str
from bower.sim.errors import UserError, os_reason
from bower.sim.rules import RULES_VERSION  # noqa: F401  (the records carry it)

SEAT_KEYS = ("0", "1", "2")
CARD_NAMES = [card_str(c) for c in range(25)]
# the card strings of each 6-bit pattern of one suit, so a mask converts a suit at a time
_SUIT_PATTERNS = [[mask_str(bits << (6 * s)) for bits in range(64)] for s in range(4)]


def _cards(mask: int) -> list[str]:
    """Card strings of a mask in ascending card order (same as ``bower.sim.cards.mask_str``, faster)."""
    out = (
        _SUIT_PATTERNS[0][mask & 63] + _SUIT_PATTERNS[1][(mask >> 6) & 63]
        + _SUIT_PATTERNS[2][(mask >> 12) & 63] + _SUIT_PATTERNS[3][(mask >> 18) & 63]
    )
    if mask >> 24 & 1:
        out.append("JK")
    return out


class RecordsError(UserError, OSError):
    """A records path that cannot be written or has an unknown extension."""





def row_to_dict(row: np.ndarray, hand: int, variant, rules: dict) -> dict:
    """One kernel record row as the record dict (the variant's ``row_to_dict``)."""
    return variant.row_to_dict(row, hand, rules)


def rule_type(value):
    """The Arrow type of a rule option's value in the records' ``rules`` struct."""
    import pyarrow as pa

    if isinstance(value, bool):
        return pa.bool_()
    if isinstance(value, int):
        return pa.int64()
    return pa.string()


def common_fields(rules: dict) -> list:
    """The (name, Arrow type) of the fields every variant's records start with."""
    import pyarrow as pa

    return [
        ("variant", pa.string()),
        ("rules_version", pa.string()),
        ("rules", pa.struct([(k, rule_type(v)) for k, v in rules.items()])),
        ("hand", pa.int64()),
        ("dealer", pa.int64()),
    ]


def parquet_schema(variant, rules: dict):
    """The Arrow schema of a variant's records (same fields as the JSON records)."""
    import pyarrow as pa

    return pa.schema(common_fields(rules) + variant.arrow_fields(rules))


@contextlib.contextmanager
def gc_paused():
    """Pause the cyclic garbage collector while building many small acyclic objects.

    Otherwise they trigger full collections over everything Numba has loaded,
    which cost three times the record conversion itself.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


@contextlib.contextmanager
def system_memory():
    """Arrow's allocations on the system allocator (``pyarrow.system_memory_pool``) while a whole file is read.

    Arrow's own default (mimalloc) hands the pages of each freed batch back
    to the system and faults fresh ones in for the next: reading a
    1,000,000-hand Ghost Hand file whole cost about 2 CPU seconds more in
    the kernel that way, and 150 MB more at its peak. The pool in use
    before is put back afterwards (each buffer keeps the pool it came from,
    so the frame read outlives the switch).
    """
    import pyarrow as pa

    before = pa.default_memory_pool()
    system = pa.system_memory_pool()
    if before.backend_name == system.backend_name:
        yield
        return
    pa.set_memory_pool(system)
    try:
        yield
    finally:
        pa.set_memory_pool(before)


def to_dicts(records: np.ndarray, first_hand: int, variant, rules: dict) -> list[dict]:
    """Record dicts of a batch of kernel rows whose first row is hand ``first_hand``."""
    with gc_paused():
        return [row_to_dict(records[i], first_hand + i, variant, rules) for i in range(records.shape[0])]


# ---------------------------------------------------------------- columnar records
#
# A batch of kernel rows becomes columns without a Python object per hand: each
# variant's records module describes its record as a tree of the column kinds
# below (``columns(rows, first_hand, rules)``, numpy arrays cut from the rows),
# and the same tree gives the Arrow arrays of the Parquet form (``to_arrow``)
# and the JSON text of each line (``json_lines``), built with Arrow's string
# kernels. The text is what ``json.dumps(record, separators=(",", ":"))`` of
# the record dict writes, byte for byte (tests/test_records_fast.py holds the
# two paths side by side).


class Const:
    """The same JSON value in every row (the variant, the rules)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class Ints:
    """An int64 per row; ``valid`` (bool array) false where the value is null."""

    __slots__ = ("values", "valid")

    def __init__(self, values: np.ndarray, valid: np.ndarray | None = None):
        self.values = np.ascontiguousarray(values, np.int64)
        self.valid = None if valid is None or valid.all() else np.asarray(valid, bool)


class Bools:
    """A bool per row."""

    __slots__ = ("values",)

    def __init__(self, values: np.ndarray):
        self.values = np.asarray(values, bool)


class Tokens:
    """A string per row out of a small list of ``names`` (cards, calls, suits): ``names[idx]``, null where not ``valid``."""

    __slots__ = ("names", "idx", "valid")

    def __init__(self, names, idx: np.ndarray, valid: np.ndarray | None = None):
        self.names = tuple(names)
        self.idx = np.ascontiguousarray(idx, np.int8 if len(self.names) <= 127 else np.int32)
        self.valid = None if valid is None or valid.all() else np.asarray(valid, bool)


class Lists:
    """A list per row: ``offsets`` (n + 1, from 0) into ``child``, a column over every element."""

    __slots__ = ("offsets", "child")

    def __init__(self, offsets: np.ndarray, child):
        self.offsets = np.ascontiguousarray(offsets, np.int32)
        self.child = child


class Struct:
    """An object per row: ``fields`` is a list of (key, column)."""

    __slots__ = ("fields",)

    def __init__(self, fields: list):
        self.fields = fields


class Pairs:
    """A list of ``[seat, name]`` pairs per row (calls, plays): JSON ``[0,"JH"]``, Parquet ``["0","JH"]``.

    ``offsets`` (n + 1) into ``seats`` (0 .. ``n_seats`` - 1) and ``idx`` (indices into ``names``).
    """

    __slots__ = ("offsets", "seats", "n_seats", "names", "idx")

    def __init__(self, offsets: np.ndarray, seats: np.ndarray, n_seats: int, names, idx: np.ndarray):
        self.offsets = np.ascontiguousarray(offsets, np.int32)
        self.seats = np.ascontiguousarray(seats, np.int32)
        self.n_seats = n_seats
        self.names = tuple(names)
        self.idx = np.ascontiguousarray(idx, np.int32)


def offsets_of(counts: np.ndarray) -> np.ndarray:
    """List offsets (n + 1, from 0) of per-row element counts."""
    out = np.zeros(len(counts) + 1, np.int32)
    np.cumsum(counts, out=out[1:])
    return out


_BYTE_BITS = np.zeros((256, 8), np.int8)  # the set bits of each byte value, ascending
_BYTE_COUNT = np.zeros(256, np.int64)
for _b in range(256):
    _bits = [i for i in range(8) if _b >> i & 1]
    _BYTE_BITS[_b, :len(_bits)] = _bits
    _BYTE_COUNT[_b] = len(_bits)


@kernel
def _mask_cards(masks, offsets, idx, byte_bits, byte_count):
    """The set bits (cards) of each mask, ascending, into ``idx``; list offsets into ``offsets``; returns how many."""
    m = 0
    offsets[0] = 0
    for i in range(masks.shape[0]):
        x = masks[i]
        base = 0
        while x != 0:
            b = x & 255
            for k in range(byte_count[b]):
                idx[m + k] = byte_bits[b, k] + base
            m += byte_count[b]
            x >>= 8
            base += 8
        offsets[i + 1] = m
    return m


@kernel
def _pairs(rows, start, count_col, offsets, seats, values):
    """The (seat, value) pairs of each row (``rows[i, count_col]`` of them from column ``start``); returns how many."""
    m = 0
    offsets[0] = 0
    for i in range(rows.shape[0]):
        for k in range(rows[i, count_col]):
            seats[m] = rows[i, start + 2 * k]
            values[m] = rows[i, start + 2 * k + 1]
            m += 1
        offsets[i + 1] = m
    return m


def _none(offsets: np.ndarray) -> int:
    """No rows: the one offset, 0, and no elements (no kernel is loaded for them: the records check asks the
    columns of no rows for the call names, ``records_check.call_names``)."""
    offsets[0] = 0
    return 0


def card_lists(masks: np.ndarray) -> Lists:
    """Each mask's cards as a list of card names, in ascending card order (as ``_cards``)."""
    masks = np.ascontiguousarray(masks, np.int64)
    offsets = np.empty(len(masks) + 1, np.int32)
    idx = np.empty(len(masks) * 25, np.int8)
    m = _mask_cards(masks, offsets, idx, _BYTE_BITS, _BYTE_COUNT) if len(masks) else _none(offsets)
    return Lists(offsets, Tokens(CARD_NAMES, idx[:m]))


def cards(idx: np.ndarray, valid: np.ndarray | None = None) -> Tokens:
    """Card indices as card names (null where not ``valid``)."""
    idx = np.asarray(idx, np.int64)
    return Tokens(CARD_NAMES, np.where(idx >= 0, idx, 0) if valid is not None else idx, valid)


def fixed_lists(block: np.ndarray, child) -> Lists:
    """Rows of ``block`` (n, k) as lists of k elements; ``child`` makes the column of the flattened block."""
    n, k = block.shape
    return Lists(np.arange(0, n * k + 1, k, dtype=np.int32), child(np.ascontiguousarray(block).reshape(-1)))


def seat_lists(seat_bits: np.ndarray) -> Lists:
    """A list of the seats whose bit is set in each mask (ascending)."""
    masks = np.ascontiguousarray(seat_bits, np.int64)
    offsets = np.empty(len(masks) + 1, np.int32)
    idx = np.empty(len(masks) * 25, np.int8)
    m = _mask_cards(masks, offsets, idx, _BYTE_BITS, _BYTE_COUNT) if len(masks) else _none(offsets)
    return Lists(offsets, Ints(idx[:m]))


def pair_block(rows: np.ndarray, start: int, count_col: int, max_pairs: int):
    """The (seat, value) pairs a row records at ``rows[:, start:]`` (``rows[:, count_col]`` of them).

    Returns (offsets, seats, values): offsets (n + 1) into the pairs of all rows.
    """
    n = rows.shape[0]
    offsets = np.empty(n + 1, np.int32)
    seats = np.empty(n * max_pairs, np.int32)
    values = np.empty(n * max_pairs, np.int32)
    m = _pairs(np.ascontiguousarray(rows), start, count_col, offsets, seats, values) if n else _none(offsets)
    return offsets, seats[:m], values[:m]


def lookup(codes: np.ndarray, table: dict, what: str) -> np.ndarray:
    """``table[code]`` for each code (small non-negative ints) as indices; ValueError for a code not in ``table``."""
    lut = np.full(max(table) + 2, -1, np.int32)
    for k, x in table.items():
        lut[k] = x
    codes = np.asarray(codes, np.int64)
    out = lut[np.clip(codes, -1, len(lut) - 1)]
    if (out < 0).any():
        bad = codes[out < 0][0]
        raise ValueError(f"kernel record holds {what} code {bad}, which has no name")
    return out


def _repeat(value, n: int, typ):
    import pyarrow as pa

    return pa.array([value], type=typ).take(pa.array(np.zeros(n, np.int32)))


def to_arrow(col, n: int, typ):
    """The Arrow array of a column (``n`` rows) of Arrow type ``typ`` (the records' Parquet form)."""
    import pyarrow as pa

    if isinstance(col, Const):
        return _repeat(col.value, n, typ)
    if isinstance(col, Ints):
        return pa.array(col.values, type=pa.int64(), mask=None if col.valid is None else ~col.valid)
    if isinstance(col, Bools):
        return pa.array(col.values, type=pa.bool_())
    if isinstance(col, Tokens):
        idx = pa.array(col.idx, mask=None if col.valid is None else ~col.valid)
        if pa.types.is_dictionary(typ):
            return pa.DictionaryArray.from_arrays(idx.cast(typ.index_type), pa.array(col.names, typ.value_type))
        return pa.array(col.names, type=typ).take(idx)
    if isinstance(col, Lists):
        m = int(col.offsets[-1])
        return pa.ListArray.from_arrays(pa.array(col.offsets), to_arrow(col.child, m, typ.value_type), type=typ)
    if isinstance(col, Struct):
        children = [to_arrow(c, n, typ.field(k).type) for k, c in col.fields]
        return pa.StructArray.from_arrays(children, fields=[typ.field(k) for k, _ in col.fields])
    if isinstance(col, Pairs):
        seat_names = [str(s) for s in range(col.n_seats)]
        leaf = typ.value_type.value_type
        names = seat_names + list(col.names)
        inner_idx = np.empty((len(col.seats), 2), np.int8 if len(names) <= 127 else np.int32)
        inner_idx[:, 0] = col.seats
        inner_idx[:, 1] = col.idx + len(seat_names)
        if pa.types.is_dictionary(leaf):
            values = pa.DictionaryArray.from_arrays(pa.array(inner_idx.reshape(-1)).cast(leaf.index_type),
                                                    pa.array(names, leaf.value_type))
        else:
            values = pa.array(names, type=leaf).take(pa.array(inner_idx.reshape(-1)))
        m = len(col.seats)
        inner = pa.ListArray.from_arrays(pa.array(np.arange(0, 2 * m + 1, 2, dtype=np.int32)), values,
                                         type=typ.value_type)
        return pa.ListArray.from_arrays(pa.array(col.offsets), inner, type=typ)
    raise TypeError(f"not a record column: {col!r}")


def _json(value) -> str:
    return json.dumps(value, separators=(",", ":"))


def _json_pieces(col, n: int) -> list:
    """The JSON text of a column as a list of pieces: a str (the same in every row) or an Arrow string array (n)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if isinstance(col, Const):
        return [_json(col.value)]
    if isinstance(col, Ints):
        text = pc.cast(pa.array(col.values, type=pa.int64(), mask=None if col.valid is None else ~col.valid),
                       pa.string())
        return [pc.fill_null(text, "null") if col.valid is not None else text]
    if isinstance(col, Bools):
        return [pa.array(["false", "true"]).take(pa.array(col.values.astype(np.int8)))]
    if isinstance(col, Tokens):
        table = pa.array([_json(t) for t in col.names] + ["null"])
        idx = col.idx if col.valid is None else np.where(col.valid, col.idx, len(col.names))
        return [table.take(pa.array(idx))]
    if isinstance(col, Lists):
        m = int(col.offsets[-1])
        elems = _join(_json_pieces(col.child, m), m)
        return ["[", pc.binary_join(pa.ListArray.from_arrays(pa.array(col.offsets), elems), ","), "]"]
    if isinstance(col, Struct):
        out = ["{"]
        for i, (k, c) in enumerate(col.fields):
            out.append(("," if i else "") + _json(k) + ":")
            out.extend(_json_pieces(c, n))
        out.append("}")
        return _merge(out)
    if isinstance(col, Pairs):
        table = pa.array([f"[{s},{_json(name)}]" for s in range(col.n_seats) for name in col.names])
        elems = table.take(pa.array(col.seats * len(col.names) + col.idx))
        return ["[", pc.binary_join(pa.ListArray.from_arrays(pa.array(col.offsets), elems), ","), "]"]
    raise TypeError(f"not a record column: {col!r}")


def _merge(pieces: list) -> list:
    """Adjacent constant pieces joined into one."""
    out = []
    for p in pieces:
        if isinstance(p, str) and out and isinstance(out[-1], str):
            out[-1] += p
        else:
            out.append(p)
    return out


def _join(pieces: list, n: int):
    """The pieces of a column's JSON joined into one Arrow string array of ``n`` rows."""
    import pyarrow as pa
    import pyarrow.compute as pc

    pieces = _merge(pieces)
    if len(pieces) == 1:
        p = pieces[0]
        return p if not isinstance(p, str) else _repeat(p, n, pa.string())
    if all(isinstance(p, str) for p in pieces):
        return _repeat("".join(pieces), n, pa.string())
    return pc.binary_join_element_wise(*[pa.scalar(p) if isinstance(p, str) else p for p in pieces], "")


def json_lines(fields: list, n: int) -> memoryview:
    """The JSON lines (one per row, each ending in a newline) of a record's columns, as one buffer."""
    if n == 0:
        return memoryview(b"")
    text = _join(_json_pieces(Struct(fields), n) + ["\n"], n)
    offsets = np.frombuffer(text.buffers()[1], np.int32, count=len(text) + 1, offset=4 * text.offset)
    data = text.buffers()[2]
    return memoryview(data)[int(offsets[0]): int(offsets[-1])]


def records_module(variant):
    """The module of a variant's records (where its ``arrow_fields`` live); it may define ``columns``."""
    import importlib

    return importlib.import_module(variant.arrow_fields.__module__)


def has_columns(variant) -> bool:
    """Whether the variant's records module builds columns (``columns(rows, first_hand, rules)``)."""
    return hasattr(records_module(variant), "columns")


def record_columns(variant, rows: np.ndarray, first_hand: int, rules: dict) -> list:
    """The (name, column) of every record field of a batch of kernel rows, in the record's order."""
    return records_module(variant).columns(rows, first_hand, rules)


def common_columns(variant_name: str, rows: np.ndarray, first_hand: int, rules: dict, dealer_col: int) -> list:
    """The (name, column) of the fields every variant's records start with."""
    return [
        ("variant", Const(variant_name)),
        ("rules_version", Const(RULES_VERSION)),
        ("rules", Const(dict(rules))),
        ("hand", Ints(first_hand + np.arange(rows.shape[0], dtype=np.int64))),
        ("dealer", Ints(rows[:, dealer_col])),
    ]


def seat_struct(keys, values: np.ndarray) -> Struct:
    """Seat (or side) string -> an int per row, from columns ``values[:, k]``."""
    return Struct([(k, Ints(values[:, i])) for i, k in enumerate(keys)])


def arrow_batch(variant, rows: np.ndarray, first_hand: int, rules: dict, schema):
    """The records of a batch of kernel rows as an Arrow record batch of ``schema`` (derived columns included)."""
    import pyarrow as pa

    n = rows.shape[0]
    cols = record_columns(variant, rows, first_hand, rules)
    arrays = [to_arrow(c, n, schema.field(name).type) for name, c in cols]
    names = [name for name, _ in cols]
    for name, arr in derived_arrays(variant, rules, dict(zip(names, arrays))):
        names.append(name)
        arrays.append(arr)
    return pa.RecordBatch.from_arrays(arrays, schema=schema)


# ---------------------------------------------------------------- derived Parquet columns

MAKER_POSITION = "maker_position"
PLAYS_COUNT = "plays_count"


def derived_fields(variant, rules: dict) -> list:
    """The (name, Arrow type) of the flat columns a Parquet records file has after the record's own fields.

    ``maker_position``: the position of the maker (Hasenpfeffer: the
    bidder), 1 = dealer's left .. the dealer, null when thrown in; then one
    int column per key of each seat-keyed object of ints: ``tricks_0`` ..,
    ``points_0`` .. (Hasenpfeffer and Euchre: ``points_0``, ``points_1`` by
    side); last ``plays_count``, the number of cards played (0: thrown in).
    ``bower`` reads records without them; they are there for SQL and
    dataframes (and ``bower analyze`` reads ``plays_count`` instead of the
    plays).
    """
    import pyarrow as pa

    out = [(MAKER_POSITION, pa.int64())]
    for name, typ in variant.arrow_fields(rules):
        if pa.types.is_struct(typ) and typ.num_fields and all(pa.types.is_int64(f.type) for f in typ):
            out += [(f"{name}_{f.name}", pa.int64()) for f in typ]
    return out + [(PLAYS_COUNT, pa.int64())]


def derived_arrays(variant, rules: dict, arrays: dict) -> list:
    """The derived columns (``derived_fields``) computed from a batch's record columns (Arrow arrays by name)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    maker = arrays[variant.card_play.maker_field]
    valid = maker.is_valid().to_numpy(zero_copy_only=False)
    m = pc.fill_null(maker, 0).to_numpy(zero_copy_only=False)
    d = pc.fill_null(arrays["dealer"], 0).to_numpy(zero_copy_only=False)
    out = [(MAKER_POSITION, pa.array((m - d - 1) % variant.players + 1, type=pa.int64(),
                                     mask=None if valid.all() else ~valid))]
    for name, _ in variant.arrow_fields(rules):
        typ = arrays[name].type
        if pa.types.is_struct(typ) and typ.num_fields and all(pa.types.is_int64(f.type) for f in typ):
            out += [(f"{name}_{f.name}", pc.struct_field(arrays[name], [i])) for i, f in enumerate(typ)]
    return out + [(PLAYS_COUNT, pc.cast(pc.list_value_length(arrays["plays"]), pa.int64()))]


def derived_columns(variant, rules: dict, cols: dict) -> list:
    """The derived columns (``derived_fields``) of a batch's record columns (``columns`` kinds by name), as columns."""
    import pyarrow as pa

    maker, dealer = cols[variant.card_play.maker_field], cols["dealer"]
    valid = maker.valid
    m = maker.values if valid is None else np.where(valid, maker.values, 0)
    out = [(MAKER_POSITION, Ints((m - dealer.values - 1) % variant.players + 1, valid))]
    for name, typ in variant.arrow_fields(rules):
        if pa.types.is_struct(typ) and typ.num_fields and all(pa.types.is_int64(f.type) for f in typ):
            out += [(f"{name}_{k}", c) for k, c in cols[name].fields]
    return out + [(PLAYS_COUNT, Ints(np.diff(cols["plays"].offsets)))]


class _AtomicFile:
    """A temporary file beside ``path``, renamed onto it by ``commit`` or removed by ``abort``."""

    def __init__(self, path: str):
        self.given = path
        self.path = os.path.abspath(path)
        directory = os.path.dirname(self.path)
        if os.path.isdir(self.path):
            raise RecordsError(f"cannot write records to {path}: it is a directory")
        try:
            fd, self.tmp = tempfile.mkstemp(prefix=".bower-", suffix=".part", dir=directory)
        except OSError as e:
            raise RecordsError(f"cannot write records to {path}: {e.strerror or e}") from None
        os.close(fd)

    def fault(self, e: OSError) -> RecordsError:
        """The RecordsError of a failed write (a full disk, a quota): the file and why, one line."""
        return RecordsError(f"cannot write records to {self.given}: {os_reason(e)}")

    def commit(self):
        umask = os.umask(0)
        os.umask(umask)
        try:
            os.chmod(self.tmp, 0o666 & ~umask)
            os.replace(self.tmp, self.path)
        except OSError as e:
            raise self.fault(e) from None

    def abort(self):
        try:
            os.unlink(self.tmp)
        except FileNotFoundError:
            pass


META_KEY = "bower"  # the Parquet key-value metadata key of a records file's metadata (JSON)
META_SUFFIX = ".meta.json"  # a JSONL records file's metadata: FILE.jsonl.meta.json beside it
RECORDS_FORMAT = "bower-records"
RECORDS_FORMAT_VERSION = 1


def bower_version() -> str:
    """This bower's version (the installed package's), or "unknown" when it runs from a tree not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("bower-euchre")
    except PackageNotFoundError:
        return "unknown"


def file_meta(variant, rules: dict, meta: dict | None, derived: list | None = None) -> dict:
    """The metadata object a records file carries (see docs/guides/records.md): the run's ``meta`` over the basics.

    Always: ``format``, ``format_version``, ``bower_version``, ``variant``,
    ``rules_version``, ``rules``; then whatever the writer was given (the
    run's ``seats``, ``strategy``, ``seed``, ``first_hand``, ``hands``,
    ``command``); for Parquet, ``derived_columns`` (the flat columns after
    the record's fields).
    """
    out = {"format": RECORDS_FORMAT, "format_version": RECORDS_FORMAT_VERSION, "bower_version": bower_version(),
           "variant": variant.name, "rules_version": RULES_VERSION, "rules": dict(rules)}
    out.update(meta or {})
    if derived is not None:
        out["derived_columns"] = [name for name, _ in derived]
    return out


def sidecar_path(path: str) -> str:
    """Where a JSONL records file's metadata lives: ``PATH.meta.json``."""
    return str(path) + META_SUFFIX


def _keep_copy(path: str) -> str | None:
    """A hidden hard link (or copy) of ``path`` beside it, to put back if a replacement fails; None if none."""
    if not os.path.isfile(path):
        return None
    fd, keep = tempfile.mkstemp(prefix=".bower-", suffix=".part", dir=os.path.dirname(path))
    os.close(fd)
    try:
        os.unlink(keep)
        os.link(path, keep)
    except OSError:
        import shutil

        try:
            shutil.copy2(path, keep)
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(keep)
            return None
    return keep


class JsonlWriter:
    """Streams records as JSON lines (unbuffered: a failed write fails at once, nothing is left to flush).

    ``close`` writes the metadata sidecar ``FILE.meta.json`` (``file_meta``)
    and renames it, then the records file, into place; a failure leaves
    neither (the records file's old version, if any, stays as it was).
    """

    def __init__(self, path: str, variant, rules: dict, meta: dict | None = None):
        self.variant, self.rules = variant, rules
        self.meta = file_meta(variant, rules, meta)
        self.columnar = has_columns(variant)
        if os.path.isdir(sidecar_path(path)):  # found now, not after the run
            raise RecordsError(f"cannot write records to {path}: its metadata file {sidecar_path(path)} is a directory")
        self.file = _AtomicFile(path)
        try:
            self.fh = open(self.file.tmp, "wb", buffering=0)
        except OSError as e:
            self.file.abort()
            raise self.file.fault(e) from None

    def _put(self, data) -> None:
        data = memoryview(data)
        try:
            while data:
                data = data[self.fh.write(data):]
        except OSError as e:
            raise self.file.fault(e) from None

    def prepare(self, first_hand: int, records: np.ndarray):
        """The JSON lines of a batch of kernel rows (any thread may prepare; ``put`` them in order)."""
        if self.columnar:
            return json_lines(record_columns(self.variant, records, first_hand, self.rules), records.shape[0])
        dicts = to_dicts(records, first_hand, self.variant, self.rules)
        with gc_paused():
            return "".join(json.dumps(d, separators=(",", ":")) + "\n" for d in dicts).encode("utf-8")

    def put(self, data) -> None:
        """Append a prepared batch."""
        self._put(data)

    def write(self, first_hand: int, records: np.ndarray) -> None:
        """Append the records of a batch of kernel rows."""
        self.put(self.prepare(first_hand, records))

    def write_dicts(self, dicts: list[dict]) -> None:
        """Append record dicts as they are."""
        with gc_paused():
            self._put("".join(json.dumps(d, separators=(",", ":")) + "\n" for d in dicts).encode("utf-8"))

    def close(self) -> None:
        """Finish the file, write its sidecar, and give both their names (the sidecar first)."""
        try:
            self.fh.close()
        except OSError as e:
            raise self.file.fault(e) from None
        side = _AtomicFile(sidecar_path(self.file.given))
        try:
            with open(side.tmp, "w", encoding="utf-8") as fh:
                fh.write(json.dumps(self.meta, indent=2) + "\n")
        except OSError as e:
            side.abort()
            raise self.file.fault(e) from None
        backup = _keep_copy(side.path)
        try:
            side.commit()
            self.file.commit()
        except BaseException:
            side.abort()
            with contextlib.suppress(OSError):
                if backup is not None:
                    os.replace(backup, side.path)  # the old file's sidecar back with it
                else:
                    os.unlink(side.path)
            raise
        finally:
            if backup is not None:
                with contextlib.suppress(OSError):
                    os.unlink(backup)

    def abort(self) -> None:
        """Drop the partial file."""
        try:
            self.fh.close()
        except OSError:
            pass
        self.file.abort()


def _dictionary_type(typ):
    """``typ`` with every string leaf as a dictionary of int8 codes (how the columnar writer hands strings over)."""
    import pyarrow as pa

    if pa.types.is_string(typ):
        return pa.dictionary(pa.int8(), pa.string())
    if pa.types.is_list(typ):
        return pa.list_(_dictionary_type(typ.value_type))
    if pa.types.is_struct(typ):
        return pa.struct([pa.field(f.name, _dictionary_type(f.type)) for f in typ])
    return typ


def _leaf_paths(name: str, typ) -> list[str]:
    """The Parquet column paths of a field's leaves (``deal.0.list.element``)."""
    import pyarrow as pa

    if pa.types.is_struct(typ):
        return [p for f in typ for p in _leaf_paths(f"{name}.{f.name}", f.type)]
    if pa.types.is_list(typ):
        return _leaf_paths(f"{name}.list.element", typ.value_type)
    return [name]


class ParquetWriter:
    """Streams records into a Parquet file, one row group per batch.

    Parquet lists hold one type, so ``calls`` and ``plays`` pairs are stored as
    ``[seat, value]`` string pairs (``["0", "moon"]``); ``bower`` reads them
    back as ints where the JSON form has ints. After the record's fields come
    the derived flat columns (``derived_fields``), and the file's key-value
    metadata ``bower`` holds ``file_meta`` as JSON.

    Batches of kernel rows (``write``, or ``prepare`` on any thread and
    ``put`` in order) are encoded straight from their columns by
    ``bower.sim.records_parquet``, without pyarrow's writer (which encodes
    on one thread, at a third of the speed). Record dicts (``write_dicts``,
    ``bower solve``'s), fields beyond the variant's own (``extra``) and a
    variant without columns go through pyarrow's writer, the variant's
    strings handed over as dictionary codes. Either way the file holds the
    same schema (plain strings: no Arrow schema is stored) and the same
    values; statistics are written for ``hand`` only.
    """

    def __init__(self, path: str, variant, rules: dict, extra: list | None = None, meta: dict | None = None,
                 direct: bool = True):
        import pyarrow as pa

        self.variant, self.rules = variant, rules
        self.columnar = has_columns(variant)
        derived = derived_fields(variant, rules)
        self.meta = file_meta(variant, rules, meta, derived)
        own = {name for name, _ in variant.arrow_fields(rules)}
        plain = list(parquet_schema(variant, rules)) + [pa.field(n, t) for n, t in extra or []]
        self.record_schema = pa.schema(plain)
        self.file_schema = pa.schema(plain + [pa.field(n, t) for n, t in derived])
        self.schema = pa.schema([pa.field(f.name, _dictionary_type(f.type)) if f.name in own else f for f in plain]
                                + [pa.field(n, t) for n, t in derived])
        self.direct = direct and self.columnar and not extra  # (direct=False: pyarrow's writer, the tests' twin)
        self.writer = self.fh = None
        self.file = _AtomicFile(path)
        try:
            if self.direct:
                from bower.sim import records_parquet

                self.layout = records_parquet.Layout(self.file_schema)
                self.fh = open(self.file.tmp, "wb", buffering=0)
                self.groups, self.rows, self.pos = [], 0, 0
                self._write(b"PAR1")
            else:
                self._open_arrow()
        except RecordsError:
            self.abort()
            raise
        except OSError as e:
            self.abort()
            raise self.file.fault(e) from None
        except BaseException:
            self.abort()
            raise

    def _open_arrow(self) -> None:
        import pyarrow.parquet as pq

        stats = ["hand"]  # (row groups found by hand number; statistics on every int column cost 20% more time)
        dictionary = [p for f in self.schema if f.name != "hand" for p in _leaf_paths(f.name, f.type)]
        self.writer = pq.ParquetWriter(self.file.tmp, self.schema, store_schema=False, write_statistics=stats,
                                       use_dictionary=dictionary)

    def _write(self, data) -> None:
        """Append bytes to the file (the direct encoding's)."""
        data = memoryview(data)
        self.pos += len(data)
        try:
            while data:
                data = data[self.fh.write(data):]
        except OSError as e:
            raise self.file.fault(e) from None

    def _put(self, batch) -> None:
        try:
            self.writer.write_batch(batch)
        except OSError as e:
            raise self.file.fault(e) from None

    def prepare(self, first_hand: int, records: np.ndarray):
        """The encoded row group of a batch of kernel rows (any thread may prepare; ``put`` them in order)."""
        if self.direct:
            from bower.sim import records_parquet

            n = records.shape[0]
            if n == 0:
                return None
            cols = record_columns(self.variant, records, first_hand, self.rules)
            cols += derived_columns(self.variant, self.rules, dict(cols))
            return records_parquet.encode_row_group(self.layout, cols, n)
        if self.columnar:
            return arrow_batch(self.variant, records, first_hand, self.rules, self.schema)
        return self._dict_batch(to_dicts(records, first_hand, self.variant, self.rules))

    def put(self, batch) -> None:
        """Append a prepared batch as one row group."""
        if batch is None:
            return
        if self.direct:
            offset = self.pos
            self._write(batch.data)
            self.groups.append(batch.meta(offset, len(self.groups)))
            self.rows += batch.num_rows
            return
        self._put(batch)

    def write(self, first_hand: int, records: np.ndarray) -> None:
        """Append the records of a batch of kernel rows as one row group."""
        self.put(self.prepare(first_hand, records))

    def _dict_batch(self, dicts: list[dict]):
        """Record dicts in the JSON form as one record batch of the file's schema."""
        import pyarrow as pa

        with gc_paused():
            rows = [dict(d, calls=[[str(a), b] for a, b in d["calls"]], plays=[[str(a), b] for a, b in d["plays"]])
                    for d in dicts]
            table = pa.Table.from_pylist(rows, schema=self.record_schema)
        arrays = {name: table.column(name) for name in table.column_names}
        for name, arr in derived_arrays(self.variant, self.rules, arrays):
            table = table.append_column(name, arr)
        batches = table.cast(self.schema).combine_chunks().to_batches()
        return batches[0] if batches and table.num_rows else None

    def write_dicts(self, dicts: list[dict]) -> None:
        """Append record dicts in the JSON form as one row group (a file is written from dicts or from rows)."""
        if self.direct:
            if self.groups:
                raise RuntimeError("a records file is written from kernel rows or from dicts, not both")
            self.fh.close()
            self.fh, self.direct = None, False
            try:
                self._open_arrow()
            except OSError as e:
                raise self.file.fault(e) from None
        batch = self._dict_batch(dicts)
        if batch is not None:
            self._put(batch)

    def close(self) -> None:
        """Finish the file (its metadata last) and give it its name."""
        if self.direct:
            from bower.sim import records_parquet

            self._write(records_parquet.footer(self.layout, self.groups, self.rows, {META_KEY: json.dumps(self.meta)}))
            try:
                self.fh.close()
            except OSError as e:
                raise self.file.fault(e) from None
        else:
            try:
                self.writer.add_key_value_metadata({META_KEY: json.dumps(self.meta)})
                self.writer.close()
            except OSError as e:
                raise self.file.fault(e) from None
        self.file.commit()

    def abort(self) -> None:
        """Drop the partial file."""
        try:
            if self.writer is not None:
                self.writer.close()
            if self.fh is not None:
                self.fh.close()
        except Exception:  # a full disk again: the file goes anyway
            pass
        finally:
            self.file.abort()


class BackgroundWriter:
    """A writer whose batches are prepared on worker threads and written, in order, on a thread of their own.

    The kernels (which run without the GIL) play the next batches meanwhile.
    ``inner`` has ``prepare(first_hand, rows)`` (pure: any thread) and
    ``put(prepared)`` (in hand order). At most ``depth`` batches are in
    hand; a failure on a thread is raised by the next ``write`` or by
    ``close``. ``abort`` waits for the batches being worked on and drops the
    file.
    """

    def __init__(self, inner, workers: int = 1, depth: int | None = None):
        import queue
        import threading
        from concurrent.futures import ThreadPoolExecutor

        self.inner = inner
        self.pool = ThreadPoolExecutor(max_workers=max(1, workers), thread_name_prefix="bower-records-prepare")
        self.queue = queue.Queue(maxsize=depth or max(2, 2 * workers))
        self.error: BaseException | None = None
        self.stopping = False
        self.thread = threading.Thread(target=self._run, name="bower-records-write", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while True:
            item = self.queue.get()
            if item is None:
                return
            try:
                prepared = item.result()
                if self.error is None and not self.stopping:
                    self.inner.put(prepared)
            except BaseException as e:  # handed to the main thread
                if self.error is None:
                    self.error = e

    def _check(self) -> None:
        if self.error is not None:
            raise self.error

    def write(self, first_hand: int, records: np.ndarray) -> None:
        """Queue a batch of kernel rows (the array is the writer's from now on)."""
        self._check()
        self.queue.put(self.pool.submit(self.inner.prepare, first_hand, records))

    def _finish(self) -> None:
        if self.thread.is_alive():
            self.queue.put(None)
            self.thread.join()
        self.pool.shutdown(wait=True)

    def close(self) -> None:
        """Write what is queued, then finish the file; the first failure is raised."""
        self._finish()
        self._check()
        self.inner.close()

    def abort(self) -> None:
        """Stop (the batches being worked on finish first) and drop the partial file."""
        self.stopping = True
        self._finish()
        self.inner.abort()


def open_writer(path: str, variant, rules: dict, extra: list | None = None, meta: dict | None = None):
    """A streaming writer for ``path`` chosen by its extension (``.jsonl`` or ``.parquet``).

    ``extra``: (name, Arrow type) of fields added after the variant's own (Parquet only needs them).
    ``meta``: what the file's metadata says of the run that made it (``file_meta``).
    """
    lower = str(path).lower()
    own = own_format(path)
    if own is not None:  # a variant's own format (``Variant.file_formats``: Standard Euchre's .egn)
        return own.Writer(path, variant, rules, meta)
    if lower.endswith(".jsonl"):
        return JsonlWriter(path, variant, rules, meta)
    if lower.endswith(".parquet"):
        return ParquetWriter(path, variant, rules, extra, meta)
    raise RecordsError(f"records file {path} must end in .jsonl or .parquet")


def own_format(path):
    """The module of a variant's own records format for ``path``'s extension (``Variant.file_formats``: Standard
    Euchre's ``.egn``), or None (``.jsonl``, ``.parquet`` and any other: those readers name the fault)."""
    import importlib

    ext = os.path.splitext(str(path))[1].lower()
    if ext in ("", ".jsonl", ".parquet"):
        return None
    from bower.sim.variants import all_variants

    for v in all_variants():
        if ext in v.file_formats:
            return importlib.import_module(v.file_formats[ext])
    return None


def read_meta(path: str) -> dict | None:
    """The metadata a records file carries (``file_meta``), or None when it has none (files of older bowers).

    Parquet: the ``bower`` key-value metadata; JSONL: the sidecar
    ``FILE.meta.json``. RecordsError when it is there but not a JSON object.
    """
    if str(path).lower().endswith(".parquet"):
        import pyarrow.parquet as pq

        try:
            kv = pq.ParquetFile(path).metadata.metadata or {}
        except (OSError, ValueError) as e:
            if isinstance(e, FileNotFoundError):
                raise RecordsError(f"no records file {path}") from None
            raise RecordsError(f"cannot read records from {path}: {str(e).splitlines()[0]}") from None
        raw, where = kv.get(META_KEY.encode()), f"{path}: its '{META_KEY}' metadata"
    else:
        side = sidecar_path(path)
        try:
            with open(side, "rb") as fh:
                raw = fh.read()
        except FileNotFoundError:
            return None
        except OSError as e:
            raise RecordsError(f"cannot read {side}: {os_reason(e)}") from None
        where = side
    if raw is None:
        return None
    try:
        meta = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError):
        raise RecordsError(f"{where} is not JSON") from None
    if not isinstance(meta, dict):
        raise RecordsError(f"{where} is not a JSON object")
    return meta


def _record_columns(path: str) -> list[str] | None:
    """The columns of a Parquet records file that are the record's fields (None: all of them)."""
    meta = read_meta(path)
    derived = (meta or {}).get("derived_columns")
    if not isinstance(derived, list):
        return None
    import pyarrow.parquet as pq

    return [n for n in pq.ParquetFile(path).schema_arrow.names if n not in set(derived)]


def _columns_to_read(path: str) -> list[str] | None:
    """The columns to read of a records file: a Parquet file's record fields (its derived columns left), else None."""
    return _record_columns(path) if str(path).lower().endswith(".parquet") else None


def read_records(path: str) -> list[dict]:
    """Records of a ``.jsonl`` or ``.parquet`` file as dicts in the JSON form, read but not checked.

    The reading is ``bower.sim.records_check.iter_file`` (RecordsError or
    RecordError for a file or line that cannot be read).
    """
    from bower.sim.records_check import iter_file

    own = own_format(path)
    if own is not None:
        return [r for r, _ in own.items(path)]
    return [r for r, _ in iter_file(path, _columns_to_read(path))]


def read_records_checked(path: str) -> list[dict]:
    """``read_records`` with every record checked (``bower.sim.records_check``): one line naming record and field."""
    return [r for batch in iter_record_batches(path) for r in batch]


def iter_record_batches(path: str, batch: int = 4096):
    """Yield the records of a ``.jsonl`` or ``.parquet`` file in lists of up to ``batch``, without reading it whole.

    Each record is checked in full by ``bower.sim.records_check``
    (``checked_batches``): the format, a known variant (one per file), the
    fields its records carry and their types, the seats, the cards, complete
    plays; the first fault is one line naming the file, the record, the
    field and the reason (RecordsError / RecordError, exit 2).
    """
    from bower.sim.records_check import check_path, checked, checked_batches

    own = own_format(path)
    if own is not None:  # a variant's own format's records (``own_format``), checked as any
        recs = [r for r, _ in checked(own.items(path))]
        yield from (recs[i:i + batch] for i in range(0, len(recs), batch))
        return
    check_path(path)
    yield from checked_batches(path, batch, columns=_columns_to_read(path))


def check_records_file(path: str) -> None:
    """Check every record of a ``.jsonl`` or ``.parquet`` records file in full, streaming, keeping nothing.

    The check every reader shares (``bower.sim.records_check``), as
    ``iter_record_batches`` makes it: a Parquet file column-wise
    (``check_parquet_file``), a JSONL file in bulk (``records_check.check_jsonl``: blocks of lines read into Arrow
    and checked column-wise, any block it cannot pass line by line). The first fault
    is one line naming the file, the record (and its line), the field and
    the reason (RecordsError / RecordError, exit 2). Used by the readers that
    do not keep the records (``bower analyze`` reads only the columns of its
    tables, then this check reads the rest: every play of every record).
    """
    from bower.sim.records_check import check_jsonl, check_path

    if own_format(path) is None:
        if check_path(path):
            check_parquet_file(path)
        else:
            check_jsonl(path)
        return
    for _ in iter_record_batches(path, 4096):
        pass


def _batch_checked(name) -> bool:
    """Whether the variant a file's metadata names has its batches checked whole (``Variant.records_batch_check``:
    its strings are then read as dictionaries); False for an unknown or missing name."""
    from bower.sim.variants import get_variant

    try:
        return isinstance(name, str) and get_variant(name).records_batch_check
    except UserError:
        return False


def check_parquet_file(path: str, whole: bool = False):
    """Check every record of a ``.parquet`` records file as ``iter_record_batches`` does, column-wise and streaming.

    ``whole``: read the file once, whole, and return it as a pyarrow Table
    (all its columns, of the file's own Arrow types) once checked; else read
    it batch by batch (None). The strings of Ghost Hand records written by
    ``records_parquet`` (one dictionary a column, the same in every row
    group) are read as dictionaries, as the file stores them (the check
    looks at their codes); read whole, such a file goes row group by row
    group (``_whole_by_row_group``): the next one read ahead on a thread, each
    checked one made plain strings on another, so reading, checking and
    casting overlap and only a row group or two is ever held twice (as
    dictionaries and as strings).
    """
    import pyarrow.parquet as pq

    from bower.sim.records_check import check_parquet, iter_file, read_batches
    from bower.sim.records_parquet import CREATED_BY

    columns = _record_columns(path)
    try:
        pf = pq.ParquetFile(path)
        schema = pf.schema_arrow
        strings = None  # strings as dictionaries: Ghost Hand records (records_vector checks their batches whole)
        if _batch_checked((read_meta(path) or {}).get("variant")) and pf.metadata.created_by == CREATED_BY:
            strings = [c.path for c in pf.schema if c.physical_type == "BYTE_ARRAY"]
        if whole and strings is None:
            table = pq.read_table(path)
            batches = table.select(columns or table.column_names).to_batches()
        elif not whole:
            table = None
            batches = read_batches(path, pq.ParquetFile(path, read_dictionary=strings).iter_batches(
                batch_size=32768, columns=columns))
        else:
            pf = pq.ParquetFile(path, read_dictionary=strings)
    except (OSError, ValueError):  # a file that cannot be read: iter_file says why, as every reader
        next(iter_file(path, columns))
        raise
    if whole and strings is not None:
        return _whole_by_row_group(path, pf, schema, columns)
    check_parquet(path, batches)
    return table




def _whole_by_row_group(path: str, pf, schema, columns: list[str] | None):
    """A Parquet records file read (strings as dictionaries) row group by row group, checked, as one Table of
    ``schema`` (plain strings).

    One thread reads row group i + 1 while the records of row group i are
    checked (``check_parquet``, in this thread); once checked, another
    thread casts it to ``schema`` and its dictionaries are let go. (Arrow's
    reads and casts run without the GIL.) A row group that cannot be read:
    RecordsError, one line (``cannot read records from PATH: ...``).
    """
    import concurrent.futures

    import pyarrow as pa

    from bower.sim.records_check import check_parquet

    groups = pf.metadata.num_row_groups
    reader = concurrent.futures.ThreadPoolExecutor(1)
    caster = concurrent.futures.ThreadPoolExecutor(1)
    casts: list = []

    def read(i: int):
        return pf.read_row_group(i)

    def plain(t):
        return t.cast(schema)

    def batches():
        ahead = reader.submit(read, 0) if groups else None
        for i in range(groups):
            try:
                group = ahead.result()
            except (OSError, ValueError) as e:  # a damaged row group (a page that does not decompress...)
                raise RecordsError(f"cannot read records from {path}: {str(e).splitlines()[0]}") from None
            ahead = reader.submit(read, i + 1) if i + 1 < groups else None
            yield from group.select(columns or group.column_names).to_batches()
            casts.append(caster.submit(plain, group))  # checked: its plain copy made while the next is checked
            del group

    try:
        check_parquet(path, batches())
        tables = [f.result() for f in casts]
    finally:
        reader.shutdown(wait=True, cancel_futures=True)
        caster.shutdown(wait=True, cancel_futures=True)
    return pa.concat_tables(tables) if tables else schema.empty_table()


# ---- the auction's check of the up-card variants (Euchre, Cutthroat: ``bower.sim.records_check.auction_verdict``)

_UP_SUIT = {CARD_NAMES[c]: c // 6 for c in range(24)}  # an up-card's suit by its name as records write it
_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}


def upcard_auction_extra(rec: dict, rules: dict) -> tuple:
    """What the auction's check of an up-card variant needs of a record beside its dealer and calls: (the
    up-card's suit, the maker, the trump suit), each -1 when not given (a variant's ``auction_extra``)."""
    up, maker, trump = rec.get("upcard"), rec.get("maker"), rec.get("trump")
    suit = _UP_SUIT.get(up, -2) if type(up) is str else -1
    if suit == -2:  # (another spelling of a card: ``10H``, ``jh``)
        from bower.sim.records_check import _card

        card = _card(up)
        suit = -1 if card is None else card // 6
    return suit, -1 if maker is None else int(maker), _SUIT_INDEX.get(trump, -1) if type(trump) is str else -1


def batch_upcard_auction_extra(b):
    """``upcard_auction_extra`` of every record of a ``records_vector.Batch``, as int64 arrays (None: not read
    here; a variant's ``batch_auction_extra``)."""
    from bower.sim.records_vector import token_codes

    up = b.cards.get("upcard")
    trump = token_codes(b.col("trump"), SUITS)
    if up is None or trump is None:
        return None
    return [np.where(up >= 0, up // 6, -1), np.where(b.played, b.maker, -1), trump]


def upcard_calls_fault(g, variant, dealer: int, calls: tuple, extra: tuple, rules: dict, accept: int,
                       accept_word) -> str | None:
    """What is wrong with an up-card variant's auction (a variant's ``calls_fault``), replayed through its game
    API module ``g`` (``Game``, ``DECK``, ``PLAYERS``, ``PASS``, ``NAME``, ``AUCTION``): a call out of turn,
    after the auction, not allowed at its turn (a round-one acceptance in round two, the up-card's suit named, a
    stuck dealer's pass), calls that stop before the auction ends, a maker or trump not the calls'. ``extra``:
    ``upcard_auction_extra``'s; ``accept``: the game's action of a round-one acceptance, ``accept_word(state)``
    its name at the state's turn. None when the up-card is not given (the auction cannot be followed)."""
    from bower.sim.records_check import replay_auction

    up_suit, maker, trump = extra
    if up_suit < 0:
        return None
    state = g.Game(variant, rules).new_initial_state()
    state.apply_action(dealer)
    up = up_suit * 6
    others = [c for c in range(g.DECK) if c != up]
    for c in others[:20] + [up] + others[20:]:
        state.apply_action(c)

    def action(st, name):
        if name == "pass":
            return g.PASS
        if name in SUITS:
            return g.NAME + SUITS.index(name)
        return accept if name == accept_word(st) else None

    def word(st, a):
        return "pass" if a == g.PASS else accept_word(st) if a == accept else SUITS[a - g.NAME]

    def context(st):
        where = "in round one" if len(st.calls) < g.PLAYERS else "in round two"
        if len(st.calls) == 2 * g.PLAYERS - 1 and st.game.stick:
            where += ", the dealer stuck (stick_the_dealer)"
        return where

    bad = replay_auction(state, calls, lambda st: st.phase == g.AUCTION, action, word, context)
    if bad is not None:
        return bad
    if state.maker != maker:
        return (f"field 'maker' is {'null' if maker < 0 else maker}, but the calls "
                + (f"make seat {state.maker} the maker" if state.maker >= 0 else "throw the hand in"))
    if state.maker >= 0 and state.trump != trump:
        return (f"field 'trump' is {SUITS[trump] if trump >= 0 else 'null'}, but the calls make "
                f"{SUITS[state.trump]} trump")
    return None
