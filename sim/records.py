"""Per-hand records: kernel rows to dicts, and streaming, atomic ``.jsonl`` / ``.parquet`` writers.

A record is what the rules produced for one hand, in RULES.md notation:
``variant``, ``rules_version``, ``rules``, ``hand``, ``dealer``, ``deal``
(seat string -> cards as dealt, plus ``"ghost"``), ``swap``, ``calls``
(``[seat, call]``), ``maker``, ``bid`` (6 = moon), ``trump``, ``plays``
(``[seat, card]``), ``tricks`` and ``points`` (seat string -> number).
A file is written under a temporary name and renamed when complete, so a
failed or interrupted run never leaves a half-written file under its name.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import tempfile

import numpy as np

from sim.cards import card_str, mask_str
from sim.errors import UserError, os_reason
from sim.rules import RULES_VERSION  # noqa: F401  (the records carry it)

SEAT_KEYS = ("0", "1", "2")
CARD_NAMES = [card_str(c) for c in range(25)]
# the card strings of each 6-bit pattern of one suit, so a mask converts a suit at a time
_SUIT_PATTERNS = [[mask_str(bits << (6 * s)) for bits in range(64)] for s in range(4)]


def _cards(mask: int) -> list[str]:
    """Card strings of a mask in ascending card order (same as ``sim.cards.mask_str``, faster)."""
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


def to_dicts(records: np.ndarray, first_hand: int, variant, rules: dict) -> list[dict]:
    """Record dicts of a batch of kernel rows whose first row is hand ``first_hand``."""
    with gc_paused():
        return [row_to_dict(records[i], first_hand + i, variant, rules) for i in range(records.shape[0])]


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


class JsonlWriter:
    """Streams record dicts as JSON lines (unbuffered: a failed write fails at once, nothing is left to flush)."""

    def __init__(self, path: str, variant, rules: dict):
        self.variant, self.rules = variant, rules
        self.file = _AtomicFile(path)
        try:
            self.fh = open(self.file.tmp, "wb", buffering=0)
        except OSError as e:
            self.file.abort()
            raise self.file.fault(e) from None

    def _put(self, text: str) -> None:
        data = memoryview(text.encode("utf-8"))
        try:
            while data:
                data = data[self.fh.write(data):]
        except OSError as e:
            raise self.file.fault(e) from None

    def write(self, first_hand: int, records: np.ndarray) -> None:
        """Append the records of a batch of kernel rows."""
        dicts = to_dicts(records, first_hand, self.variant, self.rules)
        with gc_paused():
            self._put("".join(json.dumps(d, separators=(",", ":")) + "\n" for d in dicts))

    def write_dicts(self, dicts: list[dict]) -> None:
        """Append record dicts as they are."""
        with gc_paused():
            self._put("".join(json.dumps(d, separators=(",", ":")) + "\n" for d in dicts))

    def close(self) -> None:
        """Finish the file and give it its name."""
        try:
            self.fh.close()
        except OSError as e:
            raise self.file.fault(e) from None
        self.file.commit()

    def abort(self) -> None:
        """Drop the partial file."""
        try:
            self.fh.close()
        except OSError:
            pass
        self.file.abort()


class ParquetWriter:
    """Streams records into a Parquet file, one row group per batch.

    Parquet lists hold one type, so ``calls`` and ``plays`` pairs are stored as
    ``[seat, value]`` string pairs (``["0", "moon"]``); ``bower`` reads them
    back as ints where the JSON form has ints.
    """

    def __init__(self, path: str, variant, rules: dict, extra: list | None = None):
        import pyarrow as pa
        import pyarrow.parquet as pq

        self.variant, self.rules = variant, rules
        self.schema = parquet_schema(variant, rules)
        for name, typ in extra or []:
            self.schema = self.schema.append(pa.field(name, typ))
        self.file = _AtomicFile(path)
        try:
            self.writer = pq.ParquetWriter(self.file.tmp, self.schema)
        except OSError as e:
            self.file.abort()
            raise self.file.fault(e) from None
        except BaseException:
            self.file.abort()
            raise

    def _put(self, table) -> None:
        try:
            self.writer.write_table(table)
        except OSError as e:
            raise self.file.fault(e) from None

    def write(self, first_hand: int, records: np.ndarray) -> None:
        """Append the records of a batch of kernel rows as one row group."""
        import pyarrow as pa

        rows = to_dicts(records, first_hand, self.variant, self.rules)
        with gc_paused():
            for d in rows:
                d["calls"] = [[str(s), c] for s, c in d["calls"]]
                d["plays"] = [[str(s), c] for s, c in d["plays"]]
            table = pa.Table.from_pylist(rows, schema=self.schema)
        self._put(table)

    def write_dicts(self, dicts: list[dict]) -> None:
        """Append record dicts in the JSON form as one row group."""
        import pyarrow as pa

        with gc_paused():
            rows = [dict(d, calls=[[str(a), b] for a, b in d["calls"]], plays=[[str(a), b] for a, b in d["plays"]])
                    for d in dicts]
            table = pa.Table.from_pylist(rows, schema=self.schema)
        self._put(table)

    def close(self) -> None:
        """Finish the file and give it its name."""
        try:
            self.writer.close()
        except OSError as e:
            raise self.file.fault(e) from None
        self.file.commit()

    def abort(self) -> None:
        """Drop the partial file."""
        try:
            self.writer.close()
        except Exception:  # a full disk again: the file goes anyway
            pass
        finally:
            self.file.abort()


def open_writer(path: str, variant, rules: dict, extra: list | None = None):
    """A streaming writer for ``path`` chosen by its extension (``.jsonl`` or ``.parquet``).

    ``extra``: (name, Arrow type) of fields added after the variant's own (Parquet only needs them).
    """
    lower = str(path).lower()
    if lower.endswith(".jsonl"):
        return JsonlWriter(path, variant, rules)
    if lower.endswith(".parquet"):
        return ParquetWriter(path, variant, rules, extra)
    raise RecordsError(f"records file {path} must end in .jsonl or .parquet")


def read_records(path: str) -> list[dict]:
    """Records of a ``.jsonl`` or ``.parquet`` file as dicts in the JSON form."""
    if str(path).lower().endswith(".parquet"):
        import pyarrow.parquet as pq

        rows = pq.read_table(path).to_pylist()
        for d in rows:
            d["calls"] = [[int(s), c] for s, c in d["calls"]]
            d["plays"] = [[int(s), c] for s, c in d["plays"]]
        return rows
    out = []
    with open(path, encoding="utf-8-sig") as fh:  # a byte-order mark some editors write is not part of the data
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                out.append(json.loads(line))
            except ValueError as e:
                raise RecordsError(f"cannot read records from {path}: line {lineno} is not JSON "
                                   f"({getattr(e, 'msg', e)}, column {getattr(e, 'colno', '?')})") from None
    return out


def read_records_checked(path: str) -> list[dict]:
    """``read_records`` with bad input as RecordsError: missing file, wrong format, no records, mixed variants."""
    lower = str(path).lower()
    if not (lower.endswith(".jsonl") or lower.endswith(".parquet")):
        raise RecordsError(f"records file {path} must end in .jsonl or .parquet")
    try:
        recs = read_records(path)
    except RecordsError:
        raise
    except FileNotFoundError:
        raise RecordsError(f"no records file {path}") from None
    except IsADirectoryError:
        raise RecordsError(f"cannot read records from {path}: it is a directory") from None
    except UnicodeDecodeError:
        raise RecordsError(f"cannot read records from {path}: it is not UTF-8 text") from None
    except (OSError, ValueError) as e:
        raise RecordsError(f"cannot read records from {path}: {str(e).splitlines()[0]}") from None
    if not recs:
        raise RecordsError(f"{path} holds no records")
    first = recs[0].get("variant") if isinstance(recs[0], dict) else None
    from sim.variants import all_variants, names

    known = {v.name: v for v in all_variants()}
    if first not in known:
        raise RecordsError(f"{path}: record 0 is not a bower hand record of a known variant ({', '.join(names())})")
    needed = known[first].record_fields
    for i, r in enumerate(recs):
        if not isinstance(r, dict) or not needed <= set(r):
            raise RecordsError(f"{path}: record {i} is not a bower {first} hand record (needs {', '.join(sorted(needed))})")
        if r["variant"] != first:
            raise RecordsError(f"{path}: record {i} is variant {r['variant']!r}, record 0 {first!r}; one variant per file")
    return recs


def iter_record_batches(path: str, batch: int = 4096):
    """Yield the records of a ``.jsonl`` or ``.parquet`` file in lists of up to ``batch``, without reading it whole.

    Checked as ``read_records_checked`` (RecordsError): the format, a known
    variant, the fields its records need, one variant per file; a line that
    is not JSON is named by its line number.
    """
    lower = str(path).lower()
    if not (lower.endswith(".jsonl") or lower.endswith(".parquet")):
        raise RecordsError(f"records file {path} must end in .jsonl or .parquet")
    from sim.variants import all_variants, names

    known = {v.name: v for v in all_variants()}
    state = {"variant": None, "index": 0}

    def check(recs):
        for r in recs:
            i = state["index"]
            name = r.get("variant") if isinstance(r, dict) else None
            if state["variant"] is None:
                if name not in known:
                    raise RecordsError(f"{path}: record 0 is not a bower hand record of a known variant "
                                       f"({', '.join(names())})")
                state["variant"] = name
            needed = known[state["variant"]].record_fields
            if not isinstance(r, dict) or not needed <= set(r):
                raise RecordsError(f"{path}: record {i} is not a bower {state['variant']} hand record "
                                   f"(needs {', '.join(sorted(needed))})")
            if name != state["variant"]:
                raise RecordsError(f"{path}: record {i} is variant {name!r}, record 0 {state['variant']!r}; "
                                   "one variant per file")
            state["index"] += 1
        return recs

    try:
        if lower.endswith(".parquet"):
            import pyarrow.parquet as pq

            for b in pq.ParquetFile(path).iter_batches(batch_size=batch):
                rows = b.to_pylist()
                for d in rows:
                    d["calls"] = [[int(a), c] for a, c in d["calls"]]
                    d["plays"] = [[int(a), c] for a, c in d["plays"]]
                yield check(rows)
        else:
            with open(path, encoding="utf-8-sig") as fh:
                rows = []
                for lineno, line in enumerate(fh, 1):
                    if not line.strip():
                        continue
                    try:
                        rows.append(json.loads(line))
                    except ValueError as e:
                        raise RecordsError(f"{path}: line {lineno} is not JSON ({e.msg})") from None
                    if len(rows) == batch:
                        yield check(rows)
                        rows = []
                if rows:
                    yield check(rows)
    except FileNotFoundError:
        raise RecordsError(f"no records file {path}") from None
    except UnicodeDecodeError:
        raise RecordsError(f"cannot read records from {path}: it is not UTF-8 text") from None
    except (OSError, ValueError) as e:
        if isinstance(e, RecordsError):
            raise
        raise RecordsError(f"cannot read records from {path}: {str(e).splitlines()[0]}") from None
    if state["index"] == 0:
        raise RecordsError(f"{path} holds no records")
