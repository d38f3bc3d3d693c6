"""Invariants of the Hasenpfeffer kernels' records, checked against the rules reference only.

Independent of the strategy twin: whatever the players decide, a kernel
record (``bower.sim.runner.hand_records(..., variant="hasenpfeffer")``) must be a
legal hand of RULES.md section 3 (``tests/reference/hasenpfeffer.py``): 25
distinct cards (24 in the hands, the widow), a legal auction with the
record's outcome (forced 3 and throw-in included), the bidder's six cards
after the widow plus the card out of play being the seven it had, every
card played by the right seat in turn and legal, 6 tricks won as the trick
rule says, the points of ``score_tricks``. The kernel's deals put the joker
with each seat with probability 6/25 and in the widow with 1/25. And the
joker is pinned in kernel play: above both bowers, a trump for following (a
led joker calls for trump; a player whose only trump is the joker must play
it when trump is led).
"""

from __future__ import annotations

import copy
import itertools
from fractions import Fraction
from math import sqrt

import numpy as np
import pytest

from bower.sim import runner
from tests.reference import hasenpfeffer as hp

RULE_OPTIONS = {o.name: list(o.values) for o in hp.HASENPFEFFER.options}
ALL_RULES = [dict(zip(RULE_OPTIONS, values)) for values in itertools.product(*RULE_OPTIONS.values())]
NEVER = {"cushion": 99.0}  # never bids: every hand is a forced 3 or thrown in
LOOSE = {"cushion": -1.5, "big_pepper_min": 6.0, "support_margin": 0.0}
STRATEGIES = ["default", "random", ["random", LOOSE, "default", "creeping"], [NEVER, "random", NEVER, "default"],
              LOOSE, NEVER, "aggressive", "cautious"]
VARIANT = "hasenpfeffer"

# The chi-square critical value at p = 1e-6 with 4 degrees of freedom (scipy.stats.chi2.isf(1e-6, 4) = 33.3768...).
CHI2_CRIT_4 = 33.3768


def _c(names) -> list:
    return [hp.card_from_str(c) for c in names]


def _ascending(names) -> bool:
    return names == [str(c) for c in hp.by_index(_c(names))]


def check_record(rec: dict, hand_index: int, rules: dict) -> None:
    """Every rule-level invariant of one kernel record (AssertionError or ValueError naming the first broken)."""
    rules = hp.resolve_rules(rules)
    assert rec["variant"] == VARIANT and rec["hand"] == hand_index and rec["rules"] == rules
    dealer = rec["dealer"]
    assert dealer == hand_index % 4
    # 25 cards: 6 in each hand (ascending, the joker last) and the widow, all distinct
    dealt = {s: _c(rec["deal"][str(s)]) for s in range(4)}
    widow = hp.card_from_str(rec["widow"])
    assert all(len(h) == 6 and _ascending(rec["deal"][str(s)]) for s, h in dealt.items())
    everything = [c for h in dealt.values() for c in h] + [widow]
    assert len(set(everything)) == 25 == len(everything), "25 distinct cards"

    # the auction is legal and its outcome is the record's
    joker_seat = next((s for s, h in dealt.items() if hp.JOKER in h), None)
    auction = hp.auction_outcome([c for _, c in rec["calls"]], dealer, joker_seat, rules)
    assert [list(c) for c in auction.calls] == rec["calls"], "calls by the right seats"
    if auction.thrown_in:
        assert rec["bidder"] is None and rec["bid"] is None and rec["trump"] is None and rec["discard"] is None
        assert rec["forced"] is False and rec["plays"] == []
        assert rec["tricks"] == {"0": 0, "1": 0, "2": 0, "3": 0} and rec["points"] == {"0": 0, "1": 0}
        return
    bidder = auction.bidder
    assert (rec["bidder"], rec["bid"], rec["forced"]) == (bidder, auction.bid, auction.forced)
    assert rec["trump"] in ("C", "S", "D", "H")
    trump = hp.name_trump(rec["trump"])

    # the widow: the bidder's six after it plus the card out of play are the seven it had
    hands = {s: list(h) for s, h in dealt.items()}
    if rules["widow"] == "dead":
        assert rec["discard"] is None
    else:
        discard = hp.card_from_str(rec["discard"])
        seven = dealt[bidder] + [widow]
        assert discard in seven, f"discard {discard} not among the bidder's seven"
        hands[bidder] = [c for c in seven if c != discard]
        assert sorted([*hands[bidder], discard], key=lambda c: c.index) == hp.by_index(seven)

    # 24 plays, 6 tricks: each by the right seat in turn, each card legal and held
    plays = [(s, hp.card_from_str(c)) for s, c in rec["plays"]]
    assert len(plays) == 24
    leader = hp.first_leader(dealer, bidder, rules)
    held = {s: list(h) for s, h in hands.items()}
    tricks = [0, 0, 0, 0]
    for t in range(6):
        trick = plays[4 * t: 4 * t + 4]
        assert [s for s, _ in trick] == hp.play_order(leader), f"trick {t}: seats out of turn"
        cards = [c for _, c in trick]
        for i, (s, c) in enumerate(trick):
            assert c in hp.legal_cards(held[s], cards[0] if i else None, trump), f"seat {s} may not play {c}"
            held[s].remove(c)
        leader = trick[hp.trick_winner(cards, trump)][0]
        tricks[leader] += 1
    assert all(h == [] for h in held.values())
    assert rec["tricks"] == {str(s): tricks[s] for s in range(4)}
    points = hp.score_tricks(bidder, auction.bid, tricks, rules)
    assert rec["points"] == {"0": points[0], "1": points[1]}


@pytest.mark.parametrize("k", range(len(ALL_RULES)))
def test_kernel_records_are_legal_hands(k):
    rules = ALL_RULES[k]
    strategy = STRATEGIES[k % len(STRATEGIES)]
    start = (k % 3) * runner.CHUNK_SIZE + k % 7  # the kernel plays a chunk from its first hand: stay near it
    records = runner.hand_records(100 + k, start, 40, rules, strategy, variant=VARIANT)
    assert len(records) == 40
    for i, rec in enumerate(records):
        try:
            check_record(rec, start + i, rules)
        except (AssertionError, ValueError) as e:
            raise AssertionError(f"seed {100 + k} hand {start + i} rules {rules} strategy {strategy}: {e}\n{rec}")


def test_records_cover_every_kind_of_hand():
    # Across rule sets and strategies the invariants met every branch of a hand.
    seen = set()
    runs = [(rules, STRATEGIES[k % len(STRATEGIES)]) for k, rules in enumerate(ALL_RULES[::9])]
    runs.append(({"all_pass": "joker_bids_three", "bidding": "pepper"}, NEVER))
    for k, (rules, strategy) in enumerate(runs):
        for rec in runner.hand_records(7 + k, 0, 150, rules, strategy, variant=VARIANT):
            if rec["bidder"] is None:
                seen.add("thrown in")
                continue
            seen.add("forced" if rec["forced"] else "bid")
            seen.add("exchange" if rec["discard"] else "dead")
            seen.add("pepper" if "pepper" in rec["bid"] else "numeric")
    assert seen >= {"thrown in", "forced", "bid", "exchange", "dead", "pepper", "numeric"}, seen


def _corruptions(rec: dict):
    """Broken copies of a played record, each one breaking one invariant."""

    def changed(f):
        r = copy.deepcopy(rec)
        f(r)
        return r

    b = rec["bidder"]
    other = rec["deal"][str((b + 1) % 4)][0]
    yield "a card dealt twice", changed(lambda r: r.__setitem__("widow", r["deal"]["0"][0]))
    yield "two plays swapped", changed(lambda r: r["plays"].__setitem__(slice(0, 2), r["plays"][1::-1]))
    yield "a play by the wrong seat", changed(lambda r: r["plays"][5].__setitem__(0, (r["plays"][5][0] + 1) % 4))
    yield "a trick miscounted", changed(lambda r: r["tricks"].update({"0": r["tricks"]["0"] + 1,
                                                                      "1": r["tricks"]["1"] - 1}))
    yield "a point more", changed(lambda r: r["points"].update({"1": r["points"]["1"] + 1}))
    yield "the bidder discards another's card", changed(lambda r: r.__setitem__("discard", other))
    yield "the wrong bidder", changed(lambda r: r.__setitem__("bidder", (b + 2) % 4))
    yield "not forced", changed(lambda r: r.__setitem__("forced", not r["forced"]))
    yield "a call out of turn", changed(lambda r: r["calls"][0].__setitem__(0, (r["calls"][0][0] + 1) % 4))
    yield "a play too many", changed(lambda r: r["plays"].append(r["plays"][-1]))


def test_check_record_catches_corruptions():
    # A record of a played hand with an exchange in which both sides took tricks, broken ten ways.
    rules = hp.resolve_rules({})
    for i, rec in enumerate(runner.hand_records(3, 0, 200, rules, "default", variant=VARIANT)):
        if rec["bidder"] is not None and rec["discard"] and rec["tricks"]["1"] and rec["tricks"]["0"]:
            break
    check_record(rec, i, rules)
    for what, bad in _corruptions(rec):
        try:
            check_record(bad, i, rules)
        except (AssertionError, ValueError):
            continue
        pytest.fail(f"not caught: {what}")


# ---------------------------------------------------------------- where the joker is dealt

DEAL_SEED = 20251129
DEAL_CHUNKS = 256  # 256 * 4096 = 1,048,576 deals
P_SEAT = Fraction(6, 25)  # 6 of the 25 places in the order are a given seat's
P_WIDOW = Fraction(1, 25)


@pytest.fixture(scope="module")
def kernel_deals():
    from bower.kernels.hasenpfeffer import drivers as hs

    n = runner.CHUNK_SIZE
    states = runner.chunk_states(DEAL_SEED, 0, DEAL_CHUNKS)
    masks = np.empty((DEAL_CHUNKS * n, 4), np.int64)
    widow = np.empty(DEAL_CHUNKS * n, np.int64)
    for c in range(DEAL_CHUNKS):
        hs.deal_chunk(states[c].copy(), n, masks[c * n:(c + 1) * n], widow[c * n:(c + 1) * n])
    # the test deal function deals what the runner's records hold (chunk 0 and chunk 1's first hands)
    for start in (0, n):
        for i, rec in enumerate(runner.hand_records(DEAL_SEED, start, 6, variant=VARIANT)):
            h = start + i
            pos = [(rec["dealer"] + p) % 4 for p in (1, 2, 3, 4)]
            want = [sum(1 << hp.card_from_str(c).index for c in rec["deal"][str(s)]) for s in pos]
            assert masks[h].tolist() == want
            assert int(widow[h]) == hp.card_from_str(rec["widow"]).index
    return masks, widow


def test_deals_partition_the_deck(kernel_deals):
    masks, widow = kernel_deals
    full = np.bitwise_or.reduce(masks, axis=1) | (np.int64(1) << widow)
    assert (full == (1 << 25) - 1).all()
    for col in range(4):
        assert all(int(m).bit_count() == 6 for m in masks[:2000, col])


def test_joker_location_is_uniform_over_the_25_places(kernel_deals):
    # P(seat holds the joker) = 6/25 for each seat, P(widow) = 1/25: chi-square over the 5 places
    # (4 degrees of freedom, rejecting only below p = 1e-6), and each place within 5 sigma.
    masks, widow = kernel_deals
    n = len(widow)
    dealer = np.arange(n) % 4
    holder = np.full(n, 4)  # 4: the widow
    for p in range(4):  # position p + 1 is seat (dealer + p + 1) % 4
        has = ((masks[:, p] >> 24) & 1).astype(bool)
        holder[has] = (dealer[has] + p + 1) % 4
    assert ((holder == 4) == (widow == 24)).all()
    counts = np.bincount(holder, minlength=5)
    probs = np.array([float(P_SEAT)] * 4 + [float(P_WIDOW)])
    expected = n * probs
    stat = float(((counts - expected) ** 2 / expected).sum())
    assert stat < CHI2_CRIT_4, (stat, counts.tolist())
    sigma = np.sqrt(n * probs * (1 - probs))
    assert (np.abs(counts - expected) < 5 * sigma).all(), (counts.tolist(), expected.tolist())
    # and by position (1, 2, 3, dealer): the same 6/25 each
    by_pos = [int(((masks[:, p] >> 24) & 1).sum()) for p in range(4)]
    assert all(abs(c - n * float(P_SEAT)) < 5 * sqrt(n * float(P_SEAT) * (1 - float(P_SEAT))) for c in by_pos)


# ---------------------------------------------------------------- the joker in kernel play


def test_joker_tables_pin_its_rank_and_suit():
    from bower.kernels.tables import EFF_SUIT, HIGHER, LEFT, RIGHT, TRUMP_RANK

    for t in range(4):
        assert TRUMP_RANK[t, 24] == 7 > TRUMP_RANK[t, RIGHT[t]] == 6 > TRUMP_RANK[t, LEFT[t]] == 5
        assert EFF_SUIT[t, 24] == t and HIGHER[t, 24] == 0
        assert (HIGHER[t, RIGHT[t]] >> 24) & 1 and (HIGHER[t, LEFT[t]] >> 24) & 1


def test_joker_in_kernel_play():
    # Random players across rule sets: the joker takes every trick it is in (both bowers in it too),
    # a led joker calls for trump (every follower with a trump plays one), and a player whose only
    # trump is the joker plays it when trump is led.
    seen = {"joker and both bowers": 0, "joker led, trump followed": 0, "joker led, no trump held": 0,
            "only trump the joker, trump led": 0, "joker tricks": 0}
    for k, rules in enumerate(ALL_RULES[::16]):
        for rec in runner.hand_records(500 + k, 0, 1500, rules, "random", variant=VARIANT):
            if rec["bidder"] is None:
                continue
            trump = "CSDH".index(rec["trump"])
            right, left = str(hp.right_bower(trump)), str(hp.left_bower(trump))
            hands = {s: _c(rec["deal"][str(s)]) for s in range(4)}
            if rec["discard"] is not None:
                b = rec["bidder"]
                hands[b] = [c for c in hands[b] + [hp.card_from_str(rec["widow"])] if str(c) != rec["discard"]]
            plays = rec["plays"]
            for t in range(6):
                trick = plays[4 * t: 4 * t + 4]
                names = [c for _, c in trick]
                lead = hp.card_from_str(names[0])
                for i, (s, name) in enumerate(trick):
                    if i:
                        trumps = [c for c in hands[s] if hp.is_trump(c, trump)]
                        card = hp.card_from_str(name)
                        if names[0] == "JK":
                            if trumps:
                                assert hp.is_trump(card, trump), rec
                                seen["joker led, trump followed"] += 1
                            else:
                                seen["joker led, no trump held"] += 1
                        elif hp.is_trump(lead, trump) and trumps == [hp.JOKER]:
                            assert name == "JK", rec
                            seen["only trump the joker, trump led"] += 1
                    hands[s] = [c for c in hands[s] if str(c) != name]
                if "JK" in names:
                    seen["joker tricks"] += 1
                    winner = next(s for s, c in trick if c == "JK")
                    nxt = plays[4 * t + 4][0] if t < 5 else None
                    assert nxt is None or nxt == winner, rec  # the joker's player leads the next trick
                    if right in names and left in names:
                        seen["joker and both bowers"] += 1
            # and the tricks: whoever played the joker won that trick
            joker_seat = next(s for s, c in plays if c == "JK") if any(c == "JK" for _, c in plays) else None
            if joker_seat is not None:
                assert rec["tricks"][str(joker_seat)] >= 1
    assert all(v > 0 for v in seen.values()), seen
