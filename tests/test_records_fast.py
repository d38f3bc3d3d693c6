"""Records at full speed: the columnar path (kernel rows to Arrow columns and JSON text) against the dict path.

The dict path (``Variant.row_to_dict`` per hand, ``json.dumps`` per record,
``pa.Table.from_pylist``) is the reference twin: it is what the records were
before the columnar path, and ``runner.hand_records`` still builds its dicts
that way. Every variant under several rule sets and strategies, over more
than a chunk of hands (a chunk boundary included), must give the same bytes
in JSONL and the same values in Parquet. Then the metadata every records file
carries (Parquet key-value metadata, the JSONL sidecar), the derived Parquet
columns, and the writer thread's failures.
"""

from __future__ import annotations

import json

import numpy as np
import pyarrow.parquet as pq
import pytest

from bower.sim import records as rec_mod
from bower.sim import runner
from bower.sim.records_check import FastCheck, check_record
from bower.sim.rules import get_variant, resolve

CASES = [
    ("ghost", None, "default"),
    ("ghost", {"auction": "until_passes", "stick_the_dealer": True}, "random"),
    ("ghost", {"swap": "none", "moon_set_penalty": 24, "set_keeps_tricks": True}, "aggressive"),
    ("cutthroat", None, "default"),
    ("cutthroat", {"dealer_pickup": "mandatory", "stick_the_dealer": True}, "random"),
    ("cutthroat", {"allow_turned_down_suit": True, "lone_defender_points": "lone_only"}, "aggressive"),
    ("hasenpfeffer", None, "default"),
    ("hasenpfeffer", {"bidding": "pepper", "widow": "dead"}, "random"),
    ("hasenpfeffer", {"pass_is_final": True, "all_pass": "redeal", "first_lead": "bidder"}, "aggressive"),
    ("euchre", None, "default"),
    ("euchre", None, "random"),
    ("euchre", {"stick_the_dealer": True, "allow_lone_defender": True}, "aggressive"),
]
HANDS = runner.CHUNK_SIZE + 1500  # two chunks: a chunk boundary inside


def _rows(variant, rules, strategy, hands=HANDS, seed=7):
    """(Variant, resolved rules, kernel record rows of hands 0 .. hands-1)."""
    v, rules_d, rules_vec = runner.resolve_run(variant, seed, rules)
    _, params = runner.seat_params(strategy, v.name)
    out = []
    runner.run_hands(0, hands, seed, rules_vec, params, True, lambda f, r, s: out.append(r), 2, v)
    return v, rules_d, np.concatenate(out)


def _reference_lines(v, rules_d, rows, first):
    """The dict path's JSON lines: ``json.dumps`` of each ``row_to_dict`` (how records were written before)."""
    return "".join(json.dumps(v.row_to_dict(rows[i], first + i, rules_d), separators=(",", ":")) + "\n"
                   for i in range(rows.shape[0])).encode("utf-8")


@pytest.mark.parametrize("variant, rules, strategy", CASES, ids=lambda x: str(x))
def test_columnar_json_lines_are_the_dict_paths_bytes(variant, rules, strategy):
    v, rules_d, rows = _rows(variant, rules, strategy)
    assert rec_mod.has_columns(v)
    first = 3 * runner.CHUNK_SIZE  # hand numbers need not start at 0
    for lo, hi in ((0, 17), (17, rows.shape[0])):  # a small batch and a large one
        got = bytes(rec_mod.json_lines(rec_mod.record_columns(v, rows[lo:hi], first + lo, rules_d), hi - lo))
        assert got == _reference_lines(v, rules_d, rows[lo:hi], first + lo)
    assert bytes(rec_mod.json_lines(rec_mod.record_columns(v, rows[:0], 0, rules_d), 0)) == b""


def _shapes(rec: dict, pre: str = "") -> set:
    """What a record shows of its kind: each field's (name, type, value) (a number's from -49 to 49 only), each
    list's length, each call; nested objects' fields by their path (``hand``, unique to each record, left out)."""
    out = set()
    for k, x in rec.items():
        if k == "hand":
            continue
        if isinstance(x, dict):
            out |= _shapes(x, f"{pre}{k}.")
        elif isinstance(x, list):
            out.add((pre + k, "len", len(x)))
            if k == "calls":
                out |= {(pre + k, "call", c) for _, c in x}
        else:
            out.add((pre + k, type(x).__name__, x if not isinstance(x, int) or abs(x) < 50 else "big"))
    return out


def _covering(v, rules_d, rows) -> np.ndarray:
    """Indices of ``rows``: the first 1,000, the 500 about the chunk boundary, and each other row whose record shows
    something (``_shapes``) that no row before it showed. The Parquet test's values do not depend on how many
    records there are, only on which kinds (nulls, lone hands, rare bids and scores, each card in each field): these
    rows hold every kind the whole run holds (``seen``, built in order, is the union of all rows' shapes), at about
    a quarter of the records, so every pass over them costs a quarter. (The JSON test reads every row.)"""
    base = set(range(1_000)) | set(range(runner.CHUNK_SIZE - 250, runner.CHUNK_SIZE + 250))
    seen, keep = set(), []
    for i, rec in enumerate(rec_mod.to_dicts(rows, 0, v, rules_d)):
        new = _shapes(rec) - seen
        if i in base or new:
            keep.append(i)
            seen |= new
    return np.array(keep)


@pytest.mark.parametrize("variant, rules, strategy", CASES, ids=lambda x: str(x))
def test_columnar_parquet_holds_the_dict_paths_values(variant, rules, strategy, tmp_path):
    v, rules_d, rows = _rows(variant, rules, strategy)
    keep = _covering(v, rules_d, rows)
    assert 1_500 <= len(keep) < len(rows) // 2
    rows = rows[keep]
    path = tmp_path / "r.parquet"
    w = rec_mod.open_writer(str(path), v, rules_d)
    w.write(0, rows[:100])
    w.write(100, rows[100:])
    w.close()
    want = rec_mod.to_dicts(rows, 0, v, rules_d)
    assert rec_mod.read_records(str(path)) == want
    batches = [r for b in rec_mod.iter_record_batches(str(path), 1000) for r in b]
    assert batches == want
    # every record passes the quick checks, record by record and column-wise (else each is checked field by field:
    # rightly, but slowly); bower.read_records checks the file column-wise and reads it once
    _, rules_0, _, _ = check_record(want[0], "record 0", v)
    fast = FastCheck(v, want[0], rules_0, tuple(sorted(v.record_fields)))
    assert all(fast.ok(r) for r in want)
    columns = rec_mod._record_columns(str(path))
    assert all(fast.ok_batch(b) for b in pq.ParquetFile(path).iter_batches(batch_size=1000, columns=columns))
    assert rec_mod.check_parquet_file(str(path), whole=True).num_rows == len(want)
    # the same file through the dict path's writer (bower solve's) reads back the same
    path2 = tmp_path / "d.parquet"
    w = rec_mod.open_writer(str(path2), v, rules_d)
    w.write_dicts(want)
    w.close()
    assert rec_mod.read_records(str(path2)) == want
    assert pq.read_table(path).equals(pq.read_table(path2))
    # and through pyarrow's writer from the same columns (the path before records_parquet)
    path3 = tmp_path / "a.parquet"
    w = rec_mod.ParquetWriter(str(path3), v, rules_d, direct=False)
    w.write(0, rows[:100])
    w.write(100, rows[100:])
    w.close()
    assert pq.read_table(path).equals(pq.read_table(path3))
    assert pq.read_schema(path).equals(pq.read_schema(path3))


@pytest.mark.parametrize("variant, rules, strategy", CASES[::3], ids=lambda x: str(x))
def test_direct_parquet_reads_the_same_in_duckdb_and_pandas(variant, rules, strategy, tmp_path):
    import duckdb
    import pandas as pd

    v, rules_d, rows = _rows(variant, rules, strategy, hands=3000)
    paths = {}
    for direct in (True, False):
        paths[direct] = p = tmp_path / f"{direct}.parquet"
        w = rec_mod.ParquetWriter(str(p), v, rules_d, direct=direct)
        for lo in range(0, 3000, 1024):
            w.write(lo, rows[lo:lo + 1024])
        w.close()
    a, b = (str(paths[d]) for d in (True, False))
    con = duckdb.connect()
    assert con.sql(f"DESCRIBE SELECT * FROM '{a}'").fetchall() == con.sql(f"DESCRIBE SELECT * FROM '{b}'").fetchall()
    got = con.sql(f"SELECT * FROM '{a}' ORDER BY hand").fetchall()
    assert got == con.sql(f"SELECT * FROM '{b}' ORDER BY hand").fetchall() and len(got) == 3000
    assert con.sql(f"SELECT count(*) FROM '{a}' WHERE hand BETWEEN 1024 AND 1030").fetchall() == [(7,)]
    pa_, pb = (pd.read_parquet(x) for x in (a, b))  # (nested values are dicts of arrays: compared as JSON)
    assert pa_.dtypes.equals(pb.dtypes) and pa_.to_json(orient="records") == pb.to_json(orient="records")
    # one row group per batch, `hand`'s statistics (min, max) in each, no other column's
    md = pq.ParquetFile(a).metadata
    assert md.num_row_groups == 3 and md.num_rows == 3000
    names = [md.row_group(0).column(i).path_in_schema for i in range(md.num_columns)]
    for g in range(3):
        rg = md.row_group(g)
        st = rg.column(names.index("hand")).statistics
        assert (st.min, st.max, st.null_count) == (1024 * g, min(1024 * (g + 1), 3000) - 1, 0)
        assert [rg.column(i).statistics is None for i in range(md.num_columns) if names[i] != "hand"] == \
            [True] * (md.num_columns - 1)


def test_the_direct_encoding_loops_against_plain_python():
    # the RLE / bit-packed hybrid and the list levels of bower.sim.records_parquet, decoded by a slow twin
    from bower.sim import records_parquet as rp

    def decode(buf, bw, n):
        buf, out, p = bytes(buf), [], 0
        while len(out) < n:
            h, p = rp._read_uvarint(buf, p)
            if h & 1:
                bits = int.from_bytes(bytes(buf[p:p + (h >> 1) * bw]), "little")
                p += (h >> 1) * bw
                out += [(bits >> (bw * k)) & ((1 << bw) - 1) for k in range((h >> 1) * 8)]
            else:
                nb = (bw + 7) // 8
                out += [int.from_bytes(bytes(buf[p:p + nb]), "little")] * (h >> 1)
                p += nb
        return out[:n], p

    rng = np.random.default_rng(5)
    for n in (0, 1, 7, 8, 9, 63 * 8 + 3, 5000):
        for bw in (1, 2, 3, 5, 9, 13):
            x = rng.integers(0, 1 << bw, n)
            x[n // 3: n // 2] = x[n // 3] if n else 0  # a run inside
            enc = rp.hybrid(x, bw)
            assert decode(enc, bw, n) == (x.tolist(), len(enc))
    counts = rng.integers(0, 4, 300)
    counts[:5] = 0
    offsets = rec_mod.offsets_of(counts)
    for width in (1, 2):
        want_rep, want_def = [], []
        for c in counts:
            if c == 0:
                want_rep.append(0)
                want_def.append(1)
            for j in range(c):
                want_rep += [1 if j else 0] + [2] * (width - 1)
                want_def += [1 + 2 * width] * width
        levels = rp._list_levels(offsets, width, 1 + 2 * width)
        n_rep = int.from_bytes(levels[:4], "little")
        assert decode(levels[4:4 + n_rep], width, len(want_rep))[0] == want_rep
        n_def = int.from_bytes(levels[4 + n_rep:8 + n_rep], "little")
        assert decode(levels[8 + n_rep:8 + n_rep + n_def], rp._bits(1 + 2 * width), len(want_def)) == \
            (want_def, n_def)
    seats, idx = rng.integers(0, 3, 100).astype(np.int32), rng.integers(0, 24, 100).astype(np.int32)
    packed = rp._packed_values(seats, 27, idx, 3)
    assert packed[0] == 5 and decode(packed[1:], 5, 200)[0] == np.stack([seats, idx + 3], 1).reshape(-1).tolist()


@pytest.mark.parametrize("variant", ["ghost", "cutthroat", "hasenpfeffer", "euchre"])
def test_derived_parquet_columns(variant, tmp_path):
    v, rules_d, rows = _rows(variant, None, "random", hands=3000)
    path = tmp_path / "r.parquet"
    w = rec_mod.open_writer(str(path), v, rules_d)
    w.write(0, rows)
    w.close()
    table = pq.read_table(path)
    meta = rec_mod.read_meta(str(path))
    derived = [n for n, _ in rec_mod.derived_fields(v, rules_d)]
    assert meta["derived_columns"] == derived == table.column_names[-len(derived):]
    recs = rec_mod.read_records(str(path))
    assert set(recs[0]) == set(table.column_names) - set(derived)  # bower's readers leave them out
    maker = v.card_play.maker_field
    for r, flat in zip(recs, table.select(derived).to_pylist()):
        m = r[maker]
        assert flat["maker_position"] == (None if m is None else (m - r["dealer"] - 1) % v.players + 1)
        for key, x in r["tricks"].items():
            assert flat[f"tricks_{key}"] == x
        for key, x in r["points"].items():
            assert flat[f"points_{key}"] == x
    # the strings are plain strings to any reader (the writer's dictionary codes are not in the file's schema)
    assert str(pq.read_schema(path).field("plays").type) == "list<element: list<element: string>>"


@pytest.mark.parametrize("ext", ["jsonl", "parquet"])
def test_a_records_file_says_how_it_was_made(ext, tmp_path):
    path = tmp_path / f"r.{ext}"
    runner.simulate(variant="cutthroat", hands=5000, seed=12, threads=1, rules={"stick_the_dealer": True},
                    strategy="aggressive", records_path=str(path), command="bower simulate ...")
    meta = rec_mod.read_meta(str(path))
    v = get_variant("cutthroat")
    assert meta["format"] == "bower-records" and meta["format_version"] == 1
    assert meta["variant"] == "cutthroat" and meta["rules"] == resolve(v, {"stick_the_dealer": True})
    assert meta["rules_version"] == rec_mod.RULES_VERSION
    assert meta["bower_version"] == rec_mod.bower_version()
    assert meta["seed"] == 12 and meta["first_hand"] == 0 and meta["hands"] == 5000
    assert meta["strategy"] == "aggressive" and meta["command"] == "bower simulate ..."
    assert [s["seat"] for s in meta["seats"]] == [0, 1, 2]
    assert all(s["strategy"] == "aggressive" and s["params"] == v.presets["aggressive"] for s in meta["seats"])
    if ext == "jsonl":
        side = tmp_path / "r.jsonl.meta.json"
        assert json.loads(side.read_text()) == meta
        assert sorted(p.name for p in tmp_path.iterdir()) == ["r.jsonl", "r.jsonl.meta.json"]
    else:
        assert "derived_columns" in meta
        assert sorted(p.name for p in tmp_path.iterdir()) == ["r.parquet"]


def test_the_metadata_of_seats_that_differ(tmp_path):
    path = tmp_path / "r.jsonl"
    runner.simulate(hands=100, seed=1, strategy=["default", "random", "aggressive"], records_path=str(path))
    meta = rec_mod.read_meta(str(path))
    assert meta["strategy"] == "default/random/aggressive"
    assert [s["strategy"] for s in meta["seats"]] == ["default", "random", "aggressive"]
    assert "command" not in meta  # the library was called, not a command line


def test_the_cli_records_its_command(tmp_path):
    from click.testing import CliRunner

    from bower.sim.cli import cli

    path = tmp_path / "r.parquet"
    out = CliRunner().invoke(cli, ["simulate", "--hands", "200", "--seed", "4", "--rule", "swap=none", "-q",
                                   "--records", str(path)])
    assert out.exit_code == 0, out.output
    meta = rec_mod.read_meta(str(path))
    rules = " ".join(f"--rule {k}={str(x).lower() if isinstance(x, bool) else x}"
                     for k, x in resolve(get_variant("ghost"), {"swap": "none"}).items())
    assert meta["command"] == (f"bower simulate --variant ghost --hands 200 --seed 4 --strategy default {rules} "
                               f"--records {path}")
    # the command writes the same records again
    again = tmp_path / "again.parquet"
    args = meta["command"].split()[1:-1] + [str(again), "-q"]
    assert CliRunner().invoke(cli, args).exit_code == 0
    assert rec_mod.read_records(str(again)) == rec_mod.read_records(str(path))


def test_a_sidecar_goes_with_a_failed_file(tmp_path, monkeypatch):
    # the records file cannot take its name: neither it nor its new sidecar is left, the old pair stays as it was
    path = tmp_path / "r.jsonl"
    runner.simulate(hands=50, seed=1, records_path=str(path))
    old = path.read_bytes(), (tmp_path / "r.jsonl.meta.json").read_bytes()
    real = rec_mod._AtomicFile.commit

    def commit(self):
        if self.path.endswith(".jsonl"):
            raise rec_mod.RecordsError("cannot write records to r.jsonl: injected")
        return real(self)

    monkeypatch.setattr(rec_mod._AtomicFile, "commit", commit)
    with pytest.raises(rec_mod.RecordsError):
        runner.simulate(hands=80, seed=2, records_path=str(path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.jsonl", "r.jsonl.meta.json"]
    assert (path.read_bytes(), (tmp_path / "r.jsonl.meta.json").read_bytes()) == old  # the old pair as it was


def test_a_failure_on_the_writer_thread_stops_the_run(tmp_path, monkeypatch):
    real, calls = rec_mod.ParquetWriter.prepare, []

    def prepare(self, first, rows):
        calls.append(first)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(self, first, rows)

    monkeypatch.setattr(rec_mod.ParquetWriter, "prepare", prepare)
    path = tmp_path / "r.parquet"
    with pytest.raises(OSError):
        runner.simulate(hands=5 * runner.RECORD_BATCH_CHUNKS * runner.CHUNK_SIZE, seed=1, threads=1,
                        records_path=str(path))
    assert list(tmp_path.iterdir()) == []


def test_records_files_do_not_depend_on_the_writer_threads(tmp_path, monkeypatch):
    n = 2 * runner.RECORD_BATCH_CHUNKS * runner.CHUNK_SIZE + 99
    outs = []
    for workers in (1, 3):
        monkeypatch.setattr(runner, "RECORD_WORKERS", workers)
        for ext in ("jsonl", "parquet"):
            p = tmp_path / f"w{workers}.{ext}"
            runner.simulate(hands=n, seed=3, threads=2, records_path=str(p))
            outs.append(p.read_bytes())
    assert outs[0] == outs[2] and outs[1] == outs[3]


def test_a_sidecar_that_cannot_be_written_is_found_before_the_run(capsys, tmp_path):
    from tests.cli_run import listing, one_error

    (tmp_path / "r.jsonl.meta.json").mkdir()
    line = one_error(capsys, "simulate", "--hands", "100", "--records", str(tmp_path / "r.jsonl"))
    assert line == (f"bower: error: cannot write records to {tmp_path / 'r.jsonl'}: its metadata file "
                    f"{tmp_path / 'r.jsonl.meta.json'} is a directory")
    assert listing(tmp_path) == ["r.jsonl.meta.json"]
