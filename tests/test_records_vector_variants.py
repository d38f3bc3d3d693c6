"""The whole-batch check (``bower.sim.records_vector.batch_ok``) of the variants besides Ghost Hand (issue 33).

The records ``bower simulate --records`` writes, Parquet and JSONL, under a
few strategies and rule options (random play, going alone often), pass it
whole: ``batch_ok`` says True, and checking the file sends no record to the
record-by-record check. A record spoiled in one field (a card, a seat, a
trick count, points, a call, who went alone) is passed by it only when the
record-by-record check (``check_record`` and ``check_play``) passes it too;
the spoils the rules forbid are refused, and the file's check names them.
"""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bower
from bower.sim import records_check as rc
from bower.sim import runner
from bower.sim.variants import get_variant

HANDS = 1_500
LONE = {"alone_min": 0.5, "defend_alone_min": 0.5}  # a strategy that goes alone (and defends alone) often
CASES = {  # id -> (variant, rules, strategy)
    "euchre-default": ("euchre", None, "default"),
    "euchre-random": ("euchre", {"stick_the_dealer": True}, "random"),
    "euchre-alone": ("euchre", {"allow_lone_defender": True, "loner_lead": "loner", "canadian": True,
                                "discard_up": True, "loner_march_score": 5, "loner_euchred_score": 3}, "alone"),
    "cutthroat-default": ("cutthroat", None, "default"),
    "cutthroat-random": ("cutthroat", {"dealer_pickup": "mandatory", "maker_alone": "disabled"}, "random"),
    "cutthroat-alone": ("cutthroat", {"lone_defender_points": "lone_only"}, "alone"),
    "hasenpfeffer-default": ("hasenpfeffer", None, "default"),
    "hasenpfeffer-random": ("hasenpfeffer", {"bidding": "pepper", "first_lead": "bidder"}, "random"),
    "hasenpfeffer-dead": ("hasenpfeffer", {"widow": "dead", "all_pass": "redeal"}, "default"),
}


def _strategy(variant: str, name: str):
    if name != "alone":
        return name
    return dict(get_variant(variant).presets["default"], **LONE)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Case id -> (jsonl path, parquet path) of ``HANDS`` hands (seed 5), made once."""
    folder = tmp_path_factory.mktemp("vector")
    out = {}
    for case, (variant, rules, strategy) in CASES.items():
        paths = []
        for ext in ("jsonl", "parquet"):
            path = folder / f"{case}.{ext}"
            runner.simulate(variant=variant, hands=HANDS, seed=5, rules=rules, strategy=_strategy(variant, strategy),
                            records_path=str(path))
            paths.append(str(path))
        out[case] = tuple(paths)
    return out


def _fast(path):
    """(FastCheck of record 0, the file's record columns as one batch) of a Parquet file."""
    from bower.sim.records import _record_columns

    batch = pq.read_table(path, columns=_record_columns(path)).combine_chunks().to_batches()[0]
    first = rc._from_parquet(batch.slice(0, 1).to_pylist()[0])
    v, rules, need = rc._first_record(path, first, "record 0", True)
    return rc.FastCheck(v, first, rules, need), batch


def _full_ok(fast, rec: dict) -> bool:
    """Whether the record-by-record check (not its quick test) passes ``rec`` (JSON form)."""
    try:
        v, rules, rec2, maker = rc.check_record(rec, "r", fast.variant, tuple(sorted(fast.need)))
        rc.check_play(v, rec2, maker, "r", rules=rules)
    except rc.RecordError:
        return False
    return True


def _slow_records(monkeypatch) -> list:
    """A list that counts the records the file checks send record by record (``records_check.checked``)."""
    seen = []
    real = rc.checked

    def counting(items, *args, **kwargs):
        for item in real(items, *args, **kwargs):
            seen.append(item[1])
            yield item

    monkeypatch.setattr(rc, "checked", counting)
    return seen


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_records_simulate_writes_pass_whole(files, case, monkeypatch):
    from bower.sim.records import check_records_file
    from bower.sim.records_vector import batch_ok, covers

    jl, pqt = files[case]
    fast, batch = _fast(pqt)
    assert covers(fast.variant)
    assert batch.column(fast.cp.maker_field).null_count < batch.num_rows  # hands played
    assert batch_ok(fast, batch) is True
    for start in range(0, batch.num_rows, 500):
        assert batch_ok(fast, batch.slice(start, 500)) is True
    with open(jl, "rb") as fh:
        text = fh.read()
    bulk = rc.JsonlBulk(fast, rc._from_parquet(batch.slice(0, 1).to_pylist()[0]), text.split(b"\n")[0] + b"\n")
    assert bulk.whole and bulk.ok(text) is True
    slow = _slow_records(monkeypatch)
    check_records_file(pqt)
    assert slow == []
    check_records_file(jl)
    assert slow == [f"{jl}: record 0 (line 1)"]  # record 0 alone, in full (it makes the quick test)


@pytest.mark.parametrize("case", ["euchre-alone", "cutthroat-alone"])
def test_the_alone_case_goes_alone(files, case):
    """The going-alone cases hold lone makers and lone defenders (so fewer seats in play)."""
    _, pqt = files[case]
    recs = bower.read_records(pqt, columns=["maker", "alone"]).to_dict("records")
    makers = [r for r in recs if r["maker"] is not None and len(r["alone"])]
    assert any(r["maker"] in list(r["alone"]) for r in makers)
    assert any(len(r["alone"]) == 2 for r in makers)


# ---- one field of one record spoiled -------------------------------------------------------------

CARDS = ("9C", "TC", "JC", "QC", "KC", "AC", "9S", "TS", "JS", "QS", "KS", "AS",
         "9D", "TD", "JD", "QD", "KD", "AD", "9H", "TH", "JH", "QH", "KH", "AH", "JK")  # (the joker: Hasenpfeffer's)


def _spoil(rec: dict, field: str, k: int, value: int, n_seats: int, maker_field: str) -> dict | None:
    """``rec`` (Parquet form) with ``field`` changed (its ``k``-th part, to a value picked by ``value``); None when
    the record has no such field or part. The Arrow type of the field is kept."""
    rec = json.loads(json.dumps(rec))
    card = CARDS[value % 25]
    if field in ("plays card", "plays seat", "plays swap"):
        plays = rec["plays"]
        if len(plays) < 2:
            return None
        pair = plays[k % len(plays)]
        if field == "plays card":
            pair[1] = card
        elif field == "plays seat":
            pair[0] = str(value % n_seats)
        else:
            i, j = k % len(plays), value % len(plays)
            plays[i], plays[j] = plays[j], plays[i]
    elif field == "deal":
        hand = rec["deal"][str(k % n_seats)]
        hand[value % len(hand)] = CARDS[(k + value) % 25]
    elif field in ("kitty", "dummy", "discards maker"):
        cards = (rec.get("discards") or {}).get("maker") if field == "discards maker" else rec.get(field)
        if not cards:
            return None
        cards[k % len(cards)] = card
    elif field in ("upcard", "discard", "widow", "discards dealer"):
        if field == "discards dealer":
            if "discards" not in rec:
                return None
            rec["discards"]["dealer"] = card if value % 7 else None
        elif field not in rec:
            return None
        else:
            rec[field] = card if value % 7 else None
    elif field == "trump":
        rec["trump"] = "CSDH"[value % 4] if value % 5 else None
    elif field in ("tricks", "points"):
        keys = sorted(rec[field])
        rec[field][keys[k % len(keys)]] = value % 7 - 1
    elif field == "calls":
        if not rec["calls"]:
            return None
        pair = rec["calls"][k % len(rec["calls"])]
        if value % 2:
            pair[1] = ("pass", "order", "assist", "C", "S", "D", "H")[value % 7]
        else:
            pair[0] = str(value % n_seats)
    elif field == "alone":
        rec["alone"] = sorted({k % n_seats, value % n_seats}) if value % 3 else [value % n_seats]
    elif field == "bid":
        if field not in rec:
            return None
        rec["bid"] = ("1", "3", "6", "little-pepper", "big-pepper", "pass", "7")[value % 7] if value % 11 else None
    elif field in ("maker", "dealer"):
        rec[maker_field if field == "maker" else field] = value % n_seats if value % 5 else None
    else:
        raise AssertionError(field)
    return rec


FIELDS = ("plays card", "plays seat", "plays swap", "deal", "kitty", "dummy", "upcard", "discard", "discards dealer",
          "discards maker", "widow", "bid", "trump", "tricks", "points", "calls", "alone", "maker", "dealer")


@pytest.fixture(scope="module")
def samples(files):
    """Case id -> (FastCheck, the first 40 records as Parquet rows, the batch's schema)."""
    out = {}
    for case in CASES:
        fast, batch = _fast(files[case][1])
        out[case] = (fast, batch.slice(0, 40).to_pylist(), batch.schema)
    return out


@settings(max_examples=900, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=st.sampled_from(sorted(CASES)), i=st.integers(0, 39), field=st.sampled_from(FIELDS),
       k=st.integers(0, 30), value=st.integers(0, 400))
def test_a_spoiled_record_passes_whole_only_when_it_passes_alone(samples, case, i, field, k, value):
    from bower.sim.records_vector import batch_ok

    fast, rows, schema = samples[case]
    bad = _spoil(rows[i], field, k, value, fast.cp.seats, fast.cp.maker_field)
    if bad is None or field == "dealer" and bad["dealer"] is None:
        return  # (a null dealer: not of the Arrow type a Parquet file of these records holds; refused elsewhere)
    batch = pa.RecordBatch.from_pylist(rows[:i] + [bad] + rows[i + 1:], schema=schema)
    if batch_ok(fast, batch):
        assert _full_ok(fast, rc._from_parquet(dict(bad))), (field, bad)


def _first(rows, test):
    return next(j for j, r in enumerate(rows) if test(r))


def _refused(fast, rows, schema, at, spoil, name, tmp_path):
    """Record ``at`` spoiled by ``spoil`` (``name``): the record-by-record check refuses it, the whole-batch check
    gives False for its batch, and reading the file names the record."""
    from bower.sim.records_vector import batch_ok

    bad = spoil(json.loads(json.dumps(rows[at])))
    assert not _full_ok(fast, rc._from_parquet(dict(bad))), name
    batch = pa.RecordBatch.from_pylist(rows[:at] + [bad] + rows[at + 1:], schema=schema)
    assert batch_ok(fast, batch) is False, name
    path = tmp_path / f"{name.replace(' ', '_')}.parquet"
    pq.write_table(pa.Table.from_batches([batch]), path)
    with pytest.raises(bower.BowerError, match=f"record {at}\\b"):
        bower.read_records(str(path))


def test_the_rules_spoils_are_refused_and_named(samples, tmp_path):
    """Spoils the rules forbid: each refused whole, and the file's check names the record."""
    fast, rows, schema = samples["euchre-default"]
    j = _first(rows, lambda r: r["maker"] is not None and r["discard"] is not None and not r["alone"])
    lone = _first(rows, lambda r: r["maker"] is not None and len(r["alone"]) == 1)
    spoils = {
        "partner alone": (j, lambda r: dict(r, alone=[(r["maker"] + 2) % 4])),
        "defender alone": (j, lambda r: dict(r, alone=[(r["maker"] + 1) % 4])),
        "discard not held": (j, lambda r: dict(r, discard=next(c for c in CARDS if c not in r["deal"][str(r["dealer"])]
                                                               and c != r["upcard"]))),
        "discard the up-card": (j, lambda r: dict(r, discard=r["upcard"])),
        "lone player's partner plays": (lone, lambda r: dict(r, alone=[])),
        "out of turn": (j, lambda r: dict(r, plays=[r["plays"][1], r["plays"][0]] + r["plays"][2:])),
        "wrong leader": (j, lambda r: dict(r, dealer=(r["dealer"] + 1) % 4)),
        "trump": (j, lambda r: dict(r, trump=next(s for s in "CSDH" if s != r["trump"]))),
    }
    for name, (at, spoil) in spoils.items():
        _refused(fast, rows, schema, at, spoil, name, tmp_path)


def test_cutthroat_rules_spoils_are_refused_and_named(samples, tmp_path):
    """Cutthroat's own: the dummy and the maker's discards, a lone defender's partner sitting out, who leads."""

    fast, rows, schema = samples["cutthroat-default"]
    j = _first(rows, lambda r: r["maker"] is not None and not r["alone"] and r["discards"]["maker"])
    spoils = {
        "maker's discard not held": lambda r: dict(r, discards=dict(r["discards"], maker=[next(
            c for c in CARDS if c not in r["deal"][str(r["maker"])] + r["dummy"])] + r["discards"]["maker"][1:])),
        "two lone defenders": lambda r: dict(r, alone=[s for s in range(3) if s != r["maker"]]),
        "a lone defender's partner plays": lambda r: dict(r, alone=[(r["maker"] + 1) % 3]),
        "wrong leader": lambda r: dict(r, dealer=(r["dealer"] + 1) % 3),
        "out of turn": lambda r: dict(r, plays=[r["plays"][1], r["plays"][0]] + r["plays"][2:]),
    }
    for name, spoil in spoils.items():
        _refused(fast, rows, schema, j, spoil, name, tmp_path)


def test_hasenpfeffer_rules_spoils_are_refused_and_named(samples, tmp_path):
    """Hasenpfeffer's own: the bid, the widow and the bidder's discard, who leads."""

    fast, rows, schema = samples["hasenpfeffer-default"]
    j = _first(rows, lambda r: r["bidder"] is not None and r["discard"] is not None)
    spoils = {
        "discard not held": lambda r: dict(r, discard=next(c for c in CARDS if c not in r["deal"][str(r["bidder"])]
                                                           and c != r["widow"])),
        "no widow": lambda r: dict(r, widow=None),
        "a bid of 7": lambda r: dict(r, bid="7"),
        "wrong leader": lambda r: dict(r, dealer=(r["dealer"] + 1) % 4),
    }
    for name, spoil in spoils.items():
        _refused(fast, rows, schema, j, spoil, name, tmp_path)


# ---------------------------------------------------------------- the helpers, on their own


def test_popcount_counts_the_same_bits_with_and_without_numpys_bitwise_count(monkeypatch):
    import numpy as np

    from bower.sim import records_vector as rv

    rng = np.random.default_rng(0)
    masks = np.concatenate([[0, 1, (1 << 62) | 1, (1 << 33) - 1], rng.integers(0, 1 << 62, 500)]).astype(np.int64)
    want = np.array([bin(int(m)).count("1") for m in masks], np.int64)
    got = rv.popcount(masks)
    assert got.dtype == np.int64 and np.array_equal(got, want)
    monkeypatch.delattr(np, "bitwise_count", raising=False)  # NumPy before 2.0
    assert np.array_equal(rv.popcount(masks), want) and np.array_equal(rv.popcount(masks.reshape(4, -1)),
                                                                        want.reshape(4, -1))


def test_an_exchange_puts_down_only_a_card_held_or_taken():
    import numpy as np

    from bower.sim.records_vector import exchange

    held = np.array([[0b0011, 0b1100], [0b0101, 0b1010]], np.int64)  # two rows, two seats
    seats = np.array([0, 1])
    ok = held.copy()
    assert exchange(ok, seats, np.array([0b10000, 0]), np.array([0b00001, 0]))  # row 0: takes one, puts one down
    assert ok.tolist() == [[0b10010, 0b1100], [0b0101, 0b1010]]
    assert exchange(ok, seats, np.array([0, 0b100000]), np.array([0, 0b100000]))  # row 1: puts down what it took
    assert ok.tolist() == [[0b10010, 0b1100], [0b0101, 0b1010]]
    for lose in (np.array([0b0100, 0]), np.array([0, 0b0001])):  # another seat's card: refused, nothing changed
        bad = held.copy()
        assert not exchange(bad, seats, np.array([0b10000, 0b10000]), lose)
        assert np.array_equal(bad, held)


# ---- the dd column (bower solve --records): the column-wise test against the record-by-record one ---------------

TRICKS = st.one_of(st.integers(0, 6), st.integers(-2 ** 63, 2 ** 63 - 1), st.none())
DD_VALUE = st.one_of(st.none(), st.fixed_dictionaries(
    {"tricks": TRICKS, "table": st.one_of(st.none(), st.fixed_dictionaries({s: TRICKS for s in "CSDH"}))}))


@settings(max_examples=300, derandomize=True, deadline=None, database=None)
@given(values=st.lists(DD_VALUE, min_size=1, max_size=6), most=st.sampled_from([5, 6]), cut=st.integers(0, 2))
def test_the_dd_column_check_passes_what_check_dd_passes(values, most, cut):
    """``records_vector.dd_ok`` (a Parquet batch's dd column at once) is True exactly when ``check_dd`` passes every
    record's dd (null: nothing to check), on a slice of the column too."""
    from bower.sim.records_vector import dd_ok
    from bower.sim.solve import dd_arrow_type

    arr = pa.array(values, dd_arrow_type()).slice(min(cut, len(values) - 1))
    want = True
    for d in arr.to_pylist():
        if d is not None:
            try:
                rc.check_dd(d, "record", most)
            except rc.RecordError:
                want = False
    assert dd_ok(arr, most) == want
