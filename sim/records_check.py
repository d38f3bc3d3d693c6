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
tricks). A ``deal``, when given, must hold the cards played.

Every fault is a ``RecordError`` (exit 2 on the command line,
``bower.BowerError`` in the library) of one line naming the file, the record
(its index from 0, and its line in a JSONL file), the field and the reason:
``FILE: record 3 (line 4): field 'dealer' is '²', not a seat (0..3)``.
"""

from __future__ import annotations

import json
import re

from bower.sim.cards import JOKER, CardError, card_str, parse_card
from bower.sim.errors import UserError

MAX_DEPTH = 32  # JSON nesting a record may have (a record needs 4: plays -> pair -> value)
SEAT_TEXT = re.compile(r"[0-9]{1,2}")  # a seat written as a string: ASCII digits only ("²" is not one)
INT_TEXT = re.compile(r"-?[0-9]{1,18}")  # a number written as a string, likewise
CARD_FIELDS = frozenset({"deal", "kitty", "upcard", "discard", "discards", "dummy", "widow"})  # card names only


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
    stack = [(value, 1)]
    while stack:
        x, d = stack.pop()
        if isinstance(x, (dict, list)):
            if d > limit:
                return False
            stack.extend((y, d + 1) for y in (x.values() if isinstance(x, dict) else x))
    return True


def parse_line(raw: bytes, where: str, first: bool = False) -> dict:
    """One JSONL line (bytes) as a record dict; RecordError (naming ``where``) if it is not UTF-8, JSON or an object."""
    try:
        text = raw.decode("utf-8-sig" if first else "utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{where} is not UTF-8 text") from None
    try:
        rec = json.loads(text)
    except RecursionError:
        raise RecordError(f"{where} is nested too deeply (more than {MAX_DEPTH} levels)") from None
    except ValueError as e:
        raise RecordError(f"{where} is not JSON ({getattr(e, 'msg', e)}, column {getattr(e, 'colno', '?')})") from None
    if not isinstance(rec, dict):
        raise RecordError(f"{where} is not a JSON object")
    if not _depth_ok(rec):
        raise RecordError(f"{where} is nested too deeply (more than {MAX_DEPTH} levels)")
    return rec


def _from_parquet(rec: dict) -> dict:
    """A Parquet row in the JSON form: ``calls`` and ``plays`` pairs with int seats (left as they are if malformed)."""
    for name in ("calls", "plays"):
        pairs = rec.get(name)
        if isinstance(pairs, list):
            rec[name] = [[int(p[0]), p[1]] if isinstance(p, list) and len(p) == 2 and isinstance(p[0], str)
                         and SEAT_TEXT.fullmatch(p[0]) else p for p in pairs]
    return rec


def check_path(path) -> bool:
    """Whether ``path`` is Parquet (else JSONL); RecordsError for another extension."""
    lower = str(path).lower()
    if not lower.endswith((".jsonl", ".parquet")):
        raise _records_error(f"records file {path} must end in .jsonl or .parquet")
    return lower.endswith(".parquet")


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
            while True:
                try:
                    batch = next(batches, None)
                except (OSError, ValueError) as e:
                    raise _records_error(f"cannot read records from {path}: {str(e).splitlines()[0]}") from None
                if batch is None:
                    break
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


def seat(value, n: int):
    """``value`` as a seat 0..n-1 (an int, or its ASCII digits as a string), else None."""
    if type(value) is int:
        return value if 0 <= value < n else None
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


def check_types(variant, rec: dict, where: str, rules: dict | None = None) -> None:
    """RecordError at the first field of ``rec`` not of the type the variant's records carry (fields present only).

    Card fields (``deal``, ``kitty``, ``upcard``, ...) hold card names of the
    variant's deck; ``calls`` and ``plays`` are checked as pairs elsewhere
    (their seats are numbers in JSON, strings in Parquet).
    """
    joker = variant.card_play.joker
    for name, spec in _specs(variant, rules or {}):
        if name in ("calls", "plays") or name not in rec or (name in ("tricks", "points")
                                                             and isinstance(rec[name], list)):
            continue  # pairs are checked by check_pairs; tricks and points may be lists by seat (``recorded``)
        bad = _type_error(where, name, rec[name], spec, name in CARD_FIELDS, joker)
        if bad:
            raise RecordError(bad)
    hand = rec.get("hand")
    if hand is not None and (isinstance(hand, bool) or not isinstance(hand, int)):
        raise RecordError(f"{where}: field 'hand' is {_shown(hand)}, not a whole number")


def check_pairs(rec: dict, name: str, where: str, seats: int, nullable: bool = False) -> None:
    """RecordError unless ``rec[name]`` (when present) is a list of ``[seat, name]`` pairs, each seat at the table.

    ``nullable``: null stands for an empty list (``plays`` of a hand thrown in).
    """
    pairs = rec.get(name)
    what = "card" if name == "plays" else "call"
    if pairs is None:
        if name in rec and not nullable:
            raise RecordError(f"{where}: field {name!r} is null, not a list of [seat, {what}]")
        return
    if not isinstance(pairs, list):
        raise RecordError(f"{where}: field {name!r} is {_shown(pairs)}, not a list of [seat, {what}]")
    for k, pair in enumerate(pairs):
        if not isinstance(pair, (list, tuple)) or len(pair) != 2 or not isinstance(pair[1], str):
            raise RecordError(f"{where}: field {name!r} entry {k} is {_shown(pair)}, not [seat, {what}]")
        if seat(pair[0], seats) is None:
            raise RecordError(f"{where}: field {name!r} entry {k} names seat {_shown(pair[0])}, not a seat "
                              f"(0..{seats - 1})")


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
    rec = variant_part(cp.check, where, rec, rules)  # the variant's own (``alone``; a bid typed as "moon")
    check_types(variant, rec, where, rules)
    check_pairs(rec, "calls", where, cp.seats)  # the plays are checked pair by pair by ``check_play``
    for part in ("tricks", "points"):
        recorded(rec, part, where, variant)
    return variant, rules, rec, maker


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


def check_play(variant, rec: dict, maker, where: str, turns: bool = True):
    """(plays, trump, seats in play, hands) of a checked record; for a hand thrown in, ``([], None, frozenset(), {})``.

    A hand thrown in (maker field null) has no plays; a hand played has a
    trump suit and complete plays (``hands_of``), each trick played in turn
    from its first card (``turns``; replay follows the tricks itself, and
    names the first leader the rules call for).
    """
    from bower.sim.solve import DealError, check_turn_order, parse_suit

    cp = variant.card_play
    plays = plays_of(variant, rec, where)
    if maker is None:
        if plays:
            raise RecordError(f"{where}: field 'plays': a hand thrown in ({cp.maker_field} null) has no plays")
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
    return plays, trump, active, hands


def checked(items, variant=None, required=()):
    """Yield each ``(record, where)`` of ``items`` (as ``iter_file`` gives) checked in full, in the JSON form.

    The first record fixes the variant (one per file). ``required``: the
    fields the reader needs (``check_record``). The record is yielded as
    read, with its seats as ints where they were written as digits.
    """
    for rec, where in items:
        v, _, rec2, maker = check_record(rec, where, variant, required)
        variant = v
        check_play(v, rec2, maker, where)
        yield rec, where


def checked_batches(path, batch: int = 4096, required: bool = True, columns=None):
    """Yield the records of a file in lists of up to ``batch``, each checked in full (``checked``), streaming.

    ``required``: each record must carry every field of its variant's
    records (``variant.record_fields``), as ``bower simulate --records``
    writes them.
    """
    from bower.sim.variants import get_variant

    from bower.sim.variants import all_variants, names

    items = iter_file(path, columns)
    first = next(items)
    name = first[0].get("variant")
    if not isinstance(name, str) or name not in {v.name for v in all_variants()}:
        raise RecordError(f"{path}: record 0 is not a bower hand record of a known variant ({', '.join(names())})")
    v, *_ = check_record(first[0], first[1])
    need = tuple(sorted(get_variant(v.name).record_fields)) if required else ()
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
