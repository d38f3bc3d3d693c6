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

from kernels.cutthroat import hand as ck
from kernels.ghost import hand as gk
from kernels.hasenpfeffer import hand as hk
from sim.cards import SUITS, card_str, mask_str
from sim.errors import UserError
from sim.rules import RULES_VERSION, Variant

CALL_NAMES = {0: "pass", 3: "3", 4: "4", 5: "5", 6: "moon"}
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


CUTTHROAT_ACCEPT = {1: "order", 2: "assist", 3: "take"}  # the round-one acceptance by position


def row_to_dict(row: np.ndarray, hand: int, variant: Variant, rules: dict) -> dict:
    """One kernel record row as the record dict."""
    if variant.name == "cutthroat":
        return cutthroat_row_to_dict(row, hand, variant, rules)
    if variant.name == "hasenpfeffer":
        return hasenpfeffer_row_to_dict(row, hand, variant, rules)
    r = row.tolist()
    maker = r[gk.R_MAKER]
    deal = {SEAT_KEYS[s]: _cards(r[gk.R_DEAL + s]) for s in range(gk.N_SEATS)}
    deal["ghost"] = _cards(r[gk.R_DEAL + 3])
    flat = r[gk.R_CALLS: gk.R_CALLS + 2 * r[gk.R_NCALLS]]
    calls = [[flat[i], CALL_NAMES[flat[i + 1]]] for i in range(0, len(flat), 2)]
    flat = r[gk.R_PLAYS: gk.R_PLAYS + 2 * r[gk.R_NPLAYS]]
    plays = [[flat[i], CARD_NAMES[flat[i + 1]]] for i in range(0, len(flat), 2)]
    return {
        "variant": variant.name,
        "rules_version": RULES_VERSION,
        "rules": dict(rules),
        "hand": hand,
        "dealer": r[gk.R_DEALER],
        "deal": deal,
        "swap": r[gk.R_SWAP] if r[gk.R_SWAP] >= 0 else None,
        "calls": calls,
        "maker": maker if maker >= 0 else None,
        "bid": r[gk.R_BID] if maker >= 0 else None,
        "trump": SUITS[r[gk.R_TRUMP]] if maker >= 0 else None,
        "plays": plays,
        "tricks": {SEAT_KEYS[s]: r[gk.R_TRICKS + s] for s in range(gk.N_SEATS)},
        "points": {SEAT_KEYS[s]: r[gk.R_POINTS + s] for s in range(gk.N_SEATS)},
    }


def cutthroat_row_to_dict(row: np.ndarray, hand: int, variant: Variant, rules: dict) -> dict:
    """One Cutthroat kernel record row as the record dict.

    Beyond the common fields: ``dummy``, ``kitty`` (in deal order),
    ``upcard`` (the kitty's first card), calls written ``order`` / ``assist``
    / ``take`` / a suit letter / ``pass``, ``discards`` (``dealer``: the card
    the dealer exchanged for the up-card or None; ``maker``: the 5 cards the
    maker put down when merging the dummy, [] when alone) and ``alone`` (the
    seats that went alone).
    """
    r = row.tolist()
    maker = r[ck.R_MAKER]
    dealer = r[ck.R_DEALER]
    deal = {SEAT_KEYS[s]: _cards(r[ck.R_DEAL + s]) for s in range(ck.N_SEATS)}
    kitty = [CARD_NAMES[c] for c in r[ck.R_KITTY: ck.R_KITTY + 4]]
    flat = r[ck.R_CALLS: ck.R_CALLS + 2 * r[ck.R_NCALLS]]
    calls = []
    for i in range(0, len(flat), 2):
        seat, code = flat[i], flat[i + 1]
        if code == ck.CALL_PASS:
            name = "pass"
        elif code == ck.CALL_ACCEPT:
            name = CUTTHROAT_ACCEPT[(seat - dealer) % 3 or 3]
        else:
            name = SUITS[code - ck.CALL_SUIT]
        calls.append([seat, name])
    flat = r[ck.R_PLAYS: ck.R_PLAYS + 2 * r[ck.R_NPLAYS]]
    plays = [[flat[i], CARD_NAMES[flat[i + 1]]] for i in range(0, len(flat), 2)]
    discard = r[ck.R_DEALER_DISCARD]
    return {
        "variant": variant.name,
        "rules_version": RULES_VERSION,
        "rules": dict(rules),
        "hand": hand,
        "dealer": dealer,
        "deal": deal,
        "dummy": _cards(r[ck.R_DUMMY]),
        "kitty": kitty,
        "upcard": kitty[0],
        "calls": calls,
        "maker": maker if maker >= 0 else None,
        "trump": SUITS[r[ck.R_TRUMP]] if maker >= 0 else None,
        "discards": {"dealer": CARD_NAMES[discard] if discard >= 0 else None, "maker": _cards(r[ck.R_MAKER_DISCARDS])},
        "alone": [s for s in range(ck.N_SEATS) if (r[ck.R_ALONE] >> s) & 1],
        "plays": plays,
        "tricks": {SEAT_KEYS[s]: r[ck.R_TRICKS + s] for s in range(ck.N_SEATS)},
        "points": {SEAT_KEYS[s]: r[ck.R_POINTS + s] for s in range(ck.N_SEATS)},
    }


HASEN_NUMERIC = ("pass", "1", "2", "3", "4", "5", "6")
HASEN_PEPPER = ("pass", "1", "2", "3", "4", "5", "little-pepper", "big-pepper")


def hasenpfeffer_row_to_dict(row: np.ndarray, hand: int, variant: Variant, rules: dict) -> dict:
    """One Hasenpfeffer kernel record row as the record dict.

    ``deal`` has four seats (the joker written ``JK``), ``widow`` the 25th
    card, calls ``"pass"``, ``"1"``..``"6"`` or ``"little-pepper"`` /
    ``"big-pepper"``; ``forced`` is true for the joker holder's forced 3
    (not a call); ``bidder``, ``bid``, ``trump``; ``discard`` the card the
    bidder put down after taking the widow (None when the widow is dead);
    ``tricks`` by seat and ``points`` by side (``"0"``: seats 0 & 2,
    ``"1"``: seats 1 & 3).
    """
    r = row.tolist()
    names = HASEN_PEPPER if rules["bidding"] == "pepper" else HASEN_NUMERIC
    bidder = r[hk.R_BIDDER]
    flat = r[hk.R_CALLS: hk.R_CALLS + 2 * r[hk.R_NCALLS]]
    calls = [[flat[i], names[flat[i + 1]]] for i in range(0, len(flat), 2)]
    flat = r[hk.R_PLAYS: hk.R_PLAYS + 2 * r[hk.R_NPLAYS]]
    plays = [[flat[i], CARD_NAMES[flat[i + 1]]] for i in range(0, len(flat), 2)]
    discard = r[hk.R_DISCARD]
    return {
        "variant": variant.name,
        "rules_version": RULES_VERSION,
        "rules": dict(rules),
        "hand": hand,
        "dealer": r[hk.R_DEALER],
        "deal": {str(s): _cards(r[hk.R_DEAL + s]) for s in range(hk.N_SEATS)},
        "widow": CARD_NAMES[r[hk.R_WIDOW]],
        "calls": calls,
        "forced": bool(r[hk.R_FORCED]),
        "bidder": bidder if bidder >= 0 else None,
        "bid": names[r[hk.R_BID]] if bidder >= 0 else None,
        "trump": SUITS[r[hk.R_TRUMP]] if bidder >= 0 else None,
        "discard": CARD_NAMES[discard] if discard >= 0 else None,
        "plays": plays,
        "tricks": {str(s): r[hk.R_TRICKS + s] for s in range(hk.N_SEATS)},
        "points": {"0": r[hk.R_POINTS], "1": r[hk.R_POINTS + 1]},
    }


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


def to_dicts(records: np.ndarray, first_hand: int, variant: Variant, rules: dict) -> list[dict]:
    """Record dicts of a batch of kernel rows whose first row is hand ``first_hand``."""
    with gc_paused():
        return [row_to_dict(records[i], first_hand + i, variant, rules) for i in range(records.shape[0])]


class _AtomicFile:
    """A temporary file beside ``path``, renamed onto it by ``commit`` or removed by ``abort``."""

    def __init__(self, path: str):
        self.path = os.path.abspath(path)
        directory = os.path.dirname(self.path)
        if os.path.isdir(self.path):
            raise RecordsError(f"cannot write records to {path}: it is a directory")
        try:
            fd, self.tmp = tempfile.mkstemp(prefix=".bower-", suffix=".part", dir=directory)
        except OSError as e:
            raise RecordsError(f"cannot write records to {path}: {e.strerror or e}") from None
        os.close(fd)

    def commit(self):
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(self.tmp, 0o666 & ~umask)
        os.replace(self.tmp, self.path)

    def abort(self):
        try:
            os.unlink(self.tmp)
        except FileNotFoundError:
            pass


class JsonlWriter:
    """Streams record dicts as JSON lines."""

    def __init__(self, path: str, variant: Variant, rules: dict):
        self.variant, self.rules = variant, rules
        self.file = _AtomicFile(path)
        self.fh = open(self.file.tmp, "w", encoding="utf-8")

    def write(self, first_hand: int, records: np.ndarray) -> None:
        """Append the records of a batch of kernel rows."""
        dicts = to_dicts(records, first_hand, self.variant, self.rules)
        with gc_paused():
            self.fh.write("".join(json.dumps(d, separators=(",", ":")) + "\n" for d in dicts))

    def close(self) -> None:
        """Finish the file and give it its name."""
        self.fh.close()
        self.file.commit()

    def abort(self) -> None:
        """Drop the partial file."""
        self.fh.close()
        self.file.abort()


def parquet_schema(variant: Variant, rules: dict):
    """The Arrow schema of a variant's records (same fields as the JSON records)."""
    import pyarrow as pa

    def rule_type(v):
        if isinstance(v, bool):
            return pa.bool_()
        if isinstance(v, int):
            return pa.int64()
        return pa.string()

    seat_ints = pa.struct([(k, pa.int64()) for k in SEAT_KEYS])
    if variant.name == "hasenpfeffer":
        four = ("0", "1", "2", "3")
        return pa.schema(
            [
                ("variant", pa.string()),
                ("rules_version", pa.string()),
                ("rules", pa.struct([(k, rule_type(v)) for k, v in rules.items()])),
                ("hand", pa.int64()),
                ("dealer", pa.int64()),
                ("deal", pa.struct([(k, pa.list_(pa.string())) for k in four])),
                ("widow", pa.string()),
                ("calls", pa.list_(pa.list_(pa.string()))),
                ("forced", pa.bool_()),
                ("bidder", pa.int64()),
                ("bid", pa.string()),
                ("trump", pa.string()),
                ("discard", pa.string()),
                ("plays", pa.list_(pa.list_(pa.string()))),
                ("tricks", pa.struct([(k, pa.int64()) for k in four])),
                ("points", pa.struct([(k, pa.int64()) for k in ("0", "1")])),
            ]
        )
    if variant.name == "cutthroat":
        return pa.schema(
            [
                ("variant", pa.string()),
                ("rules_version", pa.string()),
                ("rules", pa.struct([(k, rule_type(v)) for k, v in rules.items()])),
                ("hand", pa.int64()),
                ("dealer", pa.int64()),
                ("deal", pa.struct([(k, pa.list_(pa.string())) for k in SEAT_KEYS])),
                ("dummy", pa.list_(pa.string())),
                ("kitty", pa.list_(pa.string())),
                ("upcard", pa.string()),
                ("calls", pa.list_(pa.list_(pa.string()))),
                ("maker", pa.int64()),
                ("trump", pa.string()),
                ("discards", pa.struct([("dealer", pa.string()), ("maker", pa.list_(pa.string()))])),
                ("alone", pa.list_(pa.int64())),
                ("plays", pa.list_(pa.list_(pa.string()))),
                ("tricks", seat_ints),
                ("points", seat_ints),
            ]
        )
    return pa.schema(
        [
            ("variant", pa.string()),
            ("rules_version", pa.string()),
            ("rules", pa.struct([(k, rule_type(v)) for k, v in rules.items()])),
            ("hand", pa.int64()),
            ("dealer", pa.int64()),
            ("deal", pa.struct([(k, pa.list_(pa.string())) for k in (*SEAT_KEYS, "ghost")])),
            ("swap", pa.int64()),
            ("calls", pa.list_(pa.list_(pa.string()))),
            ("maker", pa.int64()),
            ("bid", pa.int64()),
            ("trump", pa.string()),
            ("plays", pa.list_(pa.list_(pa.string()))),
            ("tricks", seat_ints),
            ("points", seat_ints),
        ]
    )


class ParquetWriter:
    """Streams records into a Parquet file, one row group per batch.

    Parquet lists hold one type, so ``calls`` and ``plays`` pairs are stored as
    ``[seat, value]`` string pairs (``["0", "moon"]``); ``bower`` reads them
    back as ints where the JSON form has ints.
    """

    def __init__(self, path: str, variant: Variant, rules: dict):
        import pyarrow.parquet as pq

        self.variant, self.rules = variant, rules
        self.schema = parquet_schema(variant, rules)
        self.file = _AtomicFile(path)
        self.writer = pq.ParquetWriter(self.file.tmp, self.schema)

    def write(self, first_hand: int, records: np.ndarray) -> None:
        """Append the records of a batch of kernel rows as one row group."""
        import pyarrow as pa

        rows = to_dicts(records, first_hand, self.variant, self.rules)
        with gc_paused():
            for d in rows:
                d["calls"] = [[str(s), c] for s, c in d["calls"]]
                d["plays"] = [[str(s), c] for s, c in d["plays"]]
            table = pa.Table.from_pylist(rows, schema=self.schema)
        self.writer.write_table(table)

    def close(self) -> None:
        """Finish the file and give it its name."""
        self.writer.close()
        self.file.commit()

    def abort(self) -> None:
        """Drop the partial file."""
        try:
            self.writer.close()
        finally:
            self.file.abort()


def open_writer(path: str, variant: Variant, rules: dict):
    """A streaming writer for ``path`` chosen by its extension (``.jsonl`` or ``.parquet``)."""
    lower = str(path).lower()
    if lower.endswith(".jsonl"):
        return JsonlWriter(path, variant, rules)
    if lower.endswith(".parquet"):
        return ParquetWriter(path, variant, rules)
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
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


NEEDED_FIELDS = {
    "ghost": {"variant", "dealer", "deal", "swap", "maker", "bid", "trump", "tricks", "points"},
    "cutthroat": {"variant", "dealer", "deal", "dummy", "kitty", "upcard", "calls", "maker", "trump", "discards",
                  "alone", "tricks", "points"},
    "hasenpfeffer": {"variant", "dealer", "deal", "widow", "calls", "forced", "bidder", "bid", "trump", "discard",
                     "tricks", "points"},
}


def read_records_checked(path: str) -> list[dict]:
    """``read_records`` with bad input as RecordsError: missing file, wrong format, no records, mixed variants."""
    lower = str(path).lower()
    if not (lower.endswith(".jsonl") or lower.endswith(".parquet")):
        raise RecordsError(f"records file {path} must end in .jsonl or .parquet")
    try:
        recs = read_records(path)
    except FileNotFoundError:
        raise RecordsError(f"no records file {path}") from None
    except (OSError, ValueError) as e:
        raise RecordsError(f"cannot read records from {path}: {str(e).splitlines()[0]}") from None
    if not recs:
        raise RecordsError(f"{path} holds no records")
    first = recs[0].get("variant") if isinstance(recs[0], dict) else None
    if first not in NEEDED_FIELDS:
        raise RecordsError(f"{path}: record 0 is not a bower hand record of a known variant ({', '.join(NEEDED_FIELDS)})")
    needed = NEEDED_FIELDS[first]
    for i, r in enumerate(recs):
        if not isinstance(r, dict) or not needed <= set(r):
            raise RecordsError(f"{path}: record {i} is not a bower {first} hand record (needs {', '.join(sorted(needed))})")
        if r["variant"] != first:
            raise RecordsError(f"{path}: record {i} is variant {r['variant']!r}, record 0 {first!r}; one variant per file")
    return recs
