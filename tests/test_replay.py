"""``bower replay`` and ``bower.sim.replay``: records replayed against the rules, reneges, double-dummy costs, games.

The expected points come from the plain-Python references of ``tests/reference``
(not from the engine's own scoring), and bower's own records must replay to
their own tricks and points under every scoring option.
"""

from __future__ import annotations

import copy
import json
import pickle

import pytest

from bower.sim import runner
from bower.sim import solve as S
from bower.sim.cards import card_str, parse_card
from tests.cli_run import run
from bower.sim.records import read_records
from bower.sim.replay import ReplayError, fields_needed, replay, replay_file, replay_hand
from bower.sim.variants import get_variant
from tests.reference import cutthroat as rc
from tests.reference import euchre as re_
from tests.reference import ghost as rg
from tests.reference import hasenpfeffer as rh

VARIANTS = ("ghost", "cutthroat", "hasenpfeffer", "euchre")
HANDS = 300
MORE_HANDS = {"ghost": 1500}  # moon bids are rare: about 1 hand in 200

_CACHE: dict = {}


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """``records(variant, rules, hands, seed, ext, strategy)``: bower's own records (a fresh copy each call)."""

    def get(variant, rules=None, hands=HANDS, seed=11, ext="jsonl", strategy="default"):
        key = (variant, json.dumps(rules or {}, sort_keys=True), hands, seed, ext, strategy)
        if key not in _CACHE:
            path = tmp_path_factory.mktemp("records") / f"{variant}.{ext}"
            runner.simulate(variant=variant, hands=hands, seed=seed, rules=rules or {}, records_path=str(path),
                            threads=2, strategy=strategy)
            _CACHE[key] = (str(path), pickle.dumps(read_records(str(path)), pickle.HIGHEST_PROTOCOL))
        # a fresh copy: the records are JSON values (dicts, lists, str, int, float, bool, None), which a pickle
        # round trip copies exactly, in C: several times quicker than copy.deepcopy on thousands of records
        return pickle.loads(_CACHE[key][1])

    return get


def write_jsonl(path, recs) -> str:
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    return str(path)


def items(recs):
    return [(r, f"record {i}") for i, r in enumerate(recs)]


# ---- the references: expected points -------------------------------------------------------------


def lone_defender(rec):
    lone = [s for s in rec.get("alone") or [] if s != rec["maker"]]
    return lone[0] if lone else None


def ref_points(rec, tricks: list[int]) -> dict:
    """Points of a hand played from the references' scoring, keyed as the record's ``points``."""
    v, rules = rec["variant"], rec["rules"]
    if v == "ghost":
        pts = rg.score_hand(rec["maker"], rec["bid"], tricks, rules)
    elif v == "cutthroat":
        pts = rc.score_tricks(rec["maker"], tricks, rec["maker"] in rec["alone"], lone_defender(rec), rules)
    elif v == "hasenpfeffer":
        pts = rh.score_tricks(rec["bidder"], rec["bid"], tricks, rules)
    else:
        pts = re_.score_tricks(rec["maker"], tricks, rec["maker"] in rec["alone"], lone_defender(rec), rules)
    return {str(k): p for k, p in enumerate(pts)}


def ref_renege(rec, offender: int) -> dict:
    """The renege penalty from the references (Ghost Hand: RULES.md, the offender loses 2)."""
    v, rules = rec["variant"], rec["rules"]
    if v == "ghost":
        pts = [-2 if s == offender else 0 for s in range(3)]
    elif v == "cutthroat":
        pts = rc.renege_points(offender, rec["maker"], rec["maker"] in rec["alone"], lone_defender(rec), rules)
    elif v == "hasenpfeffer":
        pts = rh.renege_points(offender, rules)
    else:
        pts = re_.renege_points(offender, rec["maker"], rec["maker"] in rec["alone"], lone_defender(rec), rules)
    return {str(k): p for k, p in enumerate(pts)}


def ref_tricks(rec) -> list[int]:
    """Tricks by seat of a record's plays, trick by trick with the reference's trick winner."""
    plays = rec["plays"]
    n = len({s for s, _ in plays})
    trump = "CSDH".index(rec["trump"])
    tricks = [0] * get_variant(rec["variant"]).players
    for k in range(0, len(plays), n):
        trick = plays[k:k + n]
        tricks[trick[rh.trick_winner([c for _, c in trick], trump)][0]] += 1
    return tricks


def eff(card: str, trump: int) -> int:
    return rh.effective_suit(rh.as_card(card), trump)


# ---- bower's own records -------------------------------------------------------------------------

# (variant, rules, strategy): the random strategy bids and goes alone where the default would not (failed moons)
GHOST_MOONS = {"moon_set_penalty": 24, "set_keeps_tricks": True}  # with the random strategy: moons made and set
RULE_CASES = [
    ("ghost", None), ("ghost", {"set_keeps_tricks": True}), ("ghost", {"moon_set_penalty": 24}),
    ("ghost", {"set_keeps_tricks": True, "moon_set_penalty": 24, "auction": "until_passes", "swap": "none"}),
    ("cutthroat", None), ("cutthroat", {"lone_maker_march": 3}), ("cutthroat", {"lone_defender_points": "lone_only"}),
    ("cutthroat", {"lone_maker_march": 3, "lone_defender_points": "lone_only", "dealer_pickup": "mandatory"}),
    ("hasenpfeffer", None), ("hasenpfeffer", {"fail_penalty": "undertricks"}),
    ("hasenpfeffer", {"defenders_score_tricks": True}), ("hasenpfeffer", {"bidding": "pepper"}),
    ("hasenpfeffer", {"bidding": "pepper", "fail_penalty": "undertricks", "defenders_score_tricks": True,
                      "widow": "dead", "first_lead": "bidder"}),
    ("euchre", None), ("euchre", {"allow_lone_defender": True}),
    ("euchre", {"allow_lone_defender": True, "stick_the_dealer": True}),
    ("ghost", GHOST_MOONS, "random"),
    ("cutthroat", {"lone_maker_march": 3, "lone_defender_points": "lone_only"}, "random"),
    ("hasenpfeffer", {"bidding": "pepper", "fail_penalty": "undertricks", "defenders_score_tricks": True}, "random"),
    ("euchre", {"allow_lone_defender": True}, "random"),
]
RULE_CASES = [c if len(c) == 3 else (*c, "default") for c in RULE_CASES]


@pytest.mark.parametrize("variant, rules, strategy", RULE_CASES,
                         ids=lambda x: json.dumps(x) if isinstance(x, dict) else str(x))
def test_own_records_replay_to_their_own_tricks_and_points(records, variant, rules, strategy):
    recs = records(variant, rules, MORE_HANDS.get(variant, HANDS), strategy=strategy)
    played = 0
    for i, (rec, out) in enumerate(zip(recs, replay(items(recs)))):
        assert out["record"] == i and out["hand"] == rec["hand"]
        assert out["tricks"] == rec["tricks"], i
        assert out["points"] == rec["points"] == out["score"], i
        assert out["reneges"] == [] and out["matches"] is True
        assert all(p == 0 for p in out["penalty"].values())
        if rec["plays"]:
            played += 1
            assert out["points"] == ref_points(rec, [rec["tricks"][str(s)] for s in range(len(rec["tricks"]))])
    assert played > HANDS // 2


def test_own_records_cover_every_contract(records):
    """The records the test above replays include lone hands, lone defenders, moons and peppers."""
    seen = set()
    for variant, rules, strategy in RULE_CASES:
        for r in records(variant, rules, MORE_HANDS.get(variant, HANDS), strategy=strategy):
            if r["plays"]:
                label, need = get_variant(variant).card_play.contract(r)
                seen.add((variant, label, lone_defender(r) is not None if "alone" in r else False))
                made = sum(n for s, n in r["tricks"].items() if get_variant(variant).maker_side(r[
                    get_variant(variant).card_play.maker_field], 15) >> int(s) & 1) >= need
                seen.add((variant, label, "made" if made else "set"))
    assert {("ghost", "moon", False), ("cutthroat", "alone", False), ("cutthroat", "dummy", True),
            ("hasenpfeffer", "big-pepper", False), ("euchre", "alone", False), ("euchre", "partner", True),
            ("ghost", "moon", "made"), ("ghost", "moon", "set"), ("hasenpfeffer", "big-pepper", "set"),
            ("cutthroat", "alone", "set"), ("euchre", "alone", "set")} <= seen


@pytest.mark.parametrize("variant", VARIANTS)
def test_own_parquet_records_replay(records, tmp_path, variant):
    recs = records(variant, None, 200, 3, "parquet")
    path = _CACHE[(variant, "{}", 200, 3, "parquet", "default")][0]
    outs = list(replay_file(path))
    assert len(outs) == len(recs) == 200
    assert all(o["tricks"] == r["tricks"] and o["points"] == r["points"] for o, r in zip(outs, recs))
    assert all(o["matches"] for o in outs)


@pytest.mark.parametrize("variant", VARIANTS)
def test_typed_in_records_with_only_the_needed_fields(records, variant):
    """A record cut down to the fields ``fields_needed`` lists (no deal, rules, tricks, points) replays the same."""
    recs = records(variant)
    need = fields_needed(get_variant(variant))["needed"]
    for i, rec in enumerate(recs[:100]):
        typed = {k: rec[k] for k in need}
        out = replay_hand(typed, f"record {i}")
        assert out["tricks"] == rec["tricks"] and out["points"] == rec["points"]
        assert "recorded" not in out and "matches" not in out
    # strings for the seats and the bid, lower-case cards, 10 for T: as a person might type them
    rec = next(r for r in recs if r["plays"])
    typed = {k: rec[k] for k in need}
    typed["plays"] = [[str(s), c.lower().replace("t", "10")] for s, c in rec["plays"]]
    if variant == "ghost":
        typed["bid"] = "moon" if rec["bid"] == 6 else str(rec["bid"])
    assert replay_hand(typed)["points"] == rec["points"]
    if variant == "ghost":
        ghosts = records("ghost", GHOST_MOONS, MORE_HANDS["ghost"], strategy="random")
        moon = next(r for r in ghosts if r["bid"] == 6)
        typed = {k: moon[k] for k in need} | {"bid": "Moon", "rules": {"moon_set_penalty": "24", "set_keeps_tricks": "on"}}
        out = replay_hand(typed)
        assert out["contract"] == "moon" and out["need"] == 6 and out["points"] == moon["points"]


def test_a_thrown_in_hand_scores_nothing(records):
    rec = next(r for r in records("ghost") if r["maker"] is None)
    out = replay_hand(rec)
    assert out["thrown_in"] and out["contract"] is None
    assert out["points"] == {"0": 0, "1": 0, "2": 0} and out["tricks"] == {"0": 0, "1": 0, "2": 0}


# ---- a planted renege ----------------------------------------------------------------------------


def plant_renege(rec, want=None):
    """``rec`` with one renege planted in its second-to-last trick, and (trick, seat, card, suit to follow); or None.

    A seat that followed the suit led there (without winning the trick)
    plays instead its last card, of another suit and not trump, and that
    card in the last trick: the seat's hand is unchanged, the trick's
    winner too, so every later play stays in turn and legal.
    """
    plays = rec["plays"]
    if not plays:
        return None
    n = len({s for s, _ in plays})
    size = len(plays) // n
    trump = "CSDH".index(rec["trump"])
    k0 = (size - 2) * n
    trick, last = plays[k0:k0 + n], plays[k0 + n:]
    led = eff(trick[0][1], trump)
    won = rh.trick_winner([c for _, c in trick], trump)
    for i in range(1, n):
        seat, a = trick[i]
        if i == won or eff(a, trump) != led:
            continue
        j, b = next((j, c) for j, (s, c) in enumerate(last) if s == seat)
        if eff(b, trump) in (led, trump) or (want and not want(rec, seat)):
            continue
        new = copy.deepcopy(rec)
        new["plays"][k0 + i][1] = b
        new["plays"][k0 + n + j][1] = a
        return new, (size - 1, seat, b, "CSDH"[led])
    return None


def _maker_side(rec, seat):
    v = get_variant(rec["variant"])
    return v.maker_side(rec[v.card_play.maker_field], 15) >> seat & 1


WANTS = {
    "maker_side": lambda rec, seat: _maker_side(rec, seat) and not rec.get("alone"),
    "defender": lambda rec, seat: not _maker_side(rec, seat) and not rec.get("alone"),
    "against_lone_maker": lambda rec, seat: not _maker_side(rec, seat) and rec["maker"] in rec["alone"],
    "against_lone_defender": lambda rec, seat: _maker_side(rec, seat) and lone_defender(rec) is not None,
}
RENEGE_CASES = [
    ("ghost", None, "maker_side", {"offender": -2}), ("ghost", None, "defender", {"offender": -2}),
    ("cutthroat", None, "maker_side", {"defenders": 2}), ("cutthroat", None, "defender", {"maker": 2}),
    ("cutthroat", None, "against_lone_maker", {"maker": 4}),
    ("cutthroat", None, "against_lone_defender", {"defenders": 4}),
    ("cutthroat", {"lone_defender_points": "lone_only"}, "against_lone_defender", {"lone": 4}),
    ("hasenpfeffer", None, "maker_side", {"offender_side": -2}),
    ("hasenpfeffer", None, "defender", {"offender_side": -2}),
    ("euchre", {"allow_lone_defender": True}, "maker_side", {"other_side": 2}),
    ("euchre", {"allow_lone_defender": True}, "defender", {"other_side": 2}),
    ("euchre", {"allow_lone_defender": True}, "against_lone_maker", {"other_side": 4}),
    ("euchre", {"allow_lone_defender": True}, "against_lone_defender", {"other_side": 4}),
]


def _expected_penalty(rec, offender, spec) -> dict:
    """The penalty a RENEGE_CASES spec states, spelled out by key (a check on the references too)."""
    v = get_variant(rec["variant"])
    keys = [str(k) for k in range(v.score_units)]
    out = {k: 0 for k in keys}
    (what, pts), = spec.items()
    if what == "offender":
        out[str(offender)] = pts
    elif what == "offender_side":
        out[str(offender % 2)] = pts
    elif what == "other_side":
        out[str(1 - offender % 2)] = pts
    elif what == "maker":
        out[str(rec["maker"])] = pts
    elif what == "defenders":
        for s in range(3):
            if s != rec["maker"]:
                out[str(s)] = pts
    elif what == "lone":
        out[str(lone_defender(rec))] = pts
    return out


@pytest.mark.parametrize("variant, rules, want, spec", RENEGE_CASES, ids=lambda x: str(x))
def test_a_planted_renege_is_found_named_and_scored(records, capsys, tmp_path, variant, rules, want, spec):
    found = None
    for hands, seed in ((HANDS, 11), (3000, 12)):
        for rec in records(variant, rules, hands, seed):
            found = plant_renege(rec, WANTS[want])
            if found:
                break
        if found:
            break
    assert found, "no hand to plant a renege in"
    rec, (trick, seat, card, follow) = found
    out = replay_hand(rec, "record 0")
    assert [{k: x[k] for k in ("trick", "seat", "card", "follow")} for x in out["reneges"]] == [
        {"trick": trick, "seat": seat, "card": card, "follow": follow}]
    tricks = ref_tricks(rec)
    assert out["tricks"] == {str(s): t for s, t in enumerate(tricks)}
    penalty = ref_renege(rec, seat)
    assert penalty == _expected_penalty(rec, seat, spec)
    assert out["score"] == ref_points(rec, tricks)
    assert out["penalty"] == penalty == out["reneges"][0]["penalty"]
    assert out["points"] == {k: out["score"][k] + penalty[k] for k in penalty}
    assert out["matches"] is False  # the record's own tricks and points are those of the hand before the change
    # double dummy: the renege is compared with the best legal card, and the costs still add up
    dd = replay_hand(rec, dd=True)
    side = set(dd["side"])
    costs = dd["costs"]
    taken = sum(t for s, t in dd["tricks"].items() if int(s) in side)
    assert taken == dd["dd_tricks"] - sum(c["cost"] for c in costs if c["seat"] in side) + sum(
        c["cost"] for c in costs if c["seat"] not in side)
    bad = next(c for c in costs if c["seat"] == seat and c["card"] == card)
    assert card not in bad["best"]
    # the command names it and says the record's own points differ
    path = write_jsonl(tmp_path / "renege.jsonl", [rec])
    code, text, err = run(capsys, "replay", path)
    assert code == 0 and err == ""
    assert f"renege: trick {trick}, seat {seat} played {card} but could follow {follow}" in text
    assert "1 renege(s)" in text and "the record says" in text
    code, text, _ = run(capsys, "replay", path, "--json")
    assert json.loads(text)["points"] == out["points"]


def test_two_reneges_are_each_penalised(records):
    """Each renege found is penalised: two in one hand, two penalties."""
    for rec in records("hasenpfeffer"):
        first = plant_renege(rec)
        if not first:
            continue
        new, (_, seat, _, _) = first
        plays = new["plays"]
        n = 4
        # a second renege, by another seat, in an earlier trick: swap within the seat's own plays again
        for k0 in range(0, len(plays) - 2 * n, n):
            t = plays[k0:k0 + n]
            trump = "CSDH".index(new["trump"])
            led = eff(t[0][1], trump)
            for i in range(1, n):
                s, a = t[i]
                if s == seat or eff(a, trump) != led:
                    continue
                later = [(j, c) for j, (x, c) in enumerate(plays) if x == s and j >= k0 + n]
                for j, b in later:
                    if eff(b, trump) in (led, trump):
                        continue
                    cand = copy.deepcopy(new)
                    cand["plays"][k0 + i][1], cand["plays"][j][1] = b, a
                    try:
                        out = replay_hand(cand)
                    except ReplayError:
                        continue  # the swap put a later play out of turn
                    if len(out["reneges"]) == 2:
                        offenders = [x["seat"] for x in out["reneges"]]
                        want = {k: sum(ref_renege(cand, o)[k] for o in offenders) for k in ("0", "1")}
                        assert out["penalty"] == want
                        assert out["points"] == {k: out["score"][k] + want[k] for k in want}
                        assert out["score"] == ref_points(cand, ref_tricks(cand))
                        return
    pytest.fail("no hand with two reneges could be built")


# ---- double-dummy costs --------------------------------------------------------------------------


def dd_line(rec, bad_at: int | None = None):
    """``rec`` replayed with, at every play, a best card (double dummy); with ``bad_at`` the worst there instead.

    Returns the new record (no tricks or points) and the cost of the bad
    card (None without one). ``bad_at`` counts plays from the first lead;
    the bad card is played at the first position from there where the legal
    cards differ in value.
    """
    v = get_variant(rec["variant"])
    hands: dict = {}
    for s, c in rec["plays"]:
        hands.setdefault(s, []).append(parse_card(c))
    trump = S.parse_suit(rec["trump"])
    pos = S.start(hands, trump, rec["plays"][0][0])
    side = v.maker_side(rec[v.card_play.maker_field], pos.active)
    plays, bad_cost = [], None
    while pos.tricks_left:
        seat = pos.to_play
        vals = S.card_values(pos, side)
        mine = side >> seat & 1
        best = max(vals.values()) if mine else min(vals.values())
        card = min(c for c, x in vals.items() if x == best)
        if bad_at is not None and bad_cost is None and len(plays) >= bad_at and len(set(vals.values())) > 1:
            worst = min(vals.values()) if mine else max(vals.values())
            card = min(c for c, x in vals.items() if x == worst)
            bad_cost = abs(best - worst)
            bad_at = len(plays)
        S.play(pos, card, seat)
        plays.append([seat, card_str(card)])
    new = {k: x for k, x in rec.items() if k not in ("tricks", "points")}
    new["plays"] = plays
    return new, bad_cost, bad_at, pos


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_double_dummy_line_costs_nothing_and_a_bad_card_its_exact_cost(records, variant):
    recs = [r for r in records(variant) if r["plays"]][:6]
    for rec in recs:
        new, _, _, pos = dd_line(rec)
        out = replay_hand(new, dd=True)
        assert len(out["costs"]) == len(new["plays"])
        assert [c["cost"] for c in out["costs"]] == [0] * len(new["plays"])
        assert all(c["card"] in c["best"] for c in out["costs"])
        assert out["tricks"] == {str(s): pos.taken.get(s, 0) for s in range(get_variant(variant).players)}
        side = set(out["side"])
        assert out["dd_tricks"] == sum(t for s, t in out["tricks"].items() if int(s) in side)
    bad_found = 0
    for rec in recs:
        new, cost, at, _ = dd_line(rec, bad_at=3)
        if cost is None:
            continue
        bad_found += 1
        out = replay_hand(new, dd=True)
        costs = [c["cost"] for c in out["costs"]]
        assert costs[at] == cost > 0
        assert costs[:at] + costs[at + 1:] == [0] * (len(costs) - 1)
        assert new["plays"][at][1] not in out["costs"][at]["best"]
    assert bad_found


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_costs_of_a_hand_as_played_add_up(records, variant):
    """The maker side's tricks = its double-dummy tricks, less its own plays' costs, plus the defenders'."""
    for rec in [r for r in records(variant) if r["plays"]][:15]:
        out = replay_hand(rec, dd=True)
        side = set(out["side"])
        mine = sum(c["cost"] for c in out["costs"] if c["seat"] in side)
        theirs = sum(c["cost"] for c in out["costs"] if c["seat"] not in side)
        taken = sum(t for s, t in out["tricks"].items() if int(s) in side)
        assert taken == out["dd_tricks"] - mine + theirs
        assert all(c["cost"] >= 0 for c in out["costs"])


def test_dd_text_shows_tricks_and_costs(records, capsys, tmp_path):
    rec = next(r for r in records("euchre") if r["plays"])
    new, cost, _, _ = dd_line(rec, bad_at=0)
    path = write_jsonl(tmp_path / "dd.jsonl", [new])
    code, text, _ = run(capsys, "replay", path, "--dd")
    assert code == 0
    assert "trick 1:" in text and "trick 5:" in text and f"(cost {cost}, best " in text
    assert "double dummy: the maker's side could take" in text


# ---- games ---------------------------------------------------------------------------------------


def label_games(recs):
    """The records with ``game`` labels, a new game after each winner (the references decide); [(index, winner)]."""
    out, wins = [], []
    g, scores, contenders = 0, None, None
    for i, rec in enumerate(recs):
        v = get_variant(rec["variant"])
        if scores is None:
            scores, contenders = [0] * v.score_units, None
        pts = [rec["points"][str(k)] for k in range(v.score_units)]
        scores = [a + b for a, b in zip(scores, pts)]
        if rec["variant"] == "ghost":
            winner, contenders, _ = rg.game_winner_after_hand(scores, pts, contenders, rec["rules"])
        elif rec["variant"] == "cutthroat":
            winner = rc.game_winner(scores)
        elif rec["variant"] == "hasenpfeffer":
            winner = rh.game_winner(scores, rec["bidder"] % 2 if rec["bidder"] is not None else None)
        else:
            winner = re_.game_winner(scores)
        out.append(dict(rec, game=f"g{g}"))
        if winner is not None:
            wins.append((i, winner, scores))
            g, scores = g + 1, None
    return out, wins


@pytest.mark.parametrize("variant", VARIANTS)
def test_games_keep_running_scores_and_find_the_winner(records, capsys, tmp_path, variant):
    recs, wins = label_games(records(variant))
    assert len(wins) >= 3
    outs = list(replay(items(recs)))
    won = {i: (w, sc) for i, w, sc in wins}
    running: dict = {}
    for i, (rec, out) in enumerate(zip(recs, outs)):
        assert out["game"] == rec["game"]
        running = {k: (running.get(k, 0) if out["game_hand"] > 1 else 0) + p for k, p in rec["points"].items()}
        assert out["scores"] == running
        if i in won:
            assert out["winner"] == won[i][0] and list(out["scores"].values()) == won[i][1]
        else:
            assert out["winner"] is None
    path = write_jsonl(tmp_path / "games.jsonl", recs)
    code, text, _ = run(capsys, "replay", path)
    assert code == 0
    assert text.count("; won by ") == len(wins)
    if wins[-1][0] != len(recs) - 1:
        assert f"game g{len(wins)}: no winner after" in text


def test_a_hand_after_the_winner_or_a_game_out_of_order_is_an_error(records):
    recs, wins = label_games(records("euchre"))
    first_win = wins[0][0]
    bad = copy.deepcopy(recs[:first_win + 2])
    bad[first_win + 1]["game"] = bad[0]["game"]
    with pytest.raises(ReplayError, match=f"record {first_win + 1}: field 'game': game 'g0' was already won"):
        list(replay(items(bad)))
    bad = copy.deepcopy(recs[:3])
    bad[0]["game"], bad[1]["game"], bad[2]["game"] = "a", "b", "a"
    with pytest.raises(ReplayError, match="record 2: field 'game'.*not consecutive"):
        list(replay(items(bad)))


def test_ghost_game_ties_play_on_or_go_to_a_playoff():
    cp = get_variant("ghost").card_play
    tie = {"0": 33, "1": 33, "2": 10}
    assert cp.game_winner(tie, {"0": 3, "1": 3, "2": 0}, {}, {"tiebreak": "highest"}, 32, None) == (None, None)
    assert cp.game_winner(tie, {"0": 3, "1": 3, "2": 0}, {}, {"tiebreak": "playoff"}, 32, None) == (None, [0, 1])
    # in the playoff only the tied players' points of the next hand count
    assert cp.game_winner({"0": 34, "1": 35, "2": 40}, {"0": 1, "1": 2, "2": 30}, {}, {"tiebreak": "playoff"}, 32,
                          [0, 1]) == (1, None)
    assert cp.game_winner({"0": 34, "1": 34, "2": 10}, {"0": 1, "1": 1, "2": 0}, {}, {"tiebreak": "playoff"}, 32,
                          [0, 1]) == (None, [0, 1])
    assert cp.game_winner({"0": 31, "1": 20, "2": 10}, {}, {}, {"tiebreak": "highest"}, 32, None) == (None, None)
    assert cp.game_winner({"0": 35, "1": 33, "2": 10}, {}, {}, {"tiebreak": "highest"}, 32, None) == (0, None)


def test_partnership_games_when_both_sides_reach_the_target():
    hp = get_variant("hasenpfeffer").card_play
    assert hp.game_winner({"0": 11, "1": 12}, {}, {"bidder": 2}, {}, 10, None) == (0, None)  # the bidding side
    eu = get_variant("euchre").card_play
    assert eu.game_winner({"0": 10, "1": 11}, {}, {"maker": 0}, {}, 10, None) == (1, None)  # only by a renege
    assert eu.game_winner({"0": 10, "1": 10}, {}, {"maker": 0}, {}, 10, None) == (None, None)


# ---- the command ---------------------------------------------------------------------------------


def test_text_and_json_output(records, capsys, tmp_path):
    recs = records("cutthroat")[:20]
    path = write_jsonl(tmp_path / "c.jsonl", recs)
    code, text, err = run(capsys, "replay", path)
    assert code == 0 and err == ""
    assert text.count("\n  points: ") + text.count("thrown in, no points") == 20
    assert "contract" in text and "tricks: seat 0" in text and "20 hand(s) replayed" in text
    code, text, _ = run(capsys, "replay", path, "--json")
    lines = [json.loads(x) for x in text.splitlines()]
    assert len(lines) == 20
    for o, r in zip(lines, recs):
        assert {"hand", "tricks", "points", "reneges"} <= set(o) and "costs" not in o
        assert o["points"] == r["points"] and o["hand"] == r["hand"]
    code, text, _ = run(capsys, "replay", path, "--json", "--dd")
    o = json.loads(text.splitlines()[0])
    assert len(o["costs"]) == len(recs[0]["plays"])
    assert {"trick", "seat", "card", "cost", "best", "legal"} == set(o["costs"][0])


def test_help_lists_the_fields_and_penalties(capsys):
    code, text, _ = run(capsys, "replay", "--help")
    assert code == 0
    for v in VARIANTS:
        f = fields_needed(get_variant(v))
        assert f"  {v}: {', '.join(f['needed'])}; with deal: {', '.join(f['with_deal'])}" in text
        assert get_variant(v).card_play.renege_note in text
    assert "as played + penalties" in text


def _base(records):
    """A Euchre hand played with the partner, with its deal and the dealer's discard."""
    return copy.deepcopy(next(r for r in records("euchre") if r["plays"] and r["discard"] and not r["alone"]))


def _swap_turn(r):
    r["plays"][1], r["plays"][2] = r["plays"][2], r["plays"][1]


def _not_held(r):
    spare = r["kitty"][1]  # a kitty card other than the up-card is in no hand
    r["plays"][0][1] = spare


BAD = [
    ("not_json", b'{"variant": "euchre", \n', "record 0 (line 1) is not JSON"),
    ("not_utf8", b'{"variant": "euchre\xff"}\n', "record 0 (line 1) is not UTF-8"),
    ("not_object", b"[1, 2, 3]\n", "record 0 (line 1) is not a JSON object"),
    ("missing_plays", lambda r: r.pop("plays"), "missing field 'plays'"),
    ("missing_trump", lambda r: r.pop("trump"), "missing field 'trump'"),
    ("missing_dealer", lambda r: r.pop("dealer"), "missing field 'dealer'"),
    ("missing_maker", lambda r: r.pop("maker"), "missing field 'maker'"),
    ("missing_alone", lambda r: r.pop("alone"), "missing field 'alone'"),
    ("missing_variant", lambda r: r.pop("variant"), "missing field 'variant'"),
    ("missing_upcard_with_deal", lambda r: r.pop("upcard"), "missing field 'upcard'"),
    ("unknown_card", lambda r: r["plays"][3].__setitem__(1, "ZZ"), "field 'plays' entry 3"),
    ("joker", lambda r: r["plays"][3].__setitem__(1, "JK"), "field 'plays' entry 3 is the joker"),
    ("seat_off_table", lambda r: r["plays"][2].__setitem__(0, 7), "field 'plays' entry 2 names seat 7"),
    ("played_twice", lambda r: r["plays"][5].__setitem__(1, r["plays"][0][1]), "played twice"),
    ("out_of_turn", _swap_turn, "field 'plays' entry 1"),
    ("not_held", _not_held, "field 'plays' entry 0"),
    ("too_few_cards", lambda r: r["plays"].pop(), "field 'plays': seat"),
    ("bad_variant", lambda r: r.update(variant="bridge"), "field 'variant'"),
    ("bad_rule", lambda r: r.update(rules={"stick_the_dealer": "maybe"}), "field 'rules'"),
    ("bad_maker", lambda r: r.update(maker=9), "field 'maker'"),
    ("bad_trump", lambda r: r.update(trump="X"), "field 'trump'"),
    ("bad_dealer", lambda r: r.update(dealer="north"), "field 'dealer'"),
    ("bad_alone", lambda r: r.update(alone=[(r["maker"] + 2) % 4]), "field 'alone'"),
    ("thrown_in_with_plays", lambda r: r.update(maker=None), "field 'plays': a hand thrown in"),
    ("bad_deal", lambda r: r["deal"].__setitem__(str((r["dealer"] + 1) % 4), ["AH"]), "field 'deal'"),
]


@pytest.mark.parametrize("name, change, words", BAD, ids=[b[0] for b in BAD])
def test_a_bad_record_is_one_line_and_status_2(records, capsys, tmp_path, name, change, words):
    path = tmp_path / "bad.jsonl"
    if isinstance(change, bytes):
        path.write_bytes(change)
    else:
        rec = _base(records)
        change(rec)
        write_jsonl(path, [rec])
    code, out, err = run(capsys, "replay", str(path))
    assert code == 2, err
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("bower: error:")
    assert "Traceback" not in err
    assert words in err, err
    if not isinstance(change, bytes):
        assert f"{path}: record 0 (line 1)" in err


def test_the_error_names_the_record_and_line(records, capsys, tmp_path):
    good = _base(records)
    bad = copy.deepcopy(good)
    bad["plays"].pop()
    path = tmp_path / "two.jsonl"
    path.write_text(json.dumps(good) + "\n\n" + json.dumps(bad) + "\n")
    code, out, err = run(capsys, "replay", str(path), "--json")
    assert code == 2 and len(out.splitlines()) == 1  # the good hand was replayed first
    assert f"{path}: record 1 (line 3): field 'plays'" in err


def test_a_bad_ghost_play_from_the_dead_hand(records, capsys, tmp_path):
    """Ghost Hand: the swapper's dealt hand is dead; playing one of its cards is a card the seat did not hold."""
    rec = next(r for r in records("ghost") if r["plays"] and r["swap"] is not None)
    dead = rec["deal"][str(rec["swap"])][0]
    k = next(i for i, (s, _) in enumerate(rec["plays"]) if s == rec["swap"])
    rec["plays"][k][1] = dead
    code, _, err = run(capsys, "replay", write_jsonl(tmp_path / "g.jsonl", [rec]))
    assert code == 2 and f"field 'plays' entry {k}: seat {rec['swap']} plays {dead}, which it did not hold" in err


@pytest.mark.parametrize("name, words", [("missing.jsonl", "no records file"), ("x.csv", ".jsonl or .parquet"),
                                         ("empty.jsonl", "holds no records"), ("bad.parquet", "cannot read records")])
def test_a_bad_file_is_one_line_and_status_2(capsys, tmp_path, name, words):
    if name.startswith(("empty", "bad", "x")):
        (tmp_path / name).write_text("\n" if name.startswith("empty") else "not parquet")
    code, out, err = run(capsys, "replay", str(tmp_path / name))
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err
