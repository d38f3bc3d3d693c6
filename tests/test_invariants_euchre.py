"""Invariants of the Standard Euchre twin's records, checked against the rules reference only.

Whatever the players decide, a record of ``tests/reference/euchre_play.py``
(and, when it exists, of the kernel side ``bower.sim.runner.hand_records(...,
variant="euchre")``) must be a legal hand of RULES.md section 4
(``tests/reference/euchre.py``): 24 distinct cards (20 in the hands, the 4
of the kitty, the first of them the up-card); a legal auction whose outcome
is the record's (a hand thrown in only without ``stick_the_dealer``); after
an order the dealer's hand holds the up-card and not its discard (one of
its dealt cards; under ``discard_up`` the discard may be the up-card
itself); the seats alone are the maker and/or one defender (a defender
only under ``allow_lone_defender``; under ``canadian`` the dealer's partner
who ordered up among them) and their partners sit out and
never play; 5 tricks, each with one card per active seat in turn from the
right leader (after a lone maker under ``loner_lead = loner``, the maker's left), every card legal, held by its player and played once; the
tricks as the trick rule counts them; the points of the vector table
(looked up, not recomputed). Whole games add up their hands.

And the deals, exactly: over 40,960 deals of a fixed seed the up-card is
uniform over the 24 cards (chi-square), the number of cards of the
up-card's suit in a given seat's hand follows the hypergeometric law
(5 suit cards among the 23 others, 5 of them dealt to the seat), and the
dealer's side holds or turns up the right bower of the up-card's suit with
probability 1/6 + 5/6 * 10/23 = 73/138.
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from math import comb, sqrt
from pathlib import Path

import pytest

from bower.sim.rules import RULES_VERSION
from tests.reference import euchre as eu
from tests.reference import euchre_play as ep

try:  # the kernel side is written alongside this file (an empty package directory is not it)
    from bower.sim import runner
    from bower.sim.variants import euchre as _kernel_side

    if not hasattr(_kernel_side, "play_order"):
        raise ImportError("sim.variants.euchre has no play_order yet")
except ImportError:  # pragma: no cover
    runner = None

needs_kernel = pytest.mark.skipif(runner is None, reason="sim/variants/euchre.py does not exist yet")

VECTORS = Path(__file__).resolve().parents[1].parent / "shared" / "vectors"
with open(VECTORS / "euchre_scores.jsonl", encoding="utf-8") as _fh:
    SCORE_TABLE = {(v["maker_tricks"], v["maker_alone"], v["lone_defender"]): (v["makers_points"],
                                                                             v["defenders_points"])
                   for v in map(json.loads, filter(str.strip, _fh))}

# loner_lead, canadian and discard_up paired so that each of their values meets both allow_lone_defender values;
# loner_march_score 3, 4, 5 and loner_euchred_score 2, 3, 4 among them; fast_break on in two of the four; farmers
# and go_under (the exchange with the kitty) each on in two, both in one; partners_best in two, each with one of them
ALL_RULES = [{"stick_the_dealer": s, "allow_lone_defender": a, "loner_lead": "loner" if s != a else "dealer",
              "canadian": s, "discard_up": s == a, "loner_march_score": 4 + s - a, "loner_euchred_score": 2 + a + s,
              "fast_break": a, "farmers": s, "go_under": a, "partners_best": s != a}
             for s in (False, True) for a in (False, True)]
RECORD_KEYS = {"variant", "rules_version", "rules", "hand", "dealer", "deal", "kitty", "upcard", "calls", "discard",
               "alone", "maker", "trump", "plays", "tricks", "points"}
NEVER = {n: 99.0 for n in ep.AUCTION_THRESHOLDS}  # never orders or names: thrown in, or a stuck dealer names
LONE = {"alone_min": 2.0, "defend_alone_min": 1.5, "order_min_1": 2.0, "order_min_3": 2.0}  # goes alone a lot
STRATEGIES = ["default", "random", "aggressive", "cautious", "never-alone", LONE, NEVER,
              ["random", LONE, "default", NEVER], [LONE, "random", "aggressive", "random"],
              {"lead_next": 0.0, "lead_trump_min": 1.0, "up_weight": 0.5}]

# Chi-square critical values at p = 1e-6 (scipy.stats.chi2.isf(1e-6, df); scipy is not a dependency:
# computed once from the regularized incomplete gamma function, the df 4 value as the other variants' tests).
CHI2_CRIT = {4: 33.3768, 23: 70.5496}


def _c(names) -> list:
    return [eu.card_from_str(c) for c in names]


def _ascending(names) -> bool:
    return names == [str(c) for c in eu.by_index(_c(names))]


def check_record(rec: dict, hand_index: int, rules: dict, dealer: int | None = None) -> None:
    """Every rule-level invariant of one record (AssertionError or ValueError naming the first broken).

    ``dealer``: the expected dealer (default: that of independent hand
    ``hand_index``, seat ``hand_index % 4``).
    """
    rules = eu.resolve_rules(rules)
    keys = (RECORD_KEYS | ({"exchange"} if rules["farmers"] or rules["go_under"] else set())
            | ({"passed", "loner_discard"} if rules.get("partners_best") else set()))
    assert set(rec) == keys, sorted(set(rec) ^ keys)
    assert rec["variant"] == "euchre" and rec["rules_version"] == RULES_VERSION
    assert rec["hand"] == hand_index and rec["rules"] == rules
    dealer = hand_index % 4 if dealer is None else dealer
    assert rec["dealer"] == dealer
    # 24 cards: 5 in each hand (ascending) and the 4 of the kitty, the first the up-card, all distinct
    dealt = {s: _c(rec["deal"][str(s)]) for s in range(4)}
    assert set(rec["deal"]) == {"0", "1", "2", "3"}
    assert all(len(h) == 5 and _ascending(rec["deal"][str(s)]) for s, h in dealt.items())
    kitty = _c(rec["kitty"])
    assert len(kitty) == 4 and rec["upcard"] == rec["kitty"][0]
    up = kitty[0]
    everything = [c for h in dealt.values() for c in h] + kitty
    assert len(set(everything)) == 24 == len(everything), "24 distinct cards"

    # farmers / go_under: at most one exchange with the kitty, before the first call, by a seat the rules allow
    ex = rec.get("exchange")
    if ex is not None and ex["seat"] >= 0:
        seat = ex["seat"]
        assert _ascending(ex["gave"]) and ex["took"] == [str(c) for c in eu.by_index(kitty[1:])]
        dealt = dict(dealt)
        dealt[seat] = eu.kitty_exchange(dealt[seat], kitty, ex["gave"], rules)  # ValueError: not allowed
    elif ex is not None:
        assert ex == {"seat": -1, "gave": [], "took": []}

    # the auction is legal and its outcome is the record's
    auction = eu.auction_outcome([c for _, c in rec["calls"]], dealer, up, rules)
    assert [list(c) for c in auction.calls] == rec["calls"], "calls by the right seats"
    if auction.thrown_in:
        assert not rules["stick_the_dealer"], "thrown in although the dealer is stuck"
        assert rec["maker"] is None and rec["trump"] is None and rec["discard"] is None
        assert rec["alone"] == [] and rec["plays"] == []
        assert rec["tricks"] == {"0": 0, "1": 0, "2": 0, "3": 0} and rec["points"] == {"0": 0, "1": 0}
        return
    maker, trump = auction.maker, auction.trump
    assert rec["maker"] == maker and rec["trump"] == "CSDH"[trump]

    # the dealer's pick-up: after an order it holds the up-card, not the discard (one of its dealt cards)
    hands = {s: list(h) for s, h in dealt.items()}
    if auction.round == 1:
        assert rec["discard"] is not None and (rules["discard_up"] or rec["discard"] != rec["upcard"])
        discard = eu.card_from_str(rec["discard"])
        assert discard in dealt[dealer] or discard == up, f"discard {discard} not one of the dealer's cards"
        hands[dealer], _ = eu.take_up(dealt[dealer], up, discard, rules)
        assert (up in hands[dealer] or discard == up) and discard not in hands[dealer]
    else:
        assert rec["discard"] is None

    # going alone: the maker and/or one defender; their partners sit out
    alone = rec["alone"]
    assert alone == sorted(set(alone)) and len(alone) <= 2
    maker_alone = maker in alone
    lone = [s for s in alone if s != maker]
    assert len(lone) <= 1
    lone = lone[0] if lone else None
    eu.check_lone_defender(maker, lone, rules)  # a defender, and only under allow_lone_defender
    eu.check_maker_alone(maker, maker_alone, dealer, auction.round, rules)  # canadian: the partner who ordered
    out = eu.sitting_out(maker, maker_alone, lone)
    active = eu.active_seats(maker, maker_alone, lone)
    # partners_best: the lone maker's exchange, checked by the rules reference
    hands, _, _ = eu.partners_exchange([hands[s] for s in range(4)], maker, maker_alone, rec.get("passed"),
                                       rec.get("loner_discard"), rules)
    hands = dict(enumerate(hands))

    # 5 tricks, one card per active seat each, in turn from the right leader; each card legal, held, played once
    plays = [(s, eu.card_from_str(c)) for s, c in rec["plays"]]
    n = len(active)
    assert len(plays) == 5 * n
    assert not any(s in out for s, _ in plays), "a seat that sits out played"
    assert len({c for _, c in plays}) == len(plays), "a card played twice"
    leader = eu.first_leader(dealer, active, maker, maker_alone, rules)  # loner_lead: the lone maker's left
    held = {s: list(hands[s]) for s in active}
    tricks = [0, 0, 0, 0]
    winners = []
    for t in range(5):
        trick = plays[n * t: n * (t + 1)]
        assert [s for s, _ in trick] == eu.play_order(leader, active), f"trick {t}: seats out of turn"
        cards = [c for _, c in trick]
        for i, (s, c) in enumerate(trick):
            assert c in held[s], f"seat {s} does not hold {c}"
            assert c in eu.legal_cards(held[s], cards[0] if i else None, trump), f"seat {s} may not play {c}"
            held[s].remove(c)
        leader = trick[eu.trick_winner(cards, trump)][0]
        tricks[leader] += 1
        winners.append(leader)
    assert all(h == [] for h in held.values())
    assert rec["tricks"] == {str(s): tricks[s] for s in range(4)}
    assert all(tricks[s] == 0 for s in out)
    taken = tricks[maker] + tricks[eu.partner_of(maker)]
    makers, defenders = SCORE_TABLE[(taken, maker_alone, lone is not None)]
    if maker_alone and taken == 5:  # the table's 4 for a lone march: rule loner_march_score
        makers = rules.get("loner_march_score", 4)
    if maker_alone and lone is None and taken < 3:  # the table's 2 for euchring a lone maker: loner_euchred_score
        defenders = rules.get("loner_euchred_score", 2)
    side = eu.side_of(maker)
    if rules.get("fast_break") and taken == 3 and all(eu.side_of(w) != side for w in winners[:2]):
        makers = defenders = 0  # a fast break: the defenders took tricks 1 and 2, the makers 3, 4 and 5
    assert rec["points"] == {str(side): makers, str(1 - side): defenders}


def _kind(rec: dict) -> set[str]:
    """The branches of a hand a record went through (for coverage)."""
    if rec["maker"] is None:
        return {"thrown in"}
    kinds = {"order" if rec["discard"] else "named", f"{len(rec['alone'])} alone"}
    if rec["calls"][-1][0] == rec["dealer"]:
        kinds.add("dealer made trump")
    if rec["maker"] in rec["alone"]:
        kinds.add("maker alone")
    if any(s != rec["maker"] for s in rec["alone"]):
        kinds.add("lone defender")
    side = rec["maker"] % 2
    taken = rec["tricks"][str(side)] + rec["tricks"][str(side + 2)]
    kinds.add("euchred" if taken < 3 else "march" if taken == 5 else "made")
    if taken == 3 and rec["points"] == {"0": 0, "1": 0}:
        kinds.add("fast break")
    points = max(rec["points"].values())
    kinds.add(f"{points} points")
    if (rec["dealer"] + 1) % 4 not in {s for s, _ in rec["plays"]}:
        kinds.add("position 1 sat out")
    if rec["discard"] is not None and rec["discard"] == rec["upcard"]:
        kinds.add("up-card buried")
    if rec["discard"] is not None and rec["maker"] == (rec["dealer"] + 2) % 4 and rec["maker"] in rec["alone"]:
        kinds.add("partner ordered up alone")
    if rec.get("passed"):
        kinds.add("partner's best")
        if rec["passed"] == rec["loner_discard"]:
            kinds.add("partner's card discarded")
    return kinds


@pytest.mark.parametrize("k", range(len(ALL_RULES) * len(STRATEGIES)))
def test_twin_records_are_legal_hands(k):
    rules = ALL_RULES[k % len(ALL_RULES)]
    strategy = STRATEGIES[k // len(ALL_RULES)]
    start = (k % 3) * ep.CHUNK_HANDS + k % 5  # random seats play a chunk from its first hand: stay near it
    records = ep.hand_records(100 + k, start, 40, rules, strategy)
    assert len(records) == 40
    for i, rec in enumerate(records):
        try:
            check_record(rec, start + i, rules)
        except (AssertionError, ValueError) as e:
            raise AssertionError(f"seed {100 + k} hand {start + i} rules {rules} strategy {strategy}: {e}\n{rec}")


def test_records_cover_every_kind_of_hand():
    # Across rule sets and strategies the invariants met every branch of a hand.
    seen: set[str] = set()
    stuck_named = thrown = 0
    for k, rules in enumerate(ALL_RULES):
        for j, strategy in enumerate(("default", "random", LONE, NEVER, [LONE, "random", LONE, "random"])):
            for rec in ep.hand_records(7 + 10 * k + j, 0, 60, rules, strategy):
                seen |= _kind(rec)
                thrown += rec["maker"] is None
                stuck_named += rules["stick_the_dealer"] and len(rec["calls"]) == 8 and rec["maker"] == rec["dealer"]
    want = {"thrown in", "order", "named", "0 alone", "1 alone", "2 alone", "dealer made trump", "maker alone",
            "lone defender", "euchred", "march", "made", "fast break", "1 points", "2 points", "3 points", "4 points",
            "5 points", "position 1 sat out",
            "up-card buried", "partner ordered up alone", "partner's best", "partner's card discarded"}
    assert seen >= want, want - seen
    assert thrown > 0 and stuck_named > 0, (thrown, stuck_named)


def test_stuck_dealer_never_throws_in():
    # NEVER orders nor names: without the stick every hand is thrown in, with it the dealer names every time.
    for rules in ({"stick_the_dealer": False}, {"stick_the_dealer": True}):
        recs = ep.hand_records(3, 0, 40, rules, NEVER)
        for i, rec in enumerate(recs):
            check_record(rec, i, rules)
            assert len(rec["calls"]) == 8
            if rules["stick_the_dealer"]:
                assert rec["maker"] == rec["dealer"] and rec["trump"] != rec["upcard"][1]
            else:
                assert rec["maker"] is None


def _corruptions(rec: dict):
    """Broken copies of a played record, each one breaking one invariant."""

    def changed(f):
        r = copy.deepcopy(rec)
        f(r)
        return r

    dealer = rec["dealer"]
    other = rec["deal"][str((dealer + 1) % 4)][0]
    yield "a card dealt twice", changed(lambda r: r["kitty"].__setitem__(1, r["deal"]["0"][0]))
    yield "the up-card is not the kitty's first", changed(lambda r: r.__setitem__("upcard", r["kitty"][1]))
    yield "two plays swapped", changed(lambda r: r["plays"].__setitem__(slice(0, 2), r["plays"][1::-1]))
    yield "a play by the wrong seat", changed(lambda r: r["plays"][5].__setitem__(0, (r["plays"][5][0] + 1) % 4))
    yield "a trick miscounted", changed(lambda r: r["tricks"].update({"0": r["tricks"]["0"] + 1,
                                                                      "1": r["tricks"]["1"] - 1}))
    yield "a point more", changed(lambda r: r["points"].update({"1": r["points"]["1"] + 1}))
    yield "the dealer discards another's card", changed(lambda r: r.__setitem__("discard", other))
    yield "the dealer discards the up-card", changed(lambda r: r.__setitem__("discard", r["upcard"]))
    yield "the wrong maker", changed(lambda r: r.__setitem__("maker", (r["maker"] + 2) % 4))
    yield "a lone defender not allowed", changed(lambda r: r.__setitem__("alone", [(r["maker"] + 1) % 4]))
    yield "a call out of turn", changed(lambda r: r["calls"][0].__setitem__(0, (r["calls"][0][0] + 1) % 4))
    yield "a play too many", changed(lambda r: r["plays"].append(r["plays"][-1]))
    yield "a card played twice", changed(lambda r: r["plays"][-1].__setitem__(1, r["plays"][0][1]))
    yield "a field missing", changed(lambda r: r.pop("kitty"))


def test_check_record_catches_corruptions():
    # A record of an ordered hand in which both sides took tricks, broken in many ways.
    rules = eu.resolve_rules({})
    for i, rec in enumerate(ep.hand_records(3, 0, 300, rules, "aggressive")):
        if rec["discard"] and rec["tricks"]["1"] and rec["tricks"]["0"] and not rec["alone"]:
            break
    check_record(rec, i, rules)
    for what, bad in _corruptions(rec):
        try:
            check_record(bad, i, rules)
        except (AssertionError, ValueError, KeyError):
            continue
        pytest.fail(f"not caught: {what}")


def test_check_record_catches_canadian_and_discard_up():
    # the partner who ordered up plays with its partner under canadian; the up-card buried without discard_up
    rules = eu.resolve_rules({"canadian": True, "discard_up": True})
    recs = ep.hand_records(9, 0, 400, rules, "random")
    partner = next(r for r in recs if r["discard"] and r["maker"] == (r["dealer"] + 2) % 4 and not
                   (r["dealer"] + 1) % 4 in r["alone"] and not (r["dealer"] + 3) % 4 in r["alone"])
    buried = next(r for r in recs if r["discard"] and r["discard"] == r["upcard"])
    for rec in (partner, buried):
        check_record(rec, rec["hand"], rules)
    bad = copy.deepcopy(partner)
    bad["alone"] = []
    with pytest.raises((AssertionError, ValueError)):
        check_record(bad, bad["hand"], rules)
    with pytest.raises((AssertionError, ValueError)):
        check_record(buried, buried["hand"], dict(rules, discard_up=False))


def test_twin_games_add_up_their_hands():
    for rules in ALL_RULES:
        games = ep.game_details(5, 0, 3, rules, ("default", "random", LONE), [[0, 1, 0, 1], [2, 0, 2, 1]],
                                duplicate=True, keep_records=True)
        for g in games:
            assert g["winner"] is not None
            scores = [0, 0]
            for n, rec in enumerate(g["records"]):
                check_record({k: v for k, v in rec.items() if k != "scores_before"}, n, rules,
                             dealer=(ep.FIRST_DEALER + n) % 4)
                assert rec["scores_before"] == scores
                scores = [scores[s] + rec["points"][str(s)] for s in range(2)]
                assert n == len(g["records"]) - 1 or max(scores) < 10
            assert scores == g["scores"] and g["hands"] == len(g["records"])
            assert eu.game_winner(scores) == g["winner"] and scores[g["winner"]] >= 10 > scores[1 - g["winner"]]
        # duplicate: both assignments of a set see the same deals
        for a, b in zip(games[::2], games[1::2]):
            n = min(a["hands"], b["hands"])
            assert [r["deal"] for r in a["records"][:n]] == [r["deal"] for r in b["records"][:n]]


@needs_kernel
@pytest.mark.parametrize("k", range(len(ALL_RULES)))
def test_kernel_records_are_legal_hands(k):
    rules = ALL_RULES[k]
    for j, strategy in enumerate(STRATEGIES):
        start = j * runner.CHUNK_SIZE + k
        for i, rec in enumerate(runner.hand_records(200 + k, start, 30, rules, strategy, variant="euchre")):
            try:
                check_record(rec, start + i, rules)
            except (AssertionError, ValueError) as e:
                raise AssertionError(f"kernel: seed {200 + k} hand {start + i} rules {rules} {strategy}: {e}\n{rec}")


# ---------------------------------------------------------------- the deals, exactly

DEAL_SEED = 20260117
DEAL_CHUNKS = 10
N_DEALS = DEAL_CHUNKS * ep.CHUNK_HANDS  # 40,960 deals over 10 chunks of the deal stream
P_UP = Fraction(1, 24)
# k cards of the up-card's suit in a given seat's hand: the other 5 cards of that plain suit are among the
# 23 cards that are not the up-card, and a seat's 5 cards are any 5 of those 23.
P_SUIT = [Fraction(comb(5, k) * comb(18, 5 - k), comb(23, 5)) for k in range(6)]
# The right bower of the up-card's suit is the up-card itself when the up-card is a jack (4 of the 24 cards),
# else one of the 23 other cards, and then one of the dealer's side's 10 with probability 10/23.
P_RIGHT_WITH_DEALER = Fraction(4, 24) + Fraction(20, 24) * Fraction(10, 23)
SIGMAS = 5  # every count within 5 standard deviations of its expectation


@pytest.fixture(scope="module")
def twin_deals():
    orders = ep.orders(DEAL_SEED, 0, N_DEALS)
    deals = [eu.deal_cards(o, h % 4) for h, o in enumerate(orders)]
    # the records are dealt from these orders (both sides of a chunk boundary)
    for start in (0, ep.CHUNK_HANDS - 2):
        for rec in ep.hand_records(DEAL_SEED, start, 4):
            d = deals[rec["hand"]]
            assert rec["kitty"] == [str(c) for c in d.kitty]
            assert rec["deal"] == {str(s): [str(c) for c in d.hands[s]] for s in range(4)}
    return deals


def _within_sigmas(count: int, n: int, p: Fraction) -> bool:
    p = float(p)
    return abs(count - n * p) < SIGMAS * sqrt(n * p * (1 - p))


def _chi2(counts, probs, n: int) -> float:
    return sum((c - n * float(p)) ** 2 / (n * float(p)) for c, p in zip(counts, probs))


def test_exact_probabilities():
    assert sum(P_SUIT) == 1 and P_SUIT[0] == Fraction(8568, 33649) and P_SUIT[5] == Fraction(1, 33649)
    assert P_RIGHT_WITH_DEALER == Fraction(73, 138)


def test_up_card_is_uniform_over_the_24_cards(twin_deals):
    # chi-square over the 24 cards (23 degrees of freedom, rejecting only below p = 1e-6), each within 5 sigma
    counts = [0] * 24
    for d in twin_deals:
        counts[d.up_card.index] += 1
    assert sum(counts) == N_DEALS
    stat = _chi2(counts, [P_UP] * 24, N_DEALS)
    assert stat < CHI2_CRIT[23], (stat, counts)
    assert all(_within_sigmas(c, N_DEALS, P_UP) for c in counts), counts


@pytest.mark.parametrize("who", ["seat 0", "dealer"])
def test_cards_of_the_up_cards_suit_in_a_hand_are_hypergeometric(twin_deals, who):
    # counts of k = 0..5 cards of the up-card's (plain) suit; chi-square over k = 0, 1, 2, 3, 4-5
    # (4 degrees of freedom: 5 is too rare, expected ~3, to stand alone), each k within 5 sigma
    counts = [0] * 6
    for d in twin_deals:
        hand = d.hands[0] if who == "seat 0" else d.hands[d.dealer]
        counts[sum(c.suit == d.up_card.suit for c in hand)] += 1
    assert sum(counts) == N_DEALS
    merged, probs = counts[:4] + [counts[4] + counts[5]], P_SUIT[:4] + [P_SUIT[4] + P_SUIT[5]]
    stat = _chi2(merged, probs, N_DEALS)
    assert stat < CHI2_CRIT[4], (stat, counts)
    assert all(_within_sigmas(c, N_DEALS, p) for c, p in zip(counts, P_SUIT)), counts


def test_dealers_side_has_the_right_bower(twin_deals):
    # the right bower of the up-card's suit is turned up or dealt to the dealer or its partner: 73/138
    hits = 0
    for d in twin_deals:
        right = eu.right_bower(d.up_card.suit)
        hits += right == d.up_card or right in d.hands[d.dealer] or right in d.hands[eu.partner_of(d.dealer)]
    assert _within_sigmas(hits, N_DEALS, P_RIGHT_WITH_DEALER), (hits, N_DEALS * float(P_RIGHT_WITH_DEALER))
