"""Golden files: the same seed gives the same summaries and records as before the variants became plug-ins.

``tests/golden/`` was written by the commands below at commit bca62ee (the
commit before the move). Summaries are compared whole, less the keys that
measure the machine (timings, thread count, whether a kernel compiled);
records are compared by the SHA-256 of the whole file, and their first 50
lines verbatim so that a mismatch shows where it starts. Should-bid answers
are asked under ``--model exact`` (the model they were written under) and
compared on the fields they had then.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from bower.sim.cli import cli

GOLDEN = Path(__file__).parent / "golden"
MACHINE_KEYS = ("elapsed", "per_second", "warm_up", "compiled", "threads")

SUMMARIES = {}
for _v in ("ghost", "cutthroat", "hasenpfeffer"):
    SUMMARIES[f"{_v}.hands"] = ["simulate", "--variant", _v, "--hands", "30000", "--seed", "11", "--json"]
    SUMMARIES[f"{_v}.games"] = ["simulate", "--variant", _v, "--games", "2000", "--seed", "3", "--json"]
    SUMMARIES[f"{_v}.experiment"] = ["experiment", "--variant", _v, "default", "aggressive", "--games", "2000",
                                     "--seed", "2", "--json"]
SUMMARIES["ghost.advice"] = ["should-bid", "JH JD AH KH 9S TC", "--position", "1", "--samples", "3000", "--seed", "4",
                             "--json"]
SUMMARIES["cutthroat.advice"] = ["should-bid", "JH JD AH KH 9S", "--variant", "cutthroat", "--upcard", "QH",
                                 "--position", "1", "--samples", "3000", "--seed", "4", "--json"]
SUMMARIES["hasenpfeffer.advice"] = ["should-bid", "JH JD AH KH 9S TC", "--variant", "hasenpfeffer", "--position", "1",
                                    "--samples", "3000", "--seed", "4", "--json"]

RECORDS = {}
for _v in ("ghost", "cutthroat", "hasenpfeffer"):
    RECORDS[f"{_v}.records"] = ["simulate", "--variant", _v, "--hands", "5000", "--seed", "5"]
RECORDS["ghost.rules.records"] = ["simulate", "--hands", "3000", "--seed", "9", "--rule", "auction=until_passes",
                                  "--rule", "stick_the_dealer=true", "--strategy", "random"]
RECORDS["cutthroat.rules.records"] = ["simulate", "--variant", "cutthroat", "--hands", "3000", "--seed", "9", "--rule",
                                      "dealer_pickup=mandatory", "--rule", "stick_the_dealer=true"]
RECORDS["hasenpfeffer.rules.records"] = ["simulate", "--variant", "hasenpfeffer", "--hands", "3000", "--seed", "9",
                                         "--rule", "bidding=pepper", "--rule", "widow=dead"]


def _strip(obj):
    """``obj`` without the keys that describe the machine and the moment rather than the run.

    Also without the parameters that came after the golden files, the PIMC
    card player's (``pimc_*``) and the game-equity bidder's switch
    (``bid_equity``): they default to 0, which changes nothing.
    """
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in obj.items()
                if not any(m in k for m in MACHINE_KEYS) and not k.startswith("pimc_") and k != "bid_equity"}
    if isinstance(obj, list):
        return [_strip(x) for x in obj]
    return obj


def _as_golden(obj, expected):
    """``obj`` cut to the keys the golden file has: should-bid answers gained fields (model, ESS, inference)."""
    if isinstance(obj, dict) and isinstance(expected, dict):
        return {k: _as_golden(obj[k], expected[k]) for k in expected if k in obj}
    if isinstance(obj, list) and isinstance(expected, list) and len(obj) == len(expected):
        return [_as_golden(x, e) for x, e in zip(obj, expected)]
    return obj


@pytest.mark.parametrize("name", sorted(SUMMARIES))
def test_summary_matches_golden(name):
    # should-bid under the exact model: the other players called exactly as the strategy would (the old rejection)
    args = SUMMARIES[name] + (["--model", "exact"] if name.endswith(".advice") else [])
    out = CliRunner().invoke(cli, args)
    assert out.exit_code == 0, out.output
    expected = json.loads((GOLDEN / f"{name}.json").read_text())
    got = json.loads(out.stdout)  # stdout alone: a note (a rounded count) goes to stderr
    if name.endswith(".advice"):
        got = _as_golden(got, expected)
    assert _strip(got) == _strip(expected)


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_records_match_golden(name, tmp_path):
    path = tmp_path / "r.jsonl"
    out = CliRunner().invoke(cli, [*RECORDS[name], "--records", str(path), "--json"])
    assert out.exit_code == 0, out.output
    data = path.read_bytes()
    head = b"".join(data.splitlines(keepends=True)[:50])
    assert head == (GOLDEN / f"{name}.head.jsonl").read_bytes()
    assert hashlib.sha256(data).hexdigest() == (GOLDEN / f"{name}.sha256").read_text().strip()


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_parquet_records_hold_the_golden_values(name, tmp_path):
    # the Parquet writer (bower.sim.records_parquet, straight from the kernel rows) against the same golden
    # files: its records, read back and written as JSON lines, are the golden bytes
    from bower.sim.records import read_records

    path = tmp_path / "r.parquet"
    out = CliRunner().invoke(cli, [*RECORDS[name], "--records", str(path), "--json"])
    assert out.exit_code == 0, out.output
    data = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in read_records(str(path))).encode()
    assert b"".join(data.splitlines(keepends=True)[:50]) == (GOLDEN / f"{name}.head.jsonl").read_bytes()
    assert hashlib.sha256(data).hexdigest() == (GOLDEN / f"{name}.sha256").read_text().strip()
