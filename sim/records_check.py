"""The one validation layer for records read from files, shared by replay, solve, analyze and ``read_records``.

Reading (``iter_file``): a ``.jsonl`` or ``.parquet`` file record by
record, as dicts in the JSON form (Parquet's ``["0", "JH"]`` pairs become
``[0, "JH"]``). The file must exist, be of its format, hold at least one
record; each JSONL line must be UTF-8, JSON (nested at most ``MAX_DEPTH``
deep) and an object.

Checking (``check_record``, ``check_play``): a record must be of a known
variant (the file's first record's: one variant per file), hold the fields
the reader needs, each of the type its records carry (the variant's Arrow
fields: a number where a number goes, a list of card names where cards go),
a seat where a seat goes (``0`` .. seats less one: not ``1e400``, ``"²"``
or ``true``), a card where a card goes (of the variant's deck), rule
options the rules allow, ``tricks`` and ``points`` keyed by seat (or
side); its maker field is null (the hand was thrown in, and then it has no
plays) or a seat, and the plays of a hand played are complete: every seat in
play plays its whole hand, in turn (``bower.sim.replay`` then follows the
tricks). A ``deal``, when given, must hold the cards played. A card field is
null only when the record lists it in ``unknown`` (``check_unknown``: a real
game's transcript that does not give the kitty).

Every fault is a ``RecordError`` (exit 2 on the command line,
``bower.BowerError`` in the library) of one line naming the file, the record
(its index from 0, and its line in a JSONL file), the field and the reason:
``FILE: record 3 (line 4): field 'dealer' is '²', not a seat (0..3)``.
"""

from __future__ import annotations

import json
import math
import re
import sys

from bower.sim.cards import JOKER, SUITS, CardError, card_str, parse_card
from bower.sim.errors import UserError, not_a_file
from bower.sim.text import WrittenFloat

MAX_DEPTH = 32  # JSON nesting a record may have (a record needs 4: plays -> pair -> value)
SEAT_TEXT = re.compile(r"[0-9]{1,2}")  # a seat written as a string: ASCII digits only ("²" is not one)
INT_TEXT = re.compile(r"-?[0-9]{1,18}")  # a number written as a string, likewise
CARD_FIELDS = frozenset({"deal", "kitty", "upcard", "discard", "discards", "dummy", "widow", "passed",
                         "loner_discard"})  # card names only


class RecordError(UserError, ValueError):
    """A record that cannot be read or is not what its fields must hold: one line naming file, record and field."""


def label(path, index: int, line: int | None = None) -> str:
    """How a message names a record: ``FILE: record N`` (from 0), `` (line L)`` in a JSONL file."""
    return f"{path}: record {index}" + (f" (line {line})" if line is not None else "")


# ---- reading -------------------------------------------------------------------------------------


def _records_error(msg: str):
    from bower.sim.records import RecordsError

    return RecordsError(msg)


def _depth_ok(value, limit: int = MAX_DEPTH) -> bool:
    """Whether a parsed JSON value is nested at most ``limit`` deep."""
    level, depth = [value] if isinstance(value, (dict, list)) else [], 1  # the containers at ``depth``, level by level
    while level:
        if depth > limit:
            return False
        level = [y for x in level for y in (x.values() if isinstance(x, dict) else x) if isinstance(y, (dict, list))]
        depth += 1
    return True


_NOT_BRACKETS = bytes(range(256)).translate(None, b"[]{}")
_SQUARE = bytes.maketrans(b"{}", b"[]")


def _text_depth_ok(raw: bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether a JSON line is certainly nested at most ``limit`` deep, from its text (quick; False: walk it).

    Without a backslash every ``"`` delimits a string, so the brackets outside
    strings are the structure: each round of removing ``[]`` peels one level.
    """
    if b"\\" in raw:
        return False
    brackets = b"".join(raw.split(b'"')[::2]).translate(_SQUARE, _NOT_BRACKETS)
    for _ in range(limit):
        if not brackets:
            return True
        brackets = brackets.replace(b"[]", b"")
    return not brackets


def _json_float(text: str) -> float:
    x = float(text)
    return WrittenFloat(text) if math.isinf(x) else x


def parse_line(raw: bytes, where: str, first: bool = False) -> dict:
    """One JSONL line (bytes) as a record dict; RecordError (naming ``where``) if it is not UTF-8, JSON or an object."""
    try:
        text = raw.decode("utf-8-sig" if first else "utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{where} is not UTF-8 text") from None
    try:
        rec = json.loads(text, parse_float=_json_float)
    except RecursionError:
        raise RecordError(f"{where} is nested too deeply (more than {MAX_DEPTH} levels)") from None
    except ValueError as e:
        if not hasattr(e, "colno"):  # Python's limit on the digits of a whole number, not a fault of the JSON
            raise RecordError(f"{where} holds a whole number of more than {sys.get_int_max_str_digits():,} digits "
                              "(no field holds one so long)") from None
        raise RecordError(f"{where} is not JSON ({e.msg}, column {e.colno})") from None
    if not isinstance(rec, dict):
        raise RecordError(f"{where} is not a JSON object")
    if not _text_depth_ok(raw) and not _depth_ok(rec):
        raise RecordError(f"{where} is nested too deeply (more than {MAX_DEPTH} levels)")
    return rec


_SEATS = {t: int(t) for t in [str(i) for i in range(100)] + [f"0{i}" for i in range(10)]}  # the texts SEAT_TEXT takes


def _from_parquet(rec: dict) -> dict:
    """A Parquet row in the JSON form: ``calls`` and ``plays`` pairs with int seats (left as they are if malformed)."""
    for name in ("calls", "plays"):
        pairs = rec.get(name)
        if isinstance(pairs, list):
            rec[name] = [[_SEATS[p[0]], p[1]] if isinstance(p, list) and len(p) == 2 and isinstance(p[0], str)
                         and p[0] in _SEATS else p for p in pairs]
    return rec


def check_input(path) -> None:
    """RecordsError when ``path`` is there but is a FIFO, a socket or a device (``errors.not_a_file``), not a file:
    records are read more than once (checked whole, then read for their tables or replayed), and the open of a
    FIFO no program writes to waits for a writer without end, so such an input is refused, not opened."""
    kind = not_a_file(path)
    if kind is not None:
        raise _records_error(f"cannot read records from {path}: it is {kind}, not a file "
                             "(records are read more than once; save them to a file first)")


def check_path(path) -> bool:
    """Whether ``path`` is Parquet (else JSONL); RecordsError for another extension, or for a path that is a
    FIFO, a socket or a device (``check_input``)."""
    lower = str(path).lower()
    if not lower.endswith((".jsonl", ".parquet")):
        raise _records_error(f"records file {path} must end in .jsonl or .parquet")
    check_input(path)
    return lower.endswith(".parquet")


def read_batches(path: str, batches):
    """The batches of an iterator over a Parquet file's record batches, a damaged one a RecordsError of one line
    (``cannot read records from PATH: Corrupt snappy compressed data.``) rather than pyarrow's OSError."""
    it = iter(batches)
    while True:
        try:
            batch = next(it, None)
        except (OSError, ValueError) as e:
            raise _records_error(f"cannot read records from {path}: {str(e).splitlines()[0]}") from None
        if batch is None:
            return
        yield batch


def iter_file(path, columns=None):
    """Yield ``(record, where)`` for each record of a ``.jsonl`` or ``.parquet`` file, streaming (not checked yet).

    ``where`` names the record in messages (``label``). RecordsError for a
    file that is missing, a directory, unreadable, not Parquet, or holds no
    records; RecordError for a line that is not UTF-8, JSON or an object.
    ``columns``: the Parquet columns to read (None: all).
    """
    parquet = check_path(path)
    n = 0
    try:
        if parquet:
            import pyarrow.parquet as pq

            try:
                batches = pq.ParquetFile(path).iter_batches(batch_size=4096, columns=columns)
            except FileNotFoundError:
                raise
            except (OSError, ValueError) as e:  # pyarrow's errors for a file that is not Parquet
                raise _records_error(f"cannot read records from {path}: {str(e).splitlines()[0]}") from None
            for batch in read_batches(path, batches):
                for rec in batch.to_pylist():
                    yield _from_parquet(rec), label(path, n)
                    n += 1
        else:
            with open(path, "rb") as fh:
                for lineno, raw in enumerate(fh, 1):
                    if not raw.strip():
                        continue
                    where = label(path, n, lineno)
                    yield parse_line(raw, where, lineno == 1), where
                    n += 1
    except FileNotFoundError:
        raise _records_error(f"no records file {path}") from None
    except IsADirectoryError:
        raise _records_error(f"cannot read records from {path}: it is a directory") from None
    except OSError as e:
        if isinstance(e, UserError):
            raise
        raise _records_error(f"cannot read records from {path}: {e.strerror or e}") from None
    if n == 0:
        raise _records_error(f"{path} holds no records")


# ---- one record ----------------------------------------------------------------------------------


_SEAT_STRINGS = {str(i): i for i in range(100)}  # a seat's string as written, "0" .. "99" (``seat``'s quick path)


def seat(value, n: int):
    """``value`` as a seat 0..n-1 (an int, or its ASCII digits as a string), else None."""
    if type(value) is int:
        return value if 0 <= value < n else None
    if type(value) is str and value in _SEAT_STRINGS:  # (as written: the test below gives the same)
        value = _SEAT_STRINGS[value]
        return value if value < n else None
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and SEAT_TEXT.fullmatch(value.strip()):
        value = int(value)
    if isinstance(value, int) and 0 <= value < n:
        return value
    return None


def field(rec: dict, name: str, where: str):
    """``rec[name]``; RecordError naming ``where`` when the record has no such field."""
    if name not in rec:
        raise RecordError(f"{where}: missing field {name!r}")
    return rec[name]


def variant_part(call, where: str, *args, deal_fields=()):
    """A variant's ``check`` / ``held`` / ``in_play`` with its KeyError, ValueError and TypeError as RecordError."""
    try:
        return call(*args)
    except KeyError as e:
        name = e.args[0]
        hint = " (needed with 'deal'; without 'deal' the hands are the cards played)" if name in deal_fields else ""
        raise RecordError(f"{where}: missing field {name!r}{hint}") from None
    except (ValueError, TypeError) as e:
        raise RecordError(f"{where}: {e}") from None


def _shown(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


_CARDS = {card_str(c): c for c in range(25)}  # the records' own spelling, looked up before parsing


def _card(text: str) -> int | None:
    """The card of a name (any notation ``parse_card`` takes), or None."""
    c = _CARDS.get(text)
    if c is None:
        try:
            c = parse_card(text)
        except CardError:
            return None
    return c


def _spec(typ):
    """An Arrow type as a small tuple ``_type_error`` walks quickly: ("int",), ("bool",), ("str",), ("list", item),
    ("struct", {key: spec})."""
    import pyarrow as pa

    if pa.types.is_integer(typ):
        return ("int",)
    if pa.types.is_boolean(typ):
        return ("bool",)
    if pa.types.is_list(typ):
        return ("list", _spec(typ.value_type))
    if pa.types.is_struct(typ):
        return ("struct", {typ.field(j).name: _spec(typ.field(j).type) for j in range(typ.num_fields)})
    return ("str",)


_SPECS: dict = {}
_RULES: dict = {}  # the rules a record's options resolve to, by variant and options (records of a file share them)


def _specs(variant, rules: dict) -> list:
    """(name, spec) of the variant's fields after the common ones, under ``rules`` (kept per variant and rules)."""
    key = (variant.name, tuple(sorted((k, repr(x)) for k, x in rules.items())))
    if key not in _SPECS:
        _SPECS[key] = [(name, _spec(typ)) for name, typ in variant.arrow_fields(rules)]
    return _SPECS[key]


def _type_error(where: str, name: str, value, spec, cards: bool, joker: bool):
    """The message for ``value`` at field ``name`` against its ``_spec``, or None when it fits."""
    kind = spec[0]
    if value is None:
        if kind in ("list", "struct"):
            return f"{where}: field {name!r} is null, not {'a list' if kind == 'list' else 'an object'}"
        return None
    if kind == "str":
        if type(value) is not str:
            what = "a card" if cards else "a suit (C S D H)" if name == "trump" else "a string"
            return f"{where}: field {name!r} is {_shown(value)}, not {what}"
        if cards:
            card = _card(value)
            if card is None:
                return f"{where}: field {name!r} is {_shown(value)}, not a card"
            if card == JOKER and not joker:
                return f"{where}: field {name!r} is the joker, not in this variant's deck"
    elif kind == "list":
        if type(value) is not list:
            return f"{where}: field {name!r} is {_shown(value)}, not a list"
        item = spec[1]
        for k, x in enumerate(value):
            bad = _type_error(where, f"{name}[{k}]", x, item, cards, joker)
            if bad:
                return bad
    elif kind == "struct":
        if type(value) is not dict:
            return f"{where}: field {name!r} is {_shown(value)}, not an object"
        fields = spec[1]
        for k, x in value.items():
            sub = fields.get(k) if type(k) is str else None
            if sub is None:
                return f"{where}: field {name!r} has key {_shown(k)}, not one of {', '.join(fields)}"
            bad = _type_error(where, f"{name}.{k}", x, sub, cards, joker)
            if bad:
                return bad
    elif kind == "int":
        if type(value) is str and INT_TEXT.fullmatch(value.strip()):
            value = int(value)  # a typed-in record may write a number as its digits (``"bid": "3"``)
        if type(value) is not int or not -2 ** 63 <= value < 2 ** 63:
            return f"{where}: field {name!r} is {_shown(value)}, not a whole number"
    elif kind == "bool":
        if type(value) is not bool:
            return f"{where}: field {name!r} is {_shown(value)}, not true or false"
    return None


def check_unknown(variant, rec: dict, where: str) -> frozenset:
    """The fields ``rec`` marks as not known (its ``unknown`` list), checked; empty when it marks none.

    A real game's transcript may not give every card (the kitty, the dealer's
    discard): such a record lists those fields in ``unknown`` (some of the
    variant's ``Variant.unknown_fields``), each null. The hands at the first
    lead are then the cards each seat played. Only this form is accepted: a
    field that is null without being listed is refused as any other.
    """
    value = rec.get("unknown")
    if value is None:
        return frozenset()
    allowed = variant.unknown_fields
    if not allowed:
        raise RecordError(f"{where}: field 'unknown': every field of a {variant.title} record is known")
    if type(value) is not list or not value or any(type(x) is not str for x in value) or len(set(value)) != len(value):
        raise RecordError(f"{where}: field 'unknown' is {_shown(value)}, not a list of the fields not known "
                          f"(some of {', '.join(allowed)})")
    for name in value:
        if name not in allowed:
            raise RecordError(f"{where}: field 'unknown' names {name!r}, not a field that may be unknown "
                              f"({', '.join(allowed)})")
        if rec.get(name) is not None:
            raise RecordError(f"{where}: field {name!r} is given but 'unknown' lists it (a field not known is null)")
    return frozenset(value)


def check_types(variant, rec: dict, where: str, rules: dict | None = None, unknown=frozenset()) -> None:
    """RecordError at the first field of ``rec`` not of the type the variant's records carry (fields present only).

    Card fields (``deal``, ``kitty``, ``upcard``, ...) hold card names of the
    variant's deck; ``calls`` and ``plays`` are checked as pairs elsewhere
    (their seats are numbers in JSON, strings in Parquet). ``unknown``: the
    fields the record marks as not known (``check_unknown``), null.
    """
    joker = variant.card_play.joker
    for name, spec in _specs(variant, rules or {}):
        if name in ("calls", "plays") or name not in rec or name in unknown or (name in ("tricks", "points")
                                                                                and isinstance(rec[name], list)):
            continue  # pairs are checked by check_pairs; tricks and points may be lists by seat (``recorded``)
        bad = _type_error(where, name, rec[name], spec, name in CARD_FIELDS, joker)
        if bad:
            raise RecordError(bad)
    hand = rec.get("hand")
    if hand is not None and (isinstance(hand, bool) or not isinstance(hand, int)):
        raise RecordError(f"{where}: field 'hand' is {_shown(hand)}, not a whole number")


def check_pairs(rec: dict, name: str, where: str, seats: int, nullable: bool = False, names=None,
                most: int | None = None) -> None:
    """RecordError unless ``rec[name]`` (when present) is a list of ``[seat, name]`` pairs, each seat at the table.

    ``nullable``: null stands for an empty list (``plays`` of a hand thrown in).
    ``names``: the names a pair may hold (None: any string); ``most``: the
    most pairs a record holds (None: any number). The words are those of
    ``bower analyze``'s own reading (the pair as its strings).
    """
    pairs = rec.get(name)
    what = "card" if name == "plays" else "call"
    if pairs is None:
        if name in rec and not nullable:
            raise RecordError(f"{where}: field {name!r} is null, not a list of [seat, {what}]")
        return
    if not isinstance(pairs, list):
        raise RecordError(f"{where}: field {name!r} is {_shown(pairs)}, not a list of [seat, {what}]")
    if most is not None and len(pairs) > most:
        raise RecordError(f"{where}: field {name!r} has {len(pairs)} entries, more than {most}")
    for k, pair in enumerate(pairs):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2 or not isinstance(pair[1], str):
            raise RecordError(f"{where}: field {name!r} entry {k} is {_shown(pair)}, not [seat, {what}]")
        s = seat(pair[0], seats)
        if s is None:
            raise RecordError(f"{where}: field {name!r} entry {k} names seat {_shown(pair[0])}, not a seat "
                              f"(0..{seats - 1})")
        if names is not None and pair[1] not in names:
            raise RecordError(f"{where}: field {name!r} holds {_shown([str(s), pair[1]])}: {_shown(pair[1])} is not "
                              f"one of {', '.join(names)}")


_CALLS: dict = {}  # (call names, most calls) by variant and rules (``call_names``)


def call_names(variant, rules: dict) -> tuple[tuple[str, ...] | None, int | None]:
    """(the names a record's ``calls`` may hold, the most calls a hand has) of ``variant`` under ``rules``.

    The names are the records writer's own: the ``calls`` column of the
    variant's records (``bower.sim.records.record_columns``) made from no
    kernel rows names them (Hasenpfeffer's depend on its ``bidding``); the
    most is the kernels' record layout (``MAX_CALLS``: every seat's calls of
    a whole auction, RULES.md). None where the variant does not say.
    """
    key = (variant.name, tuple(sorted((str(k), repr(v)) for k, v in rules.items())))
    got = _CALLS.get(key)
    if got is None:
        import numpy as np

        from bower.sim import records as rc

        k = variant.hand_kernels
        names = None
        if rc.has_columns(variant):
            try:
                cols = dict(rc.record_columns(variant, np.zeros((0, k.R_WIDTH), np.int64), 0, rules))
            except (ValueError, KeyError, IndexError, TypeError):
                cols = {}
            found = getattr(cols.get("calls"), "names", None)
            names = tuple(found) if found else None
        most = getattr(k, "MAX_CALLS", None)
        got = (names, int(most) if most is not None else None)
        if len(_CALLS) < 256:
            _CALLS[key] = got
    return got


def check_record(rec, where: str, variant=None, required=()) -> tuple:
    """(variant, rules, checked record, maker) of one record: every field present checked, the maker a seat or null.

    ``variant``: the file's (a record of another is an error; None: any
    known one). ``required``: the fields this reader needs besides the
    variant, dealer, maker and ``plays``. The checked record has ``dealer``
    and the maker as ints and the variant's own normalising (``alone``).
    """
    from bower.sim.rules import RuleError, resolve
    from bower.sim.variants import get_variant, names

    if not isinstance(rec, dict):
        raise RecordError(f"{where} is not a JSON object")
    name = field(rec, "variant", where)
    if variant is not None:
        if name != variant.name:
            raise RecordError(f"{where}: field 'variant' is {_shown(name)}, not {variant.name!r} as record 0; "
                              "one variant per file")
    else:
        try:
            variant = get_variant(name) if isinstance(name, str) else None
        except RuleError:
            variant = None
        if variant is None:
            raise RecordError(f"{where}: field 'variant' is {_shown(name)}, not a known variant ({', '.join(names())})")
    cp = variant.card_play
    if cp.score is None:
        raise RecordError(f"{where}: {variant.title} hands cannot be replayed")
    missing = [f for f in ("dealer", cp.maker_field, "plays", *required) if f not in rec]
    if missing:
        raise RecordError(f"{where}: missing field {missing[0]!r} (a {variant.name} record needs "
                          f"{', '.join(sorted({'variant', 'dealer', cp.maker_field, 'plays', *required}))})")
    overrides = rec.get("rules") or {}
    if not isinstance(overrides, dict):
        raise RecordError(f"{where}: field 'rules' is {_shown(overrides)}, not an object of rule options")
    given = {k: v for k, v in overrides.items() if v is not None}
    try:
        key = (variant.name, tuple(sorted((str(k), type(v).__name__, v) for k, v in given.items())))
        hash(key)
    except TypeError:  # a value that is a list or an object: resolve says what is wrong with it
        key = None
    rules = _RULES.get(key) if key is not None else None
    if rules is None:
        try:
            rules = resolve(variant, given)
        except RuleError as e:
            raise RecordError(f"{where}: field 'rules': {e}") from None
        if key is not None and len(_RULES) < 256:
            _RULES[key] = rules
    rules = dict(rules)
    dealer = seat(rec["dealer"], variant.players)
    if dealer is None:
        raise RecordError(f"{where}: field 'dealer' is {_shown(rec['dealer'])}, not a seat (0..{variant.players - 1})")
    maker = rec[cp.maker_field]
    if maker is not None:
        m = seat(maker, cp.seats)
        if m is None:
            raise RecordError(f"{where}: field {cp.maker_field!r} is {_shown(maker)}, not a seat "
                              f"(0..{cp.seats - 1}) or null")
        maker = m
    rec = dict(rec, dealer=dealer, **{cp.maker_field: maker})
    unknown = check_unknown(variant, rec, where)
    rec = variant_part(cp.check, where, rec, rules)  # the variant's own (``alone``; a bid typed as "moon")
    check_types(variant, rec, where, rules, unknown)
    check_pairs(rec, "calls", where, cp.seats, False, *call_names(variant, rules))  # (plays: ``check_play``)
    for part in ("tricks", "points"):
        recorded(rec, part, where, variant)
    check_start(rec, where, variant)
    if rec.get("dd") is not None:
        check_dd(rec["dd"], where, cp.hand_size)
    check_auction(variant, rules, rec, where)
    return variant, rules, rec, maker


def check_start(rec: dict, where: str, variant) -> dict | None:
    """The record's ``start`` (a real game's score before the hand: an object of numbers keyed by seat, or by side
    0 and 1 in a game of partners), checked as ``recorded`` does, with str keys; None when it has none."""
    start = recorded(rec, "start", where, variant)
    if start is not None and variant.partnerships and any(int(k) > 1 for k in start):
        raise RecordError(f"{where}: field 'start' has key {max(start, key=int)!r}, not a side (0, 1)")
    return start


DD_KEYS = ("tricks", "table")
DD_FORM = "({'tricks': n, 'table': {suit: n}}: see bower solve --records)"


def check_dd(d, where: str, most: int) -> tuple[int, dict]:
    """(tricks, trump -> tricks) of a record's ``dd`` object (``bower solve --records``), checked.

    ``dd`` is an object with ``tricks`` (required) and ``table`` (optional,
    null or an object keyed by suit ``C S D H``, a null value standing for a
    trump not solved); every number of tricks is a whole number from 0 to
    ``most`` (a hand's tricks). Anything else is a RecordError of one line
    naming ``where`` (``FILE: record N (line L)``), the field and the fault.
    Every reader checks it here (``check_record``); the double-dummy tables
    read it through this function.
    """
    try:
        tricks, table = d["tricks"], d.get("table")
        if table is None:
            table = {}
        if not isinstance(tricks, int) or isinstance(tricks, bool) or not isinstance(table, dict):
            raise TypeError
        table = {t: x for t, x in table.items() if x is not None}
        if any(not isinstance(x, int) or isinstance(x, bool) for x in table.values()):
            raise TypeError
    except (TypeError, KeyError, AttributeError, IndexError):
        raise RecordError(f"{where}: field 'dd' is {_shown(d)}, not a bower dd object {DD_FORM}") from None
    for k in d:
        if k not in DD_KEYS:
            raise RecordError(f"{where}: field 'dd' has key {_shown(k)}, not one of {', '.join(DD_KEYS)}")
    for t in table:
        if not (isinstance(t, str) and len(t) == 1 and t in SUITS):
            raise RecordError(f"{where}: field 'dd.table' has key {_shown(t)}, not a suit ({', '.join(SUITS)})")
    for name, x in (("dd.tricks", tricks), *((f"dd.table.{t}", x) for t, x in table.items())):
        if not 0 <= x <= most:
            raise RecordError(f"{where}: field {name!r} is {x}, not a number of tricks (0..{most})")
    return tricks, table


def recorded(rec: dict, name: str, where: str, variant) -> dict | None:
    """The record's own ``tricks`` or ``points`` (None if absent) with seat (or side) keys and int values."""
    v = rec.get(name)
    if v is None:
        return None
    if isinstance(v, list):
        v = {str(i): x for i, x in enumerate(v)}
    if not isinstance(v, dict):
        raise RecordError(f"{where}: field {name!r} is {_shown(v)}, not an object of numbers")
    for k, x in v.items():
        if seat(k, variant.players) is None:
            raise RecordError(f"{where}: field {name!r} has key {_shown(k)}, not a seat (0..{variant.players - 1})")
        if isinstance(x, bool) or not isinstance(x, int):
            raise RecordError(f"{where}: field '{name}.{k}' is {_shown(x)}, not a number")
    return {str(int(k)): int(x) for k, x in v.items()}


def plays_of(variant, rec: dict, where: str) -> list[tuple[int, int]]:
    """The ``plays`` as (seat, card), each entry checked; a card played twice is an error."""
    cp = variant.card_play
    plays = field(rec, "plays", where)
    if plays is None:
        plays = []
    if not isinstance(plays, (list, tuple)):
        raise RecordError(f"{where}: field 'plays' is {_shown(plays)}, not a list of [seat, card]")
    out, first = [], {}
    for k, pair in enumerate(plays):
        try:
            seat_raw, name = pair
            card = _CARDS.get(name) if type(name) is str else None
            if card is None:
                card = parse_card(name)
        except (TypeError, ValueError, AttributeError, CardError):
            raise RecordError(f"{where}: field 'plays' entry {k} is {_shown(pair)}, not [seat, card]") from None
        s = seat(seat_raw, cp.seats)
        if s is None:
            raise RecordError(f"{where}: field 'plays' entry {k} names seat {_shown(seat_raw)}, not a seat in play "
                              f"(0..{cp.seats - 1})")
        if card == JOKER and not cp.joker:
            raise RecordError(f"{where}: field 'plays' entry {k} is the joker, not in the {variant.title} deck")
        if card in first:
            raise RecordError(f"{where}: field 'plays' entry {k}: {card_str(card)} is played twice "
                              f"(entries {first[card]} and {k})")
        first[card] = k
        out.append((s, card))
    return out


def hands_of(variant, rec: dict, plays, active: frozenset, where: str) -> dict[int, int]:
    """Seat -> mask of the cards held at the first lead (from ``deal`` when given), checked against the plays.

    Every seat in play plays exactly its hand: plays cut short (or too many) are refused.
    """
    cp = variant.card_play
    if not plays and active:
        given = rec.get("plays")
        raise RecordError(f"{where}: field 'plays' is {'null' if given is None else _shown(given)}: a hand played "
                          f"lists all its plays ({cp.hand_size} card(s) a seat in play)")
    count = {s: 0 for s in active}
    for k, (s, c) in enumerate(plays):
        if s not in active:
            raise RecordError(f"{where}: field 'plays' entry {k}: seat {s} plays {card_str(c)} but does not play "
                              f"this hand (seats in play: {', '.join(map(str, sorted(active)))})")
        count[s] += 1
    for s in sorted(active):
        if count[s] != cp.hand_size:
            raise RecordError(f"{where}: field 'plays': seat {s} plays {count[s]} card(s), not {cp.hand_size} "
                              f"(the plays of a hand played are complete)")
    held = variant_part(cp.held, where, rec, deal_fields=cp.deal_fields)
    if held is None:
        return {s: sum(1 << c for t, c in plays if t == s) for s in active}
    seen: dict[int, int] = {}
    for s, cards in held.items():
        if len(set(cards)) != cp.hand_size:
            raise RecordError(f"{where}: field 'deal': seat {s} holds {len(set(cards))} card(s) at the first lead, "
                              f"not {cp.hand_size}")
        for c in cards:
            if c == JOKER and not cp.joker:
                raise RecordError(f"{where}: field 'deal' has the joker, not in the {variant.title} deck")
            if c in seen:
                raise RecordError(f"{where}: field 'deal': {card_str(c)} is held by seats {seen[c]} and {s}")
            seen[c] = s
    masks = {s: sum(1 << c for c in held[s]) for s in active}
    for k, (s, c) in enumerate(plays):
        if not masks[s] >> c & 1:
            cards = " ".join(card_str(x) for x in sorted(held[s]))
            raise RecordError(f"{where}: field 'plays' entry {k}: seat {s} plays {card_str(c)}, which it did not "
                              f"hold (its cards at the first lead, from 'deal': {cards})")
    return masks


def check_play(variant, rec: dict, maker, where: str, turns: bool = True, rules: dict | None = None):
    """(plays, trump, seats in play, hands) of a checked record; for a hand thrown in, ``([], None, frozenset(), {})``.

    A hand thrown in (maker field null) has no plays; a hand played has a
    trump suit and complete plays (``hands_of``), each trick played in turn,
    the first led by the seat the rules call for (``turns``; replay follows
    the tricks itself, and names the first leader the same way). ``rules``:
    the record's rule options as ``check_record`` gives them (None: resolved
    here from its ``rules`` field).
    """
    from bower.sim.solve import DealError, check_turn_order, parse_suit

    cp = variant.card_play
    plays = plays_of(variant, rec, where)
    if maker is None:
        if plays:
            raise RecordError(f"{where}: field 'plays': a hand thrown in ({cp.maker_field} null) has no plays")
        check_auction(variant, rules, rec, where, outcome=True)
        return plays, None, frozenset(), {}
    trump_raw = field(rec, "trump", where)
    try:
        trump = parse_suit(trump_raw) if isinstance(trump_raw, str) else parse_suit("?")
    except DealError:
        raise RecordError(f"{where}: field 'trump' is {_shown(trump_raw)}, not a suit (C S D H)") from None
    active = variant_part(cp.in_play, where, rec)
    if maker not in active:
        raise RecordError(f"{where}: field {cp.maker_field!r}: seat {maker} does not play this hand")
    hands = hands_of(variant, rec, plays, active, where)
    if turns:
        try:
            check_turn_order(plays, trump, sum(1 << s for s in active), where)
        except DealError as e:
            raise RecordError(e.format_message()) from None
        if rules is None:
            from bower.sim.rules import resolve

            rules = resolve(variant, {k: v for k, v in (rec.get("rules") or {}).items() if v is not None})
        leader = cp.first_leader(maker, rec["dealer"], sum(1 << s for s in active), rules,
                                 frozenset(rec.get("alone") or ()))
        if plays[0][0] != leader:
            raise RecordError(f"{where}: field 'plays' entry 0: seat {plays[0][0]} plays {card_str(plays[0][1])} "
                              f"when it is seat {leader}'s turn (the first lead: {cp.leader_note})")
    check_auction(variant, rules, rec, where, outcome=True)
    return plays, trump, active, hands


_INT = frozenset({int})


def _ints(values) -> bool:
    """Whether ``values`` are all ints of 64 bits (nulls, bools and anything else: False)."""
    return not values or set(map(type, values)) <= _INT and -2 ** 63 <= min(values) and max(values) < 2 ** 63


def _fits(spec, cards: frozenset | None):
    """A test that a value has the type of ``spec`` (``_spec``) in the form bower writes; True implies ``_type_error``
    finds nothing. ``cards``: the card names a card field may hold (None: not a card field)."""
    kind = spec[0]
    if kind == "int":
        return lambda v: v is None or type(v) is int and -2 ** 63 <= v < 2 ** 63
    if kind == "bool":
        return lambda v: v is None or type(v) is bool
    if kind == "str":
        return (lambda v: v is None or type(v) is str) if cards is None else (lambda v: v is None or v in cards)
    if kind == "list":
        if spec[1][0] == "str" and cards is not None:
            return lambda v: type(v) is list and cards.issuperset(v)
        if spec[1][0] == "int":
            return lambda v: type(v) is list and _ints(v)
        item = _fits(spec[1], cards)
        return lambda v: type(v) is list and all(map(item, v))
    keys = frozenset(spec[1])
    if all(sub == ("int",) for sub in spec[1].values()):
        return lambda v: type(v) is dict and keys.issuperset(v) and _ints(list(v.values()))
    fields = {k: _fits(sub, cards) for k, sub in spec[1].items()}
    if len(set(spec[1].values())) == 1:  # every key of one type (``deal``: lists of cards)
        item = next(iter(fields.values()))
        return lambda v: type(v) is dict and keys.issuperset(v) and all(map(item, v.values()))
    return lambda v: type(v) is dict and keys.issuperset(v) and all(fields[k](x) for k, x in v.items())


class FastCheck:
    """A quick test of the records of one file in the form bower writes them, built from its first record checked.

    ``ok(rec)`` is True only for a record ``check_record`` and ``check_play``
    accept (same variant, same rule options, every field as it is written,
    complete plays in turn); anything else, or anything unusual, is False
    and the record goes through the full check, which names the fault.
    """

    def __init__(self, variant, rec: dict, rules: dict, required=()):
        from bower.sim.solve import SUIT_NAMES, in_turn_many

        cp = variant.card_play
        self.variant, self.cp, self.rules = variant, cp, rules
        self.raw_rules = rec.get("rules")
        self.rule_types = tuple(map(type, self.raw_rules.values())) if type(self.raw_rules) is dict else None
        self.need = frozenset({"variant", "dealer", cp.maker_field, "plays", *required})
        self.index = {card_str(c): c for c in range(25 if cp.joker else JOKER)}  # card names of the deck
        names = frozenset(self.index)
        specs = [(name, spec) for name, spec in _specs(variant, rules) if name not in ("calls", "plays", "rules")]
        seat_keys = frozenset(str(i) for i in range(variant.players))
        by_seat = {name: spec for name, spec in specs if name in ("tricks", "points") and spec[0] == "struct"
                   and all(sub == ("int",) for sub in spec[1].values())}  # numbers by seat, as bower writes them
        self.counts = {name: seat_keys & frozenset(by_seat[name][1]) if name in by_seat else seat_keys
                       for name in ("tricks", "points")}  # (``recorded``; the object's own keys too)
        self.fits = [(name, _fits(spec, names if name in CARD_FIELDS else None)) for name, spec in specs
                     if name not in by_seat]
        self.suits = {k: v for k, v in SUIT_NAMES.items() if k.isascii()}
        self.in_turn_many = in_turn_many
        self.codes = [str(s) for s in range(cp.seats)] + list(self.index)  # a play's seat and card, column-wise
        self.codes_array = None  # ``codes`` as an Arrow array (``ok_batch``), made on first use
        self.vector: dict = {}  # what records_vector.batch_ok works out once for the file (records_vector._consts)
        self.call_names, self.most_calls = call_names(variant, rules)  # (None: not known, not checked)
        self.call_set = frozenset(self.call_names) if self.call_names is not None else None
        self.auction = _auction_part(variant)  # the variant's auction check (None: it has none)
        self.verdicts = verdicts(variant, rules)

    def ok(self, rec) -> bool:
        """Whether ``rec`` certainly passes the full check (False: let the full check decide and say why)."""
        return self.ok_many([rec])[0]

    def ok_many(self, recs, plays=None) -> list[bool]:
        """``ok`` of each record, the turns of their plays checked together (``in_turn_many``).

        ``plays``: each record's plays already read, (seats, cards) as lists
        of numbers (``ok_batch``); their ``plays`` field is then left aside.
        """
        out = []
        for i, rec in enumerate(recs):
            try:
                out.append(self._ok(rec, *(plays[i] if plays is not None else (None, None))))
            except Exception:  # a value of an unexpected kind anywhere: the full check names it
                out.append(False)
        played = [i for i, x in enumerate(out) if type(x) is tuple]
        for i, good in zip(played, self.in_turn_many([out[i] for i in played])):
            out[i] = good
        return out

    def ok_batch(self, batch) -> bool:
        """Whether every record of a Parquet record batch certainly passes the full check, its plays read column-wise.

        The plays (the bulk of a record) are read as arrays of seat and card
        numbers; the other fields as Python values.
        """
        import numpy as np
        import pyarrow as pa
        import pyarrow.compute as pc

        if "plays" not in batch.schema.names:
            return False
        plays = batch.column("plays")
        if not pa.types.is_list(plays.type) or not pa.types.is_list(plays.type.value_type) \
                or not pa.types.is_string(plays.type.value_type.value_type):
            return False
        ends = np.asarray(plays.offsets) - plays.offsets[0].as_py()  # each record's plays: pairs ends[i]:ends[i + 1]
        if plays.null_count and np.diff(ends)[plays.is_null().to_numpy(zero_copy_only=False)].any():
            return False  # a null list over values (Arrow allows it): read record by record
        pairs = plays.values.slice(plays.offsets[0].as_py(), int(ends[-1]))
        if pairs.null_count or len(pairs) and np.any(np.diff(np.asarray(pairs.offsets)) != 2):
            return False
        if self.codes_array is None:
            self.codes_array = pa.array(self.codes)
        codes = pc.index_in(pairs.flatten(), value_set=self.codes_array)  # seats "0".."n-1", then the deck's cards
        if codes.null_count:
            return False
        codes = codes.to_numpy(zero_copy_only=False).reshape(-1, 2)
        n_seats = self.cp.seats
        if len(codes) and (codes[:, 0].max() >= n_seats or codes[:, 1].min() < n_seats):
            return False
        seats, cards = codes[:, 0].tolist(), (codes[:, 1] - n_seats).tolist()
        names = [n for n in batch.schema.names if n != "plays"]
        columns = [batch.column(n).to_pylist() for n in names] + [[None] * batch.num_rows]
        names.append("plays")
        recs = [_from_parquet(dict(zip(names, row))) for row in zip(*columns)]
        bounds = ends.tolist()
        return all(self.ok_many(recs, [(seats[a:b], cards[a:b]) for a, b in zip(bounds, bounds[1:])]))

    def _ok(self, rec, seats=None, cards=None):
        """False, True, or (seats, cards, trump, seats in play) when only the turns of the plays are left to check."""
        v, cp = self.variant, self.cp
        if type(rec) is not dict or rec.get("variant") != v.name or not rec.keys() >= self.need \
                or rec.get("unknown") is not None:
            return False  # (a record with fields not known: the full check)
        raw = rec.get("rules")
        if raw != self.raw_rules or raw and tuple(map(type, raw.values())) != self.rule_types:
            return False
        if rec.get("hand") is not None and type(rec["hand"]) is not int:
            return False
        dealer, maker = rec["dealer"], rec[cp.maker_field]
        if type(dealer) is not int or not 0 <= dealer < v.players:
            return False
        if maker is not None and (type(maker) is not int or not 0 <= maker < cp.seats):
            return False
        rec = cp.check(rec, self.rules)
        for name, fits in self.fits:  # (a null list or object is refused; a null number or string is not)
            if name in rec and not (fits(rec[name]) or name in ("tricks", "points") and type(rec[name]) is list):
                return False
        for name, keys in self.counts.items():  # numbers by seat: an object (its type checked here) or a list
            x = rec.get(name, ())
            if not (keys.issuperset(x) and _ints(list(x.values())) if type(x) is dict
                    else type(x) is list and len(x) <= v.players and _ints(x) or x == () and name not in rec):
                return False
        if rec.get("dd") is not None:
            check_dd(rec["dd"], "", cp.hand_size)  # (a fault raises: ``ok_many`` gives False, the full check names it)
        if rec.get("start") is not None:
            check_start(rec, "", v)
        calls = rec.get("calls", ())
        if type(calls) is not list and "calls" in rec:
            return False
        if calls:
            if set(map(type, calls)) != {list} or set(map(len, calls)) != {2}:
                return False
            callers, bids = zip(*calls)
            if set(map(type, callers)) != _INT or min(callers) < 0 or max(callers) >= cp.seats \
                    or set(map(type, bids)) != {str}:
                return False
            if self.call_set is not None and not self.call_set.issuperset(bids) \
                    or self.most_calls is not None and len(calls) > self.most_calls:
                return False
            if self.auction is not None:  # each call legal at its turn (the verdict of an auction seen: a look-up)
                key = (dealer, tuple(map(tuple, calls)), self.auction.auction_extra(rec, self.rules))
                got = self.verdicts.get(key, _UNSEEN)
                if got is _UNSEEN:
                    got = auction_verdict(v, self.rules, *key, self.verdicts)
                if got is not None:
                    return False  # the full check names it
        if seats is None:
            plays = rec["plays"] or []
            if type(plays) is not list or plays and (set(map(type, plays)) != {list} or set(map(len, plays)) != {2}):
                return False
            seats, names = map(list, zip(*plays)) if plays else ([], [])
            cards = list(map(self.index.__getitem__, names))
        if maker is None:
            return not seats
        trump = self.suits[rec["trump"]]
        active = cp.in_play(rec)
        if maker not in active or set(map(type, seats)) != _INT or not active.issuperset(seats) \
                or len(set(cards)) != len(cards) or any(seats.count(s) != cp.hand_size for s in active):
            return False
        mask = sum(1 << s for s in active)
        if seats[0] != cp.first_leader(maker, dealer, mask, self.rules, frozenset(rec.get("alone") or ())):
            return False  # the first trick led by a seat the rules do not call on
        held = cp.held(rec)
        if held is not None:
            holder = {}
            for s, hand in held.items():
                holder.update(dict.fromkeys(hand, s))
            if set(map(len, held.values())) != {cp.hand_size} or len(holder) != cp.hand_size * len(held) \
                    or JOKER in holder and not cp.joker or list(map(holder.get, cards)) != seats:
                return False  # a hand short or long, a card held twice, the joker, a card its seat did not hold
        return seats, cards, trump, mask


def checked(items, variant=None, required=()):
    """Yield each ``(record, where)`` of ``items`` (as ``iter_file`` gives) checked in full, in the JSON form.

    The first record fixes the variant (one per file). ``required``: the
    fields the reader needs (``check_record``). The record is yielded as
    read, with its seats as ints where they were written as digits. Records
    like the first pass ``FastCheck``; any other is checked field by field.
    """
    fast = None  # built from the first record, checked in full; the records like it pass its quick test
    for chunk, fault in _chunks(items, 1024):
        if fast is None and chunk:
            rec, where = chunk[0]
            variant, rules, rec2, maker = check_record(rec, where, variant, required)
            check_play(variant, rec2, maker, where, rules=rules)
            fast = FastCheck(variant, rec, rules, required)
        oks = fast.ok_many([rec for rec, _ in chunk]) if chunk else []
        for (rec, where), ok in zip(chunk, oks):
            if not ok:
                v, rules_i, rec2, maker = check_record(rec, where, variant, required)
                check_play(v, rec2, maker, where, rules=rules_i)
            yield rec, where
        if fault is not None:
            raise fault


def _chunks(items, size: int):
    """Yield ``(list of up to size items, None)``; the last with the exception that ended ``items``, if one did
    (raised once the items before it are checked: the first fault of a file is the one named)."""
    chunk, it = [], iter(items)
    while True:
        try:
            chunk.append(next(it))
        except StopIteration:
            break
        except Exception as e:
            yield chunk, e
            return
        if len(chunk) == size:
            yield chunk, None
            chunk = []
    yield chunk, None


def _first_record(path, rec: dict, where: str, required: bool):
    """(variant, fields each record needs) from a file's record 0; RecordError unless it is of a known variant."""
    from bower.sim.variants import named, names

    if named(rec.get("variant")) is None:
        raise RecordError(f"{path}: record 0 is not a bower hand record of a known variant ({', '.join(names())})")
    v, rules, rec2, _ = check_record(rec, where)
    return v, rules, (tuple(sorted(v.record_fields)) if required else ())


def checked_batches(path, batch: int = 4096, required: bool = True, columns=None):
    """Yield the records of a file in lists of up to ``batch``, each checked in full (``checked``), streaming.

    ``required``: each record must carry every field of its variant's
    records (``variant.record_fields``), as ``bower simulate --records``
    writes them.
    """
    items = iter_file(path, columns)
    first = next(items)
    v, _, need = _first_record(path, *first, required)
    out = []

    def all_items():
        yield first
        yield from items

    for rec, _ in checked(all_items(), v, need):
        out.append(rec)
        if len(out) == batch:
            yield out
            out = []
    if out:
        yield out


def check_parquet(path, batches, required: bool = True) -> None:
    """Check every record of a Parquet file, given as pyarrow record batches of its record columns, streaming.

    A batch is checked whole with Arrow compute and NumPy
    (``records_vector.batch_ok``); one it does not pass, in pieces of ``PARQUET_PIECE`` records the same way (a
    piece passed holds no fault), and a piece it does not pass column-wise (``FastCheck.ok_batch``), else record
    by record in full (``checked``), which names the first fault exactly as every reader does (the pieces before
    it passed: its first fault is the batch's).
    """
    from bower.sim.records_vector import batch_ok

    fast, v, need, n = None, None, (), 0
    for big in batches:
        if fast is None and big.num_rows:  # record 0 fixes the variant and the rules
            first = _from_parquet(big.slice(0, 1).to_pylist()[0])
            v, rules, need = _first_record(path, first, label(path, n), required)
            fast = FastCheck(v, first, rules, need)
        if big.num_rows and batch_ok(fast, big):  # the whole batch at once (records_vector)
            n += big.num_rows
            continue
        if big.num_rows <= PARQUET_PIECE:
            _check_piece(path, big, n, fast, v, need)
            n += big.num_rows
            continue
        for start in range(0, big.num_rows, PARQUET_PIECE):
            piece = big.slice(start, PARQUET_PIECE)
            if not batch_ok(fast, piece):
                _check_piece(path, piece, n, fast, v, need)
            n += piece.num_rows
    if n == 0:
        raise _records_error(f"{path} holds no records")


PARQUET_PIECE = 512  # records of a Parquet batch checked whole again when the batch is not passed whole


def _check_piece(path, piece, n: int, fast: FastCheck, v, need) -> None:
    """Check the records of a Parquet batch ``piece`` (record ``n`` first) that ``batch_ok`` did not pass: column-wise
    (``FastCheck.ok_batch``) in slices of 4,096, a slice not passed record by record in full (``checked``)."""
    from bower.sim.records_vector import plain_schema

    piece = piece.cast(plain_schema(piece.schema))  # strings read as dictionaries: plain again
    for start in range(0, piece.num_rows, 4096):
        b = piece.slice(start, 4096)
        if b.num_rows and not fast.ok_batch(b):
            for _ in checked(((_from_parquet(r), label(path, n + i)) for i, r in enumerate(b.to_pylist())), v, need):
                pass
        n += b.num_rows


# ---- a JSONL file in bulk ------------------------------------------------------------------------

JSONL_BLOCK = 1 << 23  # bytes of a JSONL file read and checked at once (cut at a line's end; Arrow parses 1 MB at a time)
JSONL_PIECE = 256  # lines of a piece retried on its own when its block does not pass whole
PAIR_MARK = ord("~")  # a seat's pair ``[0,"JD"]`` read as the one string ``["0~JD"]`` (JsonlBulk)


class JsonlBulk:
    """A block of JSONL lines read into Arrow in bulk and checked as a Parquet file's records are.

    ``ok(buf)`` is True only when every line of ``buf`` is a record the
    line-by-line check accepts; False (anything unusual) sends the lines to
    that check, which names the fault. Strict by construction:

    - ``buf`` is ASCII without a backslash, so each ``"`` delimits a string
      and no string differs from its text;
    - a pair led by a seat, ``[0,"JD"]``, is rewritten in place as the list of
      one string ``["0~JD"]`` (Arrow's lists hold one type); ``buf`` holds
      no ``~`` before, so each string with one came from such a pair
      (``records_vector.batch_ok`` reads them so, ``marked``, and refuses
      any other list in ``calls`` and ``plays``); a ``[0,"`` inside a string
      leaves the line not JSON;
    - Arrow's reader, given the records' schema, refuses a value of another
      type (a float or ``true`` where an int goes), a duplicate key, a key
      not in the schema, a line that is not JSON;
    - one record a line (two objects on one line read as two rows);
    - every key of the schema on every line (a field missing is not taken
      for a null): ``"key":`` counted over the block (only a key ends so in
      such a line, and no object has more keys than its schema).

    The records are then those of a Parquet file, whose batches are checked
    as its are: whole (``batch_ok``: the variants whose records module has
    ``batch_play``), else 4,096 records at a
    time by ``FastCheck.ok_batch`` (the pairs made two strings again:
    ``records_vector.seat_pairs``).
    """

    def __init__(self, fast: FastCheck, first: dict, first_line: bytes):
        import pyarrow as pa

        from bower.sim.records import parquet_schema

        self.fast = fast
        self.schema = parquet_schema(fast.variant, fast.rules)

        def keys(typ) -> int:
            return sum(1 + keys(typ.field(i).type) for i in range(typ.num_fields)) if pa.types.is_struct(typ) else 0

        def struct_in_list(typ) -> bool:
            if pa.types.is_list(typ):
                return pa.types.is_struct(typ.value_type) or struct_in_list(typ.value_type)
            return pa.types.is_struct(typ) and any(struct_in_list(typ.field(i).type) for i in range(typ.num_fields))

        self.keys = sum(1 + keys(f.type) for f in self.schema)  # keys a line holds (nested objects' too)
        self.usable = not any(struct_in_list(f.type) for f in self.schema) and fast.cp.seats <= 10
        from bower.sim.records_vector import covers

        self.whole = covers(fast.variant)  # batches checked whole (records_vector), else ``ok_batch``
        # the fields every line leads with, the same in every record (read once: not parsed again a line)
        self.lead = ("variant", "rules_version", "rules")
        self.first = first
        head = {k: first[k] for k in self.lead if k in first}
        prefix = json.dumps(head, separators=(",", ":"))[:-1].encode() + b","
        self.prefix = prefix if len(head) == len(self.lead) and first_line.startswith(prefix) \
            and all(n in self.schema.names for n in self.lead) else None
        self.rest = pa.schema([f for f in self.schema if f.name not in self.lead])

    def _marked(self, buf: bytes):
        """``buf`` with each ``[S,"`` (S a seat's digit) as ``["S~``, the same length (a NumPy array of its bytes)."""
        import numpy as np

        b = np.frombuffer(buf, np.uint8).copy()
        at = np.flatnonzero(b[:-3] == ord("["))
        at = at[(b[at + 2] == ord(",")) & (b[at + 3] == ord('"')) & (b[at + 1] - ord("0") < self.fast.cp.seats)]
        seat = b[at + 1]  # (uint8: a byte below "0" wraps high)
        b[at + 1] = ord('"')
        b[at + 2] = seat
        b[at + 3] = PAIR_MARK
        return b

    def ok(self, buf: bytes) -> bool:
        """Whether every line of ``buf`` (whole lines; the last may lack its newline) certainly passes the check."""
        import pyarrow as pa
        import pyarrow.json as pj

        from bower.sim.records_vector import batch_ok, seat_pairs

        if not self.usable or len(buf) < 4 or not buf.isascii() or b"\\" in buf or b"~" in buf:
            return False
        lines = buf.count(b"\n") + (not buf.endswith(b"\n"))
        if buf.count(b'":') != self.keys * lines:
            return False
        schema = self.schema
        if self.prefix is not None:  # each line led by record 0's variant, rules_version and rules, as written
            stripped = (b"\n" + buf).replace(b"\n" + self.prefix, b"\n{")
            if len(buf) + 1 - len(stripped) != lines * (len(self.prefix) - 1):
                return False
            buf, schema = stripped[1:], self.rest
        try:
            table = pj.read_json(pa.py_buffer(self._marked(buf)),
                                 read_options=pj.ReadOptions(use_threads=False, block_size=1 << 20),
                                 parse_options=pj.ParseOptions(explicit_schema=schema,
                                                               unexpected_field_behavior="error"))
        except (pa.ArrowException, ValueError):
            return False
        if table.num_rows != lines:
            return False
        for batch in table.combine_chunks().to_batches():
            if self.prefix is not None:  # the columns of the prefix, as record 0 has them
                cols = {f.name: pa.repeat(pa.scalar(self.first[f.name], f.type), batch.num_rows)
                        for f in self.schema if f.name in self.lead}
                cols.update(zip(batch.schema.names, batch.columns))
                batch = pa.RecordBatch.from_arrays([cols[f.name] for f in self.schema], schema=self.schema)
            try:
                if self.whole:
                    if not batch_ok(self.fast, batch, marked=True):
                        return False
                    continue
                cols = dict(zip(batch.schema.names, batch.columns))
                for name in ("calls", "plays"):  # the pairs as a Parquet file's, for ``FastCheck.ok_batch``
                    if name in cols:
                        cols[name] = seat_pairs(cols[name])
                        if cols[name] is None:
                            return False
                batch = pa.RecordBatch.from_arrays(list(cols.values()), schema=batch.schema)
                if not all(self.fast.ok_batch(batch.slice(i, 4096)) for i in range(0, batch.num_rows, 4096)):
                    return False
            except (ArithmeticError, IndexError, ValueError, TypeError, KeyError):  # unusual: the line check says
                return False
        return True


def _lines(buf: bytes) -> list:
    """The lines of ``buf`` as reading the file gives them: each with its newline (a last line without one, as is)."""
    lines = [line + b"\n" for line in buf.split(b"\n")]
    last = lines.pop()
    if last != b"\n":
        lines.append(last[:-1])
    return lines


def _line_items(path, lines: list, n: int, lineno: int):
    """``(record, where)`` of JSONL lines as ``iter_file`` gives them: ``n`` records and ``lineno`` lines before."""
    for k, raw in enumerate(lines, lineno + 1):
        if not raw.strip():
            continue
        where = label(path, n, k)
        yield parse_line(raw, where, k == 1), where
        n += 1


def _jsonl_blocks(path, fh, size: int):
    """The bytes of an open file in blocks of about ``size``, each cut after a newline (the last as it ends)."""
    rest = b""
    while True:
        try:
            data = fh.read(size)
        except OSError as e:
            raise _records_error(f"cannot read records from {path}: {e.strerror or e}") from None
        if not data:
            if rest:
                yield rest
            return
        buf = rest + data
        cut = buf.rfind(b"\n") + 1
        if cut:
            yield buf[:cut]
        rest = buf[cut:]


def check_jsonl(path, required: bool = True, block: int = JSONL_BLOCK) -> int:
    """Check every record of a ``.jsonl`` file as ``checked_batches`` does, in bulk; the number of records.

    Record 0 is checked in full and fixes the variant and rules; then each
    block of lines is read into Arrow and checked column-wise when it can be
    (``JsonlBulk``), else in pieces of ``JSONL_PIECE`` lines, and a piece
    that does not pass is read line by line and checked in full
    (``checked``), which names the first fault exactly as every reader does.
    A block none of whose pieces passes ends the bulk reading (records with
    more fields than ``simulate`` writes, such as ``dd``: the rest line by line).
    """
    items = iter_file(path)
    first = next(items)  # (a file that cannot be read, or holds no record: iter_file says why)
    items.close()
    v, rules, need = _first_record(path, *first, required)
    for _ in checked([first], v, need):  # record 0 in full: the quick tests are made from it
        pass
    with open(path, "rb") as fh:
        line = fh.readline()
    bulk = JsonlBulk(FastCheck(v, first[0], rules, need), first[0], line)
    n = lineno = 0

    def by_line(lines: list) -> None:
        nonlocal n
        for _ in checked(_line_items(path, lines, n, lineno), v, need):
            n += 1

    with open(path, "rb") as fh:
        for buf in _jsonl_blocks(path, fh, block):
            if bulk.ok(buf):
                k = buf.count(b"\n") + (not buf.endswith(b"\n"))
                n, lineno = n + k, lineno + k
                continue
            lines = _lines(buf)
            if not bulk.usable or len(lines) <= JSONL_PIECE:
                by_line(lines)
            else:
                passed = 0
                for i in range(0, len(lines), JSONL_PIECE):
                    piece = lines[i:i + JSONL_PIECE]
                    if bulk.ok(b"".join(piece)):
                        n += len(piece)
                        passed += 1
                    else:
                        by_line(piece)
                    lineno += len(piece)
                if not passed:  # records of another form (fields bower's simulate does not write): line by line
                    bulk.usable = False
                continue
            lineno += len(lines)
    if n == 0:
        raise _records_error(f"{path} holds no records")
    return n


# ---- the auction: each call legal at its turn ----------------------------------------------------


def replay_auction(state, calls, in_auction, action, word, context, before=None):
    """What is wrong with a record's field ``calls``, in words (``field 'calls' entry K: ...``), else None: its first
    call the rules do not allow at its turn, or calls that end before the auction does.

    ``state``: a game API state (``bower.sim.game``) at the auction's first
    turn; each ``(seat, name)`` of ``calls`` is taken in turn through it, so
    whose turn it is and what may be called then are the game's own rules.
    ``in_auction(state)``: whether a call is awaited; ``action(state, name)``:
    the action a call's name stands for then (None: no such call);
    ``word(state, action)``: a legal action's name as records write it;
    ``context(state)``: where the auction stands, in words (``in round
    two``); ``before(state)``: a variant's own step before each call (Ghost
    Hand's swap decision). The state is left after the calls.
    """
    for k, (s, name) in enumerate(calls):
        if before is not None:
            before(state)
        entry = f"field 'calls' entry {k}: seat {s} calls {name!r}"
        if not in_auction(state):
            return f"{entry} after the auction has ended"
        turn = state.current_player()
        if s != turn:
            return f"{entry} out of turn (it is seat {turn}'s turn {context(state)})"
        legal = state.legal_actions()
        a = action(state, name)
        if a not in legal:
            allowed = ", ".join(word(state, x) for x in legal)
            return f"{entry} {context(state)}, where the rules allow {allowed}"
        state.apply_action(a)
    if before is not None:
        before(state)
    if in_auction(state):
        return (f"field 'calls' ends after {len(calls)} call(s), before the auction does (seat "
                f"{state.current_player()}'s turn {context(state)})")
    return None


def _auction_part(variant):
    """The auction check of a variant's records module (``calls_fault``, ``auction_extra``, ``batch_auction_extra``,
    ``AUCTION_BITS``), or None when it has none."""
    got = _AUCTION_PARTS.get(variant.name)
    if got is None:
        import importlib

        try:
            mod = importlib.import_module(variant.row_to_dict.__module__)
        except (ImportError, AttributeError):
            mod = None
        got = _AUCTION_PARTS[variant.name] = mod if mod is not None and hasattr(mod, "calls_fault") else False
    return got or None


_AUCTION_PARTS: dict = {}
_UNSEEN = object()  # (an auction without a verdict yet)
_VERDICTS: dict = {}  # by variant and rules: the verdict of each auction seen (``auction_verdict``)
MAX_VERDICTS = 1 << 16  # auctions remembered for one variant and rules (then forgotten, and worked out again)


def verdicts(variant, rules: dict) -> dict:
    """The verdicts of the auctions seen under ``variant`` and ``rules`` (``auction_verdict``), by auction."""
    try:
        rkey = (variant.name, tuple(sorted(rules.items())))
        memo = _VERDICTS.get(rkey)
    except TypeError:  # (a rule option's value not hashable: not kept)
        rkey, memo = None, None
    if memo is None:
        memo = {}
        if rkey is not None and len(_VERDICTS) < 256:
            _VERDICTS[rkey] = memo
    return memo


def auction_verdict(variant, rules: dict, dealer: int, calls: tuple, extra: tuple, memo: dict | None = None) \
        -> str | None:
    """What is wrong with an auction (a record's dealer, ``calls`` as ``(seat, name)`` pairs and the variant's
    ``auction_extra``), in words naming the field (``field 'calls' entry 3: seat 2 calls 'order' in round two,
    ...``); None when every call is legal at its turn and the auction's outcome is the record's.

    The variant's ``calls_fault`` replays the auction through the game API; each distinct auction is worked out
    once (kept by variant and rules: ``verdicts``, or ``memo`` when given), so a file's records cost one look-up
    each.
    """
    part = _auction_part(variant)
    if part is None or not calls:
        return None  # (no calls given: the auction is not recorded)
    if memo is None:
        memo = verdicts(variant, rules)
    key = (dealer, calls, extra)
    if key in memo:
        return memo[key]
    got = part.calls_fault(dealer, calls, extra, rules)
    if len(memo) >= MAX_VERDICTS:
        memo.clear()
    memo[key] = got
    return got


def auction_key(variant, rec: dict, rules: dict):
    """``(dealer, calls, extra)`` of a record for ``auction_verdict`` (its fields checked already), or None when the
    variant has no auction check or the record gives no ``calls``."""
    part = _auction_part(variant)
    calls = rec.get("calls")
    if part is None or not calls:
        return None
    return rec["dealer"], tuple((int(s), n) for s, n in calls), part.auction_extra(rec, rules)


def check_auction(variant, rules: dict | None, rec: dict, where: str, outcome: bool = False) -> None:
    """RecordError unless each call of the record is legal at its turn and the calls end where the auction does
    (``check_record``), or, with ``outcome``, unless the auction's outcome is the record's maker, trump, bid or
    swap (``check_play``, once the plays are checked: a field missing or plays that do not fit a hand thrown in
    are named as such first). ``rules``: the record's rule options (None: resolved from its ``rules`` field)."""
    if rules is None:
        from bower.sim.rules import resolve

        rules = resolve(variant, {k: v for k, v in (rec.get("rules") or {}).items() if v is not None})
    key = auction_key(variant, rec, rules)
    if key is not None:
        bad = auction_verdict(variant, rules, *key)
        if bad is not None and bad.startswith("field 'calls'") != outcome:
            raise RecordError(f"{where}: {bad}")
