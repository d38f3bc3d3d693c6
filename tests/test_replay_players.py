"""``bower replay --dd`` over many hands: the table by player, the costliest cards, the plot, folder input.

Every count of the table is made again here from the per-card output
(``--json``'s ``costs``, and the text's ``(cost N, best ...)``) and from the
legal cards each seat had (``bower.sim.solve.legal_cards`` on the cards each
seat played, which are its hand at the first lead).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from bower.sim import runner
from bower.sim import solve as S
from bower.sim.cards import parse_card
from tests.cli_run import listing, one_error, run

EGN = Path(__file__).resolve().parent / "data" / "egn"
GAME = EGN / "Me and Bears.egn"
SUITS = "CSDH"


def _json(capsys, *args) -> tuple[list[dict], dict | None]:
    code, out, err = run(capsys, "replay", *args, "--dd", "--json")
    assert code == 0, err
    lines = [json.loads(x) for x in out.splitlines()]
    table = [x for x in lines if "players" in x]
    assert len(table) <= 1 and (not table or lines[-1] is table[0])
    return [x for x in lines if "players" not in x], (table[0] if table else None)


def _choices(r: dict) -> list[int]:
    """How many legal cards each play had, counted from the cards each seat played (its hand at the first lead)."""
    hands: dict[int, int] = {}
    for seat, card in r["plays"]:
        hands[seat] = hands.get(seat, 0) | 1 << parse_card(card)
    trump = SUITS.index(r["trump"])
    trick: list = []
    out = []
    for seat, card in r["plays"]:
        c = parse_card(card)
        out.append(bin(S.legal_cards(hands[seat], trump, trick)).count("1"))
        hands[seat] &= ~(1 << c)
        trick.append((seat, c))
        if len(trick) == len(r["in_play"]):
            trick = []
    return out


def _expected(hands: list[dict], names=None) -> dict[str, dict]:
    rows: dict[str, dict] = {}
    for r in hands:
        if r["thrown_in"]:
            continue
        for c, n in zip(r["costs"], _choices(r)):
            nm = (names.get(r.get("file")) if isinstance(names, dict) else names)
            who = nm[c["seat"]] if nm else f"seat {c['seat']}"
            row = rows.setdefault(who, {"player": who, "cards": 0, "choice": 0, "cost_a_trick": 0,
                                        "lost_as_maker": 0, "lost_defending": 0})
            row["cards"] += 1
            row["choice"] += n > 1
            row["cost_a_trick"] += c["cost"] >= 1
            row["lost_as_maker" if c["seat"] in r["side"] else "lost_defending"] += c["cost"]
    return rows


def _check_top(table: dict, hands: list[dict], top: int) -> None:
    got = table["costliest"]
    costs = [x["cost"] for x in got]
    assert costs == sorted(costs, reverse=True)
    every = sorted((c["cost"] for r in hands for c in r.get("costs", []) if c["cost"] >= 1), reverse=True)
    assert costs == every[:top]
    for x in got:
        r = next(h for h in hands if h["record"] == x["record"] and h.get("file", x["file"]) == x["file"])
        c = next(c for c in r["costs"] if c["trick"] == x["trick"] and c["seat"] == x["seat"])
        assert (c["card"], c["cost"], c["best"]) == (x["card"], x["cost"], x["best"]) and x["hand"] == r["hand"]


def test_egn_game_table_counts_from_the_cards(capsys):
    names = json.loads(GAME.read_text(encoding="utf-8"))["metadata"]["players"]
    hands, table = _json(capsys, str(GAME), "--top", "5")
    assert table is not None and table["played"] == len(hands) > 1
    want = _expected(hands, names)
    assert {r["player"]: r for r in table["players"]} == want
    assert [r["player"] for r in table["players"]] == names
    assert sum(r["cards"] for r in table["players"]) == sum(len(h["plays"]) for h in hands)
    _check_top(table, hands, 5)
    # the text: the same per-card costs, and the table's rows
    code, text, _ = run(capsys, "replay", str(GAME), "--dd", "--top", "5")
    assert code == 0
    shown = {}
    record = None
    for line in text.splitlines():
        if m := re.match(r"record (\d+),", line):
            record = int(m.group(1))
        if m := re.match(r"  trick (\d+): ", line):
            for seat, card, cost in re.findall(r"(\d):(\w\w)!?(?: \(cost (-?\d+))?", line):
                shown[(record, int(m.group(1)), int(seat))] = (card, int(cost or 0))
    assert shown == {(h["record"], c["trick"], c["seat"]): (c["card"], c["cost"]) for h in hands for c in h["costs"]}
    for r in table["players"]:
        assert re.search(rf"^  {re.escape(r['player'])} +{r['cards']} +{r['choice']} +{r['cost_a_trick']} +"
                         rf"{r['lost_as_maker']} +{r['lost_defending']}$", text, re.M), r
    assert f"costliest cards ({len(table['costliest'])} of" in text
    # the mean cost by trick: the costs summed by trick over the cards
    for who, means in table["mean_cost_by_trick"].items():
        seat = names.index(who)
        for t, m in enumerate(means, 1):
            cs = [c["cost"] for h in hands for c in h["costs"] if c["seat"] == seat and c["trick"] == t]
            assert m == (sum(cs) / len(cs) if cs else None)


def test_one_hand_has_no_table(capsys):
    hands, table = _json(capsys, str(EGN / "Custom Scenario.egn"))
    assert len(hands) == 1 and table is None
    code, text, _ = run(capsys, "replay", str(EGN / "Custom Scenario.egn"), "--dd")
    assert "by player" not in text


@pytest.fixture(scope="module")
def simulated(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sim")
    out = {}
    for variant, hands in (("euchre", 40), ("ghost", 30)):
        path = folder / f"{variant}.jsonl"
        runner.simulate(variant=variant, hands=hands, seed=5, records_path=str(path), threads=2)
        out[variant] = path
    return out


@pytest.mark.parametrize("variant", ["euchre", "ghost"])
def test_simulated_records_table_counts_from_the_solver(capsys, simulated, variant):
    path = simulated[variant]
    hands, table = _json(capsys, str(path), "--top", "100")
    want = _expected(hands)
    assert {r["player"]: r for r in table["players"]} == want
    assert [r["player"] for r in table["players"]] == sorted(want, key=lambda k: int(k.split()[1]))
    _check_top(table, hands, 100)
    # each listed cost is the solver's: the best card's value less the card's, at that position
    for x in table["costliest"][:3]:
        r = next(h for h in hands if h["record"] == x["record"])
        k = next(i for i, c in enumerate(r["costs"]) if c["trick"] == x["trick"] and c["seat"] == x["seat"])
        pos = _position(r, k)
        vals = S.card_values(pos, sum(1 << s for s in r["side"]))
        mine = x["seat"] in r["side"]
        best = max(vals.values()) if mine else min(vals.values())
        v = vals[parse_card(x["card"])]
        assert x["cost"] == (best - v if mine else v - best)
    n_tricks = max(c["trick"] for h in hands for c in h["costs"])
    assert all(len(m) == n_tricks for m in table["mean_cost_by_trick"].values())


def _position(r: dict, k: int):
    """The position before play ``k`` of a replayed hand, from the cards each seat played."""
    hands: dict[int, int] = {}
    for seat, card in r["plays"]:
        hands[seat] = hands.get(seat, 0) | 1 << parse_card(card)
    trump = SUITS.index(r["trump"])
    mask = sum(1 << s for s in r["in_play"])
    pos = S.Position(dict(hands), mask, trump, [], r["leader"], {s: 0 for s in r["in_play"]})
    for seat, card in r["plays"][:k]:
        c = parse_card(card)
        pos.hands[seat] &= ~(1 << c)
        pos.trick.append((seat, c))
        if len(pos.trick) == len(r["in_play"]):
            w = S.trick_winner(trump, pos.trick)
            pos.taken[w] += 1
            pos.trick, pos.leader = [], w
    return pos


def _strip(table: dict) -> dict:
    return {"players": table["players"], "played": table["played"],
            "costliest": [{k: x for k, x in c.items() if k not in ("file", "record")} for c in table["costliest"]]}


def test_folder_equals_the_files_concatenated(capsys, simulated, tmp_path):
    lines = simulated["euchre"].read_text().splitlines(keepends=True)
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "b.jsonl").write_text("".join(lines[15:]))
    (folder / "a.jsonl").write_text("".join(lines[:15]))
    (folder / "notes.txt").write_text("not records")
    whole = tmp_path / "whole.jsonl"
    whole.write_text("".join(lines))
    hands_f, table_f = _json(capsys, str(folder), "--top", "50")
    hands_w, table_w = _json(capsys, str(whole), "--top", "50")
    assert _strip(table_f) == _strip(table_w)
    assert table_f["files"] == [str(folder / "a.jsonl"), str(folder / "b.jsonl")]
    assert [h["file"] for h in hands_f] == [str(folder / "a.jsonl")] * 15 + [str(folder / "b.jsonl")] * 25
    assert [h["costs"] for h in hands_f] == [h["costs"] for h in hands_w]
    code, text, _ = run(capsys, "replay", str(folder), "--dd")
    assert f"file {folder / 'a.jsonl'}:" in text and f"file {folder / 'b.jsonl'}:" in text


def test_folder_of_egn_games_counts_players_by_name(capsys, tmp_path):
    folder = tmp_path / "egn"
    folder.mkdir()
    for name in ("VWEC Finals.egn", "Me and Bears.egn"):
        shutil.copy(EGN / name, folder / name)
    hands, table = _json(capsys, str(folder))
    names = {str(folder / n): json.loads((folder / n).read_text(encoding="utf-8"))["metadata"]["players"]
             for n in ("Me and Bears.egn", "VWEC Finals.egn")}
    assert {r["player"]: r for r in table["players"]} == _expected(hands, names)
    assert table["files"] == [str(folder / "Me and Bears.egn"), str(folder / "VWEC Finals.egn")]
    _check_top(table, hands, 10)


def test_plot_is_written_atomically(capsys, tmp_path):
    png = tmp_path / "cost.png"
    code, _, err = run(capsys, "replay", str(GAME), "--dd", "--plot", str(png))
    assert code == 0, err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert listing(tmp_path) == ["cost.png"]


def test_bad_input_is_one_line(capsys, tmp_path, simulated):
    line = one_error(capsys, "replay", str(GAME), "--dd", "--plot", str(tmp_path / "no" / "cost.png"))
    assert "--plot" in line
    line = one_error(capsys, "replay", str(GAME), "--dd", "--plot", str(tmp_path / "cost.txt"))
    assert ".png" in line
    one_error(capsys, "replay", str(GAME), "--plot", str(tmp_path / "cost.png"))
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "readme.txt").write_text("x")
    assert str(empty) in one_error(capsys, "replay", str(empty), "--dd")
    bad = tmp_path / "bad"
    bad.mkdir()
    shutil.copy(simulated["euchre"], bad / "a.jsonl")
    (bad / "b.jsonl").write_text('{"variant": "euchre", "dealer": 9}\n')
    png = tmp_path / "p.png"
    assert str(bad / "b.jsonl") in one_error(capsys, "replay", str(bad), "--dd", "--plot", str(png))
    assert not png.exists() and sorted(listing(tmp_path)) == ["bad", "empty"]
    assert "folder" in one_error(capsys, "replay", str(bad), "--dd", "--hand", "1")
