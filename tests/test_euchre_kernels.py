"""The standard Euchre kernels on their own: the score table, legal records, forced decisions, counters, determinism.

Independent of the plain-Python twin: whatever the players decide, a kernel
record (``bower.sim.variants.euchre.hands.play_order`` on a given deck order, or
``bower.kernels.euchre.drivers.simulate_chunks``) must be a legal hand of RULES.md
section 4 as ``kernels/euchre/SPEC.md`` records it: 24 cards, 20 dealt and
the kitty; after an order the dealer holds the up-card and not its discard;
a seat sitting out never plays; five tricks won as the trick rule says; the
points of the score table; calls legal for the rules. The summary counters
are the sums of the records, and the same seeds give the same rows.
"""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numba
import numpy as np
import pytest

from bower.kernels.advice import NO_EQUITY, W_MAKER, W_N, W_PTS, W_WIDTH
from bower.kernels.euchre import advice as ea
from bower.kernels.euchre import drivers as ed
from bower.kernels.euchre import hand as ek
from bower.kernels.euchre.codes import OPTIONS, PARAM_NAMES, PARAMS
from bower.kernels.euchre.strategy import discard_of, estimates
from bower.kernels.games import (
    GA_GAMES,
    GA_HANDS,
    GA_UNFINISHED,
    GA_WIDTH,
    GA_WINS,
    GO_HANDS,
    GO_SCORES,
    GO_WIDTH,
    GO_WINNER,
    ST_BIDDER,
    ST_HANDS,
    ST_MADE,
    ST_MAKER,
    ST_POINTS,
    ST_SWAPS,
    ST_WIDTH,
)
from bower.sim.cards import parse_card
from bower.sim.variants.euchre import hands as eh
from bower.sim.variants.euchre.records import row_to_dict

VECTORS = Path(__file__).resolve().parents[1].parent / "shared" / "vectors" / "euchre_scores.jsonl"

# every combination of the first three options; canadian and discard_up paired with them (each value of each meets
# both values of the others; fast_break and partners_best likewise)
ALL_RULES = [dict(zip([o[0] for o in OPTIONS[:3]], v), canadian=v[0] != v[2], discard_up=v[1] != v[2],
                  loner_march_score=4 + v[0] - v[1], loner_euchred_score=2 + 3 * (v[2] == "loner"),
                  fast_break=v[0] == v[1], partners_best=v[0] == (v[2] == "loner"))
             for v in itertools.product(*[o[1] for o in OPTIONS[:3]])]
LOOSE = {"order_min_1": 1.5, "order_min_2": 1.0, "order_min_3": 1.5, "take_min": 1.0, "name_min_1": 1.0,
         "name_min_2": 1.0, "name_min_3": 1.0, "name_min_4": 1.0, "alone_min": 2.5, "defend_alone_min": 2.0}
STRATEGIES = [*(p for p in eh.PRESETS if p not in ("pimc", "pimc-bid")), LOOSE,  # pimc-fast plays PIMC, pimc is the same, slower
               ["random", LOOSE, "default", "aggressive"], [LOOSE, "random", "never-alone", LOOSE]]
CHUNK = 4096


def _states(seed: int, first: int, n: int, key: int | None = None) -> np.ndarray:
    """Chunk states as the runner seeds them: ``SeedSequence(seed, spawn_key=(chunk,))`` or ``(chunk, 1)``."""
    out = np.empty((n, 4), np.uint64)
    for i in range(n):
        key_i = (first + i,) if key is None else (first + i, key)
        out[i] = np.random.SeedSequence(seed, spawn_key=key_i).generate_state(4, np.uint64)
    return out


def _simulate(seed: int, n: int, rules=None, strategy="default", want_records=True):
    nc = -(-n // CHUNK)
    records = np.zeros((n if want_records else 1, ek.R_WIDTH), np.int64)
    summary = np.zeros((nc, ek.S_WIDTH), np.int64)
    params = eh.seat_params(strategy)
    ed.simulate_chunks(_states(seed, 0, nc), _states(seed, 0, nc, 1), 0, CHUNK, n, eh.rules_vector(rules), params,
                       want_records, records, summary, ek.search_arg(params))
    return records, summary


# ---------------------------------------------------------------- the rules, written out plainly (no kernel tables)

SUITS = "CSDH"


def _eff(c: int, t: int) -> int:
    return t if c % 6 == 2 and c // 6 == t ^ 1 else c // 6


def _power(c: int, t: int, led: int) -> int:
    if c % 6 == 2 and c // 6 == t:
        return 200
    if c % 6 == 2 and c // 6 == t ^ 1:
        return 199
    if c // 6 == t:
        return 100 + c % 6
    return 1 + c % 6 if c // 6 == led else 0


def _score(maker_tricks: int, maker_alone: bool, lone_defender: bool, rules: dict,
           first_two: bool = False) -> tuple[int, int]:
    if maker_tricks == 3 and first_two and rules.get("fast_break"):
        return 0, 0
    if maker_tricks >= 3:
        return (1 if maker_tricks < 5 else (rules["loner_march_score"] if maker_alone else 2)), 0
    if lone_defender:
        return 0, 4
    return 0, rules["loner_euchred_score"] if maker_alone else 2


_RESOLVED: dict[str, dict] = {}


def resolved(rules: dict | None) -> dict:
    """``eh.resolve_rules(rules)``, worked out once per rule set: the record checks meet each thousands of times."""
    key = json.dumps(rules, sort_keys=True)
    if key not in _RESOLVED:
        _RESOLVED[key] = eh.resolve_rules(rules)
    return _RESOLVED[key]


# card name -> index, by ``parse_card`` once for each of the 24 names a record may hold
CARD = {name: parse_card(name) for name in (f"{r}{s}" for s in SUITS for r in "9TJQKA")}


def check_record(rec: dict, rules: dict, hand: int | None = None, order: list[int] | None = None) -> None:
    """Every rule-level invariant of one record dict (AssertionError naming the first broken)."""
    rules = resolved(rules)
    assert rec["variant"] == "euchre" and rec["rules"] == rules
    if hand is not None:
        assert rec["hand"] == hand
    dealer = rec["dealer"]
    dealt = {s: [CARD[c] for c in rec["deal"][str(s)]] for s in range(4)}
    kitty = [CARD[c] for c in rec["kitty"]]
    up = kitty[0]
    # 24 cards: 20 dealt (5 a seat, ascending) and the kitty
    assert all(len(h) == 5 and h == sorted(h) for h in dealt.values())
    assert len(kitty) == 4 and sorted([c for h in dealt.values() for c in h] + kitty) == list(range(24))
    assert rec["upcard"] == rec["kitty"][0]
    if order is not None:
        for i in range(20):
            assert order[i] in dealt[(dealer + 1 + i % 4) % 4]
        assert kitty == order[20:]

    # the calls: round one from position 1 to the dealer, "order" ends it; round two names another suit
    calls = rec["calls"]
    u = up // 6
    seats = [(dealer + 1 + i % 4) % 4 for i in range(8)]
    assert 1 <= len(calls) <= 8 and [s for s, _ in calls] == seats[: len(calls)]
    for i, (_, c) in enumerate(calls):
        allowed = {"pass", "order"} if i < 4 else {"pass"} | {SUITS[s] for s in range(4) if s != u}
        assert c in allowed, f"call {i}: {c}"
        assert c == "pass" or i == len(calls) - 1, "the auction ends at the first call"
    if rules["stick_the_dealer"] and len(calls) == 8:
        assert calls[7][1] != "pass", "a stuck dealer named no suit"
    if calls[-1][1] == "pass":
        assert len(calls) == 8 and not rules["stick_the_dealer"]
        assert rec["maker"] is None and rec["trump"] is None and rec["discard"] is None
        assert rec["alone"] == [] and rec["plays"] == []
        assert rec["tricks"] == {"0": 0, "1": 0, "2": 0, "3": 0} and rec["points"] == {"0": 0, "1": 0}
        return
    maker = calls[-1][0]
    trump = u if calls[-1][1] == "order" else SUITS.index(calls[-1][1])
    assert rec["maker"] == maker and rec["trump"] == SUITS[trump]

    # the dealer's discard: after an order only, one of its dealt cards; it then holds the up-card
    hands = {s: set(h) for s, h in dealt.items()}
    if calls[-1][1] == "order":
        d = CARD[rec["discard"]]
        assert d in dealt[dealer] or (d == up and rules.get("discard_up")), "the discard: a dealt card (or the up-card)"
        hands[dealer] = (hands[dealer] | {up}) - {d}
    else:
        assert rec["discard"] is None

    # going alone: the maker and/or one defender (only under allow_lone_defender); partners sit out
    alone = rec["alone"]
    assert alone == sorted(set(alone))
    if rules.get("canadian") and calls[-1][1] == "order" and maker == (dealer + 2) % 4:
        assert maker in alone, "canadian: the dealer's partner who ordered up plays alone"
    lone = [s for s in alone if s != maker]
    assert len(lone) <= 1 and all(s % 2 != maker % 2 for s in lone)
    if lone:
        assert rules["allow_lone_defender"]
    out = {(s + 2) % 4 for s in alone}
    active = [s for s in range(4) if s not in out]

    # partners_best: a lone maker's partner passes it one of its cards, the maker discards one of its six
    if rules.get("partners_best"):
        assert (rec["passed"] is not None) == (maker in alone), "an exchange exactly when the maker went alone"
        assert (rec["loner_discard"] is not None) == (maker in alone)
        if rec["passed"] is not None:
            c, d = CARD[rec["passed"]], CARD[rec["loner_discard"]]
            partner = (maker + 2) % 4
            assert c in hands[partner] and d in hands[maker] | {c}
            hands[partner] = hands[partner] - {c}
            hands[maker] = (hands[maker] | {c}) - {d}
    else:
        assert "passed" not in rec and "loner_discard" not in rec

    # five tricks among the active seats, clockwise from position 1 (or the next active seat), suit followed
    plays = [(s, CARD[c]) for s, c in rec["plays"]]
    n = len(active)
    assert len(plays) == 5 * n
    played = {s: [] for s in range(4)}
    for seat, c in plays:
        played[seat].append(c)
    for s in range(4):
        assert sorted(played[s]) == (sorted(hands[s]) if s in active else []), f"seat {s}"
    if (calls[-1][1] == "order" and dealer in active and rec["discard"] != rec["upcard"]
            and rec.get("loner_discard") != rec["upcard"]):
        assert up in [c for s, c in plays if s == dealer]
    # the first lead: position 1, or under loner_lead=loner the lone maker's left; a seat out is skipped
    leader = ((maker if rules.get("loner_lead") == "loner" and maker in alone else dealer) + 1) % 4
    while leader in out:
        leader = (leader + 1) % 4
    tricks = [0] * 4
    winners = []
    held = {s: set(hands[s]) for s in active}
    for t in range(5):
        trick = plays[n * t: n * t + n]
        assert [s for s, _ in trick] == [x for x in ((leader + k) % 4 for k in range(4)) if x in active]
        led = _eff(trick[0][1], trump)
        for s, c in trick[1:]:
            if any(_eff(x, trump) == led for x in held[s]):
                assert _eff(c, trump) == led, f"seat {s} reneged with {c}"
        for s, c in trick:
            held[s].remove(c)
        leader = max(trick, key=lambda sc: _power(sc[1], trump, led))[0]
        tricks[leader] += 1
        winners.append(leader)
    assert rec["tricks"] == {str(s): tricks[s] for s in range(4)}
    side = maker % 2
    made, defended = _score(tricks[side] + tricks[side + 2], maker in alone, bool(lone), rules,
                            winners[0] % 2 != side and winners[1] % 2 != side)
    assert rec["points"] == {str(side): made, str(1 - side): defended}


def _kinds(recs) -> set:
    seen = set()
    for r in recs:
        if r["maker"] is None:
            seen.add("thrown in")
            continue
        seen.add(("order" if r["discard"] else "named", r["maker"] in r["alone"], len(r["alone"]) - (r["maker"] in r["alone"])))
    return seen


# ---------------------------------------------------------------- score table


def test_every_score_vector_through_the_kernel():
    lines = [json.loads(x) for x in VECTORS.read_text().splitlines() if x.strip()]
    assert len(lines) == 24
    for v in lines:
        got = eh.score_hand(v["maker_tricks"], v["maker_alone"], v["lone_defender"])
        assert got == (v["makers_points"], v["defenders_points"]), v


# ---------------------------------------------------------------- legal records


@pytest.mark.parametrize("k", range(len(ALL_RULES)))
def test_play_order_records_are_legal_hands(k):
    rules = ALL_RULES[k]
    rng = random.Random(40 + k)
    recs = []
    for i in range(1500):
        order = list(range(24))
        rng.shuffle(order)
        dealer = rng.randrange(4)
        strategy = STRATEGIES[i % len(STRATEGIES)]
        rec = eh.play_order(order, dealer, rules, strategy, seed=i)
        assert rec["dealer"] == dealer
        try:
            check_record(rec, rules, 0, order)
        except AssertionError as e:
            raise AssertionError(f"order {order} dealer {dealer} rules {rules} strategy {strategy}: {e}\n{rec}")
        recs.append(rec)
    seen = _kinds(recs)
    assert {("order", False, 0), ("named", False, 0), ("order", True, 0)} <= seen, seen
    if rules["allow_lone_defender"]:
        assert ("order", False, 1) in seen and any(k != "thrown in" and k[1] and k[2] for k in seen), seen
    assert ("thrown in" in seen) == (not rules["stick_the_dealer"])


@pytest.mark.parametrize("k", range(len(ALL_RULES)))
def test_simulated_records_are_legal_hands(k):
    rules = ALL_RULES[k]
    for j, strategy in enumerate(STRATEGIES):
        rows, _ = _simulate(700 + 10 * k + j, 1000, rules, strategy)
        for h in range(rows.shape[0]):
            rec = row_to_dict(rows[h], h, resolved(rules))
            assert rec["dealer"] == h % 4
            try:
                check_record(rec, rules, h)
            except AssertionError as e:
                raise AssertionError(f"hand {h} rules {rules} strategy {strategy}: {e}\n{rec}")


def test_string_and_bool_rules_and_strategies_resolve_alike():
    # (cells by codes.OPTIONS' order: farmers and go_under at E_FARMERS and E_GO_UNDER, then partners_best)
    assert eh.rules_vector(None).tolist() == [0, 0, 0, 0, 0, 4, 2, 0, 0, 0, 0, 0]
    assert eh.rules_vector({"stick_the_dealer": "true", "allow_lone_defender": "False"}).tolist() == [1, 0, 0, 0, 0,
                                                                                                       4, 2, 0, 0, 0, 0,
                                                                                                       0]
    assert eh.rules_vector({"allow_lone_defender": True, "loner_lead": "Loner"}).tolist() == [0, 1, 1, 0, 0, 4, 2, 0,
                                                                                              0, 0, 0, 0]
    assert eh.rules_vector({"loner_march_score": "5", "loner_euchred_score": 3}).tolist() == [0, 0, 0, 0, 0, 5, 3, 0,
                                                                                              0, 0, 0, 0]
    assert eh.rules_vector({"partners_best": "true"}).tolist() == [0, 0, 0, 0, 0, 4, 2, 0, 0, 0, 0, 1]
    assert eh.rules_vector({"canadian": "true", "discard_up": True}).tolist() == [0, 0, 0, 1, 1, 4, 2, 0, 0, 0, 0, 0]
    from bower.kernels.euchre.codes import E_FARMERS, E_GO_UNDER, E_PARTNERS_BEST

    v = eh.rules_vector({"farmers": "true", "go_under": True})
    assert v[E_FARMERS] == 1 and v[E_GO_UNDER] == 1 and v.sum() == 4 + 2 + 2
    assert (E_FARMERS, E_GO_UNDER, E_PARTNERS_BEST) == (9, 10, 11)
    assert eh.rules_vector({"four_trick_tokens": "true"}).tolist() == [0, 0, 0, 0, 0, 4, 2, 0, 1, 0, 0, 0]
    with pytest.raises(ValueError):
        eh.rules_vector({"stick_the_dealer": "maybe"})
    with pytest.raises(ValueError):
        eh.rules_vector({"dealer_pickup": True})
    v = eh.params_vector({"w_left": 0.7, "take_min": 2.6})
    assert v.shape == (len(PARAMS),) and v[PARAM_NAMES.index("take_min")] == 2.6
    assert v[PARAM_NAMES.index("w_left")] == round(0.7 * 4096) / 4096
    assert eh.params_vector("default").tolist() == [p[1] for p in PARAMS]
    cautious = dict(zip(PARAM_NAMES, eh.params_vector("cautious")))
    default = {p[0]: p[1] for p in PARAMS}
    assert cautious["order_min_2"] == default["order_min_2"] + 0.5 and cautious["name_min_4"] == default["name_min_4"] + 0.5
    assert cautious["alone_min"] == default["alone_min"]
    assert eh.seat_params(["random", "default", "cautious", {"random": 1}])[:, PARAM_NAMES.index("random")].tolist() == [
        1, 0, 0, 1]
    assert set(eh.PRESETS) == set(eh.PRESET_NOTES) == {"default", "cautious", "aggressive", "never-alone", "random",
                                                       "pimc", "pimc-fast", "pimc-bid", "equity"}
    with pytest.raises(ValueError):
        eh.params_vector("nonsense")
    with pytest.raises(ValueError):
        eh.params_vector({"bid_3": 1.0})


def test_dealer_discards_the_card_whose_loss_leaves_the_best_estimate():
    p = eh.params_vector()
    # hearts up (the 9): keeping JH JD AH KH and the ace of clubs, the dealer drops the 9 of spades
    hand = sum(1 << parse_card(c) for c in "JH JD AH KH 9S".split())
    d, e = discard_of(np.int64(hand), np.int64(parse_card("9H")), p)
    assert d == parse_card("9S")
    assert e == estimates(np.array([hand & ~(1 << d) | (1 << parse_card("9H"))], np.int64), np.array([3]), p)[0]
    # the up-card is never the discard, even when it is the weakest card
    hand = sum(1 << parse_card(c) for c in "JC JS AC KC QC".split())
    assert discard_of(np.int64(hand), np.int64(parse_card("9C")), p)[0] != parse_card("9C")


# ---------------------------------------------------------------- forced decisions


def test_forced_decisions_are_obeyed():
    rng = random.Random(7)
    n = 0
    for i in range(600):
        order = list(range(24))
        rng.shuffle(order)
        dealer = rng.randrange(4)
        rules = ALL_RULES[i % 4]
        at = rng.randrange(8)
        seat = (dealer + 1 + at % 4) % 4
        stuck = at == 7 and rules["stick_the_dealer"]  # a forced call must be legal: a stuck dealer names a suit
        code = rng.choice([ek.CALL_PASS, ek.CALL_ORDER] if at < 4 else
                          [ek.CALL_PASS] * (not stuck) + [ek.CALL_SUIT + s for s in range(4) if s != order[20] // 6])
        alone = rng.choice([-1, 0, 1])
        strategy = STRATEGIES[i % len(STRATEGIES)]
        rec = eh.play_order(order, dealer, rules, strategy, seed=i, force=(seat, at, code, alone))
        check_record(rec, rules, 0, order)
        calls = rec["calls"]
        for j, (s, c) in enumerate(calls[:at]):
            assert s != seat or c == "pass", "the forced seat passes before its forced turn"
        if len(calls) > at:
            n += 1
            want = "pass" if code == ek.CALL_PASS else ("order" if code == ek.CALL_ORDER else SUITS[code - ek.CALL_SUIT])
            assert calls[at] == [seat, want]
            forced = rules["canadian"] and code == ek.CALL_ORDER and seat == (dealer + 2) % 4
            if rec["maker"] == seat and alone >= 0:
                assert (seat in rec["alone"]) == (alone == 1 or forced)
    assert n > 200  # of 600 forced decisions, those whose turn the auction reached
    # forcing what the strategy does changes nothing (the default strategy draws nothing)
    for i in range(200):
        order = list(range(24))
        rng.shuffle(order)
        free = eh.play_order(order, 1, ALL_RULES[3], "default")
        at = len(free["calls"]) - 1
        seat, call = free["calls"][-1]
        code = {"pass": 0, "order": 1}.get(call, ek.CALL_SUIT + SUITS.find(call))
        alone = -1 if free["maker"] is None else int(free["maker"] in free["alone"])
        assert eh.play_order(order, 1, ALL_RULES[3], "default", force=(seat, at, code, alone)) == free


# ---------------------------------------------------------------- counters


def _tally(recs: list[dict]) -> np.ndarray:
    """The summary counters (``S_*``) of record dicts, counted in Python."""
    acc = np.zeros(ek.S_WIDTH, np.int64)
    for r in recs:
        acc[ek.S_HANDS] += 1
        if r["maker"] is None:
            acc[ek.S_THROWN] += 1
            continue
        dealer, maker = r["dealer"], r["maker"]
        pos = (maker - dealer - 1) % 4
        side = maker % 2
        mt = r["tricks"][str(side)] + r["tricks"][str(side + 2)]
        made = mt >= 3
        rank = parse_card(r["upcard"]) % 6
        if r["calls"][-1][1] == "order":
            acc[ek.S_MAKER_R1 + pos] += 1
            acc[ek.S_MADE_R1 + pos] += made
            acc[ek.S_UP_ORDER + rank] += 1
            acc[ek.S_UP_MADE + rank] += made
        else:
            acc[ek.S_MAKER_R2 + pos] += 1
            acc[ek.S_MADE_R2 + pos] += made
        acc[ek.S_MARCH] += mt == 5
        acc[ek.S_EUCHRE] += not made
        if maker in r["alone"]:
            acc[ek.S_ALONE] += 1
            acc[ek.S_ALONE_MADE] += made
            acc[ek.S_ALONE_MARCH] += mt == 5
        if any(s != maker for s in r["alone"]):
            acc[ek.S_DEF_ALONE] += 1
            acc[ek.S_DEF_ALONE_SET] += not made
            acc[ek.S_DEF_ALONE_ALL] += mt == 0
        pts = r["points"]
        for k in range(2):
            for base, sq, who in ((ek.S_POINTS, ek.S_POINTS_SQ, k), (ek.S_POINTS_DEALER, ek.S_POINTS_DEALER_SQ,
                                  (dealer + k) % 2), (ek.S_POINTS_MAKER, ek.S_POINTS_MAKER_SQ, (side + k) % 2)):
                acc[base + k] += pts[str(who)]
                acc[sq + k] += pts[str(who)] ** 2
        for s in range(4):
            acc[ek.S_TRICKS + (s - dealer - 1) % 4] += r["tricks"][str(s)]
    return acc


@pytest.mark.parametrize("strategy", ["default", "aggressive", "random"])
def test_summary_counters_are_the_sums_of_the_records(strategy):
    rules = {"stick_the_dealer": False, "allow_lone_defender": True}
    n = CHUNK + 1500  # two chunks, the second short
    rows, summary = _simulate(31, n, rules, strategy)
    recs = [row_to_dict(rows[h], h, eh.resolve_rules(rules)) for h in range(n)]
    assert summary.sum(axis=0).tolist() == _tally(recs).tolist()
    assert summary[:, ek.S_HANDS].tolist() == [CHUNK, 1500]
    _, quiet = _simulate(31, n, rules, strategy, want_records=False)
    assert quiet.tolist() == summary.tolist()


def test_same_seeds_same_rows_for_any_thread_count():
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        a, sa = _simulate(5, 3 * CHUNK, ALL_RULES[3], "random")
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        b, sb = _simulate(5, 3 * CHUNK, ALL_RULES[3], "random")
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(a, b) and np.array_equal(sa, sb)
    c, _ = _simulate(6, 3 * CHUNK, ALL_RULES[3], "random")
    assert not np.array_equal(a, c)



def _order_of(rec: dict) -> list[int]:
    """A deck order that deals the record's hands and kitty (card i < 20 to position i % 4 + 1)."""
    by_pos = [[parse_card(c) for c in rec["deal"][str((rec["dealer"] + 1 + p) % 4)]] for p in range(4)]
    return [by_pos[i % 4][i // 4] for i in range(20)] + [parse_card(c) for c in rec["kitty"]]


@pytest.mark.parametrize("k", range(len(ALL_RULES)))
def test_a_simulated_hand_is_the_hand_play_order_deals(k):
    rules = ALL_RULES[k]
    rows, _ = _simulate(50 + k, 400, rules, [LOOSE, "default", "aggressive", "never-alone"])
    for h in range(rows.shape[0]):
        rec = row_to_dict(rows[h], 0, eh.resolve_rules(rules))
        again = eh.play_order(_order_of(rec), rec["dealer"], rules, [LOOSE, "default", "aggressive", "never-alone"])
        assert again == rec
    # random seats: hand 0 of a run draws from the decision stream play_order uses for the same seed
    rows, _ = _simulate(60 + k, 1, rules, "random")
    rec = row_to_dict(rows[0], 0, eh.resolve_rules(rules))
    assert eh.play_order(_order_of(rec), 0, rules, "random", seed=60 + k) == rec


def test_deal_stream_is_the_spec_fisher_yates():
    from tests.reference.rng import Xoshiro256ss

    state = _states(3, 0, 1)[0]
    out = np.zeros((50, 4), np.int64)
    kitty = np.zeros((50, 4), np.int64)
    ed.deal_chunk(state.copy(), 50, out, kitty)
    rng = Xoshiro256ss(state)
    rows, _ = _simulate(3, 50)
    for h in range(50):
        deck = list(range(24))
        for i in range(23, 0, -1):
            j = rng.bounded(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        want = [sum(1 << deck[i] for i in range(20) if i % 4 == p) for p in range(4)]
        assert out[h].tolist() == want and kitty[h].tolist() == deck[20:]
        dealer = h % 4
        assert [rows[h, ek.R_DEAL + (dealer + 1 + p) % 4] for p in range(4)] == want
        assert rows[h, ek.R_KITTY: ek.R_KITTY + 4].tolist() == deck[20:]


# ---------------------------------------------------------------- games and should-bid


def test_games_to_ten_by_side():
    strat = np.stack([eh.params_vector("default"), eh.params_vector("random")])
    assign = np.array([[0, 1, 0, 1], [1, 0, 1, 0]], np.int64)
    n_sets, nc = 40, 2
    set_wins = np.zeros((n_sets, 2), np.int64)
    games = np.zeros((n_sets * 2, GO_WIDTH), np.int64)
    hand_acc = np.zeros((nc, ek.S_WIDTH), np.int64)
    strat_acc = np.zeros((nc, 2, ST_WIDTH), np.int64)
    game_acc = np.zeros((nc, GA_WIDTH), np.int64)
    args = (_states(11, 0, nc), 20, n_sets, assign, True, eh.rules_vector(ALL_RULES[1]), strat, 10, 1000)
    ed.games_chunks(*args, set_wins, games, hand_acc, strat_acc, game_acc, ek.search_arg(strat), np.zeros(2, np.int64))
    again = [np.zeros_like(x) for x in (set_wins, games, hand_acc, strat_acc, game_acc)]
    ed.games_chunks(*args, *again, ek.search_arg(strat), np.zeros(2, np.int64))
    assert all(np.array_equal(x, y) for x, y in zip((set_wins, games, hand_acc, strat_acc, game_acc), again))
    g = game_acc.sum(axis=0)
    assert g[GA_GAMES] == 2 * n_sets and g[GA_UNFINISHED] == 0
    for row in games:
        w = row[GO_WINNER]
        assert w in (0, 1) and row[GO_SCORES + w] >= 10 > row[GO_SCORES + 1 - w]
        most = max(4, ALL_RULES[1]["loner_march_score"], ALL_RULES[1]["loner_euchred_score"])
        assert row[GO_SCORES + w] <= 9 + most  # at most 9 before the last hand, which scores at most ``most``
    assert g[GA_HANDS] == games[:, GO_HANDS].sum() == hand_acc[:, ek.S_HANDS].sum()
    assert g[GA_WINS] + g[GA_WINS + 1] == 2 * n_sets
    st = strat_acc.sum(axis=0)
    assert st[:, ST_HANDS].sum() == 4 * g[GA_HANDS]
    assert st[0, ST_POINTS] + st[1, ST_POINTS] == 2 * games[:, GO_SCORES: GO_SCORES + 2].sum()
    assert set_wins.sum() == 2 * n_sets and set_wins[:, 0].sum() > set_wins[:, 1].sum()  # default beats random
    h = hand_acc.sum(axis=0)
    played = h[ek.S_HANDS] - h[ek.S_THROWN]
    assert st[:, ST_MAKER].sum() + st[:, ST_MAKER + 1].sum() == played
    assert st[:, ST_SWAPS].sum() == h[ek.S_MAKER_R1: ek.S_MAKER_R1 + 4].sum() == st[:, ST_MAKER].sum()
    assert st[:, ST_MADE].sum() + st[:, ST_MADE + 1].sum() == played - h[ek.S_EUCHRE]
    assert st[:, ST_MAKER + 2].sum() == h[ek.S_ALONE] and st[:, ST_MAKER + 3].sum() == h[ek.S_DEF_ALONE]
    assert st[:, ST_MADE + 3].sum() == h[ek.S_DEF_ALONE_SET] and st[:, ST_BIDDER].sum() == played


def _advise(hand: str, up: str, n_passes: int, rules=None, strategy="default", samples=300, nc=2):
    """The advice kernel under the exact model, strategy play-out: (actions, draws, kept, (acc, pts_xy, mar_xy))."""
    up_c = parse_card(up)
    mask = sum(1 << parse_card(c) for c in hand.split())
    actions = ea.open_actions(n_passes, up_c, eh.resolve_rules(rules)["stick_the_dealer"])
    a = len(actions)
    acc, pxy, mxy = np.zeros((nc, 2, a, W_WIDTH)), np.zeros((nc, 2, a, a)), np.zeros((nc, 2, a, a))
    draws, kept = np.zeros(nc, np.int64), np.zeros(nc, np.int64)
    ea.advice_chunks(_states(2, 0, nc), _states(2, 0, nc, 1), np.full(nc, samples, np.int64), 100_000, np.int64(mask),
                     np.int64(up_c), np.int64(n_passes % 4), eh.rules_vector(rules), eh.seat_params(strategy),
                     np.int64(n_passes), actions, np.array([0.0, 0.0, 0.0]), np.int64(1), None, None, NO_EQUITY, draws,
                     kept, np.zeros((nc, 2)), acc, pxy, mxy, np.zeros((nc, 4, 2)), np.zeros((nc, 2, a, 2)),
                     np.zeros((nc, 2, a, a)))
    return actions, draws, kept, (acc[:, 0], pxy[:, 0], mxy[:, 0])


def test_should_bid_plays_every_open_action_on_the_same_deals():
    actions, draws, kept, (acc, pts_xy, _) = _advise("JH JD AH KH 9C", "TH", 0)
    assert actions.tolist() == [[0, -1], [1, 0], [1, 1]]
    assert kept.tolist() == [300, 300] and draws.tolist() == [300, 300]  # no call before position 1
    a = acc.sum(axis=0)
    assert a[:, W_N].tolist() == [600, 600, 600]
    assert a[1, W_MAKER] == a[2, W_MAKER] == 600  # ordering makes the player's side the makers
    assert pts_xy.sum(axis=0)[1, 1] >= 600  # a monster ordered up scores on every deal
    # round two, the dealer stuck: no pass; three suits, alone or not; the rejection drew more than it kept
    actions, draws, kept, (acc, _, _) = _advise("9C TC QS 9D TD", "AH", 7, {"stick_the_dealer": True}, "cautious")
    assert actions[:, 0].tolist() == [2, 2, 3, 3, 4, 4]
    assert (kept == 300).all() and (draws > kept).all()
    assert (acc.sum(axis=0)[:, W_MAKER] == 600).all()
    again = _advise("9C TC QS 9D TD", "AH", 7, {"stick_the_dealer": True}, "cautious")
    assert np.array_equal(again[3][0], acc)
    assert np.isfinite(acc[:, :, W_PTS]).all()


def test_records_as_arrow_rows_round_trip(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from bower.sim.variants.euchre import records as er

    rules = eh.resolve_rules(ALL_RULES[1])
    rows, _ = _simulate(8, 2000, rules, ["cautious", "default", "cautious", "cautious"])
    recs = [row_to_dict(rows[h], h, rules) for h in range(2000)]
    assert any(r["maker"] is None for r in recs) and any(r["discard"] for r in recs)
    fields = er.ARROW_FIELDS
    assert [name for name, _ in fields] == ["variant", "rules_version", "rules", "hand", "dealer", *[
        k for k in recs[0] if k not in ("variant", "rules_version", "rules", "hand", "dealer")]]
    assert er.all_arrow_fields(rules)[5:] == er.arrow_fields(rules)
    schema = pa.schema(fields)
    pairs = [{**r, "calls": [[str(s), c] for s, c in r["calls"]], "plays": [[str(s), c] for s, c in r["plays"]]}
             for r in recs]  # as sim.records' Parquet writer stores them
    pq.write_table(pa.Table.from_pylist(pairs, schema=schema), tmp_path / "r.parquet")
    back = pq.read_table(tmp_path / "r.parquet").to_pylist()
    for d in back:
        d["calls"] = [[int(s), c] for s, c in d["calls"]]
        d["plays"] = [[int(s), c] for s, c in d["plays"]]
    assert back == recs
    assert json.loads(json.dumps(recs)) == recs
