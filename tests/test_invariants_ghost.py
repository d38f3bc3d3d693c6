"""Invariants of every simulated Ghost Hand hand, checked record by record.

About 20,000 hands from the kernels (``bower.sim.runner.hand_records``) over rule
sets that switch every option, each hand checked against RULES.md section 1
with the reference engine's own rule functions (never the kernel tables):
cards are neither lost nor duplicated, the dead hand never plays, suit is
always followed, the trick winner leads next, tricks add up, points follow
the score table and the auction is one the rules allow.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from bower.sim import runner
from bower.sim.cards import parse_card
from bower.sim.rules import resolve
from tests.reference import ghost as ref
from bower.sim.variants import get_variant

GHOST = get_variant("ghost")

CALL_VALUE = {"3": 3, "4": 4, "5": 5, "moon": 6}

# (rules, strategy, seed, first hand, count): about 20,000 hands in all.
AGGRESSIVE = {"bid_3": 1.75, "bid_4": 2.25, "bid_5": 2.75, "bid_moon": 3.5, "swap_below": 2.25, "bid_jump": 0.0}
JUMPY = {"bid_3": 2.0, "bid_4": 2.6, "bid_5": 3.2, "bid_moon": 4.0, "bid_jump": 1.0, "lead_trump_min": 1.0}
RUNS = [
    ({}, "default", 101, 0, 5000),
    ({"auction": "until_passes", "stick_the_dealer": True}, "default", 102, 4096 * 3 + 100, 4000),
    ({"auction": "until_passes", "swap": "none", "set_keeps_tricks": True}, AGGRESSIVE, 103, 0, 4000),
    ({"stick_the_dealer": True, "moon_set_penalty": 24}, JUMPY, 104, 4096 * 7, 3500),
    ({"auction": "until_passes", "moon_set_penalty": 24, "set_keeps_tricks": True}, JUMPY, 105, 0, 3500),
]


def _cards(strings) -> list[ref.Card]:
    return [ref.card_from_index(parse_card(s)) for s in strings]


def check_auction(rec: dict, rules: dict) -> None:
    dealer = rec["dealer"]
    order = [(dealer + p) % 3 for p in (1, 2, 3)]
    calls = rec["calls"]
    assert calls, "every hand has at least one call"
    if rules["auction"] == "one_lap":
        assert [s for s, _ in calls] == order[: len(calls)], "one lap from position 1, dealer last"
    standing, high, passed = 0, None, set()
    turn = 0
    for i, (seat, call) in enumerate(calls):
        assert call in ("pass", "3", "4", "5", "moon"), call
        assert standing < 6, "nothing is called after a moon"
        assert not (len(passed) == 3 or (high is not None and len(passed) == 2)), "a call after the auction ended"
        assert seat not in passed, "a pass is final"
        assert seat != high, "the high bidder does not bid over themselves"
        # the caller is the next seat in turn order that is still in the auction
        while order[turn % 3] in passed or order[turn % 3] == high:
            turn += 1
        assert seat == order[turn % 3], f"call {i} out of turn"
        turn += 1
        if call == "pass":
            passed.add(seat)
            if rules["stick_the_dealer"] and seat == dealer:
                assert high is not None, "a stuck dealer may not pass"
        else:
            value = CALL_VALUE[call]
            assert value > standing, "each bid beats the standing bid"
            standing, high = value, seat
    # the auction stopped exactly when the rules end it
    if rules["auction"] == "one_lap":
        assert len(calls) == 3 or standing == 6
    else:
        over = standing == 6 or len(passed) == 3 or (high is not None and len(passed) == 2)
        assert over, "the auction stopped while a player could still call"
    assert rec["maker"] == high
    assert rec["bid"] == (standing if high is not None else None)
    # swap: at most one (a single field), only by a seat that then called, never when switched off
    if rec["swap"] is not None:
        assert rules["swap"] == "at_turn"
        assert rec["swap"] in [s for s, _ in calls]


def check_play(rec: dict, rules: dict) -> None:
    maker, swap = rec["maker"], rec["swap"]
    dealt = {s: _cards(rec["deal"][str(s)]) for s in range(3)}
    ghost = _cards(rec["deal"]["ghost"])
    everything = [c for s in range(3) for c in dealt[s]] + ghost
    assert all(len(h) == 6 for h in (*dealt.values(), ghost))
    assert sorted(c.index for c in everything) == list(range(24)), "the four hands partition the deck"
    for key, hand in rec["deal"].items():
        assert [parse_card(c) for c in hand] == sorted(parse_card(c) for c in hand), "dealt hands sorted"

    if maker is None:
        assert rec["plays"] == [] and rec["trump"] is None
        assert all(v == 0 for v in rec["tricks"].values()) and all(v == 0 for v in rec["points"].values())
        return

    live = {s: list(ghost) if s == swap else list(dealt[s]) for s in range(3)}
    dead = dealt[swap] if swap is not None else ghost  # unswapped ghost is out of play too
    trump = "CSDH".index(rec["trump"])
    plays = [(s, ref.card_from_index(parse_card(c))) for s, c in rec["plays"]]
    assert len(plays) == 18
    played_by = {s: [c for t, c in plays if t == s] for s in range(3)}
    for s in range(3):
        assert sorted(c.index for c in played_by[s]) == sorted(c.index for c in live[s]), (
            f"seat {s} plays exactly the hand it held after the swap"
        )
    assert not {c.index for c in dead} & {c.index for _, c in plays}, "the dead hand never plays"

    leader = maker
    hands = {s: list(live[s]) for s in range(3)}
    tricks = [0, 0, 0]
    for t in range(6):
        trick = plays[3 * t: 3 * t + 3]
        assert [s for s, _ in trick] == [(leader + k) % 3 for k in range(3)], f"trick {t} in turn from the leader"
        for k, (seat, card) in enumerate(trick):
            lead = trick[0][1] if k else None
            legal = ref.legal_cards(hands[seat], lead, trump)
            assert card in legal, f"trick {t}: seat {seat} played {card} but had to play one of {legal}"
            hands[seat].remove(card)
        winner = trick[ref.trick_winner([c for _, c in trick], trump)][0]
        tricks[winner] += 1
        leader = winner  # the winner leads the next trick
    assert {str(s): tricks[s] for s in range(3)} == rec["tricks"]
    assert sum(rec["tricks"].values()) == 6

    bid, taken = rec["bid"], tricks[maker]
    for s in range(3):
        if s != maker:
            want = tricks[s]
        elif taken >= bid:
            want = 24 if bid == 6 else taken
        else:
            want = -(rules["moon_set_penalty"] if bid == 6 else bid) + (taken if rules["set_keeps_tricks"] else 0)
        assert rec["points"][str(s)] == want, f"seat {s} points"


@pytest.mark.parametrize("overrides, strategy, seed, start, count", RUNS)
def test_invariants(overrides, strategy, seed, start, count):
    rules = resolve(GHOST, overrides)
    records = runner.hand_records(seed, start, count, overrides, strategy)
    assert [r["hand"] for r in records] == list(range(start, start + count))
    seen = Counter()
    for rec in records:
        assert rec["variant"] == "ghost" and rec["rules"] == rules
        assert rec["dealer"] == rec["hand"] % 3, "the deal passes to the left every hand"
        try:
            check_auction(rec, rules)
            check_play(rec, rules)
        except AssertionError as e:
            raise AssertionError(f"seed {seed} hand {rec['hand']} rules {overrides} strategy {strategy}: {e}") from e
        seen["thrown in" if rec["maker"] is None else f"bid {rec['bid']}"] += 1
        seen["swap"] += rec["swap"] is not None
        seen["multi-bid auction"] += sum(c != "pass" for _, c in rec["calls"]) > 1
        if rec["maker"] is not None:
            seen["made" if rec["tricks"][str(rec["maker"])] >= rec["bid"] else "set"] += 1
    # the sample must exercise what the checks are about
    assert seen["bid 3"] and seen["set"] and seen["made"]
    if rules["swap"] == "at_turn":
        assert seen["swap"] > count // 20
    else:
        assert seen["swap"] == 0
    if rules["stick_the_dealer"]:
        assert seen["thrown in"] == 0, "with stick the dealer no hand is thrown in"
    elif strategy == "default":
        assert seen["thrown in"]
    if strategy != "default":
        assert seen["bid 6"] and seen["multi-bid auction"], seen


def test_checks_catch_broken_records():
    # The invariant checks must reject a record that breaks a rule.
    rules = resolve(GHOST, {})
    rec = next(r for r in runner.hand_records(101, 0, 50) if r["maker"] is not None and r["swap"] is not None)
    check_auction(rec, rules)
    check_play(rec, rules)

    def broken(change):
        bad = {**rec, "plays": [list(p) for p in rec["plays"]], "points": dict(rec["points"])}
        change(bad)
        return bad

    def exchange_followers_cards(r):  # the two followers of trick 1 swap the cards they played
        r["plays"][1][1], r["plays"][2][1] = r["plays"][2][1], r["plays"][1][1]

    def play_dead_card(r):
        r["plays"][-1][1] = r["deal"][str(r["swap"])][0]

    def bump_points(r):
        r["points"][str(r["maker"])] += 1

    for change in (exchange_followers_cards, play_dead_card, bump_points):
        with pytest.raises(AssertionError):
            check_play(broken(change), rules)
    with pytest.raises(AssertionError):
        check_auction({**rec, "calls": rec["calls"] + [[rec["calls"][0][0], "pass"]]}, rules)


def _make_revoke(rec: dict) -> dict | None:
    """``rec`` with one follower's two cards exchanged so that it fails to follow suit, if possible."""
    if rec["maker"] is None:
        return None
    trump = "CSDH".index(rec["trump"])
    card = lambda i: ref.card_from_index(parse_card(rec["plays"][i][1]))  # noqa: E731
    for t in range(6):
        led = ref.effective_suit(card(3 * t), trump)
        for i in (3 * t + 1, 3 * t + 2):
            if ref.effective_suit(card(i), trump) != led:
                continue
            seat = rec["plays"][i][0]
            for j in range(3 * t + 3, 18):
                if rec["plays"][j][0] == seat and ref.effective_suit(card(j), trump) != led:
                    plays = [list(p) for p in rec["plays"]]
                    plays[i][1], plays[j][1] = plays[j][1], plays[i][1]
                    return {**rec, "plays": plays}
    return None


def test_checks_catch_a_revoke():
    rules = resolve(GHOST, {})
    revoked = [r for r in map(_make_revoke, runner.hand_records(101, 0, 60)) if r is not None][:10]
    assert revoked
    for rec in revoked:
        with pytest.raises(AssertionError, match="had to play"):
            check_play(rec, rules)


# ---------------------------------------------------------------- the random player

RANDOM_MIXES = [
    "random",
    ["random", "default", "random"],
    ["aggressive", {"random": 1.0}, "random"],
]


def turns_due_to_high_bidder(rec: dict) -> int:
    """How often the turn order reached the standing high bidder while the auction was open.

    The high bidder is skipped (they do not bid over themselves); but the turn
    can only get back to them after the other two have each passed (a pass
    is final) or been outbid, and two passes after a bid end the auction, so
    this is always 0.
    """
    dealer = rec["dealer"]
    order = [(dealer + p) % 3 for p in (1, 2, 3)]
    passed, high, turn, due = set(), None, 0, 0
    for seat, call in rec["calls"]:
        while order[turn % 3] in passed or order[turn % 3] == high:
            due += order[turn % 3] == high
            turn += 1
        turn += 1
        if call == "pass":
            passed.add(seat)
        else:
            high = seat
    return due


def test_random_players_make_only_legal_choices():
    # Kernel records of random players (alone or beside deterministic ones) under every rule set,
    # checked call by call and card by card with the reference's rule functions.
    names = [o.name for o in GHOST.options]
    seen = Counter()
    for i, values in enumerate(itertools.product(*(o.values for o in GHOST.options))):
        overrides = dict(zip(names, values))
        rules = resolve(GHOST, overrides)
        strategy = RANDOM_MIXES[i % len(RANDOM_MIXES)]
        seats = ref.seat_strategies(strategy)
        rnd = {s for s in range(3) if ref.is_random(seats[s])}
        for rec in runner.hand_records(900 + i, 0, 100, overrides, strategy):
            try:
                check_auction(rec, rules)
                check_play(rec, rules)
                # between two calls of one seat someone outbid it; with bids 3, 4, 5, moon none calls thrice
                assert max(Counter(s for s, _ in rec["calls"]).values()) <= 2
                assert turns_due_to_high_bidder(rec) == 0
            except AssertionError as e:
                raise AssertionError(f"seed {900 + i} hand {rec['hand']} rules {overrides} {strategy}: {e}") from e
            calls = rec["calls"]
            n_calls = Counter(s for s, _ in calls)
            if rec["swap"] is not None:
                seen["swap " + rules["swap"]] += 1
                seen["random swap"] += rec["swap"] in rnd
            for s, c in calls:
                if s in rnd:
                    seen[f"random {c}"] += 1
            if rec["maker"] in rnd:
                seen["random trump " + rec["trump"]] += 1
            if rules["auction"] == "until_passes":
                seen["went round"] += len(calls) > 3
                seen["random seat called twice"] += any(n_calls[s] == 2 for s in rnd)
            if rules["swap"] == "at_turn" and rec["swap"] is None and any(n_calls[s] > 1 for s in rnd):
                seen["random later turn, ghost still there"] += 1
            if rules["stick_the_dealer"] and rec["dealer"] in rnd and [c for _, c in calls[:2]] == ["pass", "pass"]:
                seen["random dealer stuck"] += 1
                assert calls[2][1] != "pass"
            if not rules["stick_the_dealer"]:
                seen["thrown in"] += rec["maker"] is None
    assert seen["swap none"] == 0
    wanted = ["random swap", "went round", "random seat called twice", "random later turn, ghost still there",
              "random dealer stuck", "thrown in"]
    wanted += [f"random {c}" for c in ("pass", "3", "4", "5", "moon")] + [f"random trump {s}" for s in "CSDH"]
    assert all(seen[k] for k in wanted), seen
